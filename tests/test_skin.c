/* SPDX-License-Identifier: MIT */
/* Skinning palettes (sgrt_skin_*).
 *
 *  - random programs (nodes created, moved, destroyed and re-parented, in
 *    both keep modes; skins made and destroyed over random joints with
 *    repeats, shared between skins, with a mesh in world space, at a joint,
 *    above the joints, beside them or below one; compactions; in a large
 *    world, origin moves) against a double-precision model of the scene
 *    kept here: every palette, normal matrix and previous palette within
 *    the bound the header states, a dead joint's entry and a frozen skin
 *    as they were, a copy of every array kept only through
 *    sgrt_skin_collect equal to the arrays after every update, and nothing
 *    reported that the update did not recompute;
 *  - the same program on twin scenes, one updated serially on the default
 *    kernel, one in parallel on a thread pool, one serially on each lower
 *    kernel level: every array bit for bit alike, the same ranges;
 *  - bad input to every call (zero, foreign, destroyed handles and an
 *    object of another kind, NULL pointers, count 0, unknown flags,
 *    non-finite inverse binds, stale nodes): refused with a message naming
 *    the argument, nothing changed and nothing allocated;
 *  - a restore (white-box: worlds rewritten by hand, then the seam's
 *    restored event): the palettes of the changed joints and of skins whose
 *    mesh changed true at once, and only what differs reported;
 *  - a real rollback (sgrt_scene_restore after moves, a destroyed joint and
 *    a moved mesh): every palette, normal matrix and previous palette as
 *    they were at the snapshot, bit for bit, a dead joint alive again, a
 *    mirror kept through collect equal to them; and a snapshot's bytes
 *    the same with skins and without (no object is in a snapshot). */
#include "internal.h"
#include "follow.h"
#include "testutil.h"
#include "lib/refmodel.h"

/* ---- the model -------------------------------------------------------------------- */

enum { MAXN = 3000, MAXSKIN = 24, MAXJ = 96 };

typedef struct mnode {
    int32_t parent; /* -1: a root */
    bool alive;
    float local[16];
    double anchor[3];
} mnode;

typedef struct mskin {
    bool alive, frozen;
    uint32_t count, flags;
    int32_t mesh; /* model index, -1: world space */
    int32_t joint[MAXJ];
    bool dead[MAXJ];
    bool binds;
    float bind[MAXJ][16];
    /* What the library showed as the joint's node died (a dead joint keeps
     * it), or the whole skin as its mesh died. */
    float kept[MAXJ][12];
    /* The copies kept through sgrt_skin_collect alone. */
    float mirror[MAXJ][12], mirror_n[MAXJ][12], mirror_p[MAXJ][12];
    /* Updates since the skin was made; the last update's recomputed joints. */
    uint32_t updates;
} mskin;

/* Twin scenes: [0] serial, default kernel; [1] parallel on a pool; [2..]
 * serial on each lower level. */
enum { TWINS_MAX = 6 };

typedef struct rig {
    uint32_t twins;
    sgrt_scene *s[TWINS_MAX];
    sgrt_node h[TWINS_MAX][MAXN];
    sgrt_skin k[TWINS_MAX][MAXSKIN];
    mnode m[MAXN];
    mskin sk[MAXSKIN];
    uint32_t n;
    bool large;
    double origin[3];
    /* This update's recomputed nodes (the model's dirty closure). */
    bool moved[MAXN], marked[MAXN];
    const sgrt_executor *ex;
    /* What the run saw: the worst error / bound of each array. */
    double worst[3];
} rig;

static void abs_d(const double *a, double *out)
{
    for (int i = 0; i < 16; i++)
        out[i] = fabs(a[i]);
}

/* World of model node i in double (origin-relative), and the product of
 * the absolute locals along its chain (what the float world's error scales
 * with). */
static void world_d(const rig *g, int32_t i, double w[16], double a[16])
{
    double l[16], la[16], pw[16], pa[16];
    for (int k = 0; k < 16; k++)
        l[k] = g->m[i].local[k];
    abs_d(l, la);
    if (g->m[i].parent < 0) {
        for (int k = 0; g->large && k < 3; k++) {
            const double d = g->m[i].anchor[k] - g->origin[k];
            for (int c = 0; c < 4; c++) {
                l[4 * c + k] += d * l[4 * c + 3];
                la[4 * c + k] += fabs(d) * fabs(l[4 * c + 3]);
            }
        }
        memcpy(w, l, sizeof l);
        memcpy(a, la, sizeof la);
        return;
    }
    world_d(g, g->m[i].parent, pw, pa);
    ref_mul_d(pw, l, w);
    ref_mul_d(pa, la, a);
}

/* The cofactor of P's 3x3 as the header defines it (each row the cross
 * product of the other two), in the type of p and n. */
#define COFACTOR(p, n)                                                                 \
    for (int r_ = 0; r_ < 3; r_++) {                                                   \
        const int u_ = 4 * ((r_ + 1) % 3), v_ = 4 * ((r_ + 2) % 3);                    \
        (n)[4 * r_ + 0] = (p)[u_ + 1] * (p)[v_ + 2] - (p)[u_ + 2] * (p)[v_ + 1];         \
        (n)[4 * r_ + 1] = (p)[u_ + 2] * (p)[v_ + 0] - (p)[u_ + 0] * (p)[v_ + 2];         \
        (n)[4 * r_ + 2] = (p)[u_ + 0] * (p)[v_ + 1] - (p)[u_ + 1] * (p)[v_ + 0];         \
        (n)[4 * r_ + 3] = 0;                                                           \
    }

/* The model's palette of joint j of skin x: P (rows 0..2, as the library
 * lays them out), its cofactor N, and the magnitudes the bound scales with:
 * |IM| x (A_joint + |IM| x A_mesh x |IM| x |W|) x |B|, per element, where A
 * are the absolute chain products (the errors of the float worlds). */
static void palette_d(const rig *g, const mskin *x, uint32_t j, double p[12], double n[12],
                      double mag[12])
{
    double im[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}, mw[16], ma[16];
    double ia[16], e[16];
    abs_d(im, ia);
    memset(e, 0, sizeof e);
    if (x->mesh >= 0) {
        world_d(g, x->mesh, mw, ma);
        if (!ref_inverse_d(mw, im))
            memcpy(im, (double[16]){1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}, sizeof im);
        abs_d(im, ia);
        double t[16];
        ref_mul_d(ia, ma, t);
        ref_mul_d(t, ia, e); /* |IM| A_mesh |IM|: the inverse's error scale */
    }
    double w[16], wa[16], b[16], ba[16];
    world_d(g, x->joint[j], w, wa);
    for (int k = 0; k < 16; k++)
        b[k] = x->binds ? x->bind[j][k] : (k % 5 == 0);
    abs_d(b, ba);
    double aw[16], pf[16], t1[16], t2[16], t3[16], absw[16];
    ref_mul_d(im, w, aw);
    ref_mul_d(aw, b, pf);
    abs_d(w, absw);
    ref_mul_d(e, absw, t1); /* the inverse's error through W */
    ref_mul_d(ia, wa, t2);  /* the world's error through IM */
    for (int k = 0; k < 16; k++)
        t2[k] += t1[k];
    ref_mul_d(t2, ba, t3);
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 4; c++) {
            p[4 * r + c] = pf[4 * c + r];
            mag[4 * r + c] = t3[4 * c + r];
        }
    COFACTOR(p, n)
}

