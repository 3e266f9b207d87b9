/* SPDX-License-Identifier: MIT */
/* include/sgrt.h alone (twice: the include guard), as strict C11, then
 * linked and used: the declarations match the library. */
#include "sgrt.h"
#include "sgrt.h"

#include <stdio.h>

int main(void)
{
    int bad = 0;
    const sgrt_node null_node = SGRT_NULL_NODE;
    sgrt_scene *s = NULL;
    sgrt_node n = SGRT_NULL_NODE;
    float w[16];
    const float t[3] = {1.0f, 2.0f, 3.0f}, q[4] = {0.0f, 0.0f, 0.0f, 1.0f}, sc[3] = {1.0f, 1.0f, 1.0f};

    bad |= null_node.id != 0u;
    bad |= sgrt_result_str(SGRT_OK) == NULL;
    bad |= sgrt_simd_name() == NULL;
    bad |= sgrt_scene_create(NULL, &s) != SGRT_OK;
    bad |= sgrt_node_create(s, SGRT_NULL_NODE, &n) != SGRT_OK;
    bad |= sgrt_node_set_trs(s, n, t, q, sc) != SGRT_OK;
    bad |= sgrt_scene_update(s) != 1u;
    bad |= sgrt_node_world(s, n, w) != SGRT_OK;
    bad |= w[12] != 1.0f || w[13] != 2.0f || w[14] != 3.0f || w[15] != 1.0f;
    sgrt_scene_destroy(s);
    puts(bad ? "header_c11: FAILED" : "header_c11: ok");
    return bad;
}
