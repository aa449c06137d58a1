// Golden act_quant (src/ref/act_quant.c): int8 per row / per block, power-of-two
// scales, the amax floor and zero rows, and the float8_e4m3fn variant
// (dsv4_ops.md §5.2/§5.3).
#include "../test.h"

#include <math.h>
#include <stdlib.h>

#include "ref/ref.h"
#include "rt/rng.h"

TEST(ref_act_quant_int8_ties_to_even)
{
    // Row 0: amax 127 -> s = 1, q = x: RNE {127, -2, 4, 0, -0, 2, 100, -127}
    //   (half away from zero: -2.5 -> -3, 0.5 -> 1, -0.5 -> -1).
    // Row 1: amax 254 -> s = 2: q = {127, 2.5, -3.5, 1.5, -0.5, 0.25, 0, 0} -> {127, 2, -4, 2, 0,
    // 0, 0, 0}.
    float x[] = {127, -2.5f, 3.5f, 0.5f, -0.5f, 1.5f, 100.25f, -127, 254, 5, -7, 3, -1, 0.5f, 0, 0};
    int8_t y[16];
    float s[2];
    int8_t rne[] = {127, -2, 4, 0, 0, 2, 100, -127, 127, 2, -4, 2, 0, 0, 0, 0};
    int8_t away[] = {127, -3, 4, 1, -1, 2, 100, -127, 127, 3, -4, 2, -1, 0, 0, 0};
    tl_act_quant_params_t p = tl_act_quant_defaults(2, 8);
    REQUIRE(tl_act_quant_ref(&p, x, y, s, NULL) == TL_OK);
    CHECK(s[0] == 1.0f && s[1] == 2.0f);
    for (int i = 0; i < 16; i++) CHECK_EQ(y[i], rne[i]);
    p.round = TL_CAST_ROUND;
    REQUIRE(tl_act_quant_ref(&p, x, y, s, NULL) == TL_OK);
    for (int i = 0; i < 16; i++) CHECK_EQ(y[i], away[i]);
}

TEST(ref_act_quant_int8_row_max_maps_to_127)
{
    // a / fl(a / 127) is not exactly 127 for these amax values:
    //   0x3F61F24E (0.88260353): 126.99999237 -> rounds to 127
    //   0x3F00CF09 (0.50315911): 127.00000763 -> clamped to 127 before rounding
    // and a negative maximum gives -127 (never -128): s = 300/127, 10/s = 4.233 -> 4.
    float x[] = {
        tl_f32_from_bits(0x3F61F24E), 0.25f, -tl_f32_from_bits(0x3F00CF09), 0.25f, -300, 10};
    int8_t y[6];
    float s[3];
    tl_act_quant_params_t p = tl_act_quant_defaults(3, 2);
    REQUIRE(tl_act_quant_ref(&p, x, y, s, NULL) == TL_OK);
    CHECK_EQ(y[0], 127);
    CHECK_EQ(y[2], -127);
    CHECK_EQ(y[4], -127);
    CHECK_EQ(y[5], 4);
    CHECK(s[2] == 300.0f / 127.0f);
    // The clamp comes before rounding: with directed rounding -127.0000076 would
    // floor to -128 and +127.0000076 ceil to 128.
    p.round = TL_CAST_FLOOR;
    REQUIRE(tl_act_quant_ref(&p, x, y, s, NULL) == TL_OK);
    CHECK_EQ(y[2], -127);
    for (int i = 0; i < 6; i++) x[i] = -x[i];
    p.round = TL_CAST_CEIL;
    REQUIRE(tl_act_quant_ref(&p, x, y, s, NULL) == TL_OK);
    CHECK_EQ(y[2], 127);
}

TEST(ref_act_quant_zero_row_and_amax_floor)
{
    // Row 0 is zero; row 1 has amax 2e-5 < 1e-4. With the floor (default):
    //   s = fl(1e-4 / 127) = 7.8740158e-7 for both rows; y = 0 for row 0;
    //   row 1: 1e-5 / s = 12.7 -> 13, -2e-5 / s = -25.4 -> -25.
    // Without it: row 0 gets s = 0 and y = 0; row 1 gets s = 2e-5/127, y = {64, -127}
    //   (1e-5 / (2e-5/127) = 63.5: a tie -> 64).
    float x[] = {0, 0, 1e-5f, -2e-5f};
    int8_t y[4];
    float s[2];
    tl_act_quant_params_t p = tl_act_quant_defaults(2, 2);
    REQUIRE(tl_act_quant_ref(&p, x, y, s, NULL) == TL_OK);
    CHECK(s[0] == 1e-4f / 127.0f && s[1] == s[0]);
    CHECK_NEAR(s[0], 7.8740158e-7, 1e-13);
    CHECK(y[0] == 0 && y[1] == 0);
    CHECK_EQ(y[2], 13);
    CHECK_EQ(y[3], -25);
    p.amax_floor = 0;
    REQUIRE(tl_act_quant_ref(&p, x, y, s, NULL) == TL_OK);
    CHECK(s[0] == 0.0f && y[0] == 0 && y[1] == 0);
    CHECK(s[1] == 2e-5f / 127.0f);
    CHECK_EQ(y[2], 64);
    CHECK_EQ(y[3], -127);
}

