/* SPDX-License-Identifier: MIT */
/* Writers (sgrt_writer_*): a fixed list of nodes resolved once. Their
 * writes run the write path of write.h without resolving handles, and mark
 * a dirty word at a time wherever entries follow each other in slot order
 * (a run: a skeleton's joints, a subtree written depth-first). In place,
 * begin hands out the storage and commit only marks: the update checks
 * every local it reads (a non-finite one becomes the identity there). In
 * validation mode a writer that has begun keeps a fingerprint of each
 * entry's local, so that the update can report a local written in place
 * and never committed, which it would otherwise silently not recompute. */
#include "../write.h"
#include "../args.h"
#include "../alloc.h"
#include "../dirty.h"
#include "../handles.h"
#include "../objects.h"
#include "../result.h"
#include "../validate.h"
#include "writer.h"
#include <string.h>

#define CHUNK SGRT__WRITE_CHUNK

struct sgrt__writer {
    uint32_t id;       /* the writer's handle id */
    size_t block_size; /* the writer is one allocation of this size */
    uint32_t count;
    uint64_t slots_version; /* the scene's slots_version when slots[] was resolved */
    sgrt_node *nodes;
    uint32_t *slots;
    /* Bit i set when entry i starts a run: entry 0, and each entry whose
     * slot is not one past the slot of the entry before it. One word of
     * padding past the last, zero, so that 32 bits read from any entry on
     * stay inside. */
    uint32_t *starts;
    /* What sgrt_writer_begin handed out: the storage block and slots
     * version the in-place writes go to. */
    const void *begun_block;
    uint64_t begun_version;
    /* Validation mode only (NULL otherwise): per entry, a fingerprint of
     * its node's local as last accounted for (at the first begin, then
     * after each update), and whether begin has handed out the storage. */
    uint64_t *prints;
    bool begun;
};


/* 32 bits of `starts` from entry i on: bit j is entry i + j. */
static inline uint32_t starts_at(const sgrt__writer *w, uint32_t i)
{
    const uint32_t k = i >> 5, sh = i & 31u;
    const uint32_t lo = w->starts[k] >> sh;
    return sh ? lo | w->starts[k + 1u] << (32u - sh) : lo;
}

/* The entries of the run that entry i begins or continues, from i to the
 * next start or `end`, whichever comes first. */
static inline uint32_t run_from(const sgrt__writer *w, uint32_t i, uint32_t end)
{
    uint32_t j = i + 1u;
    while (j < end) {
        const uint32_t next = starts_at(w, j);
        if (next) {
            j += sgrt__ctz32(next);
            break;
        }
        j += 32u;
    }
    return (j < end ? j : end) - i;
}

/* Mark the entries j of [base, base + n) (n <= CHUNK) whose bit is set in
 * `moved`: a word at a time when the chunk is one run, else by slot. */
static inline void mark_chunk(sgrt_scene *s, const sgrt__writer *w, uint32_t base, uint32_t n,
                              uint32_t moved)
{
    const uint32_t after_first = n == 32u ? ~0u >> 1 : ((1u << n) - 1u) >> 1;
    if (!((starts_at(w, base) >> 1) & after_first))
        sgrt__dirty_mark_run(s, w->slots[base], moved);
    else
        sgrt__dirty_mark_slots(s, w->slots + base, moved);
}

static const char *const why_w[3] = SGRT__WHY_OBJECT("w", "writer");

/* The writer `handle` names, or NULL after refusing it. */
#define WRITER_ARG(handle, function, err)                                              \
    ((sgrt__writer *)sgrt__object_arg(s, (handle).id, SGRT__KIND_WRITER, why_w, function, err))

/* The slots of the writer's entries, resolved again when a node moved to
 * another slot or was destroyed since, and their runs. Returns SGRT_OK, or
 * STALE_HANDLE with the first dead entry in *at. */
static sgrt_result refresh(const sgrt_scene *s, sgrt__writer *w, uint32_t *at)
{
    if (w->slots_version == s->slots_version)
        return SGRT_OK;
    for (uint32_t i = 0; i < w->count; i++) {
        if (i + SGRT__WRITE_AHEAD < w->count)
            SGRT__PREFETCH(sgrt__handle_entry(s, w->nodes[i + SGRT__WRITE_AHEAD]));
        w->slots[i] = sgrt__resolve(s, w->nodes[i]);
        if (w->slots[i] == SGRT__NONE) {
            *at = i;
            return SGRT_ERR_STALE_HANDLE;
        }
    }
    memset(w->starts, 0, ((size_t)w->count / 32u + 1u) * sizeof *w->starts);
    for (uint32_t i = 0; i < w->count; i++)
        if (i == 0 || w->slots[i] != w->slots[i - 1u] + 1u)
            sgrt__bit_set(w->starts, i);
    w->slots_version = s->slots_version;
    return SGRT_OK;
}

