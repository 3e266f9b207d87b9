/* SPDX-License-Identifier: MIT */
/* A real frame loop: a fleet of pirate ships drawn with OpenGL ES 3.0,
 * headless (EGL, Mesa's surfaceless platform; llvmpipe without a GPU).
 *
 * Every node is one box. The GPU holds two per-slot instance buffers: the
 * world matrices, a copy of sgrt_scene_world_array(), and a colour and size
 * per slot derived from the node's user value (its kind). Both are written
 * only through the ranges a tracker collects (glBufferSubData), and the whole
 * scene is culled against the camera's frustum (its planes from
 * sgrt_frustum_planes, sgrt_scene_cull on each node's box) and drawn with one instanced draw call per run of visible
 * slots: culled nodes, dead slots and the sea root are not drawn at all.
 *
 *   gl_frame_loop [--ships N] [--frames N] [--size WxH] [--png FILE] [--top]
 *                 [--fov DEG] [--check] [--quiet]
 *
 * --check verifies, after every frame, that the GPU buffers equal the world
 * array and the slot kinds, and after the last frame that the image agrees
 * with a CPU ray cast of the scene computed from the local matrices alone (in
 * double precision, without sgrt's world matrices), at the projected
 * positions of known nodes and at random pixels; that every node a plain
 * per-object test finds in the frustum (its box's corners from the same
 * double-precision worlds) was kept by the cull; and that the picture is
 * byte-identical to the same frame drawn without culling. Exit status: 0
 * when all is well, 1 on a failed check, 77 when no EGL/GLES 3 context can
 * be made.
 */
#define _GNU_SOURCE /* getopt_long */
#include "args.h"
#include "must.h"

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl3.h>
#include <getopt.h>
#include <math.h>
#include <png.h>
#include <sgrt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- what the fleet is made of ------------------------------------------- */

enum kind {
    K_NONE, /* the sea root: not drawn */
    K_HULL, K_MAST, K_FOREMAST, K_SAIL, K_FORESAIL, K_NEST, K_PIRATE, K_PARROT, K_CREW,
    K_CANNON, K_FLAG, K_COUNT
};

static const struct {
    const char *name;
    unsigned char rgb[3];
    float half[3]; /* box half extents */
} kinds[K_COUNT] = {
    [K_NONE] = {"sea", {0, 0, 0}, {0, 0, 0}},
    [K_HULL] = {"hull", {120, 72, 36}, {1.0f, 0.3f, 2.5f}},
    [K_MAST] = {"mast", {200, 180, 140}, {0.1f, 3.0f, 0.1f}},
    [K_FOREMAST] = {"foremast", {200, 180, 140}, {0.08f, 2.2f, 0.08f}},
    [K_SAIL] = {"sail", {240, 236, 222}, {1.2f, 1.0f, 0.03f}},
    [K_FORESAIL] = {"foresail", {240, 236, 222}, {1.0f, 0.8f, 0.03f}},
    [K_NEST] = {"nest", {90, 60, 30}, {0.45f, 0.2f, 0.45f}},
    [K_PIRATE] = {"pirate", {200, 30, 40}, {0.2f, 0.3f, 0.2f}},
    [K_PARROT] = {"parrot", {30, 210, 60}, {0.3f, 0.15f, 0.3f}},
    [K_CREW] = {"crew", {40, 60, 200}, {0.18f, 0.35f, 0.18f}},
    [K_CANNON] = {"cannon", {30, 30, 30}, {0.12f, 0.12f, 0.4f}},
    [K_FLAG] = {"flag", {10, 10, 10}, {0.3f, 0.2f, 0.02f}},
};
static const unsigned char sea_rgb[3] = {20, 70, 120};

/* Face brightness: +x -x +y -y +z -z. The top face keeps the exact colour. */
static const float face_shade[6] = {0.8f, 0.8f, 1.0f, 0.45f, 0.65f, 0.65f};

#define CREW_SPOTS 6
static const float crew_spot[CREW_SPOTS][2] = {
    {-0.55f, -2.1f}, {0.55f, -2.1f}, {-0.55f, -0.5f}, {0.55f, -0.5f}, {-0.55f, 1.6f}, {0.55f, 1.6f},
};
#define SPACING_X 9.0
#define SPACING_Z 12.0

typedef struct ship {
    sgrt_node hull, pirate, parrot; /* parrot: SGRT_NULL_NODE when it has flown */
    sgrt_node crew[CREW_SPOTS];     /* SGRT_NULL_NODE: nobody on that spot */
    double home_x, home_z, yaw, phase;
    float parrot_hop;
} ship;

typedef struct fleet {
    sgrt_scene *s;
    sgrt_node sea;
    ship *ships;
    int n;
    uint64_t rng;
    /* For the checks: where the last parrot that flew away was, and nodes
     * whose storage moved. */
    double gone_parrot[3];
    int have_gone_parrot;
    sgrt_node moved_crew;
} fleet;

static uint64_t next_rand(uint64_t *x) /* splitmix64 */
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static int rand_below(fleet *f, int n) { return (int)(next_rand(&f->rng) % (uint64_t)n); }

static void set_pose(sgrt_scene *s, sgrt_node n, double x, double y, double z, double yaw)
{
    const float t[3] = {(float)x, (float)y, (float)z};
    const float q[4] = {0.0f, (float)sin(yaw / 2), 0.0f, (float)cos(yaw / 2)};
    const float one[3] = {1, 1, 1};
    MUST(sgrt_node_set_trs(s, n, t, q, one));
}

static sgrt_node add(fleet *f, sgrt_node parent, enum kind k, double x, double y, double z)
{
    sgrt_node n;
    if (sgrt_node_create(f->s, parent, &n) != SGRT_OK) {
        fprintf(stderr, "sgrt_node_create failed\n");
        exit(1);
    }
    MUST(sgrt_node_set_user(f->s, n, (uint64_t)k));
    /* What is drawn gets its box: the unit cube scaled by the kind's half
     * extents (the sea root is a pure transform). */
    const float center[3] = {0, 0, 0};
    if (k != K_NONE)
        MUST(sgrt_node_set_bounds(f->s, n, center, kinds[k].half));
    set_pose(f->s, n, x, y, z, 0.0);
    return n;
}

