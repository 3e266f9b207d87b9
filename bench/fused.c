/* SPDX-License-Identifier: MIT */
/* fused (fused.h). Per block of four joints the rotation-and-scale entries
 * are computed four joints wide and kept in a small aligned buffer; each
 * joint's world is then parent_world's columns weighted by its entries,
 * broadcast from that buffer (and its translation from the input): loads,
 * not shuffles, so no 4x4 transpose is needed. Only the affine part of
 * the local is used: its last row is (0, 0, 0, 1). */
#include "fused.h"

#include <simde/x86/fma.h>

static const float identity[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};

static inline simde__m128 madd(simde__m128 a, simde__m128 b, simde__m128 c)
{
    return simde_mm_fmadd_ps(a, b, c);
}

void fused_local_to_model(const int16_t *parent, uint32_t joints, const fused_soa_trs *in,
                          float (*out)[16])
{
    SIMDE_ALIGN_TO_16 float m[9][4]; /* column c, row r at m[3c + r]: joint j in lane j */
    const simde__m128 one = simde_mm_set1_ps(1.0f);
    for (uint32_t b = 0; b * 4 < joints; b++) {
        const fused_soa_trs *s = &in[b];
        const simde__m128 x = simde_mm_loadu_ps(s->qx), y = simde_mm_loadu_ps(s->qy);
        const simde__m128 z = simde_mm_loadu_ps(s->qz), w = simde_mm_loadu_ps(s->qw);
        const simde__m128 sx = simde_mm_loadu_ps(s->sx), sy = simde_mm_loadu_ps(s->sy);
        const simde__m128 sz = simde_mm_loadu_ps(s->sz);
        const simde__m128 x2 = simde_mm_add_ps(x, x), y2 = simde_mm_add_ps(y, y);
        const simde__m128 z2 = simde_mm_add_ps(z, z);
        const simde__m128 xx = simde_mm_mul_ps(x, x2), yy = simde_mm_mul_ps(y, y2);
        const simde__m128 zz = simde_mm_mul_ps(z, z2), xy = simde_mm_mul_ps(x, y2);
        const simde__m128 xz = simde_mm_mul_ps(x, z2), yz = simde_mm_mul_ps(y, z2);
        const simde__m128 wx = simde_mm_mul_ps(w, x2), wy = simde_mm_mul_ps(w, y2);
        const simde__m128 wz = simde_mm_mul_ps(w, z2);
        simde_mm_store_ps(m[0], simde_mm_mul_ps(simde_mm_sub_ps(simde_mm_sub_ps(one, yy), zz), sx));
        simde_mm_store_ps(m[1], simde_mm_mul_ps(simde_mm_add_ps(xy, wz), sx));
        simde_mm_store_ps(m[2], simde_mm_mul_ps(simde_mm_sub_ps(xz, wy), sx));
        simde_mm_store_ps(m[3], simde_mm_mul_ps(simde_mm_sub_ps(xy, wz), sy));
        simde_mm_store_ps(m[4], simde_mm_mul_ps(simde_mm_sub_ps(simde_mm_sub_ps(one, xx), zz), sy));
        simde_mm_store_ps(m[5], simde_mm_mul_ps(simde_mm_add_ps(yz, wx), sy));
        simde_mm_store_ps(m[6], simde_mm_mul_ps(simde_mm_add_ps(xz, wy), sz));
        simde_mm_store_ps(m[7], simde_mm_mul_ps(simde_mm_sub_ps(yz, wx), sz));
        simde_mm_store_ps(m[8], simde_mm_mul_ps(simde_mm_sub_ps(simde_mm_sub_ps(one, xx), yy), sz));
        const uint32_t end = joints - b * 4 < 4 ? joints - b * 4 : 4;
        for (uint32_t j = 0; j < end; j++) {
            const uint32_t i = b * 4 + j;
            const float *pw = parent[i] < 0 ? identity : out[parent[i]];
            const simde__m128 p0 = simde_mm_loadu_ps(pw), p1 = simde_mm_loadu_ps(pw + 4);
            const simde__m128 p2 = simde_mm_loadu_ps(pw + 8), p3 = simde_mm_loadu_ps(pw + 12);
            float *o = out[i];
            for (int c = 0; c < 3; c++) {
                simde__m128 r = simde_mm_mul_ps(p0, simde_mm_set1_ps(m[3 * c][j]));
                r = madd(p1, simde_mm_set1_ps(m[3 * c + 1][j]), r);
                r = madd(p2, simde_mm_set1_ps(m[3 * c + 2][j]), r);
                simde_mm_storeu_ps(o + 4 * c, r);
            }
            simde__m128 t = madd(p0, simde_mm_set1_ps(s->tx[j]), p3);
            t = madd(p1, simde_mm_set1_ps(s->ty[j]), t);
            t = madd(p2, simde_mm_set1_ps(s->tz[j]), t);
            simde_mm_storeu_ps(o + 12, t);
        }
    }
}

void fused_palette(const float (*models)[16], const float (*inverse_binds)[16], uint32_t joints,
                   float *rows)
{
    for (uint32_t j = 0; j < joints; j++) {
        const float *a = models[j], *b = inverse_binds[j];
        const simde__m128 a0 = simde_mm_loadu_ps(a), a1 = simde_mm_loadu_ps(a + 4);
        const simde__m128 a2 = simde_mm_loadu_ps(a + 8), a3 = simde_mm_loadu_ps(a + 12);
        simde__m128 c[4];
        for (int k = 0; k < 4; k++) {
            simde__m128 v = simde_mm_mul_ps(a0, simde_mm_set1_ps(b[4 * k]));
            v = madd(a1, simde_mm_set1_ps(b[4 * k + 1]), v);
            v = madd(a2, simde_mm_set1_ps(b[4 * k + 2]), v);
            c[k] = madd(a3, simde_mm_set1_ps(b[4 * k + 3]), v);
        }
        SIMDE_MM_TRANSPOSE4_PS(c[0], c[1], c[2], c[3]);
        float *o = rows + 12u * j;
        simde_mm_storeu_ps(o, c[0]);
        simde_mm_storeu_ps(o + 4, c[1]);
        simde_mm_storeu_ps(o + 8, c[2]);
    }
}

const char *fused_describe(void)
{
    return "4 joints per block, 4-wide SIMDe, entries broadcast from memory"
#if defined(__AVX512F__)
           ", AVX-512 build"
#elif defined(__AVX2__)
           ", AVX2 build"
#elif defined(__AVX__)
           ", AVX build"
#endif
#if defined(__FMA__) || defined(__ARM_FEATURE_FMA)
           ", FMA"
#endif
        ;
}
