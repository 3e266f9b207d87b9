/* SPDX-License-Identifier: MIT */
/* Slot storage: the structure of arrays indexed by slot (laid out from the one
 * list SGRT__SLOT_ARRAYS), its geometric growth, slot occupancy (alive bits,
 * holes, slot_end) and the depth-first compaction that closes the holes. */
#include "follow.h"
#include "alloc.h"
#include "dirty.h"
#include "handles.h"
#include "walk.h"
#include "storage.h"
#include <string.h>

/* Lay out every array for `cap` slots in one block: the core's, then those
 * the followers of s declared (none when s is NULL); with block NULL only
 * computes the size. Sizes are summed in 64 bits: false when the total
 * does not fit in size_t (32-bit targets past ~25 M slots). */
static bool layout(const sgrt_scene *s, sgrt__storage *st, uint32_t cap, void *block)
{
    uint8_t *b = block;
    uint64_t off = 0;
    st->cap = cap;
    st->words = cap / 32u;
    st->sum_words = (st->words + 31u) / 32u;
#define PLACE_AT(ptr, bytes)                                                           \
    do {                                                                               \
        ptr = b ? (void *)(b + (size_t)off) : NULL;                                    \
        off = (off + (uint64_t)(bytes) + 63u) & ~(uint64_t)63u;                        \
    } while (0)
#define PLACE(field, type, count) PLACE_AT(st->field, (uint64_t)(count) * sizeof(type))
#define PLACE_ARRAY(name, type, kind) PLACE(name, type, cap);
#define PLACE_BITFIELD(name) PLACE(name, uint32_t, st->words);
    SGRT__SLOT_ARRAYS(PLACE_ARRAY)
    SGRT__SLOT_BITFIELDS(PLACE_BITFIELD)
    SGRT__PLAN_BITFIELDS(PLACE_BITFIELD)
    PLACE(work_sum, uint32_t, st->sum_words);
    PLACE(cross_sum, uint32_t, st->sum_words);
    PLACE(alive_full, uint32_t, st->sum_words);
    PLACE(dirty_sum, uint32_t, st->sum_words);
    PLACE(scratch, uint32_t, 2u * (uint64_t)cap);
    /* Every array starts on a 64-byte line, which any declared alignment
     * (at most 64) divides. */
    const uint32_t decls = s ? s->decl_count : 0u;
    for (uint32_t k = 0; k < decls; k++) {
        const sgrt__slot_decl *d = s->decl[k];
        if (d->kind == SGRT__DECL_BITS) {
            PLACE_AT(st->fol[k], (uint64_t)st->words * sizeof(uint32_t));
            PLACE_AT(st->fol_sum[k], (uint64_t)st->sum_words * sizeof(uint32_t));
        } else {
            PLACE_AT(st->fol[k], (uint64_t)cap * d->size);
            st->fol_sum[k] = NULL;
        }
    }
    for (uint32_t k = decls; k < SGRT__FOLLOW_SLOTS; k++)
        st->fol[k] = st->fol_sum[k] = NULL;
#undef PLACE_BITFIELD
#undef PLACE_ARRAY
#undef PLACE
#undef PLACE_AT
    st->block = block;
    st->size = (size_t)off;
    return off <= (uint64_t)SIZE_MAX;
}

size_t sgrt__storage_bytes(uint32_t cap)
{
    sgrt__storage st;
    return layout(NULL, &st, cap, NULL) ? st.size : 0u;
}

/* A new block for `cap` slots with every bitfield zero, and every
 * declared array that asks to be. */
