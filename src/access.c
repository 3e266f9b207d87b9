/* SPDX-License-Identifier: MIT */
/* The renderer's view of storage: the world array, the slot of a node and
 * the node of a slot, and the user value that travels with a node. */
#include "internal.h"
#include "args.h"
#include "handles.h"
#include "result.h"
#include "validate.h"

const float *sgrt_scene_world_array(const sgrt_scene *s, uint32_t *out_slot_count)
{
    if (out_slot_count)
        *out_slot_count = s ? s->slot_end : 0u;
    if (s && SGRT__VALIDATING(s))
        sgrt__validate_array_read(s, __func__);
    return s ? &s->st.world[0][0] : NULL;
}

uint64_t sgrt_scene_storage_version(const sgrt_scene *s) { return s ? s->storage_version : 0u; }

sgrt_result sgrt_node_slot(const sgrt_scene *s, sgrt_node node, uint32_t *out_slot)
{
    SGRT__ENTER(s, SGRT_ERR_INVALID_ARG);
    SGRT__NOT_NULL(s, out_slot, node);
    sgrt_result err;
    const uint32_t slot = SGRT__NODE_ARG(s, node, "node", __func__, &err);
    if (slot == SGRT__NONE)
        return err;
    *out_slot = slot;
    return SGRT_OK;
}

sgrt_node sgrt_scene_slot_node(const sgrt_scene *s, uint32_t slot)
{
    if (!s || slot >= s->slot_end || !sgrt__bit_get(s->st.alive, slot))
        return SGRT_NULL_NODE;
    return sgrt__handle_of_slot(s, slot);
}

sgrt_result sgrt_node_set_user(sgrt_scene *s, sgrt_node node, uint64_t user)
{
    SGRT__ENTER(s, SGRT_ERR_INVALID_ARG);
    sgrt_result err;
    const uint32_t slot = SGRT__NODE_ARG(s, node, "node", __func__, &err);
    if (slot == SGRT__NONE)
        return err;
    s->st.user[slot] = user;
    return SGRT_OK;
}

sgrt_result sgrt_node_user(const sgrt_scene *s, sgrt_node node, uint64_t *out)
{
    SGRT__ENTER(s, SGRT_ERR_INVALID_ARG);
    SGRT__NOT_NULL(s, out, node);
    sgrt_result err;
    const uint32_t slot = SGRT__NODE_ARG(s, node, "node", __func__, &err);
    if (slot == SGRT__NONE)
        return err;
    *out = s->st.user[slot];
    return SGRT_OK;
}
