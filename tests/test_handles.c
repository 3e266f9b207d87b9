/* SPDX-License-Identifier: MIT */
/* The handle table: every way of naming a node that is not a live node of
 * the scene is refused with SGRT_ERR_STALE_HANDLE and changes nothing, and
 * handles are reused as documented.
 *
 * Handle reuse is checked against a model of the documented rule, not of the
 * implementation: an index freed by a destroy goes to the back of a FIFO;
 * sgrt_node_create takes the front index only while more than
 * SGRT__MIN_FREE_HANDLES (1024) indices are free (so at least 1024 others
 * stay free), otherwise it takes a never-used index; each destroy advances
 * the index's generation, modulo 255. Ids are scrambled per scene, so the test
 * never decodes them: it checks that two ids the library returned are equal
 * exactly when the model gives them the same (index, generation), and that an
 * old handle is alive exactly when the model says its (index, generation) is
 * live again. */
#include "internal.h" /* white-box: the index space near its limit */
#include "handles.h"
#include "testutil.h"

#define MIN_FREE 1024u  /* documented in sgrt.h */
#define GEN_PERIOD 255u /* documented in sgrt.h */
/* A destroyed handle must be refused for at least 1024 * 255 destructions. */
#define GUARANTEED_DESTRUCTIONS 261120u

static rng R = {0x5eed5eed5eedULL};

static void some_matrix(uint32_t k, float m[16])
{
    translation((float)k, 0.25f * (float)(k % 7), 0.0f, m);
    m[0] = 1.0f + 0.125f * (float)(k % 5);
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

    snapshot before;
    snapshot_take(s, nodes, N, &before);
    int wrong = 0;

    wrong += bad_handle_calls(s, SGRT_NULL_NODE, good);
    for (uint32_t i = 0; i < ndead; i++)
        wrong += bad_handle_calls(s, dead[i], good);

    /* Every destroyed descendant is refused too. */
    for (uint32_t i = 0; i < N; i++)
        if (!before.nodes[i].alive)
            wrong += bad_handle_calls(s, nodes[i], good);

    /* Live handles with a different generation field, a zero generation
     * field, or an index far past those handed out. */
    for (uint32_t i = 0; i < N; i += 7) {
        if (!before.nodes[i].alive)
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
            live |= before.nodes[i].alive && nodes[i].id == h.id;
        if (!live)
            wrong += bad_handle_calls(s, h, good);
    }
    sgrt_node extremes[] = {{1u}, {0x00FFFFFFu}, {0x01000000u}, {0xFF000000u}, {0xFFFFFFFFu},
                            {0x80000000u}, {0x7FFFFFFFu}};
    for (size_t k = 0; k < sizeof extremes / sizeof extremes[0]; k++) {
        bool live = false;
        for (uint32_t i = 0; i < N; i++)
            live |= before.nodes[i].alive && nodes[i].id == extremes[k].id;
        if (!live)
            wrong += bad_handle_calls(s, extremes[k], good);
    }
    CHECK(wrong == 0);
    check_unchanged(s, &before, nodes, "calls with bad handles");
    CHECK(sgrt_scene_update(s) == 0); /* nothing was marked either */
    check_scene(s);
    snapshot_free(&before);
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
            snapshot before;
            snapshot_take(sc[b], nodes[b], N, &before);
            for (uint32_t i = 0; i < N; i++) {
                if (sgrt_node_alive(sc[b], nodes[a][i])) {
                    fprintf(stderr, "handle 0x%08x of scene %d accepted by scene %d\n",
                            (unsigned)nodes[a][i].id, a, b);
                    accepted++;
                }
                if (i % 50 == 0)
                    wrong += bad_handle_calls(sc[b], nodes[a][i], nodes[b][0]);
            }
            check_unchanged(sc[b], &before, nodes[b], "calls with foreign handles");
            snapshot_free(&before);
        }
    CHECK(accepted == 0);
    CHECK(wrong == 0);
    for (int k = 0; k < SCENES; k++) {
        check_scene(sc[k]);
        sgrt_scene_destroy(sc[k]);
    }
}

