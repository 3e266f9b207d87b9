/* SPDX-License-Identifier: MIT */
/* Snapshots: sgrt_scene_snapshot, sgrt_scene_restore, sgrt_scene_load.
 *
 *  - random programs (every kind of call, every flag set) snapshot at step
 *    k, run on to the end, restore, and replay steps k.. with the same
 *    draws: every result of the replay (return codes, handles created,
 *    update counts, worlds, boxes, anchors, hashes, log entries) equals the
 *    first run's, the scene after the restore is the one at step k byte for
 *    byte (its snapshot and its hash), both runs end against the double
 *    model (tests/lib/refmodel.h), and the objects stay true: a tracker
 *    reports exactly the slots whose node, world or liveness the restore
 *    changed (and previous world or world box), one that had changes
 *    pending keeps them, each tracker's mirror of the arrays stays exact,
 *    node sets hold live nodes only, writers work again;
 *  - load: the same slots and state in a scene of its own, the same bytes
 *    and hash, its handles its own; restore into another scene;
 *  - refusals: every argument, a buffer too small, every truncation, every
 *    corrupted byte, another version, other flags, forged buffers (right
 *    checksum, wrong contents), each with SGRT_ERR_SNAPSHOT (or the code
 *    of its argument), one log entry and the scene unchanged;
 *  - memory: a restore in place allocates nothing; growth that fails
 *    changes nothing; allocation failure at every point of a load leaks
 *    nothing. */
#include "internal.h" /* white-box: forged snapshots need the layout */
#include "snapshot.h"
#include "followers/bounds.h"
#include "testutil.h"
#include "lib/refmodel.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

static rng R = {0x5A4B5E7D9C3B2A11ull};

#define ALL_FLAGS                                                                      \
    (SGRT_SCENE_PREV_WORLD | SGRT_SCENE_BOUNDS | SGRT_SCENE_SUBTREE_BOUNDS |            \
     SGRT_SCENE_LARGE_WORLD | SGRT_SCENE_VALIDATE)

/* ---- buffers ------------------------------------------------------------------- */

typedef struct bytes {
    uint8_t *p;
    size_t n;
} bytes;

static bytes take(const sgrt_scene *s)
{
    bytes b = {NULL, 0};
    size_t n = 0;
    OK(sgrt_scene_snapshot_size(s, &n));
    b.p = malloc(n ? n : 1u);
    if (!b.p)
        abort();
    size_t written = 0;
    OK(sgrt_scene_snapshot(s, b.p, n, &written));
    CHECK_EQ_U(written, n);
    b.n = n;
    return b;
}

static bool same_bytes(bytes a, bytes b) { return a.n == b.n && memcmp(a.p, b.p, a.n) == 0; }

/* The checksum field (bytes 24..31) made right again after a forgery. */
static void reseal(uint8_t *p, size_t n)
{
    const uint64_t c = XXH3_64bits(p + 32, n - 32u);
    for (int i = 0; i < 8; i++)
        p[24 + i] = (uint8_t)(c >> (8 * i));
}

static uint32_t get32(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }
static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* ---- mirrors: what a renderer keeps of the arrays by collecting a tracker ---------- */

typedef struct mirror {
    uint32_t cap;
    float *world, *prev, *box; /* 16, 16 and 6 floats per slot */
    uint8_t *valid;
} mirror;

static void mirror_grow(mirror *m, uint32_t slots)
{
    if (slots <= m->cap)
        return;
    const uint32_t cap = slots * 2u;
    m->world = realloc(m->world, (size_t)cap * 64u);
    m->prev = realloc(m->prev, (size_t)cap * 64u);
    m->box = realloc(m->box, (size_t)cap * 24u);
    m->valid = realloc(m->valid, cap);
    if (!m->world || !m->prev || !m->box || !m->valid)
        abort();
    m->cap = cap;
}

static void mirror_free(mirror *m)
{
    free(m->world);
    free(m->prev);
    free(m->box);
    free(m->valid);
    memset(m, 0, sizeof *m);
}

/* What slot i shows a reader: its world, previous world and world box. */
static void slot_view(const sgrt_scene *s, uint32_t flags, uint32_t i, float world[16],
                      float prev[16], float box[6], uint8_t *valid)
{
    memcpy(world, sgrt_scene_world_array(s, NULL) + 16u * i, 64);
    memset(prev, 0, 64);
    memset(box, 0, 24);
    *valid = 0;
    if (flags & SGRT_SCENE_PREV_WORLD)
        memcpy(prev, sgrt_scene_prev_world_array(s, NULL) + 16u * i, 64);
    if (flags & SGRT_SCENE_BOUNDS) {
        sgrt_bounds_arrays a;
        OK(sgrt_scene_bounds_arrays(s, &a));
        for (int k = 0; k < 3; k++) {
            box[k] = a.min[k][i];
            box[3 + k] = a.max[k][i];
        }
        *valid = (uint8_t)((a.valid[i / 32u] >> (i % 32u)) & 1u);
    }
}

/* Drain t into m; `seen` (may be NULL, slot count words) gets the slots it
 * reported. Then every live slot of m must show what the scene shows. */
static void mirror_sync(mirror *m, const sgrt_scene *s, uint32_t flags, sgrt_tracker t,
                        uint8_t *seen, const char *where)
{
    uint32_t slots = 0;
    (void)sgrt_scene_world_array(s, &slots);
    mirror_grow(m, slots + 1u);
    sgrt_range r[16];
    bool more = true;
    while (more) {
        const uint32_t n = test_collect(s, t, r, 16, 0, &more);
        for (uint32_t k = 0; k < n; k++)
            for (uint32_t i = r[k].first; i < r[k].first + r[k].count; i++) {
                CHECK(i < slots);
                if (i >= slots)
                    continue;
                slot_view(s, flags, i, m->world + 16u * i, m->prev + 16u * i, m->box + 6u * i,
                          &m->valid[i]);
                if (seen)
                    seen[i] = 1;
            }
    }
    uint32_t stale = 0;
    for (uint32_t i = 0; i < slots; i++) {
        if (sgrt_scene_slot_node(s, i).id == 0)
            continue;
        float w[16], p[16], b[6];
        uint8_t v;
        slot_view(s, flags, i, w, p, b, &v);
        stale += memcmp(w, m->world + 16u * i, 64) != 0 || memcmp(p, m->prev + 16u * i, 64) != 0 ||
                 memcmp(b, m->box + 6u * i, 24) != 0 || v != m->valid[i];
    }
    CHECK_MSG(stale == 0, "%s: %u live slots of the tracker's mirror are stale", where, stale);
}

/* ---- random programs ------------------------------------------------------------ */

