// Integer conversions (float -> int rounding and saturation, int -> float
// rounded once), element load/store, tl_cast_defined, hand-built exact values.
// Expected values are written out by hand.
#include "../test.h"

#include <float.h>
#include <math.h>

#include "base/dtype.h"

enum { NM = 5 }; // RINT, ROUND, FLOOR, CEIL, TRUNC
static const tl_round_t int_modes[NM] = {TL_CAST_RINT, TL_CAST_ROUND, TL_CAST_FLOOR, TL_CAST_CEIL,
                                         TL_CAST_TRUNC};

typedef struct {
    double v;
    tl_dtype_t t;
    int64_t want[NM];
} int_case_t;

static const int_case_t int_cases[] = {
    {2.5, TL_I8, {2, 3, 2, 3, 2}},
    {-2.5, TL_I8, {-2, -3, -3, -2, -2}},
    {0.5, TL_I8, {0, 1, 0, 1, 0}},
    {-0.5, TL_I16, {0, -1, -1, 0, 0}},
    {1.5, TL_I32, {2, 2, 1, 2, 1}},
    {-3.75, TL_I32, {-4, -4, -4, -3, -3}},
    {300.0, TL_I8, {127, 127, 127, 127, 127}},
    {-300.0, TL_I8, {-128, -128, -128, -128, -128}},
    {127.5, TL_I8, {127, 127, 127, 127, 127}},
    {-128.5, TL_I8, {-128, -128, -128, -128, -128}},
    {-1e30, TL_I32, {INT32_MIN, INT32_MIN, INT32_MIN, INT32_MIN, INT32_MIN}},
    {1e30, TL_I32, {INT32_MAX, INT32_MAX, INT32_MAX, INT32_MAX, INT32_MAX}},
    {INFINITY, TL_I16, {INT16_MAX, INT16_MAX, INT16_MAX, INT16_MAX, INT16_MAX}},
    {-INFINITY, TL_I16, {INT16_MIN, INT16_MIN, INT16_MIN, INT16_MIN, INT16_MIN}},
    {NAN, TL_I32, {0, 0, 0, 0, 0}},
    {NAN, TL_U8, {0, 0, 0, 0, 0}},
    {32766.5, TL_I16, {32766, 32767, 32766, 32767, 32766}},
    {2147483646.5, TL_I32, {2147483646, 2147483647, 2147483646, 2147483647, 2147483646}},
    {2147483647.5, TL_I32, {INT32_MAX, INT32_MAX, INT32_MAX, INT32_MAX, INT32_MAX}},
    {-2147483648.5, TL_I32, {INT32_MIN, INT32_MIN, INT32_MIN, INT32_MIN, INT32_MIN}},
    {-2147483647.5, TL_I32, {INT32_MIN, INT32_MIN, INT32_MIN, -2147483647, -2147483647}},
    {2147483648.0, TL_I32, {INT32_MAX, INT32_MAX, INT32_MAX, INT32_MAX, INT32_MAX}},
    {-1.0, TL_U8, {0, 0, 0, 0, 0}},
    {-0.5, TL_U8, {0, 0, 0, 0, 0}},
    {254.5, TL_U8, {254, 255, 254, 255, 254}},
    {255.5, TL_U8, {255, 255, 255, 255, 255}},
    {0x1p63, TL_I64, {INT64_MAX, INT64_MAX, INT64_MAX, INT64_MAX, INT64_MAX}},
    {-0x1p63, TL_I64, {INT64_MIN, INT64_MIN, INT64_MIN, INT64_MIN, INT64_MIN}},
    {-0x1p64, TL_I64, {INT64_MIN, INT64_MIN, INT64_MIN, INT64_MIN, INT64_MIN}},
    {0x1.fffffffffffffp62,
     TL_I64,
     {0x7ffffffffffffc00, 0x7ffffffffffffc00, 0x7ffffffffffffc00, 0x7ffffffffffffc00,
      0x7ffffffffffffc00}},
    {0x1p51 + 0.5,
     TL_I64,
     {0x8000000000000, 0x8000000000001, 0x8000000000000, 0x8000000000001, 0x8000000000000}},
    {-0x1p51 - 1.5,
     TL_I64,
     {-0x8000000000002, -0x8000000000002, -0x8000000000002, -0x8000000000001, -0x8000000000001}},
    {1e-300, TL_I32, {0, 0, 0, 1, 0}},
    {-1e-300, TL_I32, {0, 0, -1, 0, 0}},
};

