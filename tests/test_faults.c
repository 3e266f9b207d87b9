/* SPDX-License-Identifier: MIT */
/* Fault injection: an allocator that fails at the n-th call, for every n of a
 * scripted scenario.
 *
 * The scenario creates a scene through the test's allocator, reserves, creates
 * enough nodes to grow both the slot storage and the handle table several
 * times, re-parents subtrees under nodes stored after them so that the
 * relocation must grow the storage (both keep modes), compacts, and keeps
 * going. A first run with no failure ("golden") records how many allocations
 * each call makes and the final state. Then, for n = 1, 2, ... up to the
 * golden total, the scenario runs again with the n-th allocation failing:
 *
 *  - the call that hit the failure must return SGRT_ERR_NOMEM (scene_create:
 *    and leave *out untouched and nothing allocated);
 *  - a second sweep answers the n-th allocation, when it asks for more than
 *    16-byte alignment, with a block aligned to 16 only: the call must return
 *    SGRT_ERR_ALIGNMENT, free that block through the allocator, and satisfy
 *    everything below just as for NOMEM;
 *  - right after it, sgrt_scene_check passes and the scene holds exactly what
 *    it held before the call: same handles alive, parents, children, locals,
 *    worlds and exact current worlds, bit for bit;
 *  - the call is then retried (the allocator fails only once) and the run goes
 *    on; it must end in exactly the golden state, with the same update counts
 *    on the way: a failure leaves no trace, not even in pending work.
 *
 * The allocator also checks its contract: alignment a power of two <= 64 and
 * honoured, every free matching a live block with the size that was asked
 * for, nothing left when the scene is destroyed, and no allocation outside
 * the calls that are documented to allocate.
 *
 * Allocation sites are told apart by the return address of the call into the
 * allocator (glibc's backtrace, Windows' CaptureStackBackTrace), so the
 * summary says how many distinct call sites the failures reached and in which
 * API calls.
 *
 * Then the re-parent near the slot limit, which closes the holes before it
 * relocates: the growth that needs is made before anything moves, so when
 * it fails no slot has moved (the limit lowered to reach it with a small
 * scene). */
#include "internal.h" /* sgrt__alloc, to skip its frame when naming sites */
#include "alloc.h"
#include "scene.h" /* the slot limit, lowered */
#include "testutil.h"

#if defined(__GLIBC__)
#include <execinfo.h>
#define HAVE_BACKTRACE 1
#define BACKTRACE(frames, n) backtrace(frames, n)
#elif defined(_WIN32)
#include <windows.h>
#define HAVE_BACKTRACE 1
#define BACKTRACE(frames, n) (int)CaptureStackBackTrace(0, n, frames, NULL)
#else
#define HAVE_BACKTRACE 0
#endif

/* ---- the allocator ---------------------------------------------------------- */

/* The harness's test allocator, failing at call `fail_at` (counted from the
 * scene's creation), plus what this test needs around it: whether a call is
 * inside a scenario step (allocations outside any step are stray and must not
 * happen), whether the failure came during the current step, and where from. */
typedef struct fault_alloc {
    test_alloc ta;
    bool in_step;      /* inside a scenario step (documented to allocate or not) */
    bool injected;     /* the failure happened during the current step */
    uint64_t stray;    /* allocations outside any step (must stay 0) */
    uintptr_t site[2]; /* call path of the failed allocation */
} fault_alloc;

/* A macro, not a function, so that frame 0 of the backtrace is always the
 * allocator hook itself at any optimisation level. */
#if HAVE_BACKTRACE
static bool in_sgrt_alloc(uintptr_t pc)
{
    const uintptr_t a = (uintptr_t)&sgrt__alloc, f = (uintptr_t)&sgrt__free;
    const uintptr_t end = f > a && f - a < 4096u ? f : a + 64u;
    return pc >= a && pc < end;
}

#define CAPTURE_SITE(fa)                                                               \
    do {                                                                               \
        void *frames_[8];                                                              \
        const int nf_ = BACKTRACE(frames_, 8);                                         \
        int j_ = 1;                                                                    \
        while (j_ < nf_ && in_sgrt_alloc((uintptr_t)frames_[j_]))                      \
            j_++;                                                                      \
        (fa)->site[0] = j_ < nf_ ? (uintptr_t)frames_[j_] : 0u;                        \
        (fa)->site[1] = j_ + 1 < nf_ ? (uintptr_t)frames_[j_ + 1] : 0u;                \
    } while (0)
#else
#define CAPTURE_SITE(fa) ((fa)->site[0] = (fa)->site[1] = 0u)
#endif

