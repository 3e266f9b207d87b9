/* SPDX-License-Identifier: MIT */
/* Change trackers and the world-array hand-off.
 *
 * The main test is a renderer in miniature: random scene edits, updates and
 * collects by several trackers at their own pace, each tracker keeping a
 * mirror of the world array that it updates only through the ranges it
 * collects. After a full drain a mirror must equal the scene's world array on
 * every live slot and know which node each slot holds. Beside that, each
 * tracker's pending set is modelled exactly (the slots the update recomputes
 * are read from the dirty bits before the update, white-box) so that
 * over-reporting fails too. */
#include "internal.h"
#include "dirty.h"
#include "follow.h"
#include "scene.h"
#include "testutil.h"
#include <stdlib.h>

/* ---- small deterministic scenes ------------------------------------------- */

static void test_handoff_basics(void)
{
    sgrt_scene *s = new_scene();
    uint32_t count = 99;
    CHECK(sgrt_scene_world_array(NULL, &count) == NULL);
    CHECK_EQ_U(count, 0);
    CHECK(sgrt_scene_world_array(s, &count) != NULL);
    CHECK_EQ_U(count, 0);

    sgrt_node a, b, c;
    CHECK_RES(sgrt_node_create(s, SGRT_NULL_NODE, &a), SGRT_OK);
    CHECK_RES(sgrt_node_create(s, a, &b), SGRT_OK);
    CHECK_RES(sgrt_node_create(s, b, &c), SGRT_OK);
    set_translation(s, a, 1, 2, 3);
    set_translation(s, c, 10, 0, 0);
    sgrt_scene_update(s);

    const float *wa = sgrt_scene_world_array(s, &count);
    CHECK_EQ_U(count, 3);
    CHECK(((uintptr_t)wa & 63u) == 0);
    const sgrt_node nodes[3] = {a, b, c};
    for (int i = 0; i < 3; i++) {
        const uint32_t slot = slot_of(s, nodes[i]);
        CHECK(slot < count);
        CHECK_EQ_U(sgrt_scene_slot_node(s, slot).id, nodes[i].id);
        float w[16];
        CHECK_RES(sgrt_node_world(s, nodes[i], w), SGRT_OK);
        CHECK(memcmp(w, wa + 16u * slot, sizeof w) == 0);
    }
    CHECK(wa[16u * slot_of(s, c) + 12] == 11.0f);
    CHECK(((uintptr_t)(wa + 16u * slot_of(s, c)) & 63u) == 0);

    /* User values: 0 on a new node, travel with the node, refused when stale. */
    uint64_t u = 7;
    CHECK_RES(sgrt_node_user(s, c, &u), SGRT_OK);
    CHECK_EQ_U(u, 0);
    CHECK_RES(sgrt_node_set_user(s, c, 0xDEADBEEF00112233ull), SGRT_OK);
    CHECK_RES(sgrt_node_set_user(s, a, 5), SGRT_OK);
    /* Re-parent c under a later root: its storage moves. */
    sgrt_node d;
    CHECK_RES(sgrt_node_create(s, SGRT_NULL_NODE, &d), SGRT_OK);
    const uint32_t before = slot_of(s, c);
    CHECK_RES(sgrt_node_set_parent(s, c, d, SGRT_KEEP_LOCAL), SGRT_OK);
    CHECK(slot_of(s, c) != before);
    CHECK(slot_of(s, c) > slot_of(s, d));
    CHECK_RES(sgrt_node_user(s, c, &u), SGRT_OK);
    CHECK_EQ_U(u, 0xDEADBEEF00112233ull);
    CHECK_RES(sgrt_scene_compact(s), SGRT_OK);
    CHECK_RES(sgrt_node_user(s, c, &u), SGRT_OK);
    CHECK_EQ_U(u, 0xDEADBEEF00112233ull);
    CHECK_RES(sgrt_node_user(s, a, &u), SGRT_OK);
    CHECK_EQ_U(u, 5);
    CHECK_EQ_U(sgrt_scene_slot_node(s, slot_of(s, c)).id, c.id);

    CHECK_RES(sgrt_node_destroy(s, b), SGRT_OK);
    CHECK_RES(sgrt_node_user(s, b, &u), SGRT_ERR_STALE_HANDLE);
    CHECK_RES(sgrt_node_set_user(s, b, 1), SGRT_ERR_STALE_HANDLE);
    uint32_t slot = 0;
    CHECK_RES(sgrt_node_slot(s, b, &slot), SGRT_ERR_STALE_HANDLE);
    CHECK_RES(sgrt_node_slot(s, a, NULL), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_node_slot(NULL, a, &slot), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_node_user(s, a, NULL), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_node_set_user(NULL, a, 1), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_node_user(s, SGRT_NULL_NODE, &u), SGRT_ERR_STALE_HANDLE);
    CHECK_EQ_U(sgrt_scene_slot_node(s, 1000000u).id, 0);
    CHECK_EQ_U(sgrt_scene_slot_node(NULL, 0).id, 0);
    sgrt_scene_world_array(s, &count);
    uint32_t live = 0;
    for (uint32_t i = 0; i < count; i++)
        live += sgrt_scene_slot_node(s, i).id != 0;
    CHECK_EQ_U(live, sgrt_scene_node_count(s));
    sgrt_scene_destroy(s);
}

