// The abstract execution of intra_sync (see intra_sync.c): the state of
// memory-access records, how syncs order pipes, conflicts between two
// accesses, and the walk of a core's program.
#include "pass/intra_sync_int.h"

#include <stdlib.h>
#include <string.h>

// --- state ---------------------------------------------------------------------------------------

static void state_free(state_t *s)
{
    free(s->r);
    memset(s, 0, sizeof *s);
}

static void state_copy(sim_t *S, state_t *dst, const state_t *src)
{
    *dst = *src;
    dst->r = NULL;
    dst->cap = src->n;
    if (src->n) {
        dst->r = malloc(sizeof *dst->r * (size_t)src->n);
        if (!dst->r) {
            S->overflow = true;
            dst->n = dst->cap = 0;
            return;
        }
        memcpy(dst->r, src->r, sizeof *dst->r * (size_t)src->n);
    }
}

static rec_t *push_rec(sim_t *S, state_t *st)
{
    if (st->n == st->cap) {
        int cap = st->cap ? st->cap * 2 : 32;
        rec_t *r = realloc(st->r, sizeof *r * (size_t)cap);
        if (!r) {
            S->overflow = true;
            return NULL;
        }
        st->r = r;
        st->cap = cap;
    }
    return &st->r[st->n++];
}

static bool same_iter(const rec_t *a, const rec_t *b)
{
    if (a->niter != b->niter) return false;
    for (int i = 0; i < a->niter; i++)
        if (a->iter[i].loop != b->iter[i].loop || a->iter[i].inst != b->iter[i].inst ||
            a->iter[i].copy != b->iter[i].copy)
            return false;
    return true;
}

static bool same_rec(const rec_t *a, const rec_t *b)
{
    return a->acc.stmt == b->acc.stmt && a->acc_index == b->acc_index && same_iter(a, b);
}

// State after either of two paths: a record keeps the pipes ordered on both;
// a pending flag survives when both paths have it (else a later wait on it
// orders nothing, which is safe). The two paths may hold one flag in
// different slots (a set placed at another point in each branch).
static bool same_flag(const slot_t *x, const slot_t *y)
{
    return x->used && y->used && x->src == y->src && x->dst == y->dst && x->konst == y->konst &&
           x->id == y->id && x->expr == y->expr;
}

// b's slot bits in a's numbering (to: b's slot -> a's, -1 none)
static uint64_t remap(uint64_t bits, const int *to)
{
    uint64_t r = 0;
    for (int t = 0; t < SLOTS; t++)
        if ((bits >> t & 1) && to[t] >= 0) r |= 1ull << to[t];
    return r;
}

static void meet(sim_t *S, state_t *a, state_t *b)
{
    if (b->dead) {
        state_free(b);
        return;
    }
    if (a->dead) {
        state_free(a);
        *a = *b;
        memset(b, 0, sizeof *b);
        return;
    }
    uint64_t keep = 0;
    int to[SLOTS];
    for (int u = 0; u < SLOTS; u++) to[u] = -1;
    for (int t = 0; t < SLOTS; t++) {
        slot_t *x = &a->slot[t];
        int u = same_flag(x, &b->slot[t]) ? t : -1; // the same slot first
        for (int v = 0; u < 0 && v < SLOTS; v++)
            if (to[v] < 0 && same_flag(x, &b->slot[v])) u = v;
        if (u >= 0 && to[u] < 0) {
            keep |= 1ull << t;
            to[u] = t;
        } else {
            x->used = false;
        }
    }
    for (int i = 0; i < a->n; i++) {
        rec_t *r = &a->r[i];
        for (int j = 0; j < b->n; j++)
            if (same_rec(r, &b->r[j])) {
                r->ord &= b->r[j].ord;
                r->slots &= remap(b->r[j].slots, to);
                break;
            }
        r->slots &= keep;
    }
    for (int j = 0; j < b->n; j++) {
        bool found = false;
        for (int i = 0; i < a->n && !found; i++) found = same_rec(&a->r[i], &b->r[j]);
        if (found) continue;
        rec_t *r = push_rec(S, a);
        if (!r) break;
        *r = b->r[j];
        r->slots = remap(r->slots, to) & keep;
    }
    state_free(b);
}

