/* SPDX-License-Identifier: MIT */
/* Snapshots, the checking side: a buffer is taken only when it is a
 * snapshot of this format and layout, whole (its checksum matches), and
 * holds a scene that keeps every invariant sgrt_scene_check verifies: every
 * count, link, slot and handle in range and consistent, and the followers'
 * declared state as their checks want it (follow.h: snapshot_check). All
 * of it is read in place, before anything of the scene changes; a hostile
 * buffer with a right checksum is refused as a corrupted one is. */
#include "snapshot.h"
#include "follow.h"

/* ---- the header ---------------------------------------------------------------- */

const char *sgrt__snap_head(const void *buf, size_t size, sgrt__snapview *v)
{
    const uint8_t *b = buf;
    memset(v, 0, sizeof *v);
    v->base = b;
    if (size < SGRT__SNAP_HEADER)
        return "size is below a snapshot's header (64 bytes): the snapshot is truncated";
    if (memcmp(b, "SGRTSNAP", 8) != 0)
        return "buf is not a snapshot (no SGRTSNAP mark at its start)";
    if (sgrt__snap_u32(b + 8, 0) != SGRT__SNAP_VERSION)
        return "buf is a snapshot of another format version: this library reads version 1";
    const uint64_t total = sgrt__snap_u64(b + 16, 0);
    if (sgrt__snap_u32(b + 12, 0) != SGRT__SNAP_HEADER || total < SGRT__SNAP_HEADER)
        return "buf's header is corrupted (its header or total size)";
    if (total > (uint64_t)size)
        return "size is below the size buf's header gives: the snapshot is truncated";
    if (sgrt__snap_checksum(b + 32, (size_t)total - 32u) != sgrt__snap_u64(b + 24, 0))
        return "buf's checksum does not match its contents: the snapshot is corrupted";
    v->flags = sgrt__snap_u32(b + 32, 0);
    v->node_count = sgrt__snap_u32(b + 40, 0);
    v->slot_end = sgrt__snap_u32(b + 44, 0);
    v->handle_used = sgrt__snap_u32(b + 48, 0);
    v->free_count = sgrt__snap_u32(b + 52, 0);
    v->words = (uint32_t)(((uint64_t)v->slot_end + 31u) / 32u);
    /* What scene creation would take: known flags, subtree boxes with boxes. */
    if ((v->flags & ~(uint32_t)SGRT__SCENE_FLAGS) ||
        ((v->flags & SGRT_SCENE_SUBTREE_BOUNDS) && !(v->flags & SGRT_SCENE_BOUNDS)))
        return "buf's scene flags are no scene's";
    if (sgrt__snap_u32(b + 56, 0) || sgrt__snap_u32(b + 60, 0) ||
        v->slot_end > SGRT__MAX_SLOTS || v->node_count > v->slot_end ||
        v->node_count > SGRT_MAX_NODES || v->handle_used > SGRT__INDEX_MASK + 1u ||
        v->free_count > v->handle_used || v->node_count != v->handle_used - v->free_count)
        return "buf's counts are inconsistent (nodes, slots, handle indices)";
    /* The counts are bounded by the bytes they need: what a load allocates
     * for them is in proportion to size. */
    if ((uint64_t)v->slot_end * SGRT__SNAP_SLOT_BYTES + v->handle_used + 4u * (uint64_t)v->free_count >
        total)
        return "buf's counts need more bytes than it has";
    return NULL;
}

/* ---- the scene it holds ---------------------------------------------------------- */

static const char *check_bits(const sgrt__snapview *v)
{
    uint32_t live = 0;
    for (uint32_t w = 0; w < v->words; w++) {
        const uint32_t a = sgrt__snap_u32(v->alive, w);
        if ((sgrt__snap_u32(v->dirty, w) | sgrt__snap_u32(v->inner, w)) & ~a)
            return "buf: dirty and inner bits only on live slots";
        live += sgrt__popcount32(a);
    }
    if (v->slot_end % 32u && (sgrt__snap_u32(v->alive, v->words - 1u) >> (v->slot_end % 32u)))
        return "buf: no live slot at or past its slot count";
    if (live != v->node_count)
        return "buf: its live slots are its node count";
    if (v->slot_end && !sgrt__snap_bit(v->alive, v->slot_end - 1u))
        return "buf: its last slot is live";
    if (v->close_from != SGRT__NONE && v->close_from >= SGRT__MAX_SLOTS)
        return "buf: its closure start is a slot or none";
    if ((v->close_from == SGRT__NONE) != (v->pending_inner == 0u))
        return "buf: a closure pending has a start and a count";
    if ((v->repaired_count == 0u) != (v->repaired_index == SGRT__NONE) ||
        (v->repaired_index != SGRT__NONE &&
         (v->repaired_index >= v->handle_used || v->repaired_ordinal >= SGRT__GEN_PERIOD)) ||
        (v->repaired_index == SGRT__NONE && v->repaired_ordinal))
        return "buf: its repaired locals' first node is a handle of it, or none with none";
    return NULL;
}

