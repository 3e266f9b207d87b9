/* SPDX-License-Identifier: MIT */
/* Snapshots, the writing side: the layout (snapshot.h), the checksum and
 * the fingerprint of what the layout is made of, and sgrt_scene_snapshot,
 * which writes everything that decides what the scene does next: the
 * core's counters and arrays (SGRT__SLOT_ARRAYS), the handle table without
 * its scramble, and every follower's declared state, generically from the
 * declarations (follow.h), little-endian. */
#include "snapshot.h"
#include "args.h"
#include "follow.h"
#include "handles.h"
#include "result.h"


static uint64_t pad8(uint64_t n) { return (n + 7u) & ~(uint64_t)7u; }

void sgrt__snap_layout(const sgrt_scene *s, uint32_t slots, uint32_t handles, uint32_t free,
                       sgrt__snaplayout *L)
{
    uint64_t at = SGRT__SNAP_HEADER;
    L->slots = slots;
    L->words = (uint32_t)(((uint64_t)slots + 31u) / 32u);
    L->handles = handles;
    L->free = free;
    const uint64_t bits = 4u * (uint64_t)L->words;
#define PART(field, bytes)                                                             \
    do {                                                                               \
        L->field = at;                                                                 \
        at += pad8(bytes);                                                             \
    } while (0)
    PART(scalars, 4u * SGRT__SNAP_SCALARS);
    PART(alive, bits);
    PART(dirty, bits);
    PART(inner, bits);
#define PART_ARRAY(name, type, kind) PART(name, (uint64_t)slots * sizeof(type));
    SGRT__SLOT_ARRAYS(PART_ARRAY)
#undef PART_ARRAY
    PART(gens, handles);
    PART(ring, 4u * (uint64_t)free);
    for (uint32_t i = 0; i < SGRT__FOLLOWERS; i++) {
        L->state[i] = at;
        if (i < s->follow_count)
            for (uint32_t j = 0; j < s->follow[i]->field_count; j++) {
                const sgrt__state_field *f = &s->follow[i]->fields[j];
                at += pad8((uint64_t)f->count * f->width);
            }
    }
    for (uint32_t k = 0; k < SGRT__FOLLOW_SLOTS; k++) {
        L->fol[k] = at;
        if (k < s->decl_count && !s->decl[k]->transient)
            at += pad8(s->decl[k]->kind == SGRT__DECL_BITS ? bits
                                                           : (uint64_t)slots * s->decl[k]->size);
    }
#undef PART
    L->total = at;
}

/* Names compared without the C library (the library imports no string
 * functions but the memory ones: tests/ports/check_symbols.py). */
static bool same_name(const char *a, const char *b)
{
    while (*a && *a == *b)
        a++, b++;
    return *a == *b;
}

/* One part of the fingerprint: a name and three numbers, into an FNV-1a
 * hash (a fingerprint against mistakes, not against forgery: the checks
 * of snapshot_check.c are that). */
static void print_part(uint64_t *h, const char *name, uint32_t a, uint32_t b, uint32_t c)
{
    for (const char *p = name;; p++) {
        *h = (*h ^ (uint8_t)*p) * 0x100000001b3ull;
        if (!*p)
            break;
    }
    const uint32_t nums[3] = {a, b, c};
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 4; k++)
            *h = (*h ^ (uint8_t)(nums[i] >> (8 * k))) * 0x100000001b3ull;
}

