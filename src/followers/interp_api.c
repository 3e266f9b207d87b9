/* SPDX-License-Identifier: MIT */
/* Render interpolation's public calls (sgrt.h, "Render interpolation"):
 * the serial interpolate, the arrays and node calls, teleports and the
 * upload ranges; the follower is interp.c, the parallel interpolate
 * interp_par.c. */
#include "interp.h"
#include "../args.h"
#include "../result.h"
#include "slotbits.h"
#include <string.h>

static const char no_flag[] =
    "the scene keeps no render worlds: create it with SGRT_SCENE_INTERPOLATE";

/* The argument checks both interpolates share: the state, or NULL after
 * refusing the call. */
sgrt__interp *sgrt__interp_args(sgrt_scene *s, float alpha, const char *function,
                                sgrt_result *err)
{
    sgrt__interp *p = sgrt__interp_of(s);
    if (!p) {
        *err = sgrt__fail(s, SGRT_ERR_INVALID_ARG, function, no_flag, SGRT_NULL_NODE);
        return NULL;
    }
    if (!(alpha >= 0.0f && alpha <= 1.0f)) {
        *err = sgrt__fail(s, SGRT_ERR_INVALID_ARG, function,
                          "alpha is outside [0, 1] or NaN", SGRT_NULL_NODE);
        return NULL;
    }
    return p;
}

sgrt_result sgrt_scene_interpolate(sgrt_scene *s, float alpha)
{
    SGRT__ENTER_WRITE(s);
    sgrt_result err = SGRT_OK;
    sgrt__interp *p = sgrt__interp_args(s, alpha, __func__, &err);
    if (!p)
        return err;
    sgrt__interp_sweep(s, p, alpha, 0, s->st.sum_words, NULL, false);
    p->began = true;
    return SGRT_OK;
}

const float *sgrt_scene_render_world_array(const sgrt_scene *s, uint32_t *out_slots)
{
    const sgrt__interp *p = s ? sgrt__interp_of(s) : NULL;
    if (out_slots)
        *out_slots = p ? s->slot_end : 0u;
    if (s && !p)
        sgrt__fail(s, SGRT_ERR_INVALID_ARG, __func__, no_flag, SGRT_NULL_NODE);
    return p ? &p->render[0][0] : NULL;
}

sgrt_result sgrt_node_render_world(const sgrt_scene *s, sgrt_node n, float out[16])
{
    SGRT__ENTER(s, SGRT_ERR_INVALID_ARG);
    const sgrt__interp *p = sgrt__interp_of(s);
    if (!p)
        return sgrt__fail(s, SGRT_ERR_INVALID_ARG, __func__, no_flag, n);
    SGRT__NOT_NULL(s, out, n);
    sgrt_result err;
    const uint32_t slot = SGRT__NODE_ARG(s, n, "n", __func__, &err);
    if (slot == SGRT__NONE)
        return err;
    memcpy(out, p->render[slot], sizeof p->render[slot]);
    return SGRT_OK;
}

sgrt_result sgrt_node_teleport(sgrt_scene *s, sgrt_node n)
{
    SGRT__ENTER_WRITE(s);
    sgrt__interp *p = sgrt__interp_of(s);
    if (!p)
        return sgrt__fail(s, SGRT_ERR_INVALID_ARG, __func__, no_flag, n);
    sgrt_result err;
    const uint32_t slot = SGRT__NODE_ARG(s, n, "n", __func__, &err);
    if (slot == SGRT__NONE)
        return err;
    sgrt__bit_set_sum(p->tele, p->tele_sum, slot);
    return SGRT_OK;
}

sgrt_result sgrt_scene_render_collect(sgrt_scene *s, sgrt_range *out, uint32_t max_ranges,
                                      uint32_t merge_gap, uint32_t *out_count, bool *out_more)
{
    if (out_count)
        *out_count = 0;
    if (out_more)
        *out_more = false;
    SGRT__ENTER_WRITE(s);
    sgrt__interp *p = sgrt__interp_of(s);
    if (!p)
        return sgrt__fail(s, SGRT_ERR_INVALID_ARG, __func__, no_flag, SGRT_NULL_NODE);
    sgrt_result err = sgrt__collect_outputs(s, out, max_ranges, out_count, out_more, __func__);
    if (err != SGRT_OK)
        return err;
    const uint32_t limit = s->slot_end;
    uint32_t n = 0, end = 0;
    for (uint32_t sw = 0; sw < s->st.sum_words; sw++) {
        while (p->changed_sum[sw]) {
            const uint32_t w = sw * 32u + sgrt__ctz32(p->changed_sum[sw]);
            const uint32_t base = w * 32u;
            uint32_t bits = p->changed[w];
            /* Slots at or past the slot count are dead: dropped. */
            if (base >= limit)
                bits = 0;
            else if (limit - base < 32u)
                bits &= ~sgrt__mask_from(limit - base);
            bits = sgrt__collect_runs(bits, base, out, max_ranges, merge_gap, &n, &end);
            sgrt__interp_put_word(p->changed, p->changed_sum, w, bits);
            if (bits) {
                *out_count = n;
                *out_more = true;
                return SGRT_OK;
            }
        }
    }
    *out_count = n;
    return SGRT_OK;
}
