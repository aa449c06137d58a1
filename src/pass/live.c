// Buffer lifetimes and the must-write analysis behind them (see live.h).
//
// Must-write facts: a fact says "this part of buffer b is certainly written".
// Per dimension it is the whole dimension, a constant range, or a range that
// moves with a loop variable (`coef * v + off`, `ext` wide). A read is covered
// by a fact that covers the whole buffer, or (a bounded read, see access.h) by
// one that covers the read's box in the same iterations. Leaving a loop with constant
// bounds (at least one iteration, no break or continue) turns the dimensions
// that move with its variable into whole dimensions when the iterations tile
// them, and drops facts that still depend on it.
#include "pass/live.h"

#include "ir/access.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    const tl_var_t *var; // NULL: constant range [off, off + ext)
    int64_t coef, off, ext;
    bool whole;
} dimfact_t;

typedef struct {
    int buf;
    int ndim;
    dimfact_t d[TL_MAX_DIMS];
} fact_t;

typedef struct {
    int n, cap;
    fact_t *f;
} facts_t;

// What the then-branch of an earlier `if` wrote, under its condition: a later
// `if` on the same condition starts from it (the condition's value cannot
// have changed, see pure()).
typedef struct {
    const tl_expr_t *cond;
    facts_t facts;
} guard_t;

typedef struct {
    const tl_kernel_t *k;
    uint8_t *exposed; // per buffer: read before a full write (NULL: not tracked)
    facts_t *facts;
    bool writes; // second visit of a statement's accesses: its writes
    bool nomem;
    guard_t *guards; // of the ifs walked so far in the current iteration
    int nguards, capguards;
} walk_t;

static bool push(walk_t *w, facts_t *fs, const fact_t *f)
{
    for (int i = 0; i < fs->n; i++)
        if (!memcmp(&fs->f[i], f, sizeof *f)) return true;
    if (fs->n == fs->cap) {
        int cap = fs->cap ? fs->cap * 2 : 8;
        fact_t *p = realloc(fs->f, sizeof *p * (size_t)cap);
        if (!p) {
            w->nomem = true;
            return false;
        }
        fs->f = p;
        fs->cap = cap;
    }
    fs->f[fs->n++] = *f;
    return true;
}

static bool fact_whole(const fact_t *f)
{
    for (int d = 0; d < f->ndim; d++)
        if (!f->d[d].whole) return false;
    return true;
}

static bool has_full(const facts_t *fs, int buf)
{
    for (int i = 0; i < fs->n; i++)
        if (fs->f[i].buf == buf && fact_whole(&fs->f[i])) return true;
    return false;
}

static void normalise(dimfact_t *d, int64_t size)
{
    d->whole = !d->var && d->off <= 0 && d->off + d->ext >= size;
}

// One dimension of a write starting at `start`, `ext` wide. False when the
// start is not constant or linear in one loop variable.
static bool dim_of(const tl_expr_t *start, int64_t ext, int64_t size, dimfact_t *d)
{
    tl_linear_t lin;
    memset(d, 0, sizeof *d);
    d->ext = ext;
    if (!tl_ir_linear(start, &lin)) return false;
    d->off = lin.c;
    for (int i = 0; i < lin.n; i++) {
        if (!lin.coefs[i]) continue;
        const tl_expr_t *t = lin.terms[i];
        if (d->var || t->kind != TL_EX_VAR || t->var->kind != TL_VAR_LOOP) return false;
        d->var = t->var;
        d->coef = lin.coefs[i];
    }
    normalise(d, size);
    return true;
}

static void write_fact(walk_t *w, const tl_access_t *a)
{
    const tl_buffer_t *b = a->buf;
    if (b->scope == TL_SCOPE_GM || b->scope == TL_SCOPE_VAR || b->ndim > TL_MAX_DIMS) return;
    fact_t f;
    memset(&f, 0, sizeof f);
    f.buf = b->id;
    f.ndim = b->ndim;
    if (a->full) {
        for (int d = 0; d < b->ndim; d++) f.d[d].whole = true;
        push(w, w->facts, &f);
        return;
    }
    if (!a->covers) return;
    if (a->region) {
        const tl_region_t *r = a->region;
        for (int d = 0; d < b->ndim; d++) {
            int64_t e;
            if (!tl_ir_is_const_int(r->extent[d], &e) ||
                !dim_of(r->start[d], e, b->shape[d], &f.d[d]))
                return;
        }
    } else {
        if (a->n != b->ndim) return;
        for (int d = 0; d < b->ndim; d++)
            if (!dim_of(a->idx[d], 1, b->shape[d], &f.d[d])) return;
    }
    push(w, w->facts, &f);
}

