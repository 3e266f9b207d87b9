/* SPDX-License-Identifier: MIT */
/* The scene's layout, which every file of src/ (and the white-box tests)
 * shares; nothing here is public API. What a file offers the others is in
 * its own header, included where it is used (dav1d's way): the #include
 * lines of a file say what it uses.
 *
 * The core (src/), each file with its header where others use it:
 *   alloc        allocation through the user's hooks
 *   storage      the per-slot arrays (the core's list, SGRT__SLOT_ARRAYS,
 *                and the fields each follower declares), their growth,
 *                slot occupancy, the one move of a node to another slot,
 *                reclamation and compaction
 *   handles      the handle table: ids, generations, resolution
 *   objects      the object table: tracker, node set, writer and skin handles
 *   args.h       the argument prologues: a node, an object, or a refusal
 *   dirty        dirty bits, their summary and closure over descendants
 *   walk.h       pre-order walks over the links
 *   hierarchy.c  nodes and links: create, destroy, re-parent, relocation
 *   transform.c  writing and reading one node's local and world matrices
 *   write        the write path of batches and writers (check, store)
 *   nodes.c      handle batches
 *   update       the per-frame update     parallel.c  on the user's executor
 *   world_now    the exact world of one node now
 *   validate     validation mode's checks
 *   follow       the seam: what the core announces to its followers
 *   followers.c  the list of followers, the one file that names them
 *   matrix       inverse, finiteness      result  the log, sgrt_result_str
 *   scene        scene lifecycle and kernel choice
 *   version.c    the library's version at run time
 *   access.c     the renderer's view: world array, slots, user values
 *   hash.c       sgrt_scene_hash          frustum.c  sgrt_frustum_planes
 *   trs_matrices sgrt_trs_to_matrices, and the kernel it keeps
 *   kernels/     the per-frame arithmetic, per ISA (kernels/kernels.h)
 * The followers (src/followers/): the state that follows storage for the
 * programs that read the scene, kept in step through follow.h. Each
 * owns its state: its scene-level fields and its per-slot arrays and
 * bitfields are declared in its own file (follow.h: sgrt__slot_decl), and
 * nothing of them is in this file:
 *   slotbits     the bitfields over slots that trackers and node sets share
 *   tracker      change trackers          nodeset  node sets
 *   prev         previous worlds (SGRT_SCENE_PREV_WORLD)
 *   bounds       local, world and subtree boxes kept by the update
 *                (SGRT_SCENE_BOUNDS, SGRT_SCENE_SUBTREE_BOUNDS); bounds_api.c
 *                their public calls       cull.c  frustum culling
 *   large        large worlds: anchors and the origin (SGRT_SCENE_LARGE_WORLD)
 *   writer       writers: a system's nodes resolved once, written each frame
 *   skin         skinning palettes kept by the update; skin_index the per-slot
 *                index of joints and meshes, skin_api the public calls
 * Debugging (src/debug/):
 *   check.c      the invariant checker    dump  sgrt_scene_dump (DOT, JSON) */
#ifndef SGRT_INTERNAL_H
#define SGRT_INTERNAL_H

#include "sgrt.h"
#include "bits.h"
#include "kernels/kernels.h"

#define SGRT__INDEX_BITS 24u
#define SGRT__INDEX_MASK ((1u << SGRT__INDEX_BITS) - 1u)
#define SGRT__GEN_PERIOD 255u           /* generations 0..254, encoded 1..255 */
#define SGRT__MIN_FREE_HANDLES 1024u    /* indices are reused only past this many free */
_Static_assert(SGRT_MAX_NODES + SGRT__MIN_FREE_HANDLES == SGRT__INDEX_MASK + 1u,
               "SGRT_MAX_NODES keeps the FIFO reserve of free handle indices");
#define SGRT__MAX_SLOTS (1u << 25)      /* slot storage limit (holes included) */
#define SGRT__DEFAULT_CAPACITY 64u
#define SGRT__HOLE_SLACK 1024u          /* dead slots tolerated beyond the live count */
#define SGRT__MAX_RANGES 256u           /* parallel update: most tasks per update */
#define SGRT__SLOTS_PER_SUM 1024u       /* slots one summary word covers: 32 words of 32 */
#define SGRT__FOLLOWERS 10u             /* most followers a scene attaches (follow.h) */
#define SGRT__FOLLOW_SLOTS 48u          /* most per-slot fields they declare together */

