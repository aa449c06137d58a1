// Copy elision for L1 tiles of read-only inputs (see alias.h).
#include "cpu/alias.h"

#include <stdlib.h>

typedef struct {
    const tl_kernel_t *k;
    uint8_t *bad;     // per buffer: used other than as a copy destination or gemm operand
    uint8_t *written; // per buffer: a GM tensor the kernel writes
} walk_t;

static void expr(walk_t *w, const tl_expr_t *e)
{
    if (!e) return;
    switch (e->kind) {
    case TL_EX_LOAD:
        w->bad[e->load.buf->id] = 1;
        for (int i = 0; i < e->load.n; i++) expr(w, e->load.idx[i]);
        break;
    case TL_EX_BIN:
        expr(w, e->op.a);
        expr(w, e->op.b);
        break;
    case TL_EX_UN: expr(w, e->op.a); break;
    case TL_EX_CAST:
    case TL_EX_REINTERPRET: expr(w, e->arg); break;
    case TL_EX_SELECT:
        expr(w, e->sel.cond);
        expr(w, e->sel.a);
        expr(w, e->sel.b);
        break;
    default: break;
    }
}

static void region(walk_t *w, const tl_region_t *r)
{
    for (int d = 0; d < r->ndim; d++) {
        expr(w, r->start[d]);
        expr(w, r->extent[d]);
    }
}

static void op(walk_t *w, const tl_op_t *o)
{
    bool gemm = o->code == TL_OP_GEMM_V0 || o->code == TL_OP_MMA;
    for (int i = 0; i < o->nargs; i++) {
        const tl_arg_t *a = &o->args[i];
        if (a->kind != TL_ARG_REGION) {
            expr(w, a->scalar);
            continue;
        }
        region(w, &a->region);
        const tl_buffer_t *b = a->region.buf;
        bool writes = (o->code == TL_OP_COPY && i == 1) ||
                      (o->code == TL_OP_ATOMIC_ADD && i == 0) ||
                      (!gemm && o->code != TL_OP_COPY && i == 0) || (gemm && i == 2);
        if (b->scope == TL_SCOPE_GM) {
            w->written[b->id] |= writes;
            continue;
        }
        const tl_buffer_t *src = o->nargs > 0 ? o->args[0].region.buf : NULL;
        bool copy_in = o->code == TL_OP_COPY && i == 1 && o->args[0].kind == TL_ARG_REGION &&
                       src->scope == TL_SCOPE_GM && src->dtype == b->dtype && !o->pad_value &&
                       !o->transpose;
        if (!copy_in && !(gemm && i < 2)) w->bad[b->id] = 1;
    }
    expr(w, o->init);
    expr(w, o->pad_value);
    expr(w, o->k_valid);
    expr(w, o->n_valid);
    expr(w, o->unit_flag);
}

static void stmt(walk_t *w, const tl_stmt_t *s)
{
    if (!s) return;
    switch (s->kind) {
    case TL_ST_SEQ:
        for (int i = 0; i < s->seq.n; i++) stmt(w, s->seq.items[i]);
        break;
    case TL_ST_FOR:
        expr(w, s->for_.start);
        expr(w, s->for_.end);
        stmt(w, s->for_.body);
        break;
    case TL_ST_WHILE:
        expr(w, s->while_.cond);
        stmt(w, s->while_.body);
        break;
    case TL_ST_IF:
        expr(w, s->if_.cond);
        stmt(w, s->if_.then_);
        stmt(w, s->if_.else_);
        break;
    case TL_ST_LET: expr(w, s->let.value); break;
    case TL_ST_STORE:
        w->bad[s->store.buf->id] = 1;
        w->written[s->store.buf->id] = 1;
        for (int i = 0; i < s->store.n; i++) expr(w, s->store.idx[i]);
        expr(w, s->store.value);
        break;
    case TL_ST_OP: op(w, &s->op); break;
    case TL_ST_SCOPE: stmt(w, s->scope.body); break;
    case TL_ST_SYNC: expr(w, s->sync.id); break;
    case TL_ST_PRINT:
        for (int i = 0; i < s->print.n; i++) expr(w, s->print.args[i]);
        if (s->print.region) {
            w->bad[s->print.region->buf->id] = 1;
            region(w, s->print.region);
        }
        break;
    default: break;
    }
}

uint8_t *tl_alias_plan(const tl_kernel_t *k, const tl_layout_t *layout)
{
    size_t n = (size_t)k->buffers.len + 1;
    uint8_t *plan = calloc(n, 1), *bad = calloc(n, 1), *written = calloc(n, 1);
    if (plan && bad && written) {
        walk_t w = {k, bad, written};
        stmt(&w, k->body);
        for (int i = 0; i < k->buffers.len; i++) {
            const tl_buffer_t *b = k->buffers.items[i];
            if (b->scope == TL_SCOPE_GM) {
                plan[i] = b->param >= 0 && k->params[b->param].role == TL_ROLE_INPUT && !written[i];
                continue;
            }
            if (b->scope != TL_SCOPE_L1 || bad[i]) continue;
            bool overlaps = false; // another buffer at the same scratchpad bytes
            for (int j = 0; j < k->buffers.len; j++) {
                const tl_buffer_t *o = k->buffers.items[j];
                if (j == i || o->scope != b->scope) continue;
                overlaps |= layout->addr[j] < layout->addr[i] + tl_buffer_bytes(b) &&
                            layout->addr[i] < layout->addr[j] + tl_buffer_bytes(o);
            }
            plan[i] = !overlaps;
        }
    }
    free(bad);
    free(written);
    return plan;
}

bool tl_alias_copy(tl_alias_t *a, const tl_view_t *src, const tl_view_t *dst)
{
    a->on = false;
    int lead = src->ndim - dst->ndim;
    if (src->scope != TL_SCOPE_GM || lead < 0 || dst->form == TL_REGION_POINT) return false;
    for (int d = 0; d < dst->ndim; d++)
        if (dst->start[d] != 0 || dst->extent[d] != dst->shape[d]) return false;
    for (int d = 0; d < src->ndim; d++) {
        int64_t want = d < lead ? 1 : dst->shape[d - lead];
        if (src->start[d] < 0 || src->start[d] + want > src->shape[d]) return false;
        if (src->form != TL_REGION_POINT && src->extent[d] != want) return false;
    }
    a->on = true;
    a->data = src->data;
    a->bytes = src->bytes;
    a->ndim = src->ndim;
    memcpy(a->shape, src->shape, sizeof a->shape);
    memcpy(a->start, src->start, sizeof a->start);
    return true;
}

void tl_alias_view(const tl_alias_t *a, tl_view_t *v)
{
    int lead = a->ndim - v->ndim;
    int64_t start[TL_MAX_DIMS], extent[TL_MAX_DIMS];
    for (int d = 0; d < a->ndim; d++) {
        start[d] = a->start[d] + (d < lead ? 0 : v->start[d - lead]);
        extent[d] = d < lead ? 1 : v->extent[d - lead];
    }
    v->data = a->data;
    v->bytes = a->bytes;
    v->ndim = a->ndim;
    memcpy(v->shape, a->shape, sizeof v->shape);
    memcpy(v->start, start, sizeof start);
    memcpy(v->extent, extent, sizeof extent);
}
