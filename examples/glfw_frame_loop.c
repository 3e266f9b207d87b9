/* SPDX-License-Identifier: MIT */
/* A frame loop in a window: orreries (a pivot carrying a sun, arms with
 * planets, planets with moons) animated by sgrt and drawn with OpenGL 3.3
 * core through GLFW.
 *
 * The GPU side, fed through the public API only:
 *
 *  - One buffer mirrors the world array, slot for slot, and is written only
 *    through the ranges a tracker collects (glBufferSubData). The vertex
 *    shader reads it as a buffer texture: instance -> slot -> 4 texels.
 *  - Three meshes (octahedron suns, cube planets, prism moons). Each has a
 *    node set ("has this mesh"), turned every frame into the list of its
 *    members' slots, the per-instance attribute of one instanced draw per
 *    mesh. Pivots, arms and anchors are in no set: transform-only nodes,
 *    never drawn. A list is re-sent only from its first changed entry.
 *  - Growth: planets and orreries are added (and removed) while it runs,
 *    the scene outgrows the GPU buffer, which is then reallocated, copied on
 *    the GPU (glCopyBufferSubData) and re-pointed; a slot list that
 *    outgrows its buffer is reallocated and its vertex attribute re-pointed.
 *
 *   glfw_frame_loop [--orreries N] [--frames N] [--size WxH] [--check]
 *                   [--fault F] [--ppm FILE] [--quiet]
 *
 * --frames 0 (the default) runs until the window is closed or Escape is
 * pressed. --check verifies after every frame that the GPU buffers hold the
 * world array and the slot lists, and after the last frame that the image
 * agrees with a CPU projection of the scene, computed from the local
 * matrices alone in double precision: every drawn node's projected centre
 * shows its mesh's colour (or at least something, where another node may
 * cover it), and every pixel that no drawn node can reach, transform-only
 * nodes' places included, shows the background. --fault breaks the hand-off
 * on purpose, and the run then succeeds only when the image check catches it:
 *   first-range-only  each collect uploads its first range and drops the rest
 *   no-growth-copy    the grown world buffer starts empty
 *   no-repoint        the buffer texture keeps reading the old world buffer
 *   pivots-drawn      the transform-only nodes are given the planet mesh
 * Exit status: 0 when all is well, 1 on a failed check, 77 when there is no
 * display or no OpenGL 3.3 core context.
 */
#define _GNU_SOURCE /* getopt_long */
#include "args.h"
#include "must.h"

#define GL_GLEXT_PROTOTYPES
#define GLFW_INCLUDE_GLCOREARB
#include <GLFW/glfw3.h>
#include <getopt.h>
#include <math.h>
#include <sgrt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- what is drawn ---------------------------------------------------------- */

enum mesh { MESH_SUN, MESH_PLANET, MESH_MOON, MESH_COUNT };

static const struct {
    const char *name;
    unsigned char rgb[3]; /* each has its own brightest channel (see classify) */
    float size;
} meshes[MESH_COUNT] = {
    [MESH_SUN] = {"sun", {240, 150, 40}, 1.8f},        /* octahedron */
    [MESH_PLANET] = {"planet", {50, 110, 240}, 0.75f}, /* cube: half its edge */
    [MESH_MOON] = {"moon", {90, 225, 90}, 0.5f},       /* hexagonal prism */
};
static const unsigned char background[3] = {12, 12, 20};

/* Mistakes made on purpose (--fault), to show that the checks catch them. */
enum fault {
    FAULT_NONE,
    FAULT_FIRST_RANGE_ONLY,
    FAULT_NO_GROWTH_COPY,
    FAULT_NO_REPOINT,
    FAULT_PIVOTS_DRAWN,
    FAULT_COUNT
};
static const char *const fault_names[FAULT_COUNT] = {"none", "first-range-only", "no-growth-copy",
                                                     "no-repoint", "pivots-drawn"};

#define MAX_PLANETS 4
#define ORBIT(i) (3.8 + 3.0 * (i)) /* a planet and its moon clear the next orbit */
#define MOON_ORBIT 1.6
#define SPACING 31.0

typedef struct planet {
    sgrt_node arm;        /* transform-only: turns the planet around the sun */
    sgrt_node body;       /* the planet */
    sgrt_node anchor;     /* transform-only: a locator opposite the planet */
    sgrt_node moon_pivot; /* transform-only: turns the moon around the planet */
    sgrt_node moon;       /* SGRT_NULL_NODE when it has none */
    int orbit;
    double angle, speed, moon_angle;
} planet;

typedef struct orrery {
    sgrt_node pivot, sun; /* the pivot is transform-only */
    planet planets[MAX_PLANETS];
    int nplanets;
    double x, z, angle, spin;
    bool moving; /* a still orrery costs no upload after its first */
} orrery;

typedef struct sky {
    sgrt_scene *s;
    sgrt_nodeset has_mesh[MESH_COUNT];
    orrery *orr;
    int n, max, cols, next_grow;
    uint64_t rng;
    bool pivots_drawn; /* the fault: transform-only nodes given a mesh */
} sky;

static uint64_t next_rand(uint64_t *x) /* splitmix64 */
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static int rand_below(sky *k, int n) { return (int)(next_rand(&k->rng) % (uint64_t)n); }

static void pose(sgrt_scene *s, sgrt_node n, double x, double y, double z, double yaw)
{
    const float t[3] = {(float)x, (float)y, (float)z};
    const float q[4] = {0.0f, (float)sin(yaw / 2), 0.0f, (float)cos(yaw / 2)};
    const float one[3] = {1, 1, 1};
    MUST(sgrt_node_set_trs(s, n, t, q, one));
}

static sgrt_node add(sky *k, sgrt_node parent, int mesh, double x, double yaw)
{
    sgrt_node n;
    if (sgrt_node_create(k->s, parent, &n) != SGRT_OK) {
        fprintf(stderr, "sgrt_node_create failed\n");
        exit(1);
    }
    pose(k->s, n, x, 0.0, 0.0, yaw);
    /* What the node is, as the game knows it (the checks trust this, not
     * the renderer's sets): its mesh + 1, 0 for transform-only. */
    MUST(sgrt_node_set_user(k->s, n, (uint64_t)(mesh + 1)));
    if (mesh >= 0)
        MUST(sgrt_nodeset_add(k->s, k->has_mesh[mesh], n));
    else if (k->pivots_drawn)
        MUST(sgrt_nodeset_add(k->s, k->has_mesh[MESH_PLANET], n));
    return n;
}

