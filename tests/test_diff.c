/* SPDX-License-Identifier: MIT */
/* Differential test: long random sequences of operations applied to the
 * library and to the double-precision reference model (refmodel.h) side by
 * side.
 *
 *   test_diff [ops [seed]]     defaults: 200000 ops, the seed printed below
 *
 * After every sgrt_scene_update:
 *   - its return value must equal the model's count of dirty nodes exactly;
 *   - every live node's world must match the model's double-precision world
 *     within (4*depth + 1) * u * A entrywise, u = 2^-24 and A the product of
 *     the absolute locals along the path: each float 4x4 product adds at most
 *     about 3-4 u of |parent| x |local| (three roundings of the sum, one of
 *     the product; fused multiply-adds only do better), and the error already
 *     in the parent is carried through |local|, so it grows linearly with the
 *     depth, relative to A rather than to the entry (entries may cancel);
 *   - sgrt_scene_check must pass.
 * Also, whenever sampled: sgrt_node_world_now is bit-identical to what the
 * following update stores, and within the model's tolerance now;
 * sgrt_node_world of a node that existed at the last update is that update's
 * value; a new node reports its parent's world as stored when it was
 * created.
 * Keep-world re-parents and sgrt_node_set_world are refused exactly when
 * the predicted local would miss the world beyond keep-world's tolerance.
 * Writers live across operations and follow the structure: created over
 * random live nodes (repeats allowed), a node's whole subtree, or those in
 * slot order without repeats (runs of consecutive slots); written through
 * set_local, set_trs (each entry the single call's matrix, bit for bit; a
 * write refused at an entry is the single calls before it) and in place
 * (begin, writes into storage, commit whole or in chunks; a non-finite
 * local committed is the identity to the update, which counts it), the
 * model taking the same locals (every committed entry marked); refused as
 * stale at their first dead entry after destroys, resolved again after
 * relocation and compaction; a writer of the other scene, a destroyed one
 * and commit ranges past the end are refused. After each write the entries'
 * exact worlds now are within the model's tolerance.
 * Boxes (the scene keeps subtree boxes): after every update a sample of
 * nodes' world boxes contain the exact box of their world and local box and
 * are valid exactly when the node has a box, and their subtree boxes are the
 * join of their descendants' world boxes; a cull now and then culls only
 * boxes outside a plane in exact arithmetic.
 * Trackers and node sets live and die among the operations too (writers
 * above): created, used (a set's members modelled by node id: members
 * follow their nodes through every move and leave with a destroyed node; a
 * tracker drained), destroyed, then used again through the destroyed
 * handle, which every call refuses and never reads; bursts of creates and
 * destroys push the table past its reserve of free indices, so that new
 * objects take the indices of destroyed ones while the old handles go on
 * being refused.
 * The whole sequence runs twice: in a plain scene, then in one created with
 * SGRT_SCENE_VALIDATE and a log. With the valid inputs used here validation
 * must change nothing: the same update counts, the same world bits after
 * every update and at every read (a digest of all of them must match), the
 * same results except sgrt_node_world's SGRT_ERR_PENDING exactly when the
 * read world differs from world_now; every refusal reported once through
 * the log (error entries = error results, and one per update that made
 * non-finite locals the identity) and no warning.
 * The first mismatch stops the run with the seed and the operation index,
 * which reproduce it.
 */
#include "internal.h" /* keep-world's tolerance check and the reference kernel */
#include "matrix.h"
#include "scene.h"
#include "lib/refmodel.h"
#include "testutil.h"
#include "boundsutil.h"

#define DEFAULT_OPS 200000UL
#define DEFAULT_SEED 0x5c3e9d0f2a61b874ULL

static uint64_t seed_used;
static unsigned long op_index;
static const char *op_name = "setup";
static bool validating; /* the second run: SGRT_SCENE_VALIDATE */
/* Error results seen and error entries the log received, PENDING apart
 * (the snapshots of tests/lib read worlds too); warnings. */
static unsigned long errors_returned, log_errors, log_warnings, log_pending;
static uint64_t digest; /* update counts and world bits, in order */

static void mix(const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        digest = (digest ^ b[i]) * 0x100000001B3ull;
}

static void count_log(void *user, const sgrt_log_entry *e)
{
    (void)user;
    if (e->code == SGRT_OK)
        log_warnings++;
    else if (e->code == SGRT_ERR_PENDING)
        log_pending++;
    else
        log_errors++;
}

static rng R; /* seeded with seed_used */

/* The harness's failure hook: the first failure ends the run. */
static void stop(void)
{
    fprintf(stderr, "test_diff: FAILED at op %lu (%s), seed 0x%016llx%s\n", op_index, op_name,
            (unsigned long long)seed_used, validating ? ", validation mode" : "");
    fprintf(stderr, "reproduce: test_diff %lu 0x%016llx\n", op_index + 1,
            (unsigned long long)seed_used);
    exit(test_report("test_diff"));
}

static void expect(sgrt_result got, sgrt_result want, const char *what)
{
    errors_returned += got != SGRT_OK && got != SGRT_ERR_PENDING;
    if (got != want)
        FAIL("%s returned %s, expected %s", what, sgrt_result_str(got), sgrt_result_str(want));
    else
        test_checks++;
}

/* ---- set_trs ----------------------------------------------------------------- */

/* The local set_trs must produce, T x R x S, from the very float inputs, in
 * double; each rotation entry is a few roundings of terms bounded by 1, times
 * the scale, so 8u * |scale| bounds the difference; translation and the last
 * row are copied exactly. */
static void check_trs(const float t[3], const float q[4], const float s[3], const float got[16])
{
    double r[9];
    quat_rotation(q[0], q[1], q[2], q[3], r);
    for (int c = 0; c < 3; c++)
        for (int row = 0; row < 3; row++) {
            const double want = r[c * 3 + row] * s[c];
            const double err = fabs((double)got[c * 4 + row] - want);
            if (!(err <= 8.0 * REF_U * fabs((double)s[c])))
                FAIL("set_trs: local[%d] = %.9g, expected %.9g", c * 4 + row,
                     (double)got[c * 4 + row], want);
        }
    const float exact[7] = {0, 0, 0, t[0], t[1], t[2], 1};
    const int where[7] = {3, 7, 11, 12, 13, 14, 15};
    for (int i = 0; i < 7; i++)
        if (memcmp(&got[where[i]], &exact[i], sizeof(float)) != 0)
            FAIL("set_trs: local[%d] = %.9g, expected %.9g", where[i], (double)got[where[i]],
                 (double)exact[i]);
}

/* ---- state ----------------------------------------------------------------- */

static sgrt_scene *scene;
static sgrt_scene *other; /* a second scene whose handles are foreign here */
static ref_model *model;
static uint32_t *buf;     /* scratch for children / subtree ids */
static uint32_t buf_cap;

#define STALE_RING 512
static uint32_t stale[STALE_RING];
static uint32_t stale_n;

#define FOREIGN_N 64
static sgrt_node foreign[FOREIGN_N];

/* Nodes whose stored world is not the last update's, and the world they
 * must report until the next: nodes created since (their parent's stored
 * world then). */
#define NEW_MAX 4096
static struct {
    uint32_t id;
    float world[16];
} fresh[NEW_MAX];
static uint32_t fresh_n;
static bool fresh_overflow;

/* world_now samples taken since the last change: the next update must store
 * exactly these. */
#define SAMPLES 64
static struct {
    uint32_t id;
    float world[16];
} samples[SAMPLES];
static uint32_t samples_n;

/* The local box of each node that has one, by id (open addressing; an id
 * comes back only after its generation wraps, and then starts boxless). */
#define BOX_MAP 262144u
static struct box_entry {
    uint32_t id;
    bool has;
    float c[3], e[3];
} *boxes;

static struct box_entry *box_of(uint32_t id)
{
    uint32_t i = (id * 2654435761u) & (BOX_MAP - 1u);
    while (boxes[i].id && boxes[i].id != id)
        i = (i + 1u) & (BOX_MAP - 1u);
    boxes[i].id = id;
    return &boxes[i];
}

static uint32_t last_created;
static unsigned long stats_boxes_set, stats_boxes_checked, stats_subtrees_checked, stats_culls,
    stats_culled_checked;
static unsigned long stats_reset, stats_updates, stats_recomputed, stats_cycles, stats_stale, stats_compacts,
    stats_keep_world, stats_identical, stats_batches, stats_refused, stats_set_world;
static uint32_t stats_max_nodes, stats_max_depth;

static uint32_t live_count(void) { return ref_model_count(model); }
static sgrt_node random_live(void)
{
    sgrt_node n = {ref_model_nth(model, rng_below(&R, live_count()))};
    return n;
}

static void ensure_buf(uint32_t n)
{
    if (n <= buf_cap)
        return;
    buf_cap = n * 2;
    buf = realloc(buf, buf_cap * sizeof *buf);
    if (!buf) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
}

static void changed(void) { samples_n = 0; }

/* sgrt_node_world of a live node: OK, or in validation mode PENDING exactly
 * when the world read is not what the next update stores (world_now). */