uint32_t sgrt__snap_fingerprint(const sgrt_scene *s)
{
    uint64_t h = 0xcbf29ce484222325ull;
    print_part(&h, "sgrt snapshot", SGRT__SNAP_VERSION, SGRT__SNAP_SCALARS, 0u);
#define PRINT_ARRAY(name, type, kind)                                                  \
    print_part(&h, #name, (uint32_t)sizeof(type), SGRT__SCALAR_WIDTH(type), SGRT__DECL_##kind);
    SGRT__SLOT_ARRAYS(PRINT_ARRAY)
#undef PRINT_ARRAY
    for (uint32_t i = 0; i < s->follow_count; i++)
        for (uint32_t j = 0; j < s->follow[i]->field_count; j++) {
            const sgrt__state_field *f = &s->follow[i]->fields[j];
            print_part(&h, f->name, f->count, f->width, f->boolean);
        }
    for (uint32_t k = 0; k < s->decl_count; k++) {
        const sgrt__slot_decl *d = s->decl[k];
        if (!d->transient)
            print_part(&h, d->name, d->size, d->width, d->kind);
    }
    return (uint32_t)(h ^ h >> 32);
}

void sgrt__snap_swap_copy(void *dst, const void *src, size_t bytes, uint32_t width)
{
    if (sgrt__snap_native_le() || width <= 1u) {
        if (bytes)
            memcpy(dst, src, bytes);
        return;
    }
    /* Each scalar reversed: from native to little-endian and back (a
     * big-endian target: s390x). */
    uint8_t *d = dst;
    const uint8_t *p = src;
    for (size_t i = 0; i + width <= bytes; i += width)
        for (uint32_t b = 0; b < width; b++)
            d[i + b] = p[i + width - 1u - b];
}

const uint8_t *sgrt__snap_slots(const sgrt_scene *s, const sgrt__snapview *v,
                                const sgrt__follower *fl, const char *name)
{
    for (uint32_t k = 0; k < s->decl_count; k++) {
        const sgrt__slot_decl *d = s->decl[k];
        if (d >= fl->slots && d < fl->slots + fl->slot_count && same_name(d->name, name))
            return v->base + v->L.fol[k];
    }
    return NULL;
}

const uint8_t *sgrt__snap_state(const sgrt_scene *s, const sgrt__snapview *v,
                                const sgrt__follower *fl, const char *name)
{
    for (uint32_t i = 0; i < s->follow_count; i++) {
        if (s->follow[i] != fl)
            continue;
        uint64_t at = v->L.state[i];
        for (uint32_t j = 0; j < fl->field_count; j++) {
            if (same_name(fl->fields[j].name, name))
                return v->base + at;
            at += pad8((uint64_t)fl->fields[j].count * fl->fields[j].width);
        }
    }
    return NULL;
}

/* ---- sgrt_scene_snapshot ------------------------------------------------------ */

/* The layout of s now, or NOMEM reported for `function` when it does not
 * fit in size_t (a 32-bit target near the slot limit). */
static sgrt_result layout_now(const sgrt_scene *s, sgrt__snaplayout *L, const char *function)
{
    sgrt__snap_layout(s, s->slot_end, s->handle_used, s->free_count, L);
    return L->total <= (uint64_t)SIZE_MAX
               ? SGRT_OK
               : sgrt__fail(s, SGRT_ERR_NOMEM, function,
                            "the snapshot does not fit in size_t (a 32-bit target)",
                            SGRT_NULL_NODE);
}

/* The checksum (snapshot.h): XXH3 through the kernel table, the widest
 * this CPU runs (a snapshot being read has no scene to ask). */
uint64_t sgrt__snap_checksum(const void *p, size_t n)
{
    sgrt__kernels k;
    sgrt__kernels_init(&k, SGRT__LEVEL_MAX);
    return k.xxh3(p, n);
}

sgrt_result sgrt_scene_snapshot_size(const sgrt_scene *s, size_t *out_bytes)
{
    if (out_bytes)
        *out_bytes = 0;
    SGRT__ENTER_WRITE(s); /* the tasks of a parallel update write the worlds */
    SGRT__NOT_NULL(s, out_bytes, SGRT_NULL_NODE);
    sgrt__snaplayout L;
    const sgrt_result r = layout_now(s, &L, __func__);
    if (r == SGRT_OK)
        *out_bytes = (size_t)L.total;
    return r;
}

/* The padding after a part of `bytes` at p: zero, so that the same scene
 * gives the same bytes. */
static void zero_pad(uint8_t *p, size_t bytes)
{
    memset(p + bytes, 0, (size_t)(pad8(bytes) - bytes));
}

/* A part of `bytes` bytes of `width`-byte scalars, and its padding. */
static void put_part(uint8_t *p, const void *src, size_t bytes, uint32_t width)
{
    sgrt__snap_swap_copy(p, src, bytes, width);
    zero_pad(p, bytes);
}

/* Bits of slots [0, words * 32) (masked with alive when given). */
static void put_bits(uint8_t *out, const uint32_t *bits, const uint32_t *alive, uint32_t words)
{
    for (uint32_t w = 0; w < words; w++)
        sgrt__snap_put32(out + 4u * w, alive ? bits[w] & alive[w] : bits[w]);
    zero_pad(out, 4u * (size_t)words);
}

static void put_handles(const sgrt_scene *s, uint8_t *b, const sgrt__snaplayout *L)
{
    uint8_t *gens = b + L->gens;
    const uint32_t first = sgrt__handle_first_field(s);
    const sgrt__handle *table = s->handles;
    for (uint32_t h = 0; h < s->handle_used; h++)
        gens[h] = (uint8_t)sgrt__handle_ordinal_from(first, table[h].id);
    zero_pad(gens, s->handle_used);
    uint8_t *ring = b + L->ring;
    for (uint32_t f = 0; f < s->free_count; f++)
        sgrt__snap_put32(ring + 4u * f, s->free_ring[(s->free_head + f) % s->handle_cap]);
    zero_pad(ring, 4u * (size_t)s->free_count);
}

static void put_followers(const sgrt_scene *s, uint8_t *b, const sgrt__snaplayout *L)
{
    for (uint32_t i = 0; i < s->follow_count; i++) {
        uint8_t *at = b + L->state[i];
        const uint8_t *self = s->state[i];
        for (uint32_t j = 0; j < s->follow[i]->field_count; j++) {
            const sgrt__state_field *f = &s->follow[i]->fields[j];
            const size_t bytes = (size_t)f->count * f->width;
            put_part(at, self + f->at, bytes, f->width);
            at += pad8(bytes);
        }
    }
    for (uint32_t k = 0; k < s->decl_count; k++) {
        const sgrt__slot_decl *d = s->decl[k];
        if (d->transient)
            continue;
        if (d->kind == SGRT__DECL_BITS)
            put_bits(b + L->fol[k], s->st.fol[k], s->st.alive, L->words);
        else
            put_part(b + L->fol[k], s->st.fol[k], (size_t)L->slots * d->size, d->width);
    }
}

sgrt_result sgrt_scene_snapshot(const sgrt_scene *s, void *buf, size_t size, size_t *out_written)
{
    if (out_written)
        *out_written = 0;
    SGRT__ENTER_WRITE(s); /* the tasks of a parallel update write the worlds */
    SGRT__NOT_NULL(s, buf, SGRT_NULL_NODE);
    sgrt__snaplayout L;
    const sgrt_result r = layout_now(s, &L, __func__);
    if (r != SGRT_OK)
        return r;
    if (size < L.total) {
        if (out_written)
            *out_written = (size_t)L.total;
        return sgrt__fail(s, SGRT_ERR_INVALID_ARG, __func__,
                          "size is below the snapshot's size (sgrt_scene_snapshot_size; "
                          "*out_written receives it): nothing was written",
                          SGRT_NULL_NODE);
    }
    uint8_t *b = buf;
    memset(b, 0, SGRT__SNAP_HEADER);
    memcpy(b, "SGRTSNAP", 8);
    sgrt__snap_put32(b + 8, SGRT__SNAP_VERSION);
    sgrt__snap_put32(b + 12, SGRT__SNAP_HEADER);
    sgrt__snap_put64(b + 16, L.total);
    sgrt__snap_put32(b + 32, s->flags);
    sgrt__snap_put32(b + 36, sgrt__snap_fingerprint(s));
    sgrt__snap_put32(b + 40, s->node_count);
    sgrt__snap_put32(b + 44, s->slot_end);
    sgrt__snap_put32(b + 48, s->handle_used);
    sgrt__snap_put32(b + 52, s->free_count);
    /* The scalars. The first repaired node as its index and generation
     * ordinal: the id's scramble is the scene's own. */
    uint8_t *sc = b + L.scalars;
    memset(sc, 0, 4u * SGRT__SNAP_SCALARS);
    const uint32_t rid = s->repaired_first.id;
    sgrt__snap_put32(sc, s->close_from);
    sgrt__snap_put32(sc + 4, s->pending_inner);
    sgrt__snap_put32(sc + 8, s->repaired[0]);
    sgrt__snap_put32(sc + 12, rid ? (rid ^ s->salt) & SGRT__INDEX_MASK : SGRT__NONE);
    sgrt__snap_put32(sc + 16, rid ? sgrt__handle_ordinal(s, rid) : 0u);
    put_bits(b + L.alive, s->st.alive, NULL, L.words);
    put_bits(b + L.dirty, s->st.dirty, NULL, L.words);
    put_bits(b + L.inner, s->st.inner, NULL, L.words);
#define PUT_ARRAY(name, type, kind)                                                    \
    put_part(b + L.name, s->st.name, (size_t)L.slots * sizeof(type), SGRT__SCALAR_WIDTH(type));
    SGRT__SLOT_ARRAYS(PUT_ARRAY)
#undef PUT_ARRAY
    put_handles(s, b, &L);
    put_followers(s, b, &L);
    sgrt__snap_put64(b + 24, sgrt__snap_checksum(b + 32, (size_t)L.total - 32u));
    if (out_written)
        *out_written = (size_t)L.total;
    return SGRT_OK;
}
