// The tile-op library's entry point: dispatch by op family, operand access,
// flat spans with their bounds checks, scalar conversion and the chunked
// element loads/stores the vector ops compute through.
//
// Flat spans (surface §2.5): a vector operand is the run of prod(extents)
// elements starting at the row-major offset of its region origin. A region
// whose elements are not one contiguous run (a column block of a wider
// buffer) is rejected with an error instead of silently processing the flat
// run as upstream does; an explicit element count (`count` operands) always
// means "count elements from the origin".
#include "exec/tileop_impl.h"

#include <stdarg.h>
#include <stdio.h>

int64_t tl_view_count(const tl_view_t *v)
{
    int64_t n = 1;
    for (int d = 0; d < v->ndim; d++) n *= v->extent[d];
    return n;
}

int64_t tl_view_offset(const tl_view_t *v)
{
    int64_t off = 0;
    for (int d = 0; d < v->ndim; d++) off = off * v->shape[d] + v->start[d];
    return off;
}

static int64_t shape_numel(const tl_view_t *v)
{
    int64_t n = 1;
    for (int d = 0; d < v->ndim; d++) n *= v->shape[d];
    return n;
}

const char *tl_tileop_name(const tl_opcall_t *call, char *buf, size_t size)
{
    snprintf(buf, size, "%s", tl_op_info(call->op->code)->spelling);
    return buf;
}

tl_status_t tl_tileop_fail(tl_tileop_ctx_t *ctx, const tl_opcall_t *call, tl_status_t code,
                           const char *fmt, ...)
{
    if (!ctx->diag) return code;
    char name[64], msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return tl_diag_report(ctx->diag, TL_SEV_ERROR, call->loc, code, "%s: %s",
                          tl_tileop_name(call, name, sizeof name), msg);
}

const char *tl_tileop_dims(char *buf, size_t size, const int64_t *d, int nd)
{
    size_t len = 0;
    len += (size_t)snprintf(buf, size, "[");
    for (int i = 0; i < nd && len < size; i++)
        len += (size_t)snprintf(buf + len, size - len, "%s%lld", i ? ", " : "", (long long)d[i]);
    if (len < size) snprintf(buf + len, size - len, "]");
    return buf;
}

tl_status_t tl_tileop_view(tl_tileop_ctx_t *ctx, const tl_opcall_t *call, int i,
                           const tl_view_t **out)
{
    if (i >= call->nargs || !call->args[i].is_view)
        return tl_tileop_fail(ctx, call, TL_ERR_INTERNAL, "operand %d must be a buffer region",
                              i + 1);
    *out = &call->args[i].view;
    return TL_OK;
}

tl_status_t tl_tileop_scalar(tl_tileop_ctx_t *ctx, const tl_opcall_t *call, int i, tl_scalar_t *out)
{
    if (i >= call->nargs || call->args[i].is_view)
        return tl_tileop_fail(ctx, call, TL_ERR_INTERNAL, "operand %d must be a scalar", i + 1);
    *out = call->args[i].scalar;
    return TL_OK;
}

tl_status_t tl_tileop_count(tl_tileop_ctx_t *ctx, const tl_opcall_t *call, int i, int64_t *out)
{
    *out = -1;
    if (i >= call->nargs) return TL_OK;
    tl_scalar_t s;
    tl_status_t st = tl_tileop_scalar(ctx, call, i, &s);
    if (st != TL_OK) return st;
    int64_t n = tl_tileop_scalar_int(&s);
    if (n < 0 || (s.is_float && (double)n != s.f))
        return tl_tileop_fail(ctx, call, TL_ERR_RUNTIME,
                              "element count must be a non-negative integer, got %g",
                              tl_tileop_scalar_value(&s));
    *out = n;
    return TL_OK;
}

