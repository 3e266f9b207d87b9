/* SPDX-License-Identifier: MIT */
/* Lists of node handles kept by the tests (see testutil.h). */
#include "testutil.h"

uint32_t pick_live(const sgrt_scene *s, const sgrt_node *h, uint32_t n, rng *r)
{
    for (int tries = 0; tries < 64 && n; tries++) {
        const uint32_t i = rng_below(r, n);
        if (sgrt_node_alive(s, h[i]))
            return i;
    }
    return UINT32_MAX;
}

uint32_t drop_dead(const sgrt_scene *s, sgrt_node *h, uint32_t n, uint32_t *from)
{
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (!sgrt_node_alive(s, h[i]))
            continue;
        if (from)
            from[k] = i;
        h[k++] = h[i];
    }
    return k;
}
