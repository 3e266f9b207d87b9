/* SPDX-License-Identifier: MIT */
/* The benchmark's report (report.h): build and machine description, tables
 * of ns per node and ratios, the update targets, the frames table (writes +
 * update) and its targets, the workers table, the scaling report and the
 * worker targets, CSV. */
#define _POSIX_C_SOURCE 200809L

#include "report.h"

#include <sgrt.h>

#include "bench_config.h"
#include "platform.h"
#include "report_peers.h"
#include "table.h"
#include "timing.h"

#include <math.h>
#include <string.h>
#include <time.h>

/* ------------------------------------------------------------------------ */
/* Build and machine                                                        */
/* ------------------------------------------------------------------------ */

static const char *compiler_string(void)
{
#if defined(__clang__)
    return "clang " __clang_version__;
#elif defined(__GNUC__)
    return "gcc " __VERSION__;
#else
    return "unknown compiler";
#endif
}

/* Target-related predefined macros seen by this file, compiled with the
 * project's flags (the library's sources get the same flags plus warnings). */
static const char *isa_macros(void)
{
    return ""
#ifdef __OPTIMIZE__
           " __OPTIMIZE__"
#endif
#ifdef __OPTIMIZE_SIZE__
           " __OPTIMIZE_SIZE__"
#endif
#ifdef __SSE2__
           " __SSE2__"
#endif
#ifdef __SSE4_1__
           " __SSE4_1__"
#endif
#ifdef __AVX__
           " __AVX__"
#endif
#ifdef __AVX2__
           " __AVX2__"
#endif
#ifdef __FMA__
           " __FMA__"
#endif
#ifdef __AVX512F__
           " __AVX512F__"
#endif
#ifdef __ARM_NEON
           " __ARM_NEON"
#endif
#ifdef __FAST_MATH__
           " __FAST_MATH__"
#endif
#ifdef __FP_FAST_FMAF
           " __FP_FAST_FMAF"
#endif
        ;
}

void bench_cpu_string(char *buf, size_t size)
{
    snprintf(buf, size, "unknown CPU");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return;
    char line[256], name[128] = "", family[16] = "", model[16] = "";
    while (fgets(line, sizeof line, f)) {
        char *p = strchr(line, ':');
        if (!p)
            continue;
        p++;
        p += strspn(p, " \t");
        p[strcspn(p, "\n")] = 0;
        if (!name[0] && strncmp(line, "model name", 10) == 0)
            snprintf(name, sizeof name, "%s", p);
        else if (!family[0] && strncmp(line, "cpu family", 10) == 0)
            snprintf(family, sizeof family, "%s", p);
        else if (!model[0] && strncmp(line, "model\t", 6) == 0)
            snprintf(model, sizeof model, "%s", p);
    }
    fclose(f);
    if (name[0] && family[0])
        snprintf(buf, size, "%s (family %s model %s)", name, family, model[0] ? model : "?");
    else if (name[0])
        snprintf(buf, size, "%s", name);
}

/* The machine may be shared: the load around the run says how far to trust
 * absolute numbers (ratios from one run hold up better). */
void bench_read_load(char *buf, size_t size)
{
    snprintf(buf, size, "?");
    FILE *f = fopen("/proc/loadavg", "r");
    if (!f)
        return;
    float a = 0, b = 0, c = 0;
    if (fscanf(f, "%f %f %f", &a, &b, &c) == 3)
        snprintf(buf, size, "%.2f %.2f %.2f", (double)a, (double)b, (double)c);
    fclose(f);
}

void bench_cpu_use_read(bench_cpu_use *u)
{
    u->wall = bench_now_ns();
    u->machine = u->self = NAN;
#if defined(CLOCK_PROCESS_CPUTIME_ID)
    struct timespec ts;
    if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) == 0)
        u->self = (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
#endif
#if defined(__linux__)
    FILE *f = fopen("/proc/stat", "r");
    if (!f)
        return;
    /* user nice system idle iowait irq softirq, in USER_HZ ticks; idle and
     * iowait are not work. */
    unsigned long long t[7];
    const long hz = sysconf(_SC_CLK_TCK);
    if (fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu", &t[0], &t[1], &t[2], &t[3], &t[4],
               &t[5], &t[6]) == 7 && hz > 0)
        u->machine = (double)(t[0] + t[1] + t[2] + t[5] + t[6]) / (double)hz;
    fclose(f);
#endif
}

