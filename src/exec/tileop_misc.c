// Vector ops that move or generate data rather than compute element-wise:
// compare (to a bit mask), select, broadcast, row_expand_{mul,sub,div}, gather,
// createvecindex, arith_progression, transpose and reinterpretcast.
//
// Semantics (surface §2.5), all on flat spans:
// - compare writes 1 bit per element, LSB first within each byte, starting at
//   the destination's first byte; unused bits of the last byte are cleared.
//   NaN compares unequal to everything. Upstream's "count * size multiple of
//   256 bytes" restriction is a hardware packing rule, not enforced here.
// - select: mask bit 1 takes src0, 0 takes src1 (a buffer, or the scalar in
//   VSEL_TENSOR_SCALAR_MODE; the mode must match the src1 kind).
// - broadcast follows upstream's axis inference: src (1, N) fills every row,
//   (M, 1) every column, a 1-D src is matched against dst's columns first,
//   then rows; an explicit axis (0 rows, 1 columns) wins. 3-D regions use
//   their last two dimensions (the leading extents must be 1).
// - row_expand: dst[i, j] = src0[i, j] op src1[i] with dst/src0 folded to
//   [rows, last extent]; src1 has one element per row. Float dtypes only.
// - gather: dst[i] = the src element at byte offset base + offsets[i] from
//   the src origin, for i < min(dst, offsets) elements; offsets are uint32 or
//   int32 and must be multiples of the element size inside the src buffer
//   (upstream reads garbage otherwise; here it is an error).
// - createvecindex: first + i; arith_progression: first + i * diff (computed
//   in double, rounded once to the dtype; integers wrap).
// - transpose: any [rows, cols] src into [cols, rows] (upstream: 16x16 only).
// - reinterpretcast copies src's bytes into dst. The pipelines never run it:
//   pass/views.c makes dst a view of src's memory first, as upstream does;
//   only IR that skips the passes (unit tests) reaches this.
#include "exec/tileop_impl.h"

#include <stdlib.h>

static void fold2(const tl_view_t *v, int64_t *rows, int64_t *cols)
{
    *rows = 1;
    for (int d = 0; d + 1 < v->ndim; d++) *rows *= v->extent[d];
    *cols = v->extent[v->ndim - 1];
}

#define REPL_AS(T)                                                                                 \
    do {                                                                                           \
        T v_, *d_ = (T *)d;                                                                        \
        memcpy(&v_, elem, sizeof v_);                                                              \
        TL_VLOOP(T, n, d_, i, v_);                                                                 \
    } while (0)

// n copies of one sz-byte element.
static void replicate(uint8_t *d, const uint8_t *elem, int64_t n, int sz)
{
    switch (sz) {
    case 1: memset(d, elem[0], (size_t)n); break;
    case 2: REPL_AS(uint16_t); break;
    case 4: REPL_AS(uint32_t); break;
    default: REPL_AS(uint64_t); break;
    }
}
#undef REPL_AS

static bool cmp_f(tl_cmp_mode_t m, float a, float b)
{
    switch (m) {
    case TL_CMPMODE_EQ: return a == b;
    case TL_CMPMODE_NE: return a != b;
    case TL_CMPMODE_GT: return a > b;
    case TL_CMPMODE_GE: return a >= b;
    case TL_CMPMODE_LT: return a < b;
    default: return a <= b;
    }
}

static bool cmp_i(tl_cmp_mode_t m, int64_t a, int64_t b)
{
    switch (m) {
    case TL_CMPMODE_EQ: return a == b;
    case TL_CMPMODE_NE: return a != b;
    case TL_CMPMODE_GT: return a > b;
    case TL_CMPMODE_GE: return a >= b;
    case TL_CMPMODE_LT: return a < b;
    default: return a <= b;
    }
}

