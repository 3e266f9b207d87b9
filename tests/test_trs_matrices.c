/* SPDX-License-Identifier: MIT */
/* sgrt_trs_to_matrices (src/trs_matrices.c) against what a scene stores:
 *
 *  - at every kernel level this CPU runs, the conversion on that level's
 *    trs entry, and the public call (on the kernel it chose), are
 *    bit-identical to sgrt_node_set_trs + sgrt_node_local on a scene forced
 *    to that level (sgrt_scene_desc.max_simd), for counts across the vector
 *    bodies and tails, inputs and outputs at unaligned addresses, and write
 *    nothing outside their 16 * count floats; past 65,536 entries, where the
 *    call cuts the work into pieces, it matches the reference;
 *  - the kernel it keeps is the trs entry of the table a default scene gets;
 *    first calls racing on several threads agree (run first, before
 *    anything has filled the cache; TSan sees the race in CI);
 *  - refusals (a NULL array with count > 0) write nothing; count 0 is SGRT_OK
 *    whatever the pointers;
 *  - non-finite input and overflow are converted, not refused (the header's
 *    choice): the reference's matrix, NaN where it has NaN, which
 *    sgrt_node_set_trs and sgrt_node_set_local refuse and the update,
 *    written in place through a writer, replaces by the identity.
 *
 * `test_trs_matrices --bench` prints the call's cost over its kernel's, for
 * count 1 and 64 (the figure in sgrt.h and docs/design.md), and the cost of
 * the kernel choice the first call makes. */
#define _POSIX_C_SOURCE 200809L
#include "internal.h"
#include "trs_matrices.h"
#include "testutil.h"
#include <pthread.h>
#include <time.h>

#define MAXN 1000u
/* Floats of guard around each output, and the input offset that leaves
 * every array off its natural 16-byte alignment. */
#define GUARD 5u
#define SKEW 1u

static const uint32_t counts[] = {0, 1, 15, 16, 17, 33, 1000};

typedef struct trs_input {
    float *t, *q, *sc; /* SKEW floats into their blocks */
    float *block[3];
} trs_input;

static void input_alloc(trs_input *in, uint32_t n)
{
    const size_t per[3] = {3, 4, 3};
    for (int a = 0; a < 3; a++) {
        in->block[a] = malloc((per[a] * n + SKEW) * sizeof(float));
        if (!in->block[a]) {
            fprintf(stderr, "out of memory\n");
            exit(1);
        }
    }
    in->t = in->block[0] + SKEW;
    in->q = in->block[1] + SKEW;
    in->sc = in->block[2] + SKEW;
}

static void input_free(trs_input *in)
{
    for (int a = 0; a < 3; a++)
        free(in->block[a]);
}

/* Finite values that keep T x R x S finite (quaternion components at most
 * 2^16, scales at most 2^64: kernels.h) and reach the kernels' corners:
 * signed zeros, denormals, exact and inexact unit values. */
static const float edge[] = {0.0f, -0.0f, 1e-40f, -1e-45f, 1.0f, -1.0f, 0.5f, 3.0f, 255.0f};
#define N_EDGE (sizeof edge / sizeof edge[0])

/* Entry i: a unit quaternion (what an animation system gives), one off unit
 * length (a scale and shear), or edge values anywhere. */
static void random_entry(rng *r, const trs_input *in, uint32_t i)
{
    float *t = in->t + 3u * i, *q = in->q + 4u * i, *sc = in->sc + 3u * i;
    const uint32_t mode = rng_below(r, 3);
    for (int j = 0; j < 3; j++) {
        t[j] = rng_float(r, -100.0f, 100.0f);
        sc[j] = rng_float(r, -3.0f, 3.0f);
    }
    if (mode == 0)
        random_unit_quat(r, q);
    else
        for (int j = 0; j < 4; j++)
            q[j] = rng_float(r, -1.5f, 1.5f);
    if (mode == 2) {
        float *all[10] = {&t[0], &t[1], &t[2], &q[0], &q[1], &q[2], &q[3], &sc[0], &sc[1], &sc[2]};
        for (int e = 0; e < 3; e++)
            *all[rng_below(r, 10)] = edge[rng_below(r, (uint32_t)N_EDGE)];
    }
}