/* ---- the bound ---------------------------------------------------------------------- */

/* |P - P_model| <= SKIN_BOUND x (1 + mag) per element (the header's
 * statement), mag as palette_d forms it. Normals: a product of two rows,
 * so the bound of a row's error times the other's size, doubled. */
#define SKIN_BOUND 0x1p-18

static double palette_error(const float *got, const double *want, const double *mag)
{
    double worst = 0.0;
    for (int i = 0; i < 12; i++) {
        const double e = fabs((double)got[i] - want[i]) / (SKIN_BOUND * (1.0 + mag[i]));
        if (!(e <= worst))
            worst = e;
    }
    return worst;
}

static double normal_error(const float *got, const double *want, const double *p,
                           const double *mag)
{
    double worst = 0.0;
    for (int r = 0; r < 3; r++) {
        double row = 0.0, err = 0.0;
        for (int c = 0; c < 3; c++) {
            for (int rr = 0; rr < 3; rr++)
                if (rr != r) {
                    row = fmax(row, fabs(p[4 * rr + c]));
                    err = fmax(err, SKIN_BOUND * (1.0 + mag[4 * rr + c]));
                }
        }
        for (int c = 0; c < 4; c++) {
            const double e = fabs((double)got[4 * r + c] - want[4 * r + c]) /
                             (4.0 * (1.0 + row) * err + 1e-30);
            if (!(e <= worst))
                worst = e;
        }
    }
    return worst;
}

/* ---- the rig: twins and the model, changed alike ------------------------------------- */

static test_exec pool;

static void rig_open(rig *g, uint32_t twins, bool large, const sgrt_executor *ex)
{
    memset(g, 0, sizeof *g);
    g->twins = twins;
    g->large = large;
    g->ex = ex;
    static const sgrt_simd level[TWINS_MAX] = {SGRT_SIMD_AUTO, SGRT_SIMD_AUTO,
                                               SGRT_SIMD_SCALAR, SGRT_SIMD_X4,
                                               SGRT_SIMD_AVX, SGRT_SIMD_AVX512};
    for (uint32_t t = 0; t < twins; t++) {
        const sgrt_scene_desc d = {.max_simd = level[t],
                                   .flags = large ? (uint32_t)SGRT_SCENE_LARGE_WORLD : 0u};
        g->s[t] = new_scene_desc(&d);
    }
    for (int a = 0; large && a < 3; a++)
        g->origin[a] = 1e6 * (a + 1);
    for (uint32_t t = 0; large && t < twins; t++)
        OK(sgrt_scene_set_origin(g->s[t], g->origin));
}

static void rig_close(rig *g)
{
    for (uint32_t t = 0; t < g->twins; t++)
        sgrt_scene_destroy(g->s[t]);
}

static bool below(const rig *g, int32_t i, int32_t anc) /* i is anc or below it */
{
    for (; i >= 0; i = g->m[i].parent)
        if (i == anc)
            return true;
    return false;
}

static void mark(rig *g, uint32_t i) { g->marked[i] = true; }

static void node_create(rig *g, int32_t parent)
{
    if (g->n >= MAXN || (parent >= 0 && !g->m[parent].alive))
        return;
    const uint32_t i = g->n++;
    mnode *m = &g->m[i];
    m->parent = parent;
    m->alive = true;
    memcpy(m->local, IDENTITY, sizeof IDENTITY);
    if (parent < 0)
        memcpy(m->anchor, g->origin, sizeof m->anchor); /* a new root: at the origin */
    for (uint32_t t = 0; t < g->twins; t++)
        OK(sgrt_node_create(g->s[t], parent < 0 ? SGRT_NULL_NODE : g->h[t][parent], &g->h[t][i]));
    mark(g, i);
}

static void node_set_local(rig *g, uint32_t i, const float l[16])
{
    if (memcmp(g->m[i].local, l, 64) != 0)
        mark(g, i);
    memcpy(g->m[i].local, l, 64);
    for (uint32_t t = 0; t < g->twins; t++)
        OK(sgrt_node_set_local(g->s[t], g->h[t][i], l));
}

/* A joint's or mesh's node dies: each skin keeps what it showed. */
static void node_destroy(rig *g, uint32_t i)
{
    const float *pal[MAXSKIN];
    for (uint32_t x = 0; x < MAXSKIN; x++)
        pal[x] = g->sk[x].alive ? sgrt_skin_palette(g->s[0], g->k[0][x], NULL) : NULL;
    for (uint32_t j = 0; j < g->n; j++) {
        if (!g->m[j].alive || !below(g, (int32_t)j, (int32_t)i))
            continue;
        for (uint32_t x = 0; x < MAXSKIN; x++) {
            mskin *k = &g->sk[x];
            if (!k->alive || k->frozen)
                continue;
            if (k->mesh == (int32_t)j) {
                k->frozen = true;
                for (uint32_t q = 0; q < k->count; q++)
                    memcpy(k->kept[q], pal[x] + 12u * q, 48);
            }
            for (uint32_t q = 0; q < k->count && !k->frozen; q++)
                if (k->joint[q] == (int32_t)j && !k->dead[q]) {
                    k->dead[q] = true;
                    memcpy(k->kept[q], pal[x] + 12u * q, 48);
                }
        }
    }
    for (uint32_t j = 0; j < g->n; j++)
        if (g->m[j].alive && below(g, (int32_t)j, (int32_t)i) && j != i)
            g->m[j].alive = false;
    g->m[i].alive = false;
    for (uint32_t t = 0; t < g->twins; t++)
        OK(sgrt_node_destroy(g->s[t], g->h[t][i]));
}

static void node_set_parent(rig *g, uint32_t i, int32_t parent, sgrt_keep keep)
{
    if (parent >= 0 && below(g, parent, (int32_t)i))
        return; /* a cycle: the library's refusal is tested elsewhere */
    if (g->m[i].parent == parent)
        return;
    if (keep == SGRT_KEEP_WORLD) {
        /* The new local is the library's: read it back from twin 0 (which
         * may refuse a world it cannot keep). */
        if (sgrt_node_set_parent(g->s[0], g->h[0][i],
                                 parent < 0 ? SGRT_NULL_NODE : g->h[0][parent], keep) != SGRT_OK)
            return;
        float l[16];
        OK(sgrt_node_local(g->s[0], g->h[0][i], l));
        for (uint32_t t = 1; t < g->twins; t++)
            OK(sgrt_node_set_parent(g->s[t], g->h[t][i],
                                    parent < 0 ? SGRT_NULL_NODE : g->h[t][parent], keep));
        memcpy(g->m[i].local, l, 64);
        if (parent < 0)
            memcpy(g->m[i].anchor, g->origin, sizeof g->origin);
    } else {
        for (uint32_t t = 0; t < g->twins; t++)
            OK(sgrt_node_set_parent(g->s[t], g->h[t][i],
                                    parent < 0 ? SGRT_NULL_NODE : g->h[t][parent], keep));
        if (parent < 0)
            memcpy(g->m[i].anchor, g->origin, sizeof g->origin);
    }
    g->m[i].parent = parent;
    mark(g, i);
}

