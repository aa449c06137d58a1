// Python operators on compile-time values. Two Python numbers fold with Python
// semantics (int64 with overflow errors, floor division and modulo, `/` gives a
// float); strings, tuples and lists support + and *; comparisons and membership
// work on numbers, strings and sequences. As soon as one operand is IR, both
// become IR expressions and the result is IR: there `/` and `//` on integers
// become C truncating division and `%` C remainder (DESIGN.md §2).
#include "front/eval.h"

#include <math.h>
#include <string.h>

static const char *op_text(int op)
{
    switch (op) {
    case TL_PYOP_TRUEDIV: return "/";
    case TL_PYOP_FLOORDIV: return "//";
    case TL_PYOP_MATMUL: return "@";
    case TL_PYOP_IS: return "is";
    case TL_PYOP_IS_NOT: return "is not";
    case TL_PYOP_IN: return "in";
    case TL_PYOP_NOT_IN: return "not in";
    case TL_BIN_POW: return "**";
    default: return tl_binop_text((tl_binop_t)op);
    }
}

static tl_value_t *type_error(tl_eval_t *ev, int op, tl_value_t *a, tl_value_t *b, tl_loc_t loc)
{
    // A value of code tilec does not run in kernel arithmetic: say that (and which
    // -a gives it), not that the types do not mix.
    if (a->kind == TL_V_OPAQUE || b->kind == TL_V_OPAQUE) {
        tl_value_to_expr(ev, a->kind == TL_V_OPAQUE ? a : b, loc, -1);
        if (ev->diag->nerrors) return NULL;
    }
    return tl_eval_fail(ev, loc, "unsupported operand types for %s: '%s' and '%s'", op_text(op),
                        tl_value_type_name(a), tl_value_type_name(b));
}

static int64_t as_int(const tl_value_t *v)
{
    return v->kind == TL_V_BOOL ? v->b : v->i;
}

static bool is_intlike(const tl_value_t *v)
{
    return v->kind == TL_V_INT || v->kind == TL_V_BOOL;
}

static tl_value_t *overflow(tl_eval_t *ev, tl_loc_t loc)
{
    return tl_eval_fail(ev, loc,
                        "integer overflow at compile time (tilec keeps Python ints in 128 bits)");
}

// Python's ints are unbounded; tilec computes int arithmetic in 128 bits, so
// an intermediate past int64 such as the 1 << 63 of (1 << 63) - 1 (int64 max,
// a lightning-indexer default) is a TL_V_WIDE value that only int arithmetic
// and comparisons accept; a result back in range is an int again.
typedef __int128 wide_t;

#define WIDE_MAX ((wide_t)(((unsigned __int128)1 << 127) - 1))
#define WIDE_MIN (-WIDE_MAX - 1)

static bool is_intish(const tl_value_t *v)
{
    return is_intlike(v) || v->kind == TL_V_WIDE;
}

static wide_t as_wide(const tl_value_t *v)
{
    if (v->kind != TL_V_WIDE) return as_int(v);
    return (wide_t)(((unsigned __int128)(uint64_t)v->wide.hi << 64) | v->wide.lo);
}

static tl_value_t *wide_value(tl_eval_t *ev, wide_t r)
{
    if (r >= INT64_MIN && r <= INT64_MAX) return tl_value_int(ev->arena, (int64_t)r);
    tl_value_t *v = tl_value_new(ev->arena, TL_V_WIDE);
    v->wide.hi = (int64_t)(r >> 64);
    v->wide.lo = (uint64_t)r;
    return v;
}

