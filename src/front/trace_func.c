// Tracing one @T.prim_func: parameters from their T.Tensor / dtype
// annotations, the body, adoption of symbolic dims created in the factory, and
// verification of the result.
#include "front/front.h"

#include <string.h>

// Symbolic dims are created by T.symbolic in the factory, before the kernel
// exists (in the evaluator's scratch kernel); the first kernel that uses one
// adopts it. A dim shared by two prim_funcs of one factory is renumbered by the
// second (tilec compiles one kernel per compile, so this does not arise).
static void adopt(tl_kernel_t *k, tl_var_t *v)
{
    if (v->id < k->vars.len && k->vars.items[v->id] == v) return;
    v->id = k->vars.len;
    tl_vec_push(k->arena, &k->vars, v);
    if (v->kind == TL_VAR_DIM) tl_vec_push(k->arena, &k->dims, v);
}

static void adopt_expr(tl_kernel_t *k, const tl_expr_t *e)
{
    if (!e) return;
    switch (e->kind) {
    case TL_EX_VAR: adopt(k, e->var); break;
    case TL_EX_LOAD:
        for (int i = 0; i < e->load.n; i++) adopt_expr(k, e->load.idx[i]);
        break;
    case TL_EX_BIN:
        adopt_expr(k, e->op.a);
        adopt_expr(k, e->op.b);
        break;
    case TL_EX_UN: adopt_expr(k, e->op.a); break;
    case TL_EX_CAST:
    case TL_EX_REINTERPRET: adopt_expr(k, e->arg); break;
    case TL_EX_SELECT:
        adopt_expr(k, e->sel.cond);
        adopt_expr(k, e->sel.a);
        adopt_expr(k, e->sel.b);
        break;
    default: break;
    }
}

static void adopt_region(tl_kernel_t *k, const tl_region_t *r)
{
    for (int i = 0; i < r->ndim; i++) {
        adopt_expr(k, r->start[i]);
        adopt_expr(k, r->extent[i]);
    }
}

static void adopt_stmt(tl_kernel_t *k, const tl_stmt_t *s)
{
    if (!s) return;
    switch (s->kind) {
    case TL_ST_SEQ:
        for (int i = 0; i < s->seq.n; i++) adopt_stmt(k, s->seq.items[i]);
        break;
    case TL_ST_FOR:
        adopt_expr(k, s->for_.start);
        adopt_expr(k, s->for_.end);
        adopt_stmt(k, s->for_.body);
        break;
    case TL_ST_WHILE:
        adopt_expr(k, s->while_.cond);
        adopt_stmt(k, s->while_.body);
        break;
    case TL_ST_IF:
        adopt_expr(k, s->if_.cond);
        adopt_stmt(k, s->if_.then_);
        adopt_stmt(k, s->if_.else_);
        break;
    case TL_ST_LET: adopt_expr(k, s->let.value); break;
    case TL_ST_STORE:
        for (int i = 0; i < s->store.n; i++) adopt_expr(k, s->store.idx[i]);
        adopt_expr(k, s->store.value);
        break;
    case TL_ST_OP:
        for (int i = 0; i < s->op.nargs; i++) {
            if (s->op.args[i].kind == TL_ARG_REGION) adopt_region(k, &s->op.args[i].region);
            else adopt_expr(k, s->op.args[i].scalar);
        }
        adopt_expr(k, s->op.init);
        adopt_expr(k, s->op.pad_value);
        adopt_expr(k, s->op.k_valid);
        adopt_expr(k, s->op.n_valid);
        adopt_expr(k, s->op.unit_flag);
        break;
    case TL_ST_SCOPE: adopt_stmt(k, s->scope.body); break;
    case TL_ST_SYNC: adopt_expr(k, s->sync.id); break;
    case TL_ST_PRINT:
        for (int i = 0; i < s->print.n; i++) adopt_expr(k, s->print.args[i]);
        if (s->print.region) adopt_region(k, s->print.region);
        break;
    default: break;
    }
}

