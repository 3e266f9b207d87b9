/* Scene lifecycle, slot storage and the handle table. */
#include "internal.h"
#include <stdlib.h>
#include <string.h>

#define DEFAULT_CAPACITY 64u

/* ---- allocation ---------------------------------------------------------- */

static void *default_alloc(size_t size, size_t align, void *user)
{
    (void)user;
    /* aligned_alloc wants a size that is a multiple of the alignment. */
    size_t rounded = (size + align - 1u) & ~(align - 1u);
    return aligned_alloc(align, rounded);
}

static void default_free(void *ptr, size_t size, void *user)
{
    (void)size;
    (void)user;
    free(ptr);
}

void *sgrt__alloc(const sgrt_allocator *a, size_t size, size_t align)
{
    return a->alloc(size, align, a->user);
}

void sgrt__free(const sgrt_allocator *a, void *p, size_t size)
{
    if (p)
        a->free(p, size, a->user);
}

/* ---- slot storage -------------------------------------------------------- */

typedef struct storage {
    void *block;
    size_t size;
    sgrt__mat4 *local, *world;
    uint32_t *parent, *first_child, *next_sibling, *prev_sibling, *slot_handle, *scratch;
    uint64_t *user;
    uint32_t *alive, *alive_full, *dirty, *dirty_sum;
    uint32_t cap, words, sum_words;
} storage;

static size_t align64(size_t x) { return (x + 63u) & ~(size_t)63u; }

/* Lay out every per-slot array for `cap` slots in one block; with block NULL
 * only computes the size. */
static void storage_layout(storage *st, uint32_t cap, void *block)
{
    uint8_t *b = block;
    size_t off = 0;
    const size_t c = cap;
    st->cap = cap;
    st->words = cap / 32u;
    st->sum_words = (st->words + 31u) / 32u;
#define PLACE(field, type, count)                                                      \
    do {                                                                               \
        st->field = b ? (type *)(void *)(b + off) : NULL;                              \
        off = align64(off + (size_t)(count) * sizeof(type));                           \
    } while (0)
    PLACE(local, sgrt__mat4, c);
    PLACE(world, sgrt__mat4, c);
    PLACE(user, uint64_t, c);
    PLACE(parent, uint32_t, c);
    PLACE(first_child, uint32_t, c);
    PLACE(next_sibling, uint32_t, c);
    PLACE(prev_sibling, uint32_t, c);
    PLACE(slot_handle, uint32_t, c);
    PLACE(scratch, uint32_t, 2u * c);
    PLACE(alive, uint32_t, st->words);
    PLACE(dirty, uint32_t, st->words);
    PLACE(alive_full, uint32_t, st->sum_words);
    PLACE(dirty_sum, uint32_t, st->sum_words);
#undef PLACE
    st->block = block;
    st->size = off;
}

static sgrt_result storage_alloc(const sgrt_scene *s, uint32_t cap, storage *st)
{
    storage_layout(st, cap, NULL);
    void *block = sgrt__alloc(&s->alloc, st->size, 64);
    if (!block)
        return SGRT_ERR_NOMEM;
    storage_layout(st, cap, block);
    memset(st->alive, 0, (size_t)st->words * 4u);
    memset(st->dirty, 0, (size_t)st->words * 4u);
    memset(st->alive_full, 0, (size_t)st->sum_words * 4u);
    memset(st->dirty_sum, 0, (size_t)st->sum_words * 4u);
    return SGRT_OK;
}

static void storage_install(sgrt_scene *s, const storage *st)
{
    s->block = st->block;
    s->block_size = st->size;
    s->cap = st->cap;
    s->words = st->words;
    s->sum_words = st->sum_words;
    s->local = st->local;
    s->world = st->world;
    s->user = st->user;
    s->parent = st->parent;
    s->first_child = st->first_child;
    s->next_sibling = st->next_sibling;
    s->prev_sibling = st->prev_sibling;
    s->slot_handle = st->slot_handle;
    s->scratch = st->scratch;
    s->alive = st->alive;
    s->alive_full = st->alive_full;
    s->dirty = st->dirty;
    s->dirty_sum = st->dirty_sum;
}

static uint32_t round_cap(uint64_t need)
{
    uint64_t c = (need + 31u) & ~(uint64_t)31u;
    return c > SGRT__MAX_SLOTS ? 0u : (uint32_t)c;
}

/* Reallocate slot storage for `new_cap` slots, keeping every slot where it
 * is. Nothing changes on failure. */
