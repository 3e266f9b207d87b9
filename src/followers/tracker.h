/* SPDX-License-Identifier: MIT */
/* Change trackers as a follower of the scene (tracker.c). */
#ifndef SGRT_FOLLOWERS_TRACKER_H
#define SGRT_FOLLOWERS_TRACKER_H

#include "../follow.h"
#include "slotbits.h"

/* A tracker: the pending slots, with a summary. */
typedef struct sgrt__tracker {
    sgrt__slotbits b;  /* the pending slots */
    uint32_t *summary; /* bit w set iff b.bits[w] != 0 */
} sgrt__tracker;

/* Storage growth widens every tracker; every change of what a slot holds
 * (sgrt__follow_changed, and each word an update recomputes) is noted;
 * scene destruction frees them. */
extern const sgrt__follower sgrt__tracker_follower;

/* The follower's state: the scene's trackers. */
sgrt__slotlist *sgrt__trackers_of(const sgrt_scene *s);
/* t forgets the pending slots `bits` of word `word` (node sets consuming
 * changes), keeping its summary exact. */
void sgrt__tracker_forget(sgrt__tracker *t, uint32_t word, uint32_t bits);

#endif
