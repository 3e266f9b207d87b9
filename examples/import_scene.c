/* SPDX-License-Identifier: MIT */
/* A real scene file in sgrt: import it with assimp's C API, build its node
 * hierarchy in an sgrt scene, play its first animation through the batch TRS
 * writer, and measure each frame (writes + update) against the naive
 * recursive traversal of the same tree, in the same run.
 *
 *   import_scene FILE [--frames N] [--fps F] [--instances K] [--check]
 *                [--quiet] [--skip-missing]
 *
 * What a loader has to convert (docs/import.md):
 *   - aiMatrix4x4 is row-major (a4, b4, c4 hold the translation); sgrt takes
 *     column-major float[16]: the matrix is transposed on the way in.
 *   - aiQuaternion is (w, x, y, z); sgrt takes (x, y, z, w).
 *   - Animation channels name their node; the loader keeps a table name ->
 *     handle, resolved once at load, so a frame writes by handle only. Two
 *     nodes with one name: the first in depth-first pre-order wins, as
 *     assimp's aiNode::FindNode does.
 *   - Key times are in ticks. mTicksPerSecond 0 ("not specified") is taken
 *     as 25, as assimp's own viewer does.
 *
 * Playback: frame f is at f / F seconds; the animation loops over its
 * duration, and instance k plays k/K of a duration ahead, so the copies
 * differ. Between keys, position and scale are interpolated linearly and
 * rotation by slerp, as assimp's aiQuaternion::Interpolate (shortest arc,
 * normalised; nlerp weights when the two keys are less than about 3.6
 * degrees apart). Before the first key and after the last, the end key
 * holds (mPreState and mPostState are not read). A channel without keys for
 * a component keeps the node's own value of that component
 * (aiDecomposeMatrix). Mesh and morph channels are not read.
 *
 * Skins: every mesh with bones becomes an sgrt skin per instance (with
 * normals), its joints the nodes its bones name (a bone whose name names no
 * node leaves the mesh unskinned, counted), its inverse binds the bones'
 * offset matrices (aiBone::mOffsetMatrix, transposed as every matrix), its
 * mesh the first node in pre-order that lists the mesh: palettes in that
 * node's space, as assimp's viewer skins (inverse(mesh node) x bone x
 * offset). The update keeps them; the frames' timings include them.
 *
 * --check compares, after the last frame, every node's sgrt world matrix with
 * a walk of the assimp tree in double precision at the same animation time
 * (keys found by a linear scan, channels resolved by walking the tree, not
 * through the name table). Each column's error is measured against that
 * column of |L1| x |L2| x ... x |Ld| (the product of the entrywise absolute
 * local matrices along the path: the scale of a float product chain's
 * rounding error), and must stay below 1e-4 (see docs/import.md). It then
 * holds every palette entry to inverse(W_mesh) x W_bone x offset in double
 * from that walk's worlds: the error of each entry over 1 + that entry of
 * |inverse| x (|W_bone| + |inverse| x |W_mesh| x |inverse| x |W_bone|) x
 * |offset| (the magnitudes its float rounding scales with), below 1e-4 too,
 * and the normals to the cofactor of the palette (the same bits).
 *
 * Exit status: 0 when all is well, 1 when the import fails or the check
 * finds an error, 2 on a bad command line, 77 when FILE does not exist and
 * --skip-missing was given (a test suite's "skipped").
 */
#define _GNU_SOURCE /* getopt_long */
#include "args.h"

#include <assimp/cimport.h>
#include <assimp/scene.h>
#include <float.h>
#include <getopt.h>
#include <math.h>
#include <sgrt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#define CHECK_TOLERANCE 1e-4
#define DEFAULT_TICKS_PER_SECOND 25.0 /* for mTicksPerSecond 0, as assimp's viewer */
#define SLERP_DOT_LIMIT 0.9995        /* above: nlerp (sin(omega) too small to divide by) */

static void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);
    if (!p) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    return p;
}

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec * 1e-3;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* ---- conversions from assimp ---------------------------------------------- */

/* Row-major aiMatrix4x4 (a1..a4 = first row) to column-major m[col*4 + row]. */
static void from_ai_matrix(const struct aiMatrix4x4 *a, float m[16])
{
    const float rows[4][4] = {
        {(float)a->a1, (float)a->a2, (float)a->a3, (float)a->a4},
        {(float)a->b1, (float)a->b2, (float)a->b3, (float)a->b4},
        {(float)a->c1, (float)a->c2, (float)a->c3, (float)a->c4},
        {(float)a->d1, (float)a->d2, (float)a->d3, (float)a->d4},
    };
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++)
            m[c * 4 + r] = rows[r][c];
}

/* aiQuaternion (w, x, y, z) to sgrt's (x, y, z, w). */
static void from_ai_quat(const struct aiQuaternion *a, float q[4])
{
    q[0] = (float)a->x;
    q[1] = (float)a->y;
    q[2] = (float)a->z;
    q[3] = (float)a->w;
}

static void from_ai_vec(const struct aiVector3D *a, float v[3])
{
    v[0] = (float)a->x;
    v[1] = (float)a->y;
    v[2] = (float)a->z;
}

static bool same_name(const struct aiString *a, const struct aiString *b)
{
    return a->length == b->length && memcmp(a->data, b->data, a->length) == 0;
}

/* ---- the flattened tree and the name table ------------------------------- */

/* The assimp tree in depth-first pre-order: node i's parent has a lower index. */
typedef struct flat_tree {
    uint32_t n, depth;
    const struct aiNode **node;
    uint32_t *parent; /* UINT32_MAX for the root */
} flat_tree;

static uint32_t count_nodes(const struct aiNode *nd)
{
    uint32_t n = 1;
    for (unsigned i = 0; i < nd->mNumChildren; i++)
        n += count_nodes(nd->mChildren[i]);
    return n;
}

static void flatten(flat_tree *t, const struct aiNode *nd, uint32_t parent, uint32_t depth)
{
    const uint32_t me = t->n++;
    t->node[me] = nd;
    t->parent[me] = parent;
    if (depth > t->depth)
        t->depth = depth;
    for (unsigned i = 0; i < nd->mNumChildren; i++)
        flatten(t, nd->mChildren[i], me, depth + 1);
}

/* Open addressing, FNV-1a: node name -> index in the flat tree. */
typedef struct name_table {
    uint32_t mask;
    uint32_t *slot; /* index + 1, 0 = empty */
    uint32_t duplicates;
} name_table;

