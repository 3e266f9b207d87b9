/* SPDX-License-Identifier: MIT */
/* sgrt_scene_dump, read back:
 *
 *  - the library's float formatting equals printf's "%.9g" to the byte, on
 *    special values, every power of two, the edges of the fixed/scientific
 *    switch, and random bit patterns, and reads back to the same bits;
 *  - the JSON output parses (a small strict parser here) and holds every
 *    live node once, parents first, with its id, slot, parent, user value,
 *    translations (bit for bit) and dirty flag, the flag checked against
 *    the slots the next update actually recomputes (seen by a tracker);
 *  - the DOT output has one node line per live node and one edge per
 *    parent link, dirty nodes drawn red;
 *  - a writer that returns non-zero is not called again and the dump
 *    returns SGRT_ERR_WRITE; NULL arguments and unknown formats are refused
 *    before anything is written; the dump never allocates. */
#include "internal.h" /* sgrt__format_float */
#include "debug/dump.h"
#include "testutil.h"

static rng R = {0xD0A7D0A7ull};

/* ---- floats ------------------------------------------------------------------- */

static void check_format(float f)
{
    char got[16], want[48];
    const uint32_t len = sgrt__format_float(f, got);
    snprintf(want, sizeof want, "%.9g", (double)f);
    CHECK_MSG(strcmp(got, want) == 0 && len == strlen(want),
              "0x%08x: formatted \"%s\" (length %u), printf gives \"%s\"",
              (unsigned)float_bits(f), got, (unsigned)len, want);
    const float back = strtof(got, NULL);
    CHECK_MSG(float_bits(back) == float_bits(f), "0x%08x: \"%s\" reads back as 0x%08x",
              (unsigned)float_bits(f), got, (unsigned)float_bits(back));
}

static void test_float_format(void)
{
    static const uint32_t special[] = {
        0x00000000u, 0x80000000u, 0x00000001u, 0x80000001u, 0x007FFFFFu, 0x00800000u,
        0x7F7FFFFFu, 0xFF7FFFFFu, 0x3F800000u, 0x3F800001u, 0x3F7FFFFFu, 0x4B7FFFFFu,
        0x4B800000u, 0x4E6E6B28u /* 1e9 */, 0x4E6E6B27u, 0x38D1B717u /* 1e-4 */, 0x38D1B716u,
        0x3DCCCCCDu /* 0.1 */, 0x3EAAAAABu /* 1/3 */, 0x4CBEBC20u /* 1e8 */, 0x4E6E6B29u,
    };
    for (size_t i = 0; i < sizeof special / sizeof special[0]; i++)
        check_format(bits_float(special[i]));
    for (uint32_t e = 1; e < 255; e++)
        for (uint32_t m = 0; m < 4; m++) {
            check_format(bits_float(e << 23 | m));
            check_format(bits_float(e << 23 | (0x7FFFFFu - m)));
        }
    /* Around the fixed/scientific switch (10^-5 .. 10^-4, 10^8 .. 10^9) and
     * integers with more than nine digits (ties in the tenth digit). */
    for (int i = 0; i < 2000; i++) {
        check_format(bits_float(0x38D1B717u - 1000u + (uint32_t)i));
        check_format(bits_float(0x4E6E6B28u - 1000u + (uint32_t)i));
        check_format((float)(1073741824.0 + 128.0 * i));
    }
    for (int i = 0; i < 200000; i++) {
        const uint32_t u = (uint32_t)rng_next(&R);
        if (((u >> 23) & 0xFFu) != 0xFFu)
            check_format(bits_float(u));
    }
    char out[16];
    sgrt__format_float(bits_float(0x7F800000u), out);
    CHECK(strcmp(out, "inf") == 0);
    sgrt__format_float(bits_float(0xFF800000u), out);
    CHECK(strcmp(out, "-inf") == 0);
    sgrt__format_float(bits_float(0x7FC00000u), out);
    CHECK(strcmp(out, "nan") == 0);
    sgrt__format_float(bits_float(0xFFC00001u), out);
    CHECK(strcmp(out, "nan") == 0);
}

