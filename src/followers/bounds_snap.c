/* SPDX-License-Identifier: MIT */
/* The boxes in a snapshot, checked in place before a restore takes them
 * (follow.h: snapshot_check): what sgrt_scene_check verifies of the boxes
 * (debug/check.c), read from the snapshot's little-endian parts. Local
 * boxes as sgrt_node_set_bounds takes them, validity, each world box the
 * reference's box of the stored world wherever nothing is pending, and,
 * when nothing at all is pending, each subtree record the exact join of
 * its members: a forged snapshot cannot hand the cull a record that skips
 * what it should draw. */
#include "../snapshot.h"
#include "bounds.h"
#include <float.h>

/* The parts this check reads. */
typedef struct boxes {
    const uint8_t *c[3], *e[3], *lo[3], *hi[3];
    const uint8_t *has, *valid, *set, *s_dirty, *sub, *delta;
    bool stale;
} boxes;

static void boxes_of(const sgrt_scene *s, const sgrt__snapview *v, boxes *b)
{
    static const char *const names[4][3] = {{"lb_cx", "lb_cy", "lb_cz"},
                                            {"lb_ex", "lb_ey", "lb_ez"},
                                            {"wb_lx", "wb_ly", "wb_lz"},
                                            {"wb_hx", "wb_hy", "wb_hz"}};
    const sgrt__follower *f = &sgrt__bounds_follower;
    for (int a = 0; a < 3; a++) {
        b->c[a] = sgrt__snap_slots(s, v, f, names[0][a]);
        b->e[a] = sgrt__snap_slots(s, v, f, names[1][a]);
        b->lo[a] = sgrt__snap_slots(s, v, f, names[2][a]);
        b->hi[a] = sgrt__snap_slots(s, v, f, names[3][a]);
    }
    b->has = sgrt__snap_slots(s, v, f, "b_has");
    b->valid = sgrt__snap_slots(s, v, f, "b_valid");
    b->set = sgrt__snap_slots(s, v, f, "b_dirty");
    b->s_dirty = sgrt__snap_slots(s, v, f, "s_dirty");
    b->sub = sgrt__snap_slots(s, v, f, "sub");
    b->delta = sgrt__snap_slots(s, v, f, "sub_delta");
    b->stale = *sgrt__snap_state(s, v, f, "subtree_stale") != 0u;
}

/* Slot i's world box in the snapshot (valid or not). */
static void world_box(const boxes *b, uint32_t i, float lo[3], float hi[3])
{
    for (int a = 0; a < 3; a++) {
        lo[a] = sgrt__snap_f32(b->lo[a], i);
        hi[a] = sgrt__snap_f32(b->hi[a], i);
    }
}

/* One live slot's boxes: the local box as taken, validity, order, and the
 * world box the reference's where nothing is pending. */
static const char *check_slot(const sgrt__snapview *v, const boxes *b, uint32_t i)
{
    const bool has = sgrt__snap_bit(b->has, i), valid = sgrt__snap_bit(b->valid, i);
    const bool set = sgrt__snap_bit(b->set, i);
    float c[3], e[3];
    for (int a = 0; a < 3; a++) {
        c[a] = sgrt__snap_f32(b->c[a], i);
        e[a] = sgrt__snap_f32(b->e[a], i);
        if (has && (!(c[a] >= -FLT_MAX && c[a] <= FLT_MAX) || !(e[a] <= FLT_MAX) ||
                    (sgrt__f32_bits(e[a]) & 0x80000000u)))
            return "buf: local boxes finite, half extents +0 or positive";
    }
    if (!set && has != valid)
        return "buf: a world box is valid iff the node had a local box at the last update";
    if (!valid)
        return NULL;
    float lo[3], hi[3];
    world_box(b, i, lo, hi);
    for (int a = 0; a < 3; a++)
        if (!(lo[a] <= hi[a]))
            return "buf: world boxes are ordered (min <= max, no NaN)";
    const bool pending = sgrt__snap_bit(v->dirty, i) ||
                         (v->close_from != SGRT__NONE && i > v->close_from);
    if (set || pending)
        return NULL;
    float world[16], rl[3], rh[3];
    for (uint32_t k = 0; k < 16u; k++)
        world[k] = sgrt__snap_f32(v->world, 16u * (size_t)i + k);
    const sgrt__bounds_view one = {{&c[0], &c[1], &c[2]}, {&e[0], &e[1], &e[2]},
                                   {&rl[0], &rl[1], &rl[2]}, {&rh[0], &rh[1], &rh[2]}, NULL};
    sgrt__box_ref(&one, world, 0);
    if (memcmp(lo, rl, sizeof lo) != 0 || memcmp(hi, rh, sizeof hi) != 0)
        return "buf: a world box is the reference's box of the stored world";
    return NULL;
}

