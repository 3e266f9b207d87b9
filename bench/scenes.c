/* SPDX-License-Identifier: MIT */
#include "scenes.h"
#include "platform.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

uint64_t bench_rng_next(bench_rng *r)
{
    /* splitmix64: good enough to pick nodes, and identical on every platform */
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

uint32_t bench_rng_below(bench_rng *r, uint32_t bound)
{
    return (uint32_t)(((bench_rng_next(r) >> 32) * (uint64_t)bound) >> 32);
}

static bool topo_alloc(bench_topo *t, uint32_t n)
{
    memset(t, 0, sizeof *t);
    t->parent = malloc((size_t)n * sizeof *t->parent);
    if (!t->parent)
        return false;
    t->n = n;
    t->anim_first = n;
    return true;
}

static void topo_depth(bench_topo *t)
{
    uint32_t *d = malloc((size_t)t->n * sizeof *d);
    uint32_t maxd = 0;
    if (!d)
        return;
    for (uint32_t i = 0; i < t->n; i++) {
        d[i] = t->parent[i] < 0 ? 0 : d[t->parent[i]] + 1;
        if (d[i] > maxd)
            maxd = d[i];
    }
    t->max_depth = maxd;
    free(d);
}

bool bench_topo_tree4(bench_topo *t, uint32_t n, bool level_order)
{
    if (n == 0 || !topo_alloc(t, n))
        return false;
    if (level_order) {
        for (uint32_t i = 0; i < n; i++)
            t->parent[i] = i == 0 ? -1 : (int32_t)((i - 1) / 4);
        goto named;
    }
    uint32_t *newid = malloc((size_t)n * sizeof *newid);
    uint32_t *stack = malloc((size_t)n * sizeof *stack);
    if (!newid || !stack) {
        free(newid);
        free(stack);
        bench_topo_free(t);
        return false;
    }
    /* Level-order index b has children 4b+1..4b+4; walk it depth-first. */
    uint32_t sp = 0, next = 0;
    stack[sp++] = 0;
    while (sp) {
        uint32_t b = stack[--sp];
        newid[b] = next;
        t->parent[next] = b == 0 ? -1 : (int32_t)newid[(b - 1) / 4];
        next++;
        for (uint32_t c = 4; c >= 1; c--) {
            uint64_t child = 4ull * b + c;
            if (child < n)
                stack[sp++] = (uint32_t)child;
        }
    }
    free(newid);
    free(stack);
named:
    if (n >= 1000000u && n % (1u << 20) == 0)
        snprintf(t->name, sizeof t->name, "tree-%uM", n >> 20);
    else if (n % 1000u == 0)
        snprintf(t->name, sizeof t->name, "tree-%uK", n / 1000u);
    else
        snprintf(t->name, sizeof t->name, "tree-%uK", n >> 10);
    topo_depth(t);
    return true;
}

bool bench_topo_chain(bench_topo *t, uint32_t n)
{
    if (n == 0 || !topo_alloc(t, n))
        return false;
    for (uint32_t i = 0; i < n; i++)
        t->parent[i] = (int32_t)i - 1;
    snprintf(t->name, sizeof t->name, "chain-%uK", n >> 10);
    t->max_depth = n - 1;
    return true;
}

bool bench_topo_game(bench_topo *t, uint32_t zones, uint32_t clusters, uint32_t props,
                     uint32_t characters, uint64_t seed)
{
    const uint32_t level = 1 + zones * (1 + clusters * (1 + props));
    const uint32_t n = level + characters * 60u; /* upper bound; trimmed below */
    bench_rng rng = {seed};
    if (zones == 0 || !topo_alloc(t, n))
        return false;
    uint32_t *zone_id = malloc((size_t)zones * sizeof *zone_id);
    if (!zone_id) {
        bench_topo_free(t);
        return false;
    }
    uint32_t next = 0;
    t->parent[next++] = -1;
    for (uint32_t z = 0; z < zones; z++) {
        uint32_t zid = next;
        zone_id[z] = zid;
        t->parent[next++] = 0;
        for (uint32_t c = 0; c < clusters; c++) {
            uint32_t cid = next;
            t->parent[next++] = (int32_t)zid;
            for (uint32_t p = 0; p < props; p++)
                t->parent[next++] = (int32_t)cid;
        }
    }
    t->anim_first = next;
    /* Skeleton-like: mostly extend the previous bone (limbs are chains),
     * sometimes branch from any earlier bone of the same character. */
    for (uint32_t ch = 0; ch < characters; ch++) {
        uint32_t size = 20 + bench_rng_below(&rng, 41);
        uint32_t first = next;
        t->parent[next++] = (int32_t)zone_id[bench_rng_below(&rng, zones)];
        for (uint32_t j = 1; j < size; j++) {
            uint32_t p = bench_rng_below(&rng, 10) < 6 ? next - 1
                                                       : first + bench_rng_below(&rng, j);
            t->parent[next++] = (int32_t)p;
        }
    }
    free(zone_id);
    t->n = next;
    snprintf(t->name, sizeof t->name, "game-%uK", (next + 512) >> 10);
    topo_depth(t);
    return true;
}

void bench_topo_free(bench_topo *t)
{
    free(t->parent);
    memset(t, 0, sizeof *t);
}

/* Uniform in [-1, 1). */
static double rng_signed(bench_rng *rng)
{
    return (double)(bench_rng_next(rng) >> 11) * 0x1p-53 * 2.0 - 1.0;
}

/* Unit quaternion, uniform over rotations (rejection from the 4-ball). */
static void rng_quat(bench_rng *rng, double q[4])
{
    double len;
    do {
        len = 0;
        for (int k = 0; k < 4; k++) {
            q[k] = rng_signed(rng);
            len += q[k] * q[k];
        }
    } while (len < 1e-3 || len > 1.0);
    len = sqrt(len);
    for (int k = 0; k < 4; k++)
        q[k] /= len;
}

float (*bench_mat_pool(uint32_t count, uint64_t seed))[16]
{
    float (*pool)[16] = bench_aligned_alloc(64, (size_t)count * sizeof *pool);
    bench_rng rng = {seed};
    if (!pool)
        return NULL;
    for (uint32_t i = 0; i < count; i++) {
        double q[4];
        rng_quat(&rng, q);
        const double x = q[0], y = q[1], z = q[2], w = q[3];
        float *m = pool[i];
        m[0] = (float)(1 - 2 * (y * y + z * z));
        m[1] = (float)(2 * (x * y + z * w));
        m[2] = (float)(2 * (x * z - y * w));
        m[3] = 0.0f;
        m[4] = (float)(2 * (x * y - z * w));
        m[5] = (float)(1 - 2 * (x * x + z * z));
        m[6] = (float)(2 * (y * z + x * w));
        m[7] = 0.0f;
        m[8] = (float)(2 * (x * z + y * w));
        m[9] = (float)(2 * (y * z - x * w));
        m[10] = (float)(1 - 2 * (x * x + y * y));
        m[11] = 0.0f;
        for (int k = 0; k < 3; k++)
            m[12 + k] = (float)rng_signed(&rng);
        m[15] = 1.0f;
    }
    return pool;
}

void bench_mat_pool_free(float (*pool)[16])
{
    bench_aligned_free(pool);
}

bool bench_trs_pool_init(bench_trs_pool *p, uint32_t count, uint64_t seed)
{
    bench_rng rng = {seed};
    p->t = malloc((size_t)count * sizeof *p->t);
    p->q = malloc((size_t)count * sizeof *p->q);
    p->s = malloc((size_t)count * sizeof *p->s);
    if (!p->t || !p->q || !p->s) {
        bench_trs_pool_free(p);
        return false;
    }
    for (uint32_t i = 0; i < count; i++) {
        double q[4];
        rng_quat(&rng, q);
        for (int k = 0; k < 4; k++)
            p->q[i][k] = (float)q[k];
        for (int k = 0; k < 3; k++) {
            p->t[i][k] = (float)rng_signed(&rng);
            p->s[i][k] = (float)exp(rng_signed(&rng) * log(1.25));
        }
    }
    return true;
}

void bench_trs_matrix_d(const float t[3], const float q[4], const float s[3], double m[16])
{
    const double x = q[0], y = q[1], z = q[2], w = q[3];
    const double r[16] = {(1 - 2 * (y * y + z * z)) * s[0], 2 * (x * y + w * z) * s[0],
                          2 * (x * z - w * y) * s[0], 0,
                          2 * (x * y - w * z) * s[1], (1 - 2 * (x * x + z * z)) * s[1],
                          2 * (y * z + w * x) * s[1], 0,
                          2 * (x * z + w * y) * s[2], 2 * (y * z - w * x) * s[2],
                          (1 - 2 * (x * x + y * y)) * s[2], 0,
                          t[0], t[1], t[2], 1};
    memcpy(m, r, sizeof r);
}

void bench_trs_pool_free(bench_trs_pool *p)
{
    free(p->t);
    free(p->q);
    free(p->s);
    memset(p, 0, sizeof *p);
}