static uint32_t name_hash(const struct aiString *s)
{
    uint32_t h = 2166136261u;
    for (uint32_t i = 0; i < s->length; i++)
        h = (h ^ (unsigned char)s->data[i]) * 16777619u;
    return h;
}

static void names_build(name_table *nt, const flat_tree *t)
{
    uint32_t cap = 16;
    while (cap < 2 * t->n)
        cap *= 2;
    nt->mask = cap - 1;
    nt->slot = xcalloc(cap, sizeof *nt->slot);
    nt->duplicates = 0;
    for (uint32_t i = 0; i < t->n; i++) { /* pre-order: the first of a name stays */
        const struct aiString *name = &t->node[i]->mName;
        uint32_t h = name_hash(name) & nt->mask;
        for (;; h = (h + 1) & nt->mask) {
            if (!nt->slot[h]) {
                nt->slot[h] = i + 1;
                break;
            }
            if (same_name(&t->node[nt->slot[h] - 1]->mName, name)) {
                nt->duplicates++;
                break;
            }
        }
    }
}

static uint32_t names_find(const name_table *nt, const flat_tree *t, const struct aiString *name)
{
    for (uint32_t h = name_hash(name) & nt->mask; nt->slot[h]; h = (h + 1) & nt->mask)
        if (same_name(&t->node[nt->slot[h] - 1]->mName, name))
            return nt->slot[h] - 1;
    return UINT32_MAX;
}

/* ---- the player: float, cursors that move forward with time -------------- */

typedef struct channel {
    const struct aiNodeAnim *anim;
    uint32_t node;                       /* flat index */
    float bind_t[3], bind_q[4], bind_s[3]; /* the node's own TRS, for components without keys */
} channel;

/* *i becomes the last key at or before t (0 when t is before the first),
 * moving forward from where the previous frame left it (from 0 again when
 * time went back, at a loop). */
#define KEY_SEEK(keys, count, t, i)                                                          \
    do {                                                                                     \
        if (*(i) >= (count) || (keys)[*(i)].mTime > (t))                                     \
            *(i) = 0;                                                                        \
        while (*(i) + 1 < (count) && (keys)[*(i) + 1].mTime <= (t))                          \
            (*(i))++;                                                                        \
    } while (0)

static float blend_factor(double ta, double tb, double t)
{
    return (float)((t - ta) / (tb - ta));
}

static void play_vec(const struct aiVectorKey *k, uint32_t n, double t, uint32_t *cur,
                     const float bind[3], float out[3])
{
    if (n == 0) {
        memcpy(out, bind, 3 * sizeof *out);
        return;
    }
    KEY_SEEK(k, n, t, cur);
    float a[3];
    from_ai_vec(&k[*cur].mValue, a);
    if (*cur + 1 >= n || t <= k[*cur].mTime) {
        memcpy(out, a, sizeof a);
        return;
    }
    float b[3];
    from_ai_vec(&k[*cur + 1].mValue, b);
    const float f = blend_factor(k[*cur].mTime, k[*cur + 1].mTime, t);
    for (int j = 0; j < 3; j++)
        out[j] = a[j] + (b[j] - a[j]) * f;
}

static void normalize4f(float q[4])
{
    const float len = sqrtf(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    if (len > 0)
        for (int j = 0; j < 4; j++)
            q[j] /= len;
    else
        q[0] = q[1] = q[2] = 0, q[3] = 1;
}

static void play_quat(const struct aiQuatKey *k, uint32_t n, double t, uint32_t *cur,
                      const float bind[4], float out[4])
{
    if (n == 0) {
        memcpy(out, bind, 4 * sizeof *out);
        return;
    }
    KEY_SEEK(k, n, t, cur);
    float a[4];
    from_ai_quat(&k[*cur].mValue, a);
    if (*cur + 1 >= n || t <= k[*cur].mTime) {
        memcpy(out, a, sizeof a);
        normalize4f(out);
        return;
    }
    float b[4];
    from_ai_quat(&k[*cur + 1].mValue, b);
    const float f = blend_factor(k[*cur].mTime, k[*cur + 1].mTime, t);
    float d = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
    if (d < 0) { /* q and -q are one rotation: take the shorter arc */
        d = -d;
        for (int j = 0; j < 4; j++)
            b[j] = -b[j];
    }
    float wa = 1 - f, wb = f;
    if (d < (float)SLERP_DOT_LIMIT) {
        const float omega = acosf(d), sin_omega = sinf(omega);
        wa = sinf((1 - f) * omega) / sin_omega;
        wb = sinf(f * omega) / sin_omega;
    }
    for (int j = 0; j < 4; j++)
        out[j] = wa * a[j] + wb * b[j];
    normalize4f(out);
}

/* ---- the naive baseline: heap nodes, recursion, every world every frame -- */

typedef struct naive_node {
    float local[16];
    float world[16];
    struct naive_node **kids;
    uint32_t nkids;
} naive_node;

static void mat4_mul(float out[16], const float a[16], const float b[16])
{
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++) {
            float sum = 0;
            for (int k = 0; k < 4; k++)
                sum += a[k * 4 + r] * b[c * 4 + k];
            out[c * 4 + r] = sum;
        }
}

static void naive_render(naive_node *nd, const float *parent_world)
{
    if (parent_world)
        mat4_mul(nd->world, parent_world, nd->local);
    else
        memcpy(nd->world, nd->local, sizeof nd->world);
    for (uint32_t i = 0; i < nd->nkids; i++)
        naive_render(nd->kids[i], nd->world);
}

/* local = T x R x S, q = (x, y, z, w), as a user's engine writes it. */
static void trs_to_matrix(const float t[3], const float q[4], const float s[3], float m[16])
{
    const float x = q[0], y = q[1], z = q[2], w = q[3];
    const float r[9] = {1 - 2 * (y * y + z * z), 2 * (x * y + z * w),     2 * (x * z - y * w),
                        2 * (x * y - z * w),     1 - 2 * (x * x + z * z), 2 * (y * z + x * w),
                        2 * (x * z + y * w),     2 * (y * z - x * w),     1 - 2 * (x * x + y * y)};
    for (int c = 0; c < 3; c++) {
        for (int row = 0; row < 3; row++)
            m[c * 4 + row] = r[c * 3 + row] * s[c];
        m[c * 4 + 3] = 0;
    }
    m[12] = t[0], m[13] = t[1], m[14] = t[2], m[15] = 1;
}

/* ---- the double-precision reference --------------------------------------- */

