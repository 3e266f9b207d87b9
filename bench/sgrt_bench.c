/* sgrt benchmark: sgrt_scene_update against the naive recursive traversal,
 * the naive traversal with a dirty flag, and the copy floor, measured in one
 * run on the same scenes with the same moves. See docs/performance.md. */
#define _POSIX_C_SOURCE 200809L

#include "internal.h"
#include "naive.h"
#include "scenes.h"
#include "bench_config.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define POOL_SIZE 8192u /* move matrices; > frames per scene, see matrix_for() */
#define MAX_ROWS 64
#define MAX_FILTERS 8

/* ------------------------------------------------------------------------ */
/* Options and results                                                      */
/* ------------------------------------------------------------------------ */

typedef struct options {
    bool quick;
    bool level_order; /* trees numbered level by level instead of depth-first */
    int reps;  /* measured frames, 0 = by scene size */
    const char *csv;
    const char *filter[MAX_FILTERS];
    int filter_count;
} options;

enum frame_kind { FRAME_NONE, FRAME_ONE, FRAME_ALL, FRAME_ANIM, FRAME_KINDS };
static const char *const frame_name[FRAME_KINDS] = {"none", "1%", "all", "anim"};

/* One (scene, frame) of the table; times in ns per scene node, NAN when the
 * measure does not apply. */
typedef struct row {
    char scene[32];
    const char *frame;
    uint32_t nodes;
    uint32_t moved;      /* set_local calls per frame */
    uint32_t recomputed; /* median of what sgrt_scene_update returned */
    double set;          /* sgrt_node_set_local calls of the frame */
    double sgrt;         /* sgrt_scene_update, default kernels */
    double scalar;       /* sgrt_scene_update, forced to the C reference kernels */
    double naive, naive_sh, dirty, dirty_sh;
    double naive_set, dirty_set; /* the baselines' own local writes (creation order) */
    double copy;         /* memcpy of n local matrices into n world matrices */
    double chain;        /* world[i] = world[i-1] x local[i] with the default mul */
} row;

typedef struct kernel_row {
    char name[48];
    double batch;   /* ns per independent product, cache-resident */
    double latency; /* ns per product when each waits for the previous */
} kernel_row;

static row rows[MAX_ROWS];
static int row_count;
static kernel_row krows[8];
static int krow_count;
static int verify_failures;
static double verify_max_err;

/* ------------------------------------------------------------------------ */
/* Timing                                                                   */
/* ------------------------------------------------------------------------ */

static double now_ns(void)
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

static double median(const double *v, int n)
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

/* ------------------------------------------------------------------------ */
/* One scene, in all implementations                                        */
/* ------------------------------------------------------------------------ */

typedef struct frame_moves {
    uint32_t lo, hi;      /* range of creation indices, when list is NULL */
    const uint32_t *list; /* random nodes */
    uint32_t count;
} frame_moves;

typedef struct bench_ctx {
    const bench_topo *topo;
    sgrt_scene *s;
    sgrt_node *h;
    naive_tree tc, ts; /* creation order, shuffled heap */
    float (*pool)[16];
    float (*copy_src)[16];
    float (*copy_dst)[16];
    float (*chain_local)[16];
    float (*chain_world)[16];
    uint32_t serial; /* frame number within the scene, see matrix_for() */
} bench_ctx;

/* Every (block, frame) of a scene has its own serial g and node i gets
 * pool[(g + i) % POOL_SIZE]: a node never receives the matrix it already has
 * (while fewer than POOL_SIZE frames run per scene), so every set_local of the
 * benchmark is a real move, and the blocks that replay the same frames stay
 * independent of each other. */
static inline const float *matrix_for(const bench_ctx *c, uint32_t g, uint32_t i)
{
    return c->pool[(g + i) & (POOL_SIZE - 1u)];
}

#define FOR_EACH_MOVE(m, i, body)                                                 \
    do {                                                                          \
        if ((m)->list) {                                                          \
            for (uint32_t k_ = 0; k_ < (m)->count; k_++) {                        \
                const uint32_t i = (m)->list[k_];                                 \
                body;                                                             \
            }                                                                     \
        } else {                                                                  \
            for (uint32_t i = (m)->lo; i < (m)->hi; i++) {                        \
                body;                                                             \
            }                                                                     \
        }                                                                         \
    } while (0)

static void block_sgrt(bench_ctx *c, const frame_moves *fm, int warm, int reps, double *set,
                       double *upd, uint32_t *counts)
{
    for (int f = 0; f < warm + reps; f++) {
        const frame_moves *m = &fm[f];
        const uint32_t g = c->serial++;
        const double t0 = now_ns();
        FOR_EACH_MOVE(m, i, (void)sgrt_node_set_local(c->s, c->h[i], matrix_for(c, g, i)));
        const double t1 = now_ns();
        const uint32_t k = sgrt_scene_update(c->s);
        const double t2 = now_ns();
        if (f >= warm) {
            set[f - warm] = t1 - t0;
            upd[f - warm] = t2 - t1;
            counts[f - warm] = k;
        }
    }
}

