/* SPDX-License-Identifier: MIT */
/* Large worlds (SGRT_SCENE_LARGE_WORLD): anchors, the origin, worlds
 * relative to it.
 *
 *   - the contract: every refusal, and that a refusal changes nothing;
 *   - the semantics: a root's world is translate(anchor - origin) x local
 *     rounded once, new roots and nodes made roots are anchored at the
 *     origin, set_world on a root anchors it there, the same anchor or
 *     origin marks nothing, an origin move recomputes every node and every
 *     tracker hears of it, previous worlds move into the new frame, boxes
 *     and culls follow, compaction keeps anchors, the parallel update gives
 *     the serial one's bits;
 *   - precision (target L1): roots anchored 10^9 m from the world's zero,
 *     the origin moving through them, every node within 2 km of the origin
 *     within 2.5e-7 x max(distance, 400 m) of a double-precision model;
 *   - random programs (creates, destroys, TRS writes, anchors, origin
 *     moves, re-parents across anchored roots in both keep modes,
 *     set_world, compaction, serial and parallel updates) against a
 *     double-precision model of the scene: every world within a bound that
 *     scales with the node's distance to the origin, never with its
 *     anchor's; anchors, the origin and the absolute worlds in double read
 *     back as the model has them.
 *
 *   test_large [SEED]   (default 1: the programs' seed) */
#include "testutil.h"
#include "lib/refmodel.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LIMIT SGRT_LARGE_WORLD_LIMIT

static sgrt_scene *large_scene(uint32_t flags)
{
    sgrt_scene_desc d = {0};
    d.flags = SGRT_SCENE_LARGE_WORLD | flags;
    return new_scene_desc(&d);
}

static uint32_t update(sgrt_scene *s) { return sgrt_scene_update(s); }

static void world_of(const sgrt_scene *s, sgrt_node n, float out[16])
{
    OK(sgrt_node_world(s, n, out));
}

static bool same_d3(const double a[3], const double b[3])
{
    return memcmp(a, b, 3 * sizeof(double)) == 0;
}

/* An affine TRS local: unit quaternion, scale in [0.5, 2], translation
 * within +-t_max. */
static void trs_local(rng *r, float t_max, float out[16])
{
    float t[3], q[4], sc[3];
    for (int a = 0; a < 3; a++) {
        t[a] = rng_float(r, -t_max, t_max);
        sc[a] = rng_float(r, 0.5f, 2.0f);
    }
    random_unit_quat(r, q);
    sgrt_scene *tmp = new_scene();
    sgrt_node n;
    OK(sgrt_node_create(tmp, SGRT_NULL_NODE, &n));
    OK(sgrt_node_set_trs(tmp, n, t, q, sc));
    OK(sgrt_node_local(tmp, n, out));
    sgrt_scene_destroy(tmp);
}

/* ---- the contract ------------------------------------------------------------ */

static void test_contract(void)
{
    /* Without the flag: no anchor can be set and no origin moved; reads
     * answer zero; the world in double is there. */
    sgrt_scene *plain = new_scene();
    sgrt_node pr, pc;
    OK(sgrt_node_create(plain, SGRT_NULL_NODE, &pr));
    OK(sgrt_node_create(plain, pr, &pc));
    const double p1[3] = {1.0, 2.0, 3.0};
    double got[3] = {9, 9, 9};
    CHECK_RES(sgrt_node_set_anchor(plain, pr, p1), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_scene_set_origin(plain, p1), SGRT_ERR_INVALID_ARG);
    OK(sgrt_node_anchor(plain, pr, got));
    CHECK(got[0] == 0.0 && got[1] == 0.0 && got[2] == 0.0);
    OK(sgrt_scene_origin(plain, got));
    CHECK(got[0] == 0.0 && got[1] == 0.0 && got[2] == 0.0);
    set_translation(plain, pc, 1.5f, -2.0f, 4.0f);
    double wd[16];
    OK(sgrt_node_world_double(plain, pc, wd));
    CHECK(wd[12] == 1.5 && wd[13] == -2.0 && wd[14] == 4.0 && wd[15] == 1.0);
    sgrt_scene_destroy(plain);

    sgrt_scene *s = large_scene(0);
    sgrt_node r, c;
    OK(sgrt_node_create(s, SGRT_NULL_NODE, &r));
    OK(sgrt_node_create(s, r, &c));
    (void)update(s);
    const double a0[3] = {1.0e9, -2.0e9, 0.5};
    OK(sgrt_node_set_anchor(s, r, a0));
    (void)update(s);
    const double bad[][3] = {
        {NAN, 0, 0}, {0, INFINITY, 0}, {0, 0, -INFINITY}, {LIMIT * 2.0, 0, 0}, {0, -LIMIT * 1.5, 0},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK_RES(sgrt_node_set_anchor(s, r, bad[i]), SGRT_ERR_INVALID_ARG);
        CHECK_RES(sgrt_scene_set_origin(s, bad[i]), SGRT_ERR_INVALID_ARG);
    }
    const double edge[3] = {LIMIT, -LIMIT, 0.0};
    OK(sgrt_node_set_anchor(s, r, edge)); /* the limit itself is taken */
    OK(sgrt_node_set_anchor(s, r, a0));
    CHECK_RES(sgrt_node_set_anchor(s, r, NULL), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_node_set_anchor(NULL, r, a0), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_node_set_anchor(s, c, a0), SGRT_ERR_INVALID_ARG); /* not a root */
    CHECK_RES(sgrt_node_anchor(s, c, got), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_node_anchor(s, r, NULL), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_scene_set_origin(s, NULL), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_scene_origin(s, NULL), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_node_world_double(s, c, NULL), SGRT_ERR_INVALID_ARG);
    const sgrt_node stale = {c.id ^ 0x5a5a5a5au};
    CHECK_RES(sgrt_node_set_anchor(s, stale, a0), SGRT_ERR_STALE_HANDLE);
    CHECK_RES(sgrt_node_anchor(s, stale, got), SGRT_ERR_STALE_HANDLE);
    CHECK_RES(sgrt_node_world_double(s, stale, wd), SGRT_ERR_STALE_HANDLE);
    CHECK_RES(sgrt_node_anchor(s, SGRT_NULL_NODE, got), SGRT_ERR_STALE_HANDLE);
    /* The refusals changed nothing: the anchor, the origin, and no mark
     * (the set of the same anchor after them marks nothing either). */
    OK(sgrt_node_anchor(s, r, got));
    CHECK(same_d3(got, a0));
    OK(sgrt_scene_origin(s, got));
    CHECK(got[0] == 0.0 && got[1] == 0.0 && got[2] == 0.0);
    CHECK_EQ_U(update(s), 2); /* the edge anchor and back: both marked */
    OK(sgrt_node_set_anchor(s, r, a0));
    CHECK_EQ_U(update(s), 0);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK_RES(sgrt_scene_set_origin(s, bad[i]), SGRT_ERR_INVALID_ARG);
    CHECK_EQ_U(update(s), 0);
    check_scene(s);
    sgrt_scene_destroy(s);
}

