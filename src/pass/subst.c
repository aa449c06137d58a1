// Substitution and deep copies of IR (see subst.h).
#include "pass/subst.h"

#include <stdlib.h>
#include <string.h>

void tl_subst_init(tl_subst_t *m)
{
    memset(m, 0, sizeof *m);
}

void tl_subst_free(tl_subst_t *m)
{
    free(m->from);
    free(m->to);
    free(m->bfrom);
    free(m->bto);
    memset(m, 0, sizeof *m);
}

// Grows two parallel arrays to hold one more entry; false when out of memory
// (the substitution is then not recorded).
static bool grow(void **a, void **b, int n, int *cap, size_t size)
{
    if (n < *cap) return true;
    int c = *cap ? *cap * 2 : 8;
    void *x = realloc(*a, size * (size_t)c);
    if (!x) return false;
    *a = x;
    void *y = realloc(*b, size * (size_t)c);
    if (!y) return false;
    *b = y;
    *cap = c;
    return true;
}

void tl_subst_var(tl_subst_t *m, const tl_var_t *v, tl_expr_t *with)
{
    for (int i = 0; i < m->nvars; i++)
        if (m->from[i] == v) {
            m->to[i] = with;
            return;
        }
    if (!grow((void **)&m->from, (void **)&m->to, m->nvars, &m->capvars, sizeof(void *))) return;
    m->from[m->nvars] = v;
    m->to[m->nvars++] = with;
}

void tl_subst_buffer(tl_subst_t *m, const tl_buffer_t *b, tl_buffer_t *with)
{
    for (int i = 0; i < m->nbufs; i++)
        if (m->bfrom[i] == b) {
            m->bto[i] = with;
            return;
        }
    if (!grow((void **)&m->bfrom, (void **)&m->bto, m->nbufs, &m->capbufs, sizeof(void *))) return;
    m->bfrom[m->nbufs] = b;
    m->bto[m->nbufs++] = with;
}

static tl_expr_t *var_of(const tl_subst_t *m, const tl_var_t *v)
{
    for (int i = 0; i < m->nvars; i++)
        if (m->from[i] == v) return m->to[i];
    return NULL;
}

static tl_buffer_t *buf_of(const tl_subst_t *m, tl_buffer_t *b)
{
    for (int i = 0; i < m->nbufs; i++)
        if (m->bfrom[i] == b) return m->bto[i];
    return b;
}

// A copy of node e with new children, in e's dtype.
static tl_expr_t *remake(tl_kernel_t *k, const tl_expr_t *e)
{
    tl_expr_t *r = tl_arena_dup(k->arena, e, sizeof *e);
    return r;
}

tl_expr_t *tl_subst_expr(tl_kernel_t *k, tl_subst_t *m, tl_expr_t *e)
{
    if (!e) return NULL;
    switch (e->kind) {
    case TL_EX_VAR: {
        tl_expr_t *to = var_of(m, e->var);
        return to ? to : e;
    }
    case TL_EX_LOAD: {
        tl_expr_t *idx[TL_MAX_DIMS];
        bool changed = false;
        int n = TL_MIN(e->load.n, TL_MAX_DIMS);
        for (int i = 0; i < n; i++) {
            idx[i] = tl_subst_expr(k, m, e->load.idx[i]);
            changed |= idx[i] != e->load.idx[i];
        }
        tl_buffer_t *b = buf_of(m, e->load.buf);
        if (!changed && b == e->load.buf) return e;
        tl_expr_t *r = tl_ir_load(k, b, n, idx, e->loc);
        r->dtype = e->dtype;
        return r;
    }
    case TL_EX_BIN: {
        tl_expr_t *a = tl_subst_expr(k, m, e->op.a), *b = tl_subst_expr(k, m, e->op.b);
        if (a == e->op.a && b == e->op.b) return e;
        tl_expr_t *r = tl_ir_bin(k, (tl_binop_t)e->op.op, a, b, e->loc);
        if (r->dtype == e->dtype) return r;
        r = remake(k, e);
        r->op.a = a;
        r->op.b = b;
        tl_ir_fix_height(r);
        return r;
    }
    case TL_EX_UN: {
        tl_expr_t *a = tl_subst_expr(k, m, e->op.a);
        if (a == e->op.a) return e;
        tl_expr_t *r = remake(k, e);
        r->op.a = a;
        tl_ir_fix_height(r);
        return r;
    }
    case TL_EX_CAST:
    case TL_EX_REINTERPRET: {
        tl_expr_t *a = tl_subst_expr(k, m, e->arg);
        if (a == e->arg) return e;
        tl_expr_t *r = remake(k, e);
        r->arg = a;
        tl_ir_fix_height(r);
        return r;
    }
    case TL_EX_SELECT: {
        tl_expr_t *c = tl_subst_expr(k, m, e->sel.cond), *a = tl_subst_expr(k, m, e->sel.a),
                  *b = tl_subst_expr(k, m, e->sel.b);
        if (c == e->sel.cond && a == e->sel.a && b == e->sel.b) return e;
        tl_expr_t *r = remake(k, e);
        r->sel.cond = c;
        r->sel.a = a;
        r->sel.b = b;
        tl_ir_fix_height(r);
        return r;
    }
    default: return e;
    }
}