/* Validation mode's fingerprint of a local: FNV-1a over its 16 words. Two
 * different locals give the same print with odds of about 2^-64, so a
 * forgotten commit can go unreported that rarely. */
static uint64_t print16(const float m[16])
{
    uint32_t u[16];
    memcpy(u, m, sizeof u);
    uint64_t h = 0xcbf29ce484222325ull;
    for (uint32_t i = 0; i < 16u; i++)
        h = (h ^ u[i]) * 0x100000001b3ull;
    return h;
}

/* Validation mode: every entry's print taken from its node's local now
 * (the locals are accounted for). Entries whose node was destroyed keep
 * theirs: they are skipped. */
static void reprint(const sgrt_scene *s, sgrt__writer *w)
{
    for (uint32_t i = 0; i < w->count; i++) {
        const uint32_t slot = sgrt__resolve(s, w->nodes[i]);
        if (slot != SGRT__NONE)
            w->prints[i] = print16(s->st.local[slot]);
    }
}

/* Validation mode: one warning, naming the node, for the first entry whose
 * local changed since its print while nothing marked its node or an
 * ancestor: written in place and not committed, so the next update would
 * not recompute it. A node marked since (committed, written by another
 * call, re-parented, below one of those) is recomputed with whatever its
 * local holds. O(count x depth). */
static void audit(const sgrt_scene *s, const sgrt__writer *w, const char *function,
                  const char *message)
{
    for (uint32_t i = 0; i < w->count; i++) {
        const uint32_t slot = sgrt__resolve(s, w->nodes[i]);
        if (slot == SGRT__NONE || print16(s->st.local[slot]) == w->prints[i] ||
            sgrt__validate_recomputed(s, slot))
            continue;
        sgrt__warn(s, function, message, w->nodes[i]);
        return;
    }
}

static const char forgotten_update[] =
    "a local written in place (sgrt_writer_begin) was not committed (sgrt_writer_commit): "
    "this update does not recompute its world (node: the first such entry's)";
static const char forgotten_destroy[] =
    "w is destroyed with a local written in place (sgrt_writer_begin) and not committed "
    "(sgrt_writer_commit): the next update will not recompute its world (node: the first "
    "such entry's)";

sgrt_result sgrt_writer_create(sgrt_scene *s, uint32_t count, const sgrt_node *nodes,
                               uint32_t flags, sgrt_writer *out)
{
    SGRT__ENTER_WRITE(s);
    if (!nodes || !out || !count || flags)
        return sgrt__fail(s, SGRT_ERR_INVALID_ARG, __func__,
                          !count   ? "count is 0"
                          : !nodes ? "nodes is NULL"
                          : !out   ? "out is NULL"
                                   : "flags is not 0 (no writer options are defined)",
                          SGRT_NULL_NODE);
    sgrt_result err;
    for (uint32_t i = 0; i < count; i++)
        if (SGRT__NODE_ARG(s, nodes[i], "a node of nodes", __func__, &err) == SGRT__NONE)
            return err;
    /* The writer, its nodes, slots and run starts (one word of padding),
     * and in validation mode the prints. */
    const size_t prints = SGRT__VALIDATING(s) ? sizeof(uint64_t) : 0u;
    const size_t entry = sizeof(sgrt_node) + sizeof(uint32_t) + prints;
    const size_t starts = ((size_t)count / 32u + 2u) * sizeof(uint32_t);
    const size_t head = (sizeof(sgrt__writer) + 7u) & ~(size_t)7u;
    const size_t size = head + (size_t)count * entry + starts;
    if ((size - head - starts) / entry != count)
        return sgrt__fail(s, SGRT_ERR_NOMEM, __func__, "the writer's size does not fit in size_t",
                          SGRT_NULL_NODE);
    err = sgrt__object_ensure(s, __func__);
    if (err != SGRT_OK)
        return err;
    uint8_t *block = sgrt__alloc(&s->alloc, size, 16, &err);
    if (!block)
        return sgrt__fail_grow(s, err, __func__, SGRT_NULL_NODE);
    sgrt__writer *w = (sgrt__writer *)(void *)block;
    memset(w, 0, sizeof *w);
    w->block_size = size;
    w->count = count;
    /* The prints first: 8-byte entries at an 8-byte boundary. */
    w->prints = prints ? (uint64_t *)(void *)(block + head) : NULL;
    w->nodes = (sgrt_node *)(void *)(block + head + (size_t)count * prints);
    w->slots = (uint32_t *)(void *)(w->nodes + count);
    w->starts = w->slots + count;
    memset(w->starts, 0, starts);
    memcpy(w->nodes, nodes, (size_t)count * sizeof *nodes);
    uint32_t at;
    w->slots_version = s->slots_version + 1u; /* resolve now */
    (void)refresh(s, w, &at); /* every node was checked live above */
    w->id = sgrt__object_take(s, SGRT__KIND_WRITER, w);
    out->id = w->id;
    return SGRT_OK;
}

