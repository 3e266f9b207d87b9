/* SPDX-License-Identifier: MIT */
/* Scene creation for other callers than sgrt_scene_create, and test-only
 * settings of a scene (scene.c). */
#ifndef SGRT_SCENE_H
#define SGRT_SCENE_H

#include "internal.h"

struct sgrt__follower;
/* sgrt_scene_create with the followers `followers` (NULL-terminated)
 * instead of followers.c's list: tests attach a follower of their own. */
sgrt_result sgrt__scene_create_with(const sgrt_scene_desc *desc,
                                    const struct sgrt__follower *const *followers,
                                    sgrt_scene **out);

/* sgrt__scene_create_with on behalf of the public call `function` (what
 * its reports name): sgrt_scene_load's scene. */
sgrt_result sgrt__scene_create_as(const sgrt_scene_desc *desc,
                                  const struct sgrt__follower *const *followers,
                                  const char *function, sgrt_scene **out);

/* Test-only: run `level` (clamped to what the CPU has) on this scene, or
 * the table *k when k is not NULL (a modelled kernel). */
void sgrt__scene_set_kernels(sgrt_scene *s, uint32_t level, const sgrt__kernels *k);
/* Tests: reclaim holes as soon as they outnumber live nodes by `slack`. */
void sgrt__scene_set_hole_slack(sgrt_scene *s, uint32_t slack);
/* Tests: the slot count past which a relocating sgrt_node_set_parent
 * closes the holes first (SGRT__MAX_SLOTS), lowered to reach that path
 * with a small scene. */
void sgrt__scene_set_slot_limit(sgrt_scene *s, uint32_t limit);
/* Tests: reuse object-table indices as soon as more than `reserve` (at most
 * SGRT__OBJ_MIN_FREE) are free, so that small programs reach reuse. */
void sgrt__scene_set_object_reserve(sgrt_scene *s, uint32_t reserve);

#endif
