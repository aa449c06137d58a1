// Element-wise vector ops: fill, the binary ops (buffer or scalar src1),
// bitwise ops and shifts, and the fused/scalar-parameter forms (leaky_relu,
// axpy, mul_add_dst, clamp, clamp_max, clamp_min). All work on flat spans.
//
// Numerics (surface §2.5): a scalar operand is first converted to the buffer
// dtype; sub(x, s) is add(x, -s); div(x, s) is mul(x, r) with r = 1.0f / s
// computed in float32 and then converted to the dtype (not true division:
// goldens depend on it); buffer/buffer div is true division. float32 is
// computed in float; float16/bfloat16/fp8 are computed in float and rounded to
// the dtype (RNE) once per op, fused ops included (axpy rounds s*x + y once).
// Integers use two's complement (wrapping) arithmetic. Deviations where
// upstream produces garbage: integer div by a scalar divides (truncating)
// instead of multiplying by a reciprocal that truncates to 0, and integer
// division by zero is an error. max/min/clamp propagate NaN.
#include "exec/tileop_impl.h"

#include <math.h>

// What the float and integer kernels compute.
typedef struct {
    tl_opcode_t code;
    bool scalar;      // src1 is the scalar s (binary ops)
    float s, s2;      // scalars in the dtype, as float
    int64_t is, is2;  // ... as integers
    bool is_unsigned; // integer dtype without sign (division, comparisons)
} kparams_t;

// Float kernel: d = f(a, b, old) over n elements; b and old may be NULL.
static void fkernel(const kparams_t *p, float *d, const float *a, const float *b, const float *old,
                    int64_t n)
{
    float s = p->s, s2 = p->s2;
    switch (p->code) {
    case TL_OP_ADD:
    case TL_OP_SUB:
        if (p->scalar)
            TL_VLOOP(float, n, d, i, a[i] + s); // sub: s is already negated
        else if (p->code == TL_OP_ADD)
            TL_VLOOP(float, n, d, i, a[i] + b[i]);
        else
            TL_VLOOP(float, n, d, i, a[i] - b[i]);
        break;
    case TL_OP_MUL:
    case TL_OP_DIV:
        if (p->scalar)
            TL_VLOOP(float, n, d, i, a[i] * s); // div: s is the reciprocal
        else if (p->code == TL_OP_MUL)
            TL_VLOOP(float, n, d, i, a[i] * b[i]);
        else
            TL_VLOOP(float, n, d, i, a[i] / b[i]);
        break;
    case TL_OP_MAX:
        if (p->scalar)
            TL_VLOOP(float, n, d, i, a[i] > s || a[i] != a[i] ? a[i] : s);
        else
            TL_VLOOP(float, n, d, i, a[i] > b[i] || a[i] != a[i] ? a[i] : b[i]);
        break;
    case TL_OP_MIN:
        if (p->scalar)
            TL_VLOOP(float, n, d, i, a[i] < s || a[i] != a[i] ? a[i] : s);
        else
            TL_VLOOP(float, n, d, i, a[i] < b[i] || a[i] != a[i] ? a[i] : b[i]);
        break;
    case TL_OP_POW:
        for (int64_t i = 0; i < n; i++) d[i] = powf(a[i], p->scalar ? s : b[i]);
        break;
    case TL_OP_LEAKY_RELU: TL_VLOOP(float, n, d, i, a[i] >= 0 ? a[i] : a[i] * s); break;
    case TL_OP_AXPY: TL_VLOOP(float, n, d, i, s *a[i] + old[i]); break;
    case TL_OP_MUL_ADD_DST: TL_VLOOP(float, n, d, i, a[i] * b[i] + old[i]); break;
    case TL_OP_CLAMP: TL_VLOOP(float, n, d, i, a[i]<s ? s : a[i]> s2 ? s2 : a[i]); break;
    case TL_OP_CLAMP_MAX: TL_VLOOP(float, n, d, i, a[i] > s ? s : a[i]); break;
    case TL_OP_CLAMP_MIN: TL_VLOOP(float, n, d, i, a[i] < s ? s : a[i]); break;
    default: break;
    }
}

static int64_t wrap_add(int64_t a, int64_t b)
{
    return (int64_t)((uint64_t)a + (uint64_t)b);
}

static int64_t wrap_mul(int64_t a, int64_t b)
{
    return (int64_t)((uint64_t)a * (uint64_t)b);
}

