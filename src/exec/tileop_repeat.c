// AscendC's repeat-form reductions, as upstream's T.tile.block_reduce_* and
// T.tile.wholereduce* call them (tilelang/language/ascend_tile.py;
// codegen_ascend.cc prints AscendC::BlockReduce{Sum,Max,Min}(dst, src,
// repeat, mask, dstRepStride, srcBlkStride, srcRepStride) and
// AscendC::WholeReduce{Sum,Max,Min}(dst, src, mask, repeat, dstRepStride,
// srcBlkStride, srcRepStride[, order])). Semantics from asc-devkit's
// ReduceDataBlock.md and ReduceRepeat.md (the same instructions):
// - a repeat r reads 8 blocks of 32 bytes, block b at src + (r * srcRepStride
//   + b * srcBlkStride) blocks; its lanes are the blocks' elements in order
//   (64 float32 / 128 float16) and `mask` (continuous mode) keeps the first
//   mask lanes;
// - block_reduce_*: each block's kept lanes reduce to one element, written
//   at dst[(r * dstRepStride) * 8 + b] (dstRepStride in units of a repeat's 8
//   results); a block with no kept lane writes nothing (A2/A3);
// - wholereduce*: the repeat's kept lanes reduce to one value; sum writes it
//   at dst[r * dstRepStride]; max/min write the value and its lane index
//   (the first lane holding it) as ReduceOrder says: [value, index],
//   [index, value] (units of two elements), [value] (one element) or [index]
//   (a uint32 per unit); the index is an unsigned integer of the element's
//   width, stored in its bits;
// - mask or repeat 0: nothing happens.
// Sums add as a binary tree over the kept lanes (pairs of neighbours, then
// pairs of those), each addition rounded to the dtype; ReduceRepeat.md does not
// give the order, so this is tilec's choice (exact for sums that are exact in
// the dtype).
//
// reduce_sum_experiment(dst, src, count) is AscendC's ReduceSum(dst, src, tmp,
// count) (upstream's codegen; ReduceSum.md, tensor-front form): vcadd in counter
// mode over src[0 .. count), repeats of 256 bytes, the last one partial; on
// A2/A3 ("mode one") each repeat's lanes add as the tree above and the repeats'
// sums add in order (each addition rounded to the dtype), the result in dst[0]
// only (asc-devkit's dav_c220 ReduceSumImpl stores the accumulator there); the
// tmp arena is not used; count 0 is a no-op.
// reduce_sum_mask_experiment(dst, src, mask, repeatTime, srcRepStride) is its
// high-dimension form (ReduceSum(dst, src, tmp, mask, repeatTime, srcRepStride),
// "mode two" on A2/A3, dav_c220's ReduceSumImpl): repeat r (its 8 blocks back to
// back from block r * srcRepStride) sums its first mask lanes as a tree; those
// repeatTime sums are summed as trees of 256 bytes each, and those (when more
// than one) as one more tree, into dst[0]. The library keeps the partial sums in
// tmp (tilec does not write it); repeatTime 0 is a no-op.
//
// Also two repeat-form instructions of the same family:
// - sort32(dst, src0, src1) (Sort32.md; upstream's repeat is src0's elements /
//   32): each group of 32 scores of src0, with the uint32 indices of src1,
//   sorted descending into (score, index) records of 8 bytes: float32 score in
//   the low 4 bytes, float16 in the low 2 (the next 2 reserved: left as they
//   are), the index in the high 4; equal scores keep their order;
// - gatherb(dst, src0, offset, repeat, dst_blk_stride, dst_rep_stride)
//   (Gatherb(ISASI).md pseudo-code): per repeat i, 8 blocks of 32 bytes, block
//   j copied from src0 at byte offset[8 i + j] (uint32, a multiple of 32 here)
//   to dst block i * dst_rep_stride + j * dst_blk_stride (a block stride of 0
//   is 1); upstream's template then has a PipeBarrier<PIPE_V>.
#include "exec/tileop_impl.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    bool block;           // block_reduce_* (else wholereduce*)
    int kind;             // 0 sum, 1 max, 2 min
    int64_t repeat, mask; // repeats; kept lanes of each
    int64_t dst_rep, src_blk, src_rep;
    int size, per; // element bytes, elements per 32-byte block
} params_t;

