// Unary vector ops (values, narrow-type rounding, integer forms, counts) and
// T.tile.cast with every rounding mode on ties, CAST_ODD, counts, deq scale.
#include "test_tileop.h"

#include <math.h>

static float un(fx_t *f, tl_opcode_t code, float x)
{
    float a[1] = {x}, d[1] = {-999};
    tl_op_t op = top(code);
    if (RUN(f, op, OV(UB(d, TL_F32, 1)), OV(UB(a, TL_F32, 1))) != TL_OK) return -12345;
    return d[0];
}

TEST(tileop_unary_float32_values)
{
    fx_t f;
    fx_init(&f);
    CHECK(un(&f, TL_OP_EXP, 0) == 1);
    CHECK_NEAR(un(&f, TL_OP_EXP, 1), 2.7182817, 1e-6);
    CHECK(un(&f, TL_OP_LN, 1) == 0);
    CHECK(isinf(un(&f, TL_OP_LN, 0)));
    CHECK(un(&f, TL_OP_ABS, -2.5f) == 2.5f);
    CHECK(un(&f, TL_OP_RECIPROCAL, 4) == 0.25f);
    CHECK(un(&f, TL_OP_SQRT, 9) == 3);
    CHECK(un(&f, TL_OP_RSQRT, 4) == 0.5f);
    CHECK(un(&f, TL_OP_RELU, -3) == 0 && un(&f, TL_OP_RELU, 3) == 3);
    CHECK(isnan(un(&f, TL_OP_RELU, NAN)));
    CHECK(un(&f, TL_OP_SIGMOID, 0) == 0.5f);
    CHECK_NEAR(un(&f, TL_OP_SIGMOID, 2), 0.880797, 1e-6);
    CHECK(un(&f, TL_OP_SILU, 0) == 0);
    CHECK_NEAR(un(&f, TL_OP_SILU, 2), 1.761594, 1e-6);
    CHECK(un(&f, TL_OP_SIN, 0) == 0 && un(&f, TL_OP_COS, 0) == 1);
    CHECK_NEAR(un(&f, TL_OP_SIN, 1), 0.841471, 1e-6);
    // round: ties to even.
    CHECK(un(&f, TL_OP_ROUND, 0.5f) == 0 && un(&f, TL_OP_ROUND, 1.5f) == 2);
    CHECK(un(&f, TL_OP_ROUND, 2.5f) == 2 && un(&f, TL_OP_ROUND, -1.5f) == -2);
    CHECK(un(&f, TL_OP_ROUND, 2.6f) == 3);
    fx_free(&f);
}

