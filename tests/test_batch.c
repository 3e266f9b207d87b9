/* SPDX-License-Identifier: MIT */
/* The batch writers against the single calls they stand for: on random
 * programs, two scenes built alike get the same writes, one as batches and
 * one as calls of sgrt_node_set_local / sgrt_node_set_trs in order; after
 * every batch both must hold the same locals bit for bit, the next update
 * must recompute the same count and the same worlds, and a tracker on each
 * must report the same ranges. Batches carry duplicates, stale handles and
 * non-finite values at random positions: a refused batch is the single
 * calls before its first refused entry, which it names exactly; that entry
 * and the rest change nothing.
 *
 * Then what a refused batch reads (POSIX: the entries after the refused
 * one on pages that fault when read) and says in validation mode: nothing
 * past the refused entry, no warning about an entry past it. */
#if defined(__linux__)
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#endif
#include "testutil.h"

#if defined(__unix__) || defined(__APPLE__)
#include <sys/mman.h>
#include <unistd.h>
#define HAVE_FENCE 1
#endif

enum { NODES = 600, MAX_BATCH = 90, ROUNDS = 400 };

typedef struct world {
    sgrt_scene *s;
    sgrt_tracker t;
    sgrt_node n[NODES];
} world;

static test_alloc alloc_a, alloc_b;

static void build(world *w, test_alloc *ta, uint64_t seed)
{
    rng r = {seed};
    w->s = new_scene_alloc(ta);
    OK(sgrt_tracker_create(w->s, &w->t));
    for (uint32_t i = 0; i < NODES; i++) {
        const sgrt_node parent = (i == 0 || rng_below(&r, 8) == 0)
                                     ? SGRT_NULL_NODE
                                     : w->n[rng_below(&r, i)];
        OK(sgrt_node_create(w->s, parent, &w->n[i]));
    }
}

/* Same locals, same update count, same worlds, same tracker ranges. */
static void compare(world *a, world *b, const char *what)
{
    twins_compare(a->s, a->t, a->n, b->s, b->t, b->n, NODES, 0u, what);
}

typedef struct batch {
    uint32_t count;
    sgrt_node nodes[MAX_BATCH];
    uint32_t pick[MAX_BATCH]; /* index into world.n, or UINT32_MAX: a bogus handle */
    float local[MAX_BATCH][16];
    float t[MAX_BATCH][3], q[MAX_BATCH][4], sc[MAX_BATCH][3];
} batch;

static uint32_t pick_alive(rng *r, const world *w)
{
    for (;;) {
        const uint32_t i = rng_below(r, NODES);
        if (sgrt_node_alive(w->s, w->n[i]))
            return i;
    }
}

static void random_batch(rng *r, const world *w, batch *b, bool trs, bool poison)
{
    b->count = rng_below(r, MAX_BATCH + 1u);
    for (uint32_t i = 0; i < b->count; i++) {
        /* Repeats are common: a few nodes get several entries. */
        b->pick[i] = (i > 0 && rng_below(r, 6) == 0) ? b->pick[rng_below(r, i)]
                                                     : pick_alive(r, w);
        for (int j = 0; j < 3; j++) {
            b->t[i][j] = rng_float(r, -5, 5);
            b->sc[i][j] = rng_float(r, 0.5f, 2);
        }
        for (int j = 0; j < 4; j++)
            b->q[i][j] = rng_float(r, -1, 1);
        for (int j = 0; j < 16; j++)
            b->local[i][j] = rng_float(r, -2, 2);
        b->local[i][3] = b->local[i][7] = b->local[i][11] = 0.0f;
        b->local[i][15] = 1.0f;
        if (rng_below(r, 8) == 0 && i > 0) { /* an unchanged write: marks nothing */
            memcpy(b->local[i], b->local[i - 1], sizeof b->local[i]);
            b->pick[i] = b->pick[i - 1];
        }
    }
    if (poison && b->count) {
        const uint32_t at = rng_below(r, b->count);
        switch (rng_below(r, 3)) {
        case 0: b->pick[at] = UINT32_MAX; break; /* bogus, or destroyed below */
        case 1:
            if (trs)
                (rng_below(r, 2) ? b->q[at] : b->sc[at])[rng_below(r, 3)] = NAN;
            else
                b->local[at][rng_below(r, 16)] = INFINITY;
            break;
        default: /* overflow: finite inputs, infinite matrix */
            if (trs)
                b->sc[at][0] = 3e38f, b->q[at][1] = 1.0f, b->q[at][0] = 0.0f;
            else
                b->local[at][5] = -NAN;
            break;
        }
    }
}

