// Element-wise tile ops as inline loops (see cgen.h). A run of tile ops over
// UB spans whose layout is known when the C is generated becomes one loop
// over the elements: each element goes through every op of the run in
// order, the values stay in locals between ops, and a result is stored only
// if a later statement may read it (tl_cgen_live). There is no call into the
// runtime, and the compiler vectorises the loop. The statements between the
// ops of a run that cannot join it are set aside and run after the loop when
// that keeps the program's meaning (see "runs of statements" below).
//
// An op qualifies when every operand is a contiguous span of the lane's own
// UB, with constant extents and starts whose ranges are known to stay inside
// the buffer, without loads in its index or scalar expressions (so they can
// be evaluated before the loop) and without run-time checks. Supported:
// float32 add/sub/mul/div/max/min (tile or scalar operand), abs, relu, round,
// sqrt, reciprocal, clamp, fill, row_expand_{mul,sub,div}, the casts of
// cpufast.c without float16 (same results; the runtime's float16 casts use
// the conversion instructions, faster than bit forms the compiler
// vectorises), same-dtype UB -> UB copies, and the row max / min of a 2-D
// float32 tile of whole rows of 16 or more (folded in the loop, see join). A
// float32 row sum (reduce_sum over dim -1, with a real_shape corner), and a
// row max / min that joins no run, become loops of their own. Results are
// those of the tile-op library (what cpufast.c computes: sub and div by a
// scalar as add(-s) and mul(1/s), max/min keeping a NaN first operand).
//
// Ops join a run when they cover the same number of elements (row_expand
// ops and reductions also the same row length) and every pair of spans where
// one is written is either the same span (same buffer, structurally equal
// starts) or disjoint in the scratchpad; a row operand or a reduction's
// output must be disjoint from every written span. Then element j of each op
// depends only on element j of the earlier ops, so the fused loop computes
// what the ops one after another do.
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "cpu/cgen_fuse_int.h"

void fuse_cand_free(cand_t *c)
{
    for (int i = 0; i < c->nsp; i++) free(c->sp[i].off);
    for (int i = 0; i < c->nsc; i++) free(c->sc[i]);
    memset(c, 0, sizeof *c);
}

void fuse_group_free(group_t *gr)
{
    for (int i = 0; i < gr->nsp; i++) free(gr->sp[i].off);
    for (int i = 0; i < gr->nop; i++)
        for (int j = 0; j < gr->op[i].nsc; j++) free(gr->op[i].sc[j]);
    memset(gr, 0, sizeof *gr);
}

bool tl_cgen_pure(const tl_expr_t *e)
{
    if (!e) return true;
    switch (e->kind) {
    case TL_EX_LOAD: return false;
    case TL_EX_BIN:
    case TL_EX_UN: return tl_cgen_pure(e->op.a) && tl_cgen_pure(e->op.b);
    case TL_EX_CAST:
    case TL_EX_REINTERPRET: return tl_cgen_pure(e->arg);
    case TL_EX_SELECT:
        return tl_cgen_pure(e->sel.cond) && tl_cgen_pure(e->sel.a) && tl_cgen_pure(e->sel.b);
    default: return true;
    }
}

// C text of an expression that must not need run-time checks (NULL if it does).
static char *checked_free_text(tl_cgen_t *g, const tl_expr_t *e, bool as_index)
{
    if (!tl_cgen_pure(e)) return NULL;
    bool save = g->checked;
    g->checked = false;
    char *t;
    if (as_index) {
        tl_buf_t b;
        tl_buf_init(&b);
        tl_cgen_index(g, &b, e);
        t = tl_buf_take(&b);
    } else {
        t = tl_cgen_text(g, e, e->dtype);
    }
    bool bad = g->checked;
    g->checked = save;
    if (bad) {
        free(t);
        return NULL;
    }
    return t;
}

static bool vec_dtype(tl_dtype_t t)
{
    return t == TL_F32 || t == TL_BF16 || t == TL_F16 || t == TL_I8 || t == TL_I16 || t == TL_I32;
}

