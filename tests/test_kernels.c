/* SPDX-License-Identifier: MIT */
/* Every entry of the kernel table against the plain C reference, checkasm's
 * way: one table (KERNEL_ENTRIES) names each entry with its test and its
 * timed pass. The table is filled at each level this machine runs (the same
 * path a scene takes, with the level lowered), and each entry whose
 * function that level brings (one the level below did not have) is
 * compared with the reference on random and edge inputs: products, whole
 * update passes over random forests (with world boxes), the write path's
 * chunks and single writes, TRS conversions and their check, the closure
 * of dirty words, world boxes of awkward worlds, culls of 1 to 8 planes,
 * skinning palettes, XXH3 against xxHash's own;
 * each level the CPU runs must bring one. The reference itself is checked
 * on what is known without another kernel: products known exactly, its
 * world boxes against the exact box (boundsutil.h's expansion arithmetic),
 * its cull against the definition. `test_kernels --bench` then times each
 * entry at each level the CPU runs. The bound is 0 ULP:
 * all kernels evaluate the same products and sums in the same order without
 * contraction, so results must be bit-identical. Two exceptions are allowed
 * and compared separately: NaN results only need to be NaN on both sides
 * (payloads are not portable), and a NEON kernel on 32-bit ARM, which
 * flushes denormal operands and tiny results to zero, is compared with the
 * model of that behaviour in tests/ports/armv7_neon_model.h instead. */
#define _POSIX_C_SOURCE 200809L
#include "internal.h"
#include "dirty.h"
#include "testutil.h"
#include "boundsutil.h"
#include "ports/armv7_neon_model.h"
#include <float.h>
#include <stdlib.h>
#define XXH_INLINE_ALL
#include <xxhash.h>
#include <time.h>

/* What a kernel must reproduce: the reference, or on 32-bit ARM, for a kernel
 * that runs on NEON (which always flushes denormals to zero), the model of
 * NEON arithmetic. Anywhere else a flushing kernel is an error. */
static sgrt__kernels reference;

static const sgrt__kernels *expected_for(const sgrt__kernels *k)
{
#if defined(__arm__) && !defined(__aarch64__)
    if (kernel_flushes_denormals(k))
        return armv7_neon_model();
#else
    (void)k;
#endif
    return &reference;
}


static bool same_float(float a, float b)
{
    if (isnan(a) || isnan(b))
        return isnan(a) && isnan(b);
    return float_bits(a) == float_bits(b);
}

/* Elements compared between two implementations, and those that differed. */
static long compared, mismatches;

static void compare16(const float *got, const float *want, const char *what)
{
    for (int i = 0; i < 16; i++) {
        compared++;
        if (!same_float(got[i], want[i])) {
            if (++mismatches <= 10)
                fprintf(stderr, "%s: element %d: got %a (0x%08x), reference %a (0x%08x)\n", what,
                        i, (double)got[i], float_bits(got[i]), (double)want[i],
                        float_bits(want[i]));
        }
    }
}

static const float edge_values[] = {
    0.0f, -0.0f, 1.0f, -1.0f, 0.5f, 2.0f, 3.0e38f, -3.0e38f, FLT_MAX, -FLT_MAX, FLT_MIN,
    -FLT_MIN, 1.0e-40f /* denormal */, -1.0e-45f, 1.0e20f, 1.0e-20f, INFINITY, -INFINITY, NAN,
    16777216.0f, 16777217.0f, 0.1f, 1.0f / 3.0f,
};
#define N_EDGE (sizeof edge_values / sizeof edge_values[0])

static const float element_values[4] = {0.0f, -0.0f, 1.0f, -1.0f};
#define N_MODES 4

static void random_matrix(rng *r, float *m, int mode)
{
    for (int i = 0; i < 16; i++) {
        switch (mode) {
        case 0: m[i] = rng_float(r, -4.0f, 4.0f); break;
        case 1: /* wide exponent range: rounding differences would show */
            m[i] = ldexpf(rng_float(r, -1.0f, 1.0f), (int)rng_below(r, 120) - 60);
            break;
        case 2: m[i] = edge_values[rng_below(r, N_EDGE)]; break;
        default: { /* element by element from 0, -0, 1, -1 and random: the
                    * constants a kernel compares with (an affine last row,
                    * an identity) come out exactly, in every combination */
            const uint32_t e = rng_below(r, 5);
            m[i] = e < 4 ? element_values[e] : rng_float(r, -4.0f, 4.0f);
            break;
        }
        }
    }
}

#define N_RANDOM 120000

/* Products known exactly: a translation chain, with a scale. */
static void test_mul_known(void (*mul)(const float *a, const float *b, float *out))
{
    float t1[16], t2[16], got[16];
    translation(1.0f, 2.0f, 3.0f, t1);
    translation(10.0f, 0.0f, 0.0f, t2);
    t2[0] = 2.0f; /* scale x by 2, then translate */
    mul(t1, t2, got);
    CHECK(got[12] == 11.0f && got[13] == 2.0f && got[14] == 3.0f && got[0] == 2.0f &&
          got[15] == 1.0f && got[3] == 0.0f);
    mul(t2, t1, got);
    CHECK(got[12] == 12.0f && got[13] == 2.0f && got[14] == 3.0f);
}

static void test_mul(const sgrt__kernels *k)
{
    const sgrt__kernels *ref = expected_for(k);
    rng r = {0xC0FFEE};
    float a[16], b[16], got[16], want[16];
    for (int i = 0; i < N_RANDOM; i++) {
        random_matrix(&r, a, i % N_MODES);
        random_matrix(&r, b, (i / N_MODES) % N_MODES);
        ref->mul(a, b, want);
        k->mul(a, b, got);
        compare16(got, want, k->name);
    }
    /* Every edge value in every position of either operand. */
    for (size_t e = 0; e < N_EDGE; e++)
        for (int pos = 0; pos < 16; pos++) {
            random_matrix(&r, a, 0);
            random_matrix(&r, b, 0);
            a[pos] = edge_values[e];
            ref->mul(a, b, want);
            k->mul(a, b, got);
            compare16(got, want, k->name);
            b[(pos + 5) % 16] = edge_values[(e + 7) % N_EDGE];
            ref->mul(a, b, want);
            k->mul(a, b, got);
            compare16(got, want, k->name);
        }
    test_mul_known(k->mul);
}

/* Integer operations: every kernel's answer and stores must be the
 * reference's exactly (NaN payloads included). */
static void same_bits(const float *got, const float *want, uint32_t n, const char *what)
{
    compared += (long)n;
    if (memcmp(got, want, n * sizeof(float)) != 0 && ++mismatches <= 10)
        fprintf(stderr, "%s: the bits differ from the reference's\n", what);
}

/* A random forest in topological order with a dirty set closed over
 * descendants; the expected kernel and k update copies of it and must agree
 * exactly. When k is the expected kernel, only its own counts and cleared
 * bits are checked. */
