/* SPDX-License-Identifier: MIT */
/* Plain C reference kernels: always compiled, the definition of the results
 * every other kernel must reproduce bit for bit. */
#include "kernels.h"
#include <float.h>
#include <string.h>

#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD != 0
#error "sgrt needs FLT_EVAL_METHOD == 0 (float arithmetic rounded to float): see docs/porting.md"
#endif

static void mul_ref(const float *a, const float *b, float *out)
{
    for (int c = 0; c < 4; c++) {
        const float b0 = b[c * 4 + 0], b1 = b[c * 4 + 1], b2 = b[c * 4 + 2], b3 = b[c * 4 + 3];
        for (int r = 0; r < 4; r++) {
            const float lo = a[0 * 4 + r] * b0 + a[1 * 4 + r] * b1;
            const float hi = a[2 * 4 + r] * b2 + a[3 * 4 + r] * b3;
            out[c * 4 + r] = lo + hi;
        }
    }
}

void sgrt__box_ref(const sgrt__bounds_view *b, const float m[16], uint32_t slot)
{
    const float inf = sgrt__f32_from_bits(0x7F800000u);
    const bool affine = m[3] == 0.0f && m[7] == 0.0f && m[11] == 0.0f && m[15] == 1.0f;
    const float c[3] = {b->c[0][slot], b->c[1][slot], b->c[2][slot]};
    const float e[3] = {b->e[0][slot], b->e[1][slot], b->e[2][slot]};
    for (uint32_t r = 0; r < 3u; r++) {
        const float p0 = m[r] * c[0], p1 = m[4 + r] * c[1], p2 = m[8 + r] * c[2];
        const float center = (p0 + p1) + (p2 + m[12 + r]);
        const float half =
            (sgrt__f32_abs(m[r]) * e[0] + sgrt__f32_abs(m[4 + r]) * e[1]) + sgrt__f32_abs(m[8 + r]) * e[2];
        const float mag = ((sgrt__f32_abs(p0) + sgrt__f32_abs(p1)) + (sgrt__f32_abs(p2) + sgrt__f32_abs(m[12 + r]))) + half;
        const float reach = half + (mag * SGRT__BOX_GAMMA + SGRT__BOX_TINY);
        float lo = center - reach, hi = center + reach;
        if (!affine || !(sgrt__f32_abs(lo) <= FLT_MAX && sgrt__f32_abs(hi) <= FLT_MAX)) {
            lo = -inf;
            hi = inf;
        }
        b->lo[r][slot] = lo;
        b->hi[r][slot] = hi;
    }
}

static void boxes_ref(const sgrt__bounds_view *b, const float (*world)[16], uint32_t w,
                      uint32_t bits)
{
    SGRT__FOR_EACH_IN_WORD(w, bits, i, sgrt__box_ref(b, world[i], i);)
}

const float sgrt__identity[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};

void sgrt__local_repair(const sgrt__update_view *v, uint32_t slot)
{
    memcpy(v->local[slot], sgrt__identity, sizeof sgrt__identity);
    if (v->repaired[0]++ == 0)
        v->repaired[1] = slot;
}

void sgrt__anchored_world(const float local[16], const double anchor[3], const double origin[3],
                          float world[16])
{
    memcpy(world, local, 16 * sizeof(float));
    for (int i = 0; i < 3; i++) {
        const double d = anchor[i] - origin[i];
        if (d == 0.0)
            continue;
        for (int j = 0; j < 4; j++)
            if (local[4 * j + 3] != 0.0f)
                world[4 * j + i] = (float)((double)local[4 * j + i] + d * (double)local[4 * j + 3]);
    }
}

