/* SPDX-License-Identifier: MIT */
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
 *   - Results: a call that can fail returns SGRT_OK (0) or a negative
 *     sgrt_result, and when it fails it changes nothing in the scene, with
 *     one rule of its own for the four batch writes (sgrt_nodes_set_local,
 *     sgrt_nodes_set_trs, sgrt_writer_set_local, sgrt_writer_set_trs): a
 *     batch is its single calls in order and stops at the first refused
 *     entry, so the entries before it stay written and marked (*out_bad
 *     names the refused one; a refusal of the call's own arguments still
 *     changes nothing). The
 *     others return their answer directly (sgrt_scene_update a count,
 *     sgrt_node_alive a bool, sgrt_scene_world_array a pointer,
 *     sgrt_nodeset_next a node, ...), with 0, false, NULL or SGRT_NULL_NODE
 *     for bad arguments; sgrt_scene_destroy returns nothing. A scene
 *     created with a log (sgrt_scene_desc.log) reports each refusal there,
 *     naming the argument; validation mode (SGRT_SCENE_VALIDATE) reports
 *     mistakes that are not errors too.
 *   - Handles: sgrt_node is a 32-bit id (slot-table index + generation). The id
 *     0 is never valid, so a zero-initialised handle is safely invalid. Ids
 *     are scrambled per scene, from its address and, where user code can
 *     read a cycle counter (x86, AArch64), the counter at its creation. A
 *     handle of another scene -- a live one, or a destroyed one whose memory
 *     a new scene reuses -- is then refused with probability at least
 *     127/128 each (in practice it fails unless the two scrambles happen to
 *     line up). Without a counter (32-bit ARM, s390x, others) a scene
 *     created at a destroyed scene's address, from the same call site, may
 *     accept the old scene's handles: drop them with the scene.
 *   - Objects: trackers, node sets, writers and skins are named by handles
 *     too, sgrt_tracker, sgrt_nodeset, sgrt_writer and sgrt_skin, each a
 *     32-bit id passed
 *     by value (see "Object handles", after sgrt_node): generation-checked and
 *     scrambled per scene like node ids, with their kind in the id. Every
 *     call that takes one resolves it through the scene's own table before
 *     it reads anything of the object, so a destroyed object, one of
 *     another scene, one of another kind and a zero handle are refused
 *     (INVALID_ARG, reported with what happened), never read.
 *   - Threads: no globals, no hidden threads (two constants aside: what the
 *     CPU runs, asked once, and the kernel sgrt_trs_to_matrices chose, each
 *     kept in one atomic word). Distinct scenes
 *     may be used from distinct threads freely, and sgrt_trs_to_matrices
 *     from any thread. Functions taking `const sgrt_scene *` may run
 *     concurrently with each other on one scene, except two that touch the
 *     same tracker or node set where one of them writes it. Of those, these
 *     write an object: sgrt_tracker_collect (t), sgrt_skin_collect (k),
 *     sgrt_nodeset_add,
 *     sgrt_nodeset_remove and sgrt_nodeset_clear (set),
 *     sgrt_nodeset_combine (dst), sgrt_nodeset_from_changes (dst, and t
 *     when consuming) and sgrt_scene_cull (out); every other const call
 *     only reads the objects it is given, sgrt_scene_check reads every
 *     node set (never a tracker's pending bits), and no const call changes
 *     which objects exist. Any other call on a scene (creating and
 *     destroying objects, and every writer call, included) needs exclusive
 *     access to it.
 *   - Memory: a scene owns all of its storage. Only sgrt_scene_create,
 *     sgrt_scene_load, sgrt_scene_reserve, sgrt_scene_compact,
 *     sgrt_node_create (when the scene must grow), sgrt_node_set_parent
 *     (when a relocation must grow the scene), sgrt_scene_restore (when the
 *     scene must grow for the snapshot), sgrt_tracker_create,
 *     sgrt_nodeset_create, sgrt_writer_create and sgrt_skin_create
 *     allocate. Setting transforms and bounds (writers included), updating,
 *     reading, destroying, node set membership, culling and collecting never
 *     allocate. Every call that allocates checks the alignment of each
 *     block it gets (see sgrt_allocator): wherever a function below lists
 *     NOMEM, it returns SGRT_ERR_ALIGNMENT, having freed the block and
 *     changed nothing, when the allocator ignored `align`.
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

/* What the shared library exports: exactly the functions marked SGRT_API.
 * On Windows the DLL is built with SGRT_BUILD_DLL (dllexport); programs need
 * nothing, as calls reach a DLL through its import library's stubs, and
 * linking the static library works the same way. A program that links the
 * DLL may define SGRT_API as __declspec(dllimport) before including this
 * header to skip the stub. Elsewhere the library is built with
 * -fvisibility=hidden and these functions are the visible ones. */
#ifndef SGRT_API
#if defined(_WIN32) || defined(__CYGWIN__)
#if defined(SGRT_BUILD_DLL)
#define SGRT_API __declspec(dllexport)
#else
#define SGRT_API
#endif
#elif defined(__GNUC__) && !defined(SGRT_STATIC_ONLY)
#define SGRT_API __attribute__((visibility("default")))
#else
#define SGRT_API
#endif
#endif

/* Marks every call whose result reports failure (an sgrt_result): the
 * compiler warns when a program drops it. [[nodiscard]] in C++17 and C23,
 * warn_unused_result with GCC and clang otherwise (GCC's is not silenced by
 * a (void) cast: keep the result in a variable, or test it), _Check_return_
 * with MSVC's code analysis when <sal.h> came first. A program that must ignore results defines
 * SGRT_NODISCARD as nothing before including this header. */
#ifndef SGRT_NODISCARD
#if defined(__cplusplus) && __cplusplus >= 201703L
#define SGRT_NODISCARD [[nodiscard]]
#elif !defined(__cplusplus) && defined(__STDC_VERSION__) && __STDC_VERSION__ > 201710L
#define SGRT_NODISCARD [[nodiscard]]
#elif defined(__GNUC__) || defined(__clang__)
#define SGRT_NODISCARD __attribute__((warn_unused_result))
#elif defined(_MSC_VER) && defined(_Check_return_) /* <sal.h> included */
#define SGRT_NODISCARD _Check_return_
#else
#define SGRT_NODISCARD
#endif
#endif

/* The version of this header; meson's project version must agree (the
 * build stops otherwise). Plain decimal integers, MINOR and PATCH below 100.
 * ABI policy: the shared library's soversion is the major version, and
 * 0.MINOR before 1.0, when a minor release may break the ABI; from 1.0 a
 * minor release only adds, a patch release only fixes, and an ABI break
 * bumps the major version (docs/building.md). */
#define SGRT_VERSION_MAJOR 0
#define SGRT_VERSION_MINOR 2
#define SGRT_VERSION_PATCH 0
/** The header's version as one number: MAJOR * 10000 + MINOR * 100 + PATCH
 *  (0.2.0 is 200), comparable with sgrt_version(). */
#define SGRT_VERSION (SGRT_VERSION_MAJOR * 10000u + SGRT_VERSION_MINOR * 100u + SGRT_VERSION_PATCH)

/** Version of the library the program runs with, in SGRT_VERSION's form:
 *  with a shared library it can differ from the SGRT_VERSION the program was
 *  compiled with (same major version: compatible, see above). O(1), never
 *  allocates, never fails. */
SGRT_API uint32_t sgrt_version(void);

/** The same version as a static string, "MAJOR.MINOR.PATCH" ("0.2.0").
 *  Never NULL; O(1), never allocates. */
SGRT_API const char *sgrt_version_string(void);

/* ------------------------------------------------------------------------- */
/* Types                                                                     */
/* ------------------------------------------------------------------------- */

/** Opaque scene: one independent world of nodes. */
typedef struct sgrt_scene sgrt_scene;

/** Node handle. Bits 0..23: slot-table index; bits 24..31: generation
 *  (never 0). A destroyed node's handle is refused until its index has been
 *  reused 255 times; indices are reused first-in first-out and only while
 *  more than 1024 are free, so that takes at least 255 x 1025 = 261,375 node
 *  destructions (counting the one that freed it). This holds at every fill
 *  level: SGRT_MAX_NODES leaves 1024 of the 2^24 indices free, so even once
 *  every index has been handed out a create finds more than 1024 free. */
typedef struct sgrt_node {
    uint32_t id;
} sgrt_node;

#ifdef __cplusplus
#define SGRT_NULL_NODE (sgrt_node{0})
#else
#define SGRT_NULL_NODE ((sgrt_node){0})
#endif

/** Most nodes one scene can hold: the 2^24 handle indices less the 1024
 *  that handle reuse keeps free (see sgrt_node). */
#define SGRT_MAX_NODES 16776192u

/* Object handles: sgrt_tracker, sgrt_nodeset, sgrt_writer and sgrt_skin
 * (each with its calls below) are {uint32_t id}, passed by value; create
 * writes one through its out pointer. Bits 0..15: index in the scene's
 * object table; bits 16..18: the kind (tracker, node set, writer, skin), so
 * that a handle of
 * one kind names nothing of another; bits 19..31: generation (never 0).
 * The id 0 is never valid: a zero-initialised handle is safely invalid
 * (SGRT_NULL_TRACKER, SGRT_NULL_NODESET, SGRT_NULL_WRITER, SGRT_NULL_SKIN),
 * destroying it
 * is a no-op (SGRT_OK), and where an object is optional (the `only` of
 * sgrt_scene_cull, the `b` of sgrt_nodeset_from_changes) zero means none.
 * Index and kind are scrambled per scene like node ids (see Handles
 * above), so a handle of another scene is refused unless its index, kind
 * and 13-bit generation happen to line up, about 1 chance in 8,000.
 * A destroyed object's handle is refused until its index has been reused
 * 8,191 times; indices are reused first-in first-out and only while more
 * than 256 are free, so that takes at least 8,191 x 257 = 2,105,087
 * destructions of objects of that scene (counting the one that freed it).
 * Resolving a handle reads one entry of the scene's table (a few ns;
 * docs/design.md has the figures); sgrt_scene_destroy frees the objects
 * still alive, and every handle of the scene becomes meaningless. */

/** Most trackers, node sets, writers and skins alive at once in one scene: the
 *  2^16 table indices less the 256 that reuse keeps free. A create past it
 *  returns SGRT_ERR_CAPACITY. */
#define SGRT_MAX_OBJECTS 65280u

typedef enum sgrt_result {
    SGRT_OK = 0,
    SGRT_ERR_INVALID_ARG = -1,  /**< NULL pointer, bad option or value, non-finite input, a
                                     scene flag the call needs missing, a writer committed
                                     before it was begun, a tracker, node set or writer
                                     handle that is zero, destroyed, of another scene or of
                                     another kind */
    SGRT_ERR_STALE_HANDLE = -2, /**< zero, destroyed, out of range, or from another scene */
    SGRT_ERR_CYCLE = -3,        /**< reparent would make a node its own ancestor */
    SGRT_ERR_NOMEM = -4,        /**< the allocator failed; nothing changed */
    SGRT_ERR_CAPACITY = -5,     /**< max_nodes (or the slot limit, or SGRT_MAX_OBJECTS) reached */
    SGRT_ERR_SINGULAR = -6,     /**< keep-world reparent under a parent whose world has no inverse */
    SGRT_ERR_CORRUPT = -7,      /**< sgrt_scene_check found a broken internal invariant */
    SGRT_ERR_ALIGNMENT = -8,    /**< the allocator returned a block less aligned than asked; it
                                     was freed through the allocator and nothing changed */
    SGRT_ERR_WRITE = -9,        /**< sgrt_scene_dump: the write function returned non-zero */
    SGRT_ERR_PENDING = -10,     /**< validation mode: the world read will change at the next
                                     update (SGRT_SCENE_VALIDATE) */
    SGRT_ERR_EXECUTOR = -11,    /**< the executor broke its contract, or the scene was called
                                     while sgrt_scene_update_parallel ran its tasks */
    SGRT_ERR_SNAPSHOT = -12     /**< sgrt_scene_restore, sgrt_scene_load: the buffer is no
                                     snapshot this scene can take (truncated, corrupted, another
                                     version, layout or flags, forged); nothing changed */
} sgrt_result;

/** A static sentence saying what a result means, ending with its name:
 *  sgrt_result_str(SGRT_ERR_STALE_HANDLE) is "stale handle: the node was
 *  destroyed, or belongs to another scene, or the handle is zero
 *  (SGRT_ERR_STALE_HANDLE)". A code this library does not know (from a
 *  newer header, or not a result at all) gives "unknown result code N" for
 *  N in [-99, 99] and "unknown result code (outside -99..99)" beyond: the
 *  strings are static, one per code, so nothing is formatted at run time.
 *  Never NULL; O(1); never allocates. */
SGRT_API const char *sgrt_result_str(sgrt_result r);

/** Allocator hooks. Both functions are required when an allocator is given.
 *  alloc returns memory aligned to at least `align` (a power of two, at most
 *  64) or NULL; free receives the size that was asked for. A block aligned
 *  less than asked is given back to free at once and the call that needed
 *  it fails with SGRT_ERR_ALIGNMENT (the kernels use aligned loads: 64 bytes
 *  on AVX-512). */
typedef struct sgrt_allocator {
    void *(*alloc)(size_t size, size_t align, void *user);
    void (*free)(void *ptr, size_t size, void *user);
    void *user;
} sgrt_allocator;

/** Kernel levels, lowest first. Every level computes bit-identical results
 *  (docs/porting.md); they differ only in speed. */
typedef enum sgrt_simd {
    SGRT_SIMD_AUTO = 0,   /**< the fastest level this CPU runs (sgrt_simd_name says which) */
    SGRT_SIMD_SCALAR = 1, /**< the plain C reference */
    SGRT_SIMD_X4 = 2,     /**< 4-wide through SIMDe: SSE2 on x86, NEON on ARM, portable C elsewhere */
    SGRT_SIMD_AVX = 3,    /**< 8-wide AVX (x86) */
    SGRT_SIMD_AVX512 = 4  /**< 16-wide AVX-512F (x86) */
} sgrt_simd;

/** What a refused call reports through a scene's log (sgrt_scene_desc.log).
 *  Every string is static: the library formats nothing and allocates
 *  nothing to report. The message names the argument that was wrong, as
 *  the prototype below names it ("parent is stale: ...", "desc->max_nodes
 *  is above SGRT_MAX_NODES", "nodes[*out_bad] is stale: ..."). */
typedef struct sgrt_log_entry {
    sgrt_result code;     /**< what the call returns (SGRT_OK for a warning) */
    const char *function; /**< the public function, e.g. "sgrt_node_set_trs" */
    const char *message;  /**< one sentence: what was wrong, naming the argument */
    sgrt_node node;       /**< the node concerned, or SGRT_NULL_NODE */
} sgrt_log_entry;

/** Receives log entries, on the thread of the call that reports, before
 *  that call returns. It must not call back into the scene. Calls that
 *  take a const scene may run on several threads at once (see Threads),
 *  and so may their reports: a log shared by such threads must be
 *  thread-safe. */
typedef void (*sgrt_log_fn)(void *user, const sgrt_log_entry *entry);

/** Scene options. A zero-initialised desc means defaults. */
typedef struct sgrt_scene_desc {
    uint32_t initial_capacity;       /**< nodes to reserve up front (0: a small default) */
    uint32_t max_nodes;              /**< 0 = SGRT_MAX_NODES */
    const sgrt_allocator *allocator; /**< NULL = malloc/free; copied, need not outlive the call */
    /** Highest kernel level the scene may use (0: no limit). The scene runs
     *  the level sgrt_simd_name() reports, or this one if lower: for ruling a
     *  kernel out while chasing a bug, or for measuring one against another.
     *  A level the build or the CPU lacks falls back to the next lower one.
     *  Values above SGRT_SIMD_AVX512 are refused (INVALID_ARG). */
    sgrt_simd max_simd;
    /** SGRT_SCENE_* options, or-ed (0: none). Unknown bits are refused
     *  (INVALID_ARG). */
    uint32_t flags;
    /** Called once by every call on this scene that refuses its arguments or
     *  fails, before it returns, sgrt_scene_create included (NULL: no
     *  reports, and no cost). Not reported: a call given a NULL scene (there
     *  is no log to report to), and answers that are not refusals
     *  (sgrt_node_alive of a destroyed node, sgrt_scene_slot_node of a dead
     *  slot). The entry's code is what the call returns; for a call that
     *  returns a count, bool, node or pointer, the error that describes the
     *  refusal (its answer is then 0, false, SGRT_NULL_NODE or NULL). */
    sgrt_log_fn log;
    void *log_user; /**< passed to log as is */
} sgrt_scene_desc;

/** Options of sgrt_scene_desc.flags. */
typedef enum sgrt_scene_flags {
    /** Keep each node's world of the previous update beside the world array
     *  (for motion vectors): sgrt_scene_prev_world_array. Costs 64 bytes and
     *  about 2 bits per slot of capacity (in the scene's storage block); each
     *  update copies 64 bytes per node it recomputes and per node the update
     *  before recomputed (the parallel update's tasks also pass once more
     *  over their ranges' words). Without it the scene keeps no such memory
     *  and the update does no such work. */
    SGRT_SCENE_PREV_WORLD = 1,
    /** Keep a local bounding box per node and its world box, computed by the
     *  update (see "Bounds and culling"). Costs 48 bytes and about 3 bits per
     *  slot of capacity; each update computes the world box of every node
     *  with a box whose world it recomputes or whose box was set since.
     *  Without it the scene keeps no such memory and the update does no
     *  such work. */
    SGRT_SCENE_BOUNDS = 2,
    /** SGRT_SCENE_BOUNDS, and beside it each node's subtree box (its own
     *  world box joined with its descendants'), kept current by the update
     *  and used by sgrt_scene_cull to skip or accept whole subtrees. Costs
     *  36 more bytes and about 2 bits per slot of capacity. */
    SGRT_SCENE_SUBTREE_BOUNDS = 4,
    /** Validation mode, for debug builds: calls check what a hurried user
     *  gets wrong and report it through the log (sgrt_scene_desc.log):
     *    - sgrt_node_world of a node whose world the next update will
     *      change (it or an ancestor moved since the last update) returns
     *      SGRT_ERR_PENDING, with out holding the last update's world as
     *      without the flag;
     *    - sgrt_scene_world_array and sgrt_scene_prev_world_array warn
     *      while moves are pending (the array is the last update's);
     *    - sgrt_node_set_trs and sgrt_nodes_set_trs refuse a quaternion
     *      whose squared length is off 1 by more than
     *      SGRT_QUAT_NORM_TOLERANCE (INVALID_ARG; a batch names the entry in
     *      *out_bad), and warn about (+-1, 0, 0, 0), the identity written
     *      w, x, y, z;
     *    - each update warns about the first local written since the last
     *      update whose last row is not (0, 0, 0, 1) (a row-major matrix,
     *      most likely: its translation sits there);
     *    - sgrt_scene_update_parallel warns when its executor makes it run
     *      serially (workers == 1; a NULL ex or run, or 0 workers, are
     *      reported with or without the flag);
     *    - each update (serial or parallel) warns, per writer that has
     *      begun (sgrt_writer_begin), about the first entry whose local was
     *      written in place and not committed (sgrt_writer_commit) while
     *      nothing else marked its node: without the flag the update
     *      silently does not recompute it. sgrt_writer_destroy warns the
     *      same way about such a write it leaves behind. Found by a 64-bit
     *      fingerprint of each entry's local, taken at the writer's first
     *      begin and after each update (two different locals print alike
     *      with odds of about 2^-64).
     *  With valid input it changes no result: the same worlds, counts,
     *  tracker feed and return codes. Cost when off: one flag test in
     *  sgrt_node_world, sgrt_node_set_trs, each batch of sgrt_nodes_set_trs,
     *  the world array calls and each update; none in sgrt_node_set_local
     *  or the update's kernel. Cost when on: sgrt_node_world O(d) (a walk
     *  up, and sgrt_node_world_now's products when an ancestor moved); the
     *  array calls O(capacity / 1024); sgrt_node_set_trs a few
     *  multiply-adds; a TRS batch one more pass over q; each update one
     *  pass over the nodes moved since the last (4 loads each), and two
     *  over the entries of the writers that have begun (a handle
     *  resolution and a 64-byte fingerprint each). Never allocates (a
     *  writer created in validation mode takes 8 bytes per entry more). */
    SGRT_SCENE_VALIDATE = 8,
    /** A large world (see "Large worlds"): each root has an anchor, its
     *  place in double precision, and world matrices are relative to the
     *  scene's origin (sgrt_scene_set_origin), so a root near the origin is
     *  placed to float precision of its distance to it however far from the
     *  world's zero it is (a node below adds the float product's rounding,
     *  of the order of the float spacing at its largest translation from
     *  its root). Costs 24 bytes per slot of capacity; each
     *  update computes a root's translation in double (a few adds per root
     *  it recomputes). Without it roots have no anchor, the origin is zero
     *  and the update does no such work. */
    SGRT_SCENE_LARGE_WORLD = 16,
    /** Render interpolation for fixed-timestep games (see "Render
     *  interpolation"): each node's local of the tick before and of the last
     *  tick, and a render world array that sgrt_scene_interpolate fills
     *  between ticks. Costs 288 bytes and about 8 bits per slot of capacity;
     *  each update copies up to 128 bytes and compares 64 per node it
     *  recomputes, copies 64 per node the update before recomputed, and
     *  takes apart (translation, rotation, scale) the local of each node
     *  whose local changed, so that frames need not: a few square roots a
     *  node, several times the update's own work per moved node
     *  (docs/design.md, "Render interpolation"). Without it the scene keeps
     *  no such memory and the update does no such work. */
    SGRT_SCENE_INTERPOLATE = 32
} sgrt_scene_flags;

/** Validation mode's tolerance on a quaternion's squared length,
 *  |x^2 + y^2 + z^2 + w^2 - 1| (in double from the float inputs): 2^-10, a
 *  scale or shear of about 0.1 % in the matrix it makes. Float-normalised
 *  quaternions, slerp and nlerp with renormalisation, and 16-bit quantised
 *  ones stay within about 1e-4 of 1. */
#define SGRT_QUAT_NORM_TOLERANCE (1.0 / 1024.0)

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
 *  SGRT_MAX_NODES, initial_capacity > max_nodes, an unknown flag), NOMEM.
 *  Allocates. */
