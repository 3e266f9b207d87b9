/* SPDX-License-Identifier: MIT */
/* Node storage: max_nodes (SGRT_ERR_CAPACITY changes nothing, and
 * re-parenting, which adds no node, still works when full, even when the
 * storage must move) and reserve (creating up to the reserved count does not
 * allocate). */
#include "internal.h" /* sgrt__storage_grown_cap, SGRT__MAX_SLOTS */
#include "scene.h"
#include "storage.h"
#include "lib/refmodel.h"
#include "testutil.h"

static rng R = {0x9E3779B97F4A7C15ull};

#define CAP 40u

/* Every rejected call is compared against a snapshot taken before it; the
 * model predicts what the next update must recompute, so pending work is
 * covered too. */
static void test_max_nodes(void)
{
    sgrt_scene_desc d;
    memset(&d, 0, sizeof d);
    d.max_nodes = CAP;
    sgrt_scene *s = NULL;
    REQUIRE_RES(sgrt_scene_create(&d, &s), SGRT_OK);
    ref_model *m = ref_model_create();

    /* A few trees of mixed shape: chains, bushes. */
    sgrt_node h[CAP + 8];
    uint32_t nh = 0;
    for (uint32_t i = 0; i < CAP; i++) {
        sgrt_node parent = SGRT_NULL_NODE;
        if (i % 7 != 0)
            parent = h[i % 3 == 0 ? i - 1 : rng_below(&R, i)];
        REQUIRE_RES(sgrt_node_create(s, parent, &h[nh]), SGRT_OK);
        ref_model_add(m, h[nh].id, parent.id);
        nh++;
    }
    REQUIRE(sgrt_scene_update(s) == ref_model_update(m));

    /* Leave pending work so the comparison covers dirty state. */
    float moved[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 3, 4, 5, 1};
    REQUIRE_RES(sgrt_node_set_local(s, h[5], moved), SGRT_OK);
    ref_model_set_local(m, h[5].id, moved);

    snapshot before;
    snapshot_take(s, h, nh, &before);

    const sgrt_node sentinel = {0xDEADBEEFu};
    sgrt_node out = sentinel;
    REQUIRE_RES(sgrt_node_create(s, SGRT_NULL_NODE, &out), SGRT_ERR_CAPACITY);
    REQUIRE(out.id == sentinel.id);
    REQUIRE_RES(sgrt_node_create(s, h[3], &out), SGRT_ERR_CAPACITY);
    REQUIRE(out.id == sentinel.id);
    REQUIRE_RES(sgrt_scene_reserve(s, CAP + 1u), SGRT_ERR_CAPACITY);
    REQUIRE_RES(sgrt_scene_reserve(s, UINT32_MAX), SGRT_ERR_CAPACITY);
    REQUIRE_RES(sgrt_scene_reserve(s, CAP), SGRT_OK);
    /* A stale parent is still a stale handle, whatever the capacity. */
    REQUIRE_RES(sgrt_node_create(s, sentinel, &out), SGRT_ERR_STALE_HANDLE);
    REQUIRE(out.id == sentinel.id);

    check_unchanged(s, &before, h, "calls refused at max_nodes");
    snapshot_free(&before);
    check_scene_where(s, "after CAPACITY");
    REQUIRE(sgrt_scene_node_count(s) == CAP);
    REQUIRE(sgrt_scene_update(s) == ref_model_update(m));

    /* Re-parenting does not add nodes, so it works at capacity, including
     * when the subtree has to move to slots after its new parent (the last
     * node created sits in the highest slot). */
    REQUIRE_RES(sgrt_node_set_parent(s, h[0], h[CAP - 1], SGRT_KEEP_LOCAL),
             ref_model_is_ancestor_or_self(m, h[0].id, h[CAP - 1].id) ? SGRT_ERR_CYCLE
                                                                       : SGRT_OK);
    if (!ref_model_is_ancestor_or_self(m, h[0].id, h[CAP - 1].id))
        ref_model_set_parent(m, h[0].id, h[CAP - 1].id);
    REQUIRE_RES(sgrt_node_set_parent(s, h[1], SGRT_NULL_NODE, SGRT_KEEP_LOCAL), SGRT_OK);
    ref_model_set_parent(m, h[1].id, 0);
    check_scene_where(s, "re-parent at capacity");
    REQUIRE(sgrt_scene_update(s) == ref_model_update(m));

    /* Freeing k nodes admits exactly k more. */
    uint32_t victim = h[7].id;
    const uint32_t k = ref_model_subtree_size(m, victim);
    REQUIRE_RES(sgrt_node_destroy(s, h[7]), SGRT_OK);
    ref_model_remove(m, victim, NULL);
    REQUIRE(sgrt_scene_node_count(s) == CAP - k);
    nh = 0;
    for (uint32_t i = 0; i < ref_model_count(m); i++)
        h[nh++].id = ref_model_nth(m, i);
    for (uint32_t i = 0; i < k; i++) {
        REQUIRE_RES(sgrt_node_create(s, h[i % nh], &out), SGRT_OK);
        ref_model_add(m, out.id, h[i % nh].id);
    }
    REQUIRE(sgrt_scene_node_count(s) == CAP);
    REQUIRE_RES(sgrt_node_create(s, SGRT_NULL_NODE, &out), SGRT_ERR_CAPACITY);
    REQUIRE_RES(sgrt_scene_compact(s), SGRT_OK);
    REQUIRE_RES(sgrt_node_create(s, SGRT_NULL_NODE, &out), SGRT_ERR_CAPACITY);
    check_scene_where(s, "refill");
    REQUIRE(sgrt_scene_update(s) == ref_model_update(m));
    ref_model_destroy(m);
    sgrt_scene_destroy(s);

    /* The smallest scene. */
    d.max_nodes = 1;
    REQUIRE_RES(sgrt_scene_create(&d, &s), SGRT_OK);
    sgrt_node a, b;
    REQUIRE_RES(sgrt_node_create(s, SGRT_NULL_NODE, &a), SGRT_OK);
    REQUIRE_RES(sgrt_node_create(s, a, &b), SGRT_ERR_CAPACITY);
    REQUIRE_RES(sgrt_node_destroy(s, a), SGRT_OK);
    REQUIRE_RES(sgrt_node_create(s, SGRT_NULL_NODE, &b), SGRT_OK);
    REQUIRE(b.id != a.id);
    REQUIRE(sgrt_scene_update(s) == 1);
    check_scene_where(s, "max_nodes = 1");
    sgrt_scene_destroy(s);
}

