/* SPDX-License-Identifier: MIT */
/* libFuzzer harness for snapshots: sgrt_scene_restore and sgrt_scene_load
 * fed mutated, truncated and forged snapshots.
 *
 * Input: byte 0 picks the scene's flags, bytes 1 and 2 the scene (how many
 * nodes, and the seed of a small program that makes them: trees, boxes,
 * anchors, an origin, user values, destroyed nodes, an update, moves
 * pending), byte 3 what to do with its snapshot:
 *   bit 0  reseal: write the right checksum after the edits (a forgery; else
 *          the edits are corruption, which the checksum must catch);
 *   bit 1  truncate to the length in the next two bytes (mod the length);
 *   bit 2  raw: the rest of the input is the buffer itself (from byte 4),
 *          not edits of the scene's snapshot;
 * then edits of the snapshot, three bytes each: an offset (two bytes, mod
 * the length, past the checksum's own bytes) and a value XORed into it.
 *
 * The buffer is copied into a block of exactly its length (AddressSanitizer
 * then catches any read past size) and given to sgrt_scene_restore, on the
 * scene it was taken from, and to sgrt_scene_load, through an allocator
 * that counts. Checked, aborting on a finding:
 *   - refused: SGRT_ERR_SNAPSHOT or SGRT_ERR_CAPACITY, one log entry, and the
 *     scene unchanged (its own snapshot the same bytes); load: *out
 *     untouched and nothing left allocated;
 *   - taken: sgrt_scene_check passes, and the scene's snapshot is the
 *     buffer's bytes, exactly (what was taken is a scene, and all of it);
 *     a buffer that was corrupted (edited, not resealed) is never taken;
 *   - load allocates at most 1 MiB + 16 x size (its counts are bounded by
 *     the bytes they need). */
#include "sgrt.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define ENSURE(cond, ...)                                                              \
    do {                                                                               \
        if (!(cond)) {                                                                 \
            fprintf(stderr, "fuzz_restore: %s:%d: ", __FILE__, __LINE__);              \
            fprintf(stderr, __VA_ARGS__);                                              \
            fputc('\n', stderr);                                                       \
            abort();                                                                   \
        }                                                                              \
    } while (0)

/* ---- an allocator that counts ------------------------------------------------------- */

typedef struct counter {
    size_t now, peak;
    unsigned long blocks;
} counter;

static void *count_alloc(size_t size, size_t align, void *user)
{
    counter *c = user;
    void *p = aligned_alloc(align, (size + align - 1u) & ~(align - 1u));
    if (p) {
        c->now += size;
        c->blocks++;
        if (c->now > c->peak)
            c->peak = c->now;
    }
    return p;
}

static void count_free(void *p, size_t size, void *user)
{
    counter *c = user;
    if (p) {
        c->now -= size;
        c->blocks--;
    }
    free(p);
}

typedef struct log_count {
    unsigned long entries;
    sgrt_result last;
} log_count;

static void count_log(void *user, const sgrt_log_entry *e)
{
    log_count *l = user;
    l->entries++;
    l->last = e->code;
}

/* ---- the scene ---------------------------------------------------------------------- */

static const uint32_t flag_sets[8] = {
    0u,
    SGRT_SCENE_PREV_WORLD,
    SGRT_SCENE_BOUNDS,
    SGRT_SCENE_BOUNDS | SGRT_SCENE_SUBTREE_BOUNDS,
    SGRT_SCENE_LARGE_WORLD,
    SGRT_SCENE_VALIDATE | SGRT_SCENE_PREV_WORLD,
    SGRT_SCENE_PREV_WORLD | SGRT_SCENE_BOUNDS | SGRT_SCENE_SUBTREE_BOUNDS | SGRT_SCENE_LARGE_WORLD,
    SGRT_SCENE_LARGE_WORLD | SGRT_SCENE_BOUNDS,
};

/* A call of the program that may be refused (its node destroyed before). */
static void may(sgrt_result r)
{
    ENSURE(r == SGRT_OK || r == SGRT_ERR_STALE_HANDLE, "populate: %d", (int)r);
}

