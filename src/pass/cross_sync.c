// cross_sync: cross-core flags for data handed between the cube and the vector
// cores through GM (TL_ASCEND_AUTO_CV_SYNC).
//
// requires: cv_split's output (k->cv_split: a cube and a vector program whose
//           statements carry their `origin` in the developer-mode program)
// ensures:  for every two accesses of one GM tensor (any tensor, any name) by
//           the two cores, at least one a write, that may overlap: the later
//           one in program order waits (wait_cross_flag) for a set_cross_flag
//           (mode 2) issued right after the earlier one on the pipe that did it
//           (FIX for L0C->GM, MTE3 for UB->GM, MTE2 for reads, whose flags
//           release the buffer for the next write). The flags sit in the
//           innermost loop, if or sequence both accesses share (sibling
//           cube / vector loops of one constant trip count whose accesses
//           meet only in equal iterations count as shared: pair_loops), so
//           producer and consumer counts match by construction; a dependence across a
//           loop's back edge (the next iteration's write after this
//           iteration's read: WAR across cores) gets its set after the read,
//           its wait before the write, one set before the loop and one wait
//           after it, unless a later hand-off back to the writer in the same
//           iteration already orders it (with TL_ASCEND_AUTO_SYNC the reader's
//           core orders its read before that hand-off's write: a chain of
//           conflicting statements). A one-way hand-off in a loop with no
//           flag coming back gets a reverse flag that bounds the run-ahead to
//           ACK_DEPTH iterations (a flag counts at most 15 pending sets).
//           Flag ids: 0..15 per direction, reused when live ranges do not
//           overlap. A kernel with its own cross-core flags gets none added;
//           its flags' set and wait counts per block must match where loop trip
//           counts are constant (an error names both places).
//
// Program order decides the direction, with one exception taken from upstream
// (its kernels rely on it): a tensor read in a loop before the loop body writes
// it, when nothing writes it earlier in program order (before the loop, or
// before the read in the body or an inner loop), would be read unwritten in
// the first iteration; the read then waits for the write of the same iteration
// (a warning says so, unless the tensor is a workspace of workspace.c, which
// warns in its own terms). dev_order has usually reordered such bodies already
// (then program order is upstream's order); this covers the ones it leaves.
// Not in a loop pipelined's staggered form made: there a read before the
// write reads what an earlier step wrote (a dependence across the back edge).
#include "pass/hazard.h"
#include "pass/pass.h"
#include "pass/rewrite.h"
#include "pass/subst.h"

#include <stdlib.h>
#include <string.h>

// MAXD: levels of sequences the collection goes through (the verifier bounds them).
enum { MAXD = TL_MAX_IR_DEPTH + 8, FLAG_IDS = 16, ACK_DEPTH = 4 };
enum { C = 0, V = 1 };

typedef struct {
    tl_stmt_t *seq;
    int index;
    const tl_stmt_t *owner; // the statement whose body seq is (for, while, if, scope)
    int branch;             // if: 0 then, 1 else
} step_t;

typedef struct {
    int side;
    tl_hazard_access_t acc;
    const tl_stmt_t *stmt; // the leaf, or the compound whose bound / condition reads
    int nsteps;
    step_t *steps; // in the kernel's arena
} gacc_t;

typedef struct {
    int from; // producer side (C or V)
    const gacc_t *prod, *cons;
    int level;    // shared chain elements the flags sit in
    bool carried; // across the back edge of chain[level - 1]
    int depth;    // prologue sets (1, or ACK_DEPTH for reverse flags)
    tl_pipe_t pipe;
    // anchors: set after pchild in pseq; wait before cchild in cseq; around loops
    tl_stmt_t *pseq, *pchild, *cseq, *cchild;
    tl_stmt_t *ploop_seq, *ploop, *cloop_seq, *cloop;
    int lo, hi; // live range in origins
    int id;
    bool dup;
} xdep_t;

typedef struct {
    tl_kernel_t *k;
    tl_pass_ctx_t *ctx;
    tl_hazard_ctx_t *hz;
    tl_stmt_t *prog[2]; // the cube and vector programs (scope bodies)
    gacc_t *acc;
    int nacc, capacc;
    xdep_t *dep;
    int ndep, capdep;
    int depth;
    step_t steps[MAXD];
    uint16_t reserved[2]; // flag ids used by the kernel's own flags, per direction
    bool manual;
    tl_loc_t manual_loc;
    const tl_stmt_t *vv_warned[16]; // statements warned about by pair_vv
    int nvv_warned;
    bool overflow;
} xs_t;

// --- collecting GM accesses ----------------------------------------------------------------------

typedef struct {
    xs_t *X;
    int side;
    const tl_stmt_t *stmt;
} col_t;

static void collect_access(void *arg, const tl_hazard_access_t *a)
{
    col_t *c = arg;
    xs_t *X = c->X;
    if (a->buf->scope != TL_SCOPE_GM) return;
    if (X->nacc == X->capacc) {
        int cap = X->capacc ? X->capacc * 2 : 64;
        gacc_t *g = realloc(X->acc, sizeof *g * (size_t)cap);
        if (!g) {
            X->overflow = true;
            return;
        }
        X->acc = g;
        X->capacc = cap;
    }
    gacc_t *g = &X->acc[X->nacc++];
    g->side = c->side;
    g->acc = *a;
    g->stmt = c->stmt;
    g->nsteps = X->depth;
    g->steps = tl_arena_dup(X->k->arena, X->steps, sizeof g->steps[0] * (size_t)(X->depth + 1));
}

