/* SPDX-License-Identifier: MIT */
/* The render interpolation section of the benchmark (interp.h).
 *
 * One tree, the benchmark's default (bench_topo_tree4: a complete 4-ary
 * tree numbered depth-first, 1,048,576 nodes; 100,000 with --quick), built
 * twice node by node through allocators that count the bytes they hold:
 * `on`, created with SGRT_SCENE_INTERPOLATE, and `off`, without. Locals
 * are TRS (sgrt_nodes_set_trs, from bench_trs_pool: a rotation between two
 * ticks is a random one, so the interpolation does all its work).
 *
 * A tick writes (outside the clock, the same TRS into both scenes) and
 * updates each scene (timed); then FRAMES rendered frames call
 * sgrt_scene_interpolate on `on` at alphas spread over (0, 1) and varied
 * from round to round (each timed), with an upload (the scene's render
 * ranges drained, their count kept) after each, outside the clock. Ticks
 * of three kinds:
 *
 *   1%    n / 100 nodes picked at random get a new TRS (their subtrees
 *         move with them, as in the benchmark's 1% frames);
 *   all   every node gets a new TRS;
 *   idle  nothing is written.
 *
 * Every round runs the kinds in turn, each as two ticks of that kind of
 * which the second is timed (warm: an idle tick timed follows an idle
 * tick, so nothing moved in its tick nor in the one before); the two
 * scenes' updates swap order every other round. Times are medians over
 * the rounds, ratios medians of the rounds' ratios. The targets:
 *
 *   I1  1%:   interpolate (a frame, the mean of the tick's FRAMES) / the
 *             tick's update, both in `on`;
 *   I2  all:  the same;
 *   I3  idle: interpolate per node, ns;
 *   I4  bytes per node `on` holds, beside `off`'s (stated, no goal).
 *
 * Beside I1 and I2, stated without a goal: the same frames against the
 * update without the flag, and the update with the flag against without
 * (what the flag adds to every tick is part of what interpolation costs).
 *
 * After the rounds, on `on`: the world array is copied, every node moved,
 * updated, then sgrt_scene_interpolate at alpha 0 must give the copied
 * worlds (within 1e-5 of each matrix's largest element), at 0.5 must
 * differ from the worlds in (nearly) every slot, and at 1 must give the
 * worlds bit for bit; `on`'s worlds must be `off`'s bit for bit; and
 * sgrt_scene_interpolate_parallel on the benchmark's thread pool must give
 * the serial render array bit for bit (its time is printed beside); then,
 * after a 1 % tick, every slot that tick's update left alone (a tracker
 * says which) must show its world, the resting render world of a node
 * that stopped. The benchmark cannot time a no-op unseen. */
#define _POSIX_C_SOURCE 200809L

#include "interp.h"
#include "platform.h"
#include "scenes.h"
#include "table.h"
#include "timing.h"

#include "executor_pthread.h"

#include <sgrt.h>

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define POOL 8192u /* TRS inputs, a power of two */
#define POOL_MASK (POOL - 1u)
#define FRAMES 4   /* rendered frames per tick: 240 Hz over 60 Hz ticks */
#define MAX_ROUNDS 64
#define WORKERS 2  /* the parallel check's pool */

enum { K_ONE, K_ALL, K_IDLE, KINDS };
enum { S_ON, S_OFF, SCENES };
static const char *const kind_name[KINDS] = {"1%", "all", "idle"};

typedef struct ip_bench {
    uint32_t n;
    bench_topo topo;
    bench_held held[SCENES];
    sgrt_allocator alloc[SCENES];
    sgrt_scene *s[SCENES];
    sgrt_node *h[SCENES];     /* per tree node */
    sgrt_node *list[SCENES];  /* a tick's written nodes */
    float (*t)[3], (*q)[4], (*sc)[3]; /* a tick's inputs */
    uint32_t count;           /* a tick's written nodes */
    bench_trs_pool trs;
    uint32_t serial;
    sgrt_range *ranges;       /* the upload's buffer */
} ip_bench;

#define RANGES 256

static void ip_free(ip_bench *b)
{
    for (int k = 0; k < SCENES; k++) {
        sgrt_scene_destroy(b->s[k]);
        free(b->h[k]);
        free(b->list[k]);
    }
    free(b->t), free(b->q), free(b->sc), free(b->ranges);
    bench_trs_pool_free(&b->trs);
    bench_topo_free(&b->topo);
}