/* A float buffer for `n` matrices at an unaligned address, GUARD floats of
 * a known pattern on each side. */
static float *out_alloc(uint32_t n, float **block)
{
    const size_t floats = 16u * (size_t)n + 2u * GUARD + SKEW;
    *block = malloc(floats * sizeof(float));
    if (!*block) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    memset(*block, 0xA5, floats * sizeof(float));
    return *block + GUARD + SKEW;
}

static bool guards_intact(const float *out, uint32_t n)
{
    const unsigned char *before = (const unsigned char *)(out - GUARD);
    const unsigned char *after = (const unsigned char *)(out + 16u * (size_t)n);
    for (size_t b = 0; b < GUARD * sizeof(float); b++)
        if (before[b] != 0xA5 || after[b] != 0xA5)
            return false;
    return true;
}

/* ---- first calls on several threads ----------------------------------------- */

#define RACERS 4
#define RACE_N 64u

typedef struct racer {
    pthread_t thread;
    const trs_input *in;
    float out[RACE_N][16];
    sgrt_result r;
    sgrt__trs_fn kernel;
} racer;

static void *racer_main(void *arg)
{
    racer *x = arg;
    x->r = sgrt_trs_to_matrices(RACE_N, x->in->t, x->in->q, x->in->sc, &x->out[0][0]);
    x->kernel = sgrt__trs_matrices_kernel();
    return NULL;
}

static void test_first_calls_race(void)
{
    trs_input in;
    input_alloc(&in, RACE_N);
    rng r = {0x5ACE};
    for (uint32_t i = 0; i < RACE_N; i++)
        random_entry(&r, &in, i);
    static racer x[RACERS];
    for (int i = 0; i < RACERS; i++) {
        x[i].in = &in;
        REQUIRE(pthread_create(&x[i].thread, NULL, racer_main, &x[i]) == 0);
    }
    for (int i = 0; i < RACERS; i++)
        pthread_join(x[i].thread, NULL);
    float want[RACE_N][16];
    for (uint32_t i = 0; i < RACE_N; i++)
        sgrt__trs_to_mat4(in.t + 3u * i, in.q + 4u * i, in.sc + 3u * i, want[i]);
    for (int i = 0; i < RACERS; i++) {
        CHECK_RES(x[i].r, SGRT_OK);
        CHECK(x[i].kernel == x[0].kernel);
        CHECK(memcmp(x[i].out, want, sizeof want) == 0);
    }
    input_free(&in);
}

/* ---- the kernel kept ---------------------------------------------------------- */

static void test_kernel_kept(void)
{
    sgrt__kernels def;
    sgrt__kernels_init(&def, sgrt__kernels_choose(0, NULL));
    CHECK(sgrt__trs_matrices_kernel() == def.trs);
    CHECK(sgrt__trs_matrices_kernel() == sgrt__trs_matrices_kernel());
    printf("sgrt_trs_to_matrices runs the trs entry of %s (sgrt_simd_name: %s)\n", def.name,
           sgrt_simd_name());
}

/* ---- every level against the scene's store ---------------------------------- */

