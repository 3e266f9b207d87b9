/* SPDX-License-Identifier: MIT */
/* Promises at scale: slots bounded by live nodes under churn, memory given
 * back by compaction, geometric growth from an odd capacity, and deep chains
 * in O(d). The default run uses sizes the whole suite can afford (every
 * build, sanitizers and emulators included); `test_scale --full` is CI's
 * scale stage (release build): a million live nodes, a million-deep chain.
 * Times are printed as figures, never asserted. */
#include "internal.h" /* SGRT__HOLE_SLACK, sgrt__storage_bytes */
#include "storage.h"
#include "testutil.h"

#include <time.h>

static rng R = {0x5CA1E5CA1Eull};

static double seconds(void) { return (double)clock() / (double)CLOCKS_PER_SEC; }

/* A random tree of n nodes (each parent created before its child). */
static sgrt_node *random_tree(sgrt_scene *s, uint32_t n)
{
    sgrt_node *h = malloc((size_t)n * sizeof *h);
    if (!h) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    for (uint32_t i = 0; i < n; i++) {
        const sgrt_node p = i && rng_below(&R, 64) ? h[rng_below(&R, i)] : SGRT_NULL_NODE;
        if (sgrt_node_create(s, p, &h[i]) != SGRT_OK) {
            fprintf(stderr, "create %u failed\n", i);
            exit(2);
        }
    }
    return h;
}

/* The most slots in use and bytes allocated seen, and how many calls left
 * more slots than 2 x live + the slack. */
typedef struct bounds {
    uint32_t max_slots, over;
    size_t max_bytes;
} bounds;

static void note_bounds(const sgrt_scene *s, const test_alloc *c, bounds *b)
{
    const uint32_t slots = slots_in_use(s), live = sgrt_scene_node_count(s);
    if (slots > b->max_slots)
        b->max_slots = slots;
    b->over += slots > 2u * live + SGRT__HOLE_SLACK;
    if (c->live_bytes > b->max_bytes)
        b->max_bytes = c->live_bytes;
}

/* Churn among n live nodes: two of them in turn moved under each other and
 * back (every move leaves a hole below both), then rounds of "create under
 * the newest, detach it, destroy the old one". Slots in use stay within
 * 2 x live + 1,024 after every call. */
static void test_churn(uint32_t n, uint32_t moves)
{
    test_alloc c;
    sgrt_scene *s = new_scene_alloc(&c);
    sgrt_node *h = random_tree(s, n);
    (void)sgrt_scene_update(s);
    const size_t bytes0 = c.live_bytes;
    /* Two roots created last: stored after everything else. */
    sgrt_node a, nb;
    OK(sgrt_node_create(s, SGRT_NULL_NODE, &a));
    OK(sgrt_node_create(s, SGRT_NULL_NODE, &nb));
    bounds b = {0, 0, 0};
    const double t0 = seconds();
    for (uint32_t i = 0; i < moves; i++) {
        uint32_t sa, sb;
        OK(sgrt_node_slot(s, a, &sa));
        OK(sgrt_node_slot(s, nb, &sb));
        const sgrt_node lo = sa < sb ? a : nb, hi = sa < sb ? nb : a;
        REQUIRE_RES(sgrt_node_set_parent(s, lo, hi, SGRT_KEEP_LOCAL), SGRT_OK);
        REQUIRE_RES(sgrt_node_set_parent(s, lo, SGRT_NULL_NODE, SGRT_KEEP_LOCAL), SGRT_OK);
        note_bounds(s, &c, &b);
    }
    const double t1 = seconds();
    sgrt_node last = nb;
    for (uint32_t i = 0; i < moves / 2u; i++) {
        sgrt_node x;
        REQUIRE_RES(sgrt_node_create(s, last, &x), SGRT_OK);
        REQUIRE_RES(sgrt_node_set_parent(s, x, SGRT_NULL_NODE, SGRT_KEEP_LOCAL), SGRT_OK);
        REQUIRE_RES(sgrt_node_destroy(s, last), SGRT_OK);
        last = x;
        note_bounds(s, &c, &b);
    }
    const double t2 = seconds();
    CHECK_EQ_U(b.over, 0);
    check_scene(s);
    CHECK_EQ_U(sgrt_scene_node_count(s), n + 2u);
    /* Memory stays within one doubling of what the live nodes needed. */
    CHECK(b.max_bytes <= 2u * bytes0 + sgrt__storage_bytes(4096));
    printf("churn among %u live nodes: %u ping-pong moves (%.0f ns each), %u detach-newest "
           "rounds (%.0f ns each): at most %u slots in use (bound %u), %.1f MB allocated at "
           "most (%.1f MB after building)\n",
           n + 2u, 2u * moves, (t1 - t0) * 1e9 / (2.0 * moves), moves / 2u,
           (t2 - t1) * 1e9 / (moves / 2u), b.max_slots, 2u * (n + 2u) + SGRT__HOLE_SLACK,
           (double)b.max_bytes / 1e6, (double)bytes0 / 1e6);
    free(h);
    end_scene_alloc(s, &c);
}

