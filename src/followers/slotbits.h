/* SPDX-License-Identifier: MIT */
/* Bitfields over slots that follow the scene's storage, and the lists that
 * hold them (slotbits.c): what trackers and node sets share. Each object
 * starts with its sgrt__slotbits; its side array (a tracker's summary, a
 * node set's spare words) lives in the same allocation. */
#ifndef SGRT_FOLLOWERS_SLOTBITS_H
#define SGRT_FOLLOWERS_SLOTBITS_H

#include "../internal.h"

/* A bitfield over slots that follows the scene's storage (followers/slotbits.c), and
 * beside it, in the same allocation, the object's own side array (a
 * tracker's summary, a node set's spare array). */
typedef struct sgrt__slotbits {
    uint32_t id;    /* the object's handle id */
    uint32_t words; /* words in `bits`, always >= scene words */
    uint32_t *bits;
    uint32_t *block; /* bits, then the side array */
    size_t block_size;
} sgrt__slotbits;

/* The trackers or the node sets of a scene (followers/slotbits.c), listed
 * for the loops that visit every one of a kind (storage growth, the
 * update's tracker feed, destruction with the scene). */
typedef struct sgrt__slotlist {
    sgrt__slotbits **items; /* each the first member of its object */
    uint32_t count, cap;
} sgrt__slotlist;

/* Give b zeroed storage for `words` words of bits and `side_words` words of
 * its side array (*side), keeping the bits it had and the first `keep_side`
 * words of the side array. Allocates; nothing changes on failure. */
sgrt_result sgrt__slotbits_resize(sgrt_scene *s, sgrt__slotbits *b, uint32_t **side,
                                  uint32_t words, uint32_t side_words, uint32_t keep_side);
/* Gives object b (whose first member it is) zeroed bits for `words` words
 * and its side array. Allocates; nothing changes on failure. */
typedef sgrt_result (*sgrt__slotbits_sizer)(sgrt_scene *s, sgrt__slotbits *b, uint32_t words);
/* sgrt_tracker_create and sgrt_nodeset_create after their argument checks:
 * a zeroed object of `size` bytes that starts with its sgrt__slotbits,
 * sized by `resize` for the scene's capacity, listed in l, and named in the
 * object table as a `kind`; NULL with *err set (and logged for `function`)
 * when the table is full or memory runs out, nothing changed. */
sgrt__slotbits *sgrt__slotlist_create(sgrt_scene *s, sgrt__slotlist *l, uint32_t kind,
                                      size_t size, sgrt__slotbits_sizer resize,
                                      const char *function, sgrt_result *err);
/* List b (its bits already sized). Allocates; nothing changes on failure. */
sgrt_result sgrt__slotlist_add(sgrt_scene *s, sgrt__slotlist *l, sgrt__slotbits *b);
/* sgrt_tracker_destroy and sgrt_nodeset_destroy for a non-NULL s: the
 * handle `id` is resolved through the object table (args.h: refused, with
 * nothing freed, unless it names a live object of `kind`), then the object
 * (`size` bytes) is unlisted, freed and its id released. Zero: SGRT_OK. */
sgrt_result sgrt__slotlist_destroy_one(sgrt_scene *s, sgrt__slotlist *l, uint32_t id,
                                       uint32_t kind, size_t size, const char *const why[3],
                                       const char *function);
/* Free every object of the list (each `size` bytes) and the list. */
void sgrt__slotlist_free(sgrt_scene *s, sgrt__slotlist *l, size_t size);
/* NULL when every object of the list is named by its id in the object
 * table as a `kind` and covers the scene's capacity, else what broke. */
const char *sgrt__slotlist_check(const sgrt_scene *s, const sgrt__slotlist *l, uint32_t kind);

/* A collect's output arguments (out_count and out_more required, out with
 * max_ranges > 0): SGRT_OK, or their refusal, reported for `function`. */
sgrt_result sgrt__collect_outputs(const sgrt_scene *s, const sgrt_range *out, uint32_t max_ranges,
                                  const uint32_t *out_count, const bool *out_more,
                                  const char *function);

/* The runs of set bits of `bits` (the pending bits of elements base ..
 * base + 31, base a multiple of 32) appended to out as ranges, as every
 * collect writes them (trackers over slots, skins over joints): a run that
 * starts at most merge_gap past *end (one past out[*n - 1]) extends the
 * last range; *n and *end follow. Returns the bits not written because out
 * was full (max ranges), 0 when every run was. */
static inline uint32_t sgrt__collect_runs(uint32_t bits, uint32_t base, sgrt_range *out,
                                          uint32_t max, uint32_t merge_gap, uint32_t *n,
                                          uint32_t *end)
{
    while (bits) {
        const uint32_t lo = sgrt__ctz32(bits);
        const uint32_t above = ~bits & sgrt__mask_from(lo);
        const uint32_t hi = above ? sgrt__ctz32(above) : 32u;
        if (*n && base + lo - *end <= merge_gap) {
            out[*n - 1].count = base + hi - out[*n - 1].first;
        } else {
            if (*n == max)
                return bits; /* the rest stays pending */
            out[*n].first = base + lo;
            out[*n].count = hi - lo;
            ++*n;
        }
        *end = base + hi;
        bits &= ~(sgrt__mask_from(lo) & ~sgrt__mask_from(hi));
    }
    return 0;
}

#endif
