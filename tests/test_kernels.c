/* Every combine kernel against the plain C reference: random matrices, edge
 * values, and whole update passes over random forests. The bound is 0 ULP:
 * all kernels evaluate the same products and sums in the same order without
 * contraction, so results must be bit-identical. Two exceptions are allowed
 * and compared separately: NaN results only need to be NaN on both sides
 * (payloads are not portable), and a NEON kernel on 32-bit ARM, which
 * flushes denormal operands and tiny results to zero, is compared with the
 * model of that behaviour in tests/ports/armv7_neon_model.h instead. */
#include "internal.h"
#include "testutil.h"
#include "ports/armv7_neon_model.h"
#include <float.h>
#include <stdlib.h>

/* What a kernel must reproduce: the reference, or on 32-bit ARM, for a kernel
 * that runs on NEON (which always flushes denormals to zero), the model of
 * NEON arithmetic. Anywhere else a flushing kernel is an error. */
static const sgrt__kernels *expected_for(const sgrt__kernels *k)
{
#if defined(__arm__) && !defined(__aarch64__)
    if (kernel_flushes_denormals(k))
        return &armv7_neon_model;
#else
    (void)k;
#endif
    return &sgrt__kernels_ref;
}



static bool same_float(float a, float b)
{
    if (isnan(a) || isnan(b))
        return isnan(a) && isnan(b);
    return float_bits(a) == float_bits(b);
}

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

static void random_matrix(rng *r, float *m, int mode)
{
    for (int i = 0; i < 16; i++) {
        switch (mode) {
        case 0: m[i] = rng_float(r, -4.0f, 4.0f); break;
        case 1: /* wide exponent range: rounding differences would show */
            m[i] = ldexpf(rng_float(r, -1.0f, 1.0f), (int)rng_below(r, 120) - 60);
            break;
        default: m[i] = edge_values[rng_below(r, N_EDGE)]; break;
        }
    }
}

#define N_RANDOM 120000