/* Destroy all but a few nodes: slots bounded at once, compaction gives the
 * memory back. */
static void test_shrink(uint32_t n)
{
    test_alloc c;
    sgrt_scene *s = new_scene_alloc(&c);
    sgrt_node *h = random_tree(s, n);
    uint32_t roots = 0;
    for (uint32_t i = 0; i < n; i++) {
        sgrt_node p;
        OK(sgrt_node_parent(s, h[i], &p));
        roots += p.id == 0;
    }
    const size_t full = c.live_bytes;
    const uint64_t calls0 = c.calls;
    /* Every root but the last (and its subtree). */
    sgrt_node keep = SGRT_NULL_NODE;
    for (uint32_t i = n; i-- > 0;) {
        sgrt_node p;
        if (sgrt_node_alive(s, h[i]) && sgrt_node_parent(s, h[i], &p) == SGRT_OK && !p.id) {
            if (!keep.id)
                keep = h[i];
            else
                OK(sgrt_node_destroy(s, h[i]));
        }
    }
    CHECK_EQ_U(c.calls, calls0);
    const uint32_t live = sgrt_scene_node_count(s), slots = slots_in_use(s);
    CHECK(slots <= 2u * live + SGRT__HOLE_SLACK);
    check_scene(s);
    OK(sgrt_scene_compact(s));
    const size_t after = c.live_bytes;
    CHECK(after < full / 4u);
    check_scene(s);
    printf("shrink: %u nodes (%u roots) -> %u live: %u slots in use; compact: %.1f MB -> %.1f MB "
           "allocated\n",
           n, roots, live, slots, (double)full / 1e6, (double)after / 1e6);
    free(h);
    end_scene_alloc(s, &c);
}

/* From a capacity that is not a power of two, growth is geometric: each
 * reallocation at least doubles. */
static void test_growth(uint32_t initial, uint32_t n)
{
    test_alloc c;
    memset(&c, 0, sizeof c);
    sgrt_scene_desc d;
    memset(&d, 0, sizeof d);
    const sgrt_allocator al = test_alloc_hooks(&c);
    d.allocator = &al;
    d.initial_capacity = initial;
    sgrt_scene *s = new_scene_desc(&d);
    size_t last = c.live_bytes;
    uint32_t steps = 0;
    uint64_t copied = 0;
    const double t0 = seconds();
    for (uint32_t i = 0; i < n; i++) {
        sgrt_node x;
        REQUIRE_RES(sgrt_node_create(s, SGRT_NULL_NODE, &x), SGRT_OK);
        if (c.live_bytes > last + last / 2u) { /* storage grew */
            steps++;
            copied += i;
            last = c.live_bytes;
        }
    }
    const double t1 = seconds();
    /* initial -> 2 x initial -> 4 x ...: ceil(log2(n / initial)) steps. */
    uint32_t expect = 0;
    for (uint64_t cap = initial; cap < n; cap *= 2u)
        expect++;
    CHECK_EQ_U(steps, expect);
    printf("growth from initial_capacity %u to %u nodes: %u reallocations, %.2f slots copied per "
           "node, %.0f ns per create\n",
           initial, n, steps, (double)copied / n, (t1 - t0) * 1e9 / n);
    sgrt_scene_destroy(s);
    test_alloc_release(&c);
}

