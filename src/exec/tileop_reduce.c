// T.reduce_sum / reduce_max / reduce_min (surface §2.7).
//
// The input is a 1-D region (reduced to one value), a 2-D region [M, N], or a
// 3-D "trailing tile" region [1, M, N]; rows are addressed with the buffer's
// row pitch (so a sub-block of a wider buffer reduces correctly; upstream
// assumes rows are packed). dim 0 reduces across rows (one result per column),
// dim -1 within each row (one result per row). real_shape = [rows, cols]
// restricts a 2-D input to its top-left valid rectangle (0 = full extent).
// The output is a flat span of the results: it must have exactly that many
// elements (reduced or keep-dim shape), or at least that many when real_shape
// is given (upstream's physical-width outputs); the rest is left untouched.
//
// T.reduce_abssum / reduce_absmax reduce the magnitudes |x| the same way (no
// clear=False for abssum: the front end rejects it, as upstream's signature
// has no such parameter).
//
// Numerics: sums accumulate in double and are rounded once to the dtype
// (RNE); integer sums wrap. max/min propagate NaN. clear=False merges with
// the old output element-wise: sum as old + result (in float for float dtypes,
// rounded to the dtype), max/min as the max/min of both. An empty reduction
// gives 0 (sum), -inf or the type's minimum (max), +inf or the maximum (min).
#include "exec/tileop_impl.h"

#include <math.h>
#include <stdlib.h>

typedef enum { RED_SUM, RED_MAX, RED_MIN } red_t;

// |x| of the elements first (reduce_abssum / reduce_absmax)
static bool abs_of(tl_opcode_t code)
{
    return code == TL_OP_REDUCE_ABSSUM || code == TL_OP_REDUCE_ABSMAX;
}

typedef struct {
    const uint8_t *p; // element [0, 0]
    int64_t rows, cols, ld;
    tl_dtype_t t;
} rin_t;

static double fold_f(red_t k, double acc, double x)
{
    if (k == RED_SUM) return acc + x;
    if (x != x || acc != acc) return NAN;
    return k == RED_MAX ? (x > acc ? x : acc) : (x < acc ? x : acc);
}

static int64_t fold_i(red_t k, int64_t acc, int64_t x)
{
    if (k == RED_SUM) return (int64_t)((uint64_t)acc + (uint64_t)x);
    return k == RED_MAX ? (x > acc ? x : acc) : (x < acc ? x : acc);
}

static double init_f(red_t k)
{
    return k == RED_SUM ? 0.0 : k == RED_MAX ? -INFINITY : INFINITY;
}

static int64_t init_i(red_t k, tl_dtype_t t)
{
    return k == RED_SUM ? 0 : k == RED_MAX ? (int64_t)tl_dtype_min(t) : (int64_t)tl_dtype_max(t);
}

// Float inputs: results as doubles (exact max/min; sums in double).
static void reduce_float(red_t k, const rin_t *in, bool per_row, bool mag, double *res)
{
    int sz = tl_dtype_size(in->t);
    int64_t nres = per_row ? in->rows : in->cols;
    for (int64_t i = 0; i < nres; i++) res[i] = init_f(k);
    float buf[TL_TILEOP_CHUNK];
    for (int64_t r = 0; r < in->rows; r++)
        for (int64_t c0 = 0; c0 < in->cols; c0 += TL_TILEOP_CHUNK) {
            int64_t m = TL_MIN(TL_TILEOP_CHUNK, in->cols - c0);
            const uint8_t *p = in->p + (r * in->ld + c0) * sz;
            const float *x = buf;
            if (in->t == TL_F32 && !mag)
                x = (const float *)p;
            else
                tl_tileop_load_f32(in->t, p, m, buf);
            if (mag)
                for (int64_t j = 0; j < m; j++) buf[j] = fabsf(buf[j]);
            if (per_row) {
                double acc = res[r];
                for (int64_t j = 0; j < m; j++) acc = fold_f(k, acc, x[j]);
                res[r] = acc;
            } else if (k == RED_SUM) {
                double *acc = res + c0;
                TL_VLOOP(double, m, acc, j, acc[j] + x[j]);
            } else {
                for (int64_t j = 0; j < m; j++) res[c0 + j] = fold_f(k, res[c0 + j], x[j]);
            }
        }
}

