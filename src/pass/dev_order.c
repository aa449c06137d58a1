// dev_order: upstream's order of a developer-mode loop body, as program order.
//
// requires: physical scopes (scope_infer); developer mode (auto CV combine)
// ensures:  every loop body in which one core reads data that the other core
//           writes later in the same iteration, and nothing writes it earlier
//           in program order, is reordered so that the write comes first and
//           the read after it; every other pair of statements that touch the
//           same memory (or a variable a let defines) keeps its order; a
//           workspace read before anything writes it, whose later writer (the
//           other core) shares no loop with the read, is an error (a dual-loop
//           kernel, below).
//
// Upstream's kernels rely on this: the cube reads a workspace (or an L1 tile
// the vector cores hand over) at the top of the loop, and the vector cores
// fill it further down; upstream's CombineCV pairs the read with the write of
// the same iteration. In program order the first iteration would read memory
// nothing wrote. Both pipelines run this pass first, so `tilec run` (the
// reference semantics) and `tilec sim` see the same program and agree.
//
// The data concerned: a GM tensor that is not an input, read by a copy of one
// core (its other operand in L1/L0C, or in UB) and written by a copy of the
// other; or the destination of a hand-off copy (L0C -> UB, UB -> L1) that is
// its only writer, read before it and not after it in the loop (workspace.c's
// rule). The loop body's statements are ordered by their dependences (buffer
// granularity, program order, with those read-write pairs reversed), taking
// the earliest statement in program order whenever several are ready. A body
// whose dependences form a cycle is left alone (cross_sync and workspace then
// apply the same rule to their flags, with a warning that `tilec run` follows
// program order there).
#include "ir/access.h"
#include "pass/pass.h"
#include "pass/rewrite.h"

#include <stdlib.h>
#include <string.h>

enum { SIDE_NONE = -1, SIDE_C = 0, SIDE_V = 1 };

typedef struct {
    tl_buffer_t *buf;
    unsigned mode;
    int side; // of the copy that made the access, or SIDE_NONE
    int pos;  // pre-order position of the statement (its origin)
    bool handoff;
    const tl_stmt_t *stmt;
} dacc_t;

typedef struct {
    tl_kernel_t *k;
    tl_pass_ctx_t *ctx;
    int *first_write; // per buffer id: pre-order position of its first write (INT_MAX: none)
    int *writers;     // per buffer id: statements writing it
    int pos;          // numbering: the last pre-order position given
    bool oom;
    tl_vec_t loops; // every loop, in pre-order
    // the accesses of the items of the body being ordered (arena memory)
    dacc_t *acc;
    int nacc, capacc;
    const tl_stmt_t *cur;
    bool barrier;
} ord_t;

static int scope_side(tl_scope_t s)
{
    tl_side_t side = tl_scope_side(s);
    return side == TL_SIDE_CUBE ? SIDE_C : side == TL_SIDE_VEC ? SIDE_V : SIDE_NONE;
}

// The core of a copy's GM operand: the side of its on-chip operand.
static int copy_side(const tl_stmt_t *s)
{
    if (s->kind != TL_ST_OP || s->op.code != TL_OP_COPY || s->op.nargs < 2) return SIDE_NONE;
    tl_scope_t a = s->op.args[0].region.buf->scope, b = s->op.args[1].region.buf->scope;
    if (a == TL_SCOPE_GM) return scope_side(b);
    if (b == TL_SCOPE_GM) return scope_side(a);
    return SIDE_NONE;
}

// --- numbering: positions, first writes, writer counts

static void count_write(void *arg, const tl_access_t *a)
{
    ord_t *o = arg;
    if (!(a->mode & TL_ACCESS_WRITE)) return;
    int id = a->buf->id;
    if (o->pos < o->first_write[id]) o->first_write[id] = o->pos;
    o->writers[id]++;
}

static void number(void *arg, tl_stmt_t *s)
{
    ord_t *o = arg;
    s->origin = ++o->pos;
    tl_access_stmt(s, count_write, o);
}

// --- the accesses of one loop-body item

static void add_acc(void *arg, const tl_access_t *a)
{
    ord_t *o = arg;
    if (o->nacc == o->capacc) {
        int cap = o->capacc ? o->capacc * 2 : 32;
        o->acc = tl_arena_grow(o->k->arena, o->acc, sizeof *o->acc, (size_t)o->capacc, (size_t)cap);
        o->capacc = cap;
    }
    const tl_stmt_t *s = o->cur;
    int side = a->buf->scope == TL_SCOPE_GM ? copy_side(s) : scope_side(a->buf->scope);
    if (s->kind == TL_ST_OP && s->op.code == TL_OP_GEMM_V0) side = SIDE_C;
    o->acc[o->nacc++] = (dacc_t){a->buf, a->mode, side, s->origin, tl_workspace_is_handoff(s), s};
}

