/* SPDX-License-Identifier: MIT */
/* The scene's layout and the internal interface between the files of src/
 * (and white-box tests). Nothing here is public API. Declarations are grouped
 * by the file that defines them; each file's first comment says what it owns.
 *
 * The core (src/):
 *   alloc.c      allocation through the user's hooks
 *   storage.c    the per-slot arrays (one list: SGRT__SLOT_ARRAYS), their
 *                growth, slot occupancy and compaction
 *   handles.c    the handle table: ids, generations, resolution
 *   objects.c    the object table: tracker, node set and writer handles
 *   dirty.c      dirty bits, their summary and closure over descendants
 *   hierarchy.c  nodes and links: create, destroy, re-parent, relocation
 *   transform.c  writing and reading local and world matrices
 *   update.c     the per-frame update
 *   world_now.c  the exact world of one node now
 *   parallel.c   the update on the user's executor: plan and tasks
 *   matrix.c     inverse, finiteness        result.c  sgrt_result_str
 *   scene.c      scene lifecycle and kernel choice
 *   version.c    the library's version at run time
 *   trs_matrices.c  sgrt_trs_to_matrices, and the kernel it keeps
 *   kernels/     the per-frame arithmetic, per ISA (kernels/kernels.h)
 * The renderer hand-off (src/handoff/): what consumers read, and the state
 * that follows storage for them:
 *   access.c     the renderer's view: world array, slots, user values
 *   registry.c   slot bitfields that follow storage (trackers, node sets)
 *   tracker.c    change trackers        nodeset.c  node sets
 *   prev.c       previous worlds (SGRT_SCENE_PREV_WORLD)
 *   bounds.c     local, world and subtree boxes (SGRT_SCENE_BOUNDS,
 *                SGRT_SCENE_SUBTREE_BOUNDS)     cull.c  frustum culling
 * Debugging (src/debug/):
 *   check.c      the invariant checker  dump.c  sgrt_scene_dump (DOT, JSON) */
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

/* A node's subtree box and the bookkeeping of its maintenance (bounds.c):
 * the box as min / max corners (empty: min +inf, max -inf), one past the
 * highest slot of the subtree at the last pass (never below it: it may be
 * higher), and the number of nodes in the subtree then. */
typedef struct sgrt__subtree {
    float lo[3], hi[3];
    uint32_t end, count;
} sgrt__subtree;

/* Per-slot state a scene keeps only when its desc asks for it, X(name, ...,
 * flag) kept only with `flag` among the scene's flags (prev.c and bounds.c
 * say what they hold): otherwise these pointers are NULL and take no memory.
 * When present they are laid out, grown, relocated and compacted with the
 * lists above: copy_slot copies the arrays by their kind, and each
 * bitfield's bit with it, keeping the bitfield's summary exact (name_sum:
 * bit w set iff name[w] != 0). Bits of dead slots may stay set; their
 * readers mask them with alive, and a new node clears its own. */
#define SGRT__OPTIONAL_SLOT_ARRAYS(X)                                                  \
    X(prev_world, sgrt__mat4, DATA, SGRT_SCENE_PREV_WORLD) /* world after the update before */ \
    X(lb_cx, float, DATA, SGRT_SCENE_BOUNDS) /* local box center, structure of arrays */ \
    X(lb_cy, float, DATA, SGRT_SCENE_BOUNDS)                                           \
    X(lb_cz, float, DATA, SGRT_SCENE_BOUNDS)                                           \
    X(lb_ex, float, DATA, SGRT_SCENE_BOUNDS) /* local box half extents */             \
    X(lb_ey, float, DATA, SGRT_SCENE_BOUNDS)                                           \
    X(lb_ez, float, DATA, SGRT_SCENE_BOUNDS)                                           \
    X(wb_lx, float, DATA, SGRT_SCENE_BOUNDS) /* world box min, as of the last update */ \
    X(wb_ly, float, DATA, SGRT_SCENE_BOUNDS)                                           \
    X(wb_lz, float, DATA, SGRT_SCENE_BOUNDS)                                           \
    X(wb_hx, float, DATA, SGRT_SCENE_BOUNDS) /* world box max */                      \
    X(wb_hy, float, DATA, SGRT_SCENE_BOUNDS)                                           \
    X(wb_hz, float, DATA, SGRT_SCENE_BOUNDS)                                           \
    X(sub, sgrt__subtree, DATA, SGRT_SCENE_SUBTREE_BOUNDS) /* subtree box */           \
    X(sub_delta, int32_t, DATA, SGRT_SCENE_SUBTREE_BOUNDS) /* nodes gained, not yet counted */
