// compare (bit-mask layout, modes, NaN), select, broadcast on both axes,
// row_expand, gather (byte offsets), createvecindex, arith_progression,
// transpose and reinterpretcast.
#include "test_tileop.h"

#include <math.h>

TEST(tileop_compare_bit_layout)
{
    fx_t f;
    fx_init(&f);
    tl_op_t op = top(TL_OP_COMPARE);
    float x[10];
    for (int i = 0; i < 10; i++) x[i] = (float)i;
    uint8_t m[4];
    memset(m, 0xff, sizeof m);
    // GT 4.5: elements 5..9 -> byte 0 bits 5, 6, 7; byte 1 bits 0, 1; the rest of byte 1 cleared,
    // bytes past the mask untouched.
    op.cmp = TL_CMPMODE_GT;
    REQUIRE(RUN(&f, op, OV(UB(m, TL_U8, 4)), OV(UB(x, TL_F32, 10)), OF(4.5)) == TL_OK);
    CHECK_EQ(m[0], 0xe0);
    CHECK_EQ(m[1], 0x03);
    CHECK_EQ(m[2], 0xff);
    struct {
        tl_cmp_mode_t mode;
        uint8_t byte0;
    } cases[] = {{TL_CMPMODE_EQ, 0x10},
                 {TL_CMPMODE_NE, 0xef},
                 {TL_CMPMODE_GE, 0xf0},
                 {TL_CMPMODE_LT, 0x0f},
                 {TL_CMPMODE_LE, 0x1f}};
    for (size_t i = 0; i < TL_ARRAY_LEN(cases); i++) {
        op.cmp = cases[i].mode;
        REQUIRE(RUN(&f, op, OV(UB(m, TL_U8, 4)), OV(UB(x, TL_F32, 8)), OI(4)) == TL_OK);
        CHECK_EQ(m[0], cases[i].byte0);
    }
    // Buffer src1; NaN is unequal to itself.
    float a[3] = {1, NAN, 3}, b[3] = {1, NAN, 2};
    op.cmp = TL_CMPMODE_EQ;
    REQUIRE(RUN(&f, op, OV(UB(m, TL_U8, 4)), OV(UB(a, TL_F32, 3)), OV(UB(b, TL_F32, 3))) == TL_OK);
    CHECK_EQ(m[0], 0x01);
    op.cmp = TL_CMPMODE_NE;
    REQUIRE(RUN(&f, op, OV(UB(m, TL_U8, 4)), OV(UB(a, TL_F32, 3)), OV(UB(b, TL_F32, 3))) == TL_OK);
    CHECK_EQ(m[0], 0x06);
    // Integers, and a mask buffer that is too small.
    int32_t iv[9] = {-3, 0, 5, 0, 0, 0, 0, 0, 7};
    op.cmp = TL_CMPMODE_LT;
    REQUIRE(RUN(&f, op, OV(UB(m, TL_U8, 4)), OV(UB(iv, TL_I32, 9)), OI(1)) == TL_OK);
    CHECK_EQ(m[0], 0xfb);
    CHECK_EQ(m[1], 0x00);
    uint8_t small[1];
    CHECK(RUN(&f, op, OV(UB(small, TL_U8, 1)), OV(UB(iv, TL_I32, 9)), OI(1)) == TL_ERR_RUNTIME);
    CHECK_CONTAINS(fx_err(&f), "span of 'small' (elements 0..1) runs past its end");
    fx_free(&f);
}

