/* SPDX-License-Identifier: MIT */
/* flat (flat.h): the arrays, the two passes and the game's write loops. */
#include "flat.h"

#include "platform.h"

#include <simde/x86/sse.h>
#include <stdlib.h>
#include <string.h>

#if defined(FLAT_HAVE_CGLM)
#include <cglm/cglm.h>
#include <cglm/version.h>
#endif

static const float identity[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};

#if defined(FLAT_HAVE_CGLM)
/* cglm takes its own array types; the matrices are 64-byte aligned, more
 * than its aligned loads need. */
static inline void mul(const float a[16], const float b[16], float out[16])
{
    glm_mat4_mul((vec4 *)(uintptr_t)a, (vec4 *)(uintptr_t)b, (vec4 *)out);
}
#else
/* The textbook SIMD product when cglm is not installed: each output column
 * is the sum of a's columns weighted by one column of b. */
static inline void mul(const float a[16], const float b[16], float out[16])
{
    const simde__m128 a0 = simde_mm_load_ps(a), a1 = simde_mm_load_ps(a + 4);
    const simde__m128 a2 = simde_mm_load_ps(a + 8), a3 = simde_mm_load_ps(a + 12);
    for (int c = 0; c < 4; c++) {
        const float *bc = b + 4 * c;
        simde__m128 r = simde_mm_mul_ps(a0, simde_mm_set1_ps(bc[0]));
        r = simde_mm_add_ps(r, simde_mm_mul_ps(a1, simde_mm_set1_ps(bc[1])));
        r = simde_mm_add_ps(r, simde_mm_mul_ps(a2, simde_mm_set1_ps(bc[2])));
        r = simde_mm_add_ps(r, simde_mm_mul_ps(a3, simde_mm_set1_ps(bc[3])));
        simde_mm_store_ps(out + 4 * c, r);
    }
}
#endif

bool flat_init(flat_scene *f, const int32_t *parent, uint32_t n)
{
    memset(f, 0, sizeof *f);
    f->n = n;
    f->parent = malloc((size_t)n * sizeof *f->parent);
    f->local = bench_aligned_alloc(64, (size_t)n * 64);
    f->world = bench_aligned_alloc(64, (size_t)n * 64);
    f->dirty = calloc(n, 1);
    if (!f->parent || !f->local || !f->world || !f->dirty) {
        flat_free(f);
        return false;
    }
    memcpy(f->parent, parent, (size_t)n * sizeof *f->parent);
    for (uint32_t i = 0; i < n; i++) {
        memcpy(f->local[i], identity, 64);
        memcpy(f->world[i], identity, 64);
    }
    return true;
}

void flat_free(flat_scene *f)
{
    free(f->parent);
    bench_aligned_free(f->local);
    bench_aligned_free(f->world);
    free(f->dirty);
    memset(f, 0, sizeof *f);
}

void flat_update_all(flat_scene *f)
{
    const int32_t *parent = f->parent;
    float (*local)[16] = f->local, (*world)[16] = f->world;
    for (uint32_t i = 0, n = f->n; i < n; i++) {
        const int32_t p = parent[i];
        mul(p < 0 ? identity : world[p], local[i], world[i]);
    }
}

void flat_update_dirty(flat_scene *f)
{
    const int32_t *parent = f->parent;
    float (*local)[16] = f->local, (*world)[16] = f->world;
    uint8_t *dirty = f->dirty;
    for (uint32_t i = 0, n = f->n; i < n; i++) {
        const int32_t p = parent[i];
        /* A parent's bit 1 was rewritten earlier in this pass; the node's
         * own byte is rewritten every time, without a branch, so that the
         * only branch left is the rare recompute. */
        const unsigned changed = (dirty[i] | (p >= 0 ? dirty[p] >> 1 : 0u)) & 1u;
        dirty[i] = (uint8_t)(changed << 1);
        if (changed)
            mul(p < 0 ? identity : world[p], local[i], world[i]);
    }
}

void flat_write_locals(flat_scene *f, uint32_t count, const uint32_t *idx,
                       const float (*m)[16], bool mark)
{
    float (*local)[16] = f->local;
    uint8_t *dirty = f->dirty;
    for (uint32_t k = 0; k < count; k++) {
        const uint32_t i = idx ? idx[k] : k;
        memcpy(local[i], m[k], 64);
        if (mark)
            dirty[i] |= 1u;
    }
}

/* Node k's local from its t, q, s, one node: the loop's tail. */
static void trs_one(const float t[3], const float q[4], const float s[3], float m[16])
{
    const float x = q[0], y = q[1], z = q[2], w = q[3];
    const float x2 = x + x, y2 = y + y, z2 = z + z;
    const float xx = x * x2, yy = y * y2, zz = z * z2, xy = x * y2, xz = x * z2, yz = y * z2;
    const float wx = w * x2, wy = w * y2, wz = w * z2;
    const float r[16] = {(1 - yy - zz) * s[0], (xy + wz) * s[0], (xz - wy) * s[0], 0,
                         (xy - wz) * s[1], (1 - xx - zz) * s[1], (yz + wx) * s[1], 0,
                         (xz + wy) * s[2], (yz - wx) * s[2], (1 - xx - yy) * s[2], 0,
                         t[0], t[1], t[2], 1};
    memcpy(m, r, 64);
}

