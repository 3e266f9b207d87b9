/* SPDX-License-Identifier: MIT */
/* XXH3 (xxHash's header, inlined) compiled for the instruction set of the
 * file that includes this one: its NAME(once) hashes n bytes at p,
 * NAME(update) feeds an XXH3_state_t (passed as void *) that any file
 * inlining xxhash.h made. XXH3 gives the same value whatever vector path
 * computes it (its scalar, SSE2, AVX2 and AVX-512 paths are one algorithm):
 * the wider paths are only faster (kernels.h: xxh3, xxh3_update). */
#ifndef SGRT_XXH3_WIDE_H
#define SGRT_XXH3_WIDE_H

#include "kernels.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

uint64_t NAME(once)(const void *p, size_t n);
void NAME(update)(void *state, const void *p, size_t n);

uint64_t NAME(once)(const void *p, size_t n) { return XXH3_64bits(p, n); }
void NAME(update)(void *state, const void *p, size_t n)
{
    (void)XXH3_64bits_update((XXH3_state_t *)state, p, n);
}

#endif
