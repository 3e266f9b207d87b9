/* SPDX-License-Identifier: MIT */
/* The registry of slot bitfields that follow the scene's storage: each
 * tracker's pending slots (with its summary) and each node set's members
 * (with a spare array for compaction). Storage growth widens them all;
 * scene destruction frees them all, and the writers (listed only: they
 * follow storage by resolving their nodes again). */
#include "../internal.h"
#include <string.h>

/* Give b zeroed storage for `words` words of bits and `side_words` words of
 * its side array (*side), keeping the bits it had and the first
 * `keep_side` words of the side array. */
static sgrt_result bits_resize(sgrt_scene *s, sgrt__slotbits *b, uint32_t **side, uint32_t words,
                               uint32_t side_words, uint32_t keep_side)
{
    const size_t size = ((size_t)words + side_words) * sizeof(uint32_t);
    const size_t alloc_size = size ? size : sizeof(uint32_t);
    sgrt_result err;
    uint32_t *block = sgrt__alloc(&s->alloc, alloc_size, 64, &err);
    if (!block)
        return err;
    memset(block, 0, alloc_size);
    if (b->bits) {
        memcpy(block, b->bits, (size_t)b->words * sizeof(uint32_t));
        memcpy(block + words, *side, (size_t)keep_side * sizeof(uint32_t));
        sgrt__free(&s->alloc, b->block, b->block_size);
    }
    b->block = block;
    b->bits = block;
    *side = block + words;
    b->words = words;
    b->block_size = alloc_size;
    return SGRT_OK;
}

static uint32_t summary_words(uint32_t words) { return (words + 31u) / 32u; }

static sgrt_result tracker_resize(sgrt_scene *s, sgrt__tracker *t, uint32_t words)
{
    return bits_resize(s, &t->b, &t->summary, words, summary_words(words),
                       summary_words(t->b.words));
}

static sgrt_result set_resize(sgrt_scene *s, sgrt__nodeset *set, uint32_t words)
{
    return bits_resize(s, &set->b, &set->spare, words, words, 0);
}

/* Room for one more pointer in a list. */
static sgrt_result list_grow(sgrt_scene *s, void **list, uint32_t count, uint32_t *cap)
{
    if (count < *cap)
        return SGRT_OK;
    const uint32_t n = *cap ? *cap * 2u : 4u;
    sgrt_result err;
    void **l = sgrt__alloc(&s->alloc, (size_t)n * sizeof(void *), 16, &err);
    if (!l)
        return err;
    if (count)
        memcpy(l, *list, (size_t)count * sizeof(void *));
    sgrt__free(&s->alloc, *list, (size_t)*cap * sizeof(void *));
    *list = l;
    *cap = n;
    return SGRT_OK;
}

sgrt_result sgrt__registry_add_tracker(sgrt_scene *s, sgrt__tracker *t)
{
    sgrt__registry *r = &s->reg;
    void *list = r->trackers;
    sgrt_result rc = list_grow(s, &list, r->tracker_count, &r->tracker_cap);
    r->trackers = list;
    if (rc == SGRT_OK)
        rc = tracker_resize(s, t, s->st.words);
    if (rc == SGRT_OK)
        r->trackers[r->tracker_count++] = t;
    return rc;
}

sgrt_result sgrt__registry_add_set(sgrt_scene *s, sgrt__nodeset *set)
{
    sgrt__registry *r = &s->reg;
    void *list = r->sets;
    sgrt_result rc = list_grow(s, &list, r->set_count, &r->set_cap);
    r->sets = list;
    if (rc == SGRT_OK)
        rc = set_resize(s, set, s->st.words);
    if (rc == SGRT_OK)
        r->sets[r->set_count++] = set;
    return rc;
}

/* Remove `item` from a list by moving the last entry into its place. */
static bool list_remove(void **list, uint32_t *count, const void *item)
{
    for (uint32_t i = 0; i < *count; i++)
        if (list[i] == item) {
            list[i] = list[--*count];
            return true;
        }
    return false;
}

static void bits_free(sgrt_scene *s, sgrt__slotbits *b)
{
    sgrt__free(&s->alloc, b->block, b->block_size);
    b->block = b->bits = NULL;
}

sgrt_result sgrt__registry_reserve_writer(sgrt_scene *s)
{
    void *list = s->reg.writers;
    const sgrt_result rc = list_grow(s, &list, s->reg.writer_count, &s->reg.writer_cap);
    s->reg.writers = list;
    return rc;
}

