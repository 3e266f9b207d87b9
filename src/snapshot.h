/* SPDX-License-Identifier: MIT */
/* Snapshots (snapshot.c writes them, snapshot_check.c validates them,
 * snapshot_read.c restores and loads them): the format's layout, which the
 * writer and the reader compute alike from a scene's declarations and a
 * header's counts, little-endian scalars, and a snapshot's contents read in
 * place (sgrt__snapview), which the followers' snapshot_check hooks read
 * (follow.h).
 *
 * The format, version 1, every scalar little-endian, every part starting
 * on 8 bytes from the start of the buffer:
 *   header (64 bytes): "SGRTSNAP", version, header bytes, total bytes, the
 *     checksum (XXH3-64 of bytes [32, total)), the scene's flags, the
 *     layout's fingerprint, node count, slot count (slot_end), handle
 *     indices handed out, free indices, two reserved words (0);
 *   the scene's scalars: close_from, pending_inner, the repaired locals'
 *     count and first node (index, generation ordinal), one reserved word;
 *   the core's bitfields alive, dirty, inner: (slots + 31) / 32 words each;
 *   the core's per-slot arrays (SGRT__SLOT_ARRAYS, in its order), slots
 *     [0, slot_end) each, dead slots as they are;
 *   the handle table: one generation ordinal (a byte) per index handed
 *     out, then the free indices in the order they will be reused;
 *   each attached follower's declared scene-level fields (follow.h:
 *     sgrt__state_field), in attach order, each on 8 bytes;
 *   each declared per-slot field (s->decl order): DATA and LINK for slots
 *     [0, slot_end), BITS as words masked with alive. */
#ifndef SGRT_SNAPSHOT_H
#define SGRT_SNAPSHOT_H

#include "follow.h"
#include <string.h>

#define SGRT__SNAP_VERSION 1u
#define SGRT__SNAP_HEADER 64u
#define SGRT__SNAP_SCALARS 6u /* u32 words */
/* Bytes a slot takes in every snapshot at least (the core's arrays): the
 * bound that keeps what a load allocates in proportion to its buffer. */
#define SGRT__SNAP_SLOT_BYTES (2u * 64u + 8u + 5u * 4u)

/* Where each part lies, in bytes from the start (64-bit: a hostile
 * header's counts cannot wrap), for `slots` slots, `words` bitfield words,
 * `handles` indices and `free` free ones. */
typedef struct sgrt__snaplayout {
    uint32_t slots, words, handles, free;
    uint64_t scalars, alive, dirty, inner;
#define SGRT__SNAP_ARRAY_AT(name, type, kind) uint64_t name;
    SGRT__SLOT_ARRAYS(SGRT__SNAP_ARRAY_AT)
#undef SGRT__SNAP_ARRAY_AT
    uint64_t gens, ring;
    uint64_t state[SGRT__FOLLOWERS]; /* each attached follower's fields */
    uint64_t fol[SGRT__FOLLOW_SLOTS]; /* each of s->decl */
    uint64_t total;
} sgrt__snaplayout;

void sgrt__snap_layout(const sgrt_scene *s, uint32_t slots, uint32_t handles, uint32_t free,
                       sgrt__snaplayout *L);
/* A fingerprint of what the layout is made of for s: the core's arrays and
 * the declarations of its followers (names, kinds, sizes, widths), so that
 * a snapshot of a library whose followers declare other state is refused. */
uint32_t sgrt__snap_fingerprint(const sgrt_scene *s);
/* The checksum: XXH3-64 of n bytes (snapshot.c, through the kernel table). */
uint64_t sgrt__snap_checksum(const void *p, size_t n);