static void world_read(sgrt_node n, float w[16], const char *what)
{
    const sgrt_result got = sgrt_node_world(scene, n, w);
    float now[16];
    sgrt_result want = SGRT_OK;
    if (validating) {
        expect(sgrt_node_world_now(scene, n, now), SGRT_OK, "sgrt_node_world_now");
        if (memcmp(now, w, sizeof now) != 0)
            want = SGRT_ERR_PENDING;
    }
    expect(got, want, what);
    mix(w, 16 * sizeof(float));
}

static const float *fresh_world(uint32_t id)
{
    for (uint32_t i = 0; i < fresh_n; i++)
        if (fresh[i].id == id)
            return fresh[i].world;
    return NULL;
}

/* The stored world of id is w until the next update. */
static void fresh_put(uint32_t id, const float w[16])
{
    for (uint32_t i = 0; i < fresh_n; i++)
        if (fresh[i].id == id) {
            memcpy(fresh[i].world, w, sizeof fresh[i].world);
            return;
        }
    if (fresh_n == NEW_MAX) {
        fresh_overflow = true;
        return;
    }
    fresh[fresh_n].id = id;
    memcpy(fresh[fresh_n].world, w, sizeof fresh[fresh_n].world);
    fresh_n++;
}

/* A local read back from the scene is the model's: the same bits, or, for
 * a local put in place that is not finite, the identity the model took for
 * it (the update makes it that). */
static bool local_is_models(const float *l, const float *ml)
{
    return memcmp(l, ml, 16 * sizeof(float)) == 0 ||
           (!sgrt__all_finite(l, 16) && memcmp(ml, IDENTITY, 16 * sizeof(float)) == 0);
}

/* ---- operations ------------------------------------------------------------ */

static void op_create(void)
{
    sgrt_node parent = SGRT_NULL_NODE;
    const uint32_t r = rng_below(&R, 10);
    if (live_count() && r >= 1) {
        if (r < 3 && last_created && ref_model_alive(model, last_created))
            parent.id = last_created; /* grows chains: depth */
        else
            parent = random_live();
    }
    float pw[16];
    if (parent.id) {
        const float *f = fresh_world(parent.id);
        if (f)
            memcpy(pw, f, sizeof pw);
        else
            world_read(parent, pw, "sgrt_node_world(parent)");
    } else {
        memcpy(pw, IDENTITY, sizeof pw);
    }
    sgrt_node n = SGRT_NULL_NODE;
    expect(sgrt_node_create(scene, parent, &n), SGRT_OK, "sgrt_node_create");
    if (n.id == 0u || ref_model_alive(model, n.id))
        FAIL("sgrt_node_create returned id 0x%08x (zero or already live)", (unsigned)n.id);
    ref_model_add(model, n.id, parent.id);
    box_of(n.id)->has = false;
    last_created = n.id;
    fresh_put(n.id, pw);
    float l[16];
    expect(sgrt_node_local(scene, n, l), SGRT_OK, "sgrt_node_local(new)");
    if (memcmp(l, IDENTITY, sizeof l) != 0)
        FAIL("new node 0x%08x: local is not the identity", (unsigned)n.id);
    changed();
}

static void op_destroy(void)
{
    sgrt_node n = random_live();
    /* big subtrees are destroyed too, but rarely, so the scene keeps its size */
    for (int t = 0; t < 8 && ref_model_subtree_size(model, n.id) > 16; t++)
        n = random_live();
    const uint32_t k = ref_model_subtree_size(model, n.id);
    ensure_buf(k);
    expect(sgrt_node_destroy(scene, n), SGRT_OK, "sgrt_node_destroy");
    ref_model_remove(model, n.id, buf);
    for (uint32_t i = 0; i < k; i++) {
        const sgrt_node h = {buf[i]};
        if (sgrt_node_alive(scene, h))
            FAIL("node 0x%08x alive after destroying its ancestor 0x%08x", (unsigned)h.id,
                 (unsigned)n.id);
        stale[stale_n++ % STALE_RING] = buf[i];
    }
    if (sgrt_scene_node_count(scene) != live_count())
        FAIL("node count %u after destroy, model %u", (unsigned)sgrt_scene_node_count(scene),
             (unsigned)live_count());
    changed();
}

/* A random node below x (or x itself). */
static uint32_t random_descendant(uint32_t x)
{
    uint32_t d = x;
    const uint32_t steps = rng_below(&R, 5);
    for (uint32_t s = 0; s < steps; s++) {
        const uint32_t nc = ref_model_child_count(model, d);
        if (!nc)
            break;
        ensure_buf(nc);
        ref_model_children(model, d, buf);
        d = buf[rng_below(&R, nc)];
    }
    return d;
}

/* Columns of the 3x3 part of moderate length and far from parallel (the
 * Hadamard ratio |det| / product of column lengths near 1), a moderate
 * translation and an affine last row: as tame as random_affine's output. */
static bool well_conditioned(const float l[16])
{
    double len[3];
    for (int c = 0; c < 3; c++) {
        len[c] = sqrt((double)l[c * 4] * l[c * 4] + (double)l[c * 4 + 1] * l[c * 4 + 1] +
                      (double)l[c * 4 + 2] * l[c * 4 + 2]);
        if (!(len[c] > 0.25 && len[c] < 4.0))
            return false;
    }
    const double det = (double)l[0] * ((double)l[5] * l[10] - (double)l[9] * l[6]) -
                       (double)l[4] * ((double)l[1] * l[10] - (double)l[9] * l[2]) +
                       (double)l[8] * ((double)l[1] * l[6] - (double)l[5] * l[2]);
    if (!(fabs(det) > 0.3 * len[0] * len[1] * len[2]))
        return false;
    for (int i = 12; i < 15; i++)
        if (!(fabs((double)l[i]) < 100.0))
            return false;
    return fabs((double)l[3]) < 1e-6 && fabs((double)l[7]) < 1e-6 && fabs((double)l[11]) < 1e-6 &&
           fabs((double)l[15] - 1.0) < 1e-6;
}

static void op_reparent(void)
{
    const sgrt_node n = random_live();
    const sgrt_keep keep = rng_below(&R, 2) ? SGRT_KEEP_WORLD : SGRT_KEEP_LOCAL;
    sgrt_node to = SGRT_NULL_NODE;
    const uint32_t r = rng_below(&R, 20);
    if (r == 0) {
        to.id = 0; /* to root */
    } else if (r <= 3) {
        to.id = random_descendant(n.id); /* a cycle, on purpose */
    } else if (r == 4) {
        to.id = ref_model_parent(model, n.id); /* the same parent */
    } else {
        to = random_live();
    }
    const bool cycle = to.id && ref_model_is_ancestor_or_self(model, n.id, to.id);
    /* Keep-world refuses a re-parent whose new local, multiplied back in
     * float, would move the world beyond its tolerance: predicted here from
     * the exact current worlds with the reference kernel (every kernel gives
     * the same bits). */
    bool ill_conditioned = false;
    if (!cycle && keep == SGRT_KEEP_WORLD && to.id && ref_model_parent(model, n.id) != to.id) {
        float w[16], pw[16], l[16], back[16];
        expect(sgrt_node_world_now(scene, n, w), SGRT_OK, "sgrt_node_world_now");
        expect(sgrt_node_world_now(scene, to, pw), SGRT_OK, "sgrt_node_world_now");
        if (sgrt__relative_local(pw, w, l)) {
            sgrt__kernels k;
            sgrt__kernels_init(&k, SGRT__LEVEL_SCALAR);
            k.mul(pw, l, back);
            ill_conditioned = !sgrt__world_kept(back, w);
        }
    }
    const sgrt_result res = sgrt_node_set_parent(scene, n, to, keep);
    if (cycle) {
        expect(res, SGRT_ERR_CYCLE, "sgrt_node_set_parent (cycle)");
        stats_cycles++;
        return;
    }
    if (ill_conditioned) {
        expect(res, SGRT_ERR_SINGULAR, "sgrt_node_set_parent (keep-world, ill-conditioned)");
        stats_refused++;
        return;
    }
    expect(res, SGRT_OK, "sgrt_node_set_parent");
    if (keep == SGRT_KEEP_LOCAL) {
        float before[16], after[16];
        ref_model_local(model, n.id, before);
        expect(sgrt_node_local(scene, n, after), SGRT_OK, "sgrt_node_local");
        if (!local_is_models(after, before))
            FAIL("keep-local re-parent of 0x%08x changed its local", (unsigned)n.id);
        ref_model_set_parent(model, n.id, to.id);
    } else {
        float l[16], ml[16];
        expect(sgrt_node_local(scene, n, l), SGRT_OK, "sgrt_node_local");
        ref_model_local(model, n.id, ml);
        if (local_is_models(l, ml)) /* under the same parent: untouched */
            memcpy(l, ml, sizeof l);
        const double e = ref_model_set_parent_keep_world(model, n.id, to.id, l);
        if (!(e <= 1.0))
            FAIL("keep-world re-parent of 0x%08x under 0x%08x moved the world: %.3g of the "
                 "allowance",
                 (unsigned)n.id, (unsigned)to.id, e);
        stats_keep_world++;
        if (!well_conditioned(l)) {
            /* Keep-world locals compensate for the parent's world, and
             * repeated, they drift towards huge, nearly singular matrices
             * whose float products are mostly rounding: the comparison would
             * stay valid (the tolerance scales with |A|) but say nothing. */
            random_affine(&R, l);
            expect(sgrt_node_set_local(scene, n, l), SGRT_OK, "sgrt_node_set_local");
            ref_model_set_local(model, n.id, l);
            stats_reset++;
        }
    }
    sgrt_node p;
    expect(sgrt_node_parent(scene, n, &p), SGRT_OK, "sgrt_node_parent");
    if (p.id != to.id)
        FAIL("parent of 0x%08x is 0x%08x after re-parenting under 0x%08x", (unsigned)n.id,
             (unsigned)p.id, (unsigned)to.id);
    changed();
}

