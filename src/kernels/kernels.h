/* SPDX-License-Identifier: MIT */
/* The kernel boundary: the per-frame arithmetic behind one table of function
 * pointers, self-contained (it needs neither the scene nor any other part of
 * the library, only the bitfield walk of bits.h).
 *
 * The table is filled the way dav1d fills its DSP tables: the plain C
 * reference first, then each ISA, in increasing level, overrides the entries
 * it has, up to the level asked for. A test lowers the level to reach every
 * kernel the machine runs (tests/test_kernels.c); users lower it through
 * sgrt_scene_desc.max_simd.
 *
 * Every implementation computes each output element as
 * (a0*b0 + a1*b1) + (a2*b2 + a3*b3), every product and sum rounded to single
 * precision, no fused multiply-add: the results are bit-identical across
 * kernels (up to NaN payloads; on ARMv7 NEON, which flushes denormal operands
 * and tiny results to zero, an element whose computation reads or produces a
 * denormal may differ: docs/porting.md). The pairwise order is chosen over a
 * running sum because it shortens the dependency chain from parent to child
 * by one addition, which is what bounds a deep hierarchy. */
#ifndef SGRT_KERNELS_H
#define SGRT_KERNELS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../bits.h"

/* A float from its bit pattern and back (no math.h in the library: infinity
 * is 0x7F800000, |x| clears the sign bit). */
