/* SPDX-License-Identifier: MIT */
/* What a result code means (sgrt_result_str), and reporting a refusal
 * through the scene's log. */
#include "internal.h"
#include "result.h"

void sgrt__report(sgrt_log_fn log, void *user, sgrt_result code, const char *function,
                  const char *message, sgrt_node node)
{
    if (log) {
        const sgrt_log_entry e = {code, function, message, node};
        log(user, &e);
    }
}

#if defined(__GNUC__) || defined(__clang__)
__attribute__((cold, noinline))
#endif
sgrt_result sgrt__fail(const sgrt_scene *s, sgrt_result code, const char *function,
                       const char *message, sgrt_node node)
{
    if (!s)
        return code;
    if (s->busy && code != SGRT_OK) {
        /* While the tasks run, handles resolve to nothing and creates find
         * the scene full: whatever the call tripped on, the call itself is
         * the fault. */
        code = SGRT_ERR_EXECUTOR;
        message = "the scene was called while sgrt_scene_update_parallel ran its tasks (from a "
                  "task, or from another thread): the call was refused";
    }
    sgrt__report(s->log, s->log_user, code, function, message, node);
    return code;
}

sgrt_result sgrt__reentered(const sgrt_scene *s, const char *function)
{
    return sgrt__fail(s, SGRT_ERR_EXECUTOR, function, "", SGRT_NULL_NODE);
}

void sgrt__warn(const sgrt_scene *s, const char *function, const char *message, sgrt_node node)
{
    sgrt__fail(s, SGRT_OK, function, message, node);
}

#if defined(__GNUC__) || defined(__clang__)
__attribute__((cold, noinline))
#endif
sgrt_result sgrt__fail_grow(const sgrt_scene *s, sgrt_result code, const char *function,
                            sgrt_node node)
{
    const char *why = code == SGRT_ERR_NOMEM
                          ? "the allocator returned NULL (or the storage needed exceeds the "
                            "address space); nothing changed"
                      : code == SGRT_ERR_ALIGNMENT
                          ? "the allocator returned a block aligned less than asked; it was "
                            "freed and nothing changed"
                          : "storage reached its slot limit (2^25 slots) or the handle table "
                            "its 2^24 indices";
    return sgrt__fail(s, code, function, why, node);
}

/* One sentence per code, index -code: what went wrong, then the name to
 * search for. */
static const char *const sgrt__result_sentences[] = {
    "success (SGRT_OK)",
    "invalid argument: a NULL pointer, a value outside its enum or range, a non-finite "
    "number, a call that needs a scene flag the scene was created without, a call out of "
    "order (a writer committed before it was begun), or an object handle (tracker, node "
    "set, writer) that is zero, destroyed, of another scene or of another kind; the "
    "scene's log names the argument (SGRT_ERR_INVALID_ARG)",
    "stale handle: the node was destroyed, or belongs to another scene, or the handle is "
    "zero (SGRT_ERR_STALE_HANDLE)",
    "cycle: the new parent is the node itself or one of its descendants (SGRT_ERR_CYCLE)",
    "out of memory: the allocator returned NULL; nothing changed (SGRT_ERR_NOMEM)",
    "capacity: the scene holds max_nodes nodes, or storage reached its slot limit "
    "(SGRT_ERR_CAPACITY)",
    "singular: the world cannot be kept, as the parent's world has no usable inverse or "
    "the new local misses it by more than the tolerance (SGRT_ERR_SINGULAR)",
    "corrupt: sgrt_scene_check found a broken internal invariant (SGRT_ERR_CORRUPT)",
    "alignment: the allocator returned a block aligned less than asked; it was freed and "
    "nothing changed (SGRT_ERR_ALIGNMENT)",
    "write: the dump's write function returned non-zero (SGRT_ERR_WRITE)",
    "pending: the world read is the last update's, and the next sgrt_scene_update will "
    "change it (SGRT_ERR_PENDING, validation mode)",
    "executor: the executor broke its contract (a task run twice, skipped or out of "
    "range), or the scene was called while sgrt_scene_update_parallel ran its tasks "
    "(SGRT_ERR_EXECUTOR)",
    "snapshot: the buffer is no snapshot the scene can take (truncated, corrupted, of another "
    "format version, layout or scene flags, or forged); nothing changed, and the log says "
    "what is wrong (SGRT_ERR_SNAPSHOT)",
};

/* Codes this library does not know, named with their number without
 * formatting at run time: one static sentence per code in [-99, 99]
 * (adjacent string literals: "unknown result code " "-" "4" "2"). */
#define SGRT__UNKNOWN(sign, tens, ones) "unknown result code " sign tens ones
#define SGRT__UNKNOWN10(sign, tens)                                                    \
    SGRT__UNKNOWN(sign, tens, "0"), SGRT__UNKNOWN(sign, tens, "1"),                    \
        SGRT__UNKNOWN(sign, tens, "2"), SGRT__UNKNOWN(sign, tens, "3"),                \
        SGRT__UNKNOWN(sign, tens, "4"), SGRT__UNKNOWN(sign, tens, "5"),                \
        SGRT__UNKNOWN(sign, tens, "6"), SGRT__UNKNOWN(sign, tens, "7"),                \
        SGRT__UNKNOWN(sign, tens, "8"), SGRT__UNKNOWN(sign, tens, "9")
#define SGRT__UNKNOWN100(sign)                                                         \
    SGRT__UNKNOWN10(sign, ""), SGRT__UNKNOWN10(sign, "1"), SGRT__UNKNOWN10(sign, "2"), \
        SGRT__UNKNOWN10(sign, "3"), SGRT__UNKNOWN10(sign, "4"),                        \
        SGRT__UNKNOWN10(sign, "5"), SGRT__UNKNOWN10(sign, "6"),                        \
        SGRT__UNKNOWN10(sign, "7"), SGRT__UNKNOWN10(sign, "8"), SGRT__UNKNOWN10(sign, "9")
/* Fixed-size rows: no pointer table to relocate. */
static const char sgrt__unknown_negative[100][24] = {SGRT__UNKNOWN100("-")};
static const char sgrt__unknown_positive[100][24] = {SGRT__UNKNOWN100("")};

const char *sgrt_result_str(sgrt_result r)
{
    const int n = (int)(sizeof sgrt__result_sentences / sizeof sgrt__result_sentences[0]);
    const int code = (int)r;
    /* Range checks before negating: -code overflows for INT_MIN. */
    if (code <= 0 && code > -n)
        return sgrt__result_sentences[-code];
    if (code < 0 && code > -100)
        return sgrt__unknown_negative[-code];
    if (code > 0 && code < 100)
        return sgrt__unknown_positive[code];
    return "unknown result code (outside -99..99)";
}
