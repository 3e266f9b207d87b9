/* SPDX-License-Identifier: MIT */
/* Render interpolation (SGRT_SCENE_INTERPOLATE) as a follower of the scene
 * (interp.c; the parallel form in interp_par.c, the arithmetic in
 * interp_math.c). */
#ifndef SGRT_FOLLOWERS_INTERP_H
#define SGRT_FOLLOWERS_INTERP_H

#include "../follow.h"

/* After each update's kernel, for each slot it recomputed: the local of the
 * tick before and of the last tick (a root's: its world); before it, the
 * slots that rest now; sgrt_scene_interpolate composes the render worlds of
 * the slots the last update recomputed. */
extern const sgrt__follower sgrt__interp_follower;

/* The follower's state. Per slot (declared in interp.c, laid out and moved
 * by storage):
 *   from, to  the local of the tick before and of the last tick (a root's
 *             world, relative to the origin of the last update), equal
 *             where `own` is clear;
 *   render    the render world;
 *   pfrom, pto their parts (translation, rotation, scale), taken by the
 *             update for the slots that moved (sgrt__interp_parts);
 *   active    the slots the last update recomputed;
 *   own       of those, the slots whose own `to` changed in the last tick;
 *   settle    slots that stopped moving: render = world at the next
 *             interpolate;
 *   tele      teleports asked for since the last update;
 *   fresh     nodes created since the last update;
 *   here      roots whose `to` is in the frame of the origin now already
 *             (a child made a root keeping its local since the last
 *             update): the update does not shift it;
 *   changed   render worlds changed since the last collect (transient);
 *   cross     the parallel interpolate's cross set (transient).
 * Scene-level: the origin of the last update and the origin now, whether an
 * interpolate has run, and the parallel plan. */
#ifndef SGRT__TRS_FLOATS
#define SGRT__TRS_FLOATS 12
#endif
typedef struct sgrt__interp {
    sgrt__mat4 *from, *to, *render;
    float (*pfrom)[SGRT__TRS_FLOATS], (*pto)[SGRT__TRS_FLOATS];
    uint32_t *active, *active_sum;
    uint32_t *own, *own_sum;
    uint32_t *settle, *settle_sum;
    uint32_t *tele, *tele_sum;
    uint32_t *fresh, *fresh_sum;
    uint32_t *here, *here_sum;
    uint32_t *changed, *changed_sum;
    uint32_t *cross, *cross_sum;
    sgrt_scene *scene; /* for the after hook, set at each update's start */
    double last[3];
    double origin[3];
    bool began;
    bool was_root; /* the node sgrt_node_set_parent unlinks was a root */
    /* The parallel interpolate (interp_par.c). */
    float alpha;
    uint64_t plan_version;
    uint32_t plan_wanted, plan_ranges;
    uint32_t range_sum[SGRT__MAX_RANGES + 1]; /* its tasks: the scene's (sgrt__run_ranges) */
} sgrt__interp;

/* Word w of a bitfield and its summary bit, exact. */
static inline void sgrt__interp_put_word(uint32_t *bits, uint32_t *sum, uint32_t w, uint32_t v)
{
    bits[w] = v;
    if (v)
        sgrt__bit_set(sum, w);
    else
        sgrt__bit_clear(sum, w);
}

/* s's interpolation state; NULL without SGRT_SCENE_INTERPOLATE. */
sgrt__interp *sgrt__interp_of(const sgrt_scene *s);

/* A local's parts as the update caches them (SGRT__TRS_FLOATS floats):
 * translation [0, 3), quaternion (x, y, z, w) [3, 7), scale [7, 10); [10]
 * 1 where the local is T x R x S (sgrt__interp_decompose), else 0; [11] 1
 * while they are the parts of the slot's `to` (0: to be taken again). */
void sgrt__interp_parts(const float m[16], float out[SGRT__TRS_FLOATS]);
/* interp(a, b, alpha) of the definition (sgrt.h), given their parts: a at
 * 0 and b at 1 exactly; TRS where both are, else the elements lerped. */
void sgrt__interp_local(const float a[16], const float b[16], const float pa[SGRT__TRS_FLOATS],
                        const float pb[SGRT__TRS_FLOATS], float alpha, float out[16]);
/* a = T x R x S, R as a unit quaternion (x, y, z, w), S > 0, within the
 * tolerances of interp_math.c: true and the parts; else false. */
bool sgrt__interp_decompose(const float a[16], float t[3], float q[4], float sc[3]);

/* The interpolate of the slots of summary words [sum_first, sum_end) whose
 * bits `only` allows (NULL: every slot; the cross set's complement in a
 * task, the cross set itself first). */
void sgrt__interp_sweep(sgrt_scene *s, sgrt__interp *p, float alpha, uint32_t sum_first,
                        uint32_t sum_end, const uint32_t *only, bool inside);

/* The argument checks both interpolates share (the flag, alpha): the
 * state, or NULL after refusing the call with *err. */
sgrt__interp *sgrt__interp_args(sgrt_scene *s, float alpha, const char *function,
                                sgrt_result *err);

#endif
