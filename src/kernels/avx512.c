/* 16-wide combine for x86 CPUs with AVX-512F, written with SIMDe's
 * simde_mm512_* names and compiled with -mavx512f in this file only; selected
 * at run time. One register holds a whole matrix: 128-bit lane c is column c.
 * For output column c, lane c needs parent column k times local element
 * [c][k]: each parent column is broadcast to all four lanes, and an in-lane
 * shuffle of the local matrix broadcasts element k of every column within its
 * own lane. The sums keep the reference order (p0*l0 + p1*l1) + (p2*l2 + p3*l3)
 * with no fused multiply-add, so results are bit-identical to the reference. */
#include "kernels.h"
#include <simde/x86/avx512.h>

#include "box_x4.h"

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
static void boxes_avx512(const sgrt__bounds_view *b, const float (*world)[16], uint32_t w,
                         uint32_t bits)
{
    SGRT__FOR_EACH_IN_WORD(w, bits, i, box_one_x4(b, world[i], i);)
}

static uint32_t update_avx512(const sgrt__update_view *v)
{
    uint32_t count = 0, last = SGRT__NONE, lastp = SGRT__NONE;
    simde__m512 w = simde_mm512_setzero_ps();
    pquad pw = as_parent(w);
    SGRT__FOR_EACH_SUMMARIZED(v->dirty_sum, v->sum_first, v->sum_end, v->dirty, true, wi, bits,
        const uint32_t done = bits;
        SGRT__FOR_EACH_IN_WORD(wi, bits, i,
            count++;
            const uint32_t p = v->parent[i];
            /* local and world rows are 64-byte aligned: one cache line. */
            const simde__m512 l = simde_mm512_load_ps(v->local[i]);
            if (p == SGRT__NONE) {
                w = l;
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
        /* The word's worlds are still in L1. */
        if (v->bounds && (done & v->bounds->has[wi]))
            boxes_avx512(v->bounds, (const float(*)[16])v->world, wi, done & v->bounds->has[wi]);
    )
    return count;
}

/* The cull on sixteen boxes at a time: the plane tests as mask registers. */
static uint32_t cull_avx512(const sgrt__cull_view *v, uint32_t *tested)
{
    simde__m512 pn[8][5];
    for (uint32_t k = 0; k < v->plane_count; k++) {
        const sgrt__cull_plane *pl = &v->plane[k];
        pn[k][0] = simde_mm512_set1_ps(pl->n[0]);
        pn[k][1] = simde_mm512_set1_ps(pl->n[1]);
        pn[k][2] = simde_mm512_set1_ps(pl->n[2]);
        pn[k][3] = simde_mm512_set1_ps(pl->k);
        pn[k][4] = simde_mm512_set1_ps(pl->lim);
    }
    const simde__m512i sign = simde_mm512_set1_epi32((int32_t)0x80000000u);
    uint32_t visible = 0, cands = 0;
    for (uint32_t w = v->w_first; w < v->w_end; w++) {
        const uint32_t cand = v->a[w] & v->b[w] & (v->c ? v->c[w] : ~0u);
        const uint32_t keep = v->keep ? v->keep[w] : 0u;
        uint32_t in = 0;
        for (uint32_t q = 0; cand && q < 2u; q++) {
            if (!((cand >> (16u * q)) & 0xFFFFu))
                continue;
            const uint32_t base = 32u * w + 16u * q;
            const simde__m512 mh = simde_mm512_max_ps(
                simde_mm512_max_ps(simde_mm512_load_ps(v->hi[0] + base),
                                   simde_mm512_load_ps(v->hi[1] + base)),
                simde_mm512_load_ps(v->hi[2] + base));
            const simde__m512 ml = simde_mm512_min_ps(
                simde_mm512_min_ps(simde_mm512_load_ps(v->lo[0] + base),
                                   simde_mm512_load_ps(v->lo[1] + base)),
                simde_mm512_load_ps(v->lo[2] + base));
            const simde__m512 m = simde_mm512_max_ps(
                mh, simde_mm512_castsi512_ps(simde_mm512_xor_si512(simde_mm512_castps_si512(ml), sign)));
            simde__mmask16 out = 0;
            for (uint32_t k = 0; k < v->plane_count; k++) {
                const sgrt__cull_plane *pl = &v->plane[k];
                const simde__m512 g = simde_mm512_add_ps(
                    simde_mm512_add_ps(simde_mm512_mul_ps(pn[k][0], simde_mm512_load_ps(pl->p[0] + base)),
                                       simde_mm512_mul_ps(pn[k][1], simde_mm512_load_ps(pl->p[1] + base))),
                    simde_mm512_add_ps(simde_mm512_mul_ps(pn[k][2], simde_mm512_load_ps(pl->p[2] + base)),
                                       simde_mm512_mul_ps(pn[k][3], m)));
                out |= simde_mm512_cmp_ps_mask(g, pn[k][4], SIMDE_CMP_LT_OQ);
            }
            in |= (uint32_t)(uint16_t)~out << (16u * q);
        }
        cands += sgrt__popcount32(cand);
        const uint32_t r = (in & cand) | keep;
        v->out[w] = r;
        visible += sgrt__popcount32(r);
    }
    *tested = cands;
    return visible;
}

/* The write path: a matrix is one register; the exponent test, the
 * comparison and the copy are a few instructions each, on integer lanes. */
static inline bool finite1(simde__m512i v)
{
    const simde__m512i e = simde_mm512_set1_epi32(0x7F800000);
    return simde_mm512_cmpeq_epi32_mask(simde_mm512_and_si512(v, e), e) == 0;
}

static inline bool store1(float *dst, simde__m512i v)
{
    if (simde_mm512_cmpeq_epi32_mask(simde_mm512_load_si512(dst), v) == 0xFFFF)
        return false;
    simde_mm512_store_si512(dst, v);
    return true;
}

static uint32_t check16_avx512(const float *m, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        if (!finite1(simde_mm512_loadu_si512(m + 16u * i)))
            return i;
    return n;
}

static uint32_t store16_avx512(float (*local)[16], const uint32_t *slot, const float *m,
                               uint32_t n, uint32_t ahead)
{
    uint32_t changed = 0;
    for (uint32_t i = 0; i < n; i++) {
        SGRT__STORE_AHEAD(local, slot, i, n, ahead);
        changed |= (uint32_t)store1(local[slot[i]], simde_mm512_loadu_si512(m + 16u * i)) << i;
    }
    return changed;
}

static uint32_t put16_avx512(float *dst, const float *m)
{
    const simde__m512i v = simde_mm512_loadu_si512(m);
    if (!finite1(v))
        return SGRT__PUT_BAD;
    return store1(dst, v) ? SGRT__PUT_CHANGED : SGRT__PUT_SAME;
}

void sgrt__kernels_init_avx512(sgrt__kernels *k, uint32_t cpu)
{
    /* The products: on a CPU that splits 512-bit operations in halves the
     * AVX versions are faster. The write path's loads, compares and copies
     * are not products, and one register per matrix halves the
     * instructions there too. */
    k->name = "avx512";
    k->check16 = check16_avx512;
    k->store16 = store16_avx512;
    k->put16 = put16_avx512;
    k->boxes = boxes_avx512;
    if (cpu & SGRT__CPU_SLOW_ZMM)
        return;
    k->cull = cull_avx512;
    k->mul = mul_avx512;
    k->update = update_avx512;
}