static void resolve(const world *w, batch *b)
{
    for (uint32_t i = 0; i < b->count; i++) {
        const sgrt_node bogus = {0x7F000000u | i};
        b->nodes[i] = b->pick[i] == UINT32_MAX ? bogus : w->n[b->pick[i]];
    }
}

/* The first entry its single call would refuse (count if none), found on a
 * probe node of a scene of its own so that the scenes under test are not
 * touched: a dead handle, or values the call refuses. */
static sgrt_scene *probe_scene;
static sgrt_node probe;

static uint32_t first_refused(const world *w, const batch *b, bool trs, sgrt_result *err)
{
    if (!probe_scene) {
        probe_scene = new_scene();
        OK(sgrt_node_create(probe_scene, SGRT_NULL_NODE, &probe));
    }
    for (uint32_t i = 0; i < b->count; i++) {
        if (!sgrt_node_alive(w->s, b->nodes[i])) {
            *err = SGRT_ERR_STALE_HANDLE;
            return i;
        }
        const sgrt_result r = trs ? sgrt_node_set_trs(probe_scene, probe, b->t[i], b->q[i], b->sc[i])
                                  : sgrt_node_set_local(probe_scene, probe, b->local[i]);
        if (r != SGRT_OK) {
            *err = r;
            return i;
        }
    }
    return b->count;
}

static void run(uint64_t seed, bool trs)
{
    world a, b;
    build(&a, &alloc_a, seed);
    build(&b, &alloc_b, seed);
    compare(&a, &b, "built");
    rng r = {seed ^ 0xBA7C4ull};
    static batch bt;
    uint32_t refused = 0, accepted = 0;
    for (uint32_t round = 0; round < ROUNDS; round++) {
        random_batch(&r, &a, &bt, trs, rng_below(&r, 4) == 0);
        resolve(&a, &bt);
        sgrt_result want_err = SGRT_OK;
        const uint32_t bad = first_refused(&a, &bt, trs, &want_err);
        uint32_t out_bad = 0xDEADBEEFu;
        const uint64_t calls_before = alloc_a.calls;
        const sgrt_result got =
            trs ? sgrt_nodes_set_trs(a.s, bt.count, bt.nodes, bt.t[0],
                                     bt.q[0], bt.sc[0], &out_bad)
                : sgrt_nodes_set_local(a.s, bt.count, bt.nodes, bt.local[0],
                                       &out_bad);
        CHECK_EQ_U(alloc_a.calls, calls_before); /* batches never allocate */
        if (bad < bt.count) {
            refused++;
            CHECK_RES(got, want_err);
            CHECK_EQ_U(out_bad, bad);
        } else {
            accepted++;
            CHECK_RES(got, SGRT_OK);
            CHECK_EQ_U(out_bad, 0xDEADBEEFu); /* untouched on success */
        }
        /* The single calls in order, up to the first refused one. */
        resolve(&b, &bt);
        for (uint32_t i = 0; i < bad; i++) {
            if (trs)
                OK(sgrt_node_set_trs(b.s, bt.nodes[i], bt.t[i], bt.q[i], bt.sc[i]));
            else
                OK(sgrt_node_set_local(b.s, bt.nodes[i], bt.local[i]));
        }
        /* Now and then the structure changes too, alike in both scenes. */
        if (rng_below(&r, 10) == 0) {
            const uint32_t victim = 1u + rng_below(&r, NODES - 1u);
            if (sgrt_node_alive(a.s, a.n[victim]) && sgrt_scene_node_count(a.s) > NODES / 2) {
                OK(sgrt_node_destroy(a.s, a.n[victim]));
                OK(sgrt_node_destroy(b.s, b.n[victim]));
            }
        }
        compare(&a, &b, trs ? "set_trs batch" : "set_local batch");
    }
    CHECK(refused > 20 && accepted > 200);
    /* Argument errors leave out_bad alone; count 0 with NULL arrays is fine. */
    uint32_t out_bad = 7;
    CHECK_RES(sgrt_nodes_set_local(NULL, 0, NULL, NULL, &out_bad), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_nodes_set_local(a.s, 1, NULL, NULL, &out_bad), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_nodes_set_trs(a.s, 1, a.n, NULL, NULL, NULL, &out_bad), SGRT_ERR_INVALID_ARG);
    CHECK_EQ_U(out_bad, 7);
    OK(sgrt_nodes_set_local(a.s, 0, NULL, NULL, NULL));
    OK(sgrt_nodes_set_trs(a.s, 0, NULL, NULL, NULL, NULL, NULL));
    CHECK_EQ_U(sgrt_scene_update(a.s), 0);
    end_scene_alloc(a.s, &alloc_a);
    end_scene_alloc(b.s, &alloc_b);
}

