// Python builtins and the math module, as kernel factories use them at compile
// time. max/min/abs/int/float also accept IR values inside kernel bodies.
#include "front/front.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static tl_value_t *need(tl_eval_t *ev, tl_call_t *c, int i, const char *fname)
{
    tl_value_t *v = tl_call_arg(c, i, NULL);
    if (!v) tl_eval_fail(ev, c->loc, "%s() needs at least %d argument%s", fname, i + 1, i ? "s" : "");
    return v;
}

static tl_value_t *b_len(tl_eval_t *ev, tl_call_t *c)
{
    tl_value_t *v = need(ev, c, 0, "len");
    if (!v) return NULL;
    switch (v->kind) {
    case TL_V_STR: return tl_value_int(ev->arena, (int64_t)v->str.len);
    case TL_V_TUPLE:
    case TL_V_LIST: return tl_value_int(ev->arena, v->seq.n);
    case TL_V_DICT: return tl_value_int(ev->arena, v->dict.n);
    case TL_V_BUFFER: return tl_value_int(ev->arena, v->buffer->ndim ? v->buffer->shape[0] : 1);
    case TL_V_OPAQUE:
        if (!ev->kernel) return tl_value_opaque(ev->arena, tl_arena_printf(ev->arena, "len(%s)", v->opaque.what));
        // fall through
    default: return tl_eval_fail(ev, c->loc, "object of type '%s' has no len()", tl_value_type_name(v));
    }
}

static bool is_py_int(const tl_value_t *v)
{
    return v->kind == TL_V_INT || v->kind == TL_V_BOOL;
}

static tl_value_t *b_range(tl_eval_t *ev, tl_call_t *c)
{
    if (!tl_call_check(ev, c, "range", 1, 3, NULL)) return NULL;
    tl_value_t *r = tl_value_new(ev->arena, TL_V_RANGE);
    r->range.loop = TL_LOOP_SERIAL;
    r->range.ndim = 1;
    r->range.builtin = true;
    if (c->nargs == 1) {
        r->range.start = tl_value_int(ev->arena, 0);
        r->range.stop = c->args[0];
    } else {
        r->range.start = c->args[0];
        r->range.stop = c->args[1];
        if (c->nargs == 3) r->range.step = c->args[2];
    }
    r->range.python = is_py_int(r->range.start) && is_py_int(r->range.stop) &&
                      (!r->range.step || is_py_int(r->range.step));
    for (int i = 0; i < c->nargs; i++)
        if (c->args[i]->kind == TL_V_OPAQUE && !ev->kernel) return c->args[i]; // range(len(tensor)): unknown
    for (int i = 0; i < c->nargs; i++)
        if (!is_py_int(c->args[i]) && c->args[i]->kind != TL_V_EXPR)
            return tl_eval_fail(ev, c->arg_locs[i], "range() arguments must be integers, got %s",
                                tl_value_type_name(c->args[i]));
    return r;
}

// max/min over arguments or one iterable; IR operands give IR max/min.
static tl_value_t *minmax(tl_eval_t *ev, tl_call_t *c, bool is_max)
{
    const char *fname = is_max ? "max" : "min";
    tl_value_t **items = c->args;
    int n = c->nargs;
    if (n == 1) {
        tl_value_t *list = tl_eval_iterate(ev, c->args[0], c->loc);
        if (!list) return NULL;
        items = list->seq.items;
        n = list->seq.n;
    }
    if (n == 0) return tl_eval_fail(ev, c->loc, "%s() of an empty sequence", fname);
    tl_value_t *best = items[0];
    for (int i = 1; i < n; i++) {
        tl_value_t *x = items[i];
        bool opaque = best->kind == TL_V_OPAQUE || x->kind == TL_V_OPAQUE;
        if (opaque && best->kind != TL_V_EXPR && x->kind != TL_V_EXPR) {
            best = best->kind == TL_V_OPAQUE ? best : x; // max(torch value, 257): unknown
            continue;
        }
        if (best->kind == TL_V_EXPR || x->kind == TL_V_EXPR) {
            tl_kernel_t *k = tl_eval_ir(ev);
            tl_expr_t *a = tl_value_to_expr(ev, best, c->loc, -1), *b = tl_value_to_expr(ev, x, c->loc, -1);
            if (!a || !b) return NULL;
            best = tl_value_expr(ev->arena, tl_ir_bin(k, is_max ? TL_BIN_MAX : TL_BIN_MIN, a, b, c->loc));
            continue;
        }
        tl_value_t *gt = tl_eval_binop(ev, TL_BIN_GT, x, best, c->loc);
        tl_value_t *lt = gt ? tl_eval_binop(ev, TL_BIN_LT, x, best, c->loc) : NULL;
        if (!lt) return NULL;
        if (is_max ? gt->b : lt->b) best = x;
    }
    return best;
}

