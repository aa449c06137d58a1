// The `tilelang.language` (T) namespace, except tile ops (tapi_ops.c): dtypes,
// T.Tensor, T.symbolic, allocations, T.Kernel / T.Scope / loops / T.If frames,
// scalar math and casts, synchronisation, decorators and annotations.
#include "front/front.h"

#include <math.h>
#include <string.h>

static tl_value_t *arg(tl_call_t *c, int pos, const char *kw)
{
    return tl_call_arg(c, pos, kw);
}

static tl_loc_t aloc(tl_call_t *c, int pos, const char *kw)
{
    return tl_call_arg_loc(c, pos, kw);
}

static tl_value_t *need(tl_eval_t *ev, tl_call_t *c, int pos, const char *kw, const char *fname)
{
    tl_value_t *v = arg(c, pos, kw);
    if (!v) tl_eval_fail(ev, c->loc, "%s: missing argument '%s'", fname, kw ? kw : "value");
    return v;
}

static tl_value_t *ir(tl_eval_t *ev, tl_expr_t *e)
{
    return e ? tl_value_expr(ev->arena, e) : NULL;
}

// --- T.Tensor, T.symbolic ---------------------------------------------------------------------

static tl_value_t *t_tensor(tl_eval_t *ev, tl_call_t *c)
{
    static const char *kws[] = {"shape", "dtype", NULL};
    if (!tl_call_check(ev, c, "T.Tensor", 1, 2, kws)) return NULL;
    tl_value_t *shape = need(ev, c, 0, "shape", "T.Tensor");
    if (!shape) return NULL;
    tl_value_t *dt = arg(c, 1, "dtype");
    tl_dtype_t t = TL_F32;
    bool int4 = false;
    if (dt && !tl_value_to_buffer_dtype(ev, dt, aloc(c, 1, "dtype"), &t, &int4)) return NULL;
    if (shape->kind != TL_V_TUPLE && shape->kind != TL_V_LIST) {
        tl_value_t *one[1] = {shape};
        shape = tl_value_tuple(ev->arena, 1, one);
    }
    if (shape->seq.n == 0) {
        // A 0-d tensor (T.Tensor((), dtype): one element, upstream's scalar_copy test) is a
        // one-element vector here, so whole-buffer tile operands (T.copy(A, ub)) keep a rank.
        tl_value_t *one[1] = {tl_value_int(ev->arena, 1)};
        shape = tl_value_tuple(ev->arena, 1, one);
    }
    if (shape->seq.n > TL_MAX_DIMS)
        return tl_eval_fail(ev, aloc(c, 0, "shape"), "T.Tensor has %d dimensions; at most %d are supported",
                            shape->seq.n, TL_MAX_DIMS);
    for (int i = 0; i < shape->seq.n; i++) {
        tl_value_t *d = shape->seq.items[i];
        if (d->kind == TL_V_OPAQUE || d->kind == TL_V_ERROR) {
            tl_value_to_expr(ev, d, aloc(c, 0, "shape"), -1); // reports why
            return NULL;
        }
        if (!(d->kind == TL_V_INT || d->kind == TL_V_EXPR)) {
            tl_eval_fail(ev, aloc(c, 0, "shape"), "T.Tensor dimension %d must be an integer or a "
                                                  "T.symbolic expression, got %s",
                         i, tl_value_type_name(d));
            tl_value_explain(ev, d);
            return NULL;
        }
        if (d->kind == TL_V_EXPR && tl_dtype_is_float(d->expr->dtype))
            return tl_eval_fail(ev, aloc(c, 0, "shape"), "T.Tensor dimension %d is a float expression", i);
        if (d->kind == TL_V_INT && d->i <= 0)
            return tl_eval_fail(ev, aloc(c, 0, "shape"), "T.Tensor dimension %d is %lld; dimensions must be "
                                                         "positive",
                                i, (long long)d->i);
    }
    tl_value_t *v = tl_value_new(ev->arena, TL_V_TENSORTYPE);
    v->tensortype.shape = shape;
    v->tensortype.dtype = t;
    v->tensortype.int4 = int4;
    return v;
}

static tl_value_t *t_symbolic(tl_eval_t *ev, tl_call_t *c)
{
    static const char *kws[] = {"name", "dtype", NULL};
    if (!tl_call_check(ev, c, "T.symbolic", 1, 2, kws)) return NULL;
    const char *name = tl_value_to_cstr(ev, need(ev, c, 0, "name", "T.symbolic"), aloc(c, 0, "name"),
                                        "the symbolic dimension's name");
    if (!name) return NULL;
    tl_dtype_t t = TL_I32;
    tl_value_t *dt = arg(c, 1, "dtype");
    if (dt && !tl_value_to_dtype(ev, dt, aloc(c, 1, "dtype"), &t)) return NULL;
    tl_kernel_t *k = tl_eval_ir(ev);
    tl_var_t *v = tl_ir_var(k, name, t, TL_VAR_DIM, c->loc);
    return ir(ev, tl_ir_varref(k, v, c->loc));
}

// --- arithmetic helpers -------------------------------------------------------------------------

// ceildiv(a, b) = (a + b - 1) // b on Python ints, (a + b - 1) / b in IR.
static tl_value_t *t_ceildiv(tl_eval_t *ev, tl_call_t *c)
{
    if (!tl_call_check(ev, c, "ceildiv", 2, 2, NULL)) return NULL;
    tl_value_t *a = c->args[0], *b = c->args[1];
    tl_value_t *one = tl_value_int(ev->arena, 1);
    tl_value_t *s = tl_eval_binop(ev, TL_BIN_ADD, a, b, c->loc);
    s = s ? tl_eval_binop(ev, TL_BIN_SUB, s, one, c->loc) : NULL;
    return s ? tl_eval_binop(ev, TL_PYOP_FLOORDIV, s, b, c->loc) : NULL;
}

// T.exp(dst, src), T.max(dst, src0, src1) ...: upstream's T-level tile ops from before
// the T.tile namespace (ir/ops.h, TL_OP_ALIASES) share their names with the expression
// functions; a tile (UB buffer or region) as the first of several arguments picks the
// tile op T.tile.NAME. Returns NULL when the call is the expression form.
static tl_value_t *tile_form(tl_eval_t *ev, tl_call_t *c, const char *name, bool *taken)
{
    tl_value_t *a = c->nargs >= 2 ? c->args[0] : NULL;
    *taken = a && (a->kind == TL_V_REGION || (a->kind == TL_V_BUFFER && a->buffer->scope != TL_SCOPE_VAR));
    if (!*taken) return NULL;
    tl_value_t *tile = tl_value_module_get(ev->lang, "tile");
    tl_value_t *fn = tile ? tl_value_module_get(tile, name) : NULL;
    if (!fn) return tl_eval_fail(ev, c->loc, "T.%s of a buffer has no tile form in tilec", name);
    tl_call_t tc = *c;
    tc.self = NULL;
    return tl_eval_call(ev, fn, &tc);
}

