// Conversions from compile-time values to what builtins need (integers, dtypes,
// IR expressions, regions, shapes) and call-argument helpers. Each conversion
// reports a precise error at the value's location when it fails.
#include "front/eval.h"

#include <stdarg.h>
#include <string.h>

tl_value_t *tl_eval_fail(tl_eval_t *ev, tl_loc_t loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    tl_diag_vreport(ev->diag, TL_SEV_ERROR, loc, TL_ERR_COMPILE, fmt, ap);
    va_end(ap);
    if (!ev->err_loc_set && loc.line) {
        ev->err_loc = loc;
        ev->err_loc_set = true;
    }
    return NULL;
}

void tl_value_explain(tl_eval_t *ev, const tl_value_t *v)
{
    if (v->kind == TL_V_NONE && v->error.message && v->error.loc.line)
        tl_diag_note(ev->diag, v->error.loc, "the None comes from here: %s", v->error.message);
}

// Values that cannot become anything: poisoned names and values of code tilec
// does not run (torch, numpy...). Reports and returns true for those.
static bool error_value(tl_eval_t *ev, tl_value_t *v, tl_loc_t loc)
{
    if (v->kind == TL_V_ERROR) {
        tl_eval_fail(ev, loc, "%s", v->error.message);
        return true;
    }
    if (v->kind == TL_V_OPAQUE && v->opaque.param) {
        tl_eval_fail(ev, loc, "'%s' is computed by code tilec does not run (torch, numpy, a driver "
                              "object...); kernels need compile-time values: give it with -a %s=VALUE",
                     v->opaque.what, v->opaque.param);
        if (v->opaque.why) tl_diag_note(ev->diag, v->opaque.loc, "%s", v->opaque.why);
        return true;
    }
    if (v->kind == TL_V_OPAQUE) {
        tl_eval_fail(ev, loc, "'%s' is computed by code tilec does not run (torch, numpy, a driver "
                              "object...); kernels need compile-time values: give it with -a NAME=VALUE (a "
                              "factory parameter or a module-level name)", v->opaque.what);
        if (v->opaque.why) tl_diag_note(ev->diag, v->opaque.loc, "%s", v->opaque.why);
        return true;
    }
    return false;
}

static void wrong_kind(tl_eval_t *ev, tl_value_t *v, tl_loc_t loc, const char *what, const char *expected)
{
    tl_eval_fail(ev, loc, "%s must be %s, got %s", what, expected, tl_value_type_name(v));
    tl_value_explain(ev, v);
}

// Names the variables an expression depends on, for "not a constant" errors.
static void collect_vars(tl_buf_t *b, const tl_expr_t *e, int *n)
{
    if (!e || *n >= 3) return;
    switch (e->kind) {
    case TL_EX_VAR:
        if (!strstr(tl_buf_cstr(b), e->var->name)) {
            tl_buf_printf(b, "%s'%s'", *n ? ", " : "", e->var->name);
            (*n)++;
        }
        break;
    case TL_EX_LOAD:
        if (!strstr(tl_buf_cstr(b), e->load.buf->name)) {
            tl_buf_printf(b, "%s'%s'", *n ? ", " : "", e->load.buf->name);
            (*n)++;
        }
        break;
    case TL_EX_BIN:
        collect_vars(b, e->op.a, n);
        collect_vars(b, e->op.b, n);
        break;
    case TL_EX_UN: collect_vars(b, e->op.a, n); break;
    case TL_EX_CAST:
    case TL_EX_REINTERPRET: collect_vars(b, e->arg, n); break;
    case TL_EX_SELECT:
        collect_vars(b, e->sel.cond, n);
        collect_vars(b, e->sel.a, n);
        collect_vars(b, e->sel.b, n);
        break;
    default: break;
    }
}

static void not_constant(tl_eval_t *ev, const tl_expr_t *e, tl_loc_t loc, const char *what)
{
    tl_buf_t b;
    tl_buf_init(&b);
    int n = 0;
    collect_vars(&b, e, &n);
    tl_eval_fail(ev, loc, "%s must be a compile-time constant, but it depends on %s", what,
                 n ? tl_buf_cstr(&b) : "run-time values");
    tl_buf_free(&b);
}