static void place_ship(fleet *f, ship *sh)
{
    const double sway = 1.5 * sin(sh->phase);
    set_pose(f->s, sh->hull, sh->home_x + sway * sin(sh->yaw), 0.3,
             sh->home_z + sway * cos(sh->yaw), sh->yaw);
}

static sgrt_node add_parrot(fleet *f, ship *sh)
{
    return add(f, sh->pirate, K_PARROT, 0.0, 0.3 + 0.15 + sh->parrot_hop, 0.0);
}

static void build_fleet(fleet *f, int nships)
{
    f->n = nships;
    f->ships = calloc((size_t)nships, sizeof *f->ships);
    f->rng = 12345;
    f->sea = add(f, SGRT_NULL_NODE, K_NONE, 0, 0, 0);
    const int cols = (int)ceil(sqrt((double)nships));
    for (int i = 0; i < nships; i++) {
        ship *sh = &f->ships[i];
        sh->home_x = (i % cols) * SPACING_X;
        sh->home_z = (i / cols) * SPACING_Z;
        sh->yaw = (rand_below(f, 100) - 50) * 0.004;
        sh->phase = rand_below(f, 628) * 0.01;
        sh->hull = add(f, f->sea, K_HULL, 0, 0, 0);
        place_ship(f, sh);
        const sgrt_node mast = add(f, sh->hull, K_MAST, 0, 0.3 + 3.0, 0.5);
        const sgrt_node fore = add(f, sh->hull, K_FOREMAST, 0, 0.3 + 2.2, -1.5);
        add(f, mast, K_SAIL, 0, 0.6, 0.14);
        add(f, fore, K_FORESAIL, 0, 0.4, 0.12);
        add(f, fore, K_FLAG, 0, 2.2 + 0.2, 0);
        const sgrt_node nest = add(f, mast, K_NEST, 0, 3.0, 0);
        sh->pirate = add(f, nest, K_PIRATE, 0, 0.2 + 0.3, 0);
        /* Some ships start without a parrot or with free spots on deck. */
        sh->parrot = i % 7 == 3 ? SGRT_NULL_NODE : add_parrot(f, sh);
        for (int c = 0; c < CREW_SPOTS; c++)
            sh->crew[c] = (i + c) % 9 == 0 ? SGRT_NULL_NODE
                                           : add(f, sh->hull, K_CREW, crew_spot[c][0],
                                                 0.3 + 0.35, crew_spot[c][1]);
        for (int c = 0; c < 4; c++)
            add(f, sh->hull, K_CANNON, c < 2 ? -1.05 : 1.05, 0.0, c % 2 ? 0.9 : -0.9);
    }
}

static void world_point(const sgrt_scene *s, sgrt_node n, double out[3]);

/* One frame of game logic: a few ships sail, a few parrots hop, now and then a
 * parrot flies to another ship and a sailor changes ships. Returns how many
 * nodes it touched directly. */
static int game_step(fleet *f, int frame)
{
    int touched = 0;
    const int sailing = f->n < 4 ? f->n : 4;
    for (int k = 0; k < sailing; k++) {
        ship *sh = &f->ships[rand_below(f, f->n)];
        sh->phase += 0.35;
        sh->yaw += 0.03;
        place_ship(f, sh);
        touched++;
    }
    for (int k = 0; k < 8; k++) {
        ship *sh = &f->ships[rand_below(f, f->n)];
        if (!sh->parrot.id)
            continue;
        sh->parrot_hop = sh->parrot_hop > 0.0f ? 0.0f : 0.25f;
        set_pose(f->s, sh->parrot, 0.0, 0.3 + 0.15 + sh->parrot_hop, 0.0, 0.0);
        touched++;
    }
    if (frame % 3 == 1) {
        ship *from = &f->ships[rand_below(f, f->n)], *to = NULL;
        for (int k = 0, start = rand_below(f, f->n); k < f->n && !to; k++)
            if (!f->ships[(start + k) % f->n].parrot.id)
                to = &f->ships[(start + k) % f->n];
        if (to && from != to && from->parrot.id) {
            world_point(f->s, from->parrot, f->gone_parrot);
            f->have_gone_parrot = 1;
            MUST(sgrt_node_destroy(f->s, from->parrot));
            from->parrot = SGRT_NULL_NODE;
            to->parrot = add_parrot(f, to);
            touched += 2;
        }
    }
    if (frame % 4 == 2) {
        ship *from = &f->ships[rand_below(f, f->n)], *to = NULL;
        const int a = rand_below(f, CREW_SPOTS);
        int b = 0;
        for (int k = 0, start = rand_below(f, f->n); k < f->n * CREW_SPOTS && !to; k++) {
            ship *sh = &f->ships[(start + k / CREW_SPOTS) % f->n];
            if (!sh->crew[k % CREW_SPOTS].id) {
                to = sh;
                b = k % CREW_SPOTS;
            }
        }
        if (to && from != to && from->crew[a].id) {
            const sgrt_node sailor = from->crew[a];
            MUST(sgrt_node_set_parent(f->s, sailor, to->hull, SGRT_KEEP_LOCAL));
            set_pose(f->s, sailor, crew_spot[b][0], 0.3 + 0.35, crew_spot[b][1], 0.0);
            from->crew[a] = SGRT_NULL_NODE;
            to->crew[b] = sailor;
            f->moved_crew = sailor;
            touched++;
        }
    }
    return touched;
}

/* ---- small matrix helpers (double, column-major) --------------------------- */

static void mat_mul(const double a[16], const double b[16], double out[16])
{
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++) {
            double v = 0;
            for (int k = 0; k < 4; k++)
                v += a[k * 4 + r] * b[c * 4 + k];
            out[c * 4 + r] = v;
        }
}

/* The reference world of a node: the product of the local matrices along its
 * path, in double precision, without looking at sgrt's world matrices. */
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

static void world_point(const sgrt_scene *s, sgrt_node n, double out[3])
{
    double w[16];
    reference_world(s, n, w);
    uint64_t k = 0;
    MUST(sgrt_node_user(s, n, &k));
    const double top = kinds[k].half[1];
    for (int i = 0; i < 3; i++)
        out[i] = w[12 + i] + w[4 + i] * top;
}

typedef struct camera {
    double eye[3], fwd[3], right[3], up[3];
    double tan_half_fov, aspect;
    float view_proj[16];
} camera;

static void normalize3(double v[3])
{
    const double l = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    for (int i = 0; i < 3; i++)
        v[i] /= l;
}