TEST(tileop_select_modes)
{
    fx_t f;
    fx_init(&f);
    tl_op_t op = top(TL_OP_SELECT);
    uint8_t mask[2] = {0x05, 0x01}; // elements 0, 2 and 8 pick src0
    float a[9], b[9], d[9];
    for (int i = 0; i < 9; i++) a[i] = (float)i, b[i] = (float)(-i - 1);
    op.sel = TL_SEL_TENSOR_TENSOR;
    REQUIRE(RUN(&f, op, OV(UB(d, TL_F32, 9)), OV(UB(mask, TL_U8, 2)), OV(UB(a, TL_F32, 9)),
                OV(UB(b, TL_F32, 9))) == TL_OK);
    float want[9] = {0, -2, 2, -4, -5, -6, -7, -8, 8};
    for (int i = 0; i < 9; i++) CHECK(d[i] == want[i]);
    op.sel = TL_SEL_TENSOR_SCALAR;
    REQUIRE(RUN(&f, op, OV(UB(d, TL_F32, 9)), OV(UB(mask, TL_U8, 2)), OV(UB(a, TL_F32, 9)),
                OF(0.5)) == TL_OK);
    CHECK(d[0] == 0 && d[1] == 0.5f && d[2] == 2 && d[7] == 0.5f && d[8] == 8);
    CHECK(RUN(&f, op, OV(UB(d, TL_F32, 9)), OV(UB(mask, TL_U8, 2)), OV(UB(a, TL_F32, 9)),
              OV(UB(b, TL_F32, 9))) == TL_ERR_RUNTIME);
    CHECK_CONTAINS(fx_err(&f), "mode VSEL_TENSOR_SCALAR_MODE needs a scalar as src1");
    tl_diag_clear(&f.diag);
    op.sel = TL_SEL_CMPMASK_SPR;
    CHECK(RUN(&f, op, OV(UB(d, TL_F32, 9)), OV(UB(mask, TL_U8, 2)), OV(UB(a, TL_F32, 9)), OF(1)) ==
          TL_ERR_RUNTIME);
    CHECK_CONTAINS(fx_err(&f), "mode VSEL_CMPMASK_SPR needs a buffer as src1");
    fx_free(&f);
}

TEST(tileop_broadcast_axes)
{
    fx_t f;
    fx_init(&f);
    tl_op_t op = top(TL_OP_BROADCAST);
    float row[3] = {1, 2, 3}, col[2] = {10, 20}, d[6];
    // (1, 3) -> rows of (2, 3).
    REQUIRE(RUN(&f, op, OV(UB(d, TL_F32, 2, 3)), OV(UB(row, TL_F32, 1, 3))) == TL_OK);
    float w0[6] = {1, 2, 3, 1, 2, 3};
    for (int i = 0; i < 6; i++) CHECK(d[i] == w0[i]);
    // (2, 1) -> columns of (2, 3).
    REQUIRE(RUN(&f, op, OV(UB(d, TL_F32, 2, 3)), OV(UB(col, TL_F32, 2, 1))) == TL_OK);
    float w1[6] = {10, 10, 10, 20, 20, 20};
    for (int i = 0; i < 6; i++) CHECK(d[i] == w1[i]);
    // 1-D sources are matched against dst's columns, then its rows.
    REQUIRE(RUN(&f, op, OV(UB(d, TL_F32, 2, 3)), OV(UB(row, TL_F32, 3))) == TL_OK);
    for (int i = 0; i < 6; i++) CHECK(d[i] == w0[i]);
    REQUIRE(RUN(&f, op, OV(UB(d, TL_F32, 2, 3)), OV(UB(col, TL_F32, 2))) == TL_OK);
    for (int i = 0; i < 6; i++) CHECK(d[i] == w1[i]);
    // An explicit axis wins: a [2] source along axis 1 of a (2, 2) tile.
    float sq[4];
    op.dim = 1;
    REQUIRE(RUN(&f, op, OV(UB(sq, TL_F32, 2, 2)), OV(UB(col, TL_F32, 2))) == TL_OK);
    CHECK(sq[0] == 10 && sq[1] == 10 && sq[2] == 20 && sq[3] == 20);
    op.dim = 0;
    REQUIRE(RUN(&f, op, OV(UB(sq, TL_F32, 2, 2)), OV(UB(col, TL_F32, 2))) == TL_OK);
    CHECK(sq[0] == 10 && sq[1] == 20 && sq[2] == 10 && sq[3] == 20);
    // 1-D fill from one element; a [1, 3] into [2, 4] mismatch.
    op.dim = -1;
    float one[1] = {7}, v[4];
    REQUIRE(RUN(&f, op, OV(UB(v, TL_F32, 4)), OV(UB(one, TL_F32, 1))) == TL_OK);
    CHECK(v[0] == 7 && v[3] == 7);
    float big[8];
    CHECK(RUN(&f, op, OV(UB(big, TL_F32, 2, 4)), OV(UB(row, TL_F32, 1, 3))) == TL_ERR_RUNTIME);
    CHECK_CONTAINS(fx_err(&f), "cannot broadcast 'row' [1, 3] to 'big' [2, 4]");
    fx_free(&f);
}

