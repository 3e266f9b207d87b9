/* SPDX-License-Identifier: MIT */
/* The test harness shared by the test programs.
 *
 *  - CHECK macros count a failure and keep going; REQUIRE macros count one and
 *    leave the current (void) function; FAIL reports a failure found by
 *    hand-written logic. test_report() turns the counts into main's status.
 *    A test that must stop at its first failure (to print how to reproduce
 *    it) sets test_on_failure.
 *  - one RNG (splitmix64) and the random transforms built on it;
 *  - matrices (IDENTITY, translation) and slots (slot_of, slots_in_use,
 *    slots_packed);
 *  - lists of node handles: a random live one, the dead ones dropped;
 *  - test_exec: executors for the parallel update (in order, shuffled, or
 *    on the thread pool of examples/executor_pthread.h);
 *  - test_alloc: the counting / failing allocator;
 *  - snapshot: the observable state of a scene, to show that a call changed
 *    nothing;
 *  - structure_diff / worlds_diff / check_structure: a scene against the
 *    reference model (tests/lib/refmodel.h).
 *
 * The counters are static, one set per program file, and not atomic:
 * threads other than the main one report through their own counts. What
 * counts checks is therefore inline here (a function in tests/lib/ would
 * count into a set of its own); the rest is built into the test_support
 * library (tests/lib/). */
#ifndef SGRT_TESTUTIL_H
#define SGRT_TESTUTIL_H

#include "sgrt.h"

#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(_WIN32)
#include <malloc.h>
#endif

static int test_failures;
static long test_checks;

/* Called after each failure has been counted and reported (NULL: go on). */
static void (*test_on_failure)(void);

static inline void test_failed(void)
{
    if (test_on_failure)
        test_on_failure();
}

#define CHECK(cond)                                                                    \
    do {                                                                               \
        test_checks++;                                                                 \
        if (!(cond)) {                                                                 \
            test_failures++;                                                           \
            if (test_failures <= 20)                                                   \
                fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
            test_failed();                                                             \
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
            test_failed();                                                             \
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
            test_failed();                                                             \
        }                                                                              \
    } while (0)

#define OK(call) CHECK_RES(call, SGRT_OK)

/* A call that may succeed or be refused with one known code (a random
 * program's write to a node that may be dead, a re-parenting that may make a
 * cycle): a counted check that it returned one of the two. */
#define OK_OR(call, other)                                                             \
    do {                                                                               \
        test_checks++;                                                                 \
        const sgrt_result r_ = (call);                                                 \
        if (r_ != SGRT_OK && r_ != (other)) {                                          \
            test_failures++;                                                           \
            fprintf(stderr, "%s:%d: %s returned %s, expected success or %s\n", __FILE__, \
                    __LINE__, #call, sgrt_result_str(r_), sgrt_result_str(other));     \
            test_failed();                                                             \
        }                                                                              \
    } while (0)

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
        test_checks++;                                                                 \
        test_failures++;                                                               \
        fprintf(stderr, "%s:%d: ", __FILE__, __LINE__);                                \
        fprintf(stderr, __VA_ARGS__);                                                  \
        fputc('\n', stderr);                                                           \
        test_failed();                                                                 \
    } while (0)

