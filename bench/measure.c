/* SPDX-License-Identifier: MIT */
/* One scene in every implementation, timed frame by frame (measure.h):
 * building the scenes, the frames' moves, one timed block per
 * implementation, the rounds that interleave them, the scaling report's
 * per-task timings, and the final check that all of them computed the same
 * world matrices. A frame is the writes plus the update; each block times
 * the two separately. */
#include "measure.h"

#include <sgrt.h>

#include "naive.h"
#include "platform.h"
#include "timing.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum frame_kind {
    FRAME_NONE,
    FRAME_ONE,
    FRAME_ALL,
    FRAME_ANIM,
    FRAME_TRS10,
    FRAME_TRS50,
    FRAME_TRS100,
    FRAME_KINDS
};
static const char *const frame_name[FRAME_KINDS] = {"none",  "1%",    "all",   "anim",
                                                    "trs10", "trs50", "trs100"};

/* The chain bound is timed on a chain of this many nodes of its own:
 * sgrt_node_world_now walks to the root, then multiplies down from the
 * topmost moved node in one pass when the chain is at most this long. */
#define CHAIN_TAIL 256u

typedef struct frame_moves {
    uint32_t lo, hi;      /* range of creation indices, when list is NULL */
    const uint32_t *list; /* random nodes */
    uint32_t count;
} frame_moves;

typedef struct bench_ctx {
    const bench_topo *topo;
    sgrt_scene *s;      /* default options: the kernel sgrt_simd_name() names */
    sgrt_scene *scalar; /* built the same way, desc.max_simd = SGRT_SIMD_SCALAR */
    sgrt_node *h, *hs;  /* their nodes, by creation index */
    naive_tree tc, ts;  /* creation order, shuffled heap */
    float (*pool)[16];
    const bench_trs_pool *trs;
    float (*copy_src)[16];
    float (*copy_dst)[16];
    /* What an animation system hands to the batch writers: one frame's
     * nodes and inputs in contiguous arrays, filled outside the clock. */
    sgrt_node *b_nodes;
    float (*b_local)[16];
    float (*b_t)[3], (*b_q)[4], (*b_s)[3];
    /* The write floor's destination: a local matrix per node, a bit per node. */
    float (*wf_local)[16];
    uint32_t *wf_bits;
    /* The TRS frames' animated nodes: 10 % and 50 % of the scene, chosen at
     * random once, in creation order (100 % is every node). */
    uint32_t *anim10, *anim50;
    uint32_t anim10_count, anim50_count;
    bool chain;
    const sgrt_executor *ex; /* the benchmark's thread pool ('par') */
    sgrt_scene *chain_s;          /* chains: a CHAIN_TAIL-node chain for the bound */
    sgrt_node chain_h[CHAIN_TAIL];
    uint32_t serial;        /* frame number within the scene, see matrix_for() */
    uint32_t write_errors;  /* writes sgrt refused (none should be) */
} bench_ctx;

/* Every (block, frame) of a scene has its own serial g and node i gets
 * pool[(g + i) % BENCH_POOL_SIZE]: a node never receives the matrix it
 * already has (its previous write is always fewer than BENCH_POOL_SIZE
 * serials back: the 1 % frames of a scene span fewer serials than that, and
 * the all frames that follow rewrite every node), so every set_local of the
 * benchmark is a real move, and the blocks that replay the same frames stay
 * independent of each other. */
static inline const float *matrix_for(const bench_ctx *c, uint32_t g, uint32_t i)
{
    return c->pool[(g + i) & (BENCH_POOL_SIZE - 1u)];
}

/* The same rule for TRS inputs, an index into c->trs (the TRS frames of a
 * scene span fewer than BENCH_POOL_SIZE serials; a TRS matrix, its scales
 * not 1, never equals a pool matrix). */
