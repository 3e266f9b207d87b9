/* SPDX-License-Identifier: MIT */
/* The large-world section of the benchmark (large.h). Every figure comes
 * from this run, and every world the section produces, timed or not, is
 * checked against a double-precision model computed here from the locals
 * written, the anchors and the origin (never from the library's own
 * double path):
 *
 *   L1  a forest anchored 10^9 m from the world's zero, the origin moved
 *       through it in steps, locals and anchors rewritten between moves:
 *       every node within 2 km of the origin has its translation within
 *       2.5e-7 x max(distance, 400 m) of the model's (a few float ulps of
 *       its distance to the origin; 0.1 mm within 400 m). The figure is
 *       the worst error / bound.
 *   L2  frames (the game's writes + sgrt_scene_update, through the peers'
 *       batch path: a writer written in place when every node moves,
 *       sgrt_nodes_set_local for 1 %) of a large-world scene, its roots
 *       anchored far from the world's zero and the origin among them, with
 *       no origin move, against the same frames of the same scene created
 *       without SGRT_SCENE_LARGE_WORLD: one root (a 64K tree), 1,000
 *       roots (skeletons), 16,384 roots (props of four nodes).
 *   L3  an origin move (sgrt_scene_set_origin + sgrt_scene_update) against
 *       an all-moved frame of the same large-world scene.
 *
 * Frames are warm (each timed frame right after an untimed one of its
 * contender), the contenders interleaved in every round, their order
 * swapped every other round; times are medians over the rounds, ratios
 * medians of the rounds' ratios (a ratio's two frames run back to back). */
#define _POSIX_C_SOURCE 200809L

#include "large.h"
#include "peers_sgrt.h"
#include "platform.h"
#include "scenes.h"
#include "table.h"
#include "timing.h"

#include <sgrt.h>

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define POOL 8192u /* local matrices, a power of two */
#define POOL_MASK (POOL - 1u)
#define MAX_ROUNDS 64

/* L1's bound: |error| <= REL x max(distance, FLOOR), for nodes within
 * RADIUS of the origin. */
#define L1_REL 2.5e-7
#define L1_FLOOR 400.0
#define L1_RADIUS 2000.0
/* A verify failure beyond these (any node, any scene of the section): far
 * above float rounding along these depths, far below a wrong offset. The
 * translation's, in multiples of L1's bound; the other 12 entries',
 * absolute (rigid locals: every entry within 1). */
#define VERIFY_RATIO 16.0
#define VERIFY_LINEAR 1e-4
/* sgrt_node_world_double against the model, absolute coordinates near
 * 10^9 m (a double's spacing there is 1.2e-7). */
#define DOUBLE_TRANSLATION 1e-6
#define DOUBLE_LINEAR 1e-9

/* Where the scenes are anchored: 10^9 m from the world's zero, on no axis. */
static const double FAR_POINT[3] = {577350269.1896258, -577350269.1896258, 577350269.1896258};

static double rng_unit(bench_rng *r) /* [0, 1) */
{
    return (double)(bench_rng_next(r) >> 11) * 0x1p-53;
}

static double rng_span(bench_rng *r, double half) /* [-half, half) */
{
    return (2.0 * rng_unit(r) - 1.0) * half;
}

/* ---- the model ------------------------------------------------------------------- */

/* Every world from the locals (local[src[i]], or local[i] when src is
 * NULL), in double: translate(anchor - origin) x local for a root (no
 * anchor: local), parent's x local below it. Parents come first. */
static void model(const int32_t *parent, uint32_t n, const float (*local)[16], const uint32_t *src,
                  const double (*anchor)[3], const double origin[3], double (*ref)[16])
{
    for (uint32_t i = 0; i < n; i++) {
        const float *f = local[src ? src[i] : i];
        double l[16];
        for (int k = 0; k < 16; k++)
            l[k] = f[k];
        const int32_t p = parent[i];
        if (p < 0) {
            for (int k = 0; anchor && k < 3; k++) {
                const double d = anchor[i][k] - origin[k];
                for (int j = 0; j < 4; j++)
                    l[4 * j + k] += d * l[4 * j + 3];
            }
            memcpy(ref[i], l, sizeof l);
            continue;
        }
        const double *a = ref[p];
        for (int c = 0; c < 4; c++)
            for (int r = 0; r < 4; r++)
                ref[i][4 * c + r] = a[r] * l[4 * c] + a[4 + r] * l[4 * c + 1] +
                                    a[8 + r] * l[4 * c + 2] + a[12 + r] * l[4 * c + 3];
    }
}

static double bound_at(double distance)
{
    return L1_REL * (distance > L1_FLOOR ? distance : L1_FLOOR);
}

static double distance_of(const double ref[16])
{
    return sqrt(ref[12] * ref[12] + ref[13] * ref[13] + ref[14] * ref[14]);
}

