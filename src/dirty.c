/* Dirty bits: a slot is dirty when its world must be recomputed by the next
 * update. The set is closed over descendants (a dirty node's children are
 * dirty), and a summary word bit says which dirty words are non-zero, so the
 * update skips clean storage 1,024 slots at a time. */
#include "internal.h"

void sgrt__dirty_set(sgrt_scene *s, uint32_t slot)
{
    const uint32_t w = slot >> 5;
    s->st.dirty[w] |= 1u << (slot & 31u);
    sgrt__bit_set(s->st.dirty_sum, w);
}

void sgrt__dirty_clear(sgrt_scene *s, uint32_t slot)
{
    const uint32_t w = slot >> 5;
    s->st.dirty[w] &= ~(1u << (slot & 31u));
    if (!s->st.dirty[w])
        sgrt__bit_clear(s->st.dirty_sum, w);
}

void sgrt__dirty_mark_subtree(sgrt_scene *s, uint32_t slot)
{
    /* Closure: a dirty node's descendants are all dirty already, so the walk
     * stops there and each node is marked at most once per frame. A leaf
     * (most nodes of a tree) costs two bit tests and a store: the inner
     * bitfield spares the load of its child link, a cache miss when the
     * writes hit random nodes. */
    if (sgrt__bit_get(s->st.dirty, slot))
        return;
    sgrt__dirty_set(s, slot);
    if (!sgrt__bit_get(s->st.inner, slot))
        return;
    uint32_t x = s->st.first_child[slot];
    while (x != SGRT__NONE) {
        if (sgrt__bit_get(s->st.dirty, x)) {
            x = sgrt__skip_subtree(s, x, slot);
            continue;
        }
        sgrt__dirty_set(s, x);
        x = sgrt__preorder_next(s, x, slot);
    }
}
