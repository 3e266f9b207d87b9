/* SPDX-License-Identifier: MIT */
/* How every section of the benchmark shows a figure: a fixed-width cell,
 * a target's result, a target's line. */
#ifndef SGRT_BENCH_TABLE_H
#define SGRT_BENCH_TABLE_H

#include <stdbool.h>
#include <stdio.h>

/* A fixed-width number for the tables: enough digits to read ratios far
 * below 1 and far above, '-' for NAN. buf holds 16 bytes. */
const char *bench_cell(char *buf, double v);

/* A target's result: "n/a" when value was not measured (NAN), "info" when
 * the target has no goal (NAN), else "PASS" when value <= goal (at_most)
 * or value >= goal, "MISS" when not. */
const char *bench_verdict(double value, double goal, bool at_most);

/* One line of the bounds and large-world target tables: id, what, value
 * (3 decimals), goal with its sign, result, the kernel that ran. */
void bench_target_line(FILE *out, const char *id, const char *what, double value, double goal,
                       bool at_most, const char *kernel);

#endif