bool tl_value_to_int(tl_eval_t *ev, tl_value_t *v, tl_loc_t loc, const char *what, int64_t *out)
{
    if (error_value(ev, v, loc)) return false;
    switch (v->kind) {
    case TL_V_INT: *out = v->i; return true;
    case TL_V_BOOL: *out = v->b; return true;
    case TL_V_EXPR:
        if (tl_ir_is_const_int(v->expr, out)) return true;
        not_constant(ev, v->expr, loc, what);
        return false;
    default:
        wrong_kind(ev, v, loc, what, "an integer");
        return false;
    }
}

bool tl_value_to_double(tl_eval_t *ev, tl_value_t *v, tl_loc_t loc, const char *what, double *out)
{
    if (error_value(ev, v, loc)) return false;
    if (tl_value_is_number(v)) {
        *out = tl_value_as_double(v);
        return true;
    }
    if (v->kind == TL_V_EXPR) {
        int64_t i;
        if (tl_ir_is_const_int(v->expr, &i)) {
            *out = (double)i;
            return true;
        }
        if (v->expr->kind == TL_EX_FLOAT) {
            *out = v->expr->f;
            return true;
        }
        not_constant(ev, v->expr, loc, what);
        return false;
    }
    wrong_kind(ev, v, loc, what, "a number");
    return false;
}

bool tl_value_to_flag(tl_eval_t *ev, tl_value_t *v, tl_loc_t loc, const char *what, bool *out)
{
    if (error_value(ev, v, loc)) return false;
    bool ok = v->kind == TL_V_BOOL || v->kind == TL_V_INT ||
              (v->kind == TL_V_EXPR && (v->expr->kind == TL_EX_INT || v->expr->dtype == TL_BOOL));
    if (!ok) {
        wrong_kind(ev, v, loc, what, "True or False");
        return false;
    }
    return tl_value_to_bool(ev, v, loc, what, out);
}

bool tl_value_to_bool(tl_eval_t *ev, tl_value_t *v, tl_loc_t loc, const char *what, bool *out)
{
    bool is_expr = false, ok = true;
    bool t = tl_eval_truth(ev, &v, loc, &is_expr, &ok);
    if (!ok) return false;
    if (is_expr) {
        not_constant(ev, v->expr, loc, what);
        return false;
    }
    *out = t;
    return true;
}

const char *tl_value_to_cstr(tl_eval_t *ev, tl_value_t *v, tl_loc_t loc, const char *what)
{
    if (error_value(ev, v, loc)) return NULL;
    if (v->kind == TL_V_STR) return v->str.s;
    wrong_kind(ev, v, loc, what, "a string");
    return NULL;
}

bool tl_value_to_buffer_dtype(tl_eval_t *ev, tl_value_t *v, tl_loc_t loc, tl_dtype_t *out,
                              bool *int4)
{
    *int4 = v && v->kind == TL_V_STR && !strcmp(v->str.s, "int4");
    if (*int4) *out = TL_U8;
    return *int4 || tl_value_to_dtype(ev, v, loc, out);
}

bool tl_eval_int4_buffer(tl_eval_t *ev, tl_buffer_t *b, tl_loc_t loc)
{
    int d = b->ndim - 1;
    b->int4 = true;
    if (d < 0) return true;
    tl_expr_t *e = b->gm_shape[d];
    int64_t n = e ? 0 : b->shape[d];
    if ((e && tl_ir_is_const_int(e, &n)) || !e) {
        if (n % 2) {
            tl_eval_fail(ev, loc, "int4 buffer '%s' has an odd contiguous dimension (%lld): two "
                                  "int4 elements share a byte, so a row of an odd number of them "
                                  "has no byte-aligned layout (upstream rejects it too)",
                         b->name, (long long)n);
            return false;
        }
        b->shape[d] = n / 2;
        if (e) b->gm_shape[d] = tl_ir_int(ev->kernel, n / 2, e->dtype, e->loc);
        return true;
    }
    b->int4_elems = e;
    b->gm_shape[d] = tl_ir_bin(ev->kernel, TL_BIN_FLOORDIV, e, tl_ir_int(ev->kernel, 2, e->dtype, e->loc), e->loc);
    return true;
}

