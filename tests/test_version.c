/* SPDX-License-Identifier: MIT */
/* The run-time version against the header's macros and against meson's
 * project version (argv[1], passed by tests/meson.build): a release that
 * bumps one and not the others fails here. */
#include "testutil.h"

int main(int argc, char **argv)
{
    CHECK_EQ_U(SGRT_VERSION, (uint64_t)SGRT_VERSION_MAJOR * 10000u +
                                 (uint64_t)SGRT_VERSION_MINOR * 100u + SGRT_VERSION_PATCH);
    /* Two decimal digits each, or the packed number is ambiguous. */
    CHECK(SGRT_VERSION_MINOR < 100 && SGRT_VERSION_PATCH < 100);
    CHECK_EQ_U(sgrt_version(), SGRT_VERSION);

    char want[64];
    snprintf(want, sizeof want, "%d.%d.%d", SGRT_VERSION_MAJOR, SGRT_VERSION_MINOR,
             SGRT_VERSION_PATCH);
    const char *got = sgrt_version_string();
    CHECK(got != NULL);
    if (got && strcmp(got, want) != 0) {
        FAIL("sgrt_version_string() = \"%s\", the header says %s", got, want);
    }
    CHECK(got == sgrt_version_string()); /* static, not rebuilt per call */

    CHECK(argc == 2);
    if (argc == 2 && got && strcmp(got, argv[1]) != 0) {
        FAIL("sgrt_version_string() = \"%s\", meson's project version is %s", got, argv[1]);
    }
    return test_report("test_version");
}
