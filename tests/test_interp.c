/* SPDX-License-Identifier: MIT */
/* Render interpolation (SGRT_SCENE_INTERPOLATE), against a double-precision
 * model of its definition (sgrt.h, "Render interpolation"):
 *
 *  - random programs (TRS and matrix locals with shear and mirrors,
 *    re-parents keeping the world or the local, teleports, creates,
 *    destroys, sgrt_scene_compact, origin moves in a large world) on every
 *    kernel level: at alpha = 1 the render array is the world array bit for
 *    bit; at alpha = 0 the previous-world array (SGRT_SCENE_PREV_WORLD) bit
 *    for bit for every node that neither it nor an ancestor was created,
 *    teleported or re-parented in the last tick (those: against the model);
 *    at every alpha, the model's render(parent) x interp(from,
 *    to) in double within 1e-4 of the largest element along its chain (the
 *    float worlds themselves, alpha = 1, miss the double chain by up to
 *    2.2e-5 of it in these programs: keep-world locals under far parents);
 *    after an origin move alpha = 0 within 1e-5 of the node's largest
 *    element; before the first interpolate render worlds are worlds;
 *  - the parallel interpolate (in-order, shuffled and threaded executors)
 *    gives the serial one's render array bit for bit;
 *  - a mirror kept through sgrt_scene_render_collect equals the render
 *    array on every live slot after every frame;
 *  - a child on a rotating arm stays on the arc;
 *  - a snapshot restored gives back the render array and what each call
 *    answers, byte for byte; a forged one that breaks the render state's
 *    invariants is refused;
 *  - bad input (alpha outside [0, 1] or NaN, no flag, stale nodes, NULL) is
 *    refused with a message and changes nothing;
 *  - executors that skip, repeat or invent task indices, or call into the
 *    scene from a task, are reported, and the render array is the serial
 *    one's. */
#include "internal.h" /* white-box: a forged snapshot needs the layout */
#include "snapshot.h"
#include "testutil.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

static rng R = {0x5EED1E7Au};

/* ---- the model's interp, in double ------------------------------------------ */

static bool dec_d(const double a[16], double t[3], double q[4], double sc[3])
{
    if (a[3] != 0.0 || a[7] != 0.0 || a[11] != 0.0 || a[15] != 1.0)
        return false;
    double n[3][3];
    for (int c = 0; c < 3; c++) {
        const double len = sqrt(a[4 * c] * a[4 * c] + a[4 * c + 1] * a[4 * c + 1] +
                                a[4 * c + 2] * a[4 * c + 2]);
        if (!(len > 1e-20))
            return false;
        sc[c] = len;
        for (int r = 0; r < 3; r++)
            n[c][r] = a[4 * c + r] / len;
    }
    for (int i = 0; i < 3; i++)
        for (int j = i + 1; j < 3; j++)
            if (fabs(n[i][0] * n[j][0] + n[i][1] * n[j][1] + n[i][2] * n[j][2]) > 1e-4)
                return false;
    const double det = n[0][0] * (n[1][1] * n[2][2] - n[1][2] * n[2][1]) +
                       n[0][1] * (n[1][2] * n[2][0] - n[1][0] * n[2][2]) +
                       n[0][2] * (n[1][0] * n[2][1] - n[1][1] * n[2][0]);
    if (!(det > 0.0))
        return false;
    for (int i = 0; i < 3; i++)
        t[i] = a[12 + i];
    /* Any correct quaternion: the model does not follow the library's
     * branches. */
    const double tr = n[0][0] + n[1][1] + n[2][2];
    if (tr > 0.0) {
        const double r = sqrt(1.0 + tr) * 2.0;
        q[3] = 0.25 * r;
        q[0] = (n[1][2] - n[2][1]) / r;
        q[1] = (n[2][0] - n[0][2]) / r;
        q[2] = (n[0][1] - n[1][0]) / r;
    } else if (n[0][0] > n[1][1] && n[0][0] > n[2][2]) {
        const double r = sqrt(1.0 + n[0][0] - n[1][1] - n[2][2]) * 2.0;
        q[3] = (n[1][2] - n[2][1]) / r;
        q[0] = 0.25 * r;
        q[1] = (n[1][0] + n[0][1]) / r;
        q[2] = (n[2][0] + n[0][2]) / r;
    } else if (n[1][1] > n[2][2]) {
        const double r = sqrt(1.0 + n[1][1] - n[0][0] - n[2][2]) * 2.0;
        q[3] = (n[2][0] - n[0][2]) / r;
        q[0] = (n[1][0] + n[0][1]) / r;
        q[1] = 0.25 * r;
        q[2] = (n[2][1] + n[1][2]) / r;
    } else {
        const double r = sqrt(1.0 + n[2][2] - n[0][0] - n[1][1]) * 2.0;
        q[3] = (n[0][1] - n[1][0]) / r;
        q[0] = (n[2][0] + n[0][2]) / r;
        q[1] = (n[2][1] + n[1][2]) / r;
        q[2] = 0.25 * r;
    }
    return true;
}

