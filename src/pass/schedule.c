// schedule: latency-aware list scheduling of each core's straight-line code
// (tl.tilec_schedule, on by default).
//
// requires: per-core programs (after cv_split and cross_sync), addresses
//           planned by memplan, no intra-core syncs yet (intra_sync runs
//           after, on the final order); config.auto_sync (a kernel that
//           synchronises itself keeps its order)
// ensures:  every sequence runs the same statements in an order that keeps
//           every dependence of the original order: two statements whose
//           accesses may touch a common 32-byte granule of memory (one of them
//           writing; buffers at overlapping planned addresses are the same
//           memory: src/pass/hazard.h, as intra_sync and the race detector
//           see them), a let and every statement that mentions its variable,
//           two accesses of one register (alloc_var). Nothing moves across a
//           sync (the kernel's own, cross-core flags), a print, a break or
//           continue, a scope, a while loop, a gemm_v0 (its device helper
//           orders pipes itself) or a state op; other loops and ifs move as
//           units with every access of their bodies; small loops may be
//           unrolled and independent loops with equal bounds fused. The same
//           input gives the same order.
//
// Why: the vector pipe runs its ops in order but overlapping; when an op
// reads what the previous one wrote, intra_sync puts a pipe_barrier between
// them and the reader waits for the writer's whole latency (4-21 cycles, more
// for a reduction). Chains of small dependent ops lose much of their time so.
// Interleaving independent chains lets one barrier order a pair of ops
// (A1 B1 | A2 B2: A2 waits for B1's latency only, after B1 ran), loads issue
// as soon as their buffers are free and stores as soon as their data is.
//
// Method, per sequence (inner sequences first, so that loops and ifs are
// priced with their bodies' final order):
//  - plain sequences inside it (a macro's body) become part of it;
//  - small loops (constant trip count 2..8, bodies of tile ops and stores, at
//    most 32 statements unrolled) are unrolled into the sequence so that their
//    statements can interleave with others; when the sequence keeps its order
//    they are rolled back;
//  - two serial loops with equal bounds, neither reaching the other through a
//    chain of dependences and with no dependence between any of their
//    iterations, are fused (their bodies one after the other in one loop; the
//    statements between them that depend on the first go after it), so that
//    two independent loops of one shape (the unrolled iterations of a
//    T.Pipelined loop, pipelined.c) interleave inside. A fused loop waits for
//    the inputs of both: the whole sequence is scheduled fused and unfused
//    and the model keeps one;
//  - the statements between two barriers form a dependence graph. Every pipe
//    but the vector pipe also keeps its program order: transfers share the
//    memory system first come first served, and the cube's pipes are
//    pipelined by the program (pipelined.c, T.mma chains); only the vector
//    ops, and the other pipes' ops relative to them, move;
//  - a list scheduler places the statements one at a time in a timing model
//    of the core (below), in two variants: the ready statement that can
//    start first, ties to the longest modeled path to the end (then program
//    order); or, among those that start before that one's occupancy ends,
//    the one with the longest path;
//  - the model prices the program's order and both schedules (a loop body
//    over two iterations: the second waits for every statement of the first
//    it conflicts with, so one iteration's tail meets the next one's head),
//    once with GM reads missing the L2 and once hitting it. The cheapest
//    schedule with a cold L2 replaces the program's order when it ends
//    earlier cold and no later warm.
//
// The timing model is the simulator's (sim_time.c, sim_inst.c), simplified:
// the scalar unit issues in order (a cycle an instruction, 21 for a scalar
// load of GM); each pipe runs in order, an op occupying it for its repeats
// (vector: a 256-byte repeat of the widest operand a cycle, two for ops that
// read two tiles; transfers: whole 32-byte GM blocks at the pipe's rate) and
// finishing a latency later (each op priced by target/cost.c, as the
// simulator prices it: vector latencies by cost class, GM read latency with
// the L2 missing or hitting, write latency); a reader on the writer's
// pipe gets a barrier, which waits for everything issued to that pipe; a
// reader on another pipe waits until the writer's pipe has finished
// everything up to the writer (where intra_sync's set_flag fires); a scalar
// read waits in the scalar unit. A loop or if is a unit: from the model of
// its body, when each pipe is free and done (times the trip count when
// constant). Bandwidth sharing between cores, L2 state and the syncs'
// own issue cycles are not modeled; on the kernels of kernels/ds_v4 the model
// of a sequence is within a few cycles of the simulator's timeline (hc
// split/sinkhorn's last tile: 13,615 modeled, 13,594 simulated).
#include "pass/rewrite.h"
#include "pass/schedule_int.h"

#include <stdlib.h>
#include <string.h>

void *sched_grow(sched_t *S, void *p, int *cap, int need, size_t size)
{
    if (need <= *cap) return p;
    int c = *cap ? *cap : 64;
    while (c < need) c *= 2;
    void *q = realloc(p, size * (size_t)c);
    if (!q) {
        S->oom = true;
        return p;
    }
    *cap = c;
    return q;
}

// --- summaries ------------------------------------------------------------------------------