static tl_value_t *b_max(tl_eval_t *ev, tl_call_t *c)
{
    return minmax(ev, c, true);
}

static tl_value_t *b_min(tl_eval_t *ev, tl_call_t *c)
{
    return minmax(ev, c, false);
}

static tl_value_t *b_abs(tl_eval_t *ev, tl_call_t *c)
{
    tl_value_t *v = need(ev, c, 0, "abs");
    if (!v) return NULL;
    if (v->kind == TL_V_INT) return v->i < 0 ? tl_value_int(ev->arena, -v->i) : v;
    if (v->kind == TL_V_BOOL) return tl_value_int(ev->arena, v->b);
    if (v->kind == TL_V_FLOAT) return tl_value_float(ev->arena, fabs(v->f));
    if (v->kind == TL_V_EXPR) {
        tl_expr_t *x = tl_value_to_expr(ev, v, c->loc, -1); // (checks its depth)
        return x ? tl_value_expr(ev->arena, tl_ir_un(tl_eval_ir(ev), TL_UN_ABS, x, c->loc)) : NULL;
    }
    if (v->kind == TL_V_OPAQUE) return v;
    return tl_eval_fail(ev, c->loc, "bad operand type for abs(): '%s'", tl_value_type_name(v));
}

static tl_value_t *b_int(tl_eval_t *ev, tl_call_t *c)
{
    tl_value_t *v = tl_call_arg(c, 0, NULL);
    if (!v) return tl_value_int(ev->arena, 0);
    switch (v->kind) {
    case TL_V_INT: return v;
    case TL_V_BOOL: return tl_value_int(ev->arena, v->b);
    case TL_V_FLOAT:
        if (!isfinite(v->f) || fabs(v->f) >= 9.2e18)
            return tl_eval_fail(ev, c->loc, "cannot convert %g to an integer", v->f);
        return tl_value_int(ev->arena, (int64_t)v->f);
    case TL_V_STR: {
        char *end;
        long long x = strtoll(v->str.s, &end, 10);
        if (end == v->str.s || *end) return tl_eval_fail(ev, c->loc, "invalid literal for int(): '%s'", v->str.s);
        return tl_value_int(ev->arena, x);
    }
    case TL_V_EXPR: {
        int64_t k;
        if (tl_ir_is_const_int(v->expr, &k)) return tl_value_int(ev->arena, k);
        tl_expr_t *x = tl_value_to_expr(ev, v, c->loc, -1);
        return x ? tl_value_expr(ev->arena, tl_ir_cast(tl_eval_ir(ev), TL_I32, x, c->loc)) : NULL;
    }
    case TL_V_OPAQUE: return v; // int(x.max().item()): unknown until a kernel needs it
    case TL_V_ERROR: tl_value_to_expr(ev, v, c->loc, -1); return NULL; // says why
    default: return tl_eval_fail(ev, c->loc, "int() cannot convert '%s'", tl_value_type_name(v));
    }
}

static tl_value_t *b_float(tl_eval_t *ev, tl_call_t *c)
{
    tl_value_t *v = tl_call_arg(c, 0, NULL);
    if (!v) return tl_value_float(ev->arena, 0);
    if (tl_value_is_number(v)) return tl_value_float(ev->arena, tl_value_as_double(v));
    if (v->kind == TL_V_STR) {
        const char *s = v->str.s;
        if (!strcmp(s, "inf") || !strcmp(s, "+inf") || !strcmp(s, "infinity")) return tl_value_float(ev->arena, INFINITY);
        if (!strcmp(s, "-inf") || !strcmp(s, "-infinity")) return tl_value_float(ev->arena, -INFINITY);
        if (!strcmp(s, "nan")) return tl_value_float(ev->arena, NAN);
        char *end;
        double d = strtod(s, &end);
        if (end == s || *end) return tl_eval_fail(ev, c->loc, "could not convert string to float: '%s'", s);
        return tl_value_float(ev->arena, d);
    }
    if (v->kind == TL_V_EXPR) {
        if (v->expr->kind == TL_EX_FLOAT) return tl_value_float(ev->arena, v->expr->f);
        tl_expr_t *x = tl_value_to_expr(ev, v, c->loc, -1);
        return x ? tl_value_expr(ev->arena, tl_ir_cast(tl_eval_ir(ev), TL_F32, x, c->loc)) : NULL;
    }
    if (v->kind == TL_V_OPAQUE) return v;
    if (v->kind == TL_V_ERROR) {
        tl_value_to_expr(ev, v, c->loc, -1); // says why
        return NULL;
    }
    return tl_eval_fail(ev, c->loc, "float() cannot convert '%s'", tl_value_type_name(v));
}

