// TVMScript's meaning of comparisons, `and` / `or` / `not` and Python truth in
// a traced frame (a @T.prim_func body or a @T.macro), as the TVM that
// tilelang-ascend pins (its 3rdparty/tvm submodule) parses them:
// - its ExprEvaluator evaluates every operand of a comparison or `and` / `or`
//   first, then applies the operator registered for PrimExpr operands
//   (script/parser/tir/operation.py): a comparison builds tir.EQ / NE / LT /
//   LE / GT / GE, `and` / `or` build tir.And / tir.Or (a Python bool operand
//   becomes a bool constant; any other operand must be a bool PrimExpr),
//   `not` builds tir.Not. These are nodes, never folded to a Python bool;
// - a name assigned in the body is bound to a LetStmt variable (tilelang's
//   bind_assign_value), so it is a PrimExpr too, whatever the value;
// - `a if c else b` is evaluated by Python, which takes bool(c): an IntImm
//   gives its value, any other PrimExpr raises ValueError ("Cannot use and /
//   or / not operator to Expr").
// tilec keeps the values (a constant stays usable as one) and marks the
// nodes (value->tvm_node), so the conditional expression can refuse them.
// A plain Python function called from the body is run by Python on the TVM
// objects (tvm/tir/expr.py): `x == y` / `x != y` give EqualOp / NotEqualOp,
// truthy by identity (x.same_as(y)) -- unless x is an IntImm, whose __eq__
// folds (or builds tir.EQ) --, `<` and the others give a folded IntImm or a
// node, and bool() of any PrimExpr but an IntImm raises.
#include "front/front.h"

// A PrimExpr for TVM's parser: a run-time value, a T.alloc_var read, or a node.
bool tl_tvm_is_prim(const tl_value_t *v)
{
    return v->tvm_node || v->kind == TL_V_EXPR ||
           (v->kind == TL_V_BUFFER && v->buffer->scope == TL_SCOPE_VAR);
}

// A PrimExpr that is not an IntImm: Python's bool() of it raises.
static bool truth_raises(const tl_value_t *v)
{
    int64_t c;
    if (!tl_tvm_is_prim(v)) return false;
    return v->tvm_node || v->kind != TL_V_EXPR || !tl_ir_is_const_int(v->expr, &c);
}

tl_value_t *tl_tvm_node(tl_eval_t *ev, tl_value_t *v)
{
    if (v->tvm_node) return v;
    tl_value_t *c = tl_value_dup(ev->arena, v);
    c->tvm_node = true;
    return c;
}

tl_value_t *tl_tvm_let(tl_eval_t *ev, const tl_frame_t *fr, const tl_ast_node_t *target,
                       tl_value_t *v)
{
    if (!ev->kernel || !fr->traced) return v;
    if (target->kind == TL_AST_TUPLE || target->kind == TL_AST_LIST) { // each name is bound alike
        const tl_ast_list_t *elts = &target->seq.elts;
        if ((v->kind != TL_V_TUPLE && v->kind != TL_V_LIST) || v->seq.n != elts->len) return v;
        tl_value_t *c = tl_value_list(ev->arena, 0, NULL);
        c->kind = v->kind;
        for (int i = 0; i < elts->len; i++)
            tl_value_list_append(ev->arena, c, tl_tvm_let(ev, fr, elts->items[i], v->seq.items[i]));
        return c;
    }
    if (target->kind != TL_AST_NAME) return v;
    switch (v->kind) {
    case TL_V_BOOL:
    case TL_V_INT:
    case TL_V_WIDE:
    case TL_V_FLOAT:
    case TL_V_EXPR: return tl_tvm_node(ev, v);
    default: return v; // buffers, tuples, functions...: bound as they are
    }
}

// An operand of tir.And / Or / Not (`op` names the Python operator): a Python
// bool or a bool PrimExpr.
static tl_expr_t *bool_operand(tl_eval_t *ev, tl_value_t *v, const char *op, tl_loc_t loc)
{
    tl_kernel_t *k = tl_eval_ir(ev);
    if (v->kind == TL_V_BOOL) return tl_ir_int(k, v->b, TL_BOOL, loc);
    tl_expr_t *e = NULL;
    if (tl_value_is_exprlike(v) && !(e = tl_value_to_expr(ev, v, loc, -1))) return NULL;
    if (e && e->dtype == TL_BOOL) return e;
    const char *node = op[0] == 'a' ? "And" : op[0] == 'o' ? "Or" : "Not";
    const char *what = e ? tl_dtype_name(e->dtype) : tl_value_type_name(v);
    tl_eval_fail(ev, loc,
                 "'%s' of a TVM expression in a kernel needs bool operands: TVM's parser builds "
                 "tir.%s, which rejects this %s operand",
                 op, node, what);
    return NULL;
}