/* A world against its model: the translation's error (euclidean) and the
 * largest error of the other 12 entries; NAN when anything is not a number. */
typedef struct lw_error {
    double ratio, meters, linear;
} lw_error;

static lw_error error_of(const float w[16], const double ref[16])
{
    double d2 = 0.0, linear = 0.0;
    for (int k = 0; k < 3; k++) {
        const double d = (double)w[12 + k] - ref[12 + k];
        d2 += d * d;
    }
    for (int k = 0; k < 12; k++) {
        const double d = fabs((double)w[k] - ref[k]);
        if (!(d <= linear))
            linear = d;
    }
    if (!(fabs((double)w[15] - ref[15]) <= VERIFY_LINEAR))
        linear = NAN;
    const double meters = sqrt(d2);
    const lw_error e = {meters / bound_at(distance_of(ref)), meters, linear};
    return e;
}

/* Worst of a set of errors, and whether it stayed under the verify limits. */
typedef struct lw_worst {
    double ratio, ratio_meters, ratio_at; /* the worst ratio, its error and distance */
    double meters, meters_at;             /* the largest error */
    double linear;
    uint64_t checked;
    bool ok;
} lw_worst;

static void worst_init(lw_worst *w)
{
    memset(w, 0, sizeof *w);
    w->ok = true;
}

static void worst_add(lw_worst *w, const lw_error *e, double distance)
{
    w->checked++;
    if (!(e->ratio <= w->ratio)) {
        w->ratio = e->ratio;
        w->ratio_meters = e->meters;
        w->ratio_at = distance;
    }
    if (!(e->meters <= w->meters)) {
        w->meters = e->meters;
        w->meters_at = distance;
    }
    if (!(e->linear <= w->linear))
        w->linear = e->linear;
    if (!(e->ratio <= VERIFY_RATIO && e->linear <= VERIFY_LINEAR))
        w->ok = false;
}

/* ---- L1: precision, the origin moving through a far forest ---------------------------- */

/* 85-node 4-ary trees (depth 3), one per root, each node's translation
 * within SPREAD[depth] of its parent's (a root's: of its anchor), anchors
 * over 12 x 0.2 x 12 km about FAR_POINT, the origin stepping along a diagonal
 * of that area. */
#define L1_TREE 85u
static const double SPREAD[4] = {100.0, 20.0, 5.0, 1.0};

typedef struct l1_forest {
    uint32_t n, roots;
    int32_t *parent;
    uint8_t *depth;
    float (*local)[16];
    double (*anchor)[3]; /* per node, a root's */
    double (*ref)[16], (*prev_ref)[16];
    uint8_t *moved; /* this step: the node, an ancestor or its root's anchor */
    sgrt_scene *s[2]; /* default kernel (with previous worlds), scalar kernel */
    sgrt_node *h[2];
    float (*pool)[16];
    sgrt_node *nodes;
    float (*vals)[16];
} l1_forest;

typedef struct l1_result {
    uint32_t nodes, roots, steps;
    double step_m; /* how far the origin moves per step */
    lw_worst within, beyond; /* within RADIUS of the origin, and the rest */
    double by_depth[4]; /* worst error / bound within 2 km, by depth below the root */
    double prev_ratio; /* still nodes: |previous world - world| / both bounds */
    double dbl_translation, dbl_linear;
    bool bits_equal; /* default and scalar kernels, every world, every step */
    const char *kernel;
} l1_result;

static void l1_free(l1_forest *f)
{
    for (int k = 0; k < 2; k++) {
        sgrt_scene_destroy(f->s[k]);
        free(f->h[k]);
    }
    free(f->parent), free(f->depth), free(f->anchor), free(f->ref), free(f->prev_ref);
    free(f->moved), free(f->nodes);
    bench_aligned_free(f->local);
    bench_aligned_free(f->vals);
    bench_mat_pool_free(f->pool);
}

static void l1_local(const l1_forest *f, uint32_t i, uint32_t pick, float out[16])
{
    memcpy(out, f->pool[pick & POOL_MASK], 64);
    for (int k = 0; k < 3; k++)
        out[12 + k] = (float)(out[12 + k] * SPREAD[f->depth[i]]);
}