static void interp_d(const double a[16], const double b[16], double al, double out[16])
{
    double ta[3], qa[4], sa[3], tb[3], qb[4], sb[3];
    if (!dec_d(a, ta, qa, sa) || !dec_d(b, tb, qb, sb)) {
        for (int i = 0; i < 16; i++)
            out[i] = (1.0 - al) * a[i] + al * b[i];
        return;
    }
    const double dot = qa[0] * qb[0] + qa[1] * qb[1] + qa[2] * qb[2] + qa[3] * qb[3];
    double q[4], len = 0.0;
    for (int i = 0; i < 4; i++) {
        q[i] = (1.0 - al) * qa[i] + (dot < 0.0 ? -al : al) * qb[i];
        len += q[i] * q[i];
    }
    len = sqrt(len);
    for (int i = 0; i < 4; i++)
        q[i] /= len;
    double sc[3], r[9];
    for (int i = 0; i < 3; i++)
        sc[i] = (1.0 - al) * sa[i] + al * sb[i];
    quat_rotation(q[0], q[1], q[2], q[3], r);
    /* r is column-major (testutil.h): column c times its scale. */
    for (int c = 0; c < 3; c++) {
        for (int k = 0; k < 3; k++)
            out[4 * c + k] = r[3 * c + k] * sc[c];
        out[4 * c + 3] = 0.0;
    }
    for (int i = 0; i < 3; i++)
        out[12 + i] = (1.0 - al) * ta[i] + al * tb[i];
    out[15] = 1.0;
}

static void mul_d(const double a[16], const double b[16], double o[16])
{
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++) {
            double v = 0.0;
            for (int k = 0; k < 4; k++)
                v += a[4 * k + r] * b[4 * c + k];
            o[4 * c + r] = v;
        }
}

static void to_d(const float *f, double *d)
{
    for (int i = 0; i < 16; i++)
        d[i] = f[i];
}

/* Largest |element| difference, relative to max(1, largest |element|). */
static double rel_miss(const float got[16], const double want[16])
{
    double big = 1.0, miss = 0.0;
    for (int i = 0; i < 16; i++) {
        if (fabs(want[i]) > big)
            big = fabs(want[i]);
        const double d = fabs((double)got[i] - want[i]);
        if (!(d <= miss))
            miss = d;
    }
    return miss / big;
}

/* ---- a program on a scene and its model ------------------------------------- */

#define MAXN 160u

typedef struct model {
    sgrt_node h[MAXN];  /* in the serial scene */
    sgrt_node ht[MAXN]; /* the same nodes in its twin */
    bool live[MAXN];
    int parent[MAXN];      /* model index, -1 root */
    double from[MAXN][16]; /* the definition's two locals (a root's: its world) */
    double to[MAXN][16];
    bool fresh[MAXN];      /* created since the last update */
    bool tele[MAXN];
    bool carried[MAXN];    /* re-parented keeping the world in the last tick */
    bool pending_carry[MAXN];
    bool existed[MAXN];    /* alive at the tick before */
    bool here[MAXN];       /* a root whose `to` is in the frame of now */
    double last_origin[3], origin[3];
} model;

typedef struct world {
    sgrt_scene *s;     /* serial interpolate */
    sgrt_scene *t;     /* the same program, parallel interpolate */
    bool large;
    bool origin_moved; /* in the last tick */
    model m;
    float *mirror;
    uint32_t mirror_cap;
} world;

static sgrt_scene *make(uint32_t flags, sgrt_simd level)
{
    const sgrt_scene_desc d = {.max_simd = level, .flags = flags};
    sgrt_scene *s = NULL;
    if (sgrt_scene_create(&d, &s) != SGRT_OK)
        return NULL;
    return s;
}

static void random_local(float out[16])
{
    const uint32_t kind = rng_below(&R, 8);
    if (kind < 6) {
        /* TRS (the library's conversion). */
        double ax = rng_range(&R, -1, 1), ay = rng_range(&R, -1, 1), az = rng_range(&R, -1, 1);
        const double an = rng_range(&R, -3.0, 3.0);
        const double l = sqrt(ax * ax + ay * ay + az * az) + 1e-9;
        const float q[4] = {(float)(ax / l * sin(an / 2)), (float)(ay / l * sin(an / 2)),
                            (float)(az / l * sin(an / 2)), (float)cos(an / 2)};
        const float t[3] = {rng_float(&R, -5, 5), rng_float(&R, -5, 5), rng_float(&R, -5, 5)};
        const float sc[3] = {rng_float(&R, 0.5f, 2), rng_float(&R, 0.5f, 2),
                             rng_float(&R, 0.5f, 2)};
        if (sgrt_trs_to_matrices(1, t, q, sc, out) != SGRT_OK)
            memcpy(out, IDENTITY, sizeof IDENTITY);
        return;
    }
    /* A matrix with shear, or a mirror. */
    for (int i = 0; i < 16; i++)
        out[i] = (i % 5 == 0) ? 1.0f : 0.0f;
    for (int c = 0; c < 3; c++)
        for (int r = 0; r < 3; r++)
            out[4 * c + r] += rng_float(&R, -0.5f, 0.5f);
    if (kind == 7)
        out[0] = -out[0];
    for (int r = 0; r < 3; r++)
        out[12 + r] = rng_float(&R, -5, 5);
}

/* inverse(a) in double (Gauss-Jordan with partial pivoting); false when
 * singular. */
static bool inverse_d(const double a[16], double out[16])
{
    double m[4][8];
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++) {
            m[r][c] = a[4 * c + r];
            m[r][4 + c] = r == c ? 1.0 : 0.0;
        }
    for (int c = 0; c < 4; c++) {
        int piv = c;
        for (int r = c + 1; r < 4; r++)
            if (fabs(m[r][c]) > fabs(m[piv][c]))
                piv = r;
        if (fabs(m[piv][c]) < 1e-12)
            return false;
        for (int k = 0; k < 8; k++) {
            const double t = m[c][k];
            m[c][k] = m[piv][k];
            m[piv][k] = t;
        }
        const double d = m[c][c];
        for (int k = 0; k < 8; k++)
            m[c][k] /= d;
        for (int r = 0; r < 4; r++)
            if (r != c) {
                const double f = m[r][c];
                for (int k = 0; k < 8; k++)
                    m[r][k] -= f * m[c][k];
            }
    }
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++)
            out[4 * c + r] = m[r][4 + c];
    return true;
}

