// Static memory hazards (hazard.h): the accesses of a statement with their
// pipes, and a disjointness test on linear index forms.
//
// Disjointness is proven two ways; either suffices. (1) Flat byte intervals:
// start = address + sum(start_d * pitch_d), length from the extents; used when
// every pitch is a constant (on-chip buffers, constant-shape GM tensors).
// (2) Per dimension, for two boxes of one buffer: their intervals in some
// dimension do not meet. Both tests keep a 31-byte margin unless the later
// range starts on a 32-byte boundary, so that no granule is shared.
#include "pass/hazard.h"

#include "ir/walk.h"

#include <stdlib.h>
#include <string.h>

enum { LIN_MAX = 16, GRANULE = 32, LET_DEPTH = 8 };

struct tl_hazard_ctx {
    const tl_kernel_t *k;
    const tl_expr_t **let_value; // per var id: a load-free let value, else NULL
    const tl_expr_t **let_def;   // per var id: the let's value
    const tl_var_t **let_loop;   // per var id: the innermost loop around the let
    bool *is_let;
};

// --- let definitions -----------------------------------------------------------------------------

static void collect_lets(tl_hazard_ctx_t *c, const tl_stmt_t *s, const tl_var_t *loop)
{
    if (!s) return;
    switch (s->kind) {
    case TL_ST_SEQ:
        for (int i = 0; i < s->seq.n; i++) collect_lets(c, s->seq.items[i], loop);
        break;
    case TL_ST_FOR: collect_lets(c, s->for_.body, s->for_.var); break;
    case TL_ST_WHILE: collect_lets(c, s->while_.body, loop); break;
    case TL_ST_IF:
        collect_lets(c, s->if_.then_, loop);
        collect_lets(c, s->if_.else_, loop);
        break;
    case TL_ST_SCOPE: collect_lets(c, s->scope.body, loop); break;
    case TL_ST_LET: {
        int id = s->let.var->id;
        c->is_let[id] = true;
        c->let_loop[id] = loop;
        // A let defined twice (projected onto two cores) keeps one value only
        // if both agree.
        const tl_expr_t *v = tl_walk_has_load(s->let.value) ? NULL : s->let.value;
        if (c->let_value[id] && !tl_ir_expr_equal(c->let_value[id], v)) v = NULL;
        c->let_value[id] = v;
        c->let_def[id] = s->let.value;
        break;
    }
    default: break;
    }
}

tl_hazard_ctx_t *tl_hazard_ctx_new(const tl_kernel_t *k)
{
    tl_hazard_ctx_t *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    size_t n = (size_t)k->vars.len + 1;
    c->k = k;
    c->let_value = calloc(n, sizeof *c->let_value);
    c->let_def = calloc(n, sizeof *c->let_def);
    c->let_loop = calloc(n, sizeof *c->let_loop);
    c->is_let = calloc(n, sizeof *c->is_let);
    if (!c->let_value || !c->let_def || !c->let_loop || !c->is_let) {
        tl_hazard_ctx_free(c);
        return NULL;
    }
    collect_lets(c, k->body, NULL);
    return c;
}

void tl_hazard_ctx_free(tl_hazard_ctx_t *c)
{
    if (!c) return;
    free(c->let_value);
    free(c->let_def);
    free(c->let_loop);
    free(c->is_let);
    free(c);
}

typedef struct {
    const tl_hazard_ctx_t *c;
    const tl_var_t *v;
    bool found;
    int depth;
} mention_t;

static bool find_var(void *arg, const tl_expr_t *e)
{
    mention_t *m = arg;
    if (e->kind == TL_EX_VAR) {
        if (e->var == m->v) m->found = true;
        const tl_expr_t *def = m->c ? m->c->let_def[e->var->id] : NULL;
        if (def && !m->found && m->depth < LET_DEPTH) {
            m->depth++;
            tl_walk_expr(def, find_var, m);
            m->depth--;
        }
    }
    return !m->found;
}

bool tl_hazard_mentions(const tl_hazard_ctx_t *c, const tl_expr_t *e, const tl_var_t *v)
{
    mention_t m = {c, v, false, 0};
    tl_walk_expr(e, find_var, &m);
    return m.found;
}

