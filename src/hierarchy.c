/* Nodes and the hierarchy: create, destroy, re-parent, compact, and the dirty
 * marking that keeps "dirty" closed over descendants. Slot order is kept
 * topological: slot(parent) < slot(child) for every live node. */
#include "internal.h"
#include <string.h>

static const float identity[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};

/* ---- bit helpers that keep the summaries exact ---------------------------- */

static void set_alive(sgrt_scene *s, uint32_t i)
{
    const uint32_t w = i >> 5;
    s->alive[w] |= 1u << (i & 31u);
    if (s->alive[w] == ~0u)
        sgrt__bit_set(s->alive_full, w);
}

static void clear_alive(sgrt_scene *s, uint32_t i)
{
    const uint32_t w = i >> 5;
    s->alive[w] &= ~(1u << (i & 31u));
    sgrt__bit_clear(s->alive_full, w);
}

static void set_dirty(sgrt_scene *s, uint32_t i)
{
    const uint32_t w = i >> 5;
    s->dirty[w] |= 1u << (i & 31u);
    sgrt__bit_set(s->dirty_sum, w);
}

static void clear_dirty(sgrt_scene *s, uint32_t i)
{
    const uint32_t w = i >> 5;
    s->dirty[w] &= ~(1u << (i & 31u));
    if (!s->dirty[w])
        sgrt__bit_clear(s->dirty_sum, w);
}

static void note_slot(sgrt_scene *s, uint32_t i)
{
    sgrt__note_changed(s, i >> 5, 1u << (i & 31u));
}

/* Next node in pre-order after the subtree of x, within the subtree of root. */
static uint32_t skip_subtree(const sgrt_scene *s, uint32_t x, uint32_t root)
{
    while (x != root) {
        if (s->next_sibling[x] != SGRT__NONE)
            return s->next_sibling[x];
        x = s->parent[x];
    }
    return SGRT__NONE;
}

/* Next node in pre-order within the subtree of root. */
static uint32_t preorder_next(const sgrt_scene *s, uint32_t x, uint32_t root)
{
    if (s->first_child[x] != SGRT__NONE)
        return s->first_child[x];
    return skip_subtree(s, x, root);
}

void sgrt__mark_subtree(sgrt_scene *s, uint32_t slot)
{
    /* Closure: a dirty node's descendants are all dirty already, so the walk
     * stops there and each node is marked at most once per frame. */
    uint32_t x = slot;
    while (x != SGRT__NONE) {
        if (sgrt__bit_get(s->dirty, x)) {
            x = skip_subtree(s, x, slot);
            continue;
        }
        set_dirty(s, x);
        x = preorder_next(s, x, slot);
    }
}

static void link_child(sgrt_scene *s, uint32_t child, uint32_t parent)
{
    s->parent[child] = parent;
    s->prev_sibling[child] = SGRT__NONE;
    if (parent == SGRT__NONE) {
        s->next_sibling[child] = SGRT__NONE;
        return;
    }
    const uint32_t first = s->first_child[parent];
    s->next_sibling[child] = first;
    if (first != SGRT__NONE)
        s->prev_sibling[first] = child;
    s->first_child[parent] = child;
}

static void unlink_child(sgrt_scene *s, uint32_t child)
{
    const uint32_t p = s->parent[child], prev = s->prev_sibling[child],
                   next = s->next_sibling[child];
    if (prev != SGRT__NONE)
        s->next_sibling[prev] = next;
    else if (p != SGRT__NONE)
        s->first_child[p] = next;
    if (next != SGRT__NONE)
        s->prev_sibling[next] = prev;
    s->parent[child] = SGRT__NONE;
    s->prev_sibling[child] = SGRT__NONE;
    s->next_sibling[child] = SGRT__NONE;
}

/* A dead slot is taken: update slot_end and the hole count. */
static void occupy(sgrt_scene *s, uint32_t slot)
{
    if (slot < s->slot_end) {
        s->holes--;
    } else {
        s->holes += slot - s->slot_end;
        s->slot_end = slot + 1u;
    }
    set_alive(s, slot);
}

/* Trailing dead slots stop counting as used (and as holes). */
static void trim_end(sgrt_scene *s)
{
    while (s->slot_end) {
        const uint32_t last = s->slot_end - 1u;
        const uint32_t w = last >> 5;
        const uint32_t bits = s->alive[w] & (~0u >> (31u - (last & 31u)));
        if (bits) {
            const uint32_t top = w * 32u + 31u - sgrt__clz32(bits);
            s->holes -= last - top;
            s->slot_end = top + 1u;
            return;
        }
        s->holes -= (last & 31u) + 1u;
        s->slot_end = w * 32u;
    }
}