static void add_planet(sky *k, orrery *o)
{
    int orbit = 0; /* the innermost free one */
    for (bool taken = true; taken; orbit += taken) {
        taken = false;
        for (int i = 0; i < o->nplanets; i++)
            taken = taken || o->planets[i].orbit == orbit;
    }
    planet *p = &o->planets[o->nplanets];
    memset(p, 0, sizeof *p);
    const double radius = ORBIT(orbit);
    p->orbit = orbit;
    p->angle = rand_below(k, 628) * 0.01;
    p->speed = 0.15 / radius;
    p->arm = add(k, o->pivot, -1, 0.0, p->angle);
    p->body = add(k, p->arm, MESH_PLANET, radius, 0.0);
    p->anchor = add(k, p->arm, -1, -radius, 0.0);
    p->moon_pivot = add(k, p->body, -1, 0.0, 0.0);
    p->moon = rand_below(k, 4) ? add(k, p->moon_pivot, MESH_MOON, MOON_ORBIT, 0.0) : SGRT_NULL_NODE;
    o->nplanets++;
}

static void add_orrery(sky *k)
{
    orrery *o = &k->orr[k->n];
    memset(o, 0, sizeof *o);
    o->x = (k->n % k->cols) * SPACING;
    o->z = (k->n / k->cols) * SPACING;
    o->moving = k->n % 2 == 0;
    o->pivot = add(k, SGRT_NULL_NODE, -1, 0.0, 0.0);
    pose(k->s, o->pivot, o->x, 0.0, o->z, 0.0);
    o->sun = add(k, o->pivot, MESH_SUN, 0.0, 0.0);
    k->n++;
    for (int i = 0; i < 2; i++)
        add_planet(k, o);
}

static void remove_planet(sky *k, orrery *o, int i)
{
    MUST(sgrt_node_destroy(k->s, o->planets[i].arm)); /* the whole subtree: sets forget it */
    o->planets[i] = o->planets[--o->nplanets];
}

/* One frame of the game: the moving orreries turn; every fourth frame a
 * planet (or, when the orreries are full, a new orrery) appears; now and
 * then a planet goes away and a moon moves to another planet (a re-parent
 * that may move the moon's storage). Returns the nodes written. */
static int game_step(sky *k, int frame)
{
    int touched = 0;
    for (int i = 0; i < k->n; i++) {
        orrery *o = &k->orr[i];
        if (!o->moving)
            continue;
        o->angle += 0.004;
        o->spin += 0.03;
        pose(k->s, o->pivot, o->x, 0.0, o->z, o->angle);
        pose(k->s, o->sun, 0.0, 0.0, 0.0, o->spin);
        touched += 2;
        for (int j = 0; j < o->nplanets; j++) {
            planet *p = &o->planets[j];
            p->angle += p->speed;
            p->moon_angle += 0.09;
            pose(k->s, p->arm, 0.0, 0.0, 0.0, p->angle);
            pose(k->s, p->moon_pivot, 0.0, 0.0, 0.0, p->moon_angle);
            touched += 2;
        }
    }
    if (frame % 4 == 1) {
        const uint32_t before = sgrt_scene_node_count(k->s);
        int tries = k->n;
        while (tries-- > 0 && k->orr[k->next_grow].nplanets == MAX_PLANETS)
            k->next_grow = (k->next_grow + 1) % k->n;
        if (k->orr[k->next_grow].nplanets < MAX_PLANETS)
            add_planet(k, &k->orr[k->next_grow]);
        else if (k->n < k->max)
            add_orrery(k);
        k->next_grow = (k->next_grow + 1) % k->n;
        touched += (int)(sgrt_scene_node_count(k->s) - before);
    }
    if (frame % 9 == 5) {
        orrery *o = &k->orr[rand_below(k, k->n)];
        if (o->nplanets > 1) {
            remove_planet(k, o, rand_below(k, o->nplanets));
            touched++;
        }
    }
    if (frame % 6 == 3) {
        orrery *a = &k->orr[rand_below(k, k->n)], *b = &k->orr[rand_below(k, k->n)];
        planet *from = &a->planets[rand_below(k, a->nplanets)];
        planet *to = &b->planets[rand_below(k, b->nplanets)];
        if (from->moon.id && !to->moon.id) {
            MUST(sgrt_node_set_parent(k->s, from->moon, to->moon_pivot, SGRT_KEEP_LOCAL));
            to->moon = from->moon;
            from->moon = SGRT_NULL_NODE;
            touched++;
        }
    }
    return touched;
}

/* ---- matrices (double, column-major) and the camera --------------------------- */

static void mat_mul(const double a[16], const double b[16], double out[16])
{
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++) {
            double v = 0;
            for (int i = 0; i < 4; i++)
                v += a[i * 4 + r] * b[c * 4 + i];
            out[c * 4 + r] = v;
        }
}

/* A node's world from the local matrices along its path, in double
 * precision, without sgrt's world matrices. */
static void reference_world(const sgrt_scene *s, sgrt_node n, double out[16])
{
    float l[16];
    MUST(sgrt_node_local(s, n, l));
    double local[16];
    for (int i = 0; i < 16; i++)
        local[i] = l[i];
    sgrt_node p;
    MUST(sgrt_node_parent(s, n, &p));
    if (!p.id) {
        memcpy(out, local, sizeof local);
        return;
    }
    double pw[16];
    reference_world(s, p, pw);
    mat_mul(pw, local, out);
}

typedef struct camera {
    double view_proj[16];
    float view_proj_f[16];
} camera;