static sgrt_result storage_alloc(const sgrt_scene *s, uint32_t cap, sgrt__storage *st)
{
    if (!layout(s, st, cap, NULL))
        return SGRT_ERR_NOMEM; /* more than the address space holds */
    sgrt_result err;
    void *block = sgrt__alloc(&s->alloc, st->size, 64, &err);
    if (!block)
        return err;
    (void)layout(s, st, cap, block);
#define ZERO_BITFIELD(name) memset(st->name, 0, (size_t)st->words * sizeof(uint32_t));
    SGRT__SLOT_BITFIELDS(ZERO_BITFIELD)
    SGRT__PLAN_BITFIELDS(ZERO_BITFIELD)
#undef ZERO_BITFIELD
    memset(st->work_sum, 0, (size_t)st->sum_words * sizeof(uint32_t));
    memset(st->cross_sum, 0, (size_t)st->sum_words * sizeof(uint32_t));
    memset(st->alive_full, 0, (size_t)st->sum_words * sizeof(uint32_t));
    memset(st->dirty_sum, 0, (size_t)st->sum_words * sizeof(uint32_t));
    for (uint32_t k = 0; k < s->decl_count; k++) {
        const sgrt__slot_decl *d = s->decl[k];
        if (d->kind == SGRT__DECL_BITS) {
            memset(st->fol[k], 0, (size_t)st->words * sizeof(uint32_t));
            memset(st->fol_sum[k], 0, (size_t)st->sum_words * sizeof(uint32_t));
        } else if (d->zeroed) {
            memset(st->fol[k], 0, (size_t)cap * d->size);
        }
    }
    return SGRT_OK;
}

static void storage_install(sgrt_scene *s, const sgrt__storage *st)
{
    sgrt__free(&s->alloc, s->st.block, s->st.size);
    s->st = *st;
    sgrt__follow_publish(s);
    s->structure_version++; /* the plan's bitfields start over */
    s->storage_version++;   /* the world array moved */
}

void sgrt__storage_free(sgrt_scene *s)
{
    sgrt__free(&s->alloc, s->st.block, s->st.size);
    memset(&s->st, 0, sizeof s->st);
    sgrt__follow_publish(s);
}

static uint32_t round_cap(uint64_t need)
{
    uint64_t c = (need + 31u) & ~(uint64_t)31u;
    return c > SGRT__MAX_SLOTS ? 0u : (uint32_t)c;
}

/* Reallocate for `new_cap` slots, keeping every slot where it is. */
static sgrt_result storage_resize(sgrt_scene *s, uint32_t new_cap)
{
    sgrt__storage st;
    sgrt_result r = storage_alloc(s, new_cap, &st);
    if (r != SGRT_OK)
        return r;
    r = sgrt__follow_reserve(s, st.words);
    if (r != SGRT_OK) {
        sgrt__free(&s->alloc, st.block, st.size);
        return r;
    }
    const size_t n = s->slot_end;
#define COPY_ARRAY(name, type, kind)                                                   \
    if (n)                                                                             \
        memcpy(st.name, s->st.name, n * sizeof(type));
#define COPY_BITFIELD(name)                                                            \
    if (s->st.words)                                                                   \
        memcpy(st.name, s->st.name, (size_t)s->st.words * sizeof(uint32_t));
    SGRT__SLOT_ARRAYS(COPY_ARRAY)
    SGRT__SLOT_BITFIELDS(COPY_BITFIELD)
#undef COPY_BITFIELD
#undef COPY_ARRAY
    for (uint32_t k = 0; k < s->decl_count; k++) {
        const sgrt__slot_decl *d = s->decl[k];
        if (d->kind != SGRT__DECL_BITS) {
            if (n)
                memcpy(st.fol[k], s->st.fol[k], n * d->size);
        } else if (s->st.words) {
            memcpy(st.fol[k], s->st.fol[k], (size_t)s->st.words * sizeof(uint32_t));
            memcpy(st.fol_sum[k], s->st.fol_sum[k], (size_t)s->st.sum_words * sizeof(uint32_t));
        }
    }
    if (s->st.sum_words) {
        memcpy(st.alive_full, s->st.alive_full, (size_t)s->st.sum_words * sizeof(uint32_t));
        memcpy(st.dirty_sum, s->st.dirty_sum, (size_t)s->st.sum_words * sizeof(uint32_t));
    }
    storage_install(s, &st);
    return SGRT_OK;
}

