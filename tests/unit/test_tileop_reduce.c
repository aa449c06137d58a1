// T.reduce_sum / reduce_max / reduce_min: 1-D, 2-D both dims, 3-D trailing
// tiles, keep-dim outputs, real_shape with physical-width outputs, sub-block
// inputs, clear=False merges, bf16 and integer numerics, errors.
#include "test_tileop.h"

#include <math.h>

// x = [[1, 2, 3, 4], [5, 6, 7, 8], [-1, -2, -3, -4]]
static float X[12] = {1, 2, 3, 4, 5, 6, 7, 8, -1, -2, -3, -4};

static tl_op_t red(tl_opcode_t code, int dim)
{
    tl_op_t op = top(code);
    op.dim = dim;
    return op;
}

TEST(tileop_reduce_2d_both_dims)
{
    fx_t f;
    fx_init(&f);
    float o3[3], o4[4];
    tl_operand_t x = OV(UB(X, TL_F32, 3, 4)), O3 = OV(UB(o3, TL_F32, 3)),
                 O4 = OV(UB(o4, TL_F32, 4));
    tl_op_t op = red(TL_OP_REDUCE_SUM, -1);
    REQUIRE(RUN(&f, op, x, O3) == TL_OK);
    CHECK(o3[0] == 10 && o3[1] == 26 && o3[2] == -10);
    op = red(TL_OP_REDUCE_SUM, 0);
    REQUIRE(RUN(&f, op, x, O4) == TL_OK);
    CHECK(o4[0] == 5 && o4[1] == 6 && o4[2] == 7 && o4[3] == 8);
    op = red(TL_OP_REDUCE_MAX, -1);
    REQUIRE(RUN(&f, op, x, O3) == TL_OK);
    CHECK(o3[0] == 4 && o3[1] == 8 && o3[2] == -1);
    op = red(TL_OP_REDUCE_MAX, 0);
    REQUIRE(RUN(&f, op, x, O4) == TL_OK);
    CHECK(o4[0] == 5 && o4[3] == 8);
    op = red(TL_OP_REDUCE_MIN, -1);
    REQUIRE(RUN(&f, op, x, O3) == TL_OK);
    CHECK(o3[0] == 1 && o3[1] == 5 && o3[2] == -4);
    op = red(TL_OP_REDUCE_MIN, 0);
    REQUIRE(RUN(&f, op, x, O4) == TL_OK);
    CHECK(o4[0] == -1 && o4[3] == -4);
    // Keep-dim output [3, 1].
    float k[3];
    op = red(TL_OP_REDUCE_SUM, -1);
    REQUIRE(RUN(&f, op, x, OV(UB(k, TL_F32, 3, 1))) == TL_OK);
    CHECK(k[0] == 10 && k[2] == -10);
    fx_free(&f);
}

TEST(tileop_reduce_1d_3d_subblock)
{
    fx_t f;
    fx_init(&f);
    float o[2];
    tl_op_t sum = red(TL_OP_REDUCE_SUM, -1), mx = red(TL_OP_REDUCE_MAX, 0);
    REQUIRE(RUN(&f, sum, OV(UB(X, TL_F32, 12)), OV(UB(o, TL_F32, 1))) == TL_OK);
    CHECK(o[0] == 26);
    REQUIRE(RUN(&f, mx, OV(UB(X, TL_F32, 12)), OV(UB(o, TL_F32, 1))) == TL_OK);
    CHECK(o[0] == 8);
    // The trailing tile t[1, :, :] of a [2, 2, 3] buffer: [[6, 7, 8], [9, 10, 11]].
    float tt[12], r[2];
    for (int i = 0; i < 12; i++) tt[i] = (float)i;
    REQUIRE(RUN(&f, sum, OV(tv_sub(UB(tt, TL_F32, 2, 2, 3), DIMS(1, 0, 0), DIMS(1, 2, 3))),
                OV(UB(r, TL_F32, 2))) == TL_OK);
    CHECK(r[0] == 21 && r[1] == 30);
    // A sub-block x[1:3, 1:3] is reduced with the buffer's row pitch: 6 + 7, -2 - 3.
    REQUIRE(RUN(&f, sum, OV(tv_sub(UB(X, TL_F32, 3, 4), DIMS(1, 1), DIMS(2, 2))),
                OV(UB(r, TL_F32, 2))) == TL_OK);
    CHECK(r[0] == 13 && r[1] == -5);
    float q[4];
    CHECK(RUN(&f, sum, OV(UB(tt, TL_F32, 2, 2, 3)), OV(UB(q, TL_F32, 4))) == TL_ERR_UNSUPPORTED);
    CHECK_CONTAINS(fx_err(&f), "reduces 1-D, 2-D or [1, M, N] regions; 'tt' has extents [2, 2, 3]");
    fx_free(&f);
}

