/* SPDX-License-Identifier: MIT */
/* Render interpolation (SGRT_SCENE_INTERPOLATE; sgrt.h, "Render
 * interpolation"). The update keeps, for each slot it recomputes, the local
 * of the tick before (`from`) and of the last tick (`to`, what the update
 * used: the local after the kernel's repair of a non-finite one; a root's
 * world, relative to the origin), in its after hook, while the slot's world
 * and local are in cache. A root's `to` is its world so that a large
 * world's anchors and origin need no arithmetic here: an origin move shifts
 * the tick before's root world into the new frame with the shift previous
 * worlds use (sgrt__anchored_world of the difference of origins), and the
 * children's locals are frame-free.
 *
 * sgrt_scene_interpolate walks, in slot order (parents first), the slots the
 * last update recomputed (`active`), render = render(parent) x (own ?
 * interp(from, to, alpha) : to) with the scene kernel's product (the
 * update's), so that alpha = 1 is the world array bit for bit; and the slots
 * that stopped moving (`settle`) once, render = world, a copy. Every other
 * slot already has render = world: summary words skip it.
 *
 * Everything per slot is declared (storage moves it; snapshots hold it but
 * `changed` and `cross`, which are derived: a restore reports every live
 * slot changed, and the plan is rebuilt). */
#include "interp.h"
#include "../args.h"
#include "../dirty.h"
#include "../matrix.h"
#include "../result.h"
#include "../snapshot.h"
#include "slotbits.h"
#include "large.h"
#include <string.h>

#define FL ((uint32_t)SGRT_SCENE_INTERPOLATE)

static const sgrt__slot_decl decls[] = {
    SGRT__DECL_ARRAY(sgrt__interp, from, sgrt__mat4, false, 0u),
    SGRT__DECL_ARRAY(sgrt__interp, to, sgrt__mat4, false, 0u),
    SGRT__DECL_ARRAY(sgrt__interp, render, sgrt__mat4, false, 0u),
    /* Zeroed, and zeroed for each new node: a snapshot writes every row. */
    SGRT__DECL_ARRAY_OF(sgrt__interp, pfrom, float[SGRT__TRS_FLOATS], float, true, 0u),
    SGRT__DECL_ARRAY_OF(sgrt__interp, pto, float[SGRT__TRS_FLOATS], float, true, 0u),
    SGRT__DECL_BITFIELD(sgrt__interp, active, 0u),
    SGRT__DECL_BITFIELD(sgrt__interp, own, 0u),
    SGRT__DECL_BITFIELD(sgrt__interp, settle, 0u),
    SGRT__DECL_BITFIELD(sgrt__interp, tele, 0u),
    SGRT__DECL_BITFIELD(sgrt__interp, fresh, 0u),
    SGRT__DECL_BITFIELD(sgrt__interp, here, 0u),
    SGRT__DECL_BITFIELD_TRANSIENT(sgrt__interp, changed, 0u),
    SGRT__DECL_BITFIELD_TRANSIENT(sgrt__interp, cross, 0u),
};
static const sgrt__state_field fields[] = {
    SGRT__FIELD(sgrt__interp, last, double),
    SGRT__FIELD(sgrt__interp, origin, double),
    SGRT__FIELD_BOOL(sgrt__interp, began),
};

sgrt__interp *sgrt__interp_of(const sgrt_scene *s)
{
    return sgrt__follow_state(s, &sgrt__interp_follower);
}

/* A new node: its render world is its world, reported; it starts where it
 * is at the update after (fresh). */
