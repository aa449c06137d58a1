// The evaluator's expression half: names, constants, operators, attributes,
// subscripts, displays, comprehensions and calls (user functions with Python
// argument binding, builtins, dtypes used as casts). Statements are in
// eval_stmt.c; the IR-building forms in trace.c.
#include "front/front.h"

#include <string.h>

enum { MAX_CALL_DEPTH = 200 };

void tl_eval_init(tl_eval_t *ev, tl_arena_t *a, tl_diag_t *d)
{
    memset(ev, 0, sizeof *ev);
    ev->arena = a;
    ev->diag = d;
    ev->max_steps = TL_EVAL_MAX_STEPS;
    tl_map_init(&ev->files, a);
    tl_map_init(&ev->vfs, a);
    tl_map_init(&ev->reverted, a);
}

tl_kernel_t *tl_eval_ir(tl_eval_t *ev)
{
    if (ev->kernel) return ev->kernel;
    if (!ev->scratch) ev->scratch = tl_ir_kernel_new(ev->arena, "<factory>", (tl_loc_t){0});
    return ev->scratch;
}

tl_env_t *tl_env_new(tl_eval_t *ev, tl_env_t *parent)
{
    tl_env_t *e = tl_arena_alloc(ev->arena, sizeof *e);
    tl_map_init(&e->names, ev->arena);
    e->parent = parent;
    return e;
}

tl_value_t *tl_env_lookup(tl_env_t *env, const char *name)
{
    for (; env; env = env->parent) {
        tl_value_t *v = tl_map_get(&env->names, name);
        if (v) return v;
    }
    return NULL;
}

void tl_env_set(tl_eval_t *ev, tl_env_t *env, const char *name, tl_value_t *v)
{
    tl_map_put(&env->names, tl_arena_strdup(ev->arena, name), v);
}

// --- names and constants -------------------------------------------------------------------

static tl_value_t *eval_name(tl_eval_t *ev, tl_frame_t *fr, const tl_ast_node_t *n)
{
    const char *id = n->name.id;
    tl_value_t *v = tl_env_lookup(fr->env, id);
    if (!v && ev->builtins) v = tl_value_module_get(ev->builtins, id);
    if (!v) {
        int d = 99;
        const char *near = NULL;
        if (strlen(id) >= 3) {
            for (tl_env_t *e = fr->env; e; e = e->parent) near = tl_eval_closest(&e->names, id, near, &d);
            if (ev->builtins) near = tl_eval_closest(ev->builtins->module.attrs, id, near, &d);
        }
        if (near) return tl_eval_fail(ev, n->loc, "name '%s' is not defined; did you mean '%s'?", id, near);
        return tl_eval_fail(ev, n->loc, "name '%s' is not defined", id);
    }
    if (ev->kernel && fr->traced) tl_trace_check_reverted(ev, fr, id, v, n->loc);
    if (v->kind == TL_V_ERROR) {
        tl_eval_fail(ev, n->loc, "'%s' cannot be used: %s", id, v->error.message);
        if (v->error.loc.line) tl_diag_note(ev->diag, v->error.loc, "the definition of '%s' failed here", id);
        return NULL;
    }
    return v;
}

static tl_value_t *eval_const(tl_eval_t *ev, const tl_ast_node_t *n)
{
    const tl_ast_const_t *c = &n->cst;
    switch (c->kind) {
    case TL_CONST_INT:
        if (c->big) return tl_eval_fail(ev, n->loc, "integer literal does not fit in 64 bits");
        return tl_value_int(ev->arena, c->i);
    case TL_CONST_FLOAT: return tl_value_float(ev->arena, c->f);
    case TL_CONST_STR: return tl_value_strn(ev->arena, c->s, c->len);
    case TL_CONST_BYTES: return tl_value_opaque(ev->arena, "bytes literal");
    case TL_CONST_BOOL: return tl_value_bool(c->i != 0);
    case TL_CONST_NONE: return tl_value_none();
    case TL_CONST_ELLIPSIS: return tl_value_opaque(ev->arena, "Ellipsis");
    }
    return NULL;
}

static tl_value_t *eval_fstring(tl_eval_t *ev, tl_frame_t *fr, const tl_ast_node_t *n)
{
    tl_buf_t b;
    tl_buf_init(&b);
    for (int i = 0; i < n->fstr.values.len; i++) {
        const tl_ast_node_t *part = n->fstr.values.items[i];
        if (part->kind == TL_AST_CONST) {
            tl_buf_putn(&b, part->cst.s, part->cst.len);
            continue;
        }
        tl_value_t *v = tl_eval_expr(ev, fr, part->fmt.value);
        if (!v) {
            tl_buf_free(&b);
            return NULL;
        }
        if (part->fmt.conv == 'r' || part->fmt.conv == 'a') { // !r: format the repr as a string
            tl_buf_t r;
            tl_buf_init(&r);
            tl_value_repr(&r, v);
            v = tl_value_strn(ev->arena, tl_buf_cstr(&r), r.len);
            tl_buf_free(&r);
        }
        tl_value_t *spec = part->fmt.spec ? eval_fstring(ev, fr, part->fmt.spec) : NULL;
        if ((part->fmt.spec && !spec) ||
            !tl_eval_format(ev, &b, v, spec ? spec->str.s : NULL, part->fmt.spec ? part->fmt.spec->loc : part->loc)) {
            tl_buf_free(&b);
            return NULL;
        }
    }
    tl_value_t *r = tl_value_strn(ev->arena, tl_buf_cstr(&b), b.len);
    tl_buf_free(&b);
    return r;
}

// --- operators ------------------------------------------------------------------------------

