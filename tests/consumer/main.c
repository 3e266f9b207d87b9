/* SPDX-License-Identifier: MIT */
/* A program that uses sgrt from outside, through the public header only:
 * tests/consumer/consumer.py builds it as a meson project with sgrt as a
 * subproject, as a CMake project against an installed sgrt, and with the
 * flags of the installed pkg-config file. argv[1]: the version the library
 * must report. Exit 0 when every check passes. */
#include <sgrt.h>

#include <stdio.h>
#include <string.h>

static int failures;

static void check(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "consumer: FAILED: %s\n", what);
        failures++;
    }
}

/* world[12..14] of `node` against the sum of the translations on its path. */
static void check_translation(sgrt_scene *scene, sgrt_node node, const float want[3],
                              const char *what)
{
    float w[16];
    check(sgrt_node_world(scene, node, w) == SGRT_OK, "sgrt_node_world");
    for (int i = 0; i < 16; i++) {
        /* Rotation-free, unit scale: the linear part stays the identity and
         * the translations add exactly (small integers). */
        float expect = (i % 5 == 0) ? 1.0f : 0.0f;
        if (i >= 12 && i < 15)
            expect = want[i - 12];
        if (w[i] != expect) {
            fprintf(stderr, "consumer: %s: world[%d] = %g, expected %g\n", what, i, (double)w[i],
                    (double)expect);
            failures++;
        }
    }
}

int main(int argc, char **argv)
{
    sgrt_scene *scene = NULL;
    if (sgrt_scene_create(NULL, &scene) != SGRT_OK) {
        fprintf(stderr, "consumer: sgrt_scene_create failed\n");
        return 1;
    }
    sgrt_node root = SGRT_NULL_NODE, arm = SGRT_NULL_NODE, hand = SGRT_NULL_NODE;
    check(sgrt_node_create(scene, SGRT_NULL_NODE, &root) == SGRT_OK, "create root");
    check(sgrt_node_create(scene, root, &arm) == SGRT_OK, "create arm");
    check(sgrt_node_create(scene, arm, &hand) == SGRT_OK, "create hand");

    const float q[4] = {0, 0, 0, 1}, s[3] = {1, 1, 1};
    const float t_root[3] = {1, 2, 3}, t_arm[3] = {10, 0, 0}, t_hand[3] = {0, 100, 0};
    check(sgrt_node_set_trs(scene, root, t_root, q, s) == SGRT_OK, "set_trs root");
    check(sgrt_node_set_trs(scene, arm, t_arm, q, s) == SGRT_OK, "set_trs arm");
    check(sgrt_node_set_trs(scene, hand, t_hand, q, s) == SGRT_OK, "set_trs hand");
    check(sgrt_scene_update(scene) == 3, "first update recomputes the 3 nodes");
    const float hand_world[3] = {1 + 10 + 0, 2 + 0 + 100, 3 + 0 + 0};
    check_translation(scene, hand, hand_world, "hand after the first update");

    /* Moving the arm recomputes the arm and the hand, not the root. */
    const float t_arm2[3] = {-5, 0, 0};
    check(sgrt_node_set_trs(scene, arm, t_arm2, q, s) == SGRT_OK, "set_trs arm again");
    check(sgrt_scene_update(scene) == 2, "second update recomputes arm and hand");
    const float hand_world2[3] = {1 - 5 + 0, 2 + 0 + 100, 3 + 0 + 0};
    check_translation(scene, hand, hand_world2, "hand after moving the arm");
    check(sgrt_scene_update(scene) == 0, "nothing moved: nothing recomputed");
    sgrt_scene_destroy(scene);

    check(sgrt_version() == SGRT_VERSION, "sgrt_version() == SGRT_VERSION of the header");
    const char *v = sgrt_version_string();
    check(v != NULL, "sgrt_version_string() not NULL");
    if (argc > 1 && v && strcmp(v, argv[1]) != 0) {
        fprintf(stderr, "consumer: sgrt_version_string() = %s, expected %s\n", v, argv[1]);
        failures++;
    }
    check(argc > 1, "expected version given as argv[1]");
    printf("consumer: sgrt %s (%u), %d failure(s)\n", v ? v : "?", (unsigned)sgrt_version(),
           failures);
    return failures == 0 ? 0 : 1;
}