static void created(sgrt_scene *s, uint32_t slot)
{
    sgrt__interp *p = sgrt__interp_of(s);
    memcpy(p->render[slot], s->st.world[slot], sizeof p->render[slot]);
    memcpy(p->from[slot], s->st.world[slot], sizeof p->from[slot]);
    memcpy(p->to[slot], s->st.world[slot], sizeof p->to[slot]);
    memset(p->pfrom[slot], 0, sizeof p->pfrom[slot]);
    memset(p->pto[slot], 0, sizeof p->pto[slot]); /* not `to`'s parts yet */
    const uint32_t w = slot >> 5, b = 1u << (slot & 31u);
    sgrt__interp_put_word(p->active, p->active_sum, w, p->active[w] & ~b);
    sgrt__interp_put_word(p->own, p->own_sum, w, p->own[w] & ~b);
    sgrt__interp_put_word(p->settle, p->settle_sum, w, p->settle[w] & ~b);
    sgrt__interp_put_word(p->tele, p->tele_sum, w, p->tele[w] & ~b);
    sgrt__interp_put_word(p->here, p->here_sum, w, p->here[w] & ~b);
    sgrt__bit_set_sum(p->fresh, p->fresh_sum, slot);
    sgrt__bit_set_sum(p->changed, p->changed_sum, slot);
}

/* A node leaves its parent (destroyed or re-parented): whether it was a
 * root, for reparented, which sgrt_node_set_parent calls next. */
static void unlinked(sgrt_scene *s, uint32_t slot)
{
    sgrt__interp_of(s)->was_root = s->st.parent[slot] == SGRT__NONE;
}

/* A re-parent: with keep_world, the last tick's local moves into the new
 * parent's frame, inverse(world of the new parent) x world of the node, both
 * of the last update (the world array still holds them), in double
 * (sgrt__relative_local); a new root's `to` is its world. Keep-local keeps
 * the last tick's local, as the world does: a child's `to` as it is; a root
 * made a child, whose `to` was its world, takes its local now (the same
 * bits in a scene that is not a large world, unless the local was written
 * in this tick before the re-parent: then that write is not interpolated).
 * A node created in this tick starts where it is anyway. */
static void reparented(sgrt_scene *s, uint32_t slot, bool keep_world)
{
    sgrt__interp *p = sgrt__interp_of(s);
    if (sgrt__bit_get(p->fresh, slot))
        return;
    const uint32_t ps = s->st.parent[slot];
    if (sgrt__bit_get(p->here, slot))
        sgrt__bit_clear_sum(p->here, p->here_sum, slot);
    if (keep_world) {
        if (ps == SGRT__NONE)
            memcpy(p->to[slot], s->st.world[slot], sizeof p->to[slot]);
        else if (!sgrt__relative_local(s->st.world[ps], s->st.world[slot], p->to[slot]))
            memcpy(p->to[slot], s->st.local[slot], sizeof p->to[slot]); /* no inverse: a jump */
    } else if (p->was_root && ps != SGRT__NONE) {
        memcpy(p->to[slot], s->st.local[slot], sizeof p->to[slot]);
    } else if (!p->was_root && ps == SGRT__NONE) {
        /* A child made a root keeping its local: anchored at the origin of
         * now, its local is already its world in the frame of now, which
         * the update must not shift from the last update's frame. */
        sgrt__bit_set_sum(p->here, p->here_sum, slot);
    }
    p->pto[slot][11] = 0.0f; /* `to` changed: its parts are taken again */
    /* `from` is set from `to` at the update; while the node rests they are
     * equal, and they must stay so for a slot the update does not visit. */
    memcpy(p->from[slot], p->to[slot], sizeof p->from[slot]);
}

/* Nodes moved: their render worlds are new in their slots. */
static void moved(sgrt_scene *s, const sgrt__moves *m)
{
    sgrt__interp *p = sgrt__interp_of(s);
    p->plan_version = 0;
    if (m->from) {
        for (uint32_t k = 0; k < m->count; k++)
            sgrt__bit_set_sum(p->changed, p->changed_sum, m->map[m->from[k]]);
        return;
    }
    for (uint32_t w = 0; w < s->st.words; w++)
        sgrt__interp_put_word(p->changed, p->changed_sum, w, p->changed[w] | s->st.alive[w]);
}

/* The origin moved: the next update shifts the tick before's root worlds
 * into its frame. */
