/* SPDX-License-Identifier: MIT */
/* Previous-frame worlds (SGRT_SCENE_PREV_WORLD), against a model that keeps
 * each node's world of the last update:
 *
 *  - after every update, each live node's entry of the previous-world array
 *    is, bit for bit, its world after the update before (followed through
 *    slot changes by its handle), or its new world if it was created since;
 *    between updates, the same (a new node: its world array entry);
 *  - the serial update and the parallel one (in-order and shuffled
 *    executors, several worker counts, and a pool of two threads) keep it
 *    bit for bit alike, with the same counts and tracker ranges;
 *  - a scene without the flag has no such array (NULL), keeps no memory for
 *    it, and otherwise behaves identically: same counts, same world arrays,
 *    same slots; its trackers report a subset of what the flagged scene's
 *    report, and that one reports at most what the other reported in this
 *    update or the one before;
 *  - a renderer that mirrors both arrays through one tracker, uploading the
 *    collected ranges of each, stays exact on every live slot;
 *  - compaction, relocation and growth (between a frame that moved nodes
 *    and the next) carry a node's previous world;
 *  - updates with the flag never allocate, and sgrt_scene_check notices a
 *    previous world that is out of step. */
#include "internal.h" /* white-box: the storage block and the checker's case */
#include "followers/prev.h"
#include "scene.h"
#include "storage.h"
#include "testutil.h"

static rng R = {0x9E3779B97F4A7C15ull};

/* ---- a renderer's mirror of both arrays, fed by one tracker ---------------- */

typedef struct mirror {
    sgrt_tracker t;
    float *w, *p;
    uint8_t *got; /* slots reported by the last collect */
    uint32_t cap;
} mirror;

static void mirror_collect(sgrt_scene *s, mirror *m)
{
    uint32_t slots = 0;
    const float *w = sgrt_scene_world_array(s, &slots);
    const float *p = sgrt_scene_prev_world_array(s, NULL);
    if (slots > m->cap) {
        m->w = realloc(m->w, (size_t)slots * 64u);
        m->p = realloc(m->p, (size_t)slots * 64u);
        m->got = realloc(m->got, slots);
        if (!m->w || !m->p || !m->got) {
            fprintf(stderr, "out of memory\n");
            exit(1);
        }
        m->cap = slots;
    }
    memset(m->got, 0, m->cap);
    sgrt_range r[16];
    bool more;
    do {
        const uint32_t n = test_collect(s, m->t, r, 16, 0, &more);
        for (uint32_t i = 0; i < n; i++) {
            CHECK(r[i].first + r[i].count <= slots);
            memcpy(m->w + 16u * r[i].first, w + 16u * r[i].first, r[i].count * 64u);
            if (p)
                memcpy(m->p + 16u * r[i].first, p + 16u * r[i].first, r[i].count * 64u);
            memset(m->got + r[i].first, 1, r[i].count);
        }
    } while (more);
}

/* The mirror holds both arrays on every live slot. */
static void mirror_verify(const sgrt_scene *s, const mirror *m, const char *what)
{
    uint32_t slots = 0, bad_w = 0, bad_p = 0;
    const float *w = sgrt_scene_world_array(s, &slots);
    const float *p = sgrt_scene_prev_world_array(s, NULL);
    for (uint32_t sl = 0; sl < slots; sl++) {
        if (!sgrt_scene_slot_node(s, sl).id)
            continue;
        bad_w += memcmp(m->w + 16u * sl, w + 16u * sl, 64) != 0;
        bad_p += p && memcmp(m->p + 16u * sl, p + 16u * sl, 64) != 0;
    }
    CHECK_MSG(bad_w == 0 && bad_p == 0,
              "%s: the mirror fed by the tracker misses %u world and %u previous-world slots",
              what, bad_w, bad_p);
}

/* ---- three scenes changed alike, and the model ----------------------------- */

enum { MAXN = 9000, SCENES = 3 };

