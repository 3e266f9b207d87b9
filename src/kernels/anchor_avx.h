/* SPDX-License-Identifier: MIT */
/* An anchored root's moved translation on four double lanes, for the
 * kernel files compiled with AVX (avx.c, avx512.c; included by each so
 * that it takes that file's flags): sgrt__anchored_translation's values,
 * bit for bit, without leaving the registers. */
#ifndef SGRT_KERNELS_ANCHOR_AVX_H
#define SGRT_KERNELS_ANCHOR_AVX_H

#include "kernels.h"
#include <simde/x86/avx.h>

/* The origin as four lanes (x, y, z, 0), once per update. */
static inline simde__m256d sgrt__origin_lanes(const double origin[3])
{
    return simde_mm256_set_pd(0.0, origin[2], origin[1], origin[0]);
}

/* Column 3 (t0, t1, t2, 1) of an affine local with local[15] == 1, moved
 * by the anchor: ((float)(t + (anchor - origin)) per lane, t where the
 * offset is zero, then 1). The anchor's three doubles are read as two
 * and one (nothing past them). */
static inline simde__m128 sgrt__anchored_column3(simde__m128 col3, const double anchor[3],
                                                 simde__m256d origin)
{
    const simde__m256d a = simde_mm256_insertf128_pd(
        simde_mm256_castpd128_pd256(simde_mm_loadu_pd(anchor)), simde_mm_load_sd(anchor + 2), 1);
    const simde__m256d d = simde_mm256_sub_pd(a, origin); /* lane 3: 0 */
    const simde__m256d t = simde_mm256_cvtps_pd(col3);
    const simde__m256d keep = simde_mm256_cmp_pd(d, simde_mm256_setzero_pd(), SIMDE_CMP_EQ_OQ);
    return simde_mm256_cvtpd_ps(simde_mm256_blendv_pd(simde_mm256_add_pd(t, d), t, keep));
}

#endif
