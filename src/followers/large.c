/* SPDX-License-Identifier: MIT */
/* Large worlds (SGRT_SCENE_LARGE_WORLD): each root's anchor, a point in
 * double precision its local is relative to, and the scene's origin, the
 * point every world is relative to. The update forms a root's world as
 * translate(anchor - origin) x local (sgrt__anchored_world, the kernels');
 * everything below a root is the usual float product. An origin move marks
 * every node and is announced through the seam (previous worlds follow it:
 * prev.c). Also the absolute world of a node in double, which every scene
 * answers. The anchors are per-slot state declared here (sgrt__large);
 * the core reads them only through the kernels' view. */
#include "large.h"
#include "../args.h"
#include "../dirty.h"
#include "../snapshot.h"
#include <stddef.h>
#include <string.h>

static const sgrt__slot_decl decls[] = {
    /* Zeroed: anchors of slots that hold no root are copied with the rest. */
    SGRT__DECL_ARRAY(sgrt__large, anchor, sgrt__dvec3, true, 0u),
};
static const sgrt__state_field fields[] = {
    SGRT__FIELD(sgrt__large, origin, double),
};

sgrt__large *sgrt__large_of(const sgrt_scene *s)
{
    return sgrt__follow_state(s, &sgrt__large_follower);
}

static const char no_flag[] = "the scene was created without SGRT_SCENE_LARGE_WORLD";

/* A coordinate the scene takes: finite, within SGRT_LARGE_WORLD_LIMIT. */
static bool point_ok(const double p[3])
{
    for (int a = 0; a < 3; a++)
        if (!(p[a] >= -SGRT_LARGE_WORLD_LIMIT && p[a] <= SGRT_LARGE_WORLD_LIMIT))
            return false;
    return true;
}

/* Whether two points are equal as numbers (-0.0 equals +0.0): a position
 * equal to the one held changes nothing, bits and marks alike. */
static bool same_point(const double a[3], const double b[3])
{
    return a[0] == b[0] && a[1] == b[1] && a[2] == b[2];
}

/* The slot of a root argument, or SGRT__NONE after refusing it. */
static uint32_t take_root(const sgrt_scene *s, sgrt_node root, const char *function,
                          sgrt_result *err)
{
    const uint32_t slot = SGRT__NODE_ARG(s, root, "root", function, err);
    if (slot != SGRT__NONE && s->st.parent[slot] != SGRT__NONE) {
        *err = sgrt__fail(s, SGRT_ERR_INVALID_ARG, function,
                          "root is not a root: only roots have an anchor (a node's place is "
                          "its parent's)",
                          root);
        return SGRT__NONE;
    }
    return slot;
}

sgrt_result sgrt_node_set_anchor(sgrt_scene *s, sgrt_node root, const double position[3])
{
    SGRT__ENTER(s, SGRT_ERR_INVALID_ARG);
    SGRT__NOT_NULL(s, position, root);
    if (!(s->flags & SGRT_SCENE_LARGE_WORLD))
        return sgrt__fail(s, SGRT_ERR_INVALID_ARG, __func__, no_flag, root);
    sgrt_result err;
    const uint32_t slot = take_root(s, root, __func__, &err);
    if (slot == SGRT__NONE)
        return err;
    if (!point_ok(position))
        return sgrt__fail(s, SGRT_ERR_INVALID_ARG, __func__,
                          "position has a coordinate that is not finite or is beyond "
                          "SGRT_LARGE_WORLD_LIMIT",
                          root);
    double *a = sgrt__large_of(s)->anchor[slot];
    if (same_point(a, position))
        return SGRT_OK;
    memcpy(a, position, sizeof(sgrt__dvec3));
    sgrt__dirty_mark(s, slot, false);
    return SGRT_OK;
}

sgrt_result sgrt_node_anchor(const sgrt_scene *s, sgrt_node root, double out[3])
{
    SGRT__ENTER(s, SGRT_ERR_INVALID_ARG);
    SGRT__NOT_NULL(s, out, root);
    sgrt_result err;
    const uint32_t slot = take_root(s, root, __func__, &err);
    if (slot == SGRT__NONE)
        return err;
    const sgrt__large *g = sgrt__large_of(s);
    if (g)
        memcpy(out, g->anchor[slot], sizeof(sgrt__dvec3));
    else
        out[0] = out[1] = out[2] = 0.0;
    return SGRT_OK;
}

sgrt_result sgrt_scene_set_origin(sgrt_scene *s, const double origin[3])
{
    SGRT__ENTER_WRITE(s); /* the tasks read the origin */
    SGRT__NOT_NULL(s, origin, SGRT_NULL_NODE);
    if (!(s->flags & SGRT_SCENE_LARGE_WORLD))
        return sgrt__fail(s, SGRT_ERR_INVALID_ARG, __func__, no_flag, SGRT_NULL_NODE);
    if (!point_ok(origin))
        return sgrt__fail(s, SGRT_ERR_INVALID_ARG, __func__,
                          "origin has a coordinate that is not finite or is beyond "
                          "SGRT_LARGE_WORLD_LIMIT",
                          SGRT_NULL_NODE);
    sgrt__large *g = sgrt__large_of(s);
    if (same_point(g->origin, origin))
        return SGRT_OK; /* the same origin: nothing moves */
    memcpy(g->origin, origin, sizeof g->origin);
    sgrt__dirty_mark_all(s);
    sgrt__follow_origin(s, g->origin);
    return SGRT_OK;
}

