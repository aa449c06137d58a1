// T.copy on every path (GM<->UB/L1, L1->L0A/L0B, L0C->GM, UB->UB, virtual
// hand-offs), the shape rule (start points, unit dims, right alignment, GM
// clipping), pad and zero fill, conversions, errors; T.tile.atomic_add.
#include "test_tileop.h"

static tl_op_t copy_op(void)
{
    return top(TL_OP_COPY);
}

// A[i][j] = 10 i + j for a [3, 5] float32 tensor.
static void fill_a(float *a)
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 5; j++) a[i * 5 + j] = (float)(10 * i + j);
}

TEST(tileop_copy_gm_ub_tail_clip_and_pad)
{
    fx_t f;
    fx_init(&f);
    float A[15], ub[8];
    fill_a(A);
    for (int i = 0; i < 8; i++) ub[i] = 99;
    tl_op_t op = copy_op();
    // A[2, 2] -> ub [2, 4]: the box is clipped to 1 row x 3 columns; the rest is pad.
    tl_operand_t args[] = {OV(tv_at(GM(A, TL_F32, 3, 5), DIMS(2, 2))), OV(UB(ub, TL_F32, 2, 4))};
    tl_opcall_t c = tcall(&op, 2, args);
    c.has_pad = true;
    c.pad = OF(-1).scalar;
    REQUIRE(tl_tileop_run(&f.ctx, &c) == TL_OK);
    float want[8] = {22, 23, 24, -1, -1, -1, -1, -1};
    for (int i = 0; i < 8; i++) CHECK(ub[i] == want[i]);
    // Without pad_value the tail is 0; a full box leaves no pad.
    REQUIRE(RUN(&f, op, OV(tv_at(GM(A, TL_F32, 3, 5), DIMS(1, 3))), OV(UB(ub, TL_F32, 2, 4))) ==
            TL_OK);
    float want2[8] = {13, 14, 0, 0, 23, 24, 0, 0};
    for (int i = 0; i < 8; i++) CHECK(ub[i] == want2[i]);
    REQUIRE(RUN(&f, op, OV(tv_at(GM(A, TL_F32, 3, 5), DIMS(0, 1))), OV(UB(ub, TL_F32, 2, 4))) ==
            TL_OK);
    float want3[8] = {1, 2, 3, 4, 11, 12, 13, 14};
    for (int i = 0; i < 8; i++) CHECK(ub[i] == want3[i]);
    fx_free(&f);
}

TEST(tileop_copy_mixed_rank_alignment)
{
    fx_t f;
    fx_init(&f);
    tl_op_t op = copy_op();
    // GM [1, 4] int8 into UB [8]: 4 elements moved, the other 4 get pad 7.
    int8_t g[2][4] = {{1, 2, 3, 4}, {-5, -6, -7, -8}}, u[8];
    memset(u, 0x55, sizeof u);
    tl_operand_t args[] = {OV(tv_sub(GM(g, TL_I8, 2, 4), DIMS(1, 0), DIMS(1, 4))),
                           OV(UB(u, TL_I8, 8))};
    tl_opcall_t c = tcall(&op, 2, args);
    c.has_pad = true;
    c.pad = OI(7).scalar;
    REQUIRE(tl_tileop_run(&f.ctx, &c) == TL_OK);
    int8_t want[8] = {-5, -6, -7, -8, 7, 7, 7, 7};
    for (int i = 0; i < 8; i++) CHECK_EQ(u[i], want[i]);

    // GM row kv[1, 2, :] ([1, 1, 6]) into the UB row kv_ub[3, :] ([1, 6]).
    float kv[2 * 3 * 6], kv_ub[4 * 6];
    for (int i = 0; i < 36; i++) kv[i] = (float)i;
    for (int i = 0; i < 24; i++) kv_ub[i] = -1;
    REQUIRE(RUN(&f, op, OV(tv_sub(GM(kv, TL_F32, 2, 3, 6), DIMS(1, 2, 0), DIMS(1, 1, 6))),
                OV(tv_sub(UB(kv_ub, TL_F32, 4, 6), DIMS(3, 0), DIMS(1, 6)))) == TL_OK);
    for (int j = 0; j < 6; j++) CHECK(kv_ub[18 + j] == (float)(30 + j)); // (1*3 + 2)*6 + j
    for (int i = 0; i < 18; i++) CHECK(kv_ub[i] == -1);

    // A start point with more indices than the tile has dimensions: X[1, 0, 0] with a
    // [2, 3] destination moves X[1, 0:2, 0:3].
    float x[2 * 2 * 3], tile[6];
    for (int i = 0; i < 12; i++) x[i] = (float)i;
    REQUIRE(RUN(&f, op, OV(tv_at(GM(x, TL_F32, 2, 2, 3), DIMS(1, 0, 0))),
                OV(UB(tile, TL_F32, 2, 3))) == TL_OK);
    for (int i = 0; i < 6; i++) CHECK(tile[i] == (float)(6 + i));
    fx_free(&f);
}

