/* SPDX-License-Identifier: MIT */
/* The snapshot section of the benchmark (snapshot.h). One scene, a
 * complete 4-ary tree created depth-first node by node (as the memory
 * table's "grown node by node"), through an allocator that counts the
 * bytes it holds; every timing is a round of five, interleaved, repeated:
 *
 *   memcpy    of the snapshot's bytes, buffer to buffer (the copy floor);
 *   snapshot  sgrt_scene_snapshot into a buffer of its size;
 *   restore   sgrt_scene_restore of it into the scene it came from, in
 *             place, after every node moved (a frame written and updated
 *             between: the rollback whose every world and local differs);
 *             and again right after (nothing differs: the best case);
 *   hash      sgrt_scene_hash;
 *   read      one pass summing the bytes the hash reads (148 per node, the
 *             record it hashes) from a buffer of that size.
 *
 * At 1M nodes every buffer is far larger than the last-level cache: each
 * pass goes to memory. Ratios are the medians of the rounds' ratios, with
 * their smallest and largest. */
#define _POSIX_C_SOURCE 200809L

#include "snapshot.h"
#include "platform.h"
#include "table.h"
#include "timing.h"

#include <sgrt.h>

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Node i's parent in level order is (i - 1) / 4, created depth-first. */
static bool build(sgrt_scene *s, uint32_t n, sgrt_node *h)
{
    uint32_t *stack = malloc((size_t)n * sizeof *stack);
    bool ok = stack != NULL;
    uint32_t sp = 0;
    if (ok)
        stack[sp++] = 0;
    while (ok && sp) {
        const uint32_t x = stack[--sp];
        ok = sgrt_node_create(s, x ? h[(x - 1u) / 4u] : SGRT_NULL_NODE, &h[x]) == SGRT_OK;
        const float m[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, (float)(x % 7u), 1, 0, 1};
        ok = ok && sgrt_node_set_local(s, h[x], m) == SGRT_OK;
        for (uint32_t c = 4; c >= 1; c--)
            if (4ull * x + c < n)
                stack[sp++] = 4u * x + c;
    }
    free(stack);
    return ok;
}

/* Every node moved: a new local for each, and the update. */
static void move_all(sgrt_scene *s, const sgrt_node *h, uint32_t n, uint32_t frame)
{
    for (uint32_t x = 0; x < n; x++) {
        const float m[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0,
                             (float)((x + frame) % 7u), 1, (float)frame, 1};
        BENCH_OK(sgrt_node_set_local(s, h[x], m));
    }
    (void)sgrt_scene_update(s);
}

/* What the compiler must not drop. */
static volatile uint64_t sink;

static uint64_t read_all(const uint64_t *p, size_t words)
{
    uint64_t a = 0, b = 0, c = 0, d = 0;
    size_t i = 0;
    for (; i + 4 <= words; i += 4) {
        a += p[i];
        b += p[i + 1];
        c += p[i + 2];
        d += p[i + 3];
    }
    for (; i < words; i++)
        a += p[i];
    return a + b + c + d;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

typedef struct spread {
    double median, lo, hi;
} spread;

static spread spread_of(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    const spread s = {n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]), v[0], v[n - 1]};
    return s;
}

enum { MEMCPY, SNAP, RESTORE, SAME, HASH, READ, TIMINGS };

