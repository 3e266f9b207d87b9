/* SPDX-License-Identifier: MIT */
/* Clock, medians and frame counts of the benchmark (timing.h). */
#define _POSIX_C_SOURCE 200809L

#include "timing.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

uint32_t bench_refused;

double bench_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double bench_median(const double *v, int n)
{
    double *tmp = n > 0 ? malloc((size_t)n * sizeof *tmp) : NULL;
    if (!tmp)
        return NAN;
    memcpy(tmp, v, (size_t)n * sizeof *tmp);
    qsort(tmp, (size_t)n, sizeof *tmp, cmp_double);
    const double m = n % 2 ? tmp[n / 2] : 0.5 * (tmp[n / 2 - 1] + tmp[n / 2]);
    free(tmp);
    return m;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

uint32_t bench_median_u32(uint32_t *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_u32);
    return v[n / 2];
}

bench_schedule bench_schedule_for(uint32_t n, bool quick, int reps)
{
    bench_schedule s;
    if (reps <= 0) {
        if (quick)
            reps = n <= 4096 ? 60 : n <= 100000 ? 12 : 8;
        else
            reps = n <= 4096 ? 300 : n <= 100000 ? 60 : n <= 300000 ? 30 : 21;
    }
    s.rounds = reps >= 6 ? 3 : 1;
    s.per_round = (reps + s.rounds - 1) / s.rounds;
    s.warm = n <= 4096 ? 5 : 2;
    return s;
}
