// GM <-> UB copies as inline code (see cgen.h). A T.copy between a GM tensor
// and the lane's own UB, of one dtype, without transpose, ReLU or pad value,
// whose extents are constants and whose UB start ranges are known to keep it
// inside its buffer, is planned when the C is generated: the dimensions it
// moves and both sides' extents come from the tile-op library's own layout
// (tl_tileop_copy_layout), and its innermost moved dimension must be the last
// dimension of both sides (rows of contiguous bytes). At run time only the
// GM starts are checked (non-negative; a unit dimension's start inside the
// tensor) and the box clipped at the tensor's shape, as the library does;
// any other start falls back to the runtime call, which reports the error.
//
// What runs is the library's copy: a clipped GM -> UB copy first zero-fills
// its destination region, rows move with memcpy (UB and GM never overlap),
// UB -> GM rows into tensors of TL_COPY_STREAM_BYTES or more with streaming
// stores and a fence after the copy. Whole-buffer copies of read-only inputs
// into UB buffers that only inline loops read are elided when they can be,
// and their region prefetched (see "UB buffers read in place" below).
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "cpu/cgen.h"
#include "exec/tileop.h"
#include "ir/access.h"

typedef struct {
    const tl_region_t *r;
    int at;             // index of its first start in the op's n[] array
    const int64_t *ext; // its region extents (a start point's inferred)
    const int *map;     // its dimension per moved dimension (-1: none)
    const int64_t *mext;
} side_t;

// Element stride of dimension d of buffer b as C text (GM: from the run's shape).
static void stride_text(tl_buf_t *t, const tl_buffer_t *b, int d)
{
    if (b->scope != TL_SCOPE_GM) {
        int64_t s = 1;
        for (int i = d + 1; i < b->ndim; i++) s *= b->shape[i];
        tl_buf_printf(t, "INT64_C(%" PRId64 ")", s);
        return;
    }
    tl_buf_puts(t, "INT64_C(1)");
    for (int i = d + 1; i < b->ndim; i++) tl_buf_printf(t, " * G%d_%d", b->id, i);
}

// The byte address of a side's region origin as C text.
static char *origin_text(const tl_cgen_t *g, const side_t *s)
{
    const tl_buffer_t *b = s->r->buf;
    tl_buf_t t;
    tl_buf_init(&t);
    if (b->scope == TL_SCOPE_GM)
        tl_buf_printf(&t, "G%d + (", b->id);
    else
        tl_buf_printf(&t, "M%d_%d + INT64_C(%" PRId64 ") + (", g->lane, (int)TL_SCOPE_UB,
                      g->addr[b->id]);
    for (int d = 0; d < b->ndim; d++) {
        tl_buf_printf(&t, "%sn[%d] * ", d ? " + " : "", s->at + d);
        stride_text(&t, b, d);
    }
    tl_buf_printf(&t, ") * %d", tl_dtype_size(b->dtype));
    return tl_buf_take(&t);
}

// Whether the GM side's region is one run of the tensor (after its first
// dimension of extent > 1, every extent the tensor's), as a C condition.
static char *contiguous(const side_t *gm)
{
    const tl_buffer_t *b = gm->r->buf;
    tl_buf_t t;
    tl_buf_init(&t);
    tl_buf_puts(&t, "1");
    int d = 0;
    while (d < b->ndim && gm->ext[d] <= 1) d++;
    for (d++; d < b->ndim; d++)
        tl_buf_printf(&t, " && G%d_%d == INT64_C(%" PRId64 ")", b->id, d, gm->ext[d]);
    return tl_buf_take(&t);
}

// Zero-fills the UB destination region at its start with extents ext, as the
// library's fill_region does (one memset when the region is whole rows).
static void fill_zero(tl_cgen_t *g, const side_t *u)
{
    const tl_buffer_t *b = u->r->buf;
    int nd = b->ndim, sz = tl_dtype_size(b->dtype);
    for (int d = 0; d < nd; d++)
        if (u->ext[d] <= 0) return;
    int first = 0;
    while (first < nd - 1 && u->ext[first] == 1) first++;
    bool run = true;
    int64_t total = u->ext[first];
    for (int d = first + 1; d < nd; d++) run &= u->ext[d] == b->shape[d], total *= u->ext[d];
    char *o = origin_text(g, u);
    if (run) {
        tl_cgen_line(g, "memset(%s, 0, %" PRId64 ");", o, total * sz);
        free(o);
        return;
    }
    tl_buf_t off;
    tl_buf_init(&off);
    for (int d = 0; d < nd - 1; d++) {
        tl_cgen_line(g, "for (int64_t f%d = 0; f%d < INT64_C(%" PRId64 "); f%d++)", d, d, u->ext[d],
                     d);
        tl_buf_printf(&off, "%sf%d * ", d ? " + " : "", d);
        stride_text(&off, b, d);
    }
    tl_cgen_line(g, "    memset(%s + (%s) * %d, 0, %" PRId64 ");", o,
                 off.len ? tl_buf_cstr(&off) : "0", sz, u->ext[nd - 1] * sz);
    tl_buf_free(&off);
    free(o);
}

