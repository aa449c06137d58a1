// vid_split: T.Kernel(threads=2) — the vector program of one logical vector
// lane, distributed over the two vector cores (called by cv_split).
//
// requires: cv_split's vector program (a T.Scope("V") statement)
// ensures:  either k->threads == 0 and the program runs on both vector cores,
//           each on its half of the rows, with results equal to the one-lane
//           program; or k->threads == 1 and it runs on vector core 0 alone,
//           with a note saying why.
//
// Each UB buffer is either split (vector core v holds rows [v*h, (v+1)*h) of
// its leading dimension, h = half of it) or replicated (both cores hold and
// compute all of it). Splitting is kept only where it is provably equivalent:
// - tile ops work on whole buffers (vector ops on flat spans: the first half
//   of every operand's span is the first half of its rows), their operands all
//   split or all replicated, element counts equal to the whole buffer (halved);
//   reductions along the last dimension; UB<->UB copies of whole buffers;
//   compare/select with a bit mask of exactly one bit per element;
// - a GM copy moves a whole split buffer whose leading dimension lines up with
//   one GM dimension, which then starts vid*h further;
// - a row loop `for r in range(D)` whose body indexes split buffers of D rows
//   by exactly r, and writes only those rows and GM at places that depend on r,
//   runs over h rows; everywhere else r becomes r + vid*h.
// Anything else (a row slice, a reduction over rows, an index read from UB,
// broadcasts and gathers, ...) makes the buffers involved replicated. GM writes
// of replicated data happen on vector core 0 only. When nothing can be split
// the vector program runs on core 0 (threads=1).
#include "ir/walk.h"
#include "pass/pass.h"
#include "pass/subst.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    tl_stmt_t *loop;
    bool can;                // its body's writes allow running it on half the rows
    const tl_buffer_t *rows; // a buffer it indexes by its variable (all such share a class)
    bool split;
} rowloop_t;

typedef struct {
    tl_kernel_t *k;
    tl_pass_ctx_t *ctx;
    int nb;
    int *parent; // union-find over buffer ids: classes split or replicated together
    bool *repl;  // forced replicated (by class root after solve)
    bool *used;  // UB buffer used by the vector program
    rowloop_t *rl;
    int nrl, caprl;
    tl_stmt_t *stack[32]; // enclosing loops while walking
    int depth;
    const char *why; // the first reason a buffer could not be split
    tl_loc_t why_loc;
    const tl_buffer_t *why_buf;
    bool changed;
} vs_t;

static int find(vs_t *v, int b)
{
    while (v->parent[b] != b) b = v->parent[b] = v->parent[v->parent[b]];
    return b;
}

static void join(vs_t *v, const tl_buffer_t *a, const tl_buffer_t *b)
{
    int x = find(v, a->id), y = find(v, b->id);
    if (x != y) v->parent[x] = y;
}

static bool splittable_shape(const tl_buffer_t *b)
{
    return b->scope == TL_SCOPE_UB && b->ndim >= 1 && b->shape[0] >= 2 && b->shape[0] % 2 == 0;
}

static void force(vs_t *v, const tl_buffer_t *b, const char *why, tl_loc_t loc)
{
    if (b->scope != TL_SCOPE_UB) return;
    if (!v->repl[b->id]) v->changed = true;
    v->repl[b->id] = true;
    if (!v->why) {
        v->why = why;
        v->why_loc = loc;
        v->why_buf = b;
    }
}

static rowloop_t *rowloop_of(vs_t *v, const tl_var_t *var)
{
    for (int i = 0; i < v->nrl; i++)
        if (v->rl[i].loop->for_.var == var) return &v->rl[i];
    return NULL;
}

static bool is_var(const tl_expr_t *e, const tl_var_t *var)
{
    return e && e->kind == TL_EX_VAR && e->var == var;
}

static bool full_dim0(const tl_region_t *r)
{
    int64_t s, e;
    return tl_ir_is_const_int(r->start[0], &s) && s == 0 && tl_ir_is_const_int(r->extent[0], &e) &&
           e == r->buf->shape[0];
}

