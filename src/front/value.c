// Compile-time values: construction, Python equality, repr/str.
#include "front/value.h"

#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *kind_names[] = {
#define X(id, name) name,
    TL_VALUE_KINDS(X)
#undef X
};
_Static_assert(TL_ARRAY_LEN(kind_names) == TL_V_COUNT, "value kind table out of sync");

const char *tl_value_type_name(const tl_value_t *v)
{
    return kind_names[v->kind];
}

// None, True and False are shared singletons (never written to).
static tl_value_t none_value = {.kind = TL_V_NONE};
static tl_value_t true_value = {.kind = TL_V_BOOL, .b = true};
static tl_value_t false_value = {.kind = TL_V_BOOL, .b = false};

// Numbers, strings and kernel expressions take only their own field's bytes:
// compile-time loops make millions of them, and the arena is bounded
// (TL_EVAL_MAX_BYTES). (A value's kind never changes; tl_value_dup copies only those bytes.)
static size_t value_size(tl_value_kind_t kind)
{
    size_t small = offsetof(tl_value_t, str) + sizeof((tl_value_t *)0)->str;
    bool scalar = kind == TL_V_INT || kind == TL_V_FLOAT || kind == TL_V_STR || kind == TL_V_EXPR;
    return scalar ? small : sizeof(tl_value_t);
}

tl_value_t *tl_value_new(tl_arena_t *a, tl_value_kind_t kind)
{
    tl_value_t *v = tl_arena_alloc(a, value_size(kind));
    v->kind = kind;
    return v;
}

tl_value_t *tl_value_dup(tl_arena_t *a, const tl_value_t *v)
{
    tl_value_t *c = tl_arena_alloc(a, value_size(v->kind));
    memcpy(c, v, value_size(v->kind));
    return c;
}

tl_value_t *tl_value_none(void)
{
    return &none_value;
}

tl_value_t *tl_value_bool(bool b)
{
    return b ? &true_value : &false_value;
}

tl_value_t *tl_value_int(tl_arena_t *a, int64_t i)
{
    tl_value_t *v = tl_value_new(a, TL_V_INT);
    v->i = i;
    return v;
}

tl_value_t *tl_value_float(tl_arena_t *a, double f)
{
    tl_value_t *v = tl_value_new(a, TL_V_FLOAT);
    v->f = f;
    return v;
}

tl_value_t *tl_value_strn(tl_arena_t *a, const char *s, size_t n)
{
    tl_value_t *v = tl_value_new(a, TL_V_STR);
    v->str.s = tl_arena_strndup(a, s, n);
    v->str.len = n;
    return v;
}

tl_value_t *tl_value_str(tl_arena_t *a, const char *s)
{
    return tl_value_strn(a, s, strlen(s));
}

static tl_value_t *seq(tl_arena_t *a, tl_value_kind_t kind, int n, tl_value_t **items)
{
    tl_value_t *v = tl_value_new(a, kind);
    v->seq.n = v->seq.cap = n;
    if (n) v->seq.items = tl_arena_dup(a, items, sizeof *items * (size_t)n);
    return v;
}

tl_value_t *tl_value_tuple(tl_arena_t *a, int n, tl_value_t **items)
{
    return seq(a, TL_V_TUPLE, n, items);
}

tl_value_t *tl_value_list(tl_arena_t *a, int n, tl_value_t **items)
{
    return seq(a, TL_V_LIST, n, items);
}

tl_value_t *tl_value_dict(tl_arena_t *a)
{
    return tl_value_new(a, TL_V_DICT);
}

tl_value_t *tl_value_expr(tl_arena_t *a, tl_expr_t *e)
{
    tl_value_t *v = tl_value_new(a, TL_V_EXPR);
    v->expr = e;
    return v;
}

tl_value_t *tl_value_dtype(tl_arena_t *a, tl_dtype_t t)
{
    tl_value_t *v = tl_value_new(a, TL_V_DTYPE);
    v->dtype = t;
    return v;
}

tl_value_t *tl_value_opaque(tl_arena_t *a, const char *what)
{
    tl_value_t *v = tl_value_new(a, TL_V_OPAQUE);
    v->opaque.what = tl_arena_strdup(a, what);
    return v;
}

