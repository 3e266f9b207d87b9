/* SPDX-License-Identifier: MIT */
/* The scene's lifecycle and the API's argument checking: scene options
 * (refused ones leave *out alone and allocate nothing for good), NULL
 * pointers refused by every function without changing anything, and the
 * names of the results. */
#include "testutil.h"

#include <limits.h>

static void test_result_str(void)
{
    static const struct {
        sgrt_result r;
        const char *name;
    } known[] = {
        {SGRT_OK, "SGRT_OK"},
        {SGRT_ERR_INVALID_ARG, "SGRT_ERR_INVALID_ARG"},
        {SGRT_ERR_STALE_HANDLE, "SGRT_ERR_STALE_HANDLE"},
        {SGRT_ERR_CYCLE, "SGRT_ERR_CYCLE"},
        {SGRT_ERR_NOMEM, "SGRT_ERR_NOMEM"},
        {SGRT_ERR_CAPACITY, "SGRT_ERR_CAPACITY"},
        {SGRT_ERR_SINGULAR, "SGRT_ERR_SINGULAR"},
        {SGRT_ERR_CORRUPT, "SGRT_ERR_CORRUPT"},
        {SGRT_ERR_ALIGNMENT, "SGRT_ERR_ALIGNMENT"},
        {SGRT_ERR_WRITE, "SGRT_ERR_WRITE"},
        {SGRT_ERR_PENDING, "SGRT_ERR_PENDING"},
        {SGRT_ERR_EXECUTOR, "SGRT_ERR_EXECUTOR"},
        {SGRT_ERR_SNAPSHOT, "SGRT_ERR_SNAPSHOT"},
    };
    /* A sentence that names its code, distinct for each code. */
    const size_t nk = sizeof known / sizeof known[0];
    for (size_t i = 0; i < nk; i++) {
        const char *str = sgrt_result_str(known[i].r);
        CHECK_MSG(str && strstr(str, known[i].name) && strlen(str) > strlen(known[i].name) + 8,
                  "sgrt_result_str(%d) = \"%s\", expected a sentence naming %s", (int)known[i].r,
                  str ? str : "(null)", known[i].name);
        for (size_t j = 0; str && j < i; j++)
            CHECK(strcmp(str, sgrt_result_str(known[j].r)) != 0);
    }
    static const struct {
        int code;
        const char *str;
    } unknown[] = {
        {1, "unknown result code 1"},        {5, "unknown result code 5"},
        {-13, "unknown result code -13"},    {-42, "unknown result code -42"},
        {99, "unknown result code 99"},      {-99, "unknown result code -99"},
        {10, "unknown result code 10"},      {-100, "unknown result code (outside -99..99)"},
        {100, "unknown result code (outside -99..99)"},
        {12345, "unknown result code (outside -99..99)"},
        {INT_MIN, "unknown result code (outside -99..99)"},
        {INT_MAX, "unknown result code (outside -99..99)"},
    };
    for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++) {
        const char *str = sgrt_result_str((sgrt_result)unknown[i].code);
        CHECK_MSG(str && strcmp(str, unknown[i].str) == 0, "sgrt_result_str(%d) = \"%s\"",
                  unknown[i].code, str ? str : "(null)");
    }
    /* Every code of the table names its own number. */
    for (int code = -99; code <= 99; code++) {
        if (code <= 0 && code >= SGRT_ERR_SNAPSHOT)
            continue;
        char want[40];
        snprintf(want, sizeof want, "unknown result code %d", code);
        CHECK_MSG(strcmp(sgrt_result_str((sgrt_result)code), want) == 0, "%s", want);
    }
}

