// dev_order: upstream's order of a developer-mode loop body, as program order.
//
// requires: physical scopes (scope_infer); developer mode (auto CV combine)
// ensures:  every loop body in which one core reads data that the other core
//           writes later in the same iteration, and nothing writes it earlier
//           in program order, is reordered so that the write comes first and
//           the read after it; every other pair of statements that touch the
//           same memory (or a variable a let defines) keeps its order; the
//           two cores' loops of a dual-loop kernel (each reads a workspace the
//           other writes) are fused first, where their shapes allow; a
//           workspace read before anything writes it, whose later writer (the
//           other core) still shares no loop with the read, is an error.
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
#include "ir/side.h"
#include "pass/pass.h"
#include "pass/rewrite.h"
#include "pass/subst.h"

#include <stdio.h>
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
    unsigned sides, bar;  // of the item being collected: see item_t
    tl_side_map_t *lanes; // the statements' cores (LOCKSTEP) once the loops are fused
    char fuse_why[320];   // why the first dual-loop pair could not be fused, or ""
    tl_loc_t warned[16];  // reads already warned about (one warning each)
    int nwarned;
} ord_t;

// Whether no warning was given yet about the read at loc (and records it).
static bool first_warning(ord_t *o, tl_loc_t loc)
{
    for (int i = 0; i < o->nwarned; i++)
        if (o->warned[i].src == loc.src && o->warned[i].line == loc.line &&
            o->warned[i].col == loc.col)
            return false;
    if (o->nwarned < (int)(sizeof o->warned / sizeof o->warned[0])) o->warned[o->nwarned++] = loc;
    return true;
}

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

// The core an intra-core sync orders (set_flag / wait_flag / pipe_barrier of
// one core's pipes: ir/side.h's rule), or SIDE_NONE: a statement that orders
// both cores' code (barrier_all, cross-core flags, sync_all, a flag of pipes of
// both cores). An intra-core sync does nothing to the other core's statements,
// so they may move across it.
static int sync_core(const tl_stmt_t *s)
{
    tl_side_t side = TL_SIDE_NONE;
    if (s->sync.kind == TL_SYNC_SET_FLAG || s->sync.kind == TL_SYNC_WAIT_FLAG)
        side = tl_side_pipe(s->sync.src) | tl_side_pipe(s->sync.dst);
    else if (s->sync.kind == TL_SYNC_PIPE_BARRIER)
        side = tl_side_pipe(s->sync.src);
    return side == TL_SIDE_CUBE ? SIDE_C : side == TL_SIDE_VEC ? SIDE_V : SIDE_NONE;
}

// sync_core, or for an intra-core sync of no core by its pipes (barrier_all, a
// flag between two shared pipes) the core upstream's CombineCV gives it: that
// of the statement before it (ir/side.h, LOCKSTEP), when o knows the sides.
static int sync_core_in(const ord_t *o, const tl_stmt_t *s)
{
    int side = sync_core(s);
    if (side != SIDE_NONE || !o->lanes || s->sync.kind == TL_SYNC_SET_CROSS ||
        s->sync.kind == TL_SYNC_WAIT_CROSS || s->sync.kind == TL_SYNC_ALL)
        return side;
    tl_side_t m = tl_side_get(o->lanes, s);
    return m == TL_SIDE_CUBE ? SIDE_C : m == TL_SIDE_VEC ? SIDE_V : SIDE_NONE;
}

// A side as a set of cores (SIDE_NONE: both, the cautious answer).
static unsigned core_mask(int side)
{
    return side == SIDE_NONE ? 3u : 1u << side;
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
    o->sides |= core_mask(side);
}

// Every access in the tree of one item (pre-order), the cores its statements
// work on, and those whose statements may not move across it.
static void collect(void *arg, tl_stmt_t *s)
{
    ord_t *o = arg;
    if (s->kind == TL_ST_SYNC) {
        unsigned m = core_mask(sync_core_in(o, s));
        o->bar |= m;
        o->sides |= m;
    } else if (s->kind == TL_ST_PRINT || s->kind == TL_ST_BREAK || s->kind == TL_ST_CONTINUE) {
        o->bar = o->sides = 3;
    }
    o->cur = s;
    tl_access_stmt(s, add_acc, o);
}