static tl_value_t *b_bool(tl_eval_t *ev, tl_call_t *c)
{
    tl_value_t *v = tl_call_arg(c, 0, NULL);
    if (!v) return tl_value_bool(false);
    bool b;
    return tl_value_to_bool(ev, v, c->loc, "bool()", &b) ? tl_value_bool(b) : NULL;
}

static tl_value_t *b_str(tl_eval_t *ev, tl_call_t *c)
{
    tl_value_t *v = tl_call_arg(c, 0, NULL);
    if (!v) return tl_value_str(ev->arena, "");
    tl_buf_t b;
    tl_buf_init(&b);
    tl_value_str_of(&b, v);
    tl_value_t *r = tl_value_strn(ev->arena, tl_buf_cstr(&b), b.len);
    tl_buf_free(&b);
    return r;
}

static tl_value_t *b_repr(tl_eval_t *ev, tl_call_t *c)
{
    tl_value_t *v = need(ev, c, 0, "repr");
    if (!v) return NULL;
    tl_buf_t b;
    tl_buf_init(&b);
    tl_value_repr(&b, v);
    tl_value_t *r = tl_value_strn(ev->arena, tl_buf_cstr(&b), b.len);
    tl_buf_free(&b);
    return r;
}

static tl_value_t *b_round(tl_eval_t *ev, tl_call_t *c)
{
    tl_value_t *v = need(ev, c, 0, "round");
    if (!v) return NULL;
    if (v->kind == TL_V_OPAQUE) return v;
    double x;
    if (!tl_value_to_double(ev, v, c->loc, "round()'s argument", &x)) return NULL;
    tl_value_t *nd = tl_call_arg(c, 1, "ndigits");
    if (nd && nd->kind != TL_V_NONE) {
        int64_t d;
        if (!tl_value_to_int(ev, nd, c->loc, "ndigits", &d)) return NULL;
        double p = pow(10.0, (double)d);
        return tl_value_float(ev->arena, nearbyint(x * p) / p);
    }
    return tl_value_int(ev->arena, (int64_t)nearbyint(x)); // ties to even, as Python
}

static tl_value_t *b_print(tl_eval_t *ev, tl_call_t *c)
{
    (void)ev, (void)c;
    return tl_value_none(); // driver output is not produced at compile time
}

// eval(text): driver code (`dtype=eval("torch." + dtype)`); tilec does not run Python text,
// so the value is opaque (an error where a kernel needs it), and the driver goes on.
static tl_value_t *b_eval(tl_eval_t *ev, tl_call_t *c)
{
    (void)c;
    return tl_value_opaque(ev->arena, "eval(...)");
}

static tl_value_t *make_seq(tl_eval_t *ev, tl_call_t *c, tl_value_kind_t kind)
{
    tl_value_t *v = tl_call_arg(c, 0, NULL);
    tl_value_t *l = v ? tl_eval_iterate(ev, v, c->loc) : tl_value_list(ev->arena, 0, NULL);
    if (!l) return NULL;
    tl_value_t *r = tl_value_list(ev->arena, l->seq.n, l->seq.items);
    r->kind = kind;
    return r;
}

static tl_value_t *b_list(tl_eval_t *ev, tl_call_t *c)
{
    return make_seq(ev, c, TL_V_LIST);
}

static tl_value_t *b_tuple(tl_eval_t *ev, tl_call_t *c)
{
    return make_seq(ev, c, TL_V_TUPLE);
}

// set(...) / frozenset(...): the distinct items, as a list (sets are not modelled).
static tl_value_t *b_set(tl_eval_t *ev, tl_call_t *c)
{
    tl_value_t *l = make_seq(ev, c, TL_V_LIST);
    return l ? tl_value_unique(ev->arena, l) : NULL;
}

