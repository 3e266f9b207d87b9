/* SPDX-License-Identifier: MIT */
/* A program that drops an sgrt_result: with the header's SGRT_NODISCARD the
 * compiler warns (the nodiscard tests build it with -Werror and must fail),
 * and with SGRT_NODISCARD defined as nothing it compiles cleanly. */
#include <sgrt.h>

int main(void)
{
    sgrt_scene *s = NULL;
    sgrt_scene_create(NULL, &s); /* dropped */
    sgrt_scene_destroy(s);
    return 0;
}