/* First dead slot after `after` (SGRT__NONE: from 0). Never past slot_end. */
static uint32_t find_free(const sgrt_scene *s, uint32_t after)
{
    const uint32_t from = after == SGRT__NONE ? 0u : after + 1u;
    if (!s->holes || from >= s->slot_end)
        return from > s->slot_end ? from : s->slot_end;
    const uint32_t f = sgrt__bits_next_clear(s->alive, s->alive_full, s->words, from);
    return f < s->slot_end ? f : s->slot_end;
}

/* ---- public: nodes --------------------------------------------------------- */

sgrt_result sgrt_node_create(sgrt_scene *s, sgrt_node parent, sgrt_node *out)
{
    if (!s || !out)
        return SGRT_ERR_INVALID_ARG;
    uint32_t ps = SGRT__NONE;
    if (parent.id != 0u) {
        ps = sgrt__resolve(s, parent);
        if (ps == SGRT__NONE)
            return SGRT_ERR_STALE_HANDLE;
    }
    if (s->node_count >= s->max_nodes)
        return SGRT_ERR_CAPACITY;
    const uint32_t slot = find_free(s, ps);
    sgrt_result r = sgrt__ensure_slots(s, (uint64_t)slot + 1u);
    if (r == SGRT_OK)
        r = sgrt__ensure_handle(s);
    if (r != SGRT_OK)
        return r;

    const uint32_t index = sgrt__take_handle(s, slot);
    s->slot_handle[slot] = index;
    memcpy(s->local[slot], identity, sizeof identity);
    /* The world it would have had at the last update. */
    memcpy(s->world[slot], ps == SGRT__NONE ? identity : s->world[ps], sizeof identity);
    s->user[slot] = 0;
    s->first_child[slot] = SGRT__NONE;
    link_child(s, slot, ps);
    occupy(s, slot);
    set_dirty(s, slot);
    s->node_count++;
    note_slot(s, slot);
    *out = sgrt__handle_of_slot(s, slot);
    return SGRT_OK;
}

sgrt_result sgrt_node_destroy(sgrt_scene *s, sgrt_node node)
{
    if (!s)
        return SGRT_ERR_INVALID_ARG;
    const uint32_t root = sgrt__resolve(s, node);
    if (root == SGRT__NONE)
        return SGRT_ERR_STALE_HANDLE;
    unlink_child(s, root);
    uint32_t x = root;
    while (x != SGRT__NONE) {
        const uint32_t next = preorder_next(s, x, root);
        sgrt__release_handle(s, s->slot_handle[x]);
        sgrt__nodesets_forget(s, x);
        clear_alive(s, x);
        clear_dirty(s, x);
        note_slot(s, x);
        s->holes++;
        s->node_count--;
        x = next;
    }
    trim_end(s);
    return SGRT_OK;
}

bool sgrt_node_alive(const sgrt_scene *s, sgrt_node node)
{
    return sgrt__resolve(s, node) != SGRT__NONE;
}

static sgrt_result link_query(const sgrt_scene *s, sgrt_node node, sgrt_node *out,
                              const uint32_t *links)
{
    if (!s || !out)
        return SGRT_ERR_INVALID_ARG;
    const uint32_t slot = sgrt__resolve(s, node);
    if (slot == SGRT__NONE)
        return SGRT_ERR_STALE_HANDLE;
    const uint32_t l = links[slot];
    *out = l == SGRT__NONE ? SGRT_NULL_NODE : sgrt__handle_of_slot(s, l);
    return SGRT_OK;
}

sgrt_result sgrt_node_parent(const sgrt_scene *s, sgrt_node node, sgrt_node *out_parent)
{
    return link_query(s, node, out_parent, s ? s->parent : NULL);
}

sgrt_result sgrt_node_first_child(const sgrt_scene *s, sgrt_node node, sgrt_node *out)
{
    return link_query(s, node, out, s ? s->first_child : NULL);
}

sgrt_result sgrt_node_next_sibling(const sgrt_scene *s, sgrt_node node, sgrt_node *out)
{
    return link_query(s, node, out, s ? s->next_sibling : NULL);
}

/* ---- re-parenting ---------------------------------------------------------- */

/* Move the subtree at `root` (already unlinked) to dead slots after `after`,
 * in pre-order so that parents stay before children. The caller has made
 * sure the slots exist. Returns the subtree root's new slot. */
