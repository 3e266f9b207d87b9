/* sgrt benchmark: sgrt_scene_update against the naive recursive traversal,
 * the naive traversal with a dirty flag, and the copy floor, measured in one
 * run on the same scenes with the same moves. See docs/performance.md.
 *
 * This file owns the command line and the run: which scenes, in which
 * order, on a thread with a stack deep enough for the naive recursion.
 * measure.c times one scene, report.c prints the results. */
#define _POSIX_C_SOURCE 200809L

#include <sgrt.h>

#include "measure.h"
#include "report.h"
#include "scenes.h"
#include "timing.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FILTERS 8

typedef struct options {
    bool quick;
    bool level_order; /* trees numbered level by level instead of depth-first */
    int reps;         /* measured frames, 0 = by scene size */
    const char *csv;
    const char *filter[MAX_FILTERS];
    int filter_count;
} options;

typedef struct scene_spec {
    int shape; /* 0 tree, 1 chain, 2 game */
    uint32_t n;
    uint32_t zones, clusters, props, characters;
} scene_spec;

static const scene_spec full_scenes[] = {
    {0, 1u << 10, 0, 0, 0, 0},  {0, 1u << 16, 0, 0, 0, 0}, {0, 1u << 20, 0, 0, 0, 0},
    {1, 1u << 10, 0, 0, 0, 0},  {1, 1u << 16, 0, 0, 0, 0}, {2, 0, 32, 48, 64, 2500},
};
static const scene_spec quick_scenes[] = {
    {0, 1u << 10, 0, 0, 0, 0}, {0, 1u << 16, 0, 0, 0, 0}, {1, 1u << 10, 0, 0, 0, 0},
    {1, 1u << 16, 0, 0, 0, 0}, {2, 0, 8, 16, 64, 400},
};

static const scene_spec *scenes_of(const options *o, size_t *count)
{
    *count = o->quick ? sizeof quick_scenes / sizeof quick_scenes[0]
                      : sizeof full_scenes / sizeof full_scenes[0];
    return o->quick ? quick_scenes : full_scenes;
}

static bool topo_build(bench_topo *t, const scene_spec *sp, const options *o)
{
    return sp->shape == 0   ? bench_topo_tree4(t, sp->n, o->level_order)
           : sp->shape == 1 ? bench_topo_chain(t, sp->n)
                            : bench_topo_game(t, sp->zones, sp->clusters, sp->props,
                                              sp->characters, 0x9a3eu);
}

/* A scene runs when no --scene was given or its name contains one of them. */
static bool wanted(const options *o, const char *name)
{
    if (o->filter_count == 0)
        return true;
    for (int i = 0; i < o->filter_count; i++)
        if (strstr(name, o->filter[i]))
            return true;
    return false;
}

/* ------------------------------------------------------------------------ */
/* The run                                                                  */
/* ------------------------------------------------------------------------ */

typedef struct run {
    const options *o;
    bench_results res;
    int status;
} run;

static void *bench_main(void *arg)
{
    run *r = arg;
    const options *o = r->o;
    const double t0 = bench_now_ns();
    r->res.quick = o->quick;
    r->res.level_order = o->level_order;
    bench_read_load(r->res.load_start, sizeof r->res.load_start);
    float (*pool)[16] = bench_mat_pool(BENCH_POOL_SIZE, 0x900du);
    float (*init)[16] = bench_mat_pool(BENCH_POOL_SIZE, 0x1417u);
    if (!pool || !init) {
        fprintf(stderr, "out of memory\n");
        bench_mat_pool_free(pool);
        bench_mat_pool_free(init);
        r->status = 1;
        return NULL;
    }
    size_t nspecs;
    const scene_spec *specs = scenes_of(o, &nspecs);
    for (size_t i = 0; i < nspecs; i++) {
        bench_topo t;
        if (!topo_build(&t, &specs[i], o)) {
            fprintf(stderr, "out of memory\n");
            r->status = 1;
            break;
        }
        if (wanted(o, t.name) && !bench_measure_scene(&r->res, &t, o->quick, o->reps, pool, init))
            r->status = 1;
        bench_topo_free(&t);
    }
    bench_read_load(r->res.load_end, sizeof r->res.load_end);
    bench_report_print(stdout, &r->res);
    printf("total time: %.1f s\n", (bench_now_ns() - t0) * 1e-9);
    if (o->csv && !bench_report_csv(o->csv, &r->res)) {
        fprintf(stderr, "cannot write %s\n", o->csv);
        r->status = 1;
    }
    if (r->res.verify_failures)
        r->status = 1;
    bench_mat_pool_free(pool);
    bench_mat_pool_free(init);
    return NULL;
}

