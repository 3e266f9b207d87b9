/* Change trackers and the registry of slot bitfields (trackers and node sets)
 * that follow the scene's storage. */
#include "handoff.h"
#include <string.h>

/* ---- registry -------------------------------------------------------------- */

static uint32_t aux_words(uint32_t kind, uint32_t words)
{
    return kind == SGRT__BITS_TRACKER ? sgrt__summary_words(words) : words;
}

/* Give e zeroed storage for `words` words, keeping the first e->words words
 * of its bits (and of its summary for a tracker). */
static sgrt_result bits_resize(sgrt_scene *s, struct sgrt_tracker *e, uint32_t words)
{
    const uint32_t aw = aux_words(e->kind, words);
    const size_t size = ((size_t)words + aw) * 4u;
    uint32_t *block = sgrt__alloc(&s->alloc, size ? size : 4u, 64);
    if (!block)
        return SGRT_ERR_NOMEM;
    memset(block, 0, size);
    uint32_t *aux = block + words;
    if (e->bits) {
        memcpy(block, e->bits, (size_t)e->words * 4u);
        if (e->kind == SGRT__BITS_TRACKER)
            memcpy(aux, e->aux, (size_t)sgrt__summary_words(e->words) * 4u);
        sgrt__free(&s->alloc, e->block, e->block_size);
    }
    e->block = block;
    e->bits = block;
    e->aux = aux;
    e->words = words;
    e->block_size = size ? size : 4u;
    return SGRT_OK;
}

uint32_t sgrt__first_nodeset(const sgrt_scene *s)
{
    uint32_t i = 0;
    while (i < s->tracker_count && s->trackers[i]->kind == SGRT__BITS_TRACKER)
        i++;
    return i;
}

sgrt_result sgrt__bits_register(sgrt_scene *s, struct sgrt_tracker *e)
{
    if (s->tracker_count == s->tracker_cap) {
        const uint32_t cap = s->tracker_cap ? s->tracker_cap * 2u : 4u;
        struct sgrt_tracker **list = sgrt__alloc(&s->alloc, (size_t)cap * sizeof *list, 16);
        if (!list)
            return SGRT_ERR_NOMEM;
        if (s->tracker_count)
            memcpy(list, s->trackers, (size_t)s->tracker_count * sizeof *list);
        sgrt__free(&s->alloc, s->trackers, (size_t)s->tracker_cap * sizeof *list);
        s->trackers = list;
        s->tracker_cap = cap;
    }
    e->block = NULL;
    e->bits = NULL;
    e->aux = NULL;
    e->words = 0;
    const sgrt_result r = bits_resize(s, e, s->words);
    if (r != SGRT_OK)
        return r;
    /* Trackers first: the first node set moves to the end to make room. */
    uint32_t at = s->tracker_count;
    if (e->kind == SGRT__BITS_TRACKER) {
        at = sgrt__first_nodeset(s);
        if (at < s->tracker_count)
            s->trackers[s->tracker_count] = s->trackers[at];
    }
    s->trackers[at] = e;
    s->tracker_count++;
    return SGRT_OK;
}

void sgrt__bits_unregister(sgrt_scene *s, struct sgrt_tracker *e)
{
    uint32_t i = 0;
    while (i < s->tracker_count && s->trackers[i] != e)
        i++;
    if (i == s->tracker_count)
        return;
    const uint32_t last = s->tracker_count - 1u;
    if (e->kind == SGRT__BITS_TRACKER) {
        /* Fill the hole with the last tracker, and its place with the last entry. */
        const uint32_t last_tracker = sgrt__first_nodeset(s) - 1u;
        s->trackers[i] = s->trackers[last_tracker];
        s->trackers[last_tracker] = s->trackers[last];
    } else {
        s->trackers[i] = s->trackers[last];
    }
    s->tracker_count = last;
    sgrt__free(&s->alloc, e->block, e->block_size);
    e->block = NULL;
    e->bits = NULL;
    e->aux = NULL;
}

/* ---- hooks called by the core ---------------------------------------------- */

void sgrt__note_changed(sgrt_scene *s, uint32_t word, uint32_t bits)
{
    if (!bits)
        return;
    const uint32_t sum_bit = 1u << (word & 31u), sum_word = word >> 5;
    for (uint32_t i = 0; i < s->tracker_count; i++) {
        struct sgrt_tracker *t = s->trackers[i];
        if (t->kind != SGRT__BITS_TRACKER)
            break;
        t->bits[word] |= bits;
        t->aux[sum_word] |= sum_bit;
    }
}

sgrt_result sgrt__trackers_reserve(sgrt_scene *s, uint32_t new_words)
{
    /* Growing some entries and then failing is harmless: extra words are
     * zero and never reported, so the scene can stay as it was. */
    for (uint32_t i = 0; i < s->tracker_count; i++) {
        struct sgrt_tracker *e = s->trackers[i];
        if (e->words < new_words) {
            const sgrt_result r = bits_resize(s, e, new_words);
            if (r != SGRT_OK)
                return r;
        }
    }
    return SGRT_OK;
}

