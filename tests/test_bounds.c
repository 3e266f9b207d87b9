/* SPDX-License-Identifier: MIT */
/* Local, world and subtree boxes (SGRT_SCENE_BOUNDS, SGRT_SCENE_SUBTREE_BOUNDS):
 *
 *  - refusals: a scene without the flag, NULL arguments, stale handles, NaN,
 *    infinite values and negative half extents are refused with their error
 *    and a log entry, change nothing, and a batch names its first bad entry;
 *  - every world box contains the exact box of its float world matrix and
 *    local box (Arvo's method, judged in exact arithmetic) and lies within
 *    the stated bound of it, for rotations, scales, mirrors, shears, huge and
 *    tiny values and zero extents; projective worlds and overflows give
 *    infinite axes;
 *  - the update computes boxes where worlds are recomputed or boxes set, a
 *    tracker reports a slot whose box alone changed, and nothing else;
 *  - the parallel update gives the serial one's boxes and subtree records bit
 *    for bit, tasks in order or on two threads;
 *  - after random programs of writes, re-parents, destroys, creates, box
 *    changes and compactions, each subtree box is exactly the join of its
 *    members' world boxes (so it contains every descendant's box);
 *  - boxes and subtree boxes travel with their nodes through relocation,
 *    hole reclamation and compaction; setting boxes, updating, reading and
 *    culling never allocate; sgrt_scene_check notices broken box state.
 * The box kernels (each level's boxes, and the boxes its update computes) are
 * held to the reference by tests/test_kernels.c. */
#include "internal.h" /* white-box: storage, the reclamation threshold */
#include "followers/bounds.h"
#include "dirty.h"
#include "scene.h"
#include "testutil.h"
#include "boundsutil.h"
#include "../examples/executor_pthread.h"

static rng R = {0xB0B5u};

static const float ZERO3[3] = {0, 0, 0}, ONE3[3] = {1, 1, 1};

static sgrt_scene *bounds_scene(uint32_t flags, log_capture *log, test_alloc *ta)
{
    sgrt_scene_desc d;
    memset(&d, 0, sizeof d);
    d.flags = flags;
    if (log) {
        d.log = capture_log;
        d.log_user = log;
    }
    sgrt_allocator al;
    if (ta) {
        memset(ta, 0, sizeof *ta);
        al = test_alloc_hooks(ta);
        d.allocator = &al;
    }
    return new_scene_desc(&d);
}

static sgrt_node add(sgrt_scene *s, sgrt_node parent)
{
    sgrt_node n = SGRT_NULL_NODE;
    OK(sgrt_node_create(s, parent, &n));
    return n;
}

static bool same_bits3(const float a[3], const float b[3]) { return memcmp(a, b, 12) == 0; }

/* ---- refusals --------------------------------------------------------------- */

/* Every bounds call on (s, n), well formed otherwise: each refused with
 * INVALID_ARG, and logged once when `log` is given. */
static void refuse_all(sgrt_scene *s, sgrt_node n, log_capture *log)
{
    static const char *const fn[] = {
        "sgrt_node_set_bounds",   "sgrt_nodes_set_bounds",    "sgrt_node_clear_bounds",
        "sgrt_node_bounds",       "sgrt_node_world_bounds",   "sgrt_node_subtree_bounds",
        "sgrt_scene_bounds_arrays",
    };
    float a[3], b[3];
    sgrt_bounds_arrays arr;
    for (int k = 0; k < 7; k++) {
        sgrt_result r;
        switch (k) {
        case 0: r = sgrt_node_set_bounds(s, n, ZERO3, ONE3); break;
        case 1: r = sgrt_nodes_set_bounds(s, 1, &n, ZERO3, ONE3, NULL); break;
        case 2: r = sgrt_node_clear_bounds(s, n); break;
        case 3: r = sgrt_node_bounds(s, n, a, b); break;
        case 4: r = sgrt_node_world_bounds(s, n, a, b); break;
        case 5: r = sgrt_node_subtree_bounds(s, n, a, b); break;
        default: r = sgrt_scene_bounds_arrays(s, &arr); break;
        }
        CHECK_RES(r, SGRT_ERR_INVALID_ARG);
        if (log)
            check_logged(log, SGRT_ERR_INVALID_ARG, fn[k]);
    }
}

