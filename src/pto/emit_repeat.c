// AscendC's repeat-form vector instructions as PTO-ISA instructions, with the
// reference executor's semantics (exec/tileop_rows.c, exec/tileop_sort.c,
// exec/tileop_repeat.c):
// - brcb_experiment: each source element fills a 32-byte block: TROWEXPAND
//   from a column tile into rows of one block (one tile per repeat, or one
//   for all when the repeats are back to back);
// - exp_experiment: TEXP on the region's rows;
// - row_expand_{mul,sub,div}_experiment: src1 in Brcb layout (one block per
//   row; with a tmp, src1 broadcast into tmp first) applied block by block:
//   TMUL / TSUB / TDIV of each 32-byte column block of the rows with the
//   [rows, one block] src1, so a block whose lanes differ works as upstream's
//   instruction (block stride 0);
// - sort32: TSORT32. pto-isa's CPU TSORT32 breaks ties by the index values
//   and zeroes the reserved bytes of float16 records, where the NPU's
//   vbitsort keeps equal scores in their order and leaves those bytes alone:
//   tilec_pto.h's CPU build sorts as the NPU (tilec_tsort32), the NPU build
//   calls TSORT32;
// - gatherb: TGATHERB, 32-byte blocks of src0 at the uint32 byte offsets,
//   into rows of eight blocks;
// - reduce_sum_experiment: each 256-byte repeat of the count elements summed
//   as the block / whole reductions' tree, the first into dst[0] and each next
//   one into a scratch element TADDed to it (the repeats in order).
#include <inttypes.h>

#include "pto/pto_int.h"

static const tl_region_t *region_arg(const tl_stmt_t *s, int i)
{
    return i < s->op.nargs && s->op.args[i].kind == TL_ARG_REGION ? &s->op.args[i].region : NULL;
}

// Scalar argument i as a compile-time integer in [lo, hi] (else an error naming it).
static bool const_arg(pto_emit_t *e, const tl_stmt_t *s, int i, const char *name, int64_t lo,
                      int64_t hi, int64_t *v)
{
    const tl_expr_t *x =
        i < s->op.nargs && s->op.args[i].kind == TL_ARG_SCALAR ? s->op.args[i].scalar : NULL;
    if (!x || !tl_ir_is_const_int(x, v) || *v < lo || *v > hi) {
        pto_unsupported(e, s->loc, "%s with a %s that is not a constant in %" PRId64 "..%" PRId64,
                        tl_op_info(s->op.code)->spelling, name, lo, hi);
        return false;
    }
    return true;
}

// A row-major UB tile `name` of dtype t: rows x cols allocated (cols the row
// pitch in elements), vr x vc valid, at byte address addr.
static void tile_at(pto_emit_t *e, const char *name, tl_dtype_t t, int64_t rows, int64_t cols,
                    int64_t vr, int64_t vc, const char *addr)
{
    pto_line(e,
             "pto::Tile<pto::TileType::Vec, %s, %" PRId64 ", %" PRId64
             ", pto::BLayout::RowMajor, %" PRId64 ", %" PRId64 "> %s;",
             pto_ctype(t), rows, cols, vr, vc, name);
    pto_line(e, "pto::TASSIGN(%s, (uintptr_t)(%s));", name, addr);
}

// A column tile `name` of n elements of dtype t at addr (a value per row).
static void col_at(pto_emit_t *e, const char *name, tl_dtype_t t, int64_t n, const char *addr)
{
    pto_view_t v = {.buf = &(tl_buffer_t){.dtype = t}, .addr = addr, .rows = 1, .cols = n, .ld = n};
    pto_col_tile(e, name, &v, n);
}

static bool b16_b32(pto_emit_t *e, const tl_stmt_t *s, tl_dtype_t t)
{
    if (tl_dtype_size(t) == 2 || tl_dtype_size(t) == 4) return true;
    pto_unsupported(e, s->loc, "%s of %s", tl_op_info(s->op.code)->spelling, tl_dtype_name(t));
    return false;
}

