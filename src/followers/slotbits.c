/* SPDX-License-Identifier: MIT */
/* Bitfields over slots that follow the scene's storage, and their lists
 * (slotbits.h). */
#include "slotbits.h"
#include "../alloc.h"
#include "../args.h"
#include <string.h>

sgrt_result sgrt__slotbits_resize(sgrt_scene *s, sgrt__slotbits *b, uint32_t **side,
                                  uint32_t words, uint32_t side_words, uint32_t keep_side)
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

sgrt_result sgrt__slotlist_add(sgrt_scene *s, sgrt__slotlist *l, sgrt__slotbits *b)
{
    if (l->count == l->cap) {
        const uint32_t n = l->cap ? l->cap * 2u : 4u;
        sgrt_result err;
        sgrt__slotbits **items = sgrt__alloc(&s->alloc, (size_t)n * sizeof *items, 16, &err);
        if (!items)
            return err;
        if (l->count)
            memcpy(items, l->items, (size_t)l->count * sizeof *items);
        sgrt__free(&s->alloc, l->items, (size_t)l->cap * sizeof *items);
        l->items = items;
        l->cap = n;
    }
    l->items[l->count++] = b;
    return SGRT_OK;
}

sgrt__slotbits *sgrt__slotlist_create(sgrt_scene *s, sgrt__slotlist *l, uint32_t kind,
                                      size_t size, sgrt__slotbits_sizer resize,
                                      const char *function, sgrt_result *err)
{
    *err = sgrt__object_ensure(s, function);
    if (*err != SGRT_OK)
        return NULL;
    sgrt__slotbits *b = sgrt__alloc(&s->alloc, size, 16, err);
    if (!b) {
        *err = sgrt__fail_grow(s, *err, function, SGRT_NULL_NODE);
        return NULL;
    }
    memset(b, 0, size);
    sgrt_result r = resize(s, b, s->st.words);
    if (r == SGRT_OK)
        r = sgrt__slotlist_add(s, l, b);
    if (r != SGRT_OK) {
        sgrt__free(&s->alloc, b->block, b->block_size);
        sgrt__free(&s->alloc, b, size);
        *err = sgrt__fail_grow(s, r, function, SGRT_NULL_NODE);
        return NULL;
    }
    b->id = sgrt__object_take(s, kind, b);
    return b;
}

static void bits_free(sgrt_scene *s, sgrt__slotbits *b)
{
    sgrt__free(&s->alloc, b->block, b->block_size);
    b->block = b->bits = NULL;
}

sgrt_result sgrt__slotlist_destroy_one(sgrt_scene *s, sgrt__slotlist *l, uint32_t id,
                                       uint32_t kind, size_t size, const char *const why[3],
                                       const char *function)
{
    if (!id)
        return SGRT_OK;
    if (s->busy)
        return sgrt__reentered(s, function);
    /* Through the table, which only the scene's own objects are in: the
     * memory of a destroyed object, or of another scene's, is never read. */
    sgrt_result err;
    sgrt__slotbits *b = sgrt__object_arg(s, id, kind, why, function, &err);
    if (!b)
        return err;
    for (uint32_t i = 0; i < l->count; i++)
        if (l->items[i] == b) { /* the last one takes its place */
            l->items[i] = l->items[--l->count];
            break;
        }
    bits_free(s, b);
    sgrt__free(&s->alloc, b, size);
    sgrt__object_release(s, id);
    return SGRT_OK;
}

void sgrt__slotlist_free(sgrt_scene *s, sgrt__slotlist *l, size_t size)
{
    for (uint32_t i = 0; i < l->count; i++) {
        bits_free(s, l->items[i]);
        sgrt__free(&s->alloc, l->items[i], size);
    }
    sgrt__free(&s->alloc, l->items, (size_t)l->cap * sizeof *l->items);
    memset(l, 0, sizeof *l);
}

const char *sgrt__slotlist_check(const sgrt_scene *s, const sgrt__slotlist *l, uint32_t kind)
{
    for (uint32_t i = 0; i < l->count; i++) {
        const sgrt__slotbits *b = l->items[i];
        if (!sgrt__object_names(s, b->id, kind, b))
            return kind == SGRT__KIND_TRACKER ? "object table: every tracker's id names it"
                                              : "object table: every node set's id names it";
        if (b->words < s->st.words)
            return "trackers and node sets cover the scene's capacity";
    }
    return NULL;
}

sgrt_result sgrt__collect_outputs(const sgrt_scene *s, const sgrt_range *out, uint32_t max_ranges,
                                  const uint32_t *out_count, const bool *out_more,
                                  const char *function)
{
    if (!out_count || !out_more)
        return sgrt__fail(s, SGRT_ERR_INVALID_ARG, function,
                          !out_count ? "out_count is NULL" : "out_more is NULL", SGRT_NULL_NODE);
    if (max_ranges && !out)
        return sgrt__fail(s, SGRT_ERR_INVALID_ARG, function, "out is NULL with max_ranges > 0",
                          SGRT_NULL_NODE);
    return SGRT_OK;
}