/* The alignment each allocation of the golden run asked for: the misaligning
 * sweep skips those a 16-byte-aligned block satisfies. */
#define MAX_CALLS 1024
static size_t golden_align[MAX_CALLS + 1];

static void *fa_alloc(size_t size, size_t align, void *user)
{
    fault_alloc *fa = user;
    if (!fa->in_step)
        fa->stray++;
    const uint64_t failures = fa->ta.failures, misaligned = fa->ta.misaligned;
    void *p = test_alloc_alloc(size, align, &fa->ta);
    if (fa->ta.fail_at == 0 && fa->ta.misalign_at == 0 && fa->ta.calls <= MAX_CALLS)
        golden_align[fa->ta.calls] = align;
    if (fa->ta.failures != failures || fa->ta.misaligned != misaligned) {
        fa->injected = true;
        CAPTURE_SITE(fa);
    }
    return p;
}

static void fa_free(void *ptr, size_t size, void *user)
{
    fault_alloc *fa = user;
    test_alloc_free(ptr, size, &fa->ta);
}

/* ---- the scenario ------------------------------------------------------------ */

typedef enum op_kind {
    OP_SCENE_CREATE,
    OP_RESERVE,
    OP_CREATE,
    OP_DESTROY,
    OP_SET_LOCAL,
    OP_SET_TRS,
    OP_SET_PARENT,
    OP_UPDATE,
    OP_COMPACT,
    OP_READS,
    OP_TRACKER_CREATE,
    OP_NODESET_CREATE,
    OP_NODESET_ADD,
    OP_COLLECT,
    OP_KIND_COUNT
} op_kind;

static const char *const op_names[OP_KIND_COUNT] = {
    "sgrt_scene_create", "sgrt_scene_reserve", "sgrt_node_create",  "sgrt_node_destroy",
    "sgrt_node_set_local", "sgrt_node_set_trs", "sgrt_node_set_parent", "sgrt_scene_update",
    "sgrt_scene_compact", "reads", "sgrt_tracker_create", "sgrt_nodeset_create",
    "sgrt_nodeset_add", "sgrt_tracker_collect",
};

/* Calls documented never to allocate. */
static bool never_allocates(op_kind k)
{
    return k == OP_DESTROY || k == OP_SET_LOCAL || k == OP_SET_TRS || k == OP_UPDATE ||
           k == OP_READS || k == OP_NODESET_ADD || k == OP_COLLECT;
}

typedef struct op {
    op_kind kind;
    int a, b;    /* node numbers (creation order), -1: none */
    uint32_t x;  /* reserve count, keep mode, matrix seed */
    bool expect_growth; /* the scenario relies on this call allocating */
} op;

#define MAX_OPS 8192
#define MAX_NODES 16384

static void seeded_matrix(uint32_t seed, float m[16])
{
    rng r = {seed};
    for (int i = 0; i < 16; i++)
        m[i] = (float)(int)rng_below(&r, 2001u) / 1000.0f - 1.0f;
    m[3] = m[7] = m[11] = 0.0f;
    m[15] = 1.0f;
    m[0] += 2.0f;
    m[5] += 2.0f;
    m[10] += 2.0f; /* diagonally dominant: invertible, keep-world succeeds */
}

/* ---- running it -------------------------------------------------------------- */

#define NOBJ 4

typedef struct run_state {
    sgrt_scene *s;
    sgrt_tracker tr[NOBJ];
    sgrt_nodeset ns[NOBJ];
    uint64_t collected; /* digest of every range every collect returned */
    sgrt_node h[MAX_NODES];
    int nh;
    uint32_t updates[256];
    int nupdates;
    uint64_t step_allocs[MAX_OPS]; /* allocations each step made */
} run_state;

static sgrt_node node_of(const run_state *st, int i)
{
    return i < 0 ? SGRT_NULL_NODE : st->h[i];
}

/* Read-only calls over every node: must not allocate nor fail. */
static sgrt_result do_reads(const run_state *st)
{
    float m[16];
    sgrt_node p;
    for (int i = 0; i < st->nh; i++) {
        if (!sgrt_node_alive(st->s, st->h[i]))
            continue;
        if (sgrt_node_world(st->s, st->h[i], m) != SGRT_OK ||
            sgrt_node_world_now(st->s, st->h[i], m) != SGRT_OK ||
            sgrt_node_local(st->s, st->h[i], m) != SGRT_OK ||
            sgrt_node_parent(st->s, st->h[i], &p) != SGRT_OK ||
            sgrt_node_first_child(st->s, st->h[i], &p) != SGRT_OK ||
            sgrt_node_next_sibling(st->s, st->h[i], &p) != SGRT_OK)
            return SGRT_ERR_CORRUPT;
    }
    return sgrt_scene_check(st->s, NULL);
}

