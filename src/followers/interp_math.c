/* SPDX-License-Identifier: MIT */
/* interp(a, b, alpha), the render interpolation of one local (sgrt.h,
 * "Render interpolation"): exact at the ends, translation x rotation x
 * scale where both locals are, the elements lerped otherwise. Float
 * arithmetic in a fixed order, no fused multiply-add relied on: the same
 * code runs on every kernel level and in every task, so serial and parallel
 * interpolates agree bit for bit. */
#include "interp.h"
#include <string.h>

/* 1/sqrt(d), d positive, normal and finite. GCC and clang: the square
 * root instruction (IEEE's correctly rounded sqrt, the same bits on every
 * target; the library is compiled with -fno-math-errno, so no call to the C
 * library's sqrt stands behind it) and one division: about 30 cycles of
 * latency, a third of what Newton's steps took (the decomposition of a
 * moved node's TRS at each update was 45 ns). Other compilers: Newton's
 * steps in double from the exponent-halving start (within 3.5 %; three
 * steps take it below 3e-11, far under float's spacing), only adds and
 * multiplies; its last bits may differ from the instruction's, so the
 * render worlds such a build interpolates may differ from the GCC and
 * clang builds' in the last bit (alpha 0 and 1 do not: they are exact). */
static double rsqrt(double d)
{
#if defined(__GNUC__) || defined(__clang__)
    return 1.0 / __builtin_sqrt(d);
#else
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    u = (uint64_t)0x5FE6EB50C7B537A9 - (u >> 1);
    double y;
    memcpy(&y, &u, sizeof y);
    const double h = 0.5 * d;
    for (int i = 0; i < 3; i++)
        y = y * (1.5 - h * y * y);
    return y;
#endif
}

static float absf(float x) { return x < 0.0f ? -x : x; }

/* A column pair counts as orthogonal when |dot| <= ORTHO_TOLERANCE x the
 * product of their lengths (about 0.006 degree off a right angle); a scale
 * below MIN_SCALE (or beyond MAX_SCALE, or not finite) is not a positive
 * scale. */
#define ORTHO_TOLERANCE 1e-4f
#define MIN_SCALE2 1e-40 /* squared: a length of 1e-20 */
#define MAX_SCALE2 1e76  /* squared: a length of 1e38 */

bool sgrt__interp_decompose(const float a[16], float t[3], float q[4], float sc[3])
{
    if (a[3] != 0.0f || a[7] != 0.0f || a[11] != 0.0f || a[15] != 1.0f)
        return false; /* projective */
    float n[3][3];
    for (int c = 0; c < 3; c++) {
        const double x = a[4 * c], y = a[4 * c + 1], z = a[4 * c + 2];
        const double len2 = x * x + y * y + z * z;
        if (!(len2 > MIN_SCALE2) || !(len2 < MAX_SCALE2))
            return false;
        const double inv = rsqrt(len2);
        sc[c] = (float)(len2 * inv);
        n[c][0] = (float)(x * inv);
        n[c][1] = (float)(y * inv);
        n[c][2] = (float)(z * inv);
    }
    const float d01 = n[0][0] * n[1][0] + n[0][1] * n[1][1] + n[0][2] * n[1][2];
    const float d02 = n[0][0] * n[2][0] + n[0][1] * n[2][1] + n[0][2] * n[2][2];
    const float d12 = n[1][0] * n[2][0] + n[1][1] * n[2][1] + n[1][2] * n[2][2];
    if (absf(d01) > ORTHO_TOLERANCE || absf(d02) > ORTHO_TOLERANCE ||
        absf(d12) > ORTHO_TOLERANCE)
        return false; /* shear */
    /* det = n0 . (n1 x n2): negative is a mirror (a negative scale). */
    const float det = n[0][0] * (n[1][1] * n[2][2] - n[1][2] * n[2][1]) +
                      n[0][1] * (n[1][2] * n[2][0] - n[1][0] * n[2][2]) +
                      n[0][2] * (n[1][0] * n[2][1] - n[1][1] * n[2][0]);
    if (!(det > 0.0f))
        return false;
    t[0] = a[12];
    t[1] = a[13];
    t[2] = a[14];
    /* The quaternion of the rotation with columns n (element r of column c
     * is n[c][r]), by its largest component (Shepperd's choice). */
    const float m00 = n[0][0], m11 = n[1][1], m22 = n[2][2];
    const float tr = m00 + m11 + m22;
    /* k = 1 + (the largest of tr, and each diagonal element less the
     * others) is 4 times the square of the largest component, at least 1:
     * that component is sqrt(k) / 2, and the others are sums and
     * differences over 2 sqrt(k). */
    const int big = tr > 0.0f ? 3 : m00 > m11 && m00 > m22 ? 0 : m11 > m22 ? 1 : 2;
    const float k = big == 3 ? 1.0f + tr
                    : big == 0 ? 1.0f + m00 - m11 - m22
                    : big == 1 ? 1.0f + m11 - m00 - m22
                               : 1.0f + m22 - m00 - m11;
    const double ik = rsqrt((double)k);
    const float half = (float)(0.5 * (double)k * ik); /* sqrt(k) / 2 */
    const float over = (float)(0.5 * ik);             /* 1 / (2 sqrt(k)) */
    float x, y, z, w;
    if (big == 3) {
        w = half;
        x = (n[1][2] - n[2][1]) * over;
        y = (n[2][0] - n[0][2]) * over;
        z = (n[0][1] - n[1][0]) * over;
    } else if (big == 0) {
        w = (n[1][2] - n[2][1]) * over;
        x = half;
        y = (n[1][0] + n[0][1]) * over;
        z = (n[2][0] + n[0][2]) * over;
    } else if (big == 1) {
        w = (n[2][0] - n[0][2]) * over;
        x = (n[1][0] + n[0][1]) * over;
        y = half;
        z = (n[2][1] + n[1][2]) * over;
    } else {
        w = (n[0][1] - n[1][0]) * over;
        x = (n[2][0] + n[0][2]) * over;
        y = (n[2][1] + n[1][2]) * over;
        z = half;
    }
    q[0] = x;
    q[1] = y;
    q[2] = z;
    q[3] = w;
    return true;
}

