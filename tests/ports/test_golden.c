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
 *   test_golden            compare with golden.h
 *   test_golden --print    print every run's hashes in golden.h's format
 */
#include "internal.h"
#include "scene.h"
#include "armv7_neon_model.h"
#include "golden.h"

#include <float.h>
#include <inttypes.h>
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

typedef struct run {
    sgrt_scene *s;
    fnv log; /* every result code, update count and world_now along the way */
    uint64_t cp[GOLDEN_CHECKPOINTS];
    uint32_t ncp;
    uint32_t last; /* most recently created node: creating under it grows a chain */
    /* What the scenario exercised, to show that it covers what it claims. */
    uint32_t creates, destroys, set_trs, set_local, world_now, updates, compacts;
    uint32_t reparent_ok[2], cycles, singular;
    uint32_t max_depth;
    uint32_t denormal, infinite, nan; /* world entries seen at checkpoints */
    uint32_t cp_denormal[GOLDEN_CHECKPOINTS];
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

static void rnd_quat(float q[4])
{
    if (rng_below(8) == 0) {
        /* Not of unit length: the library uses it as given (a scaled, sheared rotation). */
        for (int i = 0; i < 4; i++)
            q[i] = (float)((int32_t)rng_below(17) - 8) / 8.0f;
        return;
    }
    /* A rational unit quaternion (a, b, c, d) / n with a^2 + b^2 + c^2 + d^2 = n^2. */
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

static int check_bounds_run(const char *name, const sgrt__kernels *k, bool print)
{
    static run R;
    memset(&R, 0, sizeof R);
    R.name = name;
    run_bounds_scenario(&R, k);
    const char *kname = k ? k->name : sgrt_simd_name();
    if (print) {
        printf("/* boxes, %s: kernel %s */\n", name, kname);
        for (uint32_t c = 0; c < R.ncp && c < GOLDEN_BOUNDS_CHECKPOINTS; c++)
            printf("    0x%016" PRIx64 "ull,\n", R.cp[c]);
        return R.failures;
    }
    uint32_t bad = 0;
    for (uint32_t c = 0; c < GOLDEN_BOUNDS_CHECKPOINTS; c++)
        bad += c >= R.ncp || R.cp[c] != golden_bounds[c];
    printf("%-8s kernel %-20s golden_bounds: %s\n", name, kname,
           bad == 0 && R.failures == 0 ? "match" : "MISMATCH");
    if (bad) {
        R.failures++;
        for (uint32_t c = 0; c < GOLDEN_BOUNDS_CHECKPOINTS; c++)
            printf("    checkpoint %2" PRIu32 " 0x%016" PRIx64 " %s 0x%016" PRIx64 "\n", c,
                   c < R.ncp ? R.cp[c] : 0, c < R.ncp && R.cp[c] == golden_bounds[c] ? "==" : "!=",
                   golden_bounds[c]);
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
    return failures == 0 ? 0 : 1;
}