#define SGRT__OPTIONAL_SLOT_BITFIELDS(X)                                               \
    X(prev_moved, SGRT_SCENE_PREV_WORLD) /* recomputed by the last update */          \
    X(prev_fresh, SGRT_SCENE_PREV_WORLD) /* created since the last update */          \
    X(b_has, SGRT_SCENE_BOUNDS)       /* has a local box (now) */                     \
    X(b_valid, SGRT_SCENE_BOUNDS)     /* had one at the last update: world box valid */ \
    X(b_dirty, SGRT_SCENE_BOUNDS)     /* box set or cleared since the last update */  \
    X(s_dirty, SGRT_SCENE_SUBTREE_BOUNDS) /* subtree record to revisit */            \
    X(s_full, SGRT_SCENE_SUBTREE_BOUNDS)  /* ... by joining all its children again */
/* Optional arrays zeroed when storage is allocated: a cull reads whole words
 * of boxes, dead and box-less slots included, so every value is defined. */
#define SGRT__ZEROED_FLAGS (SGRT_SCENE_BOUNDS | SGRT_SCENE_SUBTREE_BOUNDS)

#define SGRT__DECLARE_ARRAY(name, type, kind) type *name;
#define SGRT__DECLARE_OPTIONAL_ARRAY(name, type, kind, flag) type *name;
#define SGRT__DECLARE_BITFIELD(name) uint32_t *name;
#define SGRT__DECLARE_OPTIONAL_BITFIELD(name, flag) uint32_t *name, *name##_sum;

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
    SGRT__OPTIONAL_SLOT_ARRAYS(SGRT__DECLARE_OPTIONAL_ARRAY)
    SGRT__OPTIONAL_SLOT_BITFIELDS(SGRT__DECLARE_OPTIONAL_BITFIELD)
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
     (uint32_t)SGRT_SCENE_SUBTREE_BOUNDS | (uint32_t)SGRT_SCENE_VALIDATE)
/* Whether s runs in validation mode: the one test its checks cost when off. */
#define SGRT__VALIDATING(s) (((s)->flags & (uint32_t)SGRT_SCENE_VALIDATE) != 0u)

/* Object handles (objects.c): trackers, node sets and writers are named by
 * ids into the scene's object table, as nodes are by ids into the handle
 * table. Bits 0..15: table index; bits 16..17: kind (SGRT__KIND_*, never
 * 0), both XORed with the scene's obj_salt; bits 18..31: generation field,
 * 1..SGRT__OBJ_GEN_PERIOD, offset per scene. */
#define SGRT__OBJ_INDEX_BITS 16u
#define SGRT__OBJ_INDEX_MASK ((1u << SGRT__OBJ_INDEX_BITS) - 1u)
#define SGRT__OBJ_KIND_SHIFT 16u
#define SGRT__OBJ_GEN_SHIFT 18u
#define SGRT__OBJ_GEN_PERIOD 16383u /* generations 0..16382, encoded 1..16383 */
#define SGRT__OBJ_MIN_FREE 256u     /* indices are reused only past this many free */
_Static_assert(SGRT_MAX_OBJECTS + SGRT__OBJ_MIN_FREE == SGRT__OBJ_INDEX_MASK + 1u,
               "SGRT_MAX_OBJECTS keeps the FIFO reserve of free object indices");

/* What an object is: part of its id, so that a handle of one kind is never
 * taken for another (a tracker never freed as a node set, or read as one). */
enum { SGRT__KIND_TRACKER = 1, SGRT__KIND_NODESET = 2, SGRT__KIND_WRITER = 3 };

/* One object-table entry. `id` is the id of the index's current object
 * (while the index is free: of its next generation, with kind 0, which no
 * handle carries); `ptr` is the object, NULL while free; `next_free` links
 * the free indices first-in first-out. */
typedef struct sgrt__object {
    uint32_t id;
    uint32_t next_free;
    void *ptr;
} sgrt__object;

/* A bitfield over slots that follows the scene's storage (registry.c), and
 * beside it, in the same allocation, the object's own side array (a
 * tracker's summary, a node set's spare array). */
typedef struct sgrt__slotbits {
    uint32_t id;    /* the object's handle id */
    uint32_t words; /* words in `bits`, always >= scene words */
    uint32_t *bits;
    uint32_t *block; /* bits, then the side array */
    size_t block_size;
} sgrt__slotbits;

typedef struct sgrt__tracker {
    sgrt__slotbits b;  /* the pending slots */
    uint32_t *summary; /* bit w set iff b.bits[w] != 0 */
} sgrt__tracker;

/* A node set's `bits` stay where they are until storage grows (the scene's
 * storage_version changes then): compaction and hole reclamation remap into
 * `spare` and copy back, so a pointer from sgrt_nodeset_words outlives
 * them. */
typedef struct sgrt__nodeset {
    sgrt__slotbits b; /* the members */
    uint32_t *spare;  /* as many words: the array a compaction remaps into */
} sgrt__nodeset;

