// SPDX-License-Identifier: MIT
/*
 * sgrt.hpp — a header-only C++17 layer over sgrt.h.
 *
 * What it adds to the C API, and nothing more:
 *   - owning, move-only types: sgrt::scene (over an sgrt_scene *), and
 *     sgrt::tracker, sgrt::nodeset, sgrt::writer, sgrt::skin (each over its
 *     C handle, sgrt_tracker, sgrt_nodeset, sgrt_writer, sgrt_skin); RAII;
 *     a moved-from object is
 *     empty (scene: get() == nullptr; the others: get().id == 0, the zero
 *     handle, which every C call refuses);
 *   - == and != on sgrt_node, sgrt_tracker, sgrt_nodeset, sgrt_writer and
 *     sgrt_skin,
 *     and std::hash<sgrt_node>;
 *   - batch calls that take contiguous float data as it comes (std::vector
 *     of std::array<float, 16> or of a glm::mat4-like struct, a plain float
 *     array, a pointer and a count) and refuse a length that does not match
 *     the node count;
 *   - members named after the C functions: sgrt_node_set_local(s, ...) is
 *     scene.node_set_local(...), sgrt_tracker_collect(s, t, ...) is
 *     tracker.collect(...); the calls that take no scene are functions of
 *     namespace sgrt: sgrt::version(), sgrt::to_string(result),
 *     sgrt::trs_to_matrices(t, q, scale, out), ... get() gives the C
 *     object to C code.
 *
 * Every function of sgrt.h has its counterpart here, or is named in this
 * comment, one line each, as `sgrt_<name>`: not wrapped, and why; today
 * none is. tests/check_cpp_layer.py holds both to sgrt.h.
 *
 * Results are the C codes (sgrt_result), [[nodiscard]] wherever they report
 * a failure; nothing throws, nothing uses RTTI, nothing allocates beyond
 * what the C calls allocate: it builds with -fno-exceptions -fno-rtti.
 *
 * Lifetimes. Trackers, node sets, writers and skins belong to their scene:
 * sgrt_scene_destroy frees those still alive. Destroy them before the
 * scene, or declare them after it so that C++ destroys them first:
 *
 *     sgrt::scene scene;       // first: destroyed last
 *     sgrt::tracker gpu;       // after it: destroyed before it
 *
 * A wrapper that outlives its scene anyway is not left dangling: each
 * wrapper is linked into its sgrt::scene (two pointers, no allocation),
 * and the scene's destructor empties the wrappers still alive (get().id ==
 * 0; destroying them then does nothing, and calls on them are refused
 * with SGRT_ERR_INVALID_ARG, unreported, as the C calls refuse a NULL
 * scene). The link follows moves of the scene and of the wrappers, and
 * stays with a wrapper emptied by a move or by destroy() until it is given
 * another object or destroyed. As in C, creating, moving and destroying the
 * wrappers of one scene need exclusive access to that scene (they touch its
 * list).
 *
 * Float data. sgrt::float_view<N> is a read-only view of packed floats, N
 * per item (16: a matrix, 3: a vector, 4: a quaternion or a plane), made
 * from
 *   - a pointer to float and an item count: float_view<16>(p, n) reads 16n
 *     floats;
 *   - a pointer to T and an item count, a T[K] array, or a contiguous
 *     container of T (anything with data() and size(): std::vector,
 *     std::array, ...), where T is float (then the length in floats must be
 *     a multiple of N) or one item: std::array<float, N>, float[N], or a
 *     trivially copyable, standard-layout type of N floats (glm::mat4,
 *     glm::vec3, a struct of 16 floats) — checked at compile time by size;
 *   - one such item, or a braced list of floats ({0, 0, 1}).
 * (glm::quat stores x, y, z, w unless GLM_FORCE_QUAT_DATA_WXYZ is defined:
 * sgrt's order. Nothing can check that a struct of N floats means what the
 * call expects; only its size is checked.)
 * sgrt::float_span<N> (mat4_span: matrices) is its writable twin, the
 * output of sgrt::trs_to_matrices, made the same ways from data that is not
 * const (no braced list).
 * A batch call whose views do not hold exactly one item per node (or per
 * writer entry) returns SGRT_ERR_INVALID_ARG without calling the library:
 * such a refusal changes nothing and leaves *out_bad untouched.
 *
 * Refusals. This layer reports its own as the C calls report theirs: one
 * entry to the scene's log (sgrt_scene_desc.log, as given to
 * scene::create, or to the constructor that adopts a C scene), with code
 * SGRT_ERR_INVALID_ARG, `function` the C function the call wraps, and a
 * static message naming the argument ("locals does not hold one matrix
 * per entry of nodes", "this sgrt::tracker is empty: moved from or
 * destroyed"). They are: a view of the wrong length; a call on an empty
 * sgrt::scene (moved from or destroyed, which keeps the log it had); a
 * call on an empty tracker, node set or writer (moved from, or destroyed:
 * an emptied wrapper stays tied to its scene for this), or one passed as
 * an argument. Not reported, for want of a log: calls on a wrapper never
 * created or whose scene is gone, and the functions of namespace sgrt that
 * take no scene (trs_to_matrices, frustum_planes).
 */
#ifndef SGRT_HPP
#define SGRT_HPP

#include "sgrt.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <type_traits>
#include <utility>

/* The handles are C types of the global namespace: their operators live
 * there, where argument-dependent lookup finds them from any namespace. */
[[nodiscard]] constexpr bool operator==(sgrt_node a, sgrt_node b) noexcept { return a.id == b.id; }
[[nodiscard]] constexpr bool operator!=(sgrt_node a, sgrt_node b) noexcept { return a.id != b.id; }
#define SGRT_HPP_HANDLE_EQ(T)                                                          \
    [[nodiscard]] constexpr bool operator==(T a, T b) noexcept { return a.id == b.id; } \
    [[nodiscard]] constexpr bool operator!=(T a, T b) noexcept { return a.id != b.id; }
SGRT_HPP_HANDLE_EQ(sgrt_tracker)
SGRT_HPP_HANDLE_EQ(sgrt_nodeset)
SGRT_HPP_HANDLE_EQ(sgrt_writer)
SGRT_HPP_HANDLE_EQ(sgrt_skin)
#undef SGRT_HPP_HANDLE_EQ

namespace std {
template <>
struct hash<sgrt_node> {
    std::size_t operator()(sgrt_node n) const noexcept { return std::hash<std::uint32_t>{}(n.id); }
};
} // namespace std

/* The views take braced lists for the call they are arguments of; GCC
 * warns about any class that keeps a pointer into one. */
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 9
#define SGRT_HPP_INIT_LIST_BEGIN \
    _Pragma("GCC diagnostic push") _Pragma("GCC diagnostic ignored \"-Winit-list-lifetime\"")
#define SGRT_HPP_INIT_LIST_END _Pragma("GCC diagnostic pop")
#else
#define SGRT_HPP_INIT_LIST_BEGIN
#define SGRT_HPP_INIT_LIST_END
#endif