static tl_value_t *ir_binary(tl_eval_t *ev, tl_call_t *c, const char *fname, tl_binop_t op, int pyop)
{
    if (!tl_call_check(ev, c, fname, 2, 2, NULL)) return NULL;
    tl_value_t *a = c->args[0], *b = c->args[1];
    if (a->kind != TL_V_EXPR && b->kind != TL_V_EXPR && pyop >= 0)
        return tl_eval_binop(ev, pyop, a, b, c->loc);
    tl_kernel_t *k = tl_eval_ir(ev);
    tl_expr_t *x = tl_value_to_expr(ev, a, aloc(c, 0, NULL), -1);
    tl_expr_t *y = x ? tl_value_to_expr(ev, b, aloc(c, 1, NULL), x->dtype) : NULL;
    return y ? ir(ev, tl_ir_bin(k, op, x, y, c->loc)) : NULL;
}

// T.max / T.min of two Python values: the one the comparison `cmp` (second
// against first) picks when Python decides it; when it gives an IR expression
// instead (an alloc_var compared with a number: `T.min(v, A - 1)`), the IR
// operation, not that comparison.
static tl_value_t *py_or_ir_minmax(tl_eval_t *ev, tl_call_t *c, const char *fname, tl_binop_t cmp,
                                   tl_binop_t op)
{
    if (c->nargs == 2 && c->args[0]->kind != TL_V_EXPR && c->args[1]->kind != TL_V_EXPR) {
        tl_value_t *pick = tl_eval_binop(ev, cmp, c->args[1], c->args[0], c->loc);
        if (!pick) return NULL;
        if (pick->kind == TL_V_BOOL) return pick->b ? c->args[1] : c->args[0];
    }
    return ir_binary(ev, c, fname, op, -1);
}

static tl_value_t *t_max(tl_eval_t *ev, tl_call_t *c)
{
    bool taken;
    tl_value_t *t = tile_form(ev, c, "max", &taken);
    if (taken) return t;
    return py_or_ir_minmax(ev, c, "T.max", TL_BIN_GT, TL_BIN_MAX);
}

static tl_value_t *t_min(tl_eval_t *ev, tl_call_t *c)
{
    bool taken;
    tl_value_t *t = tile_form(ev, c, "min", &taken);
    if (taken) return t;
    return py_or_ir_minmax(ev, c, "T.min", TL_BIN_LT, TL_BIN_MIN);
}

static tl_value_t *t_floordiv(tl_eval_t *ev, tl_call_t *c)
{
    return ir_binary(ev, c, "T.floordiv", TL_BIN_FLOORDIV, TL_PYOP_FLOORDIV);
}

static tl_value_t *t_floormod(tl_eval_t *ev, tl_call_t *c)
{
    return ir_binary(ev, c, "T.floormod", TL_BIN_FLOORMOD, TL_BIN_MOD);
}

static tl_value_t *t_truncdiv(tl_eval_t *ev, tl_call_t *c)
{
    return ir_binary(ev, c, "T.truncdiv", TL_BIN_DIV, -1);
}

static tl_value_t *t_truncmod(tl_eval_t *ev, tl_call_t *c)
{
    return ir_binary(ev, c, "T.truncmod", TL_BIN_MOD, -1);
}

static tl_value_t *t_and(tl_eval_t *ev, tl_call_t *c)
{
    return ir_binary(ev, c, "T.And", TL_BIN_LAND, -1);
}

static tl_value_t *t_or(tl_eval_t *ev, tl_call_t *c)
{
    return ir_binary(ev, c, "T.Or", TL_BIN_LOR, -1);
}

static tl_value_t *t_not(tl_eval_t *ev, tl_call_t *c)
{
    if (!tl_call_check(ev, c, "T.Not", 1, 1, NULL)) return NULL;
    return tl_eval_unop(ev, TL_UN_NOT, c->args[0], c->loc);
}

// Scalar math: Python numbers fold with libm; IR values become unary ops.
static tl_value_t *unary_math(tl_eval_t *ev, tl_call_t *c, const char *fname, tl_unop_t op)
{
    if (!tl_call_check(ev, c, fname, 1, 1, NULL)) return NULL;
    tl_value_t *x = c->args[0];
    if (tl_value_is_number(x)) {
        double v = tl_value_as_double(x), r;
        switch (op) {
        case TL_UN_EXP: r = exp(v); break;
        case TL_UN_LOG: r = log(v); break;
        case TL_UN_SQRT: r = sqrt(v); break;
        case TL_UN_RSQRT: r = 1 / sqrt(v); break;
        case TL_UN_ABS: r = fabs(v); break;
        case TL_UN_SIGMOID: r = 1 / (1 + exp(-v)); break;
        case TL_UN_TANH: r = tanh(v); break;
        case TL_UN_FLOOR: r = floor(v); break;
        case TL_UN_CEIL: r = ceil(v); break;
        case TL_UN_ROUND: r = nearbyint(v); break;
        case TL_UN_TRUNC: r = trunc(v); break;
        case TL_UN_SIN: r = sin(v); break;
        case TL_UN_COS: r = cos(v); break;
        default: r = v; break;
        }
        return tl_value_float(ev->arena, r);
    }
    tl_expr_t *e = tl_value_to_expr(ev, x, aloc(c, 0, NULL), -1);
    if (!e) return NULL;
    if (!tl_dtype_is_float(e->dtype) && op != TL_UN_ABS)
        e = tl_ir_cast(tl_eval_ir(ev), TL_F32, e, c->loc);
    return ir(ev, tl_ir_un(tl_eval_ir(ev), op, e, c->loc));
}

