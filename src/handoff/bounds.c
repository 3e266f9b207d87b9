/* SPDX-License-Identifier: MIT */
/* Bounds (SGRT_SCENE_BOUNDS): a local box per node, its world box computed
 * by the update, and (SGRT_SCENE_SUBTREE_BOUNDS) each node's subtree box.
 *
 * Local boxes are center and half extents, world boxes min and max, both
 * structure of arrays indexed by slot. b_has says which nodes have a local
 * box now; b_dirty, which set or cleared one since the last update;
 * b_valid, which had one at the last update (their world box is current as
 * of it). An update computes world boxes where it recomputes worlds (in its
 * kernel, word by word, while the worlds are in L1) and, before that, for
 * the nodes whose box alone changed (here, in the side work of their word).
 *
 * Subtree records (sgrt__subtree) are revisited after the kernels, in
 * decreasing slot order, so every child before its parent: the nodes whose
 * own box changed (s_full: joined again from their own box and their
 * children's records) and the ancestors their changes reach. A revisited
 * node passes its change to its parent at once: a grown side grows the
 * parent's record in place; a side that shrank from where the parent's
 * record lay marks the parent s_full; a change of node count goes to the
 * parent's sub_delta. A parent whose record is grown but not marked s_full
 * is then exact without looking at its other children: every side it had
 * is still reached by some member, or was grown to a new member's side.
 * The growth done in place is also what the parent passes on as its old
 * box: a side can only have grown to new member boxes, which its new box
 * holds, so "shrank from the grandparent's side" is decided right.
 *
 * The cull skips or accepts a subtree by its run of slots [i, end): end is
 * never below one past the subtree's highest slot, and the run is the
 * subtree exactly when it holds `count` live nodes (cull.c checks). */
#include "../internal.h"
#include <float.h>
#include <string.h>

#define POS_INF sgrt__f32_from_bits(0x7F800000u)

/* Clear / set a bit of a bitfield with an exact summary. */
static inline void bit_off(uint32_t *bits, uint32_t *sum, uint32_t i)
{
    sgrt__bit_clear(bits, i);
    if (!bits[i >> 5])
        sgrt__bit_clear(sum, i >> 5);
}

static inline void bit_on(uint32_t *bits, uint32_t *sum, uint32_t i)
{
    sgrt__bit_set(bits, i);
    sgrt__bit_set(sum, i >> 5);
}

void sgrt__bounds_view_of(const sgrt_scene *s, sgrt__bounds_view *v)
{
    const sgrt__storage *st = &s->st;
    v->c[0] = st->lb_cx;
    v->c[1] = st->lb_cy;
    v->c[2] = st->lb_cz;
    v->e[0] = st->lb_ex;
    v->e[1] = st->lb_ey;
    v->e[2] = st->lb_ez;
    v->lo[0] = st->wb_lx;
    v->lo[1] = st->wb_ly;
    v->lo[2] = st->wb_lz;
    v->hi[0] = st->wb_hx;
    v->hi[1] = st->wb_hy;
    v->hi[2] = st->wb_hz;
    v->has = st->b_has;
}

void sgrt__bounds_world_box(const sgrt_scene *s, uint32_t slot, float lo[3], float hi[3])
{
    const sgrt__storage *st = &s->st;
    lo[0] = st->wb_lx[slot];
    lo[1] = st->wb_ly[slot];
    lo[2] = st->wb_lz[slot];
    hi[0] = st->wb_hx[slot];
    hi[1] = st->wb_hy[slot];
    hi[2] = st->wb_hz[slot];
}

static void subtree_empty(sgrt__subtree *r)
{
    for (int a = 0; a < 3; a++) {
        r->lo[a] = POS_INF;
        r->hi[a] = -POS_INF;
    }
}

/* ---- hooks of the core ------------------------------------------------------ */

void sgrt__bounds_created(sgrt_scene *s, uint32_t slot)
{
    sgrt__storage *st = &s->st;
    if (!st->b_has)
        return;
    /* The slot may have held a node with a box: nothing of it stays. */
    bit_off(st->b_has, st->b_has_sum, slot);
    bit_off(st->b_valid, st->b_valid_sum, slot);
    bit_off(st->b_dirty, st->b_dirty_sum, slot);
    if (!st->sub)
        return;
    bit_off(st->s_full, st->s_full_sum, slot);
    sgrt__subtree *r = &st->sub[slot];
    subtree_empty(r);
    r->end = slot + 1u;
    r->count = 0; /* its parent learns of it when the update revisits it */
    st->sub_delta[slot] = 0;
}

void sgrt__bounds_vacated(sgrt_scene *s, uint32_t slot)
{
    if (s->st.b_valid)
        bit_off(s->st.b_valid, s->st.b_valid_sum, slot);
}

