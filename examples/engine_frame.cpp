// SPDX-License-Identifier: MIT
/* A whole engine frame through the C++ layer (include/sgrt.hpp), in the
 * order an engine runs it:
 *
 *   1. animation: each node's translation, rotation and scale for the frame,
 *      converted straight into the scene's local matrices through a writer
 *      (writer::begin, sgrt::trs_to_matrices into each entry's slot,
 *      writer::commit): no copy, no handle resolved;
 *   2. camera and origin: a large world (SGRT_SCENE_LARGE_WORLD), a fleet
 *      some 4e7 m from the world's zero, each ship a root anchored in double;
 *      the origin follows the camera on a 1 km grid (scene::set_origin), so
 *      every world the scene hands out is camera-relative and small;
 *   3. scene::update;
 *   4. upload: the ranges of slots a tracker collects, copied from the world
 *      array into the "GPU" buffer (a std::vector here);
 *   5. culling: the frustum planes of the camera-relative view-projection
 *      (sgrt::frustum_planes, 0..1 depth as Vulkan and Direct3D have it),
 *      the scene culled into a node set (scene::cull, skipping whole ships
 *      with subtree boxes), the visible slots drawn from the set.
 * Every refusal goes to the scene's log (sgrt_scene_desc.log), printed here.
 *
 * --check verifies every frame: the GPU buffer equals the world array; each
 * node's world equals a double-precision model of the same animation (the
 * anchors and origin in double, each turn from its angle, composed in
 * double) to
 * within float rounding at the node's distance from the camera; every node
 * drawn meets the frustum and every node culled lies outside a plane (both
 * judged on the model's boxes, give or take the same rounding).
 *
 *   engine_frame [--ships N] [--frames N] [--check] [--quiet]
 *
 * Exit status: 0 when all is well, 1 on a failed check or a refused call,
 * 2 on a bad command line. */
#include <sgrt.hpp>

#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "must.h"

