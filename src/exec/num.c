// Scalar values with the IR's dtype semantics: the reference executor's
// scalars (exec_expr.c), also the CPU target's constants and conversions, so
// both backends compute the same bits. Integers are held in 64 bits wrapped to
// their dtype (uint64 keeps its bits), floats as doubles already rounded to
// theirs.
#include "exec/num.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

int64_t tl_num_wrap(int64_t v, tl_dtype_t t)
{
    if (t == TL_BOOL) return v != 0;
    int bits = tl_dtype_bits(t);
    if (!tl_dtype_is_int(t) || bits >= 64) return v;
    uint64_t mask = (UINT64_C(1) << bits) - 1, u = (uint64_t)v & mask;
    if (tl_dtype_kind(t) == TL_KIND_INT && (u >> (bits - 1))) u |= ~mask;
    return (int64_t)u;
}

// Rounds an exact value to float type t (RINT) and returns it as a double.
static double round_xval(tl_dtype_t t, tl_xval_t v)
{
    uint8_t tmp[8] = {0};
    tl_dtype_xval_store(t, tmp, 0, v, TL_CAST_RINT);
    return tl_load_f64(t, tmp, 0);
}

double tl_num_round(tl_dtype_t t, double f)
{
    if (t == TL_F64) return f;
    if (t == TL_F32) return (float)f; // the FPU's conversion is RINT
    return round_xval(t, tl_dtype_xval_f64(f));
}

tl_num_t tl_num_cast(tl_num_t v, tl_dtype_t t)
{
    if (v.t == t) return v;
    tl_num_t r = {t, 0, 0};
    bool from_float = tl_dtype_is_float(v.t);
    if (tl_dtype_is_float(t)) {
        if (from_float) {
            r.f = tl_num_round(t, v.f);
        } else if (v.t == TL_U64) {
            uint64_t u = (uint64_t)v.i;
            r.f = round_xval(t, tl_dtype_xval_load(TL_U64, &u, 0));
        } else {
            r.f = round_xval(t, tl_dtype_xval_i64(v.i));
        }
    } else if (t == TL_BOOL) {
        r.i = from_float ? v.f != 0 : v.i != 0;
    } else if (from_float) {
        uint8_t tmp[8] = {0};
        tl_dtype_xval_store(t, tmp, 0, tl_dtype_xval_f64(v.f), TL_CAST_TRUNC);
        r = tl_num_load(t, tmp);
    } else {
        r.i = tl_num_wrap(v.i, t);
    }
    return r;
}

tl_num_t tl_num_int(int64_t v, tl_dtype_t t)
{
    tl_num_t n = {TL_I64, v, 0};
    return tl_num_cast(n, t);
}

bool tl_num_true(tl_num_t v)
{
    return tl_dtype_is_float(v.t) ? v.f != 0 : v.i != 0;
}

bool tl_num_same(tl_num_t a, tl_num_t b)
{
    if (tl_dtype_is_float(a.t) != tl_dtype_is_float(b.t)) return false;
    if (!tl_dtype_is_float(a.t)) return a.i == b.i;
    return a.f == b.f || (isnan(a.f) && isnan(b.f));
}

void tl_num_print(tl_buf_t *b, tl_num_t v)
{
    if (tl_dtype_is_float(v.t))
        tl_buf_printf(b, "%.9g", v.f);
    else if (v.t == TL_U64)
        tl_buf_printf(b, "%" PRIu64, (uint64_t)v.i);
    else
        tl_buf_printf(b, "%" PRId64, v.i);
}

tl_num_t tl_num_load(tl_dtype_t t, const uint8_t *p)
{
    tl_num_t n = {t, 0, 0};
    if (tl_dtype_is_float(t)) {
        n.f = tl_load_f64(t, p, 0);
        return n;
    }
    switch (tl_dtype_size(t)) {
    case 1: {
        uint8_t u = *p;
        n.i = t == TL_I8 ? (int8_t)u : t == TL_BOOL ? u != 0 : u;
        break;
    }
    case 2: {
        uint16_t u;
        memcpy(&u, p, 2);
        n.i = t == TL_I16 ? (int64_t)(int16_t)u : (int64_t)u;
        break;
    }
    case 4: {
        uint32_t u;
        memcpy(&u, p, 4);
        n.i = t == TL_I32 ? (int64_t)(int32_t)u : (int64_t)u;
        break;
    }
    default: {
        uint64_t u;
        memcpy(&u, p, 8);
        n.i = (int64_t)u;
        break;
    }
    }
    return n;
}

void tl_num_store(tl_dtype_t t, uint8_t *p, tl_num_t v)
{
    v = tl_num_cast(v, t);
    if (tl_dtype_is_float(t)) {
        tl_store_f64(t, p, 0, v.f, TL_CAST_RINT); // exact: v is already rounded to t
        return;
    }
    uint64_t u = (uint64_t)v.i;
    switch (tl_dtype_size(t)) {
    case 1: *p = (uint8_t)u; break;
    case 2: {
        uint16_t h = (uint16_t)u;
        memcpy(p, &h, 2);
        break;
    }
    case 4: {
        uint32_t w = (uint32_t)u;
        memcpy(p, &w, 4);
        break;
    }
    default: memcpy(p, &u, 8); break;
    }
}
