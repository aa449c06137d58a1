// T.cumsum(src, dst, dim, reverse) as PTO-ISA instructions. PTO-ISA has no scan
// instruction; the reference (exec/tileop_reduce.c) adds each element to the
// running sum before it, in float32 for floats (each result rounded to the
// dtype), wrapping for integers. The same chain of additions, one vector TADD
// per step over all the lines at once:
// - the sums go through a scratch W past the planned UB whose rows are the
//   steps and whose columns the lines: for dim 0 (down each column) W is the
//   source's [rows, cols] itself, for dim -1 (along each row, and 1-D) its
//   transpose [cols, rows] (TTRANS); 16-bit floats are widened to float32
//   (TCVT, exact) on the way in;
// - step k: W[k] = W[k] + W[k - 1] (TADD of two one-row tiles), k from 1
//   (reverse: from the last row down), a pipe_barrier between steps;
// - W back into dst: TMOV / TCVT (round to nearest even, as the reference's
//   store) and, for dim -1, TTRANS back.
// The result is bit-exact with the reference. dst may be src (all of src is
// in W before dst is written). Operands: UB regions of 32-byte rows (one row
// of any length); float32, float16, bfloat16, int32, int16.
#include <inttypes.h>

#include "pto/pto_int.h"

static int64_t pad_to(int64_t n, int64_t per)
{
    return (n + per - 1) / per * per;
}

// A scratch view of rows x cols (row pitch ld elements) of b's dtype at byte address at.
static pto_view_t scratch_view(pto_emit_t *e, const tl_buffer_t *b, int64_t rows, int64_t cols,
                               int64_t ld, int64_t at)
{
    pto_view_t v = {
        .buf = b, .addr = pto_fmt(e, "%" PRId64, at), .rows = rows, .cols = cols, .ld = ld};
    return v;
}

// Operand i of the cumsum as a view of 32-byte rows (one row: any length).
static bool scan_view(pto_emit_t *e, const tl_stmt_t *s, int i, pto_view_t *v)
{
    if (!pto_ub_view(e, s, i, v)) return false;
    if (v->rows > 1 && v->ld * tl_dtype_size(v->buf->dtype) % 32) {
        pto_unsupported(e, s->loc, "T.cumsum on rows of '%s' of %" PRId64 " bytes (32-byte rows)",
                        v->buf->name, v->ld * tl_dtype_size(v->buf->dtype));
        return false;
    }
    if (v->rows == 1) v->ld = pad_to(v->cols, 32 / tl_dtype_size(v->buf->dtype));
    return true;
}

// TTRANS of a into d with a scratch tile of a's shape at tmp.
static void trans(pto_emit_t *e, const pto_view_t *d, const pto_view_t *a, int64_t tmp)
{
    pto_view_t t = *a;
    t.addr = pto_fmt(e, "%" PRId64, tmp);
    pto_line(e, "{");
    e->indent++;
    pto_vec_tile(e, "tl_d", d, false);
    pto_vec_tile(e, "tl_a", a, false);
    pto_vec_tile(e, "tl_tmp", &t, false);
    pto_line(e, "pto::TTRANS(tl_d, tl_a, tl_tmp);");
    e->indent--;
    pto_line(e, "}");
    pto_line(e, "pipe_barrier(PIPE_V);");
}

// d = a (TMOV), or a converted (TCVT, round to nearest even).
static void move(pto_emit_t *e, const pto_view_t *d, const pto_view_t *a)
{
    pto_line(e, "{");
    e->indent++;
    pto_vec_tile(e, "tl_d", d, false);
    pto_vec_tile(e, "tl_a", a, false);
    if (d->buf->dtype == a->buf->dtype)
        pto_line(e, "pto::TMOV(tl_d, tl_a);");
    else
        pto_line(e, "pto::TCVT(tl_d, tl_a, pto::RoundMode::CAST_RINT);");
    e->indent--;
    pto_line(e, "}");
    pto_line(e, "pipe_barrier(PIPE_V);");
}

