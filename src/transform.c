/* Writing and reading transforms: set_local, set_trs, local and world reads.
 * None of these allocate. */
#include "internal.h"
#include <string.h>

sgrt_result sgrt_node_set_local(sgrt_scene *s, sgrt_node node, const float m[16])
{
    if (!s || !m)
        return SGRT_ERR_INVALID_ARG;
    const uint32_t slot = sgrt__resolve(s, node);
    if (slot == SGRT__NONE)
        return SGRT_ERR_STALE_HANDLE;
    if (!sgrt__all_finite(m, 16))
        return SGRT_ERR_INVALID_ARG;
    if (memcmp(s->st.local[slot], m, sizeof s->st.local[slot]) == 0)
        return SGRT_OK;
    memcpy(s->st.local[slot], m, sizeof s->st.local[slot]);
    sgrt__dirty_mark_subtree(s, slot);
    return SGRT_OK;
}

sgrt_result sgrt_node_set_trs(sgrt_scene *s, sgrt_node node, const float t[3], const float q[4],
                              const float scale[3])
{
    if (!s || !t || !q || !scale)
        return SGRT_ERR_INVALID_ARG;
    if (sgrt__resolve(s, node) == SGRT__NONE)
        return SGRT_ERR_STALE_HANDLE;
    if (!sgrt__all_finite(t, 3) || !sgrt__all_finite(q, 4) || !sgrt__all_finite(scale, 3))
        return SGRT_ERR_INVALID_ARG;
    float m[16];
    sgrt__trs_to_mat4(t, q, scale, m);
    return sgrt_node_set_local(s, node, m);
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