// The row loop whose variable indexes dim 0 of buffer b at `idx` (one row), or NULL.
static rowloop_t *row_use(vs_t *v, const tl_buffer_t *b, const tl_expr_t *idx)
{
    if (!idx || idx->kind != TL_EX_VAR) return NULL;
    rowloop_t *r = rowloop_of(v, idx->var);
    int64_t end;
    if (!r || !tl_ir_is_const_int(r->loop->for_.end, &end) || end != b->shape[0]) return NULL;
    return r;
}

// An access of UB buffer b at dim-0 start `start` of `extent` rows (NULL: one row).
static void access(vs_t *v, const tl_buffer_t *b, const tl_expr_t *start, const tl_expr_t *extent,
                   bool whole, tl_loc_t loc)
{
    if (b->scope != TL_SCOPE_UB) return;
    v->used[b->id] = true;
    if (!splittable_shape(b)) {
        force(v, b, "its leading dimension is odd", loc);
        return;
    }
    if (whole) return;
    int64_t e = 1;
    if (extent && !tl_ir_is_const_int(extent, &e)) e = -1;
    rowloop_t *r = e == 1 ? row_use(v, b, start) : NULL;
    if (!r) {
        force(v, b, "it is accessed by a row slice or element", loc);
        return;
    }
    // Every buffer a row loop indexes by its variable splits with the loop.
    if (r->rows)
        join(v, r->rows, b);
    else
        r->rows = b;
    if (!r->can) force(v, b, "a loop over its rows writes other memory", loc);
}

static void region_access(vs_t *v, const tl_region_t *r, tl_loc_t loc)
{
    if (r->buf->scope != TL_SCOPE_UB) return;
    access(v, r->buf, r->start[0], r->extent[0], r->form == TL_REGION_WHOLE || full_dim0(r), loc);
}

typedef struct {
    vs_t *v;
    tl_loc_t loc;
} load_t;

static bool load_access(void *arg, const tl_expr_t *e)
{
    load_t *l = arg;
    if (e->kind == TL_EX_LOAD && e->load.buf->scope == TL_SCOPE_UB && e->load.n >= 1)
        access(l->v, e->load.buf, e->load.idx[0], NULL, false, l->loc);
    return true;
}

static void loads(vs_t *v, const tl_expr_t *e, tl_loc_t loc)
{
    load_t l = {v, loc};
    tl_walk_expr(e, load_access, &l);
}

// The GM dimension a UB buffer's leading dimension lines up with in a copy,
// or -1: the non-unit extents of both sides must agree in order.
static int gm_dim(const tl_region_t *gm, const tl_region_t *ub)
{
    int g[TL_MAX_DIMS], u[TL_MAX_DIMS], ng = 0, nu = 0;
    int64_t eg[TL_MAX_DIMS], eu[TL_MAX_DIMS], e;
    for (int d = 0; d < gm->ndim; d++) {
        if (!tl_ir_is_const_int(gm->extent[d], &e)) return -1;
        if (e != 1) g[ng] = d, eg[ng++] = e;
    }
    for (int d = 0; d < ub->ndim; d++) {
        if (!tl_ir_is_const_int(ub->extent[d], &e)) return -1;
        if (e != 1) u[nu] = d, eu[nu++] = e;
    }
    if (ng != nu || !nu || u[0] != 0) return -1;
    for (int i = 0; i < ng; i++)
        if (eg[i] != eu[i]) return -1;
    return g[0];
}

static bool whole_region(const tl_region_t *r)
{
    if (r->form == TL_REGION_WHOLE) return true;
    for (int d = 0; d < r->ndim; d++) {
        int64_t st, e;
        if (!tl_ir_is_const_int(r->start[d], &st) || st != 0 ||
            !tl_ir_is_const_int(r->extent[d], &e) || e != r->buf->shape[d])
            return false;
    }
    return true;
}