namespace sgrt {

namespace detail {

template <class T>
struct is_std_array : std::false_type {};
template <class T, std::size_t K>
struct is_std_array<std::array<T, K>> : std::true_type {};

// How many floats a T is made of; 0 when it is not made of floats. Arrays
// are looked into; other class types are taken by their size.
template <class T, class = void>
struct float_count : std::integral_constant<std::size_t, 0> {};
template <>
struct float_count<float> : std::integral_constant<std::size_t, 1> {};
template <class T, std::size_t K>
struct float_count<T[K]> : std::integral_constant<std::size_t, K * float_count<T>::value> {};
template <class T, std::size_t K>
struct float_count<std::array<T, K>>
    : std::integral_constant<std::size_t, K * float_count<T>::value> {};
template <class T>
struct float_count<T, std::enable_if_t<std::is_class<T>::value && !is_std_array<T>::value &&
                                       std::is_trivially_copyable<T>::value &&
                                       std::is_standard_layout<T>::value &&
                                       sizeof(T) % sizeof(float) == 0 &&
                                       alignof(T) % alignof(float) == 0>>
    : std::integral_constant<std::size_t, sizeof(T) / sizeof(float)> {};

template <class T, class = void>
struct is_contiguous : std::false_type {};
template <class C>
struct is_contiguous<C, std::void_t<decltype(std::declval<C &>().data()),
                                    decltype(std::declval<C &>().size())>>
    : std::is_pointer<decltype(std::declval<C &>().data())> {};

template <class C>
using element_of = std::remove_cv_t<std::remove_pointer_t<decltype(std::declval<C &>().data())>>;

// Floats per element of an array or container that a view of N-float items
// is made from: 1 (floats) or N (items).
template <class T, std::size_t N>
constexpr std::size_t floats_per_element() noexcept
{
    constexpr std::size_t f = float_count<std::remove_cv_t<T>>::value;
    static_assert(f == 1 || f == N,
                  "sgrt::float_view<N>, sgrt::float_span<N>: an element must be one float or one "
                  "item of N floats (std::array<float, N>, float[N], or a trivially copyable, "
                  "standard-layout type of N floats)");
    return f;
}

// Floats in one item T of a view of N-float items: N, or a compile error.
template <class T, std::size_t N>
constexpr std::size_t floats_per_item() noexcept
{
    static_assert(float_count<std::remove_cv_t<T>>::value == N,
                  "sgrt::float_view<N>, sgrt::float_span<N>: an item must be N floats "
                  "(std::array<float, N>, float[N], or a trivially copyable, standard-layout "
                  "type of N floats)");
    return N;
}

// What float_view and float_span share: F (float or const float) data, N
// floats per item.
template <class F, std::size_t N>
class packed_floats {
    static_assert(N > 0, "an item holds at least one float");

public:
    using packed_floats_tag = void;

    [[nodiscard]] constexpr F *data() const noexcept { return data_; }
    /** Length in floats. */
    [[nodiscard]] constexpr std::size_t floats() const noexcept { return floats_; }
    /** Whole items. */
    [[nodiscard]] constexpr std::size_t size() const noexcept { return floats_ / N; }
    /** True when the view holds exactly `count` items. */
    [[nodiscard]] constexpr bool holds(std::size_t count) const noexcept
    {
        return floats_ % N == 0 && floats_ / N == count;
    }

protected:
    constexpr packed_floats() noexcept = default;
    constexpr packed_floats(F *data, std::size_t floats) noexcept : data_(data), floats_(floats) {}

private:
    F *data_ = nullptr;
    std::size_t floats_ = 0;
};

// A float_view or float_span: contiguous, but its size() counts items, so
// it is never taken as a container of floats (a mat4_view of a vec4_view
// would read a quarter of it).
template <class T, class = void>
struct is_packed_floats : std::false_type {};
template <class T>
struct is_packed_floats<T, std::void_t<typename T::packed_floats_tag>> : std::true_type {};

template <class T>
using remove_cvref_t = std::remove_cv_t<std::remove_reference_t<T>>;

} // namespace detail

/** Read-only view of packed floats, N per item (see the top of this file). */
template <std::size_t N>
class float_view : public detail::packed_floats<const float, N> {
    using base = detail::packed_floats<const float, N>;

public:
    constexpr float_view() noexcept = default;

    /** count items of N floats at data. */
    constexpr float_view(const float *data, std::size_t count) noexcept : base(data, count * N) {}

    /** count items of type T at data (T: N floats, as std::array<float, N>). */
    template <class T, std::enable_if_t<!std::is_same<std::remove_cv_t<T>, float>::value, int> = 0>
    float_view(const T *data, std::size_t count) noexcept
        : base(reinterpret_cast<const float *>(data), count * detail::floats_per_item<T, N>())
    {
    }

    /** An array of floats (K floats) or of items (K items). */
    template <class T, std::size_t K>
    float_view(const T (&elements)[K]) noexcept
        : base(reinterpret_cast<const float *>(&elements[0]),
               K * detail::floats_per_element<T, N>())
    {
    }

    /** A contiguous container (data() and size()) of floats or of items. */
    template <class C, std::enable_if_t<detail::is_contiguous<const C>::value &&
                                            !detail::is_packed_floats<C>::value,
                                        int> = 0>
    float_view(const C &elements) noexcept
        : base(reinterpret_cast<const float *>(elements.data()),
               elements.size() * detail::floats_per_element<detail::element_of<const C>, N>())
    {
    }

    /** One item (a glm::mat4, a struct of 16 floats, ...). */
    template <class T, std::enable_if_t<!detail::is_contiguous<const T>::value &&
                                            !std::is_array<T>::value &&
                                            !std::is_pointer<T>::value &&
                                            !detail::is_packed_floats<T>::value,
                                        int> = 0>
    float_view(const T &one) noexcept
        : base(reinterpret_cast<const float *>(&one), detail::floats_per_item<T, N>())
    {
    }

    /** Floats in braces: {0, 0, 1} (the list lives until the end of the
     *  call it is written in: a view is a parameter, never kept). */
SGRT_HPP_INIT_LIST_BEGIN
    constexpr float_view(std::initializer_list<float> floats) noexcept
        : base(floats.begin(), floats.size())
    {
    }
SGRT_HPP_INIT_LIST_END
};

/** Writable view of packed floats, N per item: where sgrt::trs_to_matrices
 *  writes. Made as a float_view is, from data that is not const: a pointer
 *  to float or to T and an item count, a T[K] array, a contiguous container
 *  of T, or one item (T: float, or one item of N floats). */
template <std::size_t N>
class float_span : public detail::packed_floats<float, N> {
    using base = detail::packed_floats<float, N>;

    template <class T>
    static constexpr bool writable = !std::is_const<T>::value;

public:
    constexpr float_span() noexcept = default;

    /** count items of N floats at data. */
    constexpr float_span(float *data, std::size_t count) noexcept : base(data, count * N) {}

    /** count items of type T at data. */
    template <class T, std::enable_if_t<!std::is_same<T, float>::value && writable<T>, int> = 0>
    float_span(T *data, std::size_t count) noexcept
        : base(reinterpret_cast<float *>(data), count * detail::floats_per_item<T, N>())
    {
    }

    /** An array of floats (K floats) or of items (K items). */
    template <class T, std::size_t K, std::enable_if_t<writable<T>, int> = 0>
    float_span(T (&elements)[K]) noexcept
        : base(reinterpret_cast<float *>(&elements[0]), K * detail::floats_per_element<T, N>())
    {
    }

    /** A contiguous container (data() and size()) of floats or of items. */
    template <class C,
              std::enable_if_t<detail::is_contiguous<C>::value &&
                                   writable<std::remove_pointer_t<
                                       decltype(std::declval<C &>().data())>> &&
                                   !detail::is_packed_floats<C>::value,
                               int> = 0>
    float_span(C &elements) noexcept
        : base(reinterpret_cast<float *>(elements.data()),
               elements.size() * detail::floats_per_element<detail::element_of<C>, N>())
    {
    }

    /** One item (a glm::mat4, a struct of 16 floats, ...). */
    template <class T, std::enable_if_t<!detail::is_contiguous<T>::value &&
                                            !std::is_array<T>::value &&
                                            !std::is_pointer<T>::value && writable<T> &&
                                            !detail::is_packed_floats<T>::value,
                                        int> = 0>
    float_span(T &one) noexcept
        : base(reinterpret_cast<float *>(&one), detail::floats_per_item<T, N>())
    {
    }
};

using mat4_view = float_view<16>;
using vec3_view = float_view<3>;
using vec4_view = float_view<4>;
using mat4_span = float_span<16>;

/** A contiguous run of T (const T for input): pointer and count, a T[K]
 *  array, a container with data() and size(), or a braced list. */
template <class T>
class span {
public:
    constexpr span() noexcept = default;
    constexpr span(T *data, std::size_t size) noexcept : data_(data), size_(size) {}
    template <std::size_t K>
    constexpr span(T (&items)[K]) noexcept : data_(items), size_(K)
    {
    }
    template <class C,
              std::enable_if_t<!std::is_same<detail::remove_cvref_t<C>, span>::value &&
                                   detail::is_contiguous<std::remove_reference_t<C>>::value &&
                                   std::is_same<detail::element_of<C>,
                                                std::remove_cv_t<T>>::value &&
                                   std::is_convertible<decltype(std::declval<C &>().data()),
                                                       T *>::value,
                               int> = 0>
    constexpr span(C &&items) noexcept : data_(items.data()), size_(items.size())
    {
    }
    /** A braced list, for a span of const T: {a, b, c} (as a parameter). */
SGRT_HPP_INIT_LIST_BEGIN
    constexpr span(std::initializer_list<std::remove_const_t<T>> items) noexcept
        : data_(items.begin()), size_(items.size())
    {
    }
SGRT_HPP_INIT_LIST_END

