/* SPDX-License-Identifier: MIT */
/* A follower's declared state is storage's to keep: a follower of this test
 * declares a data array, a link array and a bitfield (and one array for a
 * flag the scene lacks), writes them when a node is created, and nothing
 * else; storage alone must carry them through growth, relocation (re-parent),
 * hole reclamation and compaction, each value with its node, links
 * remapped, summaries exact. */
#include "internal.h" /* white-box: the follower seam */
#include "follow.h"
#include "handles.h"
#include "scene.h"
#include "testutil.h"

static rng R = {0x51ED270B27A1F0C3ull};

typedef struct probe {
    uint64_t *tag;    /* the node's handle id, written at creation */
    uint32_t *self;   /* the node's own slot: a link, remapped when it moves */
    uint32_t *odd, *odd_sum; /* set iff the handle id is odd */
    float *unused;    /* declared for SGRT_SCENE_PREV_WORLD only */
    uint32_t created; /* scene-level state: nodes created */
} probe;

static const sgrt__slot_decl probe_decls[] = {
    SGRT__DECL_ARRAY(probe, tag, uint64_t, false, 0u),
    SGRT__DECL_LINKS(probe, self, 0u),
    SGRT__DECL_BITFIELD(probe, odd, 0u),
    SGRT__DECL_ARRAY(probe, unused, float, true, SGRT_SCENE_PREV_WORLD),
};

/* SGRT__SCALAR_WIDTH: each type it knows is made of scalars of the width
 * it gives (what a snapshot's byte order rests on). */
_Static_assert(SGRT__SCALAR_WIDTH(sgrt__mat4) == sizeof(float) && sizeof(float) == 4u,
               "a matrix is floats");
typedef double dvec3[3];
_Static_assert(SGRT__SCALAR_WIDTH(dvec3) == sizeof(double) && sizeof(double) == 8u,
               "an anchor is doubles");
_Static_assert(SGRT__SCALAR_WIDTH(uint64_t) == 8u && SGRT__SCALAR_WIDTH(int32_t) == 4u &&
                   SGRT__SCALAR_WIDTH(bool) == sizeof(bool) && SGRT__SCALAR_WIDTH(char) == 0u,
               "scalars are their own width; a type it does not know has none");

static const sgrt__follower probe_follower;

static void probe_created(sgrt_scene *s, uint32_t slot)
{
    probe *p = sgrt__follow_state(s, &probe_follower);
    const uint32_t id = sgrt__handle_of_slot(s, slot).id;
    p->tag[slot] = id;
    p->self[slot] = slot;
    if (id & 1u)
        sgrt__bit_set_sum(p->odd, p->odd_sum, slot);
    else
        sgrt__bit_clear_sum(p->odd, p->odd_sum, slot);
    p->created++;
}

static const sgrt__follower probe_follower = {
    .state_size = sizeof(probe),
    .slots = probe_decls,
    .slot_count = sizeof probe_decls / sizeof probe_decls[0],
    .created = probe_created,
};

/* followers.c's list with the probe after it. */
static const sgrt__follower *list[SGRT__FOLLOWERS + 1];

static sgrt_scene *probe_scene(uint32_t flags)
{
    uint32_t n = 0;
    while (sgrt__followers[n])
        list[n] = sgrt__followers[n], n++;
    list[n++] = &probe_follower;
    list[n] = NULL;
    sgrt_scene_desc d;
    memset(&d, 0, sizeof d);
    d.flags = flags;
    sgrt_scene *s = NULL;
    CHECK_RES(sgrt__scene_create_with(&d, list, &s), SGRT_OK);
    return s;
}

/* Every live node's declared values are its own. */
static void check_probe(sgrt_scene *s, const sgrt_node *nodes, uint32_t count, const char *when)
{
    const probe *p = sgrt__follow_state(s, &probe_follower);
    REQUIRE(p && p->tag && p->self && p->odd && p->odd_sum);
    uint32_t bad = 0;
    for (uint32_t i = 0; i < count; i++) {
        uint32_t slot = SGRT__NONE;
        if (sgrt_node_slot(s, nodes[i], &slot) != SGRT_OK)
            continue; /* destroyed */
        bad += p->tag[slot] != nodes[i].id;
        bad += p->self[slot] != slot;
        bad += sgrt__bit_get(p->odd, slot) != ((nodes[i].id & 1u) != 0u);
        bad += !sgrt__bit_get(p->odd_sum, slot >> 5);
    }
    if (bad)
        printf("test_follow: %s: %u values not with their node\n", when, bad);
    CHECK_EQ_U(bad, 0);
    const char *why = NULL;
    CHECK_RES(sgrt_scene_check(s, &why), SGRT_OK);
    if (why)
        printf("test_follow: %s: %s\n", when, why);
}

#define N 3000u

