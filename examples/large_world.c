/* SPDX-License-Identifier: MIT */
/* A solar system flown through, in a large world (SGRT_SCENE_LARGE_WORLD).
 *
 * The Sun, the eight planets and two stations are roots anchored at their
 * real places, in double precision (Earth 1.496e11 m from the Sun, Neptune
 * 4.498e12 m); moons hang from their planets, the stations' parts from
 * their stations, with TRS locals in metres. A ship, with a camera behind
 * it, undocks from a station in Earth orbit, passes the Moon and Phobos and
 * docks at a station beyond Neptune; its anchor follows it each frame. The
 * origin follows the camera, snapped to a 1 km grid: sgrt_scene_set_origin
 * each frame with the snapped point, which marks nothing unless the camera
 * crossed into another cell. The cruise is time-lapsed: a few hundred
 * frames from planet to planet.
 *
 * Every frame, each node within NEAR of the camera is checked against a
 * model of the scene that the program keeps itself, in double precision
 * from the same inputs: sgrt's world (relative to the origin, float, as a
 * renderer uploads it) must be within
 *
 *     2.5e-7 x max(400 m, its distance to the origin, its reach)
 *
 * of the model's, where its reach is the sum of the lengths of the
 * translations from its root down: tests/test_large.c's bound, with the
 * reach added. A float has 24 bits, so 2.5e-7 is 2 to 4 units in the last
 * place; 400 m is a floor for the nodes beside the origin, whose error is
 * the rounding of their parents' rotations, not of their distance. A root
 * is formed in double and rounded once: its reach is nothing. A child is a
 * float product, so a moon 3.8e8 m from its planet is placed to float
 * precision of 3.8e8 m even with the camera beside it. What the camera
 * comes close to belongs near a root: the stations are roots, not children
 * of their planets (the beacon, a child of Earth 6.8e6 m out, shows the
 * difference).
 *
 * Beside it, the same scene without SGRT_SCENE_LARGE_WORLD: absolute float
 * worlds, made camera-relative in double afterwards, as a renderer without
 * large worlds does. Its error is the jitter the large world avoids.
 *
 * Also checked: the camera's absolute place from sgrt_node_world_double
 * against the model, and its world from sgrt_node_world within half a
 * cell's diagonal of the origin (the view matrix a renderer builds from it
 * is camera-relative); an update recomputes only what was written unless
 * the origin moved, then every node; the previous worlds of nodes that
 * stood still (motion vectors) match their worlds across each origin move;
 * a tracker reports every slot on a crossing (and, with previous worlds, on
 * the frame after), and only what was written otherwise.
 *
 *   large_world [--help]
 *
 * Exits with status 1 when a check fails, 2 on a bad command line. */
#define _GNU_SOURCE /* getopt_long, in args.h */
#include <math.h>
#include <sgrt.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "args.h"
#include "must.h"

#define CELL 1000.0      /* the origin's grid, metres */
#define NEAR 5.0e7       /* nodes checked: this close to the camera */
#define REL_BOUND 2.5e-7 /* of max(FLOOR, distance to the origin, reach) */
#define FLOOR 400.0

/* A failed check: counted, and the first few reported on stderr. */
static int failures;
#define FAIL(...) (failures++ < 10 ? (void)fprintf(stderr, __VA_ARGS__) : (void)0)

/* ---- the scene -------------------------------------------------------------- */

enum { NONE = -1 };

typedef struct node_def {
    const char *name;
    int parent;       /* index in NODES, or NONE for a root */
    int anchor_from;  /* a root: anchored at anchor + that root's anchor (NONE: at anchor) */
    double anchor[3]; /* a root's anchor, metres */
    float t[3];       /* its local translation, metres */
    float spin;       /* radians per frame about its y axis (0: still) */
} node_def;

enum {
    SUN, MERCURY, VENUS, EARTH, MARS, JUPITER, SATURN, URANUS, NEPTUNE,
    MOON, PHOBOS, DEIMOS, EUROPA, TITAN, TRITON,
    GATEWAY, GATEWAY_RING, GATEWAY_DOCK, GATEWAY_PANEL_L, GATEWAY_PANEL_R, BEACON,
    OUTPOST, OUTPOST_RING, OUTPOST_DOCK,
    SHIP, COCKPIT, ENGINE_L, ENGINE_R, CAMERA,
    NODE_COUNT
};