// The mask operand: at least ceil(n / 8) bytes from its origin.
static tl_status_t mask_span(tl_tileop_ctx_t *ctx, const tl_opcall_t *call, const tl_view_t *v,
                             int64_t n, tl_span_t *out)
{
    int sz = tl_dtype_size(v->dtype);
    return tl_tileop_span(ctx, call, v, ((n + 7) / 8 + sz - 1) / sz, out);
}

static tl_status_t compare(tl_tileop_ctx_t *ctx, const tl_opcall_t *call)
{
    const tl_view_t *dv, *av, *bv = NULL;
    tl_span_t d, a, b;
    tl_status_t st;
    if ((st = tl_tileop_view(ctx, call, 0, &dv)) != TL_OK ||
        (st = tl_tileop_view(ctx, call, 1, &av)) != TL_OK ||
        (st = tl_tileop_span(ctx, call, av, -1, &a)) != TL_OK)
        return st;
    tl_dtype_t t = av->dtype;
    bool flt = tl_tileop_is_vfloat(t);
    if (!flt && !tl_tileop_is_vint(t))
        return tl_tileop_fail(ctx, call, TL_ERR_UNSUPPORTED, "does not support %s ('%s')",
                              tl_dtype_name(t), av->name);
    float sf = 0;
    int64_t si = 0;
    if (call->args[2].is_view) {
        bv = &call->args[2].view;
        if ((st = tl_tileop_same_dtype(ctx, call, av, bv)) != TL_OK ||
            (st = tl_tileop_span(ctx, call, bv, -1, &b)) != TL_OK ||
            (st = tl_tileop_same_count(ctx, call, &a, &b)) != TL_OK)
            return st;
    } else if (flt) {
        sf = tl_tileop_scalar_f32(t, &call->args[2].scalar);
    } else {
        si = tl_tileop_scalar_i64(t, &call->args[2].scalar);
    }
    if ((st = mask_span(ctx, call, dv, a.n, &d)) != TL_OK) return st;
    tl_cmp_mode_t m = call->op->cmp;
    int sz = tl_dtype_size(t);
    memset(d.p, 0, (size_t)((a.n + 7) / 8));
    for (int64_t c = 0; c < a.n; c += TL_TILEOP_CHUNK) {
        int64_t k = TL_MIN(TL_TILEOP_CHUNK, a.n - c);
        bool r[TL_TILEOP_CHUNK];
        if (flt) {
            float x[TL_TILEOP_CHUNK], y[TL_TILEOP_CHUNK];
            tl_tileop_load_f32(t, a.p + c * sz, k, x);
            if (bv) tl_tileop_load_f32(t, b.p + c * sz, k, y);
            for (int64_t i = 0; i < k; i++) r[i] = cmp_f(m, x[i], bv ? y[i] : sf);
        } else {
            int64_t x[TL_TILEOP_CHUNK], y[TL_TILEOP_CHUNK];
            tl_tileop_load_i64(t, a.p + c * sz, k, x);
            if (bv) tl_tileop_load_i64(t, b.p + c * sz, k, y);
            for (int64_t i = 0; i < k; i++) r[i] = cmp_i(m, x[i], bv ? y[i] : si);
        }
        for (int64_t i = 0; i < k; i++)
            if (r[i]) d.p[(c + i) / 8] |= (uint8_t)(1u << ((c + i) % 8));
    }
    return TL_OK;
}

#define SELECT_AS(T)                                                                               \
    do {                                                                                           \
        T *d_ = (T *)d.p, s_;                                                                      \
        const T *a_ = (const T *)a.p, *b_ = bv ? (const T *)b.p : &s_;                             \
        memcpy(&s_, sbits, sizeof s_);                                                             \
        int64_t bs_ = bv ? 1 : 0;                                                                  \
        for (int64_t i = 0; i < d.n; i++)                                                          \
            d_[i] = (mk.p[i / 8] >> (i % 8)) & 1 ? a_[i] : b_[i * bs_];                            \
    } while (0)