static bool l1_build(l1_forest *f, uint32_t roots, const double origin[3])
{
    bench_topo one;
    if (!bench_topo_tree4(&one, L1_TREE, false))
        return false;
    const uint32_t n = roots * L1_TREE;
    f->n = n;
    f->roots = roots;
    f->parent = malloc((size_t)n * sizeof *f->parent);
    f->depth = malloc(n);
    f->local = bench_aligned_alloc(64, (size_t)n * 64);
    f->vals = bench_aligned_alloc(64, (size_t)n * 64);
    f->anchor = calloc(n, sizeof *f->anchor);
    f->ref = malloc((size_t)n * sizeof *f->ref);
    f->prev_ref = malloc((size_t)n * sizeof *f->prev_ref);
    f->moved = malloc(n);
    f->nodes = malloc((size_t)n * sizeof *f->nodes);
    f->pool = bench_mat_pool(POOL, 0x1a46eu);
    bool ok = f->parent && f->depth && f->local && f->vals && f->anchor && f->ref &&
              f->prev_ref && f->moved && f->nodes && f->pool;
    for (uint32_t r = 0; ok && r < roots; r++)
        for (uint32_t j = 0; j < L1_TREE; j++) {
            const uint32_t i = r * L1_TREE + j;
            const int32_t p = one.parent[j];
            f->parent[i] = p < 0 ? -1 : (int32_t)(r * L1_TREE) + p;
            f->depth[i] = p < 0 ? 0 : (uint8_t)(f->depth[f->parent[i]] + 1u);
        }
    bench_topo_free(&one);
    bench_rng rng = {0x1a1u};
    for (uint32_t i = 0; ok && i < n; i++) {
        l1_local(f, i, (uint32_t)bench_rng_next(&rng), f->local[i]);
        if (f->parent[i] < 0) {
            f->anchor[i][0] = FAR_POINT[0] + rng_span(&rng, 6000.0);
            f->anchor[i][1] = FAR_POINT[1] + rng_span(&rng, 100.0);
            f->anchor[i][2] = FAR_POINT[2] + rng_span(&rng, 6000.0);
        }
    }
    for (int k = 0; ok && k < 2; k++) {
        const sgrt_scene_desc d = {
            .initial_capacity = n,
            .max_simd = k ? SGRT_SIMD_SCALAR : SGRT_SIMD_AUTO,
            .flags = SGRT_SCENE_LARGE_WORLD | (k ? 0u : (uint32_t)SGRT_SCENE_PREV_WORLD)};
        f->h[k] = malloc((size_t)n * sizeof *f->h[k]);
        ok = f->h[k] && sgrt_scene_create(&d, &f->s[k]) == SGRT_OK &&
             sgrt_scene_set_origin(f->s[k], origin) == SGRT_OK;
        for (uint32_t i = 0; ok && i < n; i++) {
            const int32_t p = f->parent[i];
            ok = sgrt_node_create(f->s[k], p < 0 ? SGRT_NULL_NODE : f->h[k][p], &f->h[k][i]) ==
                     SGRT_OK &&
                 sgrt_node_set_local(f->s[k], f->h[k][i], f->local[i]) == SGRT_OK &&
                 (p >= 0 || sgrt_node_set_anchor(f->s[k], f->h[k][i], f->anchor[i]) == SGRT_OK);
        }
        ok = ok && sgrt_scene_update(f->s[k]) == n;
    }
    return ok;
}

/* One step's moves, the same in both scenes: 10 % of the nodes a new local
 * (one sgrt_nodes_set_local call), 1 % of the roots moved by up to 30 m
 * through their anchors; f->moved marks what they move. Nothing before the
 * first move. */
static bool l1_step(l1_forest *f, bench_rng *rng, bool first)
{
    memset(f->moved, 0, f->n);
    if (first)
        return true;
    const uint32_t count = f->n / 10;
    uint32_t *idx = malloc((size_t)count * sizeof *idx);
    if (!idx)
        return false;
    for (uint32_t k = 0; k < count; k++) {
        idx[k] = bench_rng_below(rng, f->n);
        l1_local(f, idx[k], (uint32_t)bench_rng_next(rng), f->vals[k]);
    }
    /* A batch writes its entries in order: a node listed twice ends with
     * its last entry's local, and so does the model. */
    for (uint32_t k = 0; k < count; k++) {
        memcpy(f->local[idx[k]], f->vals[k], 64);
        f->moved[idx[k]] = 1;
    }
    bool ok = true;
    for (int s = 0; ok && s < 2; s++) {
        for (uint32_t k = 0; k < count; k++)
            f->nodes[k] = f->h[s][idx[k]];
        ok = sgrt_nodes_set_local(f->s[s], count, f->nodes, f->vals[0], NULL) == SGRT_OK;
    }
    free(idx);
    const uint32_t anchors = f->roots / 100 ? f->roots / 100 : 1;
    for (uint32_t k = 0; ok && k < anchors; k++) {
        const uint32_t i = bench_rng_below(rng, f->roots) * L1_TREE;
        for (int a = 0; a < 3; a++)
            f->anchor[i][a] += rng_span(rng, 30.0);
        f->moved[i] = 1;
        for (int s = 0; ok && s < 2; s++)
            ok = sgrt_node_set_anchor(f->s[s], f->h[s][i], f->anchor[i]) == SGRT_OK;
    }
    for (uint32_t i = 0; i < f->n; i++)
        if (f->parent[i] >= 0 && f->moved[f->parent[i]])
            f->moved[i] = 1;
    return ok;
}

