// T.copy and T.tile.atomic_add between GM and the scratchpads as TLOAD /
// TSTORE on pto::GlobalTensor views, L1 -> L0A/L0B as TEXTRACT, UB -> UB as
// TMOV / TCVT (emit_vec.c).
//
// The GM box follows tilec's copy rule (exec/tileop_copy.c) for the cases
// lowered here: unit dimensions dropped on both sides, at most two left, the
// GM side's last one contiguous; a start point takes the other side's
// extents; the GM side is clipped at the tensor's edge at run time
// (tilec_clip) and a load fills the rest of the destination tile with the pad
// value (pto-isa's CPU TLOAD does; on the NPU the emitted TFILLPAD does).
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "ir/copy_plan.h"
#include "pto/pto_int.h"

typedef struct {
    const char *ptr;     // element pointer of the box origin
    const char *vr, *vc; // valid rows / columns (run-time expressions)
    const char *ld;      // row stride in elements
    int64_t ldc;         // ... when it is a constant, else -1
    int64_t rows, cols;  // the box before clipping (folded rows: all of them)
    int64_t fold;        // rows per index of the row dimension (folded leading dimensions)
    bool cols_whole;     // the columns are never clipped at the tensor's edge
} gm_box_t;

static int64_t pad32(int64_t n, int size)
{
    int64_t per = 32 / size;
    return (n + per - 1) / per * per;
}