static void test_refusals(void)
{
    log_capture log = {0, {SGRT_OK, NULL, NULL, {0}}};
    sgrt_scene *plain = bounds_scene(0, &log, NULL);
    const sgrt_node p = add(plain, SGRT_NULL_NODE);
    float c[3], h[3], lo[3], hi[3];
    refuse_all(plain, p, &log);
    sgrt_scene_destroy(plain);

    /* Bounds without subtree boxes: the subtree read is refused. */
    sgrt_scene *s = bounds_scene(SGRT_SCENE_BOUNDS, &log, NULL);
    const sgrt_node a = add(s, SGRT_NULL_NODE), b = add(s, a);
    CHECK_RES(sgrt_node_subtree_bounds(s, a, lo, hi), SGRT_ERR_INVALID_ARG);
    check_logged(&log, SGRT_ERR_INVALID_ARG, "sgrt_node_subtree_bounds");
    OK(sgrt_node_set_bounds(s, a, ZERO3, ONE3));
    OK(sgrt_scene_update(s) == 2 ? SGRT_OK : SGRT_ERR_CORRUPT);
    CHECK(log.entries == 0);

    /* NULL scene: refused, nothing to log to. */
    refuse_all(NULL, a, NULL);
    CHECK(log.entries == 0);

    /* NULL arguments, stale handles. */
    CHECK_RES(sgrt_node_set_bounds(s, a, NULL, ONE3), SGRT_ERR_INVALID_ARG);
    check_logged(&log, SGRT_ERR_INVALID_ARG, "sgrt_node_set_bounds");
    CHECK_RES(sgrt_node_set_bounds(s, a, ZERO3, NULL), SGRT_ERR_INVALID_ARG);
    check_logged(&log, SGRT_ERR_INVALID_ARG, "sgrt_node_set_bounds");
    CHECK_RES(sgrt_node_bounds(s, a, NULL, h), SGRT_ERR_INVALID_ARG);
    check_logged(&log, SGRT_ERR_INVALID_ARG, "sgrt_node_bounds");
    CHECK_RES(sgrt_node_world_bounds(s, a, lo, NULL), SGRT_ERR_INVALID_ARG);
    check_logged(&log, SGRT_ERR_INVALID_ARG, "sgrt_node_world_bounds");
    CHECK_RES(sgrt_scene_bounds_arrays(s, NULL), SGRT_ERR_INVALID_ARG);
    check_logged(&log, SGRT_ERR_INVALID_ARG, "sgrt_scene_bounds_arrays");
    const sgrt_node gone = add(s, SGRT_NULL_NODE);
    OK(sgrt_node_destroy(s, gone));
    CHECK_RES(sgrt_node_set_bounds(s, gone, ZERO3, ONE3), SGRT_ERR_STALE_HANDLE);
    check_logged(&log, SGRT_ERR_STALE_HANDLE, "sgrt_node_set_bounds");
    CHECK_RES(sgrt_node_clear_bounds(s, gone), SGRT_ERR_STALE_HANDLE);
    check_logged(&log, SGRT_ERR_STALE_HANDLE, "sgrt_node_clear_bounds");
    CHECK_RES(sgrt_node_world_bounds(s, SGRT_NULL_NODE, lo, hi), SGRT_ERR_STALE_HANDLE);
    check_logged(&log, SGRT_ERR_STALE_HANDLE, "sgrt_node_world_bounds");

    /* Values: NaN, infinities, negative half extents, each in each axis. */
    const float bad[] = {NAN, INFINITY, -INFINITY};
    for (int axis = 0; axis < 3; axis++) {
        for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
            float cc[3] = {1, 2, 3}, hh[3] = {1, 1, 1};
            cc[axis] = bad[k];
            CHECK_RES(sgrt_node_set_bounds(s, b, cc, hh), SGRT_ERR_INVALID_ARG);
            check_logged(&log, SGRT_ERR_INVALID_ARG, "sgrt_node_set_bounds");
            cc[axis] = 0;
            hh[axis] = bad[k];
            CHECK_RES(sgrt_node_set_bounds(s, b, cc, hh), SGRT_ERR_INVALID_ARG);
            check_logged(&log, SGRT_ERR_INVALID_ARG, "sgrt_node_set_bounds");
        }
        float hh[3] = {1, 1, 1};
        hh[axis] = -FLT_MIN;
        CHECK_RES(sgrt_node_set_bounds(s, b, ZERO3, hh), SGRT_ERR_INVALID_ARG);
        check_logged(&log, SGRT_ERR_INVALID_ARG, "sgrt_node_set_bounds");
    }
    /* None of that reached b: no box, nothing pending. */
    OK(sgrt_node_bounds(s, b, c, h));
    CHECK(h[0] == -1.0f && h[1] == -1.0f && h[2] == -1.0f && c[0] == 0.0f);
    CHECK_EQ_U(sgrt_scene_update(s), 0);

    /* A batch: refused whole at its first bad entry, which out_bad names. */
    sgrt_node nodes[4] = {a, b, gone, b};
    float cs[4][3] = {{5, 5, 5}, {6, 6, 6}, {7, 7, 7}, {8, 8, 8}};
    float hs[4][3] = {{1, 1, 1}, {1, 1, 1}, {1, 1, 1}, {1, -1, 1}};
    uint32_t out_bad = 99;
    CHECK_RES(sgrt_nodes_set_bounds(s, 4, nodes, cs[0], hs[0],
                                    &out_bad),
              SGRT_ERR_STALE_HANDLE);
    CHECK_EQ_U(out_bad, 2);
    check_logged(&log, SGRT_ERR_STALE_HANDLE, "sgrt_nodes_set_bounds");
    nodes[2] = a;
    CHECK_RES(sgrt_nodes_set_bounds(s, 4, nodes, cs[0], hs[0],
                                    &out_bad),
              SGRT_ERR_INVALID_ARG);
    CHECK_EQ_U(out_bad, 3);
    check_logged(&log, SGRT_ERR_INVALID_ARG, "sgrt_nodes_set_bounds");
    OK(sgrt_node_bounds(s, a, c, h));
    CHECK(same_bits3(c, ZERO3) && same_bits3(h, ONE3));
    OK(sgrt_node_bounds(s, b, c, h));
    CHECK(h[0] == -1.0f);
    CHECK_EQ_U(sgrt_scene_update(s), 0);
    out_bad = 77;
    CHECK_RES(sgrt_nodes_set_bounds(s, 2, NULL, cs[0], hs[0],
                                    &out_bad),
              SGRT_ERR_INVALID_ARG);
    CHECK_EQ_U(out_bad, 77);
    check_logged(&log, SGRT_ERR_INVALID_ARG, "sgrt_nodes_set_bounds");
    OK(sgrt_nodes_set_bounds(s, 0, NULL, NULL, NULL, NULL));
    /* A good batch, a node given twice: its last box wins. */
    hs[3][1] = -0.0f;
    OK(sgrt_nodes_set_bounds(s, 4, nodes, cs[0], hs[0],
                             &out_bad));
    CHECK_EQ_U(out_bad, 77);
    OK(sgrt_node_bounds(s, b, c, h));
    CHECK(c[0] == 8.0f && h[1] == 0.0f && !signbit(h[1])); /* -0 taken as +0 */
    OK(sgrt_node_bounds(s, a, c, h));
    CHECK(c[0] == 7.0f);
    CHECK(log.entries == 0);
    check_scene(s);
    sgrt_scene_destroy(s);
}