/* ------------------------------------------------------------------------ */
/* Command line                                                             */
/* ------------------------------------------------------------------------ */

static void usage(FILE *f, const char *argv0)
{
    fprintf(f,
            "usage: %s [--quick | --full] [--csv FILE] [--scene NAME]... [--reps N] [--order dfs|bfs]\n"
            "  (default)     full run: 4-ary trees of 1K, 64K, 1M nodes, chains of 1K and 64K,\n"
            "                a 200K-node game scene; a few minutes on 2 cores\n"
            "  --quick       reduced run (no 1M tree, smaller game scene), well under a minute\n"
            "  --full        the default\n"
            "  --csv FILE    also write the results as CSV (for bench/plot.sh)\n"
            "  --scene NAME  only scenes whose name contains NAME (tree-1M, chain, game, ...);\n"
            "                may be repeated\n"
            "  --reps N      measured frames per cell (default: by scene size)\n"
            "  --order dfs   trees created depth-first (default), as a recursive loader does;\n"
            "  --order bfs   trees created level by level (node i under node (i-1)/4)\n"
            "Every frame kind (none, 1%%, all moved; anim for the game scene) is measured for\n"
            "sgrt and every baseline in one run; the table ends with the targets T1..T8\n"
            "(T7, the kernels alone, is tests/test_kernels --bench).\n",
            argv0);
}

int main(int argc, char **argv)
{
    options o = {0};
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--quick") == 0) {
            o.quick = true;
        } else if (strcmp(argv[i], "--full") == 0) {
            o.quick = false;
        } else if (strcmp(argv[i], "--order") == 0 && i + 1 < argc) {
            i++;
            if (strcmp(argv[i], "bfs") == 0) {
                o.level_order = true;
            } else if (strcmp(argv[i], "dfs") != 0) {
                usage(stderr, argv[0]);
                return 2;
            }
        } else if (strcmp(argv[i], "--csv") == 0 && i + 1 < argc) {
            o.csv = argv[++i];
        } else if (strcmp(argv[i], "--scene") == 0 && i + 1 < argc) {
            if (o.filter_count < MAX_FILTERS)
                o.filter[o.filter_count++] = argv[++i];
        } else if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc) {
            o.reps = atoi(argv[++i]);
            if (o.reps < 1 || o.reps > 512) {
                fprintf(stderr, "--reps: 1..512\n");
                return 2;
            }
        } else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout, argv[0]);
            return 0;
        } else {
            usage(stderr, argv[0]);
            return 2;
        }
    }
    /* The naive render recurses once per tree level: a 64K-node chain needs a
     * deeper stack than a default thread has. */
    run r = {&o, {0}, 0};
    pthread_attr_t attr;
    pthread_t th;
    if (pthread_attr_init(&attr) != 0 || pthread_attr_setstacksize(&attr, (size_t)256 << 20) != 0 ||
        pthread_create(&th, &attr, bench_main, &r) != 0) {
        fprintf(stderr, "cannot start the benchmark thread\n");
        return 1;
    }
    pthread_join(th, NULL);
    pthread_attr_destroy(&attr);
    return r.status;
}