static void reduce_int(red_t k, const rin_t *in, bool per_row, bool mag, int64_t *res)
{
    int sz = tl_dtype_size(in->t);
    int64_t nres = per_row ? in->rows : in->cols;
    for (int64_t i = 0; i < nres; i++) res[i] = init_i(k, in->t);
    int64_t x[TL_TILEOP_CHUNK];
    for (int64_t r = 0; r < in->rows; r++)
        for (int64_t c0 = 0; c0 < in->cols; c0 += TL_TILEOP_CHUNK) {
            int64_t m = TL_MIN(TL_TILEOP_CHUNK, in->cols - c0);
            tl_tileop_load_i64(in->t, in->p + (r * in->ld + c0) * sz, m, x);
            for (int64_t j = 0; j < m; j++) {
                int64_t *acc = per_row ? &res[r] : &res[c0 + j];
                *acc = fold_i(k, *acc, mag && x[j] < 0 ? (int64_t)(0 - (uint64_t)x[j]) : x[j]);
            }
        }
}

// Rounds the results to the dtype and stores them; !clear merges with the old
// output (sum: old + rounded result in float, rounded again; max/min).
static void store_float(red_t k, tl_dtype_t t, uint8_t *out, const double *res, int64_t n,
                        bool clear)
{
    int sz = tl_dtype_size(t);
    for (int64_t i = 0; i < n; i++) {
        uint8_t *p = out + i * sz;
        float old = clear ? 0.0f : (float)tl_load_f64(t, p, 0);
        tl_store_f64(t, p, 0, res[i], TL_CAST_RINT);
        if (clear) continue;
        float r = (float)tl_load_f64(t, p, 0);
        double v = k == RED_SUM ? (double)(old + r) : fold_f(k, old, r);
        tl_store_f64(t, p, 0, v, TL_CAST_RINT);
    }
}

static void store_int(red_t k, tl_dtype_t t, uint8_t *out, int64_t *res, int64_t n, bool clear)
{
    int sz = tl_dtype_size(t);
    for (int64_t i = 0; i < n; i++) {
        if (clear) continue;
        int64_t old;
        tl_tileop_load_i64(t, out + i * sz, 1, &old);
        tl_tileop_store_i64(t, (uint8_t *)&res[i], 1, &res[i]); // wrap to the dtype first
        tl_tileop_load_i64(t, (const uint8_t *)&res[i], 1, &res[i]);
        res[i] = fold_i(k, old, res[i]);
    }
    tl_tileop_store_i64(t, out, n, res);
}

static red_t kind_of(tl_opcode_t code)
{
    return code == TL_OP_REDUCE_SUM || code == TL_OP_REDUCE_ABSSUM   ? RED_SUM
           : code == TL_OP_REDUCE_MAX || code == TL_OP_REDUCE_ABSMAX ? RED_MAX
                                                                     : RED_MIN;
}

