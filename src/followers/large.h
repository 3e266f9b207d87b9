/* SPDX-License-Identifier: MIT */
/* Large worlds (SGRT_SCENE_LARGE_WORLD) as a follower of the scene
 * (large.c). */
#ifndef SGRT_FOLLOWERS_LARGE_H
#define SGRT_FOLLOWERS_LARGE_H

#include "../follow.h"

/* A root made or given a world is anchored at the origin; the kernels'
 * view gets the anchors and the origin; the checker verifies them. */
extern const sgrt__follower sgrt__large_follower;

typedef double sgrt__dvec3[3];
/* The follower's state: per slot (declared in large.c), a root's anchor;
 * the point every world is relative to. */
typedef struct sgrt__large {
    sgrt__dvec3 *anchor;
    double origin[3];
} sgrt__large;
/* s's large-world state; NULL without SGRT_SCENE_LARGE_WORLD. */
sgrt__large *sgrt__large_of(const sgrt_scene *s);

#endif
