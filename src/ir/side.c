// Which core a statement runs on (see side.h for the rules and the modes).
#include "ir/side.h"

#include "ir/walk.h"

#include <stdlib.h>

struct tl_side_map {
    const tl_stmt_t **keys; // open addressing on the statement's address
    uint8_t *vals;          // side | flags
    size_t cap;             // a power of two
    bool all_resident;
};

typedef struct {
    tl_side_map_t *m;
    tl_side_mode_t mode;
    const tl_var_t *vid;
    tl_diag_t *d;
    tl_status_t st;
    tl_side_t sticky; // the side of the last leaf that had one (for syncs)
} walk_t;

static size_t slot(const tl_side_map_t *m, const tl_stmt_t *s)
{
    uint64_t h = (uint64_t)(uintptr_t)s * UINT64_C(0x9E3779B97F4A7C15);
    size_t i = (size_t)(h >> 32) & (m->cap - 1);
    while (m->keys[i] && m->keys[i] != s) i = (i + 1) & (m->cap - 1);
    return i;
}

static void put(tl_side_map_t *m, const tl_stmt_t *s, int side, unsigned flags)
{
    size_t i = slot(m, s);
    m->keys[i] = s;
    m->vals[i] = (uint8_t)((unsigned)side | flags);
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

static bool load_side(void *arg, const tl_expr_t *e)
{
    if (e->kind == TL_EX_LOAD) *(int *)arg |= tl_scope_side(e->load.buf->scope);
    return true;
}

tl_side_t tl_side_expr(const tl_expr_t *e)
{
    int side = TL_SIDE_NONE;
    tl_walk_expr(e, load_side, &side);
    return (tl_side_t)side;
}

tl_side_t tl_side_pipe(tl_pipe_t p)
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

static const char *side_word(int side)
{
    return side == TL_SIDE_CUBE ? "cube" : side == TL_SIDE_VEC ? "vector" : "no";
}

static const char *scope_letter(int side)
{
    return side == TL_SIDE_CUBE ? "C" : "V";
}

static int op_side(walk_t *w, const tl_stmt_t *s)
{
    const tl_op_t *op = &s->op;
    bool split = w->mode == TL_SIDE_MODE_SPLIT;
    int side = TL_SIDE_NONE;
    for (int i = 0; i < op->nargs; i++) {
        const tl_arg_t *a = &op->args[i];
        if (a->kind == TL_ARG_REGION) {
            side |= tl_scope_side(a->region.buf->scope);
            for (int d = 0; split && d < a->region.ndim; d++)
                side |= tl_side_expr(a->region.start[d]);
        } else if (split) {
            side |= tl_side_expr(a->scalar);
        }
    }
    if (side == TL_SIDE_BOTH && split) {
        const tl_buffer_t *c = NULL, *v = NULL;
        for (int i = 0; i < op->nargs; i++) {
            if (op->args[i].kind != TL_ARG_REGION) continue;
            const tl_buffer_t *b = op->args[i].region.buf;
            if (tl_scope_side(b->scope) == TL_SIDE_CUBE && !c) c = b;
            if (tl_scope_side(b->scope) == TL_SIDE_VEC && !v) v = b;
        }
        w->st = tl_diag_error(w->d, s->loc,
                              "%s uses cube memory ('%s', %s) and vector memory ('%s', %s): the "
                              "cores share no scratchpad, hand the tile over through GM",
                              tl_op_info(op->code)->name, c ? c->name : "?",
                              c ? tl_scope_name(c->scope) : "?", v ? v->name : "?",
                              v ? tl_scope_name(v->scope) : "?");
        return TL_SIDE_NONE;
    }
    if (w->mode == TL_SIDE_MODE_EXPERT) return side;
    if (side == TL_SIDE_BOTH) side = TL_SIDE_VEC; // a developer-mode hand-off
    if (side == TL_SIDE_NONE) side = tl_side_pipe(tl_op_pipe(op));
    return side;
}

// The core an intra-core flag of pipes a -> b belongs to: the vector core for
// the pairs with V, the cube core for those with M, MTE1 or FIX; else none.
static int flag_core(tl_pipe_t a, tl_pipe_t b)
{
    bool v = a == TL_PIPE_V || b == TL_PIPE_V;
    bool c = tl_side_pipe(a) == TL_SIDE_CUBE || tl_side_pipe(b) == TL_SIDE_CUBE;
    return v == c ? TL_SIDE_NONE : v ? TL_SIDE_VEC : TL_SIDE_CUBE;
}

static int sync_side(const tl_stmt_t *s)
{
    switch (s->sync.kind) {
    case TL_SYNC_SET_FLAG:
    case TL_SYNC_WAIT_FLAG: return tl_side_pipe(s->sync.src) | tl_side_pipe(s->sync.dst);
    case TL_SYNC_PIPE_BARRIER:
    case TL_SYNC_SET_CROSS: return tl_side_pipe(s->sync.src);
    default: return TL_SIDE_NONE;
    }
}

// A GM store or print that reads no core's memory: the vector cores when it
// uses vid (LOCKSTEP), else ONCE.
static int memoryless(walk_t *w, bool uses_vid, unsigned *flags)
{
    if (w->mode == TL_SIDE_MODE_LOCKSTEP && uses_vid) return TL_SIDE_VEC;
    *flags |= TL_SIDE_ONCE;
    return TL_SIDE_NONE;
}

static int leaf_side(walk_t *w, const tl_stmt_t *s, unsigned *flags)
{
    bool expert = w->mode == TL_SIDE_MODE_EXPERT;
    int side = TL_SIDE_NONE;
    bool uses_vid = false;
    switch (s->kind) {
    case TL_ST_LET:
        if (!expert) side = tl_side_expr(s->let.value);
        break;
    case TL_ST_STORE:
        side = tl_scope_side(s->store.buf->scope);
        if (side != TL_SIDE_NONE || expert) break;
        side = tl_side_expr(s->store.value);
        uses_vid = tl_walk_mentions(s->store.value, w->vid);
        for (int i = 0; i < s->store.n; i++) {
            side |= tl_side_expr(s->store.idx[i]);
            uses_vid |= tl_walk_mentions(s->store.idx[i], w->vid);
        }
        if (side == TL_SIDE_NONE && s->store.buf->scope == TL_SCOPE_GM)
            side = memoryless(w, uses_vid, flags);
        break;
    case TL_ST_OP: side = op_side(w, s); break;
    case TL_ST_SYNC:
        if (expert) {
            // Outside T.Scope a flag of one core's pipes runs on that core only:
            // AscendC's SetFlag / WaitFlag return at once on the AIC for the
            // vector pairs and on the AIV for the cube pairs (asc-devkit
            // kernel_operator_block_sync_intf_impl.h, ASCEND_IS_AIC / _AIV).
            if (s->sync.kind == TL_SYNC_SET_FLAG || s->sync.kind == TL_SYNC_WAIT_FLAG)
                side = flag_core(s->sync.src, s->sync.dst);
            // and PipeBarrier<PIPE_V> returns at once on the AIC of arch 2201
            // (asc-devkit impl/basic_api/kernel_reg.h, PipeBarrierImpl)
            if (s->sync.kind == TL_SYNC_PIPE_BARRIER && s->sync.src == TL_PIPE_V)
                side = TL_SIDE_VEC;
            break;
        }
        side = sync_side(s);
        // barrier_all too goes with the previous statement: upstream's CombineCV keeps a
        // call without a core of its own (tl.ascend_pipe_barrier("ALL")) in the program of
        // the last classified statement (ascend_combinecv.cc, current_proccess_switch_)
        if (side == TL_SIDE_NONE && s->sync.kind != TL_SYNC_ALL) side = w->sticky;
        break;
    case TL_ST_PRINT:
        if (s->print.region) side = tl_scope_side(s->print.region->buf->scope);
        for (int i = 0; i < s->print.n; i++) {
            side |= tl_side_expr(s->print.args[i]);
            uses_vid |= tl_walk_mentions(s->print.args[i], w->vid);
        }
        if (side == TL_SIDE_NONE && !expert) side = memoryless(w, uses_vid, flags);
        if (side == TL_SIDE_BOTH && w->mode == TL_SIDE_MODE_SPLIT)
            w->st = tl_diag_error(w->d, s->loc, "a print reads cube and vector memory");
        break;
    default: break;
    }
    if (side == TL_SIDE_CUBE || side == TL_SIDE_VEC) w->sticky = (tl_side_t)side;
    return side;
}

// Inside T.Scope (SPLIT): the leaf takes the scope's side, unless it works on
// the other core's memory.
static int force(walk_t *w, const tl_stmt_t *s, int side, tl_side_t forced, unsigned *flags)
{
    if (side != TL_SIDE_NONE && side != (int)forced && s->kind != TL_ST_SYNC) {
        w->st = tl_diag_error(w->d, s->loc,
                              "this statement works on %s memory but is inside T.Scope(\"%s\")",
                              side_word(side), scope_letter(forced));
        return TL_SIDE_NONE;
    }
    *flags = (*flags | TL_SIDE_FORCED) & ~(unsigned)TL_SIDE_ONCE;
    return forced;
}

// Classifies s and its children; forced: the enclosing T.Scope's side (SPLIT
// only). *escapes is set when a break or continue inside s leaves it.
static int walk(walk_t *w, const tl_stmt_t *s, tl_side_t forced, bool *escapes)
{
    *escapes = false;
    if (!s || w->st) return TL_SIDE_NONE;
    int side = TL_SIDE_NONE;
    unsigned flags = 0;
    bool e = false;
    switch (s->kind) {
    case TL_ST_SEQ:
        for (int i = 0; i < s->seq.n; i++) {
            side |= walk(w, s->seq.items[i], forced, &e);
            *escapes |= e;
        }
        break;
    case TL_ST_FOR:
        side = tl_side_expr(s->for_.start) | tl_side_expr(s->for_.end) |
               walk(w, s->for_.body, forced, &e);
        break;
    case TL_ST_WHILE:
        side = tl_side_expr(s->while_.cond) | walk(w, s->while_.body, forced, &e);
        break;
    case TL_ST_IF:
        side = tl_side_expr(s->if_.cond) | walk(w, s->if_.then_, forced, &e);
        *escapes = e;
        side |= walk(w, s->if_.else_, forced, &e);
        *escapes |= e;
        break;
    case TL_ST_SCOPE:
        if (w->mode == TL_SIDE_MODE_SPLIT) {
            if (forced != TL_SIDE_NONE && forced != s->scope.side) {
                w->st = tl_diag_error(w->d, s->loc, "T.Scope(\"%s\") inside T.Scope(\"%s\")",
                                      scope_letter(s->scope.side), scope_letter(forced));
                return TL_SIDE_NONE;
            }
            forced = s->scope.side;
        }
        walk(w, s->scope.body, forced, escapes);
        side = s->scope.side;
        break;
    case TL_ST_BREAK:
    case TL_ST_CONTINUE: *escapes = true; break;
    default:
        if (s->kind == TL_ST_SYNC && (s->sync.kind == TL_SYNC_ALL ||
                                      (s->sync.kind == TL_SYNC_SET_CROSS && s->sync.mode == 0)))
            w->m->all_resident = true;
        side = leaf_side(w, s, &flags);
        if (forced != TL_SIDE_NONE && !w->st) side = force(w, s, side, forced, &flags);
        break;
    }
    if (w->st) return TL_SIDE_NONE;
    put(w->m, s, side, flags | (*escapes ? TL_SIDE_ESCAPES : 0));
    return side;
}

// --- what each core skips (EXPERT) ---------------------------------------------------------

typedef struct {
    const tl_side_map_t *m;
    int n;
    const tl_stmt_t **by; // pre-order, from 1
    int *parent;
    uint8_t *scope; // the enclosing T.Scope's side
} order_t;

static void order(order_t *o, const tl_stmt_t *s, int parent, tl_side_t scope)
{
    if (!s) return;
    int i = ++o->n;
    o->by[i] = s;
    o->parent[i] = parent;
    o->scope[i] = (uint8_t)scope;
    switch (s->kind) {
    case TL_ST_SEQ:
        for (int j = 0; j < s->seq.n; j++) order(o, s->seq.items[j], i, scope);
        break;
    case TL_ST_FOR: order(o, s->for_.body, i, scope); break;
    case TL_ST_WHILE: order(o, s->while_.body, i, scope); break;
    case TL_ST_IF:
        order(o, s->if_.then_, i, scope);
        order(o, s->if_.else_, i, scope);
        break;
    case TL_ST_SCOPE: order(o, s->scope.body, i, s->scope.side); break;
    default: break;
    }
}

// Whether core `core` runs statement s for its own sake (an effect there),
// before closing over what such statements read.
static bool seeds(const order_t *o, int i, tl_side_t core)
{
    const tl_stmt_t *s = o->by[i];
    if (o->scope[i] != TL_SIDE_NONE && o->scope[i] != core) return false;
    switch (s->kind) {
    case TL_ST_STORE:
        if (s->store.buf->scope == TL_SCOPE_VAR) return false; // by what reads it
        /* fallthrough */
    case TL_ST_OP:
    case TL_ST_PRINT:
    case TL_ST_SYNC: {
        // inside T.Scope everything runs (a wrong-core statement is reported there)
        tl_side_t side = tl_side_get(o->m, s);
        return o->scope[i] == core || side == TL_SIDE_NONE || (side & core);
    }
    case TL_ST_WHILE: {
        // it may never end: skipping it would hide the hang, unless only the
        // other core can evaluate its condition
        tl_side_t r = tl_side_expr(s->while_.cond);
        return r == TL_SIDE_NONE || (r & core);
    }
    default: return false; // lets, break / continue, for, if: by what needs them
    }
}

static tl_status_t mark_skips(tl_side_map_t *m, const tl_kernel_t *k, tl_diag_t *d)
{
    int n = count(k->body);
    order_t o = {m, 0, calloc((size_t)n + 1, sizeof *o.by), calloc((size_t)n + 1, sizeof(int)),
                 calloc((size_t)n + 1, 1)};
    bool *need = calloc((size_t)n + 1, sizeof(bool));
    bool *var_read = calloc((size_t)k->vars.len + 1, sizeof(bool));
    bool *buf_read = calloc((size_t)k->buffers.len + 1, sizeof(bool));
    tl_status_t st = TL_OK;
    if (!o.by || !o.parent || !o.scope || !need || !var_read || !buf_read)
        st = tl_diag_fail(d, TL_ERR_NOMEM, "out of memory");
    else
        order(&o, k->body, 0, TL_SIDE_NONE);
    static const tl_side_t cores[] = {TL_SIDE_CUBE, TL_SIDE_VEC};
    for (int c = 0; c < 2 && !st; c++) {
        for (int i = 1; i <= o.n; i++) need[i] = seeds(&o, i, cores[c]);
        tl_side_need_close(k, o.n, o.by, o.parent, need, var_read, buf_read);
        unsigned skip = cores[c] == TL_SIDE_CUBE ? TL_SIDE_SKIP_CUBE : TL_SIDE_SKIP_VEC;
        for (int i = 2; i <= o.n; i++) { // the body itself always runs (then skips its items)
            if (need[i]) continue;
            size_t j = slot(m, o.by[i]);
            m->vals[j] = (uint8_t)(m->vals[j] | skip);
        }
    }
    free(o.by);
    free(o.parent);
    free(o.scope);
    free(need);
    free(var_read);
    free(buf_read);
    return st;
}

tl_status_t tl_side_map_build(const tl_kernel_t *k, tl_side_mode_t mode, tl_diag_t *d,
                              tl_side_map_t **out)
{
    *out = NULL;
    tl_side_map_t *m = calloc(1, sizeof *m);
    if (!m) return tl_diag_fail(d, TL_ERR_NOMEM, "out of memory");
    size_t n = (size_t)count(k->body) * 2 + 2;
    for (m->cap = 16; m->cap < n;) m->cap *= 2;
    m->keys = calloc(m->cap, sizeof *m->keys);
    m->vals = calloc(m->cap, 1);
    if (!m->keys || !m->vals) {
        tl_side_map_free(m);
        return tl_diag_fail(d, TL_ERR_NOMEM, "out of memory");
    }
    walk_t w = {m, mode, k->vid, d, TL_OK, TL_SIDE_NONE};
    bool escapes;
    walk(&w, k->body, TL_SIDE_NONE, &escapes);
    if (!w.st && mode == TL_SIDE_MODE_EXPERT) w.st = mark_skips(m, k, d);
    if (w.st) {
        tl_side_map_free(m);
        return w.st;
    }
    *out = m;
    return TL_OK;
}

void tl_side_map_free(tl_side_map_t *m)
{
    if (!m) return;
    free(m->keys);
    free(m->vals);
    free(m);
}

tl_side_t tl_side_get(const tl_side_map_t *m, const tl_stmt_t *s)
{
    size_t i = slot(m, s);
    return m->keys[i] ? (tl_side_t)(m->vals[i] & 3) : TL_SIDE_NONE;
}

unsigned tl_side_flags(const tl_side_map_t *m, const tl_stmt_t *s)
{
    size_t i = slot(m, s);
    return m->keys[i] ? m->vals[i] & ~3u : 0;
}

bool tl_side_skips(const tl_side_map_t *m, const tl_stmt_t *s, tl_side_t core)
{
    unsigned f = tl_side_flags(m, s);
    return core == TL_SIDE_CUBE ? (f & TL_SIDE_SKIP_CUBE) != 0 : (f & TL_SIDE_SKIP_VEC) != 0;
}

bool tl_side_all_resident(const tl_side_map_t *m)
{
    return m->all_resident;
}

tl_side_mode_t tl_side_run_mode(const tl_kernel_t *k)
{
    return k->config.auto_cv_combine ? TL_SIDE_MODE_LOCKSTEP : TL_SIDE_MODE_EXPERT;
}

const char *tl_side_agent_name(tl_agent_t a)
{
    static const char *names[] = {"AIC", "AIV0", "AIV1"};
    return a < TL_AGENT_COUNT ? names[a] : "?";
}

uint8_t tl_side_block_lanes(const tl_kernel_t *k)
{
    return (uint8_t)(TL_LANE_AIC | TL_LANE(TL_AGENT_AIV0) |
                     (k->threads ? 0 : TL_LANE(TL_AGENT_AIV1)));
}

uint8_t tl_side_lanes(uint8_t lanes, tl_side_t side)
{
    if (side == TL_SIDE_CUBE) return lanes & TL_LANE_AIC;
    if (side == TL_SIDE_VEC) return lanes & TL_LANE_VECTOR;
    return lanes;
}