/* 0: flag, serial update; 1: flag, parallel update; 2: no flag, serial. */
typedef struct trio {
    sgrt_scene *s[SCENES];
    mirror m[SCENES];
    sgrt_node h[SCENES][MAXN];
    uint32_t n; /* handles ever created */
    /* the model, per handle index: its world after the last update (valid
     * when it existed then), and its previous world then */
    bool existed[MAXN];
    float last_world[MAXN][16], last_prev[MAXN][16];
    uint8_t *off_before; /* slots the flagless scene's tracker reported one update ago */
    uint32_t off_before_cap;
} trio;

static test_alloc alloc_par;
/* Reclaim holes as soon as they outnumber live nodes: in-place moves of
 * every live node carry previous worlds too. */
static bool eager_reclaim;

static void trio_open(trio *t, uint32_t initial_capacity)
{
    memset(t, 0, sizeof *t);
    sgrt_scene_desc d;
    memset(&d, 0, sizeof d);
    d.initial_capacity = initial_capacity;
    d.flags = SGRT_SCENE_PREV_WORLD;
    t->s[0] = new_scene_desc(&d);
    memset(&alloc_par, 0, sizeof alloc_par);
    const sgrt_allocator al = test_alloc_hooks(&alloc_par);
    d.allocator = &al;
    t->s[1] = new_scene_desc(&d);
    d.allocator = NULL;
    d.flags = 0;
    t->s[2] = new_scene_desc(&d);
    for (int k = 0; k < SCENES; k++) {
        OK(sgrt_tracker_create(t->s[k], &t->m[k].t));
        if (eager_reclaim)
            sgrt__scene_set_hole_slack(t->s[k], 0);
    }
}

static void trio_close(trio *t)
{
    for (int k = 0; k < SCENES; k++) {
        free(t->m[k].w);
        free(t->m[k].p);
        free(t->m[k].got);
    }
    free(t->off_before);
    sgrt_scene_destroy(t->s[0]);
    end_scene_alloc(t->s[1], &alloc_par);
    sgrt_scene_destroy(t->s[2]);
}

static bool alive(const trio *t, uint32_t i) { return sgrt_node_alive(t->s[0], t->h[0][i]); }

static void create(trio *t, uint32_t parent)
{
    if (t->n >= MAXN || (parent != UINT32_MAX && !alive(t, parent)))
        return;
    for (int k = 0; k < SCENES; k++)
        OK(sgrt_node_create(t->s[k], parent == UINT32_MAX ? SGRT_NULL_NODE : t->h[k][parent],
                            &t->h[k][t->n]));
    t->existed[t->n] = false;
    t->n++;
}

/* One node moved, by one of the writers (the same one in every scene). */
static void move_one(trio *t, uint32_t i)
{
    float m[16];
    random_affine(&R, m);
    const uint32_t how = rng_below(&R, 4);
    sgrt_result r0 = SGRT_OK;
    for (int k = 0; k < SCENES; k++) {
        sgrt_result r;
        if (how == 0) {
            r = sgrt_node_set_local(t->s[k], t->h[k][i], m);
        } else if (how == 1) {
            const float tr[3] = {m[12], m[13], m[14]}, sc[3] = {1.0f, 2.0f, 0.5f};
            const float q[4] = {0.0f, 0.6f, 0.0f, 0.8f};
            r = sgrt_node_set_trs(t->s[k], t->h[k][i], tr, q, sc);
        } else if (how == 2) {
            r = sgrt_nodes_set_local(t->s[k], 1, &t->h[k][i], m, NULL);
        } else {
            r = sgrt_node_set_world(t->s[k], t->h[k][i], m);
        }
        if (k == 0)
            r0 = r;
        CHECK_RES(r, r0);
    }
}

