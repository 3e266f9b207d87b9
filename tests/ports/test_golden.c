/* SPDX-License-Identifier: MIT */
/* Golden test: the same operations give the same bits on every target.
 *
 * A fixed-seed scenario of tens of thousands of operations (deep chains, wide
 * fans, set_trs with non-uniform scale, set_local, re-parenting in both keep
 * modes, subtree destroys, updates, world_now, compaction) is played through
 * the public API only. At checkpoints the state is hashed: every live node's
 * local and world matrix, in the order the nodes were created (never handles
 * or slots, which are the library's business), with a 64-bit FNV-1a over the
 * float bit patterns, NaNs canonicalised (their sign and payload are not part
 * of the contract). The hash also covers a log of every result code, update
 * count and world_now matrix along the way.
 *
 * The checkpoint hashes must equal the ones in golden.h, computed once by the
 * plain C reference kernel. The scenario runs once per kernel that the build
 * has and the CPU can run (the reference first), each forced on the scene, so
 * one target checks all of its paths.
 *
 * The last two phases are the edges of IEEE single precision: one that
 * overflows to infinity and NaN, then one whose worlds pass through the
 * denormal range. A kernel that flushes denormals to zero (ARMv7 NEON does,
 * always) may differ in the denormal phase only, which comes last: it is
 * accepted on 32-bit ARM only, against golden_armv7_neon, values that a model
 * of NEON arithmetic (armv7_neon_model.h) reproduces on every target.
 *
 * A second scenario, hashed on its own (golden_bounds), plays boxes on a
 * scene with subtree boxes: boxes set and cleared, moves, re-parents,
 * destroys, compaction, a chain that overflows; at its checkpoints every live
 * node's local, world and subtree box and the answers of three culls. It
 * stays clear of denormals, so every kernel, flushing ones included, must
 * give the same bits.
 *
 * A third scenario, hashed on its own (golden_large), plays a large world
 * (SGRT_SCENE_LARGE_WORLD | SGRT_SCENE_PREV_WORLD): roots anchored 10^9 to
 * 10^12 from zero with fractional parts (some at the origin), children with
 * TRS locals (translations up to 4 km, non-uniform scale, rotations), origin
 * moves (sub-metre steps, grid-snapped cells, jumps of 10^9 and back, the
 * same origin again, which must mark nothing), anchors set, re-parents across
 * roots in both keep modes (roots made children, children made roots),
 * set_world on roots, subtree destroys, compaction, updates; at its
 * checkpoints every live node's local, world, previous world and
 * sgrt_node_world_double (double bit patterns), every root's anchor and the
 * origin, and beside them sgrt_scene_hash (golden_large_scene_hash: the
 * library's own hash, the same on every target). It stays clear of
 * denormals and overflow (each checkpoint checks that no local, world or
 * previous world entry is denormal, infinite or NaN), so every kernel, flushing ones included, must give the same bits;
 * the ARMv7 NEON model runs it too, with a large world's anchored roots.
 *
 * A fourth scenario (golden_snapshot) takes snapshots of a fixed program
 * on a scene with every flag that keeps state (previous worlds, subtree
 * boxes, a large world): nodes with TRS locals, boxes, anchors, an origin,
 * user values, destroyed nodes (holes), moves pending; at each checkpoint
 * an FNV-1a of the snapshot's bytes, which must be the same on every target
 * (little-endian, every scalar), and the scene it gives back: a load and a
 * restore, continued, snapshot the same bytes as the scene that went on.
 * A fifth scenario, hashed on its own (golden_skins), plays skinning
 * palettes (sgrt_skin_*): 40 characters of 24 TRS joints, eight skins over
 * them (repeated joints, inverse binds of exact values, meshes in world
 * space, at a character's root, at a joint and in another character, with
 * normals and previous palettes on half), TRS moves, re-parents, destroys
 * of joints and meshes, a compaction; at its checkpoints every skin's
 * palette, normals and previous palette and the ranges its collect
 * returns. It stays clear of denormals, infinities and NaNs (checked), so
 * every kernel, flushing ones included, must give the same bits.
 *
 *   test_golden            compare with golden.h
 *   test_golden --print    print every run's hashes in golden.h's format
 */
#include "internal.h"
#include "scene.h"
#include "armv7_neon_model.h"
#include "golden.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- fixed-seed generator and hash (both part of the golden contract) ---- */

static uint64_t rng_state;

static uint64_t rng_u64(void) /* splitmix64 */
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static uint32_t rng_below(uint32_t n) { return (uint32_t)((rng_u64() >> 32) % n); }

typedef struct fnv {
    uint64_t h;
} fnv;

#define FNV_OFFSET 0xCBF29CE484222325ull
#define FNV_PRIME 0x100000001B3ull

/* Bytes are taken from the value, least significant first, so the hash does
 * not depend on the target's byte order. */
static void fnv_u32(fnv *f, uint32_t v)
{
    for (int i = 0; i < 4; i++) {
        f->h ^= (v >> (8 * i)) & 0xFFu;
        f->h *= FNV_PRIME;
    }
}

static uint32_t canonical_bits(float x)
{
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    if ((u & 0x7F800000u) == 0x7F800000u && (u & 0x007FFFFFu) != 0u)
        return 0x7FC00000u;
    return u;
}

static void fnv_mat(fnv *f, const float m[16])
{
    for (int i = 0; i < 16; i++)
        fnv_u32(f, canonical_bits(m[i]));
}

/* ---- the scenario's own model of the hierarchy, indexed by creation order ---- */

#define MAX_CREATED 40000u
#define NONE 0xFFFFFFFFu

typedef struct model {
    uint32_t created;
    uint32_t live;
    sgrt_node handle[MAX_CREATED];
    uint32_t parent[MAX_CREATED];
    uint32_t first_child[MAX_CREATED];
    uint32_t next_sib[MAX_CREATED];
    uint32_t prev_sib[MAX_CREATED];
    bool alive[MAX_CREATED];
    uint32_t live_list[MAX_CREATED]; /* live indices, for picking at random */
    uint32_t live_pos[MAX_CREATED];
    uint32_t stack[MAX_CREATED];
} model;

static model M;

static void link_child(uint32_t i, uint32_t p)
{
    M.parent[i] = p;
    M.prev_sib[i] = NONE;
    M.next_sib[i] = NONE;
    if (p == NONE)
        return;
    M.next_sib[i] = M.first_child[p];
    if (M.first_child[p] != NONE)
        M.prev_sib[M.first_child[p]] = i;
    M.first_child[p] = i;
}

static void unlink_child(uint32_t i)
{
    const uint32_t p = M.parent[i];
    if (p == NONE)
        return;
    if (M.prev_sib[i] != NONE)
        M.next_sib[M.prev_sib[i]] = M.next_sib[i];
    else
        M.first_child[p] = M.next_sib[i];
    if (M.next_sib[i] != NONE)
        M.prev_sib[M.next_sib[i]] = M.prev_sib[i];
    M.parent[i] = NONE;
}

static uint32_t model_add(sgrt_node h, uint32_t parent)
{
    const uint32_t i = M.created++;
    M.handle[i] = h;
    M.alive[i] = true;
    M.first_child[i] = NONE;
    link_child(i, parent);
    M.live_pos[i] = M.live;
    M.live_list[M.live++] = i;
    return i;
}

static void model_kill_one(uint32_t i)
{
    M.alive[i] = false;
    const uint32_t pos = M.live_pos[i], last = M.live_list[--M.live];
    M.live_list[pos] = last;
    M.live_pos[last] = pos;
}

static void model_destroy(uint32_t i)
{
    unlink_child(i);
    uint32_t top = 0;
    M.stack[top++] = i;
    while (top) {
        const uint32_t n = M.stack[--top];
        for (uint32_t c = M.first_child[n]; c != NONE; c = M.next_sib[c])
            M.stack[top++] = c;
        model_kill_one(n);
    }
}

/* Subtree size of i, counting no further than `limit`. */
static uint32_t model_subtree_size(uint32_t i, uint32_t limit)
{
    uint32_t top = 0, count = 0;
    M.stack[top++] = i;
    while (top && count <= limit) {
        const uint32_t n = M.stack[--top];
        count++;
        for (uint32_t c = M.first_child[n]; c != NONE; c = M.next_sib[c])
            M.stack[top++] = c;
    }
    return count;
}

/* True when `anc` is `i` or one of its ancestors. */
static bool model_is_ancestor_or_self(uint32_t anc, uint32_t i)
{
    for (uint32_t n = i; n != NONE; n = M.parent[n])
        if (n == anc)
            return true;
    return false;
}

/* ---- one run of the scenario ---- */

/* Room for the checkpoints of the longest scenario. */
#define RUN_CHECKPOINTS 32
_Static_assert(GOLDEN_CHECKPOINTS <= RUN_CHECKPOINTS &&
                   GOLDEN_BOUNDS_CHECKPOINTS <= RUN_CHECKPOINTS &&
                   GOLDEN_LARGE_CHECKPOINTS <= RUN_CHECKPOINTS &&
                   GOLDEN_SNAPSHOT_CHECKPOINTS <= RUN_CHECKPOINTS,
               "RUN_CHECKPOINTS is too small");

typedef struct run {
    sgrt_scene *s;
    fnv log; /* every result code, update count and world_now along the way */
    uint64_t cp[RUN_CHECKPOINTS];
    uint64_t scene_hash[RUN_CHECKPOINTS]; /* sgrt_scene_hash at each (large world) */
    uint32_t ncp;
    uint32_t last; /* most recently created node: creating under it grows a chain */
    /* What the scenario exercised, to show that it covers what it claims. */
    uint32_t creates, destroys, set_trs, set_local, world_now, updates, compacts;
    uint32_t reparent_ok[2], cycles, singular;
    /* The large-world scenario's: origin moves (and the same origin again),
     * anchors set, roots placed by set_world, children made roots and roots
     * made children (keep local, keep world). */
    uint32_t origin_moves, same_origin, anchors, roots_placed, to_root[2], to_child[2];
    uint32_t max_depth;
    uint32_t denormal, infinite, nan; /* world entries seen at checkpoints */
    uint32_t cp_denormal[RUN_CHECKPOINTS];
    int failures;
    const char *name;
} run;