static int pyop_of_binop(tl_ast_binop_t op)
{
    switch (op) {
    case TL_BINOP_ADD: return TL_BIN_ADD;
    case TL_BINOP_SUB: return TL_BIN_SUB;
    case TL_BINOP_MUL: return TL_BIN_MUL;
    case TL_BINOP_DIV: return TL_PYOP_TRUEDIV;
    case TL_BINOP_FLOORDIV: return TL_PYOP_FLOORDIV;
    case TL_BINOP_MOD: return TL_BIN_MOD;
    case TL_BINOP_POW: return TL_BIN_POW;
    case TL_BINOP_MATMUL: return TL_PYOP_MATMUL;
    case TL_BINOP_LSHIFT: return TL_BIN_SHL;
    case TL_BINOP_RSHIFT: return TL_BIN_SHR;
    case TL_BINOP_BITAND: return TL_BIN_AND;
    case TL_BINOP_BITOR: return TL_BIN_OR;
    case TL_BINOP_BITXOR: return TL_BIN_XOR;
    }
    return TL_BIN_ADD;
}

int tl_eval_pyop_of_ast(int ast_binop)
{
    return pyop_of_binop((tl_ast_binop_t)ast_binop);
}

static int pyop_of_cmp(tl_ast_cmpop_t op)
{
    switch (op) {
    case TL_CMP_EQ: return TL_BIN_EQ;
    case TL_CMP_NE: return TL_BIN_NE;
    case TL_CMP_LT: return TL_BIN_LT;
    case TL_CMP_LE: return TL_BIN_LE;
    case TL_CMP_GT: return TL_BIN_GT;
    case TL_CMP_GE: return TL_BIN_GE;
    case TL_CMP_IS: return TL_PYOP_IS;
    case TL_CMP_IS_NOT: return TL_PYOP_IS_NOT;
    case TL_CMP_IN: return TL_PYOP_IN;
    case TL_CMP_NOT_IN: return TL_PYOP_NOT_IN;
    }
    return TL_BIN_EQ;
}

static tl_value_t *ir_logic(tl_eval_t *ev, tl_binop_t op, tl_value_t *a, tl_value_t *b, tl_loc_t loc)
{
    tl_kernel_t *k = tl_eval_ir(ev);
    tl_expr_t *x = tl_value_to_expr(ev, a, loc, -1), *y = tl_value_to_expr(ev, b, loc, -1);
    if (!x || !y) return NULL;
    return tl_value_expr(ev->arena, tl_ir_bin(k, op, x, y, loc));
}

// `a and b or c`: Python short-circuit on Python values, IR and/or otherwise.
static tl_value_t *eval_boolop(tl_eval_t *ev, tl_frame_t *fr, const tl_ast_node_t *n)
{
    bool is_and = n->boolop.op == TL_BOOLOP_AND;
    tl_value_t *acc = NULL;
    for (int i = 0; i < n->boolop.values.len; i++) {
        const tl_ast_node_t *item = n->boolop.values.items[i];
        tl_value_t *v = tl_eval_expr(ev, fr, item);
        if (!v) return NULL;
        if (acc && acc->kind == TL_V_EXPR) {
            acc = ir_logic(ev, is_and ? TL_BIN_LAND : TL_BIN_LOR, acc, v, item->loc);
            if (!acc) return NULL;
            continue;
        }
        if (v->kind == TL_V_OPAQUE && !ev->kernel) return v; // driver code: the result is unknown too
        bool is_expr = false, ok = true;
        bool t = tl_eval_cond(ev, fr, &v, item->loc, &is_expr, &ok);
        if (!ok) return NULL;
        if (is_expr) {
            acc = acc ? ir_logic(ev, is_and ? TL_BIN_LAND : TL_BIN_LOR, acc, v, item->loc) : v;
            if (!acc) return NULL;
            continue;
        }
        if (is_and ? !t : t) return v; // short circuit
        acc = v;
    }
    return acc;
}

// `a < b < c` in a traced frame: TVM's evaluator folds the chain left to right,
// `(a < b) < c`, with Python's operators between Python values (eval_tvm.c);
// with a TVM expression it then compares a bool node with c, which tir's
// comparison constructors refuse (mismatched types): an error here.
static tl_value_t *tvm_compare_chain(tl_eval_t *ev, tl_frame_t *fr, const tl_ast_node_t *n)
{
    tl_value_t *acc = tl_eval_expr(ev, fr, n->cmp.left);
    bool prim = acc && tl_tvm_is_prim(acc);
    int nc = n->cmp.comparators.len;
    tl_value_t **vals = tl_arena_alloc(ev->arena, sizeof *vals * (size_t)nc);
    for (int i = 0; acc && i < nc; i++) {
        vals[i] = tl_eval_expr(ev, fr, n->cmp.comparators.items[i]);
        if (!vals[i]) return NULL;
        prim = prim || tl_tvm_is_prim(vals[i]);
    }
    if (!acc) return NULL;
    if (prim)
        return tl_eval_fail(ev, n->loc,
                            "a chained comparison of a TVM expression in a kernel: TVM's parser "
                            "reads `a < b < c` as `(a < b) < c`, a bool compared with c, and "
                            "refuses it (mismatched types); write `a < b and b < c`");
    for (int i = 0; acc && i < nc; i++)
        acc = tl_eval_binop(ev, pyop_of_cmp(n->cmp.ops[i]), acc, vals[i],
                            n->cmp.comparators.items[i]->loc);
    return acc;
}

static tl_value_t *eval_compare(tl_eval_t *ev, tl_frame_t *fr, const tl_ast_node_t *n)
{
    if (ev->kernel && fr->traced && n->cmp.comparators.len > 1) return tvm_compare_chain(ev, fr, n);
    tl_value_t *left = tl_eval_expr(ev, fr, n->cmp.left);
    if (!left) return NULL;
    tl_value_t *result = NULL;
    bool node = false; // TVM's parser builds a comparison node (eval_tvm.c)
    for (int i = 0; i < n->cmp.comparators.len; i++) {
        const tl_ast_node_t *rn = n->cmp.comparators.items[i];
        // `a < b < c` is `a < b and b < c`: c is not evaluated when a < b is false.
        if (result && result->kind == TL_V_BOOL && !result->b) return result;
        tl_value_t *right = tl_eval_expr(ev, fr, rn);
        if (!right) return NULL;
        int op = pyop_of_cmp(n->cmp.ops[i]);
        tl_value_t *r = tl_eval_binop(ev, op, left, right, rn->loc);
        if (!r) return NULL;
        r = tl_tvm_python_compare(ev, fr, op, left, right, r);
        bool prim = tl_tvm_is_prim(left) || tl_tvm_is_prim(right);
        if (ev->kernel && fr->traced && prim) node = true;
        if (!result) result = r;
        else if (result->kind == TL_V_EXPR || r->kind == TL_V_EXPR) {
            result = ir_logic(ev, TL_BIN_LAND, result, r, rn->loc);
            if (!result) return NULL;
        } else if (result->kind == TL_V_BOOL && !result->b) {
            return result;
        } else {
            result = r;
        }
        left = right;
    }
    return node ? tl_tvm_node(ev, result) : result;
}