static void collect_seq(xs_t *X, int side, tl_stmt_t *seq, const tl_stmt_t *owner, int branch);

static void collect(xs_t *X, int side, tl_stmt_t *s)
{
    col_t c = {X, side, s};
    if (s->kind == TL_ST_SYNC) {
        if (s->sync.kind == TL_SYNC_SET_CROSS || s->sync.kind == TL_SYNC_WAIT_CROSS) {
            if (!X->manual) X->manual_loc = s->loc;
            X->manual = true;
        }
        return;
    }
    tl_hazard_stmt(s, collect_access, &c);
    switch (s->kind) {
    case TL_ST_SEQ: collect_seq(X, side, s, s, 0); break;
    case TL_ST_FOR: collect_seq(X, side, s->for_.body, s, 0); break;
    case TL_ST_WHILE: collect_seq(X, side, s->while_.body, s, 0); break;
    case TL_ST_IF:
        collect_seq(X, side, s->if_.then_, s, 0);
        if (s->if_.else_) collect_seq(X, side, s->if_.else_, s, 1);
        break;
    case TL_ST_SCOPE: collect_seq(X, side, s->scope.body, s, 0); break;
    default: break;
    }
}

static void collect_seq(xs_t *X, int side, tl_stmt_t *seq, const tl_stmt_t *owner, int branch)
{
    if (X->depth == MAXD) {
        X->overflow = true;
        return;
    }
    int d = X->depth++;
    X->steps[d] = (step_t){seq, 0, owner, branch};
    for (int i = 0; i < seq->seq.n; i++) {
        X->steps[d].index = i;
        collect(X, side, seq->seq.items[i]);
    }
    X->depth--;
}

// --- the shared structure of two accesses --------------------------------------------------------

// A statement whose body is a level the flags can sit in: loops, ifs and
// nested sequences of the developer-mode program.
static bool level_owner(const tl_stmt_t *o)
{
    return o && o->origin &&
           (o->kind == TL_ST_FOR || o->kind == TL_ST_WHILE || o->kind == TL_ST_IF ||
            o->kind == TL_ST_SEQ);
}

// The levels around an access (its chain), outermost first.
static int chain(const gacc_t *g, const step_t **out)
{
    int n = 0;
    for (int i = 0; i < g->nsteps; i++)
        if (level_owner(g->steps[i].owner)) out[n++] = &g->steps[i];
    return n;
}

typedef struct {
    int n;                       // shared chain elements
    bool exclusive;              // the accesses sit in different branches of chain[n]
    const tl_stmt_t *loop[MAXD]; // shared loops (as seen from the first access)
    int nloop;
    int loop_at[MAXD]; // their chain positions
} shared_t;

static void shared(const gacc_t *a, const gacc_t *b, shared_t *s)
{
    const step_t *ca[MAXD], *cb[MAXD];
    int na = chain(a, ca), nb = chain(b, cb);
    memset(s, 0, sizeof *s);
    while (s->n < na && s->n < nb && ca[s->n]->owner->origin == cb[s->n]->owner->origin) {
        if (ca[s->n]->branch != cb[s->n]->branch) {
            s->exclusive = true;
            break;
        }
        const tl_stmt_t *o = ca[s->n]->owner;
        if (o->kind == TL_ST_FOR || o->kind == TL_ST_WHILE) {
            s->loop_at[s->nloop] = s->n;
            s->loop[s->nloop++] = o;
        }
        s->n++;
    }
}

// Relations of loop variables when comparing two accesses: shared loops up
// to `eq` run the same iteration, the one at `later` a later iteration for the
// second access; everything else (other loops, vid) is unrelated.
typedef struct {
    const shared_t *sh;
    int eq;    // shared loops [0, eq) are EQ
    int later; // index of the LATER loop, or -1
    const tl_var_t *vid;
} relx_t;

static tl_hazard_rel_t rel(void *arg, const tl_var_t *v)
{
    const relx_t *r = arg;
    if (v == r->vid) return TL_HAZARD_ANY;
    if (v->kind != TL_VAR_LOOP) return TL_HAZARD_EQ;
    for (int i = 0; i < r->sh->nloop; i++) {
        const tl_stmt_t *L = r->sh->loop[i];
        if (L->kind != TL_ST_FOR || L->for_.var != v) continue;
        if (i < r->eq) return TL_HAZARD_EQ;
        return i == r->later ? TL_HAZARD_LATER : TL_HAZARD_ANY;
    }
    return TL_HAZARD_ANY;
}

static bool overlap(xs_t *X, const gacc_t *a, const gacc_t *b, const shared_t *sh, int eq,
                    int later)
{
    relx_t r = {sh, eq, later, X->k->vid};
    return tl_hazard_overlap(X->hz, &a->acc, &b->acc, rel, &r);
}

// An access with vid replaced by the constant v (the start expressions only).
static tl_hazard_access_t at_lane(xs_t *X, const tl_hazard_access_t *a, int v)
{
    tl_hazard_access_t c = *a;
    tl_subst_t m;
    tl_subst_init(&m);
    tl_subst_var(&m, X->k->vid, tl_ir_int(X->k, v, TL_I32, a->stmt ? a->stmt->loc : X->k->loc));
    for (int d = 0; d < c.ndim; d++)
        if (c.start[d]) c.start[d] = tl_subst_expr(X->k, &m, (tl_expr_t *)c.start[d]);
    tl_subst_free(&m);
    return c;
}

