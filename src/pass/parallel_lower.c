// parallel (pass/parallel.c): one element store `dst[...] = expr` of a
// T.Parallel nest as vector tile ops on UB regions: its operands classified,
// temporaries, the ops chosen, GM operands through UB.
//
// Exactness: the ops are chosen so that results equal the scalar loop's bit for
// bit. sub(x, s) and s - x go through additions of negated values, which IEEE
// arithmetic makes exact; x / s becomes div(x, s) (a multiplication by 1/s)
// only when s is a power of two, otherwise s is filled into a tile and divided
// tensor by tensor; rows use row_expand_mul/sub/div (true division); other
// broadcasts are materialised with T.tile.broadcast. Casts round to nearest
// even between floats and from integers (CAST_NONE for the exact widenings,
// which the device casts only in that mode), TRUNC to integers (the scalar
// rules), and only where Ascend A2/A3 have the vector cast; integer narrowing
// (vector casts saturate, scalar ones wrap), float64, bool, tanh,
// floor/ceil/trunc, %, //, comparisons and selects stay scalar. T.max/T.min
// of floats become a compare and a select (the vector max/min differ on NaN
// and signed zeros).
#include "pass/parallel_int.h"

#include "ir/walk.h"
#include "pass/subst.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

bool par_fail(lower_t *L, tl_loc_t loc, const char *fmt, ...)
{
    if (L->why) return false;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(L->whybuf, sizeof L->whybuf, fmt, ap);
    va_end(ap);
    L->why = L->whybuf;
    L->why_loc = loc.line > 0 ? loc : L->loc;
    return false;
}

static bool vfloat(tl_dtype_t t)
{
    return t == TL_F32 || t == TL_F16 || t == TL_BF16 || t == TL_F8E4M3 || t == TL_F8E5M2;
}

static bool vint(tl_dtype_t t)
{
    return tl_dtype_is_int(t) && t != TL_U64;
}

static int inner_index(const lower_t *L, const tl_var_t *v)
{
    for (int i = 0; i < L->n; i++)
        if (L->var[L->first + i] == v) return i;
    return -1;
}

static bool varies(const lower_t *L, const tl_expr_t *e)
{
    for (int i = 0; i < L->n; i++)
        if (tl_walk_mentions(e, L->var[L->first + i])) return true;
    return false;
}

// --- operand classification -----------------------------------------------------------

static int64_t stride_of(const tl_buffer_t *b, int d)
{
    int64_t s = 1;
    for (int i = d + 1; i < b->ndim; i++) s *= b->shape[i];
    return s;
}

