/* Node storage: max_nodes (SGRT_ERR_CAPACITY changes nothing, and
 * re-parenting, which adds no node, still works when full, even when the
 * storage must move) and reserve (creating up to the reserved count does not
 * allocate). */
#include "refmodel.h"
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

int main(void)
{
    test_max_nodes();
    test_reserve();
    return test_report("test_storage");
}
