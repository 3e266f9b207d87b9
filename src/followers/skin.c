/* SPDX-License-Identifier: MIT */
/* Skinning palettes kept by the update (sgrt_skin_*): the palette of joint
 * j of a skin is inverse(world(mesh)) x world(joint j) x inverse_bind(j),
 * recomputed exactly when the update recomputes the joint's world, and for
 * every joint when it recomputes the mesh's.
 *
 * Where the work runs: a joint's palette is computed in the after hook of
 * its word, right after the kernel stored its world (in L1, on the update's
 * threads). Its inverse of the mesh world must then be final: the update's
 * start decides, serially and before the closure, which meshes this update
 * moves (a mesh is recomputed when it or an ancestor is dirty, invariant 2)
 * and takes their inverse from the world the update will give them
 * (sgrt__world_now_slot, the kernels' product to the bit). Such a skin is
 * WHOLE: the after hooks compute the joints the kernels recompute, and its
 * finish the others. A mesh that does not move keeps the inverse it has.
 *
 * Which meshes move, without a walk per skin: the per-slot bits say which
 * nodes are meshes and which lie above one (a superset of the proper
 * ancestors of live meshes: kept as nodes join parents, never cleared but by
 * a restore); only when a dirty node lies above a mesh are the skins' meshes
 * walked up one by one. An idle frame reads the dirty summary and stops.
 *
 * The arithmetic is plain C, one fixed order of single operations per
 * element (no contraction), so every kernel level, target and worker count
 * gives the same bits. */
#include "skin.h"
#include "../args.h"
#include "../handles.h"
#include "../matrix.h"
#include "../validate.h"
#include "../world_now.h"
#include <string.h>

/* Per slot, the three bitfields: 3 bits a node in every scene. */
static const sgrt__slot_decl decls[] = {
    /* Derived from the skins (objects, in no snapshot): rebuilt by a restore. */
    SGRT__DECL_BITFIELD_TRANSIENT(sgrt__skins, joint, 0u),
    SGRT__DECL_BITFIELD_TRANSIENT(sgrt__skins, mesh, 0u),
    SGRT__DECL_BITFIELD_TRANSIENT(sgrt__skins, above, 0u),
};

sgrt__skins *sgrt__skins_of(const sgrt_scene *s)
{
    return sgrt__follow_state(s, &sgrt__skin_follower);
}

/* ---- the arithmetic ----------------------------------------------------------- */

/* The cofactor matrix of P's upper 3x3 (det x inverse-transpose): row r is
 * the cross product of the other two rows, rows (r + 1) and (r + 2) mod 3;
 * each element x*y - z*w. */
static inline void cofactor_of(const float p[12], float n[12])
{
    for (int r = 0; r < 3; r++) {
        const float *u = p + 4 * ((r + 1) % 3), *v = p + 4 * ((r + 2) % 3);
        n[4 * r + 0] = u[1] * v[2] - u[2] * v[1];
        n[4 * r + 1] = u[2] * v[0] - u[0] * v[2];
        n[4 * r + 2] = u[0] * v[1] - u[1] * v[0];
        n[4 * r + 3] = 0.0f;
    }
}

/* Whether 12 floats differ in any bit. */
static inline bool differ12(const float *x, const float *y)
{
    uint32_t a[12], b[12], d = 0;
    memcpy(a, x, sizeof a);
    memcpy(b, y, sizeof b);
    for (int i = 0; i < 12; i++)
        d |= a[i] ^ b[i];
    return d != 0;
}

/* The kernel's mode for k's palettes. */
static inline uint32_t mode_of(const sgrt__skin *k)
{
    return (k->state & SGRT__SKIN_IM_ONE ? (uint32_t)SGRT__PAL_IM_ONE : 0u) |
           (k->state & SGRT__SKIN_IM_AFFINE ? (uint32_t)SGRT__PAL_IM_AFFINE : 0u) |
           (k->state & SGRT__SKIN_BIND_AFFINE ? (uint32_t)SGRT__PAL_B_AFFINE : 0u);
}

/* The kernel computes straight into the palette; before it, each joint's
 * previous palette takes the palette it had, after it the normals follow. */
static inline void save_prev(const sgrt__skin *k, uint32_t j)
{
    if (k->prev)
        memcpy(k->prev + 12u * j, k->palette + 12u * j, 12 * sizeof(float));
}

