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

#include "cpu/cgen.h"
#include "pass/access.h"

enum { MAX_SPANS = 32, MAX_OPS = 24, MAX_UNITS = 64, MAX_FEET = 128 };

typedef struct {
    const tl_buffer_t *buf;
    const tl_region_t *reg; // its region (the starts identify the span)
    char *off;              // flat element offset (C text)
    int64_t lo, hi;         // bytes of the scratchpad it may touch
    bool vec;               // a row operand: element r for row r
    bool red;               // a row reduction's output: element r for row r
    bool written;
    bool dead;   // written, and no later statement reads it: not stored
    bool refold; // read by a row max/min that refolds it from memory (see join)
    bool early;  // read by an op of the group before (or as) one writes it
    int last;    // opcode of the op that last wrote it in the group (-1: none)
    int out;     // > 0: stored through W<out - 1>, maybe in GM (see "written in place")
} span_t;

typedef struct {
    const tl_stmt_t *s;
    int sp[3];   // group span indices: destination, then sources (-1: none)
    char *sc[2]; // scalar operands (float C text)
    int nspan, nsc;
    bool absmax; // a row max of an abs computed in the group (folded on the bits, see zemit_op)
} fop_t;

typedef struct {
    span_t sp[MAX_SPANS];
    int nsp;
    fop_t op[MAX_OPS];
    int nop;
    int64_t n, cols; // elements; row length of row_expand ops and reductions (0: none)
} group_t;

static bool is_reduce(tl_opcode_t code)
{
    return code == TL_OP_REDUCE_MAX || code == TL_OP_REDUCE_MIN;
}

// A candidate op before it joins the group.
typedef struct {
    span_t sp[3];
    int nsp;
    char *sc[2];
    int nsc;
    int64_t n, cols;
} cand_t;

static void cand_free(cand_t *c)
{
    for (int i = 0; i < c->nsp; i++) free(c->sp[i].off);
    for (int i = 0; i < c->nsc; i++) free(c->sc[i]);
    memset(c, 0, sizeof *c);
}

