/* SPDX-License-Identifier: MIT */
/* The peers report (report_peers.h): what ran, the table of frames, the targets
 * P1..P4 and their CSV blocks. */
#include "report_peers.h"

#include "bench_config.h"
#include "flat.h"
#include "fused.h"
#include "peers_sgrt.h"
#include "table.h"

#include <math.h>
#include <string.h>

/* sgrt's frame in the ratios and targets: the batch call, the write an
 * animation system makes when it hands over a whole frame. */
static double sgrt_frame(const bench_peer_row *r) { return r->batch; }

static const char *cache_name(const bench_peer_row *r) { return r->evicted ? "evicted" : "warm"; }

void bench_report_peers_build(FILE *out, const char *pfx, const bench_results *r)
{
    if (!r->peer_count)
        return;
    fprintf(out, "%speers    : sgrt kernel %s (the peers' scenes); single = %s / %s\n"
                 "%s           calls, batch = one %s / %s call (peers_sgrt.c)\n",
            pfx, r->peer_kernel ? r->peer_kernel : "-", peers_sgrt_single.local_call,
            peers_sgrt_single.trs_call, pfx, peers_sgrt_batch.local_call,
            peers_sgrt_batch.trs_call);
    fprintf(out, "%sflat     : %s\n", pfx, flat_describe());
    fprintf(out, "%sfused    : %s\n", pfx, fused_describe());
    fprintf(out, "%s           flat and fused compiled with: %s\n", pfx, SGRT_BENCH_PEER_ARGS);
    if (r->evict_mib)
        fprintf(out, "%sevict    : %u MiB written (one store per 64 B line) before each evicted frame;\n"
                     "%s           last-level cache %.0f MiB\n",
                pfx, r->evict_mib, pfx, (double)r->llc_bytes / (1 << 20));
    else
        fprintf(out, "%sevict    : off (--evict 0, or the verdict run): warm frames only\n", pfx);
}

/* ------------------------------------------------------------------------ */
/* Targets                                                                  */
/* ------------------------------------------------------------------------ */

typedef struct peer_target {
    const char *id, *what;
    const char *scene, *frame, *cache;
    double value, goal, moonshot; /* moonshot NAN: none */
} peer_target;

#define MAX_PEER_TARGETS (BENCH_MAX_PEER_ROWS + 8)

static const bench_peer_row *find(const bench_results *res, const char *scene, const char *frame,
                                  bool evicted)
{
    for (int i = 0; i < res->peer_count; i++) {
        const bench_peer_row *r = &res->peers[i];
        if (strcmp(r->scene, scene) == 0 && strcmp(r->frame, frame) == 0 && r->evicted == evicted)
            return r;
    }
    return NULL;
}

static void add(peer_target *tg, int *n, const char *id, const char *what, const char *scene,
                const char *frame, const char *cache, double value, double goal, double moon)
{
    tg[(*n)++] = (peer_target){id, what, scene, frame, cache, value, goal, moon};
}

/* P1 and P2 cover every row of their scenes that ran; P3 and P4 name theirs
 * and say n/a when the run did not have them. */
static int build_peer_targets(const bench_results *res, peer_target *tg)
{
    int n = 0;
    for (int i = 0; i < res->peer_count; i++) {
        const bench_peer_row *r = &res->peers[i];
        if (strncmp(r->scene, "tree-", 5) == 0)
            add(tg, &n, "P1", "sgrt frame / flat frame", r->scene, r->frame, cache_name(r),
                sgrt_frame(r) / r->flat, 1.0, 0.8);
    }
    for (int i = 0; i < res->peer_count; i++) {
        const bench_peer_row *r = &res->peers[i];
        if (!isnan(r->fused))
            add(tg, &n, "P2", "sgrt frame / fused frame", r->scene, r->frame, cache_name(r),
                sgrt_frame(r) / r->fused, 1.0, 0.8);
    }
    static const char *const p3_scenes[] = {"tree-64K", "tree-1M"};
    for (int s = 0; s < 2; s++)
        for (int e = 0; e < 2; e++) {
            const bench_peer_row *r = find(res, p3_scenes[s], "1%", e);
            add(tg, &n, "P3", "sgrt frame / flat frame", p3_scenes[s], "1%",
                e ? "evicted" : "warm", r ? sgrt_frame(r) / r->flat : NAN, 0.5, 0.25);
        }
    const bench_peer_row *r = find(res, "tree-64K", "trs100", false);
    add(tg, &n, "P4", "single set_trs / batch set_trs", "tree-64K", "trs100", "warm",
        r ? r->single_set / r->batch_set : NAN, 1.5, NAN);
    r = find(res, "tree-64K", "all", false);
    add(tg, &n, "P4", "single set_local / batch set_local", "tree-64K", "all", "warm",
        r ? r->single_set / r->batch_set : NAN, 1.3, NAN);
    return n;
}

