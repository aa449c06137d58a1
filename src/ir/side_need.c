// What one core needs of a statement tree: the closure of a set of seed
// statements under the data and control flow a core must run to execute them
// (see side.h, tl_side_need_close). Shared by the CV split and by the expert
// mode's per-core skipping (side.c).
#include "ir/side.h"

#include "ir/walk.h"

#include <string.h>

typedef struct {
    bool *var_read, *buf_read;
} reads_t;

static bool mark_read(void *arg, const tl_expr_t *e)
{
    reads_t *r = arg;
    if (e->kind == TL_EX_VAR) r->var_read[e->var->id] = true;
    if (e->kind == TL_EX_LOAD && e->load.buf->scope == TL_SCOPE_VAR)
        r->buf_read[e->load.buf->id] = true;
    return true;
}

static void reads_expr(reads_t *r, const tl_expr_t *e)
{
    if (e) tl_walk_expr(e, mark_read, r);
}

static void reads_region(reads_t *r, const tl_region_t *g)
{
    for (int d = 0; d < g->ndim; d++) {
        reads_expr(r, g->start[d]);
        reads_expr(r, g->extent[d]);
    }
}

void tl_side_stmt_reads(const tl_stmt_t *st, bool *var_read, bool *buf_read)
{
    reads_t r = {var_read, buf_read};
    switch (st->kind) {
    case TL_ST_FOR:
        reads_expr(&r, st->for_.start);
        reads_expr(&r, st->for_.end);
        break;
    case TL_ST_WHILE: reads_expr(&r, st->while_.cond); break;
    case TL_ST_IF: reads_expr(&r, st->if_.cond); break;
    case TL_ST_LET: reads_expr(&r, st->let.value); break;
    case TL_ST_STORE:
        for (int i = 0; i < st->store.n; i++) reads_expr(&r, st->store.idx[i]);
        reads_expr(&r, st->store.value);
        break;
    case TL_ST_OP:
        for (int i = 0; i < st->op.nargs; i++) {
            const tl_arg_t *a = &st->op.args[i];
            if (a->kind == TL_ARG_REGION)
                reads_region(&r, &a->region);
            else
                reads_expr(&r, a->scalar);
        }
        reads_expr(&r, st->op.init);
        reads_expr(&r, st->op.pad_value);
        reads_expr(&r, st->op.k_valid);
        reads_expr(&r, st->op.n_valid);
        reads_expr(&r, st->op.unit_flag);
        break;
    case TL_ST_SYNC: reads_expr(&r, st->sync.id); break;
    case TL_ST_PRINT:
        for (int i = 0; i < st->print.n; i++) reads_expr(&r, st->print.args[i]);
        if (st->print.region) reads_region(&r, st->print.region);
        break;
    default: break;
    }
}

static int innermost_loop(const tl_stmt_t *const *by, const int *parent, int o)
{
    for (int q = parent[o]; q; q = parent[q])
        if (by[q]->kind == TL_ST_FOR || by[q]->kind == TL_ST_WHILE) return q;
    return 0;
}

void tl_side_need_close(const tl_kernel_t *k, int n, const tl_stmt_t *const *by, const int *parent,
                        bool *need, bool *var_read, bool *buf_read)
{
    for (bool changed = true; changed;) {
        changed = false;
        // compounds around needed statements are needed too
        for (int o = n; o >= 1; o--)
            if (need[o] && parent[o] && !need[parent[o]]) {
                need[parent[o]] = true;
                changed = true;
            }
        memset(var_read, 0, sizeof(bool) * (size_t)k->vars.len);
        memset(buf_read, 0, sizeof(bool) * (size_t)k->buffers.len);
        for (int o = 1; o <= n; o++)
            if (need[o]) tl_side_stmt_reads(by[o], var_read, buf_read);
        for (int o = 1; o <= n; o++) {
            if (need[o]) continue;
            const tl_stmt_t *st = by[o];
            bool want = false;
            if (st->kind == TL_ST_LET)
                want = var_read[st->let.var->id];
            else if (st->kind == TL_ST_STORE && st->store.buf->scope == TL_SCOPE_VAR)
                want = buf_read[st->store.buf->id];
            else if (st->kind == TL_ST_BREAK || st->kind == TL_ST_CONTINUE) {
                int l = innermost_loop(by, parent, o);
                want = l && need[l];
            }
            if (!want) continue;
            need[o] = true;
            changed = true;
        }
    }
}
