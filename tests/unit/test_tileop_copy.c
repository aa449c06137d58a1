// T.copy on every path (GM<->UB/L1, L1->L0A/L0B, L0C->GM, UB->UB, virtual
// hand-offs) by the device's copy rule (ir/copy_plan.h): GM clipping, the
// pad fill and the rows' completed 32-byte blocks, the L1 tile clear, the
// flattened moves the device makes (a UB [M, 1] column to a GM row), what it
// cannot do as written (errors), conversions; T.tile.atomic_add. The shape
// matrix against an emulation of the device is test_copy_matrix.c.
#include "test_tileop.h"

static tl_op_t copy_op(void)
{
    return top(TL_OP_COPY);
}

// A[i][j] = 10 i + j for a [3, 10] float32 tensor.
static void fill_a(float *a)
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 10; j++) a[i * 10 + j] = (float)(10 * i + j);
}

TEST(tileop_copy_gm_ub_tail_clip_and_pad)
{
    fx_t f;
    fx_init(&f);
    float A[30], ub[16];
    fill_a(A);
    for (int i = 0; i < 16; i++) ub[i] = 99;
    tl_op_t op = copy_op();
    // A[2, 4] -> ub [2, 8]: the box is clipped to 1 row x 6 columns; the device
    // first sets the tile to the pad (Duplicate), then completes the row's block.
    tl_operand_t args[] = {OV(tv_at(GM(A, TL_F32, 3, 10), DIMS(2, 4))), OV(UB(ub, TL_F32, 2, 8))};
    tl_opcall_t c = tcall(&op, 2, args);
    c.has_pad = true;
    c.pad = OF(-1).scalar;
    REQUIRE(tl_tileop_run(&f.ctx, &c) == TL_OK);
    float want[16] = {24, 25, 26, 27, 28, 29, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1};
    for (int i = 0; i < 16; i++) CHECK(ub[i] == want[i]);
    // Without pad_value the rest is 0: 2 rows of 5 columns (20-byte rows laid 32 B apart,
    // the buffer's pitch); a full box leaves nothing to pad.
    REQUIRE(RUN(&f, op, OV(tv_at(GM(A, TL_F32, 3, 10), DIMS(1, 5))), OV(UB(ub, TL_F32, 2, 8))) ==
            TL_OK);
    float want2[16] = {15, 16, 17, 18, 19, 0, 0, 0, 25, 26, 27, 28, 29, 0, 0, 0};
    for (int i = 0; i < 16; i++) CHECK(ub[i] == want2[i]);
    REQUIRE(RUN(&f, op, OV(tv_at(GM(A, TL_F32, 3, 10), DIMS(0, 1))), OV(UB(ub, TL_F32, 2, 8))) ==
            TL_OK);
    for (int i = 0; i < 16; i++) CHECK(ub[i] == (float)(10 * (i / 8) + i % 8 + 1));
    fx_free(&f);
}

// The LSE store of the sparse MLA kernels: a UB [M, 1] column to a GM row
// [M] moves M elements (DataCopyPad of one row of M from the UB start), not one.
TEST(tileop_copy_flattened_moves)
{
    fx_t f;
    fx_init(&f);
    tl_op_t op = copy_op();
    float lse[16], L[2][32];
    for (int i = 0; i < 16; i++) lse[i] = (float)(i + 1);
    memset(L, 0, sizeof L);
    REQUIRE(RUN(&f, op, OV(UB(lse, TL_F32, 16, 1)),
                OV(tv_sub(GM(L, TL_F32, 2, 32), DIMS(1, 16), DIMS(1, 16)))) == TL_OK);
    for (int j = 0; j < 32; j++) CHECK(L[1][j] == (j < 16 ? 0 : (float)(j - 15)) && L[0][j] == 0);
    // and back: a GM row into a [16, 1] column
    float back[16];
    REQUIRE(RUN(&f, op, OV(tv_sub(GM(L, TL_F32, 2, 32), DIMS(1, 16), DIMS(1, 16))),
                OV(UB(back, TL_F32, 16, 1))) == TL_OK);
    for (int i = 0; i < 16; i++) CHECK(back[i] == (float)(i + 1));
    // a [4, 8] tile to a 1-D GM region of 32, and a GM row of 32 into it
    float tile[32], g[40];
    for (int i = 0; i < 32; i++) tile[i] = (float)i;
    REQUIRE(RUN(&f, op, OV(UB(tile, TL_F32, 4, 8)),
                OV(tv_sub(GM(g, TL_F32, 40), DIMS(8), DIMS(32)))) == TL_OK);
    for (int i = 0; i < 32; i++) CHECK(g[8 + i] == (float)i);
    for (int i = 0; i < 32; i++) tile[i] = -1;
    REQUIRE(RUN(&f, op, OV(tv_sub(GM(g, TL_F32, 40), DIMS(8), DIMS(32))),
                OV(UB(tile, TL_F32, 4, 8))) == TL_OK);
    for (int i = 0; i < 32; i++) CHECK(tile[i] == (float)i);
    fx_free(&f);
}