tl_value_t *tl_value_error(tl_arena_t *a, const char *message, tl_loc_t loc)
{
    tl_value_t *v = tl_value_new(a, TL_V_ERROR);
    v->error.message = tl_arena_strdup(a, message);
    v->error.loc = loc;
    return v;
}

tl_value_t *tl_value_builtin(tl_arena_t *a, const char *name, tl_builtin_fn fn, tl_value_t *self)
{
    tl_value_t *v = tl_value_new(a, TL_V_BUILTIN);
    v->builtin.name = name;
    v->builtin.fn = fn;
    v->builtin.self = self;
    return v;
}

tl_value_t *tl_value_module(tl_arena_t *a, const char *name)
{
    tl_value_t *v = tl_value_new(a, TL_V_MODULE);
    v->module.name = tl_arena_strdup(a, name);
    v->module.attrs = tl_arena_alloc(a, sizeof(tl_map_t));
    tl_map_init(v->module.attrs, a);
    return v;
}

void tl_value_module_set(tl_arena_t *a, tl_value_t *module, const char *name, tl_value_t *v)
{
    tl_map_put(module->module.attrs, tl_arena_strdup(a, name), v);
}

tl_value_t *tl_value_module_get(const tl_value_t *module, const char *name)
{
    return tl_map_get(module->module.attrs, name);
}

void tl_value_list_append(tl_arena_t *a, tl_value_t *list, tl_value_t *item)
{
    if (list->seq.n == list->seq.cap) {
        int cap = list->seq.cap ? list->seq.cap * 2 : 4;
        list->seq.items = tl_arena_grow(a, list->seq.items, sizeof(tl_value_t *),
                                        (size_t)list->seq.cap, (size_t)cap);
        list->seq.cap = cap;
    }
    list->seq.items[list->seq.n++] = item;
}

tl_value_t *tl_value_unique(tl_arena_t *a, const tl_value_t *seq)
{
    tl_value_t *out = tl_value_list(a, 0, NULL);
    for (int i = 0; i < seq->seq.n; i++) {
        bool seen = false;
        for (int j = 0; j < out->seq.n && !seen; j++) seen = tl_value_equal(out->seq.items[j], seq->seq.items[i]);
        if (!seen) tl_value_list_append(a, out, seq->seq.items[i]);
    }
    return out;
}

bool tl_value_is_number(const tl_value_t *v)
{
    return v->kind == TL_V_BOOL || v->kind == TL_V_INT || v->kind == TL_V_FLOAT;
}

double tl_value_as_double(const tl_value_t *v)
{
    switch (v->kind) {
    case TL_V_BOOL: return v->b;
    case TL_V_INT: return (double)v->i;
    case TL_V_FLOAT: return v->f;
    default: return NAN;
    }
}

// (Containers inside one another compare to TL_MAX_NESTING levels: deeper
// ones, and containers that contain themselves, compare unequal.)
// The torch dtype spelled by an attribute path, its aliases folded (torch.half is
// torch.float16, torch.float is torch.float32, ...); other paths as they are.
static const char *canonical_path(const char *what)
{
    static const char *aliases[][2] = {
        {"torch.half", "torch.float16"}, {"torch.float", "torch.float32"},
        {"torch.double", "torch.float64"}, {"torch.short", "torch.int16"},
        {"torch.int", "torch.int32"},     {"torch.long", "torch.int64"},
    };
    for (size_t i = 0; i < TL_ARRAY_LEN(aliases); i++)
        if (!strcmp(what, aliases[i][0])) return aliases[i][1];
    return what;
}

bool tl_value_is_attr_path(const tl_value_t *v)
{
    if (v->kind != TL_V_OPAQUE) return false;
    for (const char *p = v->opaque.what; *p; p++)
        if (!(isalnum((unsigned char)*p) || *p == '_' || *p == '.')) return false;
    return true;
}

