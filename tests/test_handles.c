/* Handles and argument checking: every way of naming a node that is not a
 * live node of the scene is refused with SGRT_ERR_STALE_HANDLE, every bad
 * argument with its error, and a refused call changes nothing. */
#include "sgrt.h"
#include "testutil.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static rng R = {0x5eed5eed5eedULL};

static void some_matrix(uint32_t k, float m[16])
{
    for (int i = 0; i < 16; i++)
        m[i] = (i % 5 == 0) ? 1.0f : 0.0f;
    m[12] = (float)k;
    m[13] = 0.25f * (float)(k % 7);
    m[0] = 1.0f + 0.125f * (float)(k % 5);
}

/* ---- snapshots: what "changes nothing" means from outside ------------------ */

typedef struct node_state {
    bool alive;
    float local[16], world[16];
    sgrt_node parent, first_child, next_sibling;
} node_state;

typedef struct snapshot {
    uint32_t count;
    uint32_t n;
    node_state *st;
} snapshot;

static snapshot take(const sgrt_scene *s, const sgrt_node *nodes, uint32_t n)
{
    snapshot sn = {sgrt_scene_node_count(s), n, calloc(n ? n : 1, sizeof(node_state))};
    for (uint32_t i = 0; i < n; i++) {
        node_state *x = &sn.st[i];
        x->alive = sgrt_node_alive(s, nodes[i]);
        if (!x->alive)
            continue;
        OK(sgrt_node_local(s, nodes[i], x->local));
        OK(sgrt_node_world(s, nodes[i], x->world));
        OK(sgrt_node_parent(s, nodes[i], &x->parent));
        OK(sgrt_node_first_child(s, nodes[i], &x->first_child));
        OK(sgrt_node_next_sibling(s, nodes[i], &x->next_sibling));
    }
    return sn;
}

static bool same(const snapshot *a, const snapshot *b)
{
    if (a->count != b->count || a->n != b->n)
        return false;
    for (uint32_t i = 0; i < a->n; i++) {
        const node_state *x = &a->st[i], *y = &b->st[i];
        if (x->alive != y->alive)
            return false;
        if (!x->alive)
            continue;
        if (memcmp(x->local, y->local, sizeof x->local) || memcmp(x->world, y->world, sizeof x->world) ||
            x->parent.id != y->parent.id || x->first_child.id != y->first_child.id ||
            x->next_sibling.id != y->next_sibling.id)
            return false;
    }
    return true;
}

static void expect_unchanged(const sgrt_scene *s, const snapshot *before, const sgrt_node *nodes,
                             int line)
{
    snapshot now = take(s, nodes, before->n);
    if (!same(before, &now)) {
        fprintf(stderr, "%s:%d: scene changed by a refused call\n", __FILE__, line);
        test_failures++;
    }
    free(now.st);
}

/* A scene of n nodes in a few trees, updated (nothing pending). */
static void populate(sgrt_scene *s, sgrt_node *nodes, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        sgrt_node parent = (i % 17 == 0) ? SGRT_NULL_NODE : nodes[rng_below(&R, i)];
        OK(sgrt_node_create(s, parent, &nodes[i]));
        float m[16];
        some_matrix(i, m);
        OK(sgrt_node_set_local(s, nodes[i], m));
    }
    sgrt_scene_update(s);
}

/* Every function that takes a node, given `bad` in each node position, must
 * answer STALE_HANDLE (false for sgrt_node_alive). `good` is a live node. */