static sgrt_result storage_resize(sgrt_scene *s, uint32_t new_cap)
{
    storage st;
    sgrt_result r = storage_alloc(s, new_cap, &st);
    if (r != SGRT_OK)
        return r;
    r = sgrt__trackers_reserve(s, st.words);
    if (r != SGRT_OK) {
        sgrt__free(&s->alloc, st.block, st.size);
        return r;
    }
    const size_t n = s->slot_end;
    if (n) {
        memcpy(st.local, s->local, n * sizeof *st.local);
        memcpy(st.world, s->world, n * sizeof *st.world);
        memcpy(st.user, s->user, n * sizeof *st.user);
        memcpy(st.parent, s->parent, n * 4u);
        memcpy(st.first_child, s->first_child, n * 4u);
        memcpy(st.next_sibling, s->next_sibling, n * 4u);
        memcpy(st.prev_sibling, s->prev_sibling, n * 4u);
        memcpy(st.slot_handle, s->slot_handle, n * 4u);
    }
    if (s->words) {
        memcpy(st.alive, s->alive, (size_t)s->words * 4u);
        memcpy(st.dirty, s->dirty, (size_t)s->words * 4u);
        memcpy(st.alive_full, s->alive_full, (size_t)s->sum_words * 4u);
        memcpy(st.dirty_sum, s->dirty_sum, (size_t)s->sum_words * 4u);
    }
    sgrt__free(&s->alloc, s->block, s->block_size);
    storage_install(s, &st);
    return SGRT_OK;
}

/* Make slot indices [0, need) exist. Grows geometrically. */
sgrt_result sgrt__ensure_slots(sgrt_scene *s, uint64_t need)
{
    if (need <= s->cap)
        return SGRT_OK;
    uint64_t want = (uint64_t)s->cap * 2u;
    if (want < need)
        want = need;
    if (want < DEFAULT_CAPACITY)
        want = DEFAULT_CAPACITY;
    uint32_t cap = round_cap(want);
    if (!cap) {
        cap = round_cap(need);
        if (!cap)
            return SGRT_ERR_CAPACITY;
    }
    return storage_resize(s, cap);
}

/* ---- handles ------------------------------------------------------------- */

static uint32_t salt_gen(const sgrt_scene *s) { return (s->salt >> 24) % SGRT__GEN_PERIOD; }

static uint32_t encode(const sgrt_scene *s, uint32_t index, uint32_t gen)
{
    const uint32_t field = (gen + salt_gen(s)) % SGRT__GEN_PERIOD + 1u;
    return (field << SGRT__INDEX_BITS) | ((index ^ s->salt) & SGRT__INDEX_MASK);
}

uint32_t sgrt__resolve(const sgrt_scene *s, sgrt_node n)
{
    if (!s)
        return SGRT__NONE;
    const uint32_t field = n.id >> SGRT__INDEX_BITS;
    if (field == 0u)
        return SGRT__NONE;
    const uint32_t index = (n.id ^ s->salt) & SGRT__INDEX_MASK;
    if (index >= s->handle_used)
        return SGRT__NONE;
    const uint32_t gen = (field - 1u + SGRT__GEN_PERIOD - salt_gen(s)) % SGRT__GEN_PERIOD;
    if (s->handle_gen[index] != gen)
        return SGRT__NONE;
    return s->handle_slot[index];
}

sgrt_node sgrt__handle_of_slot(const sgrt_scene *s, uint32_t slot)
{
    const uint32_t index = s->slot_handle[slot];
    sgrt_node n = {encode(s, index, s->handle_gen[index])};
    return n;
}

static sgrt_result handles_resize(sgrt_scene *s, uint32_t new_cap)
{
    const size_t sz_slot = align64((size_t)new_cap * 4u);
    const size_t sz_ring = align64((size_t)new_cap * 4u);
    const size_t total = sz_slot + sz_ring + align64(new_cap);
    uint8_t *b = sgrt__alloc(&s->alloc, total, 64);
    if (!b)
        return SGRT_ERR_NOMEM;
    uint32_t *hslot = (uint32_t *)(void *)b;
    uint32_t *ring = (uint32_t *)(void *)(b + sz_slot);
    uint8_t *gen = b + sz_slot + sz_ring;
    if (s->handle_used) {
        memcpy(hslot, s->handle_slot, (size_t)s->handle_used * 4u);
        memcpy(gen, s->handle_gen, s->handle_used);
    }
    for (uint32_t i = 0; i < s->free_count; i++)
        ring[i] = s->free_ring[(s->free_head + i) % s->handle_cap];
    if (s->handle_slot) {
        const size_t old = align64((size_t)s->handle_cap * 4u) * 2u + align64(s->handle_cap);
        sgrt__free(&s->alloc, s->handle_slot, old);
    }
    s->handle_slot = hslot;
    s->free_ring = ring;
    s->handle_gen = gen;
    s->handle_cap = new_cap;
    s->free_head = 0;
    return SGRT_OK;
}

