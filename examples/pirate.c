/* SPDX-License-Identifier: MIT */
/* Nystrom's pirate ship (Game Programming Patterns, "Dirty Flag"): a ship
 * carries a crow's nest, the nest a pirate, the pirate a parrot. In one frame
 * all four move. Recomputing a node's world matrix, and those of everything
 * it carries, as soon as it moves costs 4 + 3 + 2 + 1 = 10 multiplications;
 * marking on move and recomputing once before the frame is drawn costs 4.
 *
 *   pirate [--help]
 *
 * Exits with status 1 if sgrt's counts are not the expected ones, 2 on a
 * bad command line. */
#define _GNU_SOURCE /* getopt_long, in args.h */
#include <sgrt.h>
#include <stdio.h>

#include "args.h"
#include "must.h"

static void translate(sgrt_scene *s, sgrt_node n, float x, float y, float z)
{
    const float t[3] = {x, y, z}, q[4] = {0, 0, 0, 1}, one[3] = {1, 1, 1};
    MUST(sgrt_node_set_trs(s, n, t, q, one));
}

/* What an eager update would compute for moving n: n and its subtree. */
static unsigned subtree_size(const sgrt_scene *s, sgrt_node n)
{
    unsigned k = 1;
    sgrt_node c;
    MUST(sgrt_node_first_child(s, n, &c));
    for (; c.id; MUST(sgrt_node_next_sibling(s, c, &c)))
        k += subtree_size(s, c);
    return k;
}

int main(int argc, char **argv)
{
    const int status = args_help_only(argc, argv);
    if (status >= 0)
        return status;
    sgrt_scene *s;
    if (sgrt_scene_create(NULL, &s) != SGRT_OK)
        return 1;
    sgrt_node ship, nest, pirate, parrot;
    MUST(sgrt_node_create(s, SGRT_NULL_NODE, &ship));
    MUST(sgrt_node_create(s, ship, &nest));
    MUST(sgrt_node_create(s, nest, &pirate));
    MUST(sgrt_node_create(s, pirate, &parrot));
    translate(s, nest, 0.0f, 8.0f, 0.0f);
    translate(s, pirate, 0.0f, 1.0f, 0.0f);
    translate(s, parrot, 0.3f, 1.2f, 0.0f);
    sgrt_scene_update(s);

    /* One frame: the ship sails, the nest sways, the pirate leans, the parrot hops. */
    const sgrt_node moved[4] = {ship, nest, pirate, parrot};
    unsigned eager = 0;
    for (int i = 0; i < 4; i++)
        eager += subtree_size(s, moved[i]);
    translate(s, ship, 10.0f, 0.0f, 0.0f);
    translate(s, nest, 0.5f, 8.0f, 0.0f);
    translate(s, pirate, 0.0f, 1.0f, 0.25f);
    translate(s, parrot, 0.3f, 1.5f, 0.0f);
    const uint32_t computed = sgrt_scene_update(s);

    printf("ship > crow's nest > pirate > parrot, all four moved in one frame\n");
    printf("  eager update (recompute a subtree on every move): %2u world matrices\n", eager);
    printf("  sgrt (mark on move, one pass before drawing):     %2u world matrices\n",
           (unsigned)computed);
    printf("world positions:\n");
    const char *names[4] = {"ship", "crow's nest", "pirate", "parrot"};
    for (int i = 0; i < 4; i++) {
        float w[16];
        MUST(sgrt_node_world(s, moved[i], w));
        printf("  %-12s (%6.2f, %6.2f, %6.2f)\n", names[i], (double)w[12], (double)w[13],
               (double)w[14]);
    }

    /* The parrot flies off and is gone before the next frame is drawn: its
     * pending world matrix is never computed. */
    translate(s, parrot, 3.0f, 4.0f, 0.0f);
    MUST(sgrt_node_destroy(s, parrot));
    const uint32_t after_destroy = sgrt_scene_update(s);
    printf("parrot moved, then destroyed before the update: %u computed\n",
           (unsigned)after_destroy);

    sgrt_scene_destroy(s);
    return (eager == 10 && computed == 4 && after_destroy == 0) ? 0 : 1;
}