/* The handles of a destroyed scene, given to a new scene that sits at the
 * same address. The scramble once came from the address alone, so the new
 * scene accepted them (16 times in 20 with glibc). sgrt.h promises, where
 * a cycle counter exists (x86, AArch64), that each is refused with
 * probability at least 127/128; the test demands that of the trials taken
 * together (a trial accepts any handle with probability about 1/128 only if
 * the scrambles line up, expected well under one trial in 200 here), with
 * glibc's allocator and with one that hands the very same blocks back. */
typedef struct same_blocks {
    struct {
        void *p;
        size_t size;
    } cache[8];
    int n;
    test_alloc ta; /* the real allocations, checked */
} same_blocks;

static void *sb_alloc(size_t size, size_t align, void *user)
{
    same_blocks *b = user;
    for (int i = b->n; i-- > 0;)
        if (b->cache[i].size == size) {
            void *p = b->cache[i].p;
            b->cache[i] = b->cache[--b->n];
            return p;
        }
    return test_alloc_alloc(size, align, &b->ta);
}

static void sb_free(void *ptr, size_t size, void *user)
{
    same_blocks *b = user;
    if (b->n < 8) {
        b->cache[b->n].p = ptr;
        b->cache[b->n].size = size;
        b->n++;
    } else {
        test_alloc_free(ptr, size, &b->ta);
    }
}

#if defined(__x86_64__) || defined(__i386__) || defined(__aarch64__) || defined(_M_X64) || \
    defined(_M_IX86)
#define HAS_CYCLE_COUNTER 1
#else
#define HAS_CYCLE_COUNTER 0
#endif

static void test_old_scene_handles(void)
{
    enum { TRIALS = 200, N = 64 };
    same_blocks sb;
    memset(&sb, 0, sizeof sb);
    const sgrt_allocator same = {sb_alloc, sb_free, &sb};
    for (int custom = 0; custom < 2; custom++) {
        const sgrt_scene_desc desc = {.allocator = custom ? &same : NULL};
        int same_address = 0, trials_accepting = 0, handles_accepted = 0;
        for (int t = 0; t < TRIALS; t++) {
            sgrt_scene *a = new_scene_desc(&desc);
            sgrt_node old[N], fresh[N];
            for (int i = 0; i < N; i++)
                OK(sgrt_node_create(a, i ? old[i / 2] : SGRT_NULL_NODE, &old[i]));
            const uintptr_t where = (uintptr_t)a;
            sgrt_scene_destroy(a);
            sgrt_scene *b = new_scene_desc(&desc);
            for (int i = 0; i < N; i++)
                OK(sgrt_node_create(b, i ? fresh[i / 2] : SGRT_NULL_NODE, &fresh[i]));
            if ((uintptr_t)b == where) {
                same_address++;
                int accepted = 0;
                for (int i = 0; i < N; i++)
                    accepted += sgrt_node_alive(b, old[i]);
                handles_accepted += accepted;
                trials_accepting += accepted != 0;
            }
            sgrt_scene_destroy(b);
        }
        printf("old handles in a new scene at the same address (%s allocator): %d of %d "
               "trials at the same address, %d of them accepted old handles (%d of %d)\n",
               custom ? "same-block" : "default", same_address, TRIALS, trials_accepting,
               handles_accepted, same_address * N);
        if (custom)
            CHECK_EQ_U(same_address, TRIALS);
        if (HAS_CYCLE_COUNTER)
            CHECK_MSG(handles_accepted * 128 <= same_address * N && trials_accepting <= 6,
                      "%s allocator: a new scene at a destroyed scene's address accepted %d of "
                      "%d old handles, in %d of %d trials",
                      custom ? "same-block" : "default", handles_accepted, same_address * N,
                      trials_accepting, same_address);
    }
    for (int i = 0; i < sb.n; i++)
        test_alloc_free(sb.cache[i].p, sb.cache[i].size, &sb.ta);
    check_alloc_empty(&sb.ta);
    test_alloc_release(&sb.ta);
}

/* Fewer than 1024 free indices: every create takes a fresh one, so ids never
 * repeat. */
static void test_fresh_indices(void)
{
    sgrt_scene *s = new_scene();

    enum { FRESH = 1000 };
    static uint32_t ids[FRESH];
    for (uint32_t i = 0; i < FRESH; i++) {
        sgrt_node n;
        OK(sgrt_node_create(s, SGRT_NULL_NODE, &n));
        ids[i] = n.id;
        CHECK(n.id != 0u);
        for (uint32_t j = 0; j < i; j++)
            if (ids[j] == n.id) {
                FAIL("id 0x%08x handed out twice within %u creations", (unsigned)n.id,
                     (unsigned)i);
            }
        OK(sgrt_node_destroy(s, n));
    }
    for (uint32_t i = 0; i < FRESH; i++) {
        sgrt_node n = {ids[i]};
        CHECK(!sgrt_node_alive(s, n));
    }
    sgrt_scene_destroy(s);
}