void sgrt__registry_add_writer(sgrt_scene *s, sgrt__writer *w)
{
    s->reg.writers[s->reg.writer_count++] = w;
}

sgrt_result sgrt__registry_destroy(sgrt_scene *s, uint32_t id, uint32_t kind,
                                   const char *const why[3], const char *function)
{
    if (!id)
        return SGRT_OK;
    if (s->busy)
        return sgrt__reentered(s, function);
    /* Through the table, which only the scene's own objects are in: the
     * memory of a destroyed object, or of another scene's, is never read. */
    void *obj = sgrt__object_get(s, id, kind);
    if (!obj)
        return sgrt__fail(s, SGRT_ERR_INVALID_ARG, function, sgrt__object_problem(s, id, why),
                          SGRT_NULL_NODE);
    sgrt__registry *r = &s->reg;
    if (kind == SGRT__KIND_WRITER) {
        (void)list_remove((void **)r->writers, &r->writer_count, obj);
        sgrt__writer_free(s, obj);
    } else {
        const bool tracker = kind == SGRT__KIND_TRACKER;
        (void)(tracker ? list_remove((void **)r->trackers, &r->tracker_count, obj)
                       : list_remove((void **)r->sets, &r->set_count, obj));
        bits_free(s, obj); /* the sgrt__slotbits first in both kinds */
        sgrt__free(&s->alloc, obj, tracker ? sizeof(sgrt__tracker) : sizeof(sgrt__nodeset));
    }
    sgrt__object_release(s, id);
    return SGRT_OK;
}

sgrt_result sgrt__registry_reserve(sgrt_scene *s, uint32_t words)
{
    /* Growing some and then failing is harmless to the scene: extra words
     * are zero and never reported. But a set's words have moved: a pointer
     * from sgrt_nodeset_words is stale, and the storage version says so
     * (on success the new storage block changes it anyway). */
    for (uint32_t i = 0; i < s->reg.tracker_count; i++)
        if (s->reg.trackers[i]->b.words < words) {
            const sgrt_result r = tracker_resize(s, s->reg.trackers[i], words);
            if (r != SGRT_OK)
                return r;
        }
    bool moved = false;
    for (uint32_t i = 0; i < s->reg.set_count; i++)
        if (s->reg.sets[i]->b.words < words) {
            const sgrt_result r = set_resize(s, s->reg.sets[i], words);
            if (r != SGRT_OK) {
                s->storage_version += moved;
                return r;
            }
            moved = true;
        }
    return SGRT_OK;
}

void sgrt__registry_destroy_all(sgrt_scene *s)
{
    sgrt__registry *r = &s->reg;
    for (uint32_t i = 0; i < r->tracker_count; i++) {
        bits_free(s, &r->trackers[i]->b);
        sgrt__free(&s->alloc, r->trackers[i], sizeof(sgrt__tracker));
    }
    for (uint32_t i = 0; i < r->set_count; i++) {
        bits_free(s, &r->sets[i]->b);
        sgrt__free(&s->alloc, r->sets[i], sizeof(sgrt__nodeset));
    }
    for (uint32_t i = 0; i < r->writer_count; i++)
        sgrt__writer_free(s, r->writers[i]);
    sgrt__free(&s->alloc, r->writers, (size_t)r->writer_cap * sizeof *r->writers);
    sgrt__free(&s->alloc, r->trackers, (size_t)r->tracker_cap * sizeof *r->trackers);
    sgrt__free(&s->alloc, r->sets, (size_t)r->set_cap * sizeof *r->sets);
    memset(r, 0, sizeof *r);
}

const char *sgrt__registry_check(const sgrt_scene *s)
{
    const char *w = sgrt__objects_check(s);
    if (w)
        return w;
    for (uint32_t i = 0; i < s->reg.tracker_count; i++) {
        /* Pending bits are left to sgrt_tracker_check: a collect may be
         * writing them while this runs (sgrt.h, threads). */
        if (s->reg.trackers[i]->b.words < s->st.words)
            return "trackers and node sets cover the scene's capacity";
    }
    for (uint32_t i = 0; i < s->reg.set_count; i++) {
        const sgrt__slotbits *b = &s->reg.sets[i]->b;
        if (b->words < s->st.words)
            return "trackers and node sets cover the scene's capacity";
        for (uint32_t k = 0; k < b->words; k++)
            if (b->bits[k] & ~(k < s->st.words ? s->st.alive[k] : 0u))
                return "node sets hold live nodes only";
    }
    return NULL;
}
