/* SPDX-License-Identifier: MIT */
/* Validation mode's checks (validate.c). */
#ifndef SGRT_VALIDATE_H
#define SGRT_VALIDATE_H

#include "internal.h"

/* Validation mode's checks (SGRT_SCENE_VALIDATE); callers test
 * SGRT__VALIDATING first. A quaternion off unit length beyond
 * SGRT_QUAT_NORM_TOLERANCE is refused (INVALID_ARG, reported); the identity
 * written w, x, y, z is a warning. */
sgrt_result sgrt__validate_quat(const sgrt_scene *s, const char *function, const float q[4],
                                sgrt_node node);
/* The first entry whose quaternion is off unit length (count: none); warns
 * once about a w, x, y, z identity. Reports no refusal: the batch does. */
uint32_t sgrt__validate_quats(const sgrt_scene *s, const char *function, const float *q,
                              const sgrt_node *nodes, uint32_t count);
/* sgrt_node_world read `world` from slot: PENDING (reported) when the next
 * update will change it. O(d), and world_now's products when a node above
 * is dirty. */
sgrt_result sgrt__validate_world_read(const sgrt_scene *s, uint32_t slot, const float world[16],
                                      sgrt_node node);
/* Whether a dirty node is at or above slot: the next update recomputes its
 * world (before the closure pass, a dirty ancestor's descendants need not
 * be marked yet). O(d). */
bool sgrt__validate_recomputed(const sgrt_scene *s, uint32_t slot);
/* An array of worlds is read: a warning when moves are pending.
 * O(capacity / 1024). */
void sgrt__validate_array_read(const sgrt_scene *s, const char *function);
/* At the start of an update, before its closure pass (so the dirty nodes
 * are those written, created or re-parented since the last): a warning for
 * the first whose local's last row is not (0, 0, 0, 1). O(those nodes). */
void sgrt__validate_locals(const sgrt_scene *s, const char *function);

#endif