static tl_value_t *eval_ifexp(tl_eval_t *ev, tl_frame_t *fr, const tl_ast_node_t *n)
{
    tl_value_t *c = tl_eval_expr(ev, fr, n->ifexp.test);
    if (!c) return NULL;
    if (c->kind == TL_V_OPAQUE && !ev->kernel) return c; // driver code: which arm is unknown
    if (ev->kernel && fr->traced && !tl_tvm_check_truth(ev, c, n->ifexp.test->loc)) return NULL;
    bool is_expr = false, ok = true;
    bool t = tl_eval_cond(ev, fr, &c, n->ifexp.test->loc, &is_expr, &ok);
    if (!ok) return NULL;
    if (!is_expr) return tl_eval_expr(ev, fr, t ? n->ifexp.body : n->ifexp.orelse);
    tl_value_t *a = tl_eval_expr(ev, fr, n->ifexp.body);
    tl_value_t *b = a ? tl_eval_expr(ev, fr, n->ifexp.orelse) : NULL;
    if (!b) return NULL;
    tl_expr_t *x = tl_value_to_expr(ev, a, n->ifexp.body->loc, -1);
    tl_expr_t *y = x ? tl_value_to_expr(ev, b, n->ifexp.orelse->loc, x->dtype) : NULL;
    if (!y) return NULL;
    tl_expr_t *cond = tl_value_to_expr(ev, c, n->ifexp.test->loc, -1);
    if (!cond) return NULL;
    return tl_value_expr(ev->arena, tl_ir_select(tl_eval_ir(ev), cond, x, y, n->loc));
}

// --- sequences ------------------------------------------------------------------------------

// Evaluates a display or argument list, expanding `*iterable` elements.
static bool eval_list(tl_eval_t *ev, tl_frame_t *fr, const tl_ast_list_t *l, tl_value_t *out)
{
    for (int i = 0; i < l->len; i++) {
        const tl_ast_node_t *e = l->items[i];
        if (e->kind == TL_AST_STARRED) {
            tl_value_t *v = tl_eval_expr(ev, fr, e->starred.value);
            if (!v) return false;
            tl_value_t *items = tl_eval_iterate(ev, v, e->loc);
            if (!items) return false;
            for (int k = 0; k < items->seq.n; k++)
                tl_value_list_append(ev->arena, out, items->seq.items[k]);
            continue;
        }
        tl_value_t *v = tl_eval_expr(ev, fr, e);
        if (!v) return false;
        tl_value_list_append(ev->arena, out, v);
    }
    return true;
}

// Materialises a Python iterable (list, tuple, str, dict keys, Python range).
tl_value_t *tl_eval_iterate(tl_eval_t *ev, tl_value_t *v, tl_loc_t loc)
{
    tl_value_t *list = tl_value_list(ev->arena, 0, NULL);
    switch (v->kind) {
    case TL_V_TUPLE:
    case TL_V_LIST:
        for (int i = 0; i < v->seq.n; i++) tl_value_list_append(ev->arena, list, v->seq.items[i]);
        return list;
    case TL_V_DICT:
        for (int i = 0; i < v->dict.n; i++) tl_value_list_append(ev->arena, list, v->dict.keys[i]);
        return list;
    case TL_V_STR:
        for (size_t i = 0; i < v->str.len; i++)
            tl_value_list_append(ev->arena, list, tl_value_strn(ev->arena, v->str.s + i, 1));
        return list;
    case TL_V_RANGE: {
        int64_t a, b, s = 1;
        if (!v->range.python || v->range.ndim != 1 ||
            !tl_value_to_int(ev, v->range.start, loc, "range start", &a) ||
            !tl_value_to_int(ev, v->range.stop, loc, "range stop", &b) ||
            (v->range.step && !tl_value_to_int(ev, v->range.step, loc, "range step", &s)))
            return tl_eval_fail(ev, loc, "this range can only be used as a kernel loop");
        if (s == 0) return tl_eval_fail(ev, loc, "range() step must not be zero");
        if ((b - a) / s > (1 << 22)) return tl_eval_fail(ev, loc, "range too long to unroll at compile time");
        for (int64_t i = a; s > 0 ? i < b : i > b; i += s)
            tl_value_list_append(ev->arena, list, tl_value_int(ev->arena, i));
        return list;
    }
    case TL_V_ERROR: return tl_eval_fail(ev, loc, "%s", v->error.message);
    default:
        return tl_eval_fail(ev, loc, "'%s' object is not iterable at compile time",
                            tl_value_type_name(v));
    }
}

static tl_value_t *eval_dict(tl_eval_t *ev, tl_frame_t *fr, const tl_ast_node_t *n)
{
    tl_value_t *d = tl_value_dict(ev->arena);
    for (int i = 0; i < n->dict.values.len; i++) {
        tl_value_t *v = tl_eval_expr(ev, fr, n->dict.values.items[i]);
        if (!v) return NULL;
        const tl_ast_node_t *kn = n->dict.keys.items[i];
        if (!kn) { // **other
            if (v->kind != TL_V_DICT) return tl_eval_fail(ev, n->loc, "'**' needs a dict");
            for (int k = 0; k < v->dict.n; k++)
                tl_value_dict_set(ev->arena, d, v->dict.keys[k], v->dict.values[k]);
            continue;
        }
        tl_value_t *key = tl_eval_expr(ev, fr, kn);
        if (!key) return NULL;
        tl_value_dict_set(ev->arena, d, key, v);
    }
    return d;
}