    [[nodiscard]] constexpr T *data() const noexcept { return data_; }
    [[nodiscard]] constexpr std::size_t size() const noexcept { return size_; }

private:
    T *data_ = nullptr;
    std::size_t size_ = 0;
};

class scene;

namespace detail {

// A scene's log, as sgrt_scene_desc gave it, for the refusals of this
// layer's own: reported as the C calls report theirs, one entry with a
// static message that names the argument (nothing without a log).
struct scene_log {
    sgrt_log_fn fn = nullptr;
    void *user = nullptr;

    sgrt_result refuse(const char *function, const char *message) const noexcept
    {
        if (fn) {
            const sgrt_log_entry e{SGRT_ERR_INVALID_ARG, function, message, SGRT_NULL_NODE};
            fn(user, &e);
        }
        return SGRT_ERR_INVALID_ARG;
    }
};

// What trackers, node sets and writers share: their C handle's id, and
// their place in the scene's list of wrappers, through which the scene
// empties the ones still alive when it goes first (a C handle outlives
// its scene harmlessly, but destroying it needs the scene). A wrapper
// emptied by destroy() or by a move stays in the list with id 0, so that a
// call on it is reported through the scene's log; it leaves the list when
// it is destroyed or given another object, and when its scene goes.
class scene_child {
public:
    scene_child(const scene_child &) = delete;
    scene_child &operator=(const scene_child &) = delete;

protected:
    scene_child() noexcept = default;
    scene_child(scene_child &&o) noexcept { take(o); }
    ~scene_child() { unlink(); }

    inline void attach(scene &s, std::uint32_t id) noexcept;
    inline void unlink() noexcept;
    inline void take(scene_child &o) noexcept;
    // The C scene for a call of `function`; when the wrapper is empty,
    // `empty` reported and nullptr, which the C call refuses unreported.
    inline sgrt_scene *c_scene(const char *function, const char *empty) const noexcept;
    inline sgrt_result refuse(const char *function, const char *message) const noexcept;

    std::uint32_t id_ = 0;

private:
    friend class sgrt::scene;
    scene *owner_ = nullptr;
    scene_child *prev_ = nullptr, *next_ = nullptr;
};

// A shift, not n <= UINT32_MAX: with a 32-bit size_t that comparison is
// always true, and -Wtype-limits (in -Wextra) says so.
constexpr bool fits_u32(std::size_t n) noexcept
{
    return static_cast<std::uint64_t>(n) >> 32 == 0;
}

} // namespace detail

// --- calls that take no scene ---------------------------------------------

/** The library's version at run time (sgrt_version), in SGRT_VERSION's form. */
[[nodiscard]] inline std::uint32_t version() noexcept { return sgrt_version(); }
/** The same as "MAJOR.MINOR.PATCH" (sgrt_version_string). */
[[nodiscard]] inline const char *version_string() noexcept { return sgrt_version_string(); }
/** A static sentence saying what r means, ending with its name (sgrt_result_str). */
[[nodiscard]] inline const char *to_string(sgrt_result r) noexcept { return sgrt_result_str(r); }
/** The kernel a default scene runs on this CPU, and why (sgrt_simd_name,
 *  sgrt_simd_reason). */
[[nodiscard]] inline const char *simd_name() noexcept { return sgrt_simd_name(); }
[[nodiscard]] inline const char *simd_reason() noexcept { return sgrt_simd_reason(); }

/** sgrt_trs_to_matrices: out receives T x R x S of each entry of t, q and
 *  scale, as sgrt_node_set_trs would store it. The four views must hold the
 *  same number of items (out: matrices), or SGRT_ERR_INVALID_ARG without
 *  calling the library. Non-finite input is converted, not refused (see
 *  sgrt.h). */
[[nodiscard]] inline sgrt_result trs_to_matrices(vec3_view t, vec4_view q, vec3_view scale,
                                                 mat4_span out) noexcept
{
    const std::size_t n = t.size();
    if (!detail::fits_u32(n) || !t.holds(n) || !q.holds(n) || !scale.holds(n) || !out.holds(n))
        return SGRT_ERR_INVALID_ARG;
    return sgrt_trs_to_matrices(static_cast<std::uint32_t>(n), t.data(), q.data(), scale.data(),
                                out.data());
}

/** sgrt_frustum_planes: the six planes (left, right, bottom, top, near, far;
 *  {nx, ny, nz, d} each, unit normals) of a view-projection matrix, for
 *  scene::cull. out must hold exactly 6 planes of 4 floats (float[6][4],
 *  std::array<std::array<float, 4>, 6>, glm::vec4[6], 24 floats, ...),
 *  view_proj one matrix, or SGRT_ERR_INVALID_ARG without calling the
 *  library. */
[[nodiscard]] inline sgrt_result frustum_planes(mat4_view view_proj, sgrt_clip_depth depth,
                                                float_span<4> out) noexcept
{
    if (!view_proj.holds(1) || !out.holds(6))
        return SGRT_ERR_INVALID_ARG;
    return sgrt_frustum_planes(view_proj.data(), depth, reinterpret_cast<float(*)[4]>(out.data()));
}

class nodeset;

/** Owns an sgrt_scene. */
class scene {
public:
    constexpr scene() noexcept = default;
    /** Takes ownership of a scene made by sgrt_scene_create, with the log
     *  it was created with (sgrt_scene_desc.log and log_user), where this
     *  layer reports its own refusals (none without one). */
    explicit scene(sgrt_scene *owned, sgrt_log_fn log = nullptr, void *log_user = nullptr) noexcept
        : s_(owned), log_{log, log_user}
    {
    }
    scene(scene &&o) noexcept { take(o); }
    scene &operator=(scene &&o) noexcept
    {
        if (this != &o) {
            destroy();
            take(o);
        }
        return *this;
    }
    scene(const scene &) = delete;
    scene &operator=(const scene &) = delete;
    ~scene() { destroy(); }

    /** sgrt_scene_create (desc NULL: defaults). On success out owns the new
     *  scene (its previous one destroyed); on failure out is unchanged. */
    [[nodiscard]] static sgrt_result create(const sgrt_scene_desc *desc, scene &out) noexcept
    {
        sgrt_scene *s = nullptr;
        const sgrt_result r = sgrt_scene_create(desc, &s);
        if (r == SGRT_OK)
            out = desc ? scene(s, desc->log, desc->log_user) : scene(s);
        return r;
    }

    /** sgrt_scene_destroy; empties the wrappers of the scene still alive. */
    void destroy() noexcept
    {
        for (detail::scene_child *c = children_; c;) {
            detail::scene_child *next = c->next_;
            c->owner_ = nullptr;
            c->prev_ = c->next_ = nullptr;
            c->id_ = 0;
            c = next;
        }
        children_ = nullptr;
        sgrt_scene_destroy(s_);
        s_ = nullptr;
    }

    [[nodiscard]] sgrt_scene *get() noexcept { return s_; }
    [[nodiscard]] const sgrt_scene *get() const noexcept { return s_; }
    explicit operator bool() const noexcept { return s_ != nullptr; }

