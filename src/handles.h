/* SPDX-License-Identifier: MIT */
/* The handle table: ids, generations, resolution (handles.c). */
#ifndef SGRT_HANDLES_H
#define SGRT_HANDLES_H

#include "internal.h"

sgrt_result sgrt__handles_init(sgrt_scene *s, uint32_t cap);
void sgrt__handles_free(sgrt_scene *s);
sgrt_result sgrt__handles_reserve(sgrt_scene *s, uint32_t node_count);
/* Guarantee that sgrt__handle_take will not need to allocate. */
sgrt_result sgrt__handle_ensure(sgrt_scene *s);
uint32_t sgrt__handle_take(sgrt_scene *s, uint32_t slot);
void sgrt__handle_release(sgrt_scene *s, uint32_t index);
/* The table entry a handle names (for prefetching: it may be past the
 * entries in use). */
static inline const sgrt__handle *sgrt__handle_entry(const sgrt_scene *s, sgrt_node n)
{
    return &s->handles[(n.id ^ s->salt) & SGRT__INDEX_MASK];
}
/* Slot of a handle, or SGRT__NONE if it is not a live node of s: one XOR,
 * one compare and one load of the table. */
static inline uint32_t sgrt__resolve(const sgrt_scene *s, sgrt_node n)
{
    const uint32_t index = (n.id ^ s->salt) & SGRT__INDEX_MASK;
    if (index >= s->handle_used || s->handles[index].id != n.id)
        return SGRT__NONE;
    return s->handles[index].slot;
}
/* The node of handle index `index` now lives in `slot` (relocation,
 * reclamation, compaction). */
static inline void sgrt__handle_moved(sgrt_scene *s, uint32_t index, uint32_t slot)
{
    s->handles[index].slot = slot;
    s->slots_version++;
}
static inline sgrt_node sgrt__handle_of_slot(const sgrt_scene *s, uint32_t slot)
{
    const sgrt_node n = {s->handles[s->st.slot_handle[slot]].id};
    return n;
}
/* The generation field of a handle: 1..SGRT__GEN_PERIOD, offset per scene
 * (handles.c). */
static inline uint32_t sgrt__handle_generation(uint32_t id) { return id >> SGRT__INDEX_BITS; }
/* The generation field of every index's first id in s (1..GEN_PERIOD). */
static inline uint32_t sgrt__handle_first_field(const sgrt_scene *s)
{
    return (s->salt >> 24) % SGRT__GEN_PERIOD + 1u;
}
/* The generation of `id` counted from its index's first (0..GEN_PERIOD-1):
 * what the id says without the scene's scramble, the same in every scene
 * that ran the same calls. */
static inline uint32_t sgrt__handle_ordinal(const sgrt_scene *s, uint32_t id)
{
    return (sgrt__handle_generation(id) + SGRT__GEN_PERIOD - sgrt__handle_first_field(s)) %
           SGRT__GEN_PERIOD;
}

/* sgrt__handle_ordinal with the scene's first field at hand (`first`,
 * 1..GEN_PERIOD), without a division: for the loops over every index. */
static inline uint32_t sgrt__handle_ordinal_from(uint32_t first, uint32_t id)
{
    const uint32_t field = sgrt__handle_generation(id);
    return field >= first ? field - first : field + SGRT__GEN_PERIOD - first;
}
/* The id of index `index` at generation `ordinal` (counted from the
 * index's first, 0..GEN_PERIOD-1) in a scene of first field `first` and
 * salt `salt`: what a snapshot keeps of an id, scrambled for this scene
 * (sgrt__handle_ordinal's inverse, without a division). */
static inline uint32_t sgrt__handle_id_from(uint32_t first, uint32_t salt, uint32_t index,
                                            uint32_t ordinal)
{
    const uint32_t sum = first + ordinal;
    const uint32_t field = sum > SGRT__GEN_PERIOD ? sum - SGRT__GEN_PERIOD : sum;
    return (field << SGRT__INDEX_BITS) | ((index ^ salt) & SGRT__INDEX_MASK);
}
static inline uint32_t sgrt__handle_id_at(const sgrt_scene *s, uint32_t index, uint32_t ordinal)
{
    return sgrt__handle_id_from(sgrt__handle_first_field(s), s->salt, index, ordinal);
}
/* Room for `used` indices in the table (a restore's): allocates; nothing
 * changes on failure. */
sgrt_result sgrt__handles_fit(sgrt_scene *s, uint32_t used);

#endif
