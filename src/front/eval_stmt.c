// The evaluator's statement half: assignment, control flow, function and class
// definitions with decorators, try/except, and module-level tolerance (a top-
// level statement that fails poisons the names it binds instead of failing the
// file, so driver code the kernel does not need never stops compilation).
#include "front/eval.h"

#include <stdlib.h>
#include <string.h>

// Compile-time evaluation is bounded so that a loop that never ends is an
// error, not a hang: a value is allocated per operation and kept until the
// compile ends, so the bound also caps memory (about 0.5 KiB per statement).
enum { MAX_WHILE_ITERATIONS = 1000000 };

// --- diagnostics checkpoints ----------------------------------------------------------------

tl_diag_mark_t tl_eval_mark(tl_eval_t *ev)
{
    tl_diag_t *d = ev->diag;
    return (tl_diag_mark_t){d->text.len, d->nerrors, d->nwarnings, d->first_error};
}

// First "error: ..." line reported since the mark (arena copy), for poison values.
const char *tl_eval_error_since(tl_eval_t *ev, tl_diag_mark_t m)
{
    const char *t = tl_buf_cstr(&ev->diag->text) + m.text_len;
    const char *e = strstr(t, "error: ");
    if (!e) return "an earlier error";
    e += 7;
    const char *nl = strchr(e, '\n');
    return tl_arena_strndup(ev->arena, e, nl ? (size_t)(nl - e) : strlen(e));
}

void tl_eval_rollback(tl_eval_t *ev, tl_diag_mark_t m)
{
    tl_diag_t *d = ev->diag;
    d->text.len = m.text_len;
    if (d->text.data) d->text.data[m.text_len] = 0;
    d->nerrors = m.nerrors;
    d->nwarnings = m.nwarnings;
    if (d->first_error != m.first_error) {
        free(d->first_error);
        d->first_error = m.first_error;
    }
}

void tl_eval_note_dropped(tl_eval_t *ev, const char *why, tl_loc_t where, tl_loc_t stmt)
{
    if (ev->dropped_why) return;
    ev->dropped_why = why;
    ev->dropped_at = where;
    ev->dropped_stmt = stmt;
}

// --- assignment -------------------------------------------------------------------------------

// `a, b = torch_op(...)` in driver code: each target gets an unknown value (the element
// it would get), so the driver goes on to the factory calls after it.
static tl_value_t *unpack_opaque(tl_eval_t *ev, const tl_ast_node_t *target, tl_value_t *v)
{
    const tl_ast_list_t *elts = &target->seq.elts;
    tl_value_t *items = tl_value_list(ev->arena, 0, NULL);
    for (int i = 0; i < elts->len; i++) {
        bool star = elts->items[i]->kind == TL_AST_STARRED;
        const char *what = tl_arena_printf(ev->arena, star ? "%s[%d:]" : "%s[%d]", v->opaque.what, i);
        tl_value_list_append(ev->arena, items, tl_value_opaque(ev->arena, what));
    }
    return items;
}

static bool assign_seq(tl_eval_t *ev, tl_frame_t *fr, const tl_ast_node_t *target, tl_value_t *v)
{
    bool unknown = v->kind == TL_V_OPAQUE && !ev->kernel;
    tl_value_t *items = unknown ? unpack_opaque(ev, target, v) : tl_eval_iterate(ev, v, target->loc);
    if (!items) return false;
    const tl_ast_list_t *elts = &target->seq.elts;
    int star = -1;
    for (int i = 0; i < elts->len; i++)
        if (elts->items[i]->kind == TL_AST_STARRED) star = i;
    int n = items->seq.n;
    if (star < 0 ? n != elts->len : n < elts->len - 1) {
        tl_eval_fail(ev, target->loc, "cannot unpack %d value%s into %d target%s", n,
                     n == 1 ? "" : "s", elts->len, elts->len == 1 ? "" : "s");
        return false;
    }
    int vi = 0;
    for (int i = 0; i < elts->len; i++) {
        if (i == star && unknown) {
            if (!tl_eval_assign(ev, fr, elts->items[i]->starred.value, items->seq.items[vi++]))
                return false;
            continue;
        }
        if (i == star) {
            int take = n - (elts->len - 1);
            tl_value_t *rest = tl_value_list(ev->arena, take, items->seq.items + vi);
            if (!tl_eval_assign(ev, fr, elts->items[i]->starred.value, rest)) return false;
            vi += take;
            continue;
        }
        if (!tl_eval_assign(ev, fr, elts->items[i], items->seq.items[vi++])) return false;
    }
    return true;
}