static inline float sgrt__f32_from_bits(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static inline uint32_t sgrt__f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static inline float sgrt__f32_abs(float x) { return sgrt__f32_from_bits(sgrt__f32_bits(x) & 0x7FFFFFFFu); }

/* Fetch a line for reading, or for writing (hints: no fault, no effect on
 * results). */
#if defined(__GNUC__) || defined(__clang__)
#define SGRT__PREFETCH(p) __builtin_prefetch(p)
#define SGRT__PREFETCH_W(p) __builtin_prefetch((p), 1)
#else
#define SGRT__PREFETCH(p) ((void)(p))
#define SGRT__PREFETCH_W(p) ((void)(p))
#endif

/* "No slot": in the parent array, a root (whose world is its local); in the
 * library's other links, no child or sibling. */
#define SGRT__NONE 0xFFFFFFFFu

/* The boxes of a scene with SGRT_SCENE_BOUNDS (bounds.c): local boxes in,
 * world boxes out, structure of arrays indexed by slot (64-byte aligned). */
typedef struct sgrt__bounds_view {
    const float *c[3], *e[3]; /* local box: center, half extents */
    float *lo[3], *hi[3];     /* world box: min, max */
    const uint32_t *has;      /* the slot has a local box */
} sgrt__bounds_view;

/* The arrays the update pass reads and writes. */
typedef struct sgrt__update_view {
    /* 64-byte aligned rows. Every local the pass reads is checked: one with
     * an element NaN or infinite (written in place, sgrt_writer_begin)
     * becomes the identity, in local and world (sgrt__local_repair). */
    float (*local)[16];
    float (*world)[16];       /* 64-byte aligned rows */
    const uint32_t *parent;
    uint32_t *dirty;     /* cleared as it goes */
    uint32_t *dirty_sum; /* bit w set iff dirty[w] != 0; cleared as it goes */
    /* The summary words to walk: [sum_first, sum_end) covers slots
     * [sum_first * 1024, sum_end * 1024). Slots are absolute. */
    uint32_t sum_first, sum_end;
    /* NULL, or the work that follows a word's worlds (the followers' after
     * hooks, follow.h): called once for each word the pass recomputed
     * slots of, with those slots (`done`), right after their worlds are
     * stored and before the next word is read, while they are in L1;
     * `after_ctx` is passed through (the pass never reads it). */
    void (*after)(void *ctx, uint32_t w, uint32_t done);
    /* The non-finite locals the pass repaired: [0] how many, [1] the lowest
     * slot among them (left as it was when none). */
    uint32_t *repaired;
    /* NULL, or a large world (SGRT_SCENE_LARGE_WORLD): a root's world is
     * sgrt__anchored_world of its local, anchor[slot] and *origin. */
    const double (*anchor)[3];
    const double *origin;
    void *after_ctx;
} sgrt__update_view;

/* Inlined whatever the compiler's heuristics say: the update loops that
 * are instantiated once per case (with and without anchors). */
#if defined(__GNUC__) || defined(__clang__)
#define SGRT__ALWAYS_INLINE inline __attribute__((always_inline))
#elif defined(_MSC_VER)
#define SGRT__ALWAYS_INLINE __forceinline
#else
#define SGRT__ALWAYS_INLINE inline
#endif

/* A root's world in a large world: translate(anchor - origin) x local, the
 * offset formed in double and each entry that it changes rounded to float
 * once: world[4j + i] = (float)(local[4j + i] + (anchor[i] - origin[i]) x
 * local[4j + 3]) for i < 3 where local[4j + 3] is not zero (the
 * translation column alone for an affine local), every other entry
 * copied. An anchor at the origin gives the local bit for bit. Out of line:
 * every kernel calls it for the roots it recomputes, and sgrt_node_world_now
 * for a root in its chain. */
void sgrt__anchored_world(const float local[16], const double anchor[3], const double origin[3],
                          float world[16]);

/* The case every kernel keeps in registers: a local that is affine with
 * local[15] == 1 (every TRS local is), whose anchored world is the local
 * with its translation moved: out[i] = (float)(local[12 + i] + (anchor[i]
 * - origin[i])), local[12 + i] where the offset is zero, as
 * sgrt__anchored_world gives. false for any other local (the kernel calls
 * sgrt__anchored_world then). */
static inline bool sgrt__anchored_translation(const float local[16], const double anchor[3],
                                              const double origin[3], float out[3])
{
    if (local[3] != 0.0f || local[7] != 0.0f || local[11] != 0.0f || local[15] != 1.0f)
        return false;
    for (int i = 0; i < 3; i++) {
        const double d = anchor[i] - origin[i];
        out[i] = d == 0.0 ? local[12 + i] : (float)((double)local[12 + i] + d);
    }
    return true;
}

/* The identity matrix. */
extern const float sgrt__identity[16];

/* Whether every element of a matrix is finite: an element is NaN or
 * infinite when its exponent is all ones, and adding one to the exponent
 * field then carries into the sign position. */
static inline bool sgrt__finite16(const float m[16])
{
    uint32_t bad = 0;
    for (int e = 0; e < 16; e++) {
        uint32_t u;
        memcpy(&u, &m[e], sizeof u);
        bad |= (u & 0x7F800000u) + 0x00800000u;
    }
    return !(bad & 0x80000000u);
}

/* The update found local[slot] not finite: it becomes the identity, and
 * v->repaired counts it. Out of line and cold: every kernel calls it from
 * the branch its check takes only for such a local. */
void sgrt__local_repair(const sgrt__update_view *v, uint32_t slot);

/* The world box of a local box (Arvo's method, the reference's definition,
 * every kernel's result to the bit): for each axis r, with M the world's
 * upper 3x3 and t its translation,
 *   p_j = M[r][j] * c_j
 *   center = (p_0 + p_1) + (p_2 + t_r)
 *   half   = (|M[r][0]| * e_0 + |M[r][1]| * e_1) + |M[r][2]| * e_2
 *   mag    = ((|p_0| + |p_1|) + (|p_2| + |t_r|)) + half
 *   reach  = half + (mag * SGRT__BOX_GAMMA + SGRT__BOX_TINY)
 *   min = center - reach, max = center + reach
 * each operation rounded to float, no fused multiply-add. mag bounds the
 * magnitudes that the rounding errors of center and half scale with (at most
 * about 5 units of 2^-24 of it, and 2^-149 per underflowing product), so the
 * margin makes [min, max] contain the exact box. An axis whose min or max is
 * not finite (an overflow, a world that is not) becomes (-inf, +inf), and so
 * does every axis when the world's last row is not (0, 0, 0, 1) (a projective
 * world: the image of a box is no box). */
#define SGRT__BOX_GAMMA 0x1p-21f
#define SGRT__BOX_TINY 0x1p-126f

/* One plane of a cull, prepared (cull.c): culled when, for the box's corner
 * p furthest along n (p[a] = the max on axes where n[a] >= 0, else the min)
 * and m its largest coordinate magnitude max(max x,y,z, -(min x,y,z)),
 *   (n[0] * p[0] + n[1] * p[1]) + (n[2] * p[2] + k * m) < lim
 * in float. k (rounded up) and lim (= -d minus an allowance, rounded down)
 * make it conservative: a box that reaches the plane in exact arithmetic is
 * never culled. */
typedef struct sgrt__cull_plane {
    const float *p[3]; /* per axis, the min or the max array */
    float n[3];
    float k, lim;
} sgrt__cull_plane;

/* A cull over the words [w_first, w_end): the candidates of word w are
 * a[w] & b[w] & (c ? c[w] : all); out[w] receives the candidates not culled,
 * or-ed with keep[w] when keep is not NULL. keep, a, b, c may be out itself:
 * each word is read before it is written. */
typedef struct sgrt__cull_view {
    const float *lo[3], *hi[3];
    const uint32_t *a, *b, *c, *keep;
    uint32_t *out;
    uint32_t w_first, w_end;
    uint32_t plane_count; /* 1..8 */
    sgrt__cull_plane plane[8];
} sgrt__cull_view;

/* The walk every update kernel shares: each dirty slot in increasing slot
 * order (parents before children), both levels cleared as it goes. A macro
 * so that each kernel's body is inlined with its register state. */
#define SGRT__FOR_EACH_DIRTY(v, slot, ...)                                             \
    SGRT__FOR_EACH_SUMMARIZED((v)->dirty_sum, (v)->sum_first, (v)->sum_end, (v)->dirty, true, \
                              w_,                                                      \
                              bits_, SGRT__FOR_EACH_IN_WORD(w_, bits_, slot, __VA_ARGS__))

/* SGRT__FOR_EACH_DIRTY, and after each word's slots, v->after (when not
 * NULL) with the slots just recomputed. */
#define SGRT__FOR_EACH_DIRTY_AFTER(v, slot, ...)                                       \
    SGRT__FOR_EACH_SUMMARIZED((v)->dirty_sum, (v)->sum_first, (v)->sum_end, (v)->dirty, true, \
                              w_, bits_,                                               \
        const uint32_t done_ = bits_;                                                  \
        SGRT__FOR_EACH_IN_WORD(w_, bits_, slot, __VA_ARGS__)                           \
        if ((v)->after)                                                                \
            (v)->after((v)->after_ctx, w_, done_);)

/* Kernel levels: the values of sgrt_simd, SGRT_SIMD_SCALAR and up. */
enum {
    SGRT__LEVEL_SCALAR = 1,
    SGRT__LEVEL_X4 = 2,
    SGRT__LEVEL_AVX = 3,
    SGRT__LEVEL_AVX512 = 4,
    SGRT__LEVEL_MAX = SGRT__LEVEL_AVX512
};

typedef struct sgrt__kernels {
    const char *name; /* name of the widest implementation that filled an entry */
    /* out = a x b (column-major 4x4). out may alias neither a nor b. */
    void (*mul)(const float *a, const float *b, float *out);
    /* The per-frame pass: recompute the world of every dirty slot, clear the
     * dirty bits and summary; return the count. A root's world is its
     * local, or in a large world (v->anchor) its anchored local
     * (sgrt__anchored_world). */
    uint32_t (*update)(const sgrt__update_view *v);
    /* out[16i ..] = T x R x S from t[3i ..], quaternion q[4i ..] (x, y, z,
     * w, used as given) and scale[3i ..], for i < n (packed arrays, any
     * alignment): sgrt__trs_to_mat4 to the bit. */
    void (*trs)(const float *t, const float *q, const float *scale, float *out, uint32_t n);
    /* The write path, on n <= SGRT__WRITE_CHUNK matrices m[i] (16 floats
     * each, rows of m one after another, any alignment). check16: the index
     * of the first matrix with an element NaN or infinite, n when none.
     * store16: copy m[i] to local[slot[i]] where the two differ in any bit;
     * bit i of the result is set when they did (integer operations only:
     * the same bits on every target). slot[n .. n + ahead) are the slots
     * the next call writes: their lines are fetched while this one works
     * (SGRT__WRITE_AHEAD entries ahead). */
    uint32_t (*check16)(const float *m, uint32_t n);
    uint32_t (*store16)(float (*local)[16], const uint32_t *slot, const float *m, uint32_t n,
                        uint32_t ahead);
    /* store16 of the matrices trs would make of entries [0, n) (n <=
     * SGRT__WRITE_CHUNK), converted at the kernel's width and compared and
     * stored from registers where it can (no buffer in memory). */
    uint32_t (*store_trs)(float (*local)[16], const uint32_t *slot, const float *t,
                          const float *q, const float *scale, uint32_t n, uint32_t ahead);
    /* One matrix, the single calls' path: SGRT__PUT_BAD when m has an
     * element NaN or infinite (dst untouched), SGRT__PUT_SAME when dst holds
     * m's bits already, else SGRT__PUT_CHANGED with m copied to dst (64-byte
     * aligned). */
    uint32_t (*put16)(float *dst, const float *m);
    /* sgrt_node_set_trs's path: T x R x S of one node (as trs computes it,
     * to the bit), then put16 of it. */
    uint32_t (*put_trs)(float *dst, const float t[3], const float q[4], const float scale[3]);
    /* The batch writes' check of TRS inputs without converting them: true
     * when T x R x S of entries [0, n) is surely finite
     * (sgrt__trs_fits_generic); false says nothing (the caller converts and
     * checks the matrices). */
    bool (*trs_fits)(const float *t, const float *q, const float *scale, uint32_t n);
    /* The closure of word w of the dirty bits (the update's pass, dirty.c):
     * each slot of `clean` (live, clean slots the pass may mark) becomes
     * dirty when its parent is, in slot order, so that a parent in this word
     * marked here is seen by its children. A parent whose bit is set in
     * `done` (NULL: none) is read from done_dirty, any other from dirty.
     * Returns the word's new value; writes nothing. */
    uint32_t (*close_word)(const uint32_t *parent, const uint32_t *dirty, const uint32_t *done,
                           const uint32_t *done_dirty, uint32_t w, uint32_t clean);
    /* The world boxes (definition above) of the slots `bits` of word w, from
     * world[slot] and the local boxes; only slots with a local box. */
    void (*boxes)(const sgrt__bounds_view *b, const float (*world)[16], uint32_t w,
                  uint32_t bits);
    /* The cull of v's words (above). Returns the members written to out;
     * *tested receives the candidates tested. */
    uint32_t (*cull)(const sgrt__cull_view *v, uint32_t *tested);
    /* Skinning palettes (definition below): the 12 floats at out[i] = rows
     * 0..2 of im x w[i] x b[i] for i < n (b NULL: no inverse binds), mode
     * of SGRT__PAL_*. */
    void (*palette)(const float *im, uint32_t mode, const float *const *w,
                    const float *const *b, uint32_t n, float *const *out);
    /* XXH3 of n bytes at p, and an XXH3_state_t (as void *) fed n more: the
     * scene hash and the snapshots' checksum. Every level gives the same
     * value; AVX2 and AVX-512 compute it up to 1.5 times faster than SSE2
     * (a snapshot's checksum reads at the speed of memory). */
    uint64_t (*xxh3)(const void *p, size_t n);
    void (*xxh3_update)(void *state, const void *p, size_t n);
} sgrt__kernels;

/* A skinning palette entry (followers/skin.c): the three rows of the upper
 * 3x4 of P = IM x W x B, IM the inverse of the mesh world, W the joint's
 * world, B its inverse bind (all column-major). Each product X = L x R is
 * formed as a world is, column c being (L0 R[0][c] + L1 R[1][c]) + (L2
 * R[2][c] + L3 R[3][c]) (Lk the columns of L), except where both factors
 * are affine (last row exactly (0, 0, 0, 1)): then the zero terms are left
 * out, column c < 3 being (L0 R[0][c] + L1 R[1][c]) + L2 R[2][c] and column
 * 3 (L0 R[0][3] + L1 R[1][3]) + (L2 R[2][3] + L3). A = IM x W first (W
 * itself with SGRT__PAL_IM_ONE), affine when IM (SGRT__PAL_IM_AFFINE) and W
 * are; then P = A x B (A without inverse binds), B affine when
 * SGRT__PAL_B_AFFINE says every one is. Every product and sum rounded to
 * float, no fused multiply-add. */
enum {
    SGRT__PAL_IM_ONE = 1u,    /* IM is the identity: A = W */
    SGRT__PAL_IM_AFFINE = 2u, /* IM's last row is (0, 0, 0, 1) */
    SGRT__PAL_B_AFFINE = 4u   /* every B's last row is (0, 0, 0, 1) */
};
/* Whether a matrix's last row is exactly (0, 0, 0, 1). */
static inline bool sgrt__affine16(const float *m)
{
    return m[3] == 0.0f && m[7] == 0.0f && m[11] == 0.0f && m[15] == 1.0f;
}

/* The reference's world box of one slot, and its cull test of one box
 * (true: culled), for the library's scalar paths. */
void sgrt__box_ref(const sgrt__bounds_view *b, const float m[16], uint32_t slot);
bool sgrt__cull_outside_ref(const sgrt__cull_plane *pl, const float lo[3], const float hi[3],
                            float m);
/* A box's largest coordinate magnitude, as the cull forms it. */
static inline float sgrt__box_magnitude(const float lo[3], const float hi[3])
{
    const float mh0 = hi[0] > hi[1] ? hi[0] : hi[1];
    const float mh = mh0 > hi[2] ? mh0 : hi[2];
    const float ml0 = lo[0] < lo[1] ? lo[0] : lo[1];
    const float ml = ml0 < lo[2] ? ml0 : lo[2];
    return mh > -ml ? mh : -ml;
}

enum { SGRT__PUT_BAD = 0, SGRT__PUT_SAME = 1, SGRT__PUT_CHANGED = 2 };

/* Most matrices one check16 or store16 call takes: one 32-bit mask. */
#define SGRT__WRITE_CHUNK 32u
/* How far ahead store16 fetches the locals it is about to replace: far
 * enough for a miss to arrive in time, near enough not to overflow the
 * line fill buffers (a burst of 32 prefetches ran 20 % slower on 64K-node
 * batches than 8 spread over the loop). */
#define SGRT__WRITE_AHEAD 8u
/* store16's prefetch of entry i + SGRT__WRITE_AHEAD, when the caller gave it. */
#define SGRT__STORE_AHEAD(local, slot, i, n, ahead)                                    \
    do {                                                                               \
        if ((i) + SGRT__WRITE_AHEAD < (n) + (ahead))                                   \
            SGRT__PREFETCH_W((local)[(slot)[(i) + SGRT__WRITE_AHEAD]]);                \
    } while (0)

/* The definition of T x R x S (the reference's), one fixed order of exact
 * IEEE single-precision operations. */
void sgrt__trs_to_mat4(const float t[3], const float q[4], const float scale[3], float out[16]);

/* Whether every element of x[0 .. n) has a magnitude at most the float
 * whose bits are `limit` (a NaN never has). */
static inline bool sgrt__floats_within(const float *x, size_t n, uint32_t limit)
{
    uint32_t over = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t u;
        memcpy(&u, &x[i], sizeof u);
        over |= (uint32_t)((u & 0x7FFFFFFFu) > limit);
    }
    return !over;
}

