/* SPDX-License-Identifier: MIT */
/* Large worlds (SGRT_SCENE_LARGE_WORLD) as a follower of the scene
 * (large.c). */
#ifndef SGRT_HANDOFF_LARGE_H
#define SGRT_HANDOFF_LARGE_H

#include "../follow.h"

/* A root made or given a world is anchored at the origin; the kernels'
 * view gets the anchors and the origin; the checker verifies them. */
extern const sgrt__follower sgrt__large_follower;

#endif
