/* SPDX-License-Identifier: MIT */
/* sgrt_scene_dump: the hierarchy as Graphviz DOT or JSON, for debugging,
 * streamed through the user's write function from a buffer on the stack.
 * The library has no stdio, so numbers are formatted here: integers in
 * decimal, floats exactly as printf's "%.9g" (correctly rounded from the
 * float's exact decimal expansion, which a few words of base-10^9 digits
 * hold), enough digits to read back to the same bits. */
#include "../internal.h"
#include "../args.h"
#include "dump.h"
#include "../handles.h"
#include "../followers/prev.h"
#include "../matrix.h"
#include "../result.h"
#include <string.h>

/* ---- numbers ---------------------------------------------------------------- */

static uint32_t format_u64(uint64_t v, char *out)
{
    char tmp[20];
    uint32_t n = 0;
    do {
        tmp[n++] = (char)('0' + (int)(v % 10u));
        v /= 10u;
    } while (v);
    for (uint32_t i = 0; i < n; i++)
        out[i] = tmp[n - 1u - i];
    return n;
}

/* Multiply the base-10^9 number limb[0 .. *n) (least significant first) by
 * `f` < 2^31, in place. Enough limbs are given for every float. */
static void mul_small(uint32_t *limb, uint32_t *n, uint32_t f)
{
    uint64_t carry = 0;
    for (uint32_t i = 0; i < *n; i++) {
        const uint64_t v = (uint64_t)limb[i] * f + carry;
        limb[i] = (uint32_t)(v % 1000000000u);
        carry = v / 1000000000u;
    }
    while (carry) {
        limb[(*n)++] = (uint32_t)(carry % 1000000000u);
        carry /= 1000000000u;
    }
}

uint32_t sgrt__format_float(float f, char out[16])
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    const uint32_t biased = (u >> 23) & 0xFFu, frac = u & 0x7FFFFFu;
    /* No strlen: the library calls no C string function (tests/ports). */
    static const struct {
        char text[5];
        uint32_t len;
    } specials[] = {{"nan", 3}, {"-inf", 4}, {"inf", 3}, {"-0", 2}, {"0", 1}};
    int special = -1;
    if (biased == 0xFFu)
        special = frac ? 0 : (u >> 31) ? 1 : 2;
    else if (!biased && !frac)
        special = (u >> 31) ? 3 : 4;
    if (special >= 0) {
        memcpy(out, specials[special].text, specials[special].len + 1u);
        return specials[special].len;
    }
    uint32_t len = 0;
    if (u >> 31)
        out[len++] = '-';

    /* |f| = mant x 2^e2 = N x 10^-k exactly, N in base 10^9: at most
     * 2^24 x 5^149 (denormals), 112 digits, or 2^128, 39 digits. */
    const uint32_t mant = biased ? frac | 0x800000u : frac;
    const int e2 = biased ? (int)biased - 150 : -149;
    uint32_t limb[14] = {mant}, n = 1;
    int k = 0;
    for (int e = e2; e > 0; e -= 29)
        mul_small(limb, &n, 1u << (uint32_t)(e < 29 ? e : 29));
    for (int e = -e2; e > 0; e -= 13) {
        uint32_t p = 1;
        for (int i = 0; i < (e < 13 ? e : 13); i++)
            p *= 5u;
        mul_small(limb, &n, p);
        k += e < 13 ? e : 13;
    }
    char digits[14 * 9];
    uint32_t nd = 0;
    for (uint32_t i = n; i-- > 0;) {
        char nine[9];
        uint32_t v = limb[i];
        for (int j = 8; j >= 0; j--) {
            nine[j] = (char)('0' + (int)(v % 10u));
            v /= 10u;
        }
        uint32_t from = 0;
        if (i == n - 1u)
            while (from < 8u && nine[from] == '0')
                from++;
        memcpy(digits + nd, nine + from, 9u - from);
        nd += 9u - from;
    }
    int x = (int)nd - 1 - k; /* |f| = d.ddd x 10^x */

    /* Nine significant digits, the tenth and beyond rounding to nearest,
     * ties to even (printf's rounding in the default mode). */
    char d[9];
    for (uint32_t i = 0; i < 9u; i++)
        d[i] = i < nd ? digits[i] : '0';
    if (nd > 9u) {
        bool rest = false;
        for (uint32_t i = 10; i < nd && !rest; i++)
            rest = digits[i] != '0';
        const char r = digits[9];
        if (r > '5' || (r == '5' && (rest || ((d[8] - '0') & 1)))) {
            int i = 8;
            while (i >= 0 && d[i] == '9')
                d[i--] = '0';
            if (i < 0) {
                d[0] = '1';
                x++;
            } else {
                d[i]++;
            }
        }
    }
    uint32_t sig = 9;
    while (sig > 1u && d[sig - 1u] == '0')
        sig--;

    if (x < -4 || x >= 9) {
        out[len++] = d[0];
        if (sig > 1u) {
            out[len++] = '.';
            memcpy(out + len, d + 1, sig - 1u);
            len += sig - 1u;
        }
        out[len++] = 'e';
        out[len++] = x < 0 ? '-' : '+';
        const uint32_t ax = (uint32_t)(x < 0 ? -x : x);
        out[len++] = (char)('0' + (int)(ax / 10u));
        out[len++] = (char)('0' + (int)(ax % 10u));
    } else if (x >= 0) {
        const uint32_t whole = (uint32_t)x + 1u;
        memcpy(out + len, d, whole);
        len += whole;
        if (sig > whole) {
            out[len++] = '.';
            memcpy(out + len, d + whole, sig - whole);
            len += sig - whole;
        }
    } else {
        out[len++] = '0';
        out[len++] = '.';
        for (int i = -1; i > x; i--)
            out[len++] = '0';
        memcpy(out + len, d, sig);
        len += sig;
    }
    out[len] = '\0';
    return len;
}