tl_status_t tl_tileop_check_view(tl_tileop_ctx_t *ctx, const tl_opcall_t *call, const tl_view_t *v)
{
    char a[128], b[128];
    if (v->ndim < 1 || v->ndim > TL_MAX_DIMS || !v->data)
        return tl_tileop_fail(ctx, call, TL_ERR_INTERNAL, "malformed view of '%s'", v->name);
    for (int d = 0; d < v->ndim; d++) {
        if (v->shape[d] < 0 || v->start[d] < 0 || v->extent[d] < 0)
            return tl_tileop_fail(ctx, call, TL_ERR_RUNTIME,
                                  "region of '%s' starts at %s with extents %s: %s", v->name,
                                  tl_tileop_dims(a, sizeof a, v->start, v->ndim),
                                  tl_tileop_dims(b, sizeof b, v->extent, v->ndim),
                                  v->shape[d] < 0 ? "negative shape" : "negative index or extent");
    }
    int64_t need = shape_numel(v) * tl_dtype_size(v->dtype);
    if ((uint64_t)need > (uint64_t)v->bytes)
        return tl_tileop_fail(ctx, call, TL_ERR_INTERNAL,
                              "buffer '%s' %s of %s needs %lld bytes, only %zu are mapped", v->name,
                              tl_tileop_dims(a, sizeof a, v->shape, v->ndim),
                              tl_dtype_name(v->dtype), (long long)need, v->bytes);
    return TL_OK;
}

// Contiguous: after the first dimension with extent > 1 every extent is full.
static bool region_contiguous(const tl_view_t *v)
{
    int d = 0;
    while (d < v->ndim && v->extent[d] <= 1) d++;
    for (d++; d < v->ndim; d++)
        if (v->extent[d] != v->shape[d]) return false;
    return true;
}

tl_status_t tl_tileop_span(tl_tileop_ctx_t *ctx, const tl_opcall_t *call, const tl_view_t *v,
                           int64_t count, tl_span_t *out)
{
    char a[128], b[128], c[128];
    int64_t off = tl_view_offset(v), numel = shape_numel(v);
    if (count < 0) {
        count = tl_view_count(v);
        if (count > 0 && !region_contiguous(v))
            return tl_tileop_fail(
                ctx, call, TL_ERR_UNSUPPORTED,
                "region of '%s' %s at %s with extents %s is not contiguous; vector ops work on "
                "whole rows or trailing-contiguous regions",
                v->name, tl_tileop_dims(a, sizeof a, v->shape, v->ndim),
                tl_tileop_dims(b, sizeof b, v->start, v->ndim),
                tl_tileop_dims(c, sizeof c, v->extent, v->ndim));
    }
    int64_t size = tl_dtype_size(v->dtype), fit = (int64_t)v->reach / size;
    if (off + count > numel && !v->reach)
        return tl_tileop_fail(ctx, call, TL_ERR_RUNTIME,
                              "span of '%s' (elements %lld..%lld) runs past its end: %s has %lld "
                              "elements",
                              v->name, (long long)off, (long long)(off + count - 1), v->name,
                              (long long)numel);
    // past the buffer into the UB bytes after it, as on the device (it has no
    // per-buffer bound); past the UB is the device's vector core exception
    if (off + count > numel && off + count > fit)
        return tl_tileop_fail(ctx, call, TL_ERR_RUNTIME,
                              "span of '%s' (elements %lld..%lld) runs past the end of UB: %lld "
                              "elements of %s fit from its address",
                              v->name, (long long)off, (long long)(off + count - 1), (long long)fit,
                              tl_dtype_name(v->dtype));
    out->p = v->data + off * size;
    out->n = count;
    out->t = v->dtype;
    out->v = v;
    return TL_OK;
}

tl_status_t tl_tileop_same_dtype(tl_tileop_ctx_t *ctx, const tl_opcall_t *call, const tl_view_t *a,
                                 const tl_view_t *b)
{
    if (a->dtype == b->dtype) return TL_OK;
    return tl_tileop_fail(ctx, call, TL_ERR_RUNTIME,
                          "operands need the same dtype: '%s' is %s, '%s' is %s", a->name,
                          tl_dtype_name(a->dtype), b->name, tl_dtype_name(b->dtype));
}

tl_status_t tl_tileop_same_count(tl_tileop_ctx_t *ctx, const tl_opcall_t *call, const tl_span_t *a,
                                 const tl_span_t *b)
{
    if (a->n == b->n) return TL_OK;
    return tl_tileop_fail(ctx, call, TL_ERR_RUNTIME,
                          "operands differ in size: '%s' has %lld elements, '%s' has %lld",
                          a->v->name, (long long)a->n, b->v->name, (long long)b->n);
}