static sgrt_result do_op(run_state *st, const op *o, fault_alloc *fa)
{
    float m[16];
    switch (o->kind) {
    case OP_SCENE_CREATE: {
        sgrt_allocator al = {fa_alloc, fa_free, fa};
        sgrt_scene_desc d;
        memset(&d, 0, sizeof d);
        d.initial_capacity = 8;
        d.allocator = &al;
        sgrt_scene *const sentinel = (sgrt_scene *)(uintptr_t)0x5CE7E;
        sgrt_scene *s = sentinel;
        const sgrt_result r = sgrt_scene_create(&d, &s);
        if (r != SGRT_OK) {
            CHECK_MSG(s == sentinel,
                      "sgrt_scene_create failed with %s but wrote *out", sgrt_result_str(r));
            return r;
        }
        st->s = s;
        return r;
    }
    case OP_RESERVE:
        return sgrt_scene_reserve(st->s, o->x);
    case OP_CREATE: {
        const sgrt_node sentinel = {0xFEEDF00Du};
        sgrt_node out = sentinel;
        const sgrt_result r = sgrt_node_create(st->s, node_of(st, o->a), &out);
        if (r != SGRT_OK) {
            CHECK_MSG(out.id == sentinel.id,
                      "sgrt_node_create failed with %s but wrote *out", sgrt_result_str(r));
            return r;
        }
        st->h[st->nh++] = out;
        return r;
    }
    case OP_DESTROY:
        return sgrt_node_destroy(st->s, node_of(st, o->a));
    case OP_SET_LOCAL:
        seeded_matrix(o->x, m);
        return sgrt_node_set_local(st->s, node_of(st, o->a), m);
    case OP_SET_TRS: {
        seeded_matrix(o->x, m);
        const float q[4] = {0.6f, 0.0f, 0.0f, 0.8f};
        return sgrt_node_set_trs(st->s, node_of(st, o->a), &m[12], q, &m[0]);
    }
    case OP_SET_PARENT:
        return sgrt_node_set_parent(st->s, node_of(st, o->a), node_of(st, o->b),
                                    (sgrt_keep)o->x);
    case OP_UPDATE:
        if (st->nupdates < 256)
            st->updates[st->nupdates++] = sgrt_scene_update(st->s);
        return SGRT_OK;
    case OP_COMPACT:
        return sgrt_scene_compact(st->s);
    case OP_READS:
        return do_reads(st);
    case OP_TRACKER_CREATE: {
        sgrt_tracker t = SGRT_NULL_TRACKER;
        const sgrt_result r = sgrt_tracker_create(st->s, &t);
        if (r == SGRT_OK)
            st->tr[o->x] = t;
        else if (t.id != 0u)
            FAIL("sgrt_tracker_create failed with %s but wrote *out", sgrt_result_str(r));
        return r;
    }
    case OP_NODESET_CREATE: {
        sgrt_nodeset set = SGRT_NULL_NODESET;
        const sgrt_result r = sgrt_nodeset_create(st->s, &set);
        if (r == SGRT_OK)
            st->ns[o->x] = set;
        else if (set.id != 0u)
            FAIL("sgrt_nodeset_create failed with %s but wrote *out", sgrt_result_str(r));
        return r;
    }
    case OP_NODESET_ADD:
        return sgrt_nodeset_add(st->s, st->ns[o->x], node_of(st, o->a));
    case OP_COLLECT: {
        sgrt_range rg[64];
        bool more;
        do {
            const uint32_t n = test_collect(st->s, st->tr[o->x], rg, 64, 0, &more);
            for (uint32_t i = 0; i < n; i++)
                st->collected = (st->collected ^ ((uint64_t)rg[i].first << 32 | rg[i].count)) *
                                0x100000001B3ull;
        } while (more);
        return SGRT_OK;
    }
    case OP_KIND_COUNT:
        break;
    }
    return SGRT_ERR_INVALID_ARG;
}

static op ops[MAX_OPS];
static int nops;

static rng script_rng = {0x243F6A8885A308D3ull};
static uint32_t rnd(uint32_t n) { return rng_below(&script_rng, n); }

/* The script is written against a planning scene that runs each call as it
 * is added, so that the script can look at the storage (white-box) and aim
 * a call at the moment it must grow the storage. Every run replays the same
 * calls, so it meets the same storage state. */
static run_state plan;
static fault_alloc plan_fa;

