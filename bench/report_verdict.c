/* SPDX-License-Identifier: MIT */
/* The verdict (report.h): the benchmark's first screen. One row per warm
 * peers cell of the run, sgrt's frame beside the pointer tree most programs
 * start from (naive) and the best hand-written designs (flat, fused), with
 * who is faster and by how much; then sentences built from those ratios
 * alone, so that the screen answers "should I use it" on the CPU it ran
 * on, whatever the figures turn out to be. */
#include "report.h"

#include "bench_config.h"
#include "flat.h"
#include "platform.h"
#include "table.h"

#include <math.h>
#include <string.h>

/* Ratios nearer 1 than this are called even in the sentences: a shared
 * machine's runs drift by about that much. The table still names the
 * faster side. */
#define EVEN 1.05

/* Other programs' CPUs (bench_others_cpus) from which the verdict warns
 * that they ran beside it. */
#define BUSY 0.25

/* Sentences are wrapped to this many columns. */
#define WIDTH 96

enum { VS_NAIVE, VS_FLAT, VS_FUSED, VS };

static const char *const vs_name[VS] = {"naive", "flat", "fused"};

/* What each contender is, for the sentences that name it. */
static const char *const vs_what[VS] = {
    "pointer tree (naive)",
    "hand-written flat array (flat)",
    "ozz-style SoA job (fused)",
};

static double vs_frame(const bench_peer_row *r, int vs)
{
    return vs == VS_NAIVE ? r->naive : vs == VS_FLAT ? r->flat : r->fused;
}

/* ------------------------------------------------------------------------ */
/* Names of the rows                                                        */
/* ------------------------------------------------------------------------ */

/* "64K tree" for tree-64K, "skel 1000x64" for skel-1000x64. */
static void scene_label(char *buf, size_t size, const char *scene)
{
    if (strncmp(scene, "tree-", 5) == 0)
        snprintf(buf, size, "%s tree", scene + 5);
    else if (strncmp(scene, "skel-", 5) == 0)
        snprintf(buf, size, "skel %s", scene + 5);
    else
        snprintf(buf, size, "%s", scene);
}

static const char *frame_label(const char *frame)
{
    return strcmp(frame, "1%") == 0      ? "1 % moved"
           : strcmp(frame, "all") == 0   ? "all moved"
           : strcmp(frame, "trs10") == 0 ? "10 % by TRS"
           : strcmp(frame, "trs100") == 0 ? "all by TRS"
                                          : frame;
}

/* The row in a sentence: "64K 1 % moved", "skeletons all by TRS". */
static void row_tag(char *buf, size_t size, const bench_peer_row *r)
{
    const bool tree = strncmp(r->scene, "tree-", 5) == 0;
    snprintf(buf, size, "%s %s", tree ? r->scene + 5 : "skeletons", frame_label(r->frame));
}

/* A factor as the table and the sentences print it. */
static void factor(char *buf, size_t size, double x)
{
    snprintf(buf, size, x < 10 ? "%.2fx" : "%.1fx", x);
}

/* "sgrt 1.70x" when sgrt's frame is the shorter, "flat 1.10x" when the
 * other's is; "-" where the other did not run. */
static const char *winner_cell(char *buf, size_t size, double sgrt, double other, int vs)
{
    if (isnan(other) || isnan(sgrt)) {
        snprintf(buf, size, "-");
        return buf;
    }
    char f[16];
    factor(f, sizeof f, sgrt <= other ? other / sgrt : sgrt / other);
    snprintf(buf, size, "%s %s", sgrt <= other ? "sgrt" : vs_name[vs], f);
    return buf;
}

/* ------------------------------------------------------------------------ */
/* Sentences                                                                */
/* ------------------------------------------------------------------------ */

/* Rows on one side of a comparison, and the range of their factors. */
typedef struct side {
    char tags[640];
    int n;
    double lo, hi;
} side;

static void side_add(side *s, const bench_peer_row *r, double x)
{
    char tag[48];
    row_tag(tag, sizeof tag, r);
    const size_t len = strlen(s->tags);
    snprintf(s->tags + len, sizeof s->tags - len, "%s%s", s->n ? ", " : "", tag);
    s->lo = s->n && s->lo < x ? s->lo : x;
    s->hi = s->n && s->hi > x ? s->hi : x;
    s->n++;
}

/* "64K 1 % moved, 1M 1 % moved (1.60x to 1.81x)", or "every frame above
 * (...)" when the side holds all `rows` of the comparison; the factors
 * only when the side has a winner. */