TEST(tileop_unary_narrow_int_count)
{
    fx_t f;
    fx_init(&f);
    // bf16 exp(1) = 2.71828... rounds to 2.71875 (spacing 2^-6 at 2).
    uint16_t h[2] = {bf(1), bf(0)}, hd[2];
    tl_op_t ex = top(TL_OP_EXP);
    REQUIRE(RUN(&f, ex, OV(UB(hd, TL_BF16, 2)), OV(UB(h, TL_BF16, 2))) == TL_OK);
    CHECK(bf2f(hd[0]) == 2.71875f && bf2f(hd[1]) == 1);
    // f16 rsqrt(3) = 0.57735 -> 0.5771484375 (0x389e).
    uint16_t three[1] = {hf(3)}, td[1];
    tl_op_t rs = top(TL_OP_RSQRT);
    REQUIRE(RUN(&f, rs, OV(UB(td, TL_F16, 1)), OV(UB(three, TL_F16, 1))) == TL_OK);
    CHECK_EQ(td[0], 0x389e);
    // Integers: abs wraps, relu, round is the identity, bitwise_not.
    int8_t i[3] = {-128, -5, 7}, id[3];
    tl_op_t ab = top(TL_OP_ABS), rl = top(TL_OP_RELU), nt = top(TL_OP_NOT), rd = top(TL_OP_ROUND);
    REQUIRE(RUN(&f, ab, OV(UB(id, TL_I8, 3)), OV(UB(i, TL_I8, 3))) == TL_OK);
    CHECK(id[0] == -128 && id[1] == 5 && id[2] == 7);
    REQUIRE(RUN(&f, rl, OV(UB(id, TL_I8, 3)), OV(UB(i, TL_I8, 3))) == TL_OK);
    CHECK(id[0] == 0 && id[1] == 0 && id[2] == 7);
    REQUIRE(RUN(&f, rd, OV(UB(id, TL_I8, 3)), OV(UB(i, TL_I8, 3))) == TL_OK);
    CHECK(id[0] == -128 && id[2] == 7);
    REQUIRE(RUN(&f, nt, OV(UB(id, TL_I8, 3)), OV(UB(i, TL_I8, 3))) == TL_OK);
    CHECK(id[0] == 127 && id[1] == 4 && id[2] == -8);
    CHECK(RUN(&f, ex, OV(UB(id, TL_I8, 3)), OV(UB(i, TL_I8, 3))) == TL_ERR_UNSUPPORTED);
    CHECK_CONTAINS(fx_err(&f), "T.tile.exp: needs a float dtype, 'id' is int8");
    // An explicit count processes that many elements from the origin.
    float a[4] = {1, 4, 9, 16}, d[4] = {0, 0, 0, 0};
    tl_op_t sq = top(TL_OP_SQRT);
    REQUIRE(RUN(&f, sq, OV(UB(d, TL_F32, 4)), OV(UB(a, TL_F32, 4)), OI(2)) == TL_OK);
    CHECK(d[0] == 1 && d[1] == 2 && d[2] == 0 && d[3] == 0);
    fx_free(&f);
}

static int32_t cast_i32(fx_t *f, tl_round_t mode, float x)
{
    float a[1] = {x};
    int32_t d[1] = {-999};
    tl_op_t op = top(TL_OP_CAST);
    op.round = mode;
    if (RUN(f, op, OV(UB(d, TL_I32, 1)), OV(UB(a, TL_F32, 1)), OI(1)) != TL_OK) return -12345;
    return d[0];
}

// float32 -> a 16-bit float type t
static uint16_t cast_16(fx_t *f, tl_dtype_t t, tl_round_t mode, float x)
{
    float a[1] = {x};
    uint16_t d[1] = {0xdead};
    tl_op_t op = top(TL_OP_CAST);
    op.round = mode;
    if (RUN(f, op, OV(UB(d, t, 1)), OV(UB(a, TL_F32, 1))) != TL_OK) return 0xdead;
    return d[0];
}

static float cast_f32(fx_t *f, tl_round_t mode, float x)
{
    float a[1] = {x}, d[1] = {-999};
    tl_op_t op = top(TL_OP_CAST);
    op.round = mode;
    if (RUN(f, op, OV(UB(d, TL_F32, 1)), OV(UB(a, TL_F32, 1))) != TL_OK) return -12345;
    return d[0];
}

