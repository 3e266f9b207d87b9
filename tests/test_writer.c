/* SPDX-License-Identifier: MIT */
/* Writers against the single calls they stand for. Two scenes are built
 * alike; on random programs one gets each frame's writes through a writer
 * (sgrt_writer_set_local, sgrt_writer_set_trs, or in place through
 * sgrt_writer_begin / sgrt_writer_commit, whole or in chunks) and the other
 * through sgrt_node_set_local / sgrt_node_set_trs in entry order. After each
 * frame both must hold the same locals bit for bit, and the next update
 * must recompute the same count and the same worlds, with the same tracker
 * ranges, previous worlds and world boxes. Writer lists carry duplicates;
 * frames carry non-finite values: a write stops at the first refused entry
 * (the single calls before it happen, it and the rest do not, and it is
 * named); in place, the update makes such a local the identity, counts it
 * and names the first. The structure changes in between (destroys,
 * relocating re-parents, compaction, growth) so that writers resolve their
 * slots again, and a writer whose node died refuses with the entry's
 * index. Writes never allocate. */
#include "testutil.h"

enum { NODES = 500, ENTRIES = 120, ROUNDS = 300 };

typedef struct world {
    sgrt_scene *s;
    sgrt_tracker t;
    sgrt_node n[NODES];
} world;

static test_alloc alloc_a, alloc_b;

/* The scenes' flags of the programs. */
static uint32_t scene_flags;

static void build(world *w, test_alloc *ta, uint64_t seed)
{
    rng r = {seed};
    memset(ta, 0, sizeof *ta);
    const sgrt_allocator al = test_alloc_hooks(ta);
    const sgrt_scene_desc desc = {.allocator = &al, .flags = scene_flags};
    w->s = new_scene_desc(&desc);
    OK(sgrt_tracker_create(w->s, &w->t));
    for (uint32_t i = 0; i < NODES; i++) {
        const sgrt_node parent = (i == 0 || rng_below(&r, 8) == 0)
                                     ? SGRT_NULL_NODE
                                     : w->n[rng_below(&r, i)];
        OK(sgrt_node_create(w->s, parent, &w->n[i]));
        if ((scene_flags & SGRT_SCENE_BOUNDS) && rng_below(&r, 2)) {
            const float c[3] = {rng_float(&r, -1, 1), 0, 1}, e[3] = {1, rng_float(&r, 0, 2), 0};
            OK(sgrt_node_set_bounds(w->s, w->n[i], c, e));
        }
    }
}

