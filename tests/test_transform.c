/* SPDX-License-Identifier: MIT */
/* Transform input and the non-finite policy (documented in sgrt.h and
 * docs/testing.md):
 *
 *  - sgrt_node_set_local and sgrt_node_set_trs refuse NaN and +-Inf with
 *    SGRT_ERR_INVALID_ARG and change nothing, also when finite TRS inputs
 *    produce a non-finite matrix; finite values, however extreme (denormals,
 *    FLT_MAX, -0), are stored and read back bit for bit;
 *  - finite locals may still overflow in world products (Inf, then Inf*0 =
 *    NaN). Worlds only flow from parent to child, so such values stay inside
 *    the subtree that produced them: other subtrees' worlds stay exact, the
 *    bitfields stay consistent, and nothing stays dirty because of them;
 *  - a keep-world re-parent whose new local would not be finite (parent or
 *    node world non-finite, parent singular, inverse overflowing) returns
 *    SGRT_ERR_SINGULAR and changes nothing.
 *
 * Expected worlds come from the library's reference kernel (the definition
 * every kernel must reproduce bit for bit), applied to a plain tree kept by
 * the test; NaNs compare by position only, since payloads may differ. */
#include "internal.h" /* the reference kernel: the definition of the product */
#include "ports/armv7_neon_model.h"
#include "testutil.h"

/* ---- the test's own tree --------------------------------------------------- */

#define MAXN 32

typedef struct tnode {
    sgrt_node h;
    int parent; /* -1: root */
    bool alive;
    float local[16];
} tnode;

static tnode tn[MAXN];
static int tcount;
static sgrt_scene *S;


static int add(int parent)
{
    tnode *n = &tn[tcount];
    CHECK_RES(sgrt_node_create(S, parent < 0 ? SGRT_NULL_NODE : tn[parent].h, &n->h), SGRT_OK);
    n->parent = parent;
    n->alive = true;
    memcpy(n->local, IDENTITY, sizeof IDENTITY);
    return tcount++;
}

static void set_local(int i, const float m[16])
{
    CHECK_RES(sgrt_node_set_local(S, tn[i].h, m), SGRT_OK);
    memcpy(tn[i].local, m, sizeof tn[i].local);
}

static void scale_matrix(float s, float m[16])
{
    memcpy(m, IDENTITY, sizeof IDENTITY);
    m[0] = m[5] = m[10] = s;
}

/* The only use of the kernel tables: the product every kernel must
 * reproduce bit for bit. On 32-bit ARM the NEON kernel flushes denormals: its
 * product is the model's. */
static void reference_mul(const float parent_world[16], const float local[16], float out[16])
{
    const sgrt__kernels def = kernels_default(), ref = kernels_at(SGRT__LEVEL_SCALAR);
    const sgrt__kernels *k = kernel_flushes_denormals(&def) ? armv7_neon_model() : &ref;
    k->mul(parent_world, local, out);
}

/* True when the default kernel flushes denormals (32-bit ARM NEON). */
static bool flushes_denormals(void)
{
    const sgrt__kernels def = kernels_default();
    return kernel_flushes_denormals(&def);
}

static void expected_world(int i, float out[16])
{
    if (tn[i].parent < 0) {
        memcpy(out, tn[i].local, 16 * sizeof(float));
        return;
    }
    float pw[16];
    expected_world(tn[i].parent, pw);
    reference_mul(pw, tn[i].local, out);
}

static bool in_subtree(int i, int root)
{
    for (int x = i; x >= 0; x = tn[x].parent)
        if (x == root)
            return true;
    return false;
}

/* Bit-exact, except that any NaN matches any NaN. */
static bool same_world(const float a[16], const float b[16])
{
    for (int k = 0; k < 16; k++) {
        if (isnan(a[k]) && isnan(b[k]))
            continue;
        if (float_bits(a[k]) != float_bits(b[k]))
            return false;
    }
    return true;
}

/* Every live node's stored world equals the expected one (call right after
 * an update); nodes outside `poisoned` (-1: none) must be finite. */
static void verify_worlds(const char *where, int poisoned)
{
    check_scene_where(S, where);
    for (int i = 0; i < tcount; i++) {
        if (!tn[i].alive) {
            CHECK(!sgrt_node_alive(S, tn[i].h));
            continue;
        }
        float got[16], now[16], want[16];
        CHECK_RES(sgrt_node_world(S, tn[i].h, got), SGRT_OK);
        CHECK_RES(sgrt_node_world_now(S, tn[i].h, now), SGRT_OK);
        expected_world(i, want);
        if (!same_world(got, want) || !same_world(now, want))
            FAIL("%s: node %d: world differs from the reference product", where, i);
        if ((poisoned < 0 || !in_subtree(i, poisoned)) && !finite16(got))
            FAIL("%s: node %d outside the overflowing subtree is not finite", where, i);
    }
}

