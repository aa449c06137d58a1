// pipelined: T.Pipelined(n, num_stages=s) loops become multi-buffered
// software pipelines (prologue, steady state, epilogue).
//
// requires: physical scopes; T.Parallel lowered and workspaces inserted; runs
//           on the single developer-mode program, before the CV split, so that
//           the split and both sync passes see the final loop structure
// ensures:  no loop of kind pipelined is left; every iteration of the original
//           loop runs exactly once, in order, for any trip count (0, fewer than
//           s, not a multiple of s, symbolic, any start); the program computes
//           what the loop computed. No synchronisation is inserted.
//
// Stage 0 (loads) are top-level statements of the body that copy a GM tensor
// nothing in the kernel writes into an on-chip buffer the copy overwrites
// entirely, that the body does not touch before the copy and that nothing
// outside the loop uses, with indices computed from the loop variable,
// loop-invariant values and lets without loads. Everything else is stage 1.
// With D = s - 1, the loads of iteration j + D are issued right after the rest
// of iteration j, so that they overlap the next D iterations' work (after it
// in program order, they never hold up iteration j's waits: a wait on a pipe
// covers every earlier instruction of that pipe, gemm_v0's internal ones
// included); their buffers get s versions, one per iteration modulo s. Internal GM workspaces used
// only in the loop (the hand-offs between cube and vector cores that workspace.c made) get s
// versions too, so that the producing core can run s iterations ahead of the consuming one; the
// cross-core sync pass sees a separate buffer per version.
//
// The body is unrolled s times so that every version is a separate buffer
// with a static address (the intra-core sync pass then sees them as
// independent):
//   n' = max(end - start, 0), G = (n' - D) / s, x_j = start + j
//   prologue  for u < D:                    if u < n': load(u)
//   steady    for g < G, u < s (unrolled):  rest(j); load(j + D)     j = g*s + u
//   epilogue  for u < D + s - 1 (unrolled): j = G*s + u; if j < n':
//                                             rest(j); if j + D < n': load(j + D)
// Loops with hand-offs between the cores keep every hand-off (and so its
// cross-core flags) inside one loop over groups of s steps. When the body
// splits into runs of cube and of vector statements (R of them, every let used
// only in its own run, the kernel's own intra-core flags and pipe barriers with
// the core of their pipes or the statement before them, each flag's sets and
// waits in one run) and every buffer two runs share is a fresh value in
// each iteration (it then gets s versions too; a compare's mask written before
// it is read counts as fresh):
//  - staggered, when no buffer is touched by runs more than s - 1 apart: run r
//    of iteration j runs in step j + r, each step its runs from the last to
//    the first; both cores keep working on different iterations (a software
//    pipeline across the cores; the loop is marked so that cross_sync reads a
//    read before a write in its body as a read of an earlier step's write);
//  - otherwise batched: for each run in order, for u < s: if j < n': run(j),
//    j = g*s + u. Each core does s iterations of a run in one stretch
//    (upstream's CrossCorePipeline order, without its dropped or shifted
//    iterations);
//  - otherwise guarded, with a note: prologue as above; for u < s: if j < n':
//    rest(j); if j + D < n': load(j + D).
// Guards on constant trip counts fold away. A loop with a break or continue,
// or with nothing to multi-buffer, runs as a plain serial loop (with a note).
#include "pass/pass.h"

#include "ir/access.h"
#include "ir/side.h"
#include "ir/walk.h"
#include "pass/live.h"
#include "pass/subst.h"

#include <stdio.h>
#include <string.h>

enum { MAX_ITEMS = 256, MAX_VERS = 32, MAX_STAGES = 8 };

typedef struct {
    const tl_buffer_t *b;
    tl_buffer_t *v[MAX_STAGES];
    int n; // versions: s, or for hand-offs between pipes a divisor of s
} versioned_t;

typedef struct {
    tl_kernel_t *k;
    tl_pass_ctx_t *ctx;
    // the loop being pipelined
    tl_stmt_t *loop;
    int s, d;
    tl_stmt_t *items[MAX_ITEMS];
    int n;
    bool load[MAX_ITEMS];   // stage 0
    bool needed[MAX_ITEMS]; // lets the loads use
    versioned_t vers[MAX_VERS];
    int nvers;
    const tl_stmt_t *skip; // the loop, while looking for uses outside it
    int loop_id;           // counts the loops pipelined (buffer version groups)
} pipe_t;

static bool flatten(pipe_t *p, tl_stmt_t *s)
{
    if (!s) return true;
    if (s->kind == TL_ST_SEQ) {
        for (int i = 0; i < s->seq.n; i++)
            if (!flatten(p, s->seq.items[i])) return false;
        return true;
    }
    if (p->n == MAX_ITEMS) return false;
    p->items[p->n++] = s;
    return true;
}

// --- facts about buffers ------------------------------------------------------------

typedef struct {
    const tl_buffer_t *b;
    unsigned mode; // accesses seen
} probe_t;

static void probe_fn(void *arg, const tl_access_t *a)
{
    probe_t *q = arg;
    if (a->buf == q->b) q->mode |= a->mode;
}

// How the tree s (without `skip`) accesses b.
static unsigned accesses(const tl_stmt_t *s, const tl_stmt_t *skip, const tl_buffer_t *b)
{
    probe_t q = {b, 0};
    tl_access_tree(s, skip, probe_fn, &q);
    return q.mode;
}