// compare (mask, a, b) and select (dst, mask, a, b): bit i of the mask belongs
// to element i of the data operands. When every operand is a whole UB buffer,
// the data operands have n elements each and the mask is a 1-D buffer of
// exactly n/8 bytes with n/2 a multiple of 8, the first half of the mask's
// bytes holds the bits of the first half of the rows: all of them split
// together (the mask's leading dimension halves with them).
static bool mask_op_splits(vs_t *v, const tl_op_t *op)
{
    int mask_arg = op->code == TL_OP_COMPARE ? 0 : 1;
    const tl_buffer_t *mask = NULL, *first = NULL;
    int64_t n = -1;
    for (int i = 0; i < op->nargs; i++) {
        const tl_arg_t *a = &op->args[i];
        if (a->kind != TL_ARG_REGION) continue;
        const tl_region_t *r = &a->region;
        if (r->buf->scope != TL_SCOPE_UB || !whole_region(r)) return false;
        if (i == mask_arg) {
            mask = r->buf;
            continue;
        }
        int64_t m = tl_buffer_numel(r->buf);
        if (n >= 0 && m != n) return false;
        n = m;
        if (!first) first = r->buf;
    }
    if (!mask || !first || n % 16 || mask->ndim != 1 ||
        mask->shape[0] * tl_dtype_size(mask->dtype) != n / 8)
        return false;
    for (int i = 0; i < op->nargs; i++)
        if (op->args[i].kind == TL_ARG_REGION) join(v, first, op->args[i].region.buf);
    return true;
}

static void constrain_op(vs_t *v, const tl_stmt_t *s)
{
    const tl_op_t *op = &s->op;
    const tl_opinfo_t *info = tl_op_info(op->code);
    for (int i = 0; i < op->nargs; i++) {
        const tl_arg_t *a = &op->args[i];
        if (a->kind == TL_ARG_SCALAR) {
            loads(v, a->scalar, s->loc);
            continue;
        }
        region_access(v, &a->region, s->loc);
        for (int d = 0; d < a->region.ndim; d++) loads(v, a->region.start[d], s->loc);
    }
    const tl_buffer_t *first = NULL;
    switch (info->cls) {
    case TL_OPC_COPY: {
        if (op->nargs < 2) return;
        const tl_region_t *src = &op->args[0].region, *dst = &op->args[1].region;
        if (op->code == TL_OP_COPY_PA || op->code == TL_OP_IM2COL) return; // cube loads
        if (op->code == TL_OP_ATOMIC_ADD) {
            force(v, dst->buf, "atomic_add", s->loc);
            force(v, src->buf, "atomic_add", s->loc);
            return;
        }
        if (src->buf->scope == TL_SCOPE_UB && dst->buf->scope == TL_SCOPE_UB) {
            join(v, src->buf, dst->buf);
            return;
        }
        const tl_region_t *ub = src->buf->scope == TL_SCOPE_UB ? src : dst;
        const tl_region_t *gm = ub == src ? dst : src;
        // a whole split tile moves to or from GM rows that line up with its rows
        if (ub->buf->scope == TL_SCOPE_UB && gm->buf->scope == TL_SCOPE_GM &&
            (ub->form == TL_REGION_WHOLE || full_dim0(ub)) && gm_dim(gm, ub) < 0)
            force(v, ub->buf, "its rows do not line up with a GM dimension", s->loc);
        return;
    }
    case TL_OPC_REDUCE:
        join(v, op->args[0].region.buf, op->args[1].region.buf);
        if (op->dim != -1 && op->dim != op->args[0].region.buf->ndim - 1)
            force(v, op->args[0].region.buf, "a reduction runs over its rows", s->loc);
        if (op->real_shape[0] && op->real_shape[0] != op->args[0].region.buf->shape[0])
            force(v, op->args[0].region.buf, "a reduction's real_shape limits its rows", s->loc);
        return;
    case TL_OPC_VEC:
        switch (op->code) {
        case TL_OP_COMPARE:
        case TL_OP_SELECT:
            if (mask_op_splits(v, op)) return;
            for (int i = 0; i < op->nargs; i++)
                if (op->args[i].kind == TL_ARG_REGION)
                    force(v, op->args[i].region.buf, "an operand of this op", s->loc);
            return;
        case TL_OP_BROADCAST:
        case TL_OP_GATHER:
        case TL_OP_TRANSPOSE:
        case TL_OP_CREATEVECINDEX:
        case TL_OP_ARITH_PROGRESSION:
            for (int i = 0; i < op->nargs; i++)
                if (op->args[i].kind == TL_ARG_REGION)
                    force(v, op->args[i].region.buf, "an operand of this op", s->loc);
            return;
        default: break;
        }
        for (int i = 0; i < op->nargs; i++) {
            if (op->args[i].kind != TL_ARG_REGION) continue;
            const tl_buffer_t *b = op->args[i].region.buf;
            if (first)
                join(v, first, b);
            else
                first = b;
        }
        // a trailing element count must be the whole buffer (it is halved)
        if (first && strstr(info->signature, "[s]") && op->nargs == info->max_args) {
            int64_t n;
            const tl_expr_t *c = op->args[op->nargs - 1].scalar;
            if (!tl_ir_is_const_int(c, &n) || n != tl_buffer_numel(first))
                force(v, first, "an element count that is not the whole buffer", s->loc);
        }
        return;
    default: return;
    }
}

