/* Limits: scene option validation, max_nodes (SGRT_ERR_CAPACITY changes
 * nothing), and the handle generation wrap-around.
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
#include "sgrt.h"
#include "refmodel.h"
#include "snapshot.h"
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MIN_FREE 1024u  /* documented in sgrt.h */
#define GEN_PERIOD 255u /* documented in sgrt.h */

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint32_t rnd(uint32_t n) /* uniform enough in [0, n) for n << 2^32 */
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)((rng_state >> 11) % n);
}

/* ---- scene options ------------------------------------------------------ */

static void test_desc_validation(void)
{
    sgrt_scene *const sentinel = (sgrt_scene *)(uintptr_t)0x1234;
    sgrt_scene *s = sentinel;
    sgrt_scene_desc d;

    memset(&d, 0, sizeof d);
    d.max_nodes = SGRT_MAX_NODES + 1u;
    REQUIRE_RES(sgrt_scene_create(&d, &s), SGRT_ERR_INVALID_ARG);
    REQUIRE(s == sentinel);

    d.max_nodes = UINT32_MAX;
    REQUIRE_RES(sgrt_scene_create(&d, &s), SGRT_ERR_INVALID_ARG);
    REQUIRE(s == sentinel);

    d.max_nodes = 5;
    d.initial_capacity = 6;
    REQUIRE_RES(sgrt_scene_create(&d, &s), SGRT_ERR_INVALID_ARG);
    REQUIRE(s == sentinel);

    /* With max_nodes 0 (= SGRT_MAX_NODES) the capacity bound is the maximum. */
    d.max_nodes = 0;
    d.initial_capacity = SGRT_MAX_NODES + 1u;
    REQUIRE_RES(sgrt_scene_create(&d, &s), SGRT_ERR_INVALID_ARG);
    REQUIRE(s == sentinel);

    sgrt_allocator half = {NULL, NULL, NULL};
    memset(&d, 0, sizeof d);
    d.allocator = &half;
    REQUIRE_RES(sgrt_scene_create(&d, &s), SGRT_ERR_INVALID_ARG);
    REQUIRE(s == sentinel);
    REQUIRE_RES(sgrt_scene_create(NULL, NULL), SGRT_ERR_INVALID_ARG);

    /* The largest max_nodes is accepted and reserves nothing up front that
     * depends on it (it would be gigabytes). */
    memset(&d, 0, sizeof d);
    d.max_nodes = SGRT_MAX_NODES;
    REQUIRE_RES(sgrt_scene_create(&d, &s), SGRT_OK);
    REQUIRE(s != sentinel && s != NULL);
    sgrt_node n;
    REQUIRE_RES(sgrt_node_create(s, SGRT_NULL_NODE, &n), SGRT_OK);
    REQUIRE_RES(sgrt_scene_reserve(s, SGRT_MAX_NODES + 1u), SGRT_ERR_CAPACITY);
    REQUIRE_RES(sgrt_scene_reserve(s, UINT32_MAX), SGRT_ERR_CAPACITY);
    REQUIRE(sgrt_scene_node_count(s) == 1);
    check_scene_where(s, "max_nodes = SGRT_MAX_NODES");
    sgrt_scene_destroy(s);
}

/* ---- max_nodes ---------------------------------------------------------- */

#define CAP 40u

/* Every rejected call is compared against a snapshot taken before it; the
 * model predicts what the next update must recompute, so pending work is
 * covered too. */