SGRT_NODISCARD SGRT_API sgrt_result sgrt_scene_create(const sgrt_scene_desc *desc, sgrt_scene **out);

/** Destroy a scene and everything it owns. NULL is a no-op. Every handle of
 *  the scene becomes meaningless. */
SGRT_API void sgrt_scene_destroy(sgrt_scene *scene);

/** Make room for `node_count` nodes in total so that creating up to that many
 *  nodes (appended after the current ones) does not allocate. The capacity
 *  is kept by sgrt_scene_compact (as is desc.initial_capacity).
 *  Errors: INVALID_ARG (scene NULL), CAPACITY (above max_nodes), NOMEM. */
SGRT_NODISCARD SGRT_API sgrt_result sgrt_scene_reserve(sgrt_scene *s, uint32_t node_count);

/** Re-order all nodes depth-first (each node followed by its subtree), closing
 *  the holes left by destroyed nodes, for cache locality, and give memory
 *  back: the new storage holds the live nodes (at least what
 *  sgrt_scene_reserve and desc.initial_capacity asked for), the old one is
 *  freed. Handles stay valid; world matrices, dirty state and pending work
 *  are kept. Slots change. The handle table keeps its size (12 bytes per
 *  node at the most ever alive). Cost O(n); allocates.
 *  Errors: INVALID_ARG, NOMEM (scene unchanged). */
SGRT_NODISCARD SGRT_API sgrt_result sgrt_scene_compact(sgrt_scene *s);

/** Number of live nodes. 0 for NULL. O(1). */
SGRT_API uint32_t sgrt_scene_node_count(const sgrt_scene *s);

/* ------------------------------------------------------------------------- */
/* Nodes                                                                     */
/* ------------------------------------------------------------------------- */

/** Create a node under `parent` (SGRT_NULL_NODE: a new root). Its local is the
 *  identity and it counts as moved: the next update computes its world. Until
 *  then sgrt_node_world returns its parent's world as of the last update (the
 *  world it would have had then). In a large world a new root is anchored
 *  at the origin (see "Large worlds"). Amortised O(1); allocates when the scene
 *  must grow. Errors: INVALID_ARG (s or out NULL), STALE_HANDLE (parent),
 *  CAPACITY, NOMEM. On error *out is left untouched. */
SGRT_NODISCARD SGRT_API sgrt_result sgrt_node_create(sgrt_scene *s, sgrt_node parent, sgrt_node *out);

/** Destroy `node` and its whole subtree. Pending work on them is dropped.
 *  Never allocates. Amortised O(k): when dead slots come to outnumber live
 *  nodes by more than 1,024, it closes the holes in place (live nodes move
 *  down in slot order, their slots change; see "Slots in use" below).
 *  Errors: INVALID_ARG, STALE_HANDLE. */
SGRT_NODISCARD SGRT_API sgrt_result sgrt_node_destroy(sgrt_scene *s, sgrt_node node);

/** True when `node` is a live node of `s` (false for NULL s). O(1). */
SGRT_API bool sgrt_node_alive(const sgrt_scene *s, sgrt_node node);

/** Parent of `node`, SGRT_NULL_NODE for a root. O(1).
 *  Errors: INVALID_ARG (out NULL), STALE_HANDLE. */
SGRT_NODISCARD SGRT_API sgrt_result sgrt_node_parent(const sgrt_scene *s, sgrt_node node, sgrt_node *out_parent);

/** First child of `node` (SGRT_NULL_NODE when it has none), and the next
 *  sibling of a node (SGRT_NULL_NODE after the last). Child order is
 *  unspecified. O(1). Errors: INVALID_ARG, STALE_HANDLE. */
SGRT_NODISCARD SGRT_API sgrt_result sgrt_node_first_child(const sgrt_scene *s, sgrt_node node, sgrt_node *out);
SGRT_NODISCARD SGRT_API sgrt_result sgrt_node_next_sibling(const sgrt_scene *s, sgrt_node node, sgrt_node *out);

/** Move `node` (with its subtree) under `parent`; SGRT_NULL_NODE makes it a
 *  root. Re-parenting under the current parent is a no-op in both modes (it
 *  marks nothing). SGRT_KEEP_LOCAL keeps its local matrix, so its world follows the new
 *  parent (in a large world a node made a root is anchored at the origin,
 *  so its world becomes its local, as in any scene); SGRT_KEEP_WORLD replaces its local by inverse(parent_world) x
 *  world (both exact as of now, computed in double precision) so its world
 *  stays put. The subtree counts as moved. Re-parenting under a node stored
 *  after it relocates the subtree's storage (its slots change, and when the
 *  holes it leaves come to outnumber live nodes by more than 1,024 they are
 *  closed in place, as sgrt_node_destroy does); this allocates only if the
 *  scene must grow. Amortised O(k + d) at any depth (with KEEP_WORLD: two
 *  sgrt_node_world_now, for the node and the new parent).
 *  With KEEP_WORLD the world stays put within a stated tolerance, or the
 *  call is refused: the new local multiplied back with the parent's world in
 *  float, as the update will (the scene's kernel), must match the world in
 *  every entry to within 2^-12 x max(1, the largest |entry| of that world
 *  column) -- under a nearly singular (e.g. sheared) parent the rounding of
 *  the new local to float would otherwise move the world.
 *  Errors: INVALID_ARG (bad keep), STALE_HANDLE (node or parent), CYCLE
 *  (parent is node or one of its descendants), SINGULAR (KEEP_WORLD and the
 *  parent's world has no finite inverse, the new local is not finite, or it
 *  misses the world by more than the tolerance above), CAPACITY, NOMEM. */
SGRT_NODISCARD SGRT_API sgrt_result sgrt_node_set_parent(sgrt_scene *s, sgrt_node node, sgrt_node parent,
                                          sgrt_keep keep);

/* ------------------------------------------------------------------------- */
/* Transforms                                                                */
/* ------------------------------------------------------------------------- */

/** Set the local matrix. A matrix bit-identical to the current one marks
 *  nothing; otherwise the node counts as moved, and its subtree with it
 *  (the next update marks the descendants in its closure pass). O(1). Never
 *  allocates. Non-finite values (NaN, +-Inf) are refused.
 *  Errors: INVALID_ARG (m NULL or not finite), STALE_HANDLE. */
SGRT_NODISCARD SGRT_API sgrt_result sgrt_node_set_local(sgrt_scene *s, sgrt_node node, const float m[16]);