static void restructure(trio *t)
{
    const uint32_t i = pick_live(t->s[0], t->h[0], t->n, &R);
    const uint32_t j = pick_live(t->s[0], t->h[0], t->n, &R);
    if (i == UINT32_MAX)
        return;
    switch (rng_below(&R, 5)) {
    case 0:
        create(t, rng_below(&R, 6) ? i : UINT32_MAX);
        break;
    case 1:
        if (sgrt_scene_node_count(t->s[0]) > 400)
            for (int k = 0; k < SCENES; k++)
                OK(sgrt_node_destroy(t->s[k], t->h[k][i]));
        break;
    default: {
        const sgrt_keep keep = rng_below(&R, 2) ? SGRT_KEEP_LOCAL : SGRT_KEEP_WORLD;
        const bool to_root = j == UINT32_MAX || rng_below(&R, 8) == 0;
        sgrt_result r0 = SGRT_OK;
        for (int k = 0; k < SCENES; k++) {
            const sgrt_result r = sgrt_node_set_parent(
                t->s[k], t->h[k][i], to_root ? SGRT_NULL_NODE : t->h[k][j], keep);
            if (k == 0)
                r0 = r;
            CHECK_RES(r, r0);
        }
        break;
    }
    }
}

static const float *entry(const float *array, const sgrt_scene *s, sgrt_node n)
{
    uint32_t slot = 0;
    OK(sgrt_node_slot(s, n, &slot));
    return array + 16u * slot;
}

/* Between updates: every node's previous world is what it was after the
 * update (carried through slot changes); a new node shows its world entry. */
static void verify_between(trio *t, const char *what)
{
    uint32_t bad = 0;
    for (int k = 0; k < 2; k++) {
        const float *w = sgrt_scene_world_array(t->s[k], NULL);
        const float *p = sgrt_scene_prev_world_array(t->s[k], NULL);
        for (uint32_t i = 0; i < t->n; i++) {
            if (!sgrt_node_alive(t->s[k], t->h[k][i]))
                continue;
            const float *want = t->existed[i] ? t->last_prev[i] : entry(w, t->s[k], t->h[k][i]);
            bad += memcmp(entry(p, t->s[k], t->h[k][i]), want, 64) != 0;
        }
    }
    CHECK_MSG(bad == 0, "%s: %u previous worlds changed between updates", what, bad);
}