/* Collect everything into a pending-bool array; returns the range count. */
static uint32_t collect_all(sgrt_scene *s, sgrt_tracker t, bool *pending, uint32_t n,
                            uint32_t gap)
{
    sgrt_range r[256];
    const uint32_t got = test_collect(s, t, r, 256, gap, NULL);
    memset(pending, 0, n * sizeof *pending);
    for (uint32_t i = 0; i < got; i++)
        for (uint32_t j = 0; j < r[i].count; j++)
            if (r[i].first + j < n)
                pending[r[i].first + j] = true;
    return got;
}

static void test_ranges(void)
{
    sgrt_scene *s = new_scene();
    enum { N = 100 };
    sgrt_node roots[N];
    for (int i = 0; i < N; i++)
        CHECK_RES(sgrt_node_create(s, SGRT_NULL_NODE, &roots[i]), SGRT_OK);
    for (int i = 0; i < N; i++)
        CHECK_EQ_U(slot_of(s, roots[i]), i); /* roots append in order */

    sgrt_tracker t = SGRT_NULL_TRACKER;
    CHECK_RES(sgrt_tracker_create(s, &t), SGRT_OK);
    /* A new tracker has seen nothing: all of [0, slot count). */
    sgrt_range r[8];
    CHECK_EQ_U(test_collect(s, t, r, 8, 0, NULL), 1);
    CHECK_EQ_U(r[0].first, 0);
    CHECK_EQ_U(r[0].count, N);
    CHECK_EQ_U(test_collect(s, t, r, 8, 0, NULL), 0);
    sgrt_scene_update(s); /* the creations: all recomputed */
    CHECK_EQ_U(test_collect(s, t, r, 8, 0, NULL), 1);
    CHECK_EQ_U(r[0].count, N);
    CHECK_EQ_U(sgrt_scene_update(s), 0);
    CHECK_EQ_U(test_collect(s, t, r, 8, 0, NULL), 0);

    /* Changed slots 0, 2, 5, 31, 32, 40: word boundaries and gaps. */
    const int moved[] = {0, 2, 5, 31, 32, 40};
    struct {
        uint32_t gap, n;
        sgrt_range want[6];
    } cases[] = {
        {0, 5, {{0, 1}, {2, 1}, {5, 1}, {31, 2}, {40, 1}}},
        {1, 4, {{0, 3}, {5, 1}, {31, 2}, {40, 1}}},
        {2, 3, {{0, 6}, {31, 2}, {40, 1}}},
        {7, 2, {{0, 6}, {31, 10}}},
        {25, 1, {{0, 41}}},
        {1000, 1, {{0, 41}}},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        for (size_t i = 0; i < sizeof moved / sizeof moved[0]; i++)
            set_translation(s, roots[moved[i]], (float)c + 1.0f, 0, 0);
        CHECK_EQ_U(sgrt_scene_update(s), 6);
        CHECK_EQ_U(test_collect(s, t, r, 8, cases[c].gap, NULL), cases[c].n);
        for (uint32_t i = 0; i < cases[c].n; i++) {
            CHECK_EQ_U(r[i].first, cases[c].want[i].first);
            CHECK_EQ_U(r[i].count, cases[c].want[i].count);
        }
        CHECK_EQ_U(test_collect(s, t, r, 8, cases[c].gap, NULL), 0);
    }

    /* max_ranges too small: max ranges and "more", the rest stays; max 0
     * only asks. */
    for (size_t i = 0; i < sizeof moved / sizeof moved[0]; i++)
        set_translation(s, roots[moved[i]], 100.0f, 0, 0);
    sgrt_scene_update(s);
    bool more = false;
    CHECK_EQ_U(test_collect(s, t, NULL, 0, 0, &more), 0);
    CHECK(more);
    CHECK_EQ_U(test_collect(s, t, NULL, 0, 0, &more), 0);
    CHECK(more);
    CHECK_EQ_U(test_collect(s, t, r, 2, 0, &more), 2);
    CHECK(more);
    CHECK_EQ_U(r[0].first, 0);
    CHECK_EQ_U(r[1].first, 2);
    CHECK_EQ_U(test_collect(s, t, r, 2, 0, &more), 2);
    CHECK(more);
    CHECK_EQ_U(r[0].first, 5);
    CHECK_EQ_U(r[1].first, 31);
    CHECK_EQ_U(r[1].count, 2);
    CHECK_EQ_U(test_collect(s, t, r, 2, 0, &more), 1);
    CHECK(!more);
    CHECK_EQ_U(r[0].first, 40);
    CHECK_EQ_U(test_collect(s, t, NULL, 0, 0, NULL), 0);
    CHECK_EQ_U(test_collect(s, t, r, UINT32_MAX, 0, NULL), 0);
    /* Exactly full: the ranges fit, nothing more. */
    set_translation(s, roots[moved[0]], 1.0f, 0, 0);
    set_translation(s, roots[moved[2]], 1.0f, 0, 0);
    sgrt_scene_update(s);
    CHECK_EQ_U(test_collect(s, t, r, 2, 0, NULL), 2);

    /* A second tracker sees the same changes whatever the first collects. */
    sgrt_tracker t2 = SGRT_NULL_TRACKER;
    CHECK_RES(sgrt_tracker_create(s, &t2), SGRT_OK);
    bool p[N];
    CHECK_EQ_U(collect_all(s, t2, p, N, 0), 1);
    set_translation(s, roots[7], 1, 1, 1);
    sgrt_scene_update(s);
    CHECK_EQ_U(collect_all(s, t, p, N, 0), 1);
    CHECK(p[7]);
    set_translation(s, roots[9], 1, 1, 1);
    sgrt_scene_update(s);
    CHECK_EQ_U(collect_all(s, t2, p, N, 0), 2);
    CHECK(p[7] && p[9] && !p[8]);
    CHECK_EQ_U(collect_all(s, t, p, N, 0), 1);
    CHECK(p[9] && !p[7]);

    /* Destroying the last nodes shrinks the slot count: their slots are dropped. */
    for (int i = 90; i < N; i++)
        CHECK_RES(sgrt_node_destroy(s, roots[i]), SGRT_OK);
    uint32_t count = 0;
    sgrt_scene_world_array(s, &count);
    CHECK_EQ_U(count, 90);
    CHECK_EQ_U(test_collect(s, t, r, 8, 0, NULL), 0);
    /* A destroyed node below the slot count is reported. */
    CHECK_RES(sgrt_node_destroy(s, roots[50]), SGRT_OK);
    CHECK_EQ_U(test_collect(s, t, r, 8, 0, NULL), 1);
    CHECK_EQ_U(r[0].first, 50);
    CHECK_EQ_U(r[0].count, 1);

    /* Bad arguments: refused, with 0 ranges and nothing more written. */
    sgrt_scene *other = new_scene();
    uint32_t got = 7;
    more = true;
    CHECK_RES(sgrt_tracker_collect(other, t, r, 8, 0, &got, &more), SGRT_ERR_INVALID_ARG);
    CHECK(got == 0 && !more);
    CHECK_RES(sgrt_tracker_destroy(other, t), SGRT_ERR_INVALID_ARG); /* not its tracker */
    CHECK_RES(sgrt_tracker_collect(s, SGRT_NULL_TRACKER, r, 8, 0, &got, &more), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_tracker_collect(NULL, t, r, 8, 0, &got, &more), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_tracker_create(NULL, &t), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_tracker_create(s, NULL), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_tracker_destroy(s, SGRT_NULL_TRACKER), SGRT_OK);
    sgrt_scene_destroy(other);

    set_translation(s, roots[3], 5, 5, 5);
    sgrt_scene_update(s);
    CHECK_RES(sgrt_tracker_collect(s, SGRT_NULL_TRACKER, NULL, 0, 0, &got, &more), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_tracker_collect(s, t, NULL, 1, 0, &got, &more), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_tracker_collect(s, t, r, 8, 0, NULL, &more), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_tracker_collect(s, t, r, 8, 0, &got, NULL), SGRT_ERR_INVALID_ARG);
    CHECK_EQ_U(test_collect(s, t, r, 8, 0, NULL), 1); /* still pending */
    CHECK_EQ_U(r[0].first, 3);
    OK(sgrt_tracker_destroy(s, t));
    /* t2 still works after t is gone. */
    CHECK_EQ_U(test_collect(s, t2, r, 8, 0, NULL), 2); /* 3 and 50; 90..99 dropped */
    CHECK_EQ_U(r[0].first, 3);
    CHECK_EQ_U(r[1].first, 50);
    sgrt_scene_destroy(s); /* frees t2 */
}