static int64_t read_int(tl_dtype_t t, const void *p)
{
    switch (t) {
    case TL_I8: return *(const int8_t *)p;
    case TL_U8: return *(const uint8_t *)p;
    case TL_I16: return *(const int16_t *)p;
    case TL_I32: return *(const int32_t *)p;
    default: return *(const int64_t *)p;
    }
}

TEST(float_to_int_every_mode)
{
    for (size_t i = 0; i < TL_ARRAY_LEN(int_cases); i++) {
        const int_case_t *c = &int_cases[i];
        for (int m = 0; m < NM; m++) {
            int64_t out = 0x5a5a5a5a5a5a5a5a;
            tl_store_f64(c->t, &out, 0, c->v, int_modes[m]);
            int64_t got = read_int(c->t, &out);
            float f = (float)c->v;
            int64_t got32 = got;
            if ((double)f == c->v || isnan(c->v)) { // also from a float32 array
                int64_t o2 = 0;
                tl_convert(c->t, &o2, TL_F32, &f, 1, int_modes[m]);
                got32 = read_int(c->t, &o2);
            }
            if (got != c->want[m] || got32 != c->want[m])
                tl_test_fail(t, __FILE__, __LINE__, "%a -> %s %s: got %lld / %lld want %lld", c->v,
                             tl_dtype_name(c->t), tl_round_name(int_modes[m]), (long long)got,
                             (long long)got32, (long long)c->want[m]);
        }
    }
}

TEST(round_integral)
{
    static const struct {
        double v, want[NM];
    } cases[] = {
        {2.5, {2, 3, 2, 3, 2}},
        {3.5, {4, 4, 3, 4, 3}},
        {-2.5, {-2, -3, -3, -2, -2}},
        {0.5, {0, 1, 0, 1, 0}},
        {-0.49999999999999994, {-0.0, -0.0, -1, -0.0, -0.0}},
        {0x1p52 + 1, {0x1p52 + 1, 0x1p52 + 1, 0x1p52 + 1, 0x1p52 + 1, 0x1p52 + 1}},
        {0x1p51 + 0.5, {0x1p51, 0x1p51 + 1, 0x1p51, 0x1p51 + 1, 0x1p51}},
        {-7.0, {-7, -7, -7, -7, -7}},
    };
    for (size_t i = 0; i < TL_ARRAY_LEN(cases); i++) {
        for (int m = 0; m < NM; m++) {
            double got = tl_round_integral(cases[i].v, int_modes[m]);
            if (got != cases[i].want[m] || signbit(got) != signbit(cases[i].want[m]))
                tl_test_fail(t, __FILE__, __LINE__, "%a %s: got %a want %a", cases[i].v,
                             tl_round_name(int_modes[m]), got, cases[i].want[m]);
        }
    }
    // Against libm (the default environment rounds to nearest even): quarters
    // around zero, then scattered magnitudes up to 2^60.
    uint64_t seed = 12345;
    int bad = 0;
    for (int i = 0; i < 20000; i++) {
        double v;
        if (i < 4000) {
            v = (i - 2000) / 4.0;
        } else {
            seed = seed * 6364136223846793005u + 1442695040888963407u;
            v = ldexp((double)(seed >> 11), (int)(seed % 72) - 64) * (seed & 1 ? -1 : 1);
        }
        double want[NM] = {nearbyint(v), round(v), floor(v), ceil(v), trunc(v)};
        for (int m = 0; m < NM; m++) {
            double got = tl_round_integral(v, int_modes[m]);
            if ((got != want[m] || signbit(got) != signbit(want[m])) && bad++ < 5)
                tl_test_fail(t, __FILE__, __LINE__, "%a %s: got %a want %a", v,
                             tl_round_name(int_modes[m]), got, want[m]);
        }
    }
    CHECK(isnan(tl_round_integral(NAN, TL_CAST_RINT)));
    CHECK(tl_round_integral(-INFINITY, TL_CAST_CEIL) == -INFINITY);
    CHECK(signbit(tl_round_integral(-0.3, TL_CAST_TRUNC)));
    CHECK(tl_round_integral(2.5, TL_CAST_NONE) == 2.0);
    CHECK(tl_round_integral(-2.7, TL_CAST_ODD) == -2.0); // treated as TRUNC
}