/* The last key at or before t by a plain scan; the blend toward the next. */
#define KEY_SCAN(keys, count, t, i, f)                                                      \
    do {                                                                                    \
        (i) = 0;                                                                            \
        while ((i) + 1 < (count) && (keys)[(i) + 1].mTime <= (t))                           \
            (i)++;                                                                          \
        (f) = ((i) + 1 < (count) && (t) > (keys)[(i)].mTime)                                \
                  ? ((t) - (keys)[(i)].mTime) / ((keys)[(i) + 1].mTime - (keys)[(i)].mTime) \
                  : 0.0;                                                                    \
    } while (0)

typedef struct ref_channel {
    const struct aiNodeAnim *anim; /* NULL: the node is not animated */
    double bind_t[3], bind_q[4], bind_s[3];
} ref_channel;

/* Local TRS of an animated node at time t in double, and its magnitude matrix
 * (translation and scale at the larger |key| of the two blended, |R|). */
static void ref_local(const ref_channel *ch, double t, double m[16], double mag[16])
{
    const struct aiNodeAnim *na = ch->anim;
    double tr[3], trmag[3], sc[3], scmag[3], q[4];
    unsigned i;
    double f;
    if (na->mNumPositionKeys == 0) {
        for (int j = 0; j < 3; j++)
            tr[j] = ch->bind_t[j], trmag[j] = fabs(tr[j]);
    } else {
        const struct aiVectorKey *k = na->mPositionKeys;
        KEY_SCAN(k, na->mNumPositionKeys, t, i, f);
        const double a[3] = {k[i].mValue.x, k[i].mValue.y, k[i].mValue.z};
        const unsigned i2 = i + 1 < na->mNumPositionKeys ? i + 1 : i;
        const double b[3] = {k[i2].mValue.x, k[i2].mValue.y, k[i2].mValue.z};
        for (int j = 0; j < 3; j++)
            tr[j] = a[j] + (b[j] - a[j]) * f, trmag[j] = fmax(fabs(a[j]), fabs(b[j]));
    }
    if (na->mNumScalingKeys == 0) {
        for (int j = 0; j < 3; j++)
            sc[j] = ch->bind_s[j], scmag[j] = fabs(sc[j]);
    } else {
        const struct aiVectorKey *k = na->mScalingKeys;
        KEY_SCAN(k, na->mNumScalingKeys, t, i, f);
        const double a[3] = {k[i].mValue.x, k[i].mValue.y, k[i].mValue.z};
        const unsigned i2 = i + 1 < na->mNumScalingKeys ? i + 1 : i;
        const double b[3] = {k[i2].mValue.x, k[i2].mValue.y, k[i2].mValue.z};
        for (int j = 0; j < 3; j++)
            sc[j] = a[j] + (b[j] - a[j]) * f, scmag[j] = fmax(fabs(a[j]), fabs(b[j]));
    }
    if (na->mNumRotationKeys == 0) {
        memcpy(q, ch->bind_q, sizeof q);
    } else {
        const struct aiQuatKey *k = na->mRotationKeys;
        KEY_SCAN(k, na->mNumRotationKeys, t, i, f);
        const unsigned i2 = i + 1 < na->mNumRotationKeys ? i + 1 : i;
        const double a[4] = {k[i].mValue.x, k[i].mValue.y, k[i].mValue.z, k[i].mValue.w};
        double b[4] = {k[i2].mValue.x, k[i2].mValue.y, k[i2].mValue.z, k[i2].mValue.w};
        double d = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
        if (d < 0) {
            d = -d;
            for (int j = 0; j < 4; j++)
                b[j] = -b[j];
        }
        double wa = 1 - f, wb = f;
        if (d < SLERP_DOT_LIMIT) {
            const double omega = acos(d);
            wa = sin((1 - f) * omega) / sin(omega);
            wb = sin(f * omega) / sin(omega);
        }
        for (int j = 0; j < 4; j++)
            q[j] = wa * a[j] + wb * b[j];
    }
    const double len = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    const double x = q[0] / len, y = q[1] / len, z = q[2] / len, w = q[3] / len;
    const double r[3][3] = {{1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w)},
                            {2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w)},
                            {2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y)}};
    for (int c = 0; c < 3; c++) {
        for (int row = 0; row < 3; row++) {
            m[c * 4 + row] = r[c][row] * sc[c];
            mag[c * 4 + row] = fabs(r[c][row]) * scmag[c];
        }
        m[c * 4 + 3] = mag[c * 4 + 3] = 0;
    }
    for (int row = 0; row < 3; row++)
        m[12 + row] = tr[row], mag[12 + row] = trmag[row];
    m[15] = mag[15] = 1;
}

static void mat4_mul_d(double out[16], const double a[16], const double b[16])
{
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++) {
            double sum = 0;
            for (int k = 0; k < 4; k++)
                sum += a[k * 4 + r] * b[c * 4 + k];
            out[c * 4 + r] = sum;
        }
}

typedef struct check_state {
    const sgrt_scene *scene;
    const sgrt_node *handles; /* this instance's handles, by flat index */
    const ref_channel *chan;  /* by flat index */
    double (*world)[16], (*mag)[16]; /* the walk's worlds and magnitudes, by flat index */
    double time;              /* this instance's animation time, ticks */
    uint32_t next;            /* flat index of the next node in pre-order */
    uint32_t checked;
    double worst;
    const struct aiNode *worst_node;
    bool failed_read;
} check_state;

/* Error of one node: for each column, the largest entry difference over the
 * largest entry of that column of the magnitude matrix (rows 0..2). */
static double world_error(const float got[16], const double want[16], const double mag[16])
{
    double err = 0;
    for (int c = 0; c < 4; c++) {
        double scale = FLT_MIN;
        for (int r = 0; r < 3; r++)
            scale = fmax(scale, mag[c * 4 + r]);
        for (int r = 0; r < 4; r++) {
            const double e = fabs((double)got[c * 4 + r] - want[c * 4 + r]) / scale;
            if (!(e <= err)) /* NaN included */
                err = isnan(e) ? INFINITY : e;
        }
    }
    return err;
}

