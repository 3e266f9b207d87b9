/* SPDX-License-Identifier: MIT */
/* The skinning section of the benchmark (skin.h). Crowds of one rig: 1,000
 * characters of 64 joints and 200 of 256 (skeleton.c's humanoids), each
 * under a character node that places it in the world and is its skin's
 * mesh (palettes in the character's space, as a renderer draws a skinned
 * mesh under its node), with inverse binds from a bind pose. Every frame
 * writes TRS through one writer per character (the animation system of
 * each) and updates. Contenders, timed in every round back to back, their
 * order swapped every other round, each timed frame right after an untimed
 * one of the same kind (warm):
 *
 *   none   the scene without skins;
 *   skins  the same scene with one skin per character (sgrt_skin_create:
 *          no normals, no previous palette);
 *   fused  bench/fused.c's job (ozz's LocalToModelJob design) on SoA TRS,
 *          every character every frame, then the palette loop a renderer
 *          writes after it (fused_palette: models x inverse binds into 3x4
 *          rows), as ozz's skinning sample does.
 *
 * Frames: every joint moved; 1 % of the characters moved (their every
 * joint), others still; nothing moved. The targets:
 *
 *   S1  all moved: skins frame / none frame;
 *   S2  1 % moved: (skins - none) per moved joint / S1's (skins - none) per
 *       joint;
 *   S3  nothing moved: (skins - none) per joint, in ns; and the ranges its
 *       collects return (0);
 *   S4  all moved: skins frame / fused + palette loop;
 *   S5  1 % moved: skins frame / fused + palette loop over every character;
 *   S6  1 % moved: bytes the collects name (merge gap 0, 48 a joint) / 48 x
 *       the joints moved.
 *
 * Times are medians over the rounds, ratios medians of the rounds' ratios.
 * After the rounds every palette of the skins scene and every row of fused
 * is checked against a double-precision model of the last TRS written. */
#define _POSIX_C_SOURCE 200809L

#include "skin.h"
#include "fused.h"
#include "platform.h"
#include "scenes.h"
#include "table.h"
#include "timing.h"

#include <sgrt.h>

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define POOL 8192u /* TRS inputs, a power of two */
#define POOL_MASK (POOL - 1u)
#define MAX_ROUNDS 64
/* A palette entry further than this from the model, relative to max(1,
 * |entry|), fails the run: far above float rounding at these depths, far
 * below a wrong product. */
#define VERIFY_TOLERANCE 1e-3

enum { F_ALL, F_ONE, F_IDLE, FRAMES };
enum { C_NONE, C_SKINS, C_FUSED, CONTENDERS };
static const char *const frame_name[FRAMES] = {"all", "1%", "idle"};

typedef struct sk_rig {
    char name[32];
    uint32_t chars, joints, n; /* n: chars x (1 + joints) nodes */
    int32_t parent[256];       /* one character's joints: parent joint, -1 the root joint */
    sgrt_scene *s[2];          /* C_NONE, C_SKINS */
    sgrt_node *h[2];           /* per character: its node, then its joints */
    sgrt_writer *w[2];         /* per character, over its joints */
    sgrt_skin *k;              /* per character, in s[C_SKINS] */
    float (*inv_bind)[16];     /* per joint of the rig (every character alike) */
    float (*place)[16];        /* per character: its node's local */
    bench_trs_pool trs;
    uint32_t *src;             /* per joint of every character: its last pool entry */
    float (*t)[3], (*q)[4], (*sc)[3]; /* a frame's inputs, per joint */
    uint32_t *pick;            /* a 1 % frame's characters */
    uint32_t picks;
    /* fused */
    int16_t fparent[256];
    fused_soa_trs *soa;
    float (*models)[16];
    float *rows;
    uint32_t serial;
} sk_rig;

typedef struct sk_row {
    double ns[FRAMES][CONTENDERS]; /* per joint, medians */
    double ratio_none[FRAMES];     /* skins / none, median of the rounds' */
    double ratio_fused[FRAMES];    /* skins / fused (all, 1 %) */
    double s2, s3;                 /* S2 ratio; S3 ns per joint */
    double s6, s6_all;             /* bytes / (48 x moved), 1 % and all */
    uint32_t idle_ranges;          /* what the collects after idle frames returned */
    double collect_ns;             /* a collect after a 1 % frame, per skin */
    double worst[2];               /* skins, fused: error / max(1, |entry|) */
} sk_row;