static bool let_mentioned(const tl_var_t *v, const tl_stmt_t *s)
{
    if (s->kind == TL_ST_LET) return tl_walk_mentions(s->let.value, v);
    const tl_op_t *op = &s->op;
    for (int i = 0; i < op->nargs; i++) {
        const tl_arg_t *a = &op->args[i];
        if (a->kind == TL_ARG_SCALAR && tl_walk_mentions(a->scalar, v)) return true;
        for (int d = 0; a->kind == TL_ARG_REGION && d < a->region.ndim; d++)
            if (tl_walk_mentions(a->region.start[d], v) ||
                tl_walk_mentions(a->region.extent[d], v))
                return true;
    }
    return tl_walk_mentions(op->pad_value, v) || tl_walk_mentions(op->k_valid, v) ||
           tl_walk_mentions(op->n_valid, v) || tl_walk_mentions(op->unit_flag, v);
}

// Whether item i can be a stage-0 load; marks the lets it needs.
static bool is_load(pipe_t *p, int i, bool *needed)
{
    const tl_stmt_t *s = p->items[i];
    if (s->kind != TL_ST_OP || s->op.code != TL_OP_COPY || s->op.nargs != 2) return false;
    const tl_region_t *src = &s->op.args[0].region, *dst = &s->op.args[1].region;
    tl_buffer_t *b = dst->buf;
    if (src->buf->scope != TL_SCOPE_GM || (b->scope != TL_SCOPE_L1 && b->scope != TL_SCOPE_UB) ||
        b->addr_pinned)
        return false;
    if (accesses(p->k->body, NULL, src->buf) & TL_ACCESS_WRITE) return false; // not read-only
    if (!tl_access_region_whole(dst) || accesses(p->k->body, p->skip, b)) return false;
    for (int j = 0; j < p->n; j++)
        if (j != i && (accesses(p->items[j], NULL, b) & (j < i ? 3u : TL_ACCESS_WRITE)))
            return false;
    // region expressions: the loop variable, invariants and lets without loads
    for (int a = 0; a < 2; a++) {
        const tl_region_t *r = &s->op.args[a].region;
        for (int d = 0; d < r->ndim; d++)
            if (tl_walk_has_load(r->start[d]) || tl_walk_has_load(r->extent[d])) return false;
    }
    if (tl_walk_has_load(s->op.pad_value) || tl_walk_has_load(s->op.k_valid) ||
        tl_walk_has_load(s->op.n_valid))
        return false;
    memset(needed, 0, sizeof(bool) * (size_t)p->n);
    needed[i] = true;
    for (int j = i - 1; j >= 0; j--) {
        const tl_stmt_t *l = p->items[j];
        if (l->kind != TL_ST_LET) continue;
        for (int u = j + 1; u <= i && !needed[j]; u++)
            if (needed[u] && let_mentioned(l->let.var, p->items[u])) needed[j] = true;
        if (needed[j] && tl_walk_has_load(l->let.value)) return false;
    }
    needed[i] = false;
    return true;
}

static bool name_taken(const tl_kernel_t *k, const char *name)
{
    for (int i = 0; i < k->buffers.len; i++)
        if (!strcmp(((tl_buffer_t *)k->buffers.items[i])->name, name)) return true;
    return false;
}

static void add_param(tl_kernel_t *k, tl_buffer_t *b)
{
    tl_param_t *p = tl_arena_alloc(k->arena, sizeof *p * (size_t)(k->nparams + 1));
    if (k->nparams) memcpy(p, k->params, sizeof *p * (size_t)k->nparams);
    p[k->nparams] = (tl_param_t){b->name, TL_ROLE_WORKSPACE, b, NULL};
    b->param = k->nparams;
    k->params = p;
    k->nparams++;
}

// Buffer b with n versions (n divides s): b itself and n - 1 copies.
static bool version_n(pipe_t *p, tl_buffer_t *b, int n)
{
    for (int i = 0; i < p->nvers; i++)
        if (p->vers[i].b == b) return true;
    if (p->nvers == MAX_VERS) return false;
    versioned_t *v = &p->vers[p->nvers++];
    v->b = b;
    v->n = n;
    v->v[0] = b;
    b->version_group = p->loop_id;
    b->version = 0;
    for (int i = 1; i < n; i++) {
        char name[128];
        snprintf(name, sizeof name, "%s_v%d", b->name, i);
        for (int u = 1; name_taken(p->k, name); u++)
            snprintf(name, sizeof name, "%s_v%d_%d", b->name, i, u);
        tl_buffer_t *c = tl_ir_buffer(p->k, name, b->scope, b->dtype, b->ndim, b->shape, b->loc);
        memcpy(c->gm_shape, b->gm_shape, sizeof c->gm_shape);
        c->declared = b->declared;
        c->int4 = b->int4;
        c->internal = true;
        c->version_group = p->loop_id;
        c->version = i;
        if (b->scope == TL_SCOPE_GM) add_param(p->k, c);
        v->v[i] = c;
    }
    return true;
}

static bool version(pipe_t *p, tl_buffer_t *b)
{
    return version_n(p, b, p->s);
}

// --- hand-offs between pipes inside an iteration ------------------------------------------

typedef struct {
    unsigned *written, *used; // per buffer id: the pipes that write it / access it
    const tl_op_t *op;        // the statement's op, or NULL (scalar code)
} pipe_use_t;

static void on_pipe_use(void *arg, const tl_access_t *a)
{
    pipe_use_t *w = arg;
    tl_pipe_t pipe = TL_PIPE_S; // scalar statements, and scalar operands of ops
    if (w->op && a->region) {
        pipe = tl_op_pipe(w->op);
        if (w->op->code == TL_OP_GEMM_V0 && a->buf->scope == TL_SCOPE_L1) pipe = TL_PIPE_MTE1;
    }
    w->used[a->buf->id] |= 1u << pipe;
    if (a->mode & TL_ACCESS_WRITE) w->written[a->buf->id] |= 1u << pipe;
}

