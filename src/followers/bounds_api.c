/* SPDX-License-Identifier: MIT */
/* The public calls on boxes (SGRT_SCENE_BOUNDS): setting and clearing
 * local boxes, one or a batch; reading a local box, a world box, a subtree
 * box; the arrays for a renderer. What the update does with them is
 * bounds.c's. */
#include "bounds.h"
#include "../args.h"
#include <float.h>
#include <string.h>

#define POS_INF sgrt__f32_from_bits(0x7F800000u)

/* The checks of a call on boxes: a scene with them, a live node. */
static sgrt_result take_node(const sgrt_scene *s, sgrt_node node, const char *fn,
                             uint32_t *slot)
{
    sgrt__bounds *bs = sgrt__bounds_of(s);
    *slot = SGRT__NONE;
    SGRT__ENTER(s, SGRT_ERR_INVALID_ARG);
    if (!bs)
        return sgrt__fail(s, SGRT_ERR_INVALID_ARG, fn,
                          "the scene was created without SGRT_SCENE_BOUNDS", node);
    sgrt_result err;
    *slot = SGRT__NODE_ARG(s, node, "node", fn, &err);
    if (*slot == SGRT__NONE)
        return err;
    return SGRT_OK;
}

/* take_node, then two pointer arguments (a box's two halves). */
static sgrt_result take_read(const sgrt_scene *s, sgrt_node node, const char *fn, const void *a,
                             const void *b, const char *null_message, uint32_t *slot)
{
    const sgrt_result r = take_node(s, node, fn, slot);
    if (r != SGRT_OK)
        return r;
    return a && b ? SGRT_OK : sgrt__fail(s, SGRT_ERR_INVALID_ARG, fn, null_message, node);
}

/* A local box the library takes: finite values, half extents not negative. */
static bool box_ok(const float c[3], const float h[3])
{
    for (int a = 0; a < 3; a++) {
        const float ac = c[a] < 0.0f ? -c[a] : c[a];
        if (!(ac <= FLT_MAX) || !(h[a] >= 0.0f && h[a] <= FLT_MAX))
            return false;
    }
    return true;
}

static void put_box(sgrt_scene *s, uint32_t slot, const float c[3], const float h[3])
{
    sgrt__bounds *bs = sgrt__bounds_of(s);
    float *const cc[3] = {bs->lb_cx, bs->lb_cy, bs->lb_cz};
    float *const ee[3] = {bs->lb_ex, bs->lb_ey, bs->lb_ez};
    bool same = sgrt__bit_get(bs->b_has, slot);
    for (int a = 0; a < 3; a++) {
        const float e = h[a] + 0.0f; /* -0 becomes +0 */
        same = same && sgrt__f32_bits(cc[a][slot]) == sgrt__f32_bits(c[a]) &&
               sgrt__f32_bits(ee[a][slot]) == sgrt__f32_bits(e);
        cc[a][slot] = c[a];
        ee[a][slot] = e;
    }
    if (same)
        return;
    sgrt__bit_set_sum(bs->b_has, bs->b_has_sum, slot);
    sgrt__bit_set_sum(bs->b_dirty, bs->b_dirty_sum, slot);
}

sgrt_result sgrt_node_set_bounds(sgrt_scene *s, sgrt_node node, const float center[3],
                                 const float half_extent[3])
{
    static const char fn[] = "sgrt_node_set_bounds";
    uint32_t slot;
    const sgrt_result r =
        take_read(s, node, fn, center, half_extent, "center or half_extent is NULL", &slot);
    if (r != SGRT_OK)
        return r;
    if (!box_ok(center, half_extent))
        return sgrt__fail(s, SGRT_ERR_INVALID_ARG, fn,
                          "center or half_extent is not finite, or a half extent is negative",
                          node);
    put_box(s, slot, center, half_extent);
    return SGRT_OK;
}

sgrt_result sgrt_nodes_set_bounds(sgrt_scene *s, uint32_t count, const sgrt_node *nodes,
                                  const float *center, const float *half_extent,
                                  uint32_t *out_bad)
{
    sgrt__bounds *bs = sgrt__bounds_of(s);
    static const char fn[] = "sgrt_nodes_set_bounds";
    SGRT__ENTER(s, SGRT_ERR_INVALID_ARG);
    if (!bs)
        return sgrt__fail(s, SGRT_ERR_INVALID_ARG, fn,
                          "the scene was created without SGRT_SCENE_BOUNDS", SGRT_NULL_NODE);
    if (count && (!nodes || !center || !half_extent))
        return sgrt__fail(s, SGRT_ERR_INVALID_ARG, fn,
                          "nodes, center or half_extent is NULL with count > 0", SGRT_NULL_NODE);
    for (uint32_t i = 0; i < count; i++) {
        sgrt_result r = SGRT_OK;
        if (SGRT__NODE_ARG(s, nodes[i], "nodes[*out_bad]", fn, &r) != SGRT__NONE &&
            !box_ok(center + 3u * i, half_extent + 3u * i))
            r = sgrt__fail(s, SGRT_ERR_INVALID_ARG, fn,
                           "center or half_extent of entry *out_bad is not finite, or a half "
                           "extent is negative",
                           nodes[i]);
        if (r != SGRT_OK) {
            if (out_bad)
                *out_bad = i;
            return r;
        }
    }
    for (uint32_t i = 0; i < count; i++)
        put_box(s, sgrt__resolve(s, nodes[i]), center + 3u * i, half_extent + 3u * i);
    return SGRT_OK;
}