sgrt_result sgrt_writer_destroy(sgrt_scene *s, sgrt_writer w)
{
    SGRT__ENTER(s, SGRT_ERR_INVALID_ARG);
    if (!w.id)
        return SGRT_OK;
    if (s->busy)
        return sgrt__reentered(s, __func__);
    /* Through the table, which only the scene's own objects are in: the
     * memory of a destroyed writer, or of another scene's, is never read. */
    sgrt_result err;
    sgrt__writer *o = WRITER_ARG(w, __func__, &err);
    if (!o)
        return err;
    if (SGRT__VALIDATING(s) && o->begun)
        audit(s, o, __func__, forgotten_destroy);
    sgrt__object_release(s, w.id);
    sgrt__free(&s->alloc, o, o->block_size);
    return SGRT_OK;
}

static sgrt_result writer_write(sgrt_scene *s, sgrt__writer *w, const sgrt__source *src,
                                uint32_t *out_bad)
{
    uint32_t at = 0;
    if (refresh(s, w, &at) != SGRT_OK) {
        if (out_bad)
            *out_bad = at;
        return sgrt__fail(s, SGRT_ERR_STALE_HANDLE, src->function,
                          "the node of w's entry *out_bad was destroyed: nothing was written "
                          "(a writer's nodes are resolved before any entry is written)",
                          w->nodes[at]);
    }
    const uint32_t count = w->count;
    sgrt__chunk c;
    bool quat, warned = false;
    for (uint32_t base = 0, n; (n = sgrt__write_chunk_of(count, base)) != 0; base += n) {
        const uint32_t ok = sgrt__write_check(s, src, w->nodes, base, n, &c, &quat, &warned);
        const uint32_t ahead = ok == n ? sgrt__write_chunk_of(count, base + n) : 0u;
        mark_chunk(s, w, base, n, sgrt__write_store(s, src, &c, w->slots + base, ok, ahead));
        if (ok < n)
            return sgrt__write_refuse(s, src, w->nodes[base + ok], out_bad, base + ok,
                                      SGRT_ERR_INVALID_ARG, quat);
    }
    return SGRT_OK;
}

sgrt_result sgrt_writer_set_local(sgrt_scene *s, sgrt_writer handle, const float *local,
                                  uint32_t *out_bad)
{
    /* Busy refused: the tasks of a parallel update read the locals. */
    SGRT__ENTER_WRITE(s);
    sgrt_result err;
    sgrt__writer *w = WRITER_ARG(handle, __func__, &err);
    if (!w)
        return err;
    SGRT__NOT_NULL(s, local, SGRT_NULL_NODE);
    const sgrt__source src = {local, NULL, NULL, NULL, __func__};
    return writer_write(s, w, &src, out_bad);
}

sgrt_result sgrt_writer_set_trs(sgrt_scene *s, sgrt_writer handle, const float *t, const float *q,
                                const float *scale, uint32_t *out_bad)
{
    /* Busy refused: the tasks of a parallel update read the locals. */
    SGRT__ENTER_WRITE(s);
    sgrt_result err;
    sgrt__writer *w = WRITER_ARG(handle, __func__, &err);
    if (!w)
        return err;
    if (!t || !q || !scale)
        return sgrt__fail(s, SGRT_ERR_INVALID_ARG, __func__, "t, q or scale is NULL",
                          SGRT_NULL_NODE);
    const sgrt__source src = {NULL, t, q, scale, __func__};
    return writer_write(s, w, &src, out_bad);
}