static int32_t pick(const rig *g, rng *r)
{
    for (int tries = 0; tries < 64 && g->n; tries++) {
        const uint32_t i = rng_below(r, g->n);
        if (g->m[i].alive)
            return (int32_t)i;
    }
    return -1;
}

/* A skin over `count` joints drawn near `base` (a skeleton's nodes are
 * close), with the mesh as `mesh_kind` says: 0 world space, 1 a joint, 2
 * an ancestor of the base, 3 any live node. */
static void skin_create(rig *g, rng *r, uint32_t x)
{
    mskin *k = &g->sk[x];
    const int32_t base = pick(g, r);
    if (base < 0 || k->alive)
        return;
    memset(k, 0, sizeof *k);
    k->count = 1u + rng_below(r, MAXJ);
    for (uint32_t q = 0; q < k->count; q++) {
        int32_t j = -1;
        if (rng_below(r, 6) == 0 && q)
            j = k->joint[rng_below(r, q)]; /* a repeat */
        for (int tries = 0; j < 0 && tries < 8; tries++) {
            const uint32_t c = (uint32_t)base + rng_below(r, 64);
            if (c < g->n && g->m[c].alive)
                j = (int32_t)c;
        }
        k->joint[q] = j >= 0 ? j : base;
    }
    switch (rng_below(r, 4)) {
    case 0: k->mesh = -1; break;
    case 1: k->mesh = k->joint[rng_below(r, k->count)]; break;
    case 2: {
        int32_t a = base;
        for (uint32_t up = rng_below(r, 3); up && g->m[a].parent >= 0; up--)
            a = g->m[a].parent;
        k->mesh = a;
        break;
    }
    default: k->mesh = pick(g, r); break;
    }
    k->binds = rng_below(r, 4) != 0;
    for (uint32_t q = 0; k->binds && q < k->count; q++)
        random_affine(r, k->bind[q]);
    k->flags = (uint32_t)rng_below(r, 4);
    for (uint32_t t = 0; t < g->twins; t++) {
        sgrt_node j[MAXJ];
        for (uint32_t q = 0; q < k->count; q++)
            j[q] = g->h[t][k->joint[q]];
        const sgrt_skin_desc d = {k->count, j, k->binds ? k->bind[0] : NULL,
                                  k->mesh < 0 ? SGRT_NULL_NODE : g->h[t][k->mesh], k->flags};
        OK(sgrt_skin_create(g->s[t], &d, &g->k[t][x]));
    }
    k->alive = true;
    for (uint32_t q = 0; q < k->count; q++) {
        memcpy(k->mirror[q], (const float[12]){1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0}, 48);
        memcpy(k->mirror_n[q], k->mirror[q], 48);
        memcpy(k->mirror_p[q], k->mirror[q], 48);
    }
}

static void skin_destroy(rig *g, uint32_t x)
{
    if (!g->sk[x].alive)
        return;
    for (uint32_t t = 0; t < g->twins; t++)
        OK(sgrt_skin_destroy(g->s[t], g->k[t][x]));
    g->sk[x].alive = false;
}

/* ---- the update and what it must leave ------------------------------------------------ */

static const float *arr(const rig *g, uint32_t t, uint32_t x, int which)
{
    const sgrt_skin k = g->k[t][x];
    return which == 0 ? sgrt_skin_palette(g->s[t], k, NULL)
           : which == 1 ? sgrt_skin_normals(g->s[t], k, NULL)
                        : sgrt_skin_prev_palette(g->s[t], k, NULL);
}

/* Drain every twin's collect of skin x: the same ranges on every twin, the
 * mirror updated from twin 0's arrays; `reported` receives the joints. */
static void drain(rig *g, uint32_t x, bool reported[MAXJ], const char *what)
{
    mskin *k = &g->sk[x];
    memset(reported, 0, MAXJ * sizeof *reported);
    sgrt_range r[TWINS_MAX][8];
    uint32_t n[TWINS_MAX];
    bool more[TWINS_MAX];
    const uint32_t gap = x % 3u;
    do {
        for (uint32_t t = 0; t < g->twins; t++) {
            OK(sgrt_skin_collect(g->s[t], g->k[t][x], r[t], 8, gap, &n[t], &more[t]));
            CHECK_MSG(n[t] == n[0] && more[t] == more[0] &&
                          memcmp(r[t], r[0], n[0] * sizeof r[0][0]) == 0,
                      "%s: skin %u: twin %u collects other ranges", what, x, t);
        }
        for (uint32_t q = 0; q < n[0]; q++) {
            CHECK(r[0][q].count > 0 && r[0][q].first + r[0][q].count <= k->count);
            for (uint32_t j = r[0][q].first; j < r[0][q].first + r[0][q].count && j < k->count;
                 j++) {
                reported[j] = true;
                memcpy(k->mirror[j], arr(g, 0, x, 0) + 12u * j, 48);
                if (k->flags & SGRT_SKIN_NORMALS)
                    memcpy(k->mirror_n[j], arr(g, 0, x, 1) + 12u * j, 48);
                if (k->flags & SGRT_SKIN_PREV)
                    memcpy(k->mirror_p[j], arr(g, 0, x, 2) + 12u * j, 48);
            }
        }
    } while (more[0]);
}

static void cofactor_f(const float *p, float *n) { COFACTOR(p, n) }

