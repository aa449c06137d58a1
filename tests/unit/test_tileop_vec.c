// Element-wise vector ops: binary ops with buffer and scalar src1 (sub/div by
// scalar numerics), per-dtype arithmetic (bf16 rounding, integer wrap),
// bitwise ops and shifts, fill, fused forms, flat-span regions and errors.
#include "test_tileop.h"

#include <math.h>

TEST(tileop_vec_binary_buffers)
{
    fx_t f;
    fx_init(&f);
    float a[10], b[10], d[10];
    for (int i = 0; i < 10; i++) a[i] = (float)i, b[i] = 2;
    a[1] = -2, b[1] = 4, a[2] = 3.5f, b[2] = -0.5f;
    tl_operand_t D = OV(UB(d, TL_F32, 10)), A = OV(UB(a, TL_F32, 10)), B = OV(UB(b, TL_F32, 10));
    struct {
        tl_opcode_t code;
        float w0, w1, w2, w9;
    } cases[] = {
        {TL_OP_ADD, 2, 2, 3, 11},        {TL_OP_SUB, -2, -6, 4, 7},  {TL_OP_MUL, 0, -8, -1.75f, 18},
        {TL_OP_DIV, 0, -0.5f, -7, 4.5f}, {TL_OP_MAX, 2, 4, 3.5f, 9}, {TL_OP_MIN, 0, -2, -0.5f, 2},
    };
    for (size_t k = 0; k < TL_ARRAY_LEN(cases); k++) {
        tl_op_t op = top(cases[k].code);
        REQUIRE(RUN(&f, op, D, A, B) == TL_OK);
        CHECK(d[0] == cases[k].w0 && d[1] == cases[k].w1 && d[2] == cases[k].w2);
        CHECK(d[9] == cases[k].w9);
    }
    tl_op_t add = top(TL_OP_ADD);
    REQUIRE(RUN(&f, add, A, A, B) == TL_OK); // in place
    CHECK(a[0] == 2 && a[9] == 11);
    fx_free(&f);
}

TEST(tileop_vec_scalar_sub_div_numerics)
{
    fx_t f;
    fx_init(&f);
    float x[2] = {5, 7}, d[2];
    tl_operand_t D = OV(UB(d, TL_F32, 2)), X = OV(UB(x, TL_F32, 2));
    tl_op_t sub = top(TL_OP_SUB), div = top(TL_OP_DIV), add = top(TL_OP_ADD), mul = top(TL_OP_MUL);
    REQUIRE(RUN(&f, sub, D, X, OF(1.5)) == TL_OK);
    CHECK(d[0] == 3.5f && d[1] == 5.5f);
    REQUIRE(RUN(&f, mul, D, X, OI(-2)) == TL_OK);
    CHECK(d[0] == -10 && d[1] == -14);
    // div(x, 3) = x * fl32(1/3) = x * 0x1.555556p-2: 5 -> 0x1.aaaaacp+0, while true division
    // 5/3 rounds to 0x1.aaaaaap+0; 7 -> 0x1.2aaaacp+1 (7/3 = 0x1.2aaaaap+1).
    REQUIRE(RUN(&f, div, D, X, OF(3)) == TL_OK);
    CHECK(d[0] == 0x1.aaaaacp+0f && d[1] == 0x1.2aaaacp+1f);
    float three[2] = {3, 3};
    REQUIRE(RUN(&f, div, D, X, OV(UB(three, TL_F32, 2))) == TL_OK); // buffer: true division
    CHECK(d[0] == 0x1.aaaaaap+0f && d[1] == 0x1.2aaaaap+1f);
    // bf16: the scalar is converted to bf16 first: 2^-8 + 2^-20 -> 2^-8, and 1 + 2^-8 is a tie
    // -> 1.0 (without the conversion the sum would round up to 1 + 2^-7).
    uint16_t h[2] = {bf(1), bf(1)}, hd[2];
    REQUIRE(RUN(&f, add, OV(UB(hd, TL_BF16, 2)), OV(UB(h, TL_BF16, 2)), OF(0x1p-8 + 0x1p-20)) ==
            TL_OK);
    CHECK_EQ(hd[0], 0x3f80);
    // bf16 buffer + buffer rounds after the op: 1 + 3*2^-9 -> 1 + 2^-7.
    uint16_t e[2] = {bf(3 * 0x1p-9f), bf(0x1p-8f)};
    REQUIRE(RUN(&f, add, OV(UB(hd, TL_BF16, 2)), OV(UB(h, TL_BF16, 2)), OV(UB(e, TL_BF16, 2))) ==
            TL_OK);
    CHECK_EQ(hd[0], 0x3f81);
    CHECK_EQ(hd[1], 0x3f80);
    // bf16 div by scalar: r = bf16(1/3) = 0x1.56p-2 (0.333984375); 3 * r = 1.001953125 -> 1.0.
    uint16_t t3[2] = {bf(3), bf(768)};
    REQUIRE(RUN(&f, div, OV(UB(hd, TL_BF16, 2)), OV(UB(t3, TL_BF16, 2)), OF(3)) == TL_OK);
    CHECK(bf2f(hd[0]) == 1.0f);
    CHECK(bf2f(hd[1]) == 256.0f); // 768 * 0.333984375 = 256.5 -> 256 (spacing 2)
    fx_free(&f);
}