TEST(tileop_copy_mixed_rank_and_8_bit)
{
    fx_t f;
    fx_init(&f);
    tl_op_t op = copy_op();
    // GM [1, 4] int8 into UB [64]: 4 elements move; the device does not Duplicate
    // 8-bit tiles, but completes the row's 32-byte block with the pad; the rest
    // of the tile keeps its bytes.
    int8_t g[2][4] = {{1, 2, 3, 4}, {-5, -6, -7, -8}}, u[64];
    memset(u, 0x55, sizeof u);
    tl_operand_t args[] = {OV(tv_sub(GM(g, TL_I8, 2, 4), DIMS(1, 0), DIMS(1, 4))),
                           OV(UB(u, TL_I8, 64))};
    tl_opcall_t c = tcall(&op, 2, args);
    c.has_pad = true;
    c.pad = OI(7).scalar;
    REQUIRE(tl_tileop_run(&f.ctx, &c) == TL_OK);
    for (int i = 0; i < 64; i++) CHECK_EQ(u[i], i < 4 ? -5 - i : i < 32 ? 7 : 0x55);
    // GM row kv[1, 2, :] ([1, 1, 8]) into the UB row kv_ub[3, :] ([1, 8]).
    float kv[2 * 3 * 8], kv_ub[4 * 8];
    for (int i = 0; i < 48; i++) kv[i] = (float)i;
    for (int i = 0; i < 32; i++) kv_ub[i] = -1;
    REQUIRE(RUN(&f, op, OV(tv_sub(GM(kv, TL_F32, 2, 3, 8), DIMS(1, 2, 0), DIMS(1, 1, 8))),
                OV(tv_sub(UB(kv_ub, TL_F32, 4, 8), DIMS(3, 0), DIMS(1, 8)))) == TL_OK);
    for (int j = 0; j < 8; j++) CHECK(kv_ub[24 + j] == (float)(40 + j)); // (1*3 + 2)*8 + j
    for (int i = 0; i < 24; i++) CHECK(kv_ub[i] == -1);
    // A start point with more indices than the tile has dimensions: X[1, 0, 0] with a
    // [2, 8] destination moves X[1, 0:2, 0:8].
    float x[2 * 2 * 8], tile[16];
    for (int i = 0; i < 32; i++) x[i] = (float)i;
    REQUIRE(RUN(&f, op, OV(tv_at(GM(x, TL_F32, 2, 2, 8), DIMS(1, 0, 0))),
                OV(UB(tile, TL_F32, 2, 8))) == TL_OK);
    for (int i = 0; i < 16; i++) CHECK(tile[i] == (float)(16 + i));
    fx_free(&f);
}