static bool trace_param(tl_eval_t *ev, tl_frame_t *fr, tl_kernel_t *k, const tl_ast_node_t *p,
                        tl_param_t *out)
{
    const char *name = p->param.name;
    if (p->param.kind != TL_PARAM_NORMAL && p->param.kind != TL_PARAM_POSONLY) {
        tl_eval_fail(ev, p->loc, "prim_func parameter '%s': *args, **kwargs and keyword-only "
                                 "parameters are not supported", name);
        return false;
    }
    if (!p->param.annotation) {
        tl_eval_fail(ev, p->loc, "prim_func parameter '%s' needs a type: T.Tensor(shape, dtype) or a "
                                 "scalar dtype such as T.int32", name);
        return false;
    }
    tl_value_t *t = tl_eval_expr(ev, fr, p->param.annotation);
    if (!t) return false;
    out->name = tl_arena_strdup(ev->arena, name);
    out->role = TL_ROLE_INPUT;
    if (t->kind == TL_V_TENSORTYPE) {
        tl_value_t *shape = t->tensortype.shape;
        tl_buffer_t *b = tl_ir_buffer(k, name, TL_SCOPE_GM, t->tensortype.dtype, shape->seq.n, NULL, p->loc);
        for (int i = 0; i < shape->seq.n; i++) {
            tl_value_t *d = shape->seq.items[i];
            tl_expr_t *e = tl_value_to_expr(ev, d, p->param.annotation->loc, TL_I32);
            if (!e) return false;
            adopt_expr(k, e);
            b->gm_shape[i] = e;
            int64_t c;
            b->shape[i] = tl_ir_is_const_int(e, &c) ? c : 0;
        }
        if (t->tensortype.int4 && !tl_eval_int4_buffer(ev, b, p->param.annotation->loc)) return false;
        out->buf = b;
        tl_value_t *bv = tl_value_new(ev->arena, TL_V_BUFFER);
        bv->buffer = b;
        tl_env_set(ev, fr->env, name, bv);
        return true;
    }
    if (t->kind == TL_V_DTYPE) {
        tl_var_t *v = tl_ir_var(k, name, t->dtype, TL_VAR_PARAM, p->loc);
        out->var = v;
        tl_env_set(ev, fr->env, name, tl_value_expr(ev->arena, tl_ir_varref(k, v, p->loc)));
        return true;
    }
    tl_eval_fail(ev, p->param.annotation->loc, "prim_func parameter '%s' must be annotated with "
                                               "T.Tensor(shape, dtype) or a dtype, got %s",
                 name, tl_value_type_name(t));
    return false;
}

tl_value_t *tl_front_trace(tl_eval_t *ev, tl_value_t *fn, tl_loc_t loc)
{
    const tl_ast_node_t *def = fn->func.def;
    if (def->kind != TL_AST_FUNCTIONDEF) return tl_eval_fail(ev, loc, "@T.prim_func needs a def");
    // Save the trace state: prim_funcs can be traced while another is open only
    // through factories called in a body, which we do not allow.
    if (ev->kernel) return tl_eval_fail(ev, def->loc, "a @T.prim_func cannot be defined inside another one");
    tl_kernel_t *k = tl_ir_kernel_new(ev->arena, def->def.name, def->loc);
    tl_frame_t fr = {0};
    fr.env = tl_env_new(ev, fn->func.closure);
    fr.dir = fn->func.module_dir;
    fr.traced = true;
    ev->kernel = k;
    ev->block = k->body = tl_ir_seq(k, def->loc);
    ev->parallel_depth = 0;
    ev->in_launch = false;
    ev->if_frame = NULL;
    tl_value_t *result = NULL;
    int np = def->def.params.len;
    k->params = tl_arena_alloc(ev->arena, sizeof(tl_param_t) * (size_t)(np ? np : 1));
    bool ok = true;
    for (int i = 0; i < np && ok; i++) {
        ok = trace_param(ev, &fr, k, def->def.params.items[i], &k->params[i]);
        if (ok) k->params[i].buf ? (void)(k->params[i].buf->param = i) : (void)0;
        k->nparams = ok ? i + 1 : i;
    }
    if (ok) {
        tl_flow_t f = tl_exec_body(ev, &fr, &def->def.body);
        ok = f != TL_FLOW_ERROR;

        if (ok && !k->grid) {
            tl_eval_fail(ev, def->loc, "prim_func '%s' has no `with T.Kernel(...)` launch", def->def.name);
            ok = false;
        }
    }
    if (ok) {
        adopt_expr(k, k->grid);
        adopt_stmt(k, k->body);
        if (tl_front_npuir(ev)) tl_front_npuir_flow(ev, k);
        ok = tl_ir_verify(k, ev->diag) == TL_OK;
    }
    if (ok) {
        result = tl_value_new(ev->arena, TL_V_KERNEL);
        result->kernel.kernel = k;
        result->kernel.pending = fn;
        if (!ev->first_traced) ev->first_traced = result;
    }
    ev->kernel = NULL;
    ev->block = NULL;
    return result;
}