bool tl_eval_assign(tl_eval_t *ev, tl_frame_t *fr, const tl_ast_node_t *target, tl_value_t *v)
{
    switch (target->kind) {
    case TL_AST_NAME:
        if (ev->kernel) return tl_trace_bind(ev, fr, target, v);
        tl_env_set(ev, fr->env, target->name.id, v);
        return true;
    case TL_AST_TUPLE:
    case TL_AST_LIST: return assign_seq(ev, fr, target, v);
    case TL_AST_SUBSCRIPT: {
        tl_value_t *obj = tl_eval_expr(ev, fr, target->sub.value);
        if (!obj) return false;
        if (obj->kind == TL_V_BUFFER) return tl_trace_store(ev, fr, obj, target->sub.index, v, target->loc);
        // a store into a driver value tilec does not model (a torch tensor's
        // ref[m, a:b] = ...): nothing to record, its index (slices too) unread
        if (obj->kind == TL_V_OPAQUE) return true;
        tl_value_t *key = tl_eval_expr(ev, fr, target->sub.index);
        if (!key) return false;
        if (obj->kind == TL_V_DICT) {
            tl_value_dict_set(ev->arena, obj, key, v);
            return true;
        }
        if (obj->kind == TL_V_LIST) {
            int64_t i;
            if (!tl_value_to_int(ev, key, target->sub.index->loc, "a list index", &i)) return false;
            if (i < 0) i += obj->seq.n;
            if (i < 0 || i >= obj->seq.n) {
                tl_eval_fail(ev, target->loc, "list assignment index out of range");
                return false;
            }
            obj->seq.items[i] = v;
            return true;
        }
        tl_eval_fail(ev, target->loc, "'%s' object does not support item assignment",
                     tl_value_type_name(obj));
        return false;
    }
    case TL_AST_ATTRIBUTE: {
        tl_value_t *obj = tl_eval_expr(ev, fr, target->attr.value);
        if (!obj) return false;
        if (obj->kind == TL_V_MODULE) {
            tl_value_module_set(ev->arena, obj, target->attr.attr, v);
            return true;
        }
        if (obj->kind == TL_V_OPAQUE) return true; // driver objects: nothing to model
        tl_eval_fail(ev, target->loc, "cannot set attribute '%s' of '%s'", target->attr.attr,
                     tl_value_type_name(obj));
        return false;
    }
    case TL_AST_STARRED:
        tl_eval_fail(ev, target->loc, "starred assignment target must be in a list or tuple");
        return false;
    default:
        tl_eval_fail(ev, target->loc, "cannot assign to %s", tl_ast_kind_name(target->kind));
        return false;
    }
}

static tl_flow_t exec_assign(tl_eval_t *ev, tl_frame_t *fr, const tl_ast_node_t *n)
{
    const tl_ast_list_t *t = &n->assign.targets;
    if (t->len == 1 && t->items[0]->kind == TL_AST_NAME) ev->name_hint = t->items[0]->name.id;
    tl_value_t *v = tl_eval_expr(ev, fr, n->assign.value);
    ev->name_hint = NULL;
    if (!v) return TL_FLOW_ERROR;
    for (int i = 0; i < t->len; i++)
        if (!tl_eval_assign(ev, fr, t->items[i], tl_tvm_let(ev, fr, t->items[i], v)))
            return TL_FLOW_ERROR;
    return TL_FLOW_NORMAL;
}

static tl_flow_t exec_augassign(tl_eval_t *ev, tl_frame_t *fr, const tl_ast_node_t *n)
{
    const tl_ast_node_t *target = n->aug.target;
    int op = tl_eval_pyop_of_ast(n->aug.op);
    tl_value_t *rhs = tl_eval_expr(ev, fr, n->aug.value);
    if (!rhs) return TL_FLOW_ERROR;
    if (target->kind == TL_AST_SUBSCRIPT) {
        tl_value_t *obj = tl_eval_expr(ev, fr, target->sub.value);
        if (!obj) return TL_FLOW_ERROR;
        if (obj->kind == TL_V_BUFFER) {
            tl_value_t *old = tl_trace_subscript(ev, fr, obj, target->sub.index, target->loc);
            if (!old) return TL_FLOW_ERROR;
            if (old->kind != TL_V_EXPR) {
                tl_eval_fail(ev, target->loc, "augmented assignment to a buffer slice is not "
                                              "supported; use T.tile ops");
                return TL_FLOW_ERROR;
            }
            tl_value_t *nv = tl_eval_binop(ev, op, old, rhs, n->loc);
            return nv && tl_trace_store(ev, fr, obj, target->sub.index, nv, target->loc)
                       ? TL_FLOW_NORMAL
                       : TL_FLOW_ERROR;
        }
    }
    tl_value_t *old = tl_eval_expr(ev, fr, target);
    if (!old) return TL_FLOW_ERROR;
    if (old->kind == TL_V_LIST && op == TL_BIN_ADD && target->kind == TL_AST_NAME) {
        tl_value_t *items = tl_eval_iterate(ev, rhs, n->loc); // list += iterable extends in place
        if (!items) return TL_FLOW_ERROR;
        for (int i = 0; i < items->seq.n; i++) tl_value_list_append(ev->arena, old, items->seq.items[i]);
        return TL_FLOW_NORMAL;
    }
    tl_value_t *nv = tl_eval_binop(ev, op, old, rhs, n->loc);
    if (!nv) return TL_FLOW_ERROR;
    return tl_eval_assign(ev, fr, target, tl_tvm_let(ev, fr, target, nv)) ? TL_FLOW_NORMAL
                                                                          : TL_FLOW_ERROR;
}

// --- control flow ---------------------------------------------------------------------------

static void bound_names(tl_eval_t *ev, const tl_ast_node_t *n, tl_vec_t *out);

static bool body_raises(const tl_ast_list_t *body)
{
    for (int i = 0; i < body->len; i++)
        if (body->items[i]->kind == TL_AST_RAISE) return true;
    return false;
}