// The views of the copy as far as they are known when the C is generated
// (extents; zero starts), for tl_tileop_copy_layout. False when an extent is
// not a constant.
static bool static_call(const tl_cgen_t *g, const tl_op_t *op, tl_opcall_t *call)
{
    memset(call, 0, sizeof *call);
    call->op = op;
    call->nargs = 2;
    for (int i = 0; i < 2; i++) {
        const tl_region_t *r = &op->args[i].region;
        tl_view_t *v = &call->args[i].view;
        call->args[i].is_view = true;
        v->dtype = r->buf->dtype;
        v->scope = r->buf->scope;
        v->ndim = r->ndim;
        v->form = r->form;
        v->name = r->buf->name;
        for (int d = 0; d < r->ndim; d++)
            if (!tl_cgen_const(g, r->extent[d], &v->extent[d]) || v->extent[d] < 0) return false;
    }
    return true;
}

// Whether the copy qualifies (see the top of the file); fills the sides.
static bool analyse(tl_cgen_t *g, const tl_op_t *op, tl_copy_layout_t *l, side_t *gm, side_t *ub)
{
    if (op->code != TL_OP_COPY || op->nargs != 2 || op->transpose || op->enable_relu ||
        op->pad_value || op->args[0].kind != TL_ARG_REGION || op->args[1].kind != TL_ARG_REGION)
        return false;
    const tl_region_t *src = &op->args[0].region, *dst = &op->args[1].region;
    bool down = src->buf->scope == TL_SCOPE_GM && dst->buf->scope == TL_SCOPE_UB;
    bool up = src->buf->scope == TL_SCOPE_UB && dst->buf->scope == TL_SCOPE_GM;
    bool vec_lane = g->dev ? g->lane != (int)TL_AGENT_AIC : g->lane == 1;
    if (!(down || up) || !vec_lane || src->buf->dtype != dst->buf->dtype || src->ndim < 1 ||
        dst->ndim < 1 || src->ndim > TL_MAX_DIMS || dst->ndim > TL_MAX_DIMS)
        return false;
    tl_opcall_t call;
    if (!static_call(g, op, &call) || !tl_tileop_copy_layout(&call, l)) return false;
    *gm = (side_t){down ? src : dst, down ? 0 : 2 * src->ndim, down ? l->src_ext : l->dst_ext,
                   down ? l->smap : l->dmap, down ? l->sext : l->dext};
    *ub = (side_t){down ? dst : src, down ? 2 * src->ndim : 0, down ? l->dst_ext : l->src_ext,
                   down ? l->dmap : l->smap, down ? l->dext : l->sext};
    const tl_buffer_t *b = ub->r->buf;
    if (g->addr[b->id] < 0) return false;
    for (int d = 0; d < b->ndim; d++) {
        tl_cgen_range_t r = tl_cgen_range(g, ub->r->start[d]);
        if (!r.known || r.lo < 0 || r.hi + ub->ext[d] > b->shape[d]) return false;
    }
    // rows of contiguous bytes on both sides
    return l->k == 0 ||
           (gm->map[l->k - 1] == gm->r->buf->ndim - 1 && ub->map[l->k - 1] == ub->r->buf->ndim - 1);
}