TEST(tileop_vec_integer_arithmetic)
{
    fx_t f;
    fx_init(&f);
    tl_op_t add = top(TL_OP_ADD), mul = top(TL_OP_MUL), sub = top(TL_OP_SUB), div = top(TL_OP_DIV);
    int16_t a16[2] = {32767, -5}, o16[2] = {1, 7}, d16[2];
    REQUIRE(RUN(&f, add, OV(UB(d16, TL_I16, 2)), OV(UB(a16, TL_I16, 2)), OV(UB(o16, TL_I16, 2))) ==
            TL_OK);
    CHECK(d16[0] == -32768 && d16[1] == 2);
    int32_t m[2] = {65536, -3}, dm[2];
    REQUIRE(RUN(&f, mul, OV(UB(dm, TL_I32, 2)), OV(UB(m, TL_I32, 2)), OV(UB(m, TL_I32, 2))) ==
            TL_OK);
    CHECK(dm[0] == 0 && dm[1] == 9);
    int8_t s8[1] = {-128}, d8[1];
    REQUIRE(RUN(&f, sub, OV(UB(d8, TL_I8, 1)), OV(UB(s8, TL_I8, 1)), OI(1)) == TL_OK);
    CHECK(d8[0] == 127);
    // Integer division truncates, also by a scalar (no reciprocal); INT_MIN / -1 wraps.
    int32_t n[3] = {7, -7, INT32_MIN}, q[3] = {2, 2, -1}, r[3];
    REQUIRE(RUN(&f, div, OV(UB(r, TL_I32, 3)), OV(UB(n, TL_I32, 3)), OV(UB(q, TL_I32, 3))) ==
            TL_OK);
    CHECK(r[0] == 3 && r[1] == -3 && r[2] == INT32_MIN);
    REQUIRE(RUN(&f, div, OV(UB(r, TL_I32, 3)), OV(UB(n, TL_I32, 3)), OI(2)) == TL_OK);
    CHECK(r[0] == 3 && r[1] == -3);
    CHECK(RUN(&f, div, OV(UB(r, TL_I32, 3)), OV(UB(n, TL_I32, 3)), OI(0)) == TL_ERR_RUNTIME);
    CHECK_CONTAINS(fx_err(&f), "integer division by zero");
    tl_diag_clear(&f.diag);
    int32_t z[3] = {1, 0, 1};
    CHECK(RUN(&f, div, OV(UB(r, TL_I32, 3)), OV(UB(n, TL_I32, 3)), OV(UB(z, TL_I32, 3))) ==
          TL_ERR_RUNTIME);
    CHECK_CONTAINS(fx_err(&f), "integer division by zero (element 1 of 'z')");
    tl_op_t mx = top(TL_OP_MAX), mn = top(TL_OP_MIN);
    uint8_t u[2] = {200, 5}, du[2];
    REQUIRE(RUN(&f, mx, OV(UB(du, TL_U8, 2)), OV(UB(u, TL_U8, 2)), OI(100)) == TL_OK);
    CHECK(du[0] == 200 && du[1] == 100);
    REQUIRE(RUN(&f, mn, OV(UB(du, TL_U8, 2)), OV(UB(u, TL_U8, 2)), OI(100)) == TL_OK);
    CHECK(du[0] == 100 && du[1] == 5);
    fx_free(&f);
}

