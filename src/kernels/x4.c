/* The combine written once with SIMDe's simde_mm_* names: SSE on x86, NEON on
 * ARM, SIMDe's portable C elsewhere (or everywhere with SIMDE_NO_NATIVE).
 * Each output column is (p0*l0 + p1*l1) + (p2*l2 + p3*l3), p = parent columns,
 * l = broadcast elements of the local column: the reference order. */
#include "kernels.h"
#include <simde/x86/sse.h>

typedef struct mat4v {
    simde__m128 c0, c1, c2, c3;
} mat4v;

static inline mat4v load4(const float *m)
{
    mat4v r;
    r.c0 = simde_mm_loadu_ps(m + 0);
    r.c1 = simde_mm_loadu_ps(m + 4);
    r.c2 = simde_mm_loadu_ps(m + 8);
    r.c3 = simde_mm_loadu_ps(m + 12);
    return r;
}

static inline void store4(float *m, const mat4v *v)
{
    simde_mm_storeu_ps(m + 0, v->c0);
    simde_mm_storeu_ps(m + 4, v->c1);
    simde_mm_storeu_ps(m + 8, v->c2);
    simde_mm_storeu_ps(m + 12, v->c3);
}

/* One load of the local column and in-register shuffles: SSE has no
 * broadcast from memory, so set1 per element costs a load and a shuffle. */
static inline simde__m128 column(const mat4v *p, const float *l)
{
    const simde__m128 lc = simde_mm_loadu_ps(l);
    const simde__m128 lo = simde_mm_add_ps(simde_mm_mul_ps(p->c0, simde_mm_shuffle_ps(lc, lc, 0x00)),
                                           simde_mm_mul_ps(p->c1, simde_mm_shuffle_ps(lc, lc, 0x55)));
    const simde__m128 hi = simde_mm_add_ps(simde_mm_mul_ps(p->c2, simde_mm_shuffle_ps(lc, lc, 0xAA)),
                                           simde_mm_mul_ps(p->c3, simde_mm_shuffle_ps(lc, lc, 0xFF)));
    return simde_mm_add_ps(lo, hi);
}

static inline mat4v mul4(const mat4v *p, const float *l)
{
    mat4v r;
    r.c0 = column(p, l + 0);
    r.c1 = column(p, l + 4);
    r.c2 = column(p, l + 8);
    r.c3 = column(p, l + 12);
    return r;
}

static void mul_simde(const float *a, const float *b, float *out)
{
    const mat4v p = load4(a);
    const mat4v r = mul4(&p, b);
    store4(out, &r);
}

static uint32_t update_simde(const sgrt__update_view *v)
{
    uint32_t count = 0;
    /* The last world computed stays in registers: when the next dirty node is
     * its child (a chain, or the first child stored right after its parent)
     * the product starts without waiting for a store and reload. So does the
     * previous node's parent, for its next siblings. */
    uint32_t last = SGRT__NO_PARENT, lastp = SGRT__NO_PARENT;
    mat4v w = {simde_mm_setzero_ps(), simde_mm_setzero_ps(), simde_mm_setzero_ps(),
               simde_mm_setzero_ps()};
    mat4v pw = w;
    SGRT__FOR_EACH_DIRTY(v, i,
        count++;
        const uint32_t p = v->parent[i];
        if (p == SGRT__NO_PARENT) {
            w = load4(v->local[i]);
        } else {
            if (p != lastp) {
                pw = p == last ? w : load4(v->world[p]);
                lastp = p;
            }
            w = mul4(&pw, v->local[i]);
        }
        store4(v->world[i], &w);
        last = i;
    )
    return count;
}

/* The names of sgrt_simd_name: what SIMDe compiles this file to. */
#if defined(SIMDE_X86_SSE2_NATIVE)
#define X4_NAME "sse2"
#elif defined(SIMDE_ARM_NEON_A32V7_NATIVE)
#define X4_NAME "neon"
#else
#define X4_NAME "simde-portable"
#endif

void sgrt__kernels_init_x4(sgrt__kernels *k)
{
    k->name = X4_NAME;
    k->level = SGRT__LEVEL_X4;
    k->mul = mul_simde;
    k->update = update_simde;
}