// One generator clause level of a comprehension.
static bool comp_level(tl_eval_t *ev, tl_frame_t *fr, const tl_ast_node_t *n, int level,
                       tl_value_t *out)
{
    if (level == n->comp.gens.len) {
        if (n->kind == TL_AST_DICTCOMP) {
            tl_value_t *k = tl_eval_expr(ev, fr, n->comp.elt);
            tl_value_t *v = k ? tl_eval_expr(ev, fr, n->comp.value) : NULL;
            if (!v) return false;
            tl_value_dict_set(ev->arena, out, k, v);
            return true;
        }
        tl_value_t *v = tl_eval_expr(ev, fr, n->comp.elt);
        if (!v) return false;
        tl_value_list_append(ev->arena, out, v);
        return true;
    }
    const tl_ast_node_t *g = n->comp.gens.items[level];
    tl_value_t *it = tl_eval_expr(ev, fr, g->gen.iter);
    if (!it) return false;
    if (it->kind == TL_V_OPAQUE && !ev->kernel) { // [f(x) for x in tensor.tolist()]: unknown
        ev->comp_unknown = it;
        return true;
    }
    tl_value_t *items = tl_eval_iterate(ev, it, g->gen.iter->loc);
    if (!items) return false;
    for (int i = 0; i < items->seq.n; i++) {
        if (!tl_eval_assign(ev, fr, g->gen.target, items->seq.items[i])) return false;
        bool keep = true;
        for (int c = 0; c < g->gen.ifs.len && keep; c++) {
            tl_value_t *cv = tl_eval_expr(ev, fr, g->gen.ifs.items[c]);
            if (!cv || !tl_value_to_bool(ev, cv, g->gen.ifs.items[c]->loc, "a comprehension condition", &keep))
                return false;
        }
        if (keep && !comp_level(ev, fr, n, level + 1, out)) return false;
    }
    return true;
}

static tl_value_t *eval_comprehension(tl_eval_t *ev, tl_frame_t *fr, const tl_ast_node_t *n)
{
    tl_frame_t inner = *fr;
    inner.env = tl_env_new(ev, fr->env);
    tl_value_t *out = n->kind == TL_AST_DICTCOMP ? tl_value_dict(ev->arena) : tl_value_list(ev->arena, 0, NULL);
    tl_value_t *saved = ev->comp_unknown;
    ev->comp_unknown = NULL;
    bool ok = comp_level(ev, &inner, n, 0, out);
    tl_value_t *unknown = ev->comp_unknown;
    ev->comp_unknown = saved;
    if (!ok) return NULL;
    if (unknown)
        return tl_value_opaque(ev->arena, tl_arena_printf(ev->arena, "a comprehension over '%s'", unknown->opaque.what));
    if (n->kind == TL_AST_GENEXP) out->kind = TL_V_TUPLE; // consumed like a sequence
    return out;
}

// --- subscripts -----------------------------------------------------------------------------

static bool norm_index(tl_eval_t *ev, int64_t *i, int64_t len, tl_loc_t loc)
{
    if (*i < 0) *i += len;
    if (*i < 0 || *i >= len) {
        tl_eval_fail(ev, loc, "index out of range (length %lld)", (long long)len);
        return false;
    }
    return true;
}

static tl_value_t *slice_seq(tl_eval_t *ev, tl_frame_t *fr, tl_value_t *seq, const tl_ast_node_t *s)
{
    int64_t len = seq->kind == TL_V_STR ? (int64_t)seq->str.len : seq->seq.n;
    int64_t step = 1, lo, hi;
    tl_value_t *v;
    if (s->slice.step) {
        if (!(v = tl_eval_expr(ev, fr, s->slice.step)) ||
            !tl_value_to_int(ev, v, s->slice.step->loc, "a slice step", &step))
            return NULL;
        if (step == 0) return tl_eval_fail(ev, s->loc, "slice step cannot be zero");
    }
    lo = step > 0 ? 0 : len - 1;
    hi = step > 0 ? len : -1;
    if (s->slice.lower) {
        if (!(v = tl_eval_expr(ev, fr, s->slice.lower)) ||
            !tl_value_to_int(ev, v, s->slice.lower->loc, "a slice bound", &lo))
            return NULL;
        if (lo < 0) lo += len;
        lo = step > 0 ? TL_MAX(0, TL_MIN(lo, len)) : TL_MAX(-1, TL_MIN(lo, len - 1));
    }
    if (s->slice.upper) {
        if (!(v = tl_eval_expr(ev, fr, s->slice.upper)) ||
            !tl_value_to_int(ev, v, s->slice.upper->loc, "a slice bound", &hi))
            return NULL;
        if (hi < 0) hi += len;
        hi = step > 0 ? TL_MAX(0, TL_MIN(hi, len)) : TL_MAX(-1, TL_MIN(hi, len - 1));
    }
    if (seq->kind == TL_V_STR) {
        tl_buf_t b;
        tl_buf_init(&b);
        for (int64_t i = lo; step > 0 ? i < hi : i > hi; i += step) tl_buf_putc(&b, seq->str.s[i]);
        tl_value_t *r = tl_value_strn(ev->arena, tl_buf_cstr(&b), b.len);
        tl_buf_free(&b);
        return r;
    }
    tl_value_t *out = tl_value_list(ev->arena, 0, NULL);
    for (int64_t i = lo; step > 0 ? i < hi : i > hi; i += step)
        tl_value_list_append(ev->arena, out, seq->seq.items[i]);
    out->kind = seq->kind;
    return out;
}