static void collect_pipe_uses(pipe_use_t *w, const tl_stmt_t *s)
{
    if (!s) return;
    w->op = s->kind == TL_ST_OP ? &s->op : NULL;
    tl_access_stmt(s, on_pipe_use, w);
    switch (s->kind) {
    case TL_ST_SEQ:
        for (int i = 0; i < s->seq.n; i++) collect_pipe_uses(w, s->seq.items[i]);
        break;
    case TL_ST_FOR: collect_pipe_uses(w, s->for_.body); break;
    case TL_ST_WHILE: collect_pipe_uses(w, s->while_.body); break;
    case TL_ST_IF:
        collect_pipe_uses(w, s->if_.then_);
        collect_pipe_uses(w, s->if_.else_);
        break;
    case TL_ST_SCOPE: collect_pipe_uses(w, s->scope.body); break;
    default: break;
    }
}

// Bytes of scope sc when no buffer shares an address (the versions made so
// far included).
static int64_t unshared_bytes(const tl_kernel_t *k, tl_scope_t sc)
{
    int64_t sum = 0;
    for (int i = 0; i < k->buffers.len; i++) {
        const tl_buffer_t *b = k->buffers.items[i];
        if (b->scope == sc) sum += TL_ALIGN_UP(tl_buffer_bytes(b), tl_memplan_align(sc));
    }
    return sum;
}

// On-chip buffers that one pipe fills and another pipe reads within an
// iteration (L1 -> L0A on MTE1, read by the mma on M) get versions too (s, or
// the largest divisor of s that fits, so that consecutive iterations still
// alternate) when
// nothing outside the loop uses them and no value of theirs flows around the
// back edge: the producing pipe then fills iteration j + 1's version while the
// consuming one still reads iteration j's, where with one buffer it would wait
// for it (a write-after-read across iterations). Only when the scope holds every
// buffer and version without any address sharing, so this never makes a
// kernel that fits run out of space (memory planning comes later).
static void version_handoffs(pipe_t *p)
{
    tl_kernel_t *k = p->k;
    int nb = k->buffers.len;
    unsigned *masks = tl_arena_alloc(k->arena, sizeof *masks * (size_t)(2 * nb + 1));
    memset(masks, 0, sizeof *masks * (size_t)(2 * nb + 1));
    pipe_use_t w = {masks, masks + nb, NULL};
    collect_pipe_uses(&w, p->loop->for_.body);
    for (int i = 0; i < nb; i++) {
        tl_buffer_t *b = k->buffers.items[i];
        unsigned wr = w.written[i], use = w.used[i];
        bool chip = b->scope == TL_SCOPE_L1 || b->scope == TL_SCOPE_L0A ||
                    b->scope == TL_SCOPE_L0B || b->scope == TL_SCOPE_L0C || b->scope == TL_SCOPE_UB;
        // one writing pipe, and some other pipe that uses the buffer
        if (!chip || b->addr_pinned || !wr || (wr & (wr - 1)) || !(use & ~wr)) continue;
        bool done = false;
        for (int v = 0; v < p->nvers; v++) done |= p->vers[v].b == b;
        if (done || accesses(k->body, p->skip, b) || tl_live_carried(k, p->loop, b)) continue;
        int64_t size = TL_ALIGN_UP(tl_buffer_bytes(b), tl_memplan_align(b->scope));
        int64_t room = tl_memplan_capacity(k, b->scope) - unshared_bytes(k, b->scope);
        int n = p->s;
        while (n >= 2 && (p->s % n || (int64_t)(n - 1) * size > room)) n--;
        if (n >= 2 && !version_n(p, b, n)) return;
    }
}

// Vector-only loops of a kernel the schedule pass reorders (auto sync): every
// UB buffer whose value is fresh in each iteration (nothing outside the loop
// uses it, its value does not flow around the back edge) gets s versions too,
// when all of them fit together with every buffer of UB without sharing an
// address. The s unrolled iterations then touch separate buffers, so the
// schedule pass can interleave their chains of dependent vector ops (one
// pipe barrier orders a pair of independent ops instead of one).
static void version_locals(pipe_t *p)
{
    tl_kernel_t *k = p->k;
    if (!k->config.auto_sync || !k->config.schedule || k->config.sync_baseline) return;
    const tl_stmt_t *body = p->loop->for_.body;
    tl_buffer_t *cand[MAX_VERS];
    int n = 0;
    int64_t extra = 0;
    for (int i = 0; i < k->buffers.len; i++) {
        tl_buffer_t *b = k->buffers.items[i];
        if (b->scope == TL_SCOPE_GM || b->scope == TL_SCOPE_VAR || !accesses(body, NULL, b))
            continue;
        if (b->scope != TL_SCOPE_UB) return; // cube memory: not vector-only
        bool done = false;
        for (int v = 0; v < p->nvers; v++) done |= p->vers[v].b == b;
        if (done || b->addr_pinned || accesses(k->body, p->skip, b) ||
            tl_live_carried(k, p->loop, b))
            continue;
        if (n == MAX_VERS || p->nvers + n >= MAX_VERS) return;
        cand[n++] = b;
        extra += (int64_t)(p->s - 1) * TL_ALIGN_UP(tl_buffer_bytes(b), tl_memplan_align(b->scope));
    }
    if (!n || extra > tl_memplan_capacity(k, TL_SCOPE_UB) - unshared_bytes(k, TL_SCOPE_UB)) return;
    for (int i = 0; i < n; i++) version(p, cand[i]);
}