/* Model of the handle allocator: index -> generation, FIFO of free indices. */
typedef struct handle_model {
    uint32_t used;
    uint8_t *gen;
    uint32_t *ring;
    uint32_t head, count, cap;
} handle_model;

static void hm_init(handle_model *hm, uint32_t cap)
{
    hm->used = 0;
    hm->cap = cap;
    hm->gen = calloc(cap, 1);
    hm->ring = calloc(cap, sizeof *hm->ring);
    hm->head = hm->count = 0;
    if (!hm->gen || !hm->ring)
        abort();
}

static void hm_free(handle_model *hm)
{
    free(hm->gen);
    free(hm->ring);
}

/* Key of a live node: (index, generation) in one number. */
static uint32_t hm_take(handle_model *hm)
{
    uint32_t index;
    if (hm->count > MIN_FREE) {
        index = hm->ring[hm->head];
        hm->head = (hm->head + 1u) % hm->cap;
        hm->count--;
    } else {
        index = hm->used++;
        if (hm->used > hm->cap)
            abort();
    }
    return index * 256u + hm->gen[index];
}

static void hm_release(handle_model *hm, uint32_t key)
{
    const uint32_t index = key / 256u;
    hm->gen[index] = (uint8_t)((hm->gen[index] + 1u) % GEN_PERIOD);
    hm->ring[(hm->head + hm->count) % hm->cap] = index;
    hm->count++;
}

/* id -> model key, for every id the library ever returned. */
typedef struct id_map {
    uint32_t *ids, *keys;
    uint32_t mask;
} id_map;

static void idm_init(id_map *im, uint32_t cap_pow2)
{
    im->ids = calloc(cap_pow2, sizeof *im->ids);
    im->keys = calloc(cap_pow2, sizeof *im->keys);
    im->mask = cap_pow2 - 1u;
    if (!im->ids || !im->keys)
        abort();
}

static void idm_free(id_map *im)
{
    free(im->ids);
    free(im->keys);
}

/* Records id -> key; returns false if the id was seen before with another
 * key, or the key with another id (the reverse map says). */
static bool idm_bind(id_map *im, uint32_t *key_to_id, uint32_t id, uint32_t key)
{
    uint32_t i = (id * 2654435761u) & im->mask;
    while (im->ids[i] != 0 && im->ids[i] != id)
        i = (i + 1u) & im->mask;
    if (im->ids[i] == id) {
        if (im->keys[i] != key)
            return false;
    } else {
        im->ids[i] = id;
        im->keys[i] = key;
    }
    if (key_to_id[key] != 0 && key_to_id[key] != id)
        return false;
    key_to_id[key] = id;
    return true;
}

/* Fastest route back to an old handle: 1025 destroyed roots in the FIFO,
 * then create-and-destroy one node at a time. Each turn reuses the front
 * index, so the first index comes back every 1025 destroys and h0's exact id
 * after 255 generations. */