static void side_text(char *buf, size_t size, const side *s, int rows, bool won)
{
    char lo[16], hi[16];
    factor(lo, sizeof lo, s->lo);
    factor(hi, sizeof hi, s->hi);
    const char *tags = s->n == rows && rows > 1 ? "every frame above" : s->tags;
    if (!won)
        snprintf(buf, size, "%s", tags);
    else if (strcmp(lo, hi) == 0)
        snprintf(buf, size, "%s (%s)", tags, lo);
    else
        snprintf(buf, size, "%s (%s to %s)", tags, lo, hi);
}

/* Prints text wrapped at WIDTH columns: the first line indented by two
 * spaces, the others by four. */
static void say(FILE *out, const char *text)
{
    int col = 0;
    while (*text) {
        const size_t word = strcspn(text, " ");
        if (col && col + 1 + (int)word > WIDTH) {
            fprintf(out, "\n    ");
            col = 4;
        } else if (col) {
            fputc(' ', out);
            col++;
        } else {
            fprintf(out, "  ");
            col = 2;
        }
        fprintf(out, "%.*s", (int)word, text);
        col += (int)word;
        text += word;
        text += strspn(text, " ");
    }
    fputc('\n', out);
}

/* Against the best hand-written design of each row (the faster of flat and
 * fused there): where sgrt wins, where each design wins, where they are
 * even. */
static void say_best(FILE *out, const bench_results *res)
{
    side win = {0}, even = {0}, lose[VS] = {0};
    int rows = 0;
    for (int i = 0; i < res->peer_count; i++) {
        const bench_peer_row *r = &res->peers[i];
        if (r->evicted)
            continue;
        const int vs = !isnan(r->fused) && !(r->flat < r->fused) ? VS_FUSED : VS_FLAT;
        const double best = vs_frame(r, vs);
        if (isnan(best) || isnan(r->batch))
            continue;
        rows++;
        if (best / r->batch >= EVEN)
            side_add(&win, r, best / r->batch);
        else if (r->batch / best >= EVEN)
            side_add(&lose[vs], r, r->batch / best);
        else
            side_add(&even, r, r->batch / best);
    }
    char text[1024], part[768];
    if (win.n) {
        side_text(part, sizeof part, &win, rows, true);
        snprintf(text, sizeof text,
                 "sgrt is faster than the best hand-written code on %s.", part);
    } else {
        snprintf(text, sizeof text, "sgrt is faster than the best hand-written code on none "
                                    "of these frames.");
    }
    say(out, text);
    for (int vs = VS_FLAT; vs < VS; vs++) {
        if (!lose[vs].n)
            continue;
        side_text(part, sizeof part, &lose[vs], rows, true);
        snprintf(text, sizeof text, "The %s is faster on %s.", vs_what[vs], part);
        say(out, text);
    }
    if (even.n) {
        side_text(part, sizeof part, &even, rows, false);
        snprintf(text, sizeof text, "About even (within %.0f %%) on %s.", (EVEN - 1) * 100, part);
        say(out, text);
    }
}

/* Against the pointer tree. */
static void say_naive(FILE *out, const bench_results *res)
{
    side win = {0}, lose = {0}, even = {0};
    int rows = 0;
    for (int i = 0; i < res->peer_count; i++) {
        const bench_peer_row *r = &res->peers[i];
        if (r->evicted || isnan(r->naive) || isnan(r->batch))
            continue;
        rows++;
        if (r->naive / r->batch >= EVEN)
            side_add(&win, r, r->naive / r->batch);
        else if (r->batch / r->naive >= EVEN)
            side_add(&lose, r, r->batch / r->naive);
        else
            side_add(&even, r, r->batch / r->naive);
    }
    if (!rows)
        return;
    char text[2048], part[768];
    int len = snprintf(text, sizeof text, "Against the %s that most programs start from,",
                       vs_what[VS_NAIVE]);
    if (win.n) {
        side_text(part, sizeof part, &win, rows, true);
        len += snprintf(text + len, sizeof text - (size_t)len, " sgrt is faster on %s", part);
    }
    if (lose.n) {
        side_text(part, sizeof part, &lose, rows, true);
        len += snprintf(text + len, sizeof text - (size_t)len, "%s the pointer tree is faster on %s",
                        win.n ? ";" : "", part);
    }
    if (even.n) {
        side_text(part, sizeof part, &even, rows, false);
        snprintf(text + len, sizeof text - (size_t)len, "%s about even on %s",
                 win.n || lose.n ? ";" : "", part);
    }
    strncat(text, ".", sizeof text - strlen(text) - 1);
    say(out, text);
}

