/* SPDX-License-Identifier: MIT */
/* The peers measurement (peers.h): the contenders' scenes, the frames'
 * inputs, the interleaved rounds, the evicting buffer and the check
 * against a double-precision reference. */
#include "peers.h"

#include <sgrt.h>

#include "flat.h"
#include "fused.h"
#include "measure.h"
#include "naive.h"
#include "peers_sgrt.h"
#include "platform.h"
#include "timing.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------ */
/* Evicting the caches                                                      */
/* ------------------------------------------------------------------------ */

#define EVICT_MAX_MIB 1024u
#define EVICT_UNKNOWN_MIB 256u

uint32_t bench_evict_default_mib(void)
{
    const uint64_t llc = bench_llc_bytes();
    if (llc == 0)
        return EVICT_UNKNOWN_MIB;
    const uint64_t mib = (2 * llc + (1u << 20) - 1) >> 20;
    return mib > EVICT_MAX_MIB ? EVICT_MAX_MIB : (uint32_t)mib;
}

bool bench_evict_init(bench_evict *e, uint32_t mib)
{
    memset(e, 0, sizeof *e);
    const size_t bytes = (size_t)mib << 20;
    e->p = bench_aligned_alloc(64, bytes);
    if (!e->p)
        return false;
    e->words = bytes / sizeof *e->p;
    memset(e->p, 1, bytes);
    return true;
}

void bench_evict_touch(bench_evict *e)
{
    uint64_t *p = e->p;
    const uint64_t v = ++e->v;
    for (size_t i = 0; i < e->words; i += 64 / sizeof *p)
        p[i] += v;
}

void bench_evict_free(bench_evict *e)
{
    bench_aligned_free(e->p);
    memset(e, 0, sizeof *e);
}

/* ------------------------------------------------------------------------ */
/* The contenders                                                           */
/* ------------------------------------------------------------------------ */

enum { K_ALL, K_ONE, K_TRS10, K_TRS100, KINDS };
static const char *const kind_name[KINDS] = {"all", "1%", "trs10", "trs100"};
_Static_assert(BENCH_PEERS_ALL == 1u << K_ALL && BENCH_PEERS_ONE == 1u << K_ONE &&
                   BENCH_PEERS_TRS10 == 1u << K_TRS10 && BENCH_PEERS_TRS100 == 1u << K_TRS100,
               "bench_peers_scene's kinds are bits of the kinds here");

/* What each node's local was last made from, for the reference: the kind
 * in the top two bits, the pool index below. */
#define SRC_INIT 0u
#define SRC_MAT (1u << 30)
#define SRC_TRS (2u << 30)
#define SRC_INDEX (BENCH_POOL_SIZE - 1u)

/* Worlds further than this from the reference, relative to max(1, |value|),
 * are a verify failure: far above float rounding along these depths, far
 * below any real error. */
#define PEERS_TOLERANCE 1e-3

typedef struct peers_ctx {
    const bench_topo *topo;
    float (*pool)[16];
    float (*init)[16];
    const bench_trs_pool *trs;
    bench_evict *ev;
    /* sgrt: [0] written by single calls, [1] by batch calls. */
    sgrt_scene *s[2];
    sgrt_node *h[2];
    void *bound[2];
    flat_scene flat;
    /* fused, skeleton scenes only: one character's parents, shared. */
    int16_t skel_parent[256];
    uint32_t joints, chars;
    fused_soa_trs *soa;
    float (*fused_out)[16];
    naive_tree naive; /* nodes malloc'd in creation order, as measure.c's 'naive' */
    float (*copy_src)[16], (*copy_dst)[16];
    /* The frame's inputs, refilled by each contender outside the clock. */
    sgrt_node *nodes;
    float (*local)[16];
    float (*t)[3], (*q)[4], (*s3)[3];
    uint32_t *trs10, trs10_count; /* trs10's nodes: 10 %, random, in creation order */
    uint32_t *src;                /* per node, SRC_* | pool index */
    double (*ref)[16];
    uint32_t serial;
    uint32_t refused;
} peers_ctx;

typedef struct peer_frame {
    uint32_t g;          /* node i gets pool entry (g + i) % BENCH_POOL_SIZE */
    uint32_t count;
    const uint32_t *idx; /* NULL: nodes 0 .. count-1 */
    bool trs, sparse;
    uint32_t recomputed; /* what the single scene's update returned */
} peer_frame;

