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
//   into rows of eight blocks.
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
    // src0 from its origin to the end of its buffer (the offsets may reach that far)
    const tl_region_t *r = region_arg(s, 1);
    int64_t start = 0, total = tl_buffer_bytes(a.buf), c;
    for (int i = 0, stride = 1; i < r->ndim; i++, stride = 1) {
        for (int j = i + 1; j < r->ndim; j++) stride *= (int)a.buf->shape[j];
        if (!tl_ir_is_const_int(r->start[i], &c)) {
            pto_unsupported(e, s->loc, "T.tile.gatherb from a run-time src0 start");
            return;
        }
        start += c * stride;
    }
    total = (total - start * size) / 32 * 32;
    tile_at(e, "tl_d", t, repeat, rep * per, repeat, 8 * per, d.addr);
    tile_at(e, "tl_a", t, 1, total / size, 1, total / size, a.addr);
    tile_at(e, "tl_o", TL_U32, repeat, 8, repeat, 8, o.addr);
    pto_line(e, "pto::TGATHERB(tl_d, tl_a, tl_o);");
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
    default: return false;
    }
}