static void push(op_kind k, int a, int b, uint32_t x)
{
    if (nops == MAX_OPS)
        abort();
    ops[nops].kind = k;
    ops[nops].a = a;
    ops[nops].b = b;
    ops[nops].x = x;
    ops[nops].expect_growth = false;
    plan_fa.in_step = true;
    const sgrt_result r = do_op(&plan, &ops[nops], &plan_fa);
    plan_fa.in_step = false;
    if (r != SGRT_OK) {
        fprintf(stderr, "test_faults: script step %d (%s) fails: %s\n", nops, op_names[k],
                sgrt_result_str(r));
        abort();
    }
    nops++;
}

/* Parent of each node in creation order, as the script builds it; the
 * script only names nodes that are alive at that point. */
static int script_parent[MAX_NODES];
static bool script_alive[MAX_NODES];
static int script_nodes;

static bool script_is_desc(int x, int anc)
{
    for (; x >= 0; x = script_parent[x])
        if (x == anc)
            return true;
    return false;
}

static int script_create(int parent)
{
    if (script_nodes == MAX_NODES)
        abort();
    push(OP_CREATE, parent, -1, 0);
    script_parent[script_nodes] = parent;
    script_alive[script_nodes] = true;
    return script_nodes++;
}

static void script_destroy(int n)
{
    push(OP_DESTROY, n, -1, 0);
    for (int i = 0; i < script_nodes; i++)
        if (script_alive[i] && script_is_desc(i, n))
            script_alive[i] = false;
}

static int script_pick_alive(void)
{
    for (;;) {
        const int i = (int)rnd((uint32_t)script_nodes);
        if (script_alive[i])
            return i;
    }
}

static void script_reparent(int n, int parent, uint32_t keep, bool growth)
{
    push(OP_SET_PARENT, n, parent, keep);
    ops[nops - 1].expect_growth = growth;
    script_parent[n] = parent;
}

static void script_fill_but_one(void)
{
    const sgrt_scene *ps = plan.s;
    while (ps->holes != 0 || ps->slot_end + 1u < ps->st.cap)
        script_create(-1);
    if (ps->slot_end + 1u != ps->st.cap)
        abort();
}

static void build_script(void)
{
    nops = 0;
    script_nodes = 0;
    push(OP_SCENE_CREATE, -1, -1, 0);
    push(OP_RESERVE, -1, -1, 100);
    /* Trackers and node sets follow every storage growth; five of them also
     * grow the scene's registry (room for 4 at first). */
    for (uint32_t i = 0; i < 3; i++)
        push(OP_TRACKER_CREATE, -1, -1, i);
    push(OP_NODESET_CREATE, -1, -1, 0);
    push(OP_NODESET_CREATE, -1, -1, 1);
    ops[nops - 1].expect_growth = true;

    /* A big tree under root 0 (a chain spine with bushes), and other trees. */
    const int big = script_create(-1);
    int spine = big;
    for (int i = 0; i < 600; i++) {
        const int p = i % 4 == 0 ? spine : (int)rnd((uint32_t)script_nodes);
        const int n = script_create(script_alive[p] ? p : big);
        if (i % 4 == 0)
            spine = n;
        if (i % 50 == 0)
            push(OP_SET_LOCAL, n, -1, (uint32_t)i);
        if (i % 7 == 0)
            push(OP_NODESET_ADD, n, -1, 0);
        if (i % 11 == 0)
            push(OP_NODESET_ADD, n, -1, 1);
    }
    push(OP_UPDATE, -1, -1, 0);
    push(OP_COLLECT, -1, -1, 0);
    for (int i = 0; i < 40; i++)
        push(i % 2 ? OP_SET_TRS : OP_SET_LOCAL, script_pick_alive(), -1, 1000u + (uint32_t)i);
    push(OP_READS, -1, -1, 0);
    push(OP_UPDATE, -1, -1, 0);

    /* Holes and freed handle indices. */
    for (int i = 0; i < 8; i++) {
        const int v = script_pick_alive();
        if (v != big)
            script_destroy(v);
    }
    /* Enough nodes to grow the handle table (sized by reserve) and the slots. */
    for (int i = 0; i < 1500; i++) {
        int p = -1;
        if (i % 10 != 0)
            p = (int)rnd((uint32_t)script_nodes);
        if (p >= 0 && !script_alive[p])
            p = -1;
        if (p == big)
            p = -1; /* keep the big subtree's size known */
        script_create(p);
    }
    push(OP_UPDATE, -1, -1, 0);

    /* Relocations that must grow the storage: fill every hole and every
     * slot but the last, create a root there (the highest slot), then move
     * the big subtree (hundreds of nodes, lower slots) under it. */
    script_fill_but_one();
    const int tail = script_create(-1);
    script_reparent(big, tail, SGRT_KEEP_LOCAL, true);
    push(OP_READS, -1, -1, 0);
    push(OP_UPDATE, -1, -1, 0);
    push(OP_COLLECT, -1, -1, 1);
    /* Back to a root (no relocation), then the same keeping the world. */
    script_reparent(big, -1, SGRT_KEEP_WORLD, false);
    push(OP_UPDATE, -1, -1, 0);
    script_fill_but_one();
    const int tail2 = script_create(-1);
    push(OP_SET_LOCAL, tail2, -1, 7u);
    script_reparent(big, tail2, SGRT_KEEP_WORLD, true);
    push(OP_READS, -1, -1, 0);
    push(OP_UPDATE, -1, -1, 0);

    /* Pending work across compaction. */
    for (int i = 0; i < 10; i++)
        push(OP_SET_LOCAL, script_pick_alive(), -1, 2000u + (uint32_t)i);
    push(OP_COMPACT, -1, -1, 0);
    ops[nops - 1].expect_growth = true;
    push(OP_READS, -1, -1, 0);
    push(OP_UPDATE, -1, -1, 0);
    push(OP_COLLECT, -1, -1, 0);
    push(OP_RESERVE, -1, -1, 4000);
    ops[nops - 1].expect_growth = true;
    for (int i = 0; i < 400; i++)
        script_create(i % 3 ? script_pick_alive() : -1);
    push(OP_UPDATE, -1, -1, 0);
    push(OP_READS, -1, -1, 0);
    for (uint32_t i = 0; i < 3; i++)
        push(OP_COLLECT, -1, -1, i);
    sgrt_scene_destroy(plan.s);
    test_alloc_release(&plan_fa.ta);
}