static void cross3(const double a[3], const double b[3], double out[3])
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

static void camera_look(camera *c, const double eye[3], const double target[3],
                        const double up_hint[3], double fov_y, int w, int h)
{
    memcpy(c->eye, eye, sizeof c->eye);
    for (int i = 0; i < 3; i++)
        c->fwd[i] = target[i] - eye[i];
    normalize3(c->fwd);
    cross3(c->fwd, up_hint, c->right);
    normalize3(c->right);
    cross3(c->right, c->fwd, c->up);
    c->tan_half_fov = tan(fov_y / 2);
    c->aspect = (double)w / h;
    const double n = 1.0, fr = 1000.0;
    double view[16] = {0}, proj[16] = {0}, vp[16];
    for (int i = 0; i < 3; i++) {
        view[i * 4 + 0] = c->right[i];
        view[i * 4 + 1] = c->up[i];
        view[i * 4 + 2] = -c->fwd[i];
    }
    view[12] = -(c->right[0] * eye[0] + c->right[1] * eye[1] + c->right[2] * eye[2]);
    view[13] = -(c->up[0] * eye[0] + c->up[1] * eye[1] + c->up[2] * eye[2]);
    view[14] = c->fwd[0] * eye[0] + c->fwd[1] * eye[1] + c->fwd[2] * eye[2];
    view[15] = 1;
    proj[0] = 1 / (c->tan_half_fov * c->aspect);
    proj[5] = 1 / c->tan_half_fov;
    proj[10] = -(fr + n) / (fr - n);
    proj[11] = -1;
    proj[14] = -2 * fr * n / (fr - n);
    mat_mul(proj, view, vp);
    for (int i = 0; i < 16; i++)
        c->view_proj[i] = (float)vp[i];
}

/* ---- OpenGL ----------------------------------------------------------------- */

typedef struct gpu {
    EGLDisplay dpy;
    EGLContext ctx;
    GLuint fbo, color_rb, depth_rb, prog, vao, cube_vbo;
    GLuint world_buf, attr_buf; /* per-slot instance data */
    uint32_t cap;               /* slots the instance buffers hold */
    GLint u_view_proj;
    int w, h;
} gpu;

typedef struct slot_attr {
    unsigned char rgba[4]; /* alpha 0: dead slot, draw nothing */
    float half[3];
} slot_attr;

static const char *vs_src =
    "#version 300 es\n"
    "layout(location = 0) in vec3 a_pos;\n"
    "layout(location = 1) in float a_shade;\n"
    "layout(location = 2) in vec4 a_world0;\n"
    "layout(location = 3) in vec4 a_world1;\n"
    "layout(location = 4) in vec4 a_world2;\n"
    "layout(location = 5) in vec4 a_world3;\n"
    "layout(location = 6) in vec4 a_color;\n"
    "layout(location = 7) in vec3 a_half;\n"
    "uniform mat4 u_view_proj;\n"
    "flat out vec4 v_color;\n"
    "void main() {\n"
    "    v_color = vec4(a_color.rgb * a_shade, 1.0);\n"
    "    if (a_color.a == 0.0) { gl_Position = vec4(2.0, 2.0, 2.0, 1.0); return; }\n"
    "    mat4 world = mat4(a_world0, a_world1, a_world2, a_world3);\n"
    "    gl_Position = u_view_proj * world * vec4(a_pos * a_half, 1.0);\n"
    "}\n";

static const char *fs_src = "#version 300 es\n"
                            "precision mediump float;\n"
                            "flat in vec4 v_color;\n"
                            "out vec4 o_color;\n"
                            "void main() { o_color = v_color; }\n";

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

/* A unit cube [-1, 1]^3 as 36 vertices: position and the brightness of its
 * face. Counter-clockwise seen from outside. */
static void cube_vertices(float out[36][4])
{
    int v = 0;
    for (int face = 0; face < 6; face++) {
        const int axis = face / 2;
        const float sign = face % 2 ? -1.0f : 1.0f;
        const int u = (axis + 1) % 3, w = (axis + 2) % 3;
        const float corners[6][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, -1}, {1, 1}, {-1, 1}};
        for (int k = 0; k < 6; k++) {
            float p[3];
            p[axis] = sign;
            p[u] = corners[k][0];
            p[w] = corners[k][1] * sign;
            memcpy(out[v], p, sizeof p);
            out[v][3] = face_shade[face];
            v++;
        }
    }
}

static int gpu_init(gpu *g, int w, int h)
{
    PFNEGLGETPLATFORMDISPLAYEXTPROC get_platform_display =
        (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
    g->dpy = EGL_NO_DISPLAY;
    if (get_platform_display)
        g->dpy = get_platform_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    if (g->dpy == EGL_NO_DISPLAY)
        g->dpy = eglGetDisplay(EGL_DEFAULT_DISPLAY);
    EGLint major, minor;
    if (g->dpy == EGL_NO_DISPLAY || !eglInitialize(g->dpy, &major, &minor)) {
        fprintf(stderr, "no EGL display (install Mesa's EGL: libegl-mesa0 libgl1-mesa-dri)\n");
        return 0;
    }
    const EGLint cfg_attr[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_ES3_BIT, EGL_NONE};
    EGLConfig cfg = NULL;
    EGLint ncfg = 0;
    eglChooseConfig(g->dpy, cfg_attr, &cfg, 1, &ncfg);
    eglBindAPI(EGL_OPENGL_ES_API);
    const EGLint ctx_attr[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 0, EGL_NONE};
    g->ctx = eglCreateContext(g->dpy, ncfg ? cfg : (EGLConfig)0, EGL_NO_CONTEXT, ctx_attr);
    /* Rendering goes to a framebuffer object: no window or pbuffer needed. */
    if (g->ctx == EGL_NO_CONTEXT ||
        !eglMakeCurrent(g->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, g->ctx)) {
        fprintf(stderr, "no surfaceless OpenGL ES 3.0 context (EGL error 0x%x)\n", eglGetError());
        return 0;
    }
    g->w = w;
    g->h = h;

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
        return 0;
    }

    g->prog = glCreateProgram();
    glAttachShader(g->prog, compile(GL_VERTEX_SHADER, vs_src));
    glAttachShader(g->prog, compile(GL_FRAGMENT_SHADER, fs_src));
    glLinkProgram(g->prog);
    GLint ok = 0;
    glGetProgramiv(g->prog, GL_LINK_STATUS, &ok);
    if (!ok) {
        fprintf(stderr, "program link failed\n");
        return 0;
    }
    g->u_view_proj = glGetUniformLocation(g->prog, "u_view_proj");

    float cube[36][4];
    cube_vertices(cube);
    glGenVertexArrays(1, &g->vao);
    glBindVertexArray(g->vao);
    glGenBuffers(1, &g->cube_vbo);
    glBindBuffer(GL_ARRAY_BUFFER, g->cube_vbo);
    glBufferData(GL_ARRAY_BUFFER, sizeof cube, cube, GL_STATIC_DRAW);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 16, (void *)0);
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 1, GL_FLOAT, GL_FALSE, 16, (void *)12);
    g->cap = 0;
    return 1;
}

