/* SPDX-License-Identifier: MIT */
/* The public calls on skins (sgrt_skin_*): creation (one allocation per
 * skin, its arrays never move), destruction, the arrays, and the collect
 * of the joints whose palette changed, which reads runs of set bits as
 * sgrt_tracker_collect does. */
#include "skin.h"
#include "slotbits.h"
#include "../alloc.h"
#include "../args.h"
#include "../matrix.h"
#include "../objects.h"
#include "../result.h"
#include "../validate.h"
#include <string.h>

static const char *const why_k[3] = SGRT__WHY_OBJECT("k", "skin");

#define SKIN_FLAGS ((uint32_t)SGRT_SKIN_NORMALS | (uint32_t)SGRT_SKIN_PREV)

/* Room for one more skin in the lists (4 x cap pointers in one block), for
 * `entries` more entries in the pool, and a list head for every handle
 * index. Allocates; on failure nothing but the room changed. */
static sgrt_result make_room(sgrt_scene *s, sgrt__skins *f, uint32_t entries)
{
    sgrt_result err;
    if (f->count == f->cap) {
        const uint32_t cap = f->cap ? f->cap * 2u : 8u;
        sgrt__skin **all = sgrt__alloc(&s->alloc, (size_t)cap * 4u * sizeof *all, 16, &err);
        if (!all)
            return err;
        if (f->cap) {
            memcpy(all, f->all, (size_t)f->count * sizeof *all);
            memcpy(all + cap, f->whole, (size_t)f->whole_count * sizeof *all);
            /* Between updates only the last update's list is in use. */
            memcpy(all + 2u * cap + (size_t)(f->cur ^ 1u) * cap, f->list[f->cur ^ 1u],
                   (size_t)f->last_count * sizeof *all);
            sgrt__free(&s->alloc, f->all, (size_t)f->cap * 4u * sizeof *all);
        }
        f->all = all;
        f->whole = all + cap;
        f->list[0] = all + 2u * cap;
        f->list[1] = all + 3u * cap;
        f->cap = cap;
    }
    if (f->ent_cap - f->ent_used < entries) {
        uint64_t cap = f->ent_cap ? (uint64_t)f->ent_cap * 2u : 64u;
        while (cap - f->ent_used < entries)
            cap *= 2u;
        if (cap > 0xFFFFFFF0u || cap * sizeof(sgrt__skin_entry) > SIZE_MAX)
            return SGRT_ERR_NOMEM;
        sgrt__skin_entry *ent =
            sgrt__alloc(&s->alloc, (size_t)cap * sizeof *ent, 16, &err);
        if (!ent)
            return err;
        if (f->ent_cap) {
            memcpy(ent, f->ent, (size_t)f->ent_cap * sizeof *ent);
            sgrt__free(&s->alloc, f->ent, (size_t)f->ent_cap * sizeof *ent);
        }
        /* The new entries join the front of the free list. */
        for (uint32_t e = f->ent_cap; e < (uint32_t)cap; e++)
            ent[e].next = e + 1u < (uint32_t)cap ? e + 1u : f->ent_free;
        f->ent_free = f->ent_cap;
        f->ent = ent;
        f->ent_cap = (uint32_t)cap;
    }
    if (f->head_cap < s->handle_cap) {
        /* A list head for every handle index in use, so for every node. */
        uint32_t *head =
            sgrt__alloc(&s->alloc, (size_t)s->handle_cap * sizeof *head, 16, &err);
        if (!head)
            return err;
        if (f->head_cap) {
            memcpy(head, f->head, (size_t)f->head_cap * sizeof *head);
            sgrt__free(&s->alloc, f->head, (size_t)f->head_cap * sizeof *head);
        }
        for (uint32_t i = f->head_cap; i < s->handle_cap; i++)
            head[i] = SGRT__NONE;
        f->head = head;
        f->head_cap = s->handle_cap;
    }
    return SGRT_OK;
}

/* The block of a skin of n joints and its layout. */
typedef struct skin_layout {
    uint64_t joints, entry, pending, pending_sum, now, last, dead, palette, normals, prev, size;
} skin_layout;

static uint64_t up(uint64_t x, uint64_t a) { return (x + a - 1u) / a * a; }