static bool must_take_fresh_index(const sgrt_scene *s)
{
    return s->free_count <= SGRT__MIN_FREE_HANDLES && s->handle_used <= SGRT__INDEX_MASK;
}

/* Guarantee that one index can be handed out without allocating. */
sgrt_result sgrt__ensure_handle(sgrt_scene *s)
{
    if (!must_take_fresh_index(s) || s->handle_used < s->handle_cap)
        return SGRT_OK;
    uint64_t want = (uint64_t)s->handle_cap * 2u;
    if (want < DEFAULT_CAPACITY)
        want = DEFAULT_CAPACITY;
    if (want > (uint64_t)SGRT__INDEX_MASK + 1u)
        want = (uint64_t)SGRT__INDEX_MASK + 1u;
    return handles_resize(s, (uint32_t)want);
}

/* Hand out an index (sgrt__ensure_handle must have succeeded). FIFO reuse,
 * and only past SGRT__MIN_FREE_HANDLES free indices, so a destroyed handle
 * stays refused for as long as possible. */
uint32_t sgrt__take_handle(sgrt_scene *s, uint32_t slot)
{
    uint32_t index;
    if (must_take_fresh_index(s)) {
        index = s->handle_used++;
        s->handle_gen[index] = 0;
    } else {
        index = s->free_ring[s->free_head];
        s->free_head = (s->free_head + 1u) % s->handle_cap;
        s->free_count--;
    }
    s->handle_slot[index] = slot;
    return index;
}

void sgrt__release_handle(sgrt_scene *s, uint32_t index)
{
    s->handle_slot[index] = SGRT__NONE;
    s->handle_gen[index] = (uint8_t)((s->handle_gen[index] + 1u) % SGRT__GEN_PERIOD);
    s->free_ring[(s->free_head + s->free_count) % s->handle_cap] = index;
    s->free_count++;
}

/* ---- scene ---------------------------------------------------------------- */

static uint32_t mix32(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    x ^= x >> 33;
    return (uint32_t)x;
}

sgrt_result sgrt_scene_create(const sgrt_scene_desc *desc, sgrt_scene **out)
{
    static const sgrt_scene_desc defaults = {0, 0, NULL};
    if (!out)
        return SGRT_ERR_INVALID_ARG;
    if (!desc)
        desc = &defaults;
    sgrt_allocator a = {default_alloc, default_free, NULL};
    if (desc->allocator) {
        if (!desc->allocator->alloc || !desc->allocator->free)
            return SGRT_ERR_INVALID_ARG;
        a = *desc->allocator;
    }
    const uint32_t max_nodes = desc->max_nodes ? desc->max_nodes : SGRT_MAX_NODES;
    if (max_nodes > SGRT_MAX_NODES || desc->initial_capacity > max_nodes)
        return SGRT_ERR_INVALID_ARG;

    sgrt_scene *s = sgrt__alloc(&a, sizeof *s, 64);
    if (!s)
        return SGRT_ERR_NOMEM;
    memset(s, 0, sizeof *s);
    s->alloc = a;
    s->max_nodes = max_nodes;
    s->salt = mix32((uint64_t)(uintptr_t)s);
    s->k = sgrt__kernels_default();

    const uint32_t initial = desc->initial_capacity ? desc->initial_capacity : DEFAULT_CAPACITY;
    sgrt_result r = sgrt__ensure_slots(s, initial);
    if (r == SGRT_OK)
        r = handles_resize(s, round_cap(initial));
    if (r != SGRT_OK) {
        sgrt_scene_destroy(s);
        return r;
    }
    *out = s;
    return SGRT_OK;
}

