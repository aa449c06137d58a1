// Exact rounding: values as (sign, 64-bit significand, exponent), one routine
// that rounds them to any float format or integer type, and the narrow-float
// conversions built on it.
#include "base/dtype.h"

#include <math.h>

// A binary float format. Formats without Inf ("fn") use only S.1..1.1..1 for
// NaN and saturate on overflow.
typedef struct {
    int ebits, mbits, bias;
    bool has_inf;
} fmt_t;

static const fmt_t *fmt_of(tl_dtype_t t)
{
    static const fmt_t e4m3 = {4, 3, 7, false}, e5m2 = {5, 2, 15, true};
    static const fmt_t f16 = {5, 10, 15, true}, bf16 = {8, 7, 127, true};
    static const fmt_t f32 = {8, 23, 127, true}, f64 = {11, 52, 1023, true};
    switch (t) {
    case TL_F8E4M3: return &e4m3;
    case TL_F8E5M2: return &e5m2;
    case TL_F16: return &f16;
    case TL_BF16: return &bf16;
    case TL_F32: return &f32;
    case TL_F64: return &f64;
    default: return NULL;
    }
}

static int clz64(uint64_t x)
{
    return __builtin_clzll(x);
}

// Rounds the integer n plus a discarded fraction to an integer with the mode;
// the fraction is described by its top bit (half) and whether any bit below
// it is set (sticky).
static uint64_t round_step(uint64_t n, bool half, bool sticky, bool neg, tl_round_t mode)
{
    bool inexact = half || sticky;
    switch (mode) {
    case TL_CAST_NONE:
    case TL_CAST_RINT: return n + (half && (sticky || (n & 1)));
    case TL_CAST_ROUND: return n + half;
    case TL_CAST_FLOOR: return n + (inexact && neg);
    case TL_CAST_CEIL: return n + (inexact && !neg);
    case TL_CAST_ODD: return n | inexact;
    default: return n; // TRUNC
    }
}

// mag * 2^-shift rounded to an integer; shift <= 0 must not overflow.
static uint64_t shift_round(uint64_t mag, int shift, bool neg, tl_round_t mode)
{
    if (shift <= 0) return mag << -shift;
    if (shift > 64) return round_step(0, false, mag != 0, neg, mode);
    if (shift == 64) return round_step(0, mag >> 63, (mag << 1) != 0, neg, mode);
    uint64_t low = mag & ((UINT64_C(1) << (shift - 1)) - 1);
    return round_step(mag >> shift, (mag >> (shift - 1)) & 1, low != 0, neg, mode);
}

tl_xval_t tl_dtype_xval_i64(int64_t v)
{
    tl_xval_t x = {TL_XV_FINITE, v < 0, 0, v < 0 ? 0 - (uint64_t)v : (uint64_t)v};
    return x;
}

// Decodes the bit pattern of a float format exactly.
static tl_xval_t decode(const fmt_t *f, uint64_t bits)
{
    uint64_t mmask = (UINT64_C(1) << f->mbits) - 1, emask = (UINT64_C(1) << f->ebits) - 1;
    uint64_t m = bits & mmask, e = (bits >> f->mbits) & emask;
    tl_xval_t x = {TL_XV_FINITE, (bits >> (f->ebits + f->mbits)) & 1, 0, m};
    if (e == emask && f->has_inf) {
        x.cls = m ? TL_XV_NAN : TL_XV_INF;
    } else if (e == emask && m == mmask) {
        x.cls = TL_XV_NAN;
    } else if (e == 0) {
        x.exp = 1 - f->bias - f->mbits;
    } else {
        x.mag = m | (mmask + 1);
        x.exp = (int)e - f->bias - f->mbits;
    }
    return x;
}

tl_xval_t tl_dtype_xval_f64(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return decode(fmt_of(TL_F64), u);
}

static uint64_t round_fmt(const fmt_t *f, tl_xval_t v, tl_round_t mode)
{
    uint64_t mmask = (UINT64_C(1) << f->mbits) - 1, emask = (UINT64_C(1) << f->ebits) - 1;
    uint64_t sign = (uint64_t)v.neg << (f->ebits + f->mbits);
    uint64_t inf = emask << f->mbits;
    uint64_t maxenc = f->has_inf ? inf - 1 : inf | (mmask - 1);
    if (v.cls == TL_XV_NAN) return sign | (f->has_inf ? inf | (mmask + 1) >> 1 : inf | mmask);
    if (v.cls == TL_XV_INF) return sign | (f->has_inf ? inf : maxenc);
    if (v.mag == 0) return sign;
    int e = 63 - clz64(v.mag) + v.exp; // exponent of the leading bit
    int emin = 1 - f->bias;
    uint64_t enc = 0;
    bool over = e > (int)emask + 1 - f->bias;
    if (!over) {
        int eq = TL_MAX(e, emin);
        uint64_t n = shift_round(v.mag, eq - f->mbits - v.exp, v.neg, mode);
        enc = ((uint64_t)(eq + f->bias - 1) << f->mbits) + n;
        over = enc > maxenc;
    }
    if (over) {
        bool to_inf = mode == TL_CAST_NONE || mode == TL_CAST_RINT || mode == TL_CAST_ROUND ||
                      (mode == TL_CAST_FLOOR && v.neg) || (mode == TL_CAST_CEIL && !v.neg);
        enc = f->has_inf && to_inf ? inf : maxenc;
    }
    return sign | enc;
}

