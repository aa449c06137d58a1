// Tile-op specialisations (see cpufast.h), compiled for AVX-512 and used when
// the CPU has it. Each computes what the library computes for its case
// (tileop_unary.c, tileop_vec.c): element-wise float32 arithmetic (sub and
// div by a scalar as add(-s) and mul(1/s)), max/min propagating NaN from the
// first operand as the library's `a > b || a != a ? a : b`, and the casts
// int32 -> float32 (round to nearest even, as the conversion instruction
// does), exp / sigmoid / silu (fexp_avx512.c: tl_expf's operations), float -> int8/int16/int32 rounding to nearest even then saturating
// (NaN -> 0), float32 <-> bfloat16/float16. Operands must be contiguous UB
// spans inside their buffers; anything else goes to the library.
#include "cpu/cpufast.h"

#include <math.h>

#include "cpu/fexp_avx512.h"
#include "exec/tileop.h"

#if TL_X86_64 && !defined(__clang__)
#include <immintrin.h>
#endif

#if TL_X86_64 && !defined(__clang__)
#define FAST      __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq,avx2,fma"), optimize("O3")))
#define HAVE_FAST 1
#endif

// The spans of an element-wise loop are the same or disjoint (checked).
#define IVDEP _Pragma("GCC ivdep")

enum { CHUNK = 512 }; // elements widened at once through a stack buffer

#ifdef HAVE_FAST

// The flat span of operand i (count < 0: its region, which must be
// contiguous), or NULL when it is not a UB view or leaves its buffer.
static uint8_t *span(const tl_opcall_t *call, int i, int64_t count, int64_t *n)
{
    if (i >= call->nargs || !call->args[i].is_view) return NULL;
    const tl_view_t *v = &call->args[i].view;
    if (v->scope != TL_SCOPE_UB || v->ndim < 1) return NULL;
    int64_t numel = 1;
    for (int d = 0; d < v->ndim; d++) {
        if (v->start[d] < 0 || v->extent[d] < 0 || v->start[d] + v->extent[d] > v->shape[d])
            return NULL;
        numel *= v->shape[d];
    }
    if ((uint64_t)(numel * tl_dtype_size(v->dtype)) > (uint64_t)v->bytes) return NULL;
    if (count < 0) {
        int d = 0;
        while (d < v->ndim && v->extent[d] <= 1) d++;
        for (d++; d < v->ndim; d++)
            if (v->extent[d] != v->shape[d]) return NULL;
        count = tl_view_count(v);
    }
    int64_t off = tl_view_offset(v);
    if (off + count > numel) return NULL;
    *n = count;
    return v->data + off * tl_dtype_size(v->dtype);
}

// Element-wise ops may run in place, but not over shifted overlapping spans
// (the library's blocked loops would see other values than these).
static bool disjoint_or_same(const uint8_t *d, const uint8_t *a, int64_t bytes)
{
    return d == a || d + bytes <= a || a + bytes <= d;
}

// An optional trailing element count: -1 when absent, -2 when unusable.
static int64_t count_arg(const tl_opcall_t *call, int i)
{
    if (i >= call->nargs) return -1;
    const tl_operand_t *a = &call->args[i];
    if (a->is_view || a->scalar.is_float || a->scalar.i < 0) return -2;
    return a->scalar.i;
}