static bool equal_at(const tl_value_t *a, const tl_value_t *b, int depth)
{
    if (a == b) return a->kind != TL_V_FLOAT || !isnan(a->f);
    if (tl_value_is_number(a) && tl_value_is_number(b)) {
        if (a->kind != TL_V_FLOAT && b->kind != TL_V_FLOAT)
            return (a->kind == TL_V_BOOL ? a->b : a->i) == (b->kind == TL_V_BOOL ? b->b : b->i);
        return tl_value_as_double(a) == tl_value_as_double(b);
    }
    if (a->kind != b->kind) return false;
    switch (a->kind) {
    case TL_V_NONE: return true;
    case TL_V_STR: return a->str.len == b->str.len && !memcmp(a->str.s, b->str.s, a->str.len);
    case TL_V_TUPLE:
    case TL_V_LIST:
        if (a->seq.n != b->seq.n || depth >= TL_MAX_NESTING) return false;
        for (int i = 0; i < a->seq.n; i++)
            if (!equal_at(a->seq.items[i], b->seq.items[i], depth + 1)) return false;
        return true;
    case TL_V_DTYPE: return a->dtype == b->dtype;
    case TL_V_BUFFER: return a->buffer == b->buffer;
    case TL_V_OPAQUE: // the same attribute of a module we do not run is one object (torch.float16)
        return tl_value_is_attr_path(a) && tl_value_is_attr_path(b) &&
               !strcmp(canonical_path(a->opaque.what), canonical_path(b->opaque.what));
    default: return false;
    }
}

bool tl_value_equal(const tl_value_t *a, const tl_value_t *b)
{
    return equal_at(a, b, 0);
}

tl_value_t *tl_value_dict_get(const tl_value_t *dict, const tl_value_t *key)
{
    for (int i = 0; i < dict->dict.n; i++)
        if (tl_value_equal(dict->dict.keys[i], key)) return dict->dict.values[i];
    return NULL;
}

void tl_value_dict_set(tl_arena_t *a, tl_value_t *dict, tl_value_t *key, tl_value_t *v)
{
    for (int i = 0; i < dict->dict.n; i++)
        if (tl_value_equal(dict->dict.keys[i], key)) {
            dict->dict.values[i] = v;
            return;
        }
    if (dict->dict.n == dict->dict.cap) {
        int cap = dict->dict.cap ? dict->dict.cap * 2 : 4;
        dict->dict.keys = tl_arena_grow(a, dict->dict.keys, sizeof(tl_value_t *),
                                        (size_t)dict->dict.cap, (size_t)cap);
        dict->dict.values = tl_arena_grow(a, dict->dict.values, sizeof(tl_value_t *),
                                          (size_t)dict->dict.cap, (size_t)cap);
        dict->dict.cap = cap;
    }
    dict->dict.keys[dict->dict.n] = key;
    dict->dict.values[dict->dict.n++] = v;
}

static void repr_float(tl_buf_t *out, double f)
{
    if (isnan(f)) {
        tl_buf_puts(out, "nan");
        return;
    }
    if (isinf(f)) {
        tl_buf_puts(out, f > 0 ? "inf" : "-inf");
        return;
    }
    // Shortest representation that round-trips, like Python's repr.
    char s[40];
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(s, sizeof s, "%.*g", prec, f);
        if (strtod(s, NULL) == f) break;
    }
    tl_buf_puts(out, s);
    if (!strpbrk(s, ".eEn")) tl_buf_puts(out, ".0");
}

// An int past 64 bits in decimal.
static void repr_wide(tl_buf_t *out, const tl_value_t *v)
{
    unsigned __int128 u = ((unsigned __int128)(uint64_t)v->wide.hi << 64) | v->wide.lo;
    bool neg = v->wide.hi < 0;
    if (neg) u = ~u + 1;
    char d[48];
    int n = 0;
    do {
        d[n++] = (char)('0' + (int)(u % 10));
        u /= 10;
    } while (u);
    if (neg) tl_buf_putc(out, '-');
    while (n) tl_buf_putc(out, d[--n]);
}

// Containers being printed, outermost first: one that contains itself, or
// one nested deeper than TL_MAX_NESTING, prints as [...] (as Python prints a
// list that contains itself); past TL_EVAL_MAX_BYTES of text the buffer fails.
typedef struct {
    const tl_value_t *open[TL_MAX_NESTING];
    int n;
} repr_path_t;

static void repr_impl(tl_buf_t *out, const tl_value_t *v, bool quote, repr_path_t *p);

static bool repr_enter(tl_buf_t *out, const tl_value_t *v, repr_path_t *p, const char *dots)
{
    if (out->len > (size_t)TL_EVAL_MAX_BYTES) {
        out->failed = true;
        return false;
    }
    bool inside = p->n == TL_MAX_NESTING;
    for (int i = 0; i < p->n && !inside; i++) inside = p->open[i] == v;
    if (inside) {
        tl_buf_puts(out, dots);
        return false;
    }
    p->open[p->n++] = v;
    return true;
}