/* A root anchored at (x, y, z) from the anchor of `from` (NONE: from the
 * Sun), and a child at (x, y, z) from its parent, turning by `spin`. */
#define ROOT(name, from, x, y, z) {name, NONE, from, {x, y, z}, {0, 0, 0}, 0}
#define CHILD(name, parent, x, y, z, spin) {name, parent, NONE, {0, 0, 0}, {x, y, z}, spin}

static const node_def NODES[NODE_COUNT] = {
    [SUN] = ROOT("Sun", NONE, 0, 0, 0),
    [MERCURY] = ROOT("Mercury", NONE, 44164886986.5957, 313317541.647, 37454547939.0267),
    [VENUS] = ROOT("Venus", NONE, -38249019091.6432, -434379506.119, 101223091894.821),
    [EARTH] = ROOT("Earth", NONE, 140486643487.871, 3394271.47228, 51410810881.5587),
    [MARS] = ROOT("Mars", NONE, 95609063717.4575, 1631117877.10, 206916971970.124),
    [JUPITER] = ROOT("Jupiter", NONE, -728563360448.772, -4075364387.27, -273848963576.016),
    [SATURN] = ROOT("Saturn", NONE, 252630448103.557, 12947835972.8, -1404060999350.42),
    [URANUS] = ROOT("Uranus", NONE, -2496005971767.69, -10521488222.5, 1417928738701.08),
    [NEPTUNE] = ROOT("Neptune", NONE, 1141439141737.51, 47891310919.0, 4350907221310.22),
    /* Moons: children of their planets, where their orbits have them. */
    [MOON] = CHILD("Moon", EARTH, 230641873.0f, 19218744.0f, -307518911.0f, 0),
    [PHOBOS] = CHILD("Phobos", MARS, 5601234.5f, 41235.75f, 7519876.25f, 0),
    [DEIMOS] = CHILD("Deimos", MARS, -18003456.0f, 1001234.5f, 15004321.0f, 0),
    [EUROPA] = CHILD("Europa", JUPITER, 670912345.0f, 1234567.0f, -2345678.0f, 0),
    [TITAN] = CHILD("Titan", SATURN, 3456789.0f, -12345678.0f, 1221876543.0f, 0),
    [TRITON] = CHILD("Triton", NEPTUNE, -200123456.0f, 20012345.0f, 292012345.0f, 0),
    /* A station in Earth orbit, 6,780 km from Earth's centre: a root of its
     * own, its parts metres from it. */
    [GATEWAY] = ROOT("Gateway", EARTH, 4012345.678, 1498765.4321, -5270123.9876),
    [GATEWAY_RING] = CHILD("Gateway ring", GATEWAY, 0.0f, 0.0f, 0.0f, 0.01f),
    [GATEWAY_DOCK] = CHILD("Gateway dock", GATEWAY, 0.0f, 0.0f, -40.0f, 0),
    [GATEWAY_PANEL_L] = CHILD("Gateway panel L", GATEWAY, -25.0f, 0.0f, 0.0f, 0),
    [GATEWAY_PANEL_R] = CHILD("Gateway panel R", GATEWAY, 25.0f, 0.0f, 0.0f, 0),
    /* A beacon 337 m from the station, but a child of Earth: placed to
     * float precision of its reach, 6.8e6 m. */
    [BEACON] = CHILD("beacon (of Earth)", EARTH, 4012646.0f, 1498744.75f, -5269973.0f, 0),
    /* A station 25,500 km from Neptune. */
    [OUTPOST] = ROOT("Outpost", NEPTUNE, 20012345.6789, -5012345.4321, 15012345.9876),
    [OUTPOST_RING] = CHILD("Outpost ring", OUTPOST, 0.0f, 0.0f, 0.0f, -0.02f),
    [OUTPOST_DOCK] = CHILD("Outpost dock", OUTPOST, 0.0f, 0.0f, -40.0f, 0),
    /* The ship: its anchor and orientation are written every frame. */
    [SHIP] = ROOT("ship", NONE, 0, 0, 0),
    [COCKPIT] = CHILD("cockpit", SHIP, 0.0f, 1.2f, -8.3f, 0),
    [ENGINE_L] = CHILD("engine L", SHIP, -3.1f, -0.4f, 6.2f, 0),
    [ENGINE_R] = CHILD("engine R", SHIP, 3.1f, -0.4f, 6.2f, 0),
    [CAMERA] = CHILD("camera", SHIP, 0.0f, 6.5f, 25.5f, 0),
};