// Emits `if (the run-time checks of the GM view pass) {` (pre: a condition
// to test first, or NULL) and the box b<i>, clipped at the tensor; `part`
// says when it is smaller than the destination region, `all` when it is not
// empty (C conditions).
static void open_box(tl_cgen_t *g, const tl_copy_layout_t *l, const side_t *gm, const side_t *ub,
                     const char *pre, tl_buf_t *part, tl_buf_t *all)
{
    const tl_buffer_t *gb = gm->r->buf;
    int k = l->k ? l->k : 1;
    // the run-time checks of the GM view (check_view, check_bounds)
    tl_buf_t c;
    tl_buf_init(&c);
    if (pre) tl_buf_printf(&c, "%s && ", pre);
    for (int d = 0; d < gb->ndim; d++) {
        tl_buf_printf(&c, "%sn[%d] >= 0", d ? " && " : "", gm->at + d);
        if (gm->ext[d] == 1) tl_buf_printf(&c, " && n[%d] < G%d_%d", gm->at + d, gb->id, d);
    }
    tl_cgen_line(g, "if (%s) {", tl_buf_cstr(&c));
    tl_buf_free(&c);
    g->indent++;
    tl_buf_init(part);
    tl_buf_init(all);
    for (int i = 0; i < k; i++) {
        int64_t ge = l->k ? gm->mext[i] : 1, ue = l->k ? ub->mext[i] : 1;
        int64_t de = l->k ? l->dext[i] : 1;
        int m = l->k ? gm->map[i] : -1;
        if (m >= 0)
            tl_cgen_line(g,
                         "const int64_t b%d = tlc_clip(G%d_%d - n[%d], INT64_C(%" PRId64
                         "), INT64_C(%" PRId64 "));",
                         i, gb->id, m, gm->at + m, ge, ue);
        else
            tl_cgen_line(g, "const int64_t b%d = INT64_C(%" PRId64 ");", i, TL_MIN(ge, ue));
        tl_buf_printf(part, "%sb%d < INT64_C(%" PRId64 ")", i ? " || " : "", i, de);
        tl_buf_printf(all, "%sb%d > 0", i ? " && " : "", i);
    }
}

// The C condition that a copy into GM tensor b streams (TL_COPY_STREAM_BYTES).
static char *big_text(const tl_buffer_t *b)
{
    tl_buf_t n;
    tl_buf_init(&n);
    tl_buf_printf(&n, "INT64_C(%d)", tl_dtype_size(b->dtype));
    for (int d = 0; d < b->ndim; d++) tl_buf_printf(&n, " * G%d_%d", b->id, d);
    tl_buf_printf(&n, " >= INT64_C(%d)", (int)TL_COPY_STREAM_BYTES);
    return tl_buf_take(&n);
}

// Narrow rows (NARROW_ROW_BYTES or fewer) move in an inline loop of
// fixed-size copies when the row is not clipped: a memcpy call per row of 16
// bytes cost more than the bytes. A GM -> UB copy then zeroes only what the
// rows leave of its region (the padding after each row, the rows past the
// clipped ones) instead of all of it first; that needs the region to be the
// moved rows and columns alone.
enum { NARROW_ROW_BYTES = 64 };

static int64_t narrow_row(const tl_copy_layout_t *l, const side_t *gm, const side_t *ub, bool down,
                          int sz)
{
    int k = l->k, r = k - 2;
    if (k < 1 || k > 2) return 0;
    int64_t w = TL_MIN(gm->mext[k - 1], ub->mext[k - 1]);
    if (w < 1 || w * sz > NARROW_ROW_BYTES) return 0;
    if (!down) return w;
    const tl_buffer_t *b = ub->r->buf;
    int nd = b->ndim;
    for (int d = 0; d < nd; d++) {
        int64_t want = d == ub->map[k - 1]         ? l->dext[k - 1]
                       : r >= 0 && d == ub->map[r] ? l->dext[r]
                                                   : 1;
        if (ub->ext[d] != want) return 0;
    }
    return w;
}

// `if (whole) { the rows, each a fixed-size copy, then (GM -> UB) the zeros } else {`
static void narrow_loop(tl_cgen_t *g, const tl_copy_layout_t *l, bool down, int sz, int64_t w,
                        const char *whole, const char *rows, const char *ds, const char *ss)
{
    int k = l->k;
    int64_t dw = l->dext[k - 1], dr = k >= 2 ? l->dext[k - 2] : 1;
    tl_cgen_line(g, "if (%s) {", whole);
    g->indent++;
    tl_cgen_line(g, "for (int64_t r_ = 0; r_ < %s; r_++) {", rows);
    tl_cgen_line(g, "    memcpy(d_ + r_ * (%s), s_ + r_ * (%s), %" PRId64 ");", ds, ss, w * sz);
    if (down && dw > w)
        tl_cgen_line(g, "    memset(d_ + r_ * (%s) + %" PRId64 ", 0, %" PRId64 ");", ds, w * sz,
                     (dw - w) * sz);
    tl_cgen_line(g, "}");
    if (down && k >= 2)
        tl_cgen_line(g,
                     "for (int64_t r_ = %s; r_ < INT64_C(%" PRId64
                     "); r_++) memset(d_ + r_ * (%s), 0, %" PRId64 ");",
                     rows, dr, ds, dw * sz);
    g->indent--;
    tl_cgen_line(g, "} else {");
}