/* ---- output ------------------------------------------------------------------ */

#define DUMP_BUFFER 1024u

typedef struct dump_out {
    sgrt_dump_write_fn write;
    void *user;
    bool failed; /* write said stop: it is not called again */
    bool json;
    uint32_t n;
    char buf[DUMP_BUFFER];
} dump_out;

static void flush(dump_out *o)
{
    if (o->n && !o->failed && o->write(o->user, o->buf, o->n) != 0)
        o->failed = true;
    o->n = 0;
}

static void put(dump_out *o, const char *p, size_t len)
{
    while (len && !o->failed) {
        size_t room = DUMP_BUFFER - o->n;
        if (!room) {
            flush(o);
            continue;
        }
        if (room > len)
            room = len;
        memcpy(o->buf + o->n, p, room);
        o->n += (uint32_t)room;
        p += room;
        len -= room;
    }
}

/* A string literal (its length known at compile time). */
#define PUT(o, lit) put((o), (lit), sizeof(lit) - 1u)

static void put_u64(dump_out *o, uint64_t v)
{
    char tmp[20];
    put(o, tmp, format_u64(v, tmp));
}

/* A float: JSON has no non-finite numbers (null); DOT labels take any text. */
static void put_float(dump_out *o, float f)
{
    char tmp[16];
    const uint32_t len = sgrt__format_float(f, tmp);
    if (o->json && !sgrt__all_finite(&f, 1))
        PUT(o, "null");
    else
        put(o, tmp, len);
}

/* The translation column of a matrix: "[x,y,z]" in JSON, "x y z" in DOT. */
static void put_translation(dump_out *o, const float *m)
{
    if (o->json)
        PUT(o, "[");
    for (int i = 0; i < 3; i++) {
        if (i)
            put(o, o->json ? "," : " ", 1);
        put_float(o, m[12 + i]);
    }
    if (o->json)
        PUT(o, "]");
}

/* ---- the dump ---------------------------------------------------------------- */

