/* SPDX-License-Identifier: MIT */
/* The examples' check of sgrt results. Where an example cannot go on after
 * a failed call (its own bug, or the library's), MUST reports the call and
 * its result on stderr and exits with status 1; the examples show how a
 * program recovers where recovering makes sense, and use MUST elsewhere
 * rather than dropping the result. */
#ifndef SGRT_EXAMPLES_MUST_H
#define SGRT_EXAMPLES_MUST_H

#include <sgrt.h>
#include <stdio.h>
#include <stdlib.h>

static inline void must_at(sgrt_result r, const char *call, const char *file, int line)
{
    if (r != SGRT_OK) {
        fprintf(stderr, "%s:%d: %s: %s\n", file, line, call, sgrt_result_str(r));
        exit(1);
    }
}

#define MUST(call) must_at((call), #call, __FILE__, __LINE__)

#endif
