/* SPDX-License-Identifier: MIT */
/* Rollback netcode, GGPO-style, with snapshots (sgrt_scene_snapshot,
 * sgrt_scene_restore) and the scene hash (sgrt_scene_hash).
 *
 * Two peers run the same game: four ships, each a hierarchy (hull, two
 * turrets with barrels, an engine), steered by its player's input, firing
 * projectiles (nodes created and destroyed as they fly and expire). Every
 * tick each peer saves its state (the scene's snapshot, and the game state
 * beside it: the live projectiles' handles and ages) into a ring of 8, then
 * simulates the tick with the inputs it has, updates the scene and hashes
 * it.
 *
 * Peer A gets player 3's inputs 8 ticks late. Until they come it predicts
 * them (the input repeats); when the input of tick t arrives, at the start
 * of tick t + 8, it rolls back: it restores the snapshot of tick t, which
 * the ring still holds, and simulates ticks t .. t + 7 again with the
 * input it now has, saving each again. Peer B gets every input on time.
 * Once A has every input of a tick, its hash of that tick is B's: where it
 * had predicted wrongly, its hash then differed (what a desync check finds),
 * and after the rollback it agrees (a mismatch would be a desync: here a
 * bug, and the program exits with status 1). Also checked: the handles the
 * game state holds (ships, turrets, projectiles) name live nodes again
 * after each restore, and A's GPU mirror, kept by collecting a tracker each
 * tick, holds the world array exactly after every rollback.
 *
 *   rollback [--ticks N] [--quiet] [--help]
 *
 * Exits with status 1 when a check fails, 2 on a bad command line. */
#define _GNU_SOURCE /* getopt_long, in args.h */
#include <math.h>
#include <sgrt.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "must.h"

#define PLAYERS 4
#define RING 8           /* ticks of snapshots kept: how late an input may be */
#define LATE 8           /* how late player 3's inputs reach peer A, in ticks */
#define MAX_SHOTS 64     /* projectiles alive at once, per peer */
#define SHOT_TICKS 24    /* a projectile's life */

static int failures;
#define FAIL(...) (failures++ < 10 ? (void)fprintf(stderr, __VA_ARGS__) : (void)0)

/* A player's input for one tick: turn left or right, thrust, fire. */
typedef struct input {
    int8_t turn;
    uint8_t thrust, fire;
} input;

/* The inputs of every player for every tick: made up, the same for both
 * peers (what each peer's players pressed). */
static input input_of(int player, int tick)
{
    uint32_t x = (uint32_t)tick * 2654435761u ^ (uint32_t)player * 40503u;
    x ^= x >> 15;
    x *= 0x2c1b3c6du;
    x ^= x >> 12;
    /* Inputs change every few ticks, as a player's hands do. */
    const uint32_t held = (uint32_t)(tick / (3 + player)) * 2246822519u + (uint32_t)player;
    const input in = {(int8_t)((int)(held % 3u) - 1), (uint8_t)((held >> 4) % 2u),
                      (uint8_t)((held >> 8) % 3u == 0 && x % 2u)};
    return in;
}

/* The game state beside the scene, saved with it: what a snapshot does not
 * hold (it refers to nodes by handle, which a restore keeps). */
typedef struct game {
    sgrt_node ship[PLAYERS], turret[PLAYERS][2];
    float heading[PLAYERS], x[PLAYERS], y[PLAYERS];
    sgrt_node shot[MAX_SHOTS];
    int shot_age[MAX_SHOTS];
    int shots;
    uint32_t made; /* projectiles fired so far */
} game;

#define MAX_TICKS 4000

typedef struct peer {
    const char *name;
    sgrt_scene *s;
    game g;
    uint8_t *ring[RING];
    size_t ring_size[RING];
    game ring_game[RING];
    input have;             /* player 3's last input received (A predicts with it) */
    input used[MAX_TICKS];  /* player 3's input each tick was last simulated with */
    uint64_t hash[MAX_TICKS];
    sgrt_tracker t;
    float *mirror; /* what a renderer uploaded, by slot */
    uint32_t mirror_cap;
} peer;

static void set_trs(sgrt_scene *s, sgrt_node n, float x, float y, float angle)
{
    const float t[3] = {x, y, 0}, q[4] = {0, 0, sinf(angle / 2), cosf(angle / 2)}, sc[3] = {1, 1, 1};
    MUST(sgrt_node_set_trs(s, n, t, q, sc));
}