bool tl_cgen_copy(tl_cgen_t *g, const tl_stmt_t *s)
{
    tl_copy_layout_t l;
    side_t gm, ub;
    if (s->kind != TL_ST_OP || !analyse(g, &s->op, &l, &gm, &ub)) return false;
    const tl_buffer_t *gb = gm.r->buf;
    bool down = gm.at == 0;
    int sz = tl_dtype_size(gb->dtype), k = l.k ? l.k : 1;
    int64_t narrow = narrow_row(&l, &gm, &ub, down, sz);
    char whole[96] = "0", rows[16] = "1"; // the row not clipped; the rows moved
    if (narrow) snprintf(whole, sizeof whole, "b%d == INT64_C(%" PRId64 ")", k - 1, narrow);
    if (l.k >= 2) snprintf(rows, sizeof rows, "b%d", l.k - 2);
    tl_buf_t part, all;
    open_box(g, &l, &gm, &ub, NULL, &part, &all);
    const tl_buffer_t *vb = ub.r->buf;
    bool view = down && g->ubview && g->ubview[vb->id];
    if (view) { // unclipped, from contiguous GM: the buffer is read there
        char *so = origin_text(g, &gm), *cont = contiguous(&gm);
        tl_cgen_line(g, "if (!(%s) && %s) {", tl_buf_cstr(&part), cont);
        tl_cgen_line(g, "    V%d_%d = (uint8_t *)(%s);", vb->id, g->lane, so);
        tl_cgen_line(g, "    tlc_pf_box(&Q, V%d_%d, %" PRId64 ");", vb->id, g->lane,
                     tl_buffer_bytes(vb));
        tl_cgen_line(g, "} else {");
        g->indent++;
        tl_cgen_line(g, "V%d_%d = M%d_%d + INT64_C(%" PRId64 ");", vb->id, g->lane, g->lane,
                     (int)TL_SCOPE_UB, g->addr[vb->id]);
        free(so);
        free(cont);
    }
    if (down) { // a narrow row loop zeroes what it leaves itself
        if (narrow)
            tl_cgen_line(g, "if ((%s) && !(%s && %s > 0)) {", tl_buf_cstr(&part), whole, rows);
        else
            tl_cgen_line(g, "if (%s) {", tl_buf_cstr(&part));
        g->indent++;
        fill_zero(g, &ub);
        g->indent--;
        tl_cgen_line(g, "}");
    }
    tl_cgen_line(g, "if (%s) {", tl_buf_cstr(&all));
    tl_buf_free(&part);
    tl_buf_free(&all);
    g->indent++;
    side_t *from = down ? &gm : &ub, *to = down ? &ub : &gm;
    char *so = origin_text(g, from), *dof = origin_text(g, to);
    tl_cgen_line(g, "const uint8_t *const s_ = %s;", so);
    tl_cgen_line(g, "uint8_t *const d_ = %s;", dof);
    free(so);
    free(dof);
    if (!down) {
        char *big = big_text(gb);
        tl_cgen_line(g, "const int big_ = %s;", big);
        free(big);
    }
    // rows of the last two moved dimensions in one call (tlc_rows), loops
    // over the others
    tl_buf_t so_, do_;
    tl_buf_init(&so_);
    tl_buf_init(&do_);
    tl_buf_puts(&so_, "0");
    tl_buf_puts(&do_, "0");
    int outer = l.k > 2 ? l.k - 2 : 0, r = l.k >= 2 ? l.k - 2 : -1;
    for (int i = 0; i < outer; i++) {
        tl_cgen_line(g, "for (int64_t i%d = 0; i%d < b%d; i%d++)", i, i, i, i);
        g->indent++;
        const tl_buffer_t *fb = from->r->buf, *tb = to->r->buf;
        if (from->map[i] >= 0) {
            tl_buf_printf(&so_, " + i%d * ", i);
            stride_text(&so_, fb, from->map[i]);
        }
        if (to->map[i] >= 0) {
            tl_buf_printf(&do_, " + i%d * ", i);
            stride_text(&do_, tb, to->map[i]);
        }
    }
    tl_buf_t ss, ds;
    tl_buf_init(&ss);
    tl_buf_init(&ds);
    tl_buf_puts(&ss, "0");
    tl_buf_puts(&ds, "0");
    if (r >= 0 && from->map[r] >= 0) {
        tl_buf_printf(&ss, " + %d * ", sz);
        stride_text(&ss, from->r->buf, from->map[r]);
    }
    if (r >= 0 && to->map[r] >= 0) {
        tl_buf_printf(&ds, " + %d * ", sz);
        stride_text(&ds, to->r->buf, to->map[r]);
    }
    if (narrow) {
        narrow_loop(g, &l, down, sz, narrow, whole, rows, tl_buf_cstr(&ds), tl_buf_cstr(&ss));
        g->indent++;
    }
    tl_cgen_line(g, "tlc_rows(d_ + (%s) * %d, %s, s_ + (%s) * %d, %s, %s, b%d * %d, %s);",
                 tl_buf_cstr(&do_), sz, tl_buf_cstr(&ds), tl_buf_cstr(&so_), sz, tl_buf_cstr(&ss),
                 rows, k - 1, sz, down ? "0" : "big_");
    if (narrow) {
        g->indent--;
        tl_cgen_line(g, "}");
    }
    tl_buf_free(&so_);
    tl_buf_free(&do_);
    tl_buf_free(&ss);
    tl_buf_free(&ds);
    g->indent -= outer;
    g->indent--;
    tl_cgen_line(g, "}");
    if (view) {
        g->indent--;
        tl_cgen_line(g, "}");
    }
    g->indent--;
    tl_cgen_line(g, "} else {");
    g->indent++;
    if (view)
        tl_cgen_line(g, "V%d_%d = M%d_%d + INT64_C(%" PRId64 ");", vb->id, g->lane, g->lane,
                     (int)TL_SCOPE_UB, g->addr[vb->id]);
    return true;
}

