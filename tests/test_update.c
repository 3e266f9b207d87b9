/* SPDX-License-Identifier: MIT */
/* Dirty marking and the update's work counts: sgrt_scene_update() must
 * recompute exactly the nodes whose world may have changed, each once, and
 * say how many; a write of identical bits marks nothing. Also: the
 * per-frame calls never touch the allocator. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "testutil.h"

#include <time.h>

static rng R = {0xD1A7D1A7ull};

/* Nodes are moved by translations along x: small integers keep every
 * product exact in float, so the expected worlds below are exact sums. */
static void move_to(sgrt_scene *s, sgrt_node n, float x) { set_translation(s, n, x, 0, 0); }

static float world_x(sgrt_scene *s, sgrt_node n)
{
    float w[16] = {0};
    OK(sgrt_node_world(s, n, w));
    return w[12];
}

/* Nystrom's example: ship -> crow's nest -> pirate -> parrot. */
static void test_pirate(void)
{
    sgrt_scene *s = new_scene();
    sgrt_node ship, nest, pirate, parrot;
    OK(sgrt_node_create(s, SGRT_NULL_NODE, &ship));
    OK(sgrt_node_create(s, ship, &nest));
    OK(sgrt_node_create(s, nest, &pirate));
    OK(sgrt_node_create(s, pirate, &parrot));
    CHECK_EQ_U(sgrt_scene_update(s), 4); /* new nodes count as moved */
    CHECK_EQ_U(sgrt_scene_update(s), 0);

    /* All four move in one frame, leaf first to catch an eager update that
     * would recompute the chain below each moved node (10 matrices). */
    move_to(s, parrot, 1000);
    move_to(s, pirate, 100);
    move_to(s, nest, 10);
    move_to(s, ship, 1);
    CHECK_EQ_U(sgrt_scene_update(s), 4);
    CHECK(world_x(s, ship) == 1.0f);
    CHECK(world_x(s, nest) == 11.0f);
    CHECK(world_x(s, pirate) == 111.0f);
    CHECK(world_x(s, parrot) == 1111.0f);

    /* Root first this time. */
    move_to(s, ship, 2);
    move_to(s, nest, 20);
    move_to(s, pirate, 200);
    move_to(s, parrot, 2000);
    CHECK_EQ_U(sgrt_scene_update(s), 4);
    CHECK(world_x(s, parrot) == 2222.0f);

    /* Only the parrot: only the parrot. */
    move_to(s, parrot, 3000);
    CHECK_EQ_U(sgrt_scene_update(s), 1);
    CHECK(world_x(s, parrot) == 3222.0f);

    /* Only the ship: the whole chain below it. */
    move_to(s, ship, 3);
    CHECK_EQ_U(sgrt_scene_update(s), 4);
    CHECK(world_x(s, parrot) == 3223.0f);
    CHECK_EQ_U(sgrt_scene_update(s), 0);
    check_scene(s);
    sgrt_scene_destroy(s);
}

static void test_moved_then_destroyed(void)
{
    sgrt_scene *s = new_scene();
    sgrt_node a, b, a1, a2, a11;
    OK(sgrt_node_create(s, SGRT_NULL_NODE, &a));
    OK(sgrt_node_create(s, SGRT_NULL_NODE, &b));
    OK(sgrt_node_create(s, a, &a1));
    OK(sgrt_node_create(s, a, &a2));
    OK(sgrt_node_create(s, a1, &a11));
    CHECK_EQ_U(sgrt_scene_update(s), 5);

    /* Moved, then destroyed with its subtree: nothing left to do. */
    move_to(s, a1, 5);
    OK(sgrt_node_destroy(s, a1));
    CHECK_EQ_U(sgrt_scene_update(s), 0);
    CHECK(!sgrt_node_alive(s, a11));

    /* A moved subtree from which a branch is destroyed: the rest remains. */
    sgrt_node a3, a31;
    OK(sgrt_node_create(s, a, &a3));
    OK(sgrt_node_create(s, a3, &a31));
    CHECK_EQ_U(sgrt_scene_update(s), 2);
    move_to(s, a, 7);
    OK(sgrt_node_destroy(s, a3));
    CHECK_EQ_U(sgrt_scene_update(s), 2); /* a and a2 */
    CHECK(world_x(s, a2) == 7.0f);

    /* Created and destroyed within one frame. */
    sgrt_node t;
    OK(sgrt_node_create(s, b, &t));
    OK(sgrt_node_destroy(s, t));
    CHECK_EQ_U(sgrt_scene_update(s), 0);
    check_scene(s);
    sgrt_scene_destroy(s);
}