static void build(peer *p)
{
    MUST(sgrt_scene_create(NULL, &p->s));
    game *g = &p->g;
    memset(g, 0, sizeof *g);
    for (int k = 0; k < PLAYERS; k++) {
        MUST(sgrt_node_create(p->s, SGRT_NULL_NODE, &g->ship[k]));
        g->x[k] = 100.0f * (float)k;
        set_trs(p->s, g->ship[k], g->x[k], 0, 0);
        for (int side = 0; side < 2; side++) {
            sgrt_node barrel, engine;
            MUST(sgrt_node_create(p->s, g->ship[k], &g->turret[k][side]));
            set_trs(p->s, g->turret[k][side], side ? 2.0f : -2.0f, 1, 0);
            MUST(sgrt_node_create(p->s, g->turret[k][side], &barrel));
            set_trs(p->s, barrel, 0, 1.5f, 0);
            MUST(sgrt_node_create(p->s, g->ship[k], &engine));
            set_trs(p->s, engine, 0, -3, 0);
        }
    }
    (void)sgrt_scene_update(p->s);
    MUST(sgrt_tracker_create(p->s, &p->t));
}

/* One tick of the game with the inputs in[]. */
static void simulate(peer *p, int tick, const input in[PLAYERS])
{
    game *g = &p->g;
    p->used[tick] = in[PLAYERS - 1];
    for (int k = 0; k < PLAYERS; k++) {
        g->heading[k] += 0.05f * (float)in[k].turn;
        const float speed = in[k].thrust ? 1.5f : 0.25f;
        g->x[k] += speed * cosf(g->heading[k]);
        g->y[k] += speed * sinf(g->heading[k]);
        set_trs(p->s, g->ship[k], g->x[k], g->y[k], g->heading[k]);
        set_trs(p->s, g->turret[k][0], -2, 1, 0.1f * (float)tick);
        if (in[k].fire && g->shots < MAX_SHOTS) {
            /* A projectile, a root placed where the turret's barrel is. */
            sgrt_node n;
            MUST(sgrt_node_create(p->s, SGRT_NULL_NODE, &n));
            set_trs(p->s, n, g->x[k], g->y[k], g->heading[k]);
            g->shot[g->shots] = n;
            g->shot_age[g->shots++] = 0;
            g->made++;
        }
    }
    for (int i = 0; i < g->shots;) {
        float w[16];
        MUST(sgrt_node_world(p->s, g->shot[i], w));
        if (++g->shot_age[i] > SHOT_TICKS) {
            MUST(sgrt_node_destroy(p->s, g->shot[i]));
            g->shot[i] = g->shot[--g->shots];
            g->shot_age[i] = g->shot_age[g->shots];
            continue;
        }
        /* Forward along its own x axis. */
        const float at[3] = {w[12] + 3 * w[0], w[13] + 3 * w[1], 0};
        const float q[4] = {0, 0, 0, 1}, sc[3] = {1, 1, 1};
        MUST(sgrt_node_set_trs(p->s, g->shot[i], at, q, sc));
        i++;
    }
    (void)sgrt_scene_update(p->s);
}

/* What a renderer does each frame: upload the slots the tracker reports;
 * then the mirror must hold every live slot's world. */
static void upload(peer *p, int tick)
{
    uint32_t slots = 0;
    const float *world = sgrt_scene_world_array(p->s, &slots);
    if (slots > p->mirror_cap) {
        p->mirror_cap = 2 * slots;
        p->mirror = realloc(p->mirror, (size_t)p->mirror_cap * 64u);
        if (!p->mirror) {
            fprintf(stderr, "out of memory\n");
            exit(1);
        }
    }
    sgrt_range r[32];
    uint32_t n;
    bool more = true;
    while (more) {
        MUST(sgrt_tracker_collect(p->s, p->t, r, 32, 4, &n, &more));
        for (uint32_t k = 0; k < n; k++)
            memcpy(p->mirror + 16u * r[k].first, world + 16u * r[k].first, 64u * r[k].count);
    }
    for (uint32_t i = 0; i < slots; i++)
        if (sgrt_scene_slot_node(p->s, i).id && memcmp(p->mirror + 16u * i, world + 16u * i, 64))
            FAIL("%s, tick %d: the mirror's slot %u is stale\n", p->name, tick, (unsigned)i);
}

/* The state at the start of `tick` into the ring. A ring slot's buffer is
 * kept: after the first rounds its size fits, and saving allocates nothing. */
static void save(peer *p, int tick)
{
    const int k = tick % RING;
    size_t need = 0;
    MUST(sgrt_scene_snapshot_size(p->s, &need));
    if (need > p->ring_size[k]) {
        free(p->ring[k]);
        p->ring_size[k] = need + need / 4;
        p->ring[k] = malloc(p->ring_size[k]);
        if (!p->ring[k]) {
            fprintf(stderr, "out of memory\n");
            exit(1);
        }
    }
    MUST(sgrt_scene_snapshot(p->s, p->ring[k], p->ring_size[k], NULL));
    p->ring_game[k] = p->g;
}

