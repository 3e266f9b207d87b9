/* SPDX-License-Identifier: MIT */
/* Object handles (src/objects.c): trackers, node sets, writers and skins
 * are named by generation-checked ids resolved through the scene's own
 * table.
 *
 *  - every call that takes an object, given a destroyed object of each
 *    kind, a live one of another scene, a zero handle and a live object of
 *    another kind, in every object argument it has: refused with
 *    INVALID_ARG (0, false, NULL for the calls that answer with a value),
 *    reported once with a message that says which of those it was, its
 *    outputs as documented, nothing freed, the good objects untouched. The
 *    destroyed object's memory is freed: under AddressSanitizer (the
 *    sanitize suite of scripts/test.sh) a call that read it would stop the
 *    test;
 *  - a table index taken again by a new object: the old handle is still
 *    refused, the new one works;
 *  - the generation period the header states: an index brought round as
 *    fast as first-in first-out reuse allows names its first id again after
 *    exactly 8,191 x 257 destructions, and never before;
 *  - SGRT_MAX_OBJECTS objects alive: the next create of every kind is
 *    refused with CAPACITY, and works again after a destroy;
 *  - the table's growth failing: NOMEM, nothing changed, *out untouched.
 */
#include "internal.h" /* white-box: the table's reuse, without allocating */
#include "objects.h"
#include "testutil.h"

/* ---- the log ------------------------------------------------------------------ */

static test_log L;

/* A scene logging to L and allocating through ta. */
static sgrt_scene *logged_scene(test_alloc *ta, uint32_t flags)
{
    memset(ta, 0, sizeof *ta);
    const sgrt_allocator al = test_alloc_hooks(ta);
    const sgrt_scene_desc d = {.allocator = &al, .flags = flags, .log = test_log_record,
                               .log_user = &L};
    return new_scene_desc(&d);
}

/* ---- every call, every bad handle ---------------------------------------------- */

typedef enum badness { DESTROYED, FOREIGN, ZERO, OTHER_KIND, BADNESS_COUNT } badness;
static const char *const badness_name[BADNESS_COUNT] = {"destroyed", "of another scene", "zero",
                                                        "of another kind"};

/* What the message of a refusal of `arg` (a `kind`) must say. */
static void expected_message(badness b, const char *arg, const char *kind, char *out, size_t n)
{
    if (b == ZERO)
        snprintf(out, n, "%s is zero", arg);
    else if (b == OTHER_KIND)
        snprintf(out, n, "%s is not a %s: it names a live object of another kind", arg, kind);
    else
        snprintf(out, n, "%s is not a live %s of s: destroyed, or of another scene", arg, kind);
}

static badness current_bad;

/* Exactly one report since the call: INVALID_ARG from `function`, naming
 * what happened to `arg`. */
static void expect_refusal(int line, const char *function, const char *arg, const char *kind)
{
    char want[256];
    expected_message(current_bad, arg, kind, want, sizeof want);
    test_checks++;
    if (L.count != 1 || !L.last.function || strcmp(L.last.function, function) != 0 ||
        L.last.code != SGRT_ERR_INVALID_ARG || !strstr(L.message, want) ||
        L.last.node.id != 0u) {
        test_failures++;
        fprintf(stderr,
                "%s:%d: %s %s: %u reports, last %s %s \"%s\"; expected one INVALID_ARG "
                "saying \"%s\"\n",
                __FILE__, line, function, badness_name[current_bad], L.count,
                L.count ? L.last.function : "-", L.count ? sgrt_result_str(L.last.code) : "-",
                L.message, want);
        test_failed();
    }
}

#define REFUSED(call, function, arg, kind)                                             \
    do {                                                                               \
        memset(&L, 0, sizeof L);                                                       \
        CHECK_RES((call), SGRT_ERR_INVALID_ARG);                                       \
        expect_refusal(__LINE__, (function), (arg), (kind));                           \
    } while (0)

