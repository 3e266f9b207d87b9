/* SPDX-License-Identifier: MIT */
/* The thread contract of sgrt.h, meant to run under ThreadSanitizer:
 *
 *  1. distinct scenes on distinct threads are independent: each thread builds
 *     and edits its own scene (some through their own allocator, some through
 *     malloc) at the same time as the others, and every thread must reach
 *     exactly the results that the same calls give on one thread;
 *  2. functions taking `const sgrt_scene *` may run concurrently on one scene
 *     while nobody writes: several threads read one scene with pending work
 *     (world_now walks dirty chains longer than its on-stack segment) and
 *     must all see exactly what a single reader saw, and the scene must be
 *     unchanged afterwards.
 *
 * Without a sanitizer this still checks results; with -fsanitize=thread any
 * hidden shared state (a global, a cache written by a const call) is a data
 * race report and a failed test. */
#define _POSIX_C_SOURCE 200809L
#include "testutil.h"

#include <pthread.h>

#define THREADS 4

/* The harness's counters belong to the main thread: the others count their
 * own mismatches (and say what they are), which the main thread checks. */
#define THREAD_FAIL(count, ...)                                                        \
    do {                                                                               \
        fprintf(stderr, "test_threads: " __VA_ARGS__);                                 \
        fputc('\n', stderr);                                                           \
        (count)++;                                                                     \
    } while (0)

static uint64_t hash_bytes(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001B3ull;
    return h;
}

/* ---- 1. one scene per thread ---------------------------------------------- */

typedef struct worker {
    pthread_t thread;
    uint64_t seed;
    bool own_allocator;
    uint64_t digest; /* of everything the scene reported */
    int error; /* scene check or allocator balance failed */
} worker;

#define OPS 3000
#define MAXH 1024

static uint64_t run_scene(uint64_t seed, bool own_allocator, int *error)
{
    rng g = {seed};
#define RND(n) rng_below(&g, (n))
    /* per thread: no sharing */
    test_alloc ca;
    memset(&ca, 0, sizeof ca);
    const sgrt_allocator al = test_alloc_hooks(&ca);
    sgrt_scene_desc d;
    memset(&d, 0, sizeof d);
    d.initial_capacity = 16;
    if (own_allocator)
        d.allocator = &al;
    sgrt_scene *s = NULL;
    if (sgrt_scene_create(&d, &s) != SGRT_OK) {
        *error = 1;
        test_alloc_release(&ca);
        return 0;
    }
    sgrt_node h[MAXH];
    uint32_t nh = 0;
    uint64_t digest = 0xCBF29CE484222325ull;
    for (int i = 0; i < OPS; i++) {
        const uint32_t what = RND(100);
        sgrt_result r = SGRT_OK;
        if (what < 40 || nh == 0) {
            if (nh < MAXH) {
                const sgrt_node p = nh && RND(4) ? h[RND(nh)] : SGRT_NULL_NODE;
                r = sgrt_node_create(s, p, &h[nh]);
                if (r == SGRT_OK)
                    nh++;
                else if (r == SGRT_ERR_STALE_HANDLE)
                    r = SGRT_OK; /* p destroyed earlier */
            }
        } else if (what < 70) {
            float m[16];
            translation((float)RND(100) * 0.25f, 0, 0, m);
            m[0] = 1.0f + (float)RND(8) * 0.125f;
            r = sgrt_node_set_local(s, h[RND(nh)], m);
        } else if (what < 80) {
            const sgrt_node a = h[RND(nh)], b = RND(3) ? h[RND(nh)] : SGRT_NULL_NODE;
            r = sgrt_node_set_parent(s, a, b, RND(2) ? SGRT_KEEP_WORLD : SGRT_KEEP_LOCAL);
        } else if (what < 85) {
            r = sgrt_node_destroy(s, h[RND(nh)]);
        } else if (what < 97) {
            const uint32_t n = sgrt_scene_update(s);
            digest = hash_bytes(digest, &n, sizeof n);
        } else {
            r = sgrt_scene_compact(s);
        }
        /* Stale handles, cycles and singular parents are normal outcomes
         * here; what matters is that every thread sees the same ones. */
        digest = hash_bytes(digest, &r, sizeof r);
    }
    const uint32_t n = sgrt_scene_update(s);
    digest = hash_bytes(digest, &n, sizeof n);
    for (uint32_t i = 0; i < nh; i++) {
        float w[16];
        const bool alive = sgrt_node_alive(s, h[i]);
        digest = hash_bytes(digest, &alive, sizeof alive);
        if (alive && sgrt_node_world(s, h[i], w) == SGRT_OK)
            digest = hash_bytes(digest, w, sizeof w);
    }
    if (sgrt_scene_check(s, NULL) != SGRT_OK)
        *error = 1;
    const uint32_t count = sgrt_scene_node_count(s);
    digest = hash_bytes(digest, &count, sizeof count);
    sgrt_scene_destroy(s);
    if (own_allocator && (ca.calls == 0 || ca.live_blocks != 0 || ca.live_bytes != 0 ||
                          ca.contract_errors != 0))
        *error = 1;
    test_alloc_release(&ca);
    return digest;
#undef RND
}

