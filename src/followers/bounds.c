/* SPDX-License-Identifier: MIT */
/* Bounds (SGRT_SCENE_BOUNDS): a local box per node, its world box computed
 * by the update, and (SGRT_SCENE_SUBTREE_BOUNDS) each node's subtree box.
 *
 * Local boxes are center and half extents, world boxes min and max, both
 * structure of arrays indexed by slot. b_has says which nodes have a local
 * box now; b_dirty, which set or cleared one since the last update;
 * b_valid, which had one at the last update (their world box is current as
 * of it). An update computes world boxes where it recomputes worlds (in the
 * after hook, word by word, right after the kernel stored the word's
 * worlds, while they are in L1) and, before that, for the nodes whose box
 * alone changed (here, in the side work of their word).
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
#include "../follow.h"
#include "../dirty.h"
#include "bounds.h"
#include <string.h>

#define POS_INF sgrt__f32_from_bits(0x7F800000u)

#define BOX(field) SGRT__DECL_ARRAY(sgrt__bounds, field, float, true, 0u)
/* Tracked: the world boxes and their validity, what sgrt_scene_bounds_arrays
 * shows and trackers cover. */
#define WBOX(field) SGRT__DECL_ARRAY_TRACKED(sgrt__bounds, field, float, true, 0u)
#define SUB_FLAG SGRT_SCENE_SUBTREE_BOUNDS
_Static_assert(sizeof(sgrt__subtree) == 8u * sizeof(float) && sizeof(float) == 4u,
               "a subtree record is 8 scalars of 4 bytes (its snapshot width)");
static const sgrt__slot_decl decls[] = {
    BOX(lb_cx), BOX(lb_cy), BOX(lb_cz), BOX(lb_ex), BOX(lb_ey), BOX(lb_ez),
    WBOX(wb_lx), WBOX(wb_ly), WBOX(wb_lz), WBOX(wb_hx), WBOX(wb_hy), WBOX(wb_hz),
    SGRT__DECL_ARRAY_OF(sgrt__bounds, sub, sgrt__subtree, float, true, SUB_FLAG),
    SGRT__DECL_ARRAY(sgrt__bounds, sub_delta, int32_t, true, SUB_FLAG),
    SGRT__DECL_BITFIELD(sgrt__bounds, b_has, 0u),
    SGRT__DECL_BITFIELD_TRACKED(sgrt__bounds, b_valid, 0u),
    SGRT__DECL_BITFIELD(sgrt__bounds, b_dirty, 0u),
    SGRT__DECL_BITFIELD(sgrt__bounds, s_dirty, SUB_FLAG),
    SGRT__DECL_BITFIELD(sgrt__bounds, s_full, SUB_FLAG),
};
/* In a snapshot: whether the cull may trust the subtree records' runs. */
static const sgrt__state_field fields[] = {
    SGRT__FIELD_BOOL(sgrt__bounds, subtree_stale),
};
#undef SUB_FLAG
#undef WBOX
#undef BOX

sgrt__bounds *sgrt__bounds_of(const sgrt_scene *s)
{
    return s ? sgrt__follow_state(s, &sgrt__bounds_follower) : NULL;
}

void sgrt__bounds_view_of(const sgrt_scene *s, sgrt__bounds_view *v)
{
    sgrt__bounds *bs = sgrt__bounds_of(s);
    v->c[0] = bs->lb_cx;
    v->c[1] = bs->lb_cy;
    v->c[2] = bs->lb_cz;
    v->e[0] = bs->lb_ex;
    v->e[1] = bs->lb_ey;
    v->e[2] = bs->lb_ez;
    v->lo[0] = bs->wb_lx;
    v->lo[1] = bs->wb_ly;
    v->lo[2] = bs->wb_lz;
    v->hi[0] = bs->wb_hx;
    v->hi[1] = bs->wb_hy;
    v->hi[2] = bs->wb_hz;
    v->has = bs->b_has;
}

void sgrt__bounds_world_box(const sgrt_scene *s, uint32_t slot, float lo[3], float hi[3])
{
    sgrt__bounds *bs = sgrt__bounds_of(s);
    lo[0] = bs->wb_lx[slot];
    lo[1] = bs->wb_ly[slot];
    lo[2] = bs->wb_lz[slot];
    hi[0] = bs->wb_hx[slot];
    hi[1] = bs->wb_hy[slot];
    hi[2] = bs->wb_hz[slot];
}