#define REFUSED_ANSWER(cond, function, arg, kind)                                      \
    do {                                                                               \
        memset(&L, 0, sizeof L);                                                       \
        CHECK(cond);                                                                   \
        expect_refusal(__LINE__, (function), (arg), (kind));                           \
    } while (0)

#define QUIET(call)                                                                    \
    do {                                                                               \
        memset(&L, 0, sizeof L);                                                       \
        OK(call);                                                                      \
        CHECK_EQ_U(L.count, 0);                                                        \
    } while (0)

/* A scene with boxes (for the cull) and one good object of each kind over
 * three nodes, the set holding n[1]. */
typedef struct fixture {
    test_alloc ta;
    sgrt_scene *s;
    sgrt_node n[3];
    sgrt_tracker t;
    sgrt_nodeset set;
    sgrt_writer w;
    sgrt_skin k;
} fixture;

static void fixture_make(fixture *f)
{
    f->s = logged_scene(&f->ta, SGRT_SCENE_BOUNDS);
    for (int i = 0; i < 3; i++)
        OK(sgrt_node_create(f->s, i ? f->n[i - 1] : SGRT_NULL_NODE, &f->n[i]));
    const float c[3] = {0, 0, 0}, e[3] = {1, 1, 1};
    OK(sgrt_node_set_bounds(f->s, f->n[1], c, e));
    OK(sgrt_tracker_create(f->s, &f->t));
    OK(sgrt_nodeset_create(f->s, &f->set));
    OK(sgrt_writer_create(f->s, 3, f->n, 0, &f->w));
    const sgrt_skin_desc kd = {3, f->n, NULL, f->n[0], SGRT_SKIN_NORMALS | SGRT_SKIN_PREV};
    OK(sgrt_skin_create(f->s, &kd, &f->k));
    OK(sgrt_nodeset_add(f->s, f->set, f->n[1]));
    (void)sgrt_scene_update(f->s);
}

/* The good objects still work and hold what they held. */
static void fixture_intact(fixture *f, const char *what)
{
    const sgrt_scene *s = f->s;
    CHECK_MSG(sgrt_tracker_check(s, f->t, NULL) == SGRT_OK, "%s: the tracker broke", what);
    CHECK_MSG(sgrt_nodeset_count(s, f->set) == 1u && sgrt_nodeset_has(s, f->set, f->n[1]),
              "%s: the node set changed", what);
    float *locals = NULL;
    const uint32_t *slots = NULL;
    CHECK_MSG(sgrt_writer_begin(f->s, f->w, &locals, &slots) == SGRT_OK && locals && slots,
              "%s: the writer broke", what);
    uint32_t joints = 0;
    CHECK_MSG(sgrt_skin_palette(s, f->k, &joints) != NULL && joints == 3u &&
                  sgrt_skin_prev_palette(s, f->k, NULL) && sgrt_skin_normals(s, f->k, NULL),
              "%s: the skin broke", what);
    check_scene_where(f->s, what);
}

/* A new object of `kind` (0 tracker, 1 node set, 2 writer over `node`, 3
 * skin over `node`) in s, and its destroy. */
static uint32_t object_create(sgrt_scene *s, int kind, sgrt_node node)
{
    sgrt_tracker t = SGRT_NULL_TRACKER;
    sgrt_nodeset set = SGRT_NULL_NODESET;
    sgrt_writer w = SGRT_NULL_WRITER;
    sgrt_skin k = SGRT_NULL_SKIN;
    const sgrt_skin_desc kd = {1, &node, NULL, SGRT_NULL_NODE, 0};
    if (kind == 0)
        OK(sgrt_tracker_create(s, &t));
    else if (kind == 1)
        OK(sgrt_nodeset_create(s, &set));
    else if (kind == 2)
        OK(sgrt_writer_create(s, 1, &node, 0, &w));
    else
        OK(sgrt_skin_create(s, &kd, &k));
    return t.id | set.id | w.id | k.id;
}

