/* SPDX-License-Identifier: MIT */
/* The pointers sgrt.h lets a program hold, against sgrt_scene_storage_version:
 * the world array, the previous worlds, the world box arrays, node set words
 * and the locals of sgrt_writer_begin. Each is held across every operation
 * that can move one (create with and without growth, destroy with and
 * without hole reclamation, re-parenting with and without relocation and
 * growth, compaction, reserve, set operations, culls, object creation and
 * destruction, updates, writes, and growth that fails part-way), and the
 * version must change exactly when one of them changed. While it has not
 * changed, what the held pointers show must be current: the members of a
 * node set read through its held words are its members now (hole
 * reclamation used to swap a set's words with its spare array without
 * changing the version, and a held pointer read none of them). */
#include "internal.h" /* white-box: eager hole reclamation */
#include "scene.h"
#include "testutil.h"

typedef struct held {
    uint64_t version;
    const float *world, *prev;
    sgrt_bounds_arrays boxes;
    const uint32_t *words[2];
    float *locals;
} held;

typedef struct world {
    test_alloc ta;
    sgrt_scene *s;
    sgrt_nodeset set[2];
    sgrt_writer w;
    sgrt_tracker t;
    sgrt_node keeper; /* the writer's node: never destroyed or re-parented */
    sgrt_node n[4096];
    uint32_t count;
    uint32_t moves, stays; /* operations that moved a pointer, and that did not */
} world;

static void take(world *wd, held *h)
{
    sgrt_scene *s = wd->s;
    h->version = sgrt_scene_storage_version(s);
    h->world = sgrt_scene_world_array(s, NULL);
    h->prev = sgrt_scene_prev_world_array(s, NULL);
    OK(sgrt_scene_bounds_arrays(s, &h->boxes));
    for (int k = 0; k < 2; k++)
        h->words[k] = sgrt_nodeset_words(s, wd->set[k], NULL);
    const uint32_t *slots = NULL;
    h->locals = NULL;
    OK(sgrt_writer_begin(s, wd->w, &h->locals, &slots));
}

static bool same(const held *a, const held *b)
{
    bool eq = a->world == b->world && a->prev == b->prev && a->locals == b->locals &&
              a->boxes.valid == b->boxes.valid;
    for (int k = 0; k < 3; k++)
        eq = eq && a->boxes.min[k] == b->boxes.min[k] && a->boxes.max[k] == b->boxes.max[k];
    for (int k = 0; k < 2; k++)
        eq = eq && a->words[k] == b->words[k];
    return eq;
}

/* What the held words of set k show: its members now, counted. */
static void check_words(world *wd, const held *h, const char *what)
{
    uint32_t nw = 0;
    (void)sgrt_nodeset_words(wd->s, wd->set[0], &nw);
    for (int k = 0; k < 2; k++) {
        uint32_t members = 0;
        for (uint32_t w = 0; w < nw; w++)
            members += sgrt__popcount32(h->words[k][w]);
        CHECK_MSG(members == sgrt_nodeset_count(wd->s, wd->set[k]),
                  "%s: set %d's held words show %u members, the set has %u", what, k,
                  (unsigned)members, (unsigned)sgrt_nodeset_count(wd->s, wd->set[k]));
    }
}

/* After an operation: the version changed exactly when a pointer did; when
 * neither did, the held pointers read current data. `expect`: 1 the
 * operation must move the pointers, 0 it must not, -1 either. */
static void after(world *wd, held *h, const char *what, int expect)
{
    held now;
    take(wd, &now);
    const bool moved = !same(h, &now), changed = now.version != h->version;
    CHECK_MSG(moved == changed, "%s: pointers %s, storage version %s (%llu -> %llu)", what,
              moved ? "moved" : "stayed", changed ? "changed" : "stayed",
              (unsigned long long)h->version, (unsigned long long)now.version);
    if (expect >= 0)
        CHECK_MSG(moved == (expect == 1), "%s: pointers %s, expected them to %s", what,
                  moved ? "moved" : "stayed", expect ? "move" : "stay");
    if (!moved)
        check_words(wd, h, what);
    wd->moves += moved;
    wd->stays += !moved;
    *h = now;
}

static void world_make(world *wd, uint32_t count)
{
    memset(wd, 0, sizeof *wd);
    const sgrt_allocator al = test_alloc_hooks(&wd->ta);
    const sgrt_scene_desc d = {.allocator = &al,
                               .flags = SGRT_SCENE_PREV_WORLD | SGRT_SCENE_SUBTREE_BOUNDS};
    wd->s = new_scene_desc(&d);
    OK(sgrt_nodeset_create(wd->s, &wd->set[0]));
    OK(sgrt_node_create(wd->s, SGRT_NULL_NODE, &wd->keeper));
    for (uint32_t i = 0; i < count; i++)
        OK(sgrt_node_create(wd->s, i ? wd->n[(i - 1) / 4] : SGRT_NULL_NODE, &wd->n[i]));
    wd->count = count;
    OK(sgrt_nodeset_create(wd->s, &wd->set[1]));
    OK(sgrt_writer_create(wd->s, 1, &wd->keeper, 0, &wd->w));
    OK(sgrt_tracker_create(wd->s, &wd->t));
    for (uint32_t i = 0; i < count; i += 3)
        OK(sgrt_nodeset_add(wd->s, wd->set[i % 2], wd->n[i]));
    (void)sgrt_scene_update(wd->s);
}