static void compare(world *a, world *b, const char *what)
{
    twins_compare(a->s, a->t, a->n, b->s, b->t, b->n, NODES, scene_flags, what);
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

/* The single calls the writer stands for, on scene b. In place, a
 * non-finite local stands for the identity the update makes of it, and
 * every entry marks (the old bits are gone): a set_local that changes the
 * bits. */
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

/* The index in w->n of a node (NODES: none). */
static uint32_t index_of(const world *w, sgrt_node x)
{
    for (uint32_t i = 0; i < NODES; i++)
        if (w->n[i].id == x.id)
            return i;
    return NODES;
}

/* Entries for a writer of w: random live nodes with duplicates, or a live
 * node's whole subtree (at most ENTRIES of it); often put in slot order, as
 * a skeleton's joints are. Returns the count. */
static uint32_t pick_entries(rng *r, const world *a, uint32_t *pick)
{
    uint32_t count = 0;
    if (rng_below(r, 3) == 0) {
        uint32_t root;
        do
            root = rng_below(r, NODES);
        while (!sgrt_node_alive(a->s, a->n[root]));
        /* Creation order is not parent order after re-parenting: repeat
         * until nothing joins. */
        bool in[NODES] = {false};
        in[root] = true;
        for (bool grew = true; grew;) {
            grew = false;
            for (uint32_t i = 0; i < NODES; i++) {
                sgrt_node p;
                if (in[i] || !sgrt_node_alive(a->s, a->n[i]) ||
                    sgrt_node_parent(a->s, a->n[i], &p) != SGRT_OK || p.id == 0)
                    continue;
                const uint32_t pi = index_of(a, p);
                if (pi < NODES && in[pi])
                    in[i] = grew = true;
            }
        }
        for (uint32_t i = 0; i < NODES && count < ENTRIES; i++)
            if (in[i])
                pick[count++] = i;
    } else {
        count = 1u + rng_below(r, ENTRIES);
        for (uint32_t i = 0; i < count; i++) {
            if (i > 0 && rng_below(r, 8) == 0) {
                pick[i] = pick[rng_below(r, i)]; /* duplicates: the last entry wins */
                continue;
            }
            do
                pick[i] = rng_below(r, NODES);
            while (!sgrt_node_alive(a->s, a->n[pick[i]]));
        }
    }
    if (rng_below(r, 4) != 0) {
        for (uint32_t i = 1; i < count; i++)
            for (uint32_t j = i; j > 0 && slot_of(a->s, a->n[pick[j - 1]]) >
                                              slot_of(a->s, a->n[pick[j]]);
                 j--) {
                const uint32_t x = pick[j];
                pick[j] = pick[j - 1];
                pick[j - 1] = x;
            }
        /* Mostly without repeats, as a skeleton's joints: strictly
         * increasing slots, runs of consecutive slots marked a word at a
         * time. */
        if (rng_below(r, 4) != 0) {
            uint32_t kept = 0;
            for (uint32_t i = 0; i < count; i++)
                if (kept == 0 || pick[kept - 1] != pick[i])
                    pick[kept++] = pick[i];
            count = kept;
        }
    }
    return count;
}

static void new_writer(rng *r, world *a, uint32_t *pick, uint32_t *count, sgrt_writer *wr)
{
    *count = pick_entries(r, a, pick);
    sgrt_node nodes[ENTRIES];
    for (uint32_t i = 0; i < *count; i++)
        nodes[i] = a->n[pick[i]];
    OK(sgrt_writer_create(a->s, *count, nodes, 0, wr));
}

static void write_frame(world *a, world *b, sgrt_writer wr, const uint32_t *pick,
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
        /* In chunks of random size, as a system that commits as it goes.
         * Commit only marks: non-finite locals are left to the update. */
        for (uint32_t first = 0; first < count;) {
            const uint32_t n = 1u + rng_below(r, count - first);
            for (uint32_t i = first; i < first + n; i++)
                memcpy(locals + 16u * slots[i], f->local[i], sizeof f->local[i]);
            OK(sgrt_writer_commit(a->s, wr, first, n));
            first += n;
        }
        CHECK_EQ_U(alloc_a.calls, calls);
        /* The update makes each non-finite local it reads the identity,
         * counts them and names the lowest slot's node. */
        uint32_t want = 0, low = UINT32_MAX;
        for (uint32_t i = 0; i < count; i++) {
            bool seen = false;
            for (uint32_t j = 0; j < i && !seen; j++)
                seen = slots[j] == slots[i];
            if (!seen && !finite16(locals + 16u * slots[i])) {
                want++;
                low = slots[i] < low ? slots[i] : low;
            }
        }
        singles(b, pick, count, f, how);
        CHECK_EQ_U(sgrt_scene_update(a->s), sgrt_scene_update(b->s));
        sgrt_node first_bad_node;
        CHECK_EQ_U(sgrt_scene_nonfinite_locals(a->s, &first_bad_node), want);
        CHECK_EQ_U(sgrt_scene_nonfinite_locals(b->s, NULL), 0);
        if (want)
            CHECK_EQ_U(slot_of(a->s, first_bad_node), low);
        else
            CHECK_EQ_U(first_bad_node.id, SGRT_NULL_NODE.id);
        return;
    }
    const sgrt_result got = how == BY_TRS
                                ? sgrt_writer_set_trs(a->s, wr, f->t[0], f->q[0], f->sc[0], &out_bad)
                                : sgrt_writer_set_local(a->s, wr, f->local[0], &out_bad);
    CHECK_EQ_U(alloc_a.calls, calls); /* writes never allocate */
    if (dead < count) {
        /* Refused before anything is written: the slots are resolved first. */
        CHECK_RES(got, SGRT_ERR_STALE_HANDLE);
        CHECK_EQ_U(out_bad, dead);
        return;
    }
    /* The single calls in order, up to the first refused one. */
    const uint32_t bad = first_bad(f, count, how);
    if (bad < count) {
        CHECK_RES(got, SGRT_ERR_INVALID_ARG);
        CHECK_EQ_U(out_bad, bad);
    } else {
        CHECK_RES(got, SGRT_OK);
        CHECK_EQ_U(out_bad, 0xDEADBEEFu);
    }
    singles(b, pick, bad, f, how);
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
    sgrt_writer wr = SGRT_NULL_WRITER;
    for (uint32_t round = 0; round < ROUNDS; round++) {
        if (!wr.id || rng_below(&r, 20) == 0) {
            OK(sgrt_writer_destroy(a.s, wr));
            new_writer(&r, &a, pick, &count, &wr);
        }
        random_frame(&r, &f, count, rng_below(&r, 5) == 0, how);
        write_frame(&a, &b, wr, pick, count, &f, how, &r);
        check_scene(a.s);
        if (first_dead(&a, pick, count) < count) {
            OK(sgrt_writer_destroy(a.s, wr));
            wr = SGRT_NULL_WRITER;
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
    sgrt_writer w = SGRT_NULL_WRITER, wo = SGRT_NULL_WRITER;
    CHECK_RES(sgrt_writer_create(s, 0, n, 0, &w), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_writer_create(s, 4, n, 2, &w), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_writer_create(NULL, 4, n, 0, &w), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_writer_create(s, 4, NULL, 0, &w), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_writer_create(s, 4, n, 0, NULL), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_writer_create(other, 4, n, 0, &w), SGRT_ERR_STALE_HANDLE);
    CHECK(w.id == 0u);
    OK(sgrt_writer_create(s, 4, n, 0, &w));
    sgrt_node on;
    OK(sgrt_node_create(other, SGRT_NULL_NODE, &on));
    OK(sgrt_writer_create(other, 1, &on, 0, &wo));
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
    CHECK_RES(sgrt_writer_commit(s, w, 3, 2), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_writer_commit(s, w, 5, 0), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_writer_commit(s, w, 1, UINT32_MAX), SGRT_ERR_INVALID_ARG);
    CHECK_EQ_U(sgrt_scene_update(s), 0); /* refused commits mark nothing */
    OK(sgrt_writer_commit(s, w, 4, 0));
    /* Committed in place: marked even with the bits unchanged. */
    OK(sgrt_writer_commit(s, w, 2, 2));
    CHECK_EQ_U(sgrt_scene_update(s), 2);
    CHECK_EQ_U(sgrt_scene_nonfinite_locals(s, NULL), 0);
    /* A non-finite local is committed like any other; the update makes it
     * the identity, computes the rest from it, counts it and names it. */
    locals[16u * slots[1] + 12] = 7.0f;
    locals[16u * slots[2] + 5] = NAN;
    OK(sgrt_writer_commit(s, w, 0, 4));
    float l[16];
    OK(sgrt_node_local(s, n[2], l)); /* in place: what was written, until the update */
    CHECK(isnan(l[5]));
    OK(sgrt_node_world_now(s, n[3], l)); /* what the update will store */
    CHECK(l[12] == 7.0f && finite16(l));
    CHECK_EQ_U(sgrt_scene_update(s), 4);
    sgrt_node named = SGRT_NULL_NODE;
    CHECK_EQ_U(sgrt_scene_nonfinite_locals(s, &named), 1);
    CHECK_EQ_U(named.id, n[2].id);
    OK(sgrt_node_local(s, n[2], l));
    CHECK(memcmp(l, identity, sizeof l) == 0);
    OK(sgrt_node_world(s, n[3], l));
    CHECK(l[12] == 7.0f);
    CHECK_EQ_U(sgrt_scene_update(s), 0); /* the count is the last update's */
    CHECK_EQ_U(sgrt_scene_nonfinite_locals(s, &named), 0);
    CHECK_EQ_U(named.id, SGRT_NULL_NODE.id);
    CHECK_EQ_U(sgrt_scene_nonfinite_locals(NULL, &named), 0);
    /* A local written in place and not committed is read by the update
     * when something above it moves: repaired then. */
    locals[16u * slots[3] + 0] = INFINITY;
    OK(sgrt_node_set_local(s, n[0], identity));
    float moved[16];
    memcpy(moved, identity, sizeof moved);
    moved[13] = 1.0f;
    OK(sgrt_node_set_local(s, n[0], moved));
    CHECK_EQ_U(sgrt_scene_update(s), 4);
    CHECK_EQ_U(sgrt_scene_nonfinite_locals(s, &named), 1);
    CHECK_EQ_U(named.id, n[3].id);
    /* Slots moved since begin: the commit is refused, nothing marked. */
    OK(sgrt_writer_begin(s, w, &locals, &slots));
    sgrt_node late;
    OK(sgrt_node_create(s, SGRT_NULL_NODE, &late));
    OK(sgrt_node_set_parent(s, n[1], late, SGRT_KEEP_LOCAL)); /* relocates n[1..3] */
    CHECK_EQ_U(sgrt_scene_update(s), 4);
    CHECK_RES(sgrt_writer_commit(s, w, 0, 4), SGRT_ERR_STALE_HANDLE);
    CHECK_EQ_U(sgrt_scene_update(s), 0);
    /* ... and after storage growth (the local array moved). */
    OK(sgrt_writer_begin(s, w, &locals, &slots));
    for (int i = 0; i < 200; i++) {
        sgrt_node x;
        OK(sgrt_node_create(s, late, &x));
    }
    CHECK_EQ_U(sgrt_scene_update(s), 200);
    CHECK_RES(sgrt_writer_commit(s, w, 0, 4), SGRT_ERR_STALE_HANDLE);
    /* The writer follows: begin again and write. */
    OK(sgrt_writer_begin(s, w, &locals, &slots));
    locals[16u * slots[3] + 13] = 2.0f;
    OK(sgrt_writer_commit(s, w, 3, 1));
    CHECK_EQ_U(sgrt_scene_update(s), 1);
    /* A destroyed node: every write refuses, naming its entry. */
    OK(sgrt_node_destroy(s, n[2]));
    uint32_t bad = 0;
    CHECK_RES(sgrt_writer_set_local(s, w, local[0], &bad), SGRT_ERR_STALE_HANDLE);
    CHECK_EQ_U(bad, 2);
    CHECK_RES(sgrt_writer_begin(s, w, &locals, &slots), SGRT_ERR_STALE_HANDLE);
    CHECK_RES(sgrt_writer_destroy(other, w), SGRT_ERR_INVALID_ARG); /* another scene's: nothing freed */
    OK(sgrt_writer_set_trs(other, wo, t, q, sc, NULL));
    OK(sgrt_writer_destroy(s, w));
    OK(sgrt_writer_destroy(s, SGRT_NULL_WRITER));
    CHECK_RES(sgrt_writer_destroy(NULL, SGRT_NULL_WRITER), SGRT_ERR_INVALID_ARG);
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
    sgrt_writer w;
    OK(sgrt_writer_create(s, 2, both, 0, &w));
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

/* Writers beside the parallel update: a scene large enough for several
 * ranges, skeleton-like chains written by writers (one per group, in slot
 * order, some overlapping: runs marked a word at a time), some in place
 * with a non-finite local now and then, plain writes in between, then the
 * parallel update on a shuffling executor, against a twin scene written by
 * single calls and updated serially: the same count, worlds, previous
 * worlds, tracker ranges, and the same non-finite locals repaired (the
 * twin writes the identity they become). */
enum { CHAINS = 400, JOINTS = 24 };

static void parallel_writers(void)
{
    const sgrt_scene_desc desc = {.flags = SGRT_SCENE_PREV_WORLD};
    sgrt_scene *s[2] = {new_scene_desc(&desc), new_scene_desc(&desc)};
    sgrt_tracker t[2];
    static sgrt_node h[2][CHAINS * JOINTS];
    rng r = {77};
    for (int k = 0; k < 2; k++) {
        OK(sgrt_tracker_create(s[k], &t[k]));
        for (uint32_t c = 0; c < CHAINS; c++)
            for (uint32_t j = 0; j < JOINTS; j++) {
                const uint32_t i = c * JOINTS + j;
                /* A skeleton: each joint under the one before or one of
                 * the first few (branches). */
                const sgrt_node parent =
                    j == 0 ? SGRT_NULL_NODE : h[k][c * JOINTS + (j < 4 ? j - 1 : j % 4)];
                OK(sgrt_node_create(s[k], parent, &h[k][i]));
            }
        CHECK_EQ_U(sgrt_scene_update(s[k]), CHAINS * JOINTS);
    }
    test_exec ex;
    CHECK(test_exec_start(&ex, TEST_EXEC_SHUFFLED, 5, 1));
    const sgrt_executor exe = test_exec_executor(&ex, 4);
    static float m[CHAINS * JOINTS][16];
    for (uint32_t frame = 0; frame < 12; frame++) {
        uint32_t repaired = 0;
        /* Groups of chains, each its own writer (created this frame). */
        for (uint32_t g = 0; g < 6; g++) {
            const uint32_t first = rng_below(&r, CHAINS - 40) * JOINTS;
            const uint32_t count = (1u + rng_below(&r, 40)) * JOINTS;
            for (uint32_t i = 0; i < count; i++) {
                translation(rng_float(&r, -2, 2), (float)frame, 1, m[i]);
                m[i][0] = rng_float(&r, 0.5f, 1.5f);
            }
            sgrt_writer w;
            OK(sgrt_writer_create(s[0], count, h[0] + first, 0, &w));
            if (rng_below(&r, 2)) {
                OK(sgrt_writer_set_local(s[0], w, m[0], NULL));
            } else {
                float *locals;
                const uint32_t *slots;
                OK(sgrt_writer_begin(s[0], w, &locals, &slots));
                if (rng_below(&r, 2)) { /* one non-finite local: the identity */
                    const uint32_t x = rng_below(&r, count);
                    m[x][rng_below(&r, 16)] = NAN;
                    repaired++;
                }
                for (uint32_t i = 0; i < count; i++)
                    memcpy(locals + 16u * slots[i], m[i], sizeof m[i]);
                OK(sgrt_writer_commit(s[0], w, 0, count));
            }
            OK(sgrt_writer_destroy(s[0], w));
            for (uint32_t i = 0; i < count; i++)
                OK(sgrt_node_set_local(s[1], h[1][first + i], finite16(m[i]) ? m[i] : identity));
            if (rng_below(&r, 3) == 0) { /* a plain write, anywhere */
                const uint32_t x = rng_below(&r, CHAINS * JOINTS);
                translation(0, 0, (float)g, m[0]);
                OK(sgrt_node_set_local(s[0], h[0][x], m[0]));
                OK(sgrt_node_set_local(s[1], h[1][x], m[0]));
            }
            check_scene(s[0]);
        }
        CHECK_EQ_U(sgrt_scene_update_parallel(s[0], &exe), sgrt_scene_update(s[1]));
        /* Each group's writer ran before the next group's: a later group
         * over the same joints replaces a non-finite local, so the count is
         * at most the one written. */
        CHECK(sgrt_scene_nonfinite_locals(s[0], NULL) <= repaired);
        CHECK_EQ_U(sgrt_scene_nonfinite_locals(s[1], NULL), 0);
        uint32_t n0, n1, diff = 0;
        const float *w0 = sgrt_scene_world_array(s[0], &n0), *w1 = sgrt_scene_world_array(s[1], &n1);
        const float *p0 = sgrt_scene_prev_world_array(s[0], NULL);
        const float *p1 = sgrt_scene_prev_world_array(s[1], NULL);
        CHECK_EQ_U(n0, n1);
        diff += memcmp(w0, w1, (size_t)n0 * 64) != 0;
        diff += memcmp(p0, p1, (size_t)n0 * 64) != 0;
        CHECK_EQ_U(diff, 0);
        sgrt_range ra[64], rb[64];
        bool more_a = true, more_b = true;
        while (more_a || more_b) {
            const uint32_t na = test_collect(s[0], t[0], ra, 64, 0, &more_a);
            const uint32_t nb = test_collect(s[1], t[1], rb, 64, 0, &more_b);
            CHECK_EQ_U(na, nb);
            CHECK(na == nb && memcmp(ra, rb, na * sizeof ra[0]) == 0);
            if (na != nb)
                break;
        }
        check_scene(s[0]);
    }
    test_exec_stop(&ex);
    sgrt_scene_destroy(s[0]);
    sgrt_scene_destroy(s[1]);
}

int main(void)
{
    word_marks();
    parallel_writers();
    /* Bare scenes, and scenes with every kept state. */
    static const uint32_t options[] = {
        0, SGRT_SCENE_PREV_WORLD | SGRT_SCENE_SUBTREE_BOUNDS | SGRT_SCENE_BOUNDS};
    for (size_t o = 0; o < sizeof options / sizeof options[0]; o++) {
        scene_flags = options[o];
        for (uint64_t seed = 1; seed <= 3; seed++)
            for (int how = 0; how < HOW_COUNT; how++)
                run(seed, how);
    }
    scene_flags = 0;
    refusals();
    return test_report("writer");
}
