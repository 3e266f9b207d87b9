/* SPDX-License-Identifier: MIT */
/* Reference model of an sgrt scene: see refmodel.h. Plain C, no cleverness:
 * its value is in being obviously right. */
#include "refmodel.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NONE 0xFFFFFFFFu
#define SENTINEL 0u /* model slot 0: the parent of every root */

typedef struct ref_node {
    uint32_t id;
    uint32_t parent, first_child, next_sibling, prev_sibling; /* model slots */
    uint32_t dense;   /* position in m->live */
    uint32_t depth;   /* as of the last update */
    bool used, marked;
    float local[16];
    double world[16]; /* as of the last update */
    double absw[16];  /* A of refmodel.h, as of the last update */
} ref_node;

struct ref_model {
    ref_node *nodes;
    uint32_t cap, used;   /* slots allocated / ever used */
    uint32_t *free_slots; /* stack of reusable slots */
    uint32_t free_count;
    uint32_t *live;       /* live ids, dense */
    uint32_t live_count;
    /* id -> slot, open addressing with linear probing; key 0 = empty */
    uint32_t *map_key, *map_val;
    uint32_t map_cap; /* power of two */
    uint32_t *stack;  /* traversal scratch, cap entries x 2 */
};

static void die(const char *what, uint32_t id)
{
    fprintf(stderr, "refmodel: %s (id 0x%08x)\n", what, (unsigned)id);
    abort();
}

static void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q) {
        fprintf(stderr, "refmodel: out of memory\n");
        abort();
    }
    return q;
}

static uint32_t hash_id(uint32_t id, uint32_t mask)
{
    return (uint32_t)(id * 2654435761u) & mask;
}

static uint32_t map_find(const ref_model *m, uint32_t id)
{
    uint32_t mask = m->map_cap - 1u;
    for (uint32_t i = hash_id(id, mask);; i = (i + 1u) & mask) {
        if (m->map_key[i] == id)
            return m->map_val[i];
        if (m->map_key[i] == 0u)
            return NONE;
    }
}

static void map_put_raw(ref_model *m, uint32_t id, uint32_t slot)
{
    uint32_t mask = m->map_cap - 1u;
    uint32_t i = hash_id(id, mask);
    while (m->map_key[i] != 0u)
        i = (i + 1u) & mask;
    m->map_key[i] = id;
    m->map_val[i] = slot;
}

static void map_put(ref_model *m, uint32_t id, uint32_t slot)
{
    if ((m->live_count + 1u) * 2u > m->map_cap) {
        uint32_t old_cap = m->map_cap;
        uint32_t *ok = m->map_key, *ov = m->map_val;
        m->map_cap = old_cap ? old_cap * 2u : 64u;
        m->map_key = calloc(m->map_cap, sizeof *m->map_key);
        m->map_val = calloc(m->map_cap, sizeof *m->map_val);
        if (!m->map_key || !m->map_val)
            die("out of memory", id);
        for (uint32_t i = 0; i < old_cap; i++)
            if (ok[i] != 0u)
                map_put_raw(m, ok[i], ov[i]);
        free(ok);
        free(ov);
    }
    map_put_raw(m, id, slot);
}

/* Backward-shift deletion keeps probe chains intact without tombstones. */
static void map_del(ref_model *m, uint32_t id)
{
    uint32_t mask = m->map_cap - 1u;
    uint32_t i = hash_id(id, mask);
    while (m->map_key[i] != id) {
        if (m->map_key[i] == 0u)
            die("map_del: unknown id", id);
        i = (i + 1u) & mask;
    }
    for (uint32_t j = (i + 1u) & mask;; j = (j + 1u) & mask) {
        if (m->map_key[j] == 0u)
            break;
        uint32_t home = hash_id(m->map_key[j], mask);
        /* Move j into the hole at i unless its home lies cyclically in (i, j]. */
        bool stays = (i <= j) ? (home > i && home <= j) : (home > i || home <= j);
        if (!stays) {
            m->map_key[i] = m->map_key[j];
            m->map_val[i] = m->map_val[j];
            i = j;
        }
    }
    m->map_key[i] = 0u;
}