double bench_others_cpus(const bench_cpu_use *a, const bench_cpu_use *b)
{
    const double others = (b->machine - a->machine) - (b->self - a->self);
    return others > 0 ? others / ((b->wall - a->wall) * 1e-9) : isnan(others) ? NAN : 0.0;
}

/* The lines about the naive baselines and the workers. */
static void print_naive_build(FILE *out, const char *pfx, const bench_results *r)
{
    fprintf(out, "%snaive    : heap node per object, child-pointer array, recursive render(parent_world);\n"
                 "%s           multiply = plain C 4x4 loop at the project's flags (naive.c)\n",
            pfx, pfx);
    fprintf(out, "%sorder    : trees created %s; naive, dirty = nodes malloc'd in creation\n"
                 "%s           order, each with its child array; -sh = the same allocations in a shuffled\n"
                 "%s           order, a live 16..256 B dummy after each node; sgrt slots = creation order\n",
            pfx, r->level_order ? "level by level (--order bfs)" : "depth-first (pre-order)", pfx,
            pfx);
    fprintf(out, "%sworkers  : %u (--workers): sgrt_scene_update_parallel on a pool of threads, the caller\n"
                 "%s           + %u more (examples/executor_pthread.h), started once for the run\n",
            pfx, r->workers, pfx, r->workers ? r->workers - 1u : 0u);
}

/* Every line starts with pfx ("# " in the CSV). bench/plot.sh reads the
 * compiler, simd and machine lines. */
static void print_build(FILE *out, const char *pfx, const bench_results *r)
{
    char cpu[128], comp[128];
    bench_cpu_string(cpu, sizeof cpu);
    snprintf(comp, sizeof comp, "%s", compiler_string());
    for (size_t len = strlen(comp); len && comp[len - 1] == ' '; len--)
        comp[len - 1] = 0; /* __clang_version__ ends in a space */
    fprintf(out, "%scompiler : %s\n", pfx, comp);
    fprintf(out, "%sflags    : buildtype=%s optimization=%s; project args: %s; c_args: %s\n", pfx,
            SGRT_BENCH_BUILDTYPE, SGRT_BENCH_OPTIMIZATION, SGRT_BENCH_FP_ARGS,
            SGRT_BENCH_C_ARGS[0] ? SGRT_BENCH_C_ARGS : "(none)");
    fprintf(out, "%smacros   :%s\n", pfx, isa_macros());
    fprintf(out, "%ssimd     : %s (sgrt_simd_name; -Dsimd=%s)\n", pfx, sgrt_simd_name(),
            SGRT_BENCH_SIMD_OPTION);
    fprintf(out, "%s           why: %s\n", pfx, sgrt_simd_reason());
    if (r->row_count)
        fprintf(out, "%s           scenes run (sgrt_scene_simd_name): 'sgrt' column %s, 'scalar' column %s\n"
                     "%s           (the scalar scene is created with desc.max_simd = SGRT_SIMD_SCALAR)\n",
                pfx, r->sgrt_kernel ? r->sgrt_kernel : "-",
                r->scalar_kernel ? r->scalar_kernel : "-", pfx);
    fprintf(out, "%smachine  : %s, %ld CPUs online; load average %s at start, %s at end\n", pfx,
            cpu, bench_online_cpus(), r->load_start, r->load_end);
    if (!isnan(r->others_cpus))
        fprintf(out, "%s           other programs kept %.2f CPUs busy on average during the run\n",
                pfx, r->others_cpus);
    if (r->row_count)
        print_naive_build(out, pfx, r);
    fprintf(out, "%stiming   : CLOCK_MONOTONIC, median of measured frames after warm-up, ns per scene node\n",
            pfx);
    bench_report_peers_build(out, pfx, r);
}

/* ------------------------------------------------------------------------ */
/* Targets                                                                  */
/* ------------------------------------------------------------------------ */

static const bench_row *find_row(const bench_results *res, const char *scene, const char *frame)
{
    for (int i = 0; i < res->row_count; i++)
        if (strcmp(res->rows[i].scene, scene) == 0 && strcmp(res->rows[i].frame, frame) == 0)
            return &res->rows[i];
    return NULL;
}

typedef struct target {
    const char *id, *what, *scene, *frame;
    bool at_most; /* value <= goal passes; else value >= goal */
    double goal;
    double value, value_with_set; /* NAN when not measured */
} target;

#define MAX_TARGETS 32