/* ---- writers -------------------------------------------------------------------- */

typedef struct sink {
    char *buf;
    size_t len, cap;
    uint32_t calls, fail_at; /* fail_at: the call (1-based) that returns non-zero */
    uint32_t calls_after_failure, bad_lengths;
} sink;

static int sink_write(void *user, const char *bytes, size_t len)
{
    sink *k = user;
    k->calls++;
    if (k->fail_at && k->calls > k->fail_at)
        k->calls_after_failure++;
    if (len == 0 || len > 1024)
        k->bad_lengths++;
    if (k->len + len + 1 > k->cap) {
        k->cap = (k->len + len + 1) * 2;
        k->buf = realloc(k->buf, k->cap);
        if (!k->buf) {
            fprintf(stderr, "out of memory\n");
            exit(1);
        }
    }
    memcpy(k->buf + k->len, bytes, len);
    k->len += len;
    k->buf[k->len] = '\0';
    return k->fail_at && k->calls == k->fail_at ? 1 : 0;
}

static char *dump(const sgrt_scene *s, sgrt_dump_format format, sink *k)
{
    memset(k, 0, sizeof *k);
    OK(sgrt_scene_dump(s, sink_write, k, format));
    CHECK_EQ_U(k->bad_lengths, 0);
    CHECK(k->buf != NULL);
    return k->buf;
}

/* ---- a small strict JSON parser ------------------------------------------------ */

typedef enum { J_NULL, J_FALSE, J_TRUE, J_NUM, J_STR, J_ARR, J_OBJ } jtype;

typedef struct jval {
    jtype type;
    const char *text; /* J_NUM, J_STR: the token (a string without quotes) */
    size_t len;
    struct jval *items; /* J_ARR: elements; J_OBJ: values */
    const char **keys;  /* J_OBJ */
    size_t *key_lens;
    size_t count;
} jval;

typedef struct jparser {
    const char *p;
    bool bad;
} jparser;

static void jskip(jparser *j)
{
    while (*j->p == ' ' || *j->p == '\n' || *j->p == '\r' || *j->p == '\t')
        j->p++;
}

static bool jliteral(jparser *j, const char *word)
{
    const size_t n = strlen(word);
    if (strncmp(j->p, word, n) != 0)
        return false;
    j->p += n;
    return true;
}

static void jstring(jparser *j, const char **text, size_t *len)
{
    j->p++; /* the opening quote */
    *text = j->p;
    while (*j->p && *j->p != '"') {
        if ((unsigned char)*j->p < 0x20 || *j->p == '\\')
            j->bad = true; /* the dump writes no escapes or control characters */
        j->p++;
    }
    if (*j->p != '"')
        j->bad = true;
    *len = (size_t)(j->p - *text);
    if (*j->p)
        j->p++;
}

/* JSON's number grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? */
static void jnumber(jparser *j, jval *v)
{
    const char *s = j->p;
    if (*j->p == '-')
        j->p++;
    if (*j->p == '0')
        j->p++;
    else if (*j->p >= '1' && *j->p <= '9')
        while (*j->p >= '0' && *j->p <= '9')
            j->p++;
    else
        j->bad = true;
    if (*j->p == '.') {
        j->p++;
        if (!(*j->p >= '0' && *j->p <= '9'))
            j->bad = true;
        while (*j->p >= '0' && *j->p <= '9')
            j->p++;
    }
    if (*j->p == 'e' || *j->p == 'E') {
        j->p++;
        if (*j->p == '+' || *j->p == '-')
            j->p++;
        if (!(*j->p >= '0' && *j->p <= '9'))
            j->bad = true;
        while (*j->p >= '0' && *j->p <= '9')
            j->p++;
    }
    v->type = J_NUM;
    v->text = s;
    v->len = (size_t)(j->p - s);
}

static void jvalue(jparser *j, jval *v);