static void prune(sim_t *S)
{
    state_t *st = &S->st;
    int w = 0;
    for (int i = 0; i < st->n; i++)
        if ((st->r[i].ord & S->pipes) != S->pipes) st->r[w++] = st->r[i];
    st->n = w;
}

// --- relations between two executions ------------------------------------------------------------

typedef struct {
    const sim_t *S;
    const rec_t *r;
} relarg_t;

static tl_hazard_rel_t rel(void *arg, const tl_var_t *v)
{
    const relarg_t *ra = arg;
    if (v->kind != TL_VAR_LOOP) return TL_HAZARD_EQ;
    const sim_t *S = ra->S;
    for (int i = S->niter - 1; i >= 0; i--) {
        const tl_stmt_t *L = S->iter[i].loop;
        if (L->kind != TL_ST_FOR || L->for_.var != v) continue;
        for (int j = 0; j < ra->r->niter; j++) {
            const iter_t *it = &ra->r->iter[j];
            if (it->loop != L) continue;
            if (it->inst != S->iter[i].inst || it->copy == 0) return TL_HAZARD_ANY;
            if (it->copy == S->iter[i].copy) return TL_HAZARD_EQ;
            return it->copy < S->iter[i].copy ? TL_HAZARD_LATER : TL_HAZARD_ANY;
        }
        return TL_HAZARD_EQ; // the record ran before the loop: v is not in its access
    }
    return TL_HAZARD_ANY;
}

// --- conflicts -----------------------------------------------------------------------------------

static bool large_l0c_tile(const sim_t *S, const tl_hazard_access_t *a)
{
    if (a->buf->scope != TL_SCOPE_L0C || a->ndim < 2 || a->ext[0] < 0 || a->ext[1] < 0)
        return false;
    return tl_arch_mmad_interlocks(S->arch, a->ext[0], a->ext[1]);
}

static bool is_gemm(const tl_stmt_t *s)
{
    return s->kind == TL_ST_OP && tl_op_info(s->op.code)->cls == TL_OPC_GEMM;
}

// Whether the hardware itself orders r before b (nothing to insert).
static bool exempt(const sim_t *S, const rec_t *r, const tl_hazard_access_t *b)
{
    if (r->acc.pipe == TL_PIPE_S && b->pipe == TL_PIPE_S) return true;
    if (r->acc.pipe == TL_PIPE_M && b->pipe == TL_PIPE_M && is_gemm(r->acc.stmt) &&
        is_gemm(b->stmt) && r->acc.buf == b->buf && b->buf->scope == TL_SCOPE_L0C &&
        large_l0c_tile(S, &r->acc) && large_l0c_tile(S, b))
        return true;
    return false;
}

static void set_dep(sim_t *S, const rec_t *r, const tl_hazard_access_t *b, const tl_stmt_t *at,
                    bool end_of_body)
{
    dep_t *d = &S->dep;
    d->found = true;
    d->prod = *r;
    d->pipe = b->pipe;
    d->stmt = at;
    d->npath = S->depth;
    memcpy(d->path, S->path, sizeof d->path[0] * (size_t)S->depth);
    memcpy(d->in_scope, S->in_scope, sizeof d->in_scope[0] * (size_t)S->depth);
    d->niter = S->niter;
    memcpy(d->iter, S->iter, sizeof d->iter[0] * (size_t)S->niter);
    if (end_of_body) { // a while condition re-read after the body: sync at the body's end
        const tl_stmt_t *w = S->path[S->depth - 1].seq->seq.items[S->path[S->depth - 1].index];
        d->path[d->npath].seq = w->while_.body;
        d->path[d->npath].index = w->while_.body->seq.n;
        d->in_scope[d->npath] = d->in_scope[d->npath - 1];
        d->npath++;
    }
}

typedef struct {
    sim_t *S;
    const tl_stmt_t *at;
    bool end_of_body;
    int index;
} check_t;

static void check_access(void *arg, const tl_hazard_access_t *b)
{
    check_t *c = arg;
    sim_t *S = c->S;
    c->index++;
    if (S->dep.found) return;
    state_t *st = &S->st;
    for (int i = st->n - 1; i >= 0; i--) {
        const rec_t *r = &st->r[i];
        if (!r->acc.write && !b->write) continue;
        if (r->ord & BIT(b->pipe)) continue;
        if (r->acc.buf != b->buf &&
            (r->acc.buf->scope != b->buf->scope || r->acc.buf->scope == TL_SCOPE_GM))
            continue;
        if (exempt(S, r, b)) continue;
        relarg_t ra = {S, r};
        if (!tl_hazard_overlap(S->hz, &r->acc, b, rel, &ra)) continue;
        set_dep(S, r, b, c->at, c->end_of_body);
        return;
    }
}

