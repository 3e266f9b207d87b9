/* SPDX-License-Identifier: MIT */
/* Previous worlds (SGRT_SCENE_PREV_WORLD) as a follower of the scene
 * (prev.c). */
#ifndef SGRT_FOLLOWERS_PREV_H
#define SGRT_FOLLOWERS_PREV_H

#include "../follow.h"

/* Before an update's kernels, the world of each slot recomputed now or by
 * the last update is saved in prev_world; after them, new nodes' previous
 * world is their first world; a previous world that changes without a
 * recompute is announced (sgrt__follow_changed). */
extern const sgrt__follower sgrt__prev_follower;

/* The follower's state: per slot (declared in prev.c, laid out and moved by
 * storage), the world after the update before, the slots the last update
 * recomputed and those created since it, each bitfield with its summary;
 * and the origin the stored worlds are relative to (the last update's)
 * beside the origin now. */
typedef struct sgrt__prev {
    sgrt__mat4 *world;
    uint32_t *moved, *moved_sum;
    uint32_t *fresh, *fresh_sum;
    double from[3];
    double origin[3];
} sgrt__prev;
/* s's previous-world state; NULL without SGRT_SCENE_PREV_WORLD. */
sgrt__prev *sgrt__prev_of(const sgrt_scene *s);

#endif
