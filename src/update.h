/* SPDX-License-Identifier: MIT */
/* The per-frame update (update.c). */
#ifndef SGRT_UPDATE_H
#define SGRT_UPDATE_H

#include "internal.h"

/* sgrt_scene_update without its validation: also the parallel update's
 * serial fallback. */
uint32_t sgrt__update_serial(sgrt_scene *s);
/* The start of a public update (`function`) of a non-NULL scene: false,
 * reported, while the scene is busy (the update must not run); else, in
 * validation mode, the locals checked, and the followers started. */
bool sgrt__update_begin(sgrt_scene *s, const char *function);
/* The end of a public update (`function`) that recomputed `count` worlds:
 * the non-finite locals it repaired are recorded and reported. Returns
 * count. */
uint32_t sgrt__update_done(sgrt_scene *s, uint32_t count, const char *function);
/* The ranges s->tasks[0, ntasks) on the executor (parallel.c), each by
 * range(s, r), for a parallel pass of `function` (the update, or a
 * follower's: sgrt_scene_interpolate_parallel): one task runs here; more
 * go to ex->run with the scene busy, then each index is checked to have run
 * exactly once (a skipped range runs here, and the executor is reported as
 * the parallel update reports it). Ranges must be independent. */
void sgrt__run_ranges(sgrt_scene *s, const sgrt_executor *ex, uint32_t ntasks,
                      void (*range)(sgrt_scene *s, uint32_t r), const char *function);

#endif