bool tl_value_to_dtype(tl_eval_t *ev, tl_value_t *v, tl_loc_t loc, tl_dtype_t *out)
{
    if (error_value(ev, v, loc)) return false;
    if (v->kind == TL_V_DTYPE) {
        *out = v->dtype;
        return true;
    }
    if (v->kind == TL_V_STR) {
        if (tl_dtype_parse(v->str.s, out)) return true;
        if (!strcmp(v->str.s, "int4")) {
            tl_eval_fail(ev, loc,
                         "dtype 'int4' is a buffer dtype only (T.Tensor, T.alloc_*): its elements "
                         "are nibble-packed two a byte (AscendC's int4b_t) and have no scalar form");
            return false;
        }
        if (!strcmp(v->str.s, "uint4")) {
            tl_eval_fail(ev, loc,
                         "dtype 'uint4' is not supported: upstream's code generator maps only the "
                         "signed int4 (to AscendC's int4b_t) and stops at uint4 (\"Unsupported "
                         "data type\")");
            return false;
        }
        tl_buf_t b;
        tl_buf_init(&b);
        for (int t = 0; t < TL_DTYPE_COUNT; t++) tl_buf_printf(&b, "%s%s", t ? ", " : "", tl_dtype_name((tl_dtype_t)t));
        tl_eval_fail(ev, loc, "unknown dtype '%s' (dtypes: %s)", v->str.s, tl_buf_cstr(&b));
        tl_buf_free(&b);
        return false;
    }
    wrong_kind(ev, v, loc, "a dtype", "a string such as \"float16\" or T.float16");
    return false;
}

bool tl_value_is_exprlike(const tl_value_t *v)
{
    return tl_value_is_number(v) || v->kind == TL_V_EXPR ||
           (v->kind == TL_V_BUFFER && v->buffer->scope == TL_SCOPE_VAR);
}

tl_expr_t *tl_value_to_expr(tl_eval_t *ev, tl_value_t *v, tl_loc_t loc, int hint)
{
    if (error_value(ev, v, loc)) return NULL;
    tl_kernel_t *k = tl_eval_ir(ev);
    bool has_hint = hint >= 0 && hint < TL_DTYPE_COUNT;
    switch (v->kind) {
    case TL_V_BOOL: return tl_ir_int(k, v->b, TL_BOOL, loc);
    case TL_V_INT: {
        if (has_hint && tl_dtype_is_float((tl_dtype_t)hint))
            return tl_ir_float(k, (double)v->i, (tl_dtype_t)hint, loc);
        tl_dtype_t t = has_hint && tl_dtype_is_int((tl_dtype_t)hint) ? (tl_dtype_t)hint
                       : (v->i >= INT32_MIN && v->i <= INT32_MAX) ? TL_I32
                                                                   : TL_I64;
        return tl_ir_int(k, v->i, t, loc);
    }
    case TL_V_FLOAT:
        return tl_ir_float(k, v->f,
                           has_hint && tl_dtype_is_float((tl_dtype_t)hint) ? (tl_dtype_t)hint
                                                                          : TL_F32,
                           loc);
    case TL_V_EXPR:
        // Kernel expressions grow one level per operation: a compile-time loop
        // can build them deeper than anything after the front end walks.
        if (v->expr->height > TL_MAX_NESTING) {
            tl_eval_fail(ev, loc,
                         "this kernel expression nests too deeply: more than %d levels (built up "
                         "by a compile-time loop or recursion?)",
                         TL_MAX_NESTING);
            return NULL;
        }
        return v->expr;
    case TL_V_BUFFER:
        if (v->buffer->scope == TL_SCOPE_VAR) {
            tl_expr_t *zero = tl_ir_int(k, 0, TL_I32, loc);
            return tl_ir_load(k, v->buffer, 1, &zero, loc);
        }
        tl_eval_fail(ev, loc, "buffer '%s' used where a scalar is expected (index it, e.g. %s[i])",
                     v->buffer->name, v->buffer->name);
        return NULL;
    default:
        wrong_kind(ev, v, loc, "a scalar", "a number or an expression");
        return NULL;
    }
}