static int bad_handle_calls(sgrt_scene *s, sgrt_node bad, sgrt_node good)
{
    int wrong = 0;
#define EXPECT_STALE(call)                                                             \
    do {                                                                               \
        sgrt_result r_ = (call);                                                       \
        if (r_ != SGRT_ERR_STALE_HANDLE) {                                             \
            fprintf(stderr, "%s:%d: %s with handle 0x%08x returned %s\n", __FILE__,    \
                    __LINE__, #call, (unsigned)bad.id, sgrt_result_str(r_));           \
            wrong++;                                                                   \
        }                                                                              \
    } while (0)
    float m[16], out[16];
    some_matrix(99, m);
    const float t[3] = {1, 2, 3}, q[4] = {0, 0, 0, 1}, sc[3] = {1, 1, 1};
    sgrt_node o = {0x1234567u};
    if (sgrt_node_alive(s, bad)) {
        fprintf(stderr, "%s:%d: handle 0x%08x reported alive\n", __FILE__, __LINE__,
                (unsigned)bad.id);
        wrong++;
    }
    /* The zero handle is a valid *parent*: "no parent". */
    const bool parent_too = bad.id != 0u;
    if (parent_too) {
        EXPECT_STALE(sgrt_node_create(s, bad, &o));
        if (o.id != 0x1234567u) {
            fprintf(stderr, "%s:%d: sgrt_node_create wrote *out on error\n", __FILE__, __LINE__);
            wrong++;
        }
        EXPECT_STALE(sgrt_node_set_parent(s, good, bad, SGRT_KEEP_LOCAL));
        EXPECT_STALE(sgrt_node_set_parent(s, good, bad, SGRT_KEEP_WORLD));
    }
    EXPECT_STALE(sgrt_node_destroy(s, bad));
    EXPECT_STALE(sgrt_node_parent(s, bad, &o));
    EXPECT_STALE(sgrt_node_first_child(s, bad, &o));
    EXPECT_STALE(sgrt_node_next_sibling(s, bad, &o));
    EXPECT_STALE(sgrt_node_set_parent(s, bad, good, SGRT_KEEP_LOCAL));
    EXPECT_STALE(sgrt_node_set_parent(s, bad, good, SGRT_KEEP_WORLD));
    EXPECT_STALE(sgrt_node_set_parent(s, bad, SGRT_NULL_NODE, SGRT_KEEP_LOCAL));
    EXPECT_STALE(sgrt_node_set_local(s, bad, m));
    EXPECT_STALE(sgrt_node_set_trs(s, bad, t, q, sc));
    EXPECT_STALE(sgrt_node_local(s, bad, out));
    EXPECT_STALE(sgrt_node_world(s, bad, out));
    EXPECT_STALE(sgrt_node_world_now(s, bad, out));
#undef EXPECT_STALE
    return wrong;
}

static void test_bad_handles(void)
{
    enum { N = 600 };
    sgrt_scene *s = new_scene();
    sgrt_node nodes[N];
    populate(s, nodes, N);

    /* Some destroyed nodes (with their subtrees). */
    sgrt_node dead[40];
    uint32_t ndead = 0;
    for (uint32_t i = N - 1; ndead < 40 && i > 0; i -= 13)
        if (sgrt_node_alive(s, nodes[i])) {
            dead[ndead++] = nodes[i];
            OK(sgrt_node_destroy(s, nodes[i]));
        }
    CHECK(ndead == 40);
    sgrt_scene_update(s);
    sgrt_node good = nodes[0];
    CHECK(sgrt_node_alive(s, good));

    snapshot before = take(s, nodes, N);
    int wrong = 0;

    wrong += bad_handle_calls(s, SGRT_NULL_NODE, good);
    for (uint32_t i = 0; i < ndead; i++)
        wrong += bad_handle_calls(s, dead[i], good);

    /* Every destroyed descendant is refused too. */
    for (uint32_t i = 0; i < N; i++)
        if (!before.st[i].alive)
            wrong += bad_handle_calls(s, nodes[i], good);

    /* Live handles with a different generation field, a zero generation
     * field, or an index far past those handed out. */
    for (uint32_t i = 0; i < N; i += 7) {
        if (!before.st[i].alive)
            continue;
        const uint32_t id = nodes[i].id;
        for (uint32_t g = 1; g < 256; g += 17) {
            sgrt_node h = {id ^ (g << 24)};
            wrong += bad_handle_calls(s, h, good);
        }
        sgrt_node h0 = {id & 0x00FFFFFFu};
        wrong += bad_handle_calls(s, h0, good);
        sgrt_node far = {id ^ 0x00800000u};
        wrong += bad_handle_calls(s, far, good);
    }

    /* Random ids, minus any that happen to be live ones. */
    for (int k = 0; k < 3000; k++) {
        sgrt_node h = {(uint32_t)rng_next(&R)};
        bool live = false;
        for (uint32_t i = 0; i < N; i++)
            live |= before.st[i].alive && nodes[i].id == h.id;
        if (!live)
            wrong += bad_handle_calls(s, h, good);
    }
    sgrt_node extremes[] = {{1u}, {0x00FFFFFFu}, {0x01000000u}, {0xFF000000u}, {0xFFFFFFFFu},
                            {0x80000000u}, {0x7FFFFFFFu}};
    for (size_t k = 0; k < sizeof extremes / sizeof extremes[0]; k++) {
        bool live = false;
        for (uint32_t i = 0; i < N; i++)
            live |= before.st[i].alive && nodes[i].id == extremes[k].id;
        if (!live)
            wrong += bad_handle_calls(s, extremes[k], good);
    }
    CHECK(wrong == 0);
    expect_unchanged(s, &before, nodes, __LINE__);
    CHECK(sgrt_scene_update(s) == 0); /* nothing was marked either */
    check_scene(s);
    free(before.st);
    sgrt_scene_destroy(s);
}

/* Handles of one scene in another: the per-scene scramble of ids makes them
 * fail (with a probability of a false accept far below what these counts
 * could reveal, so every single one is required to fail). */
static void test_foreign_handles(void)
{
    enum { SCENES = 8, N = 1500 };
    sgrt_scene *sc[SCENES];
    static sgrt_node nodes[SCENES][N];
    for (int k = 0; k < SCENES; k++) {
        sc[k] = new_scene();
        populate(sc[k], nodes[k], N);
        /* some destroyed handles too */
        for (uint32_t i = N - 1; i > N - 100; i -= 3)
            if (sgrt_node_alive(sc[k], nodes[k][i]))
                OK(sgrt_node_destroy(sc[k], nodes[k][i]));
    }
    int accepted = 0, wrong = 0;
    for (int a = 0; a < SCENES; a++)
        for (int b = 0; b < SCENES; b++) {
            if (a == b)
                continue;
            snapshot before = take(sc[b], nodes[b], N);
            for (uint32_t i = 0; i < N; i++) {
                if (sgrt_node_alive(sc[b], nodes[a][i])) {
                    fprintf(stderr, "handle 0x%08x of scene %d accepted by scene %d\n",
                            (unsigned)nodes[a][i].id, a, b);
                    accepted++;
                }
                if (i % 50 == 0)
                    wrong += bad_handle_calls(sc[b], nodes[a][i], nodes[b][0]);
            }
            expect_unchanged(sc[b], &before, nodes[b], __LINE__);
            free(before.st);
        }
    CHECK(accepted == 0);
    CHECK(wrong == 0);
    for (int k = 0; k < SCENES; k++) {
        check_scene(sc[k]);
        sgrt_scene_destroy(sc[k]);
    }
}

/* Indices are reused first-in first-out and only once 1024 are free, and a
 * generation wraps after 255 reuses: a destroyed handle must be refused for
 * at least 1024 * 255 = 261,120 destructions. */
#define GUARANTEED_DESTRUCTIONS 261120u

typedef struct id_table { /* id -> destruction number, open addressing */
    uint32_t *key;
    uint32_t *val;
    uint32_t mask;
} id_table;

static uint32_t *id_slot(id_table *t, uint32_t id)
{
    uint32_t i = (id * 2654435761u) & t->mask;
    while (t->key[i] != 0u && t->key[i] != id)
        i = (i + 1u) & t->mask;
    return &t->key[i];
}

static void test_generation_reuse(void)
{
    sgrt_scene *s = new_scene();

    /* Fewer than 1024 free indices: every create takes a fresh one, so ids
     * never repeat. */
    enum { FRESH = 1000 };
    static uint32_t ids[FRESH];
    for (uint32_t i = 0; i < FRESH; i++) {
        sgrt_node n;
        OK(sgrt_node_create(s, SGRT_NULL_NODE, &n));
        ids[i] = n.id;
        CHECK(n.id != 0u);
        for (uint32_t j = 0; j < i; j++)
            if (ids[j] == n.id) {
                fprintf(stderr, "id 0x%08x handed out twice within %u creations\n",
                        (unsigned)n.id, (unsigned)i);
                test_failures++;
            }
        OK(sgrt_node_destroy(s, n));
    }
    for (uint32_t i = 0; i < FRESH; i++) {
        sgrt_node n = {ids[i]};
        CHECK(!sgrt_node_alive(s, n));
    }
    sgrt_scene_destroy(s);

    /* Churn: a pool of up to 200 live nodes (some with children), random
     * creates and destroys. Every destroyed id is remembered with the number
     * of destructions at that time; a new id equal to one destroyed fewer
     * than GUARANTEED_DESTRUCTIONS ago is a failure, and so is any such id
     * reported alive. */
    s = new_scene();
    id_table tab;
    tab.mask = (1u << 21) - 1u;
    tab.key = calloc((size_t)tab.mask + 1u, sizeof *tab.key);
    tab.val = calloc((size_t)tab.mask + 1u, sizeof *tab.val);
    enum { POOL = 200, RING = 4096 };
    sgrt_node pool[POOL];
    uint32_t pool_n = 0, destroyed = 0, reused_ids = 0;
    static uint32_t ring[RING];
    uint32_t ring_n = 0;
    sgrt_node first_dead = SGRT_NULL_NODE;
    int reported = 0;
    while (destroyed < GUARANTEED_DESTRUCTIONS + 20000u) {
        if (pool_n < POOL && (pool_n < 10 || rng_below(&R, 2))) {
            sgrt_node n;
            OK(sgrt_node_create(s, SGRT_NULL_NODE, &n));
            uint32_t *k = id_slot(&tab, n.id);
            if (*k == n.id) {
                uint32_t age = destroyed - tab.val[k - tab.key];
                if (age < GUARANTEED_DESTRUCTIONS && reported++ < 10) {
                    fprintf(stderr, "id 0x%08x reused after only %u destructions\n",
                            (unsigned)n.id, (unsigned)age);
                    test_failures++;
                }
                reused_ids++;
            }
            pool[pool_n++] = n;
        } else {
            uint32_t i = rng_below(&R, pool_n);
            sgrt_node n = pool[i];
            pool[i] = pool[--pool_n];
            OK(sgrt_node_destroy(s, n));
            CHECK(!sgrt_node_alive(s, n));
            uint32_t *k = id_slot(&tab, n.id);
            *k = n.id;
            tab.val[k - tab.key] = destroyed;
            destroyed++;
            ring[ring_n++ % RING] = n.id;
            if (first_dead.id == 0u)
                first_dead = n;
            if (destroyed < GUARANTEED_DESTRUCTIONS && sgrt_node_alive(s, first_dead) &&
                reported++ < 10) {
                fprintf(stderr, "first destroyed handle alive again after %u destructions\n",
                        (unsigned)destroyed);
                test_failures++;
            }
            if (destroyed % RING == 0)
                for (uint32_t j = 0; j < RING; j++) {
                    sgrt_node h = {ring[j]};
                    if (sgrt_node_alive(s, h) && reported++ < 10) {
                        fprintf(stderr, "recently destroyed handle 0x%08x alive\n",
                                (unsigned)h.id);
                        test_failures++;
                    }
                }
        }
    }
    printf("generation reuse: %u destructions, %u ids seen again after the guaranteed span\n",
           (unsigned)destroyed, (unsigned)reused_ids);
    check_scene(s);
    free(tab.key);
    free(tab.val);
    sgrt_scene_destroy(s);
}

static void test_null_pointers(void)
{
    sgrt_scene *s = new_scene();
    sgrt_node a, b;
    OK(sgrt_node_create(s, SGRT_NULL_NODE, &a));
    OK(sgrt_node_create(s, a, &b));
    sgrt_scene_update(s);
    const sgrt_node nodes[2] = {a, b};
    snapshot before = take(s, nodes, 2);
    float m[16], out[16];
    some_matrix(3, m);
    const float t[3] = {1, 2, 3}, q[4] = {0, 0, 0, 1}, sc[3] = {1, 1, 1};
    sgrt_node o;

    CHECK_RES(sgrt_scene_create(NULL, NULL), SGRT_ERR_INVALID_ARG);
    const sgrt_scene_desc d0 = {0, 0, NULL, SGRT_SIMD_AUTO};
    CHECK_RES(sgrt_scene_create(&d0, NULL), SGRT_ERR_INVALID_ARG);
    sgrt_scene_destroy(NULL);
    CHECK_RES(sgrt_scene_reserve(NULL, 10), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_scene_compact(NULL), SGRT_ERR_INVALID_ARG);
    CHECK(sgrt_scene_node_count(NULL) == 0);
    CHECK(sgrt_scene_update(NULL) == 0);
    CHECK_RES(sgrt_scene_check(NULL, NULL), SGRT_ERR_INVALID_ARG);
    const char *what = "x";
    CHECK_RES(sgrt_scene_check(NULL, &what), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_scene_check(s, NULL), SGRT_OK);

    CHECK_RES(sgrt_node_create(NULL, SGRT_NULL_NODE, &o), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_node_create(s, SGRT_NULL_NODE, NULL), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_node_create(s, a, NULL), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_node_destroy(NULL, a), SGRT_ERR_INVALID_ARG);
    CHECK(!sgrt_node_alive(NULL, a));
    CHECK_RES(sgrt_node_parent(NULL, a, &o), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_node_parent(s, a, NULL), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_node_first_child(NULL, a, &o), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_node_first_child(s, a, NULL), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_node_next_sibling(NULL, a, &o), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_node_next_sibling(s, a, NULL), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_node_set_parent(NULL, b, SGRT_NULL_NODE, SGRT_KEEP_LOCAL), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_node_set_local(NULL, a, m), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_node_set_local(s, a, NULL), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_node_set_trs(NULL, a, t, q, sc), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_node_set_trs(s, a, NULL, q, sc), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_node_set_trs(s, a, t, NULL, sc), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_node_set_trs(s, a, t, q, NULL), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_node_local(NULL, a, out), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_node_local(s, a, NULL), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_node_world(NULL, a, out), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_node_world(s, a, NULL), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_node_world_now(NULL, a, out), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_node_world_now(s, a, NULL), SGRT_ERR_INVALID_ARG);

    expect_unchanged(s, &before, nodes, __LINE__);
    CHECK(sgrt_scene_update(s) == 0);
    free(before.st);
    check_scene(s);
    sgrt_scene_destroy(s);
}

static void test_non_finite(void)
{
    sgrt_scene *s = new_scene();
    sgrt_node a, b;
    OK(sgrt_node_create(s, SGRT_NULL_NODE, &a));
    OK(sgrt_node_create(s, a, &b));
    float m[16];
    some_matrix(5, m);
    OK(sgrt_node_set_local(s, b, m));
    sgrt_scene_update(s);
    const sgrt_node nodes[2] = {a, b};
    snapshot before = take(s, nodes, 2);

    float bad_values[4];
    bad_values[0] = NAN;
    bad_values[1] = INFINITY;
    bad_values[2] = -INFINITY;
    const uint32_t snan_bits = 0x7F800001u; /* signalling NaN */
    memcpy(&bad_values[3], &snan_bits, sizeof snan_bits);

    for (int v = 0; v < 4; v++) {
        for (int i = 0; i < 16; i++) {
            float x[16];
            memcpy(x, m, sizeof x);
            x[i] = bad_values[v];
            CHECK_RES(sgrt_node_set_local(s, a, x), SGRT_ERR_INVALID_ARG);
            CHECK_RES(sgrt_node_set_local(s, b, x), SGRT_ERR_INVALID_ARG);
        }
        for (int i = 0; i < 10; i++) {
            float t[3] = {1, 2, 3}, q[4] = {0, 0.6f, 0, 0.8f}, sc[3] = {1, 2, 3};
            float *p = i < 3 ? &t[i] : i < 7 ? &q[i - 3] : &sc[i - 7];
            *p = bad_values[v];
            CHECK_RES(sgrt_node_set_trs(s, a, t, q, sc), SGRT_ERR_INVALID_ARG);
            CHECK_RES(sgrt_node_set_trs(s, b, t, q, sc), SGRT_ERR_INVALID_ARG);
        }
    }
    expect_unchanged(s, &before, nodes, __LINE__);
    CHECK(sgrt_scene_update(s) == 0);

    /* Finite extremes are values like any other. */
    float x[16];
    memcpy(x, m, sizeof x);
    x[1] = 1e-45f; /* denormal */
    x[2] = 3.4028235e38f;
    x[3] = -3.4028235e38f;
    OK(sgrt_node_set_local(s, b, x));
    float back[16];
    OK(sgrt_node_local(s, b, back));
    CHECK(memcmp(back, x, sizeof x) == 0);
    CHECK(sgrt_scene_update(s) == 1);
    free(before.st);
    check_scene(s);
    sgrt_scene_destroy(s);
}

static void test_bad_keep(void)
{
    sgrt_scene *s = new_scene();
    sgrt_node a, b, c;
    OK(sgrt_node_create(s, SGRT_NULL_NODE, &a));
    OK(sgrt_node_create(s, a, &b));
    OK(sgrt_node_create(s, SGRT_NULL_NODE, &c));
    sgrt_scene_update(s);
    const sgrt_node nodes[3] = {a, b, c};
    snapshot before = take(s, nodes, 3);
    const int bad_keeps[] = {2, 3, 7, 255, 0x7FFFFFFF};
    for (size_t i = 0; i < sizeof bad_keeps / sizeof bad_keeps[0]; i++) {
        CHECK_RES(sgrt_node_set_parent(s, b, c, (sgrt_keep)bad_keeps[i]), SGRT_ERR_INVALID_ARG);
        CHECK_RES(sgrt_node_set_parent(s, b, SGRT_NULL_NODE, (sgrt_keep)bad_keeps[i]),
                SGRT_ERR_INVALID_ARG);
        CHECK_RES(sgrt_node_set_parent(s, c, a, (sgrt_keep)bad_keeps[i]), SGRT_ERR_INVALID_ARG);
    }
    expect_unchanged(s, &before, nodes, __LINE__);
    CHECK(sgrt_scene_update(s) == 0);
    free(before.st);
    check_scene(s);
    sgrt_scene_destroy(s);
}

static void *never_alloc(size_t size, size_t align, void *user)
{
    (void)size;
    (void)align;
    (void)user;
    return NULL;
}

static void never_free(void *p, size_t size, void *user)
{
    (void)p;
    (void)size;
    (void)user;
}

static void test_bad_desc(void)
{
    sgrt_scene *s = NULL;
    const sgrt_scene_desc too_many = {0, SGRT_MAX_NODES + 1u, NULL, SGRT_SIMD_AUTO};
    CHECK_RES(sgrt_scene_create(&too_many, &s), SGRT_ERR_INVALID_ARG);
    const sgrt_scene_desc way_too_many = {0, UINT32_MAX, NULL, SGRT_SIMD_AUTO};
    CHECK_RES(sgrt_scene_create(&way_too_many, &s), SGRT_ERR_INVALID_ARG);
    const sgrt_scene_desc init_over_max = {11, 10, NULL, SGRT_SIMD_AUTO};
    CHECK_RES(sgrt_scene_create(&init_over_max, &s), SGRT_ERR_INVALID_ARG);
    const sgrt_scene_desc init_over_default_max = {SGRT_MAX_NODES + 1u, 0, NULL, SGRT_SIMD_AUTO};
    CHECK_RES(sgrt_scene_create(&init_over_default_max, &s), SGRT_ERR_INVALID_ARG);
    const sgrt_allocator no_alloc = {NULL, never_free, NULL};
    const sgrt_allocator no_free = {never_alloc, NULL, NULL};
    const sgrt_allocator neither = {NULL, NULL, NULL};
    const sgrt_scene_desc d1 = {0, 0, &no_alloc, SGRT_SIMD_AUTO}, d2 = {0, 0, &no_free, SGRT_SIMD_AUTO}, d3 = {0, 0, &neither, SGRT_SIMD_AUTO};
    CHECK_RES(sgrt_scene_create(&d1, &s), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_scene_create(&d2, &s), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_scene_create(&d3, &s), SGRT_ERR_INVALID_ARG);

    /* An allocator that always fails: NOMEM, nothing leaked (ASan would see). */
    const sgrt_allocator failing = {never_alloc, never_free, NULL};
    const sgrt_scene_desc d4 = {0, 0, &failing, SGRT_SIMD_AUTO};
    CHECK_RES(sgrt_scene_create(&d4, &s), SGRT_ERR_NOMEM);

    /* The edges that are allowed. */
    const sgrt_scene_desc exact = {10, 10, NULL, SGRT_SIMD_AUTO};
    OK(sgrt_scene_create(&exact, &s));
    sgrt_scene_destroy(s);
    s = NULL;
    const sgrt_scene_desc max = {0, SGRT_MAX_NODES, NULL, SGRT_SIMD_AUTO};
    OK(sgrt_scene_create(&max, &s));
    sgrt_scene_destroy(s);
}

static void test_capacity(void)
{
    enum { MAX = 100 };
    const sgrt_scene_desc desc = {0, MAX, NULL, SGRT_SIMD_AUTO};
    sgrt_scene *s = new_scene_desc(&desc);
    sgrt_node nodes[MAX];
    populate(s, nodes, MAX);
    CHECK(sgrt_scene_node_count(s) == MAX);
    float m[16];
    some_matrix(1000, m);
    OK(sgrt_node_set_local(s, nodes[5], m)); /* pending work must survive */
    snapshot before = take(s, nodes, MAX);

    sgrt_node o = {0xABCDEFu};
    CHECK_RES(sgrt_node_create(s, SGRT_NULL_NODE, &o), SGRT_ERR_CAPACITY);
    CHECK_RES(sgrt_node_create(s, nodes[3], &o), SGRT_ERR_CAPACITY);
    CHECK(o.id == 0xABCDEFu);
    CHECK_RES(sgrt_scene_reserve(s, MAX + 1), SGRT_ERR_CAPACITY);
    OK(sgrt_scene_reserve(s, MAX));
    expect_unchanged(s, &before, nodes, __LINE__);
    check_scene(s);

    /* Re-parenting does not change the node count: allowed when full, even
     * when storage must move (under a root created later). */
    const uint32_t late_root = (MAX - 1) / 17 * 17;
    OK(sgrt_node_set_parent(s, nodes[1], nodes[late_root], SGRT_KEEP_LOCAL));
    check_scene(s);

    /* Room again after a destroy. */
    sgrt_node leaf = nodes[late_root];
    sgrt_node child;
    OK(sgrt_node_first_child(s, leaf, &child));
    while (child.id != 0u) {
        leaf = child;
        OK(sgrt_node_first_child(s, leaf, &child));
    }
    OK(sgrt_node_destroy(s, leaf));
    CHECK(sgrt_scene_node_count(s) == MAX - 1);
    OK(sgrt_node_create(s, SGRT_NULL_NODE, &o));
    CHECK_RES(sgrt_node_create(s, SGRT_NULL_NODE, &o), SGRT_ERR_CAPACITY);
    check_scene(s);
    free(before.st);
    sgrt_scene_destroy(s);
}

static void test_result_str(void)
{
    static const struct {
        sgrt_result r;
        const char *name;
    } known[] = {
        {SGRT_OK, "SGRT_OK"},
        {SGRT_ERR_INVALID_ARG, "SGRT_ERR_INVALID_ARG"},
        {SGRT_ERR_STALE_HANDLE, "SGRT_ERR_STALE_HANDLE"},
        {SGRT_ERR_CYCLE, "SGRT_ERR_CYCLE"},
        {SGRT_ERR_NOMEM, "SGRT_ERR_NOMEM"},
        {SGRT_ERR_CAPACITY, "SGRT_ERR_CAPACITY"},
        {SGRT_ERR_SINGULAR, "SGRT_ERR_SINGULAR"},
        {SGRT_ERR_CORRUPT, "SGRT_ERR_CORRUPT"},
    };
    const size_t nk = sizeof known / sizeof known[0];
    for (size_t i = 0; i < nk; i++) {
        const char *str = sgrt_result_str(known[i].r);
        CHECK(str != NULL);
        if (str && strcmp(str, known[i].name) != 0) {
            fprintf(stderr, "sgrt_result_str(%d) = \"%s\", expected \"%s\"\n", (int)known[i].r,
                    str, known[i].name);
            test_failures++;
        }
    }
    const int unknown[] = {1, 2, -8, -100, 12345, INT_MIN, INT_MAX};
    for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++) {
        const char *str = sgrt_result_str((sgrt_result)unknown[i]);
        CHECK(str != NULL && str[0] != '\0');
        for (size_t j = 0; str && j < nk; j++)
            CHECK(strcmp(str, known[j].name) != 0);
    }
}

int main(int argc, char **argv)
{
    if (argc > 1)
        R.s = strtoull(argv[1], NULL, 0);
    printf("test_handles: seed 0x%llx\n", (unsigned long long)R.s);
    test_result_str();
    test_bad_handles();
    test_foreign_handles();
    test_null_pointers();
    test_non_finite();
    test_bad_keep();
    test_bad_desc();
    test_capacity();
    test_generation_reuse();
    return test_report("test_handles");
}