// Whether a statement list can leave its function (return) or the enclosing loop
// (break/continue not inside a nested loop); nested definitions are their own.
static void find_exits(const tl_ast_list_t *body, bool in_loop, bool *ret, bool *jump)
{
    for (int i = 0; i < body->len; i++) {
        const tl_ast_node_t *n = body->items[i];
        switch (n->kind) {
        case TL_AST_RETURN: *ret = true; break;
        case TL_AST_BREAK:
        case TL_AST_CONTINUE: *jump = *jump || !in_loop; break;
        case TL_AST_IF:
            find_exits(&n->cond.body, in_loop, ret, jump);
            find_exits(&n->cond.orelse, in_loop, ret, jump);
            break;
        case TL_AST_WHILE:
            find_exits(&n->cond.body, true, ret, jump);
            find_exits(&n->cond.orelse, in_loop, ret, jump);
            break;
        case TL_AST_FOR:
            find_exits(&n->loop.body, true, ret, jump);
            find_exits(&n->loop.orelse, in_loop, ret, jump);
            break;
        case TL_AST_WITH: find_exits(&n->with.body, in_loop, ret, jump); break;
        case TL_AST_TRY: find_exits(&n->tryblock.body, in_loop, ret, jump); break;
        default: break;
        }
    }
}

// An `if`/`while` whose condition is a value of code tilec does not run (a torch
// or random-free driver value), outside a kernel: Python takes one way, tilec cannot
// tell which, and guessing could hand a kernel a wrong value. (Likewise a `for` over
// such a value: how many times it runs is unknown.) So:
// - if one branch always raises, the other is the only way the program goes on: run it;
// - otherwise run neither: every name either branch binds becomes unknown (an opaque
//   value that says where it was set), so a kernel that needs one reports it, and a
//   branch that returns makes the function's result unknown. The driver goes on, so a
//   later tilelang.compile(..., pass_configs=...) still counts.
// A break/continue in a branch (the loop's course unknown) stays an error.
static tl_flow_t undecided(tl_eval_t *ev, tl_frame_t *fr, const tl_ast_node_t *n, tl_value_t *c,
                           const tl_ast_list_t *body, const tl_ast_list_t *orelse,
                           const tl_ast_node_t *target)
{
    bool is_if = n->kind == TL_AST_IF, is_for = n->kind == TL_AST_FOR;
    if (is_if && body_raises(body) != body_raises(orelse))
        return tl_exec_body(ev, fr, body_raises(body) ? orelse : body);
    bool ret = false, jump = false;
    find_exits(body, !is_if, &ret, &jump);
    find_exits(orelse, false, &ret, &jump);
    if (jump) {
        tl_eval_fail(ev, is_for ? n->loop.iter->loc : n->cond.test->loc,
                     "cannot take the truth value of '%s' at compile time "
                                            "(a branch leaves the loop, so tilec cannot go on without it)",
                     c->opaque.what);
        return TL_FLOW_ERROR;
    }
    const char *kw = is_if ? "if" : is_for ? "for" : "while";
    const char *undecided = tl_arena_printf(ev->arena,
                                            is_for ? "it loops over '%s', computed by code tilec does not "
                                                     "run, so tilec ran no iteration"
                                                   : "its condition '%s' is computed by code tilec does "
                                                     "not run, so tilec took neither branch",
                                            c->opaque.what);
    const char *why = tl_arena_printf(ev->arena, "set under this '%s': %s", kw, undecided);
    if (!ev->dropped_why && (body->len || orelse->len)) {
        tl_eval_note_dropped(ev, tl_arena_printf(ev->arena, "%s '%s' is computed by code tilec does not run",
                                                 is_for ? "its iterable" : "its condition", c->opaque.what),
                             n->loc, n->loc);
        ev->dropped_branch = true;
    }
    tl_vec_t names = {0};
    bound_names(ev, target, &names);
    for (int i = 0; i < body->len; i++) bound_names(ev, body->items[i], &names);
    for (int i = 0; i < orelse->len; i++) bound_names(ev, orelse->items[i], &names);
    for (int k = 0; k < names.len; k++) {
        tl_value_t *v = tl_value_opaque(ev->arena, names.items[k]);
        v->opaque.why = why;
        v->opaque.loc = n->loc;
        if (!tl_eval_assign(ev, fr, &(tl_ast_node_t){.kind = TL_AST_NAME, .loc = n->loc,
                                                     .name.id = names.items[k]}, v))
            return TL_FLOW_ERROR;
    }
    if (!ret) return TL_FLOW_NORMAL;
    fr->ret = tl_value_opaque(ev->arena, "the function's result");
    fr->ret->opaque.why = tl_arena_printf(ev->arena, "the function may return under this '%s': %s", kw, undecided);
    fr->ret->opaque.loc = n->loc;
    fr->ret_loc = n->loc;
    return TL_FLOW_RETURN;
}

