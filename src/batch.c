/* SPDX-License-Identifier: MIT */
/* Batch writes: sgrt_nodes_set_local and sgrt_nodes_set_trs, which resolve
 * their handles on each call, and writers (sgrt_writer_*), which keep the
 * slots of a fixed list of nodes and can hand the caller the storage to
 * write in place. All run on one engine: a checking pass that refuses
 * before anything changes, then a writing pass, a chunk of
 * SGRT__WRITE_CHUNK entries at a time through the kernel table (the TRS
 * conversion, check16, store16), marking a dirty word at a time. */
#include "internal.h"
#include <string.h>

#define CHUNK SGRT__WRITE_CHUNK

#if defined(__GNUC__) || defined(__clang__)
#define PREFETCH(p) __builtin_prefetch(p)
#else
#define PREFETCH(p) ((void)(p))
#endif

struct sgrt_writer {
    sgrt__owned o; /* first: the registry's view (scene, kind, block size) */
    uint32_t count;
    uint32_t flags;          /* SGRT_WRITER_* */
    uint64_t slots_version; /* the scene's slots_version when slots[] was resolved */
    sgrt_node *nodes;
    uint32_t *slots;
    /* slots[] strictly increase (set with slots[]): a compute-now write
     * can take the entries in order, parents before children. */
    bool ordered;
    /* What sgrt_writer_begin handed out: the storage block and slots
     * version the in-place writes go to. */
    const void *begun_block;
    uint64_t begun_version;
};

/* Entries [done, done + n) of the next chunk; n = 0 at the end. Counted
 * from below so that no index wraps, whatever the count. */
static inline uint32_t chunk_of(uint32_t count, uint32_t done)
{
    return count - done < CHUNK ? count - done : CHUNK;
}

/* A batch refuses entry i: *out_bad, and one report naming the entry's
 * node (`invalid` says what was wrong with its values; a stale entry is
 * said so). */
static sgrt_result refuse(const sgrt_scene *s, const char *function, sgrt_node node,
                          uint32_t *out_bad, uint32_t i, sgrt_result r, const char *invalid)
{
    if (out_bad)
        *out_bad = i;
    return sgrt__fail(s, r, function,
                      r == SGRT_ERR_STALE_HANDLE ? SGRT__STALE("nodes[*out_bad]") : invalid,
                      node);
}

static const char local_bad[] = "local[*out_bad] holds a NaN or an infinity";
static const char trs_bad[] = "t, q or scale [*out_bad] holds a NaN or an infinity, or their "
                              "matrix overflows";
static const char quat_bad[] = "q[*out_bad] is not of unit length: |q|^2 is off 1 by more than "
                               "SGRT_QUAT_NORM_TOLERANCE";

/* Where a batch's matrices come from: count matrices, or TRS arrays
 * converted a chunk at a time into a buffer on the stack (2 KiB: inside L1
 * beside the inputs; converting again in the writing pass costs less than
 * keeping every matrix). */
typedef struct source {
    const float *m, *t, *q, *scale;
    const char *function; /* the public call, for reports */
} source;

/* Validation mode: the first entry whose quaternion is off unit length
 * (count when none, or not a TRS source). */
static uint32_t quats_off(const sgrt_scene *s, const source *src, const sgrt_node *nodes,
                          uint32_t count)
{
    return src->q && SGRT__VALIDATING(s)
               ? sgrt__validate_quats(s, src->function, src->q, nodes, count)
               : count;
}

static inline const float *chunk_matrices(const sgrt_scene *s, const source *src, uint32_t base,
                                          uint32_t n, float *buf)
{
    if (src->m)
        return src->m + 16u * (size_t)base;
    s->k.trs(src->t + 3u * (size_t)base, src->q + 4u * (size_t)base,
             src->scale + 3u * (size_t)base, buf, n);
    return buf;
}

/* The checking pass over one chunk: the index of its first matrix with an
 * element NaN or infinite, n when none. TRS inputs whose matrices are
 * surely finite (the kernel's trs_fits) are not converted: the writing pass
 * does that. Others are converted here and their matrices checked. */