// Whether a on one vector core and b on the other may overlap.
static bool overlap_lanes(xs_t *X, const gacc_t *a, const gacc_t *b, const shared_t *sh, int eq,
                          int later)
{
    relx_t r = {sh, eq, later, X->k->vid};
    if (!X->k->vid) return true;
    for (int v = 0; v < 2; v++) {
        tl_hazard_access_t x = at_lane(X, &a->acc, v), y = at_lane(X, &b->acc, 1 - v);
        if (tl_hazard_overlap(X->hz, &x, &y, rel, &r)) return true;
    }
    return false;
}

static int origin_of(const gacc_t *g)
{
    return g->stmt->origin;
}

static xdep_t *add_dep(xs_t *X, int from, const gacc_t *p, const gacc_t *c, int level, bool carried,
                       int depth)
{
    if (X->ndep == X->capdep) {
        int cap = X->capdep ? X->capdep * 2 : 32;
        xdep_t *d = realloc(X->dep, sizeof *d * (size_t)cap);
        if (!d) {
            X->overflow = true;
            return NULL;
        }
        X->dep = d;
        X->capdep = cap;
    }
    xdep_t *d = &X->dep[X->ndep++];
    memset(d, 0, sizeof *d);
    d->from = from;
    d->prod = p;
    d->cons = c;
    d->level = level;
    d->carried = carried;
    d->depth = depth;
    tl_pipe_t pp = p->acc.pipe;
    d->pipe = pp == TL_PIPE_S || pp == TL_PIPE_NONE ? TL_PIPE_MTE2 : pp;
    return d;
}

// Whether some access writes buf before (in program order) origin `before`.
static bool written_before(const xs_t *X, const tl_buffer_t *buf, int before)
{
    for (int i = 0; i < X->nacc; i++)
        if (X->acc[i].acc.buf == buf && X->acc[i].acc.write && origin_of(&X->acc[i]) < before)
            return true;
    return false;
}

static bool const_range(const tl_stmt_t *s, int64_t *lo, int64_t *hi)
{
    return s->kind == TL_ST_FOR && !s->for_.staggered && tl_ir_is_const_int(s->for_.start, lo) &&
           tl_ir_is_const_int(s->for_.end, hi) && *hi > *lo;
}

// Upstream pairs the cube's and the vector cores' workspace copies one to one
// (AutoInsertCrossCoreSync): a copy in a cube loop and one in a sibling vector
// loop with the same constant trip count hand over iteration by iteration,
// the set after the copy inside the one loop, the wait inside the other. Taken
// here when the two accesses meet only in equal iterations (i with i): then the
// two loops are one shared loop for this pair. Flags around the whole loops
// instead make each side wait for all of the other's iterations, a deadlock
// when the loops also hand data back (sparse_flash_attention rev3's C1 and V1
// loops: scores to the vector cores, p back to the cube). On success *y is y
// with its loop variable renamed to x's, for the overlap tests, and sh has the
// pair as its innermost shared loop.
static bool pair_loops(xs_t *X, const gacc_t *x, gacc_t *y, shared_t *sh)
{
    const step_t *ca[MAXD], *cb[MAXD];
    int na = chain(x, ca), nb = chain(y, cb), n = sh->n;
    if (sh->exclusive || n >= na || n >= nb || sh->nloop == MAXD) return false;
    const tl_stmt_t *A = ca[n]->owner, *B = cb[n]->owner;
    int64_t a0, a1, b0, b1;
    if (A->origin == B->origin || !const_range(A, &a0, &a1) || !const_range(B, &b0, &b1) ||
        a0 != b0 || a1 != b1)
        return false;
    tl_hazard_access_t c = y->acc;
    tl_subst_t m;
    tl_subst_init(&m);
    tl_subst_var(&m, B->for_.var, tl_ir_varref(X->k, A->for_.var, B->loc));
    for (int d = 0; d < c.ndim; d++)
        if (c.start[d]) c.start[d] = tl_subst_expr(X->k, &m, (tl_expr_t *)c.start[d]);
    tl_subst_free(&m);
    for (int d = 0; d < c.ndim; d++) // through a let the renaming did not reach
        if (c.start[d] && tl_hazard_mentions(X->hz, c.start[d], B->for_.var)) return false;
    shared_t s2 = *sh;
    s2.loop_at[s2.nloop] = n;
    s2.loop[s2.nloop++] = A;
    s2.n = n + 1;
    gacc_t y2 = *y;
    y2.acc = c;
    if (!overlap(X, x, &y2, &s2, s2.nloop, -1)) return false;
    int l = s2.nloop - 1;
    for (int v = 0; v < 2 && a1 - a0 > 1; v++) { // other iterations, per vector core
        gacc_t yv = y2;
        if (X->k->vid) yv.acc = at_lane(X, &y2.acc, v);
        if (overlap(X, x, &yv, &s2, l, l) || overlap(X, &yv, x, &s2, l, l)) return false;
    }
    *sh = s2;
    *y = y2;
    return true;
}