/* Update all three and compare them with each other and with the model. */
static void update_all(trio *t, const sgrt_executor *ex, const char *what)
{
    verify_between(t, what);
    const uint64_t calls = alloc_par.calls;
    const uint32_t c0 = sgrt_scene_update(t->s[0]);
    const uint32_t c1 = sgrt_scene_update_parallel(t->s[1], ex);
    const uint32_t c2 = sgrt_scene_update(t->s[2]);
    CHECK_EQ_U(alloc_par.calls, calls); /* never allocates */
    CHECK_MSG(c0 == c1 && c0 == c2, "%s: recomputed %u (serial), %u (parallel), %u (no flag)",
              what, c0, c1, c2);

    uint32_t slots[SCENES];
    const float *w[SCENES], *p[SCENES];
    for (int k = 0; k < SCENES; k++) {
        w[k] = sgrt_scene_world_array(t->s[k], &slots[k]);
        uint32_t pslots = 1;
        p[k] = sgrt_scene_prev_world_array(t->s[k], &pslots);
        CHECK((p[k] != NULL) == (k < 2));
        CHECK_EQ_U(pslots, k < 2 ? slots[k] : 0u);
    }
    CHECK(slots[0] == slots[1] && slots[0] == slots[2]);
    uint32_t diff_w = 0, diff_p = 0, diff_slot = 0;
    for (uint32_t i = 0; i < t->n; i++) {
        if (!alive(t, i))
            continue;
        uint32_t sl[SCENES];
        for (int k = 0; k < SCENES; k++)
            OK(sgrt_node_slot(t->s[k], t->h[k][i], &sl[k]));
        diff_slot += sl[0] != sl[1] || sl[0] != sl[2];
        diff_w += memcmp(w[0] + 16u * sl[0], w[1] + 16u * sl[1], 64) != 0 ||
                  memcmp(w[0] + 16u * sl[0], w[2] + 16u * sl[2], 64) != 0;
        diff_p += memcmp(p[0] + 16u * sl[0], p[1] + 16u * sl[1], 64) != 0;
    }
    CHECK_MSG(diff_slot == 0 && diff_w == 0 && diff_p == 0,
              "%s: %u slots, %u worlds, %u previous worlds differ between the scenes", what,
              diff_slot, diff_w, diff_p);

    /* The model: the world after the update before, or the first world. */
    uint32_t bad = 0;
    for (uint32_t i = 0; i < t->n; i++) {
        if (!alive(t, i)) {
            t->existed[i] = false;
            continue;
        }
        const float *now = entry(w[0], t->s[0], t->h[0][i]);
        const float *prev = entry(p[0], t->s[0], t->h[0][i]);
        const float *want = t->existed[i] ? t->last_world[i] : now;
        if (memcmp(prev, want, 64) != 0 && bad++ < 3)
            fprintf(stderr, "%s: node %u (%s) previous world %g %g %g, expected %g %g %g\n", what,
                    (unsigned)i, t->existed[i] ? "old" : "new", (double)prev[12],
                    (double)prev[13], (double)prev[14], (double)want[12], (double)want[13],
                    (double)want[14]);
        memcpy(t->last_world[i], now, 64);
        memcpy(t->last_prev[i], prev, 64);
        t->existed[i] = true;
    }
    CHECK_MSG(bad == 0, "%s: %u previous worlds differ from the model", what, bad);

    /* Trackers: mirrors of both arrays stay exact; serial and parallel
     * report alike; the flag adds only slots reported one update ago. */
    for (int k = 0; k < SCENES; k++) {
        mirror_collect(t->s[k], &t->m[k]);
        mirror_verify(t->s[k], &t->m[k], what);
    }
    uint32_t par_diff = 0, missing = 0, extra = 0;
    for (uint32_t sl = 0; sl < slots[0]; sl++) {
        const bool on = t->m[0].got[sl], off = t->m[2].got[sl];
        const bool before = sl < t->off_before_cap && t->off_before[sl];
        par_diff += on != t->m[1].got[sl];
        missing += off && !on;
        extra += on && !off && !before;
    }
    CHECK_MSG(par_diff == 0 && missing == 0 && extra == 0,
              "%s: tracker slots: %u differ between serial and parallel, %u reported without "
              "the flag only, %u with it beyond the last two updates' changes",
              what, par_diff, missing, extra);
    if (slots[0] > t->off_before_cap) {
        t->off_before = realloc(t->off_before, slots[0]);
        REQUIRE(t->off_before);
        t->off_before_cap = slots[0];
    }
    memset(t->off_before, 0, t->off_before_cap);
    memcpy(t->off_before, t->m[2].got, slots[0]);
    for (int k = 0; k < SCENES; k++)
        check_scene_where(t->s[k], what);
}

/* ---- random programs --------------------------------------------------------- */

static void build_tree(trio *t, uint32_t n)
{
    /* Depth-first, up to 4 children and depth 7; then a few level-order
     * stragglers, so that some parents lie in earlier parallel ranges. */
    uint32_t stack[16], kids[16], depth = 0;
    create(t, UINT32_MAX);
    stack[depth] = 0;
    kids[depth++] = 0;
    while (t->n < n * 9u / 10u && depth) {
        if (kids[depth - 1] == 4 || depth == 7) {
            depth--;
            continue;
        }
        kids[depth - 1]++;
        const uint32_t me = t->n;
        create(t, stack[depth - 1]);
        stack[depth] = me;
        kids[depth++] = 0;
    }
    while (t->n < n)
        create(t, rng_below(&R, t->n));
}

