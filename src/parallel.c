/* SPDX-License-Identifier: MIT */
/* The update on the user's executor. Storage is cut into contiguous slot
 * ranges of whole summary words (1,024 slots), one task each. A node whose
 * parent lies in an earlier range depends on another task: its parent and
 * all the parent's ancestors (the `cross` set, closed upwards) are closed and
 * updated first, on the calling thread. Then every range, in parallel,
 * completes the dirty closure of its other slots and recomputes them in slot
 * order: a parent is either in the range (done earlier by the same task) or
 * in the cross set (done before the tasks started). Tasks write disjoint
 * words of every bitfield, disjoint world rows and disjoint summary words, so
 * they need no synchronisation; the result is the serial update's, bit for
 * bit, because each world is the same product of the same operands. */
#include "follow.h"
#include "dirty.h"
#include "result.h"
#include "update.h"
#include "validate.h"
#include <string.h>

/* Ranges per worker: tasks differ in cost (a range of static nodes has
 * none), so each worker should find several to take. */
#define RANGES_PER_WORKER 8u
/* When the cross set, which the calling thread updates alone, holds more
 * than 1 / SERIAL_SHARE_LIMIT of the nodes (a long chain, or level-order
 * storage), the tasks cannot win back their cost: the serial update runs. */
#define SERIAL_SHARE_LIMIT 2u

static uint32_t used_sum_words(const sgrt_scene *s)
{
    return (((s->slot_end + 31u) >> 5) + 31u) >> 5;
}

/* Ranges balanced by slot count, then the cross set: walking down from the
 * last slot, a parent joins it when its child is in a later range or in the
 * set itself (so the set holds every ancestor of its members). */
static void plan_build(sgrt_scene *s, uint32_t wanted)
{
    const uint32_t sum_end = used_sum_words(s);
    uint32_t nr = wanted < sum_end ? wanted : sum_end;
    if (nr == 0)
        nr = 1;
    for (uint32_t r = 0; r <= nr; r++)
        s->range_sum[r] = (uint32_t)((uint64_t)r * sum_end / nr);
    s->plan_ranges = nr;
    memset(s->st.cross, 0, (size_t)s->st.words * sizeof(uint32_t));
    for (uint32_t r = nr; r-- > 0;) {
        const uint32_t begin = s->range_sum[r] * SGRT__SLOTS_PER_SUM;
        uint32_t i = s->range_sum[r + 1] * SGRT__SLOTS_PER_SUM;
        if (i > s->slot_end)
            i = s->slot_end;
        while (i-- > begin) {
            if (!sgrt__bit_get(s->st.alive, i))
                continue;
            const uint32_t p = s->st.parent[i];
            if (p != SGRT__NONE && (p < begin || sgrt__bit_get(s->st.cross, i)))
                sgrt__bit_set(s->st.cross, p);
        }
    }
    memset(s->st.cross_sum, 0, (size_t)s->st.sum_words * sizeof(uint32_t));
    uint32_t members = 0;
    for (uint32_t w = 0; w < s->st.words; w++)
        if (s->st.cross[w]) {
            sgrt__bit_set(s->st.cross_sum, w);
            members += sgrt__popcount32(s->st.cross[w]);
        }
    if (members > s->node_count / SERIAL_SHARE_LIMIT)
        s->plan_ranges = 1;
    s->plan_version = s->structure_version;
    s->plan_wanted = wanted;
}

/* Serial part: close and update the cross set, slot order. Its dirty bits
 * move from `dirty` to `pdirty` (kept for the tasks' closure) and `work`
 * (consumed by the kernel). */
static uint32_t update_cross(sgrt_scene *s)
{
    sgrt__storage *st = &s->st;
    /* Only words holding members: a few per range in depth-first order. The
     * closure first (a member's parent is a member, in an earlier word or
     * earlier in this one, its bit still in `dirty`), then the moves. */
    SGRT__FOR_EACH_SUMMARIZED(st->cross_sum, 0, st->sum_words, st->cross, false, w, members,
        sgrt__dirty_close_word(s, w, members, NULL, NULL);
    )
    SGRT__FOR_EACH_SUMMARIZED(st->cross_sum, 0, st->sum_words, st->cross, false, w, members,
        const uint32_t moved = st->dirty[w] & members;
        sgrt__follow_word(s, w, moved, members);
        st->pdirty[w] = moved;
        st->work[w] = st->dirty[w] & members;
        if (st->work[w])
            sgrt__bit_set(st->work_sum, w);
        if (moved) {
            st->dirty[w] &= ~moved;
            if (!st->dirty[w])
                sgrt__bit_clear(st->dirty_sum, w);
        }
    )
    sgrt__update_view v;
    sgrt__update_view_of(s, st->work, st->work_sum, 0, st->sum_words, s->repaired, &v);
    return s->k.update(&v);
}