static void test_chain(void)
{
    enum { N = 1000 };
    sgrt_scene *s = new_scene();
    sgrt_node *n = malloc(N * sizeof *n);
    OK(sgrt_node_create(s, SGRT_NULL_NODE, &n[0]));
    for (int i = 1; i < N; i++)
        OK(sgrt_node_create(s, n[i - 1], &n[i]));
    CHECK_EQ_U(sgrt_scene_update(s), N);
    CHECK_EQ_U(sgrt_scene_update(s), 0);

    /* All moved, deepest first: still each once. */
    for (int i = N - 1; i >= 0; i--)
        move_to(s, n[i], 1);
    CHECK_EQ_U(sgrt_scene_update(s), N);
    CHECK(world_x(s, n[N - 1]) == (float)N);
    CHECK(world_x(s, n[N / 2]) == (float)(N / 2 + 1));

    /* All moved, root first. */
    for (int i = 0; i < N; i++)
        move_to(s, n[i], 2);
    CHECK_EQ_U(sgrt_scene_update(s), N);
    CHECK(world_x(s, n[N - 1]) == (float)(2 * N));

    /* Moving node i recomputes the N - i nodes from i down. */
    move_to(s, n[N - 10], 3);
    CHECK_EQ_U(sgrt_scene_update(s), 10);
    move_to(s, n[600], 3);
    move_to(s, n[700], 3);
    CHECK_EQ_U(sgrt_scene_update(s), N - 600);
    check_scene(s);
    free(n);
    sgrt_scene_destroy(s);
}

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* world_now and the keep-world re-parent that uses it, on a chain of 2^20
 * nodes, all moved: the results must be those of the update, to the bit.
 * Both walk the whole chain, so their times are printed beside the
 * update's (a figure, never asserted: sgrt_bench measures speed). */
static void test_deep_chain(void)
{
    enum { N = 1 << 20 };
    const sgrt_scene_desc desc = {.initial_capacity = N + 2};
    sgrt_scene *s = new_scene_desc(&desc);
    sgrt_node n = SGRT_NULL_NODE, bottom = SGRT_NULL_NODE, root;
    for (uint32_t i = 0; i < N; i++) {
        n = bottom;
        OK(sgrt_node_create(s, n, &bottom));
        float m[16];
        translation(1.0f / 1024.0f, (float)(i % 5), 0.0f, m);
        m[1] = (float)(i % 3) * 0.001f; /* not a pure translation: real products */
        OK(sgrt_node_set_local(s, bottom, m));
    }
    OK(sgrt_node_create(s, SGRT_NULL_NODE, &root));
    float now[16], above[16], w[16]; /* n: the node above bottom */
    double t0 = now_ms();
    OK(sgrt_node_world_now(s, bottom, now));
    const double t_now = now_ms() - t0;
    t0 = now_ms();
    OK(sgrt_node_set_parent(s, bottom, root, SGRT_KEEP_WORLD));
    const double t_keep = now_ms() - t0;
    OK(sgrt_node_world_now(s, n, above));
    t0 = now_ms();
    CHECK_EQ_U(sgrt_scene_update(s), N + 1u);
    const double t_update = now_ms() - t0;
    printf("depth %d, all moved: world_now %.1f ms, keep-world re-parent %.1f ms, update %.1f "
           "ms\n", N, t_now, t_keep, t_update);
    /* The keep-world local is that world (the new parent is an identity
     * root), and the update stored it. */
    OK(sgrt_node_local(s, bottom, w));
    CHECK(memcmp(w, now, sizeof w) == 0);
    OK(sgrt_node_world(s, bottom, w));
    CHECK(memcmp(w, now, sizeof w) == 0);
    OK(sgrt_node_world(s, n, w));
    CHECK(memcmp(w, above, sizeof w) == 0);
    sgrt_scene_destroy(s);
}

