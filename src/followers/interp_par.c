/* SPDX-License-Identifier: MIT */
/* sgrt_scene_interpolate_parallel: the interpolate on the user's executor,
 * planned as the parallel update is (parallel.c): contiguous ranges of whole
 * summary words, and the cross set, the ancestors of nodes stored in a later
 * range than their parent, swept first on the calling thread. Each task
 * then sweeps its range's other slots in slot order: a parent is in the
 * range (swept earlier by the same task) or in the cross set (swept
 * before). Tasks write disjoint render rows and disjoint words and summary
 * words of `settle` and `changed`. Each render world is the same
 * arithmetic on the same operands as in the serial sweep: the same bits.
 * The plan (ranges, cross bits of its own) is rebuilt when the structure
 * or the worker count changed, O(n), no allocation. */
#include "interp.h"
#include "../result.h"
#include "../update.h"
#include <string.h>

#define RANGES_PER_WORKER 8u

static uint32_t used_sum_words(const sgrt_scene *s)
{
    return (((s->slot_end + 31u) >> 5) + 31u) >> 5;
}

static void plan_build(sgrt_scene *s, sgrt__interp *p, uint32_t wanted)
{
    const uint32_t sum_end = used_sum_words(s);
    uint32_t nr = wanted < sum_end ? wanted : sum_end;
    if (nr == 0)
        nr = 1;
    for (uint32_t r = 0; r <= nr; r++)
        p->range_sum[r] = (uint32_t)((uint64_t)r * sum_end / nr);
    p->plan_ranges = nr;
    memset(p->cross, 0, (size_t)s->st.words * sizeof(uint32_t));
    memset(p->cross_sum, 0, (size_t)s->st.sum_words * sizeof(uint32_t));
    for (uint32_t r = nr; r-- > 0;) {
        const uint32_t begin = p->range_sum[r] * SGRT__SLOTS_PER_SUM;
        uint32_t i = p->range_sum[r + 1] * SGRT__SLOTS_PER_SUM;
        if (i > s->slot_end)
            i = s->slot_end;
        while (i-- > begin) {
            if (!sgrt__bit_get(s->st.alive, i))
                continue;
            const uint32_t ps = s->st.parent[i];
            if (ps != SGRT__NONE && (ps < begin || sgrt__bit_get(p->cross, i)))
                sgrt__bit_set_sum(p->cross, p->cross_sum, ps);
        }
    }
    p->plan_version = s->structure_version;
    p->plan_wanted = wanted;
}

static void sweep_range(sgrt_scene *s, uint32_t r)
{
    sgrt__interp *p = sgrt__interp_of(s);
    sgrt__interp_sweep(s, p, p->alpha, p->range_sum[r], p->range_sum[r + 1], p->cross, false);
}

/* Whether range r has a slot to sweep. */
static bool range_has_work(const sgrt__interp *p, uint32_t r)
{
    for (uint32_t sw = p->range_sum[r]; sw < p->range_sum[r + 1]; sw++)
        if (p->active_sum[sw] | p->settle_sum[sw])
            return true;
    return false;
}

sgrt_result sgrt_scene_interpolate_parallel(sgrt_scene *s, float alpha, const sgrt_executor *ex)
{
    static const char fn[] = "sgrt_scene_interpolate_parallel";
    if (!s)
        return SGRT_ERR_INVALID_ARG;
    if (s->busy)
        return sgrt__reentered(s, fn);
    sgrt_result err = SGRT_OK;
    sgrt__interp *p = sgrt__interp_args(s, alpha, fn, &err);
    if (!p)
        return err;
    const uint32_t sum_words = s->st.sum_words;
    if (!ex || !ex->run || ex->workers == 0u) {
        sgrt__warn(s, fn,
                   !ex        ? "ex is NULL: the serial interpolate ran"
                   : !ex->run ? "ex->run is NULL: the serial interpolate ran"
                              : "ex->workers is 0 (set it to the threads run uses): the "
                                "serial interpolate ran",
                   SGRT_NULL_NODE);
        sgrt__interp_sweep(s, p, alpha, 0, sum_words, NULL, false);
        p->began = true;
        return SGRT_OK;
    }
    if (ex->workers == 1u) {
        if (SGRT__VALIDATING(s))
            sgrt__warn(s, fn, "ex->workers is 1: the serial interpolate ran", SGRT_NULL_NODE);
        sgrt__interp_sweep(s, p, alpha, 0, sum_words, NULL, false);
        p->began = true;
        return SGRT_OK;
    }
    const uint32_t wanted = ex->workers > SGRT__MAX_RANGES / RANGES_PER_WORKER
                                ? SGRT__MAX_RANGES
                                : ex->workers * RANGES_PER_WORKER;
    if (p->plan_version != s->structure_version || p->plan_wanted != wanted)
        plan_build(s, p, wanted);
    p->alpha = alpha;
    /* The cross set first, here, in slot order. */
    sgrt__interp_sweep(s, p, alpha, 0, sum_words, p->cross, true);
    /* The ranges through the parallel update's runner (its task list,
     * the scene busy while ex->run runs, the executor's contract checked
     * and reported under this call's name). */
    uint32_t ntasks = 0;
    for (uint32_t r = 0; r < p->plan_ranges; r++)
        if (range_has_work(p, r))
            s->tasks[ntasks++] = r;
    sgrt__run_ranges(s, ex, ntasks, sweep_range, fn);
    p->began = true;
    return SGRT_OK;
}
