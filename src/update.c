/* SPDX-License-Identifier: MIT */
/* The per-frame update: the closure, the kernel's pass, and around them
 * the followers' part through the seam (follow.h: their word hooks before
 * the kernel, after hooks inside it, finish after it). It never
 * allocates. */
#include "follow.h"
#include "dirty.h"
#include "handles.h"
#include "result.h"
#include "update.h"
#include "validate.h"

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
    s->repaired[0] = 0;
    /* The followers' word hooks before the kernel clears the dirty words,
     * then the view: one stay in the seam. */
    sgrt__update_view v;
    sgrt__follow_prepare(s, &v);
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
