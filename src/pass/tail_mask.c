// tail_mask (every pipeline, only with TL_ASCEND_TAIL_MASK): upstream's opt-in
// tail-block scheme (the newest tilelang-ascend's AscendTailMaskPropagation,
// run right after LowerTileOp). A GM -> UB copy records in its destination the
// valid rectangle it loaded: rows x columns of the GM box (the copy's own rule,
// copy_plan.h), each clipped at the tensor's shape, in a tile of the buffer's
// last two dimensions. The record follows the data in program text order
// (loop bodies and both branches once, no merging): UB -> UB copies and casts
// pass it on, and the ops upstream rewrites compute over the rectangle only,
// leaving the rest of their destination untouched:
// - exp, ln, abs, reciprocal, sqrt, rsqrt, relu; add, sub, mul, div, max, min
//   of two tiles (their valid rectangles' intersection); add, mul, max, min
//   with an immediate scalar (not a bare variable nor a buffer element: those
//   are upstream's pointer forms) -- each when its element count is the tile's,
//   its dtype a float one, and its valid extents are in scope;
// - reduce_sum / max / min across rows (dim 0) of a float32 tile into a
//   float32 row of the tile's width with clear=True: out[c] for c < valid cols
//   is src[0][c] * 1 then combined with each further valid row, one float32
//   step per row (upstream's tail_reduce_*); the output then has the valid
//   columns. Any other reduction clears its output's record.
// - broadcast from a tracked source whose tile is its shape into a 2-D
//   float16 / float32 destination (upstream's tail_broadcast): the valid rows
//   (or columns) carry along the broadcast axis, narrowed by the box of the
//   destination's last UB -> GM copy (upstream's output hints).
// - compare of float16 / float32 tail tiles into a packed uint8 mask and
//   select with such a mask (upstream's tail_compare / tail_select).
// A rewritten op becomes `for r in [0, rows): op on row r's first cols
// elements` under `if rows > 0 and cols > 0`, so that every target runs it.
// A tail compare's mask and a tail broadcast's [M, 1] source get one 32-byte
// block a row (slot_rows), as upstream's memory planning gives them.
// Not modelled, each with a warning at the op: other compares / selects of a
// tail tile, T.Parallel loops that touch one (upstream lowers them to vector
// ops first), and an operand laid out other than as the tile's rows.
// Requires: physical scopes, upstream's program order (dev_order); T.Parallel
// not lowered yet. Ensures: no op of the kernel reads or writes outside the
// valid rectangles upstream's pass would give it.
#include "pass/pass.h"

#include <stdio.h>
#include <stdlib.h>

#include "ir/walk.h"
#include "pass/rewrite.h"

typedef struct {
    bool tracked;    // the buffer has a record (a full one has tail = false)
    bool tail;       // not provably the whole tile
    bool packed;     // a tail compare's packed mask (rows, cols: its data's)
    tl_expr_t *rows; // valid rows and columns (run-time expressions)
    tl_expr_t *cols;
    int64_t prow, pcol; // the tile: the buffer's last two dimensions
} tmask_t;

typedef struct {
    tl_kernel_t *k;
    tl_diag_t *diag;
    tmask_t *state; // by buffer id
    tmask_t *hint;  // by buffer id: collect_hint
    bool *in_scope; // by var id: loop and let variables defined here
    bool *ranged;   // by var id: lo/hi known
    int64_t *lo, *hi;
    int64_t *width; // by buffer id: the last dimension as written (0: not slotted)
    int loops;      // loop variables made so far (for their names)
} tm_t;

// --- what is known about index expressions ------------------------------------------

// The least (want_max false) or largest value of an integer expression, from
// the known ranges of its variables; false when it cannot tell.
static bool bound(const tm_t *t, const tl_expr_t *e, bool want_max, int64_t *out)
{
    tl_linear_t l;
    if (!tl_ir_linear(e, &l)) return false;
    int64_t v = l.c;
    for (int i = 0; i < l.n; i++) {
        const tl_expr_t *term = l.terms[i];
        if (term->kind != TL_EX_VAR || !t->ranged[term->var->id]) return false;
        bool hi = (l.coefs[i] > 0) == want_max;
        v += l.coefs[i] * (hi ? t->hi[term->var->id] : t->lo[term->var->id]);
    }
    *out = v;
    return true;
}

static bool walk_scoped(void *arg, const tl_expr_t *e)
{
    const tm_t *t = ((const void **)arg)[0];
    bool *ok = ((void **)arg)[1];
    if (e->kind == TL_EX_VAR && (e->var->kind == TL_VAR_LOOP || e->var->kind == TL_VAR_LET) &&
        !t->in_scope[e->var->id])
        *ok = false;
    return *ok;
}

// Whether every loop or let variable e mentions is defined where it is used
// now (upstream gives up on a valid extent whose loop has ended).
static bool in_scope(const tm_t *t, const tl_expr_t *e)
{
    bool ok = true;
    const void *arg[2] = {t, &ok};
    tl_walk_expr(e, walk_scoped, (void *)arg);
    return ok;
}

static bool is_const(const tl_expr_t *e, int64_t want)
{
    int64_t v;
    return tl_ir_is_const_int(e, &v) && v == want;
}

// --- the record a GM -> UB copy leaves ---------------------------------------------------

// The part of [start, start + ext) inside [0, shape): ext when it provably is,
// else upstream's select(shape - start >= ext, ext, max(shape - start, 0)).
static tl_expr_t *clipped(tm_t *t, tl_expr_t *start, tl_expr_t *ext, tl_expr_t *shape, tl_loc_t loc)
{
    tl_kernel_t *k = t->k;
    tl_expr_t *rest = tl_ir_bin(k, TL_BIN_SUB, shape, start, loc);
    int64_t slack;
    if (bound(t, tl_ir_bin(k, TL_BIN_SUB, rest, ext, loc), false, &slack) && slack >= 0) return ext;
    tl_expr_t *zero = tl_ir_int(k, 0, rest->dtype, loc);
    tl_expr_t *part = tl_ir_select(k, tl_ir_bin(k, TL_BIN_GT, rest, zero, loc), rest, zero, loc);
    return tl_ir_select(k, tl_ir_bin(k, TL_BIN_GE, rest, ext, loc), ext, part, loc);
}