/* A batch far longer than the scene: the last entry of a node wins; a
 * stale handle at the very end stops the batch there, after every entry
 * before it was written. */
static void long_batch(void)
{
    sgrt_scene *s = new_scene();
    sgrt_node n[3];
    OK(sgrt_node_create(s, SGRT_NULL_NODE, &n[0]));
    OK(sgrt_node_create(s, n[0], &n[1]));
    OK(sgrt_node_create(s, n[1], &n[2]));
    enum { LONG = 5000 };
    static sgrt_node nodes[LONG];
    static float local[LONG][16];
    for (uint32_t i = 0; i < LONG; i++) {
        nodes[i] = n[i % 3];
        memset(local[i], 0, sizeof local[i]);
        local[i][0] = local[i][5] = local[i][10] = local[i][15] = 1.0f;
        local[i][12] = (float)i;
    }
    OK(sgrt_scene_update(s) == 3 ? SGRT_OK : SGRT_ERR_CORRUPT);
    OK(sgrt_nodes_set_local(s, LONG, nodes, local[0], NULL));
    CHECK_EQ_U(sgrt_scene_update(s), 3);
    float w[16];
    OK(sgrt_node_world(s, n[2], w));
    /* The last entries win: 4997 + 4998 + 4999 along the chain. */
    CHECK(w[12] == 4997.0f + 4998.0f + 4999.0f);
    sgrt_node gone;
    OK(sgrt_node_create(s, n[0], &gone));
    OK(sgrt_node_destroy(s, gone));
    CHECK_EQ_U(sgrt_scene_update(s), 0);
    nodes[LONG - 1] = gone; /* a stale handle at the very end */
    uint32_t bad = 0;
    CHECK_RES(sgrt_nodes_set_local(s, LONG, nodes, local[0], &bad),
              SGRT_ERR_STALE_HANDLE);
    CHECK_EQ_U(bad, LONG - 1);
    /* Every node was written (with other bits on the way to its last
     * entry): all three recomputed, n[1] from its entry 4996. */
    CHECK_EQ_U(sgrt_scene_update(s), 3);
    OK(sgrt_node_world(s, n[2], w));
    CHECK(w[12] == 4998.0f + 4996.0f + 4997.0f);
    check_scene(s);
    sgrt_scene_destroy(s);
}

#if HAVE_FENCE
/* A copy of count entries of `size` bytes each whose entry `last` ends a
 * readable page: the entries after it lie on pages that fault when read. */
typedef struct fence {
    void *map;
    size_t len;
} fence;

