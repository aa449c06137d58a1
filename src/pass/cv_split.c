// cv_split: splits a developer-mode body into a cube program and a vector
// program (TL_ASCEND_AUTO_CV_COMBINE).
//
// requires: physical scopes (scope_infer); no copy between the two cores'
//           memories (workspace routes L0C->UB and UB->L1 through GM)
// ensures:  the body is [T.Scope("C") {cube program}, T.Scope("V") {vector
//           program}] (an empty program is left out); each program is the
//           projection of the original tree onto its core: loops, ifs and lets
//           duplicated where both need them, loops and ifs that become empty
//           removed. Every statement's `origin` is its pre-order number in the
//           original tree (cross_sync pairs the two programs with it).
//           config.auto_cv_combine is cleared and k->cv_split set: from here on
//           the kernel is an expert-mode kernel whose results equal the
//           developer-mode (lockstep) execution of the original.
//
// Classification (ir/side.h, SPLIT mode; by the op table and buffer scopes,
// never by names): a tile op goes with its operands' memory (an op without
// on-chip operands with its pipe); a scalar store with its buffer, or, for GM
// and alloc_var targets, with the memory its expressions read; a let with the
// memory its value reads; a sync with its pipes, else (barrier_all too) with the
// previous classified statement (upstream's rule for manual syncs), but a
// wait_cross_flag with the next one; T.Scope wins. Statements that read
// neither core's memory (lets, alloc_var updates, breaks) go to every core
// that needs them: those whose later statements read their variable,
// transitively, and control flow around them. A GM store or print that reads
// no core's memory runs once, as the lockstep program runs it: on the cube
// unless it sits in vector-only code (then on vector core 0). It is an error
// when a core needs a value only the other core can compute, and when control
// flow both cores run depends on vid (the cube's vid is 0).
//
// T.Kernel(threads=2): the vector program is then split between the two vector
// cores where that is provably equivalent (vid_split.c), or runs on vector core
// 0 alone (a note says why).
#include "ir/side.h"
#include "ir/walk.h"
#include "pass/hazard.h"
#include "pass/pass.h"
#include "pass/rewrite.h"

#include <stdlib.h>
#include <string.h>

enum { SIDE_C = 0, SIDE_V = 1 };
enum { F_ONCE = TL_SIDE_ONCE, F_FORCED = TL_SIDE_FORCED };

typedef struct {
    tl_kernel_t *k;
    tl_pass_ctx_t *ctx;
    int n;                    // statements (origins 1..n)
    tl_stmt_t **by_origin;    // origin -> statement
    int *parent;              // origin -> origin of the enclosing statement (0: none)
    uint8_t *side;            // leaf side (tl_side_t) / compound side union
    uint8_t *flags;           // F_ONCE, F_FORCED (inside T.Scope)
    bool *need[2];            // needed on the cube / vector program
    bool *var_read[2];        // by var id: read by needed statements
    bool *buf_read[2];        // by buffer id (alloc_var registers): read by needed statements
    const tl_stmt_t **let_of; // by var id: its let
    tl_status_t st;
} split_t;

static bool is_compound(const tl_stmt_t *s)
{
    return s->kind == TL_ST_SEQ || s->kind == TL_ST_FOR || s->kind == TL_ST_WHILE ||
           s->kind == TL_ST_IF || s->kind == TL_ST_SCOPE;
}

// --- numbering -----------------------------------------------------------------------------------

static void number(split_t *p, tl_stmt_t *s, int parent)
{
    if (!s) return;
    int o = ++p->n;
    s->origin = o;
    p->by_origin[o] = s;
    p->parent[o] = parent;
    switch (s->kind) {
    case TL_ST_SEQ:
        for (int i = 0; i < s->seq.n; i++) number(p, s->seq.items[i], o);
        break;
    case TL_ST_FOR: number(p, s->for_.body, o); break;
    case TL_ST_WHILE: number(p, s->while_.body, o); break;
    case TL_ST_IF:
        number(p, s->if_.then_, o);
        number(p, s->if_.else_, o);
        break;
    case TL_ST_SCOPE: number(p, s->scope.body, o); break;
    case TL_ST_LET: p->let_of[s->let.var->id] = s; break;
    default: break;
    }
}

// --- classification ------------------------------------------------------------------------------

