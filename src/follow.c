/* SPDX-License-Identifier: MIT */
/* The seam's dispatch (follow.h): each event to every attached follower
 * that has its hook, in the order they were attached. */
#include "follow.h"
#include <string.h>

#define EACH(hook, ...)                                                                \
    for (uint32_t i_ = 0; i_ < s->follow_count; i_++)                                  \
        if (s->follow[i_]->hook)                                                       \
    s->follow[i_]->hook(__VA_ARGS__)

static size_t state_round(size_t n) { return (n + 63u) & ~(size_t)63u; }

static bool attaches(const sgrt__follower *f, uint32_t flags)
{
    return (f->flags & flags) == f->flags;
}

size_t sgrt__follow_state_bytes(const sgrt__follower *const *list, uint32_t flags)
{
    size_t n = 0;
    for (uint32_t i = 0; list[i] && i < SGRT__FOLLOWERS; i++)
        if (attaches(list[i], flags))
            n += state_round(list[i]->state_size);
    return n;
}

void sgrt__follow_attach(sgrt_scene *s, const sgrt__follower *const *list)
{
    uint8_t *at = (uint8_t *)s + state_round(sizeof *s);
    for (; *list; list++) {
        const sgrt__follower *f = *list;
        if (!attaches(f, s->flags) || s->follow_count == SGRT__FOLLOWERS)
            continue;
        void *self = f->state_size ? at : NULL;
        at += state_round(f->state_size);
        s->state[s->follow_count] = self;
        s->follow[s->follow_count++] = f;
        for (uint32_t k = 0; k < f->slot_count && s->decl_count < SGRT__FOLLOW_SLOTS; k++) {
            if ((f->slots[k].flags & s->flags) != f->slots[k].flags)
                continue;
            s->decl[s->decl_count] = &f->slots[k];
            s->decl_state[s->decl_count++] = self;
        }
        if (f->changed) {
            s->on_changed_self[s->on_changed_count] = self;
            s->on_changed[s->on_changed_count++] = f->changed;
        }
        if (f->word) {
            s->on_word_self[s->on_word_count] = self;
            s->on_word[s->on_word_count++] = f->word;
        }
        if (f->after) {
            s->on_after_self[s->on_after_count] = self;
            s->on_after[s->on_after_count++] = f->after;
        }
    }
}

void sgrt__follow_publish(sgrt_scene *s)
{
    for (uint32_t k = 0; k < s->decl_count; k++) {
        const sgrt__slot_decl *d = s->decl[k];
        uint8_t *self = s->decl_state[k];
        memcpy(self + d->at, &s->st.fol[k], sizeof(void *));
        if (d->kind == SGRT__DECL_BITS)
            memcpy(self + d->sum_at, &s->st.fol_sum[k], sizeof(uint32_t *));
    }
}

sgrt_result sgrt__follow_reserve(sgrt_scene *s, uint32_t words)
{
    for (uint32_t i = 0; i < s->follow_count; i++)
        if (s->follow[i]->reserve) {
            const sgrt_result r = s->follow[i]->reserve(s, words);
            if (r != SGRT_OK)
                return r;
        }
    return SGRT_OK;
}

void sgrt__follow_created(sgrt_scene *s, uint32_t slot) { EACH(created, s, slot); }
void sgrt__follow_unlinked(sgrt_scene *s, uint32_t slot) { EACH(unlinked, s, slot); }
void sgrt__follow_linked(sgrt_scene *s, uint32_t slot) { EACH(linked, s, slot); }
void sgrt__follow_reparented(sgrt_scene *s, uint32_t slot, bool keep_world)
{
    EACH(reparented, s, slot, keep_world);
}
void sgrt__follow_rooted(sgrt_scene *s, uint32_t slot) { EACH(rooted, s, slot); }
void sgrt__follow_vacated(sgrt_scene *s, uint32_t slot) { EACH(vacated, s, slot); }
void sgrt__follow_moved(sgrt_scene *s, const sgrt__moves *m) { EACH(moved, s, m); }
void sgrt__follow_origin(sgrt_scene *s, const double origin[3]) { EACH(origin, s, origin); }
void sgrt__follow_restored(sgrt_scene *s, const uint32_t *changed) { EACH(restored, s, changed); }
void sgrt__follow_start(sgrt_scene *s, const char *function) { EACH(start, s, function); }
void sgrt__follow_finish(sgrt_scene *s) { EACH(finish, s); }
void sgrt__follow_destroy(sgrt_scene *s) { EACH(destroy, s); }