// --- accesses ------------------------------------------------------------------------------------

typedef struct {
    const tl_stmt_t *s;
    tl_hazard_fn fn;
    void *arg;
} emit_t;

static bool emit_load(void *arg, const tl_expr_t *e)
{
    emit_t *em = arg;
    if (e->kind != TL_EX_LOAD || e->load.buf->scope == TL_SCOPE_VAR) return true;
    tl_hazard_access_t a = {em->s, e->load.buf, TL_PIPE_S, false, false, e->load.n, {0}, {0}, 1};
    for (int i = 0; i < e->load.n; i++) {
        a.start[i] = e->load.idx[i];
        a.ext[i] = 1;
    }
    em->fn(em->arg, &a);
    return true;
}

static void loads(emit_t *em, const tl_expr_t *e)
{
    tl_walk_expr(e, emit_load, em);
}

static int64_t const_or(const tl_expr_t *e, int64_t dflt)
{
    int64_t v;
    return tl_ir_is_const_int(e, &v) ? v : dflt;
}

static void box(tl_hazard_access_t *a, const tl_region_t *r)
{
    a->ndim = r->ndim;
    for (int d = 0; d < r->ndim; d++) {
        a->start[d] = r->start[d];
        a->ext[d] = const_or(r->extent[d], -1);
        if (a->ext[d] < 0 && r->buf->scope != TL_SCOPE_GM) a->ext[d] = -1;
    }
}

static void region(emit_t *em, const tl_region_t *r, tl_pipe_t pipe, bool write, bool flat,
                   int64_t limit)
{
    tl_hazard_access_t a = {em->s, r->buf, pipe, write, flat, 0, {0}, {0}, -1};
    box(&a, r);
    if (flat) {
        a.len = tl_region_numel(r);
        if (limit >= 0 && (a.len < 0 || limit < a.len)) a.len = limit;
    }
    em->fn(em->arg, &a);
}

static void op_accesses(emit_t *em, const tl_op_t *op)
{
    const tl_opinfo_t *info = tl_op_info(op->code);
    tl_pipe_t pipe = tl_op_pipe(op);
    // Scalar operands and index expressions are read by the scalar unit first.
    for (int i = 0; i < op->nargs; i++) {
        const tl_arg_t *a = &op->args[i];
        if (a->kind == TL_ARG_SCALAR) {
            loads(em, a->scalar);
            continue;
        }
        for (int d = 0; d < a->region.ndim; d++) {
            loads(em, a->region.start[d]);
            loads(em, a->region.extent[d]);
        }
    }
    loads(em, op->init);
    loads(em, op->pad_value);
    loads(em, op->k_valid);
    loads(em, op->n_valid);
    loads(em, op->unit_flag);
    int64_t limit = -1;
    if (info->cls == TL_OPC_VEC && op->code != TL_OP_GATHER && strstr(info->signature, "[s]") &&
        op->nargs == info->max_args && op->args[op->nargs - 1].kind == TL_ARG_SCALAR)
        limit = const_or(op->args[op->nargs - 1].scalar, -1);
    switch (info->cls) {
    case TL_OPC_COPY:
        if (op->nargs < 2) return;
        if (op->code == TL_OP_IM2COL) { // reads the feature map, writes the L0A tile
            region(em, &op->args[1].region, pipe, false, false, -1);
            region(em, &op->args[0].region, pipe, true, false, -1);
            return;
        }
        if (op->code == TL_OP_COPY_PA) { // reads the table and KV rows it names, writes the tile
            if (op->nargs > 2) region(em, &op->args[2].region, pipe, false, false, -1);
            region(em, &op->args[1].region, pipe, false, false, -1);
            region(em, &op->args[0].region, pipe, true, false, -1);
            return;
        }
        if (op->code == TL_OP_ATOMIC_ADD) {
            region(em, &op->args[1].region, pipe, false, false, -1);
            region(em, &op->args[0].region, pipe, false, false, -1);
            region(em, &op->args[0].region, pipe, true, false, -1);
        } else {
            region(em, &op->args[0].region, pipe, false, false, -1);
            region(em, &op->args[1].region, pipe, true, false, -1);
        }
        return;
    case TL_OPC_GEMM: {
        int64_t init = 0;
        bool overwrite = tl_ir_is_const_int(op->init, &init) && init;
        // gemm_v0 loads its L1 operands into L0A / L0B on MTE1 (the device helper)
        tl_pipe_t in = op->code == TL_OP_GEMM_V0 ? TL_PIPE_MTE1 : pipe;
        region(em, &op->args[0].region, in, false, false, -1);
        region(em, &op->args[1].region, in, false, false, -1);
        if (!overwrite) region(em, &op->args[2].region, pipe, false, false, -1);
        region(em, &op->args[2].region, pipe, true, false, -1);
        return;
    }
    case TL_OPC_REDUCE:
        region(em, &op->args[0].region, pipe, false, false, -1);
        if (!op->clear) region(em, &op->args[1].region, pipe, false, true, -1);
        region(em, &op->args[1].region, pipe, true, true, -1);
        return;
    case TL_OPC_VEC:
        for (int i = 0; i < op->nargs; i++) {
            if (op->args[i].kind != TL_ARG_REGION) continue;
            char r = tl_op_role(op->code, i);
            int64_t lim = limit;
            // Indexed or bit-sized operands: from the origin to the end.
            if ((op->code == TL_OP_GATHER && i == 1) || (op->code == TL_OP_COMPARE && i == 0))
                lim = -2;
            tl_hazard_access_t a = {em->s, op->args[i].region.buf, pipe, false, true, 0, {0}, {0},
                                    -1};
            box(&a, &op->args[i].region);
            a.len = lim == -2 ? -1 : tl_region_numel(&op->args[i].region);
            if (lim >= 0 && (a.len < 0 || lim < a.len)) a.len = lim;
            if (r == 'r' || r == 'v' || r == 'x') em->fn(em->arg, &a);
            a.write = true;
            if (r == 'w' || r == 'x') em->fn(em->arg, &a);
        }
        return;
    case TL_OPC_STATE: return;
    }
}