// The GM side of a copy whose on-chip side is v (rows x cols). A one-row box
// is one run from a UB region's start (ir/copy_plan.h): a contiguous UB
// region becomes one flat row for it.
static bool gm_box(pto_emit_t *e, const tl_stmt_t *s, const tl_region_t *r,
                   const tl_region_t *onchip, pto_view_t *v, gm_box_t *g, bool dyn)
{
    const tl_buffer_t *b = r->buf;
    int n = r->ndim;
    int64_t ext[TL_MAX_DIMS], other[TL_MAX_DIMS];
    const char *dynx[TL_MAX_DIMS] = {0};   // run-time extents (dyn): valid counts at run time
    for (int i = 0; i < onchip->ndim; i++) // constant: pto_view took the region
        if (!tl_ir_is_const_int(onchip->extent[i], &other[i])) other[i] = 1;
    if (r->form == TL_REGION_POINT) // the on-chip side's trailing extents (tilec's rule)
        tl_copy_point_extents(n, other, onchip->ndim, ext);
    for (int i = 0; i < n && r->form != TL_REGION_POINT; i++) {
        if (dyn && !tl_ir_is_const_int(r->extent[i], &ext[i])) {
            ext[i] = i == n - 1 ? v->cols : v->rows; // the on-chip side's whole rows / matrix
            dynx[i] = pto_fmt(e, "(int64_t)(%s)", pto_expr_str(e, r->extent[i]));
            continue;
        }
        if (!tl_ir_is_const_int(r->extent[i], &ext[i])) {
            pto_unsupported(e, s->loc, "a copy with a run-time extent of '%s'", b->name);
            return false;
        }
    }
    // the dimensions of extent > 1 before the columns (the last dimension)
    int act[TL_MAX_DIMS], na = 0;
    for (int i = 0; i < n - 1; i++)
        if (ext[i] > 1) act[na++] = i;
    // strides (element counts) as expressions
    const char *stride[TL_MAX_DIMS];
    int64_t cstride = 1, dim, cstrides[TL_MAX_DIMS]; // constant strides (-1: not known)
    stride[n - 1] = "1";
    cstrides[n - 1] = 1;
    for (int i = n - 2; i >= 0; i--) {
        bool known = cstride > 0 && tl_ir_is_const_int(b->gm_shape[i + 1], &dim);
        cstride = known ? cstride * dim : 0;
        cstrides[i] = known ? cstride : -1;
        stride[i] =
            known ? pto_fmt(e, "%" PRId64, cstride)
                  : pto_fmt(e, "%s * (%s)", stride[i + 1], pto_expr_str(e, b->gm_shape[i + 1]));
    }
    tl_buf_t ptr;
    tl_buf_init(&ptr);
    tl_buf_printf(&ptr, "%s", b->name);
    for (int i = 0; i < n; i++) {
        int64_t c;
        if (tl_ir_is_const_int(r->start[i], &c) && c == 0) continue;
        if (!strcmp(stride[i], "1"))
            tl_buf_printf(&ptr, " + %s", pto_expr_str(e, r->start[i]));
        else
            tl_buf_printf(&ptr, " + %s * %s", pto_expr_str(e, r->start[i]), stride[i]);
    }
    g->ptr = pto_fmt(e, "%s", tl_buf_cstr(&ptr));
    tl_buf_free(&ptr);
    // Upstream's folded leading dimensions (GM <-> UB, ir/copy_plan.h, #1231):
    // more than one row dimension folds into the rows when each after the
    // first is whole (start 0, the tensor's extent) with only dimensions of
    // size 1 between them, so that one row stride steps through all their
    // rows; the outermost is the one clipped at the tensor's edge.
    bool folded[TL_MAX_DIMS] = {0};
    g->fold = 1;
    if (na >= 2) {
        if (v->buf->scope != TL_SCOPE_UB) {
            pto_unsupported(e, s->loc, "a copy of a %d-dimensional box of '%s'", na + 1, b->name);
            return false;
        }
        for (int k = 1; k < na; k++) {
            int64_t st, sh;
            bool whole = tl_ir_is_const_int(r->start[act[k]], &st) && st == 0 && !dynx[act[k]] &&
                         tl_ir_is_const_int(b->gm_shape[act[k]], &sh) && sh == ext[act[k]];
            for (int m = act[k - 1] + 1; m < act[k] && whole; m++)
                whole = tl_ir_is_const_int(b->gm_shape[m], &sh) && sh == 1;
            if (!whole) {
                pto_unsupported(e, s->loc,
                                "a copy of a %d-dimensional box of '%s' whose dimension %d is not "
                                "whole rows after dimension %d (upstream: \"Cannot flatten "
                                "non-contiguous high-rank Ascend GM<->UB copy\")",
                                na + 1, b->name, act[k], act[k - 1]);
                return false;
            }
            folded[act[k]] = true;
            g->fold *= ext[act[k]];
        }
    }
    int rd = na ? act[0] : -1, cd = ext[n - 1] > 1 ? n - 1 : -1;
    g->rows = rd >= 0 ? ext[rd] * g->fold : 1, g->cols = cd >= 0 ? ext[cd] : 1;
    g->ld = rd >= 0 ? stride[act[na - 1]] : "1";
    g->vr = rd >= 0 ? pto_fmt(e, "tilec_clip(%s, %s, %s)%s", pto_expr_str(e, r->start[rd]),
                              dynx[rd] ? dynx[rd] : pto_fmt(e, "%" PRId64, ext[rd]),
                              pto_expr_str(e, b->gm_shape[rd]),
                              g->fold > 1 ? pto_fmt(e, " * %" PRId64, g->fold) : "")
                    : "1";
    g->vc = cd >= 0 ? pto_fmt(e, "tilec_clip(%s, %s, %s)", pto_expr_str(e, r->start[cd]),
                              dynx[cd] ? dynx[cd] : pto_fmt(e, "%" PRId64, g->cols),
                              pto_expr_str(e, b->gm_shape[cd]))
                    : "1";
    // the columns are never clipped (compact rows need it): a constant start and shape
    int64_t cst, csh;
    g->cols_whole = cd < 0 || (!dynx[cd] && tl_ir_is_const_int(r->start[cd], &cst) &&
                               tl_ir_is_const_int(b->gm_shape[cd], &csh) && cst + g->cols <= csh);
    g->ldc = rd < 0 ? g->cols : cstrides[act[na - 1]];
    // unit dimensions must start inside the tensor (tilec reports it; here the box is empty)
    tl_buf_t in;
    tl_buf_init(&in);
    for (int i = 0; i < n; i++)
        if (i != rd && i != cd && !folded[i])
            tl_buf_printf(&in, " && (%s) < (%s)", pto_expr_str(e, r->start[i]),
                          pto_expr_str(e, b->gm_shape[i]));
    if (in.len) g->vr = pto_fmt(e, "(true%s ? %s : 0)", tl_buf_cstr(&in), g->vr);
    tl_buf_free(&in);
    bool ub = v->buf->scope == TL_SCOPE_UB;
    if (ub && g->rows == 1 && v->rows > 1 && pto_view_contiguous(v) && g->cols <= v->rows * v->cols)
        v->cols *= v->rows, v->ld = v->cols, v->rows = 1;
    // UB: the box's rows at the device's pitch for its columns (ir/copy_plan.h)
    // must be the region's rows
    bool fits =
        ub ? g->rows <= v->rows && g->cols <= v->cols &&
                 (g->rows == 1 || tl_copy_plan_pitch(v->buf->dtype, v->ld, g->cols) == v->ld)
           : (g->rows == v->rows && g->cols <= v->cols) ||
                 (g->rows <= v->rows && g->cols == v->cols) ||
                 (g->rows == 1 && v->rows == 1 && g->cols <= v->cols);
    if (ub && g->rows > 1 && g->rows <= v->rows && g->cols <= v->cols && !fits) {
        pto_unsupported(e, s->loc,
                        "a copy of %" PRId64 " GM rows that the device lays %" PRId64
                        " elements apart in UB, where the rows of '%s' are %" PRId64 " apart",
                        g->rows, tl_copy_plan_pitch(v->buf->dtype, v->ld, g->cols), v->buf->name,
                        v->ld);
        return false;
    }
    if (!fits) {
        pto_unsupported(e, s->loc,
                        "a copy of a %" PRId64 " x %" PRId64 " GM box to a %" PRId64 " x %" PRId64
                        " on-chip region",
                        g->rows, g->cols, v->rows, v->cols);
        return false;
    }
    return true;
}

// The GM box as tl_g, from ptr (g's origin when NULL), vc valid columns.
static void global(pto_emit_t *e, const gm_box_t *g, tl_dtype_t t, const char *ptr, const char *vc)
{
    pto_line(
        e,
        "pto::GlobalTensor<%s, pto::Shape<1, 1, 1, -1, -1>, pto::Stride<1, 1, 1, -1, 1>> tl_g(%s, "
        "pto::Shape<1, 1, 1, -1, -1>(1, 1, 1, tl_vr, %s), pto::Stride<1, 1, 1, -1, 1>(1, 1, 1, "
        "%s, 1));",
        pto_ctype(t), ptr ? ptr : g->ptr, vc, g->ld);
}