/* A writer (writer.c keeps its layout). */
typedef struct sgrt__writer sgrt__writer;

/* The registry: trackers, node sets and writers (writer.c) of a scene,
 * listed for the loops that visit every one of a kind (storage growth, the
 * update's tracker feed, destruction with the scene). */
typedef struct sgrt__registry {
    sgrt__tracker **trackers;
    sgrt__nodeset **sets;
    sgrt__writer **writers;
    uint32_t tracker_count, tracker_cap;
    uint32_t set_count, set_cap;
    uint32_t writer_count, writer_cap;
} sgrt__registry;

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
    uint32_t reclaims;   /* hole reclamations run (white-box tests) */
    /* Subtree records name slots that a relocation or compaction has moved
     * since the last update, or runs that a destroy may have left holding
     * exactly a subtree's count of other nodes: the cull goes box by box
     * until the next update. */
    bool subtree_stale;
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

    sgrt__registry reg;

    /* object table (objects.c): what tracker, node set and writer handles
     * name; resolving one reads only this table */
    sgrt__object *objs;
    uint32_t obj_cap;
    uint32_t obj_used; /* indices ever handed out */
    uint32_t obj_free_head, obj_free_tail, obj_free_count; /* FIFO through next_free */
    uint32_t obj_salt;  /* low 18 bits: XORed into ids' index and kind */
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
    /* Non-zero while run is in progress: calls into the scene are refused
     * (SGRT_ERR_EXECUTOR). */
    uint32_t busy;
};

/* ---- alloc.c ------------------------------------------------------------- */

/* The default hooks (aligned_alloc / free) and calls through a scene's.
 * sgrt__alloc returns NULL with *err = NOMEM when the hook fails, or
 * ALIGNMENT when its block is not aligned to `align` (the block is freed). */
extern const sgrt_allocator sgrt__default_allocator;
void *sgrt__alloc(const sgrt_allocator *a, size_t size, size_t align, sgrt_result *err);
void sgrt__free(const sgrt_allocator *a, void *p, size_t size);

/* ---- storage.c ----------------------------------------------------------- */

/* Make slots [0, need) exist; geometric growth. Nothing changes on failure. */
sgrt_result sgrt__storage_ensure(sgrt_scene *s, uint64_t need);
/* The capacity growth picks for `need` slots from `cap`: at least double (a
 * multiple of 32), clamped to SGRT__MAX_SLOTS; 0 when need exceeds it. */
uint32_t sgrt__storage_grown_cap(uint32_t cap, uint64_t need);
/* Bytes of the block for `cap` slots (without the optional arrays); 0 when
 * that does not fit in size_t. */
size_t sgrt__storage_bytes(uint32_t cap);
void sgrt__storage_free(sgrt_scene *s);
/* Copy every per-slot array of slot `from` to slot `to` (DATA as is, LINK
 * arrays through map: the new slot of a slot; identity when map is NULL). */
void sgrt__storage_copy_slot(sgrt_scene *s, uint32_t to, uint32_t from, const uint32_t *map);
/* Re-store the live nodes depth-first from slot 0, closing holes. */
sgrt_result sgrt__storage_compact(sgrt_scene *s);
/* Slot occupancy: alive bits with their full-word summary, slot_end, holes. */
void sgrt__slot_occupy(sgrt_scene *s, uint32_t slot);
void sgrt__slot_vacate(sgrt_scene *s, uint32_t slot);
void sgrt__slots_trim(sgrt_scene *s);
/* Hole reclamation: due when dead slots below slot_end outnumber live nodes
 * by more than SGRT__HOLE_SLACK (the scene's hole_slack); it then moves every live node down to its
 * rank, in place (no allocation), keeping slot order. The calls that leave
 * holes (destroy, re-parenting with relocation) run it when due, so between
 * calls slot_end <= 2 * node_count + SGRT__HOLE_SLACK. */
bool sgrt__slots_reclaim_due(const sgrt_scene *s);
void sgrt__slots_reclaim(sgrt_scene *s);
/* First dead slot after `after` (SGRT__NONE: from 0); slot_end if none. */
uint32_t sgrt__slot_find_free(const sgrt_scene *s, uint32_t after);

/* ---- handles.c ----------------------------------------------------------- */

sgrt_result sgrt__handles_init(sgrt_scene *s, uint32_t cap);
void sgrt__handles_free(sgrt_scene *s);
sgrt_result sgrt__handles_reserve(sgrt_scene *s, uint32_t node_count);
/* Guarantee that sgrt__handle_take will not need to allocate. */
sgrt_result sgrt__handle_ensure(sgrt_scene *s);
uint32_t sgrt__handle_take(sgrt_scene *s, uint32_t slot);
void sgrt__handle_release(sgrt_scene *s, uint32_t index);
/* The table entry a handle names (for prefetching: it may be past the
 * entries in use). */
