/* SPDX-License-Identifier: MIT */
/* sgrt benchmark. By default the verdict: sgrt's frame (writes + update)
 * against the naive pointer tree and the best hand-written designs (flat,
 * fused) on a few scenes, warm, in a minute or less, one screen that says
 * who wins, and the tables it measured in a file. --full (and --quick, a
 * smaller run): frames against the naive recursive traversal, the naive
 * traversal with a dirty flag, the copy floor and the write floor, and the
 * update on 1 and N workers, measured in one run on the same scenes with
 * the same moves; then the peers, warm and with the caches evicted; then
 * memory, bounds, large worlds, skinning palettes, snapshots and render
 * interpolation. See docs/performance.md.
 *
 * This file owns the command line and the run: which scenes, in which
 * order, on a thread with a stack deep enough for the naive recursion, the
 * thread pool behind sgrt_scene_update_parallel (the examples' one) and the
 * evicting buffer. measure.c times one scene against the naive baselines,
 * peers.c against the peers, each into results.h's rows; report.c,
 * report_peers.c and report_verdict.c print them, with table.c's cells. */
#define _GNU_SOURCE /* getopt_long */

#include <sgrt.h>

#include "bench_config.h"
#include "bounds.h"
#include "executor_pthread.h"
#include "interp.h"
#include "large.h"
#include "measure.h"
#include "memory.h"
#include "peers.h"
#include "platform.h"
#include "report.h"
#include "scenes.h"
#include "skin.h"
#include "snapshot.h"
#include "timing.h"

#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if !defined(_WIN32)
#include <unistd.h> /* getcwd */
#endif

#define MAX_FILTERS 8
#define MAX_REPS 512
#define MAX_WORKERS 256
#define MAX_EVICT_MIB 16384

typedef struct options {
    const char *argv0;
    bool verdict;     /* the default: no --full, --quick or option of theirs */
    const char *report; /* the verdict's file of tables; NULL: SGRT_BENCH_REPORT */
    bool quick;
    bool level_order; /* trees numbered level by level instead of depth-first */
    int reps;         /* measured frames, 0 = by scene size */
    int workers;      /* threads of the pool, the caller included */
    int evict_mib;    /* written before each evicted peers frame; 0: no evicted cells */
    bool peers_only;  /* skip the scenes measured against the naive baselines */
    const char *csv;
    const char *filter[MAX_FILTERS];
    int filter_count;
} options;

typedef struct scene_spec {
    int shape; /* 0 tree, 1 chain, 2 game, 3 skeletons (n joints each) */
    uint32_t n;
    uint32_t zones, clusters, props, characters;
    bool scaled; /* rows of the scaling report */
    unsigned peer_kinds; /* peers frames (BENCH_PEERS_*); 0: every kind */
    int peer_reps;       /* peers rounds per cell unless --reps; 0: by scene size */
} scene_spec;

/* tree-200K (200,000 nodes) is the scene of the frame targets F3 and F4.
 * The scaling report covers the largest tree, the longest chain and the
 * game scene of the run. */
static const scene_spec full_scenes[] = {
    {0, 1u << 10, 0, 0, 0, 0, false, 0, 0},  {0, 1u << 16, 0, 0, 0, 0, false, 0, 0},
    {0, 200000u, 0, 0, 0, 0, false, 0, 0},   {0, 1u << 20, 0, 0, 0, 0, true, 0, 0},
    {1, 1u << 10, 0, 0, 0, 0, false, 0, 0},  {1, 1u << 16, 0, 0, 0, 0, true, 0, 0},
    {2, 0, 32, 48, 64, 2500, true, 0, 0},
};
static const scene_spec quick_scenes[] = {
    {0, 1u << 10, 0, 0, 0, 0, false, 0, 0}, {0, 1u << 16, 0, 0, 0, 0, true, 0, 0},
    {1, 1u << 10, 0, 0, 0, 0, false, 0, 0}, {1, 1u << 16, 0, 0, 0, 0, true, 0, 0},
    {2, 0, 8, 16, 64, 400, true, 0, 0},
};