uint32_t sgrt__storage_grown_cap(uint32_t cap, uint64_t need)
{
    if (need > SGRT__MAX_SLOTS)
        return 0;
    /* Geometric from any capacity, up to the limit: doubling, clamped. */
    uint64_t want = (uint64_t)cap * 2u;
    if (want < need)
        want = need;
    if (want < SGRT__DEFAULT_CAPACITY)
        want = SGRT__DEFAULT_CAPACITY;
    if (want > SGRT__MAX_SLOTS)
        want = SGRT__MAX_SLOTS;
    return round_cap(want);
}

sgrt_result sgrt__storage_ensure(sgrt_scene *s, uint64_t need)
{
    if (need <= s->st.cap)
        return SGRT_OK;
    const uint32_t cap = sgrt__storage_grown_cap(s->st.cap, need);
    return cap ? storage_resize(s, cap) : SGRT_ERR_CAPACITY;
}

static inline uint32_t remap(uint32_t link, const uint32_t *map)
{
    return (link == SGRT__NONE || !map) ? link : map[link];
}

/* Bit `from` of src to bit `to` of dst, keeping dst's summary exact. */
static inline void copy_bit(uint32_t *dst, uint32_t *dst_sum, uint32_t to, const uint32_t *src,
                            uint32_t from)
{
    if (sgrt__bit_get(src, from)) {
        sgrt__bit_set(dst, to);
        sgrt__bit_set(dst_sum, to >> 5);
    } else {
        sgrt__bit_clear(dst, to);
        if (!dst[to >> 5])
            sgrt__bit_clear(dst_sum, to >> 5);
    }
}

/* One declared element of `size` bytes: the sizes followers declare get a
 * copy of known length, which compiles to moves. */
static inline void copy_elem(void *dst, const void *src, uint32_t size)
{
    switch (size) {
    case 4: memcpy(dst, src, 4); break;
    case 8: memcpy(dst, src, 8); break;
    case 24: memcpy(dst, src, 24); break;
    case 32: memcpy(dst, src, 32); break;
    case 64: memcpy(dst, src, 64); break;
    default: memcpy(dst, src, size); break;
    }
}

/* Slot `from` of src to slot `to` of dst: every per-slot array of the core,
 * and every field the followers of s declared, by its kind. */
static void copy_slot(const sgrt_scene *s, sgrt__storage *dst, uint32_t to,
                      const sgrt__storage *src, uint32_t from, const uint32_t *map)
{
#define COPY_DATA(name, type) memcpy(&dst->name[to], &src->name[from], sizeof(type));
#define COPY_LINK(name, type) dst->name[to] = remap(src->name[from], map);
#define COPY_ONE(name, type, kind) COPY_##kind(name, type)
    SGRT__SLOT_ARRAYS(COPY_ONE)
#undef COPY_ONE
#undef COPY_LINK
#undef COPY_DATA
    for (uint32_t k = 0; k < s->decl_count; k++) {
        const sgrt__slot_decl *d = s->decl[k];
        if (d->kind == SGRT__DECL_BITS) {
            copy_bit(dst->fol[k], dst->fol_sum[k], to, src->fol[k], from);
        } else if (d->kind == SGRT__DECL_LINK) {
            ((uint32_t *)dst->fol[k])[to] = remap(((const uint32_t *)src->fol[k])[from], map);
        } else {
            copy_elem((uint8_t *)dst->fol[k] + (size_t)to * d->size,
                      (const uint8_t *)src->fol[k] + (size_t)from * d->size, d->size);
        }
    }
}

/* ---- occupancy ------------------------------------------------------------- */