static void test_generation_wrap_steady(void)
{
    sgrt_scene *s = NULL;
    REQUIRE_RES(sgrt_scene_create(NULL, &s), SGRT_OK);
    const uint32_t first = MIN_FREE + 1u;
    const uint32_t max_index = first + 8u;
    handle_model hm;
    hm_init(&hm, max_index);
    uint8_t *live = calloc((size_t)max_index * 256u, 1);
    uint32_t *key_to_id = calloc((size_t)max_index * 256u, sizeof *key_to_id);
    id_map im;
    idm_init(&im, 1u << 20);
    REQUIRE(live && key_to_id);

    sgrt_node *h = calloc(first, sizeof *h);
    uint32_t *hk = calloc(first, sizeof *hk);
    REQUIRE(h && hk);
    for (uint32_t i = 0; i < first; i++) {
        REQUIRE_RES(sgrt_node_create(s, SGRT_NULL_NODE, &h[i]), SGRT_OK);
        hk[i] = hm_take(&hm);
        live[hk[i]] = 1;
        REQUIRE(idm_bind(&im, key_to_id, h[i].id, hk[i]));
    }
    for (uint32_t i = 0; i < first; i++) {
        REQUIRE_RES(sgrt_node_destroy(s, h[i]), SGRT_OK);
        live[hk[i]] = 0;
        hm_release(&hm, hk[i]);
    }
    const sgrt_node h0 = h[0];
    const uint32_t k0 = hk[0];
    uint64_t destroys = first;
    uint64_t back_after = 0; /* destroys up to h0's comeback, counting h0's own */
    bool seen_gen[256] = {false};
    seen_gen[k0 % 256u] = true;
    uint32_t distinct_ids_of_index0 = 1;

    for (uint32_t turn = 0; turn < GEN_PERIOD * first + 2u; turn++) {
        sgrt_node x;
        REQUIRE_RES(sgrt_node_create(s, SGRT_NULL_NODE, &x), SGRT_OK);
        const uint32_t key = hm_take(&hm);
        if (!idm_bind(&im, key_to_id, x.id, key)) {
            FAIL("generation wrap: turn %u: id 0x%08x does not match the FIFO model",
                 (unsigned)turn, (unsigned)x.id);
            break;
        }
        live[key] = 1;
        if (key / 256u == k0 / 256u && !seen_gen[key % 256u]) {
            seen_gen[key % 256u] = true;
            distinct_ids_of_index0++;
        }
        if (key == k0 && back_after == 0) {
            back_after = destroys; /* h0's own destroy was the first */
            REQUIRE(x.id == h0.id);
            REQUIRE(sgrt_node_alive(s, h0));
        } else if (turn % 97u == 0) {
            REQUIRE(!sgrt_node_alive(s, h0));
        }
        REQUIRE_RES(sgrt_node_destroy(s, x), SGRT_OK);
        live[key] = 0;
        hm_release(&hm, key);
        destroys++;
    }
    REQUIRE(back_after != 0);
    /* 255 generations of index 0, each needing 1024 other destroys behind it
     * in the FIFO before the index comes to the front again. */
    REQUIRE(back_after == (uint64_t)GEN_PERIOD * first);
    REQUIRE(back_after >= 261120u); /* the bound sgrt.h promises */
    REQUIRE(distinct_ids_of_index0 == GEN_PERIOD);
    printf("generation wrap: a destroyed handle is valid again after %llu destroys "
           "(index reused %u times, %u distinct ids)\n",
           (unsigned long long)back_after, GEN_PERIOD, (unsigned)distinct_ids_of_index0);
    check_scene_where(s, "generation wrap");
    REQUIRE(sgrt_scene_node_count(s) == 0);

    free(h);
    free(hk);
    free(live);
    free(key_to_id);
    idm_free(&im);
    hm_free(&hm);
    sgrt_scene_destroy(s);
}

/* Random creates and destroys, the live count drifting towards a target
 * drawn from [lo, lo + span) every 5000 steps (the free count swinging across
 * the reuse threshold): the library must follow the FIFO model at every step,
 * old handles must be refused exactly while their (index, generation) is not
 * live, and an id must not come back within GUARANTEED_DESTRUCTIONS of its
 * destruction (with must_wrap, ids must come back: indices wrap within the
 * run). Only
 * childless nodes are destroyed so that each destroy frees one index in a
 * known order. */