static inline uint32_t chunk_bad(const sgrt_scene *s, const source *src, uint32_t base,
                                 uint32_t n, float *buf)
{
    if (!src->m && s->k.trs_fits(src->t + 3u * (size_t)base, src->q + 4u * (size_t)base,
                                 src->scale + 3u * (size_t)base, n))
        return n;
    return s->k.check16(chunk_matrices(s, src, base, n, buf), NULL, n);
}

/* The writing pass over one chunk: store where the bits differ, mark what
 * changed. `ahead` more slots follow slot[n - 1] (the next chunk's):
 * store16 fetches their locals while it works. */
static inline void write_chunk(sgrt_scene *s, const uint32_t *slot, uint32_t n, const float *m,
                               uint32_t ahead)
{
    sgrt__dirty_mark_slots(s, slot, s->k.store16(s->st.local, slot, m, n, ahead));
}

/* ---- handle batches ------------------------------------------------------- */

/* Resolved slots are kept in the scene's scratch array (2 x capacity
 * entries) between the two passes; a batch longer than that resolves its
 * tail again. */
static uint64_t scratch_entries(const sgrt_scene *s) { return 2u * (uint64_t)s->st.cap; }

/* The checking pass over one chunk: `bad` is its first entry whose matrix
 * is refused (chunk_bad; n when none), then the handles before it are
 * resolved into slot[] with the handle entries fetched SGRT__WRITE_AHEAD
 * ahead. Returns SGRT_OK, or the first refused entry's error with its
 * index in *at. */
static sgrt_result check_chunk(const sgrt_scene *s, uint32_t count, const sgrt_node *nodes,
                               uint32_t base, uint32_t n, uint32_t bad, uint32_t *slot,
                               uint32_t *at)
{
    for (uint32_t j = 0; j < bad; j++) {
        const uint32_t i = base + j;
        if (i + SGRT__WRITE_AHEAD < count)
            PREFETCH(sgrt__handle_entry(s, nodes[i + SGRT__WRITE_AHEAD]));
        slot[j] = sgrt__resolve(s, nodes[i]);
        if (slot[j] == SGRT__NONE) {
            *at = i;
            return SGRT_ERR_STALE_HANDLE;
        }
    }
    if (bad < n) {
        *at = base + bad;
        return SGRT_ERR_INVALID_ARG;
    }
    return SGRT_OK;
}

static sgrt_result nodes_write(sgrt_scene *s, uint32_t count, const sgrt_node *nodes,
                               const source *src, uint32_t *out_bad)
{
    float buf[CHUNK * 16];
    uint32_t slots[CHUNK], at = 0;
    const uint64_t kept = scratch_entries(s);
    /* The first refused entry wins: an earlier stale or non-finite one, or
     * the first quaternion off unit length. */
    const uint32_t qbad = quats_off(s, src, nodes, count);
    for (uint32_t base = 0, n; (n = chunk_of(count, base)) != 0; base += n) {
        uint32_t *slot = base + (uint64_t)n <= kept ? s->st.scratch + base : slots;
        const sgrt_result r =
            check_chunk(s, count, nodes, base, n, chunk_bad(s, src, base, n, buf), slot, &at);
        if (r != SGRT_OK && at < qbad)
            return refuse(s, src->function, nodes[at], out_bad, at, r,
                          src->m ? local_bad : trs_bad);
        if (qbad < count && (r != SGRT_OK || qbad < base + n))
            return refuse(s, src->function, nodes[qbad], out_bad, qbad, SGRT_ERR_INVALID_ARG,
                          quat_bad);
    }
    for (uint32_t base = 0, n; (n = chunk_of(count, base)) != 0; base += n) {
        const uint32_t next = chunk_of(count, base + n);
        const uint32_t *slot = s->st.scratch + base;
        uint32_t ahead = base + (uint64_t)n + next <= kept ? next : 0u;
        if (base + (uint64_t)n > kept) {
            for (uint32_t j = 0; j < n; j++)
                slots[j] = sgrt__resolve(s, nodes[base + j]);
            slot = slots;
            ahead = 0;
        }
        write_chunk(s, slot, n, chunk_matrices(s, src, base, n, buf), ahead);
    }
    return SGRT_OK;
}

