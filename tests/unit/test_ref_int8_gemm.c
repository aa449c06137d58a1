// Golden int8 GEMM with per-row scales (src/ref/int8_gemm.c): exact integer
// examples, the fp32 conversion and scale-multiply order, and the bf16/fp16
// output rounding of dsv4_ops.md §4.2.
#include "../test.h"

#include <math.h>
#include <stdlib.h>

#include "ref/ref.h"
#include "rt/rng.h"

static tl_int8_gemm_params_t dims(int64_t m, int64_t n, int64_t k)
{
    tl_int8_gemm_params_t p = {.m = m, .n = n, .k = k};
    return p;
}

TEST(ref_int8_gemm_small_integers)
{
    // acc = A . B^T:
    //   row 0: 1-2+3+4 = 6;  2+0-3+20 = 19;  -128+256+381+508 = 1017
    //   row 1: -128+127+0-1 = -2;  -256+0+0-5 = -261;  16384-16256+0-127 = 1
    // Power-of-two scales keep everything exact: out = acc * sa[i] * sb[j].
    int8_t a[] = {1, -2, 3, 4, -128, 127, 0, -1};
    int8_t b[] = {1, 1, 1, 1, 2, 0, -1, 5, -128, -128, 127, 127};
    float sa[] = {1, 0.5f}, sb[] = {1, 2, 0.25f};
    float out[6];
    float expect[] = {6, 38, 254.25f, -1, -261, 0.125f};
    tl_int8_gemm_params_t p = dims(2, 3, 4);
    for (int order = 0; order < 2; order++) {
        p.order = (tl_int8_gemm_order_t)order;
        REQUIRE(tl_int8_gemm_ref(&p, a, b, sa, sb, out, NULL) == TL_OK);
        for (int i = 0; i < 6; i++) CHECK(out[i] == expect[i]);
    }
}

TEST(ref_int8_gemm_accumulator_converts_once_with_rne)
{
    // Beyond 2^24 the fp32 spacing is 2, so odd accumulators are ties:
    //   k = 1041, all 127: acc = 1041 * 16129 = 16790289 -> 16790288 (mantissa even)
    //   k = 1043: 1040 * 16129 + 59*51 + 5*10 = 16774160 + 3009 + 50 = 2^24 + 3
    //     -> 2^24 + 4 (even; truncation would give 2^24 + 2)
    enum { K = 1043 };
    static int8_t a[K], b[K];
    for (int i = 0; i < K; i++) a[i] = b[i] = 127;
    float one = 1, out;
    tl_int8_gemm_params_t p = dims(1, 1, 1041);
    REQUIRE(tl_int8_gemm_ref(&p, a, b, &one, &one, &out, NULL) == TL_OK);
    CHECK(out == 16790288.0f);
    a[1040] = 59, b[1040] = 51, a[1041] = 5, b[1041] = 10, a[1042] = b[1042] = 0;
    p.k = K;
    REQUIRE(tl_int8_gemm_ref(&p, a, b, &one, &one, &out, NULL) == TL_OK);
    CHECK(out == 16777220.0f);
}

TEST(ref_int8_gemm_bf16_output_is_rounded_after_fp32)
{
    // acc = 1044 * 127*127 + 63*64 + 5*9 = 16838676 + 4032 + 45 = 2^24 + 2^16 + 1.
    // The kernel path int32 -> fp32 -> bf16 rounds twice:
    //   fp32: a tie (spacing 2) -> 2^24 + 2^16 (even);
    //   bf16: 2^24 + 2^16 is a tie (spacing 2^17) -> 2^24 (even) = 0x4B80.
    // Rounding the exact value once would give 2^24 + 2^17 = 0x4B81.
    enum { K = 1046 };
    static int8_t a[K], b[K];
    for (int i = 0; i < 1044; i++) a[i] = b[i] = 127;
    a[1044] = 63, b[1044] = 64, a[1045] = 5, b[1045] = 9;
    float one = 1;
    uint16_t bits;
    tl_int8_gemm_params_t p = dims(1, 1, K);
    p.out_prec = TL_REF_BF16;
    REQUIRE(tl_int8_gemm_ref(&p, a, b, &one, &one, &bits, NULL) == TL_OK);
    CHECK_EQ(bits, 0x4B80);
}

