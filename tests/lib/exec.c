/* SPDX-License-Identifier: MIT */
/* Executors for sgrt_scene_update_parallel (see testutil.h). The threads
 * are those of examples/executor_pthread.h, the pool the examples and the
 * benchmark run on. */
#include "testutil.h"

#include "executor_pthread.h"

static void exec_run(void *user, uint32_t count, void (*fn)(void *ctx, uint32_t i), void *ctx)
{
    test_exec *e = user;
    e->runs++;
    e->tasks += count;
    if (count > e->most_tasks)
        e->most_tasks = count;
    if (e->mode == TEST_EXEC_THREADS) {
        pool_run(e->pool, count, fn, ctx);
        return;
    }
    uint32_t order[TEST_EXEC_MAX_TASKS];
    const bool shuffle = e->mode == TEST_EXEC_SHUFFLED && count <= TEST_EXEC_MAX_TASKS;
    for (uint32_t i = 0; shuffle && i < count; i++)
        order[i] = i;
    for (uint32_t i = count; shuffle && i > 1; i--) {
        const uint32_t k = rng_below(&e->r, i), t = order[i - 1];
        order[i - 1] = order[k];
        order[k] = t;
    }
    for (uint32_t i = 0; i < count; i++)
        fn(ctx, shuffle ? order[i] : i);
}

bool test_exec_start(test_exec *e, test_exec_mode mode, uint64_t seed, uint32_t threads)
{
    memset(e, 0, sizeof *e);
    e->mode = mode;
    e->r.s = seed;
    if (mode != TEST_EXEC_THREADS)
        return true;
    e->pool = malloc(sizeof *e->pool);
    if (!e->pool)
        return false;
    if (!pool_start(e->pool, threads)) {
        /* Threads that did start may wait on the pool: it is never freed. */
        e->pool = NULL;
        return false;
    }
    return true;
}

void test_exec_stop(test_exec *e)
{
    if (e->pool) {
        pool_stop(e->pool);
        free(e->pool);
        e->pool = NULL;
    }
}

sgrt_executor test_exec_executor(test_exec *e, uint32_t workers)
{
    const sgrt_executor ex = {exec_run, e, workers};
    return ex;
}