/* The peers' scenes: the trees of P1 and P3, the skeletons of P2. */
static const scene_spec full_peer_scenes[] = {
    {0, 1u << 16, 0, 0, 0, 0, false, 0, 0}, {0, 200000u, 0, 0, 0, 0, false, 0, 0},
    {0, 1u << 20, 0, 0, 0, 0, false, 0, 0}, {3, 64, 0, 0, 0, 1000, false, 0, 0},
    {3, 256, 0, 0, 0, 200, false, 0, 0},
};
static const scene_spec quick_peer_scenes[] = {
    {0, 1u << 16, 0, 0, 0, 0, false, 0, 0},
    {3, 64, 0, 0, 0, 1000, false, 0, 0},
};

/* The verdict's: every frame kind of tree-64K, the 64-joint skeletons, and
 * the 1M tree's 1 % and all frames, where a tree larger than the caches
 * shows (its TRS frames would add seconds to a run meant to be short).
 * Three times the full run's rounds: the verdict has one cell per row, and
 * a machine shared with other work needs them for a steady median. */
static const scene_spec verdict_peer_scenes[] = {
    {.shape = 0, .n = 1u << 16, .peer_reps = 45},
    {.shape = 3, .n = 64, .characters = 1000, .peer_reps = 45},
    {.shape = 0, .n = 1u << 20, .peer_kinds = BENCH_PEERS_ONE | BENCH_PEERS_ALL, .peer_reps = 21},
};

static const scene_spec *scenes_of(const options *o, size_t *count)
{
    if (o->peers_only || o->verdict) {
        *count = 0;
        return NULL;
    }
    *count = o->quick ? sizeof quick_scenes / sizeof quick_scenes[0]
                      : sizeof full_scenes / sizeof full_scenes[0];
    return o->quick ? quick_scenes : full_scenes;
}

static const scene_spec *peer_scenes_of(const options *o, size_t *count)
{
    if (o->verdict) {
        *count = sizeof verdict_peer_scenes / sizeof verdict_peer_scenes[0];
        return verdict_peer_scenes;
    }
    *count = o->quick ? sizeof quick_peer_scenes / sizeof quick_peer_scenes[0]
                      : sizeof full_peer_scenes / sizeof full_peer_scenes[0];
    return o->quick ? quick_peer_scenes : full_peer_scenes;
}

static bool topo_build(bench_topo *t, const scene_spec *sp, const options *o)
{
    return sp->shape == 0   ? bench_topo_tree4(t, sp->n, o->level_order)
           : sp->shape == 1 ? bench_topo_chain(t, sp->n)
           : sp->shape == 3 ? bench_topo_skeletons(t, sp->characters, sp->n)
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
    bench_cpu_use start;
    int status;
} run;

/* The machine after the run: load, and what other programs took of it. */
static void note_end(run *r)
{
    bench_cpu_use end;
    bench_cpu_use_read(&end);
    r->res.others_cpus = bench_others_cpus(&r->start, &end);
    bench_read_load(r->res.load_end, sizeof r->res.load_end);
}

/* The peers' scenes, after the others, with the evicting buffer of the run. */
static bool run_peers(run *r, float (*pool)[16], float (*init)[16], const bench_trs_pool *trs)
{
    const options *o = r->o;
    bench_evict ev = {0};
    r->res.evict_mib = (uint32_t)o->evict_mib;
    r->res.llc_bytes = bench_llc_bytes();
    if (o->evict_mib && !bench_evict_init(&ev, (uint32_t)o->evict_mib)) {
        fprintf(stderr, "cannot allocate the %d MiB evicting buffer (--evict)\n", o->evict_mib);
        return false;
    }
    bool ok = true;
    size_t nspecs;
    const scene_spec *specs = peer_scenes_of(o, &nspecs);
    for (size_t i = 0; ok && i < nspecs; i++) {
        bench_topo t;
        if (!topo_build(&t, &specs[i], o)) {
            fprintf(stderr, "out of memory\n");
            ok = false;
            break;
        }
        if (wanted(o, t.name))
            ok = bench_peers_scene(&r->res, &t,
                                   specs[i].peer_kinds ? specs[i].peer_kinds : BENCH_PEERS_EVERY,
                                   o->quick, o->reps ? o->reps : specs[i].peer_reps, pool,
                                   init, trs, o->evict_mib ? &ev : NULL);
        bench_topo_free(&t);
    }
    bench_evict_free(&ev);
    return ok;
}