static void subtree_empty(sgrt__subtree *r)
{
    for (int a = 0; a < 3; a++) {
        r->lo[a] = POS_INF;
        r->hi[a] = -POS_INF;
    }
}

/* ---- what the core announces ---------------------------------------------------- */

/* A node was created in `slot`: no box, a fresh subtree record. Nothing
 * without SGRT_SCENE_BOUNDS. */
static void created(sgrt_scene *s, uint32_t slot)
{
    sgrt__bounds *bs = sgrt__bounds_of(s);
    if (!bs)
        return;
    /* The slot may have held a node with a box: nothing of it stays. */
    sgrt__bit_clear_sum(bs->b_has, bs->b_has_sum, slot);
    sgrt__bit_clear_sum(bs->b_valid, bs->b_valid_sum, slot);
    sgrt__bit_clear_sum(bs->b_dirty, bs->b_dirty_sum, slot);
    if (!bs->sub)
        return;
    sgrt__bit_clear_sum(bs->s_full, bs->s_full_sum, slot);
    sgrt__subtree *r = &bs->sub[slot];
    subtree_empty(r);
    r->end = slot + 1u;
    r->count = 0; /* its parent learns of it when the update revisits it */
    bs->sub_delta[slot] = 0;
}

/* A slot became dead: it has no world box (bounds arrays' valid bits). */
static void vacated(sgrt_scene *s, uint32_t slot)
{
    sgrt__bounds *bs = sgrt__bounds_of(s);
    sgrt__bit_clear_sum(bs->b_valid, bs->b_valid_sum, slot);
    /* A run of slots that held foreign nodes beside a subtree can hold
     * exactly the subtree's count once some of its nodes die or move away:
     * until the next update no run is trusted. */
    if (bs->sub)
        bs->subtree_stale = true;
}

/* The node in `slot` leaves its parent (destroyed or re-parented; links not
 * changed yet) / joins `parent` (links changed): the parents' subtree
 * records learn it. Nothing without SGRT_SCENE_SUBTREE_BOUNDS. */
static void unlinked(sgrt_scene *s, uint32_t slot)
{
    sgrt__bounds *bs = sgrt__bounds_of(s);
    sgrt__storage *st = &s->st;
    const uint32_t p = bs->sub ? st->parent[slot] : SGRT__NONE;
    if (p == SGRT__NONE)
        return;
    const sgrt__subtree *r = &bs->sub[slot], *pr = &bs->sub[p];
    bs->sub_delta[p] -= (int32_t)r->count;
    /* A box that reached a side of the parent's may have been all that
     * reached it. */
    bool touches = false;
    for (int a = 0; a < 3; a++)
        touches |= r->lo[a] <= pr->lo[a] || r->hi[a] >= pr->hi[a];
    if (touches)
        sgrt__bit_set_sum(bs->s_full, bs->s_full_sum, p);
    sgrt__bit_set_sum(bs->s_dirty, bs->s_dirty_sum, p);
}

static void linked(sgrt_scene *s, uint32_t slot)
{
    sgrt__bounds *bs = sgrt__bounds_of(s);
    sgrt__storage *st = &s->st;
    const uint32_t p = bs->sub ? st->parent[slot] : SGRT__NONE;
    if (p == SGRT__NONE)
        return;
    /* Its box arrives when the update revisits it (it moved, so it will). */
    bs->sub_delta[p] += (int32_t)bs->sub[slot].count;
    sgrt__bit_set_sum(bs->s_dirty, bs->s_dirty_sum, p);
}

/* Nodes changed slot (sgrt__moves): by relocation (the cull goes box by
 * box until the next update), or every live node, in order, by reclamation
 * or compaction (every subtree record is rebuilt by the next update; after
 * a compaction, which reorders, the cull goes box by box until then too). */