#define WRITTEN_NODES 7 /* the ship's 5 nodes and the 2 rings */

/* ---- the flight --------------------------------------------------------------- */

typedef struct phase {
    const char *name;
    int frames;
    int to_near;       /* the waypoint at its end: near this node ... */
    double offset[3];  /* ... by this much */
} phase;

static const phase PHASES[] = {
    {"undock", 200, GATEWAY, {12.3456, 7.891, -3100.25}},
    {"to Moon", 200, MOON, {3001234.567, 1501234.891, 2001234.123}},
    {"to Mars", 200, PHOBOS, {400123.456, 200321.654, -300456.789}},
    {"to Neptune", 300, OUTPOST, {11.25, -6.5, -3100.75}},
    {"dock", 200, OUTPOST, {0.125, 0.25, -100.5}},
};
#define PHASE_COUNT (int)(sizeof PHASES / sizeof PHASES[0])
static const double START_OFFSET[3] = {0.5, 0.25, -100.75}; /* from the Gateway */

/* ---- the model: the scene in double precision --------------------------------- */

/* A rigid transform in double: x -> r x + t (r column-major 3 x 3). */
typedef struct xform {
    double r[9], t[3];
} xform;

typedef struct model {
    double anchor[NODE_COUNT][3]; /* roots */
    float t[NODE_COUNT][3];       /* the locals, as given to sgrt */
    float q[NODE_COUNT][4];
    int root[NODE_COUNT];
    xform world[NODE_COUNT];      /* relative to its root's anchor */
    double reach[NODE_COUNT];     /* sum of |t| from the root down */
} model;

static void quat_to_r(const float qf[4], double r[9])
{
    const double x = (double)qf[0], y = (double)qf[1], z = (double)qf[2], w = (double)qf[3];
    r[0] = 1 - 2 * (y * y + z * z), r[1] = 2 * (x * y + z * w), r[2] = 2 * (x * z - y * w);
    r[3] = 2 * (x * y - z * w), r[4] = 1 - 2 * (x * x + z * z), r[5] = 2 * (y * z + x * w);
    r[6] = 2 * (x * z + y * w), r[7] = 2 * (y * z - x * w), r[8] = 1 - 2 * (x * x + y * y);
}

/* out = a x b */
static void xform_mul(const xform *a, const xform *b, xform *out)
{
    xform o;
    for (int c = 0; c < 3; c++)
        for (int i = 0; i < 3; i++)
            o.r[3 * c + i] = a->r[i] * b->r[3 * c] + a->r[3 + i] * b->r[3 * c + 1] +
                             a->r[6 + i] * b->r[3 * c + 2];
    for (int i = 0; i < 3; i++)
        o.t[i] = a->r[i] * b->t[0] + a->r[3 + i] * b->t[1] + a->r[6 + i] * b->t[2] + a->t[i];
    *out = o;
}

/* Every node's world relative to its root's anchor, parents first (NODES
 * lists them so). Absolute coordinates are not formed: a double 4.5e12 m
 * from the Sun is only good to a millimetre. */
static void model_update(model *m)
{
    for (int i = 0; i < NODE_COUNT; i++) {
        xform local;
        quat_to_r(m->q[i], local.r);
        for (int a = 0; a < 3; a++)
            local.t[a] = (double)m->t[i][a];
        const double len = sqrt(local.t[0] * local.t[0] + local.t[1] * local.t[1] +
                                local.t[2] * local.t[2]);
        const int p = NODES[i].parent;
        if (p == NONE) {
            m->root[i] = i;
            m->world[i] = local;
            m->reach[i] = len;
        } else {
            m->root[i] = m->root[p];
            xform_mul(&m->world[p], &local, &m->world[i]);
            m->reach[i] = m->reach[p] + len;
        }
    }
}

/* Node i's place relative to the point o: (anchor - o) + its place from
 * its anchor. */
static void model_rel(const model *m, int i, const double o[3], double out[3])
{
    const double *a = m->anchor[m->root[i]];
    for (int k = 0; k < 3; k++)
        out[k] = (a[k] - o[k]) + m->world[i].t[k];
}

