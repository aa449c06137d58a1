// Deterministic generator: reference outputs, checked-in hashes of fills, and
// distribution sanity (ranges, moments, distinctness).
#include "../test.h"

#include <math.h>
#include <stdlib.h>

#include "base/hash.h"
#include "rt/rng.h"

static tl_tensor_t *make(tl_dtype_t dt, int ndim, int64_t d0, int64_t d1)
{
    int64_t shape[] = {d0, d1};
    tl_tensor_t *x = NULL;
    tl_tensor_create(&x, dt, ndim, shape, NULL);
    return x;
}

static uint64_t hash_of(const tl_tensor_t *x)
{
    return tl_hash_bytes(x->data, tl_tensor_nbytes(x), 0);
}

TEST(rng_reference_outputs)
{
    // splitmix64 from state 0: the published first output.
    uint64_t st = 0;
    CHECK(tl_rng_splitmix64(&st) == 0xe220a8397b1dcdafull);
    tl_rng_t r;
    tl_rng_seed(&r, 0);
    static const uint64_t first[] = {0x99ec5f36cb75f2b4ull, 0xbf6e1f784956452aull,
                                     0x1a5f849d4933e6e0ull, 0x6aa594f1262d2d2cull};
    for (int i = 0; i < 4; i++) CHECK(tl_rng_next(&r) == first[i]);
    tl_rng_seed(&r, 0);
    double n0 = tl_rng_normal(&r);
    double n1 = tl_rng_normal(&r); // the spare of the same pair
    CHECK(n0 == 0x1.323a82a4bc9e5p-1);
    CHECK(n1 == 0x1.76a54f2c0effap+0);
    CHECK(tl_rng_uniform(&r) == 0x1.a5f849d4933ep-4);
}

// Hashes computed once and checked in: they must hold for every compiler and -O level
// (the sanitizer build runs these at -O1).
TEST(rng_fills_match_checked_in_hashes)
{
    tl_rng_t r;
    struct {
        tl_tensor_t *x;
        uint64_t hash;
    } c[6];
    tl_rng_seed(&r, 42);
    c[0].x = make(TL_F32, 1, 1000, 0), c[0].hash = 0xc3ffd022ccbb15b9ull;
    REQUIRE(c[0].x && tl_rng_fill_uniform(&r, c[0].x, -1, 1, NULL) == TL_OK);
    tl_rng_seed(&r, 7);
    c[1].x = make(TL_BF16, 2, 4, 256), c[1].hash = 0x3098dfccd8905c0eull;
    REQUIRE(c[1].x && tl_rng_fill_normal(&r, c[1].x, 0, 1, NULL) == TL_OK);
    tl_rng_seed(&r, 123);
    c[2].x = make(TL_F64, 1, 512, 0), c[2].hash = 0xea7575ed0f663330ull;
    REQUIRE(c[2].x && tl_rng_fill_normal(&r, c[2].x, 2, 0.5, NULL) == TL_OK);
    tl_rng_seed(&r, 9);
    c[3].x = make(TL_I32, 1, 1000, 0), c[3].hash = 0xfbaa63d38411f57bull;
    REQUIRE(c[3].x && tl_rng_fill_int(&r, c[3].x, -5, 5, NULL) == TL_OK);
    tl_rng_seed(&r, 11);
    c[4].x = make(TL_I32, 2, 8, 16), c[4].hash = 0xe8f3896b9d107b83ull;
    REQUIRE(c[4].x && tl_rng_fill_distinct(&r, c[4].x, 100, NULL) == TL_OK);
    tl_rng_seed(&r, 3);
    c[5].x = make(TL_F16, 1, 300, 0), c[5].hash = 0xd00b723d3566acffull;
    REQUIRE(c[5].x && tl_rng_fill_uniform(&r, c[5].x, 0, 4, NULL) == TL_OK);
    for (int i = 0; i < 6; i++) {
        if (hash_of(c[i].x) != c[i].hash)
            tl_test_fail(t, __FILE__, __LINE__, "fill %d: hash 0x%016llx, expected 0x%016llx", i,
                         (unsigned long long)hash_of(c[i].x), (unsigned long long)c[i].hash);
        tl_tensor_destroy(c[i].x);
    }
}

TEST(rng_same_seed_same_values)
{
    tl_rng_t r1, r2;
    tl_rng_seed(&r1, 5);
    tl_rng_seed(&r2, 5);
    tl_tensor_t *a = make(TL_F32, 1, 257, 0), *b = make(TL_F32, 1, 257, 0);
    REQUIRE(a && b);
    tl_rng_fill_normal(&r1, a, 0, 1, NULL);
    tl_rng_fill_normal(&r2, b, 0, 1, NULL);
    CHECK(memcmp(a->data, b->data, tl_tensor_nbytes(a)) == 0);
    tl_rng_seed(&r2, 6);
    tl_rng_fill_normal(&r2, b, 0, 1, NULL);
    CHECK(memcmp(a->data, b->data, tl_tensor_nbytes(a)) != 0);
    tl_tensor_destroy(a);
    tl_tensor_destroy(b);
}