static bool ip_build(ip_bench *b, uint32_t n)
{
    memset(b, 0, sizeof *b);
    b->n = n;
    bool ok = bench_topo_tree4(&b->topo, n, false) && bench_trs_pool_init(&b->trs, POOL, 0x1e7b);
    b->t = malloc((size_t)n * sizeof *b->t);
    b->q = malloc((size_t)n * sizeof *b->q);
    b->sc = malloc((size_t)n * sizeof *b->sc);
    b->ranges = malloc(RANGES * sizeof *b->ranges);
    ok = ok && b->t && b->q && b->sc && b->ranges;
    for (int k = 0; ok && k < SCENES; k++) {
        b->alloc[k] = (sgrt_allocator){bench_held_alloc, bench_held_free, &b->held[k]};
        sgrt_scene_desc d = {0};
        d.allocator = &b->alloc[k];
        d.flags = k == S_ON ? SGRT_SCENE_INTERPOLATE : 0u;
        b->h[k] = malloc((size_t)n * sizeof *b->h[k]);
        b->list[k] = malloc((size_t)n * sizeof *b->list[k]);
        ok = b->h[k] && b->list[k] && sgrt_scene_create(&d, &b->s[k]) == SGRT_OK;
        for (uint32_t i = 0; ok && i < n; i++) {
            const int32_t p = b->topo.parent[i];
            const uint32_t e = i & POOL_MASK;
            ok = sgrt_node_create(b->s[k], p < 0 ? SGRT_NULL_NODE : b->h[k][p], &b->h[k][i]) ==
                     SGRT_OK &&
                 sgrt_node_set_trs(b->s[k], b->h[k][i], b->trs.t[e], b->trs.q[e], b->trs.s[e]) ==
                     SGRT_OK;
        }
        ok = ok && sgrt_scene_update(b->s[k]) == n;
    }
    /* The first frame: what the render array costs in memory is held from
     * here on. */
    ok = ok && sgrt_scene_interpolate(b->s[S_ON], 1.0f) == SGRT_OK;
    return ok;
}

/* A tick's inputs (outside the clock): which nodes, which pool entries. */
static void gather(ip_bench *b, int kind, bench_rng *rng)
{
    const uint32_t n = b->n;
    b->count = kind == K_ALL ? n : kind == K_ONE ? (n / 100u ? n / 100u : 1u) : 0u;
    for (uint32_t k = 0; k < b->count; k++) {
        const uint32_t x = kind == K_ALL ? k : bench_rng_below(rng, n);
        const uint32_t e = (b->serial * 7u + x) & POOL_MASK;
        for (int sc = 0; sc < SCENES; sc++)
            b->list[sc][k] = b->h[sc][x];
        memcpy(b->t[k], b->trs.t[e], sizeof b->t[k]);
        memcpy(b->q[k], b->trs.q[e], sizeof b->q[k]);
        memcpy(b->sc[k], b->trs.s[e], sizeof b->sc[k]);
    }
    b->serial++;
}

static void write_tick(ip_bench *b, int sc)
{
    if (!b->count)
        return;
    uint32_t bad = 0;
    BENCH_OK(sgrt_nodes_set_trs(b->s[sc], b->count, b->list[sc], b->t[0], b->q[0], b->sc[0],
                                &bad));
}

static double timed_update(ip_bench *b, int sc)
{
    const double t0 = bench_now_ns();
    (void)sgrt_scene_update(b->s[sc]);
    return bench_now_ns() - t0;
}

/* The renderer's upload after a frame: the render ranges drained (merge
 * gap 0); the slots they name. */
static uint64_t upload(ip_bench *b, uint32_t *out_ranges)
{
    uint64_t slots = 0;
    uint32_t got = 0;
    bool more = true;
    while (more) {
        if (sgrt_scene_render_collect(b->s[S_ON], b->ranges, RANGES, 0, &got, &more) != SGRT_OK) {
            bench_refused++;
            break;
        }
        for (uint32_t i = 0; i < got; i++)
            slots += b->ranges[i].count;
        if (out_ranges)
            *out_ranges += got;
    }
    return slots;
}

/* The alpha of frame f of a tick in round r: spread over (0, 1), shifted
 * from round to round so that no alpha is special. */
static float alpha_of(int f, int r)
{
    return (float)(((double)f + 0.5 + 0.2 * (double)(r % 5 - 2)) / FRAMES);
}