typedef struct prog {
    sgrt_scene *s;
    uint32_t flags;
    rng r;
    sgrt_node *h; /* every node created, dead ones kept */
    uint32_t n, cap;
    uint64_t *log;
    size_t logged, log_cap;
    test_log entries;
    sgrt_tracker t, t2; /* t drained at each update, t2 now and then */
    mirror m, m2;
    sgrt_nodeset set;
    sgrt_writer w;
    sgrt_node wn[6];
    test_exec ex;
} prog;

static void note(prog *p, uint64_t v)
{
    if (p->logged == p->log_cap) {
        p->log_cap = p->log_cap ? 2u * p->log_cap : 4096u;
        p->log = realloc(p->log, p->log_cap * sizeof *p->log);
        if (!p->log)
            abort();
    }
    p->log[p->logged++] = v;
}

static void note_floats(prog *p, const float *f, uint32_t n)
{
    uint64_t x = 0xcbf29ce484222325ull;
    for (uint32_t i = 0; i < n; i++)
        x = (x ^ float_bits(f[i])) * 0x100000001b3ull;
    note(p, x);
}

static sgrt_node any_node(prog *p)
{
    if (!p->n || rng_below(&p->r, 40) == 0)
        return SGRT_NULL_NODE;
    return p->h[p->n - 1u - rng_below(&p->r, p->n < 64u ? p->n : 64u)];
}

static void add_handle(prog *p, sgrt_node n)
{
    if (p->n == p->cap) {
        p->cap = p->cap ? 2u * p->cap : 256u;
        p->h = realloc(p->h, p->cap * sizeof *p->h);
        if (!p->h)
            abort();
    }
    p->h[p->n++] = n;
}

static void random_trs(rng *r, float t[3], float q[4], float sc[3])
{
    for (int k = 0; k < 3; k++) {
        t[k] = rng_float(r, -20.0f, 20.0f);
        sc[k] = rng_float(r, 0.5f, 2.0f);
    }
    random_unit_quat(r, q);
}

static void program_update(prog *p)
{
    uint32_t count;
    if (rng_below(&p->r, 3) == 0) {
        const sgrt_executor ex = test_exec_executor(&p->ex, 2u + rng_below(&p->r, 3));
        count = sgrt_scene_update_parallel(p->s, &ex);
    } else {
        count = sgrt_scene_update(p->s);
    }
    note(p, count);
    sgrt_node first;
    note(p, sgrt_scene_nonfinite_locals(p->s, &first));
    note(p, first.id);
    note(p, sgrt_scene_hash(p->s));
    mirror_sync(&p->m, p->s, p->flags, p->t, NULL, "after an update");
}

/* One call, drawn from p->r; every answer goes to the log. */
static void program_step(prog *p)
{
    sgrt_scene *s = p->s;
    rng *r = &p->r;
    const uint32_t op = rng_below(r, 100);
    const sgrt_node a = any_node(p), b = any_node(p);
    float m[16], t[3], q[4], sc[3];
    random_affine(r, m);
    random_trs(r, t, q, sc);
    sgrt_node out = SGRT_NULL_NODE;
    const uint32_t before = p->entries.count;
    if (op < 20) {
        if (sgrt_scene_node_count(s) < 300u) {
            const sgrt_result res = sgrt_node_create(s, rng_below(r, 8) ? a : SGRT_NULL_NODE, &out);
            note(p, (uint64_t)res << 32 | out.id);
            if (res == SGRT_OK)
                add_handle(p, out);
        }
    } else if (op < 25) {
        note(p, (uint64_t)sgrt_node_destroy(s, a));
    } else if (op < 40) {
        note(p, (uint64_t)sgrt_node_set_local(s, a, m));
    } else if (op < 47) {
        note(p, (uint64_t)sgrt_node_set_trs(s, a, t, q, sc));
    } else if (op < 53) {
        note(p, (uint64_t)sgrt_node_set_parent(s, a, rng_below(r, 5) ? b : SGRT_NULL_NODE,
                                               rng_below(r, 2) ? SGRT_KEEP_WORLD : SGRT_KEEP_LOCAL));
    } else if (op < 55) {
        note(p, (uint64_t)sgrt_node_set_world(s, a, m));
    } else if (op < 58) {
        const sgrt_node ns[2] = {a, b};
        float ms[32];
        memcpy(ms, m, 64);
        random_affine(r, ms + 16);
        uint32_t bad = 99;
        note(p, (uint64_t)sgrt_nodes_set_local(s, 2, ns, ms, &bad) << 8 | bad);
    } else if (op < 62) {
        float ls[6 * 16];
        for (int k = 0; k < 6; k++)
            random_affine(r, ls + 16 * k);
        uint32_t bad = 99;
        note(p, (uint64_t)sgrt_writer_set_local(s, p->w, ls, &bad) << 8 | bad);
    } else if (op < 64) {
        float *locals;
        const uint32_t *slots;
        const sgrt_result res = sgrt_writer_begin(s, p->w, &locals, &slots);
        note(p, (uint64_t)res);
        if (res == SGRT_OK) {
            memcpy(locals + 16u * slots[1], m, 64);
            note(p, (uint64_t)sgrt_writer_commit(s, p->w, 1, 1));
        }
    } else if (op < 67) {
        note(p, (uint64_t)sgrt_node_set_user(s, a, rng_next(r)));
    } else if (op < 72 && (p->flags & SGRT_SCENE_BOUNDS)) {
        const float half[3] = {sc[0], sc[1], sc[2]};
        note(p, (uint64_t)(rng_below(r, 5) ? sgrt_node_set_bounds(s, a, t, half)
                                           : sgrt_node_clear_bounds(s, a)));
    } else if (op < 73 && (p->flags & SGRT_SCENE_BOUNDS)) {
        float planes[6][4];
        OK(sgrt_frustum_planes(m, SGRT_CLIP_DEPTH_NEG_ONE_TO_ONE, planes));
        sgrt_cull_stats st;
        note(p, (uint64_t)sgrt_scene_cull(s, &planes[0][0], 6, SGRT_NULL_NODESET, p->set, &st));
        note(p, sgrt_nodeset_count(s, p->set));
    } else if (op < 76 && (p->flags & SGRT_SCENE_LARGE_WORLD)) {
        const double at[3] = {rng_range(r, -1e9, 1e9), rng_range(r, -1e6, 1e6), 0.5};
        note(p, (uint64_t)(rng_below(r, 3) ? sgrt_node_set_anchor(s, a, at)
                                           : sgrt_scene_set_origin(s, at)));
    } else if (op < 85) {
        program_update(p);
    } else if (op < 87) {
        /* Not the program's: the world array's warnings (validation mode,
         * moves pending) count the slots t2 reports, which a restore adds
         * to. */
        const uint32_t entries = p->entries.count;
        mirror_sync(&p->m2, s, p->flags, p->t2, NULL, "now and then");
        p->entries.count = entries;
    } else if (op < 88) {
        note(p, (uint64_t)(rng_below(r, 2) ? sgrt_scene_compact(s)
                                           : sgrt_scene_reserve(s, rng_below(r, 600))));
    } else if (op < 89) {
        note(p, (uint64_t)sgrt_nodeset_add(s, p->set, a));
    } else {
        float w[16] = {0};
        uint32_t slot = 0;
        uint64_t user = 0;
        note(p, (uint64_t)sgrt_node_world(s, a, w));
        note_floats(p, w, 16);
        memset(w, 0, sizeof w);
        note(p, (uint64_t)sgrt_node_world_now(s, a, w) << 32 | sgrt_node_alive(s, a));
        note_floats(p, w, 16);
        note(p, (uint64_t)sgrt_node_slot(s, a, &slot) << 32 | slot);
        note(p, (uint64_t)sgrt_node_user(s, a, &user) << 32 | sgrt_scene_node_count(s));
        note(p, user);
        note(p, sgrt_scene_slot_node(s, rng_below(r, 400)).id);
        if (p->flags & SGRT_SCENE_BOUNDS) {
            float lo[3] = {0}, hi[3] = {0};
            note(p, (uint64_t)sgrt_node_world_bounds(s, a, lo, hi));
            note_floats(p, lo, 3);
            note_floats(p, hi, 3);
        }
        if (p->flags & SGRT_SCENE_SUBTREE_BOUNDS) {
            float lo[3] = {0}, hi[3] = {0};
            note(p, (uint64_t)sgrt_node_subtree_bounds(s, a, lo, hi));
            note_floats(p, lo, 3);
            note_floats(p, hi, 3);
        }
        if (p->flags & SGRT_SCENE_LARGE_WORLD) {
            double d[16] = {0};
            note(p, (uint64_t)sgrt_node_world_double(s, a, d));
            uint64_t x = 0;
            for (int k = 0; k < 16; k++) {
                uint64_t u;
                memcpy(&u, &d[k], 8);
                x = x * 31u + u;
            }
            note(p, x);
        }
    }
    note(p, p->entries.count - before); /* log entries, warnings included */

}