static void jpush(jval *v, size_t *cap)
{
    if (v->count == *cap) {
        *cap = *cap ? *cap * 2 : 8;
        v->items = realloc(v->items, *cap * sizeof *v->items);
        v->keys = realloc(v->keys, *cap * sizeof *v->keys);
        v->key_lens = realloc(v->key_lens, *cap * sizeof *v->key_lens);
        if (!v->items || !v->keys || !v->key_lens) {
            fprintf(stderr, "out of memory\n");
            exit(1);
        }
    }
}

static void jvalue(jparser *j, jval *v)
{
    memset(v, 0, sizeof *v);
    jskip(j);
    size_t cap = 0;
    const char c = *j->p;
    if (c == '{' || c == '[') {
        const bool obj = c == '{';
        v->type = obj ? J_OBJ : J_ARR;
        j->p++;
        jskip(j);
        if (*j->p == (obj ? '}' : ']')) {
            j->p++;
            return;
        }
        while (!j->bad) {
            jpush(v, &cap);
            if (obj) {
                jskip(j);
                if (*j->p != '"') {
                    j->bad = true;
                    return;
                }
                jstring(j, &v->keys[v->count], &v->key_lens[v->count]);
                jskip(j);
                if (*j->p++ != ':') {
                    j->bad = true;
                    return;
                }
            }
            jvalue(j, &v->items[v->count++]);
            jskip(j);
            if (*j->p == ',') {
                j->p++;
                continue;
            }
            if (*j->p != (obj ? '}' : ']'))
                j->bad = true;
            else
                j->p++;
            return;
        }
    } else if (c == '"') {
        v->type = J_STR;
        jstring(j, &v->text, &v->len);
    } else if (c == '-' || (c >= '0' && c <= '9')) {
        jnumber(j, v);
    } else if (jliteral(j, "true")) {
        v->type = J_TRUE;
    } else if (jliteral(j, "false")) {
        v->type = J_FALSE;
    } else if (jliteral(j, "null")) {
        v->type = J_NULL;
    } else {
        j->bad = true;
    }
}

static void jfree(jval *v)
{
    for (size_t i = 0; v->type >= J_ARR && i < v->count; i++)
        jfree(&v->items[i]);
    free(v->items);
    free(v->keys);
    free(v->key_lens);
}

/* The whole text is one value, nothing after it. */
static bool jparse(const char *text, jval *out)
{
    jparser j = {text, false};
    jvalue(&j, out);
    jskip(&j);
    return !j.bad && *j.p == '\0';
}

static const jval *jget(const jval *obj, const char *key)
{
    for (size_t i = 0; obj && obj->type == J_OBJ && i < obj->count; i++)
        if (obj->key_lens[i] == strlen(key) && strncmp(obj->keys[i], key, obj->key_lens[i]) == 0)
            return &obj->items[i];
    return NULL;
}

static bool jis_integer(const jval *v)
{
    if (!v || v->type != J_NUM || v->len == 0 || v->len > 20)
        return false;
    for (size_t i = 0; i < v->len; i++)
        if (v->text[i] < '0' || v->text[i] > '9')
            return false;
    return true;
}

static uint64_t ju64(const jval *v)
{
    CHECK(jis_integer(v));
    return jis_integer(v) ? strtoull(v->text, NULL, 10) : UINT64_MAX;
}

/* A float entry: a number read back with strtof, or null for non-finite. */
static bool jfloat_matches(const jval *v, float want)
{
    if (!v)
        return false;
    if (v->type == J_NULL)
        return !isfinite(want);
    if (v->type != J_NUM)
        return false;
    char tmp[48];
    if (v->len >= sizeof tmp)
        return false;
    memcpy(tmp, v->text, v->len);
    tmp[v->len] = '\0';
    return isfinite(want) && float_bits(strtof(tmp, NULL)) == float_bits(want);
}

static bool jtriple_matches(const jval *v, const float *m)
{
    if (!v || v->type != J_ARR || v->count != 3)
        return false;
    for (int i = 0; i < 3; i++)
        if (!jfloat_matches(&v->items[i], m[12 + i]))
            return false;
    return true;
}