static uint32_t draw(uint32_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 17;
    *x ^= *x << 5;
    return *x;
}

/* `count` nodes from seed: what every part of a snapshot holds. */
static void populate(sgrt_scene *s, uint32_t flags, uint32_t count, uint32_t seed)
{
    sgrt_node h[80];
    uint32_t x = seed * 2654435761u + 1u, n = 0;
    for (uint32_t i = 0; i < count; i++) {
        const sgrt_node parent = n && draw(&x) % 5u ? h[draw(&x) % n] : SGRT_NULL_NODE;
        if (sgrt_node_create(s, parent, &h[n]) != SGRT_OK)
            continue;
        const float m[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0,
                             (float)(draw(&x) % 9u), (float)(draw(&x) % 5u) * 0.5f, 1, 1};
        may(sgrt_node_set_local(s, h[n], m));
        may(sgrt_node_set_user(s, h[n], draw(&x)));
        if (flags & SGRT_SCENE_BOUNDS && draw(&x) % 2u) {
            const float c[3] = {1, 0, -1}, e[3] = {0.5f, (float)(draw(&x) % 3u), 1};
            may(sgrt_node_set_bounds(s, h[n], c, e));
        }
        if (flags & SGRT_SCENE_LARGE_WORLD && parent.id == 0) {
            const double at[3] = {1e9 * (double)(draw(&x) % 7u), -3e8, 0.25};
            may(sgrt_node_set_anchor(s, h[n], at));
        }
        n++;
        if (draw(&x) % 11u == 0)
            (void)sgrt_scene_update(s);
    }
    if (flags & SGRT_SCENE_LARGE_WORLD) {
        const double origin[3] = {1e9, -3e8 + 1000.0, 0};
        may(sgrt_scene_set_origin(s, origin));
    }
    (void)sgrt_scene_update(s);
    for (uint32_t k = 0; n && k < 3u; k++)
        may(sgrt_node_destroy(s, h[draw(&x) % n]));
    if (draw(&x) % 2u)
        (void)sgrt_scene_update(s);
    const float moved[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 3, 3, 3, 1};
    for (uint32_t k = 0; n && k < 2u; k++)
        may(sgrt_node_set_local(s, h[draw(&x) % n], moved));
}

static uint8_t *snapshot_of(const sgrt_scene *s, size_t *n)
{
    ENSURE(sgrt_scene_snapshot_size(s, n) == SGRT_OK, "snapshot_size");
    uint8_t *b = malloc(*n);
    size_t written = 0;
    ENSURE(b && sgrt_scene_snapshot(s, b, *n, &written) == SGRT_OK && written == *n, "snapshot");
    return b;
}

static void reseal(uint8_t *p, size_t n)
{
    if (n < 64)
        return;
    const uint64_t c = XXH3_64bits(p + 32, n - 32u);
    for (int i = 0; i < 8; i++)
        p[24 + i] = (uint8_t)(c >> (8 * i));
}