static void block_naive(bench_ctx *c, const naive_tree *t, bool dirty, const frame_moves *fm,
                        int warm, int reps, double *set, double *render)
{
    for (int f = 0; f < warm + reps; f++) {
        const frame_moves *m = &fm[f];
        const uint32_t g = c->serial++;
        const double t0 = now_ns();
        if (dirty)
            FOR_EACH_MOVE(m, i, naive_set_local_dirty(t->node[i], matrix_for(c, g, i)));
        else
            FOR_EACH_MOVE(m, i, naive_set_local(t->node[i], matrix_for(c, g, i)));
        const double t1 = now_ns();
        if (dirty)
            naive_render_dirty_all(t);
        else
            naive_render_all(t);
        const double t2 = now_ns();
        if (f >= warm) {
            set[f - warm] = t1 - t0;
            render[f - warm] = t2 - t1;
        }
    }
}

static void block_copy(bench_ctx *c, int warm, int reps, double *out)
{
    const size_t bytes = (size_t)c->topo->n * sizeof *c->copy_src;
    for (int f = 0; f < warm + reps; f++) {
        const double t0 = now_ns();
        memcpy(c->copy_dst, c->copy_src, bytes);
        const double t1 = now_ns();
        if (f >= warm)
            out[f - warm] = t1 - t0;
    }
}

/* The bound of a chain: each product waits for the previous one, through the
 * same mul that the scene's update uses. */
static void block_chain(bench_ctx *c, int warm, int reps, double *out)
{
    const sgrt__kernels *k = sgrt__kernels_default();
    const uint32_t n = c->topo->n;
    for (int f = 0; f < warm + reps; f++) {
        const double t0 = now_ns();
        memcpy(c->chain_world[0], c->chain_local[0], sizeof c->chain_world[0]);
        for (uint32_t i = 1; i < n; i++)
            k->mul(c->chain_world[i - 1], c->chain_local[i], c->chain_world[i]);
        const double t1 = now_ns();
        if (f >= warm)
            out[f - warm] = t1 - t0;
    }
}

static void ctx_free(bench_ctx *c)
{
    sgrt_scene_destroy(c->s);
    free(c->h);
    naive_free(&c->tc);
    naive_free(&c->ts);
    free(c->copy_src);
    free(c->copy_dst);
    free(c->chain_local);
    free(c->chain_world);
}

static bool ctx_build(bench_ctx *c, const bench_topo *t, float (*pool)[16],
                      float (*init)[16])
{
    memset(c, 0, sizeof *c);
    c->topo = t;
    c->pool = pool;
    const uint32_t n = t->n;
    /* Creation-order heap first, while the allocator's free space is one
     * piece, so that it really is laid out in creation order. */
    if (!naive_build(&c->tc, t->parent, n, false, 0) ||
        !naive_build(&c->ts, t->parent, n, true, 0x5eed0001u + n))
        return false;
    sgrt_scene_desc desc = {0};
    desc.initial_capacity = n;
    if (sgrt_scene_create(&desc, &c->s) != SGRT_OK)
        return false;
    c->h = malloc((size_t)n * sizeof *c->h);
    c->copy_src = aligned_alloc(64, (size_t)n * 64);
    c->copy_dst = aligned_alloc(64, (size_t)n * 64);
    if (!c->h || !c->copy_src || !c->copy_dst)
        return false;
    for (uint32_t i = 0; i < n; i++) {
        const sgrt_node parent = t->parent[i] < 0 ? SGRT_NULL_NODE : c->h[t->parent[i]];
        const float *m = init[i & (POOL_SIZE - 1u)];
        if (sgrt_node_create(c->s, parent, &c->h[i]) != SGRT_OK ||
            sgrt_node_set_local(c->s, c->h[i], m) != SGRT_OK)
            return false;
        naive_set_local_dirty(c->tc.node[i], m);
        naive_set_local_dirty(c->ts.node[i], m);
        memcpy(c->copy_src[i], m, 64);
    }
    memset(c->copy_dst, 0, (size_t)n * 64);
    if (sgrt_scene_update(c->s) != n)
        fprintf(stderr, "warning: first update of %s did not recompute every node\n", t->name);
    naive_render_dirty_all(&c->tc);
    naive_render_dirty_all(&c->ts);
    if (t->anim_first == n && t->max_depth == n - 1) { /* chain */
        c->chain_local = aligned_alloc(64, (size_t)n * 64);
        c->chain_world = aligned_alloc(64, (size_t)n * 64);
        if (!c->chain_local || !c->chain_world)
            return false;
        memcpy(c->chain_local, c->copy_src, (size_t)n * 64);
    }
    return true;
}