static void object_destroy(sgrt_scene *s, int kind, uint32_t id)
{
    if (kind == 0)
        OK(sgrt_tracker_destroy(s, (sgrt_tracker){id}));
    else if (kind == 1)
        OK(sgrt_nodeset_destroy(s, (sgrt_nodeset){id}));
    else if (kind == 2)
        OK(sgrt_writer_destroy(s, (sgrt_writer){id}));
    else
        OK(sgrt_skin_destroy(s, (sgrt_skin){id}));
}

/* The id of a bad handle of `kind`, made the way `b` says. */
static uint32_t bad_id(fixture *f, sgrt_scene *other, int kind, badness b)
{
    uint32_t id = 0;
    sgrt_node on;
    switch (b) {
    case DESTROYED:
        id = object_create(f->s, kind, f->n[0]);
        if (kind == 1) /* memory worth reading, were it read */
            OK(sgrt_nodeset_add(f->s, (sgrt_nodeset){id}, f->n[0]));
        object_destroy(f->s, kind, id);
        break;
    case FOREIGN:
        OK(sgrt_node_create(other, SGRT_NULL_NODE, &on));
        id = object_create(other, kind, on);
        break;
    case OTHER_KIND: /* a live object of the next kind */
        id = kind == 0 ? f->set.id : kind == 1 ? f->w.id : kind == 2 ? f->k.id : f->t.id;
        break;
    default:
        break;
    }
    return id;
}

static const float CUBE[6][4] = {{1, 0, 0, 5}, {-1, 0, 0, 5}, {0, 1, 0, 5},
                                 {0, -1, 0, 5}, {0, 0, 1, 5}, {0, 0, -1, 5}};

static void tracker_calls(fixture *f, sgrt_tracker bt)
{
    sgrt_scene *s = f->s;
    static const char k[] = "tracker";
    sgrt_range r[4];
    uint32_t n = 77;
    bool more = true;
    const char *what = "untouched";
    REFUSED(sgrt_tracker_collect(s, bt, r, 4, 0, &n, &more), "sgrt_tracker_collect", "t", k);
    CHECK(n == 0 && !more); /* a refusal reads as nothing, no more */
    REFUSED(sgrt_tracker_check(s, bt, &what), "sgrt_tracker_check", "t", k);
    CHECK(what == NULL);
    REFUSED(sgrt_nodeset_from_changes(s, f->set, bt, SGRT_SET_AND, SGRT_NULL_NODESET, true),
            "sgrt_nodeset_from_changes", "t", k);
    if (current_bad == ZERO)
        QUIET(sgrt_tracker_destroy(s, bt));
    else
        REFUSED(sgrt_tracker_destroy(s, bt), "sgrt_tracker_destroy", "t", k);
}

