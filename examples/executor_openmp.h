/* SPDX-License-Identifier: MIT */
/* An sgrt_executor on OpenMP: run() is one parallel loop over the task
 * indices, dynamically scheduled (ranges of the update differ in cost).
 * Build with -fopenmp. Header-only, for the examples. */
#ifndef SGRT_EXAMPLES_EXECUTOR_OPENMP_H
#define SGRT_EXAMPLES_EXECUTOR_OPENMP_H

#include <omp.h>
#include <sgrt.h>

static void openmp_run(void *user, uint32_t count, void (*fn)(void *ctx, uint32_t i), void *ctx)
{
    (void)user;
#pragma omp parallel for schedule(dynamic, 1)
    for (long i = 0; i < (long)count; i++)
        fn(ctx, (uint32_t)i);
}

static inline sgrt_executor openmp_executor(void)
{
    const sgrt_executor ex = {openmp_run, NULL, (uint32_t)omp_get_max_threads()};
    return ex;
}

#endif