static void *worker_main(void *arg)
{
    worker *w = arg;
    w->digest = run_scene(w->seed, w->own_allocator, &w->error);
    return NULL;
}

static void test_scene_per_thread(void)
{
    worker w[THREADS];
    for (int i = 0; i < THREADS; i++) {
        /* Two seeds, each run by two threads: one through its own allocator,
         * one through malloc. */
        w[i].seed = 0x1234567ull + (uint64_t)(unsigned)(i / 2) * 0x9E3779B97F4A7C15ull;
        w[i].own_allocator = (i % 2) == 0;
        w[i].error = 0;
        if (pthread_create(&w[i].thread, NULL, worker_main, &w[i]) != 0) {
            FAIL("pthread_create failed");
            return;
        }
    }
    for (int i = 0; i < THREADS; i++)
        pthread_join(w[i].thread, NULL);
    for (int i = 0; i < THREADS; i++) {
        int err = 0;
        const uint64_t alone = run_scene(w[i].seed, w[i].own_allocator, &err);
        CHECK(w[i].error == 0); /* scene check and allocator balance, on its thread */
        CHECK(err == 0);        /* the same, alone */
        CHECK_EQ_U(w[i].digest, alone); /* the same calls on one thread */
    }
    /* same calls, same results between threads */
    CHECK_EQ_U(w[0].digest, w[1].digest);
    CHECK_EQ_U(w[2].digest, w[3].digest);
    /* different seeds differ: the workload is doing something */
    CHECK(w[0].digest != w[2].digest);
}

/* ---- 2. concurrent readers of one scene ------------------------------------- */

#define CHAIN 600
#define BUSH 300
#define NREAD (CHAIN + BUSH)
#define PASSES 3

typedef struct expected {
    sgrt_node node;
    float local[16], world[16], world_now[16];
    sgrt_node parent, first_child, next_sibling;
    bool want_now; /* world_now is O(depth): sample the deep chain */
    sgrt_node bogus; /* the node's id with an index far past those handed out */
    bool bogus_alive;
} expected;

static expected ex[NREAD];
static const sgrt_scene *shared_scene;
static pthread_barrier_t start;
static uint32_t shared_count;

typedef struct reader {
    pthread_t thread;
    uint32_t id;
    long wrong; /* answers that differ from the single reader's */
} reader;