// 16 floats -> int8/int16 as to_int does: round to nearest even, clamp, NaN -> 0.
static FAST __m512i to_int16x(const float *s, float lo, float hi)
{
    __m512 x = _mm512_loadu_ps(s);
    __m512 r = _mm512_roundscale_ps(x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    __mmask16 nan = _mm512_cmp_ps_mask(x, x, _CMP_UNORD_Q);
    r = _mm512_min_ps(_mm512_max_ps(r, _mm512_set1_ps(lo)), _mm512_set1_ps(hi));
    return _mm512_maskz_cvtps_epi32((__mmask16)~nan, r);
}

static FAST void to_int(tl_dtype_t dt, void *d, const float *s, int64_t n)
{
    double lo = tl_dtype_min(dt), hi = tl_dtype_max(dt);
    float flo = (float)lo, fhi = (float)hi;
    int64_t v = 0;
    if (dt == TL_I8)
        for (; v + 16 <= n; v += 16)
            _mm_storeu_si128((__m128i *)((int8_t *)d + v),
                             _mm512_cvtepi32_epi8(to_int16x(s + v, flo, fhi)));
    else if (dt == TL_I16)
        for (; v + 16 <= n; v += 16)
            _mm256_storeu_si256((__m256i *)((int16_t *)d + v),
                                _mm512_cvtepi32_epi16(to_int16x(s + v, flo, fhi)));
    d = (uint8_t *)d + v * tl_dtype_size(dt);
    s += v;
    n -= v;
    if (dt == TL_I8) {
        int8_t *o = d;
        IVDEP
        for (int64_t i = 0; i < n; i++) {
            float r = rintf(s[i]);
            r = r != r ? 0.0f : r < flo ? flo : r > fhi ? fhi : r;
            o[i] = (int8_t)r;
        }
    } else if (dt == TL_I16) {
        int16_t *o = d;
        IVDEP
        for (int64_t i = 0; i < n; i++) {
            float r = rintf(s[i]);
            r = r != r ? 0.0f : r < flo ? flo : r > fhi ? fhi : r;
            o[i] = (int16_t)r;
        }
    } else {
        int32_t *o = d;
        IVDEP
        for (int64_t i = 0; i < n; i++) {
            double r = rint((double)s[i]);
            r = r != r ? 0.0 : r < lo ? lo : r > hi ? hi : r;
            o[i] = (int32_t)r;
        }
    }
}

// float16 <-> float32 with the conversion instructions (round to nearest
// even, subnormals kept); a NaN becomes the library's sign | 0x7e00.
static FAST void f16_to_f32(const uint16_t *s, float *d, int64_t n)
{
    int64_t i = 0;
    for (; i + 16 <= n; i += 16)
        _mm512_storeu_ps(d + i, _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)(s + i))));
    for (; i < n; i++) d[i] = tl_f16_to_f32_fast(s[i]);
}

