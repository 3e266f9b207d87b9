/* The per-frame update, and the exact world of one node now (what the next
 * update will store). Neither allocates. */
#include "internal.h"
#include <string.h>

#define CHAIN_SEGMENT 256u

/* The product along a chain, as the update forms it: two buffers, the
 * current one in m[cur]. */
typedef struct chain_acc {
    float m[2][16];
    int cur;
} chain_acc;

static void chain_apply(const sgrt_scene *s, uint32_t c, chain_acc *a)
{
    if (s->st.parent[c] == SGRT__NONE) {
        memcpy(a->m[a->cur], s->st.local[c], sizeof a->m[0]);
    } else {
        s->k.mul(a->m[a->cur], s->st.local[c], a->m[a->cur ^ 1]);
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
    if (x != SGRT__NONE)
        memcpy(a.m[0], s->st.world[x], sizeof a.m[0]);
    chain_apply_up_to(s, slot, depth, &a);
    memcpy(out, a.m[a.cur], 16 * sizeof(float));
}

sgrt_result sgrt_node_world_now(const sgrt_scene *s, sgrt_node node, float out[16])
{
    if (!s)
        return SGRT_ERR_INVALID_ARG;
    if (!out)
        return sgrt__fail(s, SGRT_ERR_INVALID_ARG, __func__, "out is NULL", node);
    const uint32_t slot = sgrt__resolve(s, node);
    if (slot == SGRT__NONE)
        return sgrt__fail(s, SGRT_ERR_STALE_HANDLE, __func__, SGRT__STALE("node"), node);
    sgrt__world_now_slot(s, slot, out);
    return SGRT_OK;
}

uint32_t sgrt__update_side_word(sgrt_scene *s, uint32_t w, uint32_t d, uint32_t mask)
{
    sgrt__storage *st = &s->st;
    const uint32_t early = st->early[w] & d;
    sgrt__trackers_note(s, w, d);
    if (st->prev_world)
        sgrt__prev_save_word(s, w, d, mask);
    if (st->b_has)
        sgrt__bounds_side_word(s, w, d, mask, early);
    if (!early)
        return 0;
    st->early[w] &= ~early;
    st->dirty[w] &= ~early;
    if (!st->dirty[w])
        sgrt__bit_clear(st->dirty_sum, w);
    return sgrt__popcount32(early);
}

bool sgrt__update_has_side_work(const sgrt_scene *s)
{
    return s->reg.tracker_count || s->st.prev_world || s->st.b_has || s->early_end;
}

void sgrt__early_settle(sgrt_scene *s)
{
    if (!s->early_doubt)
        return;
    s->early_doubt = false;
    /* In slot order, parents first: a parent's early bit is settled before
     * its children read it. */
    sgrt__storage *st = &s->st;
    const uint32_t end_word = (s->early_end + 31u) >> 5;
    for (uint32_t w = 0; w < end_word; w++) {
        uint32_t bits = st->early[w];
        SGRT__FOR_EACH_IN_WORD(w, bits, i,
            const uint32_t p = st->parent[i];
            const bool final = p == SGRT__NONE ||
                               (sgrt__bit_get(st->early, p)
                                    ? st->early_write[p] <= st->early_write[i]
                                    : !sgrt__bit_get(st->dirty, p) &&
                                          (s->close_from == SGRT__NONE || p < s->close_from));
            if (!final)
                st->early[w] &= ~(1u << (i & 31u));
        )
    }
}

/* The side work of the serial update, word by word: the dirty words, with
 * previous worlds the words the last update recomputed too, with bounds the
 * words whose boxes were set. */
static uint32_t side_work(sgrt_scene *s)
{
    const sgrt__storage *st = &s->st;
    if (!sgrt__update_has_side_work(s))
        return 0;
    uint32_t early = 0;
    for (uint32_t sw = 0; sw < st->sum_words; sw++) {
        uint32_t words = st->dirty_sum[sw] | (st->prev_world ? st->prev_moved_sum[sw] : 0u) |
                         (st->b_has ? st->b_dirty_sum[sw] : 0u);
        SGRT__FOR_EACH_IN_WORD(sw, words, w,
            early += sgrt__update_side_word(s, w, st->dirty[w], ~0u);)
    }
    return early;
}

void sgrt__update_finish(sgrt_scene *s)
{
    s->early_end = 0; /* every early slot left the dirty bits */
    s->early_writes = 0;
    if (s->st.prev_world)
        sgrt__prev_finish(s);
    if (s->st.sub)
        sgrt__subtree_pass(s);
    s->subtree_stale = false;
}

uint32_t sgrt_scene_update(sgrt_scene *s)
{
    if (!s)
        return 0;
    if (s->busy) {
        sgrt__reentered(s, __func__);
        return 0;
    }
    if (SGRT__VALIDATING(s))
        sgrt__validate_locals(s, __func__);
    return sgrt__update_serial(s);
}

uint32_t sgrt__update_serial(sgrt_scene *s)
{
    sgrt__dirty_close(s);
    sgrt__early_settle(s);
    /* Before the kernel clears the dirty words. */
    const uint32_t early = side_work(s);
    sgrt__bounds_view bv;
    sgrt__bounds_view_of(s, &bv);
    const sgrt__update_view v = {
        (const float(*)[16])s->st.local, s->st.world,     s->st.parent,
        s->st.dirty,                     s->st.dirty_sum, 0, s->st.sum_words,
        s->st.b_has ? &bv : NULL,
    };
    const uint32_t count = s->k.update(&v) + early;
    sgrt__update_finish(s);
    return count;
}
