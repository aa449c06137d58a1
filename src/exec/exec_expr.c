// Scalar expression evaluation with the IR's dtype semantics: integers computed
// in 64 bits and wrapped to their dtype, `/` and `%` truncating (C), floor
// variants flooring, integer division by zero an error at the expression;
// float32 computed in float, float16/bfloat16/fp8 rounded (RINT) after each op;
// casts by dtype.h (float -> int truncates and saturates, NaN -> 0; int -> int
// wraps as the IR's constant folder does); scalar loads bounds-checked.
#include "exec/exec_int.h"

#include "base/fexp.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

static tl_loc_t where(const tl_exec_ctx_t *c, const tl_expr_t *e)
{
    if (e->loc.line > 0 || !c->st) return e->loc;
    return c->st->loc;
}

// Float binary op in the precision of t (float32 in float).
static tl_status_t float_bin(const tl_exec_ctx_t *c, const tl_expr_t *e, tl_dtype_t t, double a,
                             double b, double *r)
{
    int op = e->op.op;
    if (t == TL_F64) {
        switch (op) {
        case TL_BIN_ADD: *r = a + b; return TL_OK;
        case TL_BIN_SUB: *r = a - b; return TL_OK;
        case TL_BIN_MUL: *r = a * b; return TL_OK;
        case TL_BIN_DIV: *r = a / b; return TL_OK;
        case TL_BIN_MOD: *r = fmod(a, b); return TL_OK;
        case TL_BIN_FLOORDIV: *r = floor(a / b); return TL_OK;
        case TL_BIN_FLOORMOD: *r = a - floor(a / b) * b; return TL_OK;
        case TL_BIN_MIN: *r = a < b ? a : b; return TL_OK;
        case TL_BIN_MAX: *r = a > b ? a : b; return TL_OK;
        case TL_BIN_POW: *r = pow(a, b); return TL_OK;
        default: break;
        }
    } else {
        float x = (float)a, y = (float)b, z;
        switch (op) {
        case TL_BIN_ADD: z = x + y; break;
        case TL_BIN_SUB: z = x - y; break;
        case TL_BIN_MUL: z = x * y; break;
        case TL_BIN_DIV: z = x / y; break;
        case TL_BIN_MOD: z = fmodf(x, y); break;
        case TL_BIN_FLOORDIV: z = floorf(x / y); break;
        case TL_BIN_FLOORMOD: z = x - floorf(x / y) * y; break;
        case TL_BIN_MIN: z = x < y ? x : y; break;
        case TL_BIN_MAX: z = x > y ? x : y; break;
        case TL_BIN_POW: z = powf(x, y); break;
        default:
            return tl_exec_fail(c, where(c, e), "operator '%s' is not defined on %s",
                                tl_binop_text((tl_binop_t)op), tl_dtype_name(t));
        }
        *r = tl_num_round(t, z);
        return TL_OK;
    }
    return tl_exec_fail(c, where(c, e), "operator '%s' is not defined on %s",
                        tl_binop_text((tl_binop_t)op), tl_dtype_name(t));
}

