// Element types and exact conversions between them.
//
// Narrow floats are stored as their bit patterns (uint16_t / uint8_t). Every
// narrowing conversion takes an explicit rounding mode; the modes are Ascend's
// Cast modes (AscendC RoundMode):
//   TL_CAST_NONE   same value as RINT (Ascend: "no rounding when exact, RINT otherwise")
//   TL_CAST_RINT   round to nearest, ties to even
//   TL_CAST_ROUND  round to nearest, ties away from zero
//   TL_CAST_FLOOR  toward -inf
//   TL_CAST_CEIL   toward +inf
//   TL_CAST_TRUNC  toward zero
//   TL_CAST_ODD    round to odd (von Neumann); defined for float -> float narrowing only
//
// Float -> float narrowing follows IEEE 754 for the chosen direction: NaN stays
// NaN (quiet, sign kept), subnormals are produced and rounded like any value,
// overflow gives Inf in the nearest modes and the largest finite value in the
// directions that round toward zero. float8_e4m3fn has no Inf: it saturates to
// +-448 in every mode, and NaN maps to 0x7F/0xFF.
//
// Float -> integer conversion rounds with the mode, then saturates to the target
// range; NaN converts to 0. Integer -> integer conversion saturates too (Ascend
// vector casts saturate). Conversions to bool give 1 for any non-zero value
// (NaN and Inf included). Widening decodes of a NaN give a quiet NaN.
//
// Element loops and inner loops may call the static inline fast paths at the
// end of this file (tl_f32_to_bf16_rint, tl_f32_to_f16_fast, ...); they give
// the same bits as tl_convert.
#ifndef TL_BASE_DTYPE_H
#define TL_BASE_DTYPE_H

#include "base/common.h"

#include <string.h>

typedef enum { TL_KIND_BOOL, TL_KIND_INT, TL_KIND_UINT, TL_KIND_FLOAT } tl_dtype_kind_t;

// id, canonical name, bytes, kind, C type used in generated code
#define TL_DTYPES(X)                                                                               \
    X(TL_BOOL, "bool", 1, TL_KIND_BOOL, "uint8_t")                                                 \
    X(TL_I8, "int8", 1, TL_KIND_INT, "int8_t")                                                     \
    X(TL_U8, "uint8", 1, TL_KIND_UINT, "uint8_t")                                                  \
    X(TL_I16, "int16", 2, TL_KIND_INT, "int16_t")                                                  \
    X(TL_U16, "uint16", 2, TL_KIND_UINT, "uint16_t")                                               \
    X(TL_I32, "int32", 4, TL_KIND_INT, "int32_t")                                                  \
    X(TL_U32, "uint32", 4, TL_KIND_UINT, "uint32_t")                                               \
    X(TL_I64, "int64", 8, TL_KIND_INT, "int64_t")                                                  \
    X(TL_U64, "uint64", 8, TL_KIND_UINT, "uint64_t")                                               \
    X(TL_F8E4M3, "float8_e4m3fn", 1, TL_KIND_FLOAT, "uint8_t")                                     \
    X(TL_F8E5M2, "float8_e5m2", 1, TL_KIND_FLOAT, "uint8_t")                                       \
    X(TL_F16, "float16", 2, TL_KIND_FLOAT, "uint16_t")                                             \
    X(TL_BF16, "bfloat16", 2, TL_KIND_FLOAT, "uint16_t")                                           \
    X(TL_F32, "float32", 4, TL_KIND_FLOAT, "float")                                                \
    X(TL_F64, "float64", 8, TL_KIND_FLOAT, "double")

typedef enum {
#define X(id, name, bytes, kind, ctype) id,
    TL_DTYPES(X)
#undef X
        TL_DTYPE_COUNT
} tl_dtype_t;

#define TL_CAST_MODES(X)                                                                           \
    X(TL_CAST_NONE, "CAST_NONE")                                                                   \
    X(TL_CAST_RINT, "CAST_RINT")                                                                   \
    X(TL_CAST_ROUND, "CAST_ROUND")                                                                 \
    X(TL_CAST_FLOOR, "CAST_FLOOR")                                                                 \
    X(TL_CAST_CEIL, "CAST_CEIL")                                                                   \
    X(TL_CAST_TRUNC, "CAST_TRUNC")                                                                 \
    X(TL_CAST_ODD, "CAST_ODD")