static tl_value_t *b_dict(tl_eval_t *ev, tl_call_t *c)
{
    tl_value_t *d = tl_value_dict(ev->arena);
    tl_value_t *src = tl_call_arg(c, 0, NULL);
    if (src && src->kind == TL_V_DICT)
        for (int i = 0; i < src->dict.n; i++) tl_value_dict_set(ev->arena, d, src->dict.keys[i], src->dict.values[i]);
    for (int i = 0; i < c->nkw; i++)
        tl_value_dict_set(ev->arena, d, tl_value_str(ev->arena, c->kw_names[i]), c->kw_values[i]);
    return d;
}

static tl_value_t *b_enumerate(tl_eval_t *ev, tl_call_t *c)
{
    tl_value_t *v = need(ev, c, 0, "enumerate");
    tl_value_t *l = v ? tl_eval_iterate(ev, v, c->loc) : NULL;
    if (!l) return NULL;
    int64_t start = 0;
    tl_value_t *s = tl_call_arg(c, 1, "start");
    if (s && !tl_value_to_int(ev, s, c->loc, "start", &start)) return NULL;
    tl_value_t *out = tl_value_list(ev->arena, 0, NULL);
    for (int i = 0; i < l->seq.n; i++) {
        tl_value_t *pair[2] = {tl_value_int(ev->arena, start + i), l->seq.items[i]};
        tl_value_list_append(ev->arena, out, tl_value_tuple(ev->arena, 2, pair));
    }
    return out;
}

static tl_value_t *b_zip(tl_eval_t *ev, tl_call_t *c)
{
    tl_value_t *lists[8];
    int n = TL_MIN(c->nargs, 8), len = 1 << 30;
    for (int i = 0; i < n; i++) {
        if (!(lists[i] = tl_eval_iterate(ev, c->args[i], c->loc))) return NULL;
        len = TL_MIN(len, lists[i]->seq.n);
    }
    tl_value_t *out = tl_value_list(ev->arena, 0, NULL);
    for (int k = 0; n && k < len; k++) {
        tl_value_t *row[8];
        for (int i = 0; i < n; i++) row[i] = lists[i]->seq.items[k];
        tl_value_list_append(ev->arena, out, tl_value_tuple(ev->arena, n, row));
    }
    return out;
}

static tl_value_t *b_sum(tl_eval_t *ev, tl_call_t *c)
{
    tl_value_t *v = need(ev, c, 0, "sum");
    tl_value_t *l = v ? tl_eval_iterate(ev, v, c->loc) : NULL;
    if (!l) return NULL;
    tl_value_t *acc = tl_call_arg(c, 1, "start");
    if (!acc) acc = tl_value_int(ev->arena, 0);
    for (int i = 0; i < l->seq.n && acc; i++) acc = tl_eval_binop(ev, TL_BIN_ADD, acc, l->seq.items[i], c->loc);
    return acc;
}

static tl_value_t *b_anyall(tl_eval_t *ev, tl_call_t *c, bool any)
{
    tl_value_t *v = need(ev, c, 0, any ? "any" : "all");
    tl_value_t *l = v ? tl_eval_iterate(ev, v, c->loc) : NULL;
    if (!l) return NULL;
    for (int i = 0; i < l->seq.n; i++) {
        bool t;
        if (!tl_value_to_bool(ev, l->seq.items[i], c->loc, "an element", &t)) return NULL;
        if (t == any) return tl_value_bool(any);
    }
    return tl_value_bool(!any);
}

static tl_value_t *b_any(tl_eval_t *ev, tl_call_t *c)
{
    return b_anyall(ev, c, true);
}

static tl_value_t *b_all(tl_eval_t *ev, tl_call_t *c)
{
    return b_anyall(ev, c, false);
}

static tl_value_t *b_reversed(tl_eval_t *ev, tl_call_t *c)
{
    tl_value_t *v = need(ev, c, 0, "reversed");
    tl_value_t *l = v ? tl_eval_iterate(ev, v, c->loc) : NULL;
    if (!l) return NULL;
    for (int i = 0, j = l->seq.n - 1; i < j; i++, j--) {
        tl_value_t *t = l->seq.items[i];
        l->seq.items[i] = l->seq.items[j];
        l->seq.items[j] = t;
    }
    return l;
}

