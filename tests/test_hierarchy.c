/* SPDX-License-Identifier: MIT */
/* The hierarchy: cycles and bad keep modes refused, both keep modes of
 * re-parenting, relocation under nodes stored later, subtree destruction,
 * child iteration and compaction, each checked against the reference
 * model. */
#include "lib/refmodel.h"
#include "testutil.h"

static rng R = {0x41e7a2c4b9d3f015ULL};

/* Library and model side by side. */
typedef struct pair {
    sgrt_scene *s;
    ref_model *m;
} pair;

static pair pair_new(void)
{
    pair p = {new_scene(), ref_model_create()};
    return p;
}

static void pair_free(pair *p)
{
    sgrt_scene_destroy(p->s);
    ref_model_destroy(p->m);
}

static sgrt_node mk(pair *p, sgrt_node parent)
{
    sgrt_node n = SGRT_NULL_NODE;
    OK(sgrt_node_create(p->s, parent, &n));
    if (n.id)
        ref_model_add(p->m, n.id, parent.id);
    return n;
}

static void set_local(pair *p, sgrt_node n, const float l[16])
{
    OK(sgrt_node_set_local(p->s, n, l));
    ref_model_set_local(p->m, n.id, l);
}

static void set_random(pair *p, sgrt_node n)
{
    float l[16];
    random_affine(&R, l);
    set_local(p, n, l);
}

/* Update both; the count must match exactly and every world be within the
 * model's tolerance (see refmodel.h: 4*depth + 1 units of u*|A|). */
static void update_and_verify(pair *p, int line)
{
    const uint32_t want = ref_model_update(p->m);
    const uint32_t got = sgrt_scene_update(p->s);
    if (got != want)
        FAIL("line %d: update recomputed %u, model %u", line, (unsigned)got, (unsigned)want);
    const char *diff = worlds_diff(p->s, p->m, NULL);
    if (diff)
        FAIL("line %d: %s", line, diff);
    check_scene_at(p->s, __FILE__, line, NULL);
}

/* Re-parent in both, keep mode given; the library must answer `want`. */
static void reparent(pair *p, sgrt_node n, sgrt_node parent, sgrt_keep keep, sgrt_result want,
                     int line)
{
    const sgrt_result r = sgrt_node_set_parent(p->s, n, parent, keep);
    if (r != want) {
        FAIL("line %d: set_parent(0x%08x, 0x%08x, %d) = %s, expected %s", line, (unsigned)n.id,
             (unsigned)parent.id, (int)keep, sgrt_result_str(r), sgrt_result_str(want));
        return;
    }
    if (r != SGRT_OK)
        return;
    if (keep == SGRT_KEEP_LOCAL) {
        ref_model_set_parent(p->m, n.id, parent.id);
    } else {
        float l[16];
        OK(sgrt_node_local(p->s, n, l));
        const double e = ref_model_set_parent_keep_world(p->m, n.id, parent.id, l);
        if (!(e <= 1.0))
            FAIL("line %d: keep-world moved the world: %.3g of the allowance", line, e);
    }
}

/* ---- tests --------------------------------------------------------------- */

static void test_bad_keep(void)
{
    sgrt_scene *s = new_scene();
    sgrt_node a, b, c;
    OK(sgrt_node_create(s, SGRT_NULL_NODE, &a));
    OK(sgrt_node_create(s, a, &b));
    OK(sgrt_node_create(s, SGRT_NULL_NODE, &c));
    sgrt_scene_update(s);
    const sgrt_node nodes[3] = {a, b, c};
    snapshot before;
    snapshot_take(s, nodes, 3, &before);
    const int bad_keeps[] = {2, 3, 7, 255, 0x7FFFFFFF};
    for (size_t i = 0; i < sizeof bad_keeps / sizeof bad_keeps[0]; i++) {
        CHECK_RES(sgrt_node_set_parent(s, b, c, (sgrt_keep)bad_keeps[i]), SGRT_ERR_INVALID_ARG);
        CHECK_RES(sgrt_node_set_parent(s, b, SGRT_NULL_NODE, (sgrt_keep)bad_keeps[i]),
                SGRT_ERR_INVALID_ARG);
        CHECK_RES(sgrt_node_set_parent(s, c, a, (sgrt_keep)bad_keeps[i]), SGRT_ERR_INVALID_ARG);
    }
    check_unchanged(s, &before, nodes, "set_parent with a bad keep mode");
    CHECK(sgrt_scene_update(s) == 0);
    snapshot_free(&before);
    check_scene(s);
    sgrt_scene_destroy(s);
}