/* T7 (the kernels alone) is measured by tests/test_kernels --bench. */
static int build_targets(const bench_results *res, target *tg)
{
    int n = 0;
    const bench_row *r;
#define TGT(ID, WHAT, SC, FR, LE, GOAL, EXPR, EXPR_SET)                                   \
    do {                                                                                  \
        target *t_ = &tg[n++];                                                            \
        *t_ = (target){ID, WHAT, SC, FR, LE, GOAL, NAN, NAN};                             \
        if ((r = find_row(res, SC, FR)) != NULL) {                                        \
            t_->value = (EXPR);                                                           \
            t_->value_with_set = (EXPR_SET);                                              \
        }                                                                                 \
    } while (0)
    TGT("T1", "sgrt update / copy floor", "tree-1M", "all", true, 1.25, r->sgrt / r->copy, NAN);
    TGT("T2", "naive / sgrt update", "tree-64K", "all", false, 4, r->naive / r->sgrt, NAN);
    TGT("T3", "naive shuffled / sgrt update", "tree-1M", "all", false, 15, r->naive_sh / r->sgrt,
        NAN);
    TGT("T4", "naive / sgrt update", "tree-64K", "1%", false, 20, r->naive / r->sgrt,
        (r->naive + r->naive_set) / (r->sgrt + r->set));
    TGT("T5", "naive+dirty / sgrt update", "tree-64K", "1%", false, 5, r->dirty / r->sgrt,
        (r->dirty + r->dirty_set) / (r->sgrt + r->set));
    TGT("T5", "naive+dirty / sgrt update", "tree-1M", "1%", false, 5, r->dirty / r->sgrt,
        (r->dirty + r->dirty_set) / (r->sgrt + r->set));
    TGT("T6", "sgrt update / copy floor", "tree-1M", "none", true, 0.002, r->sgrt / r->copy, NAN);
    TGT("T8", "sgrt update / chain latency", "chain-64K", "all", true, 1.5, r->sgrt / r->chain,
        NAN);
#undef TGT
    return n;
}

/* A frame of each side, writes included, ns per scene node. */
static double naive_frame(const bench_row *r) { return r->naive_set + r->naive; }
static double dirty_frame(const bench_row *r) { return r->dirty_set + r->dirty; }
static double single_frame(const bench_row *r) { return r->set + r->sgrt; }
static double batch_frame(const bench_row *r) { return r->batch_set + r->batch; }

/* The scene of F3 and F4: tree-200K, which a quick run does not build. */
static const char *trs_target_scene(const bench_results *res)
{
    return res->quick ? "tree-64K" : "tree-200K";
}

#define F1_MOONSHOT 1.2

/* The frame targets: writes + update on both sides. */
static int build_frame_targets(const bench_results *res, target *tg)
{
    int n = 0;
    const bench_row *r;
    const char *trs_scene = trs_target_scene(res);
#define TGT(ID, WHAT, SC, FR, LE, GOAL, EXPR)                                             \
    do {                                                                                  \
        target *t_ = &tg[n++];                                                            \
        *t_ = (target){ID, WHAT, SC, FR, LE, GOAL, NAN, NAN};                             \
        if ((r = find_row(res, SC, FR)) != NULL)                                          \
            t_->value = (EXPR);                                                           \
    } while (0)
    TGT("F1", "(batch set_local + update) / update", "tree-64K", "all", true, 1.5,
        batch_frame(r) / r->batch);
    TGT("F2", "naive frame / batch frame", "tree-64K", "1%", false, 20,
        naive_frame(r) / batch_frame(r));
    TGT("F3", "naive TRS frame / batch frame", trs_scene, "trs10", false, 4,
        naive_frame(r) / batch_frame(r));
    TGT("F4", "naive TRS frame / single frame", trs_scene, "trs10", false, 2,
        naive_frame(r) / single_frame(r));
    TGT("F5", "single set_local / write floor", "tree-64K", "all", true, 2, r->set / r->wfloor);
#undef TGT
    return n;
}

/* The scene of the worker targets M1, M2, M4, M5: the largest tree of the
 * run (a quick run has no tree-1M). */
static const char *worker_tree_scene(const bench_results *res)
{
    return res->quick ? "tree-64K" : "tree-1M";
}

/* The game scene's row of a frame kind (its name carries its size). */
static const bench_row *find_game_row(const bench_results *res, const char *frame)
{
    for (int i = 0; i < res->row_count; i++)
        if (strncmp(res->rows[i].scene, "game-", 5) == 0 &&
            strcmp(res->rows[i].frame, frame) == 0)
            return &res->rows[i];
    return NULL;
}

/* Serial update time / predicted time on P perfect workers. */
static double scale_speedup(const bench_scale *sc)
{
    return sc->update / sc->predicted;
}

