/* SPDX-License-Identifier: MIT */
/* Dirty bits: marking and the closure over descendants (dirty.c). */
#ifndef SGRT_DIRTY_H
#define SGRT_DIRTY_H

#include "internal.h"

/* The bit alone (and its summary): a node that cannot have descendants
 * pending (a new node, or a mark of the closure pass itself). */
static inline void sgrt__dirty_set(sgrt_scene *s, uint32_t slot)
{
    const uint32_t w = slot >> 5;
    s->st.dirty[w] |= 1u << (slot & 31u);
    sgrt__bit_set(s->st.dirty_sum, w);
}
void sgrt__dirty_clear(sgrt_scene *s, uint32_t slot);
/* The slots `inner` of word w are dirty nodes with children: the next
 * closure pass starts at the lowest of them at the latest (an inner node's
 * descendants all lie after it in slot order, so the pass reaches them).
 * O(1). */
static inline void sgrt__dirty_pend(sgrt_scene *s, uint32_t w, uint32_t inner)
{
    s->pending_inner += sgrt__popcount32(inner);
    const uint32_t slot = w * 32u + sgrt__ctz32(inner);
    if (slot < s->close_from)
        s->close_from = slot;
}
/* The one marking path of every call that changes worlds: the slots `bits`
 * of word w moved (their locals were written). Each gets its own bit, and
 * its descendants are left to the closure pass. A node already dirty has
 * its descendants dirty or pending: only the fresh ones count. O(1). */
static inline void sgrt__dirty_mark_word(sgrt_scene *s, uint32_t w, uint32_t bits)
{
    const uint32_t fresh = bits & ~s->st.dirty[w];
    if (!fresh)
        return;
    s->st.dirty[w] |= fresh;
    sgrt__bit_set(s->st.dirty_sum, w);
    if (fresh & s->st.inner[w])
        sgrt__dirty_pend(s, w, fresh & s->st.inner[w]);
}
/* One node: its local was written, or (`relinked`) it was re-parented,
 * possibly to other slots with its subtree. A relinked node is pended even
 * when it was dirty already: its descendants may have been pending from a
 * close_from above their new slots. O(1). */
static inline void sgrt__dirty_mark(sgrt_scene *s, uint32_t slot, bool relinked)
{
    const uint32_t w = slot >> 5, bit = 1u << (slot & 31u);
    if (!relinked) {
        sgrt__dirty_mark_word(s, w, bit);
        return;
    }
    s->st.dirty[w] |= bit;
    sgrt__bit_set(s->st.dirty_sum, w);
    if (s->st.inner[w] & bit)
        sgrt__dirty_pend(s, w, bit);
}
/* The entries j of slot[] whose bit is set in `entries` (a batch chunk)
 * moved: marked a word at a time, entries that follow each other in slot
 * order sharing one. */
void sgrt__dirty_mark_slots(sgrt_scene *s, const uint32_t *slot, uint32_t entries);
/* Entries in consecutive slots from `slot` on moved where bit j of `bits`
 * is set (slot + j): two words at most, no branch per node. */
static inline void sgrt__dirty_mark_run(sgrt_scene *s, uint32_t slot, uint32_t bits)
{
    const uint32_t w = slot >> 5, sh = slot & 31u;
    sgrt__dirty_mark_word(s, w, bits << sh);
    if (sh && bits >> (32u - sh))
        sgrt__dirty_mark_word(s, w + 1u, bits >> (32u - sh));
}
/* Slots [first, first + count) moved: a word at a time. */
void sgrt__dirty_mark_range(sgrt_scene *s, uint32_t first, uint32_t count);
/* Every live node moved (an origin move): each has its own bit, so the
 * closure has nothing to add. O(slot count / 32). */
void sgrt__dirty_mark_all(sgrt_scene *s);
/* The closure pass: every live node below a dirty node becomes dirty.
 * O(live slots after close_from), or, when sparse, O(nodes it marks);
 * nothing when nothing is pending. Leaves nothing pending. */
void sgrt__dirty_close(sgrt_scene *s);
/* Whether the pending closure is sparse: few moved nodes with children,
 * closed by link walks. */
bool sgrt__dirty_closure_is_sparse(const sgrt_scene *s);
/* The slots of word w that the pending closure pass may still mark: those
 * after close_from (none when nothing is pending). */
uint32_t sgrt__dirty_close_mask(const sgrt_scene *s, uint32_t w);
/* The closure of one word, the routine both updates run: each live, clean
 * slot of `only` that the pass may mark becomes dirty when its parent is.
 * A parent in `done` (the parallel update's cross set, updated before the
 * tasks; NULL: none) is read from `done_dirty`, any other from the dirty
 * bits, so that a task never reads a word another task writes. Keeps the
 * summary exact. */
void sgrt__dirty_close_word(sgrt_scene *s, uint32_t w, uint32_t only, const uint32_t *done,
                            const uint32_t *done_dirty);
/* Nothing is pending any more (the passes over every word have run). */
void sgrt__dirty_close_done(sgrt_scene *s);

#endif
