/* SPDX-License-Identifier: MIT */
/* Skinning palettes (sgrt_skin_*) as a follower of the scene: skin.c keeps
 * them in step with the update, skin_api.c holds the public calls. */
#ifndef SGRT_FOLLOWERS_SKIN_H
#define SGRT_FOLLOWERS_SKIN_H

#include "../follow.h"

/* Attached to every scene (skins need no scene flag): per slot, which
 * nodes are a joint or a mesh of some skin and where their entries are;
 * the palettes of the joints each update recomputes, in its after hook. */
extern const sgrt__follower sgrt__skin_follower;

/* The bits an update's tasks share between words (a skin's pending and
 * recomputed joints, whether it is listed): written with relaxed atomics
 * (the executor's run orders the tasks with the calling thread), lock-free
 * 32-bit ones (no libatomic call: the symbols test says so). Without them,
 * MSVC's interlocked calls; elsewhere plain accesses, which serve the
 * serial update (a target with threads and no lock-free 32-bit atomics is
 * not one sgrt is built for). */
#if !defined(__STDC_NO_ATOMICS__)
#include <stdatomic.h>
#endif
#if !defined(__STDC_NO_ATOMICS__) && ATOMIC_INT_LOCK_FREE == 2
typedef _Atomic uint32_t sgrt__au32;
#define SGRT__AU_LOAD(p) atomic_load_explicit((p), memory_order_relaxed)
#define SGRT__AU_STORE(p, v) atomic_store_explicit((p), (v), memory_order_relaxed)
#define SGRT__AU_OR(p, v) ((void)atomic_fetch_or_explicit((p), (v), memory_order_relaxed))
#define SGRT__AU_XCHG(p, v) atomic_exchange_explicit((p), (v), memory_order_relaxed)
#define SGRT__AU_ADD(p, v) atomic_fetch_add_explicit((p), (v), memory_order_relaxed)
#elif defined(_MSC_VER)
#include <intrin.h>
typedef volatile long sgrt__au32;
#define SGRT__AU_LOAD(p) ((uint32_t)*(p))
#define SGRT__AU_STORE(p, v) ((void)(*(p) = (long)(v)))
#define SGRT__AU_OR(p, v) ((void)_InterlockedOr((p), (long)(v)))
#define SGRT__AU_XCHG(p, v) ((uint32_t)_InterlockedExchange((p), (long)(v)))
#define SGRT__AU_ADD(p, v) ((uint32_t)_InterlockedExchangeAdd((p), (long)(v)))
#else
typedef uint32_t sgrt__au32;
#define SGRT__AU_LOAD(p) (*(p))
#define SGRT__AU_STORE(p, v) ((void)(*(p) = (v)))
#define SGRT__AU_OR(p, v) ((void)(*(p) |= (v)))
static inline uint32_t sgrt__au_xchg(uint32_t *p, uint32_t v)
{
    const uint32_t old = *p;
    *p = v;
    return old;
}
#define SGRT__AU_XCHG(p, v) sgrt__au_xchg((p), (v))
#define SGRT__AU_ADD(p, v) ((*(p) += (v)) - (v))
#endif

/* An entry's joint index when the entry is the skin's mesh. */
#define SGRT__SKIN_MESH 0xFFFFFFFFu

/* What names a node in a skin: joint `joint` of `skin` (or its mesh), and
 * the next entry of the same node (SGRT__NONE: the last). A node's entries
 * are a list from sgrt__skins.head[its handle index], valid where its
 * slot's joint or mesh bit is set. */
typedef struct sgrt__skin_entry {
    struct sgrt__skin *skin;
    uint32_t joint;
    uint32_t next;
} sgrt__skin_entry;

/* A skin's state bits (sgrt__skin.state). WHOLE: every joint is recomputed
 * by this update (the mesh moves, or the skin is new or restored), its
 * inverse taken as the update starts; FRESH: no update has computed it yet;
 * FROZEN: its mesh was destroyed (nothing is computed any more); IM_ONE:
 * the inverse is the identity (world space, or a mesh at the identity);
 * IM_AFFINE, BIND_AFFINE: the inverse, every inverse bind, has the last row
 * (0, 0, 0, 1); WARNED: validation mode has said that a node of it was
 * destroyed. */
enum {
    SGRT__SKIN_WHOLE = 1u,
    SGRT__SKIN_FRESH = 2u,
    SGRT__SKIN_FROZEN = 4u,
    SGRT__SKIN_IM_ONE = 8u,
    SGRT__SKIN_IM_AFFINE = 16u,
    SGRT__SKIN_BIND_AFFINE = 32u,
    SGRT__SKIN_WARNED = 64u
};

/* A set of inverse binds, shared by the skins made with the same ones
 * (skin_binds.c). */
typedef struct sgrt__binds sgrt__binds;

/* One skin: a single allocation of `size` bytes, this struct first, then
 * its arrays, allocated at sgrt_skin_create and never moved. */