/* trs_fits, written once: each ISA's file compiles it with its own flags
 * (the compiler's vectorizer picks the width). With t finite, every
 * quaternion component at most 2^16 and every scale at most 2^64 in
 * magnitude, each element of sgrt__trs_to_mat4's matrix is a scale times
 * at most 1 plus twice a sum of two products of components (at most about
 * 2^34): below 2^99, finite. */
static inline bool sgrt__trs_fits_generic(const float *t, const float *q, const float *scale,
                                          uint32_t n)
{
    return sgrt__floats_within(t, 3u * (size_t)n, 0x7F7FFFFFu) &&  /* FLT_MAX */
           sgrt__floats_within(q, 4u * (size_t)n, 0x47800000u) &&  /* 2^16 */
           sgrt__floats_within(scale, 3u * (size_t)n, 0x5F800000u); /* 2^64 */
}

/* CPU properties that make an implementation slower than the level below
 * it (dav1d's way, its SLOW_GATHER flag): an ISA's init leaves out exactly
 * the entries a property slows, and the level below keeps them. */
enum {
    /* 512-bit operations run as two 256-bit halves (AMD family 19h: Zen 4).
     * The AVX-512 matrix product measured 22 % slower than the AVX one there
     * (2.29 vs 1.87 ns per product in batch, 7.07 vs 5.76 dependent). */
    SGRT__CPU_SLOW_ZMM = 1u << 0,
    /* Not a slowness: the CPU has AVX2 (leaf 7 EBX bit 5), which the AVX
     * level's kernels do not need and its XXH3 entries do. */
    SGRT__CPU_AVX2 = 1u << 1
};