static void nodeset_calls(fixture *f, sgrt_nodeset bs)
{
    sgrt_scene *s = f->s;
    static const char k[] = "node set";
    const sgrt_nodeset set = f->set;
    REFUSED(sgrt_nodeset_add(s, bs, f->n[0]), "sgrt_nodeset_add", "set", k);
    REFUSED(sgrt_nodeset_remove(s, bs, f->n[1]), "sgrt_nodeset_remove", "set", k);
    REFUSED_ANSWER(!sgrt_nodeset_has(s, bs, f->n[1]), "sgrt_nodeset_has", "set", k);
    REFUSED(sgrt_nodeset_clear(s, bs), "sgrt_nodeset_clear", "set", k);
    REFUSED_ANSWER(sgrt_nodeset_count(s, bs) == 0u, "sgrt_nodeset_count", "set", k);
    REFUSED(sgrt_nodeset_combine(s, bs, set, SGRT_SET_OR, set), "sgrt_nodeset_combine", "dst", k);
    REFUSED(sgrt_nodeset_combine(s, set, bs, SGRT_SET_OR, set), "sgrt_nodeset_combine", "a", k);
    REFUSED(sgrt_nodeset_combine(s, set, set, SGRT_SET_AND, bs), "sgrt_nodeset_combine", "b", k);
    REFUSED(sgrt_nodeset_from_changes(s, bs, f->t, SGRT_SET_AND, SGRT_NULL_NODESET, false),
            "sgrt_nodeset_from_changes", "dst", k);
    uint32_t cursor = 0, words = 55;
    REFUSED_ANSWER(sgrt_nodeset_next(s, bs, &cursor).id == 0u && cursor == 0u,
                   "sgrt_nodeset_next", "set", k);
    REFUSED_ANSWER(sgrt_nodeset_words(s, bs, &words) == NULL && words == 55u,
                   "sgrt_nodeset_words", "set", k);
    sgrt_cull_stats st = {9, 9, 9, 9, 9};
    REFUSED(sgrt_scene_cull(s, CUBE[0], 6, SGRT_NULL_NODESET, bs, &st), "sgrt_scene_cull", "out",
            k);
    CHECK(st.visible == 9u);
    if (current_bad == ZERO) {
        /* Where a set is optional, zero means none. */
        sgrt_nodeset tmp;
        OK(sgrt_nodeset_create(s, &tmp));
        QUIET(sgrt_nodeset_from_changes(s, tmp, f->t, SGRT_SET_AND, bs, false));
        QUIET(sgrt_scene_cull(s, CUBE[0], 6, bs, tmp, &st));
        CHECK(sgrt_nodeset_has(s, tmp, f->n[1]));
        OK(sgrt_nodeset_destroy(s, tmp));
        QUIET(sgrt_nodeset_destroy(s, bs));
    } else {
        REFUSED(sgrt_nodeset_from_changes(s, set, f->t, SGRT_SET_AND, bs, false),
                "sgrt_nodeset_from_changes", "b", k);
        REFUSED(sgrt_scene_cull(s, CUBE[0], 6, bs, set, &st), "sgrt_scene_cull", "only", k);
        REFUSED(sgrt_nodeset_destroy(s, bs), "sgrt_nodeset_destroy", "set", k);
    }
}

static void writer_calls(fixture *f, sgrt_writer bw)
{
    sgrt_scene *s = f->s;
    static const char k[] = "writer";
    float m[3][16];
    for (int i = 0; i < 3; i++)
        translation(5, 5, 5, m[i]);
    const float t[9] = {0}, q[12] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1},
                sc[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
    uint32_t bad = 33;
    REFUSED(sgrt_writer_set_local(s, bw, m[0], &bad), "sgrt_writer_set_local", "w", k);
    REFUSED(sgrt_writer_set_trs(s, bw, t, q, sc, &bad), "sgrt_writer_set_trs", "w", k);
    CHECK_EQ_U(bad, 33);
    float *locals = NULL;
    const uint32_t *slots = NULL;
    REFUSED(sgrt_writer_begin(s, bw, &locals, &slots), "sgrt_writer_begin", "w", k);
    CHECK(!locals && !slots);
    REFUSED(sgrt_writer_commit(s, bw, 0, 1), "sgrt_writer_commit", "w", k);
    if (current_bad == ZERO)
        QUIET(sgrt_writer_destroy(s, bw));
    else
        REFUSED(sgrt_writer_destroy(s, bw), "sgrt_writer_destroy", "w", k);
    CHECK_EQ_U(sgrt_scene_update(s), 0); /* nothing was written */
}

static void skin_calls(fixture *f, sgrt_skin bk)
{
    sgrt_scene *s = f->s;
    static const char k[] = "skin";
    uint32_t joints = 44;
    REFUSED_ANSWER(sgrt_skin_palette(s, bk, &joints) == NULL && joints == 0u,
                   "sgrt_skin_palette", "k", k);
    joints = 44;
    REFUSED_ANSWER(sgrt_skin_normals(s, bk, &joints) == NULL && joints == 0u,
                   "sgrt_skin_normals", "k", k);
    REFUSED_ANSWER(sgrt_skin_prev_palette(s, bk, NULL) == NULL, "sgrt_skin_prev_palette", "k",
                   k);
    sgrt_range r[4];
    uint32_t n = 77;
    bool more = true;
    REFUSED(sgrt_skin_collect(s, bk, r, 4, 0, &n, &more), "sgrt_skin_collect", "k", k);
    CHECK(n == 0 && !more);
    if (current_bad == ZERO)
        QUIET(sgrt_skin_destroy(s, bk));
    else
        REFUSED(sgrt_skin_destroy(s, bk), "sgrt_skin_destroy", "k", k);
}

