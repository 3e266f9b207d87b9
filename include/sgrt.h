/*
 * sgrt — scene-graph transform runtime.
 *
 * Every node has a local 4x4 matrix; its world matrix is parent_world x local.
 * Setting a local transform only marks bits; sgrt_scene_update() recomputes,
 * in one forward pass, exactly the world matrices that can have changed.
 *
 * Conventions
 *   - Matrices are column-major float[16]: m[col*4 + row], column vectors,
 *     translation in m[12], m[13], m[14] (the layout of OpenGL, Vulkan, GLSL
 *     mat4 and cglm). world = parent_world x local; a root's world is its local.
 *   - Results: SGRT_OK (0) or a negative sgrt_result. A call that fails changes
 *     nothing in the scene.
 *   - Handles: sgrt_node is a 32-bit id (slot-table index + generation). The id
 *     0 is never valid, so a zero-initialised handle is safely invalid.
 *   - Threads: no globals, no hidden threads. Distinct scenes may be used from
 *     distinct threads freely. Functions taking `const sgrt_scene *` may run
 *     concurrently with each other on one scene; any other call on a scene needs
 *     exclusive access to it.
 *   - Memory: a scene owns all of its storage. Only sgrt_scene_create,
 *     sgrt_scene_reserve, sgrt_scene_compact, sgrt_node_create and
 *     sgrt_node_set_parent (when it must grow the scene) allocate. Setting
 *     transforms, updating and reading never allocate.
 *
 * The cost figures below use n = nodes in the scene, d = depth of a node,
 * k = nodes in a subtree.
 */
#ifndef SGRT_H
#define SGRT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) && !defined(SGRT_STATIC_ONLY)
#define SGRT_API __attribute__((visibility("default")))
#else
#define SGRT_API
#endif

#define SGRT_VERSION_MAJOR 0
#define SGRT_VERSION_MINOR 1
#define SGRT_VERSION_PATCH 0

/* ------------------------------------------------------------------------- */
/* Types                                                                     */
/* ------------------------------------------------------------------------- */

/** Opaque scene: one independent world of nodes. */
typedef struct sgrt_scene sgrt_scene;

/** Node handle. Bits 0..23: slot-table index; bits 24..31: generation
 *  (never 0). A destroyed node's handle is refused until its index has been
 *  reused 255 times; indices are reused first-in first-out and only once at
 *  least 1024 are free, so that takes at least 261,120 node destructions. */
typedef struct sgrt_node {
    uint32_t id;
} sgrt_node;

#ifdef __cplusplus
#define SGRT_NULL_NODE (sgrt_node{0})
#else
#define SGRT_NULL_NODE ((sgrt_node){0})
#endif

/** Most nodes one scene can hold (the handle index space: 2^24 - 1). */
#define SGRT_MAX_NODES 16777215u

typedef enum sgrt_result {
    SGRT_OK = 0,
    SGRT_ERR_INVALID_ARG = -1,  /**< NULL pointer, bad option, non-finite input */
    SGRT_ERR_STALE_HANDLE = -2, /**< zero, destroyed, out of range, or from another scene */
    SGRT_ERR_CYCLE = -3,        /**< reparent would make a node its own ancestor */
    SGRT_ERR_NOMEM = -4,        /**< the allocator failed; nothing changed */
    SGRT_ERR_CAPACITY = -5,     /**< max_nodes (or the slot limit) reached */
    SGRT_ERR_SINGULAR = -6,     /**< keep-world reparent under a parent whose world has no inverse */
    SGRT_ERR_CORRUPT = -7       /**< sgrt_scene_check found a broken internal invariant */
} sgrt_result;

/** Static, human-readable name of a result ("SGRT_OK", ...). Never NULL. */
SGRT_API const char *sgrt_result_str(sgrt_result r);

/** Allocator hooks. Both functions are required when an allocator is given.
 *  alloc returns memory aligned to at least `align` (a power of two, at most
 *  64) or NULL; free receives the size that was asked for. */
typedef struct sgrt_allocator {
    void *(*alloc)(size_t size, size_t align, void *user);
    void (*free)(void *ptr, size_t size, void *user);
    void *user;
} sgrt_allocator;