// The last dimension of a buffer as the kernel wrote it (slot_rows may have
// widened it since).
static int64_t logical_width(const tm_t *t, const tl_buffer_t *b)
{
    return t->width[b->id] ? t->width[b->id] : b->shape[b->ndim - 1];
}

// Upstream's AscendMemoryPlanning reserves one 32-byte UB block a row for the
// packed mask of a tail compare and for the [rows, 1] source of a tail
// broadcast (CalculateBufferSize), and its helpers and DataCopyPad put row r
// at block r: the buffer's rows become 32 bytes apart. Here the buffer's last
// dimension grows to 32 bytes (its regions keep their extents), so every
// target lays its rows out so. False when b is not a 2-D buffer of rows
// narrower than a block that no view shares; `apply` false only asks.
static bool slot_rows(tm_t *t, tl_buffer_t *b, bool apply)
{
    int64_t blk = 32 / tl_dtype_size(b->dtype);
    if (b->ndim != 2 || b->view_of || b->int4) return false;
    if (t->width[b->id] || b->shape[1] >= blk) return !!t->width[b->id] || b->shape[1] == blk;
    for (int i = 0; i < t->k->buffers.len; i++)
        if (((const tl_buffer_t *)t->k->buffers.items[i])->view_of == b) return false;
    if (apply) {
        t->width[b->id] = b->shape[1];
        b->shape[1] = blk;
    }
    return true;
}

// A GM -> UB copy into a slotted broadcast source from a GM tensor one
// element wide: its rows are contiguous in GM, and upstream's helpers with the
// compact-rows rule (common.h at f554c1d; #1777's narrow rows) move them as
// one compact burst, while tail_broadcast reads 32-byte rows.
static void compact_note(void *arg, tl_stmt_t *s)
{
    tm_t *t = arg;
    if (s->kind != TL_ST_OP || s->op.code != TL_OP_COPY) return;
    const tl_region_t *src = &s->op.args[0].region, *dst = &s->op.args[1].region;
    const tl_buffer_t *g = src->buf;
    if (g->scope != TL_SCOPE_GM || dst->buf->scope != TL_SCOPE_UB || !t->width[dst->buf->id] ||
        dst->buf->dtype == TL_U8 || g->ndim < 2 || !is_const(g->gm_shape[g->ndim - 1], 1))
        return;
    tl_diag_warning(t->diag, s->loc,
                    "TL_ASCEND_TAIL_MASK: '%s' is a tail broadcast's source, which upstream gives "
                    "32 bytes a row; the rows copied into it are contiguous in GM ('%s' is one "
                    "element wide), and upstream's compact-rows copy (common.h at f554c1d, "
                    "#1777) would move them as one burst, which its tail_broadcast reads at 32 "
                    "bytes a row; tilec puts each row in its 32-byte block",
                    dst->buf->name, g->name);
}

// Regions written as a whole slotted buffer now name a part of it.
static void unwhole(void *arg, tl_stmt_t *s)
{
    const tm_t *t = arg;
    if (s->kind != TL_ST_OP) return;
    for (int i = 0; i < s->op.nargs; i++) {
        tl_region_t *r = &s->op.args[i].region;
        if (s->op.args[i].kind == TL_ARG_REGION && t->width[r->buf->id] &&
            r->form == TL_REGION_WHOLE)
            r->form = TL_REGION_SLICE;
    }
}

// The valid box of a copy's GM region in a UB buffer's tile: upstream's
// validRow / validCol of copy_gm_to_ub and copy_ub_to_gm.
static tmask_t box_of(tm_t *t, const tl_region_t *gm_in, const tl_region_t *ubr, tl_loc_t loc)
{
    const tl_buffer_t *ub = ubr->buf;
    tl_region_t pt = *gm_in; // a start point takes the other side's trailing extents
    if (gm_in->form == TL_REGION_POINT && ubr->form != TL_REGION_POINT)
        for (int i = 0; i < pt.ndim; i++) {
            int j = i - (pt.ndim - ubr->ndim);
            pt.extent[i] = j >= 0 ? ubr->extent[j] : tl_ir_int(t->k, 1, TL_I32, loc);
        }
    const tl_region_t *gm = &pt;
    // The box's dimensions: those of extent other than 1, the last always, the
    // one before it when that is the only one (upstream's find_active_dim_indices).
    int act[TL_MAX_DIMS], n = 0;
    for (int i = 0; i < gm->ndim; i++)
        if (!is_const(gm->extent[i], 1) || i == gm->ndim - 1) act[n++] = i;
    if (n == 1 && gm->ndim >= 2) {
        act[1] = act[0];
        act[0] = gm->ndim - 2;
        n = 2;
    }
    tmask_t m = {.tracked = true};
    int c = act[n - 1];
    m.cols = clipped(t, gm->start[c], gm->extent[c], gm->buf->gm_shape[c], loc);
    if (n >= 2) {
        int r = act[n - 2];
        m.rows = clipped(t, gm->start[r], gm->extent[r], gm->buf->gm_shape[r], loc);
    } else {
        m.rows = tl_ir_int(t->k, 1, TL_I32, loc);
    }
    m.pcol = logical_width(t, ub);
    m.prow = ub->ndim > 1 ? ub->shape[ub->ndim - 2] : 1;
    m.tail = !is_const(m.rows, m.prow) || !is_const(m.cols, m.pcol);
    return m;
}

static void seed(tm_t *t, const tl_stmt_t *s)
{
    const tl_region_t *src = &s->op.args[0].region, *dst = &s->op.args[1].region;
    t->state[dst->buf->id] = box_of(t, src, dst, s->loc);
}