static void check(sim_t *S, const tl_stmt_t *s, bool end_of_body)
{
    check_t c = {S, s, end_of_body, 0};
    tl_hazard_stmt(s, check_access, &c);
}

typedef struct {
    sim_t *S;
    int index;
} add_t;

static void add_access(void *arg, const tl_hazard_access_t *a)
{
    add_t *ad = arg;
    sim_t *S = ad->S;
    int index = ad->index++;
    if (a->pipe == TL_PIPE_S && !a->write) return; // later instructions issue after it
    rec_t *r = push_rec(S, &S->st);
    if (!r) return;
    r->acc = *a;
    r->acc_index = index;
    r->ord = a->pipe == TL_PIPE_S ? BIT(TL_PIPE_S) : 0;
    r->slots = 0;
    r->npath = S->depth;
    memcpy(r->path, S->path, sizeof r->path[0] * (size_t)S->depth);
    r->niter = S->niter;
    memcpy(r->iter, S->iter, sizeof r->iter[0] * (size_t)S->niter);
}

// --- syncs ---------------------------------------------------------------------------------------

static uint64_t iter_sig(const sim_t *S)
{
    uint64_t h = 1469598103934665603ull;
    for (int i = 0; i < S->niter; i++) {
        h = (h ^ (uint64_t)S->iter[i].inst) * 1099511628211ull;
        h = (h ^ (uint64_t)S->iter[i].copy) * 1099511628211ull;
    }
    return h;
}

static slot_t *find_slot(sim_t *S, const tl_stmt_t *s, int *index)
{
    int64_t id = 0;
    bool konst = tl_ir_is_const_int(s->sync.id, &id);
    uint64_t sig = iter_sig(S);
    for (int t = 0; t < SLOTS; t++) {
        slot_t *x = &S->st.slot[t];
        if (!x->used || x->src != s->sync.src || x->dst != s->sync.dst || x->konst != konst)
            continue;
        if (konst ? x->id == id : (x->sig == sig && tl_ir_expr_equal(x->expr, s->sync.id))) {
            *index = t;
            return x;
        }
    }
    return NULL;
}

// An ordering edge the hardware (or a device helper) makes itself: everything
// complete on src before it is ordered before later dst instructions.
void isync_edge(sim_t *S, tl_pipe_t src, tl_pipe_t dst)
{
    state_t *st = &S->st;
    for (int i = 0; i < st->n; i++)
        if (st->r[i].acc.pipe == src || (st->r[i].ord & BIT(src))) st->r[i].ord |= BIT(dst);
}

static void apply_sync(sim_t *S, const tl_stmt_t *s)
{
    state_t *st = &S->st;
    tl_pipe_t src = s->sync.src, dst = s->sync.dst;
    int t;
    switch (s->sync.kind) {
    case TL_SYNC_SET_FLAG: {
        slot_t *x = find_slot(S, s, &t);
        if (!x) {
            for (t = 0; t < SLOTS && st->slot[t].used; t++) {
            }
            if (t == SLOTS) return; // too many pending flags: forget this one (safe)
            x = &st->slot[t];
        }
        x->used = true;
        x->src = src;
        x->dst = dst;
        x->konst = tl_ir_is_const_int(s->sync.id, &x->id);
        x->expr = x->konst ? NULL : s->sync.id;
        x->sig = iter_sig(S);
        for (int i = 0; i < st->n; i++) {
            rec_t *r = &st->r[i];
            if (r->acc.pipe == src || (r->ord & BIT(src)))
                r->slots |= 1ull << t;
            else
                r->slots &= ~(1ull << t);
        }
        return;
    }
    case TL_SYNC_WAIT_FLAG: {
        slot_t *x = find_slot(S, s, &t);
        if (!x) return;
        for (int i = 0; i < st->n; i++)
            if (st->r[i].slots & (1ull << t)) {
                st->r[i].ord |= BIT(dst);
                st->r[i].slots &= ~(1ull << t);
            }
        x->used = false;
        prune(S);
        return;
    }
    case TL_SYNC_PIPE_BARRIER:
        if (src == TL_PIPE_ALL) {
            st->n = 0;
            return;
        }
        for (int i = 0; i < st->n; i++)
            if (st->r[i].acc.pipe == src) st->r[i].ord |= BIT(src);
        prune(S);
        return;
    case TL_SYNC_BARRIER_ALL:
    case TL_SYNC_ALL: st->n = 0; return;
    default: return;
    }
}