/* ---- the randomized renderer-in-miniature ---------------------------------- */

#define MAX_NODES 700u
#define NT 3

typedef struct mirror {
    sgrt_tracker t;
    bool *expect;     /* modelled pending slots */
    float (*world)[16];
    uint32_t *node;   /* node id the mirror believes each slot holds */
    bool lenient;     /* compacted since the last drain: exact set not modelled */
    uint32_t cap;
} mirror;

static sgrt_node live[MAX_NODES * 2];
static uint32_t live_n;

static void mirror_grow(mirror *m, uint32_t need)
{
    if (need <= m->cap)
        return;
    uint32_t cap = m->cap ? m->cap : 64u;
    while (cap < need)
        cap *= 2u;
    m->expect = realloc(m->expect, cap * sizeof *m->expect);
    m->world = realloc(m->world, cap * sizeof *m->world);
    m->node = realloc(m->node, cap * sizeof *m->node);
    memset(m->expect + m->cap, 0, (cap - m->cap) * sizeof *m->expect);
    memset(m->node + m->cap, 0, (cap - m->cap) * sizeof *m->node);
    m->cap = cap;
}

static void expect_slot(mirror *ms, uint32_t slot)
{
    for (int k = 0; k < NT; k++) {
        mirror_grow(&ms[k], slot + 1u);
        ms[k].expect[slot] = true;
    }
}