/** Scene options. A zero-initialised desc means defaults. */
typedef struct sgrt_scene_desc {
    uint32_t initial_capacity;       /**< nodes to reserve up front (0: a small default) */
    uint32_t max_nodes;              /**< 0 = SGRT_MAX_NODES */
    const sgrt_allocator *allocator; /**< NULL = malloc/free; copied, need not outlive the call */
} sgrt_scene_desc;

/** What sgrt_node_set_parent keeps fixed. */
typedef enum sgrt_keep {
    SGRT_KEEP_LOCAL = 0, /**< keep the local matrix: the world moves with the new parent */
    SGRT_KEEP_WORLD = 1  /**< rewrite the local so the world matrix stays put */
} sgrt_keep;

/* ------------------------------------------------------------------------- */
/* Scene                                                                     */
/* ------------------------------------------------------------------------- */

/** Create an empty scene. `desc` may be NULL (defaults).
 *  Errors: INVALID_ARG (out NULL, allocator with a NULL function, max_nodes >
 *  SGRT_MAX_NODES, initial_capacity > max_nodes), NOMEM. Allocates. */
SGRT_API sgrt_result sgrt_scene_create(const sgrt_scene_desc *desc, sgrt_scene **out);

/** Destroy a scene and everything it owns. NULL is a no-op. Every handle of
 *  the scene becomes meaningless. */
SGRT_API void sgrt_scene_destroy(sgrt_scene *scene);

/** Make room for `node_count` nodes in total so that creating up to that many
 *  nodes (appended after the current ones) does not allocate.
 *  Errors: INVALID_ARG (scene NULL), CAPACITY (above max_nodes), NOMEM. */
SGRT_API sgrt_result sgrt_scene_reserve(sgrt_scene *s, uint32_t node_count);

/** Re-order all nodes depth-first (each node followed by its subtree), closing
 *  the holes left by destroyed nodes, for cache locality. Handles stay valid;
 *  world matrices, dirty state and pending work are kept. Slots change.
 *  Cost O(n); allocates a new set of arrays and frees the old one.
 *  Errors: INVALID_ARG, NOMEM (scene unchanged). */
SGRT_API sgrt_result sgrt_scene_compact(sgrt_scene *s);

/** Number of live nodes. 0 for NULL. O(1). */
SGRT_API uint32_t sgrt_scene_node_count(const sgrt_scene *s);

/* ------------------------------------------------------------------------- */
/* Nodes                                                                     */
/* ------------------------------------------------------------------------- */

/** Create a node under `parent` (SGRT_NULL_NODE: a new root). Its local is the
 *  identity and it counts as moved: the next update computes its world. Until
 *  then sgrt_node_world returns its parent's world as of the last update (the
 *  world it would have had then). Amortised O(1); allocates when the scene
 *  must grow. Errors: INVALID_ARG (s or out NULL), STALE_HANDLE (parent),
 *  CAPACITY, NOMEM. On error *out is left untouched. */
SGRT_API sgrt_result sgrt_node_create(sgrt_scene *s, sgrt_node parent, sgrt_node *out);

/** Destroy `node` and its whole subtree. Pending work on them is dropped.
 *  O(k). Errors: INVALID_ARG, STALE_HANDLE. */
SGRT_API sgrt_result sgrt_node_destroy(sgrt_scene *s, sgrt_node node);

/** True when `node` is a live node of `s` (false for NULL s). O(1). */
SGRT_API bool sgrt_node_alive(const sgrt_scene *s, sgrt_node node);

/** Parent of `node`, SGRT_NULL_NODE for a root. O(1).
 *  Errors: INVALID_ARG (out NULL), STALE_HANDLE. */
SGRT_API sgrt_result sgrt_node_parent(const sgrt_scene *s, sgrt_node node, sgrt_node *out_parent);

/** First child of `node` (SGRT_NULL_NODE when it has none), and the next
 *  sibling of a node (SGRT_NULL_NODE after the last). Child order is
 *  unspecified. O(1). Errors: INVALID_ARG, STALE_HANDLE. */
SGRT_API sgrt_result sgrt_node_first_child(const sgrt_scene *s, sgrt_node node, sgrt_node *out);
SGRT_API sgrt_result sgrt_node_next_sibling(const sgrt_scene *s, sgrt_node node, sgrt_node *out);

