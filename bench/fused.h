/* SPDX-License-Identifier: MIT */
/* fused: ozz-animation's LocalToModelJob design in plain C and SIMD, the
 * strongest hand-written design for skeletons. Structure-of-arrays TRS in
 * (four joints interleaved, ozz's SoaTransform layout), converted to
 * matrices four joints at a time and multiplied by the parent's world in
 * the same pass; no local matrix is stored. One skeleton's parents are one
 * small array shared by every character of that skeleton.
 *
 * Compiled as flat is (flat.h): -O3 -march=native where taken, FMA allowed,
 * checked against a double-precision reference. */
#ifndef SGRT_BENCH_FUSED_H
#define SGRT_BENCH_FUSED_H

#include <stdint.h>

/* Four joints: translation, rotation quaternion (x, y, z, w, unit length),
 * scale, each component for joints 0..3. 160 bytes. */
typedef struct fused_soa_trs {
    float tx[4], ty[4], tz[4];
    float qx[4], qy[4], qz[4], qw[4];
    float sx[4], sy[4], sz[4];
} fused_soa_trs;

/* One character: out[j] = out[parent[j]] x (T x R x S)(joint j), a root's
 * world (parent -1) its local. parent[j] < j; in holds (joints + 3) / 4
 * blocks; out is 16-byte aligned, column-major. */
void fused_local_to_model(const int16_t *parent, uint32_t joints, const fused_soa_trs *in,
                          float (*out)[16]);

/* The palette loop a renderer writes after the job, as ozz's skinning
 * sample does (models[j] x inverse_binds[j]), stored as the three rows of
 * the product's upper 3x4 (12 floats per joint at rows + 12 * j, the layout
 * a skinning shader reads). models: the job's output; inverse_binds:
 * column-major, 16-byte aligned. */
void fused_palette(const float (*models)[16], const float (*inverse_binds)[16], uint32_t joints,
                   float *rows);

/* Which path this build runs and the flags it was compiled with. */
const char *fused_describe(void);

#endif