/* One last frame that moves everything, applied to all implementations; then
 * the world matrices must agree. The two naive heaps run the same code and
 * must match exactly; sgrt sums each element pairwise, (a0b0 + a1b1) +
 * (a2b2 + a3b3), where the naive loop sums left to right, so those two agree
 * to rounding, which accumulates along deep hierarchies. Returns the number
 * of nodes that disagree; *max_err receives the largest difference relative
 * to max(1, |value|). */
static uint32_t verify(bench_ctx *c, double *max_err)
{
    const bench_topo *t = c->topo;
    const uint32_t g = c->serial++;
    for (uint32_t i = 0; i < t->n; i++) {
        (void)sgrt_node_set_local(c->s, c->h[i], matrix_for(c, g, i));
        naive_set_local(c->tc.node[i], matrix_for(c, g, i));
        naive_set_local_dirty(c->ts.node[i], matrix_for(c, g, i));
    }
    sgrt_scene_update(c->s);
    naive_render_all(&c->tc);
    naive_render_dirty_all(&c->ts);
    uint32_t bad = 0;
    double worst = 0;
    for (uint32_t i = 0; i < t->n; i++) {
        float w[16];
        if (sgrt_node_world(c->s, c->h[i], w) != SGRT_OK ||
            memcmp(c->tc.node[i]->world, c->ts.node[i]->world, sizeof w) != 0) {
            bad++;
            continue;
        }
        bool ok = true;
        for (int k = 0; k < 16; k++) {
            const double x = w[k], y = c->tc.node[i]->world[k];
            const double e = fabs(x - y) / fmax(1.0, fmax(fabs(x), fabs(y)));
            if (!(e <= 1e-3))
                ok = false;
            else if (e > worst)
                worst = e;
        }
        bad += !ok;
    }
    const char *what = NULL;
    if (sgrt_scene_check(c->s, &what) != SGRT_OK) {
        fprintf(stderr, "%s: sgrt_scene_check: %s\n", t->name, what ? what : "?");
        bad++;
    }
    *max_err = worst;
    return bad;
}

static void frames_for(const bench_topo *t, int kind, int frames, bench_rng *rng,
                       frame_moves *fm, uint32_t *lists)
{
    const uint32_t one = t->n / 100 ? t->n / 100 : 1;
    for (int f = 0; f < frames; f++) {
        frame_moves *m = &fm[f];
        memset(m, 0, sizeof *m);
        switch (kind) {
        case FRAME_NONE:
            break;
        case FRAME_ONE:
            m->list = lists + (size_t)f * one;
            m->count = one;
            for (uint32_t k = 0; k < one; k++)
                lists[(size_t)f * one + k] = bench_rng_below(rng, t->n);
            break;
        case FRAME_ALL:
            m->hi = t->n;
            break;
        default:
            m->lo = t->anim_first;
            m->hi = t->n;
            break;
        }
    }
}

static uint32_t moves_per_frame(const frame_moves *m)
{
    return m->list ? m->count : m->hi - m->lo;
}

/* Measured frames are split into rounds; each round runs every
 * implementation once (warm-up frames, then its share of measured frames), so
 * that a slow spell of a shared machine lands on all of them alike. */
static void reps_for(const options *o, uint32_t n, int *warm, int *rounds, int *per_round)
{
    int reps;
    if (o->quick)
        reps = n <= 4096 ? 60 : n <= 100000 ? 12 : 8;
    else
        reps = n <= 4096 ? 300 : n <= 100000 ? 60 : n <= 300000 ? 30 : 21;
    if (o->reps > 0)
        reps = o->reps;
    *rounds = reps >= 6 ? 3 : 1;
    *per_round = (reps + *rounds - 1) / *rounds;
    *warm = n <= 4096 ? 5 : 2;
}