static tl_flow_t exec_for(tl_eval_t *ev, tl_frame_t *fr, const tl_ast_node_t *n)
{
    tl_value_t *it = tl_eval_expr(ev, fr, n->loop.iter);
    if (!it) return TL_FLOW_ERROR;
    if (it->kind == TL_V_OPAQUE && !ev->kernel)
        return undecided(ev, fr, n, it, &n->loop.body, &n->loop.orelse, n->loop.target);
    // range() is an IR loop where TVMScript parses the code (a prim_func body or a
    // @T.macro); in a plain Python function called while tracing it is Python's range.
    bool ir_loop = it->kind == TL_V_RANGE && (!it->range.builtin || (ev->kernel && fr->traced));
    if (ir_loop) {
        if (!ev->kernel) {
            tl_eval_fail(ev, n->loop.iter->loc, "kernel loops (T.serial, T.Parallel, T.Pipelined) "
                                                "can only be used inside a @T.prim_func body");
            return TL_FLOW_ERROR;
        }
        return tl_trace_for(ev, fr, n, it);
    }
    if (it->kind == TL_V_RANGE && !it->range.python) {
        tl_eval_fail(
            ev, n->loop.iter->loc,
            "range() over a run-time value %s: there it is Python's range, which needs integers "
            "(loop with T.serial in the kernel body or in a @T.macro)",
            ev->kernel ? "in a plain Python function called from the kernel"
                       : "outside a @T.prim_func body");
        return TL_FLOW_ERROR;
    }
    tl_value_t *items = tl_eval_iterate(ev, it, n->loop.iter->loc);
    if (!items) return TL_FLOW_ERROR;
    for (int i = 0; i < items->seq.n; i++) {
        if (!tl_eval_assign(ev, fr, n->loop.target, items->seq.items[i])) return TL_FLOW_ERROR;
        tl_flow_t f = tl_exec_body(ev, fr, &n->loop.body);
        if (f == TL_FLOW_BREAK) return TL_FLOW_NORMAL;
        if (f == TL_FLOW_RETURN || f == TL_FLOW_ERROR) return f;
    }
    return tl_exec_body(ev, fr, &n->loop.orelse);
}

static tl_flow_t exec_while(tl_eval_t *ev, tl_frame_t *fr, const tl_ast_node_t *n)
{
    for (long iter = 0;; iter++) {
        tl_value_t *c = tl_eval_expr(ev, fr, n->cond.test);
        if (!c) return TL_FLOW_ERROR;
        if (c->kind == TL_V_OPAQUE && !ev->kernel) return undecided(ev, fr, n, c, &n->cond.body, &n->cond.orelse, NULL);
        bool is_expr = false, ok = true;
        bool t = tl_eval_cond(ev, fr, &c, n->cond.test->loc, &is_expr, &ok);
        if (!ok) return TL_FLOW_ERROR;
        if (is_expr) {
            if (iter > 0) {
                tl_eval_fail(ev, n->loc, "loop condition became a run-time value after iterating");
                return TL_FLOW_ERROR;
            }
            return tl_trace_while(ev, fr, n, c);
        }
        if (!t) return tl_exec_body(ev, fr, &n->cond.orelse);
        if (iter >= MAX_WHILE_ITERATIONS) {
            tl_eval_fail(ev, n->loc, "while loop runs more than %d iterations at compile time",
                         MAX_WHILE_ITERATIONS);
            return TL_FLOW_ERROR;
        }
        tl_flow_t f = tl_exec_body(ev, fr, &n->cond.body);
        if (f == TL_FLOW_BREAK) return TL_FLOW_NORMAL;
        if (f == TL_FLOW_RETURN || f == TL_FLOW_ERROR) return f;
    }
}

// An if/elif chain: its elifs in a loop (a chain may have TL_MAX_ELIF branches).
static tl_flow_t exec_if(tl_eval_t *ev, tl_frame_t *fr, const tl_ast_node_t *n)
{
    for (;;) {
        tl_value_t *c = tl_eval_expr(ev, fr, n->cond.test);
        if (!c) return TL_FLOW_ERROR;
        if (c->kind == TL_V_OPAQUE && !ev->kernel) return undecided(ev, fr, n, c, &n->cond.body, &n->cond.orelse, NULL);
        bool is_expr = false, ok = true;
        bool t = tl_eval_cond(ev, fr, &c, n->cond.test->loc, &is_expr, &ok);
        if (!ok) return TL_FLOW_ERROR;
        if (is_expr) return tl_trace_if(ev, fr, n, c);
        if (t) return tl_exec_body(ev, fr, &n->cond.body);
        const tl_ast_node_t *next = tl_ast_elif(n);
        if (!next) return tl_exec_body(ev, fr, &n->cond.orelse);
        n = next;
    }
}

// `with obj as x:` in host code, for an object with __enter__ / __exit__ (a
// file open() made, pyfiles.c): x is what __enter__ returns, __exit__ runs
// after the body however it ends.
static tl_flow_t exec_with_object(tl_eval_t *ev, tl_frame_t *fr, const tl_ast_node_t *n,
                                  tl_value_t *ctx, tl_value_t *enter)
{
    const tl_ast_node_t *item = n->with.items.items[0];
    tl_call_t call = {.loc = item->loc};
    tl_value_t *v = tl_eval_call(ev, enter, &call);
    if (!v) return TL_FLOW_ERROR;
    if (item->withitem.target && !tl_eval_assign(ev, fr, item->withitem.target, v)) return TL_FLOW_ERROR;
    tl_flow_t f = tl_exec_body(ev, fr, &n->with.body);
    tl_value_t *exit_fn = tl_value_module_get(ctx, "__exit__");
    if (exit_fn) {
        tl_value_t *none[3] = {tl_value_none(), tl_value_none(), tl_value_none()};
        tl_call_t done = {.nargs = 3, .args = none, .loc = item->loc};
        if (!tl_eval_call(ev, exit_fn, &done)) return TL_FLOW_ERROR;
    }
    return f;
}

