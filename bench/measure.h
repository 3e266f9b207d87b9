/* One scene in every implementation: sgrt with its default kernel, sgrt
 * forced to the C reference, the naive baselines on two heaps, the copy
 * floor and (chains) the dependent-multiply bound, each timed over the same
 * frames, then checked against each other. Only sgrt's public API is used. */
#ifndef SGRT_BENCH_MEASURE_H
#define SGRT_BENCH_MEASURE_H

#include "report.h"
#include "scenes.h"

#include <stdbool.h>

/* Matrices in each pool given to bench_measure_scene (bench_mat_pool). */
#define BENCH_POOL_SIZE 8192u

/* Build topology t in every implementation with local matrices from init,
 * time its frames (none, 1 %, all moved; anim for a game scene) with moves
 * drawn from pool, append one row per frame kind to res, and verify.
 * Frames per cell from bench_schedule_for(t->n, quick, reps). Progress goes
 * to stderr. Returns false on NOMEM. */
bool bench_measure_scene(bench_results *res, const bench_topo *t, bool quick, int reps,
                         float (*pool)[16], float (*init)[16]);

#endif