// Whether fact f certainly wrote every element of the read box r.
static bool fact_covers(const fact_t *f, const dimfact_t *r)
{
    for (int d = 0; d < f->ndim; d++) {
        const dimfact_t *x = &f->d[d], *y = &r[d];
        if (x->whole) continue;
        if (x->var != y->var || (x->var && x->coef != y->coef)) return false;
        if (x->off > y->off || x->off + x->ext < y->off + y->ext) return false;
    }
    return true;
}

// Whether an earlier write certainly covers what read a reads: a whole-buffer
// write, or for a bounded read a write of a box holding the read's box (in the
// same iteration of the loops both move with, e.g. band[c] written then read).
static bool read_covered(const walk_t *w, const tl_access_t *a)
{
    const tl_buffer_t *b = a->buf;
    if (has_full(w->facts, b->id)) return true;
    if (!a->bounded || b->ndim > TL_MAX_DIMS) return false;
    dimfact_t r[TL_MAX_DIMS];
    for (int d = 0; d < b->ndim; d++) {
        int64_t e = 1;
        if (a->region) {
            if (!tl_ir_is_const_int(a->region->extent[d], &e)) return false;
            if (!dim_of(a->region->start[d], e, b->shape[d], &r[d])) return false;
        } else if (a->n != b->ndim || !dim_of(a->idx[d], 1, b->shape[d], &r[d])) {
            return false;
        }
    }
    for (int i = 0; i < w->facts->n; i++)
        if (w->facts->f[i].buf == b->id && w->facts->f[i].ndim == b->ndim &&
            fact_covers(&w->facts->f[i], r))
            return true;
    return false;
}

static void on_access(void *arg, const tl_access_t *a)
{
    walk_t *w = arg;
    if (!w->writes && (a->mode & TL_ACCESS_READ) && w->exposed && !read_covered(w, a))
        w->exposed[a->buf->id] = 1;
    if (w->writes && (a->mode & TL_ACCESS_WRITE)) write_fact(w, a);
}

// A statement reads its operands before it writes its results.
static void accesses(walk_t *w, const tl_stmt_t *s)
{
    w->writes = false;
    tl_access_stmt(s, on_access, w);
    w->writes = true;
    tl_access_stmt(s, on_access, w);
}

bool tl_live_escapes(const tl_stmt_t *s)
{
    if (!s) return false;
    switch (s->kind) {
    case TL_ST_BREAK:
    case TL_ST_CONTINUE: return true;
    case TL_ST_SEQ:
        for (int i = 0; i < s->seq.n; i++)
            if (tl_live_escapes(s->seq.items[i])) return true;
        return false;
    case TL_ST_IF: return tl_live_escapes(s->if_.then_) || tl_live_escapes(s->if_.else_);
    case TL_ST_SCOPE: return tl_live_escapes(s->scope.body);
    default: return false; // a nested loop's break leaves only that loop
    }
}

// The facts of a loop body that still hold after the loop over v in [lo, hi).
static void leave_loop(const tl_kernel_t *k, const tl_var_t *v, int64_t lo, int64_t hi,
                       facts_t *body, facts_t *out, walk_t *w)
{
    for (int i = 0; i < body->n; i++) {
        fact_t f = body->f[i];
        const tl_buffer_t *b = k->buffers.items[f.buf];
        bool keep = true;
        for (int d = 0; d < f.ndim && keep; d++) {
            dimfact_t *x = &f.d[d];
            if (x->var != v) continue;
            // Iterations write [coef*v + off, coef*v + off + ext): a tiling when ext >= coef.
            if (x->coef <= 0 || x->ext < x->coef) {
                keep = false;
                continue;
            }
            x->off = x->coef * lo + x->off;
            x->ext = x->coef * (hi - 1 - lo) + x->ext;
            x->var = NULL;
            x->coef = 0;
            normalise(x, b->shape[d]);
        }
        if (keep) push(w, out, &f);
    }
}

static void walk(walk_t *w, const tl_stmt_t *s);

