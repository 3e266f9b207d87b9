/* SPDX-License-Identifier: MIT */
/* Frustum culling (sgrt_scene_cull), judged in exact arithmetic:
 *
 *  - refusals: a plane with NaN or infinity, a plane count of 0 or above 8,
 *    NULL arguments, a node set of another scene, a scene without boxes are
 *    refused with a log entry and leave the result set as it was;
 *  - conservative: every culled box lies outside one of the planes in exact
 *    arithmetic (so no box meeting the frustum is ever culled), for random
 *    perspective frusta and random planes, boxes touching planes, point and
 *    flat boxes, huge and tiny coordinates, mirrored and sheared worlds;
 *    infinite boxes are never culled; a box outside a plane by a clear
 *    margin is culled;
 *  - the result holds only live nodes that had a box at the last update and
 *    are in the restriction set, and may be that set itself;
 *  - the scene culls through its kernel table: forced to the reference, it
 *    culls as at its default level;
 *  - with subtree boxes the answer is a subset of the box-by-box one, the
 *    difference being boxes outside a plane, whole subtrees are skipped and
 *    accepted, and after a relocation, a destroy or a compaction the cull
 *    goes box by box until the next update.
 * Each level's cull kernel is held to the reference, and the reference to
 * the definition, by tests/test_kernels.c. */
#include "internal.h" /* white-box: the scene's kernel table */
#include "scene.h"
#include "testutil.h"
#include "boundsutil.h"
#include "../examples/frustum.h"

static rng R = {0xC011u};

static sgrt_scene *cull_scene(uint32_t flags, log_capture *log)
{
    sgrt_scene_desc d;
    memset(&d, 0, sizeof d);
    d.flags = flags;
    if (log) {
        d.log = capture_log;
        d.log_user = log;
    }
    return new_scene_desc(&d);
}

static sgrt_node add(sgrt_scene *s, sgrt_node parent)
{
    sgrt_node n = SGRT_NULL_NODE;
    OK(sgrt_node_create(s, parent, &n));
    return n;
}

static const float UNIT[3] = {1, 1, 1}, ORIGIN[3] = {0, 0, 0};
static const float CUBE[6][4] = {{1, 0, 0, 10}, {-1, 0, 0, 10}, {0, 1, 0, 10},
                                 {0, -1, 0, 10}, {0, 0, 1, 10}, {0, 0, -1, 10}};

/* ---- refusals --------------------------------------------------------------- */

