/* SPDX-License-Identifier: MIT */
/* Slot storage: the structure of arrays indexed by slot (laid out from the
 * core's list SGRT__SLOT_ARRAYS and the fields the followers declare) and
 * its geometric growth. Slot occupancy and the moves of nodes to other
 * slots are moves.c's. */
#include "follow.h"
#include "alloc.h"
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

sgrt_result sgrt__storage_alloc(const sgrt_scene *s, uint32_t cap, sgrt__storage *st)
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

void sgrt__storage_install(sgrt_scene *s, const sgrt__storage *st, sgrt__storage *old)
{
    *old = s->st;
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
    sgrt_result r = sgrt__storage_alloc(s, new_cap, &st);
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
    sgrt__storage old;
    sgrt__storage_install(s, &st, &old);
    sgrt__free(&s->alloc, old.block, old.size);
    return SGRT_OK;
}

uint32_t sgrt__storage_fit_cap(const sgrt_scene *s)
{
    /* Memory goes back to the allocator, down to what reserve or
     * initial_capacity asked for. */
    uint64_t want = s->node_count > s->cap_floor ? s->node_count : s->cap_floor;
    if (want < SGRT__DEFAULT_CAPACITY)
        want = SGRT__DEFAULT_CAPACITY;
    return want < s->st.cap ? round_cap(want) : s->st.cap;
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
