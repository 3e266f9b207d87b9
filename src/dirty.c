/* Dirty bits: a slot is dirty when its world must be recomputed by the next
 * update; a summary bit says which dirty words are non-zero, so the update
 * skips clean storage 1,024 slots at a time. Marking is lazy: a write sets
 * the node's own bit, and when the node has children, lowers `close_from`,
 * the first slot of the closure pass that the next update runs before its
 * kernel (dirty = moved or below something that moved). When many such
 * nodes moved, the pass walks slots in order, parents before children: one
 * parent load per clean slot, sequential. When few did, far apart, it walks
 * below each of them through the links instead (what the write would have
 * done, once per update and never twice over a subtree). */
#include "internal.h"


void sgrt__dirty_clear(sgrt_scene *s, uint32_t slot)
{
    const uint32_t w = slot >> 5;
    s->st.dirty[w] &= ~(1u << (slot & 31u));
    if (!s->st.dirty[w])
        sgrt__bit_clear(s->st.dirty_sum, w);
}

void sgrt__dirty_mark(sgrt_scene *s, uint32_t slot)
{
    /* A node already dirty has its descendants dirty or pending already. A
     * leaf (most nodes of a tree) needs nothing more; an inner node's
     * descendants all lie after it in slot order, so the closure pass of the
     * next update, which starts at the lowest such node, reaches them. */
    if (sgrt__bit_get(s->st.dirty, slot))
        return;
    sgrt__dirty_set(s, slot);
    if (sgrt__bit_get(s->st.inner, slot)) {
        s->pending_inner++;
        if (slot < s->close_from)
            s->close_from = slot;
    }
}

void sgrt__dirty_mark_moved(sgrt_scene *s, uint32_t slot)
{
    /* Even when the node was dirty already: its descendants may have been
     * pending from a close_from above their new slots. */
    sgrt__dirty_set(s, slot);
    if (sgrt__bit_get(s->st.inner, slot)) {
        s->pending_inner++;
        if (slot < s->close_from)
            s->close_from = slot;
    }
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
           (uint64_t)s->pending_inner * 64u < (uint64_t)(s->slot_end - s->close_from);
}

void sgrt__dirty_close(sgrt_scene *s)
{
    const uint32_t from = s->close_from;
    if (from == SGRT__NONE)
        return;
    const bool sparse = sgrt__dirty_closure_is_sparse(s);
    s->close_from = SGRT__NONE;
    s->pending_inner = 0;
    if (sparse) {
        /* Few moved nodes with children, far apart: walk below each of
         * them through the links (every dirty node with children at or
         * after `from`; those marked by a walk find their children marked).
         * A walk costs a few times a scanned slot: past a quarter of the
         * scan's slots (a long chain), the scan finishes the job. */
        uint32_t budget = (s->slot_end - from) / 4u;
        SGRT__FOR_EACH_SUMMARIZED(s->st.dirty_sum, from >> 10, s->st.sum_words, s->st.dirty,
                                  false, w, bits,
            if (w < from >> 5 || !budget)
                continue;
            uint32_t roots = bits & s->st.inner[w];
            if (w == from >> 5)
                roots &= sgrt__mask_from(from & 31u);
            SGRT__FOR_EACH_IN_WORD(w, roots, x,
                budget = budget ? budget - mark_below(s, x, budget) : 0;)
        )
        if (budget)
            return;
    }
    /* Slots after `from` in increasing order: a parent comes before its
     * children, so one pass carries the marks down any depth. Only live,
     * clean slots are looked at: a word whose live slots are all dirty (every
     * node moved) costs two loads. */
    const uint32_t end_word = (s->slot_end + 31u) >> 5;
    for (uint32_t w = (from + 1u) >> 5; w < end_word; w++) {
        uint32_t clean = s->st.alive[w] & ~s->st.dirty[w];
        if (w == (from + 1u) >> 5)
            clean &= sgrt__mask_from((from + 1u) & 31u);
        if (!clean)
            continue;
        SGRT__FOR_EACH_IN_WORD(w, clean, i,
            const uint32_t p = s->st.parent[i];
            if (p != SGRT__NONE && sgrt__bit_get(s->st.dirty, p))
                s->st.dirty[w] |= 1u << (i & 31u);
        )
        if (s->st.dirty[w])
            sgrt__bit_set(s->st.dirty_sum, w);
    }
}