static void test_refusals(void)
{
    log_capture log = {0, {SGRT_OK, NULL, NULL, {0}}};
    sgrt_scene *s = cull_scene(SGRT_SCENE_BOUNDS, &log);
    sgrt_scene *other = cull_scene(SGRT_SCENE_BOUNDS, NULL);
    sgrt_scene *plain = cull_scene(0, &log);
    const sgrt_node a = add(s, SGRT_NULL_NODE), b = add(s, SGRT_NULL_NODE);
    OK(sgrt_node_set_bounds(s, a, ORIGIN, UNIT));
    OK(sgrt_node_set_bounds(s, b, ORIGIN, UNIT));
    (void)sgrt_scene_update(s);
    sgrt_nodeset out, foreign, plain_set;
    OK(sgrt_nodeset_create(s, &out));
    OK(sgrt_nodeset_create(other, &foreign));
    OK(sgrt_nodeset_create(plain, &plain_set));
    OK(sgrt_nodeset_add(s, out, b)); /* the result before: {b} */
    sgrt_cull_stats st = {7, 7, 7, 7, 7};
    float planes[8][4];
    memcpy(planes, CUBE, sizeof CUBE);
    static const char fn[] = "sgrt_scene_cull";
#define REFUSED(call)                                                                  \
    do {                                                                               \
        CHECK_RES(call, SGRT_ERR_INVALID_ARG);                                         \
        check_logged(&log, SGRT_ERR_INVALID_ARG, fn);                                  \
        CHECK(sgrt_nodeset_has(s, out, b) && !sgrt_nodeset_has(s, out, a));            \
        CHECK(st.visible == 7 && st.boxes_tested == 7);                                \
    } while (0)
    REFUSED(sgrt_scene_cull(s, NULL, 6, SGRT_NULL_NODESET, out, &st));
    REFUSED(sgrt_scene_cull(s, planes[0], 0, SGRT_NULL_NODESET, out, &st));
    REFUSED(sgrt_scene_cull(s, planes[0], 9, SGRT_NULL_NODESET, out, &st));
    REFUSED(sgrt_scene_cull(s, planes[0], UINT32_MAX, SGRT_NULL_NODESET, out, &st));
    REFUSED(sgrt_scene_cull(s, planes[0], 6, SGRT_NULL_NODESET, SGRT_NULL_NODESET, &st));
    REFUSED(sgrt_scene_cull(s, planes[0], 6, SGRT_NULL_NODESET, foreign, &st));
    REFUSED(sgrt_scene_cull(s, planes[0], 6, foreign, out, &st));
    const float bad[] = {NAN, INFINITY, -INFINITY};
    for (int k = 0; k < 8; k++)
        for (int c = 0; c < 4; c++)
            for (size_t v = 0; v < sizeof bad / sizeof bad[0]; v++) {
                memcpy(planes, CUBE, sizeof CUBE);
                memcpy(planes[6], CUBE[0], sizeof CUBE[0]);
                memcpy(planes[7], CUBE[1], sizeof CUBE[1]);
                planes[k][c] = bad[v];
                REFUSED(sgrt_scene_cull(s, planes[0], 8, SGRT_NULL_NODESET, out, &st));
            }
#undef REFUSED
    CHECK_RES(sgrt_scene_cull(plain, CUBE[0], 6, SGRT_NULL_NODESET, plain_set, &st), SGRT_ERR_INVALID_ARG);
    check_logged(&log, SGRT_ERR_INVALID_ARG, fn);
    CHECK_RES(sgrt_scene_cull(NULL, CUBE[0], 6, SGRT_NULL_NODESET, out, &st), SGRT_ERR_INVALID_ARG);
    CHECK(log.entries == 0);
    /* The accepted edges: 1 and 8 planes, no stats. */
    OK(sgrt_scene_cull(s, CUBE[0], 1, SGRT_NULL_NODESET, out, NULL));
    CHECK(sgrt_nodeset_has(s, out, a) && sgrt_nodeset_has(s, out, b));
    memcpy(planes, CUBE, sizeof CUBE);
    memcpy(planes[6], CUBE[0], sizeof CUBE[0]);
    memcpy(planes[7], CUBE[1], sizeof CUBE[1]);
    OK(sgrt_scene_cull(s, planes[0], 8, SGRT_NULL_NODESET, out, &st));
    CHECK_EQ_U(st.visible, 2);
    CHECK(log.entries == 0);
    sgrt_scene_destroy(s);
    sgrt_scene_destroy(other);
    sgrt_scene_destroy(plain);
}

/* ---- exactness ---------------------------------------------------------------------- */

static long culled_checked, visible_checked, kept_outside, touching_checked;

/* Every live node of s: in `out` exactly when it should be. `only` NULL:
 * every node. */