// Classifies the access b[idx] and fills r with the elements it touches over
// the inner loops. False (with a reason) when it is not vectorisable.
static bool classify(lower_t *L, tl_buffer_t *b, int nidx, tl_expr_t *const *idx, tl_loc_t loc,
                     vclass_t *cls, tl_region_t *r)
{
    tl_kernel_t *k = L->k;
    int dim_of[TL_MAX_DIMS];
    for (int i = 0; i < L->n; i++) dim_of[i] = -1;
    if (nidx != b->ndim) return par_fail(L, loc, "'%s' is indexed with %d indices", b->name, nidx);
    memset(r, 0, sizeof *r);
    r->buf = b;
    r->form = TL_REGION_SLICE;
    r->ndim = b->ndim;
    r->loc = loc;
    int used = 0;
    for (int d = 0; d < b->ndim; d++) {
        tl_expr_t *e = idx[d];
        r->start[d] = e;
        r->extent[d] = tl_ir_int(k, 1, TL_I32, loc);
        if (!varies(L, e)) continue;
        tl_linear_t lin;
        int which = -1;
        bool ok = tl_ir_linear(e, &lin);
        for (int t = 0; ok && t < lin.n; t++) {
            if (!lin.coefs[t] || !varies(L, lin.terms[t])) continue;
            int v = lin.terms[t]->kind == TL_EX_VAR ? inner_index(L, lin.terms[t]->var) : -1;
            if (v < 0) {
                const char *what =
                    lin.terms[t]->kind == TL_EX_LOAD ? "an indirect index" : "a non-linear index";
                return par_fail(L, loc, "'%s' has %s in dimension %d", b->name, what, d);
            }
            if (lin.coefs[t] != 1)
                return par_fail(L, loc, "'%s' is accessed with stride %lld in dimension %d",
                                b->name, (long long)lin.coefs[t], d);
            if (which >= 0 || dim_of[v] >= 0)
                return par_fail(L, loc, "'%s' combines loop indices in one dimension", b->name);
            which = v;
        }
        if (!ok) return par_fail(L, loc, "'%s' has a non-linear index in dimension %d", b->name, d);
        dim_of[which] = d;
        used |= 1 << which;
        tl_subst_t m;
        tl_subst_init(&m);
        tl_subst_var(&m, L->var[L->first + which],
                     tl_ir_int(k, L->lo[L->first + which], L->var[L->first + which]->dtype, loc));
        r->start[d] = tl_subst_expr(k, &m, e);
        tl_subst_free(&m);
        r->extent[d] = tl_ir_int(k, L->ext[L->first + which], TL_I32, loc);
    }
    int all = (1 << L->n) - 1;
    if (!used) {
        *cls = V_SCALAR;
        return true;
    }
    bool gm = b->scope == TL_SCOPE_GM;
    for (int i = 1; i < L->n; i++) // loop order must be dimension order
        if (dim_of[i] >= 0 && dim_of[i - 1] >= 0 && dim_of[i] < dim_of[i - 1])
            return par_fail(L, loc, "'%s' is accessed transposed", b->name);
    if (used == all) {
        int64_t want = 1;
        for (int i = L->n - 1; i >= 0 && !gm; i--) {
            if (stride_of(b, dim_of[i]) != want)
                return par_fail(L, loc, "the elements of '%s' the loop touches are not contiguous",
                                b->name);
            want *= L->ext[L->first + i];
        }
        *cls = V_TILE;
        return true;
    }
    if (L->n == 2 && (used == 1 || used == 2)) {
        int v = used == 1 ? 0 : 1;
        if (!gm && stride_of(b, dim_of[v]) != 1)
            return par_fail(L, loc, "the elements of '%s' the loop touches are not contiguous",
                            b->name);
        *cls = v == 0 ? V_ROW : V_COL;
        return true;
    }
    return par_fail(L, loc, "'%s' does not vary with every loop index", b->name);
}

// --- emission ----------------------------------------------------------------------------

static tl_arg_t region_arg(const tl_region_t *r)
{
    tl_arg_t a = {TL_ARG_REGION, *r, NULL};
    return a;
}

static tl_arg_t scalar_arg(tl_expr_t *e)
{
    tl_arg_t a;
    memset(&a, 0, sizeof a);
    a.kind = TL_ARG_SCALAR;
    a.scalar = e;
    return a;
}

static tl_op_t *emit(lower_t *L, tl_opcode_t code, int nargs, const tl_arg_t *args)
{
    tl_stmt_t *s = tl_ir_stmt(L->k, TL_ST_OP, L->loc);
    s->inserted = true;
    s->op.code = code;
    s->op.nargs = nargs;
    s->op.args = tl_arena_dup(L->k->arena, args, sizeof *args * (size_t)nargs);
    s->op.dim = -1;
    s->op.clear = true;
    s->op.exact = code == TL_OP_COPY && tl_kernel_npuir(L->k); // npuir's copy rule
    tl_ir_seq_push(L->k, L->out, s);
    return &s->op;
}

static void shape_of(const lower_t *L, vclass_t c, int *nd, int64_t *shape)
{
    if (c == V_ROW || c == V_COL) {
        *nd = 1;
        shape[0] = L->ext[L->first + (c == V_ROW ? 0 : 1)];
        return;
    }
    *nd = L->n;
    for (int i = 0; i < L->n; i++) shape[i] = L->ext[L->first + i];
}

static void whole(lower_t *L, tl_buffer_t *b, tl_region_t *r)
{
    memset(r, 0, sizeof *r);
    r->buf = b;
    r->form = TL_REGION_WHOLE;
    r->ndim = b->ndim;
    r->loc = L->loc;
    for (int d = 0; d < b->ndim; d++) {
        r->start[d] = tl_ir_int(L->k, 0, TL_I32, L->loc);
        r->extent[d] = tl_ir_int(L->k, b->shape[d], TL_I32, L->loc);
    }
}

static bool name_taken(const tl_kernel_t *k, const char *name)
{
    for (int i = 0; i < k->buffers.len; i++)
        if (!strcmp(((tl_buffer_t *)k->buffers.items[i])->name, name)) return true;
    return false;
}

