/* SPDX-License-Identifier: MIT */
/* Allocation through the user's hooks (alloc.c). */
#ifndef SGRT_ALLOC_H
#define SGRT_ALLOC_H

#include "internal.h"

/* The default hooks (aligned_alloc / free) and calls through a scene's.
 * sgrt__alloc returns NULL with *err = NOMEM when the hook fails, or
 * ALIGNMENT when its block is not aligned to `align` (the block is freed). */
extern const sgrt_allocator sgrt__default_allocator;
void *sgrt__alloc(const sgrt_allocator *a, size_t size, size_t align, sgrt_result *err);
void sgrt__free(const sgrt_allocator *a, void *p, size_t size);

#endif
