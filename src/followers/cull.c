/* SPDX-License-Identifier: MIT */
/* Frustum culling into a node set (sgrt_scene_cull): the planes prepared once
 * per call, then the scene's cull kernel over the world boxes, 32 slots per
 * word; with subtree boxes, a walk over the roots of large subtrees first
 * takes or drops whole runs of slots.
 *
 * Conservative rounding. For a plane (n, d) and a box, the kernel forms, in
 * float, g = (n0*p0 + n1*p1) + (n2*p2 + k*m) with p the box's corner furthest
 * along n and m its largest coordinate magnitude, and culls when g < lim.
 * The exact value n.p lies within 3 units of 2^-24 of S = sum |n_i p_i| <=
 * |n|_1 m of the rounded sum, and k*m, with k >= 2^-21 |n|_1 (rounded up),
 * exceeds that after its own rounding: so g < lim <= -d - T gives n.p + d <
 * 0 exactly (T = 2^-126 covers products that underflow). A subtree box is
 * accepted when, for every plane, the corner nearest along n gives
 * (n0*q0 + n1*q1) + (n2*q2 - k*m) >= -d + T (rounded up), which puts the
 * whole box inside the plane by the same argument. */
#include "../internal.h"
#include "bounds.h"
#include "nodeset.h"
#include "../args.h"
#include "../result.h"
#include <float.h>
#include <string.h>

/* Subtrees of fewer nodes are tested box by box: one scalar test of a
 * subtree box costs about what the kernel spends on a few dozen boxes. */
#define CULL_MIN_SUBTREE 16u

static bool finite_f(float x) { return (sgrt__f32_bits(x) & 0x7F800000u) != 0x7F800000u; }

/* The float nearest to x in the direction asked (x finite or infinite). */
static float round_up(double x)
{
    float f = (float)x;
    if ((double)f < x) {
        const uint32_t u = sgrt__f32_bits(f);
        f = f == 0.0f ? sgrt__f32_from_bits(1u) : f > 0.0f ? sgrt__f32_from_bits(u + 1u) : sgrt__f32_from_bits(u - 1u);
    }
    return f;
}

static float round_down(double x) { return -round_up(-x); }

typedef struct prepared {
    sgrt__cull_view v;
    float lim_in[8]; /* accept threshold: -d plus the allowance, rounded up */
} prepared;

static void prepare(const sgrt_scene *s, const float (*planes)[4], uint32_t count,
                    prepared *p)
{
    sgrt__cull_view *v = &p->v;
    sgrt__bounds_view bv;
    sgrt__bounds_view_of(s, &bv);
    memcpy(v->lo, bv.lo, sizeof v->lo);
    memcpy(v->hi, bv.hi, sizeof v->hi);
    v->plane_count = count;
    for (uint32_t k = 0; k < count; k++) {
        sgrt__cull_plane *pl = &v->plane[k];
        double n1 = 0.0;
        for (uint32_t a = 0; a < 3u; a++) {
            pl->n[a] = planes[k][a];
            pl->p[a] = pl->n[a] >= 0.0f ? v->hi[a] : v->lo[a];
            n1 += pl->n[a] < 0.0f ? -(double)pl->n[a] : (double)pl->n[a];
        }
        /* The sum of three floats in double is off by at most 2^-52 of it. */
        pl->k = round_up((double)SGRT__BOX_GAMMA * n1 * (1.0 + 0x1p-50));
        const double d = planes[k][3], ad = d < 0.0 ? -d : d;
        const double allow = (double)SGRT__BOX_GAMMA * ad + (double)SGRT__BOX_TINY;
        pl->lim = round_down(-d - allow);
        p->lim_in[k] = round_up(-d + allow);
    }
}

/* A subtree record against the planes: -1 wholly outside one plane, 1
 * wholly inside all of them, 0 otherwise. */
static int classify(const prepared *p, const sgrt__subtree *r)
{
    if (r->lo[0] > r->hi[0] || r->lo[1] > r->hi[1] || r->lo[2] > r->hi[2])
        return -1; /* empty: no box in the subtree */
    const float m = sgrt__box_magnitude(r->lo, r->hi);
    bool inside = true;
    for (uint32_t k = 0; k < p->v.plane_count; k++) {
        const sgrt__cull_plane *pl = &p->v.plane[k];
        if (sgrt__cull_outside_ref(pl, r->lo, r->hi, m))
            return -1;
        float q[3];
        for (uint32_t a = 0; a < 3u; a++)
            q[a] = pl->n[a] >= 0.0f ? r->lo[a] : r->hi[a];
        const float g = (pl->n[0] * q[0] + pl->n[1] * q[1]) + (pl->n[2] * q[2] - pl->k * m);
        inside = inside && g >= p->lim_in[k];
    }
    return inside ? 1 : 0;
}

/* Whether the slots [first, end) hold exactly `count` live nodes: then a
 * subtree of `count` nodes, all of them stored there, is all they hold. */
static bool run_is_subtree(const sgrt_scene *s, uint32_t first, uint32_t end, uint32_t count)
{
    if (end > s->slot_end)
        end = s->slot_end;
    uint32_t n = 0;
    for (uint32_t i = first; i < end && n <= count;) {
        const uint32_t w = i >> 5, lo = i & 31u;
        const uint32_t hi = end - (i - lo) < 32u ? end - (i - lo) : 32u;
        const uint32_t mask = sgrt__mask_from(lo) & ~sgrt__mask_from(hi);
        n += sgrt__popcount32(s->st.alive[w] & mask);
        i = i - lo + 32u;
    }
    return n == count;
}