static void test_update_shape(const sgrt__kernels *k, int shape, bool large)
{
    enum { N = 4096, W = N / 32, SW = (W + 31) / 32 };
    /* A large world (SGRT_SCENE_LARGE_WORLD): roots anchored up to 10^9 away
     * from an origin of the same size, one in 4 at the origin itself (its
     * world is its local bit for bit), about one root local in 3 affine. */
    static double anchor[N][3];
    const double origin[3] = {1.0e9 + 0.25, -3.0e8, 7.5e5};
    /* 64-byte aligned like the scene's arrays; a copy of the locals per
     * kernel, as the pass repairs the non-finite ones it reads. */
    float(*l1)[16] = test_aligned_alloc(64, sizeof(float[N][16]));
    float(*l2)[16] = test_aligned_alloc(64, sizeof(float[N][16]));
    float(*w1)[16] = test_aligned_alloc(64, sizeof(float[N][16]));
    float(*w2)[16] = test_aligned_alloc(64, sizeof(float[N][16]));
    uint32_t parent[N], d1[W], d2[W], s1[SW], s2[SW];
    bool bad[N], was_dirty[N];
    rng r = {(uint64_t)shape + 1000u};
    memset(d1, 0, sizeof d1);
    memset(s1, 0, sizeof s1);
    uint32_t expected = 0, repairs = 0, first_repair = SGRT__NONE;
    for (uint32_t i = 0; i < N; i++) {
        if (shape == 0) /* chains: parent is the previous slot (register fast path) */
            parent[i] = (i % 700 == 0) ? SGRT__NONE : i - 1u;
        else if (shape == 1) /* 4-ary tree in breadth-first order */
            parent[i] = i == 0 ? SGRT__NONE : (i - 1u) / 4u;
        else if (shape == 2) /* random forest */
            parent[i] = (i == 0 || rng_below(&r, 50) == 0) ? SGRT__NONE : rng_below(&r, i);
        else /* roots only, every one dirty: each kernel's root path, anchored or not */
            parent[i] = SGRT__NONE;
        /* wide exponents, or element by element (one local in 3; every
         * root's local in shape 3, so that a last row the kernel takes for
         * affine by mistake shows: (0, 1, 0, 1) comes one time in 160) */
        random_matrix(&r, l1[i], shape == 3 || rng_below(&r, 3) == 0 ? 3 : 1);
        for (int a = 0; a < 3; a++)
            anchor[i][a] = rng_below(&r, 4) == 0 ? origin[a]
                                                 : origin[a] + (double)rng_float(&r, -1.0f, 1.0f) * 1.0e9;
        if (large && rng_below(&r, 3) == 0) {
            l1[i][3] = l1[i][7] = l1[i][11] = rng_below(&r, 2) ? 0.0f : -0.0f;
            l1[i][15] = 1.0f;
            if (rng_below(&r, 4) == 0) /* kept as -0 where the offset is zero */
                l1[i][12 + rng_below(&r, 3)] = -0.0f;
        }
        /* A local written in place with a NaN or an infinity, one in 40:
         * the pass makes the identity of those it reads, and counts them. */
        static const float nonfinite[3] = {NAN, INFINITY, -INFINITY};
        bad[i] = rng_below(&r, 40) == 0;
        if (bad[i])
            l1[i][rng_below(&r, 16)] = nonfinite[rng_below(&r, 3)];
        random_matrix(&r, w1[i], 0);
        const bool pd = parent[i] != SGRT__NONE && sgrt__bit_get(d1, parent[i]);
        was_dirty[i] = pd || shape == 3 || rng_below(&r, 10) == 0;
        if (was_dirty[i]) {
            sgrt__bit_set(d1, i);
            sgrt__bit_set(s1, i / 32u);
            expected++;
            if (bad[i] && repairs++ == 0)
                first_repair = i;
        }
    }
    memcpy(l2, l1, sizeof(float[N][16]));
    memcpy(w2, w1, sizeof(float[N][16]));
    memcpy(d2, d1, sizeof d1);
    memcpy(s2, s1, sizeof s1);
    uint32_t r1[2] = {0, SGRT__NONE}, r2[2] = {0, SGRT__NONE};
    const double(*anchors)[3] = large ? (const double(*)[3])anchor : NULL;
    sgrt__update_view v1 = {l1, w1, parent, d1, s1, 0, SW, NULL, r1, anchors, origin, NULL};
    sgrt__update_view v2 = {l2, w2, parent, d2, s2, 0, SW, NULL, r2, anchors, origin, NULL};
    const bool other = k->update != expected_for(k)->update;
    CHECK_EQ_U(expected_for(k)->update(&v1), expected);
    CHECK_EQ_U(r1[0], repairs);
    CHECK_EQ_U(r1[1], first_repair);
    /* Repaired exactly where read: every dirty one is the identity now,
     * every clean one untouched. */
    for (uint32_t i = 0; i < N; i++) {
        if (bad[i])
            CHECK(was_dirty[i] ? memcmp(l1[i], sgrt__identity, sizeof sgrt__identity) == 0
                               : !sgrt__finite16(l1[i]));
    }
    for (uint32_t i = 0; i < W; i++)
        CHECK(d1[i] == 0);
    for (uint32_t i = 0; i < SW; i++)
        CHECK(s1[i] == 0);
    /* Roots against translate(anchor - origin) x local written out here:
     * an affine local moves its translation by the offset, rounded once;
     * anchored at the origin, the world is the local bit for bit. */
    for (uint32_t i = 0; large && i < N; i++) {
        if (!was_dirty[i] || parent[i] != SGRT__NONE)
            continue;
        float want[16];
        memcpy(want, l1[i], sizeof want);
        const bool affine = l1[i][3] == 0.0f && l1[i][7] == 0.0f && l1[i][11] == 0.0f &&
                            l1[i][15] == 1.0f;
        for (int a = 0; a < 3 && affine; a++)
            if (anchor[i][a] != origin[a])
                want[12 + a] = (float)((double)l1[i][12 + a] + (anchor[i][a] - origin[a]));
        if (affine)
            same_bits(w1[i], want, 16, "update: an anchored root's world");
    }
    if (other) {
        CHECK_EQ_U(k->update(&v2), expected);
        CHECK_EQ_U(r2[0], r1[0]);
        CHECK_EQ_U(r2[1], r1[1]);
        for (uint32_t i = 0; i < N; i++) {
            compare16(w2[i], w1[i], "update");
            same_bits(l2[i], l1[i], 16, "update's repaired locals");
        }
        for (uint32_t i = 0; i < W; i++)
            CHECK(d2[i] == 0);
        for (uint32_t i = 0; i < SW; i++)
            CHECK(s2[i] == 0);
    }
    /* A second pass of k with nothing dirty computes nothing and changes
     * nothing (against a copy in the other buffer). */
    float(*mine)[16] = other ? w2 : w1, (*copy)[16] = other ? w1 : w2;
    memcpy(copy, mine, sizeof(float[N][16]));
    CHECK_EQ_U(k->update(other ? &v2 : &v1), 0);
    CHECK(memcmp(copy, mine, sizeof(float[N][16])) == 0);
    test_aligned_free(l1); test_aligned_free(l2); test_aligned_free(w1); test_aligned_free(w2);
}

/* T x R x S against sgrt__trs_to_mat4: random rotations, then every kind of
 * awkward input (zero and negative scales, non-unit and zero quaternions,
 * denormals, overflow, NaN and infinities) in every position, over lengths
 * that exercise the vector body and the scalar tail. */
static void random_trs(rng *r, float t[3], float q[4], float sc[3], int mode)
{
    for (int j = 0; j < 3; j++) {
        t[j] = rng_float(r, -100.0f, 100.0f);
        sc[j] = rng_float(r, -3.0f, 3.0f);
    }
    float len2 = 0;
    for (int j = 0; j < 4; j++) {
        q[j] = rng_float(r, -1.0f, 1.0f);
        len2 += q[j] * q[j];
    }
    if (mode == 0 && len2 > 0) /* unit: what an animation system gives */
        for (int j = 0; j < 4; j++)
            q[j] /= sqrtf(len2);
    if (mode == 2) { /* edge values anywhere */
        float *all[10] = {&t[0], &t[1], &t[2], &q[0], &q[1], &q[2], &q[3], &sc[0], &sc[1], &sc[2]};
        for (int e = 0; e < 3; e++)
            *all[rng_below(r, 10)] = edge_values[rng_below(r, N_EDGE)];
    }
}

static void test_trs(const sgrt__kernels *k)
{
    enum { N = 67 };
    float t[N][3], q[N][4], sc[N][3], got[N][16], want[N][16];
    rng r = {0x7125};
    for (int round = 0; round < 600; round++) {
        const uint32_t n = 1u + rng_below(&r, N);
        for (uint32_t i = 0; i < n; i++)
            random_trs(&r, t[i], q[i], sc[i], round % 3);
        if (round == 0) { /* the named cases, in lanes 0..7 */
            const float zero_q[4] = {0, 0, 0, 0}, big_q[4] = {1e20f, 0, 0, 1};
            memcpy(q[0], zero_q, sizeof zero_q);
            memcpy(q[1], big_q, sizeof big_q);
            sc[2][0] = 0.0f; sc[2][1] = -0.0f; sc[2][2] = -2.0f;
            q[3][0] = 1e-40f; sc[3][1] = 1e-39f;
            q[4][2] = NAN; t[5][1] = INFINITY; sc[6][2] = -INFINITY; sc[7][0] = 3e38f;
        }
        for (uint32_t i = 0; i < n; i++)
            sgrt__trs_to_mat4(t[i], q[i], sc[i], want[i]);
        k->trs(t[0], q[0], sc[0], got[0], n);
        for (uint32_t i = 0; i < n; i++)
            compare16(got[i], want[i], "trs");
    }
}

static void test_update_boxes(const sgrt__kernels *k); /* with the boxes, below */

/* Whole passes over four shapes of forest, then a pass with an after hook
 * that computes boxes. */
static void test_update(const sgrt__kernels *k)
{
    for (int shape = 0; shape < 4; shape++) {
        test_update_shape(k, shape, false);
        test_update_shape(k, shape, true);
    }
    test_update_boxes(k);
}

/* ---- the write path ---------------------------------------------------------- */

/* A matrix for the write kernels: random, with an edge value (NaN,
 * infinities, denormals, signed zeros, the largest floats) in a random
 * place one time in three. */
static void write_matrix(rng *r, float *m)
{
    static const int modes[3] = {0, 1, 3};
    random_matrix(r, m, modes[rng_below(r, 3)]);
    if (rng_below(r, 3) == 0)
        m[rng_below(r, 16)] = edge_values[rng_below(r, N_EDGE)];
}

static void test_check16(const sgrt__kernels *k)
{
    enum { N = SGRT__WRITE_CHUNK };
    float m[N][16];
    rng r = {0xC4EC};
    for (int round = 0; round < 3000; round++) {
        const uint32_t n = rng_below(&r, N + 1u);
        for (uint32_t i = 0; i < N; i++)
            write_matrix(&r, m[i]);
        const uint32_t got = k->check16(m[0], n);
        const uint32_t want = reference.check16(m[0], n);
        compared++;
        if (got != want && ++mismatches <= 10)
            fprintf(stderr, "check16: %u, reference %u\n", got, want);
    }
}

