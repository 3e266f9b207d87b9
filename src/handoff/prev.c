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
 * the kernels. All three travel with a node when its slot changes
 * (storage.c copies the optional state in copy_slot), so relocation,
 * compaction and growth keep them. */
#include "../follow.h"
#include "../dirty.h"
#include "prev.h"
#include "../result.h"
#include "../validate.h"
#include <string.h>

/* A node was created in `slot` (its world already written): it has not
 * moved until its first update. Nothing without SGRT_SCENE_PREV_WORLD. */
static void created(sgrt_scene *s, uint32_t slot)
{
    if (!s->st.prev_world)
        return;
    memcpy(s->st.prev_world[slot], s->st.world[slot], sizeof s->st.prev_world[slot]);
    sgrt__bit_set_sum(s->st.prev_fresh, s->st.prev_fresh_sum, slot);
}

/* Before an update's kernel recomputes the slots `d` of word w (their final
 * dirty bits), for the slots `mask` of the word (the caller's share of it):
 * save the world of the slots recomputed now or by the last update in
 * prev_world (a new node's waits for finish), record `d` as the
 * word's recomputed slots, and report to the trackers the slots whose
 * previous world changes without a recompute. Only with prev_world. */
static void save_word(sgrt_scene *s, uint32_t w, uint32_t d, uint32_t mask)
{
    sgrt__storage *st = &s->st;
    /* Dead slots' bits (destroyed or moved away since) are dropped here. */
    const uint32_t last = st->prev_moved[w] & mask & st->alive[w];
    const uint32_t fresh = st->prev_fresh[w] & d;
    uint32_t save = (last | d) & ~fresh;
    if (s->prev_origin[0] != s->origin[0] || s->prev_origin[1] != s->origin[1] ||
        s->prev_origin[2] != s->origin[2]) {
        /* The origin moved since the last update (which then marked every
         * node): each saved world moved into the new origin's frame,
         * translate(last update's origin - origin) x world, one shift
         * from the origin the world is relative to, however many moves
         * came between. */
        static const double zero[3] = {0.0, 0.0, 0.0};
        const double shift[3] = {s->prev_origin[0] - s->origin[0],
                                 s->prev_origin[1] - s->origin[1],
                                 s->prev_origin[2] - s->origin[2]};
        SGRT__FOR_EACH_IN_WORD(w, save, i,
            sgrt__anchored_world(st->world[i], shift, zero, st->prev_world[i]);
        )
    } else {
        SGRT__FOR_EACH_IN_WORD(w, save, i,
            memcpy(st->prev_world[i], st->world[i], sizeof st->prev_world[i]);
        )
    }
    /* Their previous world becomes their world: a change for readers. */
    sgrt__follow_changed(s, w, last & ~d);
    const uint32_t moved = (st->prev_moved[w] & ~mask) | (d & ~fresh);
    st->prev_moved[w] = moved;
    if (moved)
        sgrt__bit_set(st->prev_moved_sum, w);
    else
        sgrt__bit_clear(st->prev_moved_sum, w);
}

/* After the kernels: the new nodes' previous world is their first world.
 * O(sum words + new nodes). */
static void finish(sgrt_scene *s)
{
    sgrt__storage *st = &s->st;
    memcpy(s->prev_origin, s->origin, sizeof s->origin);
    /* A live fresh node was dirty, so this update computed its world. */
    SGRT__FOR_EACH_SUMMARIZED(st->prev_fresh_sum, 0, st->sum_words, st->prev_fresh, true, w, bits,
        bits &= st->alive[w];
        SGRT__FOR_EACH_IN_WORD(w, bits, i,
            memcpy(st->prev_world[i], st->world[i], sizeof st->prev_world[i]);
        )
    )
}

/* The update's side: the words the last update recomputed have work, and
 * an update with nothing dirty still has some (those previous worlds catch
 * up with their worlds). */
static uint32_t last_words(const sgrt_scene *s, uint32_t sw) { return s->st.prev_moved_sum[sw]; }
static bool always(const sgrt_scene *s)
{
    (void)s;
    return true;
}

const sgrt__follower sgrt__prev_follower = {
    .flags = SGRT_SCENE_PREV_WORLD,
    .created = created,
    .words = last_words,
    .pending = always,
    .word = save_word,
    .finish = finish,
};

const float *sgrt_scene_prev_world_array(const sgrt_scene *s, uint32_t *out_slot_count)
{
    const bool on = s && s->st.prev_world;
    if (out_slot_count)
        *out_slot_count = on ? s->slot_end : 0u;
    if (s && !on)
        sgrt__fail(s, SGRT_ERR_INVALID_ARG, __func__,
                   "the scene keeps no previous worlds: create it with SGRT_SCENE_PREV_WORLD",
                   SGRT_NULL_NODE);
    else if (on && SGRT__VALIDATING(s))
        sgrt__validate_array_read(s, __func__);
    return on ? &s->st.prev_world[0][0] : NULL;
}
