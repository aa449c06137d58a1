// Static analysis before a run: the side (cube, vector, both, none) of every
// statement, derived from the op table and the operand scopes, and whether the
// kernel needs all blocks resident (mode-0 cross flags, T.sync_all).
//
// Leaves: a tile op goes with its operands' scopes (developer mode: an L0C->UB
// or UB->L1 copy is a vector statement reading or writing the cube's memory; an
// op without on-chip operands goes with its pipe); a scalar store with its
// buffer's scope, or (GM and alloc_var targets, developer mode) with the
// buffers its expressions read (a GM store that reads neither side's memory goes
// with the vector side if it uses vid, else it runs once, on the first lane, as
// the one logical program would); a let with what its value reads; a sync with its
// pipes, or else with the previous leaf that has a side (as upstream CombineCV
// does). Compound statements take the union of their children; an explicit
// T.Scope wins. Statements with side NONE run on every active lane. A compound
// statement that a break or continue leaves is marked to run in lockstep.
#include "exec/exec_int.h"

#include <stdlib.h>

enum { LOCKSTEP = 4, ONCE = 8 }; // flags next to the side bits

struct tl_exec_sidemap {
    const tl_stmt_t **keys;
    uint8_t *vals;
    size_t cap; // power of two
};

static size_t slot(const tl_exec_sidemap_t *m, const tl_stmt_t *s)
{
    uint64_t h = (uint64_t)(uintptr_t)s * UINT64_C(0x9E3779B97F4A7C15);
    size_t i = (size_t)(h >> 32) & (m->cap - 1);
    while (m->keys[i] && m->keys[i] != s) i = (i + 1) & (m->cap - 1);
    return i;
}

static void put(tl_exec_sidemap_t *m, const tl_stmt_t *s, tl_side_t side, int flags)
{
    size_t i = slot(m, s);
    m->keys[i] = s;
    m->vals[i] = (uint8_t)(side | flags);
}

static int count(const tl_stmt_t *s)
{
    if (!s) return 0;
    switch (s->kind) {
    case TL_ST_SEQ: {
        int n = 1;
        for (int i = 0; i < s->seq.n; i++) n += count(s->seq.items[i]);
        return n;
    }
    case TL_ST_FOR: return 1 + count(s->for_.body);
    case TL_ST_WHILE: return 1 + count(s->while_.body);
    case TL_ST_IF: return 1 + count(s->if_.then_) + count(s->if_.else_);
    case TL_ST_SCOPE: return 1 + count(s->scope.body);
    default: return 1;
    }
}

static tl_side_t expr_side(const tl_expr_t *e)
{
    if (!e) return TL_SIDE_NONE;
    switch (e->kind) {
    case TL_EX_LOAD: {
        int side = tl_scope_side(e->load.buf->scope);
        for (int i = 0; i < e->load.n; i++) side |= expr_side(e->load.idx[i]);
        return (tl_side_t)side;
    }
    case TL_EX_BIN: return (tl_side_t)(expr_side(e->op.a) | expr_side(e->op.b));
    case TL_EX_UN: return expr_side(e->op.a);
    case TL_EX_CAST:
    case TL_EX_REINTERPRET: return expr_side(e->arg);
    case TL_EX_SELECT:
        return (tl_side_t)(expr_side(e->sel.cond) | expr_side(e->sel.a) | expr_side(e->sel.b));
    default: return TL_SIDE_NONE;
    }
}

bool tl_exec_side_mentions(const tl_expr_t *e, const tl_var_t *v)
{
    if (!e || !v) return false;
    switch (e->kind) {
    case TL_EX_VAR: return e->var == v;
    case TL_EX_LOAD:
        for (int i = 0; i < e->load.n; i++)
            if (tl_exec_side_mentions(e->load.idx[i], v)) return true;
        return false;
    case TL_EX_BIN: return tl_exec_side_mentions(e->op.a, v) || tl_exec_side_mentions(e->op.b, v);
    case TL_EX_UN: return tl_exec_side_mentions(e->op.a, v);
    case TL_EX_CAST:
    case TL_EX_REINTERPRET: return tl_exec_side_mentions(e->arg, v);
    case TL_EX_SELECT:
        return tl_exec_side_mentions(e->sel.cond, v) || tl_exec_side_mentions(e->sel.a, v) ||
               tl_exec_side_mentions(e->sel.b, v);
    default: return false;
    }
}