// Upstream's "output hints": the box a UB -> GM copy anywhere in the kernel
// (the last one in the text) stores from a buffer; a broadcast into that
// buffer is narrowed to it.
static void collect_hint(void *arg, tl_stmt_t *s)
{
    tm_t *t = arg;
    if (s->kind != TL_ST_OP || s->op.code != TL_OP_COPY) return;
    const tl_region_t *src = &s->op.args[0].region, *dst = &s->op.args[1].region;
    if (src->buf->scope == TL_SCOPE_UB && dst->buf->scope == TL_SCOPE_GM)
        t->hint[src->buf->id] = box_of(t, dst, src, s->loc);
}

// --- rewriting an op ---------------------------------------------------------------------

// Row r (an expression) of a tile operand: its first `cols` elements. False when
// the operand is not laid out as the tile's rows (upstream then steps through
// it at the tile's pitch; tilec does not model that).
static bool row_of(tl_kernel_t *k, const tl_region_t *in, const tmask_t *m, tl_expr_t *r,
                   tl_expr_t *cols, tl_region_t *out)
{
    const tl_buffer_t *b = in->buf;
    int d = in->ndim;
    *out = *in;
    out->form = TL_REGION_SLICE;
    if (d == 1) {
        if (!is_const(in->extent[0], m->prow * m->pcol)) return false;
        tl_expr_t *off =
            tl_ir_bin(k, TL_BIN_MUL, r, tl_ir_int(k, m->pcol, r->dtype, in->loc), in->loc);
        out->start[0] = tl_ir_bin(k, TL_BIN_ADD, in->start[0], off, in->loc);
        out->extent[0] = cols;
        return true;
    }
    if (b->shape[d - 1] != m->pcol || !is_const(in->start[d - 1], 0) ||
        !is_const(in->extent[d - 1], m->pcol) || !is_const(in->extent[d - 2], m->prow))
        return false;
    for (int i = 0; i < d - 2; i++)
        if (!is_const(in->extent[i], 1)) return false;
    out->start[d - 2] = tl_ir_bin(k, TL_BIN_ADD, in->start[d - 2], r, in->loc);
    out->extent[d - 2] = tl_ir_int(k, 1, TL_I32, in->loc);
    out->extent[d - 1] = cols;
    return true;
}

// Element count of an op: its explicit count, else its first operand's
// (-1 when not a constant).
static int64_t op_count(const tl_op_t *op, int count_arg)
{
    int64_t n;
    if (count_arg < op->nargs && op->args[count_arg].kind == TL_ARG_SCALAR)
        return tl_ir_is_const_int(op->args[count_arg].scalar, &n) ? n : -1;
    const tl_region_t *r = &op->args[0].region;
    n = 1;
    for (int i = 0; i < r->ndim; i++) {
        int64_t e;
        if (!tl_ir_is_const_int(r->extent[i], &e)) return -1;
        n *= e;
    }
    return n;
}

static tl_stmt_t *leaf(tl_kernel_t *k, const tl_stmt_t *like, tl_stmt_kind_t kind)
{
    tl_stmt_t *s = tl_ir_stmt(k, kind, like->loc);
    s->side = like->side;
    s->origin = like->origin;
    return s;
}

// A copy of op with its region operands (the first nreg) narrowed to row r.
static bool op_on_row(tm_t *t, const tl_stmt_t *s, int nreg, const tmask_t *m, tl_expr_t *r,
                      const tl_region_t *const *regs, tl_stmt_t **out)
{
    tl_kernel_t *k = t->k;
    tl_stmt_t *o = leaf(k, s, TL_ST_OP);
    o->op = s->op;
    o->op.args = tl_arena_alloc(k->arena, sizeof(tl_arg_t) * (size_t)s->op.nargs);
    for (int i = 0; i < s->op.nargs; i++) o->op.args[i] = s->op.args[i];
    for (int i = 0; i < nreg; i++) {
        o->op.args[i].kind = TL_ARG_REGION;
        if (!row_of(k, regs[i], m, r, m->cols, &o->op.args[i].region)) return false;
    }
    *out = o;
    return true;
}

// s becomes `if rows > 0 and cols > 0: body` (in place, so that its parent keeps it).
static void guard(tm_t *t, tl_stmt_t *s, const tmask_t *m, tl_stmt_t *body)
{
    tl_kernel_t *k = t->k;
    tl_expr_t *zero = tl_ir_int(k, 0, TL_I32, s->loc);
    tl_expr_t *rows = tl_ir_bin(k, TL_BIN_GT, m->rows, zero, s->loc);
    tl_expr_t *cols = tl_ir_bin(k, TL_BIN_GT, m->cols, zero, s->loc);
    int64_t v;
    tl_expr_t *cond = tl_ir_is_const_int(cols, &v) && v ? rows
                      : tl_ir_is_const_int(rows, &v) && v
                          ? cols
                          : tl_ir_bin(k, TL_BIN_LAND, rows, cols, s->loc);
    if (tl_ir_is_const_int(cond, &v) && v) {
        *s = *body;
        return;
    }
    tl_stmt_t *g = leaf(k, s, TL_ST_IF);
    g->if_.cond = cond;
    g->if_.then_ = body;
    *s = *g;
}

// `for r in [from, rows): ...` with a fresh loop variable; *r gets it.
static tl_stmt_t *row_loop(tm_t *t, const tl_stmt_t *s, int64_t from, const tmask_t *m,
                           tl_expr_t **r)
{
    tl_kernel_t *k = t->k;
    char name[32];
    snprintf(name, sizeof name, "tail_r%d", t->loops++);
    tl_var_t *v = tl_ir_var(k, tl_arena_strdup(k->arena, name), TL_I32, TL_VAR_LOOP, s->loc);
    tl_stmt_t *f = leaf(k, s, TL_ST_FOR);
    f->for_.var = v;
    f->for_.start = tl_ir_int(k, from, TL_I32, s->loc);
    f->for_.end = m->rows;
    f->for_.loop = TL_LOOP_SERIAL;
    f->for_.body = tl_ir_seq(k, s->loc);
    f->for_.body->side = s->side;
    *r = tl_ir_varref(k, v, s->loc);
    return f;
}