/* set_world to a random affine target: refused (SINGULAR) exactly when the
 * keep-world local under the parent's exact current world, multiplied back
 * with the reference kernel, misses the target beyond the tolerance;
 * otherwise the local is inverse(parent world now) x m (m itself for a
 * root), the world now matches m within the tolerance, and the model takes
 * the local like any other. */
static void op_set_world(void)
{
    const sgrt_node n = random_live();
    float m[16], local[16];
    random_affine(&R, m);
    memcpy(local, m, sizeof local);
    const sgrt_node parent = {ref_model_parent(model, n.id)};
    bool refused = false;
    if (parent.id) {
        float pw[16], back[16];
        expect(sgrt_node_world_now(scene, parent, pw), SGRT_OK, "sgrt_node_world_now");
        refused = !sgrt__all_finite(pw, 16) || !sgrt__relative_local(pw, m, local);
        if (!refused) {
            sgrt__kernels k;
            sgrt__kernels_init(&k, SGRT__LEVEL_SCALAR);
            k.mul(pw, local, back);
            refused = !sgrt__world_kept(back, m);
        }
    }
    const sgrt_result res = sgrt_node_set_world(scene, n, m);
    if (refused) {
        expect(res, SGRT_ERR_SINGULAR, "sgrt_node_set_world (ill-conditioned parent)");
        stats_refused++;
        return;
    }
    expect(res, SGRT_OK, "sgrt_node_set_world");
    float got[16], now[16];
    expect(sgrt_node_local(scene, n, got), SGRT_OK, "sgrt_node_local");
    if (memcmp(got, local, sizeof got) != 0)
        FAIL("set_world of 0x%08x: the local is not inverse(parent world now) x m", (unsigned)n.id);
    expect(sgrt_node_world_now(scene, n, now), SGRT_OK, "sgrt_node_world_now");
    if (!sgrt__world_kept(now, m))
        FAIL("set_world of 0x%08x: the world now misses the target beyond the tolerance",
             (unsigned)n.id);
    stats_set_world++;
    if (!well_conditioned(local)) { /* as after keep-world: see op_reparent */
        random_affine(&R, local);
        expect(sgrt_node_set_local(scene, n, local), SGRT_OK, "sgrt_node_set_local");
        stats_reset++;
    }
    ref_model_set_local(model, n.id, local);
    changed();
}

/* One in four writes goes through a batch of 1..8 entries: the model takes
 * the entries in order, as the batch promises. */
enum { DIFF_BATCH = 8 };

static void op_set_local(void)
{
    const bool batch = rng_below(&R, 4) == 0;
    const uint32_t k = batch ? 1u + rng_below(&R, DIFF_BATCH) : 1u;
    sgrt_node n[DIFF_BATCH];
    float l[DIFF_BATCH][16];
    for (uint32_t i = 0; i < k; i++) {
        /* Repeats allowed: a node given twice ends with its last matrix. */
        n[i] = (i > 0 && rng_below(&R, 4) == 0) ? n[rng_below(&R, i)] : random_live();
        if (rng_below(&R, 8) == 0) {
            ref_model_local(model, n[i].id, l[i]); /* bit-identical: marks nothing */
            stats_identical++;
        } else {
            random_affine(&R, l[i]);
        }
    }
    if (batch) {
        stats_batches++;
        expect(sgrt_nodes_set_local(scene, k, n, l[0], NULL), SGRT_OK,
               "sgrt_nodes_set_local");
    } else {
        expect(sgrt_node_set_local(scene, n[0], l[0]), SGRT_OK, "sgrt_node_set_local");
    }
    for (uint32_t i = 0; i < k; i++)
        ref_model_set_local(model, n[i].id, l[i]);
    changed();
}

static void op_set_trs(void)
{
    const bool batch = rng_below(&R, 4) == 0;
    const uint32_t k = batch ? 1u + rng_below(&R, DIFF_BATCH) : 1u;
    sgrt_node n[DIFF_BATCH];
    float t[DIFF_BATCH][3], q[DIFF_BATCH][4], s[DIFF_BATCH][3];
    for (uint32_t i = 0; i < k; i++) {
        /* Distinct nodes, so that each entry's local can be read back. */
        bool repeat;
        do {
            n[i] = random_live();
            repeat = false;
            for (uint32_t j = 0; j < i; j++)
                repeat |= n[j].id == n[i].id;
        } while (repeat && live_count() > k);
        for (int c = 0; c < 3; c++) {
            t[i][c] = (float)rng_range(&R, -20, 20);
            s[i][c] = (float)(rng_range(&R, 0.5, 2) * (rng_below(&R, 10) == 0 ? -1 : 1));
        }
        random_unit_quat(&R, q[i]);
    }
    if (batch) {
        stats_batches++;
        expect(sgrt_nodes_set_trs(scene, k, n, t[0], q[0],
                                  s[0], NULL),
               SGRT_OK, "sgrt_nodes_set_trs");
    } else {
        expect(sgrt_node_set_trs(scene, n[0], t[0], q[0], s[0]), SGRT_OK, "sgrt_node_set_trs");
    }
    for (uint32_t i = 0; i < k; i++) {
        float l[16];
        expect(sgrt_node_local(scene, n[i], l), SGRT_OK, "sgrt_node_local");
        bool last = true;
        for (uint32_t j = i + 1; j < k; j++)
            last &= n[j].id != n[i].id;
        if (last)
            check_trs(t[i], q[i], s[i], l);
        ref_model_set_local(model, n[i].id, l);
    }
    changed();
}

static void op_world(void)
{
    const sgrt_node n = random_live();
    float w[16];
    world_read(n, w, "sgrt_node_world");
    const float *f = fresh_world(n.id);
    if (f) {
        if (memcmp(f, w, sizeof w) != 0)
            FAIL("node 0x%08x: world is not the one stored since the last update (a new "
                 "node's parent's world, or its world computed in a write)",
                 (unsigned)n.id);
        return;
    }
    if (fresh_overflow)
        return; /* can't tell new from old */
    /* as of the last update, whatever happened since */
    const double e = ref_model_world_error(model, n.id, w);
    const double tol = ref_model_world_tolerance(model, n.id);
    if (!(e <= tol))
        FAIL("sgrt_node_world(0x%08x) off by %.3g units (tolerance %.3g) from the last update",
             (unsigned)n.id, e, tol);
}

static void op_world_now(void)
{
    const sgrt_node n = random_live();
    float w[16];
    expect(sgrt_node_world_now(scene, n, w), SGRT_OK, "sgrt_node_world_now");
    const double e = ref_model_world_now_error(model, n.id, w);
    const double tol = ref_model_world_now_tolerance(model, n.id);
    if (!(e <= tol))
        FAIL("sgrt_node_world_now(0x%08x) off by %.3g units (tolerance %.3g)", (unsigned)n.id, e,
             tol);
    if (samples_n < SAMPLES) {
        samples[samples_n].id = n.id;
        memcpy(samples[samples_n].world, w, sizeof w);
        samples_n++;
    }
}

/* A destroyed, foreign or made-up handle in a random call: refused, and
 * (checked by the next update and structure pass) nothing changes. */