static uint64_t hash_ptr(const void *p)
{
    uint64_t h = (uint64_t)(uintptr_t)p;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    return h ^ (h >> 33);
}

summary_t *sched_sum_find(sched_t *S, const tl_stmt_t *s)
{
    if (!S->capsums) return NULL;
    for (uint64_t i = hash_ptr(s) & (uint64_t)(S->capsums - 1);;
         i = (i + 1) & (uint64_t)(S->capsums - 1)) {
        if (S->sums[i].s == s) return &S->sums[i];
        if (!S->sums[i].s) return NULL;
    }
}

static void sum_put(sched_t *S, const summary_t *v)
{
    if (2 * (S->nsums + 1) > S->capsums) {
        int cap = S->capsums ? 2 * S->capsums : 256;
        summary_t *t = calloc((size_t)cap, sizeof *t);
        if (!t) {
            S->oom = true;
            return;
        }
        for (int i = 0; i < S->capsums; i++) {
            if (!S->sums[i].s) continue;
            uint64_t j = hash_ptr(S->sums[i].s) & (uint64_t)(cap - 1);
            while (t[j].s) j = (j + 1) & (uint64_t)(cap - 1);
            t[j] = S->sums[i];
        }
        free(S->sums);
        S->sums = t;
        S->capsums = cap;
    }
    uint64_t j = hash_ptr(v->s) & (uint64_t)(S->capsums - 1);
    while (S->sums[j].s && S->sums[j].s != v->s) j = (j + 1) & (uint64_t)(S->capsums - 1);
    if (!S->sums[j].s) S->nsums++;
    S->sums[j] = *v;
}

// --- barriers ---------------------------------------------------------------------------------

bool sched_fixed_leaf(const tl_stmt_t *s)
{
    switch (s->kind) {
    case TL_ST_SYNC:
    case TL_ST_PRINT:
    case TL_ST_BREAK:
    case TL_ST_CONTINUE:
    case TL_ST_SCOPE:
    case TL_ST_WHILE: return true;
    case TL_ST_OP: {
        tl_pipe_t p = tl_op_pipe(&s->op);
        return s->op.code == TL_OP_GEMM_V0 || tl_op_info(s->op.code)->cls == TL_OPC_STATE ||
               p <= TL_PIPE_NONE || p >= TL_PIPE_ALL;
    }
    default: return false;
    }
}

static void find_fixed(void *arg, tl_stmt_t *s)
{
    if (sched_fixed_leaf(s)) *(bool *)arg = true;
}

// Whether nothing may move across s.
static bool is_barrier(tl_stmt_t *s)
{
    bool found = false;
    tl_rewrite_walk(s, find_fixed, &found);
    return found;
}

// --- the walk -----------------------------------------------------------------------------------

static void schedule_seq(sched_t *S, tl_stmt_t *seq, bool body);

static void schedule_children(sched_t *S, tl_stmt_t *s)
{
    switch (s->kind) {
    case TL_ST_SEQ: schedule_seq(S, s, false); break;
    case TL_ST_FOR: {
        int id = s->for_.var->id;
        bool in = id < S->nvars;
        if (in) S->enclosing[id] = true;
        schedule_seq(S, s->for_.body,
                     sched_trip_of(s) != 1 || !tl_ir_is_const_int(s->for_.end, NULL));
        if (in) S->enclosing[id] = false;
        break;
    }
    case TL_ST_WHILE: schedule_seq(S, s->while_.body, true); break;
    case TL_ST_IF:
        schedule_seq(S, s->if_.then_, false);
        if (s->if_.else_) schedule_seq(S, s->if_.else_, false);
        break;
    case TL_ST_SCOPE: schedule_seq(S, s->scope.body, false); break;
    default: break;
    }
}

// Moves the items of nested plain sequences into seq.
static void flatten(tl_kernel_t *k, tl_stmt_t *seq)
{
    for (int i = 0; i < seq->seq.n; i++) {
        tl_stmt_t *s = seq->seq.items[i];
        if (s->kind != TL_ST_SEQ) continue;
        tl_rewrite_remove(seq, i);
        for (int j = 0; j < s->seq.n; j++) tl_rewrite_insert(k, seq, i + j, s->seq.items[j]);
        i--;
    }
}

static bool new_hazards(sched_t *S)
{
    tl_hazard_ctx_free(S->hz);
    if (!(S->hz = tl_hazard_ctx_new(S->k))) S->oom = true;
    return !S->oom;
}

// Fuses loops of seq, segment by segment; returns how many.
static int fuse_all(sched_t *S, tl_stmt_t *seq)
{
    int fused = 0;
    for (int lo = 0; lo < seq->seq.n && fused < MAX_FUSE && !S->oom;) {
        int hi = lo;
        while (hi < seq->seq.n && !is_barrier(seq->seq.items[hi])) hi++;
        if (hi - lo >= 2 && hi - lo <= MAX_NODES && sched_fuse_one(S, seq, lo, hi)) {
            fused++;
            continue;
        }
        lo = hi + 1;
    }
    // the lets of a fused body now live in the other loop
    if (fused) new_hazards(S);
    return fused;
}