// brcb_experiment(dst, src, repeat, blk_stride, rep_stride): repeat r puts
// src[8 r + j] into every lane of dst block r * rep_stride + j * blk_stride
// (a block stride of 0 is 1).
static void brcb(pto_emit_t *e, const tl_stmt_t *s)
{
    pto_view_t d, a;
    int64_t repeat, blk, rep;
    if (!pto_ub_view(e, s, 0, &d) || !pto_ub_view(e, s, 1, &a) ||
        !const_arg(e, s, 2, "repeat_times", 0, 255, &repeat) ||
        !const_arg(e, s, 3, "dst_blk_stride", 0, 65535, &blk) ||
        !const_arg(e, s, 4, "dst_repeat_stride", 0, 65535, &rep))
        return;
    tl_dtype_t t = d.buf->dtype;
    if (!b16_b32(e, s, t)) return;
    if (a.buf->dtype != t || !pto_view_contiguous(&a)) {
        pto_unsupported(e, s->loc, "T.tile.brcb_experiment from a strided or other-dtype source");
        return;
    }
    if (repeat == 0) return;
    blk = blk ? blk : 1;
    int64_t per = 32 / tl_dtype_size(t), size = tl_dtype_size(t);
    if (rep == 8 * blk) { // the repeats back to back: one tile of 8 * repeat rows
        col_at(e, "tl_a", t, 8 * repeat, a.addr);
        tile_at(e, "tl_d", t, 8 * repeat, blk * per, 8 * repeat, per, d.addr);
        pto_line(e, "pto::TROWEXPAND(tl_d, tl_a);");
        return;
    }
    pto_line(e, "for (int64_t tl_r = 0; tl_r < %" PRId64 "; tl_r++) {", repeat);
    e->indent++;
    col_at(e, "tl_a", t, 8, pto_fmt(e, "%s + tl_r * %" PRId64, a.addr, 8 * size));
    tile_at(e, "tl_d", t, 8, blk * per, 8, per,
            pto_fmt(e, "%s + tl_r * %" PRId64, d.addr, rep * 32));
    pto_line(e, "pto::TROWEXPAND(tl_d, tl_a);");
    e->indent--;
    pto_line(e, "}");
}

// The operand i of an _experiment op: rows of 256 bytes (upstream's repeat).
static bool repeat_rows(pto_emit_t *e, const tl_stmt_t *s, int i, pto_view_t *v)
{
    if (!pto_ub_view(e, s, i, v)) return false;
    tl_dtype_t t = v->buf->dtype;
    if (t != TL_F32 && t != TL_F16) {
        pto_unsupported(e, s->loc, "%s of %s", tl_op_info(s->op.code)->spelling, tl_dtype_name(t));
        return false;
    }
    if (v->cols * tl_dtype_size(t) != 256) {
        pto_unsupported(e, s->loc, "%s on rows of '%s' that are not 256 bytes",
                        tl_op_info(s->op.code)->spelling, v->buf->name);
        return false;
    }
    if (v->rows == 1) v->ld = v->cols;
    return true;
}

static void exp_rows(pto_emit_t *e, const tl_stmt_t *s)
{
    pto_view_t d, a;
    if (!repeat_rows(e, s, 0, &d) || !repeat_rows(e, s, 1, &a)) return;
    if (d.rows != a.rows || d.buf->dtype != a.buf->dtype) {
        pto_unsupported(e, s->loc, "T.tile.exp_experiment on operands of different shapes");
        return;
    }
    tile_at(e, "tl_d", d.buf->dtype, d.rows, d.ld, d.rows, d.cols, d.addr);
    tile_at(e, "tl_a", a.buf->dtype, a.rows, a.ld, a.rows, a.cols, a.addr);
    pto_line(e, "pto::TEXP(tl_d, tl_a);");
}

