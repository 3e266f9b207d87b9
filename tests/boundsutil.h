/* SPDX-License-Identifier: MIT */
/* What the bounds, cull and kernel tests judge the library by, in exact
 * arithmetic.
 *
 * A product of two floats is exact in double (24 + 24 bits fit in 53), so a
 * sum of such products and floats is a sum of exact doubles; its sign is
 * found exactly by Shewchuk's expansion arithmetic (each addition split by
 * TwoSum into a rounded sum and its exact error, which needs IEEE double
 * with round to nearest and no contraction: the project's flags). On that
 * rest:
 *   - exact_box_contains: the library's world box contains the exact box of
 *     its float world matrix and float local box (Arvo's method);
 *   - box_slack: how far it lies outside the exact box, in units of the
 *     bound the library states;
 *   - exact_plane_sign: the sign of n.p + d for a box corner.
 * Test-only. The awkward worlds and boxes the bounds tests and the box
 * kernels' tests draw, and the log capture at the end, need testutil.h,
 * included first. */
#ifndef SGRT_TEST_BOUNDSUTIL_H
#define SGRT_TEST_BOUNDSUTIL_H

#include "sgrt.h"

#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

typedef struct expansion {
    double c[48];
    int n;
} expansion;

/* e += b, exactly (Shewchuk's GROW-EXPANSION with zero elimination). */
static inline void exp_add(expansion *e, double b)
{
    int k = 0;
    double q = b;
    for (int i = 0; i < e->n; i++) {
        const double x = q + e->c[i];
        const double bv = x - q, av = x - bv;
        const double lo = (q - av) + (e->c[i] - bv);
        q = x;
        if (lo != 0.0)
            e->c[k++] = lo;
    }
    e->c[k++] = q;
    e->n = k;
}

/* The sign of the exact sum: its largest component's. */
static inline int exp_sign(const expansion *e)
{
    for (int i = e->n - 1; i >= 0; i--)
        if (e->c[i] != 0.0)
            return e->c[i] > 0.0 ? 1 : -1;
    return 0;
}

/* Sign of the exact value, on axis r, of the world box's max (side 1) or
 * min (side -1) minus `bound`: sum_j M[r][j] c_j + t_r + side * sum_j
 * |M[r][j]| e_j - bound. */
static inline int exact_side_minus(const float m[16], const float c[3], const float e[3],
                                   int r, int side, float bound)
{
    expansion x = {{0}, 0};
    for (int j = 0; j < 3; j++) {
        exp_add(&x, (double)m[j * 4 + r] * (double)c[j]);
        exp_add(&x, (double)side * fabs((double)m[j * 4 + r]) * (double)e[j]);
    }
    exp_add(&x, (double)m[12 + r]);
    exp_add(&x, -(double)bound);
    return exp_sign(&x);
}

/* Whether [lo, hi] contains the exact box of local box (c, e) under the
 * affine world m, on every axis. */
static inline bool exact_box_contains(const float m[16], const float c[3], const float e[3],
                                      const float lo[3], const float hi[3])
{
    for (int r = 0; r < 3; r++)
        if (exact_side_minus(m, c, e, r, 1, hi[r]) > 0 ||
            exact_side_minus(m, c, e, r, -1, lo[r]) < 0)
            return false;
    return true;
}

/* The worst distance, over the six sides, from [lo, hi] out to the exact box,
 * in units of 2^-20 x B_r + 2^-120, with B_r = |t_r| + sum_j |M[r][j]| (|c_j| +
 * e_j) (the bound the header states). At most 1 passes. */
static inline double box_slack(const float m[16], const float c[3], const float e[3],
                               const float lo[3], const float hi[3])
{
    double worst = 0.0;
    for (int r = 0; r < 3; r++) {
        double center = m[12 + r], half = 0.0, b = fabs((double)m[12 + r]);
        for (int j = 0; j < 3; j++) {
            const double a = m[j * 4 + r];
            center += a * c[j];
            half += fabs(a) * e[j];
            b += fabs(a) * (fabs((double)c[j]) + e[j]);
        }
        const double unit = ldexp(b, -20) + ldexp(1.0, -120);
        const double up = ((double)hi[r] - (center + half)) / unit;
        const double down = ((center - half) - (double)lo[r]) / unit;
        if (up > worst)
            worst = up;
        if (down > worst)
            worst = down;
    }
    return worst;
}

/* Sign of n.p + d exactly, p the corner of [lo, hi] furthest along n (the
 * box's largest value of n.x + d). Coordinates finite. */