// Whether the valid columns are a constant wider than the tile. Upstream's
// helpers run cols elements from r * the tile's width, past the row when cols
// is larger (a [1, n] box in an [n, 1] tile); so does a row operand with a
// run-time extent here (a flat span from its origin), but a constant extent
// larger than the row is no region.
static bool cols_too_wide(const tmask_t *m)
{
    int64_t c;
    return tl_ir_is_const_int(m->cols, &c) && c > m->pcol;
}

// An element-wise op over the valid rectangle: row by row.
static bool rewrite_rows(tm_t *t, tl_stmt_t *s, int nreg, const tmask_t *m)
{
    // One run of the whole tile (a [1, n] box in an [n, 1] tile): the op as it is.
    if (is_const(m->rows, 1) && is_const(m->cols, m->prow * m->pcol)) return true;
    if (cols_too_wide(m)) return false;
    const tl_region_t *regs[3];
    for (int i = 0; i < nreg; i++) regs[i] = &s->op.args[i].region;
    tl_expr_t *r;
    tl_stmt_t *loop = row_loop(t, s, 0, m, &r), *o;
    if (!op_on_row(t, s, nreg, m, r, regs, &o)) return false;
    // A unary op's count becomes the row's length.
    if (tl_op_binary(o->op.code) == TL_BIN_NONE) o->op.nargs = nreg;
    tl_ir_seq_push(t->k, loop->for_.body, o);
    guard(t, s, m, loop);
    return true;
}

// reduce across rows: out = row 0 * 1, then out = out OP row r for each further row.
static bool rewrite_reduce(tm_t *t, tl_stmt_t *s, const tmask_t *m)
{
    tl_kernel_t *k = t->k;
    static const tl_opcode_t step[] = {[TL_OP_REDUCE_SUM - TL_OP_REDUCE_SUM] = TL_OP_ADD,
                                       [TL_OP_REDUCE_MAX - TL_OP_REDUCE_SUM] = TL_OP_MAX,
                                       [TL_OP_REDUCE_MIN - TL_OP_REDUCE_SUM] = TL_OP_MIN};
    const tl_region_t *src = &s->op.args[0].region, *dst = &s->op.args[1].region;
    tmask_t row = *m;
    row.prow = 1;
    tl_expr_t *zero = tl_ir_int(k, 0, TL_I32, s->loc);
    tl_region_t out, first;
    if (cols_too_wide(m) || !row_of(k, dst, &row, zero, m->cols, &out) ||
        !row_of(k, src, m, zero, m->cols, &first))
        return false;
    tl_stmt_t *body = tl_ir_seq(k, s->loc);
    body->side = s->side;
    tl_stmt_t *init = leaf(k, s, TL_ST_OP);
    init->op = (tl_op_t){.code = TL_OP_MUL, .nargs = 3};
    init->op.args = tl_arena_alloc(k->arena, sizeof(tl_arg_t) * 3);
    init->op.args[0] = (tl_arg_t){.kind = TL_ARG_REGION, .region = out};
    init->op.args[1] = (tl_arg_t){.kind = TL_ARG_REGION, .region = first};
    init->op.args[2] =
        (tl_arg_t){.kind = TL_ARG_SCALAR, .scalar = tl_ir_float(k, 1.0, src->buf->dtype, s->loc)};
    tl_ir_seq_push(k, body, init);
    tl_expr_t *r;
    tl_stmt_t *loop = row_loop(t, s, 1, m, &r);
    tl_stmt_t *acc = leaf(k, s, TL_ST_OP);
    acc->op = (tl_op_t){.code = step[s->op.code - TL_OP_REDUCE_SUM], .nargs = 3};
    acc->op.args = tl_arena_alloc(k->arena, sizeof(tl_arg_t) * 3);
    acc->op.args[0] = init->op.args[0];
    acc->op.args[1] = init->op.args[0];
    acc->op.args[2].kind = TL_ARG_REGION;
    if (!row_of(k, src, m, r, m->cols, &acc->op.args[2].region)) return false;
    tl_ir_seq_push(k, loop->for_.body, acc);
    tl_ir_seq_push(k, body, loop);
    guard(t, s, m, body);
    return true;
}

// --- the walk ------------------------------------------------------------------------------

static const tmask_t untracked;

static tmask_t get(const tm_t *t, const tl_arg_t *a)
{
    return a->kind == TL_ARG_REGION ? t->state[a->region.buf->id] : untracked;
}

static bool float_like(tl_dtype_t d)
{
    return d == TL_F16 || d == TL_BF16 || d == TL_F32 || d == TL_F64;
}

// The intersection of two records (for two-tile ops): the first tail one's
// tile, the smaller extents.
static tmask_t meet(tm_t *t, tmask_t a, tmask_t b, tl_loc_t loc)
{
    if (!a.tail && !b.tail) return a.tracked ? a : b;
    tmask_t m = a.tail ? a : b;
    if (a.tracked && b.tracked) {
        if (!tl_ir_expr_equal(a.rows, b.rows))
            m.rows = tl_ir_bin(t->k, TL_BIN_MIN, a.rows, b.rows, loc);
        if (!tl_ir_expr_equal(a.cols, b.cols))
            m.cols = tl_ir_bin(t->k, TL_BIN_MIN, a.cols, b.cols, loc);
    }
    return m;
}

// Whether upstream's guards let it rewrite an op of `count` elements on m.
static bool rewritable(const tm_t *t, const tmask_t *m, int64_t count, tl_dtype_t d)
{
    return m->tail && count == m->prow * m->pcol && float_like(d) && in_scope(t, m->rows) &&
           in_scope(t, m->cols) && !(m->pcol > 1 && is_const(m->cols, 1));
}