/* store16 and put16 on two copies of the same locals. */
static void test_store16(const sgrt__kernels *k)
{
    enum { N = SGRT__WRITE_CHUNK, SLOTS = 48 };
    float(*a)[16] = test_aligned_alloc(64, sizeof(float[SLOTS][16]));
    float(*b)[16] = test_aligned_alloc(64, sizeof(float[SLOTS][16]));
    float m[N][16];
    uint32_t slot[N + 8];
    rng r = {0x5704E};
    for (uint32_t i = 0; i < SLOTS; i++)
        write_matrix(&r, a[i]);
    memcpy(b, a, sizeof(float[SLOTS][16]));
    for (int round = 0; round < 3000; round++) {
        const uint32_t n = rng_below(&r, N + 1u), ahead = rng_below(&r, 9);
        for (uint32_t i = 0; i < n + ahead; i++) {
            slot[i] = rng_below(&r, SLOTS); /* repeats: later entries see earlier stores */
            if (i < n) {
                if (rng_below(&r, 3) == 0)
                    memcpy(m[i], a[slot[i]], sizeof m[i]); /* the same bits: no store */
                else
                    write_matrix(&r, m[i]);
            }
        }
        const uint32_t got = k->store16(a, slot, m[0], n, ahead);
        const uint32_t want = reference.store16(b, slot, m[0], n, ahead);
        compared++;
        if (got != want && ++mismatches <= 10)
            fprintf(stderr, "store16: mask %#x, reference %#x\n", got, want);
        same_bits(a[0], b[0], SLOTS * 16u, "store16");
        const uint32_t one = rng_below(&r, SLOTS);
        float single[16];
        if (rng_below(&r, 3) == 0)
            memcpy(single, a[one], sizeof single);
        else
            write_matrix(&r, single);
        const uint32_t pg = k->put16(a[one], single), pw = reference.put16(b[one], single);
        compared++;
        if (pg != pw && ++mismatches <= 10)
            fprintf(stderr, "put16: %u, reference %u\n", pg, pw);
        same_bits(a[one], b[one], 16, "put16");
    }
    test_aligned_free(a);
    test_aligned_free(b);
}

/* One node's conversion and put, on random and awkward TRS (the inputs of
 * test_trs): the same answer and the same stored bits as the reference. */
static void test_put_trs(const sgrt__kernels *k)
{
    float(*a)[16] = test_aligned_alloc(64, sizeof(float[2][16]));
    float(*b)[16] = a + 1;
    rng r = {0x9077};
    for (int round = 0; round < 60000; round++) {
        float t[3], q[4], sc[3];
        random_trs(&r, t, q, sc, round % 3);
        if (round % 4 == 0) /* the node holds that matrix already: SAME */
            sgrt__trs_to_mat4(t, q, sc, a[0]);
        else
            write_matrix(&r, a[0]);
        memcpy(b[0], a[0], sizeof a[0]);
        const uint32_t got = k->put_trs(a[0], t, q, sc), want = reference.put_trs(b[0], t, q, sc);
        compared++;
        if (got != want && ++mismatches <= 10)
            fprintf(stderr, "put_trs: %u, reference %u\n", got, want);
        same_bits(a[0], b[0], 16, "put_trs");
    }
    test_aligned_free(a);
}

/* The TRS write of a chunk: the same changed bits and stored bits as the
 * reference's, on random and awkward TRS with a finite matrix (what the
 * write path's check lets through),
 * entries that hold their matrix already, repeated slots, every length of
 * a chunk (vector body and tail). */
static void test_store_trs(const sgrt__kernels *k)
{
    enum { N = SGRT__WRITE_CHUNK, SLOTS = 48 };
    float(*a)[16] = test_aligned_alloc(64, sizeof(float[SLOTS][16]));
    float(*b)[16] = test_aligned_alloc(64, sizeof(float[SLOTS][16]));
    float t[N][3], q[N][4], sc[N][3];
    uint32_t slot[N + 8];
    rng r = {0x57025};
    for (uint32_t i = 0; i < SLOTS; i++)
        write_matrix(&r, a[i]);
    memcpy(b, a, sizeof(float[SLOTS][16]));
    for (int round = 0; round < 3000; round++) {
        const uint32_t n = rng_below(&r, N + 1u), ahead = rng_below(&r, 9);
        for (uint32_t i = 0; i < n + ahead; i++) {
            slot[i] = rng_below(&r, SLOTS);
            if (i < n) {
                /* Awkward inputs whose matrix is finite: the write path
                 * checks before it stores (a NaN's payload is no kernel's
                 * contract). */
                float m16[16];
                do {
                    random_trs(&r, t[i], q[i], sc[i], round % 3);
                    sgrt__trs_to_mat4(t[i], q[i], sc[i], m16);
                } while (!sgrt__finite16(m16));
                if (rng_below(&r, 3) == 0) /* the node holds that matrix already */
                    sgrt__trs_to_mat4(t[i], q[i], sc[i], a[slot[i]]),
                        memcpy(b[slot[i]], a[slot[i]], sizeof a[0]);
            }
        }
        const uint32_t got = k->store_trs(a, slot, t[0], q[0], sc[0], n, ahead);
        const uint32_t want = reference.store_trs(b, slot, t[0], q[0], sc[0], n, ahead);
        compared++;
        if (got != want && ++mismatches <= 10)
            fprintf(stderr, "store_trs: mask %#x, reference %#x\n", got, want);
        same_bits(a[0], b[0], SLOTS * 16u, "store_trs");
    }
    /* The reference is the conversion followed by store16. */
    float m[N][16];
    for (int round = 0; round < 300; round++) {
        const uint32_t n = 1u + rng_below(&r, N);
        for (uint32_t i = 0; i < n; i++) {
            slot[i] = rng_below(&r, SLOTS);
            random_trs(&r, t[i], q[i], sc[i], round % 3);
        }
        memcpy(b, a, sizeof(float[SLOTS][16]));
        reference.trs(t[0], q[0], sc[0], m[0], n);
        const uint32_t want = reference.store16(b, slot, m[0], n, 0);
        CHECK_EQ_U(reference.store_trs(a, slot, t[0], q[0], sc[0], n, 0), want);
        CHECK(memcmp(a, b, sizeof(float[SLOTS][16])) == 0);
    }
    test_aligned_free(a);
    test_aligned_free(b);
}

/* The closure of a word against the reference's, word after word in slot
 * order as the update runs it (each word's result is what later words
 * read), on random forests (chains inside a word, parents in earlier
 * words, roots), random dirty, live and candidate bits, with and without a
 * `done` set whose parents are read from done_dirty. */
static void test_close_word(const sgrt__kernels *k)
{
    enum { N = 2048, W = N / 32 };
    static uint32_t parent[N];
    uint32_t d1[W], d2[W], done[W], done_dirty[W];
    rng r = {0xC105E};
    for (int round = 0; round < 300; round++) {
        const uint32_t shape = rng_below(&r, 3);
        for (uint32_t i = 0; i < N; i++) {
            if (i == 0 || rng_below(&r, 40) == 0)
                parent[i] = SGRT__NONE;
            else if (shape == 0) /* chains and near parents: long chains inside words */
                parent[i] = i - 1u - rng_below(&r, i < 4 ? i : 4);
            else if (shape == 1) /* a 4-ary tree, level by level */
                parent[i] = (i - 1u) / 4u;
            else
                parent[i] = rng_below(&r, i);
        }
        const uint32_t density = 1u + rng_below(&r, 8);
        for (uint32_t w = 0; w < W; w++) {
            d1[w] = 0;
            for (uint32_t b = 0; b < 32u; b++)
                d1[w] |= (uint32_t)(rng_below(&r, 16) < density) << b;
            done[w] = rng_below(&r, 3) == 0 ? (uint32_t)rng_next(&r) : 0u;
            done_dirty[w] = (uint32_t)rng_next(&r);
        }
        memcpy(d2, d1, sizeof d1);
        const bool with_done = rng_below(&r, 2);
        for (uint32_t w = 0; w < W; w++) {
            const uint32_t clean = (uint32_t)rng_next(&r) | (uint32_t)rng_next(&r);
            const uint32_t want = reference.close_word(parent, d1, with_done ? done : NULL,
                                                       done_dirty, w, clean & ~d1[w]);
            const uint32_t got = k->close_word(parent, d2, with_done ? done : NULL, done_dirty,
                                               w, clean & ~d2[w]);
            compared++;
            if (got != want && ++mismatches <= 10)
                fprintf(stderr, "close_word: word %u: %#x, reference %#x\n", (unsigned)w, got,
                        want);
            d1[w] = want;
            d2[w] = got;
        }
    }
    /* The reference by hand: a chain inside one word under a dirty root. */
    for (uint32_t i = 0; i < 32u; i++)
        parent[i] = i == 0 ? SGRT__NONE : i - 1u;
    d1[0] = 1u;
    CHECK_EQ_U(reference.close_word(parent, d1, NULL, NULL, 0, ~1u), ~0u);
}

/* The check of TRS inputs without converting them: the same answer as the
 * reference's, never "fits" for inputs whose matrix has an element NaN or
 * infinite, and "fits" for the inputs an animation system gives and at the
 * edges of the bounds (2^16 per quaternion component, 2^64 per scale). */