static inline const sgrt__handle *sgrt__handle_entry(const sgrt_scene *s, sgrt_node n)
{
    return &s->handles[(n.id ^ s->salt) & SGRT__INDEX_MASK];
}
/* Slot of a handle, or SGRT__NONE if it is not a live node of s: one XOR,
 * one compare and one load of the table. */
static inline uint32_t sgrt__resolve(const sgrt_scene *s, sgrt_node n)
{
    const uint32_t index = (n.id ^ s->salt) & SGRT__INDEX_MASK;
    if (index >= s->handle_used || s->handles[index].id != n.id)
        return SGRT__NONE;
    return s->handles[index].slot;
}
/* The node of handle index `index` now lives in `slot` (relocation,
 * reclamation, compaction). */
static inline void sgrt__handle_moved(sgrt_scene *s, uint32_t index, uint32_t slot)
{
    s->handles[index].slot = slot;
    s->slots_version++;
}
static inline sgrt_node sgrt__handle_of_slot(const sgrt_scene *s, uint32_t slot)
{
    const sgrt_node n = {s->handles[s->st.slot_handle[slot]].id};
    return n;
}
/* The generation field of a handle: 1..SGRT__GEN_PERIOD, offset per scene
 * (handles.c). */
static inline uint32_t sgrt__handle_generation(uint32_t id) { return id >> SGRT__INDEX_BITS; }

/* ---- dirty.c ------------------------------------------------------------- */

/* The bit alone (and its summary): a node that cannot have descendants
 * pending (a new node, or a mark of the closure pass itself). */
static inline void sgrt__dirty_set(sgrt_scene *s, uint32_t slot)
{
    const uint32_t w = slot >> 5;
    s->st.dirty[w] |= 1u << (slot & 31u);
    sgrt__bit_set(s->st.dirty_sum, w);
}
void sgrt__dirty_clear(sgrt_scene *s, uint32_t slot);
/* The slots `inner` of word w are dirty nodes with children: the next
 * closure pass starts at the lowest of them at the latest (an inner node's
 * descendants all lie after it in slot order, so the pass reaches them).
 * O(1). */
static inline void sgrt__dirty_pend(sgrt_scene *s, uint32_t w, uint32_t inner)
{
    s->pending_inner += sgrt__popcount32(inner);
    const uint32_t slot = w * 32u + sgrt__ctz32(inner);
    if (slot < s->close_from)
        s->close_from = slot;
}
/* The one marking path of every call that changes worlds: the slots `bits`
 * of word w moved (their locals were written). Each gets its own bit, and
 * its descendants are left to the closure pass. A node already dirty has
 * its descendants dirty or pending: only the fresh ones count. O(1). */
static inline void sgrt__dirty_mark_word(sgrt_scene *s, uint32_t w, uint32_t bits)
{
    const uint32_t fresh = bits & ~s->st.dirty[w];
    if (!fresh)
        return;
    s->st.dirty[w] |= fresh;
    sgrt__bit_set(s->st.dirty_sum, w);
    if (fresh & s->st.inner[w])
        sgrt__dirty_pend(s, w, fresh & s->st.inner[w]);
}
/* One node: its local was written, or (`relinked`) it was re-parented,
 * possibly to other slots with its subtree. A relinked node is pended even
 * when it was dirty already: its descendants may have been pending from a
 * close_from above their new slots. O(1). */
static inline void sgrt__dirty_mark(sgrt_scene *s, uint32_t slot, bool relinked)
{
    const uint32_t w = slot >> 5, bit = 1u << (slot & 31u);
    if (!relinked) {
        sgrt__dirty_mark_word(s, w, bit);
        return;
    }
    s->st.dirty[w] |= bit;
    sgrt__bit_set(s->st.dirty_sum, w);
    if (s->st.inner[w] & bit)
        sgrt__dirty_pend(s, w, bit);
}
/* The entries j of slot[] whose bit is set in `entries` (a batch chunk)
 * moved: marked a word at a time, entries that follow each other in slot
 * order sharing one. */
void sgrt__dirty_mark_slots(sgrt_scene *s, const uint32_t *slot, uint32_t entries);
/* Entries in consecutive slots from `slot` on moved where bit j of `bits`
 * is set (slot + j): two words at most, no branch per node. */
static inline void sgrt__dirty_mark_run(sgrt_scene *s, uint32_t slot, uint32_t bits)
{
    const uint32_t w = slot >> 5, sh = slot & 31u;
    sgrt__dirty_mark_word(s, w, bits << sh);
    if (sh && bits >> (32u - sh))
        sgrt__dirty_mark_word(s, w + 1u, bits >> (32u - sh));
}
/* Slots [first, first + count) moved: a word at a time. */
void sgrt__dirty_mark_range(sgrt_scene *s, uint32_t first, uint32_t count);
/* The closure pass: every live node below a dirty node becomes dirty.
 * O(live slots after close_from), or, when sparse, O(nodes it marks);
 * nothing when nothing is pending. Leaves nothing pending. */
