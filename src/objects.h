/* SPDX-License-Identifier: MIT */
/* The object table: tracker, node set and writer handles (objects.c). */
#ifndef SGRT_OBJECTS_H
#define SGRT_OBJECTS_H

#include "internal.h"

/* Room in the object table for one more object, so that sgrt__object_take
 * cannot fail. Allocates when the table must grow (nothing changes on
 * failure); CAPACITY when SGRT_MAX_OBJECTS objects are alive. A failure is
 * reported as `function`'s. */
sgrt_result sgrt__object_ensure(sgrt_scene *s, const char *function);
/* Give `ptr`, an object of `kind`, an index (first-in first-out among the
 * free ones past the reserve, else a new one) and return its id. */
uint32_t sgrt__object_take(sgrt_scene *s, uint32_t kind, void *ptr);
/* The object of `id` (live) is gone: its index takes its next generation,
 * which refuses `id`, and joins the back of the free indices. */
void sgrt__object_release(sgrt_scene *s, uint32_t id);
void sgrt__objects_free(sgrt_scene *s);
/* The object `id` names when it is a live object of s of `kind`, else NULL:
 * one XOR, one bound, one compare of the whole id and a kind test, reading
 * nothing but the scene's table (a destroyed object's memory is never
 * read). */
static inline void *sgrt__object_get(const sgrt_scene *s, uint32_t id, uint32_t kind)
{
    const uint32_t low = id ^ s->obj_salt;
    const uint32_t index = low & SGRT__OBJ_INDEX_MASK;
    if (index >= s->obj_used || s->objs[index].id != id ||
        ((low >> SGRT__OBJ_KIND_SHIFT) & SGRT__OBJ_KIND_MASK) != kind)
        return NULL;
    return s->objs[index].ptr;
}
/* Why `id` is not a live object of s of the kind asked for: why[0] when it
 * is zero, why[1] when it names no live object (destroyed, or of another
 * scene), why[2] when it names a live object of another kind. The refusal
 * path only. */
const char *sgrt__object_problem(const sgrt_scene *s, uint32_t id, const char *const why[3]);
/* Whether id names ptr as a live object of `kind`. */
bool sgrt__object_names(const sgrt_scene *s, uint32_t id, uint32_t kind, const void *ptr);
/* The live objects of `kind` in index order: start with *at = 0; NULL at
 * the end. */
void *sgrt__object_next(const sgrt_scene *s, uint32_t kind, uint32_t *at);
/* NULL when the table's invariants hold (ids, kinds, the free list, the
 * live count), else what broke. */
const char *sgrt__objects_check(const sgrt_scene *s);

#endif