/* Node i's absolute place, to double precision of its distance to the Sun:
 * for the waypoints and the checks of absolute places. */
static void model_abs(const model *m, int i, double out[3])
{
    static const double zero[3] = {0, 0, 0};
    model_rel(m, i, zero, out);
}

static double norm3(const double v[3])
{
    return sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
}

static double dist3(const double a[3], const double b[3])
{
    const double d[3] = {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
    return norm3(d);
}

/* What node i's error is a fraction of: max(FLOOR, its distance to the
 * origin, its reach). */
static double bound_scale(const model *m, int i, const double rel[3])
{
    return fmax(fmax(FLOOR, norm3(rel)), m->reach[i]);
}

/* The rotation taking -z (the ship's nose) onto the direction d, as a
 * float quaternion; a half turn about y when d is +z. */
static void face(const double d[3], float q[4])
{
    const double len = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    const double u[3] = {d[0] / len, d[1] / len, d[2] / len};
    /* axis = (-z) x u, w = 1 + (-z).u, then normalised */
    double v[4] = {u[1], -u[0], 0.0, 1.0 - u[2]};
    if (v[3] < 1e-9) {
        v[0] = 0.0, v[1] = 1.0, v[2] = 0.0, v[3] = 0.0;
    }
    const double n = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + v[3] * v[3]);
    for (int k = 0; k < 4; k++)
        q[k] = (float)(v[k] / n);
}

/* A turn of `angle` about y, as a float quaternion. */
static void spin_quat(double angle, float q[4])
{
    q[0] = 0.0f, q[1] = (float)sin(0.5 * angle), q[2] = 0.0f, q[3] = (float)cos(0.5 * angle);
}

/* The ship at frame f: eased from waypoint to waypoint, facing its way. */
static int ship_at(const model *m, int f, double pos[3], float q[4])
{
    double from[3], to[3], at[3];
    model_abs(m, GATEWAY, at);
    for (int a = 0; a < 3; a++)
        to[a] = at[a] + START_OFFSET[a];
    int k = 0, first = 0;
    for (;; k++) {
        memcpy(from, to, sizeof from);
        model_abs(m, PHASES[k].to_near, at);
        for (int a = 0; a < 3; a++)
            to[a] = at[a] + PHASES[k].offset[a];
        if (f < first + PHASES[k].frames || k == PHASE_COUNT - 1)
            break;
        first += PHASES[k].frames;
    }
    const double s = (double)(f - first) / (double)(PHASES[k].frames - 1);
    const double e = s * s * (3.0 - 2.0 * s);
    const double d[3] = {to[0] - from[0], to[1] - from[1], to[2] - from[2]};
    for (int a = 0; a < 3; a++)
        pos[a] = from[a] + e * d[a];
    face(d, q);
    return k;
}

/* ---- the two scenes ----------------------------------------------------------- */

typedef struct scenes {
    sgrt_scene *large, *plain; /* with and without SGRT_SCENE_LARGE_WORLD */
    sgrt_node nl[NODE_COUNT], np[NODE_COUNT];
} scenes;

static const float ONE[3] = {1.0f, 1.0f, 1.0f};

/* Node i's local in both scenes: in the large world a root's translation is
 * relative to its anchor; in the plain scene it is absolute, in float. */
static void write_node(scenes *sc, const model *m, int i)
{
    MUST(sgrt_node_set_trs(sc->large, sc->nl[i], m->t[i], m->q[i], ONE));
    float t[3];
    for (int a = 0; a < 3; a++)
        t[a] = NODES[i].parent == NONE ? (float)(m->anchor[i][a] + (double)m->t[i][a])
                                       : m->t[i][a];
    MUST(sgrt_node_set_trs(sc->plain, sc->np[i], t, m->q[i], ONE));
}

