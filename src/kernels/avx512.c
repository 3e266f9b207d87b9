/* SPDX-License-Identifier: MIT */
/* 16-wide combine for x86 CPUs with AVX-512F, written with SIMDe's
 * simde_mm512_* names and compiled with -mavx512f in this file only (and
 * in avx512_trs.c and avx512_box.c, which hold the TRS conversions and the
 * boxes and cull); selected at run time. One register holds a whole matrix:
 * 128-bit lane c is column c.
 * For output column c, lane c needs parent column k times local element
 * [c][k]: each parent column is broadcast to all four lanes, and an in-lane
 * shuffle of the local matrix broadcasts element k of every column within its
 * own lane. The sums keep the reference order (p0*l0 + p1*l1) + (p2*l2 + p3*l3)
 * with no fused multiply-add, so results are bit-identical to the reference. */
#include "avx512.h"
#include "anchor_avx.h"

typedef struct pquad {
    simde__m512 p0, p1, p2, p3; /* parent column k in all four lanes */
} pquad;

static inline pquad load_parent(const float *m)
{
    pquad r;
    r.p0 = simde_mm512_broadcast_f32x4(simde_mm_loadu_ps(m + 0));
    r.p1 = simde_mm512_broadcast_f32x4(simde_mm_loadu_ps(m + 4));
    r.p2 = simde_mm512_broadcast_f32x4(simde_mm_loadu_ps(m + 8));
    r.p3 = simde_mm512_broadcast_f32x4(simde_mm_loadu_ps(m + 12));
    return r;
}

/* A product as the next product's parent, without a store and reload. */
static inline pquad as_parent(simde__m512 w)
{
    pquad r;
    r.p0 = simde_mm512_shuffle_f32x4(w, w, 0x00);
    r.p1 = simde_mm512_shuffle_f32x4(w, w, 0x55);
    r.p2 = simde_mm512_shuffle_f32x4(w, w, 0xAA);
    r.p3 = simde_mm512_shuffle_f32x4(w, w, 0xFF);
    return r;
}

static inline simde__m512 mul16(const pquad *p, simde__m512 l)
{
    const simde__m512 b0 = simde_mm512_shuffle_ps(l, l, 0x00);
    const simde__m512 b1 = simde_mm512_shuffle_ps(l, l, 0x55);
    const simde__m512 b2 = simde_mm512_shuffle_ps(l, l, 0xAA);
    const simde__m512 b3 = simde_mm512_shuffle_ps(l, l, 0xFF);
    const simde__m512 lo = simde_mm512_add_ps(simde_mm512_mul_ps(p->p0, b0),
                                              simde_mm512_mul_ps(p->p1, b1));
    const simde__m512 hi = simde_mm512_add_ps(simde_mm512_mul_ps(p->p2, b2),
                                              simde_mm512_mul_ps(p->p3, b3));
    return simde_mm512_add_ps(lo, hi);
}

static void mul_avx512(const float *a, const float *b, float *out)
{
    const pquad p = load_parent(a);
    simde_mm512_storeu_ps(out, mul16(&p, simde_mm512_loadu_ps(b)));
}

/* Two parents stay in registers: the previous node (first child, chain) and
 * the previous node's parent (its next siblings), so that most products start
 * without a reload that would wait on the store just made. */