/* Slot i's subtree record: lo[3], hi[3], end, count. */
static void record(const boxes *b, uint32_t i, float lo[3], float hi[3], uint32_t *end,
                   uint32_t *count)
{
    for (uint32_t a = 0; a < 3u; a++) {
        lo[a] = sgrt__snap_f32(b->sub, 8u * (size_t)i + a);
        hi[a] = sgrt__snap_f32(b->sub, 8u * (size_t)i + 3u + a);
    }
    *end = sgrt__snap_u32(b->sub, 8u * (size_t)i + 6u);
    *count = sgrt__snap_u32(b->sub, 8u * (size_t)i + 7u);
}

/* When nothing is pending: every live slot's record is the join of its own
 * box and its children's records, counts its subtree, and its run reaches
 * past it. */
static const char *check_records(const sgrt__snapview *v, const boxes *b)
{
    for (uint32_t i = 0; i < v->slot_end; i++) {
        if (!sgrt__snap_bit(v->alive, i))
            continue;
        if (sgrt__snap_u32(b->delta, i) != 0u)
            return "buf: subtree bounds: no node count pending after an update";
        float lo[3], hi[3], rlo[3], rhi[3], clo[3], chi[3];
        uint32_t rend, rcount, cend, ccount, count = 1, end = i + 1u;
        if (sgrt__snap_bit(b->valid, i)) {
            world_box(b, i, lo, hi);
        } else {
            const float inf = sgrt__f32_from_bits(0x7F800000u);
            for (int a = 0; a < 3; a++) {
                lo[a] = inf;
                hi[a] = -inf;
            }
        }
        for (uint32_t c = sgrt__snap_u32(v->first_child, i); c != SGRT__NONE;
             c = sgrt__snap_u32(v->next_sibling, c)) {
            record(b, c, clo, chi, &cend, &ccount);
            for (int a = 0; a < 3; a++) {
                lo[a] = clo[a] < lo[a] ? clo[a] : lo[a];
                hi[a] = chi[a] > hi[a] ? chi[a] : hi[a];
            }
            count += ccount;
            end = cend > end ? cend : end;
        }
        record(b, i, rlo, rhi, &rend, &rcount);
        for (int a = 0; a < 3; a++)
            if (!(rlo[a] == lo[a]) || !(rhi[a] == hi[a]))
                return "buf: subtree bounds: each record is the join of its own box and its "
                       "children's";
        if (rcount != count)
            return "buf: subtree bounds: each record counts its subtree's nodes";
        if (rend < end)
            return "buf: subtree bounds: each record's run of slots reaches past its subtree";
    }
    return NULL;
}

const char *sgrt__bounds_snapshot_check(const sgrt_scene *s, const sgrt__snapview *v)
{
    boxes b;
    boxes_of(s, v, &b);
    bool quiet = v->close_from == SGRT__NONE;
    for (uint32_t w = 0; w < v->words; w++) {
        const uint32_t pending = sgrt__snap_u32(v->dirty, w) | sgrt__snap_u32(b.set, w) |
                                 (b.s_dirty ? sgrt__snap_u32(b.s_dirty, w) : 0u);
        quiet = quiet && !(sgrt__snap_u32(v->alive, w) & pending);
    }
    for (uint32_t i = 0; i < v->slot_end; i++) {
        const char *why = sgrt__snap_bit(v->alive, i) ? check_slot(v, &b, i) : NULL;
        if (why)
            return why;
    }
    return b.sub && !b.stale && quiet ? check_records(v, &b) : NULL;
}