/* Transpose the rows a, b, c, 0 into four columns (x, y, z, 0). */
static inline void columns3(simde__m128 a, simde__m128 b, simde__m128 c, simde__m128 out[4])
{
    const simde__m128 zero = simde_mm_setzero_ps();
    const simde__m128 lo = simde_mm_unpacklo_ps(a, b), hi = simde_mm_unpackhi_ps(a, b);
    const simde__m128 clo = simde_mm_unpacklo_ps(c, zero), chi = simde_mm_unpackhi_ps(c, zero);
    out[0] = simde_mm_movelh_ps(lo, clo);
    out[1] = simde_mm_movehl_ps(clo, lo);
    out[2] = simde_mm_movelh_ps(hi, chi);
    out[3] = simde_mm_movehl_ps(chi, hi);
}

void flat_write_trs(flat_scene *f, uint32_t count, const uint32_t *idx, const float (*t)[3],
                    const float (*q)[4], const float (*s)[3], bool mark)
{
    float (*local)[16] = f->local;
    uint8_t *dirty = f->dirty;
    const simde__m128 one = simde_mm_set1_ps(1.0f);
    uint32_t k = 0;
    for (; k + 4 <= count; k += 4) {
        /* Four quaternions to structure of arrays, the rotation's nine
         * entries four nodes at a time, then back to one column per node. */
        simde__m128 x = simde_mm_loadu_ps(q[k]), y = simde_mm_loadu_ps(q[k + 1]);
        simde__m128 z = simde_mm_loadu_ps(q[k + 2]), w = simde_mm_loadu_ps(q[k + 3]);
        SIMDE_MM_TRANSPOSE4_PS(x, y, z, w);
        const simde__m128 x2 = simde_mm_add_ps(x, x), y2 = simde_mm_add_ps(y, y);
        const simde__m128 z2 = simde_mm_add_ps(z, z);
        const simde__m128 xx = simde_mm_mul_ps(x, x2), yy = simde_mm_mul_ps(y, y2);
        const simde__m128 zz = simde_mm_mul_ps(z, z2), xy = simde_mm_mul_ps(x, y2);
        const simde__m128 xz = simde_mm_mul_ps(x, z2), yz = simde_mm_mul_ps(y, z2);
        const simde__m128 wx = simde_mm_mul_ps(w, x2), wy = simde_mm_mul_ps(w, y2);
        const simde__m128 wz = simde_mm_mul_ps(w, z2);
        simde__m128 c0[4], c1[4], c2[4];
        columns3(simde_mm_sub_ps(simde_mm_sub_ps(one, yy), zz), simde_mm_add_ps(xy, wz),
                 simde_mm_sub_ps(xz, wy), c0);
        columns3(simde_mm_sub_ps(xy, wz), simde_mm_sub_ps(simde_mm_sub_ps(one, xx), zz),
                 simde_mm_add_ps(yz, wx), c1);
        columns3(simde_mm_add_ps(xz, wy), simde_mm_sub_ps(yz, wx),
                 simde_mm_sub_ps(simde_mm_sub_ps(one, xx), yy), c2);
        for (int j = 0; j < 4; j++) {
            const uint32_t i = idx ? idx[k + j] : k + (uint32_t)j;
            const float *sj = s[k + j], *tj = t[k + j];
            float *m = local[i];
            simde_mm_store_ps(m, simde_mm_mul_ps(c0[j], simde_mm_set1_ps(sj[0])));
            simde_mm_store_ps(m + 4, simde_mm_mul_ps(c1[j], simde_mm_set1_ps(sj[1])));
            simde_mm_store_ps(m + 8, simde_mm_mul_ps(c2[j], simde_mm_set1_ps(sj[2])));
            simde_mm_store_ps(m + 12, simde_mm_setr_ps(tj[0], tj[1], tj[2], 1.0f));
            if (mark)
                dirty[i] |= 1u;
        }
    }
    for (; k < count; k++) {
        const uint32_t i = idx ? idx[k] : k;
        trs_one(t[k], q[k], s[k], local[i]);
        if (mark)
            dirty[i] |= 1u;
    }
}

#define FLAT_STR_(x) #x
#define FLAT_STR(x) FLAT_STR_(x)

const char *flat_describe(void)
{
    return "multiply "
#if defined(FLAT_HAVE_CGLM)
#if defined(__AVX__)
           "cglm " FLAT_STR(CGLM_VERSION_MAJOR) "." FLAT_STR(CGLM_VERSION_MINOR) "."
           FLAT_STR(CGLM_VERSION_PATCH) " glm_mat4_mul (its AVX path)"
#elif defined(__SSE2__) || defined(__ARM_NEON)
           "cglm " FLAT_STR(CGLM_VERSION_MAJOR) "." FLAT_STR(CGLM_VERSION_MINOR) "."
           FLAT_STR(CGLM_VERSION_PATCH) " glm_mat4_mul (its SSE/NEON path)"
#else
           "cglm glm_mat4_mul (its scalar path)"
#endif
#else
           "hand-written 4-wide SIMD (SIMDe; cglm not found)"
#endif
           ", TRS written 4 nodes at a time (SIMDe 4-wide)"
#if defined(__AVX512F__)
           ", AVX-512 build"
#elif defined(__AVX2__)
           ", AVX2 build"
#endif
#if defined(__FMA__) || defined(__ARM_FEATURE_FMA)
           ", FMA"
#endif
        ;
}