typedef struct {
    int from, to;        // ranges into the item's accesses
    unsigned sides, bar; // core masks (1 cube, 2 vector): worked on; ordered against
    bool let;
} item_t;

// The accesses of each item of seq (it[i] ranges into o->acc).
static void collect_items(ord_t *o, tl_stmt_t *seq, item_t *it)
{
    o->nacc = 0;
    for (int i = 0; i < seq->seq.n; i++) {
        o->sides = o->bar = 0;
        it[i].from = o->nacc;
        tl_rewrite_walk(seq->seq.items[i], collect, o);
        it[i].to = o->nacc;
        it[i].sides = o->sides ? o->sides : 3; // no memory, no sync: keep it in place
        it[i].bar = o->bar;
        it[i].let = seq->seq.items[i]->kind == TL_ST_LET;
    }
}

// Whether a sync in one of the two items orders the other (a statement of the
// sync's core, or one of no known core).
static bool fenced(const item_t *a, const item_t *b)
{
    return (a->bar & b->sides) || (b->bar & a->sides);
}

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

// The warning at each read of a reversed pair: the body was reordered so that
// the read follows the write; or (kept) its reversed pairs cannot all be
// honoured (a cycle) and it keeps program order, where the NPU pipelines still
// pair each read with its write (cross_sync's flags) but the one-program
// backends (tilec run, --target cpu) read what the previous iteration wrote.
static void warn_reads(ord_t *o, const tl_stmt_t *loop, int n, const char *edge, const dacc_t **why,
                       bool kept)
{
    if (kept && o->ctx->pipeline != TL_PIPELINE_REF && o->ctx->pipeline != TL_PIPELINE_CPU) return;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            const dacc_t *at = why[2 * (i * n + j)], *by = why[2 * (i * n + j) + 1];
            if (!edge[j * n + i] || !at || !first_warning(o, at->stmt->loc)) continue;
            if (kept)
                tl_diag_warning(
                    o->ctx->diag, at->stmt->loc,
                    "'%s' is read here before the other core writes it (line %d) in the same "
                    "iteration of the loop at line %d: upstream makes this read wait for that "
                    "write, but the loop body's other dependences (its syncs of both cores, or "
                    "data) allow no such order, so tilec run and --target cpu run the body in "
                    "program order and this read sees the previous iteration's write (nothing in "
                    "the first); tilec sim follows upstream",
                    at->buf->name, by->stmt->loc.line, loop->loc.line);
            else
                tl_diag_warning(o->ctx->diag, at->stmt->loc,
                                "'%s' is read here before it is written (line %d) in the same "
                                "iteration of the loop at line %d, and nothing writes it before: "
                                "as upstream does, the read waits for that write (the loop body "
                                "runs in the order of its data flow)",
                                at->buf->name, by->stmt->loc.line, loop->loc.line);
        }
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
    collect_items(o, body, it);
    if (o->oom) goto out;
    bool any = false;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            if (fenced(&it[i], &it[j]) || it[i].let) {
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
        if (pick < 0) { // a cycle: program order stays
            warn_reads(o, loop, n, edge, why, true);
            goto out;
        }
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
    if (changed) warn_reads(o, loop, n, edge, why, false);
out:
    free(it);
    free(edge);
    free(indeg);
    free(order);
    free(why);
    return changed;
}

// --- dual-loop kernels: the two cores' loops run as one
//
// Upstream's AutoInsertCrossCoreSync (ascend_combinecv.cc) pairs the i-th
// access of a workspace in the cube's code with the i-th in the vector's, one
// a read, one a write: the writer sets a flag after its copy, the reader waits
// before its own. In a "dual-loop" kernel (deepseek_mla example_mla_decode.py:
// the cube's loop over the tiles, then the vector cores' loop over the same
// tiles, each reading what the other writes) the two loops therefore run side
// by side, each access waiting for its partner in the other loop's same
// iteration. tilec runs that as one program by fusing the two loops: where a
// statement of one core reads a workspace before anything writes it, a later
// statement of the other core writes it, and that statement also reads what
// the first one writes (no order of the two gives the data flow), and both are
// loops with equal bounds (or ifs with equal conditions) whose statements all
// work on their own core, the second one's body is appended to the first
// one's. Each core's statements keep their order, so cv_split gives each core
// the program it has upstream; the loop-body order above then puts each read
// after its write.