#define FAIL(R, ...)                                                  \
    do {                                                              \
        (R)->failures++;                                              \
        if ((R)->failures <= 10) {                                    \
            fprintf(stderr, "[%s] %s:%d: ", (R)->name, __FILE__, __LINE__); \
            fprintf(stderr, __VA_ARGS__);                             \
            fputc('\n', stderr);                                      \
        }                                                             \
    } while (0)

static void log_result(run *R, sgrt_result r) { fnv_u32(&R->log, (uint32_t)(int32_t)r); }

static uint32_t random_live(void) { return M.live_list[rng_below(M.live)]; }

/* Exactly representable values only, so that no target rounds the inputs. */
static float rnd_translation(void) { return (float)((int32_t)rng_below(2049) - 1024) / 64.0f; }

static float rnd_scale(void)
{
    /* Symmetric in log2, so that long chains neither blow up nor vanish. */
    static const float table[] = {0.5f, 0.625f, 0.8f, 1.0f, 1.25f, 1.6f, 2.0f};
    if (rng_below(128) == 0)
        return 0.0f; /* a collapsed node: its world has no inverse */
    const float s = table[rng_below(7)];
    return rng_below(16) == 0 ? -s : s;
}

/* A rational unit quaternion (a, b, c, d) / n with a^2 + b^2 + c^2 + d^2 = n^2. */
static void rnd_unit_quat(float q[4])
{
    for (;;) {
        int32_t v[4];
        int32_t n2 = 0;
        for (int i = 0; i < 4; i++) {
            v[i] = (int32_t)rng_below(15) - 7;
            n2 += v[i] * v[i];
        }
        int32_t n = 1;
        while (n * n < n2)
            n++;
        if (n2 == 0 || n * n != n2)
            continue;
        for (int i = 0; i < 4; i++)
            q[i] = (float)v[i] / (float)n;
        return;
    }
}

static void rnd_quat(float q[4])
{
    if (rng_below(8) == 0) {
        /* Not of unit length: the library uses it as given (a scaled, sheared rotation). */
        for (int i = 0; i < 4; i++)
            q[i] = (float)((int32_t)rng_below(17) - 8) / 8.0f;
        return;
    }
    rnd_unit_quat(q);
}

static void op_create(run *R, uint32_t parent)
{
    sgrt_node h = SGRT_NULL_NODE;
    const sgrt_result r =
        sgrt_node_create(R->s, parent == NONE ? SGRT_NULL_NODE : M.handle[parent], &h);
    log_result(R, r);
    if (r != SGRT_OK) {
        FAIL(R, "node_create: %s", sgrt_result_str(r));
        return;
    }
    R->last = model_add(h, parent);
    R->creates++;
}

static void op_set_trs_values(run *R, uint32_t i, const float t[3], const float q[4],
                              const float sc[3])
{
    const sgrt_result r = sgrt_node_set_trs(R->s, M.handle[i], t, q, sc);
    log_result(R, r);
    R->set_trs++;
    if (r != SGRT_OK)
        FAIL(R, "set_trs(node %" PRIu32 "): %s", i, sgrt_result_str(r));
}

static void op_set_trs(run *R, uint32_t i)
{
    float t[3], q[4], sc[3];
    for (int k = 0; k < 3; k++)
        t[k] = rnd_translation();
    rnd_quat(q);
    for (int k = 0; k < 3; k++)
        sc[k] = rnd_scale();
    op_set_trs_values(R, i, t, q, sc);
}

/* Nudge one element of the local (or write it back unchanged, which must be
 * accepted and mark nothing: the update counts in the log would differ). */
static void op_set_local(run *R, uint32_t i)
{
    float m[16];
    sgrt_result r = sgrt_node_local(R->s, M.handle[i], m);
    log_result(R, r);
    if (r != SGRT_OK) {
        FAIL(R, "node_local: %s", sgrt_result_str(r));
        return;
    }
    if (rng_below(2)) {
        const uint32_t e = rng_below(15); /* never m[15]: keep the matrix affine-looking */
        m[e] = m[e] + (float)((int32_t)rng_below(33) - 16) / 1024.0f;
    }
    r = sgrt_node_set_local(R->s, M.handle[i], m);
    log_result(R, r);
    R->set_local++;
    if (r != SGRT_OK)
        FAIL(R, "set_local: %s", sgrt_result_str(r));
}

static void op_reparent(run *R, uint32_t i, uint32_t p, sgrt_keep keep)
{
    const sgrt_result r = sgrt_node_set_parent(R->s, M.handle[i],
                                               p == NONE ? SGRT_NULL_NODE : M.handle[p], keep);
    log_result(R, r);
    const bool cycle = p != NONE && model_is_ancestor_or_self(i, p);
    if (cycle) {
        R->cycles++;
        if (r != SGRT_ERR_CYCLE)
            FAIL(R, "set_parent into own subtree returned %s", sgrt_result_str(r));
        return;
    }
    if (r == SGRT_OK) {
        unlink_child(i);
        link_child(i, p);
        R->reparent_ok[keep == SGRT_KEEP_WORLD]++;
    } else if (keep == SGRT_KEEP_WORLD && r == SGRT_ERR_SINGULAR) {
        R->singular++;
    } else {
        FAIL(R, "set_parent: %s", sgrt_result_str(r));
    }
}

static void op_destroy(run *R, uint32_t i)
{
    const sgrt_result r = sgrt_node_destroy(R->s, M.handle[i]);
    log_result(R, r);
    if (r != SGRT_OK) {
        FAIL(R, "node_destroy: %s", sgrt_result_str(r));
        return;
    }
    model_destroy(i);
    R->destroys++;
    /* Stale handles must stay refused. */
    const sgrt_result r2 = sgrt_node_destroy(R->s, M.handle[i]);
    log_result(R, r2);
    if (r2 != SGRT_ERR_STALE_HANDLE)
        FAIL(R, "destroying a destroyed node returned %s", sgrt_result_str(r2));
}

static void op_world_now(run *R, uint32_t i)
{
    float m[16];
    const sgrt_result r = sgrt_node_world_now(R->s, M.handle[i], m);
    log_result(R, r);
    if (r != SGRT_OK) {
        FAIL(R, "world_now: %s", sgrt_result_str(r));
        return;
    }
    fnv_mat(&R->log, m);
    R->world_now++;
}

static void op_update(run *R)
{
    const uint32_t n = sgrt_scene_update(R->s);
    fnv_u32(&R->log, n);
    R->updates++;
}

/* Hash of the whole state after an update: every live node, in creation order. */
static uint64_t state_hash(run *R)
{
    fnv f = {FNV_OFFSET};
    fnv_u32(&f, M.live);
    if (sgrt_scene_node_count(R->s) != M.live)
        FAIL(R, "node_count %" PRIu32 ", expected %" PRIu32, sgrt_scene_node_count(R->s), M.live);
    for (uint32_t i = 0; i < M.created; i++) {
        if (!M.alive[i])
            continue;
        float local[16], world[16];
        sgrt_node p = SGRT_NULL_NODE;
        if (sgrt_node_local(R->s, M.handle[i], local) != SGRT_OK ||
            sgrt_node_world(R->s, M.handle[i], world) != SGRT_OK ||
            sgrt_node_parent(R->s, M.handle[i], &p) != SGRT_OK) {
            FAIL(R, "live node %" PRIu32 " not readable", i);
            continue;
        }
        const sgrt_node want = M.parent[i] == NONE ? SGRT_NULL_NODE : M.handle[M.parent[i]];
        if (p.id != want.id)
            FAIL(R, "node %" PRIu32 ": parent differs from the scenario's", i);
        uint32_t depth = 0;
        for (uint32_t a = M.parent[i]; a != NONE; a = M.parent[a])
            depth++;
        if (depth > R->max_depth)
            R->max_depth = depth;
        for (int e = 0; e < 16; e++) {
            const uint32_t u = canonical_bits(world[e]);
            R->denormal += (u & 0x7F800000u) == 0 && (u & 0x007FFFFFu) != 0;
            R->infinite += (u & 0x7FFFFFFFu) == 0x7F800000u;
            R->nan += u == 0x7FC00000u;
        }
        fnv_u32(&f, i);
        fnv_u32(&f, M.parent[i]);
        fnv_mat(&f, local);
        fnv_mat(&f, world);
    }
    return f.h;
}

static void checkpoint(run *R)
{
    op_update(R);
    const char *what = NULL;
    if (sgrt_scene_check(R->s, &what) != SGRT_OK)
        FAIL(R, "scene_check: %s", what ? what : "?");
    fnv f = {state_hash(R)};
    fnv_u32(&f, (uint32_t)(R->log.h >> 32));
    fnv_u32(&f, (uint32_t)R->log.h);
    if (R->ncp < GOLDEN_CHECKPOINTS) {
        R->cp[R->ncp] = f.h;
        R->cp_denormal[R->ncp] = R->denormal;
    }
    R->ncp++;
}

#define RANDOM_OPS 40000u
#define CHECK_EVERY 5000u

static void phase_build(run *R)
{
    /* A deep chain and a wide fan to start from. */
    op_create(R, NONE);
    for (int d = 0; d < 400; d++) {
        op_create(R, R->last);
        op_set_trs(R, R->last);
    }
    op_create(R, NONE);
    const uint32_t fan = R->last;
    for (int k = 0; k < 1500; k++) {
        op_create(R, fan);
        if (k % 3 == 0)
            op_set_trs(R, R->last);
    }
    checkpoint(R);
}