// A free temporary of class c and dtype t, or (mask) a uint8 bit mask for a
// compare of values of class c; new if none is free.
static bool temp_of(lower_t *L, vclass_t c, tl_dtype_t t, bool mask, val_t *v)
{
    int i = 0;
    while (i < L->ntemps && (L->temps[i].busy || L->temps[i].cls != c || L->temps[i].t != t ||
                             L->temps[i].mask != mask))
        i++;
    if (i == L->ntemps) {
        if (L->ntemps == MAX_TEMPS)
            return par_fail(L, L->loc, "the expressions need too many temporaries");
        if (L->no_tiles && c == V_TILE && !mask)
            return par_fail(L, L->loc, "it needs a temporary tile");
        int nd;
        int64_t shape[TL_MAX_DIMS];
        shape_of(L, c, &nd, shape);
        if (mask) { // one bit per element
            int64_t n = 1;
            for (int d = 0; d < nd; d++) n *= shape[d];
            nd = 1;
            shape[0] = (n + 7) / 8;
        }
        char name[96];
        do snprintf(name, sizeof name, "%s_%s%d", L->dst->name, mask ? "m" : "t", L->counter++);
        while (name_taken(L->k, name));
        tl_buffer_t *b = tl_ir_buffer(L->k, name, TL_SCOPE_UB, t, nd, shape, L->loc);
        b->internal = true;
        L->temps[L->ntemps++] = (temp_t){b, c, t, mask, false};
    }
    L->temps[i].busy = true;
    memset(v, 0, sizeof *v);
    v->cls = c;
    v->t = t;
    v->temp = i;
    whole(L, L->temps[i].b, &v->r);
    return true;
}

static bool temp(lower_t *L, vclass_t c, tl_dtype_t t, val_t *v)
{
    return temp_of(L, c, t, false, v);
}

// Marks v as read by the op being emitted.
static void consume(lower_t *L, const val_t *v)
{
    if (v->temp >= 0) L->temps[v->temp].busy = false;
    if (v->temp == DST) L->dst_busy = false;
    if (v->is_dst) L->pending--;
}

// Where an op producing class c, dtype t from a and b (b may be NULL) writes.
// Call after consume() of its operands.
static bool target(lower_t *L, vclass_t c, tl_dtype_t t, const val_t *a, const val_t *b, val_t *out)
{
    if (c == V_TILE && L->dst_r.buf->dtype == t && !L->pending && !L->dst_busy &&
        (!L->bcast || L->dst_plain)) {
        memset(out, 0, sizeof *out);
        out->cls = c;
        out->t = t;
        out->r = L->dst_r;
        out->temp = DST;
        L->dst_busy = true;
        return true;
    }
    const val_t *ops[2] = {a, b};
    for (int i = 0; i < 2; i++) {
        const val_t *o = ops[i];
        if (o && o->temp >= 0 && o->cls == c && o->t == t) {
            L->temps[o->temp].busy = true;
            *out = *o;
            out->is_dst = false;
            return true;
        }
    }
    return temp(L, c, t, out);
}

static tl_expr_t *cast_scalar(lower_t *L, tl_dtype_t t, tl_expr_t *e)
{
    return tl_ir_cast(L->k, t, e, e->loc.line > 0 ? e->loc : L->loc);
}

// A unary op (or cast) from a into a target of class c.
static bool unary(lower_t *L, tl_opcode_t code, const val_t *a, tl_dtype_t t, tl_round_t mode,
                  val_t *out)
{
    consume(L, a);
    if (!target(L, a->cls, t, a, NULL, out)) return false;
    tl_arg_t args[2] = {region_arg(&out->r), region_arg(&a->r)};
    tl_op_t *op = emit(L, code, 2, args);
    op->round = mode;
    return true;
}