static void check_walk(check_state *cs, const struct aiNode *nd, const double *pw,
                       const double *pmag)
{
    const uint32_t me = cs->next++;
    double local[16], lmag[16], world[16], wmag[16];
    if (cs->chan[me].anim) {
        ref_local(&cs->chan[me], cs->time, local, lmag);
    } else {
        const struct aiMatrix4x4 *a = &nd->mTransformation;
        const double rows[4][4] = {{a->a1, a->a2, a->a3, a->a4}, {a->b1, a->b2, a->b3, a->b4},
                                   {a->c1, a->c2, a->c3, a->c4}, {a->d1, a->d2, a->d3, a->d4}};
        for (int c = 0; c < 4; c++)
            for (int r = 0; r < 4; r++)
                local[c * 4 + r] = rows[r][c], lmag[c * 4 + r] = fabs(rows[r][c]);
    }
    if (pw) {
        mat4_mul_d(world, pw, local);
        mat4_mul_d(wmag, pmag, lmag);
    } else {
        memcpy(world, local, sizeof world);
        memcpy(wmag, lmag, sizeof wmag);
    }
    memcpy(cs->world[me], world, sizeof world);
    memcpy(cs->mag[me], wmag, sizeof wmag);
    float got[16];
    if (sgrt_node_world(cs->scene, cs->handles[me], got) != SGRT_OK) {
        cs->failed_read = true;
        return;
    }
    const double err = world_error(got, world, wmag);
    if (err > cs->worst || !cs->worst_node) {
        cs->worst = err;
        cs->worst_node = nd;
    }
    cs->checked++;
    for (unsigned i = 0; i < nd->mNumChildren; i++)
        check_walk(cs, nd->mChildren[i], world, wmag);
}

/* First node of that name in depth-first pre-order (aiNode::FindNode). */
static const struct aiNode *find_node(const struct aiNode *nd, const struct aiString *name)
{
    if (same_name(&nd->mName, name))
        return nd;
    for (unsigned i = 0; i < nd->mNumChildren; i++) {
        const struct aiNode *hit = find_node(nd->mChildren[i], name);
        if (hit)
            return hit;
    }
    return NULL;
}

/* ---- main ------------------------------------------------------------------ */

/* The whole tree as the program builds it: node i of instance k is entry
 * base + k * n + i; with K > 1 instances, entry 0 is the common root and
 * entry 1 + k the offset node of instance k. Entries are in creation order:
 * parents first, each instance depth-first, as a recursive loader creates them. */
typedef struct layout {
    uint32_t total, base, n, instances;
    uint32_t *parent; /* UINT32_MAX: a root */
    float (*local)[16];
    double (*offset)[3]; /* per instance */
} layout;

typedef struct options {
    int frames, fps, instances;
    bool check, quiet;
} options;

/* One skinned mesh: its node and its bones' nodes (flat indices) and
 * offsets, and its skin in each instance. */
typedef struct skinned {
    const struct aiMesh *ai;
    uint32_t mesh, bones;
    uint32_t *node;
    float (*offset)[16];
    sgrt_skin *skin; /* per instance */
} skinned;

typedef struct app {
    const struct aiScene *ai;
    skinned *skins;
    uint32_t nskins, unskinned;
    flat_tree tree;
    name_table names;
    const struct aiAnimation *anim;
    double tps, duration; /* ticks per second (0 in the file: 25), duration in ticks */
    channel *chan;        /* the channels that name a node */
    uint32_t nchan, unresolved;
    layout lay;
    sgrt_scene *scene;
    sgrt_node *h; /* by layout entry */
    naive_node **nv;
    uint32_t nv_count, nroots;
    naive_node **roots;
    /* One frame's batch: entry k * nchan + c is channel c of instance k. */
    uint32_t nw;
    sgrt_node *wnodes;
    naive_node **wnaive;
    float (*wt)[3], (*wq)[4], (*ws)[3];
    uint32_t (*cursor)[3];
} app;

static void app_free(app *a)
{
    for (uint32_t i = 0; i < a->nskins; i++) {
        free(a->skins[i].node);
        free(a->skins[i].offset);
        free(a->skins[i].skin);
    }
    free(a->skins);
    for (uint32_t e = 0; e < a->nv_count; e++) {
        free(a->nv[e]->kids);
        free(a->nv[e]);
    }
    free(a->nv);
    free(a->roots);
    free(a->wnodes);
    free(a->wnaive);
    free(a->wt);
    free(a->wq);
    free(a->ws);
    free(a->cursor);
    free(a->h);
    free(a->lay.parent);
    free(a->lay.local);
    free(a->lay.offset);
    free(a->chan);
    free(a->names.slot);
    free(a->tree.node);
    free(a->tree.parent);
    sgrt_scene_destroy(a->scene);
    if (a->ai)
        aiReleaseImport(a->ai);
}

/* Animation time of instance k, in ticks, `seconds` into the playback. */
static double instance_ticks(const app *a, double seconds, uint32_t k)
{
    const double t = seconds * a->tps + a->duration * k / a->lay.instances;
    return a->duration > 0 ? fmod(t, a->duration) : 0;
}

/* Import, flatten, index the names, resolve the first animation's channels. */
static int load(app *a, const char *path, uint32_t K)
{
    a->ai = aiImportFile(path, 0);
    if (!a->ai || !a->ai->mRootNode) {
        fprintf(stderr, "%s: assimp cannot import it: %s\n", path,
                a->ai ? "the scene has no root node" : aiGetErrorString());
        return 1;
    }
    const uint32_t n = count_nodes(a->ai->mRootNode);
    if ((uint64_t)n * K + K + 1 > SGRT_MAX_NODES) {
        fprintf(stderr, "%u nodes x %u instances: more than one scene holds\n", n, K);
        return 1;
    }
    a->tree.node = xcalloc(n, sizeof *a->tree.node);
    a->tree.parent = xcalloc(n, sizeof *a->tree.parent);
    flatten(&a->tree, a->ai->mRootNode, UINT32_MAX, 1);
    names_build(&a->names, &a->tree);

    a->anim = a->ai->mNumAnimations ? a->ai->mAnimations[0] : NULL;
    a->tps = a->anim && a->anim->mTicksPerSecond > 0 ? a->anim->mTicksPerSecond
                                                      : DEFAULT_TICKS_PER_SECOND;
    a->duration = a->anim ? a->anim->mDuration : 0;
    a->chan = xcalloc(a->anim ? a->anim->mNumChannels : 0, sizeof *a->chan);
    for (unsigned c = 0; a->anim && c < a->anim->mNumChannels; c++) {
        const struct aiNodeAnim *na = a->anim->mChannels[c];
        const uint32_t idx = names_find(&a->names, &a->tree, &na->mNodeName);
        if (idx == UINT32_MAX) {
            a->unresolved++;
            continue;
        }
        channel *ch = &a->chan[a->nchan++];
        ch->anim = na;
        ch->node = idx;
        struct aiVector3D sc, p;
        struct aiQuaternion q;
        aiDecomposeMatrix(&a->tree.node[idx]->mTransformation, &sc, &q, &p);
        from_ai_vec(&p, ch->bind_t);
        from_ai_quat(&q, ch->bind_q);
        from_ai_vec(&sc, ch->bind_s);
    }
    return 0;
}