static void phase_random(run *R)
{
    for (uint32_t op = 1; op <= RANDOM_OPS; op++) {
        const uint32_t x = rng_below(100);
        if (M.live == 0 || x < 24) {
            if (M.created >= MAX_CREATED - 1000u) {
                op_set_trs(R, random_live());
            } else {
                const uint32_t y = rng_below(10);
                op_create(R, M.live == 0 || y == 0 ? NONE
                             : (y < 4 && M.alive[R->last]) ? R->last
                                                           : random_live());
            }
        } else if (x < 60) {
            op_set_trs(R, random_live());
        } else if (x < 68) {
            op_set_local(R, random_live());
        } else if (x < 79) {
            const uint32_t i = random_live();
            uint32_t p = rng_below(10) == 0 ? NONE : random_live();
            if (rng_below(16) == 0) /* under its own descendant (or itself): refused */
                for (uint32_t c = i, steps = rng_below(4); steps-- && c != NONE; c = M.first_child[c])
                    p = c;
            op_reparent(R, i, p, rng_below(2) ? SGRT_KEEP_WORLD : SGRT_KEEP_LOCAL);
        } else if (x < 83) {
            /* Mostly small subtrees, so the population keeps growing. */
            for (int tries = 0; tries < 4; tries++) {
                const uint32_t i = random_live();
                if (model_subtree_size(i, 64) <= 64 || M.live > 12000u) {
                    op_destroy(R, i);
                    break;
                }
            }
        } else if (x < 86) {
            op_world_now(R, random_live());
        } else if (x < 88) {
            op_update(R);
        } else if (x < 89 && M.created > 0) {
            /* A handle of a destroyed node, if there is one: refused. */
            const uint32_t i = rng_below(M.created);
            if (!M.alive[i]) {
                const float t[3] = {1, 2, 3}, q[4] = {0, 0, 0, 1}, sc[3] = {1, 1, 1};
                const sgrt_result r = sgrt_node_set_trs(R->s, M.handle[i], t, q, sc);
                log_result(R, r);
                if (r != SGRT_ERR_STALE_HANDLE)
                    FAIL(R, "set_trs on a destroyed node returned %s", sgrt_result_str(r));
            }
        } else {
            op_set_trs(R, random_live());
        }
        if (op % 4096u == 0) {
            const sgrt_result r = sgrt_scene_compact(R->s);
            log_result(R, r);
            if (r != SGRT_OK)
                FAIL(R, "compact: %s", sgrt_result_str(r));
            R->compacts++;
        }
        if (op % CHECK_EVERY == 0)
            checkpoint(R);
    }
}

/* Worlds that pass through the denormal range (2^-149 .. 2^-126) on their way
 * to zero: a chain scaling by about 1/200 per level, with rotations so that
 * every element is a sum of products; and locals that hold denormals. */
static void phase_denormal(run *R)
{
    static const float q[4] = {0.28f, -0.48f, 0.6f, 0.576f};
    op_create(R, NONE);
    const uint32_t root = R->last;
    uint32_t p = root;
    for (int d = 0; d < 24; d++) {
        op_create(R, p);
        p = R->last;
        const float t[3] = {(float)d * 0.001f, 1e-30f, -3e-25f};
        const float sc[3] = {0.0049f, 0.0051f * (float)(d % 3 + 1), 0.005f};
        op_set_trs_values(R, p, t, q, sc);
    }
    op_create(R, root);
    const float tiny[16] = {1.5e-39f, 0, 0, 0, 0, 3e-41f, 0, 0, 0, 0, 1, 0, 7e-45f, -2e-40f, 1, 1};
    const sgrt_result r = sgrt_node_set_local(R->s, M.handle[R->last], tiny);
    log_result(R, r);
    if (r != SGRT_OK)
        FAIL(R, "set_local with denormal entries: %s", sgrt_result_str(r));
    const uint32_t holder = R->last;
    op_create(R, holder);
    op_set_trs(R, R->last);
    op_world_now(R, R->last);
    /* Keep-world under a node whose world is tiny but invertible, and back. */
    op_reparent(R, p, holder, SGRT_KEEP_WORLD);
    op_reparent(R, p, NONE, SGRT_KEEP_WORLD);
    checkpoint(R);
}

/* Worlds that overflow: a chain scaling by 1e15 per level reaches infinity at
 * the third level, and the combine then makes NaNs (inf - inf, 0 * inf).
 * Keep-world re-parents under such a node must be refused (SINGULAR). */
static void phase_overflow(run *R)
{
    static const float q[4] = {0.6f, 0.0f, 0.0f, 0.8f};
    static const float t[3] = {5.0f, -7.0f, 11.0f};
    static const float sc[3] = {1e15f, 3e15f, -2e15f};
    op_create(R, NONE);
    uint32_t p = R->last;
    for (int d = 0; d < 6; d++) {
        op_create(R, p);
        p = R->last;
        op_set_trs_values(R, p, t, q, sc);
    }
    op_update(R);
    op_world_now(R, p);
    op_create(R, NONE);
    const uint32_t other = R->last;
    op_reparent(R, other, p, SGRT_KEEP_WORLD);
    op_reparent(R, other, p, SGRT_KEEP_LOCAL);
    op_reparent(R, p, NONE, SGRT_KEEP_WORLD);
    checkpoint(R);
}

static void run_scenario(run *R, const sgrt__kernels *k)
{
    memset(&M, 0, sizeof M);
    rng_state = 0x5367727447;
    R->log.h = FNV_OFFSET;
    R->ncp = 0;
    R->last = NONE;
    if (sgrt_scene_create(NULL, &R->s) != SGRT_OK) {
        FAIL(R, "scene_create failed");
        return;
    }
    if (k)
        sgrt__scene_set_kernels(R->s, 0, k);
    phase_build(R);
    phase_random(R);
    /* Compaction keeps every local and world bit for bit. */
    const uint64_t before = state_hash(R);
    const sgrt_result r = sgrt_scene_compact(R->s);
    if (r != SGRT_OK)
        FAIL(R, "compact: %s", sgrt_result_str(r));
    if (sgrt_scene_update(R->s) != 0)
        FAIL(R, "update after compact (nothing pending) recomputed something");
    if (state_hash(R) != before)
        FAIL(R, "compaction changed a local or world matrix");
    phase_overflow(R);
    phase_denormal(R);
    sgrt_scene_destroy(R->s);
    R->s = NULL;
    if (R->ncp != GOLDEN_CHECKPOINTS)
        FAIL(R, "%" PRIu32 " checkpoints, golden.h has %d", R->ncp, GOLDEN_CHECKPOINTS);
}

/* ---- the boxes scenario ---- */

/* A box of exactly representable values, or none. */
static void op_box(run *R, uint32_t i)
{
    sgrt_result r;
    if (rng_below(10) == 0) {
        r = sgrt_node_clear_bounds(R->s, M.handle[i]);
    } else {
        /* One draw per statement: the order of an initializer's (or a
         * call's arguments') evaluation is the compiler's. */
        float c[3], h[3];
        c[0] = rnd_translation() / 4.0f;
        c[1] = rnd_translation() / 4.0f;
        c[2] = 0.25f;
        h[0] = (float)rng_below(65) / 16.0f;
        h[1] = (float)rng_below(9) / 8.0f;
        h[2] = (float)rng_below(33) / 32.0f;
        r = sgrt_node_set_bounds(R->s, M.handle[i], c, h);
    }
    log_result(R, r);
    if (r != SGRT_OK)
        FAIL(R, "set/clear bounds: %s", sgrt_result_str(r));
}

static void fnv_box(fnv *f, const float lo[3], const float hi[3])
{
    for (int a = 0; a < 3; a++) {
        fnv_u32(f, canonical_bits(lo[a]));
        fnv_u32(f, canonical_bits(hi[a]));
    }
}

/* Every live node's boxes, and three culls' answers, in creation order. */
static void bounds_checkpoint(run *R, sgrt_nodeset set)
{
    op_update(R);
    const char *what = NULL;
    if (sgrt_scene_check(R->s, &what) != SGRT_OK)
        FAIL(R, "scene_check: %s", what ? what : "?");
    static const float frusta[3][6][4] = {
        {{1, 0, 0, 40}, {-1, 0, 0, 40}, {0, 1, 0, 40}, {0, -1, 0, 40}, {0, 0, 1, 40}, {0, 0, -1, 40}},
        {{0.6f, 0, 0.8f, -3}, {-0.6f, 0, 0.8f, -3}, {0, 0.6f, 0.8f, -3}, {0, -0.6f, 0.8f, -3},
         {0, 0, 1, -1}, {0, 0, -1, 200}},
        {{1, 1, 1, 0.5f}, {-0.25f, 2, 0, 7}, {0, 0, -3, 100}, {1, 0, 0, 1e6f}, {0, 1, 0, 3},
         {0, 0, 1, 3}},
    };
    fnv f = {FNV_OFFSET};
    fnv_u32(&f, M.live);
    for (uint32_t i = 0; i < M.created; i++) {
        if (!M.alive[i])
            continue;
        float c[3], h[3], lo[3], hi[3], slo[3], shi[3];
        if (sgrt_node_bounds(R->s, M.handle[i], c, h) != SGRT_OK ||
            sgrt_node_world_bounds(R->s, M.handle[i], lo, hi) != SGRT_OK ||
            sgrt_node_subtree_bounds(R->s, M.handle[i], slo, shi) != SGRT_OK) {
            FAIL(R, "node %" PRIu32 ": boxes not readable", i);
            continue;
        }
        R->infinite += !(hi[0] <= FLT_MAX) && lo[0] <= hi[0];
        fnv_u32(&f, i);
        fnv_box(&f, c, h);
        fnv_box(&f, lo, hi);
        fnv_box(&f, slo, shi);
    }
    for (int k = 0; k < 3; k++) {
        sgrt_cull_stats st;
        const sgrt_result r = sgrt_scene_cull(R->s, frusta[k][0], 6, SGRT_NULL_NODESET, set, &st);
        log_result(R, r);
        fnv_u32(&f, st.visible);
        for (uint32_t i = 0; i < M.created; i++)
            if (M.alive[i])
                fnv_u32(&f, sgrt_nodeset_has(R->s, set, M.handle[i]));
    }
    fnv_u32(&f, (uint32_t)(R->log.h >> 32));
    fnv_u32(&f, (uint32_t)R->log.h);
    if (R->ncp < GOLDEN_BOUNDS_CHECKPOINTS)
        R->cp[R->ncp] = f.h;
    R->ncp++;
}

