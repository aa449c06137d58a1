// Element types: the type table, name and rounding-mode parsing.
#include "../test.h"

#include "base/dtype.h"

TEST(table)
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

TEST(parse)
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