namespace {

constexpr int TURRETS = 8;                     // per ship, each with a barrel
constexpr int PER_SHIP = 1 + 2 * TURRETS;      // hull, turrets, barrels
constexpr double FLEET_X = 4.0e7, FLEET_Z = -2.5e7;
constexpr double SPEED = 150.0;                // metres per frame along x
constexpr double GRID = 1000.0;                // the origin's grid

struct log_state {
    long entries = 0;
    static void fn(void *user, const sgrt_log_entry *e)
    {
        static_cast<log_state *>(user)->entries++;
        std::fprintf(stderr, "sgrt: %s: %s (%s)\n", e->function, e->message,
                     sgrt_result_str(e->code));
    }
};

// One node of the fleet: its parent (an index, -1 for a hull), its anchor
// when it is a hull, its box.
struct part {
    int parent;
    double anchor[3];
    float center[3], half[3];
};

// The animation of node i at frame f: a turn of `angle` about y (about x
// for a barrel), then a translation; scale 1.
struct motion {
    double angle;
    bool about_x;
    float t[3];
};

motion animate(int i, int f)
{
    const int ship = i / PER_SHIP, k = i % PER_SHIP;
    motion m{};
    if (k == 0) { // the hull: flies along x relative to its anchor, yawing
        m.t[0] = (float)(SPEED * f);
        m.t[1] = (float)(3.0 * std::sin(0.05 * f + ship));
        m.angle = 0.2 * std::sin(0.02 * f + ship);
    } else if (k <= TURRETS) { // a turret on the deck
        m.t[0] = (float)(-35.0 + 10.0 * (k - 1));
        m.t[1] = 6.0f;
        m.angle = 0.03 * f * (k % 2 ? 1 : -1) + k;
    } else { // a barrel: pitches
        m.t[1] = 1.5f;
        m.t[2] = 4.0f;
        m.angle = 0.3 * std::sin(0.1 * f + k);
        m.about_x = true;
    }
    return m;
}

// What the engine hands sgrt: translation, quaternion (x, y, z, w), scale.
void to_trs(const motion &m, float t[3], float q[4], float s[3])
{
    const double sn = std::sin(0.5 * m.angle), cs = std::cos(0.5 * m.angle);
    std::memcpy(t, m.t, sizeof m.t);
    q[0] = m.about_x ? (float)sn : 0.0f;
    q[1] = m.about_x ? 0.0f : (float)sn;
    q[2] = 0.0f;
    q[3] = (float)cs;
    s[0] = s[1] = s[2] = 1.0f;
}

// The model's local: the rotation from the angle, in double (column-major).
void local_double(const motion &m, double out[16])
{
    const double c = std::cos(m.angle), s = std::sin(m.angle);
    const double y_turn[16] = {c, 0, -s, 0, 0, 1, 0, 0, s, 0, c, 0, 0, 0, 0, 1};
    const double x_turn[16] = {1, 0, 0, 0, 0, c, s, 0, 0, -s, c, 0, 0, 0, 0, 1};
    std::memcpy(out, m.about_x ? x_turn : y_turn, 16 * sizeof(double));
    out[12] = m.t[0];
    out[13] = m.t[1];
    out[14] = m.t[2];
}

void mul_double(const double a[16], const double b[16], double out[16])
{
    double r[16];
    for (int c = 0; c < 4; c++)
        for (int row = 0; row < 4; row++) {
            double v = 0.0;
            for (int k = 0; k < 4; k++)
                v += a[k * 4 + row] * b[c * 4 + k];
            r[c * 4 + row] = v;
        }
    std::memcpy(out, r, sizeof r);
}

// A perspective camera at `eye` (camera-relative: near the origin) looking
// at `at`, y up; depth 0..1 (Vulkan, Direct3D). Column-major.
std::array<float, 16> view_proj(const double eye[3], const double at[3], double fov,
                                double aspect, double znear, double zfar)
{
    double f[3], r[3], u[3];
    for (int i = 0; i < 3; i++)
        f[i] = at[i] - eye[i];
    double len = std::sqrt(f[0] * f[0] + f[1] * f[1] + f[2] * f[2]);
    for (double &v : f)
        v /= len;
    r[0] = -f[2]; // f x (0, 1, 0)
    r[1] = 0.0;
    r[2] = f[0];
    len = std::sqrt(r[0] * r[0] + r[2] * r[2]);
    r[0] /= len;
    r[2] /= len;
    u[0] = r[1] * f[2] - r[2] * f[1];
    u[1] = r[2] * f[0] - r[0] * f[2];
    u[2] = r[0] * f[1] - r[1] * f[0];
    const double t = std::tan(fov / 2);
    std::array<float, 16> vp{};
    for (int c = 0; c < 4; c++) {
        const double vx = c < 3 ? r[c] : -(r[0] * eye[0] + r[1] * eye[1] + r[2] * eye[2]);
        const double vy = c < 3 ? u[c] : -(u[0] * eye[0] + u[1] * eye[1] + u[2] * eye[2]);
        const double vz = c < 3 ? -f[c] : f[0] * eye[0] + f[1] * eye[1] + f[2] * eye[2];
        vp[c * 4 + 0] = (float)(vx / (t * aspect));
        vp[c * 4 + 1] = (float)(vy / t);
        vp[c * 4 + 2] = (float)(-zfar / (zfar - znear) * vz +
                                (c == 3 ? -zfar * znear / (zfar - znear) : 0.0));
        vp[c * 4 + 3] = (float)(-vz);
    }
    return vp;
}

// The largest n.p + d of the box's corners: below 0, the box is outside.
double plane_reach(const float pl[4], const double lo[3], const double hi[3])
{
    double v = pl[3];
    for (int a = 0; a < 3; a++)
        v += pl[a] * (pl[a] >= 0.0f ? hi[a] : lo[a]);
    return v;
}

struct options {
    int ships = 200, frames = 120;
    bool check = false, quiet = false;
};

bool parse(int argc, char **argv, options &o)
{
    for (int i = 1; i < argc; i++) {
        if (!std::strcmp(argv[i], "--check"))
            o.check = true;
        else if (!std::strcmp(argv[i], "--quiet"))
            o.quiet = true;
        else if ((!std::strcmp(argv[i], "--ships") || !std::strcmp(argv[i], "--frames")) &&
                 i + 1 < argc) {
            const long v = std::strtol(argv[i + 1], nullptr, 10);
            if (v < 1 || v > 100000)
                return false;
            (argv[i][2] == 's' ? o.ships : o.frames) = (int)v;
            i++;
        } else
            return false;
    }
    return true;
}

} // namespace

