/* Combine kernels: a table that the plain C reference fills and each SIMD
 * implementation provides in full. Every implementation computes each output
 * element as (a0*b0 + a1*b1) + (a2*b2 + a3*b3), every product and sum rounded
 * to single precision, no fused multiply-add: the results are bit-identical
 * across kernels (up to NaN payloads; on ARMv7 NEON, which always flushes denormal
 * operands and tiny results to zero, any element whose computation reads or
 * produces a denormal may differ: docs/porting.md). The pairwise order is chosen over a running sum because it
 * shortens the dependency chain from parent to child by one addition, which is
 * what bounds a deep hierarchy. */
#ifndef SGRT_KERNELS_H
#define SGRT_KERNELS_H

#include <stdbool.h>
#include <stdint.h>

#include "bits.h"

/* The arrays the update pass reads and writes. */
typedef struct sgrt__update_view {
    const float (*local)[16];
    float (*world)[16];
    const uint32_t *parent;
    uint32_t *dirty;     /* cleared as it goes */
    uint32_t *dirty_sum; /* cleared as it goes */
    uint32_t sum_words;
} sgrt__update_view;

/* The walk every update pass shares: each set bit of v->dirty in increasing
 * slot order, found through the summary, both levels cleared as it goes.
 * Runs the statements given after `slot` with `slot` bound to the slot.
 * A macro rather than a function so that each kernel's body is inlined into
 * the loop with its register state. */
#define SGRT__FOR_EACH_DIRTY(v, slot, ...)                                       \
    for (uint32_t si_ = 0; si_ < (v)->sum_words; si_++) {                        \
        uint32_t sb_ = (v)->dirty_sum[si_];                                      \
        if (!sb_)                                                                \
            continue;                                                            \
        (v)->dirty_sum[si_] = 0;                                                 \
        do {                                                                     \
            const uint32_t wi_ = si_ * 32u + sgrt__ctz32(sb_);                   \
            sb_ &= sb_ - 1u;                                                     \
            uint32_t bits_ = (v)->dirty[wi_];                                    \
            (v)->dirty[wi_] = 0;                                                 \
            while (bits_) {                                                      \
                const uint32_t slot = wi_ * 32u + sgrt__ctz32(bits_);            \
                bits_ &= bits_ - 1u;                                             \
                __VA_ARGS__                                                      \
            }                                                                    \
        } while (sb_);                                                           \
    }

typedef struct sgrt__kernels {
    const char *name;
    /* out = a x b (column-major 4x4). out may alias neither a nor b. */
    void (*mul)(const float *a, const float *b, float *out);
    /* n independent products: out[i] = a[i] x b[i] (benchmarks, tests). */
    void (*mul_batch)(const float (*a)[16], const float (*b)[16], float (*out)[16], uint32_t n);
    /* The per-frame pass: recompute world of every dirty slot, clear dirty
     * bits and summary; returns the count. Roots (parent == SGRT__NONE) copy. */
    uint32_t (*update)(const sgrt__update_view *v);
} sgrt__kernels;

extern const sgrt__kernels sgrt__kernels_ref;   /* always compiled */
extern const sgrt__kernels sgrt__kernels_simde; /* SIMDe, 4-wide */
#if defined(SGRT_HAVE_AVX_KERNEL)
extern const sgrt__kernels sgrt__kernels_avx; /* SIMDe on AVX, 8-wide; x86 only */
#endif
#if defined(SGRT_HAVE_AVX512_KERNEL)
extern const sgrt__kernels sgrt__kernels_avx512; /* SIMDe on AVX-512F, 16-wide; x86 only */
#endif

/* Every table this build has that the running CPU can execute, best last;
 * returns the count (at most max). The reference is always first. */
uint32_t sgrt__kernels_available(const sgrt__kernels **out, uint32_t max);

/* The table a new scene uses: chosen at build time (-Dsimd). */
const sgrt__kernels *sgrt__kernels_default(void);

#endif