/* Node set membership of every handle, by position in the handle list (ids
 * differ between runs), and the set sizes. */
static uint64_t membership(const run_state *st)
{
    uint64_t h = 0xCBF29CE484222325ull;
    for (int k = 0; k < NOBJ; k++) {
        if (!st->ns[k].id)
            continue;
        h = (h ^ sgrt_nodeset_count(st->s, st->ns[k])) * 0x100000001B3ull;
        for (int i = 0; i < st->nh; i++)
            if (sgrt_nodeset_has(st->s, st->ns[k], st->h[i]))
                h = (h ^ ((uint64_t)(unsigned)k << 32 | (unsigned)i)) * 0x100000001B3ull;
    }
    return h;
}

typedef struct site_rec {
    uintptr_t pc[2];
    op_kind kind;
    uint64_t first_n;
    uint32_t hits;
} site_rec;

static site_rec sites[64];
static int nsites;
static uint32_t kind_hits[OP_KIND_COUNT];

static void note_site(const fault_alloc *fa, op_kind kind, uint64_t n)
{
    kind_hits[kind]++;
    for (int i = 0; i < nsites; i++)
        if (sites[i].pc[0] == fa->site[0] && sites[i].pc[1] == fa->site[1] &&
            sites[i].kind == kind) {
            sites[i].hits++;
            return;
        }
    if (nsites == 64)
        return;
    sites[nsites].pc[0] = fa->site[0];
    sites[nsites].pc[1] = fa->site[1];
    sites[nsites].kind = kind;
    sites[nsites].first_n = n;
    sites[nsites].hits = 1;
    nsites++;
}

static uint64_t golden_prefix[MAX_OPS]; /* allocations up to and including step i */
static snapshot golden_final;
static uint64_t golden_members, golden_collected;
static uint32_t golden_updates[256];
static int golden_nupdates;
static uint64_t golden_total;

/* One run of the scenario; fail_at = 0 is the golden run. With `misalign`,
 * allocation fail_at is not refused but answered with a block aligned to 16
 * bytes only (when it asks for more): the call must then refuse it with
 * SGRT_ERR_ALIGNMENT, exactly as it refuses a NULL with SGRT_ERR_NOMEM.
 * Returns false if the run had to stop. */