TEST(ref_act_quant_pow2_scale_bit_formula)
{
    // e = exponent field - 127 + (mantissa != 0): ceil(log2 v) for normal v.
    CHECK(tl_act_quant_pow2_scale(1.0f) == 1.0f);
    CHECK(tl_act_quant_pow2_scale(0.125f) == 0.125f); // exact powers stay
    CHECK(tl_act_quant_pow2_scale(1.5f) == 2.0f);
    CHECK(tl_act_quant_pow2_scale(0.75f) == 1.0f);
    CHECK(tl_act_quant_pow2_scale(1.0000001f) == 2.0f);
    CHECK(tl_act_quant_pow2_scale(0x1p-130f) == 0x1p-126f); // subnormal: field 0 -> 2^-126
    CHECK(tl_act_quant_pow2_scale(0.0f) == 0.0f);
    CHECK(isnan(tl_act_quant_pow2_scale(NAN)));

    // In the op, rows with amax 127, 128, 100, 15.875 (= 127 / 8) and 1e-5 (floor 1e-4):
    //   s = 1, 2 (128/127 = 1.0079), 1 (0.787), 0.125 (exact), 2^-20 (7.87e-7 -> 9.54e-7).
    //   Row 1 {128, -64, 1} / 2 = {64, -32, 0.5 -> 0}; row 3 gives 127, row 4 10.
    float x[] = {127, 1, 0, 128, -64, 1, 100, 0, 0, 15.875f, 0, 0, 1e-5f, 0, 0};
    int8_t y[15];
    float s[5];
    tl_act_quant_params_t p = tl_act_quant_defaults(5, 3);
    p.round_scale = true;
    REQUIRE(tl_act_quant_ref(&p, x, y, s, NULL) == TL_OK);
    float expect[] = {1, 2, 1, 0.125f, 0x1p-20f};
    for (int i = 0; i < 5; i++) CHECK(s[i] == expect[i]);
    CHECK(y[3] == 64 && y[4] == -32 && y[5] == 0);
    CHECK_EQ(y[9], 127); // 15.875 / 0.125
    CHECK_EQ(y[12], 10); // 1e-5 / 2^-20 = 10.49
}

TEST(ref_act_quant_blocks_of_128)
{
    // n = 300, block 128 -> 3 blocks of 128, 128, 44; scale is [2, 3].
    // Row 0 maxima 127 (block 0), -254 (block 1), 63.5 (block 2): s = 1, 2, 0.5;
    // the same 3.25 quantizes to 3, 1.625 -> 2 and 6.5 -> 6 (even) in the three blocks.
    // Row 1 has a single 1.0 at column 0: s = 1/127, then the floor twice.
    enum { N = 300 };
    static float x[2 * N];
    static int8_t y[2 * N];
    float s[6];
    x[5] = 127, x[200] = -254, x[299] = 63.5f;
    x[6] = x[201] = x[298] = 3.25f;
    x[N] = 1.0f;
    tl_act_quant_params_t p = tl_act_quant_defaults(2, N);
    p.block = 128;
    REQUIRE(tl_act_quant_ref(&p, x, y, s, NULL) == TL_OK);
    CHECK(s[0] == 1.0f && s[1] == 2.0f && s[2] == 0.5f);
    CHECK(s[3] == 1.0f / 127.0f && s[4] == 1e-4f / 127.0f && s[5] == s[4]);
    CHECK_EQ(y[6], 3);
    CHECK_EQ(y[201], 2);
    CHECK_EQ(y[298], 6);
    CHECK_EQ(y[200], -127);
    CHECK_EQ(y[299], 127);
    CHECK_EQ(y[N], 127);
}

TEST(ref_act_quant_random_rows)
{
    // N(0,1) rows: every row reaches +-127 exactly, -128 never appears, and the
    // dequantized error is at most s/2 (plus the fp32 error of x/s).
    enum { M = 16, N = 256 };
    static float x[M * N], s[M];
    static int8_t y[M * N];
    tl_rng_t r;
    tl_rng_seed(&r, 21);
    for (int i = 0; i < M * N; i++) x[i] = (float)tl_rng_normal(&r);
    for (int pow2 = 0; pow2 < 2; pow2++) {
        tl_act_quant_params_t p = tl_act_quant_defaults(M, N);
        p.round_scale = pow2;
        REQUIRE(tl_act_quant_ref(&p, x, y, s, NULL) == TL_OK);
        for (int i = 0; i < M; i++) {
            int top = 0;
            float amax = 0;
            for (int j = 0; j < N; j++) {
                int8_t v = y[i * N + j];
                CHECK(v != -128);
                top = TL_MAX(top, abs(v));
                amax = fmaxf(amax, fabsf(x[i * N + j]));
                CHECK(fabs((double)v * s[i] - x[i * N + j]) <= 0.50001 * s[i]);
            }
            if (!pow2) {
                CHECK_EQ(top, 127);
            } else {
                // A power of two in [amax/127, 2 amax/127).
                CHECK_EQ(tl_f32_bits(s[i]) & 0x7FFFFF, 0);
                CHECK(s[i] >= amax / 127.0f && s[i] < 2 * (amax / 127.0f));
                CHECK(top > 63 && top <= 127);
            }
        }
    }
}