static tl_side_t pipe_side(tl_pipe_t p)
{
    switch (p) {
    case TL_PIPE_M:
    case TL_PIPE_MTE1:
    case TL_PIPE_FIX: return TL_SIDE_CUBE;
    case TL_PIPE_V:
    case TL_PIPE_MTE3: return TL_SIDE_VEC;
    default: return TL_SIDE_NONE;
    }
}

tl_side_t tl_exec_side_op(const tl_op_t *op)
{
    int side = TL_SIDE_NONE;
    for (int i = 0; i < op->nargs; i++)
        if (op->args[i].kind == TL_ARG_REGION) side |= tl_scope_side(op->args[i].region.buf->scope);
    return (tl_side_t)side;
}

static tl_side_t sync_side(const tl_stmt_t *s)
{
    switch (s->sync.kind) {
    case TL_SYNC_SET_FLAG:
    case TL_SYNC_WAIT_FLAG: return (tl_side_t)(pipe_side(s->sync.src) | pipe_side(s->sync.dst));
    case TL_SYNC_PIPE_BARRIER:
    case TL_SYNC_SET_CROSS: return pipe_side(s->sync.src);
    default: return TL_SIDE_NONE;
    }
}

// The side of a leaf; *once is set for side-less GM stores and prints, which
// the logical program performs once (on the first lane that reaches them).
static tl_side_t leaf_side(const tl_exec_t *x, const tl_stmt_t *s, tl_side_t *sticky, bool *once)
{
    int side = TL_SIDE_NONE;
    const tl_var_t *vid = x->k->vid;
    bool uses_vid = false;
    *once = false;
    switch (s->kind) {
    case TL_ST_LET:
        if (x->dev) side = expr_side(s->let.value);
        break;
    case TL_ST_STORE:
        side = tl_scope_side(s->store.buf->scope);
        if (side == TL_SIDE_NONE && x->dev) {
            side = expr_side(s->store.value);
            uses_vid = tl_exec_side_mentions(s->store.value, vid);
            for (int i = 0; i < s->store.n; i++) {
                side |= expr_side(s->store.idx[i]);
                uses_vid |= tl_exec_side_mentions(s->store.idx[i], vid);
            }
            if (side == TL_SIDE_NONE && s->store.buf->scope == TL_SCOPE_GM) {
                if (uses_vid)
                    side = TL_SIDE_VEC;
                else
                    *once = true;
            }
        }
        break;
    case TL_ST_OP:
        side = tl_exec_side_op(&s->op);
        if (x->dev && side == TL_SIDE_BOTH) side = TL_SIDE_VEC; // a virtual copy
        if (x->dev && side == TL_SIDE_NONE) side = pipe_side(tl_op_pipe(&s->op));
        break;
    case TL_ST_SYNC:
        if (!x->dev) break;
        side = sync_side(s);
        if (side == TL_SIDE_NONE && s->sync.kind != TL_SYNC_ALL &&
            s->sync.kind != TL_SYNC_BARRIER_ALL)
            side = *sticky;
        break;
    case TL_ST_PRINT:
        if (s->print.region) side = tl_scope_side(s->print.region->buf->scope);
        for (int i = 0; i < s->print.n; i++) {
            side |= expr_side(s->print.args[i]);
            uses_vid |= tl_exec_side_mentions(s->print.args[i], vid);
        }
        if (x->dev && side == TL_SIDE_NONE) {
            if (uses_vid)
                side = TL_SIDE_VEC;
            else
                *once = true;
        }
        break;
    default: break;
    }
    if (side == TL_SIDE_CUBE || side == TL_SIDE_VEC) *sticky = (tl_side_t)side;
    return (tl_side_t)side;
}