TEST(tileop_copy_column_and_3d)
{
    fx_t f;
    fx_init(&f);
    tl_op_t op = copy_op();
    float A[30], col[3], wide[24];
    fill_a(A);
    // A[0:3, 1] (a column, extents [3, 1]): the device lays the 3 one-element rows
    // 32 bytes apart in UB, so into a compact [3] buffer it is an error, and into
    // the column [3, 1] of a [3, 8] tile they land in column 0 at the buffer's
    // 32-byte row pitch: the helper's dstN is the buffer's row (8), not the
    // region's (1), so it first sets the tile's 3 x 8 elements to the pad value
    // and pads each row's block with it (isPad: the box is narrower than dstN).
    CHECK(RUN(&f, op, OV(tv_sub(GM(A, TL_F32, 3, 10), DIMS(0, 1), DIMS(3, 1))),
              OV(UB(col, TL_F32, 3))) == TL_ERR_RUNTIME);
    CHECK_CONTAINS(fx_err(&f), "the GM box has 3 rows, the destination (UB) holds only 1 row(s)");
    for (int i = 0; i < 24; i++) wide[i] = 99;
    REQUIRE(RUN(&f, op, OV(tv_sub(GM(A, TL_F32, 3, 10), DIMS(0, 1), DIMS(3, 1))),
                OV(tv_sub(UB(wide, TL_F32, 3, 8), DIMS(0, 0), DIMS(3, 1)))) == TL_OK);
    for (int i = 0; i < 24; i++) CHECK(wide[i] == (i % 8 ? 0 : (float)(10 * (i / 8) + 1)));
    // A 3-D GM box folds into rows only where it is whole: X[0:2, 1:3, 0:8] of
    // [2, 3, 8] is not (upstream: "Cannot flatten non-contiguous high-rank ...").
    fx_free(&f);
    fx_init(&f);
    float x[48], y[32];
    CHECK(RUN(&f, op, OV(tv_sub(GM(x, TL_F32, 2, 3, 8), DIMS(0, 1, 0), DIMS(2, 2, 8))),
              OV(UB(y, TL_F32, 2, 2, 8))) == TL_ERR_RUNTIME);
    CHECK_CONTAINS(fx_err(&f), "Cannot flatten non-contiguous high-rank Ascend GM<->UB copy");
    CHECK_CONTAINS(fx_err(&f), "dimension 1 (from 1, extent 2 of 3) is not whole rows");
    // X[0:2, 0:3, 0:8] is: 6 rows of 8, one row stride, into a [2, 3, 8] tile.
    for (int i = 0; i < 48; i++) x[i] = (float)i;
    float z[48];
    REQUIRE(RUN(&f, op, OV(tv_sub(GM(x, TL_F32, 2, 3, 8), DIMS(0, 0, 0), DIMS(2, 3, 8))),
                OV(UB(z, TL_F32, 2, 3, 8))) == TL_OK);
    for (int i = 0; i < 48; i++) CHECK(z[i] == (float)i);
    fx_free(&f);
}

TEST(tileop_copy_ub_gm_clipped)
{
    fx_t f;
    fx_init(&f);
    tl_op_t op = copy_op();
    float C[15], cub[16];
    for (int i = 0; i < 15; i++) C[i] = 0;
    for (int i = 0; i < 16; i++) cub[i] = (float)(i + 1);
    // cub [2, 8] -> C[2, 1] of a [3, 5] tensor: only 1 row x 4 columns fit.
    REQUIRE(RUN(&f, op, OV(UB(cub, TL_F32, 2, 8)), OV(tv_at(GM(C, TL_F32, 3, 5), DIMS(2, 1)))) ==
            TL_OK);
    for (int i = 0; i < 15; i++) CHECK(C[i] == (i >= 11 ? (float)(i - 10) : 0));
    // A GM destination region of one row takes the source's first elements.
    REQUIRE(RUN(&f, op, OV(UB(cub, TL_F32, 2, 8)),
                OV(tv_sub(GM(C, TL_F32, 3, 5), DIMS(0, 0), DIMS(1, 5)))) == TL_OK);
    CHECK(C[0] == 1 && C[4] == 5 && C[5] == 0);
    fx_free(&f);
}

TEST(tileop_copy_gm_l1_zero_fill)
{
    fx_t f;
    fx_init(&f);
    tl_op_t op = copy_op();
    uint16_t A[3 * 16], l1[4 * 16];
    for (int i = 0; i < 48; i++) A[i] = hf((float)(i + 1));
    for (int i = 0; i < 64; i++) l1[i] = 0x7bff; // garbage (65504)
    // A[1, 0] of [3, 16] into a [4, 16] L1 tile at its base: 2 rows fit; the device
    // clears the whole tile first (K tails add 0).
    REQUIRE(RUN(&f, op, OV(tv_at(GM(A, TL_F16, 3, 16), DIMS(1, 0))),
                OV(VIEW(l1, TL_F16, TL_SCOPE_L1, 4, 16))) == TL_OK);
    for (int i = 0; i < 64; i++) CHECK(hf2f(l1[i]) == (i < 32 ? (float)(i + 17) : 0));
    // Not at the tile's base: no clear (the rest keeps its bytes).
    for (int i = 0; i < 64; i++) l1[i] = 0x7bff;
    REQUIRE(RUN(&f, op, OV(tv_at(GM(A, TL_F16, 3, 16), DIMS(2, 0))),
                OV(tv_sub(VIEW(l1, TL_F16, TL_SCOPE_L1, 4, 16), DIMS(2, 0), DIMS(2, 16)))) ==
            TL_OK);
    for (int i = 0; i < 64; i++) CHECK(l1[i] == (i >= 32 && i < 48 ? A[i] : 0x7bff));
    // A column start inside a fractal (16 float16 = 32 bytes) is an error.
    CHECK(RUN(&f, op, OV(tv_sub(GM(A, TL_F16, 3, 16), DIMS(0, 0), DIMS(1, 8))),
              OV(tv_sub(VIEW(l1, TL_F16, TL_SCOPE_L1, 4, 16), DIMS(0, 8), DIMS(1, 8)))) ==
          TL_ERR_RUNTIME);
    CHECK_CONTAINS(fx_err(&f), "starts at column 8, not a multiple of 16");
    fx_free(&f);
}