static void bind_instance_attributes(gpu *g)
{
    glBindVertexArray(g->vao);
    glBindBuffer(GL_ARRAY_BUFFER, g->world_buf);
    for (GLuint col = 0; col < 4; col++) {
        glEnableVertexAttribArray(2 + col);
        glVertexAttribPointer(2 + col, 4, GL_FLOAT, GL_FALSE, 64, (void *)(uintptr_t)(col * 16u));
        glVertexAttribDivisor(2 + col, 1);
    }
    glBindBuffer(GL_ARRAY_BUFFER, g->attr_buf);
    glEnableVertexAttribArray(6);
    glVertexAttribPointer(6, 4, GL_UNSIGNED_BYTE, GL_TRUE, sizeof(slot_attr), (void *)0);
    glVertexAttribDivisor(6, 1);
    glEnableVertexAttribArray(7);
    glVertexAttribPointer(7, 3, GL_FLOAT, GL_FALSE, sizeof(slot_attr), (void *)4);
    glVertexAttribDivisor(7, 1);
}

/* Grow the instance buffers to hold `slots`, keeping their contents with a
 * GPU-side copy: growth never re-uploads from the CPU. */
static void gpu_reserve(gpu *g, uint32_t slots)
{
    if (slots <= g->cap)
        return;
    uint32_t cap = g->cap ? g->cap : 1024u;
    while (cap < slots)
        cap *= 2u;
    const size_t sizes[2] = {64u, sizeof(slot_attr)};
    GLuint *bufs[2] = {&g->world_buf, &g->attr_buf};
    for (int b = 0; b < 2; b++) {
        GLuint nb;
        glGenBuffers(1, &nb);
        glBindBuffer(GL_COPY_WRITE_BUFFER, nb);
        glBufferData(GL_COPY_WRITE_BUFFER, (GLsizeiptr)(cap * sizes[b]), NULL, GL_DYNAMIC_DRAW);
        if (g->cap) {
            glBindBuffer(GL_COPY_READ_BUFFER, *bufs[b]);
            glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, 0, 0,
                                (GLsizeiptr)(g->cap * sizes[b]));
            glDeleteBuffers(1, bufs[b]);
        }
        *bufs[b] = nb;
    }
    g->cap = cap;
    bind_instance_attributes(g);
}

static slot_attr attr_of(const sgrt_scene *s, sgrt_node n)
{
    slot_attr a = {{0, 0, 0, 0}, {0, 0, 0}};
    uint64_t k = 0;
    if (n.id && sgrt_node_user(s, n, &k) == SGRT_OK && k > K_NONE && k < K_COUNT) {
        memcpy(a.rgba, kinds[k].rgb, 3);
        a.rgba[3] = 255;
        memcpy(a.half, kinds[k].half, sizeof a.half);
    }
    return a;
}

#define NEVER_SENT UINT64_MAX /* holder[] of a slot the GPU has no attributes for */

typedef struct upload_stats {
    uint32_t ranges;
    size_t world_bytes, attr_bytes;
} upload_stats;

/* The hand-off: collect the tracker's ranges and copy exactly those slots of
 * the world array to the GPU. A slot's colour and size change only when
 * another node comes to it, so they are re-sent only where the node differs
 * from the one the GPU has (holder[]). */
static upload_stats upload_changes(gpu *g, sgrt_scene *s, sgrt_tracker t, uint64_t **holder,
                                   uint32_t *holder_cap, slot_attr *staging)
{
    upload_stats st = {0, 0, 0};
    uint32_t slot_count;
    const float *world = sgrt_scene_world_array(s, &slot_count);
    gpu_reserve(g, slot_count);
    if (*holder_cap < g->cap) {
        *holder = realloc(*holder, g->cap * sizeof **holder);
        for (uint32_t j = *holder_cap; j < g->cap; j++)
            (*holder)[j] = NEVER_SENT;
        *holder_cap = g->cap;
    }
    sgrt_range r[64];
    uint32_t n;
    bool more;
    do {
        MUST(sgrt_tracker_collect(s, t, r, 64, 4, &n, &more));
        for (uint32_t i = 0; i < n; i++) {
            glBindBuffer(GL_ARRAY_BUFFER, g->world_buf);
            glBufferSubData(GL_ARRAY_BUFFER, (GLintptr)r[i].first * 64,
                            (GLsizeiptr)r[i].count * 64, world + (size_t)r[i].first * 16u);
            st.world_bytes += (size_t)r[i].count * 64u;
            st.ranges++;
            /* Runs of slots whose node changed get new attributes. */
            glBindBuffer(GL_ARRAY_BUFFER, g->attr_buf);
            uint32_t run = 0;
            for (uint32_t j = r[i].first; j <= r[i].first + r[i].count; j++) {
                int changed = 0;
                if (j < r[i].first + r[i].count) {
                    const sgrt_node node = sgrt_scene_slot_node(s, j);
                    if ((*holder)[j] != node.id) {
                        (*holder)[j] = node.id;
                        staging[run++] = attr_of(s, node);
                        changed = 1;
                    }
                }
                if (!changed && run) {
                    glBufferSubData(GL_ARRAY_BUFFER, (GLintptr)((j - run) * sizeof(slot_attr)),
                                    (GLsizeiptr)(run * sizeof(slot_attr)), staging);
                    st.attr_bytes += run * sizeof(slot_attr);
                    run = 0;
                }
            }
        }
    } while (more);
    return st;
}

/* A frame's start: the framebuffer cleared to the sea, the program and the
 * camera bound. */