static const float *row_of(const float *arr, const sgrt_scene *s, sgrt_node n)
{
    return arr + 16u * (size_t)slot_of(s, n);
}

/* Both scenes, one op: the same result from each. */
#define BOTH(w, call_s, call_t)                                                        \
    do {                                                                               \
        const sgrt_result r1_ = (call_s);                                              \
        const sgrt_result r2_ = (call_t);                                              \
        CHECK_EQ_U((uint32_t)r1_, (uint32_t)r2_);                                      \
    } while (0)

static int pick_model(const model *m)
{
    for (int tries = 0; tries < 64; tries++) {
        const uint32_t i = rng_below(&R, MAXN);
        if (m->live[i])
            return (int)i;
    }
    return -1;
}

static bool in_subtree(const model *m, int n, int root)
{
    for (int a = n; a >= 0; a = m->parent[a])
        if (a == root)
            return true;
    return false;
}

/* The render world the model gives node i at alpha, in out (recursive over
 * parents; depth is small); *mag receives the largest |element| of the
 * render worlds along its chain (the magnitude float products along it
 * work at, which bounds their rounding). */
static void model_render(const model *m, int i, double al, double out[16], double *mag)
{
    double l[16];
    interp_d(m->from[i], m->to[i], al, l);
    if (al == 0.0)
        memcpy(l, m->from[i], sizeof l);
    if (al == 1.0)
        memcpy(l, m->to[i], sizeof l);
    if (m->parent[i] < 0) {
        memcpy(out, l, sizeof l);
        *mag = 1.0;
    } else {
        double p[16];
        model_render(m, m->parent[i], al, p, mag);
        mul_d(p, l, out);
    }
    for (int k = 0; k < 16; k++)
        if (fabs(out[k]) > *mag)
            *mag = fabs(out[k]);
}

/* Whether node i's render world at alpha 0 must be its previous world bit
 * for bit: neither it nor an ancestor is new, teleported or re-parented in
 * the last tick. */
static bool exact_at_zero(const model *m, const bool *odd, int i)
{
    for (int a = i; a >= 0; a = m->parent[a])
        if (odd[a])
            return false;
    return true;
}

/* Drain the render collect of w->s into the mirror and compare it with the
 * render array on every live slot. */
static void mirror_check(world *w)
{
    uint32_t slots = 0;
    const float *ra = sgrt_scene_render_world_array(w->s, &slots);
    REQUIRE(ra != NULL);
    if (slots > w->mirror_cap) {
        float *nm = realloc(w->mirror, (size_t)slots * 64u);
        REQUIRE(nm != NULL);
        memset(nm + 16u * (size_t)w->mirror_cap, 0xFF,
               (size_t)(slots - w->mirror_cap) * 64u);
        w->mirror = nm;
        w->mirror_cap = slots;
    }
    sgrt_range r[8];
    uint32_t n;
    bool more;
    do {
        REQUIRE(sgrt_scene_render_collect(w->s, r, 8, 2, &n, &more) == SGRT_OK);
        for (uint32_t k = 0; k < n; k++) {
            REQUIRE(r[k].first + r[k].count <= slots);
            memcpy(w->mirror + 16u * (size_t)r[k].first, ra + 16u * (size_t)r[k].first,
                   (size_t)r[k].count * 64u);
        }
    } while (more);
    for (uint32_t i = 0; i < MAXN; i++)
        if (w->m.live[i]) {
            const uint32_t sl = slot_of(w->s, w->m.h[i]);
            CHECK_MSG(memcmp(w->mirror + 16u * (size_t)sl, ra + 16u * (size_t)sl, 64) == 0,
                      "mirror of slot %u out of step", sl);
        }
}

static double worst_mid;
/* For the failure messages: the tick, and each node's last operation (its
 * kind x 1000 + the tick); INTERP_DEBUG=1 in the environment prints every
 * re-parent as it happens. */
static uint32_t cur_tick;
static int last_op[MAXN];

/* One frame at alpha on both scenes, checked. */
static void frame(world *w, const sgrt_executor *ex, float alpha, const bool *odd)
{
    OK(sgrt_scene_interpolate(w->s, alpha));
    OK(sgrt_scene_interpolate_parallel(w->t, alpha, ex));
    uint32_t ns = 0, nt = 0;
    const float *rs = sgrt_scene_render_world_array(w->s, &ns);
    const float *rt = sgrt_scene_render_world_array(w->t, &nt);
    const float *ws = sgrt_scene_world_array(w->s, NULL);
    const float *ps = sgrt_scene_prev_world_array(w->s, NULL);
    REQUIRE(rs && rt && ws && ps && ns == nt);
    for (int i = 0; i < (int)MAXN; i++) {
        if (!w->m.live[i])
            continue;
        const sgrt_node h = w->m.h[i];
        const float *g = row_of(rs, w->s, h);
        CHECK_MSG(memcmp(g, row_of(rt, w->t, w->m.ht[i]), 64) == 0,
                  "serial and parallel render worlds differ at node %d, alpha %g", i,
                  (double)alpha);
        float one[16];
        OK(sgrt_node_render_world(w->s, h, one));
        CHECK(memcmp(one, g, 64) == 0);
        if (alpha == 1.0f)
            CHECK_MSG(memcmp(g, row_of(ws, w->s, h), 64) == 0,
                      "alpha 1: render world of node %d is not its world", i);
        double want[16], mag = 1.0;
        model_render(&w->m, i, (double)alpha, want, &mag);
        if (alpha == 0.0f && exact_at_zero(&w->m, odd, i) && w->origin_moved) {
            /* The tick before's worlds in the new origin's frame: the
             * model's (the previous-world array shifts each float world,
             * carrying the old frame's rounding, so it is no reference). */
            CHECK_MSG(rel_miss(g, want) <= 1e-5, "alpha 0 after an origin move: node %d off "
                      "the tick before's world by %g of its largest element", i,
                      rel_miss(g, want));
        } else if (alpha == 0.0f && exact_at_zero(&w->m, odd, i))
            CHECK_MSG(memcmp(g, row_of(ps, w->s, h), 64) == 0,
                      "alpha 0: render world of node %d is not its previous world (%g %g, "
                      "parent %d, large %d)",
                      i, (double)g[12], (double)row_of(ps, w->s, h)[12], w->m.parent[i],
                      (int)w->large);
        double abs_miss = 0.0;
        for (int k = 0; k < 16; k++)
            if (fabs((double)g[k] - want[k]) > abs_miss)
                abs_miss = fabs((double)g[k] - want[k]);
        const double chain_miss = abs_miss / mag;
        if (chain_miss > worst_mid)
            worst_mid = chain_miss;
        CHECK_MSG(chain_miss <= 1e-4, "node %d alpha %g: off the model by %g (large %d, parent %d, tick %u, op %d, "
                  "odd %d)", i, (double)alpha, chain_miss, (int)w->large, w->m.parent[i], cur_tick,
                  last_op[i], (int)odd[i]);
    }
    mirror_check(w);
}

