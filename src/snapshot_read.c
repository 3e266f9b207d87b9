/* SPDX-License-Identifier: MIT */
/* Snapshots, the reading side: sgrt_scene_restore and sgrt_scene_load. The
 * whole buffer is checked first (snapshot_check.c), then the scene grows
 * if it must (the only step that can fail, and it changes nothing that a
 * call can see when it does), then every part is written in place: no
 * allocation when the scene holds the snapshot's slots and handles. What a
 * restore changes for a reader is gathered on the way (the slots whose
 * node, world, liveness or tracked state differ), so that the objects stay
 * true through the seam's `restored` event (follow.h). */
#include "snapshot.h"
#include "alloc.h"
#include "args.h"
#include "follow.h"
#include "handles.h"
#include "result.h"
#include "scene.h"
#include "storage.h"

/* Whether n bytes at a (native) and at b (little-endian) hold the same
 * scalars of `width` bytes: one pass of 64-bit words on little-endian
 * targets (n a multiple of 8 there: matrices), a decoding elsewhere. */
static bool same_scalars(const void *a, const uint8_t *b, uint32_t n, uint32_t width)
{
    if (sgrt__snap_native_le() && n % 8u == 0) {
        uint64_t diff = 0;
        for (uint32_t k = 0; k < n; k += 8) {
            uint64_t x, y;
            memcpy(&x, (const uint8_t *)a + k, 8);
            memcpy(&y, b + k, 8);
            diff |= x ^ y;
        }
        return diff == 0;
    }
    uint8_t now[64];
    for (uint32_t at = 0; at < n; at += sizeof now) {
        const uint32_t k = n - at < sizeof now ? n - at : (uint32_t)sizeof now;
        sgrt__snap_swap_copy(now, b + at, k, width);
        if (memcmp(now, (const uint8_t *)a + at, k) != 0)
            return false;
    }
    return true;
}

/* A world from the snapshot's part (little-endian at p) into `world`;
 * whether it differs from the one there. */
static inline bool take_world(float world[16], const uint8_t *p)
{
    if (sgrt__snap_native_le()) {
        /* Written only when it differs: an unchanged line is not made
         * dirty (nothing to write back to memory). */
        uint64_t was[8], now[8], diff = 0;
        memcpy(was, world, sizeof was);
        memcpy(now, p, sizeof now);
        for (uint32_t k = 0; k < 8u; k++)
            diff |= was[k] ^ now[k];
        if (diff)
            memcpy(world, now, sizeof now);
        return diff != 0;
    }
    float now[16];
    sgrt__snap_swap_copy(now, p, sizeof now, 4u);
    const bool differs = memcmp(now, world, sizeof now) != 0;
    memcpy(world, now, sizeof now);
    return differs;
}

/* What the comparison of a restore needs at hand. */
typedef struct compare {
    uint32_t first, salt;
    uint32_t tracked[SGRT__FOLLOW_SLOTS], tracked_count; /* declarations readers see */
} compare;

/* Whether live slot i (live before and in the snapshot) shows another
 * value of a field readers see (follow.h: tracked). */
static bool tracked_changed(const sgrt_scene *s, const sgrt__snapview *v, const compare *c,
                            uint32_t i)
{
    const sgrt__storage *st = &s->st;
    for (uint32_t t = 0; t < c->tracked_count; t++) {
        const uint32_t k = c->tracked[t];
        const sgrt__slot_decl *d = s->decl[k];
        const uint8_t *f = v->base + v->L.fol[k];
        if (d->kind == SGRT__DECL_BITS) {
            if (sgrt__bit_get(st->fol[k], i) != sgrt__snap_bit(f, i))
                return true;
        } else if (!same_scalars((const uint8_t *)st->fol[k] + (size_t)i * d->size,
                                 f + (size_t)i * d->size, d->size, d->width)) {
            return true;
        }
    }
    return false;
}

/* Bits of `words` words from the snapshot's part p into bits (and its
 * summary, when given), the scene's words past them cleared up to `clear`. */
static void take_bits(uint32_t *bits, uint32_t *sum, uint32_t sum_words, const uint8_t *p,
                      uint32_t words, uint32_t clear)
{
    for (uint32_t w = 0; w < words; w++)
        bits[w] = sgrt__snap_u32(p, w);
    if (clear > words)
        memset(bits + words, 0, (size_t)(clear - words) * sizeof *bits);
    if (sum) {
        memset(sum, 0, (size_t)sum_words * sizeof *sum);
        for (uint32_t w = 0; w < words; w++)
            if (bits[w])
                sgrt__bit_set(sum, w);
    }
}

/* Pass one, word by word: which slots the restore changes for a reader
 * (into changed, the scratch area), and the worlds, written right after
 * their word was compared while both are in cache. */