static void test_carried(uint32_t flags)
{
    sgrt_scene *s = probe_scene(flags);
    REQUIRE(s);
    const probe *p = sgrt__follow_state(s, &probe_follower);
    REQUIRE(p);
    /* Declared for a flag the scene lacks: no array. */
    CHECK((p->unused != NULL) == ((flags & SGRT_SCENE_PREV_WORLD) != 0u));
    const uint32_t cap0 = s->st.cap;
    static sgrt_node nodes[N];
    for (uint32_t i = 0; i < N; i++) {
        const sgrt_node parent =
            i && rng_below(&R, 4) ? nodes[rng_below(&R, i)] : SGRT_NULL_NODE;
        REQUIRE_RES(sgrt_node_create(s, parent, &nodes[i]), SGRT_OK);
    }
    CHECK(s->st.cap > cap0); /* it grew */
    CHECK_EQ_U(p->created, N);
    check_probe(s, nodes, N, "growth");
    (void)sgrt_scene_update(s);

    /* Re-parents move subtrees to other slots. */
    const uint64_t moves0 = s->slots_version;
    uint32_t refused = 0;
    for (uint32_t k = 0; k < 400; k++) {
        const sgrt_node a = nodes[rng_below(&R, N)], b = nodes[rng_below(&R, N)];
        refused += sgrt_node_set_parent(s, a, rng_below(&R, 5) ? b : SGRT_NULL_NODE, false) !=
                   SGRT_OK; /* a cycle */
    }
    CHECK(refused < 400);
    CHECK(s->slots_version != moves0);
    check_probe(s, nodes, N, "relocation");

    /* Destroys (subtrees), until holes outnumber the nodes: reclaimed at
     * once. */
    sgrt__scene_set_hole_slack(s, 0);
    const uint32_t reclaims0 = s->reclaims;
    while (sgrt_scene_node_count(s) > N / 4u)
        if (sgrt_node_destroy(s, nodes[rng_below(&R, N)]) != SGRT_OK)
            continue; /* destroyed already */
    CHECK(s->reclaims != reclaims0);
    check_probe(s, nodes, N, "reclamation");

    /* Compaction: a new block, every node depth-first. */
    const uint64_t version0 = sgrt_scene_storage_version(s);
    CHECK_RES(sgrt_scene_compact(s), SGRT_OK);
    CHECK(sgrt_scene_storage_version(s) != version0);
    CHECK(p == sgrt__follow_state(s, &probe_follower)); /* the state stays */
    check_probe(s, nodes, N, "compaction");
    (void)sgrt_scene_update(s);
    check_probe(s, nodes, N, "update");
    sgrt_scene_destroy(s);
}

/* Every follower's declarations fit what a scene keeps for them: a scene
 * with every flag attaches them all, and storage lays out at most
 * SGRT__FOLLOW_SLOTS fields (more would be dropped at attach); each field's
 * pointer (and a bitfield's summary pointer) lies inside the follower's
 * state, which must then exist. A new follower that breaks one fails here. */
static void test_declarations(void)
{
    uint32_t fields = 0, followers = 0;
    for (const sgrt__follower *const *f = sgrt__followers; *f; f++) {
        followers++;
        fields += (*f)->slot_count;
        CHECK((*f)->slot_count == 0 || (*f)->state_size > 0);
        for (uint32_t k = 0; k < (*f)->slot_count; k++) {
            const sgrt__slot_decl *d = &(*f)->slots[k];
            CHECK(d->name != NULL && d->align >= 1 && d->align <= 64);
            CHECK((size_t)d->at + sizeof(void *) <= (*f)->state_size);
            CHECK(d->kind != SGRT__DECL_BITS || (size_t)d->sum_at + sizeof(void *) <= (*f)->state_size);
            CHECK(d->kind == SGRT__DECL_BITS || d->size > 0);
            /* A snapshot writes the element as scalars of d->width bytes:
             * a width the element is made of (SGRT__SCALAR_WIDTH knows the
             * type, or SGRT__DECL_ARRAY_OF names its scalar). */
            CHECK_MSG(d->width == 1u || d->width == 2u || d->width == 4u || d->width == 8u,
                      "%s: scalar width %u (a type SGRT__SCALAR_WIDTH does not know?)",
                      d->name, (unsigned)d->width);
            CHECK(d->width && d->size % d->width == 0u);
            CHECK(d->kind == SGRT__DECL_DATA || d->width == 4u);
        }
        /* Its scene-level fields in a snapshot: inside the state, of a
         * scalar width, booleans one byte. */
        CHECK((*f)->field_count == 0 || (*f)->fields != NULL);
        for (uint32_t k = 0; k < (*f)->field_count; k++) {
            const sgrt__state_field *sf = &(*f)->fields[k];
            CHECK(sf->name != NULL && sf->count > 0);
            CHECK(sf->width == 1u || sf->width == 2u || sf->width == 4u || sf->width == 8u);
            CHECK((size_t)sf->at + (size_t)sf->count * sf->width <= (*f)->state_size);
            CHECK(!sf->boolean || sf->width == sizeof(bool));
        }
    }
    CHECK(followers <= SGRT__FOLLOWERS);
    CHECK_MSG(fields <= SGRT__FOLLOW_SLOTS, "followers declare %u per-slot fields, room for %u",
              fields, SGRT__FOLLOW_SLOTS);
    /* A scene with every flag lays out every declaration. */
    sgrt_scene_desc d = {0};
    d.flags = SGRT_SCENE_PREV_WORLD | SGRT_SCENE_BOUNDS | SGRT_SCENE_SUBTREE_BOUNDS |
              SGRT_SCENE_LARGE_WORLD | SGRT_SCENE_VALIDATE | SGRT_SCENE_INTERPOLATE;
    sgrt_scene *s = new_scene_desc(&d);
    CHECK_EQ_U(s->decl_count, fields);
    sgrt_scene_destroy(s);
}

int main(void)
{
    test_declarations();
    test_carried(0u);
    test_carried(SGRT_SCENE_PREV_WORLD | SGRT_SCENE_SUBTREE_BOUNDS | SGRT_SCENE_LARGE_WORLD);
    return test_report("test_follow");
}