// Broadcasts a row or column into a whole tile of the nest's shape.
static bool materialise(lower_t *L, val_t *v)
{
    if (v->cls == V_TILE) return true;
    const tl_region_t *r = &v->r;
    // T.tile.broadcast takes a 1-D source, or the last two dimensions as
    // (rows, 1) / (1, cols); other shapes are first copied into a 1-D tile.
    int64_t last = 1, prev = 1;
    tl_ir_is_const_int(r->extent[r->ndim - 1], &last);
    if (r->ndim >= 2) tl_ir_is_const_int(r->extent[r->ndim - 2], &prev);
    bool ok = r->ndim == 1 || (v->cls == V_ROW ? last == 1 : prev == 1);
    for (int d = 0; d + 2 < r->ndim && ok; d++) {
        int64_t e;
        ok = tl_ir_is_const_int(r->extent[d], &e) && e == 1;
    }
    if (!ok) {
        val_t flat;
        consume(L, v);
        if (!temp(L, v->cls, v->t, &flat)) return false;
        tl_arg_t args[2] = {region_arg(r), region_arg(&flat.r)}; // T.copy(src, dst)
        emit(L, TL_OP_COPY, 2, args);
        *v = flat;
    }
    val_t tile;
    consume(L, v);
    L->bcast = true;
    ok = target(L, V_TILE, v->t, v, NULL, &tile);
    L->bcast = false;
    if (!ok) return false;
    tl_arg_t args[2] = {region_arg(&tile.r), region_arg(&v->r)};
    tl_op_t *op = emit(L, TL_OP_BROADCAST, 2, args);
    op->dim = v->cls == V_ROW ? 1 : 0;
    *v = tile;
    return true;
}

// Scalar s filled into a tile of class c.
static bool fill(lower_t *L, vclass_t c, tl_dtype_t t, tl_expr_t *s, val_t *out)
{
    if (!temp(L, c, t, out)) return false;
    tl_arg_t args[2] = {region_arg(&out->r), scalar_arg(cast_scalar(L, t, s))};
    emit(L, TL_OP_FILL, 2, args);
    return true;
}

// Converts v to dtype t as the scalar code would.
static TL_NOINLINE bool convert(lower_t *L, val_t *v, tl_dtype_t t, tl_loc_t loc)
{
    tl_dtype_t u = v->t;
    if (u == t) return true;
    if (v->cls == V_SCALAR) {
        v->s = cast_scalar(L, t, v->s);
        v->t = t;
        return true;
    }
    tl_round_t mode;
    if (u == TL_BOOL || t == TL_BOOL || u == TL_F64 || t == TL_F64)
        return par_fail(L, loc, "it converts %s to %s", tl_dtype_name(u), tl_dtype_name(t));
    if (u == TL_I32 && t == TL_F16)
        return par_fail(L, loc,
                        "its vector cast from int32 to float16 is the deq-scale dequantisation");
    if (tl_dtype_is_float(t)) {
        mode = tl_cast_copy_mode(t, u); // CAST_NONE for the exact widenings, as the device needs
    } else if (tl_dtype_is_float(u)) {
        mode = TL_CAST_TRUNC;
    } else {
        if (tl_dtype_min(u) < tl_dtype_min(t) || tl_dtype_max(u) > tl_dtype_max(t))
            return par_fail(L, loc,
                            "it narrows %s to %s (vector casts saturate, scalar conversions wrap)",
                            tl_dtype_name(u), tl_dtype_name(t));
        mode = TL_CAST_NONE;
    }
    if (!tl_cast_on_ascend(t, u, mode, NULL))
        return par_fail(L, loc, "there is no vector cast from %s to %s", tl_dtype_name(u),
                        tl_dtype_name(t));
    val_t r;
    if (!unary(L, TL_OP_CAST, v, t, mode, &r)) return false;
    *v = r;
    return true;
}

// The value of a constant (through value casts).
static bool const_value(const tl_expr_t *e, double *f)
{
    while (e->kind == TL_EX_CAST) e = e->arg;
    if (e->kind == TL_EX_FLOAT)
        *f = e->f;
    else if (e->kind == TL_EX_INT)
        *f = (double)e->i;
    else
        return false;
    return true;
}

// Whether x / e equals x * (1 / e) exactly in dtype t: e a power of two
// whose reciprocal is a normal number of t.
static bool is_pow2_const(const tl_expr_t *e, tl_dtype_t t)
{
    double f;
    if (!const_value(e, &f)) return false;
    int exp;
    double m = frexp(fabs(f), &exp);
    int range = t == TL_F32 || t == TL_BF16 ? 120 : t == TL_F16 ? 14 : 0;
    return f != 0 && m == 0.5 && exp - 1 >= -range && exp - 1 <= range;
}

