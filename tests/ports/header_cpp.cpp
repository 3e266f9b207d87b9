/* SPDX-License-Identifier: MIT */
// include/sgrt.h alone as C++: extern "C" linkage, SGRT_NULL_NODE as a C++
// expression, and a program linked against the C library.
#include "sgrt.h"
#include "sgrt.h"

#include <cstdio>

static_assert(sizeof(sgrt_node) == sizeof(uint32_t), "a handle is one 32-bit id");
static_assert(SGRT_OK == 0, "SGRT_OK is 0");

int main()
{
    bool bad = false;
    const sgrt_node null_node = SGRT_NULL_NODE;
    sgrt_scene *s = nullptr;
    sgrt_node parent = SGRT_NULL_NODE, child = SGRT_NULL_NODE;
    const float t[3] = {1.0f, 2.0f, 3.0f}, q[4] = {0.0f, 0.0f, 0.0f, 1.0f};
    const float sc[3] = {2.0f, 2.0f, 2.0f};
    float w[16];

    bad |= null_node.id != 0u;
    bad |= sgrt_scene_create(nullptr, &s) != SGRT_OK;
    bad |= sgrt_node_create(s, SGRT_NULL_NODE, &parent) != SGRT_OK;
    bad |= sgrt_node_create(s, parent, &child) != SGRT_OK;
    bad |= sgrt_node_set_trs(s, parent, t, q, sc) != SGRT_OK;
    bad |= sgrt_node_set_trs(s, child, t, q, sc) != SGRT_OK;
    bad |= sgrt_scene_update(s) != 2u;
    bad |= sgrt_node_world(s, child, w) != SGRT_OK;
    // parent (scale 2, translate t) x child (scale 2, translate t): translation 3t, scale 4.
    bad |= w[0] != 4.0f || w[12] != 3.0f || w[13] != 6.0f || w[14] != 9.0f;
    bad |= sgrt_node_set_parent(s, child, SGRT_NULL_NODE, SGRT_KEEP_WORLD) != SGRT_OK;
    sgrt_scene_destroy(s);
    std::puts(bad ? "header_cpp: FAILED" : "header_cpp: ok");
    return bad ? 1 : 0;
}
