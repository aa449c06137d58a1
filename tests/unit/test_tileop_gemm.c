// T.gemm_v0 and T.mma: transposes, init vs accumulate, sub-tile operands,
// int8 exactness beyond 2^24 and int32 wrap, float32 accumulation order,
// shape and dtype errors.
#include "test_tileop.h"

#define L1(a, t, ...)  VIEW(a, t, TL_SCOPE_L1, __VA_ARGS__)
#define L0C(a, t, ...) VIEW(a, t, TL_SCOPE_L0C, __VA_ARGS__)

static tl_status_t gemm(fx_t *f, tl_op_t *op, tl_view_t a, tl_view_t b, tl_view_t c, bool init)
{
    tl_operand_t args[] = {OV(a), OV(b), OV(c)};
    tl_opcall_t call = tcall(op, 3, args);
    call.init = OI(init).scalar;
    return tl_tileop_run(&f->ctx, &call);
}

TEST(tileop_gemm_transposes_init_accumulate)
{
    fx_t f;
    fx_init(&f);
    // [[1,2,3],[4,5,6]] @ [[7,8],[9,10],[11,12]] = [[58, 64], [139, 154]]
    float a[] = {1, 2, 3, 4, 5, 6}, at[] = {1, 4, 2, 5, 3, 6};
    float b[] = {7, 8, 9, 10, 11, 12}, bt[] = {7, 9, 11, 8, 10, 12};
    uint16_t ha[6], hat[6], hb[6], hbt[6];
    for (int i = 0; i < 6; i++)
        ha[i] = hf(a[i]), hat[i] = hf(at[i]), hb[i] = hf(b[i]), hbt[i] = hf(bt[i]);
    for (int ta = 0; ta < 2; ta++)
        for (int tb = 0; tb < 2; tb++) {
            tl_op_t op = top(TL_OP_GEMM_V0);
            op.transpose_a = ta, op.transpose_b = tb;
            float c[4] = {100, 100, 100, 100};
            tl_view_t va = ta ? L1(hat, TL_F16, 3, 2) : L1(ha, TL_F16, 2, 3);
            tl_view_t vb = tb ? L1(hbt, TL_F16, 2, 3) : L1(hb, TL_F16, 3, 2);
            REQUIRE(gemm(&f, &op, va, vb, L0C(c, TL_F32, 2, 2), true) == TL_OK);
            CHECK(c[0] == 58 && c[1] == 64 && c[2] == 139 && c[3] == 154);
            REQUIRE(gemm(&f, &op, va, vb, L0C(c, TL_F32, 2, 2), false) == TL_OK);
            CHECK(c[0] == 116 && c[1] == 128 && c[2] == 278 && c[3] == 308);
        }
    fx_free(&f);
}

TEST(tileop_mma_and_subtiles)
{
    fx_t f;
    fx_init(&f);
    tl_op_t op = top(TL_OP_MMA);
    uint16_t a[4] = {bf(1), bf(2), bf(3), bf(4)}, b[4] = {bf(1), bf(0), bf(0), bf(1)};
    float c[4] = {9, 9, 9, 9};
    REQUIRE(gemm(&f, &op, VIEW(a, TL_BF16, TL_SCOPE_L0A, 2, 2),
                 VIEW(b, TL_BF16, TL_SCOPE_L0B, 2, 2), L0C(c, TL_F32, 2, 2), false) == TL_OK);
    CHECK(c[0] == 10 && c[1] == 11 && c[2] == 12 && c[3] == 13); // C + A @ I
    // gemm_v0 on sub-tiles: A = wide[0:2, 1:3] of [2, 4], C = cbig[1:2, 0:2] of [2, 4] (a 1x2
    // row), B = [2, 2].
    tl_op_t g = top(TL_OP_GEMM_V0);
    uint16_t wide[8], bb[4] = {hf(1), hf(2), hf(3), hf(4)};
    for (int i = 0; i < 8; i++) wide[i] = hf((float)i); // [[0,1,2,3],[4,5,6,7]]
    float cbig[8] = {0};
    REQUIRE(gemm(&f, &g, tv_sub(L1(wide, TL_F16, 2, 4), DIMS(1, 1), DIMS(1, 2)),
                 L1(bb, TL_F16, 2, 2), tv_sub(L0C(cbig, TL_F32, 2, 4), DIMS(1, 2), DIMS(1, 2)),
                 true) == TL_OK);
    // [5, 6] @ [[1, 2], [3, 4]] = [23, 34] at cbig[1][2:4]
    float want[8] = {0, 0, 0, 0, 0, 0, 23, 34};
    for (int i = 0; i < 8; i++) CHECK(cbig[i] == want[i]);
    fx_free(&f);
}