/* ---- the semantics ----------------------------------------------------------- */

static void test_root_world(void)
{
    sgrt_scene *s = large_scene(0);
    const double o[3] = {1.0e9 + 0.3, -7.0e8, 12345.678};
    OK(sgrt_scene_set_origin(s, o));
    sgrt_node r;
    OK(sgrt_node_create(s, SGRT_NULL_NODE, &r));
    double got[3];
    OK(sgrt_node_anchor(s, r, got));
    CHECK(same_d3(got, o)); /* anchored at the origin of its making */
    float w[16];
    CHECK_EQ_U(update(s), 1);
    world_of(s, r, w);
    CHECK(memcmp(w, IDENTITY, sizeof w) == 0);

    rng g = {77};
    float l[16];
    trs_local(&g, 500.0f, l);
    OK(sgrt_node_set_local(s, r, l));
    const double a[3] = {1.0e9 + 1234.5, -7.0e8 - 0.125, 12345.678};
    OK(sgrt_node_set_anchor(s, r, a));
    CHECK_EQ_U(update(s), 1);
    world_of(s, r, w);
    float want[16];
    memcpy(want, l, sizeof want);
    want[12] = (float)((double)l[12] + (a[0] - o[0]));
    want[13] = (float)((double)l[13] + (a[1] - o[1]));
    /* a[2] == o[2]: the local's translation bit for bit */
    CHECK(memcmp(w, want, sizeof w) == 0);
    /* The same anchor again: nothing to do. */
    OK(sgrt_node_set_anchor(s, r, a));
    CHECK_EQ_U(update(s), 0);
    /* A child is the float product under it. */
    sgrt_node c;
    OK(sgrt_node_create(s, r, &c));
    float lc[16], wc[16], now[16];
    trs_local(&g, 100.0f, lc);
    OK(sgrt_node_set_local(s, c, lc));
    OK(sgrt_node_world_now(s, c, now));
    CHECK_EQ_U(update(s), 1);
    world_of(s, c, wc);
    CHECK(memcmp(wc, now, sizeof wc) == 0); /* world_now forms it as the update does */
    /* The world in double: translate(anchor) x local_r x local_c. */
    double wd[16];
    OK(sgrt_node_world_double(s, c, wd));
    for (int i = 0; i < 3; i++) {
        double t = (double)lc[12] * l[i] + (double)lc[13] * l[4 + i] + (double)lc[14] * l[8 + i] +
                   (double)l[12 + i] + a[i];
        CHECK_MSG(fabs(wd[12 + i] - t) <= 1e-6, "world in double: %.9g, expected %.9g", wd[12 + i],
                  t);
        CHECK_MSG(fabs((double)wc[12 + i] - (t - o[i])) <= 1e-4,
                  "a child 1 km from the origin: %.9g, expected %.9g", (double)wc[12 + i],
                  t - o[i]);
    }
    check_scene(s);
    sgrt_scene_destroy(s);
}