static void camera_frame(camera *c, const sky *k, int w, int h)
{
    const int rows = (k->max + k->cols - 1) / k->cols;
    const double cx = (k->cols - 1) * SPACING / 2, cz = (rows - 1) * SPACING / 2;
    const double half_w = (k->cols * SPACING) / 2, half_d = (rows * SPACING) / 2;
    const double fov = 40.0 * 3.14159265358979 / 180, t = tan(fov / 2), aspect = (double)w / h;
    /* From above and in front, 70 degrees down, far enough for the whole grid. */
    const double pitch = 70.0 * 3.14159265358979 / 180;
    const double dist = fmax(half_w / (t * aspect), half_d / t) * 1.05 + 6;
    const double eye[3] = {cx, dist * sin(pitch), cz + dist * cos(pitch)};
    const double fwd[3] = {0, -sin(pitch), -cos(pitch)}, right[3] = {1, 0, 0};
    const double up[3] = {0, cos(pitch), -sin(pitch)};
    double view[16] = {0}, proj[16] = {0};
    for (int i = 0; i < 3; i++) {
        view[i * 4 + 0] = right[i];
        view[i * 4 + 1] = up[i];
        view[i * 4 + 2] = -fwd[i];
    }
    for (int r = 0; r < 3; r++) {
        const double *axis = r == 0 ? right : r == 1 ? up : fwd;
        const double d = axis[0] * eye[0] + axis[1] * eye[1] + axis[2] * eye[2];
        view[12 + r] = r == 2 ? d : -d;
    }
    view[15] = 1;
    const double n = 1.0, f = 1000.0;
    proj[0] = 1 / (t * aspect);
    proj[5] = 1 / t;
    proj[10] = -(f + n) / (f - n);
    proj[11] = -1;
    proj[14] = -2 * f * n / (f - n);
    mat_mul(proj, view, c->view_proj);
    for (int i = 0; i < 16; i++)
        c->view_proj_f[i] = (float)c->view_proj[i];
}

/* Window coordinates (GL's: y up) of a point, and its distance along the
 * view direction; false behind the camera. */
static bool project(const camera *c, const double p[3], int w, int h, double *x, double *y,
                    double *depth)
{
    double clip[4];
    for (int r = 0; r < 4; r++)
        clip[r] = c->view_proj[r] * p[0] + c->view_proj[4 + r] * p[1] + c->view_proj[8 + r] * p[2] +
                  c->view_proj[12 + r];
    if (clip[3] <= 0)
        return false;
    *x = (clip[0] / clip[3] + 1) * 0.5 * w;
    *y = (clip[1] / clip[3] + 1) * 0.5 * h;
    *depth = clip[3];
    return true;
}

/* ---- OpenGL -------------------------------------------------------------------- */

typedef struct vertex {
    float pos[3], normal[3];
} vertex;

typedef struct mesh_gpu {
    GLuint vao, vbo;
    GLsizei verts;
    GLuint slots_buf; /* per instance: a slot of the world buffer */
    uint32_t cap;     /* entries slots_buf holds */
    uint32_t count;   /* entries in use: the instances drawn */
    uint32_t *sent;   /* what slots_buf holds, to send only what changed */
    uint32_t sent_cap;
} mesh_gpu;

typedef struct gpu {
    GLFWwindow *win;
    GLuint fbo, color_rb, depth_rb, prog;
    GLint u_view_proj, u_color, u_world;
    GLuint world_buf, world_tex;
    uint32_t world_cap; /* slots */
    mesh_gpu mesh[MESH_COUNT];
    int w, h;
} gpu;

/* Each instance finds its world matrix through its slot: four RGBA32F
 * texels of the buffer texture, the columns of world[slot]. */
static const char *vs_src =
    "#version 330 core\n"
    "layout(location = 0) in vec3 a_pos;\n"
    "layout(location = 1) in vec3 a_normal;\n"
    "layout(location = 2) in uint a_slot;\n"
    "uniform samplerBuffer u_world;\n"
    "uniform mat4 u_view_proj;\n"
    "uniform vec3 u_color;\n"
    "flat out vec3 v_color;\n"
    "void main() {\n"
    "    int base = int(a_slot) * 4;\n"
    "    mat4 world = mat4(texelFetch(u_world, base), texelFetch(u_world, base + 1),\n"
    "                      texelFetch(u_world, base + 2), texelFetch(u_world, base + 3));\n"
    "    vec3 n = normalize(mat3(world) * a_normal);\n"
    "    float light = 0.55 + 0.45 * max(dot(n, normalize(vec3(0.3, 1.0, 0.4))), 0.0);\n"
    "    v_color = u_color * light;\n"
    "    gl_Position = u_view_proj * world * vec4(a_pos, 1.0);\n"
    "}\n";

static const char *fs_src = "#version 330 core\n"
                            "flat in vec3 v_color;\n"
                            "out vec4 o_color;\n"
                            "void main() { o_color = vec4(v_color, 1.0); }\n";

static GLuint compile(GLenum type, const char *src)
{
    GLuint sh = glCreateShader(type);
    glShaderSource(sh, 1, &src, NULL);
    glCompileShader(sh);
    GLint ok = 0;
    glGetShaderiv(sh, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[1024];
        glGetShaderInfoLog(sh, sizeof log, NULL, log);
        fprintf(stderr, "shader: %s\n", log);
        exit(1);
    }
    return sh;
}

/* Convex meshes centred on the origin: each triangle is turned to face away
 * from the centre, and flat-shaded. */
static void tri(vertex *v, int *n, const float a[3], const float b[3], const float c[3])
{
    float e1[3], e2[3], nrm[3];
    for (int i = 0; i < 3; i++) {
        e1[i] = b[i] - a[i];
        e2[i] = c[i] - a[i];
    }
    nrm[0] = e1[1] * e2[2] - e1[2] * e2[1];
    nrm[1] = e1[2] * e2[0] - e1[0] * e2[2];
    nrm[2] = e1[0] * e2[1] - e1[1] * e2[0];
    const float *p[3] = {a, b, c};
    float outward = 0; /* the normal against the centroid's direction */
    for (int i = 0; i < 3; i++)
        outward += nrm[i] * (a[i] + b[i] + c[i]);
    if (outward < 0) {
        p[1] = c;
        p[2] = b;
        for (int i = 0; i < 3; i++)
            nrm[i] = -nrm[i];
    }
    const float len = sqrtf(nrm[0] * nrm[0] + nrm[1] * nrm[1] + nrm[2] * nrm[2]);
    for (int k = 0; k < 3; k++) {
        memcpy(v[*n].pos, p[k], sizeof v[*n].pos);
        for (int i = 0; i < 3; i++)
            v[*n].normal[i] = nrm[i] / len;
        (*n)++;
    }
}

#define MAX_MESH_VERTICES 72

/* The vertices of each mesh, kept for the image check's projections. */
static vertex mesh_cpu[MESH_COUNT][MAX_MESH_VERTICES];
static int mesh_cpu_count[MESH_COUNT];