static const float identity[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};

/* The layout, then the same tree in sgrt and as naive heap nodes, and the
 * frame's batch: handles resolved once, so a frame writes by handle only. */
static int build(app *a, uint32_t K)
{
    const uint32_t n = a->tree.n;
    layout *lay = &a->lay;
    lay->n = n;
    lay->instances = K;
    lay->base = K > 1 ? K + 1 : 0;
    lay->total = lay->base + n * K;
    lay->parent = xcalloc(lay->total, sizeof *lay->parent);
    lay->local = xcalloc(lay->total, sizeof *lay->local);
    lay->offset = xcalloc(K, sizeof *lay->offset);

    /* Instances on a grid in x/z, spaced by twice the farthest a node can be from
     * the model's origin in its bind pose (the sum of the translations on its path). */
    double *reach = xcalloc(n, sizeof *reach), spacing = 0;
    for (uint32_t i = 0; i < n; i++) {
        const struct aiMatrix4x4 *m = &a->tree.node[i]->mTransformation;
        const double len =
            sqrt((double)m->a4 * m->a4 + (double)m->b4 * m->b4 + (double)m->c4 * m->c4);
        reach[i] = len + (a->tree.parent[i] != UINT32_MAX ? reach[a->tree.parent[i]] : 0);
        if (isfinite(reach[i]))
            spacing = fmax(spacing, 2 * reach[i]);
    }
    free(reach);
    if (spacing == 0)
        spacing = 1;
    const uint32_t cols = (uint32_t)ceil(sqrt((double)K));
    for (uint32_t k = 0; k < K; k++) {
        lay->offset[k][0] = spacing * (k % cols);
        lay->offset[k][1] = 0;
        lay->offset[k][2] = spacing * (k / cols);
    }
    if (K > 1) {
        lay->parent[0] = UINT32_MAX;
        memcpy(lay->local[0], identity, sizeof identity);
        for (uint32_t k = 0; k < K; k++) {
            lay->parent[1 + k] = 0;
            memcpy(lay->local[1 + k], identity, sizeof identity);
            for (int j = 0; j < 3; j++)
                lay->local[1 + k][12 + j] = (float)lay->offset[k][j];
        }
    }
    for (uint32_t k = 0; k < K; k++)
        for (uint32_t i = 0; i < n; i++) {
            const uint32_t e = lay->base + k * n + i, p = a->tree.parent[i];
            lay->parent[e] = p != UINT32_MAX ? lay->base + k * n + p
                             : K > 1         ? 1 + k
                                             : UINT32_MAX;
            from_ai_matrix(&a->tree.node[i]->mTransformation, lay->local[e]);
        }

    const sgrt_scene_desc desc = {.initial_capacity = lay->total};
    sgrt_result r = sgrt_scene_create(&desc, &a->scene);
    if (r != SGRT_OK) {
        fprintf(stderr, "sgrt_scene_create: %s\n", sgrt_result_str(r));
        return 1;
    }
    a->h = xcalloc(lay->total, sizeof *a->h);
    for (uint32_t e = 0; e < lay->total; e++) {
        const sgrt_node parent = lay->parent[e] == UINT32_MAX ? SGRT_NULL_NODE : a->h[lay->parent[e]];
        r = sgrt_node_create(a->scene, parent, &a->h[e]);
        if (r == SGRT_OK)
            r = sgrt_node_set_local(a->scene, a->h[e], lay->local[e]);
        if (r != SGRT_OK) {
            fprintf(stderr, "node '%s': %s%s\n",
                    e >= lay->base ? a->tree.node[(e - lay->base) % n]->mName.data : "(instance root)",
                    sgrt_result_str(r),
                    r == SGRT_ERR_INVALID_ARG ? " (its transformation is not finite)" : "");
            return 1;
        }
    }
    sgrt_scene_update(a->scene); /* the load: every world once, before the first frame */

    /* Naive: one heap node per object, in creation order, with a child pointer array. */
    uint32_t *nkids = xcalloc(lay->total, sizeof *nkids);
    for (uint32_t e = 0; e < lay->total; e++)
        if (lay->parent[e] != UINT32_MAX)
            nkids[lay->parent[e]]++;
        else
            a->nroots++;
    a->nv = xcalloc(lay->total, sizeof *a->nv);
    a->roots = xcalloc(a->nroots, sizeof *a->roots);
    for (uint32_t e = 0, root = 0; e < lay->total; e++) {
        naive_node *nd = xcalloc(1, sizeof *nd);
        a->nv[a->nv_count++] = nd;
        memcpy(nd->local, lay->local[e], sizeof nd->local);
        nd->kids = xcalloc(nkids[e], sizeof *nd->kids);
        if (lay->parent[e] == UINT32_MAX) {
            a->roots[root++] = nd;
        } else {
            naive_node *p = a->nv[lay->parent[e]];
            p->kids[p->nkids++] = nd;
        }
    }
    free(nkids);

    a->nw = a->nchan * K;
    a->wnodes = xcalloc(a->nw, sizeof *a->wnodes);
    a->wnaive = xcalloc(a->nw, sizeof *a->wnaive);
    a->wt = xcalloc(a->nw, sizeof *a->wt);
    a->wq = xcalloc(a->nw, sizeof *a->wq);
    a->ws = xcalloc(a->nw, sizeof *a->ws);
    a->cursor = xcalloc(a->nw, sizeof *a->cursor);
    for (uint32_t k = 0; k < K; k++)
        for (uint32_t c = 0; c < a->nchan; c++) {
            const uint32_t e = lay->base + k * n + a->chan[c].node;
            a->wnodes[k * a->nchan + c] = a->h[e];
            a->wnaive[k * a->nchan + c] = a->nv[e];
        }
    return 0;
}

/* A skin per mesh with bones and per instance (the top of this file);
 * the meshes that cannot be skinned are counted. */