static void pair(xs_t *X, const gacc_t *x, const gacc_t *y0)
{
    if (!x->acc.write && !y0->acc.write) return;
    shared_t sh;
    shared(x, y0, &sh);
    // y: y0, or its copy in x's loop variable (the flags still go to y0's place)
    gacc_t yp = *y0;
    bool paired = pair_loops(X, x, &yp, &sh); // then no dependence across the pair's back edge
    const gacc_t *y = paired ? &yp : y0;
#define PLACE(g) ((g) == y ? y0 : (g))
    bool fwd[2] = {false, false}; // a distance-0 dependence from side C / V
    if (!sh.exclusive && overlap(X, x, y, &sh, sh.nloop, -1)) {
        const gacc_t *first = origin_of(x) < origin_of(y) ? x : y, *second = first == x ? y : x;
        // Upstream's order: the read waits for the same iteration's write when
        // the tensor would otherwise be read unwritten.
        const tl_stmt_t *inner = sh.nloop ? sh.loop[sh.nloop - 1] : NULL;
        if (inner && !(inner->kind == TL_ST_FOR && inner->for_.staggered) && !first->acc.write &&
            second->acc.write && first->acc.buf->param >= 0 &&
            X->k->params[first->acc.buf->param].role != TL_ROLE_INPUT &&
            !written_before(X, first->acc.buf, origin_of(first))) {
            if (!first->acc.buf->internal) // workspace.c has said it for its own
                tl_diag_warning(X->ctx->diag, first->stmt->loc,
                                "'%s' is read here before it is written (line %d) in the same "
                                "iteration of the loop at line %d, and nothing writes it before: "
                                "as upstream does, this read waits for the write of the same "
                                "iteration",
                                first->acc.buf->name, second->stmt->loc.line,
                                sh.loop[sh.nloop - 1]->loc.line);
            const gacc_t *t = first;
            first = second;
            second = t;
        }
        add_dep(X, first->side, PLACE(first), PLACE(second), sh.n, false, 1);
        fwd[first->side] = true;
    }
    // Back edges, innermost shared loop first; one level per direction suffices
    // (the flags of an inner loop order the outer iterations too).
    bool back[2] = {false, false};
    for (int l = sh.nloop - 1 - paired; l >= 0; l--) {
        for (int dir = 0; dir < 2; dir++) {
            const gacc_t *a = dir ? y : x, *b = dir ? x : y; // a in an earlier iteration than b
            if (back[a->side] || fwd[a->side]) continue;
            if (!overlap(X, a, b, &sh, l, l)) continue;
            add_dep(X, a->side, PLACE(a), PLACE(b), sh.loop_at[l] + 1, true, 1);
            back[a->side] = true;
        }
    }
#undef PLACE
}

// Whether access g's place depends on a loop around it that is not one of
// the shared loops in sh.
static bool unshared_loop_var(const xs_t *X, const gacc_t *g, const shared_t *sh)
{
    for (int i = 0; i < g->nsteps; i++) {
        const tl_stmt_t *o = g->steps[i].owner;
        if (o->kind != TL_ST_FOR) continue;
        bool shared_loop = false;
        for (int l = 0; l < sh->nloop && !shared_loop; l++)
            shared_loop = sh->loop[l]->origin == o->origin;
        if (shared_loop) continue;
        for (int d = 0; d < g->acc.ndim; d++)
            if (g->acc.start[d] && tl_hazard_mentions(X->hz, g->acc.start[d], o->for_.var))
                return true;
    }
    return false;
}

// Two GM accesses of the vector program, x before y in program order, at
// least one a write, that one vector core's x and the other core's y may
// touch in common (in one iteration, or across a loop's back edge): nothing
// orders the two vector cores, and the reference runs a vector-only statement
// lane after lane, which no flag between the cores reproduces. A warning
// names both places (the simulator reports the race).
static void pair_vv(xs_t *X, const gacc_t *x, const gacc_t *y)
{
    if (!x->acc.write && !y->acc.write) return;
    if (X->nvv_warned && X->vv_warned[X->nvv_warned - 1] == y->stmt) return;
    shared_t sh;
    shared(x, y, &sh);
    if (sh.exclusive) return;
    // under an `if` on vid only one core runs both: it orders them itself
    const step_t *cx[MAXD];
    chain(x, cx);
    for (int i = 0; i < sh.n; i++) {
        const tl_stmt_t *o = cx[i]->owner;
        if (o->kind == TL_ST_IF && tl_hazard_mentions(X->hz, o->if_.cond, X->k->vid)) return;
    }
    // the overlap test knows nothing of loops the two do not share: no warning
    // unless both places are fixed in them
    if (unshared_loop_var(X, x, &sh) || unshared_loop_var(X, y, &sh)) return;
    bool hit = overlap_lanes(X, x, y, &sh, sh.nloop, -1);
    for (int l = sh.nloop - 1; l >= 0 && !hit; l--) hit = overlap_lanes(X, y, x, &sh, l, l);
    if (!hit || X->nvv_warned == (int)TL_ARRAY_LEN(X->vv_warned)) return;
    X->vv_warned[X->nvv_warned++] = y->stmt;
    tl_diag_warning(X->ctx->diag, y->stmt->loc,
                    "the two vector cores may both access '%s' here and at line %d (one core "
                    "each, at least one writing) with nothing ordering them: cross_sync adds no "
                    "flags between the vector cores",
                    x->acc.buf->name, x->stmt->loc.line);
}

// --- placement
// ------------------------------------------------------------------------------------

