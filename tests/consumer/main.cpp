// SPDX-License-Identifier: MIT
// The C++ layer as an installed sgrt gives it: include/sgrt.hpp next to
// sgrt.h, through find_package(sgrt) (tests/consumer/consumer.py and
// tests/cmake/cmake_build.py build it when they have a C++ compiler).
// argv[1]: the version the library must report. Exit 0 when every check
// passes.
#include <sgrt.hpp>

#include <array>
#include <cstdio>
#include <cstring>
#include <vector>

int main(int argc, char **argv)
{
    int failures = 0;
    auto check = [&failures](bool ok, const char *what) {
        if (!ok) {
            std::fprintf(stderr, "consumer_cpp: FAILED: %s\n", what);
            failures++;
        }
    };
    {
        sgrt::scene scene;
        if (sgrt::scene::create(nullptr, scene) != SGRT_OK) {
            std::fprintf(stderr, "consumer_cpp: sgrt::scene::create failed\n");
            return 1;
        }
        sgrt::tracker tracker;
        check(sgrt::tracker::create(scene, tracker) == SGRT_OK, "tracker");
        std::vector<sgrt_node> chain(3);
        sgrt_node parent = SGRT_NULL_NODE;
        for (sgrt_node &n : chain) {
            check(scene.node_create(parent, n) == SGRT_OK, "node_create");
            parent = n;
        }
        const std::vector<std::array<float, 3>> t{{1, 2, 3}, {10, 0, 0}, {0, 100, 0}};
        const std::vector<std::array<float, 4>> q(3, {0, 0, 0, 1});
        const std::vector<std::array<float, 3>> s(3, {1, 1, 1});
        check(scene.nodes_set_trs(chain, t, q, s) == SGRT_OK, "nodes_set_trs");
        check(scene.nodes_set_trs(chain, t, q, std::vector<float>(8)) == SGRT_ERR_INVALID_ARG,
              "a short batch is refused");
        check(scene.update() == 3u, "the update recomputes the 3 nodes");
        std::array<float, 16> w{};
        check(scene.node_world(chain[2], w) == SGRT_OK, "node_world");
        check(w[12] == 11.0f && w[13] == 102.0f && w[14] == 3.0f, "the hand's translation");
        sgrt_range r[4];
        std::uint32_t count = 0;
        bool more = true;
        check(tracker.collect(r, 0, count, more) == SGRT_OK && count == 1u && !more, "collect");
    }
    const char *v = sgrt_version_string();
    check(argc > 1 && std::strcmp(v, argv[1]) == 0, "sgrt_version_string() is the expected version");
    std::printf("consumer_cpp: sgrt %s, %d failure(s)\n", v, failures);
    return failures == 0 ? 0 : 1;
}
