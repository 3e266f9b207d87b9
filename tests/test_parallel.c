/* SPDX-License-Identifier: MIT */
/* The parallel update against the serial one, bit for bit: two scenes built
 * and changed alike, one updated by sgrt_scene_update, the other by
 * sgrt_scene_update_parallel, must return the same counts, hold the same
 * world arrays and feed their trackers and node sets the same slots — on
 * random programs (creates, destroys, re-parents in both modes, single and
 * batch writes, compactions) over scene shapes that stress the split (one
 * big tree in depth-first and in level order, a long chain, many small
 * hierarchies), with executors that run tasks in order, in a random order on
 * one thread, and on a thread pool, with 1, 2, 3, 7 and 64 workers; skins
 * over nodes of every range, their palettes, normals and previous palettes
 * and their collects alike too (the tasks share a skin's bits: the thread
 * sanitizer stage runs this). The parallel update never allocates and
 * wakes no thread when nothing moved. */
#include "testutil.h"

/* ---- two scenes changed alike ------------------------------------------------- */

enum { MAXN = 12000, SKINS = 6, SKIN_JOINTS = 80 };

typedef struct pair {
    sgrt_scene *a, *b; /* a: serial update; b: parallel update */
    sgrt_tracker ta, tb;
    sgrt_nodeset sa, sb, ca, cb; /* a membership set, and its changed subset */
    sgrt_node na[MAXN], nb[MAXN];
    uint32_t n; /* handles ever created (some dead) */
    sgrt_skin ka[SKINS], kb[SKINS];
    uint32_t joints[SKINS];
} pair;

static test_alloc alloc_b;

static void pair_open(pair *p)
{
    memset(p, 0, sizeof *p);
    p->a = new_scene();
    p->b = new_scene_alloc(&alloc_b);
    OK(sgrt_tracker_create(p->a, &p->ta));
    OK(sgrt_tracker_create(p->b, &p->tb));
    OK(sgrt_nodeset_create(p->a, &p->sa));
    OK(sgrt_nodeset_create(p->b, &p->sb));
    OK(sgrt_nodeset_create(p->a, &p->ca));
    OK(sgrt_nodeset_create(p->b, &p->cb));
}

static void pair_close(pair *p)
{
    sgrt_scene_destroy(p->a);
    end_scene_alloc(p->b, &alloc_b);
}

static void create(pair *p, uint32_t parent_index)
{
    if (p->n >= MAXN)
        return;
    const bool root = parent_index == UINT32_MAX;
    sgrt_node pa = root ? SGRT_NULL_NODE : p->na[parent_index];
    sgrt_node pb = root ? SGRT_NULL_NODE : p->nb[parent_index];
    if (!root && !sgrt_node_alive(p->a, pa))
        return;
    OK(sgrt_node_create(p->a, pa, &p->na[p->n]));
    OK(sgrt_node_create(p->b, pb, &p->nb[p->n]));
    if (p->n % 5 == 0) {
        OK(sgrt_nodeset_add(p->a, p->sa, p->na[p->n]));
        OK(sgrt_nodeset_add(p->b, p->sb, p->nb[p->n]));
    }
    p->n++;
}

static void random_local(rng *r, float m[16])
{
    random_affine(r, m);
}

/* Move `count` random live nodes, alike; some through the batch writers. */
static void move_some(pair *p, rng *r, uint32_t count)
{
    enum { B = 64 };
    sgrt_node ba[B], bb[B];
    float m[B][16];
    uint32_t k = 0;
    for (uint32_t c = 0; c < count; c++) {
        const uint32_t i = pick_live(p->a, p->na, p->n, r);
        if (i == UINT32_MAX)
            return;
        random_local(r, m[k]);
        ba[k] = p->na[i];
        bb[k] = p->nb[i];
        if (rng_below(r, 2)) {
            OK(sgrt_node_set_local(p->a, ba[k], m[k]));
            OK(sgrt_node_set_local(p->b, bb[k], m[k]));
        } else if (++k == B) {
            OK(sgrt_nodes_set_local(p->a, k, ba, m[0], NULL));
            OK(sgrt_nodes_set_local(p->b, k, bb, m[0], NULL));
            k = 0;
        }
    }
    OK(sgrt_nodes_set_local(p->a, k, ba, m[0], NULL));
    OK(sgrt_nodes_set_local(p->b, k, bb, m[0], NULL));
}