// --- the abstract execution ----------------------------------------------------------------------

static void sim_seq(sim_t *S, tl_stmt_t *seq, bool in_scope);

static tl_side_t leaf_side(const tl_stmt_t *s)
{
    int side = TL_SIDE_NONE;
    switch (s->kind) {
    case TL_ST_OP:
        for (int i = 0; i < s->op.nargs; i++)
            if (s->op.args[i].kind == TL_ARG_REGION)
                side |= tl_scope_side(s->op.args[i].region.buf->scope);
        break;
    case TL_ST_STORE: side = tl_scope_side(s->store.buf->scope); break;
    case TL_ST_SYNC:
        switch (s->sync.kind) {
        case TL_SYNC_SET_FLAG:
        case TL_SYNC_WAIT_FLAG:
        case TL_SYNC_PIPE_BARRIER:
        case TL_SYNC_SET_CROSS: {
            tl_pipe_t ps[2] = {s->sync.src, s->sync.dst};
            for (int i = 0; i < 2; i++) {
                if (ps[i] == TL_PIPE_M || ps[i] == TL_PIPE_MTE1 || ps[i] == TL_PIPE_FIX)
                    side |= TL_SIDE_CUBE;
                if (ps[i] == TL_PIPE_V) side |= TL_SIDE_VEC;
            }
            break;
        }
        default: break;
        }
        break;
    default: break;
    }
    return (tl_side_t)side;
}

// Whether loop s provably runs at least `n` iterations.
static bool provably_runs(const tl_stmt_t *s, int64_t n)
{
    int64_t a, b;
    return s->kind == TL_ST_FOR && tl_ir_is_const_int(s->for_.start, &a) &&
           tl_ir_is_const_int(s->for_.end, &b) && b - a >= n;
}

// Records of loop L's iterations become records of "some iteration".
static void close_loop(sim_t *S, const tl_stmt_t *L, int inst)
{
    state_t *st = &S->st;
    for (int i = 0; i < st->n; i++)
        for (int j = 0; j < st->r[i].niter; j++)
            if (st->r[i].iter[j].loop == L && st->r[i].iter[j].inst == inst)
                st->r[i].iter[j].copy = 0;
    int w = 0;
    for (int i = 0; i < st->n; i++) {
        bool merged = false;
        for (int j = 0; j < w && !merged; j++)
            if (same_rec(&st->r[j], &st->r[i])) {
                st->r[j].ord &= st->r[i].ord;
                st->r[j].slots &= st->r[i].slots;
                merged = true;
            }
        if (!merged) st->r[w++] = st->r[i];
    }
    st->n = w;
}

static void sim_loop(sim_t *S, tl_stmt_t *s, bool in_scope)
{
    state_t pre;
    state_copy(S, &pre, &S->st);
    int inst = S->next_inst++;
    if (S->nloops == MAXD || S->niter == MAXD) {
        S->overflow = true;
        state_free(&pre);
        return;
    }
    loopframe_t *lf = &S->loops[S->nloops++];
    memset(lf, 0, sizeof *lf);
    tl_stmt_t *body = s->kind == TL_ST_FOR ? s->for_.body : s->while_.body;
    // The state after one iteration: unless the loop runs at least twice, the
    // loop may end there, without what the second pass ordered.
    state_t one;
    bool have_one = false;
    for (int copy = 1; copy <= 2 && !S->dep.found; copy++) {
        S->iter[S->niter++] = (iter_t){s, inst, copy};
        if (s->kind == TL_ST_WHILE) check(S, s, copy > 1);
        if (!S->dep.found) sim_seq(S, body, in_scope);
        for (int i = 0; i < lf->ncont; i++) meet(S, &S->st, &lf->cont[i]);
        free(lf->cont);
        lf->cont = NULL;
        lf->ncont = 0;
        S->niter--;
        if (copy == 1 && !provably_runs(s, 2)) {
            state_copy(S, &one, &S->st);
            have_one = true;
        }
    }
    if (have_one) meet(S, &S->st, &one);
    for (int i = 0; i < lf->nbrk; i++) meet(S, &S->st, &lf->brk[i]);
    free(lf->brk);
    S->nloops--;
    close_loop(S, s, inst);
    if (!provably_runs(s, 1))
        meet(S, &S->st, &pre);
    else
        state_free(&pre);
}

