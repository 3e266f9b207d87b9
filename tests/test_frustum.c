/* SPDX-License-Identifier: MIT */
/* sgrt_frustum_planes:
 *
 *  - refusals: NULL arguments, a depth range outside the enum, a NaN or
 *    infinite element anywhere in the matrix; the output is left unwritten;
 *  - against the planes a program writes (examples/frustum.h,
 *    frustum_from_view_proj), scaled to unit normals in double, on random
 *    cameras, dense random matrices, orthographic ones, and scales from
 *    1e-30 to 1e30: within a few units of float rounding, every normal of
 *    unit length; for the 0..1 depth range, the near plane row 2 alone;
 *  - awkward matrices, exactly: the identity, an orthographic box, an
 *    infinite far plane (OpenGL) and reversed infinite depth (0..1), whose
 *    planes have no normal, the zero matrix, a plane holding no point, a d
 *    beyond float's range;
 *  - culling: a scene culled with these planes keeps the nodes it keeps with
 *    the program's planes, but for boxes within the cull's rounding margin
 *    of a plane, for a camera's matrix in either depth range;
 *  - the same bits on every target: a hash of a fixed run's output. */
#include "testutil.h"
#include "boundsutil.h"
#include "../examples/frustum.h"

static rng R = {0xF2057u};

static void fill(float p[6][4], float v)
{
    for (int k = 0; k < 6; k++)
        for (int c = 0; c < 4; c++)
            p[k][c] = v;
}

static bool all_bits(float p[6][4], float v)
{
    for (int k = 0; k < 6; k++)
        for (int c = 0; c < 4; c++)
            if (float_bits(p[k][c]) != float_bits(v))
                return false;
    return true;
}

static void identity(float m[16])
{
    memset(m, 0, 16 * sizeof m[0]);
    m[0] = m[5] = m[10] = m[15] = 1.0f;
}

/* ---- refusals ---------------------------------------------------------------- */

static void test_refusals(void)
{
    float vp[16], out[6][4];
    identity(vp);
    fill(out, 42.0f);
    CHECK_RES(sgrt_frustum_planes(NULL, SGRT_CLIP_DEPTH_NEG_ONE_TO_ONE, out), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_frustum_planes(vp, SGRT_CLIP_DEPTH_ZERO_TO_ONE, NULL), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_frustum_planes(vp, (sgrt_clip_depth)0, out), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_frustum_planes(vp, (sgrt_clip_depth)3, out), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_frustum_planes(vp, (sgrt_clip_depth)-1, out), SGRT_ERR_INVALID_ARG);
    const float bad[] = {NAN, -NAN, INFINITY, -INFINITY};
    for (int i = 0; i < 16; i++)
        for (size_t b = 0; b < sizeof bad / sizeof bad[0]; b++) {
            identity(vp);
            vp[i] = bad[b];
            CHECK_RES(sgrt_frustum_planes(vp, SGRT_CLIP_DEPTH_NEG_ONE_TO_ONE, out),
                      SGRT_ERR_INVALID_ARG);
            CHECK_RES(sgrt_frustum_planes(vp, SGRT_CLIP_DEPTH_ZERO_TO_ONE, out),
                      SGRT_ERR_INVALID_ARG);
        }
    CHECK(all_bits(out, 42.0f));
}

/* ---- against the program's planes ------------------------------------------------ */

static double worst_rel;

/* got against want scaled to a unit normal in double: each value within
 * 2^-21 of itself (the two roundings of each, and of the length), or both
 * normals zero and d of the same sign. want may overflow for huge
 * matrices: then nothing is compared. */
static void check_plane(const float got[4], const float want[4], const char *what, int k)
{
    for (int c = 0; c < 4; c++)
        if (!isfinite(want[c]))
            return;
    const double len = sqrt((double)want[0] * want[0] + (double)want[1] * want[1] +
                            (double)want[2] * want[2]);
    if (len == 0.0) {
        CHECK_MSG(got[0] == 0.0f && got[1] == 0.0f && got[2] == 0.0f &&
                      got[3] == (want[3] > 0.0f ? 1.0f : want[3] < 0.0f ? -1.0f : 0.0f),
                  "%s plane %d: no normal, expected {0, 0, 0, sign(d)}", what, k);
        return;
    }
    const double glen = sqrt((double)got[0] * got[0] + (double)got[1] * got[1] +
                             (double)got[2] * got[2]);
    CHECK_MSG(fabs(glen - 1.0) <= 0x1p-22, "%s plane %d: normal of length %.9g", what, k, glen);
    for (int c = 0; c < 4; c++) {
        const double ref = (double)want[c] / len;
        if (c == 3 && fabs(ref) > FLT_MAX) {
            CHECK_MSG(got[3] == (ref > 0 ? FLT_MAX : -FLT_MAX), "%s plane %d: d %.9g not clamped",
                      what, k, (double)got[3]);
            continue;
        }
        const double miss = fabs((double)got[c] - ref);
        const double allowed = ldexp(fabs(ref), -21) + 0x1p-140;
        if (ref != 0.0 && miss / fabs(ref) > worst_rel)
            worst_rel = miss / fabs(ref);
        CHECK_MSG(miss <= allowed, "%s plane %d value %d: %.9g, expected %.9g", what, k, c,
                  (double)got[c], ref);
    }
}