    // --- scene -----------------------------------------------------------
    [[nodiscard]] sgrt_result reserve(std::uint32_t node_count) noexcept
    {
        return sgrt_scene_reserve(arg_("sgrt_scene_reserve"), node_count);
    }
    [[nodiscard]] sgrt_result compact() noexcept
    {
        return sgrt_scene_compact(arg_("sgrt_scene_compact"));
    }
    [[nodiscard]] std::uint32_t node_count() const noexcept
    {
        return sgrt_scene_node_count(arg_("sgrt_scene_node_count"));
    }
    [[nodiscard]] sgrt_result check(const char **out_what = nullptr) const noexcept
    {
        return sgrt_scene_check(arg_("sgrt_scene_check"), out_what);
    }
    /** The kernel this scene runs (sgrt_scene_simd_name); NULL when empty. */
    [[nodiscard]] const char *simd_name() const noexcept
    {
        return sgrt_scene_simd_name(arg_("sgrt_scene_simd_name"));
    }
    /** sgrt_scene_dump through a C write function. */
    [[nodiscard]] sgrt_result dump(sgrt_dump_write_fn write_fn, void *user,
                                   sgrt_dump_format format) const noexcept
    {
        return sgrt_scene_dump(arg_("sgrt_scene_dump"), write_fn, user, format);
    }
    /** sgrt_scene_dump through a callable: write(const char *bytes,
     *  std::size_t len) appends the bytes and returns true to go on, false
     *  to stop (the dump then returns SGRT_ERR_WRITE). It must not throw:
     *  the library cannot unwind, so an exception ends the program. */
    template <class W, std::enable_if_t<std::is_invocable_r<bool, W &, const char *,
                                                            std::size_t>::value,
                                        int> = 0>
    [[nodiscard]] sgrt_result dump(W &&write, sgrt_dump_format format) const noexcept
    {
        using writer_type = std::remove_reference_t<W>;
        const sgrt_dump_write_fn fn = [](void *user, const char *bytes,
                                         std::size_t len) noexcept -> int {
            return (*static_cast<writer_type *>(user))(bytes, len) ? 0 : 1;
        };
        return sgrt_scene_dump(arg_("sgrt_scene_dump"), fn,
                               const_cast<void *>(static_cast<const void *>(std::addressof(write))),
                               format);
    }

    // --- nodes -----------------------------------------------------------
    [[nodiscard]] sgrt_result node_create(sgrt_node parent, sgrt_node &out) noexcept
    {
        return sgrt_node_create(arg_("sgrt_node_create"), parent, &out);
    }
    [[nodiscard]] sgrt_result node_destroy(sgrt_node node) noexcept
    {
        return sgrt_node_destroy(arg_("sgrt_node_destroy"), node);
    }
    [[nodiscard]] bool node_alive(sgrt_node node) const noexcept
    {
        return sgrt_node_alive(arg_("sgrt_node_alive"), node);
    }
    [[nodiscard]] sgrt_result node_parent(sgrt_node node, sgrt_node &out) const noexcept
    {
        return sgrt_node_parent(arg_("sgrt_node_parent"), node, &out);
    }
    [[nodiscard]] sgrt_result node_set_parent(sgrt_node node, sgrt_node parent,
                                              sgrt_keep keep = SGRT_KEEP_LOCAL) noexcept
    {
        return sgrt_node_set_parent(arg_("sgrt_node_set_parent"), node, parent, keep);
    }
    /** First child (SGRT_NULL_NODE: none), and next sibling (SGRT_NULL_NODE
     *  after the last). */
    [[nodiscard]] sgrt_result node_first_child(sgrt_node node, sgrt_node &out) const noexcept
    {
        return sgrt_node_first_child(arg_("sgrt_node_first_child"), node, &out);
    }
    [[nodiscard]] sgrt_result node_next_sibling(sgrt_node node, sgrt_node &out) const noexcept
    {
        return sgrt_node_next_sibling(arg_("sgrt_node_next_sibling"), node, &out);
    }
    [[nodiscard]] sgrt_result node_set_user(sgrt_node node, std::uint64_t user) noexcept
    {
        return sgrt_node_set_user(arg_("sgrt_node_set_user"), node, user);
    }
    [[nodiscard]] sgrt_result node_user(sgrt_node node, std::uint64_t &out) const noexcept
    {
        return sgrt_node_user(arg_("sgrt_node_user"), node, &out);
    }

    // --- transforms: one node --------------------------------------------
    [[nodiscard]] sgrt_result node_set_local(sgrt_node node, const float *m) noexcept
    {
        return sgrt_node_set_local(arg_("sgrt_node_set_local"), node, m);
    }
    [[nodiscard]] sgrt_result node_set_local(sgrt_node node, mat4_view m) noexcept
    {
        if (!m.holds(1))
            return refuse_("sgrt_node_set_local", "m does not hold one matrix (16 floats)");
        return sgrt_node_set_local(arg_("sgrt_node_set_local"), node, m.data());
    }
    [[nodiscard]] sgrt_result node_set_trs(sgrt_node node, const float *t, const float *q,
                                           const float *scale) noexcept
    {
        return sgrt_node_set_trs(arg_("sgrt_node_set_trs"), node, t, q, scale);
    }
    [[nodiscard]] sgrt_result node_set_trs(sgrt_node node, vec3_view t, vec4_view q,
                                           vec3_view scale) noexcept
    {
        static const char fn[] = "sgrt_node_set_trs";
        if (!t.holds(1))
            return refuse_(fn, "t does not hold one translation (3 floats)");
        if (!q.holds(1))
            return refuse_(fn, "q does not hold one quaternion (4 floats)");
        if (!scale.holds(1))
            return refuse_(fn, "scale does not hold one scale (3 floats)");
        return sgrt_node_set_trs(arg_("sgrt_node_set_trs"), node, t.data(), q.data(), scale.data());
    }
    [[nodiscard]] sgrt_result node_set_world(sgrt_node node, const float *m) noexcept
    {
        return sgrt_node_set_world(arg_("sgrt_node_set_world"), node, m);
    }
    [[nodiscard]] sgrt_result node_set_world(sgrt_node node, mat4_view m) noexcept
    {
        if (!m.holds(1))
            return refuse_("sgrt_node_set_world", "m does not hold one matrix (16 floats)");
        return sgrt_node_set_world(arg_("sgrt_node_set_world"), node, m.data());
    }

    // Reads into 16 floats: a float pointer, or any 16-float type (float[16],
    // std::array<float, 16>, glm::mat4, ...).
    [[nodiscard]] sgrt_result node_local(sgrt_node node, float *out) const noexcept
    {
        return sgrt_node_local(arg_("sgrt_node_local"), node, out);
    }
    template <class M>
    [[nodiscard]] sgrt_result node_local(sgrt_node node, M &out) const noexcept
    {
        return sgrt_node_local(arg_("sgrt_node_local"), node, mat4_out(out));
    }
    [[nodiscard]] sgrt_result node_world(sgrt_node node, float *out) const noexcept
    {
        return sgrt_node_world(arg_("sgrt_node_world"), node, out);
    }
    template <class M>
    [[nodiscard]] sgrt_result node_world(sgrt_node node, M &out) const noexcept
    {
        return sgrt_node_world(arg_("sgrt_node_world"), node, mat4_out(out));
    }
    [[nodiscard]] sgrt_result node_world_now(sgrt_node node, float *out) const noexcept
    {
        return sgrt_node_world_now(arg_("sgrt_node_world_now"), node, out);
    }
    template <class M>
    [[nodiscard]] sgrt_result node_world_now(sgrt_node node, M &out) const noexcept
    {
        return sgrt_node_world_now(arg_("sgrt_node_world_now"), node, mat4_out(out));
    }

