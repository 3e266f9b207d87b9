/* SPDX-License-Identifier: MIT */
/* Nodes and their links: create, destroy, re-parent (with the relocation that
 * keeps slot order topological: slot(parent) < slot(child) for every live
 * node) and link queries. A new node takes the first dead slot after its
 * parent's. */
#include "follow.h"
#include "args.h"
#include "dirty.h"
#include "handles.h"
#include "walk.h"
#include "matrix.h"
#include "result.h"
#include "storage.h"
#include "world_now.h"
#include <string.h>

static const float identity[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};

static void link_child(sgrt_scene *s, uint32_t child, uint32_t parent)
{
    s->structure_version++;
    s->st.parent[child] = parent;
    s->st.prev_sibling[child] = SGRT__NONE;
    if (parent == SGRT__NONE) {
        s->st.next_sibling[child] = SGRT__NONE;
        return;
    }
    const uint32_t first = s->st.first_child[parent];
    s->st.next_sibling[child] = first;
    if (first != SGRT__NONE)
        s->st.prev_sibling[first] = child;
    s->st.first_child[parent] = child;
    sgrt__bit_set(s->st.inner, parent);
}

static void unlink_child(sgrt_scene *s, uint32_t child)
{
    s->structure_version++;
    const uint32_t p = s->st.parent[child], prev = s->st.prev_sibling[child],
                   next = s->st.next_sibling[child];
    if (prev != SGRT__NONE)
        s->st.next_sibling[prev] = next;
    else if (p != SGRT__NONE && (s->st.first_child[p] = next) == SGRT__NONE)
        sgrt__bit_clear(s->st.inner, p);
    if (next != SGRT__NONE)
        s->st.prev_sibling[next] = prev;
    s->st.parent[child] = SGRT__NONE;
    s->st.prev_sibling[child] = SGRT__NONE;
    s->st.next_sibling[child] = SGRT__NONE;
}

/* ---- public: nodes --------------------------------------------------------- */

sgrt_result sgrt_node_create(sgrt_scene *s, sgrt_node parent, sgrt_node *out)
{
    SGRT__ENTER(s, SGRT_ERR_INVALID_ARG);
    SGRT__NOT_NULL(s, out, parent);
    uint32_t ps = SGRT__NONE;
    if (parent.id != 0u) {
        sgrt_result err;
        ps = SGRT__NODE_ARG(s, parent, "parent", __func__, &err);
        if (ps == SGRT__NONE)
            return err;
    }
    if (s->node_count >= s->max_nodes)
        return sgrt__fail(s, SGRT_ERR_CAPACITY, __func__,
                          "the scene holds max_nodes nodes already", parent);
    const uint32_t slot = sgrt__slot_find_free(s, ps);
    sgrt_result r = sgrt__storage_ensure(s, (uint64_t)slot + 1u);
    if (r == SGRT_OK)
        r = sgrt__handle_ensure(s);
    if (r != SGRT_OK)
        return sgrt__fail_grow(s, r, __func__, parent);

    const uint32_t index = sgrt__handle_take(s, slot);
    s->st.slot_handle[slot] = index;
    memcpy(s->st.local[slot], identity, sizeof identity);
    /* The world it would have had at the last update. */
    memcpy(s->st.world[slot], ps == SGRT__NONE ? identity : s->st.world[ps], sizeof identity);
    s->st.user[slot] = 0;
    s->st.first_child[slot] = SGRT__NONE;
    sgrt__follow_created(s, slot);
    link_child(s, slot, ps);
    sgrt__slot_occupy(s, slot);
    sgrt__dirty_set(s, slot);
    if (ps == SGRT__NONE)
        sgrt__follow_rooted(s, slot);
    s->node_count++;
    sgrt__follow_changed_slot(s, slot);
    *out = sgrt__handle_of_slot(s, slot);
    return SGRT_OK;
}

sgrt_result sgrt_node_destroy(sgrt_scene *s, sgrt_node node)
{
    SGRT__ENTER(s, SGRT_ERR_INVALID_ARG);
    sgrt_result err;
    const uint32_t root = SGRT__NODE_ARG(s, node, "node", __func__, &err);
    if (root == SGRT__NONE)
        return err;
    sgrt__follow_unlinked(s, root);
    unlink_child(s, root);
    uint32_t x = root;
    while (x != SGRT__NONE) {
        const uint32_t next = sgrt__preorder_next(s, x, root);
        sgrt__handle_release(s, s->st.slot_handle[x]);
        sgrt__slot_vacate(s, x);
        sgrt__dirty_clear(s, x);
        sgrt__follow_changed_slot(s, x);
        s->node_count--;
        x = next;
    }
    sgrt__slots_trim(s);
    if (sgrt__slots_reclaim_due(s))
        sgrt__slots_reclaim(s);
    return SGRT_OK;
}

bool sgrt_node_alive(const sgrt_scene *s, sgrt_node node)
{
    return s && sgrt__resolve(s, node) != SGRT__NONE;
}