static void test_trs_fits(const sgrt__kernels *k)
{
    enum { N = 40 };
    float t[N][3], q[N][4], sc[N][3], m[16];
    rng r = {0xF175};
    for (int round = 0; round < 20000; round++) {
        const uint32_t n = 1u + rng_below(&r, N);
        for (uint32_t i = 0; i < n; i++)
            random_trs(&r, t[i], q[i], sc[i], round % 3);
        if (round % 5 == 1) { /* big but within the bounds, or just past them */
            const uint32_t i = rng_below(&r, n);
            const float past = rng_below(&r, 2) ? 1.0f : nextafterf(1.0f, 2.0f);
            q[i][rng_below(&r, 4)] = 65536.0f * past;
            sc[i][rng_below(&r, 3)] = -0x1p64f * past;
        }
        const bool got = k->trs_fits(t[0], q[0], sc[0], n);
        compared++;
        if (got != reference.trs_fits(t[0], q[0], sc[0], n) && ++mismatches <= 10)
            fprintf(stderr, "trs_fits: %d, the reference's differs\n", got);
        bool finite = true, within = true;
        for (uint32_t i = 0; i < n; i++) {
            sgrt__trs_to_mat4(t[i], q[i], sc[i], m);
            for (int e = 0; e < 16; e++)
                finite = finite && isfinite(m[e]);
            for (int j = 0; j < 4; j++)
                within = within && fabsf(q[i][j]) <= 65536.0f && (j == 3 || (isfinite(t[i][j]) &&
                                                                             fabsf(sc[i][j]) <= 0x1p64f));
        }
        CHECK(!got || finite);      /* never a non-finite matrix let through */
        CHECK_EQ_U(got, within);    /* exactly the stated bounds */
    }
}

/* ---- boxes and culls ---------------------------------------------------------- */

/* The boxes' inputs: awkward worlds (boundsutil.h) with an edge value
 * anywhere one time in four (the last row included: projective), awkward
 * local boxes with an edge value in the center one time in six, the slots
 * with a box (every slot in one word of four); and two sets of world boxes,
 * zeroed, each with its view: the expected kernel's and the tested one's. */
enum { BOX_N = 4096, BOX_W = BOX_N / 32 };

typedef struct box_case {
    float (*world)[16];
    float *c[3], *e[3];
    uint32_t has[BOX_W];
    float *lo[2][3], *hi[2][3];
    sgrt__bounds_view v[2];
} box_case;

static void box_case_make(box_case *b, uint64_t seed)
{
    rng r = {seed};
    b->world = test_aligned_alloc(64, sizeof(float[BOX_N][16]));
    for (int a = 0; a < 3; a++) {
        b->c[a] = test_aligned_alloc(64, BOX_N * sizeof(float));
        b->e[a] = test_aligned_alloc(64, BOX_N * sizeof(float));
    }
    for (uint32_t i = 0; i < BOX_N; i++) {
        if (rng_below(&r, 5) == 0) /* element by element: affine or not by chance */
            random_matrix(&r, b->world[i], 3);
        else
            awkward_matrix(&r, b->world[i], (int)rng_below(&r, 8));
        if (rng_below(&r, 4) == 0)
            b->world[i][rng_below(&r, 16)] = edge_values[rng_below(&r, N_EDGE)];
        float c[3], h[3];
        awkward_box(&r, c, h, (int)rng_below(&r, 6));
        if (rng_below(&r, 6) == 0)
            c[rng_below(&r, 3)] = edge_values[rng_below(&r, N_EDGE)];
        for (int a = 0; a < 3; a++) {
            b->c[a][i] = c[a];
            b->e[a][i] = h[a];
        }
    }
    for (uint32_t w = 0; w < BOX_W; w++)
        b->has[w] = w % 4 == 0 ? ~0u : (uint32_t)rng_next(&r);
    for (int s = 0; s < 2; s++) {
        for (int a = 0; a < 3; a++) {
            b->lo[s][a] = test_aligned_alloc(64, BOX_N * sizeof(float));
            b->hi[s][a] = test_aligned_alloc(64, BOX_N * sizeof(float));
            memset(b->lo[s][a], 0, BOX_N * sizeof(float));
            memset(b->hi[s][a], 0, BOX_N * sizeof(float));
            b->v[s].c[a] = b->c[a];
            b->v[s].e[a] = b->e[a];
            b->v[s].lo[a] = b->lo[s][a];
            b->v[s].hi[a] = b->hi[s][a];
        }
        b->v[s].has = b->has;
    }
}

static void box_case_free(box_case *b)
{
    test_aligned_free(b->world);
    for (int a = 0; a < 3; a++) {
        test_aligned_free(b->c[a]);
        test_aligned_free(b->e[a]);
        for (int s = 0; s < 2; s++) {
            test_aligned_free(b->lo[s][a]);
            test_aligned_free(b->hi[s][a]);
        }
    }
}

/* The tested set of boxes against the expected one, bit for bit: the
 * number that differ. */
static long compare_boxes(const box_case *b, const char *what)
{
    long bad = 0;
    for (int j = 0; j < 6; j++) {
        const float *g = j < 3 ? b->lo[1][j] : b->hi[1][j - 3];
        const float *x = j < 3 ? b->lo[0][j] : b->hi[0][j - 3];
        for (uint32_t i = 0; i < BOX_N; i++) {
            compared++;
            if (memcmp(&g[i], &x[i], sizeof(float)) != 0) {
                bad++;
                if (++mismatches <= 10)
                    fprintf(stderr, "%s: box %s[%d] of slot %u: %a, reference %a\n", what,
                            j < 3 ? "lo" : "hi", j % 3, (unsigned)i, (double)g[i], (double)x[i]);
            }
        }
    }
    return bad;
}

/* One word at a time: all of a word's boxed slots, a single slot, dense
 * halves. */
static void test_boxes(const sgrt__kernels *k)
{
    const sgrt__kernels *want = expected_for(k);
    box_case b;
    box_case_make(&b, 0xB0B5);
    for (uint32_t w = 0; w < BOX_W; w++) {
        const uint32_t bits = w % 8 == 1 ? 1u << (w % 32) : w % 8 == 2 ? 0xFFFF0000u : b.has[w];
        want->boxes(&b.v[0], (const float(*)[16])b.world, w, bits);
        k->boxes(&b.v[1], (const float(*)[16])b.world, w, bits);
    }
    const long bad = compare_boxes(&b, "boxes");
    CHECK_MSG(bad == 0, "%s: boxes differ from the reference's in %ld places", k->name, bad);
    box_case_free(&b);
}

/* An update kernel's after hook (the followers' work after a word's
 * worlds, follow.h; boxes are its first user): called once for each word
 * the pass recomputed, in increasing order, with exactly that word's dirty
 * slots, after their worlds are stored (they are the expected pass's, bit
 * for bit, at the call) and before the next word's are. The hook here
 * computes the boxes of those slots with the level's boxes entry, as the
 * boxes follower does: the update's boxes are then the reference's, over
 * chains of up to seven under roots, the locals being the boxes' worlds.
 * On ARMv7 a NEON update flushes denormal world entries, and the boxes
 * follow their worlds: the model is what it must match. */
typedef struct after_probe {
    const sgrt__kernels *k;
    const sgrt__bounds_view *bounds;
    float (*world)[16];
    const float (*want)[16]; /* the expected pass's worlds (NULL: none yet) */
    const uint32_t *dirty;   /* the dirty words before the pass */
    uint32_t last_w, calls, bad_order, bad_bits, bad_worlds, next_stored;
} after_probe;

static void after_probe_hook(void *ctx, uint32_t w, uint32_t done)
{
    after_probe *p = ctx;
    if (p->calls++ && w <= p->last_w)
        p->bad_order++;
    p->last_w = w;
    if (done != p->dirty[w])
        p->bad_bits++;
    if (p->want) {
        uint32_t each = done;
        SGRT__FOR_EACH_IN_WORD(w, each, i,
            if (memcmp(p->world[i], p->want[i], sizeof p->world[i]) != 0)
                p->bad_worlds++;
        )
        /* The next word's worlds are not stored yet: the pass is at w. */
        for (uint32_t x = w + 1u; x < BOX_W; x++)
            if (p->dirty[x]) {
                const uint32_t i = x * 32u + sgrt__ctz32(p->dirty[x]);
                p->next_stored += memcmp(p->world[i], p->want[i], sizeof p->world[i]) == 0 &&
                                  memcmp(p->world[i], (const float[16]){0}, 64) != 0;
                break;
            }
    }
    if (done & p->bounds->has[w])
        p->k->boxes(p->bounds, (const float(*)[16])p->world, w, done & p->bounds->has[w]);
}