static tl_flow_t exec_with(tl_eval_t *ev, tl_frame_t *fr, const tl_ast_node_t *n)
{
    if (n->with.items.len == 0) return tl_exec_body(ev, fr, &n->with.body);
    const tl_ast_node_t *item = n->with.items.items[0];
    tl_value_t *ctx = tl_eval_expr(ev, fr, item->withitem.context);
    if (!ctx) return TL_FLOW_ERROR;
    tl_value_t *enter = ctx->kind == TL_V_MODULE ? tl_value_module_get(ctx, "__enter__") : NULL;
    if (enter && !ev->kernel && n->with.items.len == 1) return exec_with_object(ev, fr, n, ctx, enter);
    if (ctx->kind == TL_V_OPAQUE && !ev->kernel && n->with.items.len == 1) {
        // A driver's context manager tilec does not model (pytest.raises(...), torch.no_grad()):
        // the body runs; what it enters is opaque. In a negative test the body's error is
        // the kernel's own (pytest.raises expects one).
        if (item->withitem.target &&
            !tl_eval_assign(ev, fr, item->withitem.target, tl_value_opaque(ev->arena, ctx->opaque.what)))
            return TL_FLOW_ERROR;
        return tl_exec_body(ev, fr, &n->with.body);
    }
    if (ctx->kind != TL_V_FRAME) {
        tl_eval_fail(ev, item->loc, "'with' needs T.Kernel, T.Scope or T.If/T.Then/T.Else, got %s%s%s",
                     ctx->kind == TL_V_OPAQUE ? "'" : "", ctx->kind == TL_V_OPAQUE ? ctx->opaque.what
                                                                                  : tl_value_type_name(ctx),
                     ctx->kind == TL_V_OPAQUE ? "'" : "");
        return TL_FLOW_ERROR;
    }
    return tl_trace_with(ev, fr, n, 0, ctx);
}

static tl_flow_t exec_assert(tl_eval_t *ev, tl_frame_t *fr, const tl_ast_node_t *n)
{
    tl_value_t *c = tl_eval_expr(ev, fr, n->check.test);
    if (!c) return TL_FLOW_ERROR;
    // Driver code asserting on a value tilec does not run (torch results): the only way
    // the program goes on is that it holds.
    if (c->kind == TL_V_OPAQUE && !ev->kernel) return TL_FLOW_NORMAL;
    bool is_expr = false, ok = true;
    bool t = tl_eval_cond(ev, fr, &c, n->check.test->loc, &is_expr, &ok);
    if (!ok) return TL_FLOW_ERROR;
    if (is_expr) {
        tl_diag_warning(ev->diag, n->loc, "assert on a run-time value is not checked");
        return TL_FLOW_NORMAL;
    }
    if (t) return TL_FLOW_NORMAL;
    if (n->check.msg) {
        tl_value_t *m = tl_eval_expr(ev, fr, n->check.msg);
        if (!m) return TL_FLOW_ERROR;
        tl_buf_t b;
        tl_buf_init(&b);
        tl_value_str_of(&b, m);
        tl_eval_fail(ev, n->loc, "assertion failed: %s", tl_buf_cstr(&b));
        tl_buf_free(&b);
    } else {
        tl_eval_fail(ev, n->loc, "assertion failed");
    }
    return TL_FLOW_ERROR;
}

static tl_value_t *apply_decorators(tl_eval_t *ev, tl_frame_t *fr, const tl_ast_list_t *decos,
                                    tl_value_t *v)
{
    for (int i = decos->len - 1; i >= 0 && v; i--) {
        const tl_ast_node_t *d = decos->items[i];
        tl_value_t *dv = tl_eval_expr(ev, fr, d);
        if (!dv) return NULL;
        if (dv->kind == TL_V_OPAQUE) continue; // a decorator of a library tilec does not run
        tl_value_t *args[1] = {v};
        tl_loc_t locs[1] = {d->loc};
        tl_call_t call = {.nargs = 1, .args = args, .arg_locs = locs, .loc = d->loc};
        v = tl_eval_call(ev, dv, &call);
    }
    return v;
}

static tl_flow_t exec_def(tl_eval_t *ev, tl_frame_t *fr, const tl_ast_node_t *n)
{
    tl_value_t *f = tl_eval_make_function(ev, fr, n);
    if (!f) return TL_FLOW_ERROR;
    f = apply_decorators(ev, fr, &n->def.decorators, f);
    if (!f) return TL_FLOW_ERROR;
    tl_env_set(ev, fr->env, n->def.name, f);
    return TL_FLOW_NORMAL;
}

