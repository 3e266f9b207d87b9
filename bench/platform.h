/* What the benchmark needs from the platform beyond C11 and pthreads, with a
 * Windows path: aligned blocks (the Windows C runtime has no aligned_alloc;
 * its _aligned_malloc blocks must go back through _aligned_free) and the
 * number of CPUs online. */
#ifndef SGRT_BENCH_PLATFORM_H
#define SGRT_BENCH_PLATFORM_H

#include <stddef.h>
#include <stdlib.h>

#if defined(_WIN32)
#include <malloc.h>
#include <windows.h>
#else
#include <unistd.h>
#endif

/* align: a power of two; size is rounded up to a multiple of it. */
static inline void *bench_aligned_alloc(size_t align, size_t size)
{
    const size_t rounded = (size + align - 1u) & ~(align - 1u);
#if defined(_WIN32)
    return _aligned_malloc(rounded, align);
#else
    return aligned_alloc(align, rounded);
#endif
}

static inline void bench_aligned_free(void *p)
{
#if defined(_WIN32)
    _aligned_free(p);
#else
    free(p);
#endif
}

static inline long bench_online_cpus(void)
{
#if defined(_WIN32)
    SYSTEM_INFO si;
    GetSystemInfo(&si);
    return (long)si.dwNumberOfProcessors;
#else
    return sysconf(_SC_NPROCESSORS_ONLN);
#endif
}

#endif