/* The same in every run kind: a precision figure, not a timing. */
static bool l1_run(l1_result *res)
{
    memset(res, 0, sizeof *res);
    worst_init(&res->within);
    worst_init(&res->beyond);
    res->bits_equal = true;
    const uint32_t roots = 1024u, steps = 16u;
    /* The origin's path: a diagonal across the forest, corner to corner
     * but for the last kilometre or so. */
    const double from[3] = {-5000.3, -40.7, -3900.1}, to[3] = {5100.9, 60.2, 4200.6};
    double origin[3];
    for (int a = 0; a < 3; a++)
        origin[a] = FAR_POINT[a] + from[a];
    l1_forest f;
    memset(&f, 0, sizeof f);
    bool ok = l1_build(&f, roots, origin);
    if (!ok) {
        l1_free(&f);
        return false;
    }
    res->nodes = f.n;
    res->roots = f.roots;
    res->steps = steps;
    res->kernel = sgrt_scene_simd_name(f.s[0]);
    double d2 = 0.0;
    for (int a = 0; a < 3; a++)
        d2 += (to[a] - from[a]) * (to[a] - from[a]);
    res->step_m = sqrt(d2) / (steps - 1);
    bench_rng rng = {0x1a57u};
    model(f.parent, f.n, (const float(*)[16])f.local, NULL, (const double(*)[3])f.anchor, origin,
          f.ref);
    for (uint32_t step = 0; ok && step < steps; step++) {
        memcpy(f.prev_ref, f.ref, (size_t)f.n * sizeof *f.ref);
        ok = l1_step(&f, &rng, step == 0);
        for (int a = 0; a < 3; a++)
            origin[a] = FAR_POINT[a] + from[a] + (to[a] - from[a]) * step / (steps - 1);
        for (int s = 0; ok && s < 2; s++)
            ok = sgrt_scene_set_origin(f.s[s], origin) == SGRT_OK &&
                 sgrt_scene_update(f.s[s]) == (step ? f.n : 0u);
        if (!ok)
            break;
        model(f.parent, f.n, (const float(*)[16])f.local, NULL, (const double(*)[3])f.anchor,
              origin, f.ref);
        const float *prev = sgrt_scene_prev_world_array(f.s[0], NULL);
        for (uint32_t i = 0; ok && i < f.n; i++) {
            float w[16], w1[16];
            uint32_t slot;
            ok = sgrt_node_world(f.s[0], f.h[0][i], w) == SGRT_OK &&
                 sgrt_node_world(f.s[1], f.h[1][i], w1) == SGRT_OK &&
                 sgrt_node_slot(f.s[0], f.h[0][i], &slot) == SGRT_OK && prev;
            if (!ok)
                break;
            if (memcmp(w, w1, sizeof w) != 0)
                res->bits_equal = false;
            const lw_error e = error_of(w, f.ref[i]);
            const double dist = distance_of(f.ref[i]);
            worst_add(dist <= L1_RADIUS ? &res->within : &res->beyond, &e, dist);
            if (dist <= L1_RADIUS && !(e.ratio <= res->by_depth[f.depth[i]]))
                res->by_depth[f.depth[i]] = e.ratio;
            if (step && !f.moved[i] && dist <= L1_RADIUS) {
                /* A still node: its previous world, moved into this origin's
                 * frame, is its world to within both worlds' rounding. */
                double old[3], od2 = 0.0, pd2 = 0.0;
                for (int a = 0; a < 3; a++) {
                    old[a] = f.prev_ref[i][12 + a];
                    od2 += old[a] * old[a];
                    const double d = (double)prev[16u * slot + 12u + (uint32_t)a] -
                                     (double)w[12 + a];
                    pd2 += d * d;
                }
                const double r = sqrt(pd2) / (bound_at(sqrt(od2)) + bound_at(dist));
                if (!(r <= res->prev_ratio))
                    res->prev_ratio = r;
            }
            if (i % 61u == 0) {
                double dw[16];
                ok = sgrt_node_world_double(f.s[0], f.h[0][i], dw) == SGRT_OK;
                for (int k = 0; ok && k < 16; k++) {
                    const double got = k >= 12 && k < 15 ? dw[k] - origin[k - 12] : dw[k];
                    const double d = fabs(got - f.ref[i][k]);
                    double *worst = k >= 12 && k < 15 ? &res->dbl_translation : &res->dbl_linear;
                    if (!(d <= *worst))
                        *worst = d;
                }
            }
        }
    }
    const char *what = NULL;
    for (int s = 0; ok && s < 2; s++)
        ok = sgrt_scene_check(f.s[s], &what) == SGRT_OK;
    l1_free(&f);
    return ok;
}

/* ---- L2, L3: frames with and without the flag, the origin move ----------------------- */