static wide_t floordiv_wide(wide_t a, wide_t b)
{
    wide_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

static tl_value_t *int_pow(tl_eval_t *ev, wide_t base, wide_t e, tl_loc_t loc)
{
    if (e < 0) return tl_value_float(ev->arena, pow((double)base, (double)e));
    wide_t r = 1;
    while (e-- > 0)
        if (__builtin_mul_overflow(r, base, &r)) return overflow(ev, loc);
    return wide_value(ev, r);
}

static tl_value_t *int_op(tl_eval_t *ev, int op, wide_t a, wide_t b, tl_loc_t loc)
{
    tl_arena_t *ar = ev->arena;
    wide_t r;
    switch (op) {
    case TL_BIN_ADD:
        if (__builtin_add_overflow(a, b, &r)) return overflow(ev, loc);
        return wide_value(ev, r);
    case TL_BIN_SUB:
        if (__builtin_sub_overflow(a, b, &r)) return overflow(ev, loc);
        return wide_value(ev, r);
    case TL_BIN_MUL:
        if (__builtin_mul_overflow(a, b, &r)) return overflow(ev, loc);
        return wide_value(ev, r);
    case TL_PYOP_TRUEDIV:
        if (b == 0) return tl_eval_fail(ev, loc, "division by zero");
        return tl_value_float(ar, (double)a / (double)b);
    case TL_PYOP_FLOORDIV:
    case TL_BIN_MOD:
        if (b == 0) return tl_eval_fail(ev, loc, "integer division or modulo by zero");
        if (a == WIDE_MIN && b == -1) return overflow(ev, loc);
        r = floordiv_wide(a, b);
        return wide_value(ev, op == TL_BIN_MOD ? a - r * b : r);
    case TL_BIN_POW: return int_pow(ev, a, b, loc);
    case TL_BIN_AND: return wide_value(ev, a & b);
    case TL_BIN_OR: return wide_value(ev, a | b);
    case TL_BIN_XOR: return wide_value(ev, a ^ b);
    case TL_BIN_SHL:
        if (b < 0) return tl_eval_fail(ev, loc, "negative shift count");
        if (b > 126 || __builtin_mul_overflow(a, (wide_t)1 << b, &r)) return overflow(ev, loc);
        return wide_value(ev, r);
    case TL_BIN_SHR:
        if (b < 0) return tl_eval_fail(ev, loc, "negative shift count");
        return wide_value(ev, b > 127 ? (a < 0 ? -1 : 0) : a >> b);
    case TL_BIN_EQ: return tl_value_bool(a == b);
    case TL_BIN_NE: return tl_value_bool(a != b);
    case TL_BIN_LT: return tl_value_bool(a < b);
    case TL_BIN_LE: return tl_value_bool(a <= b);
    case TL_BIN_GT: return tl_value_bool(a > b);
    case TL_BIN_GE: return tl_value_bool(a >= b);
    default: return NULL;
    }
}

static tl_value_t *float_op(tl_eval_t *ev, int op, double a, double b, tl_loc_t loc)
{
    tl_arena_t *ar = ev->arena;
    switch (op) {
    case TL_BIN_ADD: return tl_value_float(ar, a + b);
    case TL_BIN_SUB: return tl_value_float(ar, a - b);
    case TL_BIN_MUL: return tl_value_float(ar, a * b);
    case TL_PYOP_TRUEDIV:
        if (b == 0) return tl_eval_fail(ev, loc, "float division by zero");
        return tl_value_float(ar, a / b);
    case TL_PYOP_FLOORDIV:
        if (b == 0) return tl_eval_fail(ev, loc, "float floor division by zero");
        return tl_value_float(ar, floor(a / b));
    case TL_BIN_MOD: {
        if (b == 0) return tl_eval_fail(ev, loc, "float modulo by zero");
        double m = fmod(a, b);
        if (m != 0 && ((m < 0) != (b < 0))) m += b;
        return tl_value_float(ar, m);
    }
    case TL_BIN_POW: return tl_value_float(ar, pow(a, b));
    case TL_BIN_EQ: return tl_value_bool(a == b);
    case TL_BIN_NE: return tl_value_bool(a != b);
    case TL_BIN_LT: return tl_value_bool(a < b);
    case TL_BIN_LE: return tl_value_bool(a <= b);
    case TL_BIN_GT: return tl_value_bool(a > b);
    case TL_BIN_GE: return tl_value_bool(a >= b);
    default: return NULL;
    }
}

// Lexicographic comparison of strings or sequences: <0, 0, >0; *ok false when
// elements are not comparable.
static int compare_values(const tl_value_t *a, const tl_value_t *b, bool *ok)
{
    if (tl_value_is_number(a) && tl_value_is_number(b)) {
        double x = tl_value_as_double(a), y = tl_value_as_double(b);
        if (is_intlike(a) && is_intlike(b)) return (as_int(a) > as_int(b)) - (as_int(a) < as_int(b));
        return (x > y) - (x < y);
    }
    if (a->kind == TL_V_STR && b->kind == TL_V_STR) {
        size_t n = TL_MIN(a->str.len, b->str.len);
        int c = memcmp(a->str.s, b->str.s, n);
        if (c) return c;
        return (a->str.len > b->str.len) - (a->str.len < b->str.len);
    }
    if ((a->kind == TL_V_TUPLE || a->kind == TL_V_LIST) && a->kind == b->kind) {
        for (int i = 0; i < a->seq.n && i < b->seq.n; i++) {
            if (tl_value_equal(a->seq.items[i], b->seq.items[i])) continue;
            return compare_values(a->seq.items[i], b->seq.items[i], ok);
        }
        return (a->seq.n > b->seq.n) - (a->seq.n < b->seq.n);
    }
    *ok = false;
    return 0;
}

// A T.alloc_var scalar used as a value is a load of it (TileLang's parser rule).
static tl_value_t *scalar_of(tl_eval_t *ev, tl_value_t *v, tl_loc_t loc)
{
    if (v->kind != TL_V_BUFFER || v->buffer->scope != TL_SCOPE_VAR) return v;
    tl_expr_t *e = tl_value_to_expr(ev, v, loc, -1);
    return e ? tl_value_expr(ev->arena, e) : v;
}

static bool is_ir(const tl_value_t *v)
{
    return v->kind == TL_V_EXPR;
}

static tl_value_t *concat(tl_eval_t *ev, tl_value_t *a, tl_value_t *b)
{
    if (a->kind == TL_V_STR) {
        char *s = tl_arena_alloc(ev->arena, a->str.len + b->str.len + 1);
        memcpy(s, a->str.s, a->str.len);
        memcpy(s + a->str.len, b->str.s, b->str.len);
        return tl_value_strn(ev->arena, s, a->str.len + b->str.len);
    }
    int n = a->seq.n + b->seq.n;
    tl_value_t **items = tl_arena_alloc(ev->arena, sizeof *items * (size_t)(n ? n : 1));
    if (a->seq.n) memcpy(items, a->seq.items, sizeof *items * (size_t)a->seq.n);
    if (b->seq.n) memcpy(items + a->seq.n, b->seq.items, sizeof *items * (size_t)b->seq.n);
    return a->kind == TL_V_TUPLE ? tl_value_tuple(ev->arena, n, items)
                                 : tl_value_list(ev->arena, n, items);
}

static tl_value_t *repeat(tl_eval_t *ev, tl_value_t *s, int64_t times, tl_loc_t loc)
{
    if (times < 0 || (s->kind == TL_V_STR ? s->str.len == 0 : s->seq.n == 0)) times = 0;
    if (s->kind == TL_V_STR) {
        if (times && s->str.len > (size_t)(1 << 24) / (size_t)times)
            return tl_eval_fail(ev, loc, "string repetition too large");
        size_t n = s->str.len * (size_t)times;
        char *p = tl_arena_alloc(ev->arena, n + 1);
        for (int64_t i = 0; i < times; i++) memcpy(p + (size_t)i * s->str.len, s->str.s, s->str.len);
        return tl_value_strn(ev->arena, p, n);
    }
    if (times && s->seq.n > (1 << 24) / times)
        return tl_eval_fail(ev, loc, "sequence repetition too large");
    int n = s->seq.n * (int)times;
    tl_value_t **items = tl_arena_alloc(ev->arena, sizeof *items * (size_t)(n ? n : 1));
    for (int64_t i = 0; i < times; i++)
        memcpy(items + i * s->seq.n, s->seq.items, sizeof *items * (size_t)s->seq.n);
    return s->kind == TL_V_TUPLE ? tl_value_tuple(ev->arena, n, items)
                                 : tl_value_list(ev->arena, n, items);
}

static bool contains(const tl_value_t *hay, const tl_value_t *needle, bool *ok)
{
    switch (hay->kind) {
    case TL_V_TUPLE:
    case TL_V_LIST:
        for (int i = 0; i < hay->seq.n; i++)
            if (tl_value_equal(hay->seq.items[i], needle)) return true;
        return false;
    case TL_V_DICT: return tl_value_dict_get(hay, needle) != NULL;
    case TL_V_STR:
        if (needle->kind != TL_V_STR) break;
        if (needle->str.len == 0) return true;
        for (size_t i = 0; i + needle->str.len <= hay->str.len; i++)
            if (!memcmp(hay->str.s + i, needle->str.s, needle->str.len)) return true;
        return false;
    case TL_V_MODULE:
        return needle->kind == TL_V_STR && tl_value_module_get(hay, needle->str.s) != NULL;
    default: break;
    }
    *ok = false;
    return false;
}

// Python identity for `is`: None/True/False are singletons, dtypes compare by
// value, other objects by pointer.
static bool same_object(const tl_value_t *a, const tl_value_t *b)
{
    if (a == b) return true;
    if (a->kind != b->kind) return false;
    if (a->kind == TL_V_NONE) return true;
    if (a->kind == TL_V_BOOL) return a->b == b->b;
    if (a->kind == TL_V_DTYPE) return a->dtype == b->dtype;
    return false;
}

// IR operator for a Python operator on expressions.
static tl_value_t *ir_binop(tl_eval_t *ev, int op, tl_value_t *a, tl_value_t *b, tl_loc_t loc)
{
    if (!tl_value_is_exprlike(a) || !tl_value_is_exprlike(b)) return type_error(ev, op, a, b, loc);
    tl_kernel_t *k = tl_eval_ir(ev);
    // A Python number next to a floating expression takes its dtype (as TVM's
    // `x * 0.5` on a float16 x makes a float16 constant).
    int ha = is_ir(b) && tl_dtype_is_float(b->expr->dtype) ? (int)b->expr->dtype : -1;
    int hb = is_ir(a) && tl_dtype_is_float(a->expr->dtype) ? (int)a->expr->dtype : -1;
    tl_expr_t *x = tl_value_to_expr(ev, a, loc, ha), *y = tl_value_to_expr(ev, b, loc, hb);
    if (!x || !y) return NULL;
    tl_binop_t bop;
    switch (op) {
    case TL_PYOP_TRUEDIV:
    case TL_PYOP_FLOORDIV:
        // Integer `/` and `//` both print as C `/` upstream; floats divide.
        if (op == TL_PYOP_FLOORDIV && tl_dtype_is_float(x->dtype) && tl_dtype_is_float(y->dtype)) {
            tl_expr_t *q = tl_ir_bin(k, TL_BIN_DIV, x, y, loc);
            return tl_value_expr(ev->arena, tl_ir_un(k, TL_UN_FLOOR, q, loc));
        }
        bop = TL_BIN_DIV;
        break;
    case TL_PYOP_MATMUL:
    case TL_PYOP_IS:
    case TL_PYOP_IS_NOT:
    case TL_PYOP_IN:
    case TL_PYOP_NOT_IN: return type_error(ev, op, a, b, loc);
    default: bop = (tl_binop_t)op; break;
    }
    if ((bop == TL_BIN_AND || bop == TL_BIN_OR || bop == TL_BIN_XOR || bop == TL_BIN_SHL ||
         bop == TL_BIN_SHR) &&
        (tl_dtype_is_float(x->dtype) || tl_dtype_is_float(y->dtype)))
        return tl_eval_fail(ev, loc, "operator %s needs integer operands, got %s and %s",
                            op_text(op), tl_dtype_name(x->dtype), tl_dtype_name(y->dtype));
    return tl_value_expr(ev->arena, tl_ir_bin(k, bop, x, y, loc));
}

static tl_value_t *binop(tl_eval_t *ev, int op, tl_value_t *a, tl_value_t *b, tl_loc_t loc);

// Arithmetic on a TVM PrimExpr node gives one (eval_tvm.c).
static tl_value_t *keep_node(tl_eval_t *ev, const tl_value_t *a, const tl_value_t *b, tl_value_t *r)
{
    bool scalar = r && (tl_value_is_number(r) || r->kind == TL_V_EXPR);
    return scalar && (a->tvm_node || (b && b->tvm_node)) ? tl_tvm_node(ev, r) : r;
}

tl_value_t *tl_eval_binop(tl_eval_t *ev, int op, tl_value_t *a, tl_value_t *b, tl_loc_t loc)
{
    return keep_node(ev, a, b, binop(ev, op, a, b, loc));
}

static tl_value_t *binop(tl_eval_t *ev, int op, tl_value_t *a, tl_value_t *b, tl_loc_t loc)
{
    a = scalar_of(ev, a, loc);
    b = scalar_of(ev, b, loc);
    if (a->kind == TL_V_ERROR || b->kind == TL_V_ERROR) {
        tl_value_t *e = a->kind == TL_V_ERROR ? a : b;
        return tl_eval_fail(ev, loc, "%s", e->error.message);
    }
    switch (op) {
    case TL_PYOP_IS: return tl_value_bool(same_object(a, b));
    case TL_PYOP_IS_NOT: return tl_value_bool(!same_object(a, b));
    case TL_PYOP_IN:
    case TL_PYOP_NOT_IN: {
        // `"..." in kernel.get_kernel_source()`: a membership test of an unknown
        // value is unknown too (an assert on it holds, as on other driver values).
        if (b->kind == TL_V_OPAQUE) return b;
        bool ok = true, r = contains(b, a, &ok);
        if (!ok)
            return tl_eval_fail(ev, loc, "argument of type '%s' is not iterable for 'in'",
                                tl_value_type_name(b));
        return tl_value_bool(op == TL_PYOP_IN ? r : !r);
    }
    default: break;
    }
    if (is_ir(a) || is_ir(b)) return ir_binop(ev, op, a, b, loc);

    if (is_intish(a) && is_intish(b)) {
        tl_value_t *r = int_op(ev, op, as_wide(a), as_wide(b), loc);
        if (r || ev->diag->nerrors) return r;
        return type_error(ev, op, a, b, loc);
    }
    if (tl_value_is_number(a) && tl_value_is_number(b)) {
        tl_value_t *r;
        if (is_intlike(a) && is_intlike(b)) r = int_op(ev, op, as_int(a), as_int(b), loc);
        else r = float_op(ev, op, tl_value_as_double(a), tl_value_as_double(b), loc);
        if (r || ev->diag->nerrors) return r;
        return type_error(ev, op, a, b, loc);
    }
    if ((op == TL_BIN_EQ || op == TL_BIN_NE) && tl_value_is_attr_path(a) && tl_value_is_attr_path(b) &&
        tl_value_equal(a, b)) // torch.float16 == torch.float16 (unequal names may be aliases)
        return tl_value_bool(op == TL_BIN_EQ);
    if (a->kind == TL_V_OPAQUE || b->kind == TL_V_OPAQUE) {
        // Driver arithmetic on a value of code tilec does not run (torch, numpy...): the
        // result is just as unknown. Only a kernel that needs it reports an error, so a
        // driver function is not abandoned at its first `x.shape[0] * 2`.
        return a->kind == TL_V_OPAQUE ? a : b;
    }
    if (op == TL_BIN_EQ) return tl_value_bool(tl_value_equal(a, b));
    if (op == TL_BIN_NE) return tl_value_bool(!tl_value_equal(a, b));
    bool same_seq = a->kind == b->kind &&
                    (a->kind == TL_V_STR || a->kind == TL_V_TUPLE || a->kind == TL_V_LIST);
    if (op == TL_BIN_ADD && same_seq) return concat(ev, a, b);
    if (op == TL_BIN_MOD && a->kind == TL_V_STR) return tl_eval_percent(ev, a, b, loc);
    if (op == TL_BIN_MUL && (a->kind == TL_V_STR || a->kind == TL_V_TUPLE || a->kind == TL_V_LIST) &&
        is_intlike(b))
        return repeat(ev, a, as_int(b), loc);
    if (op == TL_BIN_MUL && (b->kind == TL_V_STR || b->kind == TL_V_TUPLE || b->kind == TL_V_LIST) &&
        is_intlike(a))
        return repeat(ev, b, as_int(a), loc);
    if (op >= TL_BIN_LT && op <= TL_BIN_GE) {
        bool ok = true;
        int c = compare_values(a, b, &ok);
        if (ok) {
            switch (op) {
            case TL_BIN_LT: return tl_value_bool(c < 0);
            case TL_BIN_LE: return tl_value_bool(c <= 0);
            case TL_BIN_GT: return tl_value_bool(c > 0);
            default: return tl_value_bool(c >= 0);
            }
        }
    }
    if (op == TL_BIN_OR && a->kind == TL_V_DICT && b->kind == TL_V_DICT) {
        tl_value_t *d = tl_value_dict(ev->arena);
        for (int i = 0; i < a->dict.n; i++) tl_value_dict_set(ev->arena, d, a->dict.keys[i], a->dict.values[i]);
        for (int i = 0; i < b->dict.n; i++) tl_value_dict_set(ev->arena, d, b->dict.keys[i], b->dict.values[i]);
        return d;
    }
    return type_error(ev, op, a, b, loc);
}

static tl_value_t *unop(tl_eval_t *ev, tl_unop_t op, tl_value_t *a, tl_loc_t loc);

tl_value_t *tl_eval_unop(tl_eval_t *ev, tl_unop_t op, tl_value_t *a, tl_loc_t loc)
{
    return keep_node(ev, a, NULL, unop(ev, op, a, loc));
}

static tl_value_t *unop(tl_eval_t *ev, tl_unop_t op, tl_value_t *a, tl_loc_t loc)
{
    a = scalar_of(ev, a, loc);
    if (a->kind == TL_V_ERROR) return tl_eval_fail(ev, loc, "%s", a->error.message);
    // -x of a torch value: as unknown; so is `not x` outside a kernel (a driver `if not x:`
    // then takes neither branch, eval_stmt.c).
    if (a->kind == TL_V_OPAQUE && (op != TL_UN_NOT || !ev->kernel)) return a;
    if (op == TL_UN_NOT && !is_ir(a)) {
        bool is_expr = false, ok = true;
        bool t = tl_eval_truth(ev, &a, loc, &is_expr, &ok);
        return ok ? tl_value_bool(!t) : NULL;
    }
    if (is_ir(a)) {
        tl_expr_t *x = tl_value_to_expr(ev, a, loc, -1);
        if (!x) return NULL;
        if (op == TL_UN_BITNOT && tl_dtype_is_float(x->dtype))
            return tl_eval_fail(ev, loc, "operator ~ needs an integer operand, got %s",
                                tl_dtype_name(x->dtype));
        return tl_value_expr(ev->arena, tl_ir_un(tl_eval_ir(ev), op, x, loc));
    }
    if (is_intish(a)) {
        wide_t v = as_wide(a);
        if (op == TL_UN_NEG) {
            if (v == WIDE_MIN) return overflow(ev, loc);
            return wide_value(ev, -v);
        }
        if (op == TL_UN_BITNOT) return wide_value(ev, ~v);
    }
    if (a->kind == TL_V_FLOAT && op == TL_UN_NEG) return tl_value_float(ev->arena, -a->f);
    return tl_eval_fail(ev, loc, "bad operand type for unary %s: '%s'", tl_unop_text(op),
                        tl_value_type_name(a));
}

bool tl_eval_truth(tl_eval_t *ev, tl_value_t **vp, tl_loc_t loc, bool *is_expr, bool *ok)
{
    tl_value_t *v = *vp = scalar_of(ev, *vp, loc);
    *is_expr = false;
    switch (v->kind) {
    case TL_V_NONE: return false;
    case TL_V_BOOL: return v->b;
    case TL_V_INT: return v->i != 0;
    case TL_V_WIDE: return true; // never 0
    case TL_V_FLOAT: return v->f != 0;
    case TL_V_STR: return v->str.len != 0;
    case TL_V_TUPLE:
    case TL_V_LIST: return v->seq.n != 0;
    case TL_V_DICT: return v->dict.n != 0;
    case TL_V_EXPR: {
        int64_t c;
        if (tl_ir_is_const_int(v->expr, &c)) return c != 0;
        if (v->expr->kind == TL_EX_FLOAT) return v->expr->f != 0;
        *is_expr = true;
        return false;
    }
    case TL_V_ERROR:
        tl_eval_fail(ev, loc, "%s", v->error.message);
        *ok = false;
        return false;
    case TL_V_OPAQUE:
        tl_eval_fail(ev, loc, "cannot take the truth value of '%s' at compile time", v->opaque.what);
        *ok = false;
        return false;
    default: return true; // functions, modules, buffers...
    }
}