// Whether every statement of a tree works on one core (its side in *side, a
// tree of lets and control flow leaves it SIDE_NONE) and can move: no sync,
// print, break or continue, no scope, no store to GM; scalar loads of GM only
// from inputs.
typedef struct {
    ord_t *o;
    int side;
    bool bad;
} tside_t;

static void tree_side_acc(void *arg, const tl_access_t *a)
{
    tside_t *t = arg;
    const tl_stmt_t *s = t->o->cur;
    int side;
    if (a->buf->scope == TL_SCOPE_GM) {
        side = copy_side(s);
        bool input = a->buf->param >= 0 && t->o->k->params[a->buf->param].role == TL_ROLE_INPUT;
        if (side == SIDE_NONE && input && !(a->mode & TL_ACCESS_WRITE)) return;
    } else {
        side = scope_side(a->buf->scope);
    }
    if (s->kind == TL_ST_OP && s->op.code == TL_OP_GEMM_V0) side = SIDE_C;
    if (side == SIDE_NONE || (t->side != SIDE_NONE && t->side != side)) t->bad = true;
    t->side = side;
}

static void tree_side_stmt(void *arg, tl_stmt_t *s)
{
    tside_t *t = arg;
    if (s->kind == TL_ST_SYNC) { // one core's own sync goes with that core's statements
        int side = sync_core(s);
        if (side == SIDE_NONE || (t->side != SIDE_NONE && t->side != side)) t->bad = true;
        t->side = side;
    }
    if (s->kind == TL_ST_PRINT || s->kind == TL_ST_BREAK || s->kind == TL_ST_CONTINUE ||
        s->kind == TL_ST_SCOPE)
        t->bad = true;
    t->o->cur = s;
    tl_access_stmt(s, tree_side_acc, t);
}

static int tree_side(ord_t *o, tl_stmt_t *s)
{
    tside_t t = {o, SIDE_NONE, false};
    tl_rewrite_walk(s, tree_side_stmt, &t);
    return t.bad ? SIDE_NONE : t.side;
}

// A fused item's reason not to fuse, for the error check_dual_loops gives.
// (the first one; `line`, when not 0, names the statement in the way)
static void why_not(ord_t *o, const tl_stmt_t *a, const tl_stmt_t *b, const char *what, int line)
{
    if (o->fuse_why[0]) return;
    char at[48] = "";
    if (line) snprintf(at, sizeof at, " (line %d)", line);
    snprintf(o->fuse_why, sizeof o->fuse_why,
             "; tilec runs such a kernel by fusing the two cores' loops, and cannot fuse "
             "lines %d and %d: %s%s",
             a->loc.line, b->loc.line, what, at);
}

// The body of b (a loop or if like a) after a's own, b's loop variable
// replaced by a's.
static tl_stmt_t *append_body(tl_kernel_t *k, tl_stmt_t *into, tl_stmt_t *from, const tl_var_t *var,
                              tl_var_t *with)
{
    tl_subst_t m;
    tl_subst_init(&m);
    if (var) tl_subst_var(&m, var, tl_ir_varref(k, with, from ? from->loc : into->loc));
    tl_stmt_t *copy = tl_subst_stmt(k, &m, from);
    tl_subst_free(&m);
    tl_stmt_t *seq = tl_ir_seq(k, into ? into->loc : copy->loc);
    tl_stmt_t *parts[2] = {into, copy};
    for (int p = 0; p < 2; p++) {
        if (!parts[p]) continue;
        if (parts[p]->kind != TL_ST_SEQ) {
            tl_ir_seq_push(k, seq, parts[p]);
            continue;
        }
        for (int i = 0; i < parts[p]->seq.n; i++) tl_ir_seq_push(k, seq, parts[p]->seq.items[i]);
    }
    return seq;
}

