/* SPDX-License-Identifier: MIT */
/* Bitfield primitives against a one-bool-per-element model. */
#include "bits.h"
#include "testutil.h"

#define NW 40u /* words: more than one summary word */
#define N (NW * 32u)

static uint32_t w[NW], full[(NW + 31u) / 32u];
static bool model[N];

static void sync_full(void)
{
    for (uint32_t i = 0; i < (NW + 31u) / 32u; i++)
        full[i] = 0;
    for (uint32_t i = 0; i < NW; i++)
        if (w[i] == ~0u)
            sgrt__bit_set(full, i);
}

static void check_equal(void)
{
    uint32_t count = 0;
    for (uint32_t i = 0; i < N; i++) {
        CHECK(sgrt__bit_get(w, i) == model[i]);
        count += model[i];
    }
    CHECK_EQ_U(sgrt__bits_count(w, NW), count);
}

static void test_primitives(void)
{
    CHECK_EQ_U(sgrt__ctz32(1u), 0);
    CHECK_EQ_U(sgrt__ctz32(0x80000000u), 31);
    CHECK_EQ_U(sgrt__ctz32(0x00010100u), 8);
    CHECK_EQ_U(sgrt__clz32(1u), 31);
    CHECK_EQ_U(sgrt__clz32(0x80000000u), 0);
    CHECK_EQ_U(sgrt__popcount32(0), 0);
    CHECK_EQ_U(sgrt__popcount32(~0u), 32);
    CHECK_EQ_U(sgrt__popcount32(0xF0F0F0F1u), 17);
    CHECK_EQ_U(sgrt__mask_from(0), ~0u);
    CHECK_EQ_U(sgrt__mask_from(31), 0x80000000u);
    CHECK_EQ_U(sgrt__mask_from(32), 0u);
    for (uint32_t b = 0; b < 32; b++) {
        CHECK_EQ_U(sgrt__ctz32(1u << b), b);
        CHECK_EQ_U(sgrt__clz32(1u << b), 31u - b);
    }
}

static void test_random_ops(void)
{
    rng r = {12345};
    for (int iter = 0; iter < 20000; iter++) {
        const uint32_t op = rng_below(&r, 4);
        uint32_t a = rng_below(&r, N), len = rng_below(&r, 100);
        if (a + len > N)
            len = N - a;
        if (op == 0) {
            sgrt__bits_set_range(w, a, len);
            for (uint32_t i = a; i < a + len; i++)
                model[i] = true;
        } else if (op == 1) {
            sgrt__bits_clear_range(w, a, len);
            for (uint32_t i = a; i < a + len; i++)
                model[i] = false;
        } else if (op == 2) {
            sgrt__bit_set(w, a);
            model[a] = true;
        } else {
            sgrt__bit_clear(w, a);
            model[a] = false;
        }
        sync_full();
        if (iter % 97 == 0)
            check_equal();
        /* next_set / next_clear from a random point (and past the end). */
        const uint32_t from = rng_below(&r, N + 40);
        uint32_t es = N, ec = N;
        for (uint32_t i = from; i < N; i++)
            if (model[i]) { es = i; break; }
        for (uint32_t i = from; i < N; i++)
            if (!model[i]) { ec = i; break; }
        CHECK_EQ_U(sgrt__bits_next_set(w, NW, from), es);
        CHECK_EQ_U(sgrt__bits_next_clear(w, full, NW, from), ec);
    }
}

static void test_edges(void)
{
    for (uint32_t i = 0; i < NW; i++)
        w[i] = 0;
    /* Ranges that start/end on word boundaries and span whole words. */
    sgrt__bits_set_range(w, 32, 64);
    CHECK_EQ_U(w[0], 0);
    CHECK_EQ_U(w[1], ~0u);
    CHECK_EQ_U(w[2], ~0u);
    CHECK_EQ_U(w[3], 0);
    sgrt__bits_set_range(w, 31, 2);
    CHECK_EQ_U(w[0], 0x80000000u);
    sgrt__bits_clear_range(w, 40, 0);
    CHECK_EQ_U(w[1], ~0u);
    sgrt__bits_clear_range(w, 33, 62);
    CHECK_EQ_U(w[1], 1u);
    CHECK_EQ_U(w[2], 0x80000000u);
    /* All full: next_clear finds nothing and stops at the end. */
    for (uint32_t i = 0; i < NW; i++)
        w[i] = ~0u;
    sync_full();
    CHECK_EQ_U(sgrt__bits_next_clear(w, full, NW, 0), N);
    w[NW - 1] = 0x7FFFFFFFu;
    sync_full();
    CHECK_EQ_U(sgrt__bits_next_clear(w, full, NW, 5), N - 1);
    CHECK_EQ_U(sgrt__bits_next_set(w, NW, N - 1), N);
    CHECK_EQ_U(sgrt__bits_next_set(w, NW, N), N);
}

int main(void)
{
    test_primitives();
    test_random_ops();
    test_edges();
    return test_report("bits");
}
