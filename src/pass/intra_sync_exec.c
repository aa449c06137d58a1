// The abstract execution of intra_sync (see intra_sync.c): the state of
// memory-access records, how syncs order pipes, conflicts between two
// accesses, and the walk of a core's program.
#include "pass/intra_sync_int.h"

#include <stdlib.h>
#include <string.h>

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
    const iters_t *ri = ra->r->iter;
    for (int i = S->niter - 1; i >= 0; i--) {
        const tl_stmt_t *L = S->iter[i].loop;
        if (L->kind != TL_ST_FOR || L->for_.var != v) continue;
        for (int j = 0; j < ri->n; j++) {
            const iter_t *it = &ri->it[j];
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
    if (r->acc->pipe == TL_PIPE_S && b->pipe == TL_PIPE_S) return true;
    if (r->acc->pipe == TL_PIPE_M && b->pipe == TL_PIPE_M && is_gemm(r->acc->stmt) &&
        is_gemm(b->stmt) && r->acc->buf == b->buf && b->buf->scope == TL_SCOPE_L0C &&
        large_l0c_tile(S, r->acc) && large_l0c_tile(S, b))
        return true;
    return false;
}

static void set_dep(sim_t *S, const rec_t *r, const tl_hazard_access_t *b, const tl_stmt_t *at,
                    bool end_of_body)
{
    dep_t *d = &S->dep;
    d->found = true;
    d->prod.acc = *r->acc;
    d->prod.acc_index = r->acc_index;
    d->prod.ord = r->ord;
    d->prod.npath = r->path->n;
    memcpy(d->prod.path, r->path->p, sizeof r->path->p[0] * (size_t)r->path->n);
    d->prod.niter = r->iter->n;
    memcpy(d->prod.iter, r->iter->it, sizeof r->iter->it[0] * (size_t)r->iter->n);
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
        if ((r->ord & BIT(b->pipe)) || (!r->write && !b->write)) continue;
        const tl_hazard_access_t *a = r->acc;
        if (a->buf != b->buf && (a->buf->scope != b->buf->scope || a->buf->scope == TL_SCOPE_GM))
            continue;
        if (exempt(S, r, b)) continue;
        relarg_t ra = {S, r};
        if (!tl_hazard_overlap(S->hz, a, b, rel, &ra)) continue;
        set_dep(S, r, b, c->at, c->end_of_body);
        return;
    }
}

static void check(sim_t *S, const tl_stmt_t *s, bool end_of_body)
{
    check_t c = {S, s, end_of_body, 0};
    const accs_t *as = isync_accesses(S, s);
    for (int i = 0; i < as->n && !S->dep.found; i++) check_access(&c, &as->a[i]);
}

// A new access r that covers all of its buffer makes an older record of that
// buffer redundant when r writes or both read, and the older one ran on r's
// pipe or on one already ordered before r's: whatever conflicts with the
// older one conflicts with r, and whatever orders a later access after r
// orders it after the older one too (a barrier or a flag from r's pipe covers
// every earlier access on that pipe; flags carry all that completed on their
// source pipe). The other path of an if keeps its own copy, so joins stay
// exact. This keeps the state small along long runs of tile ops on one
// buffer: an elif chain of 1,000 branches would otherwise carry every
// branch's records through every later join. L0C is left alone (the cube's
// accumulation interlock depends on each access's own region).
static void drop_covered(sim_t *S, int first_new)
{
    state_t *st = &S->st;
    for (int k = first_new; k < st->n; k++) {
        const rec_t r = st->r[k];
        if (r.pipe == TL_PIPE_S || r.acc->buf->scope == TL_SCOPE_L0C || !isync_whole_buffer(r.acc))
            continue;
        int w = 0, nk = k;
        for (int i = 0; i < st->n; i++) {
            const rec_t *o = &st->r[i];
            bool drop = i < first_new && o->acc->buf == r.acc->buf &&
                        (o->pipe == r.pipe || (o->ord & BIT(r.pipe))) && (r.write || !o->write);
            if (drop) {
                if (i < nk) nk--;
                continue;
            }
            st->r[w++] = *o;
        }
        first_new -= st->n - w;
        st->n = w;
        k = nk;
    }
}