// The side of every statement (ir/side.h, SPLIT mode), by origin.
static tl_status_t classify(split_t *p)
{
    tl_side_map_t *m;
    tl_status_t st = tl_side_map_build(p->k, TL_SIDE_MODE_SPLIT, p->ctx->diag, &m);
    if (st) return st;
    for (int o = 1; o <= p->n; o++) {
        p->side[o] = (uint8_t)tl_side_get(m, p->by_origin[o]);
        p->flags[o] = (uint8_t)(tl_side_flags(m, p->by_origin[o]) & (F_ONCE | F_FORCED));
    }
    tl_side_map_free(m);
    return TL_OK;
}

static const char *side_word(int side)
{
    return side == TL_SIDE_CUBE ? "cube" : side == TL_SIDE_VEC ? "vector" : "no";
}

// A wait_cross_flag outside T.Scope guards what follows it: it goes with the
// next statement that has a side (the sticky rule would put it next to the set
// it answers, on the wrong core).
static void waits_follow(split_t *p)
{
    for (int o = 1; o <= p->n; o++) {
        const tl_stmt_t *s = p->by_origin[o];
        if (s->kind != TL_ST_SYNC || s->sync.kind != TL_SYNC_WAIT_CROSS || (p->flags[o] & F_FORCED))
            continue;
        for (int q = o + 1; q <= p->n; q++) {
            const tl_stmt_t *n = p->by_origin[q];
            int side = p->side[q];
            if (is_compound(n) || n->kind == TL_ST_SYNC ||
                (side != TL_SIDE_CUBE && side != TL_SIDE_VEC))
                continue;
            p->side[o] = (uint8_t)side;
            break;
        }
    }
}

// A side-less GM store or print runs once, where the lockstep program would:
// on vector core 0 when some enclosing statement is vector-only, else on the cube.
static int once_side(const split_t *p, int o)
{
    for (int q = p->parent[o]; q; q = p->parent[q])
        if (p->side[q] == TL_SIDE_VEC) return TL_SIDE_VEC;
    return TL_SIDE_CUBE;
}

// --- what each core needs
// -------------------------------------------------------------------------

// Marks the statements each core needs, to a fixpoint.
static void needs(split_t *p)
{
    for (int o = 1; o <= p->n; o++) {
        const tl_stmt_t *s = p->by_origin[o];
        if (is_compound(s)) continue;
        int side = p->side[o];
        if (p->flags[o] & F_ONCE) side = once_side(p, o);
        if (side == TL_SIDE_BOTH) side = TL_SIDE_NONE;
        if (side == TL_SIDE_CUBE) p->need[SIDE_C][o] = true;
        if (side == TL_SIDE_VEC) p->need[SIDE_V][o] = true;
        // syncs that order nothing in particular (sync_all, a barrier_all before any
        // statement with a side) run on both
        if (s->kind == TL_ST_SYNC && side == TL_SIDE_NONE)
            p->need[SIDE_C][o] = p->need[SIDE_V][o] = true;
    }
    for (int s = 0; s < 2; s++)
        tl_side_need_close(p->k, p->n, (const tl_stmt_t *const *)p->by_origin, p->parent,
                           p->need[s], p->var_read[s], p->buf_read[s]);
}

// A statement whose value only one core can compute, needed by the other.
static void check_needs(split_t *p)
{
    for (int o = 1; o <= p->n && !p->st; o++) {
        const tl_stmt_t *s = p->by_origin[o];
        if (s->kind != TL_ST_LET &&
            !(s->kind == TL_ST_STORE && s->store.buf->scope == TL_SCOPE_VAR))
            continue;
        int side = p->side[o];
        if (side != TL_SIDE_CUBE && side != TL_SIDE_VEC) continue;
        int other = side == TL_SIDE_CUBE ? SIDE_V : SIDE_C;
        if (!p->need[other][o]) continue;
        // find a reader on the other core for the message
        const tl_stmt_t *user = NULL;
        for (int q = 1; q <= p->n && !user; q++) {
            if (!p->need[other][q] || q == o) continue;
            memset(p->var_read[other], 0, sizeof(bool) * (size_t)p->k->vars.len);
            memset(p->buf_read[other], 0, sizeof(bool) * (size_t)p->k->buffers.len);
            tl_side_stmt_reads(p->by_origin[q], p->var_read[other], p->buf_read[other]);
            bool hit = s->kind == TL_ST_LET ? p->var_read[other][s->let.var->id]
                                            : p->buf_read[other][s->store.buf->id];
            if (hit) user = p->by_origin[q];
        }
        const char *name = s->kind == TL_ST_LET ? s->let.var->name : s->store.buf->name;
        p->st = tl_diag_error(p->ctx->diag, s->loc,
                              "'%s' is computed from %s memory here, but the %s core needs it; "
                              "hand the value over through GM",
                              name, side_word(side), side == TL_SIDE_CUBE ? "vector" : "cube");
        if (user)
            tl_diag_note(p->ctx->diag, user->loc, "the %s core uses '%s' here",
                         side == TL_SIDE_CUBE ? "vector" : "cube", name);
    }
}