static void test_cycles(void)
{
    pair p = pair_new();
    sgrt_node a = mk(&p, SGRT_NULL_NODE);
    sgrt_node b = mk(&p, a);
    sgrt_node c = mk(&p, b);
    sgrt_node d = mk(&p, c);
    sgrt_node e = mk(&p, SGRT_NULL_NODE);
    sgrt_node b2 = mk(&p, a);
    for (int i = 0; i < 6; i++) {
        sgrt_node all[] = {a, b, c, d, e, b2};
        set_random(&p, all[i]);
    }
    update_and_verify(&p, __LINE__);
    for (int keep = 0; keep < 2; keep++) {
        const sgrt_keep k = (sgrt_keep)keep;
        reparent(&p, a, a, k, SGRT_ERR_CYCLE, __LINE__);
        reparent(&p, d, d, k, SGRT_ERR_CYCLE, __LINE__);
        reparent(&p, a, b, k, SGRT_ERR_CYCLE, __LINE__);
        reparent(&p, a, d, k, SGRT_ERR_CYCLE, __LINE__);
        reparent(&p, b, d, k, SGRT_ERR_CYCLE, __LINE__);
        reparent(&p, c, d, k, SGRT_ERR_CYCLE, __LINE__);
    }
    check_structure(p.s, p.m);
    CHECK_EQ_U(sgrt_scene_update(p.s), 0); /* refused calls mark nothing */
    ref_model_update(p.m);

    /* Not cycles: moving a descendant up, or sideways. */
    reparent(&p, d, a, SGRT_KEEP_LOCAL, SGRT_OK, __LINE__);
    reparent(&p, c, b2, SGRT_KEEP_WORLD, SGRT_OK, __LINE__);
    reparent(&p, a, e, SGRT_KEEP_LOCAL, SGRT_OK, __LINE__);
    /* and now that c is elsewhere, b may go under it */
    reparent(&p, b, c, SGRT_KEEP_WORLD, SGRT_OK, __LINE__);
    reparent(&p, e, b, SGRT_KEEP_LOCAL, SGRT_ERR_CYCLE, __LINE__);
    check_structure(p.s, p.m);
    update_and_verify(&p, __LINE__);
    pair_free(&p);
}

static void test_keep_modes(void)
{
    pair p = pair_new();
    sgrt_node p1 = mk(&p, SGRT_NULL_NODE);
    sgrt_node p2 = mk(&p, SGRT_NULL_NODE);
    sgrt_node p2c = mk(&p, p2);
    sgrt_node c = mk(&p, p1);
    sgrt_node g = mk(&p, c);
    set_random(&p, p1);
    set_random(&p, p2);
    set_random(&p, p2c);
    set_random(&p, c);
    set_random(&p, g);
    update_and_verify(&p, __LINE__);

    /* KEEP_LOCAL: the local is kept bit for bit, the world follows. */
    float before[16], after[16], w_before[16], w_after[16];
    OK(sgrt_node_local(p.s, c, before));
    OK(sgrt_node_world(p.s, c, w_before));
    reparent(&p, c, p2c, SGRT_KEEP_LOCAL, SGRT_OK, __LINE__);
    OK(sgrt_node_local(p.s, c, after));
    CHECK(memcmp(before, after, sizeof before) == 0);
    update_and_verify(&p, __LINE__);
    OK(sgrt_node_world(p.s, c, w_after));
    CHECK(memcmp(w_before, w_after, sizeof w_before) != 0);

    /* KEEP_WORLD: the local changes, the world stays (within tolerance). */
    OK(sgrt_node_local(p.s, c, before));
    reparent(&p, c, p1, SGRT_KEEP_WORLD, SGRT_OK, __LINE__);
    OK(sgrt_node_local(p.s, c, after));
    CHECK(memcmp(before, after, sizeof before) != 0);
    update_and_verify(&p, __LINE__);

    /* KEEP_WORLD to a root: the local becomes the current world exactly
     * (the inverse of "no parent" is exact). */
    float now[16];
    OK(sgrt_node_world_now(p.s, c, now));
    reparent(&p, c, SGRT_NULL_NODE, SGRT_KEEP_WORLD, SGRT_OK, __LINE__);
    OK(sgrt_node_local(p.s, c, after));
    CHECK(memcmp(now, after, sizeof now) == 0);
    update_and_verify(&p, __LINE__);

    /* KEEP_WORLD uses the worlds as of now, not as of the last update: move
     * the new parent and the node first, then re-parent before updating. */
    set_random(&p, p2);
    set_random(&p, c);
    reparent(&p, c, p2c, SGRT_KEEP_WORLD, SGRT_OK, __LINE__);
    update_and_verify(&p, __LINE__);
    set_random(&p, p1);
    set_random(&p, p2c);
    reparent(&p, g, p1, SGRT_KEEP_WORLD, SGRT_OK, __LINE__);
    reparent(&p, c, g, SGRT_KEEP_WORLD, SGRT_OK, __LINE__);
    update_and_verify(&p, __LINE__);
    check_structure(p.s, p.m);
    pair_free(&p);
}

