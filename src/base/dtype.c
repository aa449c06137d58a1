// The element-type table: names, sizes, kinds, ranges, name parsing.
#include "base/dtype.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

typedef struct {
    const char *name;
    int bytes;
    tl_dtype_kind_t kind;
    const char *ctype;
} dtype_info_t;

static const dtype_info_t infos[TL_DTYPE_COUNT] = {
#define X(id, name, bytes, kind, ctype) {name, bytes, kind, ctype},
    TL_DTYPES(X)
#undef X
};

static const char *const round_names[TL_CAST_MODE_COUNT] = {
#define X(id, name) name,
    TL_CAST_MODES(X)
#undef X
};

static const struct {
    const char *alias;
    tl_dtype_t t;
} aliases[] = {
    {"float", TL_F32},   {"fp32", TL_F32},   {"half", TL_F16},           {"fp16", TL_F16},
    {"bf16", TL_BF16},   {"int", TL_I32},    {"uint", TL_U32},    {"float8_e4m3", TL_F8E4M3}, {"e4m3", TL_F8E4M3},
    {"e5m2", TL_F8E5M2}, {"double", TL_F64},
    // TVM spellings
    {"e4m3_float8", TL_F8E4M3}, {"e5m2_float8", TL_F8E5M2}, {"float8_e4m3fnuz", TL_F8E4M3},
    {"float8_e5m2fnuz", TL_F8E5M2},
};

static bool valid(tl_dtype_t t)
{
    return (unsigned)t < TL_DTYPE_COUNT;
}

const char *tl_dtype_name(tl_dtype_t t)
{
    return valid(t) ? infos[t].name : "?";
}

int tl_dtype_size(tl_dtype_t t)
{
    return valid(t) ? infos[t].bytes : 0;
}

tl_dtype_kind_t tl_dtype_kind(tl_dtype_t t)
{
    return valid(t) ? infos[t].kind : TL_KIND_BOOL;
}

const char *tl_dtype_ctype(tl_dtype_t t)
{
    return valid(t) ? infos[t].ctype : "?";
}

bool tl_dtype_is_float(tl_dtype_t t)
{
    return valid(t) && infos[t].kind == TL_KIND_FLOAT;
}

bool tl_dtype_is_int(tl_dtype_t t)
{
    return valid(t) && (infos[t].kind == TL_KIND_INT || infos[t].kind == TL_KIND_UINT);
}

int tl_dtype_bits(tl_dtype_t t)
{
    return 8 * tl_dtype_size(t);
}

bool tl_dtype_parse(const char *name, tl_dtype_t *out)
{
    if (!name) return false;
    for (int i = 0; i < TL_DTYPE_COUNT; i++) {
        if (strcmp(name, infos[i].name) == 0) {
            *out = (tl_dtype_t)i;
            return true;
        }
    }
    for (size_t i = 0; i < TL_ARRAY_LEN(aliases); i++) {
        if (strcmp(name, aliases[i].alias) == 0) {
            *out = aliases[i].t;
            return true;
        }
    }
    return false;
}

double tl_dtype_max_finite(tl_dtype_t t)
{
    switch (t) {
    case TL_F8E4M3: return 448.0;
    case TL_F8E5M2: return 57344.0;
    case TL_F16: return 65504.0;
    case TL_BF16: return ldexp(255.0, 120); // 0x7f7f
    case TL_F32: return FLT_MAX;
    case TL_F64: return DBL_MAX;
    default: return tl_dtype_max(t);
    }
}

double tl_dtype_min(tl_dtype_t t)
{
    if (tl_dtype_is_float(t)) return -tl_dtype_max_finite(t);
    if (tl_dtype_kind(t) != TL_KIND_INT) return 0.0;
    return -ldexp(1.0, tl_dtype_bits(t) - 1);
}