static void op_stale(void)
{
    sgrt_node h;
    const uint32_t r = rng_below(&R, 4);
    if (r == 0 || stale_n == 0)
        h.id = r == 0 ? 0u : (uint32_t)rng_next(&R);
    else if (r == 1)
        h = foreign[rng_below(&R, FOREIGN_N)];
    else
        h.id = stale[rng_below(&R, stale_n < STALE_RING ? stale_n : STALE_RING)];
    if (h.id && ref_model_alive(model, h.id))
        return; /* a made-up id that happens to be live */
    stats_stale++;
    const uint32_t count = sgrt_scene_node_count(scene);
    if (sgrt_node_alive(scene, h))
        FAIL("bad handle 0x%08x reported alive", (unsigned)h.id);
    float m[16], out[16];
    random_affine(&R, m);
    const float t[3] = {1, 2, 3}, q[4] = {0, 0, 0, 1}, sc[3] = {1, 1, 1};
    sgrt_node o;
    sgrt_result res;
    const char *what;
    const sgrt_node live = live_count() ? random_live() : SGRT_NULL_NODE;
    switch (rng_below(&R, h.id ? 12 : 9)) {
    case 0: what = "destroy"; res = sgrt_node_destroy(scene, h); break;
    case 1: what = "set_local"; res = sgrt_node_set_local(scene, h, m); break;
    case 2: what = "set_trs"; res = sgrt_node_set_trs(scene, h, t, q, sc); break;
    case 3: what = "local"; res = sgrt_node_local(scene, h, out); break;
    case 4: what = "world"; res = sgrt_node_world(scene, h, out); break;
    case 5: what = "world_now"; res = sgrt_node_world_now(scene, h, out); break;
    case 6: what = "parent"; res = sgrt_node_parent(scene, h, &o); break;
    case 7: what = "first_child"; res = sgrt_node_first_child(scene, h, &o); break;
    case 8: what = "set_parent(node)";
        res = sgrt_node_set_parent(scene, h, live, (sgrt_keep)rng_below(&R, 2)); break;
    case 9: what = "next_sibling"; res = sgrt_node_next_sibling(scene, h, &o); break;
    case 10: what = "create(parent)"; res = sgrt_node_create(scene, h, &o); break;
    default:
        if (!live.id)
            return;
        what = "set_parent(parent)";
        res = sgrt_node_set_parent(scene, live, h, (sgrt_keep)rng_below(&R, 2));
        break;
    }
    errors_returned += res != SGRT_OK;
    if (res != SGRT_ERR_STALE_HANDLE)
        FAIL("%s with bad handle 0x%08x returned %s", what, (unsigned)h.id, sgrt_result_str(res));
    if (sgrt_scene_node_count(scene) != count)
        FAIL("%s with bad handle 0x%08x changed the node count", what, (unsigned)h.id);
}

/* ---- writers --------------------------------------------------------------- */

/* Writers live across operations, so that they follow the structure: their
 * nodes move to other slots (relocation, compaction, reclamation: the
 * writer resolves them again) or die (every write refused, naming the first
 * dead entry). Entries: random live nodes (repeats allowed), a node's whole
 * subtree, and most often the same put in slot order without repeats, as a
 * skeleton's joints (runs of consecutive slots, marked a word at a time). */
enum { WRITERS = 4, WRITER_MAX = 48 };
static struct {
    sgrt_writer w; /* NULL: free */
    uint32_t count;
    uint32_t ids[WRITER_MAX];
} writers[WRITERS];
static sgrt_writer foreign_writer; /* of `other`: refused here */
static unsigned long stats_writers, stats_writer_writes, stats_writer_stale,
    stats_writer_refused, stats_commits, stats_identities, stats_repaired;

/* Nodes given a non-finite local in place since the last update (repeats
 * allowed): the update repairs those whose local is still not finite. */
#define NONFINITE_MAX 1024
static uint32_t nonfinite_ids[NONFINITE_MAX];
static uint32_t nonfinite_n;

static uint32_t writer_entries(uint32_t *ids)
{
    uint32_t count = 0;
    if (rng_below(&R, 4) == 0) {
        uint32_t root = random_live().id;
        for (int t = 0; t < 8 && ref_model_subtree_size(model, root) > WRITER_MAX; t++)
            root = random_live().id;
        const uint32_t other = rng_below(&R, WRITERS), at = rng_below(&R, WRITER_MAX);
        if (writers[other].w.id && at < writers[other].count &&
            ref_model_alive(model, writers[other].ids[at])) {
            /* Around another writer's entry: writes that overlap. */
            root = writers[other].ids[at];
            for (uint32_t up = rng_below(&R, 4); up && ref_model_parent(model, root); up--)
                root = ref_model_parent(model, root);
        } else if (rng_below(&R, 2)) { /* a whole hierarchy, from its root */
            uint32_t top = root;
            while (ref_model_parent(model, top))
                top = ref_model_parent(model, top);
            if (ref_model_subtree_size(model, top) <= WRITER_MAX)
                root = top;
        }
        if (ref_model_subtree_size(model, root) > WRITER_MAX)
            root = random_descendant(root); /* may still be too big: then its root alone */
        ids[count++] = root;
        if (ref_model_subtree_size(model, root) <= WRITER_MAX)
            for (uint32_t head = 0; head < count; head++) /* breadth first */
                count += ref_model_children(model, ids[head], ids + count);
    } else {
        count = 1u + rng_below(&R, rng_below(&R, 2) ? 8u : WRITER_MAX);
        for (uint32_t i = 0; i < count; i++)
            ids[i] = i > 0 && rng_below(&R, 6) == 0 ? ids[rng_below(&R, i)] : random_live().id;
    }
    if (rng_below(&R, 3) != 0)
        count = ids_by_slot(scene, ids, count);
    return count;
}

static void writer_create(uint32_t k)
{
    sgrt_node nodes[WRITER_MAX];
    writers[k].count = writer_entries(writers[k].ids);
    for (uint32_t i = 0; i < writers[k].count; i++)
        nodes[i].id = writers[k].ids[i];
    expect(sgrt_writer_create(scene, writers[k].count, nodes, 0, &writers[k].w), SGRT_OK,
           "sgrt_writer_create");
    stats_writers++;
}

/* ---- object lifetimes ---------------------------------------------------------- */

enum { OBJ_SLOTS = 6, SET_MEMBERS = 48, DEAD_MAX = 64, KIND_TRACKER = 0, KIND_SET, KIND_WRITER };

/* A live tracker or node set, and the members a set was given (node ids). */
typedef struct live_obj {
    uint32_t id; /* 0: none */
    bool set;
    uint32_t members[SET_MEMBERS];
    uint32_t member_n;
} live_obj;

static live_obj objs[OBJ_SLOTS];
/* Handles destroyed in this run (a ring), each refused forever after. */
static struct {
    uint32_t id, kind;
} dead[DEAD_MAX];
static uint32_t dead_n, dead_next;
static unsigned long stats_obj_created, stats_dead_refused, stats_reused_refused;

static void dead_put(uint32_t id, uint32_t kind)
{
    dead[dead_next].id = id;
    dead[dead_next].kind = kind;
    dead_next = (dead_next + 1u) % DEAD_MAX;
    if (dead_n < DEAD_MAX)
        dead_n++;
}

static void writer_destroy(uint32_t k)
{
    expect(sgrt_writer_destroy(scene, writers[k].w), SGRT_OK, "sgrt_writer_destroy");
    /* Looked up among the scene's writers before it is read: refused. */
    if (rng_below(&R, 4) == 0)
        expect(sgrt_writer_destroy(scene, writers[k].w), SGRT_ERR_INVALID_ARG,
               "sgrt_writer_destroy (destroyed)");
    dead_put(writers[k].w.id, KIND_WRITER);
    writers[k].w = SGRT_NULL_WRITER;
}

static void obj_create(uint32_t k)
{
    live_obj *o = &objs[k];
    o->set = rng_below(&R, 2) != 0;
    o->member_n = 0;
    if (o->set) {
        sgrt_nodeset set;
        expect(sgrt_nodeset_create(scene, &set), SGRT_OK, "sgrt_nodeset_create");
        o->id = set.id;
    } else {
        sgrt_tracker t;
        expect(sgrt_tracker_create(scene, &t), SGRT_OK, "sgrt_tracker_create");
        o->id = t.id;
    }
    stats_obj_created++;
}

static void obj_destroy(uint32_t k)
{
    live_obj *o = &objs[k];
    if (o->set)
        expect(sgrt_nodeset_destroy(scene, (sgrt_nodeset){o->id}), SGRT_OK,
               "sgrt_nodeset_destroy");
    else
        expect(sgrt_tracker_destroy(scene, (sgrt_tracker){o->id}), SGRT_OK,
               "sgrt_tracker_destroy");
    dead_put(o->id, o->set ? KIND_SET : KIND_TRACKER);
    o->id = 0;
}

/* A set's members are the model's live nodes among those given to it, and
 * nothing else. */
static void set_verify(const live_obj *o)
{
    const sgrt_nodeset set = {o->id};
    uint32_t alive = 0;
    for (uint32_t i = 0; i < o->member_n; i++) {
        if (!ref_model_alive(model, o->members[i]))
            continue;
        alive++;
        if (!sgrt_nodeset_has(scene, set, (sgrt_node){o->members[i]}))
            FAIL("node set 0x%08x lost member 0x%08x", (unsigned)o->id,
                 (unsigned)o->members[i]);
    }
    const uint32_t count = sgrt_nodeset_count(scene, set);
    if (count != alive)
        FAIL("node set 0x%08x holds %u nodes, expected %u", (unsigned)o->id, (unsigned)count,
             (unsigned)alive);
    test_checks++;
}