enum { F_ALL, F_ONE, F_ORIGIN, FRAMES };
static const char *const frame_name[FRAMES] = {"all", "1%", "origin"};

typedef struct lw_pair {
    bench_topo topo;
    uint32_t roots;
    sgrt_scene *s[2]; /* [0] without the flag, [1] SGRT_SCENE_LARGE_WORLD */
    sgrt_node *h[2];
    void *bound[2]; /* the batch writer of every node */
    double (*anchor)[3];
    double base[3], origin[3];
    uint32_t origin_serial, serial;
    uint32_t *src;        /* each node's last local: pool index */
    float (*vals)[16];    /* the frame's inputs */
    sgrt_node *nodes;
    uint32_t *list[2];    /* a 1 % frame's nodes */
    double (*ref)[16];
} lw_pair;

typedef struct lw_row {
    char scene[32];
    uint32_t nodes, roots;
    uint32_t recomputed[FRAMES];
    double ns[FRAMES][2]; /* per node; [F_ORIGIN][1] only */
    /* Medians of the rounds' ratios (each round's two frames ran back to
     * back): large / no flag for all and 1 %, origin / all for the origin
     * move. */
    double ratio[FRAMES];
    const char *path[2];  /* the batch path of all and 1% */
} lw_row;

/* The props scene: `count` roots of 4 nodes, a root and three parts. */
static bool topo_props(bench_topo *t, uint32_t count)
{
    memset(t, 0, sizeof *t);
    t->n = 4u * count;
    t->parent = malloc((size_t)t->n * sizeof *t->parent);
    if (!t->parent)
        return false;
    for (uint32_t i = 0; i < t->n; i++)
        t->parent[i] = i % 4u ? (int32_t)(i - i % 4u) : -1;
    t->anim_first = t->n;
    t->max_depth = 1;
    snprintf(t->name, sizeof t->name, "props-%uKx4", count >> 10);
    return true;
}

static void pair_free(lw_pair *p)
{
    for (int k = 0; k < 2; k++) {
        if (p->bound[k])
            peers_sgrt_batch.unbind(p->s[k], p->bound[k]);
        sgrt_scene_destroy(p->s[k]);
        free(p->h[k]);
        free(p->list[k]);
    }
    free(p->anchor), free(p->src), free(p->nodes), free(p->ref);
    bench_aligned_free(p->vals);
    bench_topo_free(&p->topo);
}

static void origin_next(lw_pair *p)
{
    static const double step[3] = {1.5, -0.25, 0.75};
    const uint32_t k = p->origin_serial++ % 7u + 1u;
    for (int a = 0; a < 3; a++)
        p->origin[a] = p->base[a] + k * step[a];
}

/* Both scenes from the same locals; the large one's roots anchored about
 * FAR_POINT (one root: a few metres from the origin; many: over 4 x 4 km about
 * it) and its origin among them. */
static bool pair_build(lw_pair *p, float (*pool)[16])
{
    const bench_topo *t = &p->topo;
    const uint32_t n = t->n;
    p->anchor = calloc(n, sizeof *p->anchor);
    p->src = malloc((size_t)n * sizeof *p->src);
    p->nodes = malloc((size_t)n * sizeof *p->nodes);
    p->ref = malloc((size_t)n * sizeof *p->ref);
    p->vals = bench_aligned_alloc(64, (size_t)n * 64);
    const uint32_t one = n / 100 ? n / 100 : 1;
    for (int k = 0; k < 2; k++)
        p->list[k] = malloc((size_t)one * sizeof *p->list[k]);
    if (!p->anchor || !p->src || !p->nodes || !p->ref || !p->vals || !p->list[0] || !p->list[1])
        return false;
    memcpy(p->base, FAR_POINT, sizeof p->base);
    bench_rng rng = {0x1a2bu + n};
    p->roots = 0;
    for (uint32_t i = 0; i < n; i++)
        p->roots += t->parent[i] < 0;
    const double spread[3] = {2000.0, 30.0, 2000.0}, one_root[3] = {3.5, -1.25, 2.75};
    for (uint32_t i = 0; i < n; i++) {
        p->src[i] = (5u * i + 1u) & POOL_MASK;
        for (int a = 0; t->parent[i] < 0 && a < 3; a++)
            p->anchor[i][a] = FAR_POINT[a] + (p->roots == 1 ? one_root[a] : rng_span(&rng, spread[a]));
    }
    origin_next(p);
    for (int k = 0; k < 2; k++) {
        const sgrt_scene_desc d = {.initial_capacity = n,
                                   .flags = k ? (uint32_t)SGRT_SCENE_LARGE_WORLD : 0u};
        p->h[k] = malloc((size_t)n * sizeof *p->h[k]);
        if (!p->h[k] || sgrt_scene_create(&d, &p->s[k]) != SGRT_OK ||
            (k && sgrt_scene_set_origin(p->s[k], p->origin) != SGRT_OK))
            return false;
        for (uint32_t i = 0; i < n; i++) {
            const int32_t par = t->parent[i];
            if (sgrt_node_create(p->s[k], par < 0 ? SGRT_NULL_NODE : p->h[k][par], &p->h[k][i]) !=
                    SGRT_OK ||
                sgrt_node_set_local(p->s[k], p->h[k][i], pool[p->src[i]]) != SGRT_OK ||
                (k && par < 0 && sgrt_node_set_anchor(p->s[k], p->h[k][i], p->anchor[i]) != SGRT_OK))
                return false;
        }
        if (sgrt_scene_update(p->s[k]) != n)
            return false;
        p->bound[k] = peers_sgrt_batch.bind(p->s[k], p->h[k], n);
        if (!p->bound[k])
            return false;
    }
    return true;
}

