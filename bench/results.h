/* SPDX-License-Identifier: MIT */
/* What a benchmark run found: the rows the measurements fill (measure.c,
 * peers.c) and the reports read (report.c, report_peers.c,
 * report_verdict.c). */
#ifndef SGRT_BENCH_RESULTS_H
#define SGRT_BENCH_RESULTS_H

#include <stdbool.h>
#include <stdint.h>

#define BENCH_MAX_ROWS 96
#define BENCH_MAX_PEER_ROWS 48

/* Executor sizes of the scaling report: P = 4, 16, 64. */
#define BENCH_SCALE_PS 3

/* One frame of sgrt_scene_update_parallel through an executor that runs
 * every task in turn on the calling thread and times each (measure.c), with
 * workers = P so that the library splits the work for P workers; and the
 * serial sgrt_scene_update of the same moves. Times in ns per frame. */
typedef struct bench_scale {
    uint32_t workers;  /* P */
    uint32_t tasks;    /* tasks run handed out (0: none, the work stayed on the caller) */
    double update;     /* serial sgrt_scene_update of the same moves */
    double total;      /* the whole sgrt_scene_update_parallel call */
    double serial;     /* total - sum: the part no worker can share */
    double largest;    /* the longest task */
    double sum;        /* all tasks */
    double predicted;  /* serial + max(sum / P, largest): P perfect workers */
} bench_scale;

/* One (scene, frame) of the table; times in ns per scene node, NAN when the
 * measure does not apply. A TRS frame (trs set) writes translation, rotation
 * and scale instead of matrices: set, naive_set and dirty_set are then
 * sgrt_node_set_trs and the baselines' own TRS -> matrix conversions, batch_set
 * is sgrt_nodes_set_trs; it has no scalar, shuffled, copy or chain measure
 * and appears only in the frames table (and the CSV). */
typedef struct bench_row {
    char scene[32];
    const char *frame;
    bool trs;
    uint32_t nodes;
    uint32_t moved;      /* writes per frame (set_local or set_trs calls) */
    uint32_t recomputed; /* median of what sgrt_scene_update returned */
    double set;          /* sgrt_node_set_local calls of the frame */
    double sgrt;         /* sgrt_scene_update, default scene */
    double scalar;       /* sgrt_scene_update, scene created with max_simd = SCALAR */
    double naive, naive_sh, dirty, dirty_sh;
    double naive_set, dirty_set; /* the baselines' own local writes (creation order) */
    double copy;         /* memcpy of n local matrices into n world matrices */
    double chain;        /* per dependent product of sgrt_node_world_now (chains only) */
    double batch_set;    /* one sgrt_nodes_set_local call, inputs gathered outside the clock */
    double batch;        /* sgrt_scene_update after it (same default scene) */
    double wfloor;       /* per write: memcpy of 64 B into a per-node array + one bit */
    /* sgrt_scene_update_parallel on the benchmark's thread pool after the
     * same single writes as `set` (default scene): its time, the median of
     * what it returned, and the measured frames where that differed from
     * what sgrt_scene_update returned on the same moves. */
    double par;
    uint32_t par_recomputed;
    uint32_t par_mismatch;
    bool scaled; /* scale[] measured (rows of the scaling report) */
    bench_scale scale[BENCH_SCALE_PS];
} bench_row;

/* One (scene, frame, cache state) of the peers table (peers.c): each
 * contender's frame, writes + update, in ns per scene node, the median of
 * the cell's measured frames; NAN where a contender does not run. The
 * `_set` fields are the writes alone, median of their own. naive is the
 * code many programs start from rather than a peer, timed in the same
 * rounds so that the verdict's ratios against it are interleaved too. */
typedef struct bench_peer_row {
    char scene[32];
    const char *frame;   /* all, 1%, trs10, trs100 */
    bool evicted;        /* a buffer larger than the LLC written before each frame */
    uint32_t nodes;
    uint32_t moved;      /* writes per frame */
    uint32_t recomputed; /* median of what sgrt_scene_update returned (single scene) */
    int frames;          /* measured frames per contender */
    double single, single_set; /* sgrt, a loop of single write calls */
    double batch, batch_set;   /* sgrt, one batch write call */
    double flat, flat_set;
    double fused;              /* skeletons only */
    double naive, naive_set;   /* the pointer tree: its own writes + render() */
    double copy;               /* memcpy of `recomputed` matrices */
    const char *sgrt_path;     /* the batch writes' call (peers_sgrt_batch_path) */
} bench_peer_row;

/* The contenders of the peers table, in the order they run in a round. */
enum { BENCH_PEER_SINGLE, BENCH_PEER_BATCH, BENCH_PEER_FLAT, BENCH_PEER_FUSED, BENCH_PEER_NAIVE,
       BENCH_PEER_COPY, BENCH_PEERS };

typedef struct bench_results {
    bool quick;
    bool verdict;     /* the default run: warm peers cells only, for the verdict */
    bool level_order; /* trees numbered level by level (--order bfs) */
    uint32_t workers; /* threads of the pool behind the 'par' column (--workers) */
    bench_row rows[BENCH_MAX_ROWS];
    int row_count;
    int verify_failures;   /* scenes whose world matrices or recomputed counts disagreed,
                              or where a write was refused */
    double verify_max_err; /* largest relative sgrt vs naive difference */
    /* sgrt_scene_simd_name of the scenes that ran (NULL until one has). */
    const char *sgrt_kernel, *scalar_kernel;
    char load_start[64], load_end[64];
    /* CPUs' worth of other programs' work during the run (bench_cpu_use);
     * NAN where the system does not say. */
    double others_cpus;
    /* The peers table (peers.c). */
    bench_peer_row peers[BENCH_MAX_PEER_ROWS];
    int peer_count;
    uint32_t evict_mib;        /* buffer written before each evicted frame; 0: none */
    uint64_t llc_bytes;        /* last-level cache as the system reports it; 0: unknown */
    const char *peer_kernel;   /* sgrt_scene_simd_name of the peers' scenes */
    double peer_err[BENCH_PEERS]; /* largest relative error against the double reference */
} bench_results;

/* The next free row, zeroed; NULL when the table is full. */
bench_row *bench_results_add(bench_results *r);
bench_peer_row *bench_results_add_peer(bench_results *r);

#endif