static void obj_use(uint32_t k)
{
    live_obj *o = &objs[k];
    if (!o->set) {
        sgrt_range rg[8];
        uint32_t n;
        bool more;
        /* The slot count, from a call validation mode does not warn about
         * (the world array's does, while moves are pending). */
        sgrt_bounds_arrays ba;
        expect(sgrt_scene_bounds_arrays(scene, &ba), SGRT_OK, "sgrt_scene_bounds_arrays");
        const uint32_t slots = ba.slot_count;
        do {
            expect(sgrt_tracker_collect(scene, (sgrt_tracker){o->id}, rg, 8, 2, &n, &more),
                   SGRT_OK, "sgrt_tracker_collect");
            for (uint32_t i = 0; i < n; i++)
                if (rg[i].first + rg[i].count > slots)
                    FAIL("a collected range ends past the slot count");
        } while (more);
        return;
    }
    const sgrt_nodeset set = {o->id};
    set_verify(o);
    if (!live_count())
        return;
    const sgrt_node node = random_live();
    uint32_t at = o->member_n;
    for (uint32_t i = 0; i < o->member_n; i++)
        if (o->members[i] == node.id)
            at = i;
    if (at < o->member_n && rng_below(&R, 2)) {
        expect(sgrt_nodeset_remove(scene, set, node), SGRT_OK, "sgrt_nodeset_remove");
        o->members[at] = o->members[--o->member_n];
    } else if (at < o->member_n || o->member_n < SET_MEMBERS) {
        expect(sgrt_nodeset_add(scene, set, node), SGRT_OK, "sgrt_nodeset_add");
        if (at == o->member_n)
            o->members[o->member_n++] = node.id;
    }
    set_verify(o);
}

/* A destroyed handle in a call of its kind: refused (INVALID_ARG, the
 * answer of a refusal), nothing changed, the freed object never read. */
static void obj_use_dead(void)
{
    if (!dead_n)
        return;
    /* White-box: whether a live object holds a handle's index now. Half the
     * time such a handle is chosen when there is one. */
    uint32_t d = rng_below(&R, dead_n);
    bool reused = false;
    for (uint32_t i = 0, n = rng_below(&R, 2) ? dead_n : 1u; i < n && !reused; i++) {
        const uint32_t c = (d + i) % dead_n;
        const uint32_t index = (dead[c].id ^ scene->obj_salt) & SGRT__OBJ_INDEX_MASK;
        reused = index < scene->obj_used && scene->objs[index].ptr != NULL;
        if (reused)
            d = c;
    }
    const uint32_t id = dead[d].id;
    stats_reused_refused += reused;
    stats_dead_refused++;
    const uint32_t how = rng_below(&R, 3);
    if (dead[d].kind == KIND_TRACKER) {
        const sgrt_tracker t = {id};
        sgrt_range rg[2];
        uint32_t n = 9;
        bool more = true;
        if (how == 0)
            expect(sgrt_tracker_collect(scene, t, rg, 2, 0, &n, &more), SGRT_ERR_INVALID_ARG,
                   "sgrt_tracker_collect (destroyed)");
        else if (how == 1)
            expect(sgrt_tracker_check(scene, t, NULL), SGRT_ERR_INVALID_ARG,
                   "sgrt_tracker_check (destroyed)");
        else
            expect(sgrt_tracker_destroy(scene, t), SGRT_ERR_INVALID_ARG,
                   "sgrt_tracker_destroy (destroyed)");
        if (how == 0 && (n != 0 || more))
            FAIL("a refused collect wrote ranges");
    } else if (dead[d].kind == KIND_SET) {
        const sgrt_nodeset set = {id};
        if (how == 0 && live_count())
            expect(sgrt_nodeset_add(scene, set, random_live()), SGRT_ERR_INVALID_ARG,
                   "sgrt_nodeset_add (destroyed)");
        else if (how <= 1) {
            errors_returned++; /* an answer, reported as a refusal */
            if (sgrt_nodeset_count(scene, set) != 0)
                FAIL("sgrt_nodeset_count of a destroyed set is not 0");
        } else
            expect(sgrt_nodeset_destroy(scene, set), SGRT_ERR_INVALID_ARG,
                   "sgrt_nodeset_destroy (destroyed)");
    } else {
        const sgrt_writer w = {id};
        float m[16];
        memcpy(m, IDENTITY, sizeof m);
        if (how == 0)
            expect(sgrt_writer_set_local(scene, w, m, NULL), SGRT_ERR_INVALID_ARG,
                   "sgrt_writer_set_local (destroyed)");
        else if (how == 1)
            expect(sgrt_writer_commit(scene, w, 0, 1), SGRT_ERR_INVALID_ARG,
                   "sgrt_writer_commit (destroyed)");
        else
            expect(sgrt_writer_destroy(scene, w), SGRT_ERR_INVALID_ARG,
                   "sgrt_writer_destroy (destroyed)");
    }
}

/* One object operation: create (replacing), destroy, use, use a destroyed
 * handle, or a burst of 300 trackers created and destroyed, which leaves
 * more free indices than the reserve, so that the creates after it take
 * indices of destroyed objects. */
static void op_objects(void)
{
    const uint32_t k = rng_below(&R, OBJ_SLOTS), r = rng_below(&R, 32);
    if (r < 4 || !objs[k].id) {
        if (objs[k].id)
            obj_destroy(k);
        obj_create(k);
    } else if (r < 7) {
        obj_destroy(k);
    } else if (r < 15) {
        obj_use_dead();
    } else if (r == 15) {
        enum { BURST = 300 };
        sgrt_tracker t[BURST];
        for (int i = 0; i < BURST; i++)
            expect(sgrt_tracker_create(scene, &t[i]), SGRT_OK, "sgrt_tracker_create (burst)");
        for (int i = 0; i < BURST; i++) {
            expect(sgrt_tracker_destroy(scene, t[i]), SGRT_OK, "sgrt_tracker_destroy (burst)");
            if (i % 37 == 0)
                dead_put(t[i].id, KIND_TRACKER);
        }
        stats_obj_created += BURST;
    } else {
        obj_use(k);
    }
}

/* The first entry whose node is dead (count: none). */
static uint32_t writer_first_dead(uint32_t k)
{
    for (uint32_t i = 0; i < writers[k].count; i++)
        if (!ref_model_alive(model, writers[k].ids[i]))
            return i;
    return writers[k].count;
}

/* Calls that must refuse: a writer of the other scene in every call, a
 * commit range past the entries, NULL. Nothing changes (the next update's
 * count and worlds say so). */
static void writer_refusals(void)
{
    float m[16 * 2], *locals = NULL;
    const uint32_t *slots = NULL;
    uint32_t bad = 7u;
    random_affine(&R, m);
    memcpy(m + 16, m, 16 * sizeof(float));
    const float t[3] = {1, 2, 3}, q[4] = {0, 0, 0, 1}, sc[3] = {1, 1, 1};
    expect(sgrt_writer_set_local(scene, foreign_writer, m, &bad), SGRT_ERR_INVALID_ARG,
           "sgrt_writer_set_local (other scene's)");
    expect(sgrt_writer_set_trs(scene, foreign_writer, t, q, sc, &bad), SGRT_ERR_INVALID_ARG,
           "sgrt_writer_set_trs (other scene's)");
    expect(sgrt_writer_begin(scene, foreign_writer, &locals, &slots), SGRT_ERR_INVALID_ARG,
           "sgrt_writer_begin (other scene's)");
    expect(sgrt_writer_commit(scene, foreign_writer, 0, 1), SGRT_ERR_INVALID_ARG,
           "sgrt_writer_commit (other scene's)");
    expect(sgrt_writer_destroy(scene, foreign_writer), SGRT_ERR_INVALID_ARG,
           "sgrt_writer_destroy (other scene's)");
    expect(sgrt_writer_set_local(scene, SGRT_NULL_WRITER, m, &bad), SGRT_ERR_INVALID_ARG,
           "sgrt_writer_set_local (NULL)");
    expect(sgrt_writer_destroy(scene, SGRT_NULL_WRITER), SGRT_OK, "sgrt_writer_destroy (NULL)");
    if (bad != 7u || locals || slots)
        FAIL("a refused writer call wrote its outputs");
    for (uint32_t k = 0; k < WRITERS; k++) {
        if (!writers[k].w.id)
            continue;
        const uint32_t n = writers[k].count;
        expect(sgrt_writer_commit(scene, writers[k].w, n, 1), SGRT_ERR_INVALID_ARG,
               "sgrt_writer_commit (first = count)");
        expect(sgrt_writer_commit(scene, writers[k].w, 1u + rng_below(&R, n), n),
               SGRT_ERR_INVALID_ARG, "sgrt_writer_commit (past the end)");
        expect(sgrt_writer_commit(scene, writers[k].w, 1, UINT32_MAX), SGRT_ERR_INVALID_ARG,
               "sgrt_writer_commit (count wraps)");
    }
    stats_writer_refused++;
}

/* After a write of writer k: each distinct entry's local is the model's,
 * and its exact world now is within the model's tolerance. */
