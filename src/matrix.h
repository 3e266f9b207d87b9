/* SPDX-License-Identifier: MIT */
/* Inverses, keep-world tolerance, finiteness (matrix.c). */
#ifndef SGRT_MATRIX_H
#define SGRT_MATRIX_H

#include "internal.h"

/* out = inverse(m), formed in double and rounded to float once per entry:
 * the same bits on every target. False (out untouched) when m has no
 * inverse (a determinant of 0 or not finite) or the inverse does not fit
 * in float. */
bool sgrt__inverse(const float m[16], float out[16]);
/* out = inverse(parent) x world in double precision; false if not finite. */
bool sgrt__relative_local(const float parent[16], const float world[16], float out[16]);
/* The local that keeps `world` under a parent whose world is `parent`
 * (keep-world re-parenting, sgrt_node_set_world): sgrt__relative_local,
 * accepted only when multiplying it back with `mul` (the scene's kernel, as
 * the update will) keeps the world within the tolerance below. False when
 * parent or world is not finite, the parent has no inverse, the local is
 * not finite or it misses; out is then untouched. */
bool sgrt__keep_world_local(void (*mul)(const float *a, const float *b, float *out),
                            const float parent[16], const float world[16], float out[16]);
/* Keep-world's tolerance: `got` (parent world x new local, in float on the
 * scene's kernel, as the update will form it) may miss `want` (the world to
 * keep) by at most TOLERANCE x max(1, largest |entry| of want's column) in
 * each entry of that column. */
#define SGRT__KEEP_WORLD_TOLERANCE (1.0 / 4096.0)
bool sgrt__world_kept(const float got[16], const float want[16]);
bool sgrt__all_finite(const float *v, uint32_t n);

#endif
