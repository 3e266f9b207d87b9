/* SPDX-License-Identifier: MIT */
/* Memory per node, measured: scenes built through a counting allocator,
 * their bytes divided by their nodes (what the README's figures come from). */
#ifndef SGRT_BENCH_MEMORY_H
#define SGRT_BENCH_MEMORY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* Print the table; false on NOMEM. */
bool bench_memory_print(FILE *out, uint32_t nodes);

#endif