static bool run_scene(const options *o, const bench_topo *t, float (*pool)[16],
                      float (*init)[16])
{
    bench_ctx c;
    const double tb = now_ns();
    fprintf(stderr, "%-10s %8u nodes, depth %5u: building...", t->name, t->n, t->max_depth);
    fflush(stderr);
    if (!ctx_build(&c, t, pool, init)) {
        fprintf(stderr, " out of memory\n");
        ctx_free(&c);
        return false;
    }
    int warm, rounds, pr;
    reps_for(o, t->n, &warm, &rounds, &pr);
    const int reps = rounds * pr, frames = warm + pr;
    fprintf(stderr, " %.1f s; measuring %d x %d frames x %d kinds...", (now_ns() - tb) * 1e-9,
            rounds, pr, t->anim_first < t->n ? 4 : 3);
    fflush(stderr);
    const double tm = now_ns();

    const uint32_t one = t->n / 100 ? t->n / 100 : 1;
    frame_moves *fm = malloc((size_t)rounds * (size_t)frames * sizeof *fm);
    uint32_t *lists = malloc((size_t)rounds * (size_t)frames * one * sizeof *lists);
    enum { SET, SGRT, SCALAR, NAIVE_SET, NAIVE, NAIVE_SH, DIRTY_SET, DIRTY, DIRTY_SH, COPY, CHAIN,
           SERIES };
    double *sample[SERIES] = {0};
    bool ok = fm && lists;
    for (int k = 0; k < SERIES; k++)
        ok &= (sample[k] = malloc((size_t)reps * sizeof(double))) != NULL;
    uint32_t *cnt = malloc((size_t)reps * sizeof *cnt);
    double *scratch = malloc((size_t)pr * sizeof *scratch);
    uint32_t *cscratch = malloc((size_t)pr * sizeof *cscratch);
    if (!ok || !cnt || !scratch || !cscratch) {
        fprintf(stderr, " out of memory\n");
        free(fm), free(lists), free(cnt), free(scratch), free(cscratch);
        for (int k = 0; k < SERIES; k++)
            free(sample[k]);
        ctx_free(&c);
        return false;
    }
    bench_rng rng = {0xf00du + t->n};
    const double n = t->n;
    for (int kind = 0; kind < FRAME_KINDS; kind++) {
        if (kind == FRAME_ANIM && t->anim_first == t->n)
            continue;
        if (row_count == MAX_ROWS)
            break;
        /* Fresh random moves for every frame of every round. */
        frames_for(t, kind, rounds * frames, &rng, fm, lists);
        row *r = &rows[row_count++];
        memset(r, 0, sizeof *r);
        snprintf(r->scene, sizeof r->scene, "%s", t->name);
        r->frame = frame_name[kind];
        r->nodes = t->n;
        r->moved = moves_per_frame(&fm[0]);

        for (int round = 0; round < rounds; round++) {
            const frame_moves *rf = fm + (size_t)round * (size_t)frames;
            const size_t at = (size_t)round * (size_t)pr;
            block_sgrt(&c, rf, warm, pr, sample[SET] + at, sample[SGRT] + at, cnt + at);
            sgrt__scene_use_kernels(c.s, &sgrt__kernels_ref);
            block_sgrt(&c, rf, warm, pr, scratch, sample[SCALAR] + at, cscratch);
            sgrt__scene_use_kernels(c.s, sgrt__kernels_default());
            block_naive(&c, &c.tc, false, rf, warm, pr, sample[NAIVE_SET] + at,
                        sample[NAIVE] + at);
            block_naive(&c, &c.ts, false, rf, warm, pr, scratch, sample[NAIVE_SH] + at);
            block_naive(&c, &c.tc, true, rf, warm, pr, sample[DIRTY_SET] + at,
                        sample[DIRTY] + at);
            block_naive(&c, &c.ts, true, rf, warm, pr, scratch, sample[DIRTY_SH] + at);
            block_copy(&c, warm, pr, sample[COPY] + at);
            if (c.chain_local)
                block_chain(&c, warm, pr, sample[CHAIN] + at);
        }
        r->set = median(sample[SET], reps) / n;
        r->sgrt = median(sample[SGRT], reps) / n;
        r->scalar = median(sample[SCALAR], reps) / n;
        r->naive_set = median(sample[NAIVE_SET], reps) / n;
        r->naive = median(sample[NAIVE], reps) / n;
        r->naive_sh = median(sample[NAIVE_SH], reps) / n;
        r->dirty_set = median(sample[DIRTY_SET], reps) / n;
        r->dirty = median(sample[DIRTY], reps) / n;
        r->dirty_sh = median(sample[DIRTY_SH], reps) / n;
        r->copy = median(sample[COPY], reps) / n;
        r->chain = c.chain_local ? median(sample[CHAIN], reps) / n : NAN;
        qsort(cnt, (size_t)reps, sizeof *cnt, cmp_u32);
        r->recomputed = cnt[reps / 2];
    }
    double err = 0;
    const uint32_t bad = verify(&c, &err);
    if (err > verify_max_err)
        verify_max_err = err;
    if (bad) {
        fprintf(stderr, "\n%s: VERIFY FAILED: %u of %u world matrices differ\n", t->name, bad,
                t->n);
        verify_failures++;
    }
    fprintf(stderr, " %.1f s\n", (now_ns() - tm) * 1e-9);
    free(fm), free(lists), free(cnt), free(scratch), free(cscratch);
    for (int k = 0; k < SERIES; k++)
        free(sample[k]);
    ctx_free(&c);
    return true;
}

/* ------------------------------------------------------------------------ */
/* Kernels alone                                                            */
/* ------------------------------------------------------------------------ */

