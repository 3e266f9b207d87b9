/* Writing and reading one node's transforms: set_local, set_trs,
 * set_world, and the local and world reads (the batch writes are in
 * batch.c). None of these allocate. */
#include "internal.h"
#include <string.h>

/* The write itself: copy m into the slot's local and mark the node, unless
 * m is bit-identical to what is there (then nothing is marked). */
static inline void write_local(sgrt_scene *s, uint32_t slot, const float *m)
{
    if (s->k.store16(s->st.local, &slot, m, 1, 0))
        sgrt__dirty_mark(s, slot, false);
}

/* What a single write's put did: refused (nothing changed), or stored,
 * marking the node when the bits changed. */
static inline sgrt_result put_done(sgrt_scene *s, uint32_t slot, uint32_t put)
{
    if (put == SGRT__PUT_BAD)
        return SGRT_ERR_INVALID_ARG;
    if (put == SGRT__PUT_CHANGED)
        sgrt__dirty_mark(s, slot, false);
    return SGRT_OK;
}

/* The checks of a call that writes a matrix: arguments, the handle (its
 * slot in *slot), a finite matrix. */
static sgrt_result take_matrix(const sgrt_scene *s, sgrt_node node, const float *m,
                               uint32_t *slot)
{
    if (!s || !m)
        return SGRT_ERR_INVALID_ARG;
    *slot = sgrt__resolve(s, node);
    if (*slot == SGRT__NONE)
        return SGRT_ERR_STALE_HANDLE;
    return s->k.check16(m, NULL, 1) == 1u ? SGRT_OK : SGRT_ERR_INVALID_ARG; /* 1: none bad */
}

sgrt_result sgrt_node_set_local(sgrt_scene *s, sgrt_node node, const float m[16])
{
    if (!s || !m)
        return SGRT_ERR_INVALID_ARG;
    const uint32_t slot = sgrt__resolve(s, node);
    if (slot == SGRT__NONE)
        return SGRT_ERR_STALE_HANDLE;
    return put_done(s, slot, s->k.put16(s->st.local[slot], m));
}

/* Finite inputs give a finite matrix unless a product overflows, and a
 * non-finite input always reaches the matrix (t is copied; a NaN or infinite
 * quaternion component or scale reaches a product that is not multiplied by
 * a finite zero only), so checking the 16 outputs checks all ten inputs. */
sgrt_result sgrt_node_set_trs(sgrt_scene *s, sgrt_node node, const float t[3], const float q[4],
                              const float scale[3])
{
    if (!s || !t || !q || !scale)
        return SGRT_ERR_INVALID_ARG;
    const uint32_t slot = sgrt__resolve(s, node);
    if (slot == SGRT__NONE)
        return SGRT_ERR_STALE_HANDLE;
    return put_done(s, slot, s->k.put_trs(s->st.local[slot], t, q, scale));
}

/* The local that puts the node at m now: the keep-world computation of
 * sgrt_node_set_parent, under the node's own parent's current world. */
sgrt_result sgrt_node_set_world(sgrt_scene *s, sgrt_node node, const float m[16])
{
    uint32_t slot;
    const sgrt_result r = take_matrix(s, node, m, &slot);
    if (r != SGRT_OK)
        return r;
    const uint32_t parent = s->st.parent[slot];
    if (parent == SGRT__NONE) {
        write_local(s, slot, m);
        return SGRT_OK;
    }
    float pw[16], local[16];
    sgrt__world_now_slot(s, parent, pw);
    if (!sgrt__keep_world_local(s->k.mul, pw, m, local))
        return SGRT_ERR_SINGULAR;
    write_local(s, slot, local);
    return SGRT_OK;
}

static sgrt_result read_matrix(const sgrt_scene *s, sgrt_node node, float out[16], bool world)
{
    if (!s || !out)
        return SGRT_ERR_INVALID_ARG;
    const uint32_t slot = sgrt__resolve(s, node);
    if (slot == SGRT__NONE)
        return SGRT_ERR_STALE_HANDLE;
    memcpy(out, world ? s->st.world[slot] : s->st.local[slot], 16 * sizeof(float));
    return SGRT_OK;
}

sgrt_result sgrt_node_local(const sgrt_scene *s, sgrt_node node, float out[16])
{
    return read_matrix(s, node, out, false);
}

sgrt_result sgrt_node_world(const sgrt_scene *s, sgrt_node node, float out[16])
{
    return read_matrix(s, node, out, true);
}
