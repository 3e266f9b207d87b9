/* SPDX-License-Identifier: MIT */
#include <sgrt.h>
#include <stdio.h>

/* Every call that can fail returns SGRT_OK or a negative sgrt_result, and a
 * call that fails changes nothing, except that a batch write keeps the
 * entries before the one it refused (SGRT_NODISCARD makes the compiler warn
 * when a result is dropped). */
#define TRY(call)                                                              \
    do {                                                                       \
        const sgrt_result r_ = (call);                                         \
        if (r_ != SGRT_OK) {                                                   \
            fprintf(stderr, "%s: %s\n", #call, sgrt_result_str(r_));           \
            return 1;                                                          \
        }                                                                      \
    } while (0)

/* The scene's log: a refused call says what was wrong there, naming the
 * argument ("parent is stale: ..."), where TRY can print only what the
 * code means. Set it in every program: it is what makes mistakes loud. */
static void log_to_stderr(void *user, const sgrt_log_entry *e)
{
    (void)user;
    fprintf(stderr, "sgrt: %s: %s\n", e->function, e->message);
}

int main(void)
{
    const sgrt_scene_desc desc = {.log = log_to_stderr}; /* zero elsewhere: defaults, malloc/free */
    sgrt_scene *scene;
    TRY(sgrt_scene_create(&desc, &scene));

    sgrt_node ship, nest, pirate, parrot;
    TRY(sgrt_node_create(scene, SGRT_NULL_NODE, &ship)); /* a root */
    TRY(sgrt_node_create(scene, ship, &nest));
    TRY(sgrt_node_create(scene, nest, &pirate));
    TRY(sgrt_node_create(scene, pirate, &parrot));

    /* every frame */
    const float t[3] = {0, 0, 1}, q[4] = {0, 0, 0, 1}, s[3] = {1, 1, 1};
    TRY(sgrt_node_set_trs(scene, ship, t, q, s));     /* only marks bits */
    const uint32_t n = sgrt_scene_update(scene);      /* recomputes the 4 moved worlds */

    float world[16];
    TRY(sgrt_node_world(scene, parrot, world));       /* column-major, translation in world[12..14] */
    printf("%u worlds, parrot at z = %g\n", n, world[14]);

    sgrt_scene_destroy(scene);
    return 0;
}