static void prog_start(prog *p, uint32_t flags, uint64_t seed)
{
    memset(p, 0, sizeof *p);
    p->flags = flags;
    p->r.s = seed;
    const sgrt_scene_desc d = {.flags = flags, .log = test_log_record, .log_user = &p->entries};
    p->s = new_scene_desc(&d);
    OK(sgrt_tracker_create(p->s, &p->t));
    OK(sgrt_tracker_create(p->s, &p->t2));
    OK(sgrt_nodeset_create(p->s, &p->set));
    for (uint32_t i = 0; i < 6; i++) {
        OK(sgrt_node_create(p->s, i ? p->wn[i - 1] : SGRT_NULL_NODE, &p->wn[i]));
        add_handle(p, p->wn[i]);
    }
    OK(sgrt_writer_create(p->s, 6, p->wn, 0, &p->w));
    if (!test_exec_start(&p->ex, TEST_EXEC_SHUFFLED, seed, 1)) {
        fprintf(stderr, "cannot start an executor\n");
        exit(1);
    }
}

static void prog_end(prog *p)
{
    test_exec_stop(&p->ex);
    sgrt_scene_destroy(p->s);
    mirror_free(&p->m);
    mirror_free(&p->m2);
    free(p->h);
    free(p->log);
}

/* The scene against the double model: built from the scene's structure
 * and locals, both updated, every world within the model's bound. Not for
 * large worlds (the model knows no anchors). */
static void check_model(prog *p, const char *where)
{
    if (p->flags & SGRT_SCENE_LARGE_WORLD)
        return;
    ref_model *model = ref_model_create();
    uint32_t slots = 0;
    (void)sgrt_scene_world_array(p->s, &slots);
    for (uint32_t i = 0; i < slots; i++) { /* parents before children */
        const sgrt_node n = sgrt_scene_slot_node(p->s, i);
        sgrt_node parent;
        float l[16];
        if (!n.id)
            continue;
        OK(sgrt_node_parent(p->s, n, &parent));
        OK(sgrt_node_local(p->s, n, l));
        ref_model_add(model, n.id, parent.id);
        ref_model_set_local(model, n.id, l);
    }
    ref_model_update(model);
    (void)sgrt_scene_update(p->s);
    check_structure(p->s, model);
    const char *diff = worlds_diff(p->s, model, NULL);
    CHECK_MSG(diff == NULL, "%s: %s", where, diff ? diff : "");
    ref_model_destroy(model);
}

/* Before a restore: what every live slot shows, to find what it changes. */
typedef struct shown {
    uint32_t slots;
    uint32_t *id;
    float *view; /* 16 + 16 + 6 floats per slot */
    uint8_t *valid;
} shown;

static void show(const sgrt_scene *s, uint32_t flags, shown *o)
{
    (void)sgrt_scene_world_array(s, &o->slots);
    o->id = calloc(o->slots + 1u, sizeof *o->id);
    o->view = calloc(o->slots + 1u, 38u * sizeof(float));
    o->valid = calloc(o->slots + 1u, 1);
    if (!o->id || !o->view || !o->valid)
        abort();
    for (uint32_t i = 0; i < o->slots; i++) {
        o->id[i] = sgrt_scene_slot_node(s, i).id;
        if (o->id[i])
            slot_view(s, flags, i, o->view + 38u * i, o->view + 38u * i + 16u,
                      o->view + 38u * i + 32u, &o->valid[i]);
    }
}

static void shown_free(shown *o)
{
    free(o->id);
    free(o->view);
    free(o->valid);
}

/* Exactly the slots whose node, world or liveness (previous world, world
 * box) the restore changed, and no other, are reported. */
static void check_reported(const sgrt_scene *s, uint32_t flags, const shown *was,
                           const uint8_t *seen)
{
    uint32_t slots = 0, wrong = 0, first = UINT32_MAX;
    (void)sgrt_scene_world_array(s, &slots);
    for (uint32_t i = 0; i < slots; i++) {
        const uint32_t id = sgrt_scene_slot_node(s, i).id, old = i < was->slots ? was->id[i] : 0u;
        bool changed = (id != 0) != (old != 0) || id != old;
        if (id && old && id == old) {
            float v[38];
            uint8_t valid;
            slot_view(s, flags, i, v, v + 16, v + 32, &valid);
            changed = memcmp(v, was->view + 38u * i, sizeof v) != 0 || valid != was->valid[i];
        }
        if (changed != (seen[i] != 0)) {
            wrong++;
            if (first == UINT32_MAX)
                first = i;
        }
    }
    CHECK_MSG(wrong == 0, "restore: %u slots reported wrongly (first %u)", wrong, first);
}