// Whether every write in body goes to rows `var` of UB buffers (indexed by
// exactly var) or to GM at places that depend on var.
static bool rows_only(const tl_stmt_t *s, const tl_var_t *var)
{
    if (!s) return true;
    switch (s->kind) {
    case TL_ST_SEQ:
        for (int i = 0; i < s->seq.n; i++)
            if (!rows_only(s->seq.items[i], var)) return false;
        return true;
    case TL_ST_FOR: return rows_only(s->for_.body, var);
    case TL_ST_WHILE: return rows_only(s->while_.body, var);
    case TL_ST_IF: return rows_only(s->if_.then_, var) && rows_only(s->if_.else_, var);
    case TL_ST_SCOPE: return rows_only(s->scope.body, var);
    case TL_ST_LET:
    case TL_ST_PRINT:
    case TL_ST_SYNC: return true;
    case TL_ST_STORE: {
        const tl_buffer_t *b = s->store.buf;
        if (b->scope == TL_SCOPE_UB) return s->store.n >= 1 && is_var(s->store.idx[0], var);
        if (b->scope == TL_SCOPE_GM)
            for (int i = 0; i < s->store.n; i++)
                if (tl_walk_mentions(s->store.idx[i], var)) return true;
        return false;
    }
    case TL_ST_OP: {
        for (int i = 0; i < s->op.nargs; i++) {
            char r = tl_op_role(s->op.code, i);
            if (r != 'w' && r != 'x') continue;
            const tl_region_t *rg = &s->op.args[i].region;
            int64_t e;
            if (rg->buf->scope == TL_SCOPE_UB) {
                if (!is_var(rg->start[0], var) || !tl_ir_is_const_int(rg->extent[0], &e) || e != 1)
                    return false;
            } else if (rg->buf->scope == TL_SCOPE_GM) {
                bool dep = false;
                for (int d = 0; d < rg->ndim; d++) dep |= tl_walk_mentions(rg->start[d], var);
                if (!dep) return false;
            } else {
                return false;
            }
        }
        return true;
    }
    default: return false;
    }
}

// GM tensors a statement tree writes (bit per buffer id) and reads.
typedef struct {
    bool *w, *r;
} gm_use_t;

static bool gm_load(void *arg, const tl_expr_t *e)
{
    gm_use_t *g = arg;
    if (e->kind == TL_EX_LOAD && e->load.buf->scope == TL_SCOPE_GM) g->r[e->load.buf->id] = true;
    return true;
}

static void gm_uses(gm_use_t *g, const tl_stmt_t *s)
{
    if (!s) return;
    switch (s->kind) {
    case TL_ST_SEQ:
        for (int i = 0; i < s->seq.n; i++) gm_uses(g, s->seq.items[i]);
        return;
    case TL_ST_FOR:
        tl_walk_expr(s->for_.end, gm_load, g);
        gm_uses(g, s->for_.body);
        return;
    case TL_ST_WHILE:
        tl_walk_expr(s->while_.cond, gm_load, g);
        gm_uses(g, s->while_.body);
        return;
    case TL_ST_IF:
        tl_walk_expr(s->if_.cond, gm_load, g);
        gm_uses(g, s->if_.then_);
        gm_uses(g, s->if_.else_);
        return;
    case TL_ST_LET: tl_walk_expr(s->let.value, gm_load, g); return;
    case TL_ST_STORE:
        tl_walk_expr(s->store.value, gm_load, g);
        for (int i = 0; i < s->store.n; i++) tl_walk_expr(s->store.idx[i], gm_load, g);
        if (s->store.buf->scope == TL_SCOPE_GM) g->w[s->store.buf->id] = true;
        return;
    case TL_ST_OP:
        for (int i = 0; i < s->op.nargs; i++) {
            const tl_arg_t *a = &s->op.args[i];
            if (a->kind == TL_ARG_SCALAR) {
                tl_walk_expr(a->scalar, gm_load, g);
                continue;
            }
            for (int d = 0; d < a->region.ndim; d++) tl_walk_expr(a->region.start[d], gm_load, g);
            if (a->region.buf->scope != TL_SCOPE_GM) continue;
            char r = tl_op_role(s->op.code, i);
            if (r == 'w' || r == 'x') g->w[a->region.buf->id] = true;
            if (r != 'w') g->r[a->region.buf->id] = true;
        }
        return;
    default: return;
    }
}

