/* SPDX-License-Identifier: MIT */
/* The argument prologues: one for nodes, one for objects (trackers, node
 * sets, writers). A public call resolves each handle argument through one
 * of them, so the same mistake gets the same message everywhere, naming
 * the argument. */
#ifndef SGRT_ARGS_H
#define SGRT_ARGS_H

#include "handles.h"
#include "objects.h"
#include "result.h"

/* The prologue of every public call on a scene, in this order, before its
 * handle arguments (SGRT__NODE_ARG, sgrt__object_arg below):
 *   SGRT__ENTER(s, none): a NULL scene answered with `none`, the call's
 *     refusal (INVALID_ARG; 0, false, NULL or SGRT_NULL_NODE for a call
 *     that answers with a value; nothing for a void call), unreported:
 *     there is no log to report to;
 *   SGRT__ENTER_WRITE(s): the same (INVALID_ARG), then, for a call that
 *     changes what the tasks of a parallel update read or write, a busy
 *     scene refused with EXECUTOR (sgrt__reentered, reported);
 *   SGRT__NOT_NULL(s, p, node): a pointer argument p that is NULL refused
 *     with INVALID_ARG, reported as "p is NULL": the message names the
 *     argument by its name in the header, the same way in every call. */
#define SGRT__ENTER(s, none)                                                           \
    do {                                                                               \
        if (!(s))                                                                      \
            return none;                                                               \
    } while (0)
#define SGRT__ENTER_WRITE(s)                                                           \
    do {                                                                               \
        if (!(s))                                                                      \
            return SGRT_ERR_INVALID_ARG;                                               \
        if ((s)->busy)                                                                 \
            return sgrt__reentered((s), __func__);                                     \
    } while (0)
#define SGRT__NOT_NULL(s, p, node)                                                     \
    do {                                                                               \
        if (!(p))                                                                      \
            return sgrt__fail((s), SGRT_ERR_INVALID_ARG, __func__, #p " is NULL", (node)); \
    } while (0)

/* The message for a node argument `what` ("node", "parent") that is not a
 * live node of s. */
#define SGRT__STALE(what)                                                              \
    what " is stale: destroyed, never created (zero), or a node of another scene"

/* The slot of `node`, the argument named `arg` (a string literal) of
 * `function`, or SGRT__NONE after refusing it as stale: reported, and *err
 * (when err is not NULL) is what the call returns, STALE_HANDLE (EXECUTOR
 * while the scene is busy: sgrt__fail). One XOR, one compare and one load
 * when the node is live; the refusal is out of line. */
#define SGRT__NODE_ARG(s, node, arg, function, err)                                    \
    sgrt__node_arg(s, node, SGRT__STALE(arg), function, err)
static inline uint32_t sgrt__node_arg(const sgrt_scene *s, sgrt_node node, const char *stale,
                                      const char *function, sgrt_result *err)
{
    const uint32_t slot = sgrt__resolve(s, node);
    if (slot == SGRT__NONE) {
        const sgrt_result r = sgrt__fail(s, SGRT_ERR_STALE_HANDLE, function, stale, node);
        if (err)
            *err = r;
    }
    return slot;
}

/* What an object argument `arg` of `kind` ("tracker", "node set", "writer")
 * can be instead of a live object of s: for sgrt__object_problem. */
#define SGRT__WHY_OBJECT(arg, kind)                                                    \
    {                                                                                  \
        arg " is zero: not a " kind " (a zero-initialised handle, or one never set "   \
            "by its create)",                                                          \
            arg " is not a live " kind " of s: destroyed, or of another scene",        \
            arg " is not a " kind ": it names a live object of another kind"           \
    }

/* The object `id` names, an argument of `function` that must be a live
 * object of s of `kind`, or NULL after refusing it: reported with why[]
 * (SGRT__WHY_OBJECT), and *err (when err is not NULL) is what the call
 * returns, INVALID_ARG (EXECUTOR while the scene is busy). Reads nothing but
 * the scene's object table. */
static inline void *sgrt__object_arg(const sgrt_scene *s, uint32_t id, uint32_t kind,
                                     const char *const why[3], const char *function,
                                     sgrt_result *err)
{
    void *obj = sgrt__object_get(s, id, kind);
    if (!obj) {
        const sgrt_result r = sgrt__fail(s, SGRT_ERR_INVALID_ARG, function,
                                         sgrt__object_problem(s, id, why), SGRT_NULL_NODE);
        if (err)
            *err = r;
    }
    return obj;
}

#endif