static void run_program(const sgrt_executor *ex, uint32_t nodes, uint32_t initial_capacity,
                        int frames)
{
    static trio t; /* large: off the stack */
    trio_open(&t, initial_capacity);
    char what[96];
    snprintf(what, sizeof what, "%u nodes, %u workers, build", (unsigned)nodes,
             (unsigned)ex->workers);
    build_tree(&t, nodes);
    update_all(&t, ex, what);
    for (int f = 0; f < frames; f++) {
        snprintf(what, sizeof what, "%u nodes, %u workers, frame %d", (unsigned)nodes,
                 (unsigned)ex->workers, f);
        const uint32_t live = sgrt_scene_node_count(t.s[0]);
        uint32_t moves = 0;
        switch (rng_below(&R, 6)) {
        case 0: moves = 0; break;           /* idle: last frame's movers catch up */
        case 1: moves = 1 + rng_below(&R, 5); break;
        case 2: moves = live / 100 + 1; break;
        case 3: moves = live; break;         /* everything (with repeats) */
        default: moves = live / 10; break;
        }
        for (uint32_t k = 0; k < moves; k++) {
            const uint32_t i = pick_live(t.s[0], t.h[0], t.n, &R);
            if (i != UINT32_MAX)
                move_one(&t, i);
        }
        if (rng_below(&R, 3) == 0)
            for (uint32_t k = rng_below(&R, 8); k > 0; k--)
                restructure(&t);
        if (rng_below(&R, 8) == 0)
            for (int k = 0; k < SCENES; k++)
                OK(sgrt_scene_compact(t.s[k]));
        if (rng_below(&R, 8) == 0 && t.s[0]->st.cap < 40000u) /* growth */
            for (int k = 0; k < SCENES; k++)
                OK(sgrt_scene_reserve(t.s[k], t.s[k]->st.cap + 1u));
        update_all(&t, ex, what);
    }
    trio_close(&t);
}

/* ---- directed cases ------------------------------------------------------------ */

static sgrt_scene *prev_scene(void)
{
    sgrt_scene_desc d;
    memset(&d, 0, sizeof d);
    d.flags = SGRT_SCENE_PREV_WORLD;
    return new_scene_desc(&d);
}

static void prev_t(const sgrt_scene *s, sgrt_node n, float out[3])
{
    const float *p = sgrt_scene_prev_world_array(s, NULL);
    REQUIRE(p != NULL);
    const float *e = entry(p, s, n);
    memcpy(out, e + 12, 3 * sizeof(float));
}

#define CHECK_T(s, n, x, y, z)                                                         \
    do {                                                                               \
        float t_[3];                                                                   \
        prev_t((s), (n), t_);                                                          \
        CHECK_MSG(t_[0] == (x) && t_[1] == (y) && t_[2] == (z),                        \
                  "previous translation %g %g %g, expected %g %g %g", (double)t_[0],  \
                  (double)t_[1], (double)t_[2], (double)(x), (double)(y), (double)(z)); \
    } while (0)

/* A new node's previous world is its first world (not its parent's); a
 * node that stops moving catches up one update later; compaction and
 * relocation carry the previous world to the new slot. */