/* ---- a fixed scene with every flag --------------------------------------------------- */

/* 60 nodes in a few trees, boxes, anchors, an origin, user values, a
 * hole, an update, then pending moves: every part of a snapshot in use. */
static sgrt_scene *full_scene(const sgrt_scene_desc *base, sgrt_node *h)
{
    sgrt_scene_desc d = base ? *base : (sgrt_scene_desc){0};
    d.flags = ALL_FLAGS;
    sgrt_scene *s = new_scene_desc(&d);
    rng r = {0xF0115EEDull};
    for (uint32_t i = 0; i < 60; i++) {
        OK(sgrt_node_create(s, i % 7u ? h[rng_below(&r, i)] : SGRT_NULL_NODE, &h[i]));
        float m[16];
        random_affine(&r, m);
        OK(sgrt_node_set_local(s, h[i], m));
        const float c[3] = {1, 2, 3}, e[3] = {0.5f, 1, 2};
        if (i % 3u)
            OK(sgrt_node_set_bounds(s, h[i], c, e));
        OK(sgrt_node_set_user(s, h[i], 0x1000u + i));
    }
    const double at[3] = {1e9, -2e8, 5.5}, origin[3] = {1e9 - 1000.0, -2e8, 0};
    OK(sgrt_node_set_anchor(s, h[0], at));
    OK(sgrt_scene_set_origin(s, origin));
    (void)sgrt_scene_update(s);
    OK(sgrt_node_destroy(s, h[59]));
    OK(sgrt_node_destroy(s, h[30]));
    (void)sgrt_scene_update(s);
    float m[16];
    translation(1, 2, 3, m);
    OK(sgrt_node_set_local(s, h[1], m));
    return s;
}

/* ---- objects across a restore ---------------------------------------------------------- */

static void test_objects(void)
{
    test_log lg = {0};
    const sgrt_scene_desc d = {.flags = SGRT_SCENE_VALIDATE, .log = test_log_record,
                               .log_user = &lg};
    sgrt_scene *s = new_scene_desc(&d);
    sgrt_node a, b, c, b2, c2;
    OK(sgrt_node_create(s, SGRT_NULL_NODE, &a));
    (void)sgrt_scene_update(s);
    const bytes snap = take(s);
    OK(sgrt_node_create(s, a, &b));
    OK(sgrt_node_create(s, b, &c));
    const sgrt_node ns[3] = {a, b, c};
    sgrt_writer w;
    sgrt_nodeset set;
    OK(sgrt_writer_create(s, 3, ns, 0, &w));
    OK(sgrt_nodeset_create(s, &set));
    OK(sgrt_nodeset_add(s, set, a));
    OK(sgrt_nodeset_add(s, set, c));
    float *locals;
    const uint32_t *slots;
    OK(sgrt_writer_begin(s, w, &locals, &slots));
    OK(sgrt_writer_commit(s, w, 0, 3));
    (void)sgrt_scene_update(s);
    OK(sgrt_scene_restore(s, snap.p, snap.n));
    /* The set keeps its live member; the writer is refused by name while b
     * and c are not alive, and a commit needs a new begin. */
    CHECK(sgrt_nodeset_has(s, set, a) && sgrt_nodeset_count(s, set) == 1u);
    CHECK_RES(sgrt_writer_commit(s, w, 0, 1), SGRT_ERR_STALE_HANDLE);
    float m[3 * 16];
    for (int k = 0; k < 3; k++)
        translation((float)k, 0, 0, m + 16 * k);
    uint32_t bad = 99;
    CHECK_RES(sgrt_writer_set_local(s, w, m, &bad), SGRT_ERR_STALE_HANDLE);
    CHECK_EQ_U(bad, 1);
    CHECK(strstr(lg.message, "*out_bad") != NULL && lg.last.node.id == b.id);
    CHECK_RES(sgrt_writer_begin(s, w, &locals, &slots), SGRT_ERR_STALE_HANDLE);
    /* Replayed, the nodes come back with their handles: the writer works. */
    OK(sgrt_node_create(s, a, &b2));
    OK(sgrt_node_create(s, b2, &c2));
    CHECK(b2.id == b.id && c2.id == c.id);
    OK(sgrt_writer_set_local(s, w, m, &bad));
    const uint32_t entries = lg.count;
    CHECK_EQ_U(sgrt_scene_update(s), 2); /* b2, c2: a's new local is its old one */
    CHECK_EQ_U(lg.count, entries); /* no forgotten commit reported: the restore's locals */
    float world[16];
    OK(sgrt_node_world(s, c2, world));
    CHECK(world[12] == 3.0f); /* 0 + 1 + 2 */
    check_scene(s);
    free(snap.p);
    sgrt_scene_destroy(s);
}

/* An empty scene, and a scene emptied: snapshots of no node restore and
 * load, for every flag set. */
static void test_empty(void)
{
    static const uint32_t flag_sets[] = {0u, SGRT_SCENE_PREV_WORLD, SGRT_SCENE_SUBTREE_BOUNDS,
                                         SGRT_SCENE_LARGE_WORLD, ALL_FLAGS};
    for (size_t f = 0; f < sizeof flag_sets / sizeof flag_sets[0]; f++) {
        const sgrt_scene_desc d = {.flags = flag_sets[f]};
        sgrt_scene *s = new_scene_desc(&d);
        const bytes none = take(s);
        sgrt_node a, b;
        OK(sgrt_node_create(s, SGRT_NULL_NODE, &a));
        OK(sgrt_node_create(s, a, &b));
        (void)sgrt_scene_update(s);
        const bytes two = take(s);
        OK(sgrt_scene_restore(s, none.p, none.n));
        CHECK(sgrt_scene_node_count(s) == 0 && !sgrt_node_alive(s, a) && slots_in_use(s) == 0);
        check_scene(s);
        sgrt_node again;
        OK(sgrt_node_create(s, SGRT_NULL_NODE, &again));
        CHECK(again.id == a.id); /* the handle the first create got */
        OK(sgrt_scene_restore(s, two.p, two.n));
        CHECK(sgrt_node_alive(s, a) && sgrt_node_alive(s, b));
        OK(sgrt_node_destroy(s, a));
        const bytes emptied = take(s);
        sgrt_scene *l = NULL;
        OK(sgrt_scene_load(NULL, emptied.p, emptied.n, &l));
        if (l) {
            check_scene(l);
            const bytes lb = take(l);
            CHECK(same_bytes(emptied, lb));
            free(lb.p);
            sgrt_scene_destroy(l);
        }
        free(none.p);
        free(two.p);
        free(emptied.p);
        sgrt_scene_destroy(s);
    }
}