static const peers_sgrt_writer *writer(int w)
{
    return w ? &peers_sgrt_batch : &peers_sgrt_single;
}

static void gather_values(peers_ctx *c, const peer_frame *f)
{
    const bench_trs_pool *p = c->trs;
    for (uint32_t k = 0; k < f->count; k++) {
        const uint32_t i = f->idx ? f->idx[k] : k, j = (f->g + i) & SRC_INDEX;
        if (f->trs) {
            memcpy(c->t[k], p->t[j], sizeof c->t[k]);
            memcpy(c->q[k], p->q[j], sizeof c->q[k]);
            memcpy(c->s3[k], p->s[j], sizeof c->s3[k]);
        } else {
            memcpy(c->local[k], c->pool[j], sizeof c->local[k]);
        }
    }
}

/* fused's input, as an animation job leaves it: every joint, four to a block. */
static void gather_soa(peers_ctx *c, const peer_frame *f)
{
    const bench_trs_pool *p = c->trs;
    for (uint32_t i = 0; i < c->topo->n; i++) {
        const uint32_t j = (f->g + i) & SRC_INDEX, l = i % 4;
        fused_soa_trs *b = &c->soa[i / 4];
        b->tx[l] = p->t[j][0], b->ty[l] = p->t[j][1], b->tz[l] = p->t[j][2];
        b->qx[l] = p->q[j][0], b->qy[l] = p->q[j][1], b->qz[l] = p->q[j][2];
        b->qw[l] = p->q[j][3];
        b->sx[l] = p->s[j][0], b->sy[l] = p->s[j][1], b->sz[l] = p->s[j][2];
    }
}

/* The pointer tree's writes, as game code makes them: one heap node at a
 * time, TRS converted in plain C (naive.c). */
static void naive_write(peers_ctx *c, const peer_frame *f)
{
    naive_node **node = c->naive.node;
    if (f->trs)
        for (uint32_t k = 0; k < f->count; k++)
            naive_set_trs(node[f->idx ? f->idx[k] : k], c->t[k], c->q[k], c->s3[k]);
    else
        for (uint32_t k = 0; k < f->count; k++)
            naive_set_local(node[f->idx ? f->idx[k] : k], c->local[k]);
}

/* One frame of contender `who`: its inputs filled, then timed. Returns the
 * frame's ns; *set_ns receives the writes' part (NAN where there is none). */
static double run_frame(peers_ctx *c, int who, peer_frame *f, double *set_ns)
{
    double t0, t1, t2;
    switch (who) {
    case BENCH_PEER_SINGLE:
    case BENCH_PEER_BATCH: {
        const int w = who == BENCH_PEER_BATCH;
        const peers_sgrt_writer *wr = writer(w);
        gather_values(c, f);
        if (f->idx)
            for (uint32_t k = 0; k < f->count; k++)
                c->nodes[k] = c->h[w][f->idx[k]];
        const peers_input in = {f->count, f->idx ? c->nodes : c->h[w],
                                (const float(*)[16])c->local, (const float(*)[3])c->t,
                                (const float(*)[4])c->q, (const float(*)[3])c->s3};
        t0 = bench_now_ns();
        const uint32_t bad = f->trs ? wr->write_trs(c->s[w], c->bound[w], &in)
                                    : wr->write_local(c->s[w], c->bound[w], &in);
        t1 = bench_now_ns();
        const uint32_t k = sgrt_scene_update(c->s[w]);
        t2 = bench_now_ns();
        c->refused += bad;
        if (!w)
            f->recomputed = k;
        break;
    }
    case BENCH_PEER_FLAT:
        gather_values(c, f);
        t0 = bench_now_ns();
        if (f->trs)
            flat_write_trs(&c->flat, f->count, f->idx, (const float(*)[3])c->t,
                           (const float(*)[4])c->q, (const float(*)[3])c->s3, f->sparse);
        else
            flat_write_locals(&c->flat, f->count, f->idx, (const float(*)[16])c->local,
                              f->sparse);
        t1 = bench_now_ns();
        if (f->sparse)
            flat_update_dirty(&c->flat);
        else
            flat_update_all(&c->flat);
        t2 = bench_now_ns();
        break;
    case BENCH_PEER_FUSED: {
        gather_soa(c, f);
        const uint32_t blocks = c->joints / 4;
        t0 = t1 = bench_now_ns();
        for (uint32_t ch = 0; ch < c->chars; ch++)
            fused_local_to_model(c->skel_parent, c->joints, c->soa + (size_t)ch * blocks,
                                 c->fused_out + (size_t)ch * c->joints);
        t2 = bench_now_ns();
        *set_ns = NAN;
        return t2 - t0;
    }
    case BENCH_PEER_NAIVE:
        gather_values(c, f);
        t0 = bench_now_ns();
        naive_write(c, f);
        t1 = bench_now_ns();
        naive_render_all(&c->naive);
        t2 = bench_now_ns();
        break;
    default:
        t0 = t1 = bench_now_ns();
        memcpy(c->copy_dst, c->copy_src, (size_t)f->recomputed * sizeof *c->copy_dst);
        t2 = bench_now_ns();
        *set_ns = NAN;
        return t2 - t0;
    }
    *set_ns = t1 - t0;
    return t2 - t0;
}