TEST(tileop_gemm_int8_exact)
{
    fx_t f;
    fx_init(&f);
    tl_op_t op = top(TL_OP_GEMM_V0);
    // 1041 * 127 * 127 = 16790289 > 2^24, odd: not representable in float32.
    enum { K = 1041 };
    int8_t a[K], b[K];
    memset(a, 127, sizeof a);
    memset(b, 127, sizeof b);
    int32_t c[1] = {0};
    REQUIRE(gemm(&f, &op, L1(a, TL_I8, 1, K), L1(b, TL_I8, K, 1), L0C(c, TL_I32, 1, 1), true) ==
            TL_OK);
    CHECK_EQ(c[0], 16790289);
    // -128 * -128 accumulated onto 2147483000: 2147499384 wraps to -2147467912.
    int8_t m[1] = {-128};
    c[0] = 2147483000;
    REQUIRE(gemm(&f, &op, L1(m, TL_I8, 1, 1), L1(m, TL_I8, 1, 1), L0C(c, TL_I32, 1, 1), false) ==
            TL_OK);
    CHECK_EQ(c[0], -2147467912);
    // uint8 x uint8: 255 * 255 * 2 = 130050.
    uint8_t u[2] = {255, 255};
    REQUIRE(gemm(&f, &op, L1(u, TL_U8, 1, 2), L1(u, TL_U8, 2, 1), L0C(c, TL_I32, 1, 1), true) ==
            TL_OK);
    CHECK_EQ(c[0], 130050);
    fx_free(&f);
}

TEST(tileop_gemm_float32_accumulation)
{
    fx_t f;
    fx_init(&f);
    tl_op_t op = top(TL_OP_GEMM_V0);
    // Products 1, 2^-24, 2^-24 added in k order in float32: 1 + 2^-24 is a tie -> 1, twice.
    // (A double accumulator would give 1 + 2^-23.)
    uint16_t a[3] = {bf(1), bf(0x1p-12f), bf(0x1p-12f)};
    float c[1];
    REQUIRE(gemm(&f, &op, L1(a, TL_BF16, 1, 3), L1(a, TL_BF16, 3, 1), L0C(c, TL_F32, 1, 1), true) ==
            TL_OK);
    CHECK(c[0] == 1.0f);
    // The other order: 2^-24 + 2^-24 + 1 = 1 + 2^-23 exactly.
    uint16_t r[3] = {bf(0x1p-12f), bf(0x1p-12f), bf(1)};
    REQUIRE(gemm(&f, &op, L1(r, TL_BF16, 1, 3), L1(r, TL_BF16, 3, 1), L0C(c, TL_F32, 1, 1), true) ==
            TL_OK);
    CHECK(c[0] == 1 + 0x1p-23f);
    // The same in a full 4x8 register block: every element is 1.0.
    uint16_t a4[4 * 3], b8[3 * 8];
    float c32[32];
    for (int i = 0; i < 4; i++) memcpy(a4 + 3 * i, a, sizeof a);
    for (int j = 0; j < 8; j++) b8[j] = a[0], b8[8 + j] = a[1], b8[16 + j] = a[2];
    REQUIRE(gemm(&f, &op, L1(a4, TL_BF16, 4, 3), L1(b8, TL_BF16, 3, 8), L0C(c32, TL_F32, 4, 8),
                 true) == TL_OK);
    for (int i = 0; i < 32; i++) CHECK(c32[i] == 1.0f);
    fx_free(&f);
}

