/* SPDX-License-Identifier: MIT */
/* Change trackers: for each consumer, the slots whose content changed since
 * it last collected, as a bitfield with a summary, handed out as merged
 * ranges. */
#include "tracker.h"
#include "slotbits.h"
#include "../alloc.h"
#include "../args.h"
#include <string.h>

sgrt__slotlist *sgrt__trackers_of(const sgrt_scene *s)
{
    return sgrt__follow_state(s, &sgrt__tracker_follower);
}

#define TRACKER(l, i) ((sgrt__tracker *)(l)->items[i])

/* The slots `bits` of word `word` changed content: every tracker of the
 * list `self` records them. */
static void note(sgrt_scene *s, void *self, uint32_t word, uint32_t bits)
{
    (void)s;
    const sgrt__slotlist *l = self;
    if (!bits)
        return;
    const uint32_t sum_bit = 1u << (word & 31u), sum_word = word >> 5;
    for (uint32_t i = 0; i < l->count; i++) {
        sgrt__tracker *t = TRACKER(l, i);
        t->b.bits[word] |= bits;
        t->summary[sum_word] |= sum_bit;
    }
}

/* The same for every word of `changed` (words words). */
static void note_words(sgrt_scene *s, void *self, const uint32_t *changed, uint32_t words)
{
    for (uint32_t w = 0; w < words; w++)
        note(s, self, w, changed[w]);
}

void sgrt__tracker_forget(sgrt__tracker *t, uint32_t word, uint32_t bits)
{
    t->b.bits[word] &= ~bits;
    if (!t->b.bits[word])
        t->summary[word >> 5] &= ~(1u << (word & 31u));
}

static const char *const why_t[3] = SGRT__WHY_OBJECT("t", "tracker");

static uint32_t summary_words(uint32_t words) { return (words + 31u) / 32u; }

static sgrt_result tracker_resize(sgrt_scene *s, sgrt__tracker *t, uint32_t words)
{
    return sgrt__slotbits_resize(s, &t->b, &t->summary, words, summary_words(words),
                                 summary_words(t->b.words));
}

static sgrt_result tracker_sizer(sgrt_scene *s, sgrt__slotbits *b, uint32_t words)
{
    return tracker_resize(s, (sgrt__tracker *)b, words);
}

sgrt_result sgrt_tracker_check(const sgrt_scene *s, sgrt_tracker handle, const char **out_what)
{
    if (out_what)
        *out_what = NULL;
    SGRT__ENTER_WRITE(s);
    sgrt_result err;
    const sgrt__tracker *t =
        sgrt__object_arg(s, handle.id, SGRT__KIND_TRACKER, why_t, __func__, &err);
    if (!t)
        return err;
    const char *what = NULL;
    if (t->b.words < s->st.words)
        what = "trackers and node sets cover the scene's capacity";
    for (uint32_t w = 0; !what && w < (t->b.words + 31u) / 32u * 32u; w++) {
        const bool sum = (t->summary[w >> 5] >> (w & 31u)) & 1u;
        if (sum != (w < t->b.words && t->b.bits[w] != 0))
            what = "tracker summary: bit w set iff word w is non-zero";
    }
    if (out_what)
        *out_what = what;
    return what ? sgrt__fail(s, SGRT_ERR_CORRUPT, __func__, what, SGRT_NULL_NODE) : SGRT_OK;
}

/* ---- public: trackers ------------------------------------------------------ */

sgrt_result sgrt_tracker_create(sgrt_scene *s, sgrt_tracker *out)
{
    SGRT__ENTER_WRITE(s);
    SGRT__NOT_NULL(s, out, SGRT_NULL_NODE);
    sgrt_result err;
    sgrt__tracker *t = (sgrt__tracker *)sgrt__slotlist_create(
        s, sgrt__trackers_of(s), SGRT__KIND_TRACKER, sizeof *t, tracker_sizer, __func__, &err);
    if (!t)
        return err;
    /* A new consumer has seen nothing yet. */
    sgrt__bits_set_range(t->b.bits, 0, s->slot_end);
    sgrt__bits_set_range(t->summary, 0, (s->slot_end + 31u) / 32u);
    out->id = t->b.id;
    return SGRT_OK;
}

