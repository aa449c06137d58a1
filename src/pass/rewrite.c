// Statement-tree editing helpers (rewrite.h).
#include "pass/rewrite.h"

#include <string.h>

static void wrap(tl_kernel_t *k, tl_stmt_t **body, tl_loc_t loc)
{
    if (*body && (*body)->kind == TL_ST_SEQ) return;
    tl_stmt_t *seq = tl_ir_seq(k, *body ? (*body)->loc : loc);
    if (*body) tl_ir_seq_push(k, seq, *body);
    *body = seq;
}

static void normalize(tl_kernel_t *k, tl_stmt_t *s)
{
    if (!s) return;
    switch (s->kind) {
    case TL_ST_SEQ:
        for (int i = 0; i < s->seq.n; i++) normalize(k, s->seq.items[i]);
        break;
    case TL_ST_FOR:
        wrap(k, &s->for_.body, s->loc);
        normalize(k, s->for_.body);
        break;
    case TL_ST_WHILE:
        wrap(k, &s->while_.body, s->loc);
        normalize(k, s->while_.body);
        break;
    case TL_ST_IF:
        wrap(k, &s->if_.then_, s->loc);
        normalize(k, s->if_.then_);
        if (s->if_.else_) {
            wrap(k, &s->if_.else_, s->loc);
            normalize(k, s->if_.else_);
        }
        break;
    case TL_ST_SCOPE:
        wrap(k, &s->scope.body, s->loc);
        normalize(k, s->scope.body);
        break;
    default: break;
    }
}

void tl_rewrite_normalize(tl_kernel_t *k)
{
    wrap(k, &k->body, k->loc);
    normalize(k, k->body);
}

void tl_rewrite_insert(tl_kernel_t *k, tl_stmt_t *seq, int index, tl_stmt_t *s)
{
    tl_ir_seq_push(k, seq, s);
    tl_stmt_t **it = seq->seq.items;
    memmove(it + index + 1, it + index, sizeof *it * (size_t)(seq->seq.n - 1 - index));
    it[index] = s;
}

void tl_rewrite_remove(tl_stmt_t *seq, int index)
{
    tl_stmt_t **it = seq->seq.items;
    memmove(it + index, it + index + 1, sizeof *it * (size_t)(seq->seq.n - 1 - index));
    seq->seq.n--;
}

tl_stmt_t *tl_rewrite_sync(tl_kernel_t *k, tl_sync_kind_t kind, tl_pipe_t src, tl_pipe_t dst,
                           tl_expr_t *id, int mode, tl_loc_t loc)
{
    tl_stmt_t *s = tl_ir_stmt(k, TL_ST_SYNC, loc);
    s->inserted = true;
    s->sync.kind = kind;
    s->sync.src = src;
    s->sync.dst = dst;
    s->sync.id = id;
    s->sync.mode = mode;
    return s;
}

tl_stmt_t *tl_rewrite_clone_leaf(tl_kernel_t *k, const tl_stmt_t *s)
{
    tl_stmt_t *c = tl_arena_dup(k->arena, s, sizeof *s);
    if (s->kind == TL_ST_OP && s->op.nargs)
        c->op.args = tl_arena_dup(k->arena, s->op.args, sizeof *s->op.args * (size_t)s->op.nargs);
    return c;
}

tl_stmt_t *tl_rewrite_scope(tl_kernel_t *k, tl_side_t side, tl_stmt_t *body, tl_loc_t loc)
{
    tl_stmt_t *s = tl_ir_stmt(k, TL_ST_SCOPE, loc);
    s->scope.side = side;
    s->scope.body = body;
    return s;
}

void tl_rewrite_walk(tl_stmt_t *s, void (*fn)(void *arg, tl_stmt_t *s), void *arg)
{
    if (!s) return;
    fn(arg, s);
    switch (s->kind) {
    case TL_ST_SEQ:
        for (int i = 0; i < s->seq.n; i++) tl_rewrite_walk(s->seq.items[i], fn, arg);
        break;
    case TL_ST_FOR: tl_rewrite_walk(s->for_.body, fn, arg); break;
    case TL_ST_WHILE: tl_rewrite_walk(s->while_.body, fn, arg); break;
    case TL_ST_IF:
        tl_rewrite_walk(s->if_.then_, fn, arg);
        tl_rewrite_walk(s->if_.else_, fn, arg);
        break;
    case TL_ST_SCOPE: tl_rewrite_walk(s->scope.body, fn, arg); break;
    default: break;
    }
}

static void tally(void *arg, tl_stmt_t *s)
{
    (void)s;
    ++*(int *)arg;
}

int tl_rewrite_count(tl_stmt_t *s)
{
    int n = 0;
    tl_rewrite_walk(s, tally, &n);
    return n;
}