static int build_skins(app *a)
{
    const struct aiScene *ai = a->ai;
    const uint32_t n = a->tree.n, K = a->lay.instances;
    a->skins = xcalloc(ai->mNumMeshes, sizeof *a->skins);
    for (unsigned m = 0; m < ai->mNumMeshes; m++) {
        const struct aiMesh *mesh = ai->mMeshes[m];
        if (!mesh->mNumBones)
            continue;
        uint32_t at = UINT32_MAX;
        for (uint32_t i = 0; i < n && at == UINT32_MAX; i++)
            for (unsigned j = 0; j < a->tree.node[i]->mNumMeshes; j++)
                if (a->tree.node[i]->mMeshes[j] == m)
                    at = i;
        skinned sk = {mesh, at, mesh->mNumBones, xcalloc(mesh->mNumBones, sizeof(uint32_t)),
                      xcalloc(mesh->mNumBones, sizeof(float[16])), NULL};
        bool whole = at != UINT32_MAX;
        for (unsigned b = 0; whole && b < mesh->mNumBones; b++) {
            sk.node[b] = names_find(&a->names, &a->tree, &mesh->mBones[b]->mName);
            from_ai_matrix(&mesh->mBones[b]->mOffsetMatrix, sk.offset[b]);
            whole = sk.node[b] != UINT32_MAX;
        }
        if (!whole) {
            a->unskinned++;
            free(sk.node);
            free(sk.offset);
            continue;
        }
        sk.skin = xcalloc(K, sizeof *sk.skin);
        sgrt_node *joints = xcalloc(sk.bones, sizeof *joints);
        for (uint32_t k = 0; k < K; k++) {
            const uint32_t base = a->lay.base + k * n;
            for (uint32_t b = 0; b < sk.bones; b++)
                joints[b] = a->h[base + sk.node[b]];
            const sgrt_skin_desc d = {sk.bones, joints, sk.offset[0], a->h[base + sk.mesh],
                                      SGRT_SKIN_NORMALS};
            const sgrt_result r = sgrt_skin_create(a->scene, &d, &sk.skin[k]);
            if (r != SGRT_OK) {
                fprintf(stderr, "mesh '%s': sgrt_skin_create: %s\n", mesh->mName.data,
                        sgrt_result_str(r));
                free(joints);
                free(sk.node);
                free(sk.offset);
                free(sk.skin);
                return 1;
            }
        }
        free(joints);
        a->skins[a->nskins++] = sk;
    }
    return 0;
}

/* Every frame: evaluate the animation into the batch (timed apart), then
 * time sgrt (batch write + update) and the naive side (the same writes into
 * its nodes + the recursive traversal). */
static int play(app *a, const options *o)
{
    const uint32_t K = a->lay.instances;
    double *cost = xcalloc(3 * (size_t)o->frames, sizeof *cost);
    double *c_sgrt = cost, *c_naive = cost + o->frames, *c_eval = cost + 2 * o->frames;
    uint64_t updated_total = 0;
    int status = 0;
    for (int f = 0; f < o->frames; f++) {
        const double seconds = (double)f / o->fps;
        const double t0 = now_us();
        for (uint32_t k = 0; k < K; k++) {
            const double t = instance_ticks(a, seconds, k);
            for (uint32_t c = 0; c < a->nchan; c++) {
                const channel *ch = &a->chan[c];
                const struct aiNodeAnim *na = ch->anim;
                const uint32_t w = k * a->nchan + c;
                play_vec(na->mPositionKeys, na->mNumPositionKeys, t, &a->cursor[w][0],
                         ch->bind_t, a->wt[w]);
                play_quat(na->mRotationKeys, na->mNumRotationKeys, t, &a->cursor[w][1],
                          ch->bind_q, a->wq[w]);
                play_vec(na->mScalingKeys, na->mNumScalingKeys, t, &a->cursor[w][2],
                         ch->bind_s, a->ws[w]);
            }
        }
        const double t1 = now_us();
        uint32_t bad = 0;
        const sgrt_result r =
            sgrt_nodes_set_trs(a->scene, a->nw, a->wnodes, a->wt[0],
                               a->wq[0], a->ws[0], &bad);
        const uint32_t updated = sgrt_scene_update(a->scene);
        const double t2 = now_us();
        for (uint32_t w = 0; w < a->nw; w++)
            trs_to_matrix(a->wt[w], a->wq[w], a->ws[w], a->wnaive[w]->local);
        for (uint32_t i = 0; i < a->nroots; i++)
            naive_render(a->roots[i], NULL);
        const double t3 = now_us();
        if (r != SGRT_OK) {
            fprintf(stderr, "frame %d: sgrt_nodes_set_trs refused entry %u (channel '%s'): %s\n",
                    f, bad, a->chan[bad % a->nchan].anim->mNodeName.data, sgrt_result_str(r));
            status = 1;
            break;
        }
        c_eval[f] = t1 - t0;
        c_sgrt[f] = t2 - t1;
        c_naive[f] = t3 - t2;
        updated_total += updated;
        if (!o->quiet)
            printf("frame %4d  t %7.3f s  writes %6u  updated %7u  sgrt %9.2f us  naive %9.2f us"
                   "  naive/sgrt %6.2f\n",
                   f, seconds, a->nw, updated, c_sgrt[f], c_naive[f],
                   c_sgrt[f] > 0 ? c_naive[f] / c_sgrt[f] : 0.0);
    }
    if (status == 0) {
        const size_t nf = (size_t)o->frames;
        qsort(c_sgrt, nf, sizeof *cost, cmp_double);
        qsort(c_naive, nf, sizeof *cost, cmp_double);
        qsort(c_eval, nf, sizeof *cost, cmp_double);
        const double ms = c_sgrt[nf / 2], mn = c_naive[nf / 2];
        printf("%d frames, medians: sgrt (writes + update) %.2f us, naive (writes + traversal)"
               " %.2f us, naive/sgrt %.2f; animation evaluation %.2f us (in neither);"
               " %.1f worlds updated per frame\n",
               o->frames, ms, mn, ms > 0 ? mn / ms : 0.0, c_eval[nf / 2],
               (double)updated_total / (double)o->frames);
    }
    free(cost);
    return status;
}

/* inv = the inverse of m (Gauss-Jordan, partial pivoting, in double); false
 * when it has none. */
static bool inverse_d(const double m[16], double inv[16])
{
    double t[4][8];
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++)
            t[r][c] = m[c * 4 + r], t[r][4 + c] = r == c;
    for (int c = 0; c < 4; c++) {
        int p = c;
        for (int r = c + 1; r < 4; r++)
            if (fabs(t[r][c]) > fabs(t[p][c]))
                p = r;
        if (t[p][c] == 0)
            return false;
        for (int k = 0; k < 8; k++) {
            const double x = t[c][k];
            t[c][k] = t[p][k], t[p][k] = x;
        }
        const double d = t[c][c];
        for (int k = 0; k < 8; k++)
            t[c][k] /= d;
        for (int r = 0; r < 4; r++)
            if (r != c) {
                const double f = t[r][c];
                for (int k = 0; k < 8; k++)
                    t[r][k] -= f * t[c][k];
            }
    }
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++)
            inv[c * 4 + r] = t[r][4 + c];
    return true;
}

