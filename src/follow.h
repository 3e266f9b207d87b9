/* SPDX-License-Identifier: MIT */
/* The seam between the core and its followers: state kept beside the
 * scene's storage for the programs that read it (trackers and node sets,
 * previous worlds, boxes, large worlds), which the core keeps in step by
 * announcing what happened to slots and handing each updated word to the
 * followers that ask for it. The core names no follower: each is a table of
 * hooks (NULL where it has no interest) with the scene flags it needs, and
 * followers.c lists them all; scene creation attaches those whose
 * flags the scene has (flecs' way with its addons: one file knows them).
 * Followers never call each other: a follower whose state changes what a
 * slot holds for a reader (a previous world, a box) says so through
 * sgrt__follow_changed, which the trackers hear. */
#ifndef SGRT_FOLLOW_H
#define SGRT_FOLLOW_H

#include "internal.h"
#include <stddef.h>

/* What a follower keeps per slot, declared in its own file: storage lays
 * each out in its block, grows it, moves it with its node (relocation,
 * reclamation, compaction) and frees it, from the declaration alone, and
 * fills the pointer at offset `at` of the follower's state (and for a
 * bitfield, its summary's pointer at `sum_at`) whenever the block changes.
 * Kinds: DATA, `size` bytes per slot copied as they are; LINK, a uint32_t
 * slot (or SGRT__NONE) per slot, remapped when slots move; BITS, one bit
 * per slot (words of 32) with its summary (bit w set iff word w is not
 * zero), kept exact when bits move. Bits of dead slots may stay set: their
 * readers mask them with alive, and a new node clears its own. A BITS field
 * and every `zeroed` array start at zero in a new block; other DATA starts
 * undefined (slots past slot_end are never read). Declarations are a plain
 * list a program can walk (the checker, dumps, snapshots): a snapshot
 * writes each field of slots [0, slot_end) as `size / width` scalars of
 * `width` bytes, little-endian (BITS: its words, masked with alive), and a
 * restore reports to trackers the slots where a `tracked` field changed
 * (what readers see through an array that trackers cover: a previous
 * world, a world box). A `transient` field is not in a snapshot: it is
 * derived from objects (which no snapshot holds: skins mark their joints'
 * slots), and its follower's `restored` hook builds it again; a restore
 * leaves it as it was until then. */
enum { SGRT__DECL_DATA, SGRT__DECL_LINK, SGRT__DECL_BITS };
typedef struct sgrt__slot_decl {
    const char *name; /* the field's name in the follower's state */
    uint16_t at;      /* offset of the array's pointer in the state */
    uint16_t sum_at;  /* BITS: offset of its summary's pointer */
    uint16_t size;    /* bytes per slot (BITS: 0) */
    uint8_t align;    /* alignment of the element type: at most 64 */
    uint8_t kind;     /* SGRT__DECL_* */
    bool zeroed;      /* DATA: zero in a new block */
    uint32_t flags;   /* laid out only in scenes with all these SGRT_SCENE_* flags */
    uint8_t width;    /* bytes per scalar of an element: 1, 2, 4 or 8 (LINK, BITS: 4) */
    bool tracked;     /* readers see it through an array trackers cover */
    bool transient;   /* derived from objects: not in a snapshot (above) */
} sgrt__slot_decl;
/* The declarations, given the follower's state type T: an array of
 * `type` (zeroed or not; its scalars' width from SGRT__SCALAR_WIDTH, or
 * named: SGRT__DECL_ARRAY_OF), a link array, a bitfield with its summary
 * (field and field_sum); each kept in scenes with the SGRT_SCENE_* flags
 * `fl` (0: wherever the follower is attached; its pointer stays NULL
 * elsewhere). The _TRACKED forms mark what readers see, the _TRANSIENT
 * form what objects derive (above). */
#define SGRT__DECL_ARRAY_AS(T, field, type, width, zero, fl, tracked)                  \
    { #field, (uint16_t)offsetof(T, field), 0u, (uint16_t)sizeof(type),                 \
      (uint8_t)_Alignof(type), SGRT__DECL_DATA, (zero), (fl), (uint8_t)(width), (tracked), \
      false }
#define SGRT__DECL_ARRAY(T, field, type, zero, fl)                                     \
    SGRT__DECL_ARRAY_AS(T, field, type, SGRT__SCALAR_WIDTH(type), zero, fl, false)
#define SGRT__DECL_ARRAY_TRACKED(T, field, type, zero, fl)                             \
    SGRT__DECL_ARRAY_AS(T, field, type, SGRT__SCALAR_WIDTH(type), zero, fl, true)
#define SGRT__DECL_ARRAY_OF(T, field, type, scalar, zero, fl)                          \
    SGRT__DECL_ARRAY_AS(T, field, type, sizeof(scalar), zero, fl, false)
