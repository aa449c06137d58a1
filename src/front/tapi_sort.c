// Trace-time checks of the sorting ops (T.tile.sort, topk, merge_sort,
// gather_mask, init_sort_buf), brcb_experiment and reduce_sum_experiment: the
// dtypes the Ascend instructions take and, when the sizes are constants, the
// element counts they read and write, so that a kernel that would overrun a
// buffer on the device fails to compile. The semantics are in
// exec/tileop_sort.c (reduce_sum_experiment: exec/tileop_repeat.c).
#include "front/front.h"

#include <inttypes.h>

// Element count of a region when its extents are constants, else -1.
static int64_t count_of(const tl_region_t *r)
{
    int64_t n = 1, e;
    for (int d = 0; d < r->ndim; d++) {
        if (!tl_ir_is_const_int(r->extent[d], &e)) return -1;
        n *= e;
    }
    return n;
}

static bool konst(const tl_arg_t *a, int64_t *v)
{
    return a->kind == TL_ARG_SCALAR && tl_ir_is_const_int(a->scalar, v);
}

static const char *dt(const tl_region_t *r)
{
    return tl_dtype_name(r->buf->dtype);
}

// Operands 0 and 1 of one 16- or 32-bit dtype (gather_mask, brcb_experiment).
static bool b16_b32(tl_eval_t *ev, const tl_op_t *op, tl_loc_t loc)
{
    const tl_region_t *dst = &op->args[0].region, *src = &op->args[1].region;
    int size = tl_dtype_size(dst->buf->dtype);
    if (src->buf->dtype == dst->buf->dtype && (size == 2 || size == 4)) return true;
    tl_eval_fail(ev, loc, "T.tile.%s takes 16- or 32-bit elements of one dtype, got %s from %s",
                 tl_op_info(op->code)->name, dt(dst), dt(src));
    return false;
}