    // --- large worlds (SGRT_SCENE_LARGE_WORLD) ------------------------------
    [[nodiscard]] sgrt_result node_set_anchor(sgrt_node root, const double *position) noexcept
    {
        return sgrt_node_set_anchor(arg_("sgrt_node_set_anchor"), root, position);
    }
    [[nodiscard]] sgrt_result node_anchor(sgrt_node root, double *out) const noexcept
    {
        return sgrt_node_anchor(arg_("sgrt_node_anchor"), root, out);
    }
    [[nodiscard]] sgrt_result set_origin(const double *origin) noexcept
    {
        return sgrt_scene_set_origin(arg_("sgrt_scene_set_origin"), origin);
    }
    [[nodiscard]] sgrt_result origin(double *out) const noexcept
    {
        return sgrt_scene_origin(arg_("sgrt_scene_origin"), out);
    }
    [[nodiscard]] sgrt_result node_world_double(sgrt_node node, double *out) const noexcept
    {
        return sgrt_node_world_double(arg_("sgrt_node_world_double"), node, out);
    }
    [[nodiscard]] sgrt_result node_set_anchor(sgrt_node root,
                                              const std::array<double, 3> &position) noexcept
    {
        return sgrt_node_set_anchor(arg_("sgrt_node_set_anchor"), root, position.data());
    }
    [[nodiscard]] sgrt_result node_anchor(sgrt_node root, std::array<double, 3> &out) const noexcept
    {
        return sgrt_node_anchor(arg_("sgrt_node_anchor"), root, out.data());
    }
    [[nodiscard]] sgrt_result set_origin(const std::array<double, 3> &origin) noexcept
    {
        return sgrt_scene_set_origin(arg_("sgrt_scene_set_origin"), origin.data());
    }
    [[nodiscard]] sgrt_result origin(std::array<double, 3> &out) const noexcept
    {
        return sgrt_scene_origin(arg_("sgrt_scene_origin"), out.data());
    }
    [[nodiscard]] sgrt_result node_world_double(sgrt_node node,
                                                std::array<double, 16> &out) const noexcept
    {
        return sgrt_node_world_double(arg_("sgrt_node_world_double"), node, out.data());
    }

    // --- transforms: batches (one item per node, or SGRT_ERR_INVALID_ARG) -
    [[nodiscard]] sgrt_result nodes_set_local(span<const sgrt_node> nodes, mat4_view locals,
                                              std::uint32_t *out_bad = nullptr) noexcept
    {
        static const char fn[] = "sgrt_nodes_set_local";
        if (!detail::fits_u32(nodes.size()))
            return refuse_(fn, "nodes holds more than 2^32 - 1 entries");
        if (!locals.holds(nodes.size()))
            return refuse_(fn, "locals does not hold one matrix per entry of nodes");
        return sgrt_nodes_set_local(arg_("sgrt_nodes_set_local"),
                                    static_cast<std::uint32_t>(nodes.size()), nodes.data(),
                                    locals.data(), out_bad);
    }
    [[nodiscard]] sgrt_result nodes_set_trs(span<const sgrt_node> nodes, vec3_view t, vec4_view q,
                                            vec3_view scale,
                                            std::uint32_t *out_bad = nullptr) noexcept
    {
        static const char fn[] = "sgrt_nodes_set_trs";
        const std::size_t n = nodes.size();
        if (!detail::fits_u32(n))
            return refuse_(fn, "nodes holds more than 2^32 - 1 entries");
        if (!t.holds(n))
            return refuse_(fn, "t does not hold one translation per entry of nodes");
        if (!q.holds(n))
            return refuse_(fn, "q does not hold one quaternion per entry of nodes");
        if (!scale.holds(n))
            return refuse_(fn, "scale does not hold one scale per entry of nodes");
        return sgrt_nodes_set_trs(arg_("sgrt_nodes_set_trs"), static_cast<std::uint32_t>(n),
                                  nodes.data(), t.data(), q.data(), scale.data(), out_bad);
    }

    // --- update and hand-off ---------------------------------------------
    /** Worlds recomputed (sgrt_scene_update). */
    std::uint32_t update() noexcept { return sgrt_scene_update(arg_("sgrt_scene_update")); }
    /** sgrt_scene_nonfinite_locals: the locals written in place that the
     *  last update found not finite and made the identity; the first one's
     *  node in *out_first when given. */
    [[nodiscard]] std::uint32_t nonfinite_locals(sgrt_node *out_first = nullptr) const noexcept
    {
        return sgrt_scene_nonfinite_locals(arg_("sgrt_scene_nonfinite_locals"), out_first);
    }
    std::uint32_t update_parallel(const sgrt_executor &ex) noexcept
    {
        return sgrt_scene_update_parallel(arg_("sgrt_scene_update_parallel"), &ex);
    }
    /** 16 floats per slot, as of the last update; NULL for an empty scene. */
    [[nodiscard]] const float *world_array(std::uint32_t *out_slot_count = nullptr) const noexcept
    {
        return sgrt_scene_world_array(arg_("sgrt_scene_world_array"), out_slot_count);
    }
    [[nodiscard]] sgrt_result node_slot(sgrt_node node, std::uint32_t &out) const noexcept
    {
        return sgrt_node_slot(arg_("sgrt_node_slot"), node, &out);
    }
    /** The node in a slot; SGRT_NULL_NODE for a dead or out-of-range slot. */
    [[nodiscard]] sgrt_node slot_node(std::uint32_t slot) const noexcept
    {
        return sgrt_scene_slot_node(arg_("sgrt_scene_slot_node"), slot);
    }
    /** Changes exactly when the world (and previous-world, node-set word)
     *  pointers go stale; 0 when empty. */
    [[nodiscard]] std::uint64_t storage_version() const noexcept
    {
        return sgrt_scene_storage_version(arg_("sgrt_scene_storage_version"));
    }
    /** sgrt_scene_hash: the state's 64-bit hash, the same on every target
     *  for the same program (0 when empty). */
    [[nodiscard]] std::uint64_t hash() const noexcept { return sgrt_scene_hash(s_); }

    // --- snapshots -------------------------------------------------------
    /** sgrt_scene_snapshot_size: the bytes a snapshot of the scene takes now. */
    [[nodiscard]] sgrt_result snapshot_size(std::size_t &out_bytes) const noexcept
    {
        return sgrt_scene_snapshot_size(arg_("sgrt_scene_snapshot_size"), &out_bytes);
    }
    /** sgrt_scene_snapshot into buf (size bytes, the caller's). */
    [[nodiscard]] sgrt_result snapshot(void *buf, std::size_t size,
                                       std::size_t *out_written = nullptr) const noexcept
    {
        return sgrt_scene_snapshot(arg_("sgrt_scene_snapshot"), buf, size, out_written);
    }
    /** The snapshot into a container of bytes (std::vector<std::uint8_t>,
     *  std::string, anything with resize(), data() and size() of one-byte
     *  elements), resized to the snapshot's length: the container allocates
     *  (its own way: a resize that throws leaves the call), the library does
     *  not. A rollback ring keeps its containers, so that after the first
     *  round a resize to the same length allocates nothing. On failure the
     *  container is left empty. */
    template <class Bytes, std::enable_if_t<sizeof(*std::declval<Bytes &>().data()) == 1, int> = 0>
    [[nodiscard]] sgrt_result snapshot(Bytes &out) const
    {
        std::size_t n = 0;
        sgrt_result r = sgrt_scene_snapshot_size(arg_("sgrt_scene_snapshot_size"), &n);
        if (r == SGRT_OK) {
            out.resize(n);
            r = sgrt_scene_snapshot(arg_("sgrt_scene_snapshot"), out.data(), out.size(), nullptr);
        }
        if (r != SGRT_OK)
            out.resize(0);
        return r;
    }
    /** sgrt_scene_restore from buf (size bytes), or from a container of
     *  bytes (data(), size()). */
    [[nodiscard]] sgrt_result restore(const void *buf, std::size_t size) noexcept
    {
        return sgrt_scene_restore(arg_("sgrt_scene_restore"), buf, size);
    }
    template <class Bytes, std::enable_if_t<sizeof(*std::declval<const Bytes &>().data()) == 1,
                                            int> = 0>
    [[nodiscard]] sgrt_result restore(const Bytes &in) noexcept
    {
        return restore(in.data(), in.size());
    }
    /** sgrt_scene_load (desc NULL: defaults) from buf, or from a container
     *  of bytes. On success out owns the new scene (its previous one
     *  destroyed), with desc's log; on failure out is unchanged. */
    [[nodiscard]] static sgrt_result load(const sgrt_scene_desc *desc, const void *buf,
                                          std::size_t size, scene &out) noexcept
    {
        sgrt_scene *s = nullptr;
        const sgrt_result r = sgrt_scene_load(desc, buf, size, &s);
        if (r == SGRT_OK)
            out = desc ? scene(s, desc->log, desc->log_user) : scene(s);
        return r;
    }
    template <class Bytes, std::enable_if_t<sizeof(*std::declval<const Bytes &>().data()) == 1,
                                            int> = 0>
    [[nodiscard]] static sgrt_result load(const sgrt_scene_desc *desc, const Bytes &in,
                                          scene &out) noexcept
    {
        return load(desc, in.data(), in.size(), out);
    }
    /** The previous worlds (SGRT_SCENE_PREV_WORLD), laid out as world_array;
     *  NULL for a scene without the flag. */
    [[nodiscard]] const float *prev_world_array(std::uint32_t *out_slot_count = nullptr) const
        noexcept
    {
        return sgrt_scene_prev_world_array(arg_("sgrt_scene_prev_world_array"), out_slot_count);
    }