/* ------------------------------------------------------------------------ */
/* Text and CSV                                                             */
/* ------------------------------------------------------------------------ */

void bench_report_peers_print(FILE *out, const bench_results *res)
{
    char b[9][16];
    if (!res->peer_count)
        return;
    fprintf(out, "\npeers (frame = writes + update), ns per scene node (median)\n");
    fprintf(out, "%-12s %-6s %-7s %8s %8s %4s | %8s %8s %8s %8s %8s %8s | %9s %10s %10s | %s\n",
            "scene", "frame", "cache", "moved", "recomp", "reps", "single", "batch", "flat",
            "fused", "naive", "memcpy", "sgrt/flat", "sgrt/fused", "sgrt/naive", "batch path");
    for (int i = 0; i < res->peer_count; i++) {
        const bench_peer_row *r = &res->peers[i];
        fprintf(out, "%-12s %-6s %-7s %8u %8u %4d | %8s %8s %8s %8s %8s %8s | %9s %10s %10s | %s\n",
                r->scene, r->frame, cache_name(r), r->moved, r->recomputed, r->frames,
                bench_cell(b[0], r->single), bench_cell(b[1], r->batch), bench_cell(b[2], r->flat),
                bench_cell(b[3], r->fused), bench_cell(b[4], r->naive), bench_cell(b[5], r->copy),
                bench_cell(b[6], sgrt_frame(r) / r->flat),
                bench_cell(b[7], sgrt_frame(r) / r->fused),
                bench_cell(b[8], sgrt_frame(r) / r->naive), r->sgrt_path);
    }
    fprintf(out,
            "  Each contender's frame: its writes of the frame's moves, then its update, from inputs\n"
            "  filled into contiguous arrays outside the clock. single: %s / %s\n"
            "  calls + sgrt_scene_update; batch: one %s / %s call +\n"
            "  sgrt_scene_update (each on its own scene); flat: the game's write loop into flat's\n"
            "  locals (dirty bytes raised on 1%% and trs10), then flat's pass (the dirty pass on 1%% and\n"
            "  trs10, the full pass otherwise); fused: ozz-style SoA TRS to worlds in one pass, no\n"
            "  local stored (skeletons); naive: the pointer tree of the naive tables (a heap node per\n"
            "  object, malloc'd in creation order), its own writes (matrix copied, or TRS converted in\n"
            "  plain C), then render() over every node; memcpy: one 64 B matrix per recomputed world,\n"
            "  contiguous.\n"
            "  all: every node a new matrix; 1%%: n/100 random nodes, fresh each frame; trs10: a fixed\n"
            "  random 10 %% by TRS; trs100: every node by TRS. warm: the measured frame right after the\n"
            "  contender's previous one; evicted: the evicting buffer (above) written before it. reps:\n"
            "  measured frames per contender, one per round, contenders interleaved. sgrt/flat,\n"
            "  sgrt/fused, sgrt/naive: sgrt's batch frame / the other's frame (<1: sgrt's frame is\n"
            "  faster).\n"
            "  batch path: the call the batch frame's writes went through (bench/peers_path.c).\n",
            peers_sgrt_single.local_call, peers_sgrt_single.trs_call, peers_sgrt_batch.local_call,
            peers_sgrt_batch.trs_call);

    peer_target tg[MAX_PEER_TARGETS];
    const int nt = build_peer_targets(res, tg);
    fprintf(out, "\npeer targets (reporting only; sgrt frame = batch frame; ratios from this run)\n");
    fprintf(out, "%-3s %-12s %-6s %-7s %-35s %10s %6s  %-6s %s\n", "#", "scene", "frame", "cache",
            "measure", "value", "goal", "result", "moonshot");
    for (int i = 0; i < nt; i++) {
        char goal[16], moon[24] = "";
        snprintf(goal, sizeof goal, "<=%g", tg[i].goal);
        if (!isnan(tg[i].moonshot))
            snprintf(moon, sizeof moon, "<=%g %s", tg[i].moonshot,
                     isnan(tg[i].value)               ? "n/a"
                     : tg[i].value <= tg[i].moonshot ? "met"
                                                      : "not met");
        fprintf(out, "%-3s %-12s %-6s %-7s %-35s %9sx %6s  %-6s %s\n", tg[i].id, tg[i].scene,
                tg[i].frame, tg[i].cache, tg[i].what, bench_cell(b[0], tg[i].value), goal,
                bench_verdict(tg[i].value, tg[i].goal, true), moon);
    }
    fprintf(out,
            "  P1: tree frames against flat; P2: skeletons against fused; P3: 1%% frames against\n"
            "  flat; P4: per write, the single calls' writes / the batch path's (writes only; on\n"
            "  all, the game's copy into the scene's storage and the commits).\n");
    if (res->quick)
        fprintf(out, "  quick run: tree-64K and skel-1000x64 only.\n");
    if (res->verdict)
        fprintf(out, "  verdict run: the warm cells of its scenes only (--full measures every cell).\n");
    bool skel = false;
    for (int i = 0; i < res->peer_count; i++)
        skel |= !isnan(res->peers[i].fused);
    fprintf(out,
            "peers verify: largest relative difference from the double-precision reference\n"
            "  (after every cell): single %.2g, batch %.2g, flat %.2g, fused %s%.2g, naive %.2g\n",
            res->peer_err[BENCH_PEER_SINGLE], res->peer_err[BENCH_PEER_BATCH],
            res->peer_err[BENCH_PEER_FLAT], skel ? "" : "(no skeleton) ",
            skel ? res->peer_err[BENCH_PEER_FUSED] : 0.0, res->peer_err[BENCH_PEER_NAIVE]);
}