static inline uint32_t trs_for(uint32_t g, uint32_t i)
{
    return (g + i) & (BENCH_POOL_SIZE - 1u);
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

/* ------------------------------------------------------------------------ */
/* Timed blocks: warm-up frames, then reps measured ones                    */
/* ------------------------------------------------------------------------ */

static void block_sgrt(bench_ctx *c, sgrt_scene *s, const sgrt_node *h, const frame_moves *fm,
                       int warm, int reps, double *set, double *upd, uint32_t *counts)
{
    for (int f = 0; f < warm + reps; f++) {
        const frame_moves *m = &fm[f];
        const uint32_t g = c->serial++;
        const double t0 = bench_now_ns();
        FOR_EACH_MOVE(m, i, BENCH_OK(sgrt_node_set_local(s, h[i], matrix_for(c, g, i))));
        const double t1 = bench_now_ns();
        const uint32_t k = sgrt_scene_update(s);
        const double t2 = bench_now_ns();
        if (f >= warm) {
            set[f - warm] = t1 - t0;
            upd[f - warm] = t2 - t1;
            counts[f - warm] = k;
        }
    }
}

/* The frame's single writes on the default scene: set_local, or set_trs for
 * a TRS frame. */
static void apply_writes(bench_ctx *c, const frame_moves *m, uint32_t g, bool trs)
{
    const bench_trs_pool *p = c->trs;
    uint32_t bad = 0;
    if (trs)
        FOR_EACH_MOVE(m, i, {
            const uint32_t j = trs_for(g, i);
            bad += sgrt_node_set_trs(c->s, c->h[i], p->t[j], p->q[j], p->s[j]) != SGRT_OK;
        });
    else
        FOR_EACH_MOVE(m, i,
                      bad += sgrt_node_set_local(c->s, c->h[i], matrix_for(c, g, i)) != SGRT_OK);
    c->write_errors += bad;
}

/* The same frames as block_sgrt / block_sgrt_trs, their writes outside the
 * clock, the update through sgrt_scene_update_parallel on the benchmark's
 * executor. Default scene. */
static void block_par(bench_ctx *c, bool trs, const frame_moves *fm, int warm, int reps,
                      double *upd, uint32_t *counts)
{
    for (int f = 0; f < warm + reps; f++) {
        apply_writes(c, &fm[f], c->serial++, trs);
        const double t0 = bench_now_ns();
        const uint32_t k = sgrt_scene_update_parallel(c->s, c->ex);
        const double t1 = bench_now_ns();
        if (f >= warm) {
            upd[f - warm] = t1 - t0;
            counts[f - warm] = k;
        }
    }
}

/* The same frames through one sgrt_nodes_set_local call each. The frame's
 * nodes and matrices are gathered outside the clock. Default scene. */
static void block_batch(bench_ctx *c, const frame_moves *fm, int warm, int reps, double *set,
                        double *upd)
{
    for (int f = 0; f < warm + reps; f++) {
        const frame_moves *m = &fm[f];
        const uint32_t g = c->serial++;
        uint32_t k = 0;
        FOR_EACH_MOVE(m, i, {
            c->b_nodes[k] = c->h[i];
            memcpy(c->b_local[k], matrix_for(c, g, i), sizeof c->b_local[k]);
            k++;
        });
        const double t0 = bench_now_ns();
        const sgrt_result rc = sgrt_nodes_set_local(c->s, k, c->b_nodes,
                                                    c->b_local[0], NULL);
        const double t1 = bench_now_ns();
        (void)sgrt_scene_update(c->s);
        const double t2 = bench_now_ns();
        c->write_errors += rc != SGRT_OK;
        if (f >= warm) {
            set[f - warm] = t1 - t0;
            upd[f - warm] = t2 - t1;
        }
    }
}

/* TRS frames through single sgrt_node_set_trs calls, then the update. */
static void block_sgrt_trs(bench_ctx *c, const frame_moves *fm, int warm, int reps, double *set,
                           double *upd, uint32_t *counts)
{
    const bench_trs_pool *p = c->trs;
    for (int f = 0; f < warm + reps; f++) {
        const frame_moves *m = &fm[f];
        const uint32_t g = c->serial++;
        uint32_t bad = 0;
        const double t0 = bench_now_ns();
        FOR_EACH_MOVE(m, i, {
            const uint32_t j = trs_for(g, i);
            bad += sgrt_node_set_trs(c->s, c->h[i], p->t[j], p->q[j], p->s[j]) != SGRT_OK;
        });
        const double t1 = bench_now_ns();
        const uint32_t k = sgrt_scene_update(c->s);
        const double t2 = bench_now_ns();
        c->write_errors += bad;
        if (f >= warm) {
            set[f - warm] = t1 - t0;
            upd[f - warm] = t2 - t1;
            counts[f - warm] = k;
        }
    }
}

/* TRS frames through one sgrt_nodes_set_trs call, its translation, rotation
 * and scale arrays (structure of arrays) gathered outside the clock. */
static void block_batch_trs(bench_ctx *c, const frame_moves *fm, int warm, int reps, double *set,
                            double *upd)
{
    const bench_trs_pool *p = c->trs;
    for (int f = 0; f < warm + reps; f++) {
        const frame_moves *m = &fm[f];
        const uint32_t g = c->serial++;
        uint32_t k = 0;
        FOR_EACH_MOVE(m, i, {
            const uint32_t j = trs_for(g, i);
            c->b_nodes[k] = c->h[i];
            memcpy(c->b_t[k], p->t[j], sizeof c->b_t[k]);
            memcpy(c->b_q[k], p->q[j], sizeof c->b_q[k]);
            memcpy(c->b_s[k], p->s[j], sizeof c->b_s[k]);
            k++;
        });
        const double t0 = bench_now_ns();
        const sgrt_result rc =
            sgrt_nodes_set_trs(c->s, k, c->b_nodes, c->b_t[0],
                               c->b_q[0], c->b_s[0], NULL);
        const double t1 = bench_now_ns();
        (void)sgrt_scene_update(c->s);
        const double t2 = bench_now_ns();
        c->write_errors += rc != SGRT_OK;
        if (f >= warm) {
            set[f - warm] = t1 - t0;
            upd[f - warm] = t2 - t1;
        }
    }
}

/* The physical floor of the frame's writes: per move, a 64-byte matrix
 * copied into a per-node array and one bit set in a bitfield. The bits are
 * cleared outside the clock, as an update would. */
static void block_wfloor(bench_ctx *c, const frame_moves *fm, int warm, int reps, double *out)
{
    float (*dst)[16] = c->wf_local;
    uint32_t *bits = c->wf_bits;
    const size_t words = ((size_t)c->topo->n + 31) / 32;
    for (int f = 0; f < warm + reps; f++) {
        const frame_moves *m = &fm[f];
        const uint32_t g = c->serial++;
        memset(bits, 0, words * sizeof *bits);
        const double t0 = bench_now_ns();
        FOR_EACH_MOVE(m, i, {
            memcpy(dst[i], matrix_for(c, g, i), sizeof dst[i]);
            bits[i >> 5] |= 1u << (i & 31u);
        });
        const double t1 = bench_now_ns();
        if (f >= warm)
            out[f - warm] = t1 - t0;
    }
}

/* The end of a baseline frame whose writes began at t0: render() (with the
 * dirty flag or without), and the write and render times of a measured frame. */
static void render_frame(const naive_tree *t, bool dirty, int f, int warm, double t0,
                         double *set, double *render)
{
    const double t1 = bench_now_ns();
    if (dirty)
        naive_render_dirty_all(t);
    else
        naive_render_all(t);
    const double t2 = bench_now_ns();
    if (f >= warm) {
        set[f - warm] = t1 - t0;
        render[f - warm] = t2 - t1;
    }
}

static void block_naive(bench_ctx *c, const naive_tree *t, bool dirty, const frame_moves *fm,
                        int warm, int reps, double *set, double *render)
{
    for (int f = 0; f < warm + reps; f++) {
        const frame_moves *m = &fm[f];
        const uint32_t g = c->serial++;
        const double t0 = bench_now_ns();
        if (dirty)
            FOR_EACH_MOVE(m, i, naive_set_local_dirty(t->node[i], matrix_for(c, g, i)));
        else
            FOR_EACH_MOVE(m, i, naive_set_local(t->node[i], matrix_for(c, g, i)));
        render_frame(t, dirty, f, warm, t0, set, render);
    }
}

/* The baselines on TRS frames: each write converts TRS to a matrix on the
 * heap node (naive.c), then render(). */
static void block_naive_trs(bench_ctx *c, const naive_tree *t, bool dirty, const frame_moves *fm,
                            int warm, int reps, double *set, double *render)
{
    const bench_trs_pool *p = c->trs;
    for (int f = 0; f < warm + reps; f++) {
        const frame_moves *m = &fm[f];
        const uint32_t g = c->serial++;
        const double t0 = bench_now_ns();
        if (dirty)
            FOR_EACH_MOVE(m, i, {
                const uint32_t j = trs_for(g, i);
                naive_set_trs_dirty(t->node[i], p->t[j], p->q[j], p->s[j]);
            });
        else
            FOR_EACH_MOVE(m, i, {
                const uint32_t j = trs_for(g, i);
                naive_set_trs(t->node[i], p->t[j], p->q[j], p->s[j]);
            });
        render_frame(t, dirty, f, warm, t0, set, render);
    }
}

static void block_copy(bench_ctx *c, int warm, int reps, double *out)
{
    const size_t bytes = (size_t)c->topo->n * sizeof *c->copy_src;
    for (int f = 0; f < warm + reps; f++) {
        const double t0 = bench_now_ns();
        memcpy(c->copy_dst, c->copy_src, bytes);
        const double t1 = bench_now_ns();
        if (f >= warm)
            out[f - warm] = t1 - t0;
    }
}

/* The bound of a chain: each product waits for the previous one. A chain
 * of CHAIN_TAIL nodes of its own (the scene's default kernel): outside the
 * clock, one real move of its root marks it; sgrt_node_world_now on its
 * deepest node then walks up and multiplies down the whole chain with the
 * scene's kernel, changing nothing, and n / CHAIN_TAIL such calls make one
 * product per node of the measured scene. Each sample is scaled to n
 * products. The update after the block clears the mark. */
static void block_chain(bench_ctx *c, int warm, int reps, double *out)
{
    const uint32_t n = c->topo->n, tail = CHAIN_TAIL;
    const uint32_t calls = (n + tail - 1) / tail;
    const sgrt_node head = c->chain_h[0], last = c->chain_h[tail - 1];
    float w[16];
    for (int f = 0; f < warm + reps; f++) {
        BENCH_OK(sgrt_node_set_local(c->chain_s, head, matrix_for(c, c->serial++, 0)));
        const double t0 = bench_now_ns();
        for (uint32_t k = 0; k < calls; k++)
            BENCH_OK(sgrt_node_world_now(c->chain_s, last, w));
        const double t1 = bench_now_ns();
        if (f >= warm)
            out[f - warm] = (t1 - t0) * n / ((double)calls * tail);
    }
    sgrt_scene_update(c->chain_s);
}

/* ------------------------------------------------------------------------ */
/* Scaling report: the cost of each task of one frame                       */
/* ------------------------------------------------------------------------ */

/* The library hands out at most this many tasks (8 x workers, at most 256). */
#define SCALE_MAX_TASKS 256u
/* Frames timed per P; the row shows the one with the median speed-up. */
#define SCALE_REPS 5

static const uint32_t scale_workers[BENCH_SCALE_PS] = {4, 16, 64};

typedef struct timing_executor {
    uint32_t count;
    double task_ns[SCALE_MAX_TASKS];
} timing_executor;

/* sgrt_executor.run: every task in turn on the calling thread, each timed.
 * What a perfect P-worker pool would do with the same tasks then follows
 * from these times (scale_frame). */
static void timing_run(void *user, uint32_t count, void (*fn)(void *ctx, uint32_t i), void *ctx)
{
    timing_executor *te = user;
    te->count = count;
    for (uint32_t i = 0; i < count; i++) {
        const double t0 = bench_now_ns();
        fn(ctx, i);
        const double t1 = bench_now_ns();
        if (i < SCALE_MAX_TASKS)
            te->task_ns[i] = t1 - t0;
    }
}

/* One pair of frames on the same moves m: the serial update, then the
 * parallel update through the timing executor, its writes outside the
 * clock as in block_par. The parallel one must recompute as many worlds. */
static bench_scale scale_frame(bench_ctx *c, const sgrt_executor *tex, timing_executor *te,
                               const frame_moves *m, uint32_t *mismatch)
{
    bench_scale sc = {0};
    sc.workers = tex->workers;
    apply_writes(c, m, c->serial++, false);
    const double t0 = bench_now_ns();
    const uint32_t ks = sgrt_scene_update(c->s);
    const double t1 = bench_now_ns();
    apply_writes(c, m, c->serial++, false);
    te->count = 0;
    const double t2 = bench_now_ns();
    const uint32_t kp = sgrt_scene_update_parallel(c->s, tex);
    const double t3 = bench_now_ns();
    *mismatch += ks != kp;
    sc.update = t1 - t0;
    sc.total = t3 - t2;
    sc.tasks = te->count;
    for (uint32_t i = 0; i < te->count && i < SCALE_MAX_TASKS; i++) {
        sc.sum += te->task_ns[i];
        if (te->task_ns[i] > sc.largest)
            sc.largest = te->task_ns[i];
    }
    sc.serial = sc.total - sc.sum;
    const double spread = sc.sum / sc.workers;
    sc.predicted = sc.serial + (spread > sc.largest ? spread : sc.largest);
    return sc;
}

/* The scaling report's cells of row r: for each P, one warm-up frame (the
 * library rebuilds its plan for P workers), then SCALE_REPS pairs of frames
 * (scale_frame) on the frames fm of the row's kind; the pair with the
 * median predicted speed-up is kept whole, so that each cell is one frame.
 * Returns the count mismatches. */
static uint32_t scale_row(bench_ctx *c, bench_row *r, const frame_moves *fm, int nframes)
{
    timing_executor te = {0};
    uint32_t mismatch = 0;
    for (int p = 0; p < BENCH_SCALE_PS; p++) {
        const sgrt_executor tex = {timing_run, &te, scale_workers[p]};
        apply_writes(c, &fm[0], c->serial++, false);
        (void)sgrt_scene_update_parallel(c->s, &tex);
        bench_scale rep[SCALE_REPS];
        for (int k = 0; k < SCALE_REPS; k++)
            rep[k] = scale_frame(c, &tex, &te, &fm[(1 + k) % nframes], &mismatch);
        /* Insertion sort by predicted speed-up, then the middle one. */
        for (int k = 1; k < SCALE_REPS; k++)
            for (int j = k; j > 0 && rep[j].update / rep[j].predicted <
                                         rep[j - 1].update / rep[j - 1].predicted; j--) {
                const bench_scale tmp = rep[j];
                rep[j] = rep[j - 1];
                rep[j - 1] = tmp;
            }
        r->scale[p] = rep[SCALE_REPS / 2];
    }
    r->scaled = true;
    return mismatch;
}

/* Which rows the scaling report has: the dense and sparse frames of a tree,
 * the full frame of a chain, the animation frame of the game scene. */
static bool kind_scaled(const bench_ctx *c, int kind)
{
    if (c->topo->anim_first < c->topo->n)
        return kind == FRAME_ANIM;
    return kind == FRAME_ALL || (kind == FRAME_ONE && !c->chain);
}

/* ------------------------------------------------------------------------ */
/* Building and checking                                                    */
/* ------------------------------------------------------------------------ */

static void ctx_free(bench_ctx *c)
{
    sgrt_scene_destroy(c->chain_s);
    sgrt_scene_destroy(c->s);
    sgrt_scene_destroy(c->scalar);
    free(c->h);
    free(c->hs);
    naive_free(&c->tc);
    naive_free(&c->ts);
    bench_aligned_free(c->copy_src);
    bench_aligned_free(c->copy_dst);
    free(c->b_nodes);
    bench_aligned_free(c->b_local);
    free(c->b_t);
    free(c->b_q);
    free(c->b_s);
    bench_aligned_free(c->wf_local);
    free(c->wf_bits);
    free(c->anim10);
    free(c->anim50);
}

/* One sgrt scene of topology t, every node created and given its initial
 * local matrix, then updated once. */
static bool scene_build(const bench_topo *t, float (*init)[16], sgrt_simd max_simd,
                        sgrt_scene **out, sgrt_node **out_nodes)
{
    const uint32_t n = t->n;
    sgrt_scene_desc desc = {0};
    desc.initial_capacity = n;
    desc.max_simd = max_simd;
    if (sgrt_scene_create(&desc, out) != SGRT_OK)
        return false;
    sgrt_node *h = *out_nodes = malloc((size_t)n * sizeof *h);
    if (!h)
        return false;
    for (uint32_t i = 0; i < n; i++) {
        const sgrt_node parent = t->parent[i] < 0 ? SGRT_NULL_NODE : h[t->parent[i]];
        if (sgrt_node_create(*out, parent, &h[i]) != SGRT_OK ||
            sgrt_node_set_local(*out, h[i], init[i & (BENCH_POOL_SIZE - 1u)]) != SGRT_OK)
            return false;
    }
    if (sgrt_scene_update(*out) != n)
        fprintf(stderr, "warning: first update of %s did not recompute every node\n", t->name);
    return true;
}

/* The TRS frames' node sets: a random permutation of the nodes (fixed seed
 * per scene size); its first 10 % and first 50 %, each listed in creation
 * order, as a skeleton lists its bones. */
static bool anim_sets(bench_ctx *c, uint32_t n)
{
    uint32_t *rank = malloc((size_t)n * sizeof *rank);
    c->anim10_count = n / 10 ? n / 10 : 1;
    c->anim50_count = n / 2 ? n / 2 : 1;
    c->anim10 = malloc((size_t)c->anim10_count * sizeof *c->anim10);
    c->anim50 = malloc((size_t)c->anim50_count * sizeof *c->anim50);
    if (!rank || !c->anim10 || !c->anim50) {
        free(rank);
        return false;
    }
    bench_rng rng = {0xa1e5u + n};
    for (uint32_t i = 0; i < n; i++)
        rank[i] = i;
    for (uint32_t i = n; i > 1; i--) {
        const uint32_t j = bench_rng_below(&rng, i), tmp = rank[i - 1];
        rank[i - 1] = rank[j];
        rank[j] = tmp;
    }
    uint32_t k10 = 0, k50 = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (rank[i] < c->anim10_count)
            c->anim10[k10++] = i;
        if (rank[i] < c->anim50_count)
            c->anim50[k50++] = i;
    }
    free(rank);
    return true;
}

