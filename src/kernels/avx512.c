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
static uint32_t update_avx512(const sgrt__update_view *v)
{
    uint32_t count = 0, last = SGRT__NO_PARENT, lastp = SGRT__NO_PARENT;
    simde__m512 w = simde_mm512_setzero_ps();
    pquad pw = as_parent(w);
    SGRT__FOR_EACH_DIRTY(v, i,
        count++;
        const uint32_t p = v->parent[i];
        /* local and world rows are 64-byte aligned: one cache line. */
        const simde__m512 l = simde_mm512_load_ps(v->local[i]);
        if (p == SGRT__NO_PARENT) {
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
    return count;
}

void sgrt__kernels_init_avx512(sgrt__kernels *k)
{
    k->name = "avx512";
    k->level = SGRT__LEVEL_AVX512;
    k->mul = mul_avx512;
    k->update = update_avx512;
}