static void model_update(world *w)
{
    model *m = &w->m;
    const float *ws = sgrt_scene_world_array(w->s, NULL);
    const double d[3] = {m->last_origin[0] - m->origin[0], m->last_origin[1] - m->origin[1],
                         m->last_origin[2] - m->origin[2]};
    for (int i = 0; i < (int)MAXN; i++) {
        if (!m->live[i])
            continue;
        double now[16];
        if (m->parent[i] < 0) {
            to_d(row_of(ws, w->s, m->h[i]), now);
        } else {
            float l[16];
            OK(sgrt_node_local(w->s, m->h[i], l));
            to_d(l, now);
        }
        if (m->fresh[i] || m->tele[i]) {
            memcpy(m->from[i], now, sizeof now);
        } else {
            memcpy(m->from[i], m->to[i], sizeof now);
            if (m->parent[i] < 0 && !m->here[i])
                for (int j = 0; j < 4; j++)
                    for (int k = 0; k < 3; k++)
                        m->from[i][4 * j + k] += d[k] * m->from[i][4 * j + 3];
        }
        memcpy(m->to[i], now, sizeof now);
        m->fresh[i] = m->tele[i] = m->here[i] = false;
        m->existed[i] = true;
    }
    memcpy(m->last_origin, m->origin, sizeof m->origin);
}

static void destroy_subtree(model *m, int root)
{
    for (int i = 0; i < (int)MAXN; i++)
        if (m->live[i] && in_subtree(m, i, root))
            m->live[i] = false;
}

/* One random program of `ticks` ticks on two twin scenes, serial and
 * parallel interpolate, at kernel level `level`. */
