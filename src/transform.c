/* Writing and reading transforms: set_local, set_trs, local and world reads.
 * None of these allocate. */
#include "internal.h"
#include <string.h>

/* Prefetching for batches: the handle entry a few entries ahead, and the
 * local matrix a write is about to replace. */
#if defined(__GNUC__) || defined(__clang__)
#define PREFETCH(p) __builtin_prefetch(p)
#define PREFETCH_W(p) __builtin_prefetch((p), 1)
#else
#define PREFETCH(p) ((void)(p))
#define PREFETCH_W(p) ((void)(p))
#endif
#define AHEAD 8u

/* m holds no NaN or infinity (sgrt__all_finite with the count fixed, so that
 * the compiler unrolls and vectorises it: this check is on every write). */
static inline bool finite16(const float *m)
{
    uint32_t u[16], bad = 0;
    memcpy(u, m, sizeof u);
    for (int i = 0; i < 16; i++)
        bad |= (u[i] & 0x7F800000u) + 0x00800000u;
    return (bad & 0x80000000u) == 0;
}

/* The write itself: copy m into the slot's local and mark the node and its
 * subtree, unless m is bit-identical to what is there (then nothing is
 * marked). A node already dirty needs no comparison: its subtree is marked
 * or pending. */
static inline void write_local(sgrt_scene *s, uint32_t slot, const float *m)
{
    float *dst = s->st.local[slot];
    if (!sgrt__bit_get(s->st.dirty, slot)) {
        uint64_t a[8], b[8], diff = 0;
        memcpy(a, dst, sizeof a);
        memcpy(b, m, sizeof b);
        for (int i = 0; i < 8; i++)
            diff |= a[i] ^ b[i];
        if (!diff)
            return;
        memcpy(dst, m, 16 * sizeof(float));
        sgrt__dirty_mark(s, slot);
        return;
    }
    memcpy(dst, m, 16 * sizeof(float));
}

sgrt_result sgrt_node_set_local(sgrt_scene *s, sgrt_node node, const float m[16])
{
    if (!s || !m)
        return SGRT_ERR_INVALID_ARG;
    const uint32_t slot = sgrt__resolve(s, node);
    if (slot == SGRT__NONE)
        return SGRT_ERR_STALE_HANDLE;
    if (!finite16(m))
        return SGRT_ERR_INVALID_ARG;
    write_local(s, slot, m);
    return SGRT_OK;
}

/* Finite inputs give a finite matrix unless a product overflows, and a
 * non-finite input always reaches the matrix (t is copied; a NaN or infinite
 * quaternion component or scale reaches a product that is not multiplied by
 * a finite zero only), so checking the 16 outputs checks all ten inputs. */
sgrt_result sgrt_node_set_trs(sgrt_scene *s, sgrt_node node, const float t[3], const float q[4],
                              const float scale[3])
{
    if (!s || !t || !q || !scale)
        return SGRT_ERR_INVALID_ARG;
    const uint32_t slot = sgrt__resolve(s, node);
    if (slot == SGRT__NONE)
        return SGRT_ERR_STALE_HANDLE;
    float m[16];
    sgrt__trs_to_mat4(t, q, scale, m);
    if (!finite16(m))
        return SGRT_ERR_INVALID_ARG;
    write_local(s, slot, m);
    return SGRT_OK;
}

/* ---- batches ----------------------------------------------------------------- */

/* Resolved slots of a batch are kept in the scene's scratch array (2 x
 * capacity entries) between the checking pass and the writing pass; a batch
 * longer than that resolves its tail twice. */
static uint32_t scratch_entries(const sgrt_scene *s) { return 2u * s->st.cap; }

static sgrt_result refuse(uint32_t *out_bad, uint32_t i, sgrt_result r)
{
    if (out_bad)
        *out_bad = i;
    return r;
}

/* The checking pass's resolution: the slot of nodes[i], prefetching ahead. */
static inline uint32_t resolve_ahead(const sgrt_scene *s, uint32_t count, const sgrt_node *nodes,
                                     uint32_t i)
{
    if (i + AHEAD < count)
        PREFETCH(&s->handles[(nodes[i + AHEAD].id ^ s->salt) & SGRT__INDEX_MASK]);
    return sgrt__resolve(s, nodes[i]);
}

