/* 8-wide combine for x86 CPUs with AVX, written with SIMDe's simde_mm256_*
 * names and compiled with -mavx in this file only; selected at run time.
 * Two output columns per register: lanes 0-3 are column c, lanes 4-7 column
 * c+1. Each parent column is broadcast to both halves and each local element
 * to its half, and the sums keep the reference order
 * (p0*l0 + p1*l1) + (p2*l2 + p3*l3), so results are bit-identical to the
 * reference (no FMA: AVX alone does not have it, and contraction is off). */
#include "kernels.h"
#include <simde/x86/avx.h>

#include "box_x4.h"

typedef struct pdup {
    simde__m256 p0, p1, p2, p3; /* parent column k in both halves */
} pdup;

typedef struct pair {
    simde__m256 c01, c23;
} pair;

static inline pdup load_parent(const float *m)
{
    pdup r;
    r.p0 = simde_mm256_broadcast_ps((const simde__m128 *)(const void *)(m + 0));
    r.p1 = simde_mm256_broadcast_ps((const simde__m128 *)(const void *)(m + 4));
    r.p2 = simde_mm256_broadcast_ps((const simde__m128 *)(const void *)(m + 8));
    r.p3 = simde_mm256_broadcast_ps((const simde__m128 *)(const void *)(m + 12));
    return r;
}

static inline simde__m256 two_columns(const pdup *p, simde__m256 l)
{
    const simde__m256 b0 = simde_mm256_shuffle_ps(l, l, 0x00);
    const simde__m256 b1 = simde_mm256_shuffle_ps(l, l, 0x55);
    const simde__m256 b2 = simde_mm256_shuffle_ps(l, l, 0xAA);
    const simde__m256 b3 = simde_mm256_shuffle_ps(l, l, 0xFF);
    const simde__m256 lo = simde_mm256_add_ps(simde_mm256_mul_ps(p->p0, b0),
                                              simde_mm256_mul_ps(p->p1, b1));
    const simde__m256 hi = simde_mm256_add_ps(simde_mm256_mul_ps(p->p2, b2),
                                              simde_mm256_mul_ps(p->p3, b3));
    return simde_mm256_add_ps(lo, hi);
}

static inline pair mul_pair(const pdup *p, const float *l)
{
    pair r;
    r.c01 = two_columns(p, simde_mm256_loadu_ps(l));
    r.c23 = two_columns(p, simde_mm256_loadu_ps(l + 8));
    return r;
}

/* A product as the next product's parent, without a store and reload. */
static inline pdup as_parent(const pair *w)
{
    pdup r;
    r.p0 = simde_mm256_permute2f128_ps(w->c01, w->c01, 0x00);
    r.p1 = simde_mm256_permute2f128_ps(w->c01, w->c01, 0x11);
    r.p2 = simde_mm256_permute2f128_ps(w->c23, w->c23, 0x00);
    r.p3 = simde_mm256_permute2f128_ps(w->c23, w->c23, 0x11);
    return r;
}

static void mul_avx(const float *a, const float *b, float *out)
{
    const pdup p = load_parent(a);
    const pair r = mul_pair(&p, b);
    simde_mm256_storeu_ps(out, r.c01);
    simde_mm256_storeu_ps(out + 8, r.c23);
}

static void boxes_avx(const sgrt__bounds_view *b, const float (*world)[16], uint32_t w,
                      uint32_t bits)
{
    SGRT__FOR_EACH_IN_WORD(w, bits, i, box_one_x4(b, world[i], i);)
}

static uint32_t update_avx(const sgrt__update_view *v)
{
    uint32_t count = 0, last = SGRT__NONE, lastp = SGRT__NONE;
    pair w = {simde_mm256_setzero_ps(), simde_mm256_setzero_ps()};
    /* The parent of the previous node stays in registers too: its next
     * siblings start without a reload of what was just stored. */
    pdup pw = as_parent(&w);
    SGRT__FOR_EACH_DIRTY_BOXED(v, boxes_avx, i,
        count++;
        const uint32_t p = v->parent[i];
        if (p == SGRT__NONE) {
            w.c01 = simde_mm256_loadu_ps(v->local[i]);
            w.c23 = simde_mm256_loadu_ps(v->local[i] + 8);
        } else {
            if (p != lastp) {
                pw = p == last ? as_parent(&w) : load_parent(v->world[p]);
                lastp = p;
            }
            w = mul_pair(&pw, v->local[i]);
        }
        simde_mm256_storeu_ps(v->world[i], w.c01);
        simde_mm256_storeu_ps(v->world[i] + 8, w.c23);
        last = i;
    )
    return count;
}

