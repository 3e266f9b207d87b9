/* SPDX-License-Identifier: MIT */
/* The handle table: a handle is a 24-bit index into it and an 8-bit
 * generation field, the index scrambled and the field offset per scene so
 * that another scene's handles fail. Each entry keeps the index's current id
 * and slot (slots move, handles do not), so resolving is a compare and a
 * load. Indices are reused first-in first-out and only while more than
 * SGRT__MIN_FREE_HANDLES are free, so a destroyed handle stays refused for as
 * long as possible. */
#include "internal.h"
#include "alloc.h"
#include "handles.h"
#include <string.h>

static size_t align64(size_t x) { return (x + 63u) & ~(size_t)63u; }

/* Entries and free ring in one block. */
static size_t table_size(uint32_t cap)
{
    return align64((size_t)cap * sizeof(sgrt__handle)) + align64((size_t)cap * sizeof(uint32_t));
}

/* The id of a new index's first generation. */
static uint32_t first_id(const sgrt_scene *s, uint32_t index)
{
    return (sgrt__handle_first_field(s) << SGRT__INDEX_BITS) | ((index ^ s->salt) & SGRT__INDEX_MASK);
}

/* The id of the next generation: the field steps through 1..GEN_PERIOD. */
static uint32_t next_id(uint32_t id)
{
    const uint32_t field = sgrt__handle_generation(id);
    const uint32_t next = field == SGRT__GEN_PERIOD ? 1u : field + 1u;
    return (next << SGRT__INDEX_BITS) | (id & SGRT__INDEX_MASK);
}

static sgrt_result table_resize(sgrt_scene *s, uint32_t new_cap)
{
    sgrt_result err;
    uint8_t *b = sgrt__alloc(&s->alloc, table_size(new_cap), 64, &err);
    if (!b)
        return err;
    sgrt__handle *handles = (sgrt__handle *)(void *)b;
    uint32_t *ring = (uint32_t *)(void *)(b + align64((size_t)new_cap * sizeof(sgrt__handle)));
    if (s->handle_used)
        memcpy(handles, s->handles, (size_t)s->handle_used * sizeof *handles);
    for (uint32_t i = 0; i < s->free_count; i++)
        ring[i] = s->free_ring[(s->free_head + i) % s->handle_cap];
    sgrt__handles_free(s);
    s->handles = handles;
    s->free_ring = ring;
    s->handle_cap = new_cap;
    s->free_head = 0;
    return SGRT_OK;
}

sgrt_result sgrt__handles_init(sgrt_scene *s, uint32_t cap) { return table_resize(s, cap); }

void sgrt__handles_free(sgrt_scene *s)
{
    if (s->handles)
        sgrt__free(&s->alloc, s->handles, table_size(s->handle_cap));
    s->handles = NULL;
}

sgrt_result sgrt__handles_reserve(sgrt_scene *s, uint32_t node_count)
{
    uint64_t need = (uint64_t)node_count + SGRT__MIN_FREE_HANDLES + 1u;
    if (need > (uint64_t)SGRT__INDEX_MASK + 1u)
        need = (uint64_t)SGRT__INDEX_MASK + 1u;
    return need > s->handle_cap ? table_resize(s, (uint32_t)need) : SGRT_OK;
}

static bool must_take_fresh_index(const sgrt_scene *s)
{
    return s->free_count <= SGRT__MIN_FREE_HANDLES && s->handle_used <= SGRT__INDEX_MASK;
}

sgrt_result sgrt__handle_ensure(sgrt_scene *s)
{
    /* With every index handed out, reusing one of 1024 or fewer free would
     * break the FIFO reserve; SGRT_MAX_NODES keeps this from happening. */
    if (s->handle_used > SGRT__INDEX_MASK && s->free_count <= SGRT__MIN_FREE_HANDLES)
        return SGRT_ERR_CAPACITY;
    if (!must_take_fresh_index(s) || s->handle_used < s->handle_cap)
        return SGRT_OK;
    uint64_t want = (uint64_t)s->handle_cap * 2u;
    if (want < SGRT__DEFAULT_CAPACITY)
        want = SGRT__DEFAULT_CAPACITY;
    if (want > (uint64_t)SGRT__INDEX_MASK + 1u)
        want = (uint64_t)SGRT__INDEX_MASK + 1u;
    return table_resize(s, (uint32_t)want);
}

uint32_t sgrt__handle_take(sgrt_scene *s, uint32_t slot)
{
    uint32_t index;
    if (must_take_fresh_index(s)) {
        index = s->handle_used++;
        s->handles[index].id = first_id(s, index);
    } else {
        index = s->free_ring[s->free_head];
        s->free_head = (s->free_head + 1u) % s->handle_cap;
        s->free_count--;
    }
    s->handles[index].slot = slot;
    return index;
}

void sgrt__handle_release(sgrt_scene *s, uint32_t index)
{
    s->slots_version++;
    s->handles[index].slot = SGRT__NONE;
    s->handles[index].id = next_id(s->handles[index].id);
    s->free_ring[(s->free_head + s->free_count) % s->handle_cap] = index;
    s->free_count++;
}

sgrt_result sgrt__handles_fit(sgrt_scene *s, uint32_t used)
{
    return used > s->handle_cap ? table_resize(s, used) : SGRT_OK;
}