typedef struct ip_row {
    double update[SCENES];  /* ns per node, medians */
    double first, later;    /* interpolate, ns per node: a tick's first frame, the others */
    double frame;           /* interpolate, mean of a tick's frames, ns per node */
    double ratio;           /* frame / update (on), median of the rounds' */
    double ratio_off;       /* frame / update (off): against the update without the flag */
    double flag_cost;       /* update on / update off, median of the rounds' */
    double uploaded;        /* slots the render ranges named per frame, median */
    uint32_t ranges;        /* ranges collected over every timed frame (idle: must be 0) */
} ip_row;

static void measure(ip_bench *b, int rounds, ip_row row[KINDS])
{
    static double upd[KINDS][SCENES][MAX_ROUNDS], first[KINDS][MAX_ROUNDS],
        later[KINDS][MAX_ROUNDS], frame[KINDS][MAX_ROUNDS], ratio[KINDS][MAX_ROUNDS],
        ratio_off[KINDS][MAX_ROUNDS], cost[KINDS][MAX_ROUNDS], up[KINDS][MAX_ROUNDS];
    bench_rng rng = {0x1e7b1e7bu};
    memset(row, 0, KINDS * sizeof *row);
    (void)upload(b, NULL);
    for (int r = -1; r < rounds; r++) {
        for (int kind = 0; kind < KINDS; kind++) {
            for (int tick = 0; tick < 2; tick++) {
                const bool timed = tick == 1 && r >= 0;
                gather(b, kind, &rng);
                double u[SCENES];
                for (int o = 0; o < SCENES; o++) {
                    const int sc = o ^ (r & 1);
                    write_tick(b, sc);
                    u[sc] = timed_update(b, sc);
                }
                double f_ns[FRAMES];
                uint64_t slots = 0;
                for (int f = 0; f < FRAMES; f++) {
                    const float alpha = alpha_of(f, r < 0 ? 0 : r);
                    const double t0 = bench_now_ns();
                    BENCH_OK(sgrt_scene_interpolate(b->s[S_ON], alpha));
                    f_ns[f] = bench_now_ns() - t0;
                    slots += upload(b, timed ? &row[kind].ranges : NULL);
                }
                if (!timed)
                    continue;
                double later_sum = 0.0;
                for (int f = 1; f < FRAMES; f++)
                    later_sum += f_ns[f];
                const double mean = (f_ns[0] + later_sum) / FRAMES;
                for (int sc = 0; sc < SCENES; sc++)
                    upd[kind][sc][r] = u[sc] / b->n;
                first[kind][r] = f_ns[0] / b->n;
                later[kind][r] = later_sum / (FRAMES - 1) / b->n;
                frame[kind][r] = mean / b->n;
                ratio[kind][r] = mean / u[S_ON];
                ratio_off[kind][r] = mean / u[S_OFF];
                cost[kind][r] = u[S_ON] / u[S_OFF];
                up[kind][r] = (double)slots / FRAMES;
            }
        }
    }
    for (int kind = 0; kind < KINDS; kind++) {
        ip_row *w = &row[kind];
        for (int sc = 0; sc < SCENES; sc++)
            w->update[sc] = bench_median(upd[kind][sc], rounds);
        w->first = bench_median(first[kind], rounds);
        w->later = bench_median(later[kind], rounds);
        w->frame = bench_median(frame[kind], rounds);
        w->ratio = bench_median(ratio[kind], rounds);
        w->ratio_off = bench_median(ratio_off[kind], rounds);
        w->flag_cost = bench_median(cost[kind], rounds);
        w->uploaded = bench_median(up[kind], rounds);
    }
}

/* Largest element difference of two matrices, relative to the largest
 * element of b. */
static double rel_diff(const float *a, const float *b)
{
    double d = 0.0, big = 0.0;
    for (int e = 0; e < 16; e++) {
        d = fmax(d, fabs((double)a[e] - b[e]));
        big = fmax(big, fabs((double)b[e]));
    }
    return d / fmax(big, 1e-30);
}

typedef struct ip_check {
    double alpha0;        /* worst relative difference at alpha 0 */
    uint32_t differ_half; /* live slots whose render world at 0.5 is not the world */
    uint32_t live;
    bool alpha1, worlds, parallel;
    bool still;           /* after a 1 % tick, every slot its update left alone: render = world */
    uint32_t still_slots; /* how many slots that checked */
    double serial_ns, parallel_ns; /* one frame each, all moved, ns per node */
} ip_check;