// Truncating division; b != 0 is checked by the caller.
static int64_t int_div(int64_t a, int64_t b, bool is_unsigned)
{
    if (is_unsigned) return (int64_t)((uint64_t)a / (uint64_t)b);
    if (b == -1) return (int64_t)(0 - (uint64_t)a);
    return a / b;
}

static bool int_lt(int64_t a, int64_t b, bool is_unsigned)
{
    return is_unsigned ? (uint64_t)a < (uint64_t)b : a < b;
}

// int32 pow (upstream's ascendc accepts int32 pow; its NPU computes it through
// float32 and may be 1 off, its test allows that): the exact power, wrapping;
// a negative exponent gives 1 / x^-y truncated (1 for x = 1, +-1 for x = -1,
// else 0, and 0 for x = 0 as no trap is modelled).
static int64_t int_pow(int64_t x, int64_t y)
{
    if (y < 0) return x == 1 ? 1 : x == -1 ? (y % 2 ? -1 : 1) : 0;
    int64_t r = 1;
    for (; y > 0; y >>= 1, x = wrap_mul(x, x))
        if (y & 1) r = wrap_mul(r, x);
    return r;
}

static void ikernel(const kparams_t *p, int64_t *d, const int64_t *a, const int64_t *b,
                    const int64_t *old, int64_t n)
{
    int64_t s = p->is, s2 = p->is2;
    bool u = p->is_unsigned;
    for (int64_t i = 0; i < n; i++) {
        int64_t x = a[i], y = p->scalar || !b ? s : b[i], r = 0;
        switch (p->code) {
        case TL_OP_ADD: r = wrap_add(x, y); break;
        case TL_OP_SUB:
            r = p->scalar ? wrap_add(x, y) : wrap_add(x, (int64_t)(0 - (uint64_t)y));
            break;
        case TL_OP_MUL: r = wrap_mul(x, y); break;
        case TL_OP_DIV: r = int_div(x, y, u); break;
        case TL_OP_MAX: r = int_lt(x, y, u) ? y : x; break;
        case TL_OP_MIN: r = int_lt(y, x, u) ? y : x; break;
        case TL_OP_AXPY: r = wrap_add(wrap_mul(s, x), old[i]); break;
        case TL_OP_MUL_ADD_DST: r = wrap_add(wrap_mul(x, b[i]), old[i]); break;
        case TL_OP_CLAMP: r = int_lt(x, s, u) ? s : int_lt(s2, x, u) ? s2 : x; break;
        case TL_OP_CLAMP_MAX: r = int_lt(s, x, u) ? s : x; break;
        case TL_OP_CLAMP_MIN: r = int_lt(x, s, u) ? s : x; break;
        case TL_OP_POW: r = int_pow(x, y); break;
        default: break;
        }
        d[i] = r;
    }
}

// Runs the kernel over the spans in chunks (narrow types via float/int64).
static void run_arith(const kparams_t *p, const tl_span_t *d, const tl_span_t *a,
                      const tl_span_t *b, bool old, int64_t n)
{
    tl_dtype_t t = d->t;
    if (t == TL_F32 && a->t == TL_F32) {
        float *dp = (float *)d->p;
        fkernel(p, dp, (const float *)a->p, b ? (const float *)b->p : NULL, dp, n);
        return;
    }
    int asz = tl_dtype_size(a->t), dsz = tl_dtype_size(t);
    for (int64_t c = 0; c < n; c += TL_TILEOP_CHUNK) {
        int64_t m = TL_MIN(TL_TILEOP_CHUNK, n - c);
        uint8_t *dp = d->p + c * dsz;
        const uint8_t *ap = a->p + c * asz, *bp = b ? b->p + c * dsz : NULL;
        if (tl_dtype_is_float(t)) {
            float fa[TL_TILEOP_CHUNK], fb[TL_TILEOP_CHUNK], fo[TL_TILEOP_CHUNK];
            float fd[TL_TILEOP_CHUNK];
            tl_tileop_load_f32(a->t, ap, m, fa);
            if (bp) tl_tileop_load_f32(t, bp, m, fb);
            if (old) tl_tileop_load_f32(t, dp, m, fo);
            fkernel(p, fd, fa, bp ? fb : NULL, fo, m);
            tl_tileop_store_f32(t, dp, m, fd);
        } else {
            int64_t ia[TL_TILEOP_CHUNK], ib[TL_TILEOP_CHUNK], io[TL_TILEOP_CHUNK];
            int64_t id[TL_TILEOP_CHUNK];
            tl_tileop_load_i64(t, ap, m, ia);
            if (bp) tl_tileop_load_i64(t, bp, m, ib);
            if (old) tl_tileop_load_i64(t, dp, m, io);
            ikernel(p, id, ia, bp ? ib : NULL, io, m);
            tl_tileop_store_i64(t, dp, m, id);
        }
    }
}

