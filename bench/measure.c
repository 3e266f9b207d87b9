/* One scene in every implementation, timed frame by frame (measure.h):
 * building the scenes, the frames' moves, one timed block per
 * implementation, the rounds that interleave them, and the final check that
 * all of them computed the same world matrices. */
#include "measure.h"

#include <sgrt.h>

#include "naive.h"
#include "timing.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum frame_kind { FRAME_NONE, FRAME_ONE, FRAME_ALL, FRAME_ANIM, FRAME_KINDS };
static const char *const frame_name[FRAME_KINDS] = {"none", "1%", "all", "anim"};

/* sgrt_node_world_now multiplies down at most this many dirty ancestors in
 * one pass (O(d)); beyond, it walks the chain again per segment. */
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
    float (*copy_src)[16];
    float (*copy_dst)[16];
    bool chain;
    uint32_t serial; /* frame number within the scene, see matrix_for() */
} bench_ctx;

/* Every (block, frame) of a scene has its own serial g and node i gets
 * pool[(g + i) % BENCH_POOL_SIZE]: a node never receives the matrix it
 * already has (while fewer than BENCH_POOL_SIZE frames run per scene), so
 * every set_local of the benchmark is a real move, and the blocks that replay
 * the same frames stay independent of each other. */
static inline const float *matrix_for(const bench_ctx *c, uint32_t g, uint32_t i)
{
    return c->pool[(g + i) & (BENCH_POOL_SIZE - 1u)];
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
        FOR_EACH_MOVE(m, i, (void)sgrt_node_set_local(s, h[i], matrix_for(c, g, i)));
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

/* The bound of a chain: each product waits for the previous one. Outside the
 * clock, one real move of the first of the chain's last CHAIN_TAIL nodes
 * marks that tail dirty; sgrt_node_world_now on the deepest node then
 * multiplies down the tail with the scene's kernel, changing nothing, and
 * n / CHAIN_TAIL such calls make one product per node. Each sample is scaled
 * to n products. The update after the block clears the tail. */
static void block_chain(bench_ctx *c, int warm, int reps, double *out)
{
    const uint32_t n = c->topo->n, tail = n < CHAIN_TAIL ? n : CHAIN_TAIL;
    const uint32_t calls = (n + tail - 1) / tail;
    const sgrt_node head = c->h[n - tail], last = c->h[n - 1];
    float w[16];
    for (int f = 0; f < warm + reps; f++) {
        (void)sgrt_node_set_local(c->s, head, matrix_for(c, c->serial++, n - tail));
        const double t0 = bench_now_ns();
        for (uint32_t k = 0; k < calls; k++)
            (void)sgrt_node_world_now(c->s, last, w);
        const double t1 = bench_now_ns();
        if (f >= warm)
            out[f - warm] = (t1 - t0) * n / ((double)calls * tail);
    }
    sgrt_scene_update(c->s);
}

/* ------------------------------------------------------------------------ */
/* Building and checking                                                    */
/* ------------------------------------------------------------------------ */

static void ctx_free(bench_ctx *c)
{
    sgrt_scene_destroy(c->s);
    sgrt_scene_destroy(c->scalar);
    free(c->h);
    free(c->hs);
    naive_free(&c->tc);
    naive_free(&c->ts);
    free(c->copy_src);
    free(c->copy_dst);
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

static bool ctx_build(bench_ctx *c, const bench_topo *t, float (*pool)[16],
                      float (*init)[16])
{
    memset(c, 0, sizeof *c);
    c->topo = t;
    c->pool = pool;
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
    c->copy_src = aligned_alloc(64, (size_t)n * 64);
    c->copy_dst = aligned_alloc(64, (size_t)n * 64);
    if (!c->copy_src || !c->copy_dst)
        return false;
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

/* One last frame that moves everything, applied to all implementations; then
 * the world matrices must agree. The two naive heaps run the same code and
 * must match exactly; sgrt sums each element pairwise, (a0b0 + a1b1) +
 * (a2b2 + a3b3), where the naive loop sums left to right, so the two agree
 * to rounding, which accumulates along deep hierarchies. Both sgrt scenes are
 * compared with the naive heap. Returns the number of nodes that disagree;
 * *max_err receives the largest difference relative to max(1, |value|). */
static uint32_t verify(bench_ctx *c, double *max_err)
{
    const bench_topo *t = c->topo;
    const uint32_t g = c->serial++;
    for (uint32_t i = 0; i < t->n; i++) {
        (void)sgrt_node_set_local(c->s, c->h[i], matrix_for(c, g, i));
        (void)sgrt_node_set_local(c->scalar, c->hs[i], matrix_for(c, g, i));
        naive_set_local(c->tc.node[i], matrix_for(c, g, i));
        naive_set_local_dirty(c->ts.node[i], matrix_for(c, g, i));
    }
    sgrt_scene_update(c->s);
    sgrt_scene_update(c->scalar);
    naive_render_all(&c->tc);
    naive_render_dirty_all(&c->ts);
    uint32_t bad = 0;
    double worst = 0;
    for (uint32_t i = 0; i < t->n; i++) {
        const float *ref = c->tc.node[i]->world;
        float w[16], ws[16];
        if (sgrt_node_world(c->s, c->h[i], w) != SGRT_OK ||
            sgrt_node_world(c->scalar, c->hs[i], ws) != SGRT_OK ||
            memcmp(ref, c->ts.node[i]->world, sizeof w) != 0) {
            bad++;
            continue;
        }
        const bool ok = close_to_naive(w, ref, &worst);
        bad += !(close_to_naive(ws, ref, &worst) && ok);
    }
    bad += check_scene(t, c->s, "default");
    bad += check_scene(t, c->scalar, "scalar");
    *max_err = worst;
    return bad;
}

/* ------------------------------------------------------------------------ */
/* Frames and rounds                                                        */
/* ------------------------------------------------------------------------ */

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

enum { SET, SGRT, SCALAR, NAIVE_SET, NAIVE, NAIVE_SH, DIRTY_SET, DIRTY, DIRTY_SH, COPY, CHAIN,
       SERIES };

/* One round: every implementation over the same frames rf, its samples
 * stored from index `at` of each series. */
static void run_round(bench_ctx *c, const frame_moves *rf, const bench_schedule *sc, size_t at,
                      double *const sample[SERIES], uint32_t *cnt, double *scratch,
                      uint32_t *cscratch)
{
    const int warm = sc->warm, pr = sc->per_round;
    block_sgrt(c, c->s, c->h, rf, warm, pr, sample[SET] + at, sample[SGRT] + at, cnt + at);
    block_sgrt(c, c->scalar, c->hs, rf, warm, pr, scratch, sample[SCALAR] + at, cscratch);
    block_naive(c, &c->tc, false, rf, warm, pr, sample[NAIVE_SET] + at, sample[NAIVE] + at);
    block_naive(c, &c->ts, false, rf, warm, pr, scratch, sample[NAIVE_SH] + at);
    block_naive(c, &c->tc, true, rf, warm, pr, sample[DIRTY_SET] + at, sample[DIRTY] + at);
    block_naive(c, &c->ts, true, rf, warm, pr, scratch, sample[DIRTY_SH] + at);
    block_copy(c, warm, pr, sample[COPY] + at);
    if (c->chain)
        block_chain(c, warm, pr, sample[CHAIN] + at);
}

bool bench_measure_scene(bench_results *res, const bench_topo *t, bool quick, int reps_opt,
                         float (*pool)[16], float (*init)[16])
{
    bench_ctx c;
    const double tb = bench_now_ns();
    fprintf(stderr, "%-10s %8u nodes, depth %5u: building...", t->name, t->n, t->max_depth);
    fflush(stderr);
    if (!ctx_build(&c, t, pool, init)) {
        fprintf(stderr, " out of memory\n");
        ctx_free(&c);
        return false;
    }
    if (!res->sgrt_kernel) {
        res->sgrt_kernel = sgrt_scene_simd_name(c.s);
        res->scalar_kernel = sgrt_scene_simd_name(c.scalar);
    }
    const bench_schedule sc = bench_schedule_for(t->n, quick, reps_opt);
    const int rounds = sc.rounds, pr = sc.per_round;
    const int reps = rounds * pr, frames = sc.warm + pr;
    fprintf(stderr, " %.1f s; measuring %d x %d frames x %d kinds...",
            (bench_now_ns() - tb) * 1e-9, rounds, pr, t->anim_first < t->n ? 4 : 3);
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
    double *scratch = malloc((size_t)pr * sizeof *scratch);
    uint32_t *cscratch = malloc((size_t)pr * sizeof *cscratch);
    ok &= cnt && scratch && cscratch;
    bench_rng rng = {0xf00du + t->n};
    const double n = t->n;
    for (int kind = 0; ok && kind < FRAME_KINDS; kind++) {
        if (kind == FRAME_ANIM && t->anim_first == t->n)
            continue;
        bench_row *r = bench_results_add(res);
        if (!r)
            break;
        /* Fresh random moves for every frame of every round. */
        frames_for(t, kind, rounds * frames, &rng, fm, lists);
        snprintf(r->scene, sizeof r->scene, "%s", t->name);
        r->frame = frame_name[kind];
        r->nodes = t->n;
        r->moved = moves_per_frame(&fm[0]);
        for (int round = 0; round < rounds; round++)
            run_round(&c, fm + (size_t)round * (size_t)frames, &sc, (size_t)round * (size_t)pr,
                      sample, cnt, scratch, cscratch);
        r->set = bench_median(sample[SET], reps) / n;
        r->sgrt = bench_median(sample[SGRT], reps) / n;
        r->scalar = bench_median(sample[SCALAR], reps) / n;
        r->naive_set = bench_median(sample[NAIVE_SET], reps) / n;
        r->naive = bench_median(sample[NAIVE], reps) / n;
        r->naive_sh = bench_median(sample[NAIVE_SH], reps) / n;
        r->dirty_set = bench_median(sample[DIRTY_SET], reps) / n;
        r->dirty = bench_median(sample[DIRTY], reps) / n;
        r->dirty_sh = bench_median(sample[DIRTY_SH], reps) / n;
        r->copy = bench_median(sample[COPY], reps) / n;
        r->chain = c.chain ? bench_median(sample[CHAIN], reps) / n : NAN;
        r->recomputed = bench_median_u32(cnt, reps);
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
        }
        fprintf(stderr, " %.1f s\n", (bench_now_ns() - tm) * 1e-9);
    } else {
        fprintf(stderr, " out of memory\n");
    }
    free(fm), free(lists), free(cnt), free(scratch), free(cscratch);
    for (int k = 0; k < SERIES; k++)
        free(sample[k]);
    ctx_free(&c);
    return ok;
}