// A UB tile over the on-chip region of a GM copy, its valid part vr x vc,
// the pad value `pad` (pto-isa's CPU TLOAD fills the whole tile with it
// first: the rows x the buffer's row pitch from the region's start, which is
// what upstream's Duplicate sets before a box that is not the region's rows x
// that pitch, ir/copy_plan.h).
static bool ub_tile(pto_emit_t *e, const tl_stmt_t *s, const pto_view_t *v, const char *pad)
{
    int size = tl_dtype_size(v->buf->dtype);
    int64_t alloc = v->rows == 1 ? pad32(v->cols, size) : v->ld;
    if (v->rows > 1 && v->ld * size % 32) {
        pto_unsupported(e, s->loc,
                        "a copy to rows of '%s' of %" PRId64 " bytes (PTO tiles need 32-byte rows)",
                        v->buf->name, v->ld * size);
        return false;
    }
    pto_line(e,
             "pto::Tile<pto::TileType::Vec, %s, %" PRId64 ", %" PRId64
             ", pto::BLayout::RowMajor, -1, -1, pto::SLayout::NoneBox, 512, pto::PadValue::%s> "
             "tl_t((size_t)tl_vr, "
             "(size_t)tl_vc);",
             pto_ctype(v->buf->dtype), v->rows, alloc, pad);
    pto_line(e, "pto::TASSIGN(tl_t, (uintptr_t)(%s));", v->addr);
    return true;
}

// Compact rows (ir/copy_plan.h): rows of a UB buffer that are not whole
// 32-byte blocks move only as one burst of whole rows from GM rows that
// follow one another (upstream's DataCopyPad with the buffer's pitch,
// tilelang-ascend #1537). Such a copy becomes one flat row of the rows'
// elements on both sides, the valid count the valid rows times the row
// (columns never clipped); *limit: the elements from the region's start to
// the buffer's end (the burst's last block is completed up to there). 0: not
// compact rows, 1: flattened, -1: an error reported.
static int compact_rows(pto_emit_t *e, const tl_stmt_t *s, const tl_region_t *ur, pto_view_t *v,
                        gm_box_t *g, int64_t *limit)
{
    const tl_buffer_t *b = v->buf;
    int size = tl_dtype_size(b->dtype), n = ur->ndim, lead = 0;
    if (v->rows <= 1 || v->ld * size % 32 == 0) return 0;
    for (int i = 0; i < n - 1; i++) {
        int64_t x;
        lead += !tl_ir_is_const_int(ur->extent[i], &x) || x != 1;
    }
    int64_t numel = 1, off = 0, st;
    for (int i = 0; i < n; i++) numel *= b->shape[i];
    for (int i = 0; i < n && off >= 0; i++) {
        int64_t stride = 1;
        for (int j = i + 1; j < n; j++) stride *= b->shape[j];
        off = tl_ir_is_const_int(ur->start[i], &st) ? off + st * stride : -1;
    }
    int64_t elems = v->rows * v->cols;
    if (g->cols != v->ld || v->cols != v->ld || g->rows > v->rows || g->fold > 1 || lead > 1 ||
        g->ldc != g->cols || !g->cols_whole || off < 0 ||
        (pad32(elems, size) != elems && off + elems != numel)) {
        pto_unsupported(e, s->loc,
                        "a copy to rows of '%s' of %" PRId64 " bytes other than one burst of its "
                        "whole rows from GM rows that follow one another (PTO tiles need 32-byte "
                        "rows)",
                        b->name, v->ld * size);
        return -1;
    }
    g->vc = pto_fmt(e, "(%s) * %" PRId64, g->vr, g->cols);
    g->vr = "1";
    g->ld = "1";
    g->rows = 1, g->cols = elems;
    v->rows = 1, v->cols = v->ld = elems;
    *limit = numel - off;
    return 1;
}

static bool pad_value(pto_emit_t *e, const tl_stmt_t *s)
{
    e->pad = "Zero";
    const tl_expr_t *p = s->op.pad_value;
    if (!p) return true;
    int64_t i;
    if ((p->kind == TL_EX_FLOAT && p->f == 0) || (tl_ir_is_const_int(p, &i) && i == 0)) return true;
    if (p->kind == TL_EX_FLOAT && isinf(p->f)) {
        e->pad = p->f < 0 ? "Min" : "Max";
        return true;
    }
    pto_unsupported(e, s->loc, "a pad value other than 0 or +-inf");
    return false;
}

// Whether the integer expression x is a known multiple of n (every term of
// its linear form and its constant are).
static bool multiple_of(const tl_expr_t *x, int64_t n)
{
    tl_linear_t l;
    if (!tl_ir_linear(x, &l) || l.c % n) return false;
    for (int i = 0; i < l.n; i++)
        if (l.coefs[i] % n) return false;
    return true;
}