sgrt_result sgrt_nodes_set_local(sgrt_scene *s, uint32_t count, const sgrt_node *nodes,
                                 const float *local, uint32_t *out_bad)
{
    if (!s)
        return SGRT_ERR_INVALID_ARG;
    if (count && (!nodes || !local))
        return sgrt__fail(s, SGRT_ERR_INVALID_ARG, __func__,
                          "nodes or local is NULL with count > 0", SGRT_NULL_NODE);
    const source src = {local, NULL, NULL, NULL, __func__};
    return nodes_write(s, count, nodes, &src, out_bad);
}

sgrt_result sgrt_nodes_set_trs(sgrt_scene *s, uint32_t count, const sgrt_node *nodes,
                               const float *t, const float *q, const float *scale,
                               uint32_t *out_bad)
{
    if (!s)
        return SGRT_ERR_INVALID_ARG;
    if (count && (!nodes || !t || !q || !scale))
        return sgrt__fail(s, SGRT_ERR_INVALID_ARG, __func__,
                          "nodes, t, q or scale is NULL with count > 0", SGRT_NULL_NODE);
    const source src = {NULL, t, q, scale, __func__};
    return nodes_write(s, count, nodes, &src, out_bad);
}

/* ---- writers ------------------------------------------------------------ */

static bool own(const sgrt_scene *s, const sgrt_writer *w) { return sgrt__writer_of(s, w); }

/* Why w is refused (the refusal path only). */
static const char *writer_problem(const sgrt_scene *s, const sgrt_writer *w)
{
    (void)s;
    return w ? "w is not a live writer of s: of another scene, or destroyed" : "w is NULL";
}

/* The slots of the writer's entries, resolved again when a node moved to
 * another slot or was destroyed since. Returns SGRT_OK, or STALE_HANDLE
 * with the first dead entry in *at. */
static sgrt_result refresh(const sgrt_scene *s, sgrt_writer *w, uint32_t *at)
{
    if (w->slots_version == s->slots_version)
        return SGRT_OK;
    for (uint32_t i = 0; i < w->count; i++) {
        if (i + SGRT__WRITE_AHEAD < w->count)
            PREFETCH(sgrt__handle_entry(s, w->nodes[i + SGRT__WRITE_AHEAD]));
        w->slots[i] = sgrt__resolve(s, w->nodes[i]);
        if (w->slots[i] == SGRT__NONE) {
            *at = i;
            return SGRT_ERR_STALE_HANDLE;
        }
    }
    w->ordered = true;
    for (uint32_t i = 1; i < w->count && w->ordered; i++)
        w->ordered = w->slots[i - 1] < w->slots[i];
    w->slots_version = s->slots_version;
    return SGRT_OK;
}