static void check_vid(split_t *p)
{
    const tl_var_t *vid = p->k->vid;
    if (!vid) return;
    tl_hazard_ctx_t *hz = tl_hazard_ctx_new(p->k);
    if (!hz) {
        p->st = tl_diag_fail(p->ctx->diag, TL_ERR_NOMEM, "out of memory");
        return;
    }
    for (int o = 1; o <= p->n && !p->st; o++) {
        const tl_stmt_t *s = p->by_origin[o];
        if (!p->need[SIDE_C][o] || !p->need[SIDE_V][o]) continue;
        const tl_expr_t *e[2] = {NULL, NULL};
        const char *what = NULL;
        if (s->kind == TL_ST_FOR)
            e[0] = s->for_.start, e[1] = s->for_.end, what = "loop bound";
        else if (s->kind == TL_ST_WHILE)
            e[0] = s->while_.cond, what = "while condition";
        else if (s->kind == TL_ST_IF)
            e[0] = s->if_.cond, what = "if condition";
        for (int i = 0; i < 2; i++)
            if (e[i] && tl_hazard_mentions(hz, e[i], vid))
                p->st = tl_diag_error(p->ctx->diag, e[i]->loc.line ? e[i]->loc : s->loc,
                                      "%s depends on vid in code that both the cube and the vector "
                                      "cores run (the cube has no vid)",
                                      what);
    }
    tl_hazard_ctx_free(hz);
}

// --- projection ----------------------------------------------------------------------------------

static tl_stmt_t *vid0_guard(split_t *p, tl_stmt_t *s)
{
    tl_kernel_t *k = p->k;
    tl_expr_t *c = tl_ir_bin(k, TL_BIN_EQ, tl_ir_varref(k, k->vid, s->loc),
                             tl_ir_int(k, 0, TL_I32, s->loc), s->loc);
    tl_stmt_t *g = tl_ir_stmt(k, TL_ST_IF, s->loc);
    g->inserted = true;
    g->if_.cond = c;
    g->if_.then_ = tl_ir_seq(k, s->loc);
    tl_ir_seq_push(k, g->if_.then_, s);
    return g;
}

static tl_stmt_t *project(split_t *p, const tl_stmt_t *s, int side);

static tl_stmt_t *project_seq(split_t *p, const tl_stmt_t *s, int side)
{
    tl_stmt_t *q = tl_ir_seq(p->k, s ? s->loc : p->k->loc);
    if (!s) return q;
    q->origin = s->origin;
    for (int i = 0; i < s->seq.n; i++) {
        tl_stmt_t *c = project(p, s->seq.items[i], side);
        if (!c) continue;
        if (c->kind == TL_ST_SEQ && !c->origin) { // an inlined T.Scope body
            for (int j = 0; j < c->seq.n; j++) tl_ir_seq_push(p->k, q, c->seq.items[j]);
            continue;
        }
        tl_ir_seq_push(p->k, q, c);
    }
    return q;
}

static bool empty(const tl_stmt_t *s)
{
    return !s || (s->kind == TL_ST_SEQ && s->seq.n == 0);
}

static tl_stmt_t *body_of(split_t *p, const tl_stmt_t *b, int side)
{
    if (!b) return NULL;
    if (b->kind == TL_ST_SEQ) return project_seq(p, b, side);
    tl_stmt_t *c = project(p, b, side);
    if (!c) return NULL;
    tl_stmt_t *q = tl_ir_seq(p->k, b->loc);
    tl_ir_seq_push(p->k, q, c);
    return q;
}

