/* SPDX-License-Identifier: MIT */
/* A model of ARMv7 NEON single-precision arithmetic, as a kernel table.
 *
 * ARMv7 Advanced SIMD always runs with flush-to-zero and default-NaN, whatever
 * FPSCR says (VFP scalar code honours FPSCR, which Linux leaves at IEEE):
 *   - a denormal operand is read as a zero of the same sign;
 *   - a result that is tiny (below FLT_MIN in magnitude) *before rounding*
 *     becomes a zero of its sign;
 *   - every NaN result is the default NaN.
 * Products are formed exactly in double (24 + 24 bits fit in 53) so that
 * "tiny before rounding" is decided on the exact product; a sum of floats that
 * is tiny is exact, so deciding on the rounded sum is the same thing.
 *
 * The model follows the order every kernel uses (src/kernels.h): each element
 * is (a0*b0 + a1*b1) + (a2*b2 + a3*b3). It runs on any IEEE target, so the
 * results that ARMv7 NEON must give can be computed and checked anywhere;
 * on 32-bit ARM the NEON kernel must agree with it bit for bit (NaNs aside).
 * Test-only: include after internal.h.
 */
#ifndef SGRT_TEST_ARMV7_NEON_MODEL_H
#define SGRT_TEST_ARMV7_NEON_MODEL_H

#include "internal.h"

#include <string.h>

static inline float armv7_ftz(float x)
{
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    if ((u & 0x7F800000u) == 0 && (u & 0x007FFFFFu) != 0) {
        u &= 0x80000000u;
        memcpy(&x, &u, sizeof u);
    }
    return x;
}

static inline float armv7_mul1(float a, float b)
{
    const double p = (double)armv7_ftz(a) * (double)armv7_ftz(b);
    if (p != 0.0 && p > -1.1754943508222875e-38 && p < 1.1754943508222875e-38) /* FLT_MIN */
        return p < 0.0 ? -0.0f : 0.0f;
    return (float)p;
}

static inline float armv7_add1(float a, float b) { return armv7_ftz(armv7_ftz(a) + armv7_ftz(b)); }

static inline void armv7_neon_mul(const float *a, const float *b, float *out)
{
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++) {
            const float lo = armv7_add1(armv7_mul1(a[0 * 4 + r], b[c * 4 + 0]),
                                        armv7_mul1(a[1 * 4 + r], b[c * 4 + 1]));
            const float hi = armv7_add1(armv7_mul1(a[2 * 4 + r], b[c * 4 + 2]),
                                        armv7_mul1(a[3 * 4 + r], b[c * 4 + 3]));
            out[c * 4 + r] = armv7_add1(lo, hi);
        }
}

/* The update pass as every kernel does it: dirty slots in increasing order,
 * bits and summary cleared, roots copied (copies do not flush). */
static inline uint32_t armv7_neon_update(const sgrt__update_view *v)
{
    uint32_t count = 0;
    for (uint32_t si = v->sum_first; si < v->sum_end; si++) {
        uint32_t sb = v->dirty_sum[si];
        v->dirty_sum[si] = 0;
        while (sb) {
            const uint32_t wi = si * 32u + sgrt__ctz32(sb);
            sb &= sb - 1u;
            uint32_t bits = v->dirty[wi];
            const uint32_t done = bits;
            v->dirty[wi] = 0;
            while (bits) {
                const uint32_t i = wi * 32u + sgrt__ctz32(bits);
                bits &= bits - 1u;
                count++;
                if (!sgrt__finite16(v->local[i]))
                    sgrt__local_repair(v, i);
                if (v->parent[i] != SGRT__NONE)
                    armv7_neon_mul(v->world[v->parent[i]], v->local[i], v->world[i]);
                else if (v->anchor) /* a large world: IEEE double, as every kernel */
                    sgrt__anchored_world(v->local[i], v->anchor[i], v->origin, v->world[i]);
                else
                    memcpy(v->world[i], v->local[i], sizeof v->world[i]);
            }
            if (v->after)
                v->after(v->after_ctx, wi, done);
        }
    }
    return count;
}

/* Writes stay on the reference on ARMv7 (src/kernels/x4.c): the model too. */
static inline void armv7_neon_trs(const float *t, const float *q, const float *scale,
                                  float *out, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        sgrt__trs_to_mat4(t + 3u * i, q + 4u * i, scale + 3u * i, out + 16u * i);
}

/* The model's table: the reference's (the write path's integer checks and
 * copies are exact everywhere), with the model's arithmetic. Built once. */
static inline const sgrt__kernels *armv7_neon_model(void)
{
    static sgrt__kernels k;
    if (!k.name) {
        sgrt__kernels_init(&k, SGRT__LEVEL_SCALAR);
        k.mul = armv7_neon_mul;
        k.update = armv7_neon_update;
        k.trs = armv7_neon_trs;
        k.name = "armv7-neon model";
    }
    return &k;
}

/* The table a scene created with default options runs, and the reference. */
static inline sgrt__kernels kernels_at(uint32_t level)
{
    sgrt__kernels k;
    sgrt__kernels_init(&k, level);
    return k;
}
static inline sgrt__kernels kernels_default(void) { return kernels_at(sgrt__kernels_choose(0, NULL)); }

/* True when kernel k flushes a denormal operand to zero. */
static inline bool kernel_flushes_denormals(const sgrt__kernels *k)
{
    const float a[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    float b[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    float out[16];
    b[12] = 1e-40f;
    k->mul(a, b, out);
    return memcmp(&out[12], &b[12], sizeof(float)) != 0;
}

#endif