/* A path as the user would type it from here: relative when it lies
 * under the working directory (POSIX; as it is elsewhere). */
static const char *shown_path(const char *path, char *buf, size_t size)
{
#if defined(_WIN32)
    (void)buf, (void)size;
    return path;
#else
    if (!getcwd(buf, size))
        return path;
    const size_t n = strlen(buf);
    return strncmp(path, buf, n) == 0 && path[n] == '/' ? path + n + 1 : path;
#endif
}

/* The verdict: the peers on its scenes, warm only, the verdict on stdout,
 * and the same with the tables it measured in the report file; the last
 * lines say where the rest is. */
static void run_verdict(run *r, float (*pool)[16], float (*init)[16], const bench_trs_pool *trs,
                        double t0)
{
    const options *o = r->o;
    const char *path = o->report ? o->report : SGRT_BENCH_REPORT;
    printf("sgrt_bench: the verdict (every table: %s --full). Measuring, a line per scene:\n",
           o->argv0);
    fflush(stdout);
    if (!run_peers(r, pool, init, trs))
        r->status = 1;
    note_end(r);
    bench_verdict_print(stdout, &r->res);
    const double secs = (bench_now_ns() - t0) * 1e-9;
    FILE *f = fopen(path, "w");
    if (f) {
        bench_verdict_print(f, &r->res);
        bench_report_print(f, &r->res);
        fprintf(f, "total time: %.1f s\n", secs);
    }
    char cwd[4096];
    const char *shown = shown_path(path, cwd, sizeof cwd);
    if (!f || fclose(f) != 0) {
        fprintf(stderr, "cannot write %s\n", shown);
        r->status = 1;
    }
    printf("\nverdict in %.1f s. Every table (frames against naive and its dirty flag, caches\n"
           "evicted, more scenes, workers, memory, bounds, large worlds): %s --full\n",
           secs, o->argv0);
    if (f)
        printf("The tables this verdict measured: %s\n", shown);
}

/* The full (or quick) report: the scenes against the naive baselines, the
 * peers, memory, bounds, large worlds. */
static void run_report(run *r, float (*pool)[16], float (*init)[16], const bench_trs_pool *trs,
                       double t0)
{
    const options *o = r->o;
    /* Started once: its threads sleep between parallel updates. */
    thread_pool threads;
    if (!pool_start(&threads, (uint32_t)o->workers)) {
        fprintf(stderr, "cannot start %d worker threads\n", o->workers);
        r->status = 1;
        return;
    }
    const sgrt_executor ex = pool_executor(&threads);
    size_t nspecs;
    const scene_spec *specs = scenes_of(o, &nspecs);
    for (size_t i = 0; i < nspecs; i++) {
        bench_topo t;
        if (!topo_build(&t, &specs[i], o)) {
            fprintf(stderr, "out of memory\n");
            r->status = 1;
            break;
        }
        if (wanted(o, t.name) && !bench_measure_scene(&r->res, &t, o->quick, o->reps, pool, init,
                                                      trs, &ex, specs[i].scaled))
            r->status = 1;
        bench_topo_free(&t);
    }
    pool_stop(&threads);
    if (r->status == 0 && !run_peers(r, pool, init, trs))
        r->status = 1;
    note_end(r);
    bench_report_print(stdout, &r->res);
    if (!bench_memory_print(stdout, o->quick ? 100000u : 1000000u))
        r->status = 1;
    if (!o->filter_count && !bench_bounds_run(stdout, o->quick))
        r->status = 1;
    if ((!o->filter_count || wanted(o, BENCH_LARGE_NAME)) && !bench_large_run(stdout, o->quick))
        r->status = 1;
    if (!o->filter_count && !bench_skin_run(stdout, o->quick))
        r->status = 1;
    if ((!o->filter_count || wanted(o, BENCH_SNAPSHOT_NAME)) &&
        !(bench_snapshot_run(stdout, o->quick) && bench_refused == 0))
        r->status = 1;
    if ((!o->filter_count || wanted(o, BENCH_INTERP_NAME)) && !bench_interp_run(stdout, o->quick))
        r->status = 1;
    printf("total time: %.1f s\n", (bench_now_ns() - t0) * 1e-9);
    if (o->csv && !bench_report_csv(o->csv, &r->res)) {
        fprintf(stderr, "cannot write %s\n", o->csv);
        r->status = 1;
    }
}

