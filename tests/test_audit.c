/* SPDX-License-Identifier: MIT */
/* Findings of adversarial audits, one test each, written to fail on the code
 * the audits read:
 *
 *  - kinds: a tracker passed where a node set is expected, and a node set
 *    where a tracker is, to every call taking either, is refused and nothing
 *    is freed (a node set destroy used to free a tracker the registry still
 *    listed: a heap use-after-free at the next create, under ASan);
 *  - plan key: the parallel update's plan, built for one hierarchy, is not
 *    reused after 2^32 structural changes (white-box: the counter is set to
 *    where a 32-bit key would have read the plan's version again);
 *  - idle wake: a parallel update with nothing left to recompute calls no
 *    executor, also when the nodes written since the last update (with
 *    children, many of them) were all destroyed.
 */
#include "internal.h" /* the plan's key */
#include "testutil.h"

/* Tasks in reverse order: allowed, and the order in which a range that
 * reads a parent of an earlier range (not in a stale plan's cross set) runs
 * before that range. */
static void run_reversed(void *user, uint32_t count, void (*fn)(void *ctx, uint32_t i), void *ctx)
{
    (*(uint32_t *)user)++;
    for (uint32_t i = count; i-- > 0;)
        fn(ctx, i);
}

/* ---- kinds ------------------------------------------------------------------- */

/* Every call that takes a node set is given a tracker, and every call that
 * takes a tracker a node set: each must refuse, free nothing and leave both
 * objects working. */
static void test_kinds(void)
{
    test_alloc ta;
    sgrt_scene *s = new_scene_alloc(&ta);
    sgrt_node n[8];
    for (int i = 0; i < 8; i++)
        OK(sgrt_node_create(s, i ? n[(i - 1) / 2] : SGRT_NULL_NODE, &n[i]));
    sgrt_tracker t = SGRT_NULL_TRACKER;
    sgrt_nodeset set = SGRT_NULL_NODESET;
    OK(sgrt_tracker_create(s, &t));
    OK(sgrt_nodeset_create(s, &set));
    REQUIRE(t.id && set.id);
    OK(sgrt_nodeset_add(s, set, n[3]));
    sgrt_scene_update(s);
    sgrt_range r[8];
    bool more;
    do
        test_collect(s, t, r, 8, 0, &more);
    while (more);
    OK(sgrt_node_set_local(s, n[5], (const float[16]){1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0,
                                                          2, 0, 0, 1}));
    sgrt_scene_update(s); /* t: n[5]'s slot pending */

    /* The wrong kind, in both directions, through every call. */
    const sgrt_nodeset t_as_set = {t.id};
    const sgrt_tracker set_as_t = {set.id};
    const uint64_t frees = ta.frees, calls = ta.calls;
    uint32_t cursor = 0, words = 7;
    CHECK_RES(sgrt_nodeset_add(s, t_as_set, n[1]), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_nodeset_remove(s, t_as_set, n[1]), SGRT_ERR_INVALID_ARG);
    CHECK(!sgrt_nodeset_has(s, t_as_set, n[1]));
    CHECK_RES(sgrt_nodeset_clear(s, t_as_set), SGRT_ERR_INVALID_ARG);
    CHECK_EQ_U(sgrt_nodeset_count(s, t_as_set), 0);
    CHECK_RES(sgrt_nodeset_combine(s, t_as_set, set, SGRT_SET_OR, set), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_nodeset_combine(s, set, t_as_set, SGRT_SET_OR, set), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_nodeset_combine(s, set, set, SGRT_SET_OR, t_as_set), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_nodeset_from_changes(s, t_as_set, t, SGRT_SET_AND, SGRT_NULL_NODESET, false),
              SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_nodeset_from_changes(s, set, t, SGRT_SET_AND, t_as_set, false),
              SGRT_ERR_INVALID_ARG);
    CHECK(sgrt_nodeset_next(s, t_as_set, &cursor).id == 0u);
    CHECK(sgrt_nodeset_words(s, t_as_set, &words) == NULL);
    CHECK_RES(sgrt_nodeset_destroy(s, t_as_set), SGRT_ERR_INVALID_ARG);
    uint32_t got = 9;
    CHECK_RES(sgrt_tracker_collect(s, set_as_t, r, 8, 0, &got, &more), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_tracker_check(s, set_as_t, NULL), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_nodeset_from_changes(s, set, set_as_t, SGRT_SET_AND, SGRT_NULL_NODESET, false),
              SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_tracker_destroy(s, set_as_t), SGRT_ERR_INVALID_ARG);
    CHECK_EQ_U(ta.frees, frees);
    CHECK_EQ_U(ta.calls, calls);

    /* Both still registered and intact: creates feed the tracker and keep
     * the set in step (this is where a freed tracker was written). */
    sgrt_node extra[64];
    for (int i = 0; i < 64; i++) /* grows storage: the registry widens both */
        OK(sgrt_node_create(s, n[i % 8], &extra[i]));
    check_scene(s);
    OK(sgrt_tracker_check(s, t, NULL));
    CHECK(sgrt_nodeset_has(s, set, n[3]));
    CHECK_EQ_U(sgrt_nodeset_count(s, set), 1);
    uint32_t slot5;
    OK(sgrt_node_slot(s, n[5], &slot5));
    CHECK(test_collect(s, t, r, 8, 0, &more) >= 1u);
    CHECK(r[0].first <= slot5);
    const uint64_t frees_before = ta.frees;
    OK(sgrt_tracker_destroy(s, t));
    OK(sgrt_nodeset_destroy(s, set));
    CHECK_EQ_U(ta.frees, frees_before + 4); /* each object and its bits */
    end_scene_alloc(s, &ta);
}

