/* SPDX-License-Identifier: MIT */
/* sgrt_node_set_world: a node placed in world space now.
 *
 *  - a root's local becomes m itself: its world after the update is m, bit
 *    for bit;
 *  - under random affine parents (deep chains, parents moved but not yet
 *    updated), the world after the update matches m within the keep-world
 *    tolerance (2^-12 x max(1, largest |entry| of m's column)), and equals
 *    sgrt_node_world_now taken right after the call, on every kernel level;
 *  - singular, non-finite and badly sheared parents are refused with
 *    SGRT_ERR_SINGULAR and nothing changes; NULL arguments, non-finite m and
 *    stale handles too, with set_local's errors;
 *  - marking is set_local's: a bit-identical local marks nothing, otherwise
 *    the node's subtree is recomputed; nothing allocates. */
#include "testutil.h"

static rng R = {0x5E7C0DEull};

/* A random target: affine, translation up to 200 units. */
static void random_target(float m[16])
{
    random_affine(&R, m);
    for (int i = 12; i < 15; i++)
        m[i] = rng_float(&R, -200.0f, 200.0f);
}

static sgrt_scene *scene_at_level(uint32_t level)
{
    sgrt_scene_desc d;
    memset(&d, 0, sizeof d);
    d.max_simd = (sgrt_simd)level;
    return new_scene_desc(&d);
}

/* Roots: local = m exactly, world after the update = m bit for bit. */
static void test_roots(void)
{
    sgrt_scene *s = new_scene();
    sgrt_node n, c;
    OK(sgrt_node_create(s, SGRT_NULL_NODE, &n));
    OK(sgrt_node_create(s, n, &c));
    for (int i = 0; i < 200; i++) {
        float m[16], got[16];
        random_target(m);
        if (i % 7 == 0)
            m[3] = rng_float(&R, -1.0f, 1.0f); /* projective entries are kept too */
        OK(sgrt_node_set_world(s, n, m));
        OK(sgrt_node_local(s, n, got));
        CHECK(memcmp(got, m, sizeof m) == 0);
        OK(sgrt_node_world_now(s, n, got));
        CHECK(memcmp(got, m, sizeof m) == 0);
        CHECK_EQ_U(sgrt_scene_update(s), 2); /* the node and its child */
        OK(sgrt_node_world(s, n, got));
        CHECK(memcmp(got, m, sizeof m) == 0);
        /* The same world again: a bit-identical local marks nothing. */
        OK(sgrt_node_set_world(s, n, m));
        CHECK_EQ_U(sgrt_scene_update(s), 0);
    }
    check_scene(s);
    sgrt_scene_destroy(s);
}

/* Chains of random affine nodes; the target node anywhere in them, its
 * ancestors sometimes moved since the last update. */
static void test_random_parents(uint32_t level)
{
    enum { DEPTH = 10 };
    for (int trial = 0; trial < 60; trial++) {
        sgrt_scene *s = scene_at_level(level);
        sgrt_node chain[DEPTH], leaf;
        for (int d = 0; d < DEPTH; d++) {
            OK(sgrt_node_create(s, d ? chain[d - 1] : SGRT_NULL_NODE, &chain[d]));
            float l[16];
            random_affine(&R, l);
            OK(sgrt_node_set_local(s, chain[d], l));
        }
        OK(sgrt_node_create(s, chain[DEPTH - 1], &leaf));
        sgrt_scene_update(s);
        const int at = 1 + (int)rng_below(&R, DEPTH - 1);
        if (trial % 3 == 0) {
            /* An ancestor moved and not updated: set_world must see it. */
            float l[16];
            random_affine(&R, l);
            OK(sgrt_node_set_local(s, chain[rng_below(&R, (uint32_t)at)], l));
        }
        float m[16], now[16], got[16];
        random_target(m);
        const sgrt_result r = sgrt_node_set_world(s, chain[at], m);
        CHECK_MSG(r == SGRT_OK, "level %u trial %d: set_world under a well-conditioned parent "
                  "returned %s", (unsigned)level, trial, sgrt_result_str(r));
        OK(sgrt_node_world_now(s, chain[at], now));
        sgrt_scene_update(s);
        OK(sgrt_node_world(s, chain[at], got));
        CHECK(memcmp(now, got, sizeof got) == 0);
        const double miss = column_miss(got, m);
        CHECK_MSG(miss <= 1.0, "level %u trial %d (depth %d): the world misses m by %.3g x the "
                  "tolerance", (unsigned)level, trial, at, miss);
        check_scene(s);
        sgrt_scene_destroy(s);
    }
}