static bool ctx_build(bench_ctx *c, const bench_topo *t, float (*pool)[16],
                      float (*init)[16], const bench_trs_pool *trs)
{
    memset(c, 0, sizeof *c);
    c->topo = t;
    c->pool = pool;
    c->trs = trs;
    c->chain = t->anim_first == t->n && t->max_depth == t->n - 1;
    const uint32_t n = t->n;
    /* Creation-order heap first, while the allocator's free space is one
     * piece, so that it really is laid out in creation order. */
    if (!naive_build(&c->tc, t->parent, n, false, 0) ||
        !naive_build(&c->ts, t->parent, n, true, 0x5eed0001u + n))
        return false;
    if (!scene_build(t, init, SGRT_SIMD_AUTO, &c->s, &c->h) ||
        !scene_build(t, init, SGRT_SIMD_SCALAR, &c->scalar, &c->hs))
        return false;
    if (c->chain) {
        if (sgrt_scene_create(NULL, &c->chain_s) != SGRT_OK)
            return false;
        for (uint32_t i = 0; i < CHAIN_TAIL; i++)
            if (sgrt_node_create(c->chain_s, i ? c->chain_h[i - 1] : SGRT_NULL_NODE,
                                 &c->chain_h[i]) != SGRT_OK ||
                sgrt_node_set_local(c->chain_s, c->chain_h[i],
                                    init[i & (BENCH_POOL_SIZE - 1u)]) != SGRT_OK)
                return false;
        sgrt_scene_update(c->chain_s);
    }
    c->copy_src = bench_aligned_alloc(64, (size_t)n * 64);
    c->copy_dst = bench_aligned_alloc(64, (size_t)n * 64);
    c->b_nodes = malloc((size_t)n * sizeof *c->b_nodes);
    c->b_local = bench_aligned_alloc(64, (size_t)n * 64);
    c->b_t = malloc((size_t)n * sizeof *c->b_t);
    c->b_q = malloc((size_t)n * sizeof *c->b_q);
    c->b_s = malloc((size_t)n * sizeof *c->b_s);
    c->wf_local = bench_aligned_alloc(64, (size_t)n * 64);
    c->wf_bits = calloc(((size_t)n + 31) / 32, sizeof *c->wf_bits);
    if (!c->copy_src || !c->copy_dst || !c->b_nodes || !c->b_local || !c->b_t || !c->b_q ||
        !c->b_s || !c->wf_local || !c->wf_bits || !anim_sets(c, n))
        return false;
    memset(c->b_local, 0, (size_t)n * 64);
    memset(c->wf_local, 0, (size_t)n * 64);
    for (uint32_t i = 0; i < n; i++) {
        const float *m = init[i & (BENCH_POOL_SIZE - 1u)];
        naive_set_local_dirty(c->tc.node[i], m);
        naive_set_local_dirty(c->ts.node[i], m);
        memcpy(c->copy_src[i], m, 64);
    }
    memset(c->copy_dst, 0, (size_t)n * 64);
    naive_render_dirty_all(&c->tc);
    naive_render_dirty_all(&c->ts);
    return true;
}