bool bench_snapshot_run(FILE *out, bool quick)
{
    const uint32_t n = quick ? 100000u : 1000000u;
    const int rounds = quick ? 5 : 11;
    const double t_start = bench_now_ns();
    bench_held held = {0};
    const sgrt_allocator a = {bench_held_alloc, bench_held_free, &held};
    sgrt_scene_desc d = {0};
    d.allocator = &a;
    sgrt_scene *s = NULL;
    sgrt_node *h = malloc((size_t)n * sizeof *h);
    if (!h || sgrt_scene_create(&d, &s) != SGRT_OK || !build(s, n, h)) {
        fprintf(stderr, "snapshot: cannot build the %u-node tree\n", n);
        sgrt_scene_destroy(s);
        free(h);
        return false;
    }
    (void)sgrt_scene_update(s);
    const double held_per_node = (double)held.now / n;
    size_t bytes = 0;
    BENCH_OK(sgrt_scene_snapshot_size(s, &bytes));
    const size_t read_bytes = (size_t)n * 148u;
    uint8_t *buf = bench_aligned_alloc(64, bytes), *copy = bench_aligned_alloc(64, bytes);
    uint64_t *rd = bench_aligned_alloc(64, read_bytes);
    if (!buf || !copy || !rd) {
        fprintf(stderr, "snapshot: out of memory\n");
        free(h);
        bench_aligned_free(buf);
        bench_aligned_free(copy);
        bench_aligned_free(rd);
        sgrt_scene_destroy(s);
        return false;
    }
    memset(copy, 1, bytes);
    memset(rd, 2, read_bytes);
    size_t written = 0;
    BENCH_OK(sgrt_scene_snapshot(s, buf, bytes, &written));
    const uint64_t hash = sgrt_scene_hash(s);
    double t[TIMINGS][32], ratio[4][32];
    bool same = true;
    for (int r = 0; r < rounds; r++) {
        double t0 = bench_now_ns();
        memcpy(copy, buf, bytes);
        double t1 = bench_now_ns();
        t[MEMCPY][r] = t1 - t0;
        BENCH_OK(sgrt_scene_snapshot(s, buf, bytes, &written));
        t0 = bench_now_ns();
        t[SNAP][r] = t0 - t1;
        move_all(s, h, n, (uint32_t)r + 1u);
        t0 = bench_now_ns();
        BENCH_OK(sgrt_scene_restore(s, buf, bytes));
        t1 = bench_now_ns();
        t[RESTORE][r] = t1 - t0;
        BENCH_OK(sgrt_scene_restore(s, buf, bytes));
        t0 = bench_now_ns();
        t[SAME][r] = t0 - t1;
        const uint64_t got = sgrt_scene_hash(s);
        t1 = bench_now_ns();
        t[HASH][r] = t1 - t0;
        t0 = t1;
        sink = read_all(rd, read_bytes / 8u);
        t1 = bench_now_ns();
        t[READ][r] = t1 - t0;
        same = same && got == hash && memcmp(copy, buf, bytes) == 0;
        ratio[0][r] = t[SNAP][r] / t[MEMCPY][r];
        ratio[1][r] = t[RESTORE][r] / t[MEMCPY][r];
        ratio[2][r] = t[HASH][r] / t[READ][r];
        ratio[3][r] = t[SAME][r] / t[MEMCPY][r];
    }
    if (!same)
        fprintf(stderr, "snapshot: a restore changed the scene's hash or snapshot\n");
    const char *kernel = sgrt_scene_simd_name(s);
    fprintf(out,
            "\nsnapshots (a %u-node 4-ary tree created depth-first, one scene; %d rounds of memcpy,\n"
            "snapshot, a frame moving every node, restore, restore, hash and read interleaved;\n"
            "every buffer from memory)\n",
            n, rounds);
    fprintf(out, "  scene held %.1f bytes per node; snapshot %zu bytes, %.1f per node\n",
            held_per_node, bytes, (double)bytes / n);
    static const char *const names[TIMINGS] = {
        "memcpy of the snapshot's bytes", "sgrt_scene_snapshot",
        "sgrt_scene_restore, all moved since", "sgrt_scene_restore, nothing moved",
        "sgrt_scene_hash", "one read of 148 bytes per node"};
    fprintf(out, "  %-34s %9s %9s %9s  (ns per node: median, min, max)\n", "", "median", "min",
            "max");
    for (int k = 0; k < TIMINGS; k++) {
        double v[32];
        for (int r = 0; r < rounds; r++)
            v[r] = t[k][r] / n;
        const spread sp = spread_of(v, rounds);
        fprintf(out, "  %-34s %9.3f %9.3f %9.3f\n", names[k], sp.median, sp.lo, sp.hi);
    }
    const spread r2 = spread_of(ratio[0], rounds), r3 = spread_of(ratio[1], rounds),
                 r4 = spread_of(ratio[2], rounds), r3s = spread_of(ratio[3], rounds);
    fprintf(out, "targets (snapshots)\n");
    bench_target_line(out, "R1", "snapshot bytes per node / scene's held bytes, tree-1M",
                      quick ? nan("") : (double)bytes / n / held_per_node, 1.0, true, kernel);
    bench_target_line(out, "R2", "sgrt_scene_snapshot / memcpy of its bytes", r2.median, 1.5,
                      true, kernel);
    bench_target_line(out, "R3", "sgrt_scene_restore in place, all moved / memcpy", r3.median,
                      2.0, true, kernel);
    bench_target_line(out, "R3'", "sgrt_scene_restore in place, nothing moved / memcpy",
                      r3s.median, 2.0, true, kernel);
    bench_target_line(out, "R4", "sgrt_scene_hash / one read of the bytes it hashes", r4.median,
                      1.5, true, kernel);
    fprintf(out,
            "  spread over the rounds: R2 %.3f..%.3f, R3 %.3f..%.3f, R3' %.3f..%.3f, R4 %.3f..%.3f%s\n"
            "snapshot section: %.1f s\n",
            r2.lo, r2.hi, r3.lo, r3.hi, r3s.lo, r3s.hi, r4.lo, r4.hi,
            quick ? " (R1 is measured at 1M nodes: --snapshot-only without --quick)" : "",
            (bench_now_ns() - t_start) * 1e-9);
    bench_aligned_free(buf);
    bench_aligned_free(copy);
    bench_aligned_free(rd);
    sgrt_scene_destroy(s);
    free(h);
    return same && written == bytes;
}