/* After sgrt_scene_reserve(n), creating up to n nodes does not allocate. */
static void test_reserve(void)
{
    enum { N = 5000 };
    test_alloc c;
    sgrt_scene *s = new_scene_alloc(&c);
    OK(sgrt_scene_reserve(s, N));
    const uint64_t a0 = c.calls;
    sgrt_node *n = malloc(N * sizeof *n);
    for (int i = 0; i < N; i++)
        OK(sgrt_node_create(s, i % 10 < 3 ? SGRT_NULL_NODE : n[i - 1 - (i % 3)], &n[i]));
    CHECK_EQ_U(c.calls, a0);
    CHECK_EQ_U(sgrt_scene_update(s), N);
    CHECK_EQ_U(c.calls, a0);
    free(n);
    end_scene_alloc(s, &c);
}

/* Growth is geometric from any capacity up to the slot limit: from a
 * capacity that is not a power of two, the step past half the limit goes to
 * the limit, not 32 slots at a time (each step copying gigabytes). */
static void test_growth_policy(void)
{
    const uint32_t caps[] = {64, 96, 10000000u - 10000000u % 32u, 12345664u,
                             SGRT__MAX_SLOTS / 2u + 32u, SGRT__MAX_SLOTS - 32u};
    for (size_t i = 0; i < sizeof caps / sizeof caps[0]; i++) {
        const uint32_t cap = caps[i];
        const uint32_t next = sgrt__storage_grown_cap(cap, (uint64_t)cap + 1u);
        const uint64_t doubled = (uint64_t)cap * 2u;
        CHECK_EQ_U(next, doubled < SGRT__MAX_SLOTS ? doubled : SGRT__MAX_SLOTS);
        CHECK(next % 32u == 0);
        /* Steps to the limit: O(log), whatever the start. */
        uint32_t c = cap, steps = 0;
        while (c < SGRT__MAX_SLOTS && steps < 64) {
            c = sgrt__storage_grown_cap(c, (uint64_t)c + 1u);
            steps++;
        }
        CHECK(c == SGRT__MAX_SLOTS && steps <= 20);
    }
    CHECK_EQ_U(sgrt__storage_grown_cap(0, 1), 64); /* the smallest storage */
    CHECK_EQ_U(sgrt__storage_grown_cap(64, (uint64_t)SGRT__MAX_SLOTS + 1u), 0);
    CHECK_EQ_U(sgrt__storage_grown_cap(64, 1000), 1024);
}