sgrt_result sgrt_writer_create(sgrt_scene *s, uint32_t count, const sgrt_node *nodes,
                               uint32_t flags, sgrt_writer **out)
{
    if (!s)
        return SGRT_ERR_INVALID_ARG;
    if (!nodes || !out || !count || (flags & ~(uint32_t)SGRT_WRITER_WORLDS_NOW))
        return sgrt__fail(s, SGRT_ERR_INVALID_ARG, __func__,
                          !count   ? "count is 0"
                          : !nodes ? "nodes is NULL"
                          : !out   ? "out is NULL"
                                   : "flags holds a bit that is not an sgrt_writer_flags",
                          SGRT_NULL_NODE);
    for (uint32_t i = 0; i < count; i++)
        if (sgrt__resolve(s, nodes[i]) == SGRT__NONE)
            return sgrt__fail(s, SGRT_ERR_STALE_HANDLE, __func__, SGRT__STALE("a node of nodes"),
                              nodes[i]);
    const size_t size = sizeof(sgrt_writer) + (size_t)count * (sizeof(sgrt_node) + sizeof(uint32_t));
    if ((size - sizeof(sgrt_writer)) / (sizeof(sgrt_node) + sizeof(uint32_t)) != count)
        return sgrt__fail(s, SGRT_ERR_NOMEM, __func__, "the writer's size does not fit in size_t",
                          SGRT_NULL_NODE);
    sgrt_result err = sgrt__registry_reserve_writer(s);
    uint8_t *block = err == SGRT_OK ? sgrt__alloc(&s->alloc, size, 16, &err) : NULL;
    if (!block)
        return sgrt__fail(s, err, __func__, "the allocator failed", SGRT_NULL_NODE);
    sgrt_writer *w = (sgrt_writer *)(void *)block;
    memset(w, 0, sizeof *w);
    w->o.scene = s;
    w->o.kind = SGRT__KIND_WRITER;
    w->count = count;
    w->flags = flags;
    w->o.block_size = size; /* the writer, its nodes and slots */
    w->nodes = (sgrt_node *)(void *)(block + sizeof *w);
    w->slots = (uint32_t *)(void *)(w->nodes + count);
    memcpy(w->nodes, nodes, (size_t)count * sizeof *nodes);
    uint32_t at;
    w->slots_version = s->slots_version + 1u; /* resolve now */
    (void)refresh(s, w, &at); /* every node was checked live above */
    sgrt__registry_add_writer(s, w);
    if ((flags & SGRT_WRITER_WORLDS_NOW) && !w->ordered && SGRT__VALIDATING(s))
        sgrt__warn(s, __func__,
                   "SGRT_WRITER_WORLDS_NOW with entries out of slot order: the writer writes "
                   "as a plain one (list the nodes parent before child, in creation order)",
                   SGRT_NULL_NODE);
    *out = w;
    return SGRT_OK;
}

sgrt_result sgrt_writer_destroy(sgrt_scene *s, sgrt_writer *w)
{
    if (!s)
        return SGRT_ERR_INVALID_ARG;
    if (!w)
        return SGRT_OK;
    if (s->busy)
        return sgrt__reentered(s, __func__);
    /* Looked up by address first: a writer of another scene, or destroyed
     * already, is never read. */
    if (!sgrt__registry_lists_writer(s, w))
        return sgrt__fail(s, SGRT_ERR_INVALID_ARG, __func__,
                          "w is not a live writer of s: of another scene, or destroyed",
                          SGRT_NULL_NODE);
    sgrt__registry_remove_writer(s, w);
    sgrt__writer_free(s, w);
    return SGRT_OK;
}

/* ---- compute-now writes (SGRT_WRITER_WORLDS_NOW) ----------------------------- */

/* The entries a compute-now write marks before the update kernel computes
 * their worlds: 8 chunks, 16 KiB of locals and as many of worlds, still in
 * L1 (a kernel call per chunk costs more than its walk saves). */
#define NOW_BATCH (8u * CHUNK)

/* One compute-now write: its number among the writes since the last update
 * (0: the write is a plain one), and the update kernel's view, walking the
 * scene's `work` bits (zero between calls) over the entries marked since
 * the last kernel call: `batched` of them, the worlds to compute lying in
 * slots [first, last]. */
typedef struct now_write {
    uint16_t number;
    uint32_t batched, first, last;
    sgrt__bounds_view bounds;
    sgrt__update_view view;
} now_write;

/* Whether this write of w, from entry `first` on, computes worlds, and if so
 * its start: a write reaching below early worlds casts doubt on them. */
static void now_begin(sgrt_scene *s, const sgrt_writer *w, uint32_t first, now_write *nw)
{
    nw->number = 0;
    if (!(w->flags & SGRT_WRITER_WORLDS_NOW) || !w->ordered || s->early_writes == UINT16_MAX)
        return;
    if (w->slots[first] < s->early_end)
        s->early_doubt = true;
    nw->number = ++s->early_writes;
    nw->batched = 0;
    nw->first = nw->last = SGRT__NONE;
    sgrt__storage *st = &s->st;
    sgrt__bounds_view_of(s, &nw->bounds);
    const sgrt__update_view v = {
        (const float(*)[16])st->local, st->world, st->parent, st->work, st->work_sum,
        0, 0, st->b_has ? &nw->bounds : NULL,
    };
    nw->view = v;
}

