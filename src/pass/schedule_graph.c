// The dependence graph of the schedule pass (see schedule.c): the nodes of a
// segment and their dependences, the summaries of loops and ifs, and the
// unrolling and fusion of small loops.
#include "pass/schedule_int.h"

#include "ir/access.h"
#include "ir/walk.h"
#include "pass/rewrite.h"
#include "pass/subst.h"

#include <stdlib.h>
#include <string.h>

// --- nodes and dependences ----------------------------------------------------------------------

static void add_access(void *arg, const tl_hazard_access_t *a)
{
    sched_t *S = arg;
    S->acc = sched_grow(S, S->acc, &S->capacc, S->nacc + 1, sizeof *S->acc);
    if (S->nacc < S->capacc) S->acc[S->nacc++] = *a;
}

static void add_reg(void *arg, const tl_access_t *a)
{
    sched_t *S = arg;
    if (a->buf->scope != TL_SCOPE_VAR) return;
    S->reg = sched_grow(S, S->reg, &S->capreg, S->nreg + 1, sizeof *S->reg);
    if (S->nreg < S->capreg) S->reg[S->nreg++] = (reg_t){a->buf, (a->mode & TL_ACCESS_WRITE) != 0};
}

static void collect(void *arg, tl_stmt_t *s)
{
    tl_hazard_stmt(s, add_access, arg);
    tl_access_stmt(s, add_reg, arg);
}

static tl_hazard_rel_t rel(void *arg, const tl_var_t *v)
{
    const sched_t *S = arg;
    // loop variables of loops inside the two statements: any value
    if (v->kind == TL_VAR_LOOP && (v->id >= S->nvars || !S->enclosing[v->id])) return TL_HAZARD_ANY;
    return TL_HAZARD_EQ;
}

int64_t sched_trip_of(const tl_stmt_t *s)
{
    int64_t a, b;
    if (tl_ir_is_const_int(s->for_.start, &a) && tl_ir_is_const_int(s->for_.end, &b))
        return TL_MAX(b - a, 0);
    return 1;
}

// Runs of t times summary b, one after the other.
static summary_t repeat(const summary_t *b, int64_t t)
{
    summary_t r = *b;
    if (t <= 0) return (summary_t){b->s, 1, 1, {0}, {0}, 0, false};
    int64_t before = (t - 1) * b->span;
    r.span = before + b->span;
    r.issue = (t - 1) * TL_MAX(b->issue, b->span) + b->issue;
    for (int p = 0; p < TL_PIPE_COUNT; p++) {
        if (!(b->pipes >> p & 1)) continue;
        r.free[p] = before + b->free[p];
        r.done[p] = before + b->done[p];
    }
    return r;
}

summary_t sched_summary_of(sched_t *S, const tl_stmt_t *s)
{
    summary_t z = {s, 1, 1, {0}, {0}, 0, false};
    const summary_t *f;
    switch (s->kind) {
    case TL_ST_SEQ: return (f = sched_sum_find(S, s)) ? *f : z;
    case TL_ST_FOR: {
        summary_t b = sched_summary_of(S, s->for_.body);
        return repeat(&b, sched_trip_of(s));
    }
    case TL_ST_IF: {
        summary_t a = sched_summary_of(S, s->if_.then_);
        summary_t b = s->if_.else_ ? sched_summary_of(S, s->if_.else_) : z;
        // either branch: the longer of each
        a.span = TL_MAX(a.span, b.span);
        a.issue = TL_MAX(a.issue, b.issue);
        for (int p = 0; p < TL_PIPE_COUNT; p++) {
            a.free[p] = TL_MAX(a.free[p], b.free[p]);
            a.done[p] = TL_MAX(a.done[p], b.done[p]);
        }
        a.pipes |= b.pipes;
        a.scalar |= b.scalar;
        return a;
    }
    default: return z;
    }
}

static void build_node(sched_t *S, node_t *n, tl_stmt_t *s)
{
    memset(n, 0, sizeof *n);
    n->s = s;
    n->group = -1;
    n->acc0 = S->nacc;
    n->reg0 = S->nreg;
    tl_rewrite_walk(s, collect, S);
    n->acc1 = S->nacc;
    n->reg1 = S->nreg;
    if (s->kind == TL_ST_LET) n->def = s->let.var;
    if (s->kind == TL_ST_FOR || s->kind == TL_ST_IF || s->kind == TL_ST_SEQ) {
        n->kind = N_UNIT;
        n->sum = sched_summary_of(S, s);
        n->sum.span = TL_MAX(n->sum.span, 1);
    } else {
        sched_leaf_cost(S, n);
    }
}

// Whether two accesses may be in the same memory at all (a cheap test before
// the exact one).
static bool may_alias(const tl_hazard_access_t *a, const tl_hazard_access_t *b)
{
    const tl_buffer_t *x = a->buf, *y = b->buf;
    if (x == y) return true;
    if (x->scope != y->scope || x->scope == TL_SCOPE_GM || x->addr < 0 || y->addr < 0) return false;
    int64_t xe = TL_ALIGN_UP(x->addr + tl_buffer_bytes(x), 32),
            ye = TL_ALIGN_UP(y->addr + tl_buffer_bytes(y), 32);
    return x->addr / 32 * 32 < ye && y->addr / 32 * 32 < xe;
}