static void tracker_new(sgrt_scene *s, mirror *m)
{
    CHECK_RES(sgrt_tracker_create(s, &m->t), SGRT_OK);
    uint32_t count;
    sgrt_scene_world_array(s, &count);
    mirror_grow(m, count + 1u);
    memset(m->expect, 0, m->cap * sizeof *m->expect);
    for (uint32_t i = 0; i < count; i++)
        m->expect[i] = true;
    m->lenient = false;
}

/* Subtree of n in pre-order, by walking the public links. */
static uint32_t subtree(const sgrt_scene *s, sgrt_node n, sgrt_node *out)
{
    uint32_t k = 0;
    out[k++] = n;
    for (uint32_t i = 0; i < k; i++) {
        sgrt_node c;
        CHECK_RES(sgrt_node_first_child(s, out[i], &c), SGRT_OK);
        while (c.id) {
            out[k++] = c;
            CHECK_RES(sgrt_node_next_sibling(s, c, &c), SGRT_OK);
        }
    }
    return k;
}

static void do_collect(sgrt_scene *s, mirror *m, rng *r)
{
    uint32_t count;
    const float *wa = sgrt_scene_world_array(s, &count);
    mirror_grow(m, count + 1u);
    const uint32_t max = rng_below(r, 4) == 0 ? 1u + rng_below(r, 3) : 64u;
    const uint32_t gap = rng_below(r, 3) == 0 ? 0u : rng_below(r, 40);
    sgrt_range out[64];
    bool drained = false;
    for (int round = 0; round < 1000 && !drained; round++) {
        bool more;
        const uint32_t n = test_collect(s, m->t, out, max, gap, &more);
        drained = !more;
        uint32_t prev_end = 0;
        for (uint32_t i = 0; i < n; i++) {
            const sgrt_range g = out[i];
            CHECK(g.count > 0);
            CHECK(g.first + g.count <= count);
            if (i)
                CHECK(g.first - prev_end > gap);
            if (g.count == 0 || g.first + g.count > count)
                return;
            /* Runs begin and end on changed slots; unchanged runs inside are bridged gaps. */
            CHECK(m->lenient || m->expect[g.first]);
            CHECK(m->lenient || m->expect[g.first + g.count - 1u]);
            uint32_t hole = 0;
            for (uint32_t j = g.first; j < g.first + g.count; j++) {
                hole = m->expect[j] ? 0u : hole + 1u;
                CHECK(m->lenient || hole <= gap);
                m->expect[j] = false;
                memcpy(m->world[j], wa + 16u * j, sizeof m->world[j]);
                m->node[j] = sgrt_scene_slot_node(s, j).id;
            }
            /* Nothing pending was skipped before this range. */
            for (uint32_t j = prev_end; j < g.first; j++) {
                CHECK(m->lenient || !m->expect[j]);
                m->expect[j] = false;
            }
            prev_end = g.first + g.count;
        }
        if (drained) {
            for (uint32_t j = prev_end; j < m->cap; j++) {
                if (j < count)
                    CHECK(m->lenient || !m->expect[j]);
                m->expect[j] = false; /* past the slot count: dropped */
            }
        }
    }
    CHECK(drained);
    m->lenient = false;
    /* The mirror is now what a GPU buffer fed only by ranges would hold. */
    for (uint32_t j = 0; j < count; j++) {
        const sgrt_node n = sgrt_scene_slot_node(s, j);
        CHECK_EQ_U(m->node[j], n.id);
        if (n.id)
            CHECK(memcmp(m->world[j], wa + 16u * j, sizeof m->world[j]) == 0);
    }
}

