// Comparing an actual tensor against an expected one, torch.allclose style:
// an element matches when |a - e| <= atol + rtol * |e| (values as doubles, any
// dtypes, same shape). NaN matches only NaN; an infinity matches only the same
// infinity.
#ifndef TL_RT_COMPARE_H
#define TL_RT_COMPARE_H

#include "rt/tensor.h"

typedef struct {
    double rtol, atol;
    size_t numel, nmismatch;
    // The worst element: the largest |a - e| - (atol + rtol |e|); a NaN
    // mismatch counts as worse than any number. Valid when numel > 0.
    int ndim;
    int64_t worst_index[TL_TENSOR_MAX_DIMS];
    double worst_actual, worst_expected;
    // Over all elements; a mismatch involving NaN or Inf counts as infinite error.
    double max_abs_err, max_rel_err;
} tl_compare_result_t;

// Fills *r. Returns TL_OK when every element matches, TL_ERR_MISMATCH when some
// differ (with the summary line reported to d), TL_ERR_ARG on different shapes
// or bad tolerances.
tl_status_t tl_compare(const tl_tensor_t *actual, const tl_tensor_t *expected, double rtol,
                       double atol, tl_compare_result_t *r, tl_diag_t *d);
// One or two lines, no trailing newline, e.g.
// "3 of 4096 elements differ (rtol 0.01, atol 0.01); worst at [2, 17]: got 1.25,
// expected 1.5 (abs err 0.25, rel err 0.167)".
void tl_compare_format(const tl_compare_result_t *r, tl_buf_t *b);

#endif