static void writer_after(uint32_t k)
{
    const uint32_t n = writers[k].count;
    for (uint32_t i = 0; i < n; i++) {
        const sgrt_node h = {writers[k].ids[i]};
        bool repeat = false;
        for (uint32_t j = 0; j < i; j++)
            repeat |= writers[k].ids[j] == h.id;
        if (repeat)
            continue;
        float l[16], ml[16], now[16];
        expect(sgrt_node_local(scene, h, l), SGRT_OK, "sgrt_node_local");
        ref_model_local(model, h.id, ml);
        if (!local_is_models(l, ml))
            FAIL("writer entry %u (0x%08x): the local differs from the model's", (unsigned)i,
                 (unsigned)h.id);
        expect(sgrt_node_world_now(scene, h, now), SGRT_OK, "sgrt_node_world_now");
        const double e = ref_model_world_now_error(model, h.id, now);
        const double tol = ref_model_world_now_tolerance(model, h.id);
        if (!(e <= tol))
            FAIL("writer entry %u (0x%08x): world_now off by %.3g units (tolerance %.3g)",
                 (unsigned)i, (unsigned)h.id, e, tol);
    }
}

/* set_local or set_trs through writer k: refused whole at the first dead
 * entry (STALE_HANDLE, nothing written); else the single calls in entry
 * order, up to the first non-finite input (INVALID_ARG, naming it). */
static void writer_write(uint32_t k, bool trs)
{
    const uint32_t n = writers[k].count, dead = writer_first_dead(k);
    static float m[WRITER_MAX][16];
    float t[WRITER_MAX][3], q[WRITER_MAX][4], s[WRITER_MAX][3];
    const uint32_t poison = rng_below(&R, 16) == 0 ? rng_below(&R, n) : n;
    for (uint32_t i = 0; i < n; i++) {
        if (trs) {
            for (int c = 0; c < 3; c++) {
                t[i][c] = (float)rng_range(&R, -20, 20);
                s[i][c] = (float)(rng_range(&R, 0.5, 2) * (rng_below(&R, 10) == 0 ? -1 : 1));
            }
            random_unit_quat(&R, q[i]);
            if (i == poison)
                t[i][rng_below(&R, 3)] = rng_below(&R, 2) ? NAN : INFINITY;
            sgrt__trs_to_mat4(t[i], q[i], s[i], m[i]);
        } else if (i == poison) {
            random_affine(&R, m[i]);
            m[i][rng_below(&R, 16)] = rng_below(&R, 2) ? -INFINITY : NAN;
        } else if (dead == n && rng_below(&R, 8) == 0) {
            ref_model_local(model, writers[k].ids[i], m[i]); /* bit-identical: marks nothing */
        } else {
            random_affine(&R, m[i]);
        }
    }
    uint32_t bad = UINT32_MAX;
    const sgrt_result rc = trs ? sgrt_writer_set_trs(scene, writers[k].w, t[0], q[0], s[0], &bad)
                               : sgrt_writer_set_local(scene, writers[k].w, m[0], &bad);
    const char *what = trs ? "sgrt_writer_set_trs" : "sgrt_writer_set_local";
    if (dead < n) {
        expect(rc, SGRT_ERR_STALE_HANDLE, what);
        if (bad != dead)
            FAIL("%s refused entry %u, expected %u", what, (unsigned)bad, (unsigned)dead);
        stats_writer_stale++;
        return;
    }
    if (poison < n) {
        expect(rc, SGRT_ERR_INVALID_ARG, what);
        if (bad != poison)
            FAIL("%s refused entry %u, expected %u", what, (unsigned)bad, (unsigned)poison);
        stats_writer_refused++;
    } else {
        expect(rc, SGRT_OK, what);
        if (bad != UINT32_MAX)
            FAIL("%s wrote *out_bad on success", what);
    }
    /* The single calls before the refused entry (all of them when none). */
    for (uint32_t i = 0; i < poison; i++)
        ref_model_set_local(model, writers[k].ids[i], m[i]);
    /* Each entry's last write is the single call's matrix, bit for bit,
     * and that is T x R x S. */
    for (uint32_t i = 0; trs && i < poison; i++) {
        bool last = true;
        for (uint32_t j = i + 1; j < poison; j++)
            last &= writers[k].ids[j] != writers[k].ids[i];
        float l[16];
        expect(sgrt_node_local(scene, (sgrt_node){writers[k].ids[i]}, l), SGRT_OK,
               "sgrt_node_local");
        if (last) {
            if (memcmp(l, m[i], sizeof l) != 0)
                FAIL("sgrt_writer_set_trs: entry %u differs from sgrt_node_set_trs's matrix",
                     (unsigned)i);
            check_trs(t[i], q[i], s[i], l);
        }
    }
    stats_writer_writes++;
    if (poison == n)
        writer_after(k);
    changed();
}

/* In place: begin, write some entries' locals straight into storage (now
 * and then a non-finite one), commit the whole list or chunk by chunk. A
 * committed entry is marked whatever its bits; commit only marks, and a
 * non-finite local is the identity to the update (the model takes the
 * identity; the update counts those still there). */
static void writer_in_place(uint32_t k)
{
    const uint32_t n = writers[k].count, dead = writer_first_dead(k);
    float *locals = NULL;
    const uint32_t *slots = NULL;
    const sgrt_result rb = sgrt_writer_begin(scene, writers[k].w, &locals, &slots);
    if (dead < n) {
        expect(rb, SGRT_ERR_STALE_HANDLE, "sgrt_writer_begin (an entry died)");
        stats_writer_stale++;
        return;
    }
    expect(rb, SGRT_OK, "sgrt_writer_begin");
    if (rb != SGRT_OK)
        return;
    for (uint32_t i = 0; i < n; i++)
        if (slots[i] != slot_of(scene, (sgrt_node){writers[k].ids[i]}))
            FAIL("sgrt_writer_begin: entry %u's slot is %u, the node's %u", (unsigned)i,
                 (unsigned)slots[i], (unsigned)slot_of(scene, (sgrt_node){writers[k].ids[i]}));
    const bool chunked = rng_below(&R, 2) == 0;
    for (uint32_t first = 0; first < n;) {
        const uint32_t c = chunked ? 1u + rng_below(&R, n - first) : n;
        for (uint32_t i = first; i < first + c; i++) {
            float *l = locals + 16u * slots[i];
            if (rng_below(&R, 4) != 0) /* else committed as it is */
                random_affine(&R, l);
            if (rng_below(&R, 64) == 0)
                l[rng_below(&R, 16)] = rng_below(&R, 2) ? INFINITY : NAN;
        }
        /* What each entry's node ends with: its slot's local, the identity
         * for a non-finite one. */
        bool identity = false;
        for (uint32_t i = first; i < first + c; i++) {
            float end[16];
            memcpy(end, locals + 16u * slots[i], sizeof end);
            if (!sgrt__all_finite(end, 16)) {
                memcpy(end, IDENTITY, sizeof end);
                identity = true;
                if (nonfinite_n < NONFINITE_MAX)
                    nonfinite_ids[nonfinite_n++] = writers[k].ids[i];
                else
                    FAIL("more non-finite locals in place than the test tracks (test bug)");
            }
            ref_model_commit_local(model, writers[k].ids[i], end);
        }
        stats_identities += identity;
        expect(sgrt_writer_commit(scene, writers[k].w, first, c), SGRT_OK, "sgrt_writer_commit");
        stats_commits++;
        first += c;
    }
    stats_writer_writes++;
    writer_after(k);
    changed();
}

/* One writer operation: create, destroy, refusals, or writes through live
 * writers (set_local, set_trs, in place), often several in a row as the
 * systems of a frame write one after another. A writer refused as stale is
 * often let go. */
static void op_writer(void)
{
    uint32_t k = rng_below(&R, WRITERS);
    const uint32_t r = rng_below(&R, 16);
    if (r < 2 || !writers[k].w.id) {
        if (writers[k].w.id)
            writer_destroy(k);
        writer_create(k);
        return;
    }
    if (r == 2) {
        writer_destroy(k);
        return;
    }
    if (r == 3) {
        writer_refusals();
        return;
    }
    for (int more = 0; more < 4 && writers[k].w.id; more++) {
        const unsigned long stale_before = stats_writer_stale;
        const uint32_t how = rng_below(&R, 12);
        if (how < 4)
            writer_write(k, false);
        else if (how < 7)
            writer_write(k, true);
        else
            writer_in_place(k);
        if (stats_writer_stale != stale_before && rng_below(&R, 2) == 0)
            writer_destroy(k);
        if (rng_below(&R, 3) != 0)
            break;
        k = rng_below(&R, WRITERS);
    }
}

/* ---- boxes ----------------------------------------------------------------- */

/* Give a random node a box, take one away, or set a few in a batch. */
static void op_bounds(void)
{
    const uint32_t r = rng_below(&R, 8);
    if (r == 0) {
        const sgrt_node n = random_live();
        expect(sgrt_node_clear_bounds(scene, n), SGRT_OK, "sgrt_node_clear_bounds");
        box_of(n.id)->has = false;
        return;
    }
    enum { K = 4 };
    const uint32_t k = r < 3 ? 1u + rng_below(&R, K) : 1u;
    sgrt_node n[K];
    float c[K][3], e[K][3];
    for (uint32_t i = 0; i < k; i++) {
        n[i] = random_live();
        for (int a = 0; a < 3; a++) {
            c[i][a] = (float)rng_range(&R, -3, 3);
            e[i][a] = rng_below(&R, 10) == 0 ? 0.0f : (float)rng_range(&R, 0, 2);
        }
    }
    if (k > 1)
        expect(sgrt_nodes_set_bounds(scene, k, n, c[0], e[0],
                                     NULL),
               SGRT_OK, "sgrt_nodes_set_bounds");
    else
        expect(sgrt_node_set_bounds(scene, n[0], c[0], e[0]), SGRT_OK, "sgrt_node_set_bounds");
    for (uint32_t i = 0; i < k; i++) {
        struct box_entry *b = box_of(n[i].id);
        b->has = true;
        memcpy(b->c, c[i], sizeof b->c);
        memcpy(b->e, e[i], sizeof b->e);
    }
    stats_boxes_set += k;
}