static void verify_cull(const sgrt_scene *s, const sgrt_node *h, uint32_t n,
                        const float (*planes)[4], uint32_t count, sgrt_nodeset only,
                        sgrt_nodeset out, const char *what)
{
    uint32_t members = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (!sgrt_node_alive(s, h[i]))
            continue;
        const bool in = sgrt_nodeset_has(s, out, h[i]);
        members += in;
        float lo[3], hi[3];
        OK(sgrt_node_world_bounds(s, h[i], lo, hi));
        const bool boxed = lo[0] <= hi[0];
        if (!boxed || (only.id && !sgrt_nodeset_has(s, only, h[i]))) {
            CHECK_MSG(!in, "%s: node %u without a box or outside `only` is in the result", what, i);
            continue;
        }
        const bool finite = finite3(lo) && finite3(hi);
        if (!finite) {
            CHECK_MSG(in, "%s: node %u has an infinite box and was culled", what, i);
            continue;
        }
        bool outside = false, clearly = false;
        for (uint32_t k = 0; k < count; k++) {
            outside |= exact_plane_sign(planes[k], lo, hi) < 0;
            double scale;
            const double reach = plane_reach(planes[k], lo, hi, &scale);
            clearly |= reach < -(ldexp(scale, -19) + 0x1p-100);
        }
        if (!in) {
            culled_checked++;
            CHECK_MSG(outside, "%s: node %u was culled but meets every plane (exactly)", what, i);
        } else {
            visible_checked++;
            kept_outside += outside; /* within the rounding margin */
            CHECK_MSG(!clearly, "%s: node %u is outside a plane by a clear margin but was kept",
                      what, i);
        }
    }
    CHECK_EQ_U(sgrt_nodeset_count(s, out), members);
}

static void random_world(float m[16], int kind)
{
    random_affine(&R, m);
    for (int i = 12; i < 15; i++)
        m[i] = (float)rng_range(&R, -60, 60);
    switch (kind % 6) {
    case 1: /* mirrored */
        m[0] = -m[0];
        m[1] = -m[1];
        m[2] = -m[2];
        break;
    case 2: /* sheared */
        m[4] += 2.0f * m[0];
        m[8] -= 3.0f * m[5];
        break;
    case 3: /* huge coordinates */
        m[12] *= 1e25f;
        m[13] *= 1e25f;
        break;
    case 4: /* tiny */
        for (int i = 0; i < 15; i++)
            m[i] *= 1e-25f;
        break;
    case 5: /* degenerate */
        m[0] = m[1] = m[2] = 0.0f;
        break;
    default:
        break;
    }
}

static void random_planes(float (*p)[4], uint32_t count, double scale)
{
    for (uint32_t k = 0; k < count; k++) {
        for (int a = 0; a < 3; a++)
            p[k][a] = rng_below(&R, 5) == 0 ? (rng_below(&R, 2) ? 0.0f : -0.0f)
                                            : (float)rng_range(&R, -2, 2);
        p[k][3] = (float)(rng_range(&R, -1, 1) * scale);
    }
}