static tl_stmt_t *project(split_t *p, const tl_stmt_t *s, int side)
{
    if (!s || !p->need[side][s->origin]) return NULL;
    tl_stmt_t *c;
    switch (s->kind) {
    case TL_ST_SEQ: return project_seq(p, s, side);
    case TL_ST_FOR:
    case TL_ST_WHILE: {
        tl_stmt_t *body = body_of(p, s->kind == TL_ST_FOR ? s->for_.body : s->while_.body, side);
        if (empty(body)) return NULL;
        c = tl_arena_dup(p->k->arena, s, sizeof *s);
        if (s->kind == TL_ST_FOR)
            c->for_.body = body;
        else
            c->while_.body = body;
        return c;
    }
    case TL_ST_IF: {
        tl_stmt_t *t = body_of(p, s->if_.then_, side), *e = body_of(p, s->if_.else_, side);
        if (empty(t) && empty(e)) return NULL;
        c = tl_arena_dup(p->k->arena, s, sizeof *s);
        c->if_.then_ = t ? t : tl_ir_seq(p->k, s->loc);
        c->if_.else_ = empty(e) ? NULL : e;
        return c;
    }
    case TL_ST_SCOPE: {
        if ((s->scope.side == TL_SIDE_CUBE) != (side == SIDE_C)) return NULL;
        tl_stmt_t *b = body_of(p, s->scope.body, side);
        if (b) b->origin = 0; // inlined into the enclosing sequence
        return b;
    }
    default:
        c = tl_rewrite_clone_leaf(p->k, s);
        // Once per block on the vector side: vector core 0 (the lockstep order).
        if ((p->flags[s->origin] & F_ONCE) && side == SIDE_V && p->k->threads == 0)
            c = vid0_guard(p, c);
        return c;
    }
}

tl_status_t tl_pass_cv_split(tl_kernel_t *k, tl_pass_ctx_t *ctx)
{
    if (!k->config.auto_cv_combine || !k->body) return TL_OK;
    int n = tl_rewrite_count(k->body);
    split_t p = {.k = k, .ctx = ctx};
    size_t nv = (size_t)k->vars.len + 1, nb = (size_t)k->buffers.len + 1, ns = (size_t)n + 2;
    p.by_origin = calloc(ns, sizeof *p.by_origin);
    p.parent = calloc(ns, sizeof *p.parent);
    p.side = calloc(ns, 1);
    p.flags = calloc(ns, 1);
    p.let_of = calloc(nv, sizeof *p.let_of);
    for (int s = 0; s < 2; s++) {
        p.need[s] = calloc(ns, sizeof(bool));
        p.var_read[s] = calloc(nv, sizeof(bool));
        p.buf_read[s] = calloc(nb, sizeof(bool));
    }
    bool ok = p.by_origin && p.parent && p.side && p.flags && p.let_of;
    for (int s = 0; s < 2; s++) ok = ok && p.need[s] && p.var_read[s] && p.buf_read[s];
    tl_status_t st = ok ? TL_OK : tl_diag_fail(ctx->diag, TL_ERR_NOMEM, "out of memory");
    if (!st) {
        number(&p, k->body, 0);
        st = classify(&p);
        if (!st) waits_follow(&p);
    }
    if (!st) {
        needs(&p);
        check_needs(&p);
        if (!p.st) check_vid(&p);
        st = p.st;
    }
    if (!st) {
        tl_stmt_t *cube = project(&p, k->body, SIDE_C), *vec = project(&p, k->body, SIDE_V);
        tl_stmt_t *body = tl_ir_seq(k, k->body->loc);
        if (!empty(cube)) tl_ir_seq_push(k, body, tl_rewrite_scope(k, TL_SIDE_CUBE, cube, k->loc));
        if (!empty(vec)) tl_ir_seq_push(k, body, tl_rewrite_scope(k, TL_SIDE_VEC, vec, k->loc));
        k->body = body;
        k->config.auto_cv_combine = false;
        k->cv_split = true;
        if (k->threads == 2 && !empty(vec))
            st = tl_vid_split_run(k, body->seq.items[body->seq.n - 1], ctx);
        else if (k->threads == 2)
            k->threads = 1;
    }
    free(p.by_origin);
    free(p.parent);
    free(p.side);
    free(p.flags);
    free(p.let_of);
    for (int s = 0; s < 2; s++) {
        free(p.need[s]);
        free(p.var_read[s]);
        free(p.buf_read[s]);
    }
    return st;
}