// row_expand_{mul,sub,div}_experiment(dst, src0, src1[, tmp])
static void row_expand_rows(pto_emit_t *e, const tl_stmt_t *s)
{
    pto_view_t d, a, b, tmp;
    bool has_tmp = region_arg(s, 3) != NULL;
    if (!repeat_rows(e, s, 0, &d) || !repeat_rows(e, s, 1, &a) || !pto_ub_view(e, s, 2, &b) ||
        (has_tmp && !pto_ub_view(e, s, 3, &tmp)))
        return;
    tl_dtype_t t = d.buf->dtype;
    int64_t size = tl_dtype_size(t), per = 32 / size, need = d.rows * per;
    if (d.rows != a.rows || a.buf->dtype != t || b.buf->dtype != t ||
        (has_tmp && tmp.buf->dtype != t)) {
        pto_unsupported(e, s->loc, "%s on operands of different shapes or dtypes",
                        tl_op_info(s->op.code)->spelling);
        return;
    }
    if (d.rows % 8) {
        pto_unsupported(e, s->loc,
                        "%s on %" PRId64 " rows (upstream's codegen needs a multiple of 8)",
                        tl_op_info(s->op.code)->spelling, d.rows);
        return;
    }
    if (!pto_view_contiguous(&b) || (has_tmp && !pto_view_contiguous(&tmp))) {
        pto_unsupported(e, s->loc, "%s with a strided src1 or tmp",
                        tl_op_info(s->op.code)->spelling);
        return;
    }
    int64_t bn = b.rows * b.cols;
    if (has_tmp ? bn < d.rows || tmp.rows * tmp.cols < need : bn < need) {
        pto_unsupported(e, s->loc, "%s: src1 or tmp is too short for the Brcb of %" PRId64 " rows",
                        tl_op_info(s->op.code)->spelling, d.rows);
        return;
    }
    const char *blocks = b.addr;
    if (has_tmp) { // brcb(src1 -> tmp): tmp's block r holds src1[r] in every lane
        col_at(e, "tl_s", t, d.rows, b.addr);
        tile_at(e, "tl_t", t, d.rows, per, d.rows, per, tmp.addr);
        pto_line(e, "pto::TROWEXPAND(tl_t, tl_s);");
        pto_line(e, "pipe_barrier(PIPE_V);");
        blocks = tmp.addr;
    }
    const char *inst = s->op.code == TL_OP_ROW_EXPAND_MUL_X   ? "pto::TMUL"
                       : s->op.code == TL_OP_ROW_EXPAND_SUB_X ? "pto::TSUB"
                                                              : "tilec_tdiv";
    tile_at(e, "tl_b", t, d.rows, per, d.rows, per, blocks);
    pto_line(e, "for (int64_t tl_q = 0; tl_q < %" PRId64 "; tl_q++) {", d.cols / per);
    e->indent++;
    tile_at(e, "tl_d", t, d.rows, d.ld, d.rows, per, pto_fmt(e, "%s + tl_q * 32", d.addr));
    tile_at(e, "tl_a", t, a.rows, a.ld, a.rows, per, pto_fmt(e, "%s + tl_q * 32", a.addr));
    pto_line(e, "%s(tl_d, tl_a, tl_b);", inst);
    e->indent--;
    pto_line(e, "}");
}

// sort32(dst, scores, indices): groups of 32 sorted descending into 8-byte records
static void sort32(pto_emit_t *e, const tl_stmt_t *s)
{
    pto_view_t d, a, x;
    if (!pto_ub_view(e, s, 0, &d) || !pto_ub_view(e, s, 1, &a) || !pto_ub_view(e, s, 2, &x)) return;
    tl_dtype_t t = a.buf->dtype;
    if ((t != TL_F32 && t != TL_F16) || d.buf->dtype != t || x.buf->dtype != TL_U32) {
        pto_unsupported(e, s->loc, "T.tile.sort32 of %s scores into %s with %s indices",
                        tl_dtype_name(t), tl_dtype_name(d.buf->dtype), tl_dtype_name(x.buf->dtype));
        return;
    }
    if (!pto_view_contiguous(&d) || !pto_view_contiguous(&a) || !pto_view_contiguous(&x)) {
        pto_unsupported(e, s->loc, "T.tile.sort32 on strided operands");
        return;
    }
    int64_t n = a.rows * a.cols / 32 * 32, per_rec = 8 / tl_dtype_size(t);
    if (n / 32 > 255 || x.rows * x.cols < n || d.rows * d.cols < n * per_rec) {
        pto_unsupported(e, s->loc, "T.tile.sort32 of %" PRId64 " scores with these operands", n);
        return;
    }
    if (n == 0) return;
    tile_at(e, "tl_d", t, 1, n * per_rec, 1, n * per_rec, d.addr);
    tile_at(e, "tl_a", t, 1, n, 1, n, a.addr);
    tile_at(e, "tl_x", TL_U32, 1, n, 1, n, x.addr);
    pto_line(e, "tilec_tsort32(tl_d, tl_a, tl_x);");
}

