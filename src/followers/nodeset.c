/* SPDX-License-Identifier: MIT */
/* Node sets: user-owned bitfields over slots that follow their nodes, and
 * the bitfield algebra between them and a tracker's pending changes. */
#include "nodeset.h"
#include "slotbits.h"
#include "tracker.h"
#include "../alloc.h"
#include "../args.h"
#include "../dirty.h"
#include <string.h>

static const char *const why_set[3] = SGRT__WHY_OBJECT("set", "node set");
static const char *const why_dst[3] = SGRT__WHY_OBJECT("dst", "node set");
static const char *const why_a[3] = SGRT__WHY_OBJECT("a", "node set");
static const char *const why_b[3] = SGRT__WHY_OBJECT("b", "node set");
static const char *const why_t[3] = SGRT__WHY_OBJECT("t", "tracker");

sgrt__slotlist *sgrt__nodesets_of(const sgrt_scene *s)
{
    return sgrt__follow_state(s, &sgrt__nodeset_follower);
}

static const char bad_op[] = "op is not an sgrt_set_op";

static sgrt_result set_resize(sgrt_scene *s, sgrt__nodeset *set, uint32_t words)
{
    return sgrt__slotbits_resize(s, &set->b, &set->spare, words, words, 0);
}

static sgrt_result set_sizer(sgrt_scene *s, sgrt__slotbits *b, uint32_t words)
{
    return set_resize(s, (sgrt__nodeset *)b, words);
}

/* Words that can hold a live node. */
static uint32_t used_words(const sgrt_scene *s) { return (s->slot_end + 31u) / 32u; }

sgrt_result sgrt_nodeset_create(sgrt_scene *s, sgrt_nodeset *out)
{
    SGRT__ENTER_WRITE(s);
    SGRT__NOT_NULL(s, out, SGRT_NULL_NODE);
    sgrt_result err;
    sgrt__nodeset *set = (sgrt__nodeset *)sgrt__slotlist_create(
        s, sgrt__nodesets_of(s), SGRT__KIND_NODESET, sizeof *set, set_sizer, __func__, &err);
    if (!set)
        return err;
    out->id = set->b.id;
    return SGRT_OK;
}

sgrt_result sgrt_nodeset_destroy(sgrt_scene *s, sgrt_nodeset set)
{
    return s ? sgrt__slotlist_destroy_one(s, sgrt__nodesets_of(s), set.id, SGRT__KIND_NODESET,
                                          sizeof(sgrt__nodeset), why_set, __func__)
             : SGRT_ERR_INVALID_ARG;
}

static sgrt_result member_op(const sgrt_scene *s, sgrt_nodeset handle, sgrt_node node, bool add,
                             const char *function)
{
    SGRT__ENTER(s, SGRT_ERR_INVALID_ARG);
    if (s->busy) /* as sgrt_nodeset_clear */
        return sgrt__reentered(s, function);
    sgrt_result err;
    sgrt__nodeset *set =
        sgrt__object_arg(s, handle.id, SGRT__KIND_NODESET, why_set, function, &err);
    if (!set)
        return err;
    const uint32_t slot = SGRT__NODE_ARG(s, node, "node", function, &err);
    if (slot == SGRT__NONE)
        return err;
    if (add)
        sgrt__bit_set(set->b.bits, slot);
    else
        sgrt__bit_clear(set->b.bits, slot);
    return SGRT_OK;
}

sgrt_result sgrt_nodeset_add(const sgrt_scene *s, sgrt_nodeset set, sgrt_node node)
{
    return member_op(s, set, node, true, __func__);
}

sgrt_result sgrt_nodeset_remove(const sgrt_scene *s, sgrt_nodeset set, sgrt_node node)
{
    return member_op(s, set, node, false, __func__);
}

bool sgrt_nodeset_has(const sgrt_scene *s, sgrt_nodeset handle, sgrt_node node)
{
    SGRT__ENTER(s, false);
    const sgrt__nodeset *set =
        sgrt__object_arg(s, handle.id, SGRT__KIND_NODESET, why_set, __func__, NULL);
    if (!set)
        return false;
    const uint32_t slot = sgrt__resolve(s, node);
    return slot != SGRT__NONE && sgrt__bit_get(set->b.bits, slot);
}

sgrt_result sgrt_nodeset_clear(const sgrt_scene *s, sgrt_nodeset handle)
{
    SGRT__ENTER_WRITE(s);
    sgrt_result err;
    sgrt__nodeset *set =
        sgrt__object_arg(s, handle.id, SGRT__KIND_NODESET, why_set, __func__, &err);
    if (!set)
        return err;
    memset(set->b.bits, 0, (size_t)set->b.words * sizeof(uint32_t));
    return SGRT_OK;
}