static void run_program(sgrt_simd level, bool large, uint32_t ticks, test_exec_mode mode)
{
    world W;
    memset(&W, 0, sizeof W);
    world *w = &W;
    const uint32_t flags = (uint32_t)SGRT_SCENE_INTERPOLATE | (uint32_t)SGRT_SCENE_PREV_WORLD |
                           (large ? (uint32_t)SGRT_SCENE_LARGE_WORLD : 0u);
    w->s = make(flags, level);
    w->t = make(flags, level);
    REQUIRE(w->s && w->t);
    w->large = large;
    test_exec e;
    REQUIRE(test_exec_start(&e, mode, rng_next(&R), 3));
    const sgrt_executor ex = test_exec_executor(&e, 4);
    model *m = &w->m;
    /* Fillers, so that the nodes spread over several summary words and the
     * parallel sweep has ranges and a cross set. */
    sgrt_node filler;
    for (uint32_t i = 0; i < MAXN; i++) {
        for (uint32_t f = 0; f < 25; f++) {
            OK(sgrt_node_create(w->s, SGRT_NULL_NODE, &filler));
            OK(sgrt_node_create(w->t, SGRT_NULL_NODE, &filler));
        }
        if (i % 2)
            continue;
        const int p = i >= 8 && rng_below(&R, 4) ? pick_model(m) : -1;
        sgrt_node a, b;
        OK(sgrt_node_create(w->s, p < 0 ? SGRT_NULL_NODE : m->h[p], &a));
        OK(sgrt_node_create(w->t, p < 0 ? SGRT_NULL_NODE : m->ht[p], &b));
        m->h[i] = a;
        m->ht[i] = b;
        m->live[i] = true;
        m->parent[i] = p;
        m->fresh[i] = true;
        float l[16];
        random_local(l);
        OK(sgrt_node_set_local(w->s, a, l));
        OK(sgrt_node_set_local(w->t, b, l));
    }
    bool odd[MAXN];
    for (uint32_t tick = 0; tick < ticks; tick++) {
        memset(odd, 0, sizeof odd);
        cur_tick = tick;
        const bool origin_tick = large && tick % 7 == 5;
        if (origin_tick) {
            /* Before this tick's re-parents: a child made a root then is
             * anchored at the new origin. */
            const double o[3] = {rng_range(&R, -1e5, 1e5), rng_range(&R, -1e3, 1e3),
                                 rng_range(&R, -10, 10)};
            BOTH(w, sgrt_scene_set_origin(w->s, o), sgrt_scene_set_origin(w->t, o));
            memcpy(m->origin, o, sizeof o);
        }
        const uint32_t ops = rng_below(&R, 40);
        for (uint32_t op = 0; op < ops; op++) {
            const uint32_t kind = rng_below(&R, 100);
            const int i = pick_model(m);
            if (i < 0)
                continue;
            const sgrt_node h = m->h[i], ht = m->ht[i];
            last_op[i] = (int)(kind * 1000 + cur_tick);
            if (kind < 55) {
                float l[16];
                random_local(l);
                BOTH(w, sgrt_node_set_local(w->s, h, l), sgrt_node_set_local(w->t, ht, l));
            } else if (kind < 63) {
                BOTH(w, sgrt_node_teleport(w->s, h), sgrt_node_teleport(w->t, ht));
                m->tele[i] = odd[i] = true;
            } else if (kind < 75) {
                const int np = rng_below(&R, 4) ? pick_model(m) : -1;
                if (np >= 0 && in_subtree(m, np, i))
                    continue;
                const bool keep_world = rng_below(&R, 2);
                const sgrt_keep k = keep_world ? SGRT_KEEP_WORLD : SGRT_KEEP_LOCAL;
                const sgrt_node ph = np < 0 ? SGRT_NULL_NODE : m->h[np];
                const sgrt_node pht = np < 0 ? SGRT_NULL_NODE : m->ht[np];
                /* The model's carry, from the last update's worlds. */
                const float *ws = sgrt_scene_world_array(w->s, NULL);
                double carried[16], wn[16];
                to_d(row_of(ws, w->s, h), wn);
                bool inv_ok = true;
                if (np < 0) {
                    memcpy(carried, wn, sizeof wn);
                } else {
                    double pw[16], pi[16] = {0};
                    to_d(row_of(ws, w->s, ph), pw);
                    inv_ok = inverse_d(pw, pi);
                    mul_d(pi, wn, carried);
                }
                const bool was_root = m->parent[i] < 0;
                const sgrt_result r1 = sgrt_node_set_parent(w->s, h, ph, k);
                const sgrt_result r2 = sgrt_node_set_parent(w->t, ht, pht, k);
                CHECK_EQ_U((uint32_t)r1, (uint32_t)r2);
                if (r1 != SGRT_OK || m->parent[i] == np)
                    continue;
                if (getenv("INTERP_DEBUG"))
                    printf("tick %u: node %d parent %d -> %d keep_world %d was_root %d fresh %d "
                           "inv %d\n", cur_tick, i, m->parent[i], np, (int)keep_world,
                           (int)was_root, (int)m->fresh[i], (int)inv_ok);
                m->parent[i] = np;
                odd[i] = true;
                if (m->fresh[i])
                    continue;
                m->here[i] = false;
                if (keep_world) {
                    if (!inv_ok) {
                        float l[16];
                        OK(sgrt_node_local(w->s, h, l));
                        to_d(l, carried);
                    }
                    memcpy(m->to[i], carried, sizeof carried);
                } else if (was_root && np >= 0) {
                    float l[16];
                    OK(sgrt_node_local(w->s, h, l));
                    to_d(l, m->to[i]);
                } else if (!was_root && np < 0) {
                    m->here[i] = true;
                }
            } else if (kind < 85) {
                int slot = -1;
                for (int k = 0; k < (int)MAXN; k++)
                    if (!m->live[k]) {
                        slot = k;
                        break;
                    }
                if (slot < 0)
                    continue;
                const int p = rng_below(&R, 3) ? i : -1;
                sgrt_node a, b;
                OK(sgrt_node_create(w->s, p < 0 ? SGRT_NULL_NODE : m->h[p], &a));
                OK(sgrt_node_create(w->t, p < 0 ? SGRT_NULL_NODE : m->ht[p], &b));
                m->h[slot] = a;
                m->ht[slot] = b;
                m->live[slot] = true;
                m->parent[slot] = p;
                m->fresh[slot] = odd[slot] = true;
                m->tele[slot] = m->here[slot] = false;
                float l[16];
                random_local(l);
                OK(sgrt_node_set_local(w->s, a, l));
                OK(sgrt_node_set_local(w->t, b, l));
            } else if (kind < 92) {
                BOTH(w, sgrt_node_destroy(w->s, h), sgrt_node_destroy(w->t, ht));
                destroy_subtree(m, i);
            } else if (kind < 94) {
                BOTH(w, sgrt_scene_compact(w->s), sgrt_scene_compact(w->t));
            }
        }
        w->origin_moved = origin_tick;
        sgrt_scene_update(w->s);
        sgrt_scene_update_parallel(w->t, &ex);
        check_scene(w->s);
        check_scene(w->t);
        model_update(w);
        if (tick == 0) {
            /* Before the first interpolate: render worlds are worlds. */
            const float *rs = sgrt_scene_render_world_array(w->s, NULL);
            const float *ws = sgrt_scene_world_array(w->s, NULL);
            for (int i = 0; i < (int)MAXN; i++)
                if (m->live[i])
                    CHECK(memcmp(row_of(rs, w->s, m->h[i]), row_of(ws, w->s, m->h[i]), 64) ==
                          0);
            continue;
        }
        if (tick % 5 == 3)
            continue; /* a tick with no frame */
        frame(w, &ex, 1.0f, odd);
        frame(w, &ex, 0.0f, odd);
        frame(w, &ex, 0.37f, odd);
        frame(w, &ex, rng_float(&R, 0.0f, 1.0f), odd);
        check_scene(w->s);
    }
    test_exec_stop(&e);
    free(w->mirror);
    sgrt_scene_destroy(w->s);
    sgrt_scene_destroy(w->t);
}

/* A child at 10 on an arm turning 90 degrees a tick: half way it is on the
 * circle (radius 10), where interpolating worlds would cut the chord (7.07). */
