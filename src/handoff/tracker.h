/* SPDX-License-Identifier: MIT */
/* Change trackers as a follower of the scene (tracker.c). */
#ifndef SGRT_HANDOFF_TRACKER_H
#define SGRT_HANDOFF_TRACKER_H

#include "../follow.h"

/* Storage growth widens every tracker; every change of what a slot holds
 * (sgrt__follow_changed, and each word an update recomputes) is noted;
 * scene destruction frees them. */
extern const sgrt__follower sgrt__tracker_follower;

/* The slots `bits` of word `word` changed content: every tracker records
 * them. */
void sgrt__trackers_note(sgrt_scene *s, uint32_t word, uint32_t bits);
/* t forgets the pending slots `bits` of word `word` (node sets consuming
 * changes), keeping its summary exact. */
void sgrt__tracker_forget(sgrt__tracker *t, uint32_t word, uint32_t bits);

#endif