/* Update every twin, then hold each skin to the model: see the top. */
static void rig_update(rig *g, const char *what)
{
    /* The model's recomputed nodes: marked, or below a marked one. */
    for (uint32_t i = 0; i < g->n; i++) {
        g->moved[i] = false;
        for (int32_t a = (int32_t)i; g->m[i].alive && a >= 0; a = g->m[a].parent)
            g->moved[i] |= g->marked[a];
    }
    float before[MAXSKIN][MAXJ][12];
    for (uint32_t x = 0; x < MAXSKIN; x++)
        if (g->sk[x].alive)
            memcpy(before[x], arr(g, 0, x, 0), 48u * g->sk[x].count);
    const uint32_t c0 = sgrt_scene_update(g->s[0]);
    for (uint32_t t = 1; t < g->twins; t++) {
        const uint32_t c = t == 1 && g->ex ? sgrt_scene_update_parallel(g->s[t], g->ex)
                                           : sgrt_scene_update(g->s[t]);
        CHECK_MSG(c == c0, "%s: twin %u recomputed %u, twin 0 %u", what, t, c, c0);
    }
    for (uint32_t x = 0; x < MAXSKIN; x++) {
        mskin *k = &g->sk[x];
        if (!k->alive)
            continue;
        const bool fresh = k->updates++ == 0;
        const bool mesh_moved = k->mesh >= 0 && !k->frozen && g->moved[k->mesh];
        uint32_t differ = 0;
        for (uint32_t t = 1; t < g->twins; t++)
            for (int which = 0; which < 3; which++) {
                if ((which == 1 && !(k->flags & SGRT_SKIN_NORMALS)) ||
                    (which == 2 && !(k->flags & SGRT_SKIN_PREV)))
                    continue;
                differ += memcmp(arr(g, t, x, which), arr(g, 0, x, which), 48u * k->count) != 0;
            }
        CHECK_MSG(differ == 0, "%s: skin %u: %u arrays of twins differ from twin 0's", what, x,
                  differ);
        bool reported[MAXJ];
        drain(g, x, reported, what);
        const float *pal = arr(g, 0, x, 0);
        const float *nor = k->flags & SGRT_SKIN_NORMALS ? arr(g, 0, x, 1) : NULL;
        const float *prv = k->flags & SGRT_SKIN_PREV ? arr(g, 0, x, 2) : NULL;
        for (uint32_t j = 0; j < k->count; j++) {
            const float *p = pal + 12u * j;
            const bool recomputed = !k->frozen && !k->dead[j] &&
                                    (fresh || mesh_moved || g->moved[k->joint[j]]);
            CHECK_MSG(memcmp(k->mirror[j], p, 48) == 0 &&
                          (!nor || memcmp(k->mirror_n[j], nor + 12u * j, 48) == 0) &&
                          (!prv || memcmp(k->mirror_p[j], prv + 12u * j, 48) == 0),
                      "%s: skin %u joint %u: the collected copy differs", what, x, j);
            /* Only what moved: a joint it did not recompute keeps its bits
             * and is not reported (but for a previous palette catching up). */
            if (!recomputed) {
                CHECK_MSG(memcmp(p, before[x][j], 48) == 0,
                          "%s: skin %u joint %u: changed, not recomputed", what, x, j);
                CHECK_MSG(!reported[j] || prv || x % 3u, /* gap 0: nothing merged in */
                          "%s: skin %u joint %u: reported, not recomputed", what, x, j);
            }
            if (prv) {
                const float *want = recomputed && !fresh ? before[x][j] : p;
                CHECK_MSG(memcmp(prv + 12u * j, want, 48) == 0,
                          "%s: skin %u joint %u: previous palette", what, x, j);
            }
            if (nor) {
                float n[12];
                cofactor_f(p, n);
                CHECK_MSG(k->frozen || k->dead[j] || memcmp(n, nor + 12u * j, 48) == 0,
                          "%s: skin %u joint %u: normals are not the cofactor of P", what, x, j);
            }
            if (k->frozen || k->dead[j]) {
                CHECK_MSG(memcmp(p, k->kept[j], 48) == 0,
                          "%s: skin %u joint %u: a dead joint's entry changed", what, x, j);
                continue;
            }
            double pd[12], nd[12], mag[12];
            palette_d(g, k, j, pd, nd, mag);
            const double e = palette_error(p, pd, mag);
            if (!(e <= g->worst[0]))
                g->worst[0] = e;
            CHECK_MSG(e <= 1.0, "%s: skin %u joint %u: palette %.3g x the bound from the model",
                      what, x, j, e);
            if (nor) {
                const double en = normal_error(nor + 12u * j, nd, pd, mag);
                if (!(en <= g->worst[1]))
                    g->worst[1] = en;
                CHECK_MSG(en <= 1.0, "%s: skin %u joint %u: normals %.3g x the bound", what, x, j,
                          en);
            }
        }
    }
    memset(g->marked, 0, sizeof g->marked);
    check_scene(g->s[0]);
    check_scene(g->s[g->twins - 1]);
}

/* ---- the random programs ----------------------------------------------------------- */

static void random_program(uint64_t seed, bool large, uint32_t nodes, uint32_t steps)
{
    static rig g; /* large: off the stack */
    rng r = {seed};
    const sgrt_executor ex = test_exec_executor(&pool, 4);
    rig_open(&g, TWINS_MAX, large, &ex);
    /* Characters: chains and branches under a few roots, created
     * depth-first, with a level root some hang under. */
    node_create(&g, -1);
    while (g.n < nodes) {
        const int32_t root = rng_below(&r, 3) ? 0 : -1;
        const uint32_t first = g.n;
        node_create(&g, root);
        const uint32_t size = 8u + rng_below(&r, 80);
        for (uint32_t q = 1; q < size && g.n < nodes; q++)
            node_create(&g, (int32_t)(first + rng_below(&r, q) / (1u + rng_below(&r, 2))));
    }
    for (uint32_t i = 0; i < g.n; i++) {
        float l[16];
        random_affine(&r, l);
        for (int a = 12; a < 15; a++)
            l[a] *= 0.2f; /* translations to 4 */
        node_set_local(&g, i, l);
    }
    for (uint32_t x = 0; x < MAXSKIN / 2; x++)
        skin_create(&g, &r, x);
    char what[96];
    for (uint32_t step = 0; step < steps; step++) {
        snprintf(what, sizeof what, "seed %llu%s step %u", (unsigned long long)seed,
                 large ? " (large)" : "", step);
        const uint32_t op = rng_below(&r, 20);
        const uint32_t moves = op < 8 ? 1u + rng_below(&r, 8) : op < 10 ? g.n : 0u;
        for (uint32_t q = 0; q < moves; q++) {
            const int32_t i = pick(&g, &r);
            if (i < 0)
                break;
            float l[16];
            random_affine(&r, l);
            for (int a = 12; a < 15; a++)
                l[a] *= 0.2f;
            node_set_local(&g, (uint32_t)i, l);
        }
        if (op == 10 || op == 17) {
            const int32_t i = pick(&g, &r);
            if (i > 0 && sgrt_scene_node_count(g.s[0]) > nodes / 2)
                node_destroy(&g, (uint32_t)i);
            for (uint32_t q = 0; op == 17 && q < 20; q++)
                node_create(&g, pick(&g, &r));
        } else if (op == 11 || op == 12) {
            const int32_t i = pick(&g, &r), p = rng_below(&r, 6) ? pick(&g, &r) : -1;
            if (i > 0)
                node_set_parent(&g, (uint32_t)i, p, op == 11 ? SGRT_KEEP_LOCAL : SGRT_KEEP_WORLD);
        } else if (op == 18) {
            /* A skin's own node: a joint, or its mesh. */
            const mskin *k = &g.sk[rng_below(&r, MAXSKIN)];
            const int32_t i = !k->alive ? -1 : rng_below(&r, 2) ? k->mesh
                                                                : k->joint[rng_below(&r, k->count)];
            if (i > 0 && g.m[i].alive)
                node_destroy(&g, (uint32_t)i);
        } else if (op == 13) {
            node_create(&g, pick(&g, &r));
        } else if (op == 14) {
            const uint32_t x = rng_below(&r, MAXSKIN);
            if (g.sk[x].alive)
                skin_destroy(&g, x);
            else
                skin_create(&g, &r, x);
        } else if (op == 15) {
            for (uint32_t t = 0; t < g.twins; t++)
                OK(sgrt_scene_compact(g.s[t]));
        } else if (op == 16 && large) {
            for (int a = 0; a < 3; a++)
                g.origin[a] += rng_range(&r, -8, 8);
            for (uint32_t t = 0; t < g.twins; t++)
                OK(sgrt_scene_set_origin(g.s[t], g.origin));
            for (uint32_t i = 0; i < g.n; i++)
                if (g.m[i].alive)
                    mark(&g, i);
        }
        if (op != 19) /* now and then, two steps' writes before one update */
            rig_update(&g, what);
    }
    uint32_t frozen = 0, dead = 0, alive = 0, deepest = 0;
    for (uint32_t i = 0; i < g.n; i++) {
        uint32_t d = 0;
        for (int32_t a = (int32_t)i; g.m[i].alive && a >= 0; a = g.m[a].parent)
            d++;
        deepest = d > deepest ? d : deepest;
    }
    for (uint32_t x = 0; x < MAXSKIN; x++) {
        alive += g.sk[x].alive;
        frozen += g.sk[x].alive && g.sk[x].frozen;
        for (uint32_t q = 0; g.sk[x].alive && q < g.sk[x].count; q++)
            dead += g.sk[x].dead[q];
    }
    printf("skin: seed %llu%s: %u nodes (%u levels at most), %u skins (%u frozen, %u dead "
           "joints), worst palette error %.3f, normals %.3f of the bound\n",
           (unsigned long long)seed, large ? " (large world)" : "", g.n, deepest, alive, frozen,
           dead, g.worst[0], g.worst[1]);
    rig_close(&g);
}