/* Whether w agrees with the naive world ref to 1e-3 relative to
 * max(1, |value|); *worst grows to the largest difference seen. */
static bool close_to_naive(const float w[16], const float ref[16], double *worst)
{
    bool ok = true;
    for (int k = 0; k < 16; k++) {
        const double x = w[k], y = ref[k];
        const double e = fabs(x - y) / fmax(1.0, fmax(fabs(x), fabs(y)));
        if (!(e <= 1e-3))
            ok = false;
        else if (e > *worst)
            *worst = e;
    }
    return ok;
}

static uint32_t check_scene(const bench_topo *t, const sgrt_scene *s, const char *which)
{
    const char *what = NULL;
    if (sgrt_scene_check(s, &what) == SGRT_OK)
        return 0;
    fprintf(stderr, "%s (%s scene): sgrt_scene_check: %s\n", t->name, which, what ? what : "?");
    return 1;
}

/* Compare every node's world in both sgrt scenes with the creation-order
 * naive heap, and the two heaps with each other; see verify(). */
static uint32_t compare_worlds(bench_ctx *c, double *worst)
{
    const bench_topo *t = c->topo;
    uint32_t bad = 0;
    for (uint32_t i = 0; i < t->n; i++) {
        const float *ref = c->tc.node[i]->world;
        float w[16], ws[16];
        if (sgrt_node_world(c->s, c->h[i], w) != SGRT_OK ||
            sgrt_node_world(c->scalar, c->hs[i], ws) != SGRT_OK ||
            memcmp(ref, c->ts.node[i]->world, sizeof w) != 0) {
            bad++;
            continue;
        }
        const bool ok = close_to_naive(w, ref, worst);
        bad += !(close_to_naive(ws, ref, worst) && ok);
    }
    return bad;
}