TEST(rng_log_matches_libm)
{
    tl_rng_t r;
    tl_rng_seed(&r, 1);
    double worst = 0;
    for (int i = 0; i < 200000; i++) {
        double x = ldexp(0.5 + tl_rng_uniform(&r), (int)tl_rng_below(&r, 2100) - 1070);
        double a = tl_rng_log(x), e = log(x);
        double ulp = fabs(e) > 0 ? nextafter(fabs(e), INFINITY) - fabs(e) : 0x1p-1074;
        if (fabs(a - e) / ulp > worst) worst = fabs(a - e) / ulp;
    }
    CHECK(worst <= 1);
    CHECK(tl_rng_log(1) == 0);
    CHECK(tl_rng_log(0) == -INFINITY);
    CHECK(isnan(tl_rng_log(-1)));
    CHECK(tl_rng_log(INFINITY) == INFINITY);
    CHECK_NEAR(tl_rng_log(0x1p-1074), -744.44007192138122, 1e-12);
}

static void moments(const tl_tensor_t *x, double *mean, double *var, double *lo, double *hi)
{
    size_t n = tl_tensor_numel(x);
    double s = 0, s2 = 0;
    *lo = INFINITY, *hi = -INFINITY;
    for (size_t i = 0; i < n; i++) {
        double v = tl_tensor_get_flat(x, i);
        s += v, s2 += v * v;
        *lo = fmin(*lo, v), *hi = fmax(*hi, v);
    }
    *mean = s / (double)n;
    *var = s2 / (double)n - *mean * *mean;
}

TEST(rng_uniform_and_normal_moments)
{
    tl_rng_t r;
    tl_rng_seed(&r, 2024);
    tl_tensor_t *x = make(TL_F64, 1, 100000, 0);
    REQUIRE(x);
    double mean, var, lo, hi;
    REQUIRE(tl_rng_fill_uniform(&r, x, -3, 5, NULL) == TL_OK);
    moments(x, &mean, &var, &lo, &hi);
    CHECK_NEAR(mean, 1, 0.05);
    CHECK_NEAR(var, 64.0 / 12, 0.1);
    CHECK(lo >= -3 && lo < -2.99);
    CHECK(hi < 5 && hi > 4.99);
    REQUIRE(tl_rng_fill_normal(&r, x, 10, 2, NULL) == TL_OK);
    moments(x, &mean, &var, &lo, &hi);
    CHECK_NEAR(mean, 10, 0.03);
    CHECK_NEAR(var, 4, 0.1);
    CHECK(lo < 10 - 2 * 3.5 && hi > 10 + 2 * 3.5); // tails reached
    // Rounded to bf16, values stay within [lo, hi].
    tl_tensor_t *b = make(TL_BF16, 1, 5000, 0);
    REQUIRE(b && tl_rng_fill_uniform(&r, b, 0, 1, NULL) == TL_OK);
    moments(b, &mean, &var, &lo, &hi);
    CHECK(lo >= 0 && hi <= 1);
    CHECK_NEAR(mean, 0.5, 0.02);
    tl_tensor_destroy(x);
    tl_tensor_destroy(b);
}

TEST(rng_integers_cover_range_evenly)
{
    tl_rng_t r;
    tl_rng_seed(&r, 77);
    tl_tensor_t *x = make(TL_I8, 1, 70000, 0);
    REQUIRE(x && tl_rng_fill_int(&r, x, -3, 3, NULL) == TL_OK);
    int count[7] = {0};
    const int8_t *v = x->data;
    for (int i = 0; i < 70000; i++) {
        REQUIRE(v[i] >= -3 && v[i] <= 3);
        count[v[i] + 3]++;
    }
    for (int i = 0; i < 7; i++) CHECK(count[i] > 9500 && count[i] < 10500);
    // The whole int64 range and a float tensor work too.
    tl_tensor_t *w = make(TL_I64, 1, 64, 0), *f = make(TL_F32, 1, 100, 0);
    REQUIRE(w && f);
    CHECK(tl_rng_fill_int(&r, w, INT64_MIN, INT64_MAX, NULL) == TL_OK);
    int neg = 0, huge = 0;
    for (int i = 0; i < 64; i++) {
        int64_t e = ((int64_t *)w->data)[i];
        neg += e < 0;
        huge += e > (1ll << 60) || e < -(1ll << 60);
    }
    CHECK(neg > 16 && neg < 48);
    CHECK(huge > 40);
    CHECK(tl_rng_fill_int(&r, f, 0, 1, NULL) == TL_OK);
    for (int i = 0; i < 100; i++) CHECK(((float *)f->data)[i] == 0 || ((float *)f->data)[i] == 1);
    tl_tensor_destroy(x);
    tl_tensor_destroy(w);
    tl_tensor_destroy(f);
}