static void gpu_begin(gpu *g, const camera *cam)
{
    glBindFramebuffer(GL_FRAMEBUFFER, g->fbo);
    glViewport(0, 0, g->w, g->h);
    glClearColor(sea_rgb[0] / 255.0f, sea_rgb[1] / 255.0f, sea_rgb[2] / 255.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    glEnable(GL_DEPTH_TEST);
    glEnable(GL_CULL_FACE);
    glUseProgram(g->prog);
    glUniformMatrix4fv(g->u_view_proj, 1, GL_FALSE, cam->view_proj);
    glBindVertexArray(g->vao);
}

/* Every slot, dead ones drawn off-screen: the picture without culling. */
static void gpu_draw(gpu *g, const camera *cam, uint32_t slot_count)
{
    gpu_begin(g, cam);
    glDrawArraysInstanced(GL_TRIANGLES, 0, 36, (GLsizei)slot_count);
}

/* Draw the visible slots only: one instanced draw per run of set bits of the
 * node set, the instance attributes pointed at the run's first slot (GLES
 * 3.0 has no base instance). Returns the draw calls made. */
static uint32_t gpu_draw_visible(gpu *g, const camera *cam, const sgrt_scene *s,
                                 sgrt_nodeset visible)
{
    gpu_begin(g, cam);
    uint32_t words, draws = 0;
    const uint32_t *bits = sgrt_nodeset_words(s, visible, &words);
    for (uint32_t w = 0; w < words; w++) {
        uint32_t b = bits[w];
        while (b) {
            /* A run of set bits: from the lowest one to the next clear one. */
            const uint32_t lo = (uint32_t)__builtin_ctz(b), ones = ~(b >> lo);
            const uint32_t hi = ones ? lo + (uint32_t)__builtin_ctz(ones) : 32u;
            const uint32_t first = w * 32u + lo, count = hi - lo;
            glBindBuffer(GL_ARRAY_BUFFER, g->world_buf);
            for (GLuint col = 0; col < 4; col++)
                glVertexAttribPointer(2 + col, 4, GL_FLOAT, GL_FALSE, 64,
                                      (void *)(uintptr_t)((size_t)first * 64u + col * 16u));
            glBindBuffer(GL_ARRAY_BUFFER, g->attr_buf);
            glVertexAttribPointer(6, 4, GL_UNSIGNED_BYTE, GL_TRUE, sizeof(slot_attr),
                                  (void *)(uintptr_t)((size_t)first * sizeof(slot_attr)));
            glVertexAttribPointer(7, 3, GL_FLOAT, GL_FALSE, sizeof(slot_attr),
                                  (void *)(uintptr_t)((size_t)first * sizeof(slot_attr) + 4u));
            glDrawArraysInstanced(GL_TRIANGLES, 0, 36, (GLsizei)count);
            draws++;
            b = hi == 32u ? 0u : b & (~0u << hi);
        }
    }
    bind_instance_attributes(g); /* back to slot 0 for the unculled draw */
    return draws;
}

static unsigned char *read_pixels(gpu *g)
{
    unsigned char *px = malloc((size_t)g->w * g->h * 4);
    glBindFramebuffer(GL_FRAMEBUFFER, g->fbo);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, g->w, g->h, GL_RGBA, GL_UNSIGNED_BYTE, px);
    return px;
}

static int write_png(const char *path, const unsigned char *rgba, int w, int h)
{
    FILE *fp = fopen(path, "wb");
    if (!fp)
        return 0;
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!info || setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        fclose(fp);
        return 0;
    }
    png_init_io(png, fp);
    png_set_IHDR(png, info, (png_uint_32)w, (png_uint_32)h, 8, PNG_COLOR_TYPE_RGB,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    png_set_filler(png, 0, PNG_FILLER_AFTER); /* rows are RGBA; the file is RGB */
    for (int y = h - 1; y >= 0; y--)      /* GL rows run bottom-up */
        png_write_row(png, (png_const_bytep)(rgba + (size_t)y * w * 4));
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    fclose(fp);
    return 1;
}

/* ---- checks ------------------------------------------------------------------- */

static int failures;

#define EXPECT(cond, ...)                                                              \
    do {                                                                               \
        if (!(cond)) {                                                                 \
            if (failures++ < 20) {                                                     \
                fprintf(stderr, "check failed: " __VA_ARGS__);                         \
                fputc('\n', stderr);                                                   \
            }                                                                          \
        }                                                                              \
    } while (0)

/* The GPU buffers must equal the world array and the kinds of the slots. */
static void check_buffers(gpu *g, const sgrt_scene *s, int frame)
{
    uint32_t count;
    const float *world = sgrt_scene_world_array(s, &count);
    glBindBuffer(GL_ARRAY_BUFFER, g->world_buf);
    const float *gw = glMapBufferRange(GL_ARRAY_BUFFER, 0, (GLsizeiptr)count * 64, GL_MAP_READ_BIT);
    EXPECT(gw != NULL, "map world buffer");
    uint32_t bad = 0;
    for (uint32_t j = 0; gw && j < count; j++)
        if (sgrt_scene_slot_node(s, j).id && memcmp(gw + 16u * j, world + 16u * j, 64) != 0)
            bad++;
    if (gw)
        glUnmapBuffer(GL_ARRAY_BUFFER);
    EXPECT(bad == 0, "frame %d: %u live slots of the GPU world buffer differ from the world array",
           frame, bad);
    glBindBuffer(GL_ARRAY_BUFFER, g->attr_buf);
    const slot_attr *ga = glMapBufferRange(GL_ARRAY_BUFFER, 0,
                                           (GLsizeiptr)(count * sizeof(slot_attr)), GL_MAP_READ_BIT);
    EXPECT(ga != NULL, "map attribute buffer");
    bad = 0;
    for (uint32_t j = 0; ga && j < count; j++) {
        const slot_attr want = attr_of(s, sgrt_scene_slot_node(s, j));
        if (memcmp(&ga[j], &want, sizeof want) != 0)
            bad++;
    }
    if (ga)
        glUnmapBuffer(GL_ARRAY_BUFFER);
    EXPECT(bad == 0, "frame %d: %u slots of the GPU attribute buffer are wrong", frame, bad);
}

typedef struct box {
    double w[16]; /* reference world (rigid) */
    const float *half;
    enum kind k;
} box;