#define SGRT__DECL_LINKS(T, field, fl)                                                 \
    { #field, (uint16_t)offsetof(T, field), 0u, (uint16_t)sizeof(uint32_t),             \
      (uint8_t)_Alignof(uint32_t), SGRT__DECL_LINK, false, (fl), 4u, false, false }
#define SGRT__DECL_BITFIELD_AS(T, field, fl, tracked, transient)                       \
    { #field, (uint16_t)offsetof(T, field), (uint16_t)offsetof(T, field##_sum), 0u,     \
      (uint8_t)_Alignof(uint32_t), SGRT__DECL_BITS, true, (fl), 4u, (tracked), (transient) }
#define SGRT__DECL_BITFIELD(T, field, fl) SGRT__DECL_BITFIELD_AS(T, field, fl, false, false)
#define SGRT__DECL_BITFIELD_TRACKED(T, field, fl)                                      \
    SGRT__DECL_BITFIELD_AS(T, field, fl, true, false)
#define SGRT__DECL_BITFIELD_TRANSIENT(T, field, fl)                                    \
    SGRT__DECL_BITFIELD_AS(T, field, fl, false, true)

/* What a follower keeps at scene level that decides what the scene does
 * next (an origin, a flag that a record is stale), declared for snapshots:
 * `count` scalars of `width` bytes at offset `at` of its state, written
 * little-endian; `boolean`: each a bool (a restore refuses other values
 * than 0 and 1). What is not declared (pointers into storage, what an
 * update takes at its start, the objects) is not in a snapshot. */
typedef struct sgrt__state_field {
    const char *name;
    uint16_t at;
    uint16_t count;
    uint8_t width;
    bool boolean;
} sgrt__state_field;
#define SGRT__FIELD(T, field, scalar)                                                  \
    { #field, (uint16_t)offsetof(T, field),                                            \
      (uint16_t)(sizeof(((T *)0)->field) / sizeof(scalar)), (uint8_t)sizeof(scalar), false }