static void group_free(group_t *gr)
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
static bool region_span(tl_cgen_t *g, const tl_op_t *op, int i, int64_t count, cand_t *c)
{
    if (i >= op->nargs || op->args[i].kind != TL_ARG_REGION || c->nsp >= 3) return false;
    const tl_region_t *r = &op->args[i].region;
    const tl_buffer_t *b = r->buf;
    if (b->scope != TL_SCOPE_UB || !vec_dtype(b->dtype) || r->ndim < 1 || r->ndim != b->ndim ||
        g->x->addr[b->id] < 0)
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
    int64_t sz = tl_dtype_size(b->dtype), base = g->x->addr[b->id];
    bool first = c->nsp == 0; // operand 0 of the candidate is its destination
    c->sp[c->nsp++] =
        (span_t){.buf = b,
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

static bool disjoint(const span_t *a, const span_t *b);

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
    if (!region_span(g, op, 1, rows, c) || c->sp[0].buf->dtype != TL_F32) return false;
    c->n = rows * cols;
    if (!region_span(g, op, 0, rows * cols, c)) return false;
    c->sp[0].red = true;
    c->cols = cols;
    return disjoint(&c->sp[0], &c->sp[1]);
}

// Operands of op s, if it is one of the supported ops.
static bool analyse(tl_cgen_t *g, const tl_stmt_t *s, cand_t *c)
{
    const tl_op_t *op = &s->op;
    memset(c, 0, sizeof *c);
    switch (op->code) {
    case TL_OP_ADD:
    case TL_OP_SUB:
    case TL_OP_MUL:
    case TL_OP_DIV:
    case TL_OP_MAX:
    case TL_OP_MIN:
        if (op->nargs != 3 || !region_span(g, op, 0, -1, c) || !region_span(g, op, 1, -1, c))
            return false;
        if (op->args[2].kind == TL_ARG_REGION) {
            if (!region_span(g, op, 2, -1, c)) return false;
        } else if (!scalar(g, op, 2, op->code == TL_OP_DIV, op->code == TL_OP_SUB, c)) {
            return false;
        }
        return all_f32(c);
    case TL_OP_ABS:
    case TL_OP_RELU:
    case TL_OP_ROUND:
    case TL_OP_SQRT:
    case TL_OP_RECIPROCAL: {
        int64_t n = count_of(g, op, 2);
        return op->nargs <= 3 && n != -2 && region_span(g, op, 0, n, c) &&
               region_span(g, op, 1, n, c) && all_f32(c);
    }
    case TL_OP_CLAMP: {
        int64_t n = count_of(g, op, 4);
        return op->nargs >= 4 && op->nargs <= 5 && n != -2 && region_span(g, op, 0, n, c) &&
               region_span(g, op, 1, n, c) && scalar(g, op, 2, false, false, c) &&
               scalar(g, op, 3, false, false, c) && all_f32(c);
    }
    case TL_OP_FILL:
        return op->nargs == 2 && region_span(g, op, 0, -1, c) &&
               scalar(g, op, 1, false, false, c) && all_f32(c);
    case TL_OP_ROW_EXPAND_MUL:
    case TL_OP_ROW_EXPAND_SUB:
    case TL_OP_ROW_EXPAND_DIV: {
        if (op->nargs != 3 || !region_span(g, op, 0, -1, c) || !region_span(g, op, 1, -1, c) ||
            !all_f32(c))
            return false;
        const tl_region_t *d = &op->args[0].region;
        int64_t n = c->n;
        if (!tl_cgen_const(g, d->extent[d->ndim - 1], &c->cols) || c->cols <= 0) return false;
        c->n = n / c->cols; // the row operand has one element per row
        bool ok = region_span(g, op, 2, -1, c) && all_f32(c);
        c->n = n;
        if (ok) c->sp[2].vec = true;
        return ok;
    }
    case TL_OP_REDUCE_MAX:
    case TL_OP_REDUCE_MIN: return analyse_red(g, op, c);
    case TL_OP_CAST: {
        int64_t n = count_of(g, op, 2);
        if (op->nargs > 3 || n == -2 || (op->round != TL_CAST_RINT && op->round != TL_CAST_NONE) ||
            !region_span(g, op, 0, n, c) || !region_span(g, op, 1, n, c))
            return false;
        return cast_pair(c->sp[0].buf->dtype, c->sp[1].buf->dtype) &&
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
        return region_span(g, op, 1, -1, c) && region_span(g, op, 0, -1, c);
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

static bool disjoint(const span_t *a, const span_t *b)
{
    return a->hi <= b->lo || b->hi <= a->lo;
}

// A reduction's output is written once per row, after the row: disjoint from
// every other span.
static bool compatible(const span_t *a, const span_t *b)
{
    if (a->red || b->red) return disjoint(a, b);
    if (!a->written && !b->written) return true;
    return disjoint(a, b) || same(a, b);
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
static bool join(group_t *gr, const tl_stmt_t *s, cand_t *c)
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
    cand_free(c);
    return true;
}

// --- emission --------------------------------------------------------------------------

static const char *store_type(tl_dtype_t t)
{
    switch (t) {
    case TL_F32: return "float";
    case TL_BF16:
    case TL_F16: return "uint16_t";
    case TL_I8: return "int8_t";
    case TL_I16: return "int16_t";
    default: return "int32_t";
    }
}

// What the vector form knows about a float32 value: every lane lies in
// [lo, hi] or is NaN (known), or is an integer or NaN (integral).
typedef struct {
    bool known, integral;
    double lo, hi;
} vrange_t;

typedef struct {
    tl_cgen_t *g;
    group_t *gr;
    int base;           // name prefix number
    int val[MAX_SPANS]; // temp holding the span's element this iteration, or -1
    int tmp;
    bool tail; // scalar tail of a vector loop: float16 elements converted one by one
    bool dirty[MAX_SPANS]; // vector form: span written this iteration (stored at its end)
    vrange_t rng[MAX_SPANS]; // vector form: what is known of the value of val[i]
    int exact[MAX_SPANS];    // float16 value of val[i]: the float32 temp it equals, or -1
    int unround[MAX_SPANS];  // val[i] = round(the float32 temp unround[i]), or -1
} emit_t;

// The name of the current element of span i (loaded on first use).
static void value(emit_t *e, int i, char *out, size_t cap)
{
    if (e->gr->sp[i].vec) {
        snprintf(out, cap, "w%d_%d", e->base, i);
        return;
    }
    if (e->gr->sp[i].buf->dtype == TL_F16 && !e->tail) { // widened at the start of the segment
        snprintf(out, cap, "h%d_%d[c - c0]", e->base, i);
        return;
    }
    if (e->val[i] < 0) {
        e->val[i] = e->tmp++;
        tl_cgen_line(e->g, "const %s x%d_%d = p%d_%d[j];", store_type(e->gr->sp[i].buf->dtype),
                     e->base, e->val[i], e->base, i);
    }
    snprintf(out, cap, "x%d_%d", e->base, e->val[i]);
}

// Stores expression `v` (in the destination's storage type) to span i (only
// in a local when the span is dead).
static void result(emit_t *e, int i, const char *v)
{
    int t = e->tmp++;
    tl_cgen_line(e->g, "const %s x%d_%d = %s;", store_type(e->gr->sp[i].buf->dtype), e->base, t, v);
    if (!e->gr->sp[i].dead) tl_cgen_line(e->g, "p%d_%d[j] = x%d_%d;", e->base, i, e->base, t);
    e->val[i] = t;
}

// --- row reductions in the group ----------------------------------------------------------
//
// Op k, a row max/min, keeps per row a float t<base>_<k> (the extreme value so
// far) and an int u<base>_<k> (a NaN was seen); the vector form folds 16 lanes
// a<base>_<k> (and the NaN lanes q<base>_<k>) first. At the end of the row the
// output is NaN if any element was, else the extreme value (refolded in
// column order from memory when it is zero, see join).

static const char *red_fill(const fop_t *o)
{
    return o->s->op.code == TL_OP_REDUCE_MAX ? "-INFINITY" : "INFINITY";
}

static const char *red_cmp(const fop_t *o)
{
    return o->s->op.code == TL_OP_REDUCE_MAX ? ">" : "<";
}

// Scalar forms: the fold itself, in column order.
static void red_begin(emit_t *e)
{
    for (int k = 0; k < e->gr->nop; k++) {
        const fop_t *o = &e->gr->op[k];
        if (!is_reduce(o->s->op.code)) continue;
        tl_cgen_line(e->g, "float t%d_%d = %s;", e->base, k, red_fill(o));
        tl_cgen_line(e->g, "int32_t u%d_%d = 0;", e->base, k);
    }
}

// The row's results (r: the row); refold: the vector form's zero check.
static void red_end(emit_t *e, bool refold)
{
    const group_t *gr = e->gr;
    for (int k = 0; k < gr->nop; k++) {
        const fop_t *o = &gr->op[k];
        if (!is_reduce(o->s->op.code)) continue;
        int b = e->base, in = o->sp[1];
        if (refold && gr->sp[in].refold) {
            tl_cgen_line(e->g, "if (t%d_%d == 0.0f && !u%d_%d) {", b, k, b, k);
            tl_cgen_line(e->g, "    t%d_%d = %s;", b, k, red_fill(o));
            tl_cgen_line(e->g,
                         "    for (int64_t c = 0; c < INT64_C(%" PRId64 "); c++) { const float x = "
                         "p%d_%d[r * INT64_C(%" PRId64 ") + c]; "
                         "t%d_%d = x %s t%d_%d ? x : t%d_%d; }",
                         gr->cols, b, in, gr->cols, b, k, red_cmp(o), b, k, b, k);
            tl_cgen_line(e->g, "}");
        }
        tl_cgen_line(e->g, "p%d_%d[r] = u%d_%d ? NAN : t%d_%d;", b, o->sp[0], b, k, b, k);
    }
}

static void red_fold(emit_t *e, const fop_t *o, const char *v)
{
    int b = e->base, k = (int)(o - e->gr->op);
    tl_cgen_line(e->g, "u%d_%d |= %s != %s; t%d_%d = %s %s t%d_%d ? %s : t%d_%d;", b, k, v, v, b, k,
                 v, red_cmp(o), b, k, v, b, k);
}

static void cast_value(char *out, size_t cap, tl_dtype_t dt, tl_dtype_t st, const char *x,
                       bool tail)
{
    char w[96];
    snprintf(w, sizeof w,
             st == TL_BF16           ? "tlc_bf16_f32(%s)"
             : st == TL_F16 && tail ? "tlc_f16_f32(%s)"
                                    : "%s",
             x);
    switch (dt) {
    case TL_F16: snprintf(out, cap, "tlc_f32_f16(%s)", w); break; // tails only
    case TL_I8: snprintf(out, cap, "(int8_t)tlc_v_sat(%s, -128.0f, 127.0f)", w); break;
    case TL_I16: snprintf(out, cap, "(int16_t)tlc_v_sat(%s, -32768.0f, 32767.0f)", w); break;
    case TL_I32: snprintf(out, cap, "tlc_v_sat32(%s)", w); break;
    case TL_BF16: snprintf(out, cap, "tlc_v_f32_bf16(%s)", w); break;
    default: snprintf(out, cap, st == TL_I32 ? "(float)%s" : "%s", w); break;
    }
}

static void emit_op(emit_t *e, const fop_t *o, const char *const *sc)
{
    tl_opcode_t code = o->s->op.code;
    char a[48], b[48], v[512];
    const group_t *gr = e->gr;
    if (is_reduce(code)) {
        value(e, o->sp[1], a, sizeof a);
        red_fold(e, o, a);
        return;
    }
    if (code == TL_OP_FILL) {
        result(e, o->sp[0], sc[0]);
        return;
    }
    if (code == TL_OP_COPY) { // sp[0] is the destination (operand 1), sp[1] the source
        value(e, o->sp[1], a, sizeof a);
        result(e, o->sp[0], a);
        return;
    }
    value(e, o->sp[1], a, sizeof a);
    if (o->nspan > 2)
        value(e, o->sp[2], b, sizeof b);
    else if (o->nsc)
        snprintf(b, sizeof b, "%s", sc[0]);
    switch (code) {
    case TL_OP_ADD: snprintf(v, sizeof v, "%s + %s", a, b); break;
    case TL_OP_SUB: snprintf(v, sizeof v, o->nspan > 2 ? "%s - %s" : "%s + %s", a, b); break;
    case TL_OP_MUL:
    case TL_OP_ROW_EXPAND_MUL: snprintf(v, sizeof v, "%s * %s", a, b); break;
    case TL_OP_DIV: snprintf(v, sizeof v, o->nspan > 2 ? "%s / %s" : "%s * %s", a, b); break;
    case TL_OP_ROW_EXPAND_SUB: snprintf(v, sizeof v, "%s - %s", a, b); break;
    case TL_OP_ROW_EXPAND_DIV: snprintf(v, sizeof v, "%s / %s", a, b); break;
    case TL_OP_MAX: snprintf(v, sizeof v, "%s > %s || %s != %s ? %s : %s", a, b, a, a, a, b); break;
    case TL_OP_MIN: snprintf(v, sizeof v, "%s < %s || %s != %s ? %s : %s", a, b, a, a, a, b); break;
    case TL_OP_ABS: snprintf(v, sizeof v, "__builtin_fabsf(%s)", a); break;
    case TL_OP_RELU: snprintf(v, sizeof v, "%s < 0 ? 0.0f : %s", a, a); break;
    case TL_OP_ROUND: snprintf(v, sizeof v, "__builtin_rintf(%s)", a); break;
    case TL_OP_SQRT: snprintf(v, sizeof v, "__builtin_sqrtf(%s)", a); break;
    case TL_OP_RECIPROCAL: snprintf(v, sizeof v, "1.0f / %s", a); break;
    case TL_OP_CLAMP:
        snprintf(v, sizeof v, "%s < %s ? %s : %s > %s ? %s : %s", a, sc[0], sc[0], a, sc[1], sc[1],
                 a);
        break;
    case TL_OP_CAST:
        cast_value(v, sizeof v, gr->sp[o->sp[0]].buf->dtype, gr->sp[o->sp[1]].buf->dtype, a,
                   e->tail);
        break;
    default: snprintf(v, sizeof v, "%s", a); break;
    }
    result(e, o->sp[0], v);
}

// --- the AVX-512 form ----------------------------------------------------------------
//
// With TLC_V512 (the prelude's test of the compiler's target flags) a group's
// loop runs 16 elements at a time on intrinsics, then a scalar tail; the
// helpers (tlc_z_*) compute the scalar forms' results bit for bit. Values are
// kept in their storage form (float32 as __m512, 16-bit types as __m256i, ...),
// like the scalar locals, and each written span is stored once at the end of
// the iteration with its last value: the spans of a group are equal or
// disjoint, so no read in the iteration sees the stores.

static const char *zstore_type(tl_dtype_t t)
{
    switch (t) {
    case TL_F32: return "__m512";
    case TL_I8: return "__m128i";
    case TL_I32: return "__m512i";
    default: return "__m256i"; // bfloat16, float16, int16
    }
}

static void zvalue(emit_t *e, int i, char *out, size_t cap)
{
    const span_t *sp = &e->gr->sp[i];
    if (sp->vec) {
        snprintf(out, cap, "y%d_%d", e->base, i);
        return;
    }
    if (e->val[i] < 0) {
        char p[48];
        e->val[i] = e->tmp++;
        snprintf(p, sizeof p, "p%d_%d + j", e->base, i);
        const char *t = zstore_type(sp->buf->dtype);
        switch (sp->buf->dtype) {
        case TL_F32:
            tl_cgen_line(e->g, "const %s z%d_%d = _mm512_loadu_ps(%s);", t, e->base, e->val[i], p);
            break;
        case TL_I32:
            tl_cgen_line(e->g, "const %s z%d_%d = _mm512_loadu_si512(%s);", t, e->base, e->val[i],
                         p);
            break;
        case TL_I8:
            tl_cgen_line(e->g, "const %s z%d_%d = _mm_loadu_si128((const __m128i *)(%s));", t,
                         e->base, e->val[i], p);
            break;
        default:
            tl_cgen_line(e->g, "const %s z%d_%d = _mm256_loadu_si256((const __m256i *)(%s));", t,
                         e->base, e->val[i], p);
            break;
        }
    }
    snprintf(out, cap, "z%d_%d", e->base, e->val[i]);
}

static void zresult(emit_t *e, int i, const char *v)
{
    int t = e->tmp++;
    tl_cgen_line(e->g, "const %s z%d_%d = %s;", zstore_type(e->gr->sp[i].buf->dtype), e->base, t,
                 v);
    e->val[i] = t;
    e->dirty[i] = true;
}

static void zstore(emit_t *e, int i)
{
    int b = e->base, v = e->val[i], out = e->gr->sp[i].out;
    if (out) { // into GM, with streaming stores when W<id>_s says so
        static const char *const form[] = {
            "_mm512_stream_ps(p%d_%d + j, z%d_%d);",
            "_mm512_stream_si512((void *)(p%d_%d + j), z%d_%d);",
            "_mm_stream_si128((__m128i *)(p%d_%d + j), z%d_%d);",
            "_mm256_stream_si256((__m256i *)(p%d_%d + j), z%d_%d);",
        };
        tl_dtype_t t = e->gr->sp[i].buf->dtype;
        int f = t == TL_F32 ? 0 : t == TL_I32 ? 1 : t == TL_I8 ? 2 : 3;
        tl_cgen_line(e->g, "if (W%d_s)", out - 1);
        e->g->indent++;
        tl_cgen_line(e->g, form[f], b, i, b, v);
        e->g->indent--;
        tl_cgen_line(e->g, "else");
        e->g->indent++;
    }
    switch (e->gr->sp[i].buf->dtype) {
    case TL_F32: tl_cgen_line(e->g, "_mm512_storeu_ps(p%d_%d + j, z%d_%d);", b, i, b, v); break;
    case TL_I32: tl_cgen_line(e->g, "_mm512_storeu_si512(p%d_%d + j, z%d_%d);", b, i, b, v); break;
    case TL_I8:
        tl_cgen_line(e->g, "_mm_storeu_si128((__m128i *)(p%d_%d + j), z%d_%d);", b, i, b, v);
        break;
    default:
        tl_cgen_line(e->g, "_mm256_storeu_si256((__m256i *)(p%d_%d + j), z%d_%d);", b, i, b, v);
        break;
    }
    if (out) e->g->indent--;
}

// x: the source value; r: what is known of it as float32 (after a float16
// source's widening).
static void zcast(char *out, size_t cap, tl_dtype_t dt, tl_dtype_t st, const char *x,
                  const vrange_t *r)
{
    char w[96];
    const char *to = st == TL_BF16  ? "tlc_z_bf16_f32(%s)"
                     : st == TL_F16 ? "_mm512_cvtph_ps(%s)"
                     : st == TL_I32 ? "_mm512_cvtepi32_ps(%s)"
                                    : "%s";
    snprintf(w, sizeof w, to, x);
    // in range (or NaN): no saturation; a NaN converts to 0x80000000, whose
    // low 8 or 16 bits are the 0 that the saturating forms give
    bool fits8 = r->known && r->lo >= -128 && r->hi <= 127;
    bool fits16 = r->known && r->lo >= -32768 && r->hi <= 32767;
    switch (dt) {
    case TL_I8:
        snprintf(out, cap,
                 fits8 ? "_mm512_cvtepi32_epi8(_mm512_cvtps_epi32(%s))" : "tlc_z_f32_i8(%s)", w);
        break;
    case TL_I16:
        snprintf(out, cap,
                 fits16 ? "_mm512_cvtepi32_epi16(_mm512_cvtps_epi32(%s))" : "tlc_z_f32_i16(%s)", w);
        break;
    case TL_I32: snprintf(out, cap, "tlc_z_f32_i32(%s)", w); break;
    case TL_BF16: snprintf(out, cap, "tlc_z_f32_bf16(%s)", w); break;
    case TL_F16: snprintf(out, cap, "tlc_z_f32_f16(%s)", w); break;
    default: snprintf(out, cap, "%s", w); break;
    }
}

// Op o in vector form; zsc: its scalar operands broadcast.
// The value of a constant scalar operand as the library reads it (float32).
static bool const_scalar(const tl_expr_t *x, double *v)
{
    if (!x) return false;
    switch (x->kind) {
    case TL_EX_FLOAT: *v = x->f; break;
    case TL_EX_INT: *v = (double)x->i; break;
    case TL_EX_CAST:
        if ((x->dtype != TL_F32 && x->dtype != TL_F64) || !const_scalar(x->arg, v)) return false;
        break;
    case TL_EX_UN:
        if (x->op.op != TL_UN_NEG || !const_scalar(x->op.a, v)) return false;
        *v = -*v;
        break;
    default: return false;
    }
    *v = (double)(float)*v;
    return *v == *v;
}

// Op o in vector form; zsc: its scalar operands broadcast. What is known of
// the values (vrange_t) shortens a few forms, with the same bits: a clamp
// with constant bounds lo <= hi as max then min (either returns its second
// operand for a NaN or for equal values, as the compare-and-select of the
// scalar form does); a conversion to int8 / int16 of round(x) in range as
// that of x (vcvtps2dq rounds in the current mode, as the round does); a
// float16 value that is an integer of at most 2048 in
// magnitude (or NaN) as the float32 it came from when it is converted to an
// integer (NaN gives 0 either way); a float -> int8 / int16 conversion of a
// value in range without saturation.
static void zemit_op(emit_t *e, const fop_t *o, const char *const *zsc)
{
    tl_opcode_t code = o->s->op.code;
    char a[48], b[48], v[512];
    const group_t *gr = e->gr;
    vrange_t out = {false, false, 0, 0};
    int exact = -1, unround = -1;
    if (is_reduce(code) && o->absmax) {
        // |x| has the sign bit clear: its bits order as unsigned integers as
        // the values do, and a NaN's bits are above those of infinity
        int k = (int)(o - gr->op);
        zvalue(e, o->sp[1], a, sizeof a);
        tl_cgen_line(e->g, "a%d_%d = _mm512_max_epu32(a%d_%d, _mm512_castps_si512(%s));", e->base,
                     k, e->base, k, a);
        return;
    }
    if (is_reduce(code)) { // a NaN operand leaves the accumulator as it is
        int k = (int)(o - gr->op);
        zvalue(e, o->sp[1], a, sizeof a);
        tl_cgen_line(e->g, "q%d_%d |= _mm512_cmp_ps_mask(%s, %s, _CMP_UNORD_Q);", e->base, k, a, a);
        tl_cgen_line(e->g, "a%d_%d = _mm512_%s_ps(%s, a%d_%d);", e->base, k,
                     code == TL_OP_REDUCE_MAX ? "max" : "min", a, e->base, k);
        return;
    }
    if (code == TL_OP_FILL) {
        zresult(e, o->sp[0], zsc[0]);
        return;
    }
    zvalue(e, o->sp[1], a, sizeof a);
    if (code == TL_OP_COPY) {
        zresult(e, o->sp[0], a);
        return;
    }
    if (o->nspan > 2)
        zvalue(e, o->sp[2], b, sizeof b);
    else if (o->nsc)
        snprintf(b, sizeof b, "%s", zsc[0]);
    bool two = o->nspan > 2;
    switch (code) {
    case TL_OP_ADD: snprintf(v, sizeof v, "_mm512_add_ps(%s, %s)", a, b); break;
    case TL_OP_SUB: snprintf(v, sizeof v, "_mm512_%s_ps(%s, %s)", two ? "sub" : "add", a, b); break;
    case TL_OP_MUL:
    case TL_OP_ROW_EXPAND_MUL: snprintf(v, sizeof v, "_mm512_mul_ps(%s, %s)", a, b); break;
    case TL_OP_DIV: snprintf(v, sizeof v, "_mm512_%s_ps(%s, %s)", two ? "div" : "mul", a, b); break;
    case TL_OP_ROW_EXPAND_SUB: snprintf(v, sizeof v, "_mm512_sub_ps(%s, %s)", a, b); break;
    case TL_OP_ROW_EXPAND_DIV: snprintf(v, sizeof v, "_mm512_div_ps(%s, %s)", a, b); break;
    case TL_OP_MAX: snprintf(v, sizeof v, "tlc_z_max(%s, %s)", a, b); break;
    case TL_OP_MIN: snprintf(v, sizeof v, "tlc_z_min(%s, %s)", a, b); break;
    case TL_OP_ABS: snprintf(v, sizeof v, "_mm512_abs_ps(%s)", a); break;
    case TL_OP_RELU: snprintf(v, sizeof v, "tlc_z_relu(%s)", a); break;
    case TL_OP_ROUND:
        snprintf(v, sizeof v, "_mm512_roundscale_ps(%s, _MM_FROUND_CUR_DIRECTION)", a);
        break;
    case TL_OP_SQRT: snprintf(v, sizeof v, "_mm512_sqrt_ps(%s)", a); break;
    case TL_OP_RECIPROCAL: snprintf(v, sizeof v, "_mm512_div_ps(_mm512_set1_ps(1.0f), %s)", a); break;
    case TL_OP_CLAMP: {
        double lo, hi;
        const tl_op_t *op = &o->s->op;
        if (!const_scalar(op->args[2].scalar, &lo) || !const_scalar(op->args[3].scalar, &hi) ||
            lo > hi) {
            snprintf(v, sizeof v, "tlc_z_clamp(%s, %s, %s)", a, zsc[0], zsc[1]);
            break;
        }
        snprintf(v, sizeof v, "_mm512_min_ps(%s, _mm512_max_ps(%s, %s))", zsc[1], zsc[0], a);
        const vrange_t *r = &e->rng[o->sp[1]];
        out = (vrange_t){true, r->integral && lo == floor(lo) && hi == floor(hi), lo, hi};
        break;
    }
    case TL_OP_CAST: {
        tl_dtype_t dt = gr->sp[o->sp[0]].buf->dtype, st = gr->sp[o->sp[1]].buf->dtype;
        const vrange_t *r = &e->rng[o->sp[1]];
        int from = e->exact[o->sp[1]];
        bool to_int = dt == TL_I8 || dt == TL_I16 || dt == TL_I32;
        int pre = e->unround[o->sp[1]];
        bool fits = r->known && r->lo >= (dt == TL_I8 ? -128 : -32768) &&
                    r->hi <= (dt == TL_I8 ? 127 : 32767) && (dt == TL_I8 || dt == TL_I16);
        if (st == TL_F16 && from >= 0 && to_int) { // the float32 value it came from
            char f[48];
            snprintf(f, sizeof f, "z%d_%d", e->base, fits && pre >= 0 ? pre : from);
            zcast(v, sizeof v, dt, TL_F32, f, &e->rng[o->sp[1]]);
            break;
        }
        vrange_t none = {false, false, 0, 0};
        if (st == TL_F32 && pre >= 0 && fits) snprintf(a, sizeof a, "z%d_%d", e->base, pre);
        zcast(v, sizeof v, dt, st, a, st == TL_F32 ? r : &none);
        if (st == TL_F32 && dt == TL_F16 && r->known && r->integral && r->lo >= -2048 &&
            r->hi <= 2048) {
            exact = e->val[o->sp[1]];
            out = *r;
            unround = pre;
        }
        break;
    }
    default: snprintf(v, sizeof v, "%s", a); break;
    }
    if (code == TL_OP_ROUND && e->rng[o->sp[1]].known)
        out = (vrange_t){true, true, floor(e->rng[o->sp[1]].lo), ceil(e->rng[o->sp[1]].hi)};
    if (code == TL_OP_ROUND) unround = e->val[o->sp[1]];
    zresult(e, o->sp[0], v);
    e->rng[o->sp[0]] = out;
    e->exact[o->sp[0]] = exact;
    e->unround[o->sp[0]] = unround;
}

// The group's loop in vector form: per row (row_expand groups) 16 columns at
// a time, then the remaining columns one by one through the scalar ops.
static void emit_vector(emit_t *e, const char *const (*sc)[2], int64_t cols)
{
    tl_cgen_t *g = e->g;
    group_t *gr = e->gr;
    char zn[MAX_OPS][2][48];
    const char *zsc[MAX_OPS][2];
    for (int k = 0; k < gr->nop; k++)
        for (int j = 0; j < gr->op[k].nsc; j++) {
            snprintf(zn[k][j], sizeof zn[k][j], "v%d_%d_%d", e->base, k, j);
            tl_cgen_line(g, "const __m512 %s = _mm512_set1_ps(%s);", zn[k][j], sc[k][j]);
            zsc[k][j] = zn[k][j];
        }
    // rows shorter than a vector (row_expand over cols dividing 16): the tile
    // is one run, a vector holds 16 / cols rows, the row operands are spread
    // over it (lane l takes row l / cols of the vector's first row)
    bool packed = gr->cols && gr->cols < 16;
    int64_t len = packed ? gr->n : cols;
    char j[64];
    snprintf(j, sizeof j, gr->cols && !packed ? "r * INT64_C(%" PRId64 ") + c" : "c", cols);
    // the prefetches of GM regions read in place go out one line per iteration,
    // into L2 (prefetcht1; to L1 they hold its miss buffers, which the loop's
    // own loads then wait for)
    if (g->views) { // (the pointer copied: one whose address is taken may live in memory)
        tl_cgen_line(g, "uintptr_t f%d_0 = 0;", e->base);
        tl_cgen_line(g, "const int64_t n%d = tlc_pf_take(&Q, &f%d_0);", e->base, e->base);
        tl_cgen_line(g, "uintptr_t f%d = f%d_0;", e->base, e->base);
        tl_cgen_line(g, "int64_t m%d = n%d;", e->base, e->base);
    }
    if (packed) {
        tl_buf_t q;
        tl_buf_init(&q);
        for (int l = 15; l >= 0; l--) tl_buf_printf(&q, "%s%d", l < 15 ? ", " : "", l / (int)cols);
        tl_cgen_line(g, "const __m512i q%d = _mm512_set_epi32(%s);", e->base, tl_buf_cstr(&q));
        tl_buf_free(&q);
    } else if (gr->cols) {
        tl_cgen_line(g, "for (int64_t r = 0; r < INT64_C(%" PRId64 "); r++) {", gr->n / gr->cols);
        g->indent++;
        for (int i = 0; i < gr->nsp; i++)
            if (gr->sp[i].vec) {
                tl_cgen_line(g, "const float w%d_%d = p%d_%d[r];", e->base, i, e->base, i);
                tl_cgen_line(g, "const __m512 y%d_%d = _mm512_set1_ps(w%d_%d);", e->base, i,
                             e->base, i);
            }
        for (int k = 0; k < gr->nop; k++)
            if (gr->op[k].absmax) // +0: the least |x|
                tl_cgen_line(g, "__m512i a%d_%d = _mm512_setzero_si512();", e->base, k);
            else if (is_reduce(gr->op[k].s->op.code)) {
                tl_cgen_line(g, "__m512 a%d_%d = _mm512_set1_ps(%s);", e->base, k,
                             red_fill(&gr->op[k]));
                tl_cgen_line(g, "__mmask16 q%d_%d = 0;", e->base, k);
            }
    }
    tl_cgen_line(g, "int64_t c = 0;");
    tl_cgen_line(g, "for (; c + 16 <= INT64_C(%" PRId64 "); c += 16) {", len);
    g->indent++;
    tl_cgen_line(g, "const int64_t j = %s;", j);
    if (g->views)
        tl_cgen_line(g, "if (m%d) __builtin_prefetch((const void *)f%d, 0, 2), f%d += 64, m%d--;",
                     e->base, e->base, e->base, e->base);
    for (int i = 0; packed && i < gr->nsp; i++)
        if (gr->sp[i].vec) // a masked load: no read past the row operand
            tl_cgen_line(g,
                         "const __m512 y%d_%d = _mm512_permutexvar_ps(q%d, "
                         "_mm512_maskz_loadu_ps(0x%xu, p%d_%d + j / INT64_C(%" PRId64 ")));",
                         e->base, i, e->base, (1u << (16 / cols)) - 1, e->base, i, cols);
    for (int i = 0; i < gr->nsp; i++) {
        e->val[i] = e->exact[i] = e->unround[i] = -1, e->dirty[i] = false;
        e->rng[i] = (vrange_t){false, false, 0, 0};
    }
    for (int k = 0; k < gr->nop; k++) zemit_op(e, &gr->op[k], zsc[k]);
    for (int i = 0; i < gr->nsp; i++)
        if (e->dirty[i] && !gr->sp[i].dead) zstore(e, i);
    g->indent--;
    tl_cgen_line(g, "}");
    for (int k = 0; k < gr->nop; k++)
        if (gr->op[k].absmax) { // the tail goes on from the maximum (or NaN) so far
            int b = e->base;
            tl_cgen_line(g, "const uint32_t b%d_%d = _mm512_reduce_max_epu32(a%d_%d);", b, k, b, k);
            tl_cgen_line(g, "float t%d_%d;", b, k);
            tl_cgen_line(g, "memcpy(&t%d_%d, &b%d_%d, 4);", b, k, b, k);
            tl_cgen_line(g, "int32_t u%d_%d = b%d_%d > 0x7f800000u;", b, k, b, k);
        } else if (is_reduce(gr->op[k].s->op.code)) {
            tl_cgen_line(g, "float t%d_%d = _mm512_reduce_%s_ps(a%d_%d);", e->base, k,
                         gr->op[k].s->op.code == TL_OP_REDUCE_MAX ? "max" : "min", e->base, k);
            tl_cgen_line(g, "int32_t u%d_%d = q%d_%d != 0;", e->base, k, e->base, k);
        }
    e->tail = true;
    for (int i = 0; i < gr->nsp; i++) e->val[i] = -1;
    tl_cgen_line(g, "for (; c < INT64_C(%" PRId64 "); c++) {", len);
    g->indent++;
    tl_cgen_line(g, "const int64_t j = %s;", j);
    if (packed) {
        tl_cgen_line(g, "const int64_t r = j / INT64_C(%" PRId64 ");", cols);
        for (int i = 0; i < gr->nsp; i++)
            if (gr->sp[i].vec)
                tl_cgen_line(g, "const float w%d_%d = p%d_%d[r];", e->base, i, e->base, i);
    }
    for (int k = 0; k < gr->nop; k++) emit_op(e, &gr->op[k], sc[k]);
    g->indent--;
    tl_cgen_line(g, "}");
    e->tail = false;
    if (gr->cols && !packed) {
        red_end(e, true);
        g->indent--;
        tl_cgen_line(g, "}");
    }
    if (g->views) tl_cgen_line(g, "tlc_pf_give(&Q, n%d, m%d);", e->base, e->base);
    for (int i = 0; i < gr->nsp; i++)
        if (gr->sp[i].out) tl_cgen_line(g, "if (W%d_s) _mm_sfence();", gr->sp[i].out - 1);
}

static bool narrows(const group_t *gr, const fop_t *o)
{
    return o->s->op.code == TL_OP_CAST && gr->sp[o->sp[0]].buf->dtype == TL_F16;
}

static bool widens(const group_t *gr, const fop_t *o)
{
    return o->s->op.code == TL_OP_CAST && gr->sp[o->sp[1]].buf->dtype == TL_F16;
}

enum { CHUNK = 256 }; // elements per chunk of a loop with float16 casts

// The loop of a group with float16 casts, in chunks of CHUNK elements of a
// row: each chunk runs the ops as segments split at the float32 -> float16
// casts, which convert the chunk with tlc_f2h from the stored source; a
// segment first widens the chunk of each float16 span it reads (tlc_h2f), as
// those are written only by the casts between segments. Every element still
// goes through the ops in order (element j depends on element j only), and
// the chunk stays in L1 between segments.
static void emit_chunked(emit_t *e, const char *const (*sc)[2], int64_t cols)
{
    tl_cgen_t *g = e->g;
    group_t *gr = e->gr;
    char j0[64];
    snprintf(j0, sizeof j0, gr->cols ? "r * INT64_C(%" PRId64 ") + c0" : "c0", cols);
    tl_cgen_line(g, "for (int64_t c0 = 0; c0 < INT64_C(%" PRId64 "); c0 += %d) {", cols, CHUNK);
    g->indent++;
    tl_cgen_line(g, "const int64_t cn = INT64_C(%" PRId64 ") - c0 < %d ? INT64_C(%" PRId64 ") - c0 : %d;",
                 cols, CHUNK, cols, CHUNK);
    for (int k = 0; k < gr->nop;) {
        const fop_t *o = &gr->op[k];
        if (narrows(gr, o)) {
            tl_cgen_line(g, "tlc_f2h(p%d_%d + %s, p%d_%d + %s, cn);", e->base, o->sp[1], j0, e->base,
                         o->sp[0], j0);
            k++;
            continue;
        }
        int end = k;
        while (end < gr->nop && !narrows(gr, &gr->op[end])) end++;
        tl_cgen_line(g, "{");
        g->indent++;
        bool wide[MAX_SPANS] = {false};
        for (int m = k; m < end; m++) {
            int i = gr->op[m].sp[1];
            if (!widens(gr, &gr->op[m]) || wide[i]) continue;
            wide[i] = true;
            tl_cgen_line(g, "float h%d_%d[%d];", e->base, i, CHUNK);
            tl_cgen_line(g, "tlc_h2f(p%d_%d + %s, h%d_%d, cn);", e->base, i, j0, e->base, i);
        }
        for (int i = 0; i < gr->nsp; i++) e->val[i] = -1;
        tl_cgen_line(g, "_Pragma(\"GCC ivdep\") for (int64_t c = c0; c < c0 + cn; c++) {");
        g->indent++;
        if (gr->cols)
            tl_cgen_line(g, "const int64_t j = r * INT64_C(%" PRId64 ") + c;", cols);
        else
            tl_cgen_line(g, "const int64_t j = c;");
        for (int m = k; m < end; m++) emit_op(e, &gr->op[m], sc[m]);
        g->indent--;
        tl_cgen_line(g, "}");
        g->indent--;
        tl_cgen_line(g, "}");
        k = end;
    }
    g->indent--;
    tl_cgen_line(g, "}");
}

static void emit(tl_cgen_t *g, group_t *gr)
{
    emit_t e;
    memset(&e, 0, sizeof e);
    e.g = g;
    e.gr = gr;
    e.base = g->tmp++;
    tl_cgen_line(g, "{");
    g->indent++;
    for (int i = 0; i < gr->nsp; i++) {
        const span_t *s = &gr->sp[i];
        const char *t = store_type(s->buf->dtype);
        tl_buf_t base;
        tl_buf_init(&base);
        if (s->out)
            tl_buf_printf(&base, "W%d", s->out - 1);
        else
            tl_cgen_ub_base(g, &base, s->buf);
        tl_cgen_line(g, "%s *const p%d_%d = (%s *)(%s) + %s;", t, e.base, i, t, tl_buf_cstr(&base),
                     s->off);
        tl_buf_free(&base);
        if (g->first_pass && (s->written || s->red)) tl_cgen_view_write(g, s->buf);
        e.val[i] = -1;
    }
    char names[MAX_OPS][2][48];
    const char *sc[MAX_OPS][2];
    for (int k = 0; k < gr->nop; k++)
        for (int j = 0; j < gr->op[k].nsc; j++) {
            snprintf(names[k][j], sizeof names[k][j], "s%d_%d_%d", e.base, k, j);
            tl_cgen_line(g, "const float %s = %s;", names[k][j], gr->op[k].sc[j]);
            sc[k][j] = names[k][j];
        }
    int64_t cols = gr->cols ? gr->cols : gr->n;
    // the vector form, when the target has AVX-512: rows of 16 or more, or
    // short rows packed 16 / cols to a vector
    bool vec = cols >= 16 || (gr->cols && 16 % gr->cols == 0 && gr->n >= 16);
    if (vec) {
        g->uses_f16 = true;
        tl_cgen_line(g, "#if TLC_V512");
        emit_vector(&e, (const char *const(*)[2])sc, cols);
        tl_cgen_line(g, "#else");
        for (int i = 0; i < gr->nsp; i++) e.val[i] = -1;
    }
    if (gr->cols) {
        tl_cgen_line(g, "for (int64_t r = 0; r < INT64_C(%" PRId64 "); r++) {", gr->n / gr->cols);
        g->indent++;
        for (int i = 0; i < gr->nsp; i++)
            if (gr->sp[i].vec)
                tl_cgen_line(g, "const float w%d_%d = p%d_%d[r];", e.base, i, e.base, i);
        red_begin(&e);
    }
    bool f16 = false;
    for (int k = 0; k < gr->nop; k++) f16 |= narrows(gr, &gr->op[k]) || widens(gr, &gr->op[k]);
    if (f16) {
        // the segments of a chunk hand their values over in memory
        for (int i = 0; i < gr->nsp; i++) gr->sp[i].dead = false;
        g->uses_f16 = true;
        emit_chunked(&e, (const char *const(*)[2])sc, cols);
    } else {
        tl_cgen_line(g,
                     "_Pragma(\"GCC ivdep\") for (int64_t c = 0; c < INT64_C(%" PRId64 "); c++) {",
                     cols);
        g->indent++;
        if (gr->cols)
            tl_cgen_line(g, "const int64_t j = r * INT64_C(%" PRId64 ") + c;", cols);
        else
            tl_cgen_line(g, "const int64_t j = c;");
        for (int k = 0; k < gr->nop; k++) emit_op(&e, &gr->op[k], sc[k]);
        g->indent--;
        tl_cgen_line(g, "}");
    }
    if (gr->cols) {
        red_end(&e, false);
        g->indent--;
        tl_cgen_line(g, "}");
    }
    if (vec) tl_cgen_line(g, "#endif");
    g->indent--;
    tl_cgen_line(g, "}");
}

// --- entry points ----------------------------------------------------------------------

// Whether leaf s, pushed on `mask`, runs as a tile op on exactly the lanes of *lanes.
static bool op_lanes(tl_cgen_t *g, const tl_stmt_t *s, unsigned mask, tl_side_t scope,
                     unsigned *lanes)
{
    if (s->kind != TL_ST_OP) return false;
    tl_side_t side = tl_exec_side(g->x, s);
    if (side != TL_SIDE_VEC || (scope != TL_SIDE_NONE && scope != TL_SIDE_VEC)) return false;
    if (!g->dev) {
        *lanes = mask;
        return g->lane == 1 && mask == 2u;
    }
    mask &= tl_exec_side_lanes(g->x, side);
    if (!mask || (mask & 1u) || tl_exec_side_once(g->x, s)) return false;
    *lanes = mask;
    return true;
}

// --- row sums ----------------------------------------------------------------------------

// reduce_sum of a 2-D float32 UB tile over its rows (dim -1, clear), with a
// real_shape corner, as cpufast.c sums: in double, in column order, rounded
// once. A loop of its own (the rows run independently and vectorise).
typedef struct {
    cand_t c; // sp[0] the output, sp[1] the input from its start
    int64_t rows, cols, ld;
} rsum_t;

static bool analyse_rsum(tl_cgen_t *g, const tl_stmt_t *s, rsum_t *o)
{
    const tl_op_t *op = &s->op;
    memset(o, 0, sizeof *o);
    bool code_ok = op->code == TL_OP_REDUCE_SUM || op->code == TL_OP_REDUCE_MAX ||
                   op->code == TL_OP_REDUCE_MIN;
    if (!code_ok || op->nargs != 2 || !op->clear ||
        op->args[0].kind != TL_ARG_REGION || (op->dim != -1 && op->dim != 1))
        return false;
    const tl_region_t *in = &op->args[0].region;
    const int64_t *rs = op->real_shape;
    if (in->ndim != 2 || in->buf->dtype != TL_F32 ||
        !tl_cgen_const(g, in->extent[0], &o->rows) || !tl_cgen_const(g, in->extent[1], &o->cols) ||
        rs[0] < 0 || rs[1] < 0 || rs[0] > o->rows || rs[1] > o->cols)
        return false;
    bool real = rs[0] || rs[1];
    o->rows = rs[0] ? rs[0] : o->rows;
    o->cols = rs[1] ? rs[1] : o->cols;
    o->ld = in->buf->shape[1];
    if (o->rows <= 0 || o->cols <= 0 || !region_span(g, op, 1, -1, &o->c) ||
        o->c.sp[0].buf->dtype != TL_F32 || o->c.n < o->rows || (o->c.n > o->rows && !real))
        return false;
    int64_t n = o->c.n;
    o->c.n = (o->rows - 1) * o->ld + o->cols; // the input elements from its start
    bool ok = region_span(g, op, 0, o->c.n, &o->c);
    o->c.n = n;
    return ok && disjoint(&o->c.sp[0], &o->c.sp[1]);
}

// The row max or min as the library folds it (cpufast.c's maxmin): NaN if any
// element is NaN, else the extreme value. `a OP m ? a : m` is the max/min
// instruction's own rule, so the 64 independent accumulators vectorise; a
// zero result is refolded in column order (which zero came first decides its
// sign), as is a row shorter than 64.
static void emit_rmaxmin(tl_cgen_t *g, const rsum_t *o, int b, bool is_max)
{
    const char *cmp = is_max ? ">" : "<", *fill = is_max ? "-INFINITY" : "INFINITY";
    tl_cgen_line(g, "const float *const x = p%d_1 + r * INT64_C(%" PRId64 ");", b, o->ld);
    if (o->cols < 64) { // the fold itself, in column order (unrolled: the rows vectorise)
        tl_cgen_line(g, "int32_t any = 0;");
        tl_cgen_line(g, "float acc = %s;", fill);
        for (int64_t c = 0; c < o->cols; c++)
            tl_cgen_line(g,
                         "any |= x[%" PRId64 "] != x[%" PRId64 "]; acc = x[%" PRId64
                         "] %s acc ? x[%" PRId64 "] : acc;",
                         c, c, c, cmp, c);
        tl_cgen_line(g, "p%d_0[r] = any ? NAN : acc;", b);
        return;
    }
    tl_cgen_line(g, "float m[64];");
    tl_cgen_line(g, "int32_t nan[64];");
    tl_cgen_line(g, "for (int l = 0; l < 64; l++) m[l] = %s, nan[l] = 0;", fill);
    tl_cgen_line(g, "int64_t c = 0;");
    tl_cgen_line(g, "for (; c + 64 <= INT64_C(%" PRId64 "); c += 64)", o->cols);
    tl_cgen_line(g,
                 "    for (int l = 0; l < 64; l++) { float v = x[c + l]; nan[l] |= v != v; m[l] = v "
                 "%s m[l] ? v : m[l]; }",
                 cmp);
    // halving folds (vectorised; without NaN the extreme value is order-free)
    tl_cgen_line(g, "for (int w = 32; w >= 1; w /= 2)");
    tl_cgen_line(g,
                 "    for (int l = 0; l < w; l++) { nan[l] |= nan[l + w]; m[l] = m[l + w] %s m[l] ? "
                 "m[l + w] : m[l]; }",
                 cmp);
    tl_cgen_line(g, "int32_t any = nan[0];");
    tl_cgen_line(g, "float acc = m[0];");
    tl_cgen_line(g, "for (; c < INT64_C(%" PRId64 "); c++) { any |= x[c] != x[c]; acc = x[c] %s acc ? x[c] : acc; }",
                 o->cols, cmp);
    tl_cgen_line(g, "if (acc == 0.0f && !any) {");
    tl_cgen_line(g, "    acc = %s;", fill);
    tl_cgen_line(g, "    for (c = 0; c < INT64_C(%" PRId64 "); c++) acc = x[c] %s acc ? x[c] : acc;",
                 o->cols, cmp);
    tl_cgen_line(g, "}");
    tl_cgen_line(g, "p%d_0[r] = any ? NAN : acc;", b);
}

static void emit_rsum(tl_cgen_t *g, const tl_stmt_t *s, const rsum_t *o)
{
    int b = g->tmp++;
    tl_opcode_t code = s->op.code;
    tl_cgen_line(g, "{");
    g->indent++;
    tl_cgen_line(g, "float *const p%d_0 = (float *)(M%d_%d + INT64_C(%" PRId64 ")) + %s;", b,
                 g->lane, (int)TL_SCOPE_UB, g->x->addr[o->c.sp[0].buf->id], o->c.sp[0].off);
    tl_cgen_line(g,
                 "const float *const p%d_1 = (const float *)(M%d_%d + INT64_C(%" PRId64 ")) + %s;",
                 b, g->lane, (int)TL_SCOPE_UB, g->x->addr[o->c.sp[1].buf->id], o->c.sp[1].off);
    if (code != TL_OP_REDUCE_SUM) {
        tl_cgen_line(g, "_Pragma(\"GCC ivdep\") for (int64_t r = 0; r < INT64_C(%" PRId64 "); r++) {",
                     o->rows);
        g->indent++;
        emit_rmaxmin(g, o, b, code == TL_OP_REDUCE_MAX);
        g->indent--;
        tl_cgen_line(g, "}");
        g->indent--;
        tl_cgen_line(g, "}");
        return;
    }
    tl_cgen_line(g, "_Pragma(\"GCC ivdep\") for (int64_t r = 0; r < INT64_C(%" PRId64 "); r++) {",
                 o->rows);
    g->indent++;
    tl_cgen_line(g, "double acc = 0.0;");
    if (o->cols <= 16) { // short rows unrolled: the loop over rows vectorises
        for (int64_t c = 0; c < o->cols; c++)
            tl_cgen_line(g, "acc += p%d_1[r * INT64_C(%" PRId64 ") + %" PRId64 "];", b, o->ld, c);
    } else {
        tl_cgen_line(g,
                     "for (int64_t c = 0; c < INT64_C(%" PRId64
                     "); c++) acc += p%d_1[r * INT64_C(%" PRId64 ") + c];",
                     o->cols, b, o->ld);
    }
    tl_cgen_line(g, "p%d_0[r] = (float)acc;", b);
    g->indent--;
    tl_cgen_line(g, "}");
    g->indent--;
    tl_cgen_line(g, "}");
}

// A row sum at items[0] on every lane of mask: emitted, 1; else 0.
static int fuse_rsum(tl_cgen_t *g, const tl_stmt_t *s, unsigned mask, tl_side_t scope)
{
    unsigned lanes = 0;
    rsum_t o;
    if (s->kind != TL_ST_OP ||
        (s->op.code != TL_OP_REDUCE_SUM && s->op.code != TL_OP_REDUCE_MAX &&
         s->op.code != TL_OP_REDUCE_MIN) ||
        !op_lanes(g, s, mask, scope, &lanes))
        return 0;
    int save = g->lane;
    bool ok = true;
    for (int l = 0; ok && l < TL_CGEN_LANES; l++) {
        if (!(lanes >> l & 1)) continue;
        g->lane = l;
        ok = analyse_rsum(g, s, &o);
        cand_free(&o.c);
        if (ok && g->first_pass) tl_cgen_view_use(g, s);
    }
    for (int l = 0; ok && l < TL_CGEN_LANES; l++) {
        if (!(lanes >> l & 1)) continue;
        g->lane = l;
        analyse_rsum(g, s, &o);
        emit_rsum(g, s, &o);
        cand_free(&o.c);
    }
    g->lane = save;
    return ok;
}

// --- runs of statements -------------------------------------------------------------------
//
// A group is built over a window of the statements that follow (nested
// sequences opened, at most MAX_UNITS): a statement joins the group or, when
// it cannot, is set aside to run after the group's loop; the window ends at a
// statement that can be neither (a compound statement, a let, a cross-core
// sync, a print) and is cut back to its last joined op, in whole items.
// Setting a statement aside moves it past the group's ops that come after it
// in the program, so an op joins only when it commutes with every statement
// set aside before it: neither writes memory the other reads or writes. A
// statement set aside is a tile op, a scalar store or an intra-core sync
// (nothing on a CPU); its memory is every UB buffer it touches, taken whole
// (the group's ops touch nothing but UB spans). Statements are set aside only
// when the run is emitted for one lane (expert mode, or one lane of developer
// mode, whose lanes otherwise go statement by statement). Those set aside are
// emitted in their order after the loop, where they may form groups of their
// own; the stores of the group's spans that nothing reads later are left out
// (tl_cgen_live).

typedef struct {
    int64_t lo, hi;
    bool write;
} foot_t;

typedef struct {
    foot_t f[MAX_FEET];
    int n;
    const tl_cgen_t *g;
    bool full;
} feet_t;

static void on_foot(void *arg, const tl_access_t *a)
{
    feet_t *ft = arg;
    const tl_buffer_t *b = a->buf;
    if (b->scope != TL_SCOPE_UB) return;
    if (ft->n == MAX_FEET) {
        ft->full = true;
        return;
    }
    int64_t base = ft->g->x->addr[b->id];
    foot_t f = {INT64_MIN / 2, INT64_MAX / 2, true}; // not placed: everything
    if (base >= 0) f = (foot_t){base, base + tl_buffer_bytes(b), (a->mode & TL_ACCESS_WRITE) != 0};
    ft->f[ft->n++] = f;
}

// Sets statement s aside (adding its memory to *ft) when it may be.
static bool set_aside(const tl_stmt_t *s, feet_t *ft)
{
    switch (s->kind) {
    case TL_ST_SYNC:
        return s->sync.kind == TL_SYNC_SET_FLAG || s->sync.kind == TL_SYNC_WAIT_FLAG ||
               s->sync.kind == TL_SYNC_PIPE_BARRIER;
    case TL_ST_OP:
    case TL_ST_STORE: {
        int n = ft->n;
        tl_access_stmt(s, on_foot, ft);
        if (!ft->full) return true;
        ft->n = n;
        ft->full = false;
        return false;
    }
    default: return false;
    }
}

// Whether candidate c touches memory that a statement set aside writes, or
// writes memory such a statement touches.
static bool crosses(const feet_t *ft, const cand_t *c)
{
    for (int i = 0; i < ft->n; i++)
        for (int j = 0; j < c->nsp; j++)
            if (ft->f[i].lo < c->sp[j].hi && c->sp[j].lo < ft->f[i].hi &&
                (ft->f[i].write || c->sp[j].written))
                return true;
    return false;
}

// Builds the group of units[0..n) on lane g->lane (joined[k]: unit k joined,
// else it is set aside); returns how many units the window covers (0: the
// first unit does not start a group).
static int classify(tl_cgen_t *g, const tl_stmt_t *const *units, int n, unsigned mask,
                    tl_side_t scope, unsigned lanes, group_t *gr, bool *joined)
{
    feet_t *ft = calloc(1, sizeof *ft);
    memset(gr, 0, sizeof *gr);
    if (!ft) return 0;
    ft->g = g;
    bool aside = (lanes & (lanes - 1)) == 0;
    int k = 0;
    for (; k < n; k++) {
        unsigned lk;
        cand_t c;
        memset(&c, 0, sizeof c);
        joined[k] = op_lanes(g, units[k], mask, scope, &lk) && lk == lanes &&
                    analyse(g, units[k], &c) && !crosses(ft, &c) && join(gr, units[k], &c);
        cand_free(&c);
        if (!joined[k] && (k == 0 || !aside || !set_aside(units[k], ft))) break;
    }
    free(ft);
    return k;
}

// The leaves of items (nested sequences opened), each with its item's index.
static int flatten(const tl_stmt_t *const *items, int n, int owner, const tl_stmt_t **leaf,
                   int *own, int at)
{
    for (int i = 0; i < n && at <= MAX_UNITS; i++) {
        const tl_stmt_t *s = items[i];
        if (s->kind == TL_ST_SEQ)
            at = flatten((const tl_stmt_t *const *)s->seq.items, s->seq.n, owner < 0 ? i : owner,
                         leaf, own, at);
        else
            leaf[at] = s, own[at++] = owner < 0 ? i : owner;
    }
    return at;
}

// --- UB buffers written in place ----------------------------------------------------------
//
// A span of the group that is a whole UB buffer, written by the group before
// any op of it reads the span, whose first reader among the statements set
// aside is a copy of the whole buffer to GM on the group's lane
// (tl_cgen_copy_out), with no statement set aside before that copy touching
// the buffer's bytes or the copy's tensor, and nothing reading the buffer
// after the copy (tl_cgen_live): the loop stores the span through W<id>
// (tl_cgen_copy_out_target), which points at the copy's GM region when the
// copy's checks pass and the region is one unclipped run, and then the copy
// does not run (tl_cgen_out_t). The tensor gets the same bytes, earlier,
// and nothing looks at it in between; the buffer keeps bytes nobody reads.
// Into a large tensor the vector loop streams (as the copy would), then
// fences.

typedef struct {
    const tl_cgen_t *g;
    const tl_buffer_t *gm; // touches this tensor, or (NULL) UB bytes [lo, hi)
    int64_t lo, hi;
    bool hit;
} touch_t;

static void on_touch(void *arg, const tl_access_t *a)
{
    touch_t *t = arg;
    if (t->gm) {
        t->hit |= a->buf == t->gm;
        return;
    }
    if (a->buf->scope != TL_SCOPE_UB) return;
    int64_t at = t->g->x->addr[a->buf->id];
    t->hit |= at < 0 || (at < t->hi && t->lo < at + tl_buffer_bytes(a->buf));
}

static bool touches(const tl_cgen_t *g, const tl_stmt_t *s, const tl_buffer_t *gm, int64_t lo,
                    int64_t hi)
{
    touch_t t = {g, gm, lo, hi, false};
    tl_access_stmt(s, on_touch, &t);
    return t.hit;
}

// The index in aside[] of the copy that span sp may be written in place for, or -1.
static int out_copy(tl_cgen_t *g, const tl_stmt_t *const *aside, int naside, const span_t *sp,
                    unsigned mask, tl_side_t scope, unsigned lanes)
{
    const tl_buffer_t *b = sp->buf;
    int64_t base = g->x->addr[b->id];
    if (!sp->written || sp->red || sp->vec || sp->early || sp->lo != base ||
        sp->hi != base + tl_buffer_bytes(b))
        return -1;
    for (int k = 0; k < naside; k++) {
        if (!touches(g, aside[k], NULL, sp->lo, sp->hi)) continue;
        unsigned lk;
        if (!op_lanes(g, aside[k], mask, scope, &lk) || lk != lanes ||
            !tl_cgen_copy_out(g, aside[k], b))
            return -1;
        const tl_buffer_t *t = aside[k]->op.args[1].region.buf;
        for (int i = 0; i < k; i++)
            if (touches(g, aside[i], t, 0, 0)) return -1;
        return tl_cgen_live(g, aside + k + 1, naside - k - 1, sp->lo, sp->hi) ? -1 : k;
    }
    return -1;
}

// Emits the group of units[0..end) on every lane of `lanes`, its stores of
// spans nothing reads later left out, then the statements set aside.
static void emit_run(tl_cgen_t *g, const tl_stmt_t *const *units, int end, unsigned mask,
                     tl_side_t scope, unsigned lanes, const bool *joined)
{
    const tl_stmt_t *aside[MAX_UNITS];
    int naside = 0, nouts = g->nouts;
    for (int k = 0; k < end; k++)
        if (!joined[k]) aside[naside++] = units[k];
    group_t gr;
    bool again[MAX_UNITS + 1];
    int save = g->lane;
    for (int l = 0; l < TL_CGEN_LANES; l++) {
        if (!(lanes >> l & 1)) continue;
        g->lane = l;
        classify(g, units, end, mask, scope, lanes, &gr, again);
        for (int i = 0; i < gr.nsp; i++) {
            span_t *sp = &gr.sp[i];
            sp->dead = sp->written && !sp->red && !tl_cgen_live(g, aside, naside, sp->lo, sp->hi);
            int k = naside ? out_copy(g, aside, naside, sp, mask, scope, lanes) : -1;
            if (k < 0 || g->nouts == TL_CGEN_OUTS) continue;
            int id = g->tmp++;
            tl_cgen_copy_out_target(g, aside[k], id, 16 * tl_dtype_size(sp->buf->dtype));
            sp->out = id + 1;
            g->outs[g->nouts++] = (tl_cgen_out_t){aside[k], l, id};
        }
        emit(g, &gr);
        group_free(&gr);
    }
    g->lane = save;
    if (naside) tl_cgen_seq(g, aside, naside, mask, scope);
    g->nouts = nouts;
}

typedef struct {
    const tl_buffer_t *b;
    bool hit;
} writes_t;

static void on_write(void *arg, const tl_access_t *a)
{
    writes_t *w = arg;
    w->hit |= a->buf == w->b && (a->mode & TL_ACCESS_WRITE);
}

// Whether s is a copy from UB to GM of a buffer that a joined unit of
// units[0..end) writes.
static bool copies_out(const tl_stmt_t *const *units, int end, const bool *joined,
                       const tl_stmt_t *s)
{
    if (s->kind != TL_ST_OP || s->op.code != TL_OP_COPY || s->op.nargs != 2 ||
        s->op.args[0].kind != TL_ARG_REGION || s->op.args[1].kind != TL_ARG_REGION ||
        s->op.args[0].region.buf->scope != TL_SCOPE_UB ||
        s->op.args[1].region.buf->scope != TL_SCOPE_GM)
        return false;
    writes_t w = {s->op.args[0].region.buf, false};
    for (int k = 0; k < end && !w.hit; k++)
        if (joined[k]) tl_access_stmt(units[k], on_write, &w);
    return w.hit;
}

int tl_cgen_fuse(tl_cgen_t *g, const tl_stmt_t *const *items, int n, unsigned mask, tl_side_t scope)
{
    const tl_stmt_t *leaf[MAX_UNITS + 1];
    int own[MAX_UNITS + 1];
    if (g->st || !n) return 0;
    // up to MAX_UNITS leaves, and the one after them (to see where an item ends)
    int total = flatten(items, TL_MIN(n, MAX_UNITS + 1), -1, leaf, own, 0);
    unsigned lanes = 0;
    if (!total || !op_lanes(g, leaf[0], mask, scope, &lanes))
        return fuse_rsum(g, items[0], mask, scope);
    int save = g->lane, used = TL_MIN(total, MAX_UNITS);
    group_t gr;
    bool joined[MAX_UNITS + 1], other[MAX_UNITS + 1];
    // the lanes see the same statements; take the window every lane agrees on
    bool first = true;
    for (int l = 0; l < TL_CGEN_LANES; l++) {
        if (!(lanes >> l & 1)) continue;
        g->lane = l;
        int k = classify(g, leaf, used, mask, scope, lanes, &gr, first ? joined : other);
        group_free(&gr);
        for (int i = 0; !first && i < k && i < used; i++)
            if (other[i] != joined[i]) k = i;
        used = TL_MIN(used, k);
        first = false;
    }
    g->lane = save;
    // up to the last joined op, in whole items
    int end = used;
    while (end > 0 && !joined[end - 1]) end--;
    // and the statements set aside after it up to the first copies of
    // buffers it writes to GM (the loop may write those in place, see emit_run)
    int ops_end = end;
    for (int k = ops_end; k < used; k++) {
        bool out = copies_out(leaf, ops_end, joined, leaf[k]);
        if (out) end = k + 1;
        if (end > ops_end && !out) break;
    }
    while (end > 0 && end < used && own[end] == own[end - 1]) end++;
    if (end < total && end > 0 && own[end] == own[end - 1])
        while (end > 0 && own[end - 1] == own[end]) end--;
    int nops = 0, last = -1;
    for (int k = 0; k < end; k++)
        if (joined[k]) nops++, last = k;
    if (!nops || (nops == 1 && is_reduce(leaf[last]->op.code)))
        return fuse_rsum(g, items[0], mask, scope);
    int items_used = own[end - 1] + 1;
    // the sequence being emitted goes on after the items taken here
    if (g->nframes) {
        tl_cgen_frame_t *top = &g->frames[g->nframes - 1];
        if (!top->loop && top->items + top->next == items) top->next += items_used;
    }
    emit_run(g, leaf, end, mask, scope, lanes, joined);
    return items_used;
}