static int mesh_vertices(enum mesh m, vertex *v)
{
    int n = 0;
    if (m == MESH_SUN) { /* octahedron */
        const float r = meshes[MESH_SUN].size;
        for (int o = 0; o < 8; o++) {
            const float a[3] = {o & 1 ? r : -r, 0, 0}, b[3] = {0, o & 2 ? r : -r, 0},
                        c[3] = {0, 0, o & 4 ? r : -r};
            tri(v, &n, a, b, c);
        }
    } else if (m == MESH_PLANET) { /* cube */
        const float h = meshes[MESH_PLANET].size;
        for (int axis = 0; axis < 3; axis++)
            for (int side = -1; side <= 1; side += 2) {
                float q[4][3];
                for (int k = 0; k < 4; k++) {
                    q[k][axis] = side * h;
                    q[k][(axis + 1) % 3] = (k == 1 || k == 2) ? h : -h;
                    q[k][(axis + 2) % 3] = k >= 2 ? h : -h;
                }
                tri(v, &n, q[0], q[1], q[2]);
                tri(v, &n, q[0], q[2], q[3]);
            }
    } else { /* hexagonal prism */
        const float r = meshes[MESH_MOON].size, h = 0.55f * r;
        const float top[3] = {0, h, 0}, bottom[3] = {0, -h, 0};
        for (int k = 0; k < 6; k++) {
            const float a0 = (float)(k * 3.14159265358979 / 3),
                        a1 = (float)((k + 1) * 3.14159265358979 / 3);
            const float p0t[3] = {r * cosf(a0), h, r * sinf(a0)},
                        p1t[3] = {r * cosf(a1), h, r * sinf(a1)};
            const float p0b[3] = {r * cosf(a0), -h, r * sinf(a0)},
                        p1b[3] = {r * cosf(a1), -h, r * sinf(a1)};
            tri(v, &n, top, p0t, p1t);
            tri(v, &n, bottom, p0b, p1b);
            tri(v, &n, p0t, p0b, p1b);
            tri(v, &n, p0t, p1b, p1t);
        }
    }
    return n;
}

/* The slot list of a mesh is its instanced attribute; called again whenever
 * the list moves to a new buffer. */
static void point_slot_attribute(mesh_gpu *m)
{
    glBindVertexArray(m->vao);
    glBindBuffer(GL_ARRAY_BUFFER, m->slots_buf);
    glEnableVertexAttribArray(2);
    glVertexAttribIPointer(2, 1, GL_UNSIGNED_INT, sizeof(uint32_t), (void *)0);
    glVertexAttribDivisor(2, 1);
}

static void glfw_error(int code, const char *what)
{
    fprintf(stderr, "GLFW error 0x%x: %s\n", code, what);
}

/* 0: no display or no OpenGL 3.3 core context (the caller skips). */
static int gpu_init(gpu *g, int w, int h, bool vsync)
{
    glfwSetErrorCallback(glfw_error);
    if (!glfwInit()) {
        fprintf(stderr, "no display for GLFW (DISPLAY unset? run under xvfb-run)\n");
        return 0;
    }
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GL_TRUE);
    g->win = glfwCreateWindow(w, h, "sgrt: orreries", NULL, NULL);
    if (!g->win) {
        fprintf(stderr,
                "no OpenGL 3.3 core context (install Mesa: libglx-mesa0 libgl1-mesa-dri)\n");
        glfwTerminate();
        return 0;
    }
    glfwMakeContextCurrent(g->win);
    glfwSwapInterval(vsync ? 1 : 0);
    g->w = w;
    g->h = h;

    /* The frame is drawn into a framebuffer object and then shown: what the
     * check reads back does not depend on the window being visible. */
    glGenRenderbuffers(1, &g->color_rb);
    glBindRenderbuffer(GL_RENDERBUFFER, g->color_rb);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, w, h);
    glGenRenderbuffers(1, &g->depth_rb);
    glBindRenderbuffer(GL_RENDERBUFFER, g->depth_rb);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT24, w, h);
    glGenFramebuffers(1, &g->fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, g->fbo);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, g->color_rb);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, g->depth_rb);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
        fprintf(stderr, "framebuffer incomplete\n");
        exit(1);
    }

    g->prog = glCreateProgram();
    glAttachShader(g->prog, compile(GL_VERTEX_SHADER, vs_src));
    glAttachShader(g->prog, compile(GL_FRAGMENT_SHADER, fs_src));
    glLinkProgram(g->prog);
    GLint ok = 0;
    glGetProgramiv(g->prog, GL_LINK_STATUS, &ok);
    if (!ok) {
        fprintf(stderr, "program link failed\n");
        exit(1);
    }
    g->u_view_proj = glGetUniformLocation(g->prog, "u_view_proj");
    g->u_color = glGetUniformLocation(g->prog, "u_color");
    g->u_world = glGetUniformLocation(g->prog, "u_world");
    glGenTextures(1, &g->world_tex);

    for (int m = 0; m < MESH_COUNT; m++) {
        mesh_gpu *mg = &g->mesh[m];
        const vertex *v = mesh_cpu[m];
        mg->verts = mesh_cpu_count[m] = mesh_vertices((enum mesh)m, mesh_cpu[m]);
        glGenVertexArrays(1, &mg->vao);
        glBindVertexArray(mg->vao);
        glGenBuffers(1, &mg->vbo);
        glBindBuffer(GL_ARRAY_BUFFER, mg->vbo);
        glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(mg->verts * (GLsizei)sizeof(vertex)), v,
                     GL_STATIC_DRAW);
        glEnableVertexAttribArray(0);
        glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(vertex), (void *)0);
        glEnableVertexAttribArray(1);
        glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, sizeof(vertex),
                              (void *)offsetof(vertex, normal));
    }
    return 1;
}

static uint32_t grown_capacity(uint32_t cap, uint32_t need)
{
    uint32_t c = cap + cap / 2;
    if (c < need)
        c = need;
    return (c + 15u) & ~15u;
}

typedef struct frame_stats {
    uint32_t ranges, grows;
    size_t world_bytes, list_bytes, copied_bytes;
} frame_stats;

/* Grow the world buffer to hold `slots`: a new buffer, the old contents
 * copied on the GPU, and the buffer texture re-pointed. The slots it did not
 * hold are pending in the tracker (new nodes are reported), so they arrive
 * with this frame's ranges. Starts at the first frame's size, so that the
 * added nodes make it grow. */