/* Row r's predicted speed-up for P workers, NAN when not measured. */
static double predicted_speedup(const bench_row *r, uint32_t workers)
{
    if (!r->scaled)
        return NAN;
    for (int p = 0; p < BENCH_SCALE_PS; p++)
        if (r->scale[p].workers == workers)
            return scale_speedup(&r->scale[p]);
    return NAN;
}

enum { W_SPEEDUP, W_COST, W_PREDICTED16 };

static void worker_target(target *t, const char *id, const char *what, const bench_row *r,
                          const char *scene, const char *frame, bool at_most, double goal,
                          int measure)
{
    *t = (target){id, what, r ? r->scene : scene, frame, at_most, goal, NAN, NAN};
    if (!r)
        return;
    t->value = measure == W_SPEEDUP ? r->sgrt / r->par
               : measure == W_COST  ? r->par / r->sgrt
                                    : predicted_speedup(r, 16);
}

/* The worker targets: the update on 1 and N workers, and the scaling
 * report's prediction for 16. */
static int build_worker_targets(const bench_results *res, target *tg)
{
    const char *tree = worker_tree_scene(res);
    int n = 0;
    worker_target(&tg[n++], "M1", "1 worker / N workers update", find_row(res, tree, "all"),
                  tree, "all", false, 1.7, W_SPEEDUP);
    worker_target(&tg[n++], "M2", "1 worker / N workers update", find_row(res, tree, "1%"),
                  tree, "1%", false, 1.5, W_SPEEDUP);
    worker_target(&tg[n++], "M2", "1 worker / N workers update", find_game_row(res, "anim"),
                  "game", "anim", false, 1.5, W_SPEEDUP);
    worker_target(&tg[n++], "M3", "N workers / 1 worker update",
                  find_row(res, "chain-64K", "all"), "chain-64K", "all", true, 1.05, W_COST);
    worker_target(&tg[n++], "M4", "predicted speed-up at 16 workers", find_row(res, tree, "all"),
                  tree, "all", false, 12, W_PREDICTED16);
    worker_target(&tg[n++], "M4", "predicted speed-up at 16 workers", find_game_row(res, "anim"),
                  "game", "anim", false, 12, W_PREDICTED16);
    worker_target(&tg[n++], "M5", "idle: N workers / 1 worker update",
                  find_row(res, tree, "none"), tree, "none", true, 1.2, W_COST);
    return n;
}

/* ------------------------------------------------------------------------ */
/* Text and CSV                                                             */
/* ------------------------------------------------------------------------ */

/* The frame and worker targets: a heading line, then one line a target. */
static void print_target_rows(FILE *out, const target *tg, int n)
{
    char b[16];
    fprintf(out, "%-3s %-10s %-6s %-36s %10s %8s  %-6s\n", "#", "scene", "frame", "measure",
            "value", "goal", "result");
    for (int i = 0; i < n; i++) {
        char goal[24];
        snprintf(goal, sizeof goal, "%s%g", tg[i].at_most ? "<=" : ">=", tg[i].goal);
        fprintf(out, "%-3s %-10s %-6s %-36s %9sx %8s  %s\n", tg[i].id, tg[i].scene, tg[i].frame,
                tg[i].what, bench_cell(b, tg[i].value), goal,
                bench_verdict(tg[i].value, tg[i].goal, tg[i].at_most));
    }
}