static tl_value_t *eval_subscript(tl_eval_t *ev, tl_frame_t *fr, const tl_ast_node_t *n)
{
    tl_value_t *obj = tl_eval_expr(ev, fr, n->sub.value);
    if (!obj) return NULL;
    const tl_ast_node_t *ix = n->sub.index;
    if (obj->kind == TL_V_BUFFER) return tl_trace_subscript(ev, fr, obj, ix, n->loc);
    if (obj->kind == TL_V_BUILTIN && obj->builtin.fn) {
        // Generic aliases like T.Tensor[shape, dtype] or Literal[...]: call with the items.
        tl_value_t *args = tl_value_list(ev->arena, 0, NULL);
        if (ix->kind == TL_AST_TUPLE) {
            if (!eval_list(ev, fr, &ix->seq.elts, args)) return NULL;
        } else {
            tl_value_t *v = tl_eval_expr(ev, fr, ix);
            if (!v) return NULL;
            tl_value_list_append(ev->arena, args, v);
        }
        tl_call_t call = {.nargs = args->seq.n, .args = args->seq.items, .loc = n->loc};
        return tl_eval_call(ev, obj, &call);
    }
    if (obj->kind == TL_V_OPAQUE) {
        tl_buf_t b;
        tl_buf_init(&b);
        tl_buf_printf(&b, "%s[...]", obj->opaque.what);
        tl_value_t *r = tl_value_opaque(ev->arena, tl_buf_cstr(&b));
        tl_buf_free(&b);
        return r;
    }
    if ((obj->kind == TL_V_TUPLE || obj->kind == TL_V_LIST || obj->kind == TL_V_STR) &&
        ix->kind == TL_AST_SLICE)
        return slice_seq(ev, fr, obj, ix);
    tl_value_t *key = tl_eval_expr(ev, fr, ix);
    if (!key) return NULL;
    switch (obj->kind) {
    case TL_V_TUPLE:
    case TL_V_LIST: {
        int64_t i;
        if (!tl_value_to_int(ev, key, ix->loc, "a list index", &i) ||
            !norm_index(ev, &i, obj->seq.n, ix->loc))
            return NULL;
        return obj->seq.items[i];
    }
    case TL_V_STR: {
        int64_t i;
        if (!tl_value_to_int(ev, key, ix->loc, "a string index", &i) ||
            !norm_index(ev, &i, (int64_t)obj->str.len, ix->loc))
            return NULL;
        return tl_value_strn(ev->arena, obj->str.s + i, 1);
    }
    case TL_V_DICT: {
        tl_value_t *v = tl_value_dict_get(obj, key);
        // a key tilec does not know (x.dtype of a torch tensor): so is the value
        if (!v && key->kind == TL_V_OPAQUE && !tl_value_is_attr_path(key)) return key;
        if (!v) {
            tl_buf_t b;
            tl_buf_init(&b);
            tl_value_repr(&b, key);
            tl_eval_fail(ev, ix->loc, "key %s is not in the dict", tl_buf_cstr(&b));
            tl_buf_free(&b);
        }
        return v;
    }
    default:
        return tl_eval_fail(ev, n->loc, "'%s' object is not subscriptable", tl_value_type_name(obj));
    }
}

// --- calls ----------------------------------------------------------------------------------

static tl_value_t *eval_call(tl_eval_t *ev, tl_frame_t *fr, const tl_ast_node_t *n)
{
    const char *hint = ev->name_hint;
    ev->name_hint = NULL; // only the outermost call of `x = f(...)` gets the name
    tl_value_t *fn = tl_eval_expr(ev, fr, n->call.func);
    if (!fn) return NULL;
    int cap = n->call.args.len + 1;
    tl_value_t *args = tl_value_list(ev->arena, 0, NULL);
    tl_loc_t *locs = tl_arena_alloc(ev->arena, sizeof *locs * (size_t)cap);
    for (int i = 0; i < n->call.args.len; i++) {
        const tl_ast_node_t *a = n->call.args.items[i];
        int before = args->seq.n;
        tl_ast_list_t one = {(tl_ast_node_t **)&n->call.args.items[i], 1};
        if (!eval_list(ev, fr, &one, args)) return NULL;
        if (args->seq.n > cap) {
            locs = tl_arena_grow(ev->arena, locs, sizeof *locs, (size_t)cap, (size_t)args->seq.n * 2);
            cap = args->seq.n * 2;
        }
        for (int k = before; k < args->seq.n; k++) locs[k] = a->loc;
    }
    int nkw = 0, kcap = n->call.keywords.len + 1;
    const char **kw_names = tl_arena_alloc(ev->arena, sizeof(char *) * (size_t)kcap);
    tl_value_t **kw_values = tl_arena_alloc(ev->arena, sizeof(tl_value_t *) * (size_t)kcap);
    tl_loc_t *kw_locs = tl_arena_alloc(ev->arena, sizeof(tl_loc_t) * (size_t)kcap);
    for (int i = 0; i < n->call.keywords.len; i++) {
        const tl_ast_node_t *kw = n->call.keywords.items[i];
        tl_value_t *v = tl_eval_expr(ev, fr, kw->keyword.value);
        if (!v) return NULL;
        if (!kw->keyword.arg) { // **kwargs
            if (v->kind != TL_V_DICT) return tl_eval_fail(ev, kw->loc, "'**' argument must be a dict");
            int need = nkw + v->dict.n + 1;
            if (need > kcap) {
                kw_names = tl_arena_grow(ev->arena, kw_names, sizeof(char *), (size_t)kcap, (size_t)need);
                kw_values = tl_arena_grow(ev->arena, kw_values, sizeof(tl_value_t *), (size_t)kcap, (size_t)need);
                kw_locs = tl_arena_grow(ev->arena, kw_locs, sizeof(tl_loc_t), (size_t)kcap, (size_t)need);
                kcap = need;
            }
            for (int k = 0; k < v->dict.n; k++) {
                const char *name = tl_value_to_cstr(ev, v->dict.keys[k], kw->loc, "a keyword name");
                if (!name) return NULL;
                kw_names[nkw] = name;
                kw_locs[nkw] = kw->loc;
                kw_values[nkw++] = v->dict.values[k];
            }
            continue;
        }
        kw_names[nkw] = kw->keyword.arg;
        kw_locs[nkw] = kw->loc;
        kw_values[nkw++] = v;
    }
    tl_call_t call = {args->seq.n, args->seq.items, locs, nkw, kw_names, kw_values, kw_locs,
                      n->loc, hint, NULL};
    return tl_eval_call(ev, fn, &call);
}