static void cumsum(pto_emit_t *e, const tl_stmt_t *s)
{
    pto_view_t a, d;
    if (!scan_view(e, s, 0, &a) || !scan_view(e, s, 1, &d)) return;
    tl_dtype_t t = a.buf->dtype;
    bool half = t == TL_F16 || t == TL_BF16;
    if ((t != TL_F32 && !half && t != TL_I32 && t != TL_I16) || d.buf->dtype != t ||
        d.rows != a.rows || d.cols != a.cols) {
        pto_unsupported(
            e, s->loc,
            "T.cumsum of %s [%" PRId64 ", %" PRId64 "] into %s [%" PRId64 ", %" PRId64 "]",
            tl_dtype_name(t), a.rows, a.cols, tl_dtype_name(d.buf->dtype), d.rows, d.cols);
        return;
    }
    if (a.rows * a.cols == 0) return;
    bool along_rows = s->op.dim != 0 || s->op.args[0].region.ndim == 1;
    tl_dtype_t wt = half ? TL_F32 : t; // the sums' dtype
    int size = tl_dtype_size(t), wsize = tl_dtype_size(wt);
    int64_t steps = along_rows ? a.cols : a.rows, lines = along_rows ? a.rows : a.cols;
    int64_t pitch = pad_to(lines, 16); // a multiple of 32 bytes in both dtypes
    int64_t wbytes = steps * pitch * wsize, tbytes = steps * pitch * size;
    int64_t abytes = pad_to(a.rows, 16) * a.ld * size, at;
    if (!pto_scratch(e, s, wbytes + tbytes + abytes, &at)) return;
    tl_buffer_t wb = {.dtype = wt, .name = "tl_sums"}, tb = {.dtype = t, .name = "tl_trans"};
    pto_view_t w = scratch_view(e, &wb, steps, lines, pitch, at);
    // the source in W (through T, its transpose in the source dtype, for dim -1)
    pto_view_t tv = scratch_view(e, &tb, steps, lines, pitch, at + wbytes);
    if (along_rows) {
        trans(e, half ? &tv : &w, &a, at + wbytes + tbytes);
        if (half) move(e, &w, &tv);
    } else {
        move(e, &w, &a);
    }
    // the chain of adds, one step (row of W) at a time
    bool rev = s->op.reverse;
    pto_view_t row = scratch_view(e, &wb, 1, lines, pitch, 0);
    pto_line(e, "for (int64_t tl_k = 1; tl_k < %" PRId64 "; tl_k++) {", steps);
    e->indent++;
    row.addr = rev ? pto_fmt(e, "%" PRId64 " + (%" PRId64 " - tl_k) * %" PRId64, at, steps - 1,
                             pitch * wsize)
                   : pto_fmt(e, "%" PRId64 " + tl_k * %" PRId64, at, pitch * wsize);
    pto_vec_tile(e, "tl_cur", &row, false);
    row.addr =
        rev ? pto_fmt(e, "%" PRId64 " + (%" PRId64 " - tl_k) * %" PRId64, at, steps, pitch * wsize)
            : pto_fmt(e, "%" PRId64 " + (tl_k - 1) * %" PRId64, at, pitch * wsize);
    pto_vec_tile(e, "tl_prev", &row, false);
    pto_line(e, "pto::TADD(tl_cur, tl_cur, tl_prev);");
    pto_line(e, "pipe_barrier(PIPE_V);");
    e->indent--;
    pto_line(e, "}");
    // W into dst
    if (along_rows) {
        if (half) move(e, &tv, &w);
        trans(e, &d, half ? &tv : &w, at + wbytes + tbytes);
    } else {
        move(e, &d, &w);
    }
}

bool pto_emit_scan(pto_emit_t *e, const tl_stmt_t *s)
{
    if (s->op.code != TL_OP_CUMSUM) return false;
    cumsum(e, s);
    return true;
}
