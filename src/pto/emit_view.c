// On-chip operands as PTO tiles: a region of a planned buffer seen as rows of
// elements with the buffer's row pitch, and the UB tile types over it.
//
// PTO-ISA's Vec tiles (ND, RowMajor) need rows of a multiple of 32 bytes and
// column tiles (DN, ColMajor) a multiple of 32 bytes of rows: a flat span is
// one row padded to 32 bytes, a per-row vector one column padded likewise.
// The padding is never touched by the ops (their valid shape excludes it).
#include <inttypes.h>

#include "pto/pto_int.h"

static int64_t pad32(int64_t n, int size)
{
    int64_t per = 32 / size;
    return (n + per - 1) / per * per;
}

bool pto_view(pto_emit_t *e, const tl_region_t *r, pto_view_t *v, tl_loc_t loc)
{
    const tl_buffer_t *b = r->buf;
    int n = r->ndim;
    int64_t ext[TL_MAX_DIMS];
    for (int i = 0; i < n; i++)
        if (!tl_ir_is_const_int(r->extent[i], &ext[i])) {
            pto_unsupported(e, loc, "a region of '%s' with a run-time extent", b->name);
            return false;
        }
    *v = (pto_view_t){.buf = b};
    // the start as an element offset (constant when it can be)
    tl_buf_t off;
    tl_buf_init(&off);
    int64_t coff = 0;
    bool constant = true;
    for (int i = 0; i < n; i++) {
        int64_t stride = 1, s;
        for (int j = i + 1; j < n; j++) stride *= b->shape[j];
        if (tl_ir_is_const_int(r->start[i], &s)) {
            coff += s * stride;
        } else {
            constant = false;
            tl_buf_puts(&off, " + (");
            pto_expr(e, &off, r->start[i]);
            tl_buf_printf(&off, ") * %" PRId64, stride);
        }
    }
    int size = tl_dtype_size(b->dtype);
    if (constant)
        v->addr = pto_fmt(e, "%" PRId64, b->addr + coff * size);
    else
        v->addr = pto_fmt(e, "%" PRId64 " + (%" PRId64 "%s) * %d", b->addr, coff, tl_buf_cstr(&off),
                          size);
    tl_buf_free(&off);
    if (n == 1) {
        v->rows = 1, v->cols = ext[0], v->ld = b->shape[0];
        return true;
    }
    v->cols = ext[n - 1], v->ld = b->shape[n - 1], v->rows = 1;
    for (int j = 0; j < n - 1; j++) {
        v->rows *= ext[j];
        if (ext[j] > 1)
            for (int m = j + 1; m < n - 1; m++)
                if (ext[m] != b->shape[m]) {
                    pto_unsupported(e, loc, "a region of '%s' that is not a block of rows",
                                    b->name);
                    return false;
                }
    }
    return true;
}

bool pto_matrix(pto_emit_t *e, const tl_region_t *r, pto_matrix_t *m, tl_loc_t loc)
{
    const tl_buffer_t *b = r->buf;
    int n = r->ndim;
    int64_t ext[TL_MAX_DIMS], c;
    for (int i = 0; i < n; i++)
        if (!tl_ir_is_const_int(r->extent[i], &ext[i]) || (i < n - 2 && ext[i] != 1)) {
            pto_unsupported(e, loc, "a region of '%s' that is not a block of one of its matrices",
                            b->name);
            return false;
        }
    if (n < 2) {
        pto_unsupported(e, loc, "a %d-dimensional %s buffer '%s'", n, tl_scope_name(b->scope),
                        b->name);
        return false;
    }
    *m = (pto_matrix_t){.buf = b,
                        .rows = b->shape[n - 2],
                        .cols = b->shape[n - 1],
                        .frows = tl_buffer_planned_rows(e->k, b)};
    int64_t msize = m->frows * m->cols * tl_dtype_size(b->dtype), stride = 1, cslot = 0;
    tl_buf_t slot;
    tl_buf_init(&slot);
    for (int i = n - 3; i >= 0; i--) {
        if (tl_ir_is_const_int(r->start[i], &c))
            cslot += c * stride;
        else
            tl_buf_printf(&slot, " + (%s) * %" PRId64, pto_expr_str(e, r->start[i]), stride);
        stride *= b->shape[i];
    }
    if (slot.len)
        m->addr = pto_fmt(e, "%" PRId64 " + (%" PRId64 "%s) * %" PRId64, b->addr, cslot,
                          tl_buf_cstr(&slot), msize);
    else
        m->addr = pto_fmt(e, "%" PRId64, b->addr + cslot * msize);
    tl_buf_free(&slot);
    m->r0 = pto_expr_str(e, r->start[n - 2]);
    m->c0 = pto_expr_str(e, r->start[n - 1]);
    m->er = ext[n - 2], m->ec = ext[n - 1];
    int64_t s0, s1;
    m->whole = tl_ir_is_const_int(r->start[n - 2], &s0) && s0 == 0 &&
               tl_ir_is_const_int(r->start[n - 1], &s1) && s1 == 0 && m->er == m->rows &&
               m->ec == m->cols;
    return true;
}