static void restructure(pair *p, rng *r)
{
    const uint32_t i = pick_live(p->a, p->na, p->n, r);
    const uint32_t j = pick_live(p->a, p->na, p->n, r);
    if (i == UINT32_MAX)
        return;
    switch (rng_below(r, 4)) {
    case 0:
        create(p, i);
        break;
    case 1:
        if (sgrt_scene_node_count(p->a) > 200) {
            OK(sgrt_node_destroy(p->a, p->na[i]));
            OK(sgrt_node_destroy(p->b, p->nb[i]));
        }
        break;
    default: {
        const sgrt_keep keep = rng_below(r, 2) ? SGRT_KEEP_LOCAL : SGRT_KEEP_WORLD;
        const bool to_root = j == UINT32_MAX || rng_below(r, 8) == 0;
        const sgrt_result ra = sgrt_node_set_parent(p->a, p->na[i], to_root ? SGRT_NULL_NODE : p->na[j], keep);
        const sgrt_result rb = sgrt_node_set_parent(p->b, p->nb[i], to_root ? SGRT_NULL_NODE : p->nb[j], keep);
        CHECK_RES(rb, ra);
        break;
    }
    }
}

/* Skins over live nodes spread across the scene (a skeleton's joints
 * close together, some far), each mesh a node anywhere or world space. */
static void make_skins(pair *p, rng *r)
{
    for (uint32_t x = 0; x < SKINS; x++) {
        sgrt_node ja[SKIN_JOINTS], jb[SKIN_JOINTS];
        float binds[SKIN_JOINTS][16];
        const uint32_t base = rng_below(r, p->n);
        uint32_t n = 0;
        for (uint32_t q = 0; q < SKIN_JOINTS; q++) {
            const uint32_t i = q % 5u == 4u ? rng_below(r, p->n) : (base + q * 7u) % p->n;
            if (!sgrt_node_alive(p->a, p->na[i]))
                continue;
            ja[n] = p->na[i];
            jb[n] = p->nb[i];
            random_affine(r, binds[n++]);
        }
        const uint32_t m = pick_live(p->a, p->na, p->n, r);
        const bool world = x % 3u == 0u || m == UINT32_MAX;
        const uint32_t flags = x & 1u ? SGRT_SKIN_PREV | SGRT_SKIN_NORMALS : 0u;
        const sgrt_skin_desc da = {n, ja, binds[0], world ? SGRT_NULL_NODE : p->na[m], flags};
        const sgrt_skin_desc db = {n, jb, binds[0], world ? SGRT_NULL_NODE : p->nb[m], flags};
        p->joints[x] = n;
        if (!n)
            continue;
        OK(sgrt_skin_create(p->a, &da, &p->ka[x]));
        OK(sgrt_skin_create(p->b, &db, &p->kb[x]));
    }
}

/* The skins of both scenes alike, bit for bit, and their collects. */
static void compare_skins(pair *p, const char *what)
{
    uint32_t diff = 0;
    for (uint32_t x = 0; x < SKINS; x++) {
        if (!p->joints[x])
            continue;
        const size_t bytes = (size_t)p->joints[x] * 48u;
        diff += memcmp(sgrt_skin_palette(p->a, p->ka[x], NULL),
                       sgrt_skin_palette(p->b, p->kb[x], NULL), bytes) != 0;
        if (x & 1u) {
            diff += memcmp(sgrt_skin_normals(p->a, p->ka[x], NULL),
                           sgrt_skin_normals(p->b, p->kb[x], NULL), bytes) != 0;
            diff += memcmp(sgrt_skin_prev_palette(p->a, p->ka[x], NULL),
                           sgrt_skin_prev_palette(p->b, p->kb[x], NULL), bytes) != 0;
        }
        sgrt_range ra[SKIN_JOINTS], rb[SKIN_JOINTS];
        uint32_t na = 0, nb = 0;
        bool ma, mb;
        OK(sgrt_skin_collect(p->a, p->ka[x], ra, SKIN_JOINTS, 0, &na, &ma));
        OK(sgrt_skin_collect(p->b, p->kb[x], rb, SKIN_JOINTS, 0, &nb, &mb));
        diff += na != nb || ma || mb || memcmp(ra, rb, na * sizeof ra[0]) != 0;
    }
    CHECK_MSG(diff == 0, "%s: %u skin arrays or collects differ", what, diff);
}