/* The program's planes of vp: OpenGL's, and for the 0..1 range the near
 * one row 2 alone (z >= 0). */
static void program_planes(const float vp[16], sgrt_clip_depth depth, float out[6][4])
{
    double v[16];
    for (int i = 0; i < 16; i++)
        v[i] = vp[i];
    frustum_from_view_proj(v, out);
    if (depth == SGRT_CLIP_DEPTH_ZERO_TO_ONE)
        for (int c = 0; c < 4; c++)
            out[4][c] = vp[c * 4 + 2];
}

static void check_against_program(const float vp[16], sgrt_clip_depth depth, const char *what)
{
    float got[6][4], want[6][4];
    OK(sgrt_frustum_planes(vp, depth, got));
    program_planes(vp, depth, want);
    for (int k = 0; k < 6; k++)
        check_plane(got[k], want[k], what, k);
}

static void random_camera(float vp[16], double scale)
{
    const double eye[3] = {rng_range(&R, -100, 100) * scale, rng_range(&R, -100, 100) * scale,
                           rng_range(&R, -100, 100) * scale};
    double at[3] = {rng_range(&R, -30, 30) * scale, rng_range(&R, -30, 30) * scale,
                    rng_range(&R, -30, 30) * scale};
    if (rng_below(&R, 8) == 0) { /* straight down */
        at[0] = eye[0];
        at[2] = eye[2];
        at[1] = eye[1] - 10 * scale;
    }
    double v[16];
    camera_view_proj(eye, at, rng_range(&R, 0.2, 2.5), rng_range(&R, 0.5, 2.5),
                     rng_range(&R, 0.01, 5) * scale, rng_range(&R, 50, 5000) * scale, v);
    for (int i = 0; i < 16; i++)
        vp[i] = (float)v[i];
}

/* Elements from a few awkward sets: 0, -0, +-1, and random. */
static float awkward_element(double scale)
{
    switch (rng_below(&R, 6)) {
    case 0:
        return 0.0f;
    case 1:
        return -0.0f;
    case 2:
        return rng_below(&R, 2) ? 1.0f : -1.0f;
    default:
        return (float)(rng_range(&R, -2, 2) * scale);
    }
}

static void test_against_program(void)
{
    static const double scales[] = {1.0, 1e-30, 1e-6, 1e6, 1e30};
    for (int round = 0; round < 20000; round++) {
        const double scale = scales[round % 5];
        float vp[16];
        switch (round / 5 % 4) {
        case 0:
            random_camera(vp, round % 5 == 1 || round % 5 == 4 ? 1.0 : scale);
            if (round % 5 == 1 || round % 5 == 4) /* the whole matrix scaled */
                for (int i = 0; i < 16; i++)
                    vp[i] = (float)(vp[i] * scale);
            break;
        case 1: /* dense */
            for (int i = 0; i < 16; i++)
                vp[i] = (float)(rng_range(&R, -2, 2) * scale);
            break;
        case 2: /* 0, -0, 1, -1 and random, element by element */
            for (int i = 0; i < 16; i++)
                vp[i] = awkward_element(scale);
            break;
        default: { /* orthographic: a box from l to r, b to t, n to f */
            const double l = rng_range(&R, -100, 0) * scale, r = l + rng_range(&R, 1, 100) * scale;
            const double b = rng_range(&R, -100, 0) * scale, t = b + rng_range(&R, 1, 100) * scale;
            const double n = rng_range(&R, -10, 10) * scale, f = n + rng_range(&R, 1, 1000) * scale;
            memset(vp, 0, sizeof vp);
            vp[0] = (float)(2 / (r - l));
            vp[5] = (float)(2 / (t - b));
            vp[10] = (float)(-2 / (f - n));
            vp[12] = (float)(-(r + l) / (r - l));
            vp[13] = (float)(-(t + b) / (t - b));
            vp[14] = (float)(-(f + n) / (f - n));
            vp[15] = 1.0f;
            break;
        }
        }
        check_against_program(vp, SGRT_CLIP_DEPTH_NEG_ONE_TO_ONE, "-1..1");
        check_against_program(vp, SGRT_CLIP_DEPTH_ZERO_TO_ONE, "0..1");
        /* The two ranges share every plane but the near one. */
        float gl[6][4], zo[6][4];
        OK(sgrt_frustum_planes(vp, SGRT_CLIP_DEPTH_NEG_ONE_TO_ONE, gl));
        OK(sgrt_frustum_planes(vp, SGRT_CLIP_DEPTH_ZERO_TO_ONE, zo));
        CHECK(memcmp(gl, zo, 4 * sizeof gl[0]) == 0 && memcmp(gl[5], zo[5], sizeof gl[5]) == 0);
    }
    printf("against the program's planes: worst relative miss %.3g (2^%.1f)\n", worst_rel,
           worst_rel > 0 ? log2(worst_rel) : -INFINITY);
}