int main(int argc, char **argv)
{
    options opt;
    if (!parse(argc, argv, opt)) {
        std::fprintf(stderr, "usage: engine_frame [--ships N] [--frames N] [--check] [--quiet]\n");
        return 2;
    }

    // The scene, with its log: a refused call says what was wrong and
    // where, instead of only returning a code.
    log_state log;
    sgrt_scene_desc desc{};
    desc.flags = SGRT_SCENE_LARGE_WORLD | SGRT_SCENE_SUBTREE_BOUNDS;
    desc.log = log_state::fn;
    desc.log_user = &log;
    sgrt::scene scene;
    MUST(sgrt::scene::create(&desc, scene));

    // The fleet: ships in a row, each a hull (a root, anchored in double)
    // with turrets and barrels, created parent first so that each ship's
    // nodes lie in one run of slots (the cull then skips or takes a ship
    // whole).
    const int nodes = opt.ships * PER_SHIP;
    std::vector<part> parts((std::size_t)nodes);
    std::vector<sgrt_node> handles((std::size_t)nodes);
    for (int i = 0; i < nodes; i++) {
        const int ship = i / PER_SHIP, k = i % PER_SHIP;
        part &p = parts[(std::size_t)i];
        p.parent = k == 0 ? -1 : k <= TURRETS ? i - k : i - TURRETS;
        p.anchor[0] = FLEET_X + 400.0 * ship;
        p.anchor[1] = 0.0;
        p.anchor[2] = FLEET_Z - 300.0 * (ship % 5);
        const float hull_half[3] = {40, 6, 10}, turret_half[3] = {3, 2, 3},
                    barrel_half[3] = {0.4f, 0.4f, 4};
        const float *half = k == 0 ? hull_half : k <= TURRETS ? turret_half : barrel_half;
        std::memcpy(p.half, half, sizeof p.half);
        p.center[0] = p.center[1] = 0.0f;
        p.center[2] = k > TURRETS ? 4.0f : 0.0f;
        const sgrt_node parent = p.parent < 0 ? SGRT_NULL_NODE : handles[(std::size_t)p.parent];
        MUST(scene.node_create(parent, handles[(std::size_t)i]));
        if (k == 0)
            MUST(scene.node_set_anchor(handles[(std::size_t)i], p.anchor));
        MUST(scene.node_set_bounds(handles[(std::size_t)i], p.center, p.half));
    }

    // The animation system's writer (every node, every frame), the
    // renderer's tracker and its set of visible nodes.
    sgrt::writer animation;
    MUST(sgrt::writer::create(scene, handles, 0, animation));
    sgrt::tracker gpu_tracker;
    MUST(sgrt::tracker::create(scene, gpu_tracker));
    sgrt::nodeset visible;
    MUST(sgrt::nodeset::create(scene, visible));

    std::vector<float> gpu;               // the GPU's world buffer, 16 floats per slot
    std::vector<sgrt_range> ranges(64);
    std::vector<motion> motions((std::size_t)nodes);
    std::vector<float> trs_t((std::size_t)nodes * 3), trs_q((std::size_t)nodes * 4),
        trs_s((std::size_t)nodes * 3);
    std::array<double, 3> origin{0, 0, 0};
    long failures = 0, drawn_total = 0, uploaded_total = 0, origin_moves = 0;

    for (int frame = 0; frame < opt.frames; frame++) {
        // 1. Animation, converted in place: the writer hands out the local
        // array and each entry's slot (sgrt::trs_to_matrices computes what
        // set_trs would store, bit for bit; examples/trs_in_place.c shows
        // the conversion a chunk at a time).
        for (int i = 0; i < nodes; i++) {
            const std::size_t e = (std::size_t)i;
            motions[e] = animate(i, frame);
            to_trs(motions[e], &trs_t[3 * e], &trs_q[4 * e], &trs_s[3 * e]);
        }
        float *locals = nullptr;
        const std::uint32_t *slots = nullptr;
        MUST(animation.begin(locals, slots));
        for (int i = 0; i < nodes; i++) {
            const std::size_t e = (std::size_t)i;
            MUST(sgrt::trs_to_matrices(sgrt::vec3_view(&trs_t[3 * e], 1),
                                       sgrt::vec4_view(&trs_q[4 * e], 1),
                                       sgrt::vec3_view(&trs_s[3 * e], 1),
                                       sgrt::mat4_span(locals + 16u * slots[e], 1)));
        }
        MUST(animation.commit(0, animation.size()));

        // 2. The camera follows the first ship from behind and above; the
        // origin follows the camera on a 1 km grid (each move makes the
        // next update recompute every world).
        const double lead[3] = {FLEET_X + SPEED * frame, 0.0, FLEET_Z};
        const double eye_abs[3] = {lead[0] - 140.0, lead[1] + 45.0, lead[2] + 90.0};
        std::array<double, 3> snapped;
        for (int a = 0; a < 3; a++)
            snapped[(std::size_t)a] = GRID * std::floor(eye_abs[a] / GRID + 0.5);
        if (frame == 0 || snapped != origin) {
            MUST(scene.set_origin(snapped));
            origin = snapped;
            origin_moves++;
        }

        // 3. The update.
        const std::uint32_t recomputed = scene.update();

        // 4. Upload what changed: the tracker's ranges of slots.
        std::uint32_t slot_count = 0;
        const float *worlds = scene.world_array(&slot_count);
        if (gpu.size() < (std::size_t)slot_count * 16)
            gpu.resize((std::size_t)slot_count * 16);
        bool more = true;
        while (more) {
            std::uint32_t count = 0;
            MUST(gpu_tracker.collect(ranges, 4, count, more));
            for (std::uint32_t r = 0; r < count; r++) {
                const sgrt_range g = ranges[r];
                std::memcpy(&gpu[(std::size_t)g.first * 16], worlds + (std::size_t)g.first * 16,
                            (std::size_t)g.count * 16 * sizeof(float));
                uploaded_total += g.count;
            }
        }

        // 5. Cull with the camera-relative view-projection (the one the
        // GPU draws with), then draw the visible slots.
        const double eye[3] = {eye_abs[0] - origin[0], eye_abs[1] - origin[1],
                               eye_abs[2] - origin[2]};
        const double at[3] = {lead[0] + 200.0 - origin[0], lead[1] - origin[1],
                              lead[2] - 150.0 - origin[2]};
        const std::array<float, 16> vp = view_proj(eye, at, 1.0, 16.0 / 9.0, 0.5, 3000.0);
        float planes[6][4];
        MUST(sgrt::frustum_planes(vp, SGRT_CLIP_DEPTH_ZERO_TO_ONE, planes));
        sgrt_cull_stats stats{};
        MUST(scene.cull(planes, nullptr, visible, &stats));
        std::uint32_t cursor = 0, drawn = 0;
        for (sgrt_node n = visible.next(cursor); n != SGRT_NULL_NODE; n = visible.next(cursor))
            drawn++; // a real renderer gathers scene.node_slot(n, slot) into its draw list
        drawn_total += drawn;
        if (!opt.quiet && (frame % 30 == 0 || frame == opt.frames - 1))
            std::printf("frame %3d: origin (%.0f, %.0f, %.0f), %u worlds recomputed, "
                        "%u drawn of %d (%u ships skipped whole)\n",
                        frame, origin[0], origin[1], origin[2], recomputed, drawn, nodes,
                        stats.subtrees_skipped);

        if (!opt.check)
            continue;
        // The GPU buffer mirrors the world array.
        for (int i = 0; i < nodes; i++) {
            std::uint32_t slot = 0;
            MUST(scene.node_slot(handles[(std::size_t)i], slot));
            if (std::memcmp(&gpu[(std::size_t)slot * 16], worlds + (std::size_t)slot * 16,
                            16 * sizeof(float)) != 0) {
                std::fprintf(stderr, "frame %d: node %d: the GPU buffer is stale\n", frame, i);
                failures++;
            }
        }
        // Worlds and the cull against the double model.
        std::vector<std::array<double, 16>> model((std::size_t)nodes);
        for (int i = 0; i < nodes; i++) {
            const part &p = parts[(std::size_t)i];
            double local[16];
            local_double(motions[(std::size_t)i], local);
            double *m = model[(std::size_t)i].data();
            if (p.parent < 0) { // translate(anchor - origin) x local
                std::memcpy(m, local, sizeof local);
                for (int a = 0; a < 3; a++)
                    m[12 + a] += p.anchor[a] - origin[(std::size_t)a];
            } else
                mul_double(model[(std::size_t)p.parent].data(), local, m);
            float got[16];
            MUST(scene.node_world(handles[(std::size_t)i], got));
            // Float rounding along the chain, at the node's distance from
            // the origin (at most a few km here): 2^-20 of it.
            const double reach = std::fabs(m[12]) + std::fabs(m[13]) + std::fabs(m[14]) + 64.0;
            for (int e = 0; e < 16; e++) {
                const double tol = e >= 12 ? std::ldexp(reach, -20) : std::ldexp(1.0, -20);
                if (std::fabs(got[e] - m[e]) > tol) {
                    std::fprintf(stderr, "frame %d: node %d: world[%d] %.9g, model %.9g\n", frame,
                                 i, e, (double)got[e], m[e]);
                    failures++;
                    break;
                }
            }
            // The node's box under the model's world (Arvo's method).
            double lo[3], hi[3];
            for (int row = 0; row < 3; row++) {
                double c = m[12 + row], h = 0.0;
                for (int k = 0; k < 3; k++) {
                    c += m[k * 4 + row] * p.center[k];
                    h += std::fabs(m[k * 4 + row]) * p.half[k];
                }
                lo[row] = c - h;
                hi[row] = c + h;
            }
            double worst = INFINITY;
            for (const auto &pl : planes)
                worst = std::fmin(worst, plane_reach(pl, lo, hi));
            const double slack = std::ldexp(reach + GRID, -16);
            const bool shown = visible.has(handles[(std::size_t)i]);
            if (shown ? worst < -slack : worst > slack) {
                std::fprintf(stderr, "frame %d: node %d %s, its box %s the frustum by %.3g\n",
                             frame, i, shown ? "drawn" : "culled", shown ? "misses" : "meets",
                             std::fabs(worst));
                failures++;
            }
        }
    }

    if (!opt.quiet)
        std::printf("%d frames of %d nodes: %ld slots uploaded, %ld nodes drawn, %ld origin "
                    "moves, kernel %s\n",
                    opt.frames, nodes, uploaded_total, drawn_total, origin_moves,
                    scene.simd_name());
    if (opt.check)
        std::printf("check: %s (%ld failures, %ld log entries)\n",
                    failures || log.entries ? "FAILED" : "ok", failures, log.entries);
    return failures || log.entries ? 1 : 0;
}