// The step of g inside the body of the chain element at `level` (level 0: the
// program's top sequence).
static const step_t *step_at(const gacc_t *g, int level)
{
    if (level == 0) return &g->steps[0];
    int n = 0;
    for (int i = 0; i < g->nsteps; i++)
        if (level_owner(g->steps[i].owner) && ++n == level) return &g->steps[i];
    return NULL;
}

// The statement holding step st's seq and the seq it sits in.
static bool loop_anchor(const gacc_t *g, const step_t *st, tl_stmt_t **seq, tl_stmt_t **loop)
{
    for (int i = 1; i < g->nsteps; i++)
        if (&g->steps[i] == st) {
            *seq = g->steps[i - 1].seq;
            *loop = g->steps[i - 1].seq->seq.items[g->steps[i - 1].index];
            return true;
        }
    return false;
}

static int max_origin(const tl_stmt_t *s)
{
    if (!s) return 0;
    int m = s->origin;
    switch (s->kind) {
    case TL_ST_SEQ:
        for (int i = 0; i < s->seq.n; i++) m = TL_MAX(m, max_origin(s->seq.items[i]));
        break;
    case TL_ST_FOR: m = TL_MAX(m, max_origin(s->for_.body)); break;
    case TL_ST_WHILE: m = TL_MAX(m, max_origin(s->while_.body)); break;
    case TL_ST_IF: m = TL_MAX(m, TL_MAX(max_origin(s->if_.then_), max_origin(s->if_.else_))); break;
    case TL_ST_SCOPE: m = TL_MAX(m, max_origin(s->scope.body)); break;
    default: break;
    }
    return m;
}

static int min_origin(const tl_stmt_t *s)
{
    if (!s) return 0;
    if (s->origin) return s->origin;
    int m = 0;
    if (s->kind == TL_ST_SEQ)
        for (int i = 0; i < s->seq.n; i++) {
            int o = min_origin(s->seq.items[i]);
            if (o && (!m || o < m)) m = o;
        }
    if (s->kind == TL_ST_IF) m = min_origin(s->if_.then_);
    return m;
}

static bool resolve(xdep_t *d)
{
    const step_t *ps = step_at(d->prod, d->level), *cs = step_at(d->cons, d->level);
    if (!ps || !cs) return false;
    d->pseq = ps->seq;
    d->pchild = ps->seq->seq.items[ps->index];
    d->cseq = cs->seq;
    d->cchild = cs->seq->seq.items[cs->index];
    if (d->carried) {
        if (!loop_anchor(d->prod, ps, &d->ploop_seq, &d->ploop) ||
            !loop_anchor(d->cons, cs, &d->cloop_seq, &d->cloop))
            return false;
        d->lo = TL_MIN(d->ploop->origin, d->cloop->origin);
        d->hi = TL_MAX(max_origin(d->ploop), max_origin(d->cloop));
    } else {
        int a = min_origin(d->pchild), b = min_origin(d->cchild);
        d->lo = a && b ? TL_MIN(a, b) : TL_MAX(a, b);
        d->hi = TL_MAX(max_origin(d->pchild), max_origin(d->cchild));
    }
    return true;
}

static int index_of(const tl_stmt_t *seq, const tl_stmt_t *s)
{
    for (int i = 0; i < seq->seq.n; i++)
        if (seq->seq.items[i] == s) return i;
    return -1;
}

// d makes e redundant: same direction, level and kind, its set at or after
// e's on the same pipe, its wait at or before e's.
static bool covers(const xdep_t *d, const xdep_t *e)
{
    if (d->from != e->from || d->carried != e->carried || d->pipe != e->pipe ||
        d->pseq != e->pseq || d->cseq != e->cseq || d->depth < e->depth)
        return false;
    return index_of(d->pseq, d->pchild) >= index_of(e->pseq, e->pchild) &&
           index_of(d->cseq, d->cchild) <= index_of(e->cseq, e->cchild);
}

// --- release flags implied by hand-offs ---------------------------------------------------------

// The leaves of a tree in program order.
typedef struct {
    const tl_stmt_t **v;
    int n, cap;
} leaves_t;

static void leaves(leaves_t *l, const tl_stmt_t *s)
{
    if (!s) return;
    switch (s->kind) {
    case TL_ST_SEQ:
        for (int i = 0; i < s->seq.n; i++) leaves(l, s->seq.items[i]);
        return;
    case TL_ST_FOR: leaves(l, s->for_.body); return;
    case TL_ST_WHILE: leaves(l, s->while_.body); return;
    case TL_ST_IF:
        leaves(l, s->if_.then_);
        leaves(l, s->if_.else_);
        return;
    case TL_ST_SCOPE: leaves(l, s->scope.body); return;
    default:
        if (l->n == l->cap) {
            l->cap = l->cap ? l->cap * 2 : 64;
            const tl_stmt_t **g = realloc(l->v, sizeof *g * (size_t)l->cap);
            if (!g) return;
            l->v = g;
        }
        l->v[l->n++] = s;
    }
}

typedef struct {
    const tl_hazard_access_t *a[64];
    int n;
} accs_t;

static void keep_access(void *arg, const tl_hazard_access_t *a)
{
    accs_t *l = arg;
    if (l->n < 64) {
        tl_hazard_access_t *c = malloc(sizeof *c);
        if (!c) return;
        *c = *a;
        l->a[l->n++] = c;
    }
}