static void *bench_main(void *arg)
{
    run *r = arg;
    const options *o = r->o;
    const double t0 = bench_now_ns();
    r->res.quick = o->quick;
    r->res.verdict = o->verdict;
    r->res.level_order = o->level_order;
    r->res.workers = (uint32_t)o->workers;
    bench_read_load(r->res.load_start, sizeof r->res.load_start);
    bench_cpu_use_read(&r->start);
    float (*pool)[16] = bench_mat_pool(BENCH_POOL_SIZE, 0x900du);
    float (*init)[16] = bench_mat_pool(BENCH_POOL_SIZE, 0x1417u);
    bench_trs_pool trs = {0};
    if (!pool || !init || !bench_trs_pool_init(&trs, BENCH_POOL_SIZE, 0x7a5u)) {
        fprintf(stderr, "out of memory\n");
        r->status = 1;
    } else if (o->verdict) {
        run_verdict(r, pool, init, &trs, t0);
    } else {
        run_report(r, pool, init, &trs, t0);
    }
    if (r->res.verify_failures)
        r->status = 1;
    if (bench_refused) {
        fprintf(stderr, "%u sgrt calls were refused: the figures above are not of the work "
                        "they name\n", (unsigned)bench_refused);
        r->status = 1;
    }
    bench_mat_pool_free(pool);
    bench_mat_pool_free(init);
    bench_trs_pool_free(&trs);
    return NULL;
}

/* ------------------------------------------------------------------------ */
/* Command line                                                             */
/* ------------------------------------------------------------------------ */

/* The default of --workers: the CPUs online, within 1..MAX_WORKERS. */
static long online_cpus(void)
{
    const long n = bench_online_cpus();
    return n < 1 ? 1 : n > MAX_WORKERS ? MAX_WORKERS : n;
}