void sgrt__slot_occupy(sgrt_scene *s, uint32_t slot)
{
    if (slot < s->slot_end) {
        s->holes--;
    } else {
        s->holes += slot - s->slot_end;
        s->slot_end = slot + 1u;
    }
    const uint32_t w = slot >> 5;
    s->st.alive[w] |= 1u << (slot & 31u);
    if (s->st.alive[w] == ~0u)
        sgrt__bit_set(s->st.alive_full, w);
}

void sgrt__slot_vacate(sgrt_scene *s, uint32_t slot)
{
    const uint32_t w = slot >> 5;
    s->st.alive[w] &= ~(1u << (slot & 31u));
    s->st.inner[w] &= ~(1u << (slot & 31u));
    sgrt__bit_clear(s->st.alive_full, w);
    s->holes++;
    sgrt__follow_vacated(s, slot);
}

/* Trailing dead slots stop counting as used (and as holes). */
void sgrt__slots_trim(sgrt_scene *s)
{
    while (s->slot_end) {
        const uint32_t last = s->slot_end - 1u;
        const uint32_t w = last >> 5;
        const uint32_t bits = s->st.alive[w] & (~0u >> (31u - (last & 31u)));
        if (bits) {
            const uint32_t top = w * 32u + 31u - sgrt__clz32(bits);
            s->holes -= last - top;
            s->slot_end = top + 1u;
            return;
        }
        s->holes -= (last & 31u) + 1u;
        s->slot_end = w * 32u;
    }
}

uint32_t sgrt__slot_find_free(const sgrt_scene *s, uint32_t after)
{
    const uint32_t from = after == SGRT__NONE ? 0u : after + 1u;
    if (!s->holes || from >= s->slot_end)
        return from > s->slot_end ? from : s->slot_end;
    const uint32_t f = sgrt__bits_next_clear(s->st.alive, s->st.alive_full, s->st.words, from);
    return f < s->slot_end ? f : s->slot_end;
}

/* ---- hole reclamation -------------------------------------------------------- */

/* Links of slot `slot` through map, in place (a node that keeps its slot). */
static void remap_links(const sgrt_scene *s, sgrt__storage *st, uint32_t slot,
                        const uint32_t *map)
{
#define REMAP_DATA(name, type)
#define REMAP_LINK(name, type) st->name[slot] = remap(st->name[slot], map);
#define REMAP_ONE(name, type, kind) REMAP_##kind(name, type)
    SGRT__SLOT_ARRAYS(REMAP_ONE)
#undef REMAP_ONE
#undef REMAP_LINK
#undef REMAP_DATA
    for (uint32_t k = 0; k < s->decl_count; k++)
        if (s->decl[k]->kind == SGRT__DECL_LINK) {
            uint32_t *l = st->fol[k];
            l[slot] = remap(l[slot], map);
        }
}

void sgrt__slot_move(sgrt_scene *s, sgrt__storage *dst, uint32_t to, uint32_t from,
                     const uint32_t *map)
{
    if (dst == &s->st && to == from)
        remap_links(s, dst, to, map);
    else
        copy_slot(s, dst, to, &s->st, from, map);
    if (dst->first_child[to] != SGRT__NONE)
        sgrt__bit_set(dst->inner, to);
    sgrt__handle_moved(s, dst->slot_handle[to], to);
}

bool sgrt__slots_reclaim_due(const sgrt_scene *s)
{
    return s->holes > s->node_count + s->hole_slack;
}

