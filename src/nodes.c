/* SPDX-License-Identifier: MIT */
/* Handle batches: sgrt_nodes_set_local and sgrt_nodes_set_trs resolve their
 * handles on each call and run the write path (write.h) a chunk at a time:
 * the next chunk's handles are resolved and its entries checked before
 * this chunk is written, so that the store fetches the next chunk's locals
 * while it works. */
#include "write.h"
#include "args.h"
#include "dirty.h"
#include "handles.h"
#include "result.h"
#include <string.h>

#define CHUNK SGRT__WRITE_CHUNK

/* Resolve entries [base, base + n) into slot[], their table entries
 * fetched first so that their misses overlap: returns how many before the
 * first stale one (n when none). Reads the n handles, past a stale one too
 * (resolving them one by one, the misses overlap less: a batch of random
 * handles wrote 15 to 20 % slower). */
static uint32_t resolve_chunk(const sgrt_scene *s, const sgrt_node *nodes, uint32_t base,
                              uint32_t n, uint32_t *slot)
{
    for (uint32_t j = 0; j < n; j++)
        SGRT__PREFETCH(sgrt__handle_entry(s, nodes[base + j]));
    for (uint32_t j = 0; j < n; j++) {
        slot[j] = sgrt__resolve(s, nodes[base + j]);
        if (slot[j] == SGRT__NONE)
            return j;
    }
    return n;
}

/* Take entries [base, base + n) as their single calls would, in order:
 * the handles resolved into slot[] up to the first stale one, then the
 * entries before it checked (sgrt__write_check). Returns how many may be
 * written; when fewer than n, *err and *quat say why the next one is
 * refused. Past that one it reads the chunk's handles (and see
 * sgrt__write_check). */
static uint32_t take_chunk(const sgrt_scene *s, const sgrt_node *nodes, const sgrt__source *src,
                           uint32_t base, uint32_t n, uint32_t *slot, sgrt__chunk *c,
                           sgrt_result *err, bool *quat, bool *warned)
{
    const uint32_t live = resolve_chunk(s, nodes, base, n, slot);
    const uint32_t ok = sgrt__write_check(s, src, nodes, base, live, c, quat, warned);
    *err = ok < live ? SGRT_ERR_INVALID_ARG : SGRT_ERR_STALE_HANDLE;
    return ok;
}

static sgrt_result nodes_write(sgrt_scene *s, uint32_t count, const sgrt_node *nodes,
                               const sgrt__source *src, uint32_t *out_bad)
{
    if (count == 0)
        return SGRT_OK; /* the arrays may be NULL */
    /* The chunk being stored, and right after it the next one's slots: the
     * store fetches the locals of the slots that follow its own. */
    uint32_t slots[2 * CHUNK];
    sgrt__chunk c[2];
    sgrt_result err[2];
    bool quat[2], warned = false;
    uint32_t n = sgrt__write_chunk_of(count, 0), cur = 0;
    uint32_t ok = take_chunk(s, nodes, src, 0, n, slots, &c[0], &err[0], &quat[0], &warned);
    for (uint32_t base = 0; n; cur ^= 1u) {
        /* The next chunk taken before this one is stored, once this one is
         * known good (a full chunk, then): its locals are fetched while
         * this one is written. */
        const uint32_t next_n = ok == n ? sgrt__write_chunk_of(count, base + n) : 0u;
        const uint32_t next_ok =
            next_n ? take_chunk(s, nodes, src, base + n, next_n, slots + CHUNK, &c[cur ^ 1u],
                                &err[cur ^ 1u], &quat[cur ^ 1u], &warned)
                   : 0u;
        sgrt__dirty_mark_slots(s, slots, sgrt__write_store(s, src, &c[cur], slots, ok, next_ok));
        if (ok < n)
            return sgrt__write_refuse(s, src, nodes[base + ok], out_bad, base + ok, err[cur],
                                      quat[cur]);
        memcpy(slots, slots + CHUNK, next_ok * sizeof *slots);
        base += n;
        n = next_n;
        ok = next_ok;
    }
    return SGRT_OK;
}

sgrt_result sgrt_nodes_set_local(sgrt_scene *s, uint32_t count, const sgrt_node *nodes,
                                 const float *local, uint32_t *out_bad)
{
    SGRT__ENTER(s, SGRT_ERR_INVALID_ARG);
    if (count && (!nodes || !local))
        return sgrt__fail(s, SGRT_ERR_INVALID_ARG, __func__,
                          "nodes or local is NULL with count > 0", SGRT_NULL_NODE);
    const sgrt__source src = {local, NULL, NULL, NULL, __func__};
    return nodes_write(s, count, nodes, &src, out_bad);
}

sgrt_result sgrt_nodes_set_trs(sgrt_scene *s, uint32_t count, const sgrt_node *nodes,
                               const float *t, const float *q, const float *scale,
                               uint32_t *out_bad)
{
    SGRT__ENTER(s, SGRT_ERR_INVALID_ARG);
    if (count && (!nodes || !t || !q || !scale))
        return sgrt__fail(s, SGRT_ERR_INVALID_ARG, __func__,
                          "nodes, t, q or scale is NULL with count > 0", SGRT_NULL_NODE);
    const sgrt__source src = {NULL, t, q, scale, __func__};
    return nodes_write(s, count, nodes, &src, out_bad);
}
