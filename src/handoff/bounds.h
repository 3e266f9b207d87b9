/* SPDX-License-Identifier: MIT */
/* Boxes (SGRT_SCENE_BOUNDS, SGRT_SCENE_SUBTREE_BOUNDS) as a follower of the
 * scene (bounds.c). */
#ifndef SGRT_HANDOFF_BOUNDS_H
#define SGRT_HANDOFF_BOUNDS_H

#include "../follow.h"

extern const sgrt__follower sgrt__bounds_follower;

/* The kernels' view of the scene's boxes (NULL pointers without
 * SGRT_SCENE_BOUNDS). */
void sgrt__bounds_view_of(const sgrt_scene *s, sgrt__bounds_view *v);
/* The world box of `slot` (valid or not), and its subtree record's box. */
void sgrt__bounds_world_box(const sgrt_scene *s, uint32_t slot, float lo[3], float hi[3]);

#endif
