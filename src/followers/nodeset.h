/* SPDX-License-Identifier: MIT */
/* Node sets as a follower of the scene (nodeset.c). */
#ifndef SGRT_FOLLOWERS_NODESET_H
#define SGRT_FOLLOWERS_NODESET_H

#include "../follow.h"
#include "slotbits.h"

/* A node set's `bits` stay where they are until storage grows (the scene's
 * storage_version changes then): compaction and hole reclamation remap into
 * `spare` and copy back, so a pointer from sgrt_nodeset_words outlives
 * them. */
typedef struct sgrt__nodeset {
    sgrt__slotbits b; /* the members */
    uint32_t *spare;  /* as many words: the array a compaction remaps into */
} sgrt__nodeset;

/* Node sets follow their nodes: a destroyed slot leaves every set; a
 * relocated node's membership moves to its (empty) destination;
 * compaction and reclamation remap every live slot in place (the sets'
 * bits do not move); storage growth widens them (their words move: the
 * storage version says so). */
extern const sgrt__follower sgrt__nodeset_follower;
/* The follower's state: the scene's node sets. */
sgrt__slotlist *sgrt__nodesets_of(const sgrt_scene *s);

#endif
