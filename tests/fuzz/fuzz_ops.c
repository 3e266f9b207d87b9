/* SPDX-License-Identifier: MIT */
/* libFuzzer harness: the input bytes are a program of calls over the public
 * API, run on two scenes at once, each against a reference model.
 *
 * Every call gets handles of every kind (zero, live, destroyed, made up or
 * mutated, from the other scene), matrices with NaN, Inf, huge, tiny and
 * denormal entries, bad enum values and NULL pointers; allocations fail on
 * request. The harness checks (each call's results where it is made, the
 * nodes it named after it; the whole-scene checks every 8th call, every
 * node every 64th and at the end of the input: docs/testing.md says what is
 * sampled and why):
 *
 *  - the result against the one the model predicts (when several errors
 *    apply at once, any of them), and "changed nothing" for every error;
 *  - sgrt_scene_check (the library's own invariants) and the node count;
 *  - structure: alive, parent, children, locals bit for bit, user values,
 *    slot order (parents before children) through the public slot API;
 *  - worlds bit for bit against a float model that multiplies with the
 *    library's reference kernel (the definition every kernel must match;
 *    NaNs compare by position), both as of the last update and "now"; and,
 *    where values are moderate, against refmodel's double-precision worlds
 *    within its error bound;
 *  - update counts exactly; no allocation in calls documented not to
 *    allocate; after a successful reserve, creates within it do not allocate;
 *    every allocation freed with its size; nothing left at the end;
 *  - batches and writer writes as their single calls in order, stopping at
 *    the first refused entry: the entries before it written, it and the
 *    rest untouched, *out_bad and the one log report naming it;
 *  - writes in place (sgrt_writer_begin): storage holds what was written
 *    until an update reads it; commit only marks; the update reads the
 *    locals of the nodes it recomputes, makes a non-finite one the identity
 *    (in storage too) and counts it: sgrt_scene_nonfinite_locals and the
 *    update's one log report, exactly (the count and the lowest slot's
 *    node), for committed writes and for uncommitted ones under a node
 *    that moved;
 *  - large worlds (SGRT_SCENE_LARGE_WORLD, scenes opened by OP_RECREATE_LARGE
 *    with any of the other configurations): each root's anchor and the
 *    origin read back bit for bit; a root's world is translate(anchor -
 *    origin) x local as the header states it (the offset in double,
 *    rounded to float once), bit for bit, and within a bound in double of
 *    the size of the world relative to the origin, never of the anchor's
 *    (a world placed to the anchor's precision misses it); an origin move
 *    marks every node and shifts the previous worlds the next update saves
 *    into the new origin's frame; the same origin marks nothing;
 *    sgrt_node_world_double against the absolute world in double; every
 *    refusal (NaN, infinities, past SGRT_LARGE_WORLD_LIMIT, a node that is
 *    not a root, a stale handle, a scene without the flag, NULL, a call
 *    while a parallel update runs its tasks) changes nothing.
 *
 * A mismatch prints what differed and aborts, which libFuzzer records as a
 * crash with the input that caused it. Build notes and how to run it: see
 * docs/testing.md. */