typedef float sgrt__mat4[16];

/* Every per-slot array, once: X(name, element type, kind). LINK arrays hold
 * slots (or SGRT__NONE) and are remapped when slots move; DATA arrays are
 * copied. Storage layout, growth, relocation and compaction all expand this
 * list, so an array added here is carried everywhere. */
#define SGRT__SLOT_ARRAYS(X)                                                           \
    X(local, sgrt__mat4, DATA)        /* 64-byte aligned: one matrix per cache line */ \
    X(world, sgrt__mat4, DATA)                                                         \
    X(user, uint64_t, DATA)           /* user value that travels with the node */      \
    X(slot_handle, uint32_t, DATA)    /* handle index of the node in this slot */      \
    X(parent, uint32_t, LINK)         /* SGRT__NONE for roots */                       \
    X(first_child, uint32_t, LINK)                                                     \
    X(next_sibling, uint32_t, LINK)                                                    \
    X(prev_sibling, uint32_t, LINK)

/* Per-word bitfields: bit (i % 32) of word (i / 32) is slot i. */
#define SGRT__SLOT_BITFIELDS(X)                                                        \
    X(alive)                                                                           \
    X(dirty)                                                                           \
    X(inner) /* the slot has a child: a write to a leaf marks one bit */

/* Bitfields of the parallel update's plan (parallel.c): not carried across
 * a reallocation (a new block starts them at zero, and the plan is rebuilt).
 * cross: the slot is an ancestor of a node in a later range (updated first,
 * alone); pdirty: which of those were dirty this update; work: the same,
 * consumed by the kernel, with its summary work_sum. */
#define SGRT__PLAN_BITFIELDS(X)                                                        \
    X(cross)                                                                           \
    X(pdirty)                                                                          \
    X(work)

/* The width in bytes of the scalars an element of `type` is made of: the
 * unit a snapshot writes little-endian (snapshot.c), so that its bytes are
 * the same on a big-endian target. The types listed are each made of
 * scalars of one width; any other gives 0, which tests/test_follow.c
 * refuses for every declared field (declare such a type with
 * SGRT__DECL_ARRAY_OF, follow.h, naming its scalar). */
#define SGRT__SCALAR_WIDTH(type)                                                       \
    _Generic((type *)0,                                                                \
        bool *: 1u, uint8_t *: 1u, int8_t *: 1u, uint16_t *: 2u, int16_t *: 2u,        \
        uint32_t *: 4u, int32_t *: 4u, float *: 4u, float(*)[3]: 4u, float(*)[4]: 4u,   \
        float(*)[12]: 4u, float(*)[16]: 4u, uint64_t *: 8u, int64_t *: 8u, double *: 8u, \
        double(*)[3]: 8u, double(*)[16]: 8u, default: 0u)

#define SGRT__DECLARE_ARRAY(name, type, kind) type *name;
#define SGRT__DECLARE_BITFIELD(name) uint32_t *name;

/* The slot storage: every per-slot array in one allocation. */
typedef struct sgrt__storage {
    void *block;
    size_t size;
    uint32_t cap;       /* slots allocated, a multiple of 32 */
    uint32_t words;     /* cap / 32 */
    uint32_t sum_words; /* ceil(words / 32) */
    SGRT__SLOT_ARRAYS(SGRT__DECLARE_ARRAY)
    SGRT__SLOT_BITFIELDS(SGRT__DECLARE_BITFIELD)
    SGRT__PLAN_BITFIELDS(SGRT__DECLARE_BITFIELD)
    /* The followers' per-slot state, one entry per declaration the scene
     * gathered (follow.h: sgrt_scene.decl), laid out after the core's;
     * fol_sum: a bitfield's summary. */
    void *fol[SGRT__FOLLOW_SLOTS];
    uint32_t *fol_sum[SGRT__FOLLOW_SLOTS];
    uint32_t *work_sum;   /* bit w set iff work[w] != 0 */
    uint32_t *cross_sum;  /* bit w set iff cross[w] != 0 */
    uint32_t *alive_full; /* bit w set iff alive[w] == ~0u */
    uint32_t *dirty_sum;  /* bit w set iff dirty[w] != 0 */
    uint32_t *scratch;    /* 2 x cap entries: the slot maps of relocation,
                             reclamation and compaction, and the slots a
                             batch write resolves between its two passes */
} sgrt__storage;