/* A TRS frame that moves every node in all implementations, through each
 * TRS path: sgrt_nodes_set_trs on the default scene, sgrt_node_set_trs on
 * the scalar one, the baselines' own conversion on both heaps. Not on
 * chains: a product of 64K random scales leaves the float range. */
static uint32_t verify_trs(bench_ctx *c, double *worst)
{
    const bench_topo *t = c->topo;
    const bench_trs_pool *p = c->trs;
    const uint32_t g = c->serial++;
    for (uint32_t i = 0; i < t->n; i++) {
        const uint32_t j = trs_for(g, i);
        c->b_nodes[i] = c->h[i];
        memcpy(c->b_t[i], p->t[j], sizeof c->b_t[i]);
        memcpy(c->b_q[i], p->q[j], sizeof c->b_q[i]);
        memcpy(c->b_s[i], p->s[j], sizeof c->b_s[i]);
        c->write_errors +=
            sgrt_node_set_trs(c->scalar, c->hs[i], p->t[j], p->q[j], p->s[j]) != SGRT_OK;
        naive_set_trs(c->tc.node[i], p->t[j], p->q[j], p->s[j]);
        naive_set_trs_dirty(c->ts.node[i], p->t[j], p->q[j], p->s[j]);
    }
    c->write_errors += sgrt_nodes_set_trs(c->s, t->n, c->b_nodes, c->b_t[0],
                                          c->b_q[0],
                                          c->b_s[0], NULL) != SGRT_OK;
    sgrt_scene_update(c->s);
    sgrt_scene_update(c->scalar);
    naive_render_all(&c->tc);
    naive_render_dirty_all(&c->ts);
    return compare_worlds(c, worst);
}