#define UNARY(NAME, FNAME, OP)                                                                     \
    static tl_value_t *t_##NAME(tl_eval_t *ev, tl_call_t *c)                                       \
    {                                                                                              \
        bool taken;                                                                                \
        tl_value_t *t = tile_form(ev, c, #NAME, &taken);                                           \
        return taken ? t : unary_math(ev, c, FNAME, OP);                                           \
    }
UNARY(exp, "T.exp", TL_UN_EXP)
UNARY(log, "T.log", TL_UN_LOG)
UNARY(sqrt, "T.sqrt", TL_UN_SQRT)
UNARY(rsqrt, "T.rsqrt", TL_UN_RSQRT)
UNARY(abs, "T.abs", TL_UN_ABS)
UNARY(sigmoid, "T.sigmoid", TL_UN_SIGMOID)
UNARY(tanh, "T.tanh", TL_UN_TANH)
UNARY(floor, "T.floor", TL_UN_FLOOR)
UNARY(ceil, "T.ceil", TL_UN_CEIL)
UNARY(round, "T.round", TL_UN_ROUND)
UNARY(trunc, "T.trunc", TL_UN_TRUNC)
UNARY(sin, "T.sin", TL_UN_SIN)
UNARY(cos, "T.cos", TL_UN_COS)

static tl_value_t *t_pow(tl_eval_t *ev, tl_call_t *c)
{
    return ir_binary(ev, c, "T.pow", TL_BIN_POW, TL_BIN_POW);
}

static tl_value_t *t_infinity(tl_eval_t *ev, tl_call_t *c)
{
    static const char *kws[] = {"dtype", NULL};
    if (!tl_call_check(ev, c, "T.infinity", 1, 1, kws)) return NULL;
    tl_dtype_t t;
    if (!tl_value_to_dtype(ev, need(ev, c, 0, "dtype", "T.infinity"), aloc(c, 0, "dtype"), &t)) return NULL;
    if (!tl_dtype_is_float(t))
        return tl_eval_fail(ev, aloc(c, 0, "dtype"), "T.infinity needs a floating dtype, got %s", tl_dtype_name(t));
    if (!ev->kernel) return tl_value_float(ev->arena, INFINITY);
    return ir(ev, tl_ir_float(ev->kernel, INFINITY, t, c->loc));
}

// T.Cast(dtype, x) and T.cast(x, dtype).
static tl_value_t *cast_to(tl_eval_t *ev, tl_call_t *c, tl_value_t *dt, tl_value_t *x, bool reinterpret)
{
    tl_dtype_t t;
    if (!dt || !x) return tl_eval_fail(ev, c->loc, "a cast needs a dtype and a value");
    if (!tl_value_to_dtype(ev, dt, c->loc, &t)) return NULL;
    tl_expr_t *e = tl_value_to_expr(ev, x, c->loc, -1);
    if (!e) return NULL;
    tl_kernel_t *k = tl_eval_ir(ev);
    if (reinterpret) {
        if (tl_dtype_size(t) != tl_dtype_size(e->dtype))
            return tl_eval_fail(ev, aloc(c, 1, "value"), "T.reinterpret from %s to %s changes the size",
                                tl_dtype_name(e->dtype), tl_dtype_name(t));
        return ir(ev, tl_ir_reinterpret(k, t, e, c->loc));
    }
    return ir(ev, tl_ir_cast(k, t, e, c->loc));
}

static tl_value_t *t_Cast(tl_eval_t *ev, tl_call_t *c)
{
    return cast_to(ev, c, arg(c, 0, "dtype"), arg(c, 1, "value"), false);
}

static tl_value_t *t_cast(tl_eval_t *ev, tl_call_t *c)
{
    return cast_to(ev, c, arg(c, 1, "dtype"), arg(c, 0, "value"), false);
}

static tl_value_t *t_reinterpret(tl_eval_t *ev, tl_call_t *c)
{
    return cast_to(ev, c, arg(c, 0, "dtype"), arg(c, 1, "value"), true);
}

static tl_value_t *t_if_then_else(tl_eval_t *ev, tl_call_t *c)
{
    if (!tl_call_check(ev, c, "T.if_then_else", 3, 3, NULL)) return NULL;
    tl_value_t *cv = c->args[0];
    bool is_expr = false, ok = true;
    bool t = tl_eval_truth(ev, &cv, aloc(c, 0, NULL), &is_expr, &ok);
    if (!ok) return NULL;
    if (!is_expr) return t ? c->args[1] : c->args[2];
    tl_expr_t *a = tl_value_to_expr(ev, c->args[1], aloc(c, 1, NULL), -1);
    tl_expr_t *b = a ? tl_value_to_expr(ev, c->args[2], aloc(c, 2, NULL), a->dtype) : NULL;
    if (!b) return NULL;
    if (is_expr && a->dtype != b->dtype) b = tl_ir_cast(tl_eval_ir(ev), a->dtype, b, c->loc);
    return ir(ev, tl_ir_select(tl_eval_ir(ev), cv->expr, a, b, c->loc));
}

// --- allocations -------------------------------------------------------------------------------

static tl_value_t *alloc(tl_eval_t *ev, tl_call_t *c, const char *fname, tl_scope_t scope)
{
    static const char *kws[] = {"shape", "dtype", "scope", NULL};
    if (!tl_call_check(ev, c, fname, 2, 3, kws)) return NULL;
    if (!tl_trace_require(ev, c->loc, fname)) return NULL;
    int64_t shape[TL_MAX_DIMS];
    int ndim;
    // a 1-D UB allocation may be empty: a scratch arena (below); others need positive dimensions
    tl_value_t *shape_v = need(ev, c, 0, "shape", fname);
    bool arena_1d = shape_v && scope == TL_SCOPE_UB &&
                    (tl_value_is_exprlike(shape_v) ||
                     ((shape_v->kind == TL_V_TUPLE || shape_v->kind == TL_V_LIST) && shape_v->seq.n == 1));
    if (!tl_value_to_shape(ev, shape_v, aloc(c, 0, "shape"), shape, &ndim, arena_1d)) return NULL;
    tl_dtype_t t;
    bool int4;
    if (!tl_value_to_buffer_dtype(ev, need(ev, c, 1, "dtype", fname), aloc(c, 1, "dtype"), &t, &int4))
        return NULL;
    for (int i = 0; i < ndim; i++)
        if (shape[i] == 0) // an empty 1-D UB arena: upstream elides it, so it is None (tmp=None), no buffer
            return tl_value_new(ev->arena, TL_V_NONE);
    const char *name = tl_trace_unique_name(ev, c->name_hint ? c->name_hint : "buf");
    tl_value_t *v = tl_value_new(ev->arena, TL_V_BUFFER);
    v->buffer = tl_ir_buffer(ev->kernel, name, scope, t, ndim, shape, c->loc);
    if (int4 && !tl_eval_int4_buffer(ev, v->buffer, aloc(c, 0, "shape"))) return NULL;
    return v;
}

#define ALLOC(NAME, FNAME, SCOPE)                                                                  \
    static tl_value_t *t_##NAME(tl_eval_t *ev, tl_call_t *c)                                       \
    {                                                                                              \
        return alloc(ev, c, FNAME, SCOPE);                                                         \
    }
ALLOC(alloc_L1, "T.alloc_L1", TL_SCOPE_L1)
ALLOC(alloc_L0A, "T.alloc_L0A", TL_SCOPE_L0A)
ALLOC(alloc_L0B, "T.alloc_L0B", TL_SCOPE_L0B)
ALLOC(alloc_L0C, "T.alloc_L0C", TL_SCOPE_L0C)
ALLOC(alloc_ub, "T.alloc_ub", TL_SCOPE_UB)
ALLOC(alloc_shared, "T.alloc_shared", TL_SCOPE_SHARED)
ALLOC(alloc_fragment, "T.alloc_fragment", TL_SCOPE_FRAGMENT)

static tl_value_t *t_alloc_var(tl_eval_t *ev, tl_call_t *c)
{
    static const char *kws[] = {"dtype", "init", "scope", NULL};
    if (!tl_call_check(ev, c, "T.alloc_var", 1, 2, kws)) return NULL;
    if (!tl_trace_require(ev, c->loc, "T.alloc_var")) return NULL;
    tl_dtype_t t;
    if (!tl_value_to_dtype(ev, need(ev, c, 0, "dtype", "T.alloc_var"), aloc(c, 0, "dtype"), &t)) return NULL;
    const char *name = tl_trace_unique_name(ev, c->name_hint ? c->name_hint : "var");
    int64_t one = 1;
    tl_buffer_t *b = tl_ir_buffer(ev->kernel, name, TL_SCOPE_VAR, t, 1, &one, c->loc);
    tl_value_t *init = arg(c, 1, "init");
    if (init) {
        tl_expr_t *e = tl_value_to_expr(ev, init, aloc(c, 1, "init"), t);
        if (!e) return NULL;
        e = tl_ir_cast(ev->kernel, t, e, c->loc);
        int64_t iv;
        if (tl_ir_is_const_int(e, &iv) || e->kind == TL_EX_FLOAT) b->init = e;
        else { // a run-time initial value becomes a store at the allocation point
            tl_stmt_t *s = tl_ir_stmt(ev->kernel, TL_ST_STORE, c->loc);
            s->store.buf = b;
            s->store.n = 1;
            s->store.idx = tl_arena_alloc(ev->arena, sizeof(tl_expr_t *));
            s->store.idx[0] = tl_ir_int(ev->kernel, 0, TL_I32, c->loc);
            s->store.value = e;
            tl_trace_emit(ev, s);
        }
    }
    tl_value_t *v = tl_value_new(ev->arena, TL_V_BUFFER);
    v->buffer = b;
    return v;
}

// --- frames and loops ---------------------------------------------------------------------------

static tl_value_t *frame(tl_eval_t *ev, tl_frame_kind_t kind)
{
    tl_value_t *v = tl_value_new(ev->arena, TL_V_FRAME);
    v->frame.frame = kind;
    return v;
}

static tl_value_t *t_kernel(tl_eval_t *ev, tl_call_t *c)
{
    static const char *kws[] = {"threads", "is_npu", "prelude", NULL};
    if (!tl_call_check(ev, c, "T.Kernel", 1, 1, kws)) return NULL;
    if (!tl_trace_require(ev, c->loc, "T.Kernel")) return NULL;
    tl_value_t *n = need(ev, c, 0, NULL, "T.Kernel");
    if (!n) return NULL;
    tl_expr_t *grid = tl_value_to_expr(ev, n, aloc(c, 0, NULL), -1);
    if (!grid) return NULL;
    if (tl_dtype_is_float(grid->dtype))
        return tl_eval_fail(ev, aloc(c, 0, NULL), "the number of blocks must be an integer");
    int64_t g;
    if (tl_ir_is_const_int(grid, &g) && g <= 0)
        return tl_eval_fail(ev, aloc(c, 0, NULL), "T.Kernel launches %lld blocks; it needs at least one",
                            (long long)g);
    tl_value_t *f = frame(ev, TL_FRAME_KERNEL);
    f->frame.result = ir(ev, grid);
    tl_value_t *th = arg(c, -1, "threads");
    // npuir: T.Kernel(n, threads=t) without is_npu is TVM's GPU launch frame; npuir's code
    // generators bind only blockIdx (codegen_npuir*.cc), so threadIdx and t are dropped and
    // each block runs its body once, as an npuir kernel without T.Scope does.
    if (th && th->kind != TL_V_NONE && tl_front_npuir(ev)) {
        int64_t t;
        if (!tl_value_to_int(ev, th, aloc(c, -1, "threads"), "threads", &t)) return NULL;
        if (t <= 0) return tl_eval_fail(ev, aloc(c, -1, "threads"), "T.Kernel(threads=%lld) must be positive", (long long)t);
    } else if (th && th->kind != TL_V_NONE) {
        int64_t t;
        if (!tl_value_to_int(ev, th, aloc(c, -1, "threads"), "threads", &t)) return NULL;
        if (t != 1 && t != 2)
            return tl_eval_fail(ev, aloc(c, -1, "threads"), "T.Kernel(threads=%lld): Ascend kernels use "
                                                            "threads=1 (C:V = 1:1) or threads=2 (1:2)",
                                (long long)t);
        f->frame.threads = (int)t;
    }
    tl_value_t *npu = arg(c, -1, "is_npu");
    bool is_npu = true;
    if (npu && !tl_value_to_flag(ev, npu, aloc(c, -1, "is_npu"), "is_npu", &is_npu)) return NULL;
    if (!is_npu && !tl_front_npuir(ev)) return tl_eval_fail(ev, aloc(c, -1, "is_npu"), "tilec compiles Ascend kernels: T.Kernel needs is_npu=True");
    return f;
}

static tl_value_t *t_scope(tl_eval_t *ev, tl_call_t *c)
{
    static const char *kws[] = {"name", NULL};
    if (!tl_call_check(ev, c, "T.Scope", 1, 1, kws)) return NULL;
    const char *name = tl_value_to_cstr(ev, need(ev, c, 0, "name", "T.Scope"), aloc(c, 0, "name"), "the scope");
    if (!name) return NULL;
    // npuir's T.Scope("Cube") / T.Scope("Vector") (customize_npuir.py)
    if (tl_front_npuir(ev) && (!strcmp(name, "Cube") || !strcmp(name, "Vector"))) name = name[0] == 'C' ? "C" : "V";
    if (strcmp(name, "C") && strcmp(name, "V"))
        return tl_eval_fail(ev, aloc(c, 0, "name"), "T.Scope takes \"C\" (cube core) or \"V\" (vector cores), got \"%s\"", name);
    tl_value_t *f = frame(ev, TL_FRAME_SCOPE);
    f->frame.side = !strcmp(name, "V") ? TL_SIDE_VEC : TL_SIDE_CUBE;
    return f;
}

static tl_value_t *t_if(tl_eval_t *ev, tl_call_t *c)
{
    if (!tl_call_check(ev, c, "T.If", 1, 1, NULL)) return NULL;
    tl_value_t *f = frame(ev, TL_FRAME_IF);
    f->frame.result = c->args[0];
    return f;
}

static tl_value_t *t_then(tl_eval_t *ev, tl_call_t *c)
{
    return tl_call_check(ev, c, "T.Then", 0, 0, NULL) ? frame(ev, TL_FRAME_THEN) : NULL;
}

static tl_value_t *t_else(tl_eval_t *ev, tl_call_t *c)
{
    return tl_call_check(ev, c, "T.Else", 0, 0, NULL) ? frame(ev, TL_FRAME_ELSE) : NULL;
}

static tl_value_t *range_of(tl_eval_t *ev, tl_call_t *c, const char *fname, tl_loop_kind_t kind)
{
    tl_value_t *r = tl_value_new(ev->arena, TL_V_RANGE);
    r->range.loop = kind;
    r->range.ndim = 1;
    if (c->nargs == 0) return tl_eval_fail(ev, c->loc, "%s needs an extent", fname);
    if (c->nargs == 1) {
        r->range.start = tl_value_int(ev->arena, 0);
        r->range.stop = c->args[0];
    } else {
        r->range.start = c->args[0];
        r->range.stop = c->args[1];
        if (c->nargs > 2) r->range.step = c->args[2];
    }
    return r;
}

static tl_value_t *t_serial(tl_eval_t *ev, tl_call_t *c)
{
    static const char *kws[] = {"annotations", NULL};
    if (!tl_call_check(ev, c, "T.serial", 1, 3, kws)) return NULL;
    return range_of(ev, c, "T.serial", TL_LOOP_SERIAL);
}

static tl_value_t *t_unroll(tl_eval_t *ev, tl_call_t *c)
{
    static const char *kws[] = {"explicit", "unroll_factor", NULL};
    if (!tl_call_check(ev, c, "T.unroll", 1, 3, kws)) return NULL;
    return range_of(ev, c, "T.unroll", TL_LOOP_UNROLL);
}

static tl_value_t *t_parallel(tl_eval_t *ev, tl_call_t *c)
{
    static const char *kws[] = {"coalesced_width", NULL};
    if (!tl_call_check(ev, c, "T.Parallel", 1, TL_MAX_DIMS, kws)) return NULL;
    // npuir vectorizes a nest of any depth element by element (npu_loop_vectorize.cc);
    // the ascend branch takes 1-D and 2-D only.
    if (c->nargs > 2 && !tl_front_npuir(ev))
        return tl_eval_fail(ev, aloc(c, 2, NULL), "T.Parallel with %d dimensions is not supported (1 or 2; "
                                        "nest a T.serial loop outside instead)", c->nargs);
    tl_value_t *r = tl_value_new(ev->arena, TL_V_RANGE);
    r->range.loop = TL_LOOP_PARALLEL;
    r->range.ndim = c->nargs;
    for (int i = 0; i < c->nargs; i++) {
        int64_t e;
        if (!tl_value_to_int(ev, c->args[i], aloc(c, i, NULL), "a T.Parallel extent", &e)) return NULL;
        if (e <= 0) return tl_eval_fail(ev, aloc(c, i, NULL), "T.Parallel extent must be positive");
        r->range.extents[i] = c->args[i];
    }
    r->range.start = tl_value_int(ev->arena, 0);
    r->range.stop = c->args[0];
    return r;
}

static tl_value_t *t_pipelined(tl_eval_t *ev, tl_call_t *c)
{
    static const char *kws[] = {"num_stages", "order", "stage", "sync", "group", "cross_interval", NULL};
    if (!tl_call_check(ev, c, "T.Pipelined", 1, 3, kws)) return NULL;
    tl_value_t *r = range_of(ev, c, "T.Pipelined", TL_LOOP_PIPELINED);
    if (!r) return NULL;
    int64_t stages = 0, ci = 0;
    tl_value_t *s = arg(c, -1, "num_stages"), *x = arg(c, -1, "cross_interval");
    if (s && !tl_value_to_int(ev, s, aloc(c, -1, "num_stages"), "num_stages", &stages)) return NULL;
    if (x && !tl_value_to_int(ev, x, aloc(c, -1, "cross_interval"), "cross_interval", &ci)) return NULL;
    if (stages < 0 || stages > 8) return tl_eval_fail(ev, aloc(c, -1, "num_stages"), "num_stages must be in 0..8");
    if (ci < 0) return tl_eval_fail(ev, aloc(c, -1, "cross_interval"), "cross_interval must be positive");
    r->range.num_stages = (int)stages;
    r->range.cross_interval = (int)ci;
    if (stages == 0) r->range.loop = TL_LOOP_SERIAL; // upstream: no pipelining
    return r;
}

// T.Persistent(domain, wave_size, index, group_size=8): each block walks the
// tiles index, index + wave, ... of the domain (traced in trace.c).
static tl_value_t *t_persistent(tl_eval_t *ev, tl_call_t *c)
{
    static const char *kws[] = {"domain", "wave_size", "index", "group_size", NULL};
    if (!tl_call_check(ev, c, "T.Persistent", 3, 4, kws)) return NULL;
    tl_value_t *dom = tl_call_arg(c, 0, "domain");
    int n;
    tl_value_t **items = dom ? tl_value_items(ev, dom, aloc(c, 0, "domain"), "the T.Persistent domain", &n) : NULL;
    if (!items) return NULL;
    if (n < 1 || n > TL_MAX_DIMS) return tl_eval_fail(ev, aloc(c, 0, "domain"), "T.Persistent needs 1 to %d extents", TL_MAX_DIMS);
    tl_value_t *r = tl_value_new(ev->arena, TL_V_RANGE);
    r->range.loop = TL_LOOP_SERIAL;
    r->range.ndim = n;
    for (int i = 0; i < n; i++) r->range.extents[i] = items[i];
    r->range.wave = tl_call_arg(c, 1, "wave_size");
    r->range.index = tl_call_arg(c, 2, "index");
    r->range.group = tl_call_arg(c, 3, "group_size");
    if (!r->range.group) r->range.group = tl_value_int(ev->arena, 8);
    if (!r->range.wave || !r->range.index) return tl_eval_fail(ev, c->loc, "T.Persistent needs wave_size and index");
    r->range.start = tl_value_int(ev->arena, 0);
    r->range.stop = items[0];
    return r;
}

// --- synchronisation ----------------------------------------------------------------------------

static bool pipe_arg(tl_eval_t *ev, tl_call_t *c, int pos, const char *kw, tl_pipe_t *out)
{
    tl_value_t *v = arg(c, pos, kw);
    if (!v) {
        tl_eval_fail(ev, c->loc, "missing pipe argument '%s'", kw);
        return false;
    }
    const char *s = tl_value_to_cstr(ev, v, aloc(c, pos, kw), "a pipe name");
    if (!s) return false;
    if (!tl_pipe_parse(s, out) || *out == TL_PIPE_NONE) {
        tl_eval_fail(ev, aloc(c, pos, kw), "unknown pipe \"%s\" (expected mte1, mte2, mte3, m, v, fix, s)", s);
        return false;
    }
    return true;
}

static tl_value_t *emit_sync(tl_eval_t *ev, tl_call_t *c, tl_sync_kind_t kind, tl_pipe_t src,
                             tl_pipe_t dst, tl_value_t *id, tl_loc_t id_loc, int mode)
{
    tl_kernel_t *k = ev->kernel;
    tl_stmt_t *s = tl_ir_stmt(k, TL_ST_SYNC, c->loc);
    s->sync.kind = kind;
    s->sync.src = src;
    s->sync.dst = dst;
    s->sync.mode = mode;
    if (id) {
        bool cross = kind == TL_SYNC_SET_CROSS || kind == TL_SYNC_WAIT_CROSS;
        if (!tl_value_is_exprlike(id))
            return tl_eval_fail(ev, id_loc, "T.%s: the %s must be an integer, got %s", tl_sync_name(kind),
                                cross ? "cross-core flag id" : "event id", tl_value_type_name(id));
        s->sync.id = tl_value_to_expr(ev, id, id_loc, TL_I32);
        if (!s->sync.id) return NULL;
        if (tl_dtype_is_float(s->sync.id->dtype))
            return tl_eval_fail(ev, id_loc, "T.%s: the %s must be an integer, got a %s expression",
                                tl_sync_name(kind), cross ? "cross-core flag id" : "event id",
                                tl_dtype_name(s->sync.id->dtype));
        // An event id past 7 compiles (upstream kernels that run use 9, 10): the
        // hardware keeps its low 3 bits, which tilec sim models and warns about.
        int64_t v;
        if (tl_ir_is_const_int(s->sync.id, &v)) {
            int max = cross ? 15 : 7;
            if (v < 0 || (cross && v > max))
                return tl_eval_fail(ev, id_loc, "T.%s: %s %lld is out of range (the hardware has %s 0..%d)",
                                    tl_sync_name(kind), cross ? "cross-core flag id" : "event id", (long long)v,
                                    cross ? "cross-core flags" : "event ids", max);
        }
    }
    tl_trace_emit(ev, s);
    return tl_value_none();
}

// npuir's T.rs(pipe): `with T.rs("PIPE_MTE2"):` names the pipe its set_flag / wait_flag /
// sync_block_set / sync_block_wait belong to (customize_npuir.py ResourceSpecialize).
static tl_value_t *t_rs(tl_eval_t *ev, tl_call_t *c)
{
    static const char *kws[] = {"resource", NULL};
    if (!tl_call_check(ev, c, "T.rs", 1, 1, kws) || !tl_front_npuir_require(ev, c->loc, "T.rs")) return NULL;
    tl_pipe_t p;
    if (!pipe_arg(ev, c, 0, "resource", &p)) return NULL;
    if (p == TL_PIPE_ALL) return tl_eval_fail(ev, aloc(c, 0, "resource"), "T.rs names one pipe, not PIPE_ALL");
    tl_value_t *f = frame(ev, TL_FRAME_RS);
    f->frame.pipe = p;
    return f;
}

// The pipe of the enclosing T.rs for an npuir sync; TL_PIPE_NONE after an error.
static tl_pipe_t rs_pipe(tl_eval_t *ev, tl_call_t *c, const char *fname)
{
    if (ev->rs_pipe == TL_PIPE_NONE)
        tl_eval_fail(ev, c->loc, "%s in an npuir kernel belongs to a pipe: write it inside `with T.rs(\"PIPE_...\"):`",
                     fname);
    return ev->rs_pipe;
}

// npuir's set_flag(other, event_id) / wait_flag(other, event_id) inside T.rs(pipe):
// pipe -> other / other -> pipe.
static tl_value_t *npuir_flag(tl_eval_t *ev, tl_call_t *c, tl_sync_kind_t kind)
{
    static const char *kws[] = {"other", "event_id", NULL};
    const char *fname = kind == TL_SYNC_SET_FLAG ? "T.set_flag" : "T.wait_flag";
    if (!tl_call_check(ev, c, fname, 1, 2, kws) || !tl_trace_require(ev, c->loc, fname)) return NULL;
    tl_pipe_t me = rs_pipe(ev, c, fname), other;
    if (me == TL_PIPE_NONE || !pipe_arg(ev, c, 0, "other", &other)) return NULL;
    tl_value_t *id = arg(c, 1, "event_id");
    if (!id) id = tl_value_int(ev->arena, 0);
    bool set = kind == TL_SYNC_SET_FLAG;
    return emit_sync(ev, c, kind, set ? me : other, set ? other : me, id, aloc(c, 1, "event_id"), 0);
}

// npuir's sync_block_set(id) / sync_block_wait(id) inside T.rs(pipe): the cube / vector
// cores' flag of the block (mode 2), set by that pipe.
static tl_value_t *t_sync_block(tl_eval_t *ev, tl_call_t *c, bool set)
{
    static const char *kws[] = {"id", NULL};
    const char *fname = set ? "T.sync_block_set" : "T.sync_block_wait";
    if (!tl_call_check(ev, c, fname, 1, 1, kws) || !tl_front_npuir_require(ev, c->loc, fname) ||
        !tl_trace_require(ev, c->loc, fname))
        return NULL;
    tl_pipe_t me = rs_pipe(ev, c, fname);
    if (me == TL_PIPE_NONE) return NULL;
    return emit_sync(ev, c, set ? TL_SYNC_SET_CROSS : TL_SYNC_WAIT_CROSS, set ? me : TL_PIPE_NONE, TL_PIPE_NONE,
                     arg(c, 0, "id"), aloc(c, 0, "id"), set ? 2 : 0);
}

static tl_value_t *t_sync_block_set(tl_eval_t *ev, tl_call_t *c)
{
    return t_sync_block(ev, c, true);
}

static tl_value_t *t_sync_block_wait(tl_eval_t *ev, tl_call_t *c)
{
    return t_sync_block(ev, c, false);
}

static tl_value_t *flag(tl_eval_t *ev, tl_call_t *c, tl_sync_kind_t kind)
{
    static const char *kws[] = {"src", "dst", "event_id", NULL};
    if (tl_front_npuir(ev)) return npuir_flag(ev, c, kind);
    const char *fname = tl_sync_name(kind);
    if (!tl_call_check(ev, c, fname, 3, 3, kws) || !tl_trace_require(ev, c->loc, fname)) return NULL;
    tl_pipe_t src, dst;
    if (!pipe_arg(ev, c, 0, "src", &src) || !pipe_arg(ev, c, 1, "dst", &dst)) return NULL;
    if (src == TL_PIPE_ALL || dst == TL_PIPE_ALL)
        return tl_eval_fail(ev, src == TL_PIPE_ALL ? aloc(c, 0, "src") : aloc(c, 1, "dst"),
                            "T.%s cannot use PIPE_ALL (name the two pipes it orders)", fname);
    tl_value_t *id = arg(c, 2, "event_id");
    return emit_sync(ev, c, kind, src, dst, id, aloc(c, 2, "event_id"), 0);
}

static tl_value_t *t_set_flag(tl_eval_t *ev, tl_call_t *c)
{
    return flag(ev, c, TL_SYNC_SET_FLAG);
}

static tl_value_t *t_wait_flag(tl_eval_t *ev, tl_call_t *c)
{
    return flag(ev, c, TL_SYNC_WAIT_FLAG);
}

static tl_value_t *t_pipe_barrier(tl_eval_t *ev, tl_call_t *c)
{
    static const char *kws[] = {"pipe", NULL};
    if (!tl_call_check(ev, c, "T.pipe_barrier", 1, 1, kws) || !tl_trace_require(ev, c->loc, "T.pipe_barrier"))
        return NULL;
    tl_pipe_t p;
    if (!pipe_arg(ev, c, 0, "pipe", &p)) return NULL;
    if (p == TL_PIPE_S)
        return tl_eval_fail(ev, aloc(c, 0, "pipe"),
                            "T.pipe_barrier(\"s\") is not supported by the hardware (the scalar pipe is ordered)");
    return emit_sync(ev, c, p == TL_PIPE_ALL ? TL_SYNC_BARRIER_ALL : TL_SYNC_PIPE_BARRIER, p, p, NULL, c->loc, 0);
}

static tl_value_t *t_barrier_all(tl_eval_t *ev, tl_call_t *c)
{
    if (!tl_call_check(ev, c, "T.barrier_all", 0, 0, NULL) || !tl_trace_require(ev, c->loc, "T.barrier_all"))
        return NULL;
    return emit_sync(ev, c, TL_SYNC_BARRIER_ALL, TL_PIPE_ALL, TL_PIPE_ALL, NULL, c->loc, 0);
}

static tl_value_t *t_sync_all(tl_eval_t *ev, tl_call_t *c)
{
    if (!tl_trace_require(ev, c->loc, "T.sync_all")) return NULL;
    return emit_sync(ev, c, TL_SYNC_ALL, TL_PIPE_ALL, TL_PIPE_ALL, NULL, c->loc, 0);
}

static tl_value_t *t_set_cross_flag(tl_eval_t *ev, tl_call_t *c)
{
    static const char *kws[] = {"pipe", "flag", "mode", NULL};
    if (!tl_call_check(ev, c, "T.set_cross_flag", 2, 3, kws) || !tl_trace_require(ev, c->loc, "T.set_cross_flag"))
        return NULL;
    tl_pipe_t p;
    if (!pipe_arg(ev, c, 0, "pipe", &p)) return NULL;
    if (p == TL_PIPE_S || p == TL_PIPE_ALL)
        return tl_eval_fail(ev, aloc(c, 0, "pipe"), "T.set_cross_flag needs a hardware pipe (v, m, mte1, mte2, mte3, fix)");
    int64_t mode = 2;
    tl_value_t *m = arg(c, 2, "mode");
    if (m && !tl_value_to_int(ev, m, aloc(c, 2, "mode"), "mode", &mode)) return NULL;
    if (mode < 0 || mode > 2) return tl_eval_fail(ev, aloc(c, 2, "mode"), "cross-core flag mode must be 0, 1 or 2");
    return emit_sync(ev, c, TL_SYNC_SET_CROSS, p, TL_PIPE_NONE, arg(c, 1, "flag"), aloc(c, 1, "flag"), (int)mode);
}

static tl_value_t *t_wait_cross_flag(tl_eval_t *ev, tl_call_t *c)
{
    static const char *kws[] = {"flag", "pipe", NULL};
    if (!tl_call_check(ev, c, "T.wait_cross_flag", 1, 2, kws) || !tl_trace_require(ev, c->loc, "T.wait_cross_flag"))
        return NULL;
    return emit_sync(ev, c, TL_SYNC_WAIT_CROSS, TL_PIPE_NONE, TL_PIPE_NONE, arg(c, 0, "flag"), aloc(c, 0, "flag"), 0);
}

// --- decorators, annotations, debug --------------------------------------------------------------

static tl_value_t *t_prim_func(tl_eval_t *ev, tl_call_t *c)
{
    tl_value_t *f = arg(c, 0, NULL);
    if (!f || f->kind != TL_V_FUNC) return tl_eval_fail(ev, c->loc, "@T.prim_func decorates a function");
    if (ev->deferring && !ev->jit) {
        // A module-level prim_func: traced when the kernel is selected.
        tl_value_t *v = tl_value_new(ev->arena, TL_V_KERNEL);
        v->kernel.pending = f;
        return v;
    }
    return tl_front_trace(ev, f, c->loc);
}

static tl_value_t *t_macro(tl_eval_t *ev, tl_call_t *c)
{
    tl_value_t *f = arg(c, 0, NULL);
    if (!f || f->kind != TL_V_FUNC) {
        // @T.macro(hygienic=...) form: return a decorator that marks the function.
        return tl_value_builtin(ev->arena, "T.macro", t_macro, NULL);
    }
    f->func.is_macro = true;
    return f;
}

static tl_value_t *t_noop(tl_eval_t *ev, tl_call_t *c)
{
    (void)ev, (void)c;
    return tl_value_none();
}

static tl_value_t *t_passthrough(tl_eval_t *ev, tl_call_t *c)
{
    tl_value_t *v = arg(c, 0, NULL);
    return v ? v : tl_eval_fail(ev, c->loc, "expected an argument");
}

static tl_value_t *t_annotate_address(tl_eval_t *ev, tl_call_t *c)
{
    if (!tl_trace_require(ev, c->loc, "T.annotate_address")) return NULL;
    tl_value_t *d = arg(c, 0, NULL);
    tl_loc_t dl = aloc(c, 0, NULL);
    if (!d || d->kind != TL_V_DICT)
        return tl_eval_fail(ev, dl, "T.annotate_address takes a dict {buffer: byte_address}, got %s",
                            d ? tl_value_type_name(d) : "nothing");
    for (int i = 0; i < d->dict.n; i++) {
        tl_value_t *b = d->dict.keys[i];
        if (b->kind != TL_V_BUFFER || b->buffer->scope == TL_SCOPE_GM || b->buffer->scope == TL_SCOPE_VAR)
            return tl_eval_fail(ev, dl, "T.annotate_address keys must be on-chip buffers, got %s",
                                b->kind == TL_V_BUFFER ? b->buffer->name : tl_value_type_name(b));
        int64_t a;
        if (!tl_value_to_int(ev, d->dict.values[i], dl, "a buffer address", &a)) return NULL;
        if (a < 0 || a % 32)
            return tl_eval_fail(ev, dl, "address %lld of '%s' must be a non-negative multiple of 32 bytes",
                                (long long)a, b->buffer->name);
        b->buffer->addr = a;
        b->buffer->addr_pinned = true;
    }
    return tl_value_none();
}

static tl_value_t *t_printf(tl_eval_t *ev, tl_call_t *c)
{
    if (!tl_trace_require(ev, c->loc, "T.printf")) return NULL;
    tl_value_t *f = arg(c, 0, NULL);
    const char *fmt = f ? tl_value_to_cstr(ev, f, c->loc, "the format") : NULL;
    if (!fmt) return NULL;
    tl_stmt_t *s = tl_ir_stmt(ev->kernel, TL_ST_PRINT, c->loc);
    s->print.fmt = fmt;
    s->print.n = c->nargs - 1;
    s->print.args = tl_arena_alloc(ev->arena, sizeof(tl_expr_t *) * (size_t)(c->nargs > 1 ? c->nargs - 1 : 1));
    for (int i = 1; i < c->nargs; i++)
        if (!(s->print.args[i - 1] = tl_value_to_expr(ev, c->args[i], aloc(c, i, NULL), -1))) return NULL;
    tl_trace_emit(ev, s);
    return tl_value_none();
}

static tl_value_t *t_dump_tensor(tl_eval_t *ev, tl_call_t *c)
{
    if (!tl_trace_require(ev, c->loc, "T.dump_tensor")) return NULL;
    tl_value_t *b = arg(c, 0, "tensor");
    tl_region_t *r = b ? tl_value_to_region(ev, b, c->loc, "T.dump_tensor's tensor") : NULL;
    if (!r) return NULL;
    tl_stmt_t *s = tl_ir_stmt(ev->kernel, TL_ST_PRINT, c->loc);
    tl_value_t *desc = arg(c, 1, "desc");
    if (desc) {
        tl_buf_t t;
        tl_buf_init(&t);
        tl_value_str_of(&t, desc);
        s->print.fmt = tl_arena_strdup(ev->arena, tl_buf_cstr(&t));
        tl_buf_free(&t);
    }
    s->print.region = r;
    tl_trace_emit(ev, s);
    return tl_value_none();
}

static tl_value_t *t_removed(tl_eval_t *ev, tl_call_t *c)
{
    tl_value_t *self = c->self;
    return tl_eval_fail(ev, c->loc, "%s", self && self->kind == TL_V_STR ? self->str.s : "not supported");
}

// T.call_extern(dtype, "AscendC::Foo<...>", args...): a call of a device C++ function
// by name. tilec executes and simulates each op from its own model of it, and has no
// model of an arbitrary function of the device toolchain; upstream's copy_ub_to_ub
// helper is modelled (tapi_extern.c).
static tl_value_t *t_call_extern(tl_eval_t *ev, tl_call_t *c)
{
    tl_value_t *fn = tl_call_arg(c, 1, NULL);
    const char *name = fn && fn->kind == TL_V_STR ? fn->str.s : "a device function";
    if (!strncmp(name, "tl::ascend::copy_ub_to_ub<", 26)) return tl_front_extern_copy_ub(ev, c, name);
    return tl_eval_fail(
        ev, fn ? aloc(c, 1, NULL) : c->loc,
        "T.call_extern(..., \"%s\", ...) calls a device C++ function by name; tilec cannot run or "
        "simulate it (it models each T.* op, not the functions of the Ascend toolchain): "
        "write the operation with T.* ops",
        name);
}


static void removed(tl_eval_t *ev, tl_value_t *m, const char *name, const char *why)
{
    tl_value_module_set(ev->arena, m, name,
                        tl_value_builtin(ev->arena, name, t_removed, tl_value_str(ev->arena, why)));
}

void tl_front_install_lang(tl_eval_t *ev)
{
    tl_value_t *T = tl_value_module(ev->arena, "T");
    for (int t = 0; t < TL_DTYPE_COUNT; t++)
        tl_value_module_set(ev->arena, T, tl_dtype_name((tl_dtype_t)t), tl_value_dtype(ev->arena, (tl_dtype_t)t));
    tl_value_module_set(ev->arena, T, "float8_e4m3", tl_value_dtype(ev->arena, TL_F8E4M3));
    tl_value_module_set(ev->arena, T, "float", tl_value_dtype(ev->arena, TL_F32));
    tl_value_module_set(ev->arena, T, "half", tl_value_dtype(ev->arena, TL_F16));
    tl_front_def(ev, T, "Tensor", t_tensor);
    tl_front_def(ev, T, "Buffer", t_tensor);
    tl_front_def(ev, T, "symbolic", t_symbolic);
    tl_front_def(ev, T, "dynamic", t_symbolic);
    tl_front_def(ev, T, "ceildiv", t_ceildiv);
    tl_front_def(ev, T, "floordiv", t_floordiv);
    tl_front_def(ev, T, "floormod", t_floormod);
    tl_front_def(ev, T, "truncdiv", t_truncdiv);
    tl_front_def(ev, T, "truncmod", t_truncmod);
    tl_front_def(ev, T, "max", t_max);
    tl_front_def(ev, T, "min", t_min);
    tl_front_def(ev, T, "And", t_and);
    tl_front_def(ev, T, "Or", t_or);
    tl_front_def(ev, T, "Not", t_not);
    tl_front_def(ev, T, "exp", t_exp);
    tl_front_def(ev, T, "log", t_log);
    tl_front_def(ev, T, "sqrt", t_sqrt);
    tl_front_def(ev, T, "rsqrt", t_rsqrt);
    tl_front_def(ev, T, "abs", t_abs);
    tl_front_def(ev, T, "sigmoid", t_sigmoid);
    tl_front_def(ev, T, "tanh", t_tanh);
    tl_front_def(ev, T, "floor", t_floor);
    tl_front_def(ev, T, "ceil", t_ceil);
    tl_front_def(ev, T, "round", t_round);
    tl_front_def(ev, T, "trunc", t_trunc);
    tl_front_def(ev, T, "sin", t_sin);
    tl_front_def(ev, T, "cos", t_cos);
    tl_front_def(ev, T, "pow", t_pow);
    tl_front_def(ev, T, "infinity", t_infinity);
    tl_front_def(ev, T, "Cast", t_Cast);
    tl_front_def(ev, T, "cast", t_cast);
    tl_front_def(ev, T, "reinterpret", t_reinterpret);
    tl_front_def(ev, T, "if_then_else", t_if_then_else);
    tl_front_def(ev, T, "Select", t_if_then_else);
    tl_front_def(ev, T, "alloc_L1", t_alloc_L1);
    tl_front_def(ev, T, "alloc_L0A", t_alloc_L0A);
    tl_front_def(ev, T, "alloc_L0B", t_alloc_L0B);
    tl_front_def(ev, T, "alloc_L0C", t_alloc_L0C);
    tl_front_def(ev, T, "alloc_ub", t_alloc_ub);
    tl_front_def(ev, T, "alloc_shared", t_alloc_shared);
    tl_front_def(ev, T, "alloc_fragment", t_alloc_fragment);
    tl_front_def(ev, T, "alloc_var", t_alloc_var);
    tl_front_def(ev, T, "Kernel", t_kernel);
    tl_front_def(ev, T, "Scope", t_scope);
    tl_front_def(ev, T, "If", t_if);
    tl_front_def(ev, T, "Then", t_then);
    tl_front_def(ev, T, "Else", t_else);
    tl_front_def(ev, T, "serial", t_serial);
    tl_front_def(ev, T, "vectorized", t_serial);
    tl_front_def(ev, T, "unroll", t_unroll);
    tl_front_def(ev, T, "Parallel", t_parallel);
    tl_front_def(ev, T, "Pipelined", t_pipelined);
    tl_front_def(ev, T, "set_flag", t_set_flag);
    tl_front_def(ev, T, "wait_flag", t_wait_flag);
    tl_front_def(ev, T, "pipe_barrier", t_pipe_barrier);
    tl_front_def(ev, T, "barrier_all", t_barrier_all);
    tl_front_def(ev, T, "sync_all", t_sync_all);
    tl_front_def(ev, T, "set_cross_flag", t_set_cross_flag);
    tl_front_def(ev, T, "rs", t_rs);
    tl_front_def(ev, T, "ResourceSpecialize", t_rs);
    tl_front_def(ev, T, "sync_block_set", t_sync_block_set);
    tl_front_def(ev, T, "sync_block_wait", t_sync_block_wait);
    tl_front_def(ev, T, "wait_cross_flag", t_wait_cross_flag);
    tl_front_def(ev, T, "prim_func", t_prim_func);
    tl_front_def(ev, T, "macro", t_macro);
    tl_front_def(ev, T, "annotate_address", t_annotate_address);
    tl_front_def(ev, T, "annotate_layout", t_noop); // layouts only change physical offsets
    tl_front_def(ev, T, "func_attr", t_noop);
    tl_front_def(ev, T, "use_swizzle", t_passthrough); // a block-order permutation: same results
    tl_front_def(ev, T, "printf", t_printf);
    tl_front_def(ev, T, "dump_tensor", t_dump_tensor);
    tl_front_def(ev, T, "call_extern", t_call_extern);
    removed(ev, T, "alloc_local", "T.alloc_local was removed from TileLang-Ascend; use T.alloc_var or T.alloc_ub");
    tl_front_install_npuir(ev, T); // T.fill / T.clear: npuir's, else not Ascend's
    tl_front_def(ev, T, "Persistent", t_persistent);
    tl_value_t *tile = tl_value_module(ev->arena, "T.tile");
    tl_value_module_set(ev->arena, T, "tile", tile);
    // Upstream APIs without a tilec implementation (rarely used; §1.6 of the
    // surface notes): named, so that a use is not taken for a typo.
    static const char *missing_t[] = {"shmem_put_nbi", "shmem_get_nbi", "shmem_ub_put_nbi", "shmem_ub_get_nbi",
                                      "init_flag", "clear_flag",
                                      "grid", "thread_binding"};
    static const char *missing_tile[] = {"brcb",
                                         "sub_experiment",
                                         "abs_experiment",
                                         "mins_experiment",
                                         "sum_experiment",
                                         "gathermask_experiment",
                                         "datacachecleanandinvalid_experiment"};
    for (size_t i = 0; i < TL_ARRAY_LEN(missing_t); i++)
        removed(ev, T, missing_t[i],
                tl_arena_printf(ev->arena, "T.%s is a TileLang-Ascend API tilec does not implement", missing_t[i]));
    for (size_t i = 0; i < TL_ARRAY_LEN(missing_tile); i++)
        removed(ev, tile, missing_tile[i],
                tl_arena_printf(ev->arena, "T.tile.%s is a TileLang-Ascend op tilec does not implement",
                                missing_tile[i]));
    // The op table last: an op added to ir/ops.h replaces its entry above.
    tl_front_install_tile_ops(ev, T, tile);
    tl_front_install_npuir_names(ev, T);
    ev->lang = T;
}
