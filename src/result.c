/* What a result code means (sgrt_result_str), and reporting a refusal
 * through the scene's log. */
#include "internal.h"

#if defined(__GNUC__) || defined(__clang__)
__attribute__((cold, noinline))
#endif
sgrt_result sgrt__fail(const sgrt_scene *s, sgrt_result code, const char *function,
                       const char *message, sgrt_node node)
{
    if (s && s->log) {
        const sgrt_log_entry e = {code, function, message, node};
        s->log(s->log_user, &e);
    }
    return code;
}

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