/* ---- scenes ------------------------------------------------------------------------ */

enum { MAXN = 3000 };

typedef struct scene_under_test {
    sgrt_scene *s;
    sgrt_tracker t;
    sgrt_node h[MAXN];
    uint32_t n;
} scene_under_test;

/* A random forest, some of it moved, created or re-parented after the last
 * update (dirty, some only through a pending closure), user values of all
 * sizes, a few destroyed nodes (holes). */
static void build(scene_under_test *u, uint32_t flags, uint32_t nodes)
{
    sgrt_scene_desc d;
    memset(&d, 0, sizeof d);
    d.flags = flags;
    u->s = new_scene_desc(&d);
    u->n = 0;
    OK(sgrt_tracker_create(u->s, &u->t));
    for (uint32_t i = 0; i < nodes; i++) {
        const bool root = i == 0 || rng_below(&R, 20) == 0;
        OK(sgrt_node_create(u->s, root ? SGRT_NULL_NODE : u->h[rng_below(&R, u->n)], &u->h[u->n]));
        float m[16];
        random_affine(&R, m);
        OK(sgrt_node_set_local(u->s, u->h[u->n], m));
        const uint64_t user = rng_below(&R, 3) == 0 ? rng_next(&R) : rng_below(&R, 1000);
        OK(sgrt_node_set_user(u->s, u->h[u->n], user));
        u->n++;
    }
    sgrt_scene_update(u->s);
    for (uint32_t k = 0; k < nodes / 10; k++) {
        float m[16];
        random_affine(&R, m);
        OK_OR(sgrt_node_set_local(u->s, u->h[rng_below(&R, u->n)], m), /* may be dead */
              SGRT_ERR_STALE_HANDLE);
    }
    sgrt_scene_update(u->s); /* a previous world that differs from the world */
    for (uint32_t k = 0; k < nodes / 50 + 1; k++) {
        const sgrt_node victim = u->h[u->n > 1 ? 1 + rng_below(&R, u->n - 1) : 0];
        if (u->n > 1 && sgrt_node_alive(u->s, victim))
            OK(sgrt_node_destroy(u->s, victim));
        float m[16];
        random_affine(&R, m);
        OK_OR(sgrt_node_set_local(u->s, u->h[rng_below(&R, u->n)], m), SGRT_ERR_STALE_HANDLE);
        if (u->n < MAXN) {
            const sgrt_node p = u->h[rng_below(&R, u->n)];
            if (sgrt_node_alive(u->s, p) && sgrt_node_create(u->s, p, &u->h[u->n]) == SGRT_OK)
                u->n++;
        }
        const sgrt_node a = u->h[rng_below(&R, u->n)], b = u->h[rng_below(&R, u->n)];
        if (sgrt_node_alive(u->s, a) && sgrt_node_alive(u->s, b))
            OK_OR(sgrt_node_set_parent(u->s, a, b, SGRT_KEEP_LOCAL), SGRT_ERR_CYCLE);
    }
}

/* The slots the next update recomputes, as its tracker reports them (in a
 * scene without previous worlds, where an update reports nothing else):
 * drain the tracker, update, collect. Returns the update's count. */
static uint32_t recomputed_by_next_update(scene_under_test *u, uint8_t *out, uint32_t slots)
{
    sgrt_range r[64];
    bool more;
    do
        test_collect(u->s, u->t, r, 64, 0, &more);
    while (more);
    const uint32_t count = sgrt_scene_update(u->s);
    memset(out, 0, slots);
    do {
        const uint32_t n = test_collect(u->s, u->t, r, 64, 0, &more);
        for (uint32_t i = 0; i < n; i++)
            for (uint32_t k = 0; k < r[i].count; k++)
                if (r[i].first + k < slots)
                    out[r[i].first + k] = 1;
    } while (more);
    return count;
}