/* Nearest box hit by the ray o + t d: its index (or -1) and face (0..5). */
static int ray_cast(const box *boxes, int nb, const double o[3], const double d[3], int *face)
{
    double best = INFINITY;
    int hit = -1;
    for (int b = 0; b < nb; b++) {
        const double *w = boxes[b].w;
        double lo[3], ld[3], rel[3];
        for (int i = 0; i < 3; i++)
            rel[i] = o[i] - w[12 + i];
        for (int a = 0; a < 3; a++) { /* into the box frame: R^T (o - t) */
            lo[a] = w[a * 4] * rel[0] + w[a * 4 + 1] * rel[1] + w[a * 4 + 2] * rel[2];
            ld[a] = w[a * 4] * d[0] + w[a * 4 + 1] * d[1] + w[a * 4 + 2] * d[2];
        }
        double tn = -INFINITY, tf = INFINITY;
        int fn = 0;
        for (int a = 0; a < 3; a++) {
            const double h = boxes[b].half[a];
            if (fabs(ld[a]) < 1e-12) {
                if (lo[a] < -h || lo[a] > h)
                    tn = INFINITY;
                continue;
            }
            double t1 = (-h - lo[a]) / ld[a], t2 = (h - lo[a]) / ld[a];
            int f1 = a * 2 + 1, f2 = a * 2; /* -axis face, +axis face */
            if (t1 > t2) {
                const double tt = t1;
                t1 = t2;
                t2 = tt;
                const int ff = f1;
                f1 = f2;
                f2 = ff;
            }
            if (t1 > tn) {
                tn = t1;
                fn = f1;
            }
            if (t2 < tf)
                tf = t2;
        }
        if (tn <= tf && tn > 0 && tn < best) {
            best = tn;
            hit = b;
            *face = fn;
        }
    }
    return hit;
}

/* The colour expected at pixel (px, py) (GL window coordinates), or -1 when
 * an edge is within a pixel of it (rasterisation rules decide there). */
static int expected_at(const box *boxes, int nb, const camera *c, int w, int h, int px, int py,
                       unsigned char rgb[3], int *what)
{
    int first_hit = -2, first_face = -1;
    for (int k = 0; k < 5; k++) {
        const double dx = k == 1 ? 1.0 : k == 2 ? -1.0 : 0.0, dy = k == 3 ? 1.0 : k == 4 ? -1.0 : 0.0;
        const double nx = 2.0 * (px + 0.5 + dx) / w - 1.0, ny = 2.0 * (py + 0.5 + dy) / h - 1.0;
        double d[3];
        for (int i = 0; i < 3; i++)
            d[i] = c->fwd[i] + nx * c->tan_half_fov * c->aspect * c->right[i] +
                   ny * c->tan_half_fov * c->up[i];
        int face = -1;
        const int hit = ray_cast(boxes, nb, c->eye, d, &face);
        if (k == 0) {
            first_hit = hit;
            first_face = face;
        } else if (hit != first_hit || face != first_face) {
            return -1;
        }
    }
    *what = first_hit < 0 ? K_NONE : (int)boxes[first_hit].k;
    if (first_hit < 0) {
        memcpy(rgb, sea_rgb, 3);
        return 0;
    }
    const unsigned char *base = kinds[boxes[first_hit].k].rgb;
    for (int i = 0; i < 3; i++)
        rgb[i] = (unsigned char)lrintf(base[i] / 255.0f * face_shade[first_face] * 255.0f);
    return 0;
}

static int project(const camera *c, const double p[3], int w, int h, int *px, int *py)
{
    double clip[4];
    for (int r = 0; r < 4; r++)
        clip[r] = c->view_proj[r] * p[0] + c->view_proj[4 + r] * p[1] +
                  c->view_proj[8 + r] * p[2] + c->view_proj[12 + r];
    if (clip[3] <= 0)
        return 0;
    const double x = (clip[0] / clip[3] + 1) * 0.5 * w, y = (clip[1] / clip[3] + 1) * 0.5 * h;
    *px = (int)floor(x);
    *py = (int)floor(y);
    return *px >= 0 && *py >= 0 && *px < w && *py < h;
}

static void check_image(const fleet *f, const camera *cam, const unsigned char *px, int w, int h)
{
    const sgrt_scene *s = f->s;
    uint32_t count;
    sgrt_scene_world_array(s, &count);
    box *boxes = malloc(count * sizeof *boxes);
    int nb = 0;
    for (uint32_t j = 0; j < count; j++) {
        const sgrt_node n = sgrt_scene_slot_node(s, j);
        uint64_t k = 0;
        if (!n.id || sgrt_node_user(s, n, &k) != SGRT_OK || k == K_NONE || k >= K_COUNT)
            continue;
        reference_world(s, n, boxes[nb].w);
        boxes[nb].half = kinds[k].half;
        boxes[nb].k = (enum kind)k;
        nb++;
    }

    /* Candidate pixels: the top of every parrot, sailor and hull bow, where
     * the last parrot that flew away was, and random pixels. */
    int cand = 0, checked = 0, wrong = 0, per_kind[K_COUNT] = {0};
    uint64_t rng = 99;
    const int n_random = 300;
    for (int i = -2; i < f->n * (2 + CREW_SPOTS) + n_random; i++) {
        int x, y;
        double p[3];
        const char *label = "random pixel";
        if (i == -2) {
            if (!f->have_gone_parrot)
                continue;
            memcpy(p, f->gone_parrot, sizeof p);
            label = "where a parrot flew from";
        } else if (i == -1) {
            if (!f->moved_crew.id || !sgrt_node_alive(s, f->moved_crew))
                continue;
            world_point(s, f->moved_crew, p);
            label = "sailor who changed ships";
        } else if (i < f->n * (2 + CREW_SPOTS)) {
            const ship *sh = &f->ships[i / (2 + CREW_SPOTS)];
            const int which = i % (2 + CREW_SPOTS);
            sgrt_node n = which == 0 ? sh->parrot : which == 1 ? sh->hull : sh->crew[which - 2];
            if (!n.id)
                continue;
            world_point(s, n, p);
            if (which == 1) { /* the bow of the hull, clear of masts and crew */
                double wm[16];
                reference_world(s, n, wm);
                for (int a = 0; a < 3; a++)
                    p[a] += wm[8 + a] * 2.2;
            }
            label = which == 0 ? "parrot" : which == 1 ? "hull" : "sailor";
        }
        if (i < f->n * (2 + CREW_SPOTS)) {
            if (!project(cam, p, w, h, &x, &y))
                continue;
        } else {
            x = (int)(next_rand(&rng) % (uint64_t)w);
            y = (int)(next_rand(&rng) % (uint64_t)h);
        }
        cand++;
        unsigned char want[3];
        int what = 0;
        if (expected_at(boxes, nb, cam, w, h, x, y, want, &what) != 0)
            continue;
        checked++;
        per_kind[what]++;
        const unsigned char *got = px + ((size_t)y * w + x) * 4;
        int ok = 1;
        for (int c = 0; c < 3; c++)
            if (abs((int)got[c] - (int)want[c]) > 2)
                ok = 0;
        if (!ok) {
            wrong++;
            EXPECT(0, "%s at pixel (%d, %d): got %d,%d,%d, expected %s %d,%d,%d", label, x, y,
                   got[0], got[1], got[2], kinds[what].name, want[0], want[1], want[2]);
        }
    }
    printf("image check: %d candidate pixels, %d unambiguous, %d wrong "
           "(parrot %d, sailor %d, hull %d, pirate %d, sea %d)\n",
           cand, checked, wrong, per_kind[K_PARROT], per_kind[K_CREW], per_kind[K_HULL],
           per_kind[K_PIRATE], per_kind[K_NONE]);
    /* A check that saw too little proves nothing. */
    EXPECT(checked * 2 >= cand, "only %d of %d candidate pixels were unambiguous", checked, cand);
    EXPECT(per_kind[K_PARROT] > 0 && per_kind[K_CREW] > 0 && per_kind[K_HULL] > 0 &&
               per_kind[K_NONE] > 0,
           "some kind of pixel was never checked");
    free(boxes);
}