static uint32_t update_ref(const sgrt__update_view *v)
{
    uint32_t count = 0;
    SGRT__FOR_EACH_DIRTY_AFTER(v, i,
        count++;
        if (!sgrt__finite16(v->local[i]))
            sgrt__local_repair(v, i);
        const uint32_t p = v->parent[i];
        if (p != SGRT__NONE)
            mul_ref(v->world[p], v->local[i], v->world[i]);
        else if (v->anchor)
            sgrt__anchored_world(v->local[i], v->anchor[i], v->origin, v->world[i]);
        else
            memcpy(v->world[i], v->local[i], sizeof v->world[i]);
    )
    return count;
}

bool sgrt__cull_outside_ref(const sgrt__cull_plane *pl, const float lo[3], const float hi[3],
                            float m)
{
    float p[3];
    for (uint32_t a = 0; a < 3u; a++)
        p[a] = pl->n[a] >= 0.0f ? hi[a] : lo[a];
    const float g = (pl->n[0] * p[0] + pl->n[1] * p[1]) + (pl->n[2] * p[2] + pl->k * m);
    return g < pl->lim;
}

static uint32_t cull_ref(const sgrt__cull_view *v, uint32_t *tested)
{
    uint32_t visible = 0, cands = 0;
    for (uint32_t w = v->w_first; w < v->w_end; w++) {
        uint32_t cand = v->a[w] & v->b[w] & (v->c ? v->c[w] : ~0u);
        const uint32_t keep = v->keep ? v->keep[w] : 0u;
        cands += sgrt__popcount32(cand);
        uint32_t in = 0;
        SGRT__FOR_EACH_IN_WORD(w, cand, i,
            const float lo[3] = {v->lo[0][i], v->lo[1][i], v->lo[2][i]};
            const float hi[3] = {v->hi[0][i], v->hi[1][i], v->hi[2][i]};
            const float m = sgrt__box_magnitude(lo, hi);
            bool out = false;
            for (uint32_t k = 0; k < v->plane_count; k++) {
                out |= sgrt__cull_outside_ref(&v->plane[k], lo, hi, m);
            }
            if (!out)
                in |= 1u << (i & 31u);
        )
        v->out[w] = in | keep;
        visible += sgrt__popcount32(in | keep);
    }
    *tested = cands;
    return visible;
}

void sgrt__trs_to_mat4(const float t[3], const float q[4], const float scale[3], float m[16])
{
    const float x = q[0], y = q[1], z = q[2], w = q[3];
    const float xx = x * x, yy = y * y, zz = z * z;
    const float xy = x * y, xz = x * z, yz = y * z;
    const float xw = x * w, yw = y * w, zw = z * w;

    m[0] = (1.0f - 2.0f * (yy + zz)) * scale[0];
    m[1] = (2.0f * (xy + zw)) * scale[0];
    m[2] = (2.0f * (xz - yw)) * scale[0];
    m[3] = 0.0f;
    m[4] = (2.0f * (xy - zw)) * scale[1];
    m[5] = (1.0f - 2.0f * (xx + zz)) * scale[1];
    m[6] = (2.0f * (yz + xw)) * scale[1];
    m[7] = 0.0f;
    m[8] = (2.0f * (xz + yw)) * scale[2];
    m[9] = (2.0f * (yz - xw)) * scale[2];
    m[10] = (1.0f - 2.0f * (xx + yy)) * scale[2];
    m[11] = 0.0f;
    m[12] = t[0];
    m[13] = t[1];
    m[14] = t[2];
    m[15] = 1.0f;
}

/* A matrix as the reference holds it: 16 floats, compared and copied as
 * bytes. */
typedef struct mat16 {
    float f[16];
} mat16;

static inline mat16 load16(const float *m)
{
    mat16 v;
    memcpy(v.f, m, sizeof v.f);
    return v;
}

static inline bool store_changed(float *dst, const mat16 *v)
{
    if (memcmp(dst, v->f, sizeof v->f) == 0)
        return false;
    memcpy(dst, v->f, sizeof v->f);
    return true;
}

#define PUT16_T mat16
#define PUT16_LOAD(m) load16(m)
#define PUT16_FINITE(v) sgrt__finite16((v).f)
#define PUT16_STORE(dst, v) store_changed(dst, &(v))
#include "put16_simd.h"