static void test_json(uint32_t flags, uint32_t nodes)
{
    scene_under_test *u = calloc(1, sizeof *u);
    REQUIRE(u);
    build(u, flags, nodes);
    const bool prev = flags & SGRT_SCENE_PREV_WORLD;
    uint32_t slots = 0;
    const float *world = sgrt_scene_world_array(u->s, &slots);
    const float *pw = sgrt_scene_prev_world_array(u->s, NULL);
    sink k;
    char *text = dump(u->s, SGRT_DUMP_JSON, &k);
    jval root;
    const bool parsed = jparse(text, &root);
    CHECK_MSG(parsed, "the JSON dump does not parse");
    const jval *list = jget(&root, "nodes");
    CHECK(parsed && jget(&root, "format") && jget(&root, "format")->type == J_STR);
    CHECK(jget(&root, "version") && ju64(jget(&root, "version")) == 1);
    CHECK(jget(&root, "node_count") && ju64(jget(&root, "node_count")) == sgrt_scene_node_count(u->s));
    CHECK(jget(&root, "slot_count") && ju64(jget(&root, "slot_count")) == slots);
    CHECK(jget(&root, "prev_world") && jget(&root, "prev_world")->type == (prev ? J_TRUE : J_FALSE));
    CHECK(list && list->type == J_ARR && list->count == sgrt_scene_node_count(u->s));
    /* Every entry against the scene; the dirty flags after the update. */
    uint8_t *seen = calloc(slots + 1u, 1), *recomputed = calloc(slots + 1u, 1);
    uint8_t *dirty = calloc(slots + 1u, 1);
    REQUIRE(seen && recomputed && dirty);
    uint32_t bad = 0;
    for (size_t i = 0; list && list->type == J_ARR && i < list->count; i++) {
        const jval *e = &list->items[i];
        const uint64_t id = ju64(jget(e, "id")), slot = ju64(jget(e, "slot"));
        const uint64_t parent = ju64(jget(e, "parent")), user = ju64(jget(e, "user"));
        const sgrt_node n = {(uint32_t)id};
        uint32_t real_slot = UINT32_MAX;
        sgrt_node real_parent = SGRT_NULL_NODE;
        uint64_t real_user = 0;
        const bool ok = id <= UINT32_MAX && sgrt_node_slot(u->s, n, &real_slot) == SGRT_OK &&
                        sgrt_node_parent(u->s, n, &real_parent) == SGRT_OK &&
                        sgrt_node_user(u->s, n, &real_user) == SGRT_OK;
        const jval *dv = jget(e, "dirty");
        bool entry_ok = ok && slot < slots && !seen[slot] && parent == real_parent.id &&
                        user == real_user && dv && (dv->type == J_TRUE || dv->type == J_FALSE);
        if (entry_ok && parent) {
            uint32_t ps = UINT32_MAX;
            entry_ok = sgrt_node_slot(u->s, real_parent, &ps) == SGRT_OK && seen[ps];
        }
        if (entry_ok) {
            float local[16];
            OK(sgrt_node_local(u->s, n, local));
            entry_ok = jtriple_matches(jget(e, "local_t"), local) &&
                       jtriple_matches(jget(e, "world_t"), world + 16u * slot) &&
                       (prev ? jtriple_matches(jget(e, "prev_t"), pw + 16u * slot)
                             : jget(e, "prev_t") == NULL) &&
                       e->count == (prev ? 8u : 7u);
            seen[slot] = 1;
            dirty[slot] = dv->type == J_TRUE;
        }
        if (!entry_ok && bad++ < 3)
            fprintf(stderr, "JSON entry %zu (id %llu) does not match the scene\n", i,
                    (unsigned long long)id);
    }
    CHECK_MSG(bad == 0, "%u JSON entries do not match the scene", bad);
    const uint32_t live = sgrt_scene_node_count(u->s);
    const uint32_t count = recomputed_by_next_update(u, recomputed, slots);
    uint32_t wrong = 0, dirty_count = 0;
    for (uint32_t sl = 0; sl < slots; sl++) {
        wrong += !prev && seen[sl] && dirty[sl] != recomputed[sl];
        dirty_count += dirty[sl];
    }
    CHECK_MSG(wrong == 0, "%u dirty flags disagree with what the next update recomputed", wrong);
    CHECK_EQ_U(dirty_count, count);
    CHECK(live < 10 || (dirty_count > 0 && dirty_count < live));
    if (parsed)
        jfree(&root);
    free(seen);
    free(recomputed);
    free(dirty);
    free(k.buf);
    sgrt_scene_destroy(u->s);
    free(u);
}