static void test_max_nodes(void)
{
    sgrt_scene_desc d;
    memset(&d, 0, sizeof d);
    d.max_nodes = CAP;
    sgrt_scene *s = NULL;
    REQUIRE_RES(sgrt_scene_create(&d, &s), SGRT_OK);
    ref_model *m = ref_model_create();

    /* A few trees of mixed shape: chains, bushes. */
    sgrt_node h[CAP + 8];
    uint32_t nh = 0;
    for (uint32_t i = 0; i < CAP; i++) {
        sgrt_node parent = SGRT_NULL_NODE;
        if (i % 7 != 0)
            parent = h[i % 3 == 0 ? i - 1 : rnd(i)];
        REQUIRE_RES(sgrt_node_create(s, parent, &h[nh]), SGRT_OK);
        ref_model_add(m, h[nh].id, parent.id);
        nh++;
    }
    REQUIRE(sgrt_scene_update(s) == ref_model_update(m));

    /* Leave pending work so the comparison covers dirty state. */
    float moved[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 3, 4, 5, 1};
    REQUIRE_RES(sgrt_node_set_local(s, h[5], moved), SGRT_OK);
    ref_model_set_local(m, h[5].id, moved);

    snapshot before, after;
    snapshot_take(s, h, nh, &before);

    const sgrt_node sentinel = {0xDEADBEEFu};
    sgrt_node out = sentinel;
    REQUIRE_RES(sgrt_node_create(s, SGRT_NULL_NODE, &out), SGRT_ERR_CAPACITY);
    REQUIRE(out.id == sentinel.id);
    REQUIRE_RES(sgrt_node_create(s, h[3], &out), SGRT_ERR_CAPACITY);
    REQUIRE(out.id == sentinel.id);
    REQUIRE_RES(sgrt_scene_reserve(s, CAP + 1u), SGRT_ERR_CAPACITY);
    REQUIRE_RES(sgrt_scene_reserve(s, UINT32_MAX), SGRT_ERR_CAPACITY);
    REQUIRE_RES(sgrt_scene_reserve(s, CAP), SGRT_OK);
    /* A stale parent is still a stale handle, whatever the capacity. */
    REQUIRE_RES(sgrt_node_create(s, sentinel, &out), SGRT_ERR_STALE_HANDLE);
    REQUIRE(out.id == sentinel.id);

    snapshot_take(s, h, nh, &after);
    const char *diff = snapshot_diff(&before, &after);
    snapshot_free(&before);
    snapshot_free(&after);
    if (diff) {
        fprintf(stderr, "max_nodes: rejected calls changed the scene: %s\n", diff);
        test_failures++;
    }
    check_scene_where(s, "after CAPACITY");
    REQUIRE(sgrt_scene_node_count(s) == CAP);
    REQUIRE(sgrt_scene_update(s) == ref_model_update(m));

    /* Re-parenting does not add nodes, so it works at capacity, including
     * when the subtree has to move to slots after its new parent (the last
     * node created sits in the highest slot). */
    REQUIRE_RES(sgrt_node_set_parent(s, h[0], h[CAP - 1], SGRT_KEEP_LOCAL),
             ref_model_is_ancestor_or_self(m, h[0].id, h[CAP - 1].id) ? SGRT_ERR_CYCLE
                                                                       : SGRT_OK);
    if (!ref_model_is_ancestor_or_self(m, h[0].id, h[CAP - 1].id))
        ref_model_set_parent(m, h[0].id, h[CAP - 1].id);
    REQUIRE_RES(sgrt_node_set_parent(s, h[1], SGRT_NULL_NODE, SGRT_KEEP_LOCAL), SGRT_OK);
    ref_model_set_parent(m, h[1].id, 0);
    check_scene_where(s, "re-parent at capacity");
    REQUIRE(sgrt_scene_update(s) == ref_model_update(m));

    /* Freeing k nodes admits exactly k more. */
    uint32_t victim = h[7].id;
    const uint32_t k = ref_model_subtree_size(m, victim);
    REQUIRE_RES(sgrt_node_destroy(s, h[7]), SGRT_OK);
    ref_model_remove(m, victim, NULL);
    REQUIRE(sgrt_scene_node_count(s) == CAP - k);
    nh = 0;
    for (uint32_t i = 0; i < ref_model_count(m); i++)
        h[nh++].id = ref_model_nth(m, i);
    for (uint32_t i = 0; i < k; i++) {
        REQUIRE_RES(sgrt_node_create(s, h[i % nh], &out), SGRT_OK);
        ref_model_add(m, out.id, h[i % nh].id);
    }
    REQUIRE(sgrt_scene_node_count(s) == CAP);
    REQUIRE_RES(sgrt_node_create(s, SGRT_NULL_NODE, &out), SGRT_ERR_CAPACITY);
    REQUIRE_RES(sgrt_scene_compact(s), SGRT_OK);
    REQUIRE_RES(sgrt_node_create(s, SGRT_NULL_NODE, &out), SGRT_ERR_CAPACITY);
    check_scene_where(s, "refill");
    REQUIRE(sgrt_scene_update(s) == ref_model_update(m));
    ref_model_destroy(m);
    sgrt_scene_destroy(s);

    /* The smallest scene. */
    d.max_nodes = 1;
    REQUIRE_RES(sgrt_scene_create(&d, &s), SGRT_OK);
    sgrt_node a, b;
    REQUIRE_RES(sgrt_node_create(s, SGRT_NULL_NODE, &a), SGRT_OK);
    REQUIRE_RES(sgrt_node_create(s, a, &b), SGRT_ERR_CAPACITY);
    REQUIRE_RES(sgrt_node_destroy(s, a), SGRT_OK);
    REQUIRE_RES(sgrt_node_create(s, SGRT_NULL_NODE, &b), SGRT_OK);
    REQUIRE(b.id != a.id);
    REQUIRE(sgrt_scene_update(s) == 1);
    check_scene_where(s, "max_nodes = 1");
    sgrt_scene_destroy(s);
}