/* ---- by hand ---------------------------------------------------------------------- */

static test_log L;

/* One report since L was reset: `code` from `function`, its message
 * holding `says`. */
static void expect_report(int line, sgrt_result code, const char *function, const char *says)
{
    test_checks++;
    if (L.count != 1 || L.last.code != code || !L.last.function ||
        strcmp(L.last.function, function) != 0 || !strstr(L.message, says)) {
        test_failures++;
        fprintf(stderr, "%s:%d: %u reports, last %s \"%s\"; expected one from %s saying \"%s\"\n",
                __FILE__, line, L.count, L.count ? L.last.function : "-", L.message, function,
                says);
        test_failed();
    }
}

#define REFUSED(call, code, function, says)                                            \
    do {                                                                               \
        memset(&L, 0, sizeof L);                                                       \
        CHECK_RES((call), (code));                                                     \
        expect_report(__LINE__, (code), (function), (says));                           \
    } while (0)

static sgrt_scene *logged(test_alloc *ta, uint32_t flags)
{
    memset(ta, 0, sizeof *ta);
    const sgrt_allocator al = test_alloc_hooks(ta);
    const sgrt_scene_desc d = {.allocator = &al, .flags = flags, .log = test_log_record,
                               .log_user = &L};
    return new_scene_desc(&d);
}

/* Every refusal of every call, naming the argument; nothing allocated,
 * nothing changed (the good skin, the object count). */
static void test_refusals(void)
{
    test_alloc ta, tb;
    sgrt_scene *s = logged(&ta, 0), *other = logged(&tb, 0);
    sgrt_node n[3], on;
    for (int i = 0; i < 3; i++)
        OK(sgrt_node_create(s, i ? n[i - 1] : SGRT_NULL_NODE, &n[i]));
    OK(sgrt_node_create(other, SGRT_NULL_NODE, &on));
    sgrt_node dead;
    OK(sgrt_node_create(s, SGRT_NULL_NODE, &dead));
    OK(sgrt_node_destroy(s, dead));
    sgrt_skin good, plain;
    const sgrt_skin_desc gd = {3, n, NULL, n[0], SGRT_SKIN_NORMALS | SGRT_SKIN_PREV};
    OK(sgrt_skin_create(s, &gd, &good));
    const sgrt_skin_desc pd = {2, n, NULL, SGRT_NULL_NODE, 0};
    OK(sgrt_skin_create(s, &pd, &plain));
    sgrt_tracker t;
    OK(sgrt_tracker_create(s, &t));
    (void)sgrt_scene_update(s);
    const uint64_t calls = ta.calls;
    const uint32_t live = s->obj_live;
    float binds[3][16];
    for (int i = 0; i < 3; i++)
        memcpy(binds[i], IDENTITY, sizeof IDENTITY);
    const char *fn = "sgrt_skin_create";
    sgrt_skin k = {77};
    sgrt_skin_desc d = {3, n, binds[0], n[0], 0};
    REFUSED(sgrt_skin_create(s, NULL, &k), SGRT_ERR_INVALID_ARG, fn, "desc is NULL");
    REFUSED(sgrt_skin_create(s, &d, NULL), SGRT_ERR_INVALID_ARG, fn, "out is NULL");
    d.joint_count = 0;
    REFUSED(sgrt_skin_create(s, &d, &k), SGRT_ERR_INVALID_ARG, fn, "desc->joint_count is 0");
    d.joint_count = SGRT_MAX_NODES + 1u;
    REFUSED(sgrt_skin_create(s, &d, &k), SGRT_ERR_INVALID_ARG, fn,
            "desc->joint_count is above SGRT_MAX_NODES");
    d.joint_count = 3;
    d.joints = NULL;
    REFUSED(sgrt_skin_create(s, &d, &k), SGRT_ERR_INVALID_ARG, fn, "desc->joints is NULL");
    d.joints = n;
    d.flags = 4;
    REFUSED(sgrt_skin_create(s, &d, &k), SGRT_ERR_INVALID_ARG, fn, "desc->flags");
    d.flags = 0;
    const sgrt_node with_dead[3] = {n[0], dead, n[2]}, with_foreign[3] = {n[0], n[1], on};
    const sgrt_node with_zero[3] = {n[0], SGRT_NULL_NODE, n[2]};
    d.joints = with_dead;
    REFUSED(sgrt_skin_create(s, &d, &k), SGRT_ERR_STALE_HANDLE, fn, "a node of desc->joints is stale");
    CHECK_EQ_U(L.last.node.id, dead.id);
    d.joints = with_foreign;
    REFUSED(sgrt_skin_create(s, &d, &k), SGRT_ERR_STALE_HANDLE, fn, "a node of desc->joints is stale");
    d.joints = with_zero;
    REFUSED(sgrt_skin_create(s, &d, &k), SGRT_ERR_STALE_HANDLE, fn, "a node of desc->joints is stale");
    d.joints = n;
    d.mesh = dead;
    REFUSED(sgrt_skin_create(s, &d, &k), SGRT_ERR_STALE_HANDLE, fn, "desc->mesh is stale");
    d.mesh = on;
    REFUSED(sgrt_skin_create(s, &d, &k), SGRT_ERR_STALE_HANDLE, fn, "desc->mesh is stale");
    d.mesh = n[0];
    static const float bad[3] = {NAN, INFINITY, -INFINITY};
    for (int v = 0; v < 3; v++) {
        binds[2][13] = bad[v];
        REFUSED(sgrt_skin_create(s, &d, &k), SGRT_ERR_INVALID_ARG, fn,
                "desc->inverse_binds holds a NaN or an infinity");
    }
    CHECK_EQ_U(k.id, 77);
    CHECK_EQ_U(ta.calls, calls);
    CHECK_EQ_U(s->obj_live, live);

    /* Handles: zero, destroyed, of another scene, of another kind. */
    sgrt_skin gone, foreign;
    const sgrt_skin_desc od = {1, &on, NULL, SGRT_NULL_NODE, 0};
    OK(sgrt_skin_create(other, &od, &foreign));
    OK(sgrt_skin_create(s, &pd, &gone));
    OK(sgrt_skin_destroy(s, gone));
    const uint64_t calls2 = ta.calls, frees = ta.frees;
    const sgrt_skin bad_k[4] = {SGRT_NULL_SKIN, gone, foreign, {t.id}};
    static const char *const says[4] = {"k is zero", "k is not a live skin of s",
                                        "k is not a live skin of s", "k is not a skin"};
    for (int b = 0; b < 4; b++) {
        uint32_t j = 9;
        memset(&L, 0, sizeof L);
        CHECK(sgrt_skin_palette(s, bad_k[b], &j) == NULL && j == 0u);
        expect_report(__LINE__, SGRT_ERR_INVALID_ARG, "sgrt_skin_palette", says[b]);
        memset(&L, 0, sizeof L);
        CHECK(sgrt_skin_normals(s, bad_k[b], &j) == NULL && j == 0u);
        expect_report(__LINE__, SGRT_ERR_INVALID_ARG, "sgrt_skin_normals", says[b]);
        memset(&L, 0, sizeof L);
        CHECK(sgrt_skin_prev_palette(s, bad_k[b], NULL) == NULL);
        expect_report(__LINE__, SGRT_ERR_INVALID_ARG, "sgrt_skin_prev_palette", says[b]);
        sgrt_range r[2];
        uint32_t cnt = 5;
        bool more = true;
        REFUSED(sgrt_skin_collect(s, bad_k[b], r, 2, 0, &cnt, &more), SGRT_ERR_INVALID_ARG,
                "sgrt_skin_collect", says[b]);
        CHECK(cnt == 0 && !more);
        if (b == 0) {
            memset(&L, 0, sizeof L);
            OK(sgrt_skin_destroy(s, bad_k[b])); /* zero: a no-op */
            CHECK_EQ_U(L.count, 0);
        } else {
            REFUSED(sgrt_skin_destroy(s, bad_k[b]), SGRT_ERR_INVALID_ARG, "sgrt_skin_destroy",
                    says[b]);
        }
    }
    CHECK_EQ_U(ta.calls, calls2);
    CHECK_EQ_U(ta.frees, frees);
    /* The arrays a skin does not keep, and the collect's own arguments. */
    uint32_t j = 9;
    memset(&L, 0, sizeof L);
    CHECK(sgrt_skin_normals(s, plain, &j) == NULL && j == 0u);
    expect_report(__LINE__, SGRT_ERR_INVALID_ARG, "sgrt_skin_normals", "SGRT_SKIN_NORMALS");
    memset(&L, 0, sizeof L);
    CHECK(sgrt_skin_prev_palette(s, plain, &j) == NULL && j == 0u);
    expect_report(__LINE__, SGRT_ERR_INVALID_ARG, "sgrt_skin_prev_palette", "SGRT_SKIN_PREV");
    sgrt_range r[2];
    uint32_t cnt = 5;
    bool more = true;
    fn = "sgrt_skin_collect";
    REFUSED(sgrt_skin_collect(s, good, NULL, 2, 0, &cnt, &more), SGRT_ERR_INVALID_ARG, fn,
            "out is NULL with max_ranges > 0");
    REFUSED(sgrt_skin_collect(s, good, r, 2, 0, NULL, &more), SGRT_ERR_INVALID_ARG, fn,
            "out_count is NULL");
    REFUSED(sgrt_skin_collect(s, good, r, 2, 0, &cnt, NULL), SGRT_ERR_INVALID_ARG, fn,
            "out_more is NULL");
    /* Nothing was forgotten by the refusals: the first collect names all. */
    memset(&L, 0, sizeof L);
    OK(sgrt_skin_collect(s, good, NULL, 0, 0, &cnt, &more));
    CHECK(cnt == 0 && more);
    OK(sgrt_skin_collect(s, good, r, 2, 0, &cnt, &more));
    CHECK(cnt == 1 && !more && r[0].first == 0 && r[0].count == 3);
    CHECK_EQ_U(L.count, 0);
    OK(sgrt_skin_destroy(other, foreign));
    end_scene_alloc(other, &tb);
    end_scene_alloc(s, &ta);
}

