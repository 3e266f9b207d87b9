/* SPDX-License-Identifier: MIT */
/* Snapshots of a scene's observable state (see testutil.h). */
#include "testutil.h"

static uint64_t snap_mix(uint64_t x)
{
    x ^= x >> 31;
    x *= 0x7fb5d329728ea185ull;
    x ^= x >> 27;
    x *= 0x81dadef4bc2dd44dull;
    x ^= x >> 33;
    return x;
}

/* Position of an id in the handle list: a small open-addressing table built
 * per snapshot. */
typedef struct snap_index {
    uint32_t *key, *pos;
    uint32_t mask;
} snap_index;

static void *snap_calloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1u, size);
    if (!p) {
        fprintf(stderr, "snapshot: out of memory\n");
        abort();
    }
    return p;
}

static void snap_index_build(snap_index *ix, const sgrt_node *handles, uint32_t n)
{
    uint32_t cap = 16;
    while (cap < 2u * n)
        cap *= 2u;
    ix->key = snap_calloc(cap, sizeof *ix->key);
    ix->pos = snap_calloc(cap, sizeof *ix->pos);
    ix->mask = cap - 1u;
    for (uint32_t i = 0; i < n; i++) {
        if (handles[i].id == 0)
            continue;
        uint32_t j = (handles[i].id * 2654435761u) & ix->mask;
        while (ix->key[j] != 0 && ix->key[j] != handles[i].id)
            j = (j + 1u) & ix->mask;
        ix->key[j] = handles[i].id;
        ix->pos[j] = i;
    }
}

static uint32_t snap_index_find(const snap_index *ix, uint32_t id)
{
    if (id == 0)
        return UINT32_MAX;
    for (uint32_t j = (id * 2654435761u) & ix->mask;; j = (j + 1u) & ix->mask) {
        if (ix->key[j] == id)
            return ix->pos[j];
        if (ix->key[j] == 0)
            return UINT32_MAX;
    }
}

void snapshot_take(const sgrt_scene *s, const sgrt_node *handles, uint32_t n, snapshot *out)
{
    out->node_count = sgrt_scene_node_count(s);
    out->n = n;
    out->nodes = snap_calloc(n, sizeof *out->nodes);
    snap_index ix;
    snap_index_build(&ix, handles, n);
    for (uint32_t i = 0; i < n; i++) {
        snap_node *q = &out->nodes[i];
        q->id = handles[i].id;
        q->alive = sgrt_node_alive(s, handles[i]);
        if (!q->alive)
            continue;
        sgrt_node p = SGRT_NULL_NODE, c = SGRT_NULL_NODE, next = SGRT_NULL_NODE;
        /* In validation mode a world the next update changes reads PENDING
         * (the last update's world, as always). */
        const sgrt_result w = sgrt_node_world(s, handles[i], q->world);
        if (sgrt_node_parent(s, handles[i], &p) != SGRT_OK ||
            sgrt_node_local(s, handles[i], q->local) != SGRT_OK ||
            (w != SGRT_OK && w != SGRT_ERR_PENDING) ||
            sgrt_node_world_now(s, handles[i], q->world_now) != SGRT_OK ||
            sgrt_node_first_child(s, handles[i], &c) != SGRT_OK ||
            sgrt_node_next_sibling(s, handles[i], &next) != SGRT_OK) {
            fprintf(stderr, "snapshot: node 0x%08x alive but a read failed\n",
                    (unsigned)handles[i].id);
            abort();
        }
        q->parent = p.id;
        q->parent_pos = snap_index_find(&ix, p.id);
        q->first_child = c.id;
        q->first_child_pos = snap_index_find(&ix, c.id);
        q->next_sibling = next.id;
        q->next_sibling_pos = snap_index_find(&ix, next.id);
        while (c.id != 0) {
            q->child_count++;
            q->child_sum += snap_mix(c.id);
            q->child_pos_sum += snap_mix(snap_index_find(&ix, c.id));
            if (q->child_count > out->node_count ||
                sgrt_node_next_sibling(s, c, &c) != SGRT_OK) {
                fprintf(stderr, "snapshot: bad child list under 0x%08x\n",
                        (unsigned)handles[i].id);
                abort();
            }
        }
    }
    free(ix.key);
    free(ix.pos);
}

void snapshot_free(snapshot *sn)
{
    free(sn->nodes);
    sn->nodes = NULL;
    sn->n = 0;
}

const char *snapshot_diff_ex(const snapshot *a, const snapshot *b, bool by_position)
{
    static char why[160];
    if (a->node_count != b->node_count) {
        snprintf(why, sizeof why, "node count %u vs %u", (unsigned)a->node_count,
                 (unsigned)b->node_count);
        return why;
    }
    if (a->n != b->n) {
        snprintf(why, sizeof why, "handle list length %u vs %u", (unsigned)a->n, (unsigned)b->n);
        return why;
    }
    for (uint32_t i = 0; i < a->n; i++) {
        const snap_node *x = &a->nodes[i], *y = &b->nodes[i];
        const char *what = NULL;
        if (!by_position && x->id != y->id)
            what = "handle";
        else if (x->alive != y->alive)
            what = "alive";
        else if (!x->alive)
            continue;
        else if (by_position ? x->parent_pos != y->parent_pos : x->parent != y->parent)
            what = "parent";
        else if (x->child_count != y->child_count ||
                 (by_position ? x->child_pos_sum != y->child_pos_sum
                              : x->child_sum != y->child_sum))
            what = "children";
        else if (by_position ? x->first_child_pos != y->first_child_pos
                             : x->first_child != y->first_child)
            what = "first child";
        else if (by_position ? x->next_sibling_pos != y->next_sibling_pos
                             : x->next_sibling != y->next_sibling)
            what = "next sibling";
        else if (memcmp(x->local, y->local, sizeof x->local) != 0)
            what = "local";
        else if (memcmp(x->world, y->world, sizeof x->world) != 0)
            what = "world";
        else if (memcmp(x->world_now, y->world_now, sizeof x->world_now) != 0)
            what = "world_now";
        if (what) {
            snprintf(why, sizeof why, "node #%u (0x%08x): %s differs", (unsigned)i,
                     (unsigned)x->id, what);
            return why;
        }
    }
    return NULL;
}