// Error unless the integer divisor span has no zero.
static tl_status_t check_divisors(tl_tileop_ctx_t *ctx, const tl_opcall_t *call, const tl_span_t *b)
{
    int64_t v[TL_TILEOP_CHUNK];
    for (int64_t c = 0; c < b->n; c += TL_TILEOP_CHUNK) {
        int64_t m = TL_MIN(TL_TILEOP_CHUNK, b->n - c);
        tl_tileop_load_i64(b->t, b->p + c * tl_dtype_size(b->t), m, v);
        for (int64_t i = 0; i < m; i++)
            if (v[i] == 0)
                return tl_tileop_fail(ctx, call, TL_ERR_RUNTIME,
                                      "integer division by zero (element %lld of '%s')",
                                      (long long)(c + i), b->v->name);
    }
    return TL_OK;
}

// Operand positions of the arithmetic ops: extra view operands, scalars, count.
typedef struct {
    bool src1;  // operand 2 is src1 (view or, for binary ops, scalar)
    int s0, s1; // scalar operand indices or -1
    int cnt;    // count operand index or -1
    bool old;   // reads the destination
    bool float_only;
} layout_t;

static layout_t layout_of(tl_opcode_t code)
{
    layout_t l = {.src1 = false, .s0 = -1, .s1 = -1, .cnt = -1, .old = false, .float_only = false};
    switch (code) {
    case TL_OP_LEAKY_RELU: l.s0 = 2, l.cnt = 3, l.float_only = true; break;
    case TL_OP_AXPY: l.s0 = 2, l.cnt = 3, l.old = true; break;
    case TL_OP_MUL_ADD_DST: l.src1 = true, l.cnt = 3, l.old = true; break;
    case TL_OP_CLAMP: l.s0 = 2, l.s1 = 3, l.cnt = 4; break;
    case TL_OP_CLAMP_MAX:
    case TL_OP_CLAMP_MIN: l.s0 = 2, l.cnt = 3; break;
    case TL_OP_POW: l.src1 = true; break; // float16, float32 and int32 (arith)
    default: l.src1 = true; break; // the binary ops (tl_op_arith)
    }
    return l;
}

// The scalar of a binary op in the dtype, with sub/div rewritten (see top).
static tl_status_t binary_scalar(tl_tileop_ctx_t *ctx, const tl_opcall_t *call, tl_dtype_t t,
                                 const tl_scalar_t *s, kparams_t *p)
{
    tl_opcode_t code = call->op->code;
    if (tl_dtype_is_float(t)) {
        p->s = tl_tileop_binary_scalar_f32(t, code, s);
        return TL_OK;
    }
    p->is = tl_tileop_scalar_i64(t, s);
    if (code == TL_OP_DIV && p->is == 0)
        return tl_tileop_fail(ctx, call, TL_ERR_RUNTIME, "integer division by zero");
    if (code == TL_OP_SUB) p->is = (int64_t)(0 - (uint64_t)p->is);
    return TL_OK;
}