static void params_of(const tl_opcall_t *call, params_t *p)
{
    tl_opcode_t code = call->op->code;
    p->block = code <= TL_OP_BLOCK_REDUCE_MIN;
    p->kind = (int)(code - (p->block ? TL_OP_BLOCK_REDUCE_SUM : TL_OP_WHOLE_REDUCE_SUM));
    int64_t a2 = tl_tileop_scalar_int(&call->args[2].scalar);
    int64_t a3 = tl_tileop_scalar_int(&call->args[3].scalar);
    p->repeat = p->block ? a2 : a3;
    p->mask = p->block ? a3 : a2;
    p->dst_rep = tl_tileop_scalar_int(&call->args[4].scalar);
    p->src_blk = tl_tileop_scalar_int(&call->args[5].scalar);
    p->src_rep = tl_tileop_scalar_int(&call->args[6].scalar);
    p->size = tl_dtype_size(call->args[1].view.dtype);
    p->per = 32 / (p->size ? p->size : 1);
    if (p->mask <= 0 || p->repeat <= 0) p->repeat = 0;
}

// The source element (from the region origin) of lane j of repeat r.
static int64_t lane(const params_t *p, int64_t r, int64_t j)
{
    return (r * p->src_rep + j / p->per * p->src_blk) * p->per + j % p->per;
}

// Elements from the destination's origin a repeat writes: its first, and the
// count (units of the result).
static void dst_slot(const tl_op_t *op, const params_t *p, int64_t r, int64_t *first, int64_t *n)
{
    if (p->block) {
        *first = r * p->dst_rep * 8;
        *n = 8;
        return;
    }
    int unit = p->kind == 0 || op->order == TL_ORDER_ONLY_VALUE ? 1
               : op->order == TL_ORDER_ONLY_INDEX               ? 4 / p->size
                                                                : 2;
    *first = r * p->dst_rep * unit;
    *n = unit;
}

// sort32's repeats; gatherb's repeats and block strides.
static int64_t sort32_repeats(const tl_opcall_t *call)
{
    return tl_view_count(&call->args[1].view) / 32;
}

static void gatherb_params(const tl_opcall_t *call, int64_t *repeat, int64_t *blk, int64_t *rep)
{
    *repeat = tl_tileop_scalar_int(&call->args[3].scalar);
    *blk = tl_tileop_scalar_int(&call->args[4].scalar);
    *rep = tl_tileop_scalar_int(&call->args[5].scalar);
    if (*blk == 0) *blk = 1;
    if (*repeat < 0) *repeat = 0;
}

static int other_ranges(const tl_opcall_t *call, int i, bool write, int64_t first[1],
                        int64_t count[1])
{
    first[0] = 0;
    if (call->op->code == TL_OP_SORT32) {
        int64_t n = 32 * sort32_repeats(call);
        int size = tl_dtype_size(call->args[0].view.dtype);
        if (i == 0) return write && (count[0] = n * 8 / size) > 0;
        return !write && i < 3 && (count[0] = n) > 0;
    }
    int64_t repeat, blk, rep;
    gatherb_params(call, &repeat, &blk, &rep);
    if (repeat == 0 || (i == 0) != write) return 0;
    int size = tl_dtype_size(call->args[i].view.dtype);
    if (i == 0) return (count[0] = ((repeat - 1) * rep + 7 * blk + 1) * 32 / size) > 0;
    if (i == 2) return (count[0] = 8 * repeat) > 0;
    // src0: from the lowest to the end of the highest block the offsets name
    const tl_view_t *ov = &call->args[2].view;
    const uint8_t *o = ov->data + tl_view_offset(ov) * 4;
    int64_t lo = INT64_MAX, hi = 0;
    for (int64_t k = 0; k < 8 * repeat; k++) {
        uint32_t b;
        memcpy(&b, o + 4 * k, 4);
        lo = TL_MIN(lo, (int64_t)b);
        hi = TL_MAX(hi, (int64_t)b + 32);
    }
    first[0] = lo / size;
    return (count[0] = (hi - lo) / size) > 0;
}