static void test_singular(void)
{
    pair p = pair_new();
    sgrt_node top = mk(&p, SGRT_NULL_NODE);
    sgrt_node flat = mk(&p, top);   /* local with a zero column */
    sgrt_node under = mk(&p, flat); /* world singular through its parent */
    sgrt_node zero = mk(&p, SGRT_NULL_NODE);
    sgrt_node n = mk(&p, SGRT_NULL_NODE);
    sgrt_node nc = mk(&p, n);
    set_random(&p, top);
    float l[16];
    random_affine(&R, l);
    l[4] = l[5] = l[6] = 0.0f; /* y axis squashed: det exactly 0 */
    set_local(&p, flat, l);
    set_random(&p, under);
    float z[16] = {0};
    set_local(&p, zero, z);
    set_random(&p, n);
    set_random(&p, nc);
    update_and_verify(&p, __LINE__);

    /* Worlds with an exactly zero column: the determinant is exactly 0. */
    const sgrt_node singular_parents[] = {flat, zero};
    for (int i = 0; i < 2; i++) {
        reparent(&p, n, singular_parents[i], SGRT_KEEP_WORLD, SGRT_ERR_SINGULAR, __LINE__);
        reparent(&p, nc, singular_parents[i], SGRT_KEEP_WORLD, SGRT_ERR_SINGULAR, __LINE__);
    }
    check_structure(p.s, p.m);
    CHECK_EQ_U(sgrt_scene_update(p.s), 0);
    ref_model_update(p.m);

    /* `under` has a world of rank 3 in exact arithmetic (flat's zero column
     * times under's local), but float rounding leaves a tiny non-zero
     * determinant. Whatever the library decides, the contract holds: either
     * SINGULAR and nothing changed, or the world stays put. */
    const sgrt_node movers[] = {n, nc};
    for (int i = 0; i < 2; i++) {
        float old_local[16];
        OK(sgrt_node_local(p.s, movers[i], old_local));
        const sgrt_result r = sgrt_node_set_parent(p.s, movers[i], under, SGRT_KEEP_WORLD);
        if (r == SGRT_OK) {
            float nl[16];
            OK(sgrt_node_local(p.s, movers[i], nl));
            const double e = ref_model_set_parent_keep_world(p.m, movers[i].id, under.id, nl);
            if (!(e <= 1.0))
                FAIL("keep-world under a numerically singular parent was accepted but moved "
                     "the world (%.3g of the allowance)",
                     e);
            /* put it back where it was, for the rest of the test */
            reparent(&p, movers[i], i ? n : SGRT_NULL_NODE, SGRT_KEEP_LOCAL, SGRT_OK, __LINE__);
            set_local(&p, movers[i], old_local);
        } else {
            CHECK_RES(r, SGRT_ERR_SINGULAR);
        }
    }
    check_structure(p.s, p.m);
    update_and_verify(&p, __LINE__);

    /* A parent that becomes singular only now (not yet updated) is refused
     * too, and one that stops being singular is accepted. */
    sgrt_node q = mk(&p, SGRT_NULL_NODE);
    set_random(&p, q);
    update_and_verify(&p, __LINE__);
    set_local(&p, q, z);
    reparent(&p, n, q, SGRT_KEEP_WORLD, SGRT_ERR_SINGULAR, __LINE__);
    random_affine(&R, l);
    set_local(&p, flat, l);
    reparent(&p, nc, under, SGRT_KEEP_WORLD, SGRT_OK, __LINE__);

    /* KEEP_LOCAL does not need an inverse. */
    reparent(&p, n, zero, SGRT_KEEP_LOCAL, SGRT_OK, __LINE__);
    check_structure(p.s, p.m);
    update_and_verify(&p, __LINE__);
    pair_free(&p);
}

