/* What a result code means: sgrt_result_str. */
#include "internal.h"

static const char *const sgrt__result_names[] = {
    "SGRT_OK", "SGRT_ERR_INVALID_ARG", "SGRT_ERR_STALE_HANDLE", "SGRT_ERR_CYCLE",
    "SGRT_ERR_NOMEM", "SGRT_ERR_CAPACITY", "SGRT_ERR_SINGULAR", "SGRT_ERR_CORRUPT",
    "SGRT_ERR_ALIGNMENT", "SGRT_ERR_WRITE",
};

const char *sgrt_result_str(sgrt_result r)
{
    const int n = (int)(sizeof sgrt__result_names / sizeof sgrt__result_names[0]);
    /* Range-check before negating: -(int)r overflows for INT_MIN. */
    if ((int)r > 0 || (int)r <= -n)
        return "SGRT_ERR_UNKNOWN";
    return sgrt__result_names[-(int)r];
}