static dep_t depends(sched_t *S, const node_t *a, const node_t *b)
{
    dep_t d = 0;
    for (int i = a->acc0; i < a->acc1; i++)
        for (int j = b->acc0; j < b->acc1; j++) {
            const tl_hazard_access_t *x = &S->acc[i], *y = &S->acc[j];
            if (!x->write && !y->write) continue;
            if ((d & DEP_S) || ((d & DEP_MEM) && y->pipe != TL_PIPE_S)) continue;
            if (!may_alias(x, y) || !tl_hazard_overlap(S->hz, x, y, rel, S)) continue;
            d |= DEP | DEP_MEM | (y->pipe == TL_PIPE_S ? DEP_S : 0);
        }
    for (int i = a->reg0; i < a->reg1 && !(d & DEP); i++)
        for (int j = b->reg0; j < b->reg1; j++)
            if (S->reg[i].buf == S->reg[j].buf && (S->reg[i].write || S->reg[j].write)) d |= DEP;
    if ((a->def && tl_walk_stmt_mentions(b->s, a->def)) ||
        (b->def && (a->def == b->def || tl_walk_stmt_mentions(a->s, b->def))))
        d |= DEP;
    return d;
}

// Nodes and dependences of items[0 .. n).
bool sched_build(sched_t *S, tl_stmt_t **items, int n)
{
    S->nacc = S->nreg = 0;
    S->n = n;
    for (int i = 0; i < n; i++) build_node(S, &S->nodes[i], items[i]);
    if (S->oom) return false;
    memset(S->dep, 0, (size_t)n * (size_t)n);
    int edges = 0;
    for (int j = 0; j < n; j++) {
        S->mp0[j] = edges;
        for (int i = 0; i < j; i++) {
            dep_t d = depends(S, &S->nodes[i], &S->nodes[j]);
            S->dep[i * n + j] = d;
            if (!(d & DEP_MEM)) continue;
            S->mpred = sched_grow(S, S->mpred, &S->capmpred, edges + 1, sizeof *S->mpred);
            if (edges < S->capmpred) S->mpred[edges++] = i;
        }
    }
    S->mp0[n] = edges;
    // Each pipe but the vector pipe keeps its order: transfers share the
    // memory system first come first served, and the cube's pipes are
    // pipelined by the program (pipelined.c); only the vector ops interleave.
    for (int p = TL_PIPE_S + 1; p < TL_PIPE_COUNT; p++) {
        if (p == TL_PIPE_V) continue;
        for (int j = 0, last = -1; j < n; j++) {
            const node_t *a = &S->nodes[j];
            if (!(a->kind == N_UNIT ? a->sum.pipes >> p & 1 : a->pipe == (tl_pipe_t)p)) continue;
            if (last >= 0) S->dep[last * n + j] |= DEP;
            last = j;
        }
    }
    return !S->oom;
}

// --- unrolling and fusion -----------------------------------------------------------------------

static bool leaf_body(const tl_stmt_t *b, int *count)
{
    *count = 0;
    for (int i = 0; i < b->seq.n; i++) {
        const tl_stmt_t *s = b->seq.items[i];
        if ((s->kind != TL_ST_OP && s->kind != TL_ST_STORE) || sched_fixed_leaf(s)) return false;
        (*count)++;
    }
    return *count > 0;
}

// Replaces small loops of seq by their iterations; records them in *un.
int sched_unroll_small(sched_t *S, tl_stmt_t *seq, unrolled_t *un, int max)
{
    tl_kernel_t *k = S->k;
    int nun = 0, total = 0;
    for (int i = 0; i < seq->seq.n && nun < max; i++) {
        tl_stmt_t *l = seq->seq.items[i];
        int64_t a, b;
        int nb;
        if (l->kind != TL_ST_FOR ||
            (l->for_.loop != TL_LOOP_SERIAL && l->for_.loop != TL_LOOP_UNROLL) ||
            !tl_ir_is_const_int(l->for_.start, &a) || !tl_ir_is_const_int(l->for_.end, &b) ||
            b - a < 2 || b - a > UNROLL_TRIP || l->for_.body->kind != TL_ST_SEQ ||
            !leaf_body(l->for_.body, &nb) || (b - a) * nb > UNROLL_STMTS ||
            total + (b - a) * nb > MAX_NODES / 2)
            continue;
        int m = (int)(b - a) * nb;
        tl_stmt_t **copies = tl_arena_alloc(k->arena, sizeof *copies * (size_t)m);
        for (int64_t t = 0; t < b - a; t++) {
            tl_subst_t sub;
            tl_subst_init(&sub);
            tl_subst_var(&sub, l->for_.var, tl_ir_int(k, a + t, l->for_.var->dtype, l->loc));
            for (int j = 0; j < nb; j++)
                copies[t * nb + j] = tl_subst_stmt(k, &sub, l->for_.body->seq.items[j]);
            tl_subst_free(&sub);
        }
        tl_rewrite_remove(seq, i);
        for (int j = 0; j < m; j++) tl_rewrite_insert(k, seq, i + j, copies[j]);
        un[nun++] = (unrolled_t){l, copies, m};
        total += m;
        i += m - 1;
    }
    return nun;
}