TEST(tileop_vec_nan_pow)
{
    fx_t f;
    fx_init(&f);
    float a[2] = {NAN, 1}, b[2] = {1, NAN}, d[2];
    tl_op_t mx = top(TL_OP_MAX), mn = top(TL_OP_MIN), pw = top(TL_OP_POW);
    REQUIRE(RUN(&f, mx, OV(UB(d, TL_F32, 2)), OV(UB(a, TL_F32, 2)), OV(UB(b, TL_F32, 2))) == TL_OK);
    CHECK(isnan(d[0]) && isnan(d[1]));
    REQUIRE(RUN(&f, mn, OV(UB(d, TL_F32, 2)), OV(UB(a, TL_F32, 2)), OF(0)) == TL_OK);
    CHECK(isnan(d[0]) && d[1] == 0);
    float x[3] = {2, 3, 4}, e[3] = {3, 2, 0.5f}, p[3];
    REQUIRE(RUN(&f, pw, OV(UB(p, TL_F32, 3)), OV(UB(x, TL_F32, 3)), OV(UB(e, TL_F32, 3))) == TL_OK);
    CHECK(p[0] == 8 && p[1] == 9 && p[2] == 2);
    REQUIRE(RUN(&f, pw, OV(UB(p, TL_F32, 3)), OV(UB(x, TL_F32, 3)), OF(2)) == TL_OK);
    CHECK(p[0] == 4 && p[1] == 9 && p[2] == 16);
    // int32: exact integer powers (upstream's ascendc pow); int16: unsupported
    int32_t i[3] = {-3, 2, 7}, ie[3] = {3, -1, 0}, ip[3];
    REQUIRE(RUN(&f, pw, OV(UB(ip, TL_I32, 3)), OV(UB(i, TL_I32, 3)), OV(UB(ie, TL_I32, 3))) == TL_OK);
    CHECK(ip[0] == -27 && ip[1] == 0 && ip[2] == 1);
    REQUIRE(RUN(&f, pw, OV(UB(i, TL_I32, 1)), OV(UB(i, TL_I32, 1)), OI(2)) == TL_OK);
    CHECK(i[0] == 9);
    int16_t h[1] = {2};
    CHECK(RUN(&f, pw, OV(UB(h, TL_I16, 1)), OV(UB(h, TL_I16, 1)), OI(2)) == TL_ERR_UNSUPPORTED);
    CHECK_CONTAINS(fx_err(&f), "T.tile.pow: does not support int16");
    fx_free(&f);
}

TEST(tileop_vec_bitwise_shift)
{
    fx_t f;
    fx_init(&f);
    tl_op_t band = top(TL_OP_AND), bor = top(TL_OP_OR), bxor = top(TL_OP_XOR);
    int16_t a[2] = {0x0f0f, -1}, b[2] = {0x00ff, 0x1234}, d[2];
    tl_operand_t D = OV(UB(d, TL_I16, 2)), A = OV(UB(a, TL_I16, 2)), B = OV(UB(b, TL_I16, 2));
    REQUIRE(RUN(&f, band, D, A, B) == TL_OK);
    CHECK(d[0] == 0x000f && d[1] == 0x1234);
    REQUIRE(RUN(&f, bor, D, A, B) == TL_OK);
    CHECK(d[0] == 0x0fff && d[1] == -1);
    REQUIRE(RUN(&f, bxor, D, A, B) == TL_OK);
    CHECK(d[0] == 0x0ff0 && d[1] == (int16_t)0xedcb);
    REQUIRE(RUN(&f, band, D, A, OI(0xff)) == TL_OK);
    CHECK(d[0] == 0x0f && d[1] == 0xff);
    // float32 operands work on their bit patterns: -1.5 & 0x7fffffff = 1.5.
    float x[1] = {-1.5f}, m[1], y[1];
    uint32_t bits = 0x7fffffffu;
    memcpy(m, &bits, 4);
    REQUIRE(RUN(&f, band, OV(UB(y, TL_F32, 1)), OV(UB(x, TL_F32, 1)), OV(UB(m, TL_F32, 1))) ==
            TL_OK);
    CHECK(y[0] == 1.5f);

    tl_op_t shl = top(TL_OP_SHL), shr = top(TL_OP_SHR);
    int16_t s[2] = {-8, 3};
    REQUIRE(RUN(&f, shr, D, OV(UB(s, TL_I16, 2)), OI(1)) == TL_OK);
    CHECK(d[0] == -4 && d[1] == 1); // arithmetic for signed types
    uint16_t u[1] = {0x8000}, du[1];
    REQUIRE(RUN(&f, shr, OV(UB(du, TL_U16, 1)), OV(UB(u, TL_U16, 1)), OI(15)) == TL_OK);
    CHECK(du[0] == 1);
    int8_t c[1] = {64}, dc[1];
    REQUIRE(RUN(&f, shl, OV(UB(dc, TL_I8, 1)), OV(UB(c, TL_I8, 1)), OI(1)) == TL_OK);
    CHECK(dc[0] == -128);
    CHECK(RUN(&f, shl, D, OV(UB(s, TL_I16, 2)), OI(16)) == TL_ERR_RUNTIME);
    CHECK_CONTAINS(fx_err(&f), "shift amount 16 is outside [0, 16) for int16");
    tl_diag_clear(&f.diag);
    CHECK(RUN(&f, shl, OV(UB(y, TL_F32, 1)), OV(UB(x, TL_F32, 1)), OI(1)) == TL_ERR_UNSUPPORTED);
    CHECK_CONTAINS(fx_err(&f), "needs an integer dtype, 'y' is float32");
    fx_free(&f);
}

