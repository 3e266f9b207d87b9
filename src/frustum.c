/* SPDX-License-Identifier: MIT */
/* sgrt_frustum_planes: the six planes of a view-projection matrix, as
 * sgrt_scene_cull takes them. Gribb and Hartmann: a clip-space point is
 * inside when -w <= x <= w, -w <= y <= w and -w <= z <= w (OpenGL) or
 * 0 <= z <= w (Vulkan, Direct3D), and each of those is a plane of the
 * world point, row 3 of the matrix plus or minus row 0, 1 or 2 (or row 2
 * alone). Each plane is formed and scaled to a unit normal in double and
 * rounded to float once, with only +, -, * and / (the square root too), so
 * that every target gives the same bits; no scene, no allocation, no libm. */
#include "sgrt.h"

#include <float.h>
#include <string.h>

static bool finite_f(float x)
{
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    return (u & 0x7F800000u) != 0x7F800000u;
}

/* The square root of a positive normal double: the exponent halved for a
 * start within 6 %, then Newton's steps, each squaring the relative error
 * (6 take it below double's precision). The sums of squares below are
 * normal: between 2^-300 and 2^260. */
static double sqrt_normal(double x)
{
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    u = (u >> 1) + ((uint64_t)0x3FF << 51);
    double y;
    memcpy(&y, &u, sizeof y);
    for (int i = 0; i < 6; i++)
        y = 0.5 * (y + x / y);
    return y;
}

sgrt_result sgrt_frustum_planes(const float view_proj[16], sgrt_clip_depth depth,
                                float out_planes[6][4])
{
    if (!view_proj || !out_planes)
        return SGRT_ERR_INVALID_ARG;
    if (depth != SGRT_CLIP_DEPTH_NEG_ONE_TO_ONE && depth != SGRT_CLIP_DEPTH_ZERO_TO_ONE)
        return SGRT_ERR_INVALID_ARG;
    for (int i = 0; i < 16; i++)
        if (!finite_f(view_proj[i]))
            return SGRT_ERR_INVALID_ARG;

    /* plane[k] = row 3 + sign[k] x row axis[k]; the near plane of a 0..1
     * depth range is row 2 alone (z >= 0). */
    static const int axis[6] = {0, 0, 1, 1, 2, 2};
    static const double sign[6] = {1.0, -1.0, 1.0, -1.0, 1.0, -1.0};
    float planes[6][4];
    for (int k = 0; k < 6; k++) {
        const double w = k == 4 && depth == SGRT_CLIP_DEPTH_ZERO_TO_ONE ? 0.0 : 1.0;
        double p[4];
        for (int c = 0; c < 4; c++)
            p[c] = w * (double)view_proj[c * 4 + 3] + sign[k] * (double)view_proj[c * 4 + axis[k]];
        const double len2 = p[0] * p[0] + p[1] * p[1] + p[2] * p[2];
        if (len2 == 0.0) {
            /* No normal: the plane holds every point (d >= 0) or none. */
            planes[k][0] = planes[k][1] = planes[k][2] = 0.0f;
            planes[k][3] = p[3] > 0.0 ? 1.0f : p[3] < 0.0 ? -1.0f : 0.0f;
            continue;
        }
        const double len = sqrt_normal(len2);
        for (int c = 0; c < 3; c++)
            planes[k][c] = (float)(p[c] / len);
        /* Beyond float's range, d holds every finite point or none: the
         * largest float says the same. */
        const double d = p[3] / len;
        planes[k][3] = d > (double)FLT_MAX ? FLT_MAX : d < -(double)FLT_MAX ? -FLT_MAX : (float)d;
    }
    memcpy(out_planes, planes, sizeof planes);
    return SGRT_OK;
}