static void repr_impl(tl_buf_t *out, const tl_value_t *v, bool quote, repr_path_t *p)
{
    switch (v->kind) {
    case TL_V_NONE: tl_buf_puts(out, "None"); break;
    case TL_V_BOOL: tl_buf_puts(out, v->b ? "True" : "False"); break;
    case TL_V_INT: tl_buf_printf(out, "%" PRId64, v->i); break;
    case TL_V_WIDE: repr_wide(out, v); break;
    case TL_V_FLOAT: repr_float(out, v->f); break;
    case TL_V_STR:
        if (quote) tl_buf_putc(out, '\'');
        tl_buf_putn(out, v->str.s, v->str.len);
        if (quote) tl_buf_putc(out, '\'');
        break;
    case TL_V_TUPLE:
    case TL_V_LIST:
        if (!repr_enter(out, v, p, v->kind == TL_V_TUPLE ? "(...)" : "[...]")) break;
        tl_buf_putc(out, v->kind == TL_V_TUPLE ? '(' : '[');
        for (int i = 0; i < v->seq.n; i++) {
            if (i) tl_buf_puts(out, ", ");
            repr_impl(out, v->seq.items[i], true, p);
        }
        if (v->kind == TL_V_TUPLE && v->seq.n == 1) tl_buf_putc(out, ',');
        tl_buf_putc(out, v->kind == TL_V_TUPLE ? ')' : ']');
        p->n--;
        break;
    case TL_V_DICT:
        if (!repr_enter(out, v, p, "{...}")) break;
        tl_buf_putc(out, '{');
        for (int i = 0; i < v->dict.n; i++) {
            if (i) tl_buf_puts(out, ", ");
            repr_impl(out, v->dict.keys[i], true, p);
            tl_buf_puts(out, ": ");
            repr_impl(out, v->dict.values[i], true, p);
        }
        tl_buf_putc(out, '}');
        p->n--;
        break;
    case TL_V_FUNC: tl_buf_printf(out, "<function %s>", v->func.name); break;
    case TL_V_BUILTIN: tl_buf_printf(out, "<built-in %s>", v->builtin.name); break;
    case TL_V_MODULE: tl_buf_printf(out, "<module %s>", v->module.name); break;
    case TL_V_OPAQUE: tl_buf_printf(out, "<%s>", v->opaque.what); break;
    case TL_V_DTYPE: tl_buf_puts(out, tl_dtype_name(v->dtype)); break;
    case TL_V_EXPR: tl_ir_print_expr(out, v->expr); break;
    case TL_V_BUFFER: tl_buf_puts(out, v->buffer->name); break;
    case TL_V_REGION: tl_ir_print_region(out, v->region); break;
    case TL_V_RANGE: tl_buf_puts(out, "<range>"); break;
    case TL_V_FRAME: tl_buf_puts(out, "<frame>"); break;
    case TL_V_KERNEL:
        tl_buf_printf(out, "<prim_func %s>", v->kernel.kernel ? v->kernel.kernel->name
                                                              : v->kernel.pending->func.name);
        break;
    case TL_V_JIT:
        tl_buf_printf(out, "<jit %s>", v->jit.factory ? v->jit.factory->func.name : "compiled");
        break;
    case TL_V_TENSORTYPE: tl_buf_printf(out, "T.Tensor(..., %s)", tl_dtype_name(v->tensortype.dtype)); break;
    case TL_V_ERROR: tl_buf_printf(out, "<error: %s>", v->error.message); break;
    case TL_V_COUNT: break;
    }
}

static void repr_top(tl_buf_t *out, const tl_value_t *v, bool quote)
{
    repr_path_t *p = malloc(sizeof *p);
    if (!p) {
        out->failed = true;
        return;
    }
    p->n = 0;
    repr_impl(out, v, quote, p);
    free(p);
}

void tl_value_repr(tl_buf_t *out, const tl_value_t *v)
{
    repr_top(out, v, true);
}

void tl_value_str_of(tl_buf_t *out, const tl_value_t *v)
{
    repr_top(out, v, false);
}