/* Little-endian scalars, whatever the target. */
static inline uint32_t sgrt__snap_u32(const uint8_t *p, size_t i)
{
    p += 4u * i;
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline uint64_t sgrt__snap_u64(const uint8_t *p, size_t i)
{
    return (uint64_t)sgrt__snap_u32(p, 2u * i) | (uint64_t)sgrt__snap_u32(p, 2u * i + 1u) << 32;
}
static inline float sgrt__snap_f32(const uint8_t *p, size_t i)
{
    const uint32_t u = sgrt__snap_u32(p, i);
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}
static inline double sgrt__snap_f64(const uint8_t *p, size_t i)
{
    const uint64_t u = sgrt__snap_u64(p, i);
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
}
static inline bool sgrt__snap_bit(const uint8_t *words, uint32_t i)
{
    return (sgrt__snap_u32(words, i >> 5) >> (i & 31u)) & 1u;
}
static inline void sgrt__snap_put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}
static inline void sgrt__snap_put64(uint8_t *p, uint64_t v)
{
    sgrt__snap_put32(p, (uint32_t)v);
    sgrt__snap_put32(p + 4, (uint32_t)(v >> 32));
}
/* Whether the target stores scalars little-endian (then a snapshot's
 * parts are copies of the arrays). */
static inline bool sgrt__snap_native_le(void)
{
#if (defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__) || defined(_MSC_VER)
    return true; /* every target MSVC builds for is little-endian */
#else
    return false;
#endif
}
/* `bytes` of scalars `width` bytes wide between native and little-endian
 * order (the same conversion both ways): a copy on little-endian targets. */
void sgrt__snap_swap_copy(void *dst, const void *src, size_t bytes, uint32_t width);

/* A snapshot's contents in place, for a scene s whose declarations it was
 * laid out with: the header's counts, the scalars decoded, every part's
 * bytes. */
typedef struct sgrt__snapview {
    const uint8_t *base;
    sgrt__snaplayout L;
    uint32_t flags, node_count, slot_end, words, handle_used, free_count;
    uint32_t close_from, pending_inner, repaired_count, repaired_index, repaired_ordinal;
    const uint8_t *alive, *dirty, *inner;
#define SGRT__SNAP_ARRAY_PTR(name, type, kind) const uint8_t *name;
    SGRT__SLOT_ARRAYS(SGRT__SNAP_ARRAY_PTR)
#undef SGRT__SNAP_ARRAY_PTR
    const uint8_t *gens, *ring;
} sgrt__snapview;

/* For the followers' snapshot_check: the bytes of follower fl's per-slot
 * field `name` in v (slot i's element at i * its size; BITS: words), NULL
 * when s does not lay it out; of its scene-level field `name`, NULL when
 * fl is not attached to s. */
const uint8_t *sgrt__snap_slots(const sgrt_scene *s, const sgrt__snapview *v,
                                const sgrt__follower *fl, const char *name);
const uint8_t *sgrt__snap_state(const sgrt_scene *s, const sgrt__snapview *v,
                                const sgrt__follower *fl, const char *name);
/* Whether slot i of v holds a live node. */
static inline bool sgrt__snap_live(const sgrt__snapview *v, uint32_t i)
{
    return i < v->slot_end && sgrt__snap_bit(v->alive, i);
}

/* snapshot_check.c. sgrt__snap_head: NULL when buf (size bytes) is a
 * whole snapshot of this format (its checksum matches, its counts are
 * consistent and within what its bytes hold), with v's counts and flags
 * filled; else what is wrong with it. Needs no scene: sgrt_scene_load
 * asks it before it makes one. sgrt__snap_validate, after it: NULL when s
 * can take the snapshot (its flags and layout, its max_nodes) and the
 * scene it holds keeps every invariant, with v filled; else what is wrong
 * and in *code the result to return (SNAPSHOT; CAPACITY past max_nodes).
 * marks: sgrt__snap_mark_words(v) words it may use. */
const char *sgrt__snap_head(const void *buf, size_t size, sgrt__snapview *v);
const char *sgrt__snap_validate(const sgrt_scene *s, sgrt__snapview *v, uint32_t *marks,
                                sgrt_result *code);
/* Words of marks sgrt__snap_validate needs (one bit per handle index). */
static inline uint32_t sgrt__snap_mark_words(const sgrt__snapview *v)
{
    return (v->handle_used + 31u) / 32u;
}

#endif