void sgrt__dirty_close(sgrt_scene *s);
/* Whether the pending closure is sparse: few moved nodes with children,
 * closed by link walks. */
bool sgrt__dirty_closure_is_sparse(const sgrt_scene *s);
/* The slots of word w that the pending closure pass may still mark: those
 * after close_from (none when nothing is pending). */
uint32_t sgrt__dirty_close_mask(const sgrt_scene *s, uint32_t w);
/* The closure of one word, the routine both updates run: each live, clean
 * slot of `only` that the pass may mark becomes dirty when its parent is.
 * A parent in `done` (the parallel update's cross set, updated before the
 * tasks; NULL: none) is read from `done_dirty`, any other from the dirty
 * bits, so that a task never reads a word another task writes. Keeps the
 * summary exact. */
void sgrt__dirty_close_word(sgrt_scene *s, uint32_t w, uint32_t only, const uint32_t *done,
                            const uint32_t *done_dirty);
/* Nothing is pending any more (the passes over every word have run). */
void sgrt__dirty_close_done(sgrt_scene *s);

/* ---- world_now.c --------------------------------------------------------- */

/* Exact current world of a live slot, as the next update will store it. */
void sgrt__world_now_slot(const sgrt_scene *s, uint32_t slot, float out[16]);

/* ---- update.c ------------------------------------------------------------ */

/* sgrt_scene_update without its validation: also the parallel update's
 * serial fallback. */
uint32_t sgrt__update_serial(sgrt_scene *s);
/* The end of a public update (`function`) that recomputed `count` worlds:
 * the non-finite locals it repaired are recorded and reported. Returns
 * count. */
uint32_t sgrt__update_done(sgrt_scene *s, uint32_t count, const char *function);
/* What an update owes the hand-off for word w, before its kernel recomputes
 * the slots `d` of the word (their final dirty bits), for the slots `mask`
 * of the word that the caller owns: trackers learn `d`, previous worlds are
 * saved (sgrt__prev_save_word), boxes follow. The one route of both
 * updates: the serial one calls it for every word with work, each task of
 * the parallel one for the words of its range, after the range's closure. */
void sgrt__update_side_word(sgrt_scene *s, uint32_t w, uint32_t d, uint32_t mask);
/* Whether the update has side work per word beyond the kernel: trackers,
 * previous worlds, boxes. */
bool sgrt__update_has_side_work(const sgrt_scene *s);
/* What both updates do after their kernels: new nodes' previous worlds,
 * subtree boxes. */
void sgrt__update_finish(sgrt_scene *s);

/* ---- prev.c -------------------------------------------------------------- */

/* A node was created in `slot` (its world already written): it has not
 * moved until its first update. Nothing without SGRT_SCENE_PREV_WORLD. */
void sgrt__prev_created(sgrt_scene *s, uint32_t slot);
/* Before an update's kernel recomputes the slots `d` of word w (their final
 * dirty bits), for the slots `mask` of the word (the caller's share of it):
 * save the world of the slots recomputed now or by the last update in
 * prev_world (a new node's waits for sgrt__prev_finish), record `d` as the
 * word's recomputed slots, and report to the trackers the slots whose
 * previous world changes without a recompute. Only with prev_world. */
void sgrt__prev_save_word(sgrt_scene *s, uint32_t w, uint32_t d, uint32_t mask);
/* After the kernels: the new nodes' previous world is their first world.
 * O(sum words + new nodes). */
void sgrt__prev_finish(sgrt_scene *s);

/* ---- bounds.c ------------------------------------------------------------ */

/* The kernels' view of the scene's boxes (NULL pointers without
 * SGRT_SCENE_BOUNDS). */
void sgrt__bounds_view_of(const sgrt_scene *s, sgrt__bounds_view *v);
/* A node was created in `slot`: no box, a fresh subtree record. Nothing
 * without SGRT_SCENE_BOUNDS. */
void sgrt__bounds_created(sgrt_scene *s, uint32_t slot);
/* The node in `slot` leaves its parent (destroyed or re-parented; links not
 * changed yet) / joins `parent` (links changed): the parents' subtree
 * records learn it. Nothing without SGRT_SCENE_SUBTREE_BOUNDS. */
void sgrt__bounds_unlinked(sgrt_scene *s, uint32_t slot);
/* A slot became dead: it has no world box (bounds arrays' valid bits). */
void sgrt__bounds_vacated(sgrt_scene *s, uint32_t slot);
void sgrt__bounds_linked(sgrt_scene *s, uint32_t slot);
/* Nodes changed slot: by relocation (`renumbered` false: the cull goes box
 * by box until the next update), or every live node, in order, by
 * reclamation or compaction (every subtree record is rebuilt by the next
 * update; after a compaction, which reorders, the cull goes box by box
 * until then too). */