// A GM workspace the runtime allocates (a pass's, or one named by
// workspace_idx): nobody outside the kernel sees it, so it may get versions.
static bool runtime_workspace(const tl_kernel_t *k, const tl_buffer_t *b)
{
    for (int i = 0; i < k->nparams; i++)
        if (k->params[i].buf == b) return k->params[i].role == TL_ROLE_WORKSPACE;
    return false;
}

static void collect_workspaces(pipe_t *p)
{
    tl_kernel_t *k = p->k;
    for (int i = 0; i < k->nparams; i++) {
        tl_buffer_t *b = k->params[i].buf;
        if (!b || k->params[i].role != TL_ROLE_WORKSPACE) continue;
        if (!accesses(p->loop->for_.body, NULL, b) || accesses(k->body, p->skip, b)) continue;
        version(p, b);
    }
}

// --- emission ---------------------------------------------------------------------------

// The substitution for iteration j (loop variable start + j, versions j % s).
static void iteration(pipe_t *p, tl_subst_t *m, tl_expr_t *j, int vers)
{
    tl_kernel_t *k = p->k;
    tl_stmt_t *l = p->loop;
    tl_subst_init(m);
    m->fresh_vars = true;
    tl_expr_t *x = tl_ir_bin(k, TL_BIN_ADD, l->for_.start, j, l->loc);
    tl_subst_var(m, l->for_.var, tl_ir_cast(k, l->for_.var->dtype, x, l->loc));
    for (int i = 0; i < p->nvers; i++)
        tl_subst_buffer(m, p->vers[i].b, p->vers[i].v[vers % p->vers[i].n]);
}

// Appends the loads (with the lets they need) or the rest of iteration j.
static void emit_part(pipe_t *p, tl_stmt_t *seq, tl_expr_t *j, int vers, bool loads)
{
    tl_subst_t m;
    iteration(p, &m, j, vers);
    for (int i = 0; i < p->n; i++) {
        bool take = loads ? p->load[i] || p->needed[i] : !p->load[i];
        if (take) tl_ir_seq_push(p->k, seq, tl_subst_stmt(p->k, &m, p->items[i]));
    }
    tl_subst_free(&m);
}

// `if cond: body`, folded when cond is a constant.
static void guarded(tl_kernel_t *k, tl_stmt_t *seq, tl_expr_t *cond, tl_stmt_t *body)
{
    int64_t c;
    if (tl_ir_is_const_int(cond, &c)) {
        if (c) tl_ir_seq_push(k, seq, body);
        return;
    }
    tl_stmt_t *s = tl_ir_stmt(k, TL_ST_IF, body->loc);
    s->inserted = true;
    s->if_.cond = cond;
    s->if_.then_ = body;
    tl_ir_seq_push(k, seq, s);
}

static tl_expr_t *num(tl_kernel_t *k, int64_t v, tl_loc_t loc)
{
    return tl_ir_int(k, v, TL_I32, loc);
}

// j < trip for j = g*s + u, g < ceil(trip / s); true when trip is a constant
// multiple of s.
static tl_expr_t *in_range(pipe_t *p, tl_expr_t *j, tl_expr_t *trip)
{
    int64_t n;
    if (tl_ir_is_const_int(trip, &n) && n % p->s == 0) return tl_ir_int(p->k, 1, TL_BOOL, j->loc);
    return tl_ir_bin(p->k, TL_BIN_LT, j, trip, j->loc);
}

static tl_expr_t *trip_count(pipe_t *p)
{
    tl_kernel_t *k = p->k;
    tl_stmt_t *l = p->loop;
    tl_expr_t *trip = tl_ir_bin(k, TL_BIN_SUB, l->for_.end, l->for_.start, l->loc);
    return tl_ir_bin(k, TL_BIN_MAX, tl_ir_cast(k, TL_I32, trip, l->loc), num(k, 0, l->loc), l->loc);
}

static void prologue(pipe_t *p, tl_stmt_t *out, tl_expr_t *trip)
{
    tl_kernel_t *k = p->k;
    tl_loc_t loc = p->loop->loc;
    for (int u = 0; u < p->d; u++) {
        tl_stmt_t *body = tl_ir_seq(k, loc);
        emit_part(p, body, num(k, u, loc), u % p->s, true);
        guarded(k, out, tl_ir_bin(k, TL_BIN_LT, num(k, u, loc), trip, loc), body);
    }
}

// `for <var>_group in 0..groups:` with an empty body.
static tl_stmt_t *group_loop(pipe_t *p, tl_expr_t *groups)
{
    tl_kernel_t *k = p->k;
    tl_stmt_t *l = p->loop;
    char gname[96];
    snprintf(gname, sizeof gname, "%s_group", l->for_.var->name);
    tl_stmt_t *loop = tl_ir_stmt(k, TL_ST_FOR, l->loc);
    loop->for_.var = tl_ir_var(k, gname, TL_I32, TL_VAR_LOOP, l->loc);
    loop->for_.start = num(k, 0, l->loc);
    loop->for_.end = groups;
    loop->for_.loop = TL_LOOP_SERIAL;
    loop->for_.body = tl_ir_seq(k, l->loc);
    return loop;
}

// The loop over every group of s iterations, ceil(trip / s) of them; *base is
// g * s.
static tl_stmt_t *all_groups(pipe_t *p, tl_expr_t *trip, tl_expr_t **base)
{
    tl_kernel_t *k = p->k;
    tl_loc_t loc = p->loop->loc;
    tl_expr_t *groups =
        tl_ir_bin(k, TL_BIN_DIV, tl_ir_bin(k, TL_BIN_ADD, trip, num(k, p->s - 1, loc), loc),
                  num(k, p->s, loc), loc);
    tl_stmt_t *loop = group_loop(p, groups);
    *base = tl_ir_bin(k, TL_BIN_MUL, tl_ir_varref(k, loop->for_.var, loc), num(k, p->s, loc), loc);
    return loop;
}

