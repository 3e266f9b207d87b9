/* SPDX-License-Identifier: MIT */
/* What the AVX-512 kernel files share (each compiled with -mavx512f): the
 * one-register write primitives and the entries the other files define,
 * which avx512.c puts in the table. */
#ifndef SGRT_KERNELS_AVX512_H
#define SGRT_KERNELS_AVX512_H

#include "kernels.h"
#include <simde/x86/avx512.h>

/* The write path: a matrix is one register; the exponent test, the
 * comparison and the copy are a few instructions each, on integer lanes. */
static inline bool sgrt__avx512_finite(simde__m512i v)
{
    const simde__m512i e = simde_mm512_set1_epi32(0x7F800000);
    return simde_mm512_cmpeq_epi32_mask(simde_mm512_and_si512(v, e), e) == 0;
}

/* Copy v to dst (64-byte aligned) unless the bits are the same; true when
 * it copied. */
static inline bool sgrt__avx512_store(float *dst, simde__m512i v)
{
    if (simde_mm512_cmpeq_epi32_mask(simde_mm512_load_si512(dst), v) == 0xFFFF)
        return false;
    simde_mm512_store_si512(dst, v);
    return true;
}

/* avx512_trs.c: TRS to matrices (the table's trs, put_trs, store_trs,
 * trs_fits). */
void sgrt__avx512_trs(const float *t, const float *q, const float *scale, float *out, uint32_t n);
uint32_t sgrt__avx512_put_trs(float *dst, const float t[3], const float q[4], const float scale[3]);
uint32_t sgrt__avx512_store_trs(float (*local)[16], const uint32_t *slot, const float *t,
                                const float *q, const float *scale, uint32_t n, uint32_t ahead);
bool sgrt__avx512_trs_fits(const float *t, const float *q, const float *scale, uint32_t n);

/* avx512_box.c: world boxes and the cull (the table's boxes, cull). */
void sgrt__avx512_boxes(const sgrt__bounds_view *b, const float (*world)[16], uint32_t w,
                        uint32_t bits);
uint32_t sgrt__avx512_cull(const sgrt__cull_view *v, uint32_t *tested);

#endif