/* The writing pass's slot of entry i (checked live by the first pass). */
static inline uint32_t checked_slot(const sgrt_scene *s, const sgrt_node *nodes, uint32_t i)
{
    return i < scratch_entries(s) ? s->st.scratch[i] : sgrt__resolve(s, nodes[i]);
}

sgrt_result sgrt_nodes_set_local(sgrt_scene *s, uint32_t count, const sgrt_node *nodes,
                                 const float (*local)[16], uint32_t *out_bad)
{
    if (!s || (count && (!nodes || !local)))
        return SGRT_ERR_INVALID_ARG;
    const uint32_t keep = scratch_entries(s);
    for (uint32_t i = 0; i < count; i++) {
        const uint32_t slot = resolve_ahead(s, count, nodes, i);
        if (slot == SGRT__NONE)
            return refuse(out_bad, i, SGRT_ERR_STALE_HANDLE);
        if (!finite16(local[i]))
            return refuse(out_bad, i, SGRT_ERR_INVALID_ARG);
        if (i < keep)
            s->st.scratch[i] = slot;
    }
    for (uint32_t i = 0; i < count; i++) {
        if (i + AHEAD < count && i + AHEAD < keep)
            PREFETCH_W(s->st.local[s->st.scratch[i + AHEAD]]);
        write_local(s, checked_slot(s, nodes, i), local[i]);
    }
    return SGRT_OK;
}

/* TRS batches go through the scene's kernel in chunks on the stack: once to
 * check every matrix, once more to write them (the conversion costs less
 * than keeping the matrices anywhere). */
#define TRS_CHUNK 32u

sgrt_result sgrt_nodes_set_trs(sgrt_scene *s, uint32_t count, const sgrt_node *nodes,
                               const float (*t)[3], const float (*q)[4],
                               const float (*scale)[3], uint32_t *out_bad)
{
    if (!s || (count && (!nodes || !t || !q || !scale)))
        return SGRT_ERR_INVALID_ARG;
    const uint32_t keep = scratch_entries(s);
    float m[TRS_CHUNK][16];
    for (uint32_t base = 0; base < count; base += TRS_CHUNK) {
        const uint32_t n = count - base < TRS_CHUNK ? count - base : TRS_CHUNK;
        s->k.trs(t + base, q + base, scale + base, m, n);
        for (uint32_t j = 0; j < n; j++) {
            const uint32_t i = base + j;
            const uint32_t slot = resolve_ahead(s, count, nodes, i);
            if (slot == SGRT__NONE)
                return refuse(out_bad, i, SGRT_ERR_STALE_HANDLE);
            if (!finite16(m[j]))
                return refuse(out_bad, i, SGRT_ERR_INVALID_ARG);
            if (i < keep)
                s->st.scratch[i] = slot;
        }
    }
    for (uint32_t base = 0; base < count; base += TRS_CHUNK) {
        const uint32_t n = count - base < TRS_CHUNK ? count - base : TRS_CHUNK;
        s->k.trs(t + base, q + base, scale + base, m, n);
        for (uint32_t j = 0; j < n; j++) {
            const uint32_t i = base + j;
            if (i + AHEAD < count && i + AHEAD < keep)
                PREFETCH_W(s->st.local[s->st.scratch[i + AHEAD]]);
            write_local(s, checked_slot(s, nodes, i), m[j]);
        }
    }
    return SGRT_OK;
}

static sgrt_result read_matrix(const sgrt_scene *s, sgrt_node node, float out[16], bool world)
{
    if (!s || !out)
        return SGRT_ERR_INVALID_ARG;
    const uint32_t slot = sgrt__resolve(s, node);
    if (slot == SGRT__NONE)
        return SGRT_ERR_STALE_HANDLE;
    memcpy(out, world ? s->st.world[slot] : s->st.local[slot], 16 * sizeof(float));
    return SGRT_OK;
}

sgrt_result sgrt_node_local(const sgrt_scene *s, sgrt_node node, float out[16])
{
    return read_matrix(s, node, out, false);
}

sgrt_result sgrt_node_world(const sgrt_scene *s, sgrt_node node, float out[16])
{
    return read_matrix(s, node, out, true);
}