static tl_status_t select_op(tl_tileop_ctx_t *ctx, const tl_opcall_t *call)
{
    const tl_view_t *mv, *bv = NULL;
    tl_span_t d, mk, a, b;
    tl_status_t st;
    if ((st = tl_tileop_pair(ctx, call, 0, 2, -1, true, &d, &a)) != TL_OK ||
        (st = tl_tileop_view(ctx, call, 1, &mv)) != TL_OK ||
        (st = mask_span(ctx, call, mv, d.n, &mk)) != TL_OK)
        return st;
    const tl_view_t *dv = d.v;
    bool scalar_mode = call->op->sel == TL_SEL_TENSOR_SCALAR;
    if (scalar_mode == call->args[3].is_view)
        return tl_tileop_fail(ctx, call, TL_ERR_RUNTIME, "mode %s needs a %s as src1",
                              scalar_mode                           ? "VSEL_TENSOR_SCALAR_MODE"
                              : call->op->sel == TL_SEL_CMPMASK_SPR ? "VSEL_CMPMASK_SPR"
                                                                    : "VSEL_TENSOR_TENSOR_MODE",
                              scalar_mode ? "scalar" : "buffer");
    uint8_t sbits[8] = {0};
    if (call->args[3].is_view) {
        bv = &call->args[3].view;
        if ((st = tl_tileop_same_dtype(ctx, call, dv, bv)) != TL_OK ||
            (st = tl_tileop_span(ctx, call, bv, -1, &b)) != TL_OK ||
            (st = tl_tileop_same_count(ctx, call, &d, &b)) != TL_OK)
            return st;
    } else {
        tl_tileop_scalar_to(dv->dtype, &call->args[3].scalar, sbits);
    }
    switch (tl_dtype_size(dv->dtype)) {
    case 1: SELECT_AS(uint8_t); break;
    case 2: SELECT_AS(uint16_t); break;
    case 4: SELECT_AS(uint32_t); break;
    default: SELECT_AS(uint64_t); break;
    }
    return TL_OK;
}
#undef SELECT_AS

// The broadcast extents of a region: its last two (leading extents must be 1).
static tl_status_t bcast_dims(tl_tileop_ctx_t *ctx, const tl_opcall_t *call, const tl_view_t *v,
                              int64_t *e, int *nd)
{
    char a[128];
    for (int d = 0; d + 2 < v->ndim; d++)
        if (v->extent[d] != 1)
            return tl_tileop_fail(ctx, call, TL_ERR_UNSUPPORTED,
                                  "works on 1-D or 2-D regions; '%s' has extents %s", v->name,
                                  tl_tileop_dims(a, sizeof a, v->extent, v->ndim));
    *nd = TL_MIN(v->ndim, 2);
    for (int i = 0; i < *nd; i++) e[i] = v->extent[v->ndim - *nd + i];
    return TL_OK;
}