static void test_update_boxes(const sgrt__kernels *k)
{
    enum { SW = (BOX_W + 31) / 32 };
    const sgrt__kernels *want = expected_for(k);
    box_case b;
    box_case_make(&b, 0xB0B6);
    rng r = {0xB0B7};
    static uint32_t parent[BOX_N];
    uint32_t dirty[2][BOX_W], before[BOX_W], sum[2][SW], repaired[2][2] = {{0, 0}, {0, 0}};
    uint32_t expected = 0, words = 0;
    memset(sum, 0, sizeof sum);
    for (uint32_t i = 0; i < BOX_N; i++)
        parent[i] = i % 7 == 0 ? SGRT__NONE : i - 1u - rng_below(&r, i % 7);
    for (uint32_t w = 0; w < BOX_W; w++) {
        /* Every third word partly dirty, one in 11 clean (no call). */
        dirty[0][w] = dirty[1][w] = before[w] =
            w % 11 == 5 ? 0u : w % 3 ? ~0u : (uint32_t)rng_next(&r);
        expected += sgrt__popcount32(dirty[0][w]);
        words += dirty[0][w] != 0;
        if (dirty[0][w])
            sgrt__bit_set(sum[0], w), sgrt__bit_set(sum[1], w);
    }
    float(*local[2])[16], (*world[2])[16];
    sgrt__update_view u[2];
    after_probe probe[2];
    for (int s = 0; s < 2; s++) {
        local[s] = test_aligned_alloc(64, sizeof(float[BOX_N][16]));
        world[s] = test_aligned_alloc(64, sizeof(float[BOX_N][16]));
        memcpy(local[s], b.world, sizeof(float[BOX_N][16]));
        memset(world[s], 0, sizeof(float[BOX_N][16]));
        const after_probe p = {s ? k : want, &b.v[s], world[s],
                               s ? (const float(*)[16])world[0] : NULL, before, 0, 0, 0, 0, 0, 0};
        probe[s] = p;
        const sgrt__update_view us = {local[s], world[s], parent, dirty[s], sum[s], 0, SW,
                                      after_probe_hook, repaired[s], NULL, NULL, &probe[s]};
        u[s] = us;
    }
    CHECK_EQ_U(want->update(&u[0]), expected);
    CHECK_EQ_U(probe[0].calls, words);
    CHECK_EQ_U(probe[0].bad_order + probe[0].bad_bits, 0);
    CHECK_EQ_U(k->update(&u[1]), expected);
    CHECK_EQ_U(repaired[1][0], repaired[0][0]);
    CHECK_MSG(probe[1].calls == words && probe[1].bad_order == 0 && probe[1].bad_bits == 0,
              "%s: the after hook ran %u times for %u words recomputed (%u out of order, %u "
              "with other slots than the word's dirty ones)",
              k->name, (unsigned)probe[1].calls, (unsigned)words, (unsigned)probe[1].bad_order,
              (unsigned)probe[1].bad_bits);
    CHECK_MSG(probe[1].bad_worlds == 0,
              "%s: %u worlds were not yet the expected ones when the after hook saw them",
              k->name, (unsigned)probe[1].bad_worlds);
    CHECK_MSG(probe[1].next_stored == 0,
              "%s: the after hook of a word saw the next word's worlds stored %u times",
              k->name, (unsigned)probe[1].next_stored);
    const long bad = compare_boxes(&b, "the update's boxes");
    CHECK_MSG(bad == 0, "%s: the update's boxes differ from the reference's in %ld places",
              k->name, bad);
    for (int s = 0; s < 2; s++) {
        test_aligned_free(local[s]);
        test_aligned_free(world[s]);
    }
    box_case_free(&b);
}

/* The reference's boxes in exact arithmetic (boundsutil.h), on the inputs
 * above with every slot boxed, where the local box is finite (what
 * sgrt_node_set_bounds accepts): an affine world's finite axis contains the
 * exact box and, when all three are finite, lies within the stated bound
 * of it; any other axis is (-inf, +inf). */
static void test_boxes_exact(void)
{
    box_case b;
    box_case_make(&b, 0xB0B5);
    for (uint32_t w = 0; w < BOX_W; w++)
        reference.boxes(&b.v[0], (const float(*)[16])b.world, w, ~0u);
    double worst = 0.0;
    for (uint32_t i = 0; i < BOX_N; i++) {
        const float *m = b.world[i];
        const float c[3] = {b.c[0][i], b.c[1][i], b.c[2][i]};
        const float e[3] = {b.e[0][i], b.e[1][i], b.e[2][i]};
        const float lo[3] = {b.lo[0][0][i], b.lo[0][1][i], b.lo[0][2][i]};
        const float hi[3] = {b.hi[0][0][i], b.hi[0][1][i], b.hi[0][2][i]};
        if (!finite3(c) || !finite3(e))
            continue;
        const bool affine = m[3] == 0.0f && m[7] == 0.0f && m[11] == 0.0f && m[15] == 1.0f;
        for (int a = 0; a < 3; a++) {
            if (!affine || !isfinite(lo[a]) || !isfinite(hi[a]))
                CHECK_MSG(lo[a] == -INFINITY && hi[a] == INFINITY,
                          "slot %u axis %d: a projective world or an overflow, not (-inf, +inf)",
                          (unsigned)i, a);
            else
                CHECK_MSG(exact_side_minus(m, c, e, a, 1, hi[a]) <= 0 &&
                              exact_side_minus(m, c, e, a, -1, lo[a]) >= 0,
                          "slot %u: the box misses the exact box on axis %d", (unsigned)i, a);
        }
        if (affine && finite3(lo) && finite3(hi)) {
            const double slack = box_slack(m, c, e, lo, hi);
            worst = slack > worst ? slack : worst;
            CHECK_MSG(slack <= 1.0,
                      "slot %u: the box exceeds the exact one by %.3g of the stated bound",
                      (unsigned)i, slack);
        }
    }
    printf("boxes: the reference's worst excess %.3f of the stated bound\n", worst);
    box_case_free(&b);
}

/* The cull's inputs: random boxes, an edge coordinate in a bound one time
 * in eight (the bounds swapped where that unorders them); candidate words
 * (alive, valid, the restriction set), kept members. Each round: 1 to 8
 * planes of random normals (signed zeros among them), allowances and
 * limits, with and without the restriction and the kept members, over a
 * range of words that starts and ends anywhere. */
enum { CULL_N = 4096, CULL_W = CULL_N / 32, CULL_ROUNDS = 40 };

static const float edge_coord[] = {0.0f, -0.0f, 1.0f, -1.0f, 1e30f, -1e30f, 3e38f, -3e38f,
                                   1e-30f, -1e-40f, INFINITY, -INFINITY, 0.5f, 100.0f};
#define N_EDGE_COORD (sizeof edge_coord / sizeof edge_coord[0])

typedef struct cull_inputs {
    float *a[6]; /* lo xyz, hi xyz */
    uint32_t alive[CULL_W], valid[CULL_W], only[CULL_W], keep[CULL_W];
    rng r;
} cull_inputs;

static void cull_inputs_make(cull_inputs *in)
{
    rng *r = &in->r;
    r->s = 0xC011;
    for (int k = 0; k < 6; k++)
        in->a[k] = test_aligned_alloc(64, CULL_N * sizeof(float));
    for (uint32_t i = 0; i < CULL_N; i++)
        for (int ax = 0; ax < 3; ax++) {
            float lo = (float)rng_range(r, -20, 20), hi = lo + (float)rng_range(r, 0, 5);
            if (rng_below(r, 8) == 0)
                lo = edge_coord[rng_below(r, N_EDGE_COORD)];
            if (rng_below(r, 8) == 0)
                hi = edge_coord[rng_below(r, N_EDGE_COORD)];
            if (!(lo <= hi)) {
                const float t = lo;
                lo = hi;
                hi = t;
            }
            in->a[ax][i] = lo;
            in->a[3 + ax][i] = hi;
        }
    for (uint32_t w = 0; w < CULL_W; w++) {
        in->alive[w] = w % 5 ? (uint32_t)rng_next(r) | 0xF00Fu : ~0u;
        in->valid[w] = (uint32_t)rng_next(r) | (w % 3 ? 0u : ~0u);
        in->only[w] = (uint32_t)rng_next(r);
        in->keep[w] = (uint32_t)rng_next(r) & 0x11111111u;
    }
}

static void cull_inputs_free(cull_inputs *in)
{
    for (int k = 0; k < 6; k++)
        test_aligned_free(in->a[k]);
}

/* The test's own reading of the definition (kernels.h): a box is culled
 * by a plane when this is below the plane's lim. */
static float cull_g(const sgrt__cull_plane *pl, const float lo[3], const float hi[3])
{
    const float m = sgrt__box_magnitude(lo, hi);
    float p[3];
    for (int ax = 0; ax < 3; ax++)
        p[ax] = pl->n[ax] >= 0.0f ? hi[ax] : lo[ax];
    return (pl->n[0] * p[0] + pl->n[1] * p[1]) + (pl->n[2] * p[2] + pl->k * m);
}

/* Round `round`'s view (out left to the caller). */
static void cull_round(cull_inputs *in, int round, sgrt__cull_view *v)
{
    rng *r = &in->r;
    memset(v, 0, sizeof *v);
    for (int ax = 0; ax < 3; ax++) {
        v->lo[ax] = in->a[ax];
        v->hi[ax] = in->a[3 + ax];
    }
    v->plane_count = 1u + (uint32_t)round % 8u;
    for (uint32_t k = 0; k < v->plane_count; k++) {
        sgrt__cull_plane *pl = &v->plane[k];
        for (int ax = 0; ax < 3; ax++) {
            pl->n[ax] = rng_below(r, 6) == 0 ? (rng_below(r, 2) ? 0.0f : -0.0f)
                                              : (float)rng_range(r, -1, 1);
            pl->p[ax] = pl->n[ax] >= 0.0f ? v->hi[ax] : v->lo[ax];
        }
        pl->k = round % 5 == 0 ? 0.0f : (float)rng_range(r, 0, 1e-6);
        pl->lim = (float)rng_range(r, -20, 20);
    }
    if (round % 4 == 3) { /* the first plane exactly at a box: g == lim */
        const uint32_t i = rng_below(r, CULL_N);
        const float lo[3] = {in->a[0][i], in->a[1][i], in->a[2][i]};
        const float hi[3] = {in->a[3][i], in->a[4][i], in->a[5][i]};
        sgrt__cull_plane *pl = &v->plane[0];
        const float g = cull_g(pl, lo, hi);
        if (isfinite(g))
            pl->lim = g;
    }
    v->a = in->alive;
    v->b = in->valid;
    v->c = round % 2 ? in->only : NULL;
    v->keep = round % 3 == 0 ? in->keep : NULL;
    v->w_first = (uint32_t)round % 3u;
    v->w_end = CULL_W - (uint32_t)round % 2u;
}