/** Move `node` (with its subtree) under `parent`; SGRT_NULL_NODE makes it a
 *  root. SGRT_KEEP_LOCAL keeps its local matrix, so its world follows the new
 *  parent; SGRT_KEEP_WORLD replaces its local by inverse(parent_world) x
 *  world (both exact as of now, computed in double precision) so its world
 *  stays put. The subtree counts as moved. Re-parenting under a node stored
 *  after it relocates the subtree's storage (its slots change); this allocates
 *  only if the scene must grow. O(k + d).
 *  Errors: INVALID_ARG (bad keep), STALE_HANDLE (node or parent), CYCLE
 *  (parent is node or one of its descendants), SINGULAR (KEEP_WORLD and the
 *  parent's world has no finite inverse, or the new local is not finite),
 *  CAPACITY, NOMEM. */
SGRT_API sgrt_result sgrt_node_set_parent(sgrt_scene *s, sgrt_node node, sgrt_node parent,
                                          sgrt_keep keep);

/* ------------------------------------------------------------------------- */
/* Transforms                                                                */
/* ------------------------------------------------------------------------- */

/** Set the local matrix. A matrix bit-identical to the current one marks
 *  nothing; otherwise the node and its subtree are marked (O(nodes newly
 *  marked)). Never allocates. Non-finite values (NaN, +-Inf) are refused.
 *  Errors: INVALID_ARG (m NULL or not finite), STALE_HANDLE. */
SGRT_API sgrt_result sgrt_node_set_local(sgrt_scene *s, sgrt_node node, const float m[16]);

/** Set the local matrix from translation t, rotation quaternion q (x, y, z, w;
 *  expected to be of unit length, used as given) and scale: local = T x R x S.
 *  Same marking and errors as sgrt_node_set_local, which it calls; the
 *  inputs must be finite. */
SGRT_API sgrt_result sgrt_node_set_trs(sgrt_scene *s, sgrt_node node, const float t[3],
                                       const float q[4], const float scale[3]);

/** Copy the local matrix to out. O(1). Errors: INVALID_ARG, STALE_HANDLE. */
SGRT_API sgrt_result sgrt_node_local(const sgrt_scene *s, sgrt_node node, float out[16]);

/** Copy the world matrix *as of the last sgrt_scene_update* to out (the
 *  dirty-flag contract: a node moved since then still reports its old world).
 *  O(1). Errors: INVALID_ARG, STALE_HANDLE. */
SGRT_API sgrt_result sgrt_node_world(const sgrt_scene *s, sgrt_node node, float out[16]);

/** Compute the exact current world matrix, bit-identical to what the next
 *  update will store, without changing the scene: multiplies only along the
 *  chain of dirty ancestors. O(d) for d <= 256 dirty ancestors, O(d^2/256)
 *  beyond. Errors: INVALID_ARG, STALE_HANDLE. */
SGRT_API sgrt_result sgrt_node_world_now(const sgrt_scene *s, sgrt_node node, float out[16]);

/* ------------------------------------------------------------------------- */
/* Update                                                                    */
/* ------------------------------------------------------------------------- */

/** Recompute the world matrix of every node whose world may have changed since
 *  the last update (moved, created, re-parented, or below one of those), each
 *  exactly once, parents before children. Returns how many it recomputed
 *  (0 for a NULL scene). Cost: O(dirty nodes + n/1024). Never allocates. */
SGRT_API uint32_t sgrt_scene_update(sgrt_scene *s);

/* ------------------------------------------------------------------------- */
/* Queries and diagnostics                                                   */
/* ------------------------------------------------------------------------- */

/** Verify every internal invariant (slot order, link symmetry, dirty closure,
 *  bitfield padding and summaries, handle table, counts). O(capacity).
 *  Returns SGRT_OK or SGRT_ERR_CORRUPT; *out_what (optional) receives a static
 *  string naming the first broken invariant, or NULL. INVALID_ARG for NULL s. */
SGRT_API sgrt_result sgrt_scene_check(const sgrt_scene *s, const char **out_what);

/** Name of the combine kernel this build uses by default: "sse2", "avx",
 *  "neon", "simde-portable", "scalar", ... Static string. */
SGRT_API const char *sgrt_simd_name(void);

#ifdef __cplusplus
}
#endif

#endif /* SGRT_H */