// Opens a loop over the 32-byte column strips of an L1 matrix block and loads
// each strip's valid rows (tl_vr x tl_sc) into a Mat tile of tile_rows static
// rows at strip (c0 / c0n + j), row r0; the caller closes the loop.
static void strip_loads(pto_emit_t *e, const tl_region_t *dst, const pto_matrix_t *m,
                        const gm_box_t *g, int64_t tile_rows)
{
    int64_t c0n = 32 / tl_dtype_size(dst->buf->dtype);
    pto_line(e, "for (int64_t tl_j = 0; tl_j < %" PRId64 "; tl_j++) {", m->ec / c0n);
    e->indent++;
    pto_line(e,
             "const int64_t tl_sc = tilec_min(tl_vc - tl_j * %" PRId64 ", (int64_t)%" PRId64 ");",
             c0n, c0n);
    pto_line(e, "if (tl_sc <= 0) break;");
    global(e, g, dst->buf->dtype, pto_fmt(e, "%s + tl_j * %" PRId64, g->ptr, c0n), "tl_sc");
    pto_line(e,
             "pto::Tile<pto::TileType::Mat, %s, %" PRId64 ", %" PRId64
             ", pto::BLayout::ColMajor, -1, -1, pto::SLayout::RowMajor, 512, pto::PadValue::Zero> "
             "tl_t((size_t)tl_vr, (size_t)tl_sc);",
             pto_ctype(dst->buf->dtype), tile_rows, c0n);
    pto_line(e,
             "pto::TASSIGN(tl_t, (uintptr_t)(%s + ((%s) / %" PRId64 " + tl_j) * %" PRId64
             " + (%s) * 32));",
             m->addr, m->c0, c0n, m->frows * 32, m->r0);
    pto_line(e, "pto::TLOAD(tl_t, tl_g);");
}

// A load into run-time rows of an L1 matrix from any row: in NZ each 32-byte
// column strip holds the matrix's rows 32 bytes apart, so the block is a run
// of rows in each strip. The CPU check writes exactly the block
// (tilec_l1_rows: pto-isa's CPU TLOAD would fill its tile's static rows
// past the block); the NPU code loads each strip's valid rows (TLOAD of a
// Mat tile over the matrix's rows, valid rows at run time; not verified).
static void l1_rows(pto_emit_t *e, const tl_region_t *dst, const pto_matrix_t *m, const gm_box_t *g,
                    const char *rows)
{
    const char *ct = pto_ctype(dst->buf->dtype);
    pto_line(e, "#if defined(__CPU_SIM)");
    pto_line(e,
             "tilec_l1_rows(TILEC_L1(%s, %s), %" PRId64 ", %s, %s, %s, %" PRId64
             ", %s, %s, tl_vr, tl_vc);",
             ct, m->addr, m->frows, m->r0, m->c0, rows, m->ec, g->ptr, g->ld);
    pto_line(e, "#else");
    strip_loads(e, dst, m, g, m->frows);
    e->indent--;
    pto_line(e, "}");
    pto_line(e, "#endif");
}

// A load into a block of an L1 matrix (NZ: 32-byte column strips of all its
// rows, 16-row fractals down each strip): one TLOAD per strip of the block
// into a [block rows, one strip] Mat tile at that strip's rows, so nothing
// outside the block is written. The block's rows must start and end on
// fractal rows, its columns on strips.
static void l1_block(pto_emit_t *e, const tl_stmt_t *s, const tl_region_t *dst,
                     const pto_matrix_t *m, const gm_box_t *g, const char *dyn_rows)
{
    int size = tl_dtype_size(dst->buf->dtype);
    int64_t c0n = 32 / size;
    const tl_expr_t *r0 = dst->start[dst->ndim - 2], *c0 = dst->start[dst->ndim - 1];
    if (dyn_rows && m->ec % c0n == 0 && multiple_of(c0, c0n)) {
        l1_rows(e, dst, m, g, dyn_rows);
        return;
    }
    if (m->er % 16 || m->ec % c0n || !multiple_of(r0, 16) || !multiple_of(c0, c0n)) {
        pto_unsupported(e, s->loc,
                        "a copy to an L1 block of '%s' whose rows do not start and end on 16-row "
                        "fractals or whose columns not on 32-byte strips",
                        dst->buf->name);
        return;
    }
    strip_loads(e, dst, m, g, m->er);
    pto_line(e, "#if !defined(__CPU_SIM)");
    pto_line(e, "if (tl_vr != %" PRId64 " || tl_sc != %" PRId64 ") pto::TFILLPAD(tl_t, tl_t);",
             m->er, c0n);
    pto_line(e, "#endif");
    e->indent--;
    pto_line(e, "}");
}