TEST(tileop_copy_l1_l0_transpose_and_subtile)
{
    fx_t f;
    fx_init(&f);
    tl_op_t op = copy_op();
    // B_L1 (N=16, K=16) -> B_L0 (K, N) with transpose: dst[k][n] = src[n][k].
    static uint16_t b1[256], b0[256];
    for (int i = 0; i < 256; i++) b1[i] = (uint16_t)i;
    op.transpose = true;
    REQUIRE(RUN(&f, op, OV(VIEW(b1, TL_F16, TL_SCOPE_L1, 16, 16)),
                OV(VIEW(b0, TL_F16, TL_SCOPE_L0B, 16, 16))) == TL_OK);
    for (int k = 0; k < 16; k++)
        for (int n = 0; n < 16; n++) CHECK_EQ(b0[k * 16 + n], b1[n * 16 + k]);
    // Without transpose, a K slice of an L1 tile into L0A: a1[0:16, 16:32] of [16, 32];
    // the L0A tile is the whole buffer whatever the region says.
    op.transpose = false;
    static uint16_t a1[512], a0[256];
    for (int i = 0; i < 512; i++) a1[i] = (uint16_t)i;
    REQUIRE(RUN(&f, op,
                OV(tv_sub(VIEW(a1, TL_F16, TL_SCOPE_L1, 16, 32), DIMS(0, 16), DIMS(16, 16))),
                OV(VIEW(a0, TL_F16, TL_SCOPE_L0A, 16, 16))) == TL_OK);
    for (int i = 0; i < 256; i++) CHECK_EQ(a0[i], a1[(i / 16) * 32 + 16 + i % 16]);
    CHECK(RUN(&f, op, OV(VIEW(a1, TL_F16, TL_SCOPE_L1, 16, 32)),
              OV(tv_sub(VIEW(a0, TL_F16, TL_SCOPE_L0A, 16, 16), DIMS(0, 0), DIMS(8, 16)))) ==
          TL_ERR_RUNTIME);
    CHECK_CONTAINS(fx_err(&f), "the device moves the whole L0A tile (16 x 16");
    fx_free(&f);
}

// Transposing copies of a sub-tile (more than one 16 x 16 block, a partial one
// at the edges) for every element size: dst[k][n] = src[n0 + n][k0 + k].
TEST(tileop_copy_l1_l0_transpose_blocks_every_size)
{
    enum { SR = 64, SC = 64, N = 37, K = 21, N0 = 16, K0 = 32 };
    static const tl_dtype_t types[] = {TL_I8, TL_BF16, TL_F32, TL_I64};
    static uint8_t src[SR * SC * 8], dst[K * N * 8];
    for (int ti = 0; ti < 4; ti++) {
        fx_t f;
        fx_init(&f);
        tl_op_t op = copy_op();
        op.transpose = true;
        int sz = tl_dtype_size(types[ti]);
        for (int i = 0; i < SR * SC * sz; i++) src[i] = (uint8_t)(i * 7 + i / 251);
        memset(dst, 0xA5, sizeof dst);
        tl_view_t s = tv(src, (size_t)(SR * SC * sz), types[ti], TL_SCOPE_L1, "s", 2, DIMS(SR, SC));
        tl_view_t d = tv(dst, (size_t)(K * N * sz), types[ti], TL_SCOPE_L0B, "d", 2, DIMS(K, N));
        REQUIRE(RUN(&f, op, OV(tv_sub(s, DIMS(N0, K0), DIMS(N, K))), OV(d)) == TL_OK);
        int bad = 0;
        for (int k = 0; k < K; k++)
            for (int n = 0; n < N; n++)
                for (int b = 0; b < sz; b++)
                    bad += dst[(k * N + n) * sz + b] != src[((N0 + n) * SC + K0 + k) * sz + b];
        CHECK(bad == 0);
        fx_free(&f);
    }
}