// int64 values whose nearest double is a tie (or crosses one) in the target.
TEST(int64_to_float_rounds_once)
{
    int64_t v[] = {
        (INT64_C(1) << 60) + (INT64_C(1) << 36) + 1,    // double: 2^60 + 2^36, an f32 tie
        -((INT64_C(1) << 60) + (INT64_C(1) << 36) + 1), //
        (INT64_C(1) << 60) + (INT64_C(1) << 37) - 1,    // double: 2^60 + 2^37 exactly
        (INT64_C(1) << 40) + (INT64_C(1) << 16) + 1,    // exact in double: an f32 near-tie
    };
    float f[4];
    tl_convert(TL_F32, f, TL_I64, v, 4, TL_CAST_RINT);
    CHECK(f[0] == 0x1p60f + 0x1p37f);
    CHECK(f[1] == -(0x1p60f + 0x1p37f));
    CHECK(f[2] == 0x1p60f + 0x1p37f);
    CHECK(f[3] == 0x1p40f + 0x1p17f);
    tl_convert(TL_F32, f, TL_I64, v, 4, TL_CAST_TRUNC);
    CHECK(f[0] == 0x1p60f && f[1] == -0x1p60f && f[2] == 0x1p60f && f[3] == 0x1p40f);
    tl_convert(TL_F32, f, TL_I64, v, 4, TL_CAST_FLOOR);
    CHECK(f[1] == -(0x1p60f + 0x1p37f));
    // bfloat16: ulp at 2^60 is 2^53; 2^60 + 2^52 + 1 is a tie in double.
    int64_t w[] = {(INT64_C(1) << 60) + (INT64_C(1) << 52) + 1, (INT64_C(1) << 8) + 1,
                   (INT64_C(1) << 8) + 3, INT64_MIN};
    uint16_t h[4];
    tl_convert(TL_BF16, h, TL_I64, w, 4, TL_CAST_RINT);
    CHECK_EQ(h[0], 0x5d81); // 2^60 + 2^53
    CHECK_EQ(h[1], 0x4380); // 257 -> 256 (tie, even)
    CHECK_EQ(h[2], 0x4382); // 259 -> 260 (tie, even)
    CHECK_EQ(h[3], 0xdf00); // -2^63
    uint64_t u = UINT64_MAX;
    tl_convert(TL_F32, f, TL_U64, &u, 1, TL_CAST_TRUNC);
    CHECK(f[0] == 0x1p64f - 0x1p40f);
    tl_convert(TL_F32, f, TL_U64, &u, 1, TL_CAST_RINT);
    CHECK(f[0] == 0x1p64f);
    // int64 -> float64 with modes.
    int64_t big = (INT64_C(1) << 53) + 1;
    double d;
    tl_convert(TL_F64, &d, TL_I64, &big, 1, TL_CAST_RINT);
    CHECK(d == 0x1p53);
    tl_convert(TL_F64, &d, TL_I64, &big, 1, TL_CAST_CEIL);
    CHECK(d == 0x1p53 + 2);
    // int32 -> float16 overflow and ties.
    int32_t s[] = {65519, 65520, 2049, 2051, -70000};
    uint16_t o[5];
    tl_convert(TL_F16, o, TL_I32, s, 5, TL_CAST_RINT);
    CHECK(o[0] == 0x7bff && o[1] == 0x7c00 && o[2] == 0x6800 && o[3] == 0x6802 && o[4] == 0xfc00);
    tl_convert(TL_F16, o, TL_I32, s, 5, TL_CAST_TRUNC);
    CHECK(o[1] == 0x7bff && o[4] == 0xfbff);
    uint8_t e4[2];
    int16_t s16[] = {1000, -17};
    tl_convert(TL_F8E4M3, e4, TL_I16, s16, 2, TL_CAST_RINT);
    CHECK(e4[0] == 0x7e && e4[1] == 0xd8); // saturates to 448; -17 -> -16 (tie, even)
}

