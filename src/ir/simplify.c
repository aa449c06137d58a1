// Expression analysis: structural equality and linear forms. A linear form is
// sum(coef_i * term_i) + c where terms are maximal non-linear subexpressions
// compared structurally; it lets the front end turn `a[x : x + 64]` into
// extent 64 and lets passes prove two index expressions differ by a constant.
#include "ir/ir.h"

#include <string.h>

bool tl_ir_expr_equal(const tl_expr_t *a, const tl_expr_t *b)
{
    if (a == b) return true;
    if (!a || !b || a->kind != b->kind || a->dtype != b->dtype) return false;
    switch (a->kind) {
    case TL_EX_INT: return a->i == b->i;
    case TL_EX_FLOAT: return a->f == b->f || (a->f != a->f && b->f != b->f);
    case TL_EX_VAR: return a->var == b->var;
    case TL_EX_LOAD:
        if (a->load.buf != b->load.buf || a->load.n != b->load.n) return false;
        for (int i = 0; i < a->load.n; i++)
            if (!tl_ir_expr_equal(a->load.idx[i], b->load.idx[i])) return false;
        return true;
    case TL_EX_BIN:
        return a->op.op == b->op.op && tl_ir_expr_equal(a->op.a, b->op.a) &&
               tl_ir_expr_equal(a->op.b, b->op.b);
    case TL_EX_UN: return a->op.op == b->op.op && tl_ir_expr_equal(a->op.a, b->op.a);
    case TL_EX_CAST:
    case TL_EX_REINTERPRET: return tl_ir_expr_equal(a->arg, b->arg);
    case TL_EX_SELECT:
        return tl_ir_expr_equal(a->sel.cond, b->sel.cond) && tl_ir_expr_equal(a->sel.a, b->sel.a) &&
               tl_ir_expr_equal(a->sel.b, b->sel.b);
    }
    return false;
}

// Adds coef * e to the linear form. Returns false when the form is full or the
// expression is not integer.
static bool add_linear(tl_linear_t *f, const tl_expr_t *e, int64_t coef)
{
    if (tl_dtype_is_float(e->dtype)) return false;
    int64_t c, p;
    // Coefficients that overflow 64 bits make the form unknown (never wrap).
    if (e->kind == TL_EX_INT)
        return !__builtin_mul_overflow(coef, e->i, &p) && !__builtin_add_overflow(f->c, p, &f->c);
    if (e->kind == TL_EX_BIN) {
        switch (e->op.op) {
        case TL_BIN_ADD: return add_linear(f, e->op.a, coef) && add_linear(f, e->op.b, coef);
        case TL_BIN_SUB:
            return coef != INT64_MIN && add_linear(f, e->op.a, coef) && add_linear(f, e->op.b, -coef);
        case TL_BIN_MUL:
            if (tl_ir_is_const_int(e->op.b, &c))
                return !__builtin_mul_overflow(coef, c, &p) && add_linear(f, e->op.a, p);
            if (tl_ir_is_const_int(e->op.a, &c))
                return !__builtin_mul_overflow(coef, c, &p) && add_linear(f, e->op.b, p);
            break;
        default: break;
        }
    }
    if (e->kind == TL_EX_UN && e->op.op == TL_UN_NEG) return coef != INT64_MIN && add_linear(f, e->op.a, -coef);
    for (int i = 0; i < f->n; i++)
        if (tl_ir_expr_equal(f->terms[i], e)) return !__builtin_add_overflow(f->coefs[i], coef, &f->coefs[i]);
    if (f->n == TL_LINEAR_MAX_TERMS) return false;
    f->terms[f->n] = e;
    f->coefs[f->n++] = coef;
    return true;
}

bool tl_ir_linear(const tl_expr_t *e, tl_linear_t *out)
{
    memset(out, 0, sizeof *out);
    return add_linear(out, e, 1);
}

bool tl_ir_const_diff(const tl_expr_t *a, const tl_expr_t *b, int64_t *diff)
{
    int64_t x, y;
    if (tl_ir_is_const_int(a, &x) && tl_ir_is_const_int(b, &y)) return !__builtin_sub_overflow(x, y, diff);
    tl_linear_t f;
    memset(&f, 0, sizeof f);
    if (!add_linear(&f, a, 1) || !add_linear(&f, b, -1)) return false;
    for (int i = 0; i < f.n; i++)
        if (f.coefs[i] != 0) return false;
    *diff = f.c;
    return true;
}

// Integer evaluation of a shape expression over known variable values (the
// IR's C semantics: truncating / and %). False if a variable is unknown, the
// expression is not integer, or it divides by zero.
bool tl_ir_eval_int(const tl_expr_t *e, const int64_t *values, const bool *known, int64_t *out)
{
    int64_t a, b;
    switch (e->kind) {
    case TL_EX_INT: *out = e->i; return true;
    case TL_EX_VAR:
        if (!known[e->var->id]) return false;
        *out = values[e->var->id];
        return true;
    case TL_EX_CAST: return !tl_dtype_is_float(e->arg->dtype) && tl_ir_eval_int(e->arg, values, known, out);
    case TL_EX_UN:
        if (e->op.op != TL_UN_NEG || !tl_ir_eval_int(e->op.a, values, known, &a)) return false;
        *out = -a;
        return true;
    case TL_EX_BIN:
        if (!tl_ir_eval_int(e->op.a, values, known, &a) || !tl_ir_eval_int(e->op.b, values, known, &b))
            return false;
        switch (e->op.op) {
        case TL_BIN_ADD: *out = a + b; return true;
        case TL_BIN_SUB: *out = a - b; return true;
        case TL_BIN_MUL: *out = a * b; return true;
        case TL_BIN_DIV: if (!b) return false; *out = a / b; return true;
        case TL_BIN_MOD: if (!b) return false; *out = a % b; return true;
        case TL_BIN_FLOORDIV:
        case TL_BIN_FLOORMOD: {
            if (!b) return false;
            int64_t q = a / b;
            if (a % b != 0 && ((a < 0) != (b < 0))) q--;
            *out = e->op.op == TL_BIN_FLOORDIV ? q : a - q * b;
            return true;
        }
        case TL_BIN_MIN: *out = a < b ? a : b; return true;
        case TL_BIN_MAX: *out = a > b ? a : b; return true;
        default: return false;
        }
    default: return false;
    }
}