// Row loops whose iterations cannot see each other: writes only to their rows
// and to GM tensors the loop does not read.
static bool independent_rows(const vs_t *v, const tl_stmt_t *loop)
{
    if (!rows_only(loop->for_.body, loop->for_.var)) return false;
    gm_use_t g = {calloc((size_t)v->nb + 1, 1), calloc((size_t)v->nb + 1, 1)};
    bool ok = g.w && g.r;
    if (ok) gm_uses(&g, loop->for_.body);
    for (int i = 0; ok && i < v->nb; i++) ok = !(g.w[i] && g.r[i]);
    free(g.w);
    free(g.r);
    return ok;
}

static void constrain(vs_t *v, tl_stmt_t *s)
{
    if (!s) return;
    switch (s->kind) {
    case TL_ST_SEQ:
        for (int i = 0; i < s->seq.n; i++) constrain(v, s->seq.items[i]);
        return;
    case TL_ST_FOR:
        loads(v, s->for_.start, s->loc);
        loads(v, s->for_.end, s->loc);
        constrain(v, s->for_.body);
        return;
    case TL_ST_WHILE:
        loads(v, s->while_.cond, s->loc);
        constrain(v, s->while_.body);
        return;
    case TL_ST_IF:
        loads(v, s->if_.cond, s->loc);
        constrain(v, s->if_.then_);
        constrain(v, s->if_.else_);
        return;
    case TL_ST_SCOPE: constrain(v, s->scope.body); return;
    case TL_ST_LET: loads(v, s->let.value, s->loc); return;
    case TL_ST_STORE:
        for (int i = 0; i < s->store.n; i++) loads(v, s->store.idx[i], s->loc);
        loads(v, s->store.value, s->loc);
        if (s->store.buf->scope == TL_SCOPE_UB && s->store.n >= 1)
            access(v, s->store.buf, s->store.idx[0], NULL, false, s->loc);
        return;
    case TL_ST_OP: constrain_op(v, s); return;
    case TL_ST_PRINT:
        for (int i = 0; i < s->print.n; i++) loads(v, s->print.args[i], s->loc);
        if (s->print.region) force(v, s->print.region->buf, "it is printed", s->loc);
        return;
    default: return;
    }
}

static void find_rowloops(vs_t *v, tl_stmt_t *s)
{
    if (!s) return;
    switch (s->kind) {
    case TL_ST_SEQ:
        for (int i = 0; i < s->seq.n; i++) find_rowloops(v, s->seq.items[i]);
        return;
    case TL_ST_FOR: {
        int64_t a, b;
        if (tl_ir_is_const_int(s->for_.start, &a) && a == 0 &&
            tl_ir_is_const_int(s->for_.end, &b) && b >= 2 && b % 2 == 0) {
            if (v->nrl == v->caprl) {
                v->caprl = v->caprl ? v->caprl * 2 : 8;
                v->rl = realloc(v->rl, sizeof *v->rl * (size_t)v->caprl);
            }
            v->rl[v->nrl++] = (rowloop_t){s, independent_rows(v, s), NULL, false};
        }
        find_rowloops(v, s->for_.body);
        return;
    }
    case TL_ST_WHILE: find_rowloops(v, s->while_.body); return;
    case TL_ST_IF:
        find_rowloops(v, s->if_.then_);
        find_rowloops(v, s->if_.else_);
        return;
    case TL_ST_SCOPE: find_rowloops(v, s->scope.body); return;
    default: return;
    }
}

// --- rewriting
// ------------------------------------------------------------------------------------

typedef struct {
    vs_t *v;
    tl_subst_t sub; // row variables of split loops -> r + vid * h
} rw_t;