// Loads only of inputs (values that do not change while the kernel runs).
static bool invariant(const ord_t *o, const tl_expr_t *e)
{
    if (!e) return true;
    switch (e->kind) {
    case TL_EX_LOAD:
        if (e->load.buf->param < 0 || o->k->params[e->load.buf->param].role != TL_ROLE_INPUT)
            return false;
        for (int i = 0; i < e->load.n; i++)
            if (!invariant(o, e->load.idx[i])) return false;
        return true;
    case TL_EX_BIN: return invariant(o, e->op.a) && invariant(o, e->op.b);
    case TL_EX_UN: return invariant(o, e->op.a);
    case TL_EX_CAST:
    case TL_EX_REINTERPRET: return invariant(o, e->arg);
    case TL_EX_SELECT:
        return invariant(o, e->sel.cond) && invariant(o, e->sel.a) && invariant(o, e->sel.b);
    default: return true;
    }
}

// Items a and b of seq fused into a's statement, placed where b was (or
// where a was); false (the reason in o->fuse_why) when they cannot be.
static bool fuse_pair(ord_t *o, tl_stmt_t *seq, item_t *it, int ia, int ib)
{
    tl_stmt_t *a = seq->seq.items[ia], *b = seq->seq.items[ib];
    int sa = tree_side(o, a), sb = tree_side(o, b);
    if (sa == SIDE_NONE || sb == SIDE_NONE || sa == sb) {
        why_not(o, a, b,
                "each must hold the statements of one core only, and nothing that "
                "cannot move (barrier_all, cross-core flags, prints, break)",
                0);
        return false;
    }
    if (a->kind != b->kind || (a->kind != TL_ST_FOR && a->kind != TL_ST_IF)) {
        why_not(o, a, b, "both must be loops or both ifs", 0);
        return false;
    }
    if (a->kind == TL_ST_FOR) {
        tl_subst_t m;
        tl_subst_init(&m);
        tl_subst_var(&m, b->for_.var, tl_ir_varref(o->k, a->for_.var, b->loc));
        tl_expr_t *end = tl_subst_expr(o->k, &m, b->for_.end);
        tl_expr_t *start = tl_subst_expr(o->k, &m, b->for_.start);
        tl_subst_free(&m);
        if (a->for_.loop != b->for_.loop ||
            (a->for_.loop != TL_LOOP_SERIAL && a->for_.loop != TL_LOOP_UNROLL) ||
            !tl_ir_expr_equal(a->for_.start, start) || !tl_ir_expr_equal(a->for_.end, end) ||
            !invariant(o, a->for_.start) || !invariant(o, a->for_.end)) {
            why_not(o, a, b,
                    "the loops must be serial with equal bounds (upstream pairs the "
                    "accesses of loops of other shapes by count)",
                    0);
            return false;
        }
    } else if (!tl_ir_expr_equal(a->if_.cond, b->if_.cond) || !invariant(o, a->if_.cond) ||
               !a->if_.else_ != !b->if_.else_) {
        why_not(o, a, b, "the ifs must have equal conditions", 0);
        return false;
    }
    // where: b's place when a may move down past the items between, else a's
    // place when b may move up (and uses no let between)
    bool down = true, up = true;
    for (int m = ia + 1; m < ib; m++) {
        if (fenced(&it[m], &it[ia]) || conflict(o, &it[ia], &it[m])) down = false;
        if (fenced(&it[m], &it[ib]) || it[m].let || conflict(o, &it[ib], &it[m])) up = false;
        if (!down && !up) {
            why_not(o, a, b, "a statement between them touches their memory",
                    seq->seq.items[m]->loc.line);
            return false;
        }
    }
    tl_stmt_t *f = a;
    if (a->kind == TL_ST_FOR) {
        f->for_.body = append_body(o->k, a->for_.body, b->for_.body, b->for_.var, a->for_.var);
    } else {
        f->if_.then_ = append_body(o->k, a->if_.then_, b->if_.then_, NULL, NULL);
        if (a->if_.else_) f->if_.else_ = append_body(o->k, a->if_.else_, b->if_.else_, NULL, NULL);
    }
    tl_rewrite_remove(seq, ib);
    tl_rewrite_remove(seq, ia);
    tl_rewrite_insert(o->k, seq, down ? ib - 1 : ia, f);
    return true;
}

