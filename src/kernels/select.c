/* SPDX-License-Identifier: MIT */
/* Which kernel runs: the levels the build has, the levels the CPU runs, the
 * CPU properties that switch single entries off (kernels.h), and the user's
 * limit (sgrt_scene_desc.max_simd). Every level gives the same bits, so the
 * choice is about speed only. What the CPU answers is asked once per
 * process and kept in one atomic word: cpuid traps into the hypervisor of a
 * virtual machine, and asking at every scene creation made cpuid 86 % of
 * the cost of creating and destroying a scene (15.6 us; 3.1 us kept). It is
 * a constant every thread computes alike, so first calls may race. */
#include "kernels.h"
#include <stddef.h>
#if !defined(__STDC_NO_ATOMICS__)
#include <stdatomic.h>
#endif

#if defined(SGRT_HAVE_AVX_KERNEL)
#if defined(_MSC_VER) && !defined(__clang__)
#include <immintrin.h>
#include <intrin.h>
/* As the GNU branch: zeros for a leaf above the highest one the CPU has
 * (which would otherwise answer with the highest leaf's data). */
static void cpuid(unsigned leaf, unsigned sub, unsigned r[4])
{
    int v[4];
    r[0] = r[1] = r[2] = r[3] = 0;
    __cpuid(v, (int)(leaf & 0x80000000u));
    if (leaf > (unsigned)v[0])
        return;
    __cpuidex(v, (int)leaf, (int)sub);
    for (int i = 0; i < 4; i++)
        r[i] = (unsigned)v[i];
}
static unsigned xcr0(void) { return (unsigned)_xgetbv(0); }
#else
#include <cpuid.h>
static void cpuid(unsigned leaf, unsigned sub, unsigned r[4])
{
    r[0] = r[1] = r[2] = r[3] = 0;
    if (leaf <= (unsigned)__get_cpuid_max(leaf & 0x80000000u, NULL))
        __cpuid_count(leaf, sub, r[0], r[1], r[2], r[3]);
}
static unsigned xcr0(void)
{
    unsigned lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    (void)hi;
    return lo;
}
#endif

/* AVX needs the CPU flag and the OS saving the YMM state (XCR0 bits 1-2);
 * AVX-512F needs leaf 7 EBX bit 16 and the opmask and ZMM state (bits 5-7). */
static uint32_t x86_level(void)
{
    unsigned r[4];
    cpuid(1, 0, r);
    const unsigned osxsave = 1u << 27, avx = 1u << 28;
    if ((r[2] & (osxsave | avx)) != (osxsave | avx))
        return SGRT__LEVEL_X4;
    const unsigned x = xcr0();
    if ((x & 6u) != 6u)
        return SGRT__LEVEL_X4;
#if defined(SGRT_HAVE_AVX512_KERNEL)
    cpuid(7, 0, r);
    if ((r[1] & (1u << 16)) && (x & 0xE6u) == 0xE6u)
        return SGRT__LEVEL_AVX512;
#endif
    return SGRT__LEVEL_AVX;
}

/* AMD family 19h (Zen 3 and Zen 4): Zen 4 executes 512-bit operations as two
 * 256-bit halves (SGRT__CPU_SLOW_ZMM). */
static bool zmm_split_in_halves(void)
{
    unsigned r[4];
    cpuid(0, 0, r);
    const bool amd = r[1] == 0x68747541u && r[3] == 0x69746e65u && r[2] == 0x444d4163u;
    if (!amd)
        return false;
    cpuid(1, 0, r);
    const unsigned base = (r[0] >> 8) & 0xFu, ext = (r[0] >> 20) & 0xFFu;
    const unsigned family = base == 0xFu ? base + ext : base;
    return family == 0x19u;
}
#endif

/* The CPU's level (bits 0..7) and properties (8..30), asked of the CPU. */
static uint32_t ask_cpu(void)
{
#if defined(SGRT_HAVE_AVX_KERNEL)
    const uint32_t level = x86_level();
#else
    const uint32_t level = SGRT__LEVEL_X4;
#endif
    uint32_t props = 0;
#if defined(SGRT_HAVE_AVX512_KERNEL)
    if (level == SGRT__LEVEL_AVX512 && zmm_split_in_halves())
        props |= SGRT__CPU_SLOW_ZMM;
#endif
#if defined(SGRT_HAVE_AVX_KERNEL)
    if (level >= SGRT__LEVEL_AVX) { /* the YMM state is saved: x86_level */
        unsigned r[4];
        cpuid(7, 0, r);
        if (r[1] & (1u << 5))
            props |= SGRT__CPU_AVX2;
    }
#endif
    return level | props << 8;
}