/** Set the local matrix from translation t, rotation quaternion q (x, y, z, w:
 *  the identity is {0, 0, 0, 1}; expected to be of unit length) and scale:
 *  local = T x R x S. q is used as given: a quaternion that is not of unit
 *  length makes a scale and shear (q = {0.6, 0, 0, 0.6}: determinant
 *  about 0.6), and one written w, x, y, z a different rotation ({1,
 *  0, 0, 0}, the identity in that order, is a half turn about x). In
 *  validation mode (SGRT_SCENE_VALIDATE) the first is refused with
 *  INVALID_ARG when |q|^2 is off 1 by more than SGRT_QUAT_NORM_TOLERANCE,
 *  and {+-1, 0, 0, 0} is reported as a warning. Same marking and errors as
 *  sgrt_node_set_local; INVALID_ARG when an input is not finite or the
 *  matrix overflows. */
SGRT_NODISCARD SGRT_API sgrt_result sgrt_node_set_trs(sgrt_scene *s, sgrt_node node, const float t[3],
                                       const float q[4], const float scale[3]);

/** Place a node in world space now: its local becomes inverse(parent's
 *  world) x m, with the parent's exact current world (sgrt_node_world_now)
 *  and the inverse in double precision; a root's local becomes m itself, so
 *  its world after the next update is m bit for bit (in a large world it is
 *  anchored at the origin). Under a parent the
 *  world after the next update matches m within the tolerance of
 *  sgrt_node_set_parent's SGRT_KEEP_WORLD (the new local multiplied back
 *  with the parent's world in float, as the update will, misses no entry
 *  of m by more than 2^-12 x max(1, the largest |entry| of m's column)), or
 *  the call is refused. Marks as sgrt_node_set_local does (a local
 *  bit-identical to the current one marks nothing). O(d); never allocates.
 *  Errors: INVALID_ARG (s or m NULL, m not finite), STALE_HANDLE, SINGULAR
 *  (the parent's world is not finite or has no inverse, the new local is not
 *  finite, or it misses m by more than the tolerance: e.g. under a
 *  degenerate or badly sheared parent). */
SGRT_NODISCARD SGRT_API sgrt_result sgrt_node_set_world(sgrt_scene *s, sgrt_node node, const float m[16]);

/** Set `count` locals as if sgrt_node_set_local were called for i = 0 ..
 *  count-1 in order (a node given twice ends with its last matrix; each
 *  entry marks what its single call would). `local` holds count matrices,
 *  16 floats each, one after another (entry i at local + 16 * i;
 *  column-major; any alignment). The batch stops at the first refused
 *  entry (stale handle: STALE_HANDLE; non-finite value: INVALID_ARG): the
 *  entries before it are written and marked, as their single calls would
 *  be, it and the entries after it are untouched, that error is returned,
 *  and *out_bad (optional) receives its index. An entry refused for
 *  several reasons is refused as its single call refuses it: the handle
 *  first, then (validation mode) the quaternion, then the values. What a
 *  refused batch reads: entries go a chunk of 32 at a time (entries 32c to
 *  32c + 31), the chunk's handles read and resolved first, then its
 *  entries before the first stale one checked in order. Past the refused
 *  entry nothing is read but the handles of its chunk and, when
 *  sgrt_nodes_set_trs refuses it for its values, the t, q and scale of the
 *  entries after it in its chunk up to the first stale handle, compared
 *  with bounds together -- never written, and in validation mode never
 *  warned about.
 *  nodes/local may be NULL when count is 0. Cost: one pass, a chunk of 32
 *  entries at a time: the chunk's handles resolved, its input checked,
 *  then stored while the input is in L1 (each local compared and stored
 *  where it differs, the next chunk's locals fetched ahead); marks a dirty
 *  word at a time; O(count + nodes newly marked). Never allocates. Errors:
 *  INVALID_ARG (s NULL, or nodes/local NULL with count > 0; *out_bad
 *  untouched), or the refused entry's error. For the same nodes every frame
 *  an sgrt_writer (below) skips the handle resolution. */
SGRT_NODISCARD SGRT_API sgrt_result sgrt_nodes_set_local(sgrt_scene *s, uint32_t count, const sgrt_node *nodes,
                                          const float *local, uint32_t *out_bad);

/** The same from translations, rotation quaternions (x, y, z, w) and
 *  scales, three packed arrays as an animation system produces them (entry
 *  i: t[3i .. 3i+2], q[4i .. 4i+3], scale[3i .. 3i+2]; any alignment): local
 *  = T x R x S, each bit-identical to what sgrt_node_set_trs computes for
 *  the same inputs (on every target and kernel level). The conversion runs
 *  at the scene's kernel's width (16 nodes per step on AVX-512, 8 on AVX, 4
 *  on SSE2 and NEON), once, compared and stored from registers on AVX-512;
 *  the check looks at the inputs (bounds that make the matrix surely
 *  finite) and converts only entries beyond them. Same refusals,
 *  errors, cost and no allocation as sgrt_nodes_set_local; in validation
 *  mode, an entry whose quaternion sgrt_node_set_trs would refuse is
 *  refused the same way (INVALID_ARG, its index in *out_bad, one more pass
 *  over q). */
SGRT_NODISCARD SGRT_API sgrt_result sgrt_nodes_set_trs(sgrt_scene *s, uint32_t count, const sgrt_node *nodes,
                                        const float *t, const float *q, const float *scale,
                                        uint32_t *out_bad);

/** A writer: a fixed list of nodes that a system writes every frame (an
 *  animation system's joints, a physics system's bodies), resolved once.
 *  Its writes cost no handle resolution and mark a dirty word at a time
 *  wherever entries follow each other in slot order (nodes created parent
 *  before child, one after another: a skeleton's joints, a subtree
 *  depth-first), and matrices can go straight into the scene's storage
 *  (sgrt_writer_begin). It keeps the slot of each entry and resolves them
 *  again, O(count) once, on its first write after a call that moved a node
 *  to another slot or destroyed one (sgrt_node_destroy, a relocating
 *  sgrt_node_set_parent, sgrt_scene_compact, hole reclamation). Owned by
 *  the scene it was created on; sgrt_scene_destroy frees the writers still
 *  alive. A handle (see "Object handles"): a destroyed writer, one of
 *  another scene or of another kind, or a zero handle is refused by every
 *  call below (INVALID_ARG, "w is not a live writer of s: ...").
 *    Which write to use (docs/design.md, "The write path", has the
 *  figures): matrices that the game computes anyway, written in place
 *  (begin, write, commit: one copy, the floor); TRS data through
 *  sgrt_writer_set_trs (converted at the kernel's width and compared in
 *  registers); a set of nodes that changes every frame through
 *  sgrt_nodes_set_local / sgrt_nodes_set_trs; a node now and then through
 *  the single calls. */
typedef struct sgrt_writer {
    uint32_t id;
} sgrt_writer;

/** The zero handle: names no writer. */
#ifdef __cplusplus
#define SGRT_NULL_WRITER (sgrt_writer{0})
#else
#define SGRT_NULL_WRITER ((sgrt_writer){0})
#endif

/** Create a writer for nodes[0 .. count-1] (count > 0), in the order the
 *  system's data comes in; a node may appear more than once (its last
 *  entry wins, as in sgrt_nodes_set_local). Entries that follow each other
 *  in slot order write fastest. `flags` must be 0 (no writer options are
 *  defined in this version). *out receives its handle. Memory: 8 bytes per
 *  entry and a bit (16 in validation mode). Allocates. Errors: INVALID_ARG
 *  (s, nodes or out NULL, count 0, flags not 0), STALE_HANDLE (a node is not
 *  live), CAPACITY (SGRT_MAX_OBJECTS objects alive), NOMEM. On error *out
 *  is left untouched. */
SGRT_NODISCARD SGRT_API sgrt_result sgrt_writer_create(sgrt_scene *s, uint32_t count, const sgrt_node *nodes,
                                        uint32_t flags, sgrt_writer *out);

/** Destroy a writer of `s`. A zero w is a no-op (SGRT_OK). w is resolved
 *  through the scene's object table before anything is read: a writer of
 *  another scene, one destroyed already, or a tracker or node set handle
 *  is refused and nothing is freed. In validation mode a local written in
 *  place and not committed is reported (see SGRT_SCENE_VALIDATE).
 *  O(writers); never allocates. Errors: INVALID_ARG (s NULL, w not a live
 *  writer of s). */
SGRT_NODISCARD SGRT_API sgrt_result sgrt_writer_destroy(sgrt_scene *s, sgrt_writer w);

/** Set the locals of all the writer's entries, as sgrt_nodes_set_local with
 *  the writer's nodes: `local` holds one matrix per entry, 16 floats each,
 *  in entry order. A refused entry stops the write as in
 *  sgrt_nodes_set_local (the entries before it written, it and the rest
 *  untouched, *out_bad naming it, nothing read past it but, for
 *  sgrt_writer_set_trs, the t, q and scale of its chunk of 32 compared
 *  with bounds together); a stale entry is found before anything is read
 *  or written (the slots are resolved first). A bit-identical local marks
 *  nothing. Cost: one checking
 *  pass over the input (16 floats read per entry) and one writing pass
 *  (each local compared and stored where it differs, 64 bytes), no handle
 *  resolution (after a slot move: one, O(count)), marks a word at a time
 *  within runs of consecutive slots; never allocates. Errors: INVALID_ARG
 *  (s or local NULL, w not a live writer of s; *out_bad untouched),
 *  INVALID_ARG (a non-finite matrix), STALE_HANDLE (an entry's node was
 *  destroyed). */
SGRT_NODISCARD SGRT_API sgrt_result sgrt_writer_set_local(sgrt_scene *s, sgrt_writer w, const float *local,
                                           uint32_t *out_bad);

/** The same from packed TRS arrays, as sgrt_nodes_set_trs: each local
 *  bit-identical to what sgrt_node_set_trs stores. Cost: a checking pass
 *  over the inputs (40 bytes per entry, compared against bounds that make
 *  the matrix surely finite; only entries beyond them are converted and
 *  checked), then one writing pass that converts at the kernel's width and
 *  compares and stores from registers (AVX-512: 16 entries, one register
 *  per matrix); never allocates. Same errors. */
SGRT_NODISCARD SGRT_API sgrt_result sgrt_writer_set_trs(sgrt_scene *s, sgrt_writer w, const float *t,
                                         const float *q, const float *scale, uint32_t *out_bad);

/** Write in place: *out_locals receives the scene's local matrices (16
 *  floats per slot, each slot's matrix 64-byte aligned) and *out_slots the
 *  slot of each entry, so that entry i's local is the 16 floats at
 *  *out_locals + 16 * (*out_slots)[i]. Write the locals of the entries that
 *  moved there, then tell the scene with sgrt_writer_commit; both pointers
 *  stay valid until a call that may allocate or move nodes
 *  (sgrt_node_create, sgrt_node_destroy, sgrt_node_set_parent,
 *  sgrt_scene_reserve, sgrt_scene_compact), the writer's destroy or
 *  sgrt_scene_destroy. A local written there and not committed yet is
 *  what sgrt_node_local returns, but nothing knows it moved: the update
 *  does not recompute it, and sgrt_node_world_now still returns the stored
 *  world while the node and its ancestors are clean (validation mode
 *  reports it at the next update: SGRT_SCENE_VALIDATE). O(1) (after a slot
 *  move: O(count) once; the first begin of a writer in validation mode:
 *  O(count)); never allocates. Errors: INVALID_ARG (NULL argument, w not a
 *  live writer of s), STALE_HANDLE (an entry's node was destroyed:
 *  recreate the writer). */
SGRT_NODISCARD SGRT_API sgrt_result sgrt_writer_begin(sgrt_scene *s, sgrt_writer w, float **out_locals,
                                       const uint32_t **out_slots);

/** Tell the scene that entries [first, first + count) of the writer were
 *  written in place since sgrt_writer_begin: each is marked as moved (its
 *  world and its subtree's recomputed by the next update, whether or not
 *  the bits changed: the old ones are gone). Commit only marks: it reads no
 *  local. The update checks every local it reads, and one with an element
 *  NaN or infinite becomes the identity there, so that no non-finite value
 *  reaches a world from a local; the update then reports it (the scene's
 *  log, INVALID_ARG from sgrt_scene_update naming the first such node) and
 *  sgrt_scene_nonfinite_locals counts them. Call it once per frame for
 *  everything or per chunk, as suits the writing loop. Cost O(count / 32
 *  + runs): a dirty word at a time within runs of consecutive slots;
 *  never allocates. Errors: INVALID_ARG (s NULL, w not a live writer of s,
 *  first + count past the writer's entries, w never begun: a misuse, not a
 *  stale write; nothing marked), STALE_HANDLE
 *  (nodes moved to other slots or were destroyed since sgrt_writer_begin:
 *  the writes went to the slots of then, and may have landed on other
 *  nodes; nothing is marked). */
SGRT_NODISCARD SGRT_API sgrt_result sgrt_writer_commit(sgrt_scene *s, sgrt_writer w, uint32_t first,
                                        uint32_t count);

/** Convert packed TRS to matrices, with no scene: for i = 0 .. count-1, the
 *  16 floats at out + 16 * i become T x R x S of t[3i .. 3i+2], the
 *  quaternion q[4i .. 4i+3] (x, y, z, w) and scale[3i .. 3i+2], the arrays
 *  packed as sgrt_nodes_set_trs takes them (any alignment, out included;
 *  out must not overlap the inputs). Each matrix is bit-identical to the
 *  local sgrt_node_set_trs stores for the same inputs, on every target and
 *  kernel level, so TRS converted into a writer's locals in place
 *  (sgrt_writer_begin, then sgrt_writer_commit) gives, bit for bit, the
 *  worlds sgrt_writer_set_trs gives. The conversion runs on the kernel that
 *  sgrt_simd_name() names, at its width (16 entries per step on AVX-512, 8
 *  on AVX, 4 on SSE2 and NEON).
 *  Nothing is checked: NaN or infinite inputs, and finite ones whose matrix
 *  overflows (a quaternion far from unit length, a huge scale), are
 *  converted all the same, into a matrix with a NaN or infinite element --
 *  the matrix sgrt_node_set_trs would refuse -- and the call returns
 *  SGRT_OK (NaN payloads may differ between kernels). Every way into a
 *  scene checks what it is given: sgrt_node_set_local,
 *  sgrt_nodes_set_local and sgrt_writer_set_local refuse such a matrix,
 *  and the update makes one written in place the identity and names it
 *  (sgrt_scene_nonfinite_locals); a check here would be a second pass over
 *  data that path checks anyway.
 *  Validation mode's quaternion check needs a scene: it does not apply.
 *  The kernel is chosen by the first call in the process (it asks the CPU:
 *  about 18 us in a virtual machine, where cpuid traps) and kept in one
 *  atomic pointer, beside what the CPU runs (asked once) the library's only
 *  process-wide state: a constant that every thread computes alike, so
 *  first calls may race on any threads.
 *  A later call costs its conversion plus the argument checks and an
 *  atomic load: 1.5 ns more than calling the kernel directly for count 1
 *  (7.8 against 6.3 ns), within the noise for count 64 (about 100 ns a
 *  call), measured on an AVX-512 Xeon in a virtual machine
 *  (test_trs_matrices --bench).
 *  O(count); never allocates. Errors: INVALID_ARG (t, q, scale or out NULL
 *  with count > 0; nothing written). count 0 returns SGRT_OK, whatever the
 *  pointers. */