void tl_hazard_stmt(const tl_stmt_t *s, tl_hazard_fn fn, void *arg)
{
    emit_t em = {s, fn, arg};
    switch (s->kind) {
    case TL_ST_FOR:
        loads(&em, s->for_.start);
        loads(&em, s->for_.end);
        return;
    case TL_ST_WHILE: loads(&em, s->while_.cond); return;
    case TL_ST_IF: loads(&em, s->if_.cond); return;
    case TL_ST_LET: loads(&em, s->let.value); return;
    case TL_ST_STORE: {
        for (int i = 0; i < s->store.n; i++) loads(&em, s->store.idx[i]);
        loads(&em, s->store.value);
        if (s->store.buf->scope == TL_SCOPE_VAR) return;
        tl_hazard_access_t a = {s, s->store.buf, TL_PIPE_S, true, false, s->store.n, {0}, {0}, 1};
        for (int i = 0; i < s->store.n; i++) {
            a.start[i] = s->store.idx[i];
            a.ext[i] = 1;
        }
        fn(arg, &a);
        return;
    }
    case TL_ST_OP: op_accesses(&em, &s->op); return;
    case TL_ST_PRINT:
        for (int i = 0; i < s->print.n; i++) loads(&em, s->print.args[i]);
        if (s->print.region) region(&em, s->print.region, TL_PIPE_S, false, false, -1);
        return;
    case TL_ST_SYNC: loads(&em, s->sync.id); return;
    default: return;
    }
}

// --- linear forms --------------------------------------------------------------------------------

typedef struct {
    int n;
    const tl_expr_t *atom[LIN_MAX];
    int64_t coef[LIN_MAX];
    int64_t c;
    bool ok;
} lin_t;

static void lin_atom(lin_t *f, const tl_expr_t *e, int64_t coef)
{
    for (int i = 0; i < f->n; i++)
        if (tl_ir_expr_equal(f->atom[i], e)) {
            if (__builtin_add_overflow(f->coef[i], coef, &f->coef[i])) f->ok = false;
            return;
        }
    if (f->n == LIN_MAX) {
        f->ok = false;
        return;
    }
    f->atom[f->n] = e;
    f->coef[f->n++] = coef;
}