static void usage(FILE *f, const char *argv0)
{
    fprintf(f,
            "usage: %s [--full | --quick] [--report FILE] [--reps N]\n"
            "          [--csv FILE] [--scene NAME]... [--order dfs|bfs] [--workers N] [--evict MiB]\n"
            "          [--peers-only]\n"
            "  (default)     the verdict: sgrt's frame (writes + update) against the naive pointer\n"
            "                tree, flat and fused, warm, on tree-64K (every frame kind), skel-1000x64\n"
            "                and tree-1M (1%% and all moved); one screen that says who is faster and\n"
            "                by how much, and where sgrt wins; well under a minute on 2 cores. The\n"
            "                tables it measured go to the --report file\n"
            "  --full        the whole report: 4-ary trees of 1K, 64K, 200,000 and 1M nodes, chains\n"
            "                of 1K and 64K, a 200K-node game scene against the naive baselines and on\n"
            "                N workers; then the peers on the 64K, 200K and 1M trees and on\n"
            "                skel-1000x64 and skel-200x256, warm and evicted; memory; bounds and\n"
            "                culling; a few minutes on 2 cores\n"
            "  --quick       the whole report, reduced (no 200K or 1M tree, smaller game scene; peers\n"
            "                on tree-64K and skel-1000x64, fewer rounds), seconds\n"
            "  --report FILE the verdict's tables (default %s)\n"
            "  --reps N      measured frames per cell, 1..%d (default: by scene size)\n"
            "Options of the report (given without --quick, they select --full):\n"
            "  --csv FILE    also write the results as CSV (for bench/plot.sh)\n"
            "  --scene NAME  only scenes whose name contains NAME (tree-1M, chain, game, skel, ...);\n"
            "                may be repeated (up to %d); each must match a scene of the run\n"
            "  --order dfs   trees created depth-first (default), as a recursive loader does;\n"
            "  --order bfs   trees created level by level (node i under node (i-1)/4)\n"
            "  --workers N   threads behind sgrt_scene_update_parallel, the caller included,\n"
            "                1..%d (default: the CPUs online, here %ld)\n"
            "  --evict MiB   the buffer written before each evicted peers frame, 0..%d; 0: warm\n"
            "                frames only (default: twice the last-level cache, at most 1024,\n"
            "                here %u)\n"
            "  --peers-only  only the peers (sgrt, flat, fused, naive, memcpy), not the naive tables\n"
            "  --help        this text\n"
            "The report: every frame kind (none, 1%%, all moved; anim for the game scene; trs10,\n"
            "trs50, trs100: 10/50/100 %% of the nodes animated by TRS, not on chains) is measured\n"
            "for sgrt (single and batch writes) and every baseline in one run; the report\n"
            "ends with the update targets T1..T8 (T7, the kernels alone, is\n"
            "tests/test_kernels --bench), the frame targets F1..F5, the update on 1 and N\n"
            "workers, the scaling report (the speed-up P = 4, 16, 64 perfect workers would\n"
            "reach, from each task's cost in one frame) and the worker targets M1..M5.\n"
            "The peers table times sgrt's frame (single and batch writes + update) beside flat\n"
            "(Bitsquid's transform component written by hand), fused (an ozz-style SoA job,\n"
            "skeletons), the naive pointer tree and memcpy, warm and evicted, every contender\n"
            "checked against a double-precision reference; then the peer targets P1..P4; then\n"
            "memory per node, bounds and culling with the targets B1..B6, and large worlds\n"
            "(SGRT_SCENE_LARGE_WORLD: precision far from the world's zero, frames with and without\n"
            "the flag, an origin move) with the targets L1..L3 (--scene %s: that section\n"
            "alone after memory), and skinning palettes (sgrt_skin_*: crowds of skinned\n"
            "characters with and without skins and against fused + a palette loop) with the\n"
            "targets S1..S6, and snapshots (sgrt_scene_snapshot, sgrt_scene_restore and\n"
            "sgrt_scene_hash of a large tree against memcpy) with the targets R1..R4 (--scene\n"
            "%s: that section alone after memory), and render interpolation\n"
            "(SGRT_SCENE_INTERPOLATE: ticks of a large tree updated, frames interpolated between\n"
            "them) with the targets I1..I4 (--scene %s: that section alone after memory).\n"
            "--bounds-only, --large-only, --skin-only, --snapshot-only, --interp-only: that\n"
            "section alone.\n"
            "Exit status: 0, 1 when a scene could not be built or verified, 2 for a bad\n"
            "command line.\n",
            argv0, SGRT_BENCH_REPORT, MAX_REPS, MAX_FILTERS, MAX_WORKERS, online_cpus(),
            MAX_EVICT_MIB, bench_evict_default_mib(), BENCH_LARGE_NAME, BENCH_SNAPSHOT_NAME,
            BENCH_INTERP_NAME);
}

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static int bad_usage(const char *argv0, const char *fmt, ...);

/* Message, usage, exit status 2. */
static int bad_usage(const char *argv0, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", argv0);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    usage(stderr, argv0);
    return 2;
}

/* Whole decimal integer in [lo, hi]. */
static bool parse_int(const char *s, long lo, long hi, int *out)
{
    char *end;
    errno = 0;
    const long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi)
        return false;
    *out = (int)v;
    return true;
}