/* Keep-world must keep the world within its stated tolerance or refuse: the
 * new local multiplied back with the parent's world in float, as the update
 * will, may miss the old world by at most 2^-12 x max(1, largest |entry| of
 * that world column) in every entry. A near-singular sheared parent gives a
 * local whose float rounding, multiplied back, moves the world by whole
 * units: it must be refused with nothing changed. A well-conditioned one
 * must pass, and the world must then stay within that tolerance. */
static void test_keep_world_tolerance(void)
{
    for (int trial = 0; trial < 40; trial++) {
        sgrt_scene *s = new_scene();
        sgrt_node par, n, child;
        OK(sgrt_node_create(s, SGRT_NULL_NODE, &par));
        OK(sgrt_node_create(s, SGRT_NULL_NODE, &n));
        OK(sgrt_node_create(s, n, &child));
        float pl[16], nl[16], cl[16];
        random_affine(&R, nl);
        nl[12] = rng_float(&R, 50.0f, 200.0f);
        nl[13] = rng_float(&R, -200.0f, -50.0f);
        random_affine(&R, cl);
        const bool near_singular = trial % 2 == 1;
        if (near_singular) {
            /* Shear: the y axis leans onto the x axis, 2e-6 to 8e-6 apart. */
            const float e = 2e-6f * (float)(1 + trial % 4);
            const float sheared[16] = {1, 0, 0, 0, 1, e, 0, 0, 0, 0, 1, 0, 3, -2, 1, 1};
            memcpy(pl, sheared, sizeof pl);
        } else {
            random_affine(&R, pl);
        }
        OK(sgrt_node_set_local(s, par, pl));
        OK(sgrt_node_set_local(s, n, nl));
        OK(sgrt_node_set_local(s, child, cl));
        sgrt_scene_update(s);
        const sgrt_node hs[] = {par, n, child};
        snapshot before;
        snapshot_take(s, hs, 3, &before);
        float w0[16], w1[16];
        OK(sgrt_node_world(s, n, w0));
        const sgrt_result r = sgrt_node_set_parent(s, n, par, SGRT_KEEP_WORLD);
        if (near_singular) {
            CHECK_MSG(r == SGRT_ERR_SINGULAR,
                      "trial %d: keep-world under a sheared near-singular parent returned %s "
                      "(expected SGRT_ERR_SINGULAR)",
                      trial, sgrt_result_str(r));
            if (r == SGRT_OK) {
                sgrt_scene_update(s);
                OK(sgrt_node_world(s, n, w1));
                printf("  trial %d: accepted, world moved by %.3g x the tolerance "
                       "(translation %.3g units)\n",
                       trial, column_miss(w1, w0),
                       fmax(fabs((double)w1[12] - w0[12]), fabs((double)w1[13] - w0[13])));
            } else {
                check_unchanged(s, &before, hs, "refused keep-world re-parent");
            }
        } else {
            CHECK_MSG(r == SGRT_OK, "trial %d: well-conditioned keep-world returned %s", trial,
                      sgrt_result_str(r));
            sgrt_scene_update(s);
            OK(sgrt_node_world(s, n, w1));
            const double miss = column_miss(w1, w0);
            CHECK_MSG(miss <= 1.0, "trial %d: keep-world moved the world by %.3g x the tolerance",
                      trial, miss);
        }
        snapshot_free(&before);
        check_scene(s);
        sgrt_scene_destroy(s);
    }
}

/* Random subtrees re-parented under nodes created after them, over and over:
 * storage relocates, handles must not notice. */
static void test_relocation(void)
{
    pair p = pair_new();
    enum { N = 400 };
    sgrt_node roots[4];
    for (int i = 0; i < 4; i++)
        roots[i] = mk(&p, SGRT_NULL_NODE);
    for (int i = 0; i < N; i++) {
        const uint32_t cnt = ref_model_count(p.m);
        const sgrt_node par = {ref_model_nth(p.m, rng_below(&R, cnt))};
        sgrt_node x = mk(&p, par);
        set_random(&p, x);
    }
    update_and_verify(&p, __LINE__);
    for (int round = 0; round < 300; round++) {
        /* a node with a subtree, under a node created later */
        const sgrt_node x = {ref_model_nth(p.m, rng_below(&R, ref_model_count(p.m)))};
        sgrt_node late = mk(&p, round % 3 ? SGRT_NULL_NODE : roots[round % 4]);
        if (ref_model_is_ancestor_or_self(p.m, x.id, late.id))
            continue;
        if (round % 5 == 0)
            set_random(&p, late);
        reparent(&p, x, late, round % 2 ? SGRT_KEEP_WORLD : SGRT_KEEP_LOCAL, SGRT_OK, __LINE__);
        if (round % 4 == 0)
            check_structure(p.s, p.m);
        if (round % 8 == 0)
            update_and_verify(&p, __LINE__);
    }
    check_structure(p.s, p.m);
    update_and_verify(&p, __LINE__);
    pair_free(&p);
}

