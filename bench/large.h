/* SPDX-License-Identifier: MIT */
/* The large-world section of the benchmark (targets L1 to L3 of
 * docs/performance.md): the precision of worlds relative to a moving
 * origin, roots anchored 10^9 m from the world's zero, against a
 * double-precision model; a large-world scene's frames against the same
 * scene without SGRT_SCENE_LARGE_WORLD; an origin move's update against an
 * all-moved frame. Self-contained: it builds its own scenes through the
 * public API and prints its own tables and targets. */
#ifndef SGRT_BENCH_LARGE_H
#define SGRT_BENCH_LARGE_H

#include <stdbool.h>
#include <stdio.h>

/* What --scene matches to run the section in a filtered report. */
#define BENCH_LARGE_NAME "large-world"

/* Measure and print to `out`; `quick`: fewer timed rounds. False when a scene could not be built or a check of the results
 * failed (the reason goes to stderr). */
bool bench_large_run(FILE *out, bool quick);

#endif
