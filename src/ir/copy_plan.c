// Copy shapes as the device moves them (see copy_plan.h).
#include "ir/copy_plan.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

enum { BLOCK = 32, FRACTAL_ROWS = 16 };

typedef struct {
    const tl_copy_side_t *s;
    const char *name; // "the source" / "the destination", for messages
    int64_t n;        // elements of the region (-1: not known)
    int64_t run;      // its contiguous prefix (elements), -1 when not known
} side_t;

static bool fail(char *why, size_t cap, const char *fmt, ...) TL_PRINTF(3, 4);

static bool fail(char *why, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (why && cap) vsnprintf(why, cap, fmt, ap);
    va_end(ap);
    return false;
}

static int64_t stride(const tl_copy_side_t *s, int d)
{
    if (!s->shape) return -1;
    int64_t m = 1;
    for (int i = d + 1; i < s->ndim; i++) m *= s->shape[i];
    return m;
}

static int64_t origin(const tl_copy_side_t *s)
{
    if (!s->start || !s->shape) return -1;
    int64_t o = 0;
    for (int d = 0; d < s->ndim; d++) o += s->start[d] * stride(s, d);
    return o;
}

static void init_side(side_t *v, const tl_copy_side_t *s, const char *name)
{
    v->s = s;
    v->name = name;
    v->n = 1;
    for (int d = 0; d < s->ndim; d++) v->n = s->ext[d] < 0 || v->n < 0 ? -1 : v->n * s->ext[d];
    // the contiguous prefix: the last extent, times the extents before it while
    // every dimension after them is whole
    v->run = -1;
    if (!s->shape || v->n < 0) return;
    int d = s->ndim - 1;
    v->run = s->ext[d];
    while (d > 0 && s->ext[d] == s->shape[d]) v->run *= s->ext[--d];
}

static const char *scope_of(const side_t *v)
{
    return tl_scope_name(v->s->scope);
}

// Dimensions 0 .. upto-1 of the region have extent 1 (unknown extents do not).
static bool leading_unit(const side_t *v, int upto, char *why, size_t cap)
{
    for (int d = 0; d < upto; d++)
        if (v->s->ext[d] != 1)
            return fail(why, cap,
                        "%s (%s) has extent %" PRId64 " in dimension %d; the device moves the "
                        "rows and columns of its last two dimensions only",
                        v->name, scope_of(v), v->s->ext[d], d);
    return true;
}

// The region stays inside its (on-chip) buffer, when its start is known.
static bool inside(const side_t *v, char *why, size_t cap)
{
    const tl_copy_side_t *s = v->s;
    if (!s->start || !s->shape) return true;
    for (int d = 0; d < s->ndim; d++)
        if (s->start[d] < 0 || (s->ext[d] >= 0 && s->start[d] + s->ext[d] > s->shape[d]))
            return fail(why, cap,
                        "%s (%s) runs past its buffer: dimension %d from %" PRId64 " with "
                        "extent %" PRId64 " of %" PRId64,
                        v->name, scope_of(v), d, s->start[d], s->ext[d], s->shape[d]);
    return true;
}