// Binds call arguments to a user function's parameters (Python rules).
static bool bind_params(tl_eval_t *ev, tl_value_t *fn, tl_call_t *c, tl_env_t *env)
{
    const tl_ast_node_t *def = fn->func.def;
    const tl_ast_list_t *params = def->kind == TL_AST_LAMBDA ? &def->lambda.params : &def->def.params;
    const char *fname = fn->func.name;
    int np = params->len, pos = 0;
    bool *bound = tl_arena_alloc(ev->arena, (size_t)np + 1);
    const tl_ast_node_t *varargs = NULL, *kwargs = NULL;
    for (int i = 0; i < np; i++) {
        const tl_ast_node_t *p = params->items[i];
        if (p->param.kind == TL_PARAM_VARARG) varargs = p;
        else if (p->param.kind == TL_PARAM_KWARG) kwargs = p;
    }
    int argi = 0;
    for (int i = 0; i < np && argi < c->nargs; i++) {
        const tl_ast_node_t *p = params->items[i];
        if (p->param.kind != TL_PARAM_POSONLY && p->param.kind != TL_PARAM_NORMAL) break;
        tl_env_set(ev, env, p->param.name, c->args[argi++]);
        bound[i] = true;
        pos++;
    }
    if (argi < c->nargs) {
        if (!varargs) {
            tl_eval_fail(ev, c->arg_locs ? c->arg_locs[argi] : c->loc,
                         "%s() takes %d positional argument%s but %d were given", fname, pos,
                         pos == 1 ? "" : "s", c->nargs);
            return false;
        }
    }
    if (varargs)
        tl_env_set(ev, env, varargs->param.name,
                   tl_value_tuple(ev->arena, c->nargs - argi, c->args + argi));
    tl_value_t *extra = kwargs ? tl_value_dict(ev->arena) : NULL;
    for (int k = 0; k < c->nkw; k++) {
        int found = -1;
        for (int i = 0; i < np; i++) {
            const tl_ast_node_t *p = params->items[i];
            if ((p->param.kind == TL_PARAM_NORMAL || p->param.kind == TL_PARAM_KWONLY) &&
                !strcmp(p->param.name, c->kw_names[k]))
                found = i;
        }
        if (found < 0) {
            if (extra) {
                tl_value_dict_set(ev->arena, extra, tl_value_str(ev->arena, c->kw_names[k]), c->kw_values[k]);
                continue;
            }
            tl_eval_fail(ev, c->kw_locs ? c->kw_locs[k] : c->loc,
                         "%s() got an unexpected keyword argument '%s'", fname, c->kw_names[k]);
            return false;
        }
        if (bound[found]) {
            tl_eval_fail(ev, c->kw_locs ? c->kw_locs[k] : c->loc,
                         "%s() got multiple values for argument '%s'", fname, c->kw_names[k]);
            return false;
        }
        tl_env_set(ev, env, c->kw_names[k], c->kw_values[k]);
        bound[found] = true;
    }
    if (kwargs) tl_env_set(ev, env, kwargs->param.name, extra);
    for (int i = 0; i < np; i++) {
        const tl_ast_node_t *p = params->items[i];
        if (bound[i] || p->param.kind == TL_PARAM_VARARG || p->param.kind == TL_PARAM_KWARG) continue;
        if (fn->func.defaults && fn->func.defaults[i]) {
            tl_env_set(ev, env, p->param.name, fn->func.defaults[i]);
            continue;
        }
        const tl_loc_t *dl = &def->loc;
        if (c->loc.src == dl->src && c->loc.line == dl->line && c->loc.col == dl->col) {
            tl_eval_fail(ev, p->loc, "%s() missing required argument '%s': it has no default and the file "
                                     "never calls '%s' with compile-time values; give it with -a %s=VALUE",
                         fname, p->param.name, fname, p->param.name);
            if (ev->dropped_why && ev->dropped_branch) // a call in a branch tilec did not take
                tl_diag_note(ev->diag, ev->dropped_at,
                             "tilec took neither branch of this driver code (%s), so a call inside it did not run",
                             ev->dropped_why);
            else if (ev->dropped_why) // the driver code that might have called it stopped early
                tl_diag_note(
                    ev->diag, ev->dropped_at,
                    "the file's driver code stopped here while tilec loaded it (%s), so a call "
                    "after this point did not run",
                    ev->dropped_why);
        } else
            tl_eval_fail(ev, c->loc, "%s() missing required argument '%s'", fname, p->param.name);
        return false;
    }
    return true;
}

// "in 'f' called with a=1, b='x'" (a call with no call site: a factory).
static void note_arguments(tl_eval_t *ev, tl_value_t *fn, tl_env_t *env)
{
    const tl_ast_list_t *params = &fn->func.def->def.params;
    tl_buf_t b;
    tl_buf_init(&b);
    for (int i = 0; i < params->len; i++) {
        const char *name = params->items[i]->param.name;
        tl_value_t *v = tl_map_get(&env->names, name);
        if (!v) continue;
        tl_buf_printf(&b, "%s%s=", b.len ? ", " : "", name);
        size_t before = b.len;
        tl_value_repr(&b, v);
        if (b.len - before > 40) { // keep the note on one line
            b.len = before + 37;
            tl_buf_puts(&b, "...");
        }
    }
    tl_diag_note(ev->diag, fn->func.def->loc, "in '%s' called with %s", fn->func.name,
                 b.len ? tl_buf_cstr(&b) : "no arguments");
    tl_buf_free(&b);
}

