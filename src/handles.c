/* The handle table: a handle is a 24-bit index into it and an 8-bit
 * generation, scrambled per scene; the table maps a live index to its slot
 * (slots move, handles do not). Indices are reused first-in first-out and
 * only while more than SGRT__MIN_FREE_HANDLES are free, so a destroyed
 * handle stays refused for as long as possible. */
#include "internal.h"
#include <string.h>

static size_t align64(size_t x) { return (x + 63u) & ~(size_t)63u; }

/* slot table, free ring and generations in one block. */
static size_t table_size(uint32_t cap)
{
    return align64((size_t)cap * 4u) * 2u + align64(cap);
}

static uint32_t salt_gen(const sgrt_scene *s) { return (s->salt >> 24) % SGRT__GEN_PERIOD; }

static uint32_t encode(const sgrt_scene *s, uint32_t index, uint32_t gen)
{
    const uint32_t field = (gen + salt_gen(s)) % SGRT__GEN_PERIOD + 1u;
    return (field << SGRT__INDEX_BITS) | ((index ^ s->salt) & SGRT__INDEX_MASK);
}

uint32_t sgrt__resolve(const sgrt_scene *s, sgrt_node n)
{
    if (!s)
        return SGRT__NONE;
    const uint32_t field = n.id >> SGRT__INDEX_BITS;
    if (field == 0u)
        return SGRT__NONE;
    const uint32_t index = (n.id ^ s->salt) & SGRT__INDEX_MASK;
    if (index >= s->handle_used)
        return SGRT__NONE;
    const uint32_t gen = (field - 1u + SGRT__GEN_PERIOD - salt_gen(s)) % SGRT__GEN_PERIOD;
    if (s->handle_gen[index] != gen)
        return SGRT__NONE;
    return s->handle_slot[index];
}

sgrt_node sgrt__handle_of_slot(const sgrt_scene *s, uint32_t slot)
{
    const uint32_t index = s->st.slot_handle[slot];
    sgrt_node n = {encode(s, index, s->handle_gen[index])};
    return n;
}

static sgrt_result table_resize(sgrt_scene *s, uint32_t new_cap)
{
    const size_t sz_slot = align64((size_t)new_cap * 4u);
    uint8_t *b = sgrt__alloc(&s->alloc, table_size(new_cap), 64);
    if (!b)
        return SGRT_ERR_NOMEM;
    uint32_t *hslot = (uint32_t *)(void *)b;
    uint32_t *ring = (uint32_t *)(void *)(b + sz_slot);
    uint8_t *gen = b + 2u * sz_slot;
    if (s->handle_used) {
        memcpy(hslot, s->handle_slot, (size_t)s->handle_used * 4u);
        memcpy(gen, s->handle_gen, s->handle_used);
    }
    for (uint32_t i = 0; i < s->free_count; i++)
        ring[i] = s->free_ring[(s->free_head + i) % s->handle_cap];
    sgrt__handles_free(s);
    s->handle_slot = hslot;
    s->free_ring = ring;
    s->handle_gen = gen;
    s->handle_cap = new_cap;
    s->free_head = 0;
    return SGRT_OK;
}

sgrt_result sgrt__handles_init(sgrt_scene *s, uint32_t cap) { return table_resize(s, cap); }

void sgrt__handles_free(sgrt_scene *s)
{
    if (s->handle_slot)
        sgrt__free(&s->alloc, s->handle_slot, table_size(s->handle_cap));
    s->handle_slot = NULL;
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
        s->handle_gen[index] = 0;
    } else {
        index = s->free_ring[s->free_head];
        s->free_head = (s->free_head + 1u) % s->handle_cap;
        s->free_count--;
    }
    s->handle_slot[index] = slot;
    return index;
}

void sgrt__handle_release(sgrt_scene *s, uint32_t index)
{
    s->handle_slot[index] = SGRT__NONE;
    s->handle_gen[index] = (uint8_t)((s->handle_gen[index] + 1u) % SGRT__GEN_PERIOD);
    s->free_ring[(s->free_head + s->free_count) % s->handle_cap] = index;
    s->free_count++;
}
