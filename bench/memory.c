/* SPDX-License-Identifier: MIT */
/* Memory per node (memory.h): a complete 4-ary tree created depth-first
 * through an allocator that counts the bytes held and their peak. */
#include "memory.h"
#include "platform.h"

#include <sgrt.h>

#include <stdlib.h>

#define BOUNDS_FLAGS (SGRT_SCENE_BOUNDS | SGRT_SCENE_SUBTREE_BOUNDS)

typedef struct counter {
    size_t now, peak;
} counter;

static void *count_alloc(size_t size, size_t align, void *user)
{
    counter *c = user;
    void *p = bench_aligned_alloc(align, size);
    if (p) {
        c->now += size;
        if (c->now > c->peak)
            c->peak = c->now;
    }
    return p;
}

static void count_free(void *ptr, size_t size, void *user)
{
    counter *c = user;
    if (ptr)
        c->now -= size;
    bench_aligned_free(ptr);
}

/* Node i's parent in level order is (i - 1) / 4; created depth-first, as a
 * loader creates them. */
static bool build(sgrt_scene *s, uint32_t n, sgrt_node *h, uint32_t *stack)
{
    uint32_t sp = 0;
    stack[sp++] = 0;
    while (sp) {
        const uint32_t x = stack[--sp];
        if (sgrt_node_create(s, x ? h[(x - 1u) / 4u] : SGRT_NULL_NODE, &h[x]) != SGRT_OK)
            return false;
        for (uint32_t c = 4; c >= 1; c--)
            if (4ull * x + c < n)
                stack[sp++] = 4u * x + c;
    }
    return true;
}

typedef struct shape {
    const char *what;
    bool reserve;
    uint32_t flags;
    bool handoff; /* a tracker, a node set and a writer over every node */
    bool compact; /* then sgrt_scene_compact */
} shape;

bool bench_memory_print(FILE *out, uint32_t n)
{
    static const shape shapes[] = {
        {"reserved up front (initial_capacity = nodes)", true, 0, false, false},
        {"grown node by node", false, 0, false, false},
        {"grown, then sgrt_scene_compact", false, 0, false, true},
        {"grown, SGRT_SCENE_PREV_WORLD", false, SGRT_SCENE_PREV_WORLD, false, false},
        {"grown, SGRT_SCENE_BOUNDS (a box on every node)", false, SGRT_SCENE_BOUNDS, false, false},
        {"grown, SGRT_SCENE_SUBTREE_BOUNDS (a box on every node)", false,
         SGRT_SCENE_SUBTREE_BOUNDS, false, false},
        {"grown, SGRT_SCENE_LARGE_WORLD", false, SGRT_SCENE_LARGE_WORLD, false, false},
        {"grown, SGRT_SCENE_INTERPOLATE", false, SGRT_SCENE_INTERPOLATE, false, false},
        {"grown, + a tracker, a node set and a writer of every node", false, 0, true, false},
    };
    sgrt_node *h = malloc((size_t)n * sizeof *h);
    uint32_t *stack = malloc((size_t)n * sizeof *stack);
    if (!h || !stack) {
        free(h);
        free(stack);
        return false;
    }
    fprintf(out, "\nmemory per node (bytes): a %u-node 4-ary tree created depth-first, every byte the\n"
                 "scene holds through its allocator (storage, handle table, trackers, sets, writers)\n",
            n);
    fprintf(out, "%-58s %9s %9s\n", "scene", "held", "peak");
    bool ok = true;
    for (size_t i = 0; ok && i < sizeof shapes / sizeof shapes[0]; i++) {
        const shape *sh = &shapes[i];
        counter c = {0, 0};
        const sgrt_allocator a = {count_alloc, count_free, &c};
        sgrt_scene_desc d = {0};
        d.allocator = &a;
        d.flags = sh->flags;
        d.initial_capacity = sh->reserve ? n : 0u;
        sgrt_scene *s = NULL;
        ok = sgrt_scene_create(&d, &s) == SGRT_OK && build(s, n, h, stack);
        static const float center[3] = {0, 0, 0}, half[3] = {1, 1, 1};
        for (uint32_t x = 0; ok && (sh->flags & BOUNDS_FLAGS) && x < n; x++)
            ok = sgrt_node_set_bounds(s, h[x], center, half) == SGRT_OK;
        if (ok && sh->handoff) {
            sgrt_tracker t;
            sgrt_nodeset set;
            sgrt_writer w;
            ok = sgrt_tracker_create(s, &t) == SGRT_OK && sgrt_nodeset_create(s, &set) == SGRT_OK &&
                 sgrt_writer_create(s, n, h, 0, &w) == SGRT_OK;
        }
        if (ok && sh->compact)
            ok = sgrt_scene_compact(s) == SGRT_OK;
        if (ok)
            fprintf(out, "%-58s %9.1f %9.1f\n", sh->what, (double)c.now / n, (double)c.peak / n);
        sgrt_scene_destroy(s);
    }
    free(h);
    free(stack);
    return ok;
}