#define KBATCH 64 /* 3 x 64 matrices = 12 KiB: stays in L1 */
#define KINNER 200
#define KSAMPLES 31

typedef void (*batch_fn)(const float (*a)[16], const float (*b)[16], float (*out)[16], uint32_t n);
typedef void (*mul_fn)(const float *a, const float *b, float *out);

static void naive_batch(const float (*a)[16], const float (*b)[16], float (*out)[16], uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        naive_mul(a[i], b[i], out[i]);
}

static void naive_mul_fn(const float *a, const float *b, float *out) { naive_mul(a, b, out); }

typedef struct kernel_impl {
    const char *name;
    batch_fn batch;
    mul_fn mul;
} kernel_impl;

/* Samples alternate between the kernels, so that a slow spell of a shared
 * machine does not land on one of them only. */
static void bench_kernels(const kernel_impl *impl, int count, float (*pool)[16])
{
    /* Inputs and output in one block at fixed distances: a store to out[i]
     * never shares its address bits below 4 KiB with a load that soon
     * follows it (a[i + 1], b[i + 1]), so no false store-to-load dependency
     * depends on where the allocator happened to put the buffers. */
    float (*block)[16] = aligned_alloc(4096, 4 * 4096);
    double(*bs)[KSAMPLES] = calloc((size_t)count, sizeof *bs);
    double(*ls)[KSAMPLES] = calloc((size_t)count, sizeof *ls);
    if (!block || !bs || !ls || krow_count + count > (int)(sizeof krows / sizeof krows[0])) {
        free(block), free(bs), free(ls);
        return;
    }
    float(*const in_a)[16] = block;       /* byte offset 0: 0 mod 4 KiB */
    float(*const in_b)[16] = block + 80;  /* 5 KiB: 1 KiB mod 4 KiB */
    float(*const out)[16] = block + 160;  /* 10 KiB: 2 KiB mod 4 KiB, ends at 14 KiB */
    memcpy(in_a, pool, KBATCH * 64);
    memcpy(in_b, pool + KBATCH, KBATCH * 64);
    const float(*a)[16] = (const float(*)[16])in_a;
    const float(*b)[16] = (const float(*)[16])in_b;
    for (int rep = -3; rep < KSAMPLES; rep++) {
        for (int k = 0; k < count; k++) {
            double t0 = now_ns();
            for (int j = 0; j < KINNER; j++)
                impl[k].batch(a, b, out, KBATCH);
            double t1 = now_ns();
            if (rep >= 0)
                bs[k][rep] = (t1 - t0) / (KINNER * KBATCH);
            memcpy(out[0], pool[0], 64);
            t0 = now_ns();
            for (int j = 0; j < KINNER * KBATCH; j++)
                impl[k].mul(out[j & 1], b[j & (KBATCH - 1)], out[(j & 1) ^ 1]);
            t1 = now_ns();
            if (rep >= 0)
                ls[k][rep] = (t1 - t0) / (KINNER * KBATCH);
        }
    }
    for (int k = 0; k < count; k++) {
        kernel_row *r = &krows[krow_count++];
        snprintf(r->name, sizeof r->name, "%s", impl[k].name);
        r->batch = median(bs[k], KSAMPLES);
        r->latency = median(ls[k], KSAMPLES);
    }
    free(block), free(bs), free(ls);
}

/* Row 0 is the C reference, row 1 the 4-wide SIMDe kernel (T7), then any
 * wider kernel the build has and the CPU runs, then the baseline's multiply. */
static void run_kernels(float (*pool)[16])
{
    const sgrt__kernels *k[8];
    kernel_impl impl[9];
    const uint32_t nk = sgrt__kernels_available(k, 8);
    for (uint32_t i = 0; i < nk; i++)
        impl[i] = (kernel_impl){k[i]->name, k[i]->mul_batch, k[i]->mul};
    impl[nk] = (kernel_impl){"naive_mul (baseline, plain C)", naive_batch, naive_mul_fn};
    fprintf(stderr, "kernels: measuring...");
    fflush(stderr);
    bench_kernels(impl, (int)nk + 1, pool);
    fprintf(stderr, " done\n");
}

/* ------------------------------------------------------------------------ */
/* Reporting                                                                */
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

static void cpu_string(char *buf, size_t size)
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
static char load_start[64], load_end[64];

static void read_load(char *buf, size_t size)
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

