/* SPDX-License-Identifier: MIT */
/* The baseline: a scene graph as it is commonly written by hand. One heap
 * allocation per node, a growable array of child pointers, and a recursive
 * render(parent_world) that recomputes world matrices top-down. The 4x4
 * multiply is a plain C loop compiled with the project's flags. */
#ifndef SGRT_BENCH_NAIVE_H
#define SGRT_BENCH_NAIVE_H

#include <stdbool.h>
#include <stdint.h>

typedef struct naive_node {
    float local[16];
    float world[16];
    struct naive_node **children;
    uint32_t child_count;
    uint32_t child_cap;
    bool dirty; /* Nystrom's flag: local changed since the last render */
} naive_node;

/* out = a x b, column-major. */
void naive_mul(const float a[16], const float b[16], float out[16]);

/* Set a node's local matrix, as game code would. */
void naive_set_local(naive_node *node, const float m[16]);
/* The same with the dirty flag raised. */
void naive_set_local_dirty(naive_node *node, const float m[16]);

/* Set a node's local matrix from translation t, rotation quaternion q
 * (x, y, z, w, unit length) and scale: local = T x R x S, converted in plain
 * C as game code does it. */
void naive_set_trs(naive_node *node, const float t[3], const float q[4], const float s[3]);
/* The same with the dirty flag raised. */
void naive_set_trs_dirty(naive_node *node, const float t[3], const float q[4], const float s[3]);

/* Recompute the world matrix of node and its whole subtree. */
void naive_render(naive_node *node, const float parent_world[16]);
/* Dirty-flag variant: a node recomputes its world when it or an ancestor
 * changed (the flag is passed down the recursion), then clears its flag.
 * Every node is still visited. */
void naive_render_dirty(naive_node *node, const float parent_world[16], bool parent_dirty);

/* A built tree plus what the benchmark needs to drive it (not part of the
 * baseline's per-frame work). */
typedef struct naive_tree {
    uint32_t n;
    naive_node **node;  /* by creation index */
    naive_node **roots;
    uint32_t root_count;
    void **dummies;     /* shuffled heap: allocations kept live between nodes */
    uint32_t dummy_count;
} naive_tree;

/* Build from parent[] (parent[i] < i, -1 for roots). Locals start as
 * identity. shuffled == false: nodes are malloc'd in creation order, each
 * followed by its child array. shuffled == true: the same allocations are made
 * in a random permutation of the nodes, each followed by a live dummy
 * allocation of 16..256 bytes, so that neighbours in the tree are scattered
 * across the heap as in a long-running program. Returns false on NOMEM. */
bool naive_build(naive_tree *t, const int32_t *parent, uint32_t n, bool shuffled, uint64_t seed);
void naive_free(naive_tree *t);

void naive_render_all(const naive_tree *t);
void naive_render_dirty_all(const naive_tree *t);

#endif
