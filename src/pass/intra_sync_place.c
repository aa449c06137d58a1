// Placing the sync that orders a conflict of intra_sync (see intra_sync.c).
#include "pass/intra_sync_int.h"
#include "pass/rewrite.h"
#include <stdlib.h>
#include <string.h>

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

// Where the sync for producer r and the consumer at dep goes: the seq both are
// in (in the same iteration), the producer's and the consumer's child indices,
// and the loop when the dependence crosses its back edge (then *lseq/*lindex
// locate the loop).
typedef struct {
    tl_stmt_t *seq;
    int level; // seq's level in both paths
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
        if (x->kind == TL_ST_IF && (next == x->if_.then_ || next == x->if_.else_) && n < MAX_FIX) {
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
static void narrow_place(const prod_t *r, const dep_t *d, int j, place_t *p, bool ifs)
{
    while (j + 1 < r->npath && j + 1 < d->npath && r->path[j].index == d->path[j].index) {
        const tl_stmt_t *x = path_item(d->path, j);
        if (!x || x->kind != TL_ST_SEQ || r->path[j + 1].seq != x || d->path[j + 1].seq != x) break;
        j++;
    }
    p->seq = d->path[j].seq;
    p->level = j;
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
    const prod_t *r = &d->prod;
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

// --- upstream's order ----------------------------------------------------------------------------
//
// Upstream's AscendSyncInsert puts a flag pair's set right before its wait,
// next to the consumer: everything the source pipe issued before the consumer
// is then ordered before it, not only the producer. Within one core the
// abstract execution already orders what needs ordering, so the difference can
// only matter to another core: a GM access on the source pipe between the
// producer and the consumer that a cross-core flag after the consumer is meant
// to release (gdn_chunk_o.py: the vector core's second read of workspace_2,
// then a store and set_cross_flag(MTE3) before the cube overwrites it). So in a
// kernel with cross-core flags, the set goes after every such access of a GM
// buffer the kernel writes (S->gm_written): later in its own sequence when they
// are all there, else right before the wait, else (one sits between the wait
// and the consumer) the pair goes right before the consumer as upstream's.
// Only where this core sets a cross-core flag on a pipe other than the set's:
// one on the set's own pipe drains that pipe, these accesses included.

// Whether s (with everything in it this core runs) accesses a GM buffer the
// kernel writes on pipe P.
static bool holds(sim_t *S, const tl_stmt_t *s, tl_pipe_t P)
{
    if (!s) return false;
    switch (s->kind) {
    case TL_ST_SEQ:
        for (int i = 0; i < s->seq.n; i++)
            if (holds(S, s->seq.items[i], P)) return true;
        return false;
    case TL_ST_SCOPE: return s->scope.side == S->side && holds(S, s->scope.body, P);
    case TL_ST_FOR: return holds(S, s->for_.body, P);
    case TL_ST_WHILE: return holds(S, s->while_.body, P);
    case TL_ST_IF: return holds(S, s->if_.then_, P) || holds(S, s->if_.else_, P);
    case TL_ST_SYNC: return false;
    default: break;
    }
    const accs_t *a = isync_accesses(S, s);
    for (int i = 0; i < a->n; i++)
        if (a->a[i].pipe == P && a->a[i].buf->scope == TL_SCOPE_GM &&
            S->gm_written[a->a[i].buf->id])
            return true;
    return false;
}

// The last index in [a, b) of seq whose statement holds such an access, or -1.
static int last_held(sim_t *S, const tl_stmt_t *seq, int a, int b, tl_pipe_t P)
{
    for (int i = TL_MIN(b, seq->seq.n) - 1; i >= a; i--)
        if (holds(S, seq->seq.items[i], P)) return i;
    return -1;
}

// Whether one sits between the wait and the consumer (below the wait's level
// jw on the consumer's path: the heads of its sequences, and whole loops, whose
// later iterations run before the consumer's next one).
static bool held_below_wait(sim_t *S, const dep_t *d, int jw, tl_pipe_t P)
{
    for (int l = jw + 1; l < d->npath; l++) {
        const tl_stmt_t *up = path_item(d->path, l - 1);
        if (up && (up->kind == TL_ST_FOR || up->kind == TL_ST_WHILE)) return holds(S, up, P);
        if (last_held(S, d->path[l].seq, 0, d->path[l].index, P) >= 0) return true;
    }
    return false;
}

typedef enum { LATE_NONE, LATE_MOVE, LATE_AT_WAIT, LATE_AT_CONSUMER } late_t;

// Where upstream's order puts the set of the pair p places for d: unchanged,
// later in its own sequence (*at), right before the wait, or the pair right
// before the consumer. The accesses between the producer and the consumer:
// the rest of the set's sequence (its own), the rest of each sequence above it
// up to level L where both paths meet (across a loop's back edge: to the end
// of the body, then the start of the next iteration's), the start of each
// sequence down to the wait's, and what lies between the wait and the consumer.
static late_t late_set(sim_t *S, const dep_t *d, const place_t *p, int *at)
{
    tl_pipe_t P = d->prod.acc.pipe;
    const prod_t *r = &d->prod;
    // a set_cross_flag on P itself waits for everything on P before it: only a
    // cross-core flag on another pipe of this core can release these accesses
    // through the consumer
    if (!S->gm_written || !(S->cross_pipes[S->side] & ~BIT(P))) return LATE_NONE;
    int L = p->level, js = L, jw = L;
    while (js < r->npath && r->path[js].seq != p->set_seq) js++;
    while (jw < d->npath && d->path[jw].seq != p->wait_seq) jw++;
    if (js == r->npath || jw == d->npath) return LATE_AT_CONSUMER; // (not expected)
    if (held_below_wait(S, d, jw, P)) return LATE_AT_CONSUMER;
    bool back = p->loop != NULL; // ip >= ib: the consumer runs in the next iteration
    bool other = false;
    for (int l = js - 1; l >= L && !other; l--) {
        int end = l == L && !back ? p->ib : r->path[l].seq->seq.n;
        other = last_held(S, r->path[l].seq, r->path[l].index + 1, end, P) >= 0;
    }
    if (back) { // the sequences from the loop body down to level L: all of them but the path
        for (int l = L - 1; l >= 1 && !other; l--) {
            if (path_item(d->path, l) == p->loop) break;
            const tl_stmt_t *q = d->path[l].seq;
            other = last_held(S, q, 0, d->path[l].index, P) >= 0 ||
                    last_held(S, q, d->path[l].index + 1, q->seq.n, P) >= 0;
        }
        if (!other) other = last_held(S, p->seq, 0, p->ib, P) >= 0;
    }
    for (int l = L + 1; l <= jw && !other; l++)
        other = last_held(S, d->path[l].seq, 0, d->path[l].index, P) >= 0;
    if (other) return LATE_AT_WAIT;
    int own_end = js == L && !back ? p->ib : p->set_seq->seq.n;
    int last = last_held(S, p->set_seq, p->set_at, own_end, P);
    if (last < 0) return LATE_NONE;
    *at = last + 1;
    return LATE_MOVE;
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

tl_loc_t isync_loc_of(const sim_t *S, const dep_t *d)
{
    return d->stmt ? d->stmt->loc : S->k->loc;
}

bool isync_inserts_here(const sim_t *S, const dep_t *d, bool force_all)
{
    place_t p;
    if (!d->npath || !place(d, &p)) return false;
    tl_pipe_t P = d->prod.acc.pipe, Q = d->pipe;
    if (!(P == Q || force_all || !legal_pair(P, Q))) return false;
    (void)S;
    return p.wait_seq == d->path[d->npath - 1].seq && p.wait_at == d->path[d->npath - 1].index;
}

tl_status_t isync_insert_for(sim_t *S, const dep_t *d, bool force_all)
{
    place_t p;
    if (!place(d, &p))
        return tl_diag_report(S->ctx->diag, TL_SEV_ERROR, isync_loc_of(S, d), TL_ERR_INTERNAL,
                              "intra_sync: cannot place a sync between line %d and this statement",
                              d->prod.acc.stmt->loc.line);
    bool in_scope = p.in_scope;
    tl_pipe_t P = d->prod.acc.pipe, Q = d->pipe;
    tl_loc_t loc = isync_loc_of(S, d);
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
    int at = 0;
    switch (late_set(S, d, &p, &at)) {
    case LATE_NONE: break;
    case LATE_MOVE: p.set_at = at; break;
    case LATE_AT_CONSUMER: // the pair right before the consumer, on every path that runs it
        p.wait_seq = d->path[d->npath - 1].seq;
        p.wait_at = d->path[d->npath - 1].index;
        in_scope = d->in_scope[d->npath - 1];
        // fall through
    case LATE_AT_WAIT:
        put(S, it, p.wait_seq, p.wait_at, wait, in_scope);
        put(S, it, p.wait_seq, p.wait_at, set, in_scope);
        return TL_OK;
    }
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