static void test_exact(void)
{
    enum { N = 1500 };
    static sgrt_node h[N];
    for (int variant = 0; variant < 2; variant++) {
        sgrt_scene *s = cull_scene(variant ? SGRT_SCENE_SUBTREE_BOUNDS : SGRT_SCENE_BOUNDS, NULL);
        sgrt_nodeset out, only;
        OK(sgrt_nodeset_create(s, &out));
        OK(sgrt_nodeset_create(s, &only));
        for (uint32_t i = 0; i < N; i++) {
            h[i] = add(s, i % 25 ? h[i - 1 - rng_below(&R, i % 25)] : SGRT_NULL_NODE);
            if (rng_below(&R, 3))
                OK(sgrt_nodeset_add(s, only, h[i]));
        }
        for (int round = 0; round < 60; round++) {
            const int kind = round % 12 < 6 ? 0 : round % 6;
            for (uint32_t i = 0; i < N; i++) {
                float m[16], c[3], e[3];
                random_world(m, rng_below(&R, 4) ? 0 : kind);
                for (int a = 0; a < 3; a++) {
                    c[a] = (float)rng_range(&R, -2, 2);
                    e[a] = rng_below(&R, 8) == 0 ? 0.0f : (float)rng_range(&R, 0, 3);
                }
                if (i % 25 == 0) /* roots near the origin: their subtrees' worlds */
                    random_world(m, kind == 3 || kind == 4 ? kind : 0);
                OK(sgrt_node_set_local(s, h[i], m));
                if (rng_below(&R, 12) == 0)
                    OK(sgrt_node_clear_bounds(s, h[i]));
                else
                    OK(sgrt_node_set_bounds(s, h[i], c, e));
            }
            (void)sgrt_scene_update(s);
            float planes[8][4];
            uint32_t count = 6;
            if (round % 3 == 0) {
                const double eye[3] = {rng_range(&R, -100, 100), rng_range(&R, -100, 100),
                                       rng_range(&R, -100, 100)};
                const double at[3] = {rng_range(&R, -30, 30), 0, rng_range(&R, -30, 30)};
                frustum_from_camera(eye, at, rng_range(&R, 0.3, 2.0), rng_range(&R, 0.5, 2.5),
                              rng_range(&R, 0.1, 5), rng_range(&R, 50, 1000), planes);
            } else {
                count = 1u + rng_below(&R, 8);
                random_planes(planes, count, kind == 3 ? 1e26 : kind == 4 ? 1e-24 : 60.0);
            }
            if (round % 3 == 2) {
                /* Planes through a box's corner, give or take an ulp or
                 * three of d: boxes on the plane, exactly or within the
                 * rounding margin, on either side. */
                for (uint32_t k = 0; k < count; k++) {
                    float lo[3], hi[3];
                    OK(sgrt_node_world_bounds(s, h[rng_below(&R, N)], lo, hi));
                    if (!(finite3(lo) && finite3(hi)))
                        continue;
                    const float d = -((planes[k][0] * (planes[k][0] >= 0.0f ? hi[0] : lo[0]) +
                                       planes[k][1] * (planes[k][1] >= 0.0f ? hi[1] : lo[1])) +
                                      planes[k][2] * (planes[k][2] >= 0.0f ? hi[2] : lo[2]));
                    const int ulps = (int)rng_below(&R, 7) - 3;
                    planes[k][3] = bits_float(float_bits(d) + (uint32_t)ulps);
                    if (!isfinite(planes[k][3]))
                        planes[k][3] = d;
                }
            }
            const bool restrict_set = round % 4 == 1;
            sgrt_cull_stats st;
            OK(sgrt_scene_cull(s, planes[0], count, restrict_set ? only : SGRT_NULL_NODESET,
                               out, &st));
            CHECK_EQ_U(st.visible, sgrt_nodeset_count(s, out));
            verify_cull(s, h, N, (const float(*)[4])planes, count, restrict_set ? only : SGRT_NULL_NODESET,
                        out, variant ? "subtree cull" : "cull");
        }
        sgrt_scene_destroy(s);
    }
    printf("exact: %ld culled boxes outside a plane, %ld kept boxes not clearly outside "
           "(%ld of them outside within the margin)\n",
           culled_checked, visible_checked, kept_outside);
    CHECK(culled_checked > 10000 && visible_checked > 10000);
}

/* Boxes whose exact world box touches a plane from outside or inside, at
 * several scales: kept, whatever the rounding. And just past the margin: culled. */
