/* SPDX-License-Identifier: MIT */
/* The skins' index of nodes (skin.h): which nodes are joints or meshes of
 * skins, the list of each such node's entries, the nodes above meshes.
 *
 * Every skin owns one entry per joint and one for its mesh, taken from a
 * pool (indices stay valid as the pool grows). A live node's entries are a
 * list from `head` of its handle index, and its slot's joint and mesh bits
 * say whether the list holds any of each: both bits are exact on every
 * live slot (and on every dead one but those a move left behind, which a
 * new node clears), so the after hook walks lists of live nodes only. The
 * bits are per-slot state that storage moves with the node; lists are
 * keyed by handle index and entries name skins and joint indices, never
 * slots, so no move touches them. A node destroyed takes its entries out
 * of use: a joint's is marked dead (its palette stays as the last update
 * left it), a mesh's freezes its skin, and its list is emptied before its
 * index can name another node. */
#include "skin.h"
#include "../alloc.h"
#include "../handles.h"
#include "../objects.h"
#include "../result.h"
#include <string.h>

/* ---- entries ---------------------------------------------------------------- */

/* The head of the list of the node in `slot`. */
static uint32_t *head_of(const sgrt_scene *s, const sgrt__skins *f, uint32_t slot)
{
    return &f->head[s->st.slot_handle[slot]];
}

/* Whether the node's list holds a joint entry / a mesh entry. */
static void bits_of_list(const sgrt_scene *s, const sgrt__skins *f, uint32_t slot, bool *joint,
                         bool *mesh)
{
    *joint = *mesh = false;
    for (uint32_t e = *head_of(s, f, slot); e != SGRT__NONE; e = f->ent[e].next) {
        if (f->ent[e].joint == SGRT__SKIN_MESH)
            *mesh = true;
        else
            *joint = true;
    }
}

static bool listed_here(const sgrt__skins *f, uint32_t slot)
{
    return ((f->joint[slot >> 5] | f->mesh[slot >> 5]) >> (slot & 31u)) & 1u;
}

static void set_bits(sgrt__skins *f, uint32_t slot, bool joint, bool mesh)
{
    if (joint)
        sgrt__bit_set_sum(f->joint, f->joint_sum, slot);
    else
        sgrt__bit_clear_sum(f->joint, f->joint_sum, slot);
    if (mesh)
        sgrt__bit_set_sum(f->mesh, f->mesh_sum, slot);
    else
        sgrt__bit_clear_sum(f->mesh, f->mesh_sum, slot);
}

/* Every proper ancestor of `slot` is above a mesh. */
static void mark_above(sgrt_scene *s, sgrt__skins *f, uint32_t slot)
{
    for (uint32_t p = s->st.parent[slot]; p != SGRT__NONE; p = s->st.parent[p])
        sgrt__bit_set_sum(f->above, f->above_sum, p);
}

static uint32_t entries_of(const sgrt__skin *k) { return k->count + (k->mesh.id != 0u); }

void sgrt__skin_link(sgrt_scene *s, sgrt__skin *k)
{
    sgrt__skins *f = sgrt__skins_of(s);
    for (uint32_t i = 0; i < entries_of(k); i++) {
        const bool mesh = i == k->count;
        const uint32_t e = k->entry[i], slot = sgrt__resolve(s, mesh ? k->mesh : k->joints[i]);
        if (slot == SGRT__NONE) {
            if (mesh)
                k->state |= SGRT__SKIN_FROZEN;
            else
                sgrt__bit_set(k->dead, i);
            continue;
        }
        if (mesh)
            k->state &= ~(uint32_t)SGRT__SKIN_FROZEN;
        else
            sgrt__bit_clear(k->dead, i);
        uint32_t *head = head_of(s, f, slot);
        f->ent[e].next = listed_here(f, slot) ? *head : SGRT__NONE;
        *head = e;
        if (mesh) {
            sgrt__bit_set_sum(f->mesh, f->mesh_sum, slot);
            mark_above(s, f, slot);
        } else {
            sgrt__bit_set_sum(f->joint, f->joint_sum, slot);
        }
    }
}

void sgrt__skin_unlink(sgrt_scene *s, sgrt__skin *k)
{
    sgrt__skins *f = sgrt__skins_of(s);
    for (uint32_t i = 0; i < entries_of(k); i++) {
        const bool mesh = i == k->count;
        if (mesh ? (k->state & SGRT__SKIN_FROZEN) != 0u : sgrt__bit_get(k->dead, i))
            continue; /* its node was destroyed: in no list */
        const uint32_t e = k->entry[i], slot = sgrt__resolve(s, mesh ? k->mesh : k->joints[i]);
        uint32_t *at = head_of(s, f, slot);
        while (*at != e)
            at = &f->ent[*at].next;
        *at = f->ent[e].next;
        bool joint, has_mesh;
        bits_of_list(s, f, slot, &joint, &has_mesh);
        set_bits(f, slot, joint, has_mesh);
    }
}