/* A counted check whose failure message says what broke. */
#define CHECK_MSG(cond, ...)                                                           \
    do {                                                                               \
        if (cond)                                                                      \
            test_checks++;                                                             \
        else                                                                           \
            FAIL(__VA_ARGS__);                                                         \
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
        test_failed();
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

/* The seed from argv[1] when given (to reproduce a run), printed either way. */
static inline void rng_seed_from_args(rng *r, int argc, char **argv, const char *name)
{
    if (argc > 1)
        r->s = strtoull(argv[1], NULL, 0);
    printf("%s: seed 0x%llx\n", name, (unsigned long long)r->s);
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

/* Keep-world's tolerance as a measure: the worst miss of `got` against
 * `want` over the four columns, in units of the tolerance, 2^-12 x max(1,
 * the largest |entry| of want's column). Above 1: out of tolerance. */
static inline double column_miss(const float got[16], const float want[16])
{
    double worst = 0.0;
    for (int c = 0; c < 4; c++) {
        double scale = 1.0, miss = 0.0;
        /* Plain comparisons, not fmax: aarch64 gcc 12 at -O3 fails on an
         * fmax reduction here (internal compiler error in the vectoriser). */
        for (int r = 0; r < 4; r++) {
            const double a = fabs((double)want[c * 4 + r]);
            const double d = fabs((double)got[c * 4 + r] - (double)want[c * 4 + r]);
            if (a > scale)
                scale = a;
            if (d > miss)
                miss = d;
        }
        const double m = miss / (scale / 4096.0);
        if (m > worst)
            worst = m;
    }
    return worst;
}

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

/* True when all 16 elements of m are finite. */
static inline bool finite16(const float *m)
{
    for (int k = 0; k < 16; k++)
        if (!isfinite(m[k]))
            return false;
    return true;
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

/* Blocks of `align` (a power of two) for test data; size is rounded up to a
 * multiple of it. The Windows C runtime has no aligned_alloc: its
 * _aligned_malloc blocks must go back through _aligned_free. */
static inline void *test_aligned_alloc(size_t align, size_t size)
{
    const size_t rounded = (size + align - 1u) & ~(align - 1u);
#if defined(_WIN32)
    return _aligned_malloc(rounded, align);
#else
    return aligned_alloc(align, rounded);
#endif
}

static inline void test_aligned_free(void *p)
{
#if defined(_WIN32)
    _aligned_free(p);
#else
    free(p);
#endif
}

/* ---- a log (sgrt_scene_desc.log) ------------------------------------------ */

/* A log that counts its entries and keeps the last one, its message copied:
 * .log = test_log_record, .log_user = &a_test_log. */
typedef struct test_log {
    uint32_t count;
    sgrt_log_entry last;
    char message[512];
} test_log;

static inline void test_log_record(void *user, const sgrt_log_entry *e)
{
    test_log *r = user;
    r->count++;
    r->last = *e;
    snprintf(r->message, sizeof r->message, "%s", e->message ? e->message : "");
}

/* ---- matrices and slots -------------------------------------------------- */

/* The 4x4 identity, column-major as every matrix here. */
static const float IDENTITY[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};

/* A translation by (x, y, z). Small integers keep every product of such
 * matrices exact in float, so tests can expect exact sums. */
static inline void translation(float x, float y, float z, float m[16])
{
    memcpy(m, IDENTITY, sizeof IDENTITY);
    m[12] = x;
    m[13] = y;
    m[14] = z;
}

/* Node n's local becomes a translation by (x, y, z); a counted check that
 * the call succeeds. */
static inline void set_translation(sgrt_scene *s, sgrt_node n, float x, float y, float z)
{
    float m[16];
    translation(x, y, z, m);
    OK(sgrt_node_set_local(s, n, m));
}

/* The slot of a live node, with a counted check that it has one
 * (UINT32_MAX when not). */
static inline uint32_t slot_of(const sgrt_scene *s, sgrt_node n)
{
    uint32_t slot = UINT32_MAX;
    OK(sgrt_node_slot(s, n, &slot));
    return slot;
}

/* Slots in use: the world array's count, holes included. */
static inline uint32_t slots_in_use(const sgrt_scene *s)
{
    uint32_t n = 0;
    (void)sgrt_scene_world_array(s, &n);
    return n;
}

/* No dead slot below the last live one: what a hole reclamation leaves
 * behind. After a call that leaves a hole below a node that stays where it
 * is (a destroy below it, a relocation out from under its parent), only a
 * reclamation in that call can give this. */
static inline bool slots_packed(const sgrt_scene *s)
{
    return slots_in_use(s) == sgrt_scene_node_count(s);
}

/* ---- handle lists (tests/lib/nodes.c) ------------------------------------ */

/* The position in h[0..n) of a node alive in s, drawn at random: up to 64
 * draws, UINT32_MAX when every one found a dead node (or n is 0). */
uint32_t pick_live(const sgrt_scene *s, const sgrt_node *h, uint32_t n, rng *r);

/* Removes the handles of dead nodes from h[0..n), the others keeping their
 * order, and returns how many remain. `from` (may be NULL) receives for
 * each remaining position k the position it had (from[k] >= k), so that
 * arrays kept beside h can follow it in place. */
uint32_t drop_dead(const sgrt_scene *s, sgrt_node *h, uint32_t n, uint32_t *from);

/* Sorts the ids of live nodes ids[0..n) by slot and removes repeats (the
 * entries of a writer in slot order, as a skeleton's joints are); returns
 * how many remain. */
uint32_t ids_by_slot(const sgrt_scene *s, uint32_t *ids, uint32_t n);

/* ---- executors for the parallel update (tests/lib/exec.c) ---------------- */

/* How a test executor runs the tasks of one sgrt_executor.run call. */
typedef enum test_exec_mode {
    TEST_EXEC_IN_ORDER, /* on the calling thread, 0 to count - 1 */
    TEST_EXEC_SHUFFLED, /* on the calling thread, in a random order */
    TEST_EXEC_THREADS,  /* on the thread pool of examples/executor_pthread.h */
} test_exec_mode;

/* The most tasks sgrt_scene_update_parallel hands to one run call (sgrt.h). */
#define TEST_EXEC_MAX_TASKS 256u

struct thread_pool;

typedef struct test_exec {
    test_exec_mode mode;
    rng r;               /* draws the shuffled orders */
    uint64_t runs;       /* run calls */
    uint64_t tasks;      /* tasks they handed out */
    uint32_t most_tasks; /* the most in one call (a shuffle holds TEST_EXEC_MAX_TASKS) */
    struct thread_pool *pool;
} test_exec;

/* Sets e up to run tasks as `mode` says, shuffling with `seed`; for
 * TEST_EXEC_THREADS, starts a pool in which `threads` threads (the caller
 * of run and threads - 1 more) take tasks. false when the pool cannot
 * start. */
bool test_exec_start(test_exec *e, test_exec_mode mode, uint64_t seed, uint32_t threads);
void test_exec_stop(test_exec *e);

/* An sgrt_executor that runs on e and tells the library it has `workers`
 * workers (the library splits the work by that; e runs it as it runs). */
sgrt_executor test_exec_executor(test_exec *e, uint32_t workers);

/* sgrt_tracker_collect as a counted check: it must return SGRT_OK and
 * write at most `max` ranges. Returns how many it wrote; *more receives
 * whether more are pending, or, with more NULL, must be false. */
static inline uint32_t test_collect(const sgrt_scene *s, sgrt_tracker t, sgrt_range *out,
                                    uint32_t max, uint32_t gap, bool *more)
{
    uint32_t n = UINT32_MAX;
    bool m = true;
    const sgrt_result r = sgrt_tracker_collect(s, t, out, max, gap, &n, &m);
    CHECK_MSG(r == SGRT_OK && n <= max && (more || !m),
              "sgrt_tracker_collect(max %u): %s, %u ranges, more %d", (unsigned)max,
              sgrt_result_str(r), (unsigned)n, (int)m);
    if (more)
        *more = m;
    return n <= max ? n : 0u;
}

/* ---- twin scenes ----------------------------------------------------------- */

/* Two scenes driven alike (na[i] and nb[i] made and written by the
 * equivalent calls), each with a tracker made at the same point: the same
 * liveness and locals, the same update count (the update runs on both),
 * then the same worlds, previous worlds (flags has SGRT_SCENE_PREV_WORLD),
 * world boxes (SGRT_SCENE_BOUNDS) and subtree boxes
 * (SGRT_SCENE_SUBTREE_BOUNDS) bit for bit, the same tracker ranges; and
 * sgrt_scene_check passes on a. */
static inline void twins_compare(sgrt_scene *a, sgrt_tracker ta, const sgrt_node *na,
                                 sgrt_scene *b, sgrt_tracker tb, const sgrt_node *nb,
                                 uint32_t n, uint32_t flags, const char *what)
{
    float la[16], lb[16];
    uint32_t local_diff = 0, world_diff = 0;
    for (uint32_t i = 0; i < n; i++) {
        const bool alive = sgrt_node_alive(a, na[i]);
        CHECK(alive == sgrt_node_alive(b, nb[i]));
        if (!alive)
            continue;
        OK(sgrt_node_local(a, na[i], la));
        OK(sgrt_node_local(b, nb[i], lb));
        local_diff += memcmp(la, lb, sizeof la) != 0;
    }
    if (local_diff)
        FAIL("%s: %u locals differ", what, local_diff);
    CHECK_EQ_U(sgrt_scene_update(a), sgrt_scene_update(b));
    for (uint32_t i = 0; i < n; i++) {
        if (!sgrt_node_alive(a, na[i]))
            continue;
        OK(sgrt_node_world(a, na[i], la));
        OK(sgrt_node_world(b, nb[i], lb));
        world_diff += memcmp(la, lb, sizeof la) != 0;
    }
    if (world_diff)
        FAIL("%s: %u worlds differ", what, world_diff);
    if (flags & SGRT_SCENE_PREV_WORLD) {
        uint32_t ca = 0, cb = 0, prev_diff = 0;
        const float *pa = sgrt_scene_prev_world_array(a, &ca);
        const float *pb = sgrt_scene_prev_world_array(b, &cb);
        for (uint32_t i = 0; i < n; i++) {
            uint32_t sa, sb;
            if (sgrt_node_slot(a, na[i], &sa) == SGRT_OK && sgrt_node_slot(b, nb[i], &sb) == SGRT_OK)
                prev_diff += memcmp(pa + 16u * sa, pb + 16u * sb, 64) != 0;
        }
        if (prev_diff)
            FAIL("%s: %u previous worlds differ", what, prev_diff);
    }
    if (flags & SGRT_SCENE_BOUNDS) {
        uint32_t box_diff = 0;
        for (uint32_t i = 0; i < n; i++) {
            float la3[3], ha3[3], lb3[3], hb3[3];
            if (!sgrt_node_alive(a, na[i]))
                continue;
            for (int sub = 0; sub < 2; sub++) {
                if (sub && !(flags & SGRT_SCENE_SUBTREE_BOUNDS))
                    break;
                OK((sub ? sgrt_node_subtree_bounds : sgrt_node_world_bounds)(a, na[i], la3, ha3));
                OK((sub ? sgrt_node_subtree_bounds : sgrt_node_world_bounds)(b, nb[i], lb3, hb3));
                box_diff += memcmp(la3, lb3, sizeof la3) != 0 || memcmp(ha3, hb3, sizeof ha3) != 0;
            }
        }
        if (box_diff)
            FAIL("%s: %u world boxes differ", what, box_diff);
    }
    sgrt_range *ra = malloc((size_t)n * sizeof *ra), *rb = malloc((size_t)n * sizeof *rb);
    if (!ra || !rb) {
        fprintf(stderr, "twins_compare: out of memory\n");
        abort();
    }
    const uint32_t ca = test_collect(a, ta, ra, n, 0, NULL);
    const uint32_t cb = test_collect(b, tb, rb, n, 0, NULL);
    CHECK_EQ_U(ca, cb);
    CHECK(ca == cb && memcmp(ra, rb, ca * sizeof ra[0]) == 0);
    free(ra);
    free(rb);
    check_scene(a);
}

/* ---- random transforms (tests/lib/random.c) ----------------------------- */

/* A uniformly random unit quaternion (x, y, z, w). */
void random_unit_quat(rng *r, float q[4]);

/* A well-conditioned affine matrix: rotation x scale in +-[0.5, 2] (one axis
 * in ten mirrored) x shear up to 0.3, translation up to 20. */
void random_affine(rng *r, float out[16]);

/* ---- the test allocator (tests/lib/alloc.c) ----------------------------- */

/* An sgrt_allocator that counts, fails (or misaligns) on request and checks its contract:
 * each alignment a power of two at most 64, each free of a live block with
 * the size that was asked for. One per scene or per thread; no shared state.
 * Zero-initialise, set the fields under "settings", hand test_alloc_hooks()
 * to a scene, and call test_alloc_release() when done. */
typedef struct test_alloc {
    /* settings */
    uint64_t fail_at;   /* call number (1-based, see `calls`) that fails; 0: none */
    uint64_t fail_from; /* every call from this number on fails; 0: none, 1: all */
    /* call number answered, when it asks for more than 16-byte alignment,
     * with a block aligned to 16 only (a 64-aligned block + 16): an
     * allocator that ignores `align`; 0: none */
    uint64_t misalign_at;

    /* what happened */
    uint64_t calls;           /* alloc calls, failed ones included */
    uint64_t failures;        /* alloc calls answered NULL on purpose */
    uint64_t misaligned;      /* alloc calls answered misaligned on purpose */
    uint64_t frees;           /* free calls */
    uint64_t live_blocks;     /* allocated and not yet freed */
    size_t live_bytes;        /* sum of their requested sizes */
    uint64_t contract_errors; /* bad alignment, unknown block, wrong size */
    char last_error[160];     /* the latest contract error, for messages */

    struct test_block *blocks; /* live blocks (internal) */
    size_t nblocks, capblocks;
} test_alloc;

void *test_alloc_alloc(size_t size, size_t align, void *user);
void test_alloc_free(void *ptr, size_t size, void *user);

static inline sgrt_allocator test_alloc_hooks(test_alloc *ta)
{
    const sgrt_allocator al = {test_alloc_alloc, test_alloc_free, ta};
    return al;
}

/* Frees the allocator's own bookkeeping (not the scene's blocks). */
void test_alloc_release(test_alloc *ta);

/* A scene with default options allocating through `ta`, which is reset
 * first. */
static inline sgrt_scene *new_scene_alloc(test_alloc *ta)
{
    memset(ta, 0, sizeof *ta);
    const sgrt_allocator al = test_alloc_hooks(ta);
    const sgrt_scene_desc desc = {.allocator = &al}; /* the scene copies the hooks */
    return new_scene_desc(&desc);
}

/* Counted checks that the allocator saw no contract error and, with
 * `empty`, that nothing is left allocated. */
static inline void check_alloc_at(const test_alloc *ta, bool empty, const char *file, int line)
{
    test_checks++;
    if (ta->contract_errors != 0 || (empty && (ta->live_blocks != 0 || ta->live_bytes != 0))) {
        test_failures++;
        fprintf(stderr, "%s:%d: allocator: %llu contract error(s)%s%s; %llu block(s), %zu bytes live\n",
                file, line, (unsigned long long)ta->contract_errors,
                ta->contract_errors ? ", last: " : "", ta->contract_errors ? ta->last_error : "",
                (unsigned long long)ta->live_blocks, ta->live_bytes);
        test_failed();
    }
}

#define check_alloc(ta) check_alloc_at((ta), false, __FILE__, __LINE__)
#define check_alloc_empty(ta) check_alloc_at((ta), true, __FILE__, __LINE__)

/* The end of a scene from new_scene_alloc: checked, destroyed, and nothing
 * left allocated. */
#define end_scene_alloc(s, ta)                                                         \
    do {                                                                               \
        check_scene_at((s), __FILE__, __LINE__, NULL);                                 \
        sgrt_scene_destroy(s);                                                         \
        check_alloc_at((ta), true, __FILE__, __LINE__);                                \
        test_alloc_release(ta);                                                        \
    } while (0)

/* ---- snapshots (tests/lib/snapshot.c) ----------------------------------- */

/* The observable state of a scene through the public API, for tests that
 * must show that a call changed nothing: the node count and, for every handle
 * in a list, whether it is alive and, if so, its parent, first child, next
 * sibling, the set of its children, its local, world (as of the last update)
 * and exact current world. Matrices compare bit for bit, so NaN payloads and
 * signed zeros count. */
typedef struct snap_node {
    uint32_t id;
    bool alive;
    uint32_t parent, first_child, next_sibling;
    /* the same as positions in the handle list (UINT32_MAX: absent) */
    uint32_t parent_pos, first_child_pos, next_sibling_pos;
    uint32_t child_count;
    uint64_t child_sum;     /* order-free digest of the child ids */
    uint64_t child_pos_sum; /* same over their positions in the handle list */
    float local[16], world[16], world_now[16];
} snap_node;

typedef struct snapshot {
    uint32_t node_count;
    uint32_t n;
    snap_node *nodes;
} snapshot;

/* Reads only const entry points, so it cannot disturb the scene. Aborts on
 * an inconsistency between them (alive but unreadable), itself a library
 * bug. */
void snapshot_take(const sgrt_scene *s, const sgrt_node *handles, uint32_t n, snapshot *out);
void snapshot_free(snapshot *sn);

/* NULL when equal, else the first difference (static buffer). With
 * by_position, ids are not compared, only the shape they describe (parents
 * and children as positions in the handle lists): for two scenes built by
 * the same calls, whose ids differ by the per-scene scramble. */
const char *snapshot_diff_ex(const snapshot *a, const snapshot *b, bool by_position);

static inline const char *snapshot_diff(const snapshot *a, const snapshot *b)
{
    return snapshot_diff_ex(a, b, false);
}

/* A counted check that the scene still shows `before` (taken over `handles`
 * with before->n entries); `what` names the calls that must have changed
 * nothing. */
static inline void check_unchanged_at(const sgrt_scene *s, const snapshot *before,
                                      const sgrt_node *handles, const char *what,
                                      const char *file, int line)
{
    snapshot now;
    snapshot_take(s, handles, before->n, &now);
    const char *diff = snapshot_diff(before, &now);
    test_checks++;
    if (diff) {
        test_failures++;
        fprintf(stderr, "%s:%d: %s changed the scene: %s\n", file, line, what, diff);
        test_failed();
    }
    snapshot_free(&now);
}

#define check_unchanged(s, before, handles, what)                                      \
    check_unchanged_at((s), (before), (handles), (what), __FILE__, __LINE__)

/* ---- the scene against the reference model (tests/lib/refmodel_diff.c) - */

struct ref_model;

/* NULL when the scene holds the model's structure: the same node count and,
 * for every model node, alive, the same parent, local bits and set of
 * children. Else the first difference (static buffer). */
const char *structure_diff(const sgrt_scene *s, const struct ref_model *m);

/* NULL when every model node's world (sgrt_node_world, to be called right
 * after both updated) is within the model's tolerance. Else the first node
 * off (static buffer). *max_depth (may be NULL) receives the deepest node's
 * depth. */
const char *worlds_diff(const sgrt_scene *s, const struct ref_model *m, uint32_t *max_depth);

/* structure_diff as a counted check that says where it failed. */
static inline void check_structure_at(const sgrt_scene *s, const struct ref_model *m,
                                      const char *file, int line)
{
    const char *diff = structure_diff(s, m);
    test_checks++;
    if (diff) {
        test_failures++;
        fprintf(stderr, "%s:%d: the scene's structure differs from the model: %s\n", file, line,
                diff);
        test_failed();
    }
}

#define check_structure(s, m) check_structure_at((s), (m), __FILE__, __LINE__)

#endif