static bool binary_op(lower_t *L, tl_opcode_t code, val_t *a, val_t *b, tl_dtype_t t, val_t *out)
{
    if (b->cls != V_SCALAR && a->cls != b->cls) {
        if (!materialise(L, a) || !materialise(L, b)) return false;
    }
    consume(L, a);
    consume(L, b);
    if (!target(L, a->cls, t, a, b, out)) return false;
    tl_arg_t args[3] = {region_arg(&out->r), region_arg(&a->r),
                        b->cls == V_SCALAR ? scalar_arg(b->s) : region_arg(&b->r)};
    emit(L, code, 3, args);
    return true;
}

static bool row_expand(lower_t *L, tl_opcode_t code, val_t *a, val_t *b, tl_dtype_t t, val_t *out)
{
    consume(L, a);
    consume(L, b);
    if (!target(L, V_TILE, t, a, NULL, out)) return false;
    tl_arg_t args[3] = {region_arg(&out->r), region_arg(&a->r), region_arg(&b->r)};
    emit(L, code, 3, args);
    return true;
}

static bool gen(lower_t *L, tl_expr_t *e, val_t *v);
// T.max(a, b) = a > b ? a : b and T.min exactly, NaN and signed zeros
// included, on floats: a compare into a bit mask, then a select (the vector
// max/min would keep a NaN a, and may return either zero of a +0/-0 pair).
static bool select_extreme(lower_t *L, bool is_max, val_t *a, val_t *b, tl_dtype_t t, val_t *out)
{
    if (a->cls == V_SCALAR) { // the select takes a tensor first
        val_t f;
        if (!fill(L, b->cls, t, a->s, &f)) return false;
        *a = f;
    }
    if (b->cls != V_SCALAR && a->cls != b->cls && (!materialise(L, a) || !materialise(L, b)))
        return false;
    val_t mask;
    if (!temp_of(L, a->cls, TL_U8, true, &mask)) return false;
    tl_arg_t src1 = b->cls == V_SCALAR ? scalar_arg(b->s) : region_arg(&b->r);
    tl_arg_t cargs[3] = {region_arg(&mask.r), region_arg(&a->r), src1};
    tl_op_t *cmp = emit(L, TL_OP_COMPARE, 3, cargs);
    cmp->cmp = is_max ? TL_CMPMODE_GT : TL_CMPMODE_LT;
    consume(L, a);
    consume(L, b);
    if (!target(L, a->cls, t, a, b, out)) return false;
    tl_arg_t sargs[4] = {region_arg(&out->r), region_arg(&mask.r), region_arg(&a->r), src1};
    tl_op_t *sel = emit(L, TL_OP_SELECT, 4, sargs);
    sel->sel = b->cls == V_SCALAR ? TL_SEL_TENSOR_SCALAR : TL_SEL_TENSOR_TENSOR;
    consume(L, &mask);
    return true;
}

static bool negate(lower_t *L, val_t *a, val_t *out)
{
    val_t m = {V_SCALAR, a->t, {0}, NULL, -1, false};
    m.s = vfloat(a->t) ? tl_ir_float(L->k, -1.0, a->t, L->loc) : tl_ir_int(L->k, -1, a->t, L->loc);
    return binary_op(L, TL_OP_MUL, a, &m, a->t, out);
}

static bool bin_ops(lower_t *L, tl_expr_t *e, val_t *pa, val_t *pb, val_t *v);

// (gen and gen_bin recurse once per level of the expression, up to
// TL_MAX_NESTING levels: the ops are emitted by a separate function.)
static bool gen_bin(lower_t *L, tl_expr_t *e, val_t *v)
{
    tl_binop_t op = (tl_binop_t)e->op.op;
    tl_dtype_t t = e->dtype;
    if (!vfloat(t) && !vint(t))
        return par_fail(L, e->loc, "it computes '%s' in %s", tl_binop_text(op), tl_dtype_name(t));
    val_t a, b;
    if (!gen(L, e->op.a, &a) || !gen(L, e->op.b, &b) || !convert(L, &a, t, e->loc) ||
        !convert(L, &b, t, e->loc))
        return false;
    return bin_ops(L, e, &a, &b, v);
}