// The GM side: rows x columns (upstream's two active dimensions). `fold`: a
// GM <-> UB copy, whose leading dimensions of extent > 1 fold into the rows
// when the region is memory-uniform there (tilelang-ascend #1231): each of
// them after the first whole (start 0, the tensor's extent) with only
// dimensions of size 1 between them, so that one row stride steps through
// all their rows; the outermost is the one clipped at the tensor's edge.
static bool gm_box(const side_t *v, int i, bool fold, tl_copy_plan_t *p, char *why, size_t cap)
{
    const tl_copy_side_t *s = v->s;
    int n = s->ndim, cdim = n - 1, act[TL_MAX_DIMS], na = 0;
    for (int d = 0; d < n - 1; d++)
        if (s->ext[d] != 1) act[na++] = d;
    p->fold[i] = 1;
    p->active[i] = na + 1;
    if (na >= 2 && !fold)
        return fail(why, cap,
                    "the device moves one box of rows x columns from a GM region (its last "
                    "dimension, and its last other dimension of extent > 1): dimension %d "
                    "of %s (extent %" PRId64 ") would not be moved; copy it in parts",
                    act[0], v->name, s->ext[act[0]]);
    int rdim = na ? act[0] : n >= 2 ? n - 2 : -1;
    int64_t rows = rdim >= 0 ? s->ext[rdim] : 1, rs = rdim >= 0 ? stride(s, rdim) : 0;
    if (na >= 2) {
        if (!s->shape)
            return fail(why, cap, "%s (GM): its shape is needed to fold its dimensions",
                        v->name);
        for (int k = 1; k < na; k++) {
            int da = act[k - 1], db = act[k];
            bool whole = s->ext[db] >= 0 && stride(s, da) == s->ext[db] * stride(s, db) &&
                         (!s->start || s->start[db] == 0);
            if (!whole)
                return fail(why, cap,
                            "Cannot flatten non-contiguous high-rank Ascend GM<->UB copy: %s "
                            "(GM) has %d active dims (extent > 1) besides its columns, and "
                            "dimension %d (from %" PRId64 ", extent %" PRId64 " of %" PRId64
                            ") is not whole rows after dimension %d, so one row stride does not "
                            "step through them; copy it in parts",
                            v->name, na, db, s->start ? s->start[db] : 0, s->ext[db],
                            s->shape[db], da);
            rows = rows < 0 ? -1 : rows * s->ext[db];
            p->fold[i] *= s->ext[db];
        }
        rs = stride(s, act[na - 1]);
    }
    p->rows = rows;
    p->cols = s->ext[cdim];
    p->row_dim[i] = rdim;
    p->col_dim[i] = cdim;
    p->rs[i] = rs;
    p->cs[i] = 1;
    p->o[i] = origin(s);
    return true;
}

// The r-th row (of `width` elements) of the region starts r * width elements
// after its start: the region's rows are the buffer's, one after another.
static bool rows_linear(const side_t *v, int64_t rows, int64_t width)
{
    const tl_copy_side_t *s = v->s;
    for (int64_t r = 1; r < rows; r++) {
        int64_t q = r, off = 0;
        for (int d = s->ndim - 2; d >= 0; d--) {
            int64_t e = s->ext[d] > 0 ? s->ext[d] : 1;
            off += (q % e) * stride(s, d);
            q /= e;
        }
        if (q || off != r * width) return false;
    }
    return true;
}

int64_t tl_copy_plan_pitch(tl_dtype_t t, int64_t width, int64_t cols)
{
    if (width < 0 || cols < 0 || cols > width) return -1;
    return width * tl_dtype_size(t) % BLOCK == 0 || cols == width ? width : -1;
}

// Extents of dimensions 0 .. n-2 of a region other than 1 (a high-rank region).
static int leading_active(const tl_copy_side_t *s)
{
    int k = 0;
    for (int d = 0; d < s->ndim - 1; d++) k += s->ext[d] != 1;
    return k;
}