SGRT_NODISCARD SGRT_API sgrt_result sgrt_trs_to_matrices(uint32_t count, const float *t, const float *q,
                                          const float *scale, float *out);

/** Copy the local matrix to out. O(1). Errors: INVALID_ARG, STALE_HANDLE. */
SGRT_NODISCARD SGRT_API sgrt_result sgrt_node_local(const sgrt_scene *s, sgrt_node node, float out[16]);

/** Copy the world matrix *as of the last sgrt_scene_update* to out (the
 *  dirty-flag contract: a node moved since then still reports its old world).
 *  O(1). Errors: INVALID_ARG, STALE_HANDLE; in validation mode
 *  (SGRT_SCENE_VALIDATE) PENDING when the next update will change that
 *  world (the node or an ancestor moved since the last update; out is
 *  written all the same), at a cost of O(d) there. */
SGRT_NODISCARD SGRT_API sgrt_result sgrt_node_world(const sgrt_scene *s, sgrt_node node, float out[16]);

/** Compute the exact current world matrix, bit-identical to what the next
 *  update will store, without changing the scene: walks up to the root, then
 *  multiplies along the chain of k nodes below the topmost moved ancestor,
 *  one product per node. O(d): at most 2d + 3k parent-link steps and k
 *  products, at any depth. Never allocates; uses at most about 3 KiB of
 *  stack. Errors: INVALID_ARG, STALE_HANDLE. */
SGRT_NODISCARD SGRT_API sgrt_result sgrt_node_world_now(const sgrt_scene *s, sgrt_node node, float out[16]);

/* ------------------------------------------------------------------------- */
/* Update                                                                    */
/* ------------------------------------------------------------------------- */

/** Recompute the world matrix of every node whose world may have changed since
 *  the last update (moved, created, re-parented, or below one of those), each
 *  exactly once, parents before children. Returns how many it recomputed
 *  (0 for a NULL scene). Cost: O(recomputed nodes + n/1024), plus, when a
 *  node with children moved, one pass over the live slots after the first
 *  such node (a parent-link load and a bit test per slot not yet marked).
 *  Every local it reads is checked (a few instructions on the loaded
 *  register): one with an element NaN or infinite, which only a write in
 *  place can leave there (sgrt_writer_begin), becomes the identity, so that
 *  no non-finite value reaches a world from a local; such locals are
 *  counted (sgrt_scene_nonfinite_locals) and the first is reported to the
 *  scene's log (INVALID_ARG, naming the node). A world can still overflow
 *  to infinity when finite matrices multiply past FLT_MAX along a chain.
 *  Never allocates. */
SGRT_API uint32_t sgrt_scene_update(sgrt_scene *s);

/** How many locals the last update (serial or parallel) found with an
 *  element NaN or infinite and made the identity; *out_first (optional)
 *  receives the node of the lowest slot among them, SGRT_NULL_NODE when
 *  none. 0 for a NULL scene. O(1). */
SGRT_API uint32_t sgrt_scene_nonfinite_locals(const sgrt_scene *s, sgrt_node *out_first);

/** The user's job system. run must call fn(ctx, i) once for every i in
 *  [0, count), on any threads in any order, and return when all calls have
 *  returned; neither run nor the tasks may use the scene meanwhile (nor may
 *  any other thread). The library never creates a thread.
 *
 *  What sgrt_scene_update_parallel detects, reports (SGRT_ERR_EXECUTOR in
 *  the log) and repairs, so that the scene ends as the serial update
 *  leaves it: an index that run never called (the calling thread runs that
 *  task after run returns); an index called again after its first call
 *  returned (the repeat does nothing); an index outside [0, count)
 *  (ignored); and any call into the scene while run is in progress, from a
 *  task or another thread, through a function that takes a node, tracker,
 *  node set or writer handle, creates, updates, compacts, reserves, checks,
 *  dumps or collects: refused with SGRT_ERR_EXECUTOR (0, false, NULL or
 *  SGRT_NULL_NODE for the calls that answer with a value), changing
 *  nothing.
 *
 *  Not detected: an index run twice at the same time on two threads; a run
 *  that returns while tasks still run (or calls fn after returning); reads
 *  that take no handle (sgrt_scene_world_array, sgrt_scene_node_count,
 *  sgrt_scene_slot_node) while run is in progress; sgrt_node_alive reads
 *  false then. Each costs a data race: the executor must not do them. */
typedef struct sgrt_executor {
    void (*run)(void *user, uint32_t count, void (*fn)(void *ctx, uint32_t i), void *ctx);
    void *user;
    uint32_t workers; /**< how many threads run will use: a hint for splitting the work */
} sgrt_executor;

/** sgrt_scene_update on the executor's threads. Same result as
 *  sgrt_scene_update, bit for bit, and the same return value and tracker
 *  feed, whatever the executor and its number of workers. An executor it
 *  cannot use (NULL ex, a NULL run, or 0 workers) gives the serial update,
 *  reported as a warning through the log (a job system not set up yet
 *  looks just like that); 1 worker gives the serial update too, reported
 *  in validation mode only. Calls run at most once per
 *  update, and not at all when nothing is pending or the work fits one task
 *  (an idle frame wakes no thread).
 *
 *  How: storage is cut into up to 8 x workers (at most 256) contiguous slot
 *  ranges of whole 1,024-slot blocks. The ancestors of nodes stored in a
 *  later range than their parent are updated first, on the calling thread;
 *  then each range is one task: it completes its part of the dirty closure
 *  and recomputes its dirty worlds in slot order. Scene order never matters
 *  for correctness; depth-first order (creation by a recursive loader, or
 *  sgrt_scene_compact) keeps that first serial part small. The plan is kept
 *  in the scene and rebuilt (O(n), no allocation) by the first parallel
 *  update after a structural change or a change of `workers`.
 *
 *  Cost: that of sgrt_scene_update, spread over the tasks, plus the plan
 *  rebuild when due. Never allocates. ex and the scene must not be used by
 *  other calls while it runs. */
SGRT_API uint32_t sgrt_scene_update_parallel(sgrt_scene *s, const sgrt_executor *ex);

/* ------------------------------------------------------------------------- */
/* Renderer hand-off                                                         */
/* ------------------------------------------------------------------------- */

/* A renderer keeps a GPU copy of the world matrices indexed by *slot*, the
 * position of a node in the scene's storage, and each frame uploads only the
 * slot ranges that a tracker reports as changed. A slot's content changes
 * when its world matrix is recomputed, when a node is created in it or
 * destroyed, and when a node moves into or out of it (re-parenting under a
 * node stored after it, hole reclamation, sgrt_scene_compact), and, in a
 * scene that keeps previous worlds (SGRT_SCENE_PREV_WORLD), when its previous
 * world changes. Slots are not handles: the node in a slot can change;
 * sgrt_scene_slot_node says which one it is now.
 *
 * Slots in use: between calls, the slot count is at most
 * 2 x sgrt_scene_node_count + 1,024 under any sequence of calls. Destroying
 * and relocating leave dead slots (holes); when holes come to outnumber live
 * nodes by more than 1,024, the call that made the last one moves every live
 * node after the first hole down to close them, in place, keeping slot order
 * (parents before children), and reports both slots of each node that moved
 * to trackers (a node that a relocation moved out of a slot and the
 * reclamation moved back into it, in one call, is reported there too). The cost, O(slots in use), is paid for by the holes it
 * closes: amortised O(1) per hole. Storage capacity grows geometrically
 * with the slots in use and does not shrink by itself: sgrt_scene_compact
 * gives memory back. */

/** The world matrices as one array of 16 floats per slot (column-major, each
 *  matrix 64-byte aligned), as of the last sgrt_scene_update: upload it
 *  as-is. *out_slot_count (optional) receives the number of slots in use,
 *  one past the highest slot that may hold a live node; entries of dead
 *  slots hold unspecified values. The pointer is owned by the scene and
 *  stays valid until the next call that may allocate (sgrt_node_create,
 *  sgrt_node_set_parent, sgrt_scene_reserve, sgrt_scene_compact) or
 *  sgrt_scene_destroy; whether it has moved since, sgrt_scene_storage_version
 *  says: a renderer that keeps the pointer (or a mapping of it) compares the
 *  version it had with the current one each frame, and fetches the pointer
 *  again when they differ. O(1). Returns NULL (and a count of 0) for a NULL
 *  scene. In validation mode (SGRT_SCENE_VALIDATE) a call that finds moves
 *  pending since the last update (the array is that update's, and the next
 *  one will change it) reports a warning through the log, at a cost of
 *  O(capacity / 1024). */
SGRT_API const float *sgrt_scene_world_array(const sgrt_scene *s, uint32_t *out_slot_count);

/** A number that changes whenever a pointer this header lets a program
 *  hold goes stale: those of sgrt_scene_world_array,
 *  sgrt_scene_prev_world_array, sgrt_scene_bounds_arrays,
 *  sgrt_nodeset_words (of a set still alive) and the locals of
 *  sgrt_writer_begin. Compare it with the value read when the pointers
 *  were taken, and take them again when it differs; while it is the same,
 *  every one of them is current. It changes when storage grows
 *  (sgrt_node_create, sgrt_node_set_parent with a relocation,
 *  sgrt_scene_reserve; also when such a growth fails after moving a node
 *  set's words) and at sgrt_scene_compact, never otherwise: writes,
 *  updates, destroys, hole reclamation (nodes move inside the same block:
 *  slots change, pointers do not), set operations and culls leave every
 *  pointer where it is. A skin's arrays (sgrt_skin_palette and the
 *  others) are not in storage: they stay where they are until the skin is
 *  destroyed, whatever this number does. 1 for a new scene, then
 *  increasing; 0 for a NULL scene. O(1); never allocates. */
SGRT_API uint64_t sgrt_scene_storage_version(const sgrt_scene *s);

/** The previous world matrices, for motion vectors: in a scene created with
 *  SGRT_SCENE_PREV_WORLD, an array laid out as the world array (16 floats
 *  per slot, 64-byte aligned, the same slots, the same validity) in which,
 *  after each update, every live node's entry holds the world that node had
 *  after the update before (before this one):
 *    - a node the update recomputed: its world before the update;
 *    - a node it did not recompute: its world (unchanged), also when the
 *      update before had recomputed it;
 *    - a node created since the update before: the world this update gave
 *      it (a new node has not moved: no motion on its first frame);
 *    - a node that changed slot (re-parenting under a node stored after it,
 *      sgrt_scene_compact) takes its previous world along; a destroyed
 *      node's entry is unspecified, as in the world array.
 *  Between updates the entries stay as the last update left them (moving
 *  with their nodes); a node created since shows its world array entry
 *  until its first update. A tracker reports a slot when its previous
 *  world changes too: in the update that recomputes it, and again in the
 *  next update when that one leaves it alone (its previous world becomes
 *  its world), so the ranges of one collect cover both arrays. Both serial
 *  and parallel updates keep it, bit for bit alike.
 *  *out_slot_count (optional) as for sgrt_scene_world_array. Returns NULL
 *  (and a count of 0) for a NULL scene or one created without the flag (a
 *  refusal: reported through the log with INVALID_ARG). The pointer is
 *  valid as the world array's (sgrt_scene_storage_version says when it
 *  moved), and validation mode warns as for it. O(1). */
SGRT_API const float *sgrt_scene_prev_world_array(const sgrt_scene *s, uint32_t *out_slot_count);

/** Slot of a live node: its world matrix is at 16 * slot in the world array.
 *  Valid until the node moves (see above). O(1).
 *  Errors: INVALID_ARG (s or out_slot NULL), STALE_HANDLE. */
SGRT_NODISCARD SGRT_API sgrt_result sgrt_node_slot(const sgrt_scene *s, sgrt_node node, uint32_t *out_slot);

/** The node stored in `slot`, or SGRT_NULL_NODE when the slot is dead, out of
 *  range, or s is NULL. O(1). */
SGRT_API sgrt_node sgrt_scene_slot_node(const sgrt_scene *s, uint32_t slot);

/** Attach a 64-bit user value to a node (an entity id, a mesh and material
 *  index, ...). It travels with the node when its slot changes, and reads
 *  back as 0 on a new node. Marks nothing. O(1); never allocates.
 *  Errors: INVALID_ARG (s NULL), STALE_HANDLE. */
SGRT_NODISCARD SGRT_API sgrt_result sgrt_node_set_user(sgrt_scene *s, sgrt_node node, uint64_t user);

/** Read a node's user value. O(1). Errors: INVALID_ARG, STALE_HANDLE. */
SGRT_NODISCARD SGRT_API sgrt_result sgrt_node_user(const sgrt_scene *s, sgrt_node node, uint64_t *out);

/** A change tracker: for one consumer (a GPU buffer, a physics mirror, a
 *  network replicator), the set of slots whose content changed since that
 *  consumer last collected. Any number of trackers may watch one scene; each
 *  sees every change exactly once, whatever the others collect. Owned by the
 *  scene it was created on; a handle (see "Object handles"): every call
 *  below refuses a destroyed tracker, one of another scene or of another
 *  kind, and a zero handle (INVALID_ARG, "t is not a live tracker of s:
 *  ..."), and never reads it. */
typedef struct sgrt_tracker {
    uint32_t id;
} sgrt_tracker;

