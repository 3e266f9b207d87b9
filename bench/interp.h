/* SPDX-License-Identifier: MIT */
/* The render interpolation section of the benchmark (interp.c): a large
 * tree in a scene created with SGRT_SCENE_INTERPOLATE, ticks of writes and
 * sgrt_scene_update, each followed by rendered frames of
 * sgrt_scene_interpolate at varying alpha; the targets I1..I4 of
 * docs/performance.md. */
#ifndef SGRT_BENCH_INTERP_H
#define SGRT_BENCH_INTERP_H

#include <stdbool.h>
#include <stdio.h>

/* What --scene matches to run the section in a filtered report. */
#define BENCH_INTERP_NAME "interp"

/* Build, time and verify the section's scene, print its table and target
 * lines to out; `quick`: a smaller tree, fewer rounds. False when the scene
 * could not be built, a call was refused or the render array was wrong
 * (the reason goes to stderr). */
bool bench_interp_run(FILE *out, bool quick);

#endif