/* Marks like set_local: the subtree below is recomputed. */
static void test_marks(void)
{
    sgrt_scene *s = new_scene();
    sgrt_node a, b, c, d;
    OK(sgrt_node_create(s, SGRT_NULL_NODE, &a));
    OK(sgrt_node_create(s, a, &b));
    OK(sgrt_node_create(s, b, &c));
    OK(sgrt_node_create(s, b, &d));
    float l[16];
    random_affine(&R, l);
    OK(sgrt_node_set_local(s, a, l));
    CHECK_EQ_U(sgrt_scene_update(s), 4);
    float m[16];
    random_target(m);
    OK(sgrt_node_set_world(s, b, m));
    CHECK_EQ_U(sgrt_scene_update(s), 3); /* b, c, d */
    OK(sgrt_node_set_world(s, c, m));
    CHECK_EQ_U(sgrt_scene_update(s), 1); /* a leaf */
    check_scene(s);
    sgrt_scene_destroy(s);
}

/* Parents without a usable inverse: refused, nothing changed. */
static void test_refused_parents(void)
{
    test_alloc ta;
    sgrt_scene *s = new_scene_alloc(&ta);
    sgrt_node zero, flat, big, bigger, sheared, n[5];
    OK(sgrt_node_create(s, SGRT_NULL_NODE, &zero));
    OK(sgrt_node_create(s, SGRT_NULL_NODE, &flat));
    OK(sgrt_node_create(s, SGRT_NULL_NODE, &big));
    OK(sgrt_node_create(s, big, &bigger));
    OK(sgrt_node_create(s, SGRT_NULL_NODE, &sheared));
    const sgrt_node parents[5] = {zero, flat, bigger, sheared, sheared};
    for (int i = 0; i < 5; i++)
        OK(sgrt_node_create(s, parents[i], &n[i]));
    const float z[16] = {0};
    OK(sgrt_node_set_local(s, zero, z));
    float l[16];
    random_affine(&R, l);
    l[8] = l[9] = l[10] = 0.0f; /* z axis squashed: determinant exactly 0 */
    OK(sgrt_node_set_local(s, flat, l));
    const float huge[16] = {1e30f, 0, 0, 0, 0, 1e30f, 0, 0, 0, 0, 1e30f, 0, 0, 0, 0, 1};
    OK(sgrt_node_set_local(s, big, huge));
    OK(sgrt_node_set_local(s, bigger, huge)); /* world overflows: Inf */
    /* The y axis leans onto the x axis, 4e-6 apart: the new local's rounding
     * to float would move the world by whole units. */
    const float shear[16] = {1, 0, 0, 0, 1, 4e-6f, 0, 0, 0, 0, 1, 0, 3, -2, 1, 1};
    OK(sgrt_node_set_local(s, sheared, shear));
    for (int i = 0; i < 5; i++) {
        random_affine(&R, l);
        OK(sgrt_node_set_local(s, n[i], l));
    }
    sgrt_scene_update(s);
    const sgrt_node all[10] = {zero, flat, big, bigger, sheared, n[0], n[1], n[2], n[3], n[4]};
    snapshot before;
    snapshot_take(s, all, 10, &before);
    const uint64_t calls = ta.calls;
    for (int i = 0; i < 5; i++) {
        float m[16];
        random_target(m);
        if (i >= 3) { /* far out, where the shear amplifies the rounding */
            m[12] = i == 3 ? 150.0f : -80.0f;
            m[13] = i == 3 ? -120.0f : 190.0f;
        }
        const sgrt_result r = sgrt_node_set_world(s, n[i], m);
        CHECK_MSG(r == SGRT_ERR_SINGULAR, "parent %d: set_world returned %s, expected SINGULAR", i,
                  sgrt_result_str(r));
        check_unchanged(s, &before, all, "a refused set_world");
    }
    CHECK_EQ_U(sgrt_scene_update(s), 0);
    /* A parent that becomes singular only now, not yet updated, is refused
     * too: set_world uses the parent's world now. */
    OK(sgrt_node_set_local(s, flat, huge));
    OK(sgrt_node_set_world(s, n[1], shear));
    OK(sgrt_node_set_local(s, flat, z));
    float m[16];
    random_target(m);
    CHECK_RES(sgrt_node_set_world(s, n[1], m), SGRT_ERR_SINGULAR);
    CHECK_EQ_U(ta.calls, calls); /* never allocates */
    snapshot_free(&before);
    end_scene_alloc(s, &ta);
}

