/* SPDX-License-Identifier: MIT */
/* TRS written in place: an animation system's packed translations,
 * quaternions and scales converted straight into the scene's local
 * matrices, and the same animation through the copy-in call, in three
 * scenes built alike:
 *
 *   copy-in    sgrt_writer_set_trs: the writer converts and stores;
 *   chunked    sgrt_writer_begin, then sgrt_trs_to_matrices on 16 entries
 *              at a time into a stack buffer (at the kernel's width), each
 *              matrix copied to its slot, then sgrt_writer_commit;
 *   per entry  the same, each entry converted (count 1) straight into
 *              locals + 16 * slots[i].
 *
 * The slots of a writer's entries need not be contiguous, so the chunk
 * cannot be converted into the local array in one call: hence the buffer,
 * or one call per entry. sgrt_trs_to_matrices computes what
 * sgrt_node_set_trs stores, bit for bit, so the three scenes must end with
 * the same worlds; the program checks that after every frame and prints
 * it. Which of the three is fastest is for the benchmark to say
 * (docs/design.md, "TRS without a scene").
 *
 *   trs_in_place [--help]
 *
 * Exits with status 1 if any world differs, 2 on a bad command line. */
#define _GNU_SOURCE /* getopt_long, in args.h */
#include <math.h>
#include <sgrt.h>
#include <stdio.h>
#include <string.h>

#include "args.h"
#include "must.h"

#define SKELETONS 16
#define JOINTS 64 /* per skeleton: a spine of 8, then limbs of 4 hung from it */
#define ENTRIES (SKELETONS * JOINTS)
#define FRAMES 10
#define CHUNK 16u          /* entries converted per call into the stack buffer */
#define COMMIT_EVERY 256u  /* entries handed over per commit (commit only marks) */

typedef struct pose {
    float t[ENTRIES * 3], q[ENTRIES * 4], s[ENTRIES * 3];
} pose;

/* The animation system's output for one frame: each joint turns about its
 * own axis, bobs a little, and breathes in scale. */
static void animate(pose *p, int frame)
{
    for (int i = 0; i < ENTRIES; i++) {
        const int j = i % JOINTS;
        const float angle = 0.05f * (float)(frame + 1) * (float)(1 + j % 7);
        const float ax = (float)(j % 3 == 0), ay = (float)(j % 3 == 1), az = (float)(j % 3 == 2);
        const float sn = sinf(0.5f * angle), cs = cosf(0.5f * angle);
        p->q[4 * i + 0] = ax * sn;
        p->q[4 * i + 1] = ay * sn;
        p->q[4 * i + 2] = az * sn;
        p->q[4 * i + 3] = cs;
        p->t[3 * i + 0] = j == 0 ? 2.0f * (float)(i / JOINTS) : 0.0f;
        p->t[3 * i + 1] = j == 0 ? 0.0f : 0.25f + 0.01f * sinf((float)(frame + j));
        p->t[3 * i + 2] = 0.0f;
        const float breathe = 1.0f + 0.02f * sinf(0.3f * (float)(frame + i));
        p->s[3 * i + 0] = p->s[3 * i + 2] = breathe;
        p->s[3 * i + 1] = 1.0f;
    }
}

/* A scene of SKELETONS skeletons, and a writer over all their joints in
 * creation order (parents first: the order a writer writes fastest). */
static sgrt_scene *make_scene(sgrt_node joints[ENTRIES], sgrt_writer *w)
{
    sgrt_scene *s;
    MUST(sgrt_scene_create(NULL, &s));
    for (int k = 0; k < SKELETONS; k++) {
        sgrt_node *sk = joints + k * JOINTS;
        for (int j = 0; j < JOINTS; j++) {
            const sgrt_node parent = j == 0             ? SGRT_NULL_NODE
                                     : j < 8              ? sk[j - 1] /* the spine */
                                     : (j - 8) % 4 == 0   ? sk[((j - 8) / 4) % 8] /* a limb's root */
                                                          : sk[j - 1];
            MUST(sgrt_node_create(s, parent, &sk[j]));
        }
    }
    MUST(sgrt_writer_create(s, ENTRIES, joints, 0, w));
    return s;
}

