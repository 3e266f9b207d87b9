/* SPDX-License-Identifier: MIT */
/* Where nodes live, and every move of nodes to other slots, the one home of
 * relocation: slot occupancy (alive bits with their full-word summary,
 * holes, slot_end, the first free slot), the one move of a node
 * (sgrt__slot_move: every per-slot array of the core, every field the
 * followers declared, its handle), and the three moves of many built on
 * it, each announced to the followers as one event (follow.h: sgrt__moves):
 * relocation of a subtree after its new parent, in-place hole reclamation,
 * depth-first compaction into a new block. */
#include "follow.h"
#include "alloc.h"
#include "dirty.h"
#include "handles.h"
#include "walk.h"
#include "storage.h"
#include <string.h>

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
    const sgrt__moves m = {map, NULL, 0u, false};
    sgrt__follow_moved(s, &m);
}

/* ---- compaction ------------------------------------------------------------ */

sgrt_result sgrt__storage_compact(sgrt_scene *s)
{
    /* Pending marks are completed first: close_from names an old slot. */
    sgrt__dirty_close(s);
    sgrt__storage st;
    sgrt_result r = sgrt__storage_alloc(s, sgrt__storage_fit_cap(s), &st);
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
    sgrt__storage old;
    sgrt__storage_install(s, &st, &old);
    s->slot_end = next;
    s->holes = 0;
    for (uint32_t w = 0; w < s->st.words; w++)
        sgrt__follow_changed(s, w, s->st.alive[w]);
    const sgrt__moves m = {map, NULL, 0u, true};
    sgrt__follow_moved(s, &m); /* map is in the old block: freed after */
    sgrt__free(&s->alloc, old.block, old.size);
    return SGRT_OK;
}

/* ---- relocation -------------------------------------------------------------- */

uint32_t sgrt__subtree_size(const sgrt_scene *s, uint32_t root)
{
    uint32_t k = 0;
    for (uint32_t x = root; x != SGRT__NONE; x = sgrt__preorder_next(s, x, root))
        k++;
    return k;
}

/* One past the last slot that relocating k nodes after `after` would use. */
static uint64_t relocation_end(const sgrt_scene *s, uint32_t after, uint32_t k)
{
    uint32_t f = after, used_holes = 0;
    while (used_holes < k) {
        const uint32_t g = sgrt__slot_find_free(s, f);
        if (g >= s->slot_end)
            return (uint64_t)s->slot_end + (k - used_holes);
        used_holes++;
        f = g;
    }
    return (uint64_t)f + 1u > s->slot_end ? (uint64_t)f + 1u : s->slot_end;
}

sgrt_result sgrt__slots_relocate_room(sgrt_scene *s, uint32_t *root, uint32_t *after, uint32_t k)
{
    uint64_t end = relocation_end(s, *after, k);
    if (end > s->slot_limit && s->holes) {
        /* Near the slot limit (over 11 M live nodes), close the holes
         * first: then the relocation ends by 2 x live < the limit. Order
         * is kept, so `after` is still stored after `root`. The storage
         * that needs (the live slots, then k) is grown before anything
         * moves, so that a failed growth changes nothing. */
        const sgrt_result r = sgrt__storage_ensure(s, (uint64_t)(s->slot_end - s->holes) + k);
        if (r != SGRT_OK)
            return r;
        sgrt__slots_reclaim(s);
        *root = s->st.scratch[*root]; /* reclamation's map */
        *after = s->st.scratch[*after];
        end = relocation_end(s, *after, k);
    }
    return sgrt__storage_ensure(s, end);
}

uint32_t sgrt__slots_relocate(sgrt_scene *s, uint32_t root, uint32_t after, uint32_t k)
{
    /* map[old slot] = new slot for the subtree's slots; sub: its slots in
     * pre-order. Both in scratch (2 x cap entries). */
    uint32_t *map = s->st.scratch, *sub = s->st.scratch + s->st.cap;
    uint32_t n = 0;
    for (uint32_t x = root; x != SGRT__NONE; x = sgrt__preorder_next(s, x, root))
        sub[n++] = x;
    uint32_t f = after;
    for (uint32_t j = 0; j < k; j++) {
        f = sgrt__slot_find_free(s, f);
        map[sub[j]] = f;
        sgrt__slot_occupy(s, f);
    }
    for (uint32_t j = 0; j < k; j++)
        sgrt__slot_move(s, &s->st, map[sub[j]], sub[j], map);
    const sgrt__moves m = {map, sub, k, false};
    sgrt__follow_moved(s, &m);
    for (uint32_t j = 0; j < k; j++) {
        const uint32_t o = sub[j];
        sgrt__slot_vacate(s, o);
        sgrt__dirty_clear(s, o);
        sgrt__follow_changed_slot(s, o);
        sgrt__follow_changed_slot(s, map[o]);
    }
    sgrt__slots_trim(s);
    return map[root];
}
