/* SPDX-License-Identifier: MIT */
/* The write path that handle batches (nodes.c) and writers (writer.c)
 * share: where a batch's matrices come from, and one pass over the entries,
 * a chunk of SGRT__WRITE_CHUNK at a time, that checks each chunk (after its
 * handles, which a handle batch resolves first) and writes it while its
 * input is in L1, through the kernel table
 * (store16 for matrices, store_trs converting TRS in registers). A batch is
 * the single calls in order, stopping at the first refused entry: the
 * entries before it are written and marked, it and the rest are untouched.
 * Marks are the caller's: it knows whether its entries follow each other in
 * slot order. */
#ifndef SGRT_WRITE_H
#define SGRT_WRITE_H

#include "internal.h"

/* A batch's input: count matrices (m), or three packed TRS arrays. */
typedef struct sgrt__source {
    const float *m, *t, *q, *scale;
    const char *function; /* the public call, for reports */
} sgrt__source;

/* Entries [done, done + n) of the next chunk of `count`; n = 0 at the end.
 * Counted from below so that no index wraps, whatever the count. */
static inline uint32_t sgrt__write_chunk_of(uint32_t count, uint32_t done)
{
    return count - done < SGRT__WRITE_CHUNK ? count - done : SGRT__WRITE_CHUNK;
}

/* One chunk of the pass, entries from base on (at most SGRT__WRITE_CHUNK):
 * checked first (sgrt__write_check), then stored (sgrt__write_store), so
 * that a caller reads nothing of the next chunk before this one is known
 * good. m: the matrices to store; NULL for TRS, converted in registers as
 * they are stored (store_trs). */
typedef struct sgrt__chunk {
    uint32_t base;
    const float *m;
} sgrt__chunk;

/* Check entries [base, base + live) -- the entries of a chunk before its
 * first stale handle, which the caller resolved first -- as their single
 * calls would, in order: in validation mode the quaternion (a TRS source),
 * then the values. Returns how many come before the first refused entry
 * (live when none); *quat: it is refused for its quaternion, else for a
 * matrix with an element NaN or infinite (TRS: or one that overflows).
 * Reads no entry past the refused one, with one exception: TRS inputs are
 * compared with the kernel's trs_fits bounds for all the entries at once,
 * and only when they are not all within them converted (into a buffer) and
 * checked. Validation mode: one warning a batch (*warned) about an entry
 * at or before the refused one whose quaternion is the identity written
 * w, x, y, z (nodes: the batch's, for the report). */
uint32_t sgrt__write_check(const sgrt_scene *s, const sgrt__source *src, const sgrt_node *nodes,
                           uint32_t base, uint32_t live, sgrt__chunk *c, bool *quat,
                           bool *warned);
/* Store the first `ok` entries of the chunk to the slots slot[0 .. ok),
 * each where its bits differ from the local there: bit j of the result is
 * set when entry base + j was. `ahead` more slots follow slot[ok - 1]:
 * their locals are fetched while this chunk is written. */
static inline uint32_t sgrt__write_store(sgrt_scene *s, const sgrt__source *src,
                                         const sgrt__chunk *c, const uint32_t *slot, uint32_t ok,
                                         uint32_t ahead)
{
    if (c->m)
        return s->k.store16(s->st.local, slot, c->m, ok, ahead);
    const size_t b = c->base;
    return s->k.store_trs(s->st.local, slot, src->t + 3u * b, src->q + 4u * b,
                          src->scale + 3u * b, ok, ahead);
}

/* Why a batch stopped at entry i (its index in *out_bad, optional), in the
 * single calls' order: its node is stale (STALE_HANDLE: a handle batch's
 * nodes[i]), its quaternion is off unit length in validation mode
 * (`quat`), or its matrix is not finite (both INVALID_ARG). One report
 * naming the entry's node. Returns r. */
sgrt_result sgrt__write_refuse(const sgrt_scene *s, const sgrt__source *src, sgrt_node node,
                               uint32_t *out_bad, uint32_t i, sgrt_result r, bool quat);

#endif
