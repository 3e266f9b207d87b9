/* SPDX-License-Identifier: MIT */
/* Executors that break their contract (sgrt_executor): the parallel update
 * detects what is cheap to detect, reports it through the log and leaves the
 * scene as the serial update would:
 *
 *  - a task index skipped: the calling thread runs it after run returns;
 *  - an index run twice (one after the other): the repeat does nothing;
 *  - an index outside [0, count): ignored;
 *  - the scene called from a task while run is in progress (an update, a
 *    write, a create, a read, a collect): refused with SGRT_ERR_EXECUTOR.
 *
 * Each case runs on a scene and its twin: same calls, the twin updated by
 * sgrt_scene_update. Worlds (and previous worlds), counts and tracker feed
 * must agree bit for bit, and sgrt_scene_check must pass. */
#include "testutil.h"

typedef enum misbehaviour {
    GOOD,
    SKIP_ONE,    /* never calls one index */
    TWICE,       /* calls every index twice, one pass after the other */
    STRAY,       /* also calls fn(ctx, count) */
    REENTER,     /* the first task calls back into the scene */
} misbehaviour;

typedef struct bad_exec {
    misbehaviour how;
    uint32_t runs, skip;
    sgrt_scene *s;     /* for REENTER */
    sgrt_node node;    /* a live node of s */
    sgrt_tracker t;
    uint32_t reentered; /* calls made from the task */
    uint32_t refused;   /* of those, refused with SGRT_ERR_EXECUTOR */
} bad_exec;

static void call_back(bad_exec *e)
{
    sgrt_scene *s = e->s;
    const float m[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 9, 9, 9, 1};
    float out[16];
    sgrt_node made;
    sgrt_tracker t_made = SGRT_NULL_TRACKER;
    sgrt_nodeset set_made = SGRT_NULL_NODESET;
    sgrt_writer w_made = SGRT_NULL_WRITER;
    sgrt_range r[4];
    uint32_t n;
    bool more;
    static uint8_t snap[4096];
    size_t bytes;
    const sgrt_result rs[] = {
        sgrt_node_set_local(s, e->node, m),
        sgrt_node_create(s, SGRT_NULL_NODE, &made),
        sgrt_node_create(s, e->node, &made),
        sgrt_node_destroy(s, e->node),
        sgrt_node_world(s, e->node, out),
        sgrt_tracker_collect(s, e->t, r, 4, 0, &n, &more),
        sgrt_scene_compact(s),
        sgrt_scene_check(s, NULL),
        /* Object handles read nothing while the tasks run, and no object
         * comes or goes. */
        sgrt_tracker_check(s, e->t, NULL),
        sgrt_tracker_destroy(s, e->t),
        sgrt_tracker_create(s, &t_made),
        sgrt_nodeset_create(s, &set_made),
        sgrt_writer_create(s, 1, &e->node, 0, &w_made),
        /* A snapshot reads the worlds the tasks write; a restore writes them. */
        sgrt_scene_snapshot_size(s, &bytes),
        sgrt_scene_snapshot(s, snap, sizeof snap, &bytes),
        sgrt_scene_restore(s, snap, sizeof snap),
    };
    for (size_t i = 0; i < sizeof rs / sizeof rs[0]; i++) {
        e->reentered++;
        e->refused += rs[i] == SGRT_ERR_EXECUTOR;
    }
    e->reentered += 3;
    e->refused += sgrt_scene_update(s) == 0;
    e->refused += sgrt_scene_hash(s) == 0; /* hashes nothing while the tasks write */
    const sgrt_executor inner = {NULL, NULL, 4};
    e->refused += sgrt_scene_update_parallel(s, &inner) == 0;
}

static void bad_run(void *user, uint32_t count, void (*fn)(void *ctx, uint32_t i), void *ctx)
{
    bad_exec *e = user;
    e->runs++;
    const uint32_t skip = e->skip % count;
    for (uint32_t i = 0; i < count; i++) {
        if (e->how == SKIP_ONE && i == skip)
            continue;
        if (e->how == REENTER && i == 0)
            call_back(e);
        fn(ctx, i);
    }
    if (e->how == TWICE)
        for (uint32_t i = count; i-- > 0;)
            fn(ctx, i);
    if (e->how == STRAY)
        fn(ctx, count);
}

/* ---- the log ------------------------------------------------------------------ */

typedef struct log_count {
    uint32_t entries, executor;
    char last[256];
} log_count;

static void count_log(void *user, const sgrt_log_entry *e)
{
    log_count *c = user;
    c->entries++;
    c->executor += e->code == SGRT_ERR_EXECUTOR;
    snprintf(c->last, sizeof c->last, "%s: %s", e->function, e->message);
}

/* ---- a scene and its twin ------------------------------------------------------- */

enum { NODES = 6000 };

typedef struct twin {
    sgrt_scene *s[2]; /* [0]: parallel, [1]: serial */
    sgrt_tracker t[2];
    sgrt_node n[2][NODES];
    log_count log;
} twin;

