/* Plain C reference kernels: always compiled, the definition of the results
 * every other kernel must reproduce bit for bit. */
#include "kernels.h"
#include <float.h>
#include <string.h>

#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD != 0
#error "sgrt needs FLT_EVAL_METHOD == 0 (float arithmetic rounded to float): see docs/porting.md"
#endif

static void mul_ref(const float *a, const float *b, float *out)
{
    for (int c = 0; c < 4; c++) {
        const float b0 = b[c * 4 + 0], b1 = b[c * 4 + 1], b2 = b[c * 4 + 2], b3 = b[c * 4 + 3];
        for (int r = 0; r < 4; r++) {
            const float lo = a[0 * 4 + r] * b0 + a[1 * 4 + r] * b1;
            const float hi = a[2 * 4 + r] * b2 + a[3 * 4 + r] * b3;
            out[c * 4 + r] = lo + hi;
        }
    }
}

static uint32_t update_ref(const sgrt__update_view *v)
{
    uint32_t count = 0;
    SGRT__FOR_EACH_DIRTY(v, i,
        count++;
        const uint32_t p = v->parent[i];
        if (p == SGRT__NO_PARENT)
            memcpy(v->world[i], v->local[i], sizeof v->world[i]);
        else
            mul_ref(v->world[p], v->local[i], v->world[i]);
    )
    return count;
}

void sgrt__kernels_init_ref(sgrt__kernels *k)
{
    k->name = "scalar";
    k->level = SGRT__LEVEL_SCALAR;
    k->mul = mul_ref;
    k->update = update_ref;
}