int tl_tileop_repeat_ranges(const tl_opcall_t *call, int i, bool write, int64_t first[2],
                            int64_t count[2])
{
    if (call->op->code == TL_OP_SORT32 || call->op->code == TL_OP_GATHERB)
        return other_ranges(call, i, write, first, count);
    if (call->op->code == TL_OP_BILINEAR)
        return tl_tileop_bilinear_ranges(call, i, write, first, count);
    if (call->op->code == TL_OP_REDUCE_SUM_X || call->op->code == TL_OP_REDUCE_SUM_MASK_X) {
        // dst[0] from src[0 .. count), or from the masked repeats
        int64_t n = tl_tileop_scalar_int(&call->args[2].scalar);
        if (call->op->code == TL_OP_REDUCE_SUM_MASK_X) {
            int64_t r = tl_tileop_scalar_int(&call->args[3].scalar);
            int64_t rep = tl_tileop_scalar_int(&call->args[4].scalar);
            int per = 32 / tl_dtype_size(call->args[1].view.dtype);
            n = r > 0 && n > 0 ? (r - 1) * rep * per + n : 0;
        }
        first[0] = 0;
        if (n <= 0 || i > 1 || (i == 0) != write) return 0;
        count[0] = i == 0 ? 1 : n;
        return 1;
    }
    params_t p;
    params_of(call, &p);
    if (p.repeat == 0 || (i == 0) != write || i > 1) return 0;
    int64_t lo = INT64_MAX, hi = 0;
    for (int64_t r = 0; r < p.repeat; r++) {
        int64_t f, n;
        if (i == 0) {
            dst_slot(call->op, &p, r, &f, &n);
        } else {
            f = lane(&p, r, 0);
            n = lane(&p, r, p.mask - 1) + 1 - f;
        }
        lo = TL_MIN(lo, f);
        hi = TL_MAX(hi, f + n);
    }
    first[0] = lo;
    count[0] = hi - lo;
    return 1;
}

static float round_to(tl_dtype_t t, float x)
{
    uint8_t b[4];
    tl_tileop_store_f32(t, b, 1, &x);
    tl_tileop_load_f32(t, b, 1, &x);
    return x;
}

// The tree sum of v[0 .. n) (n > 0), each addition rounded to t.
static float tree_sum(tl_dtype_t t, float *v, int64_t n)
{
    while (n > 1) {
        int64_t h = n / 2;
        for (int64_t k = 0; k < h; k++) v[k] = round_to(t, v[2 * k] + v[2 * k + 1]);
        if (n % 2) v[h] = v[n - 1];
        n = h + n % 2;
    }
    return v[0];
}

// The kept lanes of one reduction (a block, or a whole repeat) reduced: the
// value and the index of the first lane holding a max / min.
static float reduce_lanes(const params_t *p, tl_dtype_t t, float *v, int64_t n, int64_t *at)
{
    *at = 0;
    if (p->kind == 0) return tree_sum(t, v, n);
    for (int64_t k = 1; k < n; k++)
        if (p->kind == 1 ? v[k] > v[*at] : v[k] < v[*at]) *at = k;
    return v[*at];
}

static void put_index(uint8_t *p, int size, int64_t index)
{
    if (size == 2) {
        uint16_t x = (uint16_t)index;
        memcpy(p, &x, 2);
    } else {
        uint32_t x = (uint32_t)index;
        memcpy(p, &x, 4);
    }
}