TEST(tileop_copy_l0c_gm_bf16_rounding_relu)
{
    fx_t f;
    fx_init(&f);
    tl_op_t op = copy_op();
    // 1 + 2^-8 is a bf16 tie -> 1.0 (even); 1 + 3*2^-9 is 3/4 of the spacing -> 1 + 2^-7.
    float c[4] = {1 + 0x1p-8f, 1 + 3 * 0x1p-9f, -2.5f, 3.0f};
    uint16_t g[4];
    REQUIRE(RUN(&f, op, OV(VIEW(c, TL_F32, TL_SCOPE_L0C, 1, 4)), OV(GM(g, TL_BF16, 1, 4))) ==
            TL_OK);
    CHECK_EQ(g[0], 0x3f80);
    CHECK_EQ(g[1], 0x3f81);
    CHECK_EQ(g[2], 0xc020);
    CHECK_EQ(g[3], 0x4040);
    op.enable_relu = true;
    REQUIRE(RUN(&f, op, OV(VIEW(c, TL_F32, TL_SCOPE_L0C, 1, 4)), OV(GM(g, TL_BF16, 1, 4))) ==
            TL_OK);
    CHECK_EQ(g[0], 0x3f80);
    CHECK_EQ(g[2], 0x0000);
    // float32 -> float32 with ReLU keeps positives bit-exactly.
    float g32[4];
    REQUIRE(RUN(&f, op, OV(VIEW(c, TL_F32, TL_SCOPE_L0C, 1, 4)), OV(GM(g32, TL_F32, 1, 4))) ==
            TL_OK);
    CHECK(g32[0] == 1 + 0x1p-8f && g32[2] == 0 && g32[3] == 3);
    fx_free(&f);
}

TEST(tileop_copy_l0c_int32_deq_scale)
{
    fx_t f;
    fx_init(&f);
    tl_op_t deq = top(TL_OP_SET_DEQ_SCALE), op = copy_op();
    REQUIRE(RUN(&f, deq, OF(0.5)) == TL_OK);
    CHECK(f.ctx.deq_scale == 0.5f);
    // 3 * 0.5 = 1.5; -7 * 0.5 = -3.5; 4098 * 0.5 = 2049, a float16 tie -> 2048.
    int32_t c[3] = {3, -7, 4098};
    uint16_t g[3];
    REQUIRE(RUN(&f, op, OV(VIEW(c, TL_I32, TL_SCOPE_L0C, 1, 3)), OV(GM(g, TL_F16, 1, 3))) == TL_OK);
    CHECK_EQ(g[0], 0x3e00);
    CHECK_EQ(g[1], 0xc300);
    CHECK_EQ(g[2], 0x6800);
    // int32 -> int32 moves exactly; int32 -> int8 is not a FIX conversion.
    int32_t g32[3];
    REQUIRE(RUN(&f, op, OV(VIEW(c, TL_I32, TL_SCOPE_L0C, 1, 3)), OV(GM(g32, TL_I32, 1, 3))) ==
            TL_OK);
    CHECK(g32[2] == 4098);
    int8_t g8[3];
    CHECK(RUN(&f, op, OV(VIEW(c, TL_I32, TL_SCOPE_L0C, 1, 3)), OV(GM(g8, TL_I8, 1, 3))) ==
          TL_ERR_UNSUPPORTED);
    CHECK_CONTAINS(fx_err(&f), "cannot be converted to int8");
    fx_free(&f);
}

TEST(tileop_copy_virtual_handoffs)
{
    fx_t f;
    fx_init(&f);
    tl_op_t op = copy_op();
    float c[2] = {1.5f, -2.0f}, u[2];
    tl_operand_t l0c = OV(VIEW(c, TL_F32, TL_SCOPE_L0C, 2)), ub = OV(UB(u, TL_F32, 2));
    CHECK(RUN(&f, op, l0c, ub) == TL_ERR_RUNTIME);
    CHECK_CONTAINS(fx_err(&f), "copy from L0C ('c') to UB ('u') is not a legal data path");
    CHECK_CONTAINS(fx_err(&f), "developer-mode");
    f.ctx.allow_virtual_copies = true;
    REQUIRE(RUN(&f, op, l0c, ub) == TL_OK);
    CHECK(u[0] == 1.5f && u[1] == -2.0f);
    uint16_t l1[2];
    tl_diag_clear(&f.diag);
    REQUIRE(RUN(&f, op, ub, OV(VIEW(l1, TL_F16, TL_SCOPE_L1, 2))) ==
            TL_ERR_RUNTIME); // UB->L1 needs equal dtypes
    CHECK_CONTAINS(fx_err(&f), "needs equal dtypes");
    float l1f[2];
    REQUIRE(RUN(&f, op, ub, OV(VIEW(l1f, TL_F32, TL_SCOPE_L1, 2))) == TL_OK);
    CHECK(l1f[0] == 1.5f && l1f[1] == -2.0f);
    fx_free(&f);
}