static void add_accesses(sim_t *S, const tl_stmt_t *s)
{
    const accs_t *as = isync_accesses(S, s);
    const path_t *path = NULL;
    const iters_t *iter = NULL;
    int first_new = S->st.n;
    for (int index = 0; index < as->n; index++) {
        const tl_hazard_access_t *a = &as->a[index];
        if (a->pipe == TL_PIPE_S && !a->write) continue; // later instructions issue after it
        if (!path) {
            path = isync_path(S, S->path, S->depth);
            iter = isync_iters(S, S->iter, S->niter);
            if (!path || !iter) return;
        }
        rec_t *r = isync_push_rec(S, &S->st);
        if (!r) return;
        r->acc = a;
        r->acc_index = index;
        r->pipe = (uint8_t)a->pipe;
        r->write = a->write;
        r->ord = a->pipe == TL_PIPE_S ? BIT(TL_PIPE_S) : 0;
        r->slots = 0;
        r->path = path;
        r->iter = iter;
    }
    drop_covered(S, first_new);
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
        if (st->r[i].pipe == src || (st->r[i].ord & BIT(src))) st->r[i].ord |= BIT(dst);
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
            if (r->pipe == src || (r->ord & BIT(src)))
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
            if (st->r[i].pipe == src) st->r[i].ord |= BIT(src);
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

// (The states a loop or an if keeps are on the heap: they are large, and the
// walk recurses once per nesting level.)
static void sim_loop(sim_t *S, tl_stmt_t *s, bool in_scope)
{
    if (S->nloops == MAX_LOOPS) {
        S->deep_loop = s;
        S->overflow = true;
        return;
    }
    state_t *keep = malloc(2 * sizeof *keep), *pre = keep, *one = keep + 1;
    if (!keep || S->nloops == MAXD || S->niter == MAXD) {
        S->overflow = true;
        free(keep);
        return;
    }
    isync_state_copy(S, pre, &S->st);
    int inst = S->next_inst++;
    loopframe_t *lf = &S->loops[S->nloops++];
    memset(lf, 0, sizeof *lf);
    tl_stmt_t *body = s->kind == TL_ST_FOR ? s->for_.body : s->while_.body;
    // The state after one iteration: unless the loop runs at least twice, the
    // loop may end there, without what the second pass ordered.
    bool have_one = false;
    for (int copy = 1; copy <= 2 && !S->dep.found; copy++) {
        S->iter[S->niter++] = (iter_t){s, inst, copy};
        if (s->kind == TL_ST_WHILE) check(S, s, copy > 1);
        if (!S->dep.found) sim_seq(S, body, in_scope);
        for (int i = 0; i < lf->ncont; i++) isync_meet(S, &S->st, &lf->cont[i]);
        free(lf->cont);
        lf->cont = NULL;
        lf->ncont = 0;
        S->niter--;
        if (copy == 1 && !provably_runs(s, 2)) {
            isync_state_copy(S, one, &S->st);
            have_one = true;
        }
    }
    if (have_one) isync_meet(S, &S->st, one);
    for (int i = 0; i < lf->nbrk; i++) isync_meet(S, &S->st, &lf->brk[i]);
    free(lf->brk);
    S->nloops--;
    isync_close_loop(S, s, inst);
    if (!provably_runs(s, 1))
        isync_meet(S, &S->st, pre);
    else
        isync_state_free(pre);
    free(keep);
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
    isync_state_copy(S, &(*list)[(*n)++], &S->st);
    S->st.dead = true;
}

// A conflict found at the statement the walk is at: in the first pass of
// every loop around it, a sync inserted right before it changes nothing the
// walk did so far, so the walk inserts it and goes on from there (the same
// result as executing the program again from the start, without the cost).
static bool fixed_here(sim_t *S)
{
    if (!S->fix_inline) return false;
    for (int i = 0; i < S->niter; i++)
        if (S->iter[i].copy != 1) return false;
    return isync_fix_here(S);
}

static bool sim_stmt(sim_t *S, tl_stmt_t *s, bool in_scope)
{
    if (S->st.dead || S->dep.found || S->overflow || S->stop) return false;
    switch (s->kind) {
    case TL_ST_SEQ: sim_seq(S, s, in_scope); return false;
    case TL_ST_SCOPE:
        if (s->scope.side == S->side) sim_seq(S, s->scope.body, true);
        return false;
    case TL_ST_FOR:
        check(S, s, false);
        if (S->dep.found) return fixed_here(S);
        sim_loop(S, s, in_scope);
        return false;
    case TL_ST_WHILE: sim_loop(S, s, in_scope); return false;
    case TL_ST_IF: {
        check(S, s, false);
        if (S->dep.found) return fixed_here(S);
        state_t *two = malloc(2 * sizeof *two); // [0] before the if, [1] after then
        if (!two) {
            S->overflow = true;
            return false;
        }
        isync_state_copy(S, &two[0], &S->st);
        sim_seq(S, s->if_.then_, in_scope);
        two[1] = S->st;
        S->st = two[0];
        if (s->if_.else_) sim_seq(S, s->if_.else_, in_scope);
        isync_meet(S, &S->st, &two[1]);
        free(two);
        return false;
    }
    case TL_ST_BREAK:
    case TL_ST_CONTINUE: jump(S, s->kind == TL_ST_BREAK); return false;
    default: break;
    }
    if (!in_scope) {
        tl_side_t side = leaf_side(s);
        if (side != TL_SIDE_NONE && side != S->side) return false;
    }
    // T.gemm_v0's device helper orders MTE2 before its L1 loads and FIX before
    // its mmads, and after itself its loads before MTE2 and its mmads before FIX.
    bool gemm_v0 = s->kind == TL_ST_OP && s->op.code == TL_OP_GEMM_V0;
    if (gemm_v0) {
        isync_edge(S, TL_PIPE_MTE2, TL_PIPE_MTE1);
        isync_edge(S, TL_PIPE_FIX, TL_PIPE_M);
    }
    S->work += S->st.n + 1;
    check(S, s, false);
    if (S->dep.found) return !gemm_v0 && fixed_here(S); // (its edges are applied)
    if (s->kind == TL_ST_SYNC) {
        apply_sync(S, s);
        return false;
    }
    add_accesses(S, s);
    if (gemm_v0) {
        isync_edge(S, TL_PIPE_MTE1, TL_PIPE_MTE2);
        isync_edge(S, TL_PIPE_M, TL_PIPE_FIX);
        prune(S);
    }
    return false;
}

// A statement returning true had a sync inserted in front of it: the walk
// goes on at the sync. Resuming from a checkpoint, the walk first goes down
// the checkpoint's position.
static void sim_seq(sim_t *S, tl_stmt_t *seq, bool in_scope)
{
    if (S->depth == MAXD) {
        S->overflow = true;
        return;
    }
    int d = S->depth++;
    S->path[d].seq = seq;
    S->in_scope[d] = in_scope;
    S->plain[d] = true;
    if (d > 0) {
        const pos_t *up = &S->path[d - 1];
        const tl_stmt_t *x = up->seq->seq.items[up->index];
        S->plain[d] = S->plain[d - 1] && (x->kind == TL_ST_SEQ || x->kind == TL_ST_SCOPE);
    }
    int i = 0;
    bool visited = false; // (the checkpoint resumed from, a statement tried again)
    if (S->resume_depth > d) {
        i = S->resume_path[d].index;
        if (S->resume_depth == d + 1) {
            S->resume_depth = 0; // arrived
            visited = true;
        } else {
            S->path[d].index = i;
            sim_stmt(S, seq->seq.items[i], in_scope);
            i++;
        }
    }
    while (i < seq->seq.n && !S->dep.found && !S->st.dead && !S->overflow && !S->stop) {
        S->path[d].index = i;
        if (!visited && S->plain[d] && S->cp_mode != CP_OFF && isync_cp_visit(S, d)) break;
        visited = sim_stmt(S, seq->seq.items[i], in_scope);
        if (!visited) i++;
    }
    S->depth--;
}

bool isync_run(sim_t *S, const cp_t *from)
{
    isync_state_free(&S->st);
    S->depth = S->niter = S->nloops = 0;
    S->stop = false;
    S->dep.found = false; // (the rest is set with it)
    S->next_inst = 1;
    S->resume_depth = 0;
    if (from) {
        isync_state_copy(S, &S->st, &from->st);
        S->next_inst = from->next_inst;
        S->resume_depth = from->at->n;
        memcpy(S->resume_path, from->at->p, sizeof from->at->p[0] * (size_t)from->at->n);
    }
    S->work = S->work_at = 0;
    sim_seq(S, S->k->body, false);
    S->resume_depth = 0;
    S->stop = false;
    isync_state_free(&S->st);
    return S->dep.found;
}

// One abstract execution of the side's program; true when a conflict was found.
bool isync_simulate(sim_t *S)
{
    if (S->cp_mode == CP_BUILD) isync_cp_clear(S);
    return isync_run(S, NULL);
}