static void free_accs(accs_t *l)
{
    for (int i = 0; i < l->n; i++) free((void *)l->a[i]);
    l->n = 0;
}

// Two statements of one core in the same iteration: every variable compares
// equal. (A conflict found this way is one intra_sync orders: it compares the
// same pair with at most this much knowledge.)
static tl_hazard_rel_t rel_same(void *arg, const tl_var_t *v)
{
    (void)arg;
    (void)v;
    return TL_HAZARD_EQ;
}

static bool stmts_conflict(const xs_t *X, const tl_stmt_t *a, const tl_stmt_t *b)
{
    accs_t x = {{0}, 0}, y = {{0}, 0};
    tl_hazard_stmt(a, keep_access, &x);
    tl_hazard_stmt(b, keep_access, &y);
    bool hit = false;
    for (int i = 0; i < x.n && !hit; i++)
        for (int j = 0; j < y.n && !hit; j++) {
            const tl_hazard_access_t *p = x.a[i], *q = y.a[j];
            if (!p->write && !q->write) continue;
            if (p->buf != q->buf &&
                (p->buf->scope != q->buf->scope || p->buf->scope == TL_SCOPE_GM))
                continue;
            hit = tl_hazard_overlap(X->hz, p, q, rel_same, NULL);
        }
    free_accs(&x);
    free_accs(&y);
    return hit;
}

// Whether the core's own synchronisation (intra_sync orders every two accesses
// it cannot prove disjoint) orders statement `from` before `to`, both in loop
// `body`: a chain of conflicting statements between them.
static bool ordered_on_core(const xs_t *X, const tl_stmt_t *body, const tl_stmt_t *from,
                            const tl_stmt_t *to)
{
    if (from == to) return true;
    leaves_t l = {0};
    leaves(&l, body);
    int i0 = -1, i1 = -1;
    for (int i = 0; i < l.n; i++) {
        if (l.v[i] == from) i0 = i;
        if (l.v[i] == to) i1 = i;
    }
    bool ok = false;
    bool *in = i0 >= 0 && i1 > i0 ? calloc((size_t)l.n, sizeof *in) : NULL;
    if (in) {
        in[i0] = true;
        for (int i = i0 + 1; i <= i1; i++)
            for (int j = i0; j < i && !in[i]; j++)
                if (in[j] && stmts_conflict(X, l.v[j], l.v[i])) in[i] = true;
        ok = in[i1];
    }
    free(in);
    free(l.v);
    return ok;
}

// A release across the back edge (d: the reader's core sets after its read,
// the writer waits before the next iteration's write) is implied by a
// hand-off e from the reader's core to the writer's in the same loop whose set
// comes after the read on the reader's core, ordered after it there: the
// writer's next iteration runs after e's wait.
static bool implied_release(const xs_t *X, const xdep_t *d, const xdep_t *e)
{
    if (e->carried || e->dup || e->from != d->from || e->pseq != d->pseq || e->cseq != d->cseq)
        return false;
    if (index_of(e->pseq, e->pchild) < index_of(d->pseq, d->pchild)) return false;
    return ordered_on_core(X, d->pseq, d->prod->stmt, e->prod->stmt);
}

static void drop_implied_releases(xs_t *X)
{
    if (!X->k->config.auto_sync) return; // the cores' own order comes from intra_sync
    for (int i = 0; i < X->ndep; i++) {
        xdep_t *d = &X->dep[i];
        if (d->dup || !d->carried || d->depth != 1) continue;
        for (int j = 0; j < X->ndep && !d->dup; j++)
            if (j != i && implied_release(X, d, &X->dep[j])) d->dup = true;
    }
}

// Reverse flags for one-way hand-offs in loops.
static void add_acks(xs_t *X)
{
    int n = X->ndep;
    for (int i = 0; i < n; i++) {
        xdep_t *d = &X->dep[i];
        if (d->dup || d->carried) continue;
        shared_t sh;
        shared(d->prod, d->cons, &sh);
        if (!sh.nloop) continue;
        int inner = sh.loop_at[sh.nloop - 1] + 1; // chain depth of the innermost shared loop
        if (d->level < inner) continue;
        bool back = false;
        for (int j = 0; j < X->ndep && !back; j++) {
            const xdep_t *e = &X->dep[j];
            if (e->dup || e->from == d->from || e->level < inner) continue;
            shared_t s2;
            shared(e->prod, e->cons, &s2);
            back = s2.nloop >= sh.nloop &&
                   s2.loop[sh.nloop - 1]->origin == sh.loop[sh.nloop - 1]->origin;
        }
        if (back) continue;
        xdep_t *a = add_dep(X, 1 - d->from, d->cons, d->prod, inner, true, ACK_DEPTH);
        if (!a) return;
        if (!resolve(a)) a->dup = true;
    }
}

// --- flag ids
// -------------------------------------------------------------------------------------

static void reserve(void *arg, tl_stmt_t *s)
{
    xs_t *X = arg;
    if (s->kind != TL_ST_SYNC || s->inserted) return;
    int64_t id;
    if (s->sync.kind == TL_SYNC_ALL) {
        X->reserved[C] |= 0x7800; // hardware SyncAll uses flags 11..14
        X->reserved[V] |= 0x7800;
    }
    if (s->sync.kind != TL_SYNC_SET_CROSS && s->sync.kind != TL_SYNC_WAIT_CROSS) return;
    uint16_t bits = tl_ir_is_const_int(s->sync.id, &id) && id >= 0 && id < FLAG_IDS
                        ? (uint16_t)(1u << id)
                        : 0xFFFF;
    X->reserved[C] |= bits;
    X->reserved[V] |= bits;
}

