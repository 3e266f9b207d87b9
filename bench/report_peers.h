/* SPDX-License-Identifier: MIT */
/* The peers' part of the report (report_peers.c), which report.c places in
 * its text and CSV. */
#ifndef SGRT_BENCH_REPORT_PEERS_H
#define SGRT_BENCH_REPORT_PEERS_H

#include "results.h"

#include <stdio.h>

/* The peers table, its targets P1..P4 and its build lines; nothing when no
 * peers scene ran. */
void bench_report_peers_print(FILE *out, const bench_results *r);
/* The peers header lines, each starting with pfx. */
void bench_report_peers_build(FILE *out, const char *pfx, const bench_results *r);
/* CSV blocks of the peers table and targets (after a blank line each). */
void bench_report_peers_csv(FILE *f, const bench_results *r);

#endif