static void not_modelled(tm_t *t, const tl_stmt_t *s, const char *what)
{
    tl_diag_warning(t->diag, s->loc,
                    "TL_ASCEND_TAIL_MASK: %s is not modelled: tilec computes it over the whole "
                    "tile, upstream may compute it over the valid rectangle only",
                    what);
}

// An element-wise op of nreg region operands (count_arg: its optional element
// count, past the end when it has none).
static void element_wise(tm_t *t, tl_stmt_t *s, int nreg, int count_arg, tmask_t m)
{
    const tl_op_t *op = &s->op;
    tl_buffer_t *dst = op->args[0].region.buf;
    bool ok = rewritable(t, &m, op_count(op, count_arg), dst->dtype);
    t->state[dst->id] = ok ? m : untracked;
    if (ok && !rewrite_rows(t, s, nreg, &m)) {
        t->state[dst->id] = untracked;
        not_modelled(
            t, s, "an op on a tail tile whose operands or valid columns are not the tile's rows");
    }
}

static void reduce(tm_t *t, tl_stmt_t *s)
{
    const tl_op_t *op = &s->op;
    const tl_region_t *src = &op->args[0].region, *dst = &op->args[1].region;
    tmask_t m = t->state[src->buf->id];
    bool whole = !op->real_shape[0] && !op->real_shape[1];
    if (!whole && op->real_shape[0] == m.prow && op->real_shape[1] == m.pcol) whole = true;
    bool ok = op->dim == 0 && src->ndim >= 2 && op->clear && whole && src->buf->dtype == TL_F32 &&
              dst->buf->dtype == TL_F32 && op_count(op, 2) >= 0 &&
              rewritable(t, &m, m.prow * m.pcol, TL_F32);
    int64_t n = 1, e;
    for (int i = 0; i < dst->ndim; i++) n *= tl_ir_is_const_int(dst->extent[i], &e) ? e : -1;
    int64_t sn = 1;
    for (int i = 0; i < src->ndim; i++) sn *= tl_ir_is_const_int(src->extent[i], &e) ? e : -1;
    ok = ok && n == m.pcol && sn == m.prow * m.pcol;
    tmask_t out = untracked;
    if (ok) {
        out = (tmask_t){.tracked = true,
                        .rows = tl_ir_int(t->k, 1, TL_I32, s->loc),
                        .cols = m.cols,
                        .prow = 1,
                        .pcol = m.pcol};
        out.tail = !is_const(m.cols, m.pcol);
    }
    if (ok && !rewrite_reduce(t, s, &m)) {
        not_modelled(
            t, s,
            "a reduction of a tail tile whose operands or valid columns are not the tile's rows");
        out = untracked;
    }
    t->state[dst->buf->id] = out;
}

// The last two extents of a region whose others are 1 (constants), or false.
static bool extents2(const tl_region_t *r, int64_t *rows, int64_t *cols)
{
    for (int i = 0; i < r->ndim - 2; i++)
        if (!is_const(r->extent[i], 1)) return false;
    *rows = 1;
    return (r->ndim < 2 || tl_ir_is_const_int(r->extent[r->ndim - 2], rows)) &&
           tl_ir_is_const_int(r->extent[r->ndim - 1], cols);
}

// Element `off` (flat, from the region's origin) of a 1-D region or of a 2-D
// tile region's buffer rows, as a scalar load.
static tl_expr_t *element(tl_kernel_t *k, const tl_region_t *r, tl_expr_t *off, tl_loc_t loc)
{
    tl_expr_t *idx[TL_MAX_DIMS];
    int d = r->ndim;
    for (int i = 0; i < d; i++) idx[i] = r->start[i];
    if (d == 1) {
        idx[0] = tl_ir_bin(k, TL_BIN_ADD, idx[0], off, loc);
    } else {
        tl_expr_t *w = tl_ir_int(k, r->buf->shape[d - 1], off->dtype, loc);
        idx[d - 2] =
            tl_ir_bin(k, TL_BIN_ADD, idx[d - 2], tl_ir_bin(k, TL_BIN_DIV, off, w, loc), loc);
        idx[d - 1] =
            tl_ir_bin(k, TL_BIN_ADD, idx[d - 1], tl_ir_bin(k, TL_BIN_MOD, off, w, loc), loc);
    }
    return tl_ir_load(k, r->buf, d, idx, loc);
}