    // --- render interpolation (SGRT_SCENE_INTERPOLATE) -------------------
    /** sgrt_scene_interpolate: the render worlds alpha of the way from the
     *  tick before to the last tick (0 <= alpha <= 1). */
    [[nodiscard]] sgrt_result interpolate(float alpha) noexcept
    {
        return sgrt_scene_interpolate(arg_("sgrt_scene_interpolate"), alpha);
    }
    /** sgrt_scene_interpolate_parallel on ex: the same bits as interpolate. */
    [[nodiscard]] sgrt_result interpolate_parallel(float alpha, const sgrt_executor &ex) noexcept
    {
        return sgrt_scene_interpolate_parallel(arg_("sgrt_scene_interpolate_parallel"), alpha,
                                               &ex);
    }
    /** The render worlds, laid out as world_array; NULL for a scene without
     *  the flag. */
    [[nodiscard]] const float *render_world_array(std::uint32_t *out_slots = nullptr) const
        noexcept
    {
        return sgrt_scene_render_world_array(arg_("sgrt_scene_render_world_array"), out_slots);
    }
    [[nodiscard]] sgrt_result node_render_world(sgrt_node node, float *out) const noexcept
    {
        return sgrt_node_render_world(arg_("sgrt_node_render_world"), node, out);
    }
    /** Into a float[16], a std::array<float, 16> or a struct of 16 floats. */
    template <class M>
    [[nodiscard]] sgrt_result node_render_world(sgrt_node node, M &out) const noexcept
    {
        return sgrt_node_render_world(arg_("sgrt_node_render_world"), node, mat4_out(out));
    }
    /** sgrt_node_teleport: the node's move in this tick is a jump. */
    [[nodiscard]] sgrt_result node_teleport(sgrt_node node) noexcept
    {
        return sgrt_node_teleport(arg_("sgrt_node_teleport"), node);
    }
    /** sgrt_scene_render_collect into out (at most out.size() ranges): the
     *  slots whose render world changed since the last collect. */
    [[nodiscard]] sgrt_result render_collect(span<sgrt_range> out, std::uint32_t merge_gap,
                                             std::uint32_t &out_count, bool &out_more) noexcept
    {
        const std::uint32_t max = detail::fits_u32(out.size())
                                      ? static_cast<std::uint32_t>(out.size())
                                      : UINT32_MAX;
        return sgrt_scene_render_collect(arg_("sgrt_scene_render_collect"), out.data(), max,
                                         merge_gap, &out_count, &out_more);
    }

    // --- bounds and culling (SGRT_SCENE_BOUNDS) --------------------------
    [[nodiscard]] sgrt_result node_set_bounds(sgrt_node node, vec3_view center,
                                              vec3_view half_extent) noexcept
    {
        static const char fn[] = "sgrt_node_set_bounds";
        if (!center.holds(1))
            return refuse_(fn, "center does not hold 3 floats");
        if (!half_extent.holds(1))
            return refuse_(fn, "half_extent does not hold 3 floats");
        return sgrt_node_set_bounds(arg_("sgrt_node_set_bounds"), node, center.data(),
                                    half_extent.data());
    }
    [[nodiscard]] sgrt_result nodes_set_bounds(span<const sgrt_node> nodes, vec3_view centers,
                                               vec3_view half_extents,
                                               std::uint32_t *out_bad = nullptr) noexcept
    {
        static const char fn[] = "sgrt_nodes_set_bounds";
        const std::size_t n = nodes.size();
        if (!detail::fits_u32(n))
            return refuse_(fn, "nodes holds more than 2^32 - 1 entries");
        if (!centers.holds(n))
            return refuse_(fn, "centers does not hold one center (3 floats) per entry of nodes");
        if (!half_extents.holds(n))
            return refuse_(fn, "half_extents does not hold 3 floats per entry of nodes");
        return sgrt_nodes_set_bounds(arg_("sgrt_nodes_set_bounds"), static_cast<std::uint32_t>(n),
                                     nodes.data(), centers.data(), half_extents.data(), out_bad);
    }
    [[nodiscard]] sgrt_result node_clear_bounds(sgrt_node node) noexcept
    {
        return sgrt_node_clear_bounds(arg_("sgrt_node_clear_bounds"), node);
    }
    /** The local box as set: center and half extents. */
    [[nodiscard]] sgrt_result node_bounds(sgrt_node node, float center[3],
                                          float half_extent[3]) const noexcept
    {
        return sgrt_node_bounds(arg_("sgrt_node_bounds"), node, center, half_extent);
    }
    [[nodiscard]] sgrt_result node_world_bounds(sgrt_node node, float min[3],
                                                float max[3]) const noexcept
    {
        return sgrt_node_world_bounds(arg_("sgrt_node_world_bounds"), node, min, max);
    }
    /** SGRT_SCENE_SUBTREE_BOUNDS: the node's box joined with its descendants'. */
    [[nodiscard]] sgrt_result node_subtree_bounds(sgrt_node node, float min[3],
                                                  float max[3]) const noexcept
    {
        return sgrt_node_subtree_bounds(arg_("sgrt_node_subtree_bounds"), node, min, max);
    }
    [[nodiscard]] sgrt_result bounds_arrays(sgrt_bounds_arrays &out) const noexcept
    {
        return sgrt_scene_bounds_arrays(arg_("sgrt_scene_bounds_arrays"), &out);
    }
    /** sgrt_scene_cull with planes of 4 floats each ({nx, ny, nz, d}); only
     *  NULL: every node. Defined after nodeset. */
    [[nodiscard]] inline sgrt_result cull(vec4_view planes, const nodeset *only, nodeset &out,
                                          sgrt_cull_stats *out_stats = nullptr) const noexcept;

private:
    friend class detail::scene_child;
    friend class tracker;
    friend class nodeset;
    friend class writer;
    friend class skin;

    template <class M>
    static float *mat4_out(M &out) noexcept
    {
        static_assert(detail::float_count<M>::value == 16,
                      "sgrt::scene: the output must be 16 floats (float[16], "
                      "std::array<float, 16>, or a trivially copyable, standard-layout type of "
                      "16 floats)");
        return reinterpret_cast<float *>(&out);
    }

    // The C scene for a call of `function`; when empty, reported and
    // nullptr, which the C call refuses unreported.
    sgrt_scene *arg_(const char *function) const noexcept
    {
        if (!s_)
            (void)log_.refuse(function, "this sgrt::scene is empty: moved from or destroyed");
        return s_;
    }
    sgrt_result refuse_(const char *function, const char *message) const noexcept
    {
        return log_.refuse(function, message);
    }

    // The log stays with o too: calls on the empty scene report there.
    void take(scene &o) noexcept
    {
        s_ = std::exchange(o.s_, nullptr);
        log_ = o.log_;
        children_ = std::exchange(o.children_, nullptr);
        for (detail::scene_child *c = children_; c; c = c->next_)
            c->owner_ = this;
    }