// --- UB buffers read in place -------------------------------------------------------------
//
// A UB buffer whose every write is an inline whole-buffer copy of a GM input
// that the kernel never writes, and whose every read is an op of an inline
// loop, is not written by those copies when they are not clipped and their
// GM region is contiguous: the loops read the tensor in place through the
// lane's pointer V<id>_<lane> (else it points at the buffer, after the copy
// ran). The same values: the input does not change during the run, and
// nothing else reads the buffer. A buffer that shares scratchpad bytes with
// another is left alone (its copies would be the other's writes). The copy
// queues the region for prefetch (tlc_pf_box), as the loops read it next.

enum { USE_OTHER = 1, USE_COPY = 2 };

// Whether s is a whole-buffer copy of a read-only input into UB (that qualifies inline).
static bool view_copy(tl_cgen_t *g, const tl_stmt_t *s)
{
    tl_copy_layout_t l;
    side_t gm, ub;
    if (s->kind != TL_ST_OP || !analyse(g, &s->op, &l, &gm, &ub) || gm.at != 0 ||
        !g->ro[gm.r->buf->id])
        return false;
    const tl_buffer_t *b = ub.r->buf;
    for (int d = 0; d < b->ndim; d++) {
        int64_t v;
        if (!tl_cgen_const(g, ub.r->start[d], &v) || v != 0 || ub.ext[d] != b->shape[d])
            return false;
    }
    return true;
}

static void on_use(void *arg, const tl_access_t *a)
{
    uint8_t *use = arg;
    if (a->buf->scope == TL_SCOPE_UB) use[a->buf->id] |= USE_OTHER;
}

void tl_cgen_view_use(tl_cgen_t *g, const tl_stmt_t *s)
{
    if (view_copy(g, s))
        g->ubuse[s->op.args[1].region.buf->id] |= USE_COPY;
    else
        tl_access_stmt(s, on_use, g->ubuse);
}

void tl_cgen_view_write(tl_cgen_t *g, const tl_buffer_t *b)
{
    g->ubuse[b->id] |= USE_OTHER;
}