void sgrt__trackers_destroy_all(sgrt_scene *s)
{
    for (uint32_t i = 0; i < s->tracker_count; i++) {
        struct sgrt_tracker *e = s->trackers[i];
        sgrt__free(&s->alloc, e->block, e->block_size);
        sgrt__free(&s->alloc, e,
                   e->kind == SGRT__BITS_TRACKER ? sizeof *e : sizeof(struct sgrt_nodeset));
    }
    sgrt__free(&s->alloc, s->trackers, (size_t)s->tracker_cap * sizeof *s->trackers);
    s->trackers = NULL;
    s->tracker_count = 0;
    s->tracker_cap = 0;
}

const char *sgrt__trackers_check(const sgrt_scene *s)
{
    bool in_sets = false;
    for (uint32_t i = 0; i < s->tracker_count; i++) {
        const struct sgrt_tracker *e = s->trackers[i];
        if (e->scene != s || (e->kind != SGRT__BITS_TRACKER && e->kind != SGRT__BITS_NODESET))
            return "tracker registry: every entry is a tracker or node set of this scene";
        if (e->kind == SGRT__BITS_NODESET)
            in_sets = true;
        else if (in_sets)
            return "tracker registry: trackers before node sets";
        if (e->words < s->words)
            return "trackers and node sets cover the scene's capacity";
        if (e->kind == SGRT__BITS_TRACKER) {
            for (uint32_t w = 0; w < sgrt__summary_words(e->words) * 32u; w++) {
                const bool sum = (e->aux[w >> 5] >> (w & 31u)) & 1u;
                if (sum != (w < e->words && e->bits[w] != 0))
                    return "tracker summary: bit w set iff word w is non-zero";
            }
        } else {
            for (uint32_t w = 0; w < e->words; w++)
                if (e->bits[w] & ~(w < s->words ? s->alive[w] : 0u))
                    return "node sets hold live nodes only";
        }
    }
    return NULL;
}

/* ---- public: trackers ------------------------------------------------------ */

sgrt_result sgrt_tracker_create(sgrt_scene *s, sgrt_tracker **out)
{
    if (!s || !out)
        return SGRT_ERR_INVALID_ARG;
    struct sgrt_tracker *t = sgrt__alloc(&s->alloc, sizeof *t, 16);
    if (!t)
        return SGRT_ERR_NOMEM;
    memset(t, 0, sizeof *t);
    t->scene = s;
    t->kind = SGRT__BITS_TRACKER;
    const sgrt_result r = sgrt__bits_register(s, t);
    if (r != SGRT_OK) {
        sgrt__free(&s->alloc, t, sizeof *t);
        return r;
    }
    /* A new consumer has seen nothing yet. */
    sgrt__bits_set_range(t->bits, 0, s->slot_end);
    const uint32_t used_words = (s->slot_end + 31u) / 32u;
    sgrt__bits_set_range(t->aux, 0, used_words);
    *out = t;
    return SGRT_OK;
}

void sgrt_tracker_destroy(sgrt_scene *s, sgrt_tracker *t)
{
    if (!s || !t || t->scene != s || t->kind != SGRT__BITS_TRACKER)
        return;
    sgrt__bits_unregister(s, t);
    sgrt__free(&s->alloc, t, sizeof *t);
}

uint32_t sgrt_tracker_collect(sgrt_scene *s, sgrt_tracker *t, sgrt_range *out,
                              uint32_t max_ranges, uint32_t merge_gap)
{
    if (!s || !t || t->scene != s || t->kind != SGRT__BITS_TRACKER || (max_ranges && !out))
        return 0;
    if (max_ranges == UINT32_MAX)
        max_ranges = UINT32_MAX - 1u;
    const uint32_t limit = s->slot_end;
    const uint32_t sum_words = sgrt__summary_words(t->words);
    uint32_t n = 0;
    uint32_t end = 0; /* one past out[n - 1] */

    for (uint32_t si = 0; si < sum_words; si++) {
        while (t->aux[si]) {
            const uint32_t w = si * 32u + sgrt__ctz32(t->aux[si]);
            const uint32_t base = w * 32u;
            uint32_t bits = t->bits[w];
            /* Slots at or past the slot count were destroyed since: drop them. */
            if (base >= limit)
                bits = 0;
            else if (limit - base < 32u)
                bits &= ~sgrt__mask_from(limit - base);
            t->bits[w] = bits;
            while (bits) {
                const uint32_t lo = sgrt__ctz32(bits);
                const uint32_t above = ~bits & sgrt__mask_from(lo);
                const uint32_t hi = above ? sgrt__ctz32(above) : 32u;
                const uint32_t first = base + lo;
                if (n && first - end <= merge_gap) {
                    out[n - 1].count = base + hi - out[n - 1].first;
                } else {
                    if (n == max_ranges)
                        return max_ranges + 1u; /* the rest stays pending */
                    out[n].first = first;
                    out[n].count = hi - lo;
                    n++;
                }
                end = base + hi;
                const uint32_t run = sgrt__mask_from(lo) & ~sgrt__mask_from(hi);
                bits &= ~run;
                t->bits[w] = bits;
            }
            t->aux[si] &= ~(1u << (w & 31u));
        }
    }
    return n;
}
