// parallel: T.Parallel loop nests become vector tile ops.
//
// requires: physical scopes (scope_infer)
// ensures:  no loop of kind parallel is left: each T.Parallel nest is replaced
//           by vector ops on UB regions (inside serial loops over its leading
//           dimensions when only the inner ones are contiguous), or becomes a
//           serial scalar loop and a note at the source says why.
//
// What is vectorised: nests of constant extent whose body is element stores
// (and lets) `dst[...] = expr` where every index is a loop variable plus an
// invariant offset. Operands classify as whole tiles (every loop variable, in
// order, contiguous), rows `b[i]` and columns `b[j]` of a 2-D nest, or scalars
// (loop-invariant expressions, single-element loads included). A statement may
// read a buffer the body writes only at the element it stores (so running the
// statements one after another over all elements is the same as running the
// body element by element). When the whole nest is not one contiguous span,
// the leading loops become serial loops around ops on the trailing ones.
// GM operands go through UB temporaries (GM -> UB copies before, UB -> GM copy
// after); compound expressions go through temporaries of the nest's shape,
// new UB buffers that memory planning places; the destination itself holds
// intermediate results when no later part of the expression reads it. With
// memory planning off (every buffer keeps its own range) a nest that would
// need whole-tile temporaries runs as a loop over rows, whose temporaries are
// one row.
//
// The lowering of one element store (operand classes, temporaries, the
// choice of ops and their exactness) is parallel_lower.c.
#include "pass/parallel_int.h"

#include "ir/walk.h"
#include "pass/subst.h"

// --- nests -----------------------------------------------------------------------------

static bool is_parallel(const tl_stmt_t *s)
{
    return s && s->kind == TL_ST_FOR && s->for_.loop == TL_LOOP_PARALLEL;
}

// The only statement of a body (a seq of one statement or the statement).
static tl_stmt_t *only(tl_stmt_t *s)
{
    while (s && s->kind == TL_ST_SEQ && s->seq.n == 1) s = s->seq.items[0];
    return s;
}

// Collects the nest of perfectly nested parallel loops starting at s; returns
// its innermost body.
static tl_stmt_t *collect(lower_t *L, tl_stmt_t *s)
{
    L->nall = 0;
    tl_stmt_t *body = s;
    while (is_parallel(only(body)) && L->nall < TL_MAX_DIMS) {
        tl_stmt_t *f = only(body);
        L->loops[L->nall] = f;
        L->var[L->nall] = f->for_.var;
        int64_t lo = 0, hi = 0;
        L->known[L->nall] =
            tl_ir_is_const_int(f->for_.start, &lo) && tl_ir_is_const_int(f->for_.end, &hi);
        L->lo[L->nall] = lo;
        L->ext[L->nall] = TL_MAX(hi - lo, 0);
        L->nall++;
        body = f->for_.body;
    }
    return body;
}

typedef struct {
    int n;
    tl_stmt_t *items[64];
} stmts_t;

static void flatten(tl_stmt_t *s, stmts_t *out, bool *ok)
{
    if (!s) return;
    if (s->kind == TL_ST_SEQ) {
        for (int i = 0; i < s->seq.n; i++) flatten(s->seq.items[i], out, ok);
        return;
    }
    if (out->n == 64) {
        *ok = false;
        return;
    }
    out->items[out->n++] = s;
}

// Element-wise independence: a buffer the body writes is read only at the
// element being stored (the same indices as its stores).
typedef struct {
    const tl_buffer_t *b;
    tl_expr_t *const *idx;
    int n;
    tl_loc_t loc;
} written_t;

static bool same_idx(int n, tl_expr_t *const *a, int m, tl_expr_t *const *b)
{
    if (n != m) return false;
    for (int i = 0; i < n; i++)
        if (!tl_ir_expr_equal(a[i], b[i])) return false;
    return true;
}

static bool check_loads(lower_t *L, const tl_expr_t *e, const written_t *w, int nw)
{
    if (!e) return true;
    switch (e->kind) {
    case TL_EX_LOAD:
        for (int i = 0; i < nw; i++) {
            if (w[i].b != e->load.buf) continue;
            if (w[i].b->scope == TL_SCOPE_GM)
                return par_fail(L, e->loc, "it reads GM tensor '%s', which it also writes",
                                w[i].b->name);
            if (!same_idx(e->load.n, e->load.idx, w[i].n, w[i].idx))
                return par_fail(L, e->loc,
                                "it reads '%s' at another element than the one it stores",
                                w[i].b->name);
        }
        for (int i = 0; i < e->load.n; i++)
            if (!check_loads(L, e->load.idx[i], w, nw)) return false;
        return true;
    case TL_EX_BIN: return check_loads(L, e->op.a, w, nw) && check_loads(L, e->op.b, w, nw);
    case TL_EX_UN: return check_loads(L, e->op.a, w, nw);
    case TL_EX_CAST:
    case TL_EX_REINTERPRET: return check_loads(L, e->arg, w, nw);
    case TL_EX_SELECT:
        return check_loads(L, e->sel.cond, w, nw) && check_loads(L, e->sel.a, w, nw) &&
               check_loads(L, e->sel.b, w, nw);
    default: return true;
    }
}

