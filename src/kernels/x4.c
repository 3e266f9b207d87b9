/* SPDX-License-Identifier: MIT */
/* The combine written once with SIMDe's simde_mm_* names: SSE on x86, NEON on
 * ARM, SIMDe's portable C elsewhere (or everywhere with SIMDE_NO_NATIVE).
 * Each output column is (p0*l0 + p1*l1) + (p2*l2 + p3*l3), p = parent columns,
 * l = broadcast elements of the local column: the reference order. */
#include "kernels.h"
#include <simde/x86/sse2.h>

#include "box_x4.h"
#include "palette_simd.h"

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

static void mul_x4(const float *a, const float *b, float *out)
{
    const mat4v p = load4(a);
    const mat4v r = mul4(&p, b);
    store4(out, &r);
}

/* The write path: each matrix as four 128-bit integer vectors, checked,
 * compared and copied with a handful of instructions and one load of each
 * side. */
typedef struct mat_bits {
    simde__m128i v[4];
} mat_bits;

static inline mat_bits load_bits(const float *m)
{
    mat_bits r;
    for (uint32_t k = 0; k < 4u; k++)
        r.v[k] = simde_mm_loadu_si128((const simde__m128i *)(const void *)(m + 4u * k));
    return r;
}

static inline bool finite_bits(const mat_bits *m)
{
    const simde__m128i e = simde_mm_set1_epi32(0x7F800000);
    simde__m128i bad = simde_mm_setzero_si128();
    for (uint32_t k = 0; k < 4u; k++)
        bad = simde_mm_or_si128(bad, simde_mm_cmpeq_epi32(simde_mm_and_si128(m->v[k], e), e));
    return simde_mm_movemask_epi8(bad) == 0;
}

/* ARMv7 NEON flushes denormal operands and results to zero (docs/porting.md):
 * the arithmetic whose bits must match every target keeps the reference
 * there. */
#if defined(SIMDE_ARM_NEON_A32V7_NATIVE) && !defined(SIMDE_ARM_NEON_A64V8_NATIVE)
#define X4_FLUSHES 1
#else
#define X4_FLUSHES 0
#endif

static void boxes_x4(const sgrt__bounds_view *b, const float (*world)[16], uint32_t w,
                     uint32_t bits)
{
#if X4_FLUSHES
    SGRT__FOR_EACH_IN_WORD(w, bits, i, sgrt__box_ref(b, world[i], i);)
#else
    SGRT__FOR_EACH_IN_WORD(w, bits, i, box_one_x4(b, world[i], i);)
#endif
}

