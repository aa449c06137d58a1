// intra_sync: intra-core pipe synchronisation (TL_ASCEND_AUTO_SYNC).
//
// requires: per-core programs (T.Scope("C") / T.Scope("V"); code outside
//           scopes runs on every core), addresses planned by memplan when it
//           ran (unplanned buffers are disjoint memory)
// ensures:  on each core, every two accesses of overlapping memory (RAW, WAR,
//           WAW; buffers that alias by address are the same memory) are
//           ordered: same pipe by pipe_barrier where the hardware needs one,
//           different pipes by set_flag right after the producer and
//           wait_flag right before the consumer, loop-carried pairs with a
//           set before the loop and a wait after it; event ids 0..7 per pipe
//           pair, reused. Existing syncs count; none is duplicated.
//
// Method: an abstract execution of each core's program. Every memory access
// becomes a record holding the set of pipes already ordered after it; syncs
// extend those sets exactly as the hardware orders pipes (set_flag carries
// everything complete on its source pipe, wait_flag hands it to the
// destination, barriers, the scalar unit issuing in order). Loops run twice
// (the second pass sees the back edge; a loop that may run once ends with the
// meet of both passes), `if` branches meet. The first access
// that conflicts with an unordered record gets the cheapest sync that orders
// it; the program is then executed again, until nothing conflicts. A final
// pass drops every inserted sync the others make redundant, then event ids
// are coloured on the syncs' live ranges.
//
// Exceptions the hardware makes: PIPE_S is in order; the cube accumulating into
// one L0C tile of at least arch->mmad_interlock_fractals fractals interlocks;
// T.gemm_v0 is a device helper with its own flags (MTE2 before its L1 loads on
// MTE1, FIX before its mmads; its loads before later MTE2, its mmads before
// later FIX). Scalar writes of UB/GM get S->X
// flags before the pipes that read them; scalar reads need nothing after them.
//
// With config.sync_baseline the pass instead puts barrier_all after every tile
// op (the benchmark's baseline).
#include "npu/arch.h"
#include "pass/hazard.h"
#include "pass/pass.h"
#include "pass/rewrite.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

enum { MAXD = 32, SLOTS = 64, MAX_ROUNDS = 5000, EVENT_IDS = 8, MAX_FIX = 4 };

#define BIT(p) (1u << (p))

typedef struct {
    tl_stmt_t *seq;
    int index;
} pos_t;

typedef struct {
    const tl_stmt_t *loop;
    int inst, copy; // copy 1 or 2 (the simulated iteration); 0: any (after the loop)
} iter_t;

typedef struct {
    tl_hazard_access_t acc;
    int acc_index;
    uint32_t ord;   // pipes ordered after this access
    uint64_t slots; // pending set_flag tokens covering it
    int npath, niter;
    pos_t path[MAXD];
    iter_t iter[MAXD];
} rec_t;

typedef struct {
    bool used;
    tl_pipe_t src, dst;
    bool konst;
    int64_t id;
    const tl_expr_t *expr;
    uint64_t sig; // iteration signature for non-constant ids
} slot_t;

typedef struct {
    rec_t *r;
    int n, cap;
    slot_t slot[SLOTS];
    bool dead;
} state_t;

typedef struct {
    state_t *brk, *cont;
    int nbrk, ncont;
} loopframe_t;

typedef struct {
    bool found;
    rec_t prod;     // the unordered producer
    tl_pipe_t pipe; // consumer pipe
    const tl_stmt_t *stmt;
    int npath, niter;
    pos_t path[MAXD];
    bool in_scope[MAXD + 1];
    iter_t iter[MAXD];
} dep_t;

// An inserted sync group (a flag pair with its prologue/epilogue, or a
// barrier), then the matching sets and waits in the other branches of the ifs
// that hold the pair's set or wait (extra of them).
typedef struct {
    tl_stmt_t *stmts[4 + 2 * MAX_FIX]; // as placed in the tree (a scope when wrapped)
    tl_stmt_t *syncs[4 + 2 * MAX_FIX]; // the sync statements themselves
    int n, extra;
    bool pair, loop;
    tl_pipe_t src, dst;
    tl_side_t side;
    bool removed;
    tl_stmt_t *exit_seq; // a loop-carried pair: the sequence holding its wait after the loop
} item_t;

typedef struct {
    tl_kernel_t *k;
    tl_pass_ctx_t *ctx;
    tl_hazard_ctx_t *hz;
    const tl_arch_t *arch;
    tl_side_t side;
    uint32_t pipes;
    // walk position
    int depth;
    pos_t path[MAXD];
    bool in_scope[MAXD];
    int niter;
    iter_t iter[MAXD];
    int nloops;
    loopframe_t loops[MAXD];
    int next_inst;
    state_t st;
    dep_t dep;
    bool overflow;
    // inserted syncs
    item_t *items;
    int nitems, capitems;
    int next_vid;
    tl_stmt_t **disabled; // statements turned into empty seqs
    tl_stmt_t *saved;     // their original contents
    int ndisabled, capdisabled;
    tl_stmt_t *made_else[SLOTS]; // ifs given an else for a matching sync
    int nmade;
} sim_t;

