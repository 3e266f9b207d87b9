/* SPDX-License-Identifier: MIT */
/* Packed 32-bit bitfields: bit (i % 32) of word (i / 32) is element i. The
 * primitives (count trailing zeros, ranges, searches) and the walks every
 * bitfield loop of the library is written with. Self-contained. */
#ifndef SGRT_BITS_H
#define SGRT_BITS_H

#include <stdbool.h>
#include <stdint.h>
#if defined(_MSC_VER) && !defined(__clang__)
#include <intrin.h>
#endif

static inline unsigned sgrt__ctz32(uint32_t x) /* x != 0 */
{
#if defined(__GNUC__) || defined(__clang__)
    return (unsigned)__builtin_ctz(x);
#elif defined(_MSC_VER)
    unsigned long i;
    _BitScanForward(&i, x);
    return (unsigned)i;
#else
    unsigned n = 0;
    while (!(x & 1u)) { x >>= 1; n++; }
    return n;
#endif
}

static inline uint32_t sgrt__clz32(uint32_t x) /* x != 0 */
{
#if defined(__GNUC__) || defined(__clang__)
    return (uint32_t)__builtin_clz(x);
#elif defined(_MSC_VER)
    unsigned long i;
    _BitScanReverse(&i, x);
    return 31u - (uint32_t)i;
#else
    uint32_t n = 0;
    while (!(x & 0x80000000u)) { x <<= 1; n++; }
    return n;
#endif
}

static inline unsigned sgrt__popcount32(uint32_t x)
{
    /* The builtin where the target has the instruction; elsewhere it is a
     * library call, slower than the three steps below. */
#if (defined(__GNUC__) || defined(__clang__)) &&                                     \
    (defined(__POPCNT__) || defined(__aarch64__) || defined(__ARM_NEON))
    return (unsigned)__builtin_popcount(x);
#else
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    return (((x + (x >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24;
#endif
}

static inline bool sgrt__bit_get(const uint32_t *w, uint32_t i)
{
    return (w[i >> 5] >> (i & 31u)) & 1u;
}
static inline void sgrt__bit_set(uint32_t *w, uint32_t i) { w[i >> 5] |= 1u << (i & 31u); }
static inline void sgrt__bit_clear(uint32_t *w, uint32_t i) { w[i >> 5] &= ~(1u << (i & 31u)); }

/* Set / clear bit i of a bitfield whose summary `sum` has bit w set iff
 * word w is non-zero. */
static inline void sgrt__bit_set_sum(uint32_t *w, uint32_t *sum, uint32_t i)
{
    sgrt__bit_set(w, i);
    sgrt__bit_set(sum, i >> 5);
}
static inline void sgrt__bit_clear_sum(uint32_t *w, uint32_t *sum, uint32_t i)
{
    sgrt__bit_clear(w, i);
    if (!w[i >> 5])
        sgrt__bit_clear(sum, i >> 5);
}

/* Mask of bits [lo, 32) of a word, lo in 0..32. */
static inline uint32_t sgrt__mask_from(uint32_t lo) { return lo >= 32u ? 0u : ~0u << lo; }

/* The walks every loop over a bitfield uses. Each binds the names it is
 * given and runs the statements after them; `continue` inside the body moves
 * to the next element, `break` is not supported.
 *
 * SGRT__FOR_EACH_IN_WORD: each set bit of the word value `bits` (a variable,
 * consumed), lowest first, `i` = word_index * 32 + bit. */
#define SGRT__FOR_EACH_IN_WORD(word_index, bits, i, ...)                               \
    while (bits) {                                                                     \
        const uint32_t i = (word_index) * 32u + sgrt__ctz32(bits);                    \
        bits &= bits - 1u;                                                             \
        __VA_ARGS__                                                                    \
    }

/* SGRT__FOR_EACH_BIT: each set bit of words[0 .. nwords) in increasing
 * order, read-only. */
#define SGRT__FOR_EACH_BIT(words, nwords, i, ...)                                      \
    for (uint32_t fw_ = 0; fw_ < (nwords); fw_++) {                                    \
        uint32_t fb_ = (words)[fw_];                                                   \
        SGRT__FOR_EACH_IN_WORD(fw_, fb_, i, __VA_ARGS__)                               \
    }

/* SGRT__FOR_EACH_SUMMARIZED: each non-zero word of a two-level bitfield (bit
 * w of `sum` set iff words[w] != 0), among the words that summary words
 * [sum_first, sum_end) cover, in increasing order, binding `w` to its index
 * and `bits` to its value (a variable the body may consume). With `clear`
 * true, the summary and each visited word are zeroed as the walk passes. */
#define SGRT__FOR_EACH_SUMMARIZED(sum, sum_first, sum_end, words, clear, w, bits, ...) \
    for (uint32_t ss_ = (sum_first); ss_ < (sum_end); ss_++) {                         \
        uint32_t sb_ = (sum)[ss_];                                                     \
        if (!sb_)                                                                      \
            continue;                                                                  \
        if (clear)                                                                     \
            (sum)[ss_] = 0;                                                            \
        do {                                                                           \
            const uint32_t w = ss_ * 32u + sgrt__ctz32(sb_);                           \
            sb_ &= sb_ - 1u;                                                           \
            uint32_t bits = (words)[w];                                                \
            if (clear)                                                                 \
                (words)[w] = 0;                                                        \
            __VA_ARGS__                                                                \
        } while (sb_);                                                                 \
    }

/* Set or clear bits [first, first + count). */
void sgrt__bits_set_range(uint32_t *w, uint32_t first, uint32_t count);
void sgrt__bits_clear_range(uint32_t *w, uint32_t first, uint32_t count);
uint32_t sgrt__bits_count(const uint32_t *w, uint32_t nwords);

/* First set bit at index >= from among nwords words; returns nwords*32 if none. */
uint32_t sgrt__bits_next_set(const uint32_t *w, uint32_t nwords, uint32_t from);

/* First clear bit >= from in `w`, guided by `full` (bit j set iff w[j] is all
 * ones), nwords words. Returns nwords*32 if none. */
uint32_t sgrt__bits_next_clear(const uint32_t *w, const uint32_t *full, uint32_t nwords,
                               uint32_t from);

#endif