static bool same_live(const sgrt_scene *s, const float *a, const float *b, uint32_t slots)
{
    for (uint32_t k = 0; k < slots; k++)
        if (sgrt_scene_slot_node(s, k).id != 0 && memcmp(a + 16u * k, b + 16u * k, 64) != 0)
            return false;
    return true;
}

/* After an all-moved tick, a frame at alpha 0.5 (every render world off
 * its world), then a 1 % tick and a frame at alpha 0.5: every slot that
 * tick's update left alone (none of the ranges a tracker collects after
 * it) stopped moving and must show its resting render world, its world,
 * bit for bit. */
static bool still_check(ip_bench *b, uint32_t *out_checked)
{
    sgrt_scene *s = b->s[S_ON];
    sgrt_tracker t;
    *out_checked = 0;
    if (sgrt_scene_interpolate(s, 0.5f) != SGRT_OK || sgrt_tracker_create(s, &t) != SGRT_OK)
        return false;
    (void)upload(b, NULL);
    uint32_t got = 0;
    bool more = true;
    while (more && sgrt_tracker_collect(s, t, b->ranges, RANGES, 0, &got, &more) == SGRT_OK) {
    }
    bench_rng rng = {0x571llu};
    gather(b, K_ONE, &rng);
    write_tick(b, S_ON);
    (void)sgrt_scene_update(s);
    uint32_t slots = 0;
    const float *world = sgrt_scene_world_array(s, &slots);
    uint8_t *moved = calloc(slots ? slots : 1u, 1);
    bool ok = moved != NULL;
    more = true;
    while (ok && more) {
        ok = sgrt_tracker_collect(s, t, b->ranges, RANGES, 0, &got, &more) == SGRT_OK;
        for (uint32_t i = 0; ok && i < got; i++)
            memset(moved + b->ranges[i].first, 1, b->ranges[i].count);
    }
    ok = ok && sgrt_scene_interpolate(s, 0.5f) == SGRT_OK;
    const float *render = sgrt_scene_render_world_array(s, NULL);
    ok = ok && render;
    for (uint32_t k = 0; ok && k < slots; k++)
        if (!moved[k] && sgrt_scene_slot_node(s, k).id != 0) {
            ok = memcmp(render + 16u * k, world + 16u * k, 64) == 0;
            (*out_checked)++;
        }
    (void)upload(b, NULL);
    free(moved);
    BENCH_OK(sgrt_tracker_destroy(s, t));
    return ok;
}