static void test_desc(void)
{
    sgrt_scene *const sentinel = (sgrt_scene *)(uintptr_t)0x1234;
    test_alloc failing;
    memset(&failing, 0, sizeof failing);
    failing.fail_from = 1;
    const sgrt_allocator always_fails = test_alloc_hooks(&failing);
    const sgrt_allocator no_alloc = {NULL, test_alloc_free, &failing};
    const sgrt_allocator no_free = {test_alloc_alloc, NULL, &failing};
    const sgrt_allocator neither = {NULL, NULL, NULL};
    const struct {
        sgrt_scene_desc d;
        sgrt_result want;
    } refused[] = {
        {{.max_nodes = SGRT_MAX_NODES + 1u}, SGRT_ERR_INVALID_ARG},
        {{.max_nodes = UINT32_MAX}, SGRT_ERR_INVALID_ARG},
        {{.initial_capacity = 6, .max_nodes = 5}, SGRT_ERR_INVALID_ARG},
        {{.initial_capacity = 11, .max_nodes = 10}, SGRT_ERR_INVALID_ARG},
        /* With max_nodes 0 (= SGRT_MAX_NODES) the capacity bound is the maximum. */
        {{.initial_capacity = SGRT_MAX_NODES + 1u}, SGRT_ERR_INVALID_ARG},
        /* Both hooks or neither. */
        {{.allocator = &no_alloc}, SGRT_ERR_INVALID_ARG},
        {{.allocator = &no_free}, SGRT_ERR_INVALID_ARG},
        {{.allocator = &neither}, SGRT_ERR_INVALID_ARG},
        /* A kernel level above the highest. */
        {{.max_simd = (sgrt_simd)(SGRT_SIMD_AVX512 + 1)}, SGRT_ERR_INVALID_ARG},
        /* Flags the library does not know. */
        {{.flags = (uint32_t)SGRT_SCENE_INTERPOLATE << 1}, SGRT_ERR_INVALID_ARG},
        {{.flags = 0x80000000u | SGRT_SCENE_PREV_WORLD}, SGRT_ERR_INVALID_ARG},
        /* An allocator that always fails. */
        {{.allocator = &always_fails}, SGRT_ERR_NOMEM},
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        sgrt_scene *s = sentinel;
        CHECK_RES(sgrt_scene_create(&refused[i].d, &s), refused[i].want);
        CHECK(s == sentinel);
    }
    CHECK(failing.calls > 0);
    check_alloc_empty(&failing);
    test_alloc_release(&failing);

    /* The edges that are allowed. */
    sgrt_scene *s = sentinel;
    const sgrt_scene_desc exact = {.initial_capacity = 10, .max_nodes = 10};
    OK(sgrt_scene_create(&exact, &s));
    CHECK(s != sentinel && s != NULL);
    sgrt_scene_destroy(s);

    /* The largest max_nodes is accepted and reserves nothing up front that
     * depends on it (it would be gigabytes). */
    const sgrt_scene_desc max = {.max_nodes = SGRT_MAX_NODES};
    s = sentinel;
    REQUIRE_RES(sgrt_scene_create(&max, &s), SGRT_OK);
    REQUIRE(s != sentinel && s != NULL);
    sgrt_node n;
    OK(sgrt_node_create(s, SGRT_NULL_NODE, &n));
    CHECK_RES(sgrt_scene_reserve(s, SGRT_MAX_NODES + 1u), SGRT_ERR_CAPACITY);
    CHECK_RES(sgrt_scene_reserve(s, UINT32_MAX), SGRT_ERR_CAPACITY);
    CHECK(sgrt_scene_node_count(s) == 1);
    check_scene_where(s, "max_nodes = SGRT_MAX_NODES");
    sgrt_scene_destroy(s);
}

static void test_null_pointers(void)
{
    sgrt_scene *s = new_scene();
    sgrt_node a, b;
    OK(sgrt_node_create(s, SGRT_NULL_NODE, &a));
    OK(sgrt_node_create(s, a, &b));
    sgrt_scene_update(s);
    const sgrt_node nodes[2] = {a, b};
    snapshot before;
    snapshot_take(s, nodes, 2, &before);
    float m[16] = {2, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 3, 1, 0, 1}, out[16];
    const float t[3] = {1, 2, 3}, q[4] = {0, 0, 0, 1}, sc[3] = {1, 1, 1};
    sgrt_node o;

    CHECK_RES(sgrt_scene_create(NULL, NULL), SGRT_ERR_INVALID_ARG);
    const sgrt_scene_desc d0 = {0};
    CHECK_RES(sgrt_scene_create(&d0, NULL), SGRT_ERR_INVALID_ARG);
    sgrt_scene_destroy(NULL);
    CHECK_RES(sgrt_scene_reserve(NULL, 10), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_scene_compact(NULL), SGRT_ERR_INVALID_ARG);
    CHECK(sgrt_scene_node_count(NULL) == 0);
    CHECK(sgrt_scene_update(NULL) == 0);
    CHECK_RES(sgrt_scene_check(NULL, NULL), SGRT_ERR_INVALID_ARG);
    const char *what = "x";
    CHECK_RES(sgrt_scene_check(NULL, &what), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_scene_check(s, NULL), SGRT_OK);

    CHECK_RES(sgrt_node_create(NULL, SGRT_NULL_NODE, &o), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_node_create(s, SGRT_NULL_NODE, NULL), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_node_create(s, a, NULL), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_node_destroy(NULL, a), SGRT_ERR_INVALID_ARG);
    CHECK(!sgrt_node_alive(NULL, a));
    CHECK_RES(sgrt_node_parent(NULL, a, &o), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_node_parent(s, a, NULL), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_node_first_child(NULL, a, &o), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_node_first_child(s, a, NULL), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_node_next_sibling(NULL, a, &o), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_node_next_sibling(s, a, NULL), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_node_set_parent(NULL, b, SGRT_NULL_NODE, SGRT_KEEP_LOCAL), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_node_set_local(NULL, a, m), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_node_set_local(s, a, NULL), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_node_set_trs(NULL, a, t, q, sc), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_node_set_trs(s, a, NULL, q, sc), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_node_set_trs(s, a, t, NULL, sc), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_node_set_trs(s, a, t, q, NULL), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_node_local(NULL, a, out), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_node_local(s, a, NULL), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_node_world(NULL, a, out), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_node_world(s, a, NULL), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_node_world_now(NULL, a, out), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_node_world_now(s, a, NULL), SGRT_ERR_INVALID_ARG);

    check_unchanged(s, &before, nodes, "calls with NULL pointers");
    CHECK(sgrt_scene_update(s) == 0);
    snapshot_free(&before);
    check_scene(s);
    sgrt_scene_destroy(s);
}

int main(void)
{
    test_result_str();
    test_desc();
    test_null_pointers();
    return test_report("test_scene");
}
