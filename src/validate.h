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
/* The first of the n quaternions at q that is off unit length (n: none),
 * reading none past it; *wxyz: the first before it that is the identity
 * written w, x, y, z (n: none). Reports nothing: a batch warns (below) only
 * about an entry it reaches, and refuses the first off unit length. */
uint32_t sgrt__validate_quats(const float *q, uint32_t n, uint32_t *wxyz);
/* The warning about the identity written w, x, y, z, for node. */
void sgrt__validate_quat_warn(const sgrt_scene *s, const char *function, sgrt_node node);
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