/* ---- memory -------------------------------------------------------------------------------- */

static void test_memory(void)
{
    test_alloc ta;
    sgrt_scene *s = new_scene_alloc(&ta);
    sgrt_node h[600];
    for (uint32_t i = 0; i < 600; i++)
        OK(sgrt_node_create(s, i ? h[(i - 1u) / 3u] : SGRT_NULL_NODE, &h[i]));
    (void)sgrt_scene_update(s);
    const bytes snap = take(s);
    for (uint32_t i = 590; i > 100; i -= 7)
        OK(sgrt_node_destroy(s, h[i]));
    /* In place: nothing allocated. */
    const uint64_t calls = ta.calls;
    OK(sgrt_scene_restore(s, snap.p, snap.n));
    CHECK_EQ_U(ta.calls, calls);
    /* Into a scene too small: it grows, and a growth that fails changes
     * nothing. */
    test_alloc tb;
    sgrt_scene *small = new_scene_alloc(&tb);
    sgrt_node one;
    OK(sgrt_node_create(small, SGRT_NULL_NODE, &one));
    const bytes before = take(small);
    for (uint64_t fail = 1;; fail++) {
        tb.fail_at = tb.calls + fail; /* the restore's allocation number `fail` */
        const sgrt_result r = sgrt_scene_restore(small, snap.p, snap.n);
        tb.fail_at = 0;
        if (r == SGRT_OK) {
            CHECK(fail > 2); /* the handle table, then storage */
            break;
        }
        CHECK_RES(r, SGRT_ERR_NOMEM);
        const bytes now = take(small);
        CHECK_MSG(same_bytes(before, now), "a restore whose growth failed changed the scene");
        free(now.p);
        check_scene(small);
        if (fail > 10) {
            FAIL("the restore keeps failing");
            break;
        }
    }
    const bytes grown = take(small);
    CHECK(same_bytes(snap, grown));
    free(grown.p);
    free(before.p);
    end_scene_alloc(small, &tb);
    /* A scene compacted far below the handles it ever had: the check's
     * marks take a block of their own, freed at once, and its failure is
     * NOMEM with nothing changed. */
    for (uint32_t i = 1; i < 600; i++)
        if (sgrt_node_alive(s, h[i]) && i % 100u)
            OK(sgrt_node_destroy(s, h[i]));
    /* Handle indices past 64 x the capacity a compaction leaves (64). */
    sgrt_node *extra = malloc(5000u * sizeof *extra);
    for (uint32_t i = 0; i < 5000; i++)
        OK(sgrt_node_create(s, SGRT_NULL_NODE, &extra[i]));
    for (uint32_t i = 0; i < 5000; i++)
        OK(sgrt_node_destroy(s, extra[i]));
    free(extra);
    OK(sgrt_scene_compact(s));
    const bytes compacted = take(s);
    uint64_t c0 = ta.calls;
    OK(sgrt_scene_restore(s, compacted.p, compacted.n));
    CHECK_EQ_U(ta.calls, c0 + 1u);
    ta.fail_at = ta.calls + 1u;
    CHECK_RES(sgrt_scene_restore(s, compacted.p, compacted.n), SGRT_ERR_NOMEM);
    ta.fail_at = 0;
    const bytes after = take(s);
    CHECK(same_bytes(compacted, after));
    free(after.p);
    free(compacted.p);
    free(snap.p);
    end_scene_alloc(s, &ta);
}

/* Allocation failure at every point of sgrt_scene_load: NOMEM (or
 * ALIGNMENT when the block is misaligned), *out untouched, nothing left
 * allocated; the load that succeeds is the snapshot's scene. */
static void test_load_faults(void)
{
    sgrt_node h[60];
    sgrt_scene *src = full_scene(NULL, h);
    const bytes snap = take(src);
    sgrt_scene_destroy(src);
    uint64_t points = 0;
    for (int misalign = 0; misalign < 2; misalign++)
        for (uint64_t at = 1;; at++) {
            test_alloc ta;
            memset(&ta, 0, sizeof ta);
            if (misalign)
                ta.misalign_at = at;
            else
                ta.fail_at = at;
            const sgrt_allocator al = test_alloc_hooks(&ta);
            const sgrt_scene_desc d = {.allocator = &al};
            sgrt_scene *l = (sgrt_scene *)(uintptr_t)0x1234;
            const sgrt_result r = sgrt_scene_load(&d, snap.p, snap.n, &l);
            if (r == SGRT_OK && ta.failures == 0 && ta.misaligned == 0) {
                const bytes lb = take(l);
                CHECK(same_bytes(snap, lb));
                free(lb.p);
                sgrt_scene_destroy(l);
                check_alloc_empty(&ta);
                test_alloc_release(&ta);
                break;
            }
            points++;
            CHECK_MSG(r == (misalign ? SGRT_ERR_ALIGNMENT : SGRT_ERR_NOMEM) &&
                          l == (sgrt_scene *)(uintptr_t)0x1234,
                      "load failing at allocation %llu: %s", (unsigned long long)at,
                      sgrt_result_str(r));
            check_alloc_empty(&ta);
            test_alloc_release(&ta);
            if (at > 64) {
                FAIL("sgrt_scene_load makes more than 64 allocations");
                break;
            }
        }
    CHECK(points >= 4); /* the scene, storage, handles: every one failed once */
    free(snap.p);
}

/* A refused restore: the code, one log entry for `function`, nothing
 * changed (the scene's snapshot and hash). */
static void check_refused(sgrt_scene *s, test_log *lg, const void *buf, size_t n,
                          sgrt_result want, bytes before, const char *what)
{
    const uint32_t entries = lg->count;
    const sgrt_result r = sgrt_scene_restore(s, buf, n);
    CHECK_MSG(r == want, "%s: restore returned %s, expected %s", what, sgrt_result_str(r),
              sgrt_result_str(want));
    CHECK_MSG(lg->count == entries + 1u && lg->last.code == want &&
                  strcmp(lg->last.function, "sgrt_scene_restore") == 0,
              "%s: %u log entries (%s)", what, lg->count - entries, lg->message);
    const bytes now = take(s);
    CHECK_MSG(same_bytes(before, now), "%s: a refused restore changed the scene", what);
    free(now.p);
}

/* Into another scene of the same flags, with nodes of its own and its own
 * scramble: the same state, slot for slot, its snapshot the same bytes and
 * its hash the same number; its handles its own. */