/* ---- refused input ----------------------------------------------------------- */

static const uint32_t bad_bits[] = {
    0x7FC00000u, /* quiet NaN */
    0xFFC00000u, /* negative quiet NaN */
    0x7FA00000u, /* signalling NaN */
    0x7F800001u, /* smallest-payload NaN */
    0x7F800000u, /* +Inf */
    0xFF800000u, /* -Inf */
};
#define NBAD (sizeof bad_bits / sizeof bad_bits[0])

static void test_refused(void)
{
    CHECK_RES(sgrt_scene_create(NULL, &S), SGRT_OK);
    tcount = 0;
    const int r = add(-1), a = add(r), b = add(a);
    (void)b;
    float m[16];
    scale_matrix(2.0f, m);
    set_local(a, m);
    CHECK(sgrt_scene_update(S) == 3);

    /* Pending work of one node is part of the state that must survive. */
    scale_matrix(3.0f, m);
    set_local(r, m);

    sgrt_node hs[3] = {tn[0].h, tn[1].h, tn[2].h};
    snapshot before;
    snapshot_take(S, hs, 3, &before);

    uint32_t refused = 0;
    for (int node = 0; node < 3; node++) {
        for (unsigned v = 0; v < NBAD; v++) {
            for (int k = 0; k < 16; k++) {
                memcpy(m, tn[node].local, sizeof m);
                m[k] = bits_float(bad_bits[v]);
                CHECK_RES(sgrt_node_set_local(S, tn[node].h, m), SGRT_ERR_INVALID_ARG);
                refused++;
            }
            const float t[3] = {1, 2, 3}, q[4] = {0, 0, 0, 1}, s[3] = {1, 1, 1};
            for (int k = 0; k < 10; k++) {
                float tt[3], qq[4], ss[3];
                memcpy(tt, t, sizeof tt);
                memcpy(qq, q, sizeof qq);
                memcpy(ss, s, sizeof ss);
                float *slot = k < 3 ? &tt[k] : k < 7 ? &qq[k - 3] : &ss[k - 7];
                *slot = bits_float(bad_bits[v]);
                CHECK_RES(sgrt_node_set_trs(S, tn[node].h, tt, qq, ss), SGRT_ERR_INVALID_ARG);
                refused++;
            }
        }
        /* Finite inputs whose matrix overflows: (1 - 2(y^2 + z^2)) * 3e38. */
        const float t[3] = {0, 0, 0}, q[4] = {1, 1, 1, 1}, big[3] = {3e38f, 3e38f, 3e38f};
        CHECK_RES(sgrt_node_set_trs(S, tn[node].h, t, q, big), SGRT_ERR_INVALID_ARG);
        refused++;

        /* Huge but finite: accepted, and the local is exactly T (the read
         * overwrites a NaN-filled buffer, so every entry is checked). */
        const float huge_t[3] = {3.4e38f, -3.4e38f, 0};
        const float q1[4] = {0, 0, 0, 1}, s1[3] = {1, 1, 1};
        CHECK_RES(sgrt_node_set_trs(S, tn[node].h, huge_t, q1, s1), SGRT_OK);
        float want[16];
        memcpy(want, IDENTITY, sizeof want);
        want[12] = 3.4e38f;
        want[13] = -3.4e38f;
        for (int k = 0; k < 16; k++)
            m[k] = bits_float(0x7FC0DEADu);
        CHECK_RES(sgrt_node_local(S, tn[node].h, m), SGRT_OK);
        CHECK(memcmp(m, want, sizeof m) == 0);
        CHECK_RES(sgrt_node_set_local(S, tn[node].h, tn[node].local), SGRT_OK); /* restore */
    }
    CHECK_EQ_U(refused, 3u * (NBAD * (16u + 10u) + 1u));

    check_unchanged(S, &before, hs, "refused input");
    snapshot_free(&before);
    /* The restoring set_local calls wrote bit-identical matrices: only the
     * root's pending move remains, and it covers the whole tree. */
    CHECK(sgrt_scene_update(S) == 3);
    CHECK(sgrt_scene_update(S) == 0);
    verify_worlds("refused", -1);
    printf("refused %u non-finite inputs, scene unchanged\n", (unsigned)refused);
    sgrt_scene_destroy(S);
}

/* Bits that are finite but unusual are accepted, read back and compared by
 * bits. (That -0 is a change and identical bits are none: test_update.) */
