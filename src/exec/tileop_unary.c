// Unary vector ops (exp, ln, abs, reciprocal, sqrt, rsqrt, relu, sigmoid,
// silu, sin, cos, round, bitwise_not; npuir's tanh and erf) with an optional element count, and
// T.tile.cast (dst, src, mode, count) with every rounding mode.
//
// Floats are computed in float32 with the C library, except exp: tilec's
// tl_expf (base/fexp.h: the same bits on every host, and in the AVX-512 code
// of the CPU backend), also in sigmoid = 1/(1+exp(-x)) and silu =
// x/(1+exp(-x)); rsqrt = 1/sqrt(x); results are rounded to the dtype (RNE);
// round is ties-to-even. On integer dtypes abs (wrapping), relu, round (the
// identity) and bitwise_not are defined; the others are errors. bitwise_not
// works on the bit pattern of any dtype. relu keeps NaN.
//
// Casts round once, straight from the source to the destination type, with
// the given mode (base/dtype.h semantics: float -> int saturates, NaN -> 0);
// CAST_ODD is only defined for narrowing float -> float casts and is an error
// elsewhere. int32 -> float16 multiplies by the deq scale (T.set_deq_scale,
// default 1) before rounding, as AscendC's Cast does.
#include "exec/tileop_impl.h"

#include "base/fexp.h"

#include <math.h>

static void funary(tl_opcode_t code, float *d, const float *a, int64_t n)
{
    switch (code) {
    case TL_OP_EXP:
        for (int64_t i = 0; i < n; i++) d[i] = tl_expf(a[i]);
        break;
    case TL_OP_LN:
        for (int64_t i = 0; i < n; i++) d[i] = logf(a[i]);
        break;
    case TL_OP_ABS: TL_VLOOP(float, n, d, i, fabsf(a[i])); break;
    case TL_OP_RECIPROCAL: TL_VLOOP(float, n, d, i, 1.0f / a[i]); break;
    case TL_OP_SQRT: TL_VLOOP(float, n, d, i, sqrtf(a[i])); break;
    case TL_OP_RSQRT: TL_VLOOP(float, n, d, i, 1.0f / sqrtf(a[i])); break;
    case TL_OP_RELU: TL_VLOOP(float, n, d, i, a[i] < 0 ? 0.0f : a[i]); break;
    case TL_OP_SIGMOID:
        for (int64_t i = 0; i < n; i++) d[i] = 1.0f / (1.0f + tl_expf(-a[i]));
        break;
    case TL_OP_SILU:
        for (int64_t i = 0; i < n; i++) d[i] = a[i] / (1.0f + tl_expf(-a[i]));
        break;
    case TL_OP_SIN:
        for (int64_t i = 0; i < n; i++) d[i] = sinf(a[i]);
        break;
    case TL_OP_COS:
        for (int64_t i = 0; i < n; i++) d[i] = cosf(a[i]);
        break;
    case TL_OP_ROUND:
        for (int64_t i = 0; i < n; i++) d[i] = rintf(a[i]);
        break;
    case TL_OP_TANH:
        for (int64_t i = 0; i < n; i++) d[i] = tanhf(a[i]);
        break;
    case TL_OP_ERF:
        for (int64_t i = 0; i < n; i++) d[i] = erff(a[i]);
        break;
    default: break;
    }
}

static void iunary(tl_opcode_t code, int64_t *v, int64_t n)
{
    for (int64_t i = 0; i < n; i++) {
        if (code == TL_OP_ABS && v[i] < 0)
            v[i] = (int64_t)(0 - (uint64_t)v[i]);
        else if (code == TL_OP_RELU && v[i] < 0)
            v[i] = 0;
    }
}

#define NOT_AS(T)                                                                                  \
    do {                                                                                           \
        T *d_ = (T *)d->p;                                                                         \
        const T *a_ = (const T *)a->p;                                                             \
        TL_VLOOP(T, d->n, d_, i, (T)~a_[i]);                                                       \
    } while (0)

static void bit_not(const tl_span_t *d, const tl_span_t *a)
{
    switch (tl_dtype_size(d->t)) {
    case 1: NOT_AS(uint8_t); break;
    case 2: NOT_AS(uint16_t); break;
    case 4: NOT_AS(uint32_t); break;
    default: NOT_AS(uint64_t); break;
    }
}
#undef NOT_AS

static tl_status_t unary(tl_tileop_ctx_t *ctx, const tl_opcall_t *call)
{
    tl_opcode_t code = call->op->code;
    int64_t count;
    tl_span_t d, a;
    tl_status_t st;
    if ((st = tl_tileop_count(ctx, call, 2, &count)) != TL_OK ||
        (st = tl_tileop_pair(ctx, call, 0, 1, count, true, &d, &a)) != TL_OK)
        return st;
    const tl_view_t *dv = d.v;
    tl_dtype_t t = dv->dtype;
    if (code == TL_OP_NOT) {
        bit_not(&d, &a);
        return TL_OK;
    }
    if (tl_tileop_is_vfloat(t)) {
        if (t == TL_F32) {
            funary(code, (float *)d.p, (const float *)a.p, d.n);
            return TL_OK;
        }
        float buf[TL_TILEOP_CHUNK];
        int sz = tl_dtype_size(t);
        for (int64_t c = 0; c < d.n; c += TL_TILEOP_CHUNK) {
            int64_t m = TL_MIN(TL_TILEOP_CHUNK, d.n - c);
            tl_tileop_load_f32(t, a.p + c * sz, m, buf);
            funary(code, buf, buf, m);
            tl_tileop_store_f32(t, d.p + c * sz, m, buf);
        }
        return TL_OK;
    }
    bool int_ok = code == TL_OP_ABS || code == TL_OP_RELU || code == TL_OP_ROUND;
    if (!tl_tileop_is_vint(t) || !int_ok)
        return tl_tileop_fail(ctx, call, TL_ERR_UNSUPPORTED, "needs a float dtype, '%s' is %s",
                              dv->name, tl_dtype_name(t));
    int64_t buf[TL_TILEOP_CHUNK];
    int sz = tl_dtype_size(t);
    for (int64_t c = 0; c < d.n; c += TL_TILEOP_CHUNK) {
        int64_t m = TL_MIN(TL_TILEOP_CHUNK, d.n - c);
        tl_tileop_load_i64(t, a.p + c * sz, m, buf);
        iunary(code, buf, m);
        tl_tileop_store_i64(t, d.p + c * sz, m, buf);
    }
    return TL_OK;
}

