/* SPDX-License-Identifier: MIT */
/* Misuse is loud: what a hurried user gets wrong, and what the
 * library says about it.
 *
 *  - every refusal path of every public call, on a scene with a log: the
 *    call reports once, before it returns, with its own name, the code it
 *    returns, a message naming the argument, and the node concerned; calls
 *    that succeed report nothing;
 *  - the common mistakes, one test each (table_*): worlds read stale, an
 *    unusable executor, collect and destroy with the wrong scene, collect's
 *    count, quaternion order and length, a kept world-array pointer, a
 *    row-major local.
 */
#include "internal.h" /* white-box: breaking invariants for the checkers */
#include "objects.h"
#include "followers/tracker.h"
#include "scene.h"
#include "testutil.h"

/* ---- the log ---------------------------------------------------------------- */

static test_log L;

static void log_reset(void) { memset(&L, 0, sizeof L); }

/* Exactly one entry since log_reset: from `function`, with `code`, a
 * message naming `arg`, about `node`. */
static void expect_entry(int line, const char *function, sgrt_result code, const char *arg,
                         sgrt_node node)
{
    test_checks++;
    const char *fn = L.count ? L.last.function : NULL;
    if (L.count != 1 || !fn || strcmp(fn, function) != 0 || L.last.code != code ||
        !L.message[0] || !strstr(L.message, arg) || L.last.node.id != node.id) {
        test_failures++;
        fprintf(stderr,
                "%s:%d: %u entries; last: %s, %s, \"%s\", node 0x%08x; expected one: %s, %s, "
                "naming \"%s\", node 0x%08x\n",
                __FILE__, line, L.count, fn ? fn : "(none)",
                L.count ? sgrt_result_str(L.last.code) : "-", L.message,
                (unsigned)L.last.node.id, function, sgrt_result_str(code), arg,
                (unsigned)node.id);
        test_failed();
    }
}

/* A call that must be refused with `code` and report it. */
#define REFUSED(call, code, function, arg, node)                                       \
    do {                                                                               \
        log_reset();                                                                   \
        CHECK_RES((call), (code));                                                     \
        expect_entry(__LINE__, (function), (code), (arg), (node));                     \
    } while (0)

/* The same for a call that answers with a value: `cond` is its refused
 * answer (0, false, NULL, SGRT_NULL_NODE). */
#define REFUSED_ANSWER(cond, code, function, arg, node)                                \
    do {                                                                               \
        log_reset();                                                                   \
        CHECK(cond);                                                                   \
        expect_entry(__LINE__, (function), (code), (arg), (node));                     \
    } while (0)

/* A call that succeeds reports nothing. */
#define QUIET(call)                                                                    \
    do {                                                                               \
        log_reset();                                                                   \
        OK(call);                                                                      \
        CHECK_EQ_U(L.count, 0);                                                        \
    } while (0)

static const sgrt_node NONE = {0};

static sgrt_scene *logged_scene(test_alloc *ta, uint32_t flags, uint32_t max_nodes)
{
    memset(ta, 0, sizeof *ta);
    const sgrt_allocator al = test_alloc_hooks(ta);
    const sgrt_scene_desc d = {.allocator = &al, .flags = flags, .max_nodes = max_nodes,
                               .log = test_log_record, .log_user = &L};
    return new_scene_desc(&d);
}

/* A logged scene holding a chain of k nodes, n[0] the root. */
static sgrt_scene *logged_chain(test_alloc *ta, uint32_t flags, sgrt_node *n, int k)
{
    sgrt_scene *s = logged_scene(ta, flags, 0);
    for (int i = 0; i < k; i++)
        QUIET(sgrt_node_create(s, i ? n[i - 1] : NONE, &n[i]));
    return s;
}

/* ---- every refusal ------------------------------------------------------------ */

static void refusals_scene(void)
{
    test_alloc ta;
    memset(&ta, 0, sizeof ta);
    sgrt_allocator al = test_alloc_hooks(&ta);
    sgrt_scene *s = NULL;
    const char *fn = "sgrt_scene_create";
    sgrt_scene_desc d = {.log = test_log_record, .log_user = &L};
    REFUSED(sgrt_scene_create(&d, NULL), SGRT_ERR_INVALID_ARG, fn, "out", NONE);
    const sgrt_allocator half = {test_alloc_alloc, NULL, &ta};
    d.allocator = &half;
    REFUSED(sgrt_scene_create(&d, &s), SGRT_ERR_INVALID_ARG, fn, "desc->allocator", NONE);
    d.allocator = &al;
    d.max_nodes = SGRT_MAX_NODES + 1u;
    REFUSED(sgrt_scene_create(&d, &s), SGRT_ERR_INVALID_ARG, fn, "desc->max_nodes", NONE);
    d.max_nodes = 10;
    d.initial_capacity = 11;
    REFUSED(sgrt_scene_create(&d, &s), SGRT_ERR_INVALID_ARG, fn, "desc->initial_capacity", NONE);
    d.max_nodes = d.initial_capacity = 0;
    d.max_simd = (sgrt_simd)5;
    REFUSED(sgrt_scene_create(&d, &s), SGRT_ERR_INVALID_ARG, fn, "desc->max_simd", NONE);
    d.max_simd = SGRT_SIMD_AUTO;
    d.flags = 1u << 31;
    REFUSED(sgrt_scene_create(&d, &s), SGRT_ERR_INVALID_ARG, fn, "desc->flags", NONE);
    d.flags = 0;
    for (uint64_t k = 1; k <= 3; k++) { /* the scene, its storage, its handle table */
        ta.fail_at = ta.calls + k;
        REFUSED(sgrt_scene_create(&d, &s), SGRT_ERR_NOMEM, fn, "allocator", NONE);
        ta.fail_at = 0;
    }
    ta.misalign_at = ta.calls + 1;
    REFUSED(sgrt_scene_create(&d, &s), SGRT_ERR_ALIGNMENT, fn, "allocator", NONE);
    CHECK(s == NULL);
    check_alloc_empty(&ta);
    test_alloc_release(&ta);

    s = logged_scene(&ta, 0, 100);
    REFUSED(sgrt_scene_reserve(s, 101), SGRT_ERR_CAPACITY, "sgrt_scene_reserve", "node_count",
            NONE);
    ta.fail_from = ta.calls + 1;
    REFUSED(sgrt_scene_reserve(s, 100), SGRT_ERR_NOMEM, "sgrt_scene_reserve", "allocator", NONE);
    REFUSED(sgrt_scene_compact(s), SGRT_ERR_NOMEM, "sgrt_scene_compact", "allocator", NONE);
    ta.fail_from = 0;
    QUIET(sgrt_scene_compact(s));
    QUIET(sgrt_scene_reserve(s, 100));
    end_scene_alloc(s, &ta);
}