static void origin(sgrt_scene *s, const double now[3])
{
    memcpy(sgrt__interp_of(s)->origin, now, sizeof(double) * 3u);
}

/* A restore: the render array is the snapshot's (declared); every live slot
 * is reported to the next collect. */
static void restored(sgrt_scene *s, const uint32_t *changed)
{
    (void)changed;
    sgrt__interp *p = sgrt__interp_of(s);
    p->plan_version = 0;
    for (uint32_t w = 0; w < s->st.words; w++)
        sgrt__interp_put_word(p->changed, p->changed_sum, w, s->st.alive[w]);
}

static void start(sgrt_scene *s, const char *function)
{
    (void)function;
    sgrt__interp_of(s)->scene = s;
}

/* The words with work besides the dirty ones: slots that moved in the last
 * tick (they may rest now) and teleports (they lapse). */
static uint32_t words(const sgrt_scene *s, const void *self, uint32_t sw)
{
    (void)s;
    const sgrt__interp *p = self;
    return p->active_sum[sw] | p->tele_sum[sw];
}
static bool always(const sgrt_scene *s)
{
    (void)s;
    return true;
}

/* Before the kernel recomputes the slots `d` of word w, for the slots
 * `mask`: those the last update recomputed and this one does not rest
 * (from <- to where they moved; their render world becomes their world at
 * the next interpolate); teleports of slots not recomputed lapse; `d`
 * becomes the word's active slots (their locals are taken in after). */
static void word(sgrt_scene *s, void *self, uint32_t w, uint32_t d, uint32_t mask)
{
    sgrt__interp *p = self;
    const uint32_t alive = s->st.alive[w];
    const uint32_t rest = p->active[w] & mask & ~d & alive;
    uint32_t moving = p->own[w] & rest;
    SGRT__FOR_EACH_IN_WORD(w, moving, i,
        memcpy(p->from[i], p->to[i], sizeof p->from[i]);
    )
    if (p->own[w] & mask)
        sgrt__interp_put_word(p->own, p->own_sum, w, p->own[w] & ~(mask & ~d));
    if (rest)
        sgrt__interp_put_word(p->settle, p->settle_sum, w, p->settle[w] | rest);
    const uint32_t act = (p->active[w] & ~mask) | (d & mask);
    if (act != p->active[w])
        sgrt__interp_put_word(p->active, p->active_sum, w, act);
    if (p->tele[w] & mask & ~d)
        sgrt__interp_put_word(p->tele, p->tele_sum, w, p->tele[w] & ~(mask & ~d));
}

/* Right after the kernel stored the worlds of `done` of word w: each slot's
 * local of this tick (a root's world) becomes `to`, the one before `from`;
 * a teleported or new node's `from` is its `to` (it jumps, or starts where
 * it is). Before the first interpolate the render world follows the world. */
