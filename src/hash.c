/* SPDX-License-Identifier: MIT */
/* sgrt_scene_hash: one 64-bit XXH3 over a canonical little-endian record
 * of every live node, the same on every target for the same program.
 *
 * Per live slot, in slot order: the slot, the handle's table index and
 * generation ordinal (the number of earlier nodes of that index: never the
 * scrambled id, which depends on the scene's address), the parent's and
 * next sibling's slots (SGRT__NONE: none), the local and the world as
 * float bits with every NaN made the one quiet NaN (payloads and signs of
 * NaNs differ between targets); in a large world a root's anchor; then the
 * origin. Pending marks and user values are not in it: the first decide
 * nothing that the next update does not make equal (peers compare after
 * their update), the second may hold pointers.
 *
 * XXH3 from xxHash (libxxhash-dev), inlined from its header: one hash for
 * every target (its SSE2, AVX2, NEON and scalar paths give the same
 * value), no library to link, and among the fastest well-kept 64-bit hashes.
 * Records are staged 16 at a time (2.4 KiB) so that XXH3 sees long inputs,
 * fed by the scene's kernel table (kernels.h: xxh3_update), which on x86
 * with AVX2 or AVX-512 holds XXH3 compiled for that ISA (this file's is the
 * target's baseline: SSE2 on x86-64). */
#include "internal.h"
#include "handles.h"
#include "result.h"
#include "followers/large.h"
#include "snapshot.h"

#define XXH_INLINE_ALL
#include <xxhash.h>
#include <string.h>

/* Words in one node's record: slot, index, generation, parent, next
 * sibling, 16 + 16 matrix elements. An anchor adds 6 (three doubles). */
enum { RECORD_WORDS = 5 + 32, ANCHOR_WORDS = 6, STAGE_NODES = 16, AHEAD = 8 };
/* The stage and XXH3's state stay under 4 KiB of stack: no stack probe
 * (___chkstk_ms on Windows) for the static library to need. */
_Static_assert(STAGE_NODES * 4 * (RECORD_WORDS + ANCHOR_WORDS) + 640 < 4096,
               "sgrt_scene_hash's frame needs no stack probe");

static inline void put32(uint8_t *p, uint32_t v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    memcpy(p, &v, 4);
#else
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
#endif
}

static inline void put_double(uint8_t *p, double d)
{
    uint64_t v;
    memcpy(&v, &d, 8);
    put32(p, (uint32_t)v);
    put32(p + 4, (uint32_t)(v >> 32));
}

/* 16 floats, NaNs canonical: branch-free on a copy of the bits
 * (0x7f800000 - |bits| borrows exactly for a NaN), so that the loop
 * vectorizes; little-endian, one copy into the stage. */
static inline void put_matrix(uint8_t *p, const float m[16])
{
    uint32_t bits[16], out[16];
    memcpy(bits, m, sizeof bits);
    for (int i = 0; i < 16; i++) {
        const uint32_t nan = 0u - ((0x7f800000u - (bits[i] & 0x7fffffffu)) >> 31);
        out[i] = (bits[i] & ~nan) | (0x7fc00000u & nan);
    }
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    memcpy(p, out, sizeof out);
#else
    for (int i = 0; i < 16; i++)
        put32(p + 4 * i, out[i]);
#endif
}

uint64_t sgrt_scene_hash(const sgrt_scene *s)
{
    if (!s)
        return 0;
    if (s->busy) {
        (void)sgrt__reentered(s, "sgrt_scene_hash");
        return 0;
    }
    XXH3_state_t state;
    XXH3_64bits_reset(&state);
    void (*const update)(void *, const void *, size_t) = s->k.xxh3_update;
    uint8_t stage[STAGE_NODES * 4 * (RECORD_WORDS + ANCHOR_WORDS)];
    uint8_t head[8];
    put32(head, s->node_count);
    put32(head + 4, s->slot_end);
    XXH3_64bits_update(&state, head, sizeof head);
    /* A large world's anchors and origin (its follower's state). */
    const sgrt__large *g = sgrt__large_of(s);
    /* The arrays in locals: the stage's byte stores may alias anything, so
     * the compiler would load them from the scene again for every node. */
    sgrt__mat4 *const local = s->st.local, *const world = s->st.world;
    const uint32_t *const alive = s->st.alive, *const slot_handle = s->st.slot_handle;
    const uint32_t *const parent = s->st.parent, *const next = s->st.next_sibling;
    const sgrt__handle *const table = s->handles;
    sgrt__dvec3 *const anchor = g ? g->anchor : NULL;
    const uint32_t first = sgrt__handle_first_field(s), words = (s->slot_end + 31u) / 32u;
    const uint32_t last_ahead = s->st.cap - AHEAD; /* the capacity is at least 64 */
    size_t used = 0;
    for (uint32_t w = 0; w < words; w++) {
        for (uint32_t bits = alive[w]; bits; bits &= bits - 1u) {
            const uint32_t slot = w * 32u + (uint32_t)sgrt__ctz32(bits);
            const uint32_t index = slot_handle[slot];
            /* The matrices a few nodes ahead: the walk is a chain of loads
             * the prefetchers alone do not keep ahead of. */
            const uint32_t ahead = slot < last_ahead ? slot + AHEAD : slot;
            SGRT__PREFETCH(local[ahead]);
            SGRT__PREFETCH(world[ahead]);
            uint8_t *p = stage + used;
            put32(p, slot);
            put32(p + 4, index);
            put32(p + 8, sgrt__handle_ordinal_from(first, table[index].id));
            put32(p + 12, parent[slot]);
            put32(p + 16, next[slot]);
            put_matrix(p + 20, local[slot]);
            put_matrix(p + 84, world[slot]);
            used += 4u * RECORD_WORDS;
            if (anchor && parent[slot] == SGRT__NONE) {
                for (int a = 0; a < 3; a++)
                    put_double(stage + used + 8 * a, anchor[slot][a]);
                used += 4u * ANCHOR_WORDS;
            }
            if (used > sizeof stage - 4u * (RECORD_WORDS + ANCHOR_WORDS)) {
                update(&state, stage, used);
                used = 0;
            }
        }
    }
    for (int a = 0; a < 3; a++)
        put_double(stage + used + 8 * a, g ? g->origin[a] : 0.0);
    used += 24;
    update(&state, stage, used);
    return XXH3_64bits_digest(&state);
}

/* The baseline XXH3 of the kernel tables (kernels.h). */
uint64_t sgrt__xxh3_once_base(const void *p, size_t n) { return XXH3_64bits(p, n); }
void sgrt__xxh3_update_base(void *state, const void *p, size_t n)
{
    (void)XXH3_64bits_update((XXH3_state_t *)state, p, n);
}