/* Each --scene must select something: build every topology of the run (a
 * game scene is named after its size) and match the names. */
static int check_filters(const options *o, const char *argv0)
{
    char names[384] = "";
    bool matched[MAX_FILTERS] = {false};
    for (int list = 0; list < 2; list++) {
        size_t nspecs;
        const scene_spec *specs = list ? peer_scenes_of(o, &nspecs) : scenes_of(o, &nspecs);
        for (size_t i = 0; i < nspecs; i++) {
            bench_topo t;
            if (!topo_build(&t, &specs[i], o)) {
                fprintf(stderr, "%s: out of memory\n", argv0);
                return 1;
            }
            for (int k = 0; k < o->filter_count; k++)
                matched[k] |= strstr(t.name, o->filter[k]) != NULL;
            snprintf(names + strlen(names), sizeof names - strlen(names), " %s%s", t.name,
                     list ? " (peers)" : "");
            bench_topo_free(&t);
        }
    }
    /* The large-world, snapshot and interpolation sections run their own
     * scenes, each under one name. */
    static const char *const sections[] = {BENCH_LARGE_NAME, BENCH_SNAPSHOT_NAME,
                                           BENCH_INTERP_NAME};
    for (size_t i = 0; i < sizeof sections / sizeof sections[0]; i++) {
        for (int k = 0; k < o->filter_count; k++)
            matched[k] |= strstr(sections[i], o->filter[k]) != NULL;
        snprintf(names + strlen(names), sizeof names - strlen(names), " %s (section)",
                 sections[i]);
    }
    for (int k = 0; k < o->filter_count; k++)
        if (!matched[k])
            return bad_usage(argv0, "--scene %s: no scene of this run matches (scenes:%s)",
                             o->filter[k], names);
    return 0;
}