static void test_other_scene(void)
{
    sgrt_node h[60], mine[5];
    sgrt_scene *a = full_scene(NULL, h);
    const bytes sa = take(a);
    const sgrt_scene_desc d = {.flags = ALL_FLAGS};
    sgrt_scene *b = new_scene_desc(&d);
    for (uint32_t i = 0; i < 5; i++)
        OK(sgrt_node_create(b, i ? mine[i - 1] : SGRT_NULL_NODE, &mine[i]));
    OK(sgrt_scene_restore(b, sa.p, sa.n));
    const bytes sb = take(b);
    CHECK(same_bytes(sa, sb));
    CHECK_EQ_U(sgrt_scene_hash(b), sgrt_scene_hash(a));
    uint32_t moved = 0;
    for (uint32_t i = 0; i < 60; i++) {
        uint32_t slot;
        if (sgrt_node_slot(a, h[i], &slot) != SGRT_OK)
            continue;
        const sgrt_node n = sgrt_scene_slot_node(b, slot);
        float wa[16], wb[16]; /* validation mode: PENDING on both alike */
        const sgrt_result ra = sgrt_node_world(a, h[i], wa);
        CHECK_RES(sgrt_node_world(b, n, wb), ra);
        moved += memcmp(wa, wb, sizeof wa) != 0 || n.id == 0;
    }
    CHECK_EQ_U(moved, 0);
    CHECK_EQ_U(sgrt_scene_update(a), sgrt_scene_update(b));
    check_scene(b);
    free(sa.p);
    free(sb.p);
    sgrt_scene_destroy(a);
    sgrt_scene_destroy(b);
}

static void test_refusals(void)
{
    test_log lg = {0};
    const sgrt_scene_desc d = {.log = test_log_record, .log_user = &lg};
    sgrt_node h[60];
    sgrt_scene *s = full_scene(&d, h);
    const bytes good = take(s);
    size_t n = 7, w = 7;
    /* Arguments. */
    CHECK_RES(sgrt_scene_snapshot_size(NULL, &n), SGRT_ERR_INVALID_ARG);
    CHECK_EQ_U(n, 0);
    CHECK_RES(sgrt_scene_snapshot_size(s, NULL), SGRT_ERR_INVALID_ARG);
    CHECK(strcmp(lg.message, "out_bytes is NULL") == 0);
    CHECK_RES(sgrt_scene_snapshot(NULL, good.p, good.n, &w), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_scene_snapshot(s, NULL, good.n, &w), SGRT_ERR_INVALID_ARG);
    CHECK(strcmp(lg.message, "buf is NULL") == 0 && w == 0);
    uint8_t *small = malloc(good.n);
    memset(small, 0xAB, good.n);
    const uint32_t entries = lg.count;
    CHECK_RES(sgrt_scene_snapshot(s, small, good.n - 1u, &w), SGRT_ERR_INVALID_ARG);
    CHECK(lg.count == entries + 1u && strncmp(lg.message, "size is below", 13) == 0);
    CHECK_EQ_U(w, good.n); /* the size it needs */
    bool untouched = true;
    for (size_t i = 0; i < good.n; i++)
        untouched = untouched && small[i] == 0xAB;
    CHECK_MSG(untouched, "a refused snapshot wrote into buf");
    CHECK_RES(sgrt_scene_snapshot(s, small, good.n, NULL), SGRT_OK); /* out_written optional */
    CHECK(memcmp(small, good.p, good.n) == 0);
    CHECK_RES(sgrt_scene_restore(NULL, good.p, good.n), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_scene_restore(s, NULL, good.n), SGRT_ERR_INVALID_ARG);
    CHECK(strcmp(lg.message, "buf is NULL") == 0);
    sgrt_scene *l = (sgrt_scene *)(uintptr_t)0x1234;
    CHECK_RES(sgrt_scene_load(&d, good.p, good.n, NULL), SGRT_ERR_INVALID_ARG);
    CHECK(strcmp(lg.message, "out is NULL") == 0);
    CHECK_RES(sgrt_scene_load(&d, NULL, good.n, &l), SGRT_ERR_INVALID_ARG);
    CHECK(strcmp(lg.message, "buf is NULL") == 0);
    sgrt_scene_desc other = d;
    other.flags = SGRT_SCENE_PREV_WORLD;
    CHECK_RES(sgrt_scene_load(&other, good.p, good.n, &l), SGRT_ERR_INVALID_ARG);
    CHECK(strncmp(lg.message, "desc->flags", 11) == 0);
    other.flags = 1u << 30;
    CHECK_RES(sgrt_scene_load(&other, good.p, good.n, &l), SGRT_ERR_INVALID_ARG);
    other.flags = ALL_FLAGS & ~(uint32_t)SGRT_SCENE_BOUNDS; /* subtree boxes imply boxes */
    sgrt_scene *l2 = NULL;
    OK(sgrt_scene_load(&other, good.p, good.n, &l2));
    sgrt_scene_destroy(l2);
    other.max_nodes = 10;
    CHECK_RES(sgrt_scene_load(&other, good.p, good.n, &l), SGRT_ERR_CAPACITY);
    CHECK(l == (sgrt_scene *)(uintptr_t)0x1234); /* *out untouched on error */
    /* Every truncation, every corrupted byte: refused, nothing changed. */
    for (size_t cut = 0; cut < good.n; cut += cut < 256u ? 1u : 61u)
        check_refused(s, &lg, good.p, cut, SGRT_ERR_SNAPSHOT, good, "a truncated snapshot");
    uint8_t *bad = malloc(good.n + 64u);
    for (size_t i = 0; i < good.n; i += i < 256u ? 1u : 37u) {
        memcpy(bad, good.p, good.n);
        bad[i] ^= (uint8_t)(1u << (i % 8u));
        check_refused(s, &lg, bad, good.n, SGRT_ERR_SNAPSHOT, good, "a corrupted byte");
    }
    memcpy(bad, good.p, good.n);
    put32(bad + 8, 2);
    check_refused(s, &lg, bad, good.n, SGRT_ERR_SNAPSHOT, good, "another version");
    CHECK(strstr(lg.message, "version") != NULL);
    /* A longer buffer is fine: what follows the snapshot is not read. */
    memcpy(bad, good.p, good.n);
    memset(bad + good.n, 0xEE, 64);
    OK(sgrt_scene_restore(s, bad, good.n + 64u));
    /* Other flags, both ways. */
    sgrt_scene_desc plain = d;
    plain.flags = SGRT_SCENE_BOUNDS;
    sgrt_scene *p = new_scene_desc(&plain);
    const bytes pb = take(p);
    check_refused(s, &lg, pb.p, pb.n, SGRT_ERR_SNAPSHOT, good, "a snapshot of other flags");
    CHECK(strstr(lg.message, "flags") != NULL);
    const uint32_t e2 = lg.count;
    CHECK_RES(sgrt_scene_restore(p, good.p, good.n), SGRT_ERR_SNAPSHOT);
    CHECK_EQ_U(lg.count, e2 + 1u);
    free(pb.p);
    sgrt_scene_destroy(p);
    /* More nodes than max_nodes. */
    sgrt_scene_desc few = d;
    few.flags = ALL_FLAGS;
    few.max_nodes = 20;
    sgrt_scene *f = new_scene_desc(&few);
    const bytes fb = take(f);
    check_refused(f, &lg, good.p, good.n, SGRT_ERR_CAPACITY, fb, "more nodes than max_nodes");
    free(fb.p);
    sgrt_scene_destroy(f);
    /* A busy scene is refused by all four: test_executor covers the tasks;
     * here, the state is as it was. */
    const bytes end = take(s);
    CHECK(same_bytes(good, end));
    free(end.p);
    free(bad);
    free(small);
    free(good.p);
    check_scene(s);
    sgrt_scene_destroy(s);
}