/* Every size is computed without wrapping: a request too large for the
 * address space fails with NOMEM or CAPACITY and changes nothing, and no
 * allocation the library asks for is shorter than the arrays it needs (on
 * 32-bit targets the storage of ~26 M slots used to wrap size_t). */
typedef struct size_probe {
    test_alloc ta;       /* gives the small blocks */
    size_t smallest_big; /* the smallest request >= 1 MiB, or SIZE_MAX */
} size_probe;

static void *probe_alloc(size_t size, size_t align, void *user)
{
    size_probe *p = user;
    if (size < (1u << 20))
        return test_alloc_alloc(size, align, &p->ta);
    if (size < p->smallest_big)
        p->smallest_big = size;
    return NULL; /* never give the big block: only the request matters */
}

static void probe_free(void *ptr, size_t size, void *user)
{
    test_alloc_free(ptr, size, &((size_probe *)user)->ta);
}

static void test_size_overflow(void)
{
    /* Every capacity growth can reach: the block is at least the 128 bytes
     * per slot of the two matrix arrays, or refused (0) where size_t is too
     * narrow; never a wrapped, short size. */
    for (uint32_t cap = 32; cap <= SGRT__MAX_SLOTS && cap != 0; cap = cap < (1u << 20) ? cap * 2u : cap + (1u << 20)) {
        const size_t bytes = sgrt__storage_bytes(cap);
        CHECK(bytes == 0 || (uint64_t)bytes >= (uint64_t)cap * 128u);
        if (sizeof(size_t) >= 8)
            CHECK(bytes != 0);
    }
    CHECK(sizeof(size_t) >= 8 || sgrt__storage_bytes(SGRT__MAX_SLOTS) == 0);

    static size_probe p;
    memset(&p, 0, sizeof p);
    const sgrt_allocator a = {probe_alloc, probe_free, &p};
    sgrt_scene_desc d;
    memset(&d, 0, sizeof d);
    d.allocator = &a;
    sgrt_scene *s = new_scene_desc(&d);
    sgrt_node n;
    OK(sgrt_node_create(s, SGRT_NULL_NODE, &n));
    const uint32_t counts[] = {2000000u, 16000000u, SGRT_MAX_NODES};
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
        p.smallest_big = SIZE_MAX;
        const sgrt_result r = sgrt_scene_reserve(s, counts[i]);
        CHECK(r == SGRT_ERR_NOMEM || r == SGRT_ERR_CAPACITY);
        /* The local and world arrays alone take 128 bytes per slot. */
        if (p.smallest_big != SIZE_MAX)
            CHECK((uint64_t)p.smallest_big >= (uint64_t)counts[i] * 128u);
        CHECK_EQ_U(sgrt_scene_node_count(s), 1);
        CHECK(sgrt_node_alive(s, n));
        check_scene(s);
    }
    sgrt_scene_destroy(s);
    check_alloc_at(&p.ta, true, __FILE__, __LINE__);
    test_alloc_release(&p.ta);
}

/* ---- slots bounded by live nodes -------------------------------------------- */

/* Slots in use after any call: at most twice the live nodes plus the
 * documented slack. */
static void check_slot_bound(const sgrt_scene *s, uint32_t *max_slots, const char *pattern,
                             uint32_t step)
{
    const uint32_t slots = slots_in_use(s), live = sgrt_scene_node_count(s);
    if (slots > *max_slots)
        *max_slots = slots;
    CHECK_MSG(slots <= 2u * live + SGRT__HOLE_SLACK,
              "%s, step %u: %u slots in use for %u live nodes", pattern, step, slots, live);
}

