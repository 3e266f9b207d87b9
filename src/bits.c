/* SPDX-License-Identifier: MIT */
/* Packed bitfields (bits.h): setting ranges, counting, and the searches
 * for the next set or clear bit that skip whole words. */
#include "bits.h"

void sgrt__bits_set_range(uint32_t *w, uint32_t first, uint32_t count)
{
    while (count) {
        uint32_t i = first >> 5, lo = first & 31u;
        uint32_t n = 32u - lo < count ? 32u - lo : count;
        uint32_t m = (n == 32u ? ~0u : ((1u << n) - 1u)) << lo;
        w[i] |= m;
        first += n;
        count -= n;
    }
}

void sgrt__bits_clear_range(uint32_t *w, uint32_t first, uint32_t count)
{
    while (count) {
        uint32_t i = first >> 5, lo = first & 31u;
        uint32_t n = 32u - lo < count ? 32u - lo : count;
        uint32_t m = (n == 32u ? ~0u : ((1u << n) - 1u)) << lo;
        w[i] &= ~m;
        first += n;
        count -= n;
    }
}

uint32_t sgrt__bits_count(const uint32_t *w, uint32_t nwords)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < nwords; i++)
        n += sgrt__popcount32(w[i]);
    return n;
}

uint32_t sgrt__bits_next_set(const uint32_t *w, uint32_t nwords, uint32_t from)
{
    uint32_t wi = from >> 5;
    if (wi >= nwords)
        return nwords * 32u;
    uint32_t x = w[wi] & sgrt__mask_from(from & 31u);
    while (!x) {
        if (++wi >= nwords)
            return nwords * 32u;
        x = w[wi];
    }
    return wi * 32u + sgrt__ctz32(x);
}

uint32_t sgrt__bits_next_clear(const uint32_t *w, const uint32_t *full, uint32_t nwords,
                               uint32_t from)
{
    uint32_t wi = from >> 5;
    if (wi >= nwords)
        return nwords * 32u;
    uint32_t x = ~w[wi] & sgrt__mask_from(from & 31u);
    if (x)
        return wi * 32u + sgrt__ctz32(x);
    /* Skip whole full words through the summary: one summary word covers 32
     * words (1024 slots), so a long run of full storage costs little. */
    uint32_t j = wi + 1u;
    while (j < nwords) {
        uint32_t sw = j >> 5;
        uint32_t notfull = ~full[sw] & sgrt__mask_from(j & 31u);
        if (notfull) {
            uint32_t k = sw * 32u + sgrt__ctz32(notfull);
            if (k >= nwords)
                return nwords * 32u;
            return k * 32u + sgrt__ctz32(~w[k]);
        }
        j = (sw + 1u) * 32u;
    }
    return nwords * 32u;
}