/* The workers table, the scaling report and the worker targets. */
static void print_workers(FILE *out, const bench_results *res)
{
    char b[8][16], nw[24];
    /* With --workers 1 the pool has no thread and the library runs serially. */
    snprintf(nw, sizeof nw, res->workers == 1 ? "par, 1" : "%u workers", res->workers);
    fprintf(out, "\nworkers: update, ns per scene node (median)\n");
    fprintf(out, "%-10s %-6s %8s %8s | %9s %10s %7s | %8s %-5s\n", "scene", "frame", "moved",
            "recomp", "1 worker", nw, "1/N", "recomp", "check");
    for (int i = 0; i < res->row_count; i++) {
        const bench_row *r = &res->rows[i];
        char check[16];
        if (r->par_mismatch)
            snprintf(check, sizeof check, "DIFF %u", r->par_mismatch);
        else
            snprintf(check, sizeof check, "ok");
        fprintf(out, "%-10s %-6s %8u %8u | %9s %10s %7s | %8u %-5s\n", r->scene, r->frame,
                r->moved, r->recomputed, bench_cell(b[0], r->sgrt), bench_cell(b[1], r->par),
                bench_cell(b[2], r->sgrt / r->par), r->par_recomputed, check);
    }
    fprintf(out,
            "  1 worker: sgrt_scene_update (the 'sgrt' / 'update' column above); %s:\n"
            "  sgrt_scene_update_parallel on the pool (the caller + %u more), after the same\n"
            "  single writes, outside the clock, on the same scene, interleaved with the other\n"
            "  blocks in each round. 1/N = 1 worker / N workers (>1: the pool is faster). recomp:\n"
            "  median of what the parallel update returned; check: 'ok' when it returned what\n"
            "  sgrt_scene_update did in every measured frame on the same moves (and in the\n"
            "  scaling report's frames), else the number of frames that differ (a verify failure).\n",
            nw, res->workers ? res->workers - 1u : 0u);

    bool any = false;
    for (int i = 0; i < res->row_count; i++)
        any |= res->rows[i].scaled;
    if (any) {
        fprintf(out, "\nscaling report: the tasks of one frame, P perfect workers (us per frame)\n");
        fprintf(out, "%-10s %-5s %3s %5s | %9s %9s %9s %9s %9s | %9s %8s %-7s\n", "scene",
                "frame", "P", "tasks", "update", "parallel", "serial", "largest", "sum",
                "predicted", "speed-up", "bound");
        for (int i = 0; i < res->row_count; i++) {
            const bench_row *r = &res->rows[i];
            if (!r->scaled)
                continue;
            for (int p = 0; p < BENCH_SCALE_PS; p++) {
                const bench_scale *sc = &r->scale[p];
                const char *bound = sc->tasks == 0                          ? "serial"
                                    : sc->sum / sc->workers >= sc->largest ? "sum/P"
                                                                           : "largest";
                fprintf(out, "%-10s %-5s %3u %5u | %9.1f %9.1f %9.1f %9.1f %9.1f | %9.1f %7sx %-7s\n",
                        r->scene, r->frame, sc->workers, sc->tasks, sc->update * 1e-3,
                        sc->total * 1e-3, sc->serial * 1e-3, sc->largest * 1e-3, sc->sum * 1e-3,
                        sc->predicted * 1e-3, bench_cell(b[0], scale_speedup(sc)), bound);
            }
        }
        fprintf(out,
                "  For each P, one frame's sgrt_scene_update_parallel runs through an executor with\n"
                "  workers = P (the library cuts up to 8 x P ranges, at most 256, and hands out one\n"
                "  task per range with work) whose run() calls every task in turn on the calling\n"
                "  thread and times each call. parallel: the whole call; sum, largest: of the task\n"
                "  times; serial = parallel - sum: what only the calling thread does (the cross set,\n"
                "  the plan check, handing out tasks). update: sgrt_scene_update of the same moves,\n"
                "  timed just before. predicted = serial + max(sum / P, largest): P perfect workers\n"
                "  share the tasks evenly, but none can finish before the largest task, and the\n"
                "  serial part runs first; no wake-up or memory-bandwidth cost is counted, so this\n"
                "  is an upper bound. speed-up = update / predicted; bound: which term of the max\n"
                "  won ('serial': no task was handed out; the update stayed on the caller). Per P:\n"
                "  a warm-up frame (plan rebuilt for P), then 5 pairs of frames on the same moves;\n"
                "  the row is the pair with the median speed-up.\n");
    }

    target tg[MAX_TARGETS];
    const int nm = build_worker_targets(res, tg);
    fprintf(out, "\nworker targets (reporting only; N = %u workers; ratios from this run)\n",
            res->workers);
    print_target_rows(out, tg, nm);
    fprintf(out,
            "  N workers = the '%s' column, 1 worker = sgrt_scene_update; M4 = the scaling\n"
            "  report's speed-up for P = 16. The goals of M1-M3 and M5 were set for N = 2.\n",
            nw);
    if (res->quick)
        fprintf(out, "  quick run: M1, M2, M4, M5 on %s (no tree-1M in --quick).\n",
                worker_tree_scene(res));
}