static void *reader_main(void *arg)
{
    reader *rd = arg;
    const uint32_t id = rd->id;
    pthread_barrier_wait(&start);
    for (int pass = 0; pass < PASSES; pass++) {
        for (uint32_t k = 0; k < NREAD; k++) {
            /* Each reader walks in its own order so they collide anywhere. */
            const uint32_t i = (uint32_t)((k * (2u * id + 1u) + id * 97u) % NREAD);
            const expected *e = &ex[i];
            float m[16];
            sgrt_node n;
            if (!sgrt_node_alive(shared_scene, e->node))
                THREAD_FAIL(rd->wrong, "reader %u: node %u not alive", (unsigned)id, (unsigned)i);
            if (sgrt_node_local(shared_scene, e->node, m) != SGRT_OK ||
                memcmp(m, e->local, sizeof m))
                THREAD_FAIL(rd->wrong, "reader %u: local of node %u", (unsigned)id, (unsigned)i);
            if (sgrt_node_world(shared_scene, e->node, m) != SGRT_OK ||
                memcmp(m, e->world, sizeof m))
                THREAD_FAIL(rd->wrong, "reader %u: world of node %u", (unsigned)id, (unsigned)i);
            if (e->want_now && (sgrt_node_world_now(shared_scene, e->node, m) != SGRT_OK ||
                                memcmp(m, e->world_now, sizeof m)))
                THREAD_FAIL(rd->wrong, "reader %u: world_now of node %u", (unsigned)id, (unsigned)i);
            if (sgrt_node_parent(shared_scene, e->node, &n) != SGRT_OK || n.id != e->parent.id)
                THREAD_FAIL(rd->wrong, "reader %u: parent of node %u", (unsigned)id, (unsigned)i);
            if (sgrt_node_first_child(shared_scene, e->node, &n) != SGRT_OK ||
                n.id != e->first_child.id)
                THREAD_FAIL(rd->wrong, "reader %u: first child of node %u", (unsigned)id, (unsigned)i);
            if (sgrt_node_next_sibling(shared_scene, e->node, &n) != SGRT_OK ||
                n.id != e->next_sibling.id)
                THREAD_FAIL(rd->wrong, "reader %u: next sibling of node %u", (unsigned)id, (unsigned)i);
            if (sgrt_node_alive(shared_scene, e->bogus) != e->bogus_alive ||
                sgrt_node_world(shared_scene, e->bogus, m) != SGRT_ERR_STALE_HANDLE)
                THREAD_FAIL(rd->wrong, "reader %u: made-up handle 0x%08x next to node %u accepted",
                            (unsigned)id, (unsigned)e->bogus.id, (unsigned)i);
        }
        if (sgrt_scene_node_count(shared_scene) != shared_count)
            THREAD_FAIL(rd->wrong, "reader %u: node count", (unsigned)id);
        const char *what = NULL;
        if (sgrt_scene_check(shared_scene, &what) != SGRT_OK)
            THREAD_FAIL(rd->wrong, "reader %u: sgrt_scene_check: %s", (unsigned)id, what ? what : "?");
    }
    return NULL;
}

static void test_concurrent_readers(void)
{
    sgrt_scene *s = NULL;
    if (sgrt_scene_create(NULL, &s) != SGRT_OK) {
        FAIL("scene create");
        return;
    }
    /* A deep chain and a bushy tree; update once, then move the chain's root
     * and part of the bush so that reads see pending work. */
    sgrt_node prev = SGRT_NULL_NODE;
    for (uint32_t i = 0; i < CHAIN; i++) {
        if (sgrt_node_create(s, prev, &ex[i].node) != SGRT_OK)
            FAIL("create");
        prev = ex[i].node;
    }
    for (uint32_t i = CHAIN; i < NREAD; i++) {
        const sgrt_node p = i == CHAIN ? SGRT_NULL_NODE : ex[CHAIN + (i - CHAIN - 1u) / 3u].node;
        if (sgrt_node_create(s, p, &ex[i].node) != SGRT_OK)
            FAIL("create");
    }
    for (uint32_t i = 0; i < NREAD; i++) {
        float m[16];
        translation((float)(i % 7) * 0.5f, 0, 0, m);
        m[1] = (float)(i % 3) * 0.01f;
        if (sgrt_node_set_local(s, ex[i].node, m) != SGRT_OK)
            FAIL("set_local");
    }
    sgrt_scene_update(s);
    const float moved[16] = {0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 5, 6, 7, 1};
    if (sgrt_node_set_local(s, ex[0].node, moved) != SGRT_OK ||
        sgrt_node_set_local(s, ex[CHAIN + 1].node, moved) != SGRT_OK)
        FAIL("set_local");

    for (uint32_t i = 0; i < NREAD; i++) {
        expected *e = &ex[i];
        e->want_now = i >= CHAIN || i % 37u == 0 || i == CHAIN - 1u;
        if (sgrt_node_local(s, e->node, e->local) != SGRT_OK ||
            sgrt_node_world(s, e->node, e->world) != SGRT_OK ||
            sgrt_node_world_now(s, e->node, e->world_now) != SGRT_OK ||
            sgrt_node_parent(s, e->node, &e->parent) != SGRT_OK ||
            sgrt_node_first_child(s, e->node, &e->first_child) != SGRT_OK ||
            sgrt_node_next_sibling(s, e->node, &e->next_sibling) != SGRT_OK)
            FAIL("single-threaded read");
        e->bogus.id = e->node.id ^ 0x00800000u;
        e->bogus_alive = sgrt_node_alive(s, e->bogus);
        CHECK(!e->bogus_alive);
    }
    shared_scene = s;
    shared_count = sgrt_scene_node_count(s);

    reader rd[THREADS];
    pthread_barrier_init(&start, NULL, THREADS);
    for (uint32_t i = 0; i < THREADS; i++) {
        rd[i].id = i;
        rd[i].wrong = 0;
        REQUIRE(pthread_create(&rd[i].thread, NULL, reader_main, &rd[i]) == 0);
    }
    for (int i = 0; i < THREADS; i++)
        pthread_join(rd[i].thread, NULL);
    pthread_barrier_destroy(&start);
    for (int i = 0; i < THREADS; i++)
        CHECK_EQ_U(rd[i].wrong, 0);

    /* Reads left the pending work alone: the whole chain plus the moved bush
     * subtree are still to be recomputed, and then match world_now. */
    uint32_t bush_moved = 0;
    for (uint32_t i = CHAIN; i < NREAD; i++) {
        for (uint32_t x = i - CHAIN; x != 0; x = (x - 1u) / 3u)
            if (x == 1u) {
                bush_moved++;
                break;
            }
    }
    const uint32_t n = sgrt_scene_update(s);
    if (n != CHAIN + bush_moved)
        FAIL("update after concurrent reads recomputed %u, expected %u", (unsigned)n,
             (unsigned)(CHAIN + bush_moved));
    for (uint32_t i = 0; i < NREAD; i++) {
        float w[16];
        if (ex[i].want_now &&
            (sgrt_node_world(s, ex[i].node, w) != SGRT_OK || memcmp(w, ex[i].world_now, sizeof w)))
            FAIL("world after update differs from world_now read before it (node %u)",
                 (unsigned)i);
    }
    sgrt_scene_destroy(s);
}