/* ---- world boxes against exact arithmetic --------------------------------------- */

static int worst_slack_count;
static double worst_slack;

/* The box of one node after an update: it contains the exact box and lies
 * within the stated bound of it (or is infinite where it must be). */
static void check_world_box(const sgrt_scene *s, sgrt_node n, const char *what)
{
    float m[16], c[3], h[3], lo[3], hi[3];
    OK(sgrt_node_world(s, n, m));
    OK(sgrt_node_bounds(s, n, c, h));
    OK(sgrt_node_world_bounds(s, n, lo, hi));
    if (h[0] < 0.0f) {
        CHECK_MSG(lo[0] == INFINITY && hi[0] == -INFINITY, "%s: a node without a box reads empty",
                  what);
        return;
    }
    const bool affine = m[3] == 0.0f && m[7] == 0.0f && m[11] == 0.0f && m[15] == 1.0f;
    for (int r = 0; r < 3; r++) {
        CHECK_MSG(lo[r] <= hi[r], "%s: box ordered on axis %d", what, r);
        if (!affine)
            CHECK_MSG(lo[r] == -INFINITY && hi[r] == INFINITY,
                      "%s: a projective world gives infinite axes", what);
    }
    if (!affine)
        return;
    bool finite_axes = true;
    for (int r = 0; r < 3; r++)
        finite_axes = finite_axes && isfinite(lo[r]) && isfinite(hi[r]);
    bool finite_world = true;
    for (int i = 0; i < 16; i++)
        finite_world = finite_world && isfinite(m[i]);
    if (!finite_world) {
        for (int r = 0; r < 3; r++)
            CHECK_MSG(!isfinite(lo[r]) || !isfinite(hi[r]) || isfinite(m[r]),
                      "%s: non-finite world, finite box", what);
        return;
    }
    /* A finite world: every finite axis contains the exact one; an infinite
     * axis is (-inf, +inf). */
    for (int r = 0; r < 3; r++) {
        if (!isfinite(lo[r]) || !isfinite(hi[r])) {
            CHECK_MSG(lo[r] == -INFINITY && hi[r] == INFINITY, "%s: overflowed axis %d infinite",
                      what, r);
            continue;
        }
        CHECK_MSG(exact_side_minus(m, c, h, r, 1, hi[r]) <= 0 &&
                      exact_side_minus(m, c, h, r, -1, lo[r]) >= 0,
                  "%s: world box misses the exact box on axis %d", what, r);
    }
    if (finite_axes) {
        const double slack = box_slack(m, c, h, lo, hi);
        if (slack > worst_slack)
            worst_slack = slack;
        if (!(slack <= 1.0) && ++worst_slack_count <= 5)
            FAIL("%s: box exceeds the exact one by %.3g of the stated bound", what, slack);
    }
}