static void csv_num(FILE *f, double v)
{
    if (isnan(v))
        fprintf(f, ",");
    else
        fprintf(f, ",%.6g", v);
}

void bench_report_peers_csv(FILE *f, const bench_results *res)
{
    fprintf(f, "\n\nscene,frame,cache,nodes,moved,recomputed,reps,sgrt_single,sgrt_single_set,"
               "sgrt_batch,sgrt_batch_set,flat,flat_set,fused,copy,sgrt_per_flat,sgrt_per_fused,"
               "naive,naive_set,sgrt_per_naive,sgrt_batch_path\n");
    for (int i = 0; i < res->peer_count; i++) {
        const bench_peer_row *r = &res->peers[i];
        fprintf(f, "%s,%s,%s,%u,%u,%u,%d", r->scene, r->frame, cache_name(r), r->nodes, r->moved,
                r->recomputed, r->frames);
        const double v[] = {r->single, r->single_set, r->batch,  r->batch_set,
                            r->flat,   r->flat_set,   r->fused,  r->copy,
                            sgrt_frame(r) / r->flat,  sgrt_frame(r) / r->fused,
                            r->naive,  r->naive_set,  sgrt_frame(r) / r->naive};
        for (size_t k = 0; k < sizeof v / sizeof v[0]; k++)
            csv_num(f, v[k]);
        fprintf(f, ",%s\n", r->sgrt_path);
    }
    peer_target tg[MAX_PEER_TARGETS];
    const int nt = build_peer_targets(res, tg);
    fprintf(f, "\n\ntarget,scene,frame,cache,measure,value,goal,result,moonshot\n");
    for (int i = 0; i < nt; i++) {
        fprintf(f, "%s,%s,%s,%s,%s", tg[i].id, tg[i].scene, tg[i].frame, tg[i].cache, tg[i].what);
        csv_num(f, tg[i].value);
        fprintf(f, ",<=%g,%s,", tg[i].goal, bench_verdict(tg[i].value, tg[i].goal, true));
        if (!isnan(tg[i].moonshot))
            fprintf(f, "<=%g", tg[i].moonshot);
        fprintf(f, "\n");
    }
}
