/* Minimal test harness shared by the test programs: CHECK macros that count
 * failures and keep going, and a small deterministic RNG. */
#ifndef SGRT_TESTUTIL_H
#define SGRT_TESTUTIL_H

#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static int test_failures;
static long test_checks;

#define CHECK(cond)                                                                    \
    do {                                                                               \
        test_checks++;                                                                 \
        if (!(cond)) {                                                                 \
            test_failures++;                                                           \
            if (test_failures <= 20)                                                   \
                fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
        }                                                                              \
    } while (0)

#define CHECK_EQ_U(a, b)                                                               \
    do {                                                                               \
        const uint64_t a_ = (uint64_t)(a), b_ = (uint64_t)(b);                         \
        test_checks++;                                                                 \
        if (a_ != b_) {                                                                \
            test_failures++;                                                           \
            if (test_failures <= 20)                                                   \
                fprintf(stderr, "%s:%d: %s == %" PRIu64 ", expected %s == %" PRIu64 "\n", \
                        __FILE__, __LINE__, #a, a_, #b, b_);                           \
        }                                                                              \
    } while (0)

#define CHECK_RES(expr, expected)                                                      \
    do {                                                                               \
        const sgrt_result r_ = (expr);                                                 \
        test_checks++;                                                                 \
        if (r_ != (expected)) {                                                        \
            test_failures++;                                                           \
            if (test_failures <= 20)                                                   \
                fprintf(stderr, "%s:%d: %s returned %s, expected %s\n", __FILE__, __LINE__, \
                        #expr, sgrt_result_str(r_), sgrt_result_str(expected));        \
        }                                                                              \
    } while (0)

/* Exit status for main(): 0 only if every check passed and some ran. */
static inline int test_report(const char *name)
{
    printf("%s: %ld checks, %d failed\n", name, test_checks, test_failures);
    return (test_failures == 0 && test_checks > 0) ? 0 : 1;
}

typedef struct rng {
    uint64_t s;
} rng;

static inline uint64_t rng_next(rng *r) /* splitmix64 */
{
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static inline uint32_t rng_below(rng *r, uint32_t n) { return (uint32_t)(rng_next(r) % n); }

/* Uniform float in [lo, hi). */
static inline float rng_float(rng *r, float lo, float hi)
{
    return lo + (hi - lo) * (float)((double)(rng_next(r) >> 40) / (double)(1ull << 24));
}

static inline uint32_t float_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

/* Distance in units in the last place between two finite floats. */
static inline uint64_t ulp_distance(float a, float b)
{
    int64_t ia = (int32_t)float_bits(a), ib = (int32_t)float_bits(b);
    if (ia < 0)
        ia = (int64_t)INT32_MIN - ia;
    if (ib < 0)
        ib = (int64_t)INT32_MIN - ib;
    return (uint64_t)(ia > ib ? ia - ib : ib - ia);
}

#endif