TEST(tileop_vec_fill)
{
    fx_t f;
    fx_init(&f);
    tl_op_t fill = top(TL_OP_FILL);
    uint16_t h[3];
    REQUIRE(RUN(&f, fill, OV(UB(h, TL_BF16, 3)), OF(1.0 / 3)) == TL_OK);
    CHECK(h[0] == 0x3eab && h[2] == 0x3eab); // 1/3 rounded to 8 significant bits
    int8_t c[2];
    REQUIRE(RUN(&f, fill, OV(UB(c, TL_I8, 2)), OI(300)) == TL_OK);
    CHECK(c[0] == 44 && c[1] == 44); // integer scalars wrap (300 - 256)
    REQUIRE(RUN(&f, fill, OV(UB(c, TL_I8, 2)), OF(300.7)) == TL_OK);
    CHECK(c[0] == 127); // float scalars truncate and saturate
    float acc[3][4];
    memset(acc, 0, sizeof acc);
    REQUIRE(RUN(&f, fill, OV(tv_sub(UB(acc, TL_F32, 3, 4), DIMS(1, 0), DIMS(1, 4))),
                OF(-INFINITY)) == TL_OK);
    CHECK(acc[0][3] == 0 && isinf(acc[1][0]) && acc[1][3] < 0 && acc[2][0] == 0);
    fx_free(&f);
}

TEST(tileop_vec_fused_forms)
{
    fx_t f;
    fx_init(&f);
    float x[4] = {-2, 3, 9, NAN}, d[4];
    tl_operand_t D = OV(UB(d, TL_F32, 4)), X = OV(UB(x, TL_F32, 4));
    tl_op_t lr = top(TL_OP_LEAKY_RELU);
    REQUIRE(RUN(&f, lr, D, X, OF(0.25)) == TL_OK);
    CHECK(d[0] == -0.5f && d[1] == 3 && d[2] == 9);
    d[1] = 100;
    REQUIRE(RUN(&f, lr, D, X, OF(0.5), OI(1)) == TL_OK); // count: first element only
    CHECK(d[0] == -1 && d[1] == 100);
    tl_op_t cl = top(TL_OP_CLAMP), cmax = top(TL_OP_CLAMP_MAX), cmin = top(TL_OP_CLAMP_MIN);
    REQUIRE(RUN(&f, cl, D, X, OF(-1), OF(4), OI(4)) == TL_OK);
    CHECK(d[0] == -1 && d[1] == 3 && d[2] == 4 && isnan(d[3]));
    REQUIRE(RUN(&f, cmax, D, X, OF(0), OI(4)) == TL_OK);
    CHECK(d[0] == -2 && d[1] == 0 && d[2] == 0);
    REQUIRE(RUN(&f, cmin, D, X, OF(0), OI(4)) == TL_OK);
    CHECK(d[0] == 0 && d[1] == 3 && d[2] == 9);
    // axpy: dst = s * src + dst; also float16 src into a float32 dst.
    tl_op_t axpy = top(TL_OP_AXPY);
    float y[2] = {1, 2}, s[2] = {3, 4};
    REQUIRE(RUN(&f, axpy, OV(UB(y, TL_F32, 2)), OV(UB(s, TL_F32, 2)), OF(2)) == TL_OK);
    CHECK(y[0] == 7 && y[1] == 10);
    uint16_t hs[2] = {hf(0.5f), hf(-1)};
    REQUIRE(RUN(&f, axpy, OV(UB(y, TL_F32, 2)), OV(UB(hs, TL_F16, 2)), OF(3)) == TL_OK);
    CHECK(y[0] == 8.5f && y[1] == 7);
    // mul_add_dst: dst = s0 * s1 + dst.
    tl_op_t mad = top(TL_OP_MUL_ADD_DST);
    float acc[2] = {1, 1}, s0[2] = {2, 3}, s1[2] = {4, 5};
    REQUIRE(RUN(&f, mad, OV(UB(acc, TL_F32, 2)), OV(UB(s0, TL_F32, 2)), OV(UB(s1, TL_F32, 2))) ==
            TL_OK);
    CHECK(acc[0] == 9 && acc[1] == 16);
    int32_t ia[2] = {1, 1}, i0[2] = {2, 3}, i1[2] = {4, 5};
    REQUIRE(RUN(&f, mad, OV(UB(ia, TL_I32, 2)), OV(UB(i0, TL_I32, 2)), OV(UB(i1, TL_I32, 2))) ==
            TL_OK);
    CHECK(ia[0] == 9 && ia[1] == 16);
    fx_free(&f);
}