static TL_NOINLINE bool bin_ops(lower_t *L, tl_expr_t *e, val_t *pa, val_t *pb, val_t *v)
{
    val_t a = *pa, b = *pb;
    tl_binop_t op = (tl_binop_t)e->op.op;
    tl_dtype_t t = e->dtype;
    bool flt = vfloat(t);
    tl_opcode_t code;
    switch (op) {
    case TL_BIN_ADD: code = TL_OP_ADD; break;
    case TL_BIN_MUL: code = TL_OP_MUL; break;
    case TL_BIN_MAX:
    case TL_BIN_MIN:
        if (flt) return select_extreme(L, op == TL_BIN_MAX, &a, &b, t, v);
        code = op == TL_BIN_MAX ? TL_OP_MAX : TL_OP_MIN;
        break;
    case TL_BIN_AND: code = TL_OP_AND; break;
    case TL_BIN_OR: code = TL_OP_OR; break;
    case TL_BIN_XOR: code = TL_OP_XOR; break;
    case TL_BIN_SUB:
        if (a.cls == V_SCALAR) { // s - x = (-x) + s
            val_t n;
            return negate(L, &b, &n) && binary_op(L, TL_OP_ADD, &n, &a, t, v);
        }
        if (a.cls == V_TILE && b.cls == V_ROW && flt)
            return row_expand(L, TL_OP_ROW_EXPAND_SUB, &a, &b, t, v);
        return binary_op(L, TL_OP_SUB, &a, &b, t, v);
    case TL_BIN_DIV:
        if (a.cls == V_SCALAR) { // s / x: 1 / x is a reciprocal; else s in a tile
            double one;
            if (flt && const_value(a.s, &one) && one == 1.0)
                return unary(L, TL_OP_RECIPROCAL, &b, t, TL_CAST_RINT, v);
            val_t f;
            return fill(L, b.cls, t, a.s, &f) && binary_op(L, TL_OP_DIV, &f, &b, t, v);
        }
        if (b.cls == V_SCALAR && flt && !is_pow2_const(b.s, t)) {
            val_t f;
            return fill(L, a.cls, t, b.s, &f) && binary_op(L, TL_OP_DIV, &a, &f, t, v);
        }
        if (a.cls == V_TILE && b.cls == V_ROW && flt)
            return row_expand(L, TL_OP_ROW_EXPAND_DIV, &a, &b, t, v);
        return binary_op(L, TL_OP_DIV, &a, &b, t, v);
    case TL_BIN_POW:
        if (!flt) return par_fail(L, e->loc, "it raises integers to a power");
        if (a.cls == V_SCALAR) {
            val_t f;
            return fill(L, b.cls, t, a.s, &f) && binary_op(L, TL_OP_POW, &f, &b, t, v);
        }
        return binary_op(L, TL_OP_POW, &a, &b, t, v);
    case TL_BIN_SHL:
    case TL_BIN_SHR:
        if (flt || b.cls != V_SCALAR || a.cls == V_SCALAR)
            return par_fail(L, e->loc, "it shifts by a per-element amount");
        return binary_op(L, op == TL_BIN_SHL ? TL_OP_SHL : TL_OP_SHR, &a, &b, t, v);
    default: return par_fail(L, e->loc, "it uses the operator '%s'", tl_binop_text(op));
    }
    // commutative ops: a scalar goes second; a row times a tile is row_expand_mul
    if (a.cls == V_SCALAR || (a.cls != V_TILE && b.cls == V_TILE)) {
        val_t x = a;
        a = b;
        b = x;
    }
    if ((code == TL_OP_AND || code == TL_OP_OR || code == TL_OP_XOR) && flt)
        return par_fail(L, e->loc, "it applies '%s' to floats", tl_binop_text(op));
    if (code == TL_OP_MUL && a.cls == V_TILE && b.cls == V_ROW && flt)
        return row_expand(L, TL_OP_ROW_EXPAND_MUL, &a, &b, t, v);
    return binary_op(L, code, &a, &b, t, v);
}

static bool un_ops(lower_t *L, tl_expr_t *e, val_t *pa, val_t *v);

static TL_NOINLINE bool gen_un(lower_t *L, tl_expr_t *e, val_t *v)
{
    val_t a;
    if (!gen(L, e->op.a, &a) || !convert(L, &a, e->dtype, e->loc)) return false;
    return un_ops(L, e, &a, v);
}