static void lin_add(const tl_hazard_ctx_t *c, lin_t *f, const tl_expr_t *e, int64_t coef, int depth)
{
    int64_t k, p;
    if (!f->ok) return;
    if (!e) return; // a missing start is 0
    if (tl_dtype_is_float(e->dtype)) {
        f->ok = false;
        return;
    }
    switch (e->kind) {
    case TL_EX_INT:
        if (__builtin_mul_overflow(coef, e->i, &p) || __builtin_add_overflow(f->c, p, &f->c))
            f->ok = false;
        return;
    case TL_EX_VAR:
        if (c && c->let_value[e->var->id] && depth < LET_DEPTH) {
            lin_add(c, f, c->let_value[e->var->id], coef, depth + 1);
            return;
        }
        break;
    case TL_EX_BIN:
        switch (e->op.op) {
        case TL_BIN_ADD:
            lin_add(c, f, e->op.a, coef, depth);
            lin_add(c, f, e->op.b, coef, depth);
            return;
        case TL_BIN_SUB:
            lin_add(c, f, e->op.a, coef, depth);
            lin_add(c, f, e->op.b, -coef, depth);
            return;
        case TL_BIN_MUL:
            if (tl_ir_is_const_int(e->op.b, &k) || tl_ir_is_const_int(e->op.a, &k)) {
                if (__builtin_mul_overflow(coef, k, &p)) {
                    f->ok = false;
                    return;
                }
                lin_add(c, f, tl_ir_is_const_int(e->op.b, NULL) ? e->op.a : e->op.b, p, depth);
                return;
            }
            break;
        default: break;
        }
        break;
    case TL_EX_UN:
        if (e->op.op == TL_UN_NEG) {
            lin_add(c, f, e->op.a, -coef, depth);
            return;
        }
        break;
    case TL_EX_CAST:
        if (!tl_dtype_is_float(e->arg->dtype) && tl_dtype_size(e->dtype) >= 4) {
            lin_add(c, f, e->arg, coef, depth);
            return;
        }
        break;
    default: break;
    }
    lin_atom(f, e, coef);
}

typedef struct {
    const tl_hazard_ctx_t *c;
    tl_hazard_rel_fn rel;
    void *arg;
} relctx_t;

static tl_hazard_rel_t var_rel(const relctx_t *r, const tl_var_t *v)
{
    if (r->c && r->c->is_let[v->id]) {
        const tl_var_t *loop = r->c->let_loop[v->id];
        if (!loop) return TL_HAZARD_EQ;
        tl_hazard_rel_t l = r->rel(r->arg, loop);
        return l == TL_HAZARD_EQ ? TL_HAZARD_EQ : TL_HAZARD_ANY;
    }
    return r->rel(r->arg, v);
}

// Whether every variable of e has the same value for both accesses and e reads
// no memory (so equal expressions have equal values).
typedef struct {
    const relctx_t *r;
    bool ok;
} stable_t;

static bool check_stable(void *arg, const tl_expr_t *e)
{
    stable_t *st = arg;
    if (e->kind == TL_EX_LOAD || (e->kind == TL_EX_VAR && var_rel(st->r, e->var) != TL_HAZARD_EQ))
        st->ok = false;
    return st->ok;
}

static bool stable(const relctx_t *r, const tl_expr_t *e)
{
    stable_t st = {r, true};
    tl_walk_expr(e, check_stable, &st);
    return st.ok;
}

// The difference (second - first) of two linear forms: c0 + step * d for every
// d >= 1 when a LATER variable occurs (step is its coefficient), else c0.
typedef struct {
    bool known;
    int64_t c0, step;
    bool later;
    bool aligned_a, aligned_b; // each form is a multiple of GRANULE for every value
} diff_t;

static bool aligned(const lin_t *f)
{
    if (f->c % GRANULE) return false;
    for (int i = 0; i < f->n; i++)
        if (f->coef[i] % GRANULE) return false;
    return true;
}