static void gpu_reserve_world(gpu *g, uint32_t slots, enum fault fault, frame_stats *st)
{
    if (slots <= g->world_cap)
        return;
    const uint32_t cap = g->world_cap ? grown_capacity(g->world_cap, slots) : (slots + 15u) & ~15u;
    GLuint nb;
    glGenBuffers(1, &nb);
    glBindBuffer(GL_COPY_WRITE_BUFFER, nb);
    glBufferData(GL_COPY_WRITE_BUFFER, (GLsizeiptr)cap * 64, NULL, GL_DYNAMIC_DRAW);
    if (g->world_cap) {
        if (fault != FAULT_NO_GROWTH_COPY) {
            glBindBuffer(GL_COPY_READ_BUFFER, g->world_buf);
            glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, 0, 0,
                                (GLsizeiptr)g->world_cap * 64);
            st->copied_bytes += (size_t)g->world_cap * 64u;
        }
        glDeleteBuffers(1, &g->world_buf);
        st->grows++;
    }
    const bool first = g->world_cap == 0;
    g->world_buf = nb;
    g->world_cap = cap;
    if (first || fault != FAULT_NO_REPOINT) {
        glBindTexture(GL_TEXTURE_BUFFER, g->world_tex);
        glTexBuffer(GL_TEXTURE_BUFFER, GL_RGBA32F, g->world_buf);
    }
}

/* The one place that talks to the tracker: calls fn for each run of slots
 * that changed since the last call. */
typedef void range_fn(void *user, uint32_t first, uint32_t count);

static void for_each_changed_range(sgrt_scene *s, sgrt_tracker t, range_fn *fn, void *user)
{
    sgrt_range r[64];
    uint32_t got = 0;
    bool more = false;
    do {
        if (sgrt_tracker_collect(s, t, r, 64, 4 /* bridge gaps of <= 4 slots */, &got, &more) !=
            SGRT_OK)
            return;
        for (uint32_t i = 0; i < got; i++)
            fn(user, r[i].first, r[i].count);
    } while (more);
}

typedef struct upload {
    const float *world;
    frame_stats *st;
    bool first_only; /* the fault: a consumer that handles r[0] alone */
} upload;

static void upload_range(void *user, uint32_t first, uint32_t count)
{
    upload *u = user;
    if (++u->st->ranges > 1 && u->first_only)
        return;
    glBufferSubData(GL_TEXTURE_BUFFER, (GLintptr)first * 64, (GLsizeiptr)count * 64,
                    u->world + (size_t)first * 16u);
    u->st->world_bytes += (size_t)count * 64u;
}

/* The members of `set` as slots, in increasing order, into *list. */
static uint32_t set_slots(const sgrt_scene *s, sgrt_nodeset set, uint32_t **list,
                          uint32_t *cap)
{
    uint32_t nwords = 0, n = 0;
    const uint32_t *words = sgrt_nodeset_words(s, set, &nwords);
    for (uint32_t w = 0; w < nwords; w++)
        for (uint32_t bits = words[w]; bits; bits &= bits - 1) {
            if (n == *cap) {
                *cap = *cap ? *cap * 2 : 256;
                *list = realloc(*list, *cap * sizeof **list);
            }
            (*list)[n++] = w * 32u + (uint32_t)__builtin_ctz(bits);
        }
    return n;
}

/* Bring a mesh's slot list on the GPU in step with its node set: from the
 * first entry that differs; into a new buffer, re-pointed, when it outgrows
 * the old one. Slots change only when nodes are created, destroyed or moved,
 * so most frames send nothing. */
static void sync_slot_list(mesh_gpu *m, const uint32_t *list, uint32_t n, frame_stats *st)
{
    uint32_t first = 0;
    while (first < n && first < m->count && list[first] == m->sent[first])
        first++;
    if (n > m->cap) {
        m->cap = grown_capacity(m->cap, n);
        if (m->slots_buf)
            glDeleteBuffers(1, &m->slots_buf);
        glGenBuffers(1, &m->slots_buf);
        glBindBuffer(GL_ARRAY_BUFFER, m->slots_buf);
        glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(m->cap * sizeof(uint32_t)), NULL,
                     GL_DYNAMIC_DRAW);
        point_slot_attribute(m);
        first = 0;
    }
    if (first < n) {
        glBindBuffer(GL_ARRAY_BUFFER, m->slots_buf);
        glBufferSubData(GL_ARRAY_BUFFER, (GLintptr)(first * sizeof(uint32_t)),
                        (GLsizeiptr)((n - first) * sizeof(uint32_t)), list + first);
        st->list_bytes += (n - first) * sizeof(uint32_t);
    }
    if (m->sent_cap < n) {
        m->sent_cap = m->cap;
        m->sent = realloc(m->sent, m->sent_cap * sizeof *m->sent);
    }
    if (n)
        memcpy(m->sent, list, n * sizeof *list);
    m->count = n;
}

static void gpu_draw(gpu *g, const camera *cam)
{
    glBindFramebuffer(GL_FRAMEBUFFER, g->fbo);
    glViewport(0, 0, g->w, g->h);
    glClearColor(background[0] / 255.0f, background[1] / 255.0f, background[2] / 255.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    glEnable(GL_DEPTH_TEST);
    glEnable(GL_CULL_FACE);
    glUseProgram(g->prog);
    glUniformMatrix4fv(g->u_view_proj, 1, GL_FALSE, cam->view_proj_f);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_BUFFER, g->world_tex);
    glUniform1i(g->u_world, 0);
    for (int m = 0; m < MESH_COUNT; m++) {
        if (!g->mesh[m].count)
            continue;
        glUniform3f(g->u_color, meshes[m].rgb[0] / 255.0f, meshes[m].rgb[1] / 255.0f,
                    meshes[m].rgb[2] / 255.0f);
        glBindVertexArray(g->mesh[m].vao);
        glDrawArraysInstanced(GL_TRIANGLES, 0, g->mesh[m].verts, (GLsizei)g->mesh[m].count);
    }
}

static void gpu_present(gpu *g)
{
    int fw, fh;
    glfwGetFramebufferSize(g->win, &fw, &fh);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, g->fbo);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
    glBlitFramebuffer(0, 0, g->w, g->h, 0, 0, fw, fh, GL_COLOR_BUFFER_BIT, GL_LINEAR);
    glfwSwapBuffers(g->win);
}

/* ---- checks ------------------------------------------------------------------------ */

static int buffer_failures, image_failures;

