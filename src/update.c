/* SPDX-License-Identifier: MIT */
/* The per-frame update: the closure, the side work of the hand-off, the
 * kernel's pass. It never allocates. */
#include "internal.h"
#include <string.h>

void sgrt__update_side_word(sgrt_scene *s, uint32_t w, uint32_t d, uint32_t mask)
{
    sgrt__trackers_note(s, w, d);
    if (s->st.prev_world)
        sgrt__prev_save_word(s, w, d, mask);
    if (s->st.b_has)
        sgrt__bounds_side_word(s, w, d, mask);
}

bool sgrt__update_has_side_work(const sgrt_scene *s)
{
    return s->reg.tracker_count || s->st.prev_world || s->st.b_has;
}

/* The side work of the serial update, word by word: the dirty words, with
 * previous worlds the words the last update recomputed too, with bounds the
 * words whose boxes were set. */
static void side_work(sgrt_scene *s)
{
    const sgrt__storage *st = &s->st;
    if (!sgrt__update_has_side_work(s))
        return;
    for (uint32_t sw = 0; sw < st->sum_words; sw++) {
        uint32_t words = st->dirty_sum[sw] | (st->prev_world ? st->prev_moved_sum[sw] : 0u) |
                         (st->b_has ? st->b_dirty_sum[sw] : 0u);
        SGRT__FOR_EACH_IN_WORD(sw, words, w,
            sgrt__update_side_word(s, w, st->dirty[w], ~0u);)
    }
}

void sgrt__update_finish(sgrt_scene *s)
{
    if (s->st.prev_world)
        sgrt__prev_finish(s);
    if (s->st.sub)
        sgrt__subtree_pass(s);
    s->subtree_stale = false;
}

uint32_t sgrt__update_done(sgrt_scene *s, uint32_t count, const char *function)
{
    if (SGRT__VALIDATING(s))
        sgrt__writers_reprint(s);
    s->repaired_first = s->repaired[0] ? sgrt__handle_of_slot(s, s->repaired[1])
                                       : SGRT_NULL_NODE;
    if (s->repaired[0])
        (void)sgrt__fail(s, SGRT_ERR_INVALID_ARG, function,
                         "a local written in place held a NaN or an infinity: the update made "
                         "it the identity (node: the first such; sgrt_scene_nonfinite_locals "
                         "counts them)",
                         s->repaired_first);
    return count;
}

uint32_t sgrt_scene_update(sgrt_scene *s)
{
    if (!s)
        return 0;
    if (s->busy) {
        sgrt__reentered(s, __func__);
        return 0;
    }
    if (SGRT__VALIDATING(s)) {
        sgrt__validate_locals(s, __func__);
        sgrt__writers_audit(s, __func__);
    }
    return sgrt__update_done(s, sgrt__update_serial(s), __func__);
}

uint32_t sgrt__update_serial(sgrt_scene *s)
{
    sgrt__dirty_close(s);
    /* Before the kernel clears the dirty words. */
    side_work(s);
    sgrt__bounds_view bv;
    sgrt__bounds_view_of(s, &bv);
    s->repaired[0] = 0;
    const sgrt__update_view v = {
        s->st.local, s->st.world,     s->st.parent,
        s->st.dirty, s->st.dirty_sum, 0, s->st.sum_words,
        s->st.b_has ? &bv : NULL, s->repaired,
    };
    const uint32_t count = s->k.update(&v);
    sgrt__update_finish(s);
    return count;
}

uint32_t sgrt_scene_nonfinite_locals(const sgrt_scene *s, sgrt_node *out_first)
{
    if (out_first)
        *out_first = s ? s->repaired_first : SGRT_NULL_NODE;
    return s ? s->repaired[0] : 0u;
}