uint32_t sgrt_nodeset_count(const sgrt_scene *s, sgrt_nodeset handle)
{
    SGRT__ENTER(s, 0);
    const sgrt__nodeset *set =
        sgrt__object_arg(s, handle.id, SGRT__KIND_NODESET, why_set, __func__, NULL);
    if (!set)
        return 0;
    return sgrt__bits_count(set->b.bits, used_words(s));
}

static bool valid_op(sgrt_set_op op)
{
    return op == SGRT_SET_AND || op == SGRT_SET_OR || op == SGRT_SET_AND_NOT;
}

static inline uint32_t apply(sgrt_set_op op, uint32_t a, uint32_t b)
{
    switch (op) {
    case SGRT_SET_AND:
        return a & b;
    case SGRT_SET_OR:
        return a | b;
    default:
        return a & ~b;
    }
}

sgrt_result sgrt_nodeset_combine(const sgrt_scene *s, sgrt_nodeset dst_handle,
                                 sgrt_nodeset a_handle, sgrt_set_op op, sgrt_nodeset b_handle)
{
    SGRT__ENTER_WRITE(s);
    sgrt_result err;
    sgrt__nodeset *dst =
        sgrt__object_arg(s, dst_handle.id, SGRT__KIND_NODESET, why_dst, __func__, &err);
    if (!dst)
        return err;
    const sgrt__nodeset *a =
        sgrt__object_arg(s, a_handle.id, SGRT__KIND_NODESET, why_a, __func__, &err);
    if (!a)
        return err;
    const sgrt__nodeset *b =
        sgrt__object_arg(s, b_handle.id, SGRT__KIND_NODESET, why_b, __func__, &err);
    if (!b)
        return err;
    if (!valid_op(op))
        return sgrt__fail(s, SGRT_ERR_INVALID_ARG, __func__, bad_op, SGRT_NULL_NODE);
    const uint32_t nw = used_words(s);
    const uint32_t *wa = a->b.bits, *wb = b->b.bits;
    uint32_t *wd = dst->b.bits;
    /* One switch per call, not per word, so each loop vectorises. */
    switch (op) {
    case SGRT_SET_AND:
        for (uint32_t i = 0; i < nw; i++)
            wd[i] = wa[i] & wb[i];
        break;
    case SGRT_SET_OR:
        for (uint32_t i = 0; i < nw; i++)
            wd[i] = wa[i] | wb[i];
        break;
    default:
        for (uint32_t i = 0; i < nw; i++)
            wd[i] = wa[i] & ~wb[i];
        break;
    }
    /* Words past the slot count hold no node in any set: keep them zero. */
    memset(wd + nw, 0, (size_t)(dst->b.words - nw) * sizeof(uint32_t));
    return SGRT_OK;
}

sgrt_result sgrt_nodeset_from_changes(const sgrt_scene *s, sgrt_nodeset dst_handle,
                                      sgrt_tracker t_handle, sgrt_set_op op,
                                      sgrt_nodeset b_handle, bool consume)
{
    SGRT__ENTER_WRITE(s); /* the tasks write the trackers */
    sgrt_result err;
    sgrt__nodeset *dst =
        sgrt__object_arg(s, dst_handle.id, SGRT__KIND_NODESET, why_dst, __func__, &err);
    if (!dst)
        return err;
    sgrt__tracker *t = sgrt__object_arg(s, t_handle.id, SGRT__KIND_TRACKER, why_t, __func__, &err);
    if (!t)
        return err;
    /* b zero: no set (the pending live nodes alone). */
    const sgrt__nodeset *b = NULL;
    if (b_handle.id &&
        !(b = sgrt__object_arg(s, b_handle.id, SGRT__KIND_NODESET, why_b, __func__, &err)))
        return err;
    if (b && !valid_op(op))
        return sgrt__fail(s, SGRT_ERR_INVALID_ARG, __func__, bad_op, SGRT_NULL_NODE);
    const uint32_t nw = used_words(s);
    uint32_t *wd = dst->b.bits;
    for (uint32_t i = 0; i < nw; i++) {
        const uint32_t changed = t->b.bits[i] & s->st.alive[i];
        const uint32_t r = b ? apply(op, changed, b->b.bits[i]) : changed;
        wd[i] = r;
        if (consume && (t->b.bits[i] & r))
            sgrt__tracker_forget(t, i, r);
    }
    memset(wd + nw, 0, (size_t)(dst->b.words - nw) * sizeof(uint32_t));
    return SGRT_OK;
}

sgrt_node sgrt_nodeset_next(const sgrt_scene *s, sgrt_nodeset handle, uint32_t *cursor)
{
    SGRT__ENTER(s, SGRT_NULL_NODE);
    const sgrt__nodeset *set =
        sgrt__object_arg(s, handle.id, SGRT__KIND_NODESET, why_set, __func__, NULL);
    if (!set)
        return SGRT_NULL_NODE;
    if (!cursor) {
        sgrt__fail(s, SGRT_ERR_INVALID_ARG, __func__, "cursor is NULL", SGRT_NULL_NODE);
        return SGRT_NULL_NODE;
    }
    const uint32_t nw = used_words(s);
    const uint32_t slot = sgrt__bits_next_set(set->b.bits, nw, *cursor);
    if (slot >= s->slot_end) {
        *cursor = s->slot_end;
        return SGRT_NULL_NODE;
    }
    *cursor = slot + 1u;
    return sgrt__handle_of_slot(s, slot);
}