static diff_t lin_diff(const relctx_t *r, const lin_t *a, const lin_t *b)
{
    diff_t d = {false, 0, 0, false, aligned(a), aligned(b)};
    if (!a->ok || !b->ok || __builtin_sub_overflow(b->c, a->c, &d.c0)) return d;
    bool used_b[LIN_MAX] = {false};
    for (int pass = 0; pass < 2; pass++) {
        const lin_t *f = pass ? b : a;
        for (int i = 0; i < f->n; i++) {
            if (pass && used_b[i]) continue;
            const tl_expr_t *e = f->atom[i];
            int64_t ca = pass ? 0 : a->coef[i], cb = pass ? b->coef[i] : 0;
            if (!pass)
                for (int j = 0; j < b->n; j++)
                    if (!used_b[j] && tl_ir_expr_equal(b->atom[j], e)) {
                        cb = b->coef[j];
                        used_b[j] = true;
                        break;
                    }
            if (ca == 0 && cb == 0) continue;
            tl_hazard_rel_t rel = e->kind == TL_EX_VAR ? var_rel(r, e->var)
                                  : stable(r, e)       ? TL_HAZARD_EQ
                                                       : TL_HAZARD_ANY;
            if (rel == TL_HAZARD_EQ) {
                if (ca != cb) return d; // an unknown value times a nonzero coefficient
            } else if (rel == TL_HAZARD_LATER && e->kind == TL_EX_VAR) {
                if (ca != cb || d.later) return d;
                d.later = true;
                d.step = cb;
            } else {
                return d;
            }
        }
    }
    d.known = true;
    return d;
}

// Whether [0, len_a) and [diff, diff + len_b) are apart by at least the margins:
// after: the second starts >= len_a + margin_after; before: it ends
// <= -margin_before. len < 0 is unbounded.
static bool apart(const diff_t *d, int64_t len_a, int64_t len_b, int64_t margin_after,
                  int64_t margin_before)
{
    if (!d->known) return false;
    int64_t lo = d->c0 + (d->later ? d->step : 0); // the extreme value for d = 1
    // b entirely after a for every d
    if (len_a >= 0 && (!d->later || d->step >= 0) && lo >= len_a + margin_after) return true;
    // b entirely before a for every d
    if (len_b >= 0 && (!d->later || d->step <= 0) && lo + len_b <= -margin_before) return true;
    return false;
}

// --- buffer geometry -----------------------------------------------------------------------------

typedef struct {
    int64_t pitch[TL_MAX_DIMS]; // bytes per step in dimension d (constant part)
    bool exact[TL_MAX_DIMS];    // pitch[d] is the whole pitch (no symbolic factor)
    int64_t dim[TL_MAX_DIMS];   // constant size of dimension d, or -1
} geom_t;

static void geometry(const tl_buffer_t *b, geom_t *g)
{
    int64_t p = tl_dtype_size(b->dtype);
    bool exact = true;
    for (int d = b->ndim - 1; d >= 0; d--) {
        g->pitch[d] = p;
        g->exact[d] = exact;
        int64_t n = b->scope == TL_SCOPE_GM ? const_or(b->gm_shape[d], -1) : b->shape[d];
        g->dim[d] = n;
        if (n < 0)
            exact = false;
        else
            p *= n;
    }
}

static bool planned(const tl_buffer_t *b)
{
    return b->scope != TL_SCOPE_GM && b->addr >= 0;
}

// Flat byte form of an access: its start and length in bytes (length -1:
// unknown). False when a pitch is not constant.
static bool flat_form(const tl_hazard_ctx_t *c, const tl_hazard_access_t *a, lin_t *f, int64_t *len)
{
    geom_t g;
    geometry(a->buf, &g);
    memset(f, 0, sizeof *f);
    f->ok = true;
    for (int d = 0; d < a->ndim; d++) {
        if (!g.exact[d]) return false;
        lin_add(c, f, a->start[d], g.pitch[d], 0);
    }
    if (planned(a->buf)) f->c += a->buf->addr;
    int size = tl_dtype_size(a->buf->dtype);
    if (a->flat) {
        *len = a->len < 0 ? -1 : a->len * size;
        return f->ok;
    }
    int64_t span = 0;
    for (int d = 0; d < a->ndim; d++) {
        if (a->ext[d] < 0) {
            *len = -1;
            return f->ok;
        }
        if (a->ext[d] == 0) {
            *len = 0;
            return f->ok;
        }
        span += (a->ext[d] - 1) * g.pitch[d];
    }
    *len = span + size;
    return f->ok;
}