static void test_identical_bits(void)
{
    sgrt_scene *s = new_scene();
    sgrt_node a, b;
    OK(sgrt_node_create(s, SGRT_NULL_NODE, &a));
    OK(sgrt_node_create(s, a, &b));
    CHECK_EQ_U(sgrt_scene_update(s), 2);
    CHECK_EQ_U(sgrt_scene_update(s), 0);

    /* A new node's local is the identity: writing it again is no change. */
    OK(sgrt_node_set_local(s, a, IDENTITY));
    OK(sgrt_node_set_local(s, b, IDENTITY));
    CHECK_EQ_U(sgrt_scene_update(s), 0);

    float m[16];
    translation(1.5f, -2.25f, 3, m);
    OK(sgrt_node_set_local(s, a, m));
    CHECK_EQ_U(sgrt_scene_update(s), 2);
    float copy[16];
    memcpy(copy, m, sizeof m);
    OK(sgrt_node_set_local(s, a, copy));
    OK(sgrt_node_set_local(s, a, copy));
    CHECK_EQ_U(sgrt_scene_update(s), 0);

    /* -0.0 equals 0.0 but is not the same bits: it is a change (the world's
     * sign of zero follows it). */
    copy[1] = -0.0f;
    OK(sgrt_node_set_local(s, a, copy));
    CHECK_EQ_U(sgrt_scene_update(s), 2);

    /* A leaf: only itself. */
    copy[1] = 0.0f;
    OK(sgrt_node_set_local(s, b, copy));
    CHECK_EQ_U(sgrt_scene_update(s), 1);

    /* set_trs producing the same matrix twice marks once. */
    const float t[3] = {1, 2, 3}, q[4] = {0, 0, 0.6f, 0.8f}, sc[3] = {2, 3, 4};
    OK(sgrt_node_set_trs(s, b, t, q, sc));
    CHECK_EQ_U(sgrt_scene_update(s), 1);
    OK(sgrt_node_set_trs(s, b, t, q, sc));
    CHECK_EQ_U(sgrt_scene_update(s), 0);
    check_scene(s);
    sgrt_scene_destroy(s);
}

/* A deterministic tree of n nodes under `root`: node i's parent is one of the
 * nodes before it (a mix of bushy and deep). Returns the nodes in nodes[]. */
static void build_tree(sgrt_scene *s, sgrt_node root, sgrt_node *nodes, uint32_t *parent_idx,
                       int n)
{
    nodes[0] = root;
    parent_idx[0] = 0;
    for (int i = 1; i < n; i++) {
        const uint32_t p = rng_below(&R, 3) == 0 ? (uint32_t)(i - 1) : rng_below(&R, (uint32_t)i);
        parent_idx[i] = p;
        OK(sgrt_node_create(s, nodes[p], &nodes[i]));
    }
}

/* Subtree sizes from parent indices (parents precede children). */
static void subtree_sizes(const uint32_t *parent_idx, int n, uint32_t *size)
{
    for (int i = 0; i < n; i++)
        size[i] = 1;
    for (int i = n - 1; i > 0; i--)
        size[parent_idx[i]] += size[i];
}

/* True when node i is node a or below it. */
static bool below(const uint32_t *parent_idx, int i, int a)
{
    for (;;) {
        if (i == a)
            return true;
        if (i == 0)
            return false;
        i = (int)parent_idx[i];
    }
}

