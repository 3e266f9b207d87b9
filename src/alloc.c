/* SPDX-License-Identifier: MIT */
/* Allocation: every byte the library holds goes through the scene's
 * sgrt_allocator, the default one being aligned_alloc / free. A block that
 * is not aligned as asked is handed back and refused (SGRT_ERR_ALIGNMENT). */
#include "internal.h"
#include "alloc.h"
#include <stdlib.h>

#if defined(_WIN32)
#include <malloc.h>
#endif

static void *default_alloc(size_t size, size_t align, void *user)
{
    (void)user;
#if defined(_WIN32)
    return _aligned_malloc(size, align);
#else
    /* aligned_alloc wants a size that is a multiple of the alignment. */
    const size_t rounded = (size + align - 1u) & ~(align - 1u);
    return aligned_alloc(align, rounded);
#endif
}

static void default_free(void *ptr, size_t size, void *user)
{
    (void)size;
    (void)user;
#if defined(_WIN32)
    _aligned_free(ptr);
#else
    free(ptr);
#endif
}

const sgrt_allocator sgrt__default_allocator = {default_alloc, default_free, NULL};

void *sgrt__alloc(const sgrt_allocator *a, size_t size, size_t align, sgrt_result *err)
{
    void *p = a->alloc(size, align, a->user);
    if (!p) {
        *err = SGRT_ERR_NOMEM;
        return NULL;
    }
    /* The kernels load matrices with aligned instructions (AVX-512: 64
     * bytes): a block that breaks the contract is refused here, at the call
     * that allocated, rather than crashing a later update. */
    if ((uintptr_t)p & (align - 1u)) {
        a->free(p, size, a->user);
        *err = SGRT_ERR_ALIGNMENT;
        return NULL;
    }
    return p;
}

void sgrt__free(const sgrt_allocator *a, void *p, size_t size)
{
    if (p)
        a->free(p, size, a->user);
}