/** The zero handle: names no tracker. */
#ifdef __cplusplus
#define SGRT_NULL_TRACKER (sgrt_tracker{0})
#else
#define SGRT_NULL_TRACKER ((sgrt_tracker){0})
#endif

/** A run of slots [first, first + count). */
typedef struct sgrt_range {
    uint32_t first, count;
} sgrt_range;

/** Create a tracker on `s`; *out receives its handle. It starts with every
 *  slot below the slot count pending, so its first collect covers the
 *  whole world array. Cost added to the scene: one word OR per tracker for
 *  each 32-slot word that sgrt_scene_update recomputes or that a create,
 *  destroy or move touches; capacity/8 bytes per tracker, grown with the
 *  scene (a failed growth fails the call that needed it with NOMEM).
 *  Allocates. Errors: INVALID_ARG (s or out NULL), CAPACITY
 *  (SGRT_MAX_OBJECTS objects alive), NOMEM; *out untouched. */
SGRT_NODISCARD SGRT_API sgrt_result sgrt_tracker_create(sgrt_scene *s, sgrt_tracker *out);

/** Destroy a tracker of `s`. A zero t is a no-op (SGRT_OK).
 *  sgrt_scene_destroy frees the trackers still alive. t is resolved
 *  through the scene's object table and never read before: a tracker of
 *  another scene, a node set or writer handle, and a tracker destroyed
 *  already (until its index's generation wraps, see "Object handles") are
 *  refused and nothing is freed. O(trackers); never allocates. Errors:
 *  INVALID_ARG (s NULL; t not a live tracker of s). */
SGRT_NODISCARD SGRT_API sgrt_result sgrt_tracker_destroy(sgrt_scene *s, sgrt_tracker t);

/** Write the tracker's pending slots to `out` as ranges in increasing slot
 *  order, merging two runs when at most `merge_gap` unchanged slots lie
 *  between them (uploading a few unchanged matrices is often cheaper than one
 *  more call), and forget what it wrote. Every range lies below the current
 *  slot count; pending slots at or past it (dead since) are dropped.
 *
 *  *out_count receives the number of ranges written: never more than
 *  max_ranges, 0 when nothing is pending. *out_more receives whether
 *  changes are still pending because out was full; they stay for the next
 *  call, so a drain is
 *
 *      uint32_t n;
 *      bool more;
 *      do {
 *          if (sgrt_tracker_collect(s, t, r, 64, gap, &n, &more) != SGRT_OK)
 *              break;
 *          for (uint32_t i = 0; i < n; i++) upload(r[i]);
 *      } while (more);
 *
 *  With max_ranges = 0 (out may then be NULL) it writes nothing and
 *  *out_more says whether anything is pending. Both out_count and out_more
 *  are required: a caller that cannot learn that more is pending would
 *  upload part of a frame without knowing it.
 *
 *  Cost O(pending words + capacity/1024); never allocates. It writes only
 *  t: collects on distinct trackers of one scene may run concurrently with
 *  each other and with the other functions taking a const scene (see
 *  Threads above). Errors: INVALID_ARG (s NULL; t not a live tracker of s:
 *  zero, destroyed, of another scene or of another kind; out_count or
 *  out_more NULL; out NULL with max_ranges > 0). A refused call writes 0
 *  and false to the outputs it was given and forgets nothing: a tracker
 *  that is not alive is an error, never "nothing changed". */
SGRT_NODISCARD SGRT_API sgrt_result sgrt_tracker_collect(const sgrt_scene *s, sgrt_tracker t, sgrt_range *out,
                                          uint32_t max_ranges, uint32_t merge_gap,
                                          uint32_t *out_count, bool *out_more);

/** A set of nodes as a bitfield over slots, 32 to a word (e.g. "visible",
 *  "casts shadow"). Membership follows a node when its slot changes; a
 *  destroyed node leaves every set. Owned by the scene it was created on; a
 *  handle (see "Object handles"): every call below refuses a destroyed
 *  set, one of another scene or of another kind, and a zero handle where a
 *  set is required (INVALID_ARG, "set is not a live node set of s: ..."),
 *  and never reads it. */
typedef struct sgrt_nodeset {
    uint32_t id;
} sgrt_nodeset;

/** The zero handle: names no node set. */
#ifdef __cplusplus
#define SGRT_NULL_NODESET (sgrt_nodeset{0})
#else
#define SGRT_NULL_NODESET ((sgrt_nodeset){0})
#endif

/** How sgrt_nodeset_combine and sgrt_nodeset_from_changes join two sets. */
typedef enum sgrt_set_op {
    SGRT_SET_AND = 0,    /**< in both */
    SGRT_SET_OR = 1,     /**< in either */
    SGRT_SET_AND_NOT = 2 /**< in the first and not in the second */
} sgrt_set_op;

/** Create an empty node set on `s`; *out receives its handle. Memory:
 *  capacity/4 bytes, grown with the scene. Allocates. Errors: INVALID_ARG
 *  (s or out NULL), CAPACITY (SGRT_MAX_OBJECTS objects alive), NOMEM;
 *  *out untouched. */
SGRT_NODISCARD SGRT_API sgrt_result sgrt_nodeset_create(sgrt_scene *s, sgrt_nodeset *out);

/** Destroy a node set of `s`. A zero set is a no-op (SGRT_OK).
 *  sgrt_scene_destroy frees the sets still alive. As for
 *  sgrt_tracker_destroy, set is resolved through the object table first:
 *  a set of another scene, a tracker or writer handle, or a set destroyed
 *  already is refused and nothing is freed. O(node sets); never allocates.
 *  Errors: INVALID_ARG (s NULL; set not a live node set of s). */
SGRT_NODISCARD SGRT_API sgrt_result sgrt_nodeset_destroy(sgrt_scene *s, sgrt_nodeset set);

/** Add or remove a node. O(1), never allocates; writes set (see Threads).
 *  Errors: INVALID_ARG (s NULL, set not a live node set of s),
 *  STALE_HANDLE. */
SGRT_NODISCARD SGRT_API sgrt_result sgrt_nodeset_add(const sgrt_scene *s, sgrt_nodeset set, sgrt_node node);
SGRT_NODISCARD SGRT_API sgrt_result sgrt_nodeset_remove(const sgrt_scene *s, sgrt_nodeset set, sgrt_node node);

/** True when `node` is a live member of `set`; false for bad arguments
 *  (a set that is not alive is reported through the log). O(1). */
SGRT_API bool sgrt_nodeset_has(const sgrt_scene *s, sgrt_nodeset set, sgrt_node node);

/** Remove every node. O(capacity/32); writes set. Errors: INVALID_ARG. */
SGRT_NODISCARD SGRT_API sgrt_result sgrt_nodeset_clear(const sgrt_scene *s, sgrt_nodeset set);

/** Number of members (0 for bad arguments). O(capacity/32). */
SGRT_API uint32_t sgrt_nodeset_count(const sgrt_scene *s, sgrt_nodeset set);

/** dst = a OP b in one pass over the words. dst may be a or b.
 *  O(capacity/32); never allocates; writes dst. Errors: INVALID_ARG (s
 *  NULL, bad op, a set that is not a live node set of s). */
SGRT_NODISCARD SGRT_API sgrt_result sgrt_nodeset_combine(const sgrt_scene *s, sgrt_nodeset dst,
                                          sgrt_nodeset a, sgrt_set_op op, sgrt_nodeset b);

/** dst = (the live nodes in t's pending slots) OP b, in one pass over the
 *  words: with SGRT_SET_AND and b = "visible", the visible nodes that changed.
 *  A zero b means the pending live nodes alone (op is then ignored). dst may
 *  be b. With `consume` true, t forgets the pending slots whose nodes ended
 *  up in dst (a later collect will not report them), and keeps the others,
 *  e.g. the changed nodes that are not visible yet.
 *  O(capacity/32); never allocates; writes dst, and t when consuming.
 *  Errors: INVALID_ARG (s NULL, bad op, dst or a non-zero b not a live node
 *  set of s, t not a live tracker of s). */
SGRT_NODISCARD SGRT_API sgrt_result sgrt_nodeset_from_changes(const sgrt_scene *s, sgrt_nodeset dst,
                                               sgrt_tracker t, sgrt_set_op op,
                                               sgrt_nodeset b, bool consume);

/** Iterate: the member with the lowest slot >= *cursor, SGRT_NULL_NODE when
 *  there is none; *cursor moves past it. Start with *cursor = 0. Skips 32
 *  non-members per zero word and finds members with count-trailing-zeros.
 *  Adding or removing members during the walk is fine; after creating,
 *  destroying or moving nodes the walk may skip or repeat members. Returns
 *  SGRT_NULL_NODE for bad arguments. */
SGRT_API sgrt_node sgrt_nodeset_next(const sgrt_scene *s, sgrt_nodeset set, uint32_t *cursor);

/** The set's words for a loop of one's own: bit (i % 32) of word (i / 32) is
 *  slot i; *out_word_count (optional) words cover every slot in use, and bits
 *  past the slot count are 0. Owned by the set; the pointer stays valid
 *  (its words follow every later change of the set and of the slots) until
 *  sgrt_scene_storage_version changes (storage growth: the set's words
 *  move with it), the set is destroyed, or sgrt_scene_destroy. Compaction
 *  and hole reclamation remap the members in place. NULL for bad arguments. */
SGRT_API const uint32_t *sgrt_nodeset_words(const sgrt_scene *s, sgrt_nodeset set,
                                            uint32_t *out_word_count);

/* ------------------------------------------------------------------------- */
/* Skinning palettes                                                         */
/* ------------------------------------------------------------------------- */

/* A skin keeps what a GPU skinning shader reads for one skinned mesh: per
 * joint i the palette entry P = inverse(world(mesh)) x world(joints[i]) x
 * inverse_binds[i], as of the last update (serial or parallel). Each
 * update recomputes the palettes of exactly the joints whose world it
 * recomputes, and every palette of a skin whose mesh's world it
 * recomputes; nothing else, and nothing on a frame where nothing moved.
 * Joint i's entry is 12 floats at palette + 12 * i: the three rows of P's
 * upper 3x4, row-major (P[r][0], P[r][1], P[r][2], P[r][3] for r = 0, 1,
 * 2; the row an affine P leaves out is (0, 0, 0, 1)), 48 bytes a joint,
 * contiguous per skin, so one upload call covers any range of joints.
 *
 * Arithmetic: IM = inverse(world(mesh)) is formed in double and rounded to
 * float once per entry, when an update starts that moves the mesh (from
 * the world that update gives it; the identity for SGRT_NULL_NODE, world
 * space); then A = IM x world(joint) and P = A x inverse_bind in float,
 * each element as ((x0*y0 + x1*y1) + (x2*y2 + x3*y3)), the order of the
 * world products, where both factors of a product are affine (last row
 * exactly (0, 0, 0, 1), as TRS matrices are) without the terms that row
 * makes zero; no fused multiply-add: the same bits on every kernel level,
 * target, worker count, serial or parallel. A mesh world without an
 * inverse (a zero scale) keeps the inverse it had (the identity before
 * one). Precision, against a double-precision model of the same locals
 * (tests/test_skin.c: random rigs 9 to 14 levels deep, affine locals with
 * scales 0.5 to 2, shear and mirroring, translations to 4; meshes in and
 * beside the skeletons): |P - P_model| <= 2^-18 x (1 + m) per element,
 * where m is that element of |IM| x (A_joint + |IM| x A_mesh x |IM| x
 * |world(joint)|) x |inverse_bind|, A the product of the entrywise
 * absolute locals along a node's chain (what a float world's rounding
 * scales with); the largest measured is 0.043 of that bound.
 *
 * Normals (SGRT_SKIN_NORMALS): per joint the cofactor matrix of P's upper
 * 3x3, det x inverse-transpose formed without a division (each row the
 * cross product of the other two rows of P): right under non-uniform and
 * negative scale, for a shader that normalizes after; 12 floats, three
 * rows of 4 with the fourth 0, recomputed with the palette.
 *
 * Previous palette (SGRT_SKIN_PREV), for motion vectors: every joint's
 * palette as of the update before the last, as previous worlds are
 * (SGRT_SCENE_PREV_WORLD): a joint the last update recomputed shows its
 * palette before that update, any other its palette. After a skin's first
 * update its previous palette is its palette (no motion on its first
 * frame); nothing a scene does to its storage (growth, compaction)
 * touches either.
 *
 * Upload ranges: sgrt_skin_collect is sgrt_tracker_collect for one skin's
 * joints: runs of joint indices whose palette (or, with SGRT_SKIN_PREV,
 * previous palette) the updates since the last collect recomputed, as a
 * tracker reports the slots an update recomputes (a recomputed entry is
 * reported whatever its bits), so that a copy kept by collecting equals
 * the arrays after every update (palette, normals and previous palette:
 * one set of ranges covers all three). An idle frame reports nothing.
 *
 * Nodes: a skin holds handles, so nodes may move to other slots
 * (re-parenting, hole reclamation, sgrt_scene_compact) and palettes stay
 * right. A joint's node destroyed leaves its entry as the last update
 * computed it, never recomputed (a collect reports its last change if it
 * was not collected yet, then nothing); the mesh's node destroyed freezes
 * the skin, every entry as the last update left it. Validation mode warns
 * once per skin when either happens. In a large world
 * (SGRT_SCENE_LARGE_WORLD) palettes are formed from the origin-relative
 * worlds, as everything is; an origin move recomputes every palette.
 *
 * Storage: a skin's arrays are allocated by sgrt_skin_create and stay
 * where they are until sgrt_skin_destroy or sgrt_scene_destroy (storage
 * growth, compaction and sgrt_scene_storage_version do not concern them).
 *
 * Cost: per palette recomputed, two products (one without inverse binds,
 * or with a mesh whose inverse is the identity) on the scene's kernel and
 * a cofactor with SGRT_SKIN_NORMALS, in the update's pass over the joint's
 * word while its world is in cache, on the update's threads; per update
 * that moves a mesh, its inverse and its world as the update forms it
 * (O(depth)), and the joints it does not recompute; per update in which no
 * dirty node lies above a mesh, nothing per skin (an idle frame reads the
 * dirty summary, O(capacity / 1024)); per update in which one does, a walk
 * up from each skin's mesh, O(skins x depth). Memory per joint: 72 bytes,
 * 48 more for each of the normals and the previous palette, and 64 per
 * joint of each distinct set of inverse binds (skins made with the same
 * inverse binds, bit for bit, share one copy: a crowd of one rig holds
 * it once); per slot of every scene, 3 bits, and once a skin exists 4
 * bytes per handle index. */