static bool run(uint64_t fail_at, bool misalign, run_state *st)
{
    fault_alloc fa;
    memset(&fa, 0, sizeof fa);
    if (misalign)
        fa.ta.misalign_at = fail_at;
    else
        fa.ta.fail_at = fail_at;
    const sgrt_result expected = misalign ? SGRT_ERR_ALIGNMENT : SGRT_ERR_NOMEM;
    const char *const ename = sgrt_result_str(expected);
    memset(st, 0, sizeof *st);
    bool ok = true;
    bool hit = false;

    for (int i = 0; i < nops && ok; i++) {
        const op *o = &ops[i];
        /* Only the step that will see the failure needs the expensive
         * before-picture; the golden run says which one that is. */
        snapshot before;
        bool have_before = false;
        uint64_t members_before = 0;
        if (fail_at && !hit && st->s) {
            if (golden_prefix[i] >= fail_at) {
                snapshot_take(st->s, st->h, (uint32_t)st->nh, &before);
                members_before = membership(st);
                have_before = true;
            }
        }
        const uint64_t calls0 = fa.ta.calls;
        fa.in_step = true;
        fa.injected = false;
        sgrt_result r = do_op(st, o, &fa);
        fa.in_step = false;
        if (fa.injected) {
            hit = true;
            note_site(&fa, o->kind, fail_at);
            if (r != expected) {
                FAIL("n=%llu: %s: the allocation %s but the call returned %s",
                     (unsigned long long)fail_at, op_names[o->kind],
                     misalign ? "was misaligned" : "failed", sgrt_result_str(r));
                if (have_before)
                    snapshot_free(&before);
                ok = false;
                break;
            }
            if (o->kind == OP_SCENE_CREATE) {
                CHECK_MSG(fa.ta.live_blocks == 0,
                          "n=%llu: sgrt_scene_create failed with %s and left %llu blocks allocated",
                          (unsigned long long)fail_at, ename, (unsigned long long)fa.ta.live_blocks);
            } else {
                const char *what = NULL;
                CHECK_MSG(sgrt_scene_check(st->s, &what) == SGRT_OK,
                          "n=%llu: %s after %s: sgrt_scene_check: %s",
                          (unsigned long long)fail_at, op_names[o->kind], ename, what ? what : "?");
                if (have_before) {
                    snapshot after;
                    snapshot_take(st->s, st->h, (uint32_t)st->nh, &after);
                    const char *diff = snapshot_diff(&before, &after);
                    CHECK_MSG(diff == NULL,
                              "n=%llu: %s after %s: scene changed: %s",
                              (unsigned long long)fail_at, op_names[o->kind], ename, diff);
                    CHECK_MSG(membership(st) == members_before,
                              "n=%llu: %s after %s: node set membership changed",
                              (unsigned long long)fail_at, op_names[o->kind], ename);
                    snapshot_free(&after);
                } else {
                    FAIL("n=%llu: the failure came in an unexpected step (%s)",
                         (unsigned long long)fail_at, op_names[o->kind]);
                }
            }
            /* The allocator fails once: the retry must behave as in the
             * golden run. */
            fa.in_step = true;
            r = do_op(st, o, &fa);
            fa.in_step = false;
        }
        if (have_before)
            snapshot_free(&before);
        st->step_allocs[i] = fa.ta.calls - calls0;
        if (r != SGRT_OK) {
            FAIL("n=%llu: step %d (%s) returned %s", (unsigned long long)fail_at, i,
                 op_names[o->kind], sgrt_result_str(r));
            ok = false;
        }
        if (!fail_at) {
            CHECK_MSG(!(never_allocates(o->kind) && st->step_allocs[i] != 0),
                      "%s allocated (%llu calls)", op_names[o->kind],
                      (unsigned long long)st->step_allocs[i]);
            CHECK_MSG(!(o->expect_growth && st->step_allocs[i] == 0),
                      "step %d (%s) no longer allocates: the scenario misses that site", i,
                      op_names[o->kind]);
        }
    }
    CHECK_MSG(fa.stray == 0,
              "n=%llu: %llu allocation(s) outside the calls that may allocate",
              (unsigned long long)fail_at, (unsigned long long)fa.stray);
    /* A request for 16-byte alignment or less is honoured by a misaligning
     * allocator: nothing to refuse. */
    CHECK_MSG(!(fail_at && !hit && ok && !(misalign && fa.ta.misaligned == 0)),
              "n=%llu: the scenario completed without reaching allocation n",
              (unsigned long long)fail_at);

    if (ok && st->s) {
        const char *what = NULL;
        CHECK_MSG(sgrt_scene_check(st->s, &what) == SGRT_OK,
                  "n=%llu: final sgrt_scene_check: %s", (unsigned long long)fail_at,
                  what ? what : "?");
        snapshot fin;
        snapshot_take(st->s, st->h, (uint32_t)st->nh, &fin);
        if (!fail_at) {
            golden_final = fin;
            golden_members = membership(st);
            golden_collected = st->collected;
            golden_nupdates = st->nupdates;
            memcpy(golden_updates, st->updates, sizeof golden_updates);
            golden_total = fa.ta.calls;
            uint64_t sum = 0;
            for (int i = 0; i < nops; i++) {
                sum += st->step_allocs[i];
                golden_prefix[i] = sum;
            }
        } else {
            /* Ids differ between runs (they are scrambled per scene). */
            const char *diff = snapshot_diff_ex(&golden_final, &fin, true);
            CHECK_MSG(diff == NULL,
                      "n=%llu: final state differs from the run without failure: %s",
                      (unsigned long long)fail_at, diff);
            CHECK_MSG(membership(st) == golden_members,
                      "n=%llu: node set membership differs from the run without failure",
                      (unsigned long long)fail_at);
            CHECK_MSG(st->collected == golden_collected,
                      "n=%llu: trackers reported other slots than in the run without failure",
                      (unsigned long long)fail_at);
            if (st->nupdates != golden_nupdates ||
                memcmp(st->updates, golden_updates, (size_t)st->nupdates * sizeof(uint32_t)))
                FAIL("n=%llu: update counts differ from the run without failure",
                     (unsigned long long)fail_at);
            snapshot_free(&fin);
        }
    }
    sgrt_scene_destroy(st->s);
    st->s = NULL;
    CHECK_MSG(fa.ta.live_blocks == 0,
              "n=%llu: %llu block(s) still allocated after sgrt_scene_destroy",
              (unsigned long long)fail_at, (unsigned long long)fa.ta.live_blocks);
    CHECK_MSG(fa.ta.contract_errors == 0,
              "n=%llu: %llu allocator contract error(s), last: %s", (unsigned long long)fail_at,
              (unsigned long long)fa.ta.contract_errors, fa.ta.last_error);
    test_alloc_release(&fa.ta);
    return ok;
}