// The span of region operand i (count < 0: the region, which must be
// contiguous; else `count` elements from its start), as cpufast.c's span().
bool fuse_region_span(tl_cgen_t *g, const tl_op_t *op, int i, int64_t count, cand_t *c)
{
    if (i >= op->nargs || op->args[i].kind != TL_ARG_REGION || c->nsp >= 3) return false;
    const tl_region_t *r = &op->args[i].region;
    const tl_buffer_t *b = r->buf;
    if (b->scope != TL_SCOPE_UB || !vec_dtype(b->dtype) || r->ndim < 1 || r->ndim != b->ndim ||
        g->addr[b->id] < 0)
        return false;
    int64_t ext[TL_MAX_DIMS], lo = 0, hi = 0, stride = 1, numel = tl_buffer_numel(b);
    tl_cgen_range_t st[TL_MAX_DIMS];
    for (int d = 0; d < r->ndim; d++) {
        st[d] = tl_cgen_range(g, r->start[d]);
        if (!tl_cgen_const(g, r->extent[d], &ext[d]) || ext[d] < 0 || !st[d].known ||
            st[d].lo < 0 || st[d].hi + ext[d] > b->shape[d])
            return false;
    }
    if (count < 0) {
        int d = 0;
        while (d < r->ndim && ext[d] <= 1) d++;
        for (d++; d < r->ndim; d++)
            if (ext[d] != b->shape[d]) return false;
        count = 1;
        for (d = 0; d < r->ndim; d++) count *= ext[d];
    }
    tl_buf_t off;
    tl_buf_init(&off);
    for (int d = r->ndim - 1; d >= 0; d--) {
        lo += st[d].lo * stride;
        hi += st[d].hi * stride;
        char *t = checked_free_text(g, r->start[d], true);
        if (!t) {
            tl_buf_free(&off);
            return false;
        }
        tl_buf_printf(&off, "%s(%s) * INT64_C(%" PRId64 ")", off.len ? " + " : "", t, stride);
        free(t);
        stride *= b->shape[d];
    }
    if (hi + count > numel) {
        tl_buf_free(&off);
        return false;
    }
    int64_t sz = tl_dtype_size(b->dtype), base = g->addr[b->id];
    bool first = c->nsp == 0; // operand 0 of the candidate is its destination
    c->sp[c->nsp++] = (span_t){.buf = b,
                               .reg = r,
                               .off = tl_buf_take(&off),
                               .lo = base + lo * sz,
                               .hi = base + (hi + count) * sz,
                               .written = first,
                               .last = -1};
    if (first) c->n = count;
    return count == c->n;
}

// A scalar operand as float C text, the way the library reads it (scalar_f32).
static bool scalar(tl_cgen_t *g, const tl_op_t *op, int i, bool recip, bool neg, cand_t *c)
{
    if (i >= op->nargs || op->args[i].kind != TL_ARG_SCALAR) return false;
    const tl_expr_t *e = op->args[i].scalar;
    char *t = checked_free_text(g, e, false);
    if (!t) return false;
    tl_buf_t b;
    tl_buf_init(&b);
    bool fl = tl_dtype_is_float(e->dtype);
    if (recip)
        tl_buf_printf(&b, "(1.0f / (float)(double)(%s(%s)))", fl ? "" : "(int64_t)", t);
    else
        tl_buf_printf(&b, "(%s(float)(%s(%s)))", neg ? "-" : "", fl ? "(double)" : "(int64_t)", t);
    free(t);
    c->sc[c->nsc++] = tl_buf_take(&b);
    return true;
}

// An optional trailing count operand: -1 when absent, -2 when not a constant.
static int64_t count_of(const tl_cgen_t *g, const tl_op_t *op, int i)
{
    if (i >= op->nargs) return -1;
    int64_t v;
    if (op->args[i].kind != TL_ARG_SCALAR || tl_dtype_is_float(op->args[i].scalar->dtype) ||
        !tl_cgen_const(g, op->args[i].scalar, &v) || v < 0)
        return -2;
    return v;
}