/* Update both; compare counts, worlds, tracker ranges and node sets. */
static void update_and_compare(pair *p, const sgrt_executor *ex, const char *what)
{
    const uint64_t calls = alloc_b.calls;
    const uint32_t ca = sgrt_scene_update(p->a);
    const uint32_t cb = sgrt_scene_update_parallel(p->b, ex);
    CHECK_EQ_U(alloc_b.calls, calls); /* never allocates */
    CHECK_MSG(ca == cb, "%s: serial update recomputed %u, parallel %u", what, ca, cb);
    uint32_t na = 0, nb = 0;
    const float *wa = sgrt_scene_world_array(p->a, &na);
    const float *wb = sgrt_scene_world_array(p->b, &nb);
    CHECK_EQ_U(na, nb);
    uint32_t diff = 0;
    for (uint32_t sl = 0; sl < na && sl < nb; sl++)
        if (sgrt_scene_slot_node(p->a, sl).id &&
            memcmp(wa + 16u * sl, wb + 16u * sl, 16 * sizeof(float)) != 0)
            diff++;
    CHECK_MSG(diff == 0, "%s: %u world matrices differ", what, diff);
    sgrt_range ra[256], rb[256];
    for (;;) {
        bool ma, mb;
        const uint32_t ka = test_collect(p->a, p->ta, ra, 256, 3, &ma);
        const uint32_t kb = test_collect(p->b, p->tb, rb, 256, 3, &mb);
        CHECK(ka == kb && ma == mb);
        CHECK(ka != kb || memcmp(ra, rb, ka * sizeof ra[0]) == 0);
        if (!ma || ka != kb || ma != mb)
            break;
    }
    compare_skins(p, what);
    check_scene(p->b);
}

/* Changed members of the set, through a tracker, after the update: same
 * slots on both sides (checked before the tracker above drains them). */
static void compare_sets(pair *p)
{
    sgrt_tracker xa, xb;
    OK(sgrt_tracker_create(p->a, &xa));
    OK(sgrt_tracker_create(p->b, &xb));
    sgrt_range r[4];
    bool more;
    do
        test_collect(p->a, xa, r, 4, 0, &more);
    while (more);
    do
        test_collect(p->b, xb, r, 4, 0, &more);
    while (more);
    rng g = {77};
    move_some(p, &g, 30);
    const sgrt_executor serial = {NULL, NULL, 1};
    sgrt_scene_update(p->a);
    sgrt_scene_update_parallel(p->b, &serial);
    OK(sgrt_nodeset_from_changes(p->a, p->ca, xa, SGRT_SET_AND, p->sa, true));
    OK(sgrt_nodeset_from_changes(p->b, p->cb, xb, SGRT_SET_AND, p->sb, true));
    uint32_t wa = 0, wb = 0;
    const uint32_t *ba = sgrt_nodeset_words(p->a, p->ca, &wa);
    const uint32_t *bb = sgrt_nodeset_words(p->b, p->cb, &wb);
    CHECK(wa == wb && memcmp(ba, bb, wa * 4u) == 0);
    OK(sgrt_tracker_destroy(p->a, xa));
    OK(sgrt_tracker_destroy(p->b, xb));
}

/* ---- shapes --------------------------------------------------------------------- */

static void build_tree(pair *p, uint32_t n, bool level_order)
{
    /* 4-ary: level order creates node i under (i - 1) / 4; depth-first
     * creates each node's subtree right after it. */
    if (level_order) {
        for (uint32_t i = 0; i < n; i++)
            create(p, i == 0 ? UINT32_MAX : (i - 1u) / 4u);
        return;
    }
    uint32_t stack[64], depth = 0;
    create(p, UINT32_MAX);
    stack[depth++] = 0;
    uint32_t kids[64] = {0};
    while (p->n < n && depth) {
        if (kids[depth - 1] == 4 || depth == 8) {
            depth--;
            continue;
        }
        kids[depth - 1]++;
        const uint32_t me = p->n;
        create(p, stack[depth - 1]);
        kids[depth] = 0;
        stack[depth++] = me;
    }
}

static void build_chain(pair *p, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        create(p, i == 0 ? UINT32_MAX : i - 1u);
}

static void build_forest(pair *p, uint32_t groups, rng *r)
{
    create(p, UINT32_MAX); /* a static level root */
    for (uint32_t g = 0; g < groups; g++) {
        const uint32_t root = p->n;
        create(p, rng_below(r, 3) ? 0 : UINT32_MAX);
        const uint32_t size = 5u + rng_below(r, 30);
        for (uint32_t k = 1; k < size; k++)
            create(p, root + rng_below(r, k));
    }
}