// Every access in the tree of one item (pre-order), and whether the item
// holds a statement nothing may move across.
static void collect(void *arg, tl_stmt_t *s)
{
    ord_t *o = arg;
    if (s->kind == TL_ST_SYNC || s->kind == TL_ST_PRINT || s->kind == TL_ST_BREAK ||
        s->kind == TL_ST_CONTINUE)
        o->barrier = true;
    o->cur = s;
    tl_access_stmt(s, add_acc, o);
}

typedef struct {
    int from, to; // ranges into the item's accesses
    bool barrier, let;
} item_t;

static bool conflict(const ord_t *o, const item_t *a, const item_t *b)
{
    for (int i = a->from; i < a->to; i++)
        for (int j = b->from; j < b->to; j++)
            if (o->acc[i].buf == o->acc[j].buf &&
                ((o->acc[i].mode | o->acc[j].mode) & TL_ACCESS_WRITE))
                return true;
    return false;
}

// Whether item r reads `buf` before item w (later in the body) writes it in
// upstream's sense (see the top of the file); the reading access in *at.
static bool reversed_on(const ord_t *o, const item_t *it, int n, int r, int w,
                        const tl_buffer_t *buf, const dacc_t **at, const dacc_t **by)
{
    const dacc_t *rd = NULL, *wr = NULL;
    for (int i = it[r].from; i < it[r].to; i++) {
        if (o->acc[i].buf != buf) continue;
        if (o->acc[i].mode & TL_ACCESS_WRITE) return false;
        if (!rd) rd = &o->acc[i];
    }
    for (int i = it[w].from; i < it[w].to && !wr; i++)
        if (o->acc[i].buf == buf && (o->acc[i].mode & TL_ACCESS_WRITE)) wr = &o->acc[i];
    if (!rd || !wr || o->first_write[buf->id] <= rd->pos) return false;
    // the body's only writer of buf is w
    for (int j = 0; j < n; j++)
        if (j != w)
            for (int i = it[j].from; i < it[j].to; i++)
                if (o->acc[i].buf == buf && (o->acc[i].mode & TL_ACCESS_WRITE)) return false;
    if (buf->scope == TL_SCOPE_GM) {
        if (buf->param < 0 || o->k->params[buf->param].role == TL_ROLE_INPUT) return false;
        if (rd->side == SIDE_NONE || wr->side == SIDE_NONE || rd->side == wr->side) return false;
    } else {
        if (!wr->handoff || o->writers[buf->id] != 1) return false;
        for (int j = w + 1; j < n; j++) // no reader after the hand-off in the loop
            for (int i = it[j].from; i < it[j].to; i++)
                if (o->acc[i].buf == buf) return false;
    }
    *at = rd;
    *by = wr;
    return true;
}

static void find_loops(void *arg, tl_stmt_t *s)
{
    ord_t *o = arg;
    if (s->kind == TL_ST_FOR || s->kind == TL_ST_WHILE) tl_vec_push(o->k->arena, &o->loops, s);
}

