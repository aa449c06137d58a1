// tl_convert on arrays: a table of (dst, src, mode, inputs, expected outputs)
// covering the fast loops and the generic path. Narrow floats are written as
// bit patterns, float32/float64 as values, integers as integers.
#include "../test.h"

#include <float.h>
#include <math.h>

#include "base/dtype.h"

enum { MAXN = 7 };

typedef struct {
    tl_dtype_t dst, src;
    tl_round_t mode;
    int n;
    double in[MAXN], want[MAXN];
} conv_case_t;

#define F32  TL_F32
#define BF16 TL_BF16
static const conv_case_t cases[] = {
    // float32 -> bfloat16: ODD (generic) and RINT (fast loop).
    {BF16,
     F32,
     TL_CAST_ODD,
     6,
     {1.0, 1.0 + 0x1p-9, -1.0 - 0x1p-9, FLT_MAX, -INFINITY, 0x1p-140},
     {0x3f80, 0x3f81, 0xbf81, 0x7f7f, 0xff80, 0x0001}},
    {BF16,
     F32,
     TL_CAST_RINT,
     6,
     {1.0, 1.0 + 0x1p-9, -1.0 - 0x1p-9, FLT_MAX, -INFINITY, 0x1p-140},
     {0x3f80, 0x3f80, 0xbf80, 0x7f80, 0xff80, 0x0000}},
    // bfloat16 -> float16: exact, then out of range both ways.
    {TL_F16, BF16, TL_CAST_RINT, 4, {0x3f81, 0x47c3, 0xc7c3, 0x0001}, {0x3c08, 0x7c00, 0xfc00, 0}},
    {TL_F16, BF16, TL_CAST_TRUNC, 4, {0x3f81, 0x47c3, 0xc7c3, 0x0001}, {0x3c08, 0x7bff, 0xfbff, 0}},
    {TL_F16, BF16, TL_CAST_CEIL, 4, {0x3f81, 0x47c3, 0xc7c3, 0x0001}, {0x3c08, 0x7c00, 0xfbff, 1}},
    // float16 -> e4m3 saturates (Inf too); NaN -> 0x7f.
    {TL_F8E4M3,
     TL_F16,
     TL_CAST_RINT,
     4,
     {0x7c00, 0x5f00, 0x3c00, 0x7e00},
     {0x7e, 0x7e, 0x38, 0x7f}},
    {TL_F8E4M3, TL_I16, TL_CAST_RINT, 2, {1000, -17}, {0x7e, 0xd8}}, // -17 ties to -16
    {TL_F8E5M2, F32, TL_CAST_RINT, 4, {57344, 61440, -0x1p-17, 1.25}, {0x7b, 0x7c, 0x80, 0x3d}},
    // Decodes to float32 (fast loops for float16 and bfloat16).
    {F32, TL_F8E5M2, TL_CAST_NONE, 3, {0x7c, 0x01, 0xbc}, {INFINITY, 0x1p-16, -1.0}},
    {F32, TL_F16, TL_CAST_NONE, 3, {0x3555, 0x8400, 0x7bff}, {0x1.554p-2, -0x1p-14, 65504}},
    {F32, BF16, TL_CAST_NONE, 3, {0x3f81, 0xbf81, 0x7fc1}, {1 + 0x1p-7, -1 - 0x1p-7, NAN}},
    {F32, TL_F8E4M3, TL_CAST_NONE, 3, {0x7e, 0xff, 0x01}, {448, NAN, 0x1p-9}},
    {TL_F16, F32, TL_CAST_RINT, 3, {0x1.554p-2, -0x1p-14, 65504}, {0x3555, 0x8400, 0x7bff}},
    // int8 <-> float32.
    {F32, TL_I8, TL_CAST_NONE, 3, {-128, 127, 0}, {-128, 127, 0}},
    {TL_I8, F32, TL_CAST_ROUND, 3, {-0.5, 126.5, 1000}, {-1, 127, 127}},
    // float64 -> bfloat16 rounds once; float64 -> float32 in two modes.
    {BF16, TL_F64, TL_CAST_RINT, 2, {1.0 + 0x1p-8 + 0x1p-30, 1.0 + 0x1p-24}, {0x3f81, 0x3f80}},
    {F32, TL_F64, TL_CAST_RINT, 2, {1.0 + 0x1p-24, 1e300}, {1.0, INFINITY}},
    {F32, TL_F64, TL_CAST_CEIL, 2, {1.0 + 0x1p-24, -1e300}, {1.0 + 0x1p-23, -FLT_MAX}},
    {TL_F64, F32, TL_CAST_NONE, 2, {0x1p-149, -3.5}, {0x1p-149, -3.5}},
    // Integer -> integer saturates.
    {TL_I8,
     TL_I32,
     TL_CAST_NONE,
     7,
     {200, -200, 127, -128, 0, INT32_MAX, INT32_MIN},
     {127, -128, 127, -128, 0, 127, -128}},
    {TL_U8,
     TL_I32,
     TL_CAST_RINT,
     7,
     {200, -200, 127, -128, 0, INT32_MAX, INT32_MIN},
     {200, 0, 127, 0, 0, 255, 0}},
    {TL_U32, TL_I64, TL_CAST_NONE, 3, {-1, -0x1p63, 70000}, {0, 0, 70000}},
    {TL_U16, TL_I64, TL_CAST_NONE, 3, {-1, -0x1p63, 70000}, {0, 0, 65535}},
    {TL_U64, TL_I8, TL_CAST_NONE, 2, {-1, 5}, {0, 5}},
    {TL_I16, TL_I8, TL_CAST_NONE, 2, {-1, -128}, {-1, -128}},
    {TL_I32, TL_I32, TL_CAST_RINT, 3, {1, -2, 3}, {1, -2, 3}},
    // To and from bool: any non-zero value (NaN included) is true.
    {TL_BOOL, TL_I32, TL_CAST_NONE, 3, {0, 5, -3}, {0, 1, 1}},
    {TL_BOOL, F32, TL_CAST_RINT, 4, {0.25, -0.0, NAN, 0.0}, {1, 0, 1, 0}},
    {TL_I32, TL_BOOL, TL_CAST_NONE, 3, {0, 1, 2}, {0, 1, 1}},
    // int32 -> float16: ties, overflow.
    {TL_F16,
     TL_I32,
     TL_CAST_RINT,
     5,
     {65519, 65520, 2049, 2051, -70000},
     {0x7bff, 0x7c00, 0x6800, 0x6802, 0xfc00}},
    {TL_F16, TL_I32, TL_CAST_TRUNC, 2, {65520, -70000}, {0x7bff, 0xfbff}},
};
#undef F32
#undef BF16