// float16 <-> packed int4 (AscendC Cast half <-> int4b_t). count (or the
// regions) counts elements; the int4 operand's span is its bytes, two elements
// each (the even one in the low nibble). To int4: rounded with the mode and
// saturated to [-8, 7]; from int4: the nibble sign-extended, exact.
static tl_status_t cast_int4(tl_tileop_ctx_t *ctx, const tl_opcall_t *call)
{
    int64_t count;
    const tl_view_t *dv, *sv;
    tl_status_t st;
    if ((st = tl_tileop_count(ctx, call, 2, &count)) != TL_OK ||
        (st = tl_tileop_view(ctx, call, 0, &dv)) != TL_OK ||
        (st = tl_tileop_view(ctx, call, 1, &sv)) != TL_OK)
        return st;
    bool to = dv->int4;
    const tl_view_t *pv = to ? dv : sv, *hv = to ? sv : dv;
    tl_span_t p, h;
    int64_t n = count;
    if (n < 0) { // the regions' elements: the packed one's bytes hold two each
        if ((st = tl_tileop_span(ctx, call, pv, -1, &p)) != TL_OK) return st;
        n = 2 * p.n;
    }
    if (n % 2)
        return tl_tileop_fail(ctx, call, TL_ERR_RUNTIME,
                              "count %lld is odd: int4 elements go two a byte", (long long)n);
    if ((st = tl_tileop_span(ctx, call, pv, n / 2, &p)) != TL_OK ||
        (st = tl_tileop_span(ctx, call, hv, n, &h)) != TL_OK)
        return st;
    if (h.t != TL_F16)
        return tl_tileop_fail(ctx, call, TL_ERR_UNSUPPORTED, "'%s' must be float16, not %s",
                              hv->name, tl_dtype_name(h.t));
    uint16_t *f = (uint16_t *)h.p;
    for (int64_t i = 0; i < n; i += 2) {
        if (to) {
            int q[2];
            for (int j = 0; j < 2; j++) {
                double x = tl_round_integral(tl_f16_to_f32(f[i + j]), call->op->round);
                q[j] = x != x ? 0 : x < -8 ? -8 : x > 7 ? 7 : (int)x; // NaN -> 0, saturated
            }
            p.p[i / 2] = (uint8_t)((q[0] & 15) | (q[1] & 15) << 4);
        } else {
            uint8_t b = p.p[i / 2];
            for (int j = 0; j < 2; j++) {
                int nib = (b >> (4 * j)) & 15;
                f[i + j] = tl_f32_to_f16((float)(nib - 16 * (nib >> 3)), TL_CAST_RINT);
            }
        }
    }
    return TL_OK;
}

static tl_status_t cast(tl_tileop_ctx_t *ctx, const tl_opcall_t *call)
{
    int64_t count;
    tl_span_t d, s;
    tl_status_t st;
    if ((st = tl_tileop_count(ctx, call, 2, &count)) != TL_OK ||
        (st = tl_tileop_pair(ctx, call, 0, 1, count, false, &d, &s)) != TL_OK)
        return st;
    const tl_view_t *dv = d.v, *sv = s.v;
    tl_round_t mode = call->op->round;
    if (!tl_cast_on_ascend(dv->dtype, sv->dtype, mode, NULL)) {
        char why[256];
        tl_cast_explain(why, sizeof why, dv->dtype, sv->dtype, mode);
        return tl_tileop_fail(ctx, call, TL_ERR_UNSUPPORTED, "%s", why);
    }
    if (sv->dtype == dv->dtype) { // float -> float: to an integral value
        tl_cast_round_integral(dv->dtype, d.p, s.p, (size_t)d.n, mode);
        return TL_OK;
    }
    if (sv->dtype == TL_I32 && dv->dtype == TL_F16 && ctx->deq_scale != 1.0f) {
        double w[TL_TILEOP_CHUNK];
        for (int64_t c = 0; c < d.n; c += TL_TILEOP_CHUNK) {
            int64_t m = TL_MIN(TL_TILEOP_CHUNK, d.n - c);
            tl_convert(TL_F64, w, TL_I32, s.p + c * 4, (size_t)m, TL_CAST_RINT);
            for (int64_t i = 0; i < m; i++) w[i] *= ctx->deq_scale;
            tl_convert(TL_F16, d.p + c * 2, TL_F64, w, (size_t)m, mode);
        }
        return TL_OK;
    }
    tl_tileop_convert(dv->dtype, d.p, sv->dtype, s.p, d.n, mode);
    return TL_OK;
}

tl_status_t tl_tileop_unary_run(tl_tileop_ctx_t *ctx, const tl_opcall_t *call)
{
    if (call->op->code == TL_OP_CAST)
        return call->nargs >= 2 && call->args[0].is_view && call->args[1].is_view &&
                       (call->args[0].view.int4 || call->args[1].view.int4)
                   ? cast_int4(ctx, call)
                   : cast(ctx, call);
    return unary(ctx, call);
}