static tl_status_t broadcast(tl_tileop_ctx_t *ctx, const tl_opcall_t *call)
{
    const tl_view_t *dv, *sv;
    tl_span_t d, s;
    int64_t de[2], se[2];
    int dn, sn;
    char a[64], b[64];
    tl_status_t st;
    if ((st = tl_tileop_view(ctx, call, 0, &dv)) != TL_OK ||
        (st = tl_tileop_view(ctx, call, 1, &sv)) != TL_OK ||
        (st = tl_tileop_same_dtype(ctx, call, dv, sv)) != TL_OK ||
        (st = bcast_dims(ctx, call, dv, de, &dn)) != TL_OK ||
        (st = bcast_dims(ctx, call, sv, se, &sn)) != TL_OK ||
        (st = tl_tileop_span(ctx, call, dv, -1, &d)) != TL_OK ||
        (st = tl_tileop_span(ctx, call, sv, -1, &s)) != TL_OK)
        return st;
    int axis = call->op->dim;
    if (!tl_broadcast_fit(de, dn, se, &sn, &axis))
        return tl_tileop_fail(ctx, call, TL_ERR_RUNTIME, "cannot broadcast '%s' %s to '%s' %s%s",
                              sv->name, tl_tileop_dims(a, sizeof a, se, sn), dv->name,
                              tl_tileop_dims(b, sizeof b, de, dn),
                              call->op->dim >= 0 ? " along the given axis" : "");
    int sz = tl_dtype_size(dv->dtype);
    int64_t rows = dn == 2 ? de[0] : 1, cols = de[dn - 1];
    if (se[axis] != 1 || (dn == 1 && se[0] == de[0])) {
        memmove(d.p, s.p, (size_t)(d.n * sz)); // nothing to broadcast
    } else if (dn == 1) {
        replicate(d.p, s.p, cols, sz);
    } else if (axis == 0) {
        for (int64_t i = 0; i < rows; i++) memmove(d.p + i * cols * sz, s.p, (size_t)(cols * sz));
    } else {
        for (int64_t i = 0; i < rows; i++) replicate(d.p + i * cols * sz, s.p + i * sz, cols, sz);
    }
    return TL_OK;
}

static tl_status_t row_expand(tl_tileop_ctx_t *ctx, const tl_opcall_t *call)
{
    const tl_view_t *bv;
    tl_span_t d, a, b;
    tl_status_t st;
    if ((st = tl_tileop_pair(ctx, call, 0, 1, -1, true, &d, &a)) != TL_OK ||
        (st = tl_tileop_view(ctx, call, 2, &bv)) != TL_OK ||
        (st = tl_tileop_same_dtype(ctx, call, d.v, bv)) != TL_OK ||
        (st = tl_tileop_span(ctx, call, bv, -1, &b)) != TL_OK)
        return st;
    const tl_view_t *dv = d.v;
    tl_dtype_t t = dv->dtype;
    if (!tl_tileop_is_vfloat(t))
        return tl_tileop_fail(ctx, call, TL_ERR_UNSUPPORTED, "needs a float dtype, '%s' is %s",
                              dv->name, tl_dtype_name(t));
    int64_t rows, cols;
    fold2(dv, &rows, &cols);
    if (b.n != rows)
        return tl_tileop_fail(ctx, call, TL_ERR_RUNTIME,
                              "'%s' has %lld elements but '%s' has %lld rows", bv->name,
                              (long long)b.n, dv->name, (long long)rows);
    tl_opcode_t code = call->op->code;
    int sz = tl_dtype_size(t);
    float x[TL_TILEOP_CHUNK];
    for (int64_t r = 0; r < rows; r++) {
        float v;
        tl_tileop_load_f32(t, b.p + r * sz, 1, &v);
        for (int64_t c = 0; c < cols; c += TL_TILEOP_CHUNK) {
            int64_t m = TL_MIN(TL_TILEOP_CHUNK, cols - c), off = (r * cols + c) * sz;
            tl_tileop_load_f32(t, a.p + off, m, x);
            if (code == TL_OP_ROW_EXPAND_MUL)
                TL_VLOOP(float, m, x, i, x[i] * v);
            else if (code == TL_OP_ROW_EXPAND_SUB)
                TL_VLOOP(float, m, x, i, x[i] - v);
            else
                TL_VLOOP(float, m, x, i, x[i] / v);
            tl_tileop_store_f32(t, d.p + off, m, x);
        }
    }
    return TL_OK;
}

