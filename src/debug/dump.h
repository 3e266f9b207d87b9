/* SPDX-License-Identifier: MIT */
/* Number formatting without stdio (dump.c). */
#ifndef SGRT_DEBUG_DUMP_H
#define SGRT_DEBUG_DUMP_H

#include "../internal.h"

/* `f` as printf's "%.9g" writes it in the C locale, NUL-terminated (at most
 * 16 bytes with the NUL); "inf", "-inf", "nan" (no sign) when not finite.
 * Returns the length. */
uint32_t sgrt__format_float(float f, char out[16]);

#endif