/** A skin, named by an object handle (see "Object handles"): every call
 *  below refuses a destroyed skin, one of another scene or of another
 *  kind, and a zero handle (INVALID_ARG, "k is not a live skin of s:
 *  ..."), and never reads it. */
typedef struct sgrt_skin {
    uint32_t id;
} sgrt_skin;

/** The zero handle: names no skin. */
#ifdef __cplusplus
#define SGRT_NULL_SKIN (sgrt_skin{0})
#else
#define SGRT_NULL_SKIN ((sgrt_skin){0})
#endif

/** Options of sgrt_skin_desc.flags. */
#define SGRT_SKIN_NORMALS (1u << 0) /**< also keep a normal matrix per joint */
#define SGRT_SKIN_PREV (1u << 1)    /**< also keep the palette of the update before */

/** What a skin is made of. */
typedef struct sgrt_skin_desc {
    uint32_t joint_count;     /**< > 0, at most SGRT_MAX_NODES */
    const sgrt_node *joints;  /**< live nodes of the scene, any order, repeats allowed */
    const float *inverse_binds; /**< 16 floats per joint, column-major like every sgrt matrix;
                                     NULL: every one the identity */
    sgrt_node mesh;           /**< palettes relative to this node's world; SGRT_NULL_NODE:
                                   world space */
    uint32_t flags;           /**< SGRT_SKIN_NORMALS, SGRT_SKIN_PREV */
} sgrt_skin_desc;

/** Create a skin on `s`; *out receives its handle. The joints and inverse
 *  binds are copied (desc's arrays are not read after the call; inverse
 *  binds equal to those of a skin alive share its copy). Its
 *  palettes are the identity until the next update, which computes every
 *  one (sgrt_scene_update with nothing dirty included); its first collect
 *  reports every joint. Cost O(joint_count) and the mesh's depth.
 *  Allocates (one block for the skin, and the scene's lists of skins and
 *  entries as they grow). Errors: INVALID_ARG (s, desc or out NULL;
 *  desc->joint_count 0 or above SGRT_MAX_NODES; desc->joints NULL;
 *  desc->flags with another bit; an inverse bind with an element NaN or
 *  infinite), STALE_HANDLE (a node of desc->joints, or a non-zero
 *  desc->mesh, not a live node of s: reported naming it), CAPACITY
 *  (SGRT_MAX_OBJECTS objects alive), NOMEM; *out untouched and nothing
 *  changed on error. */
SGRT_NODISCARD SGRT_API sgrt_result sgrt_skin_create(sgrt_scene *s, const sgrt_skin_desc *desc,
                                                     sgrt_skin *out);

/** Destroy a skin of `s`. A zero k is a no-op (SGRT_OK). sgrt_scene_destroy
 *  frees the skins still alive. As for sgrt_tracker_destroy, k is resolved
 *  through the object table first, and a skin of another scene, an object
 *  of another kind or a skin destroyed already is refused, nothing freed.
 *  O(joints + skins); never allocates. Errors: INVALID_ARG (s NULL; k not a
 *  live skin of s). */
SGRT_NODISCARD SGRT_API sgrt_result sgrt_skin_destroy(sgrt_scene *s, sgrt_skin k);

/** The skin's palette: 12 floats per joint, joint i at 12 * i (above), as
 *  of the last update; *out_joints (optional) receives the joint count.
 *  Owned by the skin; the pointer stays valid until the skin is destroyed.
 *  O(1). NULL (and a count of 0) for a NULL scene or k not a live skin of
 *  s (reported). In validation mode a read before the skin's first update
 *  warns, and so does a read with moves pending, as for
 *  sgrt_scene_world_array. */
SGRT_API const float *sgrt_skin_palette(const sgrt_scene *s, sgrt_skin k, uint32_t *out_joints);

/** The normal matrices, laid out as the palette (12 floats per joint, the
 *  fourth of each row 0), of a skin created with SGRT_SKIN_NORMALS; as
 *  sgrt_skin_palette otherwise. NULL (a refusal, reported) without the
 *  flag. */
SGRT_API const float *sgrt_skin_normals(const sgrt_scene *s, sgrt_skin k, uint32_t *out_joints);

/** The previous palette (above), laid out as the palette, of a skin
 *  created with SGRT_SKIN_PREV; as sgrt_skin_palette otherwise. NULL (a
 *  refusal, reported) without the flag. */
SGRT_API const float *sgrt_skin_prev_palette(const sgrt_scene *s, sgrt_skin k,
                                             uint32_t *out_joints);

/** Write the joints whose palette (or previous palette) changed since the
 *  last collect to `out` as ranges of joint indices [first, first + count)
 *  in increasing order, merging two runs when at most `merge_gap`
 *  unchanged joints lie between them, and forget what it wrote: exactly
 *  sgrt_tracker_collect over the skin's joints (its drain loop, *out_more,
 *  max_ranges = 0, the refusals and what a refused call writes), with
 *  every range below the joint count. Cost O(pending words + joints /
 *  1024); never allocates. It writes only k: collects on distinct skins may
 *  run concurrently with each other and with the functions taking a const
 *  scene (see Threads). Errors: INVALID_ARG (s NULL; k not a live skin of
 *  s; out_count or out_more NULL; out NULL with max_ranges > 0). */
SGRT_NODISCARD SGRT_API sgrt_result sgrt_skin_collect(const sgrt_scene *s, sgrt_skin k,
                                                      sgrt_range *out, uint32_t max_ranges,
                                                      uint32_t merge_gap, uint32_t *out_count,
                                                      bool *out_more);

/* ------------------------------------------------------------------------- */
/* Bounds and culling                                                        */
/* ------------------------------------------------------------------------- */

/* In a scene created with SGRT_SCENE_BOUNDS, a node may carry a local
 * axis-aligned box (center and half extents, in its local space). The
 * update computes its world box, the box of the local box under the node's
 * world matrix (Arvo's method: center' = M x center, half' = |M| x half),
 * for every node whose world it recomputes or whose box was set since,
 * rounded outward: the stored box contains the exact box of the float
 * world matrix and local box, and exceeds it on each side by at most about
 * 2^-20 x (|translation| + |M| x (|center| + half)) of that axis. World
 * boxes are stored as min and max, structure of arrays (six float arrays
 * indexed by slot), so that a cull loads 8 or 16 boxes at once, and are
 * bit-identical on every kernel level and target, in the serial and the
 * parallel update alike. A world matrix whose last row is not (0, 0, 0, 1),
 * or a box that does not fit in float, gives an infinite box on the axes
 * concerned (never culled). A node without a box (the default) is a pure
 * transform: it is never visible and adds nothing to subtree boxes. World
 * and subtree boxes are as of the last update, like world matrices; a
 * tracker reports a slot whose world box changes (its world was recomputed,
 * or its box was set or cleared since). Boxes travel with their nodes when
 * slots change (re-parenting, hole reclamation, sgrt_scene_compact).
 *
 * With SGRT_SCENE_SUBTREE_BOUNDS the update also keeps, after its kernels,
 * each node's subtree box (its world box joined with its descendants'): it
 * revisits only the nodes whose own box changed and their ancestors, in
 * reverse slot order (children before parents). An ancestor takes a changed
 * child's box by growing, and re-joins all its children only when that
 * child's old box lay on its boundary and shrank from it, or when a child
 * was destroyed or re-parented away on its boundary; a node whose own box
 * changed re-joins its children (which changed too, when its world moved).
 * Cost O(changed nodes x depth), plus the children of the nodes re-joined.
 *
 * Frustum culling: a plane is float[4] {nx, ny, nz, d}; a point p is inside
 * when nx*px + ny*py + nz*pz + d >= 0 (normals point into the frustum, need
 * not be unit length). A box is culled when it lies wholly outside one of
 * the planes, with the test rounded so that it is conservative: a box that
 * meets the frustum in exact arithmetic is never culled, and a box outside
 * a plane by more than about 2^-20 x (|d| + |n|_1 x the largest coordinate
 * of the box) is, as long as |d| + |n|_1 x that coordinate stays below
 * 2^125 (beyond, the test's float sums overflow and the box is kept:
 * conservative still). Scale planes to unit normals to stay far inside. */

/** Give a node a local box: center and half extents (>= 0; -0 is taken as
 *  +0), in its local space. Values bit-identical to its current box change
 *  nothing; otherwise the next update computes its world box (and a tracker
 *  reports its slot then). O(1); never allocates.
 *  Errors: INVALID_ARG (s, center or half_extent NULL; a value NaN or
 *  infinite; a half extent negative; a scene created without
 *  SGRT_SCENE_BOUNDS), STALE_HANDLE. */
SGRT_NODISCARD SGRT_API sgrt_result sgrt_node_set_bounds(sgrt_scene *s, sgrt_node node, const float center[3],
                                          const float half_extent[3]);

/** Set `count` boxes as if sgrt_node_set_bounds were called for i = 0 ..
 *  count-1 in order: center and half_extent hold 3 floats per entry, packed
 *  (entry i at center + 3 * i; any alignment). All or nothing: if any entry is refused (stale handle:
 *  STALE_HANDLE; a value NaN, infinite, or a negative half extent:
 *  INVALID_ARG) nothing changes, that error is returned, and *out_bad
 *  (optional) receives the index of the first refused entry. nodes, center
 *  and half_extent may be NULL when count is 0. Two passes over the entries
 *  (check, then write); O(count); never allocates. Errors: INVALID_ARG (s
 *  NULL, arrays NULL with count > 0, a scene without SGRT_SCENE_BOUNDS;
 *  *out_bad untouched), or the refused entry's error. */
SGRT_NODISCARD SGRT_API sgrt_result sgrt_nodes_set_bounds(sgrt_scene *s, uint32_t count, const sgrt_node *nodes,
                                           const float *center, const float *half_extent,
                                           uint32_t *out_bad);

/** Take a node's box away: it becomes a pure transform again (invisible
 *  after the next update). A node without a box is left as it is. O(1);
 *  never allocates. Errors: INVALID_ARG (s NULL, a scene without
 *  SGRT_SCENE_BOUNDS), STALE_HANDLE. */
SGRT_NODISCARD SGRT_API sgrt_result sgrt_node_clear_bounds(sgrt_scene *s, sgrt_node node);

/** Read a node's local box as set (now, not as of the last update). A node
 *  without one reads center {0, 0, 0} and half extents {-1, -1, -1}.
 *  O(1). Errors: INVALID_ARG (NULL argument, a scene without
 *  SGRT_SCENE_BOUNDS), STALE_HANDLE. */
SGRT_NODISCARD SGRT_API sgrt_result sgrt_node_bounds(const sgrt_scene *s, sgrt_node node, float center[3],
                                      float half_extent[3]);

/** A node's world box as of the last update, as min and max corners. A node
 *  that had no box then reads the empty box: min {+inf, +inf, +inf}, max
 *  {-inf, -inf, -inf}. O(1). Errors: INVALID_ARG (NULL argument, a scene
 *  without SGRT_SCENE_BOUNDS), STALE_HANDLE. */
SGRT_NODISCARD SGRT_API sgrt_result sgrt_node_world_bounds(const sgrt_scene *s, sgrt_node node, float min[3],
                                            float max[3]);

/** A node's subtree box as of the last update: its world box joined with
 *  those of all its descendants (the empty box, as above, when none of them
 *  had a box). Exact: each side is the extreme of the member boxes' sides.
 *  O(1). Errors: INVALID_ARG (NULL argument, a scene without
 *  SGRT_SCENE_SUBTREE_BOUNDS), STALE_HANDLE. */
SGRT_NODISCARD SGRT_API sgrt_result sgrt_node_subtree_bounds(const sgrt_scene *s, sgrt_node node, float min[3],
                                              float max[3]);

/** The world boxes for a renderer: structure of arrays, one float per slot
 *  in each array (each 64-byte aligned), as of the last update. Slot i has
 *  a box when bit (i % 32) of valid[i / 32] is set; other entries hold
 *  unspecified values. */
typedef struct sgrt_bounds_arrays {
    const float *min[3];   /**< min x, min y, min z */
    const float *max[3];   /**< max x, max y, max z */
    const uint32_t *valid; /**< (slot_count + 31) / 32 words */
    uint32_t slot_count;   /**< as sgrt_scene_world_array's */
} sgrt_bounds_arrays;

/** Fill *out with the world box arrays. The pointers stay valid as the world
 *  array's (until the next call that may allocate; sgrt_scene_storage_version
 *  says when they moved). O(1).
 *  Errors: INVALID_ARG (s or out NULL, a scene without SGRT_SCENE_BOUNDS). */
SGRT_NODISCARD SGRT_API sgrt_result sgrt_scene_bounds_arrays(const sgrt_scene *s, sgrt_bounds_arrays *out);

/** What one sgrt_scene_cull did (all optional reading). */
typedef struct sgrt_cull_stats {
    uint32_t visible;           /**< members of the result */
    uint32_t boxes_tested;      /**< world boxes tested one by one against the planes */
    uint32_t subtrees_tested;   /**< subtree boxes tested */
    uint32_t subtrees_skipped;  /**< wholly outside: none of their boxes tested */
    uint32_t subtrees_accepted; /**< wholly inside: all taken without a test */
} sgrt_cull_stats;

/** Frustum culling into a node set: out becomes the set of live nodes that
 *  had a world box at the last update, are members of `only` (a zero
 *  handle: every node) and are not culled by the plane_count (1 to 8) planes (conventions
 *  above). out may be `only`. Boxes are tested several at a time on the
 *  scene's kernel (4, 8 or 16 lanes), 32 slots per alive word, skipping
 *  words with no candidate; every kernel level gives the same set. In a
 *  scene with SGRT_SCENE_SUBTREE_BOUNDS, the subtree box of a node stored
 *  with its subtree in one run of slots (depth-first order: a recursive
 *  loader, sgrt_scene_compact) is tested first, slot order, from the
 *  roots: wholly outside one plane, the subtree is skipped; wholly inside
 *  every plane, its nodes are taken without a test. The result is then a
 *  subset of the box-by-box one that differs from it only by boxes outside
 *  a plane in exact arithmetic. After a re-parenting that relocated
 *  storage, sgrt_node_destroy or sgrt_scene_compact, the cull goes box by
 *  box until the next update. *out_stats (optional) receives counts.
 *  Cost O(slot count / 32 + boxes tested x planes); never allocates; writes
 *  only out (see Threads).
 *  Errors: INVALID_ARG (s or planes NULL; plane_count 0 or above 8; a
 *  plane with a value NaN or infinite; out, or a non-zero only, not a live
 *  node set of s; a scene without SGRT_SCENE_BOUNDS), each leaving out
 *  unchanged. */