/* DOT: one node line per live node, one edge per parent link. */
static void test_dot(void)
{
    scene_under_test *u = calloc(1, sizeof *u);
    REQUIRE(u);
    build(u, 0, 500);
    sink k;
    char *text = dump(u->s, SGRT_DUMP_DOT, &k);
    const uint32_t live = sgrt_scene_node_count(u->s);
    uint32_t nodes = 0, edges = 0, roots = 0, bad = 0, other = 0, red = 0, dirty = 0;
    for (uint32_t i = 0; i < u->n; i++) {
        sgrt_node p;
        if (sgrt_node_parent(u->s, u->h[i], &p) == SGRT_OK)
            roots += p.id == 0;
    }
    uint32_t *node_ids = calloc(live + 1u, sizeof *node_ids);
    REQUIRE(node_ids);
    CHECK(strncmp(text, "digraph sgrt {\n", 15) == 0);
    CHECK(k.len >= 2 && strcmp(text + k.len - 2, "}\n") == 0);
    for (char *line = text; *line;) {
        char *end = strchr(line, '\n');
        REQUIRE(end);
        *end = '\0';
        unsigned a, b;
        int used = 0;
        if (sscanf(line, "  n%u -> n%u;%n", &a, &b, &used) == 2 && line[used] == '\0') {
            sgrt_node parent;
            const sgrt_node child = {b};
            edges++;
            bad += sgrt_node_parent(u->s, child, &parent) != SGRT_OK || parent.id != a;
        } else if (sscanf(line, "  n%u [label=\"%n", &a, &used) == 1 && used > 0) {
            const sgrt_node n = {a};
            if (nodes < live)
                node_ids[nodes] = a;
            nodes++;
            bad += !sgrt_node_alive(u->s, n);
            const bool is_red = strstr(line, "color=red") != NULL;
            const bool says_dirty = strstr(line, ", dirty\\n") != NULL;
            red += is_red;
            dirty += says_dirty;
            bad += is_red != says_dirty || strcmp(line + strlen(line) - 2, "];") != 0;
        } else {
            other++;
        }
        line = end + 1;
    }
    CHECK_EQ_U(nodes, live);
    CHECK_EQ_U(edges, live - roots);
    CHECK_EQ_U(bad, 0);
    CHECK_EQ_U(other, 3); /* digraph, the node style, the closing brace */
    CHECK(red > 0 && red < live);
    CHECK_EQ_U(dirty, red);
    /* Each live node exactly once. */
    uint32_t dup = 0;
    for (uint32_t i = 0; i < nodes && i < live; i++)
        for (uint32_t j = i + 1; j < nodes && j < live; j++)
            dup += node_ids[i] == node_ids[j];
    CHECK_EQ_U(dup, 0);
    free(node_ids);
    free(k.buf);
    sgrt_scene_destroy(u->s);
    free(u);
}