static void test_every_call(void)
{
    static const char *const kinds[4] = {"tracker", "node set", "writer", "skin"};
    for (int b = 0; b < BADNESS_COUNT; b++)
        for (int kind = 0; kind < 4; kind++) {
            fixture f;
            fixture_make(&f);
            test_alloc tb;
            sgrt_scene *other = new_scene_alloc(&tb);
            current_bad = (badness)b;
            char what[96];
            snprintf(what, sizeof what, "a %s %s", kinds[kind], badness_name[b]);
            /* The bad handle is made first: a destroyed one is freed
             * memory from here on. */
            const uint32_t bad = bad_id(&f, other, kind, (badness)b);
            const uint64_t frees = f.ta.frees, calls = f.ta.calls;
            if (kind == 0)
                tracker_calls(&f, (sgrt_tracker){bad});
            else if (kind == 1)
                nodeset_calls(&f, (sgrt_nodeset){bad});
            else if (kind == 2)
                writer_calls(&f, (sgrt_writer){bad});
            else
                skin_calls(&f, (sgrt_skin){bad});
            /* The zero case creates and destroys a set of its own. */
            if (!(kind == 1 && b == ZERO)) {
                CHECK_MSG(f.ta.frees == frees && f.ta.calls == calls,
                          "%s: refused calls allocated or freed", what);
            }
            fixture_intact(&f, what);
            end_scene_alloc(other, &tb);
            end_scene_alloc(f.s, &f.ta);
        }
}

/* ---- reuse of a table index ----------------------------------------------------- */

/* The table's index of a live object (white-box). */
static uint32_t index_of(const sgrt_scene *s, uint32_t id)
{
    return (id ^ s->obj_salt) & SGRT__OBJ_INDEX_MASK;
}

/* Indices are taken again only past 256 free ones, first-in first-out: with
 * 300 destroyed trackers, a new node set takes the first one's index, and
 * the first tracker's handle is still refused (as destroyed) while the set
 * works; the same for a tracker taking a destroyed tracker's index. */
static void test_index_reuse(void)
{
    test_alloc ta;
    sgrt_scene *s = logged_scene(&ta, 0);
    sgrt_node n;
    OK(sgrt_node_create(s, SGRT_NULL_NODE, &n));
    enum { MANY = 300 };
    sgrt_tracker t[MANY];
    for (int i = 0; i < MANY; i++)
        OK(sgrt_tracker_create(s, &t[i]));
    for (int i = 0; i < MANY; i++)
        OK(sgrt_tracker_destroy(s, t[i]));
    sgrt_nodeset set;
    OK(sgrt_nodeset_create(s, &set));
    CHECK_EQ_U(index_of(s, set.id), index_of(s, t[0].id));
    CHECK(set.id != t[0].id);
    OK(sgrt_nodeset_add(s, set, n));
    CHECK(sgrt_nodeset_has(s, set, n));
    current_bad = DESTROYED;
    sgrt_range r[2];
    uint32_t got;
    bool more;
    REFUSED(sgrt_tracker_collect(s, t[0], r, 2, 0, &got, &more), "sgrt_tracker_collect", "t",
            "tracker");
    REFUSED(sgrt_tracker_destroy(s, t[0]), "sgrt_tracker_destroy", "t", "tracker");
    /* The set's id, taken as a tracker: another kind, not a destroyed one. */
    current_bad = OTHER_KIND;
    REFUSED(sgrt_tracker_check(s, (sgrt_tracker){set.id}, NULL), "sgrt_tracker_check", "t",
            "tracker");
    sgrt_tracker again;
    OK(sgrt_tracker_create(s, &again));
    CHECK_EQ_U(index_of(s, again.id), index_of(s, t[1].id));
    CHECK(again.id != t[1].id);
    OK(sgrt_tracker_check(s, again, NULL));
    current_bad = DESTROYED;
    REFUSED(sgrt_tracker_check(s, t[1], NULL), "sgrt_tracker_check", "t", "tracker");
    /* Destroying the new object through the old handle frees nothing. */
    const uint64_t frees = ta.frees;
    REFUSED(sgrt_tracker_destroy(s, t[1]), "sgrt_tracker_destroy", "t", "tracker");
    CHECK_EQ_U(ta.frees, frees);
    OK(sgrt_tracker_check(s, again, NULL));
    end_scene_alloc(s, &ta);
}

