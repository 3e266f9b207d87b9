/* SPDX-License-Identifier: MIT */
/* Node sets against a model keyed by node handle: membership must follow
 * nodes through re-parenting (which may move storage), compaction and
 * destruction, and the set algebra (with sets and with a tracker's pending
 * changes) must agree with the same operations done node by node. */
#include "internal.h"
#include "follow.h"
#include "followers/nodeset.h"
#include "followers/tracker.h"
#include "objects.h"
#include "testutil.h"
#include <stdlib.h>

#define MAX_NODES 600u
#define NS 4

static sgrt_node live[MAX_NODES];
static bool member[NS][MAX_NODES]; /* parallel to live[] */
static uint32_t live_n;

/* Drop destroyed nodes from the model, with their memberships. */
static void refresh_live(const sgrt_scene *s)
{
    static uint32_t from[MAX_NODES];
    live_n = drop_dead(s, live, live_n, from);
    for (uint32_t k = 0; k < live_n; k++)
        for (int j = 0; j < NS; j++)
            member[j][k] = member[j][from[k]];
}

static void check_sets(const sgrt_scene *s, sgrt_nodeset const *sets)
{
    uint32_t count = 0;
    sgrt_scene_world_array(s, &count);
    for (int j = 0; j < NS; j++) {
        uint32_t want = 0;
        for (uint32_t i = 0; i < live_n; i++) {
            CHECK(sgrt_nodeset_has(s, sets[j], live[i]) == member[j][i]);
            want += member[j][i];
        }
        CHECK_EQ_U(sgrt_nodeset_count(s, sets[j]), want);

        /* Iteration: exactly the members, in increasing slot order. */
        uint32_t cursor = 0, seen = 0, last = 0;
        for (sgrt_node n = sgrt_nodeset_next(s, sets[j], &cursor); n.id;
             n = sgrt_nodeset_next(s, sets[j], &cursor)) {
            const uint32_t slot = slot_of(s, n);
            CHECK(seen == 0 || slot > last);
            CHECK_EQ_U(cursor, slot + 1u);
            CHECK(sgrt_nodeset_has(s, sets[j], n));
            last = slot;
            seen++;
        }
        CHECK_EQ_U(seen, want);

        /* Raw words: the members' slots and nothing past the slot count. */
        uint32_t nw = 0;
        const uint32_t *w = sgrt_nodeset_words(s, sets[j], &nw);
        CHECK(w != NULL);
        CHECK_EQ_U(nw, (count + 31u) / 32u);
        uint32_t bits = 0;
        for (uint32_t i = 0; i < nw; i++)
            bits += sgrt__popcount32(w[i]);
        CHECK_EQ_U(bits, want);
        if (count % 32u && nw)
            CHECK((w[nw - 1u] & sgrt__mask_from(count % 32u)) == 0);
        for (uint32_t i = 0; i < live_n; i++)
            CHECK(sgrt__bit_get(w, slot_of(s, live[i])) == member[j][i]);
    }
}

static bool op_apply(sgrt_set_op op, bool a, bool b)
{
    return op == SGRT_SET_AND ? (a && b) : op == SGRT_SET_OR ? (a || b) : (a && !b);
}