// Appends loop unless its trip count is the constant 0.
static void push_loop(tl_kernel_t *k, tl_stmt_t *out, tl_stmt_t *loop)
{
    int64_t n;
    if (!tl_ir_is_const_int(loop->for_.end, &n) || n > 0) tl_ir_seq_push(k, out, loop);
}

static tl_stmt_t *pipeline(pipe_t *p)
{
    tl_kernel_t *k = p->k;
    tl_stmt_t *l = p->loop;
    tl_loc_t loc = l->loc;
    int s = p->s, d = p->d;
    tl_expr_t *trip = trip_count(p);
    tl_stmt_t *out = tl_ir_seq(k, loc);
    prologue(p, out, trip);
    // steady state
    tl_expr_t *groups = tl_ir_bin(
        k, TL_BIN_DIV, tl_ir_bin(k, TL_BIN_SUB, trip, num(k, d, loc), loc), num(k, s, loc), loc);
    tl_stmt_t *steady = group_loop(p, groups);
    tl_expr_t *base =
        tl_ir_bin(k, TL_BIN_MUL, tl_ir_varref(k, steady->for_.var, loc), num(k, s, loc), loc);
    for (int u = 0; u < s; u++) {
        tl_expr_t *j = tl_ir_bin(k, TL_BIN_ADD, base, num(k, u, loc), loc);
        emit_part(p, steady->for_.body, j, u, false);
        emit_part(p, steady->for_.body, tl_ir_bin(k, TL_BIN_ADD, j, num(k, d, loc), loc),
                  (u + d) % s, true);
    }
    push_loop(k, out, steady);
    // epilogue: the last D .. D + s - 1 iterations
    tl_expr_t *done = tl_ir_bin(k, TL_BIN_MUL, groups, num(k, s, loc), loc);
    for (int u = 0; u < d + s - 1; u++) {
        tl_expr_t *j = tl_ir_bin(k, TL_BIN_ADD, done, num(k, u, loc), loc);
        tl_stmt_t *body = tl_ir_seq(k, loc), *ahead = tl_ir_seq(k, loc);
        tl_expr_t *ja = tl_ir_bin(k, TL_BIN_ADD, j, num(k, d, loc), loc);
        emit_part(p, body, j, u % s, false);
        emit_part(p, ahead, ja, (u + d) % s, true);
        guarded(k, body, tl_ir_bin(k, TL_BIN_LT, ja, trip, loc), ahead);
        guarded(k, out, tl_ir_bin(k, TL_BIN_LT, j, trip, loc), body);
    }
    return out;
}

// The form for loops that hand data between the cores: one loop over groups of
// s iterations, each iteration guarded, so that every hand-off (and its
// cross-core flags) stays inside the loop.
static tl_stmt_t *pipeline_guarded(pipe_t *p)
{
    tl_kernel_t *k = p->k;
    tl_stmt_t *l = p->loop;
    tl_loc_t loc = l->loc;
    int s = p->s, d = p->d;
    tl_expr_t *trip = trip_count(p);
    tl_stmt_t *out = tl_ir_seq(k, loc);
    prologue(p, out, trip);
    tl_expr_t *base;
    tl_stmt_t *loop = all_groups(p, trip, &base);
    for (int u = 0; u < s; u++) {
        tl_expr_t *j = tl_ir_bin(k, TL_BIN_ADD, base, num(k, u, loc), loc);
        tl_expr_t *ja = tl_ir_bin(k, TL_BIN_ADD, j, num(k, d, loc), loc);
        tl_stmt_t *body = tl_ir_seq(k, loc), *ahead = tl_ir_seq(k, loc);
        emit_part(p, body, j, u, false);
        emit_part(p, ahead, ja, (u + d) % s, true);
        guarded(k, body, tl_ir_bin(k, TL_BIN_LT, ja, trip, loc), ahead);
        guarded(k, loop->for_.body, in_range(p, j, trip), body);
    }
    push_loop(k, out, loop);
    return out;
}

// --- batched form for loops with hand-offs -----------------------------------------------

static void side_fn(void *arg, const tl_access_t *a)
{
    unsigned *side = arg;
    tl_scope_t sc = a->buf->scope;
    if (sc == TL_SCOPE_UB)
        *side |= TL_SIDE_VEC;
    else if (sc != TL_SCOPE_GM && sc != TL_SCOPE_VAR)
        *side |= TL_SIDE_CUBE;
}

static bool has_kind(const tl_stmt_t *s, tl_stmt_kind_t kind)
{
    if (!s) return false;
    if (s->kind == kind) return true;
    switch (s->kind) {
    case TL_ST_SEQ:
        for (int i = 0; i < s->seq.n; i++)
            if (has_kind(s->seq.items[i], kind)) return true;
        return false;
    case TL_ST_FOR: return has_kind(s->for_.body, kind);
    case TL_ST_WHILE: return has_kind(s->while_.body, kind);
    case TL_ST_IF: return has_kind(s->if_.then_, kind) || has_kind(s->if_.else_, kind);
    case TL_ST_SCOPE: return true; // explicit scopes: left as written
    default: return false;
    }
}