static const uint32_t side_pipes[] = {
    [TL_SIDE_CUBE] = BIT(TL_PIPE_S) | BIT(TL_PIPE_MTE1) | BIT(TL_PIPE_MTE2) | BIT(TL_PIPE_MTE3) |
                     BIT(TL_PIPE_M) | BIT(TL_PIPE_FIX),
    [TL_SIDE_VEC] = BIT(TL_PIPE_S) | BIT(TL_PIPE_MTE2) | BIT(TL_PIPE_MTE3) | BIT(TL_PIPE_V),
};

// Event pairs SetFlag/WaitFlag support (research/ascend_model.md §3.4).
static bool legal_pair(tl_pipe_t a, tl_pipe_t b)
{
    static const tl_pipe_t pairs[][2] = {
        {TL_PIPE_MTE2, TL_PIPE_MTE1}, {TL_PIPE_MTE1, TL_PIPE_MTE2}, {TL_PIPE_MTE1, TL_PIPE_M},
        {TL_PIPE_M, TL_PIPE_MTE1},    {TL_PIPE_MTE2, TL_PIPE_M},    {TL_PIPE_M, TL_PIPE_MTE2},
        {TL_PIPE_M, TL_PIPE_FIX},     {TL_PIPE_FIX, TL_PIPE_M},     {TL_PIPE_MTE1, TL_PIPE_FIX},
        {TL_PIPE_FIX, TL_PIPE_MTE1},  {TL_PIPE_MTE1, TL_PIPE_MTE3}, {TL_PIPE_MTE3, TL_PIPE_MTE1},
        {TL_PIPE_MTE2, TL_PIPE_MTE3}, {TL_PIPE_MTE3, TL_PIPE_MTE2}, {TL_PIPE_MTE2, TL_PIPE_FIX},
        {TL_PIPE_FIX, TL_PIPE_MTE2},  {TL_PIPE_FIX, TL_PIPE_MTE3},  {TL_PIPE_FIX, TL_PIPE_S},
        {TL_PIPE_M, TL_PIPE_S},       {TL_PIPE_S, TL_PIPE_V},       {TL_PIPE_V, TL_PIPE_S},
        {TL_PIPE_S, TL_PIPE_MTE2},    {TL_PIPE_MTE2, TL_PIPE_S},    {TL_PIPE_S, TL_PIPE_MTE3},
        {TL_PIPE_MTE3, TL_PIPE_S},    {TL_PIPE_V, TL_PIPE_MTE2},    {TL_PIPE_MTE2, TL_PIPE_V},
        {TL_PIPE_V, TL_PIPE_MTE3},    {TL_PIPE_MTE3, TL_PIPE_V},
    };
    for (size_t i = 0; i < TL_ARRAY_LEN(pairs); i++)
        if (pairs[i][0] == a && pairs[i][1] == b) return true;
    return false;
}

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
    int64_t f = ((a->ext[0] + 15) / 16) * ((a->ext[1] + 15) / 16);
    return f >= S->arch->mmad_interlock_fractals;
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
static void edge(sim_t *S, tl_pipe_t src, tl_pipe_t dst)
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
        edge(S, TL_PIPE_MTE2, TL_PIPE_MTE1);
        edge(S, TL_PIPE_FIX, TL_PIPE_M);
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
        edge(S, TL_PIPE_MTE1, TL_PIPE_MTE2);
        edge(S, TL_PIPE_M, TL_PIPE_FIX);
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
static bool simulate(sim_t *S)
{
    state_free(&S->st);
    S->depth = S->niter = S->nloops = 0;
    S->next_inst = 1;
    memset(&S->dep, 0, sizeof S->dep);
    sim_seq(S, S->k->body, false);
    state_free(&S->st);
    return S->dep.found;
}

// --- placing syncs -------------------------------------------------------------------------------

// Where the sync for producer r and the consumer at dep goes: the seq both are
// in (in the same iteration), the producer's and the consumer's child indices,
// and the loop when the dependence crosses its back edge (then *lseq/*lindex
// locate the loop).
typedef struct {
    tl_stmt_t *seq;
    int ip, ib;
    bool in_scope;
    tl_stmt_t *loop, *lseq;
    int lindex;
    bool lscope;
    // where the set and the wait go: right after the producer and right
    // before the consumer, inside the plain sequences below seq that hold them
    // and (for a pair within one iteration) inside the branches of ifs
    tl_stmt_t *set_seq, *wait_seq;
    int set_at, wait_at;
    // the ifs passed on the way: their other branch gets the set (set) or the
    // wait at its end, so that every path sets and waits once
    int nfix;
    struct {
        tl_stmt_t *ifs;
        bool set, then_; // then_: the producer or consumer is in the then branch
    } fix[2 * MAX_FIX];
} place_t;

// The statement at level j of a path, or NULL past the end of its sequence.
static const tl_stmt_t *path_item(const pos_t *path, int j)
{
    const tl_stmt_t *seq = path[j].seq;
    return path[j].index < seq->seq.n ? seq->seq.items[path[j].index] : NULL;
}

// The deepest level at or below j whose enclosing statements from level j on
// are plain sequences (each runs exactly once when level j's statement does).
static int plain_depth(const pos_t *path, int npath, int j)
{
    while (j + 1 < npath) {
        const tl_stmt_t *x = path_item(path, j);
        if (!x || x->kind != TL_ST_SEQ || path[j + 1].seq != x) break;
        j++;
    }
    return j;
}