static sgrt_result link_query(const sgrt_scene *s, sgrt_node node, sgrt_node *out,
                              const uint32_t *links, const char *function, const char *out_null)
{
    SGRT__ENTER(s, SGRT_ERR_INVALID_ARG);
    if (!out)
        return sgrt__fail(s, SGRT_ERR_INVALID_ARG, function, out_null, node);
    sgrt_result err;
    const uint32_t slot = SGRT__NODE_ARG(s, node, "node", function, &err);
    if (slot == SGRT__NONE)
        return err;
    const uint32_t l = links[slot];
    *out = l == SGRT__NONE ? SGRT_NULL_NODE : sgrt__handle_of_slot(s, l);
    return SGRT_OK;
}

sgrt_result sgrt_node_parent(const sgrt_scene *s, sgrt_node node, sgrt_node *out_parent)
{
    return link_query(s, node, out_parent, s ? s->st.parent : NULL, __func__,
                      "out_parent is NULL");
}

sgrt_result sgrt_node_first_child(const sgrt_scene *s, sgrt_node node, sgrt_node *out)
{
    return link_query(s, node, out, s ? s->st.first_child : NULL, __func__, "out is NULL");
}

sgrt_result sgrt_node_next_sibling(const sgrt_scene *s, sgrt_node node, sgrt_node *out)
{
    return link_query(s, node, out, s ? s->st.next_sibling : NULL, __func__, "out is NULL");
}

/* ---- re-parenting ---------------------------------------------------------- */

sgrt_result sgrt_node_set_parent(sgrt_scene *s, sgrt_node node, sgrt_node parent, sgrt_keep keep)
{
    SGRT__ENTER(s, SGRT_ERR_INVALID_ARG);
    if (keep != SGRT_KEEP_LOCAL && keep != SGRT_KEEP_WORLD)
        return sgrt__fail(s, SGRT_ERR_INVALID_ARG, __func__,
                          "keep is neither SGRT_KEEP_LOCAL nor SGRT_KEEP_WORLD", node);
    sgrt_result err;
    uint32_t ns = SGRT__NODE_ARG(s, node, "node", __func__, &err);
    if (ns == SGRT__NONE)
        return err;
    uint32_t ps = SGRT__NONE;
    if (parent.id != 0u) {
        ps = SGRT__NODE_ARG(s, parent, "parent", __func__, &err);
        if (ps == SGRT__NONE)
            return err;
        for (uint32_t a = ps; a != SGRT__NONE; a = s->st.parent[a])
            if (a == ns)
                return sgrt__fail(s, SGRT_ERR_CYCLE, __func__,
                                  "parent is node itself or one of its descendants", node);
    }
    if (s->st.parent[ns] == ps)
        return SGRT_OK; /* same parent: neither local nor world can change */

    float new_local[16];
    if (keep == SGRT_KEEP_WORLD) {
        float w[16];
        sgrt__world_now_slot(s, ns, w);
        if (ps == SGRT__NONE) {
            if (!sgrt__all_finite(w, 16))
                return sgrt__fail(s, SGRT_ERR_SINGULAR, __func__,
                                  "node's world is not finite: SGRT_KEEP_WORLD cannot keep it",
                                  node);
            memcpy(new_local, w, sizeof w);
        } else {
            float pw[16];
            sgrt__world_now_slot(s, ps, pw);
            if (!sgrt__keep_world_local(s->k.mul, pw, w, new_local))
                return sgrt__fail(s, SGRT_ERR_SINGULAR, __func__,
                                  "parent's world has no usable inverse, or node's new local "
                                  "would miss its world by more than SGRT_KEEP_WORLD's "
                                  "tolerance",
                                  node);
        }
    }

    /* A parent stored after the node: the subtree moves after it. */
    const uint32_t k = ps != SGRT__NONE && ps > ns ? sgrt__subtree_size(s, ns) : 0u;
    if (k) {
        const sgrt_result r = sgrt__slots_relocate_room(s, &ns, &ps, k);
        if (r != SGRT_OK)
            return sgrt__fail_grow(s, r, __func__, node);
    }
    /* Nothing can fail from here on. */
    sgrt__follow_unlinked(s, ns);
    unlink_child(s, ns);
    if (k)
        ns = sgrt__slots_relocate(s, ns, ps, k);
    link_child(s, ns, ps);
    sgrt__follow_linked(s, ns);
    if (keep == SGRT_KEEP_WORLD)
        memcpy(s->st.local[ns], new_local, sizeof new_local);
    sgrt__follow_reparented(s, ns, keep == SGRT_KEEP_WORLD);
    sgrt__dirty_mark(s, ns, true);
    if (ps == SGRT__NONE)
        sgrt__follow_rooted(s, ns);
    if (k && sgrt__slots_reclaim_due(s))
        sgrt__slots_reclaim(s);
    return SGRT_OK;
}
