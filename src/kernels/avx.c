/* SPDX-License-Identifier: MIT */
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
#include "anchor_avx.h"

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

static SGRT__ALWAYS_INLINE uint32_t update_loop(const sgrt__update_view *v, const bool large)
{
    /* A large world's: the origin's lanes, and the last row of an affine
     * local in columns 2 and 3 (lanes 3 and 7 of c23: 0 and 1); columns 0
     * and 1 (lanes 3 and 7 of c01) compare with zero. */
    const simde__m256d origin = large ? sgrt__origin_lanes(v->origin) : simde_mm256_setzero_pd();
    const simde__m256 row3 = simde_mm256_set_ps(1, 0, 0, 0, 0, 0, 0, 0);
    uint32_t count = 0, last = SGRT__NONE, lastp = SGRT__NONE;
    pair w = {simde_mm256_setzero_ps(), simde_mm256_setzero_ps()};
    /* The parent of the previous node stays in registers too: its next
     * siblings start without a reload of what was just stored. */
    pdup pw = as_parent(&w);
    SGRT__FOR_EACH_DIRTY_AFTER(v, i,
        count++;
        const mat2 lv = load2(v->local[i]);
        if (!finite2(&lv))
            sgrt__local_repair(v, i);
        const uint32_t p = v->parent[i];
        if (p == SGRT__NONE) {
            w.c01 = simde_mm256_loadu_ps(v->local[i]);
            w.c23 = simde_mm256_loadu_ps(v->local[i] + 8);
            if (!large) {
            } else if ((simde_mm256_movemask_ps(simde_mm256_cmp_ps(w.c01, simde_mm256_setzero_ps(), SIMDE_CMP_NEQ_UQ)) & 0x88) == 0 &&
                       (simde_mm256_movemask_ps(simde_mm256_cmp_ps(w.c23, row3, SIMDE_CMP_NEQ_UQ)) & 0x88) == 0) {
                /* affine, local[15] == 1: column 3 (the high half of c23) moved */
                const simde__m128 c3 = simde_mm256_extractf128_ps(w.c23, 1);
                w.c23 = simde_mm256_insertf128_ps(w.c23, sgrt__anchored_column3(c3, v->anchor[i], origin), 1);
            } else {
                sgrt__anchored_world(v->local[i], v->anchor[i], v->origin, v->world[i]);
                w.c01 = simde_mm256_loadu_ps(v->world[i]);
                w.c23 = simde_mm256_loadu_ps(v->world[i] + 8);
            }
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

/* Two copies of the loop: without anchors it carries no call (a call in
 * the loop would keep the parent's columns on the stack). */
static uint32_t update_avx(const sgrt__update_view *v)
{
    return v->anchor ? update_loop(v, true) : update_loop(v, false);
}

/* T x R x S for 8 nodes at once: quaternions i and i + 4 share a register
 * and one 4 x 4 transpose per 128-bit lane gives one component per
 * register; translations and scales (packed triples, which AVX cannot
 * de-interleave with a permute) are gathered element by element. Every
 * element is computed as the reference computes it (same operations, same
 * order, no FMA); a transpose inside each lane then gives each node's
 * columns, and a swap of lanes each node's matrix. */
static inline simde__m256 pair_load(const float *lo, const float *hi)
{
    return simde_mm256_insertf128_ps(simde_mm256_castps128_ps256(simde_mm_loadu_ps(lo)),
                                     simde_mm_loadu_ps(hi), 1);
}

/* Component c of 8 packed triples at p. */
static inline simde__m256 triple8(const float *p, int c)
{
    return simde_mm256_set_ps(p[21 + c], p[18 + c], p[15 + c], p[12 + c], p[9 + c], p[6 + c],
                              p[3 + c], p[c]);
}

/* In 128-bit lane k of u[j], column g of node 4k + j, from the rows a, b,
 * c, d of that column. */
static inline void columns4(simde__m256 a, simde__m256 b, simde__m256 c, simde__m256 d,
                            simde__m256 u[4])
{
    const simde__m256 t0 = simde_mm256_unpacklo_ps(a, b), t1 = simde_mm256_unpackhi_ps(a, b);
    const simde__m256 t2 = simde_mm256_unpacklo_ps(c, d), t3 = simde_mm256_unpackhi_ps(c, d);
    u[0] = simde_mm256_shuffle_ps(t0, t2, 0x44);
    u[1] = simde_mm256_shuffle_ps(t0, t2, 0xEE);
    u[2] = simde_mm256_shuffle_ps(t1, t3, 0x44);
    u[3] = simde_mm256_shuffle_ps(t1, t3, 0xEE);
}

static void trs_avx(const float *t, const float *q, const float *scale, float *out, uint32_t n)
{
    const simde__m256 one = simde_mm256_set1_ps(1.0f), two = simde_mm256_set1_ps(2.0f);
    const simde__m256 zero = simde_mm256_setzero_ps();
    uint32_t i = 0;
    for (; i + 8u <= n; i += 8u) {
        const float *qi = q + 4u * i;
        simde__m256 x[4];
        columns4(pair_load(qi, qi + 16), pair_load(qi + 4, qi + 20), pair_load(qi + 8, qi + 24),
                 pair_load(qi + 12, qi + 28), x);
        /* x[c]: component c of nodes 0-3 (low lane) and 4-7 (high lane) */
        const simde__m256 qx = x[0], qy = x[1], qz = x[2], qw = x[3];
        const float *si = scale + 3u * i, *ti = t + 3u * i;
        const simde__m256 s0 = triple8(si, 0), s1 = triple8(si, 1), s2 = triple8(si, 2);
        const simde__m256 xx = simde_mm256_mul_ps(qx, qx), yy = simde_mm256_mul_ps(qy, qy);
        const simde__m256 zz = simde_mm256_mul_ps(qz, qz), xy = simde_mm256_mul_ps(qx, qy);
        const simde__m256 xz = simde_mm256_mul_ps(qx, qz), yz = simde_mm256_mul_ps(qy, qz);
        const simde__m256 xw = simde_mm256_mul_ps(qx, qw), yw = simde_mm256_mul_ps(qy, qw);
        const simde__m256 zw = simde_mm256_mul_ps(qz, qw);
#define DIAG(a, b, sc)                                                                 \
    simde_mm256_mul_ps(simde_mm256_sub_ps(one, simde_mm256_mul_ps(two, simde_mm256_add_ps(a, b))), sc)
#define OFF(op, a, b, sc) simde_mm256_mul_ps(simde_mm256_mul_ps(two, op(a, b)), sc)
        simde__m256 g[4][4];
        columns4(DIAG(yy, zz, s0), OFF(simde_mm256_add_ps, xy, zw, s0),
                 OFF(simde_mm256_sub_ps, xz, yw, s0), zero, g[0]);
        columns4(OFF(simde_mm256_sub_ps, xy, zw, s1), DIAG(xx, zz, s1),
                 OFF(simde_mm256_add_ps, yz, xw, s1), zero, g[1]);
        columns4(OFF(simde_mm256_add_ps, xz, yw, s2), OFF(simde_mm256_sub_ps, yz, xw, s2),
                 DIAG(xx, yy, s2), zero, g[2]);
#undef OFF
#undef DIAG
        columns4(triple8(ti, 0), triple8(ti, 1), triple8(ti, 2), one, g[3]);
        for (uint32_t j = 0; j < 4u; j++) {
            float *m = out + 16u * (i + j);
            simde_mm256_storeu_ps(m, simde_mm256_permute2f128_ps(g[0][j], g[1][j], 0x20));
            simde_mm256_storeu_ps(m + 8, simde_mm256_permute2f128_ps(g[2][j], g[3][j], 0x20));
            simde_mm256_storeu_ps(m + 64, simde_mm256_permute2f128_ps(g[0][j], g[1][j], 0x31));
            simde_mm256_storeu_ps(m + 72, simde_mm256_permute2f128_ps(g[2][j], g[3][j], 0x31));
        }
    }
    for (; i < n; i++)
        sgrt__trs_to_mat4(t + 3u * i, q + 4u * i, scale + 3u * i, out + 16u * i);
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

#define PUT16_T mat2
#define PUT16_LOAD(m) load2(m)
#define PUT16_FINITE(v) finite2(&(v))
#define PUT16_STORE(dst, v) store2(dst, &(v))
#include "put16_simd.h"

/* Eight at a time through a buffer of eight matrices (512 bytes, in L1). */
static uint32_t store_trs_avx(float (*local)[16], const uint32_t *slot, const float *t,
                              const float *q, const float *scale, uint32_t n, uint32_t ahead)
{
    float buf[8 * 16];
    uint32_t changed = 0;
    for (uint32_t i = 0; i < n; i += 8u) {
        const uint32_t k = n - i < 8u ? n - i : 8u;
        trs_avx(t + 3u * i, q + 4u * i, scale + 3u * i, buf, k);
        changed |= store16(local, slot + i, buf, k, n - i - k + ahead) << i;
    }
    return changed;
}

static bool trs_fits_avx(const float *t, const float *q, const float *scale, uint32_t n)
{
    return sgrt__trs_fits_generic(t, q, scale, n);
}

/* Skinning palettes (kernels.h: the palette's definition) two columns at a
 * time, as the update's products: L's columns broadcast to both halves, R's
 * elements to theirs. Affine factors leave the zero terms out: columns 0
 * and 1 are (L0 r0 + L1 r1) + L2 r2; of columns 2 and 3, the second (the
 * translation) adds L3 to its L2 term first, the first keeps that term as
 * it is (a blend, not an addition of zero, which would turn -0 into +0). */
static inline simde__m256 two_columns_affine(const pdup *p, simde__m256 r, bool translation)
{
    const simde__m256 b0 = simde_mm256_shuffle_ps(r, r, 0x00);
    const simde__m256 b1 = simde_mm256_shuffle_ps(r, r, 0x55);
    const simde__m256 b2 = simde_mm256_shuffle_ps(r, r, 0xAA);
    const simde__m256 lo = simde_mm256_add_ps(simde_mm256_mul_ps(p->p0, b0),
                                              simde_mm256_mul_ps(p->p1, b1));
    simde__m256 hi = simde_mm256_mul_ps(p->p2, b2);
    if (translation)
        hi = simde_mm256_blend_ps(hi, simde_mm256_add_ps(hi, p->p3), 0xF0);
    return simde_mm256_add_ps(lo, hi);
}

static inline pair palette_product(const pdup *p, const float *r, bool affine)
{
    pair x;
    if (affine) {
        x.c01 = two_columns_affine(p, simde_mm256_loadu_ps(r), false);
        x.c23 = two_columns_affine(p, simde_mm256_loadu_ps(r + 8), true);
    } else {
        x = mul_pair(p, r);
    }
    return x;
}

static void palette_avx(const float *im, uint32_t mode, const float *const *w,
                        const float *const *b, uint32_t n, float *const *out)
{
    const pdup inv = load_parent(im);
    for (uint32_t j = 0; j < n; j++) {
        bool flat = sgrt__affine16(w[j]);
        pair x;
        if (mode & SGRT__PAL_IM_ONE) {
            x.c01 = simde_mm256_loadu_ps(w[j]);
            x.c23 = simde_mm256_loadu_ps(w[j] + 8);
        } else {
            flat = flat && (mode & SGRT__PAL_IM_AFFINE);
            x = palette_product(&inv, w[j], flat);
        }
        if (b) {
            const pdup a = as_parent(&x);
            x = palette_product(&a, b[j], flat && (mode & SGRT__PAL_B_AFFINE));
        }
        /* Rows 0..2 of the columns (c0 | c1), (c2 | c3): u = (c0[0] c2[0]
         * c0[1] c2[1] | c1[0] c3[0] c1[1] c3[1]), its halves swapped, then
         * interleaved again: row 0 in the low half of r0, row 1 in r1's. */
        const simde__m256 u = simde_mm256_unpacklo_ps(x.c01, x.c23);
        const simde__m256 v = simde_mm256_unpackhi_ps(x.c01, x.c23);
        const simde__m256 us = simde_mm256_permute2f128_ps(u, u, 0x01);
        const simde__m256 vs = simde_mm256_permute2f128_ps(v, v, 0x01);
        const simde__m256 r0 = simde_mm256_unpacklo_ps(u, us);
        const simde__m256 r1 = simde_mm256_unpackhi_ps(u, us);
        const simde__m256 r2 = simde_mm256_unpacklo_ps(v, vs);
        simde_mm256_storeu_ps(out[j], simde_mm256_insertf128_ps(r0, simde_mm256_castps256_ps128(r1), 1));
        simde_mm_storeu_ps(out[j] + 8, simde_mm256_castps256_ps128(r2));
    }
}

void sgrt__kernels_init_avx(sgrt__kernels *k)
{
    k->name = "avx";
    k->mul = mul_avx;
    k->update = update_avx;
    k->trs = trs_avx;
    k->trs_fits = trs_fits_avx;
    k->check16 = check16;
    k->store16 = store16;
    k->store_trs = store_trs_avx;
    k->put16 = put16;
    k->boxes = boxes_avx;
    k->cull = cull_avx;
    k->palette = palette_avx;
}