static bool split_buf(const vs_t *v, const tl_buffer_t *b)
{
    return b->scope == TL_SCOPE_UB && v->used[b->id] && !v->repl[b->id];
}

static tl_expr_t *half_of(tl_kernel_t *k, int64_t n, tl_loc_t loc)
{
    return tl_ir_int(k, n / 2, TL_I32, loc);
}

static tl_expr_t *vid_rows(tl_kernel_t *k, int64_t h, tl_loc_t loc)
{
    return tl_ir_bin(k, TL_BIN_MUL, tl_ir_varref(k, k->vid, loc), tl_ir_int(k, h, TL_I32, loc),
                     loc);
}

// Substitutes r -> r + vid*h in e, except in the leading index of split buffers.
static tl_expr_t *global(rw_t *w, tl_expr_t *e);

static tl_expr_t *global_load(rw_t *w, tl_expr_t *e)
{
    tl_kernel_t *k = w->v->k;
    if (e->kind != TL_EX_LOAD) return tl_subst_expr(k, &w->sub, e);
    tl_expr_t *idx[TL_MAX_DIMS];
    for (int i = 0; i < e->load.n; i++)
        idx[i] =
            i == 0 && split_buf(w->v, e->load.buf) ? e->load.idx[0] : global(w, e->load.idx[i]);
    return tl_ir_load(k, e->load.buf, e->load.n, idx, e->loc);
}

static tl_expr_t *global(rw_t *w, tl_expr_t *e)
{
    if (!e) return NULL;
    tl_kernel_t *k = w->v->k;
    switch (e->kind) {
    case TL_EX_LOAD: return global_load(w, e);
    case TL_EX_BIN: {
        tl_expr_t *a = global(w, e->op.a), *b = global(w, e->op.b);
        if (a == e->op.a && b == e->op.b) return e;
        tl_expr_t *c = tl_arena_dup(k->arena, e, sizeof *e);
        c->op.a = a;
        c->op.b = b;
        tl_ir_fix_height(c);
        return c;
    }
    case TL_EX_UN:
    case TL_EX_CAST:
    case TL_EX_REINTERPRET:
    case TL_EX_SELECT: {
        // loads inside need the split-aware rule; the rest is plain substitution
        tl_expr_t *c = tl_arena_dup(k->arena, e, sizeof *e);
        if (e->kind == TL_EX_UN)
            c->op.a = global(w, e->op.a);
        else if (e->kind == TL_EX_SELECT) {
            c->sel.cond = global(w, e->sel.cond);
            c->sel.a = global(w, e->sel.a);
            c->sel.b = global(w, e->sel.b);
        } else
            c->arg = global(w, e->arg);
        tl_ir_fix_height(c);
        return c;
    }
    default: return tl_subst_expr(k, &w->sub, e);
    }
}

static void halve_region(rw_t *w, tl_region_t *r)
{
    tl_kernel_t *k = w->v->k;
    int64_t e;
    if (tl_ir_is_const_int(r->extent[0], &e) && e == r->buf->shape[0])
        r->extent[0] = half_of(k, e, r->loc);
}

static void rewrite_region(rw_t *w, tl_region_t *r)
{
    int d0 = split_buf(w->v, r->buf) ? 1 : 0;
    for (int d = d0; d < r->ndim; d++) {
        r->start[d] = global(w, r->start[d]);
        r->extent[d] = global(w, r->extent[d]);
    }
    if (d0) halve_region(w, r);
}

static tl_stmt_t *guard(tl_kernel_t *k, tl_stmt_t *s)
{
    tl_stmt_t *g = tl_ir_stmt(k, TL_ST_IF, s->loc);
    g->inserted = true;
    g->if_.cond = tl_ir_bin(k, TL_BIN_EQ, tl_ir_varref(k, k->vid, s->loc),
                            tl_ir_int(k, 0, TL_I32, s->loc), s->loc);
    g->if_.then_ = tl_ir_seq(k, s->loc);
    tl_ir_seq_push(k, g->if_.then_, s);
    return g;
}