static void test_arc(void)
{
    sgrt_scene *s = make(SGRT_SCENE_INTERPOLATE, SGRT_SIMD_AUTO);
    REQUIRE(s);
    sgrt_node arm, child;
    OK(sgrt_node_create(s, SGRT_NULL_NODE, &arm));
    OK(sgrt_node_create(s, arm, &child));
    float m[16];
    translation(10, 0, 0, m);
    OK(sgrt_node_set_local(s, child, m));
    double worst = 0.0;
    for (int tick = 0; tick < 8; tick++) {
        const double a = tick * (3.14159265358979 / 2);
        const float q[4] = {0, 0, (float)sin(a / 2), (float)cos(a / 2)};
        const float t[3] = {0, 0, 0}, sc[3] = {1, 1, 1};
        OK(sgrt_node_set_trs(s, arm, t, q, sc));
        sgrt_scene_update(s);
        for (int f = 0; f <= 8; f++) {
            OK(sgrt_scene_interpolate(s, (float)f / 8.0f));
            float r[16];
            OK(sgrt_node_render_world(s, child, r));
            const double radius = sqrt((double)r[12] * r[12] + (double)r[13] * r[13]);
            if (fabs(radius - 10.0) > worst)
                worst = fabs(radius - 10.0);
        }
    }
    CHECK_MSG(worst < 1e-4, "the child leaves the arc by %g", worst);
    sgrt_scene_destroy(s);
}

/* A teleported node jumps: at every alpha it is where the update put it. */
static void test_teleport(void)
{
    sgrt_scene *s = make(SGRT_SCENE_INTERPOLATE, SGRT_SIMD_AUTO);
    REQUIRE(s);
    sgrt_node n;
    OK(sgrt_node_create(s, SGRT_NULL_NODE, &n));
    sgrt_scene_update(s);
    set_translation(s, n, 1, 0, 0);
    sgrt_scene_update(s);
    OK(sgrt_scene_interpolate(s, 0.5f));
    float r[16];
    OK(sgrt_node_render_world(s, n, r));
    CHECK(r[12] == 0.5f);
    OK(sgrt_node_teleport(s, n)); /* before the write */
    set_translation(s, n, 100, 0, 0);
    sgrt_scene_update(s);
    OK(sgrt_scene_interpolate(s, 0.5f));
    OK(sgrt_node_render_world(s, n, r));
    CHECK(r[12] == 100.0f);
    set_translation(s, n, 102, 0, 0);
    OK(sgrt_node_teleport(s, n)); /* after the write */
    sgrt_scene_update(s);
    OK(sgrt_scene_interpolate(s, 0.25f));
    OK(sgrt_node_render_world(s, n, r));
    CHECK(r[12] == 102.0f);
    /* It lapsed: the next move interpolates. */
    set_translation(s, n, 104, 0, 0);
    sgrt_scene_update(s);
    OK(sgrt_scene_interpolate(s, 0.5f));
    OK(sgrt_node_render_world(s, n, r));
    CHECK(r[12] == 103.0f);
    /* It stops: its render world rests at its world. */
    sgrt_scene_update(s);
    OK(sgrt_scene_interpolate(s, 0.5f));
    OK(sgrt_node_render_world(s, n, r));
    CHECK(r[12] == 104.0f);
    sgrt_scene_destroy(s);
}

/* Bad input: refused with a message, nothing changed. */
static void test_refusals(void)
{
    test_log log = {0};
    const sgrt_scene_desc d = {.flags = SGRT_SCENE_INTERPOLATE, .log = test_log_record,
                               .log_user = &log};
    sgrt_scene *s = NULL;
    REQUIRE(sgrt_scene_create(&d, &s) == SGRT_OK);
    sgrt_node n, gone;
    OK(sgrt_node_create(s, SGRT_NULL_NODE, &n));
    OK(sgrt_node_create(s, SGRT_NULL_NODE, &gone));
    OK(sgrt_node_destroy(s, gone));
    sgrt_scene_update(s);
    set_translation(s, n, 3, 0, 0);
    sgrt_scene_update(s);
    OK(sgrt_scene_interpolate(s, 0.5f));
    uint32_t slots = 0;
    const float *ra = sgrt_scene_render_world_array(s, &slots);
    REQUIRE(ra);
    float before[16];
    memcpy(before, ra + 16u * slot_of(s, n), 64);
    const float bad[] = {-0.001f, 1.001f, NAN, INFINITY, -INFINITY};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const uint32_t c = log.count;
        CHECK_RES(sgrt_scene_interpolate(s, bad[i]), SGRT_ERR_INVALID_ARG);
        CHECK(log.count == c + 1 && strstr(log.message, "alpha"));
        CHECK_RES(sgrt_scene_interpolate_parallel(s, bad[i], NULL), SGRT_ERR_INVALID_ARG);
        CHECK(memcmp(before, ra + 16u * slot_of(s, n), 64) == 0);
    }
    float out[16];
    uint32_t c = log.count;
    CHECK_RES(sgrt_node_render_world(s, gone, out), SGRT_ERR_STALE_HANDLE);
    CHECK_RES(sgrt_node_teleport(s, gone), SGRT_ERR_STALE_HANDLE);
    CHECK_RES(sgrt_node_render_world(s, n, NULL), SGRT_ERR_INVALID_ARG);
    CHECK(log.count == c + 3);
    uint32_t cnt = 7;
    bool more = true;
    CHECK_RES(sgrt_scene_render_collect(s, NULL, 4, 0, &cnt, &more), SGRT_ERR_INVALID_ARG);
    CHECK(cnt == 0 && !more);
    CHECK_RES(sgrt_scene_render_collect(s, NULL, 0, 0, NULL, &more), SGRT_ERR_INVALID_ARG);
    /* NULL executor: the serial interpolate, with a warning. */
    c = log.count;
    OK(sgrt_scene_interpolate_parallel(s, 0.5f, NULL));
    CHECK(log.count == c + 1 && strstr(log.message, "serial"));
    CHECK(memcmp(before, ra + 16u * slot_of(s, n), 64) == 0);
    CHECK_RES(sgrt_scene_interpolate(NULL, 0.5f), SGRT_ERR_INVALID_ARG);
    CHECK(sgrt_scene_render_world_array(NULL, &slots) == NULL && slots == 0);
    sgrt_scene_destroy(s);

    /* Without the flag. */
    log.count = 0;
    const sgrt_scene_desc d0 = {.log = test_log_record, .log_user = &log};
    REQUIRE(sgrt_scene_create(&d0, &s) == SGRT_OK);
    OK(sgrt_node_create(s, SGRT_NULL_NODE, &n));
    CHECK_RES(sgrt_scene_interpolate(s, 0.5f), SGRT_ERR_INVALID_ARG);
    CHECK(log.count == 1 && strstr(log.message, "SGRT_SCENE_INTERPOLATE"));
    CHECK_RES(sgrt_scene_interpolate_parallel(s, 0.5f, NULL), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_node_render_world(s, n, out), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt_node_teleport(s, n), SGRT_ERR_INVALID_ARG);
    CHECK(sgrt_scene_render_world_array(s, &slots) == NULL && slots == 0);
    CHECK_RES(sgrt_scene_render_collect(s, NULL, 0, 0, &cnt, &more), SGRT_ERR_INVALID_ARG);
    CHECK(log.count == 6);
    sgrt_scene_destroy(s);
}