// As plain_depth, also into the branch of an if that holds the access
// (noted in p->fix: set for the producer's side).
static int branch_depth(const pos_t *path, int npath, int j, bool set, place_t *p)
{
    int n = 0;
    while (j + 1 < npath) {
        const tl_stmt_t *x = path_item(path, j), *next = path[j + 1].seq;
        if (!x) break;
        if (x->kind == TL_ST_IF && (next == x->if_.then_ || next == x->if_.else_) &&
            n < MAX_FIX) {
            p->fix[p->nfix].ifs = (tl_stmt_t *)x;
            p->fix[p->nfix].set = set;
            p->fix[p->nfix++].then_ = next == x->if_.then_;
            n++;
        } else if (x->kind != TL_ST_SEQ || next != x) {
            break;
        }
        j++;
    }
    return j;
}

// Narrows p from level j: through plain sequences both paths share, then the
// set's and the wait's own plain sequences (a pipelined loop's prologue,
// steady state and epilogue are such sequences: a sync goes next to its
// access, not around the whole sequence) and, with ifs, the branches holding
// them (a wait before an if would hold its pipe for the whole branch, a set
// after it would wait for everything in it).
static void narrow_place(const rec_t *r, const dep_t *d, int j, place_t *p, bool ifs)
{
    while (j + 1 < r->npath && j + 1 < d->npath && r->path[j].index == d->path[j].index) {
        const tl_stmt_t *x = path_item(d->path, j);
        if (!x || x->kind != TL_ST_SEQ || r->path[j + 1].seq != x || d->path[j + 1].seq != x) break;
        j++;
    }
    p->seq = d->path[j].seq;
    p->in_scope = d->in_scope[j];
    p->ip = r->path[j].index;
    p->ib = d->path[j].index;
    int js = j, jw = j;
    if (p->ip != p->ib && ifs) {
        js = branch_depth(r->path, r->npath, j, true, p);
        jw = branch_depth(d->path, d->npath, j, false, p);
    } else if (p->ip != p->ib) {
        js = plain_depth(r->path, r->npath, j);
        jw = plain_depth(d->path, d->npath, j);
    }
    p->set_seq = r->path[js].seq;
    p->set_at = r->path[js].index + 1;
    p->wait_seq = d->path[jw].seq;
    p->wait_at = d->path[jw].index;
}

static const iter_t *find_iter(const iter_t *it, int n, const tl_stmt_t *L)
{
    for (int i = 0; i < n; i++)
        if (it[i].loop == L) return &it[i];
    return NULL;
}

static bool place(const dep_t *d, place_t *p)
{
    const rec_t *r = &d->prod;
    memset(p, 0, sizeof *p);
    int n = TL_MIN(r->npath, d->npath);
    for (int j = 0; j < n; j++) {
        if (r->path[j].seq != d->path[j].seq) return false; // exclusive branches
        if (r->path[j].index != d->path[j].index) {
            narrow_place(r, d, j, p, true);
            return p->ip < p->ib;
        }
        tl_stmt_t *X = d->path[j].seq->seq.items[d->path[j].index];
        if ((X->kind != TL_ST_FOR && X->kind != TL_ST_WHILE) || j + 1 >= n) continue;
        const iter_t *a = find_iter(r->iter, r->niter, X), *b = find_iter(d->iter, d->niter, X);
        if (!a || !b) return false;
        if (a->inst == b->inst && a->copy == b->copy) continue;
        if (a->inst != b->inst || a->copy == 0 || a->copy > b->copy) return false;
        narrow_place(r, d, j + 1, p, false);
        p->loop = X;
        p->lseq = d->path[j].seq;
        p->lscope = d->in_scope[j];
        p->lindex = d->path[j].index;
        return true;
    }
    return false;
}

static item_t *new_item(sim_t *S)
{
    if (S->nitems == S->capitems) {
        int cap = S->capitems ? S->capitems * 2 : 32;
        item_t *it = realloc(S->items, sizeof *it * (size_t)cap);
        if (!it) return NULL;
        S->items = it;
        S->capitems = cap;
    }
    item_t *it = &S->items[S->nitems++];
    memset(it, 0, sizeof *it);
    return it;
}

static void put(sim_t *S, item_t *it, tl_stmt_t *seq, int index, tl_stmt_t *sync, bool in_scope)
{
    tl_stmt_t *s = sync;
    if (!in_scope) {
        tl_stmt_t *body = tl_ir_seq(S->k, sync->loc);
        tl_ir_seq_push(S->k, body, sync);
        s = tl_rewrite_scope(S->k, S->side, body, sync->loc);
        s->inserted = true;
    }
    tl_rewrite_insert(S->k, seq, index, s);
    it->stmts[it->n] = s;
    it->syncs[it->n++] = sync;
}

static tl_loc_t loc_of(const sim_t *S, const dep_t *d)
{
    return d->stmt ? d->stmt->loc : S->k->loc;
}

