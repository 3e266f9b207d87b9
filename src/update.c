/* The per-frame update, and the exact world of one node now (what the next
 * update will store). Neither allocates. */
#include "internal.h"
#include <string.h>

#define CHAIN_SEGMENT 256u

/* Exact world of a slot: the stored world of the parent of its topmost
 * dirty ancestor (that parent and all above it are clean, so its world is
 * current; marks below a dirty node may still be pending, so the walk goes
 * all the way up), then the locals below it multiplied top-down with the
 * scene's kernel, exactly as the update will. The chain is walked in
 * segments of CHAIN_SEGMENT so that no memory is needed beyond the stack. */
void sgrt__world_now_slot(const sgrt_scene *s, uint32_t slot, float out[16])
{
    uint32_t depth = 0, steps = 0, x = slot;
    for (; x != SGRT__NONE; x = s->st.parent[x]) {
        steps++;
        if (sgrt__bit_get(s->st.dirty, x))
            depth = steps; /* the chain reaches this dirty node */
    }
    x = slot;
    for (uint32_t i = 0; i < depth; i++)
        x = s->st.parent[x];
    float acc[2][16];
    int cur = 0;
    if (x != SGRT__NONE)
        memcpy(acc[0], s->st.world[x], sizeof acc[0]);
    uint32_t chain[CHAIN_SEGMENT];
    uint32_t remaining = depth;
    while (remaining) {
        const uint32_t seg = remaining < CHAIN_SEGMENT ? remaining : CHAIN_SEGMENT;
        uint32_t y = slot;
        for (uint32_t i = 0; i < remaining - seg; i++)
            y = s->st.parent[y];
        for (uint32_t i = 0; i < seg; i++) {
            chain[i] = y;
            y = s->st.parent[y];
        }
        for (uint32_t i = seg; i-- > 0;) {
            const uint32_t c = chain[i];
            if (s->st.parent[c] == SGRT__NONE) {
                memcpy(acc[cur], s->st.local[c], sizeof acc[cur]);
            } else {
                s->k.mul(acc[cur], s->st.local[c], acc[cur ^ 1]);
                cur ^= 1;
            }
        }
        remaining -= seg;
    }
    memcpy(out, depth ? acc[cur] : s->st.world[slot], 16 * sizeof(float));
}

sgrt_result sgrt_node_world_now(const sgrt_scene *s, sgrt_node node, float out[16])
{
    if (!s || !out)
        return SGRT_ERR_INVALID_ARG;
    const uint32_t slot = sgrt__resolve(s, node);
    if (slot == SGRT__NONE)
        return SGRT_ERR_STALE_HANDLE;
    sgrt__world_now_slot(s, slot, out);
    return SGRT_OK;
}

uint32_t sgrt_scene_update(sgrt_scene *s)
{
    if (!s)
        return 0;
    sgrt__dirty_close(s);
    /* Trackers learn which slots this update recomputes: the dirty words,
     * before the kernel clears them. */
    if (s->reg.tracker_count) {
        SGRT__FOR_EACH_SUMMARIZED(s->st.dirty_sum, 0, s->st.sum_words, s->st.dirty, false, w, bits,
            sgrt__trackers_note(s, w, bits);
        )
    }
    const sgrt__update_view v = {
        (const float(*)[16])s->st.local, s->st.world,     s->st.parent,
        s->st.dirty,                     s->st.dirty_sum, 0, s->st.sum_words,
    };
    return s->k.update(&v);
}