/* Restore gives back every render world and every answer. */
static void test_snapshot(void)
{
    sgrt_scene *s = make(SGRT_SCENE_INTERPOLATE, SGRT_SIMD_AUTO);
    REQUIRE(s);
    sgrt_node n[40];
    for (int i = 0; i < 40; i++) {
        OK(sgrt_node_create(s, i ? n[rng_below(&R, (uint32_t)i)] : SGRT_NULL_NODE, &n[i]));
        float l[16];
        random_local(l);
        OK(sgrt_node_set_local(s, n[i], l));
    }
    sgrt_scene_update(s);
    for (int i = 0; i < 40; i += 3) {
        float l[16];
        random_local(l);
        OK(sgrt_node_set_local(s, n[i], l));
    }
    OK(sgrt_node_teleport(s, n[5]));
    sgrt_scene_update(s);
    OK(sgrt_scene_interpolate(s, 0.3f));
    size_t bytes = 0;
    OK(sgrt_scene_snapshot_size(s, &bytes));
    void *buf = malloc(bytes);
    REQUIRE(buf);
    OK(sgrt_scene_snapshot(s, buf, bytes, NULL));
    uint32_t slots = 0;
    const float *ra = sgrt_scene_render_world_array(s, &slots);
    float *saved = malloc((size_t)slots * 64u);
    REQUIRE(saved);
    memcpy(saved, ra, (size_t)slots * 64u);
    float after_03[40][16], after_06[40][16];
    OK(sgrt_scene_interpolate(s, 0.6f));
    for (int i = 0; i < 40; i++)
        OK(sgrt_node_render_world(s, n[i], after_06[i]));
    /* Change everything, then roll back. */
    for (int i = 0; i < 40; i += 2) {
        float l[16];
        random_local(l);
        OK(sgrt_node_set_local(s, n[i], l));
    }
    sgrt_scene_update(s);
    OK(sgrt_scene_interpolate(s, 0.9f));
    OK(sgrt_scene_restore(s, buf, bytes));
    check_scene(s);
    ra = sgrt_scene_render_world_array(s, &slots);
    for (int i = 0; i < 40; i++) {
        OK(sgrt_node_render_world(s, n[i], after_03[i]));
        const uint32_t sl = slot_of(s, n[i]);
        CHECK(memcmp(after_03[i], saved + 16u * sl, 64) == 0);
        CHECK(memcmp(ra + 16u * sl, saved + 16u * sl, 64) == 0);
    }
    /* The next frame is the one the scene gave after the snapshot. */
    OK(sgrt_scene_interpolate(s, 0.6f));
    for (int i = 0; i < 40; i++) {
        float r[16];
        OK(sgrt_node_render_world(s, n[i], r));
        CHECK(memcmp(r, after_06[i], 64) == 0);
    }
    /* A restore reports every live slot to the collect. */
    OK(sgrt_scene_restore(s, buf, bytes));
    sgrt_range rg[4];
    uint32_t cnt;
    bool more;
    uint32_t covered = 0;
    do {
        OK(sgrt_scene_render_collect(s, rg, 4, 1024, &cnt, &more));
        for (uint32_t k = 0; k < cnt; k++)
            covered += rg[k].count;
    } while (more);
    CHECK(covered >= 40);
    free(saved);
    free(buf);
    sgrt_scene_destroy(s);
}

/* Executors that break their contract: the interpolate repairs what it can
 * detect, reports it, and ends as the serial one. */
typedef struct bad_exec {
    int mode; /* 0 skip index 0, 1 repeat every index, 2 a stray index, 3 call the scene */
    sgrt_scene *s;
    sgrt_result inner;
} bad_exec;

static void bad_run(void *user, uint32_t count, void (*fn)(void *ctx, uint32_t i), void *ctx)
{
    bad_exec *b = user;
    for (uint32_t i = 0; i < count; i++) {
        if (b->mode == 0 && i == 0)
            continue;
        fn(ctx, i);
        if (b->mode == 1)
            fn(ctx, i);
        if (b->mode == 3 && i == 0)
            b->inner = sgrt_scene_interpolate(b->s, 0.5f);
    }
    if (b->mode == 2)
        fn(ctx, count + 5);
}

