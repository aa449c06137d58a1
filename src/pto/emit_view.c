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