static void test_level(uint32_t level, rng *r)
{
    sgrt__kernels k;
    sgrt__kernels_init(&k, level);
    sgrt_scene_desc desc = {0};
    desc.max_simd = (sgrt_simd)level;
    sgrt_scene *s = new_scene_desc(&desc);
    CHECK(strcmp(sgrt_scene_simd_name(s), k.name) == 0);
    sgrt_node *nodes = malloc(MAXN * sizeof *nodes);
    float(*want)[16] = malloc(MAXN * sizeof *want);
    REQUIRE(nodes && want);
    for (uint32_t i = 0; i < MAXN; i++)
        OK(sgrt_node_create(s, SGRT_NULL_NODE, &nodes[i]));

    trs_input in;
    input_alloc(&in, MAXN);
    uint32_t compared = 0;
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
        const uint32_t n = counts[c];
        for (uint32_t i = 0; i < n; i++) {
            random_entry(r, &in, i);
            OK(sgrt_node_set_trs(s, nodes[i], in.t + 3u * i, in.q + 4u * i, in.sc + 3u * i));
            OK(sgrt_node_local(s, nodes[i], want[i]));
        }
        float *block_l, *block_p;
        float *at_level = out_alloc(n, &block_l), *public_out = out_alloc(n, &block_p);
        if (n > 0)
            sgrt__trs_to_matrices_run(k.trs, n, in.t, in.q, in.sc, at_level);
        OK(sgrt_trs_to_matrices(n, in.t, in.q, in.sc, public_out));
        bool same_level = true, same_public = true;
        for (uint32_t i = 0; i < n; i++) {
            same_level &= memcmp(at_level + 16u * i, want[i], sizeof want[i]) == 0;
            same_public &= memcmp(public_out + 16u * i, want[i], sizeof want[i]) == 0;
        }
        CHECK_MSG(same_level, "%s, count %u: the level's conversion differs from set_trs",
                  k.name, (unsigned)n);
        CHECK_MSG(same_public, "%s, count %u: sgrt_trs_to_matrices differs from set_trs",
                  k.name, (unsigned)n);
        CHECK_MSG(guards_intact(at_level, n) && guards_intact(public_out, n),
                  "%s, count %u: a write outside the 16 * count floats", k.name, (unsigned)n);
        compared += n;
        free(block_l);
        free(block_p);
    }
    printf("level %u (%s): %u matrices bit-identical to set_trs\n", (unsigned)level, k.name,
           (unsigned)compared);
    input_free(&in);
    free(nodes);
    free(want);
    sgrt_scene_destroy(s);
}

/* ---- more than one kernel call's worth ---------------------------------------- */

/* Past 65,536 entries the call goes to the kernel in pieces (its index
 * arithmetic is 32-bit): a piece's seam, and the tail after it, land where
 * the reference puts them. */
static void test_pieces(rng *r)
{
    const uint32_t n = 65536u + 17u;
    trs_input in;
    input_alloc(&in, n);
    for (uint32_t i = 0; i < n; i++)
        random_entry(r, &in, i);
    float *block;
    float *out = out_alloc(n, &block);
    OK(sgrt_trs_to_matrices(n, in.t, in.q, in.sc, out));
    uint32_t differ = 0;
    for (uint32_t i = 0; i < n; i++) {
        float want[16];
        sgrt__trs_to_mat4(in.t + 3u * i, in.q + 4u * i, in.sc + 3u * i, want);
        differ += memcmp(out + 16u * (size_t)i, want, sizeof want) != 0;
    }
    CHECK_EQ_U(differ, 0);
    CHECK(guards_intact(out, n));
    free(block);
    input_free(&in);
}

/* ---- refusals ------------------------------------------------------------------ */

static void test_refusals(void)
{
    trs_input in;
    input_alloc(&in, 5);
    rng r = {0xBAD};
    for (uint32_t i = 0; i < 5; i++)
        random_entry(&r, &in, i);
    float *block;
    float *out = out_alloc(5, &block);
    unsigned char before[16 * 5 * sizeof(float)];
    memcpy(before, out, sizeof before);
    for (uint32_t n = 1; n <= 5; n += 4) {
        CHECK_RES(sgrt_trs_to_matrices(n, NULL, in.q, in.sc, out), SGRT_ERR_INVALID_ARG);
        CHECK_RES(sgrt_trs_to_matrices(n, in.t, NULL, in.sc, out), SGRT_ERR_INVALID_ARG);
        CHECK_RES(sgrt_trs_to_matrices(n, in.t, in.q, NULL, out), SGRT_ERR_INVALID_ARG);
        CHECK_RES(sgrt_trs_to_matrices(n, in.t, in.q, in.sc, NULL), SGRT_ERR_INVALID_ARG);
        CHECK_RES(sgrt_trs_to_matrices(n, NULL, NULL, NULL, NULL), SGRT_ERR_INVALID_ARG);
    }
    OK(sgrt_trs_to_matrices(0, NULL, NULL, NULL, NULL));
    OK(sgrt_trs_to_matrices(0, in.t, in.q, in.sc, out));
    CHECK(memcmp(before, out, sizeof before) == 0 && guards_intact(out, 5));
    free(block);
    input_free(&in);
}