// tail_broadcast: [M, 1] -> [M, N] fills the first out.cols elements of each
// of min(out.rows, in.rows) rows with src's element at r * its row pitch in
// 32-byte blocks; [1, N] -> [M, N] copies min(out.cols, in.cols) elements of
// src's row into each of out.rows rows (+ 0.0, as Adds).
static bool rewrite_broadcast(tm_t *t, tl_stmt_t *s, const tmask_t *out, const tmask_t *in,
                              bool rows_axis)
{
    tl_kernel_t *k = t->k;
    const tl_region_t *dst = &s->op.args[0].region, *src = &s->op.args[1].region;
    tmask_t m = *out;
    if (rows_axis)
        m.rows = tl_ir_bin(k, TL_BIN_MIN, out->rows, in->rows, s->loc);
    else
        m.cols = tl_ir_bin(k, TL_BIN_MIN, out->cols, in->cols, s->loc);
    if (cols_too_wide(&m)) return false;
    tl_expr_t *r;
    tl_stmt_t *loop = row_loop(t, s, 0, &m, &r);
    tl_stmt_t *o = leaf(k, s, TL_ST_OP);
    o->op = (tl_op_t){.code = rows_axis ? TL_OP_FILL : TL_OP_ADD, .nargs = rows_axis ? 2 : 3};
    o->op.args = tl_arena_alloc(k->arena, sizeof(tl_arg_t) * 3);
    o->op.args[0].kind = TL_ARG_REGION;
    if (!row_of(k, dst, out, r, m.cols, &o->op.args[0].region)) return false;
    int64_t blk = 32 / tl_dtype_size(src->buf->dtype), pitch = (in->pcol + blk - 1) / blk * blk;
    if (rows_axis && src->ndim == 2 && slot_rows(t, src->buf, true)) { // row r's first element
        tl_expr_t *idx[2] = {tl_ir_bin(k, TL_BIN_ADD, src->start[0], r, s->loc), src->start[1]};
        o->op.args[1] = (tl_arg_t){.kind = TL_ARG_SCALAR, .scalar = tl_ir_load(k, src->buf, 2, idx, s->loc)};
    } else if (rows_axis) {
        tl_expr_t *off = tl_ir_bin(k, TL_BIN_MUL, r, tl_ir_int(k, pitch, r->dtype, s->loc), s->loc);
        o->op.args[1] = (tl_arg_t){.kind = TL_ARG_SCALAR, .scalar = element(k, src, off, s->loc)};
    } else {
        tmask_t row = *in;
        row.prow = 1;
        o->op.args[1].kind = TL_ARG_REGION;
        if (!row_of(k, src, &row, tl_ir_int(k, 0, TL_I32, s->loc), m.cols, &o->op.args[1].region))
            return false;
        o->op.args[2] = (tl_arg_t){.kind = TL_ARG_SCALAR,
                                   .scalar = tl_ir_float(k, 0.0, src->buf->dtype, s->loc)};
    }
    tl_ir_seq_push(k, loop->for_.body, o);
    guard(t, s, out, loop); // the helper returns on out's zero rows or columns
    return true;
}

// T.tile.broadcast (upstream's newest RewriteBroadcast): from a tracked 2-D
// source whose tile is its shape, into a 2-D destination; the valid rows (or
// columns) carry along the broadcast axis, narrowed by the destination's
// output hint.
static void broadcast(tm_t *t, tl_stmt_t *s)
{
    const tl_op_t *op = &s->op;
    const tl_region_t *dst = &op->args[0].region, *src = &op->args[1].region;
    tmask_t in = t->state[src->buf->id];
    t->state[dst->buf->id] = untracked;
    int64_t dr, dc, sr, sc;
    if (!in.tracked || dst->ndim < 2 || !extents2(dst, &dr, &dc) || !extents2(src, &sr, &sc))
        return;
    if (src->ndim == 1) { // upstream's 1-D source: a row, or a column
        if (op->dim == 0 || (op->dim < 0 && dc == sc))
            sr = 1;
        else if (op->dim == 1 || (op->dim < 0 && dr == sc))
            sr = sc, sc = 1;
        else
            return;
    }
    if (in.prow != sr || in.pcol != sc) return;
    if (dr == sr && dc == sc) {
        t->state[dst->buf->id] = in;
        return;
    }
    if ((sr == 1 && sc == 1) || (sr != 1 && sc != 1)) return;
    tl_kernel_t *k = t->k;
    const tmask_t *h = &t->hint[dst->buf->id];
    bool hinted = h->tracked && h->prow == dr && h->pcol == dc;
    tmask_t out = {.tracked = true, .prow = dr, .pcol = dc};
    out.rows = hinted ? h->rows : tl_ir_int(k, dr, TL_I32, s->loc);
    out.cols = hinted ? h->cols : tl_ir_int(k, dc, TL_I32, s->loc);
    bool rows_axis = sc == 1;
    if (rows_axis)
        out.rows = hinted ? tl_ir_bin(k, TL_BIN_MIN, h->rows, in.rows, s->loc) : in.rows;
    else
        out.cols = hinted ? tl_ir_bin(k, TL_BIN_MIN, h->cols, in.cols, s->loc) : in.cols;
    out.tail = !is_const(out.rows, dr) || !is_const(out.cols, dc);
    tl_dtype_t d = dst->buf->dtype;
    bool ok = out.tail && (d == TL_F16 || d == TL_F32) && src->buf->dtype == d &&
              in_scope(t, out.rows) && in_scope(t, out.cols) && in_scope(t, in.rows) &&
              in_scope(t, in.cols);
    if (!ok) return;
    if (!rewrite_broadcast(t, s, &out, &in, rows_axis)) {
        not_modelled(t, s, "a broadcast of a tail tile whose operands are not the tiles' rows");
        return;
    }
    t->state[dst->buf->id] = out;
}

// Row r of a tail compare's packed mask: its first ceil(cols / 8) bytes, in
// the row's 32-byte block (slot_rows).
static tl_region_t mask_row(tl_kernel_t *k, const tl_region_t *in, tl_expr_t *r, tl_expr_t *cols)
{
    tl_region_t out = *in;
    tl_loc_t loc = in->loc;
    out.form = TL_REGION_SLICE;
    out.start[0] = tl_ir_bin(k, TL_BIN_ADD, in->start[0], r, loc);
    out.extent[0] = tl_ir_int(k, 1, TL_I32, loc);
    tl_expr_t *seven = tl_ir_int(k, 7, cols->dtype, loc), *eight = tl_ir_int(k, 8, cols->dtype, loc);
    out.extent[1] = tl_ir_bin(k, TL_BIN_DIV, tl_ir_bin(k, TL_BIN_ADD, cols, seven, loc), eight, loc);
    return out;
}

// Whether a compare / select of a tile of m's width runs as one vector
// repeat a row (upstream's CompareWidthSupported) on a float16 / float32 tile.
static bool cmp_sel_ok(const tm_t *t, const tmask_t *m, tl_dtype_t d)
{
    return (d == TL_F16 || d == TL_F32) && m->pcol * tl_dtype_size(d) <= 256 && m->pcol % 8 == 0 &&
           in_scope(t, m->rows) && in_scope(t, m->cols);
}