// Whether e has one value for the rest of a loop iteration: no loads (buffers
// and alloc_vars change); variables are loop variables, immutable lets,
// parameters and block indices.
static bool pure(const tl_expr_t *e)
{
    if (!e) return true;
    switch (e->kind) {
    case TL_EX_LOAD: return false;
    case TL_EX_BIN: return pure(e->op.a) && pure(e->op.b);
    case TL_EX_UN: return pure(e->op.a);
    case TL_EX_CAST:
    case TL_EX_REINTERPRET: return pure(e->arg);
    case TL_EX_SELECT: return pure(e->sel.cond) && pure(e->sel.a) && pure(e->sel.b);
    default: return true;
    }
}

static void drop_guards(walk_t *w, int keep)
{
    while (w->nguards > keep) free(w->guards[--w->nguards].facts.f);
}

static void add_guard(walk_t *w, const tl_expr_t *cond, const facts_t *then_)
{
    if (!pure(cond) || !then_->n) return;
    if (w->nguards == w->capguards) {
        int cap = w->capguards ? w->capguards * 2 : 8;
        guard_t *p = realloc(w->guards, sizeof *p * (size_t)cap);
        if (!p) {
            w->nomem = true;
            return;
        }
        w->guards = p;
        w->capguards = cap;
    }
    guard_t *g = &w->guards[w->nguards++];
    g->cond = cond;
    g->facts = (facts_t){0, 0, NULL};
    for (int i = 0; i < then_->n; i++) push(w, &g->facts, &then_->f[i]);
}

// Walks s starting from the current facts (and, for the then-branch of an if
// on cond, what earlier ifs on the same condition wrote), into out. Guards
// recorded inside s hold only there.
static void walk_branch_under(walk_t *w, const tl_stmt_t *s, const tl_expr_t *cond, facts_t *out)
{
    facts_t *saved = w->facts;
    int nguards = w->nguards;
    out->n = 0;
    for (int i = 0; i < saved->n; i++) push(w, out, &saved->f[i]);
    for (int g = 0; cond && g < nguards; g++)
        if (tl_ir_expr_equal(w->guards[g].cond, cond))
            for (int i = 0; i < w->guards[g].facts.n; i++) push(w, out, &w->guards[g].facts.f[i]);
    w->facts = out;
    walk(w, s);
    w->facts = saved;
    drop_guards(w, nguards);
}

static void walk_branch(walk_t *w, const tl_stmt_t *s, facts_t *out)
{
    walk_branch_under(w, s, NULL, out);
}

static void walk_loop(walk_t *w, const tl_stmt_t *s)
{
    facts_t body = {0, 0, NULL};
    walk_branch(w, s->kind == TL_ST_FOR ? s->for_.body : s->while_.body, &body);
    int64_t lo, hi;
    if (s->kind == TL_ST_FOR && tl_ir_is_const_int(s->for_.start, &lo) &&
        tl_ir_is_const_int(s->for_.end, &hi) && hi > lo && !tl_live_escapes(s->for_.body))
        leave_loop(w->k, s->for_.var, lo, hi, &body, w->facts, w);
    free(body.f);
}

static bool same_fact(const fact_t *a, const fact_t *b)
{
    return !memcmp(a, b, sizeof *a);
}

static void walk(walk_t *w, const tl_stmt_t *s)
{
    if (!s || w->nomem) return;
    accesses(w, s);
    switch (s->kind) {
    case TL_ST_SEQ:
        for (int i = 0; i < s->seq.n; i++) walk(w, s->seq.items[i]);
        break;
    case TL_ST_FOR:
    case TL_ST_WHILE: walk_loop(w, s); break;
    case TL_ST_IF: {
        facts_t a = {0, 0, NULL}, b = {0, 0, NULL};
        walk_branch_under(w, s->if_.then_, s->if_.cond, &a);
        walk_branch(w, s->if_.else_, &b);
        add_guard(w, s->if_.cond, &a);
        facts_t *f = w->facts;
        f->n = 0;
        for (int i = 0; i < a.n; i++)
            for (int j = 0; j < b.n; j++)
                if (same_fact(&a.f[i], &b.f[j])) {
                    push(w, f, &a.f[i]);
                    break;
                }
        free(a.f);
        free(b.f);
        break;
    }
    case TL_ST_SCOPE: walk(w, s->scope.body); break;
    default: break;
    }
}

