/* SPDX-License-Identifier: MIT */
/* The benchmark's clock and statistics: monotonic nanoseconds, medians, and
 * how many frames a scene's measurements run (warm-up, rounds, frames per
 * round). */
#ifndef SGRT_BENCH_TIMING_H
#define SGRT_BENCH_TIMING_H

#include <stdbool.h>
#include <stdint.h>

/* CLOCK_MONOTONIC, in ns. */
double bench_now_ns(void);

/* sgrt calls the benchmark makes without stopping for their result (inside
 * timed loops, and while building): each refused one counts in
 * bench_refused, and a run with any fails (bench/main.c). `result` is an
 * sgrt_result, SGRT_OK (0) when the call succeeded. */
extern uint32_t bench_refused;
#define BENCH_OK(result) ((void)(bench_refused += (result) != 0))

/* Median of v[0..n) (v is left as it is); NAN when n == 0 or on NOMEM. */
double bench_median(const double *v, int n);
/* Median (upper one for even n) of v[0..n), n > 0; sorts v. */
uint32_t bench_median_u32(uint32_t *v, int n);

/* Measured frames are split into rounds; each round runs every
 * implementation once (warm-up frames, then its share of measured frames), so
 * that a slow spell of a shared machine lands on all of them alike. */
typedef struct bench_schedule {
    int warm;      /* frames run before each block's measured ones */
    int rounds;
    int per_round; /* measured frames per block */
} bench_schedule;

/* Frames for a scene of n nodes: by size (fewer in a quick run), or
 * reps (> 0) measured frames in all. */
bench_schedule bench_schedule_for(uint32_t n, bool quick, int reps);

#endif