static uint32_t model_slot(const ref_model *m, uint32_t id)
{
    if (id == 0u)
        die("id 0 is not a node", id);
    uint32_t s = map_find(m, id);
    if (s == NONE)
        die("unknown id", id);
    return s;
}

static void set_identity_d(double *o)
{
    for (int i = 0; i < 16; i++)
        o[i] = (i % 5 == 0) ? 1.0 : 0.0;
}

void ref_mul_d(const double *a, const double *b, double *out)
{
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++) {
            double s = 0.0;
            for (int k = 0; k < 4; k++)
                s += a[k * 4 + r] * b[c * 4 + k];
            out[c * 4 + r] = s;
        }
}

bool ref_inverse_d(const double m[16], double inv[16])
{
    double a[4][8];
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++) {
            a[r][c] = m[4 * c + r];
            a[r][4 + c] = r == c;
        }
    for (int c = 0; c < 4; c++) {
        int p = c;
        for (int r = c + 1; r < 4; r++)
            if (fabs(a[r][c]) > fabs(a[p][c]))
                p = r;
        if (a[p][c] == 0.0)
            return false;
        for (int k = 0; k < 8; k++) {
            const double t = a[c][k];
            a[c][k] = a[p][k];
            a[p][k] = t;
        }
        const double d = a[c][c];
        for (int k = 0; k < 8; k++)
            a[c][k] /= d;
        for (int r = 0; r < 4; r++)
            if (r != c) {
                const double f = a[r][c];
                for (int k = 0; k < 8; k++)
                    a[r][k] -= f * a[c][k];
            }
    }
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++)
            inv[4 * c + r] = a[r][4 + c];
    return true;
}

static void to_d(const float *f, double *d, bool absolute)
{
    for (int i = 0; i < 16; i++)
        d[i] = absolute ? fabs((double)f[i]) : (double)f[i];
}

ref_model *ref_model_create(void)
{
    ref_model *m = calloc(1, sizeof *m);
    if (!m)
        die("out of memory", 0);
    m->cap = 64;
    m->nodes = xrealloc(NULL, m->cap * sizeof *m->nodes);
    m->free_slots = xrealloc(NULL, m->cap * sizeof *m->free_slots);
    m->live = xrealloc(NULL, m->cap * sizeof *m->live);
    m->stack = xrealloc(NULL, 2u * m->cap * sizeof *m->stack);
    map_put(m, 0xFFFFFFFFu, 0); /* allocate the table, then drop the dummy */
    map_del(m, 0xFFFFFFFFu);

    ref_node *z = &m->nodes[SENTINEL];
    memset(z, 0, sizeof *z);
    z->used = true;
    z->parent = z->next_sibling = z->prev_sibling = z->first_child = NONE;
    set_identity_d(z->world);
    set_identity_d(z->absw);
    m->used = 1;
    return m;
}

void ref_model_destroy(ref_model *m)
{
    if (!m)
        return;
    free(m->nodes);
    free(m->free_slots);
    free(m->live);
    free(m->map_key);
    free(m->map_val);
    free(m->stack);
    free(m);
}

static void link_child(ref_model *m, uint32_t p, uint32_t c)
{
    ref_node *pn = &m->nodes[p], *cn = &m->nodes[c];
    cn->parent = p;
    cn->prev_sibling = NONE;
    cn->next_sibling = pn->first_child;
    if (pn->first_child != NONE)
        m->nodes[pn->first_child].prev_sibling = c;
    pn->first_child = c;
}

static void unlink_child(ref_model *m, uint32_t c)
{
    ref_node *cn = &m->nodes[c];
    if (cn->prev_sibling != NONE)
        m->nodes[cn->prev_sibling].next_sibling = cn->next_sibling;
    else
        m->nodes[cn->parent].first_child = cn->next_sibling;
    if (cn->next_sibling != NONE)
        m->nodes[cn->next_sibling].prev_sibling = cn->prev_sibling;
    cn->parent = cn->next_sibling = cn->prev_sibling = NONE;
}