static void test_finite_edges(void)
{
    CHECK_RES(sgrt_scene_create(NULL, &S), SGRT_OK);
    tcount = 0;
    const int r = add(-1), c = add(r);
    CHECK(sgrt_scene_update(S) == 2);

    float m[16];
    memcpy(m, IDENTITY, sizeof m);
    m[1] = -0.0f;
    set_local(r, m);
    m[2] = bits_float(0x00000001u); /* smallest denormal */
    m[3] = -bits_float(0x007FFFFFu);
    m[6] = -3.4028235e38f;
    m[12] = 3.4028235e38f; /* FLT_MAX */
    set_local(c, m);
    CHECK(sgrt_scene_update(S) == 2);
    for (int i = 0; i < tcount; i++) {
        float back[16];
        CHECK_RES(sgrt_node_local(S, tn[i].h, back), SGRT_OK);
        CHECK(memcmp(back, tn[i].local, sizeof back) == 0);
    }
    verify_worlds("finite edges", -1);
    sgrt_scene_destroy(S);
}

/* ---- overflow inside one subtree -------------------------------------------- */

static void test_overflow_contained(void)
{
    sgrt_scene_desc d;
    memset(&d, 0, sizeof d);
    CHECK_RES(sgrt_scene_create(&d, &S), SGRT_OK);
    tcount = 0;
    /* Interleave creation so the overflowing subtree and the clean ones share
     * bitfield words and sit on both sides of each other in slot order. */
    const int A = add(-1);   /* scale 1e30 */
    const int D = add(-1);   /* clean root */
    const int B = add(A);    /* scale 1e30: world overflows to Inf */
    const int E = add(D);
    const int C = add(B);    /* zeros in its local: Inf * 0 = NaN */
    const int G = add(A);    /* scale 1e-30: finite world, sibling of B */
    const int F = add(E);
    const int H = add(C);
    int pad[12];
    for (int i = 0; i < 12; i++)
        pad[i] = add(i % 2 ? D : F);
    (void)pad;

    float m[16];
    scale_matrix(1e30f, m);
    set_local(A, m);
    set_local(B, m);
    scale_matrix(1e-30f, m);
    set_local(G, m);
    memcpy(m, IDENTITY, sizeof m);
    m[0] = 0.0f; /* column 0 of C's world = Inf*0 + ... = NaN */
    m[12] = 5.0f;
    set_local(C, m);
    scale_matrix(0.5f, m);
    m[13] = 7.0f;
    set_local(E, m);

    CHECK(sgrt_scene_update(S) == (uint32_t)tcount);
    verify_worlds("overflow", B);
    float w[16];
    CHECK_RES(sgrt_node_world(S, tn[B].h, w), SGRT_OK);
    CHECK(isinf(w[0]));
    CHECK_RES(sgrt_node_world(S, tn[C].h, w), SGRT_OK);
    CHECK(isnan(w[0]));
    CHECK_RES(sgrt_node_world(S, tn[H].h, w), SGRT_OK);
    CHECK(isnan(w[0]));
    CHECK_RES(sgrt_node_world(S, tn[G].h, w), SGRT_OK);
    CHECK(finite16(w));
    /* Nothing stays dirty because of a NaN. */
    CHECK(sgrt_scene_update(S) == 0);

    /* A clean subtree moving recomputes itself only and stays exact. */
    scale_matrix(2.0f, m);
    set_local(D, m);
    CHECK(sgrt_scene_update(S) == 1u + 1u + 1u + 12u); /* D, E, F and the pads */
    verify_worlds("clean move", B);

    /* KEEP_WORLD cannot express a world under a NaN parent, nor a NaN world
     * under a finite parent, nor a world under a singular parent. */
    sgrt_node all[MAXN];
    for (int i = 0; i < tcount; i++)
        all[i] = tn[i].h;
    snapshot before;
    snapshot_take(S, all, (uint32_t)tcount, &before);
    CHECK_RES(sgrt_node_set_parent(S, tn[E].h, tn[C].h, SGRT_KEEP_WORLD), SGRT_ERR_SINGULAR);
    CHECK_RES(sgrt_node_set_parent(S, tn[E].h, tn[B].h, SGRT_KEEP_WORLD), SGRT_ERR_SINGULAR);
    CHECK_RES(sgrt_node_set_parent(S, tn[C].h, tn[D].h, SGRT_KEEP_WORLD), SGRT_ERR_SINGULAR);
    CHECK_RES(sgrt_node_set_parent(S, tn[C].h, SGRT_NULL_NODE, SGRT_KEEP_WORLD),
             SGRT_ERR_SINGULAR);
    CHECK_RES(sgrt_node_set_parent(S, tn[H].h, SGRT_NULL_NODE, SGRT_KEEP_WORLD),
             SGRT_ERR_SINGULAR);
    check_unchanged(S, &before, all, "refused keep-world re-parent");
    snapshot_free(&before);
    CHECK(sgrt_scene_update(S) == 0);

    /* A node under a NaN parent turns NaN, and is clean again once moved
     * back: NaN never sticks to a node, only to a position in the tree. */
    CHECK_RES(sgrt_node_set_parent(S, tn[F].h, tn[C].h, SGRT_KEEP_LOCAL), SGRT_OK);
    tn[F].parent = C;
    const uint32_t fsub = 1u + 6u; /* F and its six pads */
    CHECK(sgrt_scene_update(S) == fsub);
    verify_worlds("under NaN", B);
    CHECK_RES(sgrt_node_world(S, tn[F].h, w), SGRT_OK);
    CHECK(isnan(w[0]));
    CHECK_RES(sgrt_node_set_parent(S, tn[F].h, tn[E].h, SGRT_KEEP_LOCAL), SGRT_OK);
    tn[F].parent = E;
    CHECK(sgrt_scene_update(S) == fsub);
    verify_worlds("back from NaN", B);

    /* Keep-local re-parent of the NaN node to a root: its world is its
     * local again. */
    CHECK_RES(sgrt_node_set_parent(S, tn[C].h, SGRT_NULL_NODE, SGRT_KEEP_LOCAL), SGRT_OK);
    tn[C].parent = -1;
    CHECK(sgrt_scene_update(S) == 2); /* C, H */
    verify_worlds("NaN node made a root", B);
    CHECK_RES(sgrt_node_set_parent(S, tn[C].h, tn[B].h, SGRT_KEEP_LOCAL), SGRT_OK);
    tn[C].parent = B;
    CHECK(sgrt_scene_update(S) == 2);
    verify_worlds("NaN node put back", B);

    /* Singular finite parent, and a finite parent whose inverse makes the
     * new local overflow. */
    scale_matrix(0.0f, m);
    set_local(G, m);
    CHECK(sgrt_scene_update(S) == 1);
    snapshot_take(S, all, (uint32_t)tcount, &before);
    CHECK_RES(sgrt_node_set_parent(S, tn[E].h, tn[G].h, SGRT_KEEP_WORLD), SGRT_ERR_SINGULAR);
    check_unchanged(S, &before, all, "keep-world under a singular parent");
    snapshot_free(&before);

    scale_matrix(1e-30f, m);
    set_local(G, m); /* G's world: 1e30 * 1e-30 ~ 1 */
    const int T = add(G);
    const int U = add(T);
    set_local(T, m); /* world ~1e-30 */
    set_local(U, m); /* world ~1e-60: rounds to 0, singular */
    CHECK(sgrt_scene_update(S) == 3);
    CHECK_RES(sgrt_node_world(S, tn[U].h, w), SGRT_OK);
    CHECK(w[0] == 0.0f);
    CHECK_RES(sgrt_node_set_parent(S, tn[E].h, tn[U].h, SGRT_KEEP_WORLD), SGRT_ERR_SINGULAR);
    scale_matrix(1e-15f, m);
    set_local(U, m); /* world ~1e-45: a denormal scale, invertible in double */
    CHECK(sgrt_scene_update(S) == 1);
    CHECK_RES(sgrt_node_world(S, tn[U].h, w), SGRT_OK);
    if (flushes_denormals())
        CHECK(w[0] == 0.0f); /* NEON flushed the denormal world to zero */
    else
        CHECK(w[0] > 0.0f && w[0] < 1e-44f);
    /* inverse(~1e-45) x E's world (~1) needs ~1e45: not a float. */
    CHECK_RES(sgrt_node_set_parent(S, tn[E].h, tn[U].h, SGRT_KEEP_WORLD), SGRT_ERR_SINGULAR);
    /* A keep-local move under it is fine: the products underflow, finite. */
    CHECK_RES(sgrt_node_set_parent(S, tn[E].h, tn[U].h, SGRT_KEEP_LOCAL), SGRT_OK);
    tn[E].parent = U;
    CHECK(sgrt_scene_update(S) == 1u + fsub); /* E, F and its pads */
    verify_worlds("singular parents", B);

    /* Compaction keeps the non-finite worlds as they are, bit for bit. */
    for (int i = 0; i < tcount; i++)
        all[i] = tn[i].h;
    snapshot_take(S, all, (uint32_t)tcount, &before);
    CHECK_RES(sgrt_scene_compact(S), SGRT_OK);
    check_unchanged(S, &before, all, "compaction");
    snapshot_free(&before);
    CHECK(sgrt_scene_update(S) == 0);

    /* Destroying the overflowing subtree leaves only finite worlds. */
    CHECK_RES(sgrt_node_destroy(S, tn[B].h), SGRT_OK);
    for (int i = 0; i < tcount; i++)
        if (in_subtree(i, B))
            tn[i].alive = false;
    CHECK(sgrt_scene_update(S) == 0);
    verify_worlds("overflow destroyed", -1);
    sgrt_scene_destroy(S);
}

int main(void)
{
    test_refused();
    test_finite_edges();
    test_overflow_contained();
    return test_report("test_transform");
}
