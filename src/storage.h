/* SPDX-License-Identifier: MIT */
/* The per-slot arrays: layout and growth (storage.c); slot occupancy and
 * the moves of nodes to other slots: the one move of a node, relocation,
 * hole reclamation and compaction (moves.c). */
#ifndef SGRT_STORAGE_H
#define SGRT_STORAGE_H

#include "internal.h"

/* A new block for `cap` slots laid out for s (the core's arrays and the
 * followers' declared fields) with every bitfield zero, and every declared
 * array that asks to be. Allocates. */
sgrt_result sgrt__storage_alloc(const sgrt_scene *s, uint32_t cap, sgrt__storage *st);
/* Make st the scene's storage (the followers' pointers follow it); *old
 * gets the block it had, the caller's to free. */
void sgrt__storage_install(sgrt_scene *s, const sgrt__storage *st, sgrt__storage *old);
/* Make slots [0, need) exist; geometric growth. Nothing changes on failure. */
sgrt_result sgrt__storage_ensure(sgrt_scene *s, uint64_t need);
/* The capacity growth picks for `need` slots from `cap`: at least double (a
 * multiple of 32), clamped to SGRT__MAX_SLOTS; 0 when need exceeds it. */
uint32_t sgrt__storage_grown_cap(uint32_t cap, uint64_t need);
/* The capacity a compaction gives s: its live nodes, at least what reserve
 * or initial_capacity asked for (and SGRT__DEFAULT_CAPACITY), never more
 * than it has. */
uint32_t sgrt__storage_fit_cap(const sgrt_scene *s);
/* Bytes of the block for `cap` slots (without the optional arrays); 0 when
 * that does not fit in size_t. */
size_t sgrt__storage_bytes(uint32_t cap);
void sgrt__storage_free(sgrt_scene *s);
/* The one move of a node to another slot (relocation, reclamation,
 * compaction): slot `from` of s's storage to slot `to` of dst (s's own, or
 * a new block), every per-slot array (DATA as is, LINK arrays through map:
 * the new slot of a slot; in place when to == from), its inner bit, and
 * its handle. Its alive and dirty bits, and the followers, are the
 * caller's. */
void sgrt__slot_move(sgrt_scene *s, sgrt__storage *dst, uint32_t to, uint32_t from,
                     const uint32_t *map);
/* Relocation, the move of a subtree to slots after its new parent (a
 * re-parent to a parent stored after it): the k nodes of the subtree at
 * `root`, which is unlinked from its parent, go to the first dead slots
 * after `after` in pre-order, so parents stay before children.
 * relocate_room first makes those slots exist (allocates; nothing changes
 * on failure: near the slot limit it grows storage for the live nodes and
 * k, then reclaims holes and updates *root and *after to their new slots).
 * relocate moves
 * them (storage, handles, the followers' one `moved` event, then the old
 * slots vacated) and returns root's new slot. */
uint32_t sgrt__subtree_size(const sgrt_scene *s, uint32_t root);
sgrt_result sgrt__slots_relocate_room(sgrt_scene *s, uint32_t *root, uint32_t *after, uint32_t k);
uint32_t sgrt__slots_relocate(sgrt_scene *s, uint32_t root, uint32_t after, uint32_t k);
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

#endif