/* ---- what the core announces -------------------------------------------------- */

/* A new node is in no skin (a node that left the slot may have left bits). */
void sgrt__skin_created(sgrt_scene *s, uint32_t slot)
{
    sgrt__skins *f = sgrt__skins_of(s);
    if (listed_here(f, slot))
        set_bits(f, slot, false, false);
    if (sgrt__bit_get(f->above, slot))
        sgrt__bit_clear_sum(f->above, f->above_sum, slot);
}

/* A node joined a parent: the meshes of its subtree (itself, or below it
 * when it is above one) have new ancestors. O(depth) for such a node. */
void sgrt__skin_linked(sgrt_scene *s, uint32_t slot)
{
    sgrt__skins *f = sgrt__skins_of(s);
    if (((f->mesh[slot >> 5] | f->above[slot >> 5]) >> (slot & 31u)) & 1u)
        mark_above(s, f, slot);
}

/* `slot` is dead: when its node was destroyed (its handle names no slot
 * now, where a moved node's names the new one), its entries die with it. */
void sgrt__skin_vacated(sgrt_scene *s, uint32_t slot)
{
    sgrt__skins *f = sgrt__skins_of(s);
    if (!listed_here(f, slot) || s->handles[s->st.slot_handle[slot]].slot != SGRT__NONE)
        return;
    uint32_t *head = head_of(s, f, slot);
    for (uint32_t e = *head; e != SGRT__NONE; e = f->ent[e].next) {
        sgrt__skin *k = f->ent[e].skin;
        const uint32_t j = f->ent[e].joint;
        if (j == SGRT__SKIN_MESH)
            k->state |= SGRT__SKIN_FROZEN;
        else
            sgrt__bit_set(k->dead, j);
        if (SGRT__VALIDATING(s) && !(k->state & SGRT__SKIN_WARNED)) {
            k->state |= SGRT__SKIN_WARNED;
            sgrt__warn(s, "sgrt_node_destroy",
                       j == SGRT__SKIN_MESH
                           ? "node was the mesh of a skin: the skin is frozen, its palettes "
                             "stay those of the last update (destroy the skin, or make another)"
                           : "node was a joint of a skin: its palette entry stays that of the "
                             "last update and is never recomputed (the other joints go on)",
                       j == SGRT__SKIN_MESH ? k->mesh : k->joints[j]);
        }
    }
    *head = SGRT__NONE;
    set_bits(f, slot, false, false);
}

/* The scene's nodes are a snapshot's: the index is built again from the
 * handles (a node may live elsewhere, come back to life or be gone), and
 * every palette the restore changed is computed from the worlds as they
 * are now: the joints in changed slots, every joint of a skin whose mesh's
 * slot changed. Their previous palette is their palette (no motion across
 * a restore); a collect reports what differs. A skin no update has
 * computed yet waits for the next. O(capacity / 32 + joints). */
void sgrt__skin_restored(sgrt_scene *s, const uint32_t *changed)
{
    sgrt__skins *f = sgrt__skins_of(s);
    if (!f->count)
        return;
    memset(f->joint, 0, (size_t)s->st.words * sizeof(uint32_t));
    memset(f->mesh, 0, (size_t)s->st.words * sizeof(uint32_t));
    memset(f->above, 0, (size_t)s->st.words * sizeof(uint32_t));
    memset(f->joint_sum, 0, (size_t)s->st.sum_words * sizeof(uint32_t));
    memset(f->mesh_sum, 0, (size_t)s->st.sum_words * sizeof(uint32_t));
    memset(f->above_sum, 0, (size_t)s->st.sum_words * sizeof(uint32_t));
    for (uint32_t i = 0; i < f->head_cap; i++)
        f->head[i] = SGRT__NONE;
    for (uint32_t i = 0; i < f->count; i++)
        sgrt__skin_link(s, f->all[i]);
    const float(*world)[16] = (const float(*)[16])s->st.world;
    for (uint32_t i = 0; i < f->count; i++) {
        sgrt__skin *k = f->all[i];
        if (k->state & (SGRT__SKIN_FROZEN | SGRT__SKIN_FRESH))
            continue;
        const uint32_t m = k->mesh.id ? sgrt__resolve(s, k->mesh) : SGRT__NONE;
        const bool moved = m != SGRT__NONE && sgrt__bit_get(changed, m);
        if (moved)
            sgrt__skin_take_inverse(k, world[m]);
        for (uint32_t j = 0; j < k->count; j++) {
            const uint32_t slot = sgrt__resolve(s, k->joints[j]);
            if (slot == SGRT__NONE || (!moved && !sgrt__bit_get(changed, slot)))
                continue;
            bool differs = sgrt__skin_compute(s, k, j, world[slot]);
            if (k->prev) {
                float *pv = k->prev + 12u * j;
                const float *pal = k->palette + 12u * j;
                differs |= memcmp(pv, pal, 12 * sizeof(float)) != 0;
                memcpy(pv, pal, 12 * sizeof(float));
            }
            if (differs) {
                SGRT__AU_OR(&k->pending[j >> 5], 1u << (j & 31u));
                SGRT__AU_OR(&k->pending_sum[j >> 10], 1u << ((j >> 5) & 31u));
            }
        }
    }
}