static bool all_f32(const cand_t *c)
{
    for (int i = 0; i < c->nsp; i++)
        if (c->sp[i].buf->dtype != TL_F32) return false;
    return true;
}

// float16 operands only appear in these casts: float32 -> float16 is a call
// of the prelude's span conversion, float16 sources are widened a chunk at a
// time by another (the conversion instructions; see emit_chunked).
static bool cast_pair(tl_dtype_t dt, tl_dtype_t st)
{
    bool to_int = dt == TL_I8 || dt == TL_I16 || dt == TL_I32;
    if (to_int) return st == TL_F32 || st == TL_F16;
    if (dt == TL_F32) return st == TL_I32 || st == TL_BF16 || st == TL_F16;
    return (dt == TL_BF16 || dt == TL_F16) && st == TL_F32;
}

// A row max or min (dim -1, clear) of a 2-D float32 tile of whole rows of at
// least 16 columns: the output (one element per row) and the input span.
static bool analyse_red(tl_cgen_t *g, const tl_op_t *op, cand_t *c)
{
    if (op->nargs != 2 || !op->clear || op->args[0].kind != TL_ARG_REGION ||
        (op->dim != -1 && op->dim != 1))
        return false;
    const tl_region_t *in = &op->args[0].region;
    int64_t rows, cols;
    const int64_t *rs = op->real_shape;
    if (in->ndim != 2 || in->buf->dtype != TL_F32 || !tl_cgen_const(g, in->extent[0], &rows) ||
        !tl_cgen_const(g, in->extent[1], &cols) || rows < 1 || cols < 16 ||
        cols != in->buf->shape[1] || (rs[0] && rs[0] != rows) || (rs[1] && rs[1] != cols))
        return false;
    if (!fuse_region_span(g, op, 1, rows, c) || c->sp[0].buf->dtype != TL_F32) return false;
    c->n = rows * cols;
    if (!fuse_region_span(g, op, 0, rows * cols, c)) return false;
    c->sp[0].red = true;
    c->cols = cols;
    return fuse_disjoint(&c->sp[0], &c->sp[1]);
}