/* ---- non-finite input: converted, refused downstream --------------------------- */

static bool same_or_both_nan(const float *a, const float *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!(isnan(a[i]) && isnan(b[i])) && float_bits(a[i]) != float_bits(b[i]))
            return false;
    return true;
}

static void test_non_finite(void)
{
    enum { N = 33 }; /* a vector body of every width and a tail */
    trs_input in;
    input_alloc(&in, N);
    rng r = {0x1F};
    for (uint32_t i = 0; i < N; i++)
        random_entry(&r, &in, i);
    /* NaN, infinities, and finite inputs whose matrix overflows, in the
     * vector bodies and the tail. */
    in.t[3u * 2u + 1u] = NAN;
    in.q[4u * 5u + 2u] = INFINITY;
    in.sc[3u * 9u + 0u] = -INFINITY;
    in.q[4u * 17u + 0u] = 1e20f; /* |q|^2 overflows */
    in.sc[3u * 30u + 2u] = 3e38f; /* times 1 - 2 (x^2 + y^2) = -7 */
    in.q[4u * 30u + 0u] = 2.0f;
    in.q[4u * 30u + 1u] = 0.0f;
    in.q[4u * 32u + 1u] = NAN;

    float out[N][16];
    OK(sgrt_trs_to_matrices(N, in.t, in.q, in.sc, &out[0][0]));

    sgrt_scene *s = new_scene();
    sgrt_node nodes[N];
    for (uint32_t i = 0; i < N; i++)
        OK(sgrt_node_create(s, i ? nodes[i - 1] : SGRT_NULL_NODE, &nodes[i]));
    uint32_t bad = 0, first_bad = N;
    for (uint32_t i = 0; i < N; i++) {
        float ref[16], stored[16];
        sgrt__trs_to_mat4(in.t + 3u * i, in.q + 4u * i, in.sc + 3u * i, ref);
        CHECK_MSG(same_or_both_nan(out[i], ref, 16), "entry %u differs from the reference",
                  (unsigned)i);
        const sgrt_result want = finite16(ref) ? SGRT_OK : SGRT_ERR_INVALID_ARG;
        CHECK_RES(sgrt_node_set_trs(s, nodes[i], in.t + 3u * i, in.q + 4u * i, in.sc + 3u * i),
                  want);
        CHECK_RES(sgrt_node_set_local(s, nodes[i], out[i]), want);
        if (want != SGRT_OK) {
            bad++;
            if (first_bad == N)
                first_bad = i;
            continue;
        }
        OK(sgrt_node_local(s, nodes[i], stored));
        CHECK(memcmp(stored, out[i], sizeof stored) == 0);
    }
    CHECK_EQ_U(bad, 6);

    /* In place through a writer: the update puts the identity where the
     * matrix is not finite, counts them and names the first such entry. */
    sgrt_writer w = SGRT_NULL_WRITER;
    OK(sgrt_writer_create(s, N, nodes, 0, &w));
    float *locals = NULL;
    const uint32_t *slots = NULL;
    OK(sgrt_writer_begin(s, w, &locals, &slots));
    for (uint32_t i = 0; i < N; i++)
        OK(sgrt_trs_to_matrices(1, in.t + 3u * i, in.q + 4u * i, in.sc + 3u * i,
                                locals + 16u * slots[i]));
    OK(sgrt_writer_commit(s, w, 0, N));
    (void)sgrt_scene_update(s);
    sgrt_node named = SGRT_NULL_NODE;
    CHECK_EQ_U(sgrt_scene_nonfinite_locals(s, &named), bad);
    CHECK_EQ_U(named.id, nodes[first_bad].id);
    float got[16];
    OK(sgrt_node_local(s, nodes[first_bad], got));
    CHECK(memcmp(got, IDENTITY, sizeof got) == 0);
    check_scene(s);
    OK(sgrt_writer_destroy(s, w));
    sgrt_scene_destroy(s);
    input_free(&in);
}