static void test_random(uint64_t seed, int steps)
{
    rng r = {seed};
    sgrt_scene *s = NULL;
    CHECK_RES(sgrt_scene_create(NULL, &s), SGRT_OK);
    sgrt_nodeset sets[NS];
    sgrt_tracker t = SGRT_NULL_TRACKER, t_first = SGRT_NULL_TRACKER;
    /* A tracker registered before the sets and one after, to mix the registry. */
    CHECK_RES(sgrt_tracker_create(s, &t_first), SGRT_OK);
    for (int j = 0; j < NS; j++)
        CHECK_RES(sgrt_nodeset_create(s, &sets[j]), SGRT_OK);
    CHECK_RES(sgrt_tracker_create(s, &t), SGRT_OK);
    live_n = 0;
    memset(member, 0, sizeof member);
    static uint32_t pending_before[(1u << 16) / 32u];

    for (int step = 0; step < steps; step++) {
        const uint32_t op = rng_below(&r, 100);
        if (op < 25 || live_n < 4) {
            if (live_n >= MAX_NODES)
                continue;
            sgrt_node parent = SGRT_NULL_NODE;
            if (live_n && rng_below(&r, 6))
                parent = live[rng_below(&r, live_n)];
            sgrt_node n;
            CHECK_RES(sgrt_node_create(s, parent, &n), SGRT_OK);
            for (int j = 0; j < NS; j++) {
                CHECK(!sgrt_nodeset_has(s, sets[j], n)); /* a reused slot starts empty */
                member[j][live_n] = false;
            }
            live[live_n++] = n;
        } else if (op < 45) {
            const uint32_t i = rng_below(&r, live_n);
            const int j = (int)rng_below(&r, NS);
            const bool add = rng_below(&r, 3) != 0;
            CHECK_RES(add ? sgrt_nodeset_add(s, sets[j], live[i])
                          : sgrt_nodeset_remove(s, sets[j], live[i]),
                      SGRT_OK);
            member[j][i] = add;
        } else if (op < 51) {
            CHECK_RES(sgrt_node_destroy(s, live[rng_below(&r, live_n)]), SGRT_OK);
            refresh_live(s);
        } else if (op < 63) {
            const sgrt_node n = live[rng_below(&r, live_n)];
            const sgrt_node p = rng_below(&r, 5) ? live[rng_below(&r, live_n)] : SGRT_NULL_NODE;
            const sgrt_result res = sgrt_node_set_parent(s, n, p, (sgrt_keep)rng_below(&r, 2));
            CHECK(res == SGRT_OK || res == SGRT_ERR_CYCLE);
        } else if (op < 65) {
            CHECK_RES(sgrt_scene_compact(s), SGRT_OK);
        } else if (op < 75) {
            const int d = (int)rng_below(&r, NS), a = (int)rng_below(&r, NS),
                      b = (int)rng_below(&r, NS);
            const sgrt_set_op so = (sgrt_set_op)rng_below(&r, 3);
            CHECK_RES(sgrt_nodeset_combine(s, sets[d], sets[a], so, sets[b]), SGRT_OK);
            for (uint32_t i = 0; i < live_n; i++)
                member[d][i] = op_apply(so, member[a][i], member[b][i]);
        } else if (op < 82) {
            /* dst = changes OP b, optionally consuming. White-box: the
             * tracker's pending bits before and after. */
            const int d = (int)rng_below(&r, NS);
            const int b = rng_below(&r, 4) ? (int)rng_below(&r, NS) : -1;
            const sgrt_set_op so = (sgrt_set_op)rng_below(&r, 3);
            const bool consume = rng_below(&r, 2) != 0;
            CHECK(s->st.words <= sizeof pending_before / 4u);
            const sgrt__tracker *tw = (const sgrt__tracker *)sgrt__object_get(s, t.id, SGRT__KIND_TRACKER);
            memcpy(pending_before, tw->b.bits, s->st.words * 4u);
            bool changed[MAX_NODES];
            for (uint32_t i = 0; i < live_n; i++)
                changed[i] = sgrt__bit_get(tw->b.bits, slot_of(s, live[i]));
            CHECK_RES(sgrt_nodeset_from_changes(s, sets[d], t, so,
                                                b < 0 ? SGRT_NULL_NODESET : sets[b], consume),
                      SGRT_OK);
            for (uint32_t i = 0; i < live_n; i++)
                member[d][i] = b < 0 ? changed[i] : op_apply(so, changed[i], member[b][i]);
            /* Consumed: exactly the pending slots of the nodes now in dst. */
            for (uint32_t w = 0; w < s->st.words; w++) {
                uint32_t expect = pending_before[w];
                if (consume)
                    expect &= ~((const sgrt__nodeset *)sgrt__object_get(s, sets[d].id, SGRT__KIND_NODESET))->b.bits[w];
                CHECK_EQ_U(tw->b.bits[w], expect);
                CHECK(((tw->summary[w >> 5] >> (w & 31u)) & 1u) == (tw->b.bits[w] != 0) ||
                      tw->b.bits[w] == 0);
            }
        } else if (op < 90) {
            set_translation(s, live[rng_below(&r, live_n)], rng_float(&r, -3, 3), 0, 0);
        } else if (op < 95) {
            sgrt_scene_update(s);
        } else {
            sgrt_range rg[8];
            bool more;
            do
                test_collect(s, t, rg, 8, rng_below(&r, 4), &more);
            while (more);
        }
        if (step % 16 == 0) {
            check_sets(s, sets);
            const char *broken = sgrt__follow_check(s);
            CHECK(broken == NULL);
            if (broken)
                fprintf(stderr, "step %d: %s\n", step, broken);
        }
    }
    check_sets(s, sets);
    const char *what = NULL;
    CHECK_RES(sgrt_scene_check(s, &what), SGRT_OK);
    /* Sets destroyed explicitly or by the scene, in any order. */
    OK(sgrt_nodeset_destroy(s, sets[1]));
    OK(sgrt_tracker_destroy(s, t_first));
    sgrt_scene_destroy(s);
}