void pto_mat_tile(pto_emit_t *e, const char *name, const pto_matrix_t *m, bool transposed)
{
    const char *ct = pto_ctype(m->buf->dtype);
    int64_t R = transposed ? m->cols : m->frows, C = transposed ? m->frows : m->cols;
    pto_line(e,
             "pto::Tile<pto::TileType::Mat, %s, %" PRId64 ", %" PRId64
             ", pto::BLayout::%s, %" PRId64 ", %" PRId64 ", pto::SLayout::%s, 512> %s;",
             ct, R, C, transposed ? "RowMajor" : "ColMajor", R, C,
             transposed ? "ColMajor" : "RowMajor", name);
    pto_line(e, "pto::TASSIGN(%s, (uintptr_t)(%s));", name, m->addr);
}

void pto_l0_tile(pto_emit_t *e, const char *name, tl_scope_t scope, tl_dtype_t t, int64_t rows,
                 int64_t cols, const char *addr, const char *vr, const char *vc)
{
    bool left = scope == TL_SCOPE_L0A, dyn = vr || vc;
    const char *kind = left ? "Left" : "Right", *fr = left ? "RowMajor" : "ColMajor";
    if (dyn)
        pto_line(e,
                 "pto::Tile<pto::TileType::%s, %s, %" PRId64 ", %" PRId64
                 ", pto::BLayout::RowMajor, -1, -1, pto::SLayout::%s, 512> %s((size_t)(%s), "
                 "(size_t)(%s));",
                 kind, pto_ctype(t), rows, cols, fr, name, vr ? vr : pto_fmt(e, "%" PRId64, rows),
                 vc ? vc : pto_fmt(e, "%" PRId64, cols));
    else
        pto_line(e,
                 "pto::Tile<pto::TileType::%s, %s, %" PRId64 ", %" PRId64
                 ", pto::BLayout::RowMajor, %" PRId64 ", %" PRId64 ", pto::SLayout::%s, 512> %s;",
                 kind, pto_ctype(t), rows, cols, rows, cols, fr, name);
    pto_line(e, "pto::TASSIGN(%s, (uintptr_t)(%s));", name, addr);
}

bool pto_view_contiguous(const pto_view_t *v)
{
    return v->rows == 1 || v->cols == v->ld;
}

void pto_vec_tile(pto_emit_t *e, const char *name, const pto_view_t *v, bool flat)
{
    const char *ct = pto_ctype(v->buf->dtype);
    int size = tl_dtype_size(v->buf->dtype);
    int64_t rows = flat ? 1 : v->rows, n = flat ? v->rows * v->cols : v->cols;
    int64_t alloc = flat ? pad32(n, size) : v->ld;
    if (v->vcols)
        pto_line(e,
                 "pto::Tile<pto::TileType::Vec, %s, %" PRId64 ", %" PRId64
                 ", pto::BLayout::RowMajor, -1, -1> "
                 "%s((size_t)%" PRId64 ", (size_t)(%s));",
                 ct, rows, alloc, name, rows, v->vcols);
    else
        pto_line(e,
                 "pto::Tile<pto::TileType::Vec, %s, %" PRId64 ", %" PRId64
                 ", pto::BLayout::RowMajor, %" PRId64 ", %" PRId64 "> %s;",
                 ct, rows, alloc, rows, n, name);
    pto_line(e, "pto::TASSIGN(%s, (uintptr_t)(%s));", name, v->addr);
}

void pto_col_tile(pto_emit_t *e, const char *name, const pto_view_t *v, int64_t n)
{
    const char *ct = pto_ctype(v->buf->dtype);
    int size = tl_dtype_size(v->buf->dtype);
    pto_line(e,
             "pto::Tile<pto::TileType::Vec, %s, %" PRId64 ", 1, pto::BLayout::ColMajor, %" PRId64
             ", 1> %s;",
             ct, pad32(n, size), n, name);
    pto_line(e, "pto::TASSIGN(%s, (uintptr_t)(%s));", name, v->addr);
}
