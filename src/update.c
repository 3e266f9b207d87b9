/* SPDX-License-Identifier: MIT */
/* The per-frame update: the closure, the side work of the hand-off, the
 * kernel's pass; the followers' part through the seam (follow.h). It never
 * allocates. */
#include "follow.h"
#include "dirty.h"
#include "handles.h"
#include "result.h"
#include "update.h"
#include "validate.h"
#include <string.h>

void sgrt__update_view_of(const sgrt_scene *s, uint32_t *bits, uint32_t *sum,
                          uint32_t sum_first, uint32_t sum_end, uint32_t *repaired,
                          sgrt__update_view *v, sgrt__bounds_view *space)
{
    const sgrt__update_view view = {
        s->st.local, s->st.world, s->st.parent, bits, sum, sum_first, sum_end, NULL, repaired,
        NULL, NULL, /* the followers fill what they keep (boxes, anchors) */
    };
    *v = view;
    sgrt__follow_view(s, v, space);
}

/* The followers' work word by word, before the kernel clears the dirty
 * words: the dirty words, and those the followers ask for. */
static void side_work(sgrt_scene *s)
{
    if (!sgrt__follow_has_word_work(s))
        return;
    for (uint32_t sw = 0; sw < s->st.sum_words; sw++) {
        uint32_t words = sgrt__follow_words(s, sw);
        SGRT__FOR_EACH_IN_WORD(sw, words, w, sgrt__follow_word(s, w, s->st.dirty[w], ~0u);)
    }
}

uint32_t sgrt__update_done(sgrt_scene *s, uint32_t count, const char *function)
{
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

bool sgrt__update_begin(sgrt_scene *s, const char *function)
{
    if (s->busy) {
        sgrt__reentered(s, function);
        return false;
    }
    if (SGRT__VALIDATING(s))
        sgrt__validate_locals(s, function);
    sgrt__follow_start(s, function);
    return true;
}

uint32_t sgrt_scene_update(sgrt_scene *s)
{
    if (!s || !sgrt__update_begin(s, __func__))
        return 0;
    return sgrt__update_done(s, sgrt__update_serial(s), __func__);
}

uint32_t sgrt__update_serial(sgrt_scene *s)
{
    sgrt__dirty_close(s);
    /* Before the kernel clears the dirty words. */
    side_work(s);
    s->repaired[0] = 0;
    sgrt__update_view v;
    sgrt__bounds_view boxes;
    sgrt__update_view_of(s, s->st.dirty, s->st.dirty_sum, 0, s->st.sum_words, s->repaired, &v,
                         &boxes);
    const uint32_t count = s->k.update(&v);
    sgrt__follow_finish(s);
    return count;
}

uint32_t sgrt_scene_nonfinite_locals(const sgrt_scene *s, sgrt_node *out_first)
{
    if (out_first)
        *out_first = s ? s->repaired_first : SGRT_NULL_NODE;
    return s ? s->repaired[0] : 0u;
}
