// The element-type table: names, sizes, kinds, ranges, name parsing.
#include "base/dtype.h"

#include <float.h>
#include <math.h>
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

bool tl_cast_defined(tl_dtype_t dst, tl_dtype_t src, tl_round_t mode)
{
    if (!valid(dst) || !valid(src) || (unsigned)mode >= TL_CAST_MODE_COUNT) return false;
    if (mode != TL_CAST_ODD) return true;
    return tl_dtype_is_float(dst) && tl_dtype_is_float(src) &&
           tl_dtype_size(dst) < tl_dtype_size(src);
}