TEST(tileop_cast_modes_on_ties)
{
    fx_t f;
    fx_init(&f);
    // float32 -> int32 at 2.5, -2.5, 3.5.
    struct {
        tl_round_t m;
        int32_t p25, m25, p35;
    } ic[] = {
        {TL_CAST_RINT, 2, -2, 4}, {TL_CAST_ROUND, 3, -3, 4}, {TL_CAST_FLOOR, 2, -3, 3},
        {TL_CAST_CEIL, 3, -2, 4}, {TL_CAST_TRUNC, 2, -2, 3},
    };
    for (size_t i = 0; i < TL_ARRAY_LEN(ic); i++) {
        CHECK_EQ(cast_i32(&f, ic[i].m, 2.5f), ic[i].p25);
        CHECK_EQ(cast_i32(&f, ic[i].m, -2.5f), ic[i].m25);
        CHECK_EQ(cast_i32(&f, ic[i].m, 3.5f), ic[i].p35);
    }
    // float32 -> bf16 at the ties +-(1 + 2^-8) (between 1 and 1 + 2^-7).
    struct {
        tl_round_t m;
        uint16_t pos, neg;
    } bc[] = {
        {TL_CAST_RINT, 0x3f80, 0xbf80},  {TL_CAST_ROUND, 0x3f81, 0xbf81},
        {TL_CAST_FLOOR, 0x3f80, 0xbf81}, {TL_CAST_CEIL, 0x3f81, 0xbf80},
        {TL_CAST_TRUNC, 0x3f80, 0xbf80},
    };
    for (size_t i = 0; i < TL_ARRAY_LEN(bc); i++) {
        CHECK_EQ(cast_16(&f, TL_BF16, bc[i].m, 1 + 0x1p-8f), bc[i].pos);
        CHECK_EQ(cast_16(&f, TL_BF16, bc[i].m, -(1 + 0x1p-8f)), bc[i].neg);
    }
    // CAST_ODD (float32 -> float16 only): inexact results get the odd neighbour,
    // exact ones stay; CAST_NONE there is RINT.
    CHECK_EQ(cast_16(&f, TL_F16, TL_CAST_ODD, 1 + 0x1p-11f), 0x3c01);
    CHECK_EQ(cast_16(&f, TL_F16, TL_CAST_ODD, 1 + 0x1p-10f + 0x1p-12f), 0x3c01);
    CHECK_EQ(cast_16(&f, TL_F16, TL_CAST_ODD, 1.0f), 0x3c00);
    CHECK_EQ(cast_16(&f, TL_F16, TL_CAST_NONE, 1 + 0x1p-11f), 0x3c00);
    // Modes and pairs the device lacks (asc-devkit Cast, A2/A3) are errors.
    CHECK_EQ(cast_i32(&f, TL_CAST_ODD, 2.5f), -12345);
    CHECK_CONTAINS(fx_err(&f),
                   "CAST_ODD is not a mode of the Ascend A2/A3 cast from float32 to int32");
    fx_free(&f); // fx_err reports the first error
    fx_init(&f);
    CHECK_EQ(cast_i32(&f, TL_CAST_NONE, 2.5f), -12345);
    CHECK_CONTAINS(fx_err(&f),
                   "CAST_NONE is not a mode of the Ascend A2/A3 cast from float32 to int32");
    CHECK_EQ(cast_16(&f, TL_BF16, TL_CAST_ODD, 1.0f), 0xdead);
    CHECK_EQ(cast_16(&f, TL_BF16, TL_CAST_NONE, 1.0f), 0xdead);
    uint16_t h[1] = {0x3c00}, b[1] = {0};
    tl_op_t op = top(TL_OP_CAST);
    op.round = TL_CAST_RINT;
    fx_free(&f);
    fx_init(&f);
    CHECK(RUN(&f, op, OV(UB(b, TL_BF16, 1)), OV(UB(h, TL_F16, 1))) == TL_ERR_UNSUPPORTED);
    CHECK_CONTAINS(fx_err(&f), "Ascend A2/A3 have no vector cast from float16 to bfloat16");
    fx_free(&f);
}

