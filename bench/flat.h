/* SPDX-License-Identifier: MIT */
/* flat: Bitsquid's transform component written by hand, the strongest
 * simple design a game programmer would put against sgrt. Parallel arrays
 * in creation order (parents before children), a parent index per node,
 * locals written in place by the game, and one linear pass
 * world[i] = world[parent[i]] x local[i]. Sparse frames raise a dirty byte
 * per written node and the pass carries "parent changed" down as it goes.
 *
 * Compiled at -O3 -march=native where the compiler takes it, with FMA
 * contraction allowed (bench/meson.build): flat is not bound by sgrt's
 * determinism, the benchmark checks it against a double-precision
 * reference instead. */
#ifndef SGRT_BENCH_FLAT_H
#define SGRT_BENCH_FLAT_H

#include <stdbool.h>
#include <stdint.h>

typedef struct flat_scene {
    uint32_t n;
    int32_t *parent;    /* parent[i] < i, -1 for a root */
    float (*local)[16]; /* column-major, 64-byte aligned: the game writes here */
    float (*world)[16];
    /* Bit 0: written by the game since the last pass; bit 1: world changed
     * in the last pass (what children read). */
    uint8_t *dirty;
} flat_scene;

/* Locals and worlds start as identity. Returns false on NOMEM. */
bool flat_init(flat_scene *f, const int32_t *parent, uint32_t n);
void flat_free(flat_scene *f);

/* Every world, no flags read: the frame where everything moved. */
void flat_update_all(flat_scene *f);
/* Only the worlds of written nodes and their descendants; clears the
 * written bits as it goes. */
void flat_update_dirty(flat_scene *f);

/* The game's write loops, compiled with flat's flags. Entry k goes to node
 * idx[k] (idx NULL: node k, the dense frame's loop); `mark` raises the
 * dirty byte for flat_update_dirty. */
void flat_write_locals(flat_scene *f, uint32_t count, const uint32_t *idx,
                       const float (*m)[16], bool mark);
/* The same from translation, unit quaternion (x, y, z, w) and scale:
 * local = T x R x S, converted four nodes at a time with SIMD. */
void flat_write_trs(flat_scene *f, uint32_t count, const uint32_t *idx, const float (*t)[3],
                    const float (*q)[4], const float (*s)[3], bool mark);

/* Which multiply and which TRS conversion this build of flat runs, and the
 * flags it was compiled with. */
const char *flat_describe(void);

#endif