static int parse_options(int argc, char **argv, options *o)
{
    enum { OPT_QUICK = 1, OPT_FULL, OPT_REPORT, OPT_CSV, OPT_SCENE, OPT_REPS, OPT_ORDER,
           OPT_WORKERS, OPT_EVICT, OPT_PEERS_ONLY, OPT_HELP };
    static const struct option longopts[] = {
        {"quick", no_argument, NULL, OPT_QUICK},     {"full", no_argument, NULL, OPT_FULL},
        {"report", required_argument, NULL, OPT_REPORT},
        {"csv", required_argument, NULL, OPT_CSV},   {"scene", required_argument, NULL, OPT_SCENE},
        {"reps", required_argument, NULL, OPT_REPS}, {"order", required_argument, NULL, OPT_ORDER},
        {"workers", required_argument, NULL, OPT_WORKERS},
        {"evict", required_argument, NULL, OPT_EVICT},
        {"peers-only", no_argument, NULL, OPT_PEERS_ONLY},
        {"help", no_argument, NULL, OPT_HELP},       {NULL, 0, NULL, 0},
    };
    o->workers = (int)online_cpus();
    o->evict_mib = (int)bench_evict_default_mib();
    const char *argv0 = o->argv0 = argv[0];
    bool mode = false, shaped = false; /* --full/--quick; an option of the report */
    int c;
    opterr = 0; /* our own messages */
    while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        switch (c) {
        case OPT_QUICK:
            o->quick = mode = true;
            break;
        case OPT_FULL:
            o->quick = false;
            mode = true;
            break;
        case OPT_REPORT:
        case OPT_CSV:
            if (!optarg[0])
                return bad_usage(argv0, "--%s: empty file name", c == OPT_CSV ? "csv" : "report");
            if (c == OPT_CSV) {
                o->csv = optarg;
                shaped = true;
            } else {
                o->report = optarg;
            }
            break;
        case OPT_SCENE:
            if (o->filter_count == MAX_FILTERS)
                return bad_usage(argv0, "--scene %s: at most %d --scene options", optarg,
                                 MAX_FILTERS);
            if (!optarg[0])
                return bad_usage(argv0, "--scene: empty name");
            o->filter[o->filter_count++] = optarg;
            shaped = true;
            break;
        case OPT_REPS:
            if (!parse_int(optarg, 1, MAX_REPS, &o->reps))
                return bad_usage(argv0, "--reps %s: not a whole number from 1 to %d", optarg,
                                 MAX_REPS);
            break;
        case OPT_WORKERS:
            if (!parse_int(optarg, 1, MAX_WORKERS, &o->workers))
                return bad_usage(argv0, "--workers %s: not a whole number from 1 to %d", optarg,
                                 MAX_WORKERS);
            shaped = true;
            break;
        case OPT_EVICT:
            if (!parse_int(optarg, 0, MAX_EVICT_MIB, &o->evict_mib))
                return bad_usage(argv0, "--evict %s: not a whole number of MiB from 0 to %d",
                                 optarg, MAX_EVICT_MIB);
            shaped = true;
            break;
        case OPT_PEERS_ONLY:
            o->peers_only = shaped = true;
            break;
        case OPT_ORDER:
            if (strcmp(optarg, "bfs") == 0)
                o->level_order = true;
            else if (strcmp(optarg, "dfs") == 0)
                o->level_order = false;
            else
                return bad_usage(argv0, "--order %s: dfs or bfs", optarg);
            shaped = true;
            break;
        case OPT_HELP:
        case 'h':
            usage(stdout, argv0);
            return -1;
        case ':':
            return bad_usage(argv0, "%s needs a value", argv[optind - 1]);
        default:
            if (optopt)
                return bad_usage(argv0, "unknown option -%c", optopt);
            return bad_usage(argv0, "unknown option %s", argv[optind - 1]);
        }
    }
    if (optind < argc)
        return bad_usage(argv0, "unexpected argument %s", argv[optind]);
    o->verdict = !mode && !shaped;
    if (!o->verdict && o->report)
        return bad_usage(argv0, "--report: the verdict's file; --full and --quick print their "
                                "report (--csv FILE for its data)");
    if (o->verdict)
        o->evict_mib = 0; /* warm frames: the verdict's figures */
    const int rc = check_filters(o, argv0);
    if (rc)
        return rc;
    /* Fail now, not after the run; the default report file is tried at the
     * end (a build directory moved away costs the file, not the verdict). */
    const char *out = o->csv ? o->csv : o->report;
    FILE *f = out ? fopen(out, "a") : NULL;
    if (out && !f)
        return bad_usage(argv0, "%s %s: %s", o->csv ? "--csv" : "--report", out, strerror(errno));
    if (f)
        fclose(f);
    return 0;
}

int main(int argc, char **argv)
{
    /* --bounds-only [--quick], --large-only [--quick], --skin-only [--quick],
     * --snapshot-only [--quick], --interp-only [--quick]: that section alone. */
    for (int i = 1; i < argc; i++) {
        const bool quick = argc == 3 && strcmp(argv[3 - i], "--quick") == 0;
        if (strcmp(argv[i], "--bounds-only") == 0)
            return bench_bounds_run(stdout, quick) ? 0 : 1;
        if (strcmp(argv[i], "--large-only") == 0) {
            const bool ok = bench_large_run(stdout, quick) && bench_refused == 0;
            return ok ? 0 : 1;
        }
        if (strcmp(argv[i], "--skin-only") == 0)
            return bench_skin_run(stdout, quick) ? 0 : 1;
        if (strcmp(argv[i], "--snapshot-only") == 0) {
            const bool ok = bench_snapshot_run(stdout, quick) && bench_refused == 0;
            return ok ? 0 : 1;
        }
        if (strcmp(argv[i], "--interp-only") == 0)
            return bench_interp_run(stdout, quick) ? 0 : 1;
    }
    options o = {0};
    const int rc = parse_options(argc, argv, &o);
    if (rc)
        return rc < 0 ? 0 : rc;
    /* The naive render recurses once per tree level: a 64K-node chain needs a
     * deeper stack than a default thread has. */
    run r = {.o = &o};
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