static void run_bounds_scenario(run *R, const sgrt__kernels *k)
{
    memset(&M, 0, sizeof M);
    rng_state = 0xB0B5ull;
    R->log.h = FNV_OFFSET;
    R->ncp = 0;
    R->last = NONE;
    const sgrt_scene_desc d = {.flags = SGRT_SCENE_SUBTREE_BOUNDS};
    sgrt_nodeset set = SGRT_NULL_NODESET;
    if (sgrt_scene_create(&d, &R->s) != SGRT_OK || sgrt_nodeset_create(R->s, &set) != SGRT_OK) {
        FAIL(R, "scene_create failed");
        return;
    }
    if (k)
        sgrt__scene_set_kernels(R->s, 0, k);
    for (int n = 0; n < 3000; n++) {
        op_create(R, n % 100 == 0 ? NONE : rng_below(3) == 0 ? R->last : random_live());
        op_set_trs(R, R->last);
        op_box(R, R->last);
    }
    bounds_checkpoint(R, set);
    for (uint32_t op = 1; op <= 12000u; op++) {
        const uint32_t x = rng_below(100);
        if (x < 15)
            op_create(R, rng_below(8) == 0 ? NONE : random_live());
        else if (x < 45)
            op_set_trs(R, random_live());
        else if (x < 70)
            op_box(R, random_live());
        else if (x < 80) {
            const uint32_t i = random_live();
            const uint32_t p = rng_below(10) == 0 ? NONE : random_live();
            op_reparent(R, i, p, rng_below(2) ? SGRT_KEEP_WORLD : SGRT_KEEP_LOCAL);
        }
        else if (x < 84 && M.live > 500u)
            op_destroy(R, random_live());
        else if (x < 97)
            op_box(R, M.alive[R->last] ? R->last : random_live());
        else
            op_update(R);
        if (op % 5000u == 0) {
            const sgrt_result r = sgrt_scene_compact(R->s);
            log_result(R, r);
            R->compacts++;
        }
        if (op % 4000u == 0)
            bounds_checkpoint(R, set);
    }
    /* A chain that overflows: infinite axes. */
    static const float q[4] = {0.6f, 0.0f, 0.0f, 0.8f}, t[3] = {5.0f, -7.0f, 11.0f};
    static const float sc[3] = {1e15f, 3e15f, -2e15f};
    op_create(R, NONE);
    for (int depth = 0; depth < 5; depth++) {
        op_create(R, R->last);
        op_set_trs_values(R, R->last, t, q, sc);
        op_box(R, R->last);
    }
    bounds_checkpoint(R, set);
    sgrt_scene_destroy(R->s);
    R->s = NULL;
    if (R->ncp != GOLDEN_BOUNDS_CHECKPOINTS)
        FAIL(R, "%" PRIu32 " boxes checkpoints, golden.h has %d", R->ncp, GOLDEN_BOUNDS_CHECKPOINTS);
    if (R->infinite == 0)
        FAIL(R, "the boxes scenario no longer reaches an infinite box");
}

/* ---- the large-world scenario ---- */

/* What the scene must hold by the rules of sgrt.h's "Large worlds": the
 * origin, and each root's anchor (a new root, a node made a root and a root
 * placed with sgrt_node_set_world are anchored at the origin of the moment). */
static double origin_now[3], origin_before[3];
static double anchor_of[MAX_CREATED][3];
static bool origin_moved; /* since the last update: the next recomputes every node */

/* A double's bit pattern, least significant byte first, as fnv_u32 takes a float's. */
static void fnv_double(fnv *f, double x)
{
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    fnv_u32(f, (uint32_t)u);
    fnv_u32(f, (uint32_t)(u >> 32));
}

static void fnv_doubles(fnv *f, const double *v, int n)
{
    for (int i = 0; i < n; i++)
        fnv_double(f, v[i]);
}

/* Neither denormal nor infinite nor NaN: what a flushing kernel reads and
 * writes exactly as an IEEE one does. */
static bool plain_float(float x)
{
    const uint32_t e = canonical_bits(x) & 0x7F800000u;
    return x == 0.0f || (e != 0u && e != 0x7F800000u);
}

static bool plain_matrix(const float m[16])
{
    for (int e = 0; e < 16; e++)
        if (!plain_float(m[e]))
            return false;
    return true;
}

/* 10^9 to 10^12 from zero, either side, with a fraction in steps of 2^-16
 * (rounded to the double there: 2^-23 to 2^-13). */
static double rnd_far(void)
{
    const double whole = (double)(1000000000ull + rng_u64() % 999000000001ull);
    const double frac = (double)rng_below(65536) / 65536.0;
    return rng_below(2) ? whole + frac : -(whole + frac);
}

/* Up to 4 km in steps of 1/64 m, exact in float. */
static float rnd_near(void) { return (float)((int32_t)rng_below(524289) - 262144) / 64.0f; }

/* x snapped down to a multiple of `cell` (|x / cell| < 2^62). */
static double snap(double x, double cell)
{
    const double c = x / cell;
    int64_t k = (int64_t)c;
    if ((double)k > c)
        k--;
    return (double)k * cell;
}

static uint32_t root_of(uint32_t i)
{
    while (M.parent[i] != NONE)
        i = M.parent[i];
    return i;
}

static uint32_t large_update(run *R)
{
    const uint32_t n = sgrt_scene_update(R->s);
    fnv_u32(&R->log, n);
    R->updates++;
    if (origin_moved && n != M.live)
        FAIL(R, "the update after an origin move recomputed %" PRIu32 " of %" PRIu32 " nodes", n,
             M.live);
    origin_moved = false;
    return n;
}

static void large_create(run *R, uint32_t parent)
{
    op_create(R, parent);
    if (parent == NONE)
        memcpy(anchor_of[R->last], origin_now, sizeof origin_now);
}

/* A local of translation up to 4 km, a rotation, a non-uniform scale. */
static void large_trs(run *R, uint32_t i)
{
    float t[3], q[4], sc[3];
    for (int k = 0; k < 3; k++)
        t[k] = rnd_near();
    rnd_unit_quat(q);
    for (int k = 0; k < 3; k++)
        sc[k] = rnd_scale();
    op_set_trs_values(R, i, t, q, sc);
}

static void large_set_anchor(run *R, uint32_t i, const double position[3])
{
    double a[3];
    memcpy(a, position, sizeof a);
    const sgrt_result r = sgrt_node_set_anchor(R->s, M.handle[i], a);
    log_result(R, r);
    const sgrt_result want = M.parent[i] == NONE ? SGRT_OK : SGRT_ERR_INVALID_ARG;
    if (r != want)
        FAIL(R, "set_anchor(node %" PRIu32 "): %s, expected %s", i, sgrt_result_str(r),
             sgrt_result_str(want));
    if (r == SGRT_OK) {
        memcpy(anchor_of[i], a, sizeof a);
        R->anchors++;
    }
}

static void large_set_origin(run *R, const double origin[3])
{
    double o[3];
    memcpy(o, origin, sizeof o);
    const sgrt_result r = sgrt_scene_set_origin(R->s, o);
    log_result(R, r);
    if (r != SGRT_OK) {
        FAIL(R, "set_origin: %s", sgrt_result_str(r));
        return;
    }
    if (memcmp(o, origin_now, sizeof o) == 0) {
        R->same_origin++;
        return;
    }
    memcpy(origin_before, origin_now, sizeof o);
    memcpy(origin_now, o, sizeof o);
    origin_moved = true;
    R->origin_moves++;
}

/* Re-parent, and count the roots that become children and the children
 * that become roots (anchored at the origin). */
static void large_reparent(run *R, uint32_t i, uint32_t p, sgrt_keep keep)
{
    const uint32_t before = M.parent[i];
    op_reparent(R, i, p, keep);
    if (M.parent[i] != p || before == p)
        return; /* refused, or under the same parent: a no-op that keeps the anchor */
    if (p == NONE) {
        memcpy(anchor_of[i], origin_now, sizeof origin_now);
        R->to_root[keep == SGRT_KEEP_WORLD]++;
    } else if (before == NONE) {
        R->to_child[keep == SGRT_KEEP_WORLD]++;
    }
}

/* Place a node at a world near the origin; a root's world after the next
 * update is then the matrix bit for bit. */
static void large_set_world(run *R, uint32_t i)
{
    float t[3], q[4], sc[3], m[16], now[16];
    for (int k = 0; k < 3; k++)
        t[k] = rnd_near();
    rnd_unit_quat(q);
    for (int k = 0; k < 3; k++)
        sc[k] = rnd_scale();
    sgrt_result r = sgrt_trs_to_matrices(1, t, q, sc, m);
    log_result(R, r);
    r = sgrt_node_set_world(R->s, M.handle[i], m);
    log_result(R, r);
    if (M.parent[i] != NONE) {
        if (r != SGRT_OK && r != SGRT_ERR_SINGULAR)
            FAIL(R, "set_world under a parent: %s", sgrt_result_str(r));
        return;
    }
    if (r != SGRT_OK) {
        FAIL(R, "set_world on a root: %s", sgrt_result_str(r));
        return;
    }
    memcpy(anchor_of[i], origin_now, sizeof origin_now);
    R->roots_placed++;
    r = sgrt_node_world_now(R->s, M.handle[i], now);
    if (r != SGRT_OK || memcmp(now, m, sizeof m) != 0)
        FAIL(R, "a root placed with set_world is not at the matrix bit for bit");
}

static void large_world_double(run *R, uint32_t i)
{
    double m[16];
    const sgrt_result r = sgrt_node_world_double(R->s, M.handle[i], m);
    log_result(R, r);
    if (r != SGRT_OK)
        FAIL(R, "world_double: %s", sgrt_result_str(r));
    else
        fnv_doubles(&R->log, m, 16);
}

/* Every live node's local and world, in creation order. */
static uint64_t large_worlds_hash(run *R)
{
    fnv f = {FNV_OFFSET};
    for (uint32_t i = 0; i < M.created; i++) {
        float local[16], world[16];
        if (!M.alive[i])
            continue;
        if (sgrt_node_local(R->s, M.handle[i], local) != SGRT_OK ||
            sgrt_node_world(R->s, M.handle[i], world) != SGRT_OK)
            FAIL(R, "live node %" PRIu32 " not readable", i);
        fnv_mat(&f, local);
        fnv_mat(&f, world);
    }
    return f.h;
}

/* Every live node's local, world, previous world and world in double, each
 * root's anchor, and the origin, in creation order. */