/* The members, their count and the candidates tested: the expected
 * kernel's, every word of out (those outside the range left as they were). */
static void test_cull(const sgrt__kernels *k)
{
    const sgrt__kernels *want = expected_for(k);
    cull_inputs in;
    cull_inputs_make(&in);
    uint32_t out0[CULL_W], out1[CULL_W];
    for (int round = 0; round < CULL_ROUNDS; round++) {
        sgrt__cull_view v;
        cull_round(&in, round, &v);
        uint32_t t0 = 0, t1 = 0;
        memset(out0, 0xAB, sizeof out0);
        memset(out1, 0xAB, sizeof out1);
        v.out = out0;
        const uint32_t n0 = want->cull(&v, &t0);
        v.out = out1;
        const uint32_t n1 = k->cull(&v, &t1);
        compared += CULL_W + 2;
        const bool same = n0 == n1 && t0 == t1 && memcmp(out0, out1, sizeof out0) == 0;
        if (!same)
            mismatches++;
        CHECK_MSG(same, "cull round %d: %s: %u visible, %u tested; reference %u, %u", round,
                  k->name, n1, t1, n0, t0);
    }
    cull_inputs_free(&in);
}

/* The reference's cull against the test's own reading of the definition
 * (kernels.h), on the same rounds. */
static void test_cull_definition(void)
{
    cull_inputs in;
    cull_inputs_make(&in);
    uint32_t out[CULL_W];
    for (int round = 0; round < CULL_ROUNDS; round++) {
        sgrt__cull_view v;
        cull_round(&in, round, &v);
        v.out = out;
        uint32_t tested = 0;
        (void)reference.cull(&v, &tested);
        for (uint32_t w = v.w_first; w < v.w_end; w++) {
            uint32_t want = v.keep ? v.keep[w] : 0u;
            const uint32_t cand = in.alive[w] & in.valid[w] & (v.c ? in.only[w] : ~0u);
            for (uint32_t j = 0; j < 32u; j++) {
                if (!((cand >> j) & 1u))
                    continue;
                const uint32_t i = 32u * w + j;
                const float lo[3] = {in.a[0][i], in.a[1][i], in.a[2][i]};
                const float hi[3] = {in.a[3][i], in.a[4][i], in.a[5][i]};
                bool outside = false;
                for (uint32_t k = 0; k < v.plane_count; k++)
                    outside |= cull_g(&v.plane[k], lo, hi) < v.plane[k].lim;
                if (!outside)
                    want |= 1u << j;
            }
            CHECK_MSG(out[w] == want, "round %d word %u: reference %08x, definition %08x", round,
                      (unsigned)w, out[w], want);
        }
    }
    cull_inputs_free(&in);
}

/* ---- skinning palettes --------------------------------------------------------- */

/* The palettes of batches of joints against the reference's: random, wide,
 * edge and element-wise matrices, each of the inverse, worlds and binds
 * made affine (last row 0, 0, 0, 1) one time in two, the inverse the
 * identity one time in eight (SGRT__PAL_IM_ONE), the modes saying what the
 * data is, binds or none, batches of 1 to 24 joints. Bit for bit (NaN as
 * NaN). */
static void test_palette(const sgrt__kernels *k)
{
    const sgrt__kernels *want = expected_for(k);
    enum { N = 24 };
    rng r = {0x5a1e77e};
    float w[N][16], b[N][16], im[16], got[N][12], ref[N][12];
    const float *wp[N], *bp[N];
    float *gp[N], *rp[N];
    for (int i = 0; i < N; i++) {
        wp[i] = w[i], bp[i] = b[i], gp[i] = got[i], rp[i] = ref[i];
    }
    long bad = 0;
    for (int round = 0; round < 6000; round++) {
        const int mode = round % N_MODES;
        const uint32_t n = 1u + rng_below(&r, N);
        random_matrix(&r, im, mode);
        bool b_affine = true;
        for (uint32_t i = 0; i < n; i++) {
            random_matrix(&r, w[i], mode);
            random_matrix(&r, b[i], mode);
            if (rng_below(&r, 2))
                w[i][3] = w[i][7] = w[i][11] = 0.0f, w[i][15] = 1.0f;
            if (round & 1)
                b[i][3] = b[i][7] = b[i][11] = 0.0f, b[i][15] = 1.0f;
            b_affine = b_affine && sgrt__affine16(b[i]);
        }
        if (rng_below(&r, 2))
            im[3] = im[7] = im[11] = 0.0f, im[15] = 1.0f;
        const bool one = rng_below(&r, 8) == 0;
        if (one)
            memcpy(im, IDENTITY, sizeof im);
        const uint32_t flags = (one ? (uint32_t)SGRT__PAL_IM_ONE : 0u) |
                               (sgrt__affine16(im) ? (uint32_t)SGRT__PAL_IM_AFFINE : 0u) |
                               (b_affine ? (uint32_t)SGRT__PAL_B_AFFINE : 0u);
        const bool binds = rng_below(&r, 4) != 0;
        want->palette(im, flags, wp, binds ? bp : NULL, n, rp);
        k->palette(im, flags, wp, binds ? bp : NULL, n, gp);
        for (uint32_t i = 0; i < n; i++)
            for (int e = 0; e < 12; e++) {
                compared++;
                if (!same_float(got[i][e], ref[i][e])) {
                    mismatches++;
                    if (++bad <= 10)
                        fprintf(stderr, "%s palette, round %d joint %u entry %d: got %a, "
                                        "reference %a\n",
                                k->name, round, i, e, (double)got[i][e], (double)ref[i][e]);
                }
            }
    }
    CHECK_MSG(bad == 0, "%s: palettes differ from the reference's in %ld places", k->name, bad);
}

/* ---- --bench: one pass of each entry ------------------------------------------ */

/* What the passes run on, cache-resident: two sets of write inputs that
 * each pass alternates between, so that every store stores. */
enum { BENCH_M = 64, BENCH_CHUNK = SGRT__WRITE_CHUNK, BENCH_SLOTS = 2048, BENCH_BOXES = 1024 };

typedef struct bench_data {
    float (*m)[16];     /* 2 x BENCH_M random matrices */
    float (*out)[16];   /* BENCH_M */
    float (*local)[16]; /* BENCH_CHUNK locals, written in slot order */
    float t[2 * BENCH_M][3], q[2 * BENCH_M][4], sc[2 * BENCH_M][3];
    uint32_t slot[BENCH_CHUNK];
    uint32_t parent[BENCH_SLOTS], dirty[BENCH_SLOTS / 32], clean[BENCH_SLOTS / 32];
    float (*world)[16];             /* BENCH_BOXES affine worlds */
    float *box[12];                 /* their local boxes' c, e; world boxes' lo, hi */
    uint32_t has[BENCH_BOXES / 32]; /* all */
    sgrt__bounds_view bounds;
    float *cull_box[6];             /* lo, hi of CULL_N boxes */
    uint32_t all[CULL_W], cull_out[CULL_W];
    sgrt__cull_view cull;
    uint32_t flip;
    uint32_t sink; /* results folded in, so that nothing is left unused */
} bench_data;

static void bench_data_make(bench_data *d)
{
    rng r = {0xBE4C};
    d->m = test_aligned_alloc(64, sizeof(float[2 * BENCH_M][16]));
    d->out = test_aligned_alloc(64, sizeof(float[BENCH_M][16]));
    d->local = test_aligned_alloc(64, sizeof(float[BENCH_CHUNK][16]));
    d->world = test_aligned_alloc(64, sizeof(float[BENCH_BOXES][16]));
    for (uint32_t i = 0; i < 2 * BENCH_M; i++) {
        random_matrix(&r, d->m[i], 0);
        random_trs(&r, d->t[i], d->q[i], d->sc[i], 0);
    }
    memcpy(d->local, d->m, sizeof(float[BENCH_CHUNK][16]));
    for (uint32_t i = 0; i < BENCH_CHUNK; i++)
        d->slot[i] = i;
    /* The closure: a random forest, a quarter of it dirty. */
    for (uint32_t i = 0; i < BENCH_SLOTS; i++)
        d->parent[i] = i == 0 || rng_below(&r, 40) == 0 ? SGRT__NONE : rng_below(&r, i);
    for (uint32_t w = 0; w < BENCH_SLOTS / 32; w++) {
        d->dirty[w] = (uint32_t)rng_next(&r) & (uint32_t)rng_next(&r);
        d->clean[w] = ~d->dirty[w];
    }
    /* Boxes: affine worlds, ordinary local boxes. */
    for (int j = 0; j < 12; j++)
        d->box[j] = test_aligned_alloc(64, BENCH_BOXES * sizeof(float));
    for (uint32_t i = 0; i < BENCH_BOXES; i++) {
        random_affine(&r, d->world[i]);
        for (int a = 0; a < 3; a++) {
            d->box[a][i] = (float)rng_range(&r, -5, 5);
            d->box[3 + a][i] = (float)rng_range(&r, 0, 3);
        }
    }
    memset(d->has, 0xFF, sizeof d->has);
    for (int a = 0; a < 3; a++) {
        d->bounds.c[a] = d->box[a];
        d->bounds.e[a] = d->box[3 + a];
        d->bounds.lo[a] = d->box[6 + a];
        d->bounds.hi[a] = d->box[9 + a];
    }
    d->bounds.has = d->has;
    /* The cull: boxes in [-20, 25], every one a candidate, six planes of a
     * cube of side 20 around the origin. */
    memset(&d->cull, 0, sizeof d->cull);
    for (int j = 0; j < 6; j++)
        d->cull_box[j] = test_aligned_alloc(64, CULL_N * sizeof(float));
    for (uint32_t i = 0; i < CULL_N; i++)
        for (int a = 0; a < 3; a++) {
            d->cull_box[a][i] = (float)rng_range(&r, -20, 20);
            d->cull_box[3 + a][i] = d->cull_box[a][i] + (float)rng_range(&r, 0, 5);
        }
    memset(d->all, 0xFF, sizeof d->all);
    for (int a = 0; a < 3; a++) {
        d->cull.lo[a] = d->cull_box[a];
        d->cull.hi[a] = d->cull_box[3 + a];
    }
    d->cull.a = d->cull.b = d->all;
    d->cull.out = d->cull_out;
    d->cull.w_end = CULL_W;
    d->cull.plane_count = 6;
    for (uint32_t k = 0; k < 6; k++) {
        sgrt__cull_plane *pl = &d->cull.plane[k];
        const uint32_t axis = k / 2;
        pl->n[axis] = k % 2 ? -1.0f : 1.0f;
        for (int a = 0; a < 3; a++)
            pl->p[a] = pl->n[a] >= 0.0f ? d->cull.hi[a] : d->cull.lo[a];
        pl->k = 0x1p-21f;
        pl->lim = -10.0f;
    }
    d->flip = 0;
    d->sink = 0;
}