static void put_node(dump_out *o, const sgrt_scene *s, uint32_t slot, bool dirty, bool first)
{
    const sgrt__prev *prev = sgrt__prev_of(s);
    const uint32_t p = s->st.parent[slot];
    const uint32_t id = sgrt__handle_of_slot(s, slot).id;
    const uint32_t parent_id = p == SGRT__NONE ? 0u : sgrt__handle_of_slot(s, p).id;
    if (o->json) {
        if (first)
            PUT(o, "\n{\"id\":");
        else
            PUT(o, ",\n{\"id\":");
        put_u64(o, id);
        PUT(o, ",\"slot\":");
        put_u64(o, slot);
        PUT(o, ",\"parent\":");
        put_u64(o, parent_id);
        if (dirty)
            PUT(o, ",\"dirty\":true,\"user\":");
        else
            PUT(o, ",\"dirty\":false,\"user\":");
        put_u64(o, s->st.user[slot]);
        PUT(o, ",\"local_t\":");
        put_translation(o, s->st.local[slot]);
        PUT(o, ",\"world_t\":");
        put_translation(o, s->st.world[slot]);
        if (prev) {
            PUT(o, ",\"prev_t\":");
            put_translation(o, prev->world[slot]);
        }
        PUT(o, "}");
        return;
    }
    PUT(o, "  n");
    put_u64(o, id);
    PUT(o, " [label=\"node ");
    put_u64(o, id);
    PUT(o, ", slot ");
    put_u64(o, slot);
    if (dirty)
        PUT(o, ", dirty\\nuser ");
    else
        PUT(o, "\\nuser ");
    put_u64(o, s->st.user[slot]);
    PUT(o, "\\nlocal t ");
    put_translation(o, s->st.local[slot]);
    PUT(o, "\\nworld t ");
    put_translation(o, s->st.world[slot]);
    if (prev) {
        PUT(o, "\\nprev t ");
        put_translation(o, prev->world[slot]);
    }
    if (dirty)
        PUT(o, "\", color=red];\n");
    else
        PUT(o, "\"];\n");
    if (p != SGRT__NONE) {
        PUT(o, "  n");
        put_u64(o, parent_id);
        PUT(o, " -> n");
        put_u64(o, id);
        PUT(o, ";\n");
    }
}

/* Each root's subtree in pre-order. A node is dirty when it or an ancestor
 * has its dirty bit (the closure pass may not have marked it yet): the
 * walk keeps the depth of the topmost dirty node on its path. */
static void put_tree(dump_out *o, const sgrt_scene *s, uint32_t root, bool *first)
{
    const uint32_t none = UINT32_MAX;
    uint32_t x = root, depth = 0, dirty_depth = none;
    for (;;) {
        if (dirty_depth == none && sgrt__bit_get(s->st.dirty, x))
            dirty_depth = depth;
        put_node(o, s, x, dirty_depth != none, *first);
        *first = false;
        if (o->failed)
            return;
        if (s->st.first_child[x] != SGRT__NONE) {
            x = s->st.first_child[x];
            depth++;
            continue;
        }
        while (x != root && s->st.next_sibling[x] == SGRT__NONE) {
            x = s->st.parent[x];
            depth--;
        }
        if (x == root)
            return;
        x = s->st.next_sibling[x];
        if (dirty_depth != none && dirty_depth >= depth)
            dirty_depth = none;
    }
}

sgrt_result sgrt_scene_dump(const sgrt_scene *s, sgrt_dump_write_fn write_fn, void *user,
                            sgrt_dump_format format)
{
    SGRT__ENTER_WRITE(s);
    SGRT__NOT_NULL(s, write_fn, SGRT_NULL_NODE);
    if (format != SGRT_DUMP_DOT && format != SGRT_DUMP_JSON)
        return sgrt__fail(s, SGRT_ERR_INVALID_ARG, __func__,
                          "format is neither SGRT_DUMP_DOT nor SGRT_DUMP_JSON", SGRT_NULL_NODE);
    dump_out o;
    o.write = write_fn;
    o.user = user;
    o.failed = false;
    o.json = format == SGRT_DUMP_JSON;
    o.n = 0;
    if (o.json) {
        PUT(&o, "{\"format\":\"sgrt-dump\",\"version\":1,\"node_count\":");
        put_u64(&o, s->node_count);
        PUT(&o, ",\"slot_count\":");
        put_u64(&o, s->slot_end);
        if (sgrt__prev_of(s))
            PUT(&o, ",\"prev_world\":true,\"nodes\":[");
        else
            PUT(&o, ",\"prev_world\":false,\"nodes\":[");
    } else {
        PUT(&o, "digraph sgrt {\n  node [shape=box, fontname=\"monospace\"];\n");
    }
    bool first = true;
    const uint32_t words = (s->slot_end + 31u) / 32u;
    for (uint32_t w = 0; w < words && !o.failed; w++) {
        uint32_t roots = s->st.alive[w];
        SGRT__FOR_EACH_IN_WORD(w, roots, r,
            if (s->st.parent[r] == SGRT__NONE && !o.failed)
                put_tree(&o, s, r, &first);
        )
    }
    if (o.json)
        PUT(&o, "\n]}\n");
    else
        PUT(&o, "}\n");
    flush(&o);
    if (o.failed)
        return sgrt__fail(s, SGRT_ERR_WRITE, __func__,
                          "write_fn returned non-zero: the dump stopped there", SGRT_NULL_NODE);
    return SGRT_OK;
}