static tl_status_t insert_for(sim_t *S, const dep_t *d, bool force_all)
{
    place_t p;
    if (!place(d, &p))
        return tl_diag_report(S->ctx->diag, TL_SEV_ERROR, loc_of(S, d), TL_ERR_INTERNAL,
                              "intra_sync: cannot place a sync between line %d and this statement",
                              d->prod.acc.stmt->loc.line);
    bool in_scope = p.in_scope;
    tl_pipe_t P = d->prod.acc.pipe, Q = d->pipe;
    tl_loc_t loc = loc_of(S, d);
    item_t *it = new_item(S);
    if (!it) return tl_diag_fail(S->ctx->diag, TL_ERR_NOMEM, "out of memory");
    if (P == Q || force_all || !legal_pair(P, Q)) {
        bool all = force_all || P != Q;
        tl_stmt_t *b = tl_rewrite_sync(S->k, all ? TL_SYNC_BARRIER_ALL : TL_SYNC_PIPE_BARRIER,
                                       all ? TL_PIPE_ALL : Q, TL_PIPE_NONE, NULL, 0, loc);
        put(S, it, p.wait_seq, p.wait_at, b, in_scope);
        return TL_OK;
    }
    it->pair = true;
    it->side = S->side;
    it->src = P;
    it->dst = Q;
    int vid = -1 - S->next_vid++;
    tl_stmt_t *set =
        tl_rewrite_sync(S->k, TL_SYNC_SET_FLAG, P, Q, tl_ir_int(S->k, vid, TL_I32, loc), 0, loc);
    tl_stmt_t *wait = tl_rewrite_sync(S->k, TL_SYNC_WAIT_FLAG, P, Q, set->sync.id, 0, loc);
    // (when the set and the wait share a sequence, the later position first)
    if (p.loop && p.ip >= p.ib) {
        // back edge: wait, ..., set in the body; one set before the loop, one wait after
        put(S, it, p.set_seq, p.set_at, set, in_scope);
        put(S, it, p.wait_seq, p.wait_at, wait, in_scope);
        bool lscope = p.lscope;
        tl_stmt_t *pro = tl_rewrite_sync(S->k, TL_SYNC_SET_FLAG, P, Q, set->sync.id, 0, loc);
        tl_stmt_t *epi = tl_rewrite_sync(S->k, TL_SYNC_WAIT_FLAG, P, Q, set->sync.id, 0, loc);
        put(S, it, p.lseq, p.lindex + 1, epi, lscope);
        put(S, it, p.lseq, p.lindex, pro, lscope);
        it->exit_seq = p.lseq;
        it->loop = true;
        return TL_OK;
    }
    put(S, it, p.wait_seq, p.wait_at, wait, in_scope);
    put(S, it, p.set_seq, p.set_at, set, in_scope);
    // the other branches, at their end: one set and one wait on every path, and
    // that path is ordered as with the pair around the if
    for (int f = 0; f < p.nfix; f++) {
        tl_stmt_t *x = p.fix[f].ifs;
        tl_stmt_t **other = p.fix[f].then_ ? &x->if_.else_ : &x->if_.then_;
        if (!*other) {
            *other = tl_ir_seq(S->k, x->loc);
            if (S->nmade < SLOTS) S->made_else[S->nmade++] = x;
        }
        bool is_set = p.fix[f].set;
        tl_stmt_t *c = tl_rewrite_sync(S->k, is_set ? TL_SYNC_SET_FLAG : TL_SYNC_WAIT_FLAG, P, Q,
                                       set->sync.id, 0, loc);
        put(S, it, *other, (*other)->seq.n, c, in_scope);
        it->extra++;
    }
    return TL_OK;
}

// --- removing redundant syncs --------------------------------------------------------------------

static bool disable(sim_t *S, tl_stmt_t *s)
{
    if (S->ndisabled == S->capdisabled) {
        int cap = S->capdisabled ? S->capdisabled * 2 : 32;
        tl_stmt_t **d = realloc(S->disabled, sizeof *d * (size_t)cap);
        if (!d) return false;
        S->disabled = d;
        tl_stmt_t *sv = realloc(S->saved, sizeof *sv * (size_t)cap);
        if (!sv) return false;
        S->saved = sv;
        S->capdisabled = cap;
    }
    S->disabled[S->ndisabled] = s;
    S->saved[S->ndisabled++] = *s;
    s->kind = TL_ST_SEQ;
    s->seq.n = s->seq.cap = 0;
    s->seq.items = NULL;
    return true;
}

static void enable_last(sim_t *S, int n)
{
    for (int i = 0; i < n; i++) {
        S->ndisabled--;
        *S->disabled[S->ndisabled] = S->saved[S->ndisabled];
    }
}

static bool is_disabled(const sim_t *S, const tl_stmt_t *s)
{
    for (int i = 0; i < S->ndisabled; i++)
        if (S->disabled[i] == s) return true;
    return false;
}

static void drop_disabled(sim_t *S, tl_stmt_t *s)
{
    if (!s) return;
    switch (s->kind) {
    case TL_ST_SEQ:
        for (int i = 0; i < s->seq.n; i++) {
            if (is_disabled(S, s->seq.items[i]))
                tl_rewrite_remove(s, i--);
            else
                drop_disabled(S, s->seq.items[i]);
        }
        break;
    case TL_ST_FOR: drop_disabled(S, s->for_.body); break;
    case TL_ST_WHILE: drop_disabled(S, s->while_.body); break;
    case TL_ST_IF:
        drop_disabled(S, s->if_.then_);
        drop_disabled(S, s->if_.else_);
        break;
    case TL_ST_SCOPE: drop_disabled(S, s->scope.body); break;
    default: break;
    }
}

// Tries removing each inserted sync, newest first; keeps the removal when the
// program still has no unordered conflict.
static void reduce(sim_t *S, int first)
{
    for (int i = S->nitems - 1; i >= first; i--) {
        item_t *it = &S->items[i];
        int n = 0;
        for (int j = 0; j < it->n; j++) n += disable(S, it->stmts[j]);
        if (simulate(S) || S->overflow) {
            S->overflow = false;
            enable_last(S, n);
        } else {
            it->removed = true;
        }
    }
}