static void test_world_exact(void)
{
    sgrt_scene *s = bounds_scene(SGRT_SCENE_BOUNDS, NULL, NULL);
    enum { N = 400 };
    sgrt_node n[N];
    for (int i = 0; i < N; i++) {
        /* Chains of up to four under roots: worlds are products. */
        n[i] = add(s, i % 4 ? n[i - 1] : SGRT_NULL_NODE);
    }
    for (int round = 0; round < 40; round++) {
        for (int i = 0; i < N; i++) {
            float m[16], c[3], h[3];
            awkward_matrix(&R, m, (int)rng_below(&R, 8) * (rng_below(&R, 3) == 0));
            if (rng_below(&R, 2))
                OK(sgrt_node_set_local(s, n[i], m));
            awkward_box(&R, c, h, (int)rng_below(&R, 6) * (rng_below(&R, 2) == 0));
            if (rng_below(&R, 10) == 0)
                OK(sgrt_node_clear_bounds(s, n[i]));
            else if (rng_below(&R, 2))
                OK(sgrt_node_set_bounds(s, n[i], c, h));
        }
        (void)sgrt_scene_update(s);
        for (int i = 0; i < N; i++)
            check_world_box(s, n[i], "random world");
        check_scene(s);
    }
    printf("world boxes: worst excess %.3f of the stated bound\n", worst_slack);
    /* The named cases. */
    const sgrt_node r = n[0];
    float m[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}, lo[3], hi[3];
    OK(sgrt_node_set_local(s, r, m));
    OK(sgrt_node_set_bounds(s, r, ZERO3, ONE3));
    (void)sgrt_scene_update(s);
    OK(sgrt_node_world_bounds(s, r, lo, hi));
    /* Identity, unit box: [-1, 1] grown by the margin, no more than one step. */
    CHECK(lo[0] < -1.0f && lo[0] >= -1.0000005f && hi[2] > 1.0f && hi[2] <= 1.0000005f);
    m[15] = 2.0f; /* projective */
    OK(sgrt_node_set_local(s, r, m));
    (void)sgrt_scene_update(s);
    OK(sgrt_node_world_bounds(s, r, lo, hi));
    CHECK(lo[0] == -INFINITY && hi[1] == INFINITY && lo[2] == -INFINITY);
    m[15] = 1.0f;
    m[12] = 3e38f; /* center + reach overflows on x only */
    const float big[3] = {3e38f, 0, 0};
    OK(sgrt_node_set_local(s, r, m));
    OK(sgrt_node_set_bounds(s, r, big, ONE3));
    (void)sgrt_scene_update(s);
    OK(sgrt_node_world_bounds(s, r, lo, hi));
    CHECK(lo[0] == -INFINITY && hi[0] == INFINITY && isfinite(lo[1]) && isfinite(hi[2]));
    check_scene(s);
    sgrt_scene_destroy(s);
}

/* ---- the update: what is computed, what trackers hear ---------------------------- */

static uint32_t collect_slots(sgrt_scene *s, sgrt_tracker t, uint32_t *slots, uint32_t max)
{
    sgrt_range r[64];
    uint32_t n = 0;
    bool more;
    do {
        const uint32_t got = test_collect(s, t, r, 64, 0, &more);
        for (uint32_t i = 0; i < got; i++)
            for (uint32_t k = 0; k < r[i].count; k++)
                if (n < max)
                    slots[n++] = r[i].first + k;
    } while (more);
    return n;
}

static void test_update_and_trackers(void)
{
    test_alloc ta;
    sgrt_scene *s = bounds_scene(SGRT_SCENE_SUBTREE_BOUNDS, NULL, &ta);
    sgrt_node n[64];
    for (int i = 0; i < 64; i++)
        n[i] = add(s, i % 8 ? n[i - 1 - (int)rng_below(&R, (uint32_t)(i % 8))] : SGRT_NULL_NODE);
    sgrt_tracker t;
    OK(sgrt_tracker_create(s, &t));
    for (int i = 0; i < 64; i++)
        OK(sgrt_node_set_bounds(s, n[i], ZERO3, ONE3));
    CHECK_EQ_U(sgrt_scene_update(s), 64);
    uint32_t slots[256];
    (void)collect_slots(s, t, slots, 256);
    const uint64_t calls = ta.calls;

    /* A box set on a node that does not move: its world box follows, its
     * slot is reported, and the update recomputes no world. */
    const float c2[3] = {0.5f, 0, 0}, h2[3] = {2, 2, 2};
    OK(sgrt_node_set_bounds(s, n[10], c2, h2));
    float lo[3], hi[3];
    OK(sgrt_node_world_bounds(s, n[10], lo, hi));
    CHECK(hi[1] < 1.5f); /* as of the last update */
    CHECK_EQ_U(sgrt_scene_update(s), 0);
    OK(sgrt_node_world_bounds(s, n[10], lo, hi));
    CHECK(hi[1] > 2.0f && hi[0] > 2.5f);
    uint32_t slot;
    OK(sgrt_node_slot(s, n[10], &slot));
    uint32_t got = collect_slots(s, t, slots, 256);
    CHECK(got == 1 && slots[0] == slot);
    /* The same box again changes nothing and reports nothing. */
    OK(sgrt_node_set_bounds(s, n[10], c2, h2));
    CHECK_EQ_U(sgrt_scene_update(s), 0);
    CHECK_EQ_U(collect_slots(s, t, slots, 256), 0);
    /* Cleared: empty after the update, reported, the subtree box forgets it. */
    OK(sgrt_node_clear_bounds(s, n[10]));
    OK(sgrt_node_world_bounds(s, n[10], lo, hi));
    CHECK(lo[0] < hi[0]);
    CHECK_EQ_U(sgrt_scene_update(s), 0);
    OK(sgrt_node_world_bounds(s, n[10], lo, hi));
    CHECK(lo[0] == INFINITY && hi[0] == -INFINITY);
    got = collect_slots(s, t, slots, 256);
    CHECK(got == 1 && slots[0] == slot);
    OK(sgrt_nodes_set_bounds(s, 1, &n[10], c2, h2, NULL));
    /* A moved node: its world and box are recomputed, its slot reported once. */
    float m[16];
    random_affine(&R, m);
    OK(sgrt_node_set_local(s, n[10], m));
    CHECK(sgrt_scene_update(s) >= 1);
    check_world_box(s, n[10], "moved node");
    check_scene(s);
    CHECK_MSG(ta.calls == calls, "setting boxes and updating allocated");
    OK(sgrt_tracker_destroy(s, t));
    end_scene_alloc(s, &ta);
}