TEST(ref_int8_gemm_scale_order)
{
    // acc = 3, sa = 0.1f = 0x3DCCCCCD, sb = 0.03f = 0x3CF5C28F.
    //   seq:   3 * sa = 0.3000000045 -> fp32 0x3E99999A; * sb -> 0x3C1374BD
    //   outer: sa * sb -> 0x3B449BA6 (0.0030000000261); * 3 -> 0x3C1374BC
    // One fp32 ulp apart; both round to bf16 0x3C13 and fp16 0x209C.
    int8_t a[] = {1, 1, 1}, b[] = {1, 1, 1};
    float sa = 0.1f, sb = 0.03f, out;
    uint16_t bits;
    tl_int8_gemm_params_t p = dims(1, 1, 3);
    REQUIRE(tl_int8_gemm_ref(&p, a, b, &sa, &sb, &out, NULL) == TL_OK);
    CHECK_EQ(tl_f32_bits(out), 0x3C1374BD);
    p.order = TL_INT8_GEMM_SCALE_OUTER;
    REQUIRE(tl_int8_gemm_ref(&p, a, b, &sa, &sb, &out, NULL) == TL_OK);
    CHECK_EQ(tl_f32_bits(out), 0x3C1374BC);
    for (int order = 0; order < 2; order++) {
        p.order = (tl_int8_gemm_order_t)order;
        p.out_prec = TL_REF_BF16;
        REQUIRE(tl_int8_gemm_ref(&p, a, b, &sa, &sb, &bits, NULL) == TL_OK);
        CHECK_EQ(bits, 0x3C13);
        p.out_prec = TL_REF_F16;
        REQUIRE(tl_int8_gemm_ref(&p, a, b, &sa, &sb, &bits, NULL) == TL_OK);
        CHECK_EQ(bits, 0x209C);
    }
}

TEST(ref_int8_gemm_f16_overflow_is_inf)
{
    // acc = -2, sa = 40000: -80000 is beyond fp16's 65504 -> -Inf (0xFC00).
    int8_t a[] = {-2}, b[] = {1};
    float sa = 40000, sb = 1;
    uint16_t bits;
    tl_int8_gemm_params_t p = dims(1, 1, 1);
    p.out_prec = TL_REF_F16;
    REQUIRE(tl_int8_gemm_ref(&p, a, b, &sa, &sb, &bits, NULL) == TL_OK);
    CHECK_EQ(bits, 0xFC00);
}

// Random int8 [m,k] in [-127, 127] and scales like the quantizer's (~0.01-0.04).
static void random_operand(tl_rng_t *r, int8_t *x, float *s, int64_t rows, int64_t k)
{
    for (int64_t i = 0; i < rows * k; i++) x[i] = (int8_t)((int64_t)tl_rng_below(r, 255) - 127);
    for (int64_t i = 0; i < rows; i++) s[i] = (float)(0.01 + 0.03 * tl_rng_uniform(r));
}

TEST(ref_int8_gemm_random_properties)
{
    enum { M = 5, N = 7, K = 33 };
    int8_t a[M * K], b[N * K];
    float sa[M], sb[N], ab[M * N], ba[N * M];
    tl_rng_t r;
    tl_rng_seed(&r, 9);
    random_operand(&r, a, sa, M, K);
    random_operand(&r, b, sb, N, K);
    // Within two fp32 roundings of the exact value acc * sa * sb.
    tl_int8_gemm_params_t p = dims(M, N, K);
    REQUIRE(tl_int8_gemm_ref(&p, a, b, sa, sb, ab, NULL) == TL_OK);
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            long acc = 0;
            for (int l = 0; l < K; l++) acc += a[i * K + l] * b[j * K + l];
            double exact = (double)acc * sa[i] * sb[j];
            CHECK(fabs(ab[i * N + j] - exact) <= 0x1p-22 * fabs(exact));
        }
    // The outer order is symmetric: (A.B^T)^T = B.A^T with the scales swapped.
    p.order = TL_INT8_GEMM_SCALE_OUTER;
    REQUIRE(tl_int8_gemm_ref(&p, a, b, sa, sb, ab, NULL) == TL_OK);
    tl_int8_gemm_params_t pt = dims(N, M, K);
    pt.order = TL_INT8_GEMM_SCALE_OUTER;
    REQUIRE(tl_int8_gemm_ref(&pt, b, a, sb, sa, ba, NULL) == TL_OK);
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) CHECK(ab[i * N + j] == ba[j * M + i]);
}

TEST(ref_int8_gemm_rejects_bad_arguments)
{
    int8_t a[4] = {0};
    float s[4] = {0}, out[4];
    tl_diag_t d;
    tl_diag_init(&d);
    tl_int8_gemm_params_t p = dims(1, 1, -1);
    CHECK_EQ(tl_int8_gemm_ref(&p, a, a, s, s, out, &d), TL_ERR_ARG);
    CHECK_CONTAINS(tl_diag_text(&d), "int8_gemm: a has an invalid shape [1, -1]");
    p = dims(1, 1, 1);
    p.order = (tl_int8_gemm_order_t)5;
    CHECK_EQ(tl_int8_gemm_ref(&p, a, a, s, s, out, &d), TL_ERR_ARG);
    CHECK_CONTAINS(tl_diag_text(&d), "invalid scale order");
    p = dims(1, 1, 1);
    p.out_prec = TL_REF_PREC_COUNT;
    CHECK_EQ(tl_int8_gemm_ref(&p, a, a, s, s, out, &d), TL_ERR_ARG);
    p = dims(2, 1, 1);
    CHECK_EQ(tl_int8_gemm_ref(&p, a, a, NULL, s, out, &d), TL_ERR_ARG);
    CHECK_CONTAINS(tl_diag_text(&d), "scale_a is NULL");
    CHECK_EQ(d.nerrors, 4);
    tl_diag_free(&d);
}
