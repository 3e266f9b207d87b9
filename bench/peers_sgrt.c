/* SPDX-License-Identifier: MIT */
/* The sgrt writes of the peers frames (peers_sgrt.h). single: one call per
 * moved node. batch: the write docs/design.md recommends for the frame, as
 * an engine would pick it: a writer bound once to the frame's nodes when
 * they are the same every frame (all, trs10, trs100, skeletons), written in
 * place for matrices (the game copies each local straight into the scene's
 * storage, as flat's game writes its own array, and commits in chunks) and
 * with sgrt_writer_set_trs for TRS; a 1 % frame's nodes change every
 * frame, so it goes through sgrt_nodes_set_local. */
#include "peers_sgrt.h"
#include "timing.h"

#include <stdlib.h>
#include <string.h>

static uint32_t single_local(sgrt_scene *s, void *bound, const peers_input *in)
{
    (void)bound;
    uint32_t bad = 0;
    for (uint32_t k = 0; k < in->count; k++)
        bad += sgrt_node_set_local(s, in->nodes[k], in->local[k]) != SGRT_OK;
    return bad;
}

static uint32_t single_trs(sgrt_scene *s, void *bound, const peers_input *in)
{
    (void)bound;
    uint32_t bad = 0;
    for (uint32_t k = 0; k < in->count; k++)
        bad += sgrt_node_set_trs(s, in->nodes[k], in->t[k], in->q[k], in->s[k]) != SGRT_OK;
    return bad;
}

/* The binding is the writer's handle, in a box: peers.c passes bindings as
 * pointers. */
static void *writer_bind(sgrt_scene *s, const sgrt_node *nodes, uint32_t count)
{
    sgrt_writer *w = malloc(sizeof *w);
    if (w && sgrt_writer_create(s, count, nodes, 0, w) == SGRT_OK)
        return w;
    free(w);
    return NULL;
}

static void writer_unbind(sgrt_scene *s, void *bound)
{
    if (bound)
        BENCH_OK(sgrt_writer_destroy(s, *(sgrt_writer *)bound));
    free(bound);
}

/* Commit every COMMIT_CHUNK entries, as a game loop that hands over a
 * chunk of its output at a time would (commit only marks: a chunk's size
 * is a matter of the caller's loop). */
#define COMMIT_CHUNK 256u

static uint32_t batch_local(sgrt_scene *s, void *bound, const peers_input *in)
{
    if (!bound)
        return sgrt_nodes_set_local(s, in->count, in->nodes, in->local[0], NULL) != SGRT_OK;
    float *locals;
    const uint32_t *slots;
    const sgrt_writer w = *(const sgrt_writer *)bound;
    if (sgrt_writer_begin(s, w, &locals, &slots) != SGRT_OK)
        return in->count;
    uint32_t bad = 0;
    for (uint32_t first = 0; first < in->count; first += COMMIT_CHUNK) {
        const uint32_t n = in->count - first < COMMIT_CHUNK ? in->count - first : COMMIT_CHUNK;
        for (uint32_t k = first; k < first + n; k++)
            memcpy(locals + 16u * slots[k], in->local[k], sizeof in->local[k]);
        bad += sgrt_writer_commit(s, w, first, n) != SGRT_OK;
    }
    return bad;
}

static uint32_t batch_trs(sgrt_scene *s, void *bound, const peers_input *in)
{
    if (!bound)
        return sgrt_nodes_set_trs(s, in->count, in->nodes, in->t[0], in->q[0], in->s[0], NULL) !=
               SGRT_OK;
    return sgrt_writer_set_trs(s, *(const sgrt_writer *)bound, in->t[0], in->q[0], in->s[0],
                               NULL) != SGRT_OK;
}

const peers_sgrt_writer peers_sgrt_single = {"sgrt_node_set_local", "sgrt_node_set_trs", NULL,
                                             NULL, single_local, single_trs};
const peers_sgrt_writer peers_sgrt_batch = {
    "sgrt_writer in place (begin, copy, commit; 1%: sgrt_nodes_set_local)",
    "sgrt_writer_set_trs", writer_bind, writer_unbind, batch_local, batch_trs};
