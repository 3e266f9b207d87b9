/* Kernel selection: the build fixes which tables exist; the running CPU
 * decides among them once, when a scene is created. */
#include "internal.h"

#if defined(SGRT_HAVE_AVX_KERNEL)
#include <cpuid.h>

/* AVX needs the CPU flag and the OS saving the YMM state (XCR0 bits 1-2). */
static bool cpu_has_avx(void)
{
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d))
        return false;
    const unsigned osxsave = 1u << 27, avx = 1u << 28;
    if ((c & (osxsave | avx)) != (osxsave | avx))
        return false;
    unsigned lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    (void)hi;
    return (lo & 6u) == 6u;
}
#endif
#if defined(SGRT_HAVE_AVX512_KERNEL)
/* AVX-512F: CPUID leaf 7 EBX bit 16, and the OS saving the opmask and ZMM
 * state (XCR0 bits 5-7) besides XMM and YMM. */
static bool cpu_has_avx512f(void)
{
    unsigned a, b, c, d;
    if (!cpu_has_avx() || !__get_cpuid_count(7, 0, &a, &b, &c, &d) || !(b & (1u << 16)))
        return false;
    unsigned lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    (void)hi;
    return (lo & 0xE6u) == 0xE6u;
}
#endif

uint32_t sgrt__kernels_available(const sgrt__kernels **out, uint32_t max)
{
    uint32_t n = 0;
    if (n < max)
        out[n++] = &sgrt__kernels_ref;
    if (n < max)
        out[n++] = &sgrt__kernels_simde;
#if defined(SGRT_HAVE_AVX_KERNEL)
    if (n < max && cpu_has_avx())
        out[n++] = &sgrt__kernels_avx;
#endif
#if defined(SGRT_HAVE_AVX512_KERNEL)
    if (n < max && cpu_has_avx512f())
        out[n++] = &sgrt__kernels_avx512;
#endif
    return n;
}

const sgrt__kernels *sgrt__kernels_default(void)
{
#if defined(SGRT_DEFAULT_SCALAR) && SGRT_DEFAULT_SCALAR
    return &sgrt__kernels_ref;
#else
    const sgrt__kernels *k[8];
    const uint32_t n = sgrt__kernels_available(k, 8);
    return k[n - 1];
#endif
}

const char *sgrt_simd_name(void)
{
    return sgrt__kernels_default()->name;
}