// gatherb(dst, src0, offset, repeat, dst_blk_stride, dst_rep_stride): block j
// of repeat i from src0's byte offset[8 i + j] to dst block i * rep + j * blk
// (blk 0 is 1): rows of eight blocks, rep blocks apart (blk 1 only).
// The whole 32-byte blocks of src0 (operand 1, view a) from its origin to the
// end of its buffer: the byte offsets of gatherb and bilinear_interpolation may
// reach that far (a run-time origin: an error).
static bool src0_bytes(pto_emit_t *e, const tl_stmt_t *s, const pto_view_t *a, int64_t *total)
{
    const tl_region_t *r = region_arg(s, 1);
    int64_t start = 0, c;
    for (int i = 0, stride = 1; i < r->ndim; i++, stride = 1) {
        for (int j = i + 1; j < r->ndim; j++) stride *= (int)a->buf->shape[j];
        if (!tl_ir_is_const_int(r->start[i], &c)) {
            pto_unsupported(e, s->loc, "%s from a run-time src0 start",
                            tl_op_info(s->op.code)->spelling);
            return false;
        }
        start += c * stride;
    }
    *total = (tl_buffer_bytes(a->buf) - start * tl_dtype_size(a->buf->dtype)) / 32 * 32;
    return true;
}

static void gatherb(pto_emit_t *e, const tl_stmt_t *s)
{
    pto_view_t d, a, o;
    int64_t repeat, blk, rep;
    if (!pto_ub_view(e, s, 0, &d) || !pto_ub_view(e, s, 1, &a) || !pto_ub_view(e, s, 2, &o) ||
        !const_arg(e, s, 3, "repeat_time", 0, 255, &repeat) ||
        !const_arg(e, s, 4, "dst_blk_stride", 0, 255, &blk) ||
        !const_arg(e, s, 5, "dst_rep_stride", 0, 255, &rep))
        return;
    tl_dtype_t t = d.buf->dtype;
    if (o.buf->dtype != TL_U32 && o.buf->dtype != TL_I32) {
        pto_unsupported(e, s->loc, "T.tile.gatherb with %s offsets", tl_dtype_name(o.buf->dtype));
        return;
    }
    if (blk > 1 || rep < 8 || !pto_view_contiguous(&o) || a.buf->dtype != t) {
        pto_unsupported(e, s->loc,
                        "T.tile.gatherb with a block stride above 1, a repeat stride below 8, "
                        "strided offsets or between dtypes");
        return;
    }
    if (repeat == 0) return;
    int64_t size = tl_dtype_size(t), per = 32 / size;
    int64_t total;
    if (!src0_bytes(e, s, &a, &total)) return;
    tile_at(e, "tl_d", t, repeat, rep * per, repeat, 8 * per, d.addr);
    tile_at(e, "tl_a", t, 1, total / size, 1, total / size, a.addr);
    tile_at(e, "tl_o", TL_U32, repeat, 8, repeat, 8, o.addr);
    pto_line(e, "pto::TGATHERB(tl_d, tl_a, tl_o);");
}