static void refusals_nodes(void)
{
    test_alloc ta;
    sgrt_scene *s = logged_scene(&ta, 0, 40);
    sgrt_node n[40], dead, out;
    for (int i = 0; i < 39; i++)
        QUIET(sgrt_node_create(s, i ? n[(i - 1) / 2] : NONE, &n[i]));
    QUIET(sgrt_node_create(s, n[3], &dead));
    QUIET(sgrt_node_destroy(s, dead));
    const char *fn = "sgrt_node_create";
    REFUSED(sgrt_node_create(s, n[1], NULL), SGRT_ERR_INVALID_ARG, fn, "out", n[1]);
    REFUSED(sgrt_node_create(s, dead, &out), SGRT_ERR_STALE_HANDLE, fn, "parent", dead);
    QUIET(sgrt_node_create(s, NONE, &n[39]));
    REFUSED(sgrt_node_create(s, n[2], &out), SGRT_ERR_CAPACITY, fn, "max_nodes", n[2]);
    QUIET(sgrt_node_destroy(s, n[39]));
    end_scene_alloc(s, &ta);
    s = logged_scene(&ta, 0, 40);
    for (int i = 0; i < 39; i++)
        QUIET(sgrt_node_create(s, i ? n[(i - 1) / 2] : NONE, &n[i]));
    QUIET(sgrt_node_create(s, n[3], &dead));
    QUIET(sgrt_node_destroy(s, dead));
    /* Growth: 64 slots at first; slot 64 needs more storage. */
    test_alloc tg;
    sgrt_node big[80];
    sgrt_scene *g = logged_scene(&tg, 0, 0);
    for (int i = 0; i < 64; i++)
        OK(sgrt_node_create(g, NONE, &big[i]));
    tg.fail_from = tg.calls + 1;
    REFUSED(sgrt_node_create(g, big[3], &out), SGRT_ERR_NOMEM, fn, "allocator", big[3]);
    tg.fail_from = 0;
    end_scene_alloc(g, &tg);
    (void)big;

    REFUSED(sgrt_node_destroy(s, dead), SGRT_ERR_STALE_HANDLE, "sgrt_node_destroy", "node", dead);
    sgrt_node p;
    REFUSED(sgrt_node_parent(s, n[4], NULL), SGRT_ERR_INVALID_ARG, "sgrt_node_parent",
            "out_parent", n[4]);
    REFUSED(sgrt_node_parent(s, dead, &p), SGRT_ERR_STALE_HANDLE, "sgrt_node_parent", "node", dead);
    REFUSED(sgrt_node_first_child(s, n[4], NULL), SGRT_ERR_INVALID_ARG, "sgrt_node_first_child",
            "out", n[4]);
    REFUSED(sgrt_node_first_child(s, dead, &p), SGRT_ERR_STALE_HANDLE, "sgrt_node_first_child",
            "node", dead);
    REFUSED(sgrt_node_next_sibling(s, n[4], NULL), SGRT_ERR_INVALID_ARG,
            "sgrt_node_next_sibling", "out", n[4]);
    REFUSED(sgrt_node_next_sibling(s, dead, &p), SGRT_ERR_STALE_HANDLE, "sgrt_node_next_sibling",
            "node", dead);
    QUIET(sgrt_node_parent(s, n[4], &p));

    fn = "sgrt_node_set_parent";
    REFUSED(sgrt_node_set_parent(s, n[5], n[1], (sgrt_keep)2), SGRT_ERR_INVALID_ARG, fn, "keep",
            n[5]);
    REFUSED(sgrt_node_set_parent(s, dead, n[1], SGRT_KEEP_LOCAL), SGRT_ERR_STALE_HANDLE, fn,
            "node", dead);
    REFUSED(sgrt_node_set_parent(s, n[5], dead, SGRT_KEEP_LOCAL), SGRT_ERR_STALE_HANDLE, fn,
            "parent", dead);
    REFUSED(sgrt_node_set_parent(s, n[1], n[3], SGRT_KEEP_LOCAL), SGRT_ERR_CYCLE, fn, "parent",
            n[1]);
    const float flat[16] = {1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}; /* no inverse */
    QUIET(sgrt_node_set_local(s, n[6], flat));
    REFUSED(sgrt_node_set_parent(s, n[5], n[6], SGRT_KEEP_WORLD), SGRT_ERR_SINGULAR, fn,
            "parent", n[5]);
    const float huge[16] = {3e38f, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    QUIET(sgrt_node_set_local(s, n[0], huge));
    QUIET(sgrt_node_set_local(s, n[1], huge)); /* n[3]'s world overflows */
    REFUSED(sgrt_node_set_parent(s, n[3], NONE, SGRT_KEEP_WORLD), SGRT_ERR_SINGULAR, fn, "node",
            n[3]);
    sgrt_scene_update(s);
    end_scene_alloc(s, &ta);

    /* A relocation that must grow storage (the new parent is stored after
     * the node, and every slot is taken). */
    s = logged_scene(&ta, 0, 0);
    for (int i = 0; i < 32; i++)
        OK(sgrt_node_create(s, NONE, &n[i]));
    for (int i = 32; i < 40; i++)
        OK(sgrt_node_create(s, n[i - 32], &n[i]));
    sgrt_node filler;
    for (uint32_t i = sgrt_scene_node_count(s); i < 64; i++)
        OK(sgrt_node_create(s, NONE, &filler));
    ta.fail_from = ta.calls + 1;
    REFUSED(sgrt_node_set_parent(s, n[0], n[39], SGRT_KEEP_LOCAL), SGRT_ERR_NOMEM, fn,
            "allocator", n[0]);
    ta.fail_from = 0;
    end_scene_alloc(s, &ta);
}

static void refusals_transforms(void)
{
    test_alloc ta;
    sgrt_scene *s = logged_scene(&ta, 0, 0);
    sgrt_node a, b, dead;
    QUIET(sgrt_node_create(s, NONE, &a));
    QUIET(sgrt_node_create(s, a, &b));
    QUIET(sgrt_node_create(s, a, &dead));
    QUIET(sgrt_node_destroy(s, dead));
    float m[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}, nan_m[16];
    memcpy(nan_m, m, sizeof m);
    nan_m[13] = NAN;
    const float t[3] = {1, 2, 3}, q[4] = {0, 0, 0, 1}, sc[3] = {1, 1, 1};
    const float nan3[3] = {0, NAN, 0}, nan4[4] = {0, 0, NAN, 1}, inf3[3] = {1, INFINITY, 1};
    const float big4[4] = {3e18f, 0, 0, 1}, big3[3] = {3e18f, 3e18f, 3e18f};

    const char *fn = "sgrt_node_set_local";
    REFUSED(sgrt_node_set_local(s, b, NULL), SGRT_ERR_INVALID_ARG, fn, "m", b);
    REFUSED(sgrt_node_set_local(s, dead, m), SGRT_ERR_STALE_HANDLE, fn, "node", dead);
    REFUSED(sgrt_node_set_local(s, b, nan_m), SGRT_ERR_INVALID_ARG, fn, "m", b);
    QUIET(sgrt_node_set_local(s, b, m));

    fn = "sgrt_node_set_trs";
    REFUSED(sgrt_node_set_trs(s, b, NULL, q, sc), SGRT_ERR_INVALID_ARG, fn, "t", b);
    REFUSED(sgrt_node_set_trs(s, b, t, NULL, sc), SGRT_ERR_INVALID_ARG, fn, "q", b);
    REFUSED(sgrt_node_set_trs(s, b, t, q, NULL), SGRT_ERR_INVALID_ARG, fn, "scale", b);
    REFUSED(sgrt_node_set_trs(s, dead, t, q, sc), SGRT_ERR_STALE_HANDLE, fn, "node", dead);
    REFUSED(sgrt_node_set_trs(s, b, nan3, q, sc), SGRT_ERR_INVALID_ARG, fn, "t", b);
    REFUSED(sgrt_node_set_trs(s, b, t, nan4, sc), SGRT_ERR_INVALID_ARG, fn, "q", b);
    REFUSED(sgrt_node_set_trs(s, b, t, q, inf3), SGRT_ERR_INVALID_ARG, fn, "scale", b);
    REFUSED(sgrt_node_set_trs(s, b, t, big4, big3), SGRT_ERR_INVALID_ARG, fn, "overflows", b);
    QUIET(sgrt_node_set_trs(s, b, t, q, sc));

    fn = "sgrt_node_set_world";
    REFUSED(sgrt_node_set_world(s, b, NULL), SGRT_ERR_INVALID_ARG, fn, "m", b);
    REFUSED(sgrt_node_set_world(s, dead, m), SGRT_ERR_STALE_HANDLE, fn, "node", dead);
    REFUSED(sgrt_node_set_world(s, b, nan_m), SGRT_ERR_INVALID_ARG, fn, "m", b);
    const float flat[16] = {1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    QUIET(sgrt_node_set_local(s, a, flat));
    REFUSED(sgrt_node_set_world(s, b, m), SGRT_ERR_SINGULAR, fn, "parent", b);
    QUIET(sgrt_node_set_local(s, a, m));
    QUIET(sgrt_node_set_world(s, b, m));

    const sgrt_node two[2] = {a, b}, stale2[2] = {a, dead};
    float ms[2][16], bad_ms[2][16];
    memcpy(ms[0], m, sizeof m);
    memcpy(ms[1], m, sizeof m);
    memcpy(bad_ms[0], m, sizeof m);
    memcpy(bad_ms[1], nan_m, sizeof m);
    uint32_t at = 99;
    fn = "sgrt_nodes_set_local";
    REFUSED(sgrt_nodes_set_local(s, 2, NULL, ms[0], &at), SGRT_ERR_INVALID_ARG, fn, "nodes", NONE);
    REFUSED(sgrt_nodes_set_local(s, 2, two, NULL, &at), SGRT_ERR_INVALID_ARG, fn, "local", NONE);
    REFUSED(sgrt_nodes_set_local(s, 2, stale2, ms[0], &at), SGRT_ERR_STALE_HANDLE, fn,
            "nodes[*out_bad]", dead);
    CHECK_EQ_U(at, 1);
    REFUSED(sgrt_nodes_set_local(s, 2, two, bad_ms[0], &at), SGRT_ERR_INVALID_ARG, fn,
            "local[*out_bad]", b);
    QUIET(sgrt_nodes_set_local(s, 2, two, ms[0], &at));

    const float ts[2][3] = {{0, 0, 0}, {1, 1, 1}}, qs[2][4] = {{0, 0, 0, 1}, {0, 0, 0, 1}};
    const float scs[2][3] = {{1, 1, 1}, {1, 1, 1}}, nan_ts[2][3] = {{0, 0, 0}, {NAN, 0, 0}};
    fn = "sgrt_nodes_set_trs";
    REFUSED(sgrt_nodes_set_trs(s, 2, NULL, ts[0], qs[0], scs[0], &at), SGRT_ERR_INVALID_ARG, fn, "nodes",
            NONE);
    REFUSED(sgrt_nodes_set_trs(s, 2, two, ts[0], NULL, scs[0], &at), SGRT_ERR_INVALID_ARG, fn, "q",
            NONE);
    REFUSED(sgrt_nodes_set_trs(s, 2, stale2, ts[0], qs[0], scs[0], &at), SGRT_ERR_STALE_HANDLE, fn,
            "nodes[*out_bad]", dead);
    REFUSED(sgrt_nodes_set_trs(s, 2, two, nan_ts[0], qs[0], scs[0], &at), SGRT_ERR_INVALID_ARG, fn,
            "[*out_bad]", b);
    CHECK_EQ_U(at, 1);
    QUIET(sgrt_nodes_set_trs(s, 2, two, ts[0], qs[0], scs[0], &at));

    float out[16];
    REFUSED(sgrt_node_local(s, b, NULL), SGRT_ERR_INVALID_ARG, "sgrt_node_local", "out", b);
    REFUSED(sgrt_node_local(s, dead, out), SGRT_ERR_STALE_HANDLE, "sgrt_node_local", "node", dead);
    REFUSED(sgrt_node_world(s, b, NULL), SGRT_ERR_INVALID_ARG, "sgrt_node_world", "out", b);
    REFUSED(sgrt_node_world(s, dead, out), SGRT_ERR_STALE_HANDLE, "sgrt_node_world", "node", dead);
    REFUSED(sgrt_node_world_now(s, b, NULL), SGRT_ERR_INVALID_ARG, "sgrt_node_world_now", "out",
            b);
    REFUSED(sgrt_node_world_now(s, dead, out), SGRT_ERR_STALE_HANDLE, "sgrt_node_world_now",
            "node", dead);
    QUIET(sgrt_node_world_now(s, b, out));

    uint32_t slot;
    uint64_t user;
    REFUSED_ANSWER(sgrt_scene_prev_world_array(s, &slot) == NULL, SGRT_ERR_INVALID_ARG,
                   "sgrt_scene_prev_world_array", "SGRT_SCENE_PREV_WORLD", NONE);
    REFUSED(sgrt_node_slot(s, b, NULL), SGRT_ERR_INVALID_ARG, "sgrt_node_slot", "out_slot", b);
    REFUSED(sgrt_node_slot(s, dead, &slot), SGRT_ERR_STALE_HANDLE, "sgrt_node_slot", "node", dead);
    REFUSED(sgrt_node_set_user(s, dead, 7), SGRT_ERR_STALE_HANDLE, "sgrt_node_set_user", "node",
            dead);
    REFUSED(sgrt_node_user(s, b, NULL), SGRT_ERR_INVALID_ARG, "sgrt_node_user", "out", b);
    REFUSED(sgrt_node_user(s, dead, &user), SGRT_ERR_STALE_HANDLE, "sgrt_node_user", "node", dead);
    QUIET(sgrt_node_user(s, b, &user));
    /* Answers, not refusals: nothing to report. */
    log_reset();
    CHECK(!sgrt_node_alive(s, dead));
    CHECK(sgrt_scene_slot_node(s, 1000).id == 0u);
    CHECK_EQ_U(L.count, 0);

    /* The checkers and the dump. */
    const char *what = NULL;
    s->st.dirty_sum[0] ^= 1u << 5; /* white-box: a summary bit with no dirty word */
    REFUSED(sgrt_scene_check(s, &what), SGRT_ERR_CORRUPT, "sgrt_scene_check", "summar", NONE);
    CHECK(what && strcmp(what, L.message) == 0);
    s->st.dirty_sum[0] ^= 1u << 5;
    QUIET(sgrt_scene_check(s, &what));
    end_scene_alloc(s, &ta);
}

static int refuse_write(void *user, const char *bytes, size_t len)
{
    (void)user;
    (void)bytes;
    (void)len;
    return 1;
}

static void refusals_handoff(void)
{
    test_alloc ta;
    sgrt_scene *s = logged_scene(&ta, 0, 0);
    sgrt_scene *other = new_scene();
    sgrt_node a, dead;
    QUIET(sgrt_node_create(s, NONE, &a));
    QUIET(sgrt_node_create(s, a, &dead));
    QUIET(sgrt_node_destroy(s, dead));
    sgrt_tracker t = SGRT_NULL_TRACKER, ot = SGRT_NULL_TRACKER;
    sgrt_nodeset set = SGRT_NULL_NODESET, os = SGRT_NULL_NODESET;
    QUIET(sgrt_tracker_create(s, &t));
    QUIET(sgrt_nodeset_create(s, &set));
    OK(sgrt_tracker_create(other, &ot));
    OK(sgrt_nodeset_create(other, &os));
    const sgrt_nodeset t_as_set = {t.id};
    const sgrt_tracker set_as_t = {set.id};

    REFUSED(sgrt_tracker_create(s, NULL), SGRT_ERR_INVALID_ARG, "sgrt_tracker_create", "out",
            NONE);
    sgrt_tracker t2 = SGRT_NULL_TRACKER;
    ta.fail_at = ta.calls + 1;
    REFUSED(sgrt_tracker_create(s, &t2), SGRT_ERR_NOMEM, "sgrt_tracker_create", "allocator", NONE);
    ta.fail_at = ta.calls + 2; /* the object, then its bits */
    REFUSED(sgrt_tracker_create(s, &t2), SGRT_ERR_NOMEM, "sgrt_tracker_create", "allocator", NONE);
    ta.fail_at = 0;
    REFUSED(sgrt_nodeset_create(s, NULL), SGRT_ERR_INVALID_ARG, "sgrt_nodeset_create", "out",
            NONE);
    sgrt_nodeset s2 = SGRT_NULL_NODESET;
    ta.fail_at = ta.calls + 1;
    REFUSED(sgrt_nodeset_create(s, &s2), SGRT_ERR_NOMEM, "sgrt_nodeset_create", "allocator", NONE);
    ta.fail_at = 0;

    sgrt_range r[4];
    const char *fn = "sgrt_tracker_collect";
    uint32_t got;
    bool more;
    REFUSED(sgrt_tracker_collect(s, ot, r, 4, 0, &got, &more), SGRT_ERR_INVALID_ARG, fn,
            "t is not a live tracker of s: destroyed, or of another scene", NONE);
    REFUSED(sgrt_tracker_collect(s, set_as_t, r, 4, 0, &got, &more), SGRT_ERR_INVALID_ARG, fn,
            "t is not a tracker: it names a live object of another kind", NONE);
    REFUSED(sgrt_tracker_collect(s, SGRT_NULL_TRACKER, r, 4, 0, &got, &more),
            SGRT_ERR_INVALID_ARG, fn, "t is zero", NONE);
    REFUSED(sgrt_tracker_collect(s, t, NULL, 4, 0, &got, &more), SGRT_ERR_INVALID_ARG, fn, "out",
            NONE);
    REFUSED(sgrt_tracker_collect(s, t, r, 4, 0, NULL, &more), SGRT_ERR_INVALID_ARG, fn,
            "out_count", NONE);
    REFUSED(sgrt_tracker_collect(s, t, r, 4, 0, &got, NULL), SGRT_ERR_INVALID_ARG, fn,
            "out_more", NONE);
    QUIET(sgrt_tracker_collect(s, t, r, 4, 0, &got, &more));
    REFUSED(sgrt_tracker_check(s, ot, NULL), SGRT_ERR_INVALID_ARG, "sgrt_tracker_check", "t",
            NONE);
    sgrt__tracker *tw = (sgrt__tracker *)sgrt__object_get(s, t.id, SGRT__KIND_TRACKER);
    const uint32_t keep = tw->summary[0];
    tw->summary[0] ^= 1u << 30; /* white-box: a summary bit with no pending word */
    REFUSED(sgrt_tracker_check(s, t, NULL), SGRT_ERR_CORRUPT, "sgrt_tracker_check", "summary",
            NONE);
    tw->summary[0] = keep;
    QUIET(sgrt_tracker_check(s, t, NULL));
    REFUSED(sgrt_tracker_destroy(s, ot), SGRT_ERR_INVALID_ARG, "sgrt_tracker_destroy",
            "t is not a live tracker of s", NONE);
    REFUSED(sgrt_tracker_destroy(s, set_as_t), SGRT_ERR_INVALID_ARG, "sgrt_tracker_destroy",
            "t is not a tracker: it names a live object of another kind", NONE);
    QUIET(sgrt_tracker_destroy(s, SGRT_NULL_TRACKER));

    fn = "sgrt_nodeset_add";
    REFUSED(sgrt_nodeset_add(s, os, a), SGRT_ERR_INVALID_ARG, fn, "set", NONE);
    REFUSED(sgrt_nodeset_add(s, set, dead), SGRT_ERR_STALE_HANDLE, fn, "node", dead);
    REFUSED(sgrt_nodeset_remove(s, t_as_set, a), SGRT_ERR_INVALID_ARG, "sgrt_nodeset_remove",
            "set", NONE);
    REFUSED(sgrt_nodeset_remove(s, set, dead), SGRT_ERR_STALE_HANDLE, "sgrt_nodeset_remove",
            "node", dead);
    REFUSED_ANSWER(!sgrt_nodeset_has(s, os, a), SGRT_ERR_INVALID_ARG, "sgrt_nodeset_has", "set",
                   NONE);
    REFUSED(sgrt_nodeset_clear(s, os), SGRT_ERR_INVALID_ARG, "sgrt_nodeset_clear", "set", NONE);
    REFUSED_ANSWER(sgrt_nodeset_count(s, SGRT_NULL_NODESET) == 0, SGRT_ERR_INVALID_ARG, "sgrt_nodeset_count",
                   "set", NONE);
    fn = "sgrt_nodeset_combine";
    REFUSED(sgrt_nodeset_combine(s, os, set, SGRT_SET_OR, set), SGRT_ERR_INVALID_ARG, fn, "dst",
            NONE);
    REFUSED(sgrt_nodeset_combine(s, set, os, SGRT_SET_OR, set), SGRT_ERR_INVALID_ARG, fn, "a",
            NONE);
    REFUSED(sgrt_nodeset_combine(s, set, set, SGRT_SET_OR, t_as_set), SGRT_ERR_INVALID_ARG, fn,
            "b", NONE);
    REFUSED(sgrt_nodeset_combine(s, set, set, (sgrt_set_op)3, set), SGRT_ERR_INVALID_ARG, fn, "op",
            NONE);
    QUIET(sgrt_nodeset_combine(s, set, set, SGRT_SET_OR, set));
    fn = "sgrt_nodeset_from_changes";
    REFUSED(sgrt_nodeset_from_changes(s, os, t, SGRT_SET_AND, SGRT_NULL_NODESET, false), SGRT_ERR_INVALID_ARG,
            fn, "dst", NONE);
    REFUSED(sgrt_nodeset_from_changes(s, set, ot, SGRT_SET_AND, SGRT_NULL_NODESET, false), SGRT_ERR_INVALID_ARG,
            fn, "t", NONE);
    REFUSED(sgrt_nodeset_from_changes(s, set, t, SGRT_SET_AND, os, false), SGRT_ERR_INVALID_ARG,
            fn, "b", NONE);
    REFUSED(sgrt_nodeset_from_changes(s, set, t, (sgrt_set_op)-1, set, false),
            SGRT_ERR_INVALID_ARG, fn, "op", NONE);
    QUIET(sgrt_nodeset_from_changes(s, set, t, SGRT_SET_AND, set, false));
    uint32_t cursor = 0, words = 0;
    REFUSED_ANSWER(sgrt_nodeset_next(s, os, &cursor).id == 0u, SGRT_ERR_INVALID_ARG,
                   "sgrt_nodeset_next", "set", NONE);
    REFUSED_ANSWER(sgrt_nodeset_next(s, set, NULL).id == 0u, SGRT_ERR_INVALID_ARG,
                   "sgrt_nodeset_next", "cursor", NONE);
    REFUSED_ANSWER(sgrt_nodeset_words(s, os, &words) == NULL, SGRT_ERR_INVALID_ARG,
                   "sgrt_nodeset_words", "set", NONE);
    REFUSED(sgrt_nodeset_destroy(s, os), SGRT_ERR_INVALID_ARG, "sgrt_nodeset_destroy",
            "set is not a live node set of s", NONE);
    REFUSED(sgrt_nodeset_destroy(s, t_as_set), SGRT_ERR_INVALID_ARG, "sgrt_nodeset_destroy",
            "set is not a node set: it names a live object of another kind", NONE);
    QUIET(sgrt_nodeset_destroy(s, SGRT_NULL_NODESET));
    /* Destroyed twice: the second is refused without reading the freed
     * object (ASan would report it). */
    sgrt_nodeset gone = SGRT_NULL_NODESET;
    QUIET(sgrt_nodeset_create(s, &gone));
    QUIET(sgrt_nodeset_destroy(s, gone));
    REFUSED(sgrt_nodeset_destroy(s, gone), SGRT_ERR_INVALID_ARG, "sgrt_nodeset_destroy",
            "set is not a live node set of s: destroyed", NONE);
    sgrt_tracker gone_t = SGRT_NULL_TRACKER;
    QUIET(sgrt_tracker_create(s, &gone_t));
    QUIET(sgrt_tracker_destroy(s, gone_t));
    REFUSED(sgrt_tracker_destroy(s, gone_t), SGRT_ERR_INVALID_ARG, "sgrt_tracker_destroy",
            "t is not a live tracker of s: destroyed", NONE);

    fn = "sgrt_scene_dump";
    REFUSED(sgrt_scene_dump(s, NULL, NULL, SGRT_DUMP_DOT), SGRT_ERR_INVALID_ARG, fn, "write_fn",
            NONE);
    REFUSED(sgrt_scene_dump(s, refuse_write, NULL, (sgrt_dump_format)2), SGRT_ERR_INVALID_ARG, fn,
            "format", NONE);
    REFUSED(sgrt_scene_dump(s, refuse_write, NULL, SGRT_DUMP_JSON), SGRT_ERR_WRITE, fn, "write_fn",
            NONE);
    sgrt_scene_destroy(other);
    end_scene_alloc(s, &ta);
}

/* ---- the table ---------------------------------------------------------------- */

/* Destroy a tracker or node set with the wrong scene: refused with an error
 * and reported; the object stays alive in its own scene. */
static void table_destroy_wrong_scene(void)
{
    test_alloc ta, tb;
    sgrt_scene *a = logged_scene(&ta, 0, 0), *b = logged_scene(&tb, 0, 0);
    sgrt_node n;
    OK(sgrt_node_create(a, NONE, &n));
    sgrt_tracker t = SGRT_NULL_TRACKER;
    sgrt_nodeset set = SGRT_NULL_NODESET;
    OK(sgrt_tracker_create(a, &t));
    OK(sgrt_nodeset_create(a, &set));
    OK(sgrt_nodeset_add(a, set, n));
    const uint64_t frees = ta.frees + tb.frees;
    REFUSED(sgrt_tracker_destroy(b, t), SGRT_ERR_INVALID_ARG, "sgrt_tracker_destroy", "t", NONE);
    REFUSED(sgrt_nodeset_destroy(b, set), SGRT_ERR_INVALID_ARG, "sgrt_nodeset_destroy", "set",
            NONE);
    CHECK_EQ_U(ta.frees + tb.frees, frees);
    /* Alive and working in a. */
    OK(sgrt_tracker_check(a, t, NULL));
    CHECK(sgrt_nodeset_has(a, set, n));
    check_scene(a);
    OK(sgrt_tracker_destroy(a, t));
    OK(sgrt_nodeset_destroy(a, set));
    end_scene_alloc(b, &tb);
    end_scene_alloc(a, &ta);
}

/* Five separate changed slots: 0, 2, 4, 6, 8 of ten roots. */
static sgrt_scene *five_changes(test_alloc *ta, sgrt_tracker *t)
{
    sgrt_scene *s = logged_scene(ta, 0, 0);
    sgrt_node n[10];
    for (int i = 0; i < 10; i++)
        OK(sgrt_node_create(s, NONE, &n[i]));
    sgrt_scene_update(s);
    OK(sgrt_tracker_create(s, t));
    sgrt_range drain[16];
    bool more;
    do
        test_collect(s, *t, drain, 16, 0, &more);
    while (more);
    const float m[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 1, 1, 1, 1};
    for (int i = 0; i < 10; i += 2)
        OK(sgrt_node_set_local(s, n[i], m));
    CHECK_EQ_U(sgrt_scene_update(s), 5);
    return s;
}

/* Collect with the wrong scene: an error, reported, never "nothing
 * changed"; the tracker keeps its changes for the right call. */
static void table_collect_wrong_scene(void)
{
    test_alloc ta, tb;
    sgrt_tracker t;
    sgrt_scene *s = five_changes(&ta, &t), *other = logged_scene(&tb, 0, 0);
    sgrt_range r[8];
    uint32_t n = 99;
    bool more = true;
    REFUSED(sgrt_tracker_collect(other, t, r, 8, 0, &n, &more), SGRT_ERR_INVALID_ARG,
            "sgrt_tracker_collect", "t is not a live tracker of s", NONE);
    CHECK(n == 0 && !more);
    CHECK_EQ_U(test_collect(s, t, r, 8, 0, NULL), 5);
    end_scene_alloc(other, &tb);
    end_scene_alloc(s, &ta);
}

/* collect(max 4) with five ranges pending: four written, "more" apart; the
 * entry after the fourth is never touched. */
static void table_collect_count(void)
{
    test_alloc ta;
    sgrt_tracker t;
    sgrt_scene *s = five_changes(&ta, &t);
    sgrt_range r[5];
    memset(r, 0xA5, sizeof r);
    uint32_t n = 0;
    bool more = false;
    QUIET(sgrt_tracker_collect(s, t, r, 4, 0, &n, &more));
    CHECK_EQ_U(n, 4);
    CHECK(more);
    CHECK(r[4].first == 0xA5A5A5A5u && r[4].count == 0xA5A5A5A5u);
    for (uint32_t i = 0; i < n; i++)
        CHECK(r[i].first == 2u * i && r[i].count == 1u);
    QUIET(sgrt_tracker_collect(s, t, r, 4, 0, &n, &more));
    CHECK(n == 1 && !more && r[0].first == 8u);
    end_scene_alloc(s, &ta);
}

/* Keep the world array's pointer across growth: the storage version says
 * when it moved. It changes exactly when the block does: growth (create,
 * reserve, a relocating re-parent) and compaction, not updates, writes,
 * destroys or hole reclamation (in place). */
static void table_stale_world_array(void)
{
    test_alloc ta;
    sgrt_scene *s = logged_scene(&ta, SGRT_SCENE_PREV_WORLD, 0);
    sgrt_nodeset set;
    OK(sgrt_nodeset_create(s, &set));
    CHECK_EQ_U(sgrt_scene_storage_version(NULL), 0);
    uint64_t v = sgrt_scene_storage_version(s);
    CHECK_EQ_U(v, 1);
    const float *w = sgrt_scene_world_array(s, NULL);
    const float *p = sgrt_scene_prev_world_array(s, NULL);
    const uint32_t *words = sgrt_nodeset_words(s, set, NULL);
    /* 64 slots fit the first block. */
    sgrt_node n[200];
    for (int i = 0; i < 64; i++)
        OK(sgrt_node_create(s, NONE, &n[i]));
    sgrt_scene_update(s);
    CHECK_EQ_U(sgrt_scene_storage_version(s), v);
    CHECK(sgrt_scene_world_array(s, NULL) == w);
    /* The 65th node grows the block: every pointer moves with it. */
    const uint64_t blocks = ta.calls;
    OK(sgrt_node_create(s, NONE, &n[64]));
    CHECK(ta.calls > blocks);
    CHECK_EQ_U(sgrt_scene_storage_version(s), v + 1);
    v = sgrt_scene_storage_version(s);
    CHECK(sgrt_scene_world_array(s, NULL) != w);
    CHECK(sgrt_scene_prev_world_array(s, NULL) != p);
    CHECK(sgrt_nodeset_words(s, set, NULL) != words);
    w = sgrt_scene_world_array(s, NULL);
    /* Writes, updates, destroys, in-place reclamation: same block. */
    sgrt__scene_set_hole_slack(s, 0);
    const float m[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 3, 0, 0, 1};
    OK(sgrt_node_set_local(s, n[5], m));
    sgrt_scene_update(s);
    for (int i = 0; i < 60; i += 2)
        OK(sgrt_node_destroy(s, n[i]));
    CHECK_EQ_U(sgrt_scene_storage_version(s), v);
    CHECK(sgrt_scene_world_array(s, NULL) == w);
    /* reserve past the capacity, then compact: two new blocks. */
    OK(sgrt_scene_reserve(s, 1000));
    CHECK_EQ_U(sgrt_scene_storage_version(s), v + 1);
    OK(sgrt_scene_reserve(s, 10)); /* no growth */
    CHECK_EQ_U(sgrt_scene_storage_version(s), v + 1);
    OK(sgrt_scene_compact(s));
    CHECK_EQ_U(sgrt_scene_storage_version(s), v + 2);
    end_scene_alloc(s, &ta);
}

/* Forget sgrt_scene_update and read worlds: in validation mode the read
 * says PENDING (out still holds the last update's world) and the array
 * calls warn; after the update both are quiet. */
static void table_forgot_update(void)
{
    test_alloc ta;
    sgrt_scene *s = logged_scene(&ta, SGRT_SCENE_VALIDATE, 0);
    sgrt_node a;
    QUIET(sgrt_node_create(s, NONE, &a));
    float m[16], out[16];
    translation(1, 2, 3, m);
    QUIET(sgrt_node_set_local(s, a, m));
    REFUSED(sgrt_node_world(s, a, out), SGRT_ERR_PENDING, "sgrt_node_world", "node", a);
    CHECK(memcmp(out, IDENTITY, sizeof out) == 0); /* the last update's, as without the flag */
    log_reset();
    (void)sgrt_scene_world_array(s, NULL);
    expect_entry(__LINE__, "sgrt_scene_world_array", SGRT_OK, "sgrt_scene_update", NONE);
    log_reset();
    CHECK_EQ_U(sgrt_scene_update(s), 1);
    QUIET(sgrt_node_world(s, a, out));
    CHECK(memcmp(out, m, sizeof out) == 0);
    (void)sgrt_scene_world_array(s, NULL);
    CHECK_EQ_U(L.count, 0);
    /* Without the flag: the same call, OK and silent (documented). */
    test_alloc tb;
    sgrt_scene *plain = logged_scene(&tb, 0, 0);
    QUIET(sgrt_node_create(plain, NONE, &a));
    QUIET(sgrt_node_set_local(plain, a, m));
    QUIET(sgrt_node_world(plain, a, out));
    (void)sgrt_scene_world_array(plain, NULL);
    CHECK_EQ_U(L.count, 0);
    end_scene_alloc(plain, &tb);
    end_scene_alloc(s, &ta);
}

/* Read a world right after moving an ancestor: PENDING for the nodes below
 * it; the others, and a new node whose world the update will not change,
 * read OK. */
static void table_moved_ancestor(void)
{
    test_alloc ta;
    sgrt_scene *s = logged_scene(&ta, SGRT_SCENE_VALIDATE | SGRT_SCENE_PREV_WORLD, 0);
    sgrt_node a, b, c, other, fresh;
    QUIET(sgrt_node_create(s, NONE, &a));
    QUIET(sgrt_node_create(s, a, &b));
    QUIET(sgrt_node_create(s, b, &c));
    QUIET(sgrt_node_create(s, NONE, &other));
    sgrt_scene_update(s);
    float m[16], out[16], now[16];
    translation(0, 5, 0, m);
    QUIET(sgrt_node_set_local(s, a, m));
    QUIET(sgrt_node_create(s, other, &fresh)); /* under a node that did not move */
    REFUSED(sgrt_node_world(s, c, out), SGRT_ERR_PENDING, "sgrt_node_world", "ancestor", c);
    CHECK(out[13] == 0.0f);
    QUIET(sgrt_node_world_now(s, c, now));
    CHECK(now[13] == 5.0f);
    QUIET(sgrt_node_world(s, other, out));
    QUIET(sgrt_node_world(s, fresh, out));
    log_reset();
    (void)sgrt_scene_prev_world_array(s, NULL);
    expect_entry(__LINE__, "sgrt_scene_prev_world_array", SGRT_OK, "sgrt_scene_update", NONE);
    CHECK_EQ_U(sgrt_scene_update(s), 4);
    QUIET(sgrt_node_world(s, c, out));
    CHECK(memcmp(out, now, sizeof out) == 0);
    end_scene_alloc(s, &ta);
}

static void run_inline(void *user, uint32_t count, void (*fn)(void *ctx, uint32_t i), void *ctx)
{
    (void)user;
    for (uint32_t i = 0; i < count; i++)
        fn(ctx, i);
}

/* The commonest C mistake with an object: using it after its destroy. The
 * call is refused, says so, and never reads the freed object (ASan, in the
 * sanitize suite, would stop here); a new object taking its table index
 * does not bring the old handle back. */
static void table_use_after_destroy(void)
{
    test_alloc ta;
    sgrt_scene *s = logged_scene(&ta, 0, 0);
    sgrt_node a;
    QUIET(sgrt_node_create(s, NONE, &a));
    sgrt_tracker t;
    sgrt_nodeset set;
    sgrt_writer w;
    QUIET(sgrt_tracker_create(s, &t));
    QUIET(sgrt_nodeset_create(s, &set));
    QUIET(sgrt_writer_create(s, 1, &a, 0, &w));
    QUIET(sgrt_tracker_destroy(s, t));
    QUIET(sgrt_nodeset_destroy(s, set));
    QUIET(sgrt_writer_destroy(s, w));
    sgrt_range r[4];
    uint32_t n = 5;
    bool more = true;
    REFUSED(sgrt_tracker_collect(s, t, r, 4, 0, &n, &more), SGRT_ERR_INVALID_ARG,
            "sgrt_tracker_collect", "t is not a live tracker of s: destroyed", NONE);
    CHECK(n == 0 && !more);
    REFUSED_ANSWER(sgrt_nodeset_words(s, set, NULL) == NULL, SGRT_ERR_INVALID_ARG,
                   "sgrt_nodeset_words", "set is not a live node set of s: destroyed", NONE);
    const float m[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    REFUSED(sgrt_writer_set_local(s, w, m, NULL), SGRT_ERR_INVALID_ARG, "sgrt_writer_set_local",
            "w is not a live writer of s: destroyed", NONE);
    sgrt_tracker t2;
    QUIET(sgrt_tracker_create(s, &t2));
    CHECK(t2.id != t.id);
    REFUSED(sgrt_tracker_collect(s, t, r, 4, 0, &n, &more), SGRT_ERR_INVALID_ARG,
            "sgrt_tracker_collect", "destroyed", NONE);
    QUIET(sgrt_tracker_collect(s, t2, r, 4, 0, &n, &more));
    CHECK(n == 1 && !more);
    end_scene_alloc(s, &ta);
}

/* Write locals in place and forget to commit: the update recomputes
 * nothing; in validation mode it says so, naming the first such node, once
 * (the next update is quiet), and sgrt_writer_destroy says so about a write
 * it leaves behind. A committed write, or one whose node something else
 * marked, is quiet. Without the flag: silent, as documented. */
static void table_forgot_commit(void)
{
    for (int validate = 0; validate < 2; validate++) {
        test_alloc ta;
        sgrt_node n[3];
        sgrt_scene *s = logged_chain(&ta, validate ? SGRT_SCENE_VALIDATE : 0u, n, 3);
        CHECK_EQ_U(sgrt_scene_update(s), 3);
        sgrt_writer w;
        QUIET(sgrt_writer_create(s, 3, n, 0, &w));
        float *locals;
        const uint32_t *slots;
        QUIET(sgrt_writer_begin(s, w, &locals, &slots));
        translation(0, 4, 0, locals + 16u * slots[2]);
        log_reset();
        CHECK_EQ_U(sgrt_scene_update(s), 0); /* the write is lost on the update */
        if (validate)
            expect_entry(__LINE__, "sgrt_scene_update", SGRT_OK, "not committed", n[2]);
        else
            CHECK_EQ_U(L.count, 0);
        log_reset();
        CHECK_EQ_U(sgrt_scene_update(s), 0); /* reported once */
        CHECK_EQ_U(L.count, 0);
        /* Committed, or marked by another call, or below a moved node:
         * recomputed, quiet. */
        translation(0, 5, 0, locals + 16u * slots[1]);
        QUIET(sgrt_writer_commit(s, w, 1, 1));
        translation(0, 6, 0, locals + 16u * slots[2]);
        log_reset();
        CHECK_EQ_U(sgrt_scene_update(s), 2);
        CHECK_EQ_U(L.count, 0);
        float m[16];
        translation(1, 0, 0, m);
        translation(0, 7, 0, locals + 16u * slots[1]);
        QUIET(sgrt_node_set_local(s, n[1], m)); /* overwrites the write in place */
        log_reset();
        CHECK_EQ_U(sgrt_scene_update(s), 2);
        CHECK_EQ_U(L.count, 0);
        /* A second begin changes nothing of this. */
        QUIET(sgrt_writer_begin(s, w, &locals, &slots));
        translation(0, 8, 0, locals + 16u * slots[0]);
        log_reset();
        QUIET(sgrt_writer_begin(s, w, &locals, &slots));
        CHECK_EQ_U(sgrt_scene_update(s), 0);
        if (validate)
            expect_entry(__LINE__, "sgrt_scene_update", SGRT_OK, "not committed", n[0]);
        /* The parallel update reports the same. */
        translation(0, 9, 0, locals + 16u * slots[0]);
        const sgrt_executor ex = {run_inline, NULL, 2};
        log_reset();
        CHECK_EQ_U(sgrt_scene_update_parallel(s, &ex), 0);
        if (validate)
            expect_entry(__LINE__, "sgrt_scene_update_parallel", SGRT_OK, "not committed", n[0]);
        /* Destroyed with a write left behind. */
        translation(0, 10, 0, locals + 16u * slots[1]);
        log_reset();
        OK(sgrt_writer_destroy(s, w));
        if (validate)
            expect_entry(__LINE__, "sgrt_writer_destroy", SGRT_OK, "not committed", n[1]);
        else
            CHECK_EQ_U(L.count, 0);
        log_reset();
        (void)sgrt_scene_update(s);
        end_scene_alloc(s, &ta);
    }
}

/* The parallel update with an executor it cannot use runs serially and says
 * so: NULL ex, NULL run or 0 workers always, 1 worker in validation mode. */
static void table_unusable_executor(void)
{
    for (int validate = 0; validate < 2; validate++) {
        test_alloc ta;
        sgrt_node n[4];
        sgrt_scene *s = logged_chain(&ta, validate ? SGRT_SCENE_VALIDATE : 0u, n, 4);
        const char *fn = "sgrt_scene_update_parallel";
        const sgrt_executor no_run = {NULL, NULL, 4}, no_workers = {run_inline, NULL, 0};
        const sgrt_executor one = {run_inline, NULL, 1};
        float m[16];
        log_reset();
        CHECK_EQ_U(sgrt_scene_update_parallel(s, NULL), 4);
        expect_entry(__LINE__, fn, SGRT_OK, "ex is NULL", NONE);
        translation(1, 0, 0, m);
        QUIET(sgrt_node_set_local(s, n[1], m));
        log_reset();
        CHECK_EQ_U(sgrt_scene_update_parallel(s, &no_run), 3);
        expect_entry(__LINE__, fn, SGRT_OK, "ex->run is NULL", NONE);
        translation(2, 0, 0, m);
        QUIET(sgrt_node_set_local(s, n[2], m));
        log_reset();
        CHECK_EQ_U(sgrt_scene_update_parallel(s, &no_workers), 2);
        expect_entry(__LINE__, fn, SGRT_OK, "ex->workers is 0", NONE);
        translation(3, 0, 0, m);
        QUIET(sgrt_node_set_local(s, n[3], m));
        log_reset();
        CHECK_EQ_U(sgrt_scene_update_parallel(s, &one), 1);
        if (validate)
            expect_entry(__LINE__, fn, SGRT_OK, "ex->workers is 1", NONE);
        else
            CHECK_EQ_U(L.count, 0);
        end_scene_alloc(s, &ta);
    }
}

/* Quaternions in w, x, y, z order or not normalised: validation mode
 * refuses |q|^2 off 1 beyond the tolerance (single and batch, the batch
 * naming the entry) and warns about the w, x, y, z identity. */
static void table_quaternions(void)
{
    test_alloc ta;
    sgrt_scene *s = logged_scene(&ta, SGRT_SCENE_VALIDATE, 0);
    sgrt_node a, b, dead;
    QUIET(sgrt_node_create(s, NONE, &a));
    QUIET(sgrt_node_create(s, a, &b));
    QUIET(sgrt_node_create(s, a, &dead));
    QUIET(sgrt_node_destroy(s, dead));
    float local[16];
    const float t[3] = {1, 2, 3}, sc[3] = {1, 1, 1};
    const char *fn = "sgrt_node_set_trs";
    const float doubled[4] = {0, 0, 0, 2}, halfway[4] = {0.6f, 0, 0, 0.6f};
    REFUSED(sgrt_node_set_trs(s, b, t, doubled, sc), SGRT_ERR_INVALID_ARG, fn, "q", b);
    REFUSED(sgrt_node_set_trs(s, b, t, halfway, sc), SGRT_ERR_INVALID_ARG, fn, "unit length", b);
    QUIET(sgrt_node_local(s, b, local));
    CHECK(memcmp(local, IDENTITY, sizeof local) == 0); /* refused: nothing changed */
    /* The tolerance, both sides (|q|^2 - 1 = 0.9 and 1.1 x 2^-10). */
    const float inside[4] = {0, 0, 0, (float)sqrt(1.0 + 0.9 / 1024.0)};
    const float outside[4] = {0, 0, 0, (float)sqrt(1.0 + 1.1 / 1024.0)};
    QUIET(sgrt_node_set_trs(s, b, t, inside, sc));
    REFUSED(sgrt_node_set_trs(s, b, t, outside, sc), SGRT_ERR_INVALID_ARG, fn, "q", b);
    /* The identity written w, x, y, z: taken, with a warning. */
    const float wxyz[4] = {1, 0, 0, 0};
    log_reset();
    OK(sgrt_node_set_trs(s, b, t, wxyz, sc));
    expect_entry(__LINE__, fn, SGRT_OK, "x, y, z, w", b);
    /* A unit quaternion: silent. */
    rng r = {22};
    float q[4];
    random_unit_quat(&r, q);
    QUIET(sgrt_node_set_trs(s, b, t, q, sc));

    /* Batches: the first refused entry, whatever refuses it; an entry
     * refused twice over is refused for what its single call checks first
     * (the handle, then the quaternion, then the values). */
    fn = "sgrt_nodes_set_trs";
    const float ts[3][3] = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
    const float scs[3][3] = {{1, 1, 1}, {1, 1, 1}, {1, 1, 1}};
    const float qs[3][4] = {{0, 0, 0, 1}, {0, 0, 0, 1}, {0, 0.5f, 0, 1}};
    const sgrt_node good[3] = {a, b, a}, stale_last[3] = {a, b, dead}, stale_first[3] = {dead, b, a};
    uint32_t at = 99;
    REFUSED(sgrt_nodes_set_trs(s, 3, good, ts[0], qs[0], scs[0], &at), SGRT_ERR_INVALID_ARG, fn,
            "q[*out_bad]", a);
    CHECK_EQ_U(at, 2);
    REFUSED(sgrt_nodes_set_trs(s, 3, stale_last, ts[0], qs[0], scs[0], &at), SGRT_ERR_STALE_HANDLE, fn,
            "nodes[*out_bad]", dead);
    CHECK_EQ_U(at, 2);
    REFUSED(sgrt_nodes_set_trs(s, 3, stale_first, ts[0], qs[0], scs[0], &at), SGRT_ERR_STALE_HANDLE, fn,
            "nodes[*out_bad]", dead);
    CHECK_EQ_U(at, 0);
    const float qw[3][4] = {{0, 0, 0, 1}, {1, 0, 0, 0}, {-1, 0, 0, 0}};
    log_reset();
    OK(sgrt_nodes_set_trs(s, 3, good, ts[0], qw[0], scs[0], &at));
    expect_entry(__LINE__, fn, SGRT_OK, "x, y, z, w", b); /* once, for the first */

    /* Without the flag a non-unit quaternion is used as given (documented). */
    test_alloc tb;
    sgrt_scene *plain = logged_scene(&tb, 0, 0);
    QUIET(sgrt_node_create(plain, NONE, &a));
    QUIET(sgrt_node_set_trs(plain, a, t, doubled, sc));
    QUIET(sgrt_nodes_set_trs(plain, 3, (const sgrt_node[3]){a, a, a}, ts[0], qs[0], scs[0], &at));
    end_scene_alloc(plain, &tb);
    end_scene_alloc(s, &ta);
}

/* A row-major matrix (translation in the last row): legal, so written, and
 * the next update warns about it in validation mode. */
static void table_row_major(void)
{
    test_alloc ta;
    sgrt_scene *s = logged_scene(&ta, SGRT_SCENE_VALIDATE, 0);
    sgrt_node a, b;
    QUIET(sgrt_node_create(s, NONE, &a));
    QUIET(sgrt_node_create(s, a, &b));
    sgrt_scene_update(s);
    float m[16];
    memcpy(m, IDENTITY, sizeof m);
    m[3] = 4.0f; /* row-major: x translation */
    QUIET(sgrt_node_set_local(s, b, m));
    log_reset();
    CHECK_EQ_U(sgrt_scene_update(s), 1);
    expect_entry(__LINE__, "sgrt_scene_update", SGRT_OK, "row-major", b);
    QUIET(sgrt_node_set_local(s, b, IDENTITY));
    log_reset();
    CHECK_EQ_U(sgrt_scene_update(s), 1);
    CHECK_EQ_U(L.count, 0);
    end_scene_alloc(s, &ta);
}

/* Every writer call's refusals: each names what was wrong; a write refused
 * for an argument marks nothing, one refused for an entry has written the
 * entries before it. */
static void refusals_writers(void)
{
    test_alloc ta, tb;
    sgrt_scene *s = logged_scene(&ta, 0, 0), *other = logged_scene(&tb, 0, 0);
    sgrt_node a, b, c, dead, on;
    QUIET(sgrt_node_create(s, NONE, &a));
    QUIET(sgrt_node_create(s, a, &b));
    QUIET(sgrt_node_create(s, b, &c));
    QUIET(sgrt_node_create(s, a, &dead));
    QUIET(sgrt_node_create(other, NONE, &on));
    CHECK_EQ_U(sgrt_scene_update(s), 4);
    const sgrt_node three[3] = {a, b, c}, with_dead[2] = {a, dead};
    sgrt_writer w = SGRT_NULL_WRITER, wd = SGRT_NULL_WRITER, wo = SGRT_NULL_WRITER;

    const char *fn = "sgrt_writer_create";
    REFUSED(sgrt_writer_create(s, 0, three, 0, &w), SGRT_ERR_INVALID_ARG, fn, "count", NONE);
    REFUSED(sgrt_writer_create(s, 3, NULL, 0, &w), SGRT_ERR_INVALID_ARG, fn, "nodes", NONE);
    REFUSED(sgrt_writer_create(s, 3, three, 0, NULL), SGRT_ERR_INVALID_ARG, fn, "out", NONE);
    REFUSED(sgrt_writer_create(s, 3, three, 4, &w), SGRT_ERR_INVALID_ARG, fn, "flags", NONE);
    REFUSED(sgrt_writer_create(other, 3, three, 0, &w), SGRT_ERR_STALE_HANDLE, fn, "nodes", a);
    CHECK(w.id == 0u);
    QUIET(sgrt_writer_create(s, 3, three, 0, &w));
    QUIET(sgrt_writer_create(s, 2, with_dead, 0, &wd));
    QUIET(sgrt_writer_create(other, 1, &on, 0, &wo));
    QUIET(sgrt_node_destroy(s, dead));

    float m[3][16];
    for (int i = 0; i < 3; i++)
        translation((float)i, 1, 2, m[i]);
    float bad[3][16];
    memcpy(bad, m, sizeof m);
    bad[2][7] = INFINITY;
    const float t[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9}, q[12] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
    const float sc[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
    float nq[12];
    memcpy(nq, q, sizeof q);
    nq[5] = NAN;
    uint32_t at = 99;

    fn = "sgrt_writer_set_local";
    REFUSED(sgrt_writer_set_local(s, SGRT_NULL_WRITER, m[0], &at), SGRT_ERR_INVALID_ARG, fn, "w", NONE);
    REFUSED(sgrt_writer_set_local(s, wo, m[0], &at), SGRT_ERR_INVALID_ARG, fn, "w", NONE);
    REFUSED(sgrt_writer_set_local(s, w, NULL, &at), SGRT_ERR_INVALID_ARG, fn, "local", NONE);
    CHECK_EQ_U(at, 99); /* argument refusals leave *out_bad alone */
    CHECK_EQ_U(sgrt_scene_update(s), 0); /* nothing was marked */
    REFUSED(sgrt_writer_set_local(s, w, bad[0], &at), SGRT_ERR_INVALID_ARG, fn,
            "local[*out_bad]", c);
    CHECK_EQ_U(at, 2);
    CHECK_EQ_U(sgrt_scene_update(s), 3); /* a and b written (c under b) */
    /* A writer has no nodes argument, and its stale entry is found before
     * anything is written: the message says both. */
    REFUSED(sgrt_writer_set_local(s, wd, m[0], &at), SGRT_ERR_STALE_HANDLE, fn,
            "w's entry *out_bad", dead);
    CHECK(strstr(L.message, "nothing was written") && !strstr(L.message, "nodes["));
    CHECK_EQ_U(at, 1);
    CHECK_EQ_U(sgrt_scene_update(s), 0); /* a stale writer writes nothing */
    at = 99;
    REFUSED(sgrt_writer_set_trs(s, wd, t, q, sc, &at), SGRT_ERR_STALE_HANDLE,
            "sgrt_writer_set_trs", "w's entry *out_bad", dead);
    CHECK(strstr(L.message, "nothing was written") && !strstr(L.message, "were written"));
    CHECK_EQ_U(at, 1);
    CHECK_EQ_U(sgrt_scene_update(s), 0);

    fn = "sgrt_writer_set_trs";
    REFUSED(sgrt_writer_set_trs(s, w, NULL, q, sc, &at), SGRT_ERR_INVALID_ARG, fn, "t", NONE);
    REFUSED(sgrt_writer_set_trs(other, w, t, q, sc, &at), SGRT_ERR_INVALID_ARG, fn, "w", NONE);
    REFUSED(sgrt_writer_set_trs(s, w, t, nq, sc, &at), SGRT_ERR_INVALID_ARG, fn, "q", b);
    CHECK_EQ_U(at, 1);
    CHECK_EQ_U(sgrt_scene_update(s), 3); /* a written, b and c under it */
    QUIET(sgrt_writer_set_trs(s, w, t, q, sc, &at));
    CHECK_EQ_U(sgrt_scene_update(s), 2); /* b and c: a's bits are the same */

    fn = "sgrt_writer_begin";
    float *locals = NULL;
    const uint32_t *slots = NULL;
    REFUSED(sgrt_writer_begin(s, w, NULL, &slots), SGRT_ERR_INVALID_ARG, fn, "out_locals", NONE);
    REFUSED(sgrt_writer_begin(s, wo, &locals, &slots), SGRT_ERR_INVALID_ARG, fn, "w", NONE);
    REFUSED(sgrt_writer_begin(s, wd, &locals, &slots), SGRT_ERR_STALE_HANDLE, fn, "entry", dead);

    fn = "sgrt_writer_commit";
    /* Never begun: nothing was written in place, nothing is stale. */
    REFUSED(sgrt_writer_commit(s, w, 0, 3), SGRT_ERR_INVALID_ARG, fn, "never begun", NONE);
    CHECK_EQ_U(sgrt_scene_update(s), 0);
    QUIET(sgrt_writer_begin(s, w, &locals, &slots));
    REFUSED(sgrt_writer_commit(s, w, 2, 2), SGRT_ERR_INVALID_ARG, fn, "first + count", NONE);
    REFUSED(sgrt_writer_commit(s, wo, 0, 1), SGRT_ERR_INVALID_ARG, fn, "w", NONE);
    CHECK_EQ_U(sgrt_scene_update(s), 0);
    /* A non-finite local committed: the update says so, once, naming the
     * first such node, and makes it the identity. */
    locals[16u * slots[1] + 3] = NAN;
    locals[16u * slots[2] + 3] = INFINITY;
    QUIET(sgrt_writer_commit(s, w, 0, 3));
    log_reset();
    CHECK_EQ_U(sgrt_scene_update(s), 3);
    expect_entry(__LINE__, "sgrt_scene_update", SGRT_ERR_INVALID_ARG, "NaN or an infinity", b);
    CHECK_EQ_U(sgrt_scene_nonfinite_locals(s, NULL), 2);
    QUIET(sgrt_writer_begin(s, w, &locals, &slots));
    sgrt_node late;
    QUIET(sgrt_node_create(s, NONE, &late));
    QUIET(sgrt_node_set_parent(s, b, late, SGRT_KEEP_LOCAL)); /* b and c move */
    REFUSED(sgrt_writer_commit(s, w, 0, 3), SGRT_ERR_STALE_HANDLE, fn, "sgrt_writer_begin",
            NONE);

    fn = "sgrt_writer_destroy";
    REFUSED(sgrt_writer_destroy(other, w), SGRT_ERR_INVALID_ARG, fn, "w", NONE);
    QUIET(sgrt_writer_destroy(s, w));
    REFUSED(sgrt_writer_destroy(s, w), SGRT_ERR_INVALID_ARG, fn, "w", NONE); /* destroyed */
    QUIET(sgrt_writer_destroy(s, SGRT_NULL_WRITER));
    CHECK_RES(sgrt_writer_destroy(NULL, wd), SGRT_ERR_INVALID_ARG);
    QUIET(sgrt_writer_destroy(s, wd));
    sgrt_scene_destroy(s);
    sgrt_scene_destroy(other); /* frees wo */
    check_alloc_empty(&ta);
    check_alloc_empty(&tb);
    test_alloc_release(&ta);
    test_alloc_release(&tb);
}

/* Without a log, sgrt_result_str is all a program sees: INVALID_ARG's
 * sentence names every kind of cause the calls above refuse with it. */
static void table_no_log_invalid_arg(void)
{
    const char *sentence = sgrt_result_str(SGRT_ERR_INVALID_ARG);
    static const char *const causes[] = {"NULL", "range", "non-finite", "flag", "writer",
                                         "node set", "tracker", "zero", "destroyed",
                                         "another scene", "another kind", "begun"};
    for (size_t i = 0; i < sizeof causes / sizeof causes[0]; i++)
        CHECK_MSG(strstr(sentence, causes[i]) != NULL, "sgrt_result_str(INVALID_ARG) has no \"%s\"",
                  causes[i]);
}

/* ---- every call with a NULL scene --------------------------------------- */

/* Live objects of a real scene, so that only the scene argument is wrong. */
typedef struct fixture {
    sgrt_node node;
    sgrt_tracker t;
    sgrt_nodeset set;
    sgrt_writer w;
    sgrt_skin k;
} fixture;

static int write_nothing(void *user, const char *bytes, size_t len)
{
    (void)user, (void)bytes, (void)len;
    return 0;
}

/* One case per public call that takes a scene: true when the call, given a
 * NULL scene and every other argument valid, answers its documented
 * refusal (INVALID_ARG, or 0, false, NULL, SGRT_NULL_NODE for calls that
 * answer with a value; nothing for sgrt_scene_destroy). */
#define NC(name, ...)                                                                  \
    static bool nc_##name(const fixture *f)                                            \
    {                                                                                  \
        sgrt_scene *const s = NULL;                                                    \
        (void)f;                                                                       \
        __VA_ARGS__                                                                    \
    }
#define BAD(call) return (call) == SGRT_ERR_INVALID_ARG;

static const float M16[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
static const float T3[3] = {0, 0, 0}, Q4[4] = {0, 0, 0, 1}, S3[3] = {1, 1, 1};
static const double D3[3] = {0, 0, 0};

NC(scene_destroy, sgrt_scene_destroy(s); return true;)
NC(scene_reserve, BAD(sgrt_scene_reserve(s, 10)))
NC(scene_compact, BAD(sgrt_scene_compact(s)))
NC(scene_node_count, return sgrt_scene_node_count(s) == 0;)
NC(node_create, sgrt_node o; BAD(sgrt_node_create(s, SGRT_NULL_NODE, &o)))
NC(node_destroy, BAD(sgrt_node_destroy(s, f->node)))
NC(node_alive, return !sgrt_node_alive(s, f->node);)
NC(node_parent, sgrt_node o; BAD(sgrt_node_parent(s, f->node, &o)))
NC(node_first_child, sgrt_node o; BAD(sgrt_node_first_child(s, f->node, &o)))
NC(node_next_sibling, sgrt_node o; BAD(sgrt_node_next_sibling(s, f->node, &o)))
NC(node_set_parent, BAD(sgrt_node_set_parent(s, f->node, SGRT_NULL_NODE, SGRT_KEEP_LOCAL)))
NC(node_set_local, BAD(sgrt_node_set_local(s, f->node, M16)))
NC(node_set_trs, BAD(sgrt_node_set_trs(s, f->node, T3, Q4, S3)))
NC(node_set_world, BAD(sgrt_node_set_world(s, f->node, M16)))
NC(nodes_set_local, BAD(sgrt_nodes_set_local(s, 1, &f->node, M16, NULL)))
NC(nodes_set_trs, BAD(sgrt_nodes_set_trs(s, 1, &f->node, T3, Q4, S3, NULL)))
NC(writer_create, sgrt_writer o; BAD(sgrt_writer_create(s, 1, &f->node, 0, &o)))
NC(writer_destroy, BAD(sgrt_writer_destroy(s, f->w)))
NC(writer_set_local, BAD(sgrt_writer_set_local(s, f->w, M16, NULL)))
NC(writer_set_trs, BAD(sgrt_writer_set_trs(s, f->w, T3, Q4, S3, NULL)))
NC(writer_begin, float *l; const uint32_t *sl; BAD(sgrt_writer_begin(s, f->w, &l, &sl)))
NC(writer_commit, BAD(sgrt_writer_commit(s, f->w, 0, 1)))
NC(node_local, float o[16]; BAD(sgrt_node_local(s, f->node, o)))
NC(node_world, float o[16]; BAD(sgrt_node_world(s, f->node, o)))
NC(node_world_now, float o[16]; BAD(sgrt_node_world_now(s, f->node, o)))
NC(scene_update, return sgrt_scene_update(s) == 0;)
NC(scene_nonfinite_locals, return sgrt_scene_nonfinite_locals(s, NULL) == 0;)
NC(scene_update_parallel, const sgrt_executor ex = {run_inline, NULL, 1};
   return sgrt_scene_update_parallel(s, &ex) == 0;)
NC(scene_world_array, return sgrt_scene_world_array(s, NULL) == NULL;)
NC(scene_storage_version, return sgrt_scene_storage_version(s) == 0;)
NC(scene_prev_world_array, return sgrt_scene_prev_world_array(s, NULL) == NULL;)
NC(node_slot, uint32_t o; BAD(sgrt_node_slot(s, f->node, &o)))
NC(scene_slot_node, return sgrt_scene_slot_node(s, 0).id == 0;)
NC(node_set_user, BAD(sgrt_node_set_user(s, f->node, 1)))
NC(node_user, uint64_t o; BAD(sgrt_node_user(s, f->node, &o)))
NC(tracker_create, sgrt_tracker o; BAD(sgrt_tracker_create(s, &o)))
NC(tracker_destroy, BAD(sgrt_tracker_destroy(s, f->t)))
NC(tracker_collect, sgrt_range r[2]; uint32_t n; bool more;
   BAD(sgrt_tracker_collect(s, f->t, r, 2, 0, &n, &more)))
NC(nodeset_create, sgrt_nodeset o; BAD(sgrt_nodeset_create(s, &o)))
NC(nodeset_destroy, BAD(sgrt_nodeset_destroy(s, f->set)))
NC(nodeset_add, BAD(sgrt_nodeset_add(s, f->set, f->node)))
NC(nodeset_remove, BAD(sgrt_nodeset_remove(s, f->set, f->node)))
NC(nodeset_has, return !sgrt_nodeset_has(s, f->set, f->node);)
NC(nodeset_clear, BAD(sgrt_nodeset_clear(s, f->set)))
NC(nodeset_count, return sgrt_nodeset_count(s, f->set) == 0;)
NC(nodeset_combine, BAD(sgrt_nodeset_combine(s, f->set, f->set, SGRT_SET_OR, f->set)))
NC(nodeset_from_changes,
   BAD(sgrt_nodeset_from_changes(s, f->set, f->t, SGRT_SET_OR, f->set, false)))
NC(nodeset_next, uint32_t c = 0; return sgrt_nodeset_next(s, f->set, &c).id == 0;)
NC(nodeset_words, return sgrt_nodeset_words(s, f->set, NULL) == NULL;)
NC(node_set_bounds, BAD(sgrt_node_set_bounds(s, f->node, T3, S3)))
NC(nodes_set_bounds, BAD(sgrt_nodes_set_bounds(s, 1, &f->node, T3, S3, NULL)))
NC(node_clear_bounds, BAD(sgrt_node_clear_bounds(s, f->node)))
NC(node_bounds, float c[3], e[3]; BAD(sgrt_node_bounds(s, f->node, c, e)))
NC(node_world_bounds, float lo[3], hi[3]; BAD(sgrt_node_world_bounds(s, f->node, lo, hi)))
NC(node_subtree_bounds, float lo[3], hi[3]; BAD(sgrt_node_subtree_bounds(s, f->node, lo, hi)))
NC(scene_bounds_arrays, sgrt_bounds_arrays o; BAD(sgrt_scene_bounds_arrays(s, &o)))
NC(scene_cull, const float pl[4] = {1, 0, 0, 0};
   BAD(sgrt_scene_cull(s, pl, 1, SGRT_NULL_NODESET, f->set, NULL)))
NC(node_set_anchor, BAD(sgrt_node_set_anchor(s, f->node, D3)))
NC(node_anchor, double o[3]; BAD(sgrt_node_anchor(s, f->node, o)))
NC(scene_set_origin, BAD(sgrt_scene_set_origin(s, D3)))
NC(scene_origin, double o[3]; BAD(sgrt_scene_origin(s, o)))
NC(node_world_double, double o[16]; BAD(sgrt_node_world_double(s, f->node, o)))
NC(scene_check, BAD(sgrt_scene_check(s, NULL)))
NC(tracker_check, BAD(sgrt_tracker_check(s, f->t, NULL)))
NC(scene_dump, BAD(sgrt_scene_dump(s, write_nothing, NULL, SGRT_DUMP_JSON)))
NC(skin_create, sgrt_skin o; const sgrt_skin_desc d = {1, &f->node, NULL, SGRT_NULL_NODE, 0};
   BAD(sgrt_skin_create(s, &d, &o)))
NC(skin_destroy, BAD(sgrt_skin_destroy(s, f->k)))
NC(skin_palette, return sgrt_skin_palette(s, f->k, NULL) == NULL;)
NC(skin_normals, return sgrt_skin_normals(s, f->k, NULL) == NULL;)
NC(skin_prev_palette, return sgrt_skin_prev_palette(s, f->k, NULL) == NULL;)
NC(skin_collect, sgrt_range r[2]; uint32_t n; bool more;
   BAD(sgrt_skin_collect(s, f->k, r, 2, 0, &n, &more)))
NC(scene_simd_name, return sgrt_scene_simd_name(s) == NULL;)
NC(scene_hash, return sgrt_scene_hash(s) == 0;)
NC(scene_snapshot_size, size_t n = 1;
   return sgrt_scene_snapshot_size(s, &n) == SGRT_ERR_INVALID_ARG && n == 0;)
NC(scene_snapshot, uint8_t b[64]; size_t n = 1;
   return sgrt_scene_snapshot(s, b, sizeof b, &n) == SGRT_ERR_INVALID_ARG && n == 0;)
NC(scene_restore, static const uint8_t b[64]; BAD(sgrt_scene_restore(s, b, sizeof b)))
NC(scene_interpolate, BAD(sgrt_scene_interpolate(s, 0.5f)))
NC(scene_interpolate_parallel, BAD(sgrt_scene_interpolate_parallel(s, 0.5f, NULL)))
NC(scene_render_world_array, uint32_t n = 1;
   return sgrt_scene_render_world_array(s, &n) == NULL && n == 0;)
NC(node_render_world, float m[16]; BAD(sgrt_node_render_world(s, f->node, m)))
NC(node_teleport, BAD(sgrt_node_teleport(s, f->node)))
NC(scene_render_collect, sgrt_range r[2]; uint32_t n = 1; bool more = true;
   return sgrt_scene_render_collect(s, r, 2, 0, &n, &more) == SGRT_ERR_INVALID_ARG && n == 0 &&
          !more;)

#define NC_ROW(name) {"sgrt_" #name, nc_##name}
static const struct {
    const char *name;
    bool (*refused)(const fixture *f);
} null_scene_calls[] = {
    NC_ROW(scene_destroy), NC_ROW(scene_reserve), NC_ROW(scene_compact),
    NC_ROW(scene_node_count), NC_ROW(node_create), NC_ROW(node_destroy),
    NC_ROW(node_alive), NC_ROW(node_parent), NC_ROW(node_first_child),
    NC_ROW(node_next_sibling), NC_ROW(node_set_parent), NC_ROW(node_set_local),
    NC_ROW(node_set_trs), NC_ROW(node_set_world), NC_ROW(nodes_set_local),
    NC_ROW(nodes_set_trs), NC_ROW(writer_create), NC_ROW(writer_destroy),
    NC_ROW(writer_set_local), NC_ROW(writer_set_trs), NC_ROW(writer_begin),
    NC_ROW(writer_commit), NC_ROW(node_local), NC_ROW(node_world),
    NC_ROW(node_world_now), NC_ROW(scene_update), NC_ROW(scene_nonfinite_locals),
    NC_ROW(scene_update_parallel), NC_ROW(scene_world_array),
    NC_ROW(scene_storage_version), NC_ROW(scene_prev_world_array), NC_ROW(node_slot),
    NC_ROW(scene_slot_node), NC_ROW(node_set_user), NC_ROW(node_user),
    NC_ROW(tracker_create), NC_ROW(tracker_destroy), NC_ROW(tracker_collect),
    NC_ROW(nodeset_create), NC_ROW(nodeset_destroy), NC_ROW(nodeset_add),
    NC_ROW(nodeset_remove), NC_ROW(nodeset_has), NC_ROW(nodeset_clear),
    NC_ROW(nodeset_count), NC_ROW(nodeset_combine), NC_ROW(nodeset_from_changes),
    NC_ROW(nodeset_next), NC_ROW(nodeset_words), NC_ROW(node_set_bounds),
    NC_ROW(nodes_set_bounds), NC_ROW(node_clear_bounds), NC_ROW(node_bounds),
    NC_ROW(node_world_bounds), NC_ROW(node_subtree_bounds), NC_ROW(scene_bounds_arrays),
    NC_ROW(scene_cull), NC_ROW(node_set_anchor), NC_ROW(node_anchor),
    NC_ROW(scene_set_origin), NC_ROW(scene_origin), NC_ROW(node_world_double),
    NC_ROW(scene_check), NC_ROW(tracker_check), NC_ROW(scene_dump),
    NC_ROW(skin_create), NC_ROW(skin_destroy), NC_ROW(skin_palette), NC_ROW(skin_normals),
    NC_ROW(skin_prev_palette), NC_ROW(skin_collect), NC_ROW(scene_simd_name),
    NC_ROW(scene_hash), NC_ROW(scene_snapshot_size), NC_ROW(scene_snapshot),
    NC_ROW(scene_restore), NC_ROW(scene_interpolate), NC_ROW(scene_interpolate_parallel),
    NC_ROW(scene_render_world_array), NC_ROW(node_render_world), NC_ROW(node_teleport),
    NC_ROW(scene_render_collect),
};

/* Every public call that takes a scene, from one table: a NULL scene is
 * refused, not dereferenced, whatever the other arguments (which name live
 * objects of a real scene), and nothing is logged. Of the 91 calls sgrt.h
 * declares, 82 take a scene: the row count is pinned, so the table is
 * revisited when the header grows. */
static void table_null_scene(void)
{
    test_alloc ta;
    sgrt_scene *real = logged_scene(&ta, SGRT_SCENE_BOUNDS | SGRT_SCENE_LARGE_WORLD, 0);
    fixture f;
    OK(sgrt_node_create(real, SGRT_NULL_NODE, &f.node));
    OK(sgrt_tracker_create(real, &f.t));
    OK(sgrt_nodeset_create(real, &f.set));
    OK(sgrt_writer_create(real, 1, &f.node, 0, &f.w));
    const sgrt_skin_desc d = {1, &f.node, NULL, SGRT_NULL_NODE,
                              SGRT_SKIN_NORMALS | SGRT_SKIN_PREV};
    OK(sgrt_skin_create(real, &d, &f.k));
    const size_t n = sizeof null_scene_calls / sizeof null_scene_calls[0];
    CHECK_EQ_U(n, 82);
    log_reset();
    for (size_t i = 0; i < n; i++)
        CHECK_MSG(null_scene_calls[i].refused(&f), "%s with a NULL scene was not refused",
                  null_scene_calls[i].name);
    CHECK_EQ_U(L.count, 0); /* no scene, no log */
    sgrt_scene_destroy(real);
    check_alloc_empty(&ta);
    test_alloc_release(&ta);
}

int main(void)
{
    refusals_scene();
    refusals_nodes();
    refusals_transforms();
    refusals_handoff();
    refusals_writers();
    table_destroy_wrong_scene();
    table_collect_wrong_scene();
    table_collect_count();
    table_stale_world_array();
    table_forgot_update();
    table_use_after_destroy();
    table_forgot_commit();
    table_moved_ancestor();
    table_unusable_executor();
    table_quaternions();
    table_row_major();
    table_no_log_invalid_arg();
    table_null_scene();
    return test_report("test_misuse");
}