static tl_flow_t exec_class(tl_eval_t *ev, tl_frame_t *fr, const tl_ast_node_t *n)
{
    tl_frame_t body = *fr;
    body.env = tl_env_new(ev, fr->env);
    body.module_level = false;
    tl_flow_t f = tl_exec_body(ev, &body, &n->cls.body);
    if (f == TL_FLOW_ERROR) return f;
    tl_value_t *cls = tl_value_module(ev->arena, n->cls.name);
    cls->module.is_class = true;
    for (int i = 0; i < body.env->names.cap; i++) {
        tl_map_entry_t *e = &body.env->names.slots[i];
        if (e->key) tl_value_module_set(ev->arena, cls, e->key, e->value);
    }
    cls = apply_decorators(ev, fr, &n->cls.decorators, cls);
    if (!cls) return TL_FLOW_ERROR;
    tl_env_set(ev, fr->env, n->cls.name, cls);
    return TL_FLOW_NORMAL;
}

static tl_flow_t exec_try(tl_eval_t *ev, tl_frame_t *fr, const tl_ast_node_t *n)
{
    tl_diag_mark_t m = tl_eval_mark(ev);
    tl_flow_t f = tl_exec_body(ev, fr, &n->tryblock.body);
    if (f == TL_FLOW_ERROR && n->tryblock.handlers.len) {
        // Compile-time errors act as exceptions any handler catches.
        tl_eval_rollback(ev, m);
        const tl_ast_node_t *h = n->tryblock.handlers.items[0];
        if (h->handler.name)
            tl_env_set(ev, fr->env, h->handler.name, tl_value_opaque(ev->arena, "exception"));
        f = tl_exec_body(ev, fr, &h->handler.body);
    } else if (f == TL_FLOW_NORMAL) {
        f = tl_exec_body(ev, fr, &n->tryblock.orelse);
    }
    if (n->tryblock.finalbody.len) {
        tl_flow_t g = tl_exec_body(ev, fr, &n->tryblock.finalbody);
        if (g != TL_FLOW_NORMAL) return g;
    }
    return f;
}

// `del name` makes the name unusable; `del d[k]` / `del l[i]` remove the item.
static tl_flow_t exec_delete(tl_eval_t *ev, tl_frame_t *fr, const tl_ast_node_t *n)
{
    for (int i = 0; i < n->del.targets.len; i++) {
        const tl_ast_node_t *t = n->del.targets.items[i];
        if (t->kind == TL_AST_NAME) {
            const char *msg = tl_arena_printf(ev->arena, "name '%s' was deleted with 'del'", t->name.id);
            tl_env_set(ev, fr->env, t->name.id, tl_value_error(ev->arena, msg, t->loc));
            continue;
        }
        if (t->kind == TL_AST_TUPLE || t->kind == TL_AST_LIST) {
            tl_ast_node_t inner = *n;
            inner.del.targets = t->seq.elts;
            if (exec_delete(ev, fr, &inner) != TL_FLOW_NORMAL) return TL_FLOW_ERROR;
            continue;
        }
        if (t->kind != TL_AST_SUBSCRIPT && t->kind != TL_AST_ATTRIBUTE) {
            tl_eval_fail(ev, t->loc, "cannot delete %s", tl_ast_kind_name(t->kind));
            return TL_FLOW_ERROR;
        }
        tl_value_t *obj = tl_eval_expr(ev, fr, t->kind == TL_AST_SUBSCRIPT ? t->sub.value : t->attr.value);
        if (!obj) return TL_FLOW_ERROR;
        if (obj->kind == TL_V_OPAQUE) continue; // driver objects: nothing to model
        tl_value_t *key = NULL;
        if (t->kind == TL_AST_SUBSCRIPT && !(key = tl_eval_expr(ev, fr, t->sub.index))) return TL_FLOW_ERROR;
        if (key && (obj->kind == TL_V_DICT || obj->kind == TL_V_LIST)) {
            tl_value_t **items = obj->kind == TL_V_DICT ? obj->dict.keys : obj->seq.items;
            int len = obj->kind == TL_V_DICT ? obj->dict.n : obj->seq.n, at = -1;
            int64_t ix;
            if (obj->kind == TL_V_DICT) {
                for (int k = 0; k < len && at < 0; k++)
                    if (tl_value_equal(items[k], key)) at = k;
            } else if (tl_value_to_int(ev, key, t->sub.index->loc, "a list index", &ix)) {
                at = (int)(ix < 0 ? ix + len : ix);
                if (ix < -len || ix >= len) at = -1;
            } else {
                return TL_FLOW_ERROR;
            }
            if (at < 0) {
                tl_eval_fail(ev, t->sub.index->loc, "del: %s", obj->kind == TL_V_DICT ? "key not in the dict"
                                                                                     : "list index out of range");
                return TL_FLOW_ERROR;
            }
            if (obj->kind == TL_V_DICT) {
                memmove(obj->dict.keys + at, obj->dict.keys + at + 1, sizeof(tl_value_t *) * (size_t)(len - at - 1));
                memmove(obj->dict.values + at, obj->dict.values + at + 1, sizeof(tl_value_t *) * (size_t)(len - at - 1));
                obj->dict.n--;
            } else {
                memmove(obj->seq.items + at, obj->seq.items + at + 1, sizeof(tl_value_t *) * (size_t)(len - at - 1));
                obj->seq.n--;
            }
            continue;
        }
        tl_eval_fail(ev, t->loc, "'del' of an item or attribute of %s is not supported at compile time",
                     tl_value_type_name(obj));
        return TL_FLOW_ERROR;
    }
    return TL_FLOW_NORMAL;
}