/* ---- the scene ---------------------------------------------------------------- */

void sgrt__skin_destroy_all(sgrt_scene *s)
{
    sgrt__skins *f = sgrt__skins_of(s);
    for (uint32_t i = 0; i < f->count; i++)
        sgrt__free(&s->alloc, f->all[i], f->all[i]->size);
    if (f->all)
        sgrt__free(&s->alloc, f->all, (size_t)f->cap * 4u * sizeof *f->all);
    if (f->ent)
        sgrt__free(&s->alloc, f->ent, (size_t)f->ent_cap * sizeof *f->ent);
    if (f->head)
        sgrt__free(&s->alloc, f->head, (size_t)f->head_cap * sizeof *f->head);
    sgrt__binds_free_all(s);
    memset(f, 0, sizeof *f);
}

/* Whether entry e is in the list of the node in `slot`. */
static bool in_list(const sgrt_scene *s, const sgrt__skins *f, uint32_t slot, uint32_t e)
{
    if (s->st.slot_handle[slot] >= f->head_cap)
        return false;
    for (uint32_t x = *head_of(s, f, slot), n = 0; x != SGRT__NONE && n <= f->ent_used;
         x = f->ent[x].next, n++)
        if (x == e)
            return true;
    return false;
}

/* Every skin named in the object table by its id and in its place; each
 * entry of a live node in that node's list, with its bit; each dead joint
 * and frozen mesh of a destroyed node; every proper ancestor of a live mesh
 * above one; every entry of a live node's list one of its skin's. The
 * skins' pending joints are left alone: a collect may be writing them. */
const char *sgrt__skin_check(const sgrt_scene *s)
{
    const sgrt__skins *f = sgrt__skins_of(s);
    for (uint32_t i = 0; i < f->count; i++) {
        const sgrt__skin *k = f->all[i];
        if (k->at != i || !sgrt__object_names(s, k->id, SGRT__KIND_SKIN, k))
            return "object table: every skin's id names it";
        for (uint32_t j = 0; j < entries_of(k); j++) {
            const bool mesh = j == k->count;
            const uint32_t e = k->entry[j], slot = sgrt__resolve(s, mesh ? k->mesh : k->joints[j]);
            const bool dead = mesh ? (k->state & SGRT__SKIN_FROZEN) != 0u : sgrt__bit_get(k->dead, j);
            if (e >= f->ent_cap || f->ent[e].skin != k || f->ent[e].joint != (mesh ? SGRT__SKIN_MESH : j))
                return "skins: every entry names its skin and joint";
            if (dead != (slot == SGRT__NONE))
                return "skins: a joint is dead, a mesh frozen, exactly when its node was destroyed";
            if (dead)
                continue;
            if (!sgrt__bit_get(mesh ? f->mesh : f->joint, slot) || !in_list(s, f, slot, e))
                return "skins: every live joint and mesh is in its node's list, with its bit";
            for (uint32_t p = s->st.parent[slot]; mesh && p != SGRT__NONE; p = s->st.parent[p])
                if (!sgrt__bit_get(f->above, p))
                    return "skins: every ancestor of a live mesh is marked above one";
        }
    }
    for (uint32_t w = 0; w < s->st.words; w++) {
        uint32_t live = (f->joint[w] | f->mesh[w]) & s->st.alive[w];
        SGRT__FOR_EACH_IN_WORD(w, live, slot,
            bool joint = false, mesh = false;
            uint32_t n = 0;
            if (s->st.slot_handle[slot] >= f->head_cap)
                return "skins: every node in a skin has a list";
            for (uint32_t e = *head_of(s, f, slot); e != SGRT__NONE; e = f->ent[e].next) {
                const sgrt__skin_entry *en = &f->ent[e];
                const sgrt_node node = en->joint == SGRT__SKIN_MESH ? en->skin->mesh
                                                                   : en->skin->joints[en->joint];
                if (++n > f->ent_used || e >= f->ent_cap || sgrt__resolve(s, node) != slot)
                    return "skins: every entry of a node's list names that node";
                joint |= en->joint != SGRT__SKIN_MESH;
                mesh |= en->joint == SGRT__SKIN_MESH;
            }
            if (joint != sgrt__bit_get(f->joint, slot) || mesh != sgrt__bit_get(f->mesh, slot))
                return "skins: a node's joint and mesh bits say what its list holds";
        )
    }
    return NULL;
}