static void after(void *self, uint32_t w, uint32_t done)
{
    sgrt__interp *p = self;
    const sgrt_scene *s = p->scene;
    const sgrt__storage *st = &s->st;
    const bool shift = p->last[0] != p->origin[0] || p->last[1] != p->origin[1] ||
                       p->last[2] != p->origin[2];
    const double d[3] = {p->last[0] - p->origin[0], p->last[1] - p->origin[1],
                         p->last[2] - p->origin[2]};
    static const double zero[3] = {0.0, 0.0, 0.0};
    const uint32_t jump = (p->tele[w] | p->fresh[w]) & done;
    uint32_t own = p->own[w] & ~done;
    uint32_t bits = done;
    SGRT__FOR_EACH_IN_WORD(w, bits, i,
        const uint32_t b = 1u << (i & 31u);
        const bool root = st->parent[i] == SGRT__NONE;
        const float *now = root ? st->world[i] : st->local[i];
        if (jump & b) {
            memcpy(p->to[i], now, sizeof p->to[i]);
            memcpy(p->from[i], now, sizeof p->from[i]);
            p->pto[i][11] = 0.0f;
        } else {
            float before[16];
            if (root && shift && !(p->here[w] & b))
                sgrt__anchored_world(p->to[i], d, zero, before);
            else
                memcpy(before, p->to[i], sizeof before);
            if (memcmp(before, now, sizeof before) != 0) {
                /* It moved: both ticks' parts, the last one's kept from
                 * the tick before where they are `to`'s and unshifted. */
                if (p->pto[i][11] != 0.0f && memcmp(before, p->to[i], sizeof before) == 0)
                    memcpy(p->pfrom[i], p->pto[i], sizeof p->pfrom[i]);
                else
                    sgrt__interp_parts(before, p->pfrom[i]);
                memcpy(p->from[i], before, sizeof before);
                memcpy(p->to[i], now, sizeof p->to[i]);
                sgrt__interp_parts(p->to[i], p->pto[i]);
                own |= b;
            } else {
                if (memcmp(p->to[i], now, sizeof p->to[i]) != 0)
                    p->pto[i][11] = 0.0f; /* shifted: its parts are taken again */
                memcpy(p->from[i], now, sizeof p->from[i]);
                memcpy(p->to[i], now, sizeof p->to[i]);
            }
        }
        if (!p->began)
            memcpy(p->render[i], st->world[i], sizeof p->render[i]);
    )
    sgrt__interp_put_word(p->own, p->own_sum, w, own);
    if (p->tele[w] & done)
        sgrt__interp_put_word(p->tele, p->tele_sum, w, p->tele[w] & ~done);
    if (p->fresh[w] & done)
        sgrt__interp_put_word(p->fresh, p->fresh_sum, w, p->fresh[w] & ~done);
    if (p->here[w] & done)
        sgrt__interp_put_word(p->here, p->here_sum, w, p->here[w] & ~done);
    if (!p->began)
        sgrt__interp_put_word(p->changed, p->changed_sum, w, p->changed[w] | done);
}

static void finish(sgrt_scene *s)
{
    sgrt__interp *p = sgrt__interp_of(s);
    memcpy(p->last, p->origin, sizeof p->last);
}

/* The render world of every live slot that is neither active nor settling
 * is its world; `from` equals `to` where `own` is clear. */
static const char *check(const sgrt_scene *s)
{
    const sgrt__interp *p = sgrt__interp_of(s);
    const sgrt__storage *st = &s->st;
    for (uint32_t w = 0; w < st->words && w * 32u < s->slot_end; w++) {
        uint32_t rest = st->alive[w] & ~p->active[w] & ~p->settle[w] & ~p->fresh[w];
        SGRT__FOR_EACH_IN_WORD(w, rest, i,
            if (memcmp(p->render[i], st->world[i], sizeof p->render[i]) != 0)
                return "interp: the render world of a slot the last update did not "
                       "recompute and that did not stop moving equals its world";
        )
        uint32_t still = st->alive[w] & ~p->own[w] & ~p->fresh[w];
        SGRT__FOR_EACH_IN_WORD(w, still, i,
            if (memcmp(p->from[i], p->to[i], sizeof p->from[i]) != 0)
                return "interp: the two ticks' locals are equal on every slot that did not "
                       "move in the last tick";
        )
    }
    return NULL;
}

/* A snapshot's render state, as sgrt_scene_check wants it (check, above):
 * render = world and from = to where those hold in a scene (little-endian
 * floats both: their bytes compare as their bits do). */