TEST(tileop_copy_ub_ub_cast_rules)
{
    fx_t f;
    fx_init(&f);
    tl_op_t op = copy_op();
    // float32 -> float16 narrows with CAST_RINT: 1 + 2^-11 (tie) -> 1.0, 1 + 3*2^-11 (tie) ->
    // 1 + 2^-9 (even); 70000 overflows to Inf.
    float a[3] = {1 + 0x1p-11f, 1 + 3 * 0x1p-11f, 70000.0f};
    uint16_t h[3];
    REQUIRE(RUN(&f, op, OV(UB(a, TL_F32, 3)), OV(UB(h, TL_F16, 3))) == TL_OK);
    CHECK_EQ(h[0], 0x3c00);
    CHECK_EQ(h[1], 0x3c02);
    CHECK_EQ(h[2], 0x7c00);
    // float16 -> float32 widens exactly (CAST_NONE).
    float w[3];
    REQUIRE(RUN(&f, op, OV(UB(h, TL_F16, 3)), OV(UB(w, TL_F32, 3))) == TL_OK);
    CHECK(w[0] == 1.0f && w[1] == 1 + 0x1p-9f && w[2] > 1e30f);
    // float32 -> int32 rounds half to even; int32 -> int16 (CAST_NONE) saturates.
    float r[4] = {2.5f, 3.5f, -2.5f, 1e10f};
    int32_t i32[4];
    REQUIRE(RUN(&f, op, OV(UB(r, TL_F32, 4)), OV(UB(i32, TL_I32, 4))) == TL_OK);
    CHECK(i32[0] == 2 && i32[1] == 4 && i32[2] == -2 && i32[3] == INT32_MAX);
    int32_t big[2] = {70000, -70000};
    int16_t i16[2];
    REQUIRE(RUN(&f, op, OV(UB(big, TL_I32, 2)), OV(UB(i16, TL_I16, 2))) == TL_OK);
    CHECK(i16[0] == 32767 && i16[1] == -32768);
    // int8 -> float16 (CAST_NONE) is exact.
    int8_t i8[2] = {-128, 127};
    REQUIRE(RUN(&f, op, OV(UB(i8, TL_I8, 2)), OV(UB(h, TL_F16, 2))) == TL_OK);
    CHECK(hf2f(h[0]) == -128 && hf2f(h[1]) == 127);
    fx_free(&f);
}

TEST(tileop_copy_ub_ub_shapes)
{
    fx_t f;
    fx_init(&f);
    tl_op_t op = copy_op();
    // whole rows both sides: one run of the destination's count (a row of [2, 8]
    // to an [8] buffer; a [16, 1] column to a [1, 16] row)
    float m[2][8], n[8], col[16], row[16];
    for (int i = 0; i < 16; i++) m[i / 8][i % 8] = (float)i, col[i] = (float)(i + 100);
    REQUIRE(RUN(&f, op, OV(tv_sub(UB(m, TL_F32, 2, 8), DIMS(1, 0), DIMS(1, 8))),
                OV(UB(n, TL_F32, 8))) == TL_OK);
    for (int i = 0; i < 8; i++) CHECK(n[i] == (float)(8 + i));
    REQUIRE(RUN(&f, op, OV(UB(col, TL_F32, 16, 1)), OV(UB(row, TL_F32, 1, 16))) == TL_OK);
    for (int i = 0; i < 16; i++) CHECK(row[i] == (float)(100 + i));
    // a column block: rows of the source's width at both buffers' pitches
    float w[4][16], q[4][8];
    for (int i = 0; i < 64; i++) w[i / 16][i % 16] = (float)i;
    REQUIRE(RUN(&f, op, OV(tv_sub(UB(w, TL_F32, 4, 16), DIMS(0, 8), DIMS(4, 8))),
                OV(UB(q, TL_F32, 4, 8))) == TL_OK);
    for (int i = 0; i < 32; i++) CHECK(q[i / 8][i % 8] == (float)((i / 8) * 16 + 8 + i % 8));
    // errors: a same-dtype run that is not whole 32-byte blocks, counts that differ
    CHECK(RUN(&f, op, OV(tv_sub(UB(m, TL_F32, 2, 8), DIMS(0, 0), DIMS(1, 6))),
              OV(tv_sub(UB(n, TL_F32, 8), DIMS(0), DIMS(6)))) == TL_ERR_RUNTIME);
    CHECK_CONTAINS(fx_err(&f), "DataCopy moves whole 32-byte blocks: a run of 6 float32");
    fx_free(&f);
    fx_init(&f);
    CHECK(RUN(&f, op, OV(UB(m, TL_F32, 2, 8)), OV(UB(n, TL_F32, 8))) == TL_ERR_RUNTIME);
    CHECK_CONTAINS(fx_err(&f), "the device copies the destination's 8 elements as one run from "
                               "the source, which has 16");
    fx_free(&f);
}

