/* Internal declarations shared by the files of src/ (and by white-box tests).
 * Nothing here is public API. */
#ifndef SGRT_INTERNAL_H
#define SGRT_INTERNAL_H

#include "sgrt.h"
#include "bits.h"
#include "kernels.h"

#define SGRT__NONE 0xFFFFFFFFu          /* "no slot" in parent/child/sibling links */
#define SGRT__INDEX_BITS 24u
#define SGRT__INDEX_MASK ((1u << SGRT__INDEX_BITS) - 1u)
#define SGRT__GEN_PERIOD 255u           /* generations 0..254, encoded 1..255 */
#define SGRT__MIN_FREE_HANDLES 1024u    /* indices are reused only past this many free */
#define SGRT__MAX_SLOTS (1u << 25)      /* slot storage limit (holes included) */

typedef float sgrt__mat4[16];

/* All per-slot arrays live in one allocation (`block`), each 64-byte aligned. */
struct sgrt_scene {
    sgrt_allocator alloc;
    uint32_t max_nodes;
    uint32_t node_count;

    /* --- slot storage: structure of arrays, indexed by slot --- */
    uint32_t cap;       /* slots allocated, a multiple of 32 */
    uint32_t slot_end;  /* one past the highest slot that is or was used since the last compaction */
    uint32_t holes;     /* dead slots below slot_end */
    void *block;
    size_t block_size;
    sgrt__mat4 *local;  /* 64-byte aligned: one matrix per cache line */
    sgrt__mat4 *world;
    uint32_t *parent;   /* slot of the parent, SGRT__NONE for roots */
    uint32_t *first_child;
    uint32_t *next_sibling;
    uint32_t *prev_sibling;
    uint32_t *slot_handle; /* handle index stored in this slot */
    uint64_t *user;        /* user value that travels with the node */
    uint32_t *scratch;     /* cap entries, for relocation and destroy walks */

    /* --- bitfields: bit (i % 32) of word (i / 32) is slot i --- */
    uint32_t words;        /* cap / 32 */
    uint32_t sum_words;    /* ceil(words / 32) */
    uint32_t *alive;
    uint32_t *alive_full;  /* bit w set iff alive[w] == ~0u */
    uint32_t *dirty;
    uint32_t *dirty_sum;   /* bit w set iff dirty[w] != 0 */

    /* --- handle table (indirection: slots move, handles do not) --- */
    uint32_t handle_cap;
    uint32_t handle_used;  /* indices ever handed out */
    uint32_t *handle_slot; /* slot of a live index, SGRT__NONE when free */
    uint8_t *handle_gen;   /* current generation, 0..SGRT__GEN_PERIOD-1 */
    uint32_t *free_ring;   /* FIFO of free indices (handle_cap entries) */
    uint32_t free_head, free_count;
    uint32_t salt;         /* per-scene scramble of ids: foreign handles fail */

    /* --- change trackers (tracker.c) --- */
    struct sgrt_tracker **trackers;
    uint32_t tracker_count, tracker_cap;

    const sgrt__kernels *k;
};

/* Allocation through the scene's hooks. */
void *sgrt__alloc(const sgrt_allocator *a, size_t size, size_t align);
void sgrt__free(const sgrt_allocator *a, void *p, size_t size);

/* Storage and handles (scene.c). ensure_* may allocate; take/release never do. */
sgrt_result sgrt__ensure_slots(sgrt_scene *s, uint64_t need);
sgrt_result sgrt__ensure_handle(sgrt_scene *s);
uint32_t sgrt__take_handle(sgrt_scene *s, uint32_t slot);
void sgrt__release_handle(sgrt_scene *s, uint32_t index);
sgrt_result sgrt__storage_compact(sgrt_scene *s);

/* Slot of a handle, or SGRT__NONE if it is not a live node of s. */
uint32_t sgrt__resolve(const sgrt_scene *s, sgrt_node n);
sgrt_node sgrt__handle_of_slot(const sgrt_scene *s, uint32_t slot);

/* Exact current world of a live slot, as the next update will store it
 * (transform.c). */
sgrt_result sgrt__world_now_slot(const sgrt_scene *s, uint32_t slot, float out[16]);

/* Mark the subtree rooted at slot dirty (stops at nodes already dirty). */
void sgrt__mark_subtree(sgrt_scene *s, uint32_t slot);

/* Report that the slots `bits` of word `word` changed content (world
 * recomputed, created, destroyed, or moved in storage). Called by the core;
 * feeds every tracker. */
void sgrt__note_changed(sgrt_scene *s, uint32_t word, uint32_t bits);

/* Trackers follow their scene across storage reallocation (cap changes). */
sgrt_result sgrt__trackers_reserve(sgrt_scene *s, uint32_t new_words);
void sgrt__trackers_destroy_all(sgrt_scene *s);

/* Node sets follow their nodes (nodeset.c): a destroyed slot leaves every set;
 * a relocated slot's membership moves to its (empty) destination; compaction
 * remaps every live slot through map[old] = new before the new storage is
 * installed. */
void sgrt__nodesets_forget(sgrt_scene *s, uint32_t slot);
void sgrt__nodesets_move(sgrt_scene *s, uint32_t from, uint32_t to);
void sgrt__nodesets_compact(sgrt_scene *s, const uint32_t *map);

/* Test-only: force the kernel table (SGRT__KERNELS_REFERENCE or _DEFAULT). */
void sgrt__scene_use_kernels(sgrt_scene *s, const sgrt__kernels *k);

/* Matrix helpers (matrix.c): exact IEEE single-precision, fixed order. */
void sgrt__trs_to_mat4(const float t[3], const float q[4], const float scale[3], float out[16]);
/* out = inverse(parent) x world in double precision; false if not finite. */
bool sgrt__relative_local(const float parent[16], const float world[16], float out[16]);
bool sgrt__all_finite(const float *v, uint32_t n);

#endif