void sgrt__bounds_unlinked(sgrt_scene *s, uint32_t slot)
{
    sgrt__storage *st = &s->st;
    const uint32_t p = st->sub ? st->parent[slot] : SGRT__NONE;
    if (p == SGRT__NONE)
        return;
    const sgrt__subtree *r = &st->sub[slot], *pr = &st->sub[p];
    st->sub_delta[p] -= (int32_t)r->count;
    /* A box that reached a side of the parent's may have been all that
     * reached it. */
    bool touches = false;
    for (int a = 0; a < 3; a++)
        touches |= r->lo[a] <= pr->lo[a] || r->hi[a] >= pr->hi[a];
    if (touches)
        bit_on(st->s_full, st->s_full_sum, p);
    bit_on(st->s_dirty, st->s_dirty_sum, p);
}

void sgrt__bounds_linked(sgrt_scene *s, uint32_t slot)
{
    sgrt__storage *st = &s->st;
    const uint32_t p = st->sub ? st->parent[slot] : SGRT__NONE;
    if (p == SGRT__NONE)
        return;
    /* Its box arrives when the update revisits it (it moved, so it will). */
    st->sub_delta[p] += (int32_t)st->sub[slot].count;
    bit_on(st->s_dirty, st->s_dirty_sum, p);
}

void sgrt__bounds_slots_moved(sgrt_scene *s, bool renumbered, bool reordered)
{
    sgrt__storage *st = &s->st;
    if (!st->b_has)
        return;
    if (renumbered) {
        /* Slots left behind by the nodes moved down keep no valid bit. */
        for (uint32_t w = 0; w < st->words; w++) {
            st->b_valid[w] &= st->alive[w];
            if (!st->b_valid[w])
                sgrt__bit_clear(st->b_valid_sum, w);
        }
    }
    if (!st->sub)
        return;
    if (!renumbered || reordered)
        s->subtree_stale = true;
    if (!renumbered)
        return;
    /* Every record's run of slots is to be found again. */
    for (uint32_t w = 0; w < st->words; w++) {
        st->s_dirty[w] |= st->alive[w];
        st->s_full[w] |= st->alive[w];
        if (st->s_dirty[w])
            sgrt__bit_set(st->s_dirty_sum, w);
        if (st->s_full[w])
            sgrt__bit_set(st->s_full_sum, w);
    }
}

/* ---- the update ------------------------------------------------------------- */

void sgrt__bounds_side_word(sgrt_scene *s, uint32_t w, uint32_t d, uint32_t mask)
{
    sgrt__storage *st = &s->st;
    const uint32_t set = st->b_dirty[w] & st->alive[w] & mask;
    const uint32_t changed = (d & mask) | set;
    if (st->b_dirty[w] & mask) {
        st->b_dirty[w] &= ~mask;
        if (!st->b_dirty[w])
            sgrt__bit_clear(st->b_dirty_sum, w);
    }
    if (!changed)
        return;
    st->b_valid[w] = (st->b_valid[w] & ~changed) | (st->b_has[w] & changed);
    if (st->b_valid[w])
        sgrt__bit_set(st->b_valid_sum, w);
    else
        sgrt__bit_clear(st->b_valid_sum, w);
    /* Boxes of nodes whose world stays: their world is current already. */
    const uint32_t only = set & ~d;
    if (only & st->b_has[w]) {
        sgrt__bounds_view bv;
        sgrt__bounds_view_of(s, &bv);
        s->k.boxes(&bv, (const float(*)[16])st->world, w, only & st->b_has[w]);
    }
    sgrt__trackers_note(s, w, only);
    if (st->sub) {
        st->s_dirty[w] |= changed;
        st->s_full[w] |= changed;
        sgrt__bit_set(st->s_dirty_sum, w);
        sgrt__bit_set(st->s_full_sum, w);
    }
}

bool sgrt__bounds_pending(const sgrt_scene *s)
{
    const sgrt__storage *st = &s->st;
    if (!st->b_has)
        return false;
    if (s->subtree_stale)
        return true;
    for (uint32_t sw = 0; sw < st->sum_words; sw++)
        if (st->b_dirty_sum[sw] || (st->sub && st->s_dirty_sum[sw]))
            return true;
    return false;
}

/* Revisit the record of slot i (its children's are final) and pass the
 * change on to its parent's. Returns the parent when it must be revisited
 * too, else SGRT__NONE. */