tl_status_t tl_tileop_pair(tl_tileop_ctx_t *ctx, const tl_opcall_t *call, int di, int si,
                           int64_t count, bool same_dtype, tl_span_t *d, tl_span_t *s)
{
    const tl_view_t *dv, *sv;
    tl_status_t st;
    if ((st = tl_tileop_view(ctx, call, di, &dv)) != TL_OK ||
        (st = tl_tileop_view(ctx, call, si, &sv)) != TL_OK ||
        (same_dtype && (st = tl_tileop_same_dtype(ctx, call, dv, sv)) != TL_OK) ||
        (st = tl_tileop_span(ctx, call, dv, count, d)) != TL_OK ||
        (st = tl_tileop_span(ctx, call, sv, count, s)) != TL_OK)
        return st;
    return tl_tileop_same_count(ctx, call, d, s);
}

bool tl_tileop_is_vfloat(tl_dtype_t t)
{
    return t == TL_F32 || t == TL_F16 || t == TL_BF16 || t == TL_F8E4M3 || t == TL_F8E5M2;
}

bool tl_tileop_is_vint(tl_dtype_t t)
{
    return tl_dtype_is_int(t) && t != TL_U64;
}

double tl_tileop_scalar_value(const tl_scalar_t *s)
{
    return s->is_float ? s->f : (double)s->i;
}

int64_t tl_tileop_scalar_int(const tl_scalar_t *s)
{
    if (!s->is_float) return s->i;
    if (s->f != s->f) return 0;
    if (s->f >= 0x1p63) return INT64_MAX;
    if (s->f <= -0x1p63) return INT64_MIN;
    return (int64_t)s->f;
}

void tl_tileop_scalar_to(tl_dtype_t t, const tl_scalar_t *s, void *out)
{
    if (tl_dtype_is_float(t)) {
        if (s->is_float)
            tl_store_f64(t, out, 0, s->f, TL_CAST_RINT);
        else
            tl_dtype_xval_store(t, out, 0, tl_dtype_xval_i64(s->i), TL_CAST_RINT);
    } else if (s->is_float) {
        tl_store_f64(t, out, 0, s->f, TL_CAST_TRUNC);
    } else {
        int64_t v = t == TL_BOOL ? s->i != 0 : s->i;
        memcpy(out, &v, (size_t)tl_dtype_size(t)); // little-endian: the low bytes wrap
    }
}

float tl_tileop_scalar_f32(tl_dtype_t t, const tl_scalar_t *s)
{
    uint8_t buf[8];
    tl_tileop_scalar_to(t, s, buf);
    return (float)tl_load_f64(t, buf, 0);
}

float tl_tileop_binary_scalar_f32(tl_dtype_t t, tl_opcode_t op, const tl_scalar_t *s)
{
    if (tl_op_binary(op) == TL_BIN_DIV) {
        tl_scalar_t r = {.is_float = true, .f = 1.0f / (float)tl_tileop_scalar_value(s)};
        return tl_tileop_scalar_f32(t, &r);
    }
    float v = tl_tileop_scalar_f32(t, s);
    return tl_op_binary(op) == TL_BIN_SUB ? -v : v;
}

int64_t tl_tileop_scalar_i64(tl_dtype_t t, const tl_scalar_t *s)
{
    uint8_t buf[8];
    tl_tileop_scalar_to(t, s, buf);
    return tl_load_i64(t, buf, 0);
}

// The 16-bit formats in blocked loops (vectorized at -O2); others via tl_convert.
void tl_tileop_load_f32(tl_dtype_t t, const uint8_t *p, int64_t n, float *out)
{
    const uint16_t *h = (const uint16_t *)p;
    if (t == TL_BF16)
        TL_VLOOP(float, n, out, i, tl_bf16_to_f32_fast(h[i]));
    else if (t == TL_F16)
        TL_VLOOP(float, n, out, i, tl_f16_to_f32_fast(h[i]));
    else
        tl_convert(TL_F32, out, t, p, (size_t)n, TL_CAST_RINT);
}

void tl_tileop_store_f32(tl_dtype_t t, uint8_t *p, int64_t n, const float *in)
{
    uint16_t *h = (uint16_t *)p;
    if (t == TL_BF16)
        TL_VLOOP(uint16_t, n, h, i, tl_f32_to_bf16_rint(in[i]));
    else if (t == TL_F16)
        TL_VLOOP(uint16_t, n, h, i, tl_f32_to_f16_rint(in[i]));
    else
        tl_convert(t, p, TL_F32, in, (size_t)n, TL_CAST_RINT);
}