/* One range: complete the closure of its slots outside the cross set, do
 * the side work of its words, recompute. */
static void update_range(sgrt_scene *s, uint32_t r)
{
    sgrt__storage *st = &s->st;
    const uint32_t sum_first = s->range_sum[r], sum_end = s->range_sum[r + 1];
    uint32_t w_end = sum_end * 32u;
    if (w_end > st->words)
        w_end = st->words;
    for (uint32_t w = sum_first * 32u; w < w_end; w++)
        sgrt__dirty_close_word(s, w, ~st->cross[w], st->cross, st->pdirty);
    /* The cross set's slots had their side work before the tasks. */
    if (sgrt__follow_has_word_work(s))
        for (uint32_t sw = sum_first; sw < sum_end; sw++) {
            uint32_t words = sgrt__follow_words(s, sw);
            SGRT__FOR_EACH_IN_WORD(sw, words, w,
                sgrt__follow_word(s, w, st->dirty[w], ~st->cross[w]);)
        }
    s->range_repaired[r][0] = 0;
    sgrt__update_view v;
    sgrt__update_view_of(s, st->dirty, st->dirty_sum, sum_first, sum_end, s->range_repaired[r],
                         &v);
    s->range_count[r] = s->k.update(&v);
}

/* A task, as the executor calls it: each index does its range once. A
 * repeat or an index outside [0, count) does nothing but leave a mark for
 * the checks after run (task_done). */
static void range_task(void *ctx, uint32_t i)
{
    sgrt_scene *s = ctx;
    if (i >= s->task_count) {
        s->task_stray = 1;
        return;
    }
    if (s->task_runs[i]) {
        s->task_runs[i] = 2;
        return;
    }
    s->task_runs[i] = 1;
    s->task_range(s, s->tasks[i]);
}

/* Hand the tasks to the executor. While run is in progress the scene is
 * busy: node and object handles resolve to nothing (handle_used and
 * obj_used read 0) and creates find it full (max_nodes reads 0), so a call
 * from a task -- or from another thread -- falls into its refusal path,
 * where sgrt__fail reports it; the calls that take no handle test `busy`.
 * The hot paths pay nothing. */
static void run_tasks(sgrt_scene *s, const sgrt_executor *ex, uint32_t ntasks)
{
    memset(s->task_runs, 0, ntasks);
    s->task_count = ntasks;
    s->task_stray = 0;
    const uint32_t handle_used = s->handle_used, max_nodes = s->max_nodes;
    const uint32_t obj_used = s->obj_used;
    s->handle_used = 0;
    s->obj_used = 0;
    s->max_nodes = 0;
    s->busy = 1;
    ex->run(ex->user, ntasks, range_task, s);
    s->busy = 0;
    s->handle_used = handle_used;
    s->obj_used = obj_used;
    s->max_nodes = max_nodes;
}

/* After run: each task index ran exactly once, or the scene is made whole
 * and the executor reported. A skipped range is independent of the others
 * (its parents in earlier ranges are in the cross set, done before the
 * tasks), so the calling thread runs it now. */
static void task_done(sgrt_scene *s, uint32_t ntasks, const char *fn)
{
    bool skipped = false, repeated = false;
    for (uint32_t i = 0; i < ntasks; i++) {
        if (!s->task_runs[i]) {
            s->task_runs[i] = 1;
            s->task_range(s, s->tasks[i]);
            skipped = true;
        }
        repeated |= s->task_runs[i] == 2;
    }
    if (skipped)
        sgrt__fail(s, SGRT_ERR_EXECUTOR, fn,
                   "ex->run returned without calling fn for every index in [0, count): the "
                   "calling thread ran the skipped tasks",
                   SGRT_NULL_NODE);
    if (repeated)
        sgrt__fail(s, SGRT_ERR_EXECUTOR, fn,
                   "ex->run called fn more than once for an index: the repeats did nothing",
                   SGRT_NULL_NODE);
    if (s->task_stray)
        sgrt__fail(s, SGRT_ERR_EXECUTOR, fn,
                   "ex->run called fn with an index outside [0, count): it did nothing",
                   SGRT_NULL_NODE);
}

