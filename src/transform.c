/* Local transforms, world reads and the per-frame update. None of these
 * allocate. */
#include "handoff.h"
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
    if (memcmp(s->local[slot], m, sizeof s->local[slot]) == 0)
        return SGRT_OK;
    memcpy(s->local[slot], m, sizeof s->local[slot]);
    sgrt__mark_subtree(s, slot);
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
    memcpy(out, world ? s->world[slot] : s->local[slot], 16 * sizeof(float));
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

#define CHAIN_SEGMENT 256u

/* Exact world of a slot: the stored world of its nearest clean ancestor (a
 * clean node's ancestors are all clean, so that world is current), then the
 * locals below it multiplied top-down with the scene's kernel, exactly as the
 * update will. The chain is walked in segments of CHAIN_SEGMENT so that no
 * memory is needed beyond the stack. */
sgrt_result sgrt__world_now_slot(const sgrt_scene *s, uint32_t slot, float out[16])
{
    uint32_t depth = 0, x = slot;
    while (x != SGRT__NONE && sgrt__bit_get(s->dirty, x)) {
        depth++;
        x = s->parent[x];
    }
    float acc[2][16];
    int cur = 0;
    if (x != SGRT__NONE)
        memcpy(acc[0], s->world[x], sizeof acc[0]);
    uint32_t chain[CHAIN_SEGMENT];
    uint32_t remaining = depth;
    while (remaining) {
        const uint32_t seg = remaining < CHAIN_SEGMENT ? remaining : CHAIN_SEGMENT;
        uint32_t y = slot;
        for (uint32_t i = 0; i < remaining - seg; i++)
            y = s->parent[y];
        for (uint32_t i = 0; i < seg; i++) {
            chain[i] = y;
            y = s->parent[y];
        }
        for (uint32_t i = seg; i-- > 0;) {
            const uint32_t c = chain[i];
            if (s->parent[c] == SGRT__NONE) {
                memcpy(acc[cur], s->local[c], sizeof acc[cur]);
            } else {
                s->k->mul(acc[cur], s->local[c], acc[cur ^ 1]);
                cur ^= 1;
            }
        }
        remaining -= seg;
    }
    memcpy(out, depth ? acc[cur] : s->world[slot], 16 * sizeof(float));
    return SGRT_OK;
}

sgrt_result sgrt_node_world_now(const sgrt_scene *s, sgrt_node node, float out[16])
{
    if (!s || !out)
        return SGRT_ERR_INVALID_ARG;
    const uint32_t slot = sgrt__resolve(s, node);
    if (slot == SGRT__NONE)
        return SGRT_ERR_STALE_HANDLE;
    return sgrt__world_now_slot(s, slot, out);
}

uint32_t sgrt_scene_update(sgrt_scene *s)
{
    if (!s)
        return 0;
    /* Only trackers want the recomputed slots (node sets do not), and the
     * registry keeps trackers first. */
    if (s->tracker_count && s->trackers[0]->kind == SGRT__BITS_TRACKER) {
        for (uint32_t si = 0; si < s->sum_words; si++) {
            uint32_t sb = s->dirty_sum[si];
            while (sb) {
                const uint32_t w = si * 32u + sgrt__ctz32(sb);
                sb &= sb - 1u;
                sgrt__note_changed(s, w, s->dirty[w]);
            }
        }
    }
    const sgrt__update_view v = {
        (const float(*)[16])s->local, s->world,     s->parent,
        s->dirty,                     s->dirty_sum, s->sum_words,
    };
    return s->k->update(&v);
}