/* ---- --bench -------------------------------------------------------------------- */

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* ns per call, the best of 200 blocks of 1000 calls: the public call, or the
 * kernel it runs called directly. Inputs and output stay in L1. */
static double bench_calls(uint32_t n, const trs_input *in, float *out, bool direct)
{
    const sgrt__trs_fn k = sgrt__trs_matrices_kernel();
    double best = 1e30;
    uint32_t failed = 0;
    for (int block = 0; block < 200; block++) {
        const double t0 = now_ns();
        for (int rep = 0; rep < 1000; rep++) {
            if (direct)
                k(in->t, in->q, in->sc, out, n);
            else
                failed |= (uint32_t)(sgrt_trs_to_matrices(n, in->t, in->q, in->sc, out) != SGRT_OK);
        }
        const double t = (now_ns() - t0) / 1000.0;
        if (t < best)
            best = t;
    }
    if (failed)
        FAIL("sgrt_trs_to_matrices refused the bench's input");
    return best;
}

static void bench(void)
{
    trs_input in;
    input_alloc(&in, 64);
    rng r = {0xBE1C};
    for (uint32_t i = 0; i < 64; i++) { /* an animation's: no denormal to slow the FPU */
        random_unit_quat(&r, in.q + 4u * i);
        for (uint32_t j = 0; j < 3; j++) {
            in.t[3u * i + j] = rng_float(&r, -100.0f, 100.0f);
            in.sc[3u * i + j] = rng_float(&r, 0.5f, 2.0f);
        }
    }
    float *block;
    float *out = out_alloc(64, &block);
    printf("sgrt_trs_to_matrices on %s, ns per call (best of 200 blocks of 1000 calls)\n",
           sgrt_simd_name());
    printf("%6s %10s %10s %10s\n", "count", "call", "kernel", "overhead");
    for (uint32_t n = 1; n <= 64; n *= 64) {
        const double call = bench_calls(n, &in, out, false);
        const double kernel = bench_calls(n, &in, out, true);
        printf("%6u %10.2f %10.2f %10.2f\n", (unsigned)n, call, kernel, call - kernel);
    }
    double best = 1e30;
    for (int i = 0; i < 20; i++) {
        const double t0 = now_ns();
        sgrt__kernels k;
        sgrt__kernels_init(&k, sgrt__kernels_choose(0, NULL));
        const double t = now_ns() - t0;
        if (t < best && k.trs)
            best = t;
    }
    printf("the first call's kernel choice: %.0f ns (best of 20)\n", best);
    free(block);
    input_free(&in);
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--bench") == 0) {
        bench();
        return test_failures ? 1 : 0;
    }
    rng r = {0x7125A7u};
    rng_seed_from_args(&r, argc, argv, "trs_matrices");
    test_first_calls_race(); /* first: nothing has filled the cache yet */
    test_kernel_kept();
    /* Every level a scene can run here: up to the CPU's, or the reference
     * alone in a -Dsimd=scalar build. */
    for (uint32_t level = SGRT__LEVEL_SCALAR; level <= sgrt__kernels_choose(0, NULL); level++)
        test_level(level, &r);
    test_pieces(&r);
    test_refusals();
    test_non_finite();
    return test_report("trs_matrices");
}