static void test_destroy_subtree(void)
{
    pair p = pair_new();
    sgrt_node a = mk(&p, SGRT_NULL_NODE);
    for (int i = 0; i < 300; i++) {
        const sgrt_node par = {ref_model_nth(p.m, rng_below(&R, ref_model_count(p.m)))};
        sgrt_node x = mk(&p, par);
        set_random(&p, x);
    }
    (void)a;
    update_and_verify(&p, __LINE__);
    for (int round = 0; round < 30 && ref_model_count(p.m) > 1; round++) {
        /* pick a node with at least one child when possible */
        uint32_t id = 0;
        for (int t = 0; t < 20; t++) {
            id = ref_model_nth(p.m, rng_below(&R, ref_model_count(p.m)));
            if (ref_model_child_count(p.m, id) > 0)
                break;
        }
        const uint32_t parent = ref_model_parent(p.m, id);
        const uint32_t k = ref_model_subtree_size(p.m, id);
        uint32_t *gone = malloc(k * sizeof *gone);
        /* siblings and everything else: worlds must not move */
        float w_sib[16], w_sib_after[16];
        uint32_t sib = 0;
        if (parent) {
            uint32_t kids[512];
            const uint32_t nk = ref_model_child_count(p.m, parent);
            if (nk <= 512) {
                ref_model_children(p.m, parent, kids);
                for (uint32_t j = 0; j < nk; j++)
                    if (kids[j] != id)
                        sib = kids[j];
            }
        }
        if (sib)
            OK(sgrt_node_world(p.s, (sgrt_node){sib}, w_sib));
        const uint32_t count_before = sgrt_scene_node_count(p.s);
        OK(sgrt_node_destroy(p.s, (sgrt_node){id}));
        CHECK_EQ_U(ref_model_remove(p.m, id, gone), k);
        CHECK_EQ_U(sgrt_scene_node_count(p.s), count_before - k);
        for (uint32_t j = 0; j < k; j++) {
            CHECK(!sgrt_node_alive(p.s, (sgrt_node){gone[j]}));
            float w[16];
            CHECK_RES(sgrt_node_world(p.s, (sgrt_node){gone[j]}, w), SGRT_ERR_STALE_HANDLE);
        }
        if (sib) {
            CHECK(sgrt_node_alive(p.s, (sgrt_node){sib}));
            OK(sgrt_node_world(p.s, (sgrt_node){sib}, w_sib_after));
            CHECK(memcmp(w_sib, w_sib_after, sizeof w_sib) == 0);
        }
        free(gone);
        check_structure(p.s, p.m);
        /* nothing else was marked */
        CHECK_EQ_U(sgrt_scene_update(p.s), 0);
        CHECK_EQ_U(ref_model_update(p.m), 0);
        check_scene(p.s);
    }
    pair_free(&p);
}

/* Random structural edits; after each, child iteration must list exactly the
 * model's children. */
static void test_iteration(void)
{
    pair p = pair_new();
    for (int op = 0; op < 3000; op++) {
        const uint32_t cnt = ref_model_count(p.m);
        const uint32_t r = rng_below(&R, 10);
        if (cnt < 5 || r < 5) {
            sgrt_node par = SGRT_NULL_NODE;
            if (cnt && rng_below(&R, 8))
                par.id = ref_model_nth(p.m, rng_below(&R, cnt));
            mk(&p, par);
        } else if (r < 6) {
            const uint32_t id = ref_model_nth(p.m, rng_below(&R, cnt));
            if (ref_model_subtree_size(p.m, id) < 20) {
                OK(sgrt_node_destroy(p.s, (sgrt_node){id}));
                ref_model_remove(p.m, id, NULL);
            }
        } else if (r < 9) {
            const sgrt_node x = {ref_model_nth(p.m, rng_below(&R, cnt))};
            sgrt_node to = SGRT_NULL_NODE;
            if (rng_below(&R, 6))
                to.id = ref_model_nth(p.m, rng_below(&R, cnt));
            const bool cyc = to.id && ref_model_is_ancestor_or_self(p.m, x.id, to.id);
            reparent(&p, x, to, SGRT_KEEP_LOCAL, cyc ? SGRT_ERR_CYCLE : SGRT_OK, __LINE__);
        } else {
            OK(sgrt_scene_compact(p.s));
        }
        if (op % 50 == 0) {
            check_structure(p.s, p.m);
            check_scene(p.s);
        }
    }
    check_structure(p.s, p.m);
    update_and_verify(&p, __LINE__);
    pair_free(&p);
}