static uint32_t relocate(sgrt_scene *s, uint32_t root, uint32_t after, uint32_t k)
{
    uint32_t *sub = s->scratch, *dst = s->scratch + k;
    uint32_t n = 0;
    for (uint32_t x = root; x != SGRT__NONE; x = preorder_next(s, x, root))
        sub[n++] = x;
    uint32_t f = after;
    for (uint32_t j = 0; j < k; j++) {
        f = find_free(s, f);
        dst[j] = f;
        occupy(s, f);
    }
    for (uint32_t j = 0; j < k; j++)
        s->handle_slot[s->slot_handle[sub[j]]] = dst[j];
#define REMAP(v) ((v) == SGRT__NONE ? SGRT__NONE : s->handle_slot[s->slot_handle[(v)]])
    for (uint32_t j = 0; j < k; j++) {
        const uint32_t o = sub[j], d = dst[j];
        memcpy(s->local[d], s->local[o], sizeof s->local[d]);
        memcpy(s->world[d], s->world[o], sizeof s->world[d]);
        s->user[d] = s->user[o];
        s->slot_handle[d] = s->slot_handle[o];
        s->parent[d] = REMAP(s->parent[o]);
        s->first_child[d] = REMAP(s->first_child[o]);
        s->next_sibling[d] = REMAP(s->next_sibling[o]);
        s->prev_sibling[d] = REMAP(s->prev_sibling[o]);
    }
#undef REMAP
    for (uint32_t j = 0; j < k; j++) {
        sgrt__nodesets_move(s, sub[j], dst[j]);
        clear_alive(s, sub[j]);
        clear_dirty(s, sub[j]);
        s->holes++;
        note_slot(s, sub[j]);
        note_slot(s, dst[j]);
    }
    trim_end(s);
    return dst[0];
}

static uint32_t subtree_size(const sgrt_scene *s, uint32_t root)
{
    uint32_t k = 0;
    for (uint32_t x = root; x != SGRT__NONE; x = preorder_next(s, x, root))
        k++;
    return k;
}

/* One past the last slot that relocating k nodes after `after` would use. */
static uint64_t relocation_end(const sgrt_scene *s, uint32_t after, uint32_t k)
{
    uint32_t f = after, used_holes = 0;
    while (used_holes < k) {
        const uint32_t g = find_free(s, f);
        if (g >= s->slot_end)
            return (uint64_t)s->slot_end + (k - used_holes);
        used_holes++;
        f = g;
    }
    return (uint64_t)f + 1u > s->slot_end ? (uint64_t)f + 1u : s->slot_end;
}

sgrt_result sgrt_node_set_parent(sgrt_scene *s, sgrt_node node, sgrt_node parent, sgrt_keep keep)
{
    if (!s || (keep != SGRT_KEEP_LOCAL && keep != SGRT_KEEP_WORLD))
        return SGRT_ERR_INVALID_ARG;
    uint32_t ns = sgrt__resolve(s, node);
    if (ns == SGRT__NONE)
        return SGRT_ERR_STALE_HANDLE;
    uint32_t ps = SGRT__NONE;
    if (parent.id != 0u) {
        ps = sgrt__resolve(s, parent);
        if (ps == SGRT__NONE)
            return SGRT_ERR_STALE_HANDLE;
        for (uint32_t a = ps; a != SGRT__NONE; a = s->parent[a])
            if (a == ns)
                return SGRT_ERR_CYCLE;
    }
    if (s->parent[ns] == ps)
        return SGRT_OK; /* same parent: neither local nor world can change */

    float new_local[16];
    if (keep == SGRT_KEEP_WORLD) {
        float w[16];
        sgrt__world_now_slot(s, ns, w);
        if (ps == SGRT__NONE) {
            if (!sgrt__all_finite(w, 16))
                return SGRT_ERR_SINGULAR;
            memcpy(new_local, w, sizeof w);
        } else {
            float pw[16];
            sgrt__world_now_slot(s, ps, pw);
            if (!sgrt__all_finite(pw, 16) || !sgrt__all_finite(w, 16) ||
                !sgrt__relative_local(pw, w, new_local))
                return SGRT_ERR_SINGULAR;
        }
    }

    uint32_t k = 0;
    if (ps != SGRT__NONE && ps > ns) {
        k = subtree_size(s, ns);
        const sgrt_result r = sgrt__ensure_slots(s, relocation_end(s, ps, k));
        if (r != SGRT_OK)
            return r;
    }
    /* Nothing can fail from here on. */
    unlink_child(s, ns);
    if (k)
        ns = relocate(s, ns, ps, k);
    link_child(s, ns, ps);
    if (keep == SGRT_KEEP_WORLD)
        memcpy(s->local[ns], new_local, sizeof new_local);
    sgrt__mark_subtree(s, ns);
    return SGRT_OK;
}

sgrt_result sgrt_scene_compact(sgrt_scene *s)
{
    if (!s)
        return SGRT_ERR_INVALID_ARG;
    return sgrt__storage_compact(s);
}
