// The ascendc *_experiment vector ops: T.tile.exp_experiment and
// T.tile.row_expand_{mul,sub,div}_experiment, as tilelang-ascend's codegen
// emits them (codegen_ascend.cc RowExpandBinOpExperimentCodegen; common.h
// mul_mask / sub_mask / div_mask, brcb): one vector instruction whose repeat
// covers 256 bytes (64 float32, 128 float16) with a full mask, repeat count
// the region's rows and repeat stride the buffer's row (its last dimension).
// So they work on a column slice of a tile, e.g. in_ub[:, 64:128]: the
// region's last extent must be those 256 bytes (else the repeats cover other
// elements than the region: an error), and its rows must be a multiple of 8
// for row_expand (upstream's codegen checks it).
//
// row_expand without tmp: src1 is in Brcb layout, one 32-byte block per row
// (brcb_experiment writes it): block stride 0 and repeat stride 1 block, so
// dst[r, j] = src0[r, j] op src1[r * epb + j % epb] (epb = 32 B / element),
// exactly, also when a block's lanes differ. With tmp: brcb(src1 -> tmp)
// first, then the same with tmp, i.e. op src1[r].
#include "exec/tileop_impl.h"

#include "base/fexp.h"

// A region as the instruction's repeats: rows of `width` elements from p,
// `stride` elements apart.
typedef struct {
    const tl_view_t *v;
    uint8_t *p;
    int64_t rows, width, stride;
} rows_t;

static tl_status_t repeat_rows(tl_tileop_ctx_t *ctx, const tl_opcall_t *call, int i, rows_t *out)
{
    const tl_view_t *v;
    tl_status_t st = tl_tileop_view(ctx, call, i, &v);
    if (st) return st;
    tl_dtype_t t = v->dtype;
    if (t != TL_F32 && t != TL_F16)
        return tl_tileop_fail(ctx, call, TL_ERR_UNSUPPORTED,
                              "works on float16 or float32, '%s' is %s", v->name, tl_dtype_name(t));
    int nd = v->ndim, size = tl_dtype_size(t);
    int64_t width = 256 / size, rows = 1;
    if (v->extent[nd - 1] != width)
        return tl_tileop_fail(ctx, call, TL_ERR_RUNTIME,
                              "works on 256-byte rows: the last extent of '%s' must be %lld "
                              "(%s), not %lld",
                              v->name, (long long)width, tl_dtype_name(t),
                              (long long)v->extent[nd - 1]);
    // the rows must be one stride apart: below the first leading dimension
    // with more than one row, every leading dimension is whole
    int d = 0;
    while (d < nd - 1 && v->extent[d] <= 1) d++;
    for (int e = d + 1; e < nd - 1; e++)
        if (v->extent[e] != v->shape[e])
            return tl_tileop_fail(ctx, call, TL_ERR_UNSUPPORTED,
                                  "the rows of '%s' are not evenly spaced (dimension %d is cut)",
                                  v->name, e);
    for (int e = 0; e < nd - 1; e++) rows *= v->extent[e];
    *out = (rows_t){v, v->data + tl_view_offset(v) * size, rows, width, v->shape[nd - 1]};
    return TL_OK;
}

static tl_status_t exp_rows(tl_tileop_ctx_t *ctx, const tl_opcall_t *call)
{
    rows_t d, a;
    tl_status_t st;
    if ((st = repeat_rows(ctx, call, 0, &d)) || (st = repeat_rows(ctx, call, 1, &a)) ||
        (st = tl_tileop_same_dtype(ctx, call, d.v, a.v)))
        return st;
    if (d.rows != a.rows)
        return tl_tileop_fail(ctx, call, TL_ERR_RUNTIME, "'%s' has %lld rows, '%s' %lld", d.v->name,
                              (long long)d.rows, a.v->name, (long long)a.rows);
    tl_dtype_t t = d.v->dtype;
    int size = tl_dtype_size(t);
    float x[128];
    for (int64_t r = 0; r < d.rows; r++) {
        tl_tileop_load_f32(t, a.p + r * a.stride * size, d.width, x);
        for (int64_t j = 0; j < d.width; j++) x[j] = tl_expf(x[j]);
        tl_tileop_store_f32(t, d.p + r * d.stride * size, d.width, x);
    }
    return TL_OK;
}

