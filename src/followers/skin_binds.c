/* SPDX-License-Identifier: MIT */
/* Inverse binds shared between skins (skin.h): a skin's copy of its inverse
 * binds is a set that every skin made with the same ones shares (the same
 * count, every float the same bits), counted. A crowd of one rig then
 * reads one copy of its binds each frame, which stays in cache, where a
 * copy per skin would stream 64 bytes a joint more; skins with their own
 * binds pay a hash of them at creation. */
#include "skin.h"
#include "../alloc.h"
#include <string.h>

/* The set's header, then its matrices from offset 64 (aligned as the
 * kernels load them). */
struct sgrt__binds {
    struct sgrt__binds *next;
    float (*m)[16]; /* the matrices, at BINDS_AT */
    uint64_t hash;
    size_t size;
    uint32_t count, refs;
    bool affine; /* every matrix's last row is (0, 0, 0, 1) */
};
#define BINDS_AT 64u
_Static_assert(sizeof(struct sgrt__binds) <= BINDS_AT, "a bind set's header fits before its matrices");

/* FNV-1a over the floats' bits: two sets with the same bits hash alike. */
static uint64_t hash_of(const float *b, uint32_t n)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < (size_t)n * 16u; i++) {
        uint32_t u;
        memcpy(&u, &b[i], sizeof u);
        h = (h ^ u) * 0x100000001b3ull;
    }
    return h;
}

const float (*sgrt__binds_matrices(const sgrt__binds *set))[16]
{
    return (const float(*)[16])set->m;
}

bool sgrt__binds_affine(const sgrt__binds *set) { return set->affine; }

sgrt__binds *sgrt__binds_take(sgrt_scene *s, const float *b, uint32_t n, sgrt_result *err)
{
    sgrt__skins *f = sgrt__skins_of(s);
    const uint64_t h = hash_of(b, n);
    for (sgrt__binds *x = f->binds; x; x = x->next)
        if (x->hash == h && x->count == n &&
            memcmp(sgrt__binds_matrices(x), b, (size_t)n * 16u * sizeof(float)) == 0) {
            x->refs++;
            return x;
        }
    const uint64_t size = BINDS_AT + (uint64_t)n * 16u * sizeof(float);
    if (size > SIZE_MAX) {
        *err = SGRT_ERR_NOMEM;
        return NULL;
    }
    sgrt__binds *x = sgrt__alloc(&s->alloc, (size_t)size, 64, err);
    if (!x)
        return NULL;
    memset(x, 0, sizeof *x);
    x->m = (void *)((uint8_t *)x + BINDS_AT);
    memcpy(x->m, b, (size_t)n * 16u * sizeof(float));
    x->hash = h;
    x->size = (size_t)size;
    x->count = n;
    x->refs = 1;
    x->affine = true;
    for (uint32_t j = 0; j < n; j++)
        x->affine = x->affine && sgrt__affine16(b + 16u * j);
    x->next = f->binds;
    f->binds = x;
    return x;
}

void sgrt__binds_drop(sgrt_scene *s, sgrt__binds *set)
{
    sgrt__skins *f = sgrt__skins_of(s);
    if (!set || --set->refs)
        return;
    sgrt__binds **at = &f->binds;
    while (*at != set)
        at = &(*at)->next;
    *at = set->next;
    sgrt__free(&s->alloc, set, set->size);
}

void sgrt__binds_free_all(sgrt_scene *s)
{
    sgrt__skins *f = sgrt__skins_of(s);
    for (sgrt__binds *x = f->binds, *next; x; x = next) {
        next = x->next;
        sgrt__free(&s->alloc, x, x->size);
    }
    f->binds = NULL;
}