static void twin_build(twin *w, rng *r)
{
    memset(&w->log, 0, sizeof w->log);
    for (int k = 0; k < 2; k++) {
        const sgrt_scene_desc d = {.flags = SGRT_SCENE_PREV_WORLD, .log = count_log,
                                   .log_user = k ? NULL : &w->log};
        w->s[k] = new_scene_desc(&d);
        OK(sgrt_tracker_create(w->s[k], &w->t[k]));
    }
    /* Depth-first-ish random forest: several ranges, few cross links. */
    for (uint32_t i = 0; i < NODES; i++) {
        const uint32_t pick = rng_below(r, 8);
        const bool root = i == 0 || pick == 0;
        const uint32_t parent = root ? 0u : i - 1u - rng_below(r, i < 16u ? i : 16u);
        for (int k = 0; k < 2; k++)
            OK(sgrt_node_create(w->s[k], root ? SGRT_NULL_NODE : w->n[k][parent], &w->n[k][i]));
    }
}

static void twin_move(twin *w, rng *r, uint32_t moves)
{
    for (uint32_t j = 0; j < moves; j++) {
        const uint32_t i = rng_below(r, NODES);
        float m[16];
        random_affine(r, m);
        for (int k = 0; k < 2; k++)
            OK(sgrt_node_set_local(w->s[k], w->n[k][i], m));
    }
}

/* Same worlds, previous worlds and tracker ranges on both sides. */
static void twin_compare(twin *w, const char *what)
{
    uint32_t na, nb;
    const float *wa = sgrt_scene_world_array(w->s[0], &na);
    const float *wb = sgrt_scene_world_array(w->s[1], &nb);
    const float *pa = sgrt_scene_prev_world_array(w->s[0], NULL);
    const float *pb = sgrt_scene_prev_world_array(w->s[1], NULL);
    CHECK_EQ_U(na, nb);
    uint32_t diff = 0, pdiff = 0;
    for (uint32_t sl = 0; sl < na && sl < nb; sl++) {
        if (!sgrt_scene_slot_node(w->s[1], sl).id)
            continue;
        diff += memcmp(wa + 16u * sl, wb + 16u * sl, 64) != 0;
        pdiff += memcmp(pa + 16u * sl, pb + 16u * sl, 64) != 0;
    }
    CHECK_MSG(diff == 0 && pdiff == 0, "%s: %u worlds and %u previous worlds differ", what, diff,
              pdiff);
    sgrt_range ra[64], rb[64];
    bool ma, mb;
    do {
        const uint32_t ka = test_collect(w->s[0], w->t[0], ra, 64, 0, &ma);
        const uint32_t kb = test_collect(w->s[1], w->t[1], rb, 64, 0, &mb);
        CHECK_MSG(ka == kb && ma == mb && memcmp(ra, rb, ka * sizeof ra[0]) == 0,
                  "%s: the trackers were fed differently", what);
        if (ka != kb || ma != mb)
            break;
    } while (ma);
    check_scene(w->s[0]);
}

static void twin_free(twin *w)
{
    sgrt_scene_destroy(w->s[0]);
    sgrt_scene_destroy(w->s[1]);
}

/* ---- the cases -------------------------------------------------------------------- */

static void run_case(misbehaviour how, const char *name, const char *reported)
{
    rng r = {0xE8EC0000u + (uint64_t)how};
    twin *w = calloc(1, sizeof *w);
    REQUIRE(w);
    twin_build(w, &r);
    bad_exec e = {how, 0, 3, w->s[0], w->n[0][7], w->t[0], 0, 0};
    const sgrt_executor ex = {bad_run, &e, 4};
    CHECK_EQ_U(sgrt_scene_update_parallel(w->s[0], &ex), sgrt_scene_update(w->s[1]));
    twin_compare(w, name);
    for (int frame = 0; frame < 6; frame++) {
        twin_move(w, &r, 400);
        e.skip = (uint32_t)frame * 5u + 1u;
        const uint32_t logged = w->log.executor;
        const uint32_t runs = e.runs;
        CHECK_EQ_U(sgrt_scene_update_parallel(w->s[0], &ex), sgrt_scene_update(w->s[1]));
        CHECK_EQ_U(e.runs, runs + 1); /* enough work for several tasks */
        twin_compare(w, name);
        if (how == GOOD) {
            CHECK_EQ_U(w->log.entries, 0);
        } else {
            /* Re-entry: one report per refused call; otherwise one per run. */
            const uint32_t want = how == REENTER ? 19u : 1u;
            CHECK_MSG(w->log.executor == logged + want && strstr(w->log.last, reported),
                      "%s: %u executor reports (expected %u), last \"%s\"", name,
                      w->log.executor - logged, want, w->log.last);
        }
    }
    if (how == REENTER) /* every call from the task refused, nothing changed */
        CHECK_MSG(e.refused == e.reentered, "%u of %u calls from a task refused", e.refused,
                  e.reentered);
    /* The scene takes calls again after run. */
    float out[16];
    OK(sgrt_node_world(w->s[0], w->n[0][7], out));
    twin_free(w);
    free(w);
}

int main(void)
{
    run_case(GOOD, "a good executor", "");
    run_case(SKIP_ONE, "an index skipped", "calling thread ran the skipped");
    run_case(TWICE, "every index twice", "more than once");
    run_case(STRAY, "an index out of range", "outside [0, count)");
    run_case(REENTER, "the scene called from a task", "sgrt_scene_update_parallel ran its tasks");
    return test_report("test_executor");
}