static bool runs(const peers_ctx *c, int who)
{
    return who != BENCH_PEER_FUSED || c->joints != 0;
}

/* ------------------------------------------------------------------------ */
/* The reference                                                            */
/* ------------------------------------------------------------------------ */

static void ref_local(const peers_ctx *c, uint32_t src, double m[16])
{
    const uint32_t j = src & SRC_INDEX;
    if ((src & ~SRC_INDEX) == SRC_TRS) {
        bench_trs_matrix_d(c->trs->t[j], c->trs->q[j], c->trs->s[j], m);
        return;
    }
    const float *f = (src & ~SRC_INDEX) == SRC_MAT ? c->pool[j] : c->init[j];
    for (int k = 0; k < 16; k++)
        m[k] = f[k];
}

/* The largest relative difference of w from ref; NAN when any entry is not
 * a number. */
static double worst_of(const float w[16], const double ref[16], double worst)
{
    for (int k = 0; k < 16; k++) {
        const double e = fabs(w[k] - ref[k]) / fmax(1.0, fabs(ref[k]));
        if (!(e <= worst))
            worst = e;
    }
    return worst;
}

/* Every contender's worlds against the double-precision product of the
 * locals last written. Returns false on a gross mismatch. */
static bool check(peers_ctx *c, bench_results *res, const char *cell)
{
    const bench_topo *t = c->topo;
    for (uint32_t i = 0; i < t->n; i++) {
        double l[16];
        ref_local(c, c->src[i], l);
        const int32_t p = t->parent[i];
        if (p < 0) {
            memcpy(c->ref[i], l, sizeof l);
            continue;
        }
        const double *a = c->ref[p];
        for (int col = 0; col < 4; col++)
            for (int r = 0; r < 4; r++)
                c->ref[i][col * 4 + r] = a[r] * l[col * 4] + a[4 + r] * l[col * 4 + 1] +
                                         a[8 + r] * l[col * 4 + 2] + a[12 + r] * l[col * 4 + 3];
    }
    double err[BENCH_PEERS] = {0};
    for (uint32_t i = 0; i < t->n; i++) {
        float w[16];
        for (int k = 0; k < 2; k++) {
            if (sgrt_node_world(c->s[k], c->h[k][i], w) != SGRT_OK)
                w[0] = NAN;
            err[k] = worst_of(w, c->ref[i], err[k]);
        }
        err[BENCH_PEER_FLAT] = worst_of(c->flat.world[i], c->ref[i], err[BENCH_PEER_FLAT]);
        err[BENCH_PEER_NAIVE] = worst_of(c->naive.node[i]->world, c->ref[i], err[BENCH_PEER_NAIVE]);
        if (c->joints)
            err[BENCH_PEER_FUSED] = worst_of(c->fused_out[i], c->ref[i], err[BENCH_PEER_FUSED]);
    }
    static const char *const who[BENCH_PEERS] = {"sgrt single", "sgrt batch", "flat", "fused",
                                                 "naive", "copy"};
    bool ok = true;
    for (int k = 0; k < BENCH_PEER_COPY; k++) {
        if (!(err[k] <= PEERS_TOLERANCE)) {
            fprintf(stderr, "\n%s %s: VERIFY FAILED: %s is %g from the reference\n", t->name,
                    cell, who[k], err[k]);
            ok = false;
        }
        if (!(err[k] <= res->peer_err[k]))
            res->peer_err[k] = err[k];
    }
    return ok;
}