/* The cull against a plain per-object test: each drawn node's box (its
 * kind's half extents) turned into world space by the double-precision
 * reference world, its eight corners against the six planes. A node whose
 * box lies inside every plane by a clear margin somewhere must have been
 * kept. Returns how many the plain test finds in view. */
static uint32_t check_cull(const sgrt_scene *s, const float planes[6][4],
                           sgrt_nodeset visible)
{
    uint32_t count, in_view = 0, kept = 0;
    sgrt_scene_world_array(s, &count);
    for (uint32_t j = 0; j < count; j++) {
        const sgrt_node n = sgrt_scene_slot_node(s, j);
        uint64_t k = 0;
        if (!n.id || sgrt_node_user(s, n, &k) != SGRT_OK || k == K_NONE || k >= K_COUNT)
            continue;
        kept += sgrt_nodeset_has(s, visible, n);
        double w[16];
        reference_world(s, n, w);
        int outside = 0;
        for (int p = 0; p < 6 && !outside; p++) {
            double best = -INFINITY, scale = fabs(planes[p][3]);
            for (int corner = 0; corner < 8; corner++) {
                double v = planes[p][3];
                for (int a = 0; a < 3; a++) {
                    double x = w[12 + a];
                    for (int b = 0; b < 3; b++)
                        x += w[b * 4 + a] * ((corner >> b) & 1 ? 1 : -1) * kinds[k].half[b];
                    v += planes[p][a] * x;
                    scale += fabs(planes[p][a] * x);
                }
                if (v > best)
                    best = v;
            }
            outside = best < 1e-5 * scale;
        }
        if (!outside) {
            in_view++;
            EXPECT(sgrt_nodeset_has(s, visible, n),
                   "slot %u (%s) is in view by the plain test but was culled", j, kinds[k].name);
        }
    }
    printf("cull check: %u nodes in view by the plain per-object test, %u kept by the cull\n",
           in_view, kept);
    return in_view;
}

/* ---- main ---------------------------------------------------------------------- */

static void usage(FILE *f, const char *argv0)
{
    fprintf(f,
            "usage: %s [--ships N] [--frames N] [--size WxH] [--png FILE] [--top] [--fov DEG]\n"
            "          [--check] [--quiet]\n"
            "  --ships N    ships in the fleet, 1..100000 (default 256)\n"
            "  --frames N   frames to run, 1..100000 (default 60)\n"
            "  --size WxH   image size, each 16..8192 (default 1280x720)\n"
            "  --png FILE   where the last frame goes (default frame.png; \"\" for none)\n"
            "  --fov DEG    vertical field of view, 5..120 (default 45; narrower: part of the\n"
            "               fleet is culled)\n",
            argv0);
}

/* "WxH", each a whole number in 16..8192. */
static bool arg_size(const char *s, int *w, int *h)
{
    const char *x = strchr(s, 'x');
    char width[16];
    if (!x || x == s || (size_t)(x - s) >= sizeof width) {
        fprintf(stderr, "--size %s: expected WxH, e.g. 1280x720\n", s);
        return false;
    }
    memcpy(width, s, (size_t)(x - s));
    width[x - s] = 0;
    return arg_int("--size (width)", width, 16, 8192, w) &&
           arg_int("--size (height)", x + 1, 16, 8192, h);
}