typedef enum {
#define X(id, name) id,
    TL_CAST_MODES(X)
#undef X
        TL_CAST_MODE_COUNT
} tl_round_t;

// --- type properties -------------------------------------------------------
const char *tl_dtype_name(tl_dtype_t t);
int tl_dtype_size(tl_dtype_t t);
tl_dtype_kind_t tl_dtype_kind(tl_dtype_t t);
const char *tl_dtype_ctype(tl_dtype_t t);
bool tl_dtype_is_float(tl_dtype_t t);
bool tl_dtype_is_int(tl_dtype_t t); // signed or unsigned integer (not bool)
int tl_dtype_bits(tl_dtype_t t);    // 8 * size
// Parses canonical names and the aliases kernels use: "float"/"fp32" -> float32,
// "half"/"fp16" -> float16, "bf16" -> bfloat16, "int" -> int32,
// "float8_e4m3"/"e4m3" -> float8_e4m3fn, "float8_e5m2"/"e5m2", "double" -> float64.
bool tl_dtype_parse(const char *name, tl_dtype_t *out);
// Range of an integer type as doubles (for saturation); bool is [0, 1].
double tl_dtype_min(tl_dtype_t t);
double tl_dtype_max(tl_dtype_t t);
// Largest finite value of a float type (448 for e4m3fn, 57344 for e5m2, ...).
double tl_dtype_max_finite(tl_dtype_t t);

const char *tl_round_name(tl_round_t m);
bool tl_round_parse(const char *name, tl_round_t *out); // "CAST_RINT" etc.

// --- narrow float formats ------------------------------------------------------
float tl_bf16_to_f32(uint16_t h);
float tl_f16_to_f32(uint16_t h);
float tl_f8e4m3_to_f32(uint8_t b);
float tl_f8e5m2_to_f32(uint8_t b);
uint16_t tl_f32_to_bf16(float f, tl_round_t mode);
uint16_t tl_f32_to_f16(float f, tl_round_t mode);
uint8_t tl_f32_to_f8e4m3(float f, tl_round_t mode);
uint8_t tl_f32_to_f8e5m2(float f, tl_round_t mode);
// Double -> float32 with a rounding mode (the FPU's own cast is RINT).
float tl_f64_to_f32(double d, tl_round_t mode);

// --- float -> integer -------------------------------------------------------
// Rounds v to an integral double with the mode (TL_CAST_ODD is not defined
// here: callers must reject it; this function treats it as TRUNC).
double tl_round_integral(double v, tl_round_t mode);

// --- generic element access -------------------------------------------------
// Whether a cast (src -> dst, mode) is defined. Every pair is defined for the
// modes NONE..TRUNC; ODD only when both are floats and dst is narrower.
bool tl_cast_defined(tl_dtype_t dst, tl_dtype_t src, tl_round_t mode);
// Whether the vector unit of Ascend A2/A3 casts src -> dst with `mode` (the
// AscendC Cast of asc-devkit's dav_c220 implementation and its precision
// conversion table). A pair without a Cast does not compile there; a mode the
// pair lacks compiles to no instruction at all (a debug-build assert), so
// both are errors in tilec. int32 -> float16 takes any mode (it is the
// dequantisation through T.set_deq_scale, which ignores the mode). When false,
// *why (if not NULL) says which modes the pair has, or that it has none.
bool tl_cast_on_ascend(tl_dtype_t dst, tl_dtype_t src, tl_round_t mode, const char **why);
// The mode of a T.copy between UB buffers of two dtypes (upstream's
// copy_ub_to_ub: CAST_NONE from float16, bfloat16 and int16 to float32, int8 to
// float16 and int32 to int16, CAST_RINT otherwise).
tl_round_t tl_cast_copy_mode(tl_dtype_t dst, tl_dtype_t src);
// Why tl_cast_on_ascend is false, as a sentence for a diagnostic.
void tl_cast_explain(char *buf, size_t cap, tl_dtype_t dst, tl_dtype_t src, tl_round_t mode);
// The value of a same-dtype float cast with a rounding mode: the Ascend Cast
// from float to float rounds to an integral value (how Round is built on
// A2/A3); n elements of t from src to dst (which may be the same array).
void tl_cast_round_integral(tl_dtype_t t, void *dst, const void *src, size_t n, tl_round_t mode);
// Loads element i of an array of type t as a double. Exact for every type but
// 64-bit integers beyond 2^53.
double tl_load_f64(tl_dtype_t t, const void *base, size_t i);
// Stores v (rounded with `mode`, saturated for integers) as element i.
void tl_store_f64(tl_dtype_t t, void *base, size_t i, double v, tl_round_t mode);
// Loads/stores integers exactly (64-bit); floats are rounded with TRUNC on load
// (NaN -> 0), and uint64 values above INT64_MAX saturate. Stores round with RINT.
int64_t tl_load_i64(tl_dtype_t t, const void *base, size_t i);
void tl_store_i64(tl_dtype_t t, void *base, size_t i, int64_t v);
// Converts n elements. Exact rounding for every pair: a value is rounded once,
// straight from the source to the destination type (no double rounding).
void tl_convert(tl_dtype_t dst_t, void *dst, tl_dtype_t src_t, const void *src, size_t n,
                tl_round_t mode);