static void test_directed(void)
{
    sgrt_scene *s = prev_scene();
    sgrt_node ship, parrot, other;
    float m[16];
    OK(sgrt_node_create(s, SGRT_NULL_NODE, &ship));
    translation(5, 0, 0, m);
    OK(sgrt_node_set_local(s, ship, m));
    sgrt_scene_update(s);
    OK(sgrt_node_create(s, ship, &parrot));
    translation(1, 2, 0, m);
    OK(sgrt_node_set_local(s, parrot, m));
    CHECK_T(s, parrot, 5, 0, 0); /* before its first update: its world entry */
    CHECK_EQ_U(sgrt_scene_update(s), 1);
    CHECK_T(s, parrot, 6, 2, 0); /* its first world: no motion on the first frame */
    CHECK_T(s, ship, 5, 0, 0);

    translation(7, 0, 0, m); /* the ship sails */
    OK(sgrt_node_set_local(s, ship, m));
    CHECK_EQ_U(sgrt_scene_update(s), 2);
    CHECK_T(s, ship, 5, 0, 0);
    CHECK_T(s, parrot, 6, 2, 0);
    CHECK_EQ_U(sgrt_scene_update(s), 0); /* it stopped: the previous world catches up */
    CHECK_T(s, ship, 7, 0, 0);
    CHECK_T(s, parrot, 8, 2, 0);

    /* Compaction between a moving frame and an idle one: the node changes
     * slot, keeps its previous world, and catches up after. */
    OK(sgrt_node_create(s, SGRT_NULL_NODE, &other));
    OK(sgrt_node_set_parent(s, parrot, other, SGRT_KEEP_LOCAL)); /* relocates: other is later */
    translation(9, 0, 0, m);
    OK(sgrt_node_set_local(s, other, m));
    uint32_t before = 0, after = 0;
    OK(sgrt_node_slot(s, parrot, &before));
    CHECK_T(s, parrot, 8, 2, 0); /* carried by the relocation */
    sgrt_scene_update(s);
    CHECK_T(s, parrot, 8, 2, 0);
    CHECK_T(s, other, 9, 0, 0); /* created since the update before */
    OK(sgrt_node_destroy(s, ship)); /* a hole, so that compaction moves the others */
    OK(sgrt_scene_compact(s));
    OK(sgrt_node_slot(s, parrot, &after));
    CHECK(after != before);
    CHECK_T(s, parrot, 8, 2, 0);
    CHECK_EQ_U(sgrt_scene_update(s), 0);
    CHECK_T(s, parrot, 10, 2, 0);
    check_scene(s);

    /* The checker notices a previous world out of step. */
    uint32_t slot = 0;
    OK(sgrt_node_slot(s, parrot, &slot));
    sgrt__prev_of(s)->world[slot][13] += 1.0f;
    const char *why = NULL;
    CHECK_RES(sgrt_scene_check(s, &why), SGRT_ERR_CORRUPT);
    CHECK(why && strstr(why, "previous worlds"));
    sgrt__prev_of(s)->world[slot][13] -= 1.0f;
    check_scene(s);
    sgrt_scene_destroy(s);
}

/* Without the flag: no array, no memory for one; NULL scene too. */
static void test_off(void)
{
    uint32_t count = 7;
    CHECK(sgrt_scene_prev_world_array(NULL, &count) == NULL);
    CHECK_EQ_U(count, 0);
    CHECK(sgrt_scene_prev_world_array(NULL, NULL) == NULL);
    sgrt_scene *off = new_scene(), *on = prev_scene();
    sgrt_node n;
    OK(sgrt_node_create(off, SGRT_NULL_NODE, &n));
    OK(sgrt_node_create(on, SGRT_NULL_NODE, &n));
    sgrt_scene_update(off);
    sgrt_scene_update(on);
    count = 7;
    CHECK(sgrt_scene_prev_world_array(off, &count) == NULL);
    CHECK_EQ_U(count, 0);
    CHECK(sgrt_scene_prev_world_array(on, &count) != NULL);
    CHECK_EQ_U(count, 1);
    CHECK(sgrt__prev_of(off) == NULL && sgrt__prev_of(on) != NULL && sgrt__prev_of(on)->world &&
          sgrt__prev_of(on)->moved && sgrt__prev_of(on)->fresh);
    /* The core's arrays and the few bits per slot of the followers every
     * scene has (skins), far from a previous world per slot. */
    CHECK(off->st.size >= sgrt__storage_bytes(off->st.cap) &&
          off->st.size < sgrt__storage_bytes(off->st.cap) + 8u * (size_t)off->st.cap);
    CHECK(on->st.cap == off->st.cap &&
          on->st.size >= off->st.size + 64u * (size_t)on->st.cap + on->st.cap / 4u);
    sgrt_scene_destroy(off);
    sgrt_scene_destroy(on);
}

/* Hole reclamation moves live nodes down in place, inside a destroy or a
 * relocating re-parent: each node's previous world, its "recomputed by the
 * last update" state and its "new since the update" state go with it. */
