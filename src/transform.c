/* Writing and reading transforms: set_local, set_trs, set_world, their batch
 * forms sgrt_nodes_set_local and sgrt_nodes_set_trs, and the local and world
 * reads. None of these allocate. */
#include "internal.h"
#include <string.h>

/* The checking pass of a batch fetches the handle entry SGRT__WRITE_AHEAD
 * entries ahead (kernels.h says why that distance). */
#if defined(__GNUC__) || defined(__clang__)
#define PREFETCH(p) __builtin_prefetch(p)
#else
#define PREFETCH(p) ((void)(p))
#endif

/* The write itself: copy m into the slot's local and mark the node, unless
 * m is bit-identical to what is there (then nothing is marked). */
static inline void write_local(sgrt_scene *s, uint32_t slot, const float *m)
{
    if (s->k.store16(s->st.local, &slot, m, 1, 0))
        sgrt__dirty_mark(s, slot, false);
}

/* Mark the nodes of `slot` whose bit is set in `changed`. */
static inline void mark_changed(sgrt_scene *s, const uint32_t *slot, uint32_t changed)
{
    while (changed) {
        sgrt__dirty_mark(s, slot[sgrt__ctz32(changed)], false);
        changed &= changed - 1u;
    }
}

/* A single write of a finite m to a live node: store and mark, or refuse a
 * matrix that is not finite, changing nothing (`bad` says why). */
static inline sgrt_result put_local(sgrt_scene *s, uint32_t slot, const float *m,
                                    const char *function, const char *bad, sgrt_node node)
{
    const uint32_t r = s->k.put16(s->st.local[slot], m);
    if (r == SGRT__PUT_BAD)
        return sgrt__fail(s, SGRT_ERR_INVALID_ARG, function, bad, node);
    if (r == SGRT__PUT_CHANGED)
        sgrt__dirty_mark(s, slot, false);
    return SGRT_OK;
}

/* The checks of a call that writes a matrix: arguments, the handle (its
 * slot in *slot), a finite matrix. */
static sgrt_result take_matrix(const sgrt_scene *s, sgrt_node node, const float *m,
                               uint32_t *slot, const char *function)
{
    if (!s)
        return SGRT_ERR_INVALID_ARG;
    if (!m)
        return sgrt__fail(s, SGRT_ERR_INVALID_ARG, function, "m is NULL", node);
    *slot = sgrt__resolve(s, node);
    if (*slot == SGRT__NONE)
        return sgrt__fail(s, SGRT_ERR_STALE_HANDLE, function, SGRT__STALE("node"), node);
    if (s->k.check16(m, 1) != 1u) /* 1: none bad */
        return sgrt__fail(s, SGRT_ERR_INVALID_ARG, function, "m holds a NaN or an infinity",
                          node);
    return SGRT_OK;
}

sgrt_result sgrt_node_set_local(sgrt_scene *s, sgrt_node node, const float m[16])
{
    if (!s)
        return SGRT_ERR_INVALID_ARG;
    if (!m)
        return sgrt__fail(s, SGRT_ERR_INVALID_ARG, __func__, "m is NULL", node);
    const uint32_t slot = sgrt__resolve(s, node);
    if (slot == SGRT__NONE)
        return sgrt__fail(s, SGRT_ERR_STALE_HANDLE, __func__, SGRT__STALE("node"), node);
    return put_local(s, slot, m, __func__, "m holds a NaN or an infinity", node);
}

/* Which TRS input is refused, for the log (the refusal path only). */
static const char *trs_problem(const float *t, const float *q, const float *scale)
{
    if (!t)
        return "t is NULL";
    if (!q)
        return "q is NULL";
    if (!scale)
        return "scale is NULL";
    if (!sgrt__all_finite(t, 3))
        return "t holds a NaN or an infinity";
    if (!sgrt__all_finite(q, 4))
        return "q holds a NaN or an infinity";
    if (!sgrt__all_finite(scale, 3))
        return "scale holds a NaN or an infinity";
    return "the matrix of t, q and scale overflows (q far from unit length, or a huge scale)";
}

/* Finite inputs give a finite matrix unless a product overflows, and a
 * non-finite input always reaches the matrix (t is copied; a NaN or infinite
 * quaternion component or scale reaches a product that is not multiplied by
 * a finite zero only), so checking the 16 outputs checks all ten inputs. */