/* A chain d deep: the update, world_now of the deepest node and keep-world
 * re-parenting at depth are all O(d) (they were O(d^2)). The results are
 * checked against each other: world_now of a clean node equals its world;
 * a keep-world move keeps the world within the documented tolerance. */
static void test_deep_chain(uint32_t d)
{
    sgrt_scene *s = new_scene();
    sgrt_node *h = malloc((size_t)d * sizeof *h);
    REQUIRE(h != NULL);
    /* Small rotations and translations: the product stays well scaled. */
    for (uint32_t i = 0; i < d; i++) {
        REQUIRE_RES(sgrt_node_create(s, i ? h[i - 1u] : SGRT_NULL_NODE, &h[i]), SGRT_OK);
        const float t[3] = {1e-3f, 0, 0}, q[4] = {0, 0, 0.0005f, 0.99999988f}, sc[3] = {1, 1, 1};
        OK(sgrt_node_set_trs(s, h[i], t, q, sc));
    }
    double t0 = seconds();
    CHECK_EQ_U(sgrt_scene_update(s), d);
    const double t_update = seconds() - t0;
    float w[16], now[16];
    OK(sgrt_node_world(s, h[d - 1u], w));
    t0 = seconds();
    OK(sgrt_node_world_now(s, h[d - 1u], now));
    const double t_now = seconds() - t0;
    CHECK(memcmp(w, now, sizeof w) == 0);
    /* The deepest node under the root, keeping its world. */
    t0 = seconds();
    OK(sgrt_node_set_parent(s, h[d - 1u], h[0], SGRT_KEEP_WORLD));
    const double t_keep = seconds() - t0;
    /* A node half-way down, moved to a new root stored after it (a
     * relocation of half the chain), keeping its world. */
    sgrt_node r;
    OK(sgrt_node_create(s, SGRT_NULL_NODE, &r));
    float mid[16];
    OK(sgrt_node_world_now(s, h[d / 2u], mid));
    t0 = seconds();
    OK(sgrt_node_set_parent(s, h[d / 2u], r, SGRT_KEEP_WORLD));
    const double t_reloc = seconds() - t0;
    (void)sgrt_scene_update(s);
    float got[16];
    OK(sgrt_node_world(s, h[d - 1u], got));
    for (int k = 0; k < 16; k++)
        CHECK(fabsf(got[k] - w[k]) <= 1e-3f * fmaxf(1.0f, fabsf(w[k])));
    OK(sgrt_node_world(s, h[d / 2u], got));
    for (int k = 0; k < 16; k++)
        CHECK(fabsf(got[k] - mid[k]) <= 1e-3f * fmaxf(1.0f, fabsf(mid[k])));
    check_scene(s);
    printf("chain %u deep: update %.1f ms, world_now of the deepest %.1f ms, keep-world "
           "re-parent of the deepest %.1f ms, of the middle node with relocation %.1f ms\n",
           d, t_update * 1e3, t_now * 1e3, t_keep * 1e3, t_reloc * 1e3);
    free(h);
    sgrt_scene_destroy(s);
}

int main(int argc, char **argv)
{
    const bool full = argc > 1 && strcmp(argv[1], "--full") == 0;
    if (argc > 1 && !full) {
        fprintf(stderr, "usage: test_scale [--full]\n");
        return 2;
    }
    printf("test_scale: %s sizes, kernel %s\n", full ? "full" : "default", sgrt_simd_name());
    test_churn(full ? 1000000u : 20000u, full ? 1000000u : 100000u);
    test_churn(2u, full ? 1000000u : 100000u);
    test_shrink(full ? 2000000u : 50000u);
    test_growth(full ? 2500000u : 10000u, full ? 6000000u : 50000u);
    test_deep_chain(full ? 1000000u : 50000u);
    return test_report("test_scale");
}