/* The canonical use: upload only the visible nodes that changed, keeping the
 * invisible changes pending until they become visible. */
static void test_visible_changes(void)
{
    /* Each scene through its own allocator, so that a set freed by the wrong
     * scene shows. */
    test_alloc sa, oa;
    sgrt_scene *s = new_scene_alloc(&sa);
    sgrt_node n[70];
    for (int i = 0; i < 70; i++)
        CHECK_RES(sgrt_node_create(s, SGRT_NULL_NODE, &n[i]), SGRT_OK);
    sgrt_tracker t = SGRT_NULL_TRACKER;
    sgrt_nodeset visible = SGRT_NULL_NODESET, todo = SGRT_NULL_NODESET;
    CHECK_RES(sgrt_tracker_create(s, &t), SGRT_OK);
    CHECK_RES(sgrt_nodeset_create(s, &visible), SGRT_OK);
    CHECK_RES(sgrt_nodeset_create(s, &todo), SGRT_OK);
    sgrt_scene_update(s);
    bool more;
    CHECK_EQ_U(test_collect(s, t, NULL, 0, 0, &more), 0);
    CHECK(more);
    sgrt_range r[4];
    CHECK_EQ_U(test_collect(s, t, r, 4, 0, NULL), 1);

    for (int i = 0; i < 70; i += 2)
        CHECK_RES(sgrt_nodeset_add(s, visible, n[i]), SGRT_OK);
    for (int i = 30; i < 40; i++)
        set_translation(s, n[i], 1.0f, 0, 0);
    set_translation(s, n[65], 2.0f, 0, 0);
    sgrt_scene_update(s);

    CHECK_RES(sgrt_nodeset_from_changes(s, todo, t, SGRT_SET_AND, visible, true), SGRT_OK);
    CHECK_EQ_U(sgrt_nodeset_count(s, todo), 5); /* 30, 32, ..., 38 */
    uint32_t cursor = 0, k = 0;
    for (sgrt_node x = sgrt_nodeset_next(s, todo, &cursor); x.id;
         x = sgrt_nodeset_next(s, todo, &cursor), k++)
        CHECK_EQ_U(x.id, n[30 + 2 * k].id);
    CHECK_EQ_U(k, 5);
    /* The invisible changes stay pending: 31, 33, ..., 39 and 65. */
    CHECK_EQ_U(test_collect(s, t, r, 4, 0, &more), 4);
    CHECK(more);
    CHECK_EQ_U(test_collect(s, t, r, 4, 0, NULL), 2);
    CHECK_EQ_U(r[1].first, slot_of(s, n[65]));

    /* AND-NOT and OR with the changes; b NULL; without consuming. */
    set_translation(s, n[1], 5.0f, 0, 0);
    set_translation(s, n[2], 5.0f, 0, 0);
    sgrt_scene_update(s);
    CHECK_RES(sgrt_nodeset_from_changes(s, todo, t, SGRT_SET_AND_NOT, visible, false), SGRT_OK);
    CHECK_EQ_U(sgrt_nodeset_count(s, todo), 1);
    CHECK(sgrt_nodeset_has(s, todo, n[1]));
    CHECK_RES(sgrt_nodeset_from_changes(s, todo, t, SGRT_SET_OR, visible, false), SGRT_OK);
    CHECK_EQ_U(sgrt_nodeset_count(s, todo), 36);
    CHECK_RES(sgrt_nodeset_from_changes(s, todo, t, SGRT_SET_AND, SGRT_NULL_NODESET, false), SGRT_OK);
    CHECK_EQ_U(sgrt_nodeset_count(s, todo), 2);
    /* dst aliasing b. */
    CHECK_RES(sgrt_nodeset_combine(s, todo, visible, SGRT_SET_AND, visible), SGRT_OK);
    CHECK_RES(sgrt_nodeset_from_changes(s, todo, t, SGRT_SET_AND, todo, true), SGRT_OK);
    CHECK_EQ_U(sgrt_nodeset_count(s, todo), 1);
    CHECK(sgrt_nodeset_has(s, todo, n[2]));
    CHECK_EQ_U(test_collect(s, t, r, 4, 0, NULL), 1);
    CHECK_EQ_U(r[0].first, slot_of(s, n[1]));

    /* Destroyed pending nodes are not nodes: never in dst, still collected. */
    CHECK_RES(sgrt_node_destroy(s, n[10]), SGRT_OK);
    CHECK_RES(sgrt_nodeset_from_changes(s, todo, t, SGRT_SET_OR, SGRT_NULL_NODESET, true), SGRT_OK);
    CHECK_EQ_U(sgrt_nodeset_count(s, todo), 0);
    CHECK_EQ_U(test_collect(s, t, r, 4, 0, NULL), 1);
    CHECK_EQ_U(r[0].count, 1);

    /* Clear, and bad arguments. */
    CHECK_RES(sgrt_nodeset_clear(s, visible), SGRT_OK);
    CHECK_EQ_U(sgrt_nodeset_count(s, visible), 0);
    sgrt_scene *other = new_scene_alloc(&oa);
    sgrt_nodeset foreign = SGRT_NULL_NODESET;
    CHECK_RES(sgrt_nodeset_create(other, &foreign), SGRT_OK);
    CHECK_RES(sgrt_nodeset_add(s, foreign, n[0]), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_nodeset_add(other, foreign, n[0]), SGRT_ERR_STALE_HANDLE);
    CHECK_RES(sgrt_nodeset_add(s, visible, n[10]), SGRT_ERR_STALE_HANDLE);
    CHECK_RES(sgrt_nodeset_remove(s, visible, SGRT_NULL_NODE), SGRT_ERR_STALE_HANDLE);
    CHECK(!sgrt_nodeset_has(s, visible, n[10]));
    CHECK(!sgrt_nodeset_has(s, foreign, n[0]));
    CHECK_RES(sgrt_nodeset_combine(s, todo, visible, SGRT_SET_AND, foreign), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_nodeset_combine(s, todo, visible, (sgrt_set_op)7, visible),
              SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_nodeset_combine(s, SGRT_NULL_NODESET, visible, SGRT_SET_OR, visible), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_nodeset_from_changes(other, foreign, t, SGRT_SET_OR, SGRT_NULL_NODESET, false),
              SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_nodeset_from_changes(s, todo, SGRT_NULL_TRACKER, SGRT_SET_OR, SGRT_NULL_NODESET, false),
              SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_nodeset_from_changes(s, todo, t, (sgrt_set_op)3, visible, false),
              SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_nodeset_clear(other, visible), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_nodeset_create(NULL, &foreign), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_nodeset_create(s, NULL), SGRT_ERR_INVALID_ARG);
    CHECK_EQ_U(sgrt_nodeset_count(other, visible), 0);
    uint32_t cur = 0;
    CHECK_EQ_U(sgrt_nodeset_next(other, visible, &cur).id, 0);
    CHECK_EQ_U(sgrt_nodeset_next(s, visible, NULL).id, 0);
    CHECK(sgrt_nodeset_words(other, visible, NULL) == NULL);

    /* Destroying another scene's set, or NULL, is refused: nothing is freed
     * by either scene, and every set still works in its own scene. */
    sgrt_node on;
    CHECK_RES(sgrt_node_create(other, SGRT_NULL_NODE, &on), SGRT_OK);
    CHECK_RES(sgrt_nodeset_add(other, foreign, on), SGRT_OK);
    CHECK_RES(sgrt_nodeset_add(s, visible, n[4]), SGRT_OK);
    const uint64_t s_frees = sa.frees, o_frees = oa.frees;
    CHECK_RES(sgrt_nodeset_destroy(s, foreign), SGRT_ERR_INVALID_ARG);
    OK(sgrt_nodeset_destroy(s, SGRT_NULL_NODESET));
    CHECK_RES(sgrt_nodeset_destroy(NULL, visible), SGRT_ERR_INVALID_ARG);
    CHECK_EQ_U(sa.frees, s_frees);
    CHECK_EQ_U(oa.frees, o_frees);
    check_alloc(&sa);
    check_alloc(&oa);
    CHECK(sgrt_nodeset_has(other, foreign, on));
    CHECK_EQ_U(sgrt_nodeset_count(other, foreign), 1);
    CHECK_RES(sgrt_nodeset_remove(other, foreign, on), SGRT_OK);
    CHECK_EQ_U(sgrt_nodeset_count(other, foreign), 0);
    CHECK(sgrt_nodeset_has(s, visible, n[4]));
    CHECK_EQ_U(sgrt_nodeset_count(s, visible), 1);
    CHECK_RES(sgrt_nodeset_combine(s, todo, visible, SGRT_SET_OR, visible), SGRT_OK);
    CHECK_EQ_U(sgrt_nodeset_count(s, todo), 1);
    check_scene(s);
    check_scene(other);

    /* A set destroyed by its scene goes back to that scene's allocator. */
    OK(sgrt_nodeset_destroy(other, foreign));
    CHECK(oa.frees > o_frees);
    end_scene_alloc(other, &oa);
    end_scene_alloc(s, &sa);
}