/* ---- generation wrap-around -------------------------------------------- */

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
            fprintf(stderr, "generation wrap: turn %u: id 0x%08x does not match the FIFO model\n",
                    (unsigned)turn, (unsigned)x.id);
            test_failures++;
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

/* Random creates and destroys with the free count swinging across the
 * reuse threshold: the library must follow the FIFO model at every step, and
 * old handles must be refused exactly while their (index, generation) is not
 * live. Only childless nodes are destroyed so that each destroy frees one
 * index in a known order. */
static void test_generation_random(void)
{
    sgrt_scene *s = NULL;
    REQUIRE_RES(sgrt_scene_create(NULL, &s), SGRT_OK);
    const uint32_t max_index = 4096u;
    handle_model hm;
    hm_init(&hm, max_index);
    uint8_t *live = calloc((size_t)max_index * 256u, 1);
    uint32_t *key_to_id = calloc((size_t)max_index * 256u, sizeof *key_to_id);
    id_map im;
    idm_init(&im, 1u << 20);
    /* live nodes, and a ring of recently dead handles to probe */
    sgrt_node *ln = calloc(max_index, sizeof *ln);
    uint32_t *lk = calloc(max_index, sizeof *lk);
    uint32_t nlive = 0;
    sgrt_node old[512];
    uint32_t oldk[512], nold = 0;
    REQUIRE(live && key_to_id && ln && lk);

    uint32_t target = 1500;
    for (uint32_t step = 0; step < 150000u; step++) {
        if (step % 5000u == 0)
            target = 200u + rnd(2600u);
        const bool grow = nlive < target ? rnd(4) != 0 : rnd(4) == 0;
        if (grow && nlive < max_index - 1u && hm.used < max_index) {
            sgrt_node x;
            REQUIRE_RES(sgrt_node_create(s, SGRT_NULL_NODE, &x), SGRT_OK);
            const uint32_t key = hm_take(&hm);
            if (!idm_bind(&im, key_to_id, x.id, key)) {
                fprintf(stderr, "generation random: step %u: id 0x%08x breaks the model\n",
                        (unsigned)step, (unsigned)x.id);
                test_failures++;
                break;
            }
            live[key] = 1;
            ln[nlive] = x;
            lk[nlive++] = key;
        } else if (nlive > 0) {
            const uint32_t i = rnd(nlive);
            REQUIRE_RES(sgrt_node_destroy(s, ln[i]), SGRT_OK);
            live[lk[i]] = 0;
            hm_release(&hm, lk[i]);
            old[nold % 512u] = ln[i];
            oldk[nold % 512u] = lk[i];
            nold++;
            ln[i] = ln[--nlive];
            lk[i] = lk[nlive];
        }
        if (nold && step % 7u == 0) {
            const uint32_t j = rnd(nold < 512u ? nold : 512u);
            if (sgrt_node_alive(s, old[j]) != (live[oldk[j]] != 0)) {
                fprintf(stderr, "generation random: step %u: old handle 0x%08x alive=%d, model %d\n",
                        (unsigned)step, (unsigned)old[j].id, (int)sgrt_node_alive(s, old[j]),
                        (int)live[oldk[j]]);
                test_failures++;
                break;
            }
        }
    }
    REQUIRE(sgrt_scene_node_count(s) == nlive);
    check_scene_where(s, "generation random");
    printf("generation random: %u indices used, %u free at the end\n", (unsigned)hm.used,
           (unsigned)hm.count);

    free(live);
    free(key_to_id);
    free(ln);
    free(lk);
    idm_free(&im);
    hm_free(&hm);
    sgrt_scene_destroy(s);
}

int main(void)
{
    test_desc_validation();
    test_max_nodes();
    test_generation_wrap_steady();
    test_generation_random();
    return test_report("test_limits");
}