/* ---- awkward matrices ---------------------------------------------------------------- */

static void expect(float got[6][4], float want[6][4], const char *what)
{
    for (int k = 0; k < 6; k++)
        for (int c = 0; c < 4; c++)
            CHECK_MSG(ulp_distance(got[k][c], want[k][c]) <= 1u,
                      "%s: plane %d value %d is %.9g, expected %.9g", what, k, c,
                      (double)got[k][c], (double)want[k][c]);
}

static void test_awkward(void)
{
    float vp[16], got[6][4];
    /* The identity: the cube from -1 to 1 (z from 0 to 1 for 0..1). */
    identity(vp);
    float cube[6][4] = {{1, 0, 0, 1},  {-1, 0, 0, 1}, {0, 1, 0, 1},
                              {0, -1, 0, 1}, {0, 0, 1, 1},  {0, 0, -1, 1}};
    OK(sgrt_frustum_planes(vp, SGRT_CLIP_DEPTH_NEG_ONE_TO_ONE, got));
    expect(got, cube, "identity, -1..1");
    float cube01[6][4];
    memcpy(cube01, cube, sizeof cube);
    cube01[4][3] = 0.0f;
    OK(sgrt_frustum_planes(vp, SGRT_CLIP_DEPTH_ZERO_TO_ONE, got));
    expect(got, cube01, "identity, 0..1");

    /* glOrtho(-2, 4, -1, 3, 1, 10): x >= -2, x <= 4, y >= -1, y <= 3, and
     * -z from 1 to 10. */
    memset(vp, 0, sizeof vp);
    vp[0] = 2.0f / 6.0f;
    vp[5] = 2.0f / 4.0f;
    vp[10] = -2.0f / 9.0f;
    vp[12] = -2.0f / 6.0f;
    vp[13] = -2.0f / 4.0f;
    vp[14] = -11.0f / 9.0f;
    vp[15] = 1.0f;
    const float box[6][4] = {{1, 0, 0, 2},   {-1, 0, 0, 4},  {0, 1, 0, 1},
                             {0, -1, 0, 3},  {0, 0, -1, -1}, {0, 0, 1, 10}};
    OK(sgrt_frustum_planes(vp, SGRT_CLIP_DEPTH_NEG_ONE_TO_ONE, got));
    for (int k = 0; k < 6; k++)
        for (int c = 0; c < 4; c++)
            CHECK_MSG(fabs(got[k][c] - box[k][c]) <= 4e-6 * (1 + fabs(box[k][c])),
                      "ortho plane %d value %d: %.9g, expected %.9g", k, c, (double)got[k][c],
                      (double)box[k][c]);

    /* An infinite far plane (OpenGL, near 0.5, 90 degrees): no normal, holds
     * every point. */
    memset(vp, 0, sizeof vp);
    vp[0] = vp[5] = 1.0f;
    vp[10] = -1.0f;
    vp[11] = -1.0f;
    vp[14] = -1.0f; /* -2 x near */
    OK(sgrt_frustum_planes(vp, SGRT_CLIP_DEPTH_NEG_ONE_TO_ONE, got));
    CHECK(got[5][0] == 0.0f && got[5][1] == 0.0f && got[5][2] == 0.0f && got[5][3] == 1.0f);
    CHECK(got[4][2] == -1.0f && got[4][3] == -0.5f); /* near: -z >= 0.5 */
    CHECK(got[0][0] == (float)(1 / sqrt(2.0)) && got[0][2] == -got[0][0] && got[0][3] == 0.0f);

    /* Reversed infinite depth, 0..1 (z_clip = near): the near plane of the
     * range, row 2, is the far one at infinity; the far plane of the range
     * is the near plane z <= -near. */
    memset(vp, 0, sizeof vp);
    vp[0] = vp[5] = 1.0f;
    vp[11] = -1.0f;
    vp[14] = 0.25f;
    OK(sgrt_frustum_planes(vp, SGRT_CLIP_DEPTH_ZERO_TO_ONE, got));
    CHECK(got[4][0] == 0.0f && got[4][1] == 0.0f && got[4][2] == 0.0f && got[4][3] == 1.0f);
    CHECK(got[5][0] == 0.0f && got[5][1] == 0.0f && got[5][2] == -1.0f && got[5][3] == -0.25f);

    /* The zero matrix: every plane 0 >= 0, holding every point. */
    memset(vp, 0, sizeof vp);
    OK(sgrt_frustum_planes(vp, SGRT_CLIP_DEPTH_NEG_ONE_TO_ONE, got));
    CHECK(all_bits(got, 0.0f));
    /* A plane that holds no point: row 3 = (0, 0, 0, -1), rows 0 and 1 zero. */
    vp[15] = -1.0f;
    OK(sgrt_frustum_planes(vp, SGRT_CLIP_DEPTH_NEG_ONE_TO_ONE, got));
    for (int k = 0; k < 6; k++)
        CHECK(got[k][0] == 0.0f && got[k][1] == 0.0f && got[k][2] == 0.0f && got[k][3] == -1.0f);
    /* d beyond float's range once the normal is unit: clamped. */
    memset(vp, 0, sizeof vp);
    vp[3] = 1e-30f;
    vp[15] = 3e38f;
    OK(sgrt_frustum_planes(vp, SGRT_CLIP_DEPTH_NEG_ONE_TO_ONE, got));
    for (int k = 0; k < 6; k++)
        CHECK(got[k][0] == 1.0f && got[k][1] == 0.0f && got[k][2] == 0.0f && got[k][3] == FLT_MAX);
    vp[15] = -3e38f;
    OK(sgrt_frustum_planes(vp, SGRT_CLIP_DEPTH_NEG_ONE_TO_ONE, got));
    CHECK(got[0][3] == -FLT_MAX && got[5][3] == -FLT_MAX);
    /* The largest and smallest floats: nothing overflows or underflows. */
    for (int i = 0; i < 16; i++)
        vp[i] = i % 3 == 0 ? FLT_MAX : i % 3 == 1 ? -FLT_MAX : 0x1p-149f;
    OK(sgrt_frustum_planes(vp, SGRT_CLIP_DEPTH_NEG_ONE_TO_ONE, got));
    for (int k = 0; k < 6; k++)
        for (int c = 0; c < 4; c++)
            CHECK(isfinite(got[k][c]));
    for (int i = 0; i < 16; i++)
        vp[i] = i % 2 ? 0x1p-149f : -0x1p-149f;
    OK(sgrt_frustum_planes(vp, SGRT_CLIP_DEPTH_ZERO_TO_ONE, got));
    for (int k = 0; k < 6; k++) {
        const double len = sqrt((double)got[k][0] * got[k][0] + (double)got[k][1] * got[k][1] +
                                (double)got[k][2] * got[k][2]);
        CHECK(len == 0.0 || fabs(len - 1.0) <= 0x1p-22);
    }
}