const uint32_t *sgrt_nodeset_words(const sgrt_scene *s, sgrt_nodeset handle,
                                   uint32_t *out_word_count)
{
    SGRT__ENTER(s, NULL);
    const sgrt__nodeset *set =
        sgrt__object_arg(s, handle.id, SGRT__KIND_NODESET, why_set, __func__, NULL);
    if (!set)
        return NULL;
    if (out_word_count)
        *out_word_count = used_words(s);
    return set->b.bits;
}

/* ---- the follower ------------------------------------------------------------ */

#define SET(l, i) ((sgrt__nodeset *)(l)->items[i])

static void vacated(sgrt_scene *s, uint32_t slot)
{
    const sgrt__slotlist *l = sgrt__nodesets_of(s);
    for (uint32_t i = 0; i < l->count; i++)
        sgrt__bit_clear(SET(l, i)->b.bits, slot);
}

/* Nodes changed slot: each set's members move with them. A set holds live
 * nodes only, so its bits are the old slots of members. Relocation moves
 * bits to dead slots, which hold none; reclamation and compaction remap
 * into `spare` and copy back rather than swap: a renderer holding the
 * set's words (sgrt_nodeset_words) keeps a current pointer through hole
 * reclamation, which changes no storage_version (capacity/8 bytes, beside
 * the O(slots) remap). */
static void moved(sgrt_scene *s, const sgrt__moves *m)
{
    const sgrt__slotlist *l = sgrt__nodesets_of(s);
    for (uint32_t i = 0; i < l->count; i++) {
        sgrt__nodeset *e = SET(l, i);
        if (m->from) {
            for (uint32_t j = 0; j < m->count; j++) {
                const uint32_t o = m->from[j];
                if (sgrt__bit_get(e->b.bits, o)) {
                    sgrt__bit_clear(e->b.bits, o);
                    sgrt__bit_set(e->b.bits, m->map[o]);
                }
            }
            continue;
        }
        memset(e->spare, 0, (size_t)e->b.words * sizeof(uint32_t));
        SGRT__FOR_EACH_BIT(e->b.bits, e->b.words, o, sgrt__bit_set(e->spare, m->map[o]);)
        memcpy(e->b.bits, e->spare, (size_t)e->b.words * sizeof(uint32_t));
    }
}

/* A restore: members whose slot holds no live node leave every set (the
 * sets keep slots, as the snapshot restores slots). */
static void restored(sgrt_scene *s, const uint32_t *changed)
{
    (void)changed;
    const sgrt__slotlist *l = sgrt__nodesets_of(s);
    for (uint32_t i = 0; i < l->count; i++) {
        uint32_t *bits = SET(l, i)->b.bits;
        for (uint32_t w = 0; w < s->st.words; w++)
            bits[w] &= s->st.alive[w];
    }
}

/* Storage grows: every set covers the new words. Its words move, so a
 * pointer from sgrt_nodeset_words is stale: the storage version says so,
 * even when a later resize fails (on success the new storage block
 * changes it anyway). */
static sgrt_result reserve(sgrt_scene *s, uint32_t words)
{
    const sgrt__slotlist *l = sgrt__nodesets_of(s);
    bool grown = false;
    for (uint32_t i = 0; i < l->count; i++)
        if (SET(l, i)->b.words < words) {
            const sgrt_result r = set_resize(s, SET(l, i), words);
            if (r != SGRT_OK) {
                s->storage_version += grown;
                return r;
            }
            grown = true;
        }
    return SGRT_OK;
}

static void destroy(sgrt_scene *s)
{
    sgrt__slotlist_free(s, sgrt__nodesets_of(s), sizeof(sgrt__nodeset));
}

static const char *check(const sgrt_scene *s)
{
    const sgrt__slotlist *l = sgrt__nodesets_of(s);
    const char *what = sgrt__slotlist_check(s, l, SGRT__KIND_NODESET);
    for (uint32_t i = 0; !what && i < l->count; i++) {
        const sgrt__slotbits *b = &SET(l, i)->b;
        for (uint32_t k = 0; k < b->words; k++)
            if (b->bits[k] & ~(k < s->st.words ? s->st.alive[k] : 0u))
                return "node sets hold live nodes only";
    }
    return what;
}

const sgrt__follower sgrt__nodeset_follower = {
    .state_size = sizeof(sgrt__slotlist),
    .reserve = reserve,
    .vacated = vacated,
    .moved = moved,
    .restored = restored,
    .destroy = destroy,
    .check = check,
};
