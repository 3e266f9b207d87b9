/* SPDX-License-Identifier: MIT */
/* The skeleton scenes (scenes.h): characters of a humanoid shape, every
 * joint created after its parent, each character's joints depth-first in
 * pre-order under one root, as a skeleton file lists them. */
#include "scenes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct skel_builder {
    int32_t *parent;
    uint32_t n, cap;
} skel_builder;

/* A joint under `parent` (-1: the character's root); appending keeps
 * pre-order as long as each subtree is built before its next sibling. */
static int32_t joint(skel_builder *b, int32_t parent)
{
    if (b->n < b->cap)
        b->parent[b->n] = parent;
    return (int32_t)b->n++;
}

/* `len` joints, each under the previous one; returns the last. */
static int32_t chain(skel_builder *b, int32_t parent, uint32_t len)
{
    for (uint32_t k = 0; k < len; k++)
        parent = joint(b, parent);
    return parent;
}

/* `count` leaves under `parent`: twist or helper bones, which a rig hangs
 * beside the limb bone they follow. */
static void leaves(skel_builder *b, int32_t parent, uint32_t count)
{
    for (uint32_t k = 0; k < count; k++)
        joint(b, parent);
}

typedef struct limb_shape {
    uint32_t twists;      /* helper leaves beside each of the two long bones */
    uint32_t digits;      /* fingers or toes */
    uint32_t digit_len;   /* joints per finger or toe */
} limb_shape;

/* Shoulder, upper arm, forearm, hand and its fingers. */
static void arm(skel_builder *b, int32_t chest, const limb_shape *sh)
{
    const int32_t shoulder = joint(b, chest);
    const int32_t upper = joint(b, shoulder);
    leaves(b, upper, sh->twists);
    const int32_t fore = joint(b, upper);
    leaves(b, fore, sh->twists);
    const int32_t hand = joint(b, fore);
    for (uint32_t f = 0; f < sh->digits; f++)
        chain(b, hand, sh->digit_len);
}

/* Thigh, shin, foot, toe base and its toes. */
static void leg(skel_builder *b, int32_t hips, const limb_shape *sh)
{
    const int32_t thigh = joint(b, hips);
    leaves(b, thigh, sh->twists);
    const int32_t shin = joint(b, thigh);
    leaves(b, shin, sh->twists);
    const int32_t foot = joint(b, shin);
    const int32_t toe = joint(b, foot);
    for (uint32_t f = 0; f < sh->digits; f++)
        chain(b, toe, sh->digit_len);
}

/* 64 joints: root, hips, 4 spine, 2 neck, head with jaw and eyes; arms with
 * a twist bone on the upper arm and forearm and five three-joint fingers;
 * legs with thigh, shin, foot, toe and toe end.
 * 256 joints: the same body with a longer spine and neck, 48 face joints
 * and 33 hair joints under the head, three twists per long bone, fingers
 * with a metacarpal, five two-joint toes, a 24-joint tail and a skirt of
 * eight five-joint chains. */
static void humanoid(skel_builder *b, bool big)
{
    const limb_shape arm_shape = big ? (limb_shape){3, 5, 4} : (limb_shape){1, 5, 3};
    const limb_shape leg_shape = big ? (limb_shape){2, 5, 2} : (limb_shape){0, 1, 1};
    const int32_t root = joint(b, -1);
    const int32_t hips = joint(b, root);
    const int32_t chest = chain(b, hips, big ? 6 : 4);
    const int32_t head = chain(b, chest, big ? 4 : 3); /* neck joints, then the head */
    leaves(b, head, 3);                                 /* jaw, two eyes */
    if (big) {
        for (int k = 0; k < 12; k++)
            chain(b, head, 4); /* brows, lids, cheeks, lips */
        for (int k = 0; k < 11; k++)
            chain(b, head, 3); /* hair */
    }
    arm(b, chest, &arm_shape);
    arm(b, chest, &arm_shape);
    leg(b, hips, &leg_shape);
    leg(b, hips, &leg_shape);
    if (big) {
        chain(b, hips, 24); /* tail */
        for (int k = 0; k < 8; k++)
            chain(b, hips, 5); /* skirt */
    }
}

bool bench_skeleton_parents(uint32_t joints, int32_t *parent)
{
    if (joints != 64 && joints != 256)
        return false;
    skel_builder b = {parent, 0, joints};
    humanoid(&b, joints == 256);
    return b.n == joints;
}

bool bench_topo_skeletons(bench_topo *t, uint32_t characters, uint32_t joints)
{
    int32_t one[256];
    memset(t, 0, sizeof *t);
    if (characters == 0 || !bench_skeleton_parents(joints, one))
        return false;
    const uint32_t n = characters * joints;
    t->parent = malloc((size_t)n * sizeof *t->parent);
    if (!t->parent)
        return false;
    uint32_t depth[256], maxd = 0;
    for (uint32_t j = 0; j < joints; j++) {
        depth[j] = one[j] < 0 ? 0 : depth[one[j]] + 1;
        maxd = depth[j] > maxd ? depth[j] : maxd;
    }
    for (uint32_t c = 0; c < characters; c++)
        for (uint32_t j = 0; j < joints; j++)
            t->parent[c * joints + j] = one[j] < 0 ? -1 : (int32_t)(c * joints) + one[j];
    t->n = n;
    t->anim_first = n;
    t->max_depth = maxd;
    t->skel_joints = joints;
    snprintf(t->name, sizeof t->name, "skel-%ux%u", characters, joints);
    return true;
}