#define EXPECT(counter, cond, ...)                                                                 \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            if ((counter)++ < 10) {                                                                \
                fprintf(stderr, "check failed: " __VA_ARGS__);                                     \
                fputc('\n', stderr);                                                               \
            }                                                                                      \
        }                                                                                          \
    } while (0)

/* The GPU must hold the world array on every live slot, and each mesh's slot
 * list exactly its node set's members, in slot order, each a node the game
 * gave that mesh. */
static void check_buffers(const gpu *g, const sky *k, int frame)
{
    const sgrt_scene *s = k->s;
    uint32_t slots;
    const float *world = sgrt_scene_world_array(s, &slots);
    float *got = malloc((size_t)slots * 64u + 64u);
    glBindBuffer(GL_TEXTURE_BUFFER, g->world_buf);
    glGetBufferSubData(GL_TEXTURE_BUFFER, 0, (GLsizeiptr)slots * 64, got);
    uint32_t bad = 0;
    for (uint32_t j = 0; j < slots; j++)
        if (sgrt_scene_slot_node(s, j).id && memcmp(got + 16u * j, world + 16u * j, 64) != 0)
            bad++;
    EXPECT(buffer_failures, bad == 0,
           "frame %d: %u live slots of the GPU world buffer differ from the world array", frame,
           bad);
    free(got);
    for (int m = 0; m < MESH_COUNT; m++) {
        const mesh_gpu *mg = &g->mesh[m];
        uint32_t *list = malloc((mg->count + 1u) * sizeof *list);
        glBindBuffer(GL_ARRAY_BUFFER, mg->slots_buf);
        if (mg->count)
            glGetBufferSubData(GL_ARRAY_BUFFER, 0, (GLsizeiptr)(mg->count * sizeof *list), list);
        const uint32_t members = sgrt_nodeset_count(s, k->has_mesh[m]);
        bad = 0;
        for (uint32_t i = 0; i < mg->count; i++) {
            const sgrt_node n = sgrt_scene_slot_node(s, list[i]);
            uint64_t user = 0;
            MUST(sgrt_node_user(s, n, &user));
            if (!sgrt_nodeset_has(s, k->has_mesh[m], n) || user != (uint64_t)m + 1u ||
                (i && list[i] <= list[i - 1]))
                bad++;
        }
        EXPECT(buffer_failures, bad == 0 && mg->count == members,
               "frame %d: the %s list on the GPU has %u entries for %u members, %u wrong", frame,
               meshes[m].name, mg->count, members, bad);
        free(list);
    }
}

typedef struct disc {
    double x, y, r; /* where a drawn node can cover pixels: a circle, conservative */
    int mesh;
} disc;

/* The mesh whose colour a pixel has (its brightest channel), -1 for the
 * background, -2 for neither. */
static int classify(const unsigned char *px)
{
    int hi = 0;
    for (int c = 1; c < 3; c++)
        if (px[c] > px[hi])
            hi = c;
    if (px[hi] < 70) {
        for (int c = 0; c < 3; c++)
            if (abs((int)px[c] - (int)background[c]) > 3)
                return -2;
        return -1;
    }
    for (int m = 0; m < MESH_COUNT; m++) {
        int mh = 0;
        for (int c = 1; c < 3; c++)
            if (meshes[m].rgb[c] > meshes[m].rgb[mh])
                mh = c;
        if (mh == hi)
            return m;
    }
    return -2;
}

static bool covered(const disc *d, int nd, double x, double y, int except)
{
    for (int i = 0; i < nd; i++)
        if (i != except &&
            (x - d[i].x) * (x - d[i].x) + (y - d[i].y) * (y - d[i].y) <= d[i].r * d[i].r)
            return true;
    return false;
}

/* The image against the scene: each drawn node's projected centre shows its
 * mesh (or, where another node's disc reaches, at least not the
 * background); the place of each transform-only node, and random pixels,
 * show the background wherever no drawn node's disc reaches. */
static void check_image(const sky *k, const camera *cam, const unsigned char *px, int w, int h)
{
    const sgrt_scene *s = k->s;
    uint32_t slots;
    sgrt_scene_world_array(s, &slots);
    disc *d = malloc((slots + 1u) * sizeof *d);
    double(*centre)[3] = malloc((slots + 1u) * sizeof *centre);
    sgrt_node *pivots = malloc((slots + 1u) * sizeof *pivots);
    int nd = 0, npivots = 0;
    for (uint32_t j = 0; j < slots; j++) {
        const sgrt_node n = sgrt_scene_slot_node(s, j);
        if (!n.id)
            continue;
        uint64_t user = 0;
        MUST(sgrt_node_user(s, n, &user));
        const int mesh = (int)user - 1;
        if (mesh < 0) {
            pivots[npivots++] = n;
            continue;
        }
        double wm[16], depth;
        reference_world(s, n, wm);
        memcpy(centre[nd], wm + 12, sizeof centre[nd]);
        if (!project(cam, centre[nd], w, h, &d[nd].x, &d[nd].y, &depth))
            continue;
        /* The mesh's image lies in the convex hull of its projected
         * vertices, so within the farthest one of them (plus a pixel). */
        d[nd].r = 0;
        for (int v = 0; v < mesh_cpu_count[mesh]; v++) {
            double p[3], x, y;
            const float *q = mesh_cpu[mesh][v].pos;
            for (int i = 0; i < 3; i++)
                p[i] = wm[i] * q[0] + wm[4 + i] * q[1] + wm[8 + i] * q[2] + wm[12 + i];
            if (!project(cam, p, w, h, &x, &y, &depth)) {
                d[nd].r = 1e9;
                break;
            }
            d[nd].r = fmax(d[nd].r, hypot(x - d[nd].x, y - d[nd].y) + 1.0);
        }
        d[nd].mesh = mesh;
        nd++;
    }

    int centres = 0, exact = 0, lit = 0, empty = 0, pivot_places = 0, wrong = 0;
    int per_mesh[MESH_COUNT] = {0};
    for (int i = 0; i < nd; i++) {
        const int x = (int)floor(d[i].x), y = (int)floor(d[i].y);
        if (x < 0 || y < 0 || x >= w || y >= h)
            continue;
        centres++;
        const int got = classify(px + ((size_t)y * (size_t)w + (size_t)x) * 4u);
        if (!covered(d, nd, x + 0.5, y + 0.5, i)) {
            exact++;
            per_mesh[d[i].mesh]++;
            if (got != d[i].mesh) {
                wrong++;
                EXPECT(image_failures, 0, "the %s at pixel (%d, %d) shows %s",
                       meshes[d[i].mesh].name, x, y,
                       got >= 0    ? meshes[got].name
                       : got == -1 ? "the background"
                                   : "no mesh's colour");
            }
        } else {
            lit++;
            if (got < 0) {
                wrong++;
                EXPECT(image_failures, 0, "the %s at pixel (%d, %d) is not drawn",
                       meshes[d[i].mesh].name, x, y);
            }
        }
    }
    uint64_t rng = 7;
    for (int i = 0; i < npivots + 4000; i++) {
        double x, y;
        const char *what = "an empty pixel";
        if (i < npivots) {
            double wm[16], depth;
            reference_world(s, pivots[i], wm);
            if (!project(cam, wm + 12, w, h, &x, &y, &depth))
                continue;
            what = "a transform-only node's place";
        } else {
            x = (double)(next_rand(&rng) % (uint64_t)w);
            y = (double)(next_rand(&rng) % (uint64_t)h);
        }
        const int ix = (int)floor(x), iy = (int)floor(y);
        if (ix < 0 || iy < 0 || ix >= w || iy >= h || covered(d, nd, ix + 0.5, iy + 0.5, -1))
            continue;
        if (i < npivots)
            pivot_places++;
        else
            empty++;
        const unsigned char *p = px + ((size_t)iy * (size_t)w + (size_t)ix) * 4u;
        if (classify(p) != -1) {
            wrong++;
            EXPECT(image_failures, 0, "%s at pixel (%d, %d) is %d,%d,%d, not the background", what,
                   ix, iy, p[0], p[1], p[2]);
        }
    }
    printf("image check: %d drawn nodes' centres in view (%d alone: sun %d, planet %d, moon %d; "
           "%d overlapping), %d transform-only places and %d empty pixels; %d wrong\n",
           centres, exact, per_mesh[MESH_SUN], per_mesh[MESH_PLANET], per_mesh[MESH_MOON], lit,
           pivot_places, empty, wrong);
    /* A check that saw too little proves nothing. */
    EXPECT(image_failures, exact * 4 >= centres * 3, "only %d of %d centres could be checked alone",
           exact, centres);
    EXPECT(image_failures,
           per_mesh[MESH_SUN] > 0 && per_mesh[MESH_PLANET] > 0 && per_mesh[MESH_MOON] > 0 &&
               pivot_places > 0 && empty > 500,
           "some kind of pixel was never checked");
    free(d);
    free(centre);
    free(pivots);
}