static tl_status_t gather(tl_tileop_ctx_t *ctx, const tl_opcall_t *call)
{
    const tl_view_t *dv, *sv, *ov;
    tl_span_t d, o;
    tl_scalar_t base = {.is_float = false, .i = 0};
    tl_status_t st;
    if ((st = tl_tileop_view(ctx, call, 0, &dv)) != TL_OK ||
        (st = tl_tileop_view(ctx, call, 1, &sv)) != TL_OK ||
        (st = tl_tileop_view(ctx, call, 2, &ov)) != TL_OK ||
        (st = tl_tileop_same_dtype(ctx, call, dv, sv)) != TL_OK ||
        (call->nargs > 3 && (st = tl_tileop_scalar(ctx, call, 3, &base)) != TL_OK) ||
        (st = tl_tileop_span(ctx, call, dv, -1, &d)) != TL_OK ||
        (st = tl_tileop_span(ctx, call, ov, -1, &o)) != TL_OK)
        return st;
    if (ov->dtype != TL_U32 && ov->dtype != TL_I32)
        return tl_tileop_fail(ctx, call, TL_ERR_RUNTIME,
                              "offsets '%s' must be uint32 or int32 byte offsets, not %s", ov->name,
                              tl_dtype_name(ov->dtype));
    int sz = tl_dtype_size(dv->dtype);
    int64_t n = TL_MIN(d.n, o.n), b0 = tl_tileop_scalar_int(&base);
    int64_t avail = 1;
    for (int i = 0; i < sv->ndim; i++) avail *= sv->shape[i];
    avail -= tl_view_offset(sv); // elements from the src origin to its end
    const uint8_t *src = sv->data + tl_view_offset(sv) * sz;
    for (int64_t i = 0; i < n; i++) {
        int64_t off = (ov->dtype == TL_U32 ? (int64_t)((const uint32_t *)o.p)[i]
                                           : (int64_t)((const int32_t *)o.p)[i]) +
                      b0;
        if (off < 0 || off % sz != 0 || off / sz >= avail)
            return tl_tileop_fail(ctx, call, TL_ERR_RUNTIME,
                                  "byte offset %lld (element %lld of '%s') is %s '%s' (%lld "
                                  "elements of %d bytes from its origin)",
                                  (long long)off, (long long)i, ov->name,
                                  off % sz != 0 && off >= 0 ? "not element-aligned in" : "outside",
                                  sv->name, (long long)avail, sz);
        memcpy(d.p + i * sz, src + off, (size_t)sz);
    }
    return TL_OK;
}

// createvecindex (first + i) and arith_progression (first + i * diff).
static tl_status_t progression(tl_tileop_ctx_t *ctx, const tl_opcall_t *call)
{
    bool arith = call->op->code == TL_OP_ARITH_PROGRESSION;
    const tl_view_t *dv;
    tl_scalar_t first, diff = {.is_float = false, .i = 1};
    int64_t count = -1;
    tl_span_t d;
    tl_status_t st;
    if ((st = tl_tileop_view(ctx, call, 0, &dv)) != TL_OK ||
        (st = tl_tileop_scalar(ctx, call, 1, &first)) != TL_OK ||
        (arith && (st = tl_tileop_scalar(ctx, call, 2, &diff)) != TL_OK) ||
        (arith && (st = tl_tileop_count(ctx, call, 3, &count)) != TL_OK) ||
        (st = tl_tileop_span(ctx, call, dv, count, &d)) != TL_OK)
        return st;
    tl_dtype_t t = dv->dtype;
    int sz = tl_dtype_size(t);
    bool flt = tl_dtype_is_float(t);
    for (int64_t c = 0; c < d.n; c += TL_TILEOP_CHUNK) {
        int64_t m = TL_MIN(TL_TILEOP_CHUNK, d.n - c);
        if (flt) {
            double w[TL_TILEOP_CHUNK], f0 = tl_tileop_scalar_value(&first);
            double df = tl_tileop_scalar_value(&diff);
            for (int64_t i = 0; i < m; i++) w[i] = f0 + (double)(c + i) * df;
            tl_convert(t, d.p + c * sz, TL_F64, w, (size_t)m, TL_CAST_RINT);
        } else {
            int64_t w[TL_TILEOP_CHUNK], f0 = tl_tileop_scalar_int(&first);
            int64_t di = tl_tileop_scalar_int(&diff);
            for (int64_t i = 0; i < m; i++)
                w[i] = (int64_t)((uint64_t)f0 + (uint64_t)(c + i) * (uint64_t)di);
            tl_tileop_store_i64(t, d.p + c * sz, m, w);
        }
    }
    return TL_OK;
}