void tl_subst_region(tl_kernel_t *k, tl_subst_t *m, const tl_region_t *in, tl_region_t *out)
{
    *out = *in;
    out->buf = buf_of(m, in->buf);
    for (int d = 0; d < in->ndim; d++) {
        out->start[d] = tl_subst_expr(k, m, in->start[d]);
        out->extent[d] = tl_subst_expr(k, m, in->extent[d]);
    }
}

static tl_var_t *fresh(tl_kernel_t *k, tl_subst_t *m, tl_var_t *v)
{
    if (!m->fresh_vars || !v) return v;
    tl_var_t *n = tl_ir_var(k, v->name, v->dtype, v->kind, v->loc);
    tl_subst_var(m, v, tl_ir_varref(k, n, v->loc));
    return n;
}

static tl_expr_t **subst_list(tl_kernel_t *k, tl_subst_t *m, tl_expr_t **in, int n)
{
    if (!n) return in;
    tl_expr_t **out = tl_arena_alloc(k->arena, sizeof *out * (size_t)n);
    for (int i = 0; i < n; i++) out[i] = tl_subst_expr(k, m, in[i]);
    return out;
}

tl_stmt_t *tl_subst_stmt(tl_kernel_t *k, tl_subst_t *m, const tl_stmt_t *s)
{
    if (!s) return NULL;
    tl_stmt_t *r = tl_arena_dup(k->arena, s, sizeof *s);
    switch (s->kind) {
    case TL_ST_SEQ:
        r->seq.items = tl_arena_alloc(k->arena, sizeof *r->seq.items * (size_t)(s->seq.n + 1));
        r->seq.cap = s->seq.n + 1;
        for (int i = 0; i < s->seq.n; i++) r->seq.items[i] = tl_subst_stmt(k, m, s->seq.items[i]);
        break;
    case TL_ST_FOR:
        r->for_.start = tl_subst_expr(k, m, s->for_.start);
        r->for_.end = tl_subst_expr(k, m, s->for_.end);
        r->for_.var = fresh(k, m, s->for_.var);
        r->for_.body = tl_subst_stmt(k, m, s->for_.body);
        break;
    case TL_ST_WHILE:
        r->while_.cond = tl_subst_expr(k, m, s->while_.cond);
        r->while_.body = tl_subst_stmt(k, m, s->while_.body);
        break;
    case TL_ST_IF:
        r->if_.cond = tl_subst_expr(k, m, s->if_.cond);
        r->if_.then_ = tl_subst_stmt(k, m, s->if_.then_);
        r->if_.else_ = tl_subst_stmt(k, m, s->if_.else_);
        break;
    case TL_ST_LET:
        r->let.value = tl_subst_expr(k, m, s->let.value);
        r->let.var = fresh(k, m, s->let.var);
        break;
    case TL_ST_STORE:
        r->store.buf = buf_of(m, s->store.buf);
        r->store.idx = subst_list(k, m, s->store.idx, s->store.n);
        r->store.value = tl_subst_expr(k, m, s->store.value);
        break;
    case TL_ST_OP: {
        tl_op_t *op = &r->op;
        op->args = tl_arena_alloc(k->arena, sizeof *op->args * (size_t)(s->op.nargs + 1));
        for (int i = 0; i < s->op.nargs; i++) {
            const tl_arg_t *a = &s->op.args[i];
            op->args[i] = *a;
            if (a->kind == TL_ARG_SCALAR)
                op->args[i].scalar = tl_subst_expr(k, m, a->scalar);
            else
                tl_subst_region(k, m, &a->region, &op->args[i].region);
        }
        op->init = tl_subst_expr(k, m, s->op.init);
        op->pad_value = tl_subst_expr(k, m, s->op.pad_value);
        op->k_valid = tl_subst_expr(k, m, s->op.k_valid);
        op->n_valid = tl_subst_expr(k, m, s->op.n_valid);
        op->unit_flag = tl_subst_expr(k, m, s->op.unit_flag);
        break;
    }
    case TL_ST_SCOPE: r->scope.body = tl_subst_stmt(k, m, s->scope.body); break;
    case TL_ST_SYNC: r->sync.id = tl_subst_expr(k, m, s->sync.id); break;
    case TL_ST_PRINT:
        r->print.args = subst_list(k, m, s->print.args, s->print.n);
        if (s->print.region) {
            r->print.region = tl_arena_alloc(k->arena, sizeof *r->print.region);
            tl_subst_region(k, m, s->print.region, r->print.region);
        }
        break;
    default: break;
    }
    return r;
}

tl_stmt_t *tl_subst_children(tl_stmt_t *s, tl_stmt_t *(*fn)(void *arg, tl_stmt_t *c), void *arg)
{
    if (!s) return s;
    switch (s->kind) {
    case TL_ST_SEQ:
        for (int i = 0; i < s->seq.n; i++) s->seq.items[i] = fn(arg, s->seq.items[i]);
        break;
    case TL_ST_FOR: s->for_.body = fn(arg, s->for_.body); break;
    case TL_ST_WHILE: s->while_.body = fn(arg, s->while_.body); break;
    case TL_ST_IF:
        s->if_.then_ = fn(arg, s->if_.then_);
        if (s->if_.else_) s->if_.else_ = fn(arg, s->if_.else_);
        break;
    case TL_ST_SCOPE: s->scope.body = fn(arg, s->scope.body); break;
    default: break;
    }
    return s;
}
