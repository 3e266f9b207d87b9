/* SPDX-License-Identifier: MIT */
/* Validation mode (SGRT_SCENE_VALIDATE): the checks that turn a hurried
 * user's silent mistakes into reports. Each runs only in a scene created
 * with the flag; the calls pay one flag test when it is off. */
#include "internal.h"
#include "handles.h"
#include "result.h"
#include "validate.h"
#include "world_now.h"
#include <string.h>

/* |q|^2 in double (each square exact, the sum rounded in a fixed order),
 * against 1. NaN compares false: a non-finite q is left to the finiteness
 * check that follows. */
static bool off_unit(const float q[4])
{
    const double x = q[0], y = q[1], z = q[2], w = q[3];
    const double d = ((x * x + y * y) + (z * z + w * w)) - 1.0;
    return d > SGRT_QUAT_NORM_TOLERANCE || d < -SGRT_QUAT_NORM_TOLERANCE;
}

/* (+-1, 0, 0, 0): the identity written w, x, y, z, read here as a half
 * turn about x. Exact zeros only: a real half turn about x is rarely
 * written that way and still takes effect. */
static bool wxyz_identity(const float q[4])
{
    return (q[0] == 1.0f || q[0] == -1.0f) && q[1] == 0.0f && q[2] == 0.0f && q[3] == 0.0f;
}

static const char quat_warning[] =
    "q is (1, 0, 0, 0), a half turn about x: if the identity was meant, it is written "
    "x, y, z, w = (0, 0, 0, 1) here";

sgrt_result sgrt__validate_quat(const sgrt_scene *s, const char *function, const float q[4],
                                sgrt_node node)
{
    if (off_unit(q))
        return sgrt__fail(s, SGRT_ERR_INVALID_ARG, function,
                          "q is not of unit length: |q|^2 is off 1 by more than "
                          "SGRT_QUAT_NORM_TOLERANCE (normalise it; the order is x, y, z, w)",
                          node);
    if (wxyz_identity(q))
        sgrt__warn(s, function, quat_warning, node);
    return SGRT_OK;
}

uint32_t sgrt__validate_quats(const float *q, uint32_t n, uint32_t *wxyz)
{
    *wxyz = n;
    for (uint32_t i = 0; i < n; i++) {
        if (off_unit(q + 4u * i))
            return i;
        if (*wxyz == n && wxyz_identity(q + 4u * i))
            *wxyz = i;
    }
    return n;
}

void sgrt__validate_quat_warn(const sgrt_scene *s, const char *function, sgrt_node node)
{
    sgrt__warn(s, function, quat_warning, node);
}

bool sgrt__validate_recomputed(const sgrt_scene *s, uint32_t slot)
{
    for (uint32_t x = slot; x != SGRT__NONE; x = s->st.parent[x])
        if (sgrt__bit_get(s->st.dirty, x))
            return true;
    return false;
}

sgrt_result sgrt__validate_world_read(const sgrt_scene *s, uint32_t slot, const float world[16],
                                      sgrt_node node)
{
    if (!sgrt__validate_recomputed(s, slot))
        return SGRT_OK;
    /* Recomputed, but perhaps to the same bits (a new node under a parent
     * that did not move): only a world that will change is reported. */
    float now[16];
    sgrt__world_now_slot(s, slot, now);
    if (memcmp(now, world, sizeof now) == 0)
        return SGRT_OK;
    return sgrt__fail(s, SGRT_ERR_PENDING, "sgrt_node_world",
                      "node (or an ancestor) moved since the last sgrt_scene_update: out holds "
                      "the world of that update, which the next one will change (update first, "
                      "or read sgrt_node_world_now)",
                      node);
}

void sgrt__validate_array_read(const sgrt_scene *s, const char *function)
{
    bool pending = false;
    /* A closure pending: some clean node after close_from under a dirty
     * parent (the highest of any pending subtree is one). */
    for (uint32_t i = s->close_from + 1u; !pending && s->close_from != SGRT__NONE &&
                                          i < s->slot_end; i++)
        pending = sgrt__bit_get(s->st.alive, i) && !sgrt__bit_get(s->st.dirty, i) &&
                  s->st.parent[i] != SGRT__NONE && sgrt__bit_get(s->st.dirty, s->st.parent[i]);
    for (uint32_t sw = 0; !pending && sw < s->st.sum_words; sw++)
        pending = s->st.dirty_sum[sw] != 0;
    if (pending)
        sgrt__warn(s, function,
                   "nodes moved since the last sgrt_scene_update: the array holds that "
                   "update's worlds, and the next update will change some of them",
                   SGRT_NULL_NODE);
}

void sgrt__validate_locals(const sgrt_scene *s, const char *function)
{
    /* The locals written since the last update (dirty before the closure
     * marks their subtrees): one report per update, for the first whose
     * last row is not (0, 0, 0, 1) -- legal (projective), but most often a
     * row-major matrix, whose translation sits there. A local that is not
     * finite (written in place) is the update's to report. */
    const sgrt__storage *st = &s->st;
    SGRT__FOR_EACH_SUMMARIZED(st->dirty_sum, 0, st->sum_words, st->dirty, false, w, bits,
        SGRT__FOR_EACH_IN_WORD(w, bits, i,
            const float *m = st->local[i];
            if ((m[3] != 0.0f || m[7] != 0.0f || m[11] != 0.0f || m[15] != 1.0f) &&
                sgrt__finite16(m)) {
                sgrt__warn(s, function,
                           "a local's last row is not (0, 0, 0, 1): a row-major matrix? "
                           "Matrices here are column-major, translation in m[12], m[13], m[14]",
                           sgrt__handle_of_slot(s, i));
                return;
            }
        )
    )
}