// The input rectangle: rank, leading unit extents, bounds, real_shape.
static tl_status_t input_of(tl_tileop_ctx_t *ctx, const tl_opcall_t *call, const tl_view_t *v,
                            rin_t *in)
{
    char a[128], b[128], c[128];
    int nd = v->ndim;
    for (int d = 0; d < nd; d++) {
        if (v->start[d] + v->extent[d] > v->shape[d])
            return tl_tileop_fail(ctx, call, TL_ERR_RUNTIME,
                                  "region at %s with extents %s is outside '%s' %s",
                                  tl_tileop_dims(a, sizeof a, v->start, nd),
                                  tl_tileop_dims(b, sizeof b, v->extent, nd), v->name,
                                  tl_tileop_dims(c, sizeof c, v->shape, nd));
        if (d < nd - 2 && v->extent[d] != 1)
            return tl_tileop_fail(ctx, call, TL_ERR_UNSUPPORTED,
                                  "reduces 1-D, 2-D or [1, M, N] regions; '%s' has extents %s",
                                  v->name, tl_tileop_dims(a, sizeof a, v->extent, nd));
    }
    in->t = v->dtype;
    in->rows = nd >= 2 ? v->extent[nd - 2] : 1;
    in->cols = v->extent[nd - 1];
    in->ld = v->shape[nd - 1];
    in->p = v->data + tl_view_offset(v) * tl_dtype_size(v->dtype);
    const int64_t *rs = call->op->real_shape;
    if (rs[0] || rs[1]) {
        if (nd != 2)
            return tl_tileop_fail(ctx, call, TL_ERR_UNSUPPORTED,
                                  "real_shape needs a 2-D input, '%s' has %d dimensions", v->name,
                                  nd);
        if (rs[0] < 0 || rs[1] < 0 || rs[0] > in->rows || rs[1] > in->cols)
            return tl_tileop_fail(ctx, call, TL_ERR_RUNTIME,
                                  "real_shape [%lld, %lld] exceeds the input '%s' [%lld, %lld]",
                                  (long long)rs[0], (long long)rs[1], v->name, (long long)in->rows,
                                  (long long)in->cols);
        if (rs[0]) in->rows = rs[0];
        if (rs[1]) in->cols = rs[1];
    }
    return TL_OK;
}

// The input and output views of a reduction or scan: same dtype, the input's
// rows x cols read (input_of).
static tl_status_t open_in_out(tl_tileop_ctx_t *ctx, const tl_opcall_t *call,
                               const tl_view_t **iv, const tl_view_t **ov, rin_t *in)
{
    tl_status_t st;
    if ((st = tl_tileop_view(ctx, call, 0, iv)) != TL_OK ||
        (st = tl_tileop_view(ctx, call, 1, ov)) != TL_OK ||
        (st = tl_tileop_same_dtype(ctx, call, *iv, *ov)) != TL_OK)
        return st;
    return input_of(ctx, call, *iv, in);
}

// Reductions and scans take the vector float and integer dtypes only.
static tl_status_t numeric_dtype(tl_tileop_ctx_t *ctx, const tl_opcall_t *call,
                                 const tl_view_t *iv, bool *flt)
{
    *flt = tl_tileop_is_vfloat(iv->dtype);
    if (!*flt && !tl_tileop_is_vint(iv->dtype))
        return tl_tileop_fail(ctx, call, TL_ERR_UNSUPPORTED, "does not support %s ('%s')",
                              tl_dtype_name(iv->dtype), iv->name);
    return TL_OK;
}

tl_status_t tl_tileop_reduce_run(tl_tileop_ctx_t *ctx, const tl_opcall_t *call)
{
    const tl_view_t *iv, *ov;
    tl_span_t out;
    rin_t in;
    tl_status_t st;
    bool flt;
    if ((st = open_in_out(ctx, call, &iv, &ov, &in)) != TL_OK ||
        (st = tl_tileop_span(ctx, call, ov, -1, &out)) != TL_OK ||
        (st = numeric_dtype(ctx, call, iv, &flt)) != TL_OK)
        return st;
    tl_dtype_t t = iv->dtype;
    int dim = call->op->dim;
    if (dim != 0 && dim != -1 && dim != 1)
        return tl_tileop_fail(ctx, call, TL_ERR_RUNTIME, "dim must be 0 or -1, got %d", dim);
    bool per_row = iv->ndim == 1 || dim != 0;
    if (iv->ndim == 1) in.rows = 1;
    int64_t nres = per_row ? in.rows : in.cols;
    bool real = call->op->real_shape[0] || call->op->real_shape[1];
    if (out.n != nres && !(real && out.n > nres))
        return tl_tileop_fail(ctx, call, TL_ERR_RUNTIME,
                              "output '%s' has %lld elements, the reduction of '%s' gives %lld",
                              ov->name, (long long)out.n, iv->name, (long long)nres);
    if (nres == 0) return TL_OK;
    red_t k = kind_of(call->op->code);
    void *res = malloc((size_t)nres * 8);
    if (!res) return tl_tileop_fail(ctx, call, TL_ERR_NOMEM, "out of memory");
    bool mag = abs_of(call->op->code);
    if (flt) {
        reduce_float(k, &in, per_row, mag, res);
        store_float(k, t, out.p, res, nres, call->op->clear);
    } else {
        reduce_int(k, &in, per_row, mag, res);
        store_int(k, t, out.p, res, nres, call->op->clear);
    }
    free(res);
    return TL_OK;
}