static tl_flow_t exec_stmt(tl_eval_t *ev, tl_frame_t *fr, const tl_ast_node_t *n)
{
    if (++ev->steps > ev->max_steps) {
        tl_eval_fail(ev, n->loc,
                     "compile-time evaluation ran more than %ld statements (a loop that never "
                     "ends?)",
                     ev->max_steps);
        return TL_FLOW_ERROR;
    }
    switch (n->kind) {
    case TL_AST_EXPR: return tl_eval_expr(ev, fr, n->expr.value) ? TL_FLOW_NORMAL : TL_FLOW_ERROR;
    case TL_AST_ASSIGN: return exec_assign(ev, fr, n);
    case TL_AST_AUGASSIGN: return exec_augassign(ev, fr, n);
    case TL_AST_ANNASSIGN: {
        if (!n->ann.value) return TL_FLOW_NORMAL;
        if (n->ann.target->kind == TL_AST_NAME) ev->name_hint = n->ann.target->name.id;
        tl_value_t *v = tl_eval_expr(ev, fr, n->ann.value);
        ev->name_hint = NULL;
        if (!v) return TL_FLOW_ERROR;
        v = tl_tvm_let(ev, fr, n->ann.target, v);
        return tl_eval_assign(ev, fr, n->ann.target, v) ? TL_FLOW_NORMAL : TL_FLOW_ERROR;
    }
    case TL_AST_FOR: return exec_for(ev, fr, n);
    case TL_AST_WHILE: return exec_while(ev, fr, n);
    case TL_AST_IF: return exec_if(ev, fr, n);
    case TL_AST_WITH: return exec_with(ev, fr, n);
    case TL_AST_ASSERT: return exec_assert(ev, fr, n);
    case TL_AST_FUNCTIONDEF: return exec_def(ev, fr, n);
    case TL_AST_CLASSDEF: return exec_class(ev, fr, n);
    case TL_AST_RETURN:
        fr->ret_loc = n->loc;
        if (n->ret.value) {
            fr->ret = tl_eval_expr(ev, fr, n->ret.value);
            if (!fr->ret) return TL_FLOW_ERROR;
        } else {
            fr->ret = tl_value_none();
        }
        return TL_FLOW_RETURN;
    case TL_AST_IMPORT:
    case TL_AST_IMPORTFROM: return tl_eval_import(ev, fr, n);
    case TL_AST_PASS: return TL_FLOW_NORMAL;
    case TL_AST_GLOBAL:
    case TL_AST_NONLOCAL:
        if (fr->module_level) return TL_FLOW_NORMAL;
        // Rebinding another scope's names from a function is not modelled:
        // the assignment would silently stay local.
        tl_eval_fail(ev, n->loc, "'%s' is not supported: a function cannot rebind names of an enclosing "
                                 "scope at compile time (return the value instead)",
                     n->kind == TL_AST_GLOBAL ? "global" : "nonlocal");
        return TL_FLOW_ERROR;
    case TL_AST_DELETE: return exec_delete(ev, fr, n);
    case TL_AST_BREAK:
        if (ev->kernel && ev->parallel_depth < 0) return TL_FLOW_BREAK;
        return TL_FLOW_BREAK;
    case TL_AST_CONTINUE: return TL_FLOW_CONTINUE;
    case TL_AST_RAISE: {
        tl_buf_t b;
        tl_buf_init(&b);
        if (n->raise.exc) {
            tl_value_t *v = tl_eval_expr(ev, fr, n->raise.exc);
            if (v && v->kind == TL_V_OPAQUE) tl_buf_puts(&b, v->opaque.what); // ValueError: msg
            else if (v && v->kind == TL_V_BUILTIN) tl_buf_puts(&b, v->builtin.name);
            else if (v) tl_value_str_of(&b, v);
        }
        tl_eval_fail(ev, n->loc, "exception raised at compile time%s%s", b.len ? ": " : "",
                     tl_buf_cstr(&b));
        tl_buf_free(&b);
        return TL_FLOW_ERROR;
    }
    case TL_AST_TRY: return exec_try(ev, fr, n);
    case TL_AST_ERROR:
        if (fr->module_level) {
            for (int i = 0; i < n->error.defines.len; i++)
                tl_env_set(ev, fr->env, n->error.defines.items[i],
                           tl_value_error(ev->arena, n->error.msg, n->loc));
            return TL_FLOW_NORMAL;
        }
        tl_diag_error(ev->diag, n->loc, "%s", n->error.msg);
        return TL_FLOW_ERROR;
    default:
        tl_eval_fail(ev, n->loc, "%s is not supported", tl_ast_kind_name(n->kind));
        return TL_FLOW_ERROR;
    }
}

tl_flow_t tl_exec_stmt(tl_eval_t *ev, tl_frame_t *fr, const tl_ast_node_t *n)
{
    if (!tl_eval_enter(ev, n->loc)) return TL_FLOW_ERROR;
    tl_flow_t f = exec_stmt(ev, fr, n);
    ev->depth--;
    return f;
}

