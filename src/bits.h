/* Packed 32-bit bitfields: bit (i % 32) of word (i / 32) is element i. */
#ifndef SGRT_BITS_H
#define SGRT_BITS_H

#include <stdbool.h>
#include <stdint.h>

static inline unsigned sgrt__ctz32(uint32_t x) /* x != 0 */
{
#if defined(__GNUC__) || defined(__clang__)
    return (unsigned)__builtin_ctz(x);
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
#else
    uint32_t n = 0;
    while (!(x & 0x80000000u)) { x <<= 1; n++; }
    return n;
#endif
}

static inline unsigned sgrt__popcount32(uint32_t x)
{
#if defined(__GNUC__) || defined(__clang__)
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

/* Mask of bits [lo, 32) of a word, lo in 0..32. */
static inline uint32_t sgrt__mask_from(uint32_t lo) { return lo >= 32u ? 0u : ~0u << lo; }

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