static inline int exact_plane_sign(const float pl[4], const float lo[3], const float hi[3])
{
    expansion x = {{0}, 0};
    for (int a = 0; a < 3; a++)
        exp_add(&x, (double)pl[a] * (double)(pl[a] >= 0.0f ? hi[a] : lo[a]));
    exp_add(&x, (double)pl[3]);
    return exp_sign(&x);
}

/* n.p + d for the furthest corner, in double, and the scale a "clear margin"
 * is measured against: |d| + |n|_1 x the box's largest coordinate. */
static inline double plane_reach(const float pl[4], const float lo[3], const float hi[3],
                                 double *scale)
{
    double v = pl[3], n1 = 0.0, m = 0.0;
    for (int a = 0; a < 3; a++) {
        v += (double)pl[a] * (double)(pl[a] >= 0.0f ? hi[a] : lo[a]);
        n1 += fabs((double)pl[a]);
        if (fabs((double)lo[a]) > m)
            m = fabs((double)lo[a]);
        if (fabs((double)hi[a]) > m)
            m = fabs((double)hi[a]);
    }
    *scale = fabs((double)pl[3]) + n1 * m;
    return v;
}

static inline bool finite3(const float v[3])
{
    return isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]);
}

#ifdef SGRT_TESTUTIL_H
/* ---- awkward worlds and boxes ---------------------------------------------- */

/* A world of one of eight kinds: affine, mirrored, strongly sheared, a huge
 * translation, tiny everything, a zero column, projective, an overflowing
 * scale. */
static inline void awkward_matrix(rng *r, float m[16], int kind)
{
    random_affine(r, m);
    switch (kind % 8) {
    case 0:
        break;
    case 1: /* mirrored */
        for (int i = 0; i < 3; i++)
            m[i] = -m[i];
        break;
    case 2: /* strongly sheared */
        m[4] += 5.0f * m[0];
        m[9] += 3.0f * m[5];
        break;
    case 3: /* huge translation */
        m[12] = (float)rng_range(r, -1e30, 1e30);
        m[13] = 3e37f;
        break;
    case 4: /* tiny everything */
        for (int i = 0; i < 15; i++)
            m[i] *= 1e-30f;
        break;
    case 5: /* degenerate: a zero column */
        m[4] = m[5] = m[6] = 0.0f;
        break;
    case 6: /* projective */
        m[3] = 0.25f;
        break;
    default: /* overflowing scale */
        m[0] = 3e38f;
        m[1] = -3e38f;
        break;
    }
}

/* A local box (center c, half extents h) of one of six kinds: ordinary, a
 * point, flat, huge, tiny and denormal, at float's edge. */
static inline void awkward_box(rng *r, float c[3], float h[3], int kind)
{
    for (int a = 0; a < 3; a++) {
        c[a] = (float)rng_range(r, -5, 5);
        h[a] = (float)rng_range(r, 0, 3);
    }
    switch (kind % 6) {
    case 0:
        break;
    case 1: /* zero extents: a point */
        h[0] = h[1] = h[2] = 0.0f;
        break;
    case 2: /* flat */
        h[1] = 0.0f;
        break;
    case 3: /* huge */
        c[0] = 1e20f;
        h[2] = 1e25f;
        break;
    case 4: /* tiny, denormal */
        c[1] = 1e-40f;
        h[0] = 1e-42f;
        break;
    default: /* at float's edge */
        h[0] = FLT_MAX;
        c[2] = -FLT_MAX;
        break;
    }
}

/* ---- a log that keeps the last entry --------------------------------------- */

typedef struct log_capture {
    int entries;
    sgrt_log_entry last;
} log_capture;

static inline void capture_log(void *user, const sgrt_log_entry *e)
{
    log_capture *c = user;
    c->entries++;
    c->last = *e;
}

/* A counted check that the call just refused reported itself: once, with
 * its code, its public name and a message. */
static inline void check_logged_at(log_capture *c, sgrt_result code, const char *fn,
                                   const char *file, int line)
{
    test_checks++;
    if (c->entries != 1 || c->last.code != code || !c->last.function ||
        strcmp(c->last.function, fn) != 0 || !c->last.message || !c->last.message[0]) {
        test_failures++;
        fprintf(stderr, "%s:%d: expected one log entry %s from %s, got %d (last: %s from %s: %s)\n",
                file, line, sgrt_result_str(code), fn, c->entries,
                c->entries ? sgrt_result_str(c->last.code) : "-",
                c->entries && c->last.function ? c->last.function : "-",
                c->entries && c->last.message ? c->last.message : "-");
        test_failed();
    }
    c->entries = 0;
}

#define check_logged(c, code, fn) check_logged_at((c), (code), (fn), __FILE__, __LINE__)
#endif

#endif
