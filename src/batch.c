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
    const sgrt_scene *scene; /* owner, to refuse writers of another scene */
    uint32_t kind;           /* SGRT__KIND_WRITER */
    uint32_t count;
    uint64_t slots_version; /* the scene's slots_version when slots[] was resolved */
    sgrt_node *nodes;
    uint32_t *slots;
    size_t block_size; /* nodes and slots, one allocation */
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

/* The checking pass over one chunk: the matrices first (check16 says which
 * is bad), then the handles, resolved into slot[] with the handle entries
 * fetched SGRT__WRITE_AHEAD ahead. Returns SGRT_OK, or the first refused
 * entry's error with its index in *at. */
static sgrt_result check_chunk(const sgrt_scene *s, uint32_t count, const sgrt_node *nodes,
                               uint32_t base, uint32_t n, const float *m, uint32_t *slot,
                               uint32_t *at)
{
    const uint32_t bad = s->k.check16(m, NULL, n);
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
            check_chunk(s, count, nodes, base, n, chunk_matrices(s, src, base, n, buf), slot, &at);
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

bool sgrt__writer_of(const sgrt_scene *s, const sgrt_writer *w)
{
    return s && w && w->scene == s && w->kind == SGRT__KIND_WRITER;
}

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
    w->slots_version = s->slots_version;
    return SGRT_OK;
}

sgrt_result sgrt_writer_create(sgrt_scene *s, uint32_t count, const sgrt_node *nodes,
                               sgrt_writer **out)
{
    if (!s)
        return SGRT_ERR_INVALID_ARG;
    if (!nodes || !out || !count)
        return sgrt__fail(s, SGRT_ERR_INVALID_ARG, __func__,
                          !count ? "count is 0" : !nodes ? "nodes is NULL" : "out is NULL",
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
    w->scene = s;
    w->kind = SGRT__KIND_WRITER;
    w->count = count;
    w->block_size = size;
    w->nodes = (sgrt_node *)(void *)(block + sizeof *w);
    w->slots = (uint32_t *)(void *)(w->nodes + count);
    memcpy(w->nodes, nodes, (size_t)count * sizeof *nodes);
    uint32_t at;
    w->slots_version = s->slots_version + 1u; /* resolve now */
    (void)refresh(s, w, &at); /* every node was checked live above */
    sgrt__registry_add_writer(s, w);
    *out = w;
    return SGRT_OK;
}

void sgrt__writer_free(sgrt_scene *s, sgrt_writer *w)
{
    w->kind = 0; /* a second destroy is refused, not a double free */
    sgrt__free(&s->alloc, w, w->block_size);
}

void sgrt_writer_destroy(sgrt_scene *s, sgrt_writer *w)
{
    if (!w)
        return;
    /* Looked up by address first: a writer of another scene, or destroyed
     * already, is never read. */
    if (!sgrt__registry_lists_writer(s, w)) {
        (void)sgrt__fail(s, SGRT_ERR_INVALID_ARG, __func__,
                         "w is not a live writer of s: of another scene, or destroyed", SGRT_NULL_NODE);
        return;
    }
    sgrt__registry_remove_writer(s, w);
    sgrt__writer_free(s, w);
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
        const uint32_t bad = base + s->k.check16(chunk_matrices(s, src, base, n, buf), NULL, n);
        if (bad < base + n && bad < qbad)
            return refuse(s, src->function, w->nodes[bad], out_bad, bad, SGRT_ERR_INVALID_ARG,
                          src->m ? local_bad : trs_bad);
        if (qbad < base + n)
            return refuse(s, src->function, w->nodes[qbad], out_bad, qbad, SGRT_ERR_INVALID_ARG,
                          quat_bad);
    }
    for (uint32_t base = 0, n; (n = chunk_of(count, base)) != 0; base += n)
        write_chunk(s, w->slots + base, n, chunk_matrices(s, src, base, n, buf),
                    chunk_of(count, base + n));
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
    for (uint32_t base = first, end = first + count, n; (n = chunk_of(end, base)) != 0;
         base += n) {
        const uint32_t *slot = w->slots + base;
        /* A non-finite local becomes the identity: no NaN reaches a world. */
        for (uint32_t j = 0, bad; (bad = j + s->k.check16(locals, slot + j, n - j)) < n; j = bad + 1u) {
            memcpy(s->st.local[slot[bad]], identity, sizeof identity);
            if (first_bad == SGRT__NONE)
                first_bad = base + bad;
        }
        sgrt__dirty_mark_slots(s, slot, n == 32u ? ~0u : (1u << n) - 1u);
    }
    if (first_bad != SGRT__NONE)
        return refuse(s, __func__, w->nodes[first_bad], out_bad, first_bad, SGRT_ERR_INVALID_ARG,
                      "the local of entry *out_bad (in place) held a NaN or an infinity: it "
                      "is the identity now, and the range was committed");
    return SGRT_OK;
}
