// T.tile.sort, merge_sort, gather_mask and arith_progression as scalar loops
// of tilec_pto.h over the UB bytes (tilec_sort, tilec_merge_sort,
// tilec_gather_mask, tilec_arith_progression): the results of
// exec/tileop_sort.c and exec/tileop_misc.c exactly (NaN scores aside), on the
// CPU check and on the NPU, where the loops run on the scalar unit between two
// pipe_barrier(PIPE_ALL). Not yet PTO's TSORT32 / TMRGSORT / TGATHER / TCI:
// pto-isa's CPU TSORT32 orders ties unlike the NPU (emit_repeat.c), so the
// instruction forms would need the same care to be checked here.
#include <inttypes.h>

#include "pto/pto_int.h"

// A UB operand that is one contiguous span (its element pointer into *ptr).
static bool span(pto_emit_t *e, const tl_stmt_t *s, int i, pto_view_t *v, const char **ptr,
                 const char *ct)
{
    if (!pto_ub_view(e, s, i, v)) return false;
    if (!pto_view_contiguous(v)) {
        pto_unsupported(e, s->loc, "%s on a strided region of '%s'",
                        tl_op_info(s->op.code)->spelling, v->buf->name);
        return false;
    }
    *ptr = pto_fmt(e, "TILEC_UB(%s, %s)", ct, v->addr);
    return true;
}

static const char *uint_of(int size)
{
    return size == 2 ? "uint16_t" : "uint32_t";
}

// The scalar loop between barriers of every pipe (the NPU's scalar unit
// reads and writes UB that the pipes use).
static void scalar_call(pto_emit_t *e, const char *call)
{
    pto_line(e, "pipe_barrier(PIPE_ALL);");
    pto_line(e, "%s;", call);
    pto_line(e, "pipe_barrier(PIPE_ALL);");
}

// sort(dst, src, actual_num): float32 or float16 pairs, src padded with -inf
static void sort_op(pto_emit_t *e, const tl_stmt_t *s)
{
    pto_view_t d, a;
    const char *dp, *ap;
    tl_dtype_t t = s->op.args[0].region.buf->dtype;
    if (t != TL_F32 && t != TL_F16) {
        pto_unsupported(e, s->loc, "T.tile.sort of %s", tl_dtype_name(t));
        return;
    }
    const char *ct = pto_ctype(t);
    if (!span(e, s, 0, &d, &dp, ct) || !span(e, s, 1, &a, &ap, ct)) return;
    if (d.buf == a.buf || a.buf->dtype != t) {
        pto_unsupported(e, s->loc, "T.tile.sort within one buffer or between dtypes");
        return;
    }
    scalar_call(e, pto_fmt(e, "tilec_sort(%s, %s, %s)", dp, ap, pto_typed_scalar(e, s, 2, TL_I64)));
}

// merge_sort(dst, src0, src1[, src2[, src3]]): float32 pair lists, count / 2 pairs each
static void merge_sort_op(pto_emit_t *e, const tl_stmt_t *s)
{
    const char *p[5], *n[5] = {"0", "0", "0", "0", "0"};
    pto_view_t v[5];
    for (int i = 0; i < s->op.nargs; i++) {
        if (!span(e, s, i, &v[i], &p[i], "uint32_t")) return;
        if (v[i].buf->dtype != TL_F32 || (i > 0 && v[i].buf == v[0].buf)) {
            pto_unsupported(e, s->loc, "T.tile.merge_sort of %s or into one of its lists",
                            tl_dtype_name(v[i].buf->dtype));
            return;
        }
        n[i] = pto_fmt(e, "%" PRId64, v[i].rows * v[i].cols / 2);
    }
    for (int i = s->op.nargs; i < 5; i++) p[i] = p[0];
    scalar_call(e, pto_fmt(e, "tilec_merge_sort(%s, %s, %s, %s, %s, %s, %s, %s, %s)", p[0], p[1],
                           n[1], p[2], n[2], p[3], n[3], p[4], n[4]));
}

// gather_mask(dst, src, fixed pattern): whole 256-byte repeats of src
static void gather_mask_op(pto_emit_t *e, const tl_stmt_t *s)
{
    pto_view_t d, a;
    const char *dp, *ap;
    int size = tl_dtype_size(s->op.args[0].region.buf->dtype);
    const char *ct = uint_of(size);
    if (!span(e, s, 0, &d, &dp, ct) || !span(e, s, 1, &a, &ap, ct)) return;
    if (!s->op.pattern || d.buf == a.buf || (size != 2 && size != 4) ||
        tl_dtype_size(a.buf->dtype) != size) {
        pto_unsupported(e, s->loc,
                        "T.tile.gather_mask with a pattern buffer, within one buffer or of other "
                        "than one 16- or 32-bit dtype");
        return;
    }
    int64_t per = 256 / size, span_n = (a.rows * a.cols * size + 255) / 256 * per;
    scalar_call(e, pto_fmt(e, "tilec_gather_mask(%s, %s, %" PRId64 ", %" PRId64 ", %d)", dp, ap,
                           span_n, per, s->op.pattern));
}

// arith_progression(dst, first, diff, count): first + i * diff (floats: in
// double, rounded once; integers wrap)
static void arith_progression_op(pto_emit_t *e, const tl_stmt_t *s)
{
    pto_view_t d;
    const char *dp;
    tl_dtype_t t = s->op.args[0].region.buf->dtype;
    const char *ct = pto_ctype(t);
    if (!ct || !span(e, s, 0, &d, &dp, ct)) {
        if (!ct) pto_unsupported(e, s->loc, "T.tile.arith_progression of %s", tl_dtype_name(t));
        return;
    }
    tl_dtype_t w = tl_dtype_is_float(t) ? TL_F64 : TL_I64;
    const char *count = s->op.nargs > 3 ? pto_typed_scalar(e, s, 3, TL_I64)
                                        : pto_fmt(e, "%" PRId64, d.rows * d.cols);
    scalar_call(e, pto_fmt(e, "tilec_arith_progression(%s, %s, %s, %s)", dp,
                           pto_typed_scalar(e, s, 1, w), pto_typed_scalar(e, s, 2, w), count));
}

bool pto_emit_sort(pto_emit_t *e, const tl_stmt_t *s)
{
    switch (s->op.code) {
    case TL_OP_SORT: sort_op(e, s); return true;
    case TL_OP_MERGE_SORT: merge_sort_op(e, s); return true;
    case TL_OP_GATHER_MASK: gather_mask_op(e, s); return true;
    case TL_OP_ARITH_PROGRESSION: arith_progression_op(e, s); return true;
    default: return false;
    }
}