static int64_t floordiv_i(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

static int64_t ipow(int64_t a, int64_t b)
{
    if (b < 0) return a == 1 ? 1 : a == -1 ? (b % 2 ? -1 : 1) : 0; // truncated 1 / a^|b|
    uint64_t r = 1, x = (uint64_t)a;
    for (; b; b >>= 1, x *= x)
        if (b & 1) r *= x;
    return (int64_t)r;
}

// Integer binary op in 64 bits; the caller wraps the result to the dtype.
static tl_status_t int_bin(const tl_exec_ctx_t *c, const tl_expr_t *e, tl_dtype_t t, int64_t a,
                           int64_t b, int64_t *r)
{
    int op = e->op.op;
    uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
    bool u64 = t == TL_U64;
    switch (op) {
    case TL_BIN_ADD: *r = (int64_t)(ua + ub); return TL_OK;
    case TL_BIN_SUB: *r = (int64_t)(ua - ub); return TL_OK;
    case TL_BIN_MUL: *r = (int64_t)(ua * ub); return TL_OK;
    case TL_BIN_DIV:
    case TL_BIN_MOD:
    case TL_BIN_FLOORDIV:
    case TL_BIN_FLOORMOD: {
        bool div = op == TL_BIN_DIV || op == TL_BIN_FLOORDIV;
        if (b == 0)
            return tl_exec_fail(c, where(c, e), "integer %s by zero", div ? "division" : "modulo");
        if (u64) {
            *r = (int64_t)(div ? ua / ub : ua % ub);
        } else if (a == INT64_MIN && b == -1) {
            *r = div ? INT64_MIN : 0; // wraps, as the hardware does
        } else if (op == TL_BIN_DIV) {
            *r = a / b;
        } else if (op == TL_BIN_MOD) {
            *r = a % b;
        } else if (op == TL_BIN_FLOORDIV) {
            *r = floordiv_i(a, b);
        } else {
            *r = a - floordiv_i(a, b) * b;
        }
        return TL_OK;
    }
    case TL_BIN_MIN: *r = (u64 ? ua < ub : a < b) ? a : b; return TL_OK;
    case TL_BIN_MAX: *r = (u64 ? ua > ub : a > b) ? a : b; return TL_OK;
    case TL_BIN_POW: *r = ipow(a, b); return TL_OK;
    case TL_BIN_AND: *r = a & b; return TL_OK;
    case TL_BIN_OR: *r = a | b; return TL_OK;
    case TL_BIN_XOR: *r = a ^ b; return TL_OK;
    case TL_BIN_SHL:
    case TL_BIN_SHR:
        if (b < 0 || b >= tl_dtype_bits(t))
            return tl_exec_fail(c, where(c, e), "shift count %" PRId64 " is out of range for %s", b,
                                tl_dtype_name(t));
        if (op == TL_BIN_SHL)
            *r = (int64_t)(ua << b);
        else
            *r = u64 ? (int64_t)(ua >> b) : a >> b;
        return TL_OK;
    default: break;
    }
    return tl_exec_fail(c, where(c, e), "operator '%s' is not defined on %s",
                        tl_binop_text((tl_binop_t)op), tl_dtype_name(t));
}

static bool compare(int op, tl_num_t a, tl_num_t b)
{
    int s; // -1, 0, 1; 2 = unordered (NaN)
    if (tl_dtype_is_float(a.t)) {
        s = a.f < b.f ? -1 : a.f > b.f ? 1 : a.f == b.f ? 0 : 2;
    } else if (a.t == TL_U64) {
        s = (uint64_t)a.i < (uint64_t)b.i ? -1 : a.i != b.i;
    } else {
        s = a.i < b.i ? -1 : a.i > b.i;
    }
    switch (op) {
    case TL_BIN_EQ: return s == 0;
    case TL_BIN_NE: return s != 0;
    case TL_BIN_LT: return s == -1;
    case TL_BIN_LE: return s == -1 || s == 0;
    case TL_BIN_GT: return s == 1;
    default: return s == 1 || s == 0; // GE
    }
}

static tl_status_t eval_bin(const tl_exec_ctx_t *c, const tl_expr_t *e, tl_num_t *out)
{
    int op = e->op.op;
    tl_num_t a, b;
    tl_status_t st = tl_exec_eval(c, e->op.a, &a);
    if (st) return st;
    if (op == TL_BIN_LAND || op == TL_BIN_LOR) { // short-circuit, as the generated C does
        bool av = tl_num_true(a);
        if (av == (op == TL_BIN_LOR)) {
            *out = tl_num_int(av, TL_BOOL);
            return TL_OK;
        }
        if ((st = tl_exec_eval(c, e->op.b, &b))) return st;
        *out = tl_num_int(tl_num_true(b), TL_BOOL);
        return TL_OK;
    }
    if ((st = tl_exec_eval(c, e->op.b, &b))) return st;
    bool cmp = op >= TL_BIN_EQ && op <= TL_BIN_GE;
    tl_dtype_t t = cmp ? tl_ir_promote(e->op.a, e->op.b) : e->dtype;
    a = tl_num_cast(a, t);
    b = tl_num_cast(b, t);
    if (cmp) {
        *out = tl_num_int(compare(op, a, b), TL_BOOL);
        return TL_OK;
    }
    out->t = t;
    out->i = 0;
    out->f = 0;
    if (tl_dtype_is_float(t)) return float_bin(c, e, t, a.f, b.f, &out->f);
    int64_t r = 0;
    if ((st = int_bin(c, e, t, a.i, b.i, &r))) return st;
    out->i = tl_num_wrap(r, t);
    return TL_OK;
}

static double float_un(int op, tl_dtype_t t, double a)
{
    if (t == TL_F64) {
        switch (op) {
        case TL_UN_EXP: return exp(a);
        case TL_UN_LOG: return log(a);
        case TL_UN_SQRT: return sqrt(a);
        case TL_UN_RSQRT: return 1 / sqrt(a);
        case TL_UN_ABS: return fabs(a);
        case TL_UN_SIGMOID: return 1 / (1 + exp(-a));
        case TL_UN_TANH: return tanh(a);
        case TL_UN_FLOOR: return floor(a);
        case TL_UN_CEIL: return ceil(a);
        case TL_UN_ROUND: return rint(a);
        case TL_UN_TRUNC: return trunc(a);
        case TL_UN_SIN: return sin(a);
        case TL_UN_COS: return cos(a);
        default: return -a; // NEG
        }
    }
    float x = (float)a, z;
    switch (op) {
    case TL_UN_EXP: z = tl_expf(x); break; // as the tile ops (base/fexp.h)
    case TL_UN_LOG: z = logf(x); break;
    case TL_UN_SQRT: z = sqrtf(x); break;
    case TL_UN_RSQRT: z = 1.0f / sqrtf(x); break;
    case TL_UN_ABS: z = fabsf(x); break;
    case TL_UN_SIGMOID: z = 1.0f / (1.0f + tl_expf(-x)); break;
    case TL_UN_TANH: z = tanhf(x); break;
    case TL_UN_FLOOR: z = floorf(x); break;
    case TL_UN_CEIL: z = ceilf(x); break;
    case TL_UN_ROUND: z = rintf(x); break;
    case TL_UN_TRUNC: z = truncf(x); break;
    case TL_UN_SIN: z = sinf(x); break;
    case TL_UN_COS: z = cosf(x); break;
    default: z = -x; break;
    }
    return tl_num_round(t, z);
}

static tl_status_t eval_un(const tl_exec_ctx_t *c, const tl_expr_t *e, tl_num_t *out)
{
    int op = e->op.op;
    tl_num_t a;
    tl_status_t st = tl_exec_eval(c, e->op.a, &a);
    if (st) return st;
    if (op == TL_UN_NOT) {
        *out = tl_num_int(!tl_num_true(a), TL_BOOL);
        return TL_OK;
    }
    tl_dtype_t t = e->dtype;
    a = tl_num_cast(a, t);
    *out = a;
    if (tl_dtype_is_float(t)) {
        if (op == TL_UN_BITNOT)
            return tl_exec_fail(c, where(c, e), "operator '~' is not defined on %s",
                                tl_dtype_name(t));
        out->f = float_un(op, t, a.f);
        return TL_OK;
    }
    switch (op) {
    case TL_UN_NEG: out->i = tl_num_wrap((int64_t)(0 - (uint64_t)a.i), t); break;
    case TL_UN_BITNOT: out->i = tl_num_wrap(~a.i, t); break;
    case TL_UN_ABS: out->i = tl_num_wrap(a.i < 0 ? (int64_t)(0 - (uint64_t)a.i) : a.i, t); break;
    case TL_UN_FLOOR:
    case TL_UN_CEIL:
    case TL_UN_ROUND:
    case TL_UN_TRUNC: break;
    default: { // transcendental on an integer: computed in double, truncated
        tl_num_t d = {TL_F64, 0, float_un(op, TL_F64, (double)a.i)};
        *out = tl_num_cast(d, t);
        break;
    }
    }
    return TL_OK;
}

static tl_status_t eval_var(const tl_exec_ctx_t *c, const tl_expr_t *e, tl_num_t *out)
{
    const tl_var_t *v = e->var;
    tl_exec_t *x = c->x;
    switch (v->kind) {
    case TL_VAR_DIM:
    case TL_VAR_PARAM:
        if (!x->args->gset[v->id]) return tl_exec_fail(c, where(c, e), "'%s' has no value", v->name);
        *out = tl_num_cast(x->args->globals[v->id], v->dtype);
        return TL_OK;
    case TL_VAR_BLOCK:
    case TL_VAR_SUBBLOCK:
        if (!c->ag)
            return tl_exec_fail(c, where(c, e), "'%s' cannot be used in a tensor shape", v->name);
        *out = tl_num_int(v->kind == TL_VAR_BLOCK ? c->ag->blk->index : c->ag->vid, v->dtype);
        return TL_OK;
    default:
        if (!c->ag)
            return tl_exec_fail(c, where(c, e), "'%s' cannot be used in a tensor shape", v->name);
        if (!c->ag->defined[v->id]) {
            const char *other = c->ag->id == TL_AGENT_AIC ? "vector" : "cube";
            return tl_exec_fail(c, where(c, e),
                                "'%s' has no value on the %s: it is computed only on the %s side",
                                v->name, tl_side_agent_name(c->ag->id), other);
        }
        *out = c->ag->vals[v->id];
        return TL_OK;
    }
}

static tl_status_t eval_load(const tl_exec_ctx_t *c, const tl_expr_t *e, tl_num_t *out)
{
    const tl_buffer_t *b = e->load.buf;
    if (e->load.n > TL_MAX_DIMS)
        return tl_exec_fail(c, where(c, e), "too many indices for '%s'", b->name);
    int64_t idx[TL_MAX_DIMS];
    tl_status_t st;
    for (int i = 0; i < e->load.n; i++)
        if ((st = tl_exec_eval_int(c, e->load.idx[i], &idx[i]))) return st;
    uint8_t *p;
    int64_t elem, addr;
    if ((st = tl_exec_mem_elem(c, b, e->load.n, idx, where(c, e), &p, &elem, &addr))) return st;
    tl_exec_mem_check(c, b, elem * tl_dtype_size(b->dtype), tl_dtype_size(b->dtype), "scalar load");
    *out = tl_num_load(b->dtype, p);
    tl_exec_event_t ev = {.kind = TL_EXEC_EV_LOAD, .buf = b, .elem = elem, .addr = addr};
    return tl_exec_hook(c, &ev);
}

tl_status_t tl_exec_eval(const tl_exec_ctx_t *c, const tl_expr_t *e, tl_num_t *out)
{
    tl_status_t st;
    switch (e->kind) {
    case TL_EX_INT: *out = tl_num_int(e->i, e->dtype); return TL_OK;
    case TL_EX_FLOAT: {
        tl_num_t f = {TL_F64, 0, e->f};
        *out = tl_num_cast(f, e->dtype);
        return TL_OK;
    }
    case TL_EX_VAR: return eval_var(c, e, out);
    case TL_EX_LOAD: return eval_load(c, e, out);
    case TL_EX_BIN: return eval_bin(c, e, out);
    case TL_EX_UN: return eval_un(c, e, out);
    case TL_EX_CAST:
        if ((st = tl_exec_eval(c, e->arg, out))) return st;
        *out = tl_num_cast(*out, e->dtype);
        return TL_OK;
    case TL_EX_REINTERPRET: {
        tl_num_t a;
        if ((st = tl_exec_eval(c, e->arg, &a))) return st;
        if (tl_dtype_size(a.t) != tl_dtype_size(e->dtype))
            return tl_exec_fail(c, where(c, e), "cannot reinterpret %s as %s (sizes differ)",
                                tl_dtype_name(a.t), tl_dtype_name(e->dtype));
        uint8_t tmp[8] = {0};
        tl_num_store(a.t, tmp, a);
        *out = tl_num_load(e->dtype, tmp);
        return TL_OK;
    }
    case TL_EX_SELECT: {
        tl_num_t cond;
        if ((st = tl_exec_eval(c, e->sel.cond, &cond))) return st;
        if ((st = tl_exec_eval(c, tl_num_true(cond) ? e->sel.a : e->sel.b, out))) return st;
        *out = tl_num_cast(*out, e->dtype);
        return TL_OK;
    }
    }
    return tl_exec_fail(c, where(c, e), "unknown expression kind %d", (int)e->kind);
}

tl_status_t tl_exec_eval_int(const tl_exec_ctx_t *c, const tl_expr_t *e, int64_t *out)
{
    tl_num_t v;
    tl_status_t st = tl_exec_eval(c, e, &v);
    if (st) return st;
    if (tl_dtype_is_float(v.t))
        return tl_exec_fail(c, where(c, e), "expected an integer, got a %s value",
                            tl_dtype_name(v.t));
    *out = v.i;
    return TL_OK;
}