TEST(tileop_reduce_real_shape)
{
    fx_t f;
    fx_init(&f);
    // real_shape [2, 2] of the [3, 4] buffer: [[1, 2], [5, 6]]; the output keeps the physical
    // width (4): only its first elements are written.
    float o[4] = {-9, -9, -9, -9};
    tl_op_t op = red(TL_OP_REDUCE_SUM, -1);
    op.real_shape[0] = 2, op.real_shape[1] = 2;
    REQUIRE(RUN(&f, op, OV(UB(X, TL_F32, 3, 4)), OV(UB(o, TL_F32, 4))) == TL_OK);
    CHECK(o[0] == 3 && o[1] == 11 && o[2] == -9 && o[3] == -9);
    op.dim = 0;
    REQUIRE(RUN(&f, op, OV(UB(X, TL_F32, 3, 4)), OV(UB(o, TL_F32, 4))) == TL_OK);
    CHECK(o[0] == 6 && o[1] == 8 && o[2] == -9);
    // 0 means the full extent: [0, 3] keeps all rows, 3 columns.
    op = red(TL_OP_REDUCE_MAX, -1);
    op.real_shape[1] = 3;
    REQUIRE(RUN(&f, op, OV(UB(X, TL_F32, 3, 4)), OV(UB(o, TL_F32, 4))) == TL_OK);
    CHECK(o[0] == 3 && o[1] == 7 && o[2] == -1 && o[3] == -9);
    op.real_shape[1] = 5;
    CHECK(RUN(&f, op, OV(UB(X, TL_F32, 3, 4)), OV(UB(o, TL_F32, 4))) == TL_ERR_RUNTIME);
    CHECK_CONTAINS(fx_err(&f), "real_shape [0, 5] exceeds the input 'X' [3, 4]");
    fx_free(&f);
}

TEST(tileop_reduce_clear_false_merges)
{
    fx_t f;
    fx_init(&f);
    tl_operand_t x = OV(UB(X, TL_F32, 3, 4));
    float s[3] = {100, 100, 100}, m[3] = {5, 5, 5}, n[3] = {0, 0, 0};
    tl_op_t op = red(TL_OP_REDUCE_SUM, -1);
    op.clear = false;
    REQUIRE(RUN(&f, op, x, OV(UB(s, TL_F32, 3))) == TL_OK);
    CHECK(s[0] == 110 && s[1] == 126 && s[2] == 90);
    op.code = TL_OP_REDUCE_MAX;
    REQUIRE(RUN(&f, op, x, OV(UB(m, TL_F32, 3))) == TL_OK);
    CHECK(m[0] == 5 && m[1] == 8 && m[2] == 5);
    op.code = TL_OP_REDUCE_MIN;
    REQUIRE(RUN(&f, op, x, OV(UB(n, TL_F32, 3))) == TL_OK);
    CHECK(n[0] == 0 && n[1] == 0 && n[2] == -4);
    // int16 sum merged with wrap: 32000 + (500 + 300) = 32800 -> -32736.
    int16_t iv[2] = {500, 300}, io[1] = {32000};
    op.code = TL_OP_REDUCE_SUM;
    REQUIRE(RUN(&f, op, OV(UB(iv, TL_I16, 2)), OV(UB(io, TL_I16, 1))) == TL_OK);
    CHECK_EQ(io[0], -32736);
    fx_free(&f);
}

TEST(tileop_reduce_numerics)
{
    fx_t f;
    fx_init(&f);
    // bf16 sum in double, rounded once: 1 + 2^-8 + 2^-9 = 1.005859375 -> 1 + 2^-7 (0x3f81).
    // Rounding after every add would give 1.0.
    uint16_t h[3] = {bf(1), bf(0x1p-8f), bf(0x1p-9f)}, ho[1];
    tl_op_t sum = red(TL_OP_REDUCE_SUM, -1), mx = red(TL_OP_REDUCE_MAX, -1);
    REQUIRE(RUN(&f, sum, OV(UB(h, TL_BF16, 3)), OV(UB(ho, TL_BF16, 1))) == TL_OK);
    CHECK_EQ(ho[0], 0x3f81);
    float nan3[3] = {1, NAN, 3}, o[1];
    REQUIRE(RUN(&f, mx, OV(UB(nan3, TL_F32, 3)), OV(UB(o, TL_F32, 1))) == TL_OK);
    CHECK(isnan(o[0]));
    int32_t iv[2] = {INT32_MAX, 1}, io[1];
    REQUIRE(RUN(&f, sum, OV(UB(iv, TL_I32, 2)), OV(UB(io, TL_I32, 1))) == TL_OK);
    CHECK(io[0] == INT32_MIN);
    REQUIRE(RUN(&f, mx, OV(UB(iv, TL_I32, 2)), OV(UB(io, TL_I32, 1))) == TL_OK);
    CHECK(io[0] == INT32_MAX);
    fx_free(&f);
}

TEST(tileop_reduce_errors)
{
    fx_t f;
    fx_init(&f);
    tl_op_t op = red(TL_OP_REDUCE_SUM, -1);
    float o2[2];
    CHECK(RUN(&f, op, OV(UB(X, TL_F32, 3, 4)), OV(UB(o2, TL_F32, 2))) == TL_ERR_RUNTIME);
    CHECK_CONTAINS(fx_err(&f), "T.reduce_sum: output 'o2' has 2 elements, the reduction of 'X' "
                               "gives 3");
    tl_diag_clear(&f.diag);
    uint16_t h[3];
    CHECK(RUN(&f, op, OV(UB(X, TL_F32, 3, 4)), OV(UB(h, TL_F16, 3))) == TL_ERR_RUNTIME);
    CHECK_CONTAINS(fx_err(&f), "operands need the same dtype: 'X' is float32, 'h' is float16");
    fx_free(&f);
}