// Schedules the children of seq, then its segments; returns the modeled
// cycles the choices were made on, the summary in *sum.
static cost_t schedule_items(sched_t *S, tl_stmt_t *seq, bool body, summary_t *sum, bool *moved)
{
    for (int i = 0; i < seq->seq.n; i++) schedule_children(S, seq->seq.items[i]);
    *sum = (summary_t){seq, 0, 0, {0}, {0}, 0, false};
    *moved = false;
    cost_t cost = {0, 0};
    for (int lo = 0; lo < seq->seq.n && !S->oom;) {
        int hi = lo;
        while (hi < seq->seq.n && !is_barrier(seq->seq.items[hi])) hi++;
        if (hi - lo >= 1 && hi - lo <= MAX_NODES) {
            cost_t c = sched_segment(S, seq->seq.items + lo, hi - lo,
                                     body && lo == 0 && hi == seq->seq.n, sum, moved);
            cost.cold += c.cold;
            cost.warm += c.warm;
        }
        if (hi < seq->seq.n) { // a barrier: everything before it first
            summary_t b = sched_summary_of(S, seq->seq.items[hi]);
            sum->span += b.span;
            sum->pipes |= b.pipes;
            sum->scalar = true;
            cost.cold += b.span;
            cost.warm += b.span;
        }
        lo = hi + 1;
    }
    return cost;
}

static void schedule_seq(sched_t *S, tl_stmt_t *seq, bool body)
{
    if (!seq || seq->kind != TL_ST_SEQ || !seq->seq.n || S->oom) return;
    flatten(S->k, seq);
    // (on the heap: schedule_items recurses into the nested sequences)
    unrolled_t *un = malloc(sizeof *un * 64);
    if (!un) {
        S->oom = true;
        return;
    }
    int nun = sched_unroll_small(S, seq, un, 64), n0 = seq->seq.n;
    tl_stmt_t **orig = malloc(sizeof *orig * ((size_t)TL_MAX(n0, 0) * 2 + 1));
    if (!orig) {
        free(un);
        S->oom = true;
        return;
    }
    if (n0) memcpy(orig, seq->seq.items, sizeof *orig * (size_t)n0);
    int nf = fuse_all(S, seq);
    summary_t sum;
    bool moved;
    cost_t cost = schedule_items(S, seq, body, &sum, &moved);
    if (nf && !S->oom) {
        // A fused loop waits for the inputs of both: keep it only when the
        // model says the whole sequence ends earlier so.
        int nfused = seq->seq.n;
        tl_stmt_t **fused = orig + n0;
        memcpy(fused, seq->seq.items, sizeof *fused * (size_t)nfused);
        summary_t fsum = sum;
        bool fmoved = moved;
        seq->seq.n = n0;
        memcpy(seq->seq.items, orig, sizeof *orig * (size_t)n0);
        cost_t c2 = {-1, -1};
        if (new_hazards(S)) c2 = schedule_items(S, seq, body, &sum, &moved);
        if (sched_better(cost, c2)) {
            seq->seq.n = nfused;
            memcpy(seq->seq.items, fused, sizeof *fused * (size_t)nfused);
            sum = fsum;
            moved = fmoved;
            S->fused += nf;
            new_hazards(S);
        }
    }
    free(orig);
    S->moved += moved;
    // the model saw the unrolled statements: a loop put back would get a
    // barrier before its first iteration where they may need none
    if (!moved)
        sched_roll_back(S, seq, un, nun);
    else
        S->unrolled += nun;
    free(un);
    sum_put(S, &sum);
}

tl_status_t tl_pass_schedule(tl_kernel_t *k, tl_pass_ctx_t *ctx)
{
    if (!k->config.schedule || !k->config.auto_sync || k->config.sync_baseline) return TL_OK;
    tl_rewrite_normalize(k);
    sched_t S;
    memset(&S, 0, sizeof S);
    S.k = k;
    S.ctx = ctx;
    S.arch = tl_arch_default();
    S.nvars = k->vars.len;
    S.hz = tl_hazard_ctx_new(k);
    S.enclosing = calloc((size_t)S.nvars + 1, sizeof *S.enclosing);
    S.nodes = malloc(sizeof *S.nodes * MAX_NODES);
    S.dep = malloc((size_t)MAX_NODES * MAX_NODES);
    S.mp0 = malloc(sizeof *S.mp0 * (MAX_NODES + 1));
    bool ok = S.hz && S.enclosing && S.nodes && S.dep && S.mp0;
    if (ok) schedule_seq(&S, k->body, false);
    tl_status_t st = TL_OK;
    if (!ok || S.oom) st = tl_diag_fail(ctx->diag, TL_ERR_NOMEM, "out of memory");
    tl_hazard_ctx_free(S.hz);
    free(S.enclosing);
    free(S.nodes);
    free(S.dep);
    free(S.mp0);
    free(S.mpred);
    free(S.sums);
    free(S.acc);
    free(S.reg);
    return st;
}