static SGRT__ALWAYS_INLINE uint32_t update_loop(const sgrt__update_view *v, const bool large)
{
    uint32_t count = 0;
    /* The last world computed stays in registers: when the next dirty node is
     * its child (a chain, or the first child stored right after its parent)
     * the product starts without waiting for a store and reload. So does the
     * previous node's parent, for its next siblings. */
    uint32_t last = SGRT__NONE, lastp = SGRT__NONE;
    mat4v w = {simde_mm_setzero_ps(), simde_mm_setzero_ps(), simde_mm_setzero_ps(),
               simde_mm_setzero_ps()};
    mat4v pw = w;
    SGRT__FOR_EACH_DIRTY_AFTER(v, i,
        count++;
        const mat_bits lb = load_bits(v->local[i]);
        if (!finite_bits(&lb))
            sgrt__local_repair(v, i);
        const uint32_t p = v->parent[i];
        if (p == SGRT__NONE) {
            float tr[3];
            w = load4(v->local[i]);
            if (!large) {
            } else if (sgrt__anchored_translation(v->local[i], v->anchor[i], v->origin, tr)) {
                w.c3 = simde_mm_set_ps(1.0f, tr[2], tr[1], tr[0]); /* the moved translation */
            } else {
                sgrt__anchored_world(v->local[i], v->anchor[i], v->origin, v->world[i]);
                w = load4(v->world[i]);
            }
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

/* Two copies of the loop: without anchors it carries no call (a call in
 * the loop would keep the parent's columns on the stack). */
static uint32_t update_x4(const sgrt__update_view *v)
{
    return v->anchor ? update_loop(v, true) : update_loop(v, false);
}

#if !X4_FLUSHES
/* The cull on four boxes at a time. */
#define CULL_NAME cull_x4
#define CULL_LANES 4u
#define CULL_V simde__m128
#define CULL_SET1 simde_mm_set1_ps
#define CULL_LOAD simde_mm_load_ps
#define CULL_ADD simde_mm_add_ps
#define CULL_MUL simde_mm_mul_ps
#define CULL_MAX simde_mm_max_ps
#define CULL_MIN simde_mm_min_ps
#define CULL_NEG(x) simde_mm_xor_ps((x), simde_mm_set1_ps(-0.0f))
#define CULL_LT_BITS(a, b) simde_mm_movemask_ps(simde_mm_cmplt_ps((a), (b)))
#include "cull_simd.h"
#endif

/* T x R x S for four nodes at once: the quaternions transposed so that each
 * register holds one component of four nodes, every matrix element computed
 * as the reference computes it (same operations, same order, no FMA), then
 * transposed back into four column-major matrices. */
static void trs_x4(const float *t, const float *q, const float *scale, float *out, uint32_t n)
{
    const simde__m128 one = simde_mm_set1_ps(1.0f), two = simde_mm_set1_ps(2.0f);
    const simde__m128 zero = simde_mm_setzero_ps();
    uint32_t i = 0;
    for (; i + 4u <= n; i += 4u) {
        const float *qi = q + 4u * i, *si = scale + 3u * i, *ti = t + 3u * i;
        simde__m128 x = simde_mm_loadu_ps(qi), y = simde_mm_loadu_ps(qi + 4);
        simde__m128 z = simde_mm_loadu_ps(qi + 8), w = simde_mm_loadu_ps(qi + 12);
        SIMDE_MM_TRANSPOSE4_PS(x, y, z, w);
        const simde__m128 s0 = simde_mm_set_ps(si[9], si[6], si[3], si[0]);
        const simde__m128 s1 = simde_mm_set_ps(si[10], si[7], si[4], si[1]);
        const simde__m128 s2 = simde_mm_set_ps(si[11], si[8], si[5], si[2]);
        const simde__m128 xx = simde_mm_mul_ps(x, x), yy = simde_mm_mul_ps(y, y);
        const simde__m128 zz = simde_mm_mul_ps(z, z), xy = simde_mm_mul_ps(x, y);
        const simde__m128 xz = simde_mm_mul_ps(x, z), yz = simde_mm_mul_ps(y, z);
        const simde__m128 xw = simde_mm_mul_ps(x, w), yw = simde_mm_mul_ps(y, w);
        const simde__m128 zw = simde_mm_mul_ps(z, w);
#define DIAG(a, b, sc) simde_mm_mul_ps(simde_mm_sub_ps(one, simde_mm_mul_ps(two, simde_mm_add_ps(a, b))), sc)
#define OFF(op, a, b, sc) simde_mm_mul_ps(simde_mm_mul_ps(two, op(a, b)), sc)
        simde__m128 c00 = DIAG(yy, zz, s0), c01 = OFF(simde_mm_add_ps, xy, zw, s0);
        simde__m128 c02 = OFF(simde_mm_sub_ps, xz, yw, s0), c03 = zero;
        simde__m128 c10 = OFF(simde_mm_sub_ps, xy, zw, s1), c11 = DIAG(xx, zz, s1);
        simde__m128 c12 = OFF(simde_mm_add_ps, yz, xw, s1), c13 = zero;
        simde__m128 c20 = OFF(simde_mm_add_ps, xz, yw, s2), c21 = OFF(simde_mm_sub_ps, yz, xw, s2);
        simde__m128 c22 = DIAG(xx, yy, s2), c23 = zero;
#undef OFF
#undef DIAG
        SIMDE_MM_TRANSPOSE4_PS(c00, c01, c02, c03);
        SIMDE_MM_TRANSPOSE4_PS(c10, c11, c12, c13);
        SIMDE_MM_TRANSPOSE4_PS(c20, c21, c22, c23);
        const simde__m128 col0[4] = {c00, c01, c02, c03}, col1[4] = {c10, c11, c12, c13};
        const simde__m128 col2[4] = {c20, c21, c22, c23};
        for (uint32_t j = 0; j < 4u; j++) {
            float *m = out + 16u * (i + j);
            simde_mm_storeu_ps(m + 0, col0[j]);
            simde_mm_storeu_ps(m + 4, col1[j]);
            simde_mm_storeu_ps(m + 8, col2[j]);
            m[12] = ti[3u * j + 0u];
            m[13] = ti[3u * j + 1u];
            m[14] = ti[3u * j + 2u];
            m[15] = 1.0f;
        }
    }
    for (; i < n; i++)
        sgrt__trs_to_mat4(t + 3u * i, q + 4u * i, scale + 3u * i, out + 16u * i);
}

/* Copy m to dst unless the bits are the same; true when it copied. */
static inline bool store_bits(float *dst, const mat_bits *m)
{
    simde__m128i diff = simde_mm_setzero_si128();
    for (uint32_t k = 0; k < 4u; k++)
        diff = simde_mm_or_si128(
            diff, simde_mm_xor_si128(
                      simde_mm_loadu_si128((const simde__m128i *)(const void *)(dst + 4u * k)),
                      m->v[k]));
    if (simde_mm_movemask_epi8(simde_mm_cmpeq_epi8(diff, simde_mm_setzero_si128())) == 0xFFFF)
        return false;
    for (uint32_t k = 0; k < 4u; k++)
        simde_mm_storeu_si128((simde__m128i *)(void *)(dst + 4u * k), m->v[k]);
    return true;
}

#define PUT16_T mat_bits
#define PUT16_LOAD(m) load_bits(m)
#define PUT16_FINITE(v) finite_bits(&(v))
#define PUT16_STORE(dst, v) store_bits(dst, &(v))
#include "put16_simd.h"

/* One node's T x R x S in four registers, a column each. Column c (c < 3)
 * holds, in rows 0-2, 2 (a + b) (the diagonal: 1 - 2 (a + b)) times scale c,
 * where a and b are products of quaternion components chosen by shuffles
 * and b's sign is flipped where the reference subtracts (x - y is x + -y in
 * IEEE arithmetic: the same rounding); row 3 is masked to 0. */
#define SHUF(q, a, b, c) simde_mm_shuffle_ps(q, q, SIMDE_MM_SHUFFLE(3, c, b, a))
static inline simde__m128 trs_column(simde__m128 pa0, simde__m128 pa1, simde__m128 pb0,
                                     simde__m128 pb1, simde__m128 sign, simde__m128 diag,
                                     float scale)
{
    const simde__m128 one = simde_mm_set1_ps(1.0f), two = simde_mm_set1_ps(2.0f);
    const simde__m128 sum = simde_mm_add_ps(simde_mm_mul_ps(pa0, pa1),
                                            simde_mm_xor_ps(simde_mm_mul_ps(pb0, pb1), sign));
    const simde__m128 u = simde_mm_mul_ps(two, sum);
    const simde__m128 d = simde_mm_sub_ps(one, u);
    const simde__m128 v = simde_mm_or_ps(simde_mm_and_ps(diag, d), simde_mm_andnot_ps(diag, u));
    const simde__m128 rows = simde_mm_castsi128_ps(simde_mm_set_epi32(0, -1, -1, -1));
    return simde_mm_and_ps(simde_mm_mul_ps(v, simde_mm_set1_ps(scale)), rows);
}

static uint32_t put_trs_x4(float *dst, const float t[3], const float q[4], const float scale[3])
{
    const simde__m128 v = simde_mm_loadu_ps(q); /* x y z w */
    const simde__m128 neg = simde_mm_set1_ps(-0.0f);
    const simde__m128 lane0 = simde_mm_castsi128_ps(simde_mm_set_epi32(0, 0, 0, -1));
    const simde__m128 lane1 = simde_mm_castsi128_ps(simde_mm_set_epi32(0, 0, -1, 0));
    const simde__m128 lane2 = simde_mm_castsi128_ps(simde_mm_set_epi32(0, -1, 0, 0));
    /* rows: (yy + zz, xy + zw, xz - yw) */
    const simde__m128 c0 = trs_column(SHUF(v, 1, 0, 0), SHUF(v, 1, 1, 2), SHUF(v, 2, 2, 1),
                                      SHUF(v, 2, 3, 3), simde_mm_and_ps(lane2, neg), lane0,
                                      scale[0]);
    /* (xy - zw, xx + zz, yz + xw) */
    const simde__m128 c1 = trs_column(SHUF(v, 0, 0, 1), SHUF(v, 1, 0, 2), SHUF(v, 2, 2, 0),
                                      SHUF(v, 3, 2, 3), simde_mm_and_ps(lane0, neg), lane1,
                                      scale[1]);
    /* (xz + yw, yz - xw, xx + yy) */
    const simde__m128 c2 = trs_column(SHUF(v, 0, 1, 0), SHUF(v, 2, 2, 0), SHUF(v, 1, 0, 1),
                                      SHUF(v, 3, 3, 1), simde_mm_and_ps(lane1, neg), lane2,
                                      scale[2]);
    mat_bits b;
    b.v[0] = simde_mm_castps_si128(c0);
    b.v[1] = simde_mm_castps_si128(c1);
    b.v[2] = simde_mm_castps_si128(c2);
    b.v[3] = simde_mm_castps_si128(simde_mm_set_ps(1.0f, t[2], t[1], t[0]));
    if (!finite_bits(&b))
        return SGRT__PUT_BAD;
    return store_bits(dst, &b) ? SGRT__PUT_CHANGED : SGRT__PUT_SAME;
}
#undef SHUF

/* The names of sgrt_simd_name: what SIMDe compiles this file to. */
#if defined(SIMDE_X86_SSE2_NATIVE)
#define X4_NAME "sse2"
#elif defined(SIMDE_ARM_NEON_A32V7_NATIVE)
#define X4_NAME "neon"
#else
#define X4_NAME "simde-portable"
#endif

#if !X4_FLUSHES
/* Four at a time through a buffer of four matrices (256 bytes, in L1). */
static uint32_t store_trs_x4(float (*local)[16], const uint32_t *slot, const float *t,
                             const float *q, const float *scale, uint32_t n, uint32_t ahead)
{
    float buf[4 * 16];
    uint32_t changed = 0;
    for (uint32_t i = 0; i < n; i += 4u) {
        const uint32_t k = n - i < 4u ? n - i : 4u;
        trs_x4(t + 3u * i, q + 4u * i, scale + 3u * i, buf, k);
        changed |= store16(local, slot + i, buf, k, n - i - k + ahead) << i;
    }
    return changed;
}
#endif

static bool trs_fits_x4(const float *t, const float *q, const float *scale, uint32_t n)
{
    return sgrt__trs_fits_generic(t, q, scale, n);
}

void sgrt__kernels_init_x4(sgrt__kernels *k)
{
    k->name = X4_NAME;
    k->mul = mul_x4;
    k->update = update_x4;
    k->check16 = check16;
    k->store16 = store16;
    k->put16 = put16;
    k->boxes = boxes_x4;
    k->trs_fits = trs_fits_x4; /* integer tests: the same on every target */
#if !X4_FLUSHES
    /* The conversions and culls keep the reference on ARMv7 NEON, which
     * flushes denormals to zero, so that a local matrix and a cull's answer
     * have the same bits on every target. */
    k->trs = trs_x4;
    k->store_trs = store_trs_x4;
    k->put_trs = put_trs_x4;
    k->cull = cull_x4;
    k->palette = palette_simd;
#endif
}