static void test_generation_random(uint32_t steps, uint32_t lo, uint32_t span, bool must_wrap)
{
    sgrt_scene *s = NULL;
    REQUIRE_RES(sgrt_scene_create(NULL, &s), SGRT_OK);
    const uint32_t max_index = 4096u;
    handle_model hm;
    hm_init(&hm, max_index);
    uint8_t *live = calloc((size_t)max_index * 256u, 1);
    uint32_t *key_to_id = calloc((size_t)max_index * 256u, sizeof *key_to_id);
    /* destructions before the key's last release, plus one (0: never released) */
    uint32_t *released = calloc((size_t)max_index * 256u, sizeof *released);
    uint32_t destroys = 0, comebacks = 0;
    id_map im;
    idm_init(&im, 1u << 20);
    /* live nodes, and a ring of recently dead handles to probe */
    sgrt_node *ln = calloc(max_index, sizeof *ln);
    uint32_t *lk = calloc(max_index, sizeof *lk);
    uint32_t nlive = 0;
    sgrt_node old[512], first_dead = SGRT_NULL_NODE;
    uint32_t oldk[512], nold = 0, first_deadk = 0;
    REQUIRE(live && key_to_id && released && ln && lk);

    uint32_t target = lo + span / 2u;
    for (uint32_t step = 0; step < steps; step++) {
        if (step % 5000u == 0 && step != 0)
            target = lo + rng_below(&R, span);
        const bool grow = nlive < target ? rng_below(&R, 4) != 0 : rng_below(&R, 4) == 0;
        if (grow && nlive < max_index - 1u && hm.used < max_index) {
            sgrt_node x;
            REQUIRE_RES(sgrt_node_create(s, SGRT_NULL_NODE, &x), SGRT_OK);
            const uint32_t key = hm_take(&hm);
            if (!idm_bind(&im, key_to_id, x.id, key)) {
                FAIL("generation random: step %u: id 0x%08x breaks the model", (unsigned)step,
                     (unsigned)x.id);
                break;
            }
            if (released[key]) {
                const uint32_t age = destroys - (released[key] - 1u);
                comebacks++;
                if (age < GUARANTEED_DESTRUCTIONS) {
                    FAIL("id 0x%08x reused after only %u destructions", (unsigned)x.id,
                         (unsigned)age);
                    break;
                }
            }
            live[key] = 1;
            ln[nlive] = x;
            lk[nlive++] = key;
        } else if (nlive > 0) {
            const uint32_t i = rng_below(&R, nlive);
            REQUIRE_RES(sgrt_node_destroy(s, ln[i]), SGRT_OK);
            released[lk[i]] = ++destroys;
            live[lk[i]] = 0;
            hm_release(&hm, lk[i]);
            if (nold == 0) {
                first_dead = ln[i];
                first_deadk = lk[i];
            }
            old[nold % 512u] = ln[i];
            oldk[nold % 512u] = lk[i];
            nold++;
            ln[i] = ln[--nlive];
            lk[i] = lk[nlive];
        }
        /* A few recently dead handles at most steps, all of them now and then. */
        const uint32_t ring = nold < 512u ? nold : 512u;
        const uint32_t probes = step % 4096u == 0 ? ring : step % 7u == 0 && ring ? 1u : 0u;
        bool wrong = false;
        for (uint32_t p = 0; p < probes && !wrong; p++) {
            const uint32_t j = probes == 1u ? rng_below(&R, ring) : p;
            if (sgrt_node_alive(s, old[j]) != (live[oldk[j]] != 0)) {
                FAIL("generation random: step %u: old handle 0x%08x alive=%d, model %d",
                     (unsigned)step, (unsigned)old[j].id, (int)sgrt_node_alive(s, old[j]),
                     (int)live[oldk[j]]);
                wrong = true;
            }
        }
        if (nold && probes && sgrt_node_alive(s, first_dead) != (live[first_deadk] != 0)) {
            FAIL("generation random: step %u: the first destroyed handle alive=%d, model %d",
                 (unsigned)step, (int)sgrt_node_alive(s, first_dead), (int)live[first_deadk]);
            wrong = true;
        }
        if (wrong)
            break;
    }
    REQUIRE(sgrt_scene_node_count(s) == nlive);
    if (must_wrap)
        CHECK(comebacks > 0);
    check_scene_where(s, "generation random");
    printf("generation random: %u destructions, %u indices used, %u free at the end, %u ids "
           "seen again\n",
           (unsigned)destroys, (unsigned)hm.used, (unsigned)hm.count, (unsigned)comebacks);

    free(live);
    free(key_to_id);
    free(released);
    free(ln);
    free(lk);
    idm_free(&im);
    hm_free(&hm);
    sgrt_scene_destroy(s);
}

/* The promise at every fill level, up to the end of the index space. Once
 * every index has been handed out, a create can only reuse a free one; if
 * fewer than 1025 were free then (more than 2^24 - 1025 live nodes), the
 * FIFO reserve could not hold and a destroyed handle came back after a few
 * hundred destroys. White-box, without 16M live nodes: the table is sized
 * for the whole space, and all but the last 2 x REAL indices are declared
 * handed out to nodes that live elsewhere (counted live, never touched).
 * REAL real roots are created before that; then the scene is filled towards
 * `target` live nodes (or until CAPACITY, which must come exactly at
 * SGRT_MAX_NODES); then, at that level, the node created last is destroyed
 * and a new one created (the fastest way to bring an index round), 261,375
 * times and more. No id may come back before 255 x 1025 destroys counting
 * the one that freed it. */