/* ------------------------------------------------------------------------ */
/* Cells and rounds                                                         */
/* ------------------------------------------------------------------------ */

static void note_sources(peers_ctx *c, const peer_frame *f)
{
    const uint32_t kind = f->trs ? SRC_TRS : SRC_MAT;
    for (uint32_t k = 0; k < f->count; k++) {
        const uint32_t i = f->idx ? f->idx[k] : k;
        c->src[i] = kind | ((f->g + i) & SRC_INDEX);
    }
}

/* The writers' binding for a kind whose nodes stay the same every frame. */
static void bind_writers(peers_ctx *c, const peer_frame *f)
{
    for (int w = 0; w < 2; w++) {
        if (!writer(w)->bind)
            continue;
        for (uint32_t k = 0; k < f->count; k++)
            c->nodes[k] = c->h[w][f->idx ? f->idx[k] : k];
        c->bound[w] = writer(w)->bind(c->s[w], c->nodes, f->count);
    }
}

static void unbind_writers(peers_ctx *c)
{
    for (int w = 0; w < 2; w++) {
        if (writer(w)->unbind)
            writer(w)->unbind(c->s[w], c->bound[w]);
        c->bound[w] = NULL;
    }
}

/* The frame of `kind` with serial g; 1 % frames draw their nodes into
 * list (n / 100 entries). */
static peer_frame frame_of(const peers_ctx *c, int kind, uint32_t *list, bench_rng *rng)
{
    const uint32_t n = c->topo->n;
    peer_frame f = {c->serial, n, NULL, kind >= K_TRS10, false, 0};
    if (kind == K_ONE) {
        f.count = n / 100 ? n / 100 : 1;
        for (uint32_t k = 0; k < f.count; k++)
            list[k] = bench_rng_below(rng, n);
        f.idx = list;
        f.sparse = true;
    } else if (kind == K_TRS10) {
        f.count = c->trs10_count;
        f.idx = c->trs10;
        f.sparse = true;
    }
    return f;
}

/* One cell: `rounds` rounds, each running every contender in turn. Warm:
 * a contender's measured frame follows its own unmeasured one; evicted:
 * the evicting buffer is written before it. Every contender gets the same
 * frames in the same order, so all end with the same locals. */
static bool cell(peers_ctx *c, bench_results *res, int kind, bool evicted, int rounds,
                 bench_rng *rng)
{
    const bench_topo *t = c->topo;
    const uint32_t one = t->n / 100 ? t->n / 100 : 1;
    uint32_t *lists = malloc(2 * (size_t)one * sizeof *lists);
    double *total = malloc((size_t)BENCH_PEERS * (size_t)rounds * sizeof *total);
    double *set = malloc((size_t)BENCH_PEERS * (size_t)rounds * sizeof *set);
    uint32_t *count = malloc((size_t)rounds * sizeof *count);
    bench_peer_row *row = lists && total && set && count ? bench_results_add_peer(res) : NULL;
    bool ok = row != NULL;
    const int per_round = evicted ? 1 : 2;
    for (int r = 0; ok && r < rounds; r++) {
        peer_frame fr[2];
        for (int k = 0; k < per_round; k++) {
            fr[k] = frame_of(c, kind, lists + (size_t)k * one, rng);
            c->serial++;
        }
        if (r == 0 && kind != K_ONE)
            bind_writers(c, &fr[0]);
        for (int who = 0; who < BENCH_PEERS; who++) {
            if (!runs(c, who))
                continue;
            for (int k = 0; k < per_round; k++) {
                double s;
                if (evicted)
                    bench_evict_touch(c->ev);
                const double ns = run_frame(c, who, &fr[k], &s);
                if (k == per_round - 1) {
                    total[who * rounds + r] = ns;
                    set[who * rounds + r] = s;
                }
            }
        }
        count[r] = fr[per_round - 1].recomputed;
        for (int k = 0; k < per_round; k++)
            note_sources(c, &fr[k]);
    }
    if (ok) {
        const double n = t->n;
#define MED(series, who) (runs(c, who) ? bench_median(series + (who) * rounds, rounds) / n : NAN)
        snprintf(row->scene, sizeof row->scene, "%s", t->name);
        row->frame = kind_name[kind];
        row->evicted = evicted;
        row->nodes = t->n;
        row->moved = kind == K_ONE ? one : kind == K_TRS10 ? c->trs10_count : t->n;
        row->recomputed = bench_median_u32(count, rounds);
        row->frames = rounds;
        row->single = MED(total, BENCH_PEER_SINGLE);
        row->single_set = MED(set, BENCH_PEER_SINGLE);
        row->batch = MED(total, BENCH_PEER_BATCH);
        row->batch_set = MED(set, BENCH_PEER_BATCH);
        row->flat = MED(total, BENCH_PEER_FLAT);
        row->flat_set = MED(set, BENCH_PEER_FLAT);
        row->fused = MED(total, BENCH_PEER_FUSED);
        row->naive = MED(total, BENCH_PEER_NAIVE);
        row->naive_set = MED(set, BENCH_PEER_NAIVE);
        row->copy = MED(total, BENCH_PEER_COPY);
#undef MED
        row->sgrt_path = peers_sgrt_batch_path(kind >= K_TRS10, kind == K_ONE, row->moved == t->n);
        char what[32];
        snprintf(what, sizeof what, "%s %s", row->frame, evicted ? "evicted" : "warm");
        if (!check(c, res, what))
            res->verify_failures++;
    }
    unbind_writers(c);
    free(lists), free(total), free(set), free(count);
    return ok;
}