// The UB side of a GM <-> UB copy (DataCopyPad) of rows x cols, the GM side's
// plan (index 1 - i) done; `into`: GM -> UB (then the fill and the rows'
// last blocks).
static bool ub_rows(const side_t *v, int i, bool into, tl_copy_plan_t *p, char *why, size_t cap)
{
    const tl_copy_side_t *s = v->s;
    int n = s->ndim, sz = tl_dtype_size(s->dtype), g = 1 - i;
    int64_t rows = p->rows, cols = p->cols;
    // the physical row pitch: the buffer's last dimension (a 1-D buffer: the
    // region's extent, as the helper's template argument)
    int64_t width = n >= 2 || s->dyn_cols ? s->shape[n - 1] : s->ext[n - 1];
    int64_t rcols = s->dyn_cols ? width : s->ext[n - 1]; // the region's columns
    if (!inside(v, why, cap)) return false;
    p->width = width;
    p->o[i] = origin(s);
    if (p->o[i] >= 0 && p->o[i] * sz % BLOCK)
        return fail(why, cap,
                    "%s (UB) starts at byte %" PRId64 " of its buffer, not a multiple of 32 "
                    "(the device's UB address of a GM copy must be)",
                    v->name, p->o[i] * sz);
    // the UB region's rows (the helper's dstM)
    int64_t urows = s->ext[n - 1] > 0 && v->n >= 0 ? v->n / s->ext[n - 1] : -1;
    if (rows > 1 || rows < 0) {
        int folded = p->active[g] - 1;
        if (cols >= 0 && rcols >= 0 && cols > rcols)
            return fail(why, cap,
                        "the GM rows (%" PRId64 " elements) are longer than the rows of %s (UB, "
                        "%" PRId64 "): the device lays each GM row on one UB row",
                        cols, v->name, rcols);
        if (rows >= 0 && urows >= 0 && rows > urows) {
            if (folded >= 2)
                return fail(why, cap,
                            "the GM region's %d active dims (extent > 1) fold into %" PRId64
                            " rows of %" PRId64 " elements, but %s (UB) holds only %" PRId64
                            " row(s): the device would move them all",
                            folded + 1, rows, cols, v->name, urows);
            return fail(why, cap,
                        "the GM box has %" PRId64 " rows, %s (UB) holds only %" PRId64
                        " row(s) of %" PRId64 " elements",
                        rows, v->name, urows, rcols);
        }
        if (width * sz % BLOCK) {
            // the GM rows' stride (a developer-mode path's GM workspace: contiguous rows)
            int64_t gs = p->active[g] ? p->rs[g] : cols;
            bool high = folded >= 2 || leading_active(s) >= 2;
            if (high)
                return fail(why, cap,
                            "high-rank GM<->UB copies require a 32-byte aligned UB row pitch: "
                            "the rows of %s are %" PRId64 " B (%" PRId64 " elements) and the "
                            "device puts each moved row at a 32-byte boundary",
                            v->name, width * sz, width);
            if (cols != width || gs != cols) {
                if (gs < 0 && cols == width) // the GM shape is not known (the static check)
                    return fail(why, cap, "the GM rows' stride is needed");
                return fail(why, cap,
                            "%scopies of several rows with a non-32-byte-aligned UB row pitch "
                            "require compact full rows: the rows of %s are %" PRId64 " B, and "
                            "the device moves them as one burst only when the box is their "
                            "whole width (here %" PRId64 " of %" PRId64 " elements) and the GM "
                            "rows follow one another (here %" PRId64 " elements apart); else "
                            "it %s each row %s a 32-byte boundary. Pad the tile's rows to 32 "
                            "bytes",
                            cols * sz < BLOCK ? "Unsupported strided sub-32B copy: " : "",
                            v->name, width * sz, cols, width, gs, into ? "puts" : "reads",
                            into ? "at" : "from");
            }
            p->flat = true;
        }
        if (rows > 0 && !rows_linear(v, rows, width))
            return fail(why, cap,
                        "the device lays the %" PRId64 " GM rows in UB %" PRId64
                        " elements apart (the buffer's row pitch), but the rows of %s are "
                        "not: the kernel would read rows from the wrong place",
                        rows, width, v->name);
        p->rs[i] = width;
    } else {
        // an empty box (a runtime row count of 0) moves nothing: its UB region
        // holds no elements, which is no misuse
        if (rows != 0 && cols >= 0 && v->run >= 0 && cols > v->run)
            return fail(why, cap,
                        "the device moves the GM row (%" PRId64 " elements) as one run from the "
                        "start of %s (UB), whose first %" PRId64 " elements only are one run",
                        cols, v->name, v->run);
        p->rs[i] = 0;
    }
    p->cs[i] = 1;
    if (!into) return true;
    // the pad fill (Duplicate, 16- and 32-bit types) of M x W elements from
    // the region's start, and the rows' last blocks
    int64_t full_rows = n < 2 ? 1 : urows;
    if (n >= 2 && s->dyn_rows) { // the buffer's rows there (the helper's template argument)
        full_rows = s->shape[n - 2];
        for (int d = 0; d < n - 2; d++) full_rows = s->ext[d] < 0 ? -1 : full_rows * s->ext[d];
    }
    p->full_rows = full_rows;
    p->full_cols = width;
    p->fill = (sz == 2 || sz == 4) && width >= 0 && full_rows >= 0 ? full_rows * width : 0;
    int64_t room = -1;
    if (s->shape && p->o[i] >= 0) {
        room = 1;
        for (int d = 0; d < n; d++) room *= s->shape[d];
        room -= p->o[i];
    }
    p->fill_past = p->fill && room >= 0 && p->fill > room;
    if (p->fill_past && (rows != full_rows || cols != width) && rows >= 0 && cols >= 0)
        return tl_copy_plan_fill_text(p, why, cap), false;
    // Each row's last 32-byte block is completed (tl_copy_plan_tail) even past
    // the region: the device writes those elements (the next row's first ones
    // of a compact tile, which a copy of that row then overwrites); past the
    // buffer's last element it is the allocation's padding.
    return true;
}

