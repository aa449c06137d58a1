// Tensor comparison: the allclose rule, special values, the worst element and the summary.
#include "../test.h"

#include <math.h>
#include <stdlib.h>

#include "rt/compare.h"

static tl_tensor_t *vec(tl_dtype_t dt, int n, const double *v)
{
    int64_t shape[] = {n};
    tl_tensor_t *x = NULL;
    if (tl_tensor_create(&x, dt, 1, shape, NULL) != TL_OK) return NULL;
    for (int i = 0; i < n; i++) tl_tensor_set_flat(x, (size_t)i, v[i]);
    return x;
}

static size_t mismatches(const double *a, const double *e, int n, double rtol, double atol)
{
    tl_tensor_t *x = vec(TL_F64, n, a), *y = vec(TL_F64, n, e);
    tl_compare_result_t r;
    tl_compare(x, y, rtol, atol, &r, NULL);
    tl_tensor_destroy(x);
    tl_tensor_destroy(y);
    return r.nmismatch;
}

TEST(compare_allclose_rule)
{
    // |a - e| <= atol + rtol |e|, boundaries included.
    double e[] = {1, 1, 100, 100, 0, 0};
    double a[] = {1.5, 1.50001, 110, 110.1, 0.5, -0.50001};
    CHECK_EQ(mismatches(a, e, 1, 0, 0.5), 0);
    CHECK_EQ(mismatches(a + 1, e + 1, 1, 0, 0.5), 1);
    CHECK_EQ(mismatches(a + 2, e + 2, 1, 0.1, 0), 0);
    CHECK_EQ(mismatches(a + 3, e + 3, 1, 0.1, 0), 1);
    CHECK_EQ(mismatches(a + 4, e + 4, 2, 0.5, 0.5), 1);
    // Relative tolerance scales with the expected value, not the actual one.
    double e2[] = {10}, a2[] = {20};
    CHECK_EQ(mismatches(a2, e2, 1, 0.9, 0), 1);
    CHECK_EQ(mismatches(e2, a2, 1, 0.9, 0), 0);
}

TEST(compare_special_values)
{
    double nan = NAN, inf = INFINITY;
    double e[] = {nan, inf, -inf, 1, nan, inf, inf, 1};
    double a[] = {nan, inf, -inf, nan, 1, -inf, 1e308, inf};
    CHECK_EQ(mismatches(a, e, 3, 0, 0), 0);
    for (int i = 3; i < 8; i++) CHECK_EQ(mismatches(a + i, e + i, 1, 1, 1e300), 1);
    // A NaN mismatch is the worst element even next to a huge finite error.
    double e3[] = {0, 1, 2}, a3[] = {1e300, nan, 2};
    tl_tensor_t *x = vec(TL_F64, 3, a3), *y = vec(TL_F64, 3, e3);
    tl_compare_result_t r;
    CHECK(tl_compare(x, y, 0, 0, &r, NULL) == TL_ERR_MISMATCH);
    CHECK_EQ(r.nmismatch, 2);
    CHECK_EQ(r.worst_index[0], 1);
    CHECK(isnan(r.worst_actual) && r.worst_expected == 1);
    CHECK(r.max_abs_err == INFINITY);
    tl_tensor_destroy(x);
    tl_tensor_destroy(y);
}

TEST(compare_reports_worst_and_formats)
{
    int64_t shape[] = {4, 32};
    tl_tensor_t *a, *e;
    REQUIRE(tl_tensor_create(&a, TL_BF16, 2, shape, NULL) == TL_OK);
    REQUIRE(tl_tensor_create(&e, TL_F32, 2, shape, NULL) == TL_OK);
    for (size_t i = 0; i < 128; i++) {
        tl_tensor_set_flat(a, i, 1.0);
        tl_tensor_set_flat(e, i, 1.0);
    }
    int64_t i1[] = {2, 17}, i2[] = {0, 3}, i3[] = {3, 31};
    tl_tensor_set(a, i1, 1.25);
    tl_tensor_set(e, i1, 1.5); // excess 0.25 - 0.025
    tl_tensor_set(a, i2, 1.125);
    tl_tensor_set(a, i3, 1.0078125); // within tolerance
    tl_diag_t d;
    tl_diag_init(&d);
    tl_compare_result_t r;
    CHECK(tl_compare(a, e, 0.01, 0.01, &r, &d) == TL_ERR_MISMATCH);
    CHECK_EQ(r.numel, 128);
    CHECK_EQ(r.nmismatch, 2);
    CHECK_EQ(r.ndim, 2);
    CHECK_EQ(r.worst_index[0], 2);
    CHECK_EQ(r.worst_index[1], 17);
    CHECK(r.max_abs_err == 0.25);
    CHECK(r.max_rel_err == 0.25 / 1.5);
    tl_buf_t b;
    tl_buf_init(&b);
    tl_compare_format(&r, &b);
    CHECK_STREQ(tl_buf_cstr(&b),
                "2 of 128 elements differ (rtol 0.01, atol 0.01); worst at [2, 17]: "
                "got 1.25, expected 1.5 (abs err 0.25, rel err 0.167)\n"
                "  max abs err 0.25, max rel err 0.167");
    CHECK_CONTAINS(tl_diag_text(&d), "error: 2 of 128 elements differ");
    // The same tensors compared loosely all match.
    tl_buf_clear(&b);
    CHECK(tl_compare(a, e, 0.2, 0, &r, &d) == TL_OK);
    tl_compare_format(&r, &b);
    CHECK_STREQ(tl_buf_cstr(&b),
                "all 128 elements match (rtol 0.2, atol 0); max abs err 0.25, max rel err 0.167");
    CHECK_EQ(d.nerrors, 1);
    tl_buf_free(&b);
    tl_diag_free(&d);
    tl_tensor_destroy(a);
    tl_tensor_destroy(e);
}