/* The tables of the scenes measured against the naive baselines. */
static void print_naive_tables(FILE *out, const bench_results *res)
{
    char b[13][16];

    fprintf(out, "\nns per scene node (median)\n");
    fprintf(out, "%-10s %-5s %8s %8s %8s | %8s %8s %8s | %8s %8s %8s %8s | %8s %8s\n", "scene",
            "frame", "nodes", "moved", "recomp", "set", "sgrt", "scalar", "naive", "naive-sh",
            "dirty", "dirty-sh", "copy", "chain");
    for (int i = 0; i < res->row_count; i++) {
        const bench_row *r = &res->rows[i];
        if (r->trs)
            continue;
        fprintf(out, "%-10s %-5s %8u %8u %8u | %8s %8s %8s | %8s %8s %8s %8s | %8s %8s\n",
                r->scene, r->frame, r->nodes, r->moved, r->recomputed, bench_cell(b[0], r->set),
                bench_cell(b[1], r->sgrt), bench_cell(b[2], r->scalar), bench_cell(b[3], r->naive),
                bench_cell(b[4], r->naive_sh), bench_cell(b[5], r->dirty), bench_cell(b[6], r->dirty_sh),
                bench_cell(b[7], r->copy), bench_cell(b[8], r->chain));
    }
    fprintf(out,
            "  set: sgrt_node_set_local calls of the frame (not in 'sgrt'); sgrt: sgrt_scene_update;\n"
            "  scalar: the same update on a second scene created with max_simd = SGRT_SIMD_SCALAR\n"
            "  (the C reference kernels); naive/dirty: render() only; copy: memcpy of n local matrices\n"
            "  to n world matrices; chain: sgrt_node_world_now on the deepest node of a 256-node\n"
            "  chain whose root moved, n/256 times: dependent multiplies through the scene's kernel,\n"
            "  ns per product.\n");

    fprintf(out, "\nratios (x = times; >1 means sgrt update is faster)\n");
    fprintf(out, "%-10s %-5s | %9s %9s %9s %9s | %9s %9s %9s | %9s\n", "scene", "frame", "naive",
            "naive-sh", "dirty", "dirty-sh", "sgrt/copy", "scalar", "sgrt/chn", "+set:dirty");
    for (int i = 0; i < res->row_count; i++) {
        const bench_row *r = &res->rows[i];
        if (r->trs)
            continue;
        fprintf(out, "%-10s %-5s | %9s %9s %9s %9s | %9s %9s %9s | %9s\n", r->scene, r->frame,
                bench_cell(b[0], r->naive / r->sgrt), bench_cell(b[1], r->naive_sh / r->sgrt),
                bench_cell(b[2], r->dirty / r->sgrt), bench_cell(b[3], r->dirty_sh / r->sgrt),
                bench_cell(b[4], r->sgrt / r->copy), bench_cell(b[5], r->scalar / r->sgrt),
                bench_cell(b[6], r->sgrt / r->chain),
                bench_cell(b[7], (r->dirty + r->dirty_set) / (r->sgrt + r->set)));
    }
    fprintf(out,
            "  naive..dirty-sh, scalar: baseline time / sgrt update time. sgrt/copy, sgrt/chn: sgrt\n"
            "  update time / floor. +set:dirty: (dirty set + render) / (sgrt set_local + update).\n");

    target tg[MAX_TARGETS];
    const int nt = build_targets(res, tg);
    fprintf(out, "\ntargets (reporting only; ratios from this run)\n");
    fprintf(out, "%-3s %-10s %-5s %-30s %10s %8s  %-6s %s\n", "#", "scene", "frame", "measure",
            "value", "goal", "result", "incl. set_local");
    for (int i = 0; i < nt; i++) {
        char goal[24];
        if (isnan(tg[i].goal))
            snprintf(goal, sizeof goal, "-");
        else
            snprintf(goal, sizeof goal, "%s%g", tg[i].at_most ? "<=" : ">=", tg[i].goal);
        fprintf(out, "%-3s %-10s %-5s %-30s %9sx %8s  %-6s %s%s\n", tg[i].id, tg[i].scene,
                tg[i].frame, tg[i].what, bench_cell(b[0], tg[i].value), goal,
                bench_verdict(tg[i].value, tg[i].goal, tg[i].at_most),
                isnan(tg[i].value_with_set) ? "" : bench_cell(b[1], tg[i].value_with_set),
                isnan(tg[i].value_with_set) ? "" : "x");
    }
    fprintf(out, "  T7 (kernels alone: C reference / SIMDe 4-wide, >=2.2x): tests/test_kernels --bench\n"
                 "  in the build directory (a build with -Dtests=true).\n");

    fprintf(out, "\nframes (writes + update), ns per scene node (median)\n");
    fprintf(out,
            "%-10s %-6s %8s %8s | %8s %8s %8s %8s %8s | %9s %8s %9s %8s | %9s %9s %9s %9s\n",
            "scene", "frame", "moved", "recomp", "set", "update", "batch", "b-upd", "wfloor", "naive_set",
            "naive", "dirty_set", "dirty", "nv/single", "nv/batch", "dty/batch", "b+u/u");
    for (int i = 0; i < res->row_count; i++) {
        const bench_row *r = &res->rows[i];
        fprintf(out,
                "%-10s %-6s %8u %8u | %8s %8s %8s %8s %8s | %9s %8s %9s %8s | %9s %9s %9s %9s\n",
                r->scene, r->frame, r->moved, r->recomputed, bench_cell(b[0], r->set), bench_cell(b[1], r->sgrt),
                bench_cell(b[2], r->batch_set), bench_cell(b[3], r->batch), bench_cell(b[4], r->wfloor),
                bench_cell(b[5], r->naive_set), bench_cell(b[6], r->naive), bench_cell(b[7], r->dirty_set),
                bench_cell(b[8], r->dirty), bench_cell(b[9], naive_frame(r) / single_frame(r)),
                bench_cell(b[10], naive_frame(r) / batch_frame(r)),
                bench_cell(b[11], dirty_frame(r) / batch_frame(r)),
                bench_cell(b[12], batch_frame(r) / r->batch));
    }
    fprintf(out,
            "  frame: none, 1%%, all, anim as above, each write an sgrt_node_set_local; trs10, trs50,\n"
            "  trs100: 10/50/100 %% of the nodes (chosen at random once per scene, in creation order)\n"
            "  get a new translation, unit quaternion and positive scale every frame, each write an\n"
            "  sgrt_node_set_trs; no TRS frames on chains. moved: writes per frame; recomp: median of\n"
            "  what sgrt_scene_update returned after the single writes.\n"
            "  set: the frame's single writes (sgrt_node_set_local / sgrt_node_set_trs); update:\n"
            "  sgrt_scene_update after them. batch: one sgrt_nodes_set_local / sgrt_nodes_set_trs call\n"
            "  for the frame, its inputs gathered into contiguous arrays outside the clock (TRS as\n"
            "  three arrays: t, q, scale); b-upd: sgrt_scene_update after it (same default scene).\n"
            "  wfloor: per write, memcpy of a 64 B matrix into a per-node array + one bit set in a\n"
            "  bitfield (no TRS conversion). naive_set, dirty_set: the baselines' own writes on the\n"
            "  creation-order heap (copy the matrix, or convert TRS to a matrix in plain C; dirty also\n"
            "  raises the node's flag); naive, dirty: render() after them.\n"
            "  nv/single = (naive_set + naive) / (set + update); nv/batch = (naive_set + naive) /\n"
            "  (batch + b-upd); dty/batch = (dirty_set + dirty) / (batch + b-upd); b+u/u = (batch +\n"
            "  b-upd) / b-upd. >1 in the first three means sgrt's frame is faster.\n");

    const int nf = build_frame_targets(res, tg);
    fprintf(out, "\nframe targets (reporting only; a frame = writes + update; ratios from this run)\n");
    print_target_rows(out, tg, nf);
    fprintf(out,
            "  frame = writes + update, columns of the frames table: naive frame = naive_set +\n"
            "  naive, batch frame = batch + b-upd, single frame = set + update; update in F1 = b-upd.\n"
            "  F5: set / wfloor. F1 moonshot <=%g: %s.\n",
            F1_MOONSHOT,
            isnan(tg[0].value) ? "n/a" : tg[0].value <= F1_MOONSHOT ? "met" : "not met");
    if (res->quick)
        fprintf(out, "  quick run: F3 and F4 on %s (no tree-200K in --quick).\n",
                trs_target_scene(res));
    print_workers(out, res);
}