static uint32_t parent_slot(const ref_model *m, uint32_t parent_id)
{
    return parent_id == 0u ? SENTINEL : model_slot(m, parent_id);
}

void ref_model_add(ref_model *m, uint32_t id, uint32_t parent_id)
{
    if (id == 0u || map_find(m, id) != NONE)
        die("ref_model_add: id 0 or already live", id);
    uint32_t p = parent_slot(m, parent_id);
    uint32_t s;
    if (m->free_count) {
        s = m->free_slots[--m->free_count];
    } else {
        if (m->used == m->cap) {
            m->cap *= 2u;
            m->nodes = xrealloc(m->nodes, m->cap * sizeof *m->nodes);
            m->free_slots = xrealloc(m->free_slots, m->cap * sizeof *m->free_slots);
            m->live = xrealloc(m->live, m->cap * sizeof *m->live);
            m->stack = xrealloc(m->stack, 2u * m->cap * sizeof *m->stack);
        }
        s = m->used++;
    }
    ref_node *n = &m->nodes[s];
    memset(n, 0, sizeof *n);
    n->id = id;
    n->used = true;
    n->marked = true;
    n->first_child = NONE;
    for (int i = 0; i < 16; i++)
        n->local[i] = (i % 5 == 0) ? 1.0f : 0.0f;
    /* Not meaningful before an update; keep it defined. */
    set_identity_d(n->world);
    set_identity_d(n->absw);
    link_child(m, p, s);
    n->dense = m->live_count;
    m->live[m->live_count++] = id;
    map_put(m, id, s);
}

uint32_t ref_model_subtree_size(const ref_model *m, uint32_t id)
{
    uint32_t root = model_slot(m, id);
    uint32_t sp = 0, count = 0;
    m->stack[sp++] = root;
    while (sp) {
        uint32_t s = m->stack[--sp];
        count++;
        for (uint32_t c = m->nodes[s].first_child; c != NONE; c = m->nodes[c].next_sibling)
            m->stack[sp++] = c;
    }
    return count;
}

uint32_t ref_model_remove(ref_model *m, uint32_t id, uint32_t *removed)
{
    uint32_t root = model_slot(m, id);
    unlink_child(m, root);
    uint32_t sp = 0, count = 0;
    m->stack[sp++] = root;
    while (sp) {
        uint32_t s = m->stack[--sp];
        ref_node *n = &m->nodes[s];
        for (uint32_t c = n->first_child; c != NONE; c = m->nodes[c].next_sibling)
            m->stack[sp++] = c;
        if (removed)
            removed[count] = n->id;
        count++;
        /* swap-remove from the dense list */
        uint32_t last_id = m->live[--m->live_count];
        if (last_id != n->id) {
            m->live[n->dense] = last_id;
            m->nodes[map_find(m, last_id)].dense = n->dense;
        }
        map_del(m, n->id);
        n->used = false;
        n->id = 0;
        m->free_slots[m->free_count++] = s;
    }
    return count;
}

bool ref_model_alive(const ref_model *m, uint32_t id)
{
    return id != 0u && map_find(m, id) != NONE;
}

uint32_t ref_model_count(const ref_model *m) { return m->live_count; }

uint32_t ref_model_nth(const ref_model *m, uint32_t k)
{
    if (k >= m->live_count)
        die("ref_model_nth: k out of range", k);
    return m->live[k];
}

uint32_t ref_model_parent(const ref_model *m, uint32_t id)
{
    uint32_t p = m->nodes[model_slot(m, id)].parent;
    return p == SENTINEL ? 0u : m->nodes[p].id;
}

uint32_t ref_model_depth(const ref_model *m, uint32_t id)
{
    uint32_t d = 0;
    for (uint32_t s = m->nodes[model_slot(m, id)].parent; s != SENTINEL; s = m->nodes[s].parent)
        d++;
    return d;
}

