/* SPDX-License-Identifier: MIT */
/* Previous worlds (SGRT_SCENE_PREV_WORLD) as a follower of the scene
 * (prev.c). */
#ifndef SGRT_HANDOFF_PREV_H
#define SGRT_HANDOFF_PREV_H

#include "../follow.h"

/* Before an update's kernels, the world of each slot recomputed now or by
 * the last update is saved in prev_world; after them, new nodes' previous
 * world is their first world; a previous world that changes without a
 * recompute is announced (sgrt__follow_changed). */
extern const sgrt__follower sgrt__prev_follower;

#endif
