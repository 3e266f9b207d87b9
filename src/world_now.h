/* SPDX-License-Identifier: MIT */
/* The exact world of one node now (world_now.c). */
#ifndef SGRT_WORLD_NOW_H
#define SGRT_WORLD_NOW_H

#include "internal.h"

/* Exact current world of a live slot, as the next update will store it. */
void sgrt__world_now_slot(const sgrt_scene *s, uint32_t slot, float out[16]);

#endif
