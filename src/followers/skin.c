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
    SGRT__DECL_BITFIELD(sgrt__skins, joint, 0u),
    SGRT__DECL_BITFIELD(sgrt__skins, mesh, 0u),
    SGRT__DECL_BITFIELD(sgrt__skins, above, 0u),
};

sgrt__skins *sgrt__skins_of(const sgrt_scene *s)
{
    return sgrt__follow_state(s, &sgrt__skin_follower);
}

/* ---- the arithmetic ----------------------------------------------------------- */

/* Rows 0..2 of P = IM x W x B, with A = IM x W first:
 *   A[r][c] = (IM[r][0] W[0][c] + IM[r][1] W[1][c]) + (IM[r][2] W[2][c] + IM[r][3] W[3][c])
 *   P[r][c] = (A[r][0] B[0][c] + A[r][1] B[1][c]) + (A[r][2] B[2][c] + A[r][3] B[3][c])
 * (the kernels' order for each product), A = W where the inverse is the
 * identity, P = A where the skin has no inverse binds. Written over four
 * lanes so that a compiler makes vectors of it; lane 3 of A is row 3, which
 * P does not use. */
static inline void palette_of(const sgrt__skin *k, uint32_t j, const float w[16], float p[12])
{
    float a[4][4]; /* a[c][r] = A[r][c] */
    if (k->state & SGRT__SKIN_IM_ONE) {
        memcpy(a, w, sizeof a);
    } else {
        for (int c = 0; c < 4; c++)
            for (int r = 0; r < 4; r++)
                a[c][r] = (k->im[0][r] * w[4 * c] + k->im[1][r] * w[4 * c + 1]) +
                          (k->im[2][r] * w[4 * c + 2] + k->im[3][r] * w[4 * c + 3]);
    }
    if (!k->bind) {
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 4; c++)
                p[4 * r + c] = a[c][r];
        return;
    }
    const float *b = k->bind[j]; /* b[4 * row + c] */
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 4; c++)
            p[4 * r + c] = (a[0][r] * b[c] + a[1][r] * b[4 + c]) +
                           (a[2][r] * b[8 + c] + a[3][r] * b[12 + c]);
}

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

bool sgrt__skin_compute(sgrt__skin *k, uint32_t j, const float w[16])
{
    float p[12];
    palette_of(k, j, w, p);
    float *dst = k->palette + 12u * j;
    bool changed = differ12(dst, p);
    if (k->prev) {
        float *pv = k->prev + 12u * j;
        changed |= differ12(pv, dst);
        memcpy(pv, dst, sizeof p);
    }
    memcpy(dst, p, sizeof p);
    if (k->normals)
        cofactor_of(p, k->normals + 12u * j);
    return changed;
}

void sgrt__skin_take_inverse(sgrt__skin *k, const float m[16])
{
    float inv[16];
    if (!sgrt__inverse(m, inv))
        return; /* no inverse: the last one stays */
    static const float one[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    memcpy(k->im, inv, sizeof inv);
    if (memcmp(inv, one, sizeof one) == 0)
        k->state |= SGRT__SKIN_IM_ONE;
    else
        k->state &= ~(uint32_t)SGRT__SKIN_IM_ONE;
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

/* The joints of one skin's word of joint bits that an after call computed,
 * collected so that shared bits are written once per run of joints. */
typedef struct run_acc {
    sgrt__skin *k;
    uint32_t word, pending, now;
} run_acc;

static void flush(sgrt__skins *f, const run_acc *a)
{
    sgrt__skin *k = a->k;
    if (!k)
        return;
    if (a->pending) {
        SGRT__AU_OR(&k->pending[a->word], a->pending);
        SGRT__AU_OR(&k->pending_sum[a->word >> 5], 1u << (a->word & 31u));
    }
    if (!(k->state & SGRT__SKIN_WHOLE) && !k->prev)
        return;
    SGRT__AU_OR(&k->now[a->word], a->now);
    if (!SGRT__AU_LOAD(&k->listed) && SGRT__AU_XCHG(&k->listed, 1u) == 0u)
        f->list[f->cur][SGRT__AU_ADD(&f->cur_count, 1u)] = k;
}

/* After the kernel stored the worlds of the slots `done` of word w: the
 * palettes of the joints among them, while their worlds are in L1. Each
 * (skin, joint) is computed by one call only; what calls share (the skins'
 * joint bits, the list) is written with atomics. */
static void skins_after(void *self, uint32_t w, uint32_t done)
{
    sgrt__skins *f = self;
    uint32_t bits = done & f->joint[w];
    run_acc a = {NULL, 0, 0, 0};
    SGRT__FOR_EACH_IN_WORD(w, bits, slot,
        for (uint32_t e = f->head[f->slot_handle[slot]]; e != SGRT__NONE;) {
            const sgrt__skin_entry *en = &f->ent[e];
            e = en->next;
            sgrt__skin *k = en->skin;
            const uint32_t j = en->joint;
            if (j == SGRT__SKIN_MESH || (k->state & SGRT__SKIN_FROZEN))
                continue;
            if (k != a.k || j >> 5 != a.word) {
                flush(f, &a);
                a.k = k;
                a.word = j >> 5;
                a.pending = a.now = 0;
            }
            const uint32_t bit = 1u << (j & 31u);
            a.now |= bit;
            if (sgrt__skin_compute(k, j, f->world[slot]))
                a.pending |= bit;
        }
    )
    flush(f, &a);
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
            if (sgrt__skin_compute(k, j, world[slot])) {
                SGRT__AU_OR(&k->pending[j >> 5], bit);
                SGRT__AU_OR(&k->pending_sum[j >> 10], 1u << ((j >> 5) & 31u));
            }
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