TEST(element_load_store)
{
    float fl[] = {2.7f, -2.7f, NAN, 1e30f, -1e30f};
    CHECK_EQ(tl_load_i64(TL_F32, fl, 0), 2);
    CHECK_EQ(tl_load_i64(TL_F32, fl, 1), -2);
    CHECK_EQ(tl_load_i64(TL_F32, fl, 2), 0);
    CHECK(tl_load_i64(TL_F32, fl, 3) == INT64_MAX);
    CHECK(tl_load_i64(TL_F32, fl, 4) == INT64_MIN);
    int64_t i64[] = {INT64_MIN, INT64_MAX};
    CHECK(tl_load_i64(TL_I64, i64, 0) == INT64_MIN);
    CHECK(tl_load_i64(TL_I64, i64, 1) == INT64_MAX);
    uint64_t u64 = UINT64_MAX;
    CHECK(tl_load_i64(TL_U64, &u64, 0) == INT64_MAX);
    int8_t i8[] = {-128, 5};
    CHECK_EQ(tl_load_i64(TL_I8, i8, 0), -128);
    CHECK(tl_load_f64(TL_I8, i8, 1) == 5.0);
    uint16_t bf[] = {0x3f80, 0xc0a0};
    CHECK_EQ(tl_load_i64(TL_BF16, bf, 1), -5);
    CHECK(tl_load_f64(TL_BF16, bf, 0) == 1.0);
    uint16_t h[] = {0x3c00, 0x0001};
    CHECK(tl_load_f64(TL_F16, h, 1) == 0x1p-24);
    uint8_t e4 = 0x7e, e5 = 0x7b;
    CHECK(tl_load_f64(TL_F8E4M3, &e4, 0) == 448.0);
    CHECK(tl_load_f64(TL_F8E5M2, &e5, 0) == 57344.0);
    uint32_t u32 = 4000000000u;
    CHECK(tl_load_f64(TL_U32, &u32, 0) == 4e9);
    int16_t s16[3] = {0};
    tl_store_i64(TL_I16, s16, 1, -40000);
    tl_store_i64(TL_I16, s16, 2, 12345);
    CHECK(s16[0] == 0 && s16[1] == INT16_MIN && s16[2] == 12345);
    uint16_t b[2];
    tl_store_i64(TL_BF16, b, 0, 257);
    tl_store_i64(TL_BF16, b, 1, -259);
    CHECK(b[0] == 0x4380 && b[1] == 0xc382);
    double d[2] = {0};
    tl_store_i64(TL_F64, d, 1, -3);
    CHECK(d[0] == 0.0 && d[1] == -3.0);
    float f[2] = {0};
    tl_store_f64(TL_F32, f, 1, 1.0 + 0x1p-24, TL_CAST_CEIL);
    CHECK(f[0] == 0.0f && f[1] == 1.0f + 0x1p-23f);
    uint8_t u8[2] = {0};
    tl_store_f64(TL_U8, u8, 1, 1e9, TL_CAST_RINT);
    CHECK(u8[0] == 0 && u8[1] == 255);
}

