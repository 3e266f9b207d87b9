/* SPDX-License-Identifier: MIT */
/* The exact world of one node now, what the next update will store: the
 * chain of locals below its topmost dirty ancestor multiplied as the update
 * multiplies them. For sgrt_node_world_now, sgrt_node_set_world,
 * keep-world re-parenting, validation mode and the invariant checker. It
 * never allocates. */
#include "follow.h"
#include "args.h"
#include "handles.h"
#include "result.h"
#include "world_now.h"
#include <string.h>

#define CHAIN_SEGMENT 256u

/* The product along a chain, as the update forms it: two buffers, the
 * current one in m[cur]. */
typedef struct chain_acc {
    float m[2][16];
    int cur;
    sgrt__update_view v; /* its anchor and origin: a root's world, as the kernels form it */
} chain_acc;

static void chain_apply(const sgrt_scene *s, uint32_t c, chain_acc *a)
{
    /* A non-finite local (written in place) is the identity to the update. */
    const float *l = sgrt__finite16(s->st.local[c]) ? s->st.local[c] : sgrt__identity;
    if (s->st.parent[c] == SGRT__NONE) {
        if (a->v.anchor)
            sgrt__anchored_world(l, a->v.anchor[c], a->v.origin, a->m[a->cur]);
        else
            memcpy(a->m[a->cur], l, sizeof a->m[0]);
    } else {
        s->k.mul(a->m[a->cur], l, a->m[a->cur ^ 1]);
        a->cur ^= 1;
    }
}

/* Apply the n nodes that end at `bottom` (bottom and its n - 1 nearest
 * ancestors), topmost first. Links only lead up, so up to CHAIN_SEGMENT
 * nodes are listed on the stack and applied in reverse; a longer chain is
 * cut into at most CHAIN_SEGMENT pieces of ceil(n / CHAIN_SEGMENT) nodes,
 * whose bottoms one walk up records, and each piece is applied the same
 * way, the top one first. Each level walks its chain once and divides the
 * length by CHAIN_SEGMENT: for d <= 2^24 that is 3 levels (3 KiB of stack),
 * at most 3 link steps and exactly 1 product per node -- O(d), where
 * restarting from the bottom for each piece was O(d^2 / CHAIN_SEGMENT). */
static void chain_apply_up_to(const sgrt_scene *s, uint32_t bottom, uint32_t n, chain_acc *a)
{
    uint32_t at[CHAIN_SEGMENT];
    if (n <= CHAIN_SEGMENT) {
        for (uint32_t i = n; i-- > 0;) {
            at[i] = bottom;
            bottom = s->st.parent[bottom];
        }
        for (uint32_t i = 0; i < n; i++)
            chain_apply(s, at[i], a);
        return;
    }
    const uint32_t piece = (n - 1u) / CHAIN_SEGMENT + 1u;
    const uint32_t pieces = (n - 1u) / piece + 1u; /* <= CHAIN_SEGMENT */
    for (uint32_t j = 0; j < pieces; j++) {
        at[j] = bottom; /* bottom of piece j, counted from the bottom */
        if (j + 1u < pieces)
            for (uint32_t i = 0; i < piece; i++)
                bottom = s->st.parent[bottom];
    }
    for (uint32_t j = pieces; j-- > 0;)
        chain_apply_up_to(s, at[j], j + 1u == pieces ? n - j * piece : piece, a);
}

/* Exact world of a slot: the stored world of the parent of its topmost
 * dirty ancestor (that parent and all above it are clean, so its world is
 * current; marks below a dirty node may still be pending, so the walk goes
 * all the way up), then the locals below it multiplied top-down with the
 * scene's kernel, exactly as the update will, with no memory beyond a
 * bounded stack. */
void sgrt__world_now_slot(const sgrt_scene *s, uint32_t slot, float out[16])
{
    uint32_t depth = 0, steps = 0, x = slot;
    for (; x != SGRT__NONE; x = s->st.parent[x]) {
        steps++;
        if (sgrt__bit_get(s->st.dirty, x))
            depth = steps; /* the chain reaches this dirty node */
    }
    if (!depth) {
        memcpy(out, s->st.world[slot], 16 * sizeof(float));
        return;
    }
    x = slot;
    for (uint32_t i = 0; i < depth; i++)
        x = s->st.parent[x];
    chain_acc a;
    a.cur = 0;
    memset(&a.v, 0, sizeof a.v);
    sgrt__follow_view(s, &a.v);
    if (x != SGRT__NONE)
        memcpy(a.m[0], s->st.world[x], sizeof a.m[0]);
    chain_apply_up_to(s, slot, depth, &a);
    memcpy(out, a.m[a.cur], 16 * sizeof(float));
}

sgrt_result sgrt_node_world_now(const sgrt_scene *s, sgrt_node node, float out[16])
{
    SGRT__ENTER(s, SGRT_ERR_INVALID_ARG);
    SGRT__NOT_NULL(s, out, node);
    sgrt_result err;
    const uint32_t slot = SGRT__NODE_ARG(s, node, "node", __func__, &err);
    if (slot == SGRT__NONE)
        return err;
    sgrt__world_now_slot(s, slot, out);
    return SGRT_OK;
}