static inline void normals_of(const sgrt__skin *k, uint32_t j)
{
    if (k->normals)
        cofactor_of(k->palette + 12u * j, k->normals + 12u * j);
}

bool sgrt__skin_compute(const sgrt_scene *s, sgrt__skin *k, uint32_t j, const float w[16])
{
    float old[12];
    memcpy(old, k->palette + 12u * j, sizeof old);
    const bool moved = k->prev && differ12(k->prev + 12u * j, old);
    save_prev(k, j);
    const float *b = k->bind ? k->bind[j] : NULL;
    float *out = k->palette + 12u * j;
    s->k.palette(&k->im[0][0], mode_of(k), &w, k->bind ? &b : NULL, 1, &out);
    normals_of(k, j);
    return moved || differ12(old, out);
}

void sgrt__skin_take_inverse(sgrt__skin *k, const float m[16])
{
    float inv[16];
    if (!sgrt__inverse(m, inv))
        return; /* no inverse: the last one stays */
    static const float one[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    memcpy(k->im, inv, sizeof inv);
    k->state &= ~(uint32_t)(SGRT__SKIN_IM_ONE | SGRT__SKIN_IM_AFFINE);
    if (memcmp(inv, one, sizeof one) == 0)
        k->state |= SGRT__SKIN_IM_ONE;
    if (sgrt__affine16(inv))
        k->state |= SGRT__SKIN_IM_AFFINE;
}

/* ---- the update ----------------------------------------------------------------- */

/* k is recomputed whole by this update, and listed. Serial. */
static void mark_whole(sgrt__skins *f, sgrt__skin *k)
{
    if (k->state & (SGRT__SKIN_WHOLE | SGRT__SKIN_FROZEN))
        return;
    k->state |= SGRT__SKIN_WHOLE;
    f->whole[f->whole_count++] = k;
}

/* The skins whose mesh is in `slot`. */
static void mark_mesh(const sgrt_scene *s, sgrt__skins *f, uint32_t slot)
{
    for (uint32_t e = f->head[s->st.slot_handle[slot]]; e != SGRT__NONE; e = f->ent[e].next)
        if (f->ent[e].joint == SGRT__SKIN_MESH)
            mark_whole(f, f->ent[e].skin);
}

/* A public update starts, before its closure: the skins it recomputes
 * whole, with their inverse from the mesh's world as the update will form
 * it, and what the after hooks read. O(dirty words) when no dirty node lies
 * above a mesh; O(skins x mesh depth) when one does. */
static void skins_start(sgrt_scene *s, const char *function)
{
    (void)function;
    sgrt__skins *f = sgrt__skins_of(s);
    if (!f->count)
        return;
    const sgrt__storage *st = &s->st;
    f->world = (const float(*)[16])st->world;
    f->slot_handle = st->slot_handle;
    f->palette = s->k.palette;
    bool walk = false;
    SGRT__FOR_EACH_SUMMARIZED(st->dirty_sum, 0, st->sum_words, st->dirty, false, w, d,
        walk |= (d & f->above[w]) != 0;
        uint32_t m = d & f->mesh[w];
        SGRT__FOR_EACH_IN_WORD(w, m, slot, mark_mesh(s, f, slot);)
    )
    for (uint32_t i = 0; walk && i < f->count; i++) {
        sgrt__skin *k = f->all[i];
        const uint32_t slot = k->mesh.id ? sgrt__resolve(s, k->mesh) : SGRT__NONE;
        if (slot != SGRT__NONE && sgrt__validate_recomputed(s, slot))
            mark_whole(f, k);
    }
    for (uint32_t i = 0; i < f->whole_count; i++) {
        sgrt__skin *k = f->whole[i];
        SGRT__AU_STORE(&k->listed, 1u);
        f->list[f->cur][i] = k;
        const uint32_t slot = k->mesh.id ? sgrt__resolve(s, k->mesh) : SGRT__NONE;
        if (slot == SGRT__NONE || (k->state & SGRT__SKIN_FROZEN))
            continue;
        float m[16];
        sgrt__world_now_slot(s, slot, m);
        sgrt__skin_take_inverse(k, m);
    }
    SGRT__AU_STORE(&f->cur_count, f->whole_count);
}

/* The joints of one skin that an after call computes, gathered for one
 * call of the palette kernel. */
#define BATCH 32u
typedef struct batch {
    sgrt__skin *k;
    uint32_t n;
    uint32_t joint[BATCH];
    const float *w[BATCH], *b[BATCH];
} batch;

/* The shared bits of one word of k's joints: pending and recomputed ones
 * (the latter for skins recomputed whole or keeping previous palettes, with
 * the skin listed once). */
static void flush(sgrt__skins *f, sgrt__skin *k, uint32_t word, uint32_t pending, uint32_t now)
{
    if (pending) {
        SGRT__AU_OR(&k->pending[word], pending);
        SGRT__AU_OR(&k->pending_sum[word >> 5], 1u << (word & 31u));
    }
    if (!(k->state & SGRT__SKIN_WHOLE) && !k->prev)
        return;
    SGRT__AU_OR(&k->now[word], now);
    if (!SGRT__AU_LOAD(&k->listed) && SGRT__AU_XCHG(&k->listed, 1u) == 0u)
        f->list[f->cur][SGRT__AU_ADD(&f->cur_count, 1u)] = k;
}

/* The batch's palettes through the kernel, straight into the skin's
 * arrays, their bits written a word of joints at a time: a joint the update
 * recomputes is reported (as a tracker reports a slot), whatever its bits. */
static void run_batch(sgrt__skins *f, batch *bt)
{
    sgrt__skin *k = bt->k;
    float *out[BATCH];
    for (uint32_t i = 0; i < bt->n; i++) {
        save_prev(k, bt->joint[i]);
        out[i] = k->palette + 12u * bt->joint[i];
    }
    f->palette(&k->im[0][0], mode_of(k), bt->w, k->bind ? bt->b : NULL, bt->n, out);
    uint32_t word = bt->joint[0] >> 5, bits = 0;
    for (uint32_t i = 0; i < bt->n; i++) {
        const uint32_t j = bt->joint[i];
        normals_of(k, j);
        if (j >> 5 != word) {
            flush(f, k, word, bits, bits);
            word = j >> 5;
            bits = 0;
        }
        bits |= 1u << (j & 31u);
    }
    flush(f, k, word, bits, bits);
    bt->n = 0;
}

/* After the kernel stored the worlds of the slots `done` of word w: the
 * palettes of the joints among them, while their worlds are in L1, a batch
 * of one skin's joints per kernel call. Each (skin, joint) is computed by
 * one call only; what calls share (the skins' joint bits, the list) is
 * written with atomics. */
static void skins_after(void *self, uint32_t w, uint32_t done)
{
    sgrt__skins *f = self;
    uint32_t bits = done & f->joint[w];
    if (!bits)
        return;
    /* The first entry of each joint's list first, then the lists: the
     * loads of one pass do not wait on each other. */
    uint32_t slot[32], e0[32], n = 0;
    SGRT__FOR_EACH_IN_WORD(w, bits, i,
        slot[n] = i;
        e0[n++] = f->head[f->slot_handle[i]];
    )
    batch bt;
    bt.k = NULL;
    bt.n = 0;
    for (uint32_t q = 0; q < n; q++)
        for (uint32_t e = e0[q]; e != SGRT__NONE;) {
            const sgrt__skin_entry *en = &f->ent[e];
            e = en->next;
            sgrt__skin *k = en->skin;
            const uint32_t j = en->joint;
            if (j == SGRT__SKIN_MESH || (k->state & SGRT__SKIN_FROZEN))
                continue;
            if (k != bt.k || bt.n == BATCH) {
                if (bt.n)
                    run_batch(f, &bt);
                bt.k = k;
            }
            /* What the kernel reads and writes beside the world (in L1):
             * fetched while the batch fills. */
            SGRT__PREFETCH_W(k->palette + 12u * j);
            if (k->bind)
                SGRT__PREFETCH(k->bind[j]);
            bt.joint[bt.n] = j;
            bt.w[bt.n] = f->world[slot[q]];
            bt.b[bt.n++] = k->bind ? k->bind[j] : NULL;
        }
    if (bt.n)
        run_batch(f, &bt);
}

/* Previous palettes of the joints that the last update recomputed and this
 * one did not catch up with their palettes. */
static void catch_up(sgrt__skin *k)
{
    for (uint32_t w = 0; w < k->words; w++) {
        uint32_t c = k->last[w] & ~SGRT__AU_LOAD(&k->now[w]);
        k->last[w] = 0;
        SGRT__FOR_EACH_IN_WORD(w, c, j,
            float *pv = k->prev + 12u * j;
            const float *pal = k->palette + 12u * j;
            if (differ12(pv, pal)) {
                memcpy(pv, pal, 12 * sizeof(float));
                SGRT__AU_OR(&k->pending[w], 1u << (j & 31u));
                SGRT__AU_OR(&k->pending_sum[w >> 5], 1u << (w & 31u));
            }
        )
    }
}

/* After the kernels (serial): the joints of whole skins that the kernels
 * did not recompute, new skins' first previous palette, the catch-up of
 * previous palettes; this update's list becomes the last one. */
static void skins_finish(sgrt_scene *s)
{
    sgrt__skins *f = sgrt__skins_of(s);
    const float(*world)[16] = (const float(*)[16])s->st.world;
    for (uint32_t i = 0; i < f->whole_count; i++) {
        sgrt__skin *k = f->whole[i];
        for (uint32_t j = 0; !(k->state & SGRT__SKIN_FROZEN) && j < k->count; j++) {
            const uint32_t bit = 1u << (j & 31u);
            if (SGRT__AU_LOAD(&k->now[j >> 5]) & bit)
                continue;
            const uint32_t slot = sgrt__resolve(s, k->joints[j]);
            if (slot == SGRT__NONE)
                continue;
            SGRT__AU_OR(&k->now[j >> 5], bit);
            (void)sgrt__skin_compute(s, k, j, world[slot]);
            SGRT__AU_OR(&k->pending[j >> 5], bit);
            SGRT__AU_OR(&k->pending_sum[j >> 10], 1u << ((j >> 5) & 31u));
        }
        if (k->state & SGRT__SKIN_FRESH) {
            /* No motion on a skin's first update; its first collect covers
             * every joint. */
            if (k->prev)
                memcpy(k->prev, k->palette, (size_t)k->count * 12u * sizeof(float));
            for (uint32_t w = 0; w < k->words; w++) {
                const uint32_t n = k->count - w * 32u;
                SGRT__AU_STORE(&k->pending[w], n >= 32u ? ~0u : (1u << n) - 1u);
                SGRT__AU_OR(&k->pending_sum[w >> 5], 1u << (w & 31u));
            }
        }
        k->state &= ~(uint32_t)(SGRT__SKIN_WHOLE | SGRT__SKIN_FRESH);
    }
    f->whole_count = 0;
    sgrt__skin **last = f->list[f->cur ^ 1u], **cur = f->list[f->cur];
    for (uint32_t i = 0; i < f->last_count; i++)
        catch_up(last[i]);
    /* This update's recomputed joints are the next one's last; only skins
     * with previous palettes stay listed. */
    const uint32_t n = SGRT__AU_LOAD(&f->cur_count);
    uint32_t kept = 0;
    for (uint32_t i = 0; i < n; i++) {
        sgrt__skin *k = cur[i];
        for (uint32_t w = 0; w < k->words; w++) {
            if (k->prev)
                k->last[w] = SGRT__AU_LOAD(&k->now[w]);
            SGRT__AU_STORE(&k->now[w], 0u);
        }
        SGRT__AU_STORE(&k->listed, 0u);
        if (k->prev)
            cur[kept++] = k;
    }
    f->last_count = kept;
    f->cur ^= 1u;
    SGRT__AU_STORE(&f->cur_count, 0u);
}

/* An update with nothing dirty still has work: new skins, and previous
 * palettes to catch up. */
static bool skins_pending(const sgrt_scene *s)
{
    const sgrt__skins *f = sgrt__skins_of(s);
    return f->whole_count != 0 || f->last_count != 0;
}

static bool skins_wants_after(const sgrt_scene *s) { return sgrt__skins_of(s)->count != 0; }

const sgrt__follower sgrt__skin_follower = {
    .state_size = sizeof(sgrt__skins),
    .slots = decls,
    .slot_count = sizeof decls / sizeof decls[0],
    .created = sgrt__skin_created,
    .linked = sgrt__skin_linked,
    .vacated = sgrt__skin_vacated,
    .restored = sgrt__skin_restored,
    .start = skins_start,
    .pending = skins_pending,
    .wants_after = skins_wants_after,
    .after = skins_after,
    .finish = skins_finish,
    .destroy = sgrt__skin_destroy_all,
    .check = sgrt__skin_check,
};
