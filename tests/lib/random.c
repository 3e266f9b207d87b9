/* SPDX-License-Identifier: MIT */
/* Random transforms for the tests, from the harness's one RNG. */
#include "testutil.h"

void random_unit_quat(rng *r, float q[4])
{
    double d[4], n;
    do {
        n = 0;
        for (int i = 0; i < 4; i++) {
            d[i] = rng_range(r, -1, 1);
            n += d[i] * d[i];
        }
    } while (n < 1e-3 || n > 1);
    n = sqrt(n);
    for (int i = 0; i < 4; i++)
        q[i] = (float)(d[i] / n);
}

void random_affine(rng *r, float out[16])
{
    float qf[4];
    random_unit_quat(r, qf);
    double rot[9];
    quat_rotation(qf[0], qf[1], qf[2], qf[3], rot);
    double sh[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}; /* column-major 3x3 */
    sh[3] = rng_range(r, -0.3, 0.3);
    sh[6] = rng_range(r, -0.3, 0.3);
    sh[7] = rng_range(r, -0.3, 0.3);
    double sc[3];
    for (int i = 0; i < 3; i++)
        sc[i] = rng_range(r, 0.5, 2) * (rng_below(r, 10) == 0 ? -1 : 1);
    linear_part(rot, sc, sh, out);
    for (int i = 12; i < 15; i++)
        out[i] = (float)rng_range(r, -20, 20);
    out[15] = 1.0f;
}