TEST(tileop_row_expand)
{
    fx_t f;
    fx_init(&f);
    float a[6] = {1, 2, 3, 4, 5, 6}, r[2] = {2, 4}, d[6];
    tl_op_t mul = top(TL_OP_ROW_EXPAND_MUL), sub = top(TL_OP_ROW_EXPAND_SUB),
            dv = top(TL_OP_ROW_EXPAND_DIV);
    tl_operand_t D = OV(UB(d, TL_F32, 2, 3)), A = OV(UB(a, TL_F32, 2, 3)),
                 R = OV(UB(r, TL_F32, 2, 1));
    REQUIRE(RUN(&f, mul, D, A, R) == TL_OK);
    CHECK(d[0] == 2 && d[2] == 6 && d[3] == 16 && d[5] == 24);
    REQUIRE(RUN(&f, sub, D, A, R) == TL_OK);
    CHECK(d[0] == -1 && d[3] == 0 && d[5] == 2);
    REQUIRE(RUN(&f, dv, D, A, R) == TL_OK);
    CHECK(d[1] == 1 && d[3] == 1 && d[4] == 1.25f);
    float r3[3] = {1, 1, 1};
    CHECK(RUN(&f, mul, D, A, OV(UB(r3, TL_F32, 3))) == TL_ERR_RUNTIME);
    CHECK_CONTAINS(fx_err(&f), "'r3' has 3 elements but 'd' has 2 rows");
    fx_free(&f);
}

TEST(tileop_gather_byte_offsets)
{
    fx_t f;
    fx_init(&f);
    tl_op_t op = top(TL_OP_GATHER);
    float src[4] = {10, 20, 30, 40}, d[3] = {0, 0, 0};
    uint32_t off[3] = {12, 0, 4};
    REQUIRE(RUN(&f, op, OV(UB(d, TL_F32, 3)), OV(UB(src, TL_F32, 4)), OV(UB(off, TL_U32, 3)),
                OI(0)) == TL_OK);
    CHECK(d[0] == 40 && d[1] == 10 && d[2] == 20);
    // A base address adds to every offset; count = min(dst, offsets).
    uint32_t off2[3] = {0, 8, 0};
    float d2[2] = {0, 0};
    REQUIRE(RUN(&f, op, OV(UB(d2, TL_F32, 2)), OV(UB(src, TL_F32, 4)), OV(UB(off2, TL_U32, 3)),
                OI(4)) == TL_OK);
    CHECK(d2[0] == 20 && d2[1] == 40);
    // Offsets are relative to the src region origin: src[1:4] with offset 0 -> 20.
    REQUIRE(RUN(&f, op, OV(UB(d2, TL_F32, 2)), OV(tv_sub(UB(src, TL_F32, 4), DIMS(1), DIMS(3))),
                OV(UB(off2, TL_U32, 3)), OI(0)) == TL_OK);
    CHECK(d2[0] == 20 && d2[1] == 40);
    // Past the end, misaligned, wrong offset dtype.
    uint32_t bad[1] = {16};
    CHECK(RUN(&f, op, OV(UB(d, TL_F32, 1)), OV(UB(src, TL_F32, 4)), OV(UB(bad, TL_U32, 1)),
              OI(0)) == TL_ERR_RUNTIME);
    CHECK_CONTAINS(fx_err(&f), "byte offset 16 (element 0 of 'bad') is outside 'src'");
    tl_diag_clear(&f.diag);
    bad[0] = 6;
    CHECK(RUN(&f, op, OV(UB(d, TL_F32, 1)), OV(UB(src, TL_F32, 4)), OV(UB(bad, TL_U32, 1)),
              OI(0)) == TL_ERR_RUNTIME);
    CHECK_CONTAINS(fx_err(&f),
                   "byte offset 6 (element 0 of 'bad') is not element-aligned in 'src'");
    tl_diag_clear(&f.diag);
    float fo[1] = {0};
    CHECK(RUN(&f, op, OV(UB(d, TL_F32, 1)), OV(UB(src, TL_F32, 4)), OV(UB(fo, TL_F32, 1)), OI(0)) ==
          TL_ERR_RUNTIME);
    CHECK_CONTAINS(fx_err(&f), "offsets 'fo' must be uint32 or int32 byte offsets, not float32");
    fx_free(&f);
}

