/* SPDX-License-Identifier: MIT */
/* Scene shapes shared by the sgrt scene and the naive baselines, so both are
 * built from the same hierarchy, in the same creation order, with the same
 * matrices. */
#ifndef SGRT_BENCH_SCENES_H
#define SGRT_BENCH_SCENES_H

#include <stdbool.h>
#include <stdint.h>

/* Fixed-seed generator: every run builds and moves the same scenes. */
typedef struct bench_rng {
    uint64_t s;
} bench_rng;

uint64_t bench_rng_next(bench_rng *r);
/* Uniform in [0, bound), bound > 0. */
uint32_t bench_rng_below(bench_rng *r, uint32_t bound);

typedef struct bench_topo {
    char name[32];
    uint32_t n;
    /* parent[i] < i (creation order), -1 for a root */
    int32_t *parent;
    /* Game scene: nodes [anim_first, n) belong to the animated hierarchies.
     * n for the other shapes. */
    uint32_t anim_first;
    uint32_t max_depth;
    /* Skeleton scenes: joints per character (characters one after the
     * other, each numbered alike); 0 for the other shapes. */
    uint32_t skel_joints;
} bench_topo;

/* Complete 4-ary tree of n nodes (levels filled left to right), numbered in
 * depth-first pre-order (the order in which a recursive loader creates them)
 * or, with level_order, level by level (node i is the child of (i-1)/4).
 * Named tree-<n/1000>K when n is a multiple of 1000 (tree-200K), else by
 * powers of two (tree-64K = 65,536 nodes, tree-1M = 1,048,576). */
bool bench_topo_tree4(bench_topo *t, uint32_t n, bool level_order);
/* A single chain: node i is the child of node i - 1. */
bool bench_topo_chain(bench_topo *t, uint32_t n);
/* Static level (root -> zones -> clusters -> props, all depth-first) followed
 * by `characters` animated hierarchies of 20..60 nodes each, every one
 * attached under a random zone, created after the level. */
bool bench_topo_game(bench_topo *t, uint32_t zones, uint32_t clusters, uint32_t props,
                     uint32_t characters, uint64_t seed);
/* `characters` humanoid skeletons of `joints` joints (64 or 256), one root
 * each, every character's joints depth-first (skeleton.c). Named
 * skel-<characters>x<joints>. */
bool bench_topo_skeletons(bench_topo *t, uint32_t characters, uint32_t joints);
/* One character's parents (parent[j] < j, -1 for its root); false for a
 * joint count other than 64 or 256. */
bool bench_skeleton_parents(uint32_t joints, int32_t *parent);
void bench_topo_free(bench_topo *t);

/* Pool of random rigid transforms (unit quaternion rotation, translation in
 * [-1, 1]^3), column-major. count must be a power of two. 64-byte aligned. */
float (*bench_mat_pool(uint32_t count, uint64_t seed))[16];
void bench_mat_pool_free(float (*pool)[16]);

/* Pool of random TRS inputs, structure of arrays: translation in [-1, 1]^3,
 * unit quaternion (x, y, z, w), scale per axis in [0.8, 1.25] (uniform in
 * log space, so products along a hierarchy neither grow nor shrink on
 * average). count must be a power of two. */
typedef struct bench_trs_pool {
    float (*t)[3];
    float (*q)[4];
    float (*s)[3];
} bench_trs_pool;

bool bench_trs_pool_init(bench_trs_pool *p, uint32_t count, uint64_t seed);
/* T x R x S of one entry in double, column-major: the references' local. */
void bench_trs_matrix_d(const float t[3], const float q[4], const float s[3], double m[16]);
void bench_trs_pool_free(bench_trs_pool *p);

#endif