// Operands of op s, if it is one of the supported ops.
bool fuse_analyse(tl_cgen_t *g, const tl_stmt_t *s, cand_t *c)
{
    const tl_op_t *op = &s->op;
    memset(c, 0, sizeof *c);
    if (tl_op_has_int4(op)) return false; // packed nibbles: the library's cast
    if (tl_op_arith(op->code)) { // add .. min: src1 a tile or a scalar
        tl_binop_t bin = tl_op_binary(op->code);
        if (op->nargs != 3 || !fuse_region_span(g, op, 0, -1, c) ||
            !fuse_region_span(g, op, 1, -1, c))
            return false;
        if (op->args[2].kind == TL_ARG_REGION) {
            if (!fuse_region_span(g, op, 2, -1, c)) return false;
        } else if (!scalar(g, op, 2, bin == TL_BIN_DIV, bin == TL_BIN_SUB, c)) {
            return false;
        }
        return all_f32(c);
    }
    switch (op->code) {
    case TL_OP_ABS:
    case TL_OP_RELU:
    case TL_OP_ROUND:
    case TL_OP_SQRT:
    case TL_OP_RECIPROCAL: {
        int64_t n = count_of(g, op, 2);
        return op->nargs <= 3 && n != -2 && fuse_region_span(g, op, 0, n, c) &&
               fuse_region_span(g, op, 1, n, c) && all_f32(c);
    }
    case TL_OP_CLAMP: {
        int64_t n = count_of(g, op, 4);
        return op->nargs >= 4 && op->nargs <= 5 && n != -2 && fuse_region_span(g, op, 0, n, c) &&
               fuse_region_span(g, op, 1, n, c) && scalar(g, op, 2, false, false, c) &&
               scalar(g, op, 3, false, false, c) && all_f32(c);
    }
    case TL_OP_FILL:
        return op->nargs == 2 && fuse_region_span(g, op, 0, -1, c) &&
               scalar(g, op, 1, false, false, c) && all_f32(c);
    case TL_OP_ROW_EXPAND_MUL:
    case TL_OP_ROW_EXPAND_SUB:
    case TL_OP_ROW_EXPAND_DIV: {
        if (op->nargs != 3 || !fuse_region_span(g, op, 0, -1, c) ||
            !fuse_region_span(g, op, 1, -1, c) || !all_f32(c))
            return false;
        const tl_region_t *d = &op->args[0].region;
        int64_t n = c->n;
        if (!tl_cgen_const(g, d->extent[d->ndim - 1], &c->cols) || c->cols <= 0) return false;
        c->n = n / c->cols; // the row operand has one element per row
        bool ok = fuse_region_span(g, op, 2, -1, c) && all_f32(c);
        c->n = n;
        if (ok) c->sp[2].vec = true;
        return ok;
    }
    case TL_OP_REDUCE_MAX:
    case TL_OP_REDUCE_MIN: return analyse_red(g, op, c);
    case TL_OP_CAST: {
        int64_t n = count_of(g, op, 2);
        if (op->nargs > 3 || n == -2 || (op->round != TL_CAST_RINT && op->round != TL_CAST_NONE) ||
            !fuse_region_span(g, op, 0, n, c) || !fuse_region_span(g, op, 1, n, c))
            return false;
        // pairs and modes the device lacks are the library's error
        return cast_pair(c->sp[0].buf->dtype, c->sp[1].buf->dtype) &&
               tl_cast_on_ascend(c->sp[0].buf->dtype, c->sp[1].buf->dtype, op->round, NULL) &&
               (c->sp[0].hi <= c->sp[1].lo || c->sp[1].hi <= c->sp[0].lo);
    }
    case TL_OP_COPY: {
        // UB -> UB of one dtype, the same extents on both sides (the copy's
        // operands are source, destination)
        if (op->nargs != 2 || op->transpose || op->enable_relu || op->pad_value ||
            op->args[0].kind != TL_ARG_REGION || op->args[1].kind != TL_ARG_REGION)
            return false;
        const tl_region_t *src = &op->args[0].region, *dst = &op->args[1].region;
        if (src->form == TL_REGION_POINT || dst->form == TL_REGION_POINT ||
            src->ndim != dst->ndim || src->buf->dtype != dst->buf->dtype ||
            src->buf->dtype == TL_F16)
            return false;
        for (int d = 0; d < src->ndim; d++) {
            int64_t a, b;
            if (!tl_cgen_const(g, src->extent[d], &a) || !tl_cgen_const(g, dst->extent[d], &b) ||
                a != b)
                return false;
        }
        return fuse_region_span(g, op, 1, -1, c) && fuse_region_span(g, op, 0, -1, c);
    }
    default: return false;
    }
}

// Structural equality of two index expressions (no loads, so equal values).
static bool expr_eq(const tl_expr_t *a, const tl_expr_t *b)
{
    if (a == b) return true;
    if (!a || !b || a->kind != b->kind || a->dtype != b->dtype) return false;
    switch (a->kind) {
    case TL_EX_INT: return a->i == b->i;
    case TL_EX_FLOAT: return !memcmp(&a->f, &b->f, sizeof a->f);
    case TL_EX_VAR: return a->var == b->var;
    case TL_EX_BIN:
    case TL_EX_UN:
        return a->op.op == b->op.op && expr_eq(a->op.a, b->op.a) && expr_eq(a->op.b, b->op.b);
    case TL_EX_CAST:
    case TL_EX_REINTERPRET: return expr_eq(a->arg, b->arg);
    case TL_EX_SELECT:
        return expr_eq(a->sel.cond, b->sel.cond) && expr_eq(a->sel.a, b->sel.a) &&
               expr_eq(a->sel.b, b->sel.b);
    default: return false;
    }
}