/* ---- serial and parallel updates agree --------------------------------------------- */

/* Tasks in order on the calling thread; the examples' thread pool runs them
 * on two threads, in whatever order they come. */
static void run_inline(void *user, uint32_t count, void (*fn)(void *ctx, uint32_t i), void *ctx)
{
    (void)user;
    for (uint32_t i = 0; i < count; i++)
        fn(ctx, i);
}

/* Every live node's world box, validity and subtree record, through the
 * handles (slots may differ between scenes). */
static bool same_boxes(const sgrt_scene *a, const sgrt_node *ha, const sgrt_scene *b,
                       const sgrt_node *hb, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        if (sgrt_node_alive(a, ha[i]) != sgrt_node_alive(b, hb[i]))
            return false;
        if (!sgrt_node_alive(a, ha[i]))
            continue;
        float l0[3], h0[3], l1[3], h1[3];
        OK(sgrt_node_world_bounds(a, ha[i], l0, h0));
        OK(sgrt_node_world_bounds(b, hb[i], l1, h1));
        if (!same_bits3(l0, l1) || !same_bits3(h0, h1))
            return false;
        OK(sgrt_node_subtree_bounds(a, ha[i], l0, h0));
        OK(sgrt_node_subtree_bounds(b, hb[i], l1, h1));
        if (!same_bits3(l0, l1) || !same_bits3(h0, h1))
            return false;
    }
    return true;
}

static void test_parallel(void)
{
    enum { N = 6000 };
    static sgrt_node h[2][N];
    sgrt_scene *s[2];
    for (int k = 0; k < 2; k++)
        s[k] = bounds_scene(SGRT_SCENE_SUBTREE_BOUNDS, NULL, NULL);
    rng shape = {77};
    for (uint32_t i = 0; i < N; i++) {
        const uint32_t p = i && rng_below(&shape, 40) ? rng_below(&shape, i) : UINT32_MAX;
        const bool box = rng_below(&shape, 5) != 0;
        float c[3], e[3];
        awkward_box(&R, c, e, 0);
        for (int k = 0; k < 2; k++) {
            h[k][i] = add(s[k], p == UINT32_MAX ? SGRT_NULL_NODE : h[k][p]);
            if (box)
                OK(sgrt_node_set_bounds(s[k], h[k][i], c, e));
        }
    }
    thread_pool pool;
    REQUIRE(pool_start(&pool, 2));
    for (int frame = 0; frame < 24; frame++) {
        sgrt_executor ex = pool_executor(&pool);
        if (frame % 3 == 0)
            ex.run = run_inline;
        ex.workers = 2u + (uint32_t)frame % 5u; /* a hint: how many ranges */
        const uint32_t moves = frame % 4 == 0 ? N : 1u + rng_below(&R, 200);
        for (uint32_t j = 0; j < moves; j++) {
            const uint32_t i = frame % 4 == 0 ? j : rng_below(&R, N);
            float m[16], c[3], e[3];
            awkward_matrix(&R, m, (int)rng_below(&R, 3));
            awkward_box(&R, c, e, 0);
            const uint32_t what = rng_below(&R, 8);
            for (int k = 0; k < 2; k++) {
                if (!sgrt_node_alive(s[k], h[k][i]))
                    continue;
                if (what < 5)
                    OK(sgrt_node_set_local(s[k], h[k][i], m));
                else if (what < 7)
                    OK(sgrt_node_set_bounds(s[k], h[k][i], c, e));
                else
                    OK(sgrt_node_clear_bounds(s[k], h[k][i]));
            }
        }
        if (frame % 6 == 5) { /* a re-parent that relocates, and a destroy */
            const uint32_t i = rng_below(&R, N), j = rng_below(&R, N);
            for (int k = 0; k < 2; k++)
                if (sgrt_node_alive(s[k], h[k][i]) && sgrt_node_alive(s[k], h[k][j]))
                    OK_OR(sgrt_node_set_parent(s[k], h[k][i], h[k][j], SGRT_KEEP_LOCAL),
                          SGRT_ERR_CYCLE);
            const uint32_t d = rng_below(&R, N);
            for (int k = 0; k < 2; k++)
                if (sgrt_node_alive(s[k], h[k][d]))
                    OK(sgrt_node_destroy(s[k], h[k][d]));
        }
        const uint32_t c0 = sgrt_scene_update(s[0]);
        const uint32_t c1 = sgrt_scene_update_parallel(s[1], &ex);
        CHECK_EQ_U(c0, c1);
        CHECK_MSG(same_boxes(s[0], h[0], s[1], h[1], N),
                  "frame %d: the parallel update's boxes differ from the serial one's", frame);
        check_scene(s[0]);
        check_scene(s[1]);
    }
    pool_stop(&pool);
    for (int k = 0; k < 2; k++)
        sgrt_scene_destroy(s[k]);
}