static tl_status_t transpose(tl_tileop_ctx_t *ctx, const tl_opcall_t *call)
{
    tl_span_t d, s;
    tl_status_t st = tl_tileop_pair(ctx, call, 0, 1, -1, true, &d, &s);
    if (st != TL_OK) return st;
    const tl_view_t *dv = d.v, *sv = s.v;
    int64_t rows, cols, drows, dcols;
    fold2(sv, &rows, &cols);
    fold2(dv, &drows, &dcols);
    if (dv->ndim >= 2 && (drows != cols || dcols != rows))
        return tl_tileop_fail(ctx, call, TL_ERR_RUNTIME,
                              "'%s' [%lld, %lld] cannot hold the transpose of '%s' [%lld, %lld]",
                              dv->name, (long long)drows, (long long)dcols, sv->name,
                              (long long)rows, (long long)cols);
    int sz = tl_dtype_size(dv->dtype);
    size_t bytes = (size_t)(d.n * sz);
    const uint8_t *src = s.p;
    uint8_t *tmp = NULL;
    if (d.p < s.p + bytes && s.p < d.p + bytes) { // in place: transpose a copy
        if (!(tmp = malloc(bytes + 1)))
            return tl_tileop_fail(ctx, call, TL_ERR_NOMEM, "out of memory");
        memcpy(tmp, s.p, bytes);
        src = tmp;
    }
    for (int64_t i = 0; i < rows; i++)
        for (int64_t j = 0; j < cols; j++)
            memcpy(d.p + (j * rows + i) * sz, src + (i * cols + j) * sz, (size_t)sz);
    free(tmp);
    return TL_OK;
}

static tl_status_t reinterpret(tl_tileop_ctx_t *ctx, const tl_opcall_t *call)
{
    const tl_view_t *dv, *sv;
    tl_span_t d, s;
    tl_status_t st;
    if ((st = tl_tileop_view(ctx, call, 0, &dv)) != TL_OK ||
        (st = tl_tileop_view(ctx, call, 1, &sv)) != TL_OK ||
        (st = tl_tileop_span(ctx, call, dv, -1, &d)) != TL_OK ||
        (st = tl_tileop_span(ctx, call, sv, -1, &s)) != TL_OK)
        return st;
    int64_t db = d.n * tl_dtype_size(d.t), sb = s.n * tl_dtype_size(s.t);
    if (db < sb)
        return tl_tileop_fail(ctx, call, TL_ERR_RUNTIME,
                              "'%s' (%lld bytes) cannot hold the %lld bytes of '%s'", dv->name,
                              (long long)db, (long long)sb, sv->name);
    memmove(d.p, s.p, (size_t)sb);
    return TL_OK;
}

tl_status_t tl_tileop_misc_run(tl_tileop_ctx_t *ctx, const tl_opcall_t *call)
{
    switch (call->op->code) {
    case TL_OP_COMPARE: return compare(ctx, call);
    case TL_OP_SELECT: return select_op(ctx, call);
    case TL_OP_BROADCAST: return broadcast(ctx, call);
    case TL_OP_ROW_EXPAND_MUL:
    case TL_OP_ROW_EXPAND_SUB:
    case TL_OP_ROW_EXPAND_DIV: return row_expand(ctx, call);
    case TL_OP_GATHER: return gather(ctx, call);
    case TL_OP_CREATEVECINDEX:
    case TL_OP_ARITH_PROGRESSION: return progression(ctx, call);
    case TL_OP_TRANSPOSE: return transpose(ctx, call);
    default: return reinterpret(ctx, call);
    }
}