static uint64_t large_state_hash(run *R)
{
    fnv f = {FNV_OFFSET};
    fnv_u32(&f, M.live);
    if (sgrt_scene_node_count(R->s) != M.live)
        FAIL(R, "node_count %" PRIu32 ", expected %" PRIu32, sgrt_scene_node_count(R->s), M.live);
    double origin[3];
    if (sgrt_scene_origin(R->s, origin) != SGRT_OK ||
        memcmp(origin, origin_now, sizeof origin) != 0)
        FAIL(R, "the origin differs from the last one set");
    fnv_doubles(&f, origin, 3);
    uint32_t slots = 0;
    const float *prev = sgrt_scene_prev_world_array(R->s, &slots);
    if (!prev) {
        FAIL(R, "no previous worlds");
        return f.h;
    }
    for (uint32_t i = 0; i < M.created; i++) {
        if (!M.alive[i])
            continue;
        float local[16], world[16];
        double wd[16], anchor[3];
        uint32_t slot = 0;
        sgrt_node p = SGRT_NULL_NODE;
        if (sgrt_node_local(R->s, M.handle[i], local) != SGRT_OK ||
            sgrt_node_world(R->s, M.handle[i], world) != SGRT_OK ||
            sgrt_node_parent(R->s, M.handle[i], &p) != SGRT_OK ||
            sgrt_node_slot(R->s, M.handle[i], &slot) != SGRT_OK || slot >= slots ||
            sgrt_node_world_double(R->s, M.handle[i], wd) != SGRT_OK) {
            FAIL(R, "live node %" PRIu32 " not readable", i);
            continue;
        }
        const sgrt_node want = M.parent[i] == NONE ? SGRT_NULL_NODE : M.handle[M.parent[i]];
        if (p.id != want.id)
            FAIL(R, "node %" PRIu32 ": parent differs from the scenario's", i);
        const float *pw = prev + 16u * slot;
        if (!plain_matrix(local) || !plain_matrix(world) || !plain_matrix(pw))
            FAIL(R, "node %" PRIu32 ": a denormal, infinite or NaN entry", i);
        for (int e = 0; e < 16; e++)
            if (!(wd[e] >= -DBL_MAX && wd[e] <= DBL_MAX))
                FAIL(R, "node %" PRIu32 ": world_double not finite", i);
        fnv_u32(&f, i);
        fnv_u32(&f, M.parent[i]);
        fnv_mat(&f, local);
        fnv_mat(&f, world);
        fnv_mat(&f, pw);
        fnv_doubles(&f, wd, 16);
        const sgrt_result r = sgrt_node_anchor(R->s, M.handle[i], anchor);
        if (M.parent[i] != NONE) {
            if (r != SGRT_ERR_INVALID_ARG)
                FAIL(R, "node_anchor of a node that is not a root: %s", sgrt_result_str(r));
            continue;
        }
        if (r != SGRT_OK || memcmp(anchor, anchor_of[i], sizeof anchor) != 0)
            FAIL(R, "root %" PRIu32 ": anchor differs from the scenario's", i);
        fnv_doubles(&f, anchor, 3);
    }
    return f.h;
}

static void large_checkpoint(run *R)
{
    large_update(R);
    const char *what = NULL;
    if (sgrt_scene_check(R->s, &what) != SGRT_OK)
        FAIL(R, "scene_check: %s", what ? what : "?");
    fnv f = {large_state_hash(R)};
    fnv_u32(&f, (uint32_t)(R->log.h >> 32));
    fnv_u32(&f, (uint32_t)R->log.h);
    if (R->ncp < RUN_CHECKPOINTS) {
        R->cp[R->ncp] = f.h;
        R->scene_hash[R->ncp] = sgrt_scene_hash(R->s);
    }
    R->ncp++;
}

/* Twelve roots 10^9 to 10^12 from zero (three left at the origin, zero),
 * each with 24 children in chains up to 5 deep. */
#define LARGE_ROOTS 12

static void large_build(run *R, uint32_t root[LARGE_ROOTS])
{
    for (uint32_t r = 0; r < LARGE_ROOTS; r++) {
        large_create(R, NONE);
        root[r] = R->last;
        if (r % 4 != 3) {
            double a[3];
            for (int k = 0; k < 3; k++)
                a[k] = rnd_far();
            large_set_anchor(R, root[r], a);
        }
        large_trs(R, root[r]);
        uint32_t depth = 0;
        for (int c = 0; c < 24; c++) {
            const bool deeper = depth < 5 && rng_below(3) != 0;
            large_create(R, deeper ? R->last : root[r]);
            depth = deeper ? depth + 1 : 1;
            large_trs(R, R->last);
        }
    }
    large_checkpoint(R);
}

static void large_origin_moves(run *R, const uint32_t root[LARGE_ROOTS])
{
    double o[3], saved[3];
    /* Next to a root, off by fractions of a metre: a jump of up to 10^12. */
    static const double off[3] = {0.25, -0.375, 0.125};
    for (int k = 0; k < 3; k++)
        o[k] = anchor_of[root[0]][k] + off[k];
    large_set_origin(R, o);
    large_checkpoint(R);
    /* Sub-metre steps, each followed by an update. */
    for (int step = 0; step < 3; step++) {
        memcpy(o, origin_now, sizeof o);
        o[0] += 0.3;
        o[1] -= 0.7;
        o[2] += 0.0625 * step;
        large_set_origin(R, o);
        large_update(R);
    }
    large_checkpoint(R);
    /* A camera a few km from another root, the origin on a 256 m grid. */
    static const double camera[3] = {1234.5, -777.25, 3000.0};
    for (int k = 0; k < 3; k++)
        o[k] = snap(anchor_of[root[5]][k] + camera[k], 256.0);
    large_set_origin(R, o);
    large_update(R);
    /* The same origin again and a root anchored where it is: nothing moves. */
    memcpy(o, origin_now, sizeof o);
    large_set_origin(R, o);
    large_set_anchor(R, root[2], anchor_of[root[2]]);
    if (large_update(R) != 0)
        FAIL(R, "the same origin or anchor again marked a node");
    /* A root anchored exactly at the origin, one at zero moved far away. */
    large_set_anchor(R, root[7], origin_now);
    for (int k = 0; k < 3; k++)
        o[k] = rnd_far();
    large_set_anchor(R, root[3], o);
    large_checkpoint(R);
    /* A jump of 10^9 and back: the same origin gives the same worlds. */
    memcpy(saved, origin_now, sizeof saved);
    const uint64_t worlds = large_worlds_hash(R);
    memcpy(o, saved, sizeof o);
    o[0] += 1e9;
    o[2] -= 1e9;
    large_set_origin(R, o);
    large_checkpoint(R);
    large_set_origin(R, saved);
    large_update(R);
    if (large_worlds_hash(R) != worlds)
        FAIL(R, "back at an origin, the worlds differ from those it gave before");
    large_checkpoint(R);
    /* There and back with no update between: every node recomputed, the
     * previous worlds moved by the sum of the two shifts. */
    memcpy(o, saved, sizeof o);
    o[1] += 1e9 + 0.5;
    large_set_origin(R, o);
    large_set_origin(R, saved);
    large_update(R);
    if (large_worlds_hash(R) != worlds)
        FAIL(R, "back at an origin, the worlds differ from those it gave before");
    large_checkpoint(R);
    /* Refused, changing nothing: coordinates not finite or beyond the
     * limit, an anchor on a node that is not a root. */
    static const double bad[3][3] = {{0.0, 2.0 * SGRT_LARGE_WORLD_LIMIT, 0.0},
                                     {(double)INFINITY, 0.0, 0.0},
                                     {0.0, 0.0, (double)NAN}};
    for (int b = 0; b < 3; b++) {
        sgrt_result r = sgrt_scene_set_origin(R->s, bad[b]);
        log_result(R, r);
        if (r != SGRT_ERR_INVALID_ARG)
            FAIL(R, "set_origin of a bad point: %s", sgrt_result_str(r));
        r = sgrt_node_set_anchor(R->s, M.handle[root[1]], bad[b]);
        log_result(R, r);
        if (r != SGRT_ERR_INVALID_ARG)
            FAIL(R, "set_anchor of a bad point: %s", sgrt_result_str(r));
    }
    large_set_anchor(R, M.first_child[root[1]], origin_now);
    if (large_update(R) != 0)
        FAIL(R, "a refused call marked a node");
}

/* An origin move as a camera makes them. */
static void large_move_origin(run *R)
{
    double o[3];
    memcpy(o, origin_now, sizeof o);
    const uint32_t kind = rng_below(5);
    if (kind == 0) { /* a sub-metre step */
        for (int k = 0; k < 3; k++)
            o[k] += (double)((int32_t)rng_below(2001) - 1000) / 1024.0;
    } else if (kind == 1) { /* near a root, on a 512 m grid */
        const uint32_t r = root_of(random_live());
        for (int k = 0; k < 3; k++) {
            const double cam = anchor_of[r][k] + (double)((int32_t)rng_below(8193) - 4096) / 4.0;
            o[k] = snap(cam, 512.0);
        }
    } else if (kind == 2) { /* a jump of 10^9 along one axis */
        const uint32_t k = rng_below(3);
        o[k] += rng_below(2) ? 1e9 : -1e9;
    } else if (kind == 3) { /* back where it was before the last move */
        memcpy(o, origin_before, sizeof o);
    } /* else the same origin: marks nothing */
    large_set_origin(R, o);
}

static void large_anchor_op(run *R)
{
    uint32_t i = random_live();
    if (rng_below(8) != 0)
        i = root_of(i);
    double a[3];
    const uint32_t kind = rng_below(4);
    if (kind == 0 || M.parent[i] != NONE) {
        memcpy(a, origin_now, sizeof a);
    } else if (kind == 1) { /* where it is: marks nothing */
        memcpy(a, anchor_of[i], sizeof a);
    } else if (kind == 2) {
        for (int k = 0; k < 3; k++)
            a[k] = anchor_of[i][k] + (double)((int32_t)rng_below(4097) - 2048) / 8.0;
    } else {
        for (int k = 0; k < 3; k++)
            a[k] = rnd_far();
    }
    large_set_anchor(R, i, a);
}

#define LARGE_OPS 4000u
#define LARGE_CHECK_EVERY 500u

static void large_random(run *R)
{
    for (uint32_t op = 1; op <= LARGE_OPS; op++) {
        const uint32_t x = rng_below(100);
        if (x < 12) {
            large_create(R, rng_below(6) == 0 ? NONE : random_live());
            large_trs(R, R->last);
        } else if (x < 34) {
            large_trs(R, random_live());
        } else if (x < 42) {
            large_anchor_op(R);
        } else if (x < 54) {
            uint32_t i = random_live();
            if (rng_below(3) == 0)
                i = root_of(i);
            const uint32_t p = rng_below(4) == 0 ? NONE : random_live();
            large_reparent(R, i, p, rng_below(2) ? SGRT_KEEP_WORLD : SGRT_KEEP_LOCAL);
        } else if (x < 60) {
            const uint32_t i = random_live();
            large_set_world(R, rng_below(4) != 0 ? root_of(i) : i);
        } else if (x < 64) {
            const uint32_t i = random_live();
            if (M.live > 250u && model_subtree_size(i, 40) <= 40)
                op_destroy(R, i);
        } else if (x < 70) {
            large_move_origin(R);
        } else if (x < 74) {
            op_world_now(R, random_live());
        } else if (x < 80) {
            large_world_double(R, random_live());
        } else if (x < 86) {
            large_update(R);
        } else {
            large_trs(R, random_live());
        }
        if (op % 1000u == 0) {
            const sgrt_result r = sgrt_scene_compact(R->s);
            log_result(R, r);
            if (r != SGRT_OK)
                FAIL(R, "compact: %s", sgrt_result_str(r));
            R->compacts++;
        }
        if (op % LARGE_CHECK_EVERY == 0)
            large_checkpoint(R);
    }
}