static void take_worlds(sgrt_scene *s, const sgrt__snapview *v, uint32_t *changed)
{
    sgrt__storage *st = &s->st;
    const uint32_t old_words = (s->slot_end + 31u) / 32u;
    const uint32_t words = old_words > v->words ? old_words : v->words;
    compare c = {sgrt__handle_first_field(s), s->salt, {0}, 0};
    for (uint32_t k = 0; k < s->decl_count; k++)
        if (s->decl[k]->tracked)
            c.tracked[c.tracked_count++] = k;
    memset(changed, 0, (size_t)st->words * sizeof *changed);
    for (uint32_t w = 0; w < words; w++) {
        const uint32_t was = st->alive[w], now = w < v->words ? sgrt__snap_u32(v->alive, w) : 0u;
        uint32_t ch = was ^ now, both = was & now;
        if (w < v->words) {
            /* Each world compared and written in one pass over its line. */
            const uint32_t n = v->slot_end - 32u * w < 32u ? v->slot_end - 32u * w : 32u;
            for (uint32_t j = 0; j < n; j++) {
                const uint32_t i = 32u * w + j;
                const uint8_t *p = v->world + 64u * (size_t)i;
                /* Compared only where a node lives on: a slot dead before
                 * holds what its last node left, or nothing yet. */
                if (!(both >> j & 1u))
                    sgrt__snap_swap_copy(st->world[i], p, 64u, 4u);
                else if (take_world(st->world[i], p))
                    ch |= 1u << j;
            }
        }
        /* Another node: another index in the slot, or its next generation
         * (the old table is intact until take_handles). */
        both &= ~ch;
        uint32_t same = both;
        SGRT__FOR_EACH_IN_WORD(w, both, i,
            const uint32_t h = sgrt__snap_u32(v->slot_handle, i);
            if (st->slot_handle[i] != h ||
                s->handles[h].id != sgrt__handle_id_from(c.first, c.salt, h, v->gens[h]))
                ch |= 1u << (i & 31u);
        )
        same &= ~ch;
        if (c.tracked_count)
            SGRT__FOR_EACH_IN_WORD(w, same, i,
                if (tracked_changed(s, v, &c, i))
                    ch |= 1u << (i & 31u);
            )
        changed[w] = ch;
    }
}

static void take_handles(sgrt_scene *s, const sgrt__snapview *v)
{
    const uint32_t first = sgrt__handle_first_field(s), salt = s->salt;
    sgrt__handle *const table = s->handles;
    const uint32_t *const slot_handle = s->st.slot_handle;
    for (uint32_t h = 0; h < v->handle_used; h++) {
        table[h].id = sgrt__handle_id_from(first, salt, h, v->gens[h]);
        table[h].slot = SGRT__NONE;
    }
    SGRT__FOR_EACH_BIT(s->st.alive, v->words, i, table[slot_handle[i]].slot = i;)
    for (uint32_t f = 0; f < v->free_count; f++)
        s->free_ring[f] = sgrt__snap_u32(v->ring, f);
    s->free_head = 0;
    s->free_count = v->free_count;
    s->handle_used = v->handle_used;
}

static void take_followers(sgrt_scene *s, const sgrt__snapview *v)
{
    sgrt__storage *st = &s->st;
    for (uint32_t i = 0; i < s->follow_count; i++)
        for (uint32_t j = 0; j < s->follow[i]->field_count; j++) {
            const sgrt__state_field *f = &s->follow[i]->fields[j];
            sgrt__snap_swap_copy((uint8_t *)s->state[i] + f->at,
                                 sgrt__snap_state(s, v, s->follow[i], f->name),
                                 (size_t)f->count * f->width, f->width);
        }
    for (uint32_t k = 0; k < s->decl_count; k++) {
        const sgrt__slot_decl *d = s->decl[k];
        const uint8_t *p = v->base + v->L.fol[k];
        if (d->transient)
            continue; /* its follower's restored hook builds it */
        if (d->kind == SGRT__DECL_BITS)
            take_bits(st->fol[k], st->fol_sum[k], st->sum_words, p, v->words, st->words);
        else
            sgrt__snap_swap_copy(st->fol[k], p, (size_t)v->slot_end * d->size, d->width);
    }
}

/* Everything, in place: the scene grew to hold it already. */
static void take_all(sgrt_scene *s, const sgrt__snapview *v)
{
    sgrt__storage *st = &s->st;
    uint32_t *changed = st->scratch;
    /* Before anything else: the comparisons read the scene as it was. */
    take_worlds(s, v, changed);
    const uint32_t old_words = (s->slot_end + 31u) / 32u;
    take_bits(st->alive, NULL, 0, v->alive, v->words, old_words);
    take_bits(st->dirty, st->dirty_sum, st->sum_words, v->dirty, v->words, old_words);
    take_bits(st->inner, NULL, 0, v->inner, v->words, old_words);
    memset(st->alive_full, 0, (size_t)st->sum_words * sizeof *st->alive_full);
    for (uint32_t w = 0; w < v->words; w++)
        if (st->alive[w] == ~0u)
            sgrt__bit_set(st->alive_full, w);
#define TAKE_ARRAY(name, type, kind)                                                   \
    if ((const void *)v->name != (const void *)v->world)                               \
        sgrt__snap_swap_copy(st->name, v->name, (size_t)v->slot_end * sizeof(type),    \
                             SGRT__SCALAR_WIDTH(type));
    SGRT__SLOT_ARRAYS(TAKE_ARRAY)
#undef TAKE_ARRAY
    take_handles(s, v);
    take_followers(s, v);
    s->node_count = v->node_count;
    s->slot_end = v->slot_end;
    s->holes = v->slot_end - v->node_count;
    s->close_from = v->close_from;
    s->pending_inner = v->pending_inner;
    s->repaired[0] = v->repaired_count;
    s->repaired[1] = 0;
    s->repaired_first.id = v->repaired_index == SGRT__NONE
                               ? 0u
                               : sgrt__handle_id_at(s, v->repaired_index, v->repaired_ordinal);
    /* Every slot may hold another node: writers resolve theirs again, the
     * parallel update plans again. */
    s->slots_version++;
    s->structure_version++;
    sgrt__follow_restored(s, changed);
}