// The load of tl_g into the UB tile over v. Where the box is not the region's
// rows x the buffer's row pitch W, the device first sets that much from the
// region's start to the pad value (ir/copy_plan.h): pto-isa's CPU TLOAD fills
// its whole tile, the NPU code fills past the valid part with
// TFILLPAD_INPLACE (not verified). A compact-rows burst (flat) completes its
// last 32-byte block with its first element (DataCopyPad's dummy data): on
// the CPU tilec_dummy_tail, on the NPU a TLOAD without a pad value and the
// fill from the next block on.
static void ub_load(pto_emit_t *e, const tl_stmt_t *s, const pto_view_t *v, bool flat,
                    int64_t limit)
{
    int size = tl_dtype_size(v->buf->dtype);
    const char *ct = pto_ctype(v->buf->dtype);
    int64_t alloc = v->rows == 1 ? pad32(v->cols, size) : v->ld;
    int64_t full = v->rows == 1 ? v->cols : v->ld; // W: the columns the fill covers
    if (flat) {
        pto_line(e, "#if defined(__CPU_SIM)");
        ub_tile(e, s, v, e->pad);
        pto_line(e, "pto::TLOAD(tl_t, tl_g);");
        pto_line(e, "tilec_dummy_tail(TILEC_UB(%s, %s), tl_vc, %" PRId64 ");", ct, v->addr, limit);
        pto_line(e, "#else");
        ub_tile(e, s, v, "Null");
        pto_line(e, "pto::TLOAD(tl_t, tl_g);");
    } else {
        if (!ub_tile(e, s, v, e->pad)) return;
        pto_line(e, "pto::TLOAD(tl_t, tl_g);");
        pto_line(e, "#if !defined(__CPU_SIM)");
    }
    pto_line(e, "if (tl_vr != %" PRId64 " || tl_vc != %" PRId64 ") {", v->rows, full);
    e->indent++;
    const char *src = "tl_t";
    if (flat) { // from the block after the burst's last one
        src = "tl_s";
        pto_line(e,
                 "pto::Tile<pto::TileType::Vec, %s, 1, %" PRId64
                 ", pto::BLayout::RowMajor, -1, -1, pto::SLayout::NoneBox, 512, "
                 "pto::PadValue::%s> tl_s((size_t)1, (size_t)tilec_min((tl_vc + %d) / %d * %d, "
                 "(int64_t)%" PRId64 "));",
                 ct, alloc, e->pad, 32 / size - 1, 32 / size, 32 / size, alloc);
        pto_line(e, "pto::TASSIGN(tl_s, (uintptr_t)(%s));", v->addr);
    }
    pto_line(e,
             "pto::Tile<pto::TileType::Vec, %s, %" PRId64 ", %" PRId64
             ", pto::BLayout::RowMajor, %" PRId64 ", %" PRId64
             ", pto::SLayout::NoneBox, 512, pto::PadValue::%s> tl_f;",
             ct, v->rows, alloc, v->rows, alloc, e->pad);
    pto_line(e, "pto::TASSIGN(tl_f, (uintptr_t)(%s));", v->addr);
    pto_line(e, "pto::TFILLPAD_INPLACE(tl_f, %s);", src);
    e->indent--;
    pto_line(e, "}");
    pto_line(e, "#endif");
}

static void gm_to_onchip(pto_emit_t *e, const tl_stmt_t *s, const tl_region_t *src,
                         const tl_region_t *dst)
{
    pto_view_t v;
    gm_box_t g;
    // A UB region whose last extent is a run-time value n from column 0: the
    // buffer's whole rows, as upstream's DataCopyPad with the buffer's width
    // (exec/tileop_copy.c): n columns of each GM row, the pad value after them.
    tl_region_t whole;
    tl_expr_t width;
    bool dyn = false;
    int nd = dst->ndim;
    int64_t c;
    if (dst->buf->scope == TL_SCOPE_UB && nd >= 1 && dst->extent[nd - 1] &&
        !tl_ir_is_const_int(dst->extent[nd - 1], &c)) {
        if (!tl_ir_is_const_int(dst->start[nd - 1], &c) || c != 0) {
            pto_unsupported(e, s->loc, "a copy into a run-time width of '%s' not from column 0",
                            dst->buf->name);
            return;
        }
        dyn = true;
        width = (tl_expr_t){.kind = TL_EX_INT, .dtype = TL_I32, .i = dst->buf->shape[nd - 1]};
        whole = *dst;
        whole.extent[nd - 1] = &width;
        dst = &whole;
    }
    // An L1 block of run-time rows (upstream's sparse_flash_mla pages:
    // kv_ring[slot, done : done + run, :]): the block as the matrix's rows
    // from its start, the valid rows at run time (l1_block).
    const char *dyn_rows = NULL;
    if (dst->buf->scope == TL_SCOPE_L1 && nd >= 2 && dst->extent[nd - 2] &&
        !tl_ir_is_const_int(dst->extent[nd - 2], &c)) {
        dyn_rows = pto_fmt(e, "(int64_t)(%s)", pto_expr_str(e, dst->extent[nd - 2]));
        width = (tl_expr_t){.kind = TL_EX_INT, .dtype = TL_I32, .i = dst->buf->shape[nd - 2]};
        whole = *dst;
        whole.extent[nd - 2] = &width;
        dst = &whole;
    }
    if (!pto_view(e, dst, &v, s->loc) || !gm_box(e, s, src, dst, &v, &g, dyn || dyn_rows)) return;
    if (src->buf->dtype != dst->buf->dtype) {
        pto_unsupported(e, s->loc, "a copy GM -> %s that changes the dtype",
                        tl_scope_name(dst->buf->scope));
        return;
    }
    if (dst->buf->scope == TL_SCOPE_UB && !pad_value(e, s)) return;
    int64_t limit = 0;
    int flat = dst->buf->scope == TL_SCOPE_UB ? compact_rows(e, s, dst, &v, &g, &limit) : 0;
    if (flat < 0) return;
    pto_line(e, "const int64_t tl_vr = %s, tl_vc = %s;", g.vr, g.vc);
    pto_line(e, "if (tl_vr > 0 && tl_vc > 0) {");
    e->indent++;
    if (dst->buf->scope == TL_SCOPE_UB) {
        global(e, &g, src->buf->dtype, NULL, "tl_vc");
        ub_load(e, s, &v, flat, limit);
    } else {
        const tl_buffer_t *b = dst->buf;
        pto_matrix_t m;
        if (!pto_matrix(e, dst, &m, s->loc)) return;
        if (m.frows % 16 || m.cols * tl_dtype_size(b->dtype) % 32) {
            pto_unsupported(e, s->loc, "a copy to L1 other than to a [16k, 32 B k] matrix");
            return;
        }
        if (!m.whole) {
            l1_block(e, s, dst, &m, &g, dyn_rows);
            e->indent--;
            pto_line(e, "}");
            return;
        }
        global(e, &g, src->buf->dtype, NULL, "tl_vc");
        pto_line(
            e,
            "pto::Tile<pto::TileType::Mat, %s, %" PRId64 ", %" PRId64
            ", pto::BLayout::ColMajor, -1, -1, "
            "pto::SLayout::RowMajor, 512, pto::PadValue::Zero> tl_t((size_t)tl_vr, (size_t)tl_vc);",
            pto_ctype(b->dtype), m.frows, m.cols);
        pto_line(e, "pto::TASSIGN(tl_t, (uintptr_t)(%s));", m.addr);
        pto_line(e, "pto::TLOAD(tl_t, tl_g);");
        pto_line(e, "#if !defined(__CPU_SIM)");
        pto_line(e, "if (tl_vr != %" PRId64 " || tl_vc != %" PRId64 ") pto::TFILLPAD(tl_t, tl_t);",
                 m.frows, m.cols);
        pto_line(e, "#endif");
    }
    e->indent--;
    pto_line(e, "}");
}