/* The inputs peer A has for `tick` at tick `now`: player 3's arrive LATE
 * ticks late; until then, its last one received. */
static void inputs_of_a(const peer *a, int tick, int now, input in[PLAYERS])
{
    for (int k = 0; k < PLAYERS; k++)
        in[k] = input_of(k, tick);
    if (tick + LATE > now)
        in[PLAYERS - 1] = a->have;
}

/* After a restore, the game state's handles name live nodes again. */
static void check_handles(const peer *p, int tick)
{
    const game *g = &p->g;
    bool alive = true;
    for (int k = 0; k < PLAYERS; k++)
        alive = alive && sgrt_node_alive(p->s, g->ship[k]) &&
                sgrt_node_alive(p->s, g->turret[k][0]) && sgrt_node_alive(p->s, g->turret[k][1]);
    for (int i = 0; i < g->shots; i++)
        alive = alive && sgrt_node_alive(p->s, g->shot[i]);
    if (!alive)
        FAIL("%s, tick %d: a handle of the game state is stale after the restore\n", p->name, tick);
}

int main(int argc, char **argv)
{
    int ticks = 600;
    bool quiet = false;
    static const struct option longopts[] = {{"ticks", required_argument, NULL, 't'},
                                             {"quiet", no_argument, NULL, 'q'},
                                             {"help", no_argument, NULL, 'h'},
                                             {NULL, 0, NULL, 0}};
    for (int c; (c = getopt_long(argc, argv, "t:qh", longopts, NULL)) != -1;) {
        if (c == 't' && arg_int("--ticks", optarg, LATE + 1, MAX_TICKS, &ticks))
            continue;
        if (c == 'q') {
            quiet = true;
            continue;
        }
        fprintf(c == 'h' ? stdout : stderr, "usage: %s [--ticks N] [--quiet] [--help]\n", argv[0]);
        return c == 'h' ? 0 : 2;
    }
    static peer a, b;
    a.name = "peer A";
    b.name = "peer B";
    build(&a);
    build(&b);
    int rollbacks = 0, mispredicted = 0, desynced_before = 0;
    for (int now = 0; now < ticks; now++) {
        /* Peer A: player 3's input of tick now - LATE arrives. Was it what
         * A predicted? If not, roll back to that tick and simulate again. */
        const int late = now - LATE;
        if (late >= 0) {
            const input real = input_of(PLAYERS - 1, late);
            a.have = real;
            if (memcmp(&a.used[late], &real, sizeof real) != 0) {
                mispredicted++;
                desynced_before += a.hash[late] != b.hash[late];
                MUST(sgrt_scene_restore(a.s, a.ring[late % RING], a.ring_size[late % RING]));
                a.g = a.ring_game[late % RING];
                check_handles(&a, late);
                for (int t = late; t < now; t++) {
                    input in[PLAYERS];
                    save(&a, t);
                    inputs_of_a(&a, t, now, in);
                    simulate(&a, t, in);
                    a.hash[t] = sgrt_scene_hash(a.s);
                }
                upload(&a, now);
                rollbacks++;
            }
            /* A has every input of tick `late` now: its hash is B's. */
            if (a.hash[late] != b.hash[late])
                FAIL("tick %d: peer A's hash 0x%016llx, peer B's 0x%016llx: a desync\n", late,
                     (unsigned long long)a.hash[late], (unsigned long long)b.hash[late]);
        }
        input in[PLAYERS];
        save(&a, now);
        inputs_of_a(&a, now, now, in);
        simulate(&a, now, in);
        a.hash[now] = sgrt_scene_hash(a.s);
        upload(&a, now);
        /* Peer B: every input on time. */
        for (int k = 0; k < PLAYERS; k++)
            in[k] = input_of(k, now);
        save(&b, now);
        simulate(&b, now, in);
        b.hash[now] = sgrt_scene_hash(b.s);
        upload(&b, now);
    }
    if (!quiet)
        printf("%d ticks, %u nodes at the end: %d mispredictions of player %d's input, each "
               "rolled back %d ticks (the hashes before it differed at %d of those ticks); "
               "every tick's hash agreed once its inputs were in; %u projectiles fired\n",
               ticks, (unsigned)sgrt_scene_node_count(a.s), mispredicted, PLAYERS - 1, LATE,
               desynced_before, (unsigned)a.g.made);
    if (rollbacks == 0 || desynced_before == 0)
        FAIL("the run never rolled back over a desync: it shows nothing\n");
    for (int k = 0; k < RING; k++) {
        free(a.ring[k]);
        free(b.ring[k]);
    }
    free(a.mirror);
    free(b.mirror);
    sgrt_scene_destroy(a.s);
    sgrt_scene_destroy(b.s);
    if (failures)
        fprintf(stderr, "rollback: %d check(s) failed\n", failures);
    return failures ? 1 : 0;
}