static uint32_t revisit(sgrt_scene *s, uint32_t i)
{
    sgrt__storage *st = &s->st;
    sgrt__subtree *r = &st->sub[i];
    const sgrt__subtree old = *r;
    if (sgrt__bit_get(st->s_full, i)) {
        bit_off(st->s_full, st->s_full_sum, i);
        if (sgrt__bit_get(st->b_valid, i)) {
            sgrt__bounds_world_box(s, i, r->lo, r->hi);
        } else {
            subtree_empty(r);
        }
        r->count = 1;
        r->end = i + 1u;
        for (uint32_t c = st->first_child[i]; c != SGRT__NONE; c = st->next_sibling[c]) {
            const sgrt__subtree *cr = &st->sub[c];
            for (int a = 0; a < 3; a++) {
                r->lo[a] = cr->lo[a] < r->lo[a] ? cr->lo[a] : r->lo[a];
                r->hi[a] = cr->hi[a] > r->hi[a] ? cr->hi[a] : r->hi[a];
            }
            r->count += cr->count;
            r->end = cr->end > r->end ? cr->end : r->end;
        }
    } else {
        r->count = old.count + (uint32_t)st->sub_delta[i];
    }
    st->sub_delta[i] = 0;
    const uint32_t p = st->parent[i];
    /* A parent that joins all its children again (its own box changed: in
     * an all-moved frame, every parent) needs nothing passed on. */
    if (p == SGRT__NONE || sgrt__bit_get(st->s_full, p))
        return p;
    sgrt__subtree *pr = &st->sub[p];
    bool again = false, full = false;
    if (r->count != old.count) {
        st->sub_delta[p] += (int32_t)(r->count - old.count);
        again = true;
    }
    if (r->end > pr->end) {
        pr->end = r->end;
        again = true;
    }
    for (int a = 0; a < 3; a++) {
        if (r->hi[a] > pr->hi[a]) {
            pr->hi[a] = r->hi[a];
            again = true;
        } else if (r->hi[a] < old.hi[a] && old.hi[a] >= pr->hi[a]) {
            full = true;
        }
        if (r->lo[a] < pr->lo[a]) {
            pr->lo[a] = r->lo[a];
            again = true;
        } else if (r->lo[a] > old.lo[a] && old.lo[a] <= pr->lo[a]) {
            full = true;
        }
    }
    if (full)
        bit_on(st->s_full, st->s_full_sum, p);
    return again || full ? p : SGRT__NONE;
}

void sgrt__subtree_pass(sgrt_scene *s)
{
    sgrt__storage *st = &s->st;
    for (uint32_t sw = st->sum_words; sw-- > 0;) {
        while (st->s_dirty_sum[sw]) {
            const uint32_t w = sw * 32u + 31u - sgrt__clz32(st->s_dirty_sum[sw]);
            uint32_t bits = st->s_dirty[w] & st->alive[w];
            st->s_dirty[w] = 0;
            st->s_dirty_sum[sw] &= ~(1u << (w & 31u));
            /* Highest slot first; a parent in this word joins `bits`, one in
             * an earlier word its own (visited later: lower). */
            while (bits) {
                const uint32_t b = 31u - sgrt__clz32(bits);
                bits &= ~(1u << b);
                const uint32_t p = revisit(s, w * 32u + b);
                if (p == SGRT__NONE)
                    continue;
                if (p >> 5 == w)
                    bits |= 1u << (p & 31u);
                else
                    bit_on(st->s_dirty, st->s_dirty_sum, p);
            }
        }
    }
}

/* ---- public ------------------------------------------------------------------- */

