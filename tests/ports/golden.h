/* SPDX-License-Identifier: MIT */
/* Expected checkpoint hashes of test_golden.c.
 *
 * They are the output of `test_golden --print`: golden_ieee from the plain C
 * reference kernel (IEEE-754 single precision, no contraction),
 * golden_armv7_neon from the model in armv7_neon_model.h. They must
 * never be edited by hand to make a target pass: a difference is a
 * determinism bug to be explained in docs/porting.md. Any deliberate change
 * of results (a different summation order, a different set_trs formula, a
 * change of the scenario) regenerates them, and the change says why.
 */
#ifndef SGRT_TEST_GOLDEN_H
#define SGRT_TEST_GOLDEN_H

#include <stdint.h>

#define GOLDEN_CHECKPOINTS 11

static const char *const golden_checkpoint_name[GOLDEN_CHECKPOINTS] = {
    "build: chain of 400, fan of 1500",
    "random ops 1..5000",
    "random ops 5001..10000",
    "random ops 10001..15000",
    "random ops 15001..20000",
    "random ops 20001..25000",
    "random ops 25001..30000",
    "random ops 30001..35000",
    "random ops 35001..40000",
    "overflow phase",
    "denormal phase",
};

/* The scenario makes no denormal before this checkpoint, so flushing kernels
 * must agree with golden_ieee up to it (test_golden checks the two tables). */
#define GOLDEN_FIRST_DENORMAL_CHECKPOINT 10

/* Every target and every kernel that keeps denormals. */
static const uint64_t golden_ieee[GOLDEN_CHECKPOINTS] = {
    0xb6fa5f0ecf9f3ae4ull,
    0x1c9195eae92649ffull,
    0x35e9bb9314709016ull,
    0x9056d5aec152eba0ull,
    0x61d42b4c900b2222ull,
    0xfd129ae26d361464ull,
    0xfb65b6b133e2c6e8ull,
    0x223a4f71951c8fd4ull,
    0xdb4ffe4fa28e7f72ull,
    0x4cbf28a108fe8ebbull,
    0x58e98ffbcb441e29ull,
};

/* ARMv7 NEON kernels: the vector unit flushes denormal operands and tiny
 * results to zero whatever FPSCR says (docs/porting.md). */
static const uint64_t golden_armv7_neon[GOLDEN_CHECKPOINTS] = {
    0xb6fa5f0ecf9f3ae4ull,
    0x1c9195eae92649ffull,
    0x35e9bb9314709016ull,
    0x9056d5aec152eba0ull,
    0x61d42b4c900b2222ull,
    0xfd129ae26d361464ull,
    0xfb65b6b133e2c6e8ull,
    0x223a4f71951c8fd4ull,
    0xdb4ffe4fa28e7f72ull,
    0x4cbf28a108fe8ebbull,
    0xbf807bf2f5dc27d3ull,
};

/* The boxes scenario (test_golden --print, the reference kernel): every
 * kernel, flushing ones included (it makes no denormal). */
#define GOLDEN_BOUNDS_CHECKPOINTS 5
static const uint64_t golden_bounds[GOLDEN_BOUNDS_CHECKPOINTS] = {
    0x3d1077903016ec82ull,
    0x2b24850f1ac9c641ull,
    0x8b3af583b2e3f43cull,
    0xe8abb35ea3a05393ull,
    0x047b870fa93b7adaull,
};

/* The large-world scenario (test_golden --print, the reference kernel):
 * every kernel, flushing ones included (it makes no denormal). */
#define GOLDEN_LARGE_CHECKPOINTS 16

static const char *const golden_large_checkpoint_name[GOLDEN_LARGE_CHECKPOINTS] = {
    "build: 12 anchored roots, 288 children",
    "origin next to a root (jump up to 1e12)",
    "three sub-metre origin steps",
    "grid-snapped origin, same origin, anchors",
    "origin jump of 1e9",
    "back at the origin before the jump",
    "there and back with no update between",
    "random ops 1..500",
    "random ops 501..1000",
    "random ops 1001..1500",
    "random ops 1501..2000",
    "random ops 2001..2500",
    "random ops 2501..3000",
    "random ops 3001..3500",
    "random ops 3501..4000",
    "compaction, a tree destroyed, a far origin",
};

static const uint64_t golden_large[GOLDEN_LARGE_CHECKPOINTS] = {
    0xf346006f3d2fd44aull,
    0xc628754655cf065full,
    0x54cb913e4ffe3d50ull,
    0x6fd888f8204e9e99ull,
    0xf7350dd0ecd0d957ull,
    0x64bdbcec89988d67ull,
    0x6fb6a203a061086aull,
    0xca4a5cd0e6f7192full,
    0x82794722046146ceull,
    0x39189ed0fc22afbbull,
    0xef79f6b6820c89a8ull,
    0x3a2e177046bb14b0ull,
    0x39b60a489176b9f2ull,
    0x3bf35567b042bb93ull,
    0x154cbd8895573732ull,
    0xda1824b75dceab26ull,
};

/* sgrt_scene_hash at the large-world scenario's checkpoints (test_golden
 * --print, the reference kernel): every kernel and target. */
static const uint64_t golden_large_scene_hash[GOLDEN_LARGE_CHECKPOINTS] = {
    0x34c04918988f8e5eull,
    0xf393854259bff700ull,
    0x9c653e2e65ac9991ull,
    0x1617ae192e6a641eull,
    0x36c3934fb52444c2ull,
    0x1617ae192e6a641eull,
    0x1617ae192e6a641eull,
    0x236b3490d8326301ull,
    0xd9ef9e980a0bbfdcull,
    0x8b0d8e8f6f08bd88ull,
    0x958af29954e43720ull,
    0x3eeae9340802c1b9ull,
    0x6da4a966e9bad921ull,
    0xb241349f87a4d503ull,
    0x30786a373fd9e0b0ull,
    0x4bdd85a56476fd20ull,
};

/* FNV-1a of the snapshot's bytes at the snapshot scenario's checkpoints
 * (test_golden --print, the reference kernel): every kernel and target,
 * little-endian and big-endian alike. */
#define GOLDEN_SNAPSHOT_CHECKPOINTS 3
static const uint64_t golden_snapshot[GOLDEN_SNAPSHOT_CHECKPOINTS] = {
    0x56e3ce622dae9b9aull,
    0xef74a5e769d0900dull,
    0xb00ca91786c1e376ull,
};

/* The skins scenario (test_golden --print, the reference kernel): every
 * kernel, flushing ones included (it makes no denormal). */
#define GOLDEN_SKINS_CHECKPOINTS 7
static const uint64_t golden_skins[GOLDEN_SKINS_CHECKPOINTS] = {
    0x0264a250ab6e0496ull,
    0xc2492f2cbc9fe69aull,
    0xf1dc597e06cff0c9ull,
    0x30e3d9aea61a4462ull,
    0xfd8633b97ba646acull,
    0x44563c1a53faaf55ull,
    0x214715f61a42e163ull,
};

#endif