static run_state state; /* large: static */

/* A relocating re-parent past the slot limit (lowered to the scene's
 * slot_end) with holes, whose relocation after closing them needs storage
 * the scene does not have: with the allocator failing, NOMEM, and no node
 * has moved (same slots, same storage version, same observable state);
 * with it answering, the re-parent is made. */
static void reparent_near_the_limit(void)
{
    enum { K = 8, HOLES = 4 };
    test_alloc ta;
    memset(&ta, 0, sizeof ta);
    sgrt_scene *s = new_scene_alloc(&ta);
    sgrt__scene_set_hole_slack(s, 1u << 20); /* no reclaim on destroy */
    static sgrt_node n[4096];
    uint32_t count = 0;
    OK(sgrt_node_create(s, SGRT_NULL_NODE, &n[count++])); /* x, whose subtree moves */
    for (uint32_t i = 1; i < K; i++, count++)
        OK(sgrt_node_create(s, n[count - 1u], &n[count]));
    /* Roots up to one slot before the capacity, then the new parent in
     * the last slot. */
    while (s->slot_end + 1u < s->st.cap && count + 1u < 4096u)
        OK(sgrt_node_create(s, SGRT_NULL_NODE, &n[count++]));
    OK(sgrt_node_create(s, SGRT_NULL_NODE, &n[count++]));
    const sgrt_node x = n[0], p = n[count - 1u];
    CHECK_EQ_U(s->slot_end, s->st.cap);
    for (uint32_t i = 0; i < HOLES; i++)
        OK(sgrt_node_destroy(s, n[K + 2u * i]));
    CHECK_EQ_U(s->holes, HOLES);
    CHECK(slot_of(s, p) > slot_of(s, x)); /* the subtree must move after p */
    sgrt__scene_set_slot_limit(s, s->slot_end);
    CHECK_EQ_U(sgrt_scene_update(s), count - HOLES);

    uint32_t slots[4096];
    for (uint32_t i = 0; i < count; i++)
        slots[i] = sgrt_node_alive(s, n[i]) ? slot_of(s, n[i]) : UINT32_MAX;
    const uint64_t version = sgrt_scene_storage_version(s);
    snapshot before, after;
    snapshot_take(s, n, count, &before);
    ta.fail_from = ta.calls + 1u;
    CHECK_RES(sgrt_node_set_parent(s, x, p, SGRT_KEEP_LOCAL), SGRT_ERR_NOMEM);
    CHECK(ta.failures > 0);
    ta.fail_from = 0;
    uint32_t moved = 0;
    for (uint32_t i = 0; i < count; i++)
        moved += (sgrt_node_alive(s, n[i]) ? slot_of(s, n[i]) : UINT32_MAX) != slots[i];
    CHECK_MSG(moved == 0, "a failed re-parent near the slot limit moved %u nodes", moved);
    CHECK(sgrt_scene_storage_version(s) == version);
    snapshot_take(s, n, count, &after);
    const char *diff = snapshot_diff(&before, &after);
    CHECK_MSG(diff == NULL, "a failed re-parent changed the scene: %s", diff ? diff : "");
    check_scene(s);
    CHECK_EQ_U(sgrt_scene_update(s), 0);
    /* Answered: made, the holes closed (the subtree's old slots are the
     * holes now). */
    OK(sgrt_node_set_parent(s, x, p, SGRT_KEEP_LOCAL));
    sgrt_node got;
    OK(sgrt_node_parent(s, x, &got));
    CHECK(got.id == p.id);
    CHECK_EQ_U(s->holes, K);
    check_scene(s);
    snapshot_free(&before);
    snapshot_free(&after);
    end_scene_alloc(s, &ta);
}