static void write_ppm(const char *path, const unsigned char *rgba, int w, int h)
{
    FILE *f = fopen(path, "wb");
    if (!f) {
        fprintf(stderr, "cannot write %s\n", path);
        return;
    }
    fprintf(f, "P6\n%d %d\n255\n", w, h);
    for (int y = h - 1; y >= 0; y--) /* GL rows run bottom-up */
        for (int x = 0; x < w; x++)
            fwrite(rgba + ((size_t)y * (size_t)w + (size_t)x) * 4u, 1, 3, f);
    fclose(f);
    printf("wrote %s (%dx%d)\n", path, w, h);
}

/* ---- main ---------------------------------------------------------------------------- */

static void usage(FILE *f, const char *argv0)
{
    fprintf(f,
            "usage: %s [--orreries N] [--frames N] [--size WxH] [--check] [--fault F] [--ppm FILE] "
            "[--quiet]\n"
            "  --orreries N  orreries at the start, 1..1000 (default 4; twice as many at most)\n"
            "  --frames N    frames to run, 0..1000000 (default 0: until the window is closed)\n"
            "  --size WxH    framebuffer size, each 16..8192 (default 960x600)\n"
            "  --check       check the GPU buffers every frame and the last frame's image\n"
            "  --fault F     first-range-only, no-growth-copy, no-repoint or pivots-drawn: break\n"
            "                the hand-off; the run succeeds when the image check catches it\n"
            "                (implies --check)\n"
            "  --ppm FILE    write the last frame\n",
            argv0);
}

static bool arg_size(const char *s, int *w, int *h)
{
    const char *x = strchr(s, 'x');
    char width[16];
    if (!x || x == s || (size_t)(x - s) >= sizeof width) {
        fprintf(stderr, "--size %s: expected WxH, e.g. 960x600\n", s);
        return false;
    }
    memcpy(width, s, (size_t)(x - s));
    width[x - s] = 0;
    return arg_int("--size (width)", width, 16, 8192, w) &&
           arg_int("--size (height)", x + 1, 16, 8192, h);
}

