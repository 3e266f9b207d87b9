/* SPDX-License-Identifier: MIT */
/* Dirty bits: a slot is dirty when its world must be recomputed by the next
 * update; a summary bit says which dirty words are non-zero, so the update
 * skips clean storage 1,024 slots at a time. Marking is lazy: a write sets
 * the node's own bit, and when the node has children, lowers `close_from`,
 * the first slot of the closure pass that the next update runs before its
 * kernel (dirty = moved or below something that moved). When many such
 * nodes moved, the pass walks slots in order, parents before children: one
 * parent load per clean slot, sequential. When few did, far apart, it walks
 * below each of them through the links instead (what the write would have
 * done, once per update and never twice over a subtree). Both updates, the
 * serial and the parallel one, close words with the one routine here
 * (sgrt__dirty_close_word). */
#include "internal.h"
#include "dirty.h"
#include "walk.h"

/* The sparse pass: when fewer than one moved node with children lies in
 * SPARSE_SLOTS_PER_ROOT slots after close_from, a walk below each of them
 * costs less than scanning the slots. A walk step (a few dependent link
 * loads) costs about WALK_STEP_COST scanned slots (a parent load and a bit
 * test, sequential): past 1 / WALK_STEP_COST of the scan's slots (a long
 * chain under one moved node), the scan finishes the job instead. */
#define SPARSE_SLOTS_PER_ROOT 64u
#define WALK_STEP_COST 4u

void sgrt__dirty_clear(sgrt_scene *s, uint32_t slot)
{
    const uint32_t w = slot >> 5;
    s->st.dirty[w] &= ~(1u << (slot & 31u));
    if (!s->st.dirty[w])
        sgrt__bit_clear(s->st.dirty_sum, w);
}

void sgrt__dirty_mark_slots(sgrt_scene *s, const uint32_t *slot, uint32_t entries)
{
    uint32_t word = SGRT__NONE, bits = 0;
    while (entries) {
        const uint32_t x = slot[sgrt__ctz32(entries)];
        entries &= entries - 1u;
        if (x >> 5 != word) {
            if (bits)
                sgrt__dirty_mark_word(s, word, bits);
            word = x >> 5;
            bits = 0;
        }
        bits |= 1u << (x & 31u);
    }
    if (bits)
        sgrt__dirty_mark_word(s, word, bits);
}

void sgrt__dirty_mark_range(sgrt_scene *s, uint32_t first, uint32_t count)
{
    for (uint32_t x = first, end = first + count; x < end;) {
        const uint32_t lo = x & 31u, k = end - x < 32u - lo ? end - x : 32u - lo;
        sgrt__dirty_mark_word(s, x >> 5, (k == 32u ? ~0u : (1u << k) - 1u) << lo);
        x += k;
    }
}

void sgrt__dirty_mark_all(sgrt_scene *s)
{
    const uint32_t words = (s->slot_end + 31u) / 32u;
    for (uint32_t w = 0; w < words; w++)
        if (s->st.alive[w]) {
            s->st.dirty[w] |= s->st.alive[w];
            sgrt__bit_set(s->st.dirty_sum, w);
        }
}

void sgrt__dirty_close_done(sgrt_scene *s)
{
    s->close_from = SGRT__NONE;
    s->pending_inner = 0;
}

/* Mark the descendants of x, stopping at nodes already dirty (their own
 * descendants are dirty, or x's walk is not the one that owes them), and at
 * most `budget` of them; returns how many it marked. */
static uint32_t mark_below(sgrt_scene *s, uint32_t x, uint32_t budget)
{
    uint32_t y = s->st.first_child[x], marked = 0;
    while (y != SGRT__NONE && marked < budget) {
        if (sgrt__bit_get(s->st.dirty, y)) {
            y = sgrt__skip_subtree(s, y, x);
            continue;
        }
        sgrt__dirty_set(s, y);
        marked++;
        y = sgrt__preorder_next(s, y, x);
    }
    return marked;
}

bool sgrt__dirty_closure_is_sparse(const sgrt_scene *s)
{
    return s->close_from != SGRT__NONE &&
           (uint64_t)s->pending_inner * SPARSE_SLOTS_PER_ROOT <
               (uint64_t)(s->slot_end - s->close_from);
}

