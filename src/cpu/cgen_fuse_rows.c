// Row reductions in inline loops (cgen_fuse.c): the row max / min folded in a
// group's loop, and row sums (and max / min joining no group) as loops of their own.
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "cpu/cgen_fuse_int.h"

//
// Op k, a row max/min, keeps per row a float t<base>_<k> (the extreme value so
// far) and an int u<base>_<k> (a NaN was seen); the vector form folds 16 lanes
// a<base>_<k> (and the NaN lanes q<base>_<k>) first. At the end of the row the
// output is NaN if any element was, else the extreme value (refolded in
// column order from memory when it is zero, see join).

const char *fuse_red_fill(const fop_t *o)
{
    return o->s->op.code == TL_OP_REDUCE_MAX ? "-INFINITY" : "INFINITY";
}

static const char *red_cmp(const fop_t *o)
{
    return o->s->op.code == TL_OP_REDUCE_MAX ? ">" : "<";
}

// Scalar forms: the fold itself, in column order.
void fuse_red_begin(emit_t *e)
{
    for (int k = 0; k < e->gr->nop; k++) {
        const fop_t *o = &e->gr->op[k];
        if (!is_reduce(o->s->op.code)) continue;
        tl_cgen_line(e->g, "float t%d_%d = %s;", e->base, k, fuse_red_fill(o));
        tl_cgen_line(e->g, "int32_t u%d_%d = 0;", e->base, k);
    }
}

// The row's results (r: the row); refold: the vector form's zero check.
void fuse_red_end(emit_t *e, bool refold)
{
    const group_t *gr = e->gr;
    for (int k = 0; k < gr->nop; k++) {
        const fop_t *o = &gr->op[k];
        if (!is_reduce(o->s->op.code)) continue;
        int b = e->base, in = o->sp[1];
        if (refold && gr->sp[in].refold) {
            tl_cgen_line(e->g, "if (t%d_%d == 0.0f && !u%d_%d) {", b, k, b, k);
            tl_cgen_line(e->g, "    t%d_%d = %s;", b, k, fuse_red_fill(o));
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

void fuse_red_fold(emit_t *e, const fop_t *o, const char *v)
{
    int b = e->base, k = (int)(o - e->gr->op);
    tl_cgen_line(e->g, "u%d_%d |= %s != %s; t%d_%d = %s %s t%d_%d ? %s : t%d_%d;", b, k, v, v, b, k,
                 v, red_cmp(o), b, k, v, b, k);
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
    if (!code_ok || op->nargs != 2 || !op->clear || op->args[0].kind != TL_ARG_REGION ||
        (op->dim != -1 && op->dim != 1))
        return false;
    const tl_region_t *in = &op->args[0].region;
    const int64_t *rs = op->real_shape;
    if (in->ndim != 2 || in->buf->dtype != TL_F32 || !tl_cgen_const(g, in->extent[0], &o->rows) ||
        !tl_cgen_const(g, in->extent[1], &o->cols) || rs[0] < 0 || rs[1] < 0 || rs[0] > o->rows ||
        rs[1] > o->cols)
        return false;
    bool real = rs[0] || rs[1];
    o->rows = rs[0] ? rs[0] : o->rows;
    o->cols = rs[1] ? rs[1] : o->cols;
    o->ld = in->buf->shape[1];
    if (o->rows <= 0 || o->cols <= 0 || !fuse_region_span(g, op, 1, -1, &o->c) ||
        o->c.sp[0].buf->dtype != TL_F32 || o->c.n < o->rows || (o->c.n > o->rows && !real))
        return false;
    int64_t n = o->c.n;
    o->c.n = (o->rows - 1) * o->ld + o->cols; // the input elements from its start
    bool ok = fuse_region_span(g, op, 0, o->c.n, &o->c);
    o->c.n = n;
    return ok && fuse_disjoint(&o->c.sp[0], &o->c.sp[1]);
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
    tl_cgen_line(
        g,
        "    for (int l = 0; l < 64; l++) { float v = x[c + l]; nan[l] |= v != v; m[l] = v "
        "%s m[l] ? v : m[l]; }",
        cmp);
    // halving folds (vectorised; without NaN the extreme value is order-free)
    tl_cgen_line(g, "for (int w = 32; w >= 1; w /= 2)");
    tl_cgen_line(
        g,
        "    for (int l = 0; l < w; l++) { nan[l] |= nan[l + w]; m[l] = m[l + w] %s m[l] ? "
        "m[l + w] : m[l]; }",
        cmp);
    tl_cgen_line(g, "int32_t any = nan[0];");
    tl_cgen_line(g, "float acc = m[0];");
    tl_cgen_line(g,
                 "for (; c < INT64_C(%" PRId64
                 "); c++) { any |= x[c] != x[c]; acc = x[c] %s acc ? x[c] : acc; }",
                 o->cols, cmp);
    tl_cgen_line(g, "if (acc == 0.0f && !any) {");
    tl_cgen_line(g, "    acc = %s;", fill);
    tl_cgen_line(g,
                 "    for (c = 0; c < INT64_C(%" PRId64 "); c++) acc = x[c] %s acc ? x[c] : acc;",
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
                 g->lane, (int)TL_SCOPE_UB, g->addr[o->c.sp[0].buf->id], o->c.sp[0].off);
    tl_cgen_line(g,
                 "const float *const p%d_1 = (const float *)(M%d_%d + INT64_C(%" PRId64 ")) + %s;",
                 b, g->lane, (int)TL_SCOPE_UB, g->addr[o->c.sp[1].buf->id], o->c.sp[1].off);
    if (code != TL_OP_REDUCE_SUM) {
        tl_cgen_line(g,
                     "_Pragma(\"GCC ivdep\") for (int64_t r = 0; r < INT64_C(%" PRId64 "); r++) {",
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
int fuse_rsum(tl_cgen_t *g, const tl_stmt_t *s, unsigned mask, tl_side_t scope)
{
    unsigned lanes = 0;
    rsum_t o;
    if (s->kind != TL_ST_OP ||
        (s->op.code != TL_OP_REDUCE_SUM && s->op.code != TL_OP_REDUCE_MAX &&
         s->op.code != TL_OP_REDUCE_MIN) ||
        !fuse_op_lanes(g, s, mask, scope, &lanes))
        return 0;
    int save = g->lane;
    bool ok = true;
    for (int l = 0; ok && l < TL_CGEN_LANES; l++) {
        if (!(lanes >> l & 1)) continue;
        g->lane = l;
        ok = analyse_rsum(g, s, &o);
        fuse_cand_free(&o.c);
        if (ok && g->first_pass) tl_cgen_view_use(g, s);
    }
    for (int l = 0; ok && l < TL_CGEN_LANES; l++) {
        if (!(lanes >> l & 1)) continue;
        g->lane = l;
        analyse_rsum(g, s, &o);
        emit_rsum(g, s, &o);
        fuse_cand_free(&o.c);
    }
    g->lane = save;
    return ok;
}