double tl_dtype_max(tl_dtype_t t)
{
    if (tl_dtype_is_float(t)) return tl_dtype_max_finite(t);
    switch (tl_dtype_kind(t)) {
    case TL_KIND_INT: return ldexp(1.0, tl_dtype_bits(t) - 1) - 1.0;
    case TL_KIND_UINT: return ldexp(1.0, tl_dtype_bits(t)) - 1.0;
    default: return 1.0;
    }
}

const char *tl_round_name(tl_round_t m)
{
    return (unsigned)m < TL_CAST_MODE_COUNT ? round_names[m] : "?";
}

bool tl_round_parse(const char *name, tl_round_t *out)
{
    if (!name) return false;
    for (int i = 0; i < TL_CAST_MODE_COUNT; i++) {
        if (strcmp(name, round_names[i]) == 0) {
            *out = (tl_round_t)i;
            return true;
        }
    }
    return false;
}

// The vector Casts of Ascend A2/A3: asc-devkit impl/basic_api/dav_c220/
// kernel_operator_vec_vconv_impl.h (one CastIntrinsicsImpl per pair, one
// instruction per supported mode) and docs Cast.md's A2/A3 table. R5 is
// RINT, FLOOR, CEIL, ROUND and TRUNC.
enum {
    M_NONE = 1 << TL_CAST_NONE,
    M_ODD = 1 << TL_CAST_ODD,
    M_ANY = (1 << TL_CAST_MODE_COUNT) - 1
};
#define R5                                                                                         \
    ((1 << TL_CAST_RINT) | (1 << TL_CAST_FLOOR) | (1 << TL_CAST_CEIL) | (1 << TL_CAST_ROUND) |     \
     (1 << TL_CAST_TRUNC))
static const struct {
    tl_dtype_t src, dst;
    int modes;
    const char *names;
} ascend_casts[] = {
    {TL_I8, TL_F16, M_NONE, "CAST_NONE"},
    {TL_U8, TL_F16, M_NONE, "CAST_NONE"},
    {TL_I16, TL_F16, R5 | M_NONE, "CAST_RINT, FLOOR, CEIL, ROUND, TRUNC, NONE"},
    {TL_I16, TL_F32, M_NONE, "CAST_NONE"},
    {TL_F16, TL_I8, R5 | M_NONE, "CAST_RINT, FLOOR, CEIL, ROUND, TRUNC, NONE"},
    {TL_F16, TL_U8, R5 | M_NONE, "CAST_RINT, FLOOR, CEIL, ROUND, TRUNC, NONE"},
    {TL_F16, TL_I16, R5, "CAST_RINT, FLOOR, CEIL, ROUND, TRUNC"},
    {TL_F16, TL_I32, R5, "CAST_RINT, FLOOR, CEIL, ROUND, TRUNC"},
    {TL_F16, TL_F32, M_NONE, "CAST_NONE"},
    {TL_BF16, TL_I32, R5, "CAST_RINT, FLOOR, CEIL, ROUND, TRUNC"},
    {TL_BF16, TL_F32, M_NONE, "CAST_NONE"},
    {TL_I32, TL_I16, M_NONE, "CAST_NONE"},
    {TL_I32, TL_F16, M_ANY, "any (the deq scale)"},
    {TL_I32, TL_F32, R5 | M_NONE, "CAST_RINT, FLOOR, CEIL, ROUND, TRUNC, NONE"},
    {TL_I32, TL_I64, M_NONE, "CAST_NONE"},
    {TL_F32, TL_I16, R5, "CAST_RINT, FLOOR, CEIL, ROUND, TRUNC"},
    {TL_F32, TL_F16, R5 | M_ODD | M_NONE, "CAST_RINT, FLOOR, CEIL, ROUND, TRUNC, ODD, NONE"},
    {TL_F32, TL_BF16, R5, "CAST_RINT, FLOOR, CEIL, ROUND, TRUNC"},
    {TL_F32, TL_I32, R5, "CAST_RINT, FLOOR, CEIL, ROUND, TRUNC"},
    {TL_F32, TL_F32, R5, "CAST_RINT, FLOOR, CEIL, ROUND, TRUNC (to an integral value)"},
    {TL_F32, TL_I64, R5, "CAST_RINT, FLOOR, CEIL, ROUND, TRUNC"},
    {TL_I64, TL_I32, M_NONE, "CAST_NONE"},
    {TL_I64, TL_F32, R5, "CAST_RINT, FLOOR, CEIL, ROUND, TRUNC"},
};
#undef R5