/* ---- plan key ----------------------------------------------------------------- */

/* A root with 2,100 leaves (three 1,024-slot ranges). A parallel update
 * builds the plan; then a leaf L of range 1 moves under a leaf P of range 0
 * (P, stored before L, takes it without relocation), so P must join the
 * cross set. The counter is then set to what it would read after 2^32
 * changes since the plan was built. P moves; with the tasks in reverse
 * order, range 1 runs before range 0 updates P: a reused plan gives L its
 * world from P's old world. */
static void test_plan_key(void)
{
    sgrt_scene *s = new_scene();
    enum { LEAVES = 2100 };
    sgrt_node root, leaf[LEAVES];
    OK(sgrt_node_create(s, SGRT_NULL_NODE, &root));
    for (int i = 0; i < LEAVES; i++)
        OK(sgrt_node_create(s, root, &leaf[i]));
    uint32_t runs = 0;
    const sgrt_executor ex = {run_reversed, &runs, 2};
    CHECK_EQ_U(sgrt_scene_update_parallel(s, &ex), LEAVES + 1);
    CHECK_EQ_U(runs, 1); /* a plan of several ranges was built and used */
    const uint64_t built = s->structure_version, planned = s->plan_version;

    const sgrt_node p = leaf[4], l = leaf[1500];
    uint32_t ps, ls;
    OK(sgrt_node_slot(s, p, &ps));
    OK(sgrt_node_slot(s, l, &ls));
    REQUIRE(ps < 1024u && ls >= 1024u && ls < 2048u);
    OK(sgrt_node_set_parent(s, l, p, SGRT_KEEP_LOCAL));
    s->structure_version = built + ((uint64_t)1 << 32);

    const float moved[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 5, 6, 7, 1};
    OK(sgrt_node_set_local(s, p, moved));
    float want[16], got[16];
    OK(sgrt_node_world_now(s, l, want));
    CHECK_EQ_U(sgrt_scene_update_parallel(s, &ex), 2);
    CHECK(s->plan_version != planned); /* rebuilt */
    OK(sgrt_node_world(s, l, got));
    CHECK_MSG(memcmp(got, want, sizeof got) == 0,
              "L's world after the parallel update: translation (%g, %g, %g), expected (%g, %g, %g)",
              (double)got[12], (double)got[13], (double)got[14], (double)want[12],
              (double)want[13], (double)want[14]);
    check_scene(s);
    sgrt_scene_destroy(s);
}

/* ---- idle wake ---------------------------------------------------------------- */

static void run_counted(void *user, uint32_t count, void (*fn)(void *ctx, uint32_t i), void *ctx)
{
    (*(uint32_t *)user)++;
    for (uint32_t i = 0; i < count; i++)
        fn(ctx, i);
}

/* 1,024 trees of a root and three leaves; every other root is written (one
 * node with children per 8 slots: the closure is not sparse) and then
 * destroyed with its leaves. Nothing is left to recompute. */
static void test_idle_wake(void)
{
    sgrt_scene *s = new_scene();
    enum { TREES = 1024 };
    sgrt_node root[TREES], leaf;
    for (int i = 0; i < TREES; i++) {
        OK(sgrt_node_create(s, SGRT_NULL_NODE, &root[i]));
        for (int k = 0; k < 3; k++)
            OK(sgrt_node_create(s, root[i], &leaf));
    }
    uint32_t runs = 0;
    const sgrt_executor ex = {run_counted, &runs, 4};
    CHECK_EQ_U(sgrt_scene_update_parallel(s, &ex), 4 * TREES);
    CHECK_EQ_U(runs, 1);
    const float moved[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 1, 2, 3, 1};
    for (int i = 0; i < TREES; i += 2)
        OK(sgrt_node_set_local(s, root[i], moved));
    for (int i = 0; i < TREES; i += 2)
        OK(sgrt_node_destroy(s, root[i]));
    CHECK_EQ_U(sgrt_scene_update_parallel(s, &ex), 0);
    CHECK_EQ_U(runs, 1); /* an idle frame wakes no thread */
    CHECK_EQ_U(sgrt_scene_update(s), 0);
    check_scene(s);
    sgrt_scene_destroy(s);
}

/* `test_audit [name...]` runs the named tests only (kinds, plan_key, ...). */
static bool wanted(int argc, char **argv, const char *name)
{
    if (argc < 2)
        return true;
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], name) == 0)
            return true;
    return false;
}

int main(int argc, char **argv)
{
    if (wanted(argc, argv, "kinds"))
        test_kinds();
    if (wanted(argc, argv, "plan_key"))
        test_plan_key();
    if (wanted(argc, argv, "idle_wake"))
        test_idle_wake();
    return test_report("test_audit");
}
