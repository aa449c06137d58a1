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

static uint16_t cast_bf16(fx_t *f, tl_round_t mode, float x)
{
    float a[1] = {x};
    uint16_t d[1] = {0xdead};
    tl_op_t op = top(TL_OP_CAST);
    op.round = mode;
    if (RUN(f, op, OV(UB(d, TL_BF16, 1)), OV(UB(a, TL_F32, 1))) != TL_OK) return 0xdead;
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
        {TL_CAST_NONE, 2, -2, 4},  {TL_CAST_RINT, 2, -2, 4}, {TL_CAST_ROUND, 3, -3, 4},
        {TL_CAST_FLOOR, 2, -3, 3}, {TL_CAST_CEIL, 3, -2, 4}, {TL_CAST_TRUNC, 2, -2, 3},
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
        {TL_CAST_NONE, 0x3f80, 0xbf80},  {TL_CAST_RINT, 0x3f80, 0xbf80},
        {TL_CAST_ROUND, 0x3f81, 0xbf81}, {TL_CAST_FLOOR, 0x3f80, 0xbf81},
        {TL_CAST_CEIL, 0x3f81, 0xbf80},  {TL_CAST_TRUNC, 0x3f80, 0xbf80},
        {TL_CAST_ODD, 0x3f81, 0xbf81},
    };
    for (size_t i = 0; i < TL_ARRAY_LEN(bc); i++) {
        CHECK_EQ(cast_bf16(&f, bc[i].m, 1 + 0x1p-8f), bc[i].pos);
        CHECK_EQ(cast_bf16(&f, bc[i].m, -(1 + 0x1p-8f)), bc[i].neg);
    }
    // CAST_ODD: inexact results get the odd neighbour, exact ones stay.
    CHECK_EQ(cast_bf16(&f, TL_CAST_ODD, 1 + 0x1p-10f), 0x3f81);
    CHECK_EQ(cast_bf16(&f, TL_CAST_ODD, 1 + 0x1p-7f + 0x1p-10f), 0x3f81);
    CHECK_EQ(cast_bf16(&f, TL_CAST_ODD, 1.0f), 0x3f80);
    // ... and is an error where it is not defined (float -> int).
    CHECK_EQ(cast_i32(&f, TL_CAST_ODD, 2.5f), -12345);
    CHECK_CONTAINS(fx_err(&f), "CAST_ODD is not defined from float32 to int32");
    fx_free(&f);
}

TEST(tileop_cast_count_saturation_deq)
{
    fx_t f;
    fx_init(&f);
    tl_op_t op = top(TL_OP_CAST);
    // Only `count` elements are converted; float -> int8 saturates, NaN -> 0.
    float a[4] = {300, -300, NAN, 1};
    int8_t d[4] = {9, 9, 9, 9};
    REQUIRE(RUN(&f, op, OV(UB(d, TL_I8, 4)), OV(UB(a, TL_F32, 4)), OI(3)) == TL_OK);
    CHECK(d[0] == 127 && d[1] == -128 && d[2] == 0 && d[3] == 9);
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