static void test_reclaim(void)
{
    enum { N = 64 };
    sgrt_scene *s = prev_scene();
    sgrt__scene_set_hole_slack(s, 0);
    sgrt_node n[N];
    float m[16];
    for (uint32_t i = 0; i < N; i++) {
        OK(sgrt_node_create(s, SGRT_NULL_NODE, &n[i]));
        translation((float)i, 0, 0, m);
        OK(sgrt_node_set_local(s, n[i], m));
    }
    sgrt_scene_update(s);
    /* Frame 2: the odd nodes move; frame 3: nodes 40..63 move again. */
    for (uint32_t i = 1; i < N; i += 2) {
        translation((float)i, 1, 0, m);
        OK(sgrt_node_set_local(s, n[i], m));
    }
    sgrt_scene_update(s);
    for (uint32_t i = 40; i < N; i++) {
        translation((float)i, 2, 0, m);
        OK(sgrt_node_set_local(s, n[i], m));
    }
    sgrt_scene_update(s);
    sgrt_node fresh;
    OK(sgrt_node_create(s, n[N - 1], &fresh)); /* new since the update */
    /* Destroying the first 33 leaves 33 holes before 32 live nodes: the
     * last destroy reclaims. The holes lie below nodes that stay, so only
     * a reclamation packs the slots. */
    for (uint32_t i = 0; i < 32; i++)
        OK(sgrt_node_destroy(s, n[i]));
    CHECK(!slots_packed(s));
    OK(sgrt_node_destroy(s, n[32]));
    CHECK(slots_packed(s));
    check_scene(s);
    /* Previous worlds by node: 40..63 moved in frame 3 (prev: y = 1 for odd,
     * 0 for even); 33..39 did not (prev caught up: y = 1 odd, 0 even). */
    for (uint32_t i = 33; i < N; i++)
        CHECK_T(s, n[i], (float)i, (float)(i % 2), 0);
    /* One more update: every node stopped, so prev catches up with world;
     * the new node's prev is its first world. */
    sgrt_scene_update(s);
    for (uint32_t i = 33; i < N; i++)
        CHECK_T(s, n[i], (float)i, i >= 40 ? 2.0f : (float)(i % 2), 0);
    CHECK_T(s, fresh, (float)(N - 1), 2, 0);
    sgrt_scene_update(s);
    for (uint32_t i = 33; i < N; i++)
        CHECK_T(s, n[i], (float)i, i >= 40 ? 2.0f : (float)(i % 2), 0);
    check_scene(s);
    sgrt_scene_destroy(s);
}

int main(int argc, char **argv)
{
    rng_seed_from_args(&R, argc, argv, "prev");
    test_off();
    test_directed();
    test_reclaim();
    static const uint32_t workers[] = {2, 3, 4, 7};
    for (int mode = TEST_EXEC_IN_ORDER; mode <= TEST_EXEC_THREADS; mode++)
        for (size_t w = 0; w < sizeof workers / sizeof workers[0]; w++) {
            if (mode == TEST_EXEC_THREADS && w > 1)
                break; /* threads: for ThreadSanitizer, two runs suffice */
            test_exec e;
            if (!test_exec_start(&e, (test_exec_mode)mode, R.s ^ w, 2)) {
                FAIL("cannot start a thread pool");
                continue;
            }
            const sgrt_executor ex = test_exec_executor(&e, workers[w]);
            eager_reclaim = w % 2 == 1;
            run_program(&ex, 3000u + 500u * (uint32_t)w, w % 2 ? 16u : 0u, 30);
            CHECK(e.runs > 0);
            CHECK(e.most_tasks <= TEST_EXEC_MAX_TASKS);
            test_exec_stop(&e);
        }
    /* Small scenes: the parallel update falls back to the serial one. */
    test_exec e;
    test_exec_start(&e, TEST_EXEC_IN_ORDER, 1, 1);
    const sgrt_executor ex = test_exec_executor(&e, 4);
    run_program(&ex, 40, 8, 40);
    CHECK(e.most_tasks <= TEST_EXEC_MAX_TASKS);
    test_exec_stop(&e);
    return test_report("prev");
}