static tl_status_t arith(tl_tileop_ctx_t *ctx, const tl_opcall_t *call)
{
    tl_opcode_t code = call->op->code;
    layout_t l = layout_of(code);
    const tl_view_t *dv, *av, *bv = NULL;
    tl_status_t st;
    if ((st = tl_tileop_view(ctx, call, 0, &dv)) != TL_OK ||
        (st = tl_tileop_view(ctx, call, 1, &av)) != TL_OK)
        return st;
    kparams_t p = {.code = code, .is_unsigned = tl_dtype_kind(dv->dtype) == TL_KIND_UINT};
    tl_dtype_t t = dv->dtype;
    bool flt = tl_tileop_is_vfloat(t);
    if ((!flt && !(tl_tileop_is_vint(t) && !l.float_only)) || (code == TL_OP_POW && !flt && t != TL_I32))
        return tl_tileop_fail(ctx, call, TL_ERR_UNSUPPORTED, "does not support %s ('%s')",
                              tl_dtype_name(t), dv->name);
    // axpy also takes a narrower float source into a float32 destination.
    bool mixed = code == TL_OP_AXPY && t == TL_F32 && (av->dtype == TL_F16 || av->dtype == TL_BF16);
    if (!mixed && (st = tl_tileop_same_dtype(ctx, call, dv, av)) != TL_OK) return st;
    if (l.src1) {
        if (call->nargs < 3) return tl_tileop_fail(ctx, call, TL_ERR_INTERNAL, "missing operand 3");
        if (call->args[2].is_view) {
            bv = &call->args[2].view;
            if ((st = tl_tileop_same_dtype(ctx, call, dv, bv)) != TL_OK) return st;
        } else if (code == TL_OP_MUL_ADD_DST) {
            return tl_tileop_fail(ctx, call, TL_ERR_RUNTIME, "operand 3 must be a buffer");
        } else {
            p.scalar = true;
            if ((st = binary_scalar(ctx, call, t, &call->args[2].scalar, &p)) != TL_OK) return st;
        }
    }
    tl_scalar_t sc;
    if (l.s0 >= 0) {
        if ((st = tl_tileop_scalar(ctx, call, l.s0, &sc)) != TL_OK) return st;
        p.s = flt ? tl_tileop_scalar_f32(t, &sc) : 0, p.is = flt ? 0 : tl_tileop_scalar_i64(t, &sc);
    }
    if (l.s1 >= 0) {
        if ((st = tl_tileop_scalar(ctx, call, l.s1, &sc)) != TL_OK) return st;
        p.s2 = flt ? tl_tileop_scalar_f32(t, &sc) : 0,
        p.is2 = flt ? 0 : tl_tileop_scalar_i64(t, &sc);
    }
    int64_t count = -1;
    if (l.cnt >= 0 && (st = tl_tileop_count(ctx, call, l.cnt, &count)) != TL_OK) return st;
    tl_span_t d, a, b;
    if ((st = tl_tileop_span(ctx, call, dv, count, &d)) != TL_OK ||
        (st = tl_tileop_span(ctx, call, av, count, &a)) != TL_OK ||
        (st = tl_tileop_same_count(ctx, call, &d, &a)) != TL_OK)
        return st;
    if (bv && ((st = tl_tileop_span(ctx, call, bv, count, &b)) != TL_OK ||
               (st = tl_tileop_same_count(ctx, call, &d, &b)) != TL_OK))
        return st;
    if (bv && !flt && code == TL_OP_DIV && (st = check_divisors(ctx, call, &b)) != TL_OK) return st;
    run_arith(&p, &d, &a, bv ? &b : NULL, l.old, d.n);
    return TL_OK;
}

// Bitwise and/or/xor on the bit patterns (any dtype).
#define BITWISE(T)                                                                                 \
    do {                                                                                           \
        T *d_ = (T *)d.p, s_;                                                                      \
        const T *a_ = (const T *)a.p, *b_ = (const T *)(bv ? b.p : (const uint8_t *)&s_);          \
        memcpy(&s_, sbits, sizeof s_);                                                             \
        int64_t bs_ = bv ? 1 : 0;                                                                  \
        if (code == TL_OP_AND)                                                                     \
            TL_VLOOP(T, d.n, d_, i, a_[i] & b_[i * bs_]);                                          \
        else if (code == TL_OP_OR)                                                                 \
            TL_VLOOP(T, d.n, d_, i, a_[i] | b_[i * bs_]);                                          \
        else                                                                                       \
            TL_VLOOP(T, d.n, d_, i, a_[i] ^ b_[i * bs_]);                                          \
    } while (0)

static tl_status_t bitwise(tl_tileop_ctx_t *ctx, const tl_opcall_t *call)
{
    tl_opcode_t code = call->op->code;
    const tl_view_t *bv = NULL;
    tl_span_t d, a, b;
    tl_status_t st = tl_tileop_pair(ctx, call, 0, 1, -1, true, &d, &a);
    if (st != TL_OK) return st;
    const tl_view_t *dv = d.v;
    uint8_t sbits[8] = {0};
    if (call->args[2].is_view) {
        bv = &call->args[2].view;
        if ((st = tl_tileop_same_dtype(ctx, call, dv, bv)) != TL_OK) return st;
    } else {
        tl_tileop_scalar_to(dv->dtype, &call->args[2].scalar, sbits);
    }
    if (bv && ((st = tl_tileop_span(ctx, call, bv, -1, &b)) != TL_OK ||
               (st = tl_tileop_same_count(ctx, call, &d, &b)) != TL_OK))
        return st;
    switch (tl_dtype_size(dv->dtype)) {
    case 1: BITWISE(uint8_t); break;
    case 2: BITWISE(uint16_t); break;
    case 4: BITWISE(uint32_t); break;
    default: BITWISE(uint64_t); break;
    }
    return TL_OK;
}
#undef BITWISE