/* ---- the generation period ------------------------------------------------------ */

/* The fastest way back to an old id: 257 objects destroyed (the reserve and
 * one), then one created and destroyed at a time, each taking the front
 * index. Index 0 comes to the front every 257 destructions and its first id
 * returns after its 8,191 generations: 8,191 x 257 = 2,105,087
 * destructions counting the one that freed it, as sgrt.h promises. Driven
 * through the table's own take and release (white-box, no allocation), so
 * that it takes a fraction of a second in every build. */
static void test_generation_period(void)
{
    sgrt_scene *s = new_scene();
    static int object; /* what the entries point to: never read */
    const uint32_t first = SGRT__OBJ_MIN_FREE + 1u;
    uint32_t *ids = calloc(first, sizeof *ids);
    REQUIRE(ids);
    for (uint32_t i = 0; i < first; i++) {
        REQUIRE_RES(sgrt__object_ensure(s, "test"), SGRT_OK);
        ids[i] = sgrt__object_take(s, SGRT__KIND_WRITER, &object);
    }
    for (uint32_t i = 0; i < first; i++)
        sgrt__object_release(s, ids[i]);
    const uint32_t h0 = ids[0];
    uint64_t destroys = first, back = 0;
    uint32_t ids_of_index0 = 1;
    for (uint64_t turn = 0; turn < (uint64_t)SGRT__OBJ_GEN_PERIOD * first + 2u && !back; turn++) {
        /* Plain tests in the loop: four million counted checks would
         * drown the others in the totals. */
        if (sgrt__object_ensure(s, "test") != SGRT_OK)
            FAIL("generation period: the table could not take object %llu",
                 (unsigned long long)turn);
        const uint32_t id = sgrt__object_take(s, SGRT__KIND_WRITER, &object);
        if (id == h0) {
            back = destroys; /* h0's own destroy was the first */
            CHECK(sgrt__object_get(s, h0, SGRT__KIND_WRITER) == &object);
        } else {
            if (index_of(s, id) == index_of(s, h0))
                ids_of_index0++;
            if (sgrt__object_get(s, h0, SGRT__KIND_WRITER) != NULL)
                FAIL("generation period: the first id came back after %llu destructions",
                     (unsigned long long)destroys);
        }
        sgrt__object_release(s, id);
        destroys++;
    }
    CHECK_EQ_U(back, (uint64_t)SGRT__OBJ_GEN_PERIOD * first);
    CHECK_EQ_U(back, 2105087u); /* the figure sgrt.h states */
    CHECK_EQ_U(ids_of_index0, SGRT__OBJ_GEN_PERIOD);
    CHECK_EQ_U(s->obj_used, first);
    printf("generation period: a destroyed object's handle names an object again after %llu "
           "destructions (%u ids of its index)\n",
           (unsigned long long)back, (unsigned)ids_of_index0);
    free(ids);
    sgrt_scene_destroy(s);
}

/* ---- capacity and allocation failures ------------------------------------------- */