// A store from L0C (valid box tl_vr x tl_vc into the GM box g of dtype t). A
// block of columns from a multiple of 16 on, from row 0: the 16-column
// fractal strips (NZ) from that column on are an Acc tile of their own. A
// block of rows from a multiple of 16 (a vector core's half in developer
// mode, c_l0[vid * 16 +: 16, :]): in each strip those rows are one run, so
// each strip is stored from an Acc tile of its own.
// The TSTORE of tl_t into tl_g; int32 -> float16 through the deq scale
// (tilec_store_deq of tilec_pto.h on the CPU, TSTORE's pre-quant scalar on the NPU).
static void l0c_tstore(pto_emit_t *e, const tl_stmt_t *s, tl_dtype_t src, tl_dtype_t t,
                       const char *store)
{
    if (!(src == TL_I32 && t == TL_F16)) {
        pto_line(e, "%s(tl_g, tl_t);", store);
        return;
    }
    const char *scale = e->deq ? "tilec_deq" : "1.0f";
    pto_line(e, "#if defined(__CPU_SIM)");
    pto_line(e, "tilec_store_deq(tl_g, tl_t, %s, %s);", scale,
             s->op.enable_relu ? "true" : "false");
    pto_line(e, "#else");
    pto_line(e, "%s(tl_g, tl_t, tilec_quant_scalar(%s));", store, scale);
    pto_line(e, "#endif");
}

static void l0c_store(pto_emit_t *e, const tl_stmt_t *s, const tl_region_t *src, const gm_box_t *g,
                      tl_dtype_t t, const char *store)
{
    const tl_buffer_t *b = src->buf;
    const char *ct = pto_ctype(b->dtype);
    int size = tl_dtype_size(b->dtype);
    pto_matrix_t m;
    if (!pto_matrix(e, src, &m, s->loc)) return;
    const tl_expr_t *rs = src->start[src->ndim - 2], *cs = src->start[src->ndim - 1];
    int64_t r0 = -1, c0 = -1;
    bool strips =
        tl_ir_is_const_int(cs, &c0) && c0 % 16 == 0 && m.frows % 16 == 0 && m.cols % 16 == 0;
    if (m.whole || (strips && tl_ir_is_const_int(rs, &r0) && r0 == 0 && m.er == m.rows)) {
        if (m.whole) c0 = 0;
        global(e, g, t, NULL, "tl_vc");
        pto_line(e,
                 "pto::TileAcc<%s, %" PRId64 ", %" PRId64
                 ", -1, -1> tl_t((size_t)tl_vr, (size_t)tl_vc);",
                 ct, m.frows, m.cols - c0);
        if (c0)
            pto_line(e, "pto::TASSIGN(tl_t, (uintptr_t)(%s + %" PRId64 "));", m.addr,
                     c0 * m.frows * size);
        else
            pto_line(e, "pto::TASSIGN(tl_t, (uintptr_t)(%s));", m.addr);
        l0c_tstore(e, s, b->dtype, t, store);
        return;
    }
    if (!strips || m.er % 16 || !multiple_of(rs, 16)) {
        pto_unsupported(e, s->loc,
                        "a copy from a part of an L0C matrix of '%s' other than 16-column strips "
                        "from row 0 or 16-row fractals",
                        b->name);
        return;
    }
    pto_line(e, "for (int64_t tl_j = 0; tl_j < %" PRId64 "; tl_j++) {", m.ec / 16);
    e->indent++;
    pto_line(e, "const int64_t tl_sc = tilec_min(tl_vc - tl_j * 16, (int64_t)16);");
    pto_line(e, "if (tl_sc <= 0) break;");
    global(e, g, t, pto_fmt(e, "%s + tl_j * 16", g->ptr), "tl_sc");
    pto_line(e, "pto::TileAcc<%s, %" PRId64 ", 16, -1, -1> tl_t((size_t)tl_vr, (size_t)tl_sc);", ct,
             m.er);
    pto_line(
        e, "pto::TASSIGN(tl_t, (uintptr_t)(%s + (%" PRId64 " + tl_j) * %" PRId64 " + (%s) * %d));",
        m.addr, c0 / 16, m.frows * 16 * size, m.r0, 16 * size);
    l0c_tstore(e, s, b->dtype, t, store);
    e->indent--;
    pto_line(e, "}");
}