bool tl_cast_on_ascend(tl_dtype_t dst, tl_dtype_t src, tl_round_t mode, const char **why)
{
    for (size_t i = 0; i < TL_ARRAY_LEN(ascend_casts); i++) {
        if (ascend_casts[i].src != src || ascend_casts[i].dst != dst) continue;
        if ((unsigned)mode < TL_CAST_MODE_COUNT && (ascend_casts[i].modes >> mode & 1)) return true;
        if (why) *why = ascend_casts[i].names;
        return false;
    }
    if (why) *why = NULL;
    return false;
}

tl_round_t tl_cast_copy_mode(tl_dtype_t dst, tl_dtype_t src)
{
    bool none = (dst == TL_F32 && (src == TL_F16 || src == TL_BF16 || src == TL_I16)) ||
                (dst == TL_F16 && src == TL_I8) || (dst == TL_I16 && src == TL_I32);
    return none ? TL_CAST_NONE : TL_CAST_RINT;
}

void tl_cast_explain(char *buf, size_t cap, tl_dtype_t dst, tl_dtype_t src, tl_round_t mode)
{
    const char *modes;
    if (tl_cast_on_ascend(dst, src, mode, &modes))
        snprintf(buf, cap, "%s casts from %s to %s", tl_round_name(mode), tl_dtype_name(src),
                 tl_dtype_name(dst));
    else if (!modes)
        snprintf(buf, cap,
                 "Ascend A2/A3 have no vector cast from %s to %s (asc-devkit Cast; cast in steps "
                 "through a type that has one, e.g. float32 -> float16 -> int8)",
                 tl_dtype_name(src), tl_dtype_name(dst));
    else
        snprintf(buf, cap,
                 "%s is not a mode of the Ascend A2/A3 cast from %s to %s, which takes %s "
                 "(asc-devkit Cast; the device build emits no instruction for it)",
                 tl_round_name(mode), tl_dtype_name(src), tl_dtype_name(dst), modes);
}

void tl_cast_round_integral(tl_dtype_t t, void *dst, const void *src, size_t n, tl_round_t mode)
{
    if (t == TL_F32) {
        const float *s = src;
        float *d = dst;
        switch (mode) {
        case TL_CAST_FLOOR:
            for (size_t i = 0; i < n; i++) d[i] = floorf(s[i]);
            break;
        case TL_CAST_CEIL:
            for (size_t i = 0; i < n; i++) d[i] = ceilf(s[i]);
            break;
        case TL_CAST_ROUND:
            for (size_t i = 0; i < n; i++) d[i] = roundf(s[i]);
            break;
        case TL_CAST_TRUNC:
            for (size_t i = 0; i < n; i++) d[i] = truncf(s[i]);
            break;
        default:
            for (size_t i = 0; i < n; i++) d[i] = rintf(s[i]);
            break; // RINT, NONE
        }
        return;
    }
    // other float formats: exact through double (their integral values are doubles)
    for (size_t i = 0; i < n; i++) {
        double v = tl_load_f64(t, src, i);
        if (isfinite(v)) v = tl_round_integral(v, mode == TL_CAST_NONE ? TL_CAST_RINT : mode);
        tl_store_f64(t, dst, i, v, TL_CAST_RINT);
    }
}

bool tl_cast_defined(tl_dtype_t dst, tl_dtype_t src, tl_round_t mode)
{
    if (!valid(dst) || !valid(src) || (unsigned)mode >= TL_CAST_MODE_COUNT) return false;
    if (mode != TL_CAST_ODD) return true;
    return tl_dtype_is_float(dst) && tl_dtype_is_float(src) &&
           tl_dtype_size(dst) < tl_dtype_size(src);
}