// Whether a GM write of s is made by both cores with the same data.
static bool replicated_gm_write(const vs_t *v, const tl_stmt_t *s, int in_split_loop)
{
    if (in_split_loop) return false;
    if (s->kind == TL_ST_STORE) return s->store.buf->scope == TL_SCOPE_GM;
    if (s->kind == TL_ST_PRINT) return true;
    if (s->kind != TL_ST_OP || tl_op_info(s->op.code)->cls != TL_OPC_COPY || s->op.nargs < 2 ||
        s->op.code == TL_OP_COPY_PA || s->op.code == TL_OP_IM2COL)
        return false;
    const tl_region_t *src = &s->op.args[s->op.code == TL_OP_ATOMIC_ADD ? 1 : 0].region;
    const tl_region_t *dst = &s->op.args[s->op.code == TL_OP_ATOMIC_ADD ? 0 : 1].region;
    return dst->buf->scope == TL_SCOPE_GM && !split_buf(v, src->buf);
}

static tl_stmt_t *rewrite(rw_t *w, tl_stmt_t *s, int in_split_loop)
{
    vs_t *v = w->v;
    tl_kernel_t *k = v->k;
    if (!s) return NULL;
    switch (s->kind) {
    case TL_ST_SEQ:
        for (int i = 0; i < s->seq.n; i++)
            s->seq.items[i] = rewrite(w, s->seq.items[i], in_split_loop);
        return s;
    case TL_ST_FOR: {
        s->for_.start = global(w, s->for_.start);
        s->for_.end = global(w, s->for_.end);
        rowloop_t *r = rowloop_of(v, s->for_.var);
        if (r && r->split) {
            int64_t n;
            tl_ir_is_const_int(s->for_.end, &n);
            s->for_.end = half_of(k, n, s->loc);
            tl_expr_t *ref = tl_ir_varref(k, s->for_.var, s->loc);
            tl_subst_var(&w->sub, s->for_.var,
                         tl_ir_bin(k, TL_BIN_ADD, ref, vid_rows(k, n / 2, s->loc), s->loc));
            s->for_.body = rewrite(w, s->for_.body, in_split_loop + 1);
            tl_subst_var(&w->sub, s->for_.var, ref); // leaving the loop
            return s;
        }
        s->for_.body = rewrite(w, s->for_.body, in_split_loop);
        return s;
    }
    case TL_ST_WHILE:
        s->while_.cond = global(w, s->while_.cond);
        s->while_.body = rewrite(w, s->while_.body, in_split_loop);
        return s;
    case TL_ST_IF:
        s->if_.cond = global(w, s->if_.cond);
        s->if_.then_ = rewrite(w, s->if_.then_, in_split_loop);
        s->if_.else_ = rewrite(w, s->if_.else_, in_split_loop);
        return s;
    case TL_ST_SCOPE: s->scope.body = rewrite(w, s->scope.body, in_split_loop); return s;
    case TL_ST_LET: s->let.value = global(w, s->let.value); return s;
    case TL_ST_STORE:
        for (int i = 0; i < s->store.n; i++)
            if (!(i == 0 && split_buf(v, s->store.buf)))
                s->store.idx[i] = global(w, s->store.idx[i]);
        s->store.value = global(w, s->store.value);
        return replicated_gm_write(v, s, in_split_loop) ? guard(k, s) : s;
    case TL_ST_PRINT:
        for (int i = 0; i < s->print.n; i++) s->print.args[i] = global(w, s->print.args[i]);
        return replicated_gm_write(v, s, in_split_loop) ? guard(k, s) : s;
    case TL_ST_OP: {
        tl_op_t *op = &s->op;
        const tl_opinfo_t *info = tl_op_info(op->code);
        bool any_split = false;
        for (int i = 0; i < op->nargs; i++)
            any_split |= op->args[i].kind == TL_ARG_REGION && split_buf(v, op->args[i].region.buf);
        // A whole split tile to or from GM: the GM rows start vid*h further.
        if (info->cls == TL_OPC_COPY && op->code == TL_OP_COPY && op->nargs >= 2) {
            tl_region_t *src = &op->args[0].region, *dst = &op->args[1].region;
            tl_region_t *ub = split_buf(v, src->buf) ? src : split_buf(v, dst->buf) ? dst : NULL;
            tl_region_t *gm = ub == src ? dst : src;
            int g = ub && gm->buf->scope == TL_SCOPE_GM &&
                            (ub->form == TL_REGION_WHOLE || full_dim0(ub))
                        ? gm_dim(gm, ub)
                        : -1;
            if (g >= 0) {
                int64_t h = ub->buf->shape[0] / 2;
                gm->start[g] = tl_ir_bin(k, TL_BIN_ADD, global(w, gm->start[g]),
                                         vid_rows(k, h, s->loc), s->loc);
                gm->extent[g] = tl_ir_int(k, h, TL_I32, s->loc);
            }
        }
        for (int i = 0; i < op->nargs; i++) {
            tl_arg_t *a = &op->args[i];
            if (a->kind == TL_ARG_SCALAR)
                a->scalar = global(w, a->scalar);
            else
                rewrite_region(w, &a->region);
        }
        if (any_split && strstr(info->signature, "[s]") && op->nargs == info->max_args &&
            op->args[op->nargs - 1].kind == TL_ARG_SCALAR) {
            int64_t n;
            if (tl_ir_is_const_int(op->args[op->nargs - 1].scalar, &n))
                op->args[op->nargs - 1].scalar = half_of(k, n, s->loc);
        }
        if (info->cls == TL_OPC_REDUCE && any_split && op->real_shape[0]) op->real_shape[0] /= 2;
        return replicated_gm_write(v, s, in_split_loop) ? guard(k, s) : s;
    }
    default: return s;
    }
}