/* A skin's life by hand: identity rows before its first update, every joint
 * reported once, nothing on an idle frame, a move reported for the joint
 * and its descendants only, the previous palette one update behind (and
 * caught up), world space, shared inverse binds, a singular mesh world. */
static void test_semantics(void)
{
    test_alloc ta;
    sgrt_scene *s = logged(&ta, SGRT_SCENE_VALIDATE);
    sgrt_node mesh, j[4];
    OK(sgrt_node_create(s, SGRT_NULL_NODE, &mesh));
    set_translation(s, mesh, 10, 0, 0);
    OK(sgrt_node_create(s, mesh, &j[0]));
    OK(sgrt_node_create(s, j[0], &j[1]));
    OK(sgrt_node_create(s, j[1], &j[2]));
    OK(sgrt_node_create(s, mesh, &j[3]));
    set_translation(s, j[0], 0, 1, 0);
    set_translation(s, j[1], 0, 2, 0);
    set_translation(s, j[2], 0, 4, 0);
    set_translation(s, j[3], 0, 0, 8);
    float binds[4][16];
    for (int i = 0; i < 4; i++)
        translation(0, -(float)i, 0, binds[i]);
    sgrt_skin k, w, twin;
    const sgrt_skin_desc d = {4, j, binds[0], mesh, SGRT_SKIN_PREV | SGRT_SKIN_NORMALS};
    OK(sgrt_skin_create(s, &d, &k));
    OK(sgrt_skin_create(s, &d, &twin)); /* the same binds: shared */
    const sgrt_skin_desc wd = {4, j, NULL, SGRT_NULL_NODE, 0};
    OK(sgrt_skin_create(s, &wd, &w));
    uint32_t count = 0;
    memset(&L, 0, sizeof L);
    const float *pal = sgrt_skin_palette(s, k, &count);
    CHECK(count == 4 && pal && pal[0] == 1.0f && pal[5] == 1.0f && pal[10] == 1.0f &&
          pal[3] == 0.0f);
    expect_report(__LINE__, SGRT_OK, "sgrt_skin_palette", "created since the last");
    sgrt_range r[8];
    uint32_t n;
    bool more;
    OK(sgrt_skin_collect(s, k, r, 8, 0, &n, &more));
    CHECK(n == 1 && r[0].first == 0 && r[0].count == 4);
    (void)sgrt_scene_update(s);
    /* Mesh-relative: joint 2 is at 7 up, its bind takes 2 off. */
    CHECK(pal[12 * 2 + 7] == 5.0f && pal[12 * 2 + 3] == 0.0f && pal[12 * 3 + 11] == 8.0f);
    CHECK(memcmp(pal, sgrt_skin_palette(s, twin, NULL), 48 * 4) == 0);
    const float *wp = sgrt_skin_palette(s, w, NULL), *prev = sgrt_skin_prev_palette(s, k, NULL);
    CHECK(wp[3] == 10.0f && wp[7] == 1.0f); /* world space, no binds */
    CHECK(memcmp(prev, pal, 48 * 4) == 0);  /* no motion on the first frame */
    OK(sgrt_skin_collect(s, k, r, 8, 0, &n, &more));
    CHECK(n == 1 && r[0].first == 0 && r[0].count == 4);
    CHECK_EQ_U(sgrt_scene_update(s), 0);
    OK(sgrt_skin_collect(s, k, r, 8, 0, &n, &more));
    CHECK(n == 0 && !more);
    /* j[1] moves: j[1] and j[2] recomputed. */
    set_translation(s, j[1], 0, 3, 0);
    (void)sgrt_scene_update(s);
    CHECK(pal[12 * 2 + 7] == 6.0f && prev[12 * 2 + 7] == 5.0f && pal[12 * 1 + 7] == 3.0f);
    OK(sgrt_skin_collect(s, k, r, 8, 0, &n, &more));
    CHECK(n == 1 && r[0].first == 1 && r[0].count == 2);
    /* An idle frame: the previous palettes catch up, reported. */
    CHECK_EQ_U(sgrt_scene_update(s), 0);
    CHECK(memcmp(prev, pal, 48 * 4) == 0);
    OK(sgrt_skin_collect(s, k, r, 8, 0, &n, &more));
    CHECK(n == 1 && r[0].first == 1 && r[0].count == 2);
    OK(sgrt_skin_collect(s, w, r, 8, 0, &n, &more)); /* no previous palette: nothing */
    CHECK(n == 1 && r[0].first == 0 && r[0].count == 4);
    OK(sgrt_skin_collect(s, w, r, 8, 0, &n, &more));
    CHECK(n == 0);
    /* The mesh moves: every palette recomputed, the same values. */
    set_translation(s, mesh, 20, 0, 0);
    (void)sgrt_scene_update(s);
    CHECK(pal[12 * 2 + 7] == 6.0f);
    OK(sgrt_skin_collect(s, k, r, 8, 0, &n, &more));
    CHECK(n == 1 && r[0].count == 4);
    /* A singular mesh world keeps the last inverse. */
    const float zero_scale[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 30, 0, 0, 1};
    OK(sgrt_node_set_local(s, mesh, zero_scale));
    OK(sgrt_node_set_local(s, j[1], IDENTITY));
    (void)sgrt_scene_update(s);
    CHECK(finite16(pal) && finite16(pal + 16) && pal[12 * 3 + 3] == 10.0f); /* 30 - 20 */
    /* Normals: the cofactor (here of rotations-free palettes, the identity). */
    const float *nor = sgrt_skin_normals(s, k, NULL);
    CHECK(nor[0] == 0.0f && nor[15] == 0.0f && nor[5] == 0.0f); /* the zero scale's cofactor */
    /* Destroying a joint: its entry stays; the mesh: the skin is frozen;
     * validation mode says so once per skin. */
    set_translation(s, mesh, 10, 0, 0);
    (void)sgrt_scene_update(s);
    float kept[48];
    memcpy(kept, pal, sizeof kept);
    memset(&L, 0, sizeof L);
    OK(sgrt_node_destroy(s, j[3]));
    CHECK(L.count == 3 && strstr(L.message, "joint of a skin")); /* k, twin, w */
    OK(sgrt_node_destroy(s, j[2]));
    CHECK_EQ_U(L.count, 3);
    set_translation(s, j[0], 0, 9, 0);
    (void)sgrt_scene_update(s);
    CHECK(memcmp(pal + 24, kept + 24, 24 * sizeof(float)) == 0); /* joints 2, 3 */
    CHECK(pal[7] == 9.0f);
    sgrt_skin frozen;
    sgrt_node m2, j2;
    OK(sgrt_node_create(s, SGRT_NULL_NODE, &m2));
    OK(sgrt_node_create(s, m2, &j2));
    const sgrt_skin_desc fd = {1, &j2, NULL, m2, 0};
    OK(sgrt_skin_create(s, &fd, &frozen));
    set_translation(s, j2, 1, 2, 3);
    (void)sgrt_scene_update(s);
    float fkept[12];
    memcpy(fkept, sgrt_skin_palette(s, frozen, NULL), sizeof fkept);
    memset(&L, 0, sizeof L);
    OK(sgrt_node_set_parent(s, j2, SGRT_NULL_NODE, SGRT_KEEP_LOCAL));
    OK(sgrt_node_destroy(s, m2));
    CHECK(L.count == 1 && strstr(L.message, "mesh of a skin"));
    set_translation(s, j2, 4, 5, 6);
    (void)sgrt_scene_update(s);
    CHECK(memcmp(sgrt_skin_palette(s, frozen, NULL), fkept, sizeof fkept) == 0);
    check_scene(s);
    OK(sgrt_skin_destroy(s, twin));
    OK(sgrt_skin_destroy(s, frozen));
    check_scene(s);
    end_scene_alloc(s, &ta);
}