/* sgrt_scene_update_parallel against sgrt_scene_update, bit for bit: frame
 * h moves every node (serial update), frame g moves m and is updated on the
 * executor, and every world is saved; then frame h again and frame g updated
 * serially. Worlds are a function of the local matrices, so the two must
 * agree exactly, and so must the counts. Returns the worlds that differ,
 * plus one if the counts do. */
static uint32_t check_parallel(bench_ctx *c, const frame_moves *m)
{
    const uint32_t n = c->topo->n;
    const frame_moves all = {0, n, NULL, 0};
    const uint32_t h = c->serial++, g = c->serial++;
    uint32_t bad = 0;
    apply_writes(c, &all, h, false);
    (void)sgrt_scene_update(c->s);
    apply_writes(c, m, g, false);
    const uint32_t kp = sgrt_scene_update_parallel(c->s, c->ex);
    for (uint32_t i = 0; i < n; i++)
        bad += sgrt_node_world(c->s, c->h[i], c->wf_local[i]) != SGRT_OK;
    apply_writes(c, &all, h, false);
    (void)sgrt_scene_update(c->s);
    apply_writes(c, m, g, false);
    const uint32_t ks = sgrt_scene_update(c->s);
    for (uint32_t i = 0; i < n; i++) {
        float w[16];
        bad += sgrt_node_world(c->s, c->h[i], w) != SGRT_OK ||
               memcmp(w, c->wf_local[i], sizeof w) != 0;
    }
    return bad + (kp != ks);
}

/* One TRS frame (not on chains, see verify_trs) and then one last frame that
 * moves everything by set_local, applied to all implementations; after each,
 * the world matrices must agree. The two naive heaps run the same code and
 * must match exactly; sgrt sums each element pairwise, (a0b0 + a1b1) +
 * (a2b2 + a3b3), where the naive loop sums left to right, and converts TRS
 * its own way, so the two agree to rounding, which accumulates along deep
 * hierarchies. Both sgrt scenes are compared with the naive heap. Before
 * that last frame, the parallel update must match the serial one bit for bit
 * (check_parallel) on a frame that moves every node and on one that moves
 * the TRS frames' random 10 %. Every write the timed blocks made must have
 * been accepted. Returns the number of nodes that disagree plus the refused
 * writes; *max_err receives the largest difference relative to
 * max(1, |value|). */
