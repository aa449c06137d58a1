// Element types: table, parsing, narrow-float decode/encode against values
// computed from the bit fields in this file.
#include "../test.h"

#include <math.h>

#include "base/dtype.h"

// A narrow format written out independently of src/base: fields, bias, and
// whether it is an "fn" format (no Inf, only S.1..1.1..1 is NaN).
typedef struct {
    tl_dtype_t t;
    int ebits, mbits, bias;
    bool fn;
} ref_fmt_t;

static const ref_fmt_t ref_fmts[] = {
    {TL_BF16, 8, 7, 127, false},
    {TL_F16, 5, 10, 15, false},
    {TL_F8E4M3, 4, 3, 7, true},
    {TL_F8E5M2, 5, 2, 15, false},
};

static unsigned ref_count(const ref_fmt_t *f)
{
    return 1u << (1 + f->ebits + f->mbits);
}

static double ref_decode(const ref_fmt_t *f, unsigned p)
{
    unsigned mmask = (1u << f->mbits) - 1, emask = (1u << f->ebits) - 1;
    unsigned m = p & mmask, e = (p >> f->mbits) & emask;
    double s = (p >> (f->ebits + f->mbits)) & 1 ? -1.0 : 1.0;
    if (!f->fn && e == emask) return m ? NAN : s * INFINITY;
    if (f->fn && e == emask && m == mmask) return NAN;
    if (e == 0) return s * ldexp(m, 1 - f->bias - f->mbits);
    return s * ldexp(m + (1u << f->mbits), (int)e - f->bias - f->mbits);
}

static float dut_decode(tl_dtype_t t, unsigned p)
{
    switch (t) {
    case TL_BF16: return tl_bf16_to_f32((uint16_t)p);
    case TL_F16: return tl_f16_to_f32((uint16_t)p);
    case TL_F8E4M3: return tl_f8e4m3_to_f32((uint8_t)p);
    default: return tl_f8e5m2_to_f32((uint8_t)p);
    }
}

static unsigned dut_encode_f32(tl_dtype_t t, float f, tl_round_t mode)
{
    switch (t) {
    case TL_BF16: return tl_f32_to_bf16(f, mode);
    case TL_F16: return tl_f32_to_f16(f, mode);
    case TL_F8E4M3: return tl_f32_to_f8e4m3(f, mode);
    default: return tl_f32_to_f8e5m2(f, mode);
    }
}

TEST(dtype_table)
{
    CHECK_STREQ(tl_dtype_name(TL_BF16), "bfloat16");
    CHECK_EQ(tl_dtype_size(TL_F8E4M3), 1);
    CHECK_EQ(tl_dtype_size(TL_U64), 8);
    CHECK_EQ(tl_dtype_bits(TL_F16), 16);
    CHECK(tl_dtype_is_float(TL_F8E5M2));
    CHECK(!tl_dtype_is_float(TL_I32));
    CHECK(tl_dtype_is_int(TL_U16));
    CHECK(!tl_dtype_is_int(TL_BOOL));
    CHECK_EQ(tl_dtype_kind(TL_U32), TL_KIND_UINT);
    CHECK_STREQ(tl_dtype_ctype(TL_F32), "float");
    CHECK_EQ(tl_dtype_min(TL_I8), -128);
    CHECK_EQ(tl_dtype_max(TL_U16), 65535);
    CHECK_EQ(tl_dtype_max(TL_BOOL), 1);
    CHECK_EQ(tl_dtype_min(TL_U8), 0);
    CHECK(tl_dtype_min(TL_I64) == -0x1p63);
    CHECK_EQ(tl_dtype_max_finite(TL_F8E4M3), 448);
    CHECK_EQ(tl_dtype_max_finite(TL_F8E5M2), 57344);
    CHECK_EQ(tl_dtype_max_finite(TL_F16), 65504);
    CHECK(tl_dtype_max_finite(TL_BF16) == 0x1.fep127);
}

TEST(dtype_parse)
{
    static const struct {
        const char *s;
        tl_dtype_t t;
    } ok[] = {
        {"float32", TL_F32},
        {"float", TL_F32},
        {"fp32", TL_F32},
        {"float16", TL_F16},
        {"half", TL_F16},
        {"fp16", TL_F16},
        {"bfloat16", TL_BF16},
        {"bf16", TL_BF16},
        {"int", TL_I32},
        {"int32", TL_I32},
        {"int8", TL_I8},
        {"uint64", TL_U64},
        {"float8_e4m3fn", TL_F8E4M3},
        {"float8_e4m3", TL_F8E4M3},
        {"e4m3", TL_F8E4M3},
        {"float8_e5m2", TL_F8E5M2},
        {"e5m2", TL_F8E5M2},
        {"double", TL_F64},
        {"float64", TL_F64},
        {"bool", TL_BOOL},
    };
    for (size_t i = 0; i < TL_ARRAY_LEN(ok); i++) {
        tl_dtype_t got = TL_DTYPE_COUNT;
        CHECK(tl_dtype_parse(ok[i].s, &got));
        CHECK_EQ(got, ok[i].t);
    }
    static const char *bad[] = {"", "Float32", "float33", "int128", "float32 ", "e4m3fnuz", "f"};
    for (size_t i = 0; i < TL_ARRAY_LEN(bad); i++) {
        tl_dtype_t got = TL_I8;
        CHECK(!tl_dtype_parse(bad[i], &got));
        CHECK_EQ(got, TL_I8);
    }
    CHECK(!tl_dtype_parse(NULL, NULL));
    tl_round_t m = TL_CAST_NONE;
    CHECK(tl_round_parse("CAST_ODD", &m));
    CHECK_EQ(m, TL_CAST_ODD);
    CHECK(!tl_round_parse("CAST_rint", &m));
    CHECK_STREQ(tl_round_name(TL_CAST_FLOOR), "CAST_FLOOR");
}

// Every bit pattern decodes to the value of its fields, and encodes back.
TEST(dtype_decode_all_patterns)
{
    for (size_t k = 0; k < TL_ARRAY_LEN(ref_fmts); k++) {
        const ref_fmt_t *f = &ref_fmts[k];
        int fails = 0;
        for (unsigned p = 0; p < ref_count(f) && fails < 5; p++) {
            double want = ref_decode(f, p);
            float got = dut_decode(f->t, p);
            bool neg = (p >> (f->ebits + f->mbits)) & 1;
            bool ok = (signbit(got) != 0) == neg;
            ok = ok && (isnan(want) ? isnan(got) : (double)got == want);
            unsigned back = dut_encode_f32(f->t, got, TL_CAST_RINT);
            // NaN payloads may change; the sign and NaN-ness may not.
            bool back_neg = (back >> (f->ebits + f->mbits)) & 1;
            ok = ok && (isnan(want) ? isnan(ref_decode(f, back)) && back_neg == neg : back == p);
            if (!ok) {
                fails++;
                tl_test_fail(t, __FILE__, __LINE__, "%s pattern 0x%x: got %a want %a back 0x%x",
                             tl_dtype_name(f->t), p, got, want, back);
            }
        }
    }
}