/* Two live nodes, each in turn moved under the other (it is stored after
 * it) and back to the roots: every move used to leave a hole no later node
 * could use, until 2^25 slots and SGRT_ERR_CAPACITY. */
static void test_churn_pingpong(void)
{
    enum { STEPS = 300000 };
    test_alloc c;
    sgrt_scene *s = new_scene_alloc(&c);
    sgrt_node n[2];
    OK(sgrt_node_create(s, SGRT_NULL_NODE, &n[0]));
    OK(sgrt_node_create(s, SGRT_NULL_NODE, &n[1]));
    uint32_t max_slots = 0;
    size_t max_bytes = 0;
    for (uint32_t i = 0; i < STEPS; i++) {
        uint32_t s0, s1;
        OK(sgrt_node_slot(s, n[0], &s0));
        OK(sgrt_node_slot(s, n[1], &s1));
        const int lo = s0 < s1 ? 0 : 1;
        REQUIRE_RES(sgrt_node_set_parent(s, n[lo], n[1 - lo], SGRT_KEEP_LOCAL), SGRT_OK);
        REQUIRE_RES(sgrt_node_set_parent(s, n[lo], SGRT_NULL_NODE, SGRT_KEEP_LOCAL), SGRT_OK);
        check_slot_bound(s, &max_slots, "ping-pong", i);
        if (c.live_bytes > max_bytes)
            max_bytes = c.live_bytes;
    }
    check_scene(s);
    CHECK_EQ_U(sgrt_scene_update(s), 2);
    printf("ping-pong: %u moves, 2 live nodes: at most %u slots in use, %zu bytes allocated\n",
           2u * STEPS, max_slots, max_bytes);
    CHECK(max_bytes <= sgrt__storage_bytes(4096) + 65536u);
    end_scene_alloc(s, &c);
}

/* Create under the newest node, detach the new node, destroy the old one:
 * two live nodes, each new one stored after the last. */
static void test_churn_detach_newest(void)
{
    enum { STEPS = 300000 };
    test_alloc c;
    sgrt_scene *s = new_scene_alloc(&c);
    sgrt_node keep, last;
    OK(sgrt_node_create(s, SGRT_NULL_NODE, &keep));
    OK(sgrt_node_create(s, SGRT_NULL_NODE, &last));
    uint32_t max_slots = 0;
    size_t max_bytes = 0;
    for (uint32_t i = 0; i < STEPS; i++) {
        sgrt_node n;
        REQUIRE_RES(sgrt_node_create(s, last, &n), SGRT_OK);
        REQUIRE_RES(sgrt_node_set_parent(s, n, SGRT_NULL_NODE, SGRT_KEEP_LOCAL), SGRT_OK);
        REQUIRE_RES(sgrt_node_destroy(s, last), SGRT_OK);
        last = n;
        check_slot_bound(s, &max_slots, "detach newest", i);
        if (c.live_bytes > max_bytes)
            max_bytes = c.live_bytes;
    }
    check_scene(s);
    CHECK(sgrt_node_alive(s, keep) && sgrt_node_alive(s, last));
    printf("detach newest: %u creates, 2 live nodes: at most %u slots in use, %zu bytes "
           "allocated\n", (unsigned)STEPS, max_slots, max_bytes);
    CHECK(max_bytes <= sgrt__storage_bytes(4096) + 65536u);
    end_scene_alloc(s, &c);
}

/* Most nodes destroyed: the slots stay bounded at once (destroy reclaims in
 * place, without allocating), and sgrt_scene_compact gives the memory back
 * down to what sgrt_scene_reserve asked for. */