/* ------------------------------------------------------------------------ */
/* Building                                                                 */
/* ------------------------------------------------------------------------ */

static void ctx_free(peers_ctx *c)
{
    for (int w = 0; w < 2; w++) {
        sgrt_scene_destroy(c->s[w]);
        free(c->h[w]);
    }
    flat_free(&c->flat);
    naive_free(&c->naive);
    bench_aligned_free(c->soa);
    bench_aligned_free(c->fused_out);
    bench_aligned_free(c->copy_src);
    bench_aligned_free(c->copy_dst);
    free(c->nodes);
    bench_aligned_free(c->local);
    free(c->t), free(c->q), free(c->s3);
    free(c->trs10), free(c->src), free(c->ref);
}

static bool scene_build(const peers_ctx *c, sgrt_scene **out, sgrt_node **out_nodes)
{
    const bench_topo *t = c->topo;
    sgrt_scene_desc desc = {0};
    desc.initial_capacity = t->n;
    if (sgrt_scene_create(&desc, out) != SGRT_OK)
        return false;
    sgrt_node *h = *out_nodes = malloc((size_t)t->n * sizeof *h);
    if (!h)
        return false;
    for (uint32_t i = 0; i < t->n; i++) {
        const sgrt_node parent = t->parent[i] < 0 ? SGRT_NULL_NODE : h[t->parent[i]];
        if (sgrt_node_create(*out, parent, &h[i]) != SGRT_OK ||
            sgrt_node_set_local(*out, h[i], c->init[i & SRC_INDEX]) != SGRT_OK)
            return false;
    }
    return sgrt_scene_update(*out) == t->n;
}

/* 10 % of the nodes, chosen at random once (fixed seed per size), listed
 * in creation order, as a skeleton lists its bones. */
static bool pick_trs10(peers_ctx *c)
{
    const uint32_t n = c->topo->n;
    uint8_t *taken = calloc(n, 1);
    c->trs10_count = n / 10 ? n / 10 : 1;
    c->trs10 = malloc((size_t)c->trs10_count * sizeof *c->trs10);
    if (!taken || !c->trs10) {
        free(taken);
        return false;
    }
    bench_rng rng = {0x7e10u + n};
    for (uint32_t got = 0; got < c->trs10_count;) {
        const uint32_t i = bench_rng_below(&rng, n);
        got += !taken[i];
        taken[i] = 1;
    }
    for (uint32_t i = 0, k = 0; i < n; i++)
        if (taken[i])
            c->trs10[k++] = i;
    free(taken);
    return true;
}