#include "sgrt.h"
#include "internal.h" /* the reference kernel, sgrt__trs_to_mat4, sgrt__relative_local */
#include "matrix.h"
#include "scene.h"
#include "lib/refmodel.h"
#include "testutil.h" /* its checks abort here, as ENSURE does */
#include "boundsutil.h" /* exact signs, to judge culls */

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The reference product: the definition every kernel reproduces. */
static void ref_mul(const float *a, const float *b, float *out)
{
    static sgrt__kernels k; /* filled once: the table's setup asks the CPU */
    if (!k.mul)
        sgrt__kernels_init(&k, SGRT__LEVEL_SCALAR);
    k.mul(a, b, out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_LIVE 128u     /* nodes per scene from single creates: keeps one input fast */
#define SCALE_LIVE 2048u  /* nodes per scene from bulk creates (OP_BULK) */
#define SHORT_INPUT 64u   /* inputs up to this long keep their scenes small */
#define SHORT_LIVE 256u   /* nodes per scene from bulk creates in them */
#define FULL_BUDGET 4096u /* nodes verified in full per scene and input, the end aside */
#define MAX_OPS 128       /* calls per input: keeps one input fast */
#define HISTORY 256u      /* remembered ids per scene, for stale handles */
#define MAX_BLOCKS 64u    /* live allocations per scene */
#define NOBJ 3            /* trackers, node sets and writers per scene */
#define MAX_WENTRIES 40u  /* entries per writer */

/* SGRT_FUZZ_TRACE=1 prints each decoded call (and what the models expect
 * of refused batches and repairing updates): for writing and checking
 * seeds. */
static int trace = -1;

/* Whether this input is a short program (at most SHORT_INPUT bytes): its
 * scenes stay small (no long bulk or churn, at most SHORT_LIVE nodes), so
 * that short programs run a thousand times a second and explore breadth
 * (scripts/fuzz.sh ops_short), while longer ones reach scale. Decided by
 * the input alone: it replays the same anywhere. */
static bool short_input;

static void die(const char *what)
{
    fprintf(stderr, "fuzz_ops: %s\n", what);
    abort();
}

#define ENSURE(cond, ...)                                                              \
    do {                                                                               \
        if (!(cond)) {                                                                 \
            fprintf(stderr, "fuzz_ops: %s:%d: ", __FILE__, __LINE__);                  \
            fprintf(stderr, __VA_ARGS__);                                              \
            fputc('\n', stderr);                                                       \
            abort();                                                                   \
        }                                                                              \
    } while (0)

/* ---- input reader ------------------------------------------------------------ */

typedef struct reader {
    const uint8_t *p;
    size_t n, i;
} reader;

static uint8_t u8(reader *r) { return r->i < r->n ? r->p[r->i++] : 0u; }
static uint32_t u16(reader *r)
{
    const uint32_t lo = u8(r);
    return lo | (uint32_t)u8(r) << 8;
}
static uint32_t u32(reader *r)
{
    const uint32_t lo = u16(r);
    return lo | u16(r) << 16;
}

static float bits_to_float(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* Mostly ordinary numbers, with every kind of special value reachable. */
static float rd_float(reader *r)
{
    const uint8_t k = u8(r);
    switch (k % 24u) {
    case 0: case 1: case 2: case 3: case 4: case 5:
        return (float)((int)u8(r) - 128) * 0.125f;
    case 6: return 0.0f;
    case 7: return -0.0f;
    case 8: return 1.0f;
    case 9: return -1.0f;
    case 10: return bits_to_float(0x7FC00000u); /* NaN */
    case 11: return bits_to_float(0x7F800000u); /* +Inf */
    case 12: return bits_to_float(0xFF800000u); /* -Inf */
    case 13: return 3.4028235e38f;
    case 14: return -3.4028235e38f;
    case 15: return 1e30f;
    case 16: return 1e-30f;
    case 17: return bits_to_float(0x00000001u); /* smallest denormal */
    case 18: return bits_to_float(u32(r));      /* anything */
    case 19: return 0.5f;
    case 20: return 2.0f;
    case 21: return bits_to_float(0xFFC00001u); /* negative NaN with payload */
    case 22: return 1e19f;
    default: return (float)u16(r) * (1.0f / 1024.0f);
    }
}

/* ---- allocator ------------------------------------------------------------------ */

typedef struct fz_alloc {
    uint32_t countdown; /* the countdown-th allocation from now fails; 0: none */
    bool fired;         /* a failure was injected (cleared per call) */
    uint64_t calls;
    struct {
        void *p;
        size_t size;
    } blocks[MAX_BLOCKS];
    uint32_t nblocks;
} fz_alloc;

static void *fz_alloc_fn(size_t size, size_t align, void *user)
{
    fz_alloc *fa = user;
    ENSURE(align && !(align & (align - 1u)) && align <= 64u, "alignment %zu", align);
    fa->calls++;
    if (fa->countdown && --fa->countdown == 0) {
        fa->fired = true;
        return NULL;
    }
    ENSURE(size < ((size_t)1 << 31), "allocation of %zu bytes", size);
    ENSURE(fa->nblocks < MAX_BLOCKS, "more than %u live allocations", MAX_BLOCKS);
    const size_t a = align < sizeof(void *) ? sizeof(void *) : align;
    void *p = aligned_alloc(a, (size + a - 1u) / a * a);
    if (!p)
        die("host out of memory");
    fa->blocks[fa->nblocks].p = p;
    fa->blocks[fa->nblocks].size = size;
    fa->nblocks++;
    return p;
}

static void fz_free_fn(void *ptr, size_t size, void *user)
{
    fz_alloc *fa = user;
    for (uint32_t i = 0; i < fa->nblocks; i++) {
        if (fa->blocks[i].p != ptr)
            continue;
        ENSURE(fa->blocks[i].size == size, "free with size %zu, allocated %zu", size,
               fa->blocks[i].size);
        fa->blocks[i] = fa->blocks[--fa->nblocks];
        free(ptr);
        return;
    }
    die("free of a pointer the allocator did not hand out");
}

/* ---- float shadow: worlds exactly as the library must compute them ------------ */

typedef struct shadow_node {
    uint32_t id;      /* 0: free entry */
    bool marked;      /* moved since the last update (refmodel's "marked") */
    uint64_t user;
    uint8_t sets;     /* bit k: member of node set k */
    float world[16];  /* as of the last update */
    /* Writes in place (sgrt_writer_begin): has_raw when the local in the
     * scene's storage is `raw`, not (or not only) the reference model's.
     * Uncommitted, the update reads it only once the node is dirty for
     * another reason (an ancestor moved, a re-parent): until then the model
     * keeps the local of before, which the stored worlds came from, and
     * `synced` is false; once dirty, the model takes raw's value for the
     * update (raw, or the identity where not finite) and synced is set.
     * Committed, the model takes that value at once (synced) and has_raw
     * stays only while raw is not finite: storage keeps the bits until the
     * update repairs them. */
    bool has_raw, synced;
    float raw[16];
    /* Previous worlds (scenes with SGRT_SCENE_PREV_WORLD): the entry of the
     * prev array; recomputed by the last update (its prev will catch up);
     * created since the last update. */
    float prev[16];
    bool moved_last, fresh;
    /* After two or more origin moves between updates, the previous world
     * is expected within prev_slack of `prev` (per entry), not bit for bit:
     * the shift (the old origin minus the new) may be formed in more than
     * one rounding step. */
    bool prev_loose;
    float prev_slack[16];
    /* Large worlds: a root's anchor (the origin of the moment it became a
     * root or was given a world, or what sgrt_node_set_anchor set); zero
     * in other scenes. Kept, unread, while the node has a parent. */
    double anchor[3];
    /* Boxes (scenes with SGRT_SCENE_BOUNDS): the local box now; the world
     * box and subtree box as of the last update (the reference's box of the
     * world then); set or cleared since the last update. */
    bool box_has, box_valid, box_set;
    float box_c[3], box_e[3], box_lo[3], box_hi[3], sub_lo[3], sub_hi[3];
    /* memo for "now" values, valid while stamp == the scene's stamp */
    uint64_t stamp;
    bool dirty;
    float now[16];
} shadow_node;

typedef struct fscene {
    sgrt_scene *s;
    ref_model *m;
    fz_alloc fa;
    uint32_t max_nodes; /* as configured (0 = default) */
    bool prev_on;       /* the scene keeps previous worlds */
    bool bounds_on, subtree_on; /* SGRT_SCENE_BOUNDS, SGRT_SCENE_SUBTREE_BOUNDS */
    bool validate;      /* validation mode (SGRT_SCENE_VALIDATE) */
    /* Large worlds (SGRT_SCENE_LARGE_WORLD): the origin now, the origin as
     * of the last update and how many times it moved since (the next
     * update shifts the previous worlds it saves by the difference). Zero
     * in other scenes. */
    bool large;
    double origin[3], origin_then[3];
    uint32_t origin_moves;
    bool extreme;       /* some local had values where the double check is not meaningful */
    uint32_t reserve_budget; /* creates that must not allocate (after a reserve) */
    uint64_t stamp;
    /* id -> shadow entry, open addressing, key 0 empty, no deletion (entries
     * of destroyed ids are kept with id reset and reused only by the same id) */
    uint32_t *map_key, *map_val;
    uint32_t map_cap;
    shadow_node *sh;
    uint32_t sh_count, sh_cap;
    uint32_t history[HISTORY];
    uint32_t hist_n;
    uint32_t verify_seq;
    /* Nodes that whole-scene verifications may still visit in this input
     * (FULL_BUDGET at its start); past it they verify a sample, except the
     * last one at the end of the input, which verifies everything. */
    uint32_t full_budget;
    bool closing;
    bool quiet; /* inside bulk / churn: per-call checks cover the named nodes only */
    uint32_t touched[2]; /* ids the last call changed, verified right after it */
    /* Trackers with their model: the exact set of pending slots. */
    sgrt_tracker tr[NOBJ];
    uint32_t *tp[NOBJ];
    uint32_t tp_words[NOBJ];
    /* Node sets; membership lives in shadow_node.sets. */
    sgrt_nodeset ns[NOBJ];
    uint32_t ns_count[NOBJ];
    /* The last tracker, node set and writer destroyed (ids; 0: none): used
     * again, each must be refused (their memory is freed). */
    uint32_t dead_tr, dead_ns, dead_wr;
    /* Writers with their entries (ids as created, dead ones included). */
    struct fwriter {
        sgrt_writer w;
        uint32_t count;
        uint32_t ids[MAX_WENTRIES];
    } wr[NOBJ];
    /* The log: error reports (code not SGRT_OK) since log_errors was last
     * cleared, and the last of them. */
    uint32_t log_errors;
    sgrt_log_entry log_last;
    /* What sgrt_scene_nonfinite_locals says until the next update: the
     * last update's repairs and the node of the lowest slot among them. */
    uint32_t repairs;
    sgrt_node repaired_first;
} fscene;

static uint32_t hash_id(uint32_t id, uint32_t mask) { return (id * 2654435761u) & mask; }

static shadow_node *sh_find(const fscene *f, uint32_t id)
{
    if (!id || !f->map_cap)
        return NULL;
    const uint32_t mask = f->map_cap - 1u;
    for (uint32_t i = hash_id(id, mask);; i = (i + 1u) & mask) {
        if (f->map_key[i] == id)
            return f->sh[f->map_val[i]].id == id ? &f->sh[f->map_val[i]] : NULL;
        if (f->map_key[i] == 0)
            return NULL;
    }
}

/* The entry of a node the model says is alive: it must exist. */
static shadow_node *sh_get(const fscene *f, uint32_t id)
{
    shadow_node *e = sh_find(f, id);
    ENSURE(e, "no shadow entry for live node 0x%08x", id);
    return e;
}

static shadow_node *sh_add(fscene *f, uint32_t id)
{
    if (f->sh_count * 2u + 2u > f->map_cap) {
        const uint32_t ncap = f->map_cap ? f->map_cap * 2u : 1024u;
        uint32_t *nk = calloc(ncap, sizeof *nk), *nv = calloc(ncap, sizeof *nv);
        if (!nk || !nv)
            die("host out of memory");
        for (uint32_t i = 0; i < f->map_cap; i++) {
            if (!f->map_key[i])
                continue;
            uint32_t j = hash_id(f->map_key[i], ncap - 1u);
            while (nk[j])
                j = (j + 1u) & (ncap - 1u);
            nk[j] = f->map_key[i];
            nv[j] = f->map_val[i];
        }
        free(f->map_key);
        free(f->map_val);
        f->map_key = nk;
        f->map_val = nv;
        f->map_cap = ncap;
    }
    const uint32_t mask = f->map_cap - 1u;
    uint32_t i = hash_id(id, mask);
    while (f->map_key[i] && f->map_key[i] != id)
        i = (i + 1u) & mask;
    uint32_t e;
    if (f->map_key[i] == id) {
        e = f->map_val[i]; /* the id comes back (generation wrap, or a new scene) */
    } else {
        if (f->sh_count == f->sh_cap) {
            f->sh_cap = f->sh_cap ? f->sh_cap * 2u : 256u;
            shadow_node *ns = realloc(f->sh, f->sh_cap * sizeof *ns);
            if (!ns)
                die("host out of memory");
            f->sh = ns;
        }
        e = f->sh_count++;
        f->map_key[i] = id;
        f->map_val[i] = e;
    }
    memset(&f->sh[e], 0, sizeof f->sh[e]);
    f->sh[e].id = id;
    return &f->sh[e];
}

static void history_add(fscene *f, uint32_t id)
{
    f->history[f->hist_n % HISTORY] = id;
    f->hist_n++;
}

static void tp_set(fscene *f, int k, uint32_t slot)
{
    if (slot / 32u >= f->tp_words[k]) {
        const uint32_t nw = slot / 32u + 64u;
        uint32_t *n = realloc(f->tp[k], nw * sizeof *n);
        if (!n)
            die("host out of memory");
        memset(n + f->tp_words[k], 0, (nw - f->tp_words[k]) * sizeof *n);
        f->tp[k] = n;
        f->tp_words[k] = nw;
    }
    f->tp[k][slot / 32u] |= 1u << (slot % 32u);
}

static bool tp_get(const fscene *f, int k, uint32_t slot)
{
    return slot / 32u < f->tp_words[k] && (f->tp[k][slot / 32u] >> (slot % 32u)) & 1u;
}

static void tp_clear(fscene *f, int k, uint32_t slot)
{
    if (slot / 32u < f->tp_words[k])
        f->tp[k][slot / 32u] &= ~(1u << (slot % 32u));
}

static bool any_tracker(const fscene *f)
{
    for (int k = 0; k < NOBJ; k++)
        if (f->tr[k].id)
            return true;
    return false;
}

/* A slot's content changed: every tracker has it pending. */
static void note_slot(fscene *f, uint32_t slot)
{
    for (int k = 0; k < NOBJ; k++)
        if (f->tr[k].id)
            tp_set(f, k, slot);
}

/* Slots of every live node before a call that may move nodes in storage
 * (relocation, hole reclamation); NULL when no tracker watches. */
typedef struct slot_snap {
    uint32_t n, *id, *slot;
} slot_snap;

/* ids: the nodes that may move (n of them), or NULL: every live node. */
static slot_snap snap_slots(const fscene *f, const uint32_t *ids, uint32_t n)
{
    slot_snap sn = {0, NULL, NULL};
    if (!any_tracker(f))
        return sn;
    sn.n = ids ? n : ref_model_count(f->m);
    sn.id = malloc((size_t)(sn.n ? sn.n : 1u) * sizeof *sn.id);
    sn.slot = malloc((size_t)(sn.n ? sn.n : 1u) * sizeof *sn.slot);
    if (!sn.id || !sn.slot)
        die("host out of memory");
    for (uint32_t k = 0; k < sn.n; k++) {
        sn.id[k] = ids ? ids[k] : ref_model_nth(f->m, k);
        sn.slot[k] = slot_of(f->s, (sgrt_node){sn.id[k]});
    }
    return sn;
}

/* Whether a call that vacates `vacated` slots and leaves `live_after` live
 * nodes may run hole reclamation (white-box: the scene's hole count and
 * threshold), which can move any node. */
static bool may_reclaim(const fscene *f, uint32_t vacated, uint32_t live_after)
{
    return (uint64_t)f->s->holes + vacated > (uint64_t)live_after + f->s->hole_slack;
}

/* After the call: a node that moved changed the content of the slot it left
 * and of the one it took. `relocated` (0: none) is the root of a subtree
 * that a relocation moved in a call that also reclaimed holes: each of its
 * nodes left its slot, even one that reclamation then moved back into it.
 * Frees the snapshot. */
static void note_moved(fscene *f, slot_snap *sn, uint32_t relocated)
{
    for (uint32_t k = 0; k < sn->n; k++) {
        uint32_t now = 0;
        if (sgrt_node_slot(f->s, (sgrt_node){sn->id[k]}, &now) != SGRT_OK)
            continue;
        if (now != sn->slot[k] ||
            (relocated && ref_model_is_ancestor_or_self(f->m, relocated, sn->id[k]))) {
            note_slot(f, sn->slot[k]);
            note_slot(f, now);
        }
    }
    free(sn->id);
    free(sn->slot);
    sn->n = 0;
}

/* Ids of the subtree of id (id first); *n receives the count. Caller frees. */
static uint32_t *subtree_ids(const fscene *f, uint32_t id, uint32_t *n)
{
    const uint32_t k = ref_model_subtree_size(f->m, id);
    uint32_t *ids = malloc((size_t)k * sizeof *ids);
    if (!ids)
        die("host out of memory");
    uint32_t head = 0, tail = 0;
    ids[tail++] = id;
    while (head < tail) {
        const uint32_t x = ids[head++];
        tail += ref_model_children(f->m, x, ids + tail);
    }
    ENSURE(tail == k, "subtree walk");
    *n = k;
    return ids;
}

/* What the update makes of a local it reads: the local, or the identity
 * when an element is NaN or infinite (only a write in place leaves one). */
static const float *local_as_read(const float *m)
{
    for (int k = 0; k < 16; k++)
        if (!isfinite(m[k]))
            return IDENTITY;
    return m;
}

/* The local in the scene's storage now: what sgrt_node_local returns. */
static void storage_local(const fscene *f, uint32_t id, float out[16])
{
    const shadow_node *e = sh_find(f, id);
    if (e && e->has_raw)
        memcpy(out, e->raw, 16 * sizeof(float));
    else
        ref_model_local(f->m, id, out);
}

/* A root's world in a large world, as the header states it:
 * translate(d) x local with d = anchor - origin, the offset formed in
 * double and each entry it changes rounded to float once: entry (i, j),
 * i < 3, becomes (float)(local(i, j) + d[i] x local(3, j)) where d[i] and
 * local(3, j) are not zero; every other entry is the local's, bit for bit
 * (so a root anchored at the origin has its local as its world). The
 * previous worlds follow an origin move by the same rule, d the shift. */
static void model_anchored(const float local[16], const double d[3], float out[16])
{
    memcpy(out, local, 16 * sizeof(float));
    for (int i = 0; i < 3; i++) {
        if (d[i] == 0.0)
            continue;
        for (int j = 0; j < 4; j++)
            if (local[4 * j + 3] != 0.0f)
                out[4 * j + i] =
                    (float)((double)local[4 * j + i] + d[i] * (double)local[4 * j + 3]);
    }
}

/* The world a root's local gives it now: anchored in a large world, the
 * local itself in any other scene. */
static void root_world(const fscene *f, const shadow_node *e, const float local[16],
                       float out[16])
{
    if (!f->large) {
        memcpy(out, local, 16 * sizeof(float));
        return;
    }
    double d[3];
    for (int a = 0; a < 3; a++)
        d[a] = e->anchor[a] - f->origin[a];
    model_anchored(local, d, out);
}

/* Exact current world of a live node, as the next update will compute it:
 * memoised per stamp, so a full pass is O(n). */
static const float *shadow_now(fscene *f, uint32_t id)
{
    uint32_t path[64];
    for (;;) {
        /* Walk up to the first node already known (or the root), at most
         * 64 at a time, then fill downwards. */
        uint32_t n = 0, x = id;
        shadow_node *top = NULL;
        while (x) {
            shadow_node *e = sh_find(f, x);
            ENSURE(e, "shadow lost node 0x%08x", x);
            if (e->stamp == f->stamp) {
                top = e;
                break;
            }
            if (n == 64u)
                break;
            path[n++] = x;
            x = ref_model_parent(f->m, x);
        }
        if (n == 64u && x && !top) {
            /* Too deep for one pass: resolve the upper part first. */
            (void)shadow_now(f, x);
            continue;
        }
        for (uint32_t k = n; k-- > 0;) {
            shadow_node *e = sh_find(f, path[k]);
            shadow_node *p = k + 1u < n ? sh_find(f, path[k + 1u]) : top;
            e->dirty = e->marked || (p && p->dirty);
            if (e->dirty && e->has_raw && !e->synced) {
                /* A write in place that the update will read: the model
                 * takes it (a node already dirty: no pending count moves). */
                ref_model_commit_local(f->m, path[k], local_as_read(e->raw));
                e->synced = true;
            }
            float local[16];
            ref_model_local(f->m, path[k], local);
            if (!e->dirty)
                memcpy(e->now, e->world, sizeof e->now);
            else if (!p)
                root_world(f, e, local, e->now);
            else
                ref_mul(p->now, local, e->now);
            e->stamp = f->stamp;
        }
        return sh_get(f, id)->now;
    }
}

/* The locals of the nodes a write named, against the models: the entries
 * it wrote hold their values (a node named twice, its last), the others
 * what they held before. */
static void expect_locals(const fscene *f, const sgrt_node *nodes, uint32_t n, const char *what)
{
    for (uint32_t i = 0; i < n; i++) {
        if (!nodes[i].id || !ref_model_alive(f->m, nodes[i].id))
            continue;
        float got[16], want[16];
        storage_local(f, nodes[i].id, want);
        ENSURE(sgrt_node_local(f->s, nodes[i], got) == SGRT_OK &&
                   memcmp(got, want, sizeof got) == 0,
               "%s: the local of entry %u (0x%08x) differs from the model's", what, i,
               nodes[i].id);
    }
}

/* ---- comparisons ------------------------------------------------------------- */

/* Entry by entry within slack (NaN matching NaN, equal infinities). */
static bool near_matrix(const float *a, const float *b, const float *slack)
{
    for (int k = 0; k < 16; k++) {
        if ((isnan(a[k]) && isnan(b[k])) || a[k] == b[k])
            continue;
        if (!(fabs((double)a[k] - (double)b[k]) <= (double)slack[k]))
            return false;
    }
    return true;
}

static bool same_matrix(const float *a, const float *b)
{
    for (int k = 0; k < 16; k++) {
        if (isnan(a[k]) && isnan(b[k]))
            continue;
        uint32_t x, y;
        memcpy(&x, &a[k], 4);
        memcpy(&y, &b[k], 4);
        if (x != y)
            return false;
    }
    return true;
}

/* Where the double-precision bound of refmodel.h holds: moderate values (no
 * underflow or overflow inside the products) and shallow trees. */
static void note_local(fscene *f, const float *m)
{
    for (int k = 0; k < 16; k++) {
        const float a = fabsf(m[k]);
        if (a != 0.0f && (a < 1e-4f || a > 1e4f))
            f->extreme = true;
    }
}

static bool double_check_applies(const fscene *f, uint32_t id, const float *got)
{
    return !f->extreme && finite16(got) && ref_model_depth_at_most(f->m, id, 8u);
}

/* ---- large worlds in double ------------------------------------------------------ */

enum { DOUBLE_DEPTH = 8, WORLD_DOUBLE_DEPTH = 32 };

/* The path from a live node up to its root (id first); its length, or 0
 * when it is longer than limit + 1. */
static uint32_t path_up(const fscene *f, uint32_t id, uint32_t limit, uint32_t *path)
{
    uint32_t n = 0;
    for (uint32_t x = id; x; x = ref_model_parent(f->m, x)) {
        if (n > limit)
            return 0;
        path[n++] = x;
    }
    return n;
}

/* W = W x L and A = A x |L|, in double. */
static void chain_step(double W[16], double A[16], const float L[16])
{
    double l[16], al[16], t[16];
    for (int k = 0; k < 16; k++) {
        l[k] = L[k];
        al[k] = fabs((double)L[k]);
    }
    ref_mul_d(W, l, t);
    memcpy(W, t, sizeof t);
    ref_mul_d(A, al, t);
    memcpy(A, t, sizeof t);
}

/* The world of a live node relative to the origin, in double, from the
 * models' locals (those the update reads) and its root's anchor:
 * translate(anchor - origin) x local(root) x ... x local(node); A, the
 * product of the entrywise absolute values along the same path, bounds its
 * float error. The root's term of A is |its world| (its one rounding to
 * float is its only error) plus a little for the sum in double, so the
 * bound follows the world's size relative to the origin, not the
 * anchor's: a root placed to within float precision of its anchor's
 * distance from zero misses it. Returns the depth, or UINT32_MAX when it
 * is past `limit`. */
static uint32_t anchored_double(const fscene *f, uint32_t id, uint32_t limit, double W[16],
                                double A[16])
{
    uint32_t path[WORLD_DOUBLE_DEPTH + 1];
    const uint32_t n = path_up(f, id, limit, path);
    if (!n)
        return UINT32_MAX;
    float L[16];
    ref_model_local(f->m, path[n - 1u], L);
    const shadow_node *root = sh_get(f, path[n - 1u]);
    for (int k = 0; k < 16; k++) {
        W[k] = L[k];
        A[k] = fabs((double)L[k]);
    }
    for (int i = 0; f->large && i < 3; i++) {
        const double d = root->anchor[i] - f->origin[i];
        for (int j = 0; d != 0.0 && j < 4; j++) {
            const double w = L[4 * j + 3];
            if (w == 0.0)
                continue;
            W[4 * j + i] = (double)L[4 * j + i] + d * w;
            A[4 * j + i] =
                fabs(W[4 * j + i]) + 0x1p-28 * (fabs((double)L[4 * j + i]) + fabs(d * w));
        }
    }
    for (uint32_t k = n - 1u; k-- > 0;) {
        ref_model_local(f->m, path[k], L);
        chain_step(W, A, L);
    }
    return n - 1u;
}

/* got within (4 d + 2) u A of W in every entry (d the depth): the float
 * error of a root's one rounding and of d products, as refmodel.h
 * reasons; each rounding may also lose up to float's smallest denormal
 * (a value below float's range rounds to zero). */
static bool anchored_close(const double W[16], const double A[16], uint32_t depth,
                           const float got[16], double *worst)
{
    const double tol = 4.0 * depth + 2.0;
    *worst = 0.0;
    for (int k = 0; k < 16; k++) {
        const double diff = fabs((double)got[k] - W[k]);
        const double unit = REF_U * A[k] + 0x1p-149;
        if (diff > tol * unit)
            return *worst = diff / unit, false;
        if (diff / unit > *worst)
            *worst = diff / unit;
    }
    return true;
}

/* The double cross-check of a float world (as of the last update when
 * called right after it, or now): refmodel's where values are moderate;
 * in a large world the anchored one above, which covers roots anchored
 * anywhere. */
static void check_double(fscene *f, uint32_t id, const float got[16], bool now, const char *what)
{
    if (f->large) {
        double W[16], A[16], worst;
        if (f->extreme || !finite16(got))
            return;
        (void)shadow_now(f, id); /* the locals the update reads, in the model */
        const uint32_t depth = anchored_double(f, id, DOUBLE_DEPTH, W, A);
        if (depth == UINT32_MAX)
            return;
        ENSURE(anchored_close(W, A, depth, got, &worst),
               "%s of 0x%08x off the anchored double world by %g units of u x |world| "
               "(allowed %g; depth %u, translation %.17g %.17g %.17g, double %.17g %.17g %.17g)",
               what, id, worst, 4.0 * depth + 2.0, depth, (double)got[12], (double)got[13],
               (double)got[14], W[12], W[13], W[14]);
        return;
    }
    if (!double_check_applies(f, id, got))
        return;
    const double err = now ? ref_model_world_now_error(f->m, id, got)
                           : ref_model_world_error(f->m, id, got);
    const double tol = now ? ref_model_world_now_tolerance(f->m, id)
                           : ref_model_world_tolerance(f->m, id);
    ENSURE(err <= tol, "%s of 0x%08x off the double reference by %g (allowed %g)", what, id, err,
           tol);
}

/* sgrt_node_world_double of a live node against the same product formed
 * here as the header states it: from the node up (acc = local(parent) x
 * acc), the locals those in storage (what sgrt_node_local returns; a
 * non-finite one as the identity), then translate(anchor) of its root (no
 * anchor outside large worlds); within a few units of double rounding of
 * the product of absolute values. Entries that overflow double on the way
 * are skipped. */
static void check_world_double(fscene *f, uint32_t id, const double got[16])
{
    uint32_t path[WORLD_DOUBLE_DEPTH + 1];
    const uint32_t n = path_up(f, id, WORLD_DOUBLE_DEPTH, path);
    if (!n)
        return;
    float L[16];
    double W[16], A[16], l[16], al[16], t[16];
    storage_local(f, id, L);
    const float *lr = local_as_read(L);
    for (int k = 0; k < 16; k++) {
        W[k] = lr[k];
        A[k] = fabs((double)lr[k]);
    }
    for (uint32_t k = 1; k < n; k++) {
        storage_local(f, path[k], L);
        lr = local_as_read(L);
        for (int e = 0; e < 16; e++) {
            l[e] = lr[e];
            al[e] = fabs((double)lr[e]);
        }
        ref_mul_d(l, W, t);
        memcpy(W, t, sizeof t);
        ref_mul_d(al, A, t);
        memcpy(A, t, sizeof t);
    }
    const shadow_node *root = sh_get(f, path[n - 1u]);
    for (int j = 0; f->large && j < 4; j++)
        for (int i = 0; i < 3; i++) {
            W[4 * j + i] += root->anchor[i] * W[4 * j + 3];
            A[4 * j + i] += fabs(root->anchor[i]) * A[4 * j + 3];
        }
    const double tol = 0x1p-48 * (double)(n + 1u);
    for (int k = 0; k < 16; k++) {
        if (!isfinite(W[k]) || !isfinite(A[k]))
            continue;
        ENSURE(fabs(got[k] - W[k]) <= tol * A[k] + 0x1p-1000,
               "world_double of 0x%08x, entry %d: %.17g, the product in double %.17g (depth %u)",
               id, k, got[k], W[k], n - 1u);
    }
}

/* ---- scene lifetime ---------------------------------------------------------- */

/* Every report names a public function and a known code, with a message;
 * error reports are counted, the last one kept (the calls that check
 * theirs clear the count first). */
static void check_log_entry(void *user, const sgrt_log_entry *e)
{
    fscene *f = user;
    ENSURE(e->function && strncmp(e->function, "sgrt_", 5) == 0 && e->message && e->message[0],
           "log entry without a function or a message");
    ENSURE(e->code <= SGRT_OK && e->code >= SGRT_ERR_EXECUTOR, "log entry with code %d",
           (int)e->code);
    if (e->code != SGRT_OK) {
        f->log_errors++;
        f->log_last = *e;
    }
}

/* The call since log_errors was cleared reported exactly one error: `code`
 * from `function`, naming `node`. */
static void expect_one_report(const fscene *f, sgrt_result code, const char *function,
                              sgrt_node node)
{
    ENSURE(f->log_errors == 1, "%s: %u error reports, expected 1", function, f->log_errors);
    ENSURE(f->log_last.code == code && strcmp(f->log_last.function, function) == 0 &&
               f->log_last.node.id == node.id,
           "%s reported %s from %s naming 0x%08x, expected %s naming 0x%08x", function,
           sgrt_result_str(f->log_last.code), f->log_last.function, f->log_last.node.id,
           sgrt_result_str(code), node.id);
}

/* large: a large world (SGRT_SCENE_LARGE_WORLD), whatever the
 * configuration byte chooses besides. */
static void fscene_open(fscene *f, reader *r, bool large)
{
    const uint8_t cfg = u8(r);
    sgrt_scene_desc d;
    memset(&d, 0, sizeof d);
    const sgrt_allocator al = {fz_alloc_fn, fz_free_fn, &f->fa};
    d.allocator = &al; /* copied by the scene */
    d.initial_capacity = (cfg & 3u) == 0 ? 0u : (cfg & 3u) == 1 ? 1u : u8(r);
    f->max_nodes = cfg & 4u ? 1u + u8(r) : 0u;
    if (f->max_nodes && d.initial_capacity > f->max_nodes)
        d.initial_capacity = f->max_nodes;
    d.max_nodes = f->max_nodes;
    if (cfg & 8u)
        f->fa.countdown = 1u + (u8(r) & 3u);
    /* Bits 4-6: the highest kernel level (0: the CPU's), so that every
     * kernel this machine runs gets fuzzed, not only the default one. */
    d.max_simd = (sgrt_simd)((uint32_t)(cfg >> 4) % 5u);
    /* Bit 4 xor bit 7: previous worlds kept (the CPU's kernel with and
     * without them and with and without eager reclamation: 0x00, 0x50,
     * 0xA0, 0xF0). */
    f->prev_on = ((cfg >> 4) ^ (cfg >> 7)) & 1u;
    /* Bit 5 xor bit 6: boxes kept (0x20, 0x40, 0x50, 0xA0); with bit 0 too,
     * subtree boxes. */
    f->bounds_on = ((cfg >> 5) ^ (cfg >> 6)) & 1u;
    f->subtree_on = f->bounds_on && (cfg & 1u);
    /* Bit 0 xor bit 5: validation mode (0x00 and 0x50 off, 0xA0 and 0xF0
     * on): with valid input it changes nothing; the models predict what it
     * refuses (quaternions off unit length) and reports (PENDING reads). */
    f->validate = (cfg ^ (cfg >> 5)) & 1u;
    d.flags = (f->prev_on ? SGRT_SCENE_PREV_WORLD : 0u) | (f->bounds_on ? SGRT_SCENE_BOUNDS : 0u) |
              (f->subtree_on ? SGRT_SCENE_SUBTREE_BOUNDS : 0u) |
              (f->validate ? SGRT_SCENE_VALIDATE : 0u) | (large ? SGRT_SCENE_LARGE_WORLD : 0u);
    f->large = large;
    memset(f->origin, 0, sizeof f->origin);
    memset(f->origin_then, 0, sizeof f->origin_then);
    f->origin_moves = 0;
    d.log = check_log_entry;
    d.log_user = f;
    for (;;) {
        sgrt_scene *const sentinel = (sgrt_scene *)(uintptr_t)64;
        sgrt_scene *s = sentinel;
        f->fa.fired = false;
        const sgrt_result rc = sgrt_scene_create(&d, &s);
        if (rc == SGRT_OK) {
            ENSURE(s && s != sentinel, "scene_create OK without a scene");
            f->s = s;
            /* Bit 7: reclaim holes as soon as they outnumber live nodes,
             * and reuse object-table indices as soon as one is free (a
             * destroyed handle is then refused while a new object holds
             * its index). */
            if (cfg & 0x80u) {
                sgrt__scene_set_hole_slack(s, 0);
                sgrt__scene_set_object_reserve(s, 0);
            }
            break;
        }
        ENSURE(rc == SGRT_ERR_NOMEM && f->fa.fired, "scene_create: %s", sgrt_result_str(rc));
        ENSURE(s == sentinel, "failed scene_create wrote *out");
        ENSURE(f->fa.nblocks == 0, "failed scene_create leaked %u blocks", f->fa.nblocks);
    }
    f->fa.fired = false;
    f->dead_tr = f->dead_ns = f->dead_wr = 0; /* another scene's handles */
    f->m = ref_model_create();
    f->extreme = false;
    f->repairs = 0;
    f->repaired_first = SGRT_NULL_NODE;
    f->reserve_budget = 0;
    f->stamp = 1;
    f->sh_count = 0;
    if (f->map_cap)
        memset(f->map_key, 0, f->map_cap * sizeof *f->map_key);
}

static void fscene_close(fscene *f)
{
    for (int k = 0; k < NOBJ; k++) {
        f->tr[k].id = 0; /* freed with the scene */
        f->wr[k].w.id = 0;
        f->ns[k].id = 0;
        f->ns_count[k] = 0;
        if (f->tp[k])
            memset(f->tp[k], 0, f->tp_words[k] * sizeof *f->tp[k]);
    }
    sgrt_scene_destroy(f->s);
    f->s = NULL;
    ENSURE(f->fa.nblocks == 0, "scene_destroy left %u blocks", f->fa.nblocks);
    ref_model_destroy(f->m);
    f->m = NULL;
}

/* ---- comparison of one scene against its models ---------------------------------- */

static bool same3(const float a[3], const float b[3]) { return memcmp(a, b, 3 * sizeof(float)) == 0; }
/* Anchors and origins are the same when equal as numbers (-0.0 is +0.0):
 * such a set changes nothing, and the value held stays as it was. */
static bool same_point(const double a[3], const double b[3])
{
    return a[0] == b[0] && a[1] == b[1] && a[2] == b[2];
}

static void set_empty(float lo[3], float hi[3])
{
    for (int a = 0; a < 3; a++) {
        lo[a] = bits_to_float(0x7F800000u);
        hi[a] = bits_to_float(0xFF800000u);
    }
}

/* A node's boxes: the local one as set, the world and subtree ones as of the
 * last update, bit for bit. */
static void verify_boxes(fscene *f, sgrt_node h, const shadow_node *e)
{
    float c[3], x[3], lo[3], hi[3];
    ENSURE(sgrt_node_bounds(f->s, h, c, x) == SGRT_OK, "bounds of 0x%08x", h.id);
    if (e->box_has)
        ENSURE(same3(c, e->box_c) && same3(x, e->box_e), "local box of 0x%08x", h.id);
    else
        ENSURE(x[0] == -1.0f && x[1] == -1.0f && x[2] == -1.0f, "0x%08x reads a box it has not",
               h.id);
    ENSURE(sgrt_node_world_bounds(f->s, h, lo, hi) == SGRT_OK, "world bounds of 0x%08x", h.id);
    if (e->box_valid)
        ENSURE(same3(lo, e->box_lo) && same3(hi, e->box_hi),
               "world box of 0x%08x differs from the reference's", h.id);
    else
        ENSURE(lo[0] > hi[0], "0x%08x had no box at the last update but reads one", h.id);
    if (f->subtree_on) {
        ENSURE(sgrt_node_subtree_bounds(f->s, h, lo, hi) == SGRT_OK, "subtree bounds of 0x%08x",
               h.id);
        ENSURE(same3(lo, e->sub_lo) && same3(hi, e->sub_hi),
               "subtree box of 0x%08x changed since the last update", h.id);
    }
}

/* Validation mode's quaternion rule, as the library states it: |q|^2 in
 * double off 1 by more than the tolerance (an infinite q too; a NaN one is
 * refused as non-finite). */
static bool quat_refused(const fscene *f, const float q[4])
{
    const double x = q[0], y = q[1], z = q[2], w = q[3];
    const double d = ((x * x + y * y) + (z * z + w * w)) - 1.0;
    return f->validate && (d > SGRT_QUAT_NORM_TOLERANCE || d < -SGRT_QUAT_NORM_TOLERANCE);
}

static bool has_nan(const float *m)
{
    for (int k = 0; k < 16; k++)
        if (isnan(m[k]))
            return true;
    return false;
}

/* What sgrt_node_world of a live node returns: OK, or in validation mode
 * PENDING when the world the next update stores (the float model's now)
 * differs in bits from the last update's. NaN payloads are not modelled:
 * with a NaN either answer goes. */
static bool world_rc_ok(fscene *f, uint32_t id, sgrt_result rc)
{
    if (!f->validate)
        return rc == SGRT_OK;
    const float *now = shadow_now(f, id), *stored = sh_find(f, id)->world;
    if (has_nan(now) || has_nan(stored))
        return rc == SGRT_OK || rc == SGRT_ERR_PENDING;
    return rc == (memcmp(now, stored, 16 * sizeof(float)) == 0 ? SGRT_OK : SGRT_ERR_PENDING);
}

static void verify_node(fscene *f, uint32_t id, const float *wa, uint32_t slot_count,
                        bool worlds_now)
{
    const uint32_t count = ref_model_count(f->m);
    const sgrt_node h = {id};
    const shadow_node *e = sh_find(f, id);
    ENSURE(e, "no shadow for 0x%08x", id);
    ENSURE(sgrt_node_alive(f->s, h), "live node 0x%08x not alive", id);
    sgrt_node p = {0xFFFFFFFFu};
    ENSURE(sgrt_node_parent(f->s, h, &p) == SGRT_OK && p.id == ref_model_parent(f->m, id),
           "parent of 0x%08x: 0x%08x, model 0x%08x", id, p.id, ref_model_parent(f->m, id));
    float got[16], want[16];
    ENSURE(sgrt_node_local(f->s, h, got) == SGRT_OK, "local read");
    storage_local(f, id, want);
    ENSURE(memcmp(got, want, sizeof got) == 0, "local of 0x%08x differs from %s", id,
           e->has_raw ? "what was written in place" : "the model's");
    const sgrt_result wrc = sgrt_node_world(f->s, h, got);
    ENSURE(world_rc_ok(f, id, wrc), "world read: %s", sgrt_result_str(wrc));
    ENSURE(same_matrix(got, e->world), "world of 0x%08x differs from the float model", id);
    uint64_t user = 1;
    ENSURE(sgrt_node_user(f->s, h, &user) == SGRT_OK && user == e->user,
           "user value of 0x%08x", id);
    uint32_t slot = 0;
    ENSURE(sgrt_node_slot(f->s, h, &slot) == SGRT_OK && slot < slot_count,
           "slot of 0x%08x (%u, count %u)", id, slot, slot_count);
    ENSURE(sgrt_scene_slot_node(f->s, slot).id == id, "slot_node(slot(0x%08x))", id);
    ENSURE(same_matrix(wa + 16u * (size_t)slot, e->world), "world array entry of 0x%08x",
           id);
    const float *pa = sgrt_scene_prev_world_array(f->s, NULL);
    ENSURE((pa != NULL) == f->prev_on, "prev world array %s", pa ? "present" : "missing");
    if (pa && e->prev_loose)
        ENSURE(near_matrix(pa + 16u * (size_t)slot, e->prev, e->prev_slack),
               "previous world of 0x%08x, shifted by several origin moves: %.9g %.9g %.9g, "
               "expected %.9g %.9g %.9g (allowed %.3g %.3g %.3g)",
               id, (double)pa[16u * (size_t)slot + 12u], (double)pa[16u * (size_t)slot + 13u],
               (double)pa[16u * (size_t)slot + 14u], (double)e->prev[12], (double)e->prev[13],
               (double)e->prev[14], (double)e->prev_slack[12], (double)e->prev_slack[13],
               (double)e->prev_slack[14]);
    else if (pa)
        ENSURE(same_matrix(pa + 16u * (size_t)slot, e->prev), "previous world of 0x%08x", id);
    /* A root's anchor, bit for bit (zero outside large worlds); a node
     * with a parent has none: refused, reported, nothing changed. */
    double anchor[3] = {-1.0, -1.0, -1.0};
    const uint32_t log_errors = f->log_errors;
    const sgrt_log_entry log_last = f->log_last;
    const sgrt_result arc = sgrt_node_anchor(f->s, h, anchor);
    if (!p.id)
        ENSURE(arc == SGRT_OK && memcmp(anchor, e->anchor, sizeof anchor) == 0,
               "anchor of the root 0x%08x: %s, %.17g %.17g %.17g; model %.17g %.17g %.17g", id,
               sgrt_result_str(arc), anchor[0], anchor[1], anchor[2], e->anchor[0],
               e->anchor[1], e->anchor[2]);
    else
        ENSURE(arc == SGRT_ERR_INVALID_ARG && f->log_errors == log_errors + 1u &&
                   anchor[0] == -1.0,
               "anchor of 0x%08x, not a root: %s", id, sgrt_result_str(arc));
    f->log_errors = log_errors;
    f->log_last = log_last;
    if (f->bounds_on)
        verify_boxes(f, h, e);
    if (p.id) {
        uint32_t ps = 0;
        ENSURE(sgrt_node_slot(f->s, p, &ps) == SGRT_OK && ps < slot,
               "slot order: parent %u, child %u", ps, slot);
    }
    /* Children: each listed child is a model child; the count matches. */
    sgrt_node c = SGRT_NULL_NODE;
    ENSURE(sgrt_node_first_child(f->s, h, &c) == SGRT_OK, "first_child");
    uint32_t nc = 0;
    while (c.id) {
        ENSURE(ref_model_alive(f->m, c.id) && ref_model_parent(f->m, c.id) == id,
               "0x%08x listed as a child of 0x%08x", c.id, id);
        ENSURE(++nc <= count, "child list does not end");
        ENSURE(sgrt_node_next_sibling(f->s, c, &c) == SGRT_OK, "next_sibling");
    }
    ENSURE(nc == ref_model_child_count(f->m, id), "0x%08x has %u children, model %u", id, nc,
           ref_model_child_count(f->m, id));
    for (int k = 0; k < NOBJ; k++)
        if (f->ns[k].id)
            ENSURE(sgrt_nodeset_has(f->s, f->ns[k], h) == ((e->sets >> k) & 1u),
                   "membership of 0x%08x in set %d", id, k);
    if (worlds_now) {
        const float *now = shadow_now(f, id);
        ENSURE(sgrt_node_world_now(f->s, h, got) == SGRT_OK, "world_now read");
        ENSURE(same_matrix(got, now), "world_now of 0x%08x differs from the float model", id);
        check_double(f, id, got, true, "world_now");
        /* The check stops at WORLD_DOUBLE_DEPTH: deeper nodes would only
         * cost the library's walk up (OP_READ reads them). */
        if (ref_model_depth_at_most(f->m, id, WORLD_DOUBLE_DEPTH)) {
            double wd[16];
            ENSURE(sgrt_node_world_double(f->s, h, wd) == SGRT_OK, "world_double read");
            check_world_double(f, id, wd);
        }
    }
}

enum { SAMPLE = 8 };

/* Checks the library's invariants and counts, then nodes: all of them when
 * `full` (or the scene is small), else a rotating sample plus the nodes a
 * call named (`a`, `b`: ids, 0 for none). */
static void verify_ex(fscene *f, bool full, bool worlds_now, uint32_t a, uint32_t b)
{
    const char *what = NULL;
    const uint32_t count = ref_model_count(f->m);
    if (full && !f->closing && count > 2u * SAMPLE) {
        /* A program of compactions on thousands of nodes would verify
         * millions: whole-scene checks within a budget per input. */
        if (f->full_budget >= count)
            f->full_budget -= count;
        else
            full = false;
    }
    if (f->quiet && !full) {
        /* Inside bulk or churn, or between the sampled verifications: the
         * count and the nodes the call named; the whole scene is verified
         * later. */
        ENSURE(sgrt_scene_node_count(f->s) == count, "node count %u, model %u",
               sgrt_scene_node_count(f->s), count);
        uint32_t slot_count = 0;
        const float *wa = sgrt_scene_world_array(f->s, &slot_count);
        if (a && ref_model_alive(f->m, a))
            verify_node(f, a, wa, slot_count, worlds_now);
        if (b && ref_model_alive(f->m, b))
            verify_node(f, b, wa, slot_count, worlds_now);
        return;
    }
    /* The whole-scene checks cost O(slots): on scenes from bulk creation,
     * every 16th call (and every full verification) runs them. */
    if (full || count <= 16u || f->verify_seq % 8u == 0) {
        ENSURE(sgrt_scene_check(f->s, &what) == SGRT_OK, "sgrt_scene_check: %s",
               what ? what : "?");
        for (int k = 0; k < NOBJ; k++)
            if (f->tr[k].id)
                ENSURE(sgrt_tracker_check(f->s, f->tr[k], &what) == SGRT_OK,
                       "sgrt_tracker_check: %s", what ? what : "?");
    }
    ENSURE(sgrt_scene_node_count(f->s) == count, "node count %u, model %u",
           sgrt_scene_node_count(f->s), count);
    double origin[3] = {-1.0, -1.0, -1.0};
    ENSURE(sgrt_scene_origin(f->s, origin) == SGRT_OK &&
               memcmp(origin, f->origin, sizeof origin) == 0,
           "origin %.17g %.17g %.17g, model %.17g %.17g %.17g", origin[0], origin[1], origin[2],
           f->origin[0], f->origin[1], f->origin[2]);
    sgrt_node rf = {0xA5A5A5A5u};
    const uint32_t repairs = sgrt_scene_nonfinite_locals(f->s, &rf);
    ENSURE(repairs == f->repairs && rf.id == f->repaired_first.id,
           "nonfinite_locals: %u, first 0x%08x; the last update repaired %u, first 0x%08x",
           repairs, rf.id, f->repairs, f->repaired_first.id);
    uint32_t slot_count = 0;
    const float *wa = sgrt_scene_world_array(f->s, &slot_count);
    ENSURE(wa != NULL || count == 0, "world array NULL");
    f->verify_seq++;
    if (full || count <= 2u * SAMPLE) {
        /* world_now costs O(depth) per node in the library and in the
         * float model: past 64 nodes take it on a spread of about 32. */
        const uint32_t now_step = count <= 64u ? 1u : count / 32u;
        for (uint32_t k = 0; k < count; k++)
            verify_node(f, ref_model_nth(f->m, k), wa, slot_count,
                        worlds_now && k % now_step == 0);
    } else {
        for (uint32_t i = 0; i < SAMPLE; i++) {
            const uint32_t k = (uint32_t)((f->verify_seq * 7919u + i * 104729u) % count);
            verify_node(f, ref_model_nth(f->m, k), wa, slot_count, worlds_now);
        }
    }
    if (a && ref_model_alive(f->m, a))
        verify_node(f, a, wa, slot_count, worlds_now);
    if (b && ref_model_alive(f->m, b))
        verify_node(f, b, wa, slot_count, worlds_now);
    for (int k = 0; k < NOBJ; k++)
        if (f->ns[k].id)
            ENSURE(sgrt_nodeset_count(f->s, f->ns[k]) == f->ns_count[k], "set %d has %u, model %u",
                   k, sgrt_nodeset_count(f->s, f->ns[k]), f->ns_count[k]);
    /* Destroyed handles stay refused (unless the model says the id lives). */
    const uint32_t hn = f->hist_n < HISTORY ? f->hist_n : HISTORY;
    const uint32_t probes = full ? hn : (hn < 16u ? hn : 16u);
    for (uint32_t i = 0; i < probes; i++) {
        const uint32_t id = f->history[(f->verify_seq + i * 37u) % hn];
        ENSURE(sgrt_node_alive(f->s, (sgrt_node){id}) == ref_model_alive(f->m, id),
               "alive(0x%08x) disagrees with the model", id);
    }
    /* Dead slots below the slot count hold no node. */
    for (uint32_t sl = 0; sl < slot_count; sl += full ? 1u : 1u + sl / 8u) {
        const sgrt_node n = sgrt_scene_slot_node(f->s, sl);
        ENSURE(!n.id || ref_model_alive(f->m, n.id), "slot %u holds a dead id", sl);
    }
    ENSURE(sgrt_scene_slot_node(f->s, slot_count).id == 0, "slot past the count holds a node");
}

static void verify(fscene *f, bool worlds_now) { verify_ex(f, true, worlds_now, 0, 0); }

/* ---- handles of every kind ------------------------------------------------------ */

static sgrt_node rd_handle(fscene *f, const fscene *other, reader *r)
{
    const uint8_t k = u8(r);
    const uint32_t count = ref_model_count(f->m);
    sgrt_node h = SGRT_NULL_NODE;
    switch (k % 10u) {
    case 0:
        break; /* zero */
    case 1: case 2: case 3: case 4:
        if (count)
            h.id = ref_model_nth(f->m, u16(r) % count);
        break;
    case 5: { /* remembered: mostly destroyed by now */
        const uint32_t hn = f->hist_n < HISTORY ? f->hist_n : HISTORY;
        if (hn)
            h.id = f->history[u8(r) % hn];
        break;
    }
    case 6: /* from the other scene */
        if (other->m && ref_model_count(other->m))
            h.id = ref_model_nth(other->m, u16(r) % ref_model_count(other->m));
        break;
    case 7: /* made up: out of range, garbage */
        h.id = u32(r);
        break;
    case 8: /* a live id with one bit flipped: same index other generation, ... */
        if (count) {
            /* Reads in separate statements: the order of the operands of
             * one expression is unspecified (make_corpus.py writes them in
             * this order). */
            h.id = ref_model_nth(f->m, u16(r) % count);
            h.id ^= 1u << (u8(r) % 32u);
        }
        break;
    default: /* a live id with the generation field set to 0 or 255 */
        if (count) {
            h.id = ref_model_nth(f->m, u16(r) % count) & 0x00FFFFFFu;
            h.id |= u8(r) & 1u ? 0xFF000000u : 0u;
        }
        break;
    }
    return h;
}

static bool valid(const fscene *f, sgrt_node h) { return h.id && ref_model_alive(f->m, h.id); }

static void rd_matrix(fscene *f, const fscene *other, reader *r, float m[16])
{
    const uint8_t k = u8(r);
    memcpy(m, IDENTITY, 16 * sizeof(float));
    switch (k % 8u) {
    case 0:
        break;
    case 1: /* translation */
        m[12] = rd_float(r);
        m[13] = rd_float(r);
        m[14] = rd_float(r);
        break;
    case 2: /* scale */
        m[0] = rd_float(r);
        m[5] = rd_float(r);
        m[10] = rd_float(r);
        break;
    case 3: /* anything */
        for (int i = 0; i < 16; i++)
            m[i] = rd_float(r);
        break;
    case 4: { /* the current local of some node: bit-identical when it is the target */
        const sgrt_node h = rd_handle(f, other, r);
        if (valid(f, h))
            storage_local(f, h.id, m);
        break;
    }
    case 5: /* affine */
        for (int i = 0; i < 16; i++)
            if (i % 4 != 3)
                m[i] = rd_float(r);
        break;
    case 6: { /* identity with one special entry: the index read first (in
               * its own statement: the order of an assignment's operands
               * is unspecified) */
        const uint32_t at = u8(r) % 16u;
        m[at] = rd_float(r);
        break;
    }
    default: /* a rotation about z with scale and translation */
    {
        const float c = (float)((int)u8(r) - 128) / 128.0f, s = sqrtf(fmaxf(0.0f, 1.0f - c * c));
        m[0] = c;
        m[1] = s;
        m[4] = -s;
        m[5] = c;
        m[12] = rd_float(r);
        break;
    }
    }
}

/* ---- the operations ---------------------------------------------------------------- */

enum {
    OP_CREATE,
    OP_CREATE_MANY,
    OP_DESTROY,
    OP_SET_PARENT,
    OP_SET_LOCAL,
    OP_SET_LOCAL2,
    OP_SET_TRS,
    OP_UPDATE,
    OP_UPDATE2,
    OP_READ,
    OP_WORLD_NOW_ALL,
    OP_USER,
    OP_RESERVE,
    OP_COMPACT,
    OP_FAIL_ALLOC,
    OP_BAD_ARGS,
    OP_RECREATE,
    OP_SLOTS,
    OP_TRACKER_CREATE,
    OP_TRACKER_DESTROY,
    OP_COLLECT,
    OP_COLLECT2,
    OP_SET_CREATE,
    OP_SET_DESTROY,
    OP_SET_MEMBER,
    OP_SET_MEMBER2,
    OP_SET_QUERY,
    OP_SET_COMBINE,
    OP_SET_FROM_CHANGES,
    OP_BATCH_LOCAL,
    OP_BATCH_TRS,
    OP_UPDATE_PARALLEL,
    OP_BULK,
    OP_CHURN,
    OP_SET_WORLD,
    OP_BOUNDS,
    OP_CULL,
    OP_WRITER_CREATE,
    OP_WRITER_DESTROY,
    OP_WRITER_WRITE,
    OP_WRITER_IN_PLACE,
    OP_RECREATE_LARGE,
    OP_SET_ANCHOR,
    OP_SET_ORIGIN,
    OP_LARGE_READ,
    OP_COUNT
};

/* A rejected call must change nothing: the models were not touched, so the
 * scene must still match them, in particular at the nodes the call named. */
static void expect_unchanged(fscene *f, sgrt_node a, sgrt_node b)
{
    verify_ex(f, false, false, a.id, b.id);
}

static void after_alloc_call(fscene *f, sgrt_result rc, uint64_t calls_before)
{
    if (rc == SGRT_ERR_NOMEM)
        ENSURE(f->fa.fired, "NOMEM without an allocation failure");
    if (f->fa.fired)
        ENSURE(rc == SGRT_ERR_NOMEM || rc == SGRT_OK,
               "an allocation failed and the call returned %s", sgrt_result_str(rc));
    (void)calls_before;
}

static void do_create(fscene *f, const fscene *other, sgrt_node parent, bool null_out)
{
    const bool pv = parent.id == 0 || valid(f, parent);
    const uint32_t count = ref_model_count(f->m);
    const bool full = f->max_nodes && count >= f->max_nodes;
    sgrt_node out = {0xA5A5A5A5u};
    const uint64_t calls0 = f->fa.calls;
    f->fa.fired = false;
    const sgrt_result rc = sgrt_node_create(f->s, parent, null_out ? NULL : &out);
    after_alloc_call(f, rc, calls0);
    (void)other;
    if (null_out) {
        ENSURE(rc == SGRT_ERR_INVALID_ARG || (!pv && rc == SGRT_ERR_STALE_HANDLE),
               "create with NULL out: %s", sgrt_result_str(rc));
        expect_unchanged(f, parent, SGRT_NULL_NODE);
        return;
    }
    if (!pv || full || rc != SGRT_OK) {
        ENSURE(rc != SGRT_OK, "create succeeded: parent valid %d, full %d", pv, full);
        ENSURE((!pv && rc == SGRT_ERR_STALE_HANDLE) || (full && rc == SGRT_ERR_CAPACITY) ||
                   (rc == SGRT_ERR_NOMEM && f->fa.fired),
               "create returned %s (parent valid %d, full %d)", sgrt_result_str(rc), pv, full);
        ENSURE(out.id == 0xA5A5A5A5u, "failed create wrote *out");
        expect_unchanged(f, parent, SGRT_NULL_NODE);
        return;
    }
    if (f->reserve_budget) {
        ENSURE(f->fa.calls == calls0, "create within a reserve allocated");
        f->reserve_budget--;
    }
    ENSURE(out.id != 0, "create returned id 0");
    ENSURE(!ref_model_alive(f->m, out.id), "create returned the live id 0x%08x", out.id);
    ref_model_add(f->m, out.id, parent.id);
    f->touched[0] = out.id;
    f->touched[1] = parent.id;
    shadow_node *e = sh_add(f, out.id);
    e->marked = true;
    const shadow_node *pe = parent.id ? sh_find(f, parent.id) : NULL;
    memcpy(e->world, pe ? pe->world : IDENTITY, sizeof e->world);
    memcpy(e->prev, e->world, sizeof e->prev); /* until its first update */
    e->moved_last = false;
    e->fresh = true;
    if (!parent.id) /* a new root is anchored at the origin */
        memcpy(e->anchor, f->origin, sizeof e->anchor);
    set_empty(e->sub_lo, e->sub_hi);
    history_add(f, out.id);
    if (any_tracker(f))
        note_slot(f, slot_of(f->s, out));
    f->stamp++;
}

static void do_destroy(fscene *f, sgrt_node h)
{
    uint32_t nsub = 0, *sub = NULL, *slots = NULL;
    if (valid(f, h) && any_tracker(f)) {
        sub = subtree_ids(f, h.id, &nsub);
        slots = malloc((size_t)nsub * sizeof *slots);
        if (!slots)
            die("host out of memory");
        for (uint32_t i = 0; i < nsub; i++)
            slots[i] = slot_of(f->s, (sgrt_node){sub[i]});
    }
    /* Only hole reclamation moves the nodes that survive a destroy. */
    const uint32_t gone = valid(f, h) ? ref_model_subtree_size(f->m, h.id) : 0u;
    slot_snap moved = {0, NULL, NULL};
    if (gone && may_reclaim(f, gone, ref_model_count(f->m) - gone))
        moved = snap_slots(f, NULL, 0);
    const uint64_t calls0 = f->fa.calls;
    const sgrt_result rc = sgrt_node_destroy(f->s, h);
    ENSURE(f->fa.calls == calls0, "destroy allocated");
    note_moved(f, &moved, 0); /* hole reclamation */
    if (!valid(f, h)) {
        ENSURE(rc == SGRT_ERR_STALE_HANDLE, "destroy of a bad handle: %s", sgrt_result_str(rc));
        return;
    }
    ENSURE(rc == SGRT_OK, "destroy: %s", sgrt_result_str(rc));
    f->touched[0] = ref_model_parent(f->m, h.id);
    const uint32_t k = ref_model_subtree_size(f->m, h.id);
    uint32_t *removed = malloc(k * sizeof *removed);
    if (!removed)
        die("host out of memory");
    ENSURE(ref_model_remove(f->m, h.id, removed) == k, "model remove");
    for (uint32_t i = 0; i < k; i++) {
        shadow_node *e = sh_find(f, removed[i]);
        if (!e)
            continue;
        for (int j = 0; j < NOBJ; j++)
            if ((e->sets >> j) & 1u)
                f->ns_count[j]--;
        e->id = 0;
    }
    free(removed);
    for (uint32_t i = 0; i < nsub; i++)
        note_slot(f, slots[i]);
    free(sub);
    free(slots);
    f->stamp++;
}

static void do_set_parent(fscene *f, sgrt_node n, sgrt_node p, int keep_raw)
{
    const sgrt_keep keep = (sgrt_keep)keep_raw;
    const bool keep_ok = keep_raw == SGRT_KEEP_LOCAL || keep_raw == SGRT_KEEP_WORLD;
    const bool nv = valid(f, n), pv = p.id == 0 || valid(f, p);
    const bool cycle = nv && pv && p.id && ref_model_is_ancestor_or_self(f->m, n.id, p.id);
    bool singular = false, same = false;
    float new_local[16];
    if (nv && pv && !cycle) {
        same = ref_model_parent(f->m, n.id) == p.id;
        if (keep == SGRT_KEEP_WORLD && !same) {
            float w[16];
            memcpy(w, shadow_now(f, n.id), sizeof w);
            if (!p.id) {
                singular = !finite16(w);
                memcpy(new_local, w, sizeof w);
            } else {
                float pw[16];
                memcpy(pw, shadow_now(f, p.id), sizeof pw);
                singular = !finite16(pw) || !finite16(w) ||
                           !sgrt__relative_local(pw, w, new_local);
                if (!singular) { /* kept within keep-world's tolerance? */
                    float back[16];
                    ref_mul(pw, new_local, back);
                    singular = !sgrt__world_kept(back, w);
                }
            }
        }
    }
    /* In a large world the world a keep-world move keeps, in double (the
     * model's is relative to no anchor). */
    double w_old[16], a_old[16];
    uint32_t depth_old = UINT32_MAX;
    if (f->large && keep == SGRT_KEEP_WORLD && nv && pv && !cycle && !same && !singular)
        depth_old = anchored_double(f, n.id, DOUBLE_DEPTH, w_old, a_old);
    /* The subtree may move in storage (relocation), and other nodes too
     * when that runs hole reclamation. */
    slot_snap moved = {0, NULL, NULL};
    if (nv && any_tracker(f)) {
        uint32_t k = 0;
        uint32_t *sub = subtree_ids(f, n.id, &k);
        moved = may_reclaim(f, k, ref_model_count(f->m)) ? snap_slots(f, NULL, 0)
                                                         : snap_slots(f, sub, k);
        free(sub);
    }
    const uint64_t calls0 = f->fa.calls;
    f->fa.fired = false;
    uint32_t ns_before = 0, ps_before = 0;
    const bool relocating = nv && p.id && valid(f, p) &&
                            sgrt_node_slot(f->s, n, &ns_before) == SGRT_OK &&
                            sgrt_node_slot(f->s, p, &ps_before) == SGRT_OK && ps_before > ns_before;
    const sgrt_result rc = sgrt_node_set_parent(f->s, n, p, keep);
    /* A relocation leaves the node's old slot empty below its parent:
     * packed slots after it mean that the call reclaimed holes too. */
    note_moved(f, &moved, rc == SGRT_OK && relocating && slots_packed(f->s) ? n.id : 0u);
    after_alloc_call(f, rc, calls0);
    const bool any_error = !keep_ok || !nv || !pv || cycle || (keep_ok && singular);
    if (any_error || rc != SGRT_OK) {
        ENSURE((!keep_ok && rc == SGRT_ERR_INVALID_ARG) ||
                   ((!nv || !pv) && rc == SGRT_ERR_STALE_HANDLE) ||
                   (cycle && rc == SGRT_ERR_CYCLE) ||
                   (keep_ok && singular && rc == SGRT_ERR_SINGULAR) ||
                   (!any_error && rc == SGRT_ERR_NOMEM && f->fa.fired),
               "set_parent returned %s (keep ok %d, node %d, parent %d, cycle %d, singular %d)",
               sgrt_result_str(rc), keep_ok, nv, pv, cycle, singular);
        expect_unchanged(f, n, p);
        return;
    }
    ENSURE(!same || f->fa.calls == calls0, "set_parent to the same parent allocated");
    f->touched[0] = n.id;
    f->touched[1] = p.id;
    f->reserve_budget = 0; /* relocation may use the reserved slots */
    if (same)
        return;
    if (keep == SGRT_KEEP_WORLD) {
        float got[16];
        ENSURE(sgrt_node_local(f->s, n, got) == SGRT_OK, "local read");
        ENSURE(memcmp(got, new_local, sizeof got) == 0,
               "keep-world local differs from inverse(parent) x world");
        const bool check = !f->large && !f->extreme && ref_model_depth_at_most(f->m, n.id, 8u) &&
                           (!p.id || ref_model_depth_at_most(f->m, p.id, 7u));
        note_local(f, new_local);
        const double err = ref_model_set_parent_keep_world(f->m, n.id, p.id, new_local);
        sh_get(f, n.id)->has_raw = false; /* the new local replaced what was in place */
        if (check && !f->extreme)
            ENSURE(err <= 1.0, "keep-world moved the world by %g of the allowance", err);
    } else {
        ref_model_set_parent(f->m, n.id, p.id);
    }
    shadow_node *e = sh_get(f, n.id);
    e->marked = true;
    if (!p.id) /* made a root: anchored at the origin (either keep mode) */
        memcpy(e->anchor, f->origin, sizeof e->anchor);
    f->stamp++;
    /* A node whose world, relative to the origin, lies 2^24 or more away
     * in some axis (a far anchor, or the origin moved far from it) has a
     * float world whose spacing there exceeds 1: keep-world computes the
     * new local from those float worlds (the header's tolerance is
     * relative to them), so a bound from the chain's magnitudes in double,
     * which knows nothing of that spacing, does not apply. Seed
     * large_far_keep_world: x at -7.1e13, y moved by 3.7e-3. */
    const bool far = depth_old != UINT32_MAX &&
                     (fabs(w_old[12]) >= 0x1p24 || fabs(w_old[13]) >= 0x1p24 ||
                      fabs(w_old[14]) >= 0x1p24);
    if (depth_old != UINT32_MAX && !f->extreme && !far) {
        /* The world kept, relative to the origin, within refmodel's
         * keep-world allowance: 2u(4 d_new A_new + (4 d_old + 1) A_old). */
        double w_new[16], a_new[16];
        const uint32_t depth_new = anchored_double(f, n.id, DOUBLE_DEPTH, w_new, a_new);
        for (int k = 0; depth_new != UINT32_MAX && k < 16; k++) {
            const double allow =
                2.0 * REF_U * (4.0 * depth_new * a_new[k] + (4.0 * depth_old + 1.0) * a_old[k]) +
                0x1p-147;
            ENSURE(fabs(w_new[k] - w_old[k]) <= allow,
                   "keep-world moved the world of 0x%08x by %g in entry %d (allowed %g)", n.id,
                   fabs(w_new[k] - w_old[k]), k, allow);
        }
    }
}

/* A finite local set through a write that compares (single calls,
 * batches, writers): stored and marked unless its bits are those in
 * storage, which after a write in place are what was written there, not
 * the model's. Returns whether it marked. */
static bool model_set_local(fscene *f, uint32_t id, const float m[16])
{
    shadow_node *e = sh_get(f, id);
    note_local(f, m);
    if (e->has_raw) {
        if (memcmp(m, e->raw, sizeof e->raw) == 0)
            return false; /* the bits in storage: nothing changes */
        e->has_raw = false;
        ref_model_commit_local(f->m, id, m);
    } else if (!ref_model_set_local(f->m, id, m)) {
        return false;
    }
    e->marked = true;
    f->stamp++;
    return true;
}

/* The node counts as moved whatever its local (an anchor set, an origin
 * move): the models mark it. */
static void model_mark(fscene *f, uint32_t id)
{
    float l[16];
    ref_model_local(f->m, id, l);
    ref_model_commit_local(f->m, id, l);
    sh_get(f, id)->marked = true;
    f->stamp++;
}

static void apply_local(fscene *f, sgrt_node h, const float m[16], sgrt_result rc,
                        bool input_ok)
{
    if (!valid(f, h) || !input_ok) {
        ENSURE(rc == (!input_ok ? SGRT_ERR_INVALID_ARG : SGRT_ERR_STALE_HANDLE) ||
                   (!input_ok && !valid(f, h) && rc == SGRT_ERR_STALE_HANDLE),
               "set_local/trs returned %s (handle valid %d, input ok %d)", sgrt_result_str(rc),
               valid(f, h), input_ok);
        expect_unchanged(f, h, SGRT_NULL_NODE);
        return;
    }
    ENSURE(rc == SGRT_OK, "set_local/trs: %s", sgrt_result_str(rc));
    f->touched[0] = h.id;
    model_set_local(f, h.id, m);
}

static void do_set_local(fscene *f, sgrt_node h, const float m[16])
{
    const uint64_t calls0 = f->fa.calls;
    const sgrt_result rc = sgrt_node_set_local(f->s, h, m);
    ENSURE(f->fa.calls == calls0, "set_local allocated");
    apply_local(f, h, m, rc, finite16(m));
}

static void do_set_trs(fscene *f, sgrt_node h, const float t[3], const float q[4],
                       const float sc[3])
{
    float m[16];
    sgrt__trs_to_mat4(t, q, sc, m);
    bool ok = finite16(m);
    for (int i = 0; i < 3; i++)
        ok = ok && isfinite(t[i]) && isfinite(sc[i]);
    for (int i = 0; i < 4; i++)
        ok = ok && isfinite(q[i]);
    /* The matrix must be T x R x S; check the formula in double where it is
     * well-conditioned, independently of sgrt__trs_to_mat4. */
    if (ok) {
        const double x = q[0], y = q[1], z = q[2], w = q[3];
        const double R[9] = {1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w),
                             2 * (x * y - z * w),     1 - 2 * (x * x + z * z), 2 * (y * z + x * w),
                             2 * (x * z + y * w),     2 * (y * z - x * w), 1 - 2 * (x * x + y * y)};
        for (int c = 0; c < 3; c++)
            for (int rr = 0; rr < 3; rr++) {
                const double want = R[c * 3 + rr] * sc[c];
                const double scale = (fabs(x) + fabs(y) + fabs(z) + fabs(w));
                const double allow = 8.0 * REF_U * (1.0 + scale * scale) * fabs((double)sc[c]);
                if (isfinite(allow) && allow < 1e30)
                    ENSURE(fabs(m[c * 4 + rr] - want) <= allow + 1e-37,
                           "T x R x S entry %d: %g vs %g", c * 4 + rr, (double)m[c * 4 + rr],
                           want);
            }
        ENSURE(m[12] == t[0] && m[13] == t[1] && m[14] == t[2] && m[15] == 1.0f && m[3] == 0.0f &&
                   m[7] == 0.0f && m[11] == 0.0f,
               "T x R x S: translation row/column");
    }
    const uint64_t calls0 = f->fa.calls;
    const sgrt_result rc = sgrt_node_set_trs(f->s, h, t, q, sc);
    ENSURE(f->fa.calls == calls0, "set_trs allocated");
    apply_local(f, h, m, rc, ok && !quat_refused(f, q));
}

/* set_world: the keep-world local under the node's parent's world now
 * (predicted with the reference kernel, which every kernel matches), or m
 * itself for a root; refused as SINGULAR when that local is not finite or
 * misses m beyond keep-world's tolerance; otherwise set_local's rules. */
static void do_set_world(fscene *f, sgrt_node h, const float m[16])
{
    const bool input_ok = finite16(m);
    bool singular = false;
    float local[16];
    memcpy(local, m, sizeof local);
    if (valid(f, h) && input_ok) {
        const uint32_t p = ref_model_parent(f->m, h.id);
        if (p) {
            float pw[16], back[16];
            memcpy(pw, shadow_now(f, p), sizeof pw);
            singular = !finite16(pw) || !sgrt__relative_local(pw, m, local);
            if (!singular) {
                ref_mul(pw, local, back);
                singular = !sgrt__world_kept(back, m);
            }
        }
    }
    const uint64_t calls0 = f->fa.calls;
    const sgrt_result rc = sgrt_node_set_world(f->s, h, m);
    ENSURE(f->fa.calls == calls0, "set_world allocated");
    if (singular) {
        ENSURE(rc == SGRT_ERR_SINGULAR, "set_world returned %s, expected SINGULAR",
               sgrt_result_str(rc));
        expect_unchanged(f, h, SGRT_NULL_NODE);
        return;
    }
    if (rc == SGRT_OK) {
        float got[16];
        ENSURE(sgrt_node_local(f->s, h, got) == SGRT_OK, "local read");
        ENSURE(memcmp(got, local, sizeof got) == 0,
               "set_world's local differs from inverse(parent world now) x m");
    }
    apply_local(f, h, local, rc, input_ok);
    if (rc == SGRT_OK && f->large && !ref_model_parent(f->m, h.id)) {
        /* A root given a world is anchored at the origin, so that its world
         * is m bit for bit: a move when the anchor was elsewhere. */
        shadow_node *e = sh_get(f, h.id);
        if (memcmp(e->anchor, f->origin, sizeof e->anchor) != 0) {
            memcpy(e->anchor, f->origin, sizeof e->anchor);
            model_mark(f, h.id);
        }
    }
}

/* A batch: its entries' single calls in order, stopping at the first
 * refused one. An entry is refused as its single call would be: a stale
 * handle first (STALE_HANDLE), then in validation mode a quaternion off
 * unit length, then a non-finite matrix (both INVALID_ARG). The entries
 * before it are written (and mark as their single calls do), it and the
 * rest change nothing; the error, *out_bad and the one log report name it.
 * No refusal: OK, *out_bad untouched. */
enum { MAX_BATCH = 136 };

static void do_batch(fscene *f, const fscene *other, reader *r, bool trs)
{
    /* Mostly 0 to 8 entries; a count byte of 0xE0 or more takes the count
     * from the next byte, 9 to 136: up to five of the library's chunks of
     * 32 entries, each stored while the next one is checked. */
    const uint8_t kb = u8(r);
    const uint32_t k = kb < 0xE0u ? kb % 9u : 9u + u8(r) % (MAX_BATCH - 8u);
    sgrt_node nodes[MAX_BATCH];
    float m[MAX_BATCH][16], t[MAX_BATCH][3], q[MAX_BATCH][4], sc[MAX_BATCH][3];
    uint32_t bad = k;
    sgrt_result want = SGRT_OK;
    for (uint32_t i = 0; i < k; i++) {
        nodes[i] = rd_handle(f, other, r);
        if (trs) {
            for (int j = 0; j < 3; j++) {
                t[i][j] = rd_float(r);
                sc[i][j] = rd_float(r);
            }
            for (int j = 0; j < 4; j++)
                q[i][j] = rd_float(r);
            sgrt__trs_to_mat4(t[i], q[i], sc[i], m[i]);
        } else {
            rd_matrix(f, other, r, m[i]);
        }
        const bool refused_values = !finite16(m[i]) || (trs && quat_refused(f, q[i]));
        if (bad == k && (!valid(f, nodes[i]) || refused_values)) {
            bad = i;
            want = valid(f, nodes[i]) ? SGRT_ERR_INVALID_ARG : SGRT_ERR_STALE_HANDLE;
        }
    }
    uint32_t out_bad = UINT32_MAX;
    const uint64_t calls0 = f->fa.calls;
    f->log_errors = 0;
    const sgrt_result rc =
        trs ? sgrt_nodes_set_trs(f->s, k, nodes, t[0], q[0],
                                 sc[0], &out_bad)
            : sgrt_nodes_set_local(f->s, k, nodes, m[0], &out_bad);
    ENSURE(f->fa.calls == calls0, "a batch write allocated");
    if (bad < k) {
        ENSURE(rc == want && out_bad == bad, "batch refused with %s at %u, expected %s at %u",
               sgrt_result_str(rc), out_bad, sgrt_result_str(want), bad);
        expect_one_report(f, want, trs ? "sgrt_nodes_set_trs" : "sgrt_nodes_set_local",
                          nodes[bad]);
    } else {
        ENSURE(rc == SGRT_OK && out_bad == UINT32_MAX, "batch: %s (out_bad %u)",
               sgrt_result_str(rc), out_bad);
        ENSURE(f->log_errors == 0, "a batch that was not refused reported %u errors",
               f->log_errors);
    }
    if (trace > 0 && bad < k)
        fprintf(stderr, "     batch refused at entry %u of %u: %s\n", bad, k,
                sgrt_result_str(want));
    /* The prefix, as its single calls. */
    for (uint32_t i = 0; i < bad; i++)
        apply_local(f, nodes[i], m[i], SGRT_OK, true);
    expect_locals(f, nodes, k, trs ? "sgrt_nodes_set_trs" : "sgrt_nodes_set_local");
    /* Verified after the call: the last entry written and the refused one. */
    f->touched[0] = bad ? nodes[bad - 1u].id : 0u;
    f->touched[1] = bad < k ? nodes[bad].id : 0u;
}

/* An executor that runs the tasks on the calling thread in an order drawn
 * from the input: the parallel update must not depend on the order. */
typedef struct shuffle_exec {
    uint32_t seed;
    uint32_t runs;
    fscene *f;
} shuffle_exec;

/* Calls into the scene from the executor while the tasks are handed out
 * (run has not returned): each refused with EXECUTOR and reported, nothing
 * changed (the models, unchanged, are compared after the update). The
 * update's own reports are counted as if these were not made. */
static void poke_busy(fscene *f)
{
    const uint32_t errors = f->log_errors;
    const sgrt_log_entry last = f->log_last;
    const sgrt_node any = {ref_model_count(f->m) ? ref_model_nth(f->m, 0) : 0u};
    const double o[3] = {f->origin[0] + 1.0, f->origin[1], f->origin[2]};
    double a[3], w[16];
    ENSURE(sgrt_scene_set_origin(f->s, o) == SGRT_ERR_EXECUTOR &&
               sgrt_node_set_anchor(f->s, any, o) == SGRT_ERR_EXECUTOR &&
               sgrt_node_anchor(f->s, any, a) == SGRT_ERR_EXECUTOR &&
               sgrt_node_world_double(f->s, any, w) == SGRT_ERR_EXECUTOR,
           "a large-world call from the executor was not refused");
    ENSURE(f->log_errors == errors + 4u && f->log_last.code == SGRT_ERR_EXECUTOR,
           "%u reports of the calls from the executor, expected 4", f->log_errors - errors);
    f->log_errors = errors;
    f->log_last = last;
    if (trace > 0)
        fprintf(stderr, "     the executor's calls into the scene were refused\n");
}

static void shuffle_run(void *user, uint32_t count, void (*fn)(void *ctx, uint32_t i), void *ctx)
{
    shuffle_exec *e = user;
    /* With a seed of 3 mod 4, the first run calls into the scene first. */
    if (e->f && e->runs == 0 && e->seed % 4u == 3u)
        poke_busy(e->f);
    uint32_t order[256];
    ENSURE(count <= 256, "parallel update asked for %u tasks", count);
    for (uint32_t i = 0; i < count; i++)
        order[i] = i;
    for (uint32_t i = count; i > 1; i--) {
        e->seed = e->seed * 1664525u + 1013904223u;
        const uint32_t k = (e->seed >> 8) % i, t = order[i - 1];
        order[i - 1] = order[k];
        order[k] = t;
    }
    for (uint32_t i = 0; i < count; i++)
        fn(ctx, order[i]);
    e->runs++;
}

/* The previous world of a live node over one update (before its world
 * takes the new value): recomputed, it keeps the world before (a new node:
 * its first world); not recomputed after being recomputed by the last
 * update, it catches up with its world, a change trackers report. */
static void prev_step(fscene *f, shadow_node *e, bool recomputed)
{
    if (!f->prev_on)
        return;
    e->prev_loose = false;
    if (recomputed) {
        if (!e->fresh && f->origin_moves) {
            /* The origin moved since the last update: the world before,
             * in the new origin's frame (shifted by the old origin minus
             * the new, as a root's world by its anchor's offset). Bit for
             * bit after one move; after several, within the rounding of
             * the values involved (the world, the shift and the world
             * shifted, not the origins passed through on the way). */
            double shift[3];
            for (int a = 0; a < 3; a++)
                shift[a] = f->origin_then[a] - f->origin[a];
            model_anchored(e->world, shift, e->prev);
            e->prev_loose = f->origin_moves > 1u;
            for (int j = 0; e->prev_loose && j < 4; j++)
                for (int i = 0; i < 4; i++) {
                    const double w = e->world[4 * j + i], w3 = e->world[4 * j + 3];
                    const double big = fabs((double)e->prev[4 * j + i]) + fabs(w) +
                                       (i < 3 ? fabs(shift[i] * w3) : 0.0);
                    e->prev_slack[4 * j + i] =
                        (float)(0x1p-22 * big + 0x1p-30 * fabs(w3) + 0x1p-149);
                }
        } else {
            memcpy(e->prev, e->fresh ? e->now : e->world, sizeof e->prev);
        }
        e->moved_last = !e->fresh;
        e->fresh = false;
    } else if (e->moved_last) {
        memcpy(e->prev, e->world, sizeof e->prev);
        e->moved_last = false;
        if (any_tracker(f))
            note_slot(f, slot_of(f->s, (sgrt_node){e->id}));
    }
}

/* The world box the update gives a node whose world was recomputed or
 * whose box was set: the reference's, from its new world. */
static void box_step(shadow_node *e)
{
    e->box_valid = e->box_has;
    e->box_set = false;
    if (!e->box_has)
        return;
    float c[3], x[3];
    memcpy(c, e->box_c, sizeof c);
    memcpy(x, e->box_e, sizeof x);
    const sgrt__bounds_view one = {{&c[0], &c[1], &c[2]}, {&x[0], &x[1], &x[2]},
                                   {&e->box_lo[0], &e->box_lo[1], &e->box_lo[2]},
                                   {&e->box_hi[0], &e->box_hi[1], &e->box_hi[2]}, NULL};
    sgrt__box_ref(&one, e->world, 0);
}

/* After an update, every subtree box is its node's own world box joined
 * with its children's subtree boxes (so, from the leaves up, the exact join
 * of its members'); they are kept as the model's until the next update. */
static void subtree_step(fscene *f)
{
    const uint32_t count = ref_model_count(f->m);
    uint32_t kids[64], *many = NULL;
    for (uint32_t k = 0; k < count; k++) {
        const uint32_t id = ref_model_nth(f->m, k);
        const shadow_node *e = sh_get(f, id);
        float lo[3], hi[3], cl[3], ch[3];
        if (e->box_valid) {
            memcpy(lo, e->box_lo, sizeof lo);
            memcpy(hi, e->box_hi, sizeof hi);
        } else {
            set_empty(lo, hi);
        }
        const uint32_t nc = ref_model_child_count(f->m, id);
        uint32_t *c = kids;
        if (nc > 64u) {
            many = realloc(many, (size_t)nc * sizeof *many);
            if (!many)
                die("host out of memory");
            c = many;
        }
        ref_model_children(f->m, id, c);
        for (uint32_t j = 0; j < nc; j++) {
            ENSURE(sgrt_node_subtree_bounds(f->s, (sgrt_node){c[j]}, cl, ch) == SGRT_OK,
                   "subtree bounds");
            for (int a = 0; a < 3; a++) {
                lo[a] = cl[a] < lo[a] ? cl[a] : lo[a];
                hi[a] = ch[a] > hi[a] ? ch[a] : hi[a];
            }
        }
        ENSURE(sgrt_node_subtree_bounds(f->s, (sgrt_node){id}, cl, ch) == SGRT_OK, "subtree bounds");
        for (int a = 0; a < 3; a++)
            ENSURE(cl[a] == lo[a] && ch[a] == hi[a],
                   "subtree box of 0x%08x is not its box joined with its children's", id);
    }
    free(many);
    for (uint32_t k = 0; k < count; k++) {
        shadow_node *e = sh_get(f, ref_model_nth(f->m, k));
        ENSURE(sgrt_node_subtree_bounds(f->s, (sgrt_node){e->id}, e->sub_lo, e->sub_hi) == SGRT_OK,
               "subtree bounds");
    }
}

/* again: a second update right after, which must recompute nothing.
 * Returns what the (first) update recomputed. */
static uint32_t do_update_with(fscene *f, const sgrt_executor *ex, bool again)
{
    const uint32_t want = ref_model_pending(f->m);
    /* The float model computes every new world before marks are cleared;
     * the update reads the locals of the nodes it recomputes, and repairs
     * (counts, reports) those written in place that are not finite. */
    const uint32_t count = ref_model_count(f->m);
    const bool tracked = any_tracker(f);
    uint32_t repairs = 0, first_slot = UINT32_MAX;
    sgrt_node first = SGRT_NULL_NODE;
    for (uint32_t k = 0; k < count; k++) {
        const uint32_t id = ref_model_nth(f->m, k);
        (void)shadow_now(f, id);
        const shadow_node *e = sh_get(f, id);
        /* A box set alone changes the slot too. */
        if (tracked && (e->dirty || e->box_set))
            note_slot(f, slot_of(f->s, (sgrt_node){id}));
        if (e->dirty && e->has_raw && !finite16(e->raw)) {
            const uint32_t sl = slot_of(f->s, (sgrt_node){id});
            repairs++;
            if (sl < first_slot)
                first_slot = sl, first.id = id;
        }
    }
    const uint64_t calls0 = f->fa.calls;
    f->log_errors = 0;
    const uint32_t got = ex ? sgrt_scene_update_parallel(f->s, ex) : sgrt_scene_update(f->s);
    ENSURE(f->fa.calls == calls0, "update allocated");
    ENSURE(got == want, "update recomputed %u, model %u", got, want);
    ENSURE(ref_model_update(f->m) == want, "model update count");
    sgrt_node got_first = {0xA5A5A5A5u};
    const uint32_t got_repairs = sgrt_scene_nonfinite_locals(f->s, &got_first);
    ENSURE(got_repairs == repairs && got_first.id == first.id,
           "the update repaired %u non-finite locals, first 0x%08x; model %u, first 0x%08x",
           got_repairs, got_first.id, repairs, first.id);
    ENSURE(sgrt_scene_nonfinite_locals(f->s, NULL) == repairs, "nonfinite_locals(NULL out)");
    const char *fn = ex ? "sgrt_scene_update_parallel" : "sgrt_scene_update";
    f->repairs = repairs;
    f->repaired_first = first;
    if (trace > 0 && repairs)
        fprintf(stderr, "     %s repaired %u non-finite locals, first 0x%08x\n", fn, repairs,
                first.id);
    if (repairs)
        expect_one_report(f, SGRT_ERR_INVALID_ARG, fn, first);
    else
        ENSURE(f->log_errors == 0, "%s repaired nothing and reported %u errors", fn,
               f->log_errors);
    for (uint32_t k = 0; k < count; k++) {
        shadow_node *e = sh_get(f, ref_model_nth(f->m, k));
        prev_step(f, e, e->dirty);
        memcpy(e->world, e->now, sizeof e->world);
        e->marked = false;
        if (e->dirty) /* read: storage holds the model's local now */
            e->has_raw = false;
        if (e->dirty || e->box_set)
            box_step(e);
    }
    if (f->subtree_on)
        subtree_step(f);
    memcpy(f->origin_then, f->origin, sizeof f->origin_then);
    f->origin_moves = 0;
    f->stamp++;
    if (again) {
        f->log_errors = 0;
        ENSURE(sgrt_scene_update(f->s) == 0, "a second update recomputed something");
        ENSURE(sgrt_scene_nonfinite_locals(f->s, &got_first) == 0 && got_first.id == 0,
               "a second update repaired %u non-finite locals",
               sgrt_scene_nonfinite_locals(f->s, NULL));
        ENSURE(f->log_errors == 0, "a second update reported %u errors", f->log_errors);
        f->repairs = 0;
        f->repaired_first = SGRT_NULL_NODE;
        for (uint32_t k = 0; k < count; k++)
            prev_step(f, sh_get(f, ref_model_nth(f->m, k)), false);
    }
    /* Double-precision cross-check where its bound holds: every node of a
     * scene up to 64, a spread of about 32 past it, as world_now's is
     * sampled (each world is held bit for bit to the float model above,
     * which is what the double check vouches for; O(depth) per node). */
    const uint32_t double_step = count <= 64u ? 1u : count / 32u;
    for (uint32_t k = 0; k < count; k += double_step) {
        const uint32_t id = ref_model_nth(f->m, k);
        check_double(f, id, sh_get(f, id)->world, false, "world");
    }
    return got;
}

static uint32_t do_update(fscene *f, bool again) { return do_update_with(f, NULL, again); }

static void do_update_parallel(fscene *f, reader *r)
{
    shuffle_exec e = {u8(r), 0, f};
    const sgrt_executor ex = {shuffle_run, &e, 1u + u8(r) % 70u};
    do_update_with(f, &ex, true);
}

static void do_read(fscene *f, sgrt_node h)
{
    const uint64_t calls0 = f->fa.calls;
    float m[16];
    sgrt_node o;
    uint64_t u;
    uint32_t sl;
    const sgrt_result want = valid(f, h) ? SGRT_OK : SGRT_ERR_STALE_HANDLE;
    ENSURE(sgrt_node_alive(f->s, h) == (want == SGRT_OK), "alive(0x%08x)", h.id);
    ENSURE(sgrt_node_local(f->s, h, m) == want, "local(0x%08x)", h.id);
    const sgrt_result wrc = sgrt_node_world(f->s, h, m);
    ENSURE(want == SGRT_OK ? world_rc_ok(f, h.id, wrc) : wrc == want, "world(0x%08x): %s", h.id,
           sgrt_result_str(wrc));
    ENSURE(sgrt_node_world_now(f->s, h, m) == want, "world_now(0x%08x)", h.id);
    if (want == SGRT_OK) {
        ENSURE(same_matrix(m, shadow_now(f, h.id)), "world_now of 0x%08x", h.id);
        check_double(f, h.id, m, true, "world_now");
    }
    double wd[16];
    ENSURE(sgrt_node_world_double(f->s, h, wd) == want, "world_double(0x%08x)", h.id);
    if (want == SGRT_OK)
        check_world_double(f, h.id, wd);
    ENSURE(sgrt_node_parent(f->s, h, &o) == want, "parent(0x%08x)", h.id);
    ENSURE(sgrt_node_first_child(f->s, h, &o) == want, "first_child(0x%08x)", h.id);
    ENSURE(sgrt_node_next_sibling(f->s, h, &o) == want, "next_sibling(0x%08x)", h.id);
    ENSURE(sgrt_node_user(f->s, h, &u) == want, "user(0x%08x)", h.id);
    ENSURE(sgrt_node_slot(f->s, h, &sl) == want, "slot(0x%08x)", h.id);
    ENSURE(f->fa.calls == calls0, "a read allocated");
}

static void do_user(fscene *f, sgrt_node h, uint64_t v)
{
    const uint64_t calls0 = f->fa.calls;
    const sgrt_result rc = sgrt_node_set_user(f->s, h, v);
    ENSURE(f->fa.calls == calls0, "set_user allocated");
    if (!valid(f, h)) {
        ENSURE(rc == SGRT_ERR_STALE_HANDLE, "set_user of a bad handle: %s", sgrt_result_str(rc));
        return;
    }
    ENSURE(rc == SGRT_OK, "set_user: %s", sgrt_result_str(rc));
    f->touched[0] = h.id;
    sh_get(f, h.id)->user = v;
}

static void do_reserve(fscene *f, reader *r)
{
    const uint8_t k = u8(r);
    const uint32_t max = f->max_nodes ? f->max_nodes : SGRT_MAX_NODES;
    uint32_t n;
    switch (k % 5u) {
    case 0: n = u16(r) % 3000u; break;
    case 1: n = f->max_nodes ? f->max_nodes + (u8(r) % 3u) : u16(r) % 3000u; break;
    case 2: n = UINT32_MAX; break;
    case 3: n = SGRT_MAX_NODES + 1u; break;
    default: n = ref_model_count(f->m) + (u8(r) % 64u); break;
    }
    f->fa.fired = false;
    const uint64_t calls0 = f->fa.calls;
    const sgrt_result rc = sgrt_scene_reserve(f->s, n);
    after_alloc_call(f, rc, calls0);
    if (n > max) {
        ENSURE(rc == SGRT_ERR_CAPACITY, "reserve(%u) above max: %s", n, sgrt_result_str(rc));
    } else {
        ENSURE(rc == SGRT_OK || (rc == SGRT_ERR_NOMEM && f->fa.fired), "reserve(%u): %s", n,
               sgrt_result_str(rc));
        if (rc == SGRT_OK) {
            const uint32_t count = ref_model_count(f->m);
            f->reserve_budget = n > count ? n - count : 0u;
        }
    }
    expect_unchanged(f, SGRT_NULL_NODE, SGRT_NULL_NODE);
}

static void do_compact(fscene *f)
{
    const uint32_t count = ref_model_count(f->m);
    uint32_t *before = malloc((size_t)(count ? count : 1u) * sizeof *before);
    if (!before)
        die("host out of memory");
    for (uint32_t k = 0; k < count; k++)
        before[k] = slot_of(f->s, (sgrt_node){ref_model_nth(f->m, k)});
    f->fa.fired = false;
    const uint64_t calls0 = f->fa.calls;
    const sgrt_result rc = sgrt_scene_compact(f->s);
    after_alloc_call(f, rc, calls0);
    if (rc == SGRT_OK) {
        /* Compaction reports every live slot, before and after. */
        for (uint32_t k = 0; k < count; k++) {
            note_slot(f, before[k]);
            note_slot(f, slot_of(f->s, (sgrt_node){ref_model_nth(f->m, k)}));
        }
    }
    free(before);
    ENSURE(rc == SGRT_OK || (rc == SGRT_ERR_NOMEM && f->fa.fired), "compact: %s",
           sgrt_result_str(rc));
    if (rc == SGRT_OK)
        f->reserve_budget = 0; /* documented for appends after the current nodes only */
    /* Handles, locals, worlds and pending work are all kept. */
    verify(f, true);
}

/* Every entry point with NULL or out-of-range arguments. */
static void do_bad_args(fscene *f, const fscene *other, reader *r)
{
    const sgrt_node h = rd_handle(f, other, r);
    float m[16];
    memcpy(m, IDENTITY, sizeof m);
    const uint64_t calls0 = f->fa.calls;
    sgrt_node o;
    uint64_t u;
    uint32_t sl = 7;
    ENSURE(sgrt_node_create(NULL, h, &o) == SGRT_ERR_INVALID_ARG, "create(NULL)");
    ENSURE(sgrt_node_destroy(NULL, h) == SGRT_ERR_INVALID_ARG, "destroy(NULL)");
    ENSURE(!sgrt_node_alive(NULL, h), "alive(NULL)");
    ENSURE(sgrt_node_parent(NULL, h, &o) == SGRT_ERR_INVALID_ARG, "parent(NULL)");
    ENSURE(sgrt_node_first_child(NULL, h, &o) == SGRT_ERR_INVALID_ARG, "first_child(NULL)");
    ENSURE(sgrt_node_next_sibling(NULL, h, &o) == SGRT_ERR_INVALID_ARG, "next_sibling(NULL)");
    ENSURE(sgrt_node_set_parent(NULL, h, h, SGRT_KEEP_LOCAL) == SGRT_ERR_INVALID_ARG,
           "set_parent(NULL)");
    ENSURE(sgrt_node_set_local(NULL, h, m) == SGRT_ERR_INVALID_ARG, "set_local(NULL)");
    ENSURE(sgrt_node_set_trs(NULL, h, m, m, m) == SGRT_ERR_INVALID_ARG, "set_trs(NULL)");
    ENSURE(sgrt_node_local(NULL, h, m) == SGRT_ERR_INVALID_ARG, "local(NULL)");
    ENSURE(sgrt_node_world(NULL, h, m) == SGRT_ERR_INVALID_ARG, "world(NULL)");
    ENSURE(sgrt_node_world_now(NULL, h, m) == SGRT_ERR_INVALID_ARG, "world_now(NULL)");
    ENSURE(sgrt_scene_update(NULL) == 0, "update(NULL)");
    o.id = 0xA5A5A5A5u;
    ENSURE(sgrt_scene_nonfinite_locals(NULL, &o) == 0 && o.id == 0 &&
               sgrt_scene_nonfinite_locals(NULL, NULL) == 0,
           "nonfinite_locals(NULL)");
    ENSURE(sgrt_scene_node_count(NULL) == 0, "node_count(NULL)");
    ENSURE(sgrt_scene_reserve(NULL, 1) == SGRT_ERR_INVALID_ARG, "reserve(NULL)");
    ENSURE(sgrt_scene_compact(NULL) == SGRT_ERR_INVALID_ARG, "compact(NULL)");
    ENSURE(sgrt_scene_check(NULL, NULL) == SGRT_ERR_INVALID_ARG, "check(NULL)");
    ENSURE(sgrt_scene_create(NULL, NULL) == SGRT_ERR_INVALID_ARG, "scene_create(.., NULL)");
    ENSURE(sgrt_node_set_user(NULL, h, 1) == SGRT_ERR_INVALID_ARG, "set_user(NULL)");
    ENSURE(sgrt_node_user(NULL, h, &u) == SGRT_ERR_INVALID_ARG, "user(NULL)");
    ENSURE(sgrt_node_slot(NULL, h, &sl) == SGRT_ERR_INVALID_ARG, "slot(NULL)");
    ENSURE(sgrt_scene_slot_node(NULL, 0).id == 0, "slot_node(NULL)");
    ENSURE(sgrt_scene_world_array(NULL, &sl) == NULL && sl == 0, "world_array(NULL)");
    ENSURE(sgrt_node_set_bounds(NULL, h, m, m) == SGRT_ERR_INVALID_ARG, "set_bounds(NULL)");
    ENSURE(sgrt_node_clear_bounds(NULL, h) == SGRT_ERR_INVALID_ARG, "clear_bounds(NULL)");
    ENSURE(sgrt_node_world_bounds(NULL, h, m, m) == SGRT_ERR_INVALID_ARG, "world_bounds(NULL)");
    ENSURE(sgrt_scene_cull(NULL, m, 1, SGRT_NULL_NODESET, SGRT_NULL_NODESET, NULL) ==
               SGRT_ERR_INVALID_ARG,
           "cull(NULL)");
    double d3[3] = {0.0, 0.0, 0.0}, d16[16];
    ENSURE(sgrt_node_set_anchor(NULL, h, d3) == SGRT_ERR_INVALID_ARG &&
               sgrt_node_anchor(NULL, h, d3) == SGRT_ERR_INVALID_ARG &&
               sgrt_scene_set_origin(NULL, d3) == SGRT_ERR_INVALID_ARG &&
               sgrt_scene_origin(NULL, d3) == SGRT_ERR_INVALID_ARG &&
               sgrt_node_world_double(NULL, h, d16) == SGRT_ERR_INVALID_ARG,
           "large-world calls (NULL)");
    sgrt_scene_destroy(NULL);

    /* NULL outputs and inputs on a real scene: INVALID_ARG, or STALE_HANDLE
     * when the handle is bad too. */
    const bool hv = valid(f, h);
#define BAD(call)                                                                      \
    do {                                                                               \
        const sgrt_result rc_ = (call);                                                \
        ENSURE(rc_ == SGRT_ERR_INVALID_ARG || (!hv && rc_ == SGRT_ERR_STALE_HANDLE),   \
               "%s returned %s", #call, sgrt_result_str(rc_));                          \
    } while (0)
    BAD(sgrt_node_parent(f->s, h, NULL));
    BAD(sgrt_node_first_child(f->s, h, NULL));
    BAD(sgrt_node_next_sibling(f->s, h, NULL));
    BAD(sgrt_node_local(f->s, h, NULL));
    BAD(sgrt_node_world(f->s, h, NULL));
    BAD(sgrt_node_world_now(f->s, h, NULL));
    BAD(sgrt_node_set_local(f->s, h, NULL));
    BAD(sgrt_node_set_trs(f->s, h, NULL, m, m));
    BAD(sgrt_node_set_trs(f->s, h, m, NULL, m));
    BAD(sgrt_node_set_trs(f->s, h, m, m, NULL));
    BAD(sgrt_node_user(f->s, h, NULL));
    BAD(sgrt_node_slot(f->s, h, NULL));
    BAD(sgrt_node_set_anchor(f->s, h, NULL));
    BAD(sgrt_node_anchor(f->s, h, NULL));
    BAD(sgrt_node_world_double(f->s, h, NULL));
    BAD(sgrt_scene_set_origin(f->s, NULL));
    BAD(sgrt_scene_origin(f->s, NULL));
#undef BAD
    /* Batches: NULL arrays with entries (and a NULL scene) are argument
     * errors that change nothing and leave *out_bad alone; with no entries
     * they are fine. */
    uint32_t ob = 7;
    ENSURE(sgrt_nodes_set_local(f->s, 1, NULL, m, &ob) == SGRT_ERR_INVALID_ARG &&
               sgrt_nodes_set_local(f->s, 1, &h, NULL, &ob) == SGRT_ERR_INVALID_ARG &&
               sgrt_nodes_set_local(NULL, 1, &h, m, &ob) == SGRT_ERR_INVALID_ARG &&
               sgrt_nodes_set_trs(f->s, 1, &h, m, NULL, m, &ob) == SGRT_ERR_INVALID_ARG &&
               sgrt_nodes_set_trs(f->s, 1, NULL, m, m, m, &ob) == SGRT_ERR_INVALID_ARG && ob == 7,
           "a batch with a NULL array or scene (out_bad %u)", ob);
    ENSURE(sgrt_nodes_set_local(f->s, 0, NULL, NULL, &ob) == SGRT_OK &&
               sgrt_nodes_set_trs(f->s, 0, NULL, NULL, NULL, NULL, &ob) == SGRT_OK && ob == 7,
           "an empty batch with NULL arrays (out_bad %u)", ob);
    ENSURE(f->fa.calls == calls0, "a rejected call allocated");
    do_create(f, other, h, true);
    const int r_int = (int)(int8_t)u8(r);
    ENSURE(sgrt_result_str((sgrt_result)r_int) != NULL, "result_str(%d)", r_int);
    ENSURE(sgrt_simd_name() != NULL, "simd_name");
    expect_unchanged(f, h, SGRT_NULL_NODE);
}

static void do_slots(fscene *f, reader *r)
{
    uint32_t count = 0;
    (void)sgrt_scene_world_array(f->s, &count);
    /* Reads in separate statements: an initializer list's order is not
     * specified. */
    const uint32_t p0 = u16(r), p1 = u32(r);
    const uint32_t probes[4] = {p0, p1, count ? count - 1u : 0u, count};
    for (int i = 0; i < 4; i++) {
        const sgrt_node n = sgrt_scene_slot_node(f->s, probes[i]);
        if (!n.id)
            continue;
        ENSURE(ref_model_alive(f->m, n.id), "slot_node(%u) = dead 0x%08x", probes[i], n.id);
        uint32_t sl = ~0u;
        ENSURE(sgrt_node_slot(f->s, n, &sl) == SGRT_OK && sl == probes[i], "slot round trip");
    }
}


/* ---- trackers and node sets ------------------------------------------------------ */

/* An object argument: one of this scene's (idx >= 0), one of the other
 * scene's, this scene's last destroyed one of the kind (refused: its memory
 * is never read), or zero (idx -1 for all but the first). */
static sgrt_tracker pick_tracker(fscene *f, const fscene *other, reader *r, int *idx)
{
    const uint8_t k = u8(r) % 6u;
    *idx = -1;
    if (k < NOBJ) {
        if (f->tr[k].id)
            *idx = (int)k;
        return f->tr[k];
    }
    if (k == 3)
        for (int j = 0; j < NOBJ; j++)
            if (other->tr[j].id)
                return other->tr[j];
    if (k == 4)
        return (sgrt_tracker){f->dead_tr};
    if (k == 5 && f->tr[0].id) {
        *idx = 0;
        return f->tr[0];
    }
    return SGRT_NULL_TRACKER;
}

static sgrt_nodeset pick_set(fscene *f, const fscene *other, reader *r, int *idx)
{
    const uint8_t k = u8(r) % 6u;
    *idx = -1;
    if (k < NOBJ) {
        if (f->ns[k].id)
            *idx = (int)k;
        return f->ns[k];
    }
    if (k == 3)
        for (int j = 0; j < NOBJ; j++)
            if (other->ns[j].id)
                return other->ns[j];
    if (k == 4)
        return (sgrt_nodeset){f->dead_ns};
    if (k == 5 && f->ns[0].id) {
        *idx = 0;
        return f->ns[0];
    }
    return SGRT_NULL_NODESET;
}

static void do_tracker_create(fscene *f, reader *r)
{
    const int k = (int)(u8(r) % NOBJ);
    if (f->tr[k].id)
        return;
    const sgrt_tracker sentinel = {64};
    sgrt_tracker t = sentinel;
    f->fa.fired = false;
    const uint64_t calls0 = f->fa.calls;
    const sgrt_result rc = sgrt_tracker_create(f->s, &t);
    after_alloc_call(f, rc, calls0);
    if (rc != SGRT_OK) {
        ENSURE(rc == SGRT_ERR_NOMEM && t.id == sentinel.id, "tracker_create: %s",
               sgrt_result_str(rc));
        expect_unchanged(f, SGRT_NULL_NODE, SGRT_NULL_NODE);
        return;
    }
    f->tr[k] = t;
    if (f->tp[k])
        memset(f->tp[k], 0, f->tp_words[k] * sizeof *f->tp[k]);
    uint32_t count = 0;
    (void)sgrt_scene_world_array(f->s, &count);
    for (uint32_t sl = 0; sl < count; sl++) /* a new consumer has seen nothing */
        tp_set(f, k, sl);
}

static void do_tracker_destroy(fscene *f, const fscene *other, reader *r)
{
    int k;
    sgrt_tracker t = pick_tracker(f, other, r, &k);
    const sgrt_result rc = sgrt_tracker_destroy(f->s, t);
    /* Another scene's, or destroyed already: refused. */
    ENSURE(rc == (k >= 0 || !t.id ? SGRT_OK : SGRT_ERR_INVALID_ARG), "tracker_destroy: %s",
           sgrt_result_str(rc));
    if (k >= 0) {
        f->dead_tr = t.id;
        f->tr[k].id = 0;
    }
}

static const uint32_t max_choices[4] = {0u, 1u, 3u, 1000u};
static const uint32_t gap_choices[5] = {0u, 1u, 2u, 40u, UINT32_MAX};

/* Checks ranges of one collect call against the model's pending set. */
static void check_ranges(const fscene *f, int k, const sgrt_range *rg, uint32_t n, uint32_t gap,
                         uint32_t limit, uint32_t *end_prev)
{
    for (uint32_t i = 0; i < n; i++) {
        ENSURE(rg[i].count > 0, "empty range");
        ENSURE(rg[i].first >= *end_prev, "ranges overlap or go backwards");
        ENSURE((uint64_t)rg[i].first + rg[i].count <= limit, "range past the slot count");
        if (i > 0)
            ENSURE((uint64_t)rg[i].first - (rg[i - 1].first + rg[i - 1].count) > gap,
                   "two ranges within the merge gap were not merged");
        const uint32_t last = rg[i].first + rg[i].count - 1u;
        ENSURE(tp_get(f, k, rg[i].first) && tp_get(f, k, last),
               "range [%u, %u] does not start and end at changed slots", rg[i].first, last);
        uint32_t run = 0;
        for (uint32_t sl = rg[i].first; sl <= last; sl++) {
            run = tp_get(f, k, sl) ? 0u : run + 1u;
            ENSURE(run <= gap, "range spans %u unchanged slots, gap %u", run, gap);
        }
        *end_prev = last + 1u;
    }
}

static void do_collect(fscene *f, const fscene *other, reader *r)
{
    int k;
    sgrt_tracker t = pick_tracker(f, other, r, &k);
    const uint32_t max = max_choices[u8(r) % 4u];
    const uint32_t gap = gap_choices[u8(r) % 5u];
    const bool null_out = (u8(r) & 7u) == 0;
    sgrt_range rg[1000];
    const uint64_t calls0 = f->fa.calls;
    uint32_t limit = 0;
    (void)sgrt_scene_world_array(f->s, &limit);
    uint32_t got = 7;
    bool more = true;
    if (k < 0 || (null_out && max > 0)) {
        ENSURE(sgrt_tracker_collect(f->s, t, null_out ? NULL : rg, max, gap, &got, &more) ==
                       SGRT_ERR_INVALID_ARG &&
                   got == 0 && !more,
               "collect with a bad argument");
        ENSURE(f->fa.calls == calls0, "collect allocated");
        return;
    }
    /* The first pending slot below the limit, in word order. */
    uint32_t first = UINT32_MAX;
    for (uint32_t sl = 0; sl < limit; sl++)
        if (tp_get(f, k, sl)) {
            first = sl;
            break;
        }
    if (max == 0) {
        ENSURE(sgrt_tracker_collect(f->s, t, null_out ? NULL : rg, 0, gap, &got, &more) ==
                   SGRT_OK,
               "collect(max 0) refused");
        ENSURE(got == 0 && more == (first != UINT32_MAX), "collect(max 0): %u, more %d", got,
               (int)more);
        /* Words up to the first pending one were scanned: slots at or past
         * the limit in them were dropped. */
        const uint32_t scanned_end = first == UINT32_MAX ? UINT32_MAX : (first / 32u + 1u) * 32u;
        for (uint32_t sl = limit; sl < f->tp_words[k] * 32u && sl < scanned_end; sl++)
            tp_clear(f, k, sl);
        ENSURE(f->fa.calls == calls0, "collect allocated");
        return;
    }
    /* Drain: every pending slot below the limit exactly once, in order. */
    uint32_t end_prev = 0, calls = 0;
    for (;;) {
        ENSURE(sgrt_tracker_collect(f->s, t, rg, max, gap, &got, &more) == SGRT_OK,
               "collect refused");
        ENSURE(got <= max, "collect wrote %u ranges for max %u", got, max);
        const uint32_t n = got;
        check_ranges(f, k, rg, n, gap, limit, &end_prev);
        for (uint32_t i = 0; i < n; i++)
            for (uint32_t sl = rg[i].first; sl < rg[i].first + rg[i].count; sl++)
                tp_clear(f, k, sl);
        ENSURE(++calls <= limit + 2u, "collect does not drain");
        ENSURE(!more || got == max, "more pending with room left: %u of %u", got, max);
        if (!more)
            break;
    }
    for (uint32_t sl = 0; sl < f->tp_words[k] * 32u; sl++)
        ENSURE(sl >= limit || !tp_get(f, k, sl), "pending slot %u was not reported", sl);
    if (f->tp[k]) /* past the limit: dropped */
        memset(f->tp[k], 0, f->tp_words[k] * sizeof *f->tp[k]);
    ENSURE(sgrt_tracker_collect(f->s, t, rg, max, gap, &got, &more) == SGRT_OK && got == 0 &&
               !more,
           "collect after a drain");
    ENSURE(f->fa.calls == calls0, "collect allocated");
}

static void do_set_create(fscene *f, reader *r)
{
    const int k = (int)(u8(r) % NOBJ);
    if (f->ns[k].id)
        return;
    const sgrt_nodeset sentinel = {64};
    sgrt_nodeset set = sentinel;
    f->fa.fired = false;
    const uint64_t calls0 = f->fa.calls;
    const sgrt_result rc = sgrt_nodeset_create(f->s, &set);
    after_alloc_call(f, rc, calls0);
    if (rc != SGRT_OK) {
        ENSURE(rc == SGRT_ERR_NOMEM && set.id == sentinel.id, "nodeset_create: %s",
               sgrt_result_str(rc));
        expect_unchanged(f, SGRT_NULL_NODE, SGRT_NULL_NODE);
        return;
    }
    f->ns[k] = set;
    f->ns_count[k] = 0;
    for (uint32_t i = 0; i < f->sh_count; i++)
        f->sh[i].sets &= (uint8_t)~(1u << k);
    ENSURE(sgrt_nodeset_count(f->s, set) == 0, "a new set is not empty");
}

static void do_set_destroy(fscene *f, const fscene *other, reader *r)
{
    int k;
    sgrt_nodeset set = pick_set(f, other, r, &k);
    const sgrt_result rc = sgrt_nodeset_destroy(f->s, set);
    ENSURE(rc == (k >= 0 || !set.id ? SGRT_OK : SGRT_ERR_INVALID_ARG), "nodeset_destroy: %s",
           sgrt_result_str(rc));
    if (k >= 0) {
        f->dead_ns = set.id;
        f->ns[k].id = 0;
        for (uint32_t i = 0; i < f->sh_count; i++)
            f->sh[i].sets &= (uint8_t)~(1u << k);
    }
}

static void set_member(fscene *f, int k, uint32_t id, bool in)
{
    shadow_node *e = sh_get(f, id);
    const bool was = (e->sets >> k) & 1u;
    if (was == in)
        return;
    e->sets ^= (uint8_t)(1u << k);
    if (in)
        f->ns_count[k]++;
    else
        f->ns_count[k]--;
}

static void do_set_member(fscene *f, const fscene *other, reader *r)
{
    int k;
    sgrt_nodeset set = pick_set(f, other, r, &k);
    const sgrt_node h = rd_handle(f, other, r);
    const bool add = u8(r) & 1u;
    const sgrt_result rc =
        add ? sgrt_nodeset_add(f->s, set, h) : sgrt_nodeset_remove(f->s, set, h);
    if (k < 0 || !valid(f, h)) {
        ENSURE((k < 0 && rc == SGRT_ERR_INVALID_ARG) ||
                   (!valid(f, h) && rc == SGRT_ERR_STALE_HANDLE),
               "nodeset add/remove returned %s", sgrt_result_str(rc));
        ENSURE(!sgrt_nodeset_has(f->s, set, h) || (k >= 0 && valid(f, h)), "has() of a bad pair");
        return;
    }
    ENSURE(rc == SGRT_OK, "nodeset add/remove: %s", sgrt_result_str(rc));
    set_member(f, k, h.id, add);
    f->touched[0] = h.id;
}

/* Walks a set with next() and its words, and compares both with the model. */
static void do_set_query(fscene *f, const fscene *other, reader *r)
{
    int k;
    sgrt_nodeset set = pick_set(f, other, r, &k);
    uint32_t cursor = 0, wc = 7;
    if (k < 0) {
        ENSURE(sgrt_nodeset_next(f->s, set, &cursor).id == 0, "next() of a bad set");
        ENSURE(sgrt_nodeset_words(f->s, set, &wc) == NULL, "words() of a bad set");
        ENSURE(sgrt_nodeset_count(f->s, set) == 0, "count() of a bad set");
        ENSURE(sgrt_nodeset_clear(f->s, set) == SGRT_ERR_INVALID_ARG,
               "clear() of a bad set");
        return;
    }
    ENSURE(sgrt_nodeset_next(f->s, set, NULL).id == 0, "next() with NULL cursor");
    uint32_t seen = 0, prev_slot = 0;
    for (;;) {
        const sgrt_node n = sgrt_nodeset_next(f->s, set, &cursor);
        if (!n.id)
            break;
        ENSURE(valid(f, n), "next() returned a dead node");
        ENSURE((sh_get(f, n.id)->sets >> k) & 1u, "next() returned a non-member");
        const uint32_t sl = slot_of(f->s, n);
        ENSURE(seen == 0 || sl > prev_slot, "next() not in slot order");
        ENSURE(cursor == sl + 1u, "cursor after slot %u is %u", sl, cursor);
        prev_slot = sl;
        ENSURE(++seen <= f->ns_count[k], "next() returned more than the members");
    }
    ENSURE(seen == f->ns_count[k], "next() returned %u of %u members", seen, f->ns_count[k]);
    /* From any cursor: the first member at or after it. */
    const uint32_t start = u8(r) & 1u ? u32(r) : u16(r) % 4096u;
    cursor = start;
    const sgrt_node from = sgrt_nodeset_next(f->s, set, &cursor);
    uint32_t want = UINT32_MAX;
    {
        uint32_t c2 = 0;
        for (sgrt_node n = sgrt_nodeset_next(f->s, set, &c2); n.id;
             n = sgrt_nodeset_next(f->s, set, &c2))
            if (c2 - 1u >= start) {
                want = n.id;
                break;
            }
    }
    ENSURE(from.id == (want == UINT32_MAX ? 0u : want), "next() from cursor %u", start);
    uint32_t slots = 0;
    (void)sgrt_scene_world_array(f->s, &slots);
    const uint32_t *w = sgrt_nodeset_words(f->s, set, &wc);
    ENSURE(w && wc == (slots + 31u) / 32u, "words(): %u words for %u slots", wc, slots);
    uint32_t pop = 0;
    for (uint32_t i = 0; i < wc; i++) {
        uint32_t bits = w[i];
        while (bits) {
            const uint32_t sl = i * 32u + sgrt__ctz32(bits);
            bits &= bits - 1u;
            ENSURE(sl < slots, "set bit past the slot count");
            const sgrt_node n = sgrt_scene_slot_node(f->s, sl);
            ENSURE(n.id && ((sh_get(f, n.id)->sets >> k) & 1u), "words(): bit %u", sl);
            pop++;
        }
    }
    ENSURE(pop == f->ns_count[k], "words() hold %u members, model %u", pop, f->ns_count[k]);
    if (u8(r) % 4u == 0) {
        ENSURE(sgrt_nodeset_clear(f->s, f->ns[k]) == SGRT_OK, "clear");
        const uint32_t count = ref_model_count(f->m);
        for (uint32_t i = 0; i < count; i++)
            set_member(f, k, ref_model_nth(f->m, i), false);
    }
}

static bool set_apply(int op, bool a, bool b)
{
    return op == SGRT_SET_AND ? a && b : op == SGRT_SET_OR ? a || b : a && !b;
}

static void do_set_combine(fscene *f, const fscene *other, reader *r)
{
    int kd, ka, kb;
    sgrt_nodeset dst = pick_set(f, other, r, &kd);
    sgrt_nodeset a = pick_set(f, other, r, &ka), b = pick_set(f, other, r, &kb);
    const uint8_t ob = u8(r);
    const int op = ob < 252 ? ob % 3 : ob - 253; /* -1..2, and 3..: bad */
    const bool op_ok = op >= 0 && op <= 2;
    const sgrt_result rc = sgrt_nodeset_combine(f->s, dst, a, (sgrt_set_op)op, b);
    if (kd < 0 || ka < 0 || kb < 0 || !op_ok) {
        ENSURE(rc == SGRT_ERR_INVALID_ARG, "combine with bad arguments: %s",
               sgrt_result_str(rc));
        return;
    }
    ENSURE(rc == SGRT_OK, "combine: %s", sgrt_result_str(rc));
    const uint32_t count = ref_model_count(f->m);
    for (uint32_t i = 0; i < count; i++) {
        const uint32_t id = ref_model_nth(f->m, i);
        const shadow_node *e = sh_get(f, id);
        set_member(f, kd, id, set_apply(op, (e->sets >> ka) & 1u, (e->sets >> kb) & 1u));
    }
}

static void do_set_from_changes(fscene *f, const fscene *other, reader *r)
{
    int kd, kt, kb;
    sgrt_nodeset dst = pick_set(f, other, r, &kd);
    sgrt_tracker t = pick_tracker(f, other, r, &kt);
    const bool with_b = u8(r) & 1u;
    sgrt_nodeset b = with_b ? pick_set(f, other, r, &kb) : SGRT_NULL_NODESET;
    if (!with_b)
        kb = -1;
    const uint8_t ob = u8(r);
    const int op = ob < 252 ? ob % 3 : ob - 253;
    const bool op_ok = op >= 0 && op <= 2;
    const bool consume = u8(r) & 1u;
    const sgrt_result rc = sgrt_nodeset_from_changes(f->s, dst, t, (sgrt_set_op)op, b, consume);
    /* b zero means "no b", also when the fuzzer meant one but had none. */
    if (kd < 0 || kt < 0 || (b.id && (kb < 0 || !op_ok))) {
        ENSURE(rc == SGRT_ERR_INVALID_ARG, "from_changes with bad arguments: %s",
               sgrt_result_str(rc));
        return;
    }
    ENSURE(rc == SGRT_OK, "from_changes: %s", sgrt_result_str(rc));
    const uint32_t count = ref_model_count(f->m);
    bool *in = malloc((size_t)(count ? count : 1u) * sizeof *in);
    uint32_t *slots = malloc((size_t)(count ? count : 1u) * sizeof *slots);
    if (!in || !slots)
        die("host out of memory");
    for (uint32_t i = 0; i < count; i++) {
        const uint32_t id = ref_model_nth(f->m, i);
        const shadow_node *e = sh_get(f, id);
        slots[i] = slot_of(f->s, (sgrt_node){id});
        const bool changed = tp_get(f, kt, slots[i]);
        in[i] = b.id ? set_apply(op, changed, (e->sets >> kb) & 1u) : changed;
    }
    for (uint32_t i = 0; i < count; i++) {
        set_member(f, kd, ref_model_nth(f->m, i), in[i]);
        if (consume && in[i])
            tp_clear(f, kt, slots[i]);
    }
    free(in);
    free(slots);
}

/* ---- boxes and culls ------------------------------------------------------------------- */

/* A local box the library takes: finite, half extents not negative. */
static bool box_ok(const float c[3], const float x[3])
{
    for (int a = 0; a < 3; a++)
        if (!isfinite(c[a]) || !isfinite(x[a]) || x[a] < 0.0f)
            return false;
    return true;
}

static void apply_box(fscene *f, uint32_t id, const float c[3], const float x[3])
{
    shadow_node *e = sh_get(f, id);
    float h[3];
    for (int a = 0; a < 3; a++)
        h[a] = x[a] + 0.0f; /* -0 is taken as +0 */
    if (e->box_has && same3(e->box_c, c) && same3(e->box_e, h))
        return; /* bit-identical: nothing changes */
    memcpy(e->box_c, c, sizeof e->box_c);
    memcpy(e->box_e, h, sizeof e->box_e);
    e->box_has = true;
    e->box_set = true;
}

/* Set one box, a batch, clear one, or read with NULL outputs: refused as
 * the model predicts (changing nothing), else applied to the model. */
static void do_bounds(fscene *f, const fscene *other, reader *r)
{
    const uint8_t kind = u8(r);
    const uint64_t calls0 = f->fa.calls;
    if (kind % 4u == 0u) {
        const sgrt_node h = rd_handle(f, other, r);
        float c[3], x[3];
        for (int a = 0; a < 3; a++) {
            c[a] = rd_float(r);
            x[a] = rd_float(r);
            if (kind & 0x10u)
                x[a] = fabsf(x[a]);
        }
        const bool null_arg = (kind & 0xE0u) == 0xE0u;
        const sgrt_result rc = sgrt_node_set_bounds(f->s, h, null_arg ? NULL : c, x);
        const sgrt_result want = !f->bounds_on ? SGRT_ERR_INVALID_ARG
                                 : !valid(f, h) ? SGRT_ERR_STALE_HANDLE
                                 : null_arg || !box_ok(c, x) ? SGRT_ERR_INVALID_ARG
                                                             : SGRT_OK;
        ENSURE(rc == want, "set_bounds returned %s, expected %s", sgrt_result_str(rc),
               sgrt_result_str(want));
        if (rc == SGRT_OK) {
            apply_box(f, h.id, c, x);
            f->touched[0] = h.id;
        } else {
            expect_unchanged(f, h, SGRT_NULL_NODE);
        }
    } else if (kind % 4u == 1u) {
        enum { MAX_BOXES = 8 };
        const uint32_t k = u8(r) % (MAX_BOXES + 1u);
        sgrt_node nodes[MAX_BOXES] = {{0}}; /* k may be 0: nothing read, still defined */
        float c[MAX_BOXES][3] = {{0}}, x[MAX_BOXES][3] = {{0}};
        uint32_t bad = k;
        sgrt_result want = SGRT_OK;
        for (uint32_t i = 0; i < k; i++) {
            nodes[i] = rd_handle(f, other, r);
            for (int a = 0; a < 3; a++) {
                c[i][a] = rd_float(r);
                x[i][a] = fabsf(rd_float(r));
            }
            if (u8(r) == 0xFFu)
                x[i][1] = -1.0f;
            if (bad == k && !valid(f, nodes[i]))
                bad = i, want = SGRT_ERR_STALE_HANDLE;
            else if (bad == k && !box_ok(c[i], x[i]))
                bad = i, want = SGRT_ERR_INVALID_ARG;
        }
        uint32_t out_bad = UINT32_MAX;
        const sgrt_result rc = sgrt_nodes_set_bounds(f->s, k, nodes, c[0],
                                                     x[0], &out_bad);
        if (!f->bounds_on) {
            ENSURE(rc == SGRT_ERR_INVALID_ARG && out_bad == UINT32_MAX, "batch bounds: %s",
                   sgrt_result_str(rc));
        } else if (bad < k) {
            ENSURE(rc == want && out_bad == bad, "batch bounds refused with %s at %u, expected %s at %u",
                   sgrt_result_str(rc), out_bad, sgrt_result_str(want), bad);
            expect_unchanged(f, nodes[bad], SGRT_NULL_NODE);
        } else {
            ENSURE(rc == SGRT_OK && out_bad == UINT32_MAX, "batch bounds: %s", sgrt_result_str(rc));
            for (uint32_t i = 0; i < k; i++)
                apply_box(f, nodes[i].id, c[i], x[i]);
        }
    } else if (kind % 4u == 2u) {
        const sgrt_node h = rd_handle(f, other, r);
        const sgrt_result rc = sgrt_node_clear_bounds(f->s, h);
        const sgrt_result want = !f->bounds_on ? SGRT_ERR_INVALID_ARG
                                 : !valid(f, h) ? SGRT_ERR_STALE_HANDLE
                                                : SGRT_OK;
        ENSURE(rc == want, "clear_bounds returned %s, expected %s", sgrt_result_str(rc),
               sgrt_result_str(want));
        if (rc == SGRT_OK && sh_get(f, h.id)->box_has) {
            shadow_node *e = sh_get(f, h.id);
            e->box_has = false;
            e->box_set = true;
            f->touched[0] = h.id;
        }
    } else {
        const sgrt_node h = rd_handle(f, other, r);
        float v[3];
        sgrt_bounds_arrays arr;
        const bool hv = f->bounds_on && valid(f, h);
        ENSURE(sgrt_node_bounds(f->s, h, v, NULL) != SGRT_OK, "bounds read into NULL");
        ENSURE(sgrt_node_world_bounds(f->s, h, NULL, v) != SGRT_OK, "world bounds into NULL");
        ENSURE((sgrt_scene_bounds_arrays(f->s, &arr) == SGRT_OK) == f->bounds_on, "bounds arrays");
        if (f->bounds_on) {
            uint32_t count = 0;
            (void)sgrt_scene_world_array(f->s, &count);
            ENSURE(arr.slot_count == count && arr.valid, "bounds arrays: slot count");
            if (hv) {
                const uint32_t sl = slot_of(f->s, h);
                const shadow_node *e = sh_get(f, h.id);
                ENSURE(((arr.valid[sl / 32u] >> (sl % 32u)) & 1u) == e->box_valid,
                       "bounds arrays: valid bit of 0x%08x", h.id);
                if (e->box_valid)
                    ENSURE(arr.min[0][sl] == e->box_lo[0] && arr.max[2][sl] == e->box_hi[2],
                           "bounds arrays: box of 0x%08x", h.id);
            }
        }
    }
    ENSURE(f->fa.calls == calls0, "a bounds call allocated");
}

/* A cull with planes of every kind (1 to 8 of them, or a bad count), a
 * restriction set or none, into one of the scene's sets or a bad one: the
 * result holds exactly the live nodes with a box at the last update in the
 * restriction set that are not culled, every culled one lies outside a
 * plane in exact arithmetic, none clearly outside is kept, and a refusal
 * changes nothing. */
static void do_cull(fscene *f, const fscene *other, reader *r)
{
    const uint32_t count = u8(r) % 10u;
    float planes[9][4];
    bool finite = true;
    for (uint32_t k = 0; k < 9u; k++)
        for (int c = 0; c < 4; c++) {
            planes[k][c] = rd_float(r);
            finite = finite && (k >= count || isfinite(planes[k][c]));
        }
    int ko, kq = -1;
    sgrt_nodeset out = pick_set(f, other, r, &ko);
    sgrt_nodeset only = u8(r) & 1u ? pick_set(f, other, r, &kq) : SGRT_NULL_NODESET;
    sgrt_cull_stats st;
    const bool stats = u8(r) & 1u;
    const uint64_t calls0 = f->fa.calls;
    const sgrt_result rc = sgrt_scene_cull(f->s, planes[0], count, only, out,
                                           stats ? &st : NULL);
    ENSURE(f->fa.calls == calls0, "a cull allocated");
    if (!f->bounds_on || count == 0 || count > 8u || ko < 0 || (only.id && kq < 0) || !finite) {
        ENSURE(rc == SGRT_ERR_INVALID_ARG, "a bad cull returned %s", sgrt_result_str(rc));
        expect_unchanged(f, SGRT_NULL_NODE, SGRT_NULL_NODE);
        return;
    }
    ENSURE(rc == SGRT_OK, "cull: %s", sgrt_result_str(rc));
    const uint32_t live = ref_model_count(f->m);
    uint32_t members = 0;
    for (uint32_t n = 0; n < live; n++) {
        const uint32_t id = ref_model_nth(f->m, n);
        const shadow_node *e = sh_get(f, id);
        const bool in = sgrt_nodeset_has(f->s, out, (sgrt_node){id});
        const bool may = e->box_valid && (!only.id || ((e->sets >> kq) & 1u));
        members += in;
        ENSURE(!in || may, "cull kept 0x%08x, which had no box or is not in the restriction", id);
        if (may) {
            if (!(isfinite(e->box_lo[0]) && isfinite(e->box_lo[1]) && isfinite(e->box_lo[2]) &&
                  isfinite(e->box_hi[0]) && isfinite(e->box_hi[1]) && isfinite(e->box_hi[2]))) {
                ENSURE(in, "cull dropped 0x%08x, whose box is infinite", id);
            } else {
                bool outside = false, clearly = false;
                for (uint32_t k = 0; k < count; k++) {
                    double scale;
                    outside |= exact_plane_sign(planes[k], e->box_lo, e->box_hi) < 0;
                    /* The header promises the cull of a box clearly outside
                     * while |d| + |n|_1 x the box's largest coordinate
                     * stays below 2^125 (the test's float sums overflow
                     * beyond, and the box is kept). */
                    double big = fabs((double)planes[k][3]), n1 = 0.0, c = 0.0;
                    for (int a = 0; a < 3; a++) {
                        n1 += fabs((double)planes[k][a]);
                        c = fmax(c, fmax(fabs((double)e->box_lo[a]), fabs((double)e->box_hi[a])));
                    }
                    big += n1 * c;
                    clearly |= big < 0x1p125 &&
                               plane_reach(planes[k], e->box_lo, e->box_hi, &scale) <
                                   -(ldexp(scale, -19) + 0x1p-100);
                }
                ENSURE(in || outside, "cull dropped 0x%08x, which meets every plane", id);
                ENSURE(!in || !clearly, "cull kept 0x%08x, clearly outside a plane", id);
            }
        }
        set_member(f, ko, id, in);
    }
    ENSURE(sgrt_nodeset_count(f->s, out) == members, "cull result holds dead slots");
    if (stats)
        ENSURE(st.visible == members, "cull stats: %u visible, the set holds %u", st.visible, members);
}

/* ---- writers ----------------------------------------------------------------------- */

/* A writer argument: one of this scene's (idx >= 0), one of the other
 * scene's, this scene's last destroyed writer (refused: its memory is never
 * read), or zero (idx -1 for all but the first). */
static sgrt_writer pick_writer(fscene *f, const fscene *other, reader *r, int *idx)
{
    const uint8_t k = u8(r) % 6u;
    *idx = -1;
    if (k < NOBJ) {
        if (f->wr[k].w.id)
            *idx = (int)k;
        return f->wr[k].w;
    }
    if (k == 3)
        for (int j = 0; j < NOBJ; j++)
            if (other->wr[j].w.id)
                return other->wr[j].w;
    if (k == 4)
        return (sgrt_writer){f->dead_wr};
    if (k == 5 && f->wr[0].w.id) {
        *idx = 0;
        return f->wr[0].w;
    }
    return SGRT_NULL_WRITER;
}

/* Entries: handles of every kind (0 of them too), live nodes in slot
 * order, a subtree in slot order, or live nodes with repeats in any order;
 * flags 0 or a bad one (any other value: no writer options are defined);
 * NULL arguments. Refused as the models predict, changing nothing. */
static void do_writer_create(fscene *f, const fscene *other, reader *r)
{
    const int k = (int)(u8(r) % NOBJ);
    if (f->wr[k].w.id)
        return;
    const uint8_t mode = u8(r), fb = u8(r);
    const uint32_t count = ref_model_count(f->m);
    uint32_t ids[MAX_WENTRIES], n = 0;
    sgrt_node nodes[MAX_WENTRIES];
    switch (mode % 4u) {
    case 0:
        n = u8(r) % (MAX_WENTRIES + 1u);
        for (uint32_t i = 0; i < n; i++)
            ids[i] = rd_handle(f, other, r).id;
        break;
    case 1:
    case 3:
        n = count ? 1u + u8(r) % MAX_WENTRIES : 0u;
        for (uint32_t i = 0; i < n; i++)
            ids[i] = ref_model_nth(f->m, u16(r) % count);
        if (mode % 4u == 1u)
            n = ids_by_slot(f->s, ids, n);
        break;
    default: {
        const sgrt_node h = rd_handle(f, other, r);
        if (valid(f, h) && ref_model_subtree_size(f->m, h.id) <= MAX_WENTRIES) {
            uint32_t *sub = subtree_ids(f, h.id, &n);
            memcpy(ids, sub, (size_t)n * sizeof *ids);
            free(sub);
            n = ids_by_slot(f->s, ids, n);
        }
        break;
    }
    }
    /* 1 was SGRT_WRITER_WORLDS_NOW, removed: refused like any other. */
    static const uint32_t bad_flags[4] = {1u, 2u, 0x80000000u, UINT32_MAX};
    const uint32_t flags = fb % 8u < 7u ? 0u : bad_flags[(fb >> 3) % 4u];
    const bool null_nodes = (fb & 0xC0u) == 0xC0u, null_out = (fb & 0xE0u) == 0xA0u;
    bool stale = false;
    for (uint32_t i = 0; i < n; i++) {
        nodes[i].id = ids[i];
        stale |= !valid(f, nodes[i]);
    }
    const bool invalid = n == 0 || flags != 0u || null_nodes || null_out;
    const sgrt_writer sentinel = {64};
    sgrt_writer w = sentinel;
    f->fa.fired = false;
    const uint64_t calls0 = f->fa.calls;
    const sgrt_result rc = sgrt_writer_create(f->s, n, null_nodes ? NULL : nodes, flags,
                                              null_out ? NULL : &w);
    after_alloc_call(f, rc, calls0);
    if (invalid || stale || rc != SGRT_OK) {
        ENSURE((invalid && rc == SGRT_ERR_INVALID_ARG) || (stale && rc == SGRT_ERR_STALE_HANDLE) ||
                   (!invalid && !stale && rc == SGRT_ERR_NOMEM && f->fa.fired),
               "writer_create returned %s (invalid %d, stale %d)", sgrt_result_str(rc), invalid,
               stale);
        ENSURE(w.id == sentinel.id, "a refused writer_create wrote *out");
        expect_unchanged(f, n ? nodes[0] : SGRT_NULL_NODE, SGRT_NULL_NODE);
        return;
    }
    ENSURE(w.id && w.id != sentinel.id, "writer_create OK without a writer");
    f->wr[k].w = w;
    f->wr[k].count = n;
    memcpy(f->wr[k].ids, ids, (size_t)n * sizeof *ids);
}

/* Destroy: this scene's (OK; a second destroy of it right after is
 * refused: its handle names nothing any more), the other scene's or one
 * destroyed before (refused, nothing read), zero (OK). Never allocates. */
static void do_writer_destroy(fscene *f, const fscene *other, reader *r)
{
    int k;
    sgrt_writer w = pick_writer(f, other, r, &k);
    const bool again = u8(r) & 1u;
    const uint64_t calls0 = f->fa.calls;
    const sgrt_result rc = sgrt_writer_destroy(f->s, w);
    ENSURE(rc == (k >= 0 || !w.id ? SGRT_OK : SGRT_ERR_INVALID_ARG), "writer_destroy: %s",
           sgrt_result_str(rc));
    if (k >= 0) {
        f->dead_wr = w.id;
        f->wr[k].w.id = 0;
        if (again)
            ENSURE(sgrt_writer_destroy(f->s, w) == SGRT_ERR_INVALID_ARG,
                   "a destroyed writer destroyed again");
    }
    ENSURE(sgrt_writer_destroy(NULL, w) == SGRT_ERR_INVALID_ARG, "writer_destroy(NULL scene)");
    ENSURE(f->fa.calls == calls0, "writer_destroy allocated");
}

/* The first dead entry of writer k (count: none). */
static uint32_t writer_dead(const fscene *f, int k)
{
    for (uint32_t i = 0; i < f->wr[k].count; i++)
        if (!valid(f, (sgrt_node){f->wr[k].ids[i]}))
            return i;
    return f->wr[k].count;
}

/* expect_locals over entries [first, first + c) of writer k. */
static void expect_entry_locals(const fscene *f, int k, uint32_t first, uint32_t c,
                                const char *what)
{
    sgrt_node nodes[MAX_WENTRIES];
    for (uint32_t i = 0; i < c; i++)
        nodes[i].id = f->wr[k].ids[first + i];
    expect_locals(f, nodes, c, what);
}

/* One entry's TRS from the input, as OP_SET_TRS reads it. */
static void rd_trs(reader *r, float t[3], float q[4], float s[3])
{
    for (int i = 0; i < 3; i++)
        t[i] = rd_float(r);
    if (u8(r) & 1u) {
        for (int i = 0; i < 4; i++)
            q[i] = rd_float(r);
    } else { /* a unit quaternion about one axis */
        const float a = (float)u8(r) * (6.2831853f / 256.0f);
        memset(q, 0, 4 * sizeof(float));
        q[u8(r) % 3u] = sinf(a * 0.5f);
        q[3] = cosf(a * 0.5f);
    }
    for (int i = 0; i < 3; i++)
        s[i] = rd_float(r);
}

/* set_local or set_trs through a writer: refused with INVALID_ARG for a
 * writer of the other scene or NULL (out_bad untouched, nothing written),
 * with STALE_HANDLE at the first dead entry before anything is written
 * (the slots are resolved first); else the single calls in entry order,
 * stopping at the first non-finite matrix (or, in validation mode,
 * quaternion off unit length): the entries before it written, it and the
 * rest untouched, INVALID_ARG, *out_bad and the one log report naming it.
 * Never allocates. */
static void do_writer_write(fscene *f, const fscene *other, reader *r)
{
    int k;
    sgrt_writer w = pick_writer(f, other, r, &k);
    const uint8_t kind = u8(r);
    const bool trs = kind & 1u, null_in = (kind & 0x1Eu) == 0x1Eu;
    const uint32_t n = k >= 0 ? f->wr[k].count : 1u;
    float m[MAX_WENTRIES][16], t[MAX_WENTRIES][3], q[MAX_WENTRIES][4], sc[MAX_WENTRIES][3];
    uint32_t bad = n;
    for (uint32_t i = 0; i < n; i++) {
        if (trs) {
            rd_trs(r, t[i], q[i], sc[i]);
            sgrt__trs_to_mat4(t[i], q[i], sc[i], m[i]);
        } else {
            rd_matrix(f, other, r, m[i]);
        }
        if (bad == n && (!finite16(m[i]) || (trs && quat_refused(f, q[i]))))
            bad = i;
    }
    const char *fn = trs ? "sgrt_writer_set_trs" : "sgrt_writer_set_local";
    uint32_t out_bad = UINT32_MAX;
    const uint64_t calls0 = f->fa.calls;
    f->log_errors = 0;
    const sgrt_result rc =
        trs ? sgrt_writer_set_trs(f->s, w, t[0], null_in ? NULL : q[0], sc[0], &out_bad)
            : sgrt_writer_set_local(f->s, w, null_in ? NULL : m[0], &out_bad);
    ENSURE(f->fa.calls == calls0, "a writer write allocated");
    ENSURE(sgrt_writer_set_local(NULL, w, m[0], &out_bad) == SGRT_ERR_INVALID_ARG &&
               sgrt_writer_set_trs(NULL, w, t[0], q[0], sc[0], &out_bad) == SGRT_ERR_INVALID_ARG,
           "writer write on a NULL scene");
    if (k < 0 || null_in) {
        ENSURE(rc == SGRT_ERR_INVALID_ARG && out_bad == UINT32_MAX,
               "writer write with a bad writer or NULL input: %s (out_bad %u)",
               sgrt_result_str(rc), out_bad);
        expect_one_report(f, SGRT_ERR_INVALID_ARG, fn, SGRT_NULL_NODE);
        expect_unchanged(f, SGRT_NULL_NODE, SGRT_NULL_NODE);
        return;
    }
    const uint32_t dead = writer_dead(f, k);
    /* Entries written: none when one is dead, else those before the first
     * refused one. */
    const uint32_t done = dead < n ? 0u : bad;
    if (dead < n || bad < n) {
        const uint32_t at = dead < n ? dead : bad;
        const sgrt_result want = dead < n ? SGRT_ERR_STALE_HANDLE : SGRT_ERR_INVALID_ARG;
        ENSURE(rc == want && out_bad == at, "writer write refused with %s at %u, expected %s at %u",
               sgrt_result_str(rc), out_bad, sgrt_result_str(want), at);
        expect_one_report(f, want, fn, (sgrt_node){f->wr[k].ids[at]});
        f->touched[1] = f->wr[k].ids[at];
        if (trace > 0)
            fprintf(stderr, "     writer write refused at entry %u of %u: %s\n", at, n,
                    sgrt_result_str(want));
    } else {
        ENSURE(rc == SGRT_OK && out_bad == UINT32_MAX, "writer write: %s (out_bad %u)",
               sgrt_result_str(rc), out_bad);
        ENSURE(f->log_errors == 0, "a writer write that was not refused reported %u errors",
               f->log_errors);
    }
    for (uint32_t i = 0; i < done; i++)
        (void)model_set_local(f, f->wr[k].ids[i], m[i]);
    f->touched[0] = f->wr[k].ids[done ? done - 1u : 0u];
    expect_entry_locals(f, k, 0, n, fn);
}

/* A write in place into entry i's slot: storage holds m for the entry's
 * node, which nothing knows of yet (shadow_node.has_raw). */
static void write_in_place(fscene *f, int k, float *locals, const uint32_t *slots, uint32_t i,
                           const float m[16])
{
    memcpy(locals + 16u * (size_t)slots[i], m, 16 * sizeof(float));
    shadow_node *e = sh_get(f, f->wr[k].ids[i]);
    memcpy(e->raw, m, sizeof e->raw);
    e->has_raw = true;
    e->synced = false;
    note_local(f, local_as_read(m));
    f->stamp++;
}

/* Entries [first, first + c) committed: each marked whatever its bits (a
 * commit reads no local); the model takes what storage holds, the identity
 * where it is not finite (what the update will read), and storage keeps
 * those bits until the update repairs them. */
static void commit_model(fscene *f, int k, uint32_t first, uint32_t c)
{
    for (uint32_t i = first; i < first + c; i++) {
        const uint32_t id = f->wr[k].ids[i];
        shadow_node *e = sh_get(f, id);
        float m[16];
        storage_local(f, id, m);
        ref_model_commit_local(f->m, id, local_as_read(m));
        e->marked = true;
        e->has_raw = !finite16(m); /* raw holds m already when not finite */
        e->synced = true;
    }
    f->stamp++;
    if (c) {
        f->touched[0] = f->wr[k].ids[first];
        f->touched[1] = f->wr[k].ids[first + c - 1u];
    }
    /* A commit reads and changes no local: storage holds what was written. */
    expect_entry_locals(f, k, first, c, "sgrt_writer_commit");
}

/* A commit that the model says succeeds: OK, nothing reported. */
static void commit_ok(fscene *f, sgrt_writer w, int k, uint32_t first, uint32_t c)
{
    const uint64_t calls0 = f->fa.calls;
    f->log_errors = 0;
    const sgrt_result rc = sgrt_writer_commit(f->s, w, first, c);
    ENSURE(f->fa.calls == calls0, "writer_commit allocated");
    ENSURE(rc == SGRT_OK && f->log_errors == 0, "writer_commit of [%u, +%u): %s, %u reports",
           first, c, sgrt_result_str(rc), f->log_errors);
    commit_model(f, k, first, c);
}

/* In place: begin (refused for the other scene's writer, NULL, NULL
 * outputs, a dead entry), then one of: locals written into storage (any
 * values, NaN and infinities included: commit only marks, the update
 * repairs them) and committed in up to three chunks, one of which may be
 * left uncommitted (how % 8 == 4: chunk (how >> 4) % 3), so that the
 * update reads those locals only under a node that moved; a commit range
 * past the entries (refused, nothing marked); a call between begin and
 * commit -- destroy, compact, create, re-parent -- with writes before it
 * (how % 8 == 7) or none, after which the commit is refused as STALE when
 * nodes were destroyed or moved to other slots or storage grew (the writes
 * stay uncommitted), else marks every entry. Nothing here allocates but
 * the call in between. */
static void do_writer_in_place(fscene *f, const fscene *other, reader *r)
{
    int k;
    sgrt_writer w = pick_writer(f, other, r, &k);
    const uint8_t how = u8(r);
    float *locals = NULL;
    const uint32_t *slots = NULL;
    const uint64_t calls0 = f->fa.calls;
    const bool null_out = (how & 0xF0u) == 0xF0u;
    ENSURE(sgrt_writer_begin(NULL, w, &locals, &slots) == SGRT_ERR_INVALID_ARG &&
               sgrt_writer_commit(NULL, w, 0, 1) == SGRT_ERR_INVALID_ARG && !locals && !slots,
           "writer begin or commit on a NULL scene");
    const sgrt_result rb = sgrt_writer_begin(f->s, w, null_out ? NULL : &locals, &slots);
    ENSURE(f->fa.calls == calls0, "writer_begin allocated");
    if (k < 0 || null_out) {
        ENSURE(rb == SGRT_ERR_INVALID_ARG, "writer_begin with a bad argument: %s",
               sgrt_result_str(rb));
        ENSURE(!locals && !slots, "a refused writer_begin wrote its outputs");
        if (k < 0)
            ENSURE(sgrt_writer_commit(f->s, w, 0, 1) == SGRT_ERR_INVALID_ARG,
                   "writer_commit with a bad writer");
        expect_unchanged(f, SGRT_NULL_NODE, SGRT_NULL_NODE);
        return;
    }
    const uint32_t n = f->wr[k].count, dead = writer_dead(f, k);
    if (dead < n) {
        ENSURE(rb == SGRT_ERR_STALE_HANDLE, "writer_begin with a dead entry: %s",
               sgrt_result_str(rb));
        expect_unchanged(f, (sgrt_node){f->wr[k].ids[dead]}, SGRT_NULL_NODE);
        return;
    }
    ENSURE(rb == SGRT_OK && locals && slots, "writer_begin: %s", sgrt_result_str(rb));
    for (uint32_t i = 0; i < n; i++)
        ENSURE(slots[i] == slot_of(f->s, (sgrt_node){f->wr[k].ids[i]}),
               "writer_begin: entry %u's slot", i);
    float m[16];
    switch (how % 8u) {
    case 5: { /* a range past the entries: refused, nothing marked */
        const uint32_t first = u8(r) % 3u == 0 ? n + u8(r) % 3u : u8(r) % (n + 1u);
        const uint32_t c = u8(r) % 2u ? UINT32_MAX - u8(r) : n - (first < n ? first : n) + 1u +
                                                                u8(r) % 4u;
        f->log_errors = 0;
        ENSURE(sgrt_writer_commit(f->s, w, first, c) == SGRT_ERR_INVALID_ARG,
               "writer_commit of [%u, +%u) of %u entries", first, c, n);
        expect_one_report(f, SGRT_ERR_INVALID_ARG, "sgrt_writer_commit", SGRT_NULL_NODE);
        expect_unchanged(f, (sgrt_node){f->wr[k].ids[0]}, SGRT_NULL_NODE);
        return;
    }
    case 6:
    case 7: { /* a call between begin and commit */
        if (how % 8u == 7u) { /* writes before it */
            for (uint32_t i = 0; i < n; i++)
                if (u8(r) & 1u) {
                    rd_matrix(f, other, r, m);
                    write_in_place(f, k, locals, slots, i, m);
                }
            expect_entry_locals(f, k, 0, n, "a write in place");
        }
        const uint64_t sv = sgrt_scene_storage_version(f->s);
        const uint32_t live = ref_model_count(f->m);
        uint32_t *ids = malloc((size_t)(live ? live : 1u) * sizeof *ids);
        uint32_t *before = malloc((size_t)(live ? live : 1u) * sizeof *before);
        if (!ids || !before)
            die("host out of memory");
        for (uint32_t i = 0; i < live; i++) {
            ids[i] = ref_model_nth(f->m, i);
            before[i] = slot_of(f->s, (sgrt_node){ids[i]});
        }
        const uint8_t call = u8(r);
        switch (call % 4u) {
        case 0:
            do_destroy(f, rd_handle(f, other, r));
            break;
        case 1:
            do_compact(f);
            break;
        case 2:
            if (ref_model_count(f->m) < MAX_LIVE)
                do_create(f, other, rd_handle(f, other, r), false);
            break;
        default: {
            const sgrt_node a = rd_handle(f, other, r), b = rd_handle(f, other, r);
            do_set_parent(f, a, b, SGRT_KEEP_LOCAL);
            break;
        }
        }
        bool moved = sgrt_scene_storage_version(f->s) != sv;
        for (uint32_t i = 0; i < live; i++) {
            uint32_t now = UINT32_MAX;
            moved |= sgrt_node_slot(f->s, (sgrt_node){ids[i]}, &now) != SGRT_OK ||
                     now != before[i];
        }
        free(ids);
        free(before);
        f->fa.fired = false;
        const uint64_t calls1 = f->fa.calls;
        f->log_errors = 0;
        const sgrt_result rc = sgrt_writer_commit(f->s, w, 0, n);
        ENSURE(f->fa.calls == calls1, "writer_commit allocated");
        ENSURE(writer_dead(f, k) == n || rc == SGRT_ERR_STALE_HANDLE,
               "commit after an entry died: %s", sgrt_result_str(rc));
        if (moved || rc == SGRT_ERR_STALE_HANDLE) {
            ENSURE(rc == SGRT_ERR_STALE_HANDLE && moved,
                   "commit after a call in between: %s (nodes moved %d)", sgrt_result_str(rc),
                   moved);
            expect_one_report(f, SGRT_ERR_STALE_HANDLE, "sgrt_writer_commit", SGRT_NULL_NODE);
            if (trace > 0)
                fprintf(stderr, "     in place: the commit after the call is stale\n");
            /* Nothing marked: the writes stay in storage, uncommitted. */
            expect_unchanged(f, (sgrt_node){f->wr[k].ids[0]}, SGRT_NULL_NODE);
            return;
        }
        ENSURE(rc == SGRT_OK && f->log_errors == 0,
               "commit after a call that moved nothing: %s, %u reports", sgrt_result_str(rc),
               f->log_errors);
        commit_model(f, k, 0, n);
        return;
    }
    default:
        break;
    }
    /* Writes in place, committed in chunks (but one, for how % 8 == 4). */
    const uint32_t skip = how % 8u == 4u ? (how >> 4) % 3u : UINT32_MAX;
    const uint32_t first0 = u8(r) % n, span = 1u + u8(r) % (n - first0);
    for (uint32_t first = first0, chunks = 0; first < first0 + span; chunks++) {
        const uint32_t left = first0 + span - first;
        const uint32_t c = chunks == 2u ? left : 1u + u8(r) % left;
        for (uint32_t i = first; i < first + c; i++)
            if (u8(r) & 1u) {
                rd_matrix(f, other, r, m);
                write_in_place(f, k, locals, slots, i, m);
            }
        if (chunks != skip)
            commit_ok(f, w, k, first, c);
        else /* storage holds what was written, uncommitted */
            expect_entry_locals(f, k, first, c, "a write in place");
        if (trace > 0)
            fprintf(stderr, "     in place: entries [%u, %u) %s\n", first, first + c,
                    chunks != skip ? "committed" : "left uncommitted");
        first += c;
    }
    ENSURE(f->fa.calls == calls0, "an in-place write allocated");
}

/* ---- large worlds ------------------------------------------------------------------- */

/* A coordinate the library takes for an anchor or an origin: finite and
 * within SGRT_LARGE_WORLD_LIMIT. */
static bool point_ok(const double p[3])
{
    for (int a = 0; a < 3; a++)
        if (!(fabs(p[a]) <= SGRT_LARGE_WORLD_LIMIT))
            return false;
    return true;
}

/* The root of a live node. */
static uint32_t root_of(const fscene *f, uint32_t id)
{
    for (uint32_t p = ref_model_parent(f->m, id); p; p = ref_model_parent(f->m, id))
        id = p;
    return id;
}

/* Kinds of point (rd_point). */
enum {
    PT_SAME,      /* the current one: marks nothing */
    PT_SMALL,     /* multiples of 1/8 in [-16, 16) */
    PT_NUDGE,     /* moved by up to 2 in steps of 1/64 */
    PT_TINY,      /* moved by a few ulps, or by 2^-e (lost far out: the same point) */
    PT_GRID,      /* snapped to a grid of 2^4 to 2^19, moved by -2 to +2 cells */
    PT_JUMP,      /* moved by k x 1e12, k in [-128, 127] */
    PT_FAR,       /* anywhere within 2^60 */
    PT_NEAR_ROOT, /* a root's anchor moved by up to 16: near something far out */
    PT_EDGE,      /* +-2^60 (taken), the doubles past them, 2^61 (refused) */
    PT_HOSTILE,   /* one coordinate NaN, +-Inf, 1e300, -1e19, -0, a denormal, DBL_MAX */
    PT_RAW,       /* any bits */
    PT_ZEROS,     /* the current one with its zero coordinates' signs flipped */
    PT_KINDS
};

/* A point for an anchor or an origin, from `cur` (the root's anchor, or
 * the origin). Each coordinate is read in its own statement. */
static void rd_point(const fscene *f, reader *r, const double cur[3], double out[3])
{
    static const double edges[8] = {0x1p60, -0x1p60, 0x1.0000000000001p60, -0x1.0000000000001p60,
                                    0x1p60 - 256.0, -(0x1p60 - 256.0), 0x1p61, 0.0};
    static const double hostile[8] = {NAN, INFINITY, -INFINITY, 1e300, -1e19, -0.0, 0x1p-1074,
                                      DBL_MAX};
    const uint8_t kind = u8(r);
    memcpy(out, cur, 3 * sizeof(double));
    switch (kind % PT_KINDS) {
    case PT_SAME:
        break;
    case PT_SMALL:
        for (int a = 0; a < 3; a++)
            out[a] = ((int)u8(r) - 128) * 0.125;
        break;
    case PT_NUDGE:
        for (int a = 0; a < 3; a++)
            out[a] = cur[a] + ((int)u8(r) - 128) / 64.0;
        break;
    case PT_TINY:
        for (int a = 0; a < 3; a++) {
            const uint8_t v = u8(r);
            if (v & 0x80u)
                out[a] = cur[a] + ldexp(1.0, -(int)(v & 0x3Fu));
            else
                for (uint32_t i = 0; i < (v & 3u); i++)
                    out[a] = nextafter(out[a], v & 4u ? -INFINITY : INFINITY);
        }
        break;
    case PT_GRID: {
        const double cell = ldexp(1.0, 4 + u8(r) % 16);
        for (int a = 0; a < 3; a++)
            out[a] = floor(cur[a] / cell) * cell + (double)((int)(u8(r) % 5u) - 2) * cell;
        break;
    }
    case PT_JUMP:
        for (int a = 0; a < 3; a++)
            out[a] = cur[a] + ((int)u8(r) - 128) * 1e12;
        break;
    case PT_FAR:
        for (int a = 0; a < 3; a++) {
            const uint8_t e = u8(r);
            const uint32_t m = u32(r);
            out[a] = ldexp((double)m, (int)(e % 61u) - 32) * (e & 0x80u ? -1.0 : 1.0);
        }
        break;
    case PT_NEAR_ROOT: {
        const uint32_t pick = u16(r), count = ref_model_count(f->m);
        if (count)
            memcpy(out, sh_get(f, root_of(f, ref_model_nth(f->m, pick % count)))->anchor,
                   3 * sizeof(double));
        for (int a = 0; a < 3; a++)
            out[a] += ((int)u8(r) - 128) * 0.125;
        break;
    }
    case PT_EDGE:
        for (int a = 0; a < 3; a++) {
            const uint8_t v = u8(r);
            if (v % 8u != 7u)
                out[a] = edges[v % 8u];
        }
        break;
    case PT_HOSTILE: {
        const uint32_t axis = u8(r) % 3u;
        out[axis] = hostile[u8(r) % 8u];
        break;
    }
    case PT_RAW:
        for (int a = 0; a < 3; a++) {
            const uint64_t lo = u32(r);
            const uint64_t bits = lo | (uint64_t)u32(r) << 32;
            memcpy(&out[a], &bits, sizeof bits);
        }
        break;
    default:
        for (int a = 0; a < 3; a++)
            if (out[a] == 0.0)
                out[a] = -out[a];
        break;
    }
}

/* A root argument: mostly the root of a live node (a random one's, walked
 * up in the model; none in an empty scene), one in four a handle of any
 * kind (rd_handle: nodes with a parent, stale ones, the other scene's). */
static sgrt_node rd_root(fscene *f, const fscene *other, reader *r)
{
    if (u8(r) % 4u == 3u)
        return rd_handle(f, other, r);
    const uint32_t pick = u16(r), count = ref_model_count(f->m);
    return (sgrt_node){count ? root_of(f, ref_model_nth(f->m, pick % count)) : 0u};
}

/* sgrt_node_set_anchor: refused (INVALID_ARG: NULL position, a scene
 * without SGRT_SCENE_LARGE_WORLD, a node with a parent, a coordinate not
 * finite or past the limit; STALE_HANDLE; any of them when several apply)
 * with one report naming the node and nothing changed; else the anchor
 * reads back bit for bit, and the root counts as moved unless the position
 * is its anchor's bits already. Never allocates. */
static void do_set_anchor(fscene *f, const fscene *other, reader *r)
{
    const sgrt_node h = rd_root(f, other, r);
    const uint8_t how = u8(r);
    const bool hv = valid(f, h), is_root = hv && !ref_model_parent(f->m, h.id);
    double pos[3];
    rd_point(f, r, is_root ? sh_get(f, h.id)->anchor : f->origin, pos);
    const bool null_pos = (how & 0x0Fu) == 0x0Fu;
    const bool invalid = null_pos || !f->large || (hv && !is_root) || !point_ok(pos);
    const uint64_t calls0 = f->fa.calls;
    f->log_errors = 0;
    const sgrt_result rc = sgrt_node_set_anchor(f->s, h, null_pos ? NULL : pos);
    ENSURE(f->fa.calls == calls0, "set_anchor allocated");
    if (trace > 0)
        fprintf(stderr, "     set_anchor(0x%08x, %.17g %.17g %.17g): %s\n", h.id, pos[0], pos[1],
                pos[2], sgrt_result_str(rc));
    if (invalid || !hv) {
        ENSURE((invalid && rc == SGRT_ERR_INVALID_ARG) || (!hv && rc == SGRT_ERR_STALE_HANDLE),
               "set_anchor returned %s (handle valid %d, root %d, NULL %d, large %d, point ok %d)",
               sgrt_result_str(rc), hv, is_root, null_pos, f->large, point_ok(pos));
        expect_one_report(f, rc, "sgrt_node_set_anchor", h);
        expect_unchanged(f, h, SGRT_NULL_NODE);
        return;
    }
    ENSURE(rc == SGRT_OK && f->log_errors == 0, "set_anchor: %s, %u reports", sgrt_result_str(rc),
           f->log_errors);
    shadow_node *e = sh_get(f, h.id);
    if (!same_point(e->anchor, pos)) {
        memcpy(e->anchor, pos, sizeof e->anchor);
        model_mark(f, h.id);
    }
    double got[3];
    ENSURE(sgrt_node_anchor(f->s, h, got) == SGRT_OK && memcmp(got, e->anchor, sizeof got) == 0 &&
               same_point(got, pos),
           "the anchor of 0x%08x does not read back as set", h.id);
    f->touched[0] = h.id;
}

/* sgrt_scene_set_origin: refused (INVALID_ARG: NULL, a scene without the
 * flag, a coordinate not finite or past the limit) with one report and
 * nothing changed; else it reads back bit for bit; another point marks
 * every live node (the next update recomputes them all, trackers report
 * them all, previous worlds are shifted), the same bits mark nothing: an
 * update right after it (how bit 4 clear) recomputes nothing when nothing
 * else moved. Never allocates. */
static void do_set_origin(fscene *f, reader *r)
{
    const uint8_t how = u8(r);
    double o[3];
    rd_point(f, r, f->origin, o);
    const bool null_in = (how & 0x0Fu) == 0x0Fu;
    const bool refused = null_in || !f->large || !point_ok(o);
    const bool same = same_point(o, f->origin);
    const uint64_t calls0 = f->fa.calls;
    f->log_errors = 0;
    const sgrt_result rc = sgrt_scene_set_origin(f->s, null_in ? NULL : o);
    ENSURE(f->fa.calls == calls0, "set_origin allocated");
    if (trace > 0)
        fprintf(stderr, "     set_origin(%.17g %.17g %.17g): %s%s\n", o[0], o[1], o[2],
                sgrt_result_str(rc), !refused && same ? ", the same" : "");
    if (refused) {
        ENSURE(rc == SGRT_ERR_INVALID_ARG,
               "set_origin returned %s (NULL %d, large %d, point ok %d)", sgrt_result_str(rc),
               null_in, f->large, point_ok(o));
        expect_one_report(f, rc, "sgrt_scene_set_origin", SGRT_NULL_NODE);
        expect_unchanged(f, SGRT_NULL_NODE, SGRT_NULL_NODE);
        return;
    }
    ENSURE(rc == SGRT_OK && f->log_errors == 0, "set_origin: %s, %u reports",
           sgrt_result_str(rc), f->log_errors);
    if (!same) {
        memcpy(f->origin, o, sizeof f->origin);
        f->origin_moves++;
        const uint32_t count = ref_model_count(f->m);
        for (uint32_t k = 0; k < count; k++)
            model_mark(f, ref_model_nth(f->m, k));
    }
    double got[3];
    ENSURE(sgrt_scene_origin(f->s, got) == SGRT_OK && memcmp(got, f->origin, sizeof got) == 0 &&
               same_point(got, o),
           "the origin does not read back as set");
    if (same && !(how & 0x10u) && ref_model_pending(f->m) == 0) {
        const uint32_t n = do_update(f, false);
        ENSURE(n == 0, "the update after setting the same origin recomputed %u", n);
    }
}

/* Reads: a root's anchor (bit for bit; INVALID_ARG for a node with a
 * parent; STALE_HANDLE), the origin, the world in double (checked against
 * the product in double); NULL outputs (how bits 0 to 2) and, with bit 3, a
 * NULL scene: INVALID_ARG (or STALE_HANDLE for a bad handle), outputs
 * untouched, one report each on the scene. Nothing changes, nothing
 * allocates. */
static void do_large_read(fscene *f, const fscene *other, reader *r)
{
    const sgrt_node h = rd_root(f, other, r);
    const uint8_t how = u8(r);
    const bool hv = valid(f, h), is_root = hv && !ref_model_parent(f->m, h.id);
    const uint64_t calls0 = f->fa.calls;
    double a[3] = {-1.0, -1.0, -1.0}, o[3] = {-1.0, -1.0, -1.0}, w[16];
    w[0] = -1.0;
    f->log_errors = 0;
    sgrt_result rc = sgrt_node_anchor(f->s, h, how & 1u ? NULL : a);
    if (is_root && !(how & 1u)) {
        ENSURE(rc == SGRT_OK && memcmp(a, sh_get(f, h.id)->anchor, sizeof a) == 0,
               "anchor of the root 0x%08x: %s", h.id, sgrt_result_str(rc));
    } else {
        ENSURE((rc == SGRT_ERR_INVALID_ARG && (hv || how & 1u)) ||
                   (rc == SGRT_ERR_STALE_HANDLE && !hv),
               "anchor(0x%08x) returned %s (valid %d, root %d, NULL out %d)", h.id,
               sgrt_result_str(rc), hv, is_root, how & 1u);
        ENSURE(a[0] == -1.0, "a refused anchor read wrote its output");
        expect_one_report(f, rc, "sgrt_node_anchor", h);
    }
    f->log_errors = 0;
    rc = sgrt_scene_origin(f->s, how & 2u ? NULL : o);
    if (how & 2u) {
        ENSURE(rc == SGRT_ERR_INVALID_ARG, "origin(NULL out): %s", sgrt_result_str(rc));
        expect_one_report(f, rc, "sgrt_scene_origin", SGRT_NULL_NODE);
    } else {
        ENSURE(rc == SGRT_OK && memcmp(o, f->origin, sizeof o) == 0, "origin read: %s",
               sgrt_result_str(rc));
    }
    f->log_errors = 0;
    rc = sgrt_node_world_double(f->s, h, how & 4u ? NULL : w);
    if (hv && !(how & 4u)) {
        ENSURE(rc == SGRT_OK, "world_double(0x%08x): %s", h.id, sgrt_result_str(rc));
        check_world_double(f, h.id, w);
    } else {
        ENSURE((rc == SGRT_ERR_INVALID_ARG && how & 4u) || (rc == SGRT_ERR_STALE_HANDLE && !hv),
               "world_double(0x%08x) returned %s (valid %d, NULL out %d)", h.id,
               sgrt_result_str(rc), hv, how & 4u);
        ENSURE(w[0] == -1.0, "a refused world_double wrote its output");
        expect_one_report(f, rc, "sgrt_node_world_double", h);
    }
    if (how & 8u) {
        ENSURE(sgrt_node_set_anchor(NULL, h, a) == SGRT_ERR_INVALID_ARG &&
                   sgrt_node_anchor(NULL, h, a) == SGRT_ERR_INVALID_ARG &&
                   sgrt_scene_set_origin(NULL, o) == SGRT_ERR_INVALID_ARG &&
                   sgrt_scene_origin(NULL, o) == SGRT_ERR_INVALID_ARG &&
                   sgrt_node_world_double(NULL, h, w) == SGRT_ERR_INVALID_ARG,
               "a large-world call on a NULL scene");
    }
    ENSURE(f->fa.calls == calls0, "a large-world read allocated");
    expect_unchanged(f, h, SGRT_NULL_NODE);
}

/* ---- scale ------------------------------------------------------------------------------ */

static uint32_t lcg(uint32_t *st)
{
    *st = *st * 1664525u + 1013904223u;
    return *st >> 8;
}

/* The newest live node of the model (ref_model_add appends). */
static sgrt_node newest(const fscene *f)
{
    const uint32_t count = ref_model_count(f->m);
    return (sgrt_node){count ? ref_model_nth(f->m, count - 1u) : 0u};
}

/* Tens to thousands of nodes in one op, in a shape: a deep chain, one wide
 * fan, a random tree, many roots. Every create is checked as a single one is. */
static void do_bulk(fscene *f, const fscene *other, reader *r)
{
    /* 4 to 64 nodes; 64 to 1,024 when the shape byte is 0xF0 or more
     * (one in 16) and the program is not a short one, so that most
     * programs stay fast (deeper and wider scenes: tests/test_scale.c). */
    const uint8_t shape = u8(r);
    const uint32_t k = (shape >= 0xF0u && !short_input ? 64u : 4u) * (1u + u8(r) % 16u);
    const uint32_t most = short_input ? SHORT_LIVE : SCALE_LIVE;
    uint32_t st = u32(r);
    const sgrt_node fan = newest(f);
    for (uint32_t i = 0; i < k && ref_model_count(f->m) < most; i++) {
        const uint32_t count = ref_model_count(f->m);
        sgrt_node p = SGRT_NULL_NODE;
        switch (shape % 4u) {
        case 0: p = newest(f); break;                               /* chain */
        case 1: p = valid(f, fan) ? fan : SGRT_NULL_NODE; break;   /* fan */
        case 2: if (count) p.id = ref_model_nth(f->m, lcg(&st) % count); break;
        default: break;                                             /* roots */
        }
        do_create(f, other, p, false);
        if (ref_model_count(f->m) == count)
            break; /* refused (max_nodes, an injected failure): checked once */
    }
}

/* Patterns that leave holes in storage, many times over: moving a node under
 * one stored after it; creating under the newest node, then detaching;
 * destroying and re-creating; two nodes moving under each other in turn. Slots stay bounded by the live nodes (hole
 * reclamation), which sgrt_scene_check and the slot API verify. */
static void do_churn(fscene *f, const fscene *other, reader *r)
{
    /* 2 to 16 rounds; 16 to 1,024 when the kind byte is 0xFC or more (one
     * in 64: the default hole slack, 1,024 holes past the live count, takes
     * that many to reach), so that most programs stay fast: churn was two
     * thirds of the corpus's time at 4 to 64 rounds and one in 16 long. */
    const uint8_t kind = u8(r);
    const bool long_run = kind >= 0xFCu && !short_input;
    const uint32_t iters = long_run ? 16u * (1u + u8(r) % 64u) : 2u * (1u + u8(r) % 8u);
    uint32_t st = u32(r);
    if (kind % 4u == 3u && ref_model_count(f->m) >= 2u) {
        /* Two nodes in turn: the one stored first goes under the other,
         * then back to the roots; each move leaves a hole that no later
         * node can use. */
        const uint32_t count = ref_model_count(f->m);
        const uint32_t i = lcg(&st) % count, j = (i + 1u + lcg(&st) % (count - 1u)) % count;
        const sgrt_node a = {ref_model_nth(f->m, i)}, b = {ref_model_nth(f->m, j)};
        for (uint32_t k = 0; k < 2u * iters && valid(f, a) && valid(f, b) && !f->fa.fired; k++) {
            const bool a_first = slot_of(f->s, a) < slot_of(f->s, b);
            const sgrt_node lo = a_first ? a : b, hi = a_first ? b : a;
            do_set_parent(f, lo, hi, SGRT_KEEP_LOCAL);
            do_set_parent(f, lo, SGRT_NULL_NODE, SGRT_KEEP_LOCAL);
        }
        return;
    }
    for (uint32_t i = 0; i < iters; i++) {
        const uint32_t count = ref_model_count(f->m);
        if (count < 2u)
            break;
        const sgrt_node a = {ref_model_nth(f->m, lcg(&st) % count)};
        const sgrt_node b = {ref_model_nth(f->m, lcg(&st) % count)};
        switch (kind % 4u) {
        case 0: { /* the one stored first goes under the other */
            const bool a_first = slot_of(f->s, a) < slot_of(f->s, b);
            do_set_parent(f, a_first ? a : b, a_first ? b : a, (int)(lcg(&st) & 1u));
            if (lcg(&st) % 4u == 0)
                do_set_parent(f, a, SGRT_NULL_NODE, SGRT_KEEP_LOCAL);
            break;
        }
        case 1: { /* create under the newest, detach, drop an old one */
            do_create(f, other, newest(f), false);
            do_set_parent(f, newest(f), SGRT_NULL_NODE, SGRT_KEEP_LOCAL);
            if (ref_model_count(f->m) > count)
                do_destroy(f, a);
            break;
        }
        default: /* destroy a subtree, re-create as many under another node */
            if (!ref_model_is_ancestor_or_self(f->m, a.id, b.id)) {
                const uint32_t k = ref_model_subtree_size(f->m, a.id);
                do_destroy(f, a);
                for (uint32_t j = 0; j < k && valid(f, b); j++)
                    do_create(f, other, b, false);
            }
            break;
        }
        if (f->fa.fired)
            break;
    }
}

/* ---- driver --------------------------------------------------------------------------- */

static fscene scenes[2];

static const char *const op_names[OP_COUNT] = {
    "create", "create_many", "destroy", "set_parent", "set_local", "set_local", "set_trs",
    "update", "update", "read", "world_now_all", "user", "reserve", "compact", "fail_alloc",
    "bad_args", "recreate", "slots", "tracker_create", "tracker_destroy", "collect", "collect",
    "set_create", "set_destroy", "set_member", "set_member", "set_query", "set_combine",
    "set_from_changes", "batch_local", "batch_trs", "update_parallel", "bulk", "churn",
    "set_world", "bounds", "cull", "writer_create", "writer_destroy", "writer_write",
    "writer_in_place", "recreate_large", "set_anchor", "set_origin", "large_read",
};

/* The models' storage is kept from one input to the next; give it back at
 * exit so that leak checkers see nothing in use. */
static void release_statics(void)
{
    for (int i = 0; i < 2; i++) {
        fscene *f = &scenes[i];
        free(f->map_key);
        free(f->map_val);
        free(f->sh);
        for (int k = 0; k < NOBJ; k++)
            free(f->tp[k]);
        memset(f, 0, sizeof *f);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    reader r = {data, size, 0};
    short_input = size <= SHORT_INPUT;
    if (trace < 0) {
        trace = getenv("SGRT_FUZZ_TRACE") != NULL;
        atexit(release_statics);
        test_on_failure = abort;
    }
    /* Each input alone decides what it does: no stale ids or sampling
     * carried over from the inputs before it (ids of a scene re-created
     * within the input stay in the history, as stale handles). */
    for (int i = 0; i < 2; i++) {
        scenes[i].hist_n = 0;
        scenes[i].verify_seq = 0;
        scenes[i].full_budget = FULL_BUDGET;
        scenes[i].closing = false;
    }
    fscene_open(&scenes[0], &r, false);
    fscene_open(&scenes[1], &r, false);
    for (int op = 0; op < MAX_OPS && r.i < r.n; op++) {
        const uint8_t b = u8(&r);
        fscene *f = &scenes[b & 1u];
        const fscene *other = &scenes[(b & 1u) ^ 1u];
        const uint32_t code = (uint32_t)(b >> 1) % OP_COUNT;
        f->fa.fired = false;
        f->touched[0] = f->touched[1] = 0;
        switch (code) {
        case OP_CREATE: {
            const sgrt_node p = rd_handle(f, other, &r);
            if (ref_model_count(f->m) < MAX_LIVE)
                do_create(f, other, p, false);
            break;
        }
        case OP_CREATE_MANY: { /* growth: many nodes in one go */
            const uint32_t k = 1u + u8(&r) % 64u;
            const uint8_t shape = u8(&r);
            for (uint32_t i = 0; i < k && ref_model_count(f->m) < MAX_LIVE; i++) {
                sgrt_node p = SGRT_NULL_NODE;
                const uint32_t count = ref_model_count(f->m);
                if (count && shape % 3u == 0)
                    p.id = ref_model_nth(f->m, count - 1u); /* a chain, roughly */
                else if (count && shape % 3u == 1)
                    p.id = ref_model_nth(f->m, (i * 7u + shape) % count);
                do_create(f, other, p, false);
            }
            break;
        }
        case OP_DESTROY:
            do_destroy(f, rd_handle(f, other, &r));
            break;
        case OP_SET_PARENT: {
            const sgrt_node n = rd_handle(f, other, &r), p = rd_handle(f, other, &r);
            const uint8_t kb = u8(&r);
            const int keep = kb < 250 ? (int)(kb & 1u) : (int)kb - 252; /* -2..3 */
            do_set_parent(f, n, p, keep);
            break;
        }
        case OP_SET_LOCAL:
        case OP_SET_LOCAL2: {
            const sgrt_node h = rd_handle(f, other, &r);
            float m[16];
            rd_matrix(f, other, &r, m);
            do_set_local(f, h, m);
            break;
        }
        case OP_SET_TRS: {
            const sgrt_node h = rd_handle(f, other, &r);
            float t[3], q[4], s[3];
            rd_trs(&r, t, q, s);
            do_set_trs(f, h, t, q, s);
            break;
        }
        case OP_UPDATE:
        case OP_UPDATE2:
            do_update(f, code == OP_UPDATE);
            break;
        case OP_READ:
            do_read(f, rd_handle(f, other, &r));
            break;
        case OP_WORLD_NOW_ALL:
            verify(f, true);
            break;
        case OP_USER: {
            const sgrt_node h = rd_handle(f, other, &r);
            const uint64_t hi = u32(&r);
            do_user(f, h, hi << 32 | u32(&r));
            break;
        }
        case OP_RESERVE:
            do_reserve(f, &r);
            break;
        case OP_COMPACT:
            do_compact(f);
            break;
        case OP_FAIL_ALLOC:
            f->fa.countdown = 1u + u8(&r) % 4u;
            break;
        case OP_BAD_ARGS:
            do_bad_args(f, other, &r);
            break;
        case OP_RECREATE:
        case OP_RECREATE_LARGE:
            fscene_close(f);
            fscene_open(f, &r, code == OP_RECREATE_LARGE);
            break;
        case OP_SLOTS:
            do_slots(f, &r);
            break;
        case OP_TRACKER_CREATE:
            do_tracker_create(f, &r);
            break;
        case OP_TRACKER_DESTROY:
            do_tracker_destroy(f, other, &r);
            break;
        case OP_COLLECT:
        case OP_COLLECT2:
            do_collect(f, other, &r);
            break;
        case OP_SET_CREATE:
            do_set_create(f, &r);
            break;
        case OP_SET_DESTROY:
            do_set_destroy(f, other, &r);
            break;
        case OP_SET_MEMBER:
        case OP_SET_MEMBER2:
            do_set_member(f, other, &r);
            break;
        case OP_SET_QUERY:
            do_set_query(f, other, &r);
            break;
        case OP_SET_COMBINE:
            do_set_combine(f, other, &r);
            break;
        case OP_UPDATE_PARALLEL:
            do_update_parallel(f, &r);
            break;
        case OP_BATCH_LOCAL:
        case OP_BATCH_TRS:
            do_batch(f, other, &r, code == OP_BATCH_TRS);
            break;
        case OP_SET_FROM_CHANGES:
            do_set_from_changes(f, other, &r);
            break;
        case OP_BULK:
        case OP_CHURN: {
            f->quiet = true;
            if (code == OP_BULK)
                do_bulk(f, other, &r);
            else
                do_churn(f, other, &r);
            f->quiet = false;
            /* The whole scene's invariants (slot bounds included), whatever
             * its size; its nodes are sampled below as after any call. */
            const char *what = NULL;
            ENSURE(sgrt_scene_check(f->s, &what) == SGRT_OK, "sgrt_scene_check after %s: %s",
                   code == OP_BULK ? "bulk" : "churn", what ? what : "?");
            break;
        }
        case OP_SET_WORLD: {
            const sgrt_node h = rd_handle(f, other, &r);
            float m[16];
            rd_matrix(f, other, &r, m);
            do_set_world(f, h, m);
            break;
        }
        case OP_BOUNDS:
            do_bounds(f, other, &r);
            break;
        case OP_CULL:
            do_cull(f, other, &r);
            break;
        case OP_WRITER_CREATE:
            do_writer_create(f, other, &r);
            break;
        case OP_WRITER_DESTROY:
            do_writer_destroy(f, other, &r);
            break;
        case OP_WRITER_WRITE:
            do_writer_write(f, other, &r);
            break;
        case OP_WRITER_IN_PLACE:
            do_writer_in_place(f, other, &r);
            break;
        case OP_SET_ANCHOR:
            do_set_anchor(f, other, &r);
            break;
        case OP_SET_ORIGIN:
            do_set_origin(f, &r);
            break;
        case OP_LARGE_READ:
            do_large_read(f, other, &r);
            break;
        default:
            break;
        }
        f->fa.fired = false;
        /* The nodes the call named after every call (each call's results
         * and refusals are checked where it is made); the scene's
         * invariants and a sample of nodes every 8th call; everything every
         * 64 calls (within FULL_BUDGET) and at the end. What a call breaks
         * stays broken until one of these sees it. */
        if ((op & 7) == 7) {
            verify_ex(f, (op & 63) == 63, false, f->touched[0], f->touched[1]);
        } else {
            const bool quiet = f->quiet;
            f->quiet = true;
            verify_ex(f, false, false, f->touched[0], f->touched[1]);
            f->quiet = quiet;
        }
        if (trace)
            fprintf(stderr, "%4d scene %u %-13s -> %u nodes, %u pending, %llu allocations\n", op,
                    (unsigned)(b & 1u), op_names[code], (unsigned)ref_model_count(f->m),
                    (unsigned)ref_model_pending(f->m), (unsigned long long)f->fa.calls);
    }
    for (int i = 0; i < 2; i++) {
        scenes[i].closing = true;
        verify(&scenes[i], true);
        scenes[i].fa.countdown = 0;
        fscene_close(&scenes[i]);
        memset(&scenes[i].fa, 0, sizeof scenes[i].fa);
    }
    return 0;
}
