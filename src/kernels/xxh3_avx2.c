/* SPDX-License-Identifier: MIT */
/* XXH3 on AVX2 (compiled with -mavx2; chosen only where the CPU has it:
 * SGRT__CPU_AVX2). */
#define NAME(f) sgrt__xxh3_##f##_avx2
#include "xxh3_wide.h"