const char *tl_copy_plan_fill_text(const tl_copy_plan_t *p, char *buf, size_t cap)
{
    snprintf(buf, cap,
             "a GM -> UB copy whose box is not %" PRId64 " x %" PRId64 " (clipped, or smaller than "
             "the destination's rows x the buffer's row pitch) first sets %" PRId64 " elements "
             "from the destination's start to the pad value (Duplicate), and they run past the "
             "end of its buffer",
             p->full_rows, p->full_cols, p->fill);
    return buf;
}

// An L1 / L0C side of rows x cols at the rows and columns of its last two
// dimensions (zN / NZ fractals: the column start a whole fractal).
static bool tile_rows(const side_t *v, int i, int64_t rows, int64_t cols, int64_t col_align,
                      tl_copy_plan_t *p, char *why, size_t cap)
{
    const tl_copy_side_t *s = v->s;
    int n = s->ndim;
    if (!inside(v, why, cap) || !leading_unit(v, n - 2, why, cap)) return false;
    int64_t rr = n >= 2 ? s->ext[n - 2] : 1, rc = s->ext[n - 1];
    if (!s->point && ((rows >= 0 && rr >= 0 && rows > rr) || (cols >= 0 && rc >= 0 && cols > rc)))
        return fail(why, cap,
                    "the box of %" PRId64 " x %" PRId64 " does not fit %s (%s, %" PRId64
                    " x %" PRId64 "): the device writes its rows and columns in place",
                    rows, cols, v->name, scope_of(v), rr, rc);
    if (s->start && s->start[n - 1] % col_align)
        return fail(why, cap,
                    "%s (%s) starts at column %" PRId64 ", not a multiple of %" PRId64
                    " (a whole fractal of the device's layout)",
                    v->name, scope_of(v), s->start[n - 1], col_align);
    p->o[i] = origin(s);
    p->rs[i] = s->shape[n - 1];
    p->cs[i] = 1;
    return true;
}

// Its box (rows x cols of its last two dimensions) of an on-chip region
// whose leading dimensions are 1.
static bool own_box(const side_t *v, int64_t *rows, int64_t *cols, char *why, size_t cap)
{
    int n = v->s->ndim;
    if (!leading_unit(v, n - 2, why, cap)) return false;
    *rows = n >= 2 ? v->s->ext[n - 2] : 1;
    *cols = v->s->ext[n - 1];
    return true;
}

static bool l1_to_l0(const side_t *a, const side_t *b, bool transpose, tl_copy_plan_t *p, char *why,
                     size_t cap)
{
    const tl_copy_side_t *l1 = a->s, *l0 = b->s;
    int n0 = l0->ndim, n1 = l1->ndim;
    int64_t m = n0 >= 2 ? l0->shape[n0 - 2] : 1, k = l0->shape[n0 - 1];
    if (!inside(b, why, cap) || !leading_unit(b, n0 - 2, why, cap)) return false;
    if ((n0 >= 2 && l0->ext[n0 - 2] != m) || l0->ext[n0 - 1] != k)
        return fail(why, cap,
                    "the device moves the whole %s tile (%" PRId64 " x %" PRId64 ", the buffer's "
                    "last two dimensions) from the L1 region's start; %s is a part of it",
                    tl_scope_name(l0->scope), m, k, b->name);
    p->rows = m;
    p->cols = k;
    p->o[1] = origin(l0);
    p->rs[1] = k;
    p->cs[1] = 1;
    int64_t col_align = BLOCK / tl_dtype_size(l1->dtype);
    int64_t need_r = transpose ? k : m, need_c = transpose ? m : k;
    if (!tile_rows(a, 0, need_r, need_c, col_align, p, why, cap)) return false;
    // The L1 rows are whole fractals of the L0 tile: 16 rows of M or N, or
    // of K (the rows of an L0B tile, the columns of a transposed L0A one) the
    // K fractal of the dtype, 8 for a 4-byte one (asc-devkit Mmad: a float
    // matrix's K is aligned to ceil(K / 8) * 8 in L0A / L0B, kDirectionAlign
    // false, A2 / A3's default).
    bool k_rows = (l0->scope == TL_SCOPE_L0B) != transpose;
    int64_t row_align = k_rows && tl_dtype_size(l1->dtype) == 4 ? 8 : FRACTAL_ROWS;
    if (l1->start && (n1 >= 2 ? l1->start[n1 - 2] : 0) % row_align)
        return fail(why, cap,
                    "%s (L1) starts at row %" PRId64 ", not a multiple of %" PRId64
                    " (the device loads whole fractals into %s)",
                    a->name, l1->start[n1 - 2], row_align, tl_scope_name(l0->scope));
    if (l1->start && l1->shape) // the box inside the buffer (a start point's region is the box)
        if ((n1 >= 2 ? l1->start[n1 - 2] : 0) + need_r > (n1 >= 2 ? l1->shape[n1 - 2] : 1) ||
            l1->start[n1 - 1] + need_c > l1->shape[n1 - 1])
            return fail(why, cap, "the %s tile read from %s (L1) runs past its buffer",
                        tl_scope_name(l0->scope), a->name);
    if (transpose) { // element (r, c) of the tile is L1's (c, r)
        p->cs[0] = p->rs[0];
        p->rs[0] = 1;
    }
    return true;
}