// bilinear_interpolation(dst, src0, src0_offset, src1, mask, h_repeat,
// repeat_mode, dst_blk_stride, v_r_offset, v_repeat) (exec/tileop_bilinear.c),
// float16, all scalars constants: the N = h_repeat * v_repeat repeats'
// blocks gathered into a scratch X [N, 128] (TGATHERB), the weights broadcast
// into a scratch W of the same shape (TROWEXPAND of a column of src1: one value
// per repeat, or with repeat_mode one per block), X = X * W (TMUL, rounded
// products); each vertical repeat's first row accumulates its next rows on the
// first mask lanes in order (TADD over all vertical repeats at once: rows
// h_repeat * 128 apart); then each of its blocks into dst (TADDS of 0) at
// i * v_r_offset + j * dst_blk_stride * 16, in block order.
static void bilinear(pto_emit_t *e, const tl_stmt_t *s)
{
    pto_view_t d, a, o, w;
    int64_t mask, h, mode, blk, voff, v;
    if (!pto_ub_view(e, s, 0, &d) || !pto_ub_view(e, s, 1, &a) || !pto_ub_view(e, s, 2, &o) ||
        !pto_ub_view(e, s, 3, &w) || !const_arg(e, s, 4, "mask", 1, 128, &mask) ||
        !const_arg(e, s, 5, "h_repeat", 1, 255, &h) ||
        !const_arg(e, s, 6, "repeat_mode", 0, 1, &mode) ||
        !const_arg(e, s, 7, "dst_blk_stride", 0, 65535, &blk) ||
        !const_arg(e, s, 8, "v_r_offset", 128, 65534, &voff) ||
        !const_arg(e, s, 9, "v_repeat", 1, 255, &v))
        return;
    int64_t n = h * v, at;
    if (n > 255 || voff % 16 || !pto_view_contiguous(&o) || !pto_view_contiguous(&w) ||
        d.buf->dtype != TL_F16 || a.buf->dtype != TL_F16 || w.buf->dtype != TL_F16 ||
        o.buf->dtype != TL_U32) {
        pto_unsupported(e, s->loc,
                        "T.tile.bilinear_interpolation other than of float16 with contiguous "
                        "offsets and weights, h_repeat * v_repeat <= 255 and v_r_offset a "
                        "multiple of 16");
        return;
    }
    int64_t total;
    if (!src0_bytes(e, s, &a, &total)) return;
    if (!pto_scratch(e, s, 2 * n * 256, &at)) return;
    const char *x = pto_fmt(e, "%" PRId64, at), *wt = pto_fmt(e, "%" PRId64, at + n * 256);
    pto_line(e, "{");
    e->indent++;
    tile_at(e, "tl_x", TL_F16, n, 128, n, 128, x);
    tile_at(e, "tl_a", TL_F16, 1, total / 2, 1, total / 2, a.addr);
    tile_at(e, "tl_o", TL_U32, n, 8, n, 8, o.addr);
    pto_line(e, "pto::TGATHERB(tl_x, tl_a, tl_o);");
    int64_t rows = mode ? 8 * n : n; // one weight per row of W
    col_at(e, "tl_c", TL_F16, rows, w.addr);
    tile_at(e, "tl_w", TL_F16, rows, 128 / (rows / n), rows, 128 / (rows / n), wt);
    pto_line(e, "pto::TROWEXPAND(tl_w, tl_c);");
    pto_line(e, "pipe_barrier(PIPE_V);");
    tile_at(e, "tl_xf", TL_F16, 1, 128 * n, 1, 128 * n, x);
    tile_at(e, "tl_wf", TL_F16, 1, 128 * n, 1, 128 * n, wt);
    pto_line(e, "pto::TMUL(tl_xf, tl_xf, tl_wf);");
    pto_line(e, "pipe_barrier(PIPE_V);");
    e->indent--;
    pto_line(e, "}");
    for (int64_t k = 1; k < h; k++) { // vertical repeat i's row i * h accumulates row i * h + k
        pto_line(e, "{");
        e->indent++;
        tile_at(e, "tl_s", TL_F16, v, h * 128, v, mask, x);
        tile_at(e, "tl_t", TL_F16, v, h * 128, v, mask, pto_fmt(e, "%" PRId64, at + k * 256));
        pto_line(e, "pto::TADD(tl_s, tl_t, tl_s);");
        e->indent--;
        pto_line(e, "}");
        pto_line(e, "pipe_barrier(PIPE_V);");
    }
    for (int64_t j = 0; j * 16 < mask; j++) { // block j of every vertical repeat, in order
        int64_t lanes = TL_MIN(16, mask - 16 * j);
        pto_line(e, "{");
        e->indent++;
        tile_at(e, "tl_s", TL_F16, v, h * 128, v, lanes, pto_fmt(e, "%" PRId64, at + j * 32));
        tile_at(e, "tl_d", TL_F16, v, voff, v, lanes,
                pto_fmt(e, "%s + %" PRId64, d.addr, j * blk * 32));
        pto_line(e, "pto::TADDS(tl_d, tl_s, (half)0.0f);");
        e->indent--;
        pto_line(e, "}");
        if (blk == 0) pto_line(e, "pipe_barrier(PIPE_V);"); // the blocks overwrite each other
    }
}

// --- block_reduce_* and wholereduce* ---------------------------------------------------------
// The reference (exec/tileop_repeat.c): a repeat reads 8 blocks of 32 bytes,
// block b at (r * srcRepStride + b * srcBlkStride) blocks, its lanes the
// blocks' elements and `mask` keeps the first lanes. Sums add as a binary tree
// (pairs of neighbours, then pairs of those): TPAIRREDUCESUM rounds, which add
// exactly those pairs (an odd lane out is added to 0), until one column is left,
// then TROWMAX over that one column moves the sums into place. Max and min:
// TROWMAX / TROWMIN. wholereduce's index (the first lane holding the extremum):
// TCMP of the lanes with the broadcast extremum, TSELS of a TCI lane index where
// equal (else the lane count), TROWMIN of that into the index's slot.

static int64_t pad_to(int64_t n, int64_t per)
{
    return (n + per - 1) / per * per;
}

// Scratch for reducing n rows (n <= 16) of w lanes: two ping-pong tiles and
// the row instructions' tmp, each [16, w padded], plus 32-byte slots.
static int64_t scratch_tile_bytes(tl_dtype_t t, int64_t w)
{
    return 16 * pad_to(w, 32 / tl_dtype_size(t)) * tl_dtype_size(t);
}

