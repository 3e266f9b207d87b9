/* SPDX-License-Identifier: MIT */
/* The invariant checker: everything the speed and safety of the library rest
 * on, verified from scratch. For tests, fuzzing and debugging. */
#include "../follow.h"
#include "../args.h"
#include "../handles.h"
#include "../followers/bounds.h"
#include "../followers/prev.h"
#include "../objects.h"
#include "../result.h"
#include <float.h>
#include <string.h>

/* The first broken invariant: named in *out_what and in the log. */
#define FAIL(what)                                                                     \
    do {                                                                               \
        if (out_what)                                                                  \
            *out_what = (what);                                                        \
        return sgrt__fail(s, SGRT_ERR_CORRUPT, "sgrt_scene_check", (what), SGRT_NULL_NODE); \
    } while (0)

static bool slot_live(const sgrt_scene *s, uint32_t i)
{
    return i < s->st.cap && sgrt__bit_get(s->st.alive, i);
}

static bool box_bits_equal(const float a[3], const float b[3])
{
    return memcmp(a, b, 3 * sizeof(float)) == 0;
}

/* Whether node i's world may be stale: dirty, or after close_from (its
 * ancestors' marks may not have reached it yet). */
static bool world_pending(const sgrt_scene *s, uint32_t i)
{
    return sgrt__bit_get(s->st.dirty, i) || (s->close_from != SGRT__NONE && i > s->close_from);
}

/* The followers' declared per-slot state (follow.h), walked from the
 * declarations alone: each field present iff the scene's flags ask for it,
 * in the storage block, and each bitfield's summary exact. */
static const char *check_declared(const sgrt_scene *s)
{
    uint32_t k = 0;
    for (uint32_t f = 0; f < s->follow_count; f++) {
        const sgrt__follower *fl = s->follow[f];
        for (uint32_t j = 0; j < fl->slot_count; j++) {
            const sgrt__slot_decl *d = &fl->slots[j];
            const bool kept = (d->flags & s->flags) == d->flags;
            void *at;
            memcpy(&at, (const uint8_t *)s->state[f] + d->at, sizeof at);
            if ((at != NULL) != kept || (kept && (k >= s->decl_count || s->decl[k] != d ||
                                                  at != s->st.fol[k])))
                return "declared per-slot state is laid out iff the scene's flags ask for it";
            if (!kept)
                continue;
            if (d->kind == SGRT__DECL_BITS) {
                const uint32_t *bits = s->st.fol[k], *sum = s->st.fol_sum[k];
                for (uint32_t w = 0; w < s->st.sum_words * 32u; w++)
                    if (sgrt__bit_get(sum, w) != (w < s->st.words && bits[w] != 0u))
                        return "declared bitfields: summary bit w set iff word w is non-zero";
            }
            k++;
        }
    }
    return k == s->decl_count ? NULL : "declared per-slot state: one entry per declaration";
}

/* Boxes (bounds.c): local boxes as taken, validity, world boxes equal to
 * what the reference computes from the stored world wherever nothing is
 * pending, and, when nothing at all is pending, every subtree record the
 * exact join of its members. NULL when all holds. */