/* The most ancestors parent_final looks at above a clean parent. */
#define FINAL_WALK 4u

/* Whether the early world of p is final for write `number`: computed by
 * this write, or by an earlier one while no doubt is cast (then every early
 * world is the exact world now; under doubt one may rest on a world that
 * moved since, and waits for the update to settle it). */
static inline bool early_final(const sgrt_scene *s, uint32_t p, uint16_t number)
{
    return !s->early_doubt || s->st.early_write[p] == number;
}

/* Whether the world of p, the parent of an entry being marked, is final: a
 * root's; an early world (early_final); a clean one below no dirty node. A
 * clean node before close_from is below none; past it, its ancestors are
 * looked at (at most FINAL_WALK of them) until one lies before close_from
 * (final), or one is dirty (not: p's world waits for the update). */
static inline bool parent_final(const sgrt_scene *s, uint32_t p, uint16_t number)
{
    if (p != SGRT__NONE && sgrt__bit_get(s->st.dirty, p))
        return sgrt__bit_get(s->st.early, p) && early_final(s, p, number);
    for (uint32_t steps = 0; p != SGRT__NONE && p >= s->close_from; steps++) {
        if (steps == FINAL_WALK || sgrt__bit_get(s->st.dirty, p))
            return false;
        p = s->st.parent[p];
    }
    return true;
}

/* The compute-now pass over a chunk of n entries in consecutive slots
 * [a, a + n), all of which moved (a skeleton's joints, a subtree written
 * whole): each is marked, and its parent is either an entry before it in
 * the run or lies before the run. When every parent before the run is
 * final, so is every world of the run, and the marks are made a word at a
 * time. Returns false (nothing done) when one is not. */
static bool now_run(sgrt_scene *s, uint32_t a, uint32_t n, uint16_t number, uint32_t *last)
{
    sgrt__storage *st = &s->st;
    const uint32_t *parent = st->parent + a;
    uint32_t heads = 0; /* entries whose parent lies before the run (or none) */
    for (uint32_t j = 0; j < n; j++)
        heads |= (uint32_t)(parent[j] + 1u <= a) << j;
    for (uint32_t h = heads; h; h &= h - 1u)
        if (!parent_final(s, parent[sgrt__ctz32(h)], number))
            return false;
    for (uint32_t x = a, end = a + n; x < end;) {
        const uint32_t w = x >> 5, lo = x & 31u;
        const uint32_t k = end - x < 32u - lo ? end - x : 32u - lo;
        const uint32_t bits = (k == 32u ? ~0u : ((1u << k) - 1u)) << lo;
        const uint32_t pend = st->inner[w] & bits & ~st->dirty[w];
        st->dirty[w] |= bits;
        sgrt__bit_set(st->dirty_sum, w);
        st->early[w] |= bits;
        st->work[w] |= bits;
        sgrt__bit_set(st->work_sum, w);
        if (pend)
            sgrt__dirty_pend(s, w, pend);
        if (st->prev_world) {
            uint32_t save = bits & ~st->prev_kept[w];
            SGRT__FOR_EACH_IN_WORD(w, save, i,
                memcpy(st->prev_world[i], st->world[i], sizeof st->prev_world[i]);)
            st->prev_kept[w] |= bits;
            sgrt__bit_set(st->prev_kept_sum, w);
        }
        x += k;
    }
    for (uint32_t j = 0; j < n; j++)
        st->early_write[a + j] = number;
    *last = a + n - 1u;
    return true;
}

