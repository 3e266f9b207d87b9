#include "internal.h"

const sgrt__kernels *sgrt__kernels_default(void)
{
#if defined(SGRT_DEFAULT_SCALAR) && SGRT_DEFAULT_SCALAR
    return &sgrt__kernels_ref;
#else
    return &sgrt__kernels_simde;
#endif
}

const char *sgrt_simd_name(void)
{
    return sgrt__kernels_default()->name;
}