// Classifies s and its children. *escapes is set when s contains a break or
// continue that leaves it (such statements must run in lockstep).
static tl_side_t walk(tl_exec_t *x, const tl_stmt_t *s, tl_side_t *sticky, bool *escapes)
{
    *escapes = false;
    if (!s) return TL_SIDE_NONE;
    int side = TL_SIDE_NONE;
    bool e = false, loop_e, once = false;
    switch (s->kind) {
    case TL_ST_SEQ:
        for (int i = 0; i < s->seq.n; i++) {
            side |= walk(x, s->seq.items[i], sticky, &e);
            *escapes |= e;
        }
        break;
    case TL_ST_FOR:
        side = expr_side(s->for_.start) | expr_side(s->for_.end) |
               walk(x, s->for_.body, sticky, &loop_e);
        break;
    case TL_ST_WHILE:
        side = expr_side(s->while_.cond) | walk(x, s->while_.body, sticky, &loop_e);
        break;
    case TL_ST_IF:
        side = expr_side(s->if_.cond) | walk(x, s->if_.then_, sticky, &e);
        *escapes = e;
        side |= walk(x, s->if_.else_, sticky, &e);
        *escapes |= e;
        break;
    case TL_ST_SCOPE:
        walk(x, s->scope.body, sticky, escapes);
        side = s->scope.side;
        break;
    case TL_ST_BREAK:
    case TL_ST_CONTINUE: *escapes = true; break;
    default:
        if (s->kind == TL_ST_SYNC && (s->sync.kind == TL_SYNC_ALL ||
                                      (s->sync.kind == TL_SYNC_SET_CROSS && s->sync.mode == 0)))
            x->all_resident = true;
        side = leaf_side(x, s, sticky, &once);
        break;
    }
    put(x->sides, s, (tl_side_t)side, (*escapes ? LOCKSTEP : 0) | (once ? ONCE : 0));
    return (tl_side_t)side;
}

tl_status_t tl_exec_side_build(tl_exec_t *x)
{
    tl_exec_sidemap_t *m = calloc(1, sizeof *m);
    if (!m) return tl_diag_fail(x->d, TL_ERR_NOMEM, "out of memory");
    x->sides = m;
    size_t n = (size_t)count(x->k->body) * 2 + 2;
    for (m->cap = 16; m->cap < n;) m->cap *= 2;
    m->keys = calloc(m->cap, sizeof *m->keys);
    m->vals = calloc(m->cap, 1);
    if (!m->keys || !m->vals) return tl_diag_fail(x->d, TL_ERR_NOMEM, "out of memory");
    tl_side_t sticky = TL_SIDE_NONE;
    bool escapes;
    walk(x, x->k->body, &sticky, &escapes);
    return TL_OK;
}

void tl_exec_side_free(tl_exec_t *x)
{
    if (!x->sides) return;
    free(x->sides->keys);
    free(x->sides->vals);
    free(x->sides);
    x->sides = NULL;
}

tl_side_t tl_exec_side(const tl_exec_t *x, const tl_stmt_t *s)
{
    size_t i = slot(x->sides, s);
    return x->sides->keys[i] ? (tl_side_t)(x->sides->vals[i] & 3) : TL_SIDE_NONE;
}

bool tl_exec_side_lockstep(const tl_exec_t *x, const tl_stmt_t *s)
{
    size_t i = slot(x->sides, s);
    return x->sides->keys[i] && (x->sides->vals[i] & LOCKSTEP);
}

bool tl_exec_side_once(const tl_exec_t *x, const tl_stmt_t *s)
{
    size_t i = slot(x->sides, s);
    return x->sides->keys[i] && (x->sides->vals[i] & ONCE);
}

uint8_t tl_exec_side_lanes(const tl_exec_t *x, tl_side_t side)
{
    if (side == TL_SIDE_CUBE) return x->lanes & TL_LANE_AIC;
    if (side == TL_SIDE_VEC) return x->lanes & TL_LANE_VECTOR;
    return x->lanes;
}