/* The compute-now marks of n entries in increasing slots after their locals
 * were stored, entry by entry: `moved` has bit j when entry base + j was written (store16's
 * bits; all of a commit's). An entry is marked when it moved or its parent
 * is dirty (a parent this write marked leaves no closure pending for the
 * entries below it), and its world is computed now when its parent's is
 * final: a root; an early world (computed by this write before, or by an
 * earlier one while no doubt is cast: early_final); a clean parent below no
 * pending closure. The others are left to the update.
 *   The bits of the entries' current word are kept in locals (entries in
 * one word are the common case, and a parent in the same word is read from
 * them), written back when the word changes. Returns the last entry whose
 * world is to be computed (its `work` bit set), SGRT__NONE when none. */
static uint32_t now_scan(sgrt_scene *s, const uint32_t *slot, uint32_t n, uint32_t moved,
                         uint16_t number)
{
    sgrt__storage *st = &s->st;
    uint32_t last = SGRT__NONE;
    const uint32_t *parent = st->parent;
    uint16_t *early_write = st->early_write;
    const bool prev = st->prev_world != NULL;
    /* The current word: its dirty, early and inner bits as they become, the
     * worlds to compute, the marked nodes with children to pend. */
    uint32_t cw = slot[0] >> 5;
    uint32_t dirty = st->dirty[cw], early = st->early[cw], inner = st->inner[cw];
    uint32_t work = 0, pend = 0;
#define STORE_WORD()                                                                   \
    do {                                                                               \
        st->dirty[cw] = dirty;                                                         \
        if (dirty)                                                                     \
            sgrt__bit_set(st->dirty_sum, cw);                                          \
        st->early[cw] = early;                                                         \
        if (work) {                                                                    \
            st->work[cw] |= work;                                                      \
            sgrt__bit_set(st->work_sum, cw);                                           \
        }                                                                              \
        if (pend)                                                                      \
            sgrt__dirty_pend(s, cw, pend);                                             \
    } while (0)
    for (uint32_t j = 0; j < n; j++) {
        const uint32_t x = slot[j], p = parent[x];
        if (x >> 5 != cw) {
            STORE_WORD();
            cw = x >> 5;
            dirty = st->dirty[cw], early = st->early[cw], inner = st->inner[cw];
            work = pend = 0;
        }
        uint32_t pd, pe; /* the parent's dirty and early bits */
        if (p >> 5 == cw) { /* SGRT__NONE >> 5 is no word */
            pd = dirty >> (p & 31u), pe = early >> (p & 31u);
        } else if (p != SGRT__NONE) {
            pd = st->dirty[p >> 5] >> (p & 31u), pe = st->early[p >> 5] >> (p & 31u);
        } else {
            pd = pe = 0;
        }
        pd &= 1u, pe &= pd;
        if (!(((moved >> j) | pd) & 1u))
            continue;
        const uint32_t bit = 1u << (x & 31u);
        pend |= inner & bit & ~dirty;
        dirty |= bit;
        bool final = p == SGRT__NONE || (pe && early_final(s, p, number));
        if (p != SGRT__NONE && !pd) {
            /* A clean parent is final below close_from and below this
             * word's marks not yet pended; past them, parent_final looks
             * above it, in the scene's bits: this word's go there first. */
            final = p < s->close_from && (!pend || p < cw * 32u + sgrt__ctz32(pend));
            if (!final) {
                st->dirty[cw] = dirty;
                sgrt__bit_set(st->dirty_sum, cw);
                if (pend)
                    sgrt__dirty_pend(s, cw, pend);
                pend = 0;
                final = parent_final(s, p, number);
            }
        }
        if (!final) {
            early &= ~bit; /* an early world of an earlier write is stale */
            continue;
        }
        early |= bit;
        work |= bit;
        early_write[x] = number;
        if (prev && !(st->prev_kept[cw] & bit)) {
            /* The update would have saved it before recomputing it. */
            memcpy(st->prev_world[x], st->world[x], sizeof st->prev_world[x]);
            st->prev_kept[cw] |= bit;
            sgrt__bit_set(st->prev_kept_sum, cw);
        }
        last = x;
    }
    STORE_WORD();
#undef STORE_WORD
    return last;
}