static void do_update(sgrt_scene *s, mirror *ms)
{
    /* The slots the update recomputes: the dirty ones once the closure pass
     * has marked what lies below moved nodes (white-box). */
    sgrt__dirty_close(s);
    uint32_t expected = 0;
    for (uint32_t w = 0; w < s->st.words; w++)
        for (uint32_t b = s->st.dirty[w]; b; b &= b - 1u, expected++)
            expect_slot(ms, w * 32u + sgrt__ctz32(b));
    CHECK_EQ_U(sgrt_scene_update(s), expected);
}

/* Slots of every live node before a call that may move nodes (relocation,
 * hole reclamation); after it, both slots of each node that moved. */
static uint32_t all_before[MAX_NODES * 2];

static void remember_slots(const sgrt_scene *s)
{
    for (uint32_t i = 0; i < live_n; i++)
        all_before[i] = slot_of(s, live[i]);
}

static void expect_moved(const sgrt_scene *s, mirror *ms)
{
    for (uint32_t i = 0; i < live_n; i++) {
        uint32_t now;
        if (sgrt_node_slot(s, live[i], &now) == SGRT_OK && now != all_before[i]) {
            expect_slot(ms, all_before[i]);
            expect_slot(ms, now);
        }
    }
}

/* eager: reclaim holes as soon as they outnumber live nodes. */
static void test_random(uint64_t seed, int steps, bool eager)
{
    rng r = {seed};
    sgrt_scene *s = new_scene();
    if (eager)
        sgrt__scene_set_hole_slack(s, 0);
    mirror ms[NT];
    memset(ms, 0, sizeof ms);
    live_n = 0;
    for (int k = 0; k < NT; k++)
        tracker_new(s, &ms[k]);
    static sgrt_node sub[MAX_NODES * 2];

    for (int step = 0; step < steps; step++) {
        const uint32_t op = rng_below(&r, 100);
        if (op < 30 || live_n < 8) {
            if (live_n >= MAX_NODES)
                continue;
            sgrt_node parent = SGRT_NULL_NODE, n;
            if (live_n && rng_below(&r, 8))
                parent = live[rng_below(&r, live_n)];
            CHECK_RES(sgrt_node_create(s, parent, &n), SGRT_OK);
            live[live_n++] = n;
            expect_slot(ms, slot_of(s, n));
        } else if (op < 58) {
            set_translation(s, live[rng_below(&r, live_n)], rng_float(&r, -5, 5), 0, 1);
        } else if (op < 64) {
            const sgrt_node n = live[rng_below(&r, live_n)];
            const uint32_t k = subtree(s, n, sub);
            for (uint32_t i = 0; i < k; i++)
                expect_slot(ms, slot_of(s, sub[i]));
            remember_slots(s);
            CHECK_RES(sgrt_node_destroy(s, n), SGRT_OK);
            expect_moved(s, ms);
            live_n = drop_dead(s, live, live_n, NULL);
        } else if (op < 74) {
            const sgrt_node n = live[rng_below(&r, live_n)];
            const sgrt_node p = rng_below(&r, 6) ? live[rng_below(&r, live_n)] : SGRT_NULL_NODE;
            remember_slots(s);
            const bool relocating = p.id && slot_of(s, p) > slot_of(s, n);
            const uint32_t k = relocating ? subtree(s, n, sub) : 0u;
            static uint32_t sub_before[MAX_NODES * 2];
            for (uint32_t i = 0; i < k; i++)
                sub_before[i] = slot_of(s, sub[i]);
            const sgrt_result res = sgrt_node_set_parent(s, n, p, SGRT_KEEP_LOCAL);
            CHECK(res == SGRT_OK || res == SGRT_ERR_CYCLE);
            expect_moved(s, ms);
            /* A relocation and a reclamation in one call: every relocated
             * node left its slot, even one moved back into it. A relocation
             * leaves the node's old slot empty below its parent, so packed
             * slots after it mean that the call reclaimed holes. */
            if (res == SGRT_OK && k && slots_packed(s))
                for (uint32_t i = 0; i < k; i++)
                    expect_slot(ms, sub_before[i]);
        } else if (op < 75) {
            /* Compaction reports moved slots, and may report every old and
             * new live slot: only the mirror is checked until the next drain. */
            for (int k = 0; k < NT; k++)
                ms[k].lenient = true;
            uint32_t count;
            sgrt_scene_world_array(s, &count);
            for (uint32_t j = 0; j < count; j++)
                if (sgrt_scene_slot_node(s, j).id)
                    expect_slot(ms, j);
            CHECK_RES(sgrt_scene_compact(s), SGRT_OK);
            sgrt_scene_world_array(s, &count);
            for (uint32_t j = 0; j < count; j++)
                if (sgrt_scene_slot_node(s, j).id)
                    expect_slot(ms, j);
        } else if (op < 87) {
            do_update(s, ms);
        } else if (op < 99) {
            do_collect(s, &ms[rng_below(&r, NT)], &r);
        } else {
            mirror *m = &ms[rng_below(&r, NT)];
            OK(sgrt_tracker_destroy(s, m->t));
            tracker_new(s, m);
        }
        if (step % 64 == 0) {
            const char *broken = sgrt__follow_check(s);
            for (int k = 0; k < NT && !broken; k++)
                if (ms[k].t.id && sgrt_tracker_check(s, ms[k].t, &broken) != SGRT_OK && !broken)
                    broken = "sgrt_tracker_check";
            CHECK(broken == NULL);
            if (broken)
                fprintf(stderr, "step %d: %s\n", step, broken);
        }
    }
    do_update(s, ms);
    for (int k = 0; k < NT; k++)
        do_collect(s, &ms[k], &r);
    const char *what = NULL;
    CHECK_RES(sgrt_scene_check(s, &what), SGRT_OK);
    sgrt_scene_destroy(s);
    for (int k = 0; k < NT; k++) {
        free(ms[k].expect);
        free(ms[k].world);
        free(ms[k].node);
    }
}