static bool ctx_build(peers_ctx *c, const bench_topo *t)
{
    const uint32_t n = t->n;
    c->topo = t;
    for (int w = 0; w < 2; w++)
        if (!scene_build(c, &c->s[w], &c->h[w]))
            return false;
    if (!flat_init(&c->flat, t->parent, n))
        return false;
    for (uint32_t i = 0; i < n; i++)
        memcpy(c->flat.local[i], c->init[i & SRC_INDEX], 64);
    flat_update_all(&c->flat);
    if (!naive_build(&c->naive, t->parent, n, false, 0))
        return false;
    for (uint32_t i = 0; i < n; i++)
        naive_set_local(c->naive.node[i], c->init[i & SRC_INDEX]);
    naive_render_all(&c->naive);
    if (t->skel_joints) {
        c->joints = t->skel_joints;
        c->chars = n / c->joints;
        for (uint32_t j = 0; j < c->joints; j++)
            c->skel_parent[j] = (int16_t)t->parent[j];
        c->soa = bench_aligned_alloc(64, (size_t)n / 4 * sizeof *c->soa);
        c->fused_out = bench_aligned_alloc(64, (size_t)n * 64);
        if (!c->soa || !c->fused_out)
            return false;
    }
    c->copy_src = bench_aligned_alloc(64, (size_t)n * 64);
    c->copy_dst = bench_aligned_alloc(64, (size_t)n * 64);
    c->nodes = malloc((size_t)n * sizeof *c->nodes);
    c->local = bench_aligned_alloc(64, (size_t)n * 64);
    c->t = malloc((size_t)n * sizeof *c->t);
    c->q = malloc((size_t)n * sizeof *c->q);
    c->s3 = malloc((size_t)n * sizeof *c->s3);
    c->src = malloc((size_t)n * sizeof *c->src);
    c->ref = malloc((size_t)n * sizeof *c->ref);
    if (!c->copy_src || !c->copy_dst || !c->nodes || !c->local || !c->t || !c->q || !c->s3 ||
        !c->src || !c->ref || !pick_trs10(c))
        return false;
    for (uint32_t i = 0; i < n; i++) {
        memcpy(c->copy_src[i], c->init[i & SRC_INDEX], 64);
        c->src[i] = SRC_INIT | (i & SRC_INDEX);
    }
    memset(c->copy_dst, 0, (size_t)n * 64);
    return true;
}

bool bench_peers_scene(bench_results *res, const bench_topo *t, unsigned kinds, bool quick,
                       int reps, float (*pool)[16], float (*init)[16], const bench_trs_pool *trs,
                       bench_evict *ev)
{
    peers_ctx c;
    memset(&c, 0, sizeof c);
    c.pool = pool;
    c.init = init;
    c.trs = trs;
    c.ev = ev;
    const double tb = bench_now_ns();
    fprintf(stderr, "peers %-12s %8u nodes: building...", t->name, t->n);
    fflush(stderr);
    if (!ctx_build(&c, t)) {
        fprintf(stderr, " out of memory\n");
        ctx_free(&c);
        return false;
    }
    if (!res->peer_kernel)
        res->peer_kernel = sgrt_scene_simd_name(c.s[0]);
    const int warm = reps > 0 ? reps : quick ? 7 : t->n <= 100000 ? 15 : t->n <= 300000 ? 11 : 7;
    const int cold = !ev ? 0 : reps > 0 ? reps : quick ? 3 : 7;
    if (cold)
        fprintf(stderr, " %.1f s; measuring %d warm + %d evicted rounds...",
                (bench_now_ns() - tb) * 1e-9, warm, cold);
    else
        fprintf(stderr, " %.1f s; measuring %d warm rounds...", (bench_now_ns() - tb) * 1e-9, warm);
    fflush(stderr);
    const double tm = bench_now_ns();
    bench_rng rng = {0x9ee75u + t->n};
    bool ok = true;
    for (int kind = t->skel_joints ? K_TRS100 : 0; ok && kind < KINDS; kind++) {
        if (!(kinds & (1u << kind)))
            continue;
        ok = cell(&c, res, kind, false, warm, &rng);
        if (ok && cold)
            ok = cell(&c, res, kind, true, cold, &rng);
    }
    if (c.refused) {
        fprintf(stderr, "\n%s: VERIFY FAILED: sgrt refused %u writes\n", t->name, c.refused);
        res->verify_failures++;
    }
    fprintf(stderr, ok ? " %.1f s\n" : " out of memory\n", (bench_now_ns() - tm) * 1e-9);
    ctx_free(&c);
    return ok;
}