void tl_tileop_convert(tl_dtype_t dt, void *dst, tl_dtype_t st, const void *src, int64_t n,
                       tl_round_t mode)
{
    bool rne = mode == TL_CAST_RINT || mode == TL_CAST_NONE;
    if (dt == TL_F32 && (st == TL_BF16 || st == TL_F16))
        tl_tileop_load_f32(st, src, n, dst);
    else if (st == TL_F32 && (dt == TL_BF16 || dt == TL_F16) && rne)
        tl_tileop_store_f32(dt, dst, n, src);
    else
        tl_convert(dt, dst, st, src, (size_t)n, mode);
}

#define LOAD_AS(T)                                                                                 \
    do {                                                                                           \
        const T *s_ = (const T *)p;                                                                \
        for (int64_t i = 0; i < n; i++) out[i] = s_[i];                                            \
    } while (0)

void tl_tileop_load_i64(tl_dtype_t t, const uint8_t *p, int64_t n, int64_t *out)
{
    switch (t) {
    case TL_I8: LOAD_AS(int8_t); break;
    case TL_U8:
    case TL_BOOL: LOAD_AS(uint8_t); break;
    case TL_I16: LOAD_AS(int16_t); break;
    case TL_U16: LOAD_AS(uint16_t); break;
    case TL_I32: LOAD_AS(int32_t); break;
    case TL_U32: LOAD_AS(uint32_t); break;
    default: memcpy(out, p, (size_t)n * 8); break; // int64 / uint64 bits
    }
}
#undef LOAD_AS

#define STORE_AS(T)                                                                                \
    do {                                                                                           \
        T *d_ = (T *)p;                                                                            \
        for (int64_t i = 0; i < n; i++) d_[i] = (T)(uint64_t)in[i];                                \
    } while (0)

void tl_tileop_store_i64(tl_dtype_t t, uint8_t *p, int64_t n, const int64_t *in)
{
    switch (tl_dtype_size(t)) {
    case 1: STORE_AS(uint8_t); break;
    case 2: STORE_AS(uint16_t); break;
    case 4: STORE_AS(uint32_t); break;
    default: memcpy(p, in, (size_t)n * 8); break;
    }
}
#undef STORE_AS

tl_status_t tl_tileop_deq_scale_run(tl_tileop_ctx_t *ctx, const tl_opcall_t *call)
{
    tl_scalar_t s;
    tl_status_t st = tl_tileop_scalar(ctx, call, 0, &s);
    if (st == TL_OK) ctx->deq_scale = (float)tl_tileop_scalar_value(&s);
    return st;
}

// Each op's routine, from the op table's `run` column (ir/ops.h).
static tl_status_t (*const op_run[TL_OP_COUNT])(tl_tileop_ctx_t *ctx, const tl_opcall_t *call) = {
#define X(id, name, sig, cls, pipe, cost, bin, run, front, api) [id] = run,
    TL_OPS(X)
#undef X
};

tl_status_t tl_tileop_run(tl_tileop_ctx_t *ctx, const tl_opcall_t *call)
{
    const tl_opinfo_t *info = tl_op_info(call->op->code);
    if (call->nargs < info->min_args || call->nargs > info->max_args ||
        call->nargs > (int)TL_ARRAY_LEN(call->args))
        return tl_tileop_fail(ctx, call, TL_ERR_INTERNAL, "takes %d to %d operands, got %d",
                              info->min_args, info->max_args, call->nargs);
    bool vector = info->cls == TL_OPC_VEC || info->cls == TL_OPC_REDUCE;
    for (int i = 0; i < call->nargs; i++) {
        if (!call->args[i].is_view) continue;
        const tl_view_t *v = &call->args[i].view;
        tl_status_t st = tl_tileop_check_view(ctx, call, v);
        if (st != TL_OK) return st;
        if (vector && v->scope != TL_SCOPE_UB)
            return tl_tileop_fail(ctx, call, TL_ERR_RUNTIME, "operand '%s' must be in UB, not %s",
                                  v->name, tl_scope_name(v->scope));
    }
    if (call->unit_flag != 0 && call->unit_flag != 2 && call->unit_flag != 3)
        return tl_tileop_fail(ctx, call, TL_ERR_RUNTIME,
                              "unit_flag must be 0, 0b10 or 0b11, got %d (0b01 is reserved)",
                              call->unit_flag);
    if ((call->has_k_valid && call->k_valid < 0) || (call->has_n_valid && call->n_valid < 0))
        return tl_tileop_fail(
            ctx, call, TL_ERR_RUNTIME, "a valid extent is negative (%lld)",
            (long long)(call->has_k_valid && call->k_valid < 0 ? call->k_valid : call->n_valid));
    return op_run[call->op->code](ctx, call);
}
