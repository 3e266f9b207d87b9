/* Allocation: every byte the library holds goes through the scene's
 * sgrt_allocator, the default one being aligned_alloc / free. */
#include "internal.h"
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

void *sgrt__alloc(const sgrt_allocator *a, size_t size, size_t align)
{
    return a->alloc(size, align, a->user);
}

void sgrt__free(const sgrt_allocator *a, void *p, size_t size)
{
    if (p)
        a->free(p, size, a->user);
}