// A UB or L0C region whose run-time extents (of its last two dimensions) start
// at 0 and equal the GM box's extents of the matching dimensions, counted from
// the end (upstream's sparse_flash_mla: cL0[cs, :, 0:ncols_a] ->
// workspace_s[..., cb * BI : cb * BI + ncols_a], out_ub[:, 0:tw_a] ->
// workspace_p[..., 0:tw_a], merge_ub[pp, 0:bcnt, :] -> kvMergeGm[..., s : s + bcnt, :]).
static bool runtime_block(const tl_region_t *src, const tl_region_t *dst)
{
    int n = src->ndim, m = dst->ndim;
    bool any = false;
    if (dst->form == TL_REGION_POINT) return false;
    for (int i = 0; i < n; i++) {
        int64_t c, diff;
        if (tl_ir_is_const_int(src->extent[i], NULL)) continue;
        int j = m - (n - i);
        if (i < n - 2 || j < 0 || !tl_ir_is_const_int(src->start[i], &c) || c != 0 ||
            !tl_ir_const_diff(src->extent[i], dst->extent[j], &diff) || diff != 0)
            return false;
        any = true;
    }
    return any;
}

static void onchip_to_gm(pto_emit_t *e, const tl_stmt_t *s, const tl_region_t *src,
                         const tl_region_t *dst, bool atomic)
{
    pto_view_t v;
    gm_box_t g;
    // such a region is the buffer's whole rows / columns there, the GM box's
    // run-time extents the valid ones (the UB tile's rows keep the buffer's pitch)
    tl_region_t block;
    tl_expr_t full[2] = {{.kind = TL_EX_INT, .dtype = TL_I32, .height = 1},
                         {.kind = TL_EX_INT, .dtype = TL_I32, .height = 1}};
    bool dyn = src->buf->scope == TL_SCOPE_L0C;
    if (runtime_block(src, dst)) {
        block = *src;
        for (int k = 0; k < 2 && k < src->ndim; k++) {
            int i = src->ndim - 1 - k;
            if (tl_ir_is_const_int(src->extent[i], NULL)) continue;
            full[k].i = src->buf->shape[i];
            block.extent[i] = &full[k];
        }
        src = &block;
        dyn = true;
    }
    // from L0C, a GM box of run-time columns (upstream's sparse_flash_mla:
    // cL0[cs, :, :] -> workspace_s[..., 0:win_align]) stores that many valid columns
    if (!pto_view(e, src, &v, s->loc) || !gm_box(e, s, dst, src, &v, &g, dyn)) return;
    const tl_buffer_t *b = src->buf;
    const char *store = atomic ? "pto::TSTORE<pto::AtomicType::AtomicAdd>" : "pto::TSTORE";
    // enable_relu (L0C only, tileop_copy.c checks): the store's relu pre-mode
    if (s->op.enable_relu)
        store = atomic ? "pto::TSTORE<decltype(tl_t), decltype(tl_g), "
                         "pto::AtomicType::AtomicAdd, pto::ReluPreMode::NormalRelu>"
                       : "pto::TSTORE<decltype(tl_t), decltype(tl_g), "
                         "pto::AtomicType::AtomicNone, pto::ReluPreMode::NormalRelu>";
    if (b->scope == TL_SCOPE_UB && b->dtype != dst->buf->dtype) {
        pto_unsupported(e, s->loc, "a copy UB -> GM that changes the dtype");
        return;
    }
    if (b->scope == TL_SCOPE_L0C &&
        !(b->dtype == TL_F32 &&
          (dst->buf->dtype == TL_F32 || dst->buf->dtype == TL_F16 || dst->buf->dtype == TL_BF16)) &&
        !(b->dtype == TL_I32 &&
          (dst->buf->dtype == TL_I32 || (dst->buf->dtype == TL_F16 && !atomic)))) {
        pto_unsupported(e, s->loc, "a copy L0C %s -> GM %s", tl_dtype_name(b->dtype),
                        tl_dtype_name(dst->buf->dtype));
        return;
    }
    int64_t limit;
    if (b->scope == TL_SCOPE_UB && compact_rows(e, s, src, &v, &g, &limit) < 0) return;
    pto_line(e, "const int64_t tl_vr = %s, tl_vc = %s;", g.vr, g.vc);
    pto_line(e, "if (tl_vr > 0 && tl_vc > 0) {");
    e->indent++;
    if (b->scope == TL_SCOPE_UB) {
        global(e, &g, dst->buf->dtype, NULL, "tl_vc");
        if (!ub_tile(e, s, &v, "Null")) return;
        pto_line(e, "%s(tl_g, tl_t);", store);
    } else if (b->scope == TL_SCOPE_L0C) {
        l0c_store(e, s, src, &g, dst->buf->dtype, store);
    } else {
        pto_unsupported(e, s->loc, "a copy %s -> GM", tl_scope_name(b->scope));
        return;
    }
    e->indent--;
    pto_line(e, "}");
}

