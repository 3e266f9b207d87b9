/* SPDX-License-Identifier: MIT */
/* The write path of batches and writers (write.h). */
#include "write.h"
#include "args.h"
#include "result.h"
#include "validate.h"

/* The values of entries [base, base + n): how many before the first whose
 * matrix is not finite (n when none). */
static uint32_t check_values(const sgrt_scene *s, const sgrt__source *src, uint32_t base,
                             uint32_t n, sgrt__chunk *c)
{
    c->base = base;
    if (src->m) {
        c->m = src->m + 16u * (size_t)base;
        return s->k.check16(c->m, n);
    }
    c->m = NULL;
    const float *t = src->t + 3u * (size_t)base, *q = src->q + 4u * (size_t)base;
    const float *scale = src->scale + 3u * (size_t)base;
    if (s->k.trs_fits(t, q, scale, n))
        return n;
    /* Past the bounds that make a matrix surely finite (a huge scale, a
     * quaternion far from unit length, a NaN): converted and checked. The
     * store converts again, to the same bits (a rare path). */
    float buf[SGRT__WRITE_CHUNK * 16];
    s->k.trs(t, q, scale, buf, n);
    return s->k.check16(buf, n);
}

uint32_t sgrt__write_check(const sgrt_scene *s, const sgrt__source *src, const sgrt_node *nodes,
                           uint32_t base, uint32_t live, sgrt__chunk *c, bool *quat,
                           bool *warned)
{
    uint32_t q = live, wxyz = live;
    if (src->q && SGRT__VALIDATING(s))
        q = sgrt__validate_quats(src->q + 4u * (size_t)base, live, &wxyz);
    const uint32_t v = check_values(s, src, base, q, c);
    /* The single call warns before it checks the values: an entry refused
     * for them is warned about too, one past it is not reached. */
    if (wxyz <= v && wxyz < live && !*warned) {
        sgrt__validate_quat_warn(s, src->function, nodes[base + wxyz]);
        *warned = true;
    }
    *quat = v == q && q < live;
    return v;
}

sgrt_result sgrt__write_refuse(const sgrt_scene *s, const sgrt__source *src, sgrt_node node,
                               uint32_t *out_bad, uint32_t i, sgrt_result r, bool quat)
{
    if (out_bad)
        *out_bad = i;
    const char *why =
        r == SGRT_ERR_STALE_HANDLE
            ? SGRT__STALE("nodes[*out_bad]") " (the entries before it were written)"
        : quat ? "q[*out_bad] is not of unit length: |q|^2 is off 1 by more than "
                 "SGRT_QUAT_NORM_TOLERANCE (the entries before it were written)"
        : src->m ? "local[*out_bad] holds a NaN or an infinity (the entries before it were "
                   "written)"
                 : "t, q or scale [*out_bad] holds a NaN or an infinity, or their matrix "
                   "overflows (the entries before it were written)";
    return sgrt__fail(s, r, src->function, why, node);
}