static bool reorder_body(ord_t *o, tl_stmt_t *loop, tl_stmt_t *body)
{
    if (!body || body->kind != TL_ST_SEQ || body->seq.n < 2) return false;
    int n = body->seq.n;
    item_t *it = calloc((size_t)n, sizeof *it);
    char *edge = calloc((size_t)n * (size_t)n, 1); // edge[i*n+j]: i before j
    int *indeg = calloc((size_t)n, sizeof *indeg), *order = calloc((size_t)n, sizeof *order);
    const dacc_t **why = calloc((size_t)n * (size_t)n * 2, sizeof *why); // read, write
    bool changed = false;
    if (!it || !edge || !indeg || !order || !why) {
        o->oom = true;
        goto out;
    }
    o->nacc = 0;
    for (int i = 0; i < n; i++) {
        o->barrier = false;
        it[i].from = o->nacc;
        tl_rewrite_walk(body->seq.items[i], collect, o);
        it[i].to = o->nacc;
        it[i].barrier = o->barrier;
        it[i].let = body->seq.items[i]->kind == TL_ST_LET;
    }
    if (o->oom) goto out;
    bool any = false;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            if (it[i].barrier || it[j].barrier || it[i].let) {
                edge[i * n + j] = 1;
                continue;
            }
            if (!conflict(o, &it[i], &it[j])) continue;
            // every buffer the two share must agree on the direction
            bool rev = false, fwd = false;
            for (int a = it[i].from; a < it[i].to; a++) {
                const tl_buffer_t *b = o->acc[a].buf;
                bool shared = false;
                for (int c = it[j].from; c < it[j].to && !shared; c++)
                    shared =
                        o->acc[c].buf == b && ((o->acc[a].mode | o->acc[c].mode) & TL_ACCESS_WRITE);
                if (!shared) continue;
                const dacc_t *at = NULL, *by = NULL;
                if (reversed_on(o, it, n, i, j, b, &at, &by)) {
                    rev = true;
                    if (!why[2 * (i * n + j)]) {
                        why[2 * (i * n + j)] = at;
                        why[2 * (i * n + j) + 1] = by;
                    }
                } else {
                    fwd = true;
                }
            }
            if (rev && !fwd) {
                edge[j * n + i] = 1;
                any = true;
            } else {
                edge[i * n + j] = 1;
            }
        }
    if (!any) goto out;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) indeg[j] += edge[i * n + j];
    for (int done = 0; done < n; done++) {
        int pick = -1;
        for (int j = 0; j < n && pick < 0; j++)
            if (indeg[j] == 0) pick = j;
        if (pick < 0) goto out; // a cycle: program order stays
        order[done] = pick;
        indeg[pick] = -1;
        for (int j = 0; j < n; j++)
            if (edge[pick * n + j]) indeg[j]--;
    }
    tl_stmt_t **items = malloc(sizeof *items * (size_t)n);
    if (!items) {
        o->oom = true;
        goto out;
    }
    for (int i = 0; i < n; i++) items[i] = body->seq.items[order[i]];
    for (int i = 0; i < n; i++) {
        changed |= items[i] != body->seq.items[i];
        body->seq.items[i] = items[i];
    }
    free(items);
    for (int i = 0; changed && i < n; i++)
        for (int j = i + 1; j < n; j++) {
            const dacc_t *at = why[2 * (i * n + j)], *by = why[2 * (i * n + j) + 1];
            if (!edge[j * n + i] || !at) continue;
            tl_diag_warning(o->ctx->diag, at->stmt->loc,
                            "'%s' is read here before it is written (line %d) in the same "
                            "iteration of the loop at line %d, and nothing writes it before: as "
                            "upstream does, the read waits for that write (the loop body runs "
                            "in the order of its data flow)",
                            at->buf->name, by->stmt->loc.line, loop->loc.line);
        }
out:
    free(it);
    free(edge);
    free(indeg);
    free(order);
    free(why);
    return changed;
}

// --- dual-loop kernels: a workspace read by one core in one loop nest and
// written by the other core in a later one.
//
// Upstream's AutoInsertCrossCoreSync (ascend_combinecv.cc) pairs the i-th access
// of a workspace in the cube's code with the i-th in the vector's, one a read,
// one a write, and the reader waits: in a "dual-loop" kernel (the cube's loop
// over the tiles, then the vector cores' loop over the same tiles) the cube's
// read of what the vector cores write further down waits for that write. That
// is no program order tilec can run (each loop needs the other's results), so
// such a read, when no loop holds both it and the write and nothing writes the
// tensor before it, is a located error rather than a read of unwritten memory.

typedef struct {
    ord_t *o;
    tl_vec_t loops; // the loops around the statement being visited, outermost first
    dacc_t *acc;    // GM accesses of copies and the loops around each
    const tl_stmt_t ***around;
    int *naround;
    int n, cap;
    bool oom;
} dual_t;

static void dual_acc(void *arg, const tl_access_t *a)
{
    dual_t *d = arg;
    const tl_stmt_t *s = d->o->cur;
    if (a->buf->scope != TL_SCOPE_GM || copy_side(s) == SIDE_NONE) return;
    if (d->n == d->cap) {
        int cap = d->cap ? d->cap * 2 : 32;
        tl_arena_t *ar = d->o->k->arena;
        d->acc = tl_arena_grow(ar, d->acc, sizeof *d->acc, (size_t)d->cap, (size_t)cap);
        d->around = tl_arena_grow(ar, d->around, sizeof *d->around, (size_t)d->cap, (size_t)cap);
        d->naround = tl_arena_grow(ar, d->naround, sizeof *d->naround, (size_t)d->cap, (size_t)cap);
        if (!d->acc || !d->around || !d->naround) {
            d->oom = true;
            return;
        }
        d->cap = cap;
    }
    const tl_stmt_t **l = tl_arena_alloc(d->o->k->arena, sizeof *l * (size_t)(d->loops.len + 1));
    if (!l) {
        d->oom = true;
        return;
    }
    for (int i = 0; i < d->loops.len; i++) l[i] = d->loops.items[i];
    d->around[d->n] = l;
    d->naround[d->n] = d->loops.len;
    d->acc[d->n++] = (dacc_t){a->buf, a->mode, copy_side(s), s->origin, false, s};
}