static bool verify(ip_bench *b, ip_check *c)
{
    sgrt_scene *s = b->s[S_ON];
    uint32_t slots = 0, off_slots = 0;
    const float *world = sgrt_scene_world_array(s, &slots);
    float *prev = bench_aligned_alloc(64, (size_t)slots * 64u);
    float *serial = bench_aligned_alloc(64, (size_t)slots * 64u);
    thread_pool pool;
    const bool pooled = pool_start(&pool, WORKERS);
    memset(c, 0, sizeof *c);
    if (!prev || !serial || !pooled) {
        fprintf(stderr, "interpolation: out of memory or threads for the check\n");
        bench_aligned_free(prev);
        bench_aligned_free(serial);
        if (pooled)
            pool_stop(&pool);
        return false;
    }
    memcpy(prev, world, (size_t)slots * 64u);
    bench_rng rng = {0xc4ecu};
    gather(b, K_ALL, &rng);
    for (int sc = 0; sc < SCENES; sc++) {
        write_tick(b, sc);
        (void)sgrt_scene_update(b->s[sc]);
    }
    world = sgrt_scene_world_array(s, &slots);
    const float *off_world = sgrt_scene_world_array(b->s[S_OFF], &off_slots);
    c->worlds = off_slots == slots && same_live(s, world, off_world, slots);
    BENCH_OK(sgrt_scene_interpolate(s, 0.0f));
    const float *render = sgrt_scene_render_world_array(s, NULL);
    for (uint32_t k = 0; render && k < slots; k++)
        if (sgrt_scene_slot_node(s, k).id != 0) {
            const double e = rel_diff(render + 16u * k, prev + 16u * k);
            c->alpha0 = !(e <= c->alpha0) ? e : c->alpha0;
            c->live++;
        }
    double t0 = bench_now_ns();
    BENCH_OK(sgrt_scene_interpolate(s, 0.5f));
    c->serial_ns = (bench_now_ns() - t0) / b->n;
    render = sgrt_scene_render_world_array(s, NULL);
    for (uint32_t k = 0; render && k < slots; k++)
        if (sgrt_scene_slot_node(s, k).id != 0 && memcmp(render + 16u * k, world + 16u * k, 64))
            c->differ_half++;
    if (render)
        memcpy(serial, render, (size_t)slots * 64u);
    /* The same frame again, on the pool: the same bits. Going back to
     * alpha 0 first makes it recompute every slot. */
    BENCH_OK(sgrt_scene_interpolate(s, 0.0f));
    const sgrt_executor ex = pool_executor(&pool);
    t0 = bench_now_ns();
    BENCH_OK(sgrt_scene_interpolate_parallel(s, 0.5f, &ex));
    c->parallel_ns = (bench_now_ns() - t0) / b->n;
    render = sgrt_scene_render_world_array(s, NULL);
    c->parallel = render && same_live(s, render, serial, slots);
    BENCH_OK(sgrt_scene_interpolate(s, 1.0f));
    render = sgrt_scene_render_world_array(s, NULL);
    c->alpha1 = render && same_live(s, render, world, slots);
    (void)upload(b, NULL);
    c->still = still_check(b, &c->still_slots);
    pool_stop(&pool);
    bench_aligned_free(prev);
    bench_aligned_free(serial);
    const char *what = NULL;
    const bool sane = sgrt_scene_check(s, &what) == SGRT_OK;
    /* Rotations from a random pool: the render world at 0.5 equals the
     * world only by accident. */
    const bool moved = c->differ_half >= c->live - c->live / 1000u;
    if (!sane)
        fprintf(stderr, "interpolation: VERIFY FAILED: sgrt_scene_check: %s\n", what ? what : "?");
    if (!c->worlds)
        fprintf(stderr, "interpolation: VERIFY FAILED: the flag changed the worlds\n");
    if (!(c->alpha0 <= 1e-5))
        fprintf(stderr, "interpolation: VERIFY FAILED: alpha 0 is %.3g off the worlds before\n",
                c->alpha0);
    if (!moved)
        fprintf(stderr, "interpolation: VERIFY FAILED: at alpha 0.5 only %u of %u slots moved\n",
                c->differ_half, c->live);
    if (!c->parallel)
        fprintf(stderr, "interpolation: VERIFY FAILED: parallel differs from serial\n");
    if (!c->alpha1)
        fprintf(stderr, "interpolation: VERIFY FAILED: alpha 1 is not the worlds bit for bit\n");
    if (!c->still)
        fprintf(stderr, "interpolation: VERIFY FAILED: after a 1 %% tick a still node's render"
                        " world is not its world\n");
    return sane && c->worlds && c->alpha0 <= 1e-5 && moved && c->parallel && c->alpha1 &&
           c->still;
}

/* A measure beside the targets, with no goal: stated. */
static void info_line(FILE *out, const char *id, const char *what, double value,
                      const char *kernel)
{
    fprintf(out, "%-3s %-58s %7.3f %-7s %-4s  (%s)\n", id, what, value, "stated",
            isnan(value) ? "n/a" : "info", kernel);
}