static skin_layout layout_of(uint32_t n, uint32_t flags)
{
    const uint64_t words = (n + 31u) / 32u, sums = (words + 31u) / 32u;
    const uint64_t pal = (uint64_t)n * 12u * sizeof(float);
    skin_layout l;
    l.joints = up(sizeof(sgrt__skin), 16);
    l.entry = l.joints + (uint64_t)n * sizeof(sgrt_node);
    l.pending = up(l.entry + ((uint64_t)n + 1u) * sizeof(uint32_t), 16);
    l.pending_sum = l.pending + words * sizeof(sgrt__au32);
    l.now = l.pending_sum + sums * sizeof(sgrt__au32);
    l.last = l.now + words * sizeof(sgrt__au32);
    l.dead = l.last + words * sizeof(uint32_t);
    l.palette = up(l.dead + words * sizeof(uint32_t), 64);
    l.normals = l.palette + pal;
    l.prev = l.normals + (flags & SGRT_SKIN_NORMALS ? pal : 0u);
    l.size = l.prev + (flags & SGRT_SKIN_PREV ? pal : 0u);
    return l;
}

static void identity_rows(float *p, uint32_t n)
{
    static const float rows[12] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0};
    for (uint32_t j = 0; j < n; j++)
        memcpy(p + 12u * j, rows, sizeof rows);
}

/* Every argument of sgrt_skin_create: SGRT_OK, or the refusal. */
static sgrt_result check_desc(const sgrt_scene *s, const sgrt_skin_desc *d, const char *fn)
{
    if (d->joint_count == 0u)
        return sgrt__fail(s, SGRT_ERR_INVALID_ARG, fn, "desc->joint_count is 0", SGRT_NULL_NODE);
    if (d->joint_count > SGRT_MAX_NODES)
        return sgrt__fail(s, SGRT_ERR_INVALID_ARG, fn,
                          "desc->joint_count is above SGRT_MAX_NODES", SGRT_NULL_NODE);
    if (!d->joints)
        return sgrt__fail(s, SGRT_ERR_INVALID_ARG, fn, "desc->joints is NULL", SGRT_NULL_NODE);
    if (d->flags & ~SKIN_FLAGS)
        return sgrt__fail(s, SGRT_ERR_INVALID_ARG, fn,
                          "desc->flags holds a bit that is no SGRT_SKIN_* flag", SGRT_NULL_NODE);
    sgrt_result err = SGRT_OK;
    for (uint32_t j = 0; j < d->joint_count; j++)
        if (SGRT__NODE_ARG(s, d->joints[j], "a node of desc->joints", fn, &err) == SGRT__NONE)
            return err;
    if (d->mesh.id && SGRT__NODE_ARG(s, d->mesh, "desc->mesh", fn, &err) == SGRT__NONE)
        return err;
    if (d->inverse_binds && !sgrt__all_finite(d->inverse_binds, 16u * d->joint_count))
        return sgrt__fail(s, SGRT_ERR_INVALID_ARG, fn,
                          "desc->inverse_binds holds a NaN or an infinity", SGRT_NULL_NODE);
    return SGRT_OK;
}