tl_value_t *tl_tvm_boolop(tl_eval_t *ev, tl_frame_t *fr, const tl_ast_node_t *n)
{
    bool is_and = n->boolop.op == TL_BOOLOP_AND;
    const char *op = is_and ? "and" : "or";
    tl_value_t *acc = NULL;
    tl_loc_t acc_loc = n->loc;
    for (int i = 0; i < n->boolop.values.len; i++) {
        const tl_ast_node_t *item = n->boolop.values.items[i];
        tl_value_t *v = tl_eval_expr(ev, fr, item);
        if (!v) return NULL;
        if (!acc) {
            acc = v, acc_loc = item->loc;
            continue;
        }
        if (!tl_tvm_is_prim(acc) && !tl_tvm_is_prim(v)) { // Python's `and` / `or` of the values
            bool is_expr = false, ok = true;
            bool t = tl_eval_truth(ev, &acc, acc_loc, &is_expr, &ok);
            if (!ok) return NULL;
            if (is_and == t) acc = v;
            continue;
        }
        tl_expr_t *x = bool_operand(ev, acc, op, acc_loc);
        tl_expr_t *y = x ? bool_operand(ev, v, op, item->loc) : NULL;
        if (!y) return NULL;
        tl_expr_t *e =
            tl_ir_bin(tl_eval_ir(ev), is_and ? TL_BIN_LAND : TL_BIN_LOR, x, y, item->loc);
        acc = tl_tvm_node(ev, tl_value_expr(ev->arena, e));
    }
    return acc;
}

tl_value_t *tl_tvm_not(tl_eval_t *ev, tl_value_t *a, tl_loc_t loc)
{
    tl_expr_t *x = bool_operand(ev, a, "not", loc);
    if (!x) return NULL;
    return tl_tvm_node(ev, tl_value_expr(ev->arena, tl_ir_un(tl_eval_ir(ev), TL_UN_NOT, x, loc)));
}

bool tl_tvm_check_truth(tl_eval_t *ev, const tl_value_t *c, tl_loc_t loc)
{
    if (!truth_raises(c)) return true;
    tl_eval_fail(ev, loc,
                 "TVM's parser takes Python's truth value of this condition and raises (\"Cannot "
                 "use and / or / not operator to Expr\"): it is a TVM expression (a run-time "
                 "value, a comparison or and / or / not of one, or a name assigned in the kernel "
                 "body, a variable there); choose at run time with T.if_then_else(c, a, b) or "
                 "tir.Select, or decide the condition in the factory");
    return false;
}

// A PrimExpr that is not an IntImm in TVM (its operator methods build nodes).
static bool is_node(const tl_value_t *v)
{
    return tl_tvm_is_prim(v) && truth_raises(v);
}

static bool same_object(const tl_value_t *a, const tl_value_t *b)
{
    return a == b || (a->kind == TL_V_EXPR && b->kind == TL_V_EXPR && a->expr == b->expr);
}

tl_value_t *tl_tvm_python_compare(tl_eval_t *ev, const tl_frame_t *fr, int op, const tl_value_t *left,
                                  const tl_value_t *right, tl_value_t *r)
{
    if (!ev->kernel || fr->traced || (op != TL_BIN_EQ && op != TL_BIN_NE)) return r;
    // left's __eq__, or right's reflected one when left is a Python value
    bool eq_op = is_node(left) || (!tl_tvm_is_prim(left) && is_node(right));
    if (!eq_op) return r;
    bool same = same_object(left, right);
    tl_value_t *c = tl_value_dup(ev->arena, r);
    c->tvm_truth = (op == TL_BIN_EQ) == same ? 2 : 1;
    return c;
}

bool tl_eval_cond(tl_eval_t *ev, const tl_frame_t *fr, tl_value_t **vp, tl_loc_t loc, bool *is_expr,
                  bool *ok)
{
    const tl_value_t *v = *vp;
    if (ev->kernel && !fr->traced) {
        *is_expr = false;
        if (v->tvm_truth) return v->tvm_truth == 2;
        if (is_node(v)) {
            tl_eval_fail(ev, loc,
                         "Python takes the truth value of a TVM expression here, in a plain "
                         "Python function the kernel calls (run by Python, not parsed): TVM "
                         "raises (\"Cannot use and / or / not operator to Expr\"); make the "
                         "function a @T.macro for a run-time `if`, or use T.if_then_else");
            *ok = false;
            return false;
        }
    }
    return tl_eval_truth(ev, vp, loc, is_expr, ok);
}