/* ---- building ----------------------------------------------------------------------- */

static void mul_d(const double *a, const double *b, double *out)
{
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++)
            out[4 * c + r] = a[r] * b[4 * c] + a[4 + r] * b[4 * c + 1] + a[8 + r] * b[4 * c + 2] +
                             a[12 + r] * b[4 * c + 3];
}

/* The inverse of T x R x S, S^-1 x R^T x T^-1, in double. */
static void trs_inverse_d(const float t[3], const float q[4], const float sc[3], double m[16])
{
    static const float zero[3] = {0, 0, 0}, one[3] = {1, 1, 1};
    double r[16];
    bench_trs_matrix_d(zero, q, one, r);
    for (int c = 0; c < 3; c++)
        for (int k = 0; k < 3; k++)
            m[4 * c + k] = r[4 * k + c] / sc[k]; /* row k of R^T, scaled by 1 / s_k */
    for (int k = 0; k < 3; k++)
        m[12 + k] = -(m[k] * t[0] + m[4 + k] * t[1] + m[8 + k] * t[2]);
    m[3] = m[7] = m[11] = 0.0;
    m[15] = 1.0;
}

/* The model-space worlds of one character from its joints' pool entries. */
static void model_d(const sk_rig *g, const uint32_t *src, double (*m)[16])
{
    for (uint32_t j = 0; j < g->joints; j++) {
        double l[16];
        bench_trs_matrix_d(g->trs.t[src[j]], g->trs.q[src[j]], g->trs.s[src[j]], l);
        if (g->parent[j] < 0)
            memcpy(m[j], l, sizeof l);
        else
            mul_d(m[g->parent[j]], l, m[j]);
    }
}

static void rig_free(sk_rig *g)
{
    for (int c = 0; c < 2; c++) {
        sgrt_scene_destroy(g->s[c]);
        free(g->h[c]);
        free(g->w[c]);
    }
    free(g->k), free(g->src), free(g->t), free(g->q), free(g->sc), free(g->pick);
    bench_aligned_free(g->inv_bind);
    bench_aligned_free(g->place);
    bench_aligned_free(g->soa);
    bench_aligned_free(g->models);
    bench_aligned_free(g->rows);
    bench_trs_pool_free(&g->trs);
}