static void run_large_scenario(run *R, const sgrt__kernels *k)
{
    memset(&M, 0, sizeof M);
    memset(origin_now, 0, sizeof origin_now);
    memset(origin_before, 0, sizeof origin_before);
    origin_moved = false;
    rng_state = 0x1A29E3D0ull;
    R->log.h = FNV_OFFSET;
    R->ncp = 0;
    R->last = NONE;
    const sgrt_scene_desc d = {.flags = SGRT_SCENE_LARGE_WORLD | SGRT_SCENE_PREV_WORLD};
    if (sgrt_scene_create(&d, &R->s) != SGRT_OK) {
        FAIL(R, "scene_create failed");
        return;
    }
    if (k)
        sgrt__scene_set_kernels(R->s, 0, k);
    uint32_t root[LARGE_ROOTS];
    large_build(R, root);
    large_origin_moves(R, root);
    large_random(R);
    /* Compaction keeps every bit: locals, worlds, previous worlds, anchors. */
    large_update(R);
    large_update(R);
    const uint64_t before = large_state_hash(R);
    const sgrt_result r = sgrt_scene_compact(R->s);
    log_result(R, r);
    if (r != SGRT_OK)
        FAIL(R, "compact: %s", sgrt_result_str(r));
    if (large_update(R) != 0)
        FAIL(R, "update after compact (nothing pending) recomputed something");
    if (large_state_hash(R) != before)
        FAIL(R, "compaction changed a local, world, previous world or anchor");
    /* A whole anchored tree destroyed, a new root, a last jump. */
    op_destroy(R, root_of(random_live()));
    large_create(R, NONE);
    large_trs(R, R->last);
    large_create(R, R->last);
    large_trs(R, R->last);
    double o[3];
    for (int a = 0; a < 3; a++)
        o[a] = rnd_far();
    large_set_origin(R, o);
    large_checkpoint(R);
    sgrt_scene_destroy(R->s);
    R->s = NULL;
    if (R->ncp != GOLDEN_LARGE_CHECKPOINTS)
        FAIL(R, "%" PRIu32 " large-world checkpoints, golden.h has %d", R->ncp,
             GOLDEN_LARGE_CHECKPOINTS);
}

/* ---- the skins scenario ---- */

#define GOLDEN_SKINS 8u
#define SKIN_CHARACTERS 40u
#define SKIN_JOINTS 24u

/* Every skin's arrays and the ranges its collect returns (merge gap 1). */
static void skins_checkpoint(run *R, const sgrt_skin *k, const uint32_t *flags)
{
    op_update(R);
    const char *what = NULL;
    if (sgrt_scene_check(R->s, &what) != SGRT_OK)
        FAIL(R, "scene_check: %s", what ? what : "?");
    fnv f = {FNV_OFFSET};
    for (uint32_t x = 0; x < GOLDEN_SKINS; x++) {
        uint32_t n = 0;
        const float *a[3] = {sgrt_skin_palette(R->s, k[x], &n), NULL, NULL};
        if (flags[x] & SGRT_SKIN_NORMALS)
            a[1] = sgrt_skin_normals(R->s, k[x], NULL);
        if (flags[x] & SGRT_SKIN_PREV)
            a[2] = sgrt_skin_prev_palette(R->s, k[x], NULL);
        if (!a[0] || n == 0u) {
            FAIL(R, "skin %" PRIu32 ": no palette", x);
            continue;
        }
        fnv_u32(&f, n);
        for (int w = 0; w < 3; w++)
            for (uint32_t e = 0; a[w] && e < 12u * n; e++) {
                fnv_u32(&f, canonical_bits(a[w][e]));
                R->denormal += !plain_float(a[w][e]);
            }
        sgrt_range r[8];
        uint32_t count;
        bool more;
        do {
            const sgrt_result res = sgrt_skin_collect(R->s, k[x], r, 8, 1, &count, &more);
            log_result(R, res);
            for (uint32_t i = 0; i < count; i++) {
                fnv_u32(&f, r[i].first);
                fnv_u32(&f, r[i].count);
            }
        } while (more && count);
    }
    fnv_u32(&f, (uint32_t)(R->log.h >> 32));
    fnv_u32(&f, (uint32_t)R->log.h);
    if (R->ncp < RUN_CHECKPOINTS)
        R->cp[R->ncp] = f.h;
    R->ncp++;
}

static void run_skins_scenario(run *R, const sgrt__kernels *k)
{
    memset(&M, 0, sizeof M);
    rng_state = 0x5C1E5ull;
    R->log.h = FNV_OFFSET;
    R->ncp = 0;
    R->last = NONE;
    if (sgrt_scene_create(NULL, &R->s) != SGRT_OK) {
        FAIL(R, "scene_create failed");
        return;
    }
    if (k)
        sgrt__scene_set_kernels(R->s, 0, k);
    for (uint32_t c = 0; c < SKIN_CHARACTERS; c++) {
        const uint32_t first = M.created;
        op_create(R, NONE);
        op_set_trs(R, R->last);
        for (uint32_t j = 1; j < SKIN_JOINTS; j++) {
            op_create(R, first + rng_below(j));
            op_set_trs(R, R->last);
        }
    }
    sgrt_skin skin[GOLDEN_SKINS];
    uint32_t flags[GOLDEN_SKINS];
    for (uint32_t x = 0; x < GOLDEN_SKINS; x++) {
        const uint32_t base = x * 5u * SKIN_JOINTS;
        sgrt_node joints[SKIN_JOINTS];
        float binds[SKIN_JOINTS][16];
        for (uint32_t j = 0; j < SKIN_JOINTS; j++) {
            const uint32_t pick = j % 7u == 6u ? rng_below(j) : j; /* a repeat now and then */
            joints[j] = M.handle[base + 1u + pick % (SKIN_JOINTS - 1u)];
            float sc = rnd_scale();
            memset(binds[j], 0, sizeof binds[j]);
            binds[j][0] = binds[j][5] = binds[j][10] = sc;
            binds[j][12] = rnd_translation();
            binds[j][13] = rnd_translation();
            binds[j][14] = rnd_translation();
            binds[j][15] = 1.0f;
        }
        const uint32_t m = x % 4u == 0u ? NONE : x % 4u == 1u ? base : x % 4u == 2u ? base + 3u
                                                                                : base + 7u * SKIN_JOINTS;
        flags[x] = x & 1u ? SGRT_SKIN_NORMALS | SGRT_SKIN_PREV : 0u;
        const sgrt_skin_desc d = {SKIN_JOINTS, joints, binds[0],
                                  m == NONE ? SGRT_NULL_NODE : M.handle[m], flags[x]};
        const sgrt_result r = sgrt_skin_create(R->s, &d, &skin[x]);
        log_result(R, r);
        if (r != SGRT_OK)
            FAIL(R, "skin_create: %s", sgrt_result_str(r));
    }
    skins_checkpoint(R, skin, flags);
    for (uint32_t op = 1; op <= 3000u; op++) {
        const uint32_t x = rng_below(100);
        if (x < 70) {
            op_set_trs(R, random_live());
        } else if (x < 82) {
            const uint32_t i = random_live();
            const uint32_t p = rng_below(6) == 0 ? NONE : random_live();
            op_reparent(R, i, p, SGRT_KEEP_LOCAL);
        } else if (x < 86 && M.live > 600u) {
            op_destroy(R, random_live());
        } else if (x < 92) {
            op_create(R, random_live());
            op_set_trs(R, R->last);
        }
        if (op % 50u == 0u)
            op_update(R);
        if (op == 1500u) {
            log_result(R, sgrt_scene_compact(R->s));
            R->compacts++;
        }
        if (op % 500u == 0u)
            skins_checkpoint(R, skin, flags);
    }
    sgrt_scene_destroy(R->s);
    R->s = NULL;
}

static int check_skins_run(const char *name, const sgrt__kernels *k, bool print)
{
    static run R;
    memset(&R, 0, sizeof R);
    R.name = name;
    run_skins_scenario(&R, k);
    const char *kname = k ? k->name : sgrt_simd_name();
    if (print) {
        printf("/* skins, %s: kernel %s */\n", name, kname);
        for (uint32_t c = 0; c < R.ncp && c < RUN_CHECKPOINTS; c++)
            printf("    0x%016" PRIx64 "ull,\n", R.cp[c]);
        return R.failures;
    }
    if (R.destroys == 0 || R.compacts == 0 || R.reparent_ok[0] == 0)
        FAIL(&R, "the skins scenario no longer covers what it claims (see the counts)");
    if (R.denormal)
        FAIL(&R, "%" PRIu32 " palette entries denormal, infinite or NaN: the scenario must stay "
                 "clear of them",
             R.denormal);
    uint32_t bad = 0;
    for (uint32_t c = 0; c < GOLDEN_SKINS_CHECKPOINTS; c++)
        bad += c >= R.ncp || R.cp[c] != golden_skins[c];
    printf("%-8s kernel %-20s golden_skins: %s\n", name, kname,
           bad == 0 && R.failures == 0 ? "match" : "MISMATCH");
    printf("    %" PRIu32 " creates, %" PRIu32 " destroys, %" PRIu32 " set_trs, %" PRIu32
           " re-parents, %" PRIu32 " updates\n",
           R.creates, R.destroys, R.set_trs, R.reparent_ok[0], R.updates);
    return R.failures + (bad != 0);
}

/* ---- the snapshot scenario ---------------------------------------------------- */

#define SNAP_FLAGS                                                                     \
    (SGRT_SCENE_PREV_WORLD | SGRT_SCENE_BOUNDS | SGRT_SCENE_SUBTREE_BOUNDS |            \
     SGRT_SCENE_LARGE_WORLD)
#define SNAP_NODES 240u