/* ---- allocation failure ------------------------------------------------------ */

static void test_nomem(void)
{
    /* Sweep the failure point over: scene, 2 trackers, a node set, growth. */
    for (uint64_t fail_at = 0; fail_at < 40; fail_at++) {
        test_alloc f;
        sgrt_scene *s = new_scene_alloc(&f);
        /* fail_at more allocations succeed, then all fail */
        f.fail_from = f.calls + fail_at + 1u;
        sgrt_tracker t1 = SGRT_NULL_TRACKER, t2 = SGRT_NULL_TRACKER;
        sgrt_nodeset set = SGRT_NULL_NODESET;
        sgrt_result r1 = sgrt_tracker_create(s, &t1);
        sgrt_result r2 = sgrt_nodeset_create(s, &set);
        sgrt_result r3 = sgrt_tracker_create(s, &t2);
        CHECK(r1 == SGRT_OK || r1 == SGRT_ERR_NOMEM);
        CHECK(r2 == SGRT_OK || r2 == SGRT_ERR_NOMEM);
        CHECK(r3 == SGRT_OK || r3 == SGRT_ERR_NOMEM);
        uint32_t made = 0;
        sgrt_result rc = SGRT_OK;
        for (int i = 0; i < 300 && rc == SGRT_OK; i++) {
            sgrt_node n;
            rc = sgrt_node_create(s, SGRT_NULL_NODE, &n);
            CHECK(rc == SGRT_OK || rc == SGRT_ERR_NOMEM);
            if (rc == SGRT_OK)
                made++;
        }
        CHECK_EQ_U(sgrt_scene_node_count(s), made);
        CHECK_RES(sgrt_scene_check(s, NULL), SGRT_OK);
        CHECK(sgrt__follow_check(s) == NULL);
        f.fail_from = 0;
        /* Whatever was created still works and sees every node. */
        sgrt_scene_update(s);
        sgrt_tracker ts[2] = {r1 == SGRT_OK ? t1 : SGRT_NULL_TRACKER,
                              r3 == SGRT_OK ? t2 : SGRT_NULL_TRACKER};
        for (int k = 0; k < 2; k++) {
            if (!ts[k].id)
                continue;
            sgrt_range rg[4];
            CHECK_EQ_U(test_collect(s, ts[k], rg, 4, 0, NULL), made ? 1 : 0);
            if (made) {
                CHECK_EQ_U(rg[0].first, 0);
                CHECK_EQ_U(rg[0].count, made);
            }
        }
        if (r2 == SGRT_OK && made) {
            CHECK_RES(sgrt_nodeset_add(s, set, sgrt_scene_slot_node(s, made - 1u)), SGRT_OK);
            CHECK_EQ_U(sgrt_nodeset_count(s, set), 1);
        }
        if (r1 == SGRT_OK)
            OK(sgrt_tracker_destroy(s, t1));
        sgrt_scene_destroy(s);
        check_alloc_empty(&f);
        test_alloc_release(&f);
    }
}