TEST(tileop_copy_errors)
{
    fx_t f;
    fx_init(&f);
    tl_op_t op = copy_op();
    float big[64], a_ub[32], A[30];
    fill_a(A);
    // A source with more rows than the destination.
    CHECK(RUN(&f, op, OV(tv_sub(GM(big, TL_F32, 8, 8), DIMS(0, 0), DIMS(8, 8))),
              OV(UB(a_ub, TL_F32, 4, 8))) == TL_ERR_RUNTIME);
    CHECK_CONTAINS(fx_err(&f),
                   "T.copy: the GM box has 8 rows, the destination (UB) holds only 4 row(s) of 8");
    // A unit-dimension start outside the tensor (not the box's rows or columns).
    tl_diag_clear(&f.diag);
    float X[60];
    CHECK(RUN(&f, op, OV(tv_sub(GM(X, TL_F32, 2, 3, 10), DIMS(5, 0, 0), DIMS(1, 1, 8))),
              OV(UB(a_ub, TL_F32, 8))) == TL_ERR_RUNTIME);
    CHECK_CONTAINS(fx_err(&f), "index 5 is out of bounds for dimension 0 of 'X' (size 2)");
    // A start past the end of the box's rows or columns moves nothing (the pad fills).
    tl_diag_clear(&f.diag);
    for (int i = 0; i < 8; i++) a_ub[i] = 9;
    REQUIRE(RUN(&f, op, OV(tv_at(GM(A, TL_F32, 3, 10), DIMS(0, 12))), OV(UB(a_ub, TL_F32, 1, 8))) ==
            TL_OK);
    CHECK(a_ub[0] == 0 && a_ub[7] == 0);
    REQUIRE(RUN(&f, op, OV(tv_at(GM(A, TL_F32, 3, 10), DIMS(7, 0))), OV(UB(a_ub, TL_F32, 1, 8))) ==
            TL_OK);
    // Illegal paths name both scopes.
    uint16_t l0a[4];
    CHECK(RUN(&f, op, OV(UB(a_ub, TL_F32, 4)), OV(VIEW(l0a, TL_F16, TL_SCOPE_L0A, 4))) ==
          TL_ERR_RUNTIME);
    CHECK_CONTAINS(fx_err(&f), "copy from UB ('a_ub') to L0A ('l0a') is not a legal data path");
    tl_diag_clear(&f.diag);
    float g2[4];
    CHECK(RUN(&f, op, OV(GM(A, TL_F32, 30)), OV(GM(g2, TL_F32, 4))) == TL_ERR_RUNTIME);
    CHECK_CONTAINS(fx_err(&f), "copy from gm ('A') to gm ('g2')");
    // GM -> UB with different dtypes.
    tl_diag_clear(&f.diag);
    uint16_t hub[16];
    CHECK(RUN(&f, op, OV(tv_at(GM(A, TL_F32, 3, 10), DIMS(0, 0))), OV(UB(hub, TL_F16, 16))) ==
          TL_ERR_RUNTIME);
    CHECK_CONTAINS(fx_err(&f), "'A' (float32) to UB 'hub' (float16) needs equal dtypes");
    // An on-chip region outside its buffer; a UB start that is not 32-byte aligned.
    tl_diag_clear(&f.diag);
    CHECK(RUN(&f, op, OV(tv_at(GM(A, TL_F32, 3, 10), DIMS(0, 0))),
              OV(tv_sub(UB(a_ub, TL_F32, 4, 8), DIMS(3, 0), DIMS(2, 8)))) == TL_ERR_RUNTIME);
    CHECK_CONTAINS(fx_err(&f), "the destination (UB) runs past its buffer: dimension 0 from 3");
    tl_diag_clear(&f.diag);
    CHECK(RUN(&f, op, OV(tv_at(GM(A, TL_F32, 3, 10), DIMS(0, 0))),
              OV(tv_sub(UB(a_ub, TL_F32, 32), DIMS(4), DIMS(8)))) == TL_ERR_RUNTIME);
    CHECK_CONTAINS(fx_err(&f), "the destination (UB) starts at byte 16 of its buffer");
    // Attributes on the wrong path.
    tl_diag_clear(&f.diag);
    op.enable_relu = true;
    CHECK(RUN(&f, op, OV(tv_at(GM(A, TL_F32, 3, 10), DIMS(0, 0))), OV(UB(a_ub, TL_F32, 8))) ==
          TL_ERR_RUNTIME);
    CHECK_CONTAINS(fx_err(&f), "enable_relu only applies to copies out of L0C");
    fx_free(&f);
}