/* An FNV-1a of a snapshot of s (its bytes, and their count): a checkpoint. */
static uint64_t snap_print(run *R, const sgrt_scene *s)
{
    size_t n = 0, written = 0;
    if (sgrt_scene_snapshot_size(s, &n) != SGRT_OK) {
        FAIL(R, "snapshot_size");
        return 0;
    }
    uint8_t *b = malloc(n);
    if (!b || sgrt_scene_snapshot(s, b, n, &written) != SGRT_OK || written != n) {
        FAIL(R, "snapshot");
        free(b);
        return 0;
    }
    fnv f = {FNV_OFFSET};
    fnv_u32(&f, (uint32_t)n);
    for (size_t i = 0; i < n; i++) {
        f.h ^= b[i];
        f.h *= FNV_PRIME;
    }
    free(b);
    return f.h;
}

static void snap_checkpoint(run *R, const sgrt_scene *s)
{
    const char *what = NULL;
    if (sgrt_scene_check(s, &what) != SGRT_OK)
        FAIL(R, "scene_check: %s", what ? what : "?");
    if (R->ncp < RUN_CHECKPOINTS) {
        R->cp[R->ncp] = snap_print(R, s);
        R->scene_hash[R->ncp] = sgrt_scene_hash(s);
    }
    R->ncp++;
}

/* The program's calls, refused ones included (a cycle; a root's anchor
 * asked of a child). */
static void snap_call(run *R, sgrt_result r)
{
    log_result(R, r);
    if (r != SGRT_OK && r != SGRT_ERR_CYCLE && r != SGRT_ERR_INVALID_ARG)
        FAIL(R, "a call of the snapshot scenario: %s", sgrt_result_str(r));
}

/* One random call on s over the live nodes h[0..n) (never empty: only a
 * root's destroy could empty it, and the roots are many). */
static void snap_op(run *R, sgrt_scene *s, sgrt_node *h, uint32_t *n)
{
    const sgrt_node a = h[rng_below(*n)], b = h[rng_below(*n)];
    const float t[3] = {rnd_translation(), rnd_translation(), rnd_translation()};
    const float q[4] = {0.0f, 0.6f, 0.0f, 0.8f}, sc[3] = {rnd_scale(), 1.0f, rnd_scale()};
    const double at[3] = {1.0e9 + (double)rng_below(4096) * 0.25, -2.0e8, 0.5};
    switch (rng_below(10)) {
    case 0:
        if (*n < SNAP_NODES) {
            sgrt_node c;
            const sgrt_result r = sgrt_node_create(s, rng_below(4) ? a : SGRT_NULL_NODE, &c);
            snap_call(R, r);
            if (r == SGRT_OK)
                h[(*n)++] = c;
        }
        break;
    case 1: {
        /* Destroyed with its subtree: the list keeps the live nodes alone, so
         * that every call names one (a loaded scene's list is made by slot). */
        snap_call(R, sgrt_node_destroy(s, a));
        uint32_t m = 0;
        for (uint32_t i = 0; i < *n; i++)
            if (sgrt_node_alive(s, h[i]))
                h[m++] = h[i];
        *n = m;
        break;
    }
    case 2: snap_call(R, sgrt_node_set_parent(s, a, rng_below(3) ? b : SGRT_NULL_NODE,
                                              SGRT_KEEP_LOCAL)); break;
    case 3: snap_call(R, sgrt_node_set_bounds(s, a, t, sc)); break;
    case 4: snap_call(R, sgrt_node_clear_bounds(s, a)); break;
    case 5: snap_call(R, sgrt_node_set_anchor(s, a, at)); break;
    case 6: snap_call(R, sgrt_node_set_user(s, a, rng_u64())); break;
    case 7:
        if (rng_below(8) == 0)
            snap_call(R, sgrt_scene_set_origin(s, at));
        else
            log_result(R, (sgrt_result)sgrt_scene_update(s));
        break;
    default: snap_call(R, sgrt_node_set_trs(s, a, t, q, sc)); break;
    }
}

static void run_snapshot_scenario(run *R, const sgrt__kernels *k)
{
    rng_state = 0x5A95407ull;
    R->log.h = FNV_OFFSET;
    R->ncp = 0;
    const sgrt_scene_desc d = {.flags = SNAP_FLAGS};
    sgrt_scene *s = NULL, *l = NULL;
    if (sgrt_scene_create(&d, &s) != SGRT_OK) {
        FAIL(R, "scene_create failed");
        return;
    }
    if (k)
        sgrt__scene_set_kernels(s, 0, k);
    sgrt_node h[SNAP_NODES];
    uint32_t n = 0;
    /* Built: roots anchored far out, children with TRS locals and boxes. */
    for (uint32_t i = 0; i < SNAP_NODES / 2u; i++) {
        const sgrt_result r =
            sgrt_node_create(s, i % 10u ? h[rng_below(n)] : SGRT_NULL_NODE, &h[n]);
        snap_call(R, r);
        n += r == SGRT_OK;
    }
    for (uint32_t i = 0; i < 200u; i++)
        snap_op(R, s, h, &n);
    log_result(R, (sgrt_result)sgrt_scene_update(s));
    snap_checkpoint(R, s);
    /* More calls, ending with moves pending; its snapshot kept. */
    for (uint32_t i = 0; i < 400u; i++)
        snap_op(R, s, h, &n);
    const float t[3] = {1.5f, -2.0f, 0.25f}, q[4] = {0, 0, 0, 1}, sc[3] = {1, 2, 1};
    for (uint32_t i = 0; i < 3u; i++)
        snap_call(R, sgrt_node_set_trs(s, h[rng_below(n)], t, q, sc));
    snap_checkpoint(R, s);
    size_t bytes = 0;
    uint8_t *kept = NULL;
    if (sgrt_scene_snapshot_size(s, &bytes) != SGRT_OK || (kept = malloc(bytes)) == NULL ||
        sgrt_scene_snapshot(s, kept, bytes, NULL) != SGRT_OK ||
        sgrt_scene_load(NULL, kept, bytes, &l) != SGRT_OK) {
        FAIL(R, "snapshot or load");
    } else {
        /* The loaded scene, whose handles are its own, names the same nodes
         * by slot; it, the scene going on, and the scene restored make the
         * same calls and must snapshot the same bytes. */
        if (k)
            sgrt__scene_set_kernels(l, 0, k);
        sgrt_node hl[SNAP_NODES];
        uint32_t nl = n;
        for (uint32_t i = 0; i < n; i++) {
            uint32_t slot = 0;
            if (sgrt_node_slot(s, h[i], &slot) != SGRT_OK)
                FAIL(R, "the scenario's list holds a dead node");
            hl[i] = sgrt_scene_slot_node(l, slot);
        }
        sgrt_node hk[SNAP_NODES];
        memcpy(hk, h, sizeof h);
        const uint32_t nk = n;
        const uint64_t seed = rng_state;
        for (uint32_t i = 0; i < 300u; i++)
            snap_op(R, s, h, &n);
        log_result(R, (sgrt_result)sgrt_scene_update(s));
        snap_checkpoint(R, s);
        const uint64_t went_on = R->cp[R->ncp - 1u];
        rng_state = seed;
        for (uint32_t i = 0; i < 300u; i++)
            snap_op(R, l, hl, &nl);
        log_result(R, (sgrt_result)sgrt_scene_update(l));
        if (snap_print(R, l) != went_on)
            FAIL(R, "loaded and continued, the snapshot differs from the scene's that went on");
        if (sgrt_scene_restore(s, kept, bytes) != SGRT_OK)
            FAIL(R, "restore");
        memcpy(h, hk, sizeof h);
        n = nk;
        rng_state = seed;
        for (uint32_t i = 0; i < 300u; i++)
            snap_op(R, s, h, &n);
        log_result(R, (sgrt_result)sgrt_scene_update(s));
        if (snap_print(R, s) != went_on)
            FAIL(R, "restored and replayed, the snapshot differs from the scene's that went on");
    }
    free(kept);
    sgrt_scene_destroy(l);
    sgrt_scene_destroy(s);
    if (R->ncp != GOLDEN_SNAPSHOT_CHECKPOINTS)
        FAIL(R, "%" PRIu32 " snapshot checkpoints, golden.h has %d", R->ncp,
             GOLDEN_SNAPSHOT_CHECKPOINTS);
}

/* A scenario with one table of checkpoint hashes (boxes, snapshots): run,
 * then printed in golden.h's format or compared with `want` and the line
 * ports.sh reads printed ("... <table>: match"). */
static int check_table_run(const char *name, const sgrt__kernels *k, bool print,
                           void (*scenario)(run *, const sgrt__kernels *), const char *what,
                           const char *table, const uint64_t *want, uint32_t count)
{
    static run R;
    memset(&R, 0, sizeof R);
    R.name = name;
    scenario(&R, k);
    const char *kname = k ? k->name : sgrt_simd_name();
    if (print) {
        printf("/* %s, %s: kernel %s */\n", what, name, kname);
        for (uint32_t c = 0; c < R.ncp && c < count; c++)
            printf("    0x%016" PRIx64 "ull,\n", R.cp[c]);
        return R.failures;
    }
    uint32_t bad = 0;
    for (uint32_t c = 0; c < count; c++)
        bad += c >= R.ncp || R.cp[c] != want[c];
    printf("%-8s kernel %-20s %s: %s\n", name, kname, table,
           bad == 0 && R.failures == 0 ? "match" : "MISMATCH");
    if (bad) {
        R.failures++;
        for (uint32_t c = 0; c < count; c++)
            printf("    checkpoint %2" PRIu32 " 0x%016" PRIx64 " %s 0x%016" PRIx64 "\n", c,
                   c < R.ncp ? R.cp[c] : 0, c < R.ncp && R.cp[c] == want[c] ? "==" : "!=", want[c]);
    }
    return R.failures;
}

static int check_snapshot_run(const char *name, const sgrt__kernels *k, bool print)
{
    return check_table_run(name, k, print, run_snapshot_scenario, "snapshots", "golden_snapshot",
                           golden_snapshot, GOLDEN_SNAPSHOT_CHECKPOINTS);
}

static int check_bounds_run(const char *name, const sgrt__kernels *k, bool print)
{
    return check_table_run(name, k, print, run_bounds_scenario, "boxes", "golden_bounds",
                           golden_bounds, GOLDEN_BOUNDS_CHECKPOINTS);
}