TEST(tileop_index_progressions)
{
    fx_t f;
    fx_init(&f);
    tl_op_t idx = top(TL_OP_CREATEVECINDEX), ap = top(TL_OP_ARITH_PROGRESSION);
    int32_t i[10];
    REQUIRE(RUN(&f, idx, OV(UB(i, TL_I32, 10)), OI(5)) == TL_OK);
    CHECK(i[0] == 5 && i[1] == 6 && i[9] == 14);
    int8_t w[3];
    REQUIRE(RUN(&f, idx, OV(UB(w, TL_I8, 3)), OI(126)) == TL_OK);
    CHECK(w[0] == 126 && w[1] == 127 && w[2] == -128); // wraps
    uint16_t h[4];
    REQUIRE(RUN(&f, idx, OV(UB(h, TL_F16, 4)), OF(-1.5)) == TL_OK);
    CHECK(hf2f(h[0]) == -1.5f && hf2f(h[3]) == 1.5f);
    float a[4] = {0, 0, 0, 9};
    REQUIRE(RUN(&f, ap, OV(UB(a, TL_F32, 4)), OF(1), OF(0.5), OI(3)) == TL_OK);
    CHECK(a[0] == 1 && a[1] == 1.5f && a[2] == 2 && a[3] == 9);
    REQUIRE(RUN(&f, ap, OV(UB(i, TL_I32, 10)), OI(10), OI(-3)) == TL_OK);
    CHECK(i[0] == 10 && i[1] == 7 && i[9] == -17);
    fx_free(&f);
}

TEST(tileop_transpose_reinterpret)
{
    fx_t f;
    fx_init(&f);
    tl_op_t tr = top(TL_OP_TRANSPOSE);
    int16_t s[6] = {1, 2, 3, 4, 5, 6}, d[6]; // [[1,2,3],[4,5,6]]
    REQUIRE(RUN(&f, tr, OV(UB(d, TL_I16, 3, 2)), OV(UB(s, TL_I16, 2, 3))) == TL_OK);
    int16_t want[6] = {1, 4, 2, 5, 3, 6};
    for (int i = 0; i < 6; i++) CHECK_EQ(d[i], want[i]);
    // In place through a 1-D view of the same buffer.
    REQUIRE(RUN(&f, tr, OV(UB(s, TL_I16, 6)), OV(UB(s, TL_I16, 2, 3))) == TL_OK);
    for (int i = 0; i < 6; i++) CHECK_EQ(s[i], want[i]);
    CHECK(RUN(&f, tr, OV(UB(d, TL_I16, 2, 3)), OV(UB(s, TL_I16, 2, 3))) == TL_ERR_RUNTIME);
    CHECK_CONTAINS(fx_err(&f), "'d' [2, 3] cannot hold the transpose of 's' [2, 3]");
    tl_op_t rc = top(TL_OP_REINTERPRETCAST);
    rc.dtype = TL_U32;
    float one[2] = {1.0f, -2.0f};
    uint32_t u[2];
    REQUIRE(RUN(&f, rc, OV(UB(u, TL_U32, 2)), OV(UB(one, TL_F32, 2))) == TL_OK);
    CHECK(u[0] == 0x3f800000u && u[1] == 0xc0000000u);
    uint16_t small[2];
    tl_diag_clear(&f.diag);
    CHECK(RUN(&f, rc, OV(UB(small, TL_U16, 2)), OV(UB(one, TL_F32, 2))) == TL_ERR_RUNTIME);
    CHECK_CONTAINS(fx_err(&f), "'small' (4 bytes) cannot hold the 8 bytes of 'one'");
    fx_free(&f);
}