void sgrt__bounds_slots_moved(sgrt_scene *s, bool renumbered, bool reordered);
/* Before an update's kernel recomputes the slots `d` of word w, for the
 * slots `mask` of the word: the world boxes of nodes whose box changed but
 * whose world does not are computed, validity follows the boxes, trackers
 * learn of the changed boxes, subtree records to revisit are marked. Only
 * with SGRT_SCENE_BOUNDS. */
void sgrt__bounds_side_word(sgrt_scene *s, uint32_t w, uint32_t d, uint32_t mask);
/* Whether an update has bounds work even when no world is dirty. */
bool sgrt__bounds_pending(const sgrt_scene *s);
/* After the kernels: the subtree records of the marked nodes and their
 * ancestors, children before parents. Only with SGRT_SCENE_SUBTREE_BOUNDS. */
void sgrt__subtree_pass(sgrt_scene *s);
/* The world box of `slot` (valid or not), and its subtree record's box. */
void sgrt__bounds_world_box(const sgrt_scene *s, uint32_t slot, float lo[3], float hi[3]);

/* ---- dump.c -------------------------------------------------------------- */

/* `f` as printf's "%.9g" writes it in the C locale, NUL-terminated (at most
 * 16 bytes with the NUL); "inf", "-inf", "nan" (no sign) when not finite.
 * Returns the length. */
uint32_t sgrt__format_float(float f, char out[16]);

/* ---- objects.c ----------------------------------------------------------- */

/* Room in the object table for one more object, so that sgrt__object_take
 * cannot fail. Allocates when the table must grow (nothing changes on
 * failure); CAPACITY when SGRT_MAX_OBJECTS objects are alive. A failure is
 * reported as `function`'s. */
sgrt_result sgrt__object_ensure(sgrt_scene *s, const char *function);
/* Give `ptr`, an object of `kind`, an index (first-in first-out among the
 * free ones past the reserve, else a new one) and return its id. */
uint32_t sgrt__object_take(sgrt_scene *s, uint32_t kind, void *ptr);
/* The object of `id` (live) is gone: its index takes its next generation,
 * which refuses `id`, and joins the back of the free indices. */
void sgrt__object_release(sgrt_scene *s, uint32_t id);
void sgrt__objects_free(sgrt_scene *s);
/* The object `id` names when it is a live object of s of `kind`, else NULL:
 * one XOR, one bound, one compare of the whole id and a kind test, reading
 * nothing but the scene's table (a destroyed object's memory is never
 * read). */
static inline void *sgrt__object_get(const sgrt_scene *s, uint32_t id, uint32_t kind)
{
    const uint32_t low = id ^ s->obj_salt;
    const uint32_t index = low & SGRT__OBJ_INDEX_MASK;
    if (index >= s->obj_used || s->objs[index].id != id ||
        ((low >> SGRT__OBJ_KIND_SHIFT) & 3u) != kind)
        return NULL;
    return s->objs[index].ptr;
}
static inline sgrt__tracker *sgrt__tracker_get(const sgrt_scene *s, sgrt_tracker t)
{
    return (sgrt__tracker *)sgrt__object_get(s, t.id, SGRT__KIND_TRACKER);
}
static inline sgrt__nodeset *sgrt__nodeset_get(const sgrt_scene *s, sgrt_nodeset set)
{
    return (sgrt__nodeset *)sgrt__object_get(s, set.id, SGRT__KIND_NODESET);
}
static inline sgrt__writer *sgrt__writer_get(const sgrt_scene *s, sgrt_writer w)
{
    return (sgrt__writer *)sgrt__object_get(s, w.id, SGRT__KIND_WRITER);
}
/* Why `id` is not a live object of s of the kind asked for: why[0] when it
 * is zero, why[1] when it names no live object (destroyed, or of another
 * scene), why[2] when it names a live object of another kind. The refusal
 * path only. */
const char *sgrt__object_problem(const sgrt_scene *s, uint32_t id, const char *const why[3]);
#define SGRT__WHY_OBJECT(arg, kind)                                                    \
    {                                                                                  \
        arg " is zero: not a " kind " (a zero-initialised handle, or one never set "   \
            "by its create)",                                                          \
            arg " is not a live " kind " of s: destroyed, or of another scene",        \
            arg " is not a " kind ": it names a live object of another kind"           \
    }
/* NULL when the table and the registry agree (every listed object holds a
 * live id of its kind that names it, and nothing else is live), else what
 * broke. */
const char *sgrt__objects_check(const sgrt_scene *s);

/* ---- registry.c ---------------------------------------------------------- */

/* Give a new tracker / node set zeroed bits (and its side array) for the
 * scene's capacity and list it. Allocates; nothing changes on failure. */