static bool flat_disjoint(const relctx_t *r, const tl_hazard_access_t *a,
                          const tl_hazard_access_t *b)
{
    lin_t fa, fb;
    int64_t la, lb;
    if (!flat_form(r->c, a, &fa, &la) || !flat_form(r->c, b, &fb, &lb)) return false;
    if (la == 0 || lb == 0) return true;
    diff_t d = lin_diff(r, &fa, &fb);
    return apart(&d, la, lb, d.aligned_b ? 0 : GRANULE - 1, d.aligned_a ? 0 : GRANULE - 1);
}

// Per-dimension test for two boxes of the same buffer.
static bool box_disjoint(const relctx_t *r, const tl_hazard_access_t *a,
                         const tl_hazard_access_t *b)
{
    if (a->flat || b->flat || a->ndim != b->ndim) return false;
    geom_t g;
    geometry(a->buf, &g);
    int n = a->ndim, size = tl_dtype_size(a->buf->dtype);
    // Row starts are granule-aligned when the pitch of the dimension above the
    // last is a multiple of the granule (tensors and scratchpads start aligned).
    bool rows_aligned = n == 1 || g.pitch[n - 2] % GRANULE == 0;
    if (planned(a->buf) && a->buf->addr % GRANULE) rows_aligned = false;
    for (int dd = 0; dd < n; dd++) {
        lin_t fa = {.ok = true}, fb = {.ok = true};
        lin_add(r->c, &fa, a->start[dd], 1, 0);
        lin_add(r->c, &fb, b->start[dd], 1, 0);
        diff_t d = lin_diff(r, &fa, &fb);
        if (!d.known) continue;
        int64_t ma, mb; // margins in elements of this dimension
        if (dd == n - 1) {
            // bytes: the later start must be aligned, else keep 31 bytes apart
            bool al_a = rows_aligned && (fa.c * size) % GRANULE == 0;
            bool al_b = rows_aligned && (fb.c * size) % GRANULE == 0;
            for (int i = 0; i < fa.n; i++) al_a = al_a && (fa.coef[i] * size) % GRANULE == 0;
            for (int i = 0; i < fb.n; i++) al_b = al_b && (fb.coef[i] * size) % GRANULE == 0;
            mb = al_b ? 0 : (GRANULE - 1 + size - 1) / size;
            ma = al_a ? 0 : (GRANULE - 1 + size - 1) / size;
        } else if (g.pitch[dd] % GRANULE == 0 && rows_aligned) {
            ma = mb = 0;
        } else {
            int64_t p = g.exact[dd] ? g.pitch[dd] : 1;
            ma = mb = (GRANULE - 1 + p - 1) / p;
        }
        if (apart(&d, a->ext[dd], b->ext[dd], mb, ma)) return true;
    }
    return false;
}

bool tl_hazard_overlap(const tl_hazard_ctx_t *c, const tl_hazard_access_t *a,
                       const tl_hazard_access_t *b, tl_hazard_rel_fn rel, void *arg)
{
    const tl_buffer_t *ba = a->buf, *bb = b->buf;
    if (ba->scope == TL_SCOPE_VAR || bb->scope == TL_SCOPE_VAR) return false;
    relctx_t r = {c, rel, arg};
    if (ba != bb) {
        // Different buffers share memory only through planned addresses.
        if (ba->scope != bb->scope || !planned(ba) || !planned(bb)) return false;
        int64_t ea = ba->addr + tl_buffer_bytes(ba), eb = bb->addr + tl_buffer_bytes(bb);
        int64_t ga = (ea + GRANULE - 1) / GRANULE * GRANULE,
                gb = (eb + GRANULE - 1) / GRANULE * GRANULE;
        if (ba->addr / GRANULE * GRANULE >= gb || bb->addr / GRANULE * GRANULE >= ga) return false;
        return !flat_disjoint(&r, a, b);
    }
    if (box_disjoint(&r, a, b)) return false;
    return !flat_disjoint(&r, a, b);
}