// Sorts list l in place as Python's list.sort(key=, reverse=) does: stable (equal keys keep
// their order, reverse=True too); key (a callable or None) is called once per item.
bool tl_eval_sort_list(tl_eval_t *ev, tl_value_t *l, tl_value_t *key, tl_value_t *reverse, tl_loc_t loc)
{
    int n = l->seq.n;
    bool rev = false;
    if (reverse && reverse->kind != TL_V_NONE) {
        if (reverse->kind != TL_V_BOOL && reverse->kind != TL_V_INT) {
            tl_eval_fail(ev, loc, "sort(): reverse must be a bool known at compile time");
            return false;
        }
        rev = reverse->kind == TL_V_BOOL ? reverse->b : reverse->i != 0;
    }
    tl_value_t **keys = tl_arena_alloc(ev->arena, sizeof(tl_value_t *) * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++) {
        keys[i] = l->seq.items[i];
        if (key && key->kind != TL_V_NONE) {
            tl_call_t kc = {.nargs = 1, .args = &l->seq.items[i], .loc = loc};
            if (!(keys[i] = tl_eval_call(ev, key, &kc))) return false;
        }
    }
    for (int i = 1; i < n; i++) // insertion sort: lists are tiny, and it is stable
        for (int j = i; j > 0; j--) {
            tl_value_t *lt = rev ? tl_eval_binop(ev, TL_BIN_LT, keys[j - 1], keys[j], loc)
                                 : tl_eval_binop(ev, TL_BIN_LT, keys[j], keys[j - 1], loc);
            if (!lt) return false;
            if (lt->kind != TL_V_BOOL) {
                tl_eval_fail(ev, loc, "sorting needs values known at compile time, got %s", tl_value_type_name(lt));
                return false;
            }
            if (!lt->b) break;
            tl_value_t *t = l->seq.items[j], *tk = keys[j];
            l->seq.items[j] = l->seq.items[j - 1];
            keys[j] = keys[j - 1];
            l->seq.items[j - 1] = t;
            keys[j - 1] = tk;
        }
    return true;
}

static tl_value_t *b_sorted(tl_eval_t *ev, tl_call_t *c)
{
    tl_value_t *v = need(ev, c, 0, "sorted");
    tl_value_t *l = v ? tl_eval_iterate(ev, v, c->loc) : NULL;
    if (!l) return NULL;
    if (!tl_eval_sort_list(ev, l, tl_call_arg(c, -1, "key"), tl_call_arg(c, -1, "reverse"), c->loc)) return NULL;
    return l;
}

static tl_value_t *b_isinstance(tl_eval_t *ev, tl_call_t *c)
{
    tl_value_t *v = need(ev, c, 0, "isinstance"), *t = need(ev, c, 1, "isinstance");
    if (!v || !t) return NULL;
    tl_value_t *types[16];
    int n = 1;
    types[0] = t;
    if (t->kind == TL_V_TUPLE) {
        n = TL_MIN(t->seq.n, 16);
        for (int i = 0; i < n; i++) types[i] = t->seq.items[i];
    }
    // A value tilec does not run (a torch tensor) is of a type nobody can
    // tell: the answer is unknown too, so an `if` or `assert` on it is
    // undecided (front/eval_stmt.c), never a guessed False.
    if (v->kind == TL_V_OPAQUE) return tl_value_opaque(ev->arena, "isinstance(...) of an unknown value");
    bool unknown_type = false;
    for (int i = 0; i < n; i++) {
        if (types[i]->kind == TL_V_MODULE && types[i]->module.is_class) {
            if (v->kind == TL_V_MODULE && v->module.cls == types[i]) return tl_value_bool(true);
            continue; // (base classes are not modelled)
        }
        if (types[i]->kind == TL_V_OPAQUE) unknown_type = true; // torch.Tensor, np.ndarray, ...
        if (types[i]->kind != TL_V_BUILTIN) continue;
        const char *tn = types[i]->builtin.name;
        if ((!strcmp(tn, "int") && (v->kind == TL_V_INT || v->kind == TL_V_BOOL)) ||
            (!strcmp(tn, "float") && v->kind == TL_V_FLOAT) ||
            (!strcmp(tn, "bool") && v->kind == TL_V_BOOL) ||
            (!strcmp(tn, "str") && v->kind == TL_V_STR) ||
            (!strcmp(tn, "list") && v->kind == TL_V_LIST) ||
            (!strcmp(tn, "tuple") && v->kind == TL_V_TUPLE) ||
            (!strcmp(tn, "dict") && v->kind == TL_V_DICT))
            return tl_value_bool(true);
    }
    // A Python number against a torch or numpy type: numpy's scalar types
    // (np.integer, np.floating) would say True of the numbers tilec keeps
    // numpy scalars as, so the answer is unknown.
    if (unknown_type && (v->kind == TL_V_INT || v->kind == TL_V_FLOAT || v->kind == TL_V_BOOL))
        return tl_value_opaque(ev->arena, "isinstance(...) against a type tilec does not model");
    return tl_value_bool(false);
}