int main(int argc, char **argv)
{
    int norreries = 4, frames = 0, w = 960, h = 600, check = 0, quiet = 0;
    enum fault fault = FAULT_NONE;
    const char *ppm = NULL;
    enum { OPT_ORRERIES = 1, OPT_FRAMES, OPT_SIZE, OPT_CHECK, OPT_FAULT, OPT_PPM, OPT_QUIET };
    static const struct option longopts[] = {
        {"orreries", required_argument, NULL, OPT_ORRERIES},
        {"frames", required_argument, NULL, OPT_FRAMES},
        {"size", required_argument, NULL, OPT_SIZE},
        {"check", no_argument, NULL, OPT_CHECK},
        {"fault", required_argument, NULL, OPT_FAULT},
        {"ppm", required_argument, NULL, OPT_PPM},
        {"quiet", no_argument, NULL, OPT_QUIET},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    int c;
    bool ok = true;
    while (ok && (c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
        switch (c) {
        case OPT_ORRERIES:
            ok = arg_int("--orreries", optarg, 1, 1000, &norreries);
            break;
        case OPT_FRAMES:
            ok = arg_int("--frames", optarg, 0, 1000000, &frames);
            break;
        case OPT_SIZE:
            ok = arg_size(optarg, &w, &h);
            break;
        case OPT_CHECK:
            check = 1;
            break;
        case OPT_FAULT:
            fault = FAULT_NONE;
            for (int f = 1; f < FAULT_COUNT; f++)
                if (!strcmp(optarg, fault_names[f]))
                    fault = (enum fault)f;
            if (fault == FAULT_NONE) {
                fprintf(stderr,
                        "--fault %s: expected first-range-only, no-growth-copy, "
                        "no-repoint or pivots-drawn\n",
                        optarg);
                ok = false;
            }
            check = 1;
            break;
        case OPT_PPM:
            ppm = optarg;
            break;
        case OPT_QUIET:
            quiet = 1;
            break;
        case 'h':
            usage(stdout, argv[0]);
            return 0;
        default: /* getopt_long has said what is wrong */
            ok = false;
            break;
        }
    }
    if (ok && optind < argc) {
        fprintf(stderr, "%s: unexpected argument %s\n", argv[0], argv[optind]);
        ok = false;
    }
    if (ok && check && frames == 0) {
        fprintf(stderr, "--check needs --frames N: the image is checked after the last frame\n");
        ok = false;
    }
    if (!ok) {
        usage(stderr, argv[0]);
        return 2;
    }

    gpu g;
    memset(&g, 0, sizeof g);
    if (!gpu_init(&g, w, h, frames == 0))
        return 77;
    if (!quiet)
        printf("GL: %s | %s\n", (const char *)glGetString(GL_VERSION),
               (const char *)glGetString(GL_RENDERER));
    GLint max_texels = 0;
    glGetIntegerv(GL_MAX_TEXTURE_BUFFER_SIZE, &max_texels);

    sky k;
    memset(&k, 0, sizeof k);
    k.rng = 2026;
    k.max = 2 * norreries;
    k.cols = (int)ceil(sqrt(k.max));
    k.orr = calloc((size_t)k.max, sizeof *k.orr);
    k.pivots_drawn = fault == FAULT_PIVOTS_DRAWN;
    if (sgrt_scene_create(NULL, &k.s) != SGRT_OK)
        return 1;
    for (int m = 0; m < MESH_COUNT; m++)
        if (sgrt_nodeset_create(k.s, &k.has_mesh[m]) != SGRT_OK)
            return 1;
    for (int i = 0; i < norreries; i++)
        add_orrery(&k);
    sgrt_tracker tracker;
    if (sgrt_tracker_create(k.s, &tracker) != SGRT_OK)
        return 1;
    camera cam;
    camera_frame(&cam, &k, w, h);

    uint32_t *list = NULL, list_cap = 0, grows = 0;
    size_t total_up = 0, total_full = 0;
    int frame = 0;
    for (; frames == 0 || frame < frames; frame++) {
        if (frames == 0 &&
            (glfwWindowShouldClose(g.win) || glfwGetKey(g.win, GLFW_KEY_ESCAPE) == GLFW_PRESS))
            break;
        const int touched = frame ? game_step(&k, frame) : 0;
        const uint32_t recomputed = sgrt_scene_update(k.s);
        uint32_t slots;
        const float *world = sgrt_scene_world_array(k.s, &slots);
        if ((int64_t)slots * 4 > max_texels) {
            fprintf(stderr, "%u slots: more than this GL's buffer textures hold (%d texels)\n",
                    (unsigned)slots, (int)max_texels);
            return 1;
        }

        frame_stats st;
        memset(&st, 0, sizeof st);
        gpu_reserve_world(&g, slots, fault, &st);
        glBindBuffer(GL_TEXTURE_BUFFER, g.world_buf);
        upload u = {world, &st, fault == FAULT_FIRST_RANGE_ONLY};
        for_each_changed_range(k.s, tracker, upload_range, &u);
        for (int m = 0; m < MESH_COUNT; m++) {
            const uint32_t n = set_slots(k.s, k.has_mesh[m], &list, &list_cap);
            sync_slot_list(&g.mesh[m], list, n, &st);
        }
        gpu_draw(&g, &cam);
        gpu_present(&g);
        glfwPollEvents();

        grows += st.grows;
        const size_t up = st.world_bytes + st.list_bytes;
        const size_t full = (size_t)slots * 64u;
        if (frame) { /* frame 0 is the initial full upload */
            total_up += up;
            total_full += full;
        }
        if (!quiet) {
            printf("frame %3d: %3d nodes touched, %3u worlds recomputed, %3u slots, %2u ranges, "
                   "uploaded %6zu B of %6zu B",
                   frame, touched, (unsigned)recomputed, (unsigned)slots, (unsigned)st.ranges, up,
                   full);
            if (st.grows)
                printf(" | world buffer grown to %u slots, %zu B copied on the GPU",
                       (unsigned)g.world_cap, st.copied_bytes);
            putchar('\n');
        }
        if (check)
            check_buffers(&g, &k, frame);
    }
    glFinish();
    printf("%d orreries, %u nodes (%u sun, %u planet, %u moon, the rest transform-only), "
           "world buffer grown %u times to %u slots; frames 1..%d uploaded %zu B of %zu B "
           "for full uploads (%.2f%%)\n",
           k.n, (unsigned)sgrt_scene_node_count(k.s),
           (unsigned)sgrt_nodeset_count(k.s, k.has_mesh[0]),
           (unsigned)sgrt_nodeset_count(k.s, k.has_mesh[1]),
           (unsigned)sgrt_nodeset_count(k.s, k.has_mesh[2]), (unsigned)grows, (unsigned)g.world_cap,
           frame - 1, total_up, total_full,
           total_full ? 100.0 * (double)total_up / (double)total_full : 0.0);

    unsigned char *px = malloc((size_t)w * (size_t)h * 4u);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, g.fbo);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, px);
    if (ppm)
        write_ppm(ppm, px, w, h);
    if (check) {
        check_image(&k, &cam, px, w, h);
        /* The growth path is part of what is checked: a run too short to
         * outgrow the first buffer tests nothing of it. */
        EXPECT(buffer_failures, grows > 0, "the world buffer never grew");
    }
    const GLenum err = glGetError();
    EXPECT(buffer_failures, err == GL_NO_ERROR, "GL error 0x%x", (unsigned)err);
    free(px);
    free(list);
    for (int m = 0; m < MESH_COUNT; m++)
        free(g.mesh[m].sent);
    sgrt_scene_destroy(k.s);
    free(k.orr);
    glfwDestroyWindow(g.win);
    glfwTerminate();

    if (fault != FAULT_NONE) {
        const bool caught = image_failures > 0;
        printf(
            "fault %s: %s by the image check (%d failed image checks, %d failed buffer checks)\n",
            fault_names[fault], caught ? "caught" : "NOT caught", image_failures, buffer_failures);
        return caught ? 0 : 1;
    }
    if (check)
        printf("%s: %d failed checks\n", image_failures + buffer_failures ? "FAIL" : "ok",
               image_failures + buffer_failures);
    return image_failures + buffer_failures ? 1 : 0;
}