/* The cull on eight boxes at a time. */
#define CULL_NAME cull_avx
#define CULL_LANES 8u
#define CULL_V simde__m256
#define CULL_SET1 simde_mm256_set1_ps
#define CULL_LOAD simde_mm256_load_ps
#define CULL_ADD simde_mm256_add_ps
#define CULL_MUL simde_mm256_mul_ps
#define CULL_MAX simde_mm256_max_ps
#define CULL_MIN simde_mm256_min_ps
#define CULL_NEG(x) simde_mm256_xor_ps((x), simde_mm256_set1_ps(-0.0f))
#define CULL_LT_BITS(a, b) simde_mm256_movemask_ps(simde_mm256_cmp_ps((a), (b), SIMDE_CMP_LT_OQ))
#include "cull_simd.h"

/* The write path on two 256-bit halves. AVX has no 256-bit integer compare:
 * an element is finite exactly when x * 0 == 0 (NaN and infinities give
 * NaN), and two halves hold the same bits exactly when their XOR tests all
 * zero (vptest). */
typedef struct mat2 {
    simde__m256 lo, hi;
} mat2;

static inline mat2 load2(const float *m)
{
    mat2 r = {simde_mm256_loadu_ps(m), simde_mm256_loadu_ps(m + 8)};
    return r;
}

static inline bool finite2(const mat2 *m)
{
    const simde__m256 zero = simde_mm256_setzero_ps();
    const simde__m256 a = simde_mm256_cmp_ps(simde_mm256_mul_ps(m->lo, zero), zero, SIMDE_CMP_EQ_OQ);
    const simde__m256 b = simde_mm256_cmp_ps(simde_mm256_mul_ps(m->hi, zero), zero, SIMDE_CMP_EQ_OQ);
    return simde_mm256_movemask_ps(simde_mm256_and_ps(a, b)) == 0xFF;
}

static inline bool store2(float *dst, const mat2 *m)
{
    const simde__m256 d = simde_mm256_or_ps(simde_mm256_xor_ps(simde_mm256_loadu_ps(dst), m->lo),
                                            simde_mm256_xor_ps(simde_mm256_loadu_ps(dst + 8), m->hi));
    const simde__m256i di = simde_mm256_castps_si256(d);
    if (simde_mm256_testz_si256(di, di))
        return false;
    simde_mm256_storeu_ps(dst, m->lo);
    simde_mm256_storeu_ps(dst + 8, m->hi);
    return true;
}

static uint32_t check16_avx(const float *m, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        const mat2 v = load2(m + 16u * i);
        if (!finite2(&v))
            return i;
    }
    return n;
}

static uint32_t store16_avx(float (*local)[16], const uint32_t *slot, const float *m, uint32_t n,
                            uint32_t ahead)
{
    uint32_t changed = 0;
    for (uint32_t i = 0; i < n; i++) {
        SGRT__STORE_AHEAD(local, slot, i, n, ahead);
        const mat2 v = load2(m + 16u * i);
        changed |= (uint32_t)store2(local[slot[i]], &v) << i;
    }
    return changed;
}

static uint32_t put16_avx(float *dst, const float *m)
{
    const mat2 v = load2(m);
    if (!finite2(&v))
        return SGRT__PUT_BAD;
    return store2(dst, &v) ? SGRT__PUT_CHANGED : SGRT__PUT_SAME;
}

void sgrt__kernels_init_avx(sgrt__kernels *k)
{
    k->name = "avx";
    k->mul = mul_avx;
    k->update = update_avx;
    k->check16 = check16_avx;
    k->store16 = store16_avx;
    k->put16 = put16_avx;
    k->boxes = boxes_avx;
    k->cull = cull_avx;
}
