/* SPDX-License-Identifier: MIT */
/* The update on worker threads: one scene of a depth-first 4-ary tree, moved
 * frame after frame (every node, or a random 1 %), updated by
 * sgrt_scene_update and by sgrt_scene_update_parallel on a thread pool or
 * OpenMP; prints the median time of each and checks that both give the same
 * world matrices, bit for bit.
 *
 *   parallel_update [--nodes N] [--frames F] [--workers W]
 *                   [--executor pthread|openmp] [--moved all|1%] [--help]
 *
 * Exits with status 1 if the results differ, 2 on a bad command line. */
#define _GNU_SOURCE /* getopt_long */
#include <getopt.h>
#include <sgrt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "args.h"
#include "must.h"
#include "executor_pthread.h"
#ifdef _OPENMP
#include "executor_openmp.h"
#endif

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* A depth-first 4-ary tree of n nodes, as a recursive loader creates it. */
static sgrt_node *build(sgrt_scene *s, uint32_t n)
{
    sgrt_node *h = malloc((size_t)n * sizeof *h);
    uint32_t stack[32], kids[32], depth = 0, count = 0;
    if (!h || sgrt_node_create(s, SGRT_NULL_NODE, &h[count++]) != SGRT_OK)
        exit(1);
    stack[depth] = 0;
    kids[depth++] = 0;
    while (count < n) {
        if (kids[depth - 1] == 4 || depth == 32) {
            depth--;
            continue;
        }
        kids[depth - 1]++;
        if (sgrt_node_create(s, h[stack[depth - 1]], &h[count]) != SGRT_OK)
            exit(1);
        stack[depth] = count++;
        kids[depth++] = 0;
    }
    return h;
}

static void usage(FILE *f, const char *argv0)
{
    fprintf(f, "usage: %s [--nodes N] [--frames F] [--workers W] [--executor pthread|openmp]"
               " [--moved all|1%%] [--help]\n", argv0);
}

int main(int argc, char **argv)
{
    int nodes = 262144, frames = 30, workers = 2;
    bool openmp = false, all = true;
    static const struct option longopts[] = {
        {"nodes", required_argument, NULL, 'n'},    {"frames", required_argument, NULL, 'f'},
        {"workers", required_argument, NULL, 'w'},  {"executor", required_argument, NULL, 'e'},
        {"moved", required_argument, NULL, 'm'},    {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    for (int c; (c = getopt_long(argc, argv, "h", longopts, NULL)) != -1;) {
        bool ok = true;
        switch (c) {
        case 'n': ok = arg_int("--nodes", optarg, 1, 16000000, &nodes); break;
        case 'f': ok = arg_int("--frames", optarg, 1, 100000, &frames); break;
        case 'w': ok = arg_int("--workers", optarg, 1, 256, &workers); break;
        case 'e':
            ok = strcmp(optarg, "pthread") == 0 || strcmp(optarg, "openmp") == 0;
            openmp = strcmp(optarg, "openmp") == 0;
            if (!ok)
                fprintf(stderr, "--executor %s: expected pthread or openmp\n", optarg);
#ifndef _OPENMP
            if (openmp) {
                fprintf(stderr, "--executor openmp: this build has no OpenMP\n");
                ok = false;
            }
#endif
            break;
        case 'm':
            ok = strcmp(optarg, "all") == 0 || strcmp(optarg, "1%") == 0;
            all = strcmp(optarg, "all") == 0;
            if (!ok)
                fprintf(stderr, "--moved %s: expected all or 1%%\n", optarg);
            break;
        case 'h': usage(stdout, argv[0]); return 0;
        default: ok = false; break;
        }
        if (!ok) {
            usage(stderr, argv[0]);
            return 2;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "%s: unexpected argument %s\n", argv[0], argv[optind]);
        usage(stderr, argv[0]);
        return 2;
    }

    thread_pool pool;
    sgrt_executor ex;
    if (openmp) {
#ifdef _OPENMP
        omp_set_num_threads(workers);
        ex = openmp_executor();
#endif
    } else {
        if (!pool_start(&pool, (uint32_t)workers)) {
            fprintf(stderr, "cannot start %d threads\n", workers);
            return 1;
        }
        ex = pool_executor(&pool);
    }

    /* Two scenes alike: one updated serially, one on the executor. */
    sgrt_scene_desc desc = {0};
    desc.initial_capacity = (uint32_t)nodes;
    sgrt_scene *serial, *par;
    if (sgrt_scene_create(&desc, &serial) != SGRT_OK || sgrt_scene_create(&desc, &par) != SGRT_OK)
        return 1;
    sgrt_node *hs = build(serial, (uint32_t)nodes), *hp = build(par, (uint32_t)nodes);
    sgrt_scene_update(serial);
    sgrt_scene_update_parallel(par, &ex);

    double *ts = malloc((size_t)frames * sizeof *ts), *tp = malloc((size_t)frames * sizeof *tp);
    const uint32_t moved = all ? (uint32_t)nodes : (uint32_t)nodes / 100u + 1u;
    uint32_t seed = 1;
    float m[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    for (int f = 0; f < frames; f++) {
        for (uint32_t k = 0; k < moved; k++) {
            seed = seed * 1664525u + 1013904223u;
            const uint32_t i = all ? k : seed % (uint32_t)nodes;
            m[12] = (float)(f + 1);
            m[13] = (float)(i % 7u);
            MUST(sgrt_node_set_local(serial, hs[i], m));
            MUST(sgrt_node_set_local(par, hp[i], m));
        }
        double t0 = now_ms();
        const uint32_t a = sgrt_scene_update(serial);
        double t1 = now_ms();
        const uint32_t b = sgrt_scene_update_parallel(par, &ex);
        double t2 = now_ms();
        ts[f] = t1 - t0;
        tp[f] = t2 - t1;
        if (a != b) {
            fprintf(stderr, "frame %d: serial update recomputed %u, parallel %u\n", f, a, b);
            return 1;
        }
    }
    uint32_t na, nb;
    const float *wa = sgrt_scene_world_array(serial, &na), *wb = sgrt_scene_world_array(par, &nb);
    const bool same = na == nb && memcmp(wa, wb, (size_t)na * 16u * sizeof(float)) == 0;
    qsort(ts, (size_t)frames, sizeof *ts, cmp_double);
    qsort(tp, (size_t)frames, sizeof *tp, cmp_double);
    printf("%d nodes, %s moved, %s executor, %u workers: serial %.3f ms, parallel %.3f ms "
           "(median of %d frames): %.2fx; world matrices %s\n",
           nodes, all ? "all" : "1%", openmp ? "openmp" : "pthread", ex.workers, ts[frames / 2],
           tp[frames / 2], frames, ts[frames / 2] / tp[frames / 2],
           same ? "identical" : "DIFFER");
    sgrt_scene_destroy(serial);
    sgrt_scene_destroy(par);
    free(hs), free(hp), free(ts), free(tp);
    if (!openmp)
        pool_stop(&pool);
    return same ? 0 : 1;
}