/* Slots [first, end) leave the candidates; with `take`, those that were
 * candidates join the result. */
static void settle_run(uint32_t *todo, uint32_t *out, uint32_t first, uint32_t end, bool take)
{
    for (uint32_t i = first; i < end;) {
        const uint32_t w = i >> 5, lo = i & 31u;
        const uint32_t hi = end - (i - lo) < 32u ? end - (i - lo) : 32u;
        const uint32_t mask = sgrt__mask_from(lo) & ~sgrt__mask_from(hi);
        if (take)
            out[w] |= todo[w] & mask;
        todo[w] &= ~mask;
        i = i - lo + 32u;
    }
}

/* The subtree walk: in slot order, each root of a subtree of at least
 * CULL_MIN_SUBTREE nodes not inside a run already settled is tested; a
 * subtree wholly outside or inside whose run of slots is the subtree's
 * alone is settled as a whole, any other is entered (its children come
 * next in slot order). */
static void walk(const sgrt_scene *s, const prepared *p, uint32_t nw, uint32_t *todo,
                 uint32_t *out, sgrt_cull_stats *stats)
{
    sgrt__bounds *bs = sgrt__bounds_of(s);
    const sgrt__storage *st = &s->st;
    uint32_t i = 0;
    for (;;) {
        i = sgrt__bits_next_set(st->inner, nw, i);
        if (i >= s->slot_end)
            return;
        const sgrt__subtree *r = &bs->sub[i];
        if (r->count < CULL_MIN_SUBTREE) {
            i++;
            continue;
        }
        stats->subtrees_tested++;
        const int c = classify(p, r);
        if (c != 0 && run_is_subtree(s, i, r->end, r->count)) {
            const uint32_t end = r->end < s->slot_end ? r->end : s->slot_end;
            settle_run(todo, out, i, end, c > 0);
            if (c > 0)
                stats->subtrees_accepted++;
            else
                stats->subtrees_skipped++;
            i = end;
            continue;
        }
        i++;
    }
}

static const char *const why_out[3] = SGRT__WHY_OBJECT("out", "node set");
static const char *const why_only[3] = SGRT__WHY_OBJECT("only", "node set");

sgrt_result sgrt_scene_cull(const sgrt_scene *s, const float *plane_floats, uint32_t plane_count,
                            sgrt_nodeset only_handle, sgrt_nodeset out_handle,
                            sgrt_cull_stats *out_stats)
{
    sgrt__bounds *bs = sgrt__bounds_of(s);
    static const char fn[] = "sgrt_scene_cull";
    const float(*planes)[4] = (const float(*)[4])(const void *)plane_floats;
    SGRT__ENTER(s, SGRT_ERR_INVALID_ARG);
    if (!bs)
        return sgrt__fail(s, SGRT_ERR_INVALID_ARG, fn,
                          "the scene was created without SGRT_SCENE_BOUNDS", SGRT_NULL_NODE);
    if (!planes)
        return sgrt__fail(s, SGRT_ERR_INVALID_ARG, fn, "planes is NULL", SGRT_NULL_NODE);
    if (plane_count == 0 || plane_count > 8u)
        return sgrt__fail(s, SGRT_ERR_INVALID_ARG, fn, "plane_count is 0 or above 8",
                          SGRT_NULL_NODE);
    sgrt_result err;
    sgrt__nodeset *out = sgrt__object_arg(s, out_handle.id, SGRT__KIND_NODESET, why_out, fn, &err);
    if (!out)
        return err;
    /* only zero: every node. */
    const sgrt__nodeset *only = NULL;
    if (only_handle.id &&
        !(only = sgrt__object_arg(s, only_handle.id, SGRT__KIND_NODESET, why_only, fn, &err)))
        return err;
    for (uint32_t k = 0; k < plane_count; k++)
        for (uint32_t a = 0; a < 4u; a++)
            if (!finite_f(planes[k][a]))
                return sgrt__fail(s, SGRT_ERR_INVALID_ARG, fn,
                                  "a plane has a value that is NaN or infinite", SGRT_NULL_NODE);

    prepared p;
    prepare(s, planes, plane_count, &p);
    const sgrt__storage *st = &s->st;
    const uint32_t nw = (s->slot_end + 31u) / 32u;
    uint32_t *res = out->b.bits;
    sgrt_cull_stats stats = {0, 0, 0, 0, 0};
    sgrt__cull_view *v = &p.v;
    v->w_first = 0;
    v->w_end = nw;
    v->out = res;
    if (bs->sub && !bs->subtree_stale) {
        /* Candidates in the set's spare array (out may be `only`: read it
         * all before the result is cleared). */
        uint32_t *todo = out->spare;
        for (uint32_t w = 0; w < nw; w++)
            todo[w] = st->alive[w] & bs->b_valid[w] & (only ? only->b.bits[w] : ~0u);
        memset(res, 0, (size_t)nw * sizeof(uint32_t));
        walk(s, &p, nw, todo, res, &stats);
        v->a = v->b = todo;
        v->c = NULL;
        v->keep = res;
    } else {
        v->a = st->alive;
        v->b = bs->b_valid;
        v->c = only ? only->b.bits : NULL;
        v->keep = NULL;
    }
    stats.visible = s->k.cull(v, &stats.boxes_tested);
    memset(res + nw, 0, (size_t)(out->b.words - nw) * sizeof(uint32_t));
    if (out_stats)
        *out_stats = stats;
    return SGRT_OK;
}