// L1 -> L0A / L0B: TEXTRACT of the region's block of an L1 matrix into a
// whole L0 matrix; transpose reads the L1 bytes as the transposed matrix (NZ
// of A is ZN of A's transpose).
static void l1_to_l0(pto_emit_t *e, const tl_stmt_t *s, const tl_region_t *src,
                     const tl_region_t *dst)
{
    pto_matrix_t ms, md;
    if (!pto_matrix(e, src, &ms, s->loc) || !pto_matrix(e, dst, &md, s->loc)) return;
    bool tr = s->op.transpose;
    if (!md.whole || src->buf->dtype != dst->buf->dtype || (tr ? ms.ec : ms.er) != md.rows ||
        (tr ? ms.er : ms.ec) != md.cols) {
        pto_unsupported(e, s->loc, "a copy L1 -> %s other than a block to a whole matrix",
                        tl_scope_name(dst->buf->scope));
        return;
    }
    // real_k / real_n: only the valid K (L0A: columns, L0B: rows) and N
    // (L0B columns) move, in whole fractals (K in 32 bytes, N in 16s); the
    // rest of the L0 matrix keeps its data
    bool l0b = dst->buf->scope == TL_SCOPE_L0B;
    const char *vr = NULL, *vc = NULL;
    int64_t k0 = 32 / tl_dtype_size(dst->buf->dtype);
    if (s->op.k_valid) {
        const char *vk =
            pto_fmt(e,
                    "tilec_min((int64_t)%" PRId64 ", ((int64_t)(%s) + %" PRId64 ") / %" PRId64
                    " * %" PRId64 ")",
                    l0b ? md.frows : md.cols, pto_expr_str(e, s->op.k_valid), k0 - 1, k0, k0);
        *(l0b ? &vr : &vc) = vk;
    }
    if (s->op.n_valid && l0b)
        vc = pto_fmt(e, "tilec_min((int64_t)%" PRId64 ", ((int64_t)(%s) + 15) / 16 * 16)", md.cols,
                     pto_expr_str(e, s->op.n_valid));
    pto_mat_tile(e, "tl_m", &ms, tr);
    if (vr || vc) {
        pto_line(e, "const int64_t tl_vr = %s, tl_vc = %s;",
                 vr ? vr : pto_fmt(e, "%" PRId64, md.frows),
                 vc ? vc : pto_fmt(e, "%" PRId64, md.cols));
        pto_line(e, "if (tl_vr > 0 && tl_vc > 0) {");
        e->indent++;
        vr = "tl_vr", vc = "tl_vc";
    }
    pto_l0_tile(e, "tl_l0", dst->buf->scope, dst->buf->dtype, md.frows, md.cols, md.addr, vr, vc);
    pto_line(e, "pto::TEXTRACT(tl_l0, tl_m, (uint16_t)(%s), (uint16_t)(%s));", tr ? ms.c0 : ms.r0,
             tr ? ms.r0 : ms.c0);
    if (vr) {
        e->indent--;
        pto_line(e, "}");
    }
}

void pto_emit_copy(pto_emit_t *e, const tl_stmt_t *s)
{
    const tl_region_t *a = &s->op.args[0].region, *b = &s->op.args[1].region;
    bool atomic = s->op.code == TL_OP_ATOMIC_ADD;
    // T.copy(src, dst); atomic_add(dst, src)
    const tl_region_t *src = atomic ? b : a, *dst = atomic ? a : b;
    tl_scope_t ss = src->buf->scope, ds = dst->buf->scope;
    if (s->op.exact && ss != TL_SCOPE_L1 && ss != TL_SCOPE_L0C) {
        // npuir's copy rule (ir/copy_plan.h): exactly the regions, any alignment
        pto_unsupported(e, s->loc, "T.copy in an npuir kernel (npuir's copy rule: exactly its regions, "
                                   "at any alignment, is not lowered to PTO)");
        return;
    }
    if (ss == TL_SCOPE_UB && ds == TL_SCOPE_UB && !atomic) {
        pto_emit_vec(e, s);
        return;
    }
    pto_line(e, "{");
    e->indent++;
    if (ss == TL_SCOPE_GM && (ds == TL_SCOPE_UB || ds == TL_SCOPE_L1) && !atomic)
        gm_to_onchip(e, s, src, dst);
    else if ((ss == TL_SCOPE_UB || ss == TL_SCOPE_L0C) && ds == TL_SCOPE_GM)
        onchip_to_gm(e, s, src, dst, atomic);
    else if (ss == TL_SCOPE_L1 && (ds == TL_SCOPE_L0A || ds == TL_SCOPE_L0B) && !atomic)
        l1_to_l0(e, s, src, dst);
    else
        pto_unsupported(e, s->loc, "%s %s -> %s", atomic ? "T.tile.atomic_add" : "T.copy",
                        tl_scope_name(ss), tl_scope_name(ds));
    e->indent--;
    pto_line(e, "}");
}