static TL_NOINLINE bool un_ops(lower_t *L, tl_expr_t *e, val_t *pa, val_t *v)
{
    val_t a = *pa;
    tl_unop_t op = (tl_unop_t)e->op.op;
    tl_dtype_t t = e->dtype;
    if (op == TL_UN_NEG && (vfloat(t) || vint(t))) return negate(L, &a, v);
    tl_opcode_t code;
    if (vint(t)) {
        if (op == TL_UN_ABS) return unary(L, TL_OP_ABS, &a, t, TL_CAST_RINT, v);
        if (op == TL_UN_BITNOT) return unary(L, TL_OP_NOT, &a, t, TL_CAST_RINT, v);
        return par_fail(L, e->loc, "it applies '%s' to %s", tl_unop_text(op), tl_dtype_name(t));
    }
    if (!vfloat(t))
        return par_fail(L, e->loc, "it computes '%s' in %s", tl_unop_text(op), tl_dtype_name(t));
    switch (op) {
    case TL_UN_EXP: code = TL_OP_EXP; break;
    case TL_UN_LOG: code = TL_OP_LN; break;
    case TL_UN_SQRT: code = TL_OP_SQRT; break;
    case TL_UN_RSQRT: code = TL_OP_RSQRT; break;
    case TL_UN_ABS: code = TL_OP_ABS; break;
    case TL_UN_SIGMOID: code = TL_OP_SIGMOID; break;
    case TL_UN_SIN: code = TL_OP_SIN; break;
    case TL_UN_COS: code = TL_OP_COS; break;
    case TL_UN_ROUND: code = TL_OP_ROUND; break;
    default: return par_fail(L, e->loc, "there is no vector op for '%s'", tl_unop_text(op));
    }
    return unary(L, code, &a, t, TL_CAST_RINT, v);
}

static TL_NOINLINE bool gen_load(lower_t *L, tl_expr_t *e, val_t *v)
{
    tl_buffer_t *b = e->load.buf;
    memset(v, 0, sizeof *v);
    v->temp = -1;
    v->t = e->dtype;
    if (!classify(L, b, e->load.n, e->load.idx, e->loc, &v->cls, &v->r)) return false;
    if (b->scope == TL_SCOPE_GM) { // through a UB temporary
        val_t tmp;
        if (!temp(L, v->cls, b->dtype, &tmp)) return false;
        tl_arg_t args[2] = {region_arg(&v->r), region_arg(&tmp.r)};
        emit(L, TL_OP_COPY, 2, args);
        tmp.t = e->dtype;
        *v = tmp;
        return true;
    }
    if (b->scope != TL_SCOPE_UB)
        return par_fail(L, e->loc, "'%s' is in %s (vector ops work on UB)", b->name,
                        tl_scope_name(b->scope));
    v->is_dst = b == L->dst;
    return true;
}

static bool gen(lower_t *L, tl_expr_t *e, val_t *v)
{
    if (!varies(L, e)) {
        memset(v, 0, sizeof *v);
        v->cls = V_SCALAR;
        v->t = e->dtype;
        v->s = e;
        v->temp = -1;
        return true;
    }
    switch (e->kind) {
    case TL_EX_LOAD: return gen_load(L, e, v);
    case TL_EX_BIN: return gen_bin(L, e, v);
    case TL_EX_UN: return gen_un(L, e, v);
    case TL_EX_CAST:
        if (!gen(L, e->arg, v)) return false;
        return convert(L, v, e->dtype, e->loc);
    case TL_EX_VAR:
        return par_fail(L, e->loc, "it uses the loop index '%s' as a value", e->var->name);
    case TL_EX_SELECT: return par_fail(L, e->loc, "it selects per element (T.if_then_else)");
    default: return par_fail(L, e->loc, "it reinterprets bits per element");
    }
}

int par_count_loads(const tl_expr_t *e, const tl_buffer_t *b)
{
    if (!e) return 0;
    switch (e->kind) {
    case TL_EX_LOAD: {
        int n = e->load.buf == b;
        for (int i = 0; i < e->load.n; i++) n += par_count_loads(e->load.idx[i], b);
        return n;
    }
    case TL_EX_BIN: return par_count_loads(e->op.a, b) + par_count_loads(e->op.b, b);
    case TL_EX_UN: return par_count_loads(e->op.a, b);
    case TL_EX_CAST:
    case TL_EX_REINTERPRET: return par_count_loads(e->arg, b);
    case TL_EX_SELECT:
        return par_count_loads(e->sel.cond, b) + par_count_loads(e->sel.a, b) +
               par_count_loads(e->sel.b, b);
    default: return 0;
    }
}

