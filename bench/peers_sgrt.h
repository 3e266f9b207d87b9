/* SPDX-License-Identifier: MIT */
/* sgrt's side of the peers frames: every sgrt write those frames make goes
 * through one of the two writers below, so that a new write call (writing
 * straight into storage, a batch bound once to its nodes) replaces today's
 * in a few lines of peers_sgrt.c and the whole peers report follows. */
#ifndef SGRT_BENCH_PEERS_SGRT_H
#define SGRT_BENCH_PEERS_SGRT_H

#include <sgrt.h>

#include <stdbool.h>
#include <stdint.h>

/* One frame's writes, as the animation system hands them over: entry k
 * moves nodes[k] (a handle of the scene written to). Matrix frames fill
 * local, TRS frames t, q and s; the arrays are contiguous and were filled
 * outside the clock. */
typedef struct peers_input {
    uint32_t count;
    const sgrt_node *nodes;
    const float (*local)[16];
    const float (*t)[3];
    const float (*q)[4];
    const float (*s)[3];
} peers_input;

typedef struct peers_sgrt_writer {
    const char *local_call, *trs_call; /* what the report says was timed */
    /* Optional (NULL: nothing to bind). Called outside the clock before a
     * frame kind whose nodes are the same every frame (all, trs10, trs100,
     * skeletons), with those nodes; what it returns is passed to every
     * write of that kind, then to unbind. */
    void *(*bind)(sgrt_scene *s, const sgrt_node *nodes, uint32_t count);
    void (*unbind)(sgrt_scene *s, void *bound);
    /* Timed: the frame's writes. Return how many writes sgrt refused. */
    uint32_t (*write_local)(sgrt_scene *s, void *bound, const peers_input *in);
    uint32_t (*write_trs)(sgrt_scene *s, void *bound, const peers_input *in);
} peers_sgrt_writer;

/* A loop of single calls: sgrt_node_set_local / sgrt_node_set_trs. */
extern const peers_sgrt_writer peers_sgrt_single;
/* One call per frame: sgrt_nodes_set_local / sgrt_nodes_set_trs. */
extern const peers_sgrt_writer peers_sgrt_batch;

/* The call peers_sgrt_batch makes for a frame kind, in a few words, for the
 * peers table and the verdict: trs, a TRS frame (else matrices);
 * fresh_nodes, the frame's nodes change every frame (1 %: nothing to bind);
 * whole, the frame moves every node of the scene. Kept in peers_path.c:
 * change it there when peers_sgrt.c changes a frame kind's call. */
const char *peers_sgrt_batch_path(bool trs, bool fresh_nodes, bool whole);

#endif