// Whether item a reads a workspace (a GM tensor that is not an input) before
// anything writes it, which item b, of the other core, writes (the read in
// *rd, the write in *wr); *needs: b also touches what a writes, so that no
// order of the two gives upstream's data flow.
static bool reads_first(const ord_t *o, const item_t *a, const item_t *b, const dacc_t **rd,
                        const dacc_t **wr, bool *needs)
{
    bool fwd = false;
    *rd = NULL;
    for (int i = a->from; i < a->to; i++)
        for (int j = b->from; j < b->to; j++) {
            const dacc_t *x = &o->acc[i], *y = &o->acc[j];
            if (x->buf != y->buf) continue;
            if (x->mode & TL_ACCESS_WRITE) {
                fwd = true;
                continue;
            }
            const tl_buffer_t *buf = x->buf;
            if (*rd || !(y->mode & TL_ACCESS_WRITE) || buf->scope != TL_SCOPE_GM ||
                buf->param < 0 || o->k->params[buf->param].role == TL_ROLE_INPUT ||
                x->side == SIDE_NONE || y->side == SIDE_NONE || x->side == y->side ||
                o->first_write[buf->id] <= x->pos)
                continue;
            *rd = x;
            *wr = y;
        }
    *needs = fwd;
    return *rd;
}

// Fuses the first such pair of items of seq; true if it did. In a loop body
// a pair whose second item does not need the first is left to the reordering
// (reorder_body); elsewhere it is fused too.
static bool fuse_seq(ord_t *o, tl_stmt_t *seq, bool loop_body)
{
    int n = seq->seq.n;
    if (n < 2) return false;
    item_t *it = calloc((size_t)n, sizeof *it);
    if (!it) {
        o->oom = true;
        return false;
    }
    collect_items(o, seq, it);
    bool fused = false;
    for (int a = 0; a < n && !fused && !o->oom; a++)
        for (int b = a + 1; b < n && !fused; b++) {
            const dacc_t *rd, *wr;
            bool needs = false;
            if (!reads_first(o, &it[a], &it[b], &rd, &wr, &needs) || (loop_body && !needs))
                continue;
            int la = seq->seq.items[a]->loc.line, lb = seq->seq.items[b]->loc.line;
            const tl_stmt_t *at = rd->stmt, *by = wr->stmt;
            const char *name = rd->buf->name;
            bool cube = rd->side == SIDE_C;
            if (!fuse_pair(o, seq, it, a, b)) continue;
            fused = true;
            if (first_warning(o, at->loc))
                tl_diag_warning(o->ctx->diag, at->loc,
                                "'%s' is read here by the %s core before anything writes it, and "
                                "the %s core writes it later (line %d) in code that reads what "
                                "this core writes: upstream pairs the two cores' accesses of a "
                                "workspace by their order (AutoInsertCrossCoreSync), so the code "
                                "at lines %d and %d runs as one (fused, with the loops and "
                                "ifs inside that hold the two accesses; each core's statements "
                                "keep their order)",
                                name, cube ? "cube" : "vector", cube ? "vector" : "cube",
                                by->loc.line, la, lb);
        }
    free(it);
    return fused;
}

// Fuses the first pair found, outer statements first; true if it did.
static bool fuse_in(ord_t *o, tl_stmt_t *s, bool loop_body)
{
    if (!s || o->oom) return false;
    switch (s->kind) {
    case TL_ST_SEQ:
        if (fuse_seq(o, s, loop_body)) return true;
        for (int i = 0; i < s->seq.n; i++)
            if (fuse_in(o, s->seq.items[i], false)) return true;
        return false;
    case TL_ST_FOR: return fuse_in(o, s->for_.body, true);
    case TL_ST_WHILE: return fuse_in(o, s->while_.body, true);
    case TL_ST_IF: return fuse_in(o, s->if_.then_, false) || fuse_in(o, s->if_.else_, false);
    case TL_ST_SCOPE: return fuse_in(o, s->scope.body, false);
    default: return false;
    }
}