void sgrt__follow_view(const sgrt_scene *s, sgrt__update_view *v) { EACH(view, s, v); }

/* The kernels' after hook when several followers have one: each, in
 * attach order. */
static void after_word(void *ctx, uint32_t w, uint32_t done)
{
    const sgrt_scene *s = ctx;
    for (uint32_t i = 0; i < s->on_after_count; i++)
        s->on_after[i](s->on_after_self[i], w, done);
}

static void after_of(sgrt_scene *s, sgrt__update_view *v)
{
    uint32_t active = 0;
    v->after = NULL;
    for (uint32_t i = 0; i < s->follow_count; i++) {
        const sgrt__follower *f = s->follow[i];
        if (f->after && (!f->wants_after || f->wants_after(s)) && active++ == 0) {
            /* Alone: the kernels call it directly, one indirect call a word. */
            v->after = f->after;
            v->after_ctx = s->state[i];
        }
    }
    if (active > 1u) {
        v->after = after_word;
        v->after_ctx = s;
    }
}

bool sgrt__follow_has_word_work(const sgrt_scene *s)
{
    for (uint32_t i = 0; i < s->follow_count; i++) {
        const sgrt__follower *f = s->follow[i];
        if (f->word && (!f->wants_words || f->wants_words(s)))
            return true;
    }
    return false;
}

uint32_t sgrt__follow_words(const sgrt_scene *s, uint32_t sw)
{
    uint32_t words = s->st.dirty_sum[sw];
    for (uint32_t i = 0; i < s->follow_count; i++)
        if (s->follow[i]->words)
            words |= s->follow[i]->words(s, s->state[i], sw);
    return words;
}

bool sgrt__follow_pending(const sgrt_scene *s)
{
    for (uint32_t i = 0; i < s->follow_count; i++)
        if (s->follow[i]->pending && s->follow[i]->pending(s))
            return true;
    return false;
}

const char *sgrt__follow_check(const sgrt_scene *s)
{
    for (uint32_t i = 0; i < s->follow_count; i++)
        if (s->follow[i]->check) {
            const char *why = s->follow[i]->check(s);
            if (why)
                return why;
        }
    return NULL;
}

const char *sgrt__follow_snapshot_check(const sgrt_scene *s, const struct sgrt__snapview *v)
{
    for (uint32_t i = 0; i < s->follow_count; i++)
        if (s->follow[i]->snapshot_check) {
            const char *why = s->follow[i]->snapshot_check(s, v);
            if (why)
                return why;
        }
    return NULL;
}

void sgrt__update_view_of(sgrt_scene *s, uint32_t *bits, uint32_t *sum, uint32_t sum_first,
                          uint32_t sum_end, uint32_t *repaired, sgrt__update_view *v)
{
    const sgrt__update_view view = {
        s->st.local, s->st.world, s->st.parent, bits, sum, sum_first, sum_end, NULL, repaired,
        NULL, NULL, NULL, /* the followers fill what they keep (anchors, the after hook) */
    };
    *v = view;
    sgrt__follow_view(s, v);
    after_of(s, v);
}

void sgrt__follow_prepare(sgrt_scene *s, sgrt__update_view *v)
{
    if (sgrt__follow_has_word_work(s))
        for (uint32_t sw = 0; sw < s->st.sum_words; sw++) {
            uint32_t words = sgrt__follow_words(s, sw);
            SGRT__FOR_EACH_IN_WORD(sw, words, w, sgrt__follow_word(s, w, s->st.dirty[w], ~0u);)
        }
    sgrt__update_view_of(s, s->st.dirty, s->st.dirty_sum, 0, s->st.sum_words, s->repaired, v);
}