static tl_value_t *b_getattr(tl_eval_t *ev, tl_call_t *c)
{
    tl_value_t *o = need(ev, c, 0, "getattr"), *n = need(ev, c, 1, "getattr");
    if (!o || !n) return NULL;
    const char *name = tl_value_to_cstr(ev, n, c->loc, "an attribute name");
    if (!name) return NULL;
    tl_value_t *dflt = tl_call_arg(c, 2, NULL);
    if (dflt && o->kind == TL_V_MODULE && !tl_value_module_get(o, name) && !o->module.permissive) return dflt;
    return tl_eval_getattr(ev, o, name, c->loc);
}

static tl_value_t *b_hasattr(tl_eval_t *ev, tl_call_t *c)
{
    tl_value_t *o = need(ev, c, 0, "hasattr"), *n = need(ev, c, 1, "hasattr");
    if (!o || !n) return NULL;
    const char *name = tl_value_to_cstr(ev, n, c->loc, "an attribute name");
    if (!name) return NULL;
    return tl_value_bool(o->kind == TL_V_MODULE && (tl_value_module_get(o, name) || o->module.permissive));
}

// ValueError("msg"): what `raise` reports ("ValueError: msg").
static tl_value_t *b_exception(tl_eval_t *ev, tl_call_t *c)
{
    tl_buf_t b;
    tl_buf_init(&b);
    tl_buf_puts(&b, c->self && c->self->kind == TL_V_STR ? c->self->str.s : "Exception");
    for (int i = 0; i < c->nargs; i++) {
        tl_buf_puts(&b, i ? ", " : ": ");
        tl_value_str_of(&b, c->args[i]);
    }
    tl_value_t *e = tl_value_opaque(ev->arena, tl_buf_cstr(&b));
    tl_buf_free(&b);
    return e;
}

static tl_value_t *b_identity(tl_eval_t *ev, tl_call_t *c)
{
    tl_value_t *v = need(ev, c, 0, "decorator");
    return v;
}

static tl_value_t *b_divmod(tl_eval_t *ev, tl_call_t *c)
{
    tl_value_t *a = need(ev, c, 0, "divmod"), *b = need(ev, c, 1, "divmod");
    if (!a || !b) return NULL;
    tl_value_t *q = tl_eval_binop(ev, TL_PYOP_FLOORDIV, a, b, c->loc);
    tl_value_t *r = q ? tl_eval_binop(ev, TL_BIN_MOD, a, b, c->loc) : NULL;
    if (!r) return NULL;
    tl_value_t *qr[2] = {q, r};
    return tl_value_tuple(ev->arena, 2, qr);
}

static tl_value_t *b_pow(tl_eval_t *ev, tl_call_t *c)
{
    tl_value_t *a = need(ev, c, 0, "pow"), *b = need(ev, c, 1, "pow");
    return a && b ? tl_eval_binop(ev, TL_BIN_POW, a, b, c->loc) : NULL;
}

// --- math ---------------------------------------------------------------------------------------

static bool arg_double(tl_eval_t *ev, tl_call_t *c, int i, const char *fname, double *x)
{
    tl_value_t *v = tl_call_arg(c, i, NULL);
    if (!v) {
        tl_eval_fail(ev, c->loc, "math.%s() needs an argument", fname);
        return false;
    }
    return tl_value_to_double(ev, v, c->loc, fname, x);
}