static uint32_t verify(bench_ctx *c, double *max_err)
{
    const bench_topo *t = c->topo;
    double worst = 0;
    uint32_t bad = c->chain ? 0 : verify_trs(c, &worst);
    const frame_moves all = {0, t->n, NULL, 0}, some = {0, 0, c->anim10, c->anim10_count};
    const uint32_t par_bad = check_parallel(c, &all) + check_parallel(c, &some);
    if (par_bad)
        fprintf(stderr, "\n%s: the parallel update differs from the serial one (%u)\n", t->name,
                par_bad);
    bad += par_bad;
    const uint32_t g = c->serial++;
    for (uint32_t i = 0; i < t->n; i++) {
        BENCH_OK(sgrt_node_set_local(c->s, c->h[i], matrix_for(c, g, i)));
        BENCH_OK(sgrt_node_set_local(c->scalar, c->hs[i], matrix_for(c, g, i)));
        naive_set_local(c->tc.node[i], matrix_for(c, g, i));
        naive_set_local_dirty(c->ts.node[i], matrix_for(c, g, i));
    }
    sgrt_scene_update(c->s);
    sgrt_scene_update(c->scalar);
    naive_render_all(&c->tc);
    naive_render_dirty_all(&c->ts);
    bad += compare_worlds(c, &worst);
    bad += check_scene(t, c->s, "default");
    bad += check_scene(t, c->scalar, "scalar");
    if (c->write_errors)
        fprintf(stderr, "\n%s: %u batch or TRS writes refused\n", t->name, c->write_errors);
    *max_err = worst;
    return bad + c->write_errors;
}

/* ------------------------------------------------------------------------ */
/* Frames and rounds                                                        */
/* ------------------------------------------------------------------------ */