uint64_t tl_dtype_xval_round(tl_dtype_t t, tl_xval_t v, tl_round_t mode)
{
    const fmt_t *f = fmt_of(t);
    return f ? round_fmt(f, v, mode) : 0;
}

uint64_t tl_dtype_xval_to_int(tl_dtype_t t, tl_xval_t v, tl_round_t mode)
{
    if (tl_dtype_kind(t) == TL_KIND_BOOL) return v.cls != TL_XV_FINITE || v.mag != 0;
    if (v.cls == TL_XV_NAN) return 0;
    bool is_signed = tl_dtype_kind(t) == TL_KIND_INT;
    int bits = tl_dtype_bits(t);
    // Largest magnitude allowed on each side.
    uint64_t pos_max = is_signed ? (UINT64_C(1) << (bits - 1)) - 1
                                 : (bits == 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1);
    uint64_t neg_max = is_signed ? UINT64_C(1) << (bits - 1) : 0;
    uint64_t u;
    if (mode == TL_CAST_ODD) mode = TL_CAST_TRUNC;
    if (v.cls == TL_XV_FINITE && v.mag == 0)
        u = 0;
    else if (v.cls == TL_XV_INF || (v.exp > 0 && (v.exp >= 64 || clz64(v.mag) < v.exp)))
        u = UINT64_MAX;
    else
        u = shift_round(v.mag, -v.exp, v.neg, mode);
    if (!v.neg) return TL_MIN(u, pos_max);
    return 0 - TL_MIN(u, neg_max);
}

// --- narrow float formats ---------------------------------------------------

float tl_bf16_to_f32(uint16_t h)
{
    return tl_bf16_to_f32_fast(h);
}

float tl_f16_to_f32(uint16_t h)
{
    return tl_f16_to_f32_fast(h);
}

float tl_f8e4m3_to_f32(uint8_t b)
{
    return tl_f8e4m3_to_f32_fast(b);
}

float tl_f8e5m2_to_f32(uint8_t b)
{
    return tl_f8e5m2_to_f32_fast(b);
}

uint16_t tl_f32_to_bf16(float f, tl_round_t mode)
{
    if (mode == TL_CAST_RINT || mode == TL_CAST_NONE) return tl_f32_to_bf16_rint(f);
    return tl_f32_to_bf16_fast(f, mode);
}

uint16_t tl_f32_to_f16(float f, tl_round_t mode)
{
    return tl_f32_to_f16_fast(f, mode);
}

uint8_t tl_f32_to_f8e4m3(float f, tl_round_t mode)
{
    return tl_f32_to_f8e4m3_fast(f, mode);
}

uint8_t tl_f32_to_f8e5m2(float f, tl_round_t mode)
{
    return tl_f32_to_f8e5m2_fast(f, mode);
}

float tl_f64_to_f32(double d, tl_round_t mode)
{
    if (mode == TL_CAST_RINT || mode == TL_CAST_NONE) return (float)d;
    return tl_f32_from_bits((uint32_t)round_fmt(fmt_of(TL_F32), tl_dtype_xval_f64(d), mode));
}

double tl_round_integral(double v, tl_round_t mode)
{
    if (!(fabs(v) < 0x1p52)) return v; // already integral, Inf or NaN
    int64_t i = (int64_t)v;            // toward zero
    double t = (double)i, diff = v - t, ad = fabs(diff), dir = v < 0 ? -1.0 : 1.0;
    double r;
    switch (mode) {
    case TL_CAST_NONE:
    case TL_CAST_RINT: r = t + dir * ((ad > 0.5) | ((ad == 0.5) & (int)(i & 1))); break;
    case TL_CAST_ROUND: r = t + dir * (ad >= 0.5); break;
    case TL_CAST_FLOOR: r = t - (diff < 0); break;
    case TL_CAST_CEIL: r = t + (diff > 0); break;
    default: r = t; break;
    }
    return r == 0.0 ? copysign(0.0, v) : r;
}