#define MATH1(NAME, EXPR, INT_RESULT)                                                              \
    static tl_value_t *m_##NAME(tl_eval_t *ev, tl_call_t *c)                                       \
    {                                                                                              \
        double x;                                                                                  \
        tl_value_t *a0_ = tl_call_arg(c, 0, NULL);                                                 \
        if (a0_ && a0_->kind == TL_V_OPAQUE) return a0_; /* math.ceil(torch value): unknown */     \
        if (!arg_double(ev, c, 0, #NAME, &x)) return NULL;                                         \
        double r = (EXPR);                                                                         \
        if (INT_RESULT) {                                                                          \
            if (!isfinite(r)) return tl_eval_fail(ev, c->loc, "math." #NAME "() of %g", x);        \
            return tl_value_int(ev->arena, (int64_t)r);                                            \
        }                                                                                          \
        return tl_value_float(ev->arena, r);                                                       \
    }

MATH1(ceil, ceil(x), 1)
MATH1(floor, floor(x), 1)
MATH1(trunc, trunc(x), 1)
MATH1(sqrt, sqrt(x), 0)
MATH1(log2, log2(x), 0)
MATH1(log10, log10(x), 0)
MATH1(exp, exp(x), 0)
MATH1(fabs, fabs(x), 0)
MATH1(sin, sin(x), 0)
MATH1(cos, cos(x), 0)
MATH1(tanh, tanh(x), 0)

static tl_value_t *m_log(tl_eval_t *ev, tl_call_t *c)
{
    double x, b = M_E;
    if (!arg_double(ev, c, 0, "log", &x)) return NULL;
    if (c->nargs > 1 && !arg_double(ev, c, 1, "log", &b)) return NULL;
    return tl_value_float(ev->arena, log(x) / log(b));
}

static tl_value_t *m_pow(tl_eval_t *ev, tl_call_t *c)
{
    double x, y;
    if (!arg_double(ev, c, 0, "pow", &x) || !arg_double(ev, c, 1, "pow", &y)) return NULL;
    return tl_value_float(ev->arena, pow(x, y));
}

static tl_value_t *m_gcd(tl_eval_t *ev, tl_call_t *c)
{
    int64_t g = 0;
    for (int i = 0; i < c->nargs; i++) {
        int64_t x;
        if (!tl_value_to_int(ev, c->args[i], c->loc, "gcd()'s argument", &x)) return NULL;
        if (x < 0) x = -x;
        while (x) {
            int64_t t = g % x;
            g = x;
            x = t;
        }
    }
    return tl_value_int(ev->arena, g);
}

static tl_value_t *m_isqrt(tl_eval_t *ev, tl_call_t *c)
{
    int64_t x;
    if (!c->nargs || !tl_value_to_int(ev, c->args[0], c->loc, "isqrt()'s argument", &x)) return NULL;
    if (x < 0) return tl_eval_fail(ev, c->loc, "isqrt() of a negative number");
    int64_t r = (int64_t)sqrt((double)x);
    while (r * r > x) r--;
    while ((r + 1) * (r + 1) <= x) r++;
    return tl_value_int(ev->arena, r);
}

static tl_value_t *m_prod(tl_eval_t *ev, tl_call_t *c)
{
    tl_value_t *v = need(ev, c, 0, "prod");
    tl_value_t *l = v ? tl_eval_iterate(ev, v, c->loc) : NULL;
    if (!l) return NULL;
    tl_value_t *acc = tl_value_int(ev->arena, 1);
    for (int i = 0; i < l->seq.n && acc; i++) acc = tl_eval_binop(ev, TL_BIN_MUL, acc, l->seq.items[i], c->loc);
    return acc;
}

static tl_value_t *m_isinf(tl_eval_t *ev, tl_call_t *c)
{
    double x;
    return arg_double(ev, c, 0, "isinf", &x) ? tl_value_bool(isinf(x)) : NULL;
}

static tl_value_t *m_isnan(tl_eval_t *ev, tl_call_t *c)
{
    double x;
    return arg_double(ev, c, 0, "isnan", &x) ? tl_value_bool(isnan(x)) : NULL;
}

void tl_front_def(tl_eval_t *ev, tl_value_t *m, const char *name, tl_builtin_fn fn)
{
    tl_front_def_self(ev, m, name, fn, NULL);
}

void tl_front_def_self(tl_eval_t *ev, tl_value_t *m, const char *name, tl_builtin_fn fn,
                       tl_value_t *self)
{
    tl_value_module_set(ev->arena, m, name, tl_value_builtin(ev->arena, name, fn, self));
}

void tl_front_install_builtins(tl_eval_t *ev)
{
    tl_value_t *b = tl_value_module(ev->arena, "builtins");
    tl_front_def(ev, b, "len", b_len);
    tl_front_def(ev, b, "range", b_range);
    tl_front_def(ev, b, "max", b_max);
    tl_front_def(ev, b, "min", b_min);
    tl_front_def(ev, b, "abs", b_abs);
    tl_front_def(ev, b, "int", b_int);
    tl_front_def(ev, b, "float", b_float);
    tl_front_def(ev, b, "bool", b_bool);
    tl_front_def(ev, b, "str", b_str);
    tl_front_def(ev, b, "repr", b_repr);
    tl_front_def(ev, b, "round", b_round);
    tl_front_def(ev, b, "print", b_print);
    tl_front_def(ev, b, "eval", b_eval);
    tl_front_def(ev, b, "list", b_list);
    tl_front_def(ev, b, "tuple", b_tuple);
    tl_front_def(ev, b, "set", b_set);
    tl_front_def(ev, b, "frozenset", b_set);
    tl_front_def(ev, b, "dict", b_dict);
    tl_front_def(ev, b, "enumerate", b_enumerate);
    tl_front_def(ev, b, "zip", b_zip);
    tl_front_def(ev, b, "sum", b_sum);
    tl_front_def(ev, b, "any", b_any);
    tl_front_def(ev, b, "all", b_all);
    tl_front_def(ev, b, "sorted", b_sorted);
    tl_front_def(ev, b, "reversed", b_reversed);
    tl_front_def(ev, b, "isinstance", b_isinstance);
    tl_front_def(ev, b, "getattr", b_getattr);
    tl_front_def(ev, b, "hasattr", b_hasattr);
    tl_front_def(ev, b, "divmod", b_divmod);
    tl_front_def(ev, b, "pow", b_pow);
    tl_front_def(ev, b, "staticmethod", b_identity);
    tl_front_def(ev, b, "classmethod", b_identity);
    tl_front_def(ev, b, "property", b_identity);
    static const char *exceptions[] = {"Exception", "ValueError", "TypeError", "RuntimeError",
                                       "AssertionError", "NotImplementedError", "KeyError", "IndexError"};
    for (size_t i = 0; i < TL_ARRAY_LEN(exceptions); i++)
        tl_value_module_set(ev->arena, b, exceptions[i],
                            tl_value_builtin(ev->arena, exceptions[i], b_exception,
                                             tl_value_str(ev->arena, exceptions[i])));
    // Other driver-only names evaluate to opaque values.
    static const char *opaque[] = {"object", "super", "type", "open", "input", "iter",
                                   "next", "map", "filter", "hash", "id", "vars", "globals",
                                   "locals", "callable", "format", "slice", "bytes", "exit", "quit"};
    for (size_t i = 0; i < TL_ARRAY_LEN(opaque); i++)
        tl_value_module_set(ev->arena, b, opaque[i], tl_value_opaque(ev->arena, opaque[i]));

    tl_value_t *m = tl_value_module(ev->arena, "math");
    tl_front_def(ev, m, "ceil", m_ceil);
    tl_front_def(ev, m, "floor", m_floor);
    tl_front_def(ev, m, "trunc", m_trunc);
    tl_front_def(ev, m, "sqrt", m_sqrt);
    tl_front_def(ev, m, "log2", m_log2);
    tl_front_def(ev, m, "log10", m_log10);
    tl_front_def(ev, m, "log", m_log);
    tl_front_def(ev, m, "exp", m_exp);
    tl_front_def(ev, m, "fabs", m_fabs);
    tl_front_def(ev, m, "sin", m_sin);
    tl_front_def(ev, m, "cos", m_cos);
    tl_front_def(ev, m, "tanh", m_tanh);
    tl_front_def(ev, m, "pow", m_pow);
    tl_front_def(ev, m, "gcd", m_gcd);
    tl_front_def(ev, m, "isqrt", m_isqrt);
    tl_front_def(ev, m, "prod", m_prod);
    tl_front_def(ev, m, "isinf", m_isinf);
    tl_front_def(ev, m, "isnan", m_isnan);
    tl_value_module_set(ev->arena, m, "pi", tl_value_float(ev->arena, M_PI));
    tl_value_module_set(ev->arena, m, "e", tl_value_float(ev->arena, M_E));
    tl_value_module_set(ev->arena, m, "inf", tl_value_float(ev->arena, INFINITY));
    tl_value_module_set(ev->arena, m, "nan", tl_value_float(ev->arena, NAN));
    tl_value_module_set(ev->arena, b, "__math__", m);
    ev->builtins = b;
}