static void frames_for(const bench_ctx *c, int kind, int frames, bench_rng *rng,
                       frame_moves *fm, uint32_t *lists)
{
    const bench_topo *t = c->topo;
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
        case FRAME_TRS100:
            m->hi = t->n;
            break;
        case FRAME_TRS10:
            m->list = c->anim10;
            m->count = c->anim10_count;
            break;
        case FRAME_TRS50:
            m->list = c->anim50;
            m->count = c->anim50_count;
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

enum { SET, SGRT, SCALAR, NAIVE_SET, NAIVE, NAIVE_SH, DIRTY_SET, DIRTY, DIRTY_SH, COPY, CHAIN,
       BATCH_SET, BATCH, WFLOOR, PAR, SERIES };

/* One round: every implementation over the same frames rf, its samples
 * stored from index `at` of each series; cnt and pcnt receive what the
 * serial and the parallel update returned. */
static void run_round(bench_ctx *c, const frame_moves *rf, const bench_schedule *sc, size_t at,
                      double *const sample[SERIES], uint32_t *cnt, uint32_t *pcnt,
                      double *scratch, uint32_t *cscratch)
{
    const int warm = sc->warm, pr = sc->per_round;
    block_sgrt(c, c->s, c->h, rf, warm, pr, sample[SET] + at, sample[SGRT] + at, cnt + at);
    block_par(c, false, rf, warm, pr, sample[PAR] + at, pcnt + at);
    block_sgrt(c, c->scalar, c->hs, rf, warm, pr, scratch, sample[SCALAR] + at, cscratch);
    block_batch(c, rf, warm, pr, sample[BATCH_SET] + at, sample[BATCH] + at);
    block_naive(c, &c->tc, false, rf, warm, pr, sample[NAIVE_SET] + at, sample[NAIVE] + at);
    block_naive(c, &c->ts, false, rf, warm, pr, scratch, sample[NAIVE_SH] + at);
    block_naive(c, &c->tc, true, rf, warm, pr, sample[DIRTY_SET] + at, sample[DIRTY] + at);
    block_naive(c, &c->ts, true, rf, warm, pr, scratch, sample[DIRTY_SH] + at);
    block_copy(c, warm, pr, sample[COPY] + at);
    block_wfloor(c, rf, warm, pr, sample[WFLOOR] + at);
    if (c->chain)
        block_chain(c, warm, pr, sample[CHAIN] + at);
}

/* A TRS round: sgrt single (serial and parallel update) and batch, the two
 * baselines on the creation-order heap, and the write floor. */
static void run_round_trs(bench_ctx *c, const frame_moves *rf, const bench_schedule *sc,
                          size_t at, double *const sample[SERIES], uint32_t *cnt, uint32_t *pcnt)
{
    const int warm = sc->warm, pr = sc->per_round;
    block_sgrt_trs(c, rf, warm, pr, sample[SET] + at, sample[SGRT] + at, cnt + at);
    block_par(c, true, rf, warm, pr, sample[PAR] + at, pcnt + at);
    block_batch_trs(c, rf, warm, pr, sample[BATCH_SET] + at, sample[BATCH] + at);
    block_naive_trs(c, &c->tc, false, rf, warm, pr, sample[NAIVE_SET] + at, sample[NAIVE] + at);
    block_naive_trs(c, &c->tc, true, rf, warm, pr, sample[DIRTY_SET] + at, sample[DIRTY] + at);
    block_wfloor(c, rf, warm, pr, sample[WFLOOR] + at);
}

/* Which frame kinds a scene runs: anim only where the scene has animated
 * hierarchies; the TRS frames everywhere but on chains. */
static bool kind_runs(const bench_ctx *c, int kind)
{
    if (kind == FRAME_ANIM)
        return c->topo->anim_first < c->topo->n;
    if (kind >= FRAME_TRS10)
        return !c->chain;
    return true;
}

bool bench_measure_scene(bench_results *res, const bench_topo *t, bool quick, int reps_opt,
                         float (*pool)[16], float (*init)[16], const bench_trs_pool *trs,
                         const sgrt_executor *ex, bool scaled)
{
    bench_ctx c;
    const double tb = bench_now_ns();
    fprintf(stderr, "%-10s %8u nodes, depth %5u: building...", t->name, t->n, t->max_depth);
    fflush(stderr);
    if (!ctx_build(&c, t, pool, init, trs)) {
        fprintf(stderr, " out of memory\n");
        ctx_free(&c);
        return false;
    }
    c.ex = ex;
    if (!res->sgrt_kernel) {
        res->sgrt_kernel = sgrt_scene_simd_name(c.s);
        res->scalar_kernel = sgrt_scene_simd_name(c.scalar);
    }
    const bench_schedule sc = bench_schedule_for(t->n, quick, reps_opt);
    const int rounds = sc.rounds, pr = sc.per_round;
    const int reps = rounds * pr, frames = sc.warm + pr;
    int kinds = 0;
    for (int kind = 0; kind < FRAME_KINDS; kind++)
        kinds += kind_runs(&c, kind);
    fprintf(stderr, " %.1f s; measuring %d x %d frames x %d kinds...",
            (bench_now_ns() - tb) * 1e-9, rounds, pr, kinds);
    fflush(stderr);
    const double tm = bench_now_ns();

    const uint32_t one = t->n / 100 ? t->n / 100 : 1;
    frame_moves *fm = malloc((size_t)rounds * (size_t)frames * sizeof *fm);
    uint32_t *lists = malloc((size_t)rounds * (size_t)frames * one * sizeof *lists);
    double *sample[SERIES] = {0};
    bool ok = fm && lists;
    for (int k = 0; k < SERIES; k++)
        ok &= (sample[k] = malloc((size_t)reps * sizeof(double))) != NULL;
    uint32_t *cnt = malloc((size_t)reps * sizeof *cnt);
    uint32_t *pcnt = malloc((size_t)reps * sizeof *pcnt);
    double *scratch = malloc((size_t)pr * sizeof *scratch);
    uint32_t *cscratch = malloc((size_t)pr * sizeof *cscratch);
    ok &= cnt && pcnt && scratch && cscratch;
    uint32_t mismatch = 0; /* frames where the parallel count differs */
    bench_rng rng = {0xf00du + t->n};
    const double n = t->n;
    for (int kind = 0; ok && kind < FRAME_KINDS; kind++) {
        if (!kind_runs(&c, kind))
            continue;
        bench_row *r = bench_results_add(res);
        if (!r)
            break;
        /* Fresh random moves for every frame of every round (the TRS
         * frames keep their nodes and take fresh values). */
        frames_for(&c, kind, rounds * frames, &rng, fm, lists);
        snprintf(r->scene, sizeof r->scene, "%s", t->name);
        r->frame = frame_name[kind];
        r->trs = kind >= FRAME_TRS10;
        r->nodes = t->n;
        r->moved = moves_per_frame(&fm[0]);
        for (int round = 0; round < rounds; round++) {
            const frame_moves *rf = fm + (size_t)round * (size_t)frames;
            const size_t at = (size_t)round * (size_t)pr;
            if (r->trs)
                run_round_trs(&c, rf, &sc, at, sample, cnt, pcnt);
            else
                run_round(&c, rf, &sc, at, sample, cnt, pcnt, scratch, cscratch);
        }
        for (int k = 0; k < reps; k++)
            r->par_mismatch += cnt[k] != pcnt[k];
        if (scaled && kind_scaled(&c, kind))
            r->par_mismatch += scale_row(&c, r, fm, frames);
        mismatch += r->par_mismatch;
        r->set = bench_median(sample[SET], reps) / n;
        r->sgrt = bench_median(sample[SGRT], reps) / n;
        r->naive_set = bench_median(sample[NAIVE_SET], reps) / n;
        r->naive = bench_median(sample[NAIVE], reps) / n;
        r->dirty_set = bench_median(sample[DIRTY_SET], reps) / n;
        r->dirty = bench_median(sample[DIRTY], reps) / n;
        r->batch_set = bench_median(sample[BATCH_SET], reps) / n;
        r->batch = bench_median(sample[BATCH], reps) / n;
        r->wfloor = bench_median(sample[WFLOOR], reps) / n;
        r->scalar = r->trs ? NAN : bench_median(sample[SCALAR], reps) / n;
        r->naive_sh = r->trs ? NAN : bench_median(sample[NAIVE_SH], reps) / n;
        r->dirty_sh = r->trs ? NAN : bench_median(sample[DIRTY_SH], reps) / n;
        r->copy = r->trs ? NAN : bench_median(sample[COPY], reps) / n;
        r->chain = c.chain && !r->trs ? bench_median(sample[CHAIN], reps) / n : NAN;
        r->recomputed = bench_median_u32(cnt, reps);
        r->par = bench_median(sample[PAR], reps) / n;
        r->par_recomputed = bench_median_u32(pcnt, reps);
    }
    if (ok) {
        double err = 0;
        const uint32_t bad = verify(&c, &err);
        if (err > res->verify_max_err)
            res->verify_max_err = err;
        if (bad) {
            fprintf(stderr, "\n%s: VERIFY FAILED: %u of %u world matrices differ\n", t->name,
                    bad, t->n);
            res->verify_failures++;
        } else if (mismatch) {
            fprintf(stderr,
                    "\n%s: VERIFY FAILED: the parallel update's count differed in %u frames\n",
                    t->name, mismatch);
            res->verify_failures++;
        }
        fprintf(stderr, " %.1f s\n", (bench_now_ns() - tm) * 1e-9);
    } else {
        fprintf(stderr, " out of memory\n");
    }
    free(fm), free(lists), free(cnt), free(pcnt), free(scratch), free(cscratch);
    for (int k = 0; k < SERIES; k++)
        free(sample[k]);
    ctx_free(&c);
    return ok;
}