/* Per level: override the entries that level implements (and that none of
 * the CPU properties in `cpu` slows). */
void sgrt__kernels_init_ref(sgrt__kernels *k);
/* XXH3 per ISA: the baseline (hash.c, the one file that inlines xxhash.h
 * beside these), AVX2 (xxh3_avx2.c) and AVX-512F (xxh3_avx512.c). */
uint64_t sgrt__xxh3_once_base(const void *p, size_t n);
void sgrt__xxh3_update_base(void *state, const void *p, size_t n);
#if defined(SGRT_HAVE_XXH3_AVX2)
uint64_t sgrt__xxh3_once_avx2(const void *p, size_t n);
void sgrt__xxh3_update_avx2(void *state, const void *p, size_t n);
#endif
#if defined(SGRT_HAVE_AVX512_KERNEL)
uint64_t sgrt__xxh3_once_avx512(const void *p, size_t n);
void sgrt__xxh3_update_avx512(void *state, const void *p, size_t n);
#endif
void sgrt__kernels_init_x4(sgrt__kernels *k);
#if defined(SGRT_HAVE_AVX_KERNEL)
void sgrt__kernels_init_avx(sgrt__kernels *k);
#endif
#if defined(SGRT_HAVE_AVX512_KERNEL)
void sgrt__kernels_init_avx512(sgrt__kernels *k, uint32_t cpu);
#endif

/* Highest level this build has and this CPU runs (no limits). */
uint32_t sgrt__kernels_cpu_level(void);
/* This CPU's SGRT__CPU_* properties. */
uint32_t sgrt__kernels_cpu_properties(void);

/* The level a scene gets when it asks for `max_level` (0: no limit): the
 * CPU level, lowered by max_level. *why (optional) receives a static
 * sentence. */
uint32_t sgrt__kernels_choose(uint32_t max_level, const char **why);

/* Fill *k for exactly `level` (clamped to what the build and CPU have):
 * reference first, then each level up to it, leaving out the entries this
 * CPU's properties slow. _for: with the properties `cpu` instead (tests reach
 * an entry a property would leave out, where the CPU runs it). */
void sgrt__kernels_init(sgrt__kernels *k, uint32_t level);
void sgrt__kernels_init_for(sgrt__kernels *k, uint32_t level, uint32_t cpu);

/* Name of the implementation of a level (the one sgrt__kernels_init gives). */
const char *sgrt__kernels_level_name(uint32_t level);

#endif
