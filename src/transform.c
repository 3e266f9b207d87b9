/* SPDX-License-Identifier: MIT */
/* Writing and reading one node's transforms: set_local, set_trs,
 * set_world, and the local and world reads (batch writes: nodes.c,
 * writers: writer.c). None of these allocate. */
#include "follow.h"
#include "args.h"
#include "dirty.h"
#include "handles.h"
#include "matrix.h"
#include "result.h"
#include "validate.h"
#include "world_now.h"
#include <string.h>

/* The write itself: copy m into the slot's local and mark the node, unless
 * m is bit-identical to what is there (then nothing is marked). */
static inline void write_local(sgrt_scene *s, uint32_t slot, const float *m)
{
    if (s->k.store16(s->st.local, &slot, m, 1, 0))
        sgrt__dirty_mark(s, slot, false);
}

/* What a single write's put did: refused (nothing changed; reported with
 * `bad`, the refusal path only), or stored, marking the node when the bits
 * changed. */
static inline sgrt_result put_done(sgrt_scene *s, uint32_t slot, uint32_t put,
                                   const char *function, const char *bad, sgrt_node node)
{
    if (put == SGRT__PUT_BAD)
        return sgrt__fail(s, SGRT_ERR_INVALID_ARG, function, bad, node);
    if (put == SGRT__PUT_CHANGED)
        sgrt__dirty_mark(s, slot, false);
    return SGRT_OK;
}

/* Which TRS input is refused, for the log (the refusal path only). */
static const char *trs_problem(const float *t, const float *q, const float *scale)
{
    if (!t)
        return "t is NULL";
    if (!q)
        return "q is NULL";
    if (!scale)
        return "scale is NULL";
    if (!sgrt__all_finite(t, 3))
        return "t holds a NaN or an infinity";
    if (!sgrt__all_finite(q, 4))
        return "q holds a NaN or an infinity";
    if (!sgrt__all_finite(scale, 3))
        return "scale holds a NaN or an infinity";
    return "the matrix of t, q and scale overflows (q far from unit length, or a huge scale)";
}

/* The checks of a call that writes a matrix: arguments, the handle (its
 * slot in *slot), a finite matrix. */
static sgrt_result take_matrix(const sgrt_scene *s, sgrt_node node, const float *m,
                               uint32_t *slot, const char *function)
{
    SGRT__ENTER(s, SGRT_ERR_INVALID_ARG);
    if (!m)
        return sgrt__fail(s, SGRT_ERR_INVALID_ARG, function, "m is NULL", node);
    sgrt_result err;
    *slot = SGRT__NODE_ARG(s, node, "node", function, &err);
    if (*slot == SGRT__NONE)
        return err;
    if (s->k.check16(m, 1) != 1u) /* 1: none bad */
        return sgrt__fail(s, SGRT_ERR_INVALID_ARG, function, "m holds a NaN or an infinity",
                          node);
    return SGRT_OK;
}

sgrt_result sgrt_node_set_local(sgrt_scene *s, sgrt_node node, const float m[16])
{
    SGRT__ENTER(s, SGRT_ERR_INVALID_ARG);
    SGRT__NOT_NULL(s, m, node);
    sgrt_result err;
    const uint32_t slot = SGRT__NODE_ARG(s, node, "node", __func__, &err);
    if (slot == SGRT__NONE)
        return err;
    return put_done(s, slot, s->k.put16(s->st.local[slot], m), __func__,
                    "m holds a NaN or an infinity", node);
}

/* Finite inputs give a finite matrix unless a product overflows, and a
 * non-finite input always reaches the matrix (t is copied; a NaN or infinite
 * quaternion component or scale reaches a product that is not multiplied by
 * a finite zero only), so checking the 16 outputs checks all ten inputs. */
sgrt_result sgrt_node_set_trs(sgrt_scene *s, sgrt_node node, const float t[3], const float q[4],
                              const float scale[3])
{
    SGRT__ENTER(s, SGRT_ERR_INVALID_ARG);
    if (!t || !q || !scale)
        return sgrt__fail(s, SGRT_ERR_INVALID_ARG, __func__, trs_problem(t, q, scale), node);
    sgrt_result err;
    const uint32_t slot = SGRT__NODE_ARG(s, node, "node", __func__, &err);
    if (slot == SGRT__NONE)
        return err;
    if (SGRT__VALIDATING(s)) {
        const sgrt_result v = sgrt__validate_quat(s, __func__, q, node);
        if (v != SGRT_OK)
            return v;
    }
    const uint32_t put = s->k.put_trs(s->st.local[slot], t, q, scale);
    return put_done(s, slot, put, __func__,
                    put == SGRT__PUT_BAD ? trs_problem(t, q, scale) : NULL, node);
}

/* The local that puts the node at m now: the keep-world computation of
 * sgrt_node_set_parent, under the node's own parent's current world. */
sgrt_result sgrt_node_set_world(sgrt_scene *s, sgrt_node node, const float m[16])
{
    uint32_t slot = SGRT__NONE;
    const sgrt_result r = take_matrix(s, node, m, &slot, __func__);
    if (r != SGRT_OK)
        return r;
    const uint32_t parent = s->st.parent[slot];
    if (parent == SGRT__NONE) {
        write_local(s, slot, m);
        sgrt__follow_rooted(s, slot); /* in a large world, anchored at the origin */
        return SGRT_OK;
    }
    float pw[16], local[16];
    sgrt__world_now_slot(s, parent, pw);
    if (!sgrt__keep_world_local(s->k.mul, pw, m, local))
        return sgrt__fail(s, SGRT_ERR_SINGULAR, __func__,
                          "node's parent's world has no usable inverse, or the new local "
                          "would miss m by more than keep-world's tolerance",
                          node);
    write_local(s, slot, local);
    return SGRT_OK;
}

static sgrt_result read_matrix(const sgrt_scene *s, sgrt_node node, float out[16], bool world,
                               const char *function)
{
    SGRT__ENTER(s, SGRT_ERR_INVALID_ARG);
    if (!out)
        return sgrt__fail(s, SGRT_ERR_INVALID_ARG, function, "out is NULL", node);
    sgrt_result err;
    const uint32_t slot = SGRT__NODE_ARG(s, node, "node", function, &err);
    if (slot == SGRT__NONE)
        return err;
    memcpy(out, world ? s->st.world[slot] : s->st.local[slot], 16 * sizeof(float));
    if (world && SGRT__VALIDATING(s))
        return sgrt__validate_world_read(s, slot, out, node);
    return SGRT_OK;
}

sgrt_result sgrt_node_local(const sgrt_scene *s, sgrt_node node, float out[16])
{
    return read_matrix(s, node, out, false, __func__);
}

sgrt_result sgrt_node_world(const sgrt_scene *s, sgrt_node node, float out[16])
{
    return read_matrix(s, node, out, true, __func__);
}