static void test_bad_executors(void)
{
    for (int mode = 0; mode < 4; mode++) {
        test_log log = {0};
        const sgrt_scene_desc d = {.flags = SGRT_SCENE_INTERPOLATE, .log = test_log_record,
                                   .log_user = &log};
        sgrt_scene *a = NULL, *b = NULL;
        REQUIRE(sgrt_scene_create(&d, &a) == SGRT_OK);
        REQUIRE(sgrt_scene_create(&d, &b) == SGRT_OK);
        enum { COUNT = 6000 };
        static sgrt_node na[COUNT], nb[COUNT];
        for (uint32_t i = 0; i < COUNT; i++) {
            const uint32_t p = i > 4 && rng_below(&R, 3) ? rng_below(&R, i) : COUNT;
            OK(sgrt_node_create(a, p < COUNT ? na[p] : SGRT_NULL_NODE, &na[i]));
            OK(sgrt_node_create(b, p < COUNT ? nb[p] : SGRT_NULL_NODE, &nb[i]));
        }
        for (int tick = 0; tick < 2; tick++) {
            for (uint32_t i = 0; i < COUNT; i++) {
                float l[16];
                random_local(l);
                OK(sgrt_node_set_local(a, na[i], l));
                OK(sgrt_node_set_local(b, nb[i], l));
            }
            sgrt_scene_update(a);
            sgrt_scene_update(b);
        }
        bad_exec be = {mode, b, SGRT_OK};
        const sgrt_executor ex = {bad_run, &be, 4};
        OK(sgrt_scene_interpolate(a, 0.5f));
        log.count = 0;
        OK(sgrt_scene_interpolate_parallel(b, 0.5f, &ex));
        CHECK_MSG(log.count >= 1 && log.last.code == SGRT_ERR_EXECUTOR,
                  "executor mode %d: reported %u entries", mode, log.count);
        if (mode == 3)
            CHECK(be.inner == SGRT_ERR_EXECUTOR);
        const float *ra = sgrt_scene_render_world_array(a, NULL);
        const float *rb = sgrt_scene_render_world_array(b, NULL);
        for (uint32_t i = 0; i < COUNT; i++)
            CHECK(memcmp(row_of(ra, a, na[i]), row_of(rb, b, nb[i]), 64) == 0);
        check_scene(b);
        sgrt_scene_destroy(a);
        sgrt_scene_destroy(b);
    }
}

/* A forged snapshot (checksum right) whose render world of a node at rest
 * is not its world, or whose ticks differ where nothing moved, is refused
 * with a message naming it, and nothing changes. */
static void test_forged(void)
{
    test_log log = {0};
    const sgrt_scene_desc d = {.flags = SGRT_SCENE_INTERPOLATE, .log = test_log_record,
                               .log_user = &log};
    sgrt_scene *s = NULL;
    REQUIRE(sgrt_scene_create(&d, &s) == SGRT_OK);
    sgrt_node n[8];
    for (int i = 0; i < 8; i++)
        OK(sgrt_node_create(s, i ? n[i - 1] : SGRT_NULL_NODE, &n[i]));
    set_translation(s, n[0], 1, 2, 3);
    sgrt_scene_update(s);
    sgrt_scene_update(s); /* everything at rest */
    OK(sgrt_scene_interpolate(s, 0.5f));
    size_t bytes = 0;
    OK(sgrt_scene_snapshot_size(s, &bytes));
    uint8_t *good = malloc(bytes), *bad = malloc(bytes);
    REQUIRE(good && bad);
    OK(sgrt_scene_snapshot(s, good, bytes, NULL));
    sgrt__snaplayout L;
    sgrt__snap_layout(s, s->slot_end, s->handle_used, s->free_count, &L);
    const char *names[2] = {"render", "from"};
    for (int k = 0; k < 2; k++) {
        memcpy(bad, good, bytes);
        uint8_t *at = NULL;
        for (uint32_t j = 0; j < s->decl_count; j++)
            if (strcmp(s->decl[j]->name, names[k]) == 0)
                at = bad + L.fol[j];
        REQUIRE(at != NULL);
        at[64u * slot_of(s, n[3]) + 48u] ^= 0x40u; /* a translation's bits */
        const uint64_t c = XXH3_64bits(bad + 32, bytes - 32u);
        for (int i = 0; i < 8; i++)
            bad[24 + i] = (uint8_t)(c >> (8 * i));
        log.count = 0;
        CHECK_RES(sgrt_scene_restore(s, bad, bytes), SGRT_ERR_SNAPSHOT);
        CHECK_MSG(log.count == 1 && strstr(log.message, "interp"), "forged %s: %s", names[k],
                  log.message);
        uint8_t *now = malloc(bytes);
        REQUIRE(now);
        OK(sgrt_scene_snapshot(s, now, bytes, NULL));
        CHECK(memcmp(now, good, bytes) == 0);
        free(now);
    }
    free(good);
    free(bad);
    sgrt_scene_destroy(s);
}

int main(int argc, char **argv)
{
    rng_seed_from_args(&R, argc, argv, "test_interp");
    test_arc();
    test_teleport();
    test_refusals();
    test_snapshot();
    test_bad_executors();
    test_forged();
    static const sgrt_simd levels[] = {SGRT_SIMD_SCALAR, SGRT_SIMD_X4, SGRT_SIMD_AVX,
                                       SGRT_SIMD_AVX512, SGRT_SIMD_AUTO};
    static const test_exec_mode modes[] = {TEST_EXEC_IN_ORDER, TEST_EXEC_SHUFFLED,
                                           TEST_EXEC_THREADS};
    for (size_t l = 0; l < sizeof levels / sizeof levels[0]; l++)
        for (int large = 0; large < 2; large++)
            run_program(levels[l], large != 0, 40, modes[(l + (size_t)large) % 3]);
    printf("test_interp: largest miss against the model %.3g (of the largest element along "
           "the chain)\n",
           worst_mid);
    return test_report("test_interp");
}