static void test_reparent_and_set_world(void)
{
    sgrt_scene *s = large_scene(0);
    const double o[3] = {5.0e10, 5.0e10, -5.0e10};
    OK(sgrt_scene_set_origin(s, o));
    sgrt_node ra, rb, c, d;
    OK(sgrt_node_create(s, SGRT_NULL_NODE, &ra));
    OK(sgrt_node_create(s, SGRT_NULL_NODE, &rb));
    OK(sgrt_node_create(s, ra, &c));
    OK(sgrt_node_create(s, c, &d));
    const double aa[3] = {5.0e10 + 300.0, 5.0e10 - 20.5, -5.0e10 + 7.25};
    const double ab[3] = {5.0e10 - 1500.0, 5.0e10 + 40.0, -5.0e10};
    OK(sgrt_node_set_anchor(s, ra, aa));
    OK(sgrt_node_set_anchor(s, rb, ab));
    rng g = {5};
    float l[16];
    trs_local(&g, 50.0f, l);
    OK(sgrt_node_set_local(s, c, l));
    trs_local(&g, 50.0f, l);
    OK(sgrt_node_set_local(s, d, l));
    (void)update(s);

    /* A child made a root keeping its world: the world's bits stay, the
     * anchor is the origin. */
    float before[16], after[16];
    world_of(s, c, before);
    OK(sgrt_node_set_parent(s, c, SGRT_NULL_NODE, SGRT_KEEP_WORLD));
    double got[3];
    OK(sgrt_node_anchor(s, c, got));
    CHECK(same_d3(got, o));
    (void)update(s);
    world_of(s, c, after);
    CHECK(memcmp(before, after, sizeof after) == 0);
    /* Across anchored roots keeping the world: within keep-world's
     * tolerance, and no longer a root. */
    OK(sgrt_node_set_parent(s, c, rb, SGRT_KEEP_WORLD));
    (void)update(s);
    world_of(s, c, after);
    CHECK(column_miss(after, before) <= 1e-3);
    CHECK_RES(sgrt_node_anchor(s, c, got), SGRT_ERR_INVALID_ARG);
    /* Made a root keeping its local: anchored at the origin, its world is
     * its local, as in any scene. */
    float local[16];
    OK(sgrt_node_local(s, c, local));
    OK(sgrt_node_set_parent(s, c, SGRT_NULL_NODE, SGRT_KEEP_LOCAL));
    (void)update(s);
    world_of(s, c, after);
    CHECK(memcmp(after, local, sizeof after) == 0);
    /* set_world on a root re-anchors it at the origin: m bit for bit. */
    float m[16];
    trs_local(&g, 900.0f, m);
    OK(sgrt_node_set_world(s, ra, m));
    OK(sgrt_node_anchor(s, ra, got));
    CHECK(same_d3(got, o));
    (void)update(s);
    world_of(s, ra, after);
    CHECK(memcmp(after, m, sizeof m) == 0);
    /* ... even when the local it writes is the one it had: the anchor
     * changed, so the node moved. */
    OK(sgrt_node_set_anchor(s, ra, aa));
    (void)update(s);
    OK(sgrt_node_set_world(s, ra, m)); /* local m again, anchor back to the origin */
    CHECK_EQ_U(update(s), 1);
    world_of(s, ra, after);
    CHECK(memcmp(after, m, sizeof m) == 0);
    check_scene(s);
    sgrt_scene_destroy(s);
}

/* An origin move: everything is recomputed and every tracker hears of
 * every node; previous worlds move into the new frame; the same origin
 * again costs nothing. */
static void test_origin_move(void)
{
    sgrt_scene *s = large_scene(SGRT_SCENE_PREV_WORLD | SGRT_SCENE_SUBTREE_BOUNDS);
    enum { N = 300 };
    sgrt_node n[N];
    rng g = {9};
    const double o0[3] = {-3.0e11, 2.0e11, 1.0e6};
    OK(sgrt_scene_set_origin(s, o0));
    for (uint32_t i = 0; i < N; i++) {
        OK(sgrt_node_create(s, i % 30 == 0 ? SGRT_NULL_NODE : n[i - 1u - rng_below(&g, i % 30)],
                            &n[i]));
        float l[16];
        trs_local(&g, 200.0f, l);
        OK(sgrt_node_set_local(s, n[i], l));
        const float c[3] = {0, 0, 0}, e[3] = {1, 2, 3};
        OK(sgrt_node_set_bounds(s, n[i], c, e));
        if (i % 30 == 0) {
            const double a[3] = {o0[0] + rng_range(&g, -5e3, 5e3), o0[1] + rng_range(&g, -5e3, 5e3),
                                 o0[2] + rng_range(&g, -5e3, 5e3)};
            OK(sgrt_node_set_anchor(s, n[i], a));
        }
    }
    sgrt_tracker t;
    OK(sgrt_tracker_create(s, &t));
    CHECK_EQ_U(update(s), N);
    CHECK_EQ_U(update(s), 0); /* previous worlds catch up */
    sgrt_range rg[64];
    bool more;
    do
        (void)test_collect(s, t, rg, 64, 0, &more);
    while (more);

    const double o1[3] = {o0[0] + 1234.5678, o0[1] - 0.001, o0[2] + 3.0e3};
    OK(sgrt_scene_set_origin(s, o1));
    OK(sgrt_scene_set_origin(s, o1)); /* the same again: nothing more */
    CHECK_EQ_U(update(s), N);
    uint32_t k = test_collect(s, t, rg, 64, 0, &more);
    CHECK(!more && k == 1 && rg[0].first == 0 && rg[0].count == slots_in_use(s));
    /* A still node's previous world is its world to within rounding: the
     * previous one moved by the shift in double and rounded once, the new
     * one formed again from the anchors; both a few ulps of the magnitudes
     * the chain works at (here under 10 km). Unshifted, they would be 1.2
     * km apart. */
    const float *prev = sgrt_scene_prev_world_array(s, NULL);
    double worst = 0.0;
    for (uint32_t i = 0; i < N; i++) {
        float w[16];
        world_of(s, n[i], w);
        const uint32_t sl = slot_of(s, n[i]);
        for (int e = 0; e < 16; e++) {
            const double d = fabs((double)prev[16u * sl + (uint32_t)e] - (double)w[e]);
            worst = d > worst ? d : worst;
        }
    }
    CHECK_MSG(worst <= 1e-6 * 1e4, "previous worlds after an origin move: %.3g from the worlds",
              worst);
    check_scene(s); /* boxes equal the reference's boxes of the new worlds */
    /* The next update's previous worlds catch up (a change trackers
     * report); then the same origin: an update with nothing to do, nothing
     * to report. */
    CHECK_EQ_U(update(s), 0);
    do
        (void)test_collect(s, t, rg, 64, 0, &more);
    while (more);
    OK(sgrt_scene_set_origin(s, o1));
    CHECK_EQ_U(update(s), 0);
    k = test_collect(s, t, rg, 64, 0, &more);
    CHECK_EQ_U(k, 0);
    /* Boxes speak the new origin: a plane x <= 0 (origin-relative) finds
     * exactly the nodes whose world box reaches x <= 0. */
    sgrt_nodeset in;
    OK(sgrt_nodeset_create(s, &in));
    const float plane[4] = {-1.0f, 0.0f, 0.0f, 0.0f}; /* inside: -x >= 0 */
    OK(sgrt_scene_cull(s, plane, 1, SGRT_NULL_NODESET, in, NULL));
    uint32_t agree = 0;
    for (uint32_t i = 0; i < N; i++) {
        float lo[3], hi[3];
        OK(sgrt_node_world_bounds(s, n[i], lo, hi));
        agree += sgrt_nodeset_has(s, in, n[i]) == (lo[0] <= 0.0f);
    }
    CHECK_EQ_U(agree, N);
    sgrt_scene_destroy(s);
}

