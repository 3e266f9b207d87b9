/* SPDX-License-Identifier: MIT */
/* Node sets as a follower of the scene (nodeset.c). */
#ifndef SGRT_HANDOFF_NODESET_H
#define SGRT_HANDOFF_NODESET_H

#include "../follow.h"

/* Node sets follow their nodes: a destroyed slot leaves every set; a
 * relocated node's membership moves to its (empty) destination;
 * compaction and reclamation remap every live slot in place (the sets'
 * bits do not move); storage growth widens them (their words move: the
 * storage version says so). */
extern const sgrt__follower sgrt__nodeset_follower;

#endif