void sgrt_scene_destroy(sgrt_scene *s)
{
    if (!s)
        return;
    sgrt__trackers_destroy_all(s);
    sgrt__free(&s->alloc, s->block, s->block_size);
    if (s->handle_slot) {
        const size_t hs = align64((size_t)s->handle_cap * 4u) * 2u + align64(s->handle_cap);
        sgrt__free(&s->alloc, s->handle_slot, hs);
    }
    const sgrt_allocator a = s->alloc;
    sgrt__free(&a, s, sizeof *s);
}

sgrt_result sgrt_scene_reserve(sgrt_scene *s, uint32_t node_count)
{
    if (!s)
        return SGRT_ERR_INVALID_ARG;
    if (node_count > s->max_nodes)
        return SGRT_ERR_CAPACITY;
    const uint32_t extra = node_count > s->node_count ? node_count - s->node_count : 0u;
    sgrt_result r = sgrt__ensure_slots(s, (uint64_t)s->slot_end + extra);
    if (r != SGRT_OK)
        return r;
    uint64_t hneed = (uint64_t)node_count + SGRT__MIN_FREE_HANDLES + 1u;
    if (hneed > (uint64_t)SGRT__INDEX_MASK + 1u)
        hneed = (uint64_t)SGRT__INDEX_MASK + 1u;
    if (hneed > s->handle_cap)
        return handles_resize(s, (uint32_t)hneed);
    return SGRT_OK;
}

uint32_t sgrt_scene_node_count(const sgrt_scene *s) { return s ? s->node_count : 0u; }

void sgrt__scene_use_kernels(sgrt_scene *s, const sgrt__kernels *k) { s->k = k; }

/* Replace the slot storage by a new block in which the live nodes are stored
 * depth-first from slot 0 (used by sgrt_scene_compact). */
sgrt_result sgrt__storage_compact(sgrt_scene *s)
{
    storage st;
    sgrt_result r = storage_alloc(s, s->cap, &st);
    if (r != SGRT_OK)
        return r;
    /* map[old slot] = new slot, kept in the old block's scratch. */
    uint32_t *map = s->scratch;
    uint32_t next = 0;
    for (uint32_t w = 0; w < s->words; w++) {
        uint32_t bits = s->alive[w];
        while (bits) {
            const uint32_t root = w * 32u + sgrt__ctz32(bits);
            bits &= bits - 1u;
            if (s->parent[root] != SGRT__NONE)
                continue;
            /* Pre-order walk of the tree below root. */
            uint32_t x = root;
            for (;;) {
                map[x] = next++;
                if (s->first_child[x] != SGRT__NONE) {
                    x = s->first_child[x];
                    continue;
                }
                while (x != root && s->next_sibling[x] == SGRT__NONE)
                    x = s->parent[x];
                if (x == root)
                    break;
                x = s->next_sibling[x];
            }
        }
    }
    sgrt__nodesets_compact(s, map);
#define REMAP(v) ((v) == SGRT__NONE ? SGRT__NONE : map[(v)])
    for (uint32_t w = 0; w < s->words; w++) {
        uint32_t bits = s->alive[w];
        if (bits)
            sgrt__note_changed(s, w, bits);
        while (bits) {
            const uint32_t o = w * 32u + sgrt__ctz32(bits);
            bits &= bits - 1u;
            const uint32_t n = map[o];
            memcpy(st.local[n], s->local[o], sizeof st.local[n]);
            memcpy(st.world[n], s->world[o], sizeof st.world[n]);
            st.user[n] = s->user[o];
            st.parent[n] = REMAP(s->parent[o]);
            st.first_child[n] = REMAP(s->first_child[o]);
            st.next_sibling[n] = REMAP(s->next_sibling[o]);
            st.prev_sibling[n] = REMAP(s->prev_sibling[o]);
            st.slot_handle[n] = s->slot_handle[o];
            s->handle_slot[s->slot_handle[o]] = n;
            if (sgrt__bit_get(s->dirty, o)) {
                sgrt__bit_set(st.dirty, n);
                sgrt__bit_set(st.dirty_sum, n >> 5);
            }
        }
    }
#undef REMAP
    sgrt__bits_set_range(st.alive, 0, next);
    for (uint32_t w = 0; w < next / 32u; w++)
        sgrt__bit_set(st.alive_full, w);
    sgrt__free(&s->alloc, s->block, s->block_size);
    storage_install(s, &st);
    s->slot_end = next;
    s->holes = 0;
    for (uint32_t w = 0; w < s->words; w++)
        if (s->alive[w])
            sgrt__note_changed(s, w, s->alive[w]);
    return SGRT_OK;
}