static const char *check_bounds(const sgrt_scene *s)
{
    sgrt__bounds *bs = sgrt__bounds_of(s);
    const sgrt__storage *st = &s->st;
    if (!bs)
        return NULL;
    bool quiet = s->close_from == SGRT__NONE;
    for (uint32_t w = 0; w < st->words; w++) {
        if (bs->b_valid[w] & ~st->alive[w])
            return "bounds: valid bits only on live slots";
        quiet = quiet && !(st->alive[w] & (st->dirty[w] | bs->b_dirty[w] |
                                           (bs->s_dirty ? bs->s_dirty[w] : 0u)));
    }
    sgrt__bounds_view bv;
    sgrt__bounds_view_of(s, &bv);
    for (uint32_t i = 0; i < s->slot_end; i++) {
        if (!sgrt__bit_get(st->alive, i))
            continue;
        const bool has = sgrt__bit_get(bs->b_has, i), valid = sgrt__bit_get(bs->b_valid, i);
        const bool set = sgrt__bit_get(bs->b_dirty, i);
        if (has) {
            const float c[3] = {bs->lb_cx[i], bs->lb_cy[i], bs->lb_cz[i]};
            const float e[3] = {bs->lb_ex[i], bs->lb_ey[i], bs->lb_ez[i]};
            for (int a = 0; a < 3; a++) {
                if (!(c[a] >= -FLT_MAX && c[a] <= FLT_MAX) || !(e[a] <= FLT_MAX) ||
                    (sgrt__f32_bits(e[a]) & 0x80000000u))
                    return "bounds: local boxes finite, half extents +0 or positive";
            }
        }
        if (!set && has != valid)
            return "bounds: a world box is valid iff the node had a local box at the last update";
        if (!valid)
            continue;
        float lo[3], hi[3];
        sgrt__bounds_world_box(s, i, lo, hi);
        for (int a = 0; a < 3; a++)
            if (!(lo[a] <= hi[a]))
                return "bounds: world boxes are ordered (min <= max, no NaN)";
        if (set || world_pending(s, i))
            continue;
        /* Recomputed into a one-slot view: the stored box must be it. */
        float c[3] = {bs->lb_cx[i], bs->lb_cy[i], bs->lb_cz[i]};
        float e[3] = {bs->lb_ex[i], bs->lb_ey[i], bs->lb_ez[i]};
        float rl[3], rh[3];
        sgrt__bounds_view one = {{&c[0], &c[1], &c[2]}, {&e[0], &e[1], &e[2]},
                                 {&rl[0], &rl[1], &rl[2]}, {&rh[0], &rh[1], &rh[2]}, NULL};
        sgrt__box_ref(&one, st->world[i], 0);
        if (!box_bits_equal(lo, rl) || !box_bits_equal(hi, rh))
            return "bounds: a world box is the reference's box of the stored world";
    }
    if (!bs->sub || bs->subtree_stale || !quiet)
        return NULL;
    for (uint32_t i = 0; i < s->slot_end; i++) {
        if (!sgrt__bit_get(st->alive, i))
            continue;
        const sgrt__subtree *r = &bs->sub[i];
        if (bs->sub_delta[i] != 0)
            return "subtree bounds: no node count pending after an update";
        float lo[3], hi[3];
        if (sgrt__bit_get(bs->b_valid, i)) {
            sgrt__bounds_world_box(s, i, lo, hi);
        } else {
            const float inf = sgrt__f32_from_bits(0x7F800000u);
            for (int a = 0; a < 3; a++) {
                lo[a] = inf;
                hi[a] = -inf;
            }
        }
        uint32_t count = 1, end = i + 1u;
        for (uint32_t c = st->first_child[i]; c != SGRT__NONE; c = st->next_sibling[c]) {
            for (int a = 0; a < 3; a++) {
                lo[a] = bs->sub[c].lo[a] < lo[a] ? bs->sub[c].lo[a] : lo[a];
                hi[a] = bs->sub[c].hi[a] > hi[a] ? bs->sub[c].hi[a] : hi[a];
            }
            count += bs->sub[c].count;
            end = bs->sub[c].end > end ? bs->sub[c].end : end;
        }
        for (int a = 0; a < 3; a++)
            if (!(r->lo[a] == lo[a]) || !(r->hi[a] == hi[a]))
                return "subtree bounds: each record is the join of its own box and its "
                       "children's";
        if (r->count != count)
            return "subtree bounds: each record counts its subtree's nodes";
        if (r->end < end)
            return "subtree bounds: each record's run of slots reaches past its subtree";
    }
    return NULL;
}