// --- sinking the waits after loops ---------------------------------------------------------------

// A loop-carried pair's wait after the loop only balances the last set of the
// loop; right after the loop it holds up its pipe until the loop's last
// producer is done (e.g. the vector pipe waiting for the last store of a
// tile). Moves each such wait as late in its sequence as the program stays
// ordered (checked by the abstract execution), so the pipe runs on. The wait
// may also have ordered two accesses of its own pipe (a vector op after the
// loop reading what a vector op in the loop wrote, through the store between
// them); those get the pipe_barrier they need, which costs a pipe's drain
// instead of a wait for another pipe's latency, but nothing else is added.
// Where the wait stops in front of a plain sequence (a macro's body, a
// pipelined loop's epilogue), it goes on inside it: a plain sequence runs
// exactly once, so a wait at its start is the same program point.
static int index_of(const tl_stmt_t *seq, const tl_stmt_t *s)
{
    for (int i = 0; i < seq->seq.n; i++)
        if (seq->seq.items[i] == s) return i;
    return -1;
}

// Takes s out of the tree under root (true when found).
static bool detach(tl_stmt_t *root, const tl_stmt_t *s)
{
    if (!root) return false;
    switch (root->kind) {
    case TL_ST_SEQ:
        for (int i = 0; i < root->seq.n; i++) {
            if (root->seq.items[i] == s) {
                tl_rewrite_remove(root, i);
                return true;
            }
            if (detach(root->seq.items[i], s)) return true;
        }
        return false;
    case TL_ST_FOR: return detach(root->for_.body, s);
    case TL_ST_WHILE: return detach(root->while_.body, s);
    case TL_ST_IF: return detach(root->if_.then_, s) || detach(root->if_.else_, s);
    case TL_ST_SCOPE: return detach(root->scope.body, s);
    default: return false;
    }
}

// True when the program is ordered, after adding only same-pipe barriers;
// otherwise the barriers come out again.
static bool ordered_with_barriers(sim_t *S)
{
    enum { MAX_BARRIERS = 16 };
    int mark = S->nitems;
    bool ok = false;
    for (int round = 0; round <= MAX_BARRIERS; round++) {
        bool found = simulate(S);
        if (S->overflow) break;
        if (!found) {
            ok = true;
            break;
        }
        tl_pipe_t p = S->dep.prod.acc.pipe;
        if (round == MAX_BARRIERS || p != S->dep.pipe || p == TL_PIPE_S ||
            insert_for(S, &S->dep, false) != TL_OK)
            break;
    }
    S->overflow = false;
    if (ok) return true;
    for (int i = S->nitems - 1; i >= mark; i--)
        for (int j = 0; j < S->items[i].n; j++) detach(S->k->body, S->items[i].stmts[j]);
    S->nitems = mark;
    return false;
}

static tl_stmt_t *sink_wait(sim_t *S, tl_stmt_t *seq, tl_stmt_t *w)
{
    for (int depth = 0; depth < MAXD; depth++) {
        int at = index_of(seq, w);
        if (at < 0) break;
        tl_rewrite_remove(seq, at);
        bool moved = false;
        for (int to = seq->seq.n; to > at && !moved; to--) {
            tl_rewrite_insert(S->k, seq, to, w);
            moved = ordered_with_barriers(S);
            if (!moved) tl_rewrite_remove(seq, index_of(seq, w));
        }
        if (!moved) tl_rewrite_insert(S->k, seq, at, w);
        int i = index_of(seq, w);
        tl_stmt_t *next = i + 1 < seq->seq.n ? seq->seq.items[i + 1] : NULL;
        if (!next || next->kind != TL_ST_SEQ || is_disabled(S, next)) break;
        tl_rewrite_remove(seq, i);
        tl_rewrite_insert(S->k, next, 0, w);
        seq = next;
    }
    return seq;
}

static void sink_exit_waits(sim_t *S, int first)
{
    int n = S->nitems; // not the barriers added on the way
    for (int i = first; i < n; i++) {
        const item_t *it = &S->items[i];
        if (it->removed || !it->exit_seq || !it->loop) continue;
        tl_stmt_t *seq = sink_wait(S, it->exit_seq, it->stmts[2]);
        S->items[i].exit_seq = seq; // (items may have moved)
    }
}

// --- event ids -----------------------------------------------------------------------------------

typedef struct {
    const tl_stmt_t **order;
    int n, cap;
} order_t;

static void number(void *arg, tl_stmt_t *s)
{
    order_t *o = arg;
    if (o->n == o->cap) {
        int cap = o->cap ? o->cap * 2 : 256;
        const tl_stmt_t **g = realloc(o->order, sizeof *g * (size_t)cap);
        if (!g) return;
        o->order = g;
        o->cap = cap;
    }
    o->order[o->n++] = s;
}

static int position(const order_t *o, const tl_stmt_t *s)
{
    for (int i = 0; i < o->n; i++)
        if (o->order[i] == s) return i;
    return -1;
}

typedef struct {
    uint8_t reserved[TL_PIPE_COUNT][TL_PIPE_COUNT]; // event ids the kernel's own syncs use
} manual_t;