static tl_region_t *whole_region(tl_eval_t *ev, tl_buffer_t *b, tl_loc_t loc)
{
    tl_kernel_t *k = ev->kernel;
    tl_region_t *r = tl_arena_alloc(ev->arena, sizeof *r);
    r->buf = b;
    r->form = TL_REGION_WHOLE;
    r->ndim = b->ndim;
    r->loc = loc;
    for (int i = 0; i < b->ndim; i++) {
        r->start[i] = tl_ir_int(k, 0, TL_I32, loc);
        r->extent[i] = b->gm_shape[i] ? b->gm_shape[i] : tl_ir_int(k, b->shape[i], TL_I32, loc);
    }
    return r;
}

tl_region_t *tl_value_to_region(tl_eval_t *ev, tl_value_t *v, tl_loc_t loc, const char *what)
{
    if (error_value(ev, v, loc)) return NULL;
    if (!tl_trace_require(ev, loc, what)) return NULL;
    if (v->kind == TL_V_BUFFER) {
        if (v->buffer->scope == TL_SCOPE_VAR) {
            tl_eval_fail(ev, loc, "%s must be a buffer, but '%s' is a T.alloc_var scalar", what,
                         v->buffer->name);
            return NULL;
        }
        return whole_region(ev, v->buffer, loc);
    }
    if (v->kind == TL_V_REGION) return v->region;
    if (v->kind == TL_V_EXPR && v->expr->kind == TL_EX_LOAD &&
        v->expr->load.buf->scope != TL_SCOPE_VAR) {
        const tl_expr_t *e = v->expr;
        tl_region_t *r = tl_arena_alloc(ev->arena, sizeof *r);
        r->buf = e->load.buf;
        r->form = TL_REGION_POINT;
        r->ndim = e->load.n;
        r->loc = loc;
        for (int i = 0; i < e->load.n; i++) {
            r->start[i] = e->load.idx[i];
            r->extent[i] = tl_ir_int(ev->kernel, 1, TL_I32, loc);
        }
        return r;
    }
    if (v->kind == TL_V_NONE) { // T.alloc_ub with a zero dimension (tapi.c alloc)
        tl_eval_fail(ev, loc, "%s must be a buffer or a buffer region, got None (a 1-D T.alloc_ub of size 0 "
                     "is None: an empty arena, for tmp= only)", what);
        return NULL;
    }
    wrong_kind(ev, v, loc, what, "a buffer or a buffer region");
    return NULL;
}

tl_value_t **tl_value_items(tl_eval_t *ev, tl_value_t *v, tl_loc_t loc, const char *what, int *n)
{
    if (error_value(ev, v, loc)) return NULL;
    if (v->kind == TL_V_TUPLE || v->kind == TL_V_LIST) {
        *n = v->seq.n;
        static tl_value_t *empty[1];
        return v->seq.n ? v->seq.items : empty;
    }
    wrong_kind(ev, v, loc, what, "a tuple or list");
    return NULL;
}

