/* SPDX-License-Identifier: MIT */
/* The test allocator declared in testutil.h. Live blocks are kept in a plain
 * array so that a free can be matched against what was handed out; scenes
 * hold few blocks, so a linear search (newest first) is enough. */
#include "testutil.h"

#include <stdarg.h>

struct test_block {
    void *p;    /* what the library got */
    void *base; /* what test_aligned_alloc returned (p - 16 for a misaligned block) */
    size_t size;
};

#if defined(__MINGW_PRINTF_FORMAT) /* MinGW: C99 or Windows formats, as printf */
__attribute__((format(__MINGW_PRINTF_FORMAT, 2, 3)))
#elif defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void contract_error(test_alloc *ta, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ta->last_error, sizeof ta->last_error, fmt, ap);
    va_end(ap);
    ta->contract_errors++;
}

void *test_alloc_alloc(size_t size, size_t align, void *user)
{
    test_alloc *ta = user;
    ta->calls++;
    if (align == 0 || (align & (align - 1u)) != 0 || align > 64u) {
        contract_error(ta, "alloc(%zu) with alignment %zu", size, align);
        return NULL;
    }
    if (ta->calls == ta->fail_at || (ta->fail_from != 0 && ta->calls >= ta->fail_from)) {
        ta->failures++;
        return NULL;
    }
    const bool misalign = ta->calls == ta->misalign_at && align > 16u;
    const size_t a = misalign ? 64u : align < sizeof(void *) ? sizeof(void *) : align;
    const size_t pad = misalign ? 64u : 0u;
    void *base = test_aligned_alloc(a, size + pad + (size == 0 ? a : 0u));
    if (!base)
        return NULL;
    void *p = misalign ? (char *)base + 16 : base;
    ta->misaligned += misalign;
    if (ta->nblocks == ta->capblocks) {
        ta->capblocks = ta->capblocks ? ta->capblocks * 2u : 16u;
        struct test_block *nb = realloc(ta->blocks, ta->capblocks * sizeof *nb);
        if (!nb) {
            fprintf(stderr, "test_alloc: out of memory\n");
            abort();
        }
        ta->blocks = nb;
    }
    ta->blocks[ta->nblocks].p = p;
    ta->blocks[ta->nblocks].base = base;
    ta->blocks[ta->nblocks].size = size;
    ta->nblocks++;
    ta->live_blocks++;
    ta->live_bytes += size;
    return p;
}

void test_alloc_free(void *ptr, size_t size, void *user)
{
    test_alloc *ta = user;
    ta->frees++;
    for (size_t i = ta->nblocks; i-- > 0;) {
        if (ta->blocks[i].p != ptr)
            continue;
        if (ta->blocks[i].size != size)
            contract_error(ta, "free(%p) with size %zu, allocated with %zu", ptr, size,
                           ta->blocks[i].size);
        ta->live_blocks--;
        ta->live_bytes -= ta->blocks[i].size;
        test_aligned_free(ta->blocks[i].base);
        ta->blocks[i] = ta->blocks[--ta->nblocks];
        return;
    }
    contract_error(ta, "free(%p, %zu) of a block the allocator does not own", ptr, size);
}

void test_alloc_release(test_alloc *ta)
{
    free(ta->blocks);
    ta->blocks = NULL;
    ta->nblocks = ta->capblocks = 0;
}
