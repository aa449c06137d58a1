// Resuming intra_sync's abstract execution (see intra_sync.c) from a
// checkpoint instead of the start of the program.
//
// A checkpoint is the state of the walk just before a statement at a plain
// position: one reached from the kernel body through sequences and scopes
// alone, so the walk's position is all the context there is (no loop, no if
// around it). When the program changes only at or after a position, executing
// it again from a checkpoint at or before that position gives exactly the
// states and the first conflict a run from the start would give. The driver
// resumes so after each sync it places away from the walk's position, and
// trying out the removal of a sync (isync_reduce) runs from the checkpoint
// before it to the first checkpoint after it whose state is unchanged: from
// there on the program runs as before, without a conflict.
//
// Checkpoints are taken after a share of work proportional to the state's
// size (a copy costs about as much as that work), and thinned out (every
// other one dropped, the spacing doubled) when they hold more than
// CP_BUDGET bytes of records.
#include "pass/intra_sync_int.h"

#include <stdlib.h>
#include <string.h>

enum { CP_GAP = 8, CP_BUDGET = 64 << 20 };

// Order of two plain positions (paths from the body): <0, 0, >0. A position
// inside the statement another one stands before comes after it.
int isync_pos_cmp(const pos_t *a, int na, const pos_t *b, int nb)
{
    int n = TL_MIN(na, nb);
    for (int l = 0; l < n; l++)
        if (a[l].index != b[l].index) return a[l].index < b[l].index ? -1 : 1;
    return na - nb;
}

int isync_anchor(const pos_t *path, int n)
{
    int l = 0;
    while (l + 1 < n) {
        const tl_stmt_t *seq = path[l].seq;
        if (path[l].index >= seq->seq.n) break;
        const tl_stmt_t *x = seq->seq.items[path[l].index];
        if (!((x->kind == TL_ST_SEQ && path[l + 1].seq == x) ||
              (x->kind == TL_ST_SCOPE && path[l + 1].seq == x->scope.body)))
            break;
        l++;
    }
    return n ? l + 1 : 0;
}

static void cp_free(cp_t *c)
{
    isync_state_free(&c->st);
}

void isync_cp_clear(sim_t *S)
{
    for (int i = 0; i < S->ncps; i++) cp_free(&S->cps[i]);
    for (int i = 0; i < S->npend; i++) cp_free(&S->pend[i]);
    S->ncps = S->npend = 0;
    S->cp_bytes = 0;
    S->cp_gap = CP_GAP;
}

static void drop_from(sim_t *S, int first)
{
    for (int i = first; i < S->ncps; i++) {
        S->cp_bytes -= sizeof(rec_t) * (size_t)S->cps[i].st.n;
        cp_free(&S->cps[i]);
    }
    if (first < S->ncps) S->ncps = first;
}