static void print_build(FILE *out, const char *pfx, const options *o)
{
    char cpu[128], comp[128];
    cpu_string(cpu, sizeof cpu);
    snprintf(comp, sizeof comp, "%s", compiler_string());
    for (size_t len = strlen(comp); len && comp[len - 1] == ' '; len--)
        comp[len - 1] = 0; /* __clang_version__ ends in a space */
    fprintf(out, "%scompiler : %s\n", pfx, comp);
    fprintf(out, "%sflags    : buildtype=%s optimization=%s; project args: %s; c_args: %s\n", pfx,
            SGRT_BENCH_BUILDTYPE, SGRT_BENCH_OPTIMIZATION, SGRT_BENCH_FP_ARGS,
            SGRT_BENCH_C_ARGS[0] ? SGRT_BENCH_C_ARGS : "(none)");
    fprintf(out, "%smacros   :%s\n", pfx, isa_macros());
    fprintf(out, "%ssimd     : %s (sgrt_simd_name; -Dsimd=%s); 'scalar' column: C reference kernels\n",
            pfx, sgrt_simd_name(), SGRT_BENCH_SIMD_OPTION);
    fprintf(out, "%smachine  : %s, %ld CPUs online; load average %s at start, %s at end\n", pfx,
            cpu, sysconf(_SC_NPROCESSORS_ONLN), load_start, load_end);
    fprintf(out, "%snaive    : heap node per object, child-pointer array, recursive render(parent_world);\n"
                 "%s           multiply = plain C 4x4 loop at the project's flags (naive.c)\n",
            pfx, pfx);
    fprintf(out, "%sorder    : trees created %s; naive, dirty = nodes malloc'd in creation\n"
                 "%s           order, each with its child array; -sh = the same allocations in a shuffled\n"
                 "%s           order, a live 16..256 B dummy after each node; sgrt slots = creation order\n",
            pfx, o->level_order ? "level by level (--order bfs)" : "depth-first (pre-order)", pfx,
            pfx);
    fprintf(out, "%stiming   : CLOCK_MONOTONIC, median of measured frames after warm-up, ns per scene node\n",
            pfx);
}

/* Fixed-width cell: enough digits to read ratios far below 1 and far above. */
static const char *cell(char *buf, double v)
{
    if (isnan(v))
        snprintf(buf, 16, "-");
    else if (v < 0.01)
        snprintf(buf, 16, "%.5f", v);
    else if (v < 10)
        snprintf(buf, 16, "%.3f", v);
    else if (v < 1000)
        snprintf(buf, 16, "%.1f", v);
    else
        snprintf(buf, 16, "%.0f", v);
    return buf;
}

static const row *find_row(const char *scene, const char *frame)
{
    for (int i = 0; i < row_count; i++)
        if (strcmp(rows[i].scene, scene) == 0 && strcmp(rows[i].frame, frame) == 0)
            return &rows[i];
    return NULL;
}

typedef struct target {
    const char *id, *what, *scene, *frame;
    bool at_most; /* value <= goal passes; else value >= goal */
    double goal;
    double value, value_with_set; /* NAN when not measured */
} target;