sgrt_result sgrt_skin_create(sgrt_scene *s, const sgrt_skin_desc *desc, sgrt_skin *out)
{
    SGRT__ENTER_WRITE(s);
    SGRT__NOT_NULL(s, desc, SGRT_NULL_NODE);
    SGRT__NOT_NULL(s, out, SGRT_NULL_NODE);
    sgrt_result r = check_desc(s, desc, __func__);
    if (r != SGRT_OK)
        return r;
    sgrt__skins *f = sgrt__skins_of(s);
    const uint32_t n = desc->joint_count;
    const skin_layout l = layout_of(n, desc->flags);
    r = sgrt__object_ensure(s, __func__);
    if (r != SGRT_OK)
        return r;
    if (l.size > SIZE_MAX)
        return sgrt__fail_grow(s, SGRT_ERR_NOMEM, __func__, SGRT_NULL_NODE);
    r = make_room(s, f, n + 1u);
    sgrt__binds *binds = NULL;
    if (r == SGRT_OK && desc->inverse_binds)
        binds = sgrt__binds_take(s, desc->inverse_binds, n, &r);
    uint8_t *block = r == SGRT_OK ? sgrt__alloc(&s->alloc, (size_t)l.size, 64, &r) : NULL;
    if (!block) {
        sgrt__binds_drop(s, binds);
        return sgrt__fail_grow(s, r, __func__, SGRT_NULL_NODE);
    }
    memset(block, 0, (size_t)l.size);
    sgrt__skin *k = (void *)block;
    k->count = n;
    k->flags = desc->flags;
    k->words = (n + 31u) / 32u;
    k->mesh = desc->mesh;
    k->size = (size_t)l.size;
    for (int c = 0; c < 4; c++)
        k->im[c][c] = 1.0f;
    sgrt_node *joints = (void *)(block + l.joints);
    memcpy(joints, desc->joints, (size_t)n * sizeof *joints);
    k->joints = joints;
    k->entry = (void *)(block + l.entry);
    k->pending = (void *)(block + l.pending);
    k->pending_sum = (void *)(block + l.pending_sum);
    k->now = (void *)(block + l.now);
    k->last = (void *)(block + l.last);
    k->dead = (void *)(block + l.dead);
    k->state = SGRT__SKIN_WHOLE | SGRT__SKIN_FRESH | SGRT__SKIN_IM_ONE | SGRT__SKIN_IM_AFFINE |
               SGRT__SKIN_BIND_AFFINE;
    if (binds) {
        k->binds = binds;
        k->bind = sgrt__binds_matrices(binds);
        if (!sgrt__binds_affine(binds))
            k->state &= ~(uint32_t)SGRT__SKIN_BIND_AFFINE;
    }
    k->palette = (void *)(block + l.palette);
    identity_rows(k->palette, n);
    if (desc->flags & SGRT_SKIN_NORMALS)
        identity_rows(k->normals = (void *)(block + l.normals), n);
    if (desc->flags & SGRT_SKIN_PREV)
        identity_rows(k->prev = (void *)(block + l.prev), n);
    /* Its first collect reports every joint. */
    for (uint32_t w = 0; w < k->words; w++) {
        const uint32_t left = n - w * 32u;
        SGRT__AU_STORE(&k->pending[w], left >= 32u ? ~0u : (1u << left) - 1u);
        SGRT__AU_OR(&k->pending_sum[w >> 5], 1u << (w & 31u));
    }
    /* Entries from the pool's free list, then into their nodes' lists. */
    for (uint32_t i = 0; i < n + (desc->mesh.id != 0u); i++) {
        const uint32_t e = f->ent_free;
        f->ent_free = f->ent[e].next;
        f->ent[e].skin = k;
        f->ent[e].joint = i == n ? SGRT__SKIN_MESH : i;
        k->entry[i] = e;
    }
    f->ent_used += n + (desc->mesh.id != 0u);
    sgrt__skin_link(s, k);
    k->at = f->count;
    f->all[f->count++] = k;
    f->whole[f->whole_count++] = k; /* the next update computes it whole */
    k->id = sgrt__object_take(s, SGRT__KIND_SKIN, k);
    out->id = k->id;
    return SGRT_OK;
}

/* Take k out of list l of *count entries, if it is there. */
static void delist(sgrt__skin **l, uint32_t *count, const sgrt__skin *k)
{
    for (uint32_t i = 0; i < *count; i++)
        if (l[i] == k) {
            memmove(l + i, l + i + 1u, (size_t)(*count - i - 1u) * sizeof *l);
            --*count;
            return;
        }
}

sgrt_result sgrt_skin_destroy(sgrt_scene *s, sgrt_skin handle)
{
    SGRT__ENTER(s, SGRT_ERR_INVALID_ARG);
    if (!handle.id)
        return SGRT_OK;
    if (s->busy)
        return sgrt__reentered(s, __func__);
    sgrt_result err;
    sgrt__skin *k = sgrt__object_arg(s, handle.id, SGRT__KIND_SKIN, why_k, __func__, &err);
    if (!k)
        return err;
    sgrt__skins *f = sgrt__skins_of(s);
    sgrt__skin_unlink(s, k);
    for (uint32_t i = 0; i < k->count + (k->mesh.id != 0u); i++) {
        f->ent[k->entry[i]].next = f->ent_free;
        f->ent_free = k->entry[i];
    }
    f->ent_used -= k->count + (k->mesh.id != 0u);
    f->all[k->at] = f->all[--f->count];
    f->all[k->at]->at = k->at;
    delist(f->whole, &f->whole_count, k);
    delist(f->list[f->cur ^ 1u], &f->last_count, k);
    sgrt__object_release(s, handle.id);
    sgrt__binds_drop(s, k->binds);
    sgrt__free(&s->alloc, k, k->size);
    return SGRT_OK;
}