/* Many trackers and node sets, destroyed in a scrambled order: the others
 * keep receiving changes and members. */
static void test_many(void)
{
    sgrt_scene *s = new_scene();
    enum { K = 9 };
    sgrt_tracker t[K];
    sgrt_nodeset sets[K];
    for (int i = 0; i < K; i++) {
        CHECK_RES(sgrt_tracker_create(s, &t[i]), SGRT_OK);
        CHECK_RES(sgrt_nodeset_create(s, &sets[i]), SGRT_OK);
    }
    sgrt_node n[40];
    for (int i = 0; i < 40; i++)
        CHECK_RES(sgrt_node_create(s, SGRT_NULL_NODE, &n[i]), SGRT_OK);
    for (int i = 0; i < K; i++)
        CHECK_RES(sgrt_nodeset_add(s, sets[i], n[i]), SGRT_OK);
    sgrt_scene_update(s);
    sgrt_range r[4];
    for (int i = 0; i < K; i++)
        CHECK_EQ_U(test_collect(s, t[i], r, 4, 0, NULL), 1);
    const int order[K] = {4, 0, 8, 2, 6, 1, 7, 3, 5};
    bool t_gone[K] = {false}, set_gone[K] = {false};
    for (int step = 0; step < 2 * K; step++) {
        const int d = order[step / 2];
        if (step % 2) {
            OK(sgrt_nodeset_destroy(s, sets[d]));
            set_gone[d] = true;
        } else {
            OK(sgrt_tracker_destroy(s, t[d]));
            t_gone[d] = true;
        }
        set_translation(s, n[10 + step], 3, 3, 3);
        CHECK_EQ_U(sgrt_scene_update(s), 1);
        for (int i = 0; i < K; i++) {
            if (!t_gone[i]) {
                CHECK_EQ_U(test_collect(s, t[i], r, 4, 0, NULL), 1);
                CHECK_EQ_U(r[0].first, slot_of(s, n[10 + step]));
                CHECK_EQ_U(r[0].count, 1);
            }
            if (!set_gone[i]) {
                CHECK(sgrt_nodeset_has(s, sets[i], n[i]));
                CHECK_EQ_U(sgrt_nodeset_count(s, sets[i]), 1);
            }
        }
    }
    sgrt_scene_destroy(s);
}

int main(void)
{
    test_handoff_basics();
    test_ranges();
    test_random(1, 6000, false);
    test_random(2, 6000, false);
    test_random(0xC0FFEE, 6000, false);
    test_random(3, 6000, true);
    test_random(4, 6000, true);
    test_nomem();
    test_many();
    return test_report("tracker");
}
