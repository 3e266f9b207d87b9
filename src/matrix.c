/* SPDX-License-Identifier: MIT */
/* Matrix helpers outside the per-frame path. Every expression has one fixed
 * evaluation order (the build forbids contraction), so the results are the
 * same on every IEEE-754 target. */
#include "internal.h"
#include "matrix.h"
#include <string.h>

/* A float is NaN or infinite when its exponent is all ones: adding one to
 * the exponent field then carries into the sign position. Branch-free, and
 * written on whole words so that the compiler vectorises the 16-float case. */
bool sgrt__all_finite(const float *v, uint32_t n)
{
    uint32_t bad = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t u;
        memcpy(&u, &v[i], sizeof u);
        bad |= (u & 0x7F800000u) + 0x00800000u;
    }
    return (bad & 0x80000000u) == 0;
}

/* General 4x4 inverse by cofactors (the parent may be any matrix, not only
 * an affine one). Returns false when the determinant is 0 or not finite. */
static bool inverse_d(const double m[16], double inv[16])
{
    const double s0 = m[0] * m[5] - m[4] * m[1];
    const double s1 = m[0] * m[6] - m[4] * m[2];
    const double s2 = m[0] * m[7] - m[4] * m[3];
    const double s3 = m[1] * m[6] - m[5] * m[2];
    const double s4 = m[1] * m[7] - m[5] * m[3];
    const double s5 = m[2] * m[7] - m[6] * m[3];
    const double c5 = m[10] * m[15] - m[14] * m[11];
    const double c4 = m[9] * m[15] - m[13] * m[11];
    const double c3 = m[9] * m[14] - m[13] * m[10];
    const double c2 = m[8] * m[15] - m[12] * m[11];
    const double c1 = m[8] * m[14] - m[12] * m[10];
    const double c0 = m[8] * m[13] - m[12] * m[9];
    const double det = s0 * c5 - s1 * c4 + s2 * c3 + s3 * c2 - s4 * c1 + s5 * c0;
    if (det == 0.0 || !(det - det == 0.0))
        return false;
    const double r = 1.0 / det;
    inv[0] = (m[5] * c5 - m[6] * c4 + m[7] * c3) * r;
    inv[1] = (-m[1] * c5 + m[2] * c4 - m[3] * c3) * r;
    inv[2] = (m[13] * s5 - m[14] * s4 + m[15] * s3) * r;
    inv[3] = (-m[9] * s5 + m[10] * s4 - m[11] * s3) * r;
    inv[4] = (-m[4] * c5 + m[6] * c2 - m[7] * c1) * r;
    inv[5] = (m[0] * c5 - m[2] * c2 + m[3] * c1) * r;
    inv[6] = (-m[12] * s5 + m[14] * s2 - m[15] * s1) * r;
    inv[7] = (m[8] * s5 - m[10] * s2 + m[11] * s1) * r;
    inv[8] = (m[4] * c4 - m[5] * c2 + m[7] * c0) * r;
    inv[9] = (-m[0] * c4 + m[1] * c2 - m[3] * c0) * r;
    inv[10] = (m[12] * s4 - m[13] * s2 + m[15] * s0) * r;
    inv[11] = (-m[8] * s4 + m[9] * s2 - m[11] * s0) * r;
    inv[12] = (-m[4] * c3 + m[5] * c1 - m[6] * c0) * r;
    inv[13] = (m[0] * c3 - m[1] * c1 + m[2] * c0) * r;
    inv[14] = (-m[12] * s3 + m[13] * s1 - m[14] * s0) * r;
    inv[15] = (m[8] * s3 - m[9] * s1 + m[10] * s0) * r;
    return true;
}

bool sgrt__world_kept(const float got[16], const float want[16])
{
    for (int c = 0; c < 4; c++) {
        double scale = 1.0, miss = 0.0;
        for (int r = 0; r < 4; r++) {
            const double w = (double)want[c * 4 + r], d = (double)got[c * 4 + r] - w;
            scale = w > scale ? w : -w > scale ? -w : scale;
            miss = d > miss ? d : -d > miss ? -d : miss;
        }
        if (!(miss <= scale * SGRT__KEEP_WORLD_TOLERANCE))
            return false;
    }
    return true;
}

bool sgrt__relative_local(const float parent[16], const float world[16], float out[16])
{
    double p[16], inv[16];
    for (int i = 0; i < 16; i++)
        p[i] = (double)parent[i];
    if (!inverse_d(p, inv))
        return false;
    float res[16];
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++) {
            const double lo = inv[0 * 4 + r] * (double)world[c * 4 + 0] +
                              inv[1 * 4 + r] * (double)world[c * 4 + 1];
            const double hi = inv[2 * 4 + r] * (double)world[c * 4 + 2] +
                              inv[3 * 4 + r] * (double)world[c * 4 + 3];
            res[c * 4 + r] = (float)(lo + hi);
        }
    if (!sgrt__all_finite(res, 16))
        return false;
    memcpy(out, res, sizeof res);
    return true;
}

bool sgrt__inverse(const float m[16], float out[16])
{
    double d[16], inv[16];
    for (int i = 0; i < 16; i++)
        d[i] = (double)m[i];
    if (!inverse_d(d, inv))
        return false;
    float res[16];
    for (int i = 0; i < 16; i++)
        res[i] = (float)inv[i];
    if (!sgrt__all_finite(res, 16))
        return false;
    memcpy(out, res, sizeof res);
    return true;
}

bool sgrt__keep_world_local(void (*mul)(const float *a, const float *b, float *out),
                            const float parent[16], const float world[16], float out[16])
{
    float local[16], back[16];
    if (!sgrt__all_finite(parent, 16) || !sgrt__all_finite(world, 16) ||
        !sgrt__relative_local(parent, world, local))
        return false;
    /* The update will form the world in float: an ill-conditioned parent
     * can turn the rounding of the new local into a move. */
    mul(parent, local, back);
    if (!sgrt__world_kept(back, world))
        return false;
    memcpy(out, local, sizeof local);
    return true;
}
