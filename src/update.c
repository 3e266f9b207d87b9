/* SPDX-License-Identifier: MIT */
/* The per-frame update: the closure, the side work of the hand-off, the
 * kernel's pass. It never allocates. */
#include "internal.h"
#include <string.h>

uint32_t sgrt__update_side_word(sgrt_scene *s, uint32_t w, uint32_t d, uint32_t mask)
{
    sgrt__storage *st = &s->st;
    const uint32_t early = st->early[w] & d;
    sgrt__trackers_note(s, w, d);
    if (st->prev_world)
        sgrt__prev_save_word(s, w, d, mask);
    if (st->b_has)
        sgrt__bounds_side_word(s, w, d, mask, early);
    if (!early)
        return 0;
    st->early[w] &= ~early;
    st->dirty[w] &= ~early;
    if (!st->dirty[w])
        sgrt__bit_clear(st->dirty_sum, w);
    return sgrt__popcount32(early);
}

bool sgrt__update_has_side_work(const sgrt_scene *s)
{
    return s->reg.tracker_count || s->st.prev_world || s->st.b_has || s->early_end;
}

void sgrt__early_settle(sgrt_scene *s)
{
    if (!s->early_doubt)
        return;
    s->early_doubt = false;
    /* In slot order, parents first: a parent's early bit is settled before
     * its children read it. */
    sgrt__storage *st = &s->st;
    const uint32_t end_word = (s->early_end + 31u) >> 5;
    for (uint32_t w = 0; w < end_word; w++) {
        uint32_t bits = st->early[w];
        SGRT__FOR_EACH_IN_WORD(w, bits, i,
            const uint32_t p = st->parent[i];
            const bool final = p == SGRT__NONE ||
                               (sgrt__bit_get(st->early, p)
                                    ? st->early_write[p] <= st->early_write[i]
                                    : !sgrt__bit_get(st->dirty, p) &&
                                          (s->close_from == SGRT__NONE || p < s->close_from));
            if (!final)
                st->early[w] &= ~(1u << (i & 31u));
        )
    }
}

/* The side work of the serial update, word by word: the dirty words, with
 * previous worlds the words the last update recomputed too, with bounds the
 * words whose boxes were set. */
static uint32_t side_work(sgrt_scene *s)
{
    const sgrt__storage *st = &s->st;
    if (!sgrt__update_has_side_work(s))
        return 0;
    uint32_t early = 0;
    for (uint32_t sw = 0; sw < st->sum_words; sw++) {
        uint32_t words = st->dirty_sum[sw] | (st->prev_world ? st->prev_moved_sum[sw] : 0u) |
                         (st->b_has ? st->b_dirty_sum[sw] : 0u);
        SGRT__FOR_EACH_IN_WORD(sw, words, w,
            early += sgrt__update_side_word(s, w, st->dirty[w], ~0u);)
    }
    return early;
}

void sgrt__update_finish(sgrt_scene *s)
{
    s->early_end = 0; /* every early slot left the dirty bits */
    s->early_writes = 0;
    if (s->st.prev_world)
        sgrt__prev_finish(s);
    if (s->st.sub)
        sgrt__subtree_pass(s);
    s->subtree_stale = false;
}

uint32_t sgrt_scene_update(sgrt_scene *s)
{
    if (!s)
        return 0;
    if (s->busy) {
        sgrt__reentered(s, __func__);
        return 0;
    }
    if (SGRT__VALIDATING(s))
        sgrt__validate_locals(s, __func__);
    return sgrt__update_serial(s);
}

uint32_t sgrt__update_serial(sgrt_scene *s)
{
    sgrt__dirty_close(s);
    sgrt__early_settle(s);
    /* Before the kernel clears the dirty words. */
    const uint32_t early = side_work(s);
    sgrt__bounds_view bv;
    sgrt__bounds_view_of(s, &bv);
    const sgrt__update_view v = {
        (const float(*)[16])s->st.local, s->st.world,     s->st.parent,
        s->st.dirty,                     s->st.dirty_sum, 0, s->st.sum_words,
        s->st.b_has ? &bv : NULL,
    };
    const uint32_t count = s->k.update(&v) + early;
    sgrt__update_finish(s);
    return count;
}
