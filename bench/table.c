/* SPDX-License-Identifier: MIT */
/* Cells, results and target lines of the benchmark's tables (table.h). */
#include "table.h"

#include <math.h>

const char *bench_cell(char *buf, double v)
{
    if (isnan(v))
        snprintf(buf, 16, "-");
    else if (v < 0.01)
        snprintf(buf, 16, "%.5f", v);
    else if (v < 10)
        snprintf(buf, 16, "%.3f", v);
    else if (v < 1000)
        snprintf(buf, 16, "%.1f", v);
    else
        snprintf(buf, 16, "%.0f", v);
    return buf;
}

const char *bench_verdict(double value, double goal, bool at_most)
{
    if (isnan(value))
        return "n/a";
    if (isnan(goal))
        return "info";
    return (at_most ? value <= goal : value >= goal) ? "PASS" : "MISS";
}

void bench_target_line(FILE *out, const char *id, const char *what, double value, double goal,
                       bool at_most, const char *kernel)
{
    fprintf(out, "%-3s %-58s %7.3f %s%-5g %-4s  (%s)\n", id, what, value, at_most ? "<=" : ">=",
            goal, bench_verdict(value, goal, at_most), kernel);
}