static void reserve(void *arg, tl_stmt_t *s)
{
    manual_t *m = arg;
    if (s->kind != TL_ST_SYNC || s->inserted ||
        (s->sync.kind != TL_SYNC_SET_FLAG && s->sync.kind != TL_SYNC_WAIT_FLAG))
        return;
    if (s->sync.src >= TL_PIPE_COUNT || s->sync.dst >= TL_PIPE_COUNT) return;
    int64_t id, c;
    uint8_t *r = &m->reserved[s->sync.src][s->sync.dst];
    if (tl_ir_is_const_int(s->sync.id, &id)) {
        if (id >= 0 && id < EVENT_IDS) *r |= (uint8_t)(1u << id);
    } else if (s->sync.id && s->sync.id->kind == TL_EX_BIN &&
               (s->sync.id->op.op == TL_BIN_MOD || s->sync.id->op.op == TL_BIN_FLOORMOD) &&
               tl_ir_is_const_int(s->sync.id->op.b, &c) && c > 0 && c <= EVENT_IDS) {
        *r |= (uint8_t)((1u << c) - 1);
    } else {
        *r = 0xFF;
    }
}

typedef struct {
    int item, start, end;
    int tried; // a + 1 once tried as a merge target for pair a
} live_t;

static int by_start(const void *a, const void *b)
{
    const live_t *x = a, *y = b;
    return x->start != y->start ? x->start - y->start : x->item - y->item;
}

// The innermost loop, if or while around s (NULL: the kernel body), found
// from the root.
static bool control_of(const tl_stmt_t *root, const tl_stmt_t *ctl, const tl_stmt_t *s,
                       const tl_stmt_t **out)
{
    if (!root) return false;
    if (root == s) {
        *out = ctl;
        return true;
    }
    switch (root->kind) {
    case TL_ST_SEQ:
        for (int i = 0; i < root->seq.n; i++)
            if (control_of(root->seq.items[i], ctl, s, out)) return true;
        return false;
    case TL_ST_FOR: return control_of(root->for_.body, root, s, out);
    case TL_ST_WHILE: return control_of(root->while_.body, root, s, out);
    case TL_ST_IF:
        return control_of(root->if_.then_, root, s, out) ||
               control_of(root->if_.else_, root, s, out);
    case TL_ST_SCOPE: return control_of(root->scope.body, ctl, s, out);
    default: return false;
    }
}

static const tl_stmt_t *control(const sim_t *S, const tl_stmt_t *s)
{
    const tl_stmt_t *c = NULL;
    return control_of(S->k->body, NULL, s, &c) ? c : s; // not found: matches nothing
}

// Merges flag pair x into pair y of the same pipes and form, when their ids
// run out: the earlier of the two waits and the later of the two sets stay
// (with y's id), the rest goes. Only between syncs under the same loop or if
// (so set and wait counts still match) and kept only when the program still
// has no unordered conflict.
// How far apart the body waits and the body sets of two pairs are.
static int pair_distance(const order_t *o, const item_t *x, const item_t *y)
{
    int xw = x->loop ? 1 : 0, xs = x->loop ? 0 : 1, yw = y->loop ? 1 : 0, ys = y->loop ? 0 : 1;
    int d = abs(position(o, x->stmts[xw]) - position(o, y->stmts[yw])) +
            abs(position(o, x->stmts[xs]) - position(o, y->stmts[ys]));
    return d;
}

static bool merge_pair(sim_t *S, const order_t *o, item_t *x, item_t *y)
{
    // a plain pair merges into a plain or a loop-carried one (into its body
    // wait and set), a loop-carried pair into a loop-carried one
    if (x->side != y->side || (x->loop && !y->loop) || x->extra || y->extra) return false;
    bool xloop = x->loop, yloop = y->loop;
    int xw = xloop ? 1 : 0, xs = xloop ? 0 : 1, yw = yloop ? 1 : 0, ys = yloop ? 0 : 1;
    int map[4] = {0, 1, 2, 3}; // x's sync j pairs with y's sync map[j]
    map[xw] = yw;
    map[xs] = ys;
    int pos[2][4] = {{0}};
    for (int j = 0; j < x->n; j++) {
        if (x->syncs[j]->sync.kind != y->syncs[map[j]]->sync.kind ||
            control(S, x->stmts[j]) != control(S, y->stmts[map[j]]))
            return false;
        pos[0][j] = position(o, x->stmts[j]);
        pos[1][j] = position(o, y->stmts[map[j]]);
        if (pos[0][j] < 0 || pos[1][j] < 0) return false;
    }
    // the syncs that stay: the earlier wait, the later set
    bool take_w = pos[0][xw]<pos[1][xw], take_s = pos[0][xs]> pos[1][xs];
    int wpos = take_w ? pos[0][xw] : pos[1][xw], spos = take_s ? pos[0][xs] : pos[1][xs];
    if (!yloop && spos > wpos) return false; // the set must still come first
    item_t saved = *y;
    tl_expr_t *xid[4];
    int n0 = S->ndisabled;
    for (int j = 0; j < x->n; j++) {
        xid[j] = x->syncs[j]->sync.id;
        if ((j == xw && take_w) || (j == xs && take_s)) {
            x->syncs[j]->sync.id = y->syncs[map[j]]->sync.id;
            disable(S, y->stmts[map[j]]);
            y->stmts[map[j]] = x->stmts[j];
            y->syncs[map[j]] = x->syncs[j];
        } else {
            disable(S, x->stmts[j]);
        }
    }
    S->side = x->side;
    S->pipes = side_pipes[x->side];
    if (simulate(S) || S->overflow) {
        S->overflow = false;
        enable_last(S, S->ndisabled - n0);
        for (int j = 0; j < x->n; j++) x->syncs[j]->sync.id = xid[j];
        *y = saved;
        return false;
    }
    x->removed = true;
    return true;
}