static tl_status_t shift(tl_tileop_ctx_t *ctx, const tl_opcall_t *call)
{
    tl_scalar_t s;
    tl_span_t d, a;
    tl_status_t st;
    if ((st = tl_tileop_pair(ctx, call, 0, 1, -1, true, &d, &a)) != TL_OK ||
        (st = tl_tileop_scalar(ctx, call, 2, &s)) != TL_OK)
        return st;
    const tl_view_t *dv = d.v;
    tl_dtype_t t = dv->dtype;
    if (!tl_tileop_is_vint(t))
        return tl_tileop_fail(ctx, call, TL_ERR_UNSUPPORTED, "needs an integer dtype, '%s' is %s",
                              dv->name, tl_dtype_name(t));
    int64_t k = tl_tileop_scalar_int(&s), bits = tl_dtype_bits(t);
    if (k < 0 || k >= bits)
        return tl_tileop_fail(ctx, call, TL_ERR_RUNTIME,
                              "shift amount %lld is outside [0, %lld) for %s", (long long)k,
                              (long long)bits, tl_dtype_name(t));
    bool left = call->op->code == TL_OP_SHL;
    int sz = tl_dtype_size(t);
    int64_t v[TL_TILEOP_CHUNK];
    for (int64_t c = 0; c < d.n; c += TL_TILEOP_CHUNK) {
        int64_t m = TL_MIN(TL_TILEOP_CHUNK, d.n - c);
        tl_tileop_load_i64(t, a.p + c * sz, m, v); // signed types sign-extend
        for (int64_t i = 0; i < m; i++) {
            uint64_t x = (uint64_t)v[i];
            if (left)
                x <<= k;
            else
                x = v[i] < 0 ? ~(~x >> k) : x >> k; // arithmetic for signed types
            v[i] = (int64_t)x;
        }
        tl_tileop_store_i64(t, d.p + c * sz, m, v);
    }
    return TL_OK;
}

#define FILL_AS(T)                                                                                 \
    do {                                                                                           \
        T v_, *d_ = (T *)d.p;                                                                      \
        memcpy(&v_, elem, sizeof v_);                                                              \
        TL_VLOOP(T, d.n, d_, i, v_);                                                               \
    } while (0)

static tl_status_t fill(tl_tileop_ctx_t *ctx, const tl_opcall_t *call)
{
    const tl_view_t *dv;
    tl_scalar_t s;
    tl_span_t d;
    tl_status_t st;
    if ((st = tl_tileop_view(ctx, call, 0, &dv)) != TL_OK ||
        (st = tl_tileop_scalar(ctx, call, 1, &s)) != TL_OK ||
        (st = tl_tileop_span(ctx, call, dv, -1, &d)) != TL_OK)
        return st;
    uint8_t elem[8] = {0};
    tl_tileop_scalar_to(dv->dtype, &s, elem);
    switch (tl_dtype_size(dv->dtype)) {
    case 1: memset(d.p, elem[0], (size_t)d.n); break;
    case 2: FILL_AS(uint16_t); break;
    case 4: FILL_AS(uint32_t); break;
    default: FILL_AS(uint64_t); break;
    }
    return TL_OK;
}
#undef FILL_AS

tl_status_t tl_tileop_vec_run(tl_tileop_ctx_t *ctx, const tl_opcall_t *call)
{
    tl_opcode_t code = call->op->code;
    if (tl_op_binary(code) != TL_BIN_NONE)
        return tl_op_arith(code) ? arith(ctx, call) : bitwise(ctx, call);
    switch (code) {
    case TL_OP_FILL: return fill(ctx, call);
    case TL_OP_SHL:
    case TL_OP_SHR: return shift(ctx, call);
    case TL_OP_POW:
    case TL_OP_LEAKY_RELU:
    case TL_OP_AXPY:
    case TL_OP_MUL_ADD_DST:
    case TL_OP_CLAMP:
    case TL_OP_CLAMP_MAX:
    case TL_OP_CLAMP_MIN: return arith(ctx, call);
    default:
        return tl_tileop_fail(ctx, call, TL_ERR_INTERNAL, "is not a vector op of this library");
    }
}