// Names a statement binds, for poisoning when a module-level statement fails.
static void bound_names(tl_eval_t *ev, const tl_ast_node_t *n, tl_vec_t *out)
{
    if (!n) return;
    switch (n->kind) {
    case TL_AST_NAME: tl_vec_push(ev->arena, out, (void *)n->name.id); break;
    case TL_AST_TUPLE:
    case TL_AST_LIST:
        for (int i = 0; i < n->seq.elts.len; i++) bound_names(ev, n->seq.elts.items[i], out);
        break;
    case TL_AST_STARRED: bound_names(ev, n->starred.value, out); break;
    case TL_AST_ASSIGN:
        for (int i = 0; i < n->assign.targets.len; i++) bound_names(ev, n->assign.targets.items[i], out);
        break;
    case TL_AST_AUGASSIGN: bound_names(ev, n->aug.target, out); break;
    case TL_AST_ANNASSIGN: bound_names(ev, n->ann.target, out); break;
    case TL_AST_FUNCTIONDEF: tl_vec_push(ev->arena, out, (void *)n->def.name); break;
    case TL_AST_CLASSDEF: tl_vec_push(ev->arena, out, (void *)n->cls.name); break;
    case TL_AST_FOR:
        bound_names(ev, n->loop.target, out);
        for (int i = 0; i < n->loop.body.len; i++) bound_names(ev, n->loop.body.items[i], out);
        break;
    case TL_AST_IF:
    case TL_AST_WHILE:
        for (const tl_ast_node_t *c = n; c; c = n->kind == TL_AST_IF ? tl_ast_elif(c) : NULL) {
            for (int i = 0; i < c->cond.body.len; i++) bound_names(ev, c->cond.body.items[i], out);
            if (n->kind == TL_AST_IF && tl_ast_elif(c)) continue; // an elif chain: a loop
            for (int i = 0; i < c->cond.orelse.len; i++)
                bound_names(ev, c->cond.orelse.items[i], out);
        }
        break;
    case TL_AST_WITH:
        for (int i = 0; i < n->with.items.len; i++)
            bound_names(ev, n->with.items.items[i]->withitem.target, out);
        for (int i = 0; i < n->with.body.len; i++) bound_names(ev, n->with.body.items[i], out);
        break;
    case TL_AST_TRY:
        for (int i = 0; i < n->tryblock.body.len; i++) bound_names(ev, n->tryblock.body.items[i], out);
        break;
    case TL_AST_IMPORT:
    case TL_AST_IMPORTFROM: {
        const tl_ast_list_t *names = n->kind == TL_AST_IMPORT ? &n->import.names : &n->importfrom.names;
        for (int i = 0; i < names->len; i++) {
            const tl_ast_node_t *a = names->items[i];
            const char *nm = a->alias.asname ? a->alias.asname : a->alias.name;
            if (!a->alias.asname && n->kind == TL_AST_IMPORT) {
                const char *dot = strchr(nm, '.');
                if (dot) nm = tl_arena_strndup(ev->arena, nm, (size_t)(dot - nm));
            }
            tl_vec_push(ev->arena, out, (void *)nm);
        }
        break;
    }
    default: break;
    }
}

tl_flow_t tl_exec_body(tl_eval_t *ev, tl_frame_t *fr, const tl_ast_list_t *body)
{
    for (int i = 0; i < body->len; i++) {
        const tl_ast_node_t *n = body->items[i];
        if (!fr->module_level) {
            tl_flow_t f = tl_exec_stmt(ev, fr, n);
            if (f != TL_FLOW_NORMAL) return f;
            continue;
        }
        tl_diag_mark_t m = tl_eval_mark(ev);
        bool saved_set = ev->err_loc_set;
        tl_loc_t saved_loc = ev->err_loc;
        ev->err_loc_set = false;
        tl_flow_t f = tl_exec_stmt(ev, fr, n);
        tl_loc_t where = ev->err_loc_set ? ev->err_loc : n->loc;
        ev->err_loc_set = saved_set;
        ev->err_loc = saved_loc;
        if (f == TL_FLOW_NORMAL) continue;
        if (f != TL_FLOW_ERROR) return f;
        // A failed module-level statement: remember why (and where) for the names it binds.
        const char *why = tl_eval_error_since(ev, m);
        tl_eval_rollback(ev, m);
        tl_eval_note_dropped(ev, why, where, n->loc);
        if (!strncmp(why, TL_EVAL_UNMODELLED " ", strlen(TL_EVAL_UNMODELLED) + 1))
            tl_diag_warning(ev->diag, where, "%s: this driver statement did not run", why);
        tl_vec_t names = {0};
        bound_names(ev, n, &names);
        for (int k = 0; k < names.len; k++) {
            const char *nm = names.items[k];
            tl_value_t *old = tl_env_lookup(fr->env, nm);
            if (old && old->kind != TL_V_ERROR && n->kind != TL_AST_ASSIGN && n->kind != TL_AST_FUNCTIONDEF &&
                n->kind != TL_AST_CLASSDEF && n->kind != TL_AST_IMPORT && n->kind != TL_AST_IMPORTFROM)
                continue; // a compound statement that failed midway keeps what it already bound
            tl_env_set(ev, fr->env, nm, tl_value_error(ev->arena, why, where));
        }
    }
    return TL_FLOW_NORMAL;
}