// A tile over the n results at dst: a column tile (n > 1) or one element.
static void results_at(pto_emit_t *e, const char *name, tl_dtype_t t, int64_t n, const char *dst)
{
    if (n > 1)
        col_at(e, name, t, n, dst);
    else
        tile_at(e, name, t, 1, 32 / tl_dtype_size(t), 1, 1, dst);
}

// Reduces n rows of w lanes at src (rows `pitch` elements apart) with kind
// (0 sum, 1 max, 2 min) into n results at dst (a column, or one element).
static void reduce_rows(pto_emit_t *e, int kind, tl_dtype_t t, const char *src, int64_t pitch,
                        int64_t n, int64_t w, const char *dst, int64_t scratch)
{
    int64_t per = 32 / tl_dtype_size(t), rows = n > 1 ? pad_to(n, per) : 1, wp = pad_to(w, per);
    int64_t tile = scratch_tile_bytes(t, w);
    const char *tmp = pto_fmt(e, "%" PRId64, scratch + 2 * tile);
    static const char *const inst[] = {"TROWMAX", "TROWMAX", "TROWMIN"};
    for (int round = 0; kind == 0 && w > 1; round++, w = (w + 1) / 2) {
        const char *out = pto_fmt(e, "%" PRId64, scratch + (round % 2) * tile);
        pto_line(e, "{");
        e->indent++;
        tile_at(e, "tl_s", t, rows, round ? wp : pitch, n, w, src);
        tile_at(e, "tl_p", t, rows, wp, n, w, out);
        pto_line(e, "pto::TPAIRREDUCESUM(tl_p, tl_s);");
        e->indent--;
        pto_line(e, "}");
        pto_line(e, "pipe_barrier(PIPE_V);");
        src = out, pitch = wp;
    }
    pto_line(e, "{");
    e->indent++;
    tile_at(e, "tl_s", t, rows, pitch, n, w, src);
    results_at(e, "tl_o", t, n, dst);
    tile_at(e, "tl_tmp", t, rows, wp, n, w, tmp);
    pto_line(e, "pto::%s(tl_o, tl_s, tl_tmp);", inst[kind]);
    e->indent--;
    pto_line(e, "}");
}

// The index of the first of the w lanes at src equal to the extremum at ext,
// written at dst as an integer of dtype it (int16 or int32: the index's bits).
static void first_index(pto_emit_t *e, tl_dtype_t t, tl_dtype_t it, const char *src, int64_t w,
                        const char *ext, const char *dst, int64_t scratch)
{
    int64_t size = tl_dtype_size(t), wp = pad_to(w, 32 / size), row = wp * 4;
    const char *b = pto_fmt(e, "%" PRId64, scratch), *idx = pto_fmt(e, "%" PRId64, scratch + row),
               *sel = pto_fmt(e, "%" PRId64, scratch + 2 * row),
               *tmp = pto_fmt(e, "%" PRId64, scratch + 3 * row),
               *bits = pto_fmt(e, "%" PRId64, scratch + 4 * row);
    pto_line(e, "{");
    e->indent++;
    col_at(e, "tl_x", t, 1, ext);
    tile_at(e, "tl_b", t, 1, wp, 1, w, b);
    tile_at(e, "tl_s", t, 1, wp, 1, w, src);
    tile_at(e, "tl_i", it, 1, wp, 1, w, idx);
    tile_at(e, "tl_q", it, 1, wp, 1, w, sel);
    tile_at(e, "tl_tmp", it, 1, wp, 1, w, tmp);
    pto_line(e,
             "pto::Tile<pto::TileType::Vec, uint8_t, 1, 32, pto::BLayout::RowMajor, 1, %" PRId64
             "> tl_m;",
             (w + 7) / 8);
    pto_line(e, "pto::TASSIGN(tl_m, (uintptr_t)(%s));", bits);
    results_at(e, "tl_o", it, 1, dst);
    pto_line(e, "pto::TROWEXPAND(tl_b, tl_x);");
    pto_line(e, "pto::TCI<decltype(tl_i), %s, 0>(tl_i, (%s)0);", pto_ctype(it), pto_ctype(it));
    pto_line(e, "pipe_barrier(PIPE_V);");
    pto_line(e, "pto::TCMP(tl_m, tl_s, tl_b, pto::CmpMode::EQ);");
    pto_line(e, "pipe_barrier(PIPE_V);");
    pto_line(e, "pto::TSELS(tl_q, tl_m, tl_i, tl_tmp, (%s)%" PRId64 ");", pto_ctype(it), w);
    pto_line(e, "pipe_barrier(PIPE_V);");
    pto_line(e, "pto::TROWMIN(tl_o, tl_q, tl_tmp);");
    e->indent--;
    pto_line(e, "}");
}