/* The scene holds exactly buf's snapshot (buf: a snapshot it took). */
static void ensure_is(const sgrt_scene *s, const uint8_t *buf, size_t n, const char *what)
{
    size_t m = 0;
    uint8_t *now = snapshot_of(s, &m);
    ENSURE(m <= n && memcmp(now, buf, m) == 0, "%s: the scene's snapshot is not the buffer's", what);
    free(now);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 4)
        return 0;
    const uint32_t flags = flag_sets[data[0] & 7u];
    const uint32_t count = 1u + data[1] % 72u, seed = data[2];
    const uint8_t how = data[3];
    log_count lg = {0, SGRT_OK};
    sgrt_scene_desc d = {0};
    d.flags = flags;
    d.log = count_log;
    d.log_user = &lg;
    sgrt_scene *s = NULL;
    ENSURE(sgrt_scene_create(&d, &s) == SGRT_OK, "create");
    populate(s, flags, count, seed);
    size_t good_n = 0;
    uint8_t *good = snapshot_of(s, &good_n);

    /* The buffer: the snapshot edited, or the input itself. */
    size_t n = good_n;
    uint8_t *buf;
    size_t at = 4;
    bool edited = false;
    if (how & 4u) {
        n = size - 4u;
        buf = malloc(n ? n : 1u);
        ENSURE(buf, "malloc");
        memcpy(buf, data + 4, n);
        edited = n != good_n || memcmp(buf, good, n) != 0;
        if ((how & 1u) && n >= 64 && edited) /* a forgery of the header's claims */
            reseal(buf, n);
    } else {
        size_t cut = n;
        if (how & 2u) {
            cut = at + 2u <= size ? ((size_t)data[at] | (size_t)data[at + 1] << 8) % (n + 1u) : n;
            at += 2;
        }
        buf = malloc(n);
        ENSURE(buf, "malloc");
        memcpy(buf, good, n);
        for (; at + 3u <= size; at += 3) {
            const size_t off = 32u + (((size_t)data[at] | (size_t)data[at + 1] << 8) % (n - 32u));
            buf[off] ^= data[at + 2];
        }
        edited = memcmp(buf, good, n) != 0; /* edits may undo each other */
        if (how & 1u)
            reseal(buf, n);
        if (cut < n) {
            uint8_t *shorter = malloc(cut ? cut : 1u);
            ENSURE(shorter, "malloc");
            memcpy(shorter, buf, cut);
            free(buf);
            buf = shorter;
            n = cut;
            edited = true;
        }
    }
    const bool corrupted = edited && !(how & 1u) && !(how & 4u);

    /* Restore into the scene it came from. */
    const unsigned long entries = lg.entries;
    const sgrt_result r = sgrt_scene_restore(s, buf, n);
    if (r == SGRT_OK) {
        ENSURE(!corrupted, "a corrupted snapshot was taken");
        ENSURE(lg.entries == entries, "a restore that succeeded reported");
        const char *what = NULL;
        ENSURE(sgrt_scene_check(s, &what) == SGRT_OK, "taken, but sgrt_scene_check: %s",
               what ? what : "?");
        ensure_is(s, buf, n, "restore");
    } else {
        ENSURE(r == SGRT_ERR_SNAPSHOT || r == SGRT_ERR_CAPACITY, "restore returned %d", (int)r);
        ENSURE(lg.entries == entries + 1u && lg.last == r, "a refusal not reported once");
        ensure_is(s, good, good_n, "a refused restore");
    }

    /* Load it, through an allocator that counts. */
    counter c = {0, 0, 0};
    const sgrt_allocator al = {count_alloc, count_free, &c};
    sgrt_scene_desc ld = {0};
    ld.allocator = &al;
    ld.log = count_log;
    ld.log_user = &lg;
    sgrt_scene *l = (sgrt_scene *)(uintptr_t)0x1234;
    const sgrt_result lr = sgrt_scene_load(&ld, buf, n, &l);
    ENSURE(c.peak <= (size_t)1 << 20 || c.peak <= 16u * n + ((size_t)1 << 20),
           "load allocated %zu bytes for a buffer of %zu", c.peak, n);
    if (lr == SGRT_OK) {
        ENSURE(!corrupted, "a corrupted snapshot was loaded");
        const char *what = NULL;
        ENSURE(sgrt_scene_check(l, &what) == SGRT_OK, "loaded, but sgrt_scene_check: %s",
               what ? what : "?");
        ensure_is(l, buf, n, "load");
        sgrt_scene_destroy(l);
    } else {
        ENSURE(l == (sgrt_scene *)(uintptr_t)0x1234, "a refused load wrote *out");
        ENSURE(lr == SGRT_ERR_SNAPSHOT || lr == SGRT_ERR_CAPACITY || lr == SGRT_ERR_INVALID_ARG,
               "load returned %d", (int)lr);
    }
    ENSURE(c.now == 0 && c.blocks == 0, "load left %lu blocks allocated", c.blocks);
    free(buf);
    free(good);
    sgrt_scene_destroy(s);
    return 0;
}
