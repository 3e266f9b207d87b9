/* SPDX-License-Identifier: MIT */
/* The log: refusals, warnings, what a failed growth says (result.c). */
#ifndef SGRT_RESULT_H
#define SGRT_RESULT_H

#include "internal.h"

/* Call `log` (when not NULL) with one entry. */
void sgrt__report(sgrt_log_fn log, void *user, sgrt_result code, const char *function,
                  const char *message, sgrt_node node);
/* Report a refusal through the scene's log, if it has one, and return
 * `code`: `return sgrt__fail(s, SGRT_ERR_INVALID_ARG, "sgrt_node_set_trs",
 * "t is NULL", node);`. s may be NULL (nothing to report to). The strings
 * are static. Out of line and cold: a call pays for it only when it
 * refuses. */
sgrt_result sgrt__fail(const sgrt_scene *s, sgrt_result code, const char *function,
                       const char *message, sgrt_node node);

/* A warning: reported with SGRT_OK, the call goes on. */
void sgrt__warn(const sgrt_scene *s, const char *function, const char *message, sgrt_node node);
/* A call into a busy scene (sgrt_scene_update_parallel is running its
 * tasks): reported, SGRT_ERR_EXECUTOR. */
sgrt_result sgrt__reentered(const sgrt_scene *s, const char *function);
/* sgrt__fail for a call whose allocation or growth failed (NOMEM,
 * ALIGNMENT, CAPACITY from the storage or handle limits): the message says
 * which. */
sgrt_result sgrt__fail_grow(const sgrt_scene *s, sgrt_result code, const char *function,
                            sgrt_node node);
#endif