static tl_status_t sort32_run(tl_tileop_ctx_t *ctx, const tl_opcall_t *call)
{
    const tl_view_t *dv, *sv, *iv;
    tl_status_t st;
    if ((st = tl_tileop_view(ctx, call, 0, &dv)) || (st = tl_tileop_view(ctx, call, 1, &sv)) ||
        (st = tl_tileop_view(ctx, call, 2, &iv)) || (st = tl_tileop_same_dtype(ctx, call, dv, sv)))
        return st;
    if ((sv->dtype != TL_F32 && sv->dtype != TL_F16) || iv->dtype != TL_U32)
        return tl_tileop_fail(ctx, call, TL_ERR_UNSUPPORTED,
                              "sorts float16 or float32 scores with uint32 indices, got %s and %s",
                              tl_dtype_name(sv->dtype), tl_dtype_name(iv->dtype));
    int64_t repeat = sort32_repeats(call), first[1], count[1];
    if (repeat > 255)
        return tl_tileop_fail(ctx, call, TL_ERR_RUNTIME,
                              "sorts %lld groups of 32; the instruction's repeat is at most 255",
                              (long long)repeat);
    tl_span_t d, s, x;
    if (!other_ranges(call, 0, true, first, count)) return TL_OK;
    if ((st = tl_tileop_span(ctx, call, dv, count[0], &d)) ||
        (st = tl_tileop_span(ctx, call, sv, 32 * repeat, &s)) ||
        (st = tl_tileop_span(ctx, call, iv, 32 * repeat, &x)))
        return st;
    int size = tl_dtype_size(sv->dtype);
    for (int64_t r = 0; r < repeat; r++) {
        float v[32];
        int order[32];
        tl_tileop_load_f32(sv->dtype, s.p + 32 * r * size, 32, v);
        for (int k = 0; k < 32; k++) { // insertion sort: stable, descending
            int j = k;
            while (j > 0 && v[order[j - 1]] < v[k]) order[j] = order[j - 1], j--;
            order[j] = k;
        }
        for (int k = 0; k < 32; k++) {
            uint8_t *rec = d.p + (32 * r + k) * 8;
            memcpy(rec, s.p + (32 * r + order[k]) * size, (size_t)size);
            memcpy(rec + 4, x.p + (32 * r + order[k]) * 4, 4);
        }
    }
    return TL_OK;
}

tl_status_t tl_tileop_block_offsets(tl_tileop_ctx_t *ctx, const tl_opcall_t *call,
                                    const uint8_t *offsets, int64_t n, const tl_view_t *ov,
                                    const tl_view_t *sv, int64_t total)
{
    for (int64_t k = 0; k < n; k++) {
        uint32_t b;
        memcpy(&b, offsets + 4 * k, 4);
        if (b % 32 || (int64_t)b + 32 > total)
            return tl_tileop_fail(ctx, call, TL_ERR_RUNTIME,
                                  "offset %u (element %lld of '%s') is not a 32-byte block of '%s' "
                                  "(%lld bytes from its start)",
                                  b, (long long)k, ov->name, sv->name, (long long)total);
    }
    return TL_OK;
}

static tl_status_t gatherb_run(tl_tileop_ctx_t *ctx, const tl_opcall_t *call)
{
    const tl_view_t *dv, *sv, *ov;
    tl_status_t st;
    if ((st = tl_tileop_view(ctx, call, 0, &dv)) || (st = tl_tileop_view(ctx, call, 1, &sv)) ||
        (st = tl_tileop_view(ctx, call, 2, &ov)))
        return st;
    if (ov->dtype != TL_U32 && ov->dtype != TL_I32)
        return tl_tileop_fail(ctx, call, TL_ERR_UNSUPPORTED, "takes uint32 byte offsets, got %s",
                              tl_dtype_name(ov->dtype));
    for (int i = 3; i < 6; i++) {
        tl_scalar_t sc;
        if ((st = tl_tileop_scalar(ctx, call, i, &sc))) return st;
        if (sc.is_float || sc.i < 0 || sc.i > 255)
            return tl_tileop_fail(ctx, call, TL_ERR_RUNTIME, "%s must be an integer in 0..255",
                                  i == 3   ? "repeat_time"
                                  : i == 4 ? "dst_blk_stride"
                                           : "dst_rep_stride");
    }
    int64_t repeat, blk, rep, first[1], count[1];
    gatherb_params(call, &repeat, &blk, &rep);
    if (repeat == 0) return TL_OK;
    tl_span_t o, d, s;
    if ((st = tl_tileop_span(ctx, call, ov, 8 * repeat, &o))) return st;
    other_ranges(call, 0, true, first, count);
    if ((st = tl_tileop_span(ctx, call, dv, count[0], &d))) return st;
    int64_t total = 1; // src0's bytes from its origin to the end of its buffer
    for (int k = 0; k < sv->ndim; k++) total *= sv->shape[k];
    total = (total - tl_view_offset(sv)) * tl_dtype_size(sv->dtype);
    if ((st = tl_tileop_span(ctx, call, sv, 0, &s)) ||
        (st = tl_tileop_block_offsets(ctx, call, o.p, 8 * repeat, ov, sv, total)))
        return st;
    for (int64_t k = 0; k < 8 * repeat; k++) {
        uint32_t b;
        memcpy(&b, o.p + 4 * k, 4);
        memmove(d.p + ((k / 8) * rep + (k % 8) * blk) * 32, s.p + b, 32);
    }
    return TL_OK;
}