static bool ub_to_ub(const side_t *a, const side_t *b, tl_copy_plan_t *p, char *why, size_t cap)
{
    const tl_copy_side_t *s = a->s, *d = b->s;
    int ns = s->ndim, nd = d->ndim, ssz = tl_dtype_size(s->dtype), dsz = tl_dtype_size(d->dtype);
    if (!inside(a, why, cap) || !inside(b, why, cap)) return false;
    p->o[0] = origin(s);
    p->o[1] = origin(d);
    for (int i = 0; i < 2; i++) {
        int sz = i ? dsz : ssz;
        if (p->o[i] >= 0 && p->o[i] * sz % BLOCK)
            return fail(why, cap,
                        "%s (UB) starts at byte %" PRId64 " of its buffer, not a multiple of 32 "
                        "(vector instructions need 32-byte aligned operands)",
                        i ? b->name : a->name, p->o[i] * sz);
    }
    bool same = s->dtype == d->dtype;
    int64_t ws = s->shape[ns - 1], wd = d->shape[nd - 1];
    p->cs[0] = p->cs[1] = 1;
    if (s->ext[ns - 1] == ws && d->ext[nd - 1] == wd) { // one run of the destination's count
        if (a->n >= 0 && b->n >= 0 && a->n != b->n)
            return fail(why, cap,
                        "the device copies the destination's %" PRId64 " elements as one run "
                        "from the source, which has %" PRId64,
                        b->n, a->n);
        const side_t *nc = a->run != a->n ? a : b->run != b->n ? b : NULL;
        if (nc)
            return fail(why, cap,
                        "the device copies one run of %" PRId64 " elements, but %s (UB) is not "
                        "one run (its first %" PRId64 " elements are)",
                        b->n, nc->name, nc->run);
        p->rows = 1;
        p->cols = b->n;
        p->rs[0] = p->rs[1] = 0;
    } else { // rows of the source's last extent at both buffers' row pitches
        if (!leading_unit(a, ns - 2, why, cap) || !leading_unit(b, nd - 2, why, cap)) return false;
        p->rows = ns >= 2 ? s->ext[ns - 2] : 1;
        p->cols = s->ext[ns - 1];
        int64_t dr = nd >= 2 ? d->ext[nd - 2] : 1, dc = d->ext[nd - 1];
        if (p->rows > dr || p->cols > dc)
            return fail(why, cap,
                        "the device writes %" PRId64 " rows of %" PRId64 " elements at the "
                        "destination's row pitch, but the destination region is %" PRId64
                        " x %" PRId64,
                        p->rows, p->cols, dr, dc);
        p->rs[0] = ws;
        p->rs[1] = wd;
        if (p->rows > 1 && (ws * ssz % BLOCK || wd * dsz % BLOCK))
            return fail(why, cap,
                        "the device copies row by row, and rows %" PRId64 " B and %" PRId64
                        " B apart are not all 32-byte aligned (vector operands must be)",
                        ws * ssz, wd * dsz);
    }
    if (same && p->cols * ssz % BLOCK)
        return fail(why, cap,
                    "DataCopy moves whole 32-byte blocks: a run of %" PRId64
                    " %s elements (%" PRId64 " B) would be cut to %" PRId64
                    " (make it a multiple of %d elements)",
                    p->cols, tl_dtype_name(s->dtype), p->cols * ssz,
                    p->cols * ssz / BLOCK * BLOCK / ssz, BLOCK / ssz);
    return true;
}

