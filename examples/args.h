/* SPDX-License-Identifier: MIT */
/* The examples' command-line numbers: a whole decimal number within a range,
 * or a message on stderr. Each example parses its options with getopt_long
 * and exits with status 2 on a value this refuses; those that take no
 * option but --help parse it here. */
#ifndef SGRT_EXAMPLES_ARGS_H
#define SGRT_EXAMPLES_ARGS_H

#include <errno.h>
#include <getopt.h>
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

/* The command line of an example that takes no option but --help: -1 to go
 * on, or the status to exit with once the usage is printed (0 after --help;
 * 2, on stderr, after anything else). */
static inline int args_help_only(int argc, char **argv)
{
    static const struct option longopts[] = {{"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
    const int c = getopt_long(argc, argv, "h", longopts, NULL);
    if (c == -1 && optind >= argc)
        return -1;
    if (c == -1)
        fprintf(stderr, "%s: unexpected argument %s\n", argv[0], argv[optind]);
    fprintf(c == 'h' ? stdout : stderr, "usage: %s [--help]\n", argv[0]);
    return c == 'h' ? 0 : 2;
}

#endif