SGRT_NODISCARD SGRT_API sgrt_result sgrt_scene_cull(const sgrt_scene *s, const float *planes,
                                     uint32_t plane_count, sgrt_nodeset only, sgrt_nodeset out,
                                     sgrt_cull_stats *out_stats);

/** The depth range of a projection's clip space: where z lies inside the
 *  view volume. */
typedef enum sgrt_clip_depth {
    SGRT_CLIP_DEPTH_NEG_ONE_TO_ONE = 1, /**< -w <= z <= w: OpenGL, WebGL */
    SGRT_CLIP_DEPTH_ZERO_TO_ONE = 2     /**< 0 <= z <= w: Vulkan, Direct3D, Metal, WebGPU */
} sgrt_clip_depth;

/** The six frustum planes of a view-projection matrix (projection x view,
 *  column-major, as every matrix here), in the order left, right, bottom,
 *  top, near, far, each {nx, ny, nz, d} with the cull's convention (inside
 *  when nx*px + ny*py + nz*pz + d >= 0), ready for sgrt_scene_cull(s,
 *  out_planes[0], 6, ...). Gribb and Hartmann's: row 3 of the matrix plus
 *  or minus row 0, 1 or 2 (the near plane of SGRT_CLIP_DEPTH_ZERO_TO_ONE:
 *  row 2 alone), formed in double, scaled to a unit normal (so d is the
 *  signed distance of the world's zero from the plane) and rounded to float
 *  once: the same bits on every target. Any projection works: perspective
 *  or orthographic, reversed depth (its near and far planes trade places:
 *  the six are the same), a flipped y (bottom and top trade places), an
 *  infinite far plane, whose plane has no normal: such a plane, row sums
 *  with a zero normal, comes out {0, 0, 0, 1} when it holds every point
 *  (d > 0), {0, 0, 0, 0} when d is 0 (it holds every point too) and
 *  {0, 0, 0, -1} when it holds none; a d beyond float's range after scaling
 *  comes out +-FLT_MAX (every finite point, or none). In a large world
 *  (SGRT_SCENE_LARGE_WORLD) the cull's planes are relative to the scene's
 *  origin: give the view-projection of a camera-relative view, the one a
 *  renderer draws with. O(1): a few dozen double operations; never
 *  allocates; takes no scene, so a refusal reports nothing through a log
 *  (the result is all the program sees).
 *  Errors: INVALID_ARG (view_proj or out_planes NULL; depth not one of the
 *  two values above; an element of view_proj NaN or infinite), each leaving
 *  out_planes unwritten. */
SGRT_NODISCARD SGRT_API sgrt_result sgrt_frustum_planes(const float view_proj[16],
                                                        sgrt_clip_depth depth,
                                                        float out_planes[6][4]);

/* ------------------------------------------------------------------------- */
/* Large worlds                                                              */
/* ------------------------------------------------------------------------- */

/* A float holds about 7 significant digits: a node 100 km from the world's
 * zero is placed to within 8 mm, one 10^9 m away to within 64 m. In a scene
 * created with SGRT_SCENE_LARGE_WORLD:
 *   - every root has an anchor, a point in double precision (metres, or the
 *     scene's unit), and its local is relative to it: its absolute world is
 *     translate(anchor) x local;
 *   - the scene has an origin, a point in double precision, and every world
 *     the library hands out (sgrt_node_world, the world and previous-world
 *     arrays, world and subtree boxes, sgrt_scene_cull's planes) is
 *     relative to it: translate(anchor - origin) x local for a root, in
 *     float, then parent_world x local down the tree as in any scene. The
 *     update forms (anchor - origin) + t in double and rounds it to float
 *     once per root, so a root near the origin is placed to within float
 *     precision of its distance to the origin, and a node below it adds the
 *     float product's rounding at the magnitudes its chain works at (make
 *     what the camera gets close to a root, or a node near one); a
 *     renderer draws with its camera at the origin (camera-relative
 *     rendering).
 * Anchors: a new root, and a node made a root (sgrt_node_set_parent with
 * SGRT_NULL_NODE, either keep mode), is anchored at the origin of that
 * moment, so its local places it relative to the origin as a root's local
 * does in any scene; sgrt_node_set_world on a root anchors it at the origin
 * too (its world is then m bit for bit). A node that gets a parent leaves
 * its anchor behind: only roots have one. The double parts follow the
 * determinism contract (docs/porting.md): bit-identical on every target.
 * An origin move (sgrt_scene_set_origin) changes every world: the next
 * update recomputes every node, trackers report every node (with
 * SGRT_SCENE_PREV_WORLD, again at the update after, when each previous
 * world catches up, as after any recompute), and previous
 * worlds are moved into the new origin's frame: a still node's previous
 * world then matches its world to within the rounding of the old world,
 * 2.5e-7 x the largest of 400 m, its distances to the old and the new
 * origin and its reach (the lengths of the translations from its root
 * down), so motion vectors show no jump of the move itself, but a still
 * node far from the old origin shows the old frame's rounding (up to 0.16 m
 * measured 10^6 m from it; tests/test_large.c). Between the move and the
 * next update, worlds, boxes and the previous worlds are those of the last
 * update, relative to its origin, as every write takes effect at the next
 * update. */

/** Coordinates of anchors and origins are finite and within +-2^60 (about
 *  1.15e18, 120 light-years in metres); double precision there is 256. */
#define SGRT_LARGE_WORLD_LIMIT 1152921504606846976.0 /* 2^60 */

/** Anchor the root `root` at `position` (absolute, double): its local
 *  translation is relative to it from now on. A position equal to the
 *  anchor (as numbers: -0.0 equals +0.0) changes nothing, the anchor's bits
 *  included, and marks nothing; otherwise the root counts as moved, and its
 *  subtree with it. O(1); never allocates.
 *  Errors: INVALID_ARG (s or position NULL, a scene without
 *  SGRT_SCENE_LARGE_WORLD, a coordinate not finite or beyond
 *  SGRT_LARGE_WORLD_LIMIT, a node that is not a root), STALE_HANDLE. */
SGRT_NODISCARD SGRT_API sgrt_result sgrt_node_set_anchor(sgrt_scene *s, sgrt_node root,
                                                        const double position[3]);

/** The anchor of the root `root`, in out. A scene without
 *  SGRT_SCENE_LARGE_WORLD anchors every root at zero. O(1).
 *  Errors: INVALID_ARG (s or out NULL, a node that is not a root),
 *  STALE_HANDLE. */
SGRT_NODISCARD SGRT_API sgrt_result sgrt_node_anchor(const sgrt_scene *s, sgrt_node root,
                                                    double out[3]);

/** Make `origin` (absolute, double) the point worlds are relative to. The
 *  origin the scene has already (equal as numbers: -0.0 equals +0.0)
 *  changes nothing and marks nothing, so an application that
 *  snaps its origin to a grid pays only when the camera crosses a cell;
 *  another marks every node (O(capacity / 32)), and the next update
 *  recomputes all of them (an all-moved update: no writes). Never
 *  allocates.
 *  Errors: INVALID_ARG (s or origin NULL, a scene without
 *  SGRT_SCENE_LARGE_WORLD, a coordinate not finite or beyond
 *  SGRT_LARGE_WORLD_LIMIT), EXECUTOR (called while a parallel update runs
 *  its tasks). */
SGRT_NODISCARD SGRT_API sgrt_result sgrt_scene_set_origin(sgrt_scene *s, const double origin[3]);

/** The scene's origin, in out (zero in a scene without
 *  SGRT_SCENE_LARGE_WORLD). O(1). Errors: INVALID_ARG (s or out NULL). */
SGRT_NODISCARD SGRT_API sgrt_result sgrt_scene_origin(const sgrt_scene *s, double out[3]);

/** The world of `node` now, absolute and in double precision: the chain of
 *  its ancestors' locals (as floats, each a non-finite one taken as the
 *  identity as the update does) multiplied in double, under
 *  translate(anchor) for its root (zero in a scene without
 *  SGRT_SCENE_LARGE_WORLD). It reads the locals as they are now: pending
 *  writes are included, as in sgrt_node_world_now, and so is a local
 *  written in place and not committed (which sgrt_node_world_now, reading
 *  the stored world of a node nothing marked, does not see). The products are formed from the node up (left
 *  multiplication), in a fixed order without fused multiply-add:
 *  bit-identical on every target. O(d); never allocates.
 *  Errors: INVALID_ARG (s or out NULL), STALE_HANDLE. */
SGRT_NODISCARD SGRT_API sgrt_result sgrt_node_world_double(const sgrt_scene *s, sgrt_node node,
                                                          double out[16]);

/* ------------------------------------------------------------------------- */
/* Render interpolation                                                      */
/* ------------------------------------------------------------------------- */

/* A game that steps its simulation at a fixed rate (sgrt_scene_update once a
 * tick) and renders at the display's rate draws each frame between the last
 * two ticks. In a scene created with SGRT_SCENE_INTERPOLATE,
 * sgrt_scene_interpolate(s, alpha), alpha = the time since the last tick /
 * the tick length, fills the render world array:
 *
 *     render(node) = render(parent) x interp(local of the tick before,
 *                                            local of the last tick, alpha)
 *
 * down the tree from the roots; a root's "local" is its world (in a large
 * world relative to the current origin: the tick before's root world is
 * shifted into the current origin's frame, so an origin move shifts both
 * ticks). The locals are those each update used: a write after an update
 * changes nothing until the next one.
 *
 * interp(a, b, alpha): a at alpha = 0 and b at alpha = 1, both exactly;
 * between, where both are translation x rotation x positive scale (last row
 * (0, 0, 0, 1), columns orthogonal within 1e-4 of their lengths' product,
 * positive determinant), the translation and the scale are lerped and the
 * rotation is nlerped along the shortest arc (the quaternions' normalised
 * lerp, dot product made non-negative; its angle differs from slerp's by at
 * most 0.033 degree for a rotation of 30 degrees a tick, 0.27 for 60, 0.92
 * for 90, 8.1 for 180: docs/design.md);
 * otherwise (shear, negative scale, projective) the sixteen elements are
 * lerped. The product is the update's (the same code), so alpha = 1 gives
 * the world array bit for bit, and alpha = 0 the worlds of the tick before
 * (those of SGRT_SCENE_PREV_WORLD, bit for bit) for every node that existed
 * then and was not teleported.
 *
 * Only what moved is visited: a node whose world the last update recomputed
 * is computed at each interpolate; one that the last update left alone has
 * render world = world with no work per node (whole words of such slots are
 * skipped), and a node that stops moving gets its resting render world (a
 * copy of its world) once. Before the first interpolate the render world of
 * every node is its world; a node created since the last interpolate has
 * its world until the update after its creation, then starts where it is
 * (no motion from anywhere).
 *
 * No streaks: sgrt_node_teleport makes the node's move in this tick a jump
 * (from its place of the last tick straight to where the next update puts
 * it); a keep-world re-parent (SGRT_KEEP_WORLD) carries the local of the
 * last tick into the new parent's frame (inverse(world of the new parent) x
 * world of the node, both of the last tick), so the render world does not
 * jump; a keep-local re-parent interpolates the local under the new parent,
 * as its world does.
 *
 * Upload ranges: sgrt_scene_render_collect reports the slots whose render
 * world changed since the last collect, the way sgrt_tracker_collect
 * reports worlds, so a copy kept through it equals the render array after
 * every interpolate. Slots a node moved into (re-parent relocation, hole
 * reclamation, sgrt_scene_compact) are reported, and sgrt_scene_restore
 * reports every live slot. */

/** Fill the render world array for a frame alpha of the way from the tick
 *  before to the last tick (0 <= alpha <= 1; see above). Cost: O(nodes the
 *  last update recomputed + nodes that stopped moving + capacity / 1024);
 *  never allocates. Errors: INVALID_ARG (s NULL, a scene without
 *  SGRT_SCENE_INTERPOLATE, alpha outside [0, 1] or NaN: nothing changes),
 *  EXECUTOR (called while a parallel update runs its tasks). */
SGRT_NODISCARD SGRT_API sgrt_result sgrt_scene_interpolate(sgrt_scene *s, float alpha);

/** sgrt_scene_interpolate on the executor's threads, under
 *  sgrt_scene_update_parallel's contract (its ranges: the ancestors of nodes
 *  stored in a later range than their parent first, on the calling thread,
 *  then one task per range): the same render worlds, bit for bit, whatever
 *  the executor and its number of workers. An executor it cannot use (NULL
 *  ex, a NULL run, 0 workers) gives the serial interpolate with a warning
 *  through the log, as the parallel update does. Errors: those of
 *  sgrt_scene_interpolate. */
SGRT_NODISCARD SGRT_API sgrt_result sgrt_scene_interpolate_parallel(sgrt_scene *s, float alpha,
                                                                   const sgrt_executor *ex);

/** The render worlds as one array of 16 floats per slot, laid out as the
 *  world array (column-major, 64-byte aligned, entries of dead slots
 *  unspecified); *out_slots (optional) receives the slot count. The pointer
 *  stays valid as sgrt_scene_world_array's does (sgrt_scene_storage_version).
 *  O(1). NULL (and a count of 0) for a NULL scene or one without
 *  SGRT_SCENE_INTERPOLATE (reported through the log). */
SGRT_API const float *sgrt_scene_render_world_array(const sgrt_scene *s, uint32_t *out_slots);

/** The render world of `n` as of the last sgrt_scene_interpolate (its world
 *  before the first), in out. O(1). Errors: INVALID_ARG (s or out NULL, a
 *  scene without SGRT_SCENE_INTERPOLATE), STALE_HANDLE. */
SGRT_NODISCARD SGRT_API sgrt_result sgrt_node_render_world(const sgrt_scene *s, sgrt_node n,
                                                          float out[16]);

/** Make n's move in this tick a jump: after the next update, interpolation
 *  shows n (its local; its children follow) where that update put it at
 *  every alpha. Called before or after n's write in the tick; it lapses at
 *  the update. O(1); never allocates. Errors: INVALID_ARG (s NULL, a scene
 *  without SGRT_SCENE_INTERPOLATE), STALE_HANDLE, EXECUTOR. */