int main(int argc, char **argv)
{
    int nships = 256, frames = 60, w = 1280, h = 720, check = 0, quiet = 0, top = 0, fov_deg = 45;
    const char *png_path = "frame.png";
    enum { OPT_SHIPS = 1, OPT_FRAMES, OPT_SIZE, OPT_PNG, OPT_CHECK, OPT_TOP, OPT_QUIET, OPT_FOV };
    static const struct option longopts[] = {
        {"ships", required_argument, NULL, OPT_SHIPS}, {"frames", required_argument, NULL, OPT_FRAMES},
        {"size", required_argument, NULL, OPT_SIZE},   {"png", required_argument, NULL, OPT_PNG},
        {"check", no_argument, NULL, OPT_CHECK},       {"top", no_argument, NULL, OPT_TOP},
        {"quiet", no_argument, NULL, OPT_QUIET},       {"fov", required_argument, NULL, OPT_FOV},
        {"help", no_argument, NULL, 'h'},              {NULL, 0, NULL, 0},
    };
    int c;
    bool ok = true;
    while (ok && (c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
        switch (c) {
        case OPT_SHIPS:
            ok = arg_int("--ships", optarg, 1, 100000, &nships);
            break;
        case OPT_FRAMES:
            ok = arg_int("--frames", optarg, 1, 100000, &frames);
            break;
        case OPT_SIZE:
            ok = arg_size(optarg, &w, &h);
            break;
        case OPT_PNG:
            png_path = optarg;
            break;
        case OPT_CHECK:
            check = 1;
            break;
        case OPT_TOP:
            top = 1;
            break;
        case OPT_QUIET:
            quiet = 1;
            break;
        case OPT_FOV:
            ok = arg_int("--fov", optarg, 5, 120, &fov_deg);
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
    if (!ok) {
        usage(stderr, argv[0]);
        return 2;
    }

    gpu g;
    memset(&g, 0, sizeof g);
    if (!gpu_init(&g, w, h))
        return 77;
    if (!quiet)
        printf("GL: %s | %s\n", (const char *)glGetString(GL_VERSION),
               (const char *)glGetString(GL_RENDERER));

    fleet f;
    memset(&f, 0, sizeof f);
    const sgrt_scene_desc desc = {.flags = SGRT_SCENE_BOUNDS}; /* boxes, for the cull */
    if (sgrt_scene_create(&desc, &f.s) != SGRT_OK)
        return 1;
    build_fleet(&f, nships);
    sgrt_scene *s = f.s;
    sgrt_tracker tracker;
    sgrt_nodeset visible;
    if (sgrt_tracker_create(s, &tracker) != SGRT_OK || sgrt_nodeset_create(s, &visible) != SGRT_OK)
        return 1;

    /* The camera frames the whole fleet: from above (--top) or at three quarters. */
    const int cols = (int)ceil(sqrt((double)nships)), rows = (nships + cols - 1) / cols;
    const double cx = (cols - 1) * SPACING_X / 2, cz = (rows - 1) * SPACING_Z / 2;
    const double extent = fmax(cols * SPACING_X / ((double)w / h), rows * SPACING_Z) / 2 + 4;
    camera cam;
    const double fov = fov_deg * 3.14159265358979 / 180;
    if (top) {
        const double eye[3] = {cx, 8 + extent / tan(fov / 2), cz}, at[3] = {cx, 0, cz},
                     up[3] = {0, 0, -1};
        camera_look(&cam, eye, at, up, fov, w, h);
    } else {
        /* From beyond the near corner, low over the water: the fleet recedes. */
        const double zmax = (rows - 1) * SPACING_Z, xmax = (cols - 1) * SPACING_X;
        const double eye[3] = {xmax + 18, 20, zmax + 30}, at[3] = {cx * 0.9, 0, cz * 1.1},
                     up[3] = {0, 1, 0};
        camera_look(&cam, eye, at, up, fov, w, h);
    }

    /* The planes of the matrix the GPU draws with. */
    float planes[6][4];
    if (sgrt_frustum_planes(cam.view_proj, SGRT_CLIP_DEPTH_NEG_ONE_TO_ONE, planes) != SGRT_OK)
        return 1;
    uint64_t *holder = NULL;
    uint32_t holder_cap = 0;
    slot_attr *staging = NULL;
    size_t total_up = 0, total_full = 0;
    for (int frame = 0; frame < frames; frame++) {
        const int touched = frame ? game_step(&f, frame) : 0;
        const uint32_t recomputed = sgrt_scene_update(s);
        uint32_t slot_count;
        sgrt_scene_world_array(s, &slot_count);
        staging = realloc(staging, (size_t)(slot_count + 1) * sizeof *staging);
        const upload_stats st = upload_changes(&g, s, tracker, &holder, &holder_cap, staging);
        sgrt_cull_stats cs;
        if (sgrt_scene_cull(s, planes[0], 6, SGRT_NULL_NODESET, visible, &cs) != SGRT_OK)
            return 1;
        const uint32_t draws = gpu_draw_visible(&g, &cam, s, visible);
        const size_t up = st.world_bytes + st.attr_bytes;
        const size_t full = (size_t)slot_count * (64u + sizeof(slot_attr));
        if (frame) { /* frame 0 is the initial full upload */
            total_up += up;
            total_full += full;
        }
        if (!quiet)
            printf("frame %3d: %3d nodes touched, %4u worlds recomputed, %3u ranges, "
                   "uploaded %7zu B of %7zu B (%5.2f%%), %4u visible in %3u draws\n",
                   frame, touched, (unsigned)recomputed, (unsigned)st.ranges, up, full,
                   100.0 * (double)up / (double)full, (unsigned)cs.visible, (unsigned)draws);
        if (check)
            check_buffers(&g, s, frame);
    }
    glFinish();
    const uint32_t nodes = sgrt_scene_node_count(s);
    if (frames > 1)
        printf("%d ships, %u nodes, frames 1..%d: uploaded %zu B of %zu B for full uploads "
               "(%.2f%%, %.1fx less)\n",
               nships, (unsigned)nodes, frames - 1, total_up, total_full,
               100.0 * (double)total_up / (double)total_full,
               (double)total_full / (double)(total_up ? total_up : 1));

    unsigned char *px = read_pixels(&g);
    printf("visible: %u of %u nodes\n", (unsigned)sgrt_nodeset_count(s, visible), (unsigned)nodes);
    if (check) {
        /* Culling only leaves out what lies outside the frustum: the same
         * frame drawn without it must give the same bytes. */
        uint32_t slot_count;
        sgrt_scene_world_array(s, &slot_count);
        gpu_draw(&g, &cam, slot_count);
        unsigned char *unculled = read_pixels(&g);
        size_t differ = 0;
        for (size_t i = 0; i < (size_t)w * h * 4; i++)
            differ += px[i] != unculled[i];
        EXPECT(differ == 0, "the culled picture differs from the unculled one in %zu bytes", differ);
        printf("culled picture: %s the unculled one\n", differ ? "differs from" : "byte-identical to");
        free(unculled);
        check_cull(s, (const float(*)[4])planes, visible);
    }
    if (png_path[0]) {
        if (write_png(png_path, px, w, h))
            printf("wrote %s (%dx%d)\n", png_path, w, h);
        else
            EXPECT(0, "could not write %s", png_path);
    }
    if (check)
        check_image(&f, &cam, px, w, h);
    free(px);
    free(holder);
    free(staging);
    sgrt_scene_destroy(s);
    free(f.ships);
    eglMakeCurrent(g.dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(g.dpy, g.ctx);
    eglTerminate(g.dpy);
    if (check)
        printf("%s: %d failed checks\n", failures ? "FAIL" : "ok", failures);
    return failures ? 1 : 0;
}