#define CPU_KNOWN 0x80000000u
#if !defined(__STDC_NO_ATOMICS__) && ATOMIC_INT_LOCK_FREE == 2
static _Atomic uint32_t cpu_known;

static uint32_t cpu(void)
{
    uint32_t c = atomic_load_explicit(&cpu_known, memory_order_relaxed);
    if (!c) {
        c = ask_cpu() | CPU_KNOWN;
        atomic_store_explicit(&cpu_known, c, memory_order_relaxed);
    }
    return c;
}
#else
/* No C11 atomics: asked per call, correct and slow only where cpuid is. */
static uint32_t cpu(void) { return ask_cpu(); }
#endif

uint32_t sgrt__kernels_cpu_level(void) { return cpu() & 0xFFu; }

uint32_t sgrt__kernels_cpu_properties(void) { return (cpu() & ~CPU_KNOWN) >> 8; }

uint32_t sgrt__kernels_choose(uint32_t max_level, const char **why)
{
    const char *reason;
    uint32_t level = sgrt__kernels_cpu_level();
#if defined(SGRT_HAVE_AVX512_KERNEL)
    reason = level == SGRT__LEVEL_AVX512 ? "the CPU has AVX-512F"
             : level == SGRT__LEVEL_AVX  ? "the CPU has AVX but not AVX-512F"
                                         : "the CPU has no AVX";
    if (level == SGRT__LEVEL_AVX512 && (sgrt__kernels_cpu_properties() & SGRT__CPU_SLOW_ZMM))
        reason = "the CPU has AVX-512F, but runs 512-bit operations as two 256-bit halves "
                 "(AMD family 19h): the entries that slows keep their AVX versions";
#elif defined(SGRT_HAVE_AVX_KERNEL)
    reason = level == SGRT__LEVEL_AVX ? "the CPU has AVX (this build has no AVX-512 kernel)"
                                      : "the CPU has no AVX";
#else
    reason = "the widest kernel of this build";
#endif
#if defined(SGRT_DEFAULT_SCALAR) && SGRT_DEFAULT_SCALAR
    level = SGRT__LEVEL_SCALAR;
    reason = "built with -Dsimd=scalar";
#endif
    if (max_level && max_level < level) {
        level = max_level;
        reason = "lowered by sgrt_scene_desc.max_simd";
    }
    if (why)
        *why = reason;
    return level;
}

void sgrt__kernels_init_for(sgrt__kernels *k, uint32_t level, uint32_t cpu)
{
    const uint32_t top = sgrt__kernels_cpu_level();
    if (level > top)
        level = top;
    sgrt__kernels_init_ref(k);
    if (level >= SGRT__LEVEL_X4)
        sgrt__kernels_init_x4(k);
#if defined(SGRT_HAVE_AVX_KERNEL)
    if (level >= SGRT__LEVEL_AVX)
        sgrt__kernels_init_avx(k);
#endif
#if defined(SGRT_HAVE_XXH3_AVX2)
    if (level >= SGRT__LEVEL_AVX && (cpu & SGRT__CPU_AVX2)) {
        k->xxh3 = sgrt__xxh3_once_avx2;
        k->xxh3_update = sgrt__xxh3_update_avx2;
    }
#endif
#if defined(SGRT_HAVE_AVX512_KERNEL)
    if (level >= SGRT__LEVEL_AVX512)
        sgrt__kernels_init_avx512(k, cpu);
#else
    (void)cpu;
#endif
}

void sgrt__kernels_init(sgrt__kernels *k, uint32_t level)
{
    sgrt__kernels_init_for(k, level, sgrt__kernels_cpu_properties());
}

const char *sgrt__kernels_level_name(uint32_t level)
{
    sgrt__kernels k;
    sgrt__kernels_init(&k, level);
    return k.name;
}