static int check_large_run(const char *name, const sgrt__kernels *k, bool print)
{
    static run R;
    memset(&R, 0, sizeof R);
    R.name = name;
    run_large_scenario(&R, k);
    const char *kname = k ? k->name : sgrt_simd_name();
    if (print) {
        printf("/* large world, %s: kernel %s */\n", name, kname);
        for (uint32_t c = 0; c < R.ncp && c < RUN_CHECKPOINTS; c++)
            printf("    0x%016" PRIx64 "ull,\n", R.cp[c]);
        printf("/* large world hash, %s: kernel %s */\n", name, kname); /* sgrt_scene_hash */
        for (uint32_t c = 0; c < R.ncp && c < RUN_CHECKPOINTS; c++)
            printf("    0x%016" PRIx64 "ull,\n", R.scene_hash[c]);
        return R.failures;
    }
    if (R.origin_moves == 0 || R.same_origin == 0 || R.anchors == 0 || R.roots_placed == 0 ||
        R.to_root[0] == 0 || R.to_root[1] == 0 || R.to_child[0] == 0 || R.to_child[1] == 0 ||
        R.destroys == 0 || R.compacts == 0)
        FAIL(&R, "the large-world scenario no longer covers what it claims (see the counts)");
    uint32_t bad = 0, bad_hash = 0;
    for (uint32_t c = 0; c < GOLDEN_LARGE_CHECKPOINTS; c++) {
        bad += c >= R.ncp || R.cp[c] != golden_large[c];
        bad_hash += c >= R.ncp || R.scene_hash[c] != golden_large_scene_hash[c];
    }
    printf("%-8s kernel %-20s golden_large: %s, golden_large_scene_hash: %s\n", name, kname,
           bad == 0 && R.failures == 0 ? "match" : "MISMATCH", bad_hash == 0 ? "match" : "MISMATCH");
    if (bad_hash) {
        R.failures++;
        for (uint32_t c = 0; c < GOLDEN_LARGE_CHECKPOINTS; c++)
            printf("    sgrt_scene_hash %2" PRIu32 " 0x%016" PRIx64 " %s 0x%016" PRIx64 "\n", c,
                   c < R.ncp ? R.scene_hash[c] : 0,
                   c < R.ncp && R.scene_hash[c] == golden_large_scene_hash[c] ? "==" : "!=",
                   golden_large_scene_hash[c]);
    }
    printf("    %" PRIu32 " creates, %" PRIu32 " destroys, %" PRIu32 " set_trs, %" PRIu32
           " origin moves and %" PRIu32 " to the same origin, %" PRIu32 " anchors set, %" PRIu32
           " roots placed by set_world, %" PRIu32 "+%" PRIu32 " children made roots and %" PRIu32
           "+%" PRIu32 " roots made children (keep local+world), %" PRIu32
           " singular refused, %" PRIu32 " updates\n",
           R.creates, R.destroys, R.set_trs, R.origin_moves, R.same_origin, R.anchors,
           R.roots_placed, R.to_root[0], R.to_root[1], R.to_child[0], R.to_child[1], R.singular,
           R.updates);
    if (bad) {
        R.failures++;
        for (uint32_t c = 0; c < GOLDEN_LARGE_CHECKPOINTS; c++)
            printf("    checkpoint %2" PRIu32 " %-40s 0x%016" PRIx64 " %s 0x%016" PRIx64 "\n", c,
                   golden_large_checkpoint_name[c], c < R.ncp ? R.cp[c] : 0,
                   c < R.ncp && R.cp[c] == golden_large[c] ? "==" : "!=", golden_large[c]);
    }
    return R.failures;
}

static int check_run(const char *name, const sgrt__kernels *k, bool print)
{
    static run R;
    memset(&R, 0, sizeof R);
    R.name = name;
    run_scenario(&R, k);
    sgrt__kernels def;
    sgrt__kernels_init(&def, sgrt__kernels_choose(0, NULL));
    const sgrt__kernels *used = k ? k : &def;
    const bool ftz_kernel = kernel_flushes_denormals(used);
    const uint64_t *want = golden_ieee;
    const char *which = "golden_ieee";
    if (ftz_kernel) {
        want = golden_armv7_neon;
        which = "golden_armv7_neon";
#if !(defined(__arm__) && !defined(__aarch64__))
        if (used->update != armv7_neon_model()->update)
            FAIL(&R, "kernel %s flushes denormals to zero on a target that must not", used->name);
#endif
    }
    if (print) {
        printf("/* %s: kernel %s%s */\n", name, used->name, ftz_kernel ? ", flushes denormals" : "");
        for (uint32_t c = 0; c < R.ncp && c < GOLDEN_CHECKPOINTS; c++)
            printf("    0x%016" PRIx64 "ull,\n", R.cp[c]);
        return R.failures;
    }
    /* The scenario must reach what it is meant to test (true of every target:
     * these counts come from integer decisions and from the IEEE kernels). */
    if (R.reparent_ok[0] == 0 || R.reparent_ok[1] == 0 || R.cycles == 0 || R.singular == 0 ||
        R.destroys == 0 || R.compacts == 0 || R.max_depth < 400 || R.infinite == 0 ||
        R.nan == 0 || (!ftz_kernel && R.denormal == 0))
        FAIL(&R, "the scenario no longer covers what it claims (see the counts)");
    uint32_t bad = 0;
    for (uint32_t c = 0; c < GOLDEN_CHECKPOINTS; c++)
        bad += c >= R.ncp || R.cp[c] != want[c];
    printf("%-8s kernel %-20s %s: %s\n", name, used->name, which,
           bad == 0 && R.failures == 0 ? "match" : "MISMATCH");
    printf("    %" PRIu32 " creates, %" PRIu32 " destroys, %" PRIu32 " set_trs, %" PRIu32
           " set_local, %" PRIu32 "+%" PRIu32 " re-parents (keep local+world), %" PRIu32
           " cycles and %" PRIu32 " singular refused, %" PRIu32 " world_now, %" PRIu32
           " updates, %" PRIu32 " compactions, max depth %" PRIu32 "; world entries seen: %" PRIu32
           " denormal, %" PRIu32 " infinite, %" PRIu32 " NaN\n",
           R.creates, R.destroys, R.set_trs, R.set_local, R.reparent_ok[0], R.reparent_ok[1],
           R.cycles, R.singular, R.world_now, R.updates, R.compacts, R.max_depth, R.denormal,
           R.infinite, R.nan);
    if (bad) {
        R.failures++;
        for (uint32_t c = 0; c < GOLDEN_CHECKPOINTS; c++)
            printf("    checkpoint %2" PRIu32 " %-32s 0x%016" PRIx64 " %s 0x%016" PRIx64
                   " (%" PRIu32 " denormal world entries so far)\n", c,
                   golden_checkpoint_name[c], c < R.ncp ? R.cp[c] : 0,
                   c < R.ncp && R.cp[c] == want[c] ? "==" : "!=", want[c], R.cp_denormal[c]);
    }
    return R.failures;
}

int main(int argc, char **argv)
{
    const bool print = argc > 1 && strcmp(argv[1], "--print") == 0;
    int failures = 0;
#if FLT_EVAL_METHOD != 0
    /* This file is built with the library's floating-point flags: the library
     * then also rounds wherever the compiler chooses (s390x GCC in ISO C mode
     * without -fexcess-precision=fast: 1; x87: 2). */
    fprintf(stderr, "FLT_EVAL_METHOD is %d, not 0: float expressions are evaluated in a wider "
                    "type (docs/porting.md)\n", (int)FLT_EVAL_METHOD);
    failures++;
#endif
    /* Flushing denormals may only change what the denormal phase computes. */
    for (uint32_t c = 0; c < GOLDEN_CHECKPOINTS; c++)
        if ((c < GOLDEN_FIRST_DENORMAL_CHECKPOINT) != (golden_armv7_neon[c] == golden_ieee[c])) {
            fprintf(stderr, "golden.h: golden_armv7_neon[%" PRIu32 "] %s golden_ieee[%" PRIu32 "]\n",
                    c, golden_armv7_neon[c] == golden_ieee[c] ? "==" : "!=", c);
            failures += !print;
        }
    /* Every level this machine runs, forced; then a scene as created. */
    for (uint32_t level = SGRT__LEVEL_SCALAR; level <= sgrt__kernels_cpu_level(); level++) {
        sgrt__kernels k;
        sgrt__kernels_init(&k, level);
        failures += check_run("forced", &k, print);
    }
    failures += check_run("default", NULL, print);
    if (!kernel_flushes_denormals(armv7_neon_model())) {
        fprintf(stderr, "the ARMv7 NEON model does not flush denormals\n");
        failures++;
    }
    failures += check_run("model", armv7_neon_model(), print);
    /* Boxes: every level, a scene as created, the model: one table. */
    for (uint32_t level = SGRT__LEVEL_SCALAR; level <= sgrt__kernels_cpu_level(); level++) {
        sgrt__kernels k;
        sgrt__kernels_init(&k, level);
        failures += check_bounds_run("forced", &k, print);
    }
    failures += check_bounds_run("default", NULL, print);
    failures += check_bounds_run("model", armv7_neon_model(), print);
    /* Large worlds: every level, a scene as created, the model: one table. */
    for (uint32_t level = SGRT__LEVEL_SCALAR; level <= sgrt__kernels_cpu_level(); level++) {
        sgrt__kernels k;
        sgrt__kernels_init(&k, level);
        failures += check_large_run("forced", &k, print);
    }
    failures += check_large_run("default", NULL, print);
    failures += check_large_run("model", armv7_neon_model(), print);
    /* Snapshots: every level, a scene as created, the model: one table. */
    for (uint32_t level = SGRT__LEVEL_SCALAR; level <= sgrt__kernels_cpu_level(); level++) {
        sgrt__kernels k;
        sgrt__kernels_init(&k, level);
        failures += check_snapshot_run("forced", &k, print);
    }
    failures += check_snapshot_run("default", NULL, print);
    failures += check_snapshot_run("model", armv7_neon_model(), print);
    /* Skins: every level, a scene as created, the model: one table. */
    for (uint32_t level = SGRT__LEVEL_SCALAR; level <= sgrt__kernels_cpu_level(); level++) {
        sgrt__kernels k;
        sgrt__kernels_init(&k, level);
        failures += check_skins_run("forced", &k, print);
    }
    failures += check_skins_run("default", NULL, print);
    failures += check_skins_run("model", armv7_neon_model(), print);
    return failures == 0 ? 0 : 1;
}
