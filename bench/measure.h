/* SPDX-License-Identifier: MIT */
/* One scene in every implementation: sgrt with its default kernel (single
 * and batch writes, updated serially and on the user's executor), sgrt
 * forced to the C reference, the naive baselines on
 * two heaps, the copy floor, the write floor and (chains) the
 * dependent-multiply bound, each timed over the same frames, then checked
 * against each other. Only sgrt's public API is used. */
#ifndef SGRT_BENCH_MEASURE_H
#define SGRT_BENCH_MEASURE_H

#include "results.h"
#include "scenes.h"

#include <sgrt.h>

#include <stdbool.h>

/* Matrices in each pool given to bench_measure_scene (bench_mat_pool). */
#define BENCH_POOL_SIZE 8192u

/* Build topology t in every implementation with local matrices from init,
 * time its frames (none, 1 %, all moved; anim for a game scene) with moves
 * drawn from pool, then (not on chains) its TRS frames trs10, trs50, trs100
 * with inputs drawn from trs; append one row per frame kind to res, and
 * verify. Each frame is timed as single writes + update and as one batch
 * write + update, beside the baselines doing their own writes, and its
 * update alone through sgrt_scene_update_parallel(ex) after the same single
 * writes. With `scaled`, the rows of the scaling report (trees: all and 1 %;
 * chains: all; game: anim) also get bench_row.scale. Frames per cell from
 * bench_schedule_for(t->n, quick, reps). Progress goes to stderr. Returns
 * false on NOMEM. */
bool bench_measure_scene(bench_results *res, const bench_topo *t, bool quick, int reps,
                         float (*pool)[16], float (*init)[16], const bench_trs_pool *trs,
                         const sgrt_executor *ex, bool scaled);

#endif
