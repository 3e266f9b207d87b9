/* SPDX-License-Identifier: MIT */
/* The snapshot section of the benchmark (targets R1 to R4 of
 * docs/performance.md): a snapshot's bytes per node against the scene's own
 * held bytes, sgrt_scene_snapshot and sgrt_scene_restore against a memcpy
 * of the same bytes, sgrt_scene_hash against one read of the bytes it
 * hashes. Self-contained: it builds its own scene through the public API
 * and prints its own table and targets. */
#ifndef SGRT_BENCH_SNAPSHOT_H
#define SGRT_BENCH_SNAPSHOT_H

#include <stdbool.h>
#include <stdio.h>

/* What --scene matches to run the section in a filtered report. */
#define BENCH_SNAPSHOT_NAME "snapshot"

/* Measure and print to `out`; `quick`: a smaller tree, fewer rounds. False
 * when the scene could not be built or a result was wrong (the reason goes
 * to stderr). */
bool bench_snapshot_run(FILE *out, bool quick);

#endif