    sgrt_scene *s_ = nullptr;
    detail::scene_child *children_ = nullptr;
    detail::scene_log log_;
};

inline void detail::scene_child::attach(scene &s, std::uint32_t id) noexcept
{
    unlink();
    owner_ = &s;
    id_ = id;
    prev_ = nullptr;
    next_ = s.children_;
    if (next_)
        next_->prev_ = this;
    s.children_ = this;
}

inline void detail::scene_child::unlink() noexcept
{
    if (prev_)
        prev_->next_ = next_;
    else if (owner_)
        owner_->children_ = next_;
    if (next_)
        next_->prev_ = prev_;
    owner_ = nullptr;
    prev_ = next_ = nullptr;
}

// This takes o's object; o stays in the scene's list, empty.
inline void detail::scene_child::take(scene_child &o) noexcept
{
    unlink();
    scene *const owner = o.owner_;
    const std::uint32_t id = std::exchange(o.id_, 0u);
    if (owner) {
        attach(*owner, id);
        o.attach(*owner, 0u);
    }
}

inline sgrt_scene *detail::scene_child::c_scene(const char *function,
                                                const char *empty) const noexcept
{
    if (!id_) {
        (void)refuse(function, empty);
        return nullptr;
    }
    return owner_->s_;
}

inline sgrt_result detail::scene_child::refuse(const char *function,
                                               const char *message) const noexcept
{
    return owner_ ? owner_->log_.refuse(function, message) : SGRT_ERR_INVALID_ARG;
}

/** Owns an sgrt_tracker of a scene. */
class tracker : public detail::scene_child {
    static constexpr const char *empty_ = "this sgrt::tracker is empty: moved from or destroyed";

public:
    tracker() noexcept = default;
    tracker(tracker &&) noexcept = default;
    tracker &operator=(tracker &&o) noexcept
    {
        if (this != &o) {
            (void)destroy();
            take(o);
        }
        return *this;
    }
    ~tracker() { (void)destroy(); }

    /** sgrt_tracker_create. On failure out is unchanged. */
    [[nodiscard]] static sgrt_result create(scene &s, tracker &out) noexcept
    {
        sgrt_tracker t = SGRT_NULL_TRACKER;
        const sgrt_result r = sgrt_tracker_create(s.arg_("sgrt_tracker_create"), &t);
        if (r == SGRT_OK) {
            (void)out.destroy();
            out.attach(s, t.id);
        }
        return r;
    }

    /** sgrt_tracker_destroy; the object is empty afterwards. */
    [[nodiscard]] sgrt_result destroy() noexcept
    {
        if (!id_)
            return SGRT_OK;
        const sgrt_result r = sgrt_tracker_destroy(c_scene("sgrt_tracker_destroy", empty_), get());
        id_ = 0;
        return r;
    }

    /** The C handle (zero when empty). */
    [[nodiscard]] sgrt_tracker get() const noexcept { return sgrt_tracker{id_}; }
    explicit operator bool() const noexcept { return id_ != 0; }

    /** sgrt_tracker_collect into out (at most out.size() ranges). */
    [[nodiscard]] sgrt_result collect(span<sgrt_range> out, std::uint32_t merge_gap,
                                      std::uint32_t &out_count, bool &out_more) noexcept
    {
        const std::uint32_t max = detail::fits_u32(out.size())
                                      ? static_cast<std::uint32_t>(out.size())
                                      : UINT32_MAX;
        return sgrt_tracker_collect(c_scene("sgrt_tracker_collect", empty_), get(), out.data(), max,
                                    merge_gap, &out_count, &out_more);
    }
    [[nodiscard]] sgrt_result check(const char **out_what = nullptr) const noexcept
    {
        return sgrt_tracker_check(c_scene("sgrt_tracker_check", empty_), get(), out_what);
    }
};

/** Owns an sgrt_nodeset of a scene. */
class nodeset : public detail::scene_child {
    static constexpr const char *empty_ = "this sgrt::nodeset is empty: moved from or destroyed";

public:
    nodeset() noexcept = default;
    nodeset(nodeset &&) noexcept = default;
    nodeset &operator=(nodeset &&o) noexcept
    {
        if (this != &o) {
            (void)destroy();
            take(o);
        }
        return *this;
    }
    ~nodeset() { (void)destroy(); }

    /** sgrt_nodeset_create. On failure out is unchanged. */
    [[nodiscard]] static sgrt_result create(scene &s, nodeset &out) noexcept
    {
        sgrt_nodeset set = SGRT_NULL_NODESET;
        const sgrt_result r = sgrt_nodeset_create(s.arg_("sgrt_nodeset_create"), &set);
        if (r == SGRT_OK) {
            (void)out.destroy();
            out.attach(s, set.id);
        }
        return r;
    }

    /** sgrt_nodeset_destroy; the object is empty afterwards. */
    [[nodiscard]] sgrt_result destroy() noexcept
    {
        if (!id_)
            return SGRT_OK;
        const sgrt_result r = sgrt_nodeset_destroy(c_scene("sgrt_nodeset_destroy", empty_), get());
        id_ = 0;
        return r;
    }

    /** The C handle (zero when empty). */
    [[nodiscard]] sgrt_nodeset get() const noexcept { return sgrt_nodeset{id_}; }
    explicit operator bool() const noexcept { return id_ != 0; }

    [[nodiscard]] sgrt_result add(sgrt_node node) noexcept
    {
        return sgrt_nodeset_add(c_scene("sgrt_nodeset_add", empty_), get(), node);
    }
    [[nodiscard]] sgrt_result remove(sgrt_node node) noexcept
    {
        return sgrt_nodeset_remove(c_scene("sgrt_nodeset_remove", empty_), get(), node);
    }
    [[nodiscard]] bool has(sgrt_node node) const noexcept
    {
        return sgrt_nodeset_has(c_scene("sgrt_nodeset_has", empty_), get(), node);
    }
    [[nodiscard]] sgrt_result clear() noexcept
    {
        return sgrt_nodeset_clear(c_scene("sgrt_nodeset_clear", empty_), get());
    }
    [[nodiscard]] std::uint32_t count() const noexcept
    {
        return sgrt_nodeset_count(c_scene("sgrt_nodeset_count", empty_), get());
    }
    /** this = a op b (this may be a or b). */
    [[nodiscard]] sgrt_result combine(const nodeset &a, sgrt_set_op op, const nodeset &b) noexcept
    {
        static const char fn[] = "sgrt_nodeset_combine";
        if (id_ && !a)
            return refuse(fn, "a is an empty sgrt::nodeset: moved from or destroyed");
        if (id_ && !b)
            return refuse(fn, "b is an empty sgrt::nodeset: moved from or destroyed");
        return sgrt_nodeset_combine(c_scene(fn, empty_), get(), a.get(), op, b.get());
    }
    /** this = (t's pending live nodes) op b; b NULL: the pending nodes alone. */
    [[nodiscard]] sgrt_result from_changes(tracker &t, sgrt_set_op op, const nodeset *b,
                                           bool consume) noexcept
    {
        static const char fn[] = "sgrt_nodeset_from_changes";
        if (id_ && !t)
            return refuse(fn, "t is an empty sgrt::tracker: moved from or destroyed");
        if (id_ && b && !*b)
            return refuse(fn, "b is an empty sgrt::nodeset: moved from or destroyed");
        return sgrt_nodeset_from_changes(c_scene(fn, empty_), get(), t.get(), op,
                                         b ? b->get() : SGRT_NULL_NODESET, consume);
    }
    /** The member with the lowest slot >= cursor (start at 0), then cursor
     *  moves past it; SGRT_NULL_NODE at the end. */
    [[nodiscard]] sgrt_node next(std::uint32_t &cursor) const noexcept
    {
        return sgrt_nodeset_next(c_scene("sgrt_nodeset_next", empty_), get(), &cursor);
    }
    [[nodiscard]] const std::uint32_t *words(std::uint32_t *out_word_count = nullptr) const noexcept
    {
        return sgrt_nodeset_words(c_scene("sgrt_nodeset_words", empty_), get(), out_word_count);
    }
};

inline sgrt_result scene::cull(vec4_view planes, const nodeset *only, nodeset &out,
                               sgrt_cull_stats *out_stats) const noexcept
{
    static const char fn[] = "sgrt_scene_cull";
    if (!detail::fits_u32(planes.size()) || !planes.holds(planes.size()))
        return refuse_(fn, "planes does not hold whole planes of 4 floats");
    if (only && !*only)
        return refuse_(fn, "only is an empty sgrt::nodeset: moved from or destroyed");
    if (!out)
        return refuse_(fn, "out is an empty sgrt::nodeset: moved from or destroyed");
    return sgrt_scene_cull(arg_(fn), planes.data(), static_cast<std::uint32_t>(planes.size()),
                           only ? only->get() : SGRT_NULL_NODESET, out.get(), out_stats);
}

/** Owns an sgrt_writer of a scene, and knows its entry count. */
class writer : public detail::scene_child {
    static constexpr const char *empty_ = "this sgrt::writer is empty: moved from or destroyed";

public:
    writer() noexcept = default;
    writer(writer &&o) noexcept : scene_child(std::move(o)), size_(std::exchange(o.size_, 0u)) {}
    writer &operator=(writer &&o) noexcept
    {
        if (this != &o) {
            (void)destroy();
            take(o);
            size_ = std::exchange(o.size_, 0u);
        }
        return *this;
    }
    ~writer() { (void)destroy(); }