/* A restore (white-box: worlds rewritten by hand, then the seam's event):
 * the joints in changed slots and every joint of a skin whose mesh's slot
 * changed are true at once, their previous palette with them, and a
 * collect names exactly those that differ. */
static void test_restored(void)
{
    sgrt_scene *s = new_scene();
    sgrt_node mesh, j[3], other;
    OK(sgrt_node_create(s, SGRT_NULL_NODE, &mesh));
    OK(sgrt_node_create(s, SGRT_NULL_NODE, &other));
    for (int i = 0; i < 3; i++)
        OK(sgrt_node_create(s, i ? j[i - 1] : mesh, &j[i]));
    sgrt_skin a, b;
    const sgrt_skin_desc da = {3, j, NULL, mesh, SGRT_SKIN_PREV};
    const sgrt_skin_desc db = {3, j, NULL, other, 0};
    OK(sgrt_skin_create(s, &da, &a));
    OK(sgrt_skin_create(s, &db, &b));
    (void)sgrt_scene_update(s);
    sgrt_range r[4];
    uint32_t n;
    bool more;
    OK(sgrt_skin_collect(s, a, r, 4, 0, &n, &more));
    OK(sgrt_skin_collect(s, b, r, 4, 0, &n, &more));
    uint32_t *changed = calloc(s->st.words, sizeof *changed);
    REQUIRE(changed);
    /* Joint 1's world moves (its slot changed), joint 2's slot changed with
     * the same world: a's joint 1 alone differs. */
    float *w1 = s->st.world[slot_of(s, j[1])];
    w1[13] = 5.0f;
    const uint32_t s1 = slot_of(s, j[1]), s2 = slot_of(s, j[2]);
    changed[s1 >> 5] |= 1u << (s1 & 31u);
    changed[s2 >> 5] |= 1u << (s2 & 31u);
    sgrt__follow_restored(s, changed);
    const float *pa = sgrt_skin_palette(s, a, NULL);
    CHECK(pa[12 + 7] == 5.0f && sgrt_skin_prev_palette(s, a, NULL)[12 + 7] == 5.0f);
    OK(sgrt_skin_collect(s, a, r, 4, 0, &n, &more));
    CHECK(n == 1 && r[0].first == 1 && r[0].count == 1);
    OK(sgrt_skin_collect(s, b, r, 4, 0, &n, &more));
    CHECK(n == 1 && r[0].first == 1 && r[0].count == 1);
    /* b's mesh changed: every joint of b recomputed, its inverse taken. */
    memset(changed, 0, s->st.words * sizeof *changed);
    const uint32_t so = slot_of(s, other);
    s->st.world[so][12] = 2.0f;
    changed[so >> 5] |= 1u << (so & 31u);
    sgrt__follow_restored(s, changed);
    const float *pb = sgrt_skin_palette(s, b, NULL);
    CHECK(pb[3] == -2.0f && pb[12 + 3] == -2.0f && pb[24 + 3] == -2.0f);
    OK(sgrt_skin_collect(s, b, r, 4, 0, &n, &more));
    CHECK(n == 1 && r[0].first == 0 && r[0].count == 3);
    OK(sgrt_skin_collect(s, a, r, 4, 0, &n, &more));
    CHECK(n == 0);
    check_scene(s);
    free(changed);
    sgrt_scene_destroy(s);
}