/* The worlds marked since the last call, computed by the update kernel in
 * slot order. */
static void now_flush(sgrt_scene *s, now_write *nw)
{
    if (nw->first != SGRT__NONE) {
        nw->view.sum_first = nw->first / SGRT__SLOTS_PER_SUM;
        nw->view.sum_end = nw->last / SGRT__SLOTS_PER_SUM + 1u;
        (void)s->k.update(&nw->view);
        if (nw->last >= s->early_end)
            s->early_end = nw->last + 1u;
    }
    nw->batched = 0;
    nw->first = nw->last = SGRT__NONE;
}

/* One chunk of a compute-now write, entries [base, base + n) after their
 * locals were stored (`moved`: see now_scan): marked, and their worlds
 * computed every NOW_BATCH entries (and by the write's last now_flush). */
static void now_chunk(sgrt_scene *s, const sgrt_writer *w, uint32_t base, uint32_t n,
                      uint32_t moved, now_write *nw)
{
    const uint32_t *slot = w->slots + base;
    uint32_t last;
    if (moved != (n == 32u ? ~0u : (1u << n) - 1u) || slot[n - 1] - slot[0] != n - 1u ||
        !now_run(s, slot[0], n, nw->number, &last))
        last = now_scan(s, slot, n, moved, nw->number);
    if (last != SGRT__NONE) {
        if (nw->first == SGRT__NONE)
            nw->first = slot[0];
        nw->last = last;
    }
    if ((nw->batched += n) >= NOW_BATCH)
        now_flush(s, nw);
}

static sgrt_result writer_write(sgrt_scene *s, sgrt_writer *w, const source *src,
                                uint32_t *out_bad)
{
    uint32_t at = 0;
    sgrt_result r = refresh(s, w, &at);
    if (r != SGRT_OK)
        return refuse(s, src->function, w->nodes[at], out_bad, at, r, NULL);
    float buf[CHUNK * 16];
    const uint32_t count = w->count;
    const uint32_t qbad = quats_off(s, src, w->nodes, count);
    for (uint32_t base = 0, n; (n = chunk_of(count, base)) != 0; base += n) {
        const uint32_t bad = base + chunk_bad(s, src, base, n, buf);
        if (bad < base + n && bad < qbad)
            return refuse(s, src->function, w->nodes[bad], out_bad, bad, SGRT_ERR_INVALID_ARG,
                          src->m ? local_bad : trs_bad);
        if (qbad < base + n)
            return refuse(s, src->function, w->nodes[qbad], out_bad, qbad, SGRT_ERR_INVALID_ARG,
                          quat_bad);
    }
    now_write nw;
    now_begin(s, w, 0, &nw);
    for (uint32_t base = 0, n; (n = chunk_of(count, base)) != 0; base += n) {
        const uint32_t *slot = w->slots + base;
        const uint32_t ahead = chunk_of(count, base + n);
        const float *m = chunk_matrices(s, src, base, n, buf);
        if (!nw.number)
            write_chunk(s, slot, n, m, ahead);
        else
            now_chunk(s, w, base, n, s->k.store16(s->st.local, slot, m, n, ahead), &nw);
    }
    if (nw.number)
        now_flush(s, &nw);
    return SGRT_OK;
}

sgrt_result sgrt_writer_set_local(sgrt_scene *s, sgrt_writer *w, const float *local,
                                  uint32_t *out_bad)
{
    if (!s)
        return SGRT_ERR_INVALID_ARG;
    if (s->busy) /* the tasks of a parallel update write the locals' worlds */
        return sgrt__reentered(s, __func__);
    if (!own(s, w) || !local)
        return sgrt__fail(s, SGRT_ERR_INVALID_ARG, __func__,
                          !local ? "local is NULL" : writer_problem(s, w), SGRT_NULL_NODE);
    const source src = {local, NULL, NULL, NULL, __func__};
    return writer_write(s, w, &src, out_bad);
}