/* One frame of scene k: the inputs gathered outside the clock, then the
 * writes and the update (an origin move and the update), timed. Returns ns;
 * *count receives what the update returned. */
static double pair_frame(lw_pair *p, int k, int kind, uint32_t g, const uint32_t *list,
                         float (*pool)[16], uint32_t *count)
{
    const uint32_t n = p->topo.n;
    double t0;
    if (kind == F_ORIGIN) {
        origin_next(p);
        t0 = bench_now_ns();
        BENCH_OK(sgrt_scene_set_origin(p->s[1], p->origin));
        *count = sgrt_scene_update(p->s[1]);
        return bench_now_ns() - t0;
    }
    const uint32_t m = kind == F_ALL ? n : n / 100 ? n / 100 : 1;
    for (uint32_t j = 0; j < m; j++) {
        const uint32_t i = kind == F_ALL ? j : list[j];
        memcpy(p->vals[j], pool[(g + i) & POOL_MASK], 64);
        if (kind == F_ONE)
            p->nodes[j] = p->h[k][i];
    }
    const peers_input in = {m, kind == F_ALL ? p->h[k] : p->nodes, (const float(*)[16])p->vals,
                            NULL, NULL, NULL};
    t0 = bench_now_ns();
    bench_refused += peers_sgrt_batch.write_local(p->s[k], kind == F_ALL ? p->bound[k] : NULL, &in);
    *count = sgrt_scene_update(p->s[k]);
    return bench_now_ns() - t0;
}

static void note_src(lw_pair *p, int kind, uint32_t g, const uint32_t *list)
{
    const uint32_t n = p->topo.n, m = n / 100 ? n / 100 : 1;
    if (kind == F_ALL)
        for (uint32_t i = 0; i < n; i++)
            p->src[i] = (g + i) & POOL_MASK;
    else
        for (uint32_t j = 0; j < m; j++)
            p->src[list[j]] = (g + list[j]) & POOL_MASK;
}

/* Every world of both scenes against the model. */
static bool pair_check(lw_pair *p, float (*pool)[16], lw_worst *worst)
{
    const bench_topo *t = &p->topo;
    for (int k = 0; k < 2; k++) {
        model(t->parent, t->n, (const float(*)[16])pool, p->src,
              k ? (const double(*)[3])p->anchor : NULL, p->origin, p->ref);
        for (uint32_t i = 0; i < t->n; i++) {
            float w[16];
            if (sgrt_node_world(p->s[k], p->h[k][i], w) != SGRT_OK)
                w[12] = NAN;
            const lw_error e = error_of(w, p->ref[i]);
            worst_add(worst, &e, distance_of(p->ref[i]));
        }
    }
    return worst->ok;
}