static float lerp(float a, float b, float u, float alpha) { return u * a + alpha * b; }

void sgrt__interp_parts(const float m[16], float out[SGRT__TRS_FLOATS])
{
    memset(out, 0, SGRT__TRS_FLOATS * sizeof(float));
    out[10] = sgrt__interp_decompose(m, out, out + 3, out + 7) ? 1.0f : 0.0f;
    out[11] = 1.0f;
}

void sgrt__interp_local(const float a[16], const float b[16], const float pa[SGRT__TRS_FLOATS],
                        const float pb[SGRT__TRS_FLOATS], float alpha, float out[16])
{
    if (alpha == 0.0f) {
        memcpy(out, a, 16 * sizeof(float));
        return;
    }
    if (alpha == 1.0f) {
        memcpy(out, b, 16 * sizeof(float));
        return;
    }
    const float u = 1.0f - alpha;
    if (pa[10] == 0.0f || pb[10] == 0.0f) {
        for (int i = 0; i < 16; i++)
            out[i] = lerp(a[i], b[i], u, alpha);
        return;
    }
    const float *ta = pa, *qa = pa + 3, *sa = pa + 7;
    const float *tb = pb, *qb = pb + 3, *sb = pb + 7;
    /* nlerp along the shortest arc: q and -q are one rotation. */
    const float dot = qa[0] * qb[0] + qa[1] * qb[1] + qa[2] * qb[2] + qa[3] * qb[3];
    const float sgn = dot < 0.0f ? -alpha : alpha;
    float q[4];
    for (int i = 0; i < 4; i++)
        q[i] = u * qa[i] + sgn * qb[i];
    /* |q| >= 1 / sqrt(2) on the shortest arc: never near zero. */
    const double il = rsqrt((double)q[0] * q[0] + (double)q[1] * q[1] + (double)q[2] * q[2] +
                            (double)q[3] * q[3]);
    for (int i = 0; i < 4; i++)
        q[i] = (float)(q[i] * il);
    const float x = q[0], y = q[1], z = q[2], w = q[3];
    const float sc[3] = {lerp(sa[0], sb[0], u, alpha), lerp(sa[1], sb[1], u, alpha),
                         lerp(sa[2], sb[2], u, alpha)};
    /* R's columns, each times its scale. */
    const float r[3][3] = {
        {1.0f - 2.0f * (y * y + z * z), 2.0f * (x * y + z * w), 2.0f * (x * z - y * w)},
        {2.0f * (x * y - z * w), 1.0f - 2.0f * (x * x + z * z), 2.0f * (y * z + x * w)},
        {2.0f * (x * z + y * w), 2.0f * (y * z - x * w), 1.0f - 2.0f * (x * x + y * y)},
    };
    for (int c = 0; c < 3; c++) {
        out[4 * c] = r[c][0] * sc[c];
        out[4 * c + 1] = r[c][1] * sc[c];
        out[4 * c + 2] = r[c][2] * sc[c];
        out[4 * c + 3] = 0.0f;
    }
    out[12] = lerp(ta[0], tb[0], u, alpha);
    out[13] = lerp(ta[1], tb[1], u, alpha);
    out[14] = lerp(ta[2], tb[2], u, alpha);
    out[15] = 1.0f;
}
