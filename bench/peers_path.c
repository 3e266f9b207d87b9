/* SPDX-License-Identifier: MIT */
/* Which call peers_sgrt_batch makes for each frame kind (peers_sgrt.h).
 * The reports print it beside the figures it produced, so that a change of
 * write path in peers_sgrt.c shows in every table that follows; one small
 * file of its own so that such a change touches one function here. */
#include "peers_sgrt.h"

const char *peers_sgrt_batch_path(bool trs, bool fresh_nodes, bool whole)
{
    (void)whole; /* a writer of every node is a writer like any other */
    /* No writer is bound to nodes that change every frame. */
    if (fresh_nodes)
        return trs ? "sgrt_nodes_set_trs" : "sgrt_nodes_set_local";
    return trs ? "sgrt_writer_set_trs" : "writer in place";
}