// float32 -> float32 with a rounding mode is not a copy: the device rounds to an
// integral value (asc-devkit precision conversion, float -> float).
TEST(tileop_cast_float_to_float_rounds_to_integral)
{
    fx_t f;
    fx_init(&f);
    struct {
        tl_round_t m;
        float x[7];
    } fc[] = {
        {TL_CAST_RINT, {2, -2, 4, 0, -0.0f, 16777216, 1}},
        {TL_CAST_ROUND, {3, -3, 4, 1, -0.0f, 16777216, 1}},
        {TL_CAST_FLOOR, {2, -3, 3, 0, -1, 16777216, 1}},
        {TL_CAST_CEIL, {3, -2, 4, 1, -0.0f, 16777216, 2}},
        {TL_CAST_TRUNC, {2, -2, 3, 0, -0.0f, 16777216, 1}},
    };
    const float in[7] = {2.5f, -2.5f, 3.5f, 0.5f, -0.4f, 16777216.0f, 1.0f + 0x1p-23f};
    for (size_t i = 0; i < TL_ARRAY_LEN(fc); i++)
        for (int j = 0; j < 7; j++) {
            float got = cast_f32(&f, fc[i].m, in[j]);
            CHECK(got == fc[i].x[j] && signbit(got) == signbit(fc[i].x[j]));
        }
    CHECK(isnan(cast_f32(&f, TL_CAST_RINT, NAN)) &&
          cast_f32(&f, TL_CAST_FLOOR, -INFINITY) == -INFINITY);
    // in place, and CAST_NONE (not a float -> float mode) is an error
    float a[3] = {0.75f, -1.5f, 7.25f};
    tl_op_t op = top(TL_OP_CAST);
    op.round = TL_CAST_RINT;
    REQUIRE(RUN(&f, op, OV(UB(a, TL_F32, 3)), OV(UB(a, TL_F32, 3))) == TL_OK);
    CHECK(a[0] == 1 && a[1] == -2 && a[2] == 7);
    CHECK_EQ(cast_f32(&f, TL_CAST_NONE, 2.5f), -12345);
    CHECK_CONTAINS(fx_err(&f),
                   "CAST_NONE is not a mode of the Ascend A2/A3 cast from float32 to float32");
    uint16_t h[1] = {0x4100}; // 2.5 in float16: no float16 -> float16 cast
    op.round = TL_CAST_RINT;
    fx_free(&f);
    fx_init(&f);
    CHECK(RUN(&f, op, OV(UB(h, TL_F16, 1)), OV(UB(h, TL_F16, 1))) == TL_ERR_UNSUPPORTED);
    CHECK_CONTAINS(fx_err(&f), "no vector cast from float16 to float16");
    fx_free(&f);
}

TEST(tileop_cast_count_saturation_deq)
{
    fx_t f;
    fx_init(&f);
    tl_op_t op = top(TL_OP_CAST);
    // Only `count` elements are converted; float16 -> int8 saturates, NaN -> 0.
    uint16_t a16[4] = {hf(300), hf(-300), 0x7e00, hf(1)};
    int8_t d[4] = {9, 9, 9, 9};
    REQUIRE(RUN(&f, op, OV(UB(d, TL_I8, 4)), OV(UB(a16, TL_F16, 4)), OI(3)) == TL_OK);
    CHECK(d[0] == 127 && d[1] == -128 && d[2] == 0 && d[3] == 9);
    float a[4] = {300, -300, NAN, 1};
    // bf16 -> f32 widening is exact; a region destination (x1[1, :, :] of [2, 1, 2]).
    uint16_t h[2] = {0x3f81, 0xc020};
    float x1[4] = {0, 0, 0, 0};
    op.round = TL_CAST_NONE;
    REQUIRE(RUN(&f, op, OV(tv_sub(UB(x1, TL_F32, 2, 1, 2), DIMS(1, 0, 0), DIMS(1, 1, 2))),
                OV(UB(h, TL_BF16, 2)), OI(2)) == TL_OK);
    CHECK(x1[0] == 0 && x1[2] == 1.0078125f && x1[3] == -2.5f);
    // int32 -> float16 scales by the deq scale first: 3 * 0.25 = 0.75.
    f.ctx.deq_scale = 0.25f;
    int32_t i[1] = {3};
    uint16_t o[1];
    op.round = TL_CAST_RINT;
    REQUIRE(RUN(&f, op, OV(UB(o, TL_F16, 1)), OV(UB(i, TL_I32, 1))) == TL_OK);
    CHECK(hf2f(o[0]) == 0.75f);
    CHECK(RUN(&f, op, OV(UB(o, TL_F16, 1)), OV(UB(a, TL_F32, 4))) == TL_ERR_RUNTIME);
    CHECK_CONTAINS(fx_err(&f), "operands differ in size: 'o' has 1 elements, 'a' has 4");
    fx_free(&f);
}