sgrt_result sgrt_node_set_trs(sgrt_scene *s, sgrt_node node, const float t[3], const float q[4],
                              const float scale[3])
{
    if (!s)
        return SGRT_ERR_INVALID_ARG;
    if (!t || !q || !scale)
        return sgrt__fail(s, SGRT_ERR_INVALID_ARG, __func__, trs_problem(t, q, scale), node);
    const uint32_t slot = sgrt__resolve(s, node);
    if (slot == SGRT__NONE)
        return sgrt__fail(s, SGRT_ERR_STALE_HANDLE, __func__, SGRT__STALE("node"), node);
    if (SGRT__VALIDATING(s)) {
        const sgrt_result v = sgrt__validate_quat(s, __func__, q, node);
        if (v != SGRT_OK)
            return v;
    }
    float m[16];
    s->k.trs((const float(*)[3])t, (const float(*)[4])q, (const float(*)[3])scale,
             (float(*)[16])m, 1);
    const uint32_t r = s->k.put16(s->st.local[slot], m);
    if (r == SGRT__PUT_BAD)
        return sgrt__fail(s, SGRT_ERR_INVALID_ARG, __func__, trs_problem(t, q, scale), node);
    if (r == SGRT__PUT_CHANGED)
        sgrt__dirty_mark(s, slot, false);
    return SGRT_OK;
}

/* The local that puts the node at m now: the keep-world computation of
 * sgrt_node_set_parent, under the node's own parent's current world. */
sgrt_result sgrt_node_set_world(sgrt_scene *s, sgrt_node node, const float m[16])
{
    uint32_t slot = SGRT__NONE;
    const sgrt_result r = take_matrix(s, node, m, &slot, __func__);
    if (r != SGRT_OK)
        return r;
    const uint32_t parent = s->st.parent[slot];
    if (parent == SGRT__NONE) {
        write_local(s, slot, m);
        return SGRT_OK;
    }
    float pw[16], local[16];
    sgrt__world_now_slot(s, parent, pw);
    if (!sgrt__keep_world_local(s->k.mul, pw, m, local))
        return sgrt__fail(s, SGRT_ERR_SINGULAR, __func__,
                          "node's parent's world has no usable inverse, or the new local "
                          "would miss m by more than keep-world's tolerance",
                          node);
    write_local(s, slot, local);
    return SGRT_OK;
}

/* ---- batches ----------------------------------------------------------------- */

/* Batches run in chunks of SGRT__WRITE_CHUNK entries, the kernels' unit.
 * Resolved slots are kept in the scene's scratch array (2 x capacity
 * entries) between the checking pass and the writing pass; a batch longer
 * than that resolves its tail twice. */
#define CHUNK SGRT__WRITE_CHUNK
static uint32_t scratch_entries(const sgrt_scene *s) { return 2u * s->st.cap; }

/* Entries [done, done + n) of the next chunk; n = 0 at the end. Counted
 * from below so that no index wraps, whatever the count. */
static inline uint32_t chunk_of(uint32_t count, uint32_t done)
{
    return count - done < CHUNK ? count - done : CHUNK;
}

/* A batch refuses entry i: *out_bad, and one report naming the entry's
 * node (`invalid` says what was wrong with its values). */
static sgrt_result refuse(const sgrt_scene *s, const char *function, const sgrt_node *nodes,
                          uint32_t *out_bad, uint32_t i, sgrt_result r, const char *invalid)
{
    if (out_bad)
        *out_bad = i;
    return sgrt__fail(s, r, function,
                      r == SGRT_ERR_STALE_HANDLE ? SGRT__STALE("nodes[*out_bad]") : invalid,
                      nodes[i]);
}

/* The checking pass over one chunk: resolve entries [base, base + n) into
 * slot[], prefetching handle entries ahead; check16 says which matrix of
 * m (the chunk's) is bad. Returns SGRT_OK, or the first refused entry's
 * error with its index in *at. */
