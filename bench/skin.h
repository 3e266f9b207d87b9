/* SPDX-License-Identifier: MIT */
/* The skinning section of the benchmark (skin.c): palettes kept by the
 * update (sgrt_skin_*) against the same frames without skins and against
 * fused (the ozz-style job) followed by the palette loop written by hand;
 * the targets S1..S6. */
#ifndef SGRT_BENCH_SKIN_H
#define SGRT_BENCH_SKIN_H

#include <stdbool.h>
#include <stdio.h>

/* Build, time and verify the section's scenes, print its tables and target
 * lines to out; false when a scene could not be built or a palette is off
 * the double-precision model. */
bool bench_skin_run(FILE *out, bool quick);

#endif