static const char *snapshot_check(const sgrt_scene *s, const sgrt__snapview *v)
{
    const sgrt__follower *f = &sgrt__interp_follower;
    const uint8_t *render = sgrt__snap_slots(s, v, f, "render");
    const uint8_t *from = sgrt__snap_slots(s, v, f, "from");
    const uint8_t *to = sgrt__snap_slots(s, v, f, "to");
    const uint8_t *active = sgrt__snap_slots(s, v, f, "active");
    const uint8_t *settle = sgrt__snap_slots(s, v, f, "settle");
    const uint8_t *fresh = sgrt__snap_slots(s, v, f, "fresh");
    const uint8_t *own = sgrt__snap_slots(s, v, f, "own");
    if (!render || !from || !to || !active || !settle || !fresh || !own)
        return NULL;
    for (uint32_t w = 0; w < v->words; w++) {
        const uint32_t alive = sgrt__snap_u32(v->alive, w) & ~sgrt__snap_u32(fresh, w);
        uint32_t rest = alive & ~sgrt__snap_u32(active, w) & ~sgrt__snap_u32(settle, w);
        SGRT__FOR_EACH_IN_WORD(w, rest, i,
            if (memcmp(render + 64u * (size_t)i, v->world + 64u * (size_t)i, 64u) != 0)
                return "interp: render worlds equal the world on every live slot the last "
                       "update did not recompute and that did not stop moving";
        )
        uint32_t still = alive & ~sgrt__snap_u32(own, w);
        SGRT__FOR_EACH_IN_WORD(w, still, i,
            if (memcmp(from + 64u * (size_t)i, to + 64u * (size_t)i, 64u) != 0)
                return "interp: the two ticks' locals are equal on every slot that did not "
                       "move in the last tick";
        )
    }
    return NULL;
}

const sgrt__follower sgrt__interp_follower = {
    .flags = FL,
    .state_size = sizeof(sgrt__interp),
    .slots = decls,
    .slot_count = sizeof decls / sizeof decls[0],
    .fields = fields,
    .field_count = sizeof fields / sizeof fields[0],
    .created = created,
    .unlinked = unlinked,
    .reparented = reparented,
    .moved = moved,
    .origin = origin,
    .restored = restored,
    .start = start,
    .words = words,
    .pending = always,
    .word = word,
    .after = after,
    .finish = finish,
    .snapshot_check = snapshot_check,
    .check = check,
};

/* ---- the frame ------------------------------------------------------------ */

void sgrt__interp_sweep(sgrt_scene *s, sgrt__interp *p, float alpha, uint32_t sum_first,
                        uint32_t sum_end, const uint32_t *only, bool inside)
{
    const sgrt__storage *st = &s->st;
    void (*const mul)(const float *, const float *, float *) = s->k.mul;
    for (uint32_t sw = sum_first; sw < sum_end; sw++) {
        uint32_t sb = p->active_sum[sw] | p->settle_sum[sw];
        while (sb) {
            const uint32_t w = sw * 32u + sgrt__ctz32(sb);
            sb &= sb - 1u;
            const uint32_t sel = only ? (inside ? only[w] : ~only[w]) : ~0u;
            const uint32_t act = p->active[w] & st->alive[w] & sel;
            const uint32_t settle = p->settle[w] & sel;
            const uint32_t all = act | (settle & st->alive[w]);
            if (!all && !settle)
                continue;
            if (settle)
                sgrt__interp_put_word(p->settle, p->settle_sum, w, p->settle[w] & ~sel);
            uint32_t bits = all;
            SGRT__FOR_EACH_IN_WORD(w, bits, i,
                const uint32_t b = 1u << (i & 31u);
                if (!(act & b)) {
                    memcpy(p->render[i], st->world[i], sizeof p->render[i]);
                    continue;
                }
                float m[16];
                const float *local = p->to[i];
                if (p->own[w] & b) {
                    sgrt__interp_local(p->from[i], p->to[i], p->pfrom[i], p->pto[i], alpha,
                                       m);
                    local = m;
                }
                const uint32_t ps = st->parent[i];
                if (ps == SGRT__NONE)
                    memcpy(p->render[i], local, sizeof p->render[i]);
                else
                    mul(p->render[ps], local, p->render[i]);
            )
            if (all & ~p->changed[w])
                sgrt__interp_put_word(p->changed, p->changed_sum, w, p->changed[w] | all);
        }
    }
}
