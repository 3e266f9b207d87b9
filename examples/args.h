/* SPDX-License-Identifier: MIT */
/* The examples' command-line numbers: a whole decimal number within a range,
 * or a message on stderr. Each example parses its options with getopt_long
 * and exits with status 2 on a value this refuses. */
#ifndef SGRT_EXAMPLES_ARGS_H
#define SGRT_EXAMPLES_ARGS_H

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

/* Parse s, the value of option opt, into *out when it is a whole number in
 * [lo, hi]; otherwise say so on stderr and return false. */
static inline bool arg_int(const char *opt, const char *s, long lo, long hi, int *out)
{
    char *end;
    errno = 0;
    const long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi) {
        fprintf(stderr, "%s %s: expected a whole number from %ld to %ld\n", opt, s, lo, hi);
        return false;
    }
    *out = (int)v;
    return true;
}

#endif