/* The reproducer, then every operation once with its expected
 * outcome. */
static void test_each_operation(void)
{
    world *wd = calloc(1, sizeof *wd);
    REQUIRE(wd);
    world_make(wd, 40);
    sgrt_scene *s = wd->s;
    held h;
    take(wd, &h);

    /* Hole reclamation, run by a destroy, moves nodes down in place: the
     * set's words are remapped where they are. */
    sgrt_node leaves[20];
    for (int i = 0; i < 20; i++)
        OK(sgrt_node_create(s, wd->n[0], &leaves[i]));
    after(wd, &h, "create (room in the block)", 0);
    for (int i = 0; i < 20; i++)
        OK(sgrt_nodeset_add(s, wd->set[0], leaves[i]));
    after(wd, &h, "sgrt_nodeset_add", 0);
    sgrt__scene_set_hole_slack(s, 0);
    const uint32_t reclaims = s->reclaims;
    for (int i = 1; i < 40 && s->reclaims == reclaims; i++)
        if (sgrt_node_alive(s, wd->n[i]))
            OK(sgrt_node_destroy(s, wd->n[i]));
    CHECK(s->reclaims > reclaims);
    after(wd, &h, "destroy with hole reclamation", 0);
    CHECK(sgrt_nodeset_count(s, wd->set[0]) >= 20u);

    /* Growth: every pointer moves (the sets' words with the block). */
    uint32_t cap_nodes = 0;
    while (s->st.cap > s->slot_end + 1u) {
        sgrt_node x;
        OK(sgrt_node_create(s, SGRT_NULL_NODE, &x));
        cap_nodes++;
    }
    after(wd, &h, "create up to the capacity", 0);
    sgrt_node grow;
    OK(sgrt_node_create(s, SGRT_NULL_NODE, &grow));
    OK(sgrt_node_create(s, grow, &grow));
    after(wd, &h, "create with growth", 1);

    /* Re-parenting: in place, relocating into room, relocating with
     * growth. */
    OK(sgrt_node_set_parent(s, grow, SGRT_NULL_NODE, SGRT_KEEP_LOCAL));
    after(wd, &h, "re-parent without relocation", 0);
    sgrt_node late;
    OK(sgrt_node_create(s, SGRT_NULL_NODE, &late));
    OK(sgrt_node_set_parent(s, wd->n[0], late, SGRT_KEEP_WORLD));
    after(wd, &h, "relocating re-parent", -1);
    while (s->st.cap > s->slot_end + 1u) {
        sgrt_node x;
        OK(sgrt_node_create(s, SGRT_NULL_NODE, &x));
    }
    after(wd, &h, "create up to the capacity", 0);
    OK(sgrt_node_create(s, SGRT_NULL_NODE, &late));
    OK(sgrt_node_set_parent(s, wd->n[0], late, SGRT_KEEP_LOCAL));
    after(wd, &h, "relocating re-parent with growth", 1);

    /* Reserve, compaction. */
    OK(sgrt_scene_reserve(s, 10));
    after(wd, &h, "reserve within the capacity", 0);
    OK(sgrt_scene_reserve(s, s->st.cap * 4u));
    after(wd, &h, "reserve past the capacity", 1);
    OK(sgrt_scene_compact(s));
    after(wd, &h, "compact", 1);

    /* Set operations, culls, objects, updates, writes: nothing moves. */
    OK(sgrt_nodeset_combine(s, wd->set[1], wd->set[0], SGRT_SET_OR, wd->set[1]));
    after(wd, &h, "sgrt_nodeset_combine", 0);
    OK(sgrt_nodeset_from_changes(s, wd->set[0], wd->t, SGRT_SET_AND, wd->set[1], true));
    after(wd, &h, "sgrt_nodeset_from_changes", 0);
    const float c[3] = {0, 0, 0}, e[3] = {1, 1, 1};
    OK(sgrt_node_set_bounds(s, late, c, e));
    (void)sgrt_scene_update(s);
    after(wd, &h, "update", 0);
    static const float cube[6][4] = {{1, 0, 0, 5}, {-1, 0, 0, 5}, {0, 1, 0, 5},
                                     {0, -1, 0, 5}, {0, 0, 1, 5}, {0, 0, -1, 5}};
    OK(sgrt_scene_cull(s, cube[0], 6, SGRT_NULL_NODESET, wd->set[1], NULL));
    after(wd, &h, "sgrt_scene_cull", 0);
    OK(sgrt_nodeset_remove(s, wd->set[1], late));
    OK(sgrt_nodeset_clear(s, wd->set[0]));
    after(wd, &h, "sgrt_nodeset_remove, sgrt_nodeset_clear", 0);
    sgrt_nodeset extra;
    sgrt_tracker t2;
    OK(sgrt_nodeset_create(s, &extra));
    OK(sgrt_tracker_create(s, &t2));
    OK(sgrt_nodeset_destroy(s, extra));
    OK(sgrt_tracker_destroy(s, t2));
    after(wd, &h, "objects created and destroyed", 0);
    float m[16];
    translation(1, 2, 3, m);
    OK(sgrt_node_set_local(s, late, m));
    OK(sgrt_writer_commit(s, wd->w, 0, 1));
    (void)sgrt_scene_update(s);
    after(wd, &h, "writes and an update", 0);
    end_scene_alloc(s, &wd->ta);
    free(wd);
}

