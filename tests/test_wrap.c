/* SPDX-License-Identifier: MIT */
/* sgrt_nodes_set_trs and sgrt_nodes_set_local terminate for every uint32_t
 * count, the largest included.
 *
 *   test_wrap          counts in (2^32 - 32, 2^32 - 1] refused early: the
 *                      call reads one chunk of input (the pages after it are
 *                      unreadable) and returns the refused entry
 *   test_wrap --full   CI's scale stage (64-bit Linux): 2^32 - 1 valid
 *                      entries, the input mapped over a few MiB of memfd
 *                      repeated, written in full (about two minutes)
 *
 * The full run is the one that fails on chunk loops that wrap: a loop
 * `for (uint32_t base = 0; base < count; base += 32)` passes 2^32 - 32 and
 * starts over at 0, checking the input again for ever. Two pages of the
 * node array, at entries 2^30 and 3 x 2^30, are kept unreadable in turn: a
 * read of the protected one (the SIGSEGV handler swaps them) counts a
 * visit, and a pass over the input makes two. The checking pass and the
 * writing pass make four; more means the loop went round again, and the
 * handler stops the program at once. Early refusals on their own cannot
 * show the bug: a wrapping loop also stops at a bad entry on its first
 * round. */
#if defined(__linux__)
#define _GNU_SOURCE /* memfd_create */
#endif
#include "testutil.h"

#if defined(__unix__) || defined(__APPLE__)
#include <signal.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static const size_t page = 4096u;

/* `readable` bytes (whole pages) of zeros, followed by `guard` bytes that
 * fault on any access. */
static void *guarded(size_t readable, size_t guard)
{
    char *p = mmap(NULL, readable + guard, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                   -1, 0);
    if (p == MAP_FAILED || mprotect(p + readable, guard, PROT_NONE) != 0) {
        perror("test_wrap: mmap");
        exit(2);
    }
    return p;
}

/* A count in (2^32 - 32, 2^32 - 1] whose entry `bad` is refused: the call
 * must return that entry's error having read no more than the first chunk
 * of each array (32 entries, then a guard that faults). */
static void test_refused_early(uint32_t count, uint32_t bad, bool trs)
{
    sgrt_scene *s = new_scene();
    sgrt_node live;
    OK(sgrt_node_create(s, SGRT_NULL_NODE, &live));
    enum { N = 32 };
    sgrt_node *nodes = guarded(page, 16 * page);
    float(*local)[16] = guarded(page, 16 * page);
    float(*t)[3] = guarded(page, 16 * page);
    float(*q)[4] = guarded(page, 16 * page);
    float(*sc)[3] = guarded(page, 16 * page);
    /* Each array ends where its guard begins: entry N would fault. */
    t = (float(*)[3])(void *)((char *)t + page - N * sizeof *t);
    sc = (float(*)[3])(void *)((char *)sc + page - N * sizeof *sc);
    q = (float(*)[4])(void *)((char *)q + page - N * sizeof *q);
    local = (float(*)[16])(void *)((char *)local + page - N * sizeof *local);
    nodes += page / sizeof *nodes - N;
    for (uint32_t i = 0; i < N; i++) {
        nodes[i] = live;
        for (int k = 0; k < 16; k++)
            local[i][k] = k % 5 == 0 ? 1.0f : 0.0f;
        for (int k = 0; k < 3; k++) {
            t[i][k] = (float)i;
            sc[i][k] = 1.0f;
        }
        q[i][0] = q[i][1] = q[i][2] = 0.0f;
        q[i][3] = 1.0f;
    }
    sgrt_result want = SGRT_ERR_STALE_HANDLE;
    if (bad == 0) {
        nodes[0].id = 0;
    } else {
        local[bad][12] = NAN;
        t[bad][0] = NAN;
        want = SGRT_ERR_INVALID_ARG;
    }
    uint32_t at = 12345;
    if (trs)
        CHECK_RES(sgrt_nodes_set_trs(s, count, nodes, t[0], q[0], sc[0], &at), want);
    else
        CHECK_RES(sgrt_nodes_set_local(s, count, nodes, local[0], &at), want);
    CHECK_EQ_U(at, bad);
    CHECK_EQ_U(sgrt_scene_update(s), 1); /* the create; the batch changed nothing */
    check_scene(s);
    sgrt_scene_destroy(s);
}

#if defined(__linux__) && UINTPTR_MAX > 0xFFFFFFFFu
#define HAVE_FULL 1

/* The two sentinel pages of the node array and the visits counted. */
static char *sentinel[2];
static volatile sig_atomic_t visits, armed;