// reduce_sum_experiment: the repeats' tree sums of src[0 .. count) added in order.
static tl_status_t reduce_sum_count_run(tl_tileop_ctx_t *ctx, const tl_opcall_t *call,
                                        const tl_view_t *dv, const tl_view_t *sv)
{
    tl_scalar_t sc;
    tl_status_t st;
    if ((st = tl_tileop_scalar(ctx, call, 2, &sc))) return st;
    if (sc.is_float || sc.i < 0 || sc.i > INT32_MAX)
        return tl_tileop_fail(ctx, call, TL_ERR_RUNTIME, "count must be an integer in 0..%d", INT32_MAX);
    if (sc.i == 0) return TL_OK;
    tl_span_t src, dst;
    if ((st = tl_tileop_span(ctx, call, sv, sc.i, &src)) || (st = tl_tileop_span(ctx, call, dv, 1, &dst)))
        return st;
    int size = tl_dtype_size(sv->dtype), lanes = 256 / size;
    float v[128], acc = 0;
    for (int64_t at = 0; at < sc.i; at += lanes) {
        int64_t n = TL_MIN(lanes, sc.i - at);
        tl_tileop_load_f32(sv->dtype, src.p + at * size, n, v);
        float x = tree_sum(sv->dtype, v, n);
        acc = at ? round_to(sv->dtype, acc + x) : x;
    }
    tl_tileop_store_f32(dv->dtype, dst.p, 1, &acc);
    return TL_OK;
}

// reduce_sum_mask_experiment: tree sums of the repeats, of 256-byte groups of
// those, then of those groups' sums.
static tl_status_t reduce_sum_mask_run(tl_tileop_ctx_t *ctx, const tl_opcall_t *call,
                                       const tl_view_t *dv, const tl_view_t *sv)
{
    int size = tl_dtype_size(sv->dtype), lanes = 256 / size, per = 32 / size;
    static const char *names[] = {"mask", "repeatTime", "srcRepStride"};
    const int64_t max[] = {lanes, INT32_MAX, 65535};
    int64_t arg[3];
    tl_status_t st;
    for (int i = 0; i < 3; i++) {
        tl_scalar_t sc;
        if ((st = tl_tileop_scalar(ctx, call, 2 + i, &sc))) return st;
        if (sc.is_float || sc.i < (i == 0) || sc.i > max[i])
            return tl_tileop_fail(ctx, call, TL_ERR_RUNTIME, "%s must be an integer in %d..%lld",
                                  names[i], i == 0, (long long)max[i]);
        arg[i] = sc.i;
    }
    int64_t first[2], count[2];
    if (!tl_tileop_repeat_ranges(call, 1, false, first, count)) return TL_OK; // repeatTime 0
    tl_span_t src, dst;
    if ((st = tl_tileop_span(ctx, call, sv, count[0], &src)) ||
        (st = tl_tileop_span(ctx, call, dv, 1, &dst)))
        return st;
    float *sums = malloc((size_t)arg[1] * sizeof *sums), v[128];
    if (!sums) return tl_tileop_fail(ctx, call, TL_ERR_NOMEM, "out of memory");
    for (int64_t r = 0; r < arg[1]; r++) {
        tl_tileop_load_f32(sv->dtype, src.p + r * arg[2] * per * size, arg[0], v);
        sums[r] = tree_sum(sv->dtype, v, arg[0]);
    }
    int64_t n = 0;
    for (int64_t at = 0; at < arg[1]; at += lanes, n++)
        sums[n] = tree_sum(sv->dtype, sums + at, TL_MIN(lanes, arg[1] - at));
    float x = tree_sum(sv->dtype, sums, n);
    tl_tileop_store_f32(dv->dtype, dst.p, 1, &x);
    free(sums);
    return TL_OK;
}