// The examples of asc-devkit's precision-conversion page (docs/zh/api/SIMD-API/
// 基础API/数据结构/precision_conversion.md), each pair in its five modes RINT,
// FLOOR, CEIL, ROUND, TRUNC, through the tile op.
TEST(tileop_cast_matches_the_asc_devkit_examples)
{
    static const tl_round_t modes[5] = {TL_CAST_RINT, TL_CAST_FLOOR, TL_CAST_CEIL, TL_CAST_ROUND,
                                        TL_CAST_TRUNC};
    static const struct {
        tl_dtype_t src, dst;
        double in, out[5];
    } ex[] = {
        {TL_I16, TL_F16, 0x1p12 + 2, {0x1p12, 0x1p12, 0x1p12 + 4, 0x1p12 + 4, 0x1p12}},
        {TL_F16, TL_I8, 0x1p7 - 0.5, {127, 127, 127, 127, 127}},
        {TL_F16, TL_U8, 1.75, {2, 1, 2, 2, 1}},
        {TL_I32, TL_F32, 0x1p25 + 3, {0x1p25 + 4, 0x1p25, 0x1p25 + 4, 0x1p25 + 4, 0x1p25}},
        {TL_F32, TL_I16, 0x1p22 + 0.5, {32767, 32767, 32767, 32767, 32767}},
        {TL_F32, TL_F16, 0.5 + 0x1p-12, {0.5, 0.5, 0.5 + 0x1p-11, 0.5 + 0x1p-11, 0.5}},
        {TL_F32,
         TL_BF16,
         0.5 + 0x1p-9 + 0x1p-11,
         {0.5 + 0x1p-8, 0.5, 0.5 + 0x1p-8, 0.5 + 0x1p-8, 0.5}},
        {TL_F32, TL_I32, 0x1p22 + 0.5, {0x1p22, 0x1p22, 0x1p22 + 1, 0x1p22 + 1, 0x1p22}},
        {TL_F32, TL_F32, 0.5, {0, 0, 1, 1, 0}},
        {TL_F32, TL_I64, 0x1p22 + 0.5, {0x1p22, 0x1p22, 0x1p22 + 1, 0x1p22 + 1, 0x1p22}},
        {TL_I64,
         TL_F32,
         0x1p35 + 0x1p12 + 0x1p11,
         {0x1p35 + 0x1p13, 0x1p35 + 0x1p12, 0x1p35 + 0x1p13, 0x1p35 + 0x1p13, 0x1p35 + 0x1p12}},
    };
    fx_t f;
    fx_init(&f);
    for (size_t i = 0; i < TL_ARRAY_LEN(ex); i++)
        for (int m = 0; m < 5; m++) {
            uint64_t s[1] = {0}, d[1] = {0};
            tl_store_f64(ex[i].src, s, 0, ex[i].in, TL_CAST_RINT);
            tl_op_t op = top(TL_OP_CAST);
            op.round = modes[m];
            tl_status_t st = RUN(&f, op, OV(UB(d, ex[i].dst, 1)), OV(UB(s, ex[i].src, 1)));
            double got = tl_load_f64(ex[i].dst, d, 0);
            if (st != TL_OK || got != ex[i].out[m])
                tl_test_fail(t, __FILE__, __LINE__,
                             "%s -> %s %s of %.17g: got %.17g (status %d), want %.17g",
                             tl_dtype_name(ex[i].src), tl_dtype_name(ex[i].dst),
                             tl_round_name(modes[m]), ex[i].in, got, (int)st, ex[i].out[m]);
        }
    // int64 -> int32 and int32 -> int16 (CAST_NONE) saturate
    int64_t big[1] = {INT64_C(1) << 31};
    int32_t o32[1], i32[1] = {INT32_MAX};
    int16_t o16[1];
    tl_op_t op = top(TL_OP_CAST);
    op.round = TL_CAST_NONE;
    REQUIRE(RUN(&f, op, OV(UB(o32, TL_I32, 1)), OV(UB(big, TL_I64, 1))) == TL_OK);
    REQUIRE(RUN(&f, op, OV(UB(o16, TL_I16, 1)), OV(UB(i32, TL_I32, 1))) == TL_OK);
    CHECK(o32[0] == INT32_MAX && o16[0] == INT16_MAX);
    fx_free(&f);
}
