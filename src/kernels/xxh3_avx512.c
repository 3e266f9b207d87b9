/* SPDX-License-Identifier: MIT */
/* XXH3 on AVX-512F (compiled with the AVX-512 kernels' -mavx512f). */
#define NAME(f) sgrt__xxh3_##f##_avx512
#include "xxh3_wide.h"