/* ---- 3. collects beside const readers ---------------------------------------- */

/* Collects on distinct trackers may run concurrently with each other and with
 * every function taking a const scene, sgrt_scene_check included (it leaves
 * the trackers' pending bits to sgrt_tracker_check, which may run beside
 * collects of other trackers). Two collectors drain their trackers one range
 * at a time (every other slot changed: thousands of calls, each clearing
 * bits and summary bits), while two readers check the scene, check a third
 * tracker nobody collects, and read worlds. Each collector must get exactly
 * the changed slots, and no check may report corruption. sgrt_scene_check
 * once read the pending bits and returned a false SGRT_ERR_CORRUPT between
 * a collect's two stores (and ThreadSanitizer reported the race). */
#define COLLECT_NODES 65536u

typedef struct collector {
    pthread_t thread;
    sgrt_scene *s;
    sgrt_tracker t;
    uint32_t got;   /* slots collected */
    long wrong;
} collector;

static volatile int collecting; /* readers go on while a collector runs */
static pthread_barrier_t collect_start;

static void *collector_main(void *arg)
{
    collector *c = arg;
    pthread_barrier_wait(&collect_start);
    sgrt_range r;
    uint32_t next = 65, n; /* the odd slots past the chain changed, one range each */
    bool more = true;
    while (more) {
        if (sgrt_tracker_collect(c->s, c->t, &r, 1, 0, &n, &more) != SGRT_OK || n > 1)
            THREAD_FAIL(c->wrong, "collect refused or wrote %u ranges", (unsigned)n);
        if (n == 0)
            break;
        if (r.first != next || r.count != 1)
            THREAD_FAIL(c->wrong, "collect gave [%u, +%u), expected [%u, +1)", (unsigned)r.first,
                        (unsigned)r.count, (unsigned)next);
        next = r.first + 2u;
        c->got++;
    }
    __atomic_fetch_sub(&collecting, 1, __ATOMIC_RELEASE);
    return NULL;
}

typedef struct checker {
    pthread_t thread;
    const sgrt_scene *s;
    sgrt_tracker idle;
    sgrt_node deep;
    float deep_now[16];
    long checks, wrong;
} checker;

static void *checker_main(void *arg)
{
    checker *k = arg;
    pthread_barrier_wait(&collect_start);
    do {
        const char *what = NULL;
        if (sgrt_scene_check(k->s, &what) != SGRT_OK)
            THREAD_FAIL(k->wrong, "sgrt_scene_check beside collects: %s", what ? what : "?");
        if (sgrt_tracker_check(k->s, k->idle, &what) != SGRT_OK)
            THREAD_FAIL(k->wrong, "sgrt_tracker_check of an idle tracker: %s", what ? what : "?");
        float m[16];
        if (sgrt_node_world_now(k->s, k->deep, m) != SGRT_OK || memcmp(m, k->deep_now, sizeof m))
            THREAD_FAIL(k->wrong, "world_now beside collects");
        k->checks++;
    } while (__atomic_load_n(&collecting, __ATOMIC_ACQUIRE) > 0 && k->wrong < 5);
    return NULL;
}