static void bench_data_free(bench_data *d)
{
    test_aligned_free(d->m);
    test_aligned_free(d->out);
    test_aligned_free(d->local);
    test_aligned_free(d->world);
    for (int j = 0; j < 12; j++)
        test_aligned_free(d->box[j]);
    for (int j = 0; j < 6; j++)
        test_aligned_free(d->cull_box[j]);
}

/* The first or the second set of write inputs, in turn. */
static uint32_t bench_set(bench_data *d) { return (d->flip ^= 1u) * BENCH_CHUNK; }

static uint32_t bench_mul(const sgrt__kernels *k, bench_data *d)
{
    for (uint32_t i = 0; i < BENCH_M; i++)
        k->mul(d->m[i], d->m[BENCH_M + i], d->out[i]);
    return BENCH_M;
}

static uint32_t bench_trs(const sgrt__kernels *k, bench_data *d)
{
    k->trs(d->t[0], d->q[0], d->sc[0], d->out[0], BENCH_M);
    return BENCH_M;
}

static uint32_t bench_check16(const sgrt__kernels *k, bench_data *d)
{
    d->sink += k->check16(d->m[bench_set(d)], BENCH_CHUNK);
    return BENCH_CHUNK;
}

static uint32_t bench_store16(const sgrt__kernels *k, bench_data *d)
{
    d->sink += k->store16(d->local, d->slot, d->m[bench_set(d)], BENCH_CHUNK, 0);
    return BENCH_CHUNK;
}

static uint32_t bench_put16(const sgrt__kernels *k, bench_data *d)
{
    const uint32_t set = bench_set(d);
    for (uint32_t i = 0; i < BENCH_CHUNK; i++)
        d->sink += k->put16(d->local[i], d->m[set + i]);
    return BENCH_CHUNK;
}

static uint32_t bench_put_trs(const sgrt__kernels *k, bench_data *d)
{
    const uint32_t set = bench_set(d);
    for (uint32_t i = 0; i < BENCH_CHUNK; i++)
        d->sink += k->put_trs(d->local[i], d->t[set + i], d->q[set + i], d->sc[set + i]);
    return BENCH_CHUNK;
}

static uint32_t bench_store_trs(const sgrt__kernels *k, bench_data *d)
{
    const uint32_t set = bench_set(d);
    d->sink += k->store_trs(d->local, d->slot, d->t[set], d->q[set], d->sc[set], BENCH_CHUNK, 0);
    return BENCH_CHUNK;
}

static uint32_t bench_trs_fits(const sgrt__kernels *k, bench_data *d)
{
    d->sink += k->trs_fits(d->t[0], d->q[0], d->sc[0], 2 * BENCH_M);
    return 2 * BENCH_M;
}

static uint32_t bench_close_word(const sgrt__kernels *k, bench_data *d)
{
    for (uint32_t w = 0; w < BENCH_SLOTS / 32; w++)
        d->sink += k->close_word(d->parent, d->dirty, NULL, NULL, w, d->clean[w]);
    return BENCH_SLOTS / 32;
}

static uint32_t bench_boxes(const sgrt__kernels *k, bench_data *d)
{
    for (uint32_t w = 0; w < BENCH_BOXES / 32; w++)
        k->boxes(&d->bounds, (const float(*)[16])d->world, w, ~0u);
    return BENCH_BOXES;
}

/* The palettes of 64 joints of affine worlds and binds, as a skin's. */
static uint32_t bench_palette(const sgrt__kernels *k, bench_data *d)
{
    const float *w[BENCH_M], *b[BENCH_M];
    float *out[BENCH_M];
    for (uint32_t i = 0; i < BENCH_M; i++) {
        w[i] = d->world[i];
        b[i] = d->world[BENCH_M + i];
        out[i] = d->out[i];
    }
    k->palette(d->world[2 * BENCH_M], SGRT__PAL_IM_AFFINE | SGRT__PAL_B_AFFINE, w, b, BENCH_M,
               out);
    return BENCH_M;
}

static uint32_t bench_cull(const sgrt__kernels *k, bench_data *d)
{
    uint32_t tested = 0;
    d->sink += k->cull(&d->cull, &tested);
    return tested;
}

/* ---- the table's entries ---------------------------------------------------- */

/* Each entry of sgrt__kernels with the test of an implementation of it, and
 * for --bench one pass of it over cache-resident inputs (NULL: update,
 * which the first table of --bench times) and what the pass counts: a new
 * entry is one line here. */
/* XXH3 (the scene hash, the snapshots' checksum): every level's one-shot
 * and streaming entries against xxHash's own XXH3 (inlined here from the
 * same header, at this file's ISA) on random bytes of every length up to
 * 4,500 (XXH3's short, medium and long paths, stripes and blocks cut
 * anywhere) and on 1 MiB, fed in random pieces. */
static void test_xxh3(const sgrt__kernels *k)
{
    enum { LONG = 1u << 20 };
    uint8_t *buf = malloc(LONG);
    REQUIRE(buf);
    rng r = {0x3b1e5a7};
    for (uint32_t i = 0; i < LONG; i++)
        buf[i] = (uint8_t)rng_next(&r);
    long bad = 0;
    for (uint32_t n = 0; n <= 4500u; n++) {
        const uint32_t at = rng_below(&r, 64);
        bad += k->xxh3(buf + at, n) != XXH3_64bits(buf + at, n);
    }
    for (int round = 0; round < 24; round++) {
        const size_t n = round < 8 ? LONG : 1u + rng_below(&r, LONG);
        XXH3_state_t st;
        XXH3_64bits_reset(&st);
        for (size_t at = 0; at < n;) {
            size_t piece = 1u + rng_below(&r, round & 1 ? 300u : 70000u);
            if (piece > n - at)
                piece = n - at;
            k->xxh3_update(&st, buf + at, piece);
            at += piece;
        }
        const uint64_t want = XXH3_64bits(buf, n);
        bad += XXH3_64bits_digest(&st) != want;
        bad += k->xxh3(buf, n) != want;
    }
    CHECK_MSG(bad == 0, "%s: %ld XXH3 values differ from xxHash's", k->name, bad);
    compared += 4501 + 48;
    mismatches += bad;
    free(buf);
}

static uint32_t bench_xxh3(const sgrt__kernels *k, bench_data *d)
{
    /* Bytes of the bench's matrices, as the scene hash stages them. */
    const size_t bytes = sizeof(float[2 * BENCH_M][16]);
    volatile uint64_t sink = k->xxh3(d->m, bytes);
    (void)sink;
    return (uint32_t)(bytes / 1024u);
}

#define KERNEL_ENTRIES(X)                                                              \
    X(mul, test_mul, bench_mul, "product")                                             \
    X(update, test_update, NULL, NULL)                                                 \
    X(trs, test_trs, bench_trs, "matrix")                                              \
    X(check16, test_check16, bench_check16, "matrix")                                  \
    X(store16, test_store16, bench_store16, "matrix")                                  \
    X(put16, test_store16, bench_put16, "call")                                        \
    X(put_trs, test_put_trs, bench_put_trs, "call")                                    \
    X(store_trs, test_store_trs, bench_store_trs, "matrix")                            \
    X(trs_fits, test_trs_fits, bench_trs_fits, "entry")                                \
    X(close_word, test_close_word, bench_close_word, "word")                           \
    X(boxes, test_boxes, bench_boxes, "box")                                           \
    X(cull, test_cull, bench_cull, "box")                                              \
    X(palette, test_palette, bench_palette, "joint")                                   \
    X(xxh3, test_xxh3, bench_xxh3, "KiB")