static void test_subtree(void)
{
    enum { K = 137, OTHER = 50 };
    sgrt_scene *s = new_scene();
    sgrt_node top, root, other[OTHER], nodes[K];
    uint32_t pidx[K], size[K];
    OK(sgrt_node_create(s, SGRT_NULL_NODE, &top));
    for (int i = 0; i < OTHER; i++)
        OK(sgrt_node_create(s, i % 2 ? top : SGRT_NULL_NODE, &other[i]));
    OK(sgrt_node_create(s, top, &root));
    build_tree(s, root, nodes, pidx, K);
    subtree_sizes(pidx, K, size);
    CHECK_EQ_U(size[0], K);
    CHECK_EQ_U(sgrt_scene_update(s), 1 + OTHER + K);

    move_to(s, root, 1);
    CHECK_EQ_U(sgrt_scene_update(s), K);

    /* Each inner node alone: its subtree. */
    for (int i = 1; i < K; i += 7) {
        move_to(s, nodes[i], (float)i);
        CHECK_EQ_U(sgrt_scene_update(s), size[i]);
    }

    /* A node and some of its descendants: still each node once. */
    for (int i = K - 1; i >= 0; i -= 3)
        move_to(s, nodes[i], 0.5f * (float)i);
    move_to(s, nodes[0], 9);
    CHECK_EQ_U(sgrt_scene_update(s), K);

    /* Two disjoint subtrees: the sum. Find two nodes, neither below the other. */
    int a = -1, b = -1;
    for (int i = 2; i < K && b < 0; i++) {
        for (int j = 1; j < i && b < 0; j++) {
            if (size[i] > 1 && size[j] > 1 && !below(pidx, i, j) && !below(pidx, j, i)) {
                a = j;
                b = i;
            }
        }
    }
    CHECK(a > 0 && b > 0);
    if (a > 0 && b > 0) {
        move_to(s, nodes[a], 4321);
        move_to(s, nodes[b], 4321);
        CHECK_EQ_U(sgrt_scene_update(s), size[a] + size[b]);
    }
    check_scene(s);
    sgrt_scene_destroy(s);
}

static void test_new_nodes(void)
{
    sgrt_scene *s = new_scene();
    sgrt_node a, b, c, d;
    OK(sgrt_node_create(s, SGRT_NULL_NODE, &a));
    OK(sgrt_node_create(s, a, &b));
    CHECK_EQ_U(sgrt_scene_update(s), 2);
    OK(sgrt_node_create(s, b, &c));
    CHECK_EQ_U(sgrt_scene_update(s), 1);
    /* A new leaf below a moved node is counted once. */
    move_to(s, a, 1);
    OK(sgrt_node_create(s, b, &d));
    CHECK_EQ_U(sgrt_scene_update(s), 4);
    CHECK(world_x(s, d) == 1.0f);
    /* A new root. */
    OK(sgrt_node_create(s, SGRT_NULL_NODE, &d));
    CHECK_EQ_U(sgrt_scene_update(s), 1);
    check_scene(s);
    sgrt_scene_destroy(s);
}

static void test_reparent_counts(void)
{
    enum { K = 40 };
    sgrt_scene *s = new_scene();
    sgrt_node p1, p2, late, nodes[K];
    uint32_t pidx[K], size[K];
    OK(sgrt_node_create(s, SGRT_NULL_NODE, &p1));
    OK(sgrt_node_create(s, SGRT_NULL_NODE, &p2));
    sgrt_node sub;
    OK(sgrt_node_create(s, p1, &sub));
    build_tree(s, sub, nodes, pidx, K);
    subtree_sizes(pidx, K, size);
    move_to(s, p2, 10);
    CHECK_EQ_U(sgrt_scene_update(s), 3 + K - 1);

    /* Keep local: the subtree moves with its new parent. */
    OK(sgrt_node_set_parent(s, sub, p2, SGRT_KEEP_LOCAL));
    CHECK_EQ_U(sgrt_scene_update(s), K);
    CHECK(world_x(s, nodes[K - 1]) == 10.0f);

    /* Keep world: the same nodes are recomputed (their world stays put). */
    OK(sgrt_node_set_parent(s, sub, p1, SGRT_KEEP_WORLD));
    CHECK_EQ_U(sgrt_scene_update(s), K);
    CHECK(world_x(s, nodes[K - 1]) == 10.0f);

    /* An inner node to root. */
    OK(sgrt_node_set_parent(s, nodes[1], SGRT_NULL_NODE, SGRT_KEEP_LOCAL));
    CHECK_EQ_U(sgrt_scene_update(s), size[1]);

    /* Under a node created later: storage moves, the count does not change. */
    OK(sgrt_node_create(s, SGRT_NULL_NODE, &late));
    CHECK_EQ_U(sgrt_scene_update(s), 1);
    OK(sgrt_node_set_parent(s, sub, late, SGRT_KEEP_LOCAL));
    CHECK_EQ_U(sgrt_scene_update(s), K - size[1]);

    /* Pending work survives compaction. */
    move_to(s, nodes[1], 3);
    OK(sgrt_scene_compact(s));
    CHECK_EQ_U(sgrt_scene_update(s), size[1]);
    check_scene(s);
    sgrt_scene_destroy(s);
}

/* ---- no allocation per frame --------------------------------------------- */