/* ---- forged snapshots: a right checksum, contents that are no scene ---------------- */

typedef struct forge {
    const sgrt_scene *s;
    sgrt__snaplayout L;
    uint8_t *p;
    size_t n;
} forge;

/* The bytes of the declared field `name` of s. */
static uint8_t *field(const forge *f, const char *name)
{
    for (uint32_t k = 0; k < f->s->decl_count; k++)
        if (strcmp(f->s->decl[k]->name, name) == 0)
            return f->p + f->L.fol[k];
    abort();
}

/* A live slot whose parent is live (not a root), and its parent. */
static uint32_t child_slot(const forge *f, uint32_t *parent)
{
    for (uint32_t i = 1; i < f->s->slot_end; i++)
        if (sgrt__bit_get(f->s->st.alive, i) && f->s->st.parent[i] != SGRT__NONE) {
            *parent = f->s->st.parent[i];
            return i;
        }
    abort();
}

static void test_forged(void)
{
    test_log lg = {0};
    const sgrt_scene_desc d = {.log = test_log_record, .log_user = &lg};
    sgrt_node h[60];
    sgrt_scene *s = full_scene(&d, h);
    /* Nothing pending, and previous worlds caught up: every check applies. */
    (void)sgrt_scene_update(s);
    (void)sgrt_scene_update(s);
    const bytes good = take(s);
    forge f = {s, {0}, malloc(good.n), good.n};
    sgrt__snap_layout(s, s->slot_end, s->handle_used, s->free_count, &f.L);
    CHECK_EQ_U(f.L.total, good.n);
    uint32_t parent = 0;
    const uint32_t c = child_slot(&f, &parent);
    const uint32_t dead = s->holes ? 30u : 0u; /* h[30] was destroyed: a hole */
    CHECK(!sgrt__bit_get(s->st.alive, dead));
    uint32_t valid = 0; /* a slot with a world box */
    while (!sgrt__bit_get(sgrt__bounds_of(s)->b_valid, valid))
        valid++;
    const uint32_t free0 = get32(good.p + f.L.ring);
#define FORGE(what, edit)                                                              \
    do {                                                                               \
        memcpy(f.p, good.p, good.n);                                                   \
        edit;                                                                          \
        reseal(f.p, f.n);                                                              \
        check_refused(s, &lg, f.p, f.n, SGRT_ERR_SNAPSHOT, good, what);                \
        CHECK_MSG(strncmp(lg.message, "buf", 3) == 0, "%s: %s", what, lg.message);     \
    } while (0)
    FORGE("node count", put32(f.p + 40, get32(f.p + 40) + 1u));
    FORGE("slot count", put32(f.p + 44, get32(f.p + 44) - 1u));
    FORGE("free count", put32(f.p + 52, get32(f.p + 52) + 1u));
    FORGE("reserved header word", put32(f.p + 60, 1));
    FORGE("layout fingerprint", put32(f.p + 36, get32(f.p + 36) ^ 1u));
    FORGE("unknown flag", put32(f.p + 32, get32(f.p + 32) | 1u << 20));
    FORGE("parent out of range", put32(f.p + f.L.parent + 4u * c, 0xFFFFFFF0u));
    FORGE("parent after its child", put32(f.p + f.L.parent + 4u * c, s->slot_end - 1u));
    FORGE("parent dead", put32(f.p + f.L.parent + 4u * 40u, dead));
    FORGE("first child of another", put32(f.p + f.L.first_child + 4u * parent, parent));
    FORGE("sibling cycle",
          put32(f.p + f.L.next_sibling + 4u * c, c); put32(f.p + f.L.prev_sibling + 4u * c, c));
    FORGE("root with a sibling", put32(f.p + f.L.next_sibling, 1));
    FORGE("handle index twice", put32(f.p + f.L.slot_handle + 4u * c, get32(f.p + f.L.slot_handle)));
    FORGE("handle index out of range", put32(f.p + f.L.slot_handle + 4u * c, s->handle_used));
    FORGE("generation 255", f.p[f.L.gens + 3u] = 255u);
    FORGE("free index live", put32(f.p + f.L.ring, get32(f.p + f.L.slot_handle)));
    FORGE("free index out of range", put32(f.p + f.L.ring, s->handle_used + free0));
    FORGE("live node not alive", f.p[f.L.alive + 4u] ^= 1u); /* slot 32 */
    FORGE("dead slot alive", f.p[f.L.alive + dead / 8u] ^= (uint8_t)(1u << (dead % 8u)));
    FORGE("dirty dead slot", f.p[f.L.dirty + dead / 8u] ^= (uint8_t)(1u << (dead % 8u)));
    FORGE("inner leaf", f.p[f.L.inner + (s->slot_end - 1u) / 8u] ^=
                        (uint8_t)(1u << ((s->slot_end - 1u) % 8u)));
    FORGE("dirty parent, clean child", f.p[f.L.dirty + parent / 8u] ^=
                                       (uint8_t)(1u << (parent % 8u)));
    FORGE("closure start without a count", put32(f.p + f.L.scalars, 3));
    FORGE("closure start past the slot limit",
          put32(f.p + f.L.scalars, 1u << 26); put32(f.p + f.L.scalars + 4, 1));
    FORGE("repaired node out of range",
          put32(f.p + f.L.scalars + 8, 1); put32(f.p + f.L.scalars + 12, s->handle_used));
    FORGE("reserved scalar", put32(f.p + f.L.scalars + 20, 9));
    FORGE("a declared bit on a dead slot",
          field(&f, "b_has")[dead / 8u] ^= (uint8_t)(1u << (dead % 8u)));
    FORGE("boolean 2", f.p[f.L.state[3]] = 2u); /* the boxes' subtree_stale */
    FORGE("padding not zero", f.p[f.L.state[3] + 1u] = 1u); /* after the boolean */
    FORGE("previous world", f.p[field(&f, "world") - f.p + 64u * (size_t)c + 5u] ^= 1u);
    FORGE("root anchor NaN", put32(field(&f, "anchor") + 4, 0x7FF80000u));
    FORGE("origin beyond the limit", put32(f.p + f.L.state[5] + 4, 0x7FF00000u));
    FORGE("negative half extent", field(&f, "lb_ex")[4u * valid + 3u] |= 0x80u);
    FORGE("world box not its world's", field(&f, "wb_lx")[4u * valid] ^= 1u);
    FORGE("subtree record count", field(&f, "sub")[32u * (size_t)parent + 28u] ^= 1u);
#undef FORGE
    /* Hostile bytes with a right checksum, at random: taken only when the
     * scene they hold keeps every invariant; each then is the scene. */
    uint32_t taken = 0;
    for (int round = 0; round < 3000; round++) {
        memcpy(f.p, good.p, good.n);
        for (uint32_t k = 1u + rng_below(&R, 3); k--;)
            f.p[32u + rng_below(&R, (uint32_t)good.n - 32u)] ^= (uint8_t)(1u + rng_below(&R, 255));
        reseal(f.p, f.n);
        if (sgrt_scene_restore(s, f.p, f.n) == SGRT_OK) {
            taken++;
            check_scene(s);
            OK(sgrt_scene_restore(s, good.p, good.n));
        }
    }
    printf("random forgeries: %u of 3000 held a scene (world bits of dead slots, user values, "
           "locals ...) and were taken\n", taken);
    free(f.p);
    free(good.p);
    sgrt_scene_destroy(s);
}