sgrt_result sgrt_tracker_destroy(sgrt_scene *s, sgrt_tracker t)
{
    return s ? sgrt__slotlist_destroy_one(s, sgrt__trackers_of(s), t.id, SGRT__KIND_TRACKER,
                                          sizeof(sgrt__tracker), why_t, __func__)
             : SGRT_ERR_INVALID_ARG;
}

sgrt_result sgrt_tracker_collect(const sgrt_scene *s, sgrt_tracker handle, sgrt_range *out,
                                 uint32_t max_ranges, uint32_t merge_gap, uint32_t *out_count,
                                 bool *out_more)
{
    /* A refused call still answers "nothing, no more": a drain loop that
     * ignores the result ends. */
    if (out_count)
        *out_count = 0;
    if (out_more)
        *out_more = false;
    SGRT__ENTER_WRITE(s); /* the tasks write the trackers */
    sgrt_result err;
    sgrt__tracker *t = sgrt__object_arg(s, handle.id, SGRT__KIND_TRACKER, why_t, __func__, &err);
    if (!t)
        return err;
    err = sgrt__collect_outputs(s, out, max_ranges, out_count, out_more, __func__);
    if (err != SGRT_OK)
        return err;
    const uint32_t limit = s->slot_end;
    const uint32_t sum_words = (t->b.words + 31u) / 32u;
    uint32_t n = 0;
    uint32_t end = 0; /* one past out[n - 1] */

    for (uint32_t si = 0; si < sum_words; si++) {
        while (t->summary[si]) {
            const uint32_t w = si * 32u + sgrt__ctz32(t->summary[si]);
            const uint32_t base = w * 32u;
            uint32_t bits = t->b.bits[w];
            /* Slots at or past the slot count were destroyed since: drop them. */
            if (base >= limit)
                bits = 0;
            else if (limit - base < 32u)
                bits &= ~sgrt__mask_from(limit - base);
            bits = sgrt__collect_runs(bits, base, out, max_ranges, merge_gap, &n, &end);
            t->b.bits[w] = bits;
            if (bits) {
                *out_count = n;
                *out_more = true;
                return SGRT_OK;
            }
            t->summary[si] &= ~(1u << (w & 31u));
        }
    }
    *out_count = n;
    return SGRT_OK;
}

/* ---- the follower ------------------------------------------------------------ */

/* Storage grows: every tracker covers the new words (growing some and then
 * failing is harmless: extra words are zero and never reported). */
static sgrt_result reserve(sgrt_scene *s, uint32_t words)
{
    const sgrt__slotlist *l = sgrt__trackers_of(s);
    for (uint32_t i = 0; i < l->count; i++)
        if (TRACKER(l, i)->b.words < words) {
            const sgrt_result r = tracker_resize(s, TRACKER(l, i), words);
            if (r != SGRT_OK)
                return r;
        }
    return SGRT_OK;
}

/* What an update recomputes is what trackers report. */
static void note_word(sgrt_scene *s, void *self, uint32_t w, uint32_t d, uint32_t mask)
{
    (void)mask;
    if (d)
        note(s, self, w, d);
}

static bool has_trackers(const sgrt_scene *s) { return sgrt__trackers_of(s)->count != 0; }

/* A restore: every tracker adds the slots it changed to what it had
 * pending, so that a mirror of the arrays stays exact. */
static void restored(sgrt_scene *s, const uint32_t *changed)
{
    note_words(s, sgrt__trackers_of(s), changed, s->st.words);
}

static void destroy(sgrt_scene *s)
{
    sgrt__slotlist_free(s, sgrt__trackers_of(s), sizeof(sgrt__tracker));
}

/* Pending bits are left to sgrt_tracker_check: a collect may be writing
 * them while this runs (sgrt.h, threads). */
static const char *check(const sgrt_scene *s)
{
    return sgrt__slotlist_check(s, sgrt__trackers_of(s), SGRT__KIND_TRACKER);
}

const sgrt__follower sgrt__tracker_follower = {
    .state_size = sizeof(sgrt__slotlist),
    .reserve = reserve,
    .changed = note,
    .wants_words = has_trackers,
    .word = note_word,
    .restored = restored,
    .destroy = destroy,
    .check = check,
};