// The last checkpoint at or before the position, or -1.
static int cp_before(const sim_t *S, const pos_t *path, int n)
{
    int lo = 0, hi = S->ncps; // first checkpoint after the position
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (isync_pos_cmp(S->cps[mid].at->p, S->cps[mid].at->n, path, n) <= 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo - 1;
}

static bool cp_push(sim_t *S, cp_t **list, int *n, int *cap, int depth)
{
    if (*n == *cap) {
        int c = *cap ? *cap * 2 : 64;
        cp_t *g = realloc(*list, sizeof *g * (size_t)c);
        if (!g) return false;
        *list = g;
        *cap = c;
    }
    cp_t *c = &(*list)[*n];
    c->at = isync_path(S, S->path, depth);
    c->next_inst = S->next_inst;
    if (!c->at) return false;
    isync_state_copy(S, &c->st, &S->st);
    if (S->overflow) return false;
    (*n)++;
    return true;
}

static void thin(sim_t *S)
{
    int w = 0;
    for (int i = 0; i < S->ncps; i++) {
        if (i % 2 == 0 && i != S->ncps - 1) {
            S->cp_bytes -= sizeof(rec_t) * (size_t)S->cps[i].st.n;
            cp_free(&S->cps[i]);
        } else {
            S->cps[w++] = S->cps[i];
        }
    }
    S->ncps = w;
    S->cp_gap *= 2;
}

static bool same_state(const sim_t *S, const cp_t *c)
{
    const state_t *a = &S->st, *b = &c->st;
    if (S->next_inst != c->next_inst || a->n != b->n || a->dead != b->dead) return false;
    for (int t = 0; t < SLOTS; t++) {
        const slot_t *x = &a->slot[t], *y = &b->slot[t];
        if (x->used != y->used) return false;
        if (x->used && (x->src != y->src || x->dst != y->dst || x->konst != y->konst ||
                        x->id != y->id || x->expr != y->expr || x->sig != y->sig))
            return false;
    }
    for (int i = 0; i < a->n; i++) {
        const rec_t *r = &a->r[i], *q = &b->r[i];
        if (r->acc != q->acc || r->acc_index != q->acc_index || r->iter != q->iter ||
            r->path != q->path || r->ord != q->ord || r->slots != q->slots)
            return false;
    }
    return true;
}

bool isync_cp_visit(sim_t *S, int d)
{
    int depth = d + 1;
    if (S->cp_mode == CP_BUILD) {
        if (S->work - S->work_at < (int64_t)S->cp_gap * (S->st.n + 16)) return false;
        S->work_at = S->work;
        if (!cp_push(S, &S->cps, &S->ncps, &S->capcps, depth)) {
            S->overflow = true;
            return true;
        }
        S->cp_bytes += sizeof(rec_t) * (size_t)S->st.n;
        if (S->cp_bytes > CP_BUDGET) thin(S);
        return false;
    }
    // a trial: the reference's checkpoints at the positions passed
    while (S->cursor < S->ncps &&
           isync_pos_cmp(S->cps[S->cursor].at->p, S->cps[S->cursor].at->n, S->path, depth) < 0)
        S->cursor++;
    if (S->cursor == S->ncps ||
        isync_pos_cmp(S->cps[S->cursor].at->p, S->cps[S->cursor].at->n, S->path, depth) != 0)
        return false;
    if (isync_pos_cmp(S->path, depth, S->hi_path, S->hi_depth) > 0 &&
        same_state(S, &S->cps[S->cursor])) {
        S->converged = true;
        S->stop = true;
        return true;
    }
    if (!cp_push(S, &S->pend, &S->npend, &S->cappend, depth)) {
        S->overflow = true;
        return true;
    }
    S->cursor++;
    return false;
}

// Runs the walk from the last checkpoint at or before the position (or from
// the start), dropping the checkpoints after it.
bool isync_resume(sim_t *S, const pos_t *path, int n)
{
    int c = cp_before(S, path, n);
    drop_from(S, c + 1);
    S->work = S->work_at = 0;
    return isync_run(S, c >= 0 ? &S->cps[c] : NULL);
}

bool isync_trial(sim_t *S, const pos_t *lo, int nlo, const pos_t *hi, int nhi)
{
    int c = cp_before(S, lo, nlo);
    S->cp_mode = CP_TRIAL;
    S->cursor = c + 1;
    memcpy(S->hi_path, hi, sizeof hi[0] * (size_t)nhi);
    S->hi_depth = nhi;
    S->converged = false;
    bool found = isync_run(S, c >= 0 ? &S->cps[c] : NULL) || S->overflow;
    S->cp_mode = CP_BUILD;
    if (found) {
        for (int i = 0; i < S->npend; i++) cp_free(&S->pend[i]);
        S->npend = 0;
        return true;
    }
    // the trial's states replace the reference's from the checkpoint on
    int end = S->converged ? S->cursor : S->ncps, have = end - (c + 1);
    for (int i = c + 1; i < end; i++) {
        S->cp_bytes -= sizeof(rec_t) * (size_t)S->cps[i].st.n;
        cp_free(&S->cps[i]);
    }
    int grow = S->npend - have;
    if (grow > 0 && S->ncps + grow > S->capcps) {
        int cap = S->capcps;
        while (cap < S->ncps + grow) cap = cap ? cap * 2 : 64;
        cp_t *g = realloc(S->cps, sizeof *g * (size_t)cap);
        if (!g) { // the reference ends at the checkpoint it resumed from
            for (int i = 0; i < S->npend; i++) cp_free(&S->pend[i]);
            S->npend = 0;
            for (int i = end; i < S->ncps; i++) {
                S->cp_bytes -= sizeof(rec_t) * (size_t)S->cps[i].st.n;
                cp_free(&S->cps[i]);
            }
            S->ncps = c + 1;
            return false;
        }
        S->cps = g;
        S->capcps = cap;
    }
    if (S->ncps > end)
        memmove(&S->cps[c + 1 + S->npend], &S->cps[end], sizeof *S->cps * (size_t)(S->ncps - end));
    if (S->npend) memcpy(&S->cps[c + 1], S->pend, sizeof *S->pend * (size_t)S->npend);
    for (int i = 0; i < S->npend; i++) S->cp_bytes += sizeof(rec_t) * (size_t)S->pend[i].st.n;
    S->ncps += grow;
    S->npend = 0;
    return false;
}

// --- anchors of statements -----------------------------------------------------------------------

typedef struct {
    const tl_stmt_t *stmt;
    const path_t *anchor;
} anchor_t;

static bool anchor_eq(const void *e, const void *key)
{
    return ((const anchor_t *)e)->stmt == key;
}

static uint64_t stmt_hash(const tl_stmt_t *s)
{
    uint64_t h = (uint64_t)(uintptr_t)s * 0x9e3779b97f4a7c15ull;
    return h ^ (h >> 29);
}

static void put_anchor(sim_t *S, const tl_stmt_t *s, const path_t *a)
{
    if (!a || !isync_tab_grow(&S->anchors)) {
        S->overflow = true;
        return;
    }
    uint64_t h = stmt_hash(s);
    void **at = isync_tab_find(&S->anchors, h, anchor_eq, s);
    if (*at) return;
    anchor_t *x = tl_arena_alloc(&S->arena, sizeof *x);
    if (!x) {
        S->overflow = true;
        return;
    }
    x->stmt = s;
    x->anchor = a;
    isync_tab_put(&S->anchors, at, h, x);
}

static void under(sim_t *S, const tl_stmt_t *s, const path_t *a)
{
    if (!s || S->overflow) return;
    put_anchor(S, s, a);
    switch (s->kind) {
    case TL_ST_SEQ:
        for (int i = 0; i < s->seq.n; i++) under(S, s->seq.items[i], a);
        return;
    case TL_ST_FOR: under(S, s->for_.body, a); return;
    case TL_ST_WHILE: under(S, s->while_.body, a); return;
    case TL_ST_IF:
        under(S, s->if_.then_, a);
        under(S, s->if_.else_, a);
        return;
    case TL_ST_SCOPE: under(S, s->scope.body, a); return;
    default: return;
    }
}

static void plain_seq(sim_t *S, tl_stmt_t *seq, pos_t *path, int d)
{
    if (d == MAXD) {
        S->overflow = true;
        return;
    }
    path[d].seq = seq;
    for (int i = 0; i < seq->seq.n && !S->overflow; i++) {
        path[d].index = i;
        tl_stmt_t *x = seq->seq.items[i];
        const path_t *a = isync_path(S, path, d + 1);
        put_anchor(S, x, a);
        if (x->kind == TL_ST_SEQ)
            plain_seq(S, x, path, d + 1);
        else if (x->kind == TL_ST_SCOPE)
            plain_seq(S, x->scope.body, path, d + 1);
        else
            under(S, x, a);
    }
}

void isync_anchor_all(sim_t *S)
{
    isync_tab_free(&S->anchors);
    pos_t path[MAXD];
    plain_seq(S, S->k->body, path, 0);
}

const path_t *isync_anchor_of(sim_t *S, const tl_stmt_t *s)
{
    if (!S->anchors.cap) return NULL;
    void **at = isync_tab_find(&S->anchors, stmt_hash(s), anchor_eq, s);
    return *at ? ((const anchor_t *)*at)->anchor : NULL;
}
