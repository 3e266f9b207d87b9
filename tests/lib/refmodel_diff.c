/* SPDX-License-Identifier: MIT */
/* The scene against the reference model (see testutil.h). */
#include "refmodel.h"
#include "testutil.h"

static int cmp_u32(const void *a, const void *b)
{
    const uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

const char *structure_diff(const sgrt_scene *s, const ref_model *m)
{
    static char why[160];
    const uint32_t n = ref_model_count(m);
    if (sgrt_scene_node_count(s) != n) {
        snprintf(why, sizeof why, "node count %u, model %u", (unsigned)sgrt_scene_node_count(s),
                 (unsigned)n);
        return why;
    }
    uint32_t *want = malloc((n + 1u) * sizeof *want), *got = malloc((n + 1u) * sizeof *got);
    if (!want || !got) {
        fprintf(stderr, "structure_diff: out of memory\n");
        abort();
    }
    const char *diff = NULL;
    for (uint32_t k = 0; k < n && !diff; k++) {
        const uint32_t id = ref_model_nth(m, k);
        const sgrt_node h = {id};
        sgrt_node p = SGRT_NULL_NODE;
        float l[16], ml[16];
        if (!sgrt_node_alive(s, h) || sgrt_node_parent(s, h, &p) != SGRT_OK) {
            snprintf(why, sizeof why, "node 0x%08x: not alive", (unsigned)id);
            diff = why;
        } else if (p.id != ref_model_parent(m, id)) {
            snprintf(why, sizeof why, "node 0x%08x: parent 0x%08x, model 0x%08x", (unsigned)id,
                     (unsigned)p.id, (unsigned)ref_model_parent(m, id));
            diff = why;
        } else {
            ref_model_local(m, id, ml);
            /* A local written in place that is not finite stands for the
             * identity the next update makes of it (and the model holds). */
            bool finite = true;
            const bool read = sgrt_node_local(s, h, l) == SGRT_OK;
            for (int e = 0; e < 16; e++)
                finite = finite && isfinite(l[e]);
            static const float identity[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
            if (read && !finite)
                memcpy(l, identity, sizeof l);
            if (!read || memcmp(l, ml, sizeof l) != 0) {
                snprintf(why, sizeof why, "node 0x%08x: local differs from the model",
                         (unsigned)id);
                diff = why;
                break;
            }
            const uint32_t nc = ref_model_children(m, id, want);
            uint32_t gc = 0;
            sgrt_node c;
            sgrt_result r = sgrt_node_first_child(s, h, &c);
            while (r == SGRT_OK && c.id != 0u && gc <= nc) {
                got[gc++] = c.id;
                r = sgrt_node_next_sibling(s, c, &c);
            }
            qsort(want, nc, sizeof *want, cmp_u32);
            qsort(got, gc, sizeof *got, cmp_u32);
            if (r != SGRT_OK || gc != nc || memcmp(want, got, nc * sizeof *want) != 0) {
                snprintf(why, sizeof why, "node 0x%08x: %u children, model %u (or other ones)",
                         (unsigned)id, (unsigned)gc, (unsigned)nc);
                diff = why;
            }
        }
    }
    free(want);
    free(got);
    return diff;
}

const char *worlds_diff(const sgrt_scene *s, const ref_model *m, uint32_t *max_depth)
{
    static char why[160];
    uint32_t deepest = 0;
    for (uint32_t k = 0; k < ref_model_count(m); k++) {
        const uint32_t id = ref_model_nth(m, k);
        float w[16];
        if (sgrt_node_world(s, (sgrt_node){id}, w) != SGRT_OK) {
            snprintf(why, sizeof why, "node 0x%08x: world unreadable", (unsigned)id);
            return why;
        }
        const double e = ref_model_world_error(m, id, w);
        const double tol = ref_model_world_tolerance(m, id);
        if (!(e <= tol)) {
            snprintf(why, sizeof why,
                     "node 0x%08x (depth %.0f): world off by %.3g units of u*|A|, tolerance %.3g",
                     (unsigned)id, (tol - 1) / 4, e, tol);
            return why;
        }
        const uint32_t d = (uint32_t)((tol - 1) / 4);
        if (d > deepest)
            deepest = d;
    }
    if (max_depth)
        *max_depth = deepest;
    return NULL;
}
