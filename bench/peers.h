/* SPDX-License-Identifier: MIT */
/* The peers measurement: sgrt's frame (the game's writes + the update)
 * against the best hand-written designs, flat (flat.h) and, on skeletons,
 * fused (fused.h), against the naive pointer tree (naive.h) and against the
 * copy floor, all in one process, in interleaved rounds: each contender
 * runs one frame per round, so a slow spell of a shared machine, and the
 * caches, are shared as in a game frame. Every cell runs warm (a contender's frame right after its
 * previous one) and evicted (a buffer larger than the last-level cache
 * written before each frame, outside the clock, as the rest of a game
 * frame does). Every contender's worlds are checked against a
 * double-precision reference after each cell. */
#ifndef SGRT_BENCH_PEERS_H
#define SGRT_BENCH_PEERS_H

#include "results.h"
#include "scenes.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The buffer written between evicted frames: one 8-byte write per cache
 * line, so every line is read for ownership and ends up in the caches,
 * pushing out what was there (a streaming memset could bypass them). */
typedef struct bench_evict {
    uint64_t *p;
    size_t words;
    uint64_t v;
} bench_evict;

/* Twice the last-level cache (bench_llc_bytes), at most 1 GiB so that a
 * run stays practical; 256 MiB when the cache size is unknown. */
uint32_t bench_evict_default_mib(void);
/* Allocates and writes mib MiB once (so later touches take no page
 * faults). Returns false on NOMEM. */
bool bench_evict_init(bench_evict *e, uint32_t mib);
void bench_evict_touch(bench_evict *e);
void bench_evict_free(bench_evict *e);

/* Frame kinds of bench_peers_scene, as bits of its `kinds`. */
enum {
    BENCH_PEERS_ALL = 1u << 0,    /* every node a new matrix */
    BENCH_PEERS_ONE = 1u << 1,    /* 1 % of the nodes, fresh each frame */
    BENCH_PEERS_TRS10 = 1u << 2,  /* a fixed 10 % by TRS */
    BENCH_PEERS_TRS100 = 1u << 3, /* every node by TRS */
    BENCH_PEERS_EVERY = 15u
};

/* Build topology t (a tree or a skeleton scene) in sgrt (two scenes: one
 * for single calls, one for batch calls), flat, fused (skeletons), naive and
 * the copy floor, from the local matrices in init; time the frames of
 * `kinds` among all, 1%, trs10 and trs100 (skeletons: trs100 only), warm
 * and, with ev, evicted; append
 * one row per (frame, cache state) to res. Matrix moves come from pool,
 * TRS inputs from trs. reps > 0: measured frames per cell, else by scene
 * size (fewer with quick). A reference mismatch or a refused write counts
 * in res->verify_failures. Returns false on NOMEM. */
bool bench_peers_scene(bench_results *res, const bench_topo *t, unsigned kinds, bool quick,
                       int reps, float (*pool)[16], float (*init)[16], const bench_trs_pool *trs,
                       bench_evict *ev);

#endif