/* What the frames below mark, node by node: each local is the translation
 * (x, y, 0) or the one TRS matrix they write (a rotation, never a
 * translation), and a write marks a node when it changes the bits. */
typedef struct frame_model {
    uint32_t parent; /* index; UINT32_MAX: a root */
    int x, y;
    bool trs, marked, dirty;
} frame_model;

static void model_write_translation(frame_model *f, int x, int y)
{
    f->marked |= f->trs || f->x != x || f->y != y;
    f->trs = false;
    f->x = x;
    f->y = y;
}

static void model_write_trs(frame_model *f)
{
    f->marked |= !f->trs;
    f->trs = true;
}

/* The update's count: the marked nodes and everything below them (parents
 * have lower indices). Clears the marks. */
static uint32_t model_update(frame_model *f, uint32_t n)
{
    uint32_t count = 0;
    for (uint32_t i = 0; i < n; i++) {
        f[i].dirty = f[i].marked || (f[i].parent != UINT32_MAX && f[f[i].parent].dirty);
        f[i].marked = false;
        count += f[i].dirty;
    }
    return count;
}

static void test_no_allocation_per_frame(void)
{
    enum { N = 3000 };
    test_alloc c;
    sgrt_scene *s = new_scene_alloc(&c);
    CHECK(c.calls > 0);
    sgrt_node *n = malloc(N * sizeof *n);
    frame_model *model = calloc(N, sizeof *model); /* locals: the identity, translation (0, 0) */
    REQUIRE(n && model);
    for (int i = 0; i < N; i++) {
        model[i].parent = i < 4 ? UINT32_MAX : ((unsigned)i * 2654435761u >> 16) % (unsigned)i;
        OK(sgrt_node_create(s, i < 4 ? SGRT_NULL_NODE : n[model[i].parent], &n[i]));
    }
    CHECK_EQ_U(sgrt_scene_update(s), N);

    const uint64_t a0 = c.calls, f0 = c.frees;
    float m[16], out[16];
    const float t[3] = {1, 2, 3}, q[4] = {0.5f, 0.5f, 0.5f, 0.5f}, sc[3] = {1, 2, 0.5f};
    for (int frame = 0; frame < 20; frame++) {
        for (int i = frame; i < N; i += 3) {
            translation((float)frame, (float)i, 0, m);
            OK(sgrt_node_set_local(s, n[i], m));
            OK(sgrt_node_set_local(s, n[i], m)); /* unchanged */
            model_write_translation(&model[i], frame, i);
        }
        for (int i = frame; i < N; i += 5) {
            OK(sgrt_node_set_trs(s, n[i], t, q, sc));
            model_write_trs(&model[i]);
        }
        for (int i = 0; i < N; i += 11) {
            OK(sgrt_node_world_now(s, n[i], out));
            OK(sgrt_node_world(s, n[i], out));
            OK(sgrt_node_local(s, n[i], out));
        }
        CHECK_EQ_U(sgrt_scene_update(s), model_update(model, N));
        CHECK_EQ_U(sgrt_scene_update(s), 0);
        for (int i = 0; i < N; i += 7) {
            sgrt_node p;
            OK(sgrt_node_world(s, n[i], out));
            OK(sgrt_node_world_now(s, n[i], out));
            OK(sgrt_node_parent(s, n[i], &p));
            OK(sgrt_node_first_child(s, n[i], &p));
            OK(sgrt_node_next_sibling(s, n[i], &p));
            CHECK(sgrt_node_alive(s, n[i]));
        }
        CHECK_EQ_U(sgrt_scene_node_count(s), N);
    }
    CHECK_EQ_U(c.calls, a0);
    CHECK_EQ_U(c.frees, f0);

    /* Destroying never allocates either (nodes are only released). */
    OK(sgrt_node_destroy(s, n[3]));
    OK(sgrt_node_destroy(s, n[N - 1]));
    CHECK_EQ_U(c.calls, a0);
    free(n);
    free(model);
    end_scene_alloc(s, &c);
}

int main(void)
{
    test_pirate();
    test_moved_then_destroyed();
    test_chain();
    test_deep_chain();
    test_identical_bits();
    test_subtree();
    test_new_nodes();
    test_reparent_counts();
    test_no_allocation_per_frame();
    return test_report("test_update");
}