TEST(rng_distinct_rows)
{
    tl_rng_t r;
    tl_rng_seed(&r, 99);
    tl_tensor_t *x = make(TL_I32, 2, 50, 64);
    REQUIRE(x && tl_rng_fill_distinct(&r, x, 1000, NULL) == TL_OK);
    const int32_t *v = x->data;
    static unsigned char seen[1000];
    long sum = 0;
    for (int row = 0; row < 50; row++) {
        memset(seen, 0, sizeof seen);
        for (int j = 0; j < 64; j++) {
            int32_t e = v[row * 64 + j];
            REQUIRE(e >= 0 && e < 1000);
            CHECK(!seen[e]);
            seen[e] = 1;
            sum += e;
        }
    }
    CHECK_NEAR((double)sum / (50 * 64), 499.5, 20);
    // k == n: every row is a permutation, and rows differ.
    tl_tensor_t *p = make(TL_I64, 2, 3, 10);
    REQUIRE(p && tl_rng_fill_distinct(&r, p, 10, NULL) == TL_OK);
    const int64_t *q = p->data;
    for (int row = 0; row < 3; row++) {
        int mask = 0;
        for (int j = 0; j < 10; j++) mask |= 1 << q[row * 10 + j];
        CHECK_EQ(mask, 1023);
    }
    CHECK(memcmp(q, q + 10, 10 * sizeof *q) != 0);
    tl_tensor_destroy(x);
    tl_tensor_destroy(p);
}

TEST(rng_strided_fill_follows_logical_order)
{
    tl_rng_t r1, r2;
    tl_rng_seed(&r1, 4);
    tl_rng_seed(&r2, 4);
    float mem[12];
    int64_t shape[] = {4, 3}, strides[] = {1, 4}; // a transposed view of a 3x4 buffer
    tl_tensor_t *view, *dense = make(TL_F32, 2, 4, 3);
    REQUIRE(dense && tl_tensor_wrap(&view, TL_F32, 2, shape, strides, mem, NULL) == TL_OK);
    tl_rng_fill_uniform(&r1, view, 0, 1, NULL);
    tl_rng_fill_uniform(&r2, dense, 0, 1, NULL);
    int64_t idx[2] = {0, 0};
    do CHECK(tl_tensor_get(view, idx) == tl_tensor_get(dense, idx));
    while (tl_tensor_next_index(dense, idx));
    CHECK(mem[1] == ((float *)dense->data)[3]); // view [1, 0] is mem[1]
    tl_tensor_destroy(view);
    tl_tensor_destroy(dense);
}

TEST(rng_rejects_bad_arguments)
{
    tl_diag_t d;
    tl_diag_init(&d);
    tl_rng_t r;
    tl_rng_seed(&r, 1);
    tl_tensor_t *i8 = make(TL_I8, 1, 4, 0), *bf = make(TL_BF16, 2, 2, 4),
                *s = make(TL_I32, 0, 0, 0);
    REQUIRE(i8 && bf && s);
    CHECK(tl_rng_fill_uniform(&r, bf, 1, 1, &d) == TL_ERR_ARG);
    CHECK_CONTAINS(tl_diag_text(&d), "uniform range [1, 1) is empty");
    CHECK(tl_rng_fill_normal(&r, bf, 0, -1, &d) == TL_ERR_ARG);
    CHECK(tl_rng_fill_int(&r, i8, 0, 300, &d) == TL_ERR_ARG);
    CHECK_CONTAINS(tl_diag_text(&d), "[0, 300] does not fit int8");
    CHECK(tl_rng_fill_int(&r, i8, 2, 1, &d) == TL_ERR_ARG);
    CHECK(tl_rng_fill_distinct(&r, i8, 3, &d) == TL_ERR_ARG);
    CHECK_CONTAINS(tl_diag_text(&d), "cannot draw 4 distinct integers from [0, 3)");
    CHECK(tl_rng_fill_distinct(&r, bf, 1000, &d) == TL_ERR_ARG);
    CHECK_CONTAINS(tl_diag_text(&d), "up to 999 are not all exact in bfloat16");
    CHECK(tl_rng_fill_distinct(&r, s, 10, &d) == TL_ERR_ARG);
    CHECK_EQ(d.nerrors, 7);
    CHECK(tl_rng_fill_distinct(&r, bf, 257, &d) == TL_OK); // 0..256 are exact in bf16
    tl_diag_free(&d);
    tl_tensor_destroy(i8);
    tl_tensor_destroy(bf);
    tl_tensor_destroy(s);
}