static bool pair_measure(lw_pair *p, float (*pool)[16], int rounds, lw_row *row, lw_worst *worst)
{
    const uint32_t n = p->topo.n, one = n / 100 ? n / 100 : 1;
    double ns[FRAMES][2][MAX_ROUNDS];
    uint32_t cnt[FRAMES][MAX_ROUNDS];
    bench_rng rng = {0x1a3cu + n};
    bool same = true;
    for (int r = -1; r < rounds; r++) {
        const int first = r & 1; /* the contender that goes first this round */
        for (int kind = 0; kind < FRAMES; kind++) {
            const uint32_t g[2] = {p->serial, p->serial + 1u};
            p->serial += 2u;
            if (kind == F_ONE)
                for (int f = 0; f < 2; f++)
                    for (uint32_t j = 0; j < one; j++)
                        p->list[f][j] = bench_rng_below(&rng, n);
            uint32_t c[2][2] = {{0, 0}, {0, 0}};
            for (int o = 0; o < 2; o++) {
                const int k = kind == F_ORIGIN ? 1 : o ^ first;
                if (kind == F_ORIGIN && o)
                    break;
                for (int f = 0; f < 2; f++) {
                    const double t = pair_frame(p, k, kind, g[f], p->list[f], pool, &c[k][f]);
                    if (f == 1 && r >= 0)
                        ns[kind][k][r] = t / n;
                }
            }
            if (kind != F_ORIGIN) {
                same &= c[0][0] == c[1][0] && c[0][1] == c[1][1];
                for (int f = 0; f < 2; f++)
                    note_src(p, kind, g[f], p->list[f]);
            } else {
                same &= c[1][0] == n && c[1][1] == n;
            }
            if (r >= 0)
                cnt[kind][r] = c[1][1];
        }
    }
    snprintf(row->scene, sizeof row->scene, "%s", p->topo.name);
    row->nodes = n;
    row->roots = p->roots;
    for (int kind = 0; kind < FRAMES; kind++) {
        row->recomputed[kind] = bench_median_u32(cnt[kind], rounds);
        for (int k = 0; k < 2; k++)
            row->ns[kind][k] =
                kind == F_ORIGIN && !k ? NAN : bench_median(ns[kind][k], rounds);
        double ratio[MAX_ROUNDS];
        for (int r = 0; r < rounds; r++)
            ratio[r] = kind == F_ORIGIN ? ns[F_ORIGIN][1][r] / ns[F_ALL][1][r]
                                        : ns[kind][1][r] / ns[kind][0][r];
        row->ratio[kind] = bench_median(ratio, rounds);
    }
    row->path[0] = peers_sgrt_batch_path(false, false, true);
    row->path[1] = peers_sgrt_batch_path(false, true, false);
    if (!same)
        fprintf(stderr, "\n%s: VERIFY FAILED: the large-world scene's updates returned other "
                        "counts than the scene's without the flag\n",
                p->topo.name);
    const bool checked = pair_check(p, pool, worst);
    if (!checked)
        fprintf(stderr, "\n%s: VERIFY FAILED: a world is %.3g x L1's bound from the model "
                        "(other entries %.3g)\n",
                p->topo.name, worst->ratio, worst->linear);
    const char *what = NULL;
    const bool sane = sgrt_scene_check(p->s[0], &what) == SGRT_OK &&
                      sgrt_scene_check(p->s[1], &what) == SGRT_OK;
    if (!sane)
        fprintf(stderr, "\n%s: VERIFY FAILED: sgrt_scene_check: %s\n", p->topo.name,
                what ? what : "?");
    return same && checked && sane;
}

/* ---- the report ----------------------------------------------------------------------- */

#define SCENES 3

