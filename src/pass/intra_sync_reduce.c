// Redundant syncs of intra_sync (see intra_sync.c): dropping the inserted
// syncs the others make redundant, and sinking loop-carried waits.
#include "pass/intra_sync_int.h"
#include "pass/rewrite.h"
#include <stdint.h>
#include <stdlib.h>

// --- removing redundant syncs --------------------------------------------------------------------

bool isync_disable(sim_t *S, tl_stmt_t *s)
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

void isync_enable_last(sim_t *S, int n)
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

void isync_drop_disabled(sim_t *S, tl_stmt_t *s)
{
    if (!s) return;
    switch (s->kind) {
    case TL_ST_SEQ:
        for (int i = 0; i < s->seq.n; i++) {
            if (is_disabled(S, s->seq.items[i]))
                tl_rewrite_remove(s, i--);
            else
                isync_drop_disabled(S, s->seq.items[i]);
        }
        break;
    case TL_ST_FOR: isync_drop_disabled(S, s->for_.body); break;
    case TL_ST_WHILE: isync_drop_disabled(S, s->while_.body); break;
    case TL_ST_IF:
        isync_drop_disabled(S, s->if_.then_);
        isync_drop_disabled(S, s->if_.else_);
        break;
    case TL_ST_SCOPE: isync_drop_disabled(S, s->scope.body); break;
    default: break;
    }
}

// --- barriers that are certainly needed ----------------------------------------------------------

// A lone pipe_barrier(p) between two ops of its sequence that conflict on
// pipe p (in the same iteration: they are next to each other) is the only
// thing that orders them, so trying out its removal would fail. Such
// barriers, one per dependent pair of a chain of vector ops, are most of what
// a long T.Parallel expression gets; each trial executes the program again.
typedef struct {
    const tl_stmt_t *stmt;
    int item;
} cand_t;

static int cand_cmp(const void *a, const void *b)
{
    uintptr_t x = (uintptr_t)((const cand_t *)a)->stmt, y = (uintptr_t)((const cand_t *)b)->stmt;
    return x < y ? -1 : x > y;
}

static tl_hazard_rel_t same_iteration(void *arg, const tl_var_t *v)
{
    (void)arg, (void)v;
    return TL_HAZARD_EQ;
}

static bool conflict_on(sim_t *S, const tl_stmt_t *a, const tl_stmt_t *b, tl_pipe_t p)
{
    if (a->kind != TL_ST_OP || b->kind != TL_ST_OP) return false;
    const accs_t *x = isync_accesses(S, a), *y = isync_accesses(S, b);
    for (int i = 0; i < x->n; i++) {
        const tl_hazard_access_t *u = &x->a[i];
        if (u->pipe != p) continue;
        for (int j = 0; j < y->n; j++) {
            const tl_hazard_access_t *w = &y->a[j];
            if (w->pipe != p || (!u->write && !w->write)) continue;
            if (u->buf != w->buf &&
                (u->buf->scope != w->buf->scope || u->buf->scope == TL_SCOPE_GM))
                continue;
            if (tl_hazard_overlap(S->hz, u, w, same_iteration, NULL)) return true;
        }
    }
    return false;
}

static void mark_needed(sim_t *S, const tl_stmt_t *s, const cand_t *c, int nc, bool *needed)
{
    if (!s) return;
    switch (s->kind) {
    case TL_ST_SEQ:
        for (int i = 0; i < s->seq.n; i++) {
            const tl_stmt_t *x = s->seq.items[i];
            cand_t key = {x, 0};
            const cand_t *hit = i > 0 && i + 1 < s->seq.n
                                    ? bsearch(&key, c, (size_t)nc, sizeof *c, cand_cmp)
                                    : NULL;
            if (hit)
                needed[hit->item] =
                    conflict_on(S, s->seq.items[i - 1], s->seq.items[i + 1], x->sync.src);
            else
                mark_needed(S, x, c, nc, needed);
        }
        break;
    case TL_ST_FOR: mark_needed(S, s->for_.body, c, nc, needed); break;
    case TL_ST_WHILE: mark_needed(S, s->while_.body, c, nc, needed); break;
    case TL_ST_IF:
        mark_needed(S, s->if_.then_, c, nc, needed);
        mark_needed(S, s->if_.else_, c, nc, needed);
        break;
    case TL_ST_SCOPE: mark_needed(S, s->scope.body, c, nc, needed); break;
    default: break;
    }
}