static sgrt_result check_chunk(const sgrt_scene *s, uint32_t count, const sgrt_node *nodes,
                               uint32_t base, uint32_t n, const float *m, uint32_t *slot,
                               uint32_t *at)
{
    const uint32_t bad = s->k.check16(m, n);
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

/* The checking pass keeps the slots it resolved: in scratch while they fit,
 * else (the tail of a batch longer than 2 x capacity) resolved again. */
static inline const uint32_t *chunk_slots(sgrt_scene *s, const sgrt_node *nodes, uint32_t base,
                                          uint32_t n, uint32_t *buf)
{
    if ((uint64_t)base + n <= scratch_entries(s))
        return s->st.scratch + base;
    for (uint32_t j = 0; j < n; j++)
        buf[j] = sgrt__resolve(s, nodes[base + j]);
    return buf;
}

/* The writing pass over one chunk: store and mark what changed. The slots
 * of the next chunk follow in scratch when the checking pass kept them
 * there: store16 then fetches their locals ahead. */
static inline void write_chunk(sgrt_scene *s, const sgrt_node *nodes, uint32_t count,
                               uint32_t base, uint32_t n, const float *m, uint32_t *buf)
{
    const uint64_t kept = scratch_entries(s);
    const uint32_t *slot = chunk_slots(s, nodes, base, n, buf);
    const uint32_t ahead = slot != buf && base + (uint64_t)n + chunk_of(count, base + n) <= kept
                               ? chunk_of(count, base + n)
                               : 0u;
    mark_changed(s, slot, s->k.store16(s->st.local, slot, m, n, ahead));
}

sgrt_result sgrt_nodes_set_local(sgrt_scene *s, uint32_t count, const sgrt_node *nodes,
                                 const float (*local)[16], uint32_t *out_bad)
{
    if (!s)
        return SGRT_ERR_INVALID_ARG;
    if (count && (!nodes || !local))
        return sgrt__fail(s, SGRT_ERR_INVALID_ARG, __func__,
                          "nodes or local is NULL with count > 0", SGRT_NULL_NODE);
    uint32_t buf[CHUNK], at = 0;
    for (uint32_t base = 0, n; (n = chunk_of(count, base)) != 0; base += n) {
        uint32_t *slot = (uint64_t)base + n <= scratch_entries(s) ? s->st.scratch + base : buf;
        const sgrt_result r = check_chunk(s, count, nodes, base, n, local[base], slot, &at);
        if (r != SGRT_OK)
            return refuse(s, __func__, nodes, out_bad, at, r,
                          "local[*out_bad] holds a NaN or an infinity");
    }
    for (uint32_t base = 0, n; (n = chunk_of(count, base)) != 0; base += n)
        write_chunk(s, nodes, count, base, n, local[base], buf);
    return SGRT_OK;
}

/* TRS batches go through the scene's kernel, a chunk at a time into a
 * matrix buffer on the stack (2 KiB: well inside L1 beside the inputs):
 * once to check every matrix, once more to write them (the conversion costs
 * less than keeping the matrices anywhere). */
sgrt_result sgrt_nodes_set_trs(sgrt_scene *s, uint32_t count, const sgrt_node *nodes,
                               const float (*t)[3], const float (*q)[4],
                               const float (*scale)[3], uint32_t *out_bad)
{
    if (!s)
        return SGRT_ERR_INVALID_ARG;
    if (count && (!nodes || !t || !q || !scale))
        return sgrt__fail(s, SGRT_ERR_INVALID_ARG, __func__,
                          "nodes, t, q or scale is NULL with count > 0", SGRT_NULL_NODE);
    float m[CHUNK][16];
    uint32_t buf[CHUNK], at = 0;
    /* Validation mode: the first quaternion off unit length, refused unless
     * an earlier entry is. */
    const uint32_t qbad = SGRT__VALIDATING(s) ? sgrt__validate_quats(s, __func__, q, nodes, count)
                                              : count;
    static const char quat_bad[] = "q[*out_bad] is not of unit length: |q|^2 is off 1 by more "
                                   "than SGRT_QUAT_NORM_TOLERANCE";
    for (uint32_t base = 0, n; (n = chunk_of(count, base)) != 0; base += n) {
        uint32_t *slot = (uint64_t)base + n <= scratch_entries(s) ? s->st.scratch + base : buf;
        s->k.trs(t + base, q + base, scale + base, m, n);
        const sgrt_result r = check_chunk(s, count, nodes, base, n, m[0], slot, &at);
        if (r != SGRT_OK && at < qbad)
            return refuse(s, __func__, nodes, out_bad, at, r,
                          "t, q or scale [*out_bad] holds a NaN or an infinity, or their "
                          "matrix overflows");
        if (qbad < count && (r != SGRT_OK || qbad < base + n))
            return refuse(s, __func__, nodes, out_bad, qbad, SGRT_ERR_INVALID_ARG, quat_bad);
    }
    for (uint32_t base = 0, n; (n = chunk_of(count, base)) != 0; base += n) {
        s->k.trs(t + base, q + base, scale + base, m, n);
        write_chunk(s, nodes, count, base, n, m[0], buf);
    }
    return SGRT_OK;
}

static sgrt_result read_matrix(const sgrt_scene *s, sgrt_node node, float out[16], bool world,
                               const char *function)
{
    if (!s)
        return SGRT_ERR_INVALID_ARG;
    if (!out)
        return sgrt__fail(s, SGRT_ERR_INVALID_ARG, function, "out is NULL", node);
    const uint32_t slot = sgrt__resolve(s, node);
    if (slot == SGRT__NONE)
        return sgrt__fail(s, SGRT_ERR_STALE_HANDLE, function, SGRT__STALE("node"), node);
    memcpy(out, world ? s->st.world[slot] : s->st.local[slot], 16 * sizeof(float));
    if (world && SGRT__VALIDATING(s))
        return sgrt__validate_world_read(s, slot, out, node);
    return SGRT_OK;
}

sgrt_result sgrt_node_local(const sgrt_scene *s, sgrt_node node, float out[16])
{
    return read_matrix(s, node, out, false, __func__);
}

sgrt_result sgrt_node_world(const sgrt_scene *s, sgrt_node node, float out[16])
{
    return read_matrix(s, node, out, true, __func__);
}
