/* SPDX-License-Identifier: MIT */
/* The cull kernel (kernels.h says what it computes), written once for every
 * vector width. A SIMD kernel file defines, before including it:
 *   CULL_NAME             the function's name
 *   CULL_LANES            boxes per vector: 4, 8 or 16
 *   CULL_V                the vector type
 *   CULL_SET1(x), CULL_LOAD(p) (64-byte aligned arrays: whole vectors),
 *   CULL_ADD(a, b), CULL_MUL(a, b), CULL_MAX(a, b), CULL_MIN(a, b)
 *                         the operations (max and min as x86's: a > b ? a : b)
 *   CULL_NEG(v)           the sign flipped
 *   CULL_LT_BITS(a, b)    bit j set where lane j of a < lane j of b
 * Each plane's constants are broadcast once per call; the corner furthest
 * along its normal is read straight from the min or max arrays it picked.
 * The same operations in the same order as the reference on every lane, so
 * the same answer. */
static uint32_t CULL_NAME(const sgrt__cull_view *v, uint32_t *tested)
{
    CULL_V pn[8][5];
    for (uint32_t k = 0; k < v->plane_count; k++) {
        const sgrt__cull_plane *pl = &v->plane[k];
        pn[k][0] = CULL_SET1(pl->n[0]);
        pn[k][1] = CULL_SET1(pl->n[1]);
        pn[k][2] = CULL_SET1(pl->n[2]);
        pn[k][3] = CULL_SET1(pl->k);
        pn[k][4] = CULL_SET1(pl->lim);
    }
    const uint32_t lanes = (1u << CULL_LANES) - 1u;
    uint32_t visible = 0, cands = 0;
    for (uint32_t w = v->w_first; w < v->w_end; w++) {
        const uint32_t cand = v->a[w] & v->b[w] & (v->c ? v->c[w] : ~0u);
        const uint32_t keep = v->keep ? v->keep[w] : 0u;
        uint32_t in = 0;
        for (uint32_t q = 0; cand && q < 32u / CULL_LANES; q++) {
            if (!((cand >> (CULL_LANES * q)) & lanes))
                continue;
            const uint32_t base = 32u * w + CULL_LANES * q;
            const CULL_V mh = CULL_MAX(CULL_MAX(CULL_LOAD(v->hi[0] + base), CULL_LOAD(v->hi[1] + base)),
                                       CULL_LOAD(v->hi[2] + base));
            const CULL_V ml = CULL_MIN(CULL_MIN(CULL_LOAD(v->lo[0] + base), CULL_LOAD(v->lo[1] + base)),
                                       CULL_LOAD(v->lo[2] + base));
            const CULL_V m = CULL_MAX(mh, CULL_NEG(ml));
            uint32_t out = 0;
            for (uint32_t k = 0; k < v->plane_count; k++) {
                const sgrt__cull_plane *pl = &v->plane[k];
                const CULL_V g = CULL_ADD(
                    CULL_ADD(CULL_MUL(pn[k][0], CULL_LOAD(pl->p[0] + base)),
                             CULL_MUL(pn[k][1], CULL_LOAD(pl->p[1] + base))),
                    CULL_ADD(CULL_MUL(pn[k][2], CULL_LOAD(pl->p[2] + base)), CULL_MUL(pn[k][3], m)));
                out |= (uint32_t)CULL_LT_BITS(g, pn[k][4]);
            }
            in |= (~out & lanes) << (CULL_LANES * q);
        }
        cands += sgrt__popcount32(cand);
        const uint32_t r = (in & cand) | keep;
        v->out[w] = r;
        visible += sgrt__popcount32(r);
    }
    *tested = cands;
    return visible;
}
