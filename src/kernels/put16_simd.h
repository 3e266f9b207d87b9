/* SPDX-License-Identifier: MIT */
/* The write path's matrix loops (kernels.h: check16, store16, put16),
 * written once for every kernel level. A kernel file defines, before
 * including it:
 *   PUT16_T              a matrix as the level holds it in registers
 *   PUT16_LOAD(m)        the 16 floats at m (unaligned) as a PUT16_T
 *   PUT16_FINITE(v)      whether every element of v is finite
 *   PUT16_STORE(dst, v)  v stored at dst where it differs from what dst
 *                        holds (bit for bit); whether it did
 * and gets static check16, store16 and put16, with the contracts of the
 * table's entries of the same names. */
static uint32_t check16(const float *m, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        const PUT16_T v = PUT16_LOAD(m + 16u * i);
        if (!PUT16_FINITE(v))
            return i;
    }
    return n;
}

static uint32_t store16(float (*local)[16], const uint32_t *slot, const float *m, uint32_t n,
                        uint32_t ahead)
{
    uint32_t changed = 0;
    for (uint32_t i = 0; i < n; i++) {
        SGRT__STORE_AHEAD(local, slot, i, n, ahead);
        const PUT16_T v = PUT16_LOAD(m + 16u * i);
        changed |= (uint32_t)PUT16_STORE(local[slot[i]], v) << i;
    }
    return changed;
}

static uint32_t put16(float *dst, const float *m)
{
    const PUT16_T v = PUT16_LOAD(m);
    if (!PUT16_FINITE(v))
        return SGRT__PUT_BAD;
    return PUT16_STORE(dst, v) ? SGRT__PUT_CHANGED : SGRT__PUT_SAME;
}