static tl_value_t *call_function(tl_eval_t *ev, tl_value_t *fn, tl_call_t *c)
{
    if (ev->call_depth >= MAX_CALL_DEPTH)
        return tl_eval_fail(ev, c->loc, "recursion too deep (%d calls) at compile time", ev->call_depth);
    tl_frame_t fr = {0};
    fr.env = tl_env_new(ev, fn->func.closure);
    fr.dir = fn->func.module_dir;
    fr.traced = fn->func.is_macro;
    if (ev->deferring && !fn->func.first_call) fn->func.first_call = tl_call_copy(ev, c);
    if (!bind_params(ev, fn, c, fr.env)) return NULL;
    ev->call_depth++;
    tl_value_t *result;
    if (fn->func.def->kind == TL_AST_LAMBDA) {
        result = tl_eval_expr(ev, &fr, fn->func.def->lambda.body);
    } else {
        tl_flow_t f = tl_exec_body(ev, &fr, &fn->func.def->def.body);
        if (f == TL_FLOW_ERROR) result = NULL;
        else if (f == TL_FLOW_BREAK || f == TL_FLOW_CONTINUE)
            result = tl_eval_fail(ev, c->loc, "'break' or 'continue' outside a loop");
        else result = fr.ret ? fr.ret : tl_value_none();
    }
    ev->call_depth--;
    // Remember which builder made a kernel, for the tilelang.compile settings.
    if (ev->deferring && result && result->kind == TL_V_KERNEL && !result->kernel.builder) {
        result->kernel.builder = fn;
        result->kernel.builder_call = tl_call_copy(ev, c);
    }
    if (!result && ev->diag->nerrors && fn->func.def->kind != TL_AST_LAMBDA) {
        const tl_loc_t *dl = &fn->func.def->loc;
        if (c->loc.src == dl->src && c->loc.line == dl->line && c->loc.col == dl->col)
            note_arguments(ev, fn, fr.env); // the call tilec made itself (factory defaults, -a)
        else if (ev->noted_fn != fn || ev->noted_loc.line != c->loc.line || ev->noted_loc.col != c->loc.col)
            tl_diag_note(ev->diag, c->loc, "in the call of '%s' here", fn->func.name);
        ev->noted_fn = fn; // a recursion notes its call site once
        ev->noted_loc = c->loc;
    }
    return result;
}

tl_value_t *tl_eval_bind_method(tl_eval_t *ev, tl_value_t *v, tl_value_t *inst)
{
    if (v->kind != TL_V_FUNC || v->func.def->kind != TL_AST_FUNCTIONDEF) return v;
    const tl_ast_list_t *decos = &v->func.def->def.decorators;
    for (int d = 0; d < decos->len; d++) {
        const tl_ast_node_t *dn = decos->items[d];
        if (dn->kind != TL_AST_NAME) continue;
        if (!strcmp(dn->name.id, "staticmethod")) return v;
        if (!strcmp(dn->name.id, "classmethod")) inst = inst->module.cls;
    }
    tl_value_t *m = tl_arena_alloc(ev->arena, sizeof *m);
    *m = *v;
    m->func.self = inst;
    return m;
}

// The call `c` with `self` put before its positional arguments.
static tl_call_t *with_self(tl_eval_t *ev, const tl_call_t *c, tl_value_t *self)
{
    tl_call_t *m = tl_arena_alloc(ev->arena, sizeof *m);
    *m = *c;
    m->self = NULL;
    m->nargs = c->nargs + 1;
    m->args = tl_arena_alloc(ev->arena, sizeof(tl_value_t *) * (size_t)m->nargs);
    m->args[0] = self;
    for (int i = 0; i < c->nargs; i++) m->args[i + 1] = c->args[i];
    if (c->arg_locs) {
        m->arg_locs = tl_arena_alloc(ev->arena, sizeof(tl_loc_t) * (size_t)m->nargs);
        m->arg_locs[0] = c->loc;
        for (int i = 0; i < c->nargs; i++) m->arg_locs[i + 1] = c->arg_locs[i];
    }
    return m;
}

// Cls(...): a new instance, initialised by the class's __init__ when it has one.
static tl_value_t *instantiate(tl_eval_t *ev, tl_value_t *cls, tl_call_t *call)
{
    tl_value_t *inst = tl_value_module(ev->arena, cls->module.name);
    inst->module.cls = cls;
    tl_value_t *init = tl_value_module_get(cls, "__init__");
    if (init && init->kind == TL_V_FUNC && !call_function(ev, init, with_self(ev, call, inst)))
        return NULL;
    return inst;
}

tl_value_t *tl_eval_call(tl_eval_t *ev, tl_value_t *fn, tl_call_t *call)
{
    switch (fn->kind) {
    case TL_V_FUNC:
        return call_function(ev, fn, fn->func.self ? with_self(ev, call, fn->func.self) : call);
    case TL_V_BUILTIN:
        if (!call->self) call->self = fn->builtin.self;
        return fn->builtin.fn(ev, call);
    case TL_V_DTYPE: {
        // T.float32(x): a typed constant or a cast.
        tl_value_t *x = tl_call_arg(call, 0, NULL);
        if (!x) {
            // Bare T.float32() appears nowhere; T.float32 alone is a dtype value.
            return tl_eval_fail(ev, call->loc, "%s() needs a value", tl_dtype_name(fn->dtype));
        }
        if (!tl_value_is_exprlike(x))
            return tl_eval_fail(ev, call->loc, "cannot convert %s to %s", tl_value_type_name(x),
                                tl_dtype_name(fn->dtype));
        tl_expr_t *e = tl_value_to_expr(ev, x, call->loc, fn->dtype);
        if (!e) return NULL;
        return tl_value_expr(ev->arena, tl_ir_cast(tl_eval_ir(ev), fn->dtype, e, call->loc));
    }
    case TL_V_OPAQUE: {
        tl_buf_t b;
        tl_buf_init(&b);
        tl_buf_printf(&b, "%s(...)", fn->opaque.what);
        tl_value_t *r = tl_value_opaque(ev->arena, tl_buf_cstr(&b));
        tl_buf_free(&b);
        return r;
    }
    case TL_V_JIT: return tl_front_call_jit(ev, fn, call);
    case TL_V_KERNEL: return tl_value_opaque(ev->arena, "kernel launch result");
    case TL_V_ERROR: return tl_eval_fail(ev, call->loc, "%s", fn->error.message);
    case TL_V_MODULE: {
        if (fn->module.is_class) return instantiate(ev, fn, call);
        // An instance: its class's __call__, bound to it.
        tl_value_t *ctor = fn->module.cls ? tl_value_module_get(fn->module.cls, "__call__") : NULL;
        if (ctor) return tl_eval_call(ev, tl_eval_bind_method(ev, ctor, fn), call);
        return tl_value_opaque(ev->arena, fn->module.name);
    }
    default:
        return tl_eval_fail(ev, call->loc, "'%s' object is not callable", tl_value_type_name(fn));
    }
}