void tl_copy_point_extents(int ndim, const int64_t *other, int other_ndim, int64_t *out)
{
    for (int i = 0; i < ndim; i++) {
        int j = i - (ndim - other_ndim);
        out[i] = j >= 0 ? other[j] : 1;
    }
}

tl_copy_tail_t tl_copy_plan_tail(const tl_copy_plan_t *p, tl_dtype_t t, int64_t cols, int64_t *end)
{
    int sz = tl_dtype_size(t);
    *end = cols;
    if (cols <= 0 || cols * sz % BLOCK == 0) return TL_COPY_TAIL_NONE;
    *end = (cols * sz + BLOCK - 1) / BLOCK * BLOCK / sz;
    return p->flat || cols == p->full_cols ? TL_COPY_TAIL_FIRST : TL_COPY_TAIL_PAD;
}

// The dimensions of extent > 1 of a side, and their element strides.
static int squeeze(const tl_copy_side_t *s, int64_t *ext, int64_t *st)
{
    int k = 0;
    for (int d = 0; d < s->ndim; d++)
        if (s->ext[d] != 1) ext[k] = s->ext[d], st[k++] = stride(s, d);
    return k;
}

static void print_dims(char *buf, size_t cap, const int64_t *ext, int k)
{
    size_t n = (size_t)snprintf(buf, cap, "%s", k ? "" : "1");
    for (int i = 0; i < k && n < cap; i++) n += (size_t)snprintf(buf + n, cap - n, "%s%" PRId64, i ? " x " : "", ext[i]);
}

// npuir's copy (the `exact` rule, copy_plan.h).
static bool exact_plan(const side_t *a, const side_t *b, tl_copy_plan_t *p, char *why, size_t cap)
{
    const side_t *v[2] = {a, b};
    int64_t ext[2][TL_MAX_DIMS], st[2][TL_MAX_DIMS];
    int k[2];
    for (int i = 0; i < 2; i++) {
        const tl_copy_side_t *s = v[i]->s;
        if (v[i]->n < 0) return fail(why, cap, "npuir copy: %s's extents are needed", v[i]->name);
        if (s->start && s->shape)
            for (int d = 0; d < s->ndim; d++)
                if (s->start[d] < 0 || s->start[d] + s->ext[d] > s->shape[d])
                    return fail(why, cap,
                                "%s (%s) runs past its %s: dimension %d from %" PRId64 " with extent %" PRId64
                                " of %" PRId64 " (an npuir copy moves its regions exactly, unclipped)",
                                v[i]->name, scope_of(v[i]), s->scope == TL_SCOPE_GM ? "tensor" : "buffer", d,
                                s->start[d], s->ext[d], s->shape[d]);
        k[i] = squeeze(s, ext[i], st[i]);
    }
    bool same = k[0] == k[1];
    for (int d = 0; same && d < k[0]; d++) same = ext[0][d] == ext[1][d];
    if (!same) {
        char sa[96], sb[96];
        print_dims(sa, sizeof sa, ext[0], k[0]);
        print_dims(sb, sizeof sb, ext[1], k[1]);
        return fail(why, cap,
                    "npuir's copy moves its regions element by element: their shapes without unit "
                    "dimensions must agree, here %s vs %s",
                    sa, sb);
    }
    // merge the dimensions contiguous on both sides, innermost first
    int64_t ge[TL_MAX_DIMS], gs[2][TL_MAX_DIMS];
    int ng = 0;
    for (int d = k[0] - 1; d >= 0; d--) {
        if (st[0][d] < 0 || st[1][d] < 0) return fail(why, cap, "npuir copy: the shapes are needed");
        if (ng && st[0][d] == gs[0][ng - 1] * ge[ng - 1] && st[1][d] == gs[1][ng - 1] * ge[ng - 1]) {
            ge[ng - 1] *= ext[0][d]; // the group keeps its element stride
            continue;
        }
        ge[ng] = ext[0][d], gs[0][ng] = st[0][d], gs[1][ng] = st[1][d];
        ng++;
    }
    if (ng > 2)
        return fail(why, cap,
                    "npuir copy: tilec moves a box of rows x columns, and these regions have %d dimensions "
                    "that are not contiguous on both sides; copy it in parts",
                    ng);
    p->cols = ng ? ge[0] : 1;
    p->rows = ng > 1 ? ge[1] : 1;
    for (int i = 0; i < 2; i++) {
        p->o[i] = origin(v[i]->s);
        p->cs[i] = ng ? gs[i][0] : 1;
        p->rs[i] = ng > 1 ? gs[i][1] : 0;
    }
    p->full_rows = p->rows;
    p->full_cols = p->cols;
    return true;
}