TEST(ref_act_quant_e4m3)
{
    // Row 0: amax 448 -> s = 1: 448 -> 0x7E, 1 -> 0x38, -3.3 -> -3.25 = 0xC5, 0 -> 0,
    //   -0 -> 0x80 (e4m3 has 3 mantissa bits: 3.25 and 3.5 are neighbours).
    // Row 1: amax 896 -> s = 2: 2.5 -> 1.25 = 0x3A, -896 -> -448 = 0xFE,
    //   0.009 -> 0.0045 = 2.30 * 2^-9 (subnormal) -> 2 * 2^-9 = 0x02, 0 -> 0.
    float x[] = {448, 1, -3.3f, 0, -0.0f, 2.5f, -896, 0.009f, 0, 0};
    uint8_t y[10];
    float s[2];
    uint8_t expect[] = {0x7E, 0x38, 0xC5, 0x00, 0x80, 0x3A, 0xFE, 0x02, 0x00, 0x00};
    tl_act_quant_params_t p = tl_act_quant_defaults(2, 5);
    p.target = TL_ACT_QUANT_E4M3;
    REQUIRE(tl_act_quant_ref(&p, x, y, s, NULL) == TL_OK);
    CHECK(s[0] == 1.0f && s[1] == 2.0f);
    for (int i = 0; i < 10; i++) CHECK_EQ(y[i], expect[i]);

    // amax 3: s = 3 / 448 = 0x3BDB6DB7; DS-OFF's 3 * fp32(1/448) = 0x3BDB6DB8. Either way
    // 3 / s is within an ulp of 448 and saturates to 448 = 0x7E. A zero row takes the floor.
    float x2[] = {3, -1, 0, 0};
    p.n = 2;
    REQUIRE(tl_act_quant_ref(&p, x2, y, s, NULL) == TL_OK);
    CHECK_EQ(tl_f32_bits(s[0]), 0x3BDB6DB7);
    CHECK(s[1] == 1e-4f / 448.0f);
    CHECK(y[0] == 0x7E && y[2] == 0 && y[3] == 0);
    p.recip_scale = true;
    REQUIRE(tl_act_quant_ref(&p, x2, y, s, NULL) == TL_OK);
    CHECK_EQ(tl_f32_bits(s[0]), 0x3BDB6DB8);
    CHECK_EQ(y[0], 0x7E);
}

TEST(ref_act_quant_rejects_bad_arguments)
{
    float x[4] = {0}, s[4];
    int8_t y[4];
    tl_diag_t d;
    tl_diag_init(&d);
    tl_act_quant_params_t p = tl_act_quant_defaults(1, 4);
    p.block = -1;
    CHECK_EQ(tl_act_quant_ref(&p, x, y, s, &d), TL_ERR_ARG);
    CHECK_CONTAINS(tl_diag_text(&d), "act_quant: block must be >= 0");
    p = tl_act_quant_defaults(1, 4);
    p.round = TL_CAST_ODD;
    CHECK_EQ(tl_act_quant_ref(&p, x, y, s, &d), TL_ERR_ARG);
    CHECK_CONTAINS(tl_diag_text(&d), "invalid rounding mode");
    p = tl_act_quant_defaults(1, 4);
    p.amax_floor = NAN;
    CHECK_EQ(tl_act_quant_ref(&p, x, y, s, &d), TL_ERR_ARG);
    p = tl_act_quant_defaults(1, 4);
    p.target = (tl_act_quant_target_t)3;
    CHECK_EQ(tl_act_quant_ref(&p, x, y, s, &d), TL_ERR_ARG);
    p = tl_act_quant_defaults(-3, 4);
    CHECK_EQ(tl_act_quant_ref(&p, x, y, s, &d), TL_ERR_ARG);
    CHECK_CONTAINS(tl_diag_text(&d), "x has an invalid shape [-3, 4]");
    p = tl_act_quant_defaults(1, 4);
    CHECK_EQ(tl_act_quant_ref(&p, x, y, NULL, &d), TL_ERR_ARG);
    CHECK_CONTAINS(tl_diag_text(&d), "scale is NULL");
    CHECK_EQ(d.nerrors, 6);
    tl_diag_free(&d);
}