static void test_mul(const sgrt__kernels *k)
{
    const sgrt__kernels *ref = expected_for(k);
    rng r = {0xC0FFEE};
    float a[16], b[16], got[16], want[16];
    for (int i = 0; i < N_RANDOM; i++) {
        random_matrix(&r, a, i % 3);
        random_matrix(&r, b, (i / 3) % 3);
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
    /* The reference itself on known products: identity and a translation chain. */
    const float id[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    float t1[16], t2[16];
    memcpy(t1, id, sizeof id);
    memcpy(t2, id, sizeof id);
    t1[12] = 1.0f; t1[13] = 2.0f; t1[14] = 3.0f;
    t2[12] = 10.0f; t2[0] = 2.0f; /* scale x by 2, then translate */
    k->mul(t1, t2, got);
    CHECK(got[12] == 11.0f && got[13] == 2.0f && got[14] == 3.0f && got[0] == 2.0f &&
          got[15] == 1.0f && got[3] == 0.0f);
    k->mul(t2, t1, got);
    CHECK(got[12] == 12.0f && got[13] == 2.0f && got[14] == 3.0f);
}

static void test_batch(const sgrt__kernels *k)
{
    enum { N = 1000 };
    float(*a)[16] = malloc(sizeof(float[N][16])), (*b)[16] = malloc(sizeof(float[N][16]));
    float(*got)[16] = malloc(sizeof(float[N][16])), (*want)[16] = malloc(sizeof(float[N][16]));
    rng r = {77};
    for (int i = 0; i < N; i++) {
        random_matrix(&r, a[i], i % 3);
        random_matrix(&r, b[i], 1);
    }
    expected_for(k)->mul_batch((const float(*)[16])a, (const float(*)[16])b, want, N);
    k->mul_batch((const float(*)[16])a, (const float(*)[16])b, got, N);
    for (int i = 0; i < N; i++)
        compare16(got[i], want[i], "mul_batch");
    free(a); free(b); free(got); free(want);
}

/* A random forest in topological order with a dirty set closed over
 * descendants; both kernels update copies of it and must agree exactly. */
static void test_update(const sgrt__kernels *k, int shape)
{
    enum { N = 4096, W = N / 32, SW = (W + 31) / 32 };
    /* 64-byte aligned like the scene's arrays. */
    float(*local)[16] = aligned_alloc(64, sizeof(float[N][16]));
    float(*w1)[16] = aligned_alloc(64, sizeof(float[N][16]));
    float(*w2)[16] = aligned_alloc(64, sizeof(float[N][16]));
    uint32_t parent[N], d1[W], d2[W], s1[SW], s2[SW];
    rng r = {(uint64_t)shape + 1000u};
    memset(d1, 0, sizeof d1);
    memset(s1, 0, sizeof s1);
    uint32_t expected = 0;
    for (uint32_t i = 0; i < N; i++) {
        if (shape == 0) /* chains: parent is the previous slot (register fast path) */
            parent[i] = (i % 700 == 0) ? SGRT__NONE : i - 1u;
        else if (shape == 1) /* 4-ary tree in breadth-first order */
            parent[i] = i == 0 ? SGRT__NONE : (i - 1u) / 4u;
        else /* random forest */
            parent[i] = (i == 0 || rng_below(&r, 50) == 0) ? SGRT__NONE : rng_below(&r, i);
        random_matrix(&r, local[i], 1);
        random_matrix(&r, w1[i], 0);
        const bool pd = parent[i] != SGRT__NONE && sgrt__bit_get(d1, parent[i]);
        if (pd || rng_below(&r, 10) == 0) {
            sgrt__bit_set(d1, i);
            sgrt__bit_set(s1, i / 32u);
            expected++;
        }
    }
    memcpy(w2, w1, sizeof(float[N][16]));
    memcpy(d2, d1, sizeof d1);
    memcpy(s2, s1, sizeof s1);
    sgrt__update_view v1 = {(const float(*)[16])local, w1, parent, d1, s1, SW};
    sgrt__update_view v2 = {(const float(*)[16])local, w2, parent, d2, s2, SW};
    CHECK_EQ_U(expected_for(k)->update(&v1), expected);
    CHECK_EQ_U(k->update(&v2), expected);
    for (uint32_t i = 0; i < N; i++)
        compare16(w2[i], w1[i], "update");
    for (uint32_t i = 0; i < W; i++)
        CHECK(d1[i] == 0 && d2[i] == 0);
    for (uint32_t i = 0; i < SW; i++)
        CHECK(s1[i] == 0 && s2[i] == 0);
    /* A second pass with nothing dirty computes nothing and changes nothing. */
    memcpy(w1, w2, sizeof(float[N][16]));
    CHECK_EQ_U(k->update(&v2), 0);
    CHECK(memcmp(w1, w2, sizeof(float[N][16])) == 0);
    free(local); free(w1); free(w2);
}

int main(void)
{
    printf("default kernel: %s\n", sgrt_simd_name());
    const sgrt__kernels *kernels[8];
    const uint32_t nk = sgrt__kernels_available(kernels, 8);
    CHECK(nk >= 2 && kernels[0] == &sgrt__kernels_ref);
    for (uint32_t i = 1; i < nk; i++) {
        printf("testing %s against %s\n", kernels[i]->name, expected_for(kernels[i])->name);
        test_mul(kernels[i]);
        test_batch(kernels[i]);
        for (int shape = 0; shape < 3; shape++) {
            test_update(kernels[i], shape);
        }
    }
    test_update(&sgrt__kernels_ref, 1); /* the reference against itself still counts right */
    printf("%ld elements compared, %ld mismatches (bound: 0 ULP)\n", compared, mismatches);
    CHECK(mismatches == 0);
    CHECK(compared >= 100000L * 16L);
    return test_report("kernels");
}