sgrt_result sgrt_node_clear_bounds(sgrt_scene *s, sgrt_node node)
{
    sgrt__bounds *bs = sgrt__bounds_of(s);
    uint32_t slot;
    const sgrt_result r = take_node(s, node, "sgrt_node_clear_bounds", &slot);
    if (r != SGRT_OK)
        return r;
    if (sgrt__bit_get(bs->b_has, slot)) {
        sgrt__bit_clear_sum(bs->b_has, bs->b_has_sum, slot);
        sgrt__bit_set_sum(bs->b_dirty, bs->b_dirty_sum, slot);
    }
    return SGRT_OK;
}

sgrt_result sgrt_node_bounds(const sgrt_scene *s, sgrt_node node, float center[3],
                             float half_extent[3])
{
    sgrt__bounds *bs = sgrt__bounds_of(s);
    uint32_t slot;
    const sgrt_result r = take_read(s, node, "sgrt_node_bounds", center, half_extent,
                                    "center or half_extent is NULL", &slot);
    if (r != SGRT_OK)
        return r;
    const bool has = sgrt__bit_get(bs->b_has, slot);
    const float *const cc[3] = {bs->lb_cx, bs->lb_cy, bs->lb_cz};
    const float *const ee[3] = {bs->lb_ex, bs->lb_ey, bs->lb_ez};
    for (int a = 0; a < 3; a++) {
        center[a] = has ? cc[a][slot] : 0.0f;
        half_extent[a] = has ? ee[a][slot] : -1.0f;
    }
    return SGRT_OK;
}

sgrt_result sgrt_node_world_bounds(const sgrt_scene *s, sgrt_node node, float min[3],
                                   float max[3])
{
    sgrt__bounds *bs = sgrt__bounds_of(s);
    uint32_t slot;
    const sgrt_result r =
        take_read(s, node, "sgrt_node_world_bounds", min, max, "min or max is NULL", &slot);
    if (r != SGRT_OK)
        return r;
    if (sgrt__bit_get(bs->b_valid, slot)) {
        sgrt__bounds_world_box(s, slot, min, max);
    } else {
        for (int a = 0; a < 3; a++) {
            min[a] = POS_INF;
            max[a] = -POS_INF;
        }
    }
    return SGRT_OK;
}

sgrt_result sgrt_node_subtree_bounds(const sgrt_scene *s, sgrt_node node, float min[3],
                                     float max[3])
{
    sgrt__bounds *bs = sgrt__bounds_of(s);
    static const char fn[] = "sgrt_node_subtree_bounds";
    uint32_t slot;
    const sgrt_result r = take_read(s, node, fn, min, max, "min or max is NULL", &slot);
    if (r != SGRT_OK)
        return r;
    if (!bs->sub)
        return sgrt__fail(s, SGRT_ERR_INVALID_ARG, fn,
                          "the scene was created without SGRT_SCENE_SUBTREE_BOUNDS", node);
    memcpy(min, bs->sub[slot].lo, sizeof bs->sub[slot].lo);
    memcpy(max, bs->sub[slot].hi, sizeof bs->sub[slot].hi);
    return SGRT_OK;
}

sgrt_result sgrt_scene_bounds_arrays(const sgrt_scene *s, sgrt_bounds_arrays *out)
{
    sgrt__bounds *bs = sgrt__bounds_of(s);
    static const char fn[] = "sgrt_scene_bounds_arrays";
    SGRT__ENTER(s, SGRT_ERR_INVALID_ARG);
    if (!out)
        return sgrt__fail(s, SGRT_ERR_INVALID_ARG, fn, "out is NULL", SGRT_NULL_NODE);
    if (!bs)
        return sgrt__fail(s, SGRT_ERR_INVALID_ARG, fn,
                          "the scene was created without SGRT_SCENE_BOUNDS", SGRT_NULL_NODE);
    sgrt__bounds_view bv;
    sgrt__bounds_view_of(s, &bv);
    for (int a = 0; a < 3; a++) {
        out->min[a] = bv.lo[a];
        out->max[a] = bv.hi[a];
    }
    out->valid = bs->b_valid;
    out->slot_count = s->slot_end;
    return SGRT_OK;
}