static FAST void f32_to_f16(const float *s, uint16_t *d, int64_t n)
{
    int64_t i = 0;
    const __m512i abs = _mm512_set1_epi32(0x7fffffff), inf = _mm512_set1_epi32(0x7f800000);
    for (; i + 16 <= n; i += 16) {
        __m512 x = _mm512_loadu_ps(s + i);
        __m256i h = _mm512_cvtps_ph(x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
        __mmask16 nan = _mm512_cmpgt_epi32_mask(_mm512_and_si512(_mm512_castps_si512(x), abs), inf);
        __m256i canon = _mm256_or_si256(_mm256_and_si256(h, _mm256_set1_epi16((short)0x8000)),
                                        _mm256_set1_epi16(0x7e00));
        _mm256_storeu_si256((__m256i *)(d + i), _mm256_mask_mov_epi16(h, nan, canon));
    }
    for (; i < n; i++) d[i] = tl_f32_to_f16_rint(s[i]);
}

static FAST void widen(tl_dtype_t st, const uint16_t *s, float *d, int64_t n)
{
    if (st == TL_BF16) {
        IVDEP
        for (int64_t i = 0; i < n; i++) d[i] = tl_bf16_to_f32_fast(s[i]);
    } else {
        f16_to_f32(s, d, n);
    }
}

static FAST void narrow16(tl_dtype_t dt, const float *s, uint16_t *d, int64_t n)
{
    if (dt == TL_BF16) {
        IVDEP
        for (int64_t i = 0; i < n; i++) d[i] = tl_f32_to_bf16_rint(s[i]);
    } else {
        f32_to_f16(s, d, n);
    }
}

static FAST bool cast(const tl_opcall_t *call)
{
    int64_t count = count_arg(call, 2), nd = 0, ns = 0;
    tl_round_t mode = call->op->round;
    if (count == -2 || (mode != TL_CAST_RINT && mode != TL_CAST_NONE)) return false;
    if (!tl_cast_on_ascend(call->args[0].view.dtype, call->args[1].view.dtype, mode, NULL))
        return false; // the library's error
    uint8_t *d = span(call, 0, count, &nd), *s = span(call, 1, count, &ns);
    if (!d || !s || nd != ns) return false;
    tl_dtype_t dt = call->args[0].view.dtype, st = call->args[1].view.dtype;
    int64_t db = nd * tl_dtype_size(dt), sb = nd * tl_dtype_size(st);
    if (!(d + db <= s || s + sb <= d)) return false; // overlapping spans of two dtypes
    if (st == TL_I32 && dt == TL_F32) {
        const int32_t *a = (const int32_t *)s;
        float *o = (float *)d;
        IVDEP
        for (int64_t i = 0; i < nd; i++) o[i] = (float)a[i];
        return true;
    }
    if ((dt == TL_I8 || dt == TL_I16 || dt == TL_I32) && (st == TL_F32 || st == TL_F16)) {
        if (st == TL_F32) {
            to_int(dt, d, (const float *)s, nd);
            return true;
        }
        float buf[CHUNK];
        for (int64_t c = 0; c < nd; c += CHUNK) {
            int64_t m = TL_MIN(CHUNK, nd - c);
            widen(st, (const uint16_t *)s + c, buf, m);
            to_int(dt, d + c * tl_dtype_size(dt), buf, m);
        }
        return true;
    }
    if (dt == TL_F32 && (st == TL_BF16 || st == TL_F16)) {
        widen(st, (const uint16_t *)s, (float *)d, nd);
        return true;
    }
    if (st == TL_F32 && (dt == TL_BF16 || dt == TL_F16)) {
        narrow16(dt, (const float *)s, (uint16_t *)d, nd);
        return true;
    }
    return false;
}

static FAST void binary(tl_opcode_t code, float *d, const float *a, const float *b, float s,
                        int64_t n)
{
    switch (code) {
    case TL_OP_ADD:
        if (b) IVDEP
        for (int64_t i = 0; i < n; i++) d[i] = a[i] + b[i];
        else IVDEP for (int64_t i = 0; i < n; i++) d[i] = a[i] + s;
        break;
    case TL_OP_SUB:
        if (b) IVDEP
        for (int64_t i = 0; i < n; i++) d[i] = a[i] - b[i];
        else IVDEP for (int64_t i = 0; i < n; i++) d[i] = a[i] + s;
        break;
    case TL_OP_MUL:
        if (b) IVDEP
        for (int64_t i = 0; i < n; i++) d[i] = a[i] * b[i];
        else IVDEP for (int64_t i = 0; i < n; i++) d[i] = a[i] * s;
        break;
    case TL_OP_DIV:
        if (b) IVDEP
        for (int64_t i = 0; i < n; i++) d[i] = a[i] / b[i];
        else IVDEP for (int64_t i = 0; i < n; i++) d[i] = a[i] * s;
        break;
    case TL_OP_MAX:
        IVDEP
        for (int64_t i = 0; i < n; i++) {
            float y = b ? b[i] : s;
            d[i] = a[i] > y || a[i] != a[i] ? a[i] : y;
        }
        break;
    default:
        IVDEP
        for (int64_t i = 0; i < n; i++) {
            float y = b ? b[i] : s;
            d[i] = a[i] < y || a[i] != a[i] ? a[i] : y;
        }
        break;
    }
}

static FAST bool vec(const tl_opcall_t *call)
{
    if (call->nargs != 3) return false;
    int64_t nd = 0, na = 0, nb = 0;
    uint8_t *d = span(call, 0, -1, &nd), *a = span(call, 1, -1, &na), *b = NULL;
    if (!d || !a || nd != na || call->args[0].view.dtype != TL_F32 ||
        call->args[1].view.dtype != TL_F32)
        return false;
    float s = 0;
    tl_opcode_t code = call->op->code;
    if (call->args[2].is_view) {
        if (call->args[2].view.dtype != TL_F32 || !(b = span(call, 2, -1, &nb)) || nb != nd)
            return false;
    } else {
        s = tl_tileop_binary_scalar_f32(TL_F32, code, &call->args[2].scalar);
    }
    if (!disjoint_or_same(d, a, nd * 4) || (b && !disjoint_or_same(d, b, nd * 4))) return false;
    binary(code, (float *)d, (const float *)a, (const float *)b, s, nd);
    return true;
}

static FAST bool unary(const tl_opcall_t *call)
{
    int64_t count = count_arg(call, 2), nd = 0, na = 0;
    if (count == -2) return false;
    uint8_t *d = span(call, 0, count, &nd), *a = span(call, 1, count, &na);
    if (!d || !a || nd != na || call->args[0].view.dtype != TL_F32 ||
        call->args[1].view.dtype != TL_F32)
        return false;
    if (!disjoint_or_same(d, a, nd * 4)) return false;
    float *o = (float *)d;
    const float *x = (const float *)a;
    switch (call->op->code) {
    case TL_OP_ABS:
        IVDEP
        for (int64_t i = 0; i < nd; i++) o[i] = fabsf(x[i]);
        return true;
    case TL_OP_RELU:
        IVDEP
        for (int64_t i = 0; i < nd; i++) o[i] = x[i] < 0 ? 0.0f : x[i];
        return true;
    case TL_OP_ROUND:
        IVDEP
        for (int64_t i = 0; i < nd; i++) o[i] = rintf(x[i]);
        return true;
    case TL_OP_SQRT:
        IVDEP
        for (int64_t i = 0; i < nd; i++) o[i] = sqrtf(x[i]);
        return true;
    case TL_OP_RECIPROCAL:
        IVDEP
        for (int64_t i = 0; i < nd; i++) o[i] = 1.0f / x[i];
        return true;
    case TL_OP_EXP:
    case TL_OP_SIGMOID:
    case TL_OP_SILU: tl_fexp_avx512(call->op->code, o, x, nd); return true;
    default: return false;
    }
}

static FAST bool clamp(const tl_opcall_t *call)
{
    int64_t count = count_arg(call, 4), nd = 0, na = 0;
    if (count == -2 || call->nargs < 4 || call->args[2].is_view || call->args[3].is_view)
        return false;
    uint8_t *d = span(call, 0, count, &nd), *a = span(call, 1, count, &na);
    if (!d || !a || nd != na || call->args[0].view.dtype != TL_F32 ||
        call->args[1].view.dtype != TL_F32)
        return false;
    if (!disjoint_or_same(d, a, nd * 4)) return false;
    float lo = tl_tileop_scalar_f32(TL_F32, &call->args[2].scalar);
    float hi = tl_tileop_scalar_f32(TL_F32, &call->args[3].scalar);
    float *o = (float *)d;
    const float *x = (const float *)a;
    IVDEP
    for (int64_t i = 0; i < nd; i++) o[i] = x[i] < lo ? lo : x[i] > hi ? hi : x[i];
    return true;
}

// row_expand_{mul,sub,div}: d[r, c] = a[r, c] op b[r] over the folded rows.
static FAST bool row_expand(const tl_opcall_t *call)
{
    int64_t nd = 0, na = 0, nb = 0;
    if (call->nargs != 3) return false;
    uint8_t *d = span(call, 0, -1, &nd), *a = span(call, 1, -1, &na), *b = span(call, 2, -1, &nb);
    const tl_view_t *dv = &call->args[0].view;
    if (!d || !a || !b || nd != na || dv->dtype != TL_F32 || call->args[1].view.dtype != TL_F32 ||
        call->args[2].view.dtype != TL_F32 || !disjoint_or_same(d, a, nd * 4))
        return false;
    int64_t rows = 1, cols = dv->extent[dv->ndim - 1];
    for (int i = 0; i + 1 < dv->ndim; i++) rows *= dv->extent[i];
    if (nb != rows || (b < d + nd * 4 && d < b + nb * 4)) return false;
    float *o = (float *)d;
    const float *x = (const float *)a, *v = (const float *)b;
    tl_opcode_t code = call->op->code;
    for (int64_t r = 0; r < rows; r++) {
        float s = v[r];
        float *orow = o + r * cols;
        const float *xrow = x + r * cols;
        if (code == TL_OP_ROW_EXPAND_MUL) {
            IVDEP
            for (int64_t i = 0; i < cols; i++) orow[i] = xrow[i] * s;
        } else if (code == TL_OP_ROW_EXPAND_SUB) {
            IVDEP
            for (int64_t i = 0; i < cols; i++) orow[i] = xrow[i] - s;
        } else {
            IVDEP
            for (int64_t i = 0; i < cols; i++) orow[i] = xrow[i] / s;
        }
    }
    return true;
}

// The library's fold for max/min (any NaN gives NaN; ties keep the first).
static inline double fold(bool is_max, double acc, double x)
{
    if (x != x || acc != acc) return NAN;
    return is_max ? (x > acc ? x : acc) : (x < acc ? x : acc);
}

// max or min of a row as the library folds it: NaN if any element is NaN,
// else the extreme value; a zero result is refolded in order (the sign of a
// zero depends on which of +0 and -0 came first).
static FAST double maxmin(bool is_max, const float *x, int64_t n)
{
    const __m512 fill = _mm512_set1_ps(is_max ? -INFINITY : INFINITY);
    __m512 m = fill;
    __mmask16 nan = 0;
    for (int64_t j = 0; j < n; j += 16) {
        __mmask16 k = (__mmask16)(n - j >= 16 ? 0xffff : (1u << (n - j)) - 1);
        __m512 v = _mm512_mask_loadu_ps(fill, k, x + j);
        nan |= _mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q);
        m = is_max ? _mm512_max_ps(m, v) : _mm512_min_ps(m, v);
    }
    if (nan) return NAN;
    double r = is_max ? _mm512_reduce_max_ps(m) : _mm512_reduce_min_ps(m);
    if (r == 0) {
        r = is_max ? -INFINITY : INFINITY;
        for (int64_t j = 0; j < n; j++) r = fold(is_max, r, x[j]);
    }
    return r;
}

