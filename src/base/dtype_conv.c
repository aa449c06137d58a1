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

#define LOOP(dt, st, expr)                                                                         \
    do {                                                                                           \
        const st *s_ = src;                                                                        \
        dt *d_ = dst;                                                                              \
        for (size_t i = 0; i < n; i++) {                                                           \
            st x = s_[i];                                                                          \
            d_[i] = (expr);                                                                        \
        }                                                                                          \
    } while (0)

// One loop per mode, so the mode is a constant the compiler folds away.
#define NARROW_LOOPS(dt, fn)                                                                       \
    switch (mode) {                                                                                \
    case TL_CAST_ROUND: LOOP(dt, float, fn(x, TL_CAST_ROUND)); break;                              \
    case TL_CAST_FLOOR: LOOP(dt, float, fn(x, TL_CAST_FLOOR)); break;                              \
    case TL_CAST_CEIL: LOOP(dt, float, fn(x, TL_CAST_CEIL)); break;                                \
    case TL_CAST_TRUNC: LOOP(dt, float, fn(x, TL_CAST_TRUNC)); break;                              \
    case TL_CAST_ODD: LOOP(dt, float, fn(x, TL_CAST_ODD)); break;                                  \
    default: LOOP(dt, float, fn(x, TL_CAST_RINT)); break;                                          \
    }

static bool is_small_int(tl_dtype_t t)
{
    return tl_dtype_is_int(t) && tl_dtype_size(t) <= 4;
}

// Integer (or bool) -> integer (or bool), saturating. Not for uint64 -> uint64.
static void int_to_int(tl_dtype_t dst_t, void *dst, tl_dtype_t src_t, const void *src, size_t n)
{
    int64_t lo = tl_dtype_kind(dst_t) == TL_KIND_INT ? (int64_t)tl_dtype_min(dst_t) : 0;
    int64_t hi = dst_t == TL_I64 || dst_t == TL_U64 ? INT64_MAX : (int64_t)tl_dtype_max(dst_t);
    for (size_t i = 0; i < n; i++) {
        int64_t v = tl_load_i64(src_t, src, i);
        if (dst_t == TL_BOOL) v = v != 0;
        store_bits(dst_t, dst, i, (uint64_t)(v < lo ? lo : v > hi ? hi : v));
    }
}

// Float -> integer of at most 32 bits: its range is exact in double.
static void float_to_small_int(tl_dtype_t dst_t, void *dst, tl_dtype_t src_t, const void *src,
                               size_t n, tl_round_t mode)
{
    double lo = tl_dtype_min(dst_t), hi = tl_dtype_max(dst_t);
    for (size_t i = 0; i < n; i++) {
        double v = src_t == TL_F32 ? ((const float *)src)[i] : tl_load_f64(src_t, src, i);
        v = tl_round_integral(v, mode);
        v = isnan(v) ? 0.0 : v < lo ? lo : v > hi ? hi : v;
        store_bits(dst_t, dst, i, (uint64_t)(int64_t)v);
    }
}

// Fast loops for the hot pairs; returns false when (dst, src, mode) has none.
static bool convert_fast(tl_dtype_t dst_t, void *dst, tl_dtype_t src_t, const void *src, size_t n,
                         tl_round_t mode)
{
    bool rint = mode == TL_CAST_RINT || mode == TL_CAST_NONE;
    bool src_int = tl_dtype_is_int(src_t) || src_t == TL_BOOL;
    bool dst_int = tl_dtype_is_int(dst_t) || dst_t == TL_BOOL;
    if (dst_t == src_t) {
        memmove(dst, src, n * (size_t)tl_dtype_size(dst_t));
    } else if (dst_t == TL_F32 && src_t == TL_BF16) {
        LOOP(float, uint16_t, tl_bf16_to_f32_fast(x));
    } else if (dst_t == TL_F32 && src_t == TL_F16) {
        LOOP(float, uint16_t, tl_f16_to_f32_fast(x));
    } else if (dst_t == TL_F32 && src_t == TL_F8E4M3) {
        LOOP(float, uint8_t, tl_f8e4m3_to_f32_fast(x));
    } else if (dst_t == TL_F32 && src_t == TL_F8E5M2) {
        LOOP(float, uint8_t, tl_f8e5m2_to_f32_fast(x));
    } else if (dst_t == TL_BF16 && src_t == TL_F32 && rint) {
        LOOP(uint16_t, float, tl_f32_to_bf16_rint(x));
    } else if (dst_t == TL_BF16 && src_t == TL_F32) {
        NARROW_LOOPS(uint16_t, tl_f32_to_bf16_fast);
    } else if (dst_t == TL_F16 && src_t == TL_F32) {
        NARROW_LOOPS(uint16_t, tl_f32_to_f16_fast);
    } else if (dst_t == TL_F8E4M3 && src_t == TL_F32) {
        NARROW_LOOPS(uint8_t, tl_f32_to_f8e4m3_fast);
    } else if (dst_t == TL_F8E5M2 && src_t == TL_F32) {
        NARROW_LOOPS(uint8_t, tl_f32_to_f8e5m2_fast);
    } else if (dst_t == TL_F64 && src_t == TL_F32) {
        LOOP(double, float, x);
    } else if (dst_t == TL_F32 && src_t == TL_F64 && rint) {
        LOOP(float, double, (float)x);
    } else if ((dst_t == TL_F32 && rint) || dst_t == TL_F64) {
        if (!is_small_int(src_t)) return false;
        // One rounding at most: C's int -> float conversion rounds to nearest even.
        for (size_t i = 0; i < n; i++) {
            int64_t v = tl_load_i64(src_t, src, i);
            if (dst_t == TL_F32)
                ((float *)dst)[i] = (float)v;
            else
                ((double *)dst)[i] = (double)v;
        }
    } else if (src_int && dst_int) {
        int_to_int(dst_t, dst, src_t, src, n);
    } else if (is_small_int(dst_t) && tl_dtype_is_float(src_t)) {
        float_to_small_int(dst_t, dst, src_t, src, n, mode);
    } else {
        return false;
    }
    return true;
}
#undef LOOP
#undef NARROW_LOOPS

void tl_convert(tl_dtype_t dst_t, void *dst, tl_dtype_t src_t, const void *src, size_t n,
                tl_round_t mode)
{
    if (n == 0 || convert_fast(dst_t, dst, src_t, src, n, mode)) return;
    for (size_t i = 0; i < n; i++)
        tl_dtype_xval_store(dst_t, dst, i, tl_dtype_xval_load(src_t, src, i), mode);
}