#define REAL 2000u
#define PROMISED_DESTROYS 261375u /* 255 x 1025, as sgrt.h states */

typedef struct {
    uint32_t *id, *at; /* id -> number of the destroy that freed it */
    uint32_t mask;
} destroyed_ids;

static uint32_t *dids_slot(destroyed_ids *d, uint32_t id)
{
    uint32_t i = (id * 0x9E3779B1u) & d->mask;
    while (d->id[i] != 0 && d->id[i] != id)
        i = (i + 1u) & d->mask;
    d->id[i] = id;
    return &d->at[i];
}

static void guarantee_at_fill_level(uint32_t target)
{
    const uint32_t space = SGRT__INDEX_MASK + 1u;
    sgrt_scene *s = new_scene();
    REQUIRE_RES(sgrt__handles_reserve(s, SGRT__INDEX_MASK), SGRT_OK);
    REQUIRE(s->handle_cap == space);
    destroyed_ids d = {calloc(1u << 20, 4), calloc(1u << 20, 4), (1u << 20) - 1u};
    REQUIRE(d.id && d.at);
    sgrt_node last = SGRT_NULL_NODE;
    for (uint32_t i = 0; i < REAL; i++)
        OK(sgrt_node_create(s, SGRT_NULL_NODE, &last));
    const uint32_t elsewhere = space - 2u * REAL;
    s->handle_used += elsewhere;
    s->node_count += elsewhere;

    sgrt_result r = SGRT_OK;
    while (sgrt_scene_node_count(s) < target &&
           (r = sgrt_node_create(s, SGRT_NULL_NODE, &last)) == SGRT_OK)
        ;
    const uint32_t level = sgrt_scene_node_count(s);
    CHECK_MSG(r == SGRT_OK || (r == SGRT_ERR_CAPACITY && level == SGRT_MAX_NODES),
              "filling towards %u live nodes: create returned %s at %u", (unsigned)target,
              sgrt_result_str(r), (unsigned)level);
    CHECK_MSG(level <= SGRT_MAX_NODES, "%u live nodes, more than SGRT_MAX_NODES", (unsigned)level);

    uint32_t revived = 0, shortest = UINT32_MAX;
    for (uint32_t k = 1; k <= PROMISED_DESTROYS + 1024u && revived < 20; k++) {
        REQUIRE_RES(sgrt_node_destroy(s, last), SGRT_OK);
        *dids_slot(&d, last.id) = k;
        REQUIRE_RES(sgrt_node_create(s, SGRT_NULL_NODE, &last), SGRT_OK);
        const uint32_t freed = *dids_slot(&d, last.id);
        if (freed != 0) {
            const uint32_t destroys = k - freed + 1u; /* counting the one that freed it */
            if (destroys < PROMISED_DESTROYS) {
                revived++;
                if (destroys < shortest)
                    shortest = destroys;
            }
        }
    }
    CHECK_MSG(revived == 0,
              "%u live nodes, all indices used: a destroyed handle named a new node after %u "
              "destroys (promised: %u)",
              (unsigned)level, (unsigned)shortest, (unsigned)PROMISED_DESTROYS);
    /* The nodes declared elsewhere have no table entries: no check, just free. */
    free(d.id);
    free(d.at);
    sgrt_scene_destroy(s);
}

static void test_guarantee_near_index_limit(void)
{
    const uint32_t space = SGRT__INDEX_MASK + 1u;
    const uint32_t targets[] = {space - 1u, space - 2u, space - 3u, space - 1024u,
                                space - 1025u, space - 1500u};
    for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++)
        guarantee_at_fill_level(targets[i]);
}

int main(int argc, char **argv)
{
    rng_seed_from_args(&R, argc, argv, "test_handles");
    test_bad_handles();
    test_foreign_handles();
    test_old_scene_handles();
    test_fresh_indices();
    test_guarantee_near_index_limit();
    test_generation_wrap_steady();
    test_generation_random(150000u, 200u, 2600u, false);
    test_generation_random(900000u, 150u, 100u, true);
    return test_report("test_handles");
}
