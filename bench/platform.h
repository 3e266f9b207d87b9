/* SPDX-License-Identifier: MIT */
/* What the benchmark needs from the platform beyond C11 and pthreads, with a
 * Windows path: aligned blocks (the Windows C runtime has no aligned_alloc;
 * its _aligned_malloc blocks must go back through _aligned_free), the
 * number of CPUs online and the size of the last-level cache. */
#ifndef SGRT_BENCH_PLATFORM_H
#define SGRT_BENCH_PLATFORM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
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

/* An sgrt_allocator's functions that count the bytes held (user: a
 * bench_held), for the sections that state what a scene holds. */
typedef struct bench_held {
    size_t now;
} bench_held;

static inline void *bench_held_alloc(size_t size, size_t align, void *user)
{
    void *p = bench_aligned_alloc(align, size);
    if (p)
        ((bench_held *)user)->now += size;
    return p;
}

static inline void bench_held_free(void *ptr, size_t size, void *user)
{
    if (ptr)
        ((bench_held *)user)->now -= size;
    bench_aligned_free(ptr);
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

/* Bytes of the largest cache level the system reports (L3, else L2), 0
 * when it says nothing: sysconf where glibc has it, else Linux's sysfs. */
static inline uint64_t bench_llc_bytes(void)
{
#if defined(_SC_LEVEL3_CACHE_SIZE)
    const long l3 = sysconf(_SC_LEVEL3_CACHE_SIZE);
    if (l3 > 0)
        return (uint64_t)l3;
#endif
    for (int level = 3; level >= 2; level--) {
        char path[64];
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", level);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        unsigned long v = 0;
        char unit = 0;
        const int got = fscanf(f, "%lu%c", &v, &unit);
        fclose(f);
        if (got >= 1 && v > 0)
            return (uint64_t)v << (unit == 'K' ? 10 : unit == 'M' ? 20 : 0);
    }
    return 0;
}

#endif