void tl_cgen_view_plan(tl_cgen_t *g)
{
    const tl_kernel_t *k = g->k;
    g->ubview = calloc((size_t)k->buffers.len + 1, 1);
    if (!g->ubview) {
        g->st = TL_ERR_NOMEM;
        return;
    }
    for (int i = 0; i < k->buffers.len; i++) {
        const tl_buffer_t *b = k->buffers.items[i];
        int64_t at = g->addr[i], end = at + tl_buffer_bytes(b);
        if (b->scope != TL_SCOPE_UB || g->ubuse[i] != USE_COPY || at < 0) continue;
        bool alone = true;
        for (int j = 0; j < k->buffers.len; j++) {
            const tl_buffer_t *o = k->buffers.items[j];
            int64_t oa = g->addr[j];
            if (j != i && o->scope == TL_SCOPE_UB && oa < end && at < oa + tl_buffer_bytes(o))
                alone = false;
        }
        g->ubview[i] = alone;
        g->views |= alone;
    }
}

void tl_cgen_ub_base(const tl_cgen_t *g, tl_buf_t *out, const tl_buffer_t *b)
{
    if (g->ubview && g->ubview[b->id])
        tl_buf_printf(out, "V%d_%d", b->id, g->lane);
    else
        tl_buf_printf(out, "(M%d_%d + INT64_C(%" PRId64 "))", g->lane, (int)TL_SCOPE_UB,
                      g->addr[b->id]);
}

// --- UB buffers written in place ----------------------------------------------------------
//
// The mirror of reading in place: an inline loop that writes the whole of a
// UB buffer whose next reader copies it whole to GM (and nothing reads it
// after that copy) stores straight into the copy's GM region when the region
// is one unclipped run, and the copy is not run; cgen_fuse.c says when a
// loop may. The buffer and the region hold the bytes in the same order: the
// buffer is the copy's whole source, and every moved dimension has the same
// extent on both sides. Index expressions without loads have the same value
// before the loop as at the copy (the statements between them assign no
// variables).

bool tl_cgen_copy_out(tl_cgen_t *g, const tl_stmt_t *s, const tl_buffer_t *b)
{
    tl_copy_layout_t l;
    side_t gm, ub;
    if (s->kind != TL_ST_OP || !analyse(g, &s->op, &l, &gm, &ub) || gm.at == 0 || ub.r->buf != b)
        return false;
    for (int i = 0; i < 2; i++) {
        const tl_region_t *r = &s->op.args[i].region;
        for (int d = 0; d < r->ndim; d++)
            if (!tl_cgen_pure(r->start[d]) || !tl_cgen_pure(r->extent[d])) return false;
    }
    for (int d = 0; d < b->ndim; d++) {
        int64_t v;
        if (!tl_cgen_const(g, ub.r->start[d], &v) || v != 0 || ub.ext[d] != b->shape[d])
            return false;
    }
    for (int i = 0; i < l.k; i++)
        if (ub.mext[i] != gm.mext[i]) return false;
    return true;
}

void tl_cgen_copy_out_target(tl_cgen_t *g, const tl_stmt_t *s, int id, int align)
{
    tl_copy_layout_t l;
    side_t gm, ub;
    analyse(g, &s->op, &l, &gm, &ub);
    tl_buf_t base;
    tl_buf_init(&base);
    tl_cgen_ub_base(g, &base, ub.r->buf);
    tl_cgen_line(g, "uint8_t *W%d = %s;", id, tl_buf_cstr(&base));
    tl_buf_free(&base);
    tl_cgen_line(g, "int W%d_t = 0, W%d_s = 0;", id, id);
    tl_cgen_line(g, "(void)W%d_s;", id);
    // an error is the copy's to report: it runs then
    tl_cgen_line(g, "if (!E.site) {");
    g->indent++;
    char *nums = tl_cgen_op_nums(g, &s->op);
    tl_cgen_line(g, "const int64_t n[] = {%s0};", nums);
    free(nums);
    g->checked = false;
    tl_buf_t part, all;
    open_box(g, &l, &gm, &ub, "!E.site", &part, &all);
    char *so = origin_text(g, &gm), *cont = contiguous(&gm), *big = big_text(gm.r->buf);
    tl_cgen_line(g, "if (!(%s) && %s) {", tl_buf_cstr(&part), cont);
    tl_cgen_line(g, "    W%d = (uint8_t *)(%s);", id, so);
    tl_cgen_line(g, "    W%d_t = 1;", id);
    tl_cgen_line(g, "    W%d_s = (%s) && ((uintptr_t)W%d & %du) == 0;", id, big, id, align - 1);
    tl_cgen_line(g, "}");
    free(so);
    free(cont);
    free(big);
    tl_buf_free(&part);
    tl_buf_free(&all);
    g->indent--;
    tl_cgen_line(g, "}");
    tl_cgen_line(g, "E.site = 0;");
    g->indent--;
    tl_cgen_line(g, "}");
}
