// Element-wise comparison of two tensors with rtol/atol, and its one-line summary.
#include "rt/compare.h"

#include <math.h>
#include <string.h>

// How bad one element is: NaN mismatches rank above every number.
typedef struct {
    bool mismatch, nan;
    double excess, abs_err, rel_err;
} judgement_t;

static judgement_t judge(double a, double e, double rtol, double atol)
{
    judgement_t j = {false, false, 0, 0, 0};
    if (isnan(a) || isnan(e)) {
        j.mismatch = j.nan = !(isnan(a) && isnan(e));
        j.excess = j.mismatch ? INFINITY : -INFINITY;
        j.abs_err = j.rel_err = j.mismatch ? INFINITY : 0;
        return j;
    }
    if (isinf(a) || isinf(e)) {
        j.mismatch = a != e;
        j.excess = j.mismatch ? INFINITY : -INFINITY;
        j.abs_err = j.rel_err = j.mismatch ? INFINITY : 0;
        return j;
    }
    double diff = fabs(a - e), tol = atol + rtol * fabs(e);
    j.mismatch = diff > tol;
    j.excess = diff - tol;
    j.abs_err = diff;
    j.rel_err = e != 0 ? diff / fabs(e) : diff == 0 ? 0 : INFINITY;
    return j;
}

static bool worse(const judgement_t *x, const judgement_t *y)
{
    if (x->nan != y->nan) return x->nan;
    return x->excess > y->excess;
}

tl_status_t tl_compare(const tl_tensor_t *actual, const tl_tensor_t *expected, double rtol,
                       double atol, tl_compare_result_t *r, tl_diag_t *d)
{
    memset(r, 0, sizeof *r);
    r->rtol = rtol, r->atol = atol;
    if (!(rtol >= 0) || !(atol >= 0))
        return tl_diag_fail(d, TL_ERR_ARG, "compare: tolerances must be >= 0 (rtol %g, atol %g)",
                            rtol, atol);
    if (!tl_tensor_same_shape(actual, expected)) {
        if (!d) return TL_ERR_ARG;
        char sa[128], se[128];
        return tl_diag_fail(d, TL_ERR_ARG, "compare: shapes differ: got %s, expected %s",
                            tl_tensor_shape_str(actual, sa, sizeof sa),
                            tl_tensor_shape_str(expected, se, sizeof se));
    }
    r->ndim = actual->ndim;
    r->numel = tl_tensor_numel(actual);
    if (r->numel == 0) return TL_OK;
    int64_t idx[TL_TENSOR_MAX_DIMS] = {0};
    judgement_t worst = {0};
    bool first = true;
    do {
        double a = tl_tensor_get(actual, idx), e = tl_tensor_get(expected, idx);
        judgement_t j = judge(a, e, rtol, atol);
        r->nmismatch += j.mismatch;
        r->max_abs_err = fmax(r->max_abs_err, j.abs_err);
        r->max_rel_err = fmax(r->max_rel_err, j.rel_err);
        if (first || worse(&j, &worst)) {
            first = false;
            worst = j;
            memcpy(r->worst_index, idx, sizeof idx);
            r->worst_actual = a, r->worst_expected = e;
        }
    } while (tl_tensor_next_index(actual, idx));
    if (r->nmismatch == 0) return TL_OK;
    if (!d) return TL_ERR_MISMATCH;
    tl_buf_t b;
    tl_buf_init(&b);
    tl_compare_format(r, &b);
    tl_status_t s =
        tl_diag_report(d, TL_SEV_ERROR, (tl_loc_t){0}, TL_ERR_MISMATCH, "%s", tl_buf_cstr(&b));
    tl_buf_free(&b);
    return s;
}

void tl_compare_format(const tl_compare_result_t *r, tl_buf_t *b)
{
    if (r->nmismatch == 0) {
        tl_buf_printf(b, "all %zu elements match (rtol %g, atol %g)", r->numel, r->rtol, r->atol);
        if (r->numel > 0)
            tl_buf_printf(b, "; max abs err %.3g, max rel err %.3g", r->max_abs_err,
                          r->max_rel_err);
        return;
    }
    tl_buf_printf(b, "%zu of %zu elements differ (rtol %g, atol %g); worst at ", r->nmismatch,
                  r->numel, r->rtol, r->atol);
    tl_tensor_format_dims(b, r->ndim, r->worst_index);
    double a = r->worst_actual, e = r->worst_expected;
    judgement_t j = judge(a, e, r->rtol, r->atol);
    tl_buf_printf(b, ": got %.6g, expected %.6g (abs err %.3g, rel err %.3g)", a, e, j.abs_err,
                  j.rel_err);
    if (r->nmismatch > 1)
        tl_buf_printf(b, "\n  max abs err %.3g, max rel err %.3g", r->max_abs_err, r->max_rel_err);
}
