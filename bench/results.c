/* SPDX-License-Identifier: MIT */
/* The rows of a run's results (results.h). */
#include "results.h"

#include <string.h>

bench_row *bench_results_add(bench_results *r)
{
    if (r->row_count == BENCH_MAX_ROWS)
        return NULL;
    bench_row *row = &r->rows[r->row_count++];
    memset(row, 0, sizeof *row);
    return row;
}

bench_peer_row *bench_results_add_peer(bench_results *r)
{
    if (r->peer_count == BENCH_MAX_PEER_ROWS)
        return NULL;
    bench_peer_row *row = &r->peers[r->peer_count++];
    memset(row, 0, sizeof *row);
    return row;
}