static void build(scenes *sc, model *m)
{
    sgrt_scene_desc d = {0};
    d.flags = SGRT_SCENE_LARGE_WORLD | SGRT_SCENE_PREV_WORLD;
    MUST(sgrt_scene_create(&d, &sc->large));
    MUST(sgrt_scene_create(NULL, &sc->plain));
    for (int i = 0; i < NODE_COUNT; i++) {
        const node_def *n = &NODES[i];
        for (int a = 0; a < 3; a++) {
            const double base = n->anchor_from == NONE ? 0.0 : m->anchor[n->anchor_from][a];
            m->anchor[i][a] = base + n->anchor[a];
            m->t[i][a] = n->t[a];
        }
        spin_quat(0.0, m->q[i]);
        const sgrt_node pl = n->parent == NONE ? SGRT_NULL_NODE : sc->nl[n->parent];
        const sgrt_node pp = n->parent == NONE ? SGRT_NULL_NODE : sc->np[n->parent];
        MUST(sgrt_node_create(sc->large, pl, &sc->nl[i]));
        MUST(sgrt_node_create(sc->plain, pp, &sc->np[i]));
        if (n->parent == NONE)
            MUST(sgrt_node_set_anchor(sc->large, sc->nl[i], m->anchor[i]));
        write_node(sc, m, i);
    }
    model_update(m);
}

/* ---- the frame loop ------------------------------------------------------------- */

/* One frame's errors: each node's world translation against the model's,
 * relative to the origin, with and without large worlds. */
typedef struct errors {
    double large[NODE_COUNT], plain[NODE_COUNT], bound[NODE_COUNT];
    double from_camera[NODE_COUNT];
} errors;

static void measure(const scenes *sc, const model *m, const double origin[3], errors *e)
{
    double cam[3];
    model_rel(m, CAMERA, origin, cam);
    for (int i = 0; i < NODE_COUNT; i++) {
        double rel[3]; /* the model's world, relative to the origin */
        model_rel(m, i, origin, rel);
        float fl[16], fp[16];
        MUST(sgrt_node_world(sc->large, sc->nl[i], fl));
        MUST(sgrt_node_world(sc->plain, sc->np[i], fp));
        double el[3], ep[3];
        for (int a = 0; a < 3; a++) {
            el[a] = (double)fl[12 + a] - rel[a];               /* sgrt's: relative already */
            ep[a] = ((double)fp[12 + a] - origin[a]) - rel[a]; /* absolute, made relative */
        }
        e->large[i] = norm3(el);
        e->plain[i] = norm3(ep);
        e->bound[i] = REL_BOUND * bound_scale(m, i, rel);
        e->from_camera[i] = dist3(rel, cam);
    }
}

/* Slots the tracker reports: what a renderer uploads. */
static uint32_t collect(const sgrt_scene *s, sgrt_tracker t)
{
    uint32_t slots = 0, n;
    bool more;
    sgrt_range r[16];
    do {
        MUST(sgrt_tracker_collect(s, t, r, 16, 0, &n, &more));
        for (uint32_t k = 0; k < n; k++)
            slots += r[k].count;
    } while (more);
    return slots;
}

/* Across an origin move from `before` to `origin`: the largest gap between
 * the previous world and the world of a node that stood still, over its
 * bound. The previous world was computed relative to `before`, so it has
 * the precision of its distance to that point. */
static double prev_gap(const scenes *sc, const model *m, const double before[3],
                       const double origin[3])
{
    const float *world = sgrt_scene_world_array(sc->large, NULL);
    const float *prev = sgrt_scene_prev_world_array(sc->large, NULL);
    double worst = 0.0;
    for (int i = 0; i < SHIP; i++) { /* the ship and its parts move */
        uint32_t slot;
        MUST(sgrt_node_slot(sc->large, sc->nl[i], &slot));
        const float *p = prev + (size_t)slot * 16, *w = world + (size_t)slot * 16;
        double d[3], rel[3], old[3];
        for (int a = 0; a < 3; a++)
            d[a] = (double)p[12 + a] - (double)w[12 + a];
        model_rel(m, i, origin, rel);
        model_rel(m, i, before, old);
        const double scale = fmax(bound_scale(m, i, rel), norm3(old));
        worst = fmax(worst, norm3(d) / (REL_BOUND * scale));
    }
    return worst;
}

/* The frames shown: each phase's first and middle, and the last. */
static bool shown(int f, int frames)
{
    int first = 0;
    for (int k = 0; k < PHASE_COUNT; k++) {
        if (f == first || f == first + PHASES[k].frames / 2)
            return true;
        first += PHASES[k].frames;
    }
    return f == frames - 1;
}

/* Nodes listed at the end, at the camera's closest approach. */
static const int LISTED[] = {GATEWAY_DOCK, BEACON, MOON, PHOBOS, OUTPOST_DOCK};
#define LISTED_COUNT (int)(sizeof LISTED / sizeof LISTED[0])