#define SGRT__FIELD_BOOL(T, field)                                                     \
    { #field, (uint16_t)offsetof(T, field), 1u, (uint8_t)sizeof(bool), true }

/* The one slot-move event (the follower hook `moved`): every node in slot
 * o of those that moved is now in slot map[o], with every per-slot array
 * and declared field (storage moved them). Relocation (a re-parent): the
 * `count` nodes of the old slots from[0..count) moved to dead slots, in
 * pre-order, before their old slots are vacated (each then is, with its
 * event). Reclamation and compaction (from NULL): every live node moved,
 * keeping slot order (reclamation) or depth-first (compaction: reordered);
 * s->st is the new layout, and map, in the old block's scratch, stays
 * readable until the event returns. */
struct sgrt__snapview; /* snapshot.h: a snapshot's contents, read in place */
typedef struct sgrt__moves {
    const uint32_t *map;
    const uint32_t *from;
    uint32_t count;
    bool reordered;
} sgrt__moves;

/* Where hooks run. Every hook runs on the thread that called into the
 * scene, one at a time, and may touch the whole scene and its own state,
 * except these, which a parallel update (parallel.c) also runs inside its
 * tasks, concurrently, one task per slot range (ranges are cut at summary
 * words: no two tasks share a word of bits or of a summary):
 *   view    in every task: fills the task's view; reads only.
 *   words   per summary word of the task's range: reads only.
 *   word    per word of the task's range, for the slots `mask` the task
 *           owns (the cross set's slots had theirs serially, before the
 *           tasks); it may write only words w of per-slot state (and bit
 *           w / 32 of their summaries), and reads other slots' worlds
 *           only as the kernels leave them (parents before children).
 *   wants_after  in every task, before its kernel: reads only.
 *   after   per word the task's kernel recomputed (the cross set's words
 *           serially, before the tasks, with the cross set's slots of
 *           them): the same rule as word; the worlds of `done` are final,
 *           as are those of every slot the kernel passed before them
 *           (every ancestor of `done`); other slots' worlds it must not
 *           read. State shared between words (a follower's scene-level
 *           fields) it may only read, or write with atomics.
 *   changed as raised by a word or after hook: the same word, the same
 *           rule.
 * pending runs serially while the plan is built; start and finish, serially
 * before and after the tasks. */
typedef struct sgrt__follower {
    /* Attached to a scene created with all these SGRT_SCENE_* flags (0:
     * to every scene). */
    uint32_t flags;
    /* The follower's own scene-level state: `state_size` bytes (at most
     * SGRT__STATE_MAX), zeroed at scene creation, 64-byte aligned, in the
     * scene's allocation; sgrt__follow_state finds it. Its per-slot
     * arrays: `slots`, `slot_count` declarations (pointers into it). */
    size_t state_size;
    const sgrt__slot_decl *slots;
    uint32_t slot_count;
    /* Its scene-level state in a snapshot: `field_count` declarations. */
    const sgrt__state_field *fields;
    uint32_t field_count;
    /* Storage grows to `words` words of bits: make room for the state kept
     * outside the storage block (allocates; nothing changes on failure). */
    sgrt_result (*reserve)(sgrt_scene *s, uint32_t words);
    /* A node was created in `slot`, its world written. */
    void (*created)(sgrt_scene *s, uint32_t slot);
    /* The node in `slot` leaves its parent (destroyed or re-parented; links
     * not changed yet) / joins its parent (links changed). */
    void (*unlinked)(sgrt_scene *s, uint32_t slot);
    void (*linked)(sgrt_scene *s, uint32_t slot);
    /* sgrt_node_set_parent gave the node in `slot` a new parent: after
     * linked (and any relocation), its new local written when keep_world
     * (SGRT_KEEP_WORLD), before rooted; the world array still holds the
     * last update's worlds (render interpolation carries the last tick's
     * local into the new parent's frame from them). */
    void (*reparented)(sgrt_scene *s, uint32_t slot, bool keep_world);
    /* The node in `slot` is a root placed relative to the origin now:
     * created as a root, made one (sgrt_node_set_parent), or given a world
     * (sgrt_node_set_world), its local written and marked. */
    void (*rooted)(sgrt_scene *s, uint32_t slot);
    /* `slot` is dead now: its node was destroyed, or moved away. */
    void (*vacated)(sgrt_scene *s, uint32_t slot);
    /* Nodes changed slot (follow.h: sgrt__moves says which and how), all
     * of them now in place; one event per relocation, reclamation or
     * compaction. */
    void (*moved)(sgrt_scene *s, const struct sgrt__moves *m);
    /* The origin every world is relative to is `origin` now (a large
     * world's, moved; every node is marked): state that keeps worlds moves
     * them into its frame. */
    void (*origin)(sgrt_scene *s, const double origin[3]);
    /* The scene's nodes were replaced by a snapshot's (sgrt_scene_restore):
     * `changed` is a bitfield over slots (s->st.words words) of the slots
     * whose node, world or liveness the restore changed, or where a
     * declared field that readers see (`tracked`: a previous world, a world
     * box) changed; every handle may now name another slot or none. */
    void (*restored)(sgrt_scene *s, const uint32_t *changed);
    /* What the slots `bits` of word w hold for a reader changed. `self`:
     * the follower's state (as for words and word, the hooks called per
     * word). */
    void (*changed)(sgrt_scene *s, void *self, uint32_t w, uint32_t bits);
    /* A public update starts (`function` names it), before anything is
     * read: validation mode's look at what the user wrote. */
    void (*start)(sgrt_scene *s, const char *function);
    /* The update. view: the follower's part of the kernels' view (what
     * the kernels read of its state: anchors). wants_words: whether `word`
     * has work in this update at all (NULL: whenever attached). words:
     * which words of summary word sw have work besides the dirty ones.
     * pending: work even when nothing is dirty. word: before the kernel
     * recomputes the slots `d` of word w (their final dirty bits), for the
     * slots `mask` of the word that the caller owns. wants_after: whether
     * `after` has work in this update (NULL: whenever attached). after:
     * right after the kernel stored the worlds of the slots `done` of word
     * w, while they are in L1 (boxes are computed there): one call per word
     * recomputed, on the update's threads. It gets its state alone (the
     * kernels call it directly when it is the only one with work): what it
     * needs of the scene it takes into its state in `start`. finish: after
     * the kernels. */
    void (*view)(const sgrt_scene *s, sgrt__update_view *v);
    bool (*wants_words)(const sgrt_scene *s);
    uint32_t (*words)(const sgrt_scene *s, const void *self, uint32_t sw);
    bool (*pending)(const sgrt_scene *s);
    void (*word)(sgrt_scene *s, void *self, uint32_t w, uint32_t d, uint32_t mask);
    bool (*wants_after)(const sgrt_scene *s);
    void (*after)(void *self, uint32_t w, uint32_t done);
    void (*finish)(sgrt_scene *s);
    /* sgrt_scene_restore and sgrt_scene_load, before anything changes:
     * NULL when the follower's state in the snapshot `v` (its declared
     * fields, read through snapshot.h) keeps the invariants its part of
     * sgrt_scene_check verifies, else what broke. The core's part of v is
     * valid already (links, handles, bits, counts). */
    const char *(*snapshot_check)(const sgrt_scene *s, const struct sgrt__snapview *v);
    /* The scene is destroyed: free what the follower holds. */
    void (*destroy)(sgrt_scene *s);
    /* NULL when the follower's invariants hold, else what broke. */
    const char *(*check)(const sgrt_scene *s);
} sgrt__follower;

/* Every follower there is, NULL-terminated, in the order a scene attaches
 * them (followers.c). */
extern const sgrt__follower *const sgrt__followers[];
/* Bytes the states of the followers of `list` that scene flags `flags`
 * attach take after the scene (each rounded up to 64). */
size_t sgrt__follow_state_bytes(const sgrt__follower *const *list, uint32_t flags);
/* Attach to s the followers its flags ask for (at scene creation), their
 * states in the sgrt__follow_state_bytes after the scene struct, and gather
 * their per-slot declarations for storage. */
void sgrt__follow_attach(sgrt_scene *s, const sgrt__follower *const *list);
/* f's state in s; NULL when f is not attached to s. A scan of the attached
 * followers: the hooks called per word get theirs as `self`. */
static inline void *sgrt__follow_state(const sgrt_scene *s, const sgrt__follower *f)
{
    for (uint32_t i = 0; i < s->follow_count; i++)
        if (s->follow[i] == f)
            return s->state[i];
    return NULL;
}
/* After storage installs a block: point every declared field of every
 * follower's state at its array in it (NULL when there is none). */
void sgrt__follow_publish(sgrt_scene *s);

/* The events, each passed to every attached follower that has the hook. */
sgrt_result sgrt__follow_reserve(sgrt_scene *s, uint32_t words);
void sgrt__follow_created(sgrt_scene *s, uint32_t slot);
void sgrt__follow_unlinked(sgrt_scene *s, uint32_t slot);
void sgrt__follow_linked(sgrt_scene *s, uint32_t slot);
void sgrt__follow_reparented(sgrt_scene *s, uint32_t slot, bool keep_world);
void sgrt__follow_rooted(sgrt_scene *s, uint32_t slot);
void sgrt__follow_vacated(sgrt_scene *s, uint32_t slot);
void sgrt__follow_moved(sgrt_scene *s, const sgrt__moves *m);
void sgrt__follow_origin(sgrt_scene *s, const double origin[3]);
void sgrt__follow_restored(sgrt_scene *s, const uint32_t *changed);
/* NULL when every attached follower's snapshot_check accepts v. */
const char *sgrt__follow_snapshot_check(const sgrt_scene *s, const struct sgrt__snapview *v);
/* Inline, nothing when bits is zero: the update announces changes word by
 * word. */
static inline void sgrt__follow_changed(sgrt_scene *s, uint32_t w, uint32_t bits)
{
    for (uint32_t i = 0; bits && i < s->on_changed_count; i++)
        s->on_changed[i](s, s->on_changed_self[i], w, bits);
}
static inline void sgrt__follow_changed_slot(sgrt_scene *s, uint32_t slot)
{
    sgrt__follow_changed(s, slot >> 5, 1u << (slot & 31u));
}

/* The update's side of the seam. view: the followers' part of the kernels'
 * view (sgrt_node_world_now's chain reads anchors through it). */
void sgrt__follow_view(const sgrt_scene *s, sgrt__update_view *v);
/* The kernels' view of an update over bits / sum (the dirty bits, or the
 * parallel update's work bits), summary words [sum_first, sum_end): the
 * core's arrays, what the followers keep that the kernels read (anchors),
 * and the after hook, which calls every attached after hook when one has
 * work in this update (NULL when none has: the kernels call nothing; the
 * one follower's own hook, with its state, when it is alone). */
void sgrt__update_view_of(sgrt_scene *s, uint32_t *bits, uint32_t *sum, uint32_t sum_first,
                          uint32_t sum_end, uint32_t *repaired, sgrt__update_view *v);
/* The serial update's side of the seam, once its closure is done: the
 * followers' word hooks for every word with work (the dirty ones and those
 * they ask for), before the kernel clears them; then v, the kernels' view
 * of the whole dirty bitfield (s->repaired counting the repairs). */
void sgrt__follow_prepare(sgrt_scene *s, sgrt__update_view *v);
/* Whether a follower has work per word in this update. */
bool sgrt__follow_has_word_work(const sgrt_scene *s);
/* The words of summary word sw with side work: the dirty ones, and those
 * the followers ask for. */
uint32_t sgrt__follow_words(const sgrt_scene *s, uint32_t sw);
bool sgrt__follow_pending(const sgrt_scene *s);
static inline void sgrt__follow_word(sgrt_scene *s, uint32_t w, uint32_t d, uint32_t mask)
{
    for (uint32_t i = 0; i < s->on_word_count; i++)
        s->on_word[i](s, s->on_word_self[i], w, d, mask);
}
void sgrt__follow_start(sgrt_scene *s, const char *function);
void sgrt__follow_finish(sgrt_scene *s);
void sgrt__follow_destroy(sgrt_scene *s);
const char *sgrt__follow_check(const sgrt_scene *s);

#endif
