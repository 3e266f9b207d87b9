/* SPDX-License-Identifier: MIT */
/* sgrt_trs_to_matrices's kernel, for tests (trs_matrices.c). */
#ifndef SGRT_TRS_MATRICES_H
#define SGRT_TRS_MATRICES_H

#include "internal.h"

/* A kernel table's trs entry (kernels.h). */
typedef void (*sgrt__trs_fn)(const float *t, const float *q, const float *scale, float *out,
                             uint32_t n);
/* What sgrt_trs_to_matrices runs: the trs entry of the table a default scene
 * gets, chosen on the first call and kept for the process (the file says
 * why). */
sgrt__trs_fn sgrt__trs_matrices_kernel(void);
/* sgrt_trs_to_matrices past its argument checks, on the kernel entry `trs`
 * (tests run it at every level): count > 0, no pointer NULL. */
void sgrt__trs_to_matrices_run(sgrt__trs_fn trs, uint32_t count, const float *t, const float *q,
                               const float *scale, float *out);

#endif
