/* Writers against the single calls they stand for. Two scenes are built
 * alike; on random programs one gets each frame's writes through a writer
 * (sgrt_writer_set_local, sgrt_writer_set_trs, or in place through
 * sgrt_writer_begin / sgrt_writer_commit, whole or in chunks) and the other
 * through sgrt_node_set_local / sgrt_node_set_trs in entry order. After each
 * frame both must hold the same locals bit for bit, and the next update
 * must recompute the same count and the same worlds, with the same tracker
 * ranges. Writer lists carry duplicates; frames carry non-finite values
 * (refused: nothing changes, the first refused entry is named; in place:
 * the identity, reported, the rest committed); the structure changes in
 * between (destroys, relocating re-parents, compaction, growth) so that
 * writers resolve their slots again, and a writer whose node died refuses
 * with the entry's index. Writes never allocate. */
#include "testutil.h"

enum { NODES = 500, ENTRIES = 120, ROUNDS = 300 };

typedef struct world {
    sgrt_scene *s;
    sgrt_tracker *t;
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

static void compare(world *a, world *b, const char *what)
{
    float la[16], lb[16];
    uint32_t local_diff = 0, world_diff = 0;
    for (uint32_t i = 0; i < NODES; i++) {
        const bool alive = sgrt_node_alive(a->s, a->n[i]);
        CHECK(alive == sgrt_node_alive(b->s, b->n[i]));
        if (!alive)
            continue;
        OK(sgrt_node_local(a->s, a->n[i], la));
        OK(sgrt_node_local(b->s, b->n[i], lb));
        local_diff += memcmp(la, lb, sizeof la) != 0;
    }
    if (local_diff)
        FAIL("%s: %u locals differ", what, local_diff);
    CHECK_EQ_U(sgrt_scene_update(a->s), sgrt_scene_update(b->s));
    for (uint32_t i = 0; i < NODES; i++) {
        if (!sgrt_node_alive(a->s, a->n[i]))
            continue;
        OK(sgrt_node_world(a->s, a->n[i], la));
        OK(sgrt_node_world(b->s, b->n[i], lb));
        world_diff += memcmp(la, lb, sizeof la) != 0;
    }
    if (world_diff)
        FAIL("%s: %u worlds differ", what, world_diff);
    sgrt_range ra[NODES], rb[NODES];
    const uint32_t na = test_collect(a->s, a->t, ra, NODES, 0, NULL);
    const uint32_t nb = test_collect(b->s, b->t, rb, NODES, 0, NULL);
    CHECK_EQ_U(na, nb);
    CHECK(na == nb && memcmp(ra, rb, na * sizeof ra[0]) == 0);
    check_scene(a->s);
}

/* One frame's inputs for the writer's entries. */
typedef struct frame {
    float local[ENTRIES][16];
    float t[ENTRIES][3], q[ENTRIES][4], sc[ENTRIES][3];
} frame;

enum { BY_LOCAL, BY_TRS, IN_PLACE, HOW_COUNT };

static void random_frame(rng *r, frame *f, uint32_t count, bool poison, int how)
{
    for (uint32_t i = 0; i < count; i++) {
        for (int j = 0; j < 3; j++) {
            f->t[i][j] = rng_float(r, -5, 5);
            f->sc[i][j] = rng_float(r, 0.5f, 2);
        }
        for (int j = 0; j < 4; j++)
            f->q[i][j] = rng_float(r, -1, 1);
        for (int j = 0; j < 16; j++)
            f->local[i][j] = rng_float(r, -2, 2);
        f->local[i][3] = f->local[i][7] = f->local[i][11] = 0.0f;
        f->local[i][15] = 1.0f;
    }
    if (poison) {
        const uint32_t at = rng_below(r, count);
        if (how == BY_TRS)
            (rng_below(r, 2) ? f->q[at] : f->sc[at])[rng_below(r, 3)] = NAN;
        else
            f->local[at][rng_below(r, 16)] = rng_below(r, 2) ? INFINITY : -NAN;
    }
}

static const float identity[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};

static bool finite16(const float *m)
{
    for (int i = 0; i < 16; i++)
        if (!isfinite(m[i]))
            return false;
    return true;
}

/* The single calls the writer stands for, on scene b. In place, a
 * non-finite local stands for the identity, and every entry marks (the old
 * bits are gone): a set_local that changes the bits. */
static void singles(world *b, const uint32_t *pick, uint32_t count, const frame *f, int how)
{
    for (uint32_t i = 0; i < count; i++) {
        const sgrt_node n = b->n[pick[i]];
        if (how == BY_TRS) {
            OK(sgrt_node_set_trs(b->s, n, f->t[i], f->q[i], f->sc[i]));
        } else if (finite16(f->local[i])) {
            OK(sgrt_node_set_local(b->s, n, f->local[i]));
        } else {
            /* In place marks even when the identity was there already. */
            float other[16];
            memcpy(other, identity, sizeof other);
            other[12] = 1.0f;
            OK(sgrt_node_set_local(b->s, n, other));
            OK(sgrt_node_set_local(b->s, n, identity));
        }
    }
}

/* The entries whose node is still alive in w (a writer refuses the others). */
static uint32_t first_dead(const world *w, const uint32_t *pick, uint32_t count)
{
    for (uint32_t i = 0; i < count; i++)
        if (!sgrt_node_alive(w->s, w->n[pick[i]]))
            return i;
    return count;
}

static uint32_t first_bad(const frame *f, uint32_t count, int how)
{
    sgrt_scene *probe = new_scene();
    sgrt_node p;
    OK(sgrt_node_create(probe, SGRT_NULL_NODE, &p));
    uint32_t i = 0;
    for (; i < count; i++)
        if ((how == BY_TRS ? sgrt_node_set_trs(probe, p, f->t[i], f->q[i], f->sc[i])
                           : sgrt_node_set_local(probe, p, f->local[i])) != SGRT_OK)
            break;
    sgrt_scene_destroy(probe);
    return i;
}

static void new_writer(rng *r, world *a, uint32_t *pick, uint32_t *count, sgrt_writer **wr)
{
    *count = 1u + rng_below(r, ENTRIES);
    for (uint32_t i = 0; i < *count; i++) {
        if (i > 0 && rng_below(r, 8) == 0) {
            pick[i] = pick[rng_below(r, i)]; /* duplicates: the last entry wins */
            continue;
        }
        do
            pick[i] = rng_below(r, NODES);
        while (!sgrt_node_alive(a->s, a->n[pick[i]]));
    }
    /* Often a run in slot order, as a skeleton's joints are. */
    if (rng_below(r, 2) == 0) {
        for (uint32_t i = 1; i < *count; i++)
            for (uint32_t j = i; j > 0 && pick[j - 1] > pick[j]; j--) {
                const uint32_t x = pick[j];
                pick[j] = pick[j - 1];
                pick[j - 1] = x;
            }
    }
    sgrt_node nodes[ENTRIES];
    for (uint32_t i = 0; i < *count; i++)
        nodes[i] = a->n[pick[i]];
    OK(sgrt_writer_create(a->s, *count, nodes, wr));
}

static void write_frame(world *a, world *b, sgrt_writer *wr, const uint32_t *pick,
                        uint32_t count, const frame *f, int how, rng *r)
{
    const uint32_t dead = first_dead(a, pick, count);
    const uint64_t calls = alloc_a.calls;
    uint32_t out_bad = 0xDEADBEEFu;
    if (how == IN_PLACE) {
        float *locals = NULL;
        const uint32_t *slots = NULL;
        const sgrt_result rb = sgrt_writer_begin(a->s, wr, &locals, &slots);
        if (dead < count) {
            CHECK_RES(rb, SGRT_ERR_STALE_HANDLE);
            return;
        }
        OK(rb);
        /* In chunks of random size, as a system that commits while the
         * locals are still in cache. The first entry reported is the first
         * whose local is not finite when committed (with repeats in one
         * chunk, the slot holds the last entry's value). */
        for (uint32_t first = 0; first < count;) {
            const uint32_t n = 1u + rng_below(r, count - first);
            for (uint32_t i = first; i < first + n; i++)
                memcpy(locals + 16u * slots[i], f->local[i], sizeof f->local[i]);
            uint32_t want = UINT32_MAX;
            for (uint32_t i = first; i < first + n && want == UINT32_MAX; i++)
                if (!finite16(locals + 16u * slots[i]))
                    want = i;
            uint32_t at = 0xDEADBEEFu;
            const sgrt_result rc = sgrt_writer_commit(a->s, wr, first, n, &at);
            if (want != UINT32_MAX) {
                CHECK_RES(rc, SGRT_ERR_INVALID_ARG);
                CHECK_EQ_U(at, want);
            } else {
                CHECK_RES(rc, SGRT_OK);
                CHECK_EQ_U(at, 0xDEADBEEFu);
            }
            first += n;
        }
        CHECK_EQ_U(alloc_a.calls, calls);
        singles(b, pick, count, f, how);
        return;
    }
    const sgrt_result got = how == BY_TRS
                                ? sgrt_writer_set_trs(a->s, wr, f->t[0], f->q[0], f->sc[0], &out_bad)
                                : sgrt_writer_set_local(a->s, wr, f->local[0], &out_bad);
    CHECK_EQ_U(alloc_a.calls, calls); /* writes never allocate */
    if (dead < count) {
        CHECK_RES(got, SGRT_ERR_STALE_HANDLE);
        CHECK_EQ_U(out_bad, dead);
        return;
    }
    const uint32_t bad = first_bad(f, count, how);
    if (bad < count) {
        CHECK_RES(got, SGRT_ERR_INVALID_ARG);
        CHECK_EQ_U(out_bad, bad);
        return;
    }
    CHECK_RES(got, SGRT_OK);
    CHECK_EQ_U(out_bad, 0xDEADBEEFu);
    singles(b, pick, count, f, how);
}

/* The same structural change in both scenes: slots move (relocation,
 * compaction, reclamation) or nodes die, and the writer must follow. */
static void restructure(rng *r, world *a, world *b)
{
    const uint32_t x = 1u + rng_below(r, NODES - 1u), y = rng_below(r, NODES);
    switch (rng_below(r, 4)) {
    case 0:
        if (sgrt_node_alive(a->s, a->n[x]) && sgrt_scene_node_count(a->s) > NODES / 2) {
            OK(sgrt_node_destroy(a->s, a->n[x]));
            OK(sgrt_node_destroy(b->s, b->n[x]));
        }
        break;
    case 1: /* under a node created later: relocates the subtree when it lies after */
        if (sgrt_node_alive(a->s, a->n[x]) && sgrt_node_alive(a->s, a->n[y])) {
            const sgrt_result ra = sgrt_node_set_parent(a->s, a->n[x], a->n[y], SGRT_KEEP_LOCAL);
            CHECK_RES(sgrt_node_set_parent(b->s, b->n[x], b->n[y], SGRT_KEEP_LOCAL), ra);
        }
        break;
    case 2:
        OK(sgrt_scene_compact(a->s));
        OK(sgrt_scene_compact(b->s));
        break;
    default:
        break;
    }
}

static void run(uint64_t seed, int how)
{
    world a, b;
    build(&a, &alloc_a, seed);
    build(&b, &alloc_b, seed);
    compare(&a, &b, "built");
    rng r = {seed ^ 0x5717EAull};
    static frame f;
    uint32_t pick[ENTRIES], count = 0;
    sgrt_writer *wr = NULL;
    for (uint32_t round = 0; round < ROUNDS; round++) {
        if (!wr || rng_below(&r, 20) == 0) {
            sgrt_writer_destroy(a.s, wr);
            new_writer(&r, &a, pick, &count, &wr);
        }
        random_frame(&r, &f, count, rng_below(&r, 5) == 0, how);
        write_frame(&a, &b, wr, pick, count, &f, how, &r);
        if (first_dead(&a, pick, count) < count) {
            sgrt_writer_destroy(a.s, wr);
            wr = NULL;
        }
        compare(&a, &b, how == BY_TRS ? "writer_set_trs" : how == BY_LOCAL ? "writer_set_local"
                                                                          : "writer in place");
        if (rng_below(&r, 6) == 0)
            restructure(&r, &a, &b);
    }
    /* A writer still alive is freed with its scene (LeakSanitizer, and the
     * counting allocator below). */
    end_scene_alloc(a.s, &alloc_a);
    end_scene_alloc(b.s, &alloc_b);
}

/* What begin and commit refuse, and what the arguments of every writer call
 * must be. */
static void refusals(void)
{
    sgrt_scene *s = new_scene(), *other = new_scene();
    sgrt_node n[4];
    OK(sgrt_node_create(s, SGRT_NULL_NODE, &n[0]));
    for (int i = 1; i < 4; i++)
        OK(sgrt_node_create(s, n[i - 1], &n[i]));
    sgrt_writer *w = NULL, *wo = NULL;
    CHECK_RES(sgrt_writer_create(s, 0, n, &w), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_writer_create(NULL, 4, n, &w), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_writer_create(s, 4, NULL, &w), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_writer_create(s, 4, n, NULL), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_writer_create(other, 4, n, &w), SGRT_ERR_STALE_HANDLE);
    CHECK(w == NULL);
    OK(sgrt_writer_create(s, 4, n, &w));
    sgrt_node on;
    OK(sgrt_node_create(other, SGRT_NULL_NODE, &on));
    OK(sgrt_writer_create(other, 1, &on, &wo));
    float local[4][16];
    for (int i = 0; i < 4; i++)
        memcpy(local[i], identity, sizeof identity);
    const float t[12] = {0}, q[16] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
    const float sc[12] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
    CHECK_RES(sgrt_writer_set_local(s, wo, local[0], NULL), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_writer_set_local(s, w, NULL, NULL), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_writer_set_trs(s, w, t, NULL, sc, NULL), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_writer_set_trs(other, w, t, q, sc, NULL), SGRT_ERR_INVALID_ARG);
    OK(sgrt_writer_set_trs(s, w, t, q, sc, NULL));
    CHECK_EQ_U(sgrt_scene_update(s), 4);
    OK(sgrt_writer_set_local(s, w, local[0], NULL)); /* the same bits: marks nothing */
    CHECK_EQ_U(sgrt_scene_update(s), 0);

    float *locals;
    const uint32_t *slots;
    CHECK_RES(sgrt_writer_begin(s, w, NULL, &slots), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_writer_begin(s, wo, &locals, &slots), SGRT_ERR_INVALID_ARG);
    OK(sgrt_writer_begin(s, w, &locals, &slots));
    CHECK_RES(sgrt_writer_commit(s, w, 3, 2, NULL), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_writer_commit(s, w, 5, 0, NULL), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_writer_commit(s, w, 1, UINT32_MAX, NULL), SGRT_ERR_INVALID_ARG);
    CHECK_EQ_U(sgrt_scene_update(s), 0); /* refused commits mark nothing */
    OK(sgrt_writer_commit(s, w, 4, 0, NULL));
    /* Committed in place: marked even with the bits unchanged. */
    OK(sgrt_writer_commit(s, w, 2, 2, NULL));
    CHECK_EQ_U(sgrt_scene_update(s), 2);
    /* A non-finite local becomes the identity, the rest is committed. */
    locals[16u * slots[1] + 12] = 7.0f;
    locals[16u * slots[2] + 5] = NAN;
    uint32_t bad = 0;
    CHECK_RES(sgrt_writer_commit(s, w, 0, 4, &bad), SGRT_ERR_INVALID_ARG);
    CHECK_EQ_U(bad, 2);
    float l[16];
    OK(sgrt_node_local(s, n[2], l));
    CHECK(memcmp(l, identity, sizeof l) == 0);
    CHECK_EQ_U(sgrt_scene_update(s), 4);
    OK(sgrt_node_world(s, n[3], l));
    CHECK(l[12] == 7.0f);
    /* Slots moved since begin: the commit is refused, nothing marked. */
    OK(sgrt_writer_begin(s, w, &locals, &slots));
    sgrt_node late;
    OK(sgrt_node_create(s, SGRT_NULL_NODE, &late));
    OK(sgrt_node_set_parent(s, n[1], late, SGRT_KEEP_LOCAL)); /* relocates n[1..3] */
    CHECK_EQ_U(sgrt_scene_update(s), 4);
    CHECK_RES(sgrt_writer_commit(s, w, 0, 4, NULL), SGRT_ERR_STALE_HANDLE);
    CHECK_EQ_U(sgrt_scene_update(s), 0);
    /* ... and after storage growth (the local array moved). */
    OK(sgrt_writer_begin(s, w, &locals, &slots));
    for (int i = 0; i < 200; i++) {
        sgrt_node x;
        OK(sgrt_node_create(s, late, &x));
    }
    CHECK_EQ_U(sgrt_scene_update(s), 200);
    CHECK_RES(sgrt_writer_commit(s, w, 0, 4, NULL), SGRT_ERR_STALE_HANDLE);
    /* The writer follows: begin again and write. */
    OK(sgrt_writer_begin(s, w, &locals, &slots));
    locals[16u * slots[3] + 13] = 2.0f;
    OK(sgrt_writer_commit(s, w, 3, 1, NULL));
    CHECK_EQ_U(sgrt_scene_update(s), 1);
    /* A destroyed node: every write refuses, naming its entry. */
    OK(sgrt_node_destroy(s, n[2]));
    bad = 0;
    CHECK_RES(sgrt_writer_set_local(s, w, local[0], &bad), SGRT_ERR_STALE_HANDLE);
    CHECK_EQ_U(bad, 2);
    CHECK_RES(sgrt_writer_begin(s, w, &locals, &slots), SGRT_ERR_STALE_HANDLE);
    sgrt_writer_destroy(other, w); /* another scene's: refused, nothing freed */
    OK(sgrt_writer_set_trs(other, wo, t, q, sc, NULL));
    sgrt_writer_destroy(s, w);
    sgrt_writer_destroy(s, NULL);
    check_scene(s);
    sgrt_scene_destroy(s);
    sgrt_scene_destroy(other); /* frees wo */
}

/* Two moved nodes with children in one dirty word, marked by one chunk: the
 * closure must start at the lower one, whose child lies between them. */
static void word_marks(void)
{
    sgrt_scene *s = new_scene();
    sgrt_node a, p, c, q, d;
    OK(sgrt_node_create(s, SGRT_NULL_NODE, &a)); /* slot 0 */
    OK(sgrt_node_create(s, a, &p));              /* 1 */
    OK(sgrt_node_create(s, p, &c));              /* 2: p's child, before q */
    OK(sgrt_node_create(s, a, &q));              /* 3 */
    OK(sgrt_node_create(s, q, &d));              /* 4 */
    CHECK_EQ_U(sgrt_scene_update(s), 5);
    const sgrt_node both[2] = {q, p};
    sgrt_writer *w;
    OK(sgrt_writer_create(s, 2, both, &w));
    float m[2][16];
    for (int i = 0; i < 2; i++) {
        memcpy(m[i], identity, sizeof identity);
        m[i][12] = (float)(i + 1);
    }
    OK(sgrt_writer_set_local(s, w, m[0], NULL));
    CHECK_EQ_U(sgrt_scene_update(s), 4); /* p, c, q, d */
    float wc[16];
    OK(sgrt_node_world(s, c, wc));
    CHECK(wc[12] == 2.0f);
    check_scene(s);
    sgrt_scene_destroy(s);
}

int main(void)
{
    word_marks();
    for (uint64_t seed = 1; seed <= 3; seed++)
        for (int how = 0; how < HOW_COUNT; how++)
            run(seed, how);
    refusals();
    return test_report("writer");
}