static void abs16(const double m[16], double out[16])
{
    for (int i = 0; i < 16; i++)
        out[i] = fabs(m[i]);
}

/* The worst palette entry of skin sk in instance k against the walk's
 * double worlds (the top of this file), the bones' nodes found by a search
 * of the tree and their offsets read from assimp (not the skin's own
 * tables), and its normals against the cofactor of its palette. INFINITY
 * when they cannot be read or differ. */
static double skin_error(const app *a, const skinned *sk, uint32_t k, const double (*world)[16],
                         const double (*mag)[16])
{
    const sgrt_scene *s = a->scene;
    uint32_t joints = 0;
    const float *pal = sgrt_skin_palette(s, sk->skin[k], &joints);
    const float *nor = sgrt_skin_normals(s, sk->skin[k], NULL);
    double im[16], ia[16], e[16], t[16];
    if (!pal || !nor || joints != sk->bones || !inverse_d(world[sk->mesh], im))
        return INFINITY;
    abs16(im, ia);
    mat4_mul_d(t, ia, mag[sk->mesh]);
    mat4_mul_d(e, t, ia); /* the inverse's error scale */
    double worst = 0;
    for (uint32_t b = 0; b < sk->bones; b++) {
        const struct aiBone *bone = sk->ai->mBones[b];
        const struct aiNode *nd = find_node(a->ai->mRootNode, &bone->mName);
        uint32_t at = 0;
        while (nd && a->tree.node[at] != nd)
            at++;
        if (!nd)
            return INFINITY;
        const struct aiMatrix4x4 *o = &bone->mOffsetMatrix;
        const double rows[4][4] = {{o->a1, o->a2, o->a3, o->a4}, {o->b1, o->b2, o->b3, o->b4},
                                   {o->c1, o->c2, o->c3, o->c4}, {o->d1, o->d2, o->d3, o->d4}};
        double off[16], offa[16], want[16], aw[16], wa[16], m1[16], m2[16], scale[16];
        for (int c = 0; c < 4; c++)
            for (int r = 0; r < 4; r++)
                off[c * 4 + r] = rows[r][c];
        abs16(off, offa);
        mat4_mul_d(aw, im, world[at]);
        mat4_mul_d(want, aw, off);
        abs16(world[at], wa);
        mat4_mul_d(m1, e, wa);
        mat4_mul_d(m2, ia, mag[at]);
        for (int i = 0; i < 16; i++)
            m1[i] += m2[i];
        mat4_mul_d(scale, m1, offa);
        const float *p = pal + 12u * b, *nr = nor + 12u * b;
        for (int r = 0; r < 3; r++) {
            for (int c = 0; c < 4; c++) {
                const double err = fabs((double)p[4 * r + c] - want[c * 4 + r]) /
                                   (1.0 + scale[c * 4 + r]);
                if (!(err <= worst))
                    worst = isnan(err) ? INFINITY : err;
            }
            const float *u = p + 4 * ((r + 1) % 3), *v = p + 4 * ((r + 2) % 3);
            const float cof[4] = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2],
                                  u[0] * v[1] - u[1] * v[0], 0.0f};
            if (memcmp(cof, nr + 4 * r, sizeof cof) != 0)
                worst = INFINITY;
        }
    }
    return worst;
}

/* --check: every node's sgrt world against the double-precision walk of the
 * assimp tree at the last frame's time. */
static int check_worlds(const app *a, const options *o)
{
    int status = 0;
    const char *what = NULL;
    if (sgrt_scene_check(a->scene, &what) != SGRT_OK) {
        fprintf(stderr, "check: sgrt_scene_check: %s\n", what ? what : "?");
        status = 1;
    }
    /* Channels found by walking the tree, not through the name table; a later
     * channel on the same node wins, as it does in the batch. */
    const uint32_t n = a->tree.n, K = a->lay.instances;
    ref_channel *rc = xcalloc(n, sizeof *rc);
    for (unsigned c = 0; a->anim && c < a->anim->mNumChannels; c++) {
        const struct aiNode *nd = find_node(a->ai->mRootNode, &a->anim->mChannels[c]->mNodeName);
        if (!nd)
            continue;
        uint32_t i = 0;
        while (a->tree.node[i] != nd)
            i++;
        rc[i].anim = a->anim->mChannels[c];
        struct aiVector3D sc, p;
        struct aiQuaternion q;
        aiDecomposeMatrix(&nd->mTransformation, &sc, &q, &p);
        const double bt[3] = {p.x, p.y, p.z}, bq[4] = {q.x, q.y, q.z, q.w},
                     bs[3] = {sc.x, sc.y, sc.z};
        memcpy(rc[i].bind_t, bt, sizeof bt);
        memcpy(rc[i].bind_q, bq, sizeof bq);
        memcpy(rc[i].bind_s, bs, sizeof bs);
    }
    const double last = (double)(o->frames - 1) / o->fps;
    double worst = 0;
    const struct aiNode *worst_node = NULL;
    uint32_t worst_k = 0, checked = 0;
    float got[16];
    if (K > 1) {
        if (sgrt_node_world(a->scene, a->h[0], got) != SGRT_OK ||
            memcmp(got, identity, sizeof identity) != 0) {
            fprintf(stderr, "check: the common root's world is not the identity\n");
            status = 1;
        }
        checked++;
    }
    double (*world)[16] = xcalloc(n, sizeof *world), (*mag)[16] = xcalloc(n, sizeof *mag);
    double pal_worst = 0;
    uint32_t pal_checked = 0;
    for (uint32_t k = 0; k < K; k++) {
        double off[16], offmag[16];
        for (int j = 0; j < 16; j++)
            off[j] = identity[j];
        for (int j = 0; j < 3; j++)
            off[12 + j] = a->lay.offset[k][j];
        for (int j = 0; j < 16; j++)
            offmag[j] = fabs(off[j]);
        if (K > 1) {
            if (sgrt_node_world(a->scene, a->h[1 + k], got) != SGRT_OK ||
                !(world_error(got, off, offmag) <= CHECK_TOLERANCE)) {
                fprintf(stderr, "check: instance %u: wrong offset world\n", k);
                status = 1;
            }
            checked++;
        }
        check_state cs = {.scene = a->scene, .handles = a->h + a->lay.base + (size_t)k * n,
                          .chan = rc, .world = world, .mag = mag,
                          .time = instance_ticks(a, last, k)};
        check_walk(&cs, a->ai->mRootNode, K > 1 ? off : NULL, K > 1 ? offmag : NULL);
        if (cs.failed_read || cs.next != n) {
            fprintf(stderr, "check: instance %u: a node's world could not be read\n", k);
            status = 1;
        }
        checked += cs.checked;
        if (cs.worst_node && (cs.worst > worst || !worst_node)) {
            worst = cs.worst;
            worst_node = cs.worst_node;
            worst_k = k;
        }
        for (uint32_t i = 0; i < a->nskins; i++) {
            const double e = skin_error(a, &a->skins[i], k, (const double(*)[16])world,
                                        (const double(*)[16])mag);
            pal_worst = !(e <= pal_worst) ? e : pal_worst;
            pal_checked += a->skins[i].bones;
        }
    }
    free(world);
    free(mag);
    free(rc);
    if (a->nskins) {
        const bool ok = pal_worst <= CHECK_TOLERANCE;
        printf("check: %u palette entries of %u skins against inverse(mesh) x bone x offset in"
               " double; largest error %.3g, tolerance %.0e: %s\n",
               pal_checked, a->nskins * K, pal_worst, CHECK_TOLERANCE, ok ? "ok" : "FAILED");
        if (!ok)
            status = 1;
    }
    if (!(worst <= CHECK_TOLERANCE))
        status = 1;
    if (checked != a->lay.total) {
        fprintf(stderr, "check: %u of %u nodes checked\n", checked, a->lay.total);
        status = 1;
    }
    printf("check: %u nodes against the double-precision walk at t = %.3f s; largest error"
           " %.3g (node '%s', instance %u), tolerance %.0e: %s\n",
           checked, last, worst, worst_node ? worst_node->mName.data : "", worst_k,
           CHECK_TOLERANCE, status == 0 ? "ok" : "FAILED");
    return status;
}