static void renumber(ord_t *o)
{
    for (int i = 0; i <= o->k->buffers.len; i++) {
        o->first_write[i] = 0x7fffffff;
        o->writers[i] = 0;
    }
    o->pos = 0;
    tl_rewrite_walk(o->k->body, number, o);
}

// --- dual-loop kernels the fusion above left: a workspace read by one core in
// one loop nest and written by the other core in a later one. No program order
// runs that (each loop needs the other's results), so such a read, when no loop
// holds both it and the write and nothing writes the tensor before it, is a
// located error rather than a read of unwritten memory.

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

// The first GM copy access of b by core `side` at index `from` of d's list or
// after it, or -1.
static int next_access(const dual_t *d, const tl_buffer_t *b, int side, int from)
{
    for (int a = from; a < d->n; a++)
        if (d->acc[a].buf == b && d->acc[a].side == side) return a;
    return -1;
}

// Upstream's own check of a workspace's pairing (AutoInsertCrossCoreSync stops
// the build when the two cores' copies of it differ in number, or when the
// i-th of each are both reads or both writes): the reason in why, or "".
static void upstream_pairing(const dual_t *d, const tl_buffer_t *b, char *why, size_t size)
{
    int n[2] = {0, 0};
    for (int a = 0; a < d->n; a++)
        if (d->acc[a].buf == b && d->acc[a].side != SIDE_NONE) n[d->acc[a].side]++;
    if (n[SIDE_C] != n[SIDE_V]) {
        snprintf(why, size,
                 " (upstream's build stops here too: the cube's code copies '%s' %d times, "
                 "the vector cores' %d)",
                 b->name, n[SIDE_C], n[SIDE_V]);
        return;
    }
    for (int pair = 1, c = -1, v = -1;; pair++) {
        c = next_access(d, b, SIDE_C, c + 1);
        v = next_access(d, b, SIDE_V, v + 1);
        if (c < 0 || v < 0) return;
        bool cw = d->acc[c].mode & TL_ACCESS_WRITE, vw = d->acc[v].mode & TL_ACCESS_WRITE;
        if (cw == vw) {
            snprintf(why, size,
                     " (upstream's build stops here too: copy %d of '%s' in each core's code, "
                     "lines %d and %d, are both %s)",
                     pair, b->name, d->acc[c].stmt->loc.line, d->acc[v].stmt->loc.line,
                     cw ? "writes" : "reads");
            return;
        }
    }
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
            char why[200] = "";
            upstream_pairing(&d, b, why, sizeof why);
            return tl_diag_error(o->ctx->diag, rd->stmt->loc,
                                 "'%s' is read here by the %s core before anything writes it; "
                                 "the %s core writes it later (line %d), in another loop: "
                                 "upstream pairs the two cores' accesses of a workspace by "
                                 "their order in each core's code (AutoInsertCrossCoreSync), "
                                 "so this read waits for that write%s%s",
                                 b->name, rd->side == SIDE_C ? "cube" : "vector",
                                 rd->side == SIDE_C ? "vector" : "cube", wr->stmt->loc.line,
                                 o->fuse_why[0] ? o->fuse_why
                                                : "; tilec runs such a kernel by fusing the two "
                                                  "cores' loops, and found no pair to fuse",
                                 why);
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
    for (int round = 0; round < 256 && !o.oom && fuse_in(&o, k->body, false); round++) renumber(&o);
    if (!o.oom && tl_side_map_build(k, TL_SIDE_MODE_LOCKSTEP, ctx->diag, &o.lanes) != TL_OK)
        o.oom = true;
    tl_rewrite_walk(k->body, find_loops, &o);
    // pre-order lists outer loops first: inner bodies are ordered first
    for (int i = o.loops.len - 1; i >= 0 && !o.oom; i--) {
        tl_stmt_t *l = o.loops.items[i];
        reorder_body(&o, l, l->kind == TL_ST_FOR ? l->for_.body : l->while_.body);
    }
    tl_status_t st =
        o.oom ? tl_diag_fail(ctx->diag, TL_ERR_NOMEM, "out of memory") : check_dual_loops(&o);
    tl_rewrite_walk(k->body, clear_origin, NULL);
    tl_side_map_free(o.lanes);
    free(o.first_write);
    free(o.writers);
    return st;
}