bool tl_front_check_sort_op(tl_eval_t *ev, const tl_op_t *op, tl_loc_t loc)
{
    const char *name = tl_op_info(op->code)->name;
    const tl_region_t *dst = &op->args[0].region;
    const tl_region_t *src =
        op->nargs > 1 && op->args[1].kind == TL_ARG_REGION ? &op->args[1].region : NULL;
    tl_dtype_t t = dst->buf->dtype;
    int64_t dn = count_of(dst), sn = src ? count_of(src) : -1, v;
    switch (op->code) {
    case TL_OP_SORT:
    case TL_OP_TOPK: {
        if ((t != TL_F32 && t != TL_F16) || src->buf->dtype != t) {
            tl_eval_fail(
                ev, loc,
                "T.tile.%s sorts float32 or float16 with a destination of the same dtype, got %s "
                "from %s",
                name, dt(dst), dt(src));
            return false;
        }
        // topk sorts the source's whole (32-aligned) size, sort its actual_num elements.
        int64_t n = op->code == TL_OP_TOPK ? sn : (konst(&op->args[2], &v) ? v : -1);
        if (n < 0) return true;
        int64_t aligned = (n + 31) / 32 * 32;
        if (sn >= 0 && aligned > sn) {
            tl_eval_fail(ev, loc,
                         "T.tile.%s sorts whole blocks of 32: %" PRId64
                         " elements of '%s', which has %" PRId64,
                         name, aligned, src->buf->name, sn);
            return false;
        }
        int64_t k, written = 2 * aligned;
        if (op->code == TL_OP_TOPK) {
            if (!konst(&op->args[2], &k)) return true;
            int per_block = 32 / tl_dtype_size(t);
            written = (2 * k + per_block - 1) / per_block * per_block;
            if (k < 0 || written > 2 * aligned) {
                tl_eval_fail(ev, loc,
                             "T.tile.topk K=%" PRId64 " is outside 0..%" PRId64
                             " (the sorted size of '%s')",
                             k, aligned, src->buf->name);
                return false;
            }
        }
        // topk's last 32-byte block may end in the padding of a whole buffer's
        // 32-byte allocation (nothing lives there: the library stores what fits)
        int64_t bn = tl_buffer_numel(dst->buf), per = 32 / tl_dtype_size(t);
        bool padding = op->code == TL_OP_TOPK && dn == bn && written <= (bn + per - 1) / per * per;
        if (dn >= 0 && written > dn && !padding) {
            tl_eval_fail(ev, loc,
                         "T.tile.%s writes %" PRId64
                         " elements of (value, index) pairs%s into '%s', which has "
                         "%" PRId64,
                         name, written,
                         op->code == TL_OP_TOPK ? " (2*K rounded up to 32 bytes)" : "",
                         dst->buf->name, dn);
            return false;
        }
        return true;
    }
    case TL_OP_MERGE_SORT: {
        int64_t total = 0;
        for (int i = 0; i < op->nargs; i++) {
            const tl_region_t *r = &op->args[i].region;
            if (r->buf->dtype != TL_F32) {
                tl_eval_fail(
                    ev, loc,
                    "T.tile.merge_sort merges lists of float32 (value, index) pairs; '%s' is %s",
                    r->buf->name, dt(r));
                return false;
            }
            int64_t n = count_of(r);
            if (i == 0 || n < 0) continue;
            if (n / 2 > 4095) {
                tl_eval_fail(ev, loc,
                             "T.tile.merge_sort: '%s' holds %" PRId64
                             " pairs; a list has at most 4095",
                             r->buf->name, n / 2);
                return false;
            }
            total += n / 2 * 2;
        }
        if (dn >= 0 && total > dn) {
            tl_eval_fail(ev, loc,
                         "T.tile.merge_sort writes %" PRId64
                         " elements into '%s', which has %" PRId64,
                         total, dst->buf->name, dn);
            return false;
        }
        return true;
    }
    case TL_OP_GATHER_MASK: {
        if (!b16_b32(ev, op, loc)) return false;
        if (op->nargs > 2 && op->args[2].region.buf->dtype != TL_U32) {
            tl_eval_fail(ev, loc, "T.tile.gather_mask's pattern buffer '%s' must be uint32, not %s",
                         op->args[2].region.buf->name, dt(&op->args[2].region));
            return false;
        }
        if (op->nargs == 2 && !op->pattern) {
            tl_eval_fail(
                ev, loc,
                "T.tile.gather_mask needs a pattern (\"P1010\" ...) or a uint32 pattern buffer");
            return false;
        }
        return true;
    }
    case TL_OP_BRCB: {
        if (!b16_b32(ev, op, loc)) return false;
        int size = tl_dtype_size(t);
        int64_t repeat, blk, rep;
        if (!konst(&op->args[2], &repeat) || !konst(&op->args[3], &blk) ||
            !konst(&op->args[4], &rep))
            return true;
        if (repeat < 0 || repeat > 255 || blk < 0 || rep < 0) {
            tl_eval_fail(
                ev, loc,
                "T.tile.brcb_experiment: repeat_times must be in 0..255 and the strides >= 0");
            return false;
        }
        if (sn >= 0 && 8 * repeat > sn) {
            tl_eval_fail(ev, loc,
                         "T.tile.brcb_experiment reads %" PRId64
                         " elements (8 per repeat) of '%s', which has %" PRId64,
                         8 * repeat, src->buf->name, sn);
            return false;
        }
        int64_t span = repeat ? ((repeat - 1) * rep + 7 * (blk ? blk : 1) + 1) * (32 / size) : 0;
        if (dn >= 0 && span > dn) {
            tl_eval_fail(ev, loc,
                         "T.tile.brcb_experiment writes 32-byte blocks over %" PRId64
                         " elements of '%s', which has %" PRId64,
                         span, dst->buf->name, dn);
            return false;
        }
        return true;
    }
    case TL_OP_REDUCE_SUM_X: // AscendC::ReduceSum of count elements into dst[0]
    case TL_OP_REDUCE_SUM_MASK_X:
        if ((t != TL_F32 && t != TL_F16) || src->buf->dtype != t) {
            tl_eval_fail(ev, loc,
                         "T.tile.%s sums float16 or float32 into a destination of the same dtype "
                         "(AscendC::ReduceSum on A2/A3), got %s from %s",
                         name, dt(dst), dt(src));
            return false;
        }
        if (op->code == TL_OP_REDUCE_SUM_MASK_X) return true;
        if (konst(&op->args[2], &v) && (v < 0 || (sn >= 0 && v > sn))) {
            tl_eval_fail(ev, loc,
                         "T.tile.reduce_sum_experiment count %" PRId64 " is outside 0..%" PRId64
                         " (the elements of '%s')",
                         v, sn, src->buf->name);
            return false;
        }
        return true;
    case TL_OP_BILINEAR: { // AscendC::BilinearInterpolation: float16 only
        const tl_region_t *off = &op->args[2].region, *w = &op->args[3].region;
        if (t != TL_F16 || src->buf->dtype != t || w->buf->dtype != t ||
            off->buf->dtype != TL_U32) {
            tl_eval_fail(
                ev, loc,
                "T.tile.bilinear_interpolation takes float16 dst, src0 and src1 and a uint32 "
                "src0_offset (AscendC's one dtype), got %s, %s, %s and %s",
                dt(dst), dt(src), dt(w), dt(off));
            return false;
        }
        return true;
    }
    case TL_OP_INIT_SORT_BUF:
        if (tl_dtype_size(t) != 4) {
            tl_eval_fail(ev, loc, "T.tile.init_sort_buf fills 32-bit elements; '%s' is %s",
                         dst->buf->name, dt(dst));
            return false;
        }
        if (konst(&op->args[1], &v) && dn >= 0 && v / 64 * 64 > dn) {
            tl_eval_fail(ev, loc,
                         "T.tile.init_sort_buf initialises %" PRId64
                         " elements of '%s', which has %" PRId64,
                         v / 64 * 64, dst->buf->name, dn);
            return false;
        }
        return true;
    default: return true;
    }
}