/* Membership follows nodes whose storage moves, and a destroyed node's slot
 * reused by a new node carries no membership. */
static void test_follow(void)
{
    sgrt_scene *s = NULL;
    CHECK_RES(sgrt_scene_create(NULL, &s), SGRT_OK);
    sgrt_nodeset set = SGRT_NULL_NODESET;
    CHECK_RES(sgrt_nodeset_create(s, &set), SGRT_OK);
    sgrt_node a, b, c, late;
    CHECK_RES(sgrt_node_create(s, SGRT_NULL_NODE, &a), SGRT_OK);
    CHECK_RES(sgrt_node_create(s, a, &b), SGRT_OK);
    CHECK_RES(sgrt_node_create(s, b, &c), SGRT_OK);
    CHECK_RES(sgrt_node_create(s, SGRT_NULL_NODE, &late), SGRT_OK);
    CHECK_RES(sgrt_nodeset_add(s, set, b), SGRT_OK);
    CHECK_RES(sgrt_nodeset_add(s, set, c), SGRT_OK);
    const uint32_t old_b = slot_of(s, b), old_c = slot_of(s, c);
    CHECK_RES(sgrt_node_set_parent(s, b, late, SGRT_KEEP_LOCAL), SGRT_OK);
    CHECK(slot_of(s, b) != old_b && slot_of(s, c) != old_c);
    CHECK(sgrt_nodeset_has(s, set, b) && sgrt_nodeset_has(s, set, c));
    CHECK(!sgrt_nodeset_has(s, set, a) && !sgrt_nodeset_has(s, set, late));
    CHECK_EQ_U(sgrt_nodeset_count(s, set), 2);
    /* The vacated slots take new nodes that are not members. */
    sgrt_node x, y;
    CHECK_RES(sgrt_node_create(s, a, &x), SGRT_OK);
    CHECK_RES(sgrt_node_create(s, x, &y), SGRT_OK);
    CHECK(!sgrt_nodeset_has(s, set, x) && !sgrt_nodeset_has(s, set, y));
    CHECK_EQ_U(sgrt_nodeset_count(s, set), 2);

    CHECK_RES(sgrt_scene_compact(s), SGRT_OK);
    CHECK(sgrt_nodeset_has(s, set, b) && sgrt_nodeset_has(s, set, c));
    CHECK_EQ_U(sgrt_nodeset_count(s, set), 2);

    CHECK_RES(sgrt_node_destroy(s, c), SGRT_OK);
    CHECK_EQ_U(sgrt_nodeset_count(s, set), 1);
    /* Growth keeps members. */
    for (int i = 0; i < 500; i++) {
        sgrt_node z;
        CHECK_RES(sgrt_node_create(s, b, &z), SGRT_OK);
        CHECK(!sgrt_nodeset_has(s, set, z));
        if (i % 7 == 0)
            CHECK_RES(sgrt_nodeset_add(s, set, z), SGRT_OK);
    }
    CHECK_EQ_U(sgrt_nodeset_count(s, set), 1u + 72u);
    CHECK(sgrt_nodeset_has(s, set, b));
    sgrt_scene_destroy(s);
}

int main(void)
{
    test_follow();
    test_visible_changes();
    test_random(7, 5000);
    test_random(8, 5000);
    test_random(0xBADC0DE, 5000);
    return test_report("nodeset");
}