TEST(tileop_copy_column_and_3d)
{
    fx_t f;
    fx_init(&f);
    tl_op_t op = copy_op();
    float A[15], col[3];
    fill_a(A);
    // A[0:3, 1] (a column: extents [3, 1]) into a [3] buffer: the right elements.
    REQUIRE(RUN(&f, op, OV(tv_sub(GM(A, TL_F32, 3, 5), DIMS(0, 1), DIMS(3, 1))),
                OV(UB(col, TL_F32, 3))) == TL_OK);
    CHECK(col[0] == 1 && col[1] == 11 && col[2] == 21);
    // A 3-D box: X[0:2, 1:3, 0:2] of [2, 3, 4] into a [2, 2, 2] buffer.
    float x[24], y[8];
    for (int i = 0; i < 24; i++) x[i] = (float)i;
    REQUIRE(RUN(&f, op, OV(tv_sub(GM(x, TL_F32, 2, 3, 4), DIMS(0, 1, 0), DIMS(2, 2, 2))),
                OV(UB(y, TL_F32, 2, 2, 2))) == TL_OK);
    float want[8] = {4, 5, 8, 9, 16, 17, 20, 21};
    for (int i = 0; i < 8; i++) CHECK(y[i] == want[i]);
    fx_free(&f);
}