// --- exact values (the generic conversion path) ------------------------------
// Every finite value of every type is exactly (-1)^neg * mag * 2^exp. A
// conversion decomposes the source this way and rounds once to the target.
typedef enum { TL_XV_FINITE, TL_XV_INF, TL_XV_NAN } tl_xv_class_t;
typedef struct {
    tl_xv_class_t cls;
    bool neg;
    int exp;
    uint64_t mag;
} tl_xval_t;

tl_xval_t tl_dtype_xval_f64(double d);
tl_xval_t tl_dtype_xval_i64(int64_t v);
// Exact value of element i of an array of type t.
tl_xval_t tl_dtype_xval_load(tl_dtype_t t, const void *base, size_t i);
// Rounds v once to float type t with the mode; returns its bit pattern.
uint64_t tl_dtype_xval_round(tl_dtype_t t, tl_xval_t v, tl_round_t mode);
// Rounds and saturates v to integer (or bool) type t; returns the result's
// bits (two's complement for signed types). ODD is treated as TRUNC.
uint64_t tl_dtype_xval_to_int(tl_dtype_t t, tl_xval_t v, tl_round_t mode);
// Stores v rounded with the mode (saturated for integers) as element i.
void tl_dtype_xval_store(tl_dtype_t t, void *base, size_t i, tl_xval_t v, tl_round_t mode);