/* Join of the world boxes of id's subtree, through the model's links. */
static void join_model_subtree(uint32_t id, float lo[3], float hi[3])
{
    float l[3], h[3];
    expect(sgrt_node_world_bounds(scene, (sgrt_node){id}, l, h), SGRT_OK, "sgrt_node_world_bounds");
    for (int a = 0; a < 3; a++) {
        lo[a] = l[a] < lo[a] ? l[a] : lo[a];
        hi[a] = h[a] > hi[a] ? h[a] : hi[a];
    }
    const uint32_t nc = ref_model_child_count(model, id);
    uint32_t *kids = malloc((nc ? nc : 1u) * sizeof *kids);
    if (!kids) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    ref_model_children(model, id, kids);
    for (uint32_t i = 0; i < nc; i++)
        join_model_subtree(kids[i], lo, hi);
    free(kids);
}

/* After an update: a sample of world boxes against exact arithmetic, and of
 * subtree boxes against the join of their members. */
static void verify_boxes(void)
{
    const uint32_t n = live_count();
    for (uint32_t s = 0; s < 24 && n; s++) {
        const uint32_t id = ref_model_nth(model, rng_below(&R, n));
        const struct box_entry *b = box_of(id);
        float m[16], lo[3], hi[3];
        expect(sgrt_node_world(scene, (sgrt_node){id}, m), SGRT_OK, "sgrt_node_world");
        expect(sgrt_node_world_bounds(scene, (sgrt_node){id}, lo, hi), SGRT_OK,
               "sgrt_node_world_bounds");
        if (!b->has) {
            if (!(lo[0] > hi[0]))
                FAIL("node 0x%08x has no box but reads a world box", (unsigned)id);
            continue;
        }
        bool finite = finite3(lo) && finite3(hi);
        for (int i = 0; i < 16; i++)
            finite = finite && isfinite(m[i]);
        if (finite && !exact_box_contains(m, b->c, b->e, lo, hi))
            FAIL("world box of 0x%08x misses the exact box of its world", (unsigned)id);
        if (finite && !(box_slack(m, b->c, b->e, lo, hi) <= 1.0))
            FAIL("world box of 0x%08x exceeds the exact box by more than the bound", (unsigned)id);
        stats_boxes_checked++;
    }
    for (uint32_t s = 0; s < 4 && n; s++) {
        const uint32_t id = ref_model_nth(model, rng_below(&R, n));
        if (ref_model_subtree_size(model, id) > 512)
            continue;
        float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
        float sl[3], sh[3];
        join_model_subtree(id, lo, hi);
        expect(sgrt_node_subtree_bounds(scene, (sgrt_node){id}, sl, sh), SGRT_OK,
               "sgrt_node_subtree_bounds");
        for (int a = 0; a < 3; a++)
            if (!(sl[a] == lo[a] && sh[a] == hi[a]))
                FAIL("subtree box of 0x%08x is not the join of its members' boxes", (unsigned)id);
        stats_subtrees_checked++;
    }
}

/* A cull with random planes: each node the sample finds culled lies outside
 * one of them in exact arithmetic. */
/* The cull's output set, created on the first cull of each run's scene. */
static sgrt_nodeset cull_out;

static void op_cull(void)
{
    if (!cull_out.id)
        expect(sgrt_nodeset_create(scene, &cull_out), SGRT_OK, "sgrt_nodeset_create");
    const sgrt_nodeset out = cull_out;
    float planes[8][4];
    const uint32_t count = 1u + rng_below(&R, 8);
    for (uint32_t k = 0; k < count; k++) {
        for (int a = 0; a < 3; a++)
            planes[k][a] = (float)rng_range(&R, -1, 1);
        planes[k][3] = (float)rng_range(&R, -30, 30);
    }
    sgrt_cull_stats st;
    expect(sgrt_scene_cull(scene, planes[0], count, SGRT_NULL_NODESET, out, &st), SGRT_OK,
           "sgrt_scene_cull");
    stats_culls++;
    const uint32_t n = live_count();
    for (uint32_t s = 0; s < 64 && n; s++) {
        const sgrt_node h = {ref_model_nth(model, rng_below(&R, n))};
        float lo[3], hi[3];
        expect(sgrt_node_world_bounds(scene, h, lo, hi), SGRT_OK, "sgrt_node_world_bounds");
        if (lo[0] > hi[0] || sgrt_nodeset_has(scene, out, h) || !finite3(lo) || !finite3(hi))
            continue;
        bool outside = false;
        for (uint32_t k = 0; k < count; k++)
            outside |= exact_plane_sign(planes[k], lo, hi) < 0;
        if (!outside)
            FAIL("cull dropped 0x%08x, whose box meets every plane", (unsigned)h.id);
        stats_culled_checked++;
    }
}

static void op_update(bool all_now)
{
    /* world_now of everything (sometimes) or a few, to compare bit for bit
     * with what the update stores */
    const uint32_t n = live_count();
    float(*now)[16] = NULL;
    if (all_now && n) {
        now = malloc(n * sizeof *now);
        for (uint32_t k = 0; k < n; k++)
            expect(sgrt_node_world_now(scene, (sgrt_node){ref_model_nth(model, k)}, now[k]),
                   SGRT_OK, "sgrt_node_world_now");
    }
    for (int i = 0; i < 8 && n; i++)
        op_world_now();

    /* The locals put in place that are still not finite: the update makes
     * them the identity and counts them. */
    uint32_t repair = 0;
    for (uint32_t i = 0; i < nonfinite_n; i++) {
        bool seen = false;
        for (uint32_t j = 0; j < i && !seen; j++)
            seen = nonfinite_ids[j] == nonfinite_ids[i];
        float l[16];
        if (!seen && ref_model_alive(model, nonfinite_ids[i]) &&
            sgrt_node_local(scene, (sgrt_node){nonfinite_ids[i]}, l) == SGRT_OK &&
            !sgrt__all_finite(l, 16))
            repair++;
    }
    nonfinite_n = 0;
    const uint32_t want = ref_model_update(model);
    const uint32_t got = sgrt_scene_update(scene);
    if (sgrt_scene_nonfinite_locals(scene, NULL) != repair)
        FAIL("sgrt_scene_update made %u locals the identity, expected %u",
             (unsigned)sgrt_scene_nonfinite_locals(scene, NULL), (unsigned)repair);
    stats_repaired += repair;
    errors_returned += repair != 0; /* reported once, as an error entry */
    if (got != want)
        FAIL("sgrt_scene_update recomputed %u worlds, model says %u", (unsigned)got,
             (unsigned)want);
    stats_updates++;
    stats_recomputed += got;
    mix(&got, sizeof got);
    uint32_t slots;
    const float *wa = sgrt_scene_world_array(scene, &slots);
    for (uint32_t sl = 0; sl < slots; sl++)
        if (sgrt_scene_slot_node(scene, sl).id)
            mix(wa + 16u * sl, 16 * sizeof(float));

    uint32_t depth = 0;
    const char *diff = worlds_diff(scene, model, &depth);
    if (diff)
        FAIL("%s", diff);
    if (depth > stats_max_depth)
        stats_max_depth = depth;
    for (uint32_t k = 0; now && k < n; k++) {
        const uint32_t id = ref_model_nth(model, k);
        float w[16];
        expect(sgrt_node_world(scene, (sgrt_node){id}, w), SGRT_OK, "sgrt_node_world");
        if (memcmp(now[k], w, sizeof w) != 0)
            FAIL("node 0x%08x: world_now before the update differs from the stored world",
                 (unsigned)id);
    }
    free(now);
    for (uint32_t i = 0; i < samples_n; i++) {
        float w[16];
        if (!ref_model_alive(model, samples[i].id))
            FAIL("sample of a dead node (test bug)");
        expect(sgrt_node_world(scene, (sgrt_node){samples[i].id}, w), SGRT_OK, "sgrt_node_world");
        if (memcmp(samples[i].world, w, sizeof w) != 0)
            FAIL("node 0x%08x: world_now differs from the world the next update stored",
                 (unsigned)samples[i].id);
    }
    samples_n = 0;
    fresh_n = 0;
    fresh_overflow = false;
    verify_boxes();
    check_scene(scene);
    /* nothing is left to do */
    if (sgrt_scene_update(scene) != 0)
        FAIL("a second update right after the first recomputed something");
}