/* Marks handle index h (marks: one bit per index); false when it was. */
static bool mark(uint32_t *marks, uint32_t h)
{
    const uint32_t bit = 1u << (h & 31u);
    if (marks[h >> 5] & bit)
        return false;
    marks[h >> 5] |= bit;
    return true;
}

/* The links and the handle of live slot i: in range and live, parents
 * before children, a first child with no previous sibling, each next
 * sibling a sibling that links back, dirty closure as sgrt_scene_check has
 * it. With every live node then counted on a list (check_lists), each
 * list from a first child is a simple path holding each child once, so
 * every previous-sibling link is the one that links to it, and the parent's
 * first child is the one with none. */
static const char *check_slot(const sgrt__snapview *v, uint32_t i, uint32_t *marks)
{
    const uint32_t p = sgrt__snap_u32(v->parent, i);
    const uint32_t fc = sgrt__snap_u32(v->first_child, i);
    const uint32_t ns = sgrt__snap_u32(v->next_sibling, i);
    const uint32_t ps = sgrt__snap_u32(v->prev_sibling, i); /* roots' only */
    if (p != SGRT__NONE && (p >= i || !sgrt__snap_bit(v->alive, p)))
        return "buf: each parent is live and stored before its children";
    if (sgrt__snap_bit(v->inner, i) != (fc != SGRT__NONE))
        return "buf: inner bits set iff the slot has a child";
    if (fc != SGRT__NONE &&
        (!sgrt__snap_live(v, fc) || sgrt__snap_u32(v->parent, fc) != i ||
         sgrt__snap_u32(v->prev_sibling, fc) != SGRT__NONE))
        return "buf: a first child is a live child with no previous sibling";
    if (p == SGRT__NONE && (ns != SGRT__NONE || ps != SGRT__NONE))
        return "buf: roots have no siblings";
    /* Forward links only: with these, a node whose previous sibling is not
     * the one that links to it is on no list, which check_lists counts. */
    if (ns != SGRT__NONE && (!sgrt__snap_live(v, ns) || sgrt__snap_u32(v->parent, ns) != p ||
                             sgrt__snap_u32(v->prev_sibling, ns) != i))
        return "buf: sibling links are symmetric";
    if (p != SGRT__NONE && sgrt__snap_bit(v->dirty, p) && !sgrt__snap_bit(v->dirty, i) &&
        (v->close_from == SGRT__NONE || i <= v->close_from))
        return "buf: dirty closure (a child of a dirty node is dirty or after the closure start)";
    const uint32_t h = sgrt__snap_u32(v->slot_handle, i);
    if (h >= v->handle_used || !mark(marks, h))
        return "buf: each live slot has a handle index of its own";
    return NULL;
}

/* Every live node is a root or on its parent's list, each list a path: the
 * local checks make each list from a first child a simple path, so counting
 * what they hold finds the cycles they leave out. */
static const char *check_lists(const sgrt__snapview *v)
{
    uint64_t listed = 0;
    for (uint32_t w = 0; w < v->words; w++)
        for (uint32_t a = sgrt__snap_u32(v->alive, w); a; a &= a - 1u) {
            const uint32_t i = w * 32u + sgrt__ctz32(a);
            if (sgrt__snap_u32(v->parent, i) == SGRT__NONE)
                listed++;
            for (uint32_t c = sgrt__snap_u32(v->first_child, i); c != SGRT__NONE;
                 c = sgrt__snap_u32(v->next_sibling, c))
                if (++listed > v->node_count)
                    return "buf: every live node is a root or on its parent's child list";
        }
    return listed == v->node_count ? NULL
                                   : "buf: every live node is a root or on its parent's child list";
}

static const char *check_handles(const sgrt__snapview *v, uint32_t *marks)
{
    for (uint32_t h = 0; h < v->handle_used; h++)
        if (v->gens[h] >= SGRT__GEN_PERIOD)
            return "buf: handle generations are below 255";
    for (uint32_t f = 0; f < v->free_count; f++) {
        const uint32_t h = sgrt__snap_u32(v->ring, f);
        if (h >= v->handle_used || !mark(marks, h))
            return "buf: its free handle indices are those no live slot has";
    }
    return NULL; /* live + free = used, none twice: every index once */
}

/* The followers' declared state: links in range on live slots, bits only on
 * live slots, booleans 0 or 1; then each follower's own check. */
static const char *check_declared(const sgrt_scene *s, const sgrt__snapview *v)
{
    for (uint32_t k = 0; k < s->decl_count; k++) {
        const sgrt__slot_decl *d = s->decl[k];
        const uint8_t *f = v->base + v->L.fol[k];
        if (d->transient)
            continue;
        if (d->kind == SGRT__DECL_BITS) {
            for (uint32_t w = 0; w < v->words; w++)
                if (sgrt__snap_u32(f, w) & ~sgrt__snap_u32(v->alive, w))
                    return "buf: declared bitfields only on live slots";
        } else if (d->kind == SGRT__DECL_LINK) {
            for (uint32_t i = 0; i < v->slot_end; i++) {
                const uint32_t l = sgrt__snap_u32(f, i);
                if (sgrt__snap_bit(v->alive, i) && l != SGRT__NONE && !sgrt__snap_live(v, l))
                    return "buf: declared links of live slots name live slots";
            }
        }
    }
    for (uint32_t i = 0; i < s->follow_count; i++)
        for (uint32_t j = 0; j < s->follow[i]->field_count; j++) {
            const sgrt__state_field *f = &s->follow[i]->fields[j];
            const uint8_t *at = sgrt__snap_state(s, v, s->follow[i], f->name);
            for (uint32_t e = 0; f->boolean && e < f->count; e++)
                if (at[e] > 1u)
                    return "buf: declared booleans are 0 or 1";
        }
    return sgrt__follow_snapshot_check(s, v);
}