// The same elements: one buffer, equal starts (the lengths are the group's).
static bool same(const span_t *a, const span_t *b)
{
    if (a->vec || b->vec || a->red || b->red || a->buf != b->buf) return false;
    for (int d = 0; d < a->reg->ndim; d++)
        if (!expr_eq(a->reg->start[d], b->reg->start[d])) return false;
    return true;
}

bool fuse_disjoint(const span_t *a, const span_t *b)
{
    return a->hi <= b->lo || b->hi <= a->lo;
}

// A reduction's output is written once per row, after the row: disjoint from
// every other span.
static bool compatible(const span_t *a, const span_t *b)
{
    if (a->red || b->red) return fuse_disjoint(a, b);
    if (!a->written && !b->written) return true;
    return fuse_disjoint(a, b) || same(a, b);
}

static int find(const group_t *gr, const span_t *sp)
{
    for (int j = 0; j < gr->nsp; j++)
        if (same(sp, &gr->sp[j])) return j;
    return -1;
}

// Adds candidate c (op s) to the group when its spans allow it; takes c's texts.
//
// A row max/min folds its input in an order of its own: the fold's result is
// the same in any order but for the sign of a zero maximum (minimum), which
// the library takes from the first zero in column order. So the input is
// either the value an abs computed in the group (no negative zeros) or a span
// no op of the group writes, which the loop then refolds from memory when a
// row's result is zero.
bool fuse_join(group_t *gr, const tl_stmt_t *s, cand_t *c)
{
    tl_opcode_t code = s->op.code;
    for (int i = 1; i < c->nsp; i++)
        if (!compatible(&c->sp[0], &c->sp[i])) return false;
    if (gr->nop) {
        if (c->n != gr->n || (c->cols && gr->cols && c->cols != gr->cols) || gr->nop >= MAX_OPS ||
            gr->nsp + c->nsp > MAX_SPANS)
            return false;
        for (int i = 0; i < c->nsp; i++)
            for (int j = 0; j < gr->nsp; j++)
                if (!compatible(&c->sp[i], &gr->sp[j])) return false;
    }
    int in = is_reduce(code) ? find(gr, &c->sp[1]) : -1;
    if (in >= 0 && gr->sp[in].written && gr->sp[in].last != TL_OP_ABS) return false;
    int dst = c->sp[0].red ? -1 : find(gr, &c->sp[0]);
    if (dst >= 0 && gr->sp[dst].refold) return false;
    bool early[3] = {false, false, false}; // sources not written by an earlier op
    for (int i = 1; i < c->nsp; i++) {
        int j = find(gr, &c->sp[i]);
        early[i] = j < 0 || !gr->sp[j].written;
    }
    fop_t *o = &gr->op[gr->nop++];
    memset(o, 0, sizeof *o);
    o->s = s;
    for (int i = 0; i < 3; i++) o->sp[i] = -1;
    for (int i = 0; i < c->nsp; i++) {
        int at = -1;
        for (int j = 0; j < gr->nsp && at < 0; j++)
            if (same(&c->sp[i], &gr->sp[j])) at = j;
        if (at < 0) {
            at = gr->nsp++;
            gr->sp[at] = c->sp[i];
            c->sp[i].off = NULL;
        } else {
            gr->sp[at].written |= c->sp[i].written;
        }
        gr->sp[at].early |= early[i];
        o->sp[i] = at;
    }
    o->nspan = c->nsp;
    for (int i = 0; i < c->nsc; i++) o->sc[i] = c->sc[i], c->sc[i] = NULL;
    o->nsc = c->nsc;
    if (is_reduce(code)) {
        gr->sp[o->sp[1]].refold |= !gr->sp[o->sp[1]].written;
        o->absmax = code == TL_OP_REDUCE_MAX && in >= 0 && gr->sp[in].written; // an abs (above)
    } else {
        gr->sp[o->sp[0]].last = (int)code;
    }
    gr->n = c->n;
    if (c->cols) gr->cols = c->cols;
    fuse_cand_free(c);
    return true;
}