/* Non-finite worlds: null in JSON, inf/nan in DOT; an empty scene. */
static void test_edges(void)
{
    sgrt_scene *s = new_scene();
    sink k;
    jval root;
    char *text = dump(s, SGRT_DUMP_JSON, &k);
    CHECK(jparse(text, &root));
    CHECK(jget(&root, "nodes") && jget(&root, "nodes")->count == 0);
    jfree(&root);
    free(k.buf);
    text = dump(s, SGRT_DUMP_DOT, &k);
    CHECK(strcmp(text, "digraph sgrt {\n  node [shape=box, fontname=\"monospace\"];\n}\n") == 0);
    free(k.buf);

    sgrt_node a, b;
    OK(sgrt_node_create(s, SGRT_NULL_NODE, &a));
    OK(sgrt_node_create(s, a, &b));
    const float huge[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 3e38f, -3e38f, 1, 1};
    OK(sgrt_node_set_local(s, a, huge));
    OK(sgrt_node_set_local(s, b, huge)); /* world translation overflows: inf, -inf */
    sgrt_scene_update(s);
    text = dump(s, SGRT_DUMP_JSON, &k);
    CHECK(jparse(text, &root));
    const jval *list = jget(&root, "nodes");
    CHECK(list && list->count == 2);
    if (list && list->count == 2) {
        const jval *w = jget(&list->items[1], "world_t");
        CHECK(w && w->count == 3 && w->items[0].type == J_NULL && w->items[1].type == J_NULL);
        CHECK(w && w->count == 3 && w->items[2].type == J_NUM);
    }
    jfree(&root);
    free(k.buf);
    text = dump(s, SGRT_DUMP_DOT, &k);
    CHECK(strstr(text, "world t inf -inf 2\\n") || strstr(text, "world t inf -inf 2\""));
    free(k.buf);
    sgrt_scene_destroy(s);
}

/* A failing writer stops the dump; bad arguments write nothing; no
 * allocation. */
static void test_failing_writer(void)
{
    test_alloc ta;
    sgrt_scene *s = new_scene_alloc(&ta);
    sgrt_node prev = SGRT_NULL_NODE;
    for (int i = 0; i < 300; i++) {
        sgrt_node n;
        OK(sgrt_node_create(s, i % 10 ? prev : SGRT_NULL_NODE, &n));
        prev = n;
    }
    sgrt_scene_update(s);
    const uint64_t calls = ta.calls;
    for (int format = 0; format < 2; format++) {
        sink k;
        memset(&k, 0, sizeof k);
        OK(sgrt_scene_dump(s, sink_write, &k, (sgrt_dump_format)format));
        const uint32_t total = k.calls;
        CHECK(total >= 4); /* several chunks: the failures below stop early */
        free(k.buf);
        for (uint32_t at = 1; at <= 3; at++) {
            memset(&k, 0, sizeof k);
            k.fail_at = at;
            CHECK_RES(sgrt_scene_dump(s, sink_write, &k, (sgrt_dump_format)format),
                      SGRT_ERR_WRITE);
            CHECK_EQ_U(k.calls, at);
            CHECK_EQ_U(k.calls_after_failure, 0);
            free(k.buf);
        }
        memset(&k, 0, sizeof k);
        k.fail_at = total; /* the last call fails: still an error */
        CHECK_RES(sgrt_scene_dump(s, sink_write, &k, (sgrt_dump_format)format), SGRT_ERR_WRITE);
        free(k.buf);
    }
    CHECK_EQ_U(ta.calls, calls); /* never allocates */
    sink k;
    memset(&k, 0, sizeof k);
    CHECK_RES(sgrt_scene_dump(NULL, sink_write, &k, SGRT_DUMP_JSON), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_scene_dump(s, NULL, &k, SGRT_DUMP_JSON), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_scene_dump(s, sink_write, &k, (sgrt_dump_format)2), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_scene_dump(s, sink_write, &k, (sgrt_dump_format)-1), SGRT_ERR_INVALID_ARG);
    CHECK_EQ_U(k.calls, 0);
    CHECK(strstr(sgrt_result_str(SGRT_ERR_WRITE), "SGRT_ERR_WRITE") != NULL);
    end_scene_alloc(s, &ta);
}

int main(int argc, char **argv)
{
    rng_seed_from_args(&R, argc, argv, "dump");
    test_float_format();
    test_json(0, 2000);
    test_json(SGRT_SCENE_PREV_WORLD, 2000);
    test_json(0, 1);
    test_dot();
    test_edges();
    test_failing_writer();
    return test_report("dump");
}