sgrt_result sgrt_scene_origin(const sgrt_scene *s, double out[3])
{
    SGRT__ENTER(s, SGRT_ERR_INVALID_ARG);
    SGRT__NOT_NULL(s, out, SGRT_NULL_NODE);
    const sgrt__large *g = sgrt__large_of(s);
    if (g)
        memcpy(out, g->origin, sizeof g->origin);
    else
        out[0] = out[1] = out[2] = 0.0;
    return SGRT_OK;
}

/* ---- the world in double ----------------------------------------------------- */

/* out = a x b, 4 x 4 column-major in double, each entry summed in the
 * order k = 0..3 (no fused multiply-add: the build turns contraction off). */
static void mul_d(const double a[16], const double b[16], double out[16])
{
    for (int j = 0; j < 4; j++)
        for (int i = 0; i < 4; i++) {
            double v = 0.0;
            for (int k = 0; k < 4; k++)
                v += a[4 * k + i] * b[4 * j + k];
            out[4 * j + i] = v;
        }
}

static void local_d(const sgrt_scene *s, uint32_t slot, double out[16])
{
    const float *l = sgrt__finite16(s->st.local[slot]) ? s->st.local[slot] : sgrt__identity;
    for (int e = 0; e < 16; e++)
        out[e] = (double)l[e];
}

sgrt_result sgrt_node_world_double(const sgrt_scene *s, sgrt_node node, double out[16])
{
    SGRT__ENTER(s, SGRT_ERR_INVALID_ARG);
    SGRT__NOT_NULL(s, out, node);
    sgrt_result err;
    uint32_t x = SGRT__NODE_ARG(s, node, "node", __func__, &err);
    if (x == SGRT__NONE)
        return err;
    /* From the node up: acc = local(parent) x acc, so no stack at any
     * depth; the root's anchor last: translate(anchor) x acc. */
    double acc[16], l[16], t[16];
    local_d(s, x, acc);
    for (uint32_t p = s->st.parent[x]; p != SGRT__NONE; x = p, p = s->st.parent[p]) {
        local_d(s, p, l);
        mul_d(l, acc, t);
        memcpy(acc, t, sizeof acc);
    }
    const sgrt__large *g = sgrt__large_of(s);
    if (g) {
        const double *a = g->anchor[x];
        for (int j = 0; j < 4; j++)
            for (int i = 0; i < 3; i++)
                acc[4 * j + i] += a[i] * acc[4 * j + 3];
    }
    memcpy(out, acc, sizeof acc);
    return SGRT_OK;
}

/* ---- the follower ------------------------------------------------------------ */

/* Anchored at the origin: its local places it relative to the origin. */
static void rooted(sgrt_scene *s, uint32_t slot)
{
    sgrt__large *g = sgrt__large_of(s);
    double *a = g->anchor[slot];
    if (memcmp(a, g->origin, sizeof g->origin) == 0)
        return;
    memcpy(a, g->origin, sizeof g->origin);
    sgrt__dirty_mark(s, slot, false);
}

static void view(const sgrt_scene *s, sgrt__update_view *v)
{
    const sgrt__large *g = sgrt__large_of(s);
    v->anchor = (const double(*)[3])g->anchor;
    v->origin = g->origin;
}

static const char *check(const sgrt_scene *s)
{
    const sgrt__large *g = sgrt__large_of(s);
    if (!point_ok(g->origin))
        return "large world: the origin is finite and within SGRT_LARGE_WORLD_LIMIT";
    SGRT__FOR_EACH_BIT(s->st.alive, s->st.words, i,
        if (s->st.parent[i] == SGRT__NONE && !point_ok(g->anchor[i]))
            return "large world: every root's anchor is finite and within "
                   "SGRT_LARGE_WORLD_LIMIT";
    )
    return NULL;
}

/* A snapshot's origin and anchors, as check wants them. */
static const char *snapshot_check(const sgrt_scene *s, const sgrt__snapview *v)
{
    const uint8_t *origin = sgrt__snap_state(s, v, &sgrt__large_follower, "origin");
    const uint8_t *anchor = sgrt__snap_slots(s, v, &sgrt__large_follower, "anchor");
    double p[3];
    for (uint32_t a = 0; a < 3u; a++)
        p[a] = sgrt__snap_f64(origin, a);
    if (!point_ok(p))
        return "buf: a large world's origin is finite and within SGRT_LARGE_WORLD_LIMIT";
    for (uint32_t i = 0; i < v->slot_end; i++) {
        if (!sgrt__snap_bit(v->alive, i) || sgrt__snap_u32(v->parent, i) != SGRT__NONE)
            continue;
        for (uint32_t a = 0; a < 3u; a++)
            p[a] = sgrt__snap_f64(anchor, 3u * (size_t)i + a);
        if (!point_ok(p))
            return "buf: every root's anchor is finite and within SGRT_LARGE_WORLD_LIMIT";
    }
    return NULL;
}

const sgrt__follower sgrt__large_follower = {
    .flags = SGRT_SCENE_LARGE_WORLD,
    .state_size = sizeof(sgrt__large),
    .slots = decls,
    .slot_count = sizeof decls / sizeof decls[0],
    .fields = fields,
    .field_count = sizeof fields / sizeof fields[0],
    .rooted = rooted,
    .view = view,
    .check = check,
    .snapshot_check = snapshot_check,
};