// --- inline fast paths (same results as the generic routine) ------------------
static inline uint32_t tl_f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static inline float tl_f32_from_bits(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static inline float tl_bf16_to_f32_fast(uint16_t h)
{
    uint32_t u = (uint32_t)h << 16;
    if ((u & 0x7fffffffu) > 0x7f800000u) u |= 0x00400000u; // quiet NaN
    return tl_f32_from_bits(u);
}

static inline float tl_f16_to_f32_fast(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
    if (e == 0x1f) return tl_f32_from_bits(sign | 0x7f800000u | (m << 13) | (m ? 0x00400000u : 0));
    if (e == 0) return tl_f32_from_bits(sign | tl_f32_bits((float)m * 0x1p-24f));
    return tl_f32_from_bits(sign | ((e + 112) << 23) | (m << 13));
}

// float32 -> bfloat16, round to nearest even.
static inline uint16_t tl_f32_to_bf16_rint(float f)
{
    uint32_t u = tl_f32_bits(f);
    if ((u & 0x7fffffffu) > 0x7f800000u) return (uint16_t)(((u >> 16) & 0x8000u) | 0x7fc0u);
    u += 0x7fffu + ((u >> 16) & 1u);
    return (uint16_t)(u >> 16);
}

static inline float tl_f8e4m3_to_f32_fast(uint8_t b)
{
    uint32_t sign = (uint32_t)(b & 0x80u) << 24;
    uint32_t e = (b >> 3) & 0xfu, m = b & 7u;
    if ((b & 0x7fu) == 0x7fu) return tl_f32_from_bits(sign | 0x7fc00000u);
    if (e == 0) return tl_f32_from_bits(sign | tl_f32_bits((float)m * 0x1p-9f));
    return tl_f32_from_bits(sign | ((e + 120) << 23) | (m << 20));
}

static inline float tl_f8e5m2_to_f32_fast(uint8_t b)
{
    return tl_f16_to_f32_fast((uint16_t)(b << 8)); // e5m2 is the top byte of float16
}

// float32 -> a narrower binary format (ebits/mbits fields, bias; has_inf
// false means an "fn" format that saturates and has NaN only at S.1..1.1..1),
// rounded once with the mode. Same results as the generic routine.
static inline uint32_t tl_f32_narrow(float f, int ebits, int mbits, int bias, bool has_inf,
                                     tl_round_t mode)
{
    uint32_t u = tl_f32_bits(f);
    bool neg = (u >> 31) != 0;
    uint32_t sign = (uint32_t)neg << (ebits + mbits);
    uint32_t mmask = (1u << mbits) - 1, inf = ((1u << ebits) - 1) << mbits;
    uint32_t maxpat = has_inf ? inf - 1 : inf | (mmask - 1);
    u &= 0x7fffffffu;
    if (u > 0x7f800000u) return sign | (has_inf ? inf | (mmask + 1) >> 1 : inf | mmask);
    if (u == 0x7f800000u) return sign | (has_inf ? inf : maxpat);
    uint32_t n, rem, half;
    if (u < (uint32_t)(128 - bias) << 23) { // subnormal result: quantum 2^(1-bias-mbits)
        uint32_t e = u >> 23 ? u >> 23 : 1, m = u >> 23 ? (u & 0x7fffffu) | 0x800000u : u;
        uint32_t shift = (uint32_t)(151 - bias - mbits) - e;
        if (shift > 25) m = m != 0, shift = 25; // only the sticky bit matters
        n = m >> shift, rem = m & ((1u << shift) - 1), half = 1u << (shift - 1);
    } else {
        uint32_t v = u - ((uint32_t)(127 - bias) << 23), k = (uint32_t)(23 - mbits);
        n = v >> k, rem = v & ((1u << k) - 1), half = 1u << (k - 1);
    }
    // Bitwise, not && / ||: the data decides, so branches would mispredict.
    switch (mode) {
    case TL_CAST_NONE:
    case TL_CAST_RINT: n += (uint32_t)(rem > half) | ((uint32_t)(rem == half) & n & 1u); break;
    case TL_CAST_ROUND: n += (uint32_t)(rem >= half); break;
    case TL_CAST_FLOOR: n += (uint32_t)neg & (uint32_t)(rem != 0); break;
    case TL_CAST_CEIL: n += (uint32_t)!neg & (uint32_t)(rem != 0); break;
    case TL_CAST_ODD: n |= (uint32_t)(rem != 0); break;
    default: break;
    }
    if (n > maxpat) {
        bool to_inf = mode == TL_CAST_NONE || mode == TL_CAST_RINT || mode == TL_CAST_ROUND ||
                      (mode == TL_CAST_FLOOR && neg) || (mode == TL_CAST_CEIL && !neg);
        n = has_inf && to_inf ? inf : maxpat;
    }
    return sign | n;
}

static inline uint16_t tl_f32_to_f16_fast(float f, tl_round_t mode)
{
    return (uint16_t)tl_f32_narrow(f, 5, 10, 15, true, mode);
}

static inline uint16_t tl_f32_to_bf16_fast(float f, tl_round_t mode)
{
    return (uint16_t)tl_f32_narrow(f, 8, 7, 127, true, mode);
}

static inline uint8_t tl_f32_to_f8e4m3_fast(float f, tl_round_t mode)
{
    return (uint8_t)tl_f32_narrow(f, 4, 3, 7, false, mode);
}

static inline uint8_t tl_f32_to_f8e5m2_fast(float f, tl_round_t mode)
{
    return (uint8_t)tl_f32_narrow(f, 5, 2, 15, true, mode);
}

// float32 -> float16, round to nearest even; >= 65520 rounds to Inf.
static inline uint16_t tl_f32_to_f16_rint(float f)
{
    return tl_f32_to_f16_fast(f, TL_CAST_RINT);
}

// float32 -> float8_e5m2, round to nearest even; >= 61440 rounds to Inf.
static inline uint8_t tl_f32_to_f8e5m2_rint(float f)
{
    return tl_f32_to_f8e5m2_fast(f, TL_CAST_RINT);
}

// float32 -> float8_e4m3fn, round to nearest even; saturates to +-448.
static inline uint8_t tl_f32_to_f8e4m3_rint(float f)
{
    return tl_f32_to_f8e4m3_fast(f, TL_CAST_RINT);
}

#endif