static SGRT__ALWAYS_INLINE uint32_t update_loop(const sgrt__update_view *v, const bool large)
{
    /* A large world's: the origin's lanes, and the last row of an affine
     * local (lanes 3, 7, 11, 15). */
    const simde__m256d origin = large ? sgrt__origin_lanes(v->origin) : simde_mm256_setzero_pd();
    const simde__m512 row3 = simde_mm512_set_ps(1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    uint32_t count = 0, last = SGRT__NONE, lastp = SGRT__NONE;
    simde__m512 w = simde_mm512_setzero_ps();
    pquad pw = as_parent(w);
    SGRT__FOR_EACH_DIRTY_AFTER(v, i,
        count++;
        const uint32_t p = v->parent[i];
        /* local and world rows are 64-byte aligned: one cache line. */
        simde__m512 l = simde_mm512_load_ps(v->local[i]);
        if (!sgrt__avx512_finite(simde_mm512_castps_si512(l))) {
            sgrt__local_repair(v, i);
            l = simde_mm512_loadu_ps(sgrt__identity);
        }
        if (p == SGRT__NONE) {
            w = l;
            if (!large) {
            } else if ((simde_mm512_cmp_ps_mask(l, row3, SIMDE_CMP_NEQ_UQ) & 0x8888) == 0) {
                /* affine, local[15] == 1: column 3 (lanes 12..15) moved */
                const simde__m128 c3 = simde_mm512_extractf32x4_ps(l, 3);
                w = simde_mm512_insertf32x4(l, sgrt__anchored_column3(c3, v->anchor[i], origin), 3);
            } else {
                sgrt__anchored_world(v->local[i], v->anchor[i], v->origin, v->world[i]);
                w = simde_mm512_load_ps(v->world[i]);
            }
        } else {
            if (p != lastp) {
                pw = p == last ? as_parent(w) : load_parent(v->world[p]);
                lastp = p;
            }
            w = mul16(&pw, l);
        }
        simde_mm512_store_ps(v->world[i], w);
        last = i;
    )
    return count;
}

/* Two copies of the loop: without anchors it carries no call (a call in
 * the loop would keep the parent's columns on the stack). */
static uint32_t update_avx512(const sgrt__update_view *v)
{
    return v->anchor ? update_loop(v, true) : update_loop(v, false);
}

#define PUT16_T simde__m512i
#define PUT16_LOAD(m) simde_mm512_loadu_si512(m)
#define PUT16_FINITE(v) sgrt__avx512_finite(v)
#define PUT16_STORE(dst, v) sgrt__avx512_store(dst, v)
#include "put16_simd.h"

/* The closure of a word, eight slots at a time on 256-bit lanes (AVX2,
 * which AVX-512F includes; SIMDe has no 512-bit gathers): the bits of
 * parents in other words (and in `done`) are gathered at once, final as
 * they are, instead of a branch per slot on a bit as unpredictable as the
 * moves; then the slots whose parent is in this word are closed by
 * repeating the step until it marks nothing (parents come before children:
 * the fixed point is the slot-order result, reached in as many steps as the
 * longest chain inside the word). */
static uint32_t close_word_avx512(const uint32_t *parent, const uint32_t *dirty,
                                  const uint32_t *done, const uint32_t *done_dirty, uint32_t w,
                                  uint32_t clean)
{
    const simde__m256i zero = simde_mm256_setzero_si256(), one = simde_mm256_set1_epi32(1);
    const simde__m256i k31 = simde_mm256_set1_epi32(31), wv = simde_mm256_set1_epi32((int32_t)w);
    const simde__m256i none = simde_mm256_set1_epi32(-1);
    const simde__m256i lane_bit = simde_mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
    uint32_t d = dirty[w], here = 0;
    simde__m256i shift[4];
    for (uint32_t g = 0; g < 4u; g++) {
        shift[g] = zero;
        const uint32_t c = (clean >> (8u * g)) & 0xFFu;
        if (!c)
            continue;
        const simde__m256i p =
            simde_mm256_loadu_si256((const simde__m256i *)(const void *)(parent + 32u * w + 8u * g));
        const simde__m256i word = simde_mm256_srli_epi32(p, 5);
        shift[g] = simde_mm256_and_si256(p, k31);
        const simde__m256i in_c = simde_mm256_cmpeq_epi32(
            simde_mm256_and_si256(simde_mm256_set1_epi32((int32_t)c), lane_bit), lane_bit);
        const simde__m256i valid = simde_mm256_andnot_si256(simde_mm256_cmpeq_epi32(p, none), in_c);
        simde__m256i from_done = zero;
        if (done) {
            const simde__m256i gd = simde_mm256_mask_i32gather_epi32(
                zero, (const int32_t *)(const void *)done, word, valid, 4);
            from_done = simde_mm256_and_si256(
                valid, simde_mm256_cmpeq_epi32(
                           simde_mm256_and_si256(simde_mm256_srlv_epi32(gd, shift[g]), one), one));
        }
        const simde__m256i inside = simde_mm256_andnot_si256(
            from_done, simde_mm256_and_si256(valid, simde_mm256_cmpeq_epi32(word, wv)));
        const simde__m256i other = simde_mm256_andnot_si256(inside, valid);
        simde__m256i bits = simde_mm256_mask_i32gather_epi32(
            zero, (const int32_t *)(const void *)dirty, word,
            simde_mm256_andnot_si256(from_done, other), 4);
        if (done)
            bits = simde_mm256_mask_i32gather_epi32(
                bits, (const int32_t *)(const void *)done_dirty, word, from_done, 4);
        const simde__m256i set = simde_mm256_and_si256(
            other, simde_mm256_cmpeq_epi32(
                       simde_mm256_and_si256(simde_mm256_srlv_epi32(bits, shift[g]), one), one));
        d |= (uint32_t)simde_mm256_movemask_ps(simde_mm256_castsi256_ps(set)) << (8u * g);
        here |= (uint32_t)simde_mm256_movemask_ps(simde_mm256_castsi256_ps(inside)) << (8u * g);
    }
    here &= ~d;
    while (here) {
        const simde__m256i dv = simde_mm256_set1_epi32((int32_t)d);
        uint32_t add = 0;
        for (uint32_t g = 0; g < 4u; g++) {
            if (!((here >> (8u * g)) & 0xFFu))
                continue;
            const simde__m256i b =
                simde_mm256_and_si256(simde_mm256_srlv_epi32(dv, shift[g]), one);
            add |= (uint32_t)simde_mm256_movemask_ps(
                       simde_mm256_castsi256_ps(simde_mm256_cmpeq_epi32(b, one)))
                   << (8u * g);
        }
        add &= here;
        if (!add)
            break;
        d |= add;
        here &= ~add;
    }
    return d;
}

void sgrt__kernels_init_avx512(sgrt__kernels *k, uint32_t cpu)
{
    /* The products: on a CPU that splits 512-bit operations in halves the
     * AVX versions are faster. The write path's loads, compares and copies
     * are not products, and one register per matrix halves the
     * instructions there too. */
    k->name = "avx512";
    k->trs = sgrt__avx512_trs;
    k->trs_fits = sgrt__avx512_trs_fits;
    k->check16 = check16;
    k->store16 = store16;
    k->store_trs = sgrt__avx512_store_trs;
    k->put16 = put16;
    k->put_trs = sgrt__avx512_put_trs;
    k->boxes = sgrt__avx512_boxes;
    k->close_word = close_word_avx512;
    if (cpu & SGRT__CPU_SLOW_ZMM)
        return; /* its AVX2 XXH3 then (select.c) */
    k->xxh3 = sgrt__xxh3_once_avx512;
    k->xxh3_update = sgrt__xxh3_update_avx512;
    k->cull = sgrt__avx512_cull;
    k->mul = mul_avx512;
    k->update = update_avx512;
}