// Lowers the body statements with the inner loops from index `first` on.
static bool lower_body(lower_t *L, const stmts_t *body, tl_stmt_t *out)
{
    L->out = out;
    L->ntemps = 0;
    tl_kernel_t *k = L->k;
    for (int i = L->first; i < L->nall; i++)
        if (!L->known[i]) return par_fail(L, L->loc, "its extent is not a constant");
    written_t w[64];
    int nw = 0;
    for (int i = 0; i < body->n; i++) {
        const tl_stmt_t *s = body->items[i];
        if (s->kind == TL_ST_STORE && nw < 64)
            w[nw++] = (written_t){s->store.buf, s->store.idx, s->store.n, s->loc};
    }
    for (int i = 0; i < nw; i++)
        for (int j = 0; j < i; j++)
            if (w[i].b == w[j].b && !same_idx(w[i].n, w[i].idx, w[j].n, w[j].idx))
                return par_fail(L, w[i].loc, "it stores to '%s' at two different elements",
                                w[i].b->name);
    // Lets are substituted into the statements after them; a let whose value
    // reads a buffer stored before its use would change value: not lowered.
    tl_subst_t m;
    tl_subst_init(&m);
    const tl_var_t *stale[64];
    int nstale = 0;
    bool ok = true;
    for (int i = 0; i < body->n && ok; i++) {
        const tl_stmt_t *s = body->items[i];
        if (s->kind == TL_ST_LET) {
            tl_expr_t *val = tl_subst_expr(k, &m, s->let.value);
            if (tl_ir_height(val) > TL_MAX_NESTING) {
                ok = par_fail(L, s->loc,
                              "substituting its lets nests an expression more than %d levels",
                              TL_MAX_NESTING);
                break;
            }
            tl_subst_var(&m, s->let.var, val);
            continue;
        }
        if (s->kind != TL_ST_STORE) {
            ok = par_fail(L, s->loc, "its body contains a %s",
                          s->kind == TL_ST_IF      ? "data-dependent if"
                          : s->kind == TL_ST_FOR   ? "loop"
                          : s->kind == TL_ST_OP    ? "tile op"
                          : s->kind == TL_ST_PRINT ? "print"
                                                   : "statement other than element stores");
            break;
        }
        for (int j = 0; j < nstale && ok; j++)
            if (tl_walk_mentions(s->store.value, stale[j]))
                ok = par_fail(L, s->loc, "the let '%s' would read a value the body changed before",
                              stale[j]->name);
        tl_expr_t *idx[TL_MAX_DIMS];
        int n = TL_MIN(s->store.n, TL_MAX_DIMS);
        for (int d = 0; d < n; d++) idx[d] = tl_subst_expr(k, &m, s->store.idx[d]);
        tl_expr_t *value = ok ? tl_subst_expr(k, &m, s->store.value) : NULL;
        for (int d = 0; d < n && ok; d++)
            if (tl_ir_height(idx[d]) > TL_MAX_NESTING) value = NULL;
        if (ok && tl_ir_height(value) > TL_MAX_NESTING) value = NULL;
        if (ok && !value)
            ok =
                par_fail(L, s->loc, "substituting its lets nests an expression more than %d levels",
                         TL_MAX_NESTING);
        ok = ok && check_loads(L, value, w, nw) &&
             par_lower_store(L, s->store.buf, n, idx, value, s->loc);
        // lets read before this store that load its buffer are stale from here on
        for (int j = 0; j < m.nvars && ok && nstale < 64; j++)
            if (par_count_loads(m.to[j], s->store.buf)) stale[nstale++] = m.from[j];
    }
    tl_subst_free(&m);
    return ok;
}

static tl_stmt_t *visit(void *arg, tl_stmt_t *s);

static tl_stmt_t *lower_nest(lower_t *L, tl_stmt_t *s)
{
    tl_stmt_t *inner = collect(L, s);
    tl_kernel_t *k = L->k;
    for (int i = 0; i < L->nall; i++)
        if (L->known[i] && !L->ext[i]) return tl_ir_seq(k, s->loc); // no iterations
    stmts_t body = {0, {0}};
    bool ok = true;
    flatten(inner, &body, &ok);
    int nbufs = k->buffers.len;
    L->why = NULL;
    L->loc = s->loc;
    for (int first = 0; ok && first < L->nall; first++) {
        L->first = first;
        L->n = L->nall - first;
        L->why = NULL;
        // Without memory planning every temporary keeps its own UB range: then
        // rows with small temporaries are preferred to whole-tile ones.
        L->no_tiles = !k->config.memory_planning && first < L->nall - 1;
        tl_stmt_t *ops = tl_ir_seq(k, s->loc);
        if (!lower_body(L, &body, ops)) {
            k->buffers.len = nbufs; // drop this attempt's temporaries
            continue;
        }
        for (int i = first - 1; i >= 0; i--) { // leading loops stay, serial
            tl_stmt_t *f = L->loops[i];
            f->for_.loop = TL_LOOP_SERIAL;
            f->for_.body = ops;
            ops = f;
        }
        return ops;
    }
    if (ok && !L->why) par_fail(L, s->loc, "it is empty");
    tl_diag_note(L->ctx->diag, L->why_loc, "T.Parallel loop runs as scalar code: %s",
                 ok ? L->why : "its body is too long");
    for (int i = 0; i < L->nall; i++) L->loops[i]->for_.loop = TL_LOOP_SERIAL;
    // T.Parallel loops inside the body that are not perfectly nested may still vectorise.
    tl_stmt_t *last = L->loops[L->nall - 1];
    last->for_.body = visit(L, last->for_.body);
    return s;
}

static tl_stmt_t *visit(void *arg, tl_stmt_t *s)
{
    lower_t *L = arg;
    if (s && s->kind == TL_ST_FOR && s->for_.loop == TL_LOOP_PARALLEL) return lower_nest(L, s);
    return tl_subst_children(s, visit, L);
}

tl_status_t tl_pass_parallel(tl_kernel_t *k, tl_pass_ctx_t *ctx)
{
    lower_t *L = tl_arena_alloc(k->arena, sizeof *L);
    L->k = k;
    L->ctx = ctx;
    k->body = visit(L, k->body);
    return TL_OK;
}