// block_reduce_*(dst, src, repeat, mask, dstRepStride, srcBlkStride, srcRepStride),
// wholereduce*(dst, src, mask, repeat, dstRepStride, srcBlkStride, srcRepStride[, order])
static void repeat_reduce(pto_emit_t *e, const tl_stmt_t *s)
{
    tl_opcode_t c = s->op.code;
    bool block = c >= TL_OP_BLOCK_REDUCE_SUM && c <= TL_OP_BLOCK_REDUCE_MIN;
    int kind = (int)(c - (block ? TL_OP_BLOCK_REDUCE_SUM : TL_OP_WHOLE_REDUCE_SUM));
    pto_view_t d, a;
    int64_t repeat, mask, dst_rep, src_blk, src_rep;
    if (!pto_ub_view(e, s, 0, &d) || !pto_ub_view(e, s, 1, &a) ||
        !const_arg(e, s, block ? 2 : 3, "repeat", 0, 255, &repeat) ||
        !const_arg(e, s, block ? 3 : 2, "mask", 0, 128, &mask) ||
        !const_arg(e, s, 4, "dstRepStride", 0, 65535, &dst_rep) ||
        !const_arg(e, s, 5, "srcBlkStride", 0, 65535, &src_blk) ||
        !const_arg(e, s, 6, "srcRepStride", 0, 65535, &src_rep))
        return;
    tl_dtype_t t = a.buf->dtype;
    int64_t size = tl_dtype_size(t), per = 32 / size;
    if ((t != TL_F32 && t != TL_F16) || d.buf->dtype != t || mask > 8 * per) {
        pto_unsupported(e, s->loc, "%s of %s, mask %" PRId64, tl_op_info(c)->spelling,
                        tl_dtype_name(t), mask);
        return;
    }
    if (src_blk == 0 || (!block && src_blk != 1 && mask > per)) {
        pto_unsupported(e, s->loc, "%s with srcBlkStride %" PRId64 " (lanes not in one row)",
                        tl_op_info(c)->spelling, src_blk);
        return;
    }
    if (repeat == 0 || mask == 0) return;
    int64_t at;
    if (!pto_scratch(e, s, 3 * scratch_tile_bytes(t, 8 * per) + 32, &at)) return;
    pto_line(e, "for (int64_t tl_r = 0; tl_r < %" PRId64 "; tl_r++) {", repeat);
    e->indent++;
    const char *src = pto_fmt(e, "%s + tl_r * %" PRId64, a.addr, src_rep * 32);
    if (block) { // the blocks as rows: the full ones, then a part of one
        int64_t full = TL_MIN(8, mask / per), rest = full < 8 ? mask % per : 0;
        const char *out = pto_fmt(e, "%s + tl_r * %" PRId64, d.addr, dst_rep * 8 * size);
        if (full) reduce_rows(e, kind, t, src, src_blk * per, full, per, out, at);
        if (full && rest) pto_line(e, "pipe_barrier(PIPE_V);");
        if (rest)
            reduce_rows(e, kind, t, pto_fmt(e, "%s + %" PRId64, src, full * src_blk * 32),
                        src_blk * per, 1, rest, pto_fmt(e, "%s + %" PRId64, out, full * size), at);
    } else {
        tl_reduce_order_t o = kind == 0 ? TL_ORDER_ONLY_VALUE : s->op.order;
        int64_t unit = o == TL_ORDER_ONLY_VALUE ? 1 : o == TL_ORDER_ONLY_INDEX ? 4 / size : 2;
        int64_t vi = o == TL_ORDER_INDEX_VALUE ? 1 : 0;
        const char *base = pto_fmt(e, "%s + tl_r * %" PRId64, d.addr, dst_rep * unit * size);
        const char *val = o == TL_ORDER_ONLY_INDEX
                              ? pto_fmt(e, "%" PRId64, at + 3 * scratch_tile_bytes(t, 8 * per))
                              : pto_fmt(e, "%s + %" PRId64, base, vi * size);
        reduce_rows(e, kind, t, src, pad_to(mask, per), 1, mask, val, at);
        if (o != TL_ORDER_ONLY_VALUE) {
            pto_line(e, "pipe_barrier(PIPE_V);");
            const char *idx = o == TL_ORDER_ONLY_INDEX
                                  ? base
                                  : pto_fmt(e, "%s + %" PRId64, base, (1 - vi) * size);
            // ORDER_ONLY_INDEX: a uint32 per unit; else an index of the element's width
            tl_dtype_t it = o == TL_ORDER_ONLY_INDEX || size == 4 ? TL_I32 : TL_I16;
            first_index(e, t, it, src, mask, val, idx, at);
        }
    }
    e->indent--;
    pto_line(e, "}");
}