void bench_report_print(FILE *out, const bench_results *res)
{
    fprintf(out, "\nsgrt benchmark (%s run%s)\n",
            res->verdict ? "verdict" : res->quick ? "quick" : "full",
            res->verdict ? ": the warm peers cells it measured" : res->row_count ? "" : ", peers only");
    print_build(out, "", res);
    if (res->row_count)
        print_naive_tables(out, res);
    bench_report_peers_print(out, res);
    if (res->verify_failures)
        fprintf(out, "\nVERIFY FAILED in %d scene(s) or bench_cell(s): the implementations disagree\n",
                res->verify_failures);
    else if (res->row_count)
        fprintf(out,
                "\nverify: every world matrix agrees after a TRS frame (not on chains) and a set_local\n"
                "        frame, each moving every node: naive heaps bit for bit, sgrt vs naive within\n"
                "        %.2g relative (summation order, TRS conversion differ); parallel update =\n"
                "        serial update bit for bit (every node moved; 10 %% moved), and its count in\n"
                "        every timed frame; no write refused\n",
                res->verify_max_err);
}

bool bench_report_csv(const char *path, const bench_results *res)
{
    FILE *f = fopen(path, "w");
    char b[12][16];
    if (!f)
        return false;
    print_build(f, "# ", res);
    fprintf(f, "# block 0: ns per scene node (trs* rows: TRS frames, sgrt_set = set_trs, no scalar,\n"
               "# shuffled, copy, chain; par: sgrt_scene_update_parallel on %u workers); block 1:\n"
               "# targets T1..T8 (T7: tests/test_kernels --bench), frame targets F1..F5, worker\n"
               "# targets M1..M5; block 2: scaling report, ns per frame; block 3: peers, ns per\n"
               "# scene node (frame = writes + update; *_set: the writes alone); block 4: peer\n"
               "# targets P1..P4\n", res->workers);
    fprintf(f, "scene,frame,nodes,moved,recomputed,sgrt_set,sgrt,sgrt_scalar,naive,naive_shuffled,"
               "dirty,dirty_shuffled,naive_set,dirty_set,copy,chain,naive_x,naive_shuffled_x,"
               "dirty_x,dirty_shuffled_x,sgrt_per_copy,scalar_x,sgrt_per_chain,batch_set,"
               "batch_update,wfloor,naive_frame_per_single,naive_frame_per_batch,"
               "dirty_frame_per_batch,batch_frame_per_update,par,par_recomputed,par_mismatch,"
               "sgrt_per_par\n");
    for (int i = 0; i < res->row_count; i++) {
        const bench_row *r = &res->rows[i];
        fprintf(f, "%s,%s,%u,%u,%u", r->scene, r->frame, r->nodes, r->moved, r->recomputed);
        const double v[] = {r->set, r->sgrt, r->scalar, r->naive, r->naive_sh, r->dirty,
                            r->dirty_sh, r->naive_set, r->dirty_set, r->copy, r->chain,
                            r->naive / r->sgrt, r->naive_sh / r->sgrt, r->dirty / r->sgrt,
                            r->dirty_sh / r->sgrt, r->sgrt / r->copy, r->scalar / r->sgrt,
                            r->sgrt / r->chain, r->batch_set, r->batch, r->wfloor,
                            naive_frame(r) / single_frame(r), naive_frame(r) / batch_frame(r),
                            dirty_frame(r) / batch_frame(r), batch_frame(r) / r->batch, r->par};
        for (size_t k = 0; k < sizeof v / sizeof v[0]; k++) {
            if (isnan(v[k]))
                fprintf(f, ",");
            else
                fprintf(f, ",%.6g", v[k]);
        }
        fprintf(f, ",%u,%u,%.6g\n", r->par_recomputed, r->par_mismatch, r->sgrt / r->par);
    }
    target tg[MAX_TARGETS];
    int nt = build_targets(res, tg);
    nt += build_frame_targets(res, tg + nt);
    nt += build_worker_targets(res, tg + nt);
    fprintf(f, "\n\ntarget,scene,frame,measure,value,goal,result,value_incl_set\n");
    for (int i = 0; i < nt; i++)
        fprintf(f, "%s,%s,%s,%s,%s,%s%g,%s,%s\n", tg[i].id, tg[i].scene, tg[i].frame, tg[i].what,
                isnan(tg[i].value) ? "" : bench_cell(b[0], tg[i].value),
                tg[i].at_most ? "<=" : ">=",
                tg[i].goal, bench_verdict(tg[i].value, tg[i].goal, tg[i].at_most),
                isnan(tg[i].value_with_set) ? "" : bench_cell(b[1], tg[i].value_with_set));
    fprintf(f, "\n\nscene,frame,nodes,workers,tasks,update_ns,parallel_ns,serial_ns,largest_ns,"
               "sum_ns,predicted_ns,predicted_speedup\n");
    for (int i = 0; i < res->row_count; i++) {
        const bench_row *r = &res->rows[i];
        for (int p = 0; r->scaled && p < BENCH_SCALE_PS; p++) {
            const bench_scale *sc = &r->scale[p];
            fprintf(f, "%s,%s,%u,%u,%u,%.0f,%.0f,%.0f,%.0f,%.0f,%.0f,%.4g\n", r->scene, r->frame,
                    r->nodes, sc->workers, sc->tasks, sc->update, sc->total, sc->serial,
                    sc->largest, sc->sum, sc->predicted, scale_speedup(sc));
        }
    }
    bench_report_peers_csv(f, res);
    return fclose(f) == 0;
}
