/* SPDX-License-Identifier: MIT */
/* The library's version at run time. A program linked against the shared
 * library may run with a newer one than the header it was compiled with;
 * these report the library's own, built from the same macros as the header
 * (whose agreement with meson's project version the build checks). */
#include "sgrt.h"

#define SGRT__STR(x) #x
#define SGRT__XSTR(x) SGRT__STR(x)

uint32_t sgrt_version(void)
{
    return SGRT_VERSION;
}

const char *sgrt_version_string(void)
{
    return SGRT__XSTR(SGRT_VERSION_MAJOR) "." SGRT__XSTR(SGRT_VERSION_MINOR) "."
           SGRT__XSTR(SGRT_VERSION_PATCH);
}