bool bench_interp_run(FILE *out, bool quick)
{
    const uint32_t n = quick ? 100000u : 1u << 20;
    const int rounds = quick ? 5 : 11;
    const double t_start = bench_now_ns();
    ip_bench b;
    if (!ip_build(&b, n)) {
        fprintf(stderr, "interpolation: cannot build the %u-node tree\n", n);
        ip_free(&b);
        return false;
    }
    const double held[SCENES] = {(double)b.held[S_ON].now / n, (double)b.held[S_OFF].now / n};
    ip_row row[KINDS];
    measure(&b, rounds, row);
    ip_check c;
    const bool ok = verify(&b, &c);
    const char *kernel = sgrt_scene_simd_name(b.s[S_ON]);
    fprintf(out,
            "\nrender interpolation (SGRT_SCENE_INTERPOLATE; %s, TRS locals; each tick written\n"
            "and updated in a scene with the flag and one without, then %d frames of\n"
            "sgrt_scene_interpolate at alphas over (0, 1), each frame's render ranges drained;\n"
            "%d rounds, each kind's second tick timed, warm; kernel %s)\n",
            b.topo.name, FRAMES, rounds, kernel);
    fprintf(out, "%-5s | %9s %9s %7s | %9s %9s %9s | %8s %9s\n", "tick", "upd flag", "upd no",
            "flag/no", "interp 1st", "later", "mean", "int/upd", "uploaded");
    for (int k = 0; k < KINDS; k++) {
        char cell[8][16];
        fprintf(out, "%-5s | %9s %9s %7s | %9s %9s %9s | %8s %9.0f\n", kind_name[k],
                bench_cell(cell[0], row[k].update[S_ON]), bench_cell(cell[1], row[k].update[S_OFF]),
                bench_cell(cell[2], row[k].flag_cost), bench_cell(cell[3], row[k].first),
                bench_cell(cell[4], row[k].later), bench_cell(cell[5], row[k].frame),
                bench_cell(cell[6], row[k].ratio), row[k].uploaded);
    }
    fprintf(out,
            "  ns per node (medians); int/upd: a frame's interpolate (mean of the tick's) / the\n"
            "  tick's update with the flag; uploaded: slots the render ranges named a frame.\n"
            "  memory: %.1f bytes per node held with the flag, %.1f without (+%.1f), grown node\n"
            "  by node, after the first interpolate.\n"
            "  check (every node moved): alpha 0 within %.1e of the worlds before; alpha 0.5 moved\n"
            "  %u of %u slots; alpha 1 the worlds bit for bit: %s; worlds with the flag = without:\n"
            "  %s; sgrt_scene_interpolate_parallel (%d workers) = serial bit for bit: %s (%.2f\n"
            "  against %.2f ns per node, one frame); after a 1 %% tick, the %u slots its update\n"
            "  left alone show their worlds bit for bit: %s\n",
            held[S_ON], held[S_OFF], held[S_ON] - held[S_OFF], c.alpha0, c.differ_half, c.live,
            c.alpha1 ? "yes" : "NO", c.worlds ? "yes" : "NO", WORKERS, c.parallel ? "yes" : "NO",
            c.parallel_ns, c.serial_ns, c.still_slots, c.still ? "yes" : "NO");
    fprintf(out, "targets (render interpolation)\n");
    bench_target_line(out, "I1", "1 % moved: interpolate / the tick's update", row[K_ONE].ratio,
                      1.5, true, kernel);
    bench_target_line(out, "I1*", "  moonshot", row[K_ONE].ratio, 1.0, true, kernel);
    bench_target_line(out, "I2", "all moved: interpolate / the tick's update", row[K_ALL].ratio,
                      2.5, true, kernel);
    bench_target_line(out, "I2*", "  moonshot", row[K_ALL].ratio, 1.5, true, kernel);
    /* What the flag adds to the update is part of what interpolation costs:
     * the same frames against the update without it, and the update with
     * it against without (no goal: stated beside I1 and I2). */
    info_line(out, "I1'", "1 % moved: interpolate / the update without the flag",
              row[K_ONE].ratio_off, kernel);
    info_line(out, "I1'", "1 % moved: update with the flag / without", row[K_ONE].flag_cost,
              kernel);
    info_line(out, "I2'", "all moved: interpolate / the update without the flag",
              row[K_ALL].ratio_off, kernel);
    info_line(out, "I2'", "all moved: update with the flag / without", row[K_ALL].flag_cost,
              kernel);
    bench_target_line(out, "I3", "nothing moved: interpolate per node, ns", row[K_IDLE].frame,
                      0.05, true, kernel);
    bench_target_line(out, "I3", "nothing moved: render ranges collected", (double)row[K_IDLE].ranges,
                      0.0, true, kernel);
    /* I4 has no goal: stated, as the memory table's figures are. */
    info_line(out, "I4", "bytes per node with the flag (grown node by node)",
              quick ? nan("") : held[S_ON], kernel);
    info_line(out, "I4", "  of which the flag's", quick ? nan("") : held[S_ON] - held[S_OFF],
              kernel);
    fprintf(out, "%sinterpolation section: %.1f s\n",
            quick ? "  (I4 is stated at 1M nodes: --interp-only without --quick)\n" : "",
            (bench_now_ns() - t_start) * 1e-9);
    ip_free(&b);
    return ok && bench_refused == 0;
}