/* Every array of a skin copied: palette, normals (when kept), previous. */
typedef struct skin_copy {
    float pal[8][12], nrm[8][12], prev[8][12];
} skin_copy;

static void copy_skin(const sgrt_scene *s, sgrt_skin k, uint32_t count, skin_copy *c)
{
    const float *p = sgrt_skin_palette(s, k, NULL), *n = sgrt_skin_normals(s, k, NULL);
    const float *v = sgrt_skin_prev_palette(s, k, NULL);
    memset(c, 0, sizeof *c);
    REQUIRE(p && count <= 8u);
    memcpy(c->pal, p, 48u * count);
    if (n)
        memcpy(c->nrm, n, 48u * count);
    if (v)
        memcpy(c->prev, v, 48u * count);
}

/* A mirror of a skin's palette kept through sgrt_skin_collect alone. */
static void mirror_skin(const sgrt_scene *s, sgrt_skin k, float (*mirror)[12])
{
    const float *p = sgrt_skin_palette(s, k, NULL);
    sgrt_range r[8];
    uint32_t n;
    bool more;
    do {
        OK(sgrt_skin_collect(s, k, r, 8, 0, &n, &more));
        for (uint32_t i = 0; i < n; i++)
            memcpy(mirror[r[i].first], p + 12u * r[i].first, 48u * r[i].count);
    } while (more);
}

static uint8_t *take_snapshot(const sgrt_scene *s, size_t *bytes)
{
    OK(sgrt_scene_snapshot_size(s, bytes));
    uint8_t *b = malloc(*bytes);
    if (!b) {
        FAIL("out of memory for a snapshot of %zu bytes", *bytes);
        abort();
    }
    OK(sgrt_scene_snapshot(s, b, *bytes, NULL));
    return b;
}

static void test_rollback(void)
{
    sgrt_scene *s = new_scene();
    sgrt_node root, mesh, j[8];
    OK(sgrt_node_create(s, SGRT_NULL_NODE, &root));
    OK(sgrt_node_create(s, root, &mesh));
    for (int i = 0; i < 8; i++)
        OK(sgrt_node_create(s, i ? j[(i - 1) / 2] : root, &j[i]));
    const float q[4] = {0.0f, 0.6f, 0.0f, 0.8f}, one[3] = {1, 1, 1};
    for (int i = 0; i < 8; i++) {
        const float t[3] = {(float)i, 0.5f, -0.25f * (float)i};
        OK(sgrt_node_set_trs(s, j[i], t, q, one));
    }
    (void)sgrt_scene_update(s);
    /* The bytes of a scene without skins, then with two. */
    size_t bare_n, n0;
    uint8_t *bare = take_snapshot(s, &bare_n);
    sgrt_skin a, b;
    const sgrt_skin_desc da = {8, j, NULL, mesh, SGRT_SKIN_PREV | SGRT_SKIN_NORMALS};
    const sgrt_skin_desc db = {8, j, NULL, SGRT_NULL_NODE, 0};
    OK(sgrt_skin_create(s, &da, &a));
    OK(sgrt_skin_create(s, &db, &b));
    (void)sgrt_scene_update(s);
    float ma[8][12], mb[8][12];
    mirror_skin(s, a, ma);
    mirror_skin(s, b, mb);
    uint8_t *snap = take_snapshot(s, &n0);
    CHECK(n0 == bare_n && memcmp(snap, bare, n0) == 0);
    skin_copy ka, kb;
    copy_skin(s, a, 8, &ka);
    copy_skin(s, b, 8, &kb);
    /* Ticks on: joints move, the mesh moves, a joint is destroyed (with its
     * subtree) and a node created. */
    for (int tick = 0; tick < 3; tick++) {
        const float t[3] = {2.0f + (float)tick, -1.0f, 0.5f};
        OK(sgrt_node_set_trs(s, j[1 + tick], t, q, one));
        OK(sgrt_node_set_trs(s, mesh, t, q, one));
        (void)sgrt_scene_update(s);
        mirror_skin(s, a, ma);
        mirror_skin(s, b, mb);
    }
    OK(sgrt_node_destroy(s, j[6]));
    sgrt_node extra;
    OK(sgrt_node_create(s, root, &extra));
    (void)sgrt_scene_update(s);
    mirror_skin(s, a, ma);
    mirror_skin(s, b, mb);
    /* Rolled back: every array as it was, the dead joint alive again; the
     * mirrors catch up through collect alone. */
    OK(sgrt_scene_restore(s, snap, n0));
    CHECK(sgrt_node_alive(s, j[6]) && !sgrt_node_alive(s, extra));
    skin_copy ra, rb;
    copy_skin(s, a, 8, &ra);
    copy_skin(s, b, 8, &rb);
    CHECK(memcmp(ra.pal, ka.pal, sizeof ra.pal) == 0);
    CHECK(memcmp(ra.nrm, ka.nrm, sizeof ra.nrm) == 0);
    CHECK(memcmp(ra.prev, ka.pal, sizeof ra.prev) == 0); /* no motion across a restore */
    CHECK(memcmp(rb.pal, kb.pal, sizeof rb.pal) == 0);
    mirror_skin(s, a, ma);
    mirror_skin(s, b, mb);
    CHECK(memcmp(ma, ka.pal, sizeof ma) == 0);
    CHECK(memcmp(mb, kb.pal, sizeof mb) == 0);
    /* The joint alive again is recomputed by the next update that moves it. */
    const float t6[3] = {9.0f, 9.0f, 9.0f};
    OK(sgrt_node_set_trs(s, j[6], t6, q, one));
    (void)sgrt_scene_update(s);
    copy_skin(s, b, 8, &rb);
    float w6[16];
    OK(sgrt_node_world(s, j[6], w6));
    CHECK(rb.pal[6][3] == w6[12] && rb.pal[6][7] == w6[13] && rb.pal[6][11] == w6[14]);
    check_scene(s);
    /* The snapshot's bytes again, skins destroyed: the same. */
    OK(sgrt_scene_restore(s, snap, n0));
    OK(sgrt_skin_destroy(s, a));
    OK(sgrt_skin_destroy(s, b));
    size_t n1;
    uint8_t *again = take_snapshot(s, &n1);
    CHECK(n1 == n0 && memcmp(again, snap, n0) == 0);
    free(again);
    free(snap);
    free(bare);
    sgrt_scene_destroy(s);
}

int main(int argc, char **argv)
{
    rng r = {0x5c1e};
    rng_seed_from_args(&r, argc, argv, "skin");
    if (!test_exec_start(&pool, TEST_EXEC_THREADS, 7, 3)) {
        FAIL("cannot start a thread pool");
        return test_report("skin");
    }
    test_refusals();
    test_semantics();
    test_restored();
    test_rollback();
    for (int k = 0; k < 3; k++)
        random_program(rng_next(&r), k == 2, 600u + 900u * (uint32_t)k, 120);
    printf("skin: the parallel twin ran %llu tasks in %llu calls of the executor\n",
           (unsigned long long)pool.tasks, (unsigned long long)pool.runs);
    CHECK(pool.runs > 0 && pool.tasks > pool.runs);
    test_exec_stop(&pool);
    return test_report("skin");
}