static bool assign(xs_t *X)
{
    for (int i = 0; i < X->ndep; i++) {
        xdep_t *d = &X->dep[i];
        if (d->dup) continue;
        uint16_t used = X->reserved[d->from];
        for (int j = 0; j < X->ndep; j++) {
            const xdep_t *e = &X->dep[j];
            if (j == i || e->dup || e->from != d->from || e->id < 0 || j > i) continue;
            if (e->hi < d->lo || d->hi < e->lo) continue;
            used |= (uint16_t)(1u << e->id);
        }
        int id = 0;
        while (id < FLAG_IDS && (used >> id & 1)) id++;
        if (id == FLAG_IDS) {
            tl_diag_error(X->ctx->diag, d->cons->stmt->loc,
                          "cross_sync: more than %d cross-core flags would be live here", FLAG_IDS);
            return false;
        }
        d->id = id;
    }
    return true;
}

// --- insertion
// ------------------------------------------------------------------------------------

static void put_after(tl_kernel_t *k, tl_stmt_t *seq, const tl_stmt_t *anchor, tl_stmt_t *s)
{
    tl_rewrite_insert(k, seq, index_of(seq, anchor) + 1, s);
}

static void put_before(tl_kernel_t *k, tl_stmt_t *seq, const tl_stmt_t *anchor, tl_stmt_t *s)
{
    tl_rewrite_insert(k, seq, index_of(seq, anchor), s);
}

static void insert(xs_t *X, const xdep_t *d)
{
    tl_kernel_t *k = X->k;
    tl_loc_t ploc = d->prod->stmt->loc, cloc = d->cons->stmt->loc;
    tl_expr_t *id = tl_ir_int(k, d->id, TL_I32, cloc);
    tl_stmt_t *set = tl_rewrite_sync(k, TL_SYNC_SET_CROSS, d->pipe, TL_PIPE_NONE, id, 2, ploc);
    tl_stmt_t *wait =
        tl_rewrite_sync(k, TL_SYNC_WAIT_CROSS, TL_PIPE_NONE, TL_PIPE_NONE, id, 0, cloc);
    put_after(k, d->pseq, d->pchild, set);
    put_before(k, d->cseq, d->cchild, wait);
    if (!d->carried) return;
    for (int i = 0; i < d->depth; i++) {
        put_before(k, d->ploop_seq, d->ploop,
                   tl_rewrite_sync(k, TL_SYNC_SET_CROSS, d->pipe, TL_PIPE_NONE, id, 2, ploc));
        put_after(k, d->cloop_seq, d->cloop,
                  tl_rewrite_sync(k, TL_SYNC_WAIT_CROSS, TL_PIPE_NONE, TL_PIPE_NONE, id, 0, cloc));
    }
}

// --- producer and consumer counts -----------------------------------------------------------

// How often each core sets and waits for each flag id per block, where the
// loops around it have constant trip counts (else unknown). Direction 0 is
// cube -> vector (the cube sets, the vector cores wait), 1 the reverse.
typedef struct {
    int64_t sets[2][FLAG_IDS], waits[2][FLAG_IDS];
    bool unknown[2][FLAG_IDS];
    const tl_stmt_t *set_at[2][FLAG_IDS], *wait_at[2][FLAG_IDS];
} counts_t;

static void count_flags(counts_t *c, int side, const tl_stmt_t *s, int64_t mult)
{
    if (!s) return;
    int64_t a, b;
    switch (s->kind) {
    case TL_ST_SEQ:
        for (int i = 0; i < s->seq.n; i++) count_flags(c, side, s->seq.items[i], mult);
        return;
    case TL_ST_FOR:
        if (mult >= 0 && tl_ir_is_const_int(s->for_.start, &a) &&
            tl_ir_is_const_int(s->for_.end, &b))
            mult *= b > a ? b - a : 0;
        else
            mult = -1;
        count_flags(c, side, s->for_.body, mult);
        return;
    case TL_ST_WHILE: count_flags(c, side, s->while_.body, -1); return;
    case TL_ST_IF:
        count_flags(c, side, s->if_.then_, -1);
        count_flags(c, side, s->if_.else_, -1);
        return;
    case TL_ST_SCOPE: count_flags(c, side, s->scope.body, mult); return;
    case TL_ST_SYNC: {
        bool set = s->sync.kind == TL_SYNC_SET_CROSS, wait = s->sync.kind == TL_SYNC_WAIT_CROSS;
        if ((!set && !wait) || (set && s->sync.mode != 2)) return;
        int dir = set ? side : 1 - side;
        int64_t id;
        if (!tl_ir_is_const_int(s->sync.id, &id) || id < 0 || id >= FLAG_IDS) {
            for (int i = 0; i < FLAG_IDS; i++) c->unknown[dir][i] = true;
            return;
        }
        if (mult < 0) c->unknown[dir][id] = true;
        if (set) {
            c->sets[dir][id] += mult;
            if (!c->set_at[dir][id]) c->set_at[dir][id] = s;
        } else {
            c->waits[dir][id] += mult;
            if (!c->wait_at[dir][id]) c->wait_at[dir][id] = s;
        }
        return;
    }
    default: return;
    }
}

