/* SPDX-License-Identifier: MIT */
/* Previous worlds (SGRT_SCENE_PREV_WORLD): after each update, prev_world
 * holds every live node's world as of the update before. The update kernels
 * write worlds in place, so each update first copies world to prev_world for
 * the slots whose previous world changes:
 *   - those it is about to recompute (their world before it), and
 *   - those the last update recomputed and this one does not (their previous
 *     world becomes their unchanged world),
 * found in the dirty bits and in prev_moved, the slots the last update
 * recomputed (with a summary, so an update costs O(words of either) here).
 * Everywhere else prev_world equals world already. A node created since the
 * last update (prev_fresh) gets its first world as its previous one after
 * the kernels. All three are declared here (sgrt__prev: per-slot state that
 * storage lays out and moves with its node), so relocation, compaction and
 * growth keep them. In a large world the worlds are relative to the origin:
 * the origin the stored worlds are relative to is kept here, and the origin
 * now is heard from the seam (follow.h: origin). */
#include "../follow.h"
#include "../dirty.h"
#include "prev.h"
#include "../result.h"
#include "../snapshot.h"
#include "../validate.h"
#include <stddef.h>
#include <string.h>

static const sgrt__slot_decl decls[] = {
    /* Tracked: the previous-world array, which trackers cover. */
    SGRT__DECL_ARRAY_TRACKED(sgrt__prev, world, sgrt__mat4, false, 0u),
    SGRT__DECL_BITFIELD(sgrt__prev, moved, 0u),
    SGRT__DECL_BITFIELD(sgrt__prev, fresh, 0u),
};
/* In a snapshot: the origins the stored worlds and the scene are
 * relative to. */
static const sgrt__state_field fields[] = {
    SGRT__FIELD(sgrt__prev, from, double),
    SGRT__FIELD(sgrt__prev, origin, double),
};

sgrt__prev *sgrt__prev_of(const sgrt_scene *s)
{
    return sgrt__follow_state(s, &sgrt__prev_follower);
}

/* A node was created in `slot` (its world already written): it has not
 * moved until its first update. Nothing without SGRT_SCENE_PREV_WORLD. */
static void created(sgrt_scene *s, uint32_t slot)
{
    sgrt__prev *p = sgrt__prev_of(s);
    memcpy(p->world[slot], s->st.world[slot], sizeof p->world[slot]);
    sgrt__bit_set_sum(p->fresh, p->fresh_sum, slot);
}

/* The origin moved: the next update saves worlds moved into its frame. */
static void origin(sgrt_scene *s, const double now[3])
{
    memcpy(sgrt__prev_of(s)->origin, now, sizeof sgrt__prev_of(s)->origin);
}

/* Before an update's kernel recomputes the slots `d` of word w (their final
 * dirty bits), for the slots `mask` of the word (the caller's share of it):
 * save the world of the slots recomputed now or by the last update in
 * prev_world (a new node's waits for finish), record `d` as the
 * word's recomputed slots, and report to the trackers the slots whose
 * previous world changes without a recompute. Only with prev_world. */
static void save_word(sgrt_scene *s, void *self, uint32_t w, uint32_t d, uint32_t mask)
{
    sgrt__storage *st = &s->st;
    sgrt__prev *p = self;
    /* Dead slots' bits (destroyed or moved away since) are dropped here. */
    const uint32_t last = p->moved[w] & mask & st->alive[w];
    const uint32_t fresh = p->fresh[w] & d;
    uint32_t save = (last | d) & ~fresh;
    if (p->from[0] != p->origin[0] || p->from[1] != p->origin[1] ||
        p->from[2] != p->origin[2]) {
        /* The origin moved since the last update (which then marked every
         * node): each saved world moved into the new origin's frame,
         * translate(last update's origin - origin) x world, one shift
         * from the origin the world is relative to, however many moves
         * came between. */
        static const double zero[3] = {0.0, 0.0, 0.0};
        const double shift[3] = {p->from[0] - p->origin[0], p->from[1] - p->origin[1],
                                 p->from[2] - p->origin[2]};
        SGRT__FOR_EACH_IN_WORD(w, save, i,
            sgrt__anchored_world(st->world[i], shift, zero, p->world[i]);
        )
    } else {
        SGRT__FOR_EACH_IN_WORD(w, save, i,
            memcpy(p->world[i], st->world[i], sizeof p->world[i]);
        )
    }
    /* Their previous world becomes their world: a change for readers. */
    sgrt__follow_changed(s, w, last & ~d);
    const uint32_t moved = (p->moved[w] & ~mask) | (d & ~fresh);
    p->moved[w] = moved;
    if (moved)
        sgrt__bit_set(p->moved_sum, w);
    else
        sgrt__bit_clear(p->moved_sum, w);
}

