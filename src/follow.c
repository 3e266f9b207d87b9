/* SPDX-License-Identifier: MIT */
/* The seam's dispatch (follow.h): each event to every attached follower
 * that has its hook, in the order they were attached. */
#include "follow.h"

#define EACH(hook, ...)                                                                \
    for (uint32_t i_ = 0; i_ < s->follow_count; i_++)                                  \
        if (s->follow[i_]->hook)                                                       \
    s->follow[i_]->hook(__VA_ARGS__)

void sgrt__follow_attach(sgrt_scene *s, const sgrt__follower *const *list)
{
    for (; *list; list++) {
        const sgrt__follower *f = *list;
        if ((f->flags & s->flags) != f->flags || s->follow_count == SGRT__FOLLOWERS)
            continue;
        s->follow[s->follow_count++] = f;
        if (f->changed)
            s->on_changed[s->on_changed_count++] = f->changed;
        if (f->word)
            s->on_word[s->on_word_count++] = f->word;
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
void sgrt__follow_rooted(sgrt_scene *s, uint32_t slot) { EACH(rooted, s, slot); }
void sgrt__follow_vacated(sgrt_scene *s, uint32_t slot) { EACH(vacated, s, slot); }
void sgrt__follow_moved(sgrt_scene *s, uint32_t from, uint32_t to) { EACH(moved, s, from, to); }
void sgrt__follow_renumber(sgrt_scene *s, const uint32_t *map) { EACH(renumber, s, map); }
void sgrt__follow_start(sgrt_scene *s, const char *function) { EACH(start, s, function); }
void sgrt__follow_finish(sgrt_scene *s) { EACH(finish, s); }
void sgrt__follow_destroy(sgrt_scene *s) { EACH(destroy, s); }

void sgrt__follow_slots_moved(sgrt_scene *s, bool renumbered, bool reordered)
{
    EACH(slots_moved, s, renumbered, reordered);
}

void sgrt__follow_view(const sgrt_scene *s, sgrt__update_view *v, sgrt__bounds_view *space)
{
    EACH(view, s, v, space);
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
            words |= s->follow[i]->words(s, sw);
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