tl_status_t tl_tileop_repeat_run(tl_tileop_ctx_t *ctx, const tl_opcall_t *call)
{
    if (call->op->code == TL_OP_SORT32) return sort32_run(ctx, call);
    if (call->op->code == TL_OP_GATHERB) return gatherb_run(ctx, call);
    const tl_view_t *dv, *sv;
    tl_status_t st;
    if ((st = tl_tileop_view(ctx, call, 0, &dv)) || (st = tl_tileop_view(ctx, call, 1, &sv)) ||
        (st = tl_tileop_same_dtype(ctx, call, dv, sv)))
        return st;
    if (sv->dtype != TL_F32 && sv->dtype != TL_F16)
        return tl_tileop_fail(ctx, call, TL_ERR_UNSUPPORTED,
                              "takes float16 or float32 (A2/A3), got %s", tl_dtype_name(sv->dtype));
    if (call->op->code == TL_OP_REDUCE_SUM_X) return reduce_sum_count_run(ctx, call, dv, sv);
    if (call->op->code == TL_OP_REDUCE_SUM_MASK_X) return reduce_sum_mask_run(ctx, call, dv, sv);
    static const char *names[] = {
        "", "", "mask", "repeat", "dstRepStride", "srcBlkStride", "srcRepStride"};
    bool block = call->op->code <= TL_OP_BLOCK_REDUCE_MIN;
    for (int i = 2; i < 7; i++) {
        tl_scalar_t sc;
        if ((st = tl_tileop_scalar(ctx, call, i, &sc))) return st;
        const char *name = i < 4 && block ? names[5 - i] : names[i];
        int64_t max = !strcmp(name, "repeat") ? 255 : 65535;
        if (sc.is_float || sc.i < 0 || sc.i > max)
            return tl_tileop_fail(ctx, call, TL_ERR_RUNTIME, "%s must be an integer in 0..%lld",
                                  name, (long long)max);
    }
    params_t p;
    params_of(call, &p);
    if (p.mask > 8 * p.per)
        return tl_tileop_fail(ctx, call, TL_ERR_RUNTIME,
                              "mask %lld is more than a repeat's %d %s lanes", (long long)p.mask,
                              8 * p.per, tl_dtype_name(sv->dtype));
    int64_t first[2], count[2];
    tl_span_t src = {0}, dst = {0};
    if (tl_tileop_repeat_ranges(call, 1, false, first, count) &&
        (st = tl_tileop_span(ctx, call, sv, first[0] + count[0], &src)))
        return st;
    if (tl_tileop_repeat_ranges(call, 0, true, first, count) &&
        (st = tl_tileop_span(ctx, call, dv, first[0] + count[0], &dst)))
        return st;
    float v[128];
    for (int64_t r = 0; r < p.repeat; r++) {
        int64_t f, n, at;
        dst_slot(call->op, &p, r, &f, &n);
        uint8_t *out = dst.p + f * p.size;
        if (p.block) {
            for (int b = 0; b < 8; b++) {
                int64_t kept = TL_MAX(0, TL_MIN(p.per, p.mask - (int64_t)b * p.per));
                if (kept == 0) continue;
                for (int64_t e = 0; e < kept; e++)
                    tl_tileop_load_f32(sv->dtype, src.p + lane(&p, r, b * p.per + e) * p.size, 1,
                                       &v[e]);
                float x = reduce_lanes(&p, sv->dtype, v, kept, &at);
                tl_tileop_store_f32(dv->dtype, out + b * p.size, 1, &x);
            }
            continue;
        }
        for (int64_t j = 0; j < p.mask; j++)
            tl_tileop_load_f32(sv->dtype, src.p + lane(&p, r, j) * p.size, 1, &v[j]);
        float x = reduce_lanes(&p, sv->dtype, v, p.mask, &at);
        tl_reduce_order_t o = p.kind == 0 ? TL_ORDER_ONLY_VALUE : call->op->order;
        if (o == TL_ORDER_ONLY_INDEX) {
            put_index(out, 4, at);
            continue;
        }
        int vi = o == TL_ORDER_INDEX_VALUE ? 1 : 0;
        tl_tileop_store_f32(dv->dtype, out + vi * p.size, 1, &x);
        if (o != TL_ORDER_ONLY_VALUE) put_index(out + (1 - vi) * p.size, p.size, at);
    }
    return TL_OK;
}