// When one pipe pair has more flag pairs than event ids, first merges pairs
// whose waits and sets are next to each other (the loads of an A and a B
// tile, released by their two L1 -> L0 copies): one pair then does the work of
// two and loses almost no overlap.
static void merge_neighbours(sim_t *S, const order_t *o)
{
    enum { NEAR = 8 };
    int count[TL_PIPE_COUNT][TL_PIPE_COUNT] = {{0}};
    for (int i = 0; i < S->nitems; i++) {
        const item_t *it = &S->items[i];
        if (!it->removed && it->pair && it->src < TL_PIPE_COUNT && it->dst < TL_PIPE_COUNT)
            count[it->src][it->dst]++;
    }
    for (int i = 0; i < S->nitems; i++) {
        item_t *x = &S->items[i];
        if (x->removed || !x->pair || x->src >= TL_PIPE_COUNT || x->dst >= TL_PIPE_COUNT ||
            count[x->src][x->dst] <= EVENT_IDS)
            continue;
        for (int j = 0; j < S->nitems; j++) {
            item_t *y = &S->items[j];
            if (j == i || y->removed || !y->pair || y->src != x->src || y->dst != x->dst ||
                pair_distance(o, x, y) > NEAR)
                continue;
            if (merge_pair(S, o, x, y)) {
                count[x->src][x->dst]--;
                break;
            }
        }
    }
}

// Colours the flag pairs of each pipe pair with event ids; a pair that finds
// none free is merged into a pair that has one where that keeps the program
// ordered (merge_pair), else it becomes a barrier_all at its waits.
static void assign_ids(sim_t *S)
{
    order_t o = {0};
    tl_rewrite_walk(S->k->body, number, &o);
    manual_t m;
    memset(&m, 0, sizeof m);
    tl_rewrite_walk(S->k->body, reserve, &m);
    merge_neighbours(S, &o);
    live_t *lv = calloc((size_t)S->nitems + 1, sizeof *lv);
    int nl = 0;
    for (int i = 0; lv && i < S->nitems; i++) {
        item_t *it = &S->items[i];
        if (it->removed || !it->pair) continue;
        int lo = -1, hi = -1;
        for (int j = 0; j < it->n; j++) {
            int p = position(&o, it->stmts[j]);
            if (p < 0) continue;
            if (lo < 0 || p < lo) lo = p;
            if (p > hi) hi = p;
        }
        lv[nl++] = (live_t){i, lo, hi, 0};
    }
    if (lv) qsort(lv, (size_t)nl, sizeof *lv, by_start);
    for (int a = 0; lv && a < nl; a++) {
        item_t *it = &S->items[lv[a].item];
        uint8_t used = m.reserved[it->src][it->dst];
        for (int b = 0; b < a; b++) {
            item_t *o2 = &S->items[lv[b].item];
            if (o2->removed || o2->src != it->src || o2->dst != it->dst || lv[b].end < lv[a].start)
                continue;
            int64_t id;
            if (tl_ir_is_const_int(o2->syncs[0]->sync.id, &id) && id >= 0)
                used |= (uint8_t)(1u << id);
        }
        int id = 0;
        while (id < EVENT_IDS && (used >> id & 1)) id++;
        if (id < EVENT_IDS) {
            tl_expr_t *e = tl_ir_int(S->k, id, TL_I32, it->syncs[0]->loc);
            for (int j = 0; j < it->n; j++) it->syncs[j]->sync.id = e;
            continue;
        }
        // the pairs of these pipes live here, nearest first (the merge moves
        // the syncs the least)
        bool merged = false;
        for (int tries = 0; tries < a && !merged; tries++) {
            int best = -1, best_d = 0;
            for (int b = 0; b < a; b++) {
                item_t *y = &S->items[lv[b].item];
                if (y->removed || y->src != it->src || y->dst != it->dst ||
                    lv[b].end < lv[a].start || lv[b].tried == a + 1)
                    continue;
                int d = pair_distance(&o, it, y);
                if (best < 0 || d < best_d) best = b, best_d = d;
            }
            if (best < 0) break;
            lv[best].tried = a + 1;
            if (merge_pair(S, &o, it, &S->items[lv[best].item])) {
                merged = true;
                lv[best].end = TL_MAX(lv[best].end, lv[a].end);
            }
        }
        if (merged) continue;
        // No event id left: order with barrier_all at every wait instead (a
        // pair's waits may guard different consumers: the unrolled copies of
        // a pipelined loop, the wait after a loop).
        it->removed = true;
        for (int j = 0; j < it->n; j++) {
            tl_stmt_t *s = it->syncs[j];
            if (s->sync.kind == TL_SYNC_WAIT_FLAG) {
                s->sync.kind = TL_SYNC_BARRIER_ALL;
                s->sync.src = TL_PIPE_ALL;
                s->sync.dst = TL_PIPE_NONE;
                s->sync.id = NULL;
            } else {
                disable(S, it->stmts[j]);
            }
        }
        tl_diag_note(S->ctx->diag, it->syncs[0]->loc,
                     "intra_sync: no free %s->%s event id here; a barrier_all orders this instead",
                     tl_pipe_name(it->src), tl_pipe_name(it->dst));
    }
    free(lv);
    free(o.order);
}