void sgrt__slots_reclaim(sgrt_scene *s)
{
    if (!s->holes)
        return;
    /* Pending marks are completed first: close_from names an old slot. */
    sgrt__dirty_close(s);
    /* A stable compaction: live slots keep their order, so parents stay
     * before children, and each moves down to its rank. A slot's new place
     * is never after its old one, and every slot before it has been moved
     * already: the arrays are rewritten in place, in one ascending pass. */
    uint32_t *map = s->st.scratch;
    uint32_t next = 0;
    SGRT__FOR_EACH_BIT(s->st.alive, s->st.words, o, map[o] = next++;)
    sgrt__follow_renumber(s, map);
    /* Readers hear of the slots whose content changes: both slots of each
     * node that moves. */
    const uint32_t end_word = (s->slot_end + 31u) >> 5;
    sgrt__storage *st = &s->st;
    for (uint32_t w = 0; w < end_word; w++) {
        /* Slots of word w move to word w or before: clear it, then set. */
        uint32_t alive = st->alive[w];
        const uint32_t dirty = st->dirty[w];
        st->alive[w] = st->dirty[w] = st->inner[w] = 0;
        SGRT__FOR_EACH_IN_WORD(w, alive, o,
            const uint32_t n = map[o];
            sgrt__slot_move(s, st, n, o, map);
            if (n != o) {
                sgrt__follow_changed_slot(s, o);
                sgrt__follow_changed_slot(s, n);
            }
            sgrt__bit_set(st->alive, n);
            if (dirty & (1u << (o & 31u)))
                sgrt__bit_set(st->dirty, n);
        )
    }
    for (uint32_t w = 0; w < end_word; w++) {
        if (st->dirty[w])
            sgrt__bit_set(st->dirty_sum, w);
        else
            sgrt__bit_clear(st->dirty_sum, w);
        if (st->alive[w] == ~0u)
            sgrt__bit_set(st->alive_full, w);
        else
            sgrt__bit_clear(st->alive_full, w);
    }
    s->slot_end = next;
    s->holes = 0;
    s->structure_version++;
    s->reclaims++;
    sgrt__follow_slots_moved(s, true, false);
}

/* ---- compaction ------------------------------------------------------------ */

sgrt_result sgrt__storage_compact(sgrt_scene *s)
{
    /* Pending marks are completed first: close_from names an old slot. */
    sgrt__dirty_close(s);
    /* Capacity for the live nodes (and what reserve or initial_capacity
     * asked for): memory goes back to the allocator. */
    uint64_t want = s->node_count > s->cap_floor ? s->node_count : s->cap_floor;
    if (want < SGRT__DEFAULT_CAPACITY)
        want = SGRT__DEFAULT_CAPACITY;
    const uint32_t cap = want < s->st.cap ? round_cap(want) : s->st.cap;
    sgrt__storage st;
    sgrt_result r = storage_alloc(s, cap, &st);
    if (r != SGRT_OK)
        return r;
    /* map[old slot] = new slot: roots in slot order, each followed by its
     * subtree in pre-order. Kept in the old block's scratch. */
    uint32_t *map = s->st.scratch;
    uint32_t next = 0;
    SGRT__FOR_EACH_BIT(s->st.alive, s->st.words, root,
        if (s->st.parent[root] != SGRT__NONE)
            continue;
        for (uint32_t x = root; x != SGRT__NONE; x = sgrt__preorder_next(s, x, root))
            map[x] = next++;
    )
    sgrt__follow_renumber(s, map);
    /* The old storage's slots lose their content; the new ones get it. */
    for (uint32_t w = 0; w < s->st.words; w++)
        sgrt__follow_changed(s, w, s->st.alive[w]);
    SGRT__FOR_EACH_BIT(s->st.alive, s->st.words, o,
        const uint32_t n = map[o];
        sgrt__slot_move(s, &st, n, o, map);
        if (sgrt__bit_get(s->st.dirty, o)) {
            sgrt__bit_set(st.dirty, n);
            sgrt__bit_set(st.dirty_sum, n >> 5);
        }
    )
    sgrt__bits_set_range(st.alive, 0, next);
    for (uint32_t w = 0; w < next / 32u; w++)
        sgrt__bit_set(st.alive_full, w);
    storage_install(s, &st);
    s->slot_end = next;
    s->holes = 0;
    for (uint32_t w = 0; w < s->st.words; w++)
        sgrt__follow_changed(s, w, s->st.alive[w]);
    sgrt__follow_slots_moved(s, true, true);
    return SGRT_OK;
}
