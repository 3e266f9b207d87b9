/* SPDX-License-Identifier: MIT */
/* sgrt_scene_hash: the same program gives the same hash in scenes at other
 * addresses (other handle scrambles), at every kernel level, in plain and
 * large worlds; whatever it covers (a local's bit, a world, a link, sibling
 * order, a handle's generation, an anchor, the origin) changes it; what it
 * leaves out (pending marks, user values, objects) does not. Its value for
 * a fixed program on every target is held by tests/ports/test_golden.c. */
#include "testutil.h"

#define LEVELS (SGRT_SIMD_AVX512 - SGRT_SIMD_SCALAR + 1)
#define MAX_NODES 600

/* One program played on a scene: nodes in creation order (dead ones
 * SGRT_NULL_NODE), ops from the same seed. */
typedef struct player {
    sgrt_scene *s;
    sgrt_node node[MAX_NODES];
    uint32_t count;
} player;

static sgrt_scene *scene_at(sgrt_simd level, uint32_t flags)
{
    sgrt_scene_desc d = {0};
    d.max_simd = level;
    d.flags = flags;
    return new_scene_desc(&d);
}

static sgrt_node pick(const player *p, rng *r)
{
    for (int tries = 0; tries < 8 && p->count; tries++) {
        const sgrt_node n = p->node[rng_below(r, p->count)];
        if (sgrt_node_alive(p->s, n))
            return n;
    }
    return SGRT_NULL_NODE;
}