/* Compaction keeps handles, structure, locals, worlds as of the last update,
 * exact current worlds, and the pending work. */
static void test_compact(void)
{
    pair p = pair_new();
    for (int i = 0; i < 1500; i++) {
        const uint32_t cnt = ref_model_count(p.m);
        sgrt_node par = SGRT_NULL_NODE;
        if (cnt && rng_below(&R, 10))
            par.id = ref_model_nth(p.m, rng_below(&R, cnt));
        sgrt_node x = mk(&p, par);
        set_random(&p, x);
    }
    update_and_verify(&p, __LINE__);
    /* holes */
    for (int i = 0; i < 60; i++) {
        const uint32_t id = ref_model_nth(p.m, rng_below(&R, ref_model_count(p.m)));
        OK(sgrt_node_destroy(p.s, (sgrt_node){id}));
        ref_model_remove(p.m, id, NULL);
    }
    /* relocations, and pending work */
    for (int i = 0; i < 40; i++) {
        const uint32_t cnt = ref_model_count(p.m);
        const sgrt_node x = {ref_model_nth(p.m, rng_below(&R, cnt))};
        sgrt_node late = mk(&p, SGRT_NULL_NODE);
        reparent(&p, x, late, SGRT_KEEP_LOCAL, SGRT_OK, __LINE__);
        set_random(&p, (sgrt_node){ref_model_nth(p.m, rng_below(&R, cnt))});
    }
    update_and_verify(&p, __LINE__);
    for (int i = 0; i < 30; i++)
        set_random(&p, (sgrt_node){ref_model_nth(p.m, rng_below(&R, ref_model_count(p.m)))});

    const uint32_t n = ref_model_count(p.m);
    float(*w)[16] = malloc(n * sizeof *w);
    float(*now)[16] = malloc(n * sizeof *now);
    for (uint32_t k = 0; k < n; k++) {
        OK(sgrt_node_world(p.s, (sgrt_node){ref_model_nth(p.m, k)}, w[k]));
        OK(sgrt_node_world_now(p.s, (sgrt_node){ref_model_nth(p.m, k)}, now[k]));
    }
    for (int rep = 0; rep < 2; rep++) { /* compacting a compact scene too */
        OK(sgrt_scene_compact(p.s));
        check_scene(p.s);
        check_structure(p.s, p.m);
        int bad = 0;
        for (uint32_t k = 0; k < n; k++) {
            float x[16], y[16];
            OK(sgrt_node_world(p.s, (sgrt_node){ref_model_nth(p.m, k)}, x));
            OK(sgrt_node_world_now(p.s, (sgrt_node){ref_model_nth(p.m, k)}, y));
            bad += memcmp(x, w[k], sizeof x) != 0 || memcmp(y, now[k], sizeof y) != 0;
        }
        CHECK(bad == 0);
    }
    update_and_verify(&p, __LINE__);
    /* what world_now said before compaction is what the update stored */
    int bad = 0;
    for (uint32_t k = 0; k < n; k++) {
        float x[16];
        OK(sgrt_node_world(p.s, (sgrt_node){ref_model_nth(p.m, k)}, x));
        bad += memcmp(x, now[k], sizeof x) != 0;
    }
    CHECK(bad == 0);
    free(w);
    free(now);
    pair_free(&p);
}

int main(int argc, char **argv)
{
    rng_seed_from_args(&R, argc, argv, "test_hierarchy");
    test_cycles();
    test_bad_keep();
    test_keep_modes();
    test_singular();
    test_keep_world_tolerance();
    test_relocation();
    test_destroy_subtree();
    test_iteration();
    test_compact();
    return test_report("test_hierarchy");
}