// Walks what runs after `target` (a loop inside s) up to the end of the
// kernel, on the paths through target: the statements after it in each
// enclosing sequence, outwards. Leaving an enclosing loop drops the facts that
// move with its variable, and all of them when a break or continue may have
// skipped the rest of its body. Returns whether s holds target.
static bool walk_after(walk_t *w, const tl_stmt_t *s, const tl_stmt_t *target)
{
    if (!s || w->nomem) return false;
    if (s == target) return true;
    switch (s->kind) {
    case TL_ST_SEQ:
        for (int i = 0; i < s->seq.n; i++)
            if (walk_after(w, s->seq.items[i], target)) {
                for (int j = i + 1; j < s->seq.n; j++) walk(w, s->seq.items[j]);
                return true;
            }
        return false;
    case TL_ST_SCOPE: return walk_after(w, s->scope.body, target);
    case TL_ST_IF:
        return walk_after(w, s->if_.then_, target) || walk_after(w, s->if_.else_, target);
    case TL_ST_FOR:
    case TL_ST_WHILE: {
        const tl_stmt_t *body = s->kind == TL_ST_FOR ? s->for_.body : s->while_.body;
        if (!walk_after(w, body, target)) return false;
        w->writes = false;
        if (s->kind == TL_ST_WHILE) tl_access_expr(s->while_.cond, on_access, w);
        facts_t *f = w->facts;
        int n = 0;
        for (int i = 0; i < f->n && !tl_live_escapes(body); i++) {
            bool moves = false;
            for (int d = 0; d < f->f[i].ndim; d++) moves |= f->f[i].d[d].var != NULL;
            if (!moves) f->f[n++] = f->f[i];
        }
        f->n = n;
        drop_guards(w, 0);
        return true;
    }
    default: return false;
    }
}

// Marks in exposed[] the buffers read before they were certainly overwritten:
// in one iteration of loop, or (after) in the code after loop, to the end of
// the kernel. False when out of memory.
static bool exposed_in(const tl_kernel_t *k, const tl_stmt_t *loop, bool after, uint8_t *exposed)
{
    facts_t f = {0, 0, NULL};
    walk_t w = {k, exposed, &f, false, false, NULL, 0, 0};
    if (after) {
        walk_after(&w, k->body, loop);
    } else {
        if (loop->kind == TL_ST_WHILE) tl_access_expr(loop->while_.cond, on_access, &w);
        walk(&w, loop->kind == TL_ST_FOR ? loop->for_.body : loop->while_.body);
    }
    drop_guards(&w, 0);
    free(w.guards);
    free(f.f);
    return !w.nomem;
}

bool tl_live_carried(const tl_kernel_t *k, const tl_stmt_t *loop, const tl_buffer_t *b)
{
    uint8_t *exposed = calloc((size_t)k->buffers.len + 1, 1);
    if (!exposed) return true;
    bool r = !exposed_in(k, loop, false, exposed) || exposed[b->id];
    free(exposed);
    return r;
}

// --- positions and intervals -------------------------------------------------------

typedef struct {
    const tl_stmt_t *s;
    int begin, end; // span of the loop's positions (inclusive)
} loop_t;

typedef struct {
    const tl_kernel_t *k;
    tl_live_t *out;
    int pos, cap;
    loop_t *loops;
    int nloops, caploops;
    bool nomem;
} number_t;

static void touch(void *arg, const tl_access_t *a)
{
    number_t *n = arg;
    tl_live_range_t *r = &n->out->range[a->buf->id];
    int p = n->pos - 1;
    if (r->start < 0 || p < r->start) r->start = p;
    if (p > r->end) r->end = p;
}

static void position(number_t *n, const tl_stmt_t *s)
{
    if (n->pos == n->cap) {
        int cap = n->cap ? n->cap * 2 : 256;
        const tl_stmt_t **p = realloc(n->out->at, sizeof *p * (size_t)cap);
        if (!p) {
            n->nomem = true;
            return;
        }
        n->out->at = p;
        n->cap = cap;
    }
    n->out->at[n->pos++] = s;
    tl_access_stmt(s, touch, n);
}