// `l1[i, j] = gm[...]` and `gm[...] = l0c[i, j]` (a cast to the tensor's dtype
// allowed): element copies along a path the cube side moves by DMA, which
// upstream's T.Parallel lowering (ascend_lower_parallel_to_vector.cc,
// DecomposeExpression) turns into one copy. The scalar unit cannot reach L1
// or L0C (AscendC's LocalTensor GetValue / SetValue: UB positions only), so
// there is no element-wise way to run them. True when emitted.
static bool direct_copy(lower_t *L, const tl_region_t *dr, tl_expr_t *value, tl_loc_t loc)
{
    tl_scope_t to = dr->buf->scope;
    if (value->kind == TL_EX_CAST && to == TL_SCOPE_GM) value = value->arg; // the fixpipe converts
    if (value->kind != TL_EX_LOAD) return false;
    tl_scope_t from = value->load.buf->scope;
    if (!((from == TL_SCOPE_GM && to == TL_SCOPE_L1 && value->load.buf->dtype == dr->buf->dtype) ||
          (from == TL_SCOPE_L0C && to == TL_SCOPE_GM)))
        return false;
    vclass_t c;
    tl_region_t sr;
    if (!classify(L, value->load.buf, value->load.n, value->load.idx, loc, &c, &sr) || c != V_TILE)
        return false;
    tl_arg_t args[2] = {region_arg(&sr), region_arg(dr)};
    emit(L, TL_OP_COPY, 2, args);
    return true;
}

bool par_lower_store(lower_t *L, tl_buffer_t *dst, int nidx, tl_expr_t *const *idx,
                     tl_expr_t *value, tl_loc_t loc)
{
    L->loc = loc;
    L->dst = dst;
    vclass_t c;
    tl_region_t dr;
    if (!classify(L, dst, nidx, idx, loc, &c, &dr)) return false;
    if (c != V_TILE)
        return par_fail(L, loc, "the store to '%s' does not use every loop index", dst->name);
    if (direct_copy(L, &dr, value, loc)) return true;
    if (dst->scope != TL_SCOPE_UB && dst->scope != TL_SCOPE_GM)
        return par_fail(L, loc, "'%s' is in %s (vector ops work on UB)", dst->name,
                        tl_scope_name(dst->scope));
    for (int i = 0; i < L->ntemps; i++) L->temps[i].busy = false;
    L->dst_busy = false;
    val_t gm_tile;
    if (dst->scope == TL_SCOPE_GM) { // computed into a UB tile, then stored
        if (!temp(L, V_TILE, dst->dtype, &gm_tile)) return false;
        L->dst_r = gm_tile.r;
        L->pending = 0;
    } else {
        L->dst_r = dr;
        L->pending = par_count_loads(value, dst);
    }
    L->dst_plain = true;
    for (int d = 0; d + 2 < L->dst_r.ndim; d++) {
        int64_t e;
        if (!tl_ir_is_const_int(L->dst_r.extent[d], &e) || e != 1) L->dst_plain = false;
    }
    val_t v;
    if (!gen(L, value, &v) || !convert(L, &v, dst->dtype, loc)) return false;
    if (v.temp != DST) {
        consume(L, &v);
        if (v.cls == V_SCALAR) {
            tl_arg_t args[2] = {region_arg(&L->dst_r), scalar_arg(v.s)};
            emit(L, TL_OP_FILL, 2, args);
        } else if (v.cls != V_TILE) {
            if (!materialise(L, &v)) return false;
        }
        if (v.cls == V_TILE && v.temp != DST) {
            bool same = v.r.buf == L->dst_r.buf;
            for (int d = 0; same && d < v.r.ndim; d++)
                same = tl_ir_expr_equal(v.r.start[d], L->dst_r.start[d]);
            if (!same) {
                tl_arg_t args[2] = {region_arg(&v.r), region_arg(&L->dst_r)};
                emit(L, TL_OP_COPY, 2, args);
            }
        }
    }
    if (dst->scope == TL_SCOPE_GM) {
        tl_arg_t args[2] = {region_arg(&gm_tile.r), region_arg(&dr)};
        emit(L, TL_OP_COPY, 2, args);
    }
    return true;
}