/* ---- runs ------------------------------------------------------------------------- */

static void run_shape(int shape, const sgrt_executor *ex, uint64_t seed)
{
    pair p;
    pair_open(&p);
    rng r = {seed};
    switch (shape) {
    case 0: build_tree(&p, 5000, false); break;
    case 1: build_tree(&p, 5000, true); break;
    case 2: build_chain(&p, 3000); break;
    default: build_forest(&p, 300, &r); break;
    }
    char what[64];
    snprintf(what, sizeof what, "shape %d, %u workers", shape, ex->workers);
    make_skins(&p, &r);
    update_and_compare(&p, ex, what);
    for (int frame = 0; frame < 25; frame++) {
        const uint32_t live = sgrt_scene_node_count(p.a);
        switch (frame % 5) {
        case 0: move_some(&p, &r, live); break;        /* everything (with repeats) */
        case 1: move_some(&p, &r, live / 100 + 1); break; /* 1 % */
        case 2: break;                                 /* nothing */
        case 3:
            for (int k = 0; k < 6; k++)
                restructure(&p, &r);
            move_some(&p, &r, 20);
            break;
        default:
            if (frame % 10 == 4) {
                OK(sgrt_scene_compact(p.a));
                OK(sgrt_scene_compact(p.b));
            }
            move_some(&p, &r, live / 10);
            break;
        }
        update_and_compare(&p, ex, what);
    }
    compare_sets(&p);
    pair_close(&p);
}

/* Nothing moved: no task, no call of run. */
static void idle_frames(void)
{
    test_exec e;
    test_exec_start(&e, TEST_EXEC_IN_ORDER, 1, 1);
    const sgrt_executor ex = test_exec_executor(&e, 4);
    pair p;
    pair_open(&p);
    build_tree(&p, 5000, false);
    update_and_compare(&p, &ex, "first");
    const uint64_t runs = e.runs;
    for (int i = 0; i < 10; i++)
        CHECK_EQ_U(sgrt_scene_update_parallel(p.b, &ex), 0);
    CHECK_EQ_U(e.runs, runs);
    /* One moved leaf: the work fits one task, still no call. */
    rng r = {5};
    move_some(&p, &r, 1);
    update_and_compare(&p, &ex, "one leaf");
    CHECK_EQ_U(e.runs, runs);
    /* Everything moved: the executor runs. */
    move_some(&p, &r, 5000);
    update_and_compare(&p, &ex, "all");
    CHECK(e.runs > runs);
    CHECK(e.most_tasks <= TEST_EXEC_MAX_TASKS);
    test_exec_stop(&e);
    pair_close(&p);
    /* NULL executor, no run function, one worker: the serial update. */
    sgrt_scene *s = new_scene();
    sgrt_node n;
    OK(sgrt_node_create(s, SGRT_NULL_NODE, &n));
    CHECK_EQ_U(sgrt_scene_update_parallel(s, NULL), 1);
    const sgrt_executor no_run = {NULL, NULL, 8};
    OK(sgrt_node_set_local(s, n, (const float[16]){2, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}));
    CHECK_EQ_U(sgrt_scene_update_parallel(s, &no_run), 1);
    CHECK_EQ_U(sgrt_scene_update_parallel(NULL, &ex), 0);
    sgrt_scene_destroy(s);
}

int main(void)
{
    idle_frames();
    static const uint32_t workers[] = {1, 2, 3, 7, 64};
    uint64_t seed = 1;
    for (int mode = TEST_EXEC_IN_ORDER; mode <= TEST_EXEC_THREADS; mode++)
        for (size_t w = 0; w < sizeof workers / sizeof workers[0]; w++) {
            test_exec e;
            if (!test_exec_start(&e, (test_exec_mode)mode, seed,
                                 workers[w] < 4 ? workers[w] : 4)) {
                FAIL("cannot start a thread pool");
                continue;
            }
            const sgrt_executor ex = test_exec_executor(&e, workers[w]);
            for (int shape = 0; shape < 4; shape++)
                run_shape(shape, &ex, seed++);
            if (workers[w] > 1)
                CHECK(e.runs > 0 && e.tasks > e.runs);
            CHECK(e.most_tasks <= TEST_EXEC_MAX_TASKS);
            test_exec_stop(&e);
        }
    return test_report("parallel");
}