/* ---- subtree boxes after random programs --------------------------------------------- */

enum { SUB_MAX = 260 };

typedef struct program {
    sgrt_scene *s;
    sgrt_node h[4096];
    uint32_t n;
} program;

static uint32_t live_pick(program *p)
{
    for (int t = 0; t < 64; t++) {
        const uint32_t i = rng_below(&R, p->n);
        if (sgrt_node_alive(p->s, p->h[i]))
            return i;
    }
    return UINT32_MAX;
}

/* The exact join of the world boxes of n's subtree, walked through links. */
static void join_subtree(const sgrt_scene *s, sgrt_node n, float lo[3], float hi[3])
{
    float l[3], h[3];
    OK(sgrt_node_world_bounds(s, n, l, h));
    for (int a = 0; a < 3; a++) {
        lo[a] = l[a] < lo[a] ? l[a] : lo[a];
        hi[a] = h[a] > hi[a] ? h[a] : hi[a];
    }
    sgrt_node c;
    OK(sgrt_node_first_child(s, n, &c));
    while (c.id) {
        join_subtree(s, c, lo, hi);
        OK(sgrt_node_next_sibling(s, c, &c));
    }
}

static long subtree_checked;

static void verify_subtrees(program *p, const char *what)
{
    for (uint32_t i = 0; i < p->n; i++) {
        if (!sgrt_node_alive(p->s, p->h[i]))
            continue;
        float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
        join_subtree(p->s, p->h[i], lo, hi);
        float sl[3], sh[3];
        OK(sgrt_node_subtree_bounds(p->s, p->h[i], sl, sh));
        subtree_checked++;
        bool ok = true;
        for (int a = 0; a < 3; a++)
            ok = ok && sl[a] == lo[a] && sh[a] == hi[a];
        if (!ok) {
            FAIL("%s: subtree box of node %u is not the join of its members' boxes", what, i);
            return;
        }
    }
}

static void subtree_program(uint32_t flags_extra, bool eager_reclaim, int steps)
{
    program *p = calloc(1, sizeof *p);
    REQUIRE(p);
    p->s = bounds_scene(SGRT_SCENE_SUBTREE_BOUNDS | flags_extra, NULL, NULL);
    if (eager_reclaim)
        sgrt__scene_set_hole_slack(p->s, 0);
    for (int step = 0; step < steps; step++) {
        const uint32_t r = rng_below(&R, 100);
        const uint32_t live = sgrt_scene_node_count(p->s);
        if ((r < 25 || live < 10) && p->n < 4096 && live < SUB_MAX) {
            const uint32_t par = live ? live_pick(p) : UINT32_MAX;
            p->h[p->n] = add(p->s, par == UINT32_MAX || rng_below(&R, 8) == 0 ? SGRT_NULL_NODE
                                                                               : p->h[par]);
            if (rng_below(&R, 4)) {
                float c[3], e[3];
                awkward_box(&R, c, e, (int)rng_below(&R, 3));
                OK(sgrt_node_set_bounds(p->s, p->h[p->n], c, e));
            }
            p->n++;
            continue;
        }
        const uint32_t i = live_pick(p);
        if (i == UINT32_MAX)
            continue;
        const sgrt_node n = p->h[i];
        if (r < 35) {
            OK(sgrt_node_destroy(p->s, n));
        } else if (r < 50) {
            const uint32_t j = live_pick(p);
            const sgrt_node to = j == UINT32_MAX || rng_below(&R, 6) == 0 ? SGRT_NULL_NODE : p->h[j];
            const sgrt_result rc = sgrt_node_set_parent(p->s, n, to, (sgrt_keep)rng_below(&R, 2));
            CHECK(rc == SGRT_OK || rc == SGRT_ERR_CYCLE || rc == SGRT_ERR_SINGULAR);
        } else if (r < 75) {
            float m[16];
            awkward_matrix(&R, m, (int)rng_below(&R, 3));
            OK(sgrt_node_set_local(p->s, n, m));
        } else if (r < 88) {
            float c[3], e[3];
            awkward_box(&R, c, e, (int)rng_below(&R, 4));
            OK(sgrt_node_set_bounds(p->s, n, c, e));
        } else if (r < 92) {
            OK(sgrt_node_clear_bounds(p->s, n));
        } else if (r < 94) {
            OK(sgrt_scene_compact(p->s));
        } else {
            (void)sgrt_scene_update(p->s);
            check_scene_where(p->s, "subtree program");
            verify_subtrees(p, "subtree program");
        }
    }
    (void)sgrt_scene_update(p->s);
    check_scene(p->s);
    verify_subtrees(p, "subtree program, end");
    sgrt_scene_destroy(p->s);
    free(p);
}