/* Growth that fails after the first node set's words moved (their new block
 * allocated, the second set's refused): the call fails, and the version says
 * the first set's pointer is stale. */
static void test_failed_growth(void)
{
    int seen_partial = 0;
    for (uint64_t fail = 1; fail < 12; fail++) {
        world *wd = calloc(1, sizeof *wd);
        REQUIRE(wd);
        world_make(wd, 8);
        sgrt_scene *s = wd->s;
        while (s->st.cap > s->slot_end)
            OK(sgrt_node_create(s, SGRT_NULL_NODE, &wd->n[0]));
        held h;
        take(wd, &h);
        wd->ta.fail_at = wd->ta.calls + fail;
        const sgrt_result r = sgrt_node_create(s, SGRT_NULL_NODE, &wd->n[1]);
        wd->ta.fail_at = 0;
        CHECK(r == SGRT_OK || r == SGRT_ERR_NOMEM);
        held now;
        take(wd, &now);
        seen_partial += r != SGRT_OK && now.words[0] != h.words[0];
        after(wd, &h, r == SGRT_OK ? "growth" : "growth that failed", r == SGRT_OK ? 1 : -1);
        end_scene_alloc(s, &wd->ta);
        free(wd);
    }
    CHECK(seen_partial > 0); /* the case the version must cover was reached */
}

/* Random operations, each checked. */
static void test_random(uint64_t seed, int steps)
{
    rng r = {seed};
    world *wd = calloc(1, sizeof *wd);
    REQUIRE(wd);
    world_make(wd, 64);
    sgrt_scene *s = wd->s;
    if (rng_below(&r, 2))
        sgrt__scene_set_hole_slack(s, rng_below(&r, 64));
    held h;
    take(wd, &h);
    for (int step = 0; step < steps; step++) {
        const uint32_t op = rng_below(&r, 10);
        sgrt_node *live = wd->n;
        uint32_t nl = 0;
        for (uint32_t i = 0; i < wd->count; i++)
            if (sgrt_node_alive(s, wd->n[i]))
                live[nl++] = wd->n[i];
        wd->count = nl;
        const sgrt_node any = nl ? live[rng_below(&r, nl)] : SGRT_NULL_NODE;
        if ((op < 4 || nl < 8) && wd->count < 4000u) {
            for (uint32_t k = rng_below(&r, 40); k-- > 0 && wd->count < 4000u;)
                OK(sgrt_node_create(s, rng_below(&r, 4) ? any : SGRT_NULL_NODE,
                                    &wd->n[wd->count++]));
        } else if (op < 6) {
            OK(sgrt_node_destroy(s, any));
        } else if (op < 8) {
            const sgrt_node p = rng_below(&r, 5) ? live[rng_below(&r, nl)] : SGRT_NULL_NODE;
            const sgrt_result res = sgrt_node_set_parent(s, any, p, SGRT_KEEP_LOCAL);
            CHECK(res == SGRT_OK || res == SGRT_ERR_CYCLE);
        } else if (op == 8) {
            if (rng_below(&r, 2))
                OK(sgrt_scene_compact(s));
            else
                OK(sgrt_scene_reserve(s, s->node_count + rng_below(&r, 300)));
        } else {
            OK(sgrt_nodeset_add(s, wd->set[rng_below(&r, 2)], any));
            (void)sgrt_scene_update(s);
        }
        after(wd, &h, "a random operation", -1);
    }
    end_scene_alloc(s, &wd->ta);
    free(wd);
}

int main(int argc, char **argv)
{
    rng seed = {0x9071E75ull};
    rng_seed_from_args(&seed, argc, argv, "test_pointers");
    test_each_operation();
    test_failed_growth();
    for (int run = 0; run < 8; run++)
        test_random(rng_next(&seed), 400);
    return test_report("test_pointers");
}