static void test_collect_beside_readers(void)
{
    sgrt_scene *s = NULL;
    REQUIRE(sgrt_scene_create(NULL, &s) == SGRT_OK);
    sgrt_node n = SGRT_NULL_NODE, prev = SGRT_NULL_NODE;
    for (uint32_t i = 0; i < COLLECT_NODES; i++) {
        /* a chain of 64, then roots: slot i holds node i */
        REQUIRE(sgrt_node_create(s, i < 64u ? prev : SGRT_NULL_NODE, &n) == SGRT_OK);
        prev = i < 64u ? n : prev;
    }
    sgrt_tracker t[3];
    for (int i = 0; i < 3; i++)
        REQUIRE(sgrt_tracker_create(s, &t[i]) == SGRT_OK);
    sgrt_scene_update(s);
    sgrt_range r[4];
    bool more;
    for (int i = 0; i < 3; i++)
        do
            test_collect(s, t[i], r, 4, 0, &more);
        while (more);
    /* every odd slot past the chain changes; then the chain's top moves
     * (pending work for world_now) */
    float m[16];
    memcpy(m, IDENTITY, sizeof m);
    for (uint32_t slot = 65; slot < COLLECT_NODES; slot += 2) {
        m[12] = (float)slot;
        REQUIRE(sgrt_node_set_local(s, sgrt_scene_slot_node(s, slot), m) == SGRT_OK);
    }
    sgrt_scene_update(s);
    m[13] = 2.0f;
    REQUIRE(sgrt_node_set_local(s, sgrt_scene_slot_node(s, 0), m) == SGRT_OK);

    checker k[2];
    for (int i = 0; i < 2; i++) {
        k[i].s = s;
        k[i].idle = t[2];
        k[i].deep = sgrt_scene_slot_node(s, 63);
        REQUIRE(sgrt_node_world_now(s, k[i].deep, k[i].deep_now) == SGRT_OK);
        k[i].checks = k[i].wrong = 0;
    }
    collector c[2];
    collecting = 2;
    pthread_barrier_init(&collect_start, NULL, 4);
    for (int i = 0; i < 2; i++) {
        c[i].s = s;
        c[i].t = t[i];
        c[i].got = 0;
        c[i].wrong = 0;
        REQUIRE(pthread_create(&c[i].thread, NULL, collector_main, &c[i]) == 0);
        REQUIRE(pthread_create(&k[i].thread, NULL, checker_main, &k[i]) == 0);
    }
    for (int i = 0; i < 2; i++) {
        pthread_join(c[i].thread, NULL);
        pthread_join(k[i].thread, NULL);
    }
    pthread_barrier_destroy(&collect_start);
    for (int i = 0; i < 2; i++) {
        CHECK_EQ_U(c[i].wrong, 0);
        CHECK_EQ_U(c[i].got, (COLLECT_NODES - 64u) / 2u);
        CHECK_EQ_U(k[i].wrong, 0);
    }
    printf("collects beside readers: %u + %u ranges collected while %ld + %ld scene checks ran\n",
           (unsigned)c[0].got, (unsigned)c[1].got, k[0].checks, k[1].checks);
    /* the idle tracker still holds every changed slot; the others nothing */
    CHECK_EQ_U(test_collect(s, t[0], r, 4, 0, NULL), 0);
    CHECK_EQ_U(test_collect(s, t[2], r, 4, 1, NULL), 1);
    CHECK(r[0].first == 65 && r[0].count == COLLECT_NODES - 65u);
    for (int i = 0; i < 3; i++)
        CHECK_RES(sgrt_tracker_check(s, t[i], NULL), SGRT_OK);
    CHECK_RES(sgrt_scene_check(s, NULL), SGRT_OK);
    sgrt_scene_destroy(s);
}

int main(void)
{
    test_scene_per_thread();
    test_concurrent_readers();
    test_collect_beside_readers();
    return test_report("test_threads");
}