SGRT_NODISCARD SGRT_API sgrt_result sgrt_node_teleport(sgrt_scene *s, sgrt_node n);

/** Write the slots whose render world changed since the last call to `out`
 *  as ranges, as sgrt_tracker_collect does (merge_gap, the drain loop with
 *  *out_more, max_ranges = 0 to ask whether anything is pending), and
 *  forget what it wrote. The first call reports every live slot. Cost
 *  O(pending words + capacity / 1024); never allocates. Errors:
 *  INVALID_ARG (s NULL, a scene without SGRT_SCENE_INTERPOLATE, out_count
 *  or out_more NULL, out NULL with max_ranges > 0: 0 and false written,
 *  nothing forgotten), EXECUTOR. */
SGRT_NODISCARD SGRT_API sgrt_result sgrt_scene_render_collect(sgrt_scene *s, sgrt_range *out,
                                                             uint32_t max_ranges,
                                                             uint32_t merge_gap,
                                                             uint32_t *out_count,
                                                             bool *out_more);

/* ------------------------------------------------------------------------- */
/* Queries and diagnostics                                                   */
/* ------------------------------------------------------------------------- */

/** Verify every internal invariant (slot order, link symmetry, dirty closure,
 *  bitfield padding and summaries, handle table, counts, previous worlds
 *  where kept, node sets, the object table and the trackers, node sets,
 *  writers and skins it names, which nodes each skin's joints and mesh
 *  are) except the trackers' and skins' pending bits, which collects may
 *  be writing meanwhile: sgrt_tracker_check verifies a tracker's.
 *  O(capacity + joints).
 *  Returns SGRT_OK or SGRT_ERR_CORRUPT; *out_what (optional) receives a static
 *  string naming the first broken invariant, or NULL. INVALID_ARG for NULL s. */
SGRT_NODISCARD SGRT_API sgrt_result sgrt_scene_check(const sgrt_scene *s, const char **out_what);

/** Verify one tracker of `s`: it covers the scene's capacity and its
 *  summary is exact (bit w set iff word w of its pending bits is non-zero).
 *  Must not overlap a collect of that same tracker. O(capacity/32).
 *  Returns SGRT_OK or SGRT_ERR_CORRUPT (*out_what as for sgrt_scene_check);
 *  INVALID_ARG for NULL s, or t not a live tracker of s. */
SGRT_NODISCARD SGRT_API sgrt_result sgrt_tracker_check(const sgrt_scene *s, sgrt_tracker t,
                                        const char **out_what);

/** A 64-bit hash of the scene's state, the same on every target, kernel
 *  level and worker count for the same program: for peers in lockstep or
 *  rollback netcode to compare once a tick (after the update) and find a
 *  desync. It covers every live node (in slot order): its slot, its
 *  handle's index and generation (counted from the index's first, not the
 *  scrambled id, which differs between scenes), its parent's and next
 *  sibling's slots, its local and its world as float bits with every NaN
 *  taken as one (NaN payloads differ between targets); in a large world
 *  each root's anchor and the origin. Not in it: pending marks (the next
 *  update makes two scenes that differ only there equal), user values
 *  (they may hold pointers), objects (trackers, node sets, writers) and
 *  the kept state of SGRT_SCENE_PREV_WORLD and bounds, which follow from
 *  the rest. A 32-bit ARM target whose NEON kernel flushes denormals
 *  (sgrt_simd_name "neon" there) hashes alike wherever no world passes
 *  through the denormal range. XXH3 (xxHash) over a canonical
 *  little-endian record of 148 bytes per node, 172 for a large world's
 *  root. Cost O(n + slot count / 32), a read of the locals and worlds;
 *  never allocates. 0 for a NULL scene, and for a busy one (called from
 *  a task of sgrt_scene_update_parallel: reported through the log). */
SGRT_API uint64_t sgrt_scene_hash(const sgrt_scene *s);

/* ------------------------------------------------------------------------- */
/* Snapshots: rollback, replays, saved scenes                                */
/* ------------------------------------------------------------------------- */

/* A snapshot is a scene's state in a buffer the program owns: everything
 * that decides what the scene does next. The live nodes with their
 * handles (index and generation), the handle table's reuse order (nodes
 * created after a restore get the handles they got the first time), the
 * hierarchy and sibling order, the slots, locals, worlds, pending marks
 * (what the next update will recompute), user values, what the last update
 * left for sgrt_scene_nonfinite_locals, and what the scene's flags keep:
 * previous worlds, local, world and subtree boxes, anchors and the origin.
 *
 * Not in it: the objects (trackers, node sets, writers), the allocator, the
 * log, the kernel level, the capacity, and the counters of this scene's
 * pointers (sgrt_scene_storage_version). Objects stay true across a
 * restore: a tracker gets exactly the slots whose node, world or liveness
 * the restore changed (and, where the flags keep them, whose previous
 * world or world box changed) added to what it had pending, so a GPU
 * mirror kept by collecting stays exact; a node set drops its members
 * whose slot holds no live node (membership is by slot, as the snapshot
 * restores slots: a slot that holds another node after the restore stays
 * a member); a writer resolves its nodes again at its next call, which
 * refuses with STALE_HANDLE while an entry's node is not alive (a node
 * created after the snapshot) and works again once it is, and a writer
 * that had begun writing in place must begin again before it commits.
 *
 * The format is versioned, little-endian and the same on every target for
 * the same scene: a snapshot taken on AArch64 restores on x86 or s390x and
 * continues bit for bit. Its bytes do not depend on the scene's address or
 * its handle scramble (handles are kept as index and generation). It starts
 * with a 64-byte header that holds a checksum (XXH3-64) of the rest. A buffer
 * that is truncated, corrupted, of another format version, of a library
 * whose scene state has another layout, or forged (its checksum right, its
 * contents not a scene: links out of range, a handle twice, a cycle, a
 * world box that is not its world's, ...) is refused with
 * SGRT_ERR_SNAPSHOT and one log entry saying what is wrong, and nothing
 * changes: every part is checked before the first byte of the scene is
 * written. Size: about 156 bytes per slot in use (locals and worlds are
 * 128 of them), 64 more with SGRT_SCENE_PREV_WORLD, 48 with
 * SGRT_SCENE_BOUNDS, 36 more with SGRT_SCENE_SUBTREE_BOUNDS, 24 with
 * SGRT_SCENE_LARGE_WORLD, 289 with SGRT_SCENE_INTERPOLATE (the two ticks'
 * locals and their parts, the render worlds and 7 bits), plus a byte per
 * handle index ever handed out and
 * 4 per free one. */

/** The bytes sgrt_scene_snapshot writes for `s` as it is now, in
 *  *out_bytes (0 on failure). O(1); never allocates.
 *  Errors: INVALID_ARG (s or out_bytes NULL), EXECUTOR (called while
 *  sgrt_scene_update_parallel runs its tasks), NOMEM (the snapshot does not
 *  fit in size_t: a 32-bit target near the slot limit). */
SGRT_NODISCARD SGRT_API sgrt_result sgrt_scene_snapshot_size(const sgrt_scene *s, size_t *out_bytes);

/** Write a snapshot of `s` into buf (size bytes, the caller's; any
 *  alignment), and its length in *out_written (optional; 0 on failure,
 *  except when size is too small: then the size needed). The scene is only
 *  read. O(slot count + handle indices): a copy of the per-slot arrays and
 *  one checksum pass over what it wrote (about 1.5 times a memcpy of the
 *  same bytes, docs/performance.md); never allocates.
 *  Errors: INVALID_ARG (s or buf NULL; size below sgrt_scene_snapshot_size:
 *  nothing written), EXECUTOR, NOMEM (as sgrt_scene_snapshot_size). */
SGRT_NODISCARD SGRT_API sgrt_result sgrt_scene_snapshot(const sgrt_scene *s, void *buf, size_t size,
                                         size_t *out_written);

/** Put the state of the snapshot in buf (size bytes: at least the
 *  snapshot's length; more is ignored) back into `s`, which must have the
 *  same SGRT_SCENE_* flags as the scene it was taken from. Into the scene
 *  it came from, every call then gives what it gave when the snapshot was
 *  taken, byte for byte (handles, slots, worlds, counts, update counts,
 *  reads), and replaying the same calls gives the same results, the
 *  handles of nodes created since included; handles of nodes created after
 *  the snapshot are stale afterwards (until a replay creates them again).
 *  Into another scene of the same flags (another process, another target)
 *  it is the same scene with that scene's handle scramble: the same index
 *  and generation in each handle, other ids. Objects: see above. Pointers:
 *  those sgrt_scene_storage_version covers stay valid unless the scene had
 *  to grow (then that version changes).
 *  Cost O(slot count + handle indices): one checksum pass over buf, the
 *  checks, a comparison of each world to report changes, and a copy of the
 *  arrays (docs/performance.md: about 2 to 2.5 times a memcpy of the same
 *  bytes). Allocates nothing when the scene has room for the snapshot's
 *  slots and handle indices (a scene that took it, or held as many: a
 *  rollback every frame) and its capacity is at least 1/64 of those
 *  indices; else grows first, and a growth that fails changes nothing.
 *  Errors: INVALID_ARG (s or buf NULL), SNAPSHOT (truncated, corrupted,
 *  another version or layout, other flags, forged: the log says which),
 *  CAPACITY (more nodes than the scene's max_nodes), NOMEM, EXECUTOR. On
 *  error the scene is unchanged. */
SGRT_NODISCARD SGRT_API sgrt_result sgrt_scene_restore(sgrt_scene *s, const void *buf, size_t size);

/** Create a scene from the snapshot in buf (size bytes): the same nodes in
 *  the same slots, the same state, with a handle scramble of its own (each
 *  handle has the index and generation it had, not its id: name nodes
 *  across a load by slot, sgrt_scene_slot_node, or by user value). Its
 *  flags are the snapshot's: desc->flags must be 0 or the same flags;
 *  everything else comes from desc (NULL: defaults), the allocator and log
 *  included. Nothing is allocated for a buffer whose header is not a whole
 *  snapshot, and what is allocated is in proportion to size. Allocates;
 *  O(slot count + handle indices).
 *  Errors: INVALID_ARG (out or buf NULL, desc->flags other than 0 or the
 *  snapshot's, a desc sgrt_scene_create refuses), SNAPSHOT, CAPACITY
 *  (more nodes than desc->max_nodes), NOMEM. On error *out is untouched and
 *  nothing stays allocated. */
SGRT_NODISCARD SGRT_API sgrt_result sgrt_scene_load(const sgrt_scene_desc *desc, const void *buf, size_t size,
                                     sgrt_scene **out);

/** What sgrt_scene_dump writes. */
typedef enum sgrt_dump_format {
    SGRT_DUMP_DOT = 0, /**< Graphviz: one box per live node, one edge per parent link */
    SGRT_DUMP_JSON = 1 /**< one JSON object, the nodes as an array */
} sgrt_dump_format;

/** Receives the dump piece by piece: `len` bytes (not NUL-terminated, len >
 *  0) to append. Returns 0 to go on, non-zero to stop the dump. */
typedef int (*sgrt_dump_write_fn)(void *user, const char *bytes, size_t len);

/** Write the hierarchy for debugging, through `write_fn`, in chunks of at most
 *  1 KiB: every live node, parents before children (each root, in slot
 *  order, followed by its subtree depth-first), with its handle id, slot,
 *  parent's handle id (0 for a root), user value, whether the next update
 *  will recompute its world (moved, created, re-parented or below one of
 *  those: "dirty"), and the translation of its local, of its world as of
 *  the last update and, in a scene with SGRT_SCENE_PREV_WORLD, of its
 *  previous world. Floats are written with 9 significant digits, as
 *  printf's "%.9g" (e.g. 1.5, -0, 3.40282347e+38), so they read back to
 *  the same bits; an entry that is not finite (an overflowed world) is
 *  written as null in JSON and as inf, -inf or nan in DOT.
 *
 *  JSON: {"format":"sgrt-dump","version":1,"node_count":N,"slot_count":S,
 *  "prev_world":false,"nodes":[{"id":I,"slot":S,"parent":P,"dirty":false,
 *  "user":U,"local_t":[x,y,z],"world_t":[x,y,z]},...]} ("prev_t":[x,y,z]
 *  follows world_t with SGRT_SCENE_PREV_WORLD). user is an unsigned 64-bit
 *  integer: above 2^53 a reader needs 64-bit integers to keep it exact.
 *  DOT: `digraph sgrt {`, then per node a line `  n<id> [label="..."];`
 *  (dirty nodes drawn red) and, unless it is a root, a line
 *  `  n<parent> -> n<id>;`, then `}`.
 *
 *  Cost O(n + slot count / 32), plus the writer's; never allocates (a 1 KiB
 *  buffer on the stack). Errors: INVALID_ARG (s or write_fn NULL, unknown
 *  format; nothing written), WRITE (write_fn returned non-zero: it is not
 *  called again and the output is cut short). */
SGRT_NODISCARD SGRT_API sgrt_result sgrt_scene_dump(const sgrt_scene *s, sgrt_dump_write_fn write_fn,
                                     void *user, sgrt_dump_format format);

/** Name of the kernel a scene created with default options uses on this
 *  CPU: exactly one of "scalar", "sse2", "neon", "simde-portable" (SIMDe's
 *  plain C, on targets without a native 4-wide ISA), "avx", "avx512". The
 *  choice takes the widest level that the build has and the CPU runs; where
 *  a CPU property makes a kernel slower than the level below (AMD family
 *  19h runs AVX-512 as two 256-bit halves), that kernel is left out and the
 *  one below runs ("avx"). A -Dsimd=scalar build gives "scalar". Static
 *  string; O(1) (the CPU is asked once per process, with a few cpuid
 *  instructions, and its answer kept). */
SGRT_API const char *sgrt_simd_name(void);

/** One phrase saying why sgrt_simd_name() is what it is (CPU features, a
 *  CPU property that leaves a kernel out, the build option). Static string. */
SGRT_API const char *sgrt_simd_reason(void);

/** Name of the kernel `s` runs (one of the names of sgrt_simd_name), after
 *  its desc's max_simd. NULL for a NULL scene. O(1). */
SGRT_API const char *sgrt_scene_simd_name(const sgrt_scene *s);

#ifdef __cplusplus
}
#endif

#endif /* SGRT_H */