typedef struct kernel_entry {
    const char *name;
    bool (*same)(const sgrt__kernels *a, const sgrt__kernels *b); /* the same function */
    void (*test)(const sgrt__kernels *k);
    /* One pass; returns how many items (`item`) it processed. */
    uint32_t (*bench)(const sgrt__kernels *k, bench_data *d);
    const char *item;
} kernel_entry;

#define SAME_FUNCTION(field, test, bench, item)                                        \
    static bool same_##field(const sgrt__kernels *a, const sgrt__kernels *b)           \
    {                                                                                  \
        return a->field == b->field;                                                   \
    }
KERNEL_ENTRIES(SAME_FUNCTION)
#undef SAME_FUNCTION

#define ENTRY_ROW(field, test, bench, item) {#field, same_##field, test, bench, item},
static const kernel_entry entries[] = {KERNEL_ENTRIES(ENTRY_ROW)};
#undef ENTRY_ROW

/* The reference on what is known without another kernel. */
static void test_reference(void)
{
    test_mul_known(reference.mul);
    test_update(&reference);
    test_boxes_exact();
    test_cull_definition();
}

/* ---- the choice ------------------------------------------------------------ */

static void test_choice(void)
{
    const uint32_t top = sgrt__kernels_cpu_level();
    const uint32_t def = sgrt__kernels_choose(0, NULL);
    CHECK(def >= SGRT__LEVEL_SCALAR && def <= top);
    CHECK(strcmp(sgrt_simd_name(), sgrt__kernels_level_name(def)) == 0);
    CHECK(sgrt_simd_reason() != NULL && sgrt_simd_reason()[0] != '\0');
    static const char *const names[] = {"scalar", "sse2",   "neon",
                                        "simde-portable", "avx", "avx512"};
    bool known = false;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        known |= strcmp(sgrt_simd_name(), names[i]) == 0;
    CHECK(known);
    /* The desc lowers the level; a level above the CPU's falls back. */
    for (uint32_t level = SGRT__LEVEL_SCALAR; level <= SGRT__LEVEL_MAX; level++) {
        sgrt_scene_desc d = {0};
        d.max_simd = (sgrt_simd)level;
        sgrt_scene *s = new_scene_desc(&d);
        const uint32_t want = level < def ? level : def;
        CHECK(strcmp(sgrt_scene_simd_name(s), sgrt__kernels_level_name(want)) == 0);
        sgrt_scene_destroy(s);
    }
    sgrt_scene_desc bad = {0};
    bad.max_simd = (sgrt_simd)(SGRT__LEVEL_MAX + 1);
    sgrt_scene *s = NULL;
    CHECK_RES(sgrt_scene_create(&bad, &s), SGRT_ERR_INVALID_ARG);
    CHECK(s == NULL);
    CHECK(sgrt_scene_simd_name(NULL) == NULL);
}

/* ---- --bench: each entry's cost at each level the CPU runs ----------------- */

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* ns per product: 64 products whose parents are 64 distinct roots (batch),
 * or a chain of 64 where each product is the next one's parent (dependent).
 * The best of 50 blocks of 100 passes. */
static double bench_update(const sgrt__kernels *k, bool dependent)
{
    enum { N = 64, T = 2 * N };
    float(*local)[16] = test_aligned_alloc(64, sizeof(float[T][16]));
    float(*world)[16] = test_aligned_alloc(64, sizeof(float[T][16]));
    uint32_t parent[T], dirty[T / 32], sum[1];
    rng r = {9};
    for (uint32_t i = 0; i < T; i++) {
        random_matrix(&r, local[i], 0);
        random_matrix(&r, world[i], 0);
        parent[i] = i < N ? SGRT__NONE : dependent ? (i == N ? SGRT__NONE : i - 1u) : i - N;
    }
    uint32_t repaired[2] = {0, 0};
    const sgrt__update_view v = {local, world, parent, dirty, sum, 0,    1,
                                 NULL,  repaired, NULL,  NULL,  NULL};
    double best = 1e30;
    for (int block = 0; block < 50; block++) {
        uint32_t n = 0;
        const double t0 = now_ns();
        for (int rep = 0; rep < 100; rep++) {
            dirty[0] = dirty[1] = 0;
            dirty[2] = dirty[3] = ~0u;
            sum[0] = 0xCu;
            n += k->update(&v);
        }
        const double t = (now_ns() - t0) / (double)n;
        if (t < best)
            best = t;
    }
    test_aligned_free(local);
    test_aligned_free(world);
    return best;
}

/* ns per item of one entry's pass: the best of 20 blocks of about 2 ms. */
static double bench_pass(const kernel_entry *e, const sgrt__kernels *k, bench_data *d)
{
    double t0 = now_ns();
    uint32_t passes = 0;
    do { /* warm up, and how many passes a block takes */
        (void)e->bench(k, d);
        passes++;
    } while (now_ns() - t0 < 2e5);
    const uint32_t reps = (uint32_t)(2e6 / ((now_ns() - t0) / passes)) + 1u;
    double best = 1e30;
    for (int block = 0; block < 20; block++) {
        uint64_t items = 0;
        t0 = now_ns();
        for (uint32_t rep = 0; rep < reps; rep++)
            items += e->bench(k, d);
        const double t = (now_ns() - t0) / (double)items;
        if (t < best)
            best = t;
    }
    return best;
}

/* One entry at every level the CPU runs, in the update's format; a level
 * that keeps a lower level's function says whose. */
static void bench_table(const kernel_entry *e, bench_data *d)
{
    printf("%s (ns per %s, best of 20 blocks of about 2 ms)\n", e->name, e->item);
    printf("%-16s %8s %9s\n", "kernel", "ns", "ref/this");
    double ref = 0;
    for (uint32_t level = SGRT__LEVEL_SCALAR; level <= sgrt__kernels_cpu_level(); level++) {
        sgrt__kernels k, lower;
        sgrt__kernels_init(&k, level);
        uint32_t from = SGRT__LEVEL_SCALAR;
        for (;; from++) {
            sgrt__kernels_init(&lower, from);
            if (e->same(&k, &lower))
                break;
        }
        const double t = bench_pass(e, &k, d);
        if (level == SGRT__LEVEL_SCALAR)
            ref = t;
        printf("%-16s %8.3f %8.3fx%s%s%s%s\n", k.name, t, ref / t, from < level ? "  (" : "",
               from < level ? lower.name : "", from < level ? "'s)" : "",
               strcmp(k.name, sgrt_simd_name()) == 0 ? "  (default)" : "");
    }
}

static void bench(void)
{
    printf("kernels (cache-resident, ns per 4x4 product through the update entry, best of 50 x 100 passes)\n");
    printf("%-16s %8s %10s %9s\n", "kernel", "batch", "dependent", "ref/this");
    double ref_batch = 0;
    for (uint32_t level = SGRT__LEVEL_SCALAR; level <= sgrt__kernels_cpu_level(); level++) {
        sgrt__kernels k;
        sgrt__kernels_init(&k, level);
        const double b = bench_update(&k, false), d = bench_update(&k, true);
        if (level == SGRT__LEVEL_SCALAR)
            ref_batch = b;
        printf("%-16s %8.3f %10.3f %8.3fx%s\n", k.name, b, d, ref_batch / b,
               strcmp(k.name, sgrt_simd_name()) == 0 ? "  (default)" : "");
    }
    bench_data *data = malloc(sizeof *data);
    REQUIRE(data);
    bench_data_make(data);
    for (size_t e = 0; e < sizeof entries / sizeof entries[0]; e++)
        if (entries[e].bench)
            bench_table(&entries[e], data);
    bench_data_free(data);
    free(data);
    printf("default: %s (%s)\n", sgrt_simd_name(), sgrt_simd_reason());
}

int main(int argc, char **argv)
{
    sgrt__kernels_init(&reference, SGRT__LEVEL_SCALAR);
    if (argc > 1 && strcmp(argv[1], "--bench") == 0) {
        bench();
        return 0;
    }
    if (argc > 1) {
        fprintf(stderr, "usage: %s [--bench]\n", argv[0]);
        return 2;
    }
    printf("default kernel: %s (%s)\n", sgrt_simd_name(), sgrt_simd_reason());
    test_choice();
    test_reference();
    /* Each level above the reference, filled as a scene fills it: test the
     * entries whose function it brings, not those it keeps from the level
     * below (a level the CPU lacks falls back, giving the same table). */
    const uint32_t cpu = sgrt__kernels_cpu_level();
    sgrt__kernels below = reference;
    for (uint32_t level = SGRT__LEVEL_SCALAR + 1u; level <= SGRT__LEVEL_MAX; level++) {
        sgrt__kernels k;
        sgrt__kernels_init(&k, level);
        uint32_t brought = 0;
        for (size_t e = 0; e < sizeof entries / sizeof entries[0]; e++) {
            if (entries[e].same(&k, &below) || entries[e].same(&k, &reference))
                continue;
            printf("level %u: testing %s %s against %s\n", (unsigned)level, k.name,
                   entries[e].name, expected_for(&k)->name);
            entries[e].test(&k);
            brought++;
        }
        CHECK_MSG(brought > 0 || level > cpu,
                  "level %u (%s), which this CPU runs, brings no kernel of its own",
                  (unsigned)level, k.name);
        below = k;
    }
    printf("%ld elements compared, %ld mismatches (bound: 0 ULP)\n", compared, mismatches);
    CHECK(mismatches == 0);
    CHECK(compared >= 100000L * 16L);
    return test_report("kernels");
}