/* Compaction and hole reclamation move anchors with their roots. */
static void test_compaction(void)
{
    sgrt_scene *s = large_scene(0);
    enum { N = 3000 };
    static sgrt_node n[N];
    static double anchors[N][3];
    rng g = {31};
    for (uint32_t i = 0; i < N; i++) {
        OK(sgrt_node_create(s, i % 3 ? n[i - 1] : SGRT_NULL_NODE, &n[i]));
        for (int a = 0; a < 3; a++)
            anchors[i][a] = rng_range(&g, -1e12, 1e12);
        if (i % 3 == 0)
            OK(sgrt_node_set_anchor(s, n[i], anchors[i]));
    }
    for (uint32_t i = 0; i < N; i += 6)
        OK(sgrt_node_destroy(s, n[i]));
    OK(sgrt_scene_compact(s));
    for (uint32_t i = 3; i < N; i += 6) {
        double got[3];
        OK(sgrt_node_anchor(s, n[i], got));
        CHECK(same_d3(got, anchors[i]));
    }
    check_scene(s);
    sgrt_scene_destroy(s);
}

/* ---- precision: target L1 ---------------------------------------------------- */

/* Worlds in double from the floats the scene holds: out = translate(anchor)
 * x local for a root, parent x local below (ref_mul_d), as in the model. */
static void to_d(const float m[16], double out[16])
{
    for (int e = 0; e < 16; e++)
        out[e] = (double)m[e];
}

static void test_precision(void)
{
    /* 80 objects, each a root anchored 10^9 m from the world's zero,
     * spread over 4 km x 3 km x 600 m, with parts below it (a chain of 2
     * and a fan of 8 under the root or the chain, each part within 10 m
     * of its parent: depths 1 to 4); the origin crosses them in 300 steps
     * of 13.7 m and an odd fraction. Roots and their parts (depth 2) are
     * held to the bound; a part is placed relative to its parent in float,
     * as in any scene, so each level below adds the float product's own
     * rounding (an ulp or so), the bits the same object gives at the
     * world's zero: nothing of the 10^9 m reaches the floats. */
    enum { ROOTS = 80, CHAIN = 2, FAN = 8, PER = 1 + CHAIN + FAN, N = ROOTS * PER };
    sgrt_scene *s = large_scene(0);
    static sgrt_node n[N];
    static uint32_t parent[N];
    static double abs_w[N][16];
    static double anchor[ROOTS][3];
    rng g = {2024};
    for (uint32_t r = 0; r < ROOTS; r++) {
        const uint32_t b = r * PER;
        OK(sgrt_node_create(s, SGRT_NULL_NODE, &n[b]));
        parent[b] = UINT32_MAX;
        anchor[r][0] = 1.0e9 - 2000.0 + 50.0 * r + rng_range(&g, -10.0, 10.0);
        anchor[r][1] = -1.0e9 + rng_range(&g, -1500.0, 1500.0);
        anchor[r][2] = 3.0e8 + rng_range(&g, -300.0, 300.0);
        OK(sgrt_node_set_anchor(s, n[b], anchor[r]));
        for (uint32_t k = 1; k < PER; k++) {
            const uint32_t p = k <= CHAIN ? b + k - 1u : b + rng_below(&g, CHAIN + 1u);
            OK(sgrt_node_create(s, n[p], &n[b + k]));
            parent[b + k] = p;
        }
        for (uint32_t k = 0; k < PER; k++) {
            float l[16];
            trs_local(&g, 10.0f, l);
            OK(sgrt_node_set_local(s, n[b + k], l));
        }
    }
    for (uint32_t i = 0; i < N; i++) {
        double l[16], t[16];
        float lf[16];
        OK(sgrt_node_local(s, n[i], lf));
        to_d(lf, l);
        if (parent[i] == UINT32_MAX) {
            memcpy(abs_w[i], l, sizeof l);
            for (int a = 0; a < 3; a++)
                abs_w[i][12 + a] += anchor[i / PER][a];
        } else {
            ref_mul_d(abs_w[parent[i]], l, t);
            memcpy(abs_w[i], t, sizeof t);
        }
    }
    double worst = 0.0; /* error / bound */
    double by_depth[1 + 1 + CHAIN + 1] = {0}; /* worst error / bound at each depth */
    uint32_t near = 0;
    for (int step = 0; step < 300; step++) {
        const double o[3] = {1.0e9 - 2100.0 + step * 13.7 + 0.013 * step, -1.0e9 + 20.0 - step,
                             3.0e8 - 5.0 + 0.5 * step};
        OK(sgrt_scene_set_origin(s, o));
        (void)update(s);
        for (uint32_t i = 0; i < N; i++) {
            double rel[3], dist = 0.0;
            for (int a = 0; a < 3; a++) {
                rel[a] = abs_w[i][12 + a] - o[a];
                dist += rel[a] * rel[a];
            }
            dist = sqrt(dist);
            if (dist > 2000.0)
                continue;
            near++;
            float w[16];
            world_of(s, n[i], w);
            double err = 0.0;
            for (int a = 0; a < 3; a++) {
                const double e = fabs((double)w[12 + a] - rel[a]);
                err = e > err ? e : err;
            }
            const double bound = 2.5e-7 * (dist > 400.0 ? dist : 400.0);
            uint32_t depth = 0;
            for (uint32_t x = i; x != UINT32_MAX; x = parent[x])
                depth++;
            const double ratio = err / bound;
            if (ratio > by_depth[depth])
                by_depth[depth] = ratio;
            /* Deeper parts carry the float chain's own rounding, about an
             * ulp per level, as the same object does at the world's zero. */
            CHECK_MSG(ratio <= (depth <= 2u ? 1.0 : depth / 2.0),
                      "L1: depth %u, %.1f m from the origin: error %.3g m, %.3f x the bound",
                      depth, dist, err, ratio);
            worst = err / bound > worst ? err / bound : worst;
        }
    }
    printf("precision: %u node positions within 2 km of the origin; worst error / (2.5e-7 x "
           "max(distance, 400 m)) by depth: roots %.3f, parts %.3f, then %.3f, %.3f\n",
           near, by_depth[1], by_depth[2], by_depth[3], by_depth[4]);
    CHECK(near > 10000);
    CHECK(worst > 0.0);
    check_scene(s);
    sgrt_scene_destroy(s);
}

