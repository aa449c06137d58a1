// Expression walks shared by passes, backends and the front end (see walk.h).
#include "ir/walk.h"

void tl_walk_expr(const tl_expr_t *e, bool (*fn)(void *arg, const tl_expr_t *e), void *arg)
{
    if (!e || !fn(arg, e)) return;
    switch (e->kind) {
    case TL_EX_LOAD:
        for (int i = 0; i < e->load.n; i++) tl_walk_expr(e->load.idx[i], fn, arg);
        break;
    case TL_EX_BIN:
        tl_walk_expr(e->op.a, fn, arg);
        tl_walk_expr(e->op.b, fn, arg);
        break;
    case TL_EX_UN: tl_walk_expr(e->op.a, fn, arg); break;
    case TL_EX_CAST:
    case TL_EX_REINTERPRET: tl_walk_expr(e->arg, fn, arg); break;
    case TL_EX_SELECT:
        tl_walk_expr(e->sel.cond, fn, arg);
        tl_walk_expr(e->sel.a, fn, arg);
        tl_walk_expr(e->sel.b, fn, arg);
        break;
    default: break;
    }
}

static bool find_load(void *arg, const tl_expr_t *e)
{
    if (e->kind == TL_EX_LOAD) *(bool *)arg = true;
    return !*(bool *)arg;
}

bool tl_walk_has_load(const tl_expr_t *e)
{
    bool found = false;
    tl_walk_expr(e, find_load, &found);
    return found;
}

bool tl_walk_mentions(const tl_expr_t *e, const tl_var_t *v)
{
    if (!e) return false;
    switch (e->kind) {
    case TL_EX_VAR: return e->var == v;
    case TL_EX_LOAD:
        for (int i = 0; i < e->load.n; i++)
            if (tl_walk_mentions(e->load.idx[i], v)) return true;
        return false;
    case TL_EX_BIN: return tl_walk_mentions(e->op.a, v) || tl_walk_mentions(e->op.b, v);
    case TL_EX_UN: return tl_walk_mentions(e->op.a, v);
    case TL_EX_CAST:
    case TL_EX_REINTERPRET: return tl_walk_mentions(e->arg, v);
    case TL_EX_SELECT:
        return tl_walk_mentions(e->sel.cond, v) || tl_walk_mentions(e->sel.a, v) ||
               tl_walk_mentions(e->sel.b, v);
    default: return false;
    }
}

static bool exprs_mention(tl_expr_t *const *e, int n, const tl_var_t *v)
{
    for (int i = 0; i < n; i++)
        if (tl_walk_mentions(e[i], v)) return true;
    return false;
}

static bool region_mentions(const tl_region_t *r, const tl_var_t *v)
{
    return exprs_mention(r->start, r->ndim, v) || exprs_mention(r->extent, r->ndim, v);
}

bool tl_walk_stmt_mentions(const tl_stmt_t *s, const tl_var_t *v)
{
    if (!s) return false;
    switch (s->kind) {
    case TL_ST_SEQ:
        for (int i = 0; i < s->seq.n; i++)
            if (tl_walk_stmt_mentions(s->seq.items[i], v)) return true;
        return false;
    case TL_ST_FOR:
        return tl_walk_mentions(s->for_.start, v) || tl_walk_mentions(s->for_.end, v) ||
               tl_walk_stmt_mentions(s->for_.body, v);
    case TL_ST_WHILE:
        return tl_walk_mentions(s->while_.cond, v) || tl_walk_stmt_mentions(s->while_.body, v);
    case TL_ST_IF:
        return tl_walk_mentions(s->if_.cond, v) || tl_walk_stmt_mentions(s->if_.then_, v) ||
               tl_walk_stmt_mentions(s->if_.else_, v);
    case TL_ST_LET: return tl_walk_mentions(s->let.value, v);
    case TL_ST_STORE:
        return exprs_mention(s->store.idx, s->store.n, v) || tl_walk_mentions(s->store.value, v);
    case TL_ST_OP:
        for (int i = 0; i < s->op.nargs; i++) {
            const tl_arg_t *a = &s->op.args[i];
            if (a->kind == TL_ARG_SCALAR ? tl_walk_mentions(a->scalar, v)
                                         : region_mentions(&a->region, v))
                return true;
        }
        return tl_walk_mentions(s->op.init, v) || tl_walk_mentions(s->op.pad_value, v) ||
               tl_walk_mentions(s->op.k_valid, v) || tl_walk_mentions(s->op.n_valid, v) ||
               tl_walk_mentions(s->op.unit_flag, v);
    case TL_ST_SCOPE: return tl_walk_stmt_mentions(s->scope.body, v);
    case TL_ST_SYNC: return tl_walk_mentions(s->sync.id, v);
    case TL_ST_PRINT:
        return exprs_mention(s->print.args, s->print.n, v) ||
               (s->print.region && region_mentions(s->print.region, v));
    default: return false;
    }
}
