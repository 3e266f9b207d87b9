/* SPDX-License-Identifier: MIT */
/* The bounds and culling section of the benchmark (bounds.h). Every figure
 * is a median of frames interleaved with its baseline's, in one run, and
 * names the kernel its scene ran:
 *
 *   B1, B2  sgrt_scene_update on a 64K-node tree whose every node has a box,
 *           against the same moves on the same tree without boxes: all
 *           moved, 1 % moved;
 *   B3      sgrt_scene_cull of 64K and 1M boxes with 6 planes, against
 *           reading the six box arrays once, both after a buffer larger than
 *           the last-level cache was touched (the memory floor);
 *   B4      a user's naive cull (one heap object per box, malloc'd in
 *           creation order, tested against the 6 planes in plain C with an
 *           early exit, visible objects listed) against sgrt_scene_cull,
 *           both warm;
 *   B5      a city grid (districts, blocks, buildings, floors, furniture)
 *           with subtree boxes, a camera seeing about a tenth of it: boxes
 *           and subtree boxes tested per node;
 *   B6      the update's subtree pass (update with subtree boxes minus the
 *           update with boxes alone, same moves, frame by frame) after a
 *           1 % frame against after an all-moved frame. */
#define _POSIX_C_SOURCE 200809L

#include "bounds.h"
#include "frustum.h"
#include "table.h"
#include "timing.h"

#include <sgrt.h>

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ---- clock, medians, randomness ---------------------------------------------- */

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median of v[0..n), n > 0; sorts v. */
static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

typedef struct brng {
    uint64_t s;
} brng;