uint32_t sgrt__dirty_close_mask(const sgrt_scene *s, uint32_t w)
{
    const uint32_t from = s->close_from;
    if (from == SGRT__NONE)
        return 0;
    const uint32_t first = from + 1u; /* close_from itself is dirty */
    if (w < first >> 5)
        return 0;
    return w == first >> 5 ? sgrt__mask_from(first & 31u) : ~0u;
}

void sgrt__dirty_close_word(sgrt_scene *s, uint32_t w, uint32_t only, const uint32_t *done,
                            const uint32_t *done_dirty)
{
    sgrt__storage *st = &s->st;
    uint32_t clean = st->alive[w] & ~st->dirty[w] & only & sgrt__dirty_close_mask(s, w);
    if (!clean)
        return;
    st->dirty[w] = s->k.close_word(st->parent, st->dirty, done, done_dirty, w, clean);
    if (st->dirty[w])
        sgrt__bit_set(st->dirty_sum, w);
}

/* The walks' fetch ahead: the lines a walk below x reads first (x's first
 * child, its subtree's parents and siblings, which depth-first storage
 * keeps right after it, and its dirty word). A walk is a chain of
 * dependent loads; fetching WALK_AHEAD roots ahead overlaps the misses of
 * several walks. */
#define WALK_AHEAD 4u
static inline void walk_ahead(const sgrt_scene *s, uint32_t x)
{
    SGRT__PREFETCH(&s->st.first_child[x]);
    SGRT__PREFETCH(&s->st.next_sibling[x + 1u]);
    SGRT__PREFETCH(&s->st.parent[x + 1u]);
    SGRT__PREFETCH(&s->st.dirty[(x + 1u) >> 5]);
}

/* The sparse pass: walks below the dirty nodes with children at or after
 * `from`, a summary word (1,024 slots) at a time: its roots are listed
 * first, so that each walk's lines are fetched while earlier walks run
 * (and nodes a walk marks are not walked again). Returns the budget left,
 * 0 when the walks gave up (a long chain: the dense pass finishes). */
static uint32_t sparse_walks(sgrt_scene *s, uint32_t from, uint32_t budget)
{
    /* Offsets within the summary word's 1,024 slots: 2 KiB of stack, under
     * the 4 KiB past which Windows toolchains call a stack probe. */
    uint16_t roots[SGRT__SLOTS_PER_SUM];
    for (uint32_t ss = from >> 10; ss < s->st.sum_words && budget; ss++) {
        const uint32_t base = ss * SGRT__SLOTS_PER_SUM;
        uint32_t n = 0, words = s->st.dirty_sum[ss];
        SGRT__FOR_EACH_IN_WORD(ss, words, w,
            if (w < from >> 5)
                continue;
            uint32_t r = s->st.dirty[w] & s->st.inner[w];
            if (w == from >> 5)
                r &= sgrt__mask_from(from & 31u);
            SGRT__FOR_EACH_IN_WORD(w, r, x, roots[n++] = (uint16_t)(x - base);)
        )
        for (uint32_t k = 0; k < n && k < WALK_AHEAD; k++)
            walk_ahead(s, base + roots[k]);
        for (uint32_t k = 0; k < n && budget; k++) {
            if (k + WALK_AHEAD < n)
                walk_ahead(s, base + roots[k + WALK_AHEAD]);
            budget -= mark_below(s, base + roots[k], budget);
        }
    }
    return budget;
}

void sgrt__dirty_close(sgrt_scene *s)
{
    const uint32_t from = s->close_from;
    if (from == SGRT__NONE)
        return;
    /* Few moved nodes with children, far apart: walk below each of them
     * through the links (what the writes would have done, once per update).
     * A walk costs a few times a scanned slot: past 1 / WALK_STEP_COST of
     * the scan's slots (a long chain), the scan finishes the job. */
    if (sgrt__dirty_closure_is_sparse(s) &&
        sparse_walks(s, from, (s->slot_end - from) / WALK_STEP_COST)) {
        sgrt__dirty_close_done(s);
        return;
    }
    /* Slots after `from` in increasing order: a parent comes before its
     * children, so one pass carries the marks down any depth. Only live,
     * clean slots are looked at: a word whose live slots are all dirty (every
     * node moved) costs two loads. */
    const uint32_t end_word = (s->slot_end + 31u) >> 5;
    for (uint32_t w = (from + 1u) >> 5; w < end_word; w++)
        sgrt__dirty_close_word(s, w, ~0u, NULL, NULL);
    sgrt__dirty_close_done(s);
}