// A scalar operand upstream takes as an immediate (not a buffer element nor a
// bare variable: its pointer forms).
static bool immediate(const tl_arg_t *a)
{
    return a->kind == TL_ARG_SCALAR && a->scalar->kind != TL_EX_LOAD && a->scalar->kind != TL_EX_VAR;
}

// compare / select row by row over m: the data operands' rows (regs[i] for
// i < nreg, the mask operand at mask_arg), the other operands as they are.
static bool rewrite_packed(tm_t *t, tl_stmt_t *s, const tmask_t *m, int mask_arg)
{
    tl_kernel_t *k = t->k;
    tl_expr_t *r;
    tl_stmt_t *loop = row_loop(t, s, 0, m, &r);
    tl_stmt_t *o = leaf(k, s, TL_ST_OP);
    o->op = s->op;
    o->op.args = tl_arena_alloc(k->arena, sizeof(tl_arg_t) * (size_t)s->op.nargs);
    for (int i = 0; i < s->op.nargs; i++) {
        tl_arg_t *a = &o->op.args[i];
        *a = s->op.args[i];
        if (a->kind != TL_ARG_REGION) continue;
        if (i == mask_arg)
            a->region = mask_row(k, &s->op.args[i].region, r, m->cols);
        else if (!row_of(k, &s->op.args[i].region, m, r, m->cols, &a->region))
            return false;
    }
    tl_ir_seq_push(k, loop->for_.body, o);
    guard(t, s, m, loop);
    return true;
}

// T.tile.compare (upstream's RewriteCompare): of one tail tile with another of
// the same tile or an immediate, float16 / float32 rows of at most one vector
// repeat, into a uint8 mask of ceil(width / 8) bytes a row. It becomes
// tail_compare: row r's valid columns' bits (those past them 0) in row r's
// 32-byte block of the mask.
static void compare(tm_t *t, tl_stmt_t *s)
{
    const tl_op_t *op = &s->op;
    tl_buffer_t *mask = op->args[0].region.buf;
    tmask_t a = get(t, &op->args[1]), m = a;
    t->state[mask->id] = untracked;
    if (op->args[2].kind == TL_ARG_REGION) {
        tmask_t b = get(t, &op->args[2]);
        if (!a.tracked || !b.tracked || a.prow != b.prow || a.pcol != b.pcol ||
            op->args[2].region.buf->dtype != op->args[1].region.buf->dtype)
            return;
        m = meet(t, a, b, s->loc);
    } else if (!immediate(&op->args[2])) {
        return;
    }
    const tl_region_t *mr = &op->args[0].region;
    int64_t rows, cols;
    if (!rewritable(t, &m, tl_region_numel(&op->args[1].region), op->args[1].region.buf->dtype) ||
        !cmp_sel_ok(t, &m, op->args[1].region.buf->dtype) || mask->dtype != TL_U8 ||
        !extents2(mr, &rows, &cols) || rows != m.prow || cols < (m.pcol + 7) / 8 ||
        !slot_rows(t, mask, false))
        return;
    if (!rewrite_packed(t, s, &m, 0)) {
        not_modelled(t, s, "a compare of a tail tile whose operands are not the tile's rows");
        return;
    }
    slot_rows(t, mask, true);
    m.packed = true;
    t->state[mask->id] = m;
}

// T.tile.select (upstream's RewriteSelect) with a tail compare's mask, in
// VSEL_TENSOR_TENSOR_MODE of two tiles of its tile or VSEL_TENSOR_SCALAR_MODE
// with a scalar: tail_select over the mask's rectangle (met with the data
// operands').
static void select_op(tm_t *t, tl_stmt_t *s)
{
    const tl_op_t *op = &s->op;
    tl_buffer_t *dst = op->args[0].region.buf;
    tmask_t pk = get(t, &op->args[1]);
    t->state[dst->id] = untracked;
    bool tensor = op->sel == TL_SEL_TENSOR_TENSOR;
    if (!pk.packed || op->sel == TL_SEL_CMPMASK_SPR || (op->args[3].kind == TL_ARG_REGION) != tensor ||
        (!tensor && op->args[3].scalar->kind == TL_EX_VAR))
        return;
    tmask_t m = pk, d = get(t, &op->args[2]);
    m.packed = false;
    if (d.tracked) m = meet(t, m, d, s->loc);
    m.tail = true;
    if (tensor) {
        tmask_t b = get(t, &op->args[3]);
        if (!b.tracked || b.prow != m.prow || b.pcol != m.pcol) return;
        m = meet(t, m, b, s->loc);
        m.tail = true;
    }
    tl_dtype_t dt = dst->dtype;
    if (op_count(op, 4) != m.prow * m.pcol || !cmp_sel_ok(t, &m, dt) ||
        op->args[2].region.buf->dtype != dt ||
        (tensor && op->args[3].region.buf->dtype != dt))
        return;
    if (!rewrite_packed(t, s, &m, 1)) {
        not_modelled(t, s, "a select of a tail tile whose operands are not the tile's rows");
        return;
    }
    t->state[dst->id] = m;
}

static bool any_tail(const tm_t *t, const tl_op_t *op)
{
    for (int i = 0; i < op->nargs; i++)
        if (get(t, &op->args[i]).tail) return true;
    return false;
}