static void test_capacity(void)
{
    test_alloc ta;
    sgrt_scene *s = logged_scene(&ta, 0);
    sgrt_node n;
    OK(sgrt_node_create(s, SGRT_NULL_NODE, &n));
    sgrt_writer *w = malloc(SGRT_MAX_OBJECTS * sizeof *w);
    REQUIRE(w);
    sgrt_result r = SGRT_OK;
    uint32_t made = 0;
    while (made < SGRT_MAX_OBJECTS && (r = sgrt_writer_create(s, 1, &n, 0, &w[made])) == SGRT_OK)
        made++;
    CHECK_RES(r, SGRT_OK);
    CHECK_EQ_U(made, SGRT_MAX_OBJECTS);
    sgrt_writer wx = SGRT_NULL_WRITER;
    sgrt_tracker tx = SGRT_NULL_TRACKER;
    sgrt_nodeset sx = SGRT_NULL_NODESET;
    sgrt_skin kx = SGRT_NULL_SKIN;
    const sgrt_skin_desc kd = {1, &n, NULL, SGRT_NULL_NODE, 0};
    memset(&L, 0, sizeof L);
    CHECK_RES(sgrt_writer_create(s, 1, &n, 0, &wx), SGRT_ERR_CAPACITY);
    CHECK(L.count == 1 && strstr(L.message, "SGRT_MAX_OBJECTS"));
    CHECK_RES(sgrt_tracker_create(s, &tx), SGRT_ERR_CAPACITY);
    CHECK_RES(sgrt_nodeset_create(s, &sx), SGRT_ERR_CAPACITY);
    CHECK_RES(sgrt_skin_create(s, &kd, &kx), SGRT_ERR_CAPACITY);
    CHECK(wx.id == 0u && tx.id == 0u && sx.id == 0u && kx.id == 0u);
    check_scene(s);
    /* One destroyed: the next create takes a fresh index or a free one. */
    OK(sgrt_writer_destroy(s, w[12345]));
    OK(sgrt_tracker_create(s, &tx));
    CHECK_RES(sgrt_nodeset_create(s, &sx), SGRT_ERR_CAPACITY);
    /* Many destroyed: indices are reused past the reserve. */
    for (uint32_t i = 0; i < 1000; i++)
        OK(sgrt_writer_destroy(s, w[i]));
    for (uint32_t i = 0; i < 1000; i++)
        OK(sgrt_writer_create(s, 1, &n, 0, &w[i]));
    CHECK_RES(sgrt_writer_create(s, 1, &n, 0, &wx), SGRT_ERR_CAPACITY);
    check_scene(s);
    free(w);
    end_scene_alloc(s, &ta); /* the scene frees them all */
}

/* The table's growth fails: the create fails with NOMEM, writes nothing to
 * *out, and changes nothing; then it works. */
static void test_table_nomem(void)
{
    for (uint32_t have = 0; have < 20; have++) {
        test_alloc ta;
        sgrt_scene *s = new_scene_alloc(&ta);
        sgrt_node n;
        OK(sgrt_node_create(s, SGRT_NULL_NODE, &n));
        sgrt_writer w[20];
        for (uint32_t i = 0; i < have; i++)
            OK(sgrt_writer_create(s, 1, &n, 0, &w[i]));
        for (int kind = 0; kind < 4; kind++) {
            sgrt_tracker t = {77};
            sgrt_nodeset set = {77};
            sgrt_writer x = {77};
            sgrt_skin k = {77};
            const sgrt_skin_desc kd = {1, &n, NULL, SGRT_NULL_NODE, 0};
            ta.fail_at = ta.calls + 1u; /* the first allocation of the create */
            const sgrt_result r = kind == 0   ? sgrt_tracker_create(s, &t)
                                  : kind == 1 ? sgrt_nodeset_create(s, &set)
                                  : kind == 2 ? sgrt_writer_create(s, 1, &n, 0, &x)
                                              : sgrt_skin_create(s, &kd, &k);
            ta.fail_at = 0;
            CHECK_RES(r, SGRT_ERR_NOMEM);
            CHECK(t.id == 77u && set.id == 77u && x.id == 77u && k.id == 77u);
            check_scene(s);
        }
        for (uint32_t i = 0; i < have; i++)
            OK(sgrt_writer_destroy(s, w[i]));
        end_scene_alloc(s, &ta);
    }
}

int main(void)
{
    test_every_call();
    test_index_reuse();
    test_generation_period();
    test_capacity();
    test_table_nomem();
    return test_report("test_objects");
}