static void dual_walk(dual_t *d, tl_stmt_t *s)
{
    if (!s || d->oom) return;
    d->o->cur = s;
    if (s->kind == TL_ST_OP) tl_access_stmt(s, dual_acc, d);
    switch (s->kind) {
    case TL_ST_SEQ:
        for (int i = 0; i < s->seq.n; i++) dual_walk(d, s->seq.items[i]);
        break;
    case TL_ST_FOR:
    case TL_ST_WHILE:
        tl_vec_push(d->o->k->arena, &d->loops, s);
        dual_walk(d, s->kind == TL_ST_FOR ? s->for_.body : s->while_.body);
        d->loops.len--;
        break;
    case TL_ST_IF:
        dual_walk(d, s->if_.then_);
        dual_walk(d, s->if_.else_);
        break;
    case TL_ST_SCOPE: dual_walk(d, s->scope.body); break;
    default: break;
    }
}

static bool share_loop(const dual_t *d, int a, int b)
{
    for (int i = 0; i < d->naround[a]; i++)
        for (int j = 0; j < d->naround[b]; j++)
            if (d->around[a][i] == d->around[b][j]) return true;
    return false;
}

static tl_status_t check_dual_loops(ord_t *o)
{
    dual_t d = {.o = o};
    for (int i = 0; i <= o->k->buffers.len; i++) o->first_write[i] = 0x7fffffff;
    o->pos = 0;
    tl_rewrite_walk(o->k->body, number, o); // positions in the order dev_order left
    dual_walk(&d, o->k->body);
    if (d.oom) return tl_diag_fail(o->ctx->diag, TL_ERR_NOMEM, "out of memory");
    for (int r = 0; r < d.n; r++) {
        const dacc_t *rd = &d.acc[r];
        const tl_buffer_t *b = rd->buf;
        if ((rd->mode & TL_ACCESS_WRITE) || b->param < 0 ||
            o->k->params[b->param].role == TL_ROLE_INPUT || o->first_write[b->id] <= rd->pos)
            continue;
        for (int w = 0; w < d.n; w++) {
            const dacc_t *wr = &d.acc[w];
            if (wr->buf != b || !(wr->mode & TL_ACCESS_WRITE) || wr->side == rd->side ||
                share_loop(&d, r, w))
                continue;
            return tl_diag_error(
                o->ctx->diag, rd->stmt->loc,
                "'%s' is read here by the %s core before anything writes it; the "
                "%s core writes it later (line %d), in another loop: upstream pairs "
                "the two cores' accesses of a workspace by their order in each "
                "core's code (AutoInsertCrossCoreSync), so this read waits for that "
                "write. tilec does not model such dual-loop kernels (no order of "
                "the two loops gives that data flow)",
                b->name, rd->side == SIDE_C ? "cube" : "vector",
                rd->side == SIDE_C ? "vector" : "cube", wr->stmt->loc.line);
        }
    }
    return TL_OK;
}

static void clear_origin(void *arg, tl_stmt_t *s)
{
    (void)arg;
    s->origin = 0;
}

tl_status_t tl_pass_dev_order(tl_kernel_t *k, tl_pass_ctx_t *ctx)
{
    if (!k->config.auto_cv_combine || !k->body) return TL_OK;
    int nb = k->buffers.len;
    ord_t o = {.k = k, .ctx = ctx};
    o.first_write = malloc(sizeof *o.first_write * (size_t)(nb + 1));
    o.writers = calloc((size_t)nb + 1, sizeof *o.writers);
    if (!o.first_write || !o.writers) {
        free(o.first_write);
        free(o.writers);
        return tl_diag_fail(ctx->diag, TL_ERR_NOMEM, "out of memory");
    }
    for (int i = 0; i <= nb; i++) o.first_write[i] = 0x7fffffff;
    tl_rewrite_normalize(k);
    tl_rewrite_walk(k->body, number, &o);
    tl_rewrite_walk(k->body, find_loops, &o);
    // pre-order lists outer loops first: inner bodies are ordered first
    for (int i = o.loops.len - 1; i >= 0 && !o.oom; i--) {
        tl_stmt_t *l = o.loops.items[i];
        reorder_body(&o, l, l->kind == TL_ST_FOR ? l->for_.body : l->while_.body);
    }
    tl_status_t st =
        o.oom ? tl_diag_fail(ctx->diag, TL_ERR_NOMEM, "out of memory") : check_dual_loops(&o);
    tl_rewrite_walk(k->body, clear_origin, NULL);
    free(o.first_write);
    free(o.writers);
    return st;
}