static void moved(sgrt_scene *s, const sgrt__moves *m)
{
    const sgrt__storage *st = &s->st;
    sgrt__bounds *bs = sgrt__bounds_of(s);
    const bool renumbered = m->from == NULL, reordered = m->reordered;
    if (renumbered) {
        /* Slots left behind by the nodes moved down keep no valid bit. */
        for (uint32_t w = 0; w < st->words; w++) {
            bs->b_valid[w] &= st->alive[w];
            if (!bs->b_valid[w])
                sgrt__bit_clear(bs->b_valid_sum, w);
        }
    }
    if (!bs->sub)
        return;
    if (!renumbered || reordered)
        bs->subtree_stale = true;
    if (!renumbered)
        return;
    /* Every record's run of slots is to be found again. */
    for (uint32_t w = 0; w < st->words; w++) {
        bs->s_dirty[w] |= st->alive[w];
        bs->s_full[w] |= st->alive[w];
        if (bs->s_dirty[w])
            sgrt__bit_set(bs->s_dirty_sum, w);
        if (bs->s_full[w])
            sgrt__bit_set(bs->s_full_sum, w);
    }
}

/* ---- the update ------------------------------------------------------------- */

/* Before an update's kernel recomputes the slots `d` of word w, for the
 * slots `mask` of the word: the world boxes of nodes whose box changed but
 * whose world does not are computed, validity follows the boxes, trackers
 * learn of the changed boxes, subtree records to revisit are marked. Only
 * with SGRT_SCENE_BOUNDS. */
static void side_word(sgrt_scene *s, void *self, uint32_t w, uint32_t d, uint32_t mask)
{
    sgrt__bounds *bs = self;
    sgrt__storage *st = &s->st;
    const uint32_t set = bs->b_dirty[w] & st->alive[w] & mask;
    const uint32_t changed = (d & mask) | set;
    if (bs->b_dirty[w] & mask) {
        bs->b_dirty[w] &= ~mask;
        if (!bs->b_dirty[w])
            sgrt__bit_clear(bs->b_dirty_sum, w);
    }
    if (!changed)
        return;
    bs->b_valid[w] = (bs->b_valid[w] & ~changed) | (bs->b_has[w] & changed);
    if (bs->b_valid[w])
        sgrt__bit_set(bs->b_valid_sum, w);
    else
        sgrt__bit_clear(bs->b_valid_sum, w);
    /* Boxes of nodes whose world stays: their world is current already. */
    const uint32_t only = set & ~d;
    if (only & bs->b_has[w]) {
        sgrt__bounds_view bv;
        sgrt__bounds_view_of(s, &bv);
        s->k.boxes(&bv, (const float(*)[16])st->world, w, only & bs->b_has[w]);
    }
    sgrt__follow_changed(s, w, only); /* boxes readers see changed */
    if (bs->sub) {
        bs->s_dirty[w] |= changed;
        bs->s_full[w] |= changed;
        sgrt__bit_set(bs->s_dirty_sum, w);
        sgrt__bit_set(bs->s_full_sum, w);
    }
}

/* Whether an update has bounds work even when no world is dirty. */
static bool pending(const sgrt_scene *s)
{
    sgrt__bounds *bs = sgrt__bounds_of(s);
    const sgrt__storage *st = &s->st;
    if (!bs)
        return false;
    if (bs->subtree_stale)
        return true;
    for (uint32_t sw = 0; sw < st->sum_words; sw++)
        if (bs->b_dirty_sum[sw] || (bs->sub && bs->s_dirty_sum[sw]))
            return true;
    return false;
}

/* Revisit the record of slot i (its children's are final) and pass the
 * change on to its parent's. Returns the parent when it must be revisited
 * too, else SGRT__NONE. */
