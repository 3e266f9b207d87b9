/* SPDX-License-Identifier: MIT */
#include "naive.h"
#include "scenes.h"

#include <stdlib.h>
#include <string.h>

static const float identity[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};

void naive_mul(const float a[16], const float b[16], float out[16])
{
    for (int c = 0; c < 4; c++) {
        for (int r = 0; r < 4; r++) {
            float sum = 0.0f;
            for (int k = 0; k < 4; k++)
                sum += a[k * 4 + r] * b[c * 4 + k];
            out[c * 4 + r] = sum;
        }
    }
}

void naive_set_local(naive_node *node, const float m[16])
{
    memcpy(node->local, m, sizeof node->local);
}

void naive_set_local_dirty(naive_node *node, const float m[16])
{
    memcpy(node->local, m, sizeof node->local);
    node->dirty = true;
}

/* The textbook rotation matrix of a unit quaternion, its columns scaled by
 * the scale's axes, the translation in the last column. */
static void trs_to_matrix(const float t[3], const float q[4], const float s[3], float m[16])
{
    const float x = q[0], y = q[1], z = q[2], w = q[3];
    m[0] = (1.0f - 2.0f * (y * y + z * z)) * s[0];
    m[1] = 2.0f * (x * y + w * z) * s[0];
    m[2] = 2.0f * (x * z - w * y) * s[0];
    m[3] = 0.0f;
    m[4] = 2.0f * (x * y - w * z) * s[1];
    m[5] = (1.0f - 2.0f * (x * x + z * z)) * s[1];
    m[6] = 2.0f * (y * z + w * x) * s[1];
    m[7] = 0.0f;
    m[8] = 2.0f * (x * z + w * y) * s[2];
    m[9] = 2.0f * (y * z - w * x) * s[2];
    m[10] = (1.0f - 2.0f * (x * x + y * y)) * s[2];
    m[11] = 0.0f;
    m[12] = t[0];
    m[13] = t[1];
    m[14] = t[2];
    m[15] = 1.0f;
}

void naive_set_trs(naive_node *node, const float t[3], const float q[4], const float s[3])
{
    trs_to_matrix(t, q, s, node->local);
}

void naive_set_trs_dirty(naive_node *node, const float t[3], const float q[4], const float s[3])
{
    trs_to_matrix(t, q, s, node->local);
    node->dirty = true;
}

void naive_render(naive_node *node, const float parent_world[16])
{
    naive_mul(parent_world, node->local, node->world);
    for (uint32_t i = 0; i < node->child_count; i++)
        naive_render(node->children[i], node->world);
}

void naive_render_dirty(naive_node *node, const float parent_world[16], bool parent_dirty)
{
    bool dirty = parent_dirty || node->dirty;
    if (dirty) {
        naive_mul(parent_world, node->local, node->world);
        node->dirty = false;
    }
    for (uint32_t i = 0; i < node->child_count; i++)
        naive_render_dirty(node->children[i], node->world, dirty);
}

void naive_render_all(const naive_tree *t)
{
    for (uint32_t i = 0; i < t->root_count; i++)
        naive_render(t->roots[i], identity);
}

void naive_render_dirty_all(const naive_tree *t)
{
    for (uint32_t i = 0; i < t->root_count; i++)
        naive_render_dirty(t->roots[i], identity, false);
}

static bool add_child(naive_node *p, naive_node *c)
{
    if (p->child_count == p->child_cap) {
        uint32_t cap = p->child_cap ? p->child_cap * 2 : 4;
        naive_node **a = realloc(p->children, cap * sizeof *a);
        if (!a)
            return false;
        p->children = a;
        p->child_cap = cap;
    }
    p->children[p->child_count++] = c;
    return true;
}

bool naive_build(naive_tree *t, const int32_t *parent, uint32_t n, bool shuffled, uint64_t seed)
{
    memset(t, 0, sizeof *t);
    uint32_t *order = malloc((size_t)n * sizeof *order);
    uint32_t *nchild = calloc(n, sizeof *nchild);
    t->node = calloc(n, sizeof *t->node);
    t->roots = malloc(sizeof *t->roots);
    if (shuffled)
        t->dummies = malloc((size_t)n * sizeof *t->dummies);
    if (!order || !nchild || !t->node || !t->roots || (shuffled && !t->dummies))
        goto fail;
    t->n = n;
    uint32_t roots = 0;
    for (uint32_t i = 0; i < n; i++) {
        order[i] = i;
        if (parent[i] >= 0)
            nchild[parent[i]]++;
        else
            roots++;
    }
    if (roots > 1) {
        naive_node **r = realloc(t->roots, roots * sizeof *r);
        if (!r)
            goto fail;
        t->roots = r;
    }
    bench_rng rng = {seed};
    if (shuffled) {
        for (uint32_t i = n; i > 1; i--) {
            uint32_t j = bench_rng_below(&rng, i);
            uint32_t tmp = order[i - 1];
            order[i - 1] = order[j];
            order[j] = tmp;
        }
    }
    /* The heap layout is decided here: each node is allocated with its child
     * array (sized for its children, as a loader that knows the counts would
     * do), in creation order or shuffled. */
    for (uint32_t k = 0; k < n; k++) {
        const uint32_t i = order[k];
        naive_node *node = malloc(sizeof *node);
        if (!node)
            goto fail;
        memset(node, 0, sizeof *node);
        memcpy(node->local, identity, sizeof identity);
        memcpy(node->world, identity, sizeof identity);
        node->dirty = true;
        t->node[i] = node;
        if (nchild[i]) {
            node->children = malloc(nchild[i] * sizeof *node->children);
            if (!node->children)
                goto fail;
            node->child_cap = nchild[i];
        }
        if (shuffled) {
            void *d = malloc(16 + bench_rng_below(&rng, 241));
            if (!d)
                goto fail;
            t->dummies[t->dummy_count++] = d;
        }
    }
    for (uint32_t i = 0; i < n; i++) {
        if (parent[i] >= 0) {
            if (!add_child(t->node[parent[i]], t->node[i]))
                goto fail;
        } else {
            t->roots[t->root_count++] = t->node[i];
        }
    }
    free(order);
    free(nchild);
    return true;
fail:
    free(order);
    free(nchild);
    naive_free(t);
    return false;
}

void naive_free(naive_tree *t)
{
    if (t->node) {
        for (uint32_t i = 0; i < t->n; i++) {
            if (t->node[i]) {
                free(t->node[i]->children);
                free(t->node[i]);
            }
        }
    }
    for (uint32_t i = 0; i < t->dummy_count; i++)
        free(t->dummies[i]);
    free(t->dummies);
    free(t->node);
    free(t->roots);
    memset(t, 0, sizeof *t);
}