/* The checks of a call on boxes: a scene with them, a live node. */
static sgrt_result take_node(const sgrt_scene *s, sgrt_node node, const char *fn,
                             uint32_t *slot)
{
    if (!s)
        return SGRT_ERR_INVALID_ARG;
    if (!s->st.b_has)
        return sgrt__fail(s, SGRT_ERR_INVALID_ARG, fn,
                          "the scene was created without SGRT_SCENE_BOUNDS", node);
    *slot = sgrt__resolve(s, node);
    if (*slot == SGRT__NONE)
        return sgrt__fail(s, SGRT_ERR_STALE_HANDLE, fn, "node is not a live node of this scene",
                          node);
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
    sgrt__storage *st = &s->st;
    float *const cc[3] = {st->lb_cx, st->lb_cy, st->lb_cz};
    float *const ee[3] = {st->lb_ex, st->lb_ey, st->lb_ez};
    bool same = sgrt__bit_get(st->b_has, slot);
    for (int a = 0; a < 3; a++) {
        const float e = h[a] + 0.0f; /* -0 becomes +0 */
        same = same && sgrt__f32_bits(cc[a][slot]) == sgrt__f32_bits(c[a]) && sgrt__f32_bits(ee[a][slot]) == sgrt__f32_bits(e);
        cc[a][slot] = c[a];
        ee[a][slot] = e;
    }
    if (same)
        return;
    bit_on(st->b_has, st->b_has_sum, slot);
    bit_on(st->b_dirty, st->b_dirty_sum, slot);
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
    static const char fn[] = "sgrt_nodes_set_bounds";
    if (!s)
        return SGRT_ERR_INVALID_ARG;
    if (!s->st.b_has)
        return sgrt__fail(s, SGRT_ERR_INVALID_ARG, fn,
                          "the scene was created without SGRT_SCENE_BOUNDS", SGRT_NULL_NODE);
    if (count && (!nodes || !center || !half_extent))
        return sgrt__fail(s, SGRT_ERR_INVALID_ARG, fn,
                          "nodes, center or half_extent is NULL with count > 0", SGRT_NULL_NODE);
    for (uint32_t i = 0; i < count; i++) {
        sgrt_result r = SGRT_OK;
        if (sgrt__resolve(s, nodes[i]) == SGRT__NONE)
            r = sgrt__fail(s, SGRT_ERR_STALE_HANDLE, fn,
                           "nodes[*out_bad] is not a live node of this scene", nodes[i]);
        else if (!box_ok(center + 3u * i, half_extent + 3u * i))
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
    uint32_t slot;
    const sgrt_result r = take_node(s, node, "sgrt_node_clear_bounds", &slot);
    if (r != SGRT_OK)
        return r;
    sgrt__storage *st = &s->st;
    if (sgrt__bit_get(st->b_has, slot)) {
        bit_off(st->b_has, st->b_has_sum, slot);
        bit_on(st->b_dirty, st->b_dirty_sum, slot);
    }
    return SGRT_OK;
}

sgrt_result sgrt_node_bounds(const sgrt_scene *s, sgrt_node node, float center[3],
                             float half_extent[3])
{
    uint32_t slot;
    const sgrt_result r = take_read(s, node, "sgrt_node_bounds", center, half_extent,
                                    "center or half_extent is NULL", &slot);
    if (r != SGRT_OK)
        return r;
    const sgrt__storage *st = &s->st;
    const bool has = sgrt__bit_get(st->b_has, slot);
    const float *const cc[3] = {st->lb_cx, st->lb_cy, st->lb_cz};
    const float *const ee[3] = {st->lb_ex, st->lb_ey, st->lb_ez};
    for (int a = 0; a < 3; a++) {
        center[a] = has ? cc[a][slot] : 0.0f;
        half_extent[a] = has ? ee[a][slot] : -1.0f;
    }
    return SGRT_OK;
}

sgrt_result sgrt_node_world_bounds(const sgrt_scene *s, sgrt_node node, float min[3],
                                   float max[3])
{
    uint32_t slot;
    const sgrt_result r =
        take_read(s, node, "sgrt_node_world_bounds", min, max, "min or max is NULL", &slot);
    if (r != SGRT_OK)
        return r;
    if (sgrt__bit_get(s->st.b_valid, slot)) {
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
    static const char fn[] = "sgrt_node_subtree_bounds";
    uint32_t slot;
    const sgrt_result r = take_read(s, node, fn, min, max, "min or max is NULL", &slot);
    if (r != SGRT_OK)
        return r;
    if (!s->st.sub)
        return sgrt__fail(s, SGRT_ERR_INVALID_ARG, fn,
                          "the scene was created without SGRT_SCENE_SUBTREE_BOUNDS", node);
    memcpy(min, s->st.sub[slot].lo, sizeof s->st.sub[slot].lo);
    memcpy(max, s->st.sub[slot].hi, sizeof s->st.sub[slot].hi);
    return SGRT_OK;
}

sgrt_result sgrt_scene_bounds_arrays(const sgrt_scene *s, sgrt_bounds_arrays *out)
{
    static const char fn[] = "sgrt_scene_bounds_arrays";
    if (!s)
        return SGRT_ERR_INVALID_ARG;
    if (!out)
        return sgrt__fail(s, SGRT_ERR_INVALID_ARG, fn, "out is NULL", SGRT_NULL_NODE);
    if (!s->st.b_has)
        return sgrt__fail(s, SGRT_ERR_INVALID_ARG, fn,
                          "the scene was created without SGRT_SCENE_BOUNDS", SGRT_NULL_NODE);
    sgrt__bounds_view bv;
    sgrt__bounds_view_of(s, &bv);
    for (int a = 0; a < 3; a++) {
        out->min[a] = bv.lo[a];
        out->max[a] = bv.hi[a];
    }
    out->valid = s->st.b_valid;
    out->slot_count = s->slot_end;
    return SGRT_OK;
}