static int build_targets(target *tg)
{
    int n = 0;
    const row *r;
#define TGT(ID, WHAT, SC, FR, LE, GOAL, EXPR, EXPR_SET)                                   \
    do {                                                                                  \
        target *t_ = &tg[n++];                                                            \
        *t_ = (target){ID, WHAT, SC, FR, LE, GOAL, NAN, NAN};                             \
        if ((r = find_row(SC, FR)) != NULL) {                                             \
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
    /* T7 from the kernel table: reference C vs SIMDe, independent products. */
    target *t7 = &tg[n++];
    *t7 = (target){"T7", "C reference / SIMDe 4-wide", "kernel", "batch", false, 2.2, NAN, NAN};
    if (krow_count >= 2)
        t7->value = krows[0].batch / krows[1].batch;
    /* Wider kernels are reported, not judged. */
    for (int i = 2; i + 1 < krow_count; i++) {
        target *t = &tg[n++];
        *t = (target){"T7", "C reference / this kernel", krows[i].name, "batch", false, NAN,
                      krows[0].batch / krows[i].batch, NAN};
    }
    return n;
}

static const char *verdict(const target *t)
{
    if (isnan(t->value))
        return "n/a";
    if (isnan(t->goal))
        return "info";
    return (t->at_most ? t->value <= t->goal : t->value >= t->goal) ? "PASS" : "MISS";
}

static void print_tables(const options *o)
{
    char b[12][16];
    printf("\nsgrt benchmark (%s run)\n", o->quick ? "quick" : "full");
    print_build(stdout, "", o);

    printf("\nns per scene node (median)\n");
    printf("%-10s %-5s %8s %8s %8s | %8s %8s %8s | %8s %8s %8s %8s | %8s %8s\n", "scene", "frame",
           "nodes", "moved", "recomp", "set", "sgrt", "scalar", "naive", "naive-sh", "dirty",
           "dirty-sh", "copy", "chain");
    for (int i = 0; i < row_count; i++) {
        const row *r = &rows[i];
        printf("%-10s %-5s %8u %8u %8u | %8s %8s %8s | %8s %8s %8s %8s | %8s %8s\n", r->scene,
               r->frame, r->nodes, r->moved, r->recomputed, cell(b[0], r->set), cell(b[1], r->sgrt),
               cell(b[2], r->scalar), cell(b[3], r->naive), cell(b[4], r->naive_sh),
               cell(b[5], r->dirty), cell(b[6], r->dirty_sh), cell(b[7], r->copy),
               cell(b[8], r->chain));
    }
    printf("  set: sgrt_node_set_local calls of the frame (not in 'sgrt'); sgrt: sgrt_scene_update;\n"
           "  scalar: the same update forced to the C reference kernels; naive/dirty: render() only;\n"
           "  copy: memcpy of n local matrices to n world matrices; chain: dependent multiplies.\n");

    printf("\nratios (x = times; >1 means sgrt update is faster)\n");
    printf("%-10s %-5s | %9s %9s %9s %9s | %9s %9s %9s | %9s\n", "scene", "frame", "naive",
           "naive-sh", "dirty", "dirty-sh", "sgrt/copy", "scalar", "sgrt/chn", "+set:dirty");
    for (int i = 0; i < row_count; i++) {
        const row *r = &rows[i];
        printf("%-10s %-5s | %9s %9s %9s %9s | %9s %9s %9s | %9s\n", r->scene, r->frame,
               cell(b[0], r->naive / r->sgrt), cell(b[1], r->naive_sh / r->sgrt),
               cell(b[2], r->dirty / r->sgrt), cell(b[3], r->dirty_sh / r->sgrt),
               cell(b[4], r->sgrt / r->copy), cell(b[5], r->scalar / r->sgrt),
               cell(b[6], r->sgrt / r->chain),
               cell(b[7], (r->dirty + r->dirty_set) / (r->sgrt + r->set)));
    }
    printf("  naive..dirty-sh, scalar: baseline time / sgrt update time. sgrt/copy, sgrt/chn: sgrt\n"
           "  update time / floor. +set:dirty: (dirty set + render) / (sgrt set_local + update).\n");

    printf("\nkernels (cache-resident, ns per 4x4 product)\n");
    printf("%-32s %10s %10s %10s\n", "kernel", "batch", "dependent", "ref/this");
    for (int i = 0; i < krow_count; i++)
        printf("%-32s %10s %10s %9sx%s\n", krows[i].name, cell(b[0], krows[i].batch),
               cell(b[1], krows[i].latency), cell(b[2], krows[0].batch / krows[i].batch),
               strcmp(krows[i].name, sgrt_simd_name()) == 0 ? "  (default: sgrt, chain)" : "");
    printf("  batch: %d independent products a[i] x b[i], 12 KiB; dependent: each product is the\n"
           "  next one's parent, through mul() and memory (the chain column's bound)\n", KBATCH);

    target tg[16];
    const int nt = build_targets(tg);
    printf("\ntargets (reporting only; ratios from this run)\n");
    printf("%-3s %-10s %-5s %-30s %10s %8s  %-6s %s\n", "#", "scene", "frame", "measure", "value",
           "goal", "result", "incl. set_local");
    for (int i = 0; i < nt; i++) {
        char goal[24];
        if (isnan(tg[i].goal))
            snprintf(goal, sizeof goal, "-");
        else
            snprintf(goal, sizeof goal, "%s%g", tg[i].at_most ? "<=" : ">=", tg[i].goal);
        printf("%-3s %-10s %-5s %-30s %9sx %8s  %-6s %s%s\n", tg[i].id, tg[i].scene, tg[i].frame,
               tg[i].what, cell(b[0], tg[i].value), goal, verdict(&tg[i]),
               isnan(tg[i].value_with_set) ? "" : cell(b[1], tg[i].value_with_set),
               isnan(tg[i].value_with_set) ? "" : "x");
    }
    if (verify_failures)
        printf("\nVERIFY FAILED in %d scene(s): sgrt and the naive baselines disagree\n",
               verify_failures);
    else
        printf("\nverify: every world matrix agrees: naive heaps bit for bit, sgrt vs naive within\n"
               "        %.2g relative (summation order differs)\n",
               verify_max_err);
}

static bool write_csv(const char *path, const options *o)
{
    FILE *f = fopen(path, "w");
    char b[12][16];
    if (!f)
        return false;
    print_build(f, "# ", o);
    fprintf(f, "# block 0: ns per scene node; block 1: kernels, ns per product; block 2: targets\n");
    fprintf(f, "scene,frame,nodes,moved,recomputed,sgrt_set,sgrt,sgrt_scalar,naive,naive_shuffled,"
               "dirty,dirty_shuffled,naive_set,dirty_set,copy,chain,naive_x,naive_shuffled_x,"
               "dirty_x,dirty_shuffled_x,sgrt_per_copy,scalar_x,sgrt_per_chain\n");
    for (int i = 0; i < row_count; i++) {
        const row *r = &rows[i];
        fprintf(f, "%s,%s,%u,%u,%u", r->scene, r->frame, r->nodes, r->moved, r->recomputed);
        const double v[] = {r->set, r->sgrt, r->scalar, r->naive, r->naive_sh, r->dirty,
                            r->dirty_sh, r->naive_set, r->dirty_set, r->copy, r->chain,
                            r->naive / r->sgrt, r->naive_sh / r->sgrt, r->dirty / r->sgrt,
                            r->dirty_sh / r->sgrt, r->sgrt / r->copy, r->scalar / r->sgrt,
                            r->sgrt / r->chain};
        for (size_t k = 0; k < sizeof v / sizeof v[0]; k++) {
            if (isnan(v[k]))
                fprintf(f, ",");
            else
                fprintf(f, ",%.6g", v[k]);
        }
        fprintf(f, "\n");
    }
    fprintf(f, "\n\nkernel,batch_ns,dependent_ns,ref_per_this\n");
    for (int i = 0; i < krow_count; i++)
        fprintf(f, "%s,%.6g,%.6g,%.6g\n", krows[i].name, krows[i].batch, krows[i].latency,
                krows[0].batch / krows[i].batch);
    target tg[16];
    const int nt = build_targets(tg);
    fprintf(f, "\n\ntarget,scene,frame,measure,value,goal,result,value_incl_set\n");
    for (int i = 0; i < nt; i++)
        fprintf(f, "%s,%s,%s,%s,%s,%s%g,%s,%s\n", tg[i].id, tg[i].scene, tg[i].frame, tg[i].what,
                isnan(tg[i].value) ? "" : cell(b[0], tg[i].value), tg[i].at_most ? "<=" : ">=",
                tg[i].goal, verdict(&tg[i]),
                isnan(tg[i].value_with_set) ? "" : cell(b[1], tg[i].value_with_set));
    return fclose(f) == 0;
}

/* ------------------------------------------------------------------------ */
/* Driver                                                                   */
/* ------------------------------------------------------------------------ */

static bool wanted(const options *o, const char *name)
{
    if (o->filter_count == 0)
        return true;
    for (int i = 0; i < o->filter_count; i++)
        if (strstr(name, o->filter[i]))
            return true;
    return false;
}

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

static int status;

static void *bench_main(void *arg)
{
    const options *o = arg;
    const double t0 = now_ns();
    read_load(load_start, sizeof load_start);
    float (*pool)[16] = bench_mat_pool(POOL_SIZE, 0x900du);
    float (*init)[16] = bench_mat_pool(POOL_SIZE, 0x1417u);
    if (!pool || !init) {
        fprintf(stderr, "out of memory\n");
        status = 1;
        return NULL;
    }
    run_kernels(pool);
    const scene_spec *specs = o->quick ? quick_scenes : full_scenes;
    const size_t nspecs = o->quick ? sizeof quick_scenes / sizeof quick_scenes[0]
                                   : sizeof full_scenes / sizeof full_scenes[0];
    for (size_t i = 0; i < nspecs; i++) {
        const scene_spec *sp = &specs[i];
        bench_topo t;
        bool ok = sp->shape == 0   ? bench_topo_tree4(&t, sp->n, o->level_order)
                  : sp->shape == 1 ? bench_topo_chain(&t, sp->n)
                                   : bench_topo_game(&t, sp->zones, sp->clusters, sp->props,
                                                     sp->characters, 0x9a3eu);
        if (!ok) {
            fprintf(stderr, "out of memory\n");
            status = 1;
            break;
        }
        if (wanted(o, t.name) && !run_scene(o, &t, pool, init))
            status = 1;
        bench_topo_free(&t);
    }
    read_load(load_end, sizeof load_end);
    print_tables(o);
    printf("total time: %.1f s\n", (now_ns() - t0) * 1e-9);
    if (o->csv && !write_csv(o->csv, o)) {
        fprintf(stderr, "cannot write %s\n", o->csv);
        status = 1;
    }
    if (verify_failures)
        status = 1;
    bench_mat_pool_free(pool);
    bench_mat_pool_free(init);
    return NULL;
}

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
            "sgrt and every baseline in one run; the table ends with the targets T1..T8.\n",
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
    pthread_attr_t attr;
    pthread_t th;
    if (pthread_attr_init(&attr) != 0 || pthread_attr_setstacksize(&attr, (size_t)256 << 20) != 0 ||
        pthread_create(&th, &attr, bench_main, &o) != 0) {
        fprintf(stderr, "cannot start the benchmark thread\n");
        return 1;
    }
    pthread_join(th, NULL);
    pthread_attr_destroy(&attr);
    return status;
}
