/* Writing and reading transforms: set_local, set_trs, set_world, local and
 * world reads. None of these allocate. */
#include "internal.h"
#include <simde/x86/sse2.h>
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

/* A matrix as four 128-bit integer vectors (SIMDe: SSE2 on x86, NEON on ARM,
 * plain C elsewhere): the write path checks, compares and copies 64 bytes
 * with a handful of vector instructions and one load of each side. Integer
 * operations only, so the result is the same on every target. */
typedef struct mat_bits {
    simde__m128i v[4];
} mat_bits;

static inline mat_bits load_bits(const float *m)
{
    mat_bits r;
    for (int k = 0; k < 4; k++)
        r.v[k] = simde_mm_loadu_si128((const simde__m128i *)(const void *)(m + 4 * k));
    return r;
}

/* No NaN or infinity: no element with an all-ones exponent. */
static inline bool finite_bits(const mat_bits *m)
{
    const simde__m128i e = simde_mm_set1_epi32(0x7F800000);
    simde__m128i bad = simde_mm_setzero_si128();
    for (int k = 0; k < 4; k++)
        bad = simde_mm_or_si128(bad, simde_mm_cmpeq_epi32(simde_mm_and_si128(m->v[k], e), e));
    return simde_mm_movemask_epi8(bad) == 0;
}

static inline bool finite16(const float *m)
{
    const mat_bits b = load_bits(m);
    return finite_bits(&b);
}

/* The write itself: copy m into the slot's local and mark the node and its
 * subtree, unless m is bit-identical to what is there (then nothing is
 * marked). A node already dirty needs no comparison: its subtree is marked
 * or pending. */
static inline void write_bits(sgrt_scene *s, uint32_t slot, const mat_bits *m)
{
    float *dst = s->st.local[slot];
    if (!sgrt__bit_get(s->st.dirty, slot)) {
        const mat_bits old = load_bits(dst);
        simde__m128i diff = simde_mm_setzero_si128();
        for (int k = 0; k < 4; k++)
            diff = simde_mm_or_si128(diff, simde_mm_xor_si128(old.v[k], m->v[k]));
        if (simde_mm_movemask_epi8(simde_mm_cmpeq_epi8(diff, simde_mm_setzero_si128())) == 0xFFFF)
            return;
        /* sgrt__dirty_mark, its common case inline: a leaf, not yet dirty. */
        if (!sgrt__bit_get(s->st.inner, slot))
            sgrt__dirty_set(s, slot);
        else
            sgrt__dirty_mark(s, slot);
    }
    for (int k = 0; k < 4; k++)
        simde_mm_storeu_si128((simde__m128i *)(void *)(dst + 4 * k), m->v[k]);
}

static inline void write_local(sgrt_scene *s, uint32_t slot, const float *m)
{
    const mat_bits b = load_bits(m);
    write_bits(s, slot, &b);
}

/* The checks of a call that writes a matrix: arguments, the handle (its
 * slot in *slot), a finite matrix (its bits in *b). */
static sgrt_result take_matrix(const sgrt_scene *s, sgrt_node node, const float *m,
                               uint32_t *slot, mat_bits *b)
{
    if (!s || !m)
        return SGRT_ERR_INVALID_ARG;
    *slot = sgrt__resolve(s, node);
    if (*slot == SGRT__NONE)
        return SGRT_ERR_STALE_HANDLE;
    *b = load_bits(m);
    return finite_bits(b) ? SGRT_OK : SGRT_ERR_INVALID_ARG;
}

sgrt_result sgrt_node_set_local(sgrt_scene *s, sgrt_node node, const float m[16])
{
    uint32_t slot;
    mat_bits b;
    const sgrt_result r = take_matrix(s, node, m, &slot, &b);
    if (r == SGRT_OK)
        write_bits(s, slot, &b);
    return r;
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

/* The local that puts the node at m now: the keep-world computation of
 * sgrt_node_set_parent, under the node's own parent's current world. */
sgrt_result sgrt_node_set_world(sgrt_scene *s, sgrt_node node, const float m[16])
{
    uint32_t slot;
    mat_bits b;
    const sgrt_result r = take_matrix(s, node, m, &slot, &b);
    if (r != SGRT_OK)
        return r;
    const uint32_t parent = s->st.parent[slot];
    if (parent == SGRT__NONE) {
        write_bits(s, slot, &b);
        return SGRT_OK;
    }
    float pw[16], local[16];
    sgrt__world_now_slot(s, parent, pw);
    if (!sgrt__keep_world_local(s->k.mul, pw, m, local))
        return SGRT_ERR_SINGULAR;
    write_local(s, slot, local);
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
