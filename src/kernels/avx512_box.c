/* SPDX-License-Identifier: MIT */
/* AVX-512 world boxes and the cull (avx512.h): sixteen slots at a time. */
#include "avx512.h"
#include <float.h>

#include "box_x4.h"

/* A 16 x 16 transpose: row k of the result is element k of the 16 matrices
 * (lane j: matrix j). Four rounds of 16 two-source shuffles, written out so
 * that everything stays in the 32 registers. */
#define UNPACK_PS(k)                                                                   \
    const simde__m512 t##k = simde_mm512_unpacklo_ps(r##k, r##k##b);                  \
    const simde__m512 u##k = simde_mm512_unpackhi_ps(r##k, r##k##b);
#define PD(x) simde_mm512_castps_pd(x)
#define PS(x) simde_mm512_castpd_ps(x)

static inline void transpose16(simde__m512 r[16])
{
    /* Round 1: matrices 2m and 2m + 1 interleaved, per 128-bit lane L:
     * tm = elements 4L, 4L + 1; um = 4L + 2, 4L + 3. */
    const simde__m512 r0 = r[0], r0b = r[1], r1 = r[2], r1b = r[3], r2 = r[4], r2b = r[5];
    const simde__m512 r3 = r[6], r3b = r[7], r4 = r[8], r4b = r[9], r5 = r[10], r5b = r[11];
    const simde__m512 r6 = r[12], r6b = r[13], r7 = r[14], r7b = r[15];
    UNPACK_PS(0) UNPACK_PS(1) UNPACK_PS(2) UNPACK_PS(3)
    UNPACK_PS(4) UNPACK_PS(5) UNPACK_PS(6) UNPACK_PS(7)
    /* Round 2: sg_o = element 4L + o of matrices 4g .. 4g + 3. */
#define ROUND2(g, a, b)                                                                \
    const simde__m512 s##g##0 = PS(simde_mm512_unpacklo_pd(PD(t##a), PD(t##b)));      \
    const simde__m512 s##g##1 = PS(simde_mm512_unpackhi_pd(PD(t##a), PD(t##b)));      \
    const simde__m512 s##g##2 = PS(simde_mm512_unpacklo_pd(PD(u##a), PD(u##b)));      \
    const simde__m512 s##g##3 = PS(simde_mm512_unpackhi_pd(PD(u##a), PD(u##b)));
    ROUND2(0, 0, 1) ROUND2(1, 2, 3) ROUND2(2, 4, 5) ROUND2(3, 6, 7)
    /* Rounds 3 and 4: for each o, a 4 x 4 transpose of 128-bit lanes. */
#define ROUND34(o)                                                                     \
    {                                                                                  \
        const simde__m512 a = simde_mm512_shuffle_f32x4(s0##o, s1##o, 0x88);           \
        const simde__m512 b = simde_mm512_shuffle_f32x4(s0##o, s1##o, 0xDD);           \
        const simde__m512 c = simde_mm512_shuffle_f32x4(s2##o, s3##o, 0x88);           \
        const simde__m512 d = simde_mm512_shuffle_f32x4(s2##o, s3##o, 0xDD);           \
        r[o] = simde_mm512_shuffle_f32x4(a, c, 0x88);                                  \
        r[8 + o] = simde_mm512_shuffle_f32x4(a, c, 0xDD);                              \
        r[4 + o] = simde_mm512_shuffle_f32x4(b, d, 0x88);                              \
        r[12 + o] = simde_mm512_shuffle_f32x4(b, d, 0xDD);                             \
    }
    ROUND34(0) ROUND34(1) ROUND34(2) ROUND34(3)
}
#undef ROUND34
#undef ROUND2
#undef PS
#undef PD
#undef UNPACK_PS

/* The boxes of 16 consecutive slots from `base` (64-byte aligned), lane j
 * slot base + j, written where `lanes` has a bit: the reference's operations
 * on one register per quantity, the worlds turned into one register per
 * matrix element. Other lanes keep what they held. */
static void boxes16(const sgrt__bounds_view *b, const float (*world)[16], uint32_t base,
                    simde__mmask16 lanes)
{
    simde__m512 e[16];
#define LOAD4(k)                                                                       \
    e[k] = simde_mm512_load_ps(world[base + k]);                                      \
    e[k + 1] = simde_mm512_load_ps(world[base + k + 1]);                              \
    e[k + 2] = simde_mm512_load_ps(world[base + k + 2]);                              \
    e[k + 3] = simde_mm512_load_ps(world[base + k + 3]);
    LOAD4(0) LOAD4(4) LOAD4(8) LOAD4(12)
#undef LOAD4
    transpose16(e);
    const simde__m512 c0 = simde_mm512_load_ps(b->c[0] + base);
    const simde__m512 c1 = simde_mm512_load_ps(b->c[1] + base);
    const simde__m512 c2 = simde_mm512_load_ps(b->c[2] + base);
    const simde__m512 h0 = simde_mm512_load_ps(b->e[0] + base);
    const simde__m512 h1 = simde_mm512_load_ps(b->e[1] + base);
    const simde__m512 h2 = simde_mm512_load_ps(b->e[2] + base);
    const simde__m512 gamma = simde_mm512_set1_ps(SGRT__BOX_GAMMA);
    const simde__m512 tiny = simde_mm512_set1_ps(SGRT__BOX_TINY);
    const simde__m512 big = simde_mm512_set1_ps(FLT_MAX);
    const simde__m512 inf = simde_mm512_castsi512_ps(simde_mm512_set1_epi32(0x7F800000));
    const simde__m512 ninf = simde_mm512_castsi512_ps(simde_mm512_set1_epi32((int32_t)0xFF800000u));
    const simde__m512 zero = simde_mm512_setzero_ps();
    const simde__mmask16 affine =
        simde_mm512_cmp_ps_mask(e[3], zero, SIMDE_CMP_EQ_OQ) &
        simde_mm512_cmp_ps_mask(e[7], zero, SIMDE_CMP_EQ_OQ) &
        simde_mm512_cmp_ps_mask(e[11], zero, SIMDE_CMP_EQ_OQ) &
        simde_mm512_cmp_ps_mask(e[15], simde_mm512_set1_ps(1.0f), SIMDE_CMP_EQ_OQ);
    for (uint32_t r = 0; r < 3u; r++) {
        const simde__m512 m0 = e[r], m1 = e[4 + r], m2 = e[8 + r], t = e[12 + r];
        const simde__m512 p0 = simde_mm512_mul_ps(m0, c0), p1 = simde_mm512_mul_ps(m1, c1);
        const simde__m512 p2 = simde_mm512_mul_ps(m2, c2);
        const simde__m512 center =
            simde_mm512_add_ps(simde_mm512_add_ps(p0, p1), simde_mm512_add_ps(p2, t));
        const simde__m512 half = simde_mm512_add_ps(
            simde_mm512_add_ps(simde_mm512_mul_ps(simde_mm512_abs_ps(m0), h0),
                               simde_mm512_mul_ps(simde_mm512_abs_ps(m1), h1)),
            simde_mm512_mul_ps(simde_mm512_abs_ps(m2), h2));
        const simde__m512 mag = simde_mm512_add_ps(
            simde_mm512_add_ps(
                simde_mm512_add_ps(simde_mm512_abs_ps(p0), simde_mm512_abs_ps(p1)),
                simde_mm512_add_ps(simde_mm512_abs_ps(p2), simde_mm512_abs_ps(t))),
            half);
        const simde__m512 reach =
            simde_mm512_add_ps(half, simde_mm512_add_ps(simde_mm512_mul_ps(mag, gamma), tiny));
        const simde__m512 lo = simde_mm512_sub_ps(center, reach);
        const simde__m512 hi = simde_mm512_add_ps(center, reach);
        const simde__mmask16 ok = affine &
                                  simde_mm512_cmp_ps_mask(simde_mm512_abs_ps(lo), big, SIMDE_CMP_LE_OQ) &
                                  simde_mm512_cmp_ps_mask(simde_mm512_abs_ps(hi), big, SIMDE_CMP_LE_OQ);
        /* Lanes outside `lanes` keep the stored values: no masked store in
         * AVX-512F through SIMDe, so a blend into what is there. */
        simde__m512 out_lo = simde_mm512_mask_mov_ps(ninf, ok, lo);
        simde__m512 out_hi = simde_mm512_mask_mov_ps(inf, ok, hi);
        if (lanes != 0xFFFFu) {
            out_lo = simde_mm512_mask_mov_ps(simde_mm512_load_ps(b->lo[r] + base), lanes, out_lo);
            out_hi = simde_mm512_mask_mov_ps(simde_mm512_load_ps(b->hi[r] + base), lanes, out_hi);
        }
        simde_mm512_store_ps(b->lo[r] + base, out_lo);
        simde_mm512_store_ps(b->hi[r] + base, out_hi);
    }
}

/* Dense halves of a word (most of their slots to do: all moved, a new
 * level) go sixteen at a time, the others one by one. */
#define BOXES16_MIN 6

void sgrt__avx512_boxes(const sgrt__bounds_view *b, const float (*world)[16], uint32_t w,
                         uint32_t bits)
{
    for (uint32_t q = 0; q < 2u; q++) {
        uint32_t half = (bits >> (16u * q)) & 0xFFFFu;
        if (sgrt__popcount32(half) >= BOXES16_MIN) {
            boxes16(b, world, 32u * w + 16u * q, (simde__mmask16)half);
            continue;
        }
        while (half) {
            const uint32_t i = 32u * w + 16u * q + sgrt__ctz32(half);
            half &= half - 1u;
            box_one_x4(b, world[i], i);
        }
    }
}

/* The cull on sixteen boxes at a time, the plane tests as mask registers. */
#define CULL_NAME cull_avx512
#define CULL_LANES 16u
#define CULL_V simde__m512
#define CULL_SET1 simde_mm512_set1_ps
#define CULL_LOAD simde_mm512_load_ps
#define CULL_ADD simde_mm512_add_ps
#define CULL_MUL simde_mm512_mul_ps
#define CULL_MAX simde_mm512_max_ps
#define CULL_MIN simde_mm512_min_ps
#define CULL_NEG(x)                                                                    \
    simde_mm512_castsi512_ps(simde_mm512_xor_si512(simde_mm512_castps_si512(x),         \
                                                   simde_mm512_set1_epi32(INT32_MIN)))
#define CULL_LT_BITS(a, b) simde_mm512_cmp_ps_mask((a), (b), SIMDE_CMP_LT_OQ)
#include "cull_simd.h"

uint32_t sgrt__avx512_cull(const sgrt__cull_view *v, uint32_t *tested)
{
    return cull_avx512(v, tested);
}