// Puts back each unrolled loop whose statements stayed together, in order.
void sched_roll_back(sched_t *S, tl_stmt_t *seq, const unrolled_t *un, int nun)
{
    for (int u = 0; u < nun; u++) {
        int at = -1;
        for (int i = 0; i < seq->seq.n && at < 0; i++)
            if (seq->seq.items[i] == un[u].stmts[0]) at = i;
        bool intact = at >= 0 && at + un[u].n <= seq->seq.n;
        for (int j = 1; intact && j < un[u].n; j++)
            intact = seq->seq.items[at + j] == un[u].stmts[j];
        if (!intact) {
            S->unrolled++;
            continue;
        }
        for (int j = 0; j < un[u].n; j++) tl_rewrite_remove(seq, at);
        tl_rewrite_insert(S->k, seq, at, un[u].loop);
    }
}

static bool fusable(const tl_stmt_t *a, const tl_stmt_t *b)
{
    return a->kind == TL_ST_FOR && b->kind == TL_ST_FOR && a->for_.loop == TL_LOOP_SERIAL &&
           b->for_.loop == TL_LOOP_SERIAL && !a->for_.staggered && !b->for_.staggered &&
           tl_ir_expr_equal(a->for_.start, b->for_.start) &&
           tl_ir_expr_equal(a->for_.end, b->for_.end) && a->for_.body->kind == TL_ST_SEQ &&
           b->for_.body->kind == TL_ST_SEQ;
}

// reach[j * w + ...]: the nodes j depends on, directly or through others.
static uint64_t *reach_of(const sched_t *S, int *words)
{
    int n = S->n, w = (n + 63) / 64;
    uint64_t *r = calloc((size_t)n * (size_t)w + 1, sizeof *r);
    if (!r) return NULL;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < j; i++)
            if (S->dep[i * n + j]) {
                for (int x = 0; x < w; x++) r[j * w + x] |= r[i * w + x];
                r[j * w + i / 64] |= 1ull << (i % 64);
            }
    *words = w;
    return r;
}

// Fuses one pair of independent loops of items[lo .. hi) of seq; true when it did.
bool sched_fuse_one(sched_t *S, tl_stmt_t *seq, int lo, int hi)
{
    if (!sched_build(S, seq->seq.items + lo, hi - lo)) return false;
    int w, n = S->n;
    uint64_t *r = reach_of(S, &w);
    if (!r) {
        S->oom = true;
        return false;
    }
    for (int j = 0; j < n; j++)
        for (int i = 0; i < j; i++) {
            tl_stmt_t *a = S->nodes[i].s, *b = S->nodes[j].s;
            if (!fusable(a, b) || (r[j * w + i / 64] >> (i % 64) & 1)) continue;
            // no dependence between any iterations of the two: the loop
            // variables are unrelated here (rel: loops inside the statements)
            tl_kernel_t *k = S->k;
            tl_subst_t sub;
            tl_subst_init(&sub);
            tl_subst_var(&sub, b->for_.var, tl_ir_varref(k, a->for_.var, b->loc));
            tl_stmt_t *body = tl_subst_stmt(k, &sub, b->for_.body);
            tl_subst_free(&sub);
            tl_stmt_t *f = tl_arena_dup(k->arena, a, sizeof *a);
            f->for_.body = tl_ir_seq(k, a->loc);
            for (int x = 0; x < a->for_.body->seq.n; x++)
                tl_ir_seq_push(k, f->for_.body, a->for_.body->seq.items[x]);
            for (int x = 0; x < body->seq.n; x++)
                tl_ir_seq_push(k, f->for_.body, body->seq.items[x]);
            // The fused loop takes b's place. The statements between the two
            // that depend on a (through any chain) go after it, the others
            // stay before it: none of the others depends on one of those
            // (it would depend on a too), and b depends on none of them (a
            // would reach b).
            tl_stmt_t **mid = malloc(sizeof *mid * (size_t)(j - i));
            if (!mid) {
                free(r);
                S->oom = true;
                return false;
            }
            int nm = 0, at = lo + i;
            for (int x = i + 1; x < j; x++)
                if (!(r[x * w + i / 64] >> (i % 64) & 1)) seq->seq.items[at++] = S->nodes[x].s;
            seq->seq.items[at++] = f;
            for (int x = i + 1; x < j; x++)
                if (r[x * w + i / 64] >> (i % 64) & 1) mid[nm++] = S->nodes[x].s;
            memcpy(seq->seq.items + at, mid, sizeof *mid * (size_t)nm);
            tl_rewrite_remove(seq, lo + j);
            free(mid);
            free(r);
            return true;
        }
    free(r);
    return false;
}