sgrt_result sgrt__registry_add_tracker(sgrt_scene *s, sgrt__tracker *t);
sgrt_result sgrt__registry_add_set(sgrt_scene *s, sgrt__nodeset *set);
/* Writers follow no storage: the list only, so that the scene frees them.
 * reserve makes room (allocates; nothing changes on failure), add then
 * cannot fail. */
sgrt_result sgrt__registry_reserve_writer(sgrt_scene *s);
void sgrt__registry_add_writer(sgrt_scene *s, sgrt__writer *w);
/* Free a writer's memory (writer.c knows its layout), and its handle id. */
void sgrt__writer_free(sgrt_scene *s, sgrt__writer *w);
uint32_t sgrt__writer_id(const sgrt__writer *w);
/* Validation mode (writer.c), around each public update (`function`):
 * audit warns, per writer that has begun, about the first entry whose
 * local was written in place since it was last accounted for and whose
 * node nothing marked (a forgotten commit); reprint, after the kernels,
 * accounts for every such writer's locals as they are. O(entries of the
 * writers that have begun); nothing without SGRT_SCENE_VALIDATE. */
void sgrt__writers_audit(const sgrt_scene *s, const char *function);
void sgrt__writers_reprint(sgrt_scene *s);
/* The destroy of every kind (sgrt_tracker_destroy, sgrt_nodeset_destroy,
 * sgrt_writer_destroy) for a non-NULL s: the handle is resolved through
 * the object table, then the object is unlisted, freed and its id
 * released; an id that names no live object of `kind` is refused
 * (INVALID_ARG, reported with why[]) and nothing is freed. Zero: SGRT_OK. */
sgrt_result sgrt__registry_destroy(sgrt_scene *s, uint32_t id, uint32_t kind,
                                   const char *const why[3], const char *function);
/* Every registered bitfield covers `words` words (storage growth). A node
 * set whose bits move changes the scene's storage_version, even when a
 * later resize fails: a pointer from sgrt_nodeset_words is stale then. */
sgrt_result sgrt__registry_reserve(sgrt_scene *s, uint32_t words);
void sgrt__registry_destroy_all(sgrt_scene *s);
/* NULL when the registry's invariants hold, else what broke. */
const char *sgrt__registry_check(const sgrt_scene *s);

/* ---- tracker.c ----------------------------------------------------------- */

/* The slots `bits` of word `word` changed content (world recomputed,
 * created, destroyed, or moved in storage): every tracker records them. */
void sgrt__trackers_note(sgrt_scene *s, uint32_t word, uint32_t bits);
void sgrt__trackers_note_slot(sgrt_scene *s, uint32_t slot);
/* t forgets the pending slots `bits` of word `word` (node sets consuming
 * changes), keeping its summary exact. */
void sgrt__tracker_forget(sgrt__tracker *t, uint32_t word, uint32_t bits);

/* ---- nodeset.c ----------------------------------------------------------- */

/* Node sets follow their nodes: a destroyed slot leaves every set; a
 * relocated node's membership moves to its (empty) destination; compaction
 * and reclamation remap every live slot through map[old] = new before the
 * new storage is installed (s->st.alive still the old bits), in place: the
 * sets' bits do not move. */
void sgrt__nodesets_forget(sgrt_scene *s, uint32_t slot);
void sgrt__nodesets_move(sgrt_scene *s, uint32_t from, uint32_t to);
void sgrt__nodesets_compact(sgrt_scene *s, const uint32_t *map);

/* ---- matrix.c ------------------------------------------------------------ */

/* out = inverse(parent) x world in double precision; false if not finite. */
bool sgrt__relative_local(const float parent[16], const float world[16], float out[16]);
/* The local that keeps `world` under a parent whose world is `parent`
 * (keep-world re-parenting, sgrt_node_set_world): sgrt__relative_local,
 * accepted only when multiplying it back with `mul` (the scene's kernel, as
 * the update will) keeps the world within the tolerance below. False when
 * parent or world is not finite, the parent has no inverse, the local is
 * not finite or it misses; out is then untouched. */
bool sgrt__keep_world_local(void (*mul)(const float *a, const float *b, float *out),
                            const float parent[16], const float world[16], float out[16]);
/* Keep-world's tolerance: `got` (parent world x new local, in float on the
 * scene's kernel, as the update will form it) may miss `want` (the world to
 * keep) by at most TOLERANCE x max(1, largest |entry| of want's column) in
 * each entry of that column. */
#define SGRT__KEEP_WORLD_TOLERANCE (1.0 / 4096.0)
bool sgrt__world_kept(const float got[16], const float want[16]);
bool sgrt__all_finite(const float *v, uint32_t n);


/* ---- result.c ------------------------------------------------------------ */

