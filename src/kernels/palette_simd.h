/* SPDX-License-Identifier: MIT */
/* Skinning palettes on 4-wide SIMDe vectors (lanes: a column's four rows),
 * the operations of the definition (kernels.h) in its order: each column
 * of a product from the left factor's columns and broadcast elements of
 * the right one's, then the three rows out of a 4x4 transpose. Included by
 * the 4-wide kernel file (x4.c), compiled with its flags; the AVX level has
 * its own, two columns a register (avx.c). Needs <simde/x86/sse2.h>. */
#ifndef SGRT_KERNELS_PALETTE_SIMD_H
#define SGRT_KERNELS_PALETTE_SIMD_H

#include "kernels.h"

typedef struct pal4 {
    simde__m128 c[4];
} pal4;

static inline simde__m128 pal_lo(const pal4 *l, const float *m)
{
    return simde_mm_add_ps(simde_mm_mul_ps(l->c[0], simde_mm_set1_ps(m[0])),
                           simde_mm_mul_ps(l->c[1], simde_mm_set1_ps(m[1])));
}

static inline pal4 pal_product(const pal4 *l, const float *m, bool affine)
{
    pal4 x;
    if (affine) {
        for (int c = 0; c < 3; c++)
            x.c[c] = simde_mm_add_ps(pal_lo(l, m + 4 * c),
                                     simde_mm_mul_ps(l->c[2], simde_mm_set1_ps(m[4 * c + 2])));
        x.c[3] = simde_mm_add_ps(
            pal_lo(l, m + 12),
            simde_mm_add_ps(simde_mm_mul_ps(l->c[2], simde_mm_set1_ps(m[14])), l->c[3]));
        return x;
    }
    for (int c = 0; c < 4; c++)
        x.c[c] = simde_mm_add_ps(
            pal_lo(l, m + 4 * c),
            simde_mm_add_ps(simde_mm_mul_ps(l->c[2], simde_mm_set1_ps(m[4 * c + 2])),
                            simde_mm_mul_ps(l->c[3], simde_mm_set1_ps(m[4 * c + 3]))));
    return x;
}

static inline pal4 pal_load(const float *m)
{
    pal4 x;
    for (int c = 0; c < 4; c++)
        x.c[c] = simde_mm_loadu_ps(m + 4 * c);
    return x;
}

static void palette_simd(const float *im, uint32_t mode, const float *const *w,
                         const float *const *b, uint32_t n, float *const *out)
{
    const pal4 inv = pal_load(im);
    for (uint32_t j = 0; j < n; j++) {
        bool flat = sgrt__affine16(w[j]);
        pal4 x;
        if (mode & SGRT__PAL_IM_ONE) {
            x = pal_load(w[j]);
        } else {
            flat = flat && (mode & SGRT__PAL_IM_AFFINE);
            x = pal_product(&inv, w[j], flat);
        }
        if (b)
            x = pal_product(&x, b[j], flat && (mode & SGRT__PAL_B_AFFINE));
        SIMDE_MM_TRANSPOSE4_PS(x.c[0], x.c[1], x.c[2], x.c[3]);
        simde_mm_storeu_ps(out[j], x.c[0]);
        simde_mm_storeu_ps(out[j] + 4, x.c[1]);
        simde_mm_storeu_ps(out[j] + 8, x.c[2]);
    }
}

#endif