static uint32_t revisit(sgrt_scene *s, uint32_t i)
{
    sgrt__bounds *bs = sgrt__bounds_of(s);
    sgrt__storage *st = &s->st;
    sgrt__subtree *r = &bs->sub[i];
    const sgrt__subtree old = *r;
    if (sgrt__bit_get(bs->s_full, i)) {
        sgrt__bit_clear_sum(bs->s_full, bs->s_full_sum, i);
        if (sgrt__bit_get(bs->b_valid, i)) {
            sgrt__bounds_world_box(s, i, r->lo, r->hi);
        } else {
            subtree_empty(r);
        }
        r->count = 1;
        r->end = i + 1u;
        for (uint32_t c = st->first_child[i]; c != SGRT__NONE; c = st->next_sibling[c]) {
            const sgrt__subtree *cr = &bs->sub[c];
            for (int a = 0; a < 3; a++) {
                r->lo[a] = cr->lo[a] < r->lo[a] ? cr->lo[a] : r->lo[a];
                r->hi[a] = cr->hi[a] > r->hi[a] ? cr->hi[a] : r->hi[a];
            }
            r->count += cr->count;
            r->end = cr->end > r->end ? cr->end : r->end;
        }
    } else {
        r->count = old.count + (uint32_t)bs->sub_delta[i];
    }
    bs->sub_delta[i] = 0;
    const uint32_t p = st->parent[i];
    /* A parent that joins all its children again (its own box changed: in
     * an all-moved frame, every parent) needs nothing passed on. */
    if (p == SGRT__NONE || sgrt__bit_get(bs->s_full, p))
        return p;
    sgrt__subtree *pr = &bs->sub[p];
    bool again = false, full = false;
    if (r->count != old.count) {
        bs->sub_delta[p] += (int32_t)(r->count - old.count);
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
        sgrt__bit_set_sum(bs->s_full, bs->s_full_sum, p);
    return again || full ? p : SGRT__NONE;
}

/* After the kernels: the subtree records of the marked nodes and their
 * ancestors, children before parents. Only with SGRT_SCENE_SUBTREE_BOUNDS. */
static void subtree_pass(sgrt_scene *s)
{
    sgrt__bounds *bs = sgrt__bounds_of(s);
    sgrt__storage *st = &s->st;
    for (uint32_t sw = st->sum_words; sw-- > 0;) {
        while (bs->s_dirty_sum[sw]) {
            const uint32_t w = sw * 32u + 31u - sgrt__clz32(bs->s_dirty_sum[sw]);
            uint32_t bits = bs->s_dirty[w] & st->alive[w];
            bs->s_dirty[w] = 0;
            bs->s_dirty_sum[sw] &= ~(1u << (w & 31u));
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
                    sgrt__bit_set_sum(bs->s_dirty, bs->s_dirty_sum, p);
            }
        }
    }
}

/* An update starts: what the after hook reads on the update's threads
 * (the kernels' view of the boxes, the worlds, the boxes kernel) is taken
 * while one thread runs. */
static void boxes_start(sgrt_scene *s, const char *function)
{
    (void)function;
    sgrt__bounds *bs = sgrt__bounds_of(s);
    sgrt__bounds_view_of(s, &bs->kview);
    bs->kworld = (const float(*)[16])s->st.world;
    bs->kboxes = s->k.boxes;
}

/* After the kernel recomputed the worlds of the slots `done` of word w:
 * the world boxes of those with a local box, while the worlds are in L1
 * (the kernel's boxes entry, every level's result to the bit). */
static void boxes_after(void *self, uint32_t w, uint32_t done)
{
    const sgrt__bounds *bs = self;
    const uint32_t boxed = done & bs->kview.has[w];
    if (boxed)
        bs->kboxes(&bs->kview, bs->kworld, w, boxed);
}

/* ---- the follower ------------------------------------------------------------ */

/* Words whose boxes were set or cleared since the last update. */
static uint32_t set_words(const sgrt_scene *s, const void *self, uint32_t sw)
{
    (void)s;
    return ((const sgrt__bounds *)self)->b_dirty_sum[sw];
}

static void boxes_finish(sgrt_scene *s)
{
    sgrt__bounds *bs = sgrt__bounds_of(s);
    if (bs->sub)
        subtree_pass(s);
    bs->subtree_stale = false;
}

const sgrt__follower sgrt__bounds_follower = {
    .flags = SGRT_SCENE_BOUNDS,
    .state_size = sizeof(sgrt__bounds),
    .slots = decls,
    .slot_count = sizeof decls / sizeof decls[0],
    .fields = fields,
    .field_count = sizeof fields / sizeof fields[0],
    .created = created,
    .unlinked = unlinked,
    .linked = linked,
    .vacated = vacated,
    .moved = moved,
    .start = boxes_start,
    .words = set_words,
    .pending = pending,
    .word = side_word,
    .after = boxes_after,
    .finish = boxes_finish,
    .snapshot_check = sgrt__bounds_snapshot_check,
};