static void test_mass_destroy_and_compact(void)
{
    enum { N = 200000 };
    test_alloc c;
    sgrt_scene *s = new_scene_alloc(&c);
    sgrt_node *n = malloc(N * sizeof *n);
    REQUIRE(n != NULL);
    for (uint32_t i = 0; i < N; i++)
        OK(sgrt_node_create(s, i % 4u ? n[i - 1u] : SGRT_NULL_NODE, &n[i]));
    CHECK_EQ_U(sgrt_scene_update(s), N);
    uint32_t max_slots = 0;
    /* Every root but the first and the last, from the front. */
    const uint64_t calls0 = c.calls;
    for (uint32_t i = 4; i + 4u < N; i += 4u) {
        OK(sgrt_node_destroy(s, n[i]));
        check_slot_bound(s, &max_slots, "mass destroy", i);
    }
    CHECK_EQ_U(c.calls, calls0); /* destroy never allocates */
    CHECK_EQ_U(sgrt_scene_node_count(s), 8);
    check_scene(s);
    /* Survivors keep their worlds and their order. */
    float w[16];
    OK(sgrt_node_world(s, n[N - 1u], w));
    CHECK(w[0] == 1.0f && w[12] == 0.0f);
    const size_t before = c.live_bytes;
    OK(sgrt_scene_compact(s));
    const size_t after = c.live_bytes;
    printf("mass destroy: %u -> 8 live nodes, at most %u slots in use; compact: %zu -> %zu "
           "bytes allocated\n", (unsigned)N, max_slots, before, after);
    CHECK(after < before / 8u);
    CHECK(after <= sgrt__storage_bytes(SGRT__DEFAULT_CAPACITY) + 16u * (size_t)N);
    /* reserve sets a floor that compaction keeps. */
    OK(sgrt_scene_reserve(s, 50000));
    const size_t reserved = c.live_bytes;
    OK(sgrt_scene_compact(s));
    CHECK(c.live_bytes >= reserved - 64u * 1024u);
    const uint64_t calls1 = c.calls;
    for (uint32_t i = 0; i < 40000; i++)
        OK(sgrt_node_create(s, SGRT_NULL_NODE, &n[i]));
    CHECK_EQ_U(c.calls, calls1);
    check_scene(s);
    free(n);
    end_scene_alloc(s, &c);
}

/* Reclamation keeps everything observable: handles, links, locals, worlds
 * (of the last update and now), pending work, user values and node set
 * membership; only slots change. Reclaiming as soon as holes outnumber live
 * nodes, on random programs. */