static void test_subtree_programs(void)
{
    for (int k = 0; k < 6; k++)
        subtree_program(k % 2 ? SGRT_SCENE_PREV_WORLD : 0u, k >= 3, 3000);
    printf("subtree boxes: %ld checked against the join of their members\n", subtree_checked);
    CHECK(subtree_checked > 10000);
}

/* ---- boxes travel with their nodes ------------------------------------------------------ */

typedef struct snap_box {
    float c[3], h[3], lo[3], hi[3], slo[3], shi[3];
} snap_box;

static void take_boxes(const sgrt_scene *s, const sgrt_node *h, uint32_t n, snap_box *out)
{
    for (uint32_t i = 0; i < n; i++) {
        if (!sgrt_node_alive(s, h[i]))
            continue;
        OK(sgrt_node_bounds(s, h[i], out[i].c, out[i].h));
        OK(sgrt_node_world_bounds(s, h[i], out[i].lo, out[i].hi));
        OK(sgrt_node_subtree_bounds(s, h[i], out[i].slo, out[i].shi));
    }
}

static void test_carried(void)
{
    enum { N = 3000 };
    sgrt_scene *s = bounds_scene(SGRT_SCENE_SUBTREE_BOUNDS, NULL, NULL);
    static sgrt_node h[N];
    static snap_box before[N], after[N];
    for (uint32_t i = 0; i < N; i++) {
        h[i] = add(s, i % 10 ? h[i - 1 - rng_below(&R, i % 10)] : SGRT_NULL_NODE);
        float c[3], e[3], m[16];
        awkward_box(&R, c, e, 0);
        random_affine(&R, m);
        OK(sgrt_node_set_local(s, h[i], m));
        if (i % 7)
            OK(sgrt_node_set_bounds(s, h[i], c, e));
    }
    (void)sgrt_scene_update(s);
    const char *what[3] = {"relocation", "hole reclamation", "compaction"};
    for (int k = 0; k < 3; k++) {
        take_boxes(s, h, N, before);
        const uint32_t reclaims = s->reclaims;
        if (k == 0) {
            /* Re-parent early nodes (with their subtrees) under late ones:
             * their storage moves, boxes as of the last update with it. */
            for (uint32_t i = 0; i < 40; i += 10)
                OK(sgrt_node_set_parent(s, h[i], h[N - 1 - i], SGRT_KEEP_LOCAL));
            /* Moved nodes are recomputed by the next update: compare before. */
            for (uint32_t i = 0; i < N; i++) {
                if (!sgrt_node_alive(s, h[i]))
                    continue;
                OK(sgrt_node_world_bounds(s, h[i], after[i].lo, after[i].hi));
                OK(sgrt_node_bounds(s, h[i], after[i].c, after[i].h));
                CHECK_MSG(same_bits3(after[i].lo, before[i].lo) && same_bits3(after[i].hi, before[i].hi) &&
                              same_bits3(after[i].c, before[i].c) && same_bits3(after[i].h, before[i].h),
                          "%s: node %u lost its boxes", what[k], i);
            }
        } else if (k == 1) {
            sgrt__scene_set_hole_slack(s, 0);
            /* Whole early trees: the holes come to outnumber live nodes. */
            for (uint32_t i = 0; i < N * 6 / 10; i += 10)
                if (sgrt_node_alive(s, h[i]))
                    OK(sgrt_node_destroy(s, h[i]));
            CHECK(s->reclaims > reclaims);
        } else {
            OK(sgrt_scene_compact(s));
        }
        if (k) {
            /* Nothing moved: every box, subtree boxes too (as of the last
             * update), follows its node bit for bit. Destroyed nodes' parents
             * get new subtree boxes at the next update only. */
            take_boxes(s, h, N, after);
            for (uint32_t i = 0; i < N; i++)
                if (sgrt_node_alive(s, h[i]))
                    CHECK_MSG(memcmp(&before[i], &after[i], sizeof before[i]) == 0,
                              "%s: node %u's boxes did not follow it", what[k], i);
        }
        check_scene(s);
        (void)sgrt_scene_update(s);
        check_scene(s);
        for (uint32_t i = 0; i < N; i++)
            if (sgrt_node_alive(s, h[i]))
                check_world_box(s, h[i], what[k]);
    }
    sgrt_scene_destroy(s);
}