// Calls fn on s and every statement inside it, in pre-order.
static void each_stmt(const tl_stmt_t *s, void (*fn)(void *arg, const tl_stmt_t *s), void *arg)
{
    if (!s) return;
    fn(arg, s);
    switch (s->kind) {
    case TL_ST_SEQ:
        for (int i = 0; i < s->seq.n; i++) each_stmt(s->seq.items[i], fn, arg);
        break;
    case TL_ST_FOR: each_stmt(s->for_.body, fn, arg); break;
    case TL_ST_WHILE: each_stmt(s->while_.body, fn, arg); break;
    case TL_ST_IF:
        each_stmt(s->if_.then_, fn, arg);
        each_stmt(s->if_.else_, fn, arg);
        break;
    case TL_ST_SCOPE: each_stmt(s->scope.body, fn, arg); break;
    default: break;
    }
}

// The kernel's own intra-core syncs in one statement of the body: the side their
// pipes name (tl_side_pipe), and whether all of them are set_flag, wait_flag or
// pipe_barrier (cross-core flags, barrier_all and sync_all stay where written).
typedef struct {
    const tl_stmt_t *flags[MAX_ITEMS]; // set_flag / wait_flag statements
    int run[MAX_ITEMS];
    int n;
    int cur; // the run of the statement being collected
    unsigned side;
    bool other; // a sync that is not an intra-core flag or pipe barrier
} syncs_t;

static void sync_fn(void *arg, const tl_stmt_t *s)
{
    syncs_t *y = arg;
    if (s->kind != TL_ST_SYNC) return;
    if (s->sync.kind == TL_SYNC_PIPE_BARRIER) {
        y->side |= tl_side_pipe(s->sync.src);
    } else if (s->sync.kind == TL_SYNC_SET_FLAG || s->sync.kind == TL_SYNC_WAIT_FLAG) {
        y->side |= tl_side_pipe(s->sync.src) | tl_side_pipe(s->sync.dst);
        if (y->n == MAX_ITEMS) {
            y->other = true;
            return;
        }
        y->flags[y->n] = s;
        y->run[y->n++] = y->cur;
    } else {
        y->other = true;
    }
}

static void collect_syncs(syncs_t *y, const tl_stmt_t *s, int run)
{
    y->cur = run;
    each_stmt(s, sync_fn, y);
}

// Whether two flag statements may name the same hardware flag: the same pipes,
// and ids equal in their low 3 bits (the event id field) or not constant.
static bool same_flag(const tl_stmt_t *a, const tl_stmt_t *b)
{
    int64_t x, y;
    if (a->sync.src != b->sync.src || a->sync.dst != b->sync.dst) return false;
    if (!tl_ir_is_const_int(a->sync.id, &x) || !tl_ir_is_const_int(b->sync.id, &y)) return true;
    return (x & 7) == (y & 7);
}

// The kernel's own flags survive the reordering when every flag's set_flag and
// wait_flag statements are in one run: the runs of consecutive iterations then
// issue them on their core in the original order. On failure *why names them.
static bool flags_in_one_run(pipe_t *p, const int *run, char *why, size_t whylen)
{
    syncs_t *y = tl_arena_alloc(p->k->arena, sizeof *y);
    memset(y, 0, sizeof *y);
    for (int i = 0; i < p->n; i++) collect_syncs(y, p->items[i], run[i]);
    for (int a = 0; a < y->n; a++)
        for (int b = a + 1; b < y->n; b++)
            if (y->run[a] != y->run[b] && same_flag(y->flags[a], y->flags[b])) {
                const tl_stmt_t *f = y->flags[a], *g = y->flags[b];
                snprintf(why, whylen,
                         "its flag %s -> %s (lines %d and %d) is set and waited in different "
                         "runs of cube or vector statements",
                         tl_pipe_name(f->sync.src), tl_pipe_name(f->sync.dst), f->loc.line,
                         g->loc.line);
                return false;
            }
    return true;
}

// Splits the body into runs of statements of one core (lets and side-less
// statements go with the next statement that has a side; the kernel's own
// flags and pipe barriers with the core of their pipes, else with the previous
// statement, as upstream's CrossCorePipeline places them). False, with *why,
// when a statement needs both cores, the body has fewer than two runs, a let
// is used outside its run (the runs of one iteration are emitted apart) or a
// flag is set and waited in different runs.
static bool runs_of(pipe_t *p, int *run, int *nruns, char *why, size_t whylen)
{
    unsigned side[MAX_ITEMS];
    bool sync_only[MAX_ITEMS];
    snprintf(why, whylen, "its body does not split into runs of cube and of vector statements");
    for (int i = 0; i < p->n; i++) {
        syncs_t y = {0};
        side[i] = 0;
        tl_access_tree(p->items[i], NULL, side_fn, &side[i]);
        sync_only[i] = p->items[i]->kind == TL_ST_SYNC;
        collect_syncs(&y, p->items[i], 0);
        side[i] |= y.side & TL_SIDE_BOTH;
        if (side[i] == TL_SIDE_BOTH || y.other || has_kind(p->items[i], TL_ST_PRINT)) return false;
    }
    for (int i = 1; i < p->n; i++)
        if (sync_only[i] && !side[i]) side[i] = side[i - 1];
    unsigned next = 0;
    for (int i = p->n - 1; i >= 0; i--) {
        if (!side[i]) side[i] = next;
        next = side[i];
    }
    *nruns = 0;
    for (int i = 0; i < p->n; i++) {
        if (!i || side[i] != side[i - 1]) (*nruns)++;
        run[i] = *nruns - 1;
    }
    if (*nruns < 2) return false;
    for (int i = 0; i < p->n; i++) {
        const tl_stmt_t *let = p->items[i];
        if (let->kind != TL_ST_LET) continue;
        for (int j = i + 1; j < p->n; j++)
            if (run[j] != run[i] && tl_walk_stmt_mentions(p->items[j], let->let.var)) {
                snprintf(why, whylen,
                         "'%s' (line %d) is set among %s statements and used by %s statements",
                         let->let.var->name, let->loc.line,
                         side[i] == TL_SIDE_CUBE ? "cube" : "vector",
                         side[j] == TL_SIDE_CUBE ? "cube" : "vector");
                return false;
            }
    }
    return flags_in_one_run(p, run, why, whylen);
}