/* Equal means equal as numbers: -0.0 where the anchor or the origin holds
 * +0.0 changes nothing (no mark, no update work, the bits kept). */
static void test_signed_zero(void)
{
    sgrt_scene *s = large_scene(0);
    sgrt_node r, c;
    OK(sgrt_node_create(s, SGRT_NULL_NODE, &r));
    OK(sgrt_node_create(s, r, &c));
    const double zero[3] = {0.0, 0.0, 0.0}, minus[3] = {-0.0, 0.0, -0.0};
    OK(sgrt_node_set_anchor(s, r, zero));
    CHECK_EQ_U(update(s), 2);
    OK(sgrt_node_set_anchor(s, r, minus));
    CHECK_EQ_U(update(s), 0);
    double got[3];
    OK(sgrt_node_anchor(s, r, got));
    CHECK(same_d3(got, zero));
    OK(sgrt_scene_set_origin(s, minus));
    CHECK_EQ_U(update(s), 0);
    OK(sgrt_scene_origin(s, got));
    CHECK(same_d3(got, zero));
    /* A position that differs as a number still moves the root. */
    const double near[3] = {0.0, 0.0, 1e-300};
    OK(sgrt_node_set_anchor(s, r, near));
    CHECK_EQ_U(update(s), 2);
    sgrt_scene_destroy(s);
}

/* Previous worlds after an origin move carry the old frame's rounding: a
 * still node far from the old origin was only as precise as a float there,
 * and its previous world, moved into the new frame, keeps that error while
 * its new world, near the new origin, is exact to a float there. The gap is
 * what a motion vector shows of a still node; the header and renderer.md
 * give its bound, 2.5e-7 x the largest of 400 m, the node's distances to
 * the old and the new origin, and its reach (the lengths of the
 * translations from its root down), checked here on roots from 1 km to
 * 10^7 m from the old origin, with parts below them, the new origin at one
 * of them. */