// --- driver --------------------------------------------------------------------------------------

static tl_status_t sync_side(sim_t *S, tl_side_t side)
{
    S->side = side;
    S->pipes = side_pipes[side];
    int first = S->nitems;
    const tl_stmt_t *last_prod = NULL, *last_stmt = NULL;
    int last_index = -1, repeats = 0;
    for (int round = 0; round < MAX_ROUNDS; round++) {
        bool found = simulate(S);
        if (S->overflow)
            return tl_diag_report(S->ctx->diag, TL_SEV_ERROR, S->k->loc, TL_ERR_INTERNAL,
                                  "intra_sync: the program nests too deeply or is too large");
        if (!found) {
            sink_exit_waits(S, first);
            reduce(S, first);
            return TL_OK;
        }
        // A conflict that comes back after its sync was placed: order it with
        // barrier_all (cannot fail to order it).
        bool again = last_stmt == S->dep.stmt && last_prod == S->dep.prod.acc.stmt &&
                     last_index == S->dep.prod.acc_index;
        repeats = again ? repeats + 1 : 0;
        if (repeats > 2)
            return tl_diag_report(S->ctx->diag, TL_SEV_ERROR, loc_of(S, &S->dep), TL_ERR_INTERNAL,
                                  "intra_sync: cannot order this statement after line %d",
                                  S->dep.prod.acc.stmt->loc.line);
        last_prod = S->dep.prod.acc.stmt;
        last_index = S->dep.prod.acc_index;
        last_stmt = S->dep.stmt;
        tl_status_t st = insert_for(S, &S->dep, repeats > 0);
        if (st) return st;
    }
    return tl_diag_report(S->ctx->diag, TL_SEV_ERROR, S->k->loc, TL_ERR_INTERNAL,
                          "intra_sync: too many syncs needed");
}

// Baseline: barrier_all after every tile op.
static void baseline(tl_kernel_t *k, tl_stmt_t *s, tl_side_t scope)
{
    if (!s) return;
    switch (s->kind) {
    case TL_ST_SEQ:
        for (int i = 0; i < s->seq.n; i++) {
            tl_stmt_t *c = s->seq.items[i];
            baseline(k, c, scope);
            if (c->kind != TL_ST_OP) continue;
            tl_stmt_t *b =
                tl_rewrite_sync(k, TL_SYNC_BARRIER_ALL, TL_PIPE_ALL, TL_PIPE_NONE, NULL, 0, c->loc);
            tl_rewrite_insert(k, s, ++i, b);
        }
        return;
    case TL_ST_FOR: baseline(k, s->for_.body, scope); return;
    case TL_ST_WHILE: baseline(k, s->while_.body, scope); return;
    case TL_ST_IF:
        baseline(k, s->if_.then_, scope);
        baseline(k, s->if_.else_, scope);
        return;
    case TL_ST_SCOPE: baseline(k, s->scope.body, s->scope.side); return;
    default: return;
    }
}

typedef struct {
    int sets, waits, barriers, alls;
} count_t;

static void count(void *arg, tl_stmt_t *s)
{
    count_t *c = arg;
    if (s->kind != TL_ST_SYNC || !s->inserted) return;
    switch (s->sync.kind) {
    case TL_SYNC_SET_FLAG: c->sets++; break;
    case TL_SYNC_WAIT_FLAG: c->waits++; break;
    case TL_SYNC_PIPE_BARRIER: c->barriers++; break;
    case TL_SYNC_BARRIER_ALL: c->alls++; break;
    default: break;
    }
}

tl_status_t tl_pass_intra_sync(tl_kernel_t *k, tl_pass_ctx_t *ctx)
{
    if (!k->config.auto_sync && !k->config.sync_baseline) return TL_OK;
    if (k->config.auto_cv_combine)
        return tl_diag_error(ctx->diag, k->loc,
                             "intra_sync needs per-core programs: run cv_split first");
    tl_rewrite_normalize(k);
    if (k->config.sync_baseline) {
        baseline(k, k->body, TL_SIDE_NONE);
        return TL_OK;
    }
    sim_t S;
    memset(&S, 0, sizeof S);
    S.k = k;
    S.ctx = ctx;
    S.arch = tl_arch_get("a2");
    S.hz = tl_hazard_ctx_new(k);
    if (!S.hz) return tl_diag_fail(ctx->diag, TL_ERR_NOMEM, "out of memory");
    tl_status_t st = sync_side(&S, TL_SIDE_CUBE);
    if (!st) st = sync_side(&S, TL_SIDE_VEC);
    if (!st) {
        assign_ids(&S);
        drop_disabled(&S, k->body);
        for (int i = 0; i < S.nmade; i++) // an else left empty goes again
            if (S.made_else[i]->if_.else_ && !S.made_else[i]->if_.else_->seq.n)
                S.made_else[i]->if_.else_ = NULL;
    }
    tl_hazard_ctx_free(S.hz);
    free(S.items);
    free(S.disabled);
    free(S.saved);
    return st;
}

void tl_intra_sync_count(const tl_kernel_t *k, int *sets, int *waits, int *barriers, int *alls)
{
    count_t c = {0};
    tl_rewrite_walk(k->body, count, &c);
    *sets = c.sets;
    *waits = c.waits;
    *barriers = c.barriers;
    *alls = c.alls;
}