bool ref_model_depth_at_most(const ref_model *m, uint32_t id, uint32_t limit)
{
    uint32_t d = 0;
    for (uint32_t s = m->nodes[model_slot(m, id)].parent; s != SENTINEL; s = m->nodes[s].parent)
        if (++d > limit)
            return false;
    return true;
}

uint32_t ref_model_child_count(const ref_model *m, uint32_t id)
{
    uint32_t n = 0;
    for (uint32_t c = m->nodes[model_slot(m, id)].first_child; c != NONE;
         c = m->nodes[c].next_sibling)
        n++;
    return n;
}

uint32_t ref_model_children(const ref_model *m, uint32_t id, uint32_t *out)
{
    uint32_t n = 0;
    for (uint32_t c = m->nodes[model_slot(m, id)].first_child; c != NONE;
         c = m->nodes[c].next_sibling)
        out[n++] = m->nodes[c].id;
    return n;
}

bool ref_model_is_ancestor_or_self(const ref_model *m, uint32_t anc, uint32_t id)
{
    uint32_t a = model_slot(m, anc);
    for (uint32_t s = model_slot(m, id); s != SENTINEL; s = m->nodes[s].parent)
        if (s == a)
            return true;
    return false;
}

bool ref_model_set_local(ref_model *m, uint32_t id, const float local[16])
{
    ref_node *n = &m->nodes[model_slot(m, id)];
    if (memcmp(n->local, local, sizeof n->local) == 0)
        return false;
    memcpy(n->local, local, sizeof n->local);
    n->marked = true;
    return true;
}

void ref_model_commit_local(ref_model *m, uint32_t id, const float local[16])
{
    ref_node *n = &m->nodes[model_slot(m, id)];
    memcpy(n->local, local, sizeof n->local);
    n->marked = true;
}

void ref_model_local(const ref_model *m, uint32_t id, float out[16])
{
    memcpy(out, m->nodes[model_slot(m, id)].local, sizeof(float) * 16);
}

void ref_model_set_parent(ref_model *m, uint32_t id, uint32_t parent_id)
{
    uint32_t s = model_slot(m, id);
    uint32_t p = parent_slot(m, parent_id);
    if (p != SENTINEL && ref_model_is_ancestor_or_self(m, id, parent_id))
        die("ref_model_set_parent: would make a cycle", id);
    if (m->nodes[s].parent == p)
        return;
    unlink_child(m, s);
    link_child(m, p, s);
    m->nodes[s].marked = true;
}

/* World, |local| product and depth of slot s right now, from the root down. */
static void now_of_slot(const ref_model *m, uint32_t s, double *w, double *a, uint32_t *depth)
{
    uint32_t chain[64];
    uint32_t *path = chain;
    uint32_t len = 0;
    for (uint32_t t = s; t != SENTINEL; t = m->nodes[t].parent)
        len++;
    if (len > 64u) {
        path = malloc(len * sizeof *path);
        if (!path)
            die("out of memory", 0);
    }
    uint32_t i = len;
    for (uint32_t t = s; t != SENTINEL; t = m->nodes[t].parent)
        path[--i] = t;
    set_identity_d(w);
    set_identity_d(a);
    for (i = 0; i < len; i++) {
        double l[16], la[16], tmp[16];
        to_d(m->nodes[path[i]].local, l, false);
        to_d(m->nodes[path[i]].local, la, true);
        /* identity x local is exact in double, so roots need no special case */
        ref_mul_d(w, l, tmp);
        memcpy(w, tmp, sizeof tmp);
        ref_mul_d(a, la, tmp);
        memcpy(a, tmp, sizeof tmp);
    }
    if (path != chain)
        free(path);
    *depth = len ? len - 1u : 0u;
}