static void number(number_t *n, const tl_stmt_t *s)
{
    if (!s || n->nomem) return;
    switch (s->kind) {
    case TL_ST_SEQ:
        for (int i = 0; i < s->seq.n; i++) number(n, s->seq.items[i]);
        return;
    case TL_ST_SCOPE: number(n, s->scope.body); return;
    case TL_ST_IF:
        position(n, s);
        number(n, s->if_.then_);
        number(n, s->if_.else_);
        return;
    case TL_ST_FOR:
    case TL_ST_WHILE: {
        if (s->kind == TL_ST_FOR) position(n, s); // bounds: evaluated once, before the loop
        int begin = n->pos;
        if (s->kind == TL_ST_WHILE) position(n, s); // the condition: every iteration
        number(n, s->kind == TL_ST_FOR ? s->for_.body : s->while_.body);
        if (n->pos == begin || n->nomem) return;
        if (n->nloops == n->caploops) {
            int cap = n->caploops ? n->caploops * 2 : 16;
            loop_t *p = realloc(n->loops, sizeof *p * (size_t)cap);
            if (!p) {
                n->nomem = true;
                return;
            }
            n->loops = p;
            n->caploops = cap;
        }
        n->loops[n->nloops++] = (loop_t){s, begin, n->pos - 1}; // inner loops come first
        return;
    }
    default: position(n, s); return;
    }
}

// carried: tilec's intervals (live.h); false: upstream's, which keep a buffer
// live to the loop's end when it is accessed before the loop and in it.
static bool widen(const tl_kernel_t *k, tl_live_t *l, const loop_t *lp, bool carried)
{
    uint8_t *exposed = calloc((size_t)k->buffers.len + 1, 1);
    if (!exposed || (carried && !exposed_in(k, lp->s, false, exposed))) {
        free(exposed);
        return false;
    }
    uint8_t *after = NULL; // computed when a buffer needs it
    bool ok = true;
    for (int i = 0; ok && i < k->buffers.len; i++) {
        tl_live_range_t *r = &l->range[i];
        if (r->start < 0 || r->end < lp->begin || r->start > lp->end) continue;
        if (!carried) { // upstream: only a value that flows into the loop
            if (r->start < lp->begin) r->end = TL_MAX(r->end, lp->end);
            continue;
        }
        bool inside = r->start >= lp->begin && r->end <= lp->end;
        // First accessed in the loop and again after it: the loop's value
        // flows out only when the code after the loop reads it first.
        if (!inside && !exposed[i] && r->start >= lp->begin) {
            if (!after) {
                after = calloc((size_t)k->buffers.len + 1, 1);
                ok = after && exposed_in(k, lp->s, true, after);
                if (!ok) break;
            }
            inside = !after[i];
        }
        if (!inside || exposed[i]) {
            r->start = TL_MIN(r->start, lp->begin);
            r->end = TL_MAX(r->end, lp->end);
        }
    }
    free(after);
    free(exposed);
    return ok;
}

static tl_status_t compute(const tl_kernel_t *k, bool carried, tl_live_t *out)
{
    memset(out, 0, sizeof *out);
    out->range = malloc(sizeof *out->range * ((size_t)k->buffers.len + 1));
    if (!out->range) return TL_ERR_NOMEM;
    for (int i = 0; i < k->buffers.len; i++) out->range[i] = (tl_live_range_t){-1, -1};
    number_t n = {k, out, 0, 0, NULL, 0, 0, false};
    number(&n, k->body);
    out->npos = n.pos;
    bool ok = !n.nomem;
    for (int i = 0; ok && i < n.nloops; i++) ok = widen(k, out, &n.loops[i], carried);
    free(n.loops);
    // a view's accesses are its source's (pass/views.c)
    for (int i = 0; ok && i < k->buffers.len; i++) {
        const tl_buffer_t *b = k->buffers.items[i];
        tl_live_range_t v = out->range[i], *r = b->view_of ? &out->range[b->view_of->id] : NULL;
        if (!r || v.start < 0) continue;
        if (r->start < 0 || v.start < r->start) r->start = v.start;
        if (v.end > r->end) r->end = v.end;
    }
    if (!ok) {
        tl_live_free(out);
        return TL_ERR_NOMEM;
    }
    return TL_OK;
}

tl_status_t tl_live_compute(const tl_kernel_t *k, tl_live_t *out)
{
    return compute(k, true, out);
}

tl_status_t tl_live_compute_upstream(const tl_kernel_t *k, tl_live_t *out)
{
    return compute(k, false, out);
}

void tl_live_free(tl_live_t *l)
{
    free(l->at);
    free(l->range);
    memset(l, 0, sizeof *l);
}
