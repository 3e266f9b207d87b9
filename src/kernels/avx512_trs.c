/* SPDX-License-Identifier: MIT */
/* AVX-512 TRS to matrices (avx512.h): 16 entries at a time in registers
 * (trs16), and one entry in one register (trs1), each element computed as
 * the reference computes it (same operations, same order, no FMA). */
#include "avx512.h"

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

void sgrt__avx512_trs(const float *t, const float *q, const float *scale, float *out, uint32_t n)
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

uint32_t sgrt__avx512_put_trs(float *dst, const float t[3], const float q[4],
                               const float scale[3])
{
    const simde__m512i bits = trs1(t, q, scale);
    if (!sgrt__avx512_finite(bits))
        return SGRT__PUT_BAD;
    return sgrt__avx512_store(dst, bits) ? SGRT__PUT_CHANGED : SGRT__PUT_SAME;
}

/* Sixteen at a time in registers: converted, compared with the stored
 * local and stored where they differ, no buffer in memory; the tail one
 * by one, each in one register (put_trs's conversion, trs1). */
uint32_t sgrt__avx512_store_trs(float (*local)[16], const uint32_t *slot, const float *t,
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
            changed |= (uint32_t)sgrt__avx512_store(local[slot[i + k]], simde_mm512_castps_si512(m[k]))
                       << (i + k);
    }
    for (; i < n; i++) {
        SGRT__STORE_AHEAD(local, slot, i, n, ahead);
        changed |= (uint32_t)sgrt__avx512_store(local[slot[i]], trs1(t + 3u * i, q + 4u * i, scale + 3u * i))
                   << i;
    }
    return changed;
}

bool sgrt__avx512_trs_fits(const float *t, const float *q, const float *scale, uint32_t n)
{
    return sgrt__trs_fits_generic(t, q, scale, n);
}