typedef struct {
    const tl_buffer_t *b;
    bool other_write; // a write of b by anything but a compare's mask
} mask_probe_t;

static void mask_write_fn(void *arg, const tl_access_t *a)
{
    mask_probe_t *q = arg;
    if (a->buf == q->b && (a->mode & TL_ACCESS_WRITE)) q->other_write = true;
}

static void mask_stmt_fn(void *arg, const tl_stmt_t *s)
{
    mask_probe_t *q = arg;
    if (s->kind == TL_ST_OP && s->op.code == TL_OP_COMPARE && s->op.args[0].region.buf == q->b)
        return; // its other operands are read-only
    tl_access_stmt(s, mask_write_fn, q);
}

// A compare mask that the body writes before any statement reads it is a fresh
// value each iteration, though the access model cannot say so: a compare writes
// one bit per element (64 elements: 8 bytes) and covers its mask region only
// when that holds at most those bytes (upstream kernels allocate whole 32-byte
// blocks), and a select reading the mask is not bounded by its region. Upstream's
// CrossCorePipeline versions such a buffer (its exposed-read rule,
// cross_core_pipeline.cc CheckExposedRead).
static bool fresh_mask(pipe_t *p, const tl_buffer_t *b)
{
    int first = -1;
    for (int i = 0; i < p->n && first < 0; i++)
        if (accesses(p->items[i], NULL, b)) first = i;
    const tl_stmt_t *s = first < 0 ? NULL : p->items[first];
    if (!s || s->kind != TL_ST_OP || s->op.code != TL_OP_COMPARE || s->op.args[0].region.buf != b)
        return false;
    mask_probe_t q = {b, false};
    each_stmt(p->loop->for_.body, mask_stmt_fn, &q);
    return !q.other_write;
}

// Every buffer that two runs share, one of them writing it, must be a fresh
// value in each iteration (then it gets s versions); anything else forbids
// reordering the runs. On failure *why says which buffer and why.
static bool version_shared(pipe_t *p, const int *run, char *why, size_t whylen)
{
    tl_kernel_t *k = p->k;
    for (int bi = 0; bi < k->buffers.len; bi++) {
        tl_buffer_t *b = k->buffers.items[bi];
        unsigned runs = 0, mode = 0;
        for (int i = 0; i < p->n; i++) {
            unsigned m = accesses(p->items[i], NULL, b);
            if (m) runs |= 1u << TL_MIN(run[i], 31);
            mode |= m;
        }
        if (!(mode & TL_ACCESS_WRITE) || !(runs & (runs - 1))) continue;
        bool done = false;
        for (int v = 0; v < p->nvers; v++) done |= p->vers[v].b == b;
        if (done) continue;
        const char *bad = NULL;
        if (b->scope == TL_SCOPE_GM ? !runtime_workspace(k, b)
                                    : b->scope == TL_SCOPE_VAR || b->addr_pinned)
            bad = b->scope == TL_SCOPE_GM    ? "is a GM tensor the caller sees"
                  : b->scope == TL_SCOPE_VAR ? "is a scalar variable"
                                             : "has a pinned address";
        else if (accesses(k->body, p->skip, b))
            bad = "is also used outside the loop";
        else if (tl_live_carried(k, p->loop, b) && !fresh_mask(p, b))
            bad = "carries its value from one iteration to the next";
        else if (!version(p, b))
            bad = "would need too many buffer versions";
        if (bad) {
            snprintf(why, whylen, "'%s', which cube and vector statements share, %s", b->name, bad);
            return false;
        }
    }
    return true;
}

// Appends run r of iteration j = base + off to seq, guarded by 0 <= j (when
// off < 0) and j < n' (dropped when `grouped` and n' is a constant multiple
// of s: j then stays below n' by construction).
static void emit_run(pipe_t *p, tl_stmt_t *seq, const int *run, int r, tl_expr_t *base, int off,
                     tl_expr_t *trip, bool grouped)
{
    tl_kernel_t *k = p->k;
    tl_loc_t loc = p->loop->loc;
    tl_expr_t *j = tl_ir_bin(k, TL_BIN_ADD, base, num(k, off, loc), loc);
    tl_subst_t m;
    iteration(p, &m, j, (off % p->s + p->s) % p->s);
    tl_stmt_t *body = tl_ir_seq(k, loc);
    for (int i = 0; i < p->n; i++)
        if (run[i] == r) tl_ir_seq_push(k, body, tl_subst_stmt(k, &m, p->items[i]));
    tl_subst_free(&m);
    tl_expr_t *cond = grouped ? in_range(p, j, trip) : tl_ir_bin(k, TL_BIN_LT, j, trip, loc);
    if (off < 0)
        cond = tl_ir_bin(k, TL_BIN_LAND, tl_ir_bin(k, TL_BIN_GE, j, num(k, 0, loc), loc), cond,
                         loc);
    guarded(k, seq, cond, body);
}