sgrt_result sgrt_scene_check(const sgrt_scene *s, const char **out_what)
{
    if (out_what)
        *out_what = NULL;
    SGRT__ENTER_WRITE(s);
    if (s->st.cap % 32u || s->st.words != s->st.cap / 32u || s->st.sum_words != (s->st.words + 31u) / 32u)
        FAIL("storage sizes: cap a multiple of 32, words = cap/32, summary = words/32");
    if (s->slot_end > s->st.cap)
        FAIL("slot_end <= capacity");

    /* Bitfields and their summaries. */
    for (uint32_t si = 0; si < s->st.sum_words; si++) {
        for (uint32_t b = 0; b < 32u; b++) {
            const uint32_t w = si * 32u + b;
            const bool full = (s->st.alive_full[si] >> b) & 1u;
            const bool dsum = (s->st.dirty_sum[si] >> b) & 1u;
            if (w >= s->st.words) {
                if (full || dsum)
                    FAIL("summary padding bits are zero");
                continue;
            }
            if (full != (s->st.alive[w] == ~0u))
                FAIL("alive summary: bit set iff the alive word is full");
            if (dsum != (s->st.dirty[w] != 0u))
                FAIL("dirty summary: bit set iff the dirty word is non-zero");
            if (s->st.dirty[w] & ~s->st.alive[w])
                FAIL("dirty bits only on live slots");
            if (s->st.inner[w] & ~s->st.alive[w])
                FAIL("inner bits only on live slots");
            if (s->st.work[w])
                FAIL("work bits are zero between calls");
        }
    }
    uint32_t alive_count = 0, dead_below_end = 0;
    for (uint32_t i = 0; i < s->st.cap; i++) {
        const bool a = sgrt__bit_get(s->st.alive, i);
        alive_count += a;
        if (i >= s->slot_end && a)
            FAIL("no live slot at or past slot_end");
        if (i < s->slot_end && !a)
            dead_below_end++;
    }
    if (alive_count != s->node_count)
        FAIL("alive bit count equals node count");
    if (dead_below_end != s->holes)
        FAIL("hole count equals dead slots below slot_end");
    if (s->slot_end && !slot_live(s, s->slot_end - 1u))
        FAIL("slot_end - 1 is live");

    /* Hierarchy: topological order, link symmetry, dirty closure, handles. */
    uint32_t linked = 0;
    for (uint32_t i = 0; i < s->slot_end; i++) {
        if (!slot_live(s, i))
            continue;
        const uint32_t p = s->st.parent[i];
        if (p != SGRT__NONE) {
            if (!slot_live(s, p))
                FAIL("parent of a live node is live");
            if (p >= i)
                FAIL("topological slot order: slot(parent) < slot(child)");
            if (sgrt__bit_get(s->st.dirty, p) && !sgrt__bit_get(s->st.dirty, i) &&
                (s->close_from == SGRT__NONE || i <= s->close_from))
                FAIL("dirty closure: a child of a dirty node is dirty or after close_from");
        } else {
            linked++; /* roots are not in any child list */
            if (s->st.prev_sibling[i] != SGRT__NONE || s->st.next_sibling[i] != SGRT__NONE)
                FAIL("roots have no siblings");
        }
        if (sgrt__bit_get(s->st.inner, i) != (s->st.first_child[i] != SGRT__NONE))
            FAIL("inner bits: set iff the slot has a child");
        uint32_t prev = SGRT__NONE, n = 0;
        for (uint32_t c = s->st.first_child[i]; c != SGRT__NONE; c = s->st.next_sibling[c]) {
            if (!slot_live(s, c) || s->st.parent[c] != i)
                FAIL("child lists hold live children of their parent");
            if (s->st.prev_sibling[c] != prev)
                FAIL("sibling links are symmetric");
            prev = c;
            if (++n > s->node_count)
                FAIL("child lists are acyclic");
        }
        linked += n;
        const uint32_t h = s->st.slot_handle[i];
        if (h >= s->handle_used || s->handles[h].slot != i)
            FAIL("handle table points back at each live slot");
    }
    if (linked != s->node_count)
        FAIL("every live node is a root or in its parent's child list");

    uint32_t mapped = 0;
    for (uint32_t h = 0; h < s->handle_used; h++) {
        const uint32_t id = s->handles[h].id;
        if (sgrt__handle_generation(id) == 0u || ((id ^ s->salt) & SGRT__INDEX_MASK) != h)
            FAIL("handle ids: a generation field and the scrambled index of their entry");
        const uint32_t sl = s->handles[h].slot;
        if (sl == SGRT__NONE)
            continue;
        if (!slot_live(s, sl) || s->st.slot_handle[sl] != h)
            FAIL("every used handle index maps to a live slot that maps back");
        mapped++;
    }
    if (mapped != s->node_count || s->handle_used != s->node_count + s->free_count ||
        s->handle_used > s->handle_cap || s->free_count > s->handle_cap)
        FAIL("handle counts: used = live + free");
    for (uint32_t f = 0; f < s->free_count; f++) {
        const uint32_t h = s->free_ring[(s->free_head + f) % s->handle_cap];
        if (h >= s->handle_used || s->handles[h].slot != SGRT__NONE)
            FAIL("free ring holds free indices");
    }
    if (s->node_count > s->max_nodes)
        FAIL("node count <= max_nodes");
    {
        const char *w = check_declared(s);
        if (w)
            FAIL(w);
    }
    const sgrt__prev *p = sgrt__prev_of(s);
    if ((p != NULL) != ((s->flags & SGRT_SCENE_PREV_WORLD) != 0u))
        FAIL("previous worlds are kept iff the scene was created with SGRT_SCENE_PREV_WORLD");
    if (p) {
        for (uint32_t w = 0; w < s->st.words; w++) {
            uint32_t same = s->st.alive[w] & ~p->moved[w];
            SGRT__FOR_EACH_IN_WORD(w, same, i,
                if (memcmp(p->world[i], s->st.world[i], sizeof s->st.world[i]) != 0)
                    FAIL("previous worlds: equal to the world on every live slot the last "
                         "update did not recompute");
            )
        }
    }
    for (uint32_t w = 0; w < s->st.sum_words; w++)
        if (s->st.work_sum[w])
            FAIL("work summary is zero between calls");
    {
        const char *w = check_bounds(s);
        if (!w)
            w = sgrt__follow_check(s);
        if (!w)
            w = sgrt__objects_check(s);
        if (w)
            FAIL(w);
    }
    return SGRT_OK;
}