bool tl_copy_plan(const tl_copy_side_t *src, const tl_copy_side_t *dst, bool transpose,
                  tl_copy_plan_t *p, char *why, size_t cap)
{
    memset(p, 0, sizeof *p);
    p->row_dim[0] = p->row_dim[1] = p->col_dim[0] = p->col_dim[1] = -1;
    p->o[0] = p->o[1] = -1;
    p->fold[0] = p->fold[1] = 1;
    // a start point's extents from the other operand (the front end's rule;
    // again here, as passes may have changed the other's)
    tl_copy_side_t ps, pd;
    int64_t pe[TL_MAX_DIMS];
    if (src->point && !dst->point) {
        ps = *src;
        tl_copy_point_extents(src->ndim, dst->ext, dst->ndim, pe);
        ps.ext = pe;
        src = &ps;
    } else if (dst->point && !src->point) {
        pd = *dst;
        tl_copy_point_extents(dst->ndim, src->ext, src->ndim, pe);
        pd.ext = pe;
        dst = &pd;
    }
    side_t a, b;
    init_side(&a, src, "the source");
    init_side(&b, dst, "the destination");
    tl_scope_t s = src->scope, d = dst->scope;
    if ((src->exact || dst->exact) && !transpose &&
        ((s == TL_SCOPE_GM && d == TL_SCOPE_UB) || (s == TL_SCOPE_UB && d == TL_SCOPE_GM) ||
         (s == TL_SCOPE_UB && d == TL_SCOPE_UB)))
        return exact_plan(&a, &b, p, why, cap);
    if (s == TL_SCOPE_GM && d == TL_SCOPE_UB)
        return gm_box(&a, 0, true, p, why, cap) && ub_rows(&b, 1, true, p, why, cap);
    if (s == TL_SCOPE_UB && d == TL_SCOPE_GM)
        return gm_box(&b, 1, true, p, why, cap) && ub_rows(&a, 0, false, p, why, cap);
    if (s == TL_SCOPE_GM && d == TL_SCOPE_L1) {
        if (!gm_box(&a, 0, false, p, why, cap) ||
            !tile_rows(&b, 1, p->rows, p->cols, BLOCK / tl_dtype_size(dst->dtype), p, why, cap))
            return false;
        int n = dst->ndim;
        p->full_rows = n >= 2 ? dst->shape[n - 2] : 1;
        p->full_cols = dst->shape[n - 1];
        // upstream's need_clear: the copy starts at a whole tile of the buffer
        // (its element offset a multiple of the tile's, known at run time)
        int64_t tile = p->full_rows * p->full_cols;
        p->fill = tile > 0 && p->o[1] >= 0 && p->o[1] % tile == 0 ? tile : 0;
        p->fill_zero = true;
        return true;
    }
    if (s == TL_SCOPE_L0C && d == TL_SCOPE_GM)
        return gm_box(&b, 1, false, p, why, cap) &&
               tile_rows(&a, 0, p->rows, p->cols, FRACTAL_ROWS, p, why, cap);
    if (s == TL_SCOPE_L1 && (d == TL_SCOPE_L0A || d == TL_SCOPE_L0B))
        return l1_to_l0(&a, &b, transpose, p, why, cap);
    if (s == TL_SCOPE_UB && d == TL_SCOPE_UB) return ub_to_ub(&a, &b, p, why, cap);
    if (s == TL_SCOPE_L0C && d == TL_SCOPE_UB) { // L0C -> GM workspace -> UB
        return own_box(&a, &p->rows, &p->cols, why, cap) &&
               tile_rows(&a, 0, p->rows, p->cols, FRACTAL_ROWS, p, why, cap) &&
               ub_rows(&b, 1, true, p, why, cap);
    }
    if (s == TL_SCOPE_UB && d == TL_SCOPE_L1) { // UB -> GM workspace -> L1
        return own_box(&a, &p->rows, &p->cols, why, cap) && ub_rows(&a, 0, false, p, why, cap) &&
               tile_rows(&b, 1, p->rows, p->cols, BLOCK / tl_dtype_size(dst->dtype), p, why, cap);
    }
    return fail(why, cap, "copy from %s to %s is not a legal data path", tl_scope_name(s),
                tl_scope_name(d));
}