/* Every SGRT_SCENE_* option (sgrt_scene_create refuses other bits). */
#define SGRT__SCENE_FLAGS                                                              \
    ((uint32_t)SGRT_SCENE_PREV_WORLD | (uint32_t)SGRT_SCENE_BOUNDS |                   \
     (uint32_t)SGRT_SCENE_SUBTREE_BOUNDS | (uint32_t)SGRT_SCENE_VALIDATE |                \
     (uint32_t)SGRT_SCENE_LARGE_WORLD | (uint32_t)SGRT_SCENE_INTERPOLATE)
/* Whether s runs in validation mode: the one test its checks cost when off. */
#define SGRT__VALIDATING(s) (((s)->flags & (uint32_t)SGRT_SCENE_VALIDATE) != 0u)

/* Object handles (objects.c): trackers, node sets, writers and skins are
 * named by ids into the scene's object table, as nodes are by ids into the
 * handle table. Bits 0..15: table index; bits 16..18: kind (SGRT__KIND_*,
 * never 0), both XORed with the scene's obj_salt; bits 19..31: generation
 * field, 1..SGRT__OBJ_GEN_PERIOD, offset per scene. */
#define SGRT__OBJ_INDEX_BITS 16u
#define SGRT__OBJ_INDEX_MASK ((1u << SGRT__OBJ_INDEX_BITS) - 1u)
#define SGRT__OBJ_KIND_SHIFT 16u
#define SGRT__OBJ_KIND_MASK 7u      /* after the shift: 3 bits, kinds 1..7 */
#define SGRT__OBJ_GEN_SHIFT 19u
#define SGRT__OBJ_GEN_PERIOD 8191u  /* generations 0..8190, encoded 1..8191 */
#define SGRT__OBJ_MIN_FREE 256u     /* indices are reused only past this many free */
_Static_assert(SGRT_MAX_OBJECTS + SGRT__OBJ_MIN_FREE == SGRT__OBJ_INDEX_MASK + 1u,
               "SGRT_MAX_OBJECTS keeps the FIFO reserve of free object indices");

/* What an object is: part of its id, so that a handle of one kind is never
 * taken for another (a tracker never freed as a node set, or read as one). */
enum {
    SGRT__KIND_TRACKER = 1,
    SGRT__KIND_NODESET = 2,
    SGRT__KIND_WRITER = 3,
    SGRT__KIND_SKIN = 4
};

/* One object-table entry. `id` is the id of the index's current object
 * (while the index is free: of its next generation, with kind 0, which no
 * handle carries); `ptr` is the object, NULL while free; `next_free` links
 * the free indices first-in first-out. */
typedef struct sgrt__object {
    uint32_t id;
    uint32_t next_free;
    void *ptr;
} sgrt__object;

/* A writer (writer.c keeps its layout). */
typedef struct sgrt__writer sgrt__writer;

/* One handle-table entry: resolving a handle reads one 8-byte entry. `id` is
 * the handle of the index's current generation (while the index is free:
 * of the next one); `slot` is SGRT__NONE while it is free. */
typedef struct sgrt__handle {
    uint32_t id;
    uint32_t slot;
} sgrt__handle;

struct sgrt_scene {
    sgrt_allocator alloc;
    sgrt_log_fn log; /* sgrt_scene_desc.log, log_user */
    void *log_user;
    uint32_t flags; /* sgrt_scene_desc.flags */
    uint32_t max_nodes;
    uint32_t node_count;
    uint32_t slot_end; /* one past the highest live slot */
    uint32_t holes;    /* dead slots below slot_end */
    uint32_t cap_floor; /* capacity compaction keeps: initial_capacity, reserve */
    uint32_t hole_slack; /* SGRT__HOLE_SLACK; tests lower it to reclaim often */
    uint32_t slot_limit; /* SGRT__MAX_SLOTS; tests lower it to reach the re-parent's
                            closing of holes near the limit */
    uint32_t reclaims;   /* hole reclamations run (white-box tests) */
    /* Lowest slot of a dirty node whose descendants may not be marked yet
     * (SGRT__NONE: none): the closure pass starts after it. Every live node
     * below a dirty node is dirty or lies after close_from. */
    uint32_t close_from;
    uint32_t pending_inner; /* moved nodes with children since the last closure */
    /* The non-finite locals (written in place) the last update made the
     * identity: how many, the lowest slot among them, and its node. */
    uint32_t repaired[2];
    sgrt_node repaired_first;
    /* Bumped whenever a node moves to another slot or is destroyed: a
     * writer's cached slots are current while it holds the same value. */
    uint64_t slots_version;