sgrt_result sgrt_writer_set_trs(sgrt_scene *s, sgrt_writer *w, const float *t, const float *q,
                                const float *scale, uint32_t *out_bad)
{
    if (!s)
        return SGRT_ERR_INVALID_ARG;
    if (s->busy) /* the tasks of a parallel update write the locals' worlds */
        return sgrt__reentered(s, __func__);
    if (!own(s, w) || !t || !q || !scale)
        return sgrt__fail(s, SGRT_ERR_INVALID_ARG, __func__,
                          own(s, w) ? "t, q or scale is NULL" : writer_problem(s, w),
                          SGRT_NULL_NODE);
    const source src = {NULL, t, q, scale, __func__};
    return writer_write(s, w, &src, out_bad);
}

sgrt_result sgrt_writer_begin(sgrt_scene *s, sgrt_writer *w, float **out_locals,
                              const uint32_t **out_slots)
{
    if (!s)
        return SGRT_ERR_INVALID_ARG;
    if (s->busy) /* the tasks of a parallel update write the locals' worlds */
        return sgrt__reentered(s, __func__);
    if (!own(s, w) || !out_locals || !out_slots)
        return sgrt__fail(s, SGRT_ERR_INVALID_ARG, __func__,
                          own(s, w) ? "out_locals or out_slots is NULL" : writer_problem(s, w),
                          SGRT_NULL_NODE);
    uint32_t at;
    const sgrt_result r = refresh(s, w, &at);
    if (r != SGRT_OK)
        return sgrt__fail(s, r, __func__, SGRT__STALE("an entry's node"), w->nodes[at]);
    w->begun_block = s->st.block;
    w->begun_version = s->slots_version;
    *out_locals = &s->st.local[0][0];
    *out_slots = w->slots;
    return SGRT_OK;
}

static const float identity[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};

sgrt_result sgrt_writer_commit(sgrt_scene *s, sgrt_writer *w, uint32_t first, uint32_t count,
                               uint32_t *out_bad)
{
    if (!s)
        return SGRT_ERR_INVALID_ARG;
    if (s->busy) /* the tasks of a parallel update write the locals' worlds */
        return sgrt__reentered(s, __func__);
    if (!own(s, w) || first > w->count || count > w->count - first)
        return sgrt__fail(s, SGRT_ERR_INVALID_ARG, __func__,
                          own(s, w) ? "first + count is past the writer's entries"
                                    : writer_problem(s, w),
                          SGRT_NULL_NODE);
    if (w->begun_block != s->st.block || w->begun_version != s->slots_version)
        return sgrt__fail(s, SGRT_ERR_STALE_HANDLE, __func__,
                          "nodes moved to other slots, were destroyed or storage grew since "
                          "sgrt_writer_begin: the writes went to the slots of then",
                          SGRT_NULL_NODE);
    const float *locals = &s->st.local[0][0];
    uint32_t first_bad = SGRT__NONE;
    now_write nw;
    if (count)
        now_begin(s, w, first, &nw);
    for (uint32_t base = first, end = first + count, n; (n = chunk_of(end, base)) != 0;
         base += n) {
        const uint32_t *slot = w->slots + base;
        /* A non-finite local becomes the identity: no NaN reaches a world. */
        for (uint32_t j = 0, bad; (bad = j + s->k.check16(locals, slot + j, n - j)) < n; j = bad + 1u) {
            memcpy(s->st.local[slot[bad]], identity, sizeof identity);
            if (first_bad == SGRT__NONE)
                first_bad = base + bad;
        }
        const uint32_t all = n == 32u ? ~0u : (1u << n) - 1u;
        if (!nw.number)
            sgrt__dirty_mark_slots(s, slot, all);
        else
            now_chunk(s, w, base, n, all, &nw);
    }
    if (count && nw.number)
        now_flush(s, &nw);
    if (first_bad != SGRT__NONE)
        return refuse(s, __func__, w->nodes[first_bad], out_bad, first_bad, SGRT_ERR_INVALID_ARG,
                      "the local of entry *out_bad (in place) held a NaN or an infinity: it "
                      "is the identity now, and the range was committed");
    return SGRT_OK;
}