/* One step of the program: the same rng state gives the same call. */
static void step(player *p, rng *r, bool large)
{
    const uint32_t op = rng_below(r, 100);
    const sgrt_node n = pick(p, r);
    if (op < 30 || !n.id) {
        sgrt_node made;
        const sgrt_node parent = rng_below(r, 5) == 0 ? SGRT_NULL_NODE : n;
        if (p->count < MAX_NODES && sgrt_node_create(p->s, parent, &made) == SGRT_OK)
            p->node[p->count++] = made;
    } else if (op < 65) {
        const float t[3] = {rng_float(r, -50, 50), rng_float(r, -50, 50), rng_float(r, -50, 50)};
        float q[4] = {rng_float(r, -1, 1), rng_float(r, -1, 1), rng_float(r, -1, 1), 1.0f};
        const float len = sqrtf(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
        for (int i = 0; i < 4; i++)
            q[i] /= len;
        const float sc[3] = {rng_float(r, 0.5f, 2), rng_float(r, 0.5f, 2), rng_float(r, 0.5f, 2)};
        OK(sgrt_node_set_trs(p->s, n, t, q, sc));
    } else if (op < 75) {
        const sgrt_node parent = rng_below(r, 4) == 0 ? SGRT_NULL_NODE : pick(p, r);
        /* a cycle or a singular parent is refused alike in every scene */
        const sgrt_result res = sgrt_node_set_parent(p->s, n, parent,
                                                     rng_below(r, 2) ? SGRT_KEEP_WORLD : SGRT_KEEP_LOCAL);
        CHECK(res == SGRT_OK || res == SGRT_ERR_CYCLE || res == SGRT_ERR_SINGULAR);
    } else if (op < 80) {
        OK(sgrt_node_destroy(p->s, n));
    } else if (op < 83 && large) {
        const double o[3] = {rng_range(r, -1e9, 1e9), rng_range(r, -1e6, 1e6), 0.25};
        OK(sgrt_scene_set_origin(p->s, o));
    } else if (op < 86 && large) {
        const double a[3] = {rng_range(r, -1e9, 1e9), 3.5, rng_range(r, -1e3, 1e3)};
        const sgrt_result res = sgrt_node_set_anchor(p->s, n, a); /* refused alike for a child */
        CHECK(res == SGRT_OK || res == SGRT_ERR_INVALID_ARG);
    } else if (op < 87) {
        OK(sgrt_scene_compact(p->s));
    } else {
        (void)sgrt_scene_update(p->s);
    }
}

/* The program on one scene per kernel level (and one more at the default
 * level, created while the others live: another address), hashes compared
 * after every update. */
static void test_same_program(uint32_t flags, uint64_t seed)
{
    const bool large = (flags & SGRT_SCENE_LARGE_WORLD) != 0;
    static player p[LEVELS + 1];
    for (uint32_t l = 0; l <= LEVELS; l++) {
        memset(&p[l], 0, sizeof p[l]);
        p[l].s = scene_at(l < LEVELS ? (sgrt_simd)(SGRT_SIMD_SCALAR + l) : SGRT_SIMD_AUTO, flags);
    }
    uint32_t compared = 0, distinct = 0, ids_differ = 0;
    uint64_t last = 0;
    for (uint32_t i = 0; i < 3000; i++) {
        for (uint32_t l = 0; l <= LEVELS; l++) {
            rng r = {seed + i};
            step(&p[l], &r, large);
        }
        if (i % 50 != 49)
            continue;
        for (uint32_t l = 0; l <= LEVELS; l++)
            (void)sgrt_scene_update(p[l].s);
        const uint64_t h = sgrt_scene_hash(p[0].s);
        for (uint32_t l = 1; l <= LEVELS; l++) {
            CHECK_MSG(sgrt_scene_hash(p[l].s) == h, "step %u: level %u hashes 0x%016llx, scalar 0x%016llx",
                      i, l, (unsigned long long)sgrt_scene_hash(p[l].s), (unsigned long long)h);
            ids_differ += p[l].count > 0 && p[l].node[0].id != p[0].node[0].id;
        }
        /* Hashing twice gives the same value and changes nothing. */
        CHECK(sgrt_scene_hash(p[0].s) == h);
        compared++;
        distinct += h != last;
        last = h;
    }
    CHECK(compared == 60);
    CHECK(distinct == compared); /* every stretch of the program changed the state */
    CHECK(ids_differ > 0);       /* the scenes' handles differ, their hashes do not */
    CHECK(p[0].s && sgrt_scene_node_count(p[0].s) > 50);
    for (uint32_t l = 0; l <= LEVELS; l++) {
        check_scene(p[l].s);
        sgrt_scene_destroy(p[l].s);
    }
}

/* Two scenes built alike: a root with three children, one grandchild. */
static void build(sgrt_scene *s, sgrt_node n[5])
{
    OK(sgrt_node_create(s, SGRT_NULL_NODE, &n[0]));
    for (int i = 1; i < 4; i++)
        OK(sgrt_node_create(s, n[0], &n[i]));
    OK(sgrt_node_create(s, n[2], &n[4]));
    for (int i = 0; i < 5; i++)
        set_translation(s, n[i], (float)i, 2.0f * (float)i, 0.5f);
    (void)sgrt_scene_update(s);
}

static void pair(uint32_t flags, sgrt_scene **a, sgrt_scene **b, sgrt_node na[5], sgrt_node nb[5])
{
    *a = scene_at(SGRT_SIMD_AUTO, flags);
    *b = scene_at(SGRT_SIMD_AUTO, flags);
    build(*a, na);
    build(*b, nb);
    CHECK(sgrt_scene_hash(*a) == sgrt_scene_hash(*b));
    CHECK(sgrt_scene_hash(*a) != 0);
}

static void done(sgrt_scene *a, sgrt_scene *b)
{
    sgrt_scene_destroy(a);
    sgrt_scene_destroy(b);
}

/* What the hash covers changes it; what it leaves out does not. */
static void test_sensitivity(void)
{
    sgrt_scene *a, *b;
    sgrt_node na[5], nb[5];

    /* One bit of one local (and so its world). */
    pair(0, &a, &b, na, nb);
    float m[16];
    translation(3.0f, 6.0f, 0.5f, m);
    m[12] = nextafterf(m[12], 10.0f);
    OK(sgrt_node_set_local(b, nb[3], m));
    CHECK(sgrt_scene_hash(a) != sgrt_scene_hash(b)); /* the local, before any update */
    (void)sgrt_scene_update(b);
    CHECK(sgrt_scene_hash(a) != sgrt_scene_hash(b));
    done(a, b);

    /* Pending marks are not in it: a local written and written back. */
    pair(0, &a, &b, na, nb);
    set_translation(b, nb[4], 9.0f, 9.0f, 9.0f);
    set_translation(b, nb[4], 4.0f, 8.0f, 0.5f);
    CHECK(sgrt_scene_hash(a) == sgrt_scene_hash(b));
    CHECK_EQ_U(sgrt_scene_update(b), 1); /* it was pending */
    CHECK(sgrt_scene_hash(a) == sgrt_scene_hash(b));
    /* Nor user values, nor objects. */
    OK(sgrt_node_set_user(b, nb[1], 0x1234u));
    sgrt_tracker t;
    OK(sgrt_tracker_create(b, &t));
    CHECK(sgrt_scene_hash(a) == sgrt_scene_hash(b));
    done(a, b);

    /* A link: the grandchild re-parented, keeping its world (its local
     * changes too) and keeping its local (its world changes). */
    for (int keep = 0; keep < 2; keep++) {
        pair(0, &a, &b, na, nb);
        OK(sgrt_node_set_parent(b, nb[4], nb[1], keep ? SGRT_KEEP_WORLD : SGRT_KEEP_LOCAL));
        (void)sgrt_scene_update(b);
        CHECK(sgrt_scene_hash(a) != sgrt_scene_hash(b));
        done(a, b);
    }

    /* Sibling order alone: the same children, the same matrices, created in
     * another order (the same slots, other next-sibling links). */
    {
        a = scene_at(SGRT_SIMD_AUTO, 0);
        b = scene_at(SGRT_SIMD_AUTO, 0);
        sgrt_node ra, rb, ca[2], cb[2];
        OK(sgrt_node_create(a, SGRT_NULL_NODE, &ra));
        OK(sgrt_node_create(b, SGRT_NULL_NODE, &rb));
        OK(sgrt_node_create(a, ra, &ca[0]));
        OK(sgrt_node_create(a, ra, &ca[1]));
        OK(sgrt_node_create(b, rb, &cb[0]));
        OK(sgrt_node_create(b, rb, &cb[1]));
        /* out and back in: it joins the list at the other end */
        OK(sgrt_node_set_parent(b, cb[0], SGRT_NULL_NODE, SGRT_KEEP_LOCAL));
        OK(sgrt_node_set_parent(b, cb[0], rb, SGRT_KEEP_LOCAL));
        (void)sgrt_scene_update(a);
        (void)sgrt_scene_update(b);
        CHECK_EQ_U(slot_of(a, ca[0]), slot_of(b, cb[0]));
        CHECK(sgrt_scene_hash(a) != sgrt_scene_hash(b));
        done(a, b);
    }

    /* Handles: the same slot under another handle index (a node made,
     * destroyed and made again takes a fresh index: reuse waits for 1,024
     * free) changes the hash; an index reused at its next generation hashes
     * alike in scenes whose ids (scrambled per scene) differ. */
    {
        a = scene_at(SGRT_SIMD_AUTO, 0);
        b = scene_at(SGRT_SIMD_AUTO, 0);
        sgrt_node x, y;
        OK(sgrt_node_create(a, SGRT_NULL_NODE, &x));
        OK(sgrt_node_create(b, SGRT_NULL_NODE, &y));
        OK(sgrt_node_destroy(b, y));
        OK(sgrt_node_create(b, SGRT_NULL_NODE, &y));
        (void)sgrt_scene_update(a);
        (void)sgrt_scene_update(b);
        CHECK_EQ_U(slot_of(a, x), slot_of(b, y));
        CHECK(sgrt_scene_hash(a) != sgrt_scene_hash(b));
        done(a, b);
        a = scene_at(SGRT_SIMD_AUTO, 0);
        b = scene_at(SGRT_SIMD_AUTO, 0);
        sgrt_scene *both[2] = {a, b};
        sgrt_node first[2];
        for (int k = 0; k < 2; k++) {
            static sgrt_node many[1100];
            for (int i = 0; i < 1100; i++)
                OK(sgrt_node_create(both[k], SGRT_NULL_NODE, &many[i]));
            first[k] = many[0];
            for (int i = 0; i < 1100; i++)
                OK(sgrt_node_destroy(both[k], many[i]));
        }
        OK(sgrt_node_create(a, SGRT_NULL_NODE, &x));
        OK(sgrt_node_create(b, SGRT_NULL_NODE, &y));
        /* index 0 again, one generation on, under ids that differ */
        CHECK((x.id & 0xFFFFFFu) == (first[0].id & 0xFFFFFFu) && x.id != first[0].id);
        CHECK((y.id & 0xFFFFFFu) == (first[1].id & 0xFFFFFFu) && y.id != first[1].id);
        CHECK(x.id != y.id);
        (void)sgrt_scene_update(a);
        (void)sgrt_scene_update(b);
        CHECK(sgrt_scene_hash(a) == sgrt_scene_hash(b));
        done(a, b);
    }

    /* A large world: an anchor, and the origin. */
    const uint32_t lw = SGRT_SCENE_LARGE_WORLD;
    pair(lw, &a, &b, na, nb);
    const double far[3] = {1e9, 0.0, 0.0};
    OK(sgrt_node_set_anchor(b, nb[0], far));
    CHECK(sgrt_scene_hash(a) != sgrt_scene_hash(b));
    OK(sgrt_scene_set_origin(b, far)); /* the same worlds again, another anchor and origin */
    (void)sgrt_scene_update(b);
    CHECK(sgrt_scene_hash(a) != sgrt_scene_hash(b));
    done(a, b);
    pair(lw, &a, &b, na, nb);
    const double step_o[3] = {0.0, 0.0, 1.0};
    OK(sgrt_scene_set_origin(b, step_o));
    CHECK(sgrt_scene_hash(a) != sgrt_scene_hash(b));
    done(a, b);
}

/* NaN worlds hash as one NaN, whatever their bits; and a NULL scene is 0. */
static void test_edges(void)
{
    CHECK(sgrt_scene_hash(NULL) == 0);
    sgrt_scene *a = scene_at(SGRT_SIMD_SCALAR, 0), *b = scene_at(SGRT_SIMD_AUTO, 0);
    const uint64_t empty = sgrt_scene_hash(a);
    CHECK(empty != 0 && empty == sgrt_scene_hash(b));
    /* inf x 0 in a product: NaN worlds below an overflowing parent. */
    sgrt_node pa, pb, ca, cb;
    float big[16];
    translation(0, 0, 0, big);
    big[0] = 3e38f; /* x from both the x and the y axis, scaled by 3e38 */
    big[4] = 3e38f;
    OK(sgrt_node_create(a, SGRT_NULL_NODE, &pa));
    OK(sgrt_node_create(b, SGRT_NULL_NODE, &pb));
    OK(sgrt_node_create(a, pa, &ca));
    OK(sgrt_node_create(b, pb, &cb));
    OK(sgrt_node_set_local(a, pa, big));
    OK(sgrt_node_set_local(b, pb, big));
    translation(1e10f, -1e10f, 0, big); /* x: 3e48 - 3e48, inf - inf */
    OK(sgrt_node_set_local(a, ca, big));
    OK(sgrt_node_set_local(b, cb, big));
    (void)sgrt_scene_update(a);
    (void)sgrt_scene_update(b);
    float w[16];
    OK(sgrt_node_world(a, ca, w));
    bool has_nan = false;
    for (int i = 0; i < 16; i++)
        has_nan |= w[i] != w[i];
    CHECK(has_nan);
    CHECK(sgrt_scene_hash(a) == sgrt_scene_hash(b));
    CHECK(sgrt_scene_hash(a) != empty);
    sgrt_scene_destroy(a);
    sgrt_scene_destroy(b);
}

int main(int argc, char **argv)
{
    rng seed = {0x5CE4E4A54ull}; /* argv[1] overrides it */
    rng_seed_from_args(&seed, argc, argv, "hash");
    test_same_program(0, rng_next(&seed));
    test_same_program(SGRT_SCENE_LARGE_WORLD, rng_next(&seed));
    test_same_program(SGRT_SCENE_PREV_WORLD | SGRT_SCENE_BOUNDS, rng_next(&seed));
    test_sensitivity();
    test_edges();
    return test_report("hash");
}