/* ---- culling ----------------------------------------------------------------------- */

static void test_culling(void)
{
    enum { N = 3000 };
    static sgrt_node h[N];
    sgrt_scene_desc d;
    memset(&d, 0, sizeof d);
    d.flags = SGRT_SCENE_BOUNDS;
    sgrt_scene *s = new_scene_desc(&d);
    sgrt_nodeset mine, theirs;
    OK(sgrt_nodeset_create(s, &mine));
    OK(sgrt_nodeset_create(s, &theirs));
    for (uint32_t i = 0; i < N; i++) {
        OK(sgrt_node_create(s, SGRT_NULL_NODE, &h[i]));
        float m[16];
        identity(m);
        for (int a = 0; a < 3; a++)
            m[12 + a] = (float)rng_range(&R, -400, 400);
        const float c[3] = {0, 0, 0};
        const float e[3] = {(float)rng_range(&R, 0, 4), (float)rng_range(&R, 0, 4),
                            (float)rng_range(&R, 0, 4)};
        OK(sgrt_node_set_local(s, h[i], m));
        OK(sgrt_node_set_bounds(s, h[i], c, e));
    }
    (void)sgrt_scene_update(s);
    long kept = 0, culled = 0, differ = 0;
    for (int round = 0; round < 200; round++) {
        const double eye[3] = {rng_range(&R, -300, 300), rng_range(&R, -300, 300),
                               rng_range(&R, -300, 300)};
        const double at[3] = {rng_range(&R, -100, 100), rng_range(&R, -100, 100),
                              rng_range(&R, -100, 100)};
        double v[16];
        camera_view_proj(eye, at, rng_range(&R, 0.3, 2.0), rng_range(&R, 0.5, 2.5),
                         rng_range(&R, 0.1, 5), rng_range(&R, 100, 800), v);
        float vp[16], vp01[16];
        for (int i = 0; i < 16; i++)
            vp[i] = (float)v[i];
        /* The same camera in 0..1 depth: z_01 = (z_gl + w) / 2. */
        for (int c = 0; c < 4; c++)
            for (int r = 0; r < 4; r++)
                vp01[c * 4 + r] =
                    r == 2 ? (float)((v[c * 4 + 2] + v[c * 4 + 3]) / 2) : (float)v[c * 4 + r];
        for (int depth = 0; depth < 2; depth++) {
            const sgrt_clip_depth range =
                depth ? SGRT_CLIP_DEPTH_ZERO_TO_ONE : SGRT_CLIP_DEPTH_NEG_ONE_TO_ONE;
            float program[6][4], planes[6][4];
            program_planes(depth ? vp01 : vp, range, program);
            OK(sgrt_scene_cull(s, program[0], 6, SGRT_NULL_NODESET, theirs, NULL));
            OK(sgrt_frustum_planes(depth ? vp01 : vp, range, planes));
            OK(sgrt_scene_cull(s, planes[0], 6, SGRT_NULL_NODESET, mine, NULL));
            for (uint32_t i = 0; i < N; i++) {
                const bool a = sgrt_nodeset_has(s, mine, h[i]), b = sgrt_nodeset_has(s, theirs, h[i]);
                kept += a;
                culled += !a;
                if (a == b)
                    continue;
                /* Only a box within the rounding margins of a plane. */
                differ++;
                float lo[3], hi[3];
                OK(sgrt_node_world_bounds(s, h[i], lo, hi));
                bool near_plane = false;
                for (int k = 0; k < 6; k++) {
                    double scale;
                    const double reach = plane_reach(planes[k], lo, hi, &scale);
                    near_plane |= fabs(reach) <= ldexp(scale, -17);
                }
                CHECK_MSG(near_plane, "round %d, %s: node %u is %s with these planes, %s with "
                          "the program's, and not near a plane", round, depth ? "0..1" : "-1..1",
                          i, a ? "kept" : "culled", b ? "kept" : "culled");
            }
        }
    }
    printf("culling: %ld kept, %ld culled, %ld decided otherwise by the program's planes "
           "(each within the margin)\n", kept, culled, differ);
    CHECK(kept > 10000 && culled > 10000);
    sgrt_scene_destroy(s);
}

