/* SPDX-License-Identifier: MIT */
/* The object table: what tracker, node set, writer and skin handles name. A
 * handle is {uint32_t id}: a 16-bit table index and a 3-bit kind, XORed with
 * a per-scene salt, and a 13-bit generation field offset per scene, as node
 * handles are (handles.c). Resolving one reads one entry of the scene's own
 * table and compares the whole id, so a destroyed object's memory is never
 * read, a handle of another scene names nothing here (or, rarely, the wrong
 * generation of an index), and a tracker's id is never taken for a node
 * set's. Indices are reused first-in first-out and only while more than
 * SGRT__OBJ_MIN_FREE are free, so a destroyed handle stays refused for as
 * long as the 13-bit generation allows. */
#include "internal.h"
#include "alloc.h"
#include "objects.h"
#include "result.h"
#include <string.h>

static uint32_t make_id(const sgrt_scene *s, uint32_t field, uint32_t index, uint32_t kind)
{
    return (field << SGRT__OBJ_GEN_SHIFT) |
           ((index | kind << SGRT__OBJ_KIND_SHIFT) ^ s->obj_salt);
}

static uint32_t field_of(uint32_t id) { return id >> SGRT__OBJ_GEN_SHIFT; }

static uint32_t index_of(const sgrt_scene *s, uint32_t id)
{
    return (id ^ s->obj_salt) & SGRT__OBJ_INDEX_MASK;
}

static uint32_t kind_of(const sgrt_scene *s, uint32_t id)
{
    return ((id ^ s->obj_salt) >> SGRT__OBJ_KIND_SHIFT) & SGRT__OBJ_KIND_MASK;
}

static size_t table_size(uint32_t cap) { return (size_t)cap * sizeof(sgrt__object); }

sgrt_result sgrt__object_ensure(sgrt_scene *s, const char *function)
{
    if (s->obj_live >= SGRT_MAX_OBJECTS)
        return sgrt__fail(s, SGRT_ERR_CAPACITY, function,
                          "SGRT_MAX_OBJECTS trackers, node sets and writers are alive in s: "
                          "destroy one first",
                          SGRT_NULL_NODE);
    /* A fresh index while no more than the reserve is free. Below
     * SGRT_MAX_OBJECTS live objects one always exists: every index handed
     * out is live or free, so with 2^16 handed out more than the reserve
     * are free. */
    if (s->obj_free_count > s->obj_reserve || s->obj_used < s->obj_cap)
        return SGRT_OK;
    uint32_t cap = s->obj_cap ? s->obj_cap * 2u : 8u;
    if (cap > SGRT__OBJ_INDEX_MASK + 1u)
        cap = SGRT__OBJ_INDEX_MASK + 1u;
    sgrt_result err;
    sgrt__object *t = sgrt__alloc(&s->alloc, table_size(cap), 16, &err);
    if (!t)
        return sgrt__fail_grow(s, err, function, SGRT_NULL_NODE);
    if (s->obj_used)
        memcpy(t, s->objs, (size_t)s->obj_used * sizeof *t);
    if (s->objs)
        sgrt__free(&s->alloc, s->objs, table_size(s->obj_cap));
    s->objs = t;
    s->obj_cap = cap;
    return SGRT_OK;
}

uint32_t sgrt__object_take(sgrt_scene *s, uint32_t kind, void *ptr)
{
    uint32_t index, field;
    if (s->obj_free_count <= s->obj_reserve) {
        index = s->obj_used++;
        field = s->obj_first;
    } else {
        index = s->obj_free_head;
        s->obj_free_head = s->objs[index].next_free;
        s->obj_free_count--;
        field = field_of(s->objs[index].id);
    }
    sgrt__object *e = &s->objs[index];
    e->id = make_id(s, field, index, kind);
    e->ptr = ptr;
    e->next_free = SGRT__NONE;
    s->obj_live++;
    return e->id;
}

void sgrt__object_release(sgrt_scene *s, uint32_t id)
{
    const uint32_t index = index_of(s, id);
    sgrt__object *e = &s->objs[index];
    const uint32_t field = field_of(id);
    /* Kind 0 until the index is taken again: no handle matches it. */
    e->id = make_id(s, field == SGRT__OBJ_GEN_PERIOD ? 1u : field + 1u, index, 0u);
    e->ptr = NULL;
    e->next_free = SGRT__NONE;
    s->obj_live--;
    if (s->obj_free_count)
        s->objs[s->obj_free_tail].next_free = index;
    else
        s->obj_free_head = index;
    s->obj_free_tail = index;
    s->obj_free_count++;
}

void sgrt__objects_free(sgrt_scene *s)
{
    if (s->objs)
        sgrt__free(&s->alloc, s->objs, table_size(s->obj_cap));
    s->objs = NULL;
    s->obj_cap = s->obj_used = s->obj_free_count = s->obj_live = 0;
}

const char *sgrt__object_problem(const sgrt_scene *s, uint32_t id, const char *const why[3])
{
    if (!id)
        return why[0];
    const uint32_t index = index_of(s, id);
    /* The whole id matches a live entry: only the kind was wrong. */
    if (index < s->obj_used && s->objs[index].id == id && s->objs[index].ptr)
        return why[2];
    return why[1];
}

bool sgrt__object_names(const sgrt_scene *s, uint32_t id, uint32_t kind, const void *ptr)
{
    return ptr && sgrt__object_get(s, id, kind) == ptr;
}

void *sgrt__object_next(const sgrt_scene *s, uint32_t kind, uint32_t *at)
{
    for (; *at < s->obj_used; ++*at) {
        const sgrt__object *e = &s->objs[*at];
        if (e->ptr && kind_of(s, e->id) == kind)
            return s->objs[(*at)++].ptr;
    }
    return NULL;
}

const char *sgrt__objects_check(const sgrt_scene *s)
{
    uint32_t live = 0, free_count = 0;
    for (uint32_t i = 0; i < s->obj_used; i++) {
        const sgrt__object *e = &s->objs[i];
        const uint32_t low = e->id ^ s->obj_salt;
        const uint32_t field = field_of(e->id);
        if ((low & SGRT__OBJ_INDEX_MASK) != i || field == 0u || field > SGRT__OBJ_GEN_PERIOD)
            return "object table: every entry's id holds its index and a generation field "
                   "in 1..8191";
        if (e->ptr ? kind_of(s, e->id) == 0u : kind_of(s, e->id) != 0u)
            return "object table: live entries carry a kind, free ones kind 0";
        live += e->ptr != NULL;
    }
    if (live != s->obj_live)
        return "object table: its live entries are the objects counted alive";
    for (uint32_t i = s->obj_free_head, n = 0; n < s->obj_free_count; n++) {
        if (i >= s->obj_used || s->objs[i].ptr)
            return "object table: the free list holds free entries only";
        free_count++;
        i = s->objs[i].next_free;
    }
    if (free_count + live != s->obj_used)
        return "object table: every index is live or free";
    return NULL;
}