    sgrt__storage st;

    /* handle table (indirection: slots move, handles do not) */
    uint32_t handle_cap;
    uint32_t handle_used;   /* indices ever handed out */
    sgrt__handle *handles;  /* per index: its current id and the slot it names */
    uint32_t *free_ring;    /* FIFO of free indices (handle_cap entries) */
    uint32_t free_head, free_count;
    uint32_t salt;          /* per-scene scramble of ids: foreign handles fail */

    /* The followers the scene's flags ask for (follow.h), attached at
     * creation, and each one's state (in this allocation, after the
     * struct: `size` bytes in all). */
    const struct sgrt__follower *follow[SGRT__FOLLOWERS];
    void *state[SGRT__FOLLOWERS];
    uint32_t follow_count;
    size_t size;
    /* Their per-slot declarations, in attach order (storage lays them out
     * as st.fol[k]), and the state each one's pointer lives in. */
    const struct sgrt__slot_decl *decl[SGRT__FOLLOW_SLOTS];
    void *decl_state[SGRT__FOLLOW_SLOTS];
    uint32_t decl_count;
    /* The hooks called per word, gathered at attach so that a call is one
     * indirect jump per follower that has the hook (follow.h), with its
     * state. */
    void (*on_changed[SGRT__FOLLOWERS])(struct sgrt_scene *s, void *self, uint32_t w,
                                        uint32_t bits);
    void (*on_word[SGRT__FOLLOWERS])(struct sgrt_scene *s, void *self, uint32_t w, uint32_t d,
                                     uint32_t mask);
    void (*on_after[SGRT__FOLLOWERS])(void *self, uint32_t w, uint32_t done);
    void *on_changed_self[SGRT__FOLLOWERS], *on_word_self[SGRT__FOLLOWERS];
    void *on_after_self[SGRT__FOLLOWERS];
    uint32_t on_changed_count, on_word_count, on_after_count;

    /* object table (objects.c): what tracker, node set and writer handles
     * name; resolving one reads only this table */
    sgrt__object *objs;
    uint32_t obj_cap;
    uint32_t obj_used; /* indices ever handed out */
    uint32_t obj_live; /* objects alive */
    uint32_t obj_free_head, obj_free_tail, obj_free_count; /* FIFO through next_free */
    uint32_t obj_salt;  /* low 19 bits: XORed into ids' index and kind */
    uint32_t obj_first; /* generation field of a new index's first object */
    uint32_t obj_reserve; /* SGRT__OBJ_MIN_FREE; tests lower it to reuse indices at once */
    sgrt__kernels k;

    /* The parallel update's plan (parallel.c): contiguous slot ranges, cut at
     * summary-word boundaries (1,024 slots), one task each. */
    /* Bumped by every change of links or slots. 64 bits: a plan keyed on a
     * 32-bit count would be taken for current again after 2^32 changes. */
    uint64_t structure_version; /* starts at 1 */
    /* sgrt_scene_storage_version: bumped by each new storage block. */
    uint64_t storage_version;
    uint64_t plan_version;      /* structure_version the plan was built for; 0: none */
    uint32_t plan_wanted;       /* the range count it was built for */
    uint32_t plan_ranges;
    uint32_t range_sum[SGRT__MAX_RANGES + 1]; /* range r: summary words [range_sum[r], [r+1]) */
    uint32_t range_count[SGRT__MAX_RANGES];   /* worlds each range recomputed this update */
    uint32_t range_repaired[SGRT__MAX_RANGES][2]; /* each range's non-finite locals */
    uint32_t tasks[SGRT__MAX_RANGES];         /* ranges with work this update */
    /* The executor's contract, checked after run (parallel.c): per task
     * index, 0 not run, 1 run, 2 run again; an index past task_count. */
    uint8_t task_runs[SGRT__MAX_RANGES];
    uint32_t task_count;
    uint32_t task_stray;
    /* What a task does with its range (sgrt__run_ranges' caller's). */
    void (*task_range)(sgrt_scene *s, uint32_t r);
    /* Non-zero while run is in progress: calls into the scene are refused
     * (SGRT_ERR_EXECUTOR). */
    uint32_t busy;
};

#endif
