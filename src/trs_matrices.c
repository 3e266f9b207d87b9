/* SPDX-License-Identifier: MIT */
/* sgrt_trs_to_matrices: the batch writes' TRS conversion, for a caller that
 * puts the matrices where it wants them (a writer's locals in place, its own
 * buffers). It has no scene to take a kernel from, so it keeps the library's
 * one piece of process-wide state: the `trs` entry of the table a default
 * scene gets, chosen on the first call and cached in one atomic pointer.
 *
 * Why a cache and not a question to the CPU per call: cpuid traps into the
 * hypervisor in a virtual machine, and the choice (sgrt__kernels_choose,
 * then sgrt__kernels_init, which asks again for the CPU's properties)
 * measured about 18 us there, against a few ns for the conversion of one
 * matrix. Why it is thread-safe without a lock: the value is a constant of
 * the process (one CPU, one build), so threads that race to fill it store
 * the same pointer, and a thread that reads NULL just computes it too. The
 * pointer publishes code only, which was mapped before anything here ran:
 * relaxed ordering suffices. */
#include "internal.h"
#include "trs_matrices.h"

/* The kernel's index arithmetic is 32-bit (out + 16u * i): calls of at most
 * this many entries keep it from wrapping, whatever count the caller gives. */
#define TRS_CHUNK (1u << 16)

/* Out of line: the calls after the first do not pay for its frame. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((cold, noinline))
#endif
static sgrt__trs_fn choose_kernel(void)
{
    sgrt__kernels k;
    sgrt__kernels_init(&k, sgrt__kernels_choose(0, NULL));
    return k.trs;
}

#if !defined(__STDC_NO_ATOMICS__)
#include <stdatomic.h>
#endif

#if !defined(__STDC_NO_ATOMICS__) && ATOMIC_POINTER_LOCK_FREE == 2
static _Atomic(sgrt__trs_fn) trs_kernel;

static inline sgrt__trs_fn kept_kernel(void)
{
    sgrt__trs_fn f = atomic_load_explicit(&trs_kernel, memory_order_relaxed);
    if (!f) {
        f = choose_kernel();
        atomic_store_explicit(&trs_kernel, f, memory_order_relaxed);
    }
    return f;
}
#else
/* No C11 atomics (MSVC without /experimental:c11atomics), or pointers
 * that are not always lock-free (which would call libatomic): no cache,
 * the choice per call. Correct, and slow only where cpuid is (x86). */
static inline sgrt__trs_fn kept_kernel(void) { return choose_kernel(); }
#endif

/* Counts past one chunk, out of line: the loop's registers would
 * otherwise be saved by every call, where one chunk is almost all of them
 * (1.5 ns over the kernel for one entry, against 2.3 ns with the loop
 * inline). */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static void run_chunks(sgrt__trs_fn trs, uint32_t count, const float *t, const float *q,
                       const float *scale, float *out)
{
    for (size_t i = 0; i < count; i += TRS_CHUNK) {
        const uint32_t left = count - (uint32_t)i;
        trs(t + 3u * i, q + 4u * i, scale + 3u * i, out + 16u * i,
            left < TRS_CHUNK ? left : TRS_CHUNK);
    }
}

static inline void run(sgrt__trs_fn trs, uint32_t count, const float *t, const float *q,
                       const float *scale, float *out)
{
    if (count <= TRS_CHUNK)
        trs(t, q, scale, out, count);
    else
        run_chunks(trs, count, t, q, scale, out);
}

sgrt__trs_fn sgrt__trs_matrices_kernel(void) { return kept_kernel(); }

void sgrt__trs_to_matrices_run(sgrt__trs_fn trs, uint32_t count, const float *t, const float *q,
                               const float *scale, float *out)
{
    run(trs, count, t, q, scale, out);
}

sgrt_result sgrt_trs_to_matrices(uint32_t count, const float *t, const float *q,
                                 const float *scale, float *out)
{
    if (count == 0)
        return SGRT_OK;
    if (!t || !q || !scale || !out)
        return SGRT_ERR_INVALID_ARG;
    run(kept_kernel(), count, t, q, scale, out);
    return SGRT_OK;
}
