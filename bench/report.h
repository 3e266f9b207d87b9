/* SPDX-License-Identifier: MIT */
/* How a benchmark run is shown: the description of the build and machine,
 * the tables of ns per node and ratios, the targets, the verdict, and the
 * CSV that bench/plot.sh reads. What the run found is results.h; the peers'
 * part of the report is report_peers.h. */
#ifndef SGRT_BENCH_REPORT_H
#define SGRT_BENCH_REPORT_H

#include "results.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The 1-, 5- and 15-minute load averages, "?" where unknown. */
void bench_read_load(char *buf, size_t size);

/* Busy CPU time of the whole machine and of this process, in seconds, and
 * the wall clock (ns); the machine's is NAN where /proc/stat is missing. */
typedef struct bench_cpu_use {
    double machine, self, wall;
} bench_cpu_use;
void bench_cpu_use_read(bench_cpu_use *u);
/* The CPUs other programs kept busy on average from a to b: the machine's
 * busy time less this process's, over the wall time; NAN when unknown. */
double bench_others_cpus(const bench_cpu_use *a, const bench_cpu_use *b);

/* Build and machine description, tables, targets and the verify line. */
void bench_report_print(FILE *out, const bench_results *r);

/* The verdict (report_verdict.c): the warm peers rows as a table of sgrt's
 * frame against naive, flat and fused, who is faster and by how much, and
 * sentences drawn from those ratios. */
void bench_verdict_print(FILE *out, const bench_results *r);
/* "model name (family F model M)" from /proc/cpuinfo, or "unknown CPU". */
void bench_cpu_string(char *buf, size_t size);

/* The same as CSV: a '#' header, then blocks separated by blank lines:
 * rows (ns per node and ratios), targets, the scaling report. Returns false if the file
 * cannot be written. */
bool bench_report_csv(const char *path, const bench_results *r);

#endif