sgrt_result sgrt_writer_begin(sgrt_scene *s, sgrt_writer handle, float **out_locals,
                              const uint32_t **out_slots)
{
    /* Busy refused: the tasks of a parallel update read the locals. */
    SGRT__ENTER_WRITE(s);
    sgrt_result err;
    sgrt__writer *w = WRITER_ARG(handle, __func__, &err);
    if (!w)
        return err;
    if (!out_locals || !out_slots)
        return sgrt__fail(s, SGRT_ERR_INVALID_ARG, __func__, "out_locals or out_slots is NULL",
                          SGRT_NULL_NODE);
    uint32_t at;
    const sgrt_result r = refresh(s, w, &at);
    if (r != SGRT_OK)
        return sgrt__fail(s, r, __func__, SGRT__STALE("an entry's node"), w->nodes[at]);
    /* Validation mode: from the first begin on, each update compares the
     * entries' locals with their prints (the prints are kept current
     * after each update, so a later begin needs none). */
    if (w->prints && !w->begun) {
        reprint(s, w);
        w->begun = true;
    }
    w->begun_block = s->st.block;
    w->begun_version = s->slots_version;
    *out_locals = &s->st.local[0][0];
    *out_slots = w->slots;
    return SGRT_OK;
}

sgrt_result sgrt_writer_commit(sgrt_scene *s, sgrt_writer handle, uint32_t first, uint32_t count)
{
    /* Busy refused: the tasks of a parallel update read the locals. */
    SGRT__ENTER_WRITE(s);
    sgrt_result err;
    sgrt__writer *w = WRITER_ARG(handle, __func__, &err);
    if (!w)
        return err;
    if (first > w->count || count > w->count - first)
        return sgrt__fail(s, SGRT_ERR_INVALID_ARG, __func__,
                          "first + count is past the writer's entries", SGRT_NULL_NODE);
    if (!w->begun_block)
        return sgrt__fail(s, SGRT_ERR_INVALID_ARG, __func__,
                          "w was never begun: sgrt_writer_begin hands out the storage to write "
                          "in place, then sgrt_writer_commit marks what was written",
                          SGRT_NULL_NODE);
    if (w->begun_block != s->st.block || w->begun_version != s->slots_version)
        return sgrt__fail(s, SGRT_ERR_STALE_HANDLE, __func__,
                          "nodes moved to other slots, were destroyed or storage grew since "
                          "sgrt_writer_begin: the writes went to the slots of then",
                          SGRT_NULL_NODE);
    for (uint32_t i = first, end = first + count, n; i < end; i += n) {
        n = run_from(w, i, end);
        sgrt__dirty_mark_range(s, w->slots[i], n);
    }
    return SGRT_OK;
}

/* ---- the follower ------------------------------------------------------------ */

/* Validation mode, as each public update starts: the writers that have
 * begun are audited for a forgotten commit. */
static void start(sgrt_scene *s, const char *function)
{
    const sgrt__writer *w;
    if (SGRT__VALIDATING(s))
        for (uint32_t at = 0; (w = sgrt__object_next(s, SGRT__KIND_WRITER, &at)) != NULL;)
            if (w->begun)
                audit(s, w, function, forgotten_update);
}

/* Validation mode, after the kernels: their locals as they are now are
 * accounted for. */
static void finish(sgrt_scene *s)
{
    sgrt__writer *w;
    if (SGRT__VALIDATING(s))
        for (uint32_t at = 0; (w = sgrt__object_next(s, SGRT__KIND_WRITER, &at)) != NULL;)
            if (w->begun)
                reprint(s, w);
}

/* An update with nothing dirty still accounts for them (validation mode). */
static bool pending(const sgrt_scene *s)
{
    const sgrt__writer *w;
    if (SGRT__VALIDATING(s))
        for (uint32_t at = 0; (w = sgrt__object_next(s, SGRT__KIND_WRITER, &at)) != NULL;)
            if (w->begun)
                return true;
    return false;
}

/* A restore: the slots were bumped (slots_version), so each writer
 * resolves its nodes again; in validation mode the locals the restore put
 * back are accounted for, as after an update (they were not written in
 * place). */
static void restored(sgrt_scene *s, const uint32_t *changed)
{
    (void)changed;
    finish(s);
}

static void destroy(sgrt_scene *s)
{
    sgrt__writer *w;
    for (uint32_t at = 0; (w = sgrt__object_next(s, SGRT__KIND_WRITER, &at)) != NULL;)
        sgrt__free(&s->alloc, w, w->block_size);
}

const sgrt__follower sgrt__writer_follower = {
    .start = start,
    .pending = pending,
    .finish = finish,
    .restored = restored,
    .destroy = destroy,
};