tl_value_t *tl_eval_make_function(tl_eval_t *ev, tl_frame_t *fr, const tl_ast_node_t *def)
{
    tl_value_t *f = tl_value_new(ev->arena, TL_V_FUNC);
    bool lambda = def->kind == TL_AST_LAMBDA;
    f->func.name = lambda ? "<lambda>" : def->def.name;
    f->func.def = def;
    f->func.closure = fr->env;
    f->func.module_dir = fr->dir;
    const tl_ast_list_t *params = lambda ? &def->lambda.params : &def->def.params;
    if (params->len) {
        f->func.defaults = tl_arena_alloc(ev->arena, sizeof(tl_value_t *) * (size_t)params->len);
        for (int i = 0; i < params->len; i++) {
            const tl_ast_node_t *p = params->items[i];
            if (!p->param.default_value) continue;
            tl_value_t *d = tl_eval_expr(ev, fr, p->param.default_value);
            if (!d) return NULL;
            f->func.defaults[i] = d;
        }
    }
    return f;
}

// --- the dispatcher -------------------------------------------------------------------------

static tl_value_t *eval_expr(tl_eval_t *ev, tl_frame_t *fr, const tl_ast_node_t *n)
{
    switch (n->kind) {
    case TL_AST_NAME: return eval_name(ev, fr, n);
    case TL_AST_CONST: return eval_const(ev, n);
    case TL_AST_JOINEDSTR: return eval_fstring(ev, fr, n);
    case TL_AST_ATTRIBUTE: {
        tl_value_t *obj = tl_eval_expr(ev, fr, n->attr.value);
        return obj ? tl_eval_getattr(ev, obj, n->attr.attr, n->loc) : NULL;
    }
    case TL_AST_SUBSCRIPT: return eval_subscript(ev, fr, n);
    case TL_AST_CALL: return eval_call(ev, fr, n);
    case TL_AST_BINOP: {
        tl_value_t *a = tl_eval_expr(ev, fr, n->bin.left);
        tl_value_t *b = a ? tl_eval_expr(ev, fr, n->bin.right) : NULL;
        return b ? tl_eval_binop(ev, pyop_of_binop(n->bin.op), a, b, n->loc) : NULL;
    }
    case TL_AST_UNARYOP: {
        tl_value_t *a = tl_eval_expr(ev, fr, n->unary.operand);
        if (!a) return NULL;
        switch (n->unary.op) {
        case TL_UNOP_NEG: return tl_eval_unop(ev, TL_UN_NEG, a, n->loc);
        case TL_UNOP_NOT:
            if (ev->kernel && fr->traced && tl_tvm_is_prim(a)) return tl_tvm_not(ev, a, n->loc);
            if (ev->kernel && !fr->traced && (a->tvm_truth || tl_tvm_is_prim(a))) {
                bool is_expr = false, ok = true;
                bool t = tl_eval_cond(ev, fr, &a, n->loc, &is_expr, &ok);
                if (!ok) return NULL;
                if (!is_expr) return tl_value_bool(!t);
            }
            return tl_eval_unop(ev, TL_UN_NOT, a, n->loc);
        case TL_UNOP_INVERT: return tl_eval_unop(ev, TL_UN_BITNOT, a, n->loc);
        case TL_UNOP_POS:
            if (tl_value_is_number(a) || a->kind == TL_V_EXPR) return a;
            return tl_eval_fail(ev, n->loc, "bad operand type for unary +: '%s'", tl_value_type_name(a));
        }
        return NULL;
    }
    case TL_AST_BOOLOP:
        return ev->kernel && fr->traced ? tl_tvm_boolop(ev, fr, n) : eval_boolop(ev, fr, n);
    case TL_AST_COMPARE: return eval_compare(ev, fr, n);
    case TL_AST_IFEXP: return eval_ifexp(ev, fr, n);
    case TL_AST_LAMBDA: return tl_eval_make_function(ev, fr, n);
    case TL_AST_TUPLE:
    case TL_AST_LIST:
    case TL_AST_SET: {
        tl_value_t *l = tl_value_list(ev->arena, 0, NULL);
        if (!eval_list(ev, fr, &n->seq.elts, l)) return NULL;
        if (n->kind == TL_AST_TUPLE) l->kind = TL_V_TUPLE;
        return n->kind == TL_AST_SET ? tl_value_unique(ev->arena, l) : l;
    }
    case TL_AST_DICT: return eval_dict(ev, fr, n);
    case TL_AST_SETCOMP: {
        tl_value_t *l = eval_comprehension(ev, fr, n);
        return l ? tl_value_unique(ev->arena, l) : NULL;
    }
    case TL_AST_LISTCOMP:
    case TL_AST_DICTCOMP:
    case TL_AST_GENEXP: return eval_comprehension(ev, fr, n);
    case TL_AST_NAMEDEXPR: {
        tl_value_t *v = tl_eval_expr(ev, fr, n->named.value);
        return v && tl_eval_assign(ev, fr, n->named.target, v) ? v : NULL;
    }
    case TL_AST_SLICE:
        return tl_eval_fail(ev, n->loc, "a slice is only allowed inside [...]");
    case TL_AST_STARRED:
        return tl_eval_fail(ev, n->loc, "a starred expression is only allowed in calls and displays");
    default:
        return tl_eval_fail(ev, n->loc, "%s is not supported at compile time", tl_ast_kind_name(n->kind));
    }
}

// Expressions and statements evaluate recursively (through calls too): the
// depth is bounded so that the C stack is (tl_eval_enter).
tl_value_t *tl_eval_expr(tl_eval_t *ev, tl_frame_t *fr, const tl_ast_node_t *n)
{
    if (!tl_eval_enter(ev, n->loc)) return NULL;
    tl_value_t *v = eval_expr(ev, fr, n);
    ev->depth--;
    return v;
}

bool tl_eval_enter(tl_eval_t *ev, tl_loc_t loc)
{
    if (ev->depth >= TL_EVAL_MAX_DEPTH) {
        tl_eval_fail(ev, loc,
                     "compile-time evaluation nests too deeply: more than %d levels of "
                     "expressions, statements and calls",
                     TL_EVAL_MAX_DEPTH);
        return false;
    }
    ev->depth++;
    ev->loc = loc;
    return true;
}