static void test_origin_move_rounding(void)
{
    sgrt_scene *s = large_scene(SGRT_SCENE_PREV_WORLD);
    enum { ROOTS = 25, PER = 4, N = ROOTS * PER };
    sgrt_node n[N];
    double reach[N], dist_old[N];
    rng g = {31};
    const double o0[3] = {5.0e8, -2.0e8, 1.0e3};
    OK(sgrt_scene_set_origin(s, o0));
    double a_far[3] = {0, 0, 0};
    for (uint32_t r = 0; r < ROOTS; r++) {
        const double d = pow(10.0, 3.0 + 4.0 * r / (ROOTS - 1.0)); /* 1 km .. 10^4 km */
        double dir[3], len = 0.0;
        for (int a = 0; a < 3; a++) {
            dir[a] = rng_range(&g, -1.0, 1.0);
            len += dir[a] * dir[a];
        }
        len = sqrt(len);
        double anchor[3];
        for (int a = 0; a < 3; a++)
            anchor[a] = o0[a] + d * dir[a] / len + rng_range(&g, -0.5, 0.5);
        if (r == 18) /* about 1e6 m out: the new origin */
            memcpy(a_far, anchor, sizeof a_far);
        for (uint32_t k = 0; k < PER; k++) {
            const uint32_t i = r * PER + k;
            OK(sgrt_node_create(s, k == 0 ? SGRT_NULL_NODE : n[i - 1u], &n[i]));
            float l[16];
            trs_local(&g, 10.0f, l);
            OK(sgrt_node_set_local(s, n[i], l));
            const double t = sqrt((double)l[12] * l[12] + (double)l[13] * l[13] +
                                  (double)l[14] * l[14]);
            reach[i] = (k == 0 ? 0.0 : reach[i - 1u]) + t;
        }
        OK(sgrt_node_set_anchor(s, n[r * PER], anchor));
    }
    CHECK_EQ_U(update(s), N);
    CHECK_EQ_U(update(s), 0); /* previous worlds catch up */
    for (uint32_t i = 0; i < N; i++) {
        double w[16];
        OK(sgrt_node_world_double(s, n[i], w));
        dist_old[i] = sqrt((w[12] - o0[0]) * (w[12] - o0[0]) + (w[13] - o0[1]) * (w[13] - o0[1]) +
                           (w[14] - o0[2]) * (w[14] - o0[2]));
    }
    OK(sgrt_scene_set_origin(s, a_far));
    CHECK_EQ_U(update(s), N);
    const float *prev = sgrt_scene_prev_world_array(s, NULL);
    double worst = 0.0, gap_far = 0.0;
    for (uint32_t i = 0; i < N; i++) {
        float w[16];
        double wd[16];
        world_of(s, n[i], w);
        OK(sgrt_node_world_double(s, n[i], wd));
        const double dist_new =
            sqrt((wd[12] - a_far[0]) * (wd[12] - a_far[0]) +
                 (wd[13] - a_far[1]) * (wd[13] - a_far[1]) +
                 (wd[14] - a_far[2]) * (wd[14] - a_far[2]));
        const uint32_t sl = slot_of(s, n[i]);
        double gap = 0.0;
        for (int e = 0; e < 16; e++) {
            const double d = fabs((double)prev[16u * sl + (uint32_t)e] - (double)w[e]);
            gap = d > gap ? d : gap;
        }
        const double scale = fmax(fmax(400.0, reach[i]), fmax(dist_old[i], dist_new));
        worst = fmax(worst, gap / (2.5e-7 * scale));
        if (dist_old[i] > 5e5 && dist_old[i] < 2e6)
            gap_far = fmax(gap_far, gap);
    }
    printf("origin move: still nodes' previous worlds within %.3f of 2.5e-7 x max(400 m, "
           "distances to the old and new origin, reach); at ~1e6 m from the old origin, gaps "
           "up to %.3g m\n",
           worst, gap_far);
    CHECK_MSG(worst <= 1.0, "a still node's previous world is %.3f of its bound off", worst);
    /* Not nothing: the old frame's rounding shows (motion vectors see it). */
    CHECK(gap_far > 0.0);
    sgrt_scene_destroy(s);
}

/* ---- random programs against a double-precision model --------------------------- */

#define MAX_NODES 400u

typedef struct model {
    sgrt_node h[MAX_NODES];
    uint32_t parent[MAX_NODES]; /* index, UINT32_MAX for a root */
    bool live[MAX_NODES];
    double anchor[MAX_NODES][3]; /* roots only */
    uint32_t n;
    double origin[3];
} model;

static bool is_root(const model *m, uint32_t i) { return m->parent[i] == UINT32_MAX; }

static void model_root(model *m, uint32_t i)
{
    m->parent[i] = UINT32_MAX;
    memcpy(m->anchor[i], m->origin, sizeof m->origin);
}

static uint32_t random_live(const model *m, rng *g)
{
    for (int tries = 0; tries < 64 && m->n; tries++) {
        const uint32_t i = rng_below(g, m->n);
        if (m->live[i])
            return i;
    }
    return UINT32_MAX;
}

static bool descends(const model *m, uint32_t i, uint32_t anc)
{
    for (uint32_t x = i; x != UINT32_MAX; x = m->parent[x])
        if (x == anc)
            return true;
    return false;
}

static void model_destroy(model *m, uint32_t i)
{
    for (uint32_t k = 0; k < m->n; k++)
        if (m->live[k] && descends(m, k, i))
            m->live[k] = false;
}

/* A point near some root's anchor, or anywhere. */
static void random_point(const model *m, rng *g, double out[3])
{
    const uint32_t k = random_live(m, g);
    const bool near = k != UINT32_MAX && rng_below(g, 4) != 0;
    uint32_t r = k;
    while (near && !is_root(m, r))
        r = m->parent[r];
    for (int a = 0; a < 3; a++)
        out[a] = near ? m->anchor[r][a] + rng_range(g, -3000.0, 3000.0)
                      : rng_range(g, -1.0e12, 1.0e12);
}

/* The world relative to the origin in double from the locals the scene
 * holds; the magnitude the float chain works at, the largest |translation
 * relative to the origin| of the node and its ancestors; and the largest
 * magnitude the double sums at the root work at (anchor, origin, the
 * root's translation: they cancel when a far root's local brings it near). */