static void *fenced(fence *f, const void *src, size_t size, uint32_t last, uint32_t count)
{
    const size_t page = (size_t)sysconf(_SC_PAGESIZE);
    const size_t before = (size_t)(last + 1u) * size, after = (count - last - 1u) * size;
    CHECK(before <= page);
    /* The pages after the fence, at least one: a read past the last entry
     * faults too (and mprotect always has pages to protect). */
    const size_t tail = (after + page - 1u) / page * page;
    f->len = page + (tail ? tail : page);
    f->map = mmap(NULL, f->len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (f->map == MAP_FAILED) {
        perror("test_batch: mmap");
        exit(2);
    }
    unsigned char *at = (unsigned char *)f->map + page - before;
    memcpy(at, src, (size_t)count * size);
    if (mprotect((unsigned char *)f->map + page, f->len - page, PROT_NONE) != 0) {
        perror("test_batch: mprotect");
        exit(2);
    }
    return at;
}

static void unfence(fence *f) { munmap(f->map, f->len); }

enum { FENCED = 45 }; /* more than a chunk of 32 */

static test_log fence_log;

/* A validation-mode scene with a log, FENCED roots, and entry k of every
 * batch below the refused one. */
static sgrt_scene *fence_scene(sgrt_node *n)
{
    const sgrt_scene_desc d = {.flags = SGRT_SCENE_VALIDATE, .log = test_log_record,
                               .log_user = &fence_log};
    sgrt_scene *s = new_scene_desc(&d);
    for (uint32_t i = 0; i < FENCED; i++)
        OK(sgrt_node_create(s, SGRT_NULL_NODE, &n[i]));
    CHECK_EQ_U(sgrt_scene_update(s), FENCED);
    return s;
}

/* Refused at entry k: its handle stale (why 0: a matrix batch, 4: TRS),
 * its quaternion off unit length (1), its matrix (2) or its t (3) not
 * finite. Past k, every
 * quaternion is (1, 0, 0, 0), which validation mode would warn about, and
 * every matrix holds a NaN. Each array is readable only as far as the
 * batch may read it: past k, nothing of the chunks after k's, and in k's
 * chunk of 32 only the handles (a handle batch reads a chunk's handles
 * together) and, for TRS refused for its values, the t, q and scale the
 * bounds check compares together. The batch returns k's error, writes
 * the k entries before it and reports the refusal alone. */
static void refused_reads_nothing_past(uint32_t k, int why, bool use_writer)
{
    const bool trs = why == 1 || why >= 3, stale = why == 0 || why == 4;
    sgrt_node n[FENCED], nodes[FENCED];
    sgrt_scene *s = fence_scene(n);
    float local[FENCED][16], t[FENCED][3], q[FENCED][4], sc[FENCED][3];
    for (uint32_t i = 0; i < FENCED; i++) {
        nodes[i] = n[i];
        translation((float)i + 1.0f, 0, 0, local[i]);
        for (int a = 0; a < 3; a++)
            t[i][a] = (float)i + 1.0f, sc[i][a] = 1.0f;
        q[i][0] = q[i][1] = q[i][2] = 0.0f;
        q[i][3] = 1.0f;
    }
    for (uint32_t i = k + 1u; i < FENCED; i++) {
        q[i][0] = 1.0f, q[i][3] = 0.0f; /* the identity written w, x, y, z */
        local[i][5] = NAN;
    }
    sgrt_result want = SGRT_ERR_INVALID_ARG;
    sgrt_writer w = SGRT_NULL_WRITER;
    if (use_writer)
        OK(sgrt_writer_create(s, FENCED, nodes, 0, &w));
    if (stale) {
        OK(sgrt_node_destroy(s, n[k]));
        want = SGRT_ERR_STALE_HANDLE;
    } else if (why == 1) {
        q[k][3] = 0.5f; /* |q|^2 = 0.25 */
    } else if (why == 2) {
        local[k][12] = INFINITY;
    } else if (why == 3) {
        t[k][2] = NAN;
    }
    const uint32_t chunk_end = (k | 31u) < FENCED - 1u ? (k | 31u) : FENCED - 1u;
    const uint32_t tsc = why == 3 ? chunk_end : k;
    fence fn, fl, ft, fq, fs;
    const sgrt_node *pn = fenced(&fn, nodes, sizeof nodes[0], chunk_end, FENCED);
    const float *pl = fenced(&fl, local, sizeof local[0], k, FENCED);
    const float *pt = fenced(&ft, t, sizeof t[0], tsc, FENCED);
    const float *pq = fenced(&fq, q, sizeof q[0], tsc, FENCED);
    const float *ps = fenced(&fs, sc, sizeof sc[0], tsc, FENCED);
    memset(&fence_log, 0, sizeof fence_log);
    uint32_t bad = 99;
    const sgrt_result got =
        use_writer ? (trs ? sgrt_writer_set_trs(s, w, pt, pq, ps, &bad)
                          : sgrt_writer_set_local(s, w, pl, &bad))
                   : (trs ? sgrt_nodes_set_trs(s, FENCED, pn, pt, pq, ps, &bad)
                          : sgrt_nodes_set_local(s, FENCED, pn, pl, &bad));
    CHECK_RES(got, want);
    CHECK_EQ_U(bad, k);
    CHECK_MSG(fence_log.count == 1 && fence_log.last.code == want,
              "%s refused at %u (why %d): %u reports, the last \"%s\"",
              use_writer ? "writer" : "nodes", k, why, fence_log.count, fence_log.message);
    /* A writer's stale entry is found before anything is written. */
    CHECK_EQ_U(sgrt_scene_update(s), use_writer && stale ? 0u : k);
    unfence(&fn), unfence(&fl), unfence(&ft), unfence(&fq), unfence(&fs);
    sgrt_scene_destroy(s);
}

static void refusals_read_nothing_past(void)
{
    static const uint32_t at[] = {0, 2, 5, 31, 32, 40, FENCED - 1u};
    for (size_t i = 0; i < sizeof at / sizeof at[0]; i++)
        for (int why = 0; why < 5; why++) {
            refused_reads_nothing_past(at[i], why, false);
            refused_reads_nothing_past(at[i], why, true);
        }
}
#endif

/* In validation mode a batch warns about the identity written w, x, y, z
 * only at or before the entry it stops at, as its single calls would: with
 * every entry readable, entry 5 refused and entry 7 (1, 0, 0, 0), the
 * refusal is the one report; with entry 5 (1, 0, 0, 0) and refused for a
 * NaN in t, the warning comes first. */
static void warnings_stop_at_the_refused_entry(void)
{
    test_log lg;
    const sgrt_scene_desc d = {.flags = SGRT_SCENE_VALIDATE, .log = test_log_record,
                               .log_user = &lg};
    sgrt_scene *s = new_scene_desc(&d);
    enum { N = 10 };
    sgrt_node n[N];
    float t[N][3] = {{0}}, q[N][4] = {{0}}, sc[N][3];
    for (uint32_t i = 0; i < N; i++) {
        OK(sgrt_node_create(s, SGRT_NULL_NODE, &n[i]));
        q[i][3] = 1.0f;
        sc[i][0] = sc[i][1] = sc[i][2] = 1.0f;
    }
    q[7][0] = 1.0f, q[7][3] = 0.0f;
    sgrt_writer w;
    OK(sgrt_writer_create(s, N, n, 0, &w));
    for (int how = 0; how < 3; how++) {
        float qq[N][4];
        memcpy(qq, q, sizeof q);
        sgrt_node nodes[N];
        memcpy(nodes, n, sizeof n);
        if (how == 0) {
            sgrt_node gone;
            OK(sgrt_node_create(s, SGRT_NULL_NODE, &gone));
            OK(sgrt_node_destroy(s, gone));
            nodes[5] = gone;
        } else {
            qq[5][2] = 0.5f; /* off unit length */
        }
        uint32_t bad = 99;
        memset(&lg, 0, sizeof lg);
        const sgrt_result r =
            how == 2 ? sgrt_writer_set_trs(s, w, t[0], qq[0], sc[0], &bad)
                     : sgrt_nodes_set_trs(s, N, nodes, t[0], qq[0], sc[0], &bad);
        CHECK_RES(r, how == 0 ? SGRT_ERR_STALE_HANDLE : SGRT_ERR_INVALID_ARG);
        CHECK_EQ_U(bad, 5);
        CHECK_MSG(lg.count == 1 && lg.last.code != SGRT_OK,
                  "case %d: %u reports, the last \"%s\"", how, lg.count, lg.message);
    }
    /* The refused entry itself is reached: warned about, then refused. */
    q[5][0] = 1.0f, q[5][3] = 0.0f;
    t[5][1] = NAN;
    uint32_t bad = 99;
    memset(&lg, 0, sizeof lg);
    CHECK_RES(sgrt_writer_set_trs(s, w, t[0], q[0], sc[0], &bad), SGRT_ERR_INVALID_ARG);
    CHECK_EQ_U(bad, 5);
    CHECK_EQ_U(lg.count, 2); /* the warning about entry 5, then its refusal */
    CHECK_EQ_U(lg.last.node.id, n[5].id);
    sgrt_scene_destroy(s);
}

int main(void)
{
    for (uint64_t seed = 1; seed <= 4; seed++) {
        run(seed, false);
        run(seed, true);
    }
    long_batch();
#if HAVE_FENCE
    refusals_read_nothing_past();
#endif
    warnings_stop_at_the_refused_entry();
    sgrt_scene_destroy(probe_scene);
    return test_report("batch");
}
