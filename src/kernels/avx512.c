/* SPDX-License-Identifier: MIT */
/* 16-wide combine for x86 CPUs with AVX-512F, written with SIMDe's
 * simde_mm512_* names and compiled with -mavx512f in this file only; selected
 * at run time. One register holds a whole matrix: 128-bit lane c is column c.
 * For output column c, lane c needs parent column k times local element
 * [c][k]: each parent column is broadcast to all four lanes, and an in-lane
 * shuffle of the local matrix broadcasts element k of every column within its
 * own lane. The sums keep the reference order (p0*l0 + p1*l1) + (p2*l2 + p3*l3)
 * with no fused multiply-add, so results are bit-identical to the reference. */
#include "kernels.h"
#include <float.h>
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

static void boxes_avx512(const sgrt__bounds_view *b, const float (*world)[16], uint32_t w,
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

static uint32_t update_avx512(const sgrt__update_view *v)
{
    uint32_t count = 0, last = SGRT__NONE, lastp = SGRT__NONE;
    simde__m512 w = simde_mm512_setzero_ps();
    pquad pw = as_parent(w);
    SGRT__FOR_EACH_DIRTY_BOXED(v, boxes_avx512, i,
        count++;
        const uint32_t p = v->parent[i];
        /* local and world rows are 64-byte aligned: one cache line. */
        simde__m512 l = simde_mm512_load_ps(v->local[i]);
        if (!finite1(simde_mm512_castps_si512(l))) {
            sgrt__local_repair(v, i);
            l = simde_mm512_loadu_ps(sgrt__identity);
        }
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
    return count;
}

/* T x R x S for 16 nodes at once: the inputs de-interleaved into one
 * register per component (two-source permutes), every element computed as
 * the reference computes it (same operations, same order, no FMA), then
 * re-interleaved into 16 column-major matrices: a 4 x 4 transpose inside
 * each 128-bit lane gives each node's columns, a 4 x 4 transpose of lanes
 * gives each node's matrix. */
static const int32_t trs_index[][16] = {
    /* x, y of quaternions 0-7 from two registers of 4 quaternions each; z, w */
    {0, 4, 8, 12, 16, 20, 24, 28, 1, 5, 9, 13, 17, 21, 25, 29},
    {2, 6, 10, 14, 18, 22, 26, 30, 3, 7, 11, 15, 19, 23, 27, 31},
    /* the low and the high eight lanes of two registers */
    {0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23},
    {8, 9, 10, 11, 12, 13, 14, 15, 24, 25, 26, 27, 28, 29, 30, 31},
    /* component c of 16 packed triples: 3j + c from the first two registers,
     * then 3j + c - 32 from the third (rows 4-6: c = 0, 1, 2; rows 7-9) */
    {0, 3, 6, 9, 12, 15, 18, 21, 24, 27, 30, 0, 0, 0, 0, 0},
    {1, 4, 7, 10, 13, 16, 19, 22, 25, 28, 31, 0, 0, 0, 0, 0},
    {2, 5, 8, 11, 14, 17, 20, 23, 26, 29, 0, 0, 0, 0, 0, 0},
    {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 4, 7, 10, 13},
    {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 5, 8, 11, 14},
    {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 6, 9, 12, 15},
};

static inline simde__m512i trs_idx(int row)
{
    return simde_mm512_loadu_si512(trs_index[row]);
}

/* Component c of 16 packed triples at p (48 floats). */
static inline simde__m512 triple_component(const float *p, int c)
{
    const simde__m512 a = simde_mm512_loadu_ps(p), b = simde_mm512_loadu_ps(p + 16);
    const simde__m512 lo = simde_mm512_permutex2var_ps(a, trs_idx(4 + c), b);
    /* lanes 11-15 (c = 0, 1) or 10-15 (c = 2) lie in the third register */
    const simde__mmask16 hi = c == 2 ? (simde__mmask16)0xFC00 : (simde__mmask16)0xF800;
    return simde_mm512_mask_permutexvar_ps(lo, hi, trs_idx(7 + c), simde_mm512_loadu_ps(p + 32));
}

/* Columns g of 16 nodes from a, b, c, d (one row each): in 128-bit lane k
 * of u[j], the column of node 4k + j. */
static inline void columns4(simde__m512 a, simde__m512 b, simde__m512 c, simde__m512 d,
                            simde__m512 u[4])
{
    const simde__m512 t0 = simde_mm512_unpacklo_ps(a, b), t1 = simde_mm512_unpackhi_ps(a, b);
    const simde__m512 t2 = simde_mm512_unpacklo_ps(c, d), t3 = simde_mm512_unpackhi_ps(c, d);
    u[0] = simde_mm512_shuffle_ps(t0, t2, 0x44);
    u[1] = simde_mm512_shuffle_ps(t0, t2, 0xEE);
    u[2] = simde_mm512_shuffle_ps(t1, t3, 0x44);
    u[3] = simde_mm512_shuffle_ps(t1, t3, 0xEE);
}

/* The matrices of 16 packed TRS entries from t, q, scale: m[k] is entry k's. */
static inline void trs16(const float *t, const float *q, const float *scale, simde__m512 m[16])
{
    const simde__m512 one = simde_mm512_set1_ps(1.0f), two = simde_mm512_set1_ps(2.0f);
    const simde__m512 zero = simde_mm512_setzero_ps();
    const float *qi = q;
    const simde__m512 q0 = simde_mm512_loadu_ps(qi), q1 = simde_mm512_loadu_ps(qi + 16);
    const simde__m512 q2 = simde_mm512_loadu_ps(qi + 32), q3 = simde_mm512_loadu_ps(qi + 48);
    const simde__m512 xy0 = simde_mm512_permutex2var_ps(q0, trs_idx(0), q1);
    const simde__m512 zw0 = simde_mm512_permutex2var_ps(q0, trs_idx(1), q1);
    const simde__m512 xy1 = simde_mm512_permutex2var_ps(q2, trs_idx(0), q3);
    const simde__m512 zw1 = simde_mm512_permutex2var_ps(q2, trs_idx(1), q3);
    const simde__m512 x = simde_mm512_permutex2var_ps(xy0, trs_idx(2), xy1);
    const simde__m512 y = simde_mm512_permutex2var_ps(xy0, trs_idx(3), xy1);
    const simde__m512 z = simde_mm512_permutex2var_ps(zw0, trs_idx(2), zw1);
    const simde__m512 w = simde_mm512_permutex2var_ps(zw0, trs_idx(3), zw1);
    const float *si = scale, *ti = t;
    const simde__m512 s0 = triple_component(si, 0), s1 = triple_component(si, 1);
    const simde__m512 s2 = triple_component(si, 2);
    const simde__m512 xx = simde_mm512_mul_ps(x, x), yy = simde_mm512_mul_ps(y, y);
    const simde__m512 zz = simde_mm512_mul_ps(z, z), xy = simde_mm512_mul_ps(x, y);
    const simde__m512 xz = simde_mm512_mul_ps(x, z), yz = simde_mm512_mul_ps(y, z);
    const simde__m512 xw = simde_mm512_mul_ps(x, w), yw = simde_mm512_mul_ps(y, w);
    const simde__m512 zw = simde_mm512_mul_ps(z, w);
#define DIAG(a, b, sc)                                                                 \
    simde_mm512_mul_ps(simde_mm512_sub_ps(one, simde_mm512_mul_ps(two, simde_mm512_add_ps(a, b))), sc)
#define OFF(op, a, b, sc) simde_mm512_mul_ps(simde_mm512_mul_ps(two, op(a, b)), sc)
    simde__m512 g[4][4];
    columns4(DIAG(yy, zz, s0), OFF(simde_mm512_add_ps, xy, zw, s0),
             OFF(simde_mm512_sub_ps, xz, yw, s0), zero, g[0]);
    columns4(OFF(simde_mm512_sub_ps, xy, zw, s1), DIAG(xx, zz, s1),
             OFF(simde_mm512_add_ps, yz, xw, s1), zero, g[1]);
    columns4(OFF(simde_mm512_add_ps, xz, yw, s2), OFF(simde_mm512_sub_ps, yz, xw, s2),
             DIAG(xx, yy, s2), zero, g[2]);
#undef OFF
#undef DIAG
    columns4(triple_component(ti, 0), triple_component(ti, 1), triple_component(ti, 2), one,
             g[3]);
    for (uint32_t j = 0; j < 4u; j++) {
        const simde__m512 p0 = simde_mm512_shuffle_f32x4(g[0][j], g[1][j], 0x44);
        const simde__m512 p1 = simde_mm512_shuffle_f32x4(g[0][j], g[1][j], 0xEE);
        const simde__m512 p2 = simde_mm512_shuffle_f32x4(g[2][j], g[3][j], 0x44);
        const simde__m512 p3 = simde_mm512_shuffle_f32x4(g[2][j], g[3][j], 0xEE);
        m[j] = simde_mm512_shuffle_f32x4(p0, p2, 0x88);
        m[j + 4] = simde_mm512_shuffle_f32x4(p0, p2, 0xDD);
        m[j + 8] = simde_mm512_shuffle_f32x4(p1, p3, 0x88);
        m[j + 12] = simde_mm512_shuffle_f32x4(p1, p3, 0xDD);
    }
}

static void trs_avx512(const float *t, const float *q, const float *scale, float *out, uint32_t n)
{
    uint32_t i = 0;
    for (; i + 16u <= n; i += 16u) {
        simde__m512 m[16];
        trs16(t + 3u * i, q + 4u * i, scale + 3u * i, m);
        for (uint32_t k = 0; k < 16u; k++)
            simde_mm512_storeu_ps(out + 16u * (i + k), m[k]);
    }
    for (; i < n; i++)
        sgrt__trs_to_mat4(t + 3u * i, q + 4u * i, scale + 3u * i, out + 16u * i);
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

/* One node's T x R x S in one register: element e is 2 (a + b) (on the
 * diagonal 1 - 2 (a + b)) times its column's scale, with a and b products
 * of quaternion components that permutes put in place and b's sign flipped
 * where the reference subtracts (x - y is x + -y in IEEE arithmetic: the
 * same rounding). The translation and the constant row are blended in. */
static const int32_t put_trs_index[][16] = {
    {1, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0}, /* a = (yy, xy, xz | xy, xx, yz | xz, yz, xx) */
    {1, 1, 2, 0, 1, 0, 2, 0, 2, 2, 0, 0, 0, 0, 0, 0},
    {2, 2, 1, 0, 2, 2, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0}, /* b = (zz, zw, yw | zw, zz, xw | yw, xw, yy) */
    {2, 3, 3, 0, 3, 2, 3, 0, 3, 3, 1, 0, 0, 0, 0, 0},
    {0, 0, 0, 0, 1, 1, 1, 0, 2, 2, 2, 0, 0, 1, 2, 0}, /* scale per column; t in 12-14 */
};

static inline simde__m512i trs1(const float t[3], const float q[4], const float scale[3])
{
    const simde__m512 v = simde_mm512_broadcast_f32x4(simde_mm_loadu_ps(q));
#define PERM(row) simde_mm512_permutexvar_ps(simde_mm512_loadu_si512(put_trs_index[row]), v)
    const simde__m512 b = simde_mm512_mul_ps(PERM(2), PERM(3));
    /* b negated in elements 2 (xz - yw), 4 (xy - zw) and 9 (yz - xw) */
    const simde__m512 sum = simde_mm512_add_ps(
        simde_mm512_mul_ps(PERM(0), PERM(1)),
        simde_mm512_castsi512_ps(simde_mm512_mask_xor_epi32(
            simde_mm512_castps_si512(b), 0x0214, simde_mm512_castps_si512(b),
            simde_mm512_set1_epi32((int32_t)0x80000000u))));
#undef PERM
    const simde__m512 u = simde_mm512_mul_ps(simde_mm512_set1_ps(2.0f), sum);
    const simde__m512 d = simde_mm512_mask_sub_ps(u, 0x0421, simde_mm512_set1_ps(1.0f), u);
    const simde__m512i idx = simde_mm512_loadu_si512(put_trs_index[4]);
    /* three floats each: no load past the caller's arrays */
    const simde__m512 sv = simde_mm512_castps128_ps512(simde_mm_set_ps(0.0f, scale[2], scale[1], scale[0]));
    const simde__m512 tv = simde_mm512_castps128_ps512(simde_mm_set_ps(0.0f, t[2], t[1], t[0]));
    simde__m512 m = simde_mm512_maskz_mul_ps(0x0777, d, simde_mm512_permutexvar_ps(idx, sv));
    m = simde_mm512_mask_permutexvar_ps(m, 0x7000, idx, tv);
    m = simde_mm512_mask_mov_ps(m, 0x8000, simde_mm512_set1_ps(1.0f));
    return simde_mm512_castps_si512(m);
}

static uint32_t put_trs_avx512(float *dst, const float t[3], const float q[4],
                               const float scale[3])
{
    const simde__m512i bits = trs1(t, q, scale);
    if (!finite1(bits))
        return SGRT__PUT_BAD;
    return store1(dst, bits) ? SGRT__PUT_CHANGED : SGRT__PUT_SAME;
}

/* Sixteen at a time in registers: converted, compared with the stored
 * local and stored where they differ, no buffer in memory; the tail one
 * by one, each in one register (put_trs's conversion, trs1). */
static uint32_t store_trs_avx512(float (*local)[16], const uint32_t *slot, const float *t,
                                 const float *q, const float *scale, uint32_t n, uint32_t ahead)
{
    uint32_t changed = 0, i = 0;
    /* The locals of a block of 16 are fetched a block ahead: the
     * conversion of this block runs while their misses are in flight. */
    const uint32_t all = n + ahead;
    for (uint32_t k = 0; k < 16u && k < all; k++)
        SGRT__PREFETCH_W(local[slot[k]]);
    for (; i + 16u <= n; i += 16u) {
        for (uint32_t k = i + 16u; k < i + 32u && k < all; k++)
            SGRT__PREFETCH_W(local[slot[k]]);
        simde__m512 m[16];
        trs16(t + 3u * i, q + 4u * i, scale + 3u * i, m);
        for (uint32_t k = 0; k < 16u; k++)
            changed |= (uint32_t)store1(local[slot[i + k]], simde_mm512_castps_si512(m[k]))
                       << (i + k);
    }
    for (; i < n; i++) {
        SGRT__STORE_AHEAD(local, slot, i, n, ahead);
        changed |= (uint32_t)store1(local[slot[i]], trs1(t + 3u * i, q + 4u * i, scale + 3u * i))
                   << i;
    }
    return changed;
}

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

static bool trs_fits_avx512(const float *t, const float *q, const float *scale, uint32_t n)
{
    return sgrt__trs_fits_generic(t, q, scale, n);
}

void sgrt__kernels_init_avx512(sgrt__kernels *k, uint32_t cpu)
{
    /* The products: on a CPU that splits 512-bit operations in halves the
     * AVX versions are faster. The write path's loads, compares and copies
     * are not products, and one register per matrix halves the
     * instructions there too. */
    k->name = "avx512";
    k->trs = trs_avx512;
    k->trs_fits = trs_fits_avx512;
    k->check16 = check16_avx512;
    k->store16 = store16_avx512;
    k->store_trs = store_trs_avx512;
    k->put16 = put16_avx512;
    k->put_trs = put_trs_avx512;
    k->boxes = boxes_avx512;
    k->close_word = close_word_avx512;
    if (cpu & SGRT__CPU_SLOW_ZMM)
        return;
    k->cull = cull_avx512;
    k->mul = mul_avx512;
    k->update = update_avx512;
}