static void model_world(const sgrt_scene *s, const model *m, uint32_t i, double out[16],
                        double *mag, double *big, uint32_t *depth)
{
    uint32_t chain[MAX_NODES], d = 0;
    for (uint32_t x = i; x != UINT32_MAX; x = m->parent[x])
        chain[d++] = x;
    *depth = d;
    *mag = 0.0;
    double acc[16] = {0}, l[16], t[16];
    for (uint32_t k = d; k-- > 0;) {
        float lf[16];
        OK(sgrt_node_local(s, m->h[chain[k]], lf));
        to_d(lf, l);
        if (k + 1u == d) { /* relative to the origin: no rounding at the anchor's magnitude */
            memcpy(acc, l, sizeof l);
            *big = 0.0;
            for (int a = 0; a < 3; a++) {
                acc[12 + a] += m->anchor[chain[k]][a] - m->origin[a];
                /* (anchor - origin) rounds at this magnitude, in the model
                 * as in the absolute world */
                const double b = fabs(m->anchor[chain[k]][a]) + fabs(m->origin[a]) + fabs(l[12 + a]);
                *big = b > *big ? b : *big;
            }
        } else {
            ref_mul_d(acc, l, t);
            memcpy(acc, t, sizeof t);
        }
        double r2 = 0.0;
        for (int a = 0; a < 3; a++)
            r2 += acc[12 + a] * acc[12 + a];
        *mag = sqrt(r2) > *mag ? sqrt(r2) : *mag;
    }
    memcpy(out, acc, sizeof acc);
}

/* Every live node against the model after an update. */
static void model_check(const sgrt_scene *s, const model *m, int step, double *worst)
{
    for (uint32_t i = 0; i < m->n; i++) {
        if (!m->live[i])
            continue;
        sgrt_node p;
        OK(sgrt_node_parent(s, m->h[i], &p));
        CHECK(is_root(m, i) ? p.id == 0 : p.id == m->h[m->parent[i]].id);
        if (is_root(m, i)) {
            double a[3];
            OK(sgrt_node_anchor(s, m->h[i], a));
            CHECK_MSG(same_d3(a, m->anchor[i]), "step %d: node %u's anchor", step, i);
        }
        double want[16], mag, big = 0.0;
        uint32_t depth;
        model_world(s, m, i, want, &mag, &big, &depth);
        float w[16];
        world_of(s, m->h[i], w);
        /* Float rounding along the chain, at the magnitudes the chain
         * works at relative to the origin: a few ulps per level. */
        const double bound = 8.0 * (depth + 1) * 5.96e-8 * (mag + 1.0);
        double err = 0.0;
        for (int a = 0; a < 3; a++) {
            const double e = fabs((double)w[12 + a] - want[12 + a]);
            err = e > err ? e : err;
        }
        for (int e = 0; e < 12; e++)
            CHECK_MSG(fabs((double)w[e] - want[e]) <= 1e-5 * (1.0 + fabs(want[e])) * (depth + 1),
                      "step %d: node %u's world entry %d: %.9g, model %.9g", step, i, e,
                      (double)w[e], want[e]);
        *worst = err / bound > *worst ? err / bound : *worst;
        CHECK_MSG(err <= bound, "step %d: node %u (depth %u, %.3g m from the origin): error %.3g m, bound %.3g m",
                  step, i, depth, mag, err, bound);
        /* Absolute, in double: the model's relative world plus the origin,
         * to double rounding at the anchor's magnitude. */
        double wd[16];
        OK(sgrt_node_world_double(s, m->h[i], wd));
        for (int e = 0; e < 16; e++) {
            const double abs_want = e >= 12 && e < 15 ? want[e] + m->origin[e - 12] : want[e];
            CHECK_MSG(fabs(wd[e] - abs_want) <=
                          1e-12 * (1.0 + fabs(abs_want) + mag) * depth + 4.0 * 0x1p-52 * big,
                      "step %d: node %u's world in double, entry %d: %.17g, model %.17g", step, i,
                      e, wd[e], abs_want);
        }
    }
    double o[3];
    OK(sgrt_scene_origin(s, o));
    CHECK(same_d3(o, m->origin));
}