/* Compaction changes nothing observable (worlds, exact current worlds,
 * structure, locals), and the structure still matches the model. */
static void op_compact(void)
{
    const uint32_t n = live_count();
    sgrt_node *h = malloc((n ? n : 1) * sizeof *h);
    if (!h) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    for (uint32_t k = 0; k < n; k++)
        h[k].id = ref_model_nth(model, k);
    snapshot before;
    snapshot_take(scene, h, n, &before);
    expect(sgrt_scene_compact(scene), SGRT_OK, "sgrt_scene_compact");
    stats_compacts++;
    check_scene(scene);
    check_unchanged(scene, &before, h, "sgrt_scene_compact");
    snapshot_free(&before);
    free(h);
    check_structure(scene, model);
}

/* One whole run of `ops` operations from the seed, plain or validating;
 * returns its digest. Every piece of state starts afresh. */
static uint64_t run(unsigned long ops)
{
    R.s = seed_used;
    digest = 0xcbf29ce484222325ull;
    errors_returned = log_errors = log_warnings = log_pending = 0;
    stale_n = fresh_n = samples_n = last_created = 0;
    fresh_overflow = false;
    stats_reset = stats_updates = stats_recomputed = stats_cycles = stats_stale = stats_compacts =
        stats_keep_world = stats_identical = stats_batches = stats_refused = stats_set_world = 0;
    stats_max_nodes = stats_max_depth = 0;
    op_name = "setup";
    op_index = 0;
    stats_boxes_set = stats_boxes_checked = stats_subtrees_checked = stats_culls =
        stats_culled_checked = 0;
    stats_writers = stats_writer_writes = stats_writer_stale = stats_writer_refused =
        stats_commits = stats_identities = stats_repaired = 0;
        nonfinite_n = 0;
    memset(writers, 0, sizeof writers); /* the last run's were freed with its scene */
    memset(objs, 0, sizeof objs);       /* the same */
    dead_n = dead_next = 0;
    stats_obj_created = stats_dead_refused = stats_reused_refused = 0;
    const sgrt_scene_desc d = {
        .flags = (uint32_t)SGRT_SCENE_SUBTREE_BOUNDS |
                 (validating ? (uint32_t)SGRT_SCENE_VALIDATE : 0u),
        .log = count_log};
    expect(sgrt_scene_create(&d, &scene), SGRT_OK, "sgrt_scene_create");
    cull_out = SGRT_NULL_NODESET; /* the last run's was freed with its scene */
    free(boxes);
    boxes = calloc(BOX_MAP, sizeof *boxes);
    if (!boxes) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    expect(sgrt_scene_create(NULL, &other), SGRT_OK, "sgrt_scene_create(other)");
    for (int i = 0; i < FOREIGN_N; i++)
        expect(sgrt_node_create(other, i ? foreign[rng_below(&R, (uint32_t)i)] : SGRT_NULL_NODE,
                                &foreign[i]),
               SGRT_OK, "sgrt_node_create(other)");
    expect(sgrt_writer_create(other, FOREIGN_N, foreign, 0, &foreign_writer), SGRT_OK,
           "sgrt_writer_create(other)");
    model = ref_model_create();
    ensure_buf(1024);
    /* The scene's size drifts between phases: small, medium, a few thousand. */
    static const uint32_t targets[] = {300, 1500, 3000, 800};
    for (op_index = 0; op_index < ops; op_index++) {
        const uint32_t target = targets[(op_index / 25000u) % 4u];
        /* Odd phases reclaim holes as soon as they outnumber live nodes,
         * and reuse object-table indices as soon as one is free. */
        if (op_index % 25000u == 0) {
            const bool eager = (op_index / 25000u) % 2u != 0;
            sgrt__scene_set_hole_slack(scene, eager ? 0u : SGRT__HOLE_SLACK);
            sgrt__scene_set_object_reserve(scene, eager ? 0u : SGRT__OBJ_MIN_FREE);
        }
        const uint32_t n = live_count();
        if (n > stats_max_nodes)
            stats_max_nodes = n;
        uint32_t r = rng_below(&R, 1000);
        if (n == 0)
            r = 0;
        if (r < 250) {
            /* create or destroy, steering towards the target size */
            const uint32_t p_create = n < target ? 235 : 60;
            if (r < p_create || n == 0) {
                op_name = "create";
                op_create();
            } else {
                op_name = "destroy";
                op_destroy();
            }
        } else if (r < 400) {
            op_name = "set_parent";
            op_reparent();
        } else if (r < 560) {
            op_name = "set_local";
            op_set_local();
        } else if (r < 590) {
            op_name = "writer";
            op_writer();
        } else if (r < 610) {
            op_name = "set_world";
            op_set_world();
        } else if (r < 720) {
            op_name = "set_trs";
            op_set_trs();
        } else if (r < 790) {
            op_name = "world";
            op_world();
        } else if (r < 800) {
            op_name = "objects";
            op_objects();
        } else if (r < 880) {
            op_name = "world_now";
            op_world_now();
        } else if (r < 935) {
            op_name = "stale handle";
            op_stale();
        } else if (r < 947) {
            op_name = "bounds";
            op_bounds();
        } else if (r < 950) {
            op_name = "cull";
            op_cull();
        } else if (r < 999) {
            op_name = "update";
            op_update(rng_below(&R, 16) == 0);
        } else {
            op_name = "compact";
            op_compact();
        }
        if (op_index % 5000 == 4999) {
            op_name = "periodic check";
            check_scene(scene);
            check_structure(scene, model);
        }
    }
    op_name = "final update";
    /* The writers left are freed with the scene. */
    check_scene(scene);
    op_update(true);
    check_structure(scene, model);

    printf("test_diff: %s run passed: %lu updates (%lu worlds recomputed), %lu compactions, %lu "
           "refused cycles, %lu keep-world re-parents and %lu set_world (%lu locals reset, %lu refused as ill-conditioned), %lu identical set_local, %lu bad-handle "
           "calls, %lu batch writes; up to %u nodes, depth %u; digest 0x%016llx\n",
           validating ? "validating" : "plain", stats_updates, stats_recomputed, stats_compacts,
           stats_cycles, stats_keep_world, stats_set_world, stats_reset, stats_refused,
           stats_identical, stats_stale, stats_batches, (unsigned)stats_max_nodes,
           (unsigned)stats_max_depth, (unsigned long long)digest);
    printf("test_diff: boxes: %lu set, %lu world boxes and %lu subtree boxes checked, %lu culls "
           "(%lu culled boxes checked)\n",
           stats_boxes_set, stats_boxes_checked, stats_subtrees_checked, stats_culls,
           stats_culled_checked);
    printf("test_diff: writers: %lu created, %lu writes (%lu commits, %lu with a non-finite "
           "local in place, %lu repaired by updates), %lu refused as stale, %lu other "
           "refusals\n",
           stats_writers, stats_writer_writes, stats_commits, stats_identities, stats_repaired,
           stats_writer_stale, stats_writer_refused);
    printf("test_diff: objects: %lu trackers and node sets created, %lu calls through a "
           "destroyed handle refused (%lu of them while a new object held its table index)\n",
           stats_obj_created, stats_dead_refused, stats_reused_refused);
    CHECK(stats_batches > 0);
    CHECK(stats_writer_writes > 0);
    if (ops >= 20000)
        CHECK(stats_dead_refused > 0 && stats_reused_refused > 0);
    if (ops >= 20000) /* enough writer operations for each kind of outcome */
        CHECK(stats_writer_stale > 0 && stats_writer_refused > 0 && stats_identities > 0 &&
              stats_repaired > 0);
    CHECK(stats_set_world > 0);
    CHECK(stats_boxes_checked > 0 && stats_culled_checked > 0);
    if (validating) {
        CHECK_MSG(log_errors == errors_returned,
                  "validation mode: %lu error reports for %lu error results", log_errors,
                  errors_returned);
        CHECK_MSG(log_warnings == 0, "validation mode: %lu warnings, expected none",
                  log_warnings);
        CHECK(log_pending > 0);
    }
    expect(sgrt_writer_destroy(other, foreign_writer), SGRT_OK, "sgrt_writer_destroy(other)");
    ref_model_destroy(model);
    sgrt_scene_destroy(scene);
    sgrt_scene_destroy(other);
    return digest;
}

int main(int argc, char **argv)
{
    unsigned long ops = DEFAULT_OPS;
    seed_used = DEFAULT_SEED;
    if (argc > 1)
        ops = strtoul(argv[1], NULL, 0);
    if (argc > 2)
        seed_used = strtoull(argv[2], NULL, 0);
    test_on_failure = stop;
    printf("test_diff: %lu ops, seed 0x%016llx, kernel %s\n", ops, (unsigned long long)seed_used,
           sgrt_simd_name());
    const uint64_t plain = run(ops);
    validating = true;
    const uint64_t checked = run(ops);
    CHECK_MSG(plain == checked,
              "validation mode changed what the run saw: digest 0x%016llx, plain 0x%016llx",
              (unsigned long long)checked, (unsigned long long)plain);
    free(buf);
    free(boxes);
    return test_report("test_diff");
}