typedef struct sgrt__skin {
    /* inverse(world(mesh)), as of the update that last took it: column j
     * in im[j] (im[j][r] is row r). */
    float im[4][4];
    uint32_t id;    /* the object's handle id */
    uint32_t count; /* joints */
    uint32_t flags; /* SGRT_SKIN_* */
    uint32_t state; /* SGRT__SKIN_*: written only while one thread runs */
    uint32_t at;    /* index in sgrt__skins.all */
    uint32_t words; /* words of each joint bitfield: (count + 31) / 32 */
    sgrt_node mesh; /* SGRT_NULL_NODE: world space */
    sgrt__au32 listed; /* in this update's list (sgrt__skins.list) */
    size_t size;
    const sgrt_node *joints;
    /* The inverse binds, column-major, in a shared set (NULL: every one the
     * identity). */
    const float (*bind)[16];
    sgrt__binds *binds;
    float *palette, *normals, *prev; /* 12 floats per joint; NULL without the flag */
    uint32_t *entry;      /* per joint, then the mesh: its entry's index */
    sgrt__au32 *pending;  /* joints to report at the next collect */
    sgrt__au32 *pending_sum; /* bit w set iff pending[w] != 0 */
    sgrt__au32 *now;      /* joints this update recomputed (WHOLE or PREV skins) */
    uint32_t *last;       /* joints the last update recomputed (PREV skins) */
    uint32_t *dead;       /* joints whose node was destroyed */
} sgrt__skin;

/* The follower's state. Per slot (declared in skin.c, laid out and moved
 * with its node by storage): whether the node is a joint of some skin, a
 * mesh of some skin, or above one (a proper ancestor of a live mesh: every
 * such node has the bit; nodes that were one and are no more may keep it),
 * each bitfield with its summary. Per handle index (head_cap of them, every
 * index of a node in a skin: allocated by the first skin, grown by
 * creates), the first entry of the node's list. The skins (all, in no
 * order; each knows its place), the entries, and the lists an update
 * keeps: the skins it recomputes whole (whole, from creation to the next
 * update's finish), and the skins whose joints it recomputed that keep
 * previous palettes, this update's (list[cur], appended by the tasks) and
 * the last one's (list[cur ^ 1]). */
typedef struct sgrt__skins {
    uint32_t *joint, *joint_sum, *mesh, *mesh_sum, *above, *above_sum;
    uint32_t *head;
    uint32_t head_cap;
    sgrt__skin **all, **whole, **list[2];
    uint32_t count, cap, whole_count, last_count, cur;
    sgrt__au32 cur_count;
    sgrt__skin_entry *ent;
    uint32_t ent_cap, ent_free, ent_used;
    sgrt__binds *binds; /* every set of inverse binds, in a list */
    /* Taken as an update starts, for its after hooks. */
    const float (*world)[16];
    const uint32_t *slot_handle;
    void (*palette)(const float *im, uint32_t mode, const float *const *w,
                    const float *const *b, uint32_t n, float *const *out);
} sgrt__skins;

/* s's skins (every scene has them). */
sgrt__skins *sgrt__skins_of(const sgrt_scene *s);

/* Joint j's palette (and normals, previous palette, as the skin keeps
 * them) from the world w of its node, on s's kernel: true when its palette
 * or previous palette changed in any bit. skin.c. */
bool sgrt__skin_compute(const sgrt_scene *s, sgrt__skin *k, uint32_t j, const float w[16]);
/* The inverse of the mesh world m into k->im (and IM_ONE); a world without
 * an inverse leaves the last one. */
void sgrt__skin_take_inverse(sgrt__skin *k, const float m[16]);
/* The follower's hooks that keep the per-slot index (skin_index.c): a new
 * node is nobody's joint or mesh; a node that joins a parent takes the
 * meshes of its subtree along (the bits above them); a destroyed node's
 * entries die (a joint's palette stops, a mesh freezes its skin); a
 * restore rebuilds the index and recomputes what it changed; destruction
 * frees every skin; the checker verifies the index. */
void sgrt__skin_created(sgrt_scene *s, uint32_t slot);
void sgrt__skin_linked(sgrt_scene *s, uint32_t slot);
void sgrt__skin_vacated(sgrt_scene *s, uint32_t slot);
void sgrt__skin_restored(sgrt_scene *s, const uint32_t *changed);
void sgrt__skin_destroy_all(sgrt_scene *s);
const char *sgrt__skin_check(const sgrt_scene *s);
/* The set holding a copy of the n inverse binds b (16 floats each): one with
 * the same bits shared (counted), else a new one (allocates; NULL with
 * *err on failure); drop: one skin less holds it (freed with the last);
 * free_all: every set (the scene is destroyed). */
sgrt__binds *sgrt__binds_take(sgrt_scene *s, const float *b, uint32_t n, sgrt_result *err);
void sgrt__binds_drop(sgrt_scene *s, sgrt__binds *set);
void sgrt__binds_free_all(sgrt_scene *s);
const float (*sgrt__binds_matrices(const sgrt__binds *set))[16];
bool sgrt__binds_affine(const sgrt__binds *set);
/* Link k's entries into the lists of its nodes' slots (the joints and mesh
 * that are alive, the rest marked dead or frozen), and mark above the mesh.
 * The entries are taken already (k->entry). */
void sgrt__skin_link(sgrt_scene *s, sgrt__skin *k);
/* Take k's live entries out of their nodes' lists. */
void sgrt__skin_unlink(sgrt_scene *s, sgrt__skin *k);

#endif