static void jump(sim_t *S, bool brk)
{
    if (!S->nloops) return;
    loopframe_t *lf = &S->loops[S->nloops - 1];
    state_t **list = brk ? &lf->brk : &lf->cont;
    int *n = brk ? &lf->nbrk : &lf->ncont;
    state_t *grown = realloc(*list, sizeof **list * (size_t)(*n + 1));
    if (!grown) {
        S->overflow = true;
        return;
    }
    *list = grown;
    state_copy(S, &(*list)[(*n)++], &S->st);
    S->st.dead = true;
}

static void sim_stmt(sim_t *S, tl_stmt_t *s, bool in_scope)
{
    if (S->st.dead || S->dep.found || S->overflow) return;
    switch (s->kind) {
    case TL_ST_SEQ: sim_seq(S, s, in_scope); return;
    case TL_ST_SCOPE:
        if (s->scope.side == S->side) sim_seq(S, s->scope.body, true);
        return;
    case TL_ST_FOR:
        check(S, s, false);
        if (!S->dep.found) sim_loop(S, s, in_scope);
        return;
    case TL_ST_WHILE: sim_loop(S, s, in_scope); return;
    case TL_ST_IF: {
        check(S, s, false);
        if (S->dep.found) return;
        state_t other;
        state_copy(S, &other, &S->st);
        sim_seq(S, s->if_.then_, in_scope);
        state_t then_state = S->st;
        S->st = other;
        if (s->if_.else_) sim_seq(S, s->if_.else_, in_scope);
        meet(S, &S->st, &then_state);
        return;
    }
    case TL_ST_BREAK:
    case TL_ST_CONTINUE: jump(S, s->kind == TL_ST_BREAK); return;
    default: break;
    }
    if (!in_scope) {
        tl_side_t side = leaf_side(s);
        if (side != TL_SIDE_NONE && side != S->side) return;
    }
    // T.gemm_v0's device helper orders MTE2 before its L1 loads and FIX before
    // its mmads, and after itself its loads before MTE2 and its mmads before FIX.
    bool gemm_v0 = s->kind == TL_ST_OP && s->op.code == TL_OP_GEMM_V0;
    if (gemm_v0) {
        isync_edge(S, TL_PIPE_MTE2, TL_PIPE_MTE1);
        isync_edge(S, TL_PIPE_FIX, TL_PIPE_M);
    }
    check(S, s, false);
    if (S->dep.found) return;
    if (s->kind == TL_ST_SYNC) {
        apply_sync(S, s);
        return;
    }
    add_t ad = {S, 0};
    tl_hazard_stmt(s, add_access, &ad);
    if (gemm_v0) {
        isync_edge(S, TL_PIPE_MTE1, TL_PIPE_MTE2);
        isync_edge(S, TL_PIPE_M, TL_PIPE_FIX);
        prune(S);
    }
}

static void sim_seq(sim_t *S, tl_stmt_t *seq, bool in_scope)
{
    if (S->depth == MAXD) {
        S->overflow = true;
        return;
    }
    int d = S->depth++;
    S->path[d].seq = seq;
    S->in_scope[d] = in_scope;
    for (int i = 0; i < seq->seq.n && !S->dep.found && !S->st.dead && !S->overflow; i++) {
        S->path[d].index = i;
        sim_stmt(S, seq->seq.items[i], in_scope);
    }
    S->depth--;
}

// One abstract execution of the side's program; true when a conflict was found.
bool isync_simulate(sim_t *S)
{
    state_free(&S->st);
    S->depth = S->niter = S->nloops = 0;
    S->next_inst = 1;
    memset(&S->dep, 0, sizeof S->dep);
    sim_seq(S, S->k->body, false);
    state_free(&S->st);
    return S->dep.found;
}