/* A program of `steps` calls with a snapshot at step k: run on, restore,
 * replay from k, compare. */
static void test_program(uint32_t flags, uint64_t seed, uint32_t steps)
{
    prog p;
    prog_start(&p, flags, seed);
    const uint32_t k = steps / 4u + rng_below(&R, steps / 2u);
    for (uint32_t i = 0; i < k; i++) {
        program_step(&p);
        if (i % 64u == 0)
            check_scene(p.s);
    }
    /* The snapshot, and what the replay starts from. */
    const bytes snap = take(p.s);
    const uint64_t hash = sgrt_scene_hash(p.s);
    const size_t logged_k = p.logged;
    const rng r_k = p.r;
    const uint32_t n_k = p.n;
    for (uint32_t i = k; i < steps; i++) {
        program_step(&p);
        if (i % 64u == 0)
            check_scene(p.s);
    }
    check_model(&p, "first run");
    const size_t logged_end = p.logged;
    /* t2 keeps what it has pending; t is drained: it reports the restore's
     * changes alone. */
    mirror_sync(&p.m, p.s, p.flags, p.t, NULL, "before the restore");
    shown was;
    show(p.s, p.flags, &was);
    const uint32_t entries = p.entries.count;
    OK(sgrt_scene_restore(p.s, snap.p, snap.n));
    CHECK_EQ_U(p.entries.count, entries); /* a restore that succeeds reports nothing */
    check_scene(p.s);
    CHECK_EQ_U(sgrt_scene_hash(p.s), hash);
    const bytes again = take(p.s);
    CHECK_MSG(same_bytes(snap, again), "flags 0x%x seed 0x%llx: the restored scene's snapshot "
              "differs from the one it was restored from", flags, (unsigned long long)seed);
    free(again.p);
    uint8_t *seen = calloc(was.slots + 4096u, 1);
    if (!seen)
        abort();
    mirror_sync(&p.m, p.s, p.flags, p.t, seen, "after the restore");
    check_reported(p.s, p.flags, &was, seen);
    free(seen);
    shown_free(&was);
    mirror_sync(&p.m2, p.s, p.flags, p.t2, NULL, "pending through the restore");
    for (uint32_t c = 0; (void)0, true;) { /* node sets: live nodes only */
        const sgrt_node n = sgrt_nodeset_next(p.s, p.set, &c);
        if (!n.id)
            break;
        CHECK(sgrt_node_alive(p.s, n));
    }
    /* The replay: the same draws from step k, the same answers. */
    p.r = r_k;
    p.n = n_k;
    for (uint32_t i = k; i < steps; i++)
        program_step(&p);
    check_model(&p, "replay");
    CHECK_EQ_U(p.logged - logged_end, logged_end - logged_k);
    size_t diff = SIZE_MAX;
    for (size_t i = 0; i < logged_end - logged_k && logged_end + i < p.logged; i++)
        if (p.log[logged_k + i] != p.log[logged_end + i]) {
            diff = i;
            break;
        }
    CHECK_MSG(diff == SIZE_MAX, "flags 0x%x seed 0x%llx, snapshot at step %u: the replay's "
              "answer %zu differs (0x%llx, first run 0x%llx)", flags, (unsigned long long)seed, k,
              diff, diff == SIZE_MAX ? 0ull : (unsigned long long)p.log[logged_end + diff],
              diff == SIZE_MAX ? 0ull : (unsigned long long)p.log[logged_k + diff]);
    /* A load of the snapshot: the same bytes, the same hash, its own ids. */
    sgrt_scene *l = NULL;
    const sgrt_scene_desc d = {0};
    OK(sgrt_scene_load(&d, snap.p, snap.n, &l));
    if (l) {
        check_scene(l);
        const bytes lb = take(l);
        CHECK(same_bytes(snap, lb));
        CHECK_EQ_U(sgrt_scene_hash(l), hash);
        free(lb.p);
        sgrt_scene_destroy(l);
    }
    free(snap.p);
    prog_end(&p);
}

static void test_programs(void)
{
    static const uint32_t flag_sets[] = {
        0u,
        SGRT_SCENE_PREV_WORLD,
        SGRT_SCENE_BOUNDS,
        SGRT_SCENE_SUBTREE_BOUNDS | SGRT_SCENE_BOUNDS,
        SGRT_SCENE_LARGE_WORLD,
        SGRT_SCENE_VALIDATE,
        ALL_FLAGS,
    };
    for (size_t f = 0; f < sizeof flag_sets / sizeof flag_sets[0]; f++)
        for (int run = 0; run < 3; run++)
            test_program(flag_sets[f], rng_next(&R), 1600);
}

int main(int argc, char **argv)
{
    rng_seed_from_args(&R, argc, argv, "test_snapshot");
    test_objects();
    test_empty();
    test_other_scene();
    test_refusals();
    test_forged();
    test_memory();
    test_load_faults();
    test_programs();
    return test_report("test_snapshot");
}
