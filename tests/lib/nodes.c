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

uint32_t ids_by_slot(const sgrt_scene *s, uint32_t *ids, uint32_t n)
{
    uint32_t *slot = malloc((n ? n : 1u) * sizeof *slot);
    if (!slot) {
        fprintf(stderr, "ids_by_slot: out of memory\n");
        abort();
    }
    for (uint32_t i = 0; i < n; i++)
        slot[i] = slot_of(s, (sgrt_node){ids[i]});
    for (uint32_t i = 1; i < n; i++) /* insertion sort: a few dozen entries */
        for (uint32_t j = i; j > 0 && slot[j - 1] > slot[j]; j--) {
            const uint32_t t = slot[j], id = ids[j];
            slot[j] = slot[j - 1], ids[j] = ids[j - 1];
            slot[j - 1] = t, ids[j - 1] = id;
        }
    free(slot);
    uint32_t kept = 0;
    for (uint32_t i = 0; i < n; i++)
        if (kept == 0 || ids[kept - 1] != ids[i])
            ids[kept++] = ids[i];
    return kept;
}