static void on_segv(int sig, siginfo_t *si, void *uc)
{
    (void)uc;
    char *a = si->si_addr;
    for (int k = 0; armed && k < 2; k++)
        if (a >= sentinel[k] && a < sentinel[k] + page) {
            /* Open this one, close the other: the next visit is counted
             * when the pass reaches it. */
            mprotect(sentinel[k], page, PROT_READ);
            mprotect(sentinel[k ^ 1], page, PROT_NONE);
            if (++visits > 4) {
                static const char msg[] =
                    "test_wrap: sgrt_nodes_set_trs read its input a third time: its chunk loop "
                    "wrapped past 2^32 and started over\n";
                if (write(2, msg, sizeof msg - 1)) {
                }
                _exit(1);
            }
            return;
        }
    signal(sig, SIG_DFL); /* a real fault: crash as usual */
}

/* `total` bytes, every `chunk` of which maps the memfd fd from offset 0. */
static void *repeat_map(int fd, size_t chunk, size_t total)
{
    char *base = mmap(NULL, total, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (base == MAP_FAILED) {
        perror("test_wrap: reserve");
        exit(2);
    }
    for (size_t off = 0; off < total; off += chunk) {
        const size_t len = total - off < chunk ? total - off : chunk;
        if (mmap(base + off, len, PROT_READ, MAP_SHARED | MAP_FIXED, fd, 0) == MAP_FAILED) {
            perror("test_wrap: mmap");
            exit(2);
        }
    }
    return base;
}

static int filled_memfd(const char *name, size_t size, uint32_t word)
{
    const int fd = memfd_create(name, 0);
    if (fd < 0 || ftruncate(fd, (off_t)size) != 0) {
        perror("test_wrap: memfd");
        exit(2);
    }
    uint32_t *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED) {
        perror("test_wrap: mmap");
        exit(2);
    }
    for (size_t i = 0; i < size / 4u; i++)
        p[i] = word;
    munmap(p, size);
    return fd;
}

/* 2^32 - 1 entries naming one live node, every float 1 (t = (1, 1, 1),
 * q = (1, 1, 1, 1): finite, not of unit length, a plain scene takes it;
 * scale = (1, 1, 1)); t, q and scale share one region. Virtual: 16 GiB of
 * handles and 64 GiB of floats; resident: two 4 MiB memfds and the page
 * tables. */
static void test_full(void)
{
    sgrt_scene *s = new_scene();
    sgrt_node live;
    OK(sgrt_node_create(s, SGRT_NULL_NODE, &live));
    const uint32_t count = UINT32_MAX;
    const size_t chunk = (size_t)4 << 20; /* a multiple of 4, 12 and 16 bytes */
    const int fn = filled_memfd("sgrt-nodes", chunk, live.id);
    float one = 1.0f;
    uint32_t one_bits;
    memcpy(&one_bits, &one, sizeof one_bits);
    const int ff = filled_memfd("sgrt-floats", chunk, one_bits);
    char *nodes = repeat_map(fn, chunk, (size_t)count * sizeof(sgrt_node));
    const float *f = repeat_map(ff, chunk, (size_t)count * 16u);

    sentinel[0] = nodes + ((size_t)1 << 30) * sizeof(sgrt_node);
    sentinel[1] = nodes + ((size_t)3 << 30) * sizeof(sgrt_node);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_segv;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGSEGV, &sa, NULL) != 0 || mprotect(sentinel[0], page, PROT_NONE) != 0) {
        perror("test_wrap: sigaction");
        exit(2);
    }
    armed = 1;

    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    uint32_t at = 12345;
    const sgrt_result r =
        sgrt_nodes_set_trs(s, count, (const sgrt_node *)(const void *)nodes, f, f, f, &at);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    armed = 0;
    OK(r);
    CHECK_EQ_U(at, 12345);       /* untouched on success */
    CHECK(visits >= 2 && visits <= 4); /* the checking pass at least */
    float local[16];
    OK(sgrt_node_local(s, live, local));
    CHECK(local[12] == 1.0f && local[15] == 1.0f);
    printf("test_wrap: sgrt_nodes_set_trs over %u entries: %s in %.1f s (%d visits of the "
           "sentinel pages)\n",
           count, sgrt_result_str(r),
           (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9,
           (int)visits);
    munmap(nodes, (size_t)count * sizeof(sgrt_node));
    munmap((void *)(uintptr_t)f, (size_t)count * 16u);
    close(fn);
    close(ff);
    check_scene(s);
    sgrt_scene_destroy(s);
}
#endif

int main(int argc, char **argv)
{
    const bool full = argc > 1 && strcmp(argv[1], "--full") == 0;
    test_refused_early(UINT32_MAX, 0, true);
    test_refused_early(UINT32_MAX - 30u, 1, true);
    test_refused_early(UINT32_MAX, 0, false);
    test_refused_early(UINT32_MAX - 30u, 1, false);
    if (full) {
#ifdef HAVE_FULL
        test_full();
#else
        printf("test_wrap: --full needs 64-bit Linux (memfd, 80 GiB of address space)\n");
#endif
    }
    return test_report("test_wrap");
}
#else
int main(void)
{
    printf("test_wrap: needs mmap; skipped\n");
    return 77;
}
#endif