bool bench_large_run(FILE *out, bool quick)
{
    const int rounds = quick ? 9 : 61;
    const double t_start = bench_now_ns();
    bool ok = true;
    fprintf(out, "\nlarge worlds (SGRT_SCENE_LARGE_WORLD; ratios from this run)\n");

    /* L1 */
    l1_result l1;
    const bool l1_built = l1_run(&l1);
    if (!l1_built) {
        fprintf(stderr, "large worlds: the precision scene could not be built or updated\n");
        ok = false;
    } else {
        const bool verified = l1.within.ok && l1.beyond.ok && l1.bits_equal &&
                              l1.prev_ratio <= 2.0 && l1.dbl_translation <= DOUBLE_TRANSLATION &&
                              l1.dbl_linear <= DOUBLE_LINEAR;
        if (!verified) {
            fprintf(stderr, "large worlds: VERIFY FAILED: the precision scene's worlds are off "
                            "the model (see its lines)\n");
            ok = false;
        }
        fprintf(out,
                "precision, kernel %s: %u roots of %u nodes (%u nodes) anchored 1e9 m from the\n"
                "  world's zero over 12 x 0.2 x 12 km, the origin moved %u times through them (%.0f m a\n"
                "  step; between moves 10 %% of the locals rewritten, 1 %% of the anchors moved):\n",
                l1.kernel, l1.roots, L1_TREE, l1.nodes, l1.steps - 1u, l1.step_m);
        fprintf(out,
                "  within 2 km: %llu worlds; worst error / bound %.3f (%.2e m at %.0f m); largest\n"
                "    error %.2e m (at %.0f m); other entries %.1e at most; worst error / bound by\n"
                "    depth below the root: %.3f (roots), %.3f, %.3f, %.3f\n",
                (unsigned long long)l1.within.checked, l1.within.ratio, l1.within.ratio_meters,
                l1.within.ratio_at, l1.within.meters, l1.within.meters_at, l1.within.linear,
                l1.by_depth[0], l1.by_depth[1], l1.by_depth[2], l1.by_depth[3]);
        fprintf(out,
                "  beyond 2 km: %llu worlds; worst error / bound %.3f (largest error %.2e m at %.0f m)\n",
                (unsigned long long)l1.beyond.checked, l1.beyond.ratio, l1.beyond.meters,
                l1.beyond.meters_at);
        fprintf(out,
                "  previous worlds of still nodes (within 2 km) after each move: |previous - world|\n"
                "    <= %.3f x (bound before + bound after); scalar kernel bit-identical: %s;\n"
                "    sgrt_node_world_double - origin vs the model: %.1e m, other entries %.1e\n",
                l1.prev_ratio, l1.bits_equal ? "yes" : "NO", l1.dbl_translation, l1.dbl_linear);
    }

    /* L2, L3 */
    float (*pool)[16] = bench_mat_pool(POOL, 0x1a90u);
    lw_row rows[SCENES];
    lw_worst timed;
    worst_init(&timed);
    int nrows = 0;
    const char *kernel = "-";
    for (int sc = 0; pool && sc < SCENES; sc++) {
        lw_pair p;
        memset(&p, 0, sizeof p);
        const bool topo = sc == 0   ? bench_topo_tree4(&p.topo, 1u << 16, false)
                          : sc == 1 ? bench_topo_skeletons(&p.topo, 1000, 64)
                                    : topo_props(&p.topo, 1u << 14);
        if (!topo || !pair_build(&p, pool)) {
            fprintf(stderr, "large worlds: scene %d could not be built\n", sc);
            ok = false;
            pair_free(&p);
            continue;
        }
        kernel = sgrt_scene_simd_name(p.s[1]);
        if (!pair_measure(&p, pool, rounds, &rows[nrows], &timed))
            ok = false;
        nrows++;
        pair_free(&p);
    }
    bench_mat_pool_free(pool);
    if (!pool)
        ok = false;
    if (nrows) {
        fprintf(out,
                "frames (writes + update), ns per node, kernel %s; medians of %d rounds, warm,\n"
                "the two scenes interleaved; large: roots anchored 1e9 m away, the origin among them\n",
                kernel, rounds);
        fprintf(out, "%-13s %6s %5s %-6s %7s | %8s %8s %8s | %s\n", "scene", "nodes", "roots",
                "frame", "recomp", "no flag", "large", "large/no", "writes");
        for (int i = 0; i < nrows; i++)
            for (int kind = F_ALL; kind <= F_ONE; kind++)
                fprintf(out, "%-13s %6u %5u %-6s %7u | %8.3f %8.3f %8.3f | %s\n", rows[i].scene,
                        rows[i].nodes, rows[i].roots, frame_name[kind], rows[i].recomputed[kind],
                        rows[i].ns[kind][0], rows[i].ns[kind][1], rows[i].ratio[kind],
                        rows[i].path[kind]);
        fprintf(out, "origin move (sgrt_scene_set_origin + sgrt_scene_update) against the all-moved\n"
                     "frame of the same large-world scene, ns per node\n");
        fprintf(out, "%-13s %7s | %8s %8s %8s\n", "scene", "recomp", "origin", "all", "orig/all");
        for (int i = 0; i < nrows; i++)
            fprintf(out, "%-13s %7u | %8.3f %8.3f %8.3f\n", rows[i].scene,
                    rows[i].recomputed[F_ORIGIN], rows[i].ns[F_ORIGIN][1], rows[i].ns[F_ALL][1],
                    rows[i].ratio[F_ORIGIN]);
        fprintf(out,
                "  ns: medians over the rounds; large/no, orig/all: medians of the rounds' ratios (the\n"
                "  frames of a ratio run back to back in each round). Every world of the timed scenes\n"
                "  against the model after the rounds: worst error / bound %.3f, other entries %.1e\n"
                "  (%llu worlds)\n",
                timed.ratio, timed.linear, (unsigned long long)timed.checked);
    }

    fprintf(out, "targets (large worlds)\n");
    bench_target_line(out, "L1", "error / (2.5e-7 x max(distance, 400 m)), within 2 km",
                      l1_built ? l1.within.ratio : NAN, 1.0, true, l1_built ? l1.kernel : "-");
    for (int i = 0; i < nrows; i++)
        for (int kind = F_ALL; kind <= F_ONE; kind++) {
            char what[80];
            snprintf(what, sizeof what, "large frame / no flag, %.24s, %s", rows[i].scene,
                     kind == F_ALL ? "all moved" : "1 % moved");
            bench_target_line(out, "L2", what, rows[i].ratio[kind], 1.05, true, kernel);
        }
    for (int i = 0; i < nrows; i++) {
        char what[80];
        snprintf(what, sizeof what, "origin move + update / all-moved frame, %.24s", rows[i].scene);
        bench_target_line(out, "L3", what, rows[i].ratio[F_ORIGIN], 1.0, true, kernel);
    }
    fprintf(out,
            "  L1: translation against a double model of the locals, anchors and origin, every\n"
            "  node within 2 km of the origin after every move; L2: the same writes and update,\n"
            "  no origin move; L3: an origin move's update (no writes) / writes + update.\n"
            "large-world section: %.1f s\n",
            (bench_now_ns() - t_start) * 1e-9);
    return ok;
}