TEST(tileop_copy_ub_gm_clipped)
{
    fx_t f;
    fx_init(&f);
    tl_op_t op = copy_op();
    float C[9], cub[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    for (int i = 0; i < 9; i++) C[i] = 0;
    // cub [2, 4] -> C[2, 1] of a [3, 3] tensor: only 1 row x 2 columns fit.
    REQUIRE(RUN(&f, op, OV(UB(cub, TL_F32, 2, 4)), OV(tv_at(GM(C, TL_F32, 3, 3), DIMS(2, 1)))) ==
            TL_OK);
    float want[9] = {0, 0, 0, 0, 0, 0, 0, 1, 2};
    for (int i = 0; i < 9; i++) CHECK(C[i] == want[i]);
    // A GM destination region smaller than the source bounds what is written.
    REQUIRE(RUN(&f, op, OV(UB(cub, TL_F32, 2, 4)),
                OV(tv_sub(GM(C, TL_F32, 3, 3), DIMS(0, 0), DIMS(1, 3)))) == TL_OK);
    CHECK(C[0] == 1 && C[1] == 2 && C[2] == 3 && C[3] == 0);
    fx_free(&f);
}

TEST(tileop_copy_gm_l1_zero_fill)
{
    fx_t f;
    fx_init(&f);
    tl_op_t op = copy_op();
    uint16_t A[9], l1[16];
    for (int i = 0; i < 9; i++) A[i] = hf((float)(i + 1));
    for (int i = 0; i < 16; i++) l1[i] = 0x7bff; // garbage (65504)
    // A[1, 1] of [3, 3] into a [4, 4] L1 tile: a 2x2 box, the rest zero (K tails add 0).
    REQUIRE(RUN(&f, op, OV(tv_at(GM(A, TL_F16, 3, 3), DIMS(1, 1))),
                OV(VIEW(l1, TL_F16, TL_SCOPE_L1, 4, 4))) == TL_OK);
    float want[16] = {5, 6, 0, 0, 8, 9, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    for (int i = 0; i < 16; i++) CHECK(hf2f(l1[i]) == want[i] && l1[i] != 0x8000);
    fx_free(&f);
}

TEST(tileop_copy_l1_l0_transpose_and_subtile)
{
    fx_t f;
    fx_init(&f);
    tl_op_t op = copy_op();
    // B_L1 (N=2, K=3) -> B_L0 (K=3, N=2) with transpose: dst[k][n] = src[n][k].
    uint16_t b1[6], b0[6];
    for (int i = 0; i < 6; i++) b1[i] = hf((float)(i + 1)); // [[1,2,3],[4,5,6]]
    op.transpose = true;
    REQUIRE(RUN(&f, op, OV(VIEW(b1, TL_F16, TL_SCOPE_L1, 2, 3)),
                OV(VIEW(b0, TL_F16, TL_SCOPE_L0B, 3, 2))) == TL_OK);
    float want[6] = {1, 4, 2, 5, 3, 6};
    for (int i = 0; i < 6; i++) CHECK(hf2f(b0[i]) == want[i]);
    // Without transpose, a K slice of an L1 tile into L0A: a1[0:2, 2:4] of [2, 4].
    op.transpose = false;
    uint16_t a1[8], a0[4];
    for (int i = 0; i < 8; i++) a1[i] = hf((float)i);
    REQUIRE(RUN(&f, op, OV(tv_sub(VIEW(a1, TL_F16, TL_SCOPE_L1, 2, 4), DIMS(0, 2), DIMS(2, 2))),
                OV(VIEW(a0, TL_F16, TL_SCOPE_L0A, 2, 2))) == TL_OK);
    CHECK(hf2f(a0[0]) == 2 && hf2f(a0[1]) == 3 && hf2f(a0[2]) == 6 && hf2f(a0[3]) == 7);
    fx_free(&f);
}

// Transposing copies of an odd-sized sub-tile (more than one 16 x 16 block,
// partial blocks at both edges) for every element size: dst[k][n] =
// src[n0 + n][k0 + k], the destination's other elements untouched.
TEST(tileop_copy_l1_l0_transpose_blocks_every_size)
{
    enum { SR = 40, SC = 50, N = 37, K = 21, N0 = 2, K0 = 5, DC = 40 };
    static const tl_dtype_t types[] = {TL_I8, TL_BF16, TL_F32, TL_I64};
    static uint8_t src[SR * SC * 8], dst[K * DC * 8];
    for (int ti = 0; ti < 4; ti++) {
        fx_t f;
        fx_init(&f);
        tl_op_t op = copy_op();
        op.transpose = true;
        int sz = tl_dtype_size(types[ti]);
        for (int i = 0; i < SR * SC * sz; i++) src[i] = (uint8_t)(i * 7 + i / 251);
        memset(dst, 0xA5, sizeof dst);
        tl_view_t s = tv(src, (size_t)(SR * SC * sz), types[ti], TL_SCOPE_L1, "s", 2, DIMS(SR, SC));
        tl_view_t d = tv(dst, (size_t)(K * DC * sz), types[ti], TL_SCOPE_L0B, "d", 2, DIMS(K, DC));
        REQUIRE(RUN(&f, op, OV(tv_sub(s, DIMS(N0, K0), DIMS(N, K))),
                    OV(tv_sub(d, DIMS(0, 0), DIMS(K, N)))) == TL_OK);
        int bad = 0;
        for (int k = 0; k < K; k++)
            for (int n = 0; n < DC; n++)
                for (int b = 0; b < sz; b++) {
                    uint8_t got = dst[(k * DC + n) * sz + b];
                    uint8_t want = n < N ? src[((N0 + n) * SC + K0 + k) * sz + b] : 0xA5;
                    bad += got != want;
                }
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
    // Same dtype: a move, here between rows of two buffers.
    float m[2][3] = {{1, 2, 3}, {4, 5, 6}}, n[3] = {0, 0, 0};
    REQUIRE(RUN(&f, op, OV(tv_sub(UB(m, TL_F32, 2, 3), DIMS(1, 0), DIMS(1, 3))),
                OV(UB(n, TL_F32, 3))) == TL_OK);
    CHECK(n[0] == 4 && n[1] == 5 && n[2] == 6);
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

TEST(tileop_copy_errors)
{
    fx_t f;
    fx_init(&f);
    tl_op_t op = copy_op();
    float big[64], a_ub[16], A[15];
    fill_a(A);
    // A source larger than an on-chip destination.
    CHECK(RUN(&f, op, OV(tv_sub(GM(big, TL_F32, 8, 8), DIMS(0, 0), DIMS(8, 4))),
              OV(UB(a_ub, TL_F32, 4, 4))) == TL_ERR_RUNTIME);
    CHECK_CONTAINS(fx_err(&f), "T.copy: source [8, 4] does not fit destination 'a_ub' [4, 4]");
    // A unit-dimension start outside the tensor.
    tl_diag_clear(&f.diag);
    CHECK(RUN(&f, op, OV(tv_sub(GM(A, TL_F32, 3, 5), DIMS(5, 0), DIMS(1, 4))),
              OV(UB(a_ub, TL_F32, 4))) == TL_ERR_RUNTIME);
    CHECK_CONTAINS(fx_err(&f), "index 5 is out of bounds for dimension 0 of 'A' (size 3)");
    // A start past the end of a clipped dimension moves nothing (the pad fills the tile).
    tl_diag_clear(&f.diag);
    for (int i = 0; i < 4; i++) a_ub[i] = 9;
    REQUIRE(RUN(&f, op, OV(tv_at(GM(A, TL_F32, 3, 5), DIMS(0, 7))), OV(UB(a_ub, TL_F32, 1, 4))) ==
            TL_OK);
    CHECK(a_ub[0] == 0 && a_ub[3] == 0);
    // Illegal paths name both scopes.
    uint16_t l0a[4];
    CHECK(RUN(&f, op, OV(UB(a_ub, TL_F32, 4)), OV(VIEW(l0a, TL_F16, TL_SCOPE_L0A, 4))) ==
          TL_ERR_RUNTIME);
    CHECK_CONTAINS(fx_err(&f), "copy from UB ('a_ub') to L0A ('l0a') is not a legal data path");
    tl_diag_clear(&f.diag);
    float g2[4];
    CHECK(RUN(&f, op, OV(GM(A, TL_F32, 15)), OV(GM(g2, TL_F32, 4))) == TL_ERR_RUNTIME);
    CHECK_CONTAINS(fx_err(&f), "copy from gm ('A') to gm ('g2')");
    // GM -> UB with different dtypes.
    tl_diag_clear(&f.diag);
    uint16_t hub[4];
    CHECK(RUN(&f, op, OV(tv_at(GM(A, TL_F32, 3, 5), DIMS(0, 0))), OV(UB(hub, TL_F16, 4))) ==
          TL_ERR_RUNTIME);
    CHECK_CONTAINS(fx_err(&f), "'A' (float32) to UB 'hub' (float16) needs equal dtypes");
    // An on-chip region outside its buffer.
    tl_diag_clear(&f.diag);
    CHECK(RUN(&f, op, OV(tv_at(GM(A, TL_F32, 3, 5), DIMS(0, 0))),
              OV(tv_sub(UB(a_ub, TL_F32, 4, 4), DIMS(3, 0), DIMS(2, 4)))) == TL_ERR_RUNTIME);
    CHECK_CONTAINS(fx_err(&f), "is outside 'a_ub' [4, 4]");
    // Attributes on the wrong path.
    tl_diag_clear(&f.diag);
    op.enable_relu = true;
    CHECK(RUN(&f, op, OV(tv_at(GM(A, TL_F32, 3, 5), DIMS(0, 0))), OV(UB(a_ub, TL_F32, 4))) ==
          TL_ERR_RUNTIME);
    CHECK_CONTAINS(fx_err(&f), "enable_relu only applies to copies out of L0C");
    fx_free(&f);
}

TEST(tileop_atomic_add)
{
    fx_t f;
    fx_init(&f);
    tl_op_t op = top(TL_OP_ATOMIC_ADD);
    float G[6] = {1, 2, 3, 4, 5, 6}, u[4] = {10, 20, 30, 40};
    // u [2, 2] added at G[1, 2] of [2, 3]: clipped to the single element G[1][2].
    REQUIRE(RUN(&f, op, OV(tv_at(GM(G, TL_F32, 2, 3), DIMS(1, 2))), OV(UB(u, TL_F32, 2, 2))) ==
            TL_OK);
    float want[6] = {1, 2, 3, 4, 5, 16};
    for (int i = 0; i < 6; i++) CHECK(G[i] == want[i]);
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
    float A[15], ub[8];
    fill_a(A);
    for (int i = 0; i < 8; i++) ub[i] = 99;
    // A[2, 3:7] (extents [1, 4], clipped to 2 columns) into ub[1, 0]: the point takes the
    // source's [1, 4]; 2 elements move and the other 2 of that row get the pad.
    tl_view_t src = tv_sub(GM(A, TL_F32, 3, 5), DIMS(2, 3), DIMS(1, 4));
    tl_view_t dst = tv_at(UB(ub, TL_F32, 2, 4), DIMS(1, 0));
    int64_t ext[TL_MAX_DIMS];
    tl_tileop_copy_point_extents(&dst, &src, false, ext);
    CHECK(ext[0] == 1 && ext[1] == 4);
    tl_operand_t args[] = {OV(src), OV(dst)};
    tl_opcall_t c = tcall(&op, 2, args);
    c.has_pad = true;
    c.pad = OF(-7).scalar;
    REQUIRE(tl_tileop_run(&f.ctx, &c) == TL_OK);
    float want[8] = {99, 99, 99, 99, 23, 24, -7, -7};
    for (int i = 0; i < 8; i++) CHECK(ub[i] == want[i]);
    // Transposed inference reverses the other operand's extents.
    float l0[6];
    tl_view_t l1v = VIEW(l0, TL_F32, TL_SCOPE_L1, 2, 3);
    tl_view_t pt = tv_at(VIEW(ub, TL_F32, TL_SCOPE_L0B, 2, 4), DIMS(0, 0));
    tl_tileop_copy_point_extents(&pt, &l1v, true, ext);
    CHECK(ext[0] == 3 && ext[1] == 2);
    fx_free(&f);
}

TEST(tileop_copy_same_rank_column_into_wider_tile)
{
    fx_t f;
    fx_init(&f);
    float A[3], ub[6];
    for (int i = 0; i < 3; i++) A[i] = (float)(i + 1);
    for (int i = 0; i < 6; i++) ub[i] = 99;
    tl_op_t op = copy_op();
    // GM column [3, 1] into UB [3, 2]: same rank, so dimensions line up one to
    // one and the column lands in column 0; column 1 is pad (0).
    REQUIRE(RUN(&f, op, OV(GM(A, TL_F32, 3, 1)), OV(UB(ub, TL_F32, 3, 2))) == TL_OK);
    float want[6] = {1, 0, 2, 0, 3, 0};
    for (int i = 0; i < 6; i++) CHECK(ub[i] == want[i]);
    fx_free(&f);
}