// needed[i] for the items from first on (NULL when out of memory).
static bool *needed_barriers(sim_t *S, int first)
{
    int n = S->nitems - first;
    bool *needed = calloc((size_t)n + 1, sizeof *needed);
    cand_t *c = malloc(sizeof *c * ((size_t)n + 1));
    if (!needed || !c) {
        free(c);
        free(needed);
        return NULL;
    }
    int nc = 0;
    for (int i = first; i < S->nitems; i++) {
        const item_t *it = &S->items[i];
        const tl_stmt_t *b = it->stmts[0];
        if (it->n == 1 && !it->pair && b == it->syncs[0] && b->kind == TL_ST_SYNC &&
            b->sync.kind == TL_SYNC_PIPE_BARRIER && b->sync.src != TL_PIPE_ALL &&
            b->sync.src != TL_PIPE_S && b->sync.src != TL_PIPE_M)
            c[nc++] = (cand_t){b, i - first};
    }
    qsort(c, (size_t)nc, sizeof *c, cand_cmp);
    if (nc) mark_needed(S, S->k->body, c, nc, needed);
    free(c);
    return needed;
}

// Tries removing each inserted sync, newest first; keeps the removal when the
// program still has no unordered conflict. Each try executes the program from
// the checkpoint before the sync up to where its state is the same as with
// the sync (isync_trial).
void isync_reduce(sim_t *S, int first)
{
    isync_anchor_all(S);
    S->cp_mode = CP_BUILD;
    bool resumable = !S->overflow && !isync_simulate(S) && !S->overflow;
    S->overflow = false;
    bool *needed = needed_barriers(S, first);
    for (int i = S->nitems - 1; i >= first; i--) {
        item_t *it = &S->items[i];
        if (needed && needed[i - first]) continue;
        const path_t *lo = NULL, *hi = NULL;
        for (int j = 0; resumable && j < it->n; j++) {
            const path_t *a = isync_anchor_of(S, it->stmts[j]);
            if (!a) {
                resumable = false;
                break;
            }
            if (!lo || isync_pos_cmp(a->p, a->n, lo->p, lo->n) < 0) lo = a;
            if (!hi || isync_pos_cmp(a->p, a->n, hi->p, hi->n) > 0) hi = a;
        }
        int n = 0;
        for (int j = 0; j < it->n; j++) n += isync_disable(S, it->stmts[j]);
        bool bad;
        if (resumable && lo) {
            bad = isync_trial(S, lo->p, lo->n, hi->p, hi->n);
        } else {
            S->cp_mode = CP_OFF;
            resumable = false;
            bad = isync_simulate(S) || S->overflow;
        }
        if (bad) {
            S->overflow = false;
            isync_enable_last(S, n);
        } else {
            it->removed = true;
        }
    }
    free(needed);
    S->cp_mode = CP_OFF;
    isync_cp_clear(S);
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
        bool found = isync_simulate(S);
        if (S->overflow) break;
        if (!found) {
            ok = true;
            break;
        }
        tl_pipe_t p = S->dep.prod.acc.pipe;
        if (round == MAX_BARRIERS || p != S->dep.pipe || p == TL_PIPE_S ||
            isync_insert_for(S, &S->dep, false) != TL_OK)
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

void isync_sink_exit_waits(sim_t *S, int first)
{
    int n = S->nitems; // not the barriers added on the way
    for (int i = first; i < n; i++) {
        const item_t *it = &S->items[i];
        if (it->removed || !it->exit_seq || !it->loop) continue;
        tl_stmt_t *seq = sink_wait(S, it->exit_seq, it->stmts[2]);
        S->items[i].exit_seq = seq; // (items may have moved)
    }
}