/* ---- the same bits everywhere ------------------------------------------------------------ */

static void test_hash(void)
{
    rng g = {0x5EEDu};
    uint64_t hash = 0xcbf29ce484222325ull;
    for (int round = 0; round < 4000; round++) {
        float vp[16], out[6][4];
        for (int i = 0; i < 16; i++) {
            /* Floats from their bits: no arithmetic of the test's own. */
            uint32_t u = (uint32_t)rng_next(&g);
            u = (u & 0x807FFFFFu) | ((uint32_t)(100 + rng_below(&g, 56)) << 23);
            vp[i] = rng_below(&g, 5) == 0 ? 0.0f : bits_float(u);
        }
        OK(sgrt_frustum_planes(vp, round % 2 ? SGRT_CLIP_DEPTH_ZERO_TO_ONE
                                             : SGRT_CLIP_DEPTH_NEG_ONE_TO_ONE, out));
        for (int k = 0; k < 6; k++)
            for (int c = 0; c < 4; c++) {
                hash ^= float_bits(out[k][c]);
                hash *= 0x100000001b3ull;
            }
    }
    printf("hash of 4000 plane sets: 0x%016llx\n", (unsigned long long)hash);
    CHECK(hash == 0x7e62e72341cdf1f5ull);
}

int main(int argc, char **argv)
{
    rng_seed_from_args(&R, argc, argv, "frustum");
    test_refusals();
    test_against_program();
    test_awkward();
    test_culling();
    test_hash();
    return test_report("frustum");
}