/* The skin `handle` names, for a read: NULL after refusing it. */
static const sgrt__skin *read_arg(const sgrt_scene *s, sgrt_skin handle, const char *fn)
{
    const sgrt__skin *k = sgrt__object_arg(s, handle.id, SGRT__KIND_SKIN, why_k, fn, NULL);
    if (k && SGRT__VALIDATING(s)) {
        if (k->state & SGRT__SKIN_FRESH)
            sgrt__warn(s, fn,
                       "k was created since the last sgrt_scene_update: its palettes are the "
                       "identity until the next update computes them",
                       SGRT_NULL_NODE);
        else
            sgrt__validate_array_read(s, fn);
    }
    return k;
}

static const float *array_of(const sgrt_scene *s, sgrt_skin handle, uint32_t *out_joints,
                             int which, const char *fn)
{
    if (out_joints)
        *out_joints = 0;
    SGRT__ENTER(s, NULL);
    const sgrt__skin *k = read_arg(s, handle, fn);
    if (!k)
        return NULL;
    const float *a = which == 0 ? k->palette : which == 1 ? k->normals : k->prev;
    if (!a) {
        sgrt__fail(s, SGRT_ERR_INVALID_ARG, fn,
                   which == 1 ? "k keeps no normals: create it with SGRT_SKIN_NORMALS"
                              : "k keeps no previous palette: create it with SGRT_SKIN_PREV",
                   SGRT_NULL_NODE);
        return NULL;
    }
    if (out_joints)
        *out_joints = k->count;
    return a;
}

const float *sgrt_skin_palette(const sgrt_scene *s, sgrt_skin k, uint32_t *out_joints)
{
    return array_of(s, k, out_joints, 0, __func__);
}

const float *sgrt_skin_normals(const sgrt_scene *s, sgrt_skin k, uint32_t *out_joints)
{
    return array_of(s, k, out_joints, 1, __func__);
}

const float *sgrt_skin_prev_palette(const sgrt_scene *s, sgrt_skin k, uint32_t *out_joints)
{
    return array_of(s, k, out_joints, 2, __func__);
}

sgrt_result sgrt_skin_collect(const sgrt_scene *s, sgrt_skin handle, sgrt_range *out,
                              uint32_t max_ranges, uint32_t merge_gap, uint32_t *out_count,
                              bool *out_more)
{
    /* As sgrt_tracker_collect: a refused call still answers "nothing, no
     * more". */
    if (out_count)
        *out_count = 0;
    if (out_more)
        *out_more = false;
    SGRT__ENTER_WRITE(s); /* the tasks write the pending joints */
    sgrt_result err;
    sgrt__skin *k = sgrt__object_arg(s, handle.id, SGRT__KIND_SKIN, why_k, __func__, &err);
    if (!k)
        return err;
    err = sgrt__collect_outputs(s, out, max_ranges, out_count, out_more, __func__);
    if (err != SGRT_OK)
        return err;
    uint32_t n = 0, end = 0; /* end: one past out[n - 1] */
    for (uint32_t si = 0; si < (k->words + 31u) / 32u; si++) {
        uint32_t sum;
        while ((sum = SGRT__AU_LOAD(&k->pending_sum[si])) != 0u) {
            const uint32_t w = si * 32u + sgrt__ctz32(sum), base = w * 32u;
            const uint32_t left = sgrt__collect_runs(SGRT__AU_LOAD(&k->pending[w]), base, out,
                                                     max_ranges, merge_gap, &n, &end);
            SGRT__AU_STORE(&k->pending[w], left);
            if (left) {
                *out_count = n;
                *out_more = true;
                return SGRT_OK;
            }
            SGRT__AU_STORE(&k->pending_sum[si], sum & ~(1u << (w & 31u)));
        }
    }
    *out_count = n;
    return SGRT_OK;
}