tl_status_t tl_vid_split_run(tl_kernel_t *k, tl_stmt_t *vscope, tl_pass_ctx_t *ctx)
{
    vs_t v = {.k = k, .ctx = ctx, .nb = k->buffers.len};
    v.parent = malloc(sizeof *v.parent * (size_t)(v.nb + 1));
    v.repl = calloc((size_t)v.nb + 1, sizeof *v.repl);
    v.used = calloc((size_t)v.nb + 1, sizeof *v.used);
    if (!v.parent || !v.repl || !v.used) {
        free(v.parent);
        free(v.repl);
        free(v.used);
        return tl_diag_fail(ctx->diag, TL_ERR_NOMEM, "out of memory");
    }
    for (int i = 0; i < v.nb; i++) v.parent[i] = i;
    find_rowloops(&v, vscope);
    constrain(&v, vscope);
    for (int i = 0; i < v.nb; i++) { // a view and its source are the same bytes (pass/views.c)
        const tl_buffer_t *b = k->buffers.items[i];
        if (!b->view_of) continue;
        force(&v, b, "T.reinterpretcast makes it a view of another buffer", b->loc);
        force(&v, b->view_of, "T.reinterpretcast views it", b->loc);
    }
    // Replication spreads through classes until nothing changes.
    for (v.changed = true; v.changed;) {
        v.changed = false;
        for (int i = 0; i < v.nb; i++)
            if (v.repl[i] && !v.repl[find(&v, i)]) v.repl[find(&v, i)] = v.changed = true;
        for (int i = 0; i < v.nb; i++)
            if (v.repl[find(&v, i)] && !v.repl[i]) v.repl[i] = v.changed = true;
    }
    int nsplit = 0;
    for (int i = 0; i < v.nb; i++) nsplit += split_buf(&v, k->buffers.items[i]);
    // A row loop splits when it indexes a split buffer by its variable.
    for (int i = 0; i < v.nrl; i++)
        v.rl[i].split = v.rl[i].can && v.rl[i].rows && split_buf(&v, v.rl[i].rows);
    if (!nsplit) {
        k->threads = 1;
        if (v.why)
            tl_diag_note(ctx->diag, v.why_loc,
                         "T.Kernel(threads=2): the vector program runs on vector core 0 only: "
                         "'%s' cannot be split between the vector cores (%s)",
                         v.why_buf->name, v.why);
        else
            tl_diag_note(ctx->diag, k->loc,
                         "T.Kernel(threads=2): the vector program runs on vector core 0 only "
                         "(no UB tile to split between the vector cores)");
    } else {
        rw_t w = {&v, {0}};
        tl_subst_init(&w.sub);
        rewrite(&w, vscope, 0);
        tl_subst_free(&w.sub);
        for (int i = 0; i < v.nb; i++) {
            tl_buffer_t *b = k->buffers.items[i];
            if (split_buf(&v, b)) b->shape[0] /= 2;
        }
        k->threads = 0;
    }
    free(v.parent);
    free(v.repl);
    free(v.used);
    free(v.rl);
    return TL_OK;
}