static void visit_op(tm_t *t, tl_stmt_t *s)
{
    tl_op_t *op = &s->op;
    tl_opcode_t c = op->code;
    if (c == TL_OP_COPY) {
        const tl_buffer_t *a = op->args[0].region.buf, *b = op->args[1].region.buf;
        if (a->scope == TL_SCOPE_GM && b->scope == TL_SCOPE_UB)
            seed(t, s);
        else if (a->scope == TL_SCOPE_UB && b->scope == TL_SCOPE_UB)
            t->state[b->id] = t->state[a->id];
        return;
    }
    switch (c) {
    case TL_OP_CAST: t->state[op->args[0].region.buf->id] = get(t, &op->args[1]); return;
    case TL_OP_EXP:
    case TL_OP_LN:
    case TL_OP_ABS:
    case TL_OP_RECIPROCAL:
    case TL_OP_SQRT:
    case TL_OP_RSQRT:
    case TL_OP_RELU: element_wise(t, s, 2, 2, get(t, &op->args[1])); return;
    case TL_OP_ADD:
    case TL_OP_SUB:
    case TL_OP_MUL:
    case TL_OP_DIV:
    case TL_OP_MAX:
    case TL_OP_MIN:
        if (op->args[2].kind == TL_ARG_REGION) {
            element_wise(t, s, 3, 3, meet(t, get(t, &op->args[1]), get(t, &op->args[2]), s->loc));
            return;
        }
        // Upstream's scalar forms: subs and divs are not rewritten, nor a
        // scalar that is a buffer element or a bare variable (pointer forms).
        if (c == TL_OP_SUB || c == TL_OP_DIV || op->args[2].scalar->kind == TL_EX_LOAD ||
            op->args[2].scalar->kind == TL_EX_VAR)
            return;
        element_wise(t, s, 2, 3, get(t, &op->args[1]));
        return;
    case TL_OP_REDUCE_SUM:
    case TL_OP_REDUCE_MAX:
    case TL_OP_REDUCE_MIN: reduce(t, s); return;
    case TL_OP_BROADCAST: broadcast(t, s); return;
    case TL_OP_COMPARE:
    case TL_OP_SELECT:
        if (c == TL_OP_COMPARE)
            compare(t, s);
        else
            select_op(t, s);
        if (s->kind == TL_ST_OP && s->op.code == c && any_tail(t, op))
            not_modelled(t, s, tl_op_info(c)->spelling);
        return;
    default: return; // upstream leaves the records as they are
    }
}

static bool touches_tail(void *arg, const tl_expr_t *e)
{
    const tm_t *t = ((const void **)arg)[0];
    bool *hit = ((void **)arg)[1];
    if (e->kind == TL_EX_LOAD && t->state[e->load.buf->id].tail) *hit = true;
    return !*hit;
}

static void parallel_note(void *arg, tl_stmt_t *s)
{
    bool *hit = ((void **)arg)[1];
    if (s->kind == TL_ST_STORE && ((const tm_t *)((void **)arg)[0])->state[s->store.buf->id].tail)
        *hit = true;
    if (s->kind == TL_ST_STORE) tl_walk_expr(s->store.value, touches_tail, arg);
}

static void visit(tm_t *t, tl_stmt_t *s)
{
    if (!s) return;
    switch (s->kind) {
    case TL_ST_SEQ: {
        int nlets = 0;
        for (int i = 0; i < s->seq.n; i++) {
            tl_stmt_t *c = s->seq.items[i];
            if (c->kind == TL_ST_LET) {
                t->in_scope[c->let.var->id] = true;
                nlets++;
            }
            visit(t, c);
        }
        for (int i = 0; nlets && i < s->seq.n; i++)
            if (s->seq.items[i]->kind == TL_ST_LET)
                t->in_scope[s->seq.items[i]->let.var->id] = false;
        return;
    }
    case TL_ST_FOR: {
        int id = s->for_.var->id;
        if (s->for_.loop == TL_LOOP_PARALLEL) {
            bool hit = false;
            void *arg[2] = {t, &hit};
            tl_rewrite_walk(s->for_.body, parallel_note, arg);
            if (hit) not_modelled(t, s, "a T.Parallel loop over a tail tile");
        }
        int64_t lo = 0, hi = 0;
        t->ranged[id] =
            tl_ir_is_const_int(s->for_.start, &lo) && bound(t, s->for_.end, true, &hi) && hi > lo;
        t->lo[id] = lo;
        t->hi[id] = hi - 1;
        t->in_scope[id] = true;
        visit(t, s->for_.body);
        t->in_scope[id] = false;
        t->ranged[id] = false;
        return;
    }
    case TL_ST_WHILE: visit(t, s->while_.body); return;
    case TL_ST_IF:
        visit(t, s->if_.then_);
        visit(t, s->if_.else_);
        return;
    case TL_ST_SCOPE: visit(t, s->scope.body); return;
    case TL_ST_OP: visit_op(t, s); return;
    default: return;
    }
}

tl_status_t tl_pass_tail_mask(tl_kernel_t *k, tl_pass_ctx_t *ctx)
{
    if (!k->config.tail_mask || !k->body) return TL_OK;
    tm_t t = {.k = k, .diag = ctx->diag};
    size_t nb = (size_t)k->buffers.len + 1, nv = (size_t)k->vars.len + 1;
    t.state = calloc(nb, sizeof *t.state);
    t.hint = calloc(nb, sizeof *t.hint);
    t.in_scope = calloc(nv, 1);
    t.ranged = calloc(nv, 1);
    t.lo = calloc(nv, sizeof *t.lo);
    t.hi = calloc(nv, sizeof *t.hi);
    t.width = calloc(nb, sizeof *t.width);
    tl_status_t st = TL_OK;
    if (!t.state || !t.hint || !t.in_scope || !t.ranged || !t.lo || !t.hi || !t.width) {
        st = tl_diag_fail(ctx->diag, TL_ERR_NOMEM, "out of memory");
    } else {
        int64_t g;
        if (k->cid && tl_ir_is_const_int(k->grid, &g) && g > 0) {
            t.ranged[k->cid->id] = true;
            t.hi[k->cid->id] = g - 1;
        }
        if (k->vid) {
            t.ranged[k->vid->id] = true;
            t.hi[k->vid->id] = 1;
        }
        tl_rewrite_walk(k->body, collect_hint, &t);
        visit(&t, k->body);
        tl_rewrite_walk(k->body, unwhole, &t);
        tl_rewrite_walk(k->body, compact_note, &t);
    }
    free(t.state);
    free(t.hint);
    free(t.in_scope);
    free(t.ranged);
    free(t.lo);
    free(t.hi);
    free(t.width);
    return st;
}