static void test_reclaim_keeps_state(void)
{
    enum { N = 3000, STEPS = 4000 };
    sgrt_scene *s = new_scene();
    sgrt__scene_set_hole_slack(s, 0);
    sgrt_nodeset set;
    OK(sgrt_nodeset_create(s, &set));
    sgrt_node *h = malloc(N * sizeof *h);
    bool *member = calloc(N, sizeof *member);
    uint32_t *slot = malloc(N * sizeof *slot);
    REQUIRE(h && member && slot);
    uint32_t n = 0, reclaims = 0;
    for (uint32_t step = 0; step < STEPS; step++) {
        /* Phases of growth and of shrinking, so that holes pile up. */
        const bool shrink = (step / 500u) % 2u == 1u;
        uint32_t op = rng_below(&R, 10);
        if (shrink && op < 6)
            op = 8; /* destroy */
        uint32_t j = n;
        if (n == N) /* every entry used: create into a dead one */
            for (uint32_t t = 0, i = rng_below(&R, N); t < N && j == n; t++, i = (i + 1u) % N)
                if (!sgrt_node_alive(s, h[i]))
                    j = i;
        if (j < N && (sgrt_scene_node_count(s) < 50 || (!shrink && op < 5))) {
            sgrt_node p = n && rng_below(&R, 4) == 0 ? h[rng_below(&R, n)] : SGRT_NULL_NODE;
            if (!sgrt_node_alive(s, p))
                p = SGRT_NULL_NODE;
            REQUIRE_RES(sgrt_node_create(s, p, &h[j]), SGRT_OK);
            float m[16];
            random_affine(&R, m);
            OK(sgrt_node_set_local(s, h[j], m));
            OK(sgrt_node_set_user(s, h[j], 0x1234500000000000ull + j));
            member[j] = rng_below(&R, 2) != 0;
            if (member[j])
                OK(sgrt_nodeset_add(s, set, h[j]));
            if (j == n)
                n++;
            continue;
        }
        if (op == 9)
            (void)sgrt_scene_update(s);
        snapshot before;
        snapshot_take(s, h, n, &before);
        const uint32_t a = rng_below(&R, n), b = rng_below(&R, n);
        sgrt_node victim = SGRT_NULL_NODE;
        if (op < 7) {
            /* the node stored first under the other */
            uint32_t sa, sb;
            if (sgrt_node_slot(s, h[a], &sa) != SGRT_OK || sgrt_node_slot(s, h[b], &sb) != SGRT_OK)
                goto next;
            const sgrt_node lo = sa < sb ? h[a] : h[b], hi = sa < sb ? h[b] : h[a];
            const sgrt_result r = sgrt_node_set_parent(s, lo, hi, SGRT_KEEP_LOCAL);
            CHECK(r == SGRT_OK || r == SGRT_ERR_CYCLE || r == SGRT_ERR_STALE_HANDLE);
            if (r == SGRT_OK) { /* the model: move back (KEEP_LOCAL), then compare */
                OK(sgrt_node_set_parent(s, lo, before.nodes[sa < sb ? a : b].parent_pos ==
                                                       UINT32_MAX
                                                   ? SGRT_NULL_NODE
                                                   : h[before.nodes[sa < sb ? a : b].parent_pos],
                                        SGRT_KEEP_LOCAL));
            }
        } else {
            /* a live node, found through a random slot */
            const uint32_t slots = slots_in_use(s);
            for (int t = 0; t < 16 && !victim.id && slots; t++)
                victim = sgrt_scene_slot_node(s, rng_below(&R, slots));
            if (!victim.id)
                goto next;
            /* a destroy: compare the others after it */
            for (uint32_t i = 0; i < n; i++)
                slot[i] = sgrt_node_alive(s, h[i]) ? slot_of(s, h[i]) : UINT32_MAX;
            OK(sgrt_node_destroy(s, victim));
            /* A destroy moves a surviving node only when it reclaims holes. */
            bool moved = false;
            for (uint32_t i = 0; i < n && !moved; i++)
                moved = sgrt_node_alive(s, h[i]) && slot_of(s, h[i]) != slot[i];
            reclaims += moved;
        }
        {
            /* Moved away and back, or another subtree destroyed: every
             * surviving node has the same parent, local, world of the last
             * update and world now (pending work kept). */
            snapshot now;
            snapshot_take(s, h, n, &now);
            const char *diff = NULL;
            for (uint32_t i = 0; i < n && !diff; i++) {
                const snap_node *x = &before.nodes[i], *y = &now.nodes[i];
                if (!y->alive)
                    continue;
                if (!x->alive || x->parent != y->parent ||
                    memcmp(x->local, y->local, sizeof x->local) != 0 ||
                    memcmp(x->world, y->world, sizeof x->world) != 0 ||
                    memcmp(x->world_now, y->world_now, sizeof x->world_now) != 0)
                    diff = victim.id ? "a surviving node changed across a destroy"
                                     : "a node changed across a move and back";
            }
            CHECK_MSG(diff == NULL, "step %u: %s", step, diff);
            snapshot_free(&now);
        }
        for (uint32_t i = 0; i < n; i++) {
            if (!sgrt_node_alive(s, h[i]))
                continue;
            uint64_t u = 0;
            OK(sgrt_node_user(s, h[i], &u));
            CHECK_EQ_U(u, 0x1234500000000000ull + i);
            CHECK(sgrt_nodeset_has(s, set, h[i]) == member[i]);
        }
    next:
        snapshot_free(&before);
        if (step % 256 == 0)
            check_scene(s);
    }
    check_scene(s);
    printf("reclaim: %u steps, %u destroys that reclaimed holes\n", (unsigned)STEPS, reclaims);
    CHECK(reclaims > 0);
    free(h);
    free(member);
    free(slot);
    sgrt_scene_destroy(s);
}

int main(void)
{
    test_churn_pingpong();
    test_churn_detach_newest();
    test_mass_destroy_and_compact();
    test_reclaim_keeps_state();
    test_growth_policy();
    test_size_overflow();
    test_max_nodes();
    test_reserve();
    return test_report("test_storage");
}