// Sets and waits of one flag whose counts are known must match: a mismatch
// deadlocks (too few sets) or leaves flags set at the end (too many).
static tl_status_t check_counts(xs_t *X, tl_stmt_t *const *scope)
{
    counts_t c;
    memset(&c, 0, sizeof c);
    for (int side = 0; side < 2; side++) count_flags(&c, side, scope[side], 1);
    static const char *who[2] = {"cube", "vector cores"};
    tl_status_t st = TL_OK;
    for (int dir = 0; dir < 2; dir++)
        for (int id = 0; id < FLAG_IDS; id++) {
            if (c.unknown[dir][id] || c.sets[dir][id] == c.waits[dir][id]) continue;
            const tl_stmt_t *at = c.set_at[dir][id] ? c.set_at[dir][id] : c.wait_at[dir][id];
            st = tl_diag_error(X->ctx->diag, at->loc,
                               "cross-core flag %d: the %s set it %lld time%s per block but the %s "
                               "wait for it %lld time%s",
                               id, who[dir], (long long)c.sets[dir][id],
                               c.sets[dir][id] == 1 ? "" : "s", who[1 - dir],
                               (long long)c.waits[dir][id], c.waits[dir][id] == 1 ? "" : "s");
            if (c.set_at[dir][id] && c.wait_at[dir][id])
                tl_diag_note(X->ctx->diag, c.wait_at[dir][id]->loc, "the %s wait for flag %d here",
                             who[1 - dir], id);
        }
    return st;
}

static tl_stmt_t *program(tl_kernel_t *k, tl_side_t side)
{
    for (int i = 0; i < k->body->seq.n; i++) {
        tl_stmt_t *s = k->body->seq.items[i];
        if (s->kind == TL_ST_SCOPE && s->scope.side == side) return s;
    }
    return NULL;
}

tl_status_t tl_pass_cross_sync(tl_kernel_t *k, tl_pass_ctx_t *ctx)
{
    if (!k->config.auto_cv_sync || !k->cv_split) return TL_OK;
    tl_rewrite_normalize(k);
    xs_t X;
    memset(&X, 0, sizeof X);
    X.k = k;
    X.ctx = ctx;
    tl_stmt_t *scope[2] = {program(k, TL_SIDE_CUBE), program(k, TL_SIDE_VEC)};
    if (!scope[V]) return TL_OK; // cube only: nothing to hand over
    tl_rewrite_walk(k->body, reserve, &X);
    for (int s = 0; s < 2; s++) {
        X.depth = 0;
        if (scope[s]) collect(&X, s, scope[s]);
    }
    tl_status_t st = TL_OK;
    if (X.manual) {
        tl_diag_warning(
            ctx->diag, X.manual_loc,
            "the kernel has its own cross-core flags: TL_ASCEND_AUTO_CV_SYNC adds none");
        st = check_counts(&X, scope);
        goto out;
    }
    X.hz = tl_hazard_ctx_new(k);
    if (!X.hz || X.overflow) {
        st = tl_diag_fail(ctx->diag, TL_ERR_NOMEM, "cross_sync: out of memory or nesting too deep");
        goto out;
    }
    for (int i = 0; i < X.nacc; i++)
        for (int j = 0; j < X.nacc; j++)
            if (X.acc[i].side == C && X.acc[j].side == V && X.acc[i].acc.buf == X.acc[j].acc.buf)
                pair(&X, &X.acc[i], &X.acc[j]);
    // Both vector cores run the vector program (threads=1: core 0 alone).
    if (k->threads != 1)
        for (int i = 0; i < X.nacc; i++)
            for (int j = i + 1; j < X.nacc; j++)
                if (X.acc[i].side == V && X.acc[j].side == V &&
                    X.acc[i].acc.buf == X.acc[j].acc.buf && X.acc[i].stmt != X.acc[j].stmt)
                    pair_vv(&X, &X.acc[i], &X.acc[j]);
    for (int i = 0; i < X.ndep; i++)
        if (!resolve(&X.dep[i])) {
            st = tl_diag_report(ctx->diag, TL_SEV_ERROR, X.dep[i].cons->stmt->loc, TL_ERR_INTERNAL,
                                "cross_sync: cannot place the flags for the access at line %d",
                                X.dep[i].prod->stmt->loc.line);
            goto out;
        }
    for (int i = 0; i < X.ndep; i++)
        for (int j = 0; j < X.ndep && !X.dep[i].dup; j++)
            if (i != j && !X.dep[j].dup && covers(&X.dep[j], &X.dep[i])) X.dep[i].dup = true;
    drop_implied_releases(&X);
    add_acks(&X);
    if (X.overflow) {
        st = tl_diag_fail(ctx->diag, TL_ERR_NOMEM, "out of memory");
        goto out;
    }
    for (int i = 0; i < X.ndep; i++) X.dep[i].id = -1;
    if (!assign(&X)) {
        st = TL_ERR_COMPILE;
        goto out;
    }
    for (int i = 0; i < X.ndep; i++)
        if (!X.dep[i].dup) insert(&X, &X.dep[i]);
    st = check_counts(&X, scope);
out:
    tl_hazard_ctx_free(X.hz);
    free(X.acc);
    free(X.dep);
    return st;
}
