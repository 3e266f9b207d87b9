/* SPDX-License-Identifier: MIT */
/* Boxes (SGRT_SCENE_BOUNDS, SGRT_SCENE_SUBTREE_BOUNDS) as a follower of the
 * scene (bounds.c). */
#ifndef SGRT_FOLLOWERS_BOUNDS_H
#define SGRT_FOLLOWERS_BOUNDS_H

#include "../follow.h"

extern const sgrt__follower sgrt__bounds_follower;

/* A node's subtree box and the bookkeeping of its maintenance (bounds.c):
 * the box as min / max corners (empty: min +inf, max -inf), one past the
 * highest slot of the subtree at the last pass (never below it: it may be
 * higher), and the number of nodes in the subtree then. */
typedef struct sgrt__subtree {
    float lo[3], hi[3];
    uint32_t end, count;
} sgrt__subtree;

/* The follower's state. Per slot (declared in bounds.c; laid out, grown
 * and moved with its node by storage, zeroed in a new block: a cull reads
 * whole words of boxes, dead and box-less slots included, so every value
 * is defined): the local box as center and half extents and the world box
 * as min and max corners, structure of arrays; which nodes have a local box
 * now (b_has), had one at the last update (b_valid: world box valid), set
 * or cleared one since (b_dirty). With SGRT_SCENE_SUBTREE_BOUNDS: the
 * subtree record, the nodes it gained not yet counted, the records to
 * revisit (s_dirty), by joining all children again (s_full). Each bitfield
 * has its summary (name_sum). */
typedef struct sgrt__bounds {
    float *lb_cx, *lb_cy, *lb_cz, *lb_ex, *lb_ey, *lb_ez;
    float *wb_lx, *wb_ly, *wb_lz, *wb_hx, *wb_hy, *wb_hz;
    sgrt__subtree *sub;
    int32_t *sub_delta;
    uint32_t *b_has, *b_has_sum, *b_valid, *b_valid_sum, *b_dirty, *b_dirty_sum;
    uint32_t *s_dirty, *s_dirty_sum, *s_full, *s_full_sum;
    /* What the after hook reads on the update's threads, taken when an
     * update starts: the kernels' view of the boxes, the worlds, the
     * scene's boxes kernel. */
    sgrt__bounds_view kview;
    const float (*kworld)[16];
    void (*kboxes)(const sgrt__bounds_view *b, const float (*world)[16], uint32_t w,
                   uint32_t bits);
    /* Subtree records name slots that a relocation or compaction has moved
     * since the last update, or runs that a destroy may have left holding
     * exactly a subtree's count of other nodes: the cull goes box by box
     * until the next update. */
    bool subtree_stale;
} sgrt__bounds;
/* s's boxes; NULL when s is NULL or has no SGRT_SCENE_BOUNDS. */
sgrt__bounds *sgrt__bounds_of(const sgrt_scene *s);

/* The kernels' view of the scene's boxes (NULL pointers without
 * SGRT_SCENE_BOUNDS). */
void sgrt__bounds_view_of(const sgrt_scene *s, sgrt__bounds_view *v);
/* The world box of `slot` (valid or not), and its subtree record's box. */
void sgrt__bounds_world_box(const sgrt_scene *s, uint32_t slot, float lo[3], float hi[3]);

/* A snapshot's boxes, as sgrt_scene_check wants them (bounds_snap.c; the
 * follower's snapshot_check). */
struct sgrt__snapview;
const char *sgrt__bounds_snapshot_check(const sgrt_scene *s, const struct sgrt__snapview *v);

#endif