// T.cumsum(src, dst, dim, reverse): dst[.., i] = src[.., 0] + .. + src[.., i]
// along dim (-1: within each row, 0: down each column), from the other end
// with reverse. src and dst are 1-D, 2-D or [1, M, N] regions of the same
// rows x cols (dst may be src). A float running sum is kept in float32, one
// rounded add per step as a chain of vector adds does, and each result is
// rounded to the dtype; integer sums wrap.
tl_status_t tl_tileop_cumsum_run(tl_tileop_ctx_t *ctx, const tl_opcall_t *call)
{
    const tl_view_t *iv, *ov;
    rin_t in, out;
    tl_status_t st;
    bool flt;
    if ((st = open_in_out(ctx, call, &iv, &ov, &in)) != TL_OK ||
        (st = input_of(ctx, call, ov, &out)) != TL_OK ||
        (st = numeric_dtype(ctx, call, iv, &flt)) != TL_OK)
        return st;
    tl_dtype_t t = iv->dtype;
    if (in.rows != out.rows || in.cols != out.cols)
        return tl_tileop_fail(ctx, call, TL_ERR_RUNTIME,
                              "output '%s' is %lld x %lld, the input '%s' %lld x %lld", ov->name,
                              (long long)out.rows, (long long)out.cols, iv->name,
                              (long long)in.rows, (long long)in.cols);
    int64_t n = in.rows * in.cols;
    if (n == 0) return TL_OK;
    // the whole input first: dst may be src
    double *v = malloc((size_t)n * sizeof *v);
    int64_t *w = malloc((size_t)n * sizeof *w);
    if (!v || !w) {
        free(v), free(w);
        return tl_tileop_fail(ctx, call, TL_ERR_NOMEM, "out of memory");
    }
    int sz = tl_dtype_size(t);
    for (int64_t r = 0; r < in.rows; r++) {
        const uint8_t *p = in.p + r * in.ld * sz;
        if (flt)
            for (int64_t c = 0; c < in.cols; c++) v[r * in.cols + c] = tl_load_f64(t, p, c);
        else
            tl_tileop_load_i64(t, p, in.cols, w + r * in.cols);
    }
    bool rows = call->op->dim != 0 || iv->ndim == 1; // along each row
    int64_t lines = rows ? in.rows : in.cols, len = rows ? in.cols : in.rows;
    int64_t step = rows ? 1 : in.cols, first = rows ? in.cols : 1;
    for (int64_t l = 0; l < lines; l++) {
        float accf = 0.0f;
        int64_t accw = 0;
        for (int64_t i = 0; i < len; i++) {
            int64_t e = l * first + (call->op->reverse ? len - 1 - i : i) * step;
            if (flt) {
                accf = i == 0 ? (float)v[e] : accf + (float)v[e];
                v[e] = accf;
            } else {
                accw = (int64_t)((uint64_t)accw + (uint64_t)w[e]);
                w[e] = accw;
            }
        }
    }
    for (int64_t r = 0; r < out.rows; r++) {
        uint8_t *p = (uint8_t *)out.p + r * out.ld * sz;
        if (flt)
            for (int64_t c = 0; c < out.cols; c++) tl_store_f64(t, p, c, v[r * out.cols + c], TL_CAST_RINT);
        else
            tl_tileop_store_i64(t, p, out.cols, w + r * out.cols);
    }
    free(v), free(w);
    return TL_OK;
}