int main(int argc, char **argv)
{
    const int status = args_help_only(argc, argv);
    if (status >= 0)
        return status;
    static model m;
    static scenes sc;
    build(&sc, &m);
    sgrt_tracker tracker;
    MUST(sgrt_tracker_create(sc.large, &tracker));
    int frames = 0;
    for (int k = 0; k < PHASE_COUNT; k++)
        frames += PHASES[k].frames;

    printf("%d nodes, roots up to %.2e m from the Sun; the origin follows the camera on a "
           "%.0f m grid\n",
           NODE_COUNT, norm3(m.anchor[OUTPOST]), CELL);
    printf("error of each world's translation against a double-precision model, relative to "
           "the origin (m):\n");
    printf("large world (SGRT_SCENE_LARGE_WORLD) | absolute float worlds, made camera-relative "
           "in double\n\n");
    printf("frame  phase       camera from Sun  origin  ship and camera (5)   nearest other node"
           "\n");
    printf("                                    moves   large   | floats    node             "
           "distance  large   | floats\n");

    int origin_moves = 0;
    int frames_of[3] = {0}; /* origin moved, the frame after, neither */
    double worst_ratio = 0.0, gap_worst = 0.0, cam_worst = 0.0, cam_max = 0.0;
    double closest[NODE_COUNT], closest_large[NODE_COUNT], closest_plain[NODE_COUNT];
    for (int i = 0; i < NODE_COUNT; i++)
        closest[i] = HUGE_VAL;
    double origin[3] = {0, 0, 0};
    bool moved_last = false;
    for (int f = 0; f < frames; f++) {
        /* The game: the ship flies (its anchor follows it), the rings turn. */
        double pos[3];
        const int k = ship_at(&m, f, pos, m.q[SHIP]);
        memcpy(m.anchor[SHIP], pos, sizeof pos);
        MUST(sgrt_node_set_anchor(sc.large, sc.nl[SHIP], pos));
        write_node(&sc, &m, SHIP);
        for (int i = 0; i < NODE_COUNT; i++)
            if (NODES[i].spin != 0.0f) {
                spin_quat((double)NODES[i].spin * (double)(f + 1), m.q[i]);
                write_node(&sc, &m, i);
            }
        model_update(&m);

        /* The origin follows the camera, snapped to the grid. The camera's
         * absolute place, this frame's writes included: */
        double cam[16];
        MUST(sgrt_node_world_double(sc.large, sc.nl[CAMERA], cam));
        double snapped[3], before[3];
        for (int a = 0; a < 3; a++)
            snapped[a] = floor(cam[12 + a] / CELL + 0.5) * CELL;
        const bool moves = f == 0 || memcmp(snapped, origin, sizeof origin) != 0;
        origin_moves += f > 0 && moves;
        memcpy(before, origin, sizeof origin);
        memcpy(origin, snapped, sizeof origin);
        MUST(sgrt_scene_set_origin(sc.large, origin)); /* the same origin: marks nothing */

        const uint32_t recomputed = sgrt_scene_update(sc.large);
        sgrt_scene_update(sc.plain);

        /* Checks: the camera's absolute place (two doubles, each good to a
         * few units in the last place at its distance from the Sun, plus
         * the float rotation's rounding over the camera's 26 m from the
         * ship); what the update recomputed; previous worlds across an
         * origin move; the camera near the origin; every node near the
         * camera within its bound. */
        double cam_model[3];
        model_abs(&m, CAMERA, cam_model);
        const double cam_off = dist3(cam + 12, cam_model);
        cam_max = fmax(cam_max, cam_off);
        cam_worst = fmax(cam_worst, cam_off / (0x1p-50 * norm3(cam_model) + 1e-5));
        const uint32_t expected = moves ? NODE_COUNT : WRITTEN_NODES;
        if (recomputed != expected)
            FAIL("frame %d: the update recomputed %u worlds, expected %u\n", f,
                 (unsigned)recomputed, (unsigned)expected);
        if (f > 0 && moves)
            gap_worst = fmax(gap_worst, prev_gap(&sc, &m, before, origin));
        /* A renderer's view matrix is the inverse of the camera's world,
         * which is relative to the origin: within half a cell's diagonal. */
        float cw[16];
        MUST(sgrt_node_world(sc.large, sc.nl[CAMERA], cw));
        const double cam_rel[3] = {(double)cw[12], (double)cw[13], (double)cw[14]};
        if (norm3(cam_rel) > 0.5 * sqrt(3.0) * CELL + 1e-3)
            FAIL("frame %d: the camera is %.6g m from the origin\n", f, norm3(cam_rel));
        errors e;
        measure(&sc, &m, origin, &e);
        for (int i = 0; i < NODE_COUNT; i++) {
            if (e.from_camera[i] < closest[i]) {
                closest[i] = e.from_camera[i];
                closest_large[i] = e.large[i];
                closest_plain[i] = e.plain[i];
            }
            if (e.from_camera[i] > NEAR)
                continue;
            worst_ratio = fmax(worst_ratio, e.large[i] / e.bound[i]);
            if (e.large[i] > e.bound[i])
                FAIL("frame %d: %s is %.3g m off, over its bound %.3g m\n", f, NODES[i].name,
                     e.large[i], e.bound[i]);
        }

        /* What a renderer uploads: every slot when the origin moved. */
        const uint32_t slots = collect(sc.large, tracker);
        if (f > 0) { /* frame 0 is the first upload */
            const int kind = moves ? 0 : moved_last ? 1 : 2;
            const uint32_t want = kind == 2 ? WRITTEN_NODES : NODE_COUNT;
            frames_of[kind]++;
            if (slots != want)
                FAIL("frame %d: the tracker reported %u slots, expected %u\n", f,
                     (unsigned)slots, (unsigned)want);
        }
        moved_last = moves && f > 0;

        if (shown(f, frames)) {
            double ship_l = 0.0, ship_p = 0.0;
            int nearest = SUN;
            for (int i = 0; i < NODE_COUNT; i++)
                if (i >= SHIP)
                    ship_l = fmax(ship_l, e.large[i]), ship_p = fmax(ship_p, e.plain[i]);
                else if (e.from_camera[i] < e.from_camera[nearest])
                    nearest = i;
            printf("%5d  %-10s  %12.4e m  %5d   %7.1e | %7.1e   %-16s %8.2e  %7.1e | %7.1e\n",
                   f, PHASES[k].name, norm3(cam_model), origin_moves, ship_l, ship_p,
                   NODES[nearest].name, e.from_camera[nearest], e.large[nearest],
                   e.plain[nearest]);
        }
    }

    printf("\nat the camera's closest approach     distance  large   | floats\n");
    for (int j = 0; j < LISTED_COUNT; j++) {
        const int i = LISTED[j];
        printf("  %-18s reach %8.2e m  %8.2e  %7.1e | %7.1e\n", NODES[i].name,
               m.reach[i], closest[i], closest_large[i], closest_plain[i]);
    }
    printf("every node within %.0e m of the camera, every frame: worst error / bound %.2f,\n"
           "  bound %.1e x max(%.0f m, distance to the origin, reach)\n",
           NEAR, worst_ratio, REL_BOUND, FLOOR);
    printf("origin moved on %d of %d frames; updates recomputed all %d worlds then, %d "
           "otherwise\n",
           origin_moves, frames, NODE_COUNT, WRITTEN_NODES);
    printf("a tracker reported all %d slots on those frames and on the %d after one (previous "
           "worlds), %d on the other %d\n",
           NODE_COUNT, frames_of[1], WRITTEN_NODES, frames_of[2]);
    printf("previous worlds of still nodes across origin moves: worst gap / bound %.2f\n",
           gap_worst);
    printf("sgrt_node_world_double(camera), absolute: within %.1e m of the model (a double's "
           "spacing at %.1e m: %.1e m)\n",
           cam_max, norm3(m.anchor[OUTPOST]), ldexp(1.0, ilogb(norm3(m.anchor[OUTPOST])) - 52));
    if (gap_worst > 1.0)
        FAIL("a still node's previous world is %.3g of its bound off its world\n", gap_worst);
    if (cam_worst > 1.0)
        FAIL("sgrt_node_world_double(camera) is %.3g m off the model\n", cam_max);
    sgrt_scene_destroy(sc.large);
    sgrt_scene_destroy(sc.plain);
    printf("%s\n", failures ? "FAILED" : "ok");
    return failures ? 1 : 0;
}