TEST(compare_strided_scalar_and_empty)
{
    // A transposed view compares element by logical index.
    int32_t mem[6] = {0, 1, 2, 3, 4, 5};
    double tr[6] = {0, 3, 1, 4, 2, 5};
    int64_t s32[] = {3, 2}, st[] = {1, 3};
    tl_tensor_t *view, *dense;
    REQUIRE(tl_tensor_wrap(&view, TL_I32, 2, s32, st, mem, NULL) == TL_OK);
    REQUIRE(tl_tensor_wrap(&dense, TL_F64, 2, s32, NULL, tr, NULL) == TL_OK);
    tl_compare_result_t r;
    CHECK(tl_compare(view, dense, 0, 0, &r, NULL) == TL_OK);
    tr[5] = 6;
    CHECK(tl_compare(view, dense, 0, 0, &r, NULL) == TL_ERR_MISMATCH);
    CHECK_EQ(r.worst_index[0], 2);
    CHECK_EQ(r.worst_index[1], 1);
    tl_tensor_destroy(view);
    tl_tensor_destroy(dense);
    // Scalars print their index as [].
    double one = 1, two = 2;
    tl_tensor_t *sa, *se;
    REQUIRE(tl_tensor_wrap(&sa, TL_F64, 0, NULL, NULL, &one, NULL) == TL_OK);
    REQUIRE(tl_tensor_wrap(&se, TL_F64, 0, NULL, NULL, &two, NULL) == TL_OK);
    CHECK(tl_compare(sa, se, 0, 0, &r, NULL) == TL_ERR_MISMATCH);
    tl_buf_t b;
    tl_buf_init(&b);
    tl_compare_format(&r, &b);
    CHECK_STREQ(tl_buf_cstr(&b), "1 of 1 elements differ (rtol 0, atol 0); worst at []: got 1, "
                                 "expected 2 (abs err 1, rel err 0.5)");
    tl_buf_free(&b);
    tl_tensor_destroy(sa);
    tl_tensor_destroy(se);
    int64_t z[] = {0, 4};
    REQUIRE(tl_tensor_create(&sa, TL_F32, 2, z, NULL) == TL_OK);
    REQUIRE(tl_tensor_create(&se, TL_F32, 2, z, NULL) == TL_OK);
    CHECK(tl_compare(sa, se, 0, 0, &r, NULL) == TL_OK);
    CHECK_EQ(r.numel, 0);
    tl_tensor_destroy(sa);
    tl_tensor_destroy(se);
}

TEST(compare_rejects_shape_mismatch_and_bad_tolerance)
{
    int64_t s1[] = {2, 3}, s2[] = {3, 2};
    tl_tensor_t *a, *e;
    REQUIRE(tl_tensor_create(&a, TL_F32, 2, s1, NULL) == TL_OK);
    REQUIRE(tl_tensor_create(&e, TL_F32, 2, s2, NULL) == TL_OK);
    tl_diag_t d;
    tl_diag_init(&d);
    tl_compare_result_t r;
    CHECK(tl_compare(a, e, 0, 0, &r, &d) == TL_ERR_ARG);
    CHECK_CONTAINS(tl_diag_text(&d), "shapes differ: got [2, 3], expected [3, 2]");
    CHECK(tl_compare(a, a, -1, 0, &r, &d) == TL_ERR_ARG);
    CHECK(tl_compare(a, a, 0, NAN, &r, &d) == TL_ERR_ARG);
    CHECK_CONTAINS(tl_diag_text(&d), "tolerances must be >= 0");
    CHECK_EQ(d.nerrors, 3);
    tl_diag_free(&d);
    tl_tensor_destroy(a);
    tl_tensor_destroy(e);
}
