/* SPDX-License-Identifier: MIT */
/* The bounds and culling section of the benchmark (targets B1 to B6 of
 * docs/performance.md): the update with world boxes against the update
 * without, the frustum cull against reading the box arrays once and against
 * a user's naive cull, subtree skipping on a city grid, and the cost of
 * keeping subtree boxes. Self-contained: it builds its own scenes through
 * the public API and prints its own table and targets. */
#ifndef SGRT_BENCH_BOUNDS_H
#define SGRT_BENCH_BOUNDS_H

#include <stdbool.h>
#include <stdio.h>

/* Measure and print to `out`; `quick`: fewer frames. False when a scene could
 * not be built or a check of the results failed. */
bool bench_bounds_run(FILE *out, bool quick);

#endif