/* The scene made to hold the snapshot's slots and handles: the handle
 * table first (nothing a call sees), then storage (a failed growth
 * changes nothing). */
static sgrt_result make_room(sgrt_scene *s, const sgrt__snapview *v)
{
    const sgrt_result r = sgrt__handles_fit(s, v->handle_used);
    return r == SGRT_OK ? sgrt__storage_ensure(s, v->slot_end) : r;
}

static sgrt_result restore_into(sgrt_scene *s, const void *buf, size_t size, const char *function)
{
    sgrt__snapview v;
    const char *why = sgrt__snap_head(buf, size, &v);
    if (why)
        return sgrt__fail(s, SGRT_ERR_SNAPSHOT, function, why, SGRT_NULL_NODE);
    /* The marks of the handle check: in the scratch area when it holds
     * them (2 x capacity words; a scene compacted far below the handles it
     * ever had may not), else in a block of their own. */
    const uint32_t words = sgrt__snap_mark_words(&v);
    uint32_t *marks = s->st.scratch;
    size_t own = 0;
    sgrt_result code;
    if (words > 2u * (uint64_t)s->st.cap) {
        own = (size_t)words * sizeof *marks;
        marks = sgrt__alloc(&s->alloc, own, 64, &code);
        if (!marks)
            return sgrt__fail_grow(s, code, function, SGRT_NULL_NODE);
    }
    why = sgrt__snap_validate(s, &v, marks, &code);
    if (own)
        sgrt__free(&s->alloc, marks, own);
    if (why)
        return sgrt__fail(s, code, function, why, SGRT_NULL_NODE);
    code = make_room(s, &v);
    if (code != SGRT_OK)
        return sgrt__fail_grow(s, code, function, SGRT_NULL_NODE);
    take_all(s, &v);
    return SGRT_OK;
}

sgrt_result sgrt_scene_restore(sgrt_scene *s, const void *buf, size_t size)
{
    SGRT__ENTER_WRITE(s);
    SGRT__NOT_NULL(s, buf, SGRT_NULL_NODE);
    return restore_into(s, buf, size, __func__);
}

sgrt_result sgrt_scene_load(const sgrt_scene_desc *desc, const void *buf, size_t size,
                            sgrt_scene **out)
{
    static const char fn[] = "sgrt_scene_load";
    static const sgrt_scene_desc defaults = {0};
    if (!desc)
        desc = &defaults;
    if (!out || !buf) {
        sgrt__report(desc->log, desc->log_user, SGRT_ERR_INVALID_ARG, fn,
                     !out ? "out is NULL" : "buf is NULL", SGRT_NULL_NODE);
        return SGRT_ERR_INVALID_ARG;
    }
    /* The header first: nothing is allocated for a buffer that is not a
     * whole snapshot, and what is allocated is in proportion to size. */
    sgrt__snapview v;
    const char *why = sgrt__snap_head(buf, size, &v);
    if (why) {
        sgrt__report(desc->log, desc->log_user, SGRT_ERR_SNAPSHOT, fn, why, SGRT_NULL_NODE);
        return SGRT_ERR_SNAPSHOT;
    }
    const uint32_t asked = desc->flags & SGRT_SCENE_SUBTREE_BOUNDS
                               ? desc->flags | SGRT_SCENE_BOUNDS
                               : desc->flags;
    if (desc->flags && asked != v.flags) {
        sgrt__report(desc->log, desc->log_user, SGRT_ERR_INVALID_ARG, fn,
                     "desc->flags are not the snapshot's (0 takes the snapshot's flags)",
                     SGRT_NULL_NODE);
        return SGRT_ERR_INVALID_ARG;
    }
    sgrt_scene_desc d = *desc;
    d.flags = v.flags;
    sgrt_scene *s = NULL;
    sgrt_result r = sgrt__scene_create_as(&d, sgrt__followers, fn, &s);
    if (r != SGRT_OK)
        return r;
    r = restore_into(s, buf, size, fn);
    if (r != SGRT_OK) {
        sgrt_scene_destroy(s);
        return r;
    }
    *out = s;
    return SGRT_OK;
}