// Narrow floats are bit patterns; everything else is its value.
static bool is_pattern(tl_dtype_t t)
{
    return t == TL_BF16 || t == TL_F16 || t == TL_F8E4M3 || t == TL_F8E5M2;
}

static void put(tl_dtype_t t, void *buf, int i, double v)
{
    switch (t) {
    case TL_F32: ((float *)buf)[i] = (float)v; break;
    case TL_F64: ((double *)buf)[i] = v; break;
    case TL_BOOL:
    case TL_U8:
    case TL_F8E4M3:
    case TL_F8E5M2: ((uint8_t *)buf)[i] = (uint8_t)v; break;
    case TL_I8: ((int8_t *)buf)[i] = (int8_t)v; break;
    case TL_I16: ((int16_t *)buf)[i] = (int16_t)v; break;
    case TL_U16:
    case TL_F16:
    case TL_BF16: ((uint16_t *)buf)[i] = (uint16_t)v; break;
    case TL_I32: ((int32_t *)buf)[i] = (int32_t)v; break;
    case TL_U32: ((uint32_t *)buf)[i] = (uint32_t)v; break;
    case TL_I64: ((int64_t *)buf)[i] = (int64_t)v; break;
    default: ((uint64_t *)buf)[i] = (uint64_t)v; break;
    }
}

static double get(tl_dtype_t t, const void *buf, int i)
{
    switch (t) {
    case TL_F32: return ((const float *)buf)[i];
    case TL_F64: return ((const double *)buf)[i];
    case TL_BOOL:
    case TL_U8:
    case TL_F8E4M3:
    case TL_F8E5M2: return ((const uint8_t *)buf)[i];
    case TL_I8: return ((const int8_t *)buf)[i];
    case TL_I16: return ((const int16_t *)buf)[i];
    case TL_U16:
    case TL_F16:
    case TL_BF16: return ((const uint16_t *)buf)[i];
    case TL_I32: return ((const int32_t *)buf)[i];
    case TL_U32: return ((const uint32_t *)buf)[i];
    case TL_I64: return (double)((const int64_t *)buf)[i];
    default: return (double)((const uint64_t *)buf)[i];
    }
}

TEST(table)
{
    for (size_t k = 0; k < TL_ARRAY_LEN(cases); k++) {
        const conv_case_t *c = &cases[k];
        uint64_t in[MAXN], out[MAXN + 1];
        memset(out, 0xa5, sizeof out);
        for (int i = 0; i < c->n; i++) put(c->src, in, i, c->in[i]);
        tl_convert(c->dst, out, c->src, in, (size_t)c->n, c->mode);
        for (int i = 0; i < c->n; i++) {
            double got = get(c->dst, out, i), want = c->want[i];
            bool ok = isnan(want)
                          ? isnan(got)
                          : got == want && (is_pattern(c->dst) || signbit(got) == signbit(want));
            if (!ok)
                tl_test_fail(t, __FILE__, __LINE__, "case %zu (%s <- %s %s) [%d]: got %a want %a",
                             k, tl_dtype_name(c->dst), tl_dtype_name(c->src),
                             tl_round_name(c->mode), i, got, want);
        }
        // Nothing past the n elements is written.
        unsigned char *end = (unsigned char *)out + (size_t)c->n * (size_t)tl_dtype_size(c->dst);
        CHECK_EQ(*end, 0xa5);
    }
}

TEST(uint64_extremes_and_empty)
{
    uint64_t u64[] = {UINT64_MAX, 5, UINT64_C(1) << 63};
    int64_t i64[3];
    tl_convert(TL_I64, i64, TL_U64, u64, 3, TL_CAST_NONE);
    CHECK(i64[0] == INT64_MAX && i64[1] == 5 && i64[2] == INT64_MAX);
    int64_t mn = INT64_MIN;
    uint64_t z = 7;
    tl_convert(TL_U64, &z, TL_I64, &mn, 1, TL_CAST_NONE);
    CHECK_EQ(z, 0);
    int32_t a = 1, c = 9;
    tl_convert(TL_I32, &c, TL_I32, &a, 0, TL_CAST_RINT);
    tl_convert(TL_F16, &c, TL_F32, &a, 0, TL_CAST_RINT);
    CHECK_EQ(c, 9);
}
