/* SPDX-License-Identifier: MIT */
/* Walks over the links (parent, first child, next sibling), inline, for
 * every file that follows them; hierarchy.c keeps the links. */
#ifndef SGRT_WALK_H
#define SGRT_WALK_H

#include "internal.h"

/* Next node in pre-order after the subtree of x, within the subtree of root. */
static inline uint32_t sgrt__skip_subtree(const sgrt_scene *s, uint32_t x, uint32_t root)
{
    while (x != root) {
        if (s->st.next_sibling[x] != SGRT__NONE)
            return s->st.next_sibling[x];
        x = s->st.parent[x];
    }
    return SGRT__NONE;
}

/* Next node in pre-order within the subtree of root (SGRT__NONE at the end). */
static inline uint32_t sgrt__preorder_next(const sgrt_scene *s, uint32_t x, uint32_t root)
{
    if (s->st.first_child[x] != SGRT__NONE)
        return s->st.first_child[x];
    return sgrt__skip_subtree(s, x, root);
}

#endif
