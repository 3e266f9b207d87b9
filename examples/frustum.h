/* SPDX-License-Identifier: MIT */
/* A camera's view-projection matrix, and the frustum planes of such a matrix
 * written out as a program would write them (Gribb and Hartmann: row 3 plus
 * or minus row 0, 1 or 2, OpenGL clip space, not normalised), for the
 * benchmark and the tests: programs call sgrt_frustum_planes, which the
 * tests hold to frustum_from_view_proj. A plane is {nx, ny, nz, d}, inside
 * where nx*x + ny*y + nz*z + d >= 0, formed in double and rounded once.
 * Header-only; uses nothing of sgrt. */
#ifndef SGRT_EXAMPLES_FRUSTUM_H
#define SGRT_EXAMPLES_FRUSTUM_H

#include <math.h>

/* vp: column-major, element (row r, column c) at vp[c * 4 + r]. Planes in
 * the order left, right, bottom, top, near, far. */
static inline void frustum_from_view_proj(const double vp[16], float planes[6][4])
{
    for (int c = 0; c < 4; c++) {
        const double r0 = vp[c * 4 + 0], r1 = vp[c * 4 + 1], r2 = vp[c * 4 + 2];
        const double r3 = vp[c * 4 + 3];
        planes[0][c] = (float)(r3 + r0);
        planes[1][c] = (float)(r3 - r0);
        planes[2][c] = (float)(r3 + r1);
        planes[3][c] = (float)(r3 - r1);
        planes[4][c] = (float)(r3 + r2);
        planes[5][c] = (float)(r3 - r2);
    }
}

/* The view-projection matrix (column-major) of a perspective camera at
 * `eye` looking at `at` (y up, or z up when looking straight up or down):
 * vertical field of view `fov` in radians, aspect width / height, near and
 * far distances; OpenGL clip space. */
static inline void camera_view_proj(const double eye[3], const double at[3], double fov,
                                    double aspect, double znear, double zfar, double vp[16])
{
    double f[3], r[3], u[3], len = 0;
    for (int i = 0; i < 3; i++) {
        f[i] = at[i] - eye[i];
        len += f[i] * f[i];
    }
    len = sqrt(len);
    for (int i = 0; i < 3; i++)
        f[i] /= len;
    const double up[3] = {0, fabs(f[1]) > 0.99 ? 0 : 1, fabs(f[1]) > 0.99 ? 1 : 0};
    r[0] = f[1] * up[2] - f[2] * up[1];
    r[1] = f[2] * up[0] - f[0] * up[2];
    r[2] = f[0] * up[1] - f[1] * up[0];
    len = sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2]);
    for (int i = 0; i < 3; i++)
        r[i] /= len;
    u[0] = r[1] * f[2] - r[2] * f[1];
    u[1] = r[2] * f[0] - r[0] * f[2];
    u[2] = r[0] * f[1] - r[1] * f[0];
    const double t = tan(fov / 2);
    /* view-projection = P x V, V's rows (r, u, -f) with the eye moved to the
     * origin; P the OpenGL perspective matrix. */
    for (int c = 0; c < 4; c++) {
        const double vx = c < 3 ? r[c] : -(r[0] * eye[0] + r[1] * eye[1] + r[2] * eye[2]);
        const double vy = c < 3 ? u[c] : -(u[0] * eye[0] + u[1] * eye[1] + u[2] * eye[2]);
        const double vz = c < 3 ? -f[c] : f[0] * eye[0] + f[1] * eye[1] + f[2] * eye[2];
        vp[c * 4 + 0] = vx / (t * aspect);
        vp[c * 4 + 1] = vy / t;
        vp[c * 4 + 2] = -(zfar + znear) / (zfar - znear) * vz +
                        (c == 3 ? -2 * zfar * znear / (zfar - znear) : 0);
        vp[c * 4 + 3] = -vz;
    }
}

/* The planes of camera_view_proj's matrix. */
static inline void frustum_from_camera(const double eye[3], const double at[3], double fov,
                                       double aspect, double znear, double zfar,
                                       float planes[6][4])
{
    double vp[16];
    camera_view_proj(eye, at, fov, aspect, znear, zfar, vp);
    frustum_from_view_proj(vp, planes);
}

#endif