static tl_status_t row_expand(tl_tileop_ctx_t *ctx, const tl_opcall_t *call)
{
    rows_t d, a;
    const tl_view_t *bv;
    tl_span_t b, tmp;
    tl_status_t st;
    if ((st = repeat_rows(ctx, call, 0, &d)) || (st = repeat_rows(ctx, call, 1, &a)) ||
        (st = tl_tileop_view(ctx, call, 2, &bv)) ||
        (st = tl_tileop_same_dtype(ctx, call, d.v, a.v)) ||
        (st = tl_tileop_same_dtype(ctx, call, d.v, bv)) ||
        (st = tl_tileop_span(ctx, call, bv, -1, &b)))
        return st;
    if (d.rows != a.rows)
        return tl_tileop_fail(ctx, call, TL_ERR_RUNTIME, "'%s' has %lld rows, '%s' %lld", d.v->name,
                              (long long)d.rows, a.v->name, (long long)a.rows);
    if (d.rows % 8)
        return tl_tileop_fail(ctx, call, TL_ERR_RUNTIME,
                              "'%s' has %lld rows: upstream's codegen needs a multiple of 8",
                              d.v->name, (long long)d.rows);
    tl_dtype_t t = d.v->dtype;
    int size = tl_dtype_size(t);
    int64_t epb = 32 / size, need = d.rows * epb;
    bool has_tmp = call->nargs > 3 && call->args[3].is_view;
    if (has_tmp) {
        const tl_view_t *tv;
        if ((st = tl_tileop_view(ctx, call, 3, &tv)) ||
            (st = tl_tileop_same_dtype(ctx, call, d.v, tv)) ||
            (st = tl_tileop_span(ctx, call, tv, -1, &tmp)))
            return st;
        if (b.n < d.rows || tmp.n < need)
            return tl_tileop_fail(ctx, call, TL_ERR_RUNTIME,
                                  b.n < d.rows ? "'%s' has %lld elements, fewer than the %lld rows"
                                               : "'%s' has %lld elements: the Brcb of %lld rows "
                                                 "needs %lld",
                                  b.n < d.rows ? bv->name : tv->name,
                                  (long long)(b.n < d.rows ? b.n : tmp.n), (long long)d.rows,
                                  (long long)need);
        // brcb: block r of tmp holds src1[r] in every lane
        for (int64_t r = 0; r < d.rows; r++)
            for (int64_t x = 0; x < epb; x++)
                memmove(tmp.p + (r * epb + x) * size, b.p + r * size, (size_t)size);
        b = tmp;
    } else if (b.n < need) {
        return tl_tileop_fail(ctx, call, TL_ERR_RUNTIME,
                              "without a tmp, '%s' must be in Brcb layout (one 32-byte block "
                              "per row, as brcb_experiment writes it): %lld elements for %lld "
                              "rows, it has %lld",
                              bv->name, (long long)need, (long long)d.rows, (long long)b.n);
    }
    tl_opcode_t code = call->op->code;
    float x[128], blk[16];
    for (int64_t r = 0; r < d.rows; r++) {
        tl_tileop_load_f32(t, a.p + r * a.stride * size, d.width, x);
        tl_tileop_load_f32(t, b.p + r * epb * size, epb, blk);
        for (int64_t j = 0; j < d.width; j++) {
            float v = blk[j % epb];
            x[j] = code == TL_OP_ROW_EXPAND_MUL_X   ? x[j] * v
                   : code == TL_OP_ROW_EXPAND_SUB_X ? x[j] - v
                                                    : x[j] / v;
        }
        tl_tileop_store_f32(t, d.p + r * d.stride * size, d.width, x);
    }
    return TL_OK;
}

tl_status_t tl_tileop_rows_run(tl_tileop_ctx_t *ctx, const tl_opcall_t *call)
{
    return call->op->code == TL_OP_EXP_X ? exp_rows(ctx, call) : row_expand(ctx, call);
}