/* After the kernels: the new nodes' previous world is their first world.
 * O(sum words + new nodes). */
static void finish(sgrt_scene *s)
{
    sgrt__storage *st = &s->st;
    sgrt__prev *p = sgrt__prev_of(s);
    memcpy(p->from, p->origin, sizeof p->origin);
    /* A live fresh node was dirty, so this update computed its world. */
    SGRT__FOR_EACH_SUMMARIZED(p->fresh_sum, 0, st->sum_words, p->fresh, true, w, bits,
        bits &= st->alive[w];
        SGRT__FOR_EACH_IN_WORD(w, bits, i,
            memcpy(p->world[i], st->world[i], sizeof p->world[i]);
        )
    )
}

/* The update's side: the words the last update recomputed have work, and
 * an update with nothing dirty still has some (those previous worlds catch
 * up with their worlds). */
static uint32_t last_words(const sgrt_scene *s, const void *self, uint32_t sw)
{
    (void)s;
    return ((const sgrt__prev *)self)->moved_sum[sw];
}
static bool always(const sgrt_scene *s)
{
    (void)s;
    return true;
}

/* A snapshot's previous worlds, as sgrt_scene_check wants them: equal to
 * the world on every live slot the last update did not recompute (both
 * little-endian floats: their bytes compare as their bits do). */
static const char *snapshot_check(const sgrt_scene *s, const sgrt__snapview *v)
{
    const uint8_t *world = sgrt__snap_slots(s, v, &sgrt__prev_follower, "world");
    const uint8_t *moved = sgrt__snap_slots(s, v, &sgrt__prev_follower, "moved");
    for (uint32_t w = 0; w < v->words; w++) {
        uint32_t same = sgrt__snap_u32(v->alive, w) & ~sgrt__snap_u32(moved, w);
        SGRT__FOR_EACH_IN_WORD(w, same, i,
            if (memcmp(world + 64u * (size_t)i, v->world + 64u * (size_t)i, 64u) != 0)
                return "buf: previous worlds equal the world on every live slot the last "
                       "update did not recompute";
        )
    }
    return NULL;
}

const sgrt__follower sgrt__prev_follower = {
    .flags = SGRT_SCENE_PREV_WORLD,
    .state_size = sizeof(sgrt__prev),
    .slots = decls,
    .slot_count = sizeof decls / sizeof decls[0],
    .fields = fields,
    .field_count = sizeof fields / sizeof fields[0],
    .created = created,
    .origin = origin,
    .words = last_words,
    .pending = always,
    .word = save_word,
    .finish = finish,
    .snapshot_check = snapshot_check,
};

const float *sgrt_scene_prev_world_array(const sgrt_scene *s, uint32_t *out_slot_count)
{
    const sgrt__prev *p = s ? sgrt__prev_of(s) : NULL;
    const bool on = p != NULL;
    if (out_slot_count)
        *out_slot_count = on ? s->slot_end : 0u;
    if (s && !on)
        sgrt__fail(s, SGRT_ERR_INVALID_ARG, __func__,
                   "the scene keeps no previous worlds: create it with SGRT_SCENE_PREV_WORLD",
                   SGRT_NULL_NODE);
    else if (on && SGRT__VALIDATING(s))
        sgrt__validate_array_read(s, __func__);
    return on ? &p->world[0][0] : NULL;
}