TEST(tileop_gemm_errors)
{
    fx_t f;
    fx_init(&f);
    tl_op_t op = top(TL_OP_GEMM_V0);
    uint16_t a[6], b[8];
    float c[4];
    memset(a, 0, sizeof a), memset(b, 0, sizeof b);
    CHECK(gemm(&f, &op, L1(a, TL_F16, 2, 3), L1(b, TL_F16, 4, 2), L0C(c, TL_F32, 2, 2), true) ==
          TL_ERR_RUNTIME);
    CHECK_CONTAINS(fx_err(&f),
                   "T.gemm_v0: shapes do not match: A 'a' [2, 3], B 'b' [4, 2], C 'c' [2, 2]");
    tl_diag_clear(&f.diag);
    CHECK(gemm(&f, &op, L1(a, TL_F16, 2, 3), L1(b, TL_BF16, 3, 2), L0C(c, TL_F32, 2, 2), true) ==
          TL_ERR_RUNTIME);
    CHECK_CONTAINS(fx_err(&f), "A 'a' is float16 but B 'b' is bfloat16");
    tl_diag_clear(&f.diag);
    int32_t ci[4];
    CHECK(gemm(&f, &op, L1(a, TL_F16, 2, 3), L1(b, TL_F16, 3, 2), L0C(ci, TL_I32, 2, 2), true) ==
          TL_ERR_UNSUPPORTED);
    CHECK_CONTAINS(fx_err(&f), "float16 inputs cannot accumulate into int32 C 'ci'");
    tl_diag_clear(&f.diag);
    tl_op_t mma = top(TL_OP_MMA);
    CHECK(gemm(&f, &mma, L1(a, TL_F16, 2, 3), L1(b, TL_F16, 3, 2), L0C(c, TL_F32, 2, 2), true) ==
          TL_ERR_RUNTIME);
    CHECK_CONTAINS(fx_err(&f), "T.mma: operand A ('a') must be in L0A, not L1");
    fx_free(&f);
}

TEST(tileop_gemm_blocked_and_tails)
{
    fx_t f;
    fx_init(&f);
    // M = 5, N = 9, K = 3 covers the 4x8 register blocks and both tails:
    // A[i][k] = i + 1, B[k][j] = j + 1 -> C[i][j] = 3 (i + 1)(j + 1), plus 1 when accumulating.
    enum { M = 5, N = 9, K = 3 };
    uint16_t a[M * K], b[K * N], bt[N * K];
    float c[M * N];
    for (int i = 0; i < M; i++)
        for (int k = 0; k < K; k++) a[i * K + k] = hf((float)(i + 1));
    for (int k = 0; k < K; k++)
        for (int j = 0; j < N; j++) b[k * N + j] = bt[j * K + k] = hf((float)(j + 1));
    for (int i = 0; i < M * N; i++) c[i] = 1;
    tl_op_t op = top(TL_OP_GEMM_V0);
    REQUIRE(gemm(&f, &op, L1(a, TL_F16, M, K), L1(b, TL_F16, K, N), L0C(c, TL_F32, M, N), false) ==
            TL_OK);
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) CHECK(c[i * N + j] == 1 + 3 * (i + 1) * (j + 1));
    op.transpose_b = true;
    REQUIRE(gemm(&f, &op, L1(a, TL_F16, M, K), L1(bt, TL_F16, N, K), L0C(c, TL_F32, M, N), true) ==
            TL_OK);
    CHECK(c[0] == 3 && c[8] == 27 && c[4 * N + 8] == 135 && c[3 * N + 7] == 96);
    fx_free(&f);
}
