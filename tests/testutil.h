/* Minimal test harness shared by the test programs: CHECK macros that count
 * failures and keep going, REQUIRE macros that count a failure and leave the
 * current (void) function, scene helpers and a small deterministic RNG. */
#ifndef SGRT_TESTUTIL_H
#define SGRT_TESTUTIL_H

#include "sgrt.h"

#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
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

#define OK(call) CHECK_RES(call, SGRT_OK)

/* For tests where the steps after a failed one would only report its
 * consequences (or use what it failed to produce): count, then return. */
#define REQUIRE(cond)                                                                  \
    do {                                                                               \
        const int failed_before_ = test_failures;                                     \
        CHECK(cond);                                                                   \
        if (test_failures != failed_before_)                                           \
            return;                                                                    \
    } while (0)

#define REQUIRE_RES(expr, expected)                                                    \
    do {                                                                               \
        const int failed_before_ = test_failures;                                     \
        CHECK_RES(expr, expected);                                                     \
        if (test_failures != failed_before_)                                           \
            return;                                                                    \
    } while (0)

/* A failure found by hand-written logic; the message says what broke. */
#define FAIL(...)                                                                      \
    do {                                                                               \
        test_failures++;                                                               \
        fprintf(stderr, "%s:%d: ", __FILE__, __LINE__);                                \
        fprintf(stderr, __VA_ARGS__);                                                  \
        fputc('\n', stderr);                                                           \
    } while (0)

/* sgrt_scene_check as a counted check that says what broke and where; `where`
 * (may be NULL) names the situation when the line alone does not. */
static inline void check_scene_at(const sgrt_scene *s, const char *file, int line, const char *where)
{
    const char *what = NULL;
    const sgrt_result r = sgrt_scene_check(s, &what);
    test_checks++;
    if (r != SGRT_OK) {
        test_failures++;
        fprintf(stderr, "%s:%d: %s%ssgrt_scene_check: %s (%s)\n", file, line, where ? where : "",
                where ? ": " : "", sgrt_result_str(r), what ? what : "?");
    }
}

#define check_scene(s) check_scene_at((s), __FILE__, __LINE__, NULL)
#define check_scene_where(s, where) check_scene_at((s), __FILE__, __LINE__, (where))

/* A scene from `desc` (NULL: defaults); the tests cannot go on without one. */
static inline sgrt_scene *new_scene_desc(const sgrt_scene_desc *desc)
{
    sgrt_scene *s = NULL;
    OK(sgrt_scene_create(desc, &s));
    if (!s) {
        fprintf(stderr, "cannot create a scene\n");
        exit(1);
    }
    return s;
}

static inline sgrt_scene *new_scene(void) { return new_scene_desc(NULL); }

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

/* Uniform double in [0, 1), all 53 bits random. */
static inline double rng_unit(rng *r) { return (double)(rng_next(r) >> 11) * (1.0 / 9007199254740992.0); }

/* Uniform double in [lo, hi). */
static inline double rng_range(rng *r, double lo, double hi) { return lo + (hi - lo) * rng_unit(r); }

/* The rotation of the unit quaternion (x, y, z, w) as a column-major 3x3, in
 * double: the reference against which the library's float matrices are
 * judged. */
static inline void quat_rotation(double x, double y, double z, double w, double r[9])
{
    r[0] = 1 - 2 * (y * y + z * z);
    r[1] = 2 * (x * y + z * w);
    r[2] = 2 * (x * z - y * w);
    r[3] = 2 * (x * y - z * w);
    r[4] = 1 - 2 * (x * x + z * z);
    r[5] = 2 * (y * z + x * w);
    r[6] = 2 * (x * z + y * w);
    r[7] = 2 * (y * z - x * w);
    r[8] = 1 - 2 * (x * x + y * y);
}

/* The upper-left 3x3 of the column-major 4x4 `out` becomes rotation x scale
 * x shear (all column-major 3x3, scale a diagonal), rounded once to float
 * from double; out[3], out[7], out[11] become 0. */
static inline void linear_part(const double r[9], const double sc[3], const double sh[9], float out[16])
{
    for (int c = 0; c < 3; c++)
        for (int row = 0; row < 3; row++) {
            double v = 0;
            for (int k = 0; k < 3; k++)
                v += r[k * 3 + row] * sc[k] * sh[c * 3 + k];
            out[c * 4 + row] = (float)v;
        }
    out[3] = out[7] = out[11] = 0.0f;
}

static inline uint32_t float_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static inline float bits_float(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
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
