// SPDX-License-Identifier: MIT
// include/sgrt.hpp: every wrapper against the C calls it wraps. Built twice
// (tests/cpp/meson.build): as plain C++17, and with -fno-exceptions
// -fno-rtti. sgrt.hpp comes first: it must compile alone.
#include "sgrt.hpp"

#include <array>
#include <limits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>
#if defined(_WIN32)
#include <malloc.h>
#endif
// glm where it is installed (Debian: libglm-dev): the types users pass most.
#if __has_include(<glm/glm.hpp>)
#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/gtc/matrix_transform.hpp>
#define HAVE_GLM 1
#endif

static int failures;
static long checks;

#define CHECK(cond)                                                                    \
    do {                                                                               \
        checks++;                                                                      \
        if (!(cond)) {                                                                 \
            failures++;                                                                \
            std::fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
        }                                                                              \
    } while (0)

#define CHECK_RES(expr, expected)                                                      \
    do {                                                                               \
        const sgrt_result r_ = (expr);                                                 \
        checks++;                                                                      \
        if (r_ != (expected)) {                                                        \
            failures++;                                                                \
            std::fprintf(stderr, "%s:%d: %s returned %s, expected %s\n", __FILE__, __LINE__, \
                         #expr, sgrt_result_str(r_), sgrt_result_str(expected));       \
        }                                                                              \
    } while (0)

#define OK(expr) CHECK_RES(expr, SGRT_OK)

// ---- compile-time promises ------------------------------------------------

template <class T>
constexpr bool move_only = !std::is_copy_constructible<T>::value &&
                           !std::is_copy_assignable<T>::value &&
                           std::is_nothrow_move_constructible<T>::value &&
                           std::is_nothrow_move_assignable<T>::value;
static_assert(move_only<sgrt::scene>, "scene is move-only");
static_assert(move_only<sgrt::tracker>, "tracker is move-only");
static_assert(move_only<sgrt::nodeset>, "nodeset is move-only");
static_assert(move_only<sgrt::writer>, "writer is move-only");
static_assert(move_only<sgrt::skin>, "skin is move-only");
static_assert(std::is_nothrow_destructible<sgrt::scene>::value, "no throwing destructor");

// A user's matrix and vector types, as glm's: plain structs of floats.
struct mat16 {
    float m[16];
};
struct vec3 {
    float x, y, z;
};
struct quat {
    float x, y, z, w;
};
static_assert(sgrt::detail::float_count<mat16>::value == 16, "a struct of 16 floats");
static_assert(sgrt::detail::float_count<std::array<float, 16>>::value == 16, "std::array");
static_assert(sgrt::detail::float_count<float[4][4]>::value == 16, "float[4][4]");
static_assert(sgrt::detail::float_count<double>::value == 0, "double is not made of floats");
static_assert(sgrt::detail::float_count<std::array<double, 8>>::value == 0, "nor are doubles");
static_assert(sgrt::detail::float_count<std::vector<float>>::value == 0, "a container is no item");
// Outputs take writable data only; a view is never read as a container of
// floats (its size() counts items).
static_assert(std::is_constructible<sgrt::mat4_span, std::vector<float> &>::value, "out");
static_assert(std::is_constructible<sgrt::mat4_span, mat16 &>::value, "one matrix out");
static_assert(!std::is_constructible<sgrt::mat4_span, const std::vector<float> &>::value,
              "no output into const data");
static_assert(!std::is_constructible<sgrt::mat4_span, const mat16 &>::value, "nor one item");
static_assert(!std::is_constructible<sgrt::mat4_view, sgrt::vec4_view>::value, "no view of a view");
static_assert(!std::is_constructible<sgrt::mat4_view, sgrt::mat4_span>::value, "no view of a span");

// ---- helpers ----------------------------------------------------------------

// Counts every block: what is live, and frees of blocks it never handed out.
struct counting_allocator {
    std::unordered_map<void *, std::size_t> live;
    long allocs = 0, frees = 0, bad_frees = 0;
    sgrt_allocator hooks{};

    counting_allocator()
    {
        hooks.alloc = [](std::size_t size, std::size_t align, void *user) -> void * {
            auto *self = static_cast<counting_allocator *>(user);
            const std::size_t rounded = (size + align - 1u) / align * align;
#if defined(_WIN32) // no aligned_alloc: _aligned_malloc's blocks go to _aligned_free
            void *p = _aligned_malloc(rounded == 0 ? align : rounded, align);
#else
            void *p = std::aligned_alloc(align, rounded == 0 ? align : rounded);
#endif
            if (p) {
                self->allocs++;
                self->live[p] = size;
            }
            return p;
        };
        hooks.free = [](void *p, std::size_t size, void *user) {
            auto *self = static_cast<counting_allocator *>(user);
            self->frees++;
            auto it = self->live.find(p);
            if (it == self->live.end() || it->second != size) {
                self->bad_frees++;
                return;
            }
            self->live.erase(it);
#if defined(_WIN32)
            _aligned_free(p);
#else
            std::free(p);
#endif
        };
        hooks.user = this;
    }
};

// Counts the refusals reported, the library's and the wrappers' own, and
// keeps the last one.
struct log_count {
    long entries = 0;
    sgrt_result last = SGRT_OK;
    std::string function, message;
    static void fn(void *user, const sgrt_log_entry *e)
    {
        auto *self = static_cast<log_count *>(user);
        self->entries++;
        self->last = e->code;
        self->function = e->function;
        self->message = e->message;
    }
    // A desc whose log is this one.
    sgrt_scene_desc desc()
    {
        sgrt_scene_desc d{};
        d.log = fn;
        d.log_user = this;
        return d;
    }
    // One more entry since `before`, INVALID_ARG from `function`, its
    // message starting with `start`.
    bool one(long before, const char *function, const char *start) const
    {
        return entries == before + 1 && last == SGRT_ERR_INVALID_ARG && this->function == function &&
               message.compare(0, std::strlen(start), start) == 0;
    }
};

static float next_float(std::uint32_t &state, float lo, float hi)
{
    state = state * 1664525u + 1013904223u;
    return lo + (hi - lo) * static_cast<float>(state >> 8) / 16777216.0f;
}

// A local with rotation, scale and translation: worlds differ in every entry.
static std::array<float, 16> some_local(std::uint32_t &state)
{
    std::array<float, 16> m{};
    for (int c = 0; c < 3; c++)
        for (int r = 0; r < 3; r++)
            m[static_cast<std::size_t>(c * 4 + r)] = next_float(state, -1.5f, 1.5f);
    m[12] = next_float(state, -10, 10);
    m[13] = next_float(state, -10, 10);
    m[14] = next_float(state, -10, 10);
    m[15] = 1.0f;
    return m;
}

static bool same_bits(const float *a, const float *b, std::size_t n)
{
    return std::memcmp(a, b, n * sizeof(float)) == 0;
}

// A 4-ary tree of n nodes made in both scenes by the same calls, so that
// both have the same slots.
static void make_tree(sgrt::scene &cpp, std::vector<sgrt_node> &cpp_nodes, sgrt_scene *c,
                      std::vector<sgrt_node> &c_nodes, std::size_t n)
{
    for (std::size_t i = 0; i < n; i++) {
        sgrt_node a = SGRT_NULL_NODE, b = SGRT_NULL_NODE;
        OK(cpp.node_create(i ? cpp_nodes[(i - 1) / 4] : SGRT_NULL_NODE, a));
        OK(sgrt_node_create(c, i ? c_nodes[(i - 1) / 4] : SGRT_NULL_NODE, &b));
        cpp_nodes.push_back(a);
        c_nodes.push_back(b);
    }
}

// Every node's world, bit for bit, and the same answer to world_now.
static void check_same_worlds(const sgrt::scene &cpp, const std::vector<sgrt_node> &cpp_nodes,
                              const sgrt_scene *c, const std::vector<sgrt_node> &c_nodes)
{
    bool same = cpp_nodes.size() == c_nodes.size();
    for (std::size_t i = 0; same && i < cpp_nodes.size(); i++) {
        std::array<float, 16> a{}, b{}, now{};
        OK(cpp.node_world(cpp_nodes[i], a));
        OK(sgrt_node_world(c, c_nodes[i], b.data()));
        OK(cpp.node_world_now(cpp_nodes[i], now));
        same = same_bits(a.data(), b.data(), 16) && same_bits(a.data(), now.data(), 16);
    }
    CHECK(same);
}

// ---- sgrt_node: ==, !=, std::hash ---------------------------------------

static void test_node_identity()
{
    sgrt::scene s;
    OK(sgrt::scene::create(nullptr, s));
    std::vector<sgrt_node> nodes(100);
    for (auto &n : nodes)
        OK(s.node_create(SGRT_NULL_NODE, n));

    const sgrt_node a = nodes[0], a2 = nodes[0], b = nodes[1];
    CHECK(a == a2 && !(a != a2));
    CHECK(a != b && !(a == b));
    CHECK(SGRT_NULL_NODE == sgrt_node{0});
    CHECK(std::hash<sgrt_node>{}(a) == std::hash<sgrt_node>{}(a2));

    std::unordered_set<sgrt_node> set(nodes.begin(), nodes.end());
    CHECK(set.size() == nodes.size());
    for (const auto &n : nodes)
        CHECK(set.count(n) == 1);
    CHECK(set.count(SGRT_NULL_NODE) == 0);
    set.insert(a2); // already there
    CHECK(set.size() == nodes.size());
    OK(s.node_destroy(b));
    CHECK(!s.node_alive(b));
    set.erase(b);
    CHECK(set.size() == nodes.size() - 1 && set.count(b) == 0);
}

// ---- ownership: move-only, destroyed once, no leak ------------------------

static void test_ownership()
{
    counting_allocator ca;
    sgrt_scene_desc desc{};
    desc.allocator = &ca.hooks;
    {
        sgrt::scene s;
        CHECK(!s && s.get() == nullptr);
        OK(sgrt::scene::create(&desc, s));
        CHECK(s && s.get() != nullptr);
        sgrt_scene *raw = s.get();

        sgrt_node root = SGRT_NULL_NODE, kid = SGRT_NULL_NODE;
        OK(s.node_create(SGRT_NULL_NODE, root));
        OK(s.node_create(root, kid));

        sgrt::tracker t1, t2, t3;
        OK(sgrt::tracker::create(s, t1));
        OK(sgrt::tracker::create(s, t2));
        OK(sgrt::tracker::create(s, t3));
        sgrt::nodeset set;
        OK(sgrt::nodeset::create(s, set));
        sgrt::writer w;
        const sgrt_node both[] = {root, kid};
        OK(sgrt::writer::create(s, both, 0, w));
        CHECK(w.size() == 2u);

        // A failed create leaves its output as it was.
        sgrt_scene_desc bad{};
        bad.max_nodes = SGRT_MAX_NODES + 1u;
        CHECK_RES(sgrt::scene::create(&bad, s), SGRT_ERR_INVALID_ARG);
        CHECK(s.get() == raw);

        // Moves: the source is empty, the target owns, the scene is the same.
        sgrt::scene moved(std::move(s));
        CHECK(!s && s.get() == nullptr && moved.get() == raw);
        CHECK(s.node_count() == 0u && moved.node_count() == 2u);
        sgrt::scene other;
        other = std::move(moved);
        CHECK(!moved && other.get() == raw);

        sgrt_tracker t2_raw = t2.get();
        sgrt::tracker t4(std::move(t2)); // from the middle of the scene's list
        CHECK(!t2 && t2.get() == SGRT_NULL_TRACKER && t4.get() == t2_raw && t2_raw.id != 0u);
        t1 = std::move(t4); // t1's tracker destroyed, t4's taken
        CHECK(!t4 && t1.get() == t2_raw);
        sgrt_writer w_raw = w.get();
        sgrt::writer w2(std::move(w));
        CHECK(!w && w.size() == 0u && w2.get() == w_raw && w2.size() == 2u);
        sgrt::nodeset set2;
        set2 = std::move(set);
        CHECK(!set && set2);

        // The wrappers follow the moved scene: they still work through it.
        OK(set2.add(kid));
        CHECK(set2.has(kid) && set2.count() == 1u);
        std::array<sgrt_range, 4> ranges{};
        std::uint32_t n = 0;
        bool more = true;
        OK(t1.collect(ranges, 0, n, more));
        CHECK(n == 1u && !more);
        OK(t1.check());

        // Empty wrappers: destroy is a no-op, calls are refused.
        OK(t2.destroy());
        OK(w.destroy());
        CHECK_RES(t2.collect(ranges, 0, n, more), SGRT_ERR_INVALID_ARG);
        CHECK_RES(w.set_local(std::vector<std::array<float, 16>>{}), SGRT_ERR_INVALID_ARG);

        // An explicit destroy reports the C result, and empties the object.
        OK(t3.destroy());
        CHECK(!t3);
        OK(t3.destroy());
        OK(w2.destroy());
        CHECK(!w2 && w2.size() == 0u);
        // t1, set2 and `other` go at the end of the scope: the wrappers first.
    }
    CHECK(ca.allocs > 0 && ca.frees == ca.allocs);
    CHECK(ca.live.empty());
    CHECK(ca.bad_frees == 0);

    // Wrappers that outlive their scene are emptied by its destructor, not
    // left dangling (ASan would see their destructors touch the freed scene).
    {
        sgrt::tracker late_t;
        sgrt::nodeset late_set;
        sgrt::writer late_w;
        {
            sgrt::scene s;
            OK(sgrt::scene::create(&desc, s));
            sgrt_node n = SGRT_NULL_NODE;
            OK(s.node_create(SGRT_NULL_NODE, n));
            OK(sgrt::tracker::create(s, late_t));
            OK(sgrt::nodeset::create(s, late_set));
            OK(sgrt::writer::create(s, {n}, 0, late_w));
            CHECK(late_t && late_set && late_w);
        }
        CHECK(!late_t && !late_set && !late_w && late_w.size() == 0u);
        CHECK_RES(late_set.add(SGRT_NULL_NODE), SGRT_ERR_INVALID_ARG);
        OK(late_t.destroy());
    }
    CHECK(ca.live.empty() && ca.frees == ca.allocs && ca.bad_frees == 0);

    // Adopting a C scene; destroy() by hand, then the destructor: once.
    {
        sgrt_scene *raw = nullptr;
        OK(sgrt_scene_create(&desc, &raw));
        sgrt::scene s(raw);
        CHECK(s.get() == raw);
        s.destroy();
        CHECK(!s);
    }
    CHECK(ca.live.empty() && ca.frees == ca.allocs && ca.bad_frees == 0);
}

// Every refusal of the wrappers' own is reported through the scene's log,
// once, naming the argument; the C layer does not report it a second time.
static void test_refusals_reported()
{
    log_count log;
    const sgrt_scene_desc desc = log.desc();
    sgrt::scene s;
    OK(sgrt::scene::create(&desc, s));
    sgrt_node n = SGRT_NULL_NODE;
    OK(s.node_create(SGRT_NULL_NODE, n));
    CHECK(s.update() == 1u);
    long logged = log.entries;
    CHECK(logged == 0);

    // A tracker moved from, and one destroyed.
    sgrt::tracker t, t_moved;
    OK(sgrt::tracker::create(s, t));
    sgrt::tracker t_new(std::move(t));
    std::array<sgrt_range, 4> ranges{};
    std::uint32_t count = 7;
    bool more = true;
    CHECK_RES(t.collect(ranges, 0, count, more), SGRT_ERR_INVALID_ARG);
    CHECK(log.one(logged++, "sgrt_tracker_collect", "this sgrt::tracker is empty"));
    CHECK(count == 0u && !more); // as the C call answers a refusal
    CHECK_RES(t.check(), SGRT_ERR_INVALID_ARG);
    CHECK(log.one(logged++, "sgrt_tracker_check", "this sgrt::tracker is empty"));
    OK(t_new.collect(ranges, 0, count, more));
    CHECK(log.entries == logged);
    OK(t_new.destroy());
    CHECK_RES(t_new.collect(ranges, 0, count, more), SGRT_ERR_INVALID_ARG);
    CHECK(log.one(logged++, "sgrt_tracker_collect", "this sgrt::tracker is empty"));
    OK(t_new.destroy()); // destroying an empty wrapper is no refusal
    CHECK(log.entries == logged);
    // Moved into: the target's old tracker destroyed; the source empty, and
    // tied to the scene still.
    OK(sgrt::tracker::create(s, t_moved));
    OK(sgrt::tracker::create(s, t_new));
    t_new = std::move(t_moved);
    CHECK(t_new && !t_moved);
    CHECK_RES(t_moved.check(), SGRT_ERR_INVALID_ARG);
    CHECK(log.one(logged++, "sgrt_tracker_check", "this sgrt::tracker is empty"));
    // Given a new object, an emptied wrapper works again.
    OK(sgrt::tracker::create(s, t_moved));
    OK(t_moved.check());
    CHECK(log.entries == logged);

    // Node sets: empty ones as the object and as arguments.
    sgrt::nodeset a, b, gone;
    OK(sgrt::nodeset::create(s, a));
    OK(sgrt::nodeset::create(s, b));
    OK(sgrt::nodeset::create(s, gone));
    OK(gone.destroy());
    CHECK_RES(gone.add(n), SGRT_ERR_INVALID_ARG);
    CHECK(log.one(logged++, "sgrt_nodeset_add", "this sgrt::nodeset is empty"));
    CHECK(!gone.has(n));
    CHECK(log.one(logged++, "sgrt_nodeset_has", "this sgrt::nodeset is empty"));
    CHECK(gone.count() == 0u);
    CHECK(log.one(logged++, "sgrt_nodeset_count", "this sgrt::nodeset is empty"));
    OK(a.add(n));
    CHECK_RES(a.combine(gone, SGRT_SET_OR, b), SGRT_ERR_INVALID_ARG);
    CHECK(log.one(logged++, "sgrt_nodeset_combine", "a is an empty sgrt::nodeset"));
    CHECK_RES(a.combine(b, SGRT_SET_OR, gone), SGRT_ERR_INVALID_ARG);
    CHECK(log.one(logged++, "sgrt_nodeset_combine", "b is an empty sgrt::nodeset"));
    CHECK(a.has(n) && a.count() == 1u);
    CHECK_RES(a.from_changes(t, SGRT_SET_OR, nullptr, false), SGRT_ERR_INVALID_ARG);
    CHECK(log.one(logged++, "sgrt_nodeset_from_changes", "t is an empty sgrt::tracker"));
    CHECK_RES(a.from_changes(t_new, SGRT_SET_OR, &gone, false), SGRT_ERR_INVALID_ARG);
    CHECK(log.one(logged++, "sgrt_nodeset_from_changes", "b is an empty sgrt::nodeset"));
    CHECK(a.has(n) && a.count() == 1u);
    logged = log.entries;

    // Writers: empty, and batches of the wrong size.
    sgrt::writer w, w_gone;
    OK(sgrt::writer::create(s, {n}, 0, w));
    OK(sgrt::writer::create(s, {n}, 0, w_gone));
    sgrt::writer w_taken(std::move(w_gone));
    std::uint32_t bad = 99;
    const std::array<float, 16> id{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    CHECK_RES(w_gone.set_local(id, &bad), SGRT_ERR_INVALID_ARG);
    CHECK(log.one(logged++, "sgrt_writer_set_local", "this sgrt::writer is empty"));
    float *locals = nullptr;
    const std::uint32_t *slots = nullptr;
    CHECK_RES(w_gone.begin(locals, slots), SGRT_ERR_INVALID_ARG);
    CHECK(log.one(logged++, "sgrt_writer_begin", "this sgrt::writer is empty"));
    CHECK(locals == nullptr && slots == nullptr);
    CHECK_RES(w.set_local(std::vector<std::array<float, 16>>(2, id), &bad), SGRT_ERR_INVALID_ARG);
    CHECK(log.one(logged++, "sgrt_writer_set_local", "locals does not hold one matrix"));
    CHECK_RES(w.set_trs({0, 0, 0}, {0, 0, 0, 1, 0}, {1, 1, 1}, &bad), SGRT_ERR_INVALID_ARG);
    CHECK(log.one(logged++, "sgrt_writer_set_trs", "q does not hold"));
    CHECK_RES(w.set_trs({0, 0}, {0, 0, 0, 1}, {1, 1, 1}, &bad), SGRT_ERR_INVALID_ARG);
    CHECK(log.one(logged++, "sgrt_writer_set_trs", "t does not hold"));
    CHECK_RES(w.set_trs({0, 0, 0}, {0, 0, 0, 1}, {}, &bad), SGRT_ERR_INVALID_ARG);
    CHECK(log.one(logged++, "sgrt_writer_set_trs", "scale does not hold"));
    CHECK(bad == 99u && s.update() == 0u);

    // Single calls of the wrong size.
    CHECK_RES(s.node_set_local(n, {1, 0, 0}), SGRT_ERR_INVALID_ARG);
    CHECK(log.one(logged++, "sgrt_node_set_local", "m does not hold"));
    CHECK_RES(s.node_set_world(n, std::vector<float>(17)), SGRT_ERR_INVALID_ARG);
    CHECK(log.one(logged++, "sgrt_node_set_world", "m does not hold"));
    CHECK_RES(s.node_set_trs(n, {0, 0, 0}, {0, 0, 1}, {1, 1, 1}), SGRT_ERR_INVALID_ARG);
    CHECK(log.one(logged++, "sgrt_node_set_trs", "q does not hold"));
    CHECK_RES(s.node_set_trs(n, {0, 0, 0, 0}, {0, 0, 0, 1}, {1, 1, 1}), SGRT_ERR_INVALID_ARG);
    CHECK(log.one(logged++, "sgrt_node_set_trs", "t does not hold"));
    CHECK_RES(s.node_set_trs(n, {0, 0, 0}, {0, 0, 0, 1}, {1, 1}), SGRT_ERR_INVALID_ARG);
    CHECK(log.one(logged++, "sgrt_node_set_trs", "scale does not hold"));
    CHECK(s.update() == 0u);

    // The scene itself, moved from: it keeps its log. Creating objects of
    // it is refused and reported too.
    sgrt::scene s2(std::move(s));
    CHECK(s.node_count() == 0u);
    CHECK(log.one(logged++, "sgrt_scene_node_count", "this sgrt::scene is empty"));
    sgrt_node m = SGRT_NULL_NODE;
    CHECK_RES(s.node_create(SGRT_NULL_NODE, m), SGRT_ERR_INVALID_ARG);
    CHECK(log.one(logged++, "sgrt_node_create", "this sgrt::scene is empty"));
    sgrt::tracker t_none;
    CHECK_RES(sgrt::tracker::create(s, t_none), SGRT_ERR_INVALID_ARG);
    CHECK(log.one(logged++, "sgrt_tracker_create", "this sgrt::scene is empty"));
    sgrt::nodeset set_none;
    CHECK_RES(sgrt::nodeset::create(s, set_none), SGRT_ERR_INVALID_ARG);
    CHECK(log.one(logged++, "sgrt_nodeset_create", "this sgrt::scene is empty"));
    sgrt::writer w_none;
    CHECK_RES(sgrt::writer::create(s, {n}, 0, w_none), SGRT_ERR_INVALID_ARG);
    CHECK(log.one(logged++, "sgrt_writer_create", "this sgrt::scene is empty"));
    // The wrappers followed the scene: an empty one reports through it.
    CHECK_RES(gone.clear(), SGRT_ERR_INVALID_ARG);
    CHECK(log.one(logged++, "sgrt_nodeset_clear", "this sgrt::nodeset is empty"));
    OK(a.clear());
    CHECK(s2.node_count() == 1u && log.entries == logged);
    // Culling with empty sets.
    const float planes[4] = {1, 0, 0, 0};
    CHECK_RES(s2.cull(planes, &gone, a), SGRT_ERR_INVALID_ARG);
    CHECK(log.one(logged++, "sgrt_scene_cull", "only is an empty sgrt::nodeset"));
    CHECK_RES(s2.cull(planes, nullptr, gone), SGRT_ERR_INVALID_ARG);
    CHECK(log.one(logged++, "sgrt_scene_cull", "out is an empty sgrt::nodeset"));
    // Destroyed: the same.
    s2.destroy();
    CHECK(!s2.node_alive(n));
    CHECK(log.one(logged++, "sgrt_node_alive", "this sgrt::scene is empty"));

    // No log to report to: a wrapper never created, one whose scene is
    // gone (a, above), a scene adopted without its log.
    sgrt::nodeset never;
    CHECK_RES(never.add(n), SGRT_ERR_INVALID_ARG);
    CHECK_RES(a.add(n), SGRT_ERR_INVALID_ARG);
    sgrt_scene *raw = nullptr;
    OK(sgrt_scene_create(&desc, &raw));
    sgrt::scene adopted(raw);
    CHECK_RES(adopted.node_set_local(n, {1, 0}), SGRT_ERR_INVALID_ARG);
    CHECK(log.entries == logged);
    // Adopted with its log: reported.
    OK(sgrt_scene_create(&desc, &raw));
    sgrt::scene adopted_log(raw, desc.log, desc.log_user);
    CHECK_RES(adopted_log.node_set_local(n, {1, 0}), SGRT_ERR_INVALID_ARG);
    CHECK(log.one(logged++, "sgrt_node_set_local", "m does not hold"));
    // The library's own refusals on it are reported as before (a stale node).
    sgrt_node k = SGRT_NULL_NODE;
    OK(adopted_log.node_create(SGRT_NULL_NODE, k));
    OK(adopted_log.node_destroy(k));
    CHECK_RES(adopted_log.node_set_local(k, id), SGRT_ERR_STALE_HANDLE);
    CHECK(log.entries == logged + 1 && log.last == SGRT_ERR_STALE_HANDLE);
}

// ---- single-node calls against the C calls --------------------------------

static void test_single_calls()
{
    sgrt::scene s;
    sgrt_scene *c = nullptr;
    OK(sgrt::scene::create(nullptr, s));
    OK(sgrt_scene_create(nullptr, &c));
    std::vector<sgrt_node> a, b;
    make_tree(s, a, c, b, 21);
    CHECK(s.node_count() == 21u);

    sgrt_node p = SGRT_NULL_NODE;
    OK(s.node_parent(a[5], p));
    CHECK(p == a[1]);

    std::uint32_t state = 7;
    // set_local from each kind of argument.
    const std::array<float, 16> m0 = some_local(state);
    OK(s.node_set_local(a[0], m0));
    OK(sgrt_node_set_local(c, b[0], m0.data()));
    const std::array<float, 16> m1 = some_local(state);
    mat16 m1s{};
    std::memcpy(m1s.m, m1.data(), sizeof m1s.m);
    OK(s.node_set_local(a[1], m1s));
    OK(sgrt_node_set_local(c, b[1], m1.data()));
    const std::array<float, 16> m2 = some_local(state);
    float m2a[16];
    std::memcpy(m2a, m2.data(), sizeof m2a);
    OK(s.node_set_local(a[2], m2a));
    OK(sgrt_node_set_local(c, b[2], m2.data()));
    const std::vector<float> m3(m0.begin(), m0.end());
    OK(s.node_set_local(a[3], m3));
    OK(sgrt_node_set_local(c, b[3], m0.data()));

    // set_trs from braces, from arrays, from user structs.
    OK(s.node_set_trs(a[4], {1, 2, 3}, {0, 0, 0.6f, 0.8f}, {2, 2, 2}));
    {
        const float t[3] = {1, 2, 3}, q[4] = {0, 0, 0.6f, 0.8f}, sc[3] = {2, 2, 2};
        OK(sgrt_node_set_trs(c, b[4], t, q, sc));
    }
    const vec3 t5{-1, 0.5f, 4}, s5{1, 3, 0.5f};
    const quat q5{0.6f, 0, 0, 0.8f};
    OK(s.node_set_trs(a[5], t5, q5, s5));
    {
        const float t[3] = {-1, 0.5f, 4}, q[4] = {0.6f, 0, 0, 0.8f}, sc[3] = {1, 3, 0.5f};
        OK(s.node_set_trs(a[6], t, q, sc)); // the pointer overload
        OK(sgrt_node_set_trs(c, b[5], t, q, sc));
        OK(sgrt_node_set_trs(c, b[6], t, q, sc));
    }

    // Two matrices where one is expected, a vector of 2 floats, a NULL: refused.
    const std::vector<std::array<float, 16>> two{m0, m1};
    CHECK_RES(s.node_set_local(a[7], two), SGRT_ERR_INVALID_ARG);
    CHECK_RES(s.node_set_trs(a[7], {1, 2}, {0, 0, 0, 1}, {1, 1, 1}), SGRT_ERR_INVALID_ARG);
    CHECK_RES(s.node_set_local(a[7], static_cast<const float *>(nullptr)), SGRT_ERR_INVALID_ARG);

    CHECK(s.update() == sgrt_scene_update(c));
    check_same_worlds(s, a, c, b);

    // Reads: local, world into each kind of output.
    std::array<float, 16> got{};
    OK(s.node_local(a[1], got));
    CHECK(same_bits(got.data(), m1.data(), 16));
    mat16 got_s{};
    OK(s.node_local(a[2], got_s));
    CHECK(same_bits(got_s.m, m2.data(), 16));
    float got_a[16];
    OK(s.node_world(a[0], got_a));
    CHECK(same_bits(got_a, m0.data(), 16));

    // set_world, set_parent (keep world), destroy: the same as in C.
    const std::array<float, 16> w9 = some_local(state);
    OK(s.node_set_world(a[9], w9));
    OK(sgrt_node_set_world(c, b[9], w9.data()));
    OK(s.node_set_parent(a[10], a[3], SGRT_KEEP_WORLD));
    OK(sgrt_node_set_parent(c, b[10], b[3], SGRT_KEEP_WORLD));
    OK(s.node_set_parent(a[11], a[2]));
    OK(sgrt_node_set_parent(c, b[11], b[2], SGRT_KEEP_LOCAL));
    CHECK_RES(s.node_set_parent(a[0], a[4]), SGRT_ERR_CYCLE);
    OK(s.node_destroy(a[20]));
    OK(sgrt_node_destroy(c, b[20]));
    a.pop_back();
    b.pop_back();
    CHECK(s.update() == sgrt_scene_update(c));
    check_same_worlds(s, a, c, b);

    std::uint32_t slots_a = 0, slots_b = 0;
    const float *wa = s.world_array(&slots_a);
    const float *wb = sgrt_scene_world_array(c, &slots_b);
    CHECK(wa != nullptr && slots_a == slots_b);
    for (const sgrt_node n : a) {
        std::uint32_t slot = 0;
        OK(s.node_slot(n, slot));
        std::array<float, 16> w{};
        OK(s.node_world(n, w));
        CHECK(slot < slots_a && same_bits(wa + 16u * slot, w.data(), 16));
    }
    CHECK(wb != nullptr && same_bits(wa, wb, 16u * slots_a) == true);

    OK(s.reserve(1000));
    OK(s.compact());
    OK(s.check());
    check_same_worlds(s, a, c, b);
    sgrt_scene_destroy(c);
}

// ---- batches: from each kind of container, refused on a length mismatch ---

static void test_batches()
{
    log_count log;
    sgrt_scene_desc desc{};
    desc.log = log_count::fn;
    desc.log_user = &log;
    sgrt::scene s;
    sgrt_scene *c = nullptr;
    OK(sgrt::scene::create(&desc, s));
    OK(sgrt_scene_create(nullptr, &c));
    std::vector<sgrt_node> a, b;
    const std::size_t n = 85;
    make_tree(s, a, c, b, n);
    CHECK(s.update() == sgrt_scene_update(c));

    std::uint32_t state = 99;
    // std::vector<std::array<float, 16>>
    std::vector<std::array<float, 16>> locals(n);
    for (auto &m : locals)
        m = some_local(state);
    OK(s.nodes_set_local(a, locals));
    OK(sgrt_nodes_set_local(c, static_cast<std::uint32_t>(n), b.data(), locals[0].data(),
                            nullptr));
    CHECK(s.update() == sgrt_scene_update(c));
    check_same_worlds(s, a, c, b);

    // A vector of structs of 16 floats, a flat vector of floats, a pointer
    // and a count: the same matrices, the same worlds.
    std::vector<mat16> structs(n);
    std::vector<float> flat(16 * n);
    for (std::size_t i = 0; i < n; i++) {
        const std::array<float, 16> m = some_local(state);
        std::memcpy(structs[i].m, m.data(), sizeof structs[i].m);
        std::memcpy(&flat[16 * i], m.data(), sizeof structs[i].m);
    }
    OK(s.nodes_set_local(a, structs));
    OK(sgrt_nodes_set_local(c, static_cast<std::uint32_t>(n), b.data(), flat.data(), nullptr));
    CHECK(s.update() == sgrt_scene_update(c));
    check_same_worlds(s, a, c, b);
    for (std::size_t i = 0; i < n; i += 2)
        flat[16 * i + 12] += 1.0f;
    OK(s.nodes_set_local(sgrt::span<const sgrt_node>(a.data(), n), sgrt::mat4_view(flat.data(), n)));
    OK(sgrt_nodes_set_local(c, static_cast<std::uint32_t>(n), b.data(), flat.data(), nullptr));
    CHECK(s.update() == sgrt_scene_update(c));
    check_same_worlds(s, a, c, b);
    OK(s.nodes_set_local(a, flat)); // bit-identical: marks nothing
    CHECK(s.update() == 0u);

    // TRS from vectors of std::array and of structs.
    std::vector<std::array<float, 3>> t(n), sc(n);
    std::vector<quat> q(n);
    for (std::size_t i = 0; i < n; i++) {
        t[i] = {next_float(state, -5, 5), next_float(state, -5, 5), next_float(state, -5, 5)};
        sc[i] = {next_float(state, 0.5f, 2), 1.0f, next_float(state, 0.5f, 2)};
        q[i] = {0, 0.6f, 0, 0.8f};
    }
    OK(s.nodes_set_trs(a, t, q, sc));
    OK(sgrt_nodes_set_trs(c, static_cast<std::uint32_t>(n), b.data(), t[0].data(), &q[0].x,
                          sc[0].data(), nullptr));
    CHECK(s.update() == sgrt_scene_update(c));
    check_same_worlds(s, a, c, b);

    // A braced list of nodes.
    OK(s.nodes_set_local({a[3], a[4]}, sgrt::mat4_view(locals.data(), 2)));
    OK(sgrt_nodes_set_local(c, 2, &b[3], locals[0].data(), nullptr));
    CHECK(s.update() == sgrt_scene_update(c));
    check_same_worlds(s, a, c, b);

    // Length mismatches: refused before any call, each reported naming the
    // argument; nothing changes.
    long logged = log.entries;
    std::uint32_t bad = 12345;
    std::vector<std::array<float, 16>> short_locals(locals.begin(), locals.end() - 1);
    CHECK_RES(s.nodes_set_local(a, short_locals, &bad), SGRT_ERR_INVALID_ARG);
    CHECK(log.one(logged++, "sgrt_nodes_set_local", "locals does not hold"));
    std::vector<float> ragged(16 * n - 1, 1.0f);
    CHECK_RES(s.nodes_set_local(a, ragged, &bad), SGRT_ERR_INVALID_ARG);
    CHECK(log.one(logged++, "sgrt_nodes_set_local", "locals does not hold"));
    std::vector<float> long_flat(16 * n + 16, 1.0f);
    CHECK_RES(s.nodes_set_local(a, long_flat, &bad), SGRT_ERR_INVALID_ARG);
    CHECK(log.one(logged++, "sgrt_nodes_set_local", "locals does not hold"));
    CHECK_RES(s.nodes_set_trs(a, t, std::vector<quat>(n - 1), sc, &bad), SGRT_ERR_INVALID_ARG);
    CHECK(log.one(logged++, "sgrt_nodes_set_trs", "q does not hold"));
    CHECK_RES(s.nodes_set_trs(a, t, q, std::vector<float>(3 * n + 1, 1.0f), &bad),
              SGRT_ERR_INVALID_ARG);
    CHECK(log.one(logged++, "sgrt_nodes_set_trs", "scale does not hold"));
    CHECK_RES(s.nodes_set_trs(a, std::vector<vec3>(n + 1), q, sc, &bad), SGRT_ERR_INVALID_ARG);
    CHECK(log.one(logged++, "sgrt_nodes_set_trs", "t does not hold"));
    CHECK(bad == 12345u);
    CHECK(s.update() == 0u);

    // A refusal of the library itself is reported, and names the entry.
    std::vector<sgrt_node> with_dead(a.begin(), a.begin() + 4);
    OK(s.node_destroy(with_dead[2]));
    CHECK_RES(s.nodes_set_local(with_dead, sgrt::mat4_view(locals.data(), 4), &bad),
              SGRT_ERR_STALE_HANDLE);
    CHECK(bad == 2u && log.entries == logged + 1 && log.last == SGRT_ERR_STALE_HANDLE);
    sgrt_scene_destroy(c);
}

// ---- writers ---------------------------------------------------------------

static void test_writers()
{
    sgrt::scene s;
    sgrt_scene *c = nullptr;
    OK(sgrt::scene::create(nullptr, s));
    OK(sgrt_scene_create(nullptr, &c));
    std::vector<sgrt_node> a, b;
    const std::size_t n = 64;
    make_tree(s, a, c, b, n); // parents first: entries in slot order
    CHECK(s.update() == sgrt_scene_update(c));

    sgrt::writer wr;
    OK(sgrt::writer::create(s, a, 0, wr));
    CHECK(wr.size() == n);
    sgrt_writer cw = SGRT_NULL_WRITER;
    OK(sgrt_writer_create(c, static_cast<std::uint32_t>(n), b.data(), 0, &cw));

    std::uint32_t state = 3;
    std::vector<std::array<float, 16>> locals(n);
    for (auto &m : locals)
        m = some_local(state);
    OK(wr.set_local(locals));
    OK(sgrt_writer_set_local(c, cw, locals[0].data(), nullptr));
    CHECK(sgrt_scene_update(c) == n);
    CHECK(s.update() == n);
    check_same_worlds(s, a, c, b);

    std::vector<vec3> t(n), sc(n, vec3{1, 1, 1});
    std::vector<std::array<float, 4>> q(n, {0, 0, 0, 1});
    for (auto &v : t)
        v = {next_float(state, -3, 3), next_float(state, -3, 3), next_float(state, -3, 3)};
    OK(wr.set_trs(t, q, sc));
    OK(sgrt_writer_set_trs(c, cw, &t[0].x, q[0].data(), &sc[0].x, nullptr));
    CHECK(s.update() == sgrt_scene_update(c));
    check_same_worlds(s, a, c, b);

    // Length mismatches: refused, nothing written.
    std::uint32_t bad = 777;
    locals.pop_back();
    CHECK_RES(wr.set_local(locals, &bad), SGRT_ERR_INVALID_ARG);
    CHECK_RES(wr.set_trs(t, q, std::vector<vec3>(n + 1)), SGRT_ERR_INVALID_ARG);
    CHECK(bad == 777u && s.update() == 0u);

    // In place: begin, write, commit.
    float *ls = nullptr;
    const std::uint32_t *slots = nullptr;
    OK(wr.begin(ls, slots));
    CHECK(ls != nullptr && slots != nullptr);
    float *lc = nullptr;
    const std::uint32_t *slots_c = nullptr;
    OK(sgrt_writer_begin(c, cw, &lc, &slots_c));
    for (std::size_t i = 0; i < n; i += 3) {
        ls[16u * slots[i] + 13] += 0.25f;
        lc[16u * slots_c[i] + 13] += 0.25f;
    }
    OK(wr.commit(0, static_cast<std::uint32_t>(n)));
    OK(sgrt_writer_commit(c, cw, 0, static_cast<std::uint32_t>(n)));
    CHECK(s.update() == sgrt_scene_update(c));
    check_same_worlds(s, a, c, b);
    CHECK(s.nonfinite_locals() == 0u);

    // A local written in place that is not finite: the update makes it the
    // identity, counts it and names it, as the C call says.
    OK(wr.begin(ls, slots));
    OK(sgrt_writer_begin(c, cw, &lc, &slots_c));
    ls[16u * slots[1] + 2] = std::numeric_limits<float>::quiet_NaN();
    lc[16u * slots_c[1] + 2] = std::numeric_limits<float>::quiet_NaN();
    OK(wr.commit(1, 1));
    OK(sgrt_writer_commit(c, cw, 1, 1));
    CHECK(s.update() == sgrt_scene_update(c));
    sgrt_node first = SGRT_NULL_NODE, first_c = SGRT_NULL_NODE;
    CHECK(s.nonfinite_locals(&first) == 1u && sgrt_scene_nonfinite_locals(c, &first_c) == 1u);
    CHECK(first == a[1] && first_c == b[1]);
    check_same_worlds(s, a, c, b);

    OK(wr.destroy());
    CHECK(!wr);
    OK(sgrt_writer_destroy(c, cw));
    sgrt_scene_destroy(c);
}

// ---- trackers, node sets, the parallel update ---------------------------

static void test_trackers_and_sets()
{
    sgrt::scene s;
    OK(sgrt::scene::create(nullptr, s));
    std::vector<sgrt_node> nodes(40);
    for (std::size_t i = 0; i < nodes.size(); i++)
        OK(s.node_create(i ? nodes[i / 2] : SGRT_NULL_NODE, nodes[i]));
    sgrt::tracker t;
    OK(sgrt::tracker::create(s, t));
    std::vector<sgrt_range> ranges(8);
    std::uint32_t count = 0;
    bool more = true;
    CHECK(s.update() == 40u);
    OK(t.collect(ranges, 0, count, more));
    CHECK(count == 1u && !more && ranges[0].first == 0u && ranges[0].count == 40u);
    OK(t.collect(ranges, 0, count, more));
    CHECK(count == 0u && !more);

    sgrt::nodeset visible, changed;
    OK(sgrt::nodeset::create(s, visible));
    OK(sgrt::nodeset::create(s, changed));
    for (std::size_t i = 0; i < nodes.size(); i += 2)
        OK(visible.add(nodes[i]));
    CHECK(visible.count() == 20u && visible.has(nodes[2]) && !visible.has(nodes[3]));
    OK(visible.remove(nodes[2]));
    CHECK(!visible.has(nodes[2]));

    OK(s.node_set_local(nodes[39], {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 5, 0, 0, 1}));
    OK(s.node_set_local(nodes[38], {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 6, 0, 0, 1}));
    CHECK(s.update() == 2u);
    OK(changed.from_changes(t, SGRT_SET_AND, &visible, false));
    CHECK(changed.count() == 1u && changed.has(nodes[38]));
    std::uint32_t cursor = 0;
    CHECK(changed.next(cursor) == nodes[38]);
    CHECK(changed.next(cursor) == SGRT_NULL_NODE);
    OK(changed.from_changes(t, SGRT_SET_AND, nullptr, true));
    CHECK(changed.count() == 2u);
    OK(t.collect(ranges, 0, count, more));
    CHECK(count == 0u && !more); // consumed
    OK(changed.combine(changed, SGRT_SET_OR, visible));
    CHECK(changed.count() == 20u); // 19 visible + 39
    std::uint32_t words = 0;
    CHECK(changed.words(&words) != nullptr && words >= 2u);
    OK(changed.clear());
    CHECK(changed.count() == 0u);

    // The parallel update on an executor that runs the tasks in order.
    sgrt_executor ex{};
    ex.run = [](void *, std::uint32_t n, void (*fn)(void *, std::uint32_t), void *ctx) {
        for (std::uint32_t i = 0; i < n; i++)
            fn(ctx, i);
    };
    ex.workers = 4;
    for (const sgrt_node n : nodes)
        OK(s.node_set_trs(n, {1, 0, 0}, {0, 0, 0, 1}, {1, 1, 1}));
    CHECK(s.update_parallel(ex) == 40u);
    std::array<float, 16> w{};
    OK(s.node_world(nodes[39], w));
    CHECK(w[12] == 7.0f); // 39's chain: 39, 19, 9, 4, 2, 1, 0
    OK(s.check());
}

// ---- skins --------------------------------------------------------------------

// sgrt::skin against the C calls on a twin scene: the same palettes,
// normals, previous palettes and ranges; the inverse binds' length held to
// the joints; emptied by destroy and by a move, refusing what it wraps.
static void test_skins()
{
    sgrt::scene s;
    sgrt_scene *c = nullptr;
    OK(sgrt::scene::create(nullptr, s));
    OK(sgrt_scene_create(nullptr, &c));
    std::vector<sgrt_node> a, b;
    const std::size_t n = 24;
    make_tree(s, a, c, b, n);
    std::uint32_t state = 11;
    std::vector<std::array<float, 16>> binds(n - 1);
    for (auto &m : binds)
        m = some_local(state);
    const std::vector<sgrt_node> ja(a.begin() + 1, a.end()), jb(b.begin() + 1, b.end());
    const std::uint32_t flags = SGRT_SKIN_NORMALS | SGRT_SKIN_PREV;
    sgrt::skin k;
    OK(sgrt::skin::create(s, ja, binds, a[0], flags, k));
    CHECK(bool(k));
    const sgrt_skin_desc d = {static_cast<std::uint32_t>(n - 1), jb.data(), binds[0].data(), b[0],
                              flags};
    sgrt_skin kc = SGRT_NULL_SKIN;
    OK(sgrt_skin_create(c, &d, &kc));
    sgrt::skin w; // world space, no binds, from a desc
    const sgrt_skin_desc wd = {static_cast<std::uint32_t>(n - 1), ja.data(), nullptr,
                               SGRT_NULL_NODE, 0};
    OK(sgrt::skin::create(s, wd, w));
    for (int frame = 0; frame < 3; frame++) {
        for (std::size_t i = 0; i < n; i += 2 + static_cast<std::size_t>(frame)) {
            const auto m = some_local(state);
            OK(s.node_set_local(a[i], m));
            OK(sgrt_node_set_local(c, b[i], m.data()));
        }
        CHECK(s.update() == sgrt_scene_update(c));
        std::uint32_t joints = 0, joints_c = 0;
        const float *p = k.palette(&joints), *pc = sgrt_skin_palette(c, kc, &joints_c);
        CHECK(p && pc && joints == n - 1 && joints_c == n - 1 &&
              std::memcmp(p, pc, joints * 48u) == 0);
        CHECK(std::memcmp(k.normals(), sgrt_skin_normals(c, kc, nullptr), joints * 48u) == 0);
        CHECK(std::memcmp(k.prev_palette(), sgrt_skin_prev_palette(c, kc, nullptr),
                          joints * 48u) == 0);
        std::vector<sgrt_range> r(4), rc(4);
        std::uint32_t count = 0, count_c = 0;
        bool more = true, more_c = true;
        OK(k.collect(r, 1, count, more));
        OK(sgrt_skin_collect(c, kc, rc.data(), 4, 1, &count_c, &more_c));
        CHECK(count == count_c && more == more_c &&
              std::memcmp(r.data(), rc.data(), count * sizeof r[0]) == 0);
    }
    CHECK(w.palette() != nullptr && w.normals() == nullptr);
    // One inverse bind short: refused before the library sees it.
    binds.pop_back();
    sgrt::skin short_k;
    CHECK_RES(sgrt::skin::create(s, ja, binds, a[0], 0, short_k), SGRT_ERR_INVALID_ARG);
    CHECK(!short_k);
    // Moved from, destroyed: empty.
    sgrt::skin moved(std::move(k));
    CHECK(!k && bool(moved) && k.palette() == nullptr);
    OK(moved.destroy());
    CHECK(!moved && moved.palette() == nullptr);
    OK(sgrt_skin_destroy(c, kc));
    OK(s.check());
    sgrt_scene_destroy(c);
}

// ---- calls that take no scene ---------------------------------------------

static void test_free_functions()
{
    CHECK(sgrt::version() == sgrt_version() && sgrt::version() == SGRT_VERSION);
    const std::string v = std::to_string(SGRT_VERSION_MAJOR) + "." +
                          std::to_string(SGRT_VERSION_MINOR) + "." +
                          std::to_string(SGRT_VERSION_PATCH);
    CHECK(v == sgrt::version_string());
    CHECK(std::string(sgrt::to_string(SGRT_ERR_STALE_HANDLE)) ==
          sgrt_result_str(SGRT_ERR_STALE_HANDLE));
    CHECK(std::string(sgrt::to_string(SGRT_ERR_CYCLE)).find("(SGRT_ERR_CYCLE)") !=
          std::string::npos);
    CHECK(std::strcmp(sgrt::simd_name(), sgrt_simd_name()) == 0);
    CHECK(std::strcmp(sgrt::simd_reason(), sgrt_simd_reason()) == 0);

    // The scene's kernel: the default one, one lowered to the reference,
    // none for an empty scene.
    sgrt::scene def, ref, empty;
    OK(sgrt::scene::create(nullptr, def));
    sgrt_scene_desc desc{};
    desc.max_simd = SGRT_SIMD_SCALAR;
    OK(sgrt::scene::create(&desc, ref));
    CHECK(std::strcmp(def.simd_name(), sgrt::simd_name()) == 0);
    CHECK(std::strcmp(ref.simd_name(), "scalar") == 0);
    CHECK(empty.simd_name() == nullptr);
}

// frustum_planes into each kind of output: the C call's planes, bit for bit;
// a view-projection or an output of the wrong size writes nothing.
static void test_frustum_planes()
{
    std::uint32_t state = 0xF2u;
    const std::array<float, 16> vp = some_local(state);
    float want[6][4];
    OK(sgrt_frustum_planes(vp.data(), SGRT_CLIP_DEPTH_ZERO_TO_ONE, want));
    float plain[6][4];
    std::array<std::array<float, 4>, 6> arrays{};
    std::vector<float> flat(24);
    OK(sgrt::frustum_planes(vp, SGRT_CLIP_DEPTH_ZERO_TO_ONE, plain));
    OK(sgrt::frustum_planes(sgrt::mat4_view(vp.data(), 1), SGRT_CLIP_DEPTH_ZERO_TO_ONE, arrays));
    OK(sgrt::frustum_planes(vp, SGRT_CLIP_DEPTH_ZERO_TO_ONE, flat));
    CHECK(same_bits(&plain[0][0], &want[0][0], 24));
    CHECK(same_bits(arrays[0].data(), &want[0][0], 24));
    CHECK(same_bits(flat.data(), &want[0][0], 24));
    OK(sgrt::frustum_planes(vp, SGRT_CLIP_DEPTH_NEG_ONE_TO_ONE, plain));
    OK(sgrt_frustum_planes(vp.data(), SGRT_CLIP_DEPTH_NEG_ONE_TO_ONE, want));
    CHECK(same_bits(&plain[0][0], &want[0][0], 24));

    std::vector<float> short_out(20, 7.0f), long_out(28, 7.0f);
    CHECK_RES(sgrt::frustum_planes(vp, SGRT_CLIP_DEPTH_ZERO_TO_ONE, short_out),
              SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt::frustum_planes(vp, SGRT_CLIP_DEPTH_ZERO_TO_ONE, long_out),
              SGRT_ERR_INVALID_ARG);
    CHECK(short_out == std::vector<float>(20, 7.0f) && long_out == std::vector<float>(28, 7.0f));
    CHECK_RES(sgrt::frustum_planes(std::vector<float>(15), SGRT_CLIP_DEPTH_ZERO_TO_ONE, flat),
              SGRT_ERR_INVALID_ARG);
    float nan_vp[16] = {};
    nan_vp[5] = std::numeric_limits<float>::quiet_NaN();
    CHECK_RES(sgrt::frustum_planes(nan_vp, SGRT_CLIP_DEPTH_ZERO_TO_ONE, flat), SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt::frustum_planes(vp, static_cast<sgrt_clip_depth>(0), flat),
              SGRT_ERR_INVALID_ARG);
    CHECK(same_bits(flat.data(), arrays[0].data(), 24)); // unwritten by the refusals
#if HAVE_GLM
    const glm::mat4 proj = glm::perspective(1.0f, 1.5f, 0.5f, 100.0f);
    const glm::mat4 view = glm::translate(glm::mat4(1.0f), glm::vec3(1, -2, 3));
    glm::vec4 gplanes[6];
    const glm::mat4 pv = proj * view;
    OK(sgrt::frustum_planes(pv, SGRT_CLIP_DEPTH_NEG_ONE_TO_ONE, gplanes));
    OK(sgrt_frustum_planes(&pv[0][0], SGRT_CLIP_DEPTH_NEG_ONE_TO_ONE, want));
    CHECK(same_bits(&gplanes[0].x, &want[0][0], 24));
#endif
}

// trs_to_matrices from each kind of container into each kind of output:
// what set_trs stores, bit for bit; lengths that disagree write nothing.
static void test_trs_to_matrices()
{
    sgrt::scene s;
    OK(sgrt::scene::create(nullptr, s));
    const std::size_t n = 37; // a vector body of every width and a tail
    std::vector<sgrt_node> nodes(n);
    for (auto &node : nodes)
        OK(s.node_create(SGRT_NULL_NODE, node));
    std::uint32_t state = 5;
    std::vector<vec3> t(n), sc(n);
    std::vector<quat> q(n);
    for (std::size_t i = 0; i < n; i++) {
        t[i] = {next_float(state, -9, 9), next_float(state, -9, 9), next_float(state, -9, 9)};
        sc[i] = {next_float(state, 0.5f, 2), next_float(state, 0.5f, 2), 1.0f};
        const float a = next_float(state, -3, 3);
        q[i] = {0.6f * std::sin(a), 0.8f * std::sin(a), 0, std::cos(a)};
    }
    OK(s.nodes_set_trs(nodes, t, q, sc));
    std::vector<std::array<float, 16>> want(n);
    for (std::size_t i = 0; i < n; i++)
        OK(s.node_local(nodes[i], want[i]));

    std::vector<std::array<float, 16>> out(n);
    OK(sgrt::trs_to_matrices(t, q, sc, out));
    CHECK(same_bits(out[0].data(), want[0].data(), 16 * n));
    std::vector<mat16> structs(n);
    OK(sgrt::trs_to_matrices(t, q, sc, structs));
    CHECK(same_bits(structs[0].m, want[0].data(), 16 * n));
    std::vector<float> flat(16 * n);
    OK(sgrt::trs_to_matrices(sgrt::vec3_view(&t[0].x, n), sgrt::vec4_view(&q[0].x, n),
                             sgrt::vec3_view(&sc[0].x, n), sgrt::mat4_span(flat.data(), n)));
    CHECK(same_bits(flat.data(), want[0].data(), 16 * n));
    mat16 one{};
    OK(sgrt::trs_to_matrices(t[3], q[3], sc[3], one));
    CHECK(same_bits(one.m, want[3].data(), 16));
    float arr[2][16];
    OK(sgrt::trs_to_matrices({1, 2, 3, 4, 5, 6}, {0, 0, 0, 1, 0, 0, 0.6f, 0.8f},
                             {1, 1, 1, 2, 2, 2}, arr));
    CHECK(arr[0][12] == 1.0f && arr[0][0] == 1.0f && arr[1][13] == 5.0f && arr[1][15] == 1.0f);
    OK(sgrt::trs_to_matrices(std::vector<vec3>{}, std::vector<quat>{}, std::vector<vec3>{},
                             sgrt::mat4_span{}));

    // Lengths that disagree: refused before the library, nothing written.
    std::vector<std::array<float, 16>> untouched(n, std::array<float, 16>{});
    CHECK_RES(sgrt::trs_to_matrices(t, std::vector<quat>(n - 1), sc, untouched),
              SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt::trs_to_matrices(t, q, sc, sgrt::mat4_span(untouched[0].data(), n - 1)),
              SGRT_ERR_INVALID_ARG);
    CHECK_RES(sgrt::trs_to_matrices(std::vector<float>(3 * n + 1, 1.0f), q, sc, untouched),
              SGRT_ERR_INVALID_ARG);
    std::array<float, 16> zero{};
    bool none_written = true;
    for (const auto &m : untouched)
        none_written = none_written && m == zero;
    CHECK(none_written);
    // The library's own refusal: no output.
    CHECK_RES(sgrt::trs_to_matrices(t, q, sc, sgrt::mat4_span(static_cast<float *>(nullptr), n)),
              SGRT_ERR_INVALID_ARG);
}

// ---- links, user values, slots, storage, previous worlds, dumps ----------

static void test_scene_queries()
{
    sgrt::scene s;
    sgrt_scene *c = nullptr;
    sgrt_scene_desc desc{};
    desc.flags = SGRT_SCENE_PREV_WORLD;
    OK(sgrt::scene::create(&desc, s));
    OK(sgrt_scene_create(&desc, &c));
    CHECK(s.storage_version() == 1u);
    std::vector<sgrt_node> a, b;
    make_tree(s, a, c, b, 21);

    // Children, through first_child and next_sibling: 4 per inner node,
    // each with the node as its parent.
    std::size_t children = 0;
    bool parents_right = true;
    for (const sgrt_node n : a) {
        sgrt_node k = SGRT_NULL_NODE;
        OK(s.node_first_child(n, k));
        while (k != SGRT_NULL_NODE) {
            sgrt_node p = SGRT_NULL_NODE;
            OK(s.node_parent(k, p));
            parents_right = parents_right && p == n;
            children++;
            OK(s.node_next_sibling(k, k));
        }
    }
    CHECK(children == a.size() - 1 && parents_right);
    sgrt_node kid = SGRT_NULL_NODE;
    OK(s.node_first_child(a[20], kid));
    CHECK(kid == SGRT_NULL_NODE);
    CHECK_RES(s.node_first_child(SGRT_NULL_NODE, kid), SGRT_ERR_STALE_HANDLE);

    // User values travel with their nodes.
    std::uint64_t u = 1;
    OK(s.node_user(a[7], u));
    CHECK(u == 0u);
    for (std::size_t i = 0; i < a.size(); i++)
        OK(s.node_set_user(a[i], 0x100000000ull * i + 7u));
    OK(s.compact());
    OK(s.node_user(a[7], u));
    CHECK(u == 0x700000007ull);
    CHECK_RES(s.node_set_user(SGRT_NULL_NODE, 1), SGRT_ERR_STALE_HANDLE);

    // Slots and the nodes in them; storage moves only when it grows.
    bool slots_right = true;
    for (const sgrt_node n : a) {
        std::uint32_t slot = 0;
        OK(s.node_slot(n, slot));
        slots_right = slots_right && s.slot_node(slot) == n;
    }
    CHECK(slots_right && s.slot_node(1u << 30) == SGRT_NULL_NODE);
    const std::uint64_t version = s.storage_version();
    CHECK(version > 1u && version == sgrt_scene_storage_version(s.get()));
    const std::uint64_t hash = s.hash();
    CHECK(hash != 0u && hash == sgrt_scene_hash(s.get()));
    OK(s.node_set_user(a[1], 9));
    CHECK(s.storage_version() == version);
    CHECK(s.hash() == hash); // user values are not in it
    OK(s.reserve(4096));
    CHECK(s.storage_version() > version);

    // Previous worlds: after a move and two updates, the entry holds the
    // world before the move.
    CHECK(s.update() == sgrt_scene_update(c));
    std::array<float, 16> before{};
    OK(s.node_world(a[5], before));
    OK(s.node_set_trs(a[5], {1, 2, 3}, {0, 0, 0, 1}, {1, 1, 1}));
    CHECK(s.update() > 0u);
    std::uint32_t slots = 0, slot = 0;
    const float *prev = s.prev_world_array(&slots);
    OK(s.node_slot(a[5], slot));
    CHECK(prev != nullptr && slot < slots && same_bits(prev + 16u * slot, before.data(), 16));
    sgrt::scene plain;
    OK(sgrt::scene::create(nullptr, plain));
    CHECK(plain.prev_world_array() == nullptr);

    // Dumps: through a C function and through a lambda, the same bytes;
    // a callable that says stop ends the dump with SGRT_ERR_WRITE.
    std::string via_c, via_lambda, dot;
    OK(s.dump(
        [](void *user, const char *bytes, std::size_t len) -> int {
            static_cast<std::string *>(user)->append(bytes, len);
            return 0;
        },
        &via_c, SGRT_DUMP_JSON));
    OK(s.dump(
        [&via_lambda](const char *bytes, std::size_t len) {
            via_lambda.append(bytes, len);
            return true;
        },
        SGRT_DUMP_JSON));
    CHECK(!via_c.empty() && via_c == via_lambda);
    CHECK(via_c.rfind("{\"format\":\"sgrt-dump\"", 0) == 0);
    CHECK(via_c.find("\"user\":30064771079") != std::string::npos); // a[7]'s value
    const auto append_dot = [&dot](const char *bytes, std::size_t len) {
        dot.append(bytes, len);
        return true;
    };
    OK(s.dump(append_dot, SGRT_DUMP_DOT)); // a const lvalue callable
    CHECK(dot.rfind("digraph sgrt {", 0) == 0);
    std::size_t calls = 0;
    CHECK_RES(s.dump([&calls](const char *, std::size_t) { return ++calls < 2; }, SGRT_DUMP_JSON),
              SGRT_ERR_WRITE);
    CHECK(calls == 2u);
    sgrt_scene_destroy(c);
}

// ---- bounds and culling ---------------------------------------------------

static void test_bounds_and_cull()
{
    log_count log;
    sgrt_scene_desc desc{};
    desc.flags = SGRT_SCENE_BOUNDS;
    desc.log = log_count::fn;
    desc.log_user = &log;
    sgrt::scene s;
    sgrt_scene *c = nullptr;
    OK(sgrt::scene::create(&desc, s));
    sgrt_scene_desc cdesc{};
    cdesc.flags = SGRT_SCENE_BOUNDS;
    OK(sgrt_scene_create(&cdesc, &c));
    std::vector<sgrt_node> a, b;
    const std::size_t n = 50;
    make_tree(s, a, c, b, n);

    // Nodes along x, one unit apart, boxes of half extent 0.25.
    std::vector<vec3> centers(n, vec3{0, 0, 0});
    std::vector<std::array<float, 3>> halves(n, {0.25f, 0.25f, 0.25f});
    for (std::size_t i = 0; i < n; i++) {
        OK(s.node_set_world(a[i], {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, static_cast<float>(i), 0,
                                   0, 1}));
        const float m[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, static_cast<float>(i), 0, 0, 1};
        OK(sgrt_node_set_world(c, b[i], m));
    }
    OK(s.nodes_set_bounds(a, centers, halves));
    OK(sgrt_nodes_set_bounds(c, static_cast<std::uint32_t>(n), b.data(), &centers[0].x,
                             halves[0].data(), nullptr));
    OK(s.node_set_bounds(a[0], {0, 0, 0}, {0.5f, 0.5f, 0.5f}));
    OK(sgrt_node_set_bounds(c, b[0], &centers[0].x, std::array<float, 3>{0.5f, 0.5f, 0.5f}.data()));
    CHECK(s.update() == sgrt_scene_update(c));
    check_same_worlds(s, a, c, b);
    float mn[3], mx[3];
    OK(s.node_world_bounds(a[7], mn, mx));
    CHECK(mn[0] <= 6.75f && mx[0] >= 7.25f && mx[0] < 7.5f);

    // x in [10, 20]: two planes, as a float[2][4] and as a vector of arrays.
    const float planes[2][4] = {{1, 0, 0, -10}, {-1, 0, 0, 20}};
    const std::vector<std::array<float, 4>> planes_v{{1, 0, 0, -10}, {-1, 0, 0, 20}};
    sgrt::nodeset out, out2;
    OK(sgrt::nodeset::create(s, out));
    OK(sgrt::nodeset::create(s, out2));
    sgrt_cull_stats stats{};
    OK(s.cull(planes, nullptr, out, &stats));
    CHECK(out.count() == 11u && stats.visible == 11u);
    OK(s.cull(planes_v, &out, out2));
    CHECK(out2.count() == 11u && out2.has(a[10]) && out2.has(a[20]) && !out2.has(a[21]));
    sgrt_nodeset cset = SGRT_NULL_NODESET;
    OK(sgrt_nodeset_create(c, &cset));
    OK(sgrt_scene_cull(c, &planes[0][0], 2, SGRT_NULL_NODESET, cset, nullptr));
    CHECK(sgrt_nodeset_count(c, cset) == out.count());

    // A plane with 3 floats is no plane; the bounds batch counts too. Each
    // refusal is reported, once, naming the argument.
    long logged = log.entries;
    CHECK_RES(s.cull(std::vector<float>{1, 0, 0, -10, -1, 0, 20}, nullptr, out),
              SGRT_ERR_INVALID_ARG);
    CHECK(log.one(logged++, "sgrt_scene_cull", "planes does not hold"));
    CHECK_RES(s.nodes_set_bounds(a, centers, std::vector<vec3>(n - 1)), SGRT_ERR_INVALID_ARG);
    CHECK(log.one(logged++, "sgrt_nodes_set_bounds", "half_extents does not hold"));
    CHECK_RES(s.nodes_set_bounds(a, std::vector<float>(3 * n + 2), centers), SGRT_ERR_INVALID_ARG);
    CHECK(log.one(logged++, "sgrt_nodes_set_bounds", "centers does not hold"));
    CHECK_RES(s.node_set_bounds(a[1], {0, 0}, {1, 1, 1}), SGRT_ERR_INVALID_ARG);
    CHECK(log.one(logged++, "sgrt_node_set_bounds", "center does not hold"));
    CHECK_RES(s.node_set_bounds(a[1], {0, 0, 0}, {1, 1, 1, 1}), SGRT_ERR_INVALID_ARG);
    CHECK(log.one(logged++, "sgrt_node_set_bounds", "half_extent does not hold"));
    CHECK(out.count() == 11u && s.update() == 0u);
    // The library's own refusal: no plane at all.
    CHECK_RES(s.cull(std::vector<float>{}, nullptr, out), SGRT_ERR_INVALID_ARG);
    CHECK(log.entries == logged + 1 && log.function == "sgrt_scene_cull");

    OK(sgrt_nodeset_destroy(c, cset));
    sgrt_scene_destroy(c);
}


// Local boxes read back and cleared, subtree boxes, the arrays a renderer
// reads: against the per-node calls.
static void test_bounds_queries()
{
    sgrt_scene_desc desc{};
    desc.flags = SGRT_SCENE_SUBTREE_BOUNDS;
    sgrt::scene s;
    OK(sgrt::scene::create(&desc, s));
    sgrt_node root = SGRT_NULL_NODE, left = SGRT_NULL_NODE, right = SGRT_NULL_NODE;
    OK(s.node_create(SGRT_NULL_NODE, root));
    OK(s.node_create(root, left));
    OK(s.node_create(root, right));
    OK(s.node_set_local(left, {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -4, 0, 0, 1}));
    OK(s.node_set_local(right, {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 6, 0, 1}));
    OK(s.node_set_bounds(left, {0, 0, 0}, {1, 1, 1}));
    OK(s.node_set_bounds(right, {0, 0, 0.5f}, {2, 0.5f, 0.25f}));

    float c[3], e[3];
    OK(s.node_bounds(right, c, e));
    CHECK(c[0] == 0 && c[2] == 0.5f && e[0] == 2.0f && e[1] == 0.5f && e[2] == 0.25f);
    OK(s.node_bounds(root, c, e)); // no box
    CHECK(e[0] == -1.0f && e[1] == -1.0f && e[2] == -1.0f);

    CHECK(s.update() == 3u);
    float mn[3], mx[3];
    OK(s.node_subtree_bounds(root, mn, mx));
    CHECK(mn[0] <= -5.0f && mn[0] > -5.01f && mx[0] >= 2.0f && mx[0] < 2.01f);
    CHECK(mn[1] <= -1.0f && mx[1] >= 6.5f && mx[1] < 6.51f);

    sgrt_bounds_arrays arrays{};
    OK(s.bounds_arrays(arrays));
    std::uint32_t slot = 0;
    OK(s.node_slot(right, slot));
    float wmn[3], wmx[3];
    OK(s.node_world_bounds(right, wmn, wmx));
    CHECK(slot < arrays.slot_count && (arrays.valid[slot / 32] >> (slot % 32) & 1u));
    CHECK(arrays.min[0][slot] == wmn[0] && arrays.max[1][slot] == wmx[1] &&
          arrays.max[2][slot] == wmx[2]);
    std::uint32_t root_slot = 0;
    OK(s.node_slot(root, root_slot));
    CHECK((arrays.valid[root_slot / 32] >> (root_slot % 32) & 1u) == 0u);

    // Cleared: a pure transform again, gone from its parent's subtree box.
    OK(s.node_clear_bounds(left));
    OK(s.node_bounds(left, c, e));
    CHECK(e[0] == -1.0f);
    CHECK(s.update() == 0u);
    OK(s.node_subtree_bounds(root, mn, mx));
    CHECK(mn[0] >= -2.01f && mn[0] <= -2.0f);

    // Without the flags: refused.
    sgrt::scene plain;
    OK(sgrt::scene::create(nullptr, plain));
    sgrt_node n = SGRT_NULL_NODE;
    OK(plain.node_create(SGRT_NULL_NODE, n));
    CHECK_RES(plain.node_subtree_bounds(n, mn, mx), SGRT_ERR_INVALID_ARG);
    CHECK_RES(plain.node_clear_bounds(n), SGRT_ERR_INVALID_ARG);
    CHECK_RES(plain.bounds_arrays(arrays), SGRT_ERR_INVALID_ARG);
    OK(plain.check());
}

// ---- glm: mat4, vec3 and quat (stored x, y, z, w) as they are -----------

static void test_glm()
{
#if HAVE_GLM
    static_assert(sgrt::detail::float_count<glm::mat4>::value == 16, "glm::mat4");
    static_assert(sgrt::detail::float_count<glm::quat>::value == 4, "glm::quat");
    sgrt::scene s;
    sgrt_scene *c = nullptr;
    OK(sgrt::scene::create(nullptr, s));
    OK(sgrt_scene_create(nullptr, &c));
    std::vector<sgrt_node> a, b;
    const std::size_t n = 30;
    make_tree(s, a, c, b, n);
    std::uint32_t state = 11;
    std::vector<glm::vec3> t(n), sc(n);
    std::vector<glm::quat> q(n);
    for (std::size_t i = 0; i < n; i++) {
        t[i] = glm::vec3(next_float(state, -4, 4), next_float(state, -4, 4), 1.0f);
        sc[i] = glm::vec3(1.0f, next_float(state, 0.5f, 2), 1.0f);
        q[i] = glm::angleAxis(next_float(state, -3, 3), glm::normalize(glm::vec3(1, 2, 3)));
    }
    OK(s.nodes_set_trs(a, t, q, sc));
    std::vector<float> tf, qf, sf; // the same, unpacked by hand: x, y, z, w
    for (std::size_t i = 0; i < n; i++) {
        tf.insert(tf.end(), {t[i].x, t[i].y, t[i].z});
        qf.insert(qf.end(), {q[i].x, q[i].y, q[i].z, q[i].w});
        sf.insert(sf.end(), {sc[i].x, sc[i].y, sc[i].z});
    }
    OK(sgrt_nodes_set_trs(c, static_cast<std::uint32_t>(n), b.data(), tf.data(), qf.data(),
                          sf.data(), nullptr));
    CHECK(s.update() == sgrt_scene_update(c));
    check_same_worlds(s, a, c, b);

    glm::mat4 w(1.0f), w_c(1.0f);
    OK(s.node_world(a[n - 1], w));
    OK(sgrt_node_world(c, b[n - 1], &w_c[0][0]));
    CHECK(w == w_c);
    std::vector<glm::mat4> locals(n, glm::mat4(1.0f));
    locals[3][3][0] = 2.0f; // column 3 (translation), row 0
    OK(s.nodes_set_local(a, locals));
    OK(sgrt_nodes_set_local(c, static_cast<std::uint32_t>(n), b.data(), &locals[0][0][0],
                            nullptr));
    CHECK(s.update() == sgrt_scene_update(c));
    check_same_worlds(s, a, c, b);
    OK(s.node_world(a[3], w));
    CHECK(w[3][0] == 2.0f);
    OK(s.node_set_local(a[4], w));
    sgrt_scene_destroy(c);
    std::printf("test_cpp: glm types checked\n");
#else
    std::printf("test_cpp: glm not installed, its types not checked\n");
#endif
}

// ---- large worlds ---------------------------------------------------------

// Snapshots: the buffer and container forms give the C call's bytes, a
// restore and a load give back the scene (its hash, its worlds), a refused
// one reports through the log; an empty scene refuses each.
static void test_snapshots()
{
    log_count log;
    sgrt_scene_desc desc{};
    desc.flags = SGRT_SCENE_PREV_WORLD | SGRT_SCENE_BOUNDS;
    desc.log = log_count::fn;
    desc.log_user = &log;
    sgrt::scene s;
    sgrt_scene *c = nullptr;
    OK(sgrt::scene::create(&desc, s));
    OK(sgrt_scene_create(&desc, &c));
    std::vector<sgrt_node> a, b;
    make_tree(s, a, c, b, 21);
    (void)s.update();
    std::size_t n = 0;
    OK(s.snapshot_size(n));
    std::vector<std::uint8_t> v;
    OK(s.snapshot(v));
    CHECK(v.size() == n && n > 64u);
    std::vector<unsigned char> raw(n);
    std::size_t written = 0;
    OK(s.snapshot(raw.data(), raw.size(), &written));
    CHECK(written == n && std::memcmp(raw.data(), v.data(), n) == 0);
    std::string as_string;
    OK(s.snapshot(as_string));
    CHECK(as_string.size() == n && std::memcmp(as_string.data(), v.data(), n) == 0);
    const std::uint64_t hash = s.hash();
    const std::array<float, 16> moved{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 5, 6, 7, 1};
    OK(s.node_set_local(a[3], moved));
    (void)s.update();
    CHECK(s.hash() != hash);
    OK(s.restore(v));
    CHECK(s.hash() == hash);
    OK(s.restore(raw.data(), raw.size()));
    sgrt::scene loaded;
    OK(sgrt::scene::load(nullptr, v, loaded));
    CHECK(loaded.hash() == hash && loaded.node_count() == s.node_count());
    sgrt::scene loaded2;
    OK(sgrt::scene::load(&desc, raw.data(), raw.size(), loaded2));
    std::vector<std::uint8_t> again;
    OK(loaded2.snapshot(again));
    CHECK(again == v);
    // Refused: the C codes, one report each, the container left empty.
    const long before = log.entries;
    std::vector<std::uint8_t> cut(v.begin(), v.begin() + 100);
    CHECK_RES(s.restore(cut), SGRT_ERR_SNAPSHOT);
    CHECK(log.entries == before + 1 && log.function == "sgrt_scene_restore");
    sgrt::scene empty;
    std::vector<std::uint8_t> none{1, 2, 3};
    CHECK_RES(empty.snapshot(none), SGRT_ERR_INVALID_ARG);
    CHECK(none.empty());
    CHECK_RES(empty.restore(v), SGRT_ERR_INVALID_ARG);
    CHECK_RES(empty.snapshot_size(n), SGRT_ERR_INVALID_ARG);
    CHECK(sgrt::scene::load(nullptr, cut, loaded) == SGRT_ERR_SNAPSHOT && loaded.hash() == hash);
    sgrt_scene_destroy(c);
}

// Render interpolation: every member against the C call on a twin scene fed
// the same ticks (the same render worlds, array and upload ranges, bit for
// bit, serial and parallel alike, a teleport); refusals by the library (a
// scene without the flag, alpha out of range) and by the layer (an empty
// scene) reach the scene's log.
static void test_interpolation()
{
    log_count log;
    sgrt_scene_desc desc = log.desc();
    desc.flags = SGRT_SCENE_INTERPOLATE;
    sgrt::scene s;
    sgrt_scene *c = nullptr;
    OK(sgrt::scene::create(&desc, s));
    OK(sgrt_scene_create(&desc, &c));
    std::vector<sgrt_node> a, b;
    make_tree(s, a, c, b, 21);
    std::uint32_t state = 5;
    sgrt_executor ex{};
    ex.run = [](void *, std::uint32_t n, void (*fn)(void *, std::uint32_t), void *ctx) {
        for (std::uint32_t i = n; i-- > 0;) // in reverse: any order will do
            fn(ctx, i);
    };
    ex.workers = 3;
    bool same = true, moved = false;
    for (int tick = 0; tick < 4; tick++) {
        for (std::size_t i = tick % 2u; i < a.size(); i += 2) {
            const float angle = 0.3f * static_cast<float>(tick + 1) + 0.1f * static_cast<float>(i);
            const std::array<float, 3> t{next_float(state, -2, 2), next_float(state, -2, 2), 0.5f};
            const std::array<float, 4> q{0, std::sin(angle / 2), 0, std::cos(angle / 2)};
            const std::array<float, 3> sc{1.0f, 1.5f, 1.0f};
            OK(s.node_set_trs(a[i], t, q, sc));
            OK(sgrt_node_set_trs(c, b[i], t.data(), q.data(), sc.data()));
        }
        if (tick == 2) {
            OK(s.node_teleport(a[4]));
            OK(sgrt_node_teleport(c, b[4]));
        }
        (void)s.update();
        (void)sgrt_scene_update(c);
        for (const float alpha : {0.0f, 0.375f, 1.0f}) {
            if (tick % 2)
                OK(s.interpolate_parallel(alpha, ex));
            else
                OK(s.interpolate(alpha));
            OK(sgrt_scene_interpolate(c, alpha));
            std::uint32_t slots = 0, slots_c = 0;
            const float *r = s.render_world_array(&slots);
            const float *rc = sgrt_scene_render_world_array(c, &slots_c);
            same = same && r && rc && slots == slots_c && slots >= a.size();
            for (std::size_t i = 0; same && i < a.size(); i++) {
                std::array<float, 16> m{}, mc{};
                float raw[16];
                OK(s.node_render_world(a[i], m));
                OK(s.node_render_world(a[i], raw));
                OK(sgrt_node_render_world(c, b[i], mc.data()));
                std::uint32_t slot = 0;
                OK(s.node_slot(a[i], slot));
                same = same_bits(m.data(), mc.data(), 16) && same_bits(raw, m.data(), 16) &&
                       same_bits(r + 16u * slot, m.data(), 16);
                std::array<float, 16> w{};
                OK(s.node_world(a[i], w));
                if (alpha == 1.0f)
                    same = same && same_bits(w.data(), m.data(), 16);
                else if (tick > 0 && !same_bits(w.data(), m.data(), 16))
                    moved = true;
            }
            // The upload ranges: the same as the C call's.
            std::array<sgrt_range, 8> got{}, got_c{};
            std::uint32_t n = 0, n_c = 0;
            bool more = true, more_c = true;
            OK(s.render_collect(got, 0, n, more));
            OK(sgrt_scene_render_collect(c, got_c.data(), 8, 0, &n_c, &more_c));
            same = same && n == n_c && more == more_c &&
                   std::memcmp(got.data(), got_c.data(), n * sizeof got[0]) == 0;
            while (more)
                OK(s.render_collect(got, 0, n, more));
            while (more_c)
                OK(sgrt_scene_render_collect(c, got_c.data(), 8, 0, &n_c, &more_c));
        }
    }
    CHECK(same);
    CHECK(moved); // between ticks, something was interpolated
    // Refused by the library: the C codes, one report each, nothing changed.
    std::array<float, 16> before{}, after{};
    OK(s.node_render_world(a[7], before));
    long n0 = log.entries;
    CHECK_RES(s.interpolate(1.5f), SGRT_ERR_INVALID_ARG);
    CHECK(log.entries == n0 + 1 && log.function == "sgrt_scene_interpolate");
    CHECK_RES(s.interpolate(std::numeric_limits<float>::quiet_NaN()), SGRT_ERR_INVALID_ARG);
    CHECK(log.entries == n0 + 2);
    CHECK_RES(s.interpolate_parallel(-0.25f, ex), SGRT_ERR_INVALID_ARG);
    CHECK(log.entries == n0 + 3 && log.function == "sgrt_scene_interpolate_parallel");
    OK(s.node_render_world(a[7], after));
    CHECK(before == after);
    const sgrt_node gone = a[20];
    OK(s.node_destroy(gone));
    n0 = log.entries;
    CHECK_RES(s.node_render_world(gone, after), SGRT_ERR_STALE_HANDLE);
    CHECK_RES(s.node_teleport(gone), SGRT_ERR_STALE_HANDLE);
    CHECK(log.entries == n0 + 2 && log.last == SGRT_ERR_STALE_HANDLE);
    // A scene without the flag refuses every call, through its log.
    sgrt_scene_desc plain_desc = log.desc();
    sgrt::scene plain;
    OK(sgrt::scene::create(&plain_desc, plain));
    sgrt_node p = SGRT_NULL_NODE;
    OK(plain.node_create(SGRT_NULL_NODE, p));
    (void)plain.update();
    n0 = log.entries;
    CHECK_RES(plain.interpolate(0.5f), SGRT_ERR_INVALID_ARG);
    CHECK(log.one(n0, "sgrt_scene_interpolate", ""));
    CHECK_RES(plain.interpolate_parallel(0.5f, ex), SGRT_ERR_INVALID_ARG);
    CHECK_RES(plain.node_render_world(p, after), SGRT_ERR_INVALID_ARG);
    CHECK_RES(plain.node_teleport(p), SGRT_ERR_INVALID_ARG);
    std::array<sgrt_range, 2> r2{};
    std::uint32_t cnt = 7;
    bool more = true;
    CHECK_RES(plain.render_collect(r2, 0, cnt, more), SGRT_ERR_INVALID_ARG);
    std::uint32_t slots = 9;
    CHECK(plain.render_world_array(&slots) == nullptr && slots == 0u);
    CHECK(log.entries == n0 + 6 && log.function == "sgrt_scene_render_world_array");
    // An empty scene: the layer's own report, in the log it kept.
    sgrt::scene moved_to(std::move(s));
    n0 = log.entries;
    CHECK_RES(s.interpolate(0.5f), SGRT_ERR_INVALID_ARG);
    CHECK(log.one(n0, "sgrt_scene_interpolate", "this sgrt::scene is empty"));
    CHECK(s.render_world_array() == nullptr);
    CHECK(log.one(n0 + 1, "sgrt_scene_render_world_array", "this sgrt::scene is empty"));
    CHECK_RES(s.node_teleport(a[0]), SGRT_ERR_INVALID_ARG);
    CHECK(log.one(n0 + 2, "sgrt_node_teleport", "this sgrt::scene is empty"));
    OK(moved_to.interpolate(0.5f));
    OK(moved_to.check());
    sgrt_scene_destroy(c);
}

static void test_large_world()
{
    sgrt_scene_desc desc{};
    desc.flags = SGRT_SCENE_LARGE_WORLD;
    sgrt::scene s;
    sgrt_scene *c = nullptr;
    OK(sgrt::scene::create(&desc, s));
    OK(sgrt_scene_create(&desc, &c));
    std::vector<sgrt_node> a, b;
    make_tree(s, a, c, b, 21);
    std::uint32_t state = 11;
    for (std::size_t i = 0; i < a.size(); i++) {
        const std::array<float, 16> m = some_local(state);
        OK(s.node_set_local(a[i], m));
        OK(sgrt_node_set_local(c, b[i], m.data()));
    }
    const std::array<double, 3> anchor{1.0e9, -2.5e8, 3.0};
    const double origin[3] = {1.0e9 - 100.0, -2.5e8 + 7.0, 0.5};
    OK(s.node_set_anchor(a[0], anchor));
    OK(sgrt_node_set_anchor(c, b[0], anchor.data()));
    OK(s.set_origin(origin));
    OK(sgrt_scene_set_origin(c, origin));
    (void)s.update();
    (void)sgrt_scene_update(c);
    check_same_worlds(s, a, c, b);
    std::array<double, 3> got{}, o{};
    OK(s.node_anchor(a[0], got));
    CHECK(got == anchor);
    OK(s.origin(o));
    CHECK(std::memcmp(o.data(), origin, sizeof origin) == 0);
    double raw[3];
    OK(s.node_anchor(a[0], raw));
    CHECK(std::memcmp(raw, anchor.data(), sizeof raw) == 0);
    std::array<double, 16> wd{};
    double wc[16];
    OK(s.node_world_double(a[20], wd));
    OK(sgrt_node_world_double(c, b[20], wc));
    CHECK(std::memcmp(wd.data(), wc, sizeof wc) == 0);
    CHECK_RES(s.node_anchor(a[1], got), SGRT_ERR_INVALID_ARG); // not a root
    sgrt_scene_destroy(c);
}

int main()
{
    test_node_identity();
    test_ownership();
    test_refusals_reported();
    test_single_calls();
    test_batches();
    test_writers();
    test_trackers_and_sets();
    test_skins();
    test_bounds_and_cull();
    test_bounds_queries();
    test_free_functions();
    test_frustum_planes();
    test_trs_to_matrices();
    test_scene_queries();
    test_glm();
    test_large_world();
    test_snapshots();
    test_interpolation();
    std::printf("test_cpp: %ld checks, %d failed\n", checks, failures);
    return failures == 0 && checks > 0 ? 0 : 1;
}