/* Call `log` (when not NULL) with one entry. */
void sgrt__report(sgrt_log_fn log, void *user, sgrt_result code, const char *function,
                  const char *message, sgrt_node node);
/* Report a refusal through the scene's log, if it has one, and return
 * `code`: `return sgrt__fail(s, SGRT_ERR_INVALID_ARG, "sgrt_node_set_trs",
 * "t is NULL", node);`. s may be NULL (nothing to report to). The strings
 * are static. Out of line and cold: a call pays for it only when it
 * refuses. */
sgrt_result sgrt__fail(const sgrt_scene *s, sgrt_result code, const char *function,
                       const char *message, sgrt_node node);

/* A warning: reported with SGRT_OK, the call goes on. */
void sgrt__warn(const sgrt_scene *s, const char *function, const char *message, sgrt_node node);
/* A call into a busy scene (sgrt_scene_update_parallel is running its
 * tasks): reported, SGRT_ERR_EXECUTOR. */
sgrt_result sgrt__reentered(const sgrt_scene *s, const char *function);
/* sgrt__fail for a call whose allocation or growth failed (NOMEM,
 * ALIGNMENT, CAPACITY from the storage or handle limits): the message says
 * which. */
sgrt_result sgrt__fail_grow(const sgrt_scene *s, sgrt_result code, const char *function,
                            sgrt_node node);
/* The argument `what` ("node", "parent") is not a live node of s. */
#define SGRT__STALE(what)                                                              \
    what " is stale: destroyed, never created (zero), or a node of another scene"

/* ---- validate.c ---------------------------------------------------------- */

/* Validation mode's checks (SGRT_SCENE_VALIDATE); callers test
 * SGRT__VALIDATING first. A quaternion off unit length beyond
 * SGRT_QUAT_NORM_TOLERANCE is refused (INVALID_ARG, reported); the identity
 * written w, x, y, z is a warning. */
sgrt_result sgrt__validate_quat(const sgrt_scene *s, const char *function, const float q[4],
                                sgrt_node node);
/* The first entry whose quaternion is off unit length (count: none); warns
 * once about a w, x, y, z identity. Reports no refusal: the batch does. */
uint32_t sgrt__validate_quats(const sgrt_scene *s, const char *function, const float *q,
                              const sgrt_node *nodes, uint32_t count);
/* sgrt_node_world read `world` from slot: PENDING (reported) when the next
 * update will change it. O(d), and world_now's products when a node above
 * is dirty. */
sgrt_result sgrt__validate_world_read(const sgrt_scene *s, uint32_t slot, const float world[16],
                                      sgrt_node node);
/* Whether a dirty node is at or above slot: the next update recomputes its
 * world (before the closure pass, a dirty ancestor's descendants need not
 * be marked yet). O(d). */
bool sgrt__validate_recomputed(const sgrt_scene *s, uint32_t slot);
/* An array of worlds is read: a warning when moves are pending.
 * O(capacity / 1024). */
void sgrt__validate_array_read(const sgrt_scene *s, const char *function);
/* At the start of an update, before its closure pass (so the dirty nodes
 * are those written, created or re-parented since the last): a warning for
 * the first whose local's last row is not (0, 0, 0, 1). O(those nodes). */
void sgrt__validate_locals(const sgrt_scene *s, const char *function);

/* ---- trs_matrices.c ------------------------------------------------------ */

/* A kernel table's trs entry (kernels.h). */
typedef void (*sgrt__trs_fn)(const float *t, const float *q, const float *scale, float *out,
                             uint32_t n);
/* What sgrt_trs_to_matrices runs: the trs entry of the table a default scene
 * gets, chosen on the first call and kept for the process (the file says
 * why). */
sgrt__trs_fn sgrt__trs_matrices_kernel(void);
/* sgrt_trs_to_matrices past its argument checks, on the kernel entry `trs`
 * (tests run it at every level): count > 0, no pointer NULL. */
void sgrt__trs_to_matrices_run(sgrt__trs_fn trs, uint32_t count, const float *t, const float *q,
                               const float *scale, float *out);

/* ---- scene.c ------------------------------------------------------------- */

/* Test-only: run `level` (clamped to what the CPU has) on this scene, or
 * the table *k when k is not NULL (a modelled kernel). */
void sgrt__scene_set_kernels(sgrt_scene *s, uint32_t level, const sgrt__kernels *k);
/* Tests: reclaim holes as soon as they outnumber live nodes by `slack`. */
void sgrt__scene_set_hole_slack(sgrt_scene *s, uint32_t slack);
/* Tests: reuse object-table indices as soon as more than `reserve` (at most
 * SGRT__OBJ_MIN_FREE) are free, so that small programs reach reuse. */
void sgrt__scene_set_object_reserve(sgrt_scene *s, uint32_t reserve);

/* ---- hierarchy links (inline: the walks of every file that follows links) */

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