static uint32_t put_trs_ref(float *dst, const float t[3], const float q[4], const float scale[3])
{
    float m[16];
    sgrt__trs_to_mat4(t, q, scale, m);
    return put16(dst, m);
}

static void trs_ref(const float *t, const float *q, const float *scale, float *out, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        sgrt__trs_to_mat4(t + 3u * i, q + 4u * i, scale + 3u * i, out + 16u * i);
}

static uint32_t store_trs_ref(float (*local)[16], const uint32_t *slot, const float *t,
                              const float *q, const float *scale, uint32_t n, uint32_t ahead)
{
    uint32_t changed = 0;
    for (uint32_t i = 0; i < n; i++) {
        float m[16];
        sgrt__trs_to_mat4(t + 3u * i, q + 4u * i, scale + 3u * i, m);
        changed |= store16(local, slot + i, m, 1, n - i - 1u + ahead) << i;
    }
    return changed;
}

static uint32_t close_word_ref(const uint32_t *parent, const uint32_t *dirty, const uint32_t *done,
                               const uint32_t *done_dirty, uint32_t w, uint32_t clean)
{
    uint32_t d = dirty[w];
    SGRT__FOR_EACH_IN_WORD(w, clean, i,
        const uint32_t p = parent[i];
        if (p == SGRT__NONE)
            continue;
        const uint32_t pw = done && sgrt__bit_get(done, p) ? done_dirty[p >> 5]
                            : p >> 5 == w                  ? d
                                                           : dirty[p >> 5];
        d |= ((pw >> (p & 31u)) & 1u) << (i & 31u);
    )
    return d;
}

static bool trs_fits_ref(const float *t, const float *q, const float *scale, uint32_t n)
{
    return sgrt__trs_fits_generic(t, q, scale, n);
}

/* X = L x R by the palette's definition (kernels.h), columns of four
 * lanes. */
static void product_ref(const float *l, const float *m, bool affine, float *x)
{
    for (int c = 0; c < 4; c++)
        for (int i = 0; i < 4; i++) {
            const float lo = l[i] * m[4 * c] + l[4 + i] * m[4 * c + 1];
            if (!affine)
                x[4 * c + i] = lo + (l[8 + i] * m[4 * c + 2] + l[12 + i] * m[4 * c + 3]);
            else if (c < 3)
                x[4 * c + i] = lo + l[8 + i] * m[4 * c + 2];
            else
                x[4 * c + i] = lo + (l[8 + i] * m[14] + l[12 + i]);
        }
}

static void palette_ref(const float *im, uint32_t mode, const float *const *w,
                        const float *const *b, uint32_t n, float *const *out)
{
    for (uint32_t j = 0; j < n; j++) {
        float a[16], p[16];
        bool flat = sgrt__affine16(w[j]);
        const float *x = w[j];
        if (!(mode & SGRT__PAL_IM_ONE)) {
            flat = flat && (mode & SGRT__PAL_IM_AFFINE);
            product_ref(im, w[j], flat, a);
            x = a;
        }
        if (b) {
            product_ref(x, b[j], flat && (mode & SGRT__PAL_B_AFFINE), p);
            x = p;
        }
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 4; c++)
                out[j][4 * r + c] = x[4 * c + r];
    }
}

void sgrt__kernels_init_ref(sgrt__kernels *k)
{
    k->name = "scalar";
    k->mul = mul_ref;
    k->update = update_ref;
    k->trs = trs_ref;
    k->trs_fits = trs_fits_ref;
    k->check16 = check16;
    k->store16 = store16;
    k->store_trs = store_trs_ref;
    k->put16 = put16;
    k->put_trs = put_trs_ref;
    k->close_word = close_word_ref;
    k->boxes = boxes_ref;
    k->cull = cull_ref;
    k->palette = palette_ref;
    k->xxh3 = sgrt__xxh3_once_base;
    k->xxh3_update = sgrt__xxh3_update_base;
}