// reduce_sum/max/min of float32 rows (dim = -1, or a 1-D input) with clear:
// sums in double in increasing column order, rounded once.
static FAST bool reduce(const tl_opcall_t *call)
{
    const tl_op_t *op = call->op;
    bool real = op->real_shape[0] || op->real_shape[1];
    if (call->nargs != 2 || !call->args[0].is_view || !op->clear) return false;
    const tl_view_t *iv = &call->args[0].view;
    int nd = iv->ndim;
    if (iv->dtype != TL_F32 || iv->scope != TL_SCOPE_UB || (nd >= 2 && op->dim == 0) || nd > 3 ||
        (op->dim != 0 && op->dim != -1 && op->dim != 1))
        return false;
    for (int d = 0; d < nd; d++)
        if (iv->start[d] < 0 || iv->extent[d] < 0 || iv->start[d] + iv->extent[d] > iv->shape[d] ||
            (d < nd - 2 && iv->extent[d] != 1))
            return false;
    int64_t rows = nd >= 2 ? iv->extent[nd - 2] : 1, cols = iv->extent[nd - 1];
    if (real) { // the valid top-left rectangle of a 2-D input
        const int64_t *rs = op->real_shape;
        if (nd != 2 || rs[0] < 0 || rs[1] < 0 || rs[0] > rows || rs[1] > cols) return false;
        rows = rs[0] ? rs[0] : rows;
        cols = rs[1] ? rs[1] : cols;
    }
    int64_t ld = iv->shape[nd - 1], numel = 1, no = 0;
    for (int d = 0; d < nd; d++) numel *= iv->shape[d];
    if ((uint64_t)(numel * 4) > (uint64_t)iv->bytes) return false;
    uint8_t *out = span(call, 1, -1, &no);
    if (!out || call->args[1].view.dtype != TL_F32 || rows == 0 || no < rows ||
        (no > rows && !real))
        return false;
    const float *in = (const float *)(iv->data + tl_view_offset(iv) * 4);
    float *o = (float *)out;
    if (in + (rows - 1) * ld + cols > (const float *)iv->data + numel) return false;
    bool sum = op->code == TL_OP_REDUCE_SUM, is_max = op->code == TL_OP_REDUCE_MAX;
    int64_t r = 0;
    if (sum) // eight rows at a time: independent chains, each in column order
        for (; r + 8 <= rows; r += 8) {
            double acc[8] = {0};
            for (int64_t j = 0; j < cols; j++)
                for (int i = 0; i < 8; i++) acc[i] += in[(r + i) * ld + j];
            for (int i = 0; i < 8; i++) o[r + i] = (float)acc[i];
        }
    for (; r < rows; r++) {
        const float *x = in + r * ld;
        double acc = 0.0;
        if (sum)
            for (int64_t j = 0; j < cols; j++) acc += x[j];
        else
            acc = maxmin(is_max, x, cols);
        o[r] = (float)acc;
    }
    return true;
}