static uint64_t rnext(brng *r) /* splitmix64 */
{
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static uint32_t rbelow(brng *r, uint32_t n) { return (uint32_t)((rnext(r) >> 32) * n >> 32); }
static float rfloat(brng *r, float lo, float hi)
{
    return lo + (hi - lo) * (float)((double)(rnext(r) >> 40) / 16777216.0);
}

#define MAX_ROUNDS 64

/* ---- scenes ---------------------------------------------------------------------- */

typedef struct tree {
    sgrt_scene *s;
    sgrt_node *h; /* level-order index -> handle */
    uint32_t n;
} tree;

static const float ZERO3[3] = {0, 0, 0};

/* A complete 4-ary tree of n nodes created depth-first (as a recursive
 * loader does), every node with a unit box when the scene keeps boxes. */
static bool tree_build(tree *t, uint32_t n, uint32_t flags)
{
    const sgrt_scene_desc d = {.initial_capacity = n, .flags = flags};
    t->n = n;
    t->h = malloc((size_t)n * sizeof *t->h);
    uint32_t *stack = malloc((size_t)n * sizeof *stack);
    if (!t->h || !stack || sgrt_scene_create(&d, &t->s) != SGRT_OK) {
        free(stack);
        return false;
    }
    uint32_t sp = 0;
    stack[sp++] = 0;
    const float half[3] = {0.5f, 0.5f, 0.5f};
    while (sp) {
        const uint32_t x = stack[--sp];
        if (sgrt_node_create(t->s, x ? t->h[(x - 1) / 4] : SGRT_NULL_NODE, &t->h[x]) != SGRT_OK) {
            free(stack);
            return false;
        }
        if (flags && sgrt_node_set_bounds(t->s, t->h[x], ZERO3, half) != SGRT_OK) {
            free(stack);
            return false;
        }
        for (uint32_t c = 4; c >= 1; c--)
            if (4 * x + c < n)
                stack[sp++] = 4 * x + c;
    }
    free(stack);
    sgrt_scene_update(t->s);
    return true;
}

static void tree_free(tree *t)
{
    sgrt_scene_destroy(t->s);
    free(t->h);
}

/* Small rigid moves: rotation about y and a translation within a unit. */
static void pose(brng *r, float m[16])
{
    const float a = rfloat(r, 0, 6.2831853f), c = cosf(a), s = sinf(a);
    const float v[16] = {c, 0, -s, 0, 0, 1, 0, 0, s, 0, c, 0,
                         rfloat(r, -1, 1), rfloat(r, -1, 1), rfloat(r, -1, 1), 1};
    memcpy(m, v, sizeof v);
}

/* ---- B1, B2, B6: the update with and without boxes, subtree boxes -------------------- */

typedef struct update_row {
    const char *frame;
    uint32_t recomputed;
    double off, on, sub, pass; /* ns per node: no boxes, boxes, subtree boxes; subtree pass */
} update_row;

/* One kind of frame on the three trees: the same moves, writes untimed, the
 * updates timed one after the other in each round. */
static bool update_frames(tree t[3], double fraction, int rounds, update_row *row)
{
    double off[MAX_ROUNDS], on[MAX_ROUNDS], sub[MAX_ROUNDS], pass[MAX_ROUNDS];
    brng r = {0xB0B1u};
    const uint32_t n = t[0].n;
    const uint32_t moved = fraction >= 1.0 ? n : (uint32_t)(n * fraction);
    uint32_t *pick = malloc((size_t)moved * sizeof *pick);
    if (!pick)
        return false;
    for (int round = -2; round < rounds; round++) {
        for (uint32_t j = 0; j < moved; j++)
            pick[j] = fraction >= 1.0 ? j : rbelow(&r, n);
        double dt[3];
        uint32_t count[3];
        for (int k = 0; k < 3; k++) {
            brng mr = {(uint64_t)round + 17u};
            for (uint32_t j = 0; j < moved; j++) {
                float m[16];
                pose(&mr, m);
                BENCH_OK(sgrt_node_set_local(t[k].s, t[k].h[pick[j]], m));
            }
            const double t0 = now_ns();
            count[k] = sgrt_scene_update(t[k].s);
            dt[k] = (now_ns() - t0) / n;
        }
        if (count[0] != count[1] || count[1] != count[2]) {
            free(pick);
            return false;
        }
        if (round >= 0) {
            off[round] = dt[0];
            on[round] = dt[1];
            sub[round] = dt[2];
            pass[round] = dt[2] - dt[1];
            row->recomputed = count[0];
        }
    }
    free(pick);
    row->off = median(off, rounds);
    row->on = median(on, rounds);
    row->sub = median(sub, rounds);
    row->pass = median(pass, rounds);
    return true;
}

/* ---- B3, B4: the cull against the memory floor and a naive cull ----------------------- */

/* A user's object: what an engine keeps per renderable, with the world
 * bounding box as center and half extents. */
typedef struct naive_object {
    float world[16];
    float center[3], extent[3];
    uint32_t mesh, material, flags;
    const char *name;
} naive_object;

static bool naive_visible(const float planes[6][4], const naive_object *o)
{
    for (int k = 0; k < 6; k++) {
        const float d = planes[k][0] * o->center[0] + planes[k][1] * o->center[1] +
                        planes[k][2] * o->center[2] + planes[k][3];
        const float r = fabsf(planes[k][0]) * o->extent[0] + fabsf(planes[k][1]) * o->extent[1] +
                        fabsf(planes[k][2]) * o->extent[2];
        if (d + r < 0.0f)
            return false;
    }
    return true;
}

/* A buffer larger than the last-level cache, touched to push the boxes out. */
typedef struct evictor {
    volatile uint8_t *buf;
    size_t size;
} evictor;

static bool evictor_init(evictor *e)
{
    long llc = -1;
#if defined(_SC_LEVEL3_CACHE_SIZE)
    llc = sysconf(_SC_LEVEL3_CACHE_SIZE);
#endif
    size_t size = llc > 0 ? 2u * (size_t)llc : (size_t)64 << 20;
    if (size > (size_t)1 << 30)
        size = (size_t)1 << 30;
    if (size < (size_t)64 << 20)
        size = (size_t)64 << 20;
    e->size = size;
    e->buf = malloc(size);
    return e->buf != NULL;
}

static void evict(evictor *e)
{
    for (size_t i = 0; i < e->size; i += 64)
        e->buf[i] = (uint8_t)(e->buf[i] + 1u);
}

/* Reading the six box arrays once: the least any cull of them costs. */
static uint32_t read_once(const sgrt_bounds_arrays *a)
{
    const uint32_t *v[6];
    for (int k = 0; k < 3; k++) {
        v[k] = (const uint32_t *)(const void *)a->min[k];
        v[3 + k] = (const uint32_t *)(const void *)a->max[k];
    }
    uint32_t acc = 0;
    for (uint32_t i = 0; i < a->slot_count; i++)
        acc |= (v[0][i] ^ v[1][i]) ^ (v[2][i] ^ v[3][i]) ^ (v[4][i] ^ v[5][i]);
    return acc;
}

typedef struct cull_row {
    uint32_t boxes, visible;
    const char *kernel;
    double cull_cold, read_cold, cull_warm, read_warm, naive; /* ns per box */
} cull_row;

/* n boxes at random in a 2000 x 200 x 2000 field, one root each, in
 * creation order. */
static bool cull_measure(uint32_t n, int rounds, evictor *ev, cull_row *row)
{
    const sgrt_scene_desc d = {.initial_capacity = n, .flags = SGRT_SCENE_BOUNDS};
    sgrt_scene *s;
    if (sgrt_scene_create(&d, &s) != SGRT_OK)
        return false;
    brng r = {0xC0u + n};
    naive_object **objs = malloc((size_t)n * sizeof *objs);
    const naive_object **vis = malloc((size_t)n * sizeof *vis);
    sgrt_node *h = malloc((size_t)n * sizeof *h);
    sgrt_nodeset set = SGRT_NULL_NODESET;
    bool ok = objs && vis && h && sgrt_nodeset_create(s, &set) == SGRT_OK;
    for (uint32_t i = 0; ok && i < n; i++) {
        float m[16];
        pose(&r, m);
        m[12] = rfloat(&r, -1000, 1000);
        m[13] = rfloat(&r, 0, 200);
        m[14] = rfloat(&r, -1000, 1000);
        const float half[3] = {rfloat(&r, 0.2f, 3), rfloat(&r, 0.2f, 3), rfloat(&r, 0.2f, 3)};
        ok = sgrt_node_create(s, SGRT_NULL_NODE, &h[i]) == SGRT_OK &&
             sgrt_node_set_local(s, h[i], m) == SGRT_OK &&
             sgrt_node_set_bounds(s, h[i], ZERO3, half) == SGRT_OK;
    }
    sgrt_bounds_arrays a;
    ok = ok && (sgrt_scene_update(s), sgrt_scene_bounds_arrays(s, &a) == SGRT_OK);
    /* The user's objects hold the same world boxes, one malloc each. */
    for (uint32_t i = 0; ok && i < n; i++) {
        objs[i] = malloc(sizeof *objs[i]);
        if (!(ok = objs[i] != NULL))
            break;
        memset(objs[i], 0, sizeof *objs[i]);
        BENCH_OK(sgrt_node_world(s, h[i], objs[i]->world));
        for (int k = 0; k < 3; k++) {
            objs[i]->center[k] = 0.5f * (a.min[k][i] + a.max[k][i]);
            objs[i]->extent[k] = 0.5f * (a.max[k][i] - a.min[k][i]);
        }
        objs[i]->mesh = i;
        objs[i]->name = "prop";
    }
    /* From one edge of the field along it, 1,000 units deep: about a
     * quarter of the boxes in view. */
    float planes[6][4];
    const double eye[3] = {-1000, 100, 0}, at[3] = {0, 100, 0};
    frustum_from_camera(eye, at, 1.0, 16.0 / 9.0, 1.0, 1000.0, planes);
    double cc[MAX_ROUNDS], rc[MAX_ROUNDS], cw[MAX_ROUNDS], rw[MAX_ROUNDS], nv[MAX_ROUNDS];
    uint32_t sink = 0, naive_count = 0;
    sgrt_cull_stats st = {0, 0, 0, 0, 0};
    for (int round = -1; ok && round < rounds; round++) {
        evict(ev);
        double t0 = now_ns();
        BENCH_OK(sgrt_scene_cull(s, planes[0], 6, SGRT_NULL_NODESET, set, &st));
        const double c_cold = now_ns() - t0;
        evict(ev);
        t0 = now_ns();
        sink += read_once(&a);
        const double r_cold = now_ns() - t0;
        t0 = now_ns();
        BENCH_OK(sgrt_scene_cull(s, planes[0], 6, SGRT_NULL_NODESET, set, &st));
        const double c_warm = now_ns() - t0;
        t0 = now_ns();
        sink += read_once(&a);
        const double r_warm = now_ns() - t0;
        t0 = now_ns();
        naive_count = 0;
        for (uint32_t i = 0; i < n; i++)
            if (naive_visible((const float(*)[4])planes, objs[i]))
                vis[naive_count++] = objs[i];
        const double t_naive = now_ns() - t0;
        if (round >= 0) {
            cc[round] = c_cold / n;
            rc[round] = r_cold / n;
            cw[round] = c_warm / n;
            rw[round] = r_warm / n;
            nv[round] = t_naive / n;
        }
    }
    if (ok) {
        row->boxes = n;
        row->visible = st.visible;
        row->kernel = sgrt_scene_simd_name(s);
        row->cull_cold = median(cc, rounds);
        row->read_cold = median(rc, rounds);
        row->cull_warm = median(cw, rounds);
        row->read_warm = median(rw, rounds);
        row->naive = median(nv, rounds);
        /* Both culls are conservative: sgrt's may keep a few boxes that
         * the naive test drops at the rounding margin, never the reverse. */
        ok = st.visible >= naive_count && st.visible <= naive_count + n / 1000u + 1u && sink != 1u;
    }
    for (uint32_t i = 0; objs && i < n; i++)
        free(objs[i]);
    free(objs);
    free(vis);
    free(h);
    sgrt_scene_destroy(s);
    return ok;
}

/* ---- B5: a city grid with subtree boxes -------------------------------------------- */

typedef struct city_row {
    uint32_t nodes, boxes, visible;
    sgrt_cull_stats flat, tree;
    double flat_ns, tree_ns; /* per node */
    const char *kernel;
} city_row;

enum { DISTRICTS = 4, BLOCKS = 4, BUILDINGS = 6, FLOORS = 4, ITEMS = 8 };

static bool city_add(sgrt_scene *s, sgrt_node parent, float x, float y, float z,
                     const float half[3], sgrt_node *out, uint32_t *boxes)
{
    const float q[4] = {0, 0, 0, 1}, one[3] = {1, 1, 1}, t[3] = {x, y, z};
    if (sgrt_node_create(s, parent, out) != SGRT_OK ||
        sgrt_node_set_trs(s, *out, t, q, one) != SGRT_OK)
        return false;
    if (!half)
        return true;
    (*boxes)++;
    return sgrt_node_set_bounds(s, *out, ZERO3, half) == SGRT_OK;
}

/* City -> 4 x 4 districts of 4 x 4 blocks (no boxes of their own: groups),
 * each block 6 buildings of 4 floors of 8 pieces of furniture, depth-first
 * as a loader creates them. 100-unit blocks, the city 1,600 units a side. */
static bool city_build(sgrt_scene *s, brng *r, uint32_t *nodes, uint32_t *boxes)
{
    sgrt_node city, dist, block, bldg, floor, item;
    static const float bldg_half[3] = {12, 20, 12}, floor_half[3] = {12, 2.5f, 12};
    if (!city_add(s, SGRT_NULL_NODE, 0, 0, 0, NULL, &city, boxes))
        return false;
    *nodes = 1;
    for (int dz = 0; dz < DISTRICTS; dz++)
        for (int dx = 0; dx < DISTRICTS; dx++) {
            if (!city_add(s, city, (float)dx * 400.0f, 0, (float)dz * 400.0f, NULL, &dist, boxes))
                return false;
            ++*nodes;
            for (int bz = 0; bz < BLOCKS; bz++)
                for (int bx = 0; bx < BLOCKS; bx++) {
                    if (!city_add(s, dist, (float)bx * 100.0f, 0, (float)bz * 100.0f, NULL, &block,
                                  boxes))
                        return false;
                    ++*nodes;
                    for (int b = 0; b < BUILDINGS; b++) {
                        if (!city_add(s, block, 15.0f + (float)(b % 3) * 30.0f, 20.0f,
                                      25.0f + (float)(b / 3) * 50.0f, bldg_half, &bldg, boxes))
                            return false;
                        ++*nodes;
                        for (int f = 0; f < FLOORS; f++) {
                            if (!city_add(s, bldg, 0, -17.5f + 10.0f * (float)f, 0, floor_half,
                                          &floor, boxes))
                                return false;
                            ++*nodes;
                            for (int i = 0; i < ITEMS; i++) {
                                const float half[3] = {rfloat(r, 0.3f, 1.5f), rfloat(r, 0.3f, 1),
                                                       rfloat(r, 0.3f, 1.5f)};
                                if (!city_add(s, floor, rfloat(r, -10, 10), -1.5f,
                                              rfloat(r, -10, 10), half, &item, boxes))
                                    return false;
                                ++*nodes;
                            }
                        }
                    }
                }
        }
    return true;
}

static bool city_measure(int rounds, city_row *row)
{
    sgrt_scene *s[2];
    const sgrt_scene_desc d[2] = {{.flags = SGRT_SCENE_BOUNDS},
                                  {.flags = SGRT_SCENE_SUBTREE_BOUNDS}};
    sgrt_nodeset set[2] = {SGRT_NULL_NODESET, SGRT_NULL_NODESET};
    bool ok = true;
    for (int k = 0; k < 2; k++) {
        brng r = {0xC17u};
        row->boxes = 0;
        ok = ok && sgrt_scene_create(&d[k], &s[k]) == SGRT_OK &&
             city_build(s[k], &r, &row->nodes, &row->boxes) &&
             sgrt_nodeset_create(s[k], &set[k]) == SGRT_OK;
        if (ok)
            sgrt_scene_update(s[k]);
    }
    /* Above the middle of the city, looking down and along at one district
     * row: about a tenth of the city in view. */
    float planes[6][4];
    const double eye[3] = {800, 250, -150}, at[3] = {800, 0, 400};
    frustum_from_camera(eye, at, 0.9, 16.0 / 9.0, 1.0, 600.0, planes);
    double ft[MAX_ROUNDS], tt[MAX_ROUNDS];
    for (int round = -1; ok && round < rounds; round++) {
        double t0 = now_ns();
        BENCH_OK(sgrt_scene_cull(s[0], planes[0], 6, SGRT_NULL_NODESET, set[0], &row->flat));
        const double f = now_ns() - t0;
        t0 = now_ns();
        BENCH_OK(sgrt_scene_cull(s[1], planes[0], 6, SGRT_NULL_NODESET, set[1], &row->tree));
        const double t = now_ns() - t0;
        if (round >= 0) {
            ft[round] = f / row->nodes;
            tt[round] = t / row->nodes;
        }
    }
    if (ok) {
        row->flat_ns = median(ft, rounds);
        row->tree_ns = median(tt, rounds);
        row->visible = row->tree.visible;
        row->kernel = sgrt_scene_simd_name(s[1]);
        /* Subtree skipping only drops boxes outside a plane: a subset. */
        ok = row->tree.visible <= row->flat.visible;
    }
    for (int k = 0; k < 2; k++)
        sgrt_scene_destroy(s[k]);
    return ok;
}

/* ---- the report ----------------------------------------------------------------------- */

bool bench_bounds_run(FILE *out, bool quick)
{
    const int rounds = quick ? 9 : 31;
    const double t_start = now_ns();
    bool ok = true;
    fprintf(out, "\nbounds and culling (ratios from this run; medians of %d interleaved frames)\n",
            rounds);

    /* B1, B2, B6 */
    tree t[3];
    memset(t, 0, sizeof t);
    const uint32_t n64 = 1u << 16;
    const uint32_t flags[3] = {0u, SGRT_SCENE_BOUNDS, SGRT_SCENE_SUBTREE_BOUNDS};
    update_row rows[2] = {{"all", 0, 0, 0, 0, 0}, {"1%", 0, 0, 0, 0, 0}};
    bool built = true;
    for (int k = 0; k < 3; k++)
        built = built && tree_build(&t[k], n64, flags[k]);
    const char *ukernel = built ? sgrt_scene_simd_name(t[1].s) : "-";
    if (built) {
        ok = update_frames(t, 1.0, rounds, &rows[0]) && ok;
        ok = update_frames(t, 0.01, rounds, &rows[1]) && ok;
        fprintf(out, "update, tree-64K (every node a box), ns per node, kernel %s\n", ukernel);
        fprintf(out, "%-6s %9s | %9s %9s %9s | %8s %9s\n", "frame", "recomp", "no boxes", "boxes",
                "subtree", "on/off", "subtree pass");
        for (int i = 0; i < 2; i++)
            fprintf(out, "%-6s %9u | %9.3f %9.3f %9.3f | %8.3f %9.3f\n", rows[i].frame,
                    rows[i].recomputed, rows[i].off, rows[i].on, rows[i].sub,
                    rows[i].on / rows[i].off, rows[i].pass);
    } else {
        ok = false;
    }
    for (int k = 0; k < 3; k++)
        if (t[k].s)
            tree_free(&t[k]);

    /* B3, B4 */
    evictor ev;
    cull_row cr[2];
    const uint32_t sizes[2] = {1u << 16, 1u << 20};
    bool culled = evictor_init(&ev);
    for (int i = 0; culled && i < 2; i++)
        culled = cull_measure(sizes[i], quick ? 5 : 11, &ev, &cr[i]);
    free((void *)ev.buf);
    ok = ok && culled;
    if (culled) {
        fprintf(out, "cull, 6 planes, boxes at random, ns per box; cold: after touching %zu MB\n",
                ev.size >> 20);
        fprintf(out, "%-8s %8s %-7s | %9s %9s %7s | %9s %9s %7s | %9s %8s\n", "boxes", "visible",
                "kernel", "cull cold", "read cold", "ratio", "cull warm", "read warm", "ratio",
                "naive", "nv/cull");
        for (int i = 0; i < 2; i++)
            fprintf(out, "%-8u %8u %-7s | %9.3f %9.3f %7.3f | %9.3f %9.3f %7.3f | %9.3f %8.2f\n",
                    cr[i].boxes, cr[i].visible, cr[i].kernel, cr[i].cull_cold, cr[i].read_cold,
                    cr[i].cull_cold / cr[i].read_cold, cr[i].cull_warm, cr[i].read_warm,
                    cr[i].cull_warm / cr[i].read_warm, cr[i].naive, cr[i].naive / cr[i].cull_warm);
    }

    /* B5 */
    city_row city;
    memset(&city, 0, sizeof city);
    const bool city_ok = city_measure(quick ? 9 : 31, &city);
    ok = ok && city_ok;
    if (city_ok) {
        fprintf(out, "city grid: %u nodes (%u with a box), %u visible (%.1f %% of the boxes)\n",
                city.nodes, city.boxes, city.visible, 100.0 * city.visible / city.boxes);
        fprintf(out, "  box by box:     %u boxes tested, %.3f ns per node\n",
                city.flat.boxes_tested, city.flat_ns);
        fprintf(out,
                "  subtree boxes:  %u boxes and %u subtree boxes tested (%u skipped, %u accepted), "
                "%.3f ns per node\n",
                city.tree.boxes_tested, city.tree.subtrees_tested, city.tree.subtrees_skipped,
                city.tree.subtrees_accepted, city.tree_ns);
    }

    fprintf(out, "targets (bounds and culling)\n");
    const double nan_v = nan("");
    bench_target_line(out, "B1", "update with boxes / without, tree-64K all moved",
                      built ? rows[0].on / rows[0].off : nan_v, 1.25, true, ukernel);
    bench_target_line(out, "B2", "update with boxes / without, tree-64K 1 % moved",
                      built ? rows[1].on / rows[1].off : nan_v, 1.10, true, ukernel);
    for (int i = 0; i < 2; i++) {
        char what[80];
        snprintf(what, sizeof what, "cull / reading the box arrays once, %s boxes, cold",
                 i ? "1M" : "64K");
        bench_target_line(out, "B3", what, culled ? cr[i].cull_cold / cr[i].read_cold : nan_v,
                          1.5, true, culled ? cr[i].kernel : "-");
    }
    for (int i = 0; i < 2; i++) {
        char what[80];
        snprintf(what, sizeof what, "naive cull / sgrt cull, %s boxes, warm", i ? "1M" : "64K");
        bench_target_line(out, "B4", what, culled ? cr[i].naive / cr[i].cull_warm : nan_v, 10,
                          false, culled ? cr[i].kernel : "-");
    }
    bench_target_line(out, "B5", "boxes tested / nodes, city grid seeing about 10 %",
                      city_ok ? (double)(city.tree.boxes_tested + city.tree.subtrees_tested) /
                                    city.nodes
                              : nan_v,
                      0.2, true, city_ok ? city.kernel : "-");
    bench_target_line(out, "B6", "subtree pass after a 1 % frame / after an all-moved frame",
                      built ? rows[1].pass / rows[0].pass : nan_v, 0.1, true, ukernel);
    fprintf(out,
            "  B1, B2: sgrt_scene_update, same moves, same tree; B3: cold = after touching a\n"
            "  buffer larger than the last-level cache; B4: one malloc'd object per box in\n"
            "  creation order, plain C, early exit; B5: subtrees_tested + boxes_tested over the\n"
            "  nodes; B6: (update with subtree boxes - update with boxes alone), frame by frame.\n"
            "bounds section: %.1f s\n",
            (now_ns() - t_start) * 1e-9);
    return ok;
}