/* Bad arguments: set_local's errors, nothing changed. */
static void test_bad_arguments(void)
{
    sgrt_scene *s = new_scene(), *other = new_scene();
    sgrt_node p, n, gone, foreign;
    OK(sgrt_node_create(s, SGRT_NULL_NODE, &p));
    OK(sgrt_node_create(s, p, &n));
    OK(sgrt_node_create(s, p, &gone));
    OK(sgrt_node_create(other, SGRT_NULL_NODE, &foreign));
    OK(sgrt_node_destroy(s, gone));
    float l[16], m[16];
    random_affine(&R, l);
    OK(sgrt_node_set_local(s, p, l));
    sgrt_scene_update(s);
    random_target(m);
    const sgrt_node all[2] = {p, n};
    snapshot before;
    snapshot_take(s, all, 2, &before);
    CHECK_RES(sgrt_node_set_world(NULL, n, m), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_node_set_world(s, n, NULL), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_node_set_world(s, SGRT_NULL_NODE, m), SGRT_ERR_STALE_HANDLE);
    CHECK_RES(sgrt_node_set_world(s, gone, m), SGRT_ERR_STALE_HANDLE);
    if (foreign.id != p.id && foreign.id != n.id)
        CHECK_RES(sgrt_node_set_world(s, foreign, m), SGRT_ERR_STALE_HANDLE);
    static const uint32_t bad_bits[] = {0x7F800000u, 0xFF800000u, 0x7FC00000u, 0xFFC00001u};
    for (int at = 0; at < 16; at++)
        for (size_t b = 0; b < sizeof bad_bits / sizeof bad_bits[0]; b++) {
            float x[16];
            memcpy(x, m, sizeof x);
            x[at] = bits_float(bad_bits[b]);
            const sgrt_result want = sgrt_node_set_local(s, n, x);
            CHECK_RES(want, SGRT_ERR_INVALID_ARG);
            CHECK_RES(sgrt_node_set_world(s, n, x), want);
            CHECK_RES(sgrt_node_set_world(s, p, x), want); /* a root too */
        }
    check_unchanged(s, &before, all, "refused set_world calls");
    CHECK_EQ_U(sgrt_scene_update(s), 0);
    snapshot_free(&before);
    check_scene(s);
    sgrt_scene_destroy(s);
    sgrt_scene_destroy(other);
}

int main(int argc, char **argv)
{
    rng_seed_from_args(&R, argc, argv, "set_world");
    test_roots();
    for (uint32_t level = SGRT_SIMD_SCALAR; level <= SGRT_SIMD_AVX512; level++)
        test_random_parents(level);
    test_marks();
    test_refused_parents();
    test_bad_arguments();
    return test_report("set_world");
}
