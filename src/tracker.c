#include "internal.h"

void sgrt__note_changed(sgrt_scene *s, uint32_t word, uint32_t bits)
{
    (void)s;
    (void)word;
    (void)bits;
}

sgrt_result sgrt__trackers_reserve(sgrt_scene *s, uint32_t new_words)
{
    (void)s;
    (void)new_words;
    return SGRT_OK;
}

void sgrt__trackers_destroy_all(sgrt_scene *s) { (void)s; }