TEST(tileop_atomic_add)
{
    fx_t f;
    fx_init(&f);
    tl_op_t op = top(TL_OP_ATOMIC_ADD);
    float G[20], u[16];
    for (int i = 0; i < 20; i++) G[i] = (float)i;
    for (int i = 0; i < 16; i++) u[i] = 100.0f * (float)(i + 1);
    // u [2, 8] added at G[1, 8] of [2, 10]: clipped to G[1][8..9].
    REQUIRE(RUN(&f, op, OV(tv_at(GM(G, TL_F32, 2, 10), DIMS(1, 8))), OV(UB(u, TL_F32, 2, 8))) ==
            TL_OK);
    for (int i = 0; i < 20; i++) CHECK(G[i] == (float)i + (i == 18 ? 100 : i == 19 ? 200 : 0));
    // L0C float32 into a bf16 tensor: converted to bf16, added in float, rounded to bf16.
    uint16_t g[2] = {0x3f80, 0x3f80};
    float c[2] = {0x1p-8f, 3 * 0x1p-9f};
    REQUIRE(RUN(&f, op, OV(GM(g, TL_BF16, 1, 2)), OV(VIEW(c, TL_F32, TL_SCOPE_L0C, 1, 2))) ==
            TL_OK);
    CHECK_EQ(g[0], 0x3f80); // 1 + 2^-8: tie -> 1.0
    CHECK_EQ(g[1], 0x3f81); // 1 + 3*2^-9 -> 1 + 2^-7
    // int32 wraps.
    int32_t gi[1] = {INT32_MAX}, ui[1] = {1};
    REQUIRE(RUN(&f, op, OV(GM(gi, TL_I32, 1)), OV(UB(ui, TL_I32, 1))) == TL_OK);
    CHECK(gi[0] == INT32_MIN);
    CHECK(RUN(&f, op, OV(UB(u, TL_F32, 4)), OV(UB(u, TL_F32, 4))) == TL_ERR_RUNTIME);
    CHECK_CONTAINS(fx_err(&f), "adds a UB or L0C region into a GM region");
    fx_free(&f);
}

TEST(tileop_copy_point_destination)
{
    fx_t f;
    fx_init(&f);
    tl_op_t op = copy_op();
    float A[30], ub[16];
    fill_a(A);
    for (int i = 0; i < 16; i++) ub[i] = 99;
    // A[2, 3:11] (extents [1, 8], clipped to 2 columns) into ub[1, 0] of [2, 8]:
    // the point takes the source's [1, 8]; 2 elements move and the other 6 of
    // the row get the pad (Duplicate over 1 x 8).
    tl_view_t src = tv_sub(GM(A, TL_F32, 3, 5), DIMS(2, 3), DIMS(1, 8));
    tl_view_t dst = tv_at(UB(ub, TL_F32, 2, 8), DIMS(1, 0));
    int64_t ext[TL_MAX_DIMS];
    tl_copy_point_extents(2, src.extent, 2, ext);
    CHECK(ext[0] == 1 && ext[1] == 8);
    tl_operand_t args[] = {OV(src), OV(dst)};
    tl_opcall_t c = tcall(&op, 2, args);
    c.has_pad = true;
    c.pad = OF(-7).scalar;
    REQUIRE(tl_tileop_run(&f.ctx, &c) == TL_OK);
    float want[16] = {99, 99, 99, 99, 99, 99, 99, 99, 13, 14, -7, -7, -7, -7, -7, -7};
    for (int i = 0; i < 16; i++) CHECK(ub[i] == want[i]);
    // a start point takes the other operand's trailing extents (leading 1s)
    int64_t three[3] = {2, 3, 4};
    tl_copy_point_extents(2, three, 3, ext);
    CHECK(ext[0] == 3 && ext[1] == 4);
    tl_copy_point_extents(3, three + 1, 2, ext);
    CHECK(ext[0] == 1 && ext[1] == 3 && ext[2] == 4);
    fx_free(&f);
}