double ref_model_set_parent_keep_world(ref_model *m, uint32_t id, uint32_t parent_id,
                                       const float new_local[16])
{
    uint32_t s = model_slot(m, id);
    double w_old[16], a_old[16], w_new[16], a_new[16];
    uint32_t d_old, d_new;
    now_of_slot(m, s, w_old, a_old, &d_old);
    ref_model_set_parent(m, id, parent_id);
    memcpy(m->nodes[s].local, new_local, sizeof m->nodes[s].local);
    now_of_slot(m, s, w_new, a_new, &d_new);
    double worst = 0.0;
    for (int i = 0; i < 16; i++) {
        double allow = 2.0 * REF_U * (4.0 * d_new * a_new[i] + (4.0 * d_old + 1.0) * a_old[i]);
        double err = fabs(w_new[i] - w_old[i]);
        double r = err == 0.0 ? 0.0 : (allow > 0.0 ? err / allow : INFINITY);
        if (!(r <= worst)) /* also catches NaN */
            worst = r;
    }
    return worst;
}

/* Walk the tree from the sentinel, carrying "an ancestor is marked". When
 * `apply`, recompute worlds of dirty nodes and clear marks. */
static uint32_t walk_dirty(ref_model *m, bool apply)
{
    uint32_t sp = 0, count = 0;
    for (uint32_t c = m->nodes[SENTINEL].first_child; c != NONE; c = m->nodes[c].next_sibling) {
        m->stack[sp++] = c;
        m->stack[sp++] = 0u;
    }
    while (sp) {
        uint32_t inherited = m->stack[--sp];
        uint32_t s = m->stack[--sp];
        ref_node *n = &m->nodes[s];
        bool dirty = inherited || n->marked;
        if (dirty) {
            count++;
            if (apply) {
                const ref_node *p = &m->nodes[n->parent];
                double l[16], la[16];
                to_d(n->local, l, false);
                to_d(n->local, la, true);
                ref_mul_d(p->world, l, n->world);
                ref_mul_d(p->absw, la, n->absw);
                n->depth = n->parent == SENTINEL ? 0u : p->depth + 1u;
                n->marked = false;
            }
        }
        for (uint32_t c = n->first_child; c != NONE; c = m->nodes[c].next_sibling) {
            m->stack[sp++] = c;
            m->stack[sp++] = dirty ? 1u : 0u;
        }
    }
    return count;
}

uint32_t ref_model_pending(const ref_model *m)
{
    return walk_dirty((ref_model *)m, false);
}

uint32_t ref_model_update(ref_model *m) { return walk_dirty(m, true); }

void ref_model_world(const ref_model *m, uint32_t id, double out[16])
{
    memcpy(out, m->nodes[model_slot(m, id)].world, sizeof(double) * 16);
}

void ref_model_world_now(const ref_model *m, uint32_t id, double out[16])
{
    double a[16];
    uint32_t d;
    now_of_slot(m, model_slot(m, id), out, a, &d);
}

static double error_units(const double *w, const double *a, const float *got)
{
    double worst = 0.0;
    for (int i = 0; i < 16; i++) {
        double err = fabs((double)got[i] - w[i]);
        double r = err == 0.0 ? 0.0 : (a[i] > 0.0 ? err / (REF_U * a[i]) : INFINITY);
        if (!(r <= worst)) /* also catches NaN */
            worst = r;
    }
    return worst;
}

double ref_model_world_error(const ref_model *m, uint32_t id, const float got[16])
{
    const ref_node *n = &m->nodes[model_slot(m, id)];
    return error_units(n->world, n->absw, got);
}

double ref_model_world_tolerance(const ref_model *m, uint32_t id)
{
    return 4.0 * m->nodes[model_slot(m, id)].depth + 1.0;
}

double ref_model_world_now_error(const ref_model *m, uint32_t id, const float got[16])
{
    double w[16], a[16];
    uint32_t d;
    now_of_slot(m, model_slot(m, id), w, a, &d);
    return error_units(w, a, got);
}

double ref_model_world_now_tolerance(const ref_model *m, uint32_t id)
{
    return 4.0 * ref_model_depth(m, id) + 1.0;
}