int main(void)
{
    build_script();
    if (!run(0, false, &state) || test_failures) {
        fprintf(stderr, "test_faults: the scenario fails without any injected failure\n");
        return 1;
    }
    uint32_t per_kind[OP_KIND_COUNT] = {0};
    for (int i = 0; i < nops; i++)
        per_kind[ops[i].kind] += (uint32_t)state.step_allocs[i];
    printf("scenario: %d calls, %d nodes created, %llu allocations\n", nops, state.nh,
           (unsigned long long)golden_total);

    /* Every call documented to allocate must have met each fault. */
    static const op_kind allocating[] = {OP_SCENE_CREATE, OP_RESERVE,          OP_CREATE,
                                         OP_SET_PARENT,   OP_COMPACT,          OP_TRACKER_CREATE,
                                         OP_NODESET_CREATE};
    /* Second sweep: each allocation in turn answered with a block aligned to
     * 16 bytes only (an allocator that ignores `align`). */
    for (int misalign = 1; misalign >= 0; misalign--) {
        memset(kind_hits, 0, sizeof kind_hits);
        nsites = 0;
        for (uint64_t n = 1; n <= golden_total; n++) {
            if (misalign && n <= MAX_CALLS && golden_align[n] <= 16u)
                continue; /* a 16-byte-aligned block honours it: nothing to refuse */
            const int before = test_failures;
            run(n, misalign != 0, &state);
            if (test_failures != before)
                fprintf(stderr, "  (while %s allocation %llu)\n",
                        misalign ? "misaligning" : "failing", (unsigned long long)n);
            if (test_failures > 20)
                break;
        }
        for (size_t i = 0; i < sizeof allocating / sizeof allocating[0]; i++)
            CHECK_MSG(kind_hits[allocating[i]] != 0, "no %s allocation reached %s",
                      misalign ? "misaligned" : "failed", op_names[allocating[i]]);
        if (misalign) {
            uint32_t total = 0;
            for (int k = 0; k < OP_KIND_COUNT; k++)
                total += kind_hits[k];
            printf("misaligned each of allocations 1..%llu in turn: %u asked for more than "
                   "16-byte alignment and were refused with SGRT_ERR_ALIGNMENT\n",
                   (unsigned long long)golden_total, (unsigned)total);
        }
    }
    printf("failed each of allocations 1..%llu in turn; by call:\n",
           (unsigned long long)golden_total);
    for (int k = 0; k < OP_KIND_COUNT; k++)
        if (kind_hits[k])
            printf("  %-22s %3u failures (%u allocations in the run without failure)\n",
                   op_names[k], (unsigned)kind_hits[k], (unsigned)per_kind[k]);
#if HAVE_BACKTRACE
    const uintptr_t base = (uintptr_t)&main;
    int ncalls = 0;
    for (int i = 0; i < nsites; i++) {
        bool seen = false;
        for (int j = 0; j < i; j++)
            seen |= sites[j].pc[0] == sites[i].pc[0];
        ncalls += !seen;
    }
    printf("%d distinct allocator call sites, %d call paths (caller / its caller, as offsets "
           "from main):\n",
           ncalls, nsites);
    for (int i = 0; i < nsites; i++)
        printf("  main%c%#llx / main%c%#llx  in %-22s first at n=%llu, %u failure(s)\n",
               sites[i].pc[0] >= base ? '+' : '-',
               (unsigned long long)(sites[i].pc[0] >= base ? sites[i].pc[0] - base
                                                           : base - sites[i].pc[0]),
               sites[i].pc[1] >= base ? '+' : '-',
               (unsigned long long)(sites[i].pc[1] >= base ? sites[i].pc[1] - base
                                                           : base - sites[i].pc[1]),
               op_names[sites[i].kind], (unsigned long long)sites[i].first_n,
               (unsigned)sites[i].hits);
#endif
    snapshot_free(&golden_final);
    reparent_near_the_limit();
    return test_report("test_faults");
}