bool tl_value_to_shape(tl_eval_t *ev, tl_value_t *v, tl_loc_t loc, int64_t *shape, int *ndim, bool empty_ok)
{
    if (v->kind == TL_V_INT || v->kind == TL_V_EXPR) {
        *ndim = 1;
        if (!tl_value_to_int(ev, v, loc, "a buffer dimension", &shape[0])) return false;
    } else {
        int n;
        tl_value_t **items = tl_value_items(ev, v, loc, "a shape", &n);
        if (!items) return false;
        if (n > TL_MAX_DIMS) {
            tl_eval_fail(ev, loc, "shape has %d dimensions; at most %d are supported", n, TL_MAX_DIMS);
            return false;
        }
        *ndim = n;
        for (int i = 0; i < n; i++)
            if (!tl_value_to_int(ev, items[i], loc, "an on-chip buffer dimension", &shape[i]))
                return false;
    }
    int64_t numel = 1;
    for (int i = 0; i < *ndim; i++) {
        if (shape[i] < 0 || (shape[i] == 0 && !empty_ok)) {
            tl_eval_fail(ev, loc, "buffer dimension %d is %lld; dimensions must be positive", i,
                         (long long)shape[i]);
            return false;
        }
        if (__builtin_mul_overflow(numel, shape[i], &numel) || numel > ((int64_t)1 << 31)) {
            tl_eval_fail(ev, loc, "an on-chip buffer this large (more than 2^31 elements) fits no scratchpad");
            return false;
        }
    }
    return true;
}

static void *dup_n(tl_eval_t *ev, const void *p, size_t elem, int n)
{
    return p && n > 0 ? tl_arena_dup(ev->arena, p, elem * (size_t)n) : NULL;
}

tl_call_t *tl_call_copy(tl_eval_t *ev, const tl_call_t *c)
{
    tl_call_t *k = tl_arena_dup(ev->arena, c, sizeof *c);
    k->args = dup_n(ev, c->args, sizeof(tl_value_t *), c->nargs);
    k->arg_locs = dup_n(ev, c->arg_locs, sizeof(tl_loc_t), c->nargs);
    k->kw_names = dup_n(ev, c->kw_names, sizeof(char *), c->nkw);
    k->kw_values = dup_n(ev, c->kw_values, sizeof(tl_value_t *), c->nkw);
    k->kw_locs = dup_n(ev, c->kw_locs, sizeof(tl_loc_t), c->nkw);
    k->self = NULL;
    return k;
}

tl_value_t *tl_call_arg(const tl_call_t *c, int pos, const char *kw)
{
    if (pos >= 0 && pos < c->nargs) return c->args[pos];
    if (kw)
        for (int i = 0; i < c->nkw; i++)
            if (!strcmp(c->kw_names[i], kw)) return c->kw_values[i];
    return NULL;
}

tl_loc_t tl_call_arg_loc(const tl_call_t *c, int pos, const char *kw)
{
    if (pos >= 0 && pos < c->nargs && c->arg_locs) return c->arg_locs[pos];
    if (kw && c->kw_locs)
        for (int i = 0; i < c->nkw; i++)
            if (!strcmp(c->kw_names[i], kw)) return c->kw_locs[i];
    return c->loc;
}

bool tl_call_check(tl_eval_t *ev, const tl_call_t *c, const char *fname, int min_req, int max_pos,
                   const char *const *kws)
{
    if (c->nargs > max_pos) {
        tl_eval_fail(ev, c->arg_locs ? c->arg_locs[max_pos] : c->loc,
                     "%s takes at most %d positional argument%s, got %d", fname, max_pos,
                     max_pos == 1 ? "" : "s", c->nargs);
        return false;
    }
    for (int i = 0; i < c->nkw; i++) {
        bool known = false;
        for (int j = 0; kws && kws[j] && !known; j++) known = !strcmp(kws[j], c->kw_names[i]);
        if (!known) {
            tl_eval_fail(ev, c->kw_locs ? c->kw_locs[i] : c->loc,
                         "%s got an unexpected keyword argument '%s'", fname, c->kw_names[i]);
            return false;
        }
    }
    if (c->nargs + c->nkw < min_req) {
        tl_buf_t b; // the required parameters, when their names are known
        tl_buf_init(&b);
        for (int j = 0; kws && j < min_req && kws[j]; j++) tl_buf_printf(&b, "%s%s", j ? ", " : " (", kws[j]);
        if (b.len) tl_buf_putc(&b, ')');
        tl_eval_fail(ev, c->loc, "%s needs at least %d argument%s%s, got %d", fname, min_req,
                     min_req == 1 ? "" : "s", tl_buf_cstr(&b), c->nargs + c->nkw);
        tl_buf_free(&b);
        return false;
    }
    return true;
}