/* ---- no allocation per frame ---------------------------------------------------------- */

static void test_no_alloc(void)
{
    test_alloc ta;
    sgrt_scene *s = bounds_scene(SGRT_SCENE_SUBTREE_BOUNDS | SGRT_SCENE_PREV_WORLD, NULL, &ta);
    enum { N = 3000 };
    static sgrt_node h[N];
    for (uint32_t i = 0; i < N; i++)
        h[i] = add(s, i % 5 ? h[i - 1] : SGRT_NULL_NODE);
    sgrt_nodeset vis;
    OK(sgrt_nodeset_create(s, &vis));
    const float planes[6][4] = {{1, 0, 0, 10}, {-1, 0, 0, 10}, {0, 1, 0, 10},
                                {0, -1, 0, 10}, {0, 0, 1, 10}, {0, 0, -1, 10}};
    const sgrt_executor ex = {run_inline, NULL, 3};
    const uint64_t calls = ta.calls;
    for (int frame = 0; frame < 8; frame++) {
        for (uint32_t i = 0; i < N; i += 1u + (uint32_t)frame) {
            float m[16], c[3], e[3];
            random_affine(&R, m);
            awkward_box(&R, c, e, 0);
            OK(sgrt_node_set_local(s, h[i], m));
            OK(sgrt_node_set_bounds(s, h[i], c, e));
        }
        OK(sgrt_nodes_set_bounds(s, 1, &h[frame], ZERO3, ONE3, NULL));
        OK(sgrt_node_clear_bounds(s, h[N - 1 - (uint32_t)frame]));
        if (frame % 2)
            (void)sgrt_scene_update(s);
        else
            (void)sgrt_scene_update_parallel(s, &ex);
        sgrt_cull_stats st;
        OK(sgrt_scene_cull(s, planes[0], 6, SGRT_NULL_NODESET, vis, &st));
        float lo[3], hi[3];
        OK(sgrt_node_world_bounds(s, h[frame], lo, hi));
        OK(sgrt_node_subtree_bounds(s, h[0], lo, hi));
        sgrt_bounds_arrays arr;
        OK(sgrt_scene_bounds_arrays(s, &arr));
    }
    CHECK_MSG(ta.calls == calls, "a frame with boxes allocated (%llu calls)",
              (unsigned long long)(ta.calls - calls));
    OK(sgrt_nodeset_destroy(s, vis));
    end_scene_alloc(s, &ta);
}

/* ---- the checker notices broken box state ----------------------------------------------- */

static void test_check_catches(void)
{
    sgrt_scene *s = bounds_scene(SGRT_SCENE_SUBTREE_BOUNDS, NULL, NULL);
    const sgrt_node a = add(s, SGRT_NULL_NODE), b = add(s, a);
    OK(sgrt_node_set_bounds(s, a, ZERO3, ONE3));
    OK(sgrt_node_set_bounds(s, b, ONE3, ONE3));
    (void)sgrt_scene_update(s);
    check_scene(s);
    uint32_t sa, sb;
    OK(sgrt_node_slot(s, a, &sa));
    OK(sgrt_node_slot(s, b, &sb));
    const char *what = NULL;
    sgrt__bounds *bs = sgrt__bounds_of(s);
    const float keep = bs->wb_hx[sb];
    bs->wb_hx[sb] = keep * 2.0f; /* a world box that is not the reference's */
    CHECK_RES(sgrt_scene_check(s, &what), SGRT_ERR_CORRUPT);
    CHECK(what && strstr(what, "bounds"));
    bs->wb_hx[sb] = keep;
    const float skeep = bs->sub[sa].hi[0];
    bs->sub[sa].hi[0] = skeep + 1.0f; /* a subtree box that is not the join */
    CHECK_RES(sgrt_scene_check(s, &what), SGRT_ERR_CORRUPT);
    CHECK(what && strstr(what, "subtree"));
    bs->sub[sa].hi[0] = skeep;
    sgrt__bit_clear(bs->b_valid, sb); /* validity out of step with the box */
    CHECK_RES(sgrt_scene_check(s, &what), SGRT_ERR_CORRUPT);
    sgrt__bit_set(bs->b_valid, sb);
    bs->lb_ex[sa] = -1.0f; /* a local box the library would refuse */
    CHECK_RES(sgrt_scene_check(s, &what), SGRT_ERR_CORRUPT);
    bs->lb_ex[sa] = 1.0f;
    check_scene(s);
    sgrt_scene_destroy(s);
}

int main(int argc, char **argv)
{
    rng_seed_from_args(&R, argc, argv, "test_bounds");
    test_refusals();
    test_world_exact();
    test_update_and_trackers();
    test_parallel();
    test_subtree_programs();
    test_carried();
    test_no_alloc();
    test_check_catches();
    return test_report("bounds");
}