static bool rig_build(sk_rig *g, uint32_t chars, uint32_t joints)
{
    memset(g, 0, sizeof *g);
    snprintf(g->name, sizeof g->name, "skel-%ux%u", chars, joints);
    g->chars = chars;
    g->joints = joints;
    g->n = chars * (joints + 1u);
    const size_t nj = (size_t)chars * joints;
    bool ok = bench_skeleton_parents(joints, g->parent) &&
              bench_trs_pool_init(&g->trs, POOL, 0x5c1au + joints);
    g->inv_bind = bench_aligned_alloc(64, joints * 64u);
    g->place = bench_aligned_alloc(64, chars * 64u);
    g->src = malloc(nj * sizeof *g->src);
    g->t = malloc(nj * sizeof *g->t);
    g->q = malloc(nj * sizeof *g->q);
    g->sc = malloc(nj * sizeof *g->sc);
    g->pick = malloc(chars * sizeof *g->pick);
    g->k = malloc(chars * sizeof *g->k);
    g->soa = bench_aligned_alloc(64, nj / 4u * sizeof *g->soa);
    g->models = bench_aligned_alloc(64, nj * 64u);
    g->rows = bench_aligned_alloc(64, nj * 48u);
    ok = ok && g->inv_bind && g->place && g->src && g->t && g->q && g->sc && g->pick && g->k &&
         g->soa && g->models && g->rows;
    if (!ok)
        return false;
    for (uint32_t j = 0; j < joints; j++)
        g->fparent[j] = (int16_t)g->parent[j];
    /* The bind pose: pool entry j for joint j; its model space inverted in
     * double, inverse(M_j) = inverse(L_j) x inverse(M_parent). */
    double (*inv)[16] = malloc(joints * sizeof *inv);
    if (!inv)
        return false;
    for (uint32_t j = 0; j < joints; j++) {
        double l[16];
        trs_inverse_d(g->trs.t[j], g->trs.q[j], g->trs.s[j], l);
        if (g->parent[j] < 0)
            memcpy(inv[j], l, sizeof l);
        else
            mul_d(l, inv[g->parent[j]], inv[j]);
        for (int e = 0; e < 16; e++)
            g->inv_bind[j][e] = (float)inv[j][e];
    }
    free(inv);
    for (size_t i = 0; i < nj; i++)
        g->src[i] = (uint32_t)(i & POOL_MASK);
    /* Characters on a grid, 2 m apart. */
    for (uint32_t c = 0; c < chars; c++) {
        static const float id[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
        memcpy(g->place[c], id, sizeof id);
        g->place[c][12] = 2.0f * (float)(c % 32u);
        g->place[c][14] = 2.0f * (float)(c / 32u);
    }
    for (int sc = 0; sc < 2; sc++) {
        const sgrt_scene_desc d = {.initial_capacity = g->n};
        g->h[sc] = malloc((size_t)g->n * sizeof *g->h[sc]);
        g->w[sc] = malloc(chars * sizeof *g->w[sc]);
        if (!g->h[sc] || !g->w[sc] || sgrt_scene_create(&d, &g->s[sc]) != SGRT_OK)
            return false;
        for (uint32_t c = 0; c < chars; c++) {
            sgrt_node *h = g->h[sc] + (size_t)c * (joints + 1u);
            if (sgrt_node_create(g->s[sc], SGRT_NULL_NODE, &h[0]) != SGRT_OK ||
                sgrt_node_set_local(g->s[sc], h[0], g->place[c]) != SGRT_OK)
                return false;
            for (uint32_t j = 0; j < joints; j++) {
                const uint32_t p = g->parent[j] < 0 ? 0u : 1u + (uint32_t)g->parent[j];
                const uint32_t i = c * joints + j;
                if (sgrt_node_create(g->s[sc], h[p], &h[1 + j]) != SGRT_OK ||
                    sgrt_node_set_trs(g->s[sc], h[1 + j], g->trs.t[g->src[i]], g->trs.q[g->src[i]],
                                      g->trs.s[g->src[i]]) != SGRT_OK)
                    return false;
            }
            if (sgrt_writer_create(g->s[sc], joints, h + 1, 0, &g->w[sc][c]) != SGRT_OK)
                return false;
            if (sc == C_SKINS) {
                const sgrt_skin_desc kd = {joints, h + 1, g->inv_bind[0], h[0], 0};
                if (sgrt_skin_create(g->s[sc], &kd, &g->k[c]) != SGRT_OK)
                    return false;
            }
        }
        if (sgrt_scene_update(g->s[sc]) != g->n)
            return false;
    }
    return true;
}

/* ---- frames ------------------------------------------------------------------------- */

/* The inputs of a frame of kind `kind` (outside the clock): pool entries
 * from serial g on, for every joint or the picked characters'. */
static void gather(sk_rig *g, int kind, uint32_t serial, bench_rng *rng)
{
    const uint32_t J = g->joints;
    if (kind == F_ONE) {
        g->picks = g->chars / 100u ? g->chars / 100u : 1u;
        for (uint32_t k = 0; k < g->picks; k++)
            g->pick[k] = bench_rng_below(rng, g->chars);
    }
    const uint32_t count = kind == F_ALL ? g->chars : kind == F_ONE ? g->picks : 0u;
    for (uint32_t k = 0; k < count; k++) {
        const uint32_t c = kind == F_ALL ? k : g->pick[k];
        for (uint32_t j = 0; j < J; j++) {
            const uint32_t i = c * J + j, e = (serial * 7u + i) & POOL_MASK;
            g->src[i] = e;
            memcpy(g->t[i], g->trs.t[e], sizeof g->t[i]);
            memcpy(g->q[i], g->trs.q[e], sizeof g->q[i]);
            memcpy(g->sc[i], g->trs.s[e], sizeof g->sc[i]);
        }
    }
}

static void gather_soa(sk_rig *g)
{
    for (uint32_t i = 0; i < g->chars * g->joints; i++) {
        const uint32_t e = g->src[i], l = i % 4u;
        fused_soa_trs *b = &g->soa[i / 4u];
        b->tx[l] = g->trs.t[e][0], b->ty[l] = g->trs.t[e][1], b->tz[l] = g->trs.t[e][2];
        b->qx[l] = g->trs.q[e][0], b->qy[l] = g->trs.q[e][1], b->qz[l] = g->trs.q[e][2];
        b->qw[l] = g->trs.q[e][3];
        b->sx[l] = g->trs.s[e][0], b->sy[l] = g->trs.s[e][1], b->sz[l] = g->trs.s[e][2];
    }
}

/* One sgrt frame of scene sc: the writes and the update, timed. */
static double sgrt_frame(sk_rig *g, int sc, int kind)
{
    const uint32_t J = g->joints;
    const uint32_t count = kind == F_ALL ? g->chars : kind == F_ONE ? g->picks : 0u;
    const double t0 = bench_now_ns();
    for (uint32_t k = 0; k < count; k++) {
        const uint32_t c = kind == F_ALL ? k : g->pick[k];
        BENCH_OK(sgrt_writer_set_trs(g->s[sc], g->w[sc][c], g->t[c * J], g->q[c * J],
                                     g->sc[c * J], NULL));
    }
    (void)sgrt_scene_update(g->s[sc]);
    return bench_now_ns() - t0;
}

static double fused_frame(sk_rig *g)
{
    const uint32_t J = g->joints, blocks = J / 4u;
    const double t0 = bench_now_ns();
    for (uint32_t c = 0; c < g->chars; c++) {
        fused_local_to_model(g->fparent, J, g->soa + (size_t)c * blocks, g->models + (size_t)c * J);
        fused_palette((const float(*)[16])g->models + (size_t)c * J,
                      (const float(*)[16])g->inv_bind, J, g->rows + (size_t)c * J * 12u);
    }
    return bench_now_ns() - t0;
}

/* Every skin's collect drained, merge gap 0: the joints it names. */
static uint64_t drain(const sk_rig *g, uint32_t *ranges)
{
    sgrt_range r[64];
    uint64_t joints = 0;
    for (uint32_t c = 0; c < g->chars; c++) {
        uint32_t n;
        bool more;
        do {
            BENCH_OK(sgrt_skin_collect(g->s[C_SKINS], g->k[c], r, 64, 0, &n, &more));
            for (uint32_t i = 0; i < n; i++)
                joints += r[i].count;
            if (ranges)
                *ranges += n;
        } while (more);
    }
    return joints;
}

/* ---- measuring ------------------------------------------------------------------------ */

static bool measure(sk_rig *g, int rounds, sk_row *row)
{
    static double ns[FRAMES][CONTENDERS][MAX_ROUNDS];
    double ratio_none[FRAMES][MAX_ROUNDS], ratio_fused[FRAMES][MAX_ROUNDS];
    double s2[MAX_ROUNDS], s3[MAX_ROUNDS], s6[MAX_ROUNDS], s6_all[MAX_ROUNDS], col[MAX_ROUNDS];
    const double joints = (double)g->chars * g->joints;
    bench_rng rng = {0x5c1e5u + g->joints};
    memset(row, 0, sizeof *row);
    (void)drain(g, NULL);
    for (int r = -1; r < rounds; r++) {
        const int first = r & 1;
        for (int kind = 0; kind < FRAMES; kind++) {
            /* Both sgrt scenes get the same writes; fused its SoA form of
             * the all-moved frame's. */
            for (int o = 0; o < CONTENDERS; o++) {
                const int who = o == 2 ? C_FUSED : o ^ first;
                if (who == C_FUSED && kind != F_ALL)
                    continue;
                double t = 0.0;
                for (int f = 0; f < 2; f++) {
                    bench_rng pick = rng; /* the two sgrt scenes: the same characters */
                    gather(g, kind, g->serial + (uint32_t)f, &pick);
                    if (who == C_FUSED) {
                        gather_soa(g);
                        t = fused_frame(g);
                    } else {
                        t = sgrt_frame(g, who, kind);
                    }
                    if (who == C_SKINS && f == 1 && r >= 0) {
                        /* S6, S3's ranges, the collect's cost. */
                        uint32_t ranges = 0;
                        const double c0 = bench_now_ns();
                        const uint64_t named = drain(g, &ranges);
                        const double c1 = bench_now_ns();
                        const double moved = kind == F_ALL   ? joints
                                             : kind == F_ONE ? (double)g->picks * g->joints
                                                             : 0.0;
                        if (kind == F_ONE) {
                            s6[r] = (double)named / moved;
                            col[r] = (c1 - c0) / g->chars;
                        } else if (kind == F_ALL) {
                            s6_all[r] = (double)named / moved;
                        } else {
                            row->idle_ranges += ranges;
                        }
                    } else if (who == C_SKINS) {
                        (void)drain(g, NULL);
                    }
                }
                if (r >= 0)
                    ns[kind][who][r] = t / joints;
            }
            if (kind == F_ONE)
                for (int f = 0; f < 2; f++)
                    (void)bench_rng_next(&rng);
            g->serial += 2u;
        }
        if (r < 0)
            continue;
        for (int kind = 0; kind < FRAMES; kind++) {
            ratio_none[kind][r] = ns[kind][C_SKINS][r] / ns[kind][C_NONE][r];
            ratio_fused[kind][r] = ns[kind][C_SKINS][r] / ns[F_ALL][C_FUSED][r];
        }
        const double per_all = ns[F_ALL][C_SKINS][r] - ns[F_ALL][C_NONE][r];
        const double per_one = (ns[F_ONE][C_SKINS][r] - ns[F_ONE][C_NONE][r]) * joints /
                               ((double)g->picks * g->joints);
        s2[r] = per_one / per_all;
        s3[r] = ns[F_IDLE][C_SKINS][r] - ns[F_IDLE][C_NONE][r];
    }
    for (int kind = 0; kind < FRAMES; kind++) {
        for (int c = 0; c < CONTENDERS; c++)
            row->ns[kind][c] = kind == F_ALL || c != C_FUSED ? bench_median(ns[kind][c], rounds)
                                                             : NAN;
        row->ratio_none[kind] = bench_median(ratio_none[kind], rounds);
        row->ratio_fused[kind] = kind != F_IDLE ? bench_median(ratio_fused[kind], rounds) : NAN;
    }
    row->s2 = bench_median(s2, rounds);
    row->s3 = bench_median(s3, rounds);
    row->s6 = bench_median(s6, rounds);
    row->s6_all = bench_median(s6_all, rounds);
    row->collect_ns = bench_median(col, rounds);
    return true;
}

/* Every palette of the skins scene and every fused row against the model
 * of the last TRS written: palette = model-space world x inverse bind (the
 * mesh is the character's node, so inverse(mesh) x world is the model
 * space). */
static bool verify(sk_rig *g, sk_row *row)
{
    const uint32_t J = g->joints;
    double (*m)[16] = malloc(J * sizeof *m);
    if (!m)
        return false;
    gather_soa(g);
    (void)fused_frame(g);
    for (uint32_t c = 0; c < g->chars; c++) {
        model_d(g, g->src + (size_t)c * J, m);
        uint32_t count = 0;
        const float *pal = sgrt_skin_palette(g->s[C_SKINS], g->k[c], &count);
        if (!pal || count != J) {
            free(m);
            return false;
        }
        for (uint32_t j = 0; j < J; j++) {
            double b[16], p[16];
            for (int e = 0; e < 16; e++)
                b[e] = g->inv_bind[j][e];
            mul_d(m[j], b, p);
            for (int r = 0; r < 3; r++)
                for (int cc = 0; cc < 4; cc++) {
                    const double want = p[4 * cc + r], scale = fmax(1.0, fabs(want));
                    const double e0 = fabs(pal[12u * j + 4u * (uint32_t)r + (uint32_t)cc] - want) / scale;
                    const double e1 =
                        fabs(g->rows[((size_t)c * J + j) * 12u + 4u * (uint32_t)r + (uint32_t)cc] - want) /
                        scale;
                    row->worst[0] = !(e0 <= row->worst[0]) ? e0 : row->worst[0];
                    row->worst[1] = !(e1 <= row->worst[1]) ? e1 : row->worst[1];
                }
        }
    }
    free(m);
    const char *what = NULL;
    const bool sane = sgrt_scene_check(g->s[C_SKINS], &what) == SGRT_OK;
    if (!sane)
        fprintf(stderr, "\n%s: VERIFY FAILED: sgrt_scene_check: %s\n", g->name, what ? what : "?");
    if (!(row->worst[0] <= VERIFY_TOLERANCE && row->worst[1] <= VERIFY_TOLERANCE))
        fprintf(stderr, "\n%s: VERIFY FAILED: palettes %.3g (sgrt), %.3g (fused) from the model\n",
                g->name, row->worst[0], row->worst[1]);
    return sane && row->worst[0] <= VERIFY_TOLERANCE && row->worst[1] <= VERIFY_TOLERANCE;
}

/* ---- the report --------------------------------------------------------------------- */

bool bench_skin_run(FILE *out, bool quick)
{
    const int rounds = quick ? 9 : 41;
    const double t_start = bench_now_ns();
    static const uint32_t shape[2][2] = {{1000, 64}, {200, 256}};
    sk_row rows[2];
    char names[2][32];
    int nrows = 0;
    bool ok = true;
    const char *kernel = "-";
    fprintf(out, "\nskinning palettes (sgrt_skin_*; ratios from this run)\n");
    for (int i = 0; i < 2; i++) {
        sk_rig g;
        if (!rig_build(&g, shape[i][0], shape[i][1])) {
            fprintf(stderr, "skinning: %s could not be built\n", g.name);
            rig_free(&g);
            ok = false;
            continue;
        }
        kernel = sgrt_scene_simd_name(g.s[C_SKINS]);
        ok &= measure(&g, rounds, &rows[nrows]);
        ok &= verify(&g, &rows[nrows]);
        memcpy(names[nrows], g.name, sizeof names[nrows]);
        nrows++;
        rig_free(&g);
    }
    fprintf(out,
            "frames (writes through one writer per character + sgrt_scene_update; fused: the job\n"
            "and the palette loop, every character), ns per joint, kernel %s; medians of %d\n"
            "rounds, warm; none: no skins; skins: one per character, mesh its node\n",
            kernel, rounds);
    fprintf(out, "%-13s %-5s | %8s %8s %8s | %8s %8s\n", "rig", "frame", "none", "skins",
            "fused", "skin/no", "skin/fus");
    for (int i = 0; i < nrows; i++)
        for (int kind = 0; kind < FRAMES; kind++) {
            char c[5][16];
            fprintf(out, "%-13s %-5s | %8s %8s %8s | %8s %8s\n", names[i], frame_name[kind],
                    bench_cell(c[0], rows[i].ns[kind][C_NONE]),
                    bench_cell(c[1], rows[i].ns[kind][C_SKINS]),
                    bench_cell(c[2], rows[i].ns[F_ALL][C_FUSED]),
                    bench_cell(c[3], rows[i].ratio_none[kind]),
                    bench_cell(c[4], rows[i].ratio_fused[kind]));
        }
    for (int i = 0; i < nrows; i++)
        fprintf(out,
                "%s: a collect after a 1 %% frame %.1f ns per skin; every palette against the\n"
                "  double model: %.1e (sgrt), %.1e (fused + loop, FMA allowed) of max(1, |entry|)\n",
                names[i], rows[i].collect_ns, rows[i].worst[0], rows[i].worst[1]);
    fprintf(out, "targets (skinning)\n");
    for (int i = 0; i < nrows; i++) {
        char what[96];
        const sk_row *w = &rows[i];
        const char *nm = names[i];
        snprintf(what, sizeof what, "all moved: with palettes / without, %.16s", nm);
        bench_target_line(out, "S1", what, w->ratio_none[F_ALL], 1.3, true, kernel);
        snprintf(what, sizeof what, "1 %%: palette per moved joint / S1's, %.16s", nm);
        bench_target_line(out, "S2", what, w->s2, 1.2, true, kernel);
        snprintf(what, sizeof what, "idle: palette work per joint, ns, %.16s", nm);
        bench_target_line(out, "S3", what, w->s3, 0.05, true, kernel);
        snprintf(what, sizeof what, "idle: ranges collected, %.16s", nm);
        bench_target_line(out, "S3", what, (double)w->idle_ranges, 0.0, true, kernel);
        snprintf(what, sizeof what, "all moved: with palettes / fused + loop, %.16s", nm);
        bench_target_line(out, "S4", what, w->ratio_fused[F_ALL], 1.3, true, kernel);
        snprintf(what, sizeof what, "1 %%: with palettes / fused + loop, %.16s", nm);
        bench_target_line(out, "S5", what, w->ratio_fused[F_ONE], 0.1, true, kernel);
        snprintf(what, sizeof what, "1 %%: bytes collected / 48 x moved joints, %.16s", nm);
        bench_target_line(out, "S6", what, w->s6, 1.0, true, kernel);
    }
    fprintf(out,
            "  S1: the same writes and update with and without skins; S2: (skins - none) per\n"
            "  moved joint over S1's per joint; S3: (skins - none) on a frame that moves nothing,\n"
            "  and the ranges its collects returned; S4, S5: against fused + the palette loop over\n"
            "  every character (all moved: its frame); S6: merge gap 0 (all moved: %.3f).\n"
            "skinning section: %.1f s\n",
            nrows ? rows[0].s6_all : NAN, (bench_now_ns() - t_start) * 1e-9);
    return ok && bench_refused == 0;
}