TEST(cast_defined)
{
    for (int m = TL_CAST_NONE; m <= TL_CAST_TRUNC; m++) {
        CHECK(tl_cast_defined(TL_I8, TL_F32, (tl_round_t)m));
        CHECK(tl_cast_defined(TL_F32, TL_BF16, (tl_round_t)m));
        CHECK(tl_cast_defined(TL_BOOL, TL_U64, (tl_round_t)m));
    }
    CHECK(tl_cast_defined(TL_BF16, TL_F32, TL_CAST_ODD));
    CHECK(tl_cast_defined(TL_F16, TL_F32, TL_CAST_ODD));
    CHECK(tl_cast_defined(TL_F8E4M3, TL_F16, TL_CAST_ODD));
    CHECK(tl_cast_defined(TL_F32, TL_F64, TL_CAST_ODD));
    CHECK(!tl_cast_defined(TL_F32, TL_BF16, TL_CAST_ODD));
    CHECK(!tl_cast_defined(TL_F16, TL_BF16, TL_CAST_ODD));
    CHECK(!tl_cast_defined(TL_F32, TL_F32, TL_CAST_ODD));
    CHECK(!tl_cast_defined(TL_I8, TL_F32, TL_CAST_ODD));
    CHECK(!tl_cast_defined(TL_F16, TL_I32, TL_CAST_ODD));
    CHECK(!tl_cast_defined(TL_F16, TL_F32, TL_CAST_MODE_COUNT));
    CHECK(!tl_cast_defined(TL_DTYPE_COUNT, TL_F32, TL_CAST_RINT));
}

// Hand-built exact values reach the edges of the rounding routine: a
// significand with bit 63 set shifted out entirely (the half bit is bit 63).
TEST(xval_edges)
{
    tl_xval_t half = {TL_XV_FINITE, false, -64, UINT64_C(1) << 63};        // 0.5
    tl_xval_t above = {TL_XV_FINITE, false, -64, (UINT64_C(1) << 63) | 1}; // 0.5 + 2^-64
    tl_xval_t nhalf = {TL_XV_FINITE, true, -64, UINT64_C(1) << 63};        // -0.5
    CHECK_EQ(tl_dtype_xval_to_int(TL_I32, half, TL_CAST_RINT), 0);
    CHECK_EQ(tl_dtype_xval_to_int(TL_I32, half, TL_CAST_ROUND), 1);
    CHECK_EQ(tl_dtype_xval_to_int(TL_I32, above, TL_CAST_RINT), 1);
    CHECK_EQ(tl_dtype_xval_to_int(TL_I32, above, TL_CAST_ODD), 0); // ODD acts as TRUNC here
    CHECK_EQ((int64_t)tl_dtype_xval_to_int(TL_I64, nhalf, TL_CAST_ROUND), -1);
    CHECK_EQ((int64_t)tl_dtype_xval_to_int(TL_I64, nhalf, TL_CAST_FLOOR), -1);
    CHECK_EQ((int64_t)tl_dtype_xval_to_int(TL_I64, nhalf, TL_CAST_CEIL), 0);
    CHECK_EQ(tl_dtype_xval_to_int(TL_U64, tl_dtype_xval_f64(0x1p64), TL_CAST_RINT), UINT64_MAX);
    CHECK_EQ(tl_dtype_xval_to_int(TL_U64, tl_dtype_xval_f64(0x1.fffffffffffffp63), TL_CAST_RINT),
             0xfffffffffffff800u);
    // 0.5 * 2^-133 is half of bfloat16's smallest subnormal: a tie with 0.
    tl_xval_t tiny = {TL_XV_FINITE, false, -64 - 133, UINT64_C(1) << 63};
    CHECK_EQ(tl_dtype_xval_round(TL_BF16, tiny, TL_CAST_RINT), 0);
    CHECK_EQ(tl_dtype_xval_round(TL_BF16, tiny, TL_CAST_ROUND), 1);
    tiny.mag |= 1;
    CHECK_EQ(tl_dtype_xval_round(TL_BF16, tiny, TL_CAST_RINT), 1);
    // A value far beyond any exponent range.
    tl_xval_t huge = {TL_XV_FINITE, true, 5000, 1};
    CHECK_EQ(tl_dtype_xval_round(TL_F64, huge, TL_CAST_RINT), 0xfff0000000000000u);
    CHECK_EQ(tl_dtype_xval_round(TL_F64, huge, TL_CAST_TRUNC), 0xffefffffffffffffu);
    CHECK_EQ(tl_dtype_xval_round(TL_F8E4M3, huge, TL_CAST_FLOOR), 0xfe);
    CHECK_EQ((int64_t)tl_dtype_xval_to_int(TL_I8, huge, TL_CAST_RINT), -128);
}