static void usage(FILE *f, const char *argv0)
{
    fprintf(f,
            "usage: %s FILE [--frames N] [--fps F] [--instances K] [--check] [--quiet]"
            " [--skip-missing]\n"
            "  FILE           a scene file assimp imports (glTF, FBX, Collada, BVH, ...)\n"
            "  --frames N     frames to play, 1..1000000 (default 60)\n"
            "  --fps F        frames per second of animation time, 1..10000 (default 30)\n"
            "  --instances K  copies of the model under one root, 1..65536 (default 1)\n"
            "  --check        compare every world matrix with a double-precision walk\n"
            "  --quiet        a summary instead of one line per frame\n"
            "  --skip-missing exit with status 77 when FILE does not exist\n",
            argv0);
}

int main(int argc, char **argv)
{
    options o = {.frames = 60, .fps = 30, .instances = 1};
    bool skip_missing = false;
    enum { OPT_FRAMES = 1, OPT_FPS, OPT_INSTANCES, OPT_CHECK, OPT_QUIET, OPT_SKIP };
    static const struct option longopts[] = {
        {"frames", required_argument, NULL, OPT_FRAMES},
        {"fps", required_argument, NULL, OPT_FPS},
        {"instances", required_argument, NULL, OPT_INSTANCES},
        {"check", no_argument, NULL, OPT_CHECK},
        {"quiet", no_argument, NULL, OPT_QUIET},
        {"skip-missing", no_argument, NULL, OPT_SKIP},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    bool ok = true;
    for (int c; ok && (c = getopt_long(argc, argv, "h", longopts, NULL)) != -1;) {
        switch (c) {
        case OPT_FRAMES: ok = arg_int("--frames", optarg, 1, 1000000, &o.frames); break;
        case OPT_FPS: ok = arg_int("--fps", optarg, 1, 10000, &o.fps); break;
        case OPT_INSTANCES: ok = arg_int("--instances", optarg, 1, 65536, &o.instances); break;
        case OPT_CHECK: o.check = true; break;
        case OPT_QUIET: o.quiet = true; break;
        case OPT_SKIP: skip_missing = true; break;
        case 'h': usage(stdout, argv[0]); return 0;
        default: ok = false; break; /* getopt_long has said what is wrong */
        }
    }
    if (ok && optind != argc - 1) {
        fprintf(stderr, optind == argc ? "%s: no FILE given\n" : "%s: more than one FILE given\n",
                argv[0]);
        ok = false;
    }
    if (!ok) {
        usage(stderr, argv[0]);
        return 2;
    }
    const char *path = argv[optind];
    struct stat st;
    if (stat(path, &st) != 0) {
        if (skip_missing) {
            printf("%s: not installed, skipped\n", path);
            return 77;
        }
        perror(path);
        return 1;
    }

    app a;
    memset(&a, 0, sizeof a);
    const uint32_t K = (uint32_t)o.instances;
    int status = load(&a, path, K);
    if (status == 0)
        status = build(&a, K);
    if (status == 0)
        status = build_skins(&a);
    if (status == 0) {
        printf("%s: %u nodes, depth %u", path, a.tree.n, a.tree.depth);
        if (a.names.duplicates)
            printf(", %u repeated names (a channel takes the first)", a.names.duplicates);
        printf("; %u instance%s: %u sgrt nodes; kernel %s\n", K, K > 1 ? "s" : "", a.lay.total,
               sgrt_scene_simd_name(a.scene));
        if (a.nskins || a.unskinned)
            printf("skins: %u mesh%s with bones, a skin each per instance (%u skins)%s\n",
                   a.nskins, a.nskins == 1 ? "" : "es", a.nskins * K,
                   a.unskinned ? "; a bone names no node in some (not skinned)" : "");
        if (a.anim)
            printf("animation 1 of %u \"%s\": %u channels (%u name no node), %.6g ticks at %.6g"
                   " ticks/s%s = %.3f s; rotation keys: slerp\n",
                   a.ai->mNumAnimations, a.anim->mName.data, a.anim->mNumChannels, a.unresolved,
                   a.duration, a.tps, a.anim->mTicksPerSecond > 0 ? "" : " (0 in the file)",
                   a.duration / a.tps);
        else
            printf("no animation: frames write nothing; the naive traversal still walks every"
                   " node\n");
        status = play(&a, &o);
    }
    if (status == 0 && o.check)
        status = check_worlds(&a, &o);
    app_free(&a);
    return status;
}
