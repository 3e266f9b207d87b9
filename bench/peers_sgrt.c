/* The sgrt writes of the peers frames (peers_sgrt.h): today's calls. */
#include "peers_sgrt.h"

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

static uint32_t batch_local(sgrt_scene *s, void *bound, const peers_input *in)
{
    (void)bound;
    return sgrt_nodes_set_local(s, in->count, in->nodes, in->local, NULL) != SGRT_OK;
}

static uint32_t batch_trs(sgrt_scene *s, void *bound, const peers_input *in)
{
    (void)bound;
    return sgrt_nodes_set_trs(s, in->count, in->nodes, in->t, in->q, in->s, NULL) != SGRT_OK;
}

const peers_sgrt_writer peers_sgrt_single = {"sgrt_node_set_local", "sgrt_node_set_trs", NULL,
                                             NULL, single_local, single_trs};
const peers_sgrt_writer peers_sgrt_batch = {"sgrt_nodes_set_local", "sgrt_nodes_set_trs", NULL,
                                            NULL, batch_local, batch_trs};
