// Generic element access and array conversion between any two types, with
// fast paths for the common float pairs.
#include "base/dtype.h"

#include <math.h>

// Reads/writes the raw bits of element i (zero-extended).
static uint64_t load_bits(tl_dtype_t t, const void *base, size_t i)
{
    switch (tl_dtype_size(t)) {
    case 1: return ((const uint8_t *)base)[i];
    case 2: return ((const uint16_t *)base)[i];
    case 4: return ((const uint32_t *)base)[i];
    default: return ((const uint64_t *)base)[i];
    }
}

static void store_bits(tl_dtype_t t, void *base, size_t i, uint64_t u)
{
    switch (tl_dtype_size(t)) {
    case 1: ((uint8_t *)base)[i] = (uint8_t)u; break;
    case 2: ((uint16_t *)base)[i] = (uint16_t)u; break;
    case 4: ((uint32_t *)base)[i] = (uint32_t)u; break;
    default: ((uint64_t *)base)[i] = u; break;
    }
}

// Sign-extends the low `bits` bits of u.
static int64_t sext(uint64_t u, int bits)
{
    if (bits == 64) return (int64_t)u;
    uint64_t m = UINT64_C(1) << (bits - 1);
    return (int64_t)((u ^ m) - m);
}

tl_xval_t tl_dtype_xval_load(tl_dtype_t t, const void *base, size_t i)
{
    uint64_t u = load_bits(t, base, i);
    switch (tl_dtype_kind(t)) {
    case TL_KIND_BOOL: return tl_dtype_xval_i64(u != 0);
    case TL_KIND_INT: return tl_dtype_xval_i64(sext(u, tl_dtype_bits(t)));
    case TL_KIND_UINT: {
        tl_xval_t x = {TL_XV_FINITE, false, 0, u};
        return x;
    }
    default: break;
    }
    if (t == TL_F64) {
        double d;
        memcpy(&d, &u, sizeof d);
        return tl_dtype_xval_f64(d);
    }
    // Narrow floats are exact in double.
    return tl_dtype_xval_f64(tl_load_f64(t, base, i));
}

void tl_dtype_xval_store(tl_dtype_t t, void *base, size_t i, tl_xval_t v, tl_round_t mode)
{
    uint64_t u =
        tl_dtype_is_float(t) ? tl_dtype_xval_round(t, v, mode) : tl_dtype_xval_to_int(t, v, mode);
    store_bits(t, base, i, u);
}

double tl_load_f64(tl_dtype_t t, const void *base, size_t i)
{
    switch (t) {
    case TL_BOOL: return ((const uint8_t *)base)[i] != 0;
    case TL_I8: return ((const int8_t *)base)[i];
    case TL_U8: return ((const uint8_t *)base)[i];
    case TL_I16: return ((const int16_t *)base)[i];
    case TL_U16: return ((const uint16_t *)base)[i];
    case TL_I32: return ((const int32_t *)base)[i];
    case TL_U32: return ((const uint32_t *)base)[i];
    case TL_I64: return (double)((const int64_t *)base)[i];
    case TL_U64: return (double)((const uint64_t *)base)[i];
    case TL_F8E4M3: return tl_f8e4m3_to_f32(((const uint8_t *)base)[i]);
    case TL_F8E5M2: return tl_f8e5m2_to_f32(((const uint8_t *)base)[i]);
    case TL_F16: return tl_f16_to_f32_fast(((const uint16_t *)base)[i]);
    case TL_BF16: return tl_bf16_to_f32_fast(((const uint16_t *)base)[i]);
    case TL_F32: return ((const float *)base)[i];
    case TL_F64: return ((const double *)base)[i];
    default: return 0.0;
    }
}

void tl_store_f64(tl_dtype_t t, void *base, size_t i, double v, tl_round_t mode)
{
    switch (t) {
    case TL_F64: ((double *)base)[i] = v; return;
    case TL_F32: ((float *)base)[i] = tl_f64_to_f32(v, mode); return;
    default: tl_dtype_xval_store(t, base, i, tl_dtype_xval_f64(v), mode); return;
    }
}

int64_t tl_load_i64(tl_dtype_t t, const void *base, size_t i)
{
    uint64_t u = load_bits(t, base, i);
    switch (tl_dtype_kind(t)) {
    case TL_KIND_BOOL: return u != 0;
    case TL_KIND_INT: return sext(u, tl_dtype_bits(t));
    case TL_KIND_UINT: return u > INT64_MAX ? INT64_MAX : (int64_t)u;
    default: break;
    }
    return (int64_t)tl_dtype_xval_to_int(TL_I64, tl_dtype_xval_load(t, base, i), TL_CAST_TRUNC);
}

void tl_store_i64(tl_dtype_t t, void *base, size_t i, int64_t v)
{
    tl_dtype_xval_store(t, base, i, tl_dtype_xval_i64(v), TL_CAST_RINT);
}

// Fast loops for the hot pairs; returns false when (dst, src, mode) has none.
static bool convert_fast(tl_dtype_t dst_t, void *dst, tl_dtype_t src_t, const void *src, size_t n,
                         tl_round_t mode)
{
    bool rint = mode == TL_CAST_RINT || mode == TL_CAST_NONE;
    if (dst_t == src_t) {
        memmove(dst, src, n * (size_t)tl_dtype_size(dst_t));
    } else if (dst_t == TL_F32 && src_t == TL_BF16) {
        for (size_t i = 0; i < n; i++)
            ((float *)dst)[i] = tl_bf16_to_f32_fast(((const uint16_t *)src)[i]);
    } else if (dst_t == TL_F32 && src_t == TL_F16) {
        for (size_t i = 0; i < n; i++)
            ((float *)dst)[i] = tl_f16_to_f32_fast(((const uint16_t *)src)[i]);
    } else if (dst_t == TL_BF16 && src_t == TL_F32 && rint) {
        for (size_t i = 0; i < n; i++)
            ((uint16_t *)dst)[i] = tl_f32_to_bf16_rint(((const float *)src)[i]);
    } else if (dst_t == TL_F16 && src_t == TL_F32 && rint) {
        for (size_t i = 0; i < n; i++)
            ((uint16_t *)dst)[i] = tl_f32_to_f16_rint(((const float *)src)[i]);
    } else if (dst_t == TL_F64 && src_t == TL_F32) {
        for (size_t i = 0; i < n; i++) ((double *)dst)[i] = ((const float *)src)[i];
    } else if (dst_t == TL_F32 && src_t == TL_F64 && rint) {
        for (size_t i = 0; i < n; i++) ((float *)dst)[i] = (float)((const double *)src)[i];
    } else {
        return false;
    }
    return true;
}

void tl_convert(tl_dtype_t dst_t, void *dst, tl_dtype_t src_t, const void *src, size_t n,
                tl_round_t mode)
{
    if (n == 0 || convert_fast(dst_t, dst, src_t, src, n, mode)) return;
    for (size_t i = 0; i < n; i++)
        tl_dtype_xval_store(dst_t, dst, i, tl_dtype_xval_load(src_t, src, i), mode);
}