static void test_touching(void)
{
    sgrt_scene *s = cull_scene(SGRT_SCENE_BOUNDS, NULL);
    sgrt_nodeset out;
    OK(sgrt_nodeset_create(s, &out));
    enum { N = 64 };
    sgrt_node h[N];
    static const double scales[] = {1.0, 1e-30, 1e30, 3.0, 0.1};
    for (size_t sc = 0; sc < sizeof scales / sizeof scales[0]; sc++) {
        for (int i = 0; i < N; i++) {
            h[i] = add(s, SGRT_NULL_NODE);
            /* Box [x, x + 2 w] on every axis, at x = k * w: it touches the
             * plane x >= 0 (n = (1, 0, 0), d = 0) from outside at k = -2. */
            const float w = (float)scales[sc];
            float m[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
            m[12] = (float)(i - 2 - N / 2) * w;
            const float c[3] = {w, w, w}, e[3] = {w, w, w};
            OK(sgrt_node_set_local(s, h[i], m));
            OK(sgrt_node_set_bounds(s, h[i], c, e));
        }
        (void)sgrt_scene_update(s);
        const float planes[2][4] = {{1, 0, 0, 0}, {-1, 0, 0, (float)(4.0 * scales[sc])}};
        OK(sgrt_scene_cull(s, planes[0], 2, SGRT_NULL_NODESET, out, NULL));
        for (int i = 0; i < N; i++) {
            const int x0 = i - 2 - N / 2;       /* box [x0, x0 + 2] in units of w */
            const bool meets = x0 + 2 >= 0 && x0 <= 4;
            touching_checked++;
            if (meets)
                CHECK_MSG(sgrt_nodeset_has(s, out, h[i]),
                          "scale %g: box [%d, %d] meets [0, 4] and was culled", scales[sc], x0,
                          x0 + 2);
            else if (x0 + 2 <= -2 || x0 >= 6)
                CHECK_MSG(!sgrt_nodeset_has(s, out, h[i]),
                          "scale %g: box [%d, %d] is far outside [0, 4] and was kept", scales[sc],
                          x0, x0 + 2);
            OK(sgrt_node_destroy(s, h[i]));
        }
    }
    sgrt_scene_destroy(s);
}

/* ---- what the result may hold ------------------------------------------------------- */

static void test_membership(void)
{
    sgrt_scene *s = cull_scene(SGRT_SCENE_BOUNDS, NULL);
    const sgrt_node a = add(s, SGRT_NULL_NODE), b = add(s, a), c = add(s, a), d = add(s, c);
    for (int i = 0; i < 200; i++) /* storage with holes and several words */
        (void)add(s, b);
    OK(sgrt_node_set_bounds(s, a, ORIGIN, UNIT));
    OK(sgrt_node_set_bounds(s, c, ORIGIN, UNIT));
    OK(sgrt_node_set_bounds(s, d, ORIGIN, UNIT));
    sgrt_nodeset out, only;
    OK(sgrt_nodeset_create(s, &out));
    OK(sgrt_nodeset_create(s, &only));
    sgrt_cull_stats st;
    /* Before the first update nothing has a world box. */
    OK(sgrt_scene_cull(s, CUBE[0], 6, SGRT_NULL_NODESET, out, &st));
    CHECK_EQ_U(st.visible, 0);
    (void)sgrt_scene_update(s);
    OK(sgrt_scene_cull(s, CUBE[0], 6, SGRT_NULL_NODESET, out, &st));
    CHECK_EQ_U(st.visible, 3);
    CHECK(sgrt_nodeset_has(s, out, a) && !sgrt_nodeset_has(s, out, b));
    /* A new node, a cleared box: as of the last update. */
    const sgrt_node e = add(s, a);
    OK(sgrt_node_set_bounds(s, e, ORIGIN, UNIT));
    OK(sgrt_node_clear_bounds(s, c));
    OK(sgrt_scene_cull(s, CUBE[0], 6, SGRT_NULL_NODESET, out, &st));
    CHECK(!sgrt_nodeset_has(s, out, e) && sgrt_nodeset_has(s, out, c));
    (void)sgrt_scene_update(s);
    OK(sgrt_scene_cull(s, CUBE[0], 6, SGRT_NULL_NODESET, out, &st));
    CHECK(sgrt_nodeset_has(s, out, e) && !sgrt_nodeset_has(s, out, c));
    /* Destroyed: gone at once (its slot is dead). */
    OK(sgrt_node_destroy(s, d));
    OK(sgrt_scene_cull(s, CUBE[0], 6, SGRT_NULL_NODESET, out, &st));
    CHECK_EQ_U(st.visible, 2);
    /* Restricted, in place: out = only. */
    OK(sgrt_nodeset_add(s, only, e));
    OK(sgrt_nodeset_add(s, only, b));
    OK(sgrt_scene_cull(s, CUBE[0], 6, only, only, &st));
    CHECK(sgrt_nodeset_has(s, only, e) && !sgrt_nodeset_has(s, only, b) &&
          !sgrt_nodeset_has(s, only, a));
    CHECK_EQ_U(sgrt_nodeset_count(s, only), 1);
    /* Words past the slot count stay zero (a set wider than the scene). */
    uint32_t words;
    const uint32_t *bits = sgrt_nodeset_words(s, out, &words);
    CHECK(bits != NULL);
    check_scene(s);
    sgrt_scene_destroy(s);
}

/* ---- the scene's kernel table ----------------------------------------------------------- */

/* The cull goes through the scene's table, beside the subtree walk: forced
 * to the reference (sgrt__scene_set_kernels, which tests/test_kernels.c's
 * per-level comparisons do without), the scene culls as at its default
 * level, the same members and the same stats. */
static void test_forced_reference(void)
{
    sgrt_scene *s = cull_scene(SGRT_SCENE_SUBTREE_BOUNDS, NULL);
    enum { N = 3000 };
    static sgrt_node h[N];
    for (uint32_t i = 0; i < N; i++) {
        h[i] = add(s, i % 30 ? h[i - 1 - rng_below(&R, i % 30)] : SGRT_NULL_NODE);
        float m[16], c[3] = {0, 0, 0}, e[3] = {1, 1, 1};
        random_world(m, (int)rng_below(&R, 6));
        OK(sgrt_node_set_local(s, h[i], m));
        OK(sgrt_node_set_bounds(s, h[i], c, e));
    }
    (void)sgrt_scene_update(s);
    sgrt_nodeset ref, got;
    OK(sgrt_nodeset_create(s, &ref));
    OK(sgrt_nodeset_create(s, &got));
    const char *level = sgrt_scene_simd_name(s);
    float planes[8][4];
    for (int round = 0; round < 20; round++) {
        const uint32_t count = 1u + (uint32_t)round % 8u;
        random_planes(planes, count, 80.0);
        sgrt_cull_stats s0, s1;
        sgrt__scene_set_kernels(s, SGRT__LEVEL_SCALAR, NULL);
        CHECK(strcmp(sgrt_scene_simd_name(s), "scalar") == 0);
        OK(sgrt_scene_cull(s, planes[0], count, SGRT_NULL_NODESET, ref, &s0));
        sgrt__scene_set_kernels(s, sgrt__kernels_choose(0, NULL), NULL);
        CHECK(strcmp(sgrt_scene_simd_name(s), level) == 0);
        OK(sgrt_scene_cull(s, planes[0], count, SGRT_NULL_NODESET, got, &s1));
        uint32_t nw0, nw1;
        const uint32_t *w0 = sgrt_nodeset_words(s, ref, &nw0), *w1 = sgrt_nodeset_words(s, got, &nw1);
        CHECK_MSG(nw0 == nw1 && memcmp(w0, w1, nw0 * sizeof *w0) == 0 &&
                      memcmp(&s0, &s1, sizeof s0) == 0,
                  "round %d: %s culls otherwise than the reference", round, level);
    }
    sgrt_scene_destroy(s);
}

/* ---- subtree boxes: skipping, accepting, and when they are not used -------------------- */

static void test_subtree(void)
{
    /* A grid of blocks, each a subtree of rooms and furniture, in
     * depth-first order: two scenes, one with subtree boxes. */
    sgrt_scene *s[2] = {cull_scene(SGRT_SCENE_BOUNDS, NULL), cull_scene(SGRT_SCENE_SUBTREE_BOUNDS, NULL)};
    enum { BLOCKS = 64, ROOMS = 6, ITEMS = 8, N = BLOCKS * (1 + ROOMS * (1 + ITEMS)) + 1 };
    static sgrt_node h[2][N];
    for (int k = 0; k < 2; k++) {
        uint32_t n = 0;
        h[k][n++] = add(s[k], SGRT_NULL_NODE);
        for (int b = 0; b < BLOCKS; b++) {
            const sgrt_node block = h[k][n++] = add(s[k], h[k][0]);
            const float t[3] = {(float)(b % 8) * 40.0f, 0, (float)(b / 8) * 40.0f};
            const float q[4] = {0, 0, 0, 1};
            OK(sgrt_node_set_trs(s[k], block, t, q, UNIT));
            for (int r = 0; r < ROOMS; r++) {
                const sgrt_node room = h[k][n++] = add(s[k], block);
                const float tr[3] = {(float)(r % 3) * 10.0f, 0, (float)(r / 3) * 10.0f};
                OK(sgrt_node_set_trs(s[k], room, tr, q, UNIT));
                for (int i = 0; i < ITEMS; i++) {
                    const sgrt_node item = h[k][n++] = add(s[k], room);
                    const float ti[3] = {(float)i, 0.5f, (float)(i % 3)};
                    OK(sgrt_node_set_trs(s[k], item, ti, q, UNIT));
                    const float half[3] = {0.4f, 0.5f, 0.4f};
                    OK(sgrt_node_set_bounds(s[k], item, ORIGIN, half));
                }
            }
        }
        (void)sgrt_scene_update(s[k]);
    }
    sgrt_nodeset flat, tree;
    OK(sgrt_nodeset_create(s[0], &flat));
    OK(sgrt_nodeset_create(s[1], &tree));
    long skipped = 0, accepted = 0;
    for (int round = 0; round < 40; round++) {
        float planes[6][4];
        const double eye[3] = {rng_range(&R, -50, 350), rng_range(&R, 5, 200), rng_range(&R, -50, 350)};
        const double at[3] = {rng_range(&R, 0, 300), 0, rng_range(&R, 0, 300)};
        frustum_from_camera(eye, at, rng_range(&R, 0.3, 1.2), 1.5, 1.0, 500.0, planes);
        sgrt_cull_stats sf, st;
        OK(sgrt_scene_cull(s[0], planes[0], 6, SGRT_NULL_NODESET, flat, &sf));
        OK(sgrt_scene_cull(s[1], planes[0], 6, SGRT_NULL_NODESET, tree, &st));
        CHECK(sf.subtrees_tested == 0 && st.subtrees_tested > 0);
        skipped += st.subtrees_skipped;
        accepted += st.subtrees_accepted;
        CHECK(st.boxes_tested + st.subtrees_tested <= sf.boxes_tested + st.subtrees_tested);
        for (uint32_t i = 0; i < N; i++) {
            const bool in_flat = sgrt_nodeset_has(s[0], flat, h[0][i]);
            const bool in_tree = sgrt_nodeset_has(s[1], tree, h[1][i]);
            CHECK_MSG(!in_tree || in_flat, "round %d: node %u kept by the subtree cull only", round, i);
            if (in_flat && !in_tree) { /* skipped with its subtree: outside exactly */
                float lo[3], hi[3];
                OK(sgrt_node_world_bounds(s[1], h[1][i], lo, hi));
                bool outside = false;
                for (int k = 0; k < 6; k++)
                    outside |= exact_plane_sign(planes[k], lo, hi) < 0;
                CHECK_MSG(outside, "round %d: node %u dropped by the subtree cull meets the frustum",
                          round, i);
            }
        }
        verify_cull(s[1], h[1], N, (const float(*)[4])planes, 6, SGRT_NULL_NODESET, tree, "subtree cull of a grid");
    }
    printf("subtree cull: %ld subtrees skipped, %ld accepted over 40 frusta\n", skipped, accepted);
    CHECK(skipped > 40 && accepted > 10);

    /* A relocation: until the next update the cull goes box by box, and
     * answers what the flat cull does. */
    for (int k = 0; k < 2; k++)
        OK(sgrt_node_set_parent(s[k], h[k][1], h[k][N - 1], SGRT_KEEP_WORLD));
    const float planes[6][4] = {{1, 0, 0, -20}, {-1, 0, 0, 200}, {0, 1, 0, 50},
                                {0, -1, 0, 50}, {0, 0, 1, 0}, {0, 0, -1, 100}};
    sgrt_cull_stats sf, st;
    OK(sgrt_scene_cull(s[0], planes[0], 6, SGRT_NULL_NODESET, flat, &sf));
    OK(sgrt_scene_cull(s[1], planes[0], 6, SGRT_NULL_NODESET, tree, &st));
    CHECK(st.subtrees_tested == 0 && sf.visible == st.visible);
    for (uint32_t i = 0; i < N; i++)
        CHECK(sgrt_nodeset_has(s[0], flat, h[0][i]) == sgrt_nodeset_has(s[1], tree, h[1][i]));
    for (int k = 0; k < 2; k++)
        (void)sgrt_scene_update(s[k]);
    OK(sgrt_scene_cull(s[1], planes[0], 6, SGRT_NULL_NODESET, tree, &st));
    CHECK(st.subtrees_tested > 0);
    verify_cull(s[1], h[1], N, planes, 6, SGRT_NULL_NODESET, tree, "after a relocation and an update");
    /* A compaction: the same until the next update. */
    OK(sgrt_scene_compact(s[1]));
    OK(sgrt_scene_cull(s[1], planes[0], 6, SGRT_NULL_NODESET, tree, &st));
    CHECK(st.subtrees_tested == 0);
    verify_cull(s[1], h[1], N, planes, 6, SGRT_NULL_NODESET, tree, "after a compaction");
    (void)sgrt_scene_update(s[1]);
    OK(sgrt_scene_cull(s[1], planes[0], 6, SGRT_NULL_NODESET, tree, &st));
    CHECK(st.subtrees_tested > 0);
    verify_cull(s[1], h[1], N, planes, 6, SGRT_NULL_NODESET, tree, "after a compaction and an update");
    check_scene(s[1]);
    for (int k = 0; k < 2; k++)
        sgrt_scene_destroy(s[k]);
}

/* A destroy between the update and the cull: a subtree stored with another
 * node in its run of slots holds exactly its count of live nodes once one
 * of its own dies, yet the other node is no member. The cull must not skip
 * the run (it dropped the other node, whose box meets the plane). */
static void test_subtree_destroy(void)
{
    sgrt_scene *s = cull_scene(SGRT_SCENE_SUBTREE_BOUNDS, NULL);
    const float far[3] = {100, 0, 0};
    const sgrt_node a = add(s, SGRT_NULL_NODE);
    OK(sgrt_node_set_bounds(s, a, far, UNIT));
    sgrt_node c[16], other = SGRT_NULL_NODE;
    for (int i = 0; i < 16; i++) {
        if (i == 10) { /* another root among a's slots */
            other = add(s, SGRT_NULL_NODE);
            OK(sgrt_node_set_bounds(s, other, ORIGIN, UNIT));
        }
        c[i] = add(s, a);
        OK(sgrt_node_set_bounds(s, c[i], far, UNIT));
    }
    (void)sgrt_scene_update(s);
    sgrt_nodeset out;
    OK(sgrt_nodeset_create(s, &out));
    const float plane[4] = {-1, 0, 0, 50}; /* inside: x <= 50 */
    sgrt_cull_stats st;
    OK(sgrt_scene_cull(s, plane, 1, SGRT_NULL_NODESET, out, &st));
    CHECK(sgrt_nodeset_has(s, out, other) && st.subtrees_tested > 0);
    OK(sgrt_node_destroy(s, c[4]));
    OK(sgrt_scene_cull(s, plane, 1, SGRT_NULL_NODESET, out, &st));
    CHECK_MSG(sgrt_nodeset_has(s, out, other), "a destroy made the cull skip another node's box");
    CHECK(st.subtrees_tested == 0); /* box by box until the next update */
    (void)sgrt_scene_update(s);
    OK(sgrt_scene_cull(s, plane, 1, SGRT_NULL_NODESET, out, &st));
    CHECK(sgrt_nodeset_has(s, out, other) && st.subtrees_tested > 0);
    check_scene(s);
    sgrt_scene_destroy(s);
}

int main(int argc, char **argv)
{
    rng_seed_from_args(&R, argc, argv, "test_cull");
    test_refusals();
    test_exact();
    test_touching();
    test_membership();
    test_forced_reference();
    test_subtree();
    test_subtree_destroy();
    printf("touching: %ld boxes at the planes' edges\n", touching_checked);
    return test_report("cull");
}