void sgrt__run_ranges(sgrt_scene *s, const sgrt_executor *ex, uint32_t ntasks,
                      void (*range)(sgrt_scene *s, uint32_t r), const char *function)
{
    if (ntasks == 1u) {
        range(s, s->tasks[0]); /* one task: no thread to wake */
    } else if (ntasks > 1u) {
        s->task_range = range;
        run_tasks(s, ex, ntasks);
        task_done(s, ntasks, function);
    }
}

/* Whether range r has anything to do: a dirty word, slots the pending
 * closure pass reaches, previous worlds to catch up, or boxes set. */
static bool range_has_work(const sgrt_scene *s, uint32_t r)
{
    for (uint32_t sw = s->range_sum[r]; sw < s->range_sum[r + 1]; sw++)
        if (sgrt__follow_words(s, sw))
            return true;
    const uint32_t end = s->range_sum[r + 1] * SGRT__SLOTS_PER_SUM;
    return s->close_from != SGRT__NONE && s->close_from + 1u < end &&
           s->close_from + 1u < s->slot_end;
}

static uint32_t update_parallel(sgrt_scene *s, const sgrt_executor *ex)
{
    static const char fn[] = "sgrt_scene_update_parallel";
    if (!ex || !ex->run || ex->workers == 0u) {
        /* Documented as the serial update; said so, as a job system that
         * is not set up yet looks exactly like this. */
        sgrt__warn(s, fn,
                   !ex       ? "ex is NULL: the serial update ran"
                   : !ex->run ? "ex->run is NULL: the serial update ran"
                              : "ex->workers is 0 (set it to the threads run uses): the serial "
                                "update ran",
                   SGRT_NULL_NODE);
        return sgrt__update_serial(s);
    }
    if (ex->workers == 1u) {
        if (SGRT__VALIDATING(s))
            sgrt__warn(s, fn, "ex->workers is 1: the serial update ran", SGRT_NULL_NODE);
        return sgrt__update_serial(s);
    }
    bool dirty = false;
    for (uint32_t sw = 0; !dirty && sw < s->st.sum_words; sw++)
        dirty = s->st.dirty_sum[sw] != 0;
    if (!dirty) {
        s->repaired[0] = 0;
        /* Nothing moved (a pending closure below nodes destroyed since has
         * nothing left to mark). Previous worlds may have to catch up, and
         * boxes set since to be computed. */
        if (sgrt__follow_pending(s))
            return sgrt__update_serial(s);
        sgrt__dirty_close_done(s);
        return 0; /* an idle frame wakes no thread */
    }
    /* A sparse closure is a few link walks: done here, the tasks then have
     * none to do. */
    if (sgrt__dirty_closure_is_sparse(s))
        sgrt__dirty_close(s);
    const uint32_t wanted = ex->workers > SGRT__MAX_RANGES / RANGES_PER_WORKER
                                ? SGRT__MAX_RANGES
                                : ex->workers * RANGES_PER_WORKER;
    if (s->plan_version != s->structure_version || s->plan_wanted != wanted)
        plan_build(s, wanted);
    if (s->plan_ranges <= 1u)
        return sgrt__update_serial(s);

    s->repaired[0] = 0;
    uint32_t count = update_cross(s);
    uint32_t ntasks = 0;
    for (uint32_t r = 0; r < s->plan_ranges; r++) {
        s->range_count[r] = 0;
        s->range_repaired[r][0] = 0;
        if (range_has_work(s, r))
            s->tasks[ntasks++] = r;
    }
    sgrt__run_ranges(s, ex, ntasks, update_range, fn);
    sgrt__dirty_close_done(s);
    sgrt__follow_finish(s);
    for (uint32_t r = 0; r < s->plan_ranges; r++) {
        count += s->range_count[r];
        /* Ranges in slot order: the first range with repairs has the
         * lowest slot, unless the cross set's is lower still. */
        const uint32_t *rr = s->range_repaired[r];
        if (rr[0] && (!s->repaired[0] || rr[1] < s->repaired[1]))
            s->repaired[1] = rr[1];
        s->repaired[0] += rr[0];
    }
    return count;
}

uint32_t sgrt_scene_update_parallel(sgrt_scene *s, const sgrt_executor *ex)
{
    if (!s || !sgrt__update_begin(s, __func__))
        return 0;
    return sgrt__update_done(s, update_parallel(s, ex), __func__);
}
