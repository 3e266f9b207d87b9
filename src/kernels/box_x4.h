/* SPDX-License-Identifier: MIT */
/* The world box of one slot on 4-wide SIMDe vectors (lanes: the axes x, y,
 * z, and the unused w), the operations of the reference's definition
 * (kernels.h) in its order. Included by each SIMD kernel file, so that it
 * is compiled with that file's flags; needs <simde/x86/sse2.h>. */
#ifndef SGRT_KERNELS_BOX_X4_H
#define SGRT_KERNELS_BOX_X4_H

#include "kernels.h"
#include <float.h>

static inline void box_one_x4(const sgrt__bounds_view *b, const float *m, uint32_t i)
{
    const simde__m128 sign = simde_mm_set1_ps(-0.0f);
    const simde__m128 c0 = simde_mm_loadu_ps(m), c1 = simde_mm_loadu_ps(m + 4);
    const simde__m128 c2 = simde_mm_loadu_ps(m + 8), c3 = simde_mm_loadu_ps(m + 12);
    const simde__m128 p0 = simde_mm_mul_ps(c0, simde_mm_set1_ps(b->c[0][i]));
    const simde__m128 p1 = simde_mm_mul_ps(c1, simde_mm_set1_ps(b->c[1][i]));
    const simde__m128 p2 = simde_mm_mul_ps(c2, simde_mm_set1_ps(b->c[2][i]));
    const simde__m128 center = simde_mm_add_ps(simde_mm_add_ps(p0, p1), simde_mm_add_ps(p2, c3));
    const simde__m128 half = simde_mm_add_ps(
        simde_mm_add_ps(simde_mm_mul_ps(simde_mm_andnot_ps(sign, c0), simde_mm_set1_ps(b->e[0][i])),
                        simde_mm_mul_ps(simde_mm_andnot_ps(sign, c1), simde_mm_set1_ps(b->e[1][i]))),
        simde_mm_mul_ps(simde_mm_andnot_ps(sign, c2), simde_mm_set1_ps(b->e[2][i])));
    const simde__m128 mag = simde_mm_add_ps(
        simde_mm_add_ps(
            simde_mm_add_ps(simde_mm_andnot_ps(sign, p0), simde_mm_andnot_ps(sign, p1)),
            simde_mm_add_ps(simde_mm_andnot_ps(sign, p2), simde_mm_andnot_ps(sign, c3))),
        half);
    const simde__m128 reach = simde_mm_add_ps(
        half, simde_mm_add_ps(simde_mm_mul_ps(mag, simde_mm_set1_ps(SGRT__BOX_GAMMA)),
                              simde_mm_set1_ps(SGRT__BOX_TINY)));
    const simde__m128 lo = simde_mm_sub_ps(center, reach), hi = simde_mm_add_ps(center, reach);
    const simde__m128 big = simde_mm_set1_ps(FLT_MAX);
    const int finite = simde_mm_movemask_ps(
        simde_mm_and_ps(simde_mm_cmple_ps(simde_mm_andnot_ps(sign, lo), big),
                        simde_mm_cmple_ps(simde_mm_andnot_ps(sign, hi), big)));
    /* The last row, (m[3], m[7], m[11], m[15]), against (0, 0, 0, 1). */
    const simde__m128 row3 = simde_mm_movehl_ps(simde_mm_unpackhi_ps(c2, c3),
                                                simde_mm_unpackhi_ps(c0, c1));
    const int affine =
        simde_mm_movemask_ps(simde_mm_cmpeq_ps(row3, simde_mm_set_ps(1.0f, 0.0f, 0.0f, 0.0f)));
    float l[4], h[4];
    simde_mm_storeu_ps(l, lo);
    simde_mm_storeu_ps(h, hi);
    if (affine != 0xF || (finite & 7) != 7) {
        const float inf = sgrt__f32_from_bits(0x7F800000u);
        for (int r = 0; r < 3; r++)
            if (affine != 0xF || !((finite >> r) & 1)) {
                l[r] = -inf;
                h[r] = inf;
            }
    }
    b->lo[0][i] = l[0];
    b->lo[1][i] = l[1];
    b->lo[2][i] = l[2];
    b->hi[0][i] = h[0];
    b->hi[1][i] = h[1];
    b->hi[2][i] = h[2];
}

#endif