    /** sgrt_writer_create for nodes (flags: 0). On failure out is
     *  unchanged. */
    [[nodiscard]] static sgrt_result create(scene &s, span<const sgrt_node> nodes,
                                            std::uint32_t flags, writer &out) noexcept
    {
        if (!detail::fits_u32(nodes.size()))
            return s.refuse_("sgrt_writer_create", "nodes holds more than 2^32 - 1 entries");
        sgrt_writer w = SGRT_NULL_WRITER;
        const sgrt_result r =
            sgrt_writer_create(s.arg_("sgrt_writer_create"),
                               static_cast<std::uint32_t>(nodes.size()), nodes.data(), flags, &w);
        if (r == SGRT_OK) {
            (void)out.destroy();
            out.attach(s, w.id);
            out.size_ = static_cast<std::uint32_t>(nodes.size());
        }
        return r;
    }

    /** sgrt_writer_destroy; the object is empty afterwards. */
    [[nodiscard]] sgrt_result destroy() noexcept
    {
        size_ = 0;
        if (!id_)
            return SGRT_OK;
        const sgrt_result r = sgrt_writer_destroy(c_scene("sgrt_writer_destroy", empty_), get());
        id_ = 0;
        return r;
    }

    /** The C handle (zero when empty). */
    [[nodiscard]] sgrt_writer get() const noexcept { return sgrt_writer{id_}; }
    explicit operator bool() const noexcept { return id_ != 0; }
    /** Entries (0 when empty). */
    [[nodiscard]] std::uint32_t size() const noexcept { return id_ ? size_ : 0u; }

    /** One matrix per entry, or SGRT_ERR_INVALID_ARG. */
    [[nodiscard]] sgrt_result set_local(mat4_view locals, std::uint32_t *out_bad = nullptr) noexcept
    {
        if (id_ && !locals.holds(size_))
            return refuse("sgrt_writer_set_local",
                          "locals does not hold one matrix per writer entry");
        return sgrt_writer_set_local(c_scene("sgrt_writer_set_local", empty_), get(), locals.data(),
                                     out_bad);
    }
    /** One translation, quaternion and scale per entry, or SGRT_ERR_INVALID_ARG. */
    [[nodiscard]] sgrt_result set_trs(vec3_view t, vec4_view q, vec3_view scale,
                                      std::uint32_t *out_bad = nullptr) noexcept
    {
        static const char fn[] = "sgrt_writer_set_trs";
        if (id_ && !t.holds(size_))
            return refuse(fn, "t does not hold one translation per writer entry");
        if (id_ && !q.holds(size_))
            return refuse(fn, "q does not hold one quaternion per writer entry");
        if (id_ && !scale.holds(size_))
            return refuse(fn, "scale does not hold one scale per writer entry");
        return sgrt_writer_set_trs(c_scene("sgrt_writer_set_trs", empty_), get(), t.data(),
                                   q.data(), scale.data(), out_bad);
    }
    /** Entry i's local is the 16 floats at out_locals + 16 * out_slots[i]. */
    [[nodiscard]] sgrt_result begin(float *&out_locals, const std::uint32_t *&out_slots) noexcept
    {
        return sgrt_writer_begin(c_scene("sgrt_writer_begin", empty_), get(), &out_locals,
                                 &out_slots);
    }
    [[nodiscard]] sgrt_result commit(std::uint32_t first, std::uint32_t count) noexcept
    {
        return sgrt_writer_commit(c_scene("sgrt_writer_commit", empty_), get(), first, count);
    }

private:
    std::uint32_t size_ = 0;
};

/** Owns an sgrt_skin of a scene. */
class skin : public detail::scene_child {
    static constexpr const char *empty_ = "this sgrt::skin is empty: moved from or destroyed";

public:
    skin() noexcept = default;
    skin(skin &&) noexcept = default;
    skin &operator=(skin &&o) noexcept
    {
        if (this != &o) {
            (void)destroy();
            take(o);
        }
        return *this;
    }
    ~skin() { (void)destroy(); }

    /** sgrt_skin_create from a desc. On failure out is unchanged. */
    [[nodiscard]] static sgrt_result create(scene &s, const sgrt_skin_desc &desc,
                                            skin &out) noexcept
    {
        sgrt_skin k = SGRT_NULL_SKIN;
        const sgrt_result r = sgrt_skin_create(s.arg_("sgrt_skin_create"), &desc, &k);
        if (r == SGRT_OK) {
            (void)out.destroy();
            out.attach(s, k.id);
        }
        return r;
    }
    /** sgrt_skin_create over joints, with one inverse bind per joint (an
     *  empty view: every one the identity), or SGRT_ERR_INVALID_ARG. */
    [[nodiscard]] static sgrt_result create(scene &s, span<const sgrt_node> joints,
                                            mat4_view inverse_binds, sgrt_node mesh,
                                            std::uint32_t flags, skin &out) noexcept
    {
        static const char fn[] = "sgrt_skin_create";
        if (!detail::fits_u32(joints.size()))
            return s.refuse_(fn, "joints holds more than 2^32 - 1 entries");
        const auto n = static_cast<std::uint32_t>(joints.size());
        if (inverse_binds.floats() && !inverse_binds.holds(n))
            return s.refuse_(fn, "inverse_binds does not hold one matrix per joint");
        const sgrt_skin_desc d = {n, joints.data(),
                                  inverse_binds.floats() ? inverse_binds.data() : nullptr, mesh,
                                  flags};
        return create(s, d, out);
    }

    /** sgrt_skin_destroy; the object is empty afterwards. */
    [[nodiscard]] sgrt_result destroy() noexcept
    {
        if (!id_)
            return SGRT_OK;
        const sgrt_result r = sgrt_skin_destroy(c_scene("sgrt_skin_destroy", empty_), get());
        id_ = 0;
        return r;
    }

    /** The C handle (zero when empty). */
    [[nodiscard]] sgrt_skin get() const noexcept { return sgrt_skin{id_}; }
    explicit operator bool() const noexcept { return id_ != 0; }

    /** sgrt_skin_palette: 12 floats per joint (nullptr when refused). */
    [[nodiscard]] const float *palette(std::uint32_t *out_joints = nullptr) const noexcept
    {
        return sgrt_skin_palette(c_scene("sgrt_skin_palette", empty_), get(), out_joints);
    }
    /** sgrt_skin_normals (SGRT_SKIN_NORMALS). */
    [[nodiscard]] const float *normals(std::uint32_t *out_joints = nullptr) const noexcept
    {
        return sgrt_skin_normals(c_scene("sgrt_skin_normals", empty_), get(), out_joints);
    }
    /** sgrt_skin_prev_palette (SGRT_SKIN_PREV). */
    [[nodiscard]] const float *prev_palette(std::uint32_t *out_joints = nullptr) const noexcept
    {
        return sgrt_skin_prev_palette(c_scene("sgrt_skin_prev_palette", empty_), get(),
                                      out_joints);
    }
    /** sgrt_skin_collect into out (at most out.size() ranges of joints). */
    [[nodiscard]] sgrt_result collect(span<sgrt_range> out, std::uint32_t merge_gap,
                                      std::uint32_t &out_count, bool &out_more) noexcept
    {
        const std::uint32_t max = detail::fits_u32(out.size())
                                      ? static_cast<std::uint32_t>(out.size())
                                      : UINT32_MAX;
        return sgrt_skin_collect(c_scene("sgrt_skin_collect", empty_), get(), out.data(), max,
                                 merge_gap, &out_count, &out_more);
    }
};

} // namespace sgrt

#endif // SGRT_HPP
