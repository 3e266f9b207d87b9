/* Internal declarations of the renderer hand-off (tracker.c, nodeset.c). */
#ifndef SGRT_HANDOFF_H
#define SGRT_HANDOFF_H

#include "internal.h"

enum { SGRT__BITS_TRACKER = 0, SGRT__BITS_NODESET = 1 };

/* A bitfield over slots registered with a scene: a tracker's pending slots,
 * or a node set (struct sgrt_nodeset begins with one). Both kinds live in
 * s->trackers, every tracker before every node set, so that storage growth and
 * scene destruction reach them through one list while sgrt__note_changed
 * stops at the first node set. */
struct sgrt_tracker {
    const sgrt_scene *scene; /* owner, to refuse objects of another scene */
    uint32_t kind;
    uint32_t words; /* words in `bits`, always >= scene->words */
    uint32_t *bits;
    /* tracker: summary, bit w set iff bits[w] != 0 ((words + 31) / 32 words);
     * node set: `words` spare words, the target of a compaction remap. */
    uint32_t *aux;
    uint32_t *block;   /* one allocation holds bits and aux, in either order */
    size_t block_size;
};

struct sgrt_nodeset {
    struct sgrt_tracker b;
};

/* Add e (kind set, scene set, no storage yet) to the registry with zeroed
 * bits for the scene's current capacity. Allocates; nothing changes on
 * failure. */
sgrt_result sgrt__bits_register(sgrt_scene *s, struct sgrt_tracker *e);
/* Remove e from the registry and free its bits (not e itself). */
void sgrt__bits_unregister(sgrt_scene *s, struct sgrt_tracker *e);
/* Index of the first node set in s->trackers (tracker_count if none). */
uint32_t sgrt__first_nodeset(const sgrt_scene *s);

/* The invariants of the registry, tracker summaries and node sets: NULL when
 * they hold, else a static string naming the first broken one (for
 * sgrt_scene_check). O(capacity/32 x entries). */
const char *sgrt__trackers_check(const sgrt_scene *s);

/* Node sets follow their nodes. The core calls:
 *   sgrt__nodesets_forget   for every node it destroys (its slot);
 *   sgrt__nodesets_move     for every node that relocation moves from slot
 *                           `from` to slot `to`, which holds no node then;
 *   sgrt__nodesets_compact  once per compaction, with map[old] = new slot for
 *                           every slot set in s->alive (still the old bits),
 *                           before the new storage is installed. */
void sgrt__nodesets_forget(sgrt_scene *s, uint32_t slot);
void sgrt__nodesets_move(sgrt_scene *s, uint32_t from, uint32_t to);
void sgrt__nodesets_compact(sgrt_scene *s, const uint32_t *map);

static inline uint32_t sgrt__summary_words(uint32_t words) { return (words + 31u) / 32u; }

#endif