bool tl_cpufast_available(void)
{
    static int have = -1;
    if (have < 0) {
        __builtin_cpu_init();
        have = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
               __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl");
    }
    return have;
}

bool tl_cpufast_run(tl_tileop_ctx_t *ctx, const tl_opcall_t *call)
{
    if (!tl_cpufast_available() || tl_op_has_int4(call->op)) return false;
    if (tl_op_arith(call->op->code)) return vec(call);
    switch (call->op->code) {
    case TL_OP_CAST: return !(ctx->deq_scale != 1.0f) && cast(call);
    case TL_OP_ABS:
    case TL_OP_RELU:
    case TL_OP_ROUND:
    case TL_OP_SQRT:
    case TL_OP_RECIPROCAL:
    case TL_OP_EXP:
    case TL_OP_SIGMOID:
    case TL_OP_SILU: return unary(call);
    case TL_OP_CLAMP: return clamp(call);
    case TL_OP_ROW_EXPAND_MUL:
    case TL_OP_ROW_EXPAND_SUB:
    case TL_OP_ROW_EXPAND_DIV: return row_expand(call);
    case TL_OP_REDUCE_SUM:
    case TL_OP_REDUCE_MAX:
    case TL_OP_REDUCE_MIN: return reduce(call);
    default: return false;
    }
}

#else

bool tl_cpufast_run(tl_tileop_ctx_t *ctx, const tl_opcall_t *call)
{
    (void)ctx;
    (void)call;
    return false;
}

#endif