/* Which call sgrt's frames wrote through, each with its rows. */
static void say_paths(FILE *out, const bench_results *res)
{
    char text[1024];
    int len = snprintf(text, sizeof text, "sgrt's write call:");
    bool done[BENCH_MAX_PEER_ROWS] = {false};
    for (int i = 0, paths = 0; i < res->peer_count; i++) {
        const bench_peer_row *r = &res->peers[i];
        if (r->evicted || done[i])
            continue;
        side s = {0};
        for (int j = i; j < res->peer_count; j++)
            if (!res->peers[j].evicted && !done[j] &&
                strcmp(res->peers[j].sgrt_path, r->sgrt_path) == 0) {
                side_add(&s, &res->peers[j], 1);
                done[j] = true;
            }
        len += snprintf(text + len, sizeof text - (size_t)len, "%s %s on %s",
                        paths++ ? ";" : "", r->sgrt_path, s.tags);
        if (len >= (int)sizeof text)
            break;
    }
    strncat(text, " (bench/peers_path.c).", sizeof text - strlen(text) - 1);
    say(out, text);
}

/* ------------------------------------------------------------------------ */
/* The screen                                                               */
/* ------------------------------------------------------------------------ */

void bench_verdict_print(FILE *out, const bench_results *res)
{
    char cpu[160], s[16], b[VS][24];
    bench_cpu_string(cpu, sizeof cpu);
    fprintf(out, "\nsgrt verdict: a frame = writes + update; sgrt against the code you would write "
                 "instead\n");
    fprintf(out, "  CPU : %s, %ld CPUs online\n", cpu, bench_online_cpus());
    /* Other work shares the caches and the memory bus with the contenders,
     * unevenly: say so rather than let it pass as a result. */
    if (res->others_cpus >= BUSY)
        fprintf(out, "        other programs kept %.1f CPUs busy: the ratios are steadier on "
                     "an idle machine\n", res->others_cpus);
    fprintf(out, "  sgrt: kernel %s (sgrt_scene_simd_name), %s build\n",
            res->peer_kernel ? res->peer_kernel : "-", SGRT_BENCH_BUILDTYPE);
    char flat[256];
    snprintf(flat, sizeof flat, "flat: %s; %s", flat_describe(), SGRT_BENCH_PEER_ARGS);
    say(out, flat);

    fprintf(out, "\n%-25s %27s    %s\n", "", "ns per node, warm", "who is faster, by how much");
    fprintf(out, "%-12s %-12s %6s %6s %6s %6s    %-12s %-12s %s\n", "scene", "frame", "sgrt",
            "naive", "flat", "fused", "vs naive", "vs flat", "vs fused");
    int lo = 0, hi = 0;
    for (int i = 0; i < res->peer_count; i++) {
        const bench_peer_row *r = &res->peers[i];
        if (r->evicted)
            continue;
        char scene[32], v[4][16];
        scene_label(scene, sizeof scene, r->scene);
        const double ns[4] = {r->batch, r->naive, r->flat, r->fused};
        for (int k = 0; k < 4; k++)
            bench_cell(v[k], ns[k]);
        for (int vs = 0; vs < VS; vs++)
            winner_cell(b[vs], sizeof b[vs], r->batch, vs_frame(r, vs), vs);
        fprintf(out, "%-12s %-12s %6s %6s %6s %6s    %-12s %-12s %s\n", scene,
                frame_label(r->frame), v[0], v[1], v[2], v[3], b[VS_NAIVE], b[VS_FLAT],
                b[VS_FUSED]);
        lo = lo && lo < r->frames ? lo : r->frames;
        hi = hi > r->frames ? hi : r->frames;
    }
    if (lo == hi)
        snprintf(s, sizeof s, "%d", lo);
    else
        snprintf(s, sizeof s, "%d to %d", lo, hi);
    char legend[1024];
    snprintf(legend, sizeof legend,
             "Median of %s frames per contender, each right after its previous one (warm), "
             "contenders interleaved in one run; every world checked against a double-precision "
             "reference. sgrt: one batch write call + sgrt_scene_update; naive: a heap node per "
             "object, render() recomputing every node; flat: Bitsquid's parallel arrays written "
             "in place, one pass; fused: an ozz-animation-style SoA job (skeletons). all moved: "
             "every node a new matrix; TRS: translation, rotation, scale.",
             s);
    say(out, legend);
    say_paths(out, res);

    fprintf(out, "\nShould I use it? From the ratios above:\n");
    say_best(out, res);
    say_naive(out, res);
    if (res->verify_failures)
        fprintf(out, "VERIFY FAILED in %d cell(s): the contenders disagree (see above)\n",
                res->verify_failures);
}