// reduce_sum_experiment(dst, src, count): AscendC's ReduceSum of src's first
// count elements into dst[0].
static void reduce_sum_count(pto_emit_t *e, const tl_stmt_t *s)
{
    pto_view_t d, a;
    int64_t count;
    if (!pto_ub_view(e, s, 0, &d) || !pto_ub_view(e, s, 1, &a) ||
        !const_arg(e, s, 2, "count", 0, INT32_MAX, &count))
        return;
    tl_dtype_t t = a.buf->dtype;
    if ((t != TL_F32 && t != TL_F16) || d.buf->dtype != t) {
        pto_unsupported(e, s->loc, "T.tile.reduce_sum_experiment of %s into %s", tl_dtype_name(t),
                        tl_dtype_name(d.buf->dtype));
        return;
    }
    if (count == 0) return;
    int64_t size = tl_dtype_size(t), lanes = 256 / size, full = count / lanes,
            rest = count % lanes, tile = scratch_tile_bytes(t, lanes), at;
    if (!pto_scratch(e, s, 3 * tile + 32, &at)) return;
    const char *slot = pto_fmt(e, "%" PRId64, at + 3 * tile);
    // one repeat of w lanes at src into out; then out added to dst[0] (add)
    struct {
        const char *src, *loop;
        int64_t w;
    } part[3] = {{a.addr, NULL, full ? lanes : rest},
                 {pto_fmt(e, "%s + tl_r * 256", a.addr), "tl_r", lanes},
                 {pto_fmt(e, "%s + %" PRId64, a.addr, full * 256), NULL, rest}};
    bool on[3] = {true, full > 1, full > 0 && rest > 0};
    for (int k = 0; k < 3; k++) {
        if (!on[k]) continue;
        if (part[k].loop) {
            pto_line(e, "for (int64_t tl_r = 1; tl_r < %" PRId64 "; tl_r++) {", full);
            e->indent++;
        }
        reduce_rows(e, 0, t, part[k].src, pad_to(part[k].w, 32 / size), 1, part[k].w,
                    k ? slot : d.addr, at);
        pto_line(e, "pipe_barrier(PIPE_V);");
        if (k) {
            pto_line(e, "{");
            e->indent++;
            tile_at(e, "tl_d", t, 1, 32 / size, 1, 1, d.addr);
            tile_at(e, "tl_x", t, 1, 32 / size, 1, 1, slot);
            pto_line(e, "pto::TADD(tl_d, tl_d, tl_x);");
            e->indent--;
            pto_line(e, "}");
            pto_line(e, "pipe_barrier(PIPE_V);");
        }
        if (part[k].loop) {
            e->indent--;
            pto_line(e, "}");
        }
    }
}

bool pto_emit_repeat(pto_emit_t *e, const tl_stmt_t *s)
{
    switch (s->op.code) {
    case TL_OP_BRCB: brcb(e, s); return true;
    case TL_OP_EXP_X: exp_rows(e, s); return true;
    case TL_OP_ROW_EXPAND_MUL_X:
    case TL_OP_ROW_EXPAND_SUB_X:
    case TL_OP_ROW_EXPAND_DIV_X: row_expand_rows(e, s); return true;
    case TL_OP_SORT32: sort32(e, s); return true;
    case TL_OP_GATHERB: gatherb(e, s); return true;
    case TL_OP_BLOCK_REDUCE_SUM:
    case TL_OP_BLOCK_REDUCE_MAX:
    case TL_OP_BLOCK_REDUCE_MIN:
    case TL_OP_WHOLE_REDUCE_SUM:
    case TL_OP_WHOLE_REDUCE_MAX:
    case TL_OP_WHOLE_REDUCE_MIN: repeat_reduce(e, s); return true;
    case TL_OP_REDUCE_SUM_X: reduce_sum_count(e, s); return true;
    case TL_OP_BILINEAR: bilinear(e, s); return true;
    default: return false;
    }
}