// for g < ceil(n' / s): for each run, for u < s: if j < n': run(j), j = g*s + u.
// Each core does the work of s iterations in one stretch, and the versions let
// it run ahead of the other core by up to s iterations.
static tl_stmt_t *pipeline_batched(pipe_t *p, const int *run, int nruns)
{
    tl_expr_t *trip = trip_count(p), *base;
    tl_stmt_t *out = tl_ir_seq(p->k, p->loop->loc), *loop = all_groups(p, trip, &base);
    for (int r = 0; r < nruns; r++)
        for (int u = 0; u < p->s; u++) emit_run(p, loop->for_.body, run, r, base, u, trip, true);
    push_loop(p->k, out, loop);
    return out;
}

// Whether the staggered form can take the loop: no version is reused while an
// earlier iteration still needs it. A buffer touched by runs a..b of iteration
// j is touched again by iteration j + n (n its versions) in step j + n + a,
// which must come after step j + b.
static bool staggerable(pipe_t *p, const int *run)
{
    for (int v = 0; v < p->nvers; v++) {
        int lo = MAX_ITEMS, hi = -1;
        for (int i = 0; i < p->n; i++)
            if (accesses(p->items[i], NULL, p->vers[v].b)) {
                lo = TL_MIN(lo, run[i]);
                hi = TL_MAX(hi, run[i]);
            }
        if (hi - lo >= p->vers[v].n) return false;
    }
    return true;
}

// Staggered: run r of iteration j runs in step j + r; steps go in groups of s
// (unrolled, so that versions stay static), each step its runs from the last
// to the first (the oldest iteration first):
//   for g < ceil((n' + R - 1) / s), u < s, r = R-1 .. 0:
//       j = g*s + u - r; if 0 <= j < n': run_r(j)
// A core alternates runs of different iterations, and every hand-off's
// consumer runs at least a step after its producer, so neither core waits for
// the other in the steady state (the batched form leaves the cube idle while
// the vector cores finish one group and start the next).
static tl_stmt_t *pipeline_staggered(pipe_t *p, const int *run, int nruns)
{
    tl_kernel_t *k = p->k;
    tl_loc_t loc = p->loop->loc;
    tl_expr_t *trip = trip_count(p), *base;
    tl_expr_t *steps = tl_ir_bin(k, TL_BIN_ADD, trip, num(k, nruns - 1, loc), loc);
    tl_stmt_t *out = tl_ir_seq(k, loc), *loop = all_groups(p, steps, &base);
    loop->for_.staggered = true;
    for (int u = 0; u < p->s; u++)
        for (int r = nruns - 1; r >= 0; r--)
            emit_run(p, loop->for_.body, run, r, base, u - r, trip, false);
    push_loop(k, out, loop);
    return out;
}

static tl_stmt_t *serial(pipe_t *p, const char *why)
{
    tl_diag_note(p->ctx->diag, p->loop->loc, "T.Pipelined loop runs without multi-buffering: %s",
                 why);
    p->loop->for_.loop = TL_LOOP_SERIAL;
    return p->loop;
}

static tl_stmt_t *pipelined(pipe_t *p, tl_stmt_t *l)
{
    p->loop = l;
    p->skip = l;
    p->loop_id++;
    p->s = l->for_.num_stages;
    p->d = p->s - 1;
    p->n = 0;
    p->nvers = 0;
    if (p->s < 2) {
        l->for_.loop = TL_LOOP_SERIAL;
        return l;
    }
    if (tl_live_escapes(l->for_.body)) return serial(p, "its body has a break or continue");
    if (!flatten(p, l->for_.body)) return serial(p, "its body is too long");
    bool needed[MAX_ITEMS];
    memset(p->needed, 0, sizeof p->needed);
    int nloads = 0;
    for (int i = 0; i < p->n; i++) {
        p->load[i] = is_load(p, i, needed);
        if (!p->load[i]) continue;
        nloads++;
        for (int j = 0; j < p->n; j++) p->needed[j] |= needed[j];
        if (!version(p, p->items[i]->op.args[1].region.buf))
            return serial(p, "it would need too many buffer versions");
    }
    collect_workspaces(p);
    bool mixed = false;
    for (int i = 0; i < p->nvers; i++) mixed |= p->vers[i].b->scope == TL_SCOPE_GM;
    if (!mixed) {
        version_handoffs(p);
        version_locals(p);
    }
    if (!nloads) p->d = 0; // nothing to issue ahead: the versions alone let the pipes overlap
    if (!nloads && !p->nvers)
        return serial(p,
                      "no copy from a read-only tensor into a buffer it fully overwrites, and no "
                      "hand-off between the cube and the vector cores");
    if (!mixed) return pipeline(p);
    int run[MAX_ITEMS], nruns, nvers = p->nvers;
    char why[256] = "";
    if (runs_of(p, run, &nruns, why, sizeof why) && version_shared(p, run, why, sizeof why))
        return staggerable(p, run) ? pipeline_staggered(p, run, nruns)
                                   : pipeline_batched(p, run, nruns);
    p->nvers = nvers; // versions made for the batched form are unused
    tl_diag_note(p->ctx->diag, p->loop->loc,
                 "T.Pipelined loop hands data between the cores but its iterations stay in "
                 "order (the cores take turns each iteration): %s",
                 why);
    return pipeline_guarded(p);
}

static tl_stmt_t *visit(void *arg, tl_stmt_t *s)
{
    pipe_t *p = arg;
    if (!s) return s;
    tl_subst_children(s, visit, p); // inner loops first
    return s->kind == TL_ST_FOR && s->for_.loop == TL_LOOP_PIPELINED ? pipelined(p, s) : s;
}

tl_status_t tl_pass_pipelined(tl_kernel_t *k, tl_pass_ctx_t *ctx)
{
    pipe_t *p = tl_arena_alloc(k->arena, sizeof *p);
    p->k = k;
    p->ctx = ctx;
    k->body = visit(p, k->body);
    return TL_OK;
}