static void run_program(uint64_t seed, bool parallel)
{
    rng g = {seed};
    sgrt_scene *s = large_scene(rng_below(&g, 2) ? SGRT_SCENE_PREV_WORLD : 0u);
    test_exec ex;
    REQUIRE(test_exec_start(&ex, TEST_EXEC_SHUFFLED, seed, 1));
    const sgrt_executor exec = test_exec_executor(&ex, 4);
    static model m;
    memset(&m, 0, sizeof m);
    double worst = 0.0;
    for (int step = 0; step < 3000; step++) {
        const uint32_t op = rng_below(&g, 100);
        const uint32_t i = random_live(&m, &g);
        if (op < 14 || i == UINT32_MAX) { /* create */
            if (m.n == MAX_NODES)
                continue;
            const bool root = i == UINT32_MAX || rng_below(&g, 4) == 0;
            const uint32_t k = m.n++;
            OK(sgrt_node_create(s, root ? SGRT_NULL_NODE : m.h[i], &m.h[k]));
            m.live[k] = true;
            if (root)
                model_root(&m, k);
            else
                m.parent[k] = i;
            float l[16];
            trs_local(&g, root ? 2000.0f : 300.0f, l);
            OK(sgrt_node_set_local(s, m.h[k], l));
        } else if (op < 30) { /* a TRS write */
            float l[16];
            trs_local(&g, 300.0f, l);
            OK(sgrt_node_set_local(s, m.h[i], l));
        } else if (op < 40) { /* anchor a root */
            uint32_t r = i;
            while (!is_root(&m, r))
                r = m.parent[r];
            double a[3];
            random_point(&m, &g, a);
            OK(sgrt_node_set_anchor(s, m.h[r], a));
            memcpy(m.anchor[r], a, sizeof a);
        } else if (op < 50) { /* move the origin */
            double o[3];
            if (rng_below(&g, 5) == 0)
                memcpy(o, m.origin, sizeof o);
            else
                random_point(&m, &g, o);
            OK(sgrt_scene_set_origin(s, o));
            memcpy(m.origin, o, sizeof o);
        } else if (op < 62) { /* re-parent, across anchored roots */
            const uint32_t p = rng_below(&g, 3) == 0 ? UINT32_MAX : random_live(&m, &g);
            const sgrt_keep keep = rng_below(&g, 2) ? SGRT_KEEP_WORLD : SGRT_KEEP_LOCAL;
            const sgrt_result r = sgrt_node_set_parent(
                s, m.h[i], p == UINT32_MAX ? SGRT_NULL_NODE : m.h[p], keep);
            if (p != UINT32_MAX && descends(&m, p, i)) {
                CHECK_RES(r, SGRT_ERR_CYCLE);
            } else if (r == SGRT_OK) {
                if (p == UINT32_MAX) {
                    if (!is_root(&m, i))
                        model_root(&m, i);
                } else {
                    m.parent[i] = p;
                }
            } else {
                CHECK_RES(r, SGRT_ERR_SINGULAR); /* keep-world under a degenerate product */
            }
        } else if (op < 68) { /* set_world */
            float w[16];
            trs_local(&g, 1000.0f, w);
            const sgrt_result r = sgrt_node_set_world(s, m.h[i], w);
            if (r == SGRT_OK && is_root(&m, i))
                model_root(&m, i);
            else if (r != SGRT_OK)
                CHECK_RES(r, SGRT_ERR_SINGULAR);
        } else if (op < 74) { /* destroy a subtree */
            OK(sgrt_node_destroy(s, m.h[i]));
            model_destroy(&m, i);
        } else if (op < 76) {
            OK(sgrt_scene_compact(s));
        } else if (op < 90) {
            const uint32_t a = parallel && rng_below(&g, 2) ? sgrt_scene_update_parallel(s, &exec)
                                                           : sgrt_scene_update(s);
            (void)a;
            model_check(s, &m, step, &worst);
        } else { /* reads: anchors of roots only */
            double a[3];
            CHECK_RES(sgrt_node_anchor(s, m.h[i], a),
                      is_root(&m, i) ? SGRT_OK : SGRT_ERR_INVALID_ARG);
        }
    }
    (void)sgrt_scene_update(s);
    model_check(s, &m, -1, &worst);
    check_scene(s);
    printf("program %llu%s: %u nodes made, worst world error %.3f x its bound\n",
           (unsigned long long)seed, parallel ? " (parallel updates too)" : "", m.n, worst);
    test_exec_stop(&ex);
    sgrt_scene_destroy(s);
}

/* Twin scenes, one updated serially and one in parallel, through origin
 * moves: the same bits. */
static void test_parallel_twin(void)
{
    sgrt_scene *a = large_scene(SGRT_SCENE_PREV_WORLD), *b = large_scene(SGRT_SCENE_PREV_WORLD);
    enum { N = 20000 };
    static sgrt_node na[N], nb[N];
    rng g = {4};
    for (uint32_t i = 0; i < N; i++) {
        const bool root = i % 500 == 0;
        const uint32_t p = root ? 0u : i - 1u - rng_below(&g, i % 500);
        OK(sgrt_node_create(a, root ? SGRT_NULL_NODE : na[p], &na[i]));
        OK(sgrt_node_create(b, root ? SGRT_NULL_NODE : nb[p], &nb[i]));
    }
    test_exec ex;
    REQUIRE(test_exec_start(&ex, TEST_EXEC_SHUFFLED, 3, 1));
    const sgrt_executor exec = test_exec_executor(&ex, 8);
    for (int frame = 0; frame < 12; frame++) {
        for (uint32_t k = 0; k < 200; k++) {
            const uint32_t i = rng_below(&g, N);
            float l[16];
            trs_local(&g, 100.0f, l);
            OK(sgrt_node_set_local(a, na[i], l));
            OK(sgrt_node_set_local(b, nb[i], l));
        }
        double o[3] = {1.0e10 + frame * 777.7, -4.0e9, frame * 0.5};
        if (frame % 3 == 0) {
            OK(sgrt_scene_set_origin(a, o));
            OK(sgrt_scene_set_origin(b, o));
        }
        const double an[3] = {1.0e10 + frame * 100.0, -4.0e9 + 3.0, 7.0};
        OK(sgrt_node_set_anchor(a, na[(uint32_t)frame * 500u], an));
        OK(sgrt_node_set_anchor(b, nb[(uint32_t)frame * 500u], an));
        CHECK_EQ_U(sgrt_scene_update(a), sgrt_scene_update_parallel(b, &exec));
        uint32_t ca, cb;
        const float *wa = sgrt_scene_world_array(a, &ca), *wb = sgrt_scene_world_array(b, &cb);
        const float *pa = sgrt_scene_prev_world_array(a, NULL),
                    *pb = sgrt_scene_prev_world_array(b, NULL);
        CHECK(ca == cb && memcmp(wa, wb, (size_t)ca * 64u) == 0 &&
              memcmp(pa, pb, (size_t)ca * 64u) == 0);
    }
    check_scene(a);
    check_scene(b);
    test_exec_stop(&ex);
    sgrt_scene_destroy(a);
    sgrt_scene_destroy(b);
}

int main(int argc, char **argv)
{
    rng seed = {1};
    rng_seed_from_args(&seed, argc, argv, "test_large");
    test_contract();
    test_root_world();
    test_reparent_and_set_world();
    test_origin_move();
    test_origin_move_rounding();
    test_signed_zero();
    test_compaction();
    test_precision();
    test_parallel_twin();
    for (uint64_t k = 0; k < 12; k++)
        run_program(seed.s * 1000u + k, k % 2 == 1);
    return test_report("test_large");
}