static void write_chunked(sgrt_scene *s, sgrt_writer w, const pose *p)
{
    float *locals;
    const uint32_t *slots;
    MUST(sgrt_writer_begin(s, w, &locals, &slots));
    for (uint32_t first = 0; first < ENTRIES; first += COMMIT_EVERY) {
        for (uint32_t c = first; c < first + COMMIT_EVERY; c += CHUNK) {
            float m[CHUNK * 16];
            MUST(sgrt_trs_to_matrices(CHUNK, p->t + 3 * c, p->q + 4 * c, p->s + 3 * c, m));
            for (uint32_t i = 0; i < CHUNK; i++)
                memcpy(locals + 16u * slots[c + i], m + 16 * i, sizeof(float[16]));
        }
        MUST(sgrt_writer_commit(s, w, first, COMMIT_EVERY));
    }
}

static void write_per_entry(sgrt_scene *s, sgrt_writer w, const pose *p)
{
    float *locals;
    const uint32_t *slots;
    MUST(sgrt_writer_begin(s, w, &locals, &slots));
    for (uint32_t first = 0; first < ENTRIES; first += COMMIT_EVERY) {
        for (uint32_t i = first; i < first + COMMIT_EVERY; i++)
            MUST(sgrt_trs_to_matrices(1, p->t + 3 * i, p->q + 4 * i, p->s + 3 * i,
                                      locals + 16u * slots[i]));
        MUST(sgrt_writer_commit(s, w, first, COMMIT_EVERY));
    }
}

/* How many of b's worlds differ from a's in any bit. */
static int differing_worlds(const sgrt_scene *a, const sgrt_node *na, const sgrt_scene *b,
                            const sgrt_node *nb)
{
    int differ = 0;
    for (int i = 0; i < ENTRIES; i++) {
        float wa[16], wb[16];
        MUST(sgrt_node_world(a, na[i], wa));
        MUST(sgrt_node_world(b, nb[i], wb));
        differ += memcmp(wa, wb, sizeof wa) != 0;
    }
    return differ;
}

int main(int argc, char **argv)
{
    const int status = args_help_only(argc, argv);
    if (status >= 0)
        return status;
    static sgrt_node ja[ENTRIES], jb[ENTRIES], jc[ENTRIES];
    static pose p;
    sgrt_writer wa, wb, wc;
    sgrt_scene *copy_in = make_scene(ja, &wa);
    sgrt_scene *chunked = make_scene(jb, &wb);
    sgrt_scene *per_entry = make_scene(jc, &wc);
    printf("%d skeletons of %d joints, TRS converted on the %s kernel\n", SKELETONS, JOINTS,
           sgrt_simd_name());

    int failed = 0;
    for (int frame = 0; frame < FRAMES; frame++) {
        animate(&p, frame);
        MUST(sgrt_writer_set_trs(copy_in, wa, p.t, p.q, p.s, NULL));
        write_chunked(chunked, wb, &p);
        write_per_entry(per_entry, wc, &p);
        const uint32_t na = sgrt_scene_update(copy_in);
        const uint32_t nb = sgrt_scene_update(chunked);
        const uint32_t nc = sgrt_scene_update(per_entry);
        const int db = differing_worlds(copy_in, ja, chunked, jb);
        const int dc = differing_worlds(copy_in, ja, per_entry, jc);
        printf("frame %d: %u / %u / %u worlds recomputed (copy-in / chunked / per entry); "
               "%s\n",
               frame, (unsigned)na, (unsigned)nb, (unsigned)nc,
               db || dc ? "WORLDS DIFFER" : "all bit-identical");
        if (db || dc || na != nb || na != nc) {
            fprintf(stderr, "frame %d: %d chunked and %d per-entry worlds differ from copy-in\n",
                    frame, db, dc);
            failed = 1;
        }
    }
    float w[16];
    MUST(sgrt_node_world(chunked, jb[ENTRIES - 1], w));
    printf("last joint's world translation: %.6g %.6g %.6g\n", (double)w[12], (double)w[13],
           (double)w[14]);
    sgrt_scene_destroy(copy_in);
    sgrt_scene_destroy(chunked);
    sgrt_scene_destroy(per_entry);
    printf("%s\n", failed ? "FAILED: the three paths disagree"
                          : "the three paths give the same worlds, bit for bit");
    return failed;
}