/* Whether the padding after `bytes` at offset `at` is zero. */
static bool padded(const sgrt__snapview *v, uint64_t at, uint64_t bytes)
{
    for (uint64_t i = at + bytes; i % 8u; i++)
        if (v->base[i])
            return false;
    return true;
}

/* Every part's padding is zero: the writer's bytes are the only encoding of
 * a scene (a restored scene snapshots its buffer again, byte for byte). */
static const char *check_pads(const sgrt_scene *s, const sgrt__snapview *v)
{
    const sgrt__snaplayout *L = &v->L;
    const uint64_t bits = 4u * (uint64_t)L->words;
    bool ok = padded(v, L->alive, bits) && padded(v, L->dirty, bits) && padded(v, L->inner, bits);
#define PAD_ARRAY(name, type, kind) ok = ok && padded(v, L->name, (uint64_t)L->slots * sizeof(type));
    SGRT__SLOT_ARRAYS(PAD_ARRAY)
#undef PAD_ARRAY
    ok = ok && padded(v, L->gens, L->handles) && padded(v, L->ring, 4u * (uint64_t)L->free);
    for (uint32_t i = 0; ok && i < s->follow_count; i++) {
        uint64_t at = L->state[i];
        for (uint32_t j = 0; ok && j < s->follow[i]->field_count; j++) {
            const sgrt__state_field *f = &s->follow[i]->fields[j];
            const uint64_t bytes = (uint64_t)f->count * f->width;
            ok = padded(v, at, bytes);
            at = (at + bytes + 7u) & ~(uint64_t)7u;
        }
    }
    for (uint32_t k = 0; ok && k < s->decl_count; k++)
        ok = s->decl[k]->transient ||
             padded(v, L->fol[k],
                    s->decl[k]->kind == SGRT__DECL_BITS ? bits
                                                        : (uint64_t)L->slots * s->decl[k]->size);
    return ok ? NULL : "buf: padding between its parts is not zero";
}

const char *sgrt__snap_validate(const sgrt_scene *s, sgrt__snapview *v, uint32_t *marks,
                                sgrt_result *code)
{
    *code = SGRT_ERR_SNAPSHOT;
    const char *why;
    const uint8_t *b = v->base;
    if (v->flags != s->flags)
        return "buf is a snapshot of a scene with other SGRT_SCENE_* flags";
    if (sgrt__snap_u32(b + 36, 0) != sgrt__snap_fingerprint(s))
        return "buf's layout is another library's (its followers declare other state)";
    sgrt__snap_layout(s, v->slot_end, v->handle_used, v->free_count, &v->L);
    if (v->L.total != sgrt__snap_u64(b + 16, 0))
        return "buf's size is not what its counts and layout give";
    if (v->node_count > s->max_nodes) {
        *code = SGRT_ERR_CAPACITY;
        return "buf holds more nodes than the scene's max_nodes";
    }
    const uint8_t *sc = b + v->L.scalars;
    v->close_from = sgrt__snap_u32(sc, 0);
    v->pending_inner = sgrt__snap_u32(sc, 1);
    v->repaired_count = sgrt__snap_u32(sc, 2);
    v->repaired_index = sgrt__snap_u32(sc, 3);
    v->repaired_ordinal = sgrt__snap_u32(sc, 4);
    if (sgrt__snap_u32(sc, 5))
        return "buf: its reserved scalar is not 0";
    v->alive = b + v->L.alive;
    v->dirty = b + v->L.dirty;
    v->inner = b + v->L.inner;
#define VIEW_ARRAY(name, type, kind) v->name = b + v->L.name;
    SGRT__SLOT_ARRAYS(VIEW_ARRAY)
#undef VIEW_ARRAY
    v->gens = b + v->L.gens;
    v->ring = b + v->L.ring;
    if ((why = check_pads(s, v)) != NULL || (why = check_bits(v)) != NULL)
        return why;
    memset(marks, 0, (size_t)sgrt__snap_mark_words(v) * sizeof(uint32_t));
    for (uint32_t w = 0; w < v->words; w++)
        for (uint32_t a = sgrt__snap_u32(v->alive, w); a; a &= a - 1u)
            if ((why = check_slot(v, w * 32u + sgrt__ctz32(a), marks)) != NULL)
                return why;
    if ((why = check_lists(v)) != NULL || (why = check_handles(v, marks)) != NULL)
        return why;
    return check_declared(s, v);
}