TEST(tileop_vec_flat_span_regions)
{
    fx_t f;
    fx_init(&f);
    tl_op_t add = top(TL_OP_ADD);
    // acc[1, :] of a [3, 4] buffer: the 4 elements of row 1.
    float acc[12];
    for (int i = 0; i < 12; i++) acc[i] = (float)i;
    tl_view_t row = tv_sub(UB(acc, TL_F32, 3, 4), DIMS(1, 0), DIMS(1, 4));
    REQUIRE(RUN(&f, add, OV(row), OV(row), OF(100)) == TL_OK);
    CHECK(acc[3] == 3 && acc[4] == 104 && acc[7] == 107 && acc[8] == 8);
    // sum_exp[:, 0] of an (n, 1) buffer is its n contiguous elements.
    float sum_exp[3] = {1, 2, 3}, sink[3] = {10, 20, 30};
    tl_view_t col = tv_sub(UB(sum_exp, TL_F32, 3, 1), DIMS(0, 0), DIMS(3, 1));
    REQUIRE(RUN(&f, add, OV(col), OV(col), OV(UB(sink, TL_F32, 3))) == TL_OK);
    CHECK(sum_exp[0] == 11 && sum_exp[1] == 22 && sum_exp[2] == 33);
    fx_free(&f);
}

TEST(tileop_vec_errors)
{
    fx_t f;
    fx_init(&f);
    tl_op_t add = top(TL_OP_ADD), cl = top(TL_OP_CLAMP_MAX);
    float a[8], x[4];
    uint16_t h[4];
    memset(a, 0, sizeof a), memset(x, 0, sizeof x), memset(h, 0, sizeof h);
    tl_view_t blk = tv_sub(UB(a, TL_F32, 2, 4), DIMS(0, 0), DIMS(2, 2));
    CHECK(RUN(&f, add, OV(blk), OV(blk), OF(1)) == TL_ERR_UNSUPPORTED);
    CHECK_CONTAINS(fx_err(&f),
                   "region of 'a' [2, 4] at [0, 0] with extents [2, 2] is not contiguous");
    tl_diag_clear(&f.diag);
    CHECK(RUN(&f, cl, OV(UB(x, TL_F32, 4)), OV(UB(a, TL_F32, 8)), OF(0), OI(6)) == TL_ERR_RUNTIME);
    CHECK_CONTAINS(fx_err(&f), "span of 'x' (elements 0..5) runs past its end: x has 4 elements");
    tl_diag_clear(&f.diag);
    CHECK(RUN(&f, add, OV(UB(x, TL_F32, 4)), OV(UB(x, TL_F32, 4)), OV(UB(h, TL_F16, 4))) ==
          TL_ERR_RUNTIME);
    CHECK_CONTAINS(fx_err(&f), "operands need the same dtype: 'x' is float32, 'h' is float16");
    tl_diag_clear(&f.diag);
    CHECK(RUN(&f, add, OV(UB(x, TL_F32, 4)), OV(UB(a, TL_F32, 8)), OF(1)) == TL_ERR_RUNTIME);
    CHECK_CONTAINS(fx_err(&f), "operands differ in size: 'x' has 4 elements, 'a' has 8");
    tl_diag_clear(&f.diag);
    double dd[2];
    CHECK(RUN(&f, add, OV(UB(dd, TL_F64, 2)), OV(UB(dd, TL_F64, 2)), OF(1)) == TL_ERR_UNSUPPORTED);
    CHECK_CONTAINS(fx_err(&f), "does not support float64");
    tl_diag_clear(&f.diag);
    CHECK(RUN(&f, add, OV(UB(x, TL_F32, 4)), OV(GM(x, TL_F32, 4)), OF(1)) == TL_ERR_RUNTIME);
    CHECK_CONTAINS(fx_err(&f), "T.tile.add: operand 'x' must be in UB, not gm");
    fx_free(&f);
}
