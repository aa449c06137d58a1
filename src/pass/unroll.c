// unroll (cpu pipeline): a short serial loop of tile ops with constant bounds
// becomes the sequence of its iterations, the loop variable replaced by each
// value. The ops then have constant operand starts, so the C generator's
// element-wise runs (cpu/cgen_fuse.c) can join them with the ops around
// them: hc_split_sinkhorn's column step (a copy, hc - 1 adds over the token
// blocks of the tile, + eps, reciprocal, hc multiplies) becomes one loop
// instead of 2 + 2 hc. The program is the same ops in the same order.
#include "pass/pass.h"

#include "pass/subst.h"

enum {
    UNROLL_TRIP = 8,   // at most this many iterations
    UNROLL_STMTS = 32, // and this many statements in all
};

// The number of tile ops of a loop body made only of them (0: anything else).
static int ops_only(const tl_stmt_t *b)
{
    if (b->kind == TL_ST_OP) return 1;
    if (b->kind != TL_ST_SEQ) return 0;
    int n = 0;
    for (int i = 0; i < b->seq.n; i++) {
        int m = ops_only(b->seq.items[i]);
        if (!m) return 0;
        n += m;
    }
    return n;
}

static tl_stmt_t *unroll(void *arg, tl_stmt_t *s)
{
    tl_kernel_t *k = arg;
    tl_subst_children(s, unroll, k); // inner loops first
    int64_t a, b;
    if (s->kind != TL_ST_FOR ||
        (s->for_.loop != TL_LOOP_SERIAL && s->for_.loop != TL_LOOP_UNROLL) ||
        !tl_ir_is_const_int(s->for_.start, &a) || !tl_ir_is_const_int(s->for_.end, &b) ||
        b - a < 2 || b - a > UNROLL_TRIP)
        return s;
    int n = ops_only(s->for_.body);
    if (!n || (b - a) * n > UNROLL_STMTS) return s;
    tl_stmt_t *seq = tl_ir_seq(k, s->loc);
    seq->side = s->side;
    for (int64_t t = a; t < b; t++) {
        tl_subst_t m;
        tl_subst_init(&m);
        tl_subst_var(&m, s->for_.var, tl_ir_int(k, t, s->for_.var->dtype, s->loc));
        tl_ir_seq_push(k, seq, tl_subst_stmt(k, &m, s->for_.body));
        tl_subst_free(&m);
    }
    return seq;
}

tl_status_t tl_pass_unroll(tl_kernel_t *k, tl_pass_ctx_t *ctx)
{
    (void)ctx;
    if (k->body) k->body = unroll(k, k->body);
    return TL_OK;
}
