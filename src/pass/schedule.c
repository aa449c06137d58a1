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
// finishing a latency later (arch.c: vector op latencies, GM read latency
// with the L2 missing or hitting, write latency); a reader on the writer's
// pipe gets a barrier, which waits for everything issued to that pipe; a
// reader on another pipe waits until the writer's pipe has finished
// everything up to the writer (where intra_sync's set_flag fires); a scalar
// read waits in the scalar unit. A loop or if is a unit: from the model of
// its body, when each pipe is free and done (times the trip count when
// constant). Bandwidth sharing between cores, L2 state and the syncs'
// own issue cycles are not modeled; on the kernels of kernels/ds_v4 the model
// of a sequence is within a few cycles of the simulator's timeline (hc
// split/sinkhorn's last tile: 13,615 modeled, 13,594 simulated).
#include "npu/arch.h"
#include "pass/access.h"
#include "pass/hazard.h"
#include "pass/pass.h"
#include "pass/rewrite.h"
#include "pass/subst.h"

#include <stdlib.h>
#include <string.h>

enum {
    MAX_NODES = 1536,     // a longer stretch between barriers keeps its order
    UNROLL_TRIP = 8,      // loops unrolled: at most this many iterations
    UNROLL_STMTS = 32,    // and this many statements in all
    MAX_FUSE = 64,        // fusions per sequence
    MAX_LOOP_NODES = 512, // loop bodies modeled over two iterations up to this size
};

// Dependence kinds between two statements (bits of dep_t).
enum {
    DEP = 1,     // the later must stay after the earlier
    DEP_MEM = 2, // through memory (the later waits for the earlier's pipe)
    DEP_S = 4,   // a scalar access of the later one (the scalar unit waits)
};

typedef unsigned char dep_t;

// Modeled cost of a sequence, loop or if as one unit: from its start, when
// each pipe is free again and when its last op there is done, and the
// scalar unit's time.
typedef struct {
    const tl_stmt_t *s;
    int64_t span;                // until everything is done
    int64_t issue;               // the scalar unit's time (with its stalls)
    int64_t free[TL_PIPE_COUNT]; // each pipe's last occupancy ends
    int64_t done[TL_PIPE_COUNT]; // each pipe's last op is done
    unsigned pipes;              // pipes it uses (bit per tl_pipe_t)
    bool scalar;                 // it has scalar statements (they wait in the scalar unit)
} summary_t;

typedef enum { N_PIPE, N_SCALAR, N_UNIT } node_kind_t;

typedef struct {
    tl_stmt_t *s;
    node_kind_t kind;
    tl_pipe_t pipe;             // N_PIPE
    int64_t occ, lat;           // N_PIPE: occupancy, latency; N_SCALAR: occ
    int64_t lat_cold, lat_warm; // GM reads: the latency with a cold L2 and a warm one
    int64_t pre;                // scalar cycles before it issues (loads of its operands)
    summary_t sum;              // N_UNIT
    int acc0, acc1;             // its memory accesses in sched_t.acc
    int reg0, reg1;             // its register accesses in sched_t.reg
    const tl_var_t *def;        // a let: the variable it defines
    int64_t height;             // modeled cycles from its start to the end of the sequence
    int group;                  // an unrolled loop's statements: the loop's index, else -1
} node_t;

typedef struct {
    const tl_buffer_t *buf;
    bool write;
} reg_t;

// One placed node in the timing model.
typedef struct {
    int64_t start, ready, fire;
    int epoch;
} slot_t;

typedef struct {
    int64_t issue;
    int64_t free[TL_PIPE_COUNT], done[TL_PIPE_COUNT];
    int epoch[TL_PIPE_COUNT];
} model_t;

// An unrolled loop: its copies' statements, in order, for rolling it back.
typedef struct {
    tl_stmt_t *loop;
    tl_stmt_t **stmts;
    int n;
} unrolled_t;

typedef struct {
    tl_kernel_t *k;
    tl_pass_ctx_t *ctx;
    const tl_arch_t *arch;
    tl_hazard_ctx_t *hz;
    bool *enclosing; // per var id: a loop around the sequence being scheduled
    int nvars;
    // summaries of compound statements (open addressing on the pointer)
    summary_t *sums;
    int capsums, nsums;
    // the current segment
    node_t *nodes;
    int n;
    dep_t *dep; // n x n: dep[i * n + j], i before j
    int *mpred; // the memory predecessors of node j: mpred[mp0[j] .. mp0[j + 1])
    int *mp0, capmpred;
    tl_hazard_access_t *acc;
    int nacc, capacc;
    reg_t *reg;
    int nreg, capreg;
    // statistics (for the dump note)
    int moved, unrolled, fused;
    bool oom;
} sched_t;

static void *grow(sched_t *S, void *p, int *cap, int need, size_t size)
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

static summary_t *sum_find(sched_t *S, const tl_stmt_t *s)
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

static bool fixed_leaf(const tl_stmt_t *s)
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
    if (fixed_leaf(s)) *(bool *)arg = true;
}

// Whether nothing may move across s.
static bool is_barrier(tl_stmt_t *s)
{
    bool found = false;
    tl_rewrite_walk(s, find_fixed, &found);
    return found;
}

// --- costs ------------------------------------------------------------------------------------

static int64_t ceil_div(int64_t a, int64_t b)
{
    return b > 0 ? (a + b - 1) / b : 0;
}

static int64_t const_or(const tl_expr_t *e, int64_t dflt)
{
    int64_t v;
    return e && tl_ir_is_const_int(e, &v) ? v : dflt;
}

// Bytes of a region (the whole buffer when an extent is not constant),
// limited to `count` elements when count >= 0.
static int64_t region_bytes(const tl_region_t *r, int64_t count)
{
    int64_t n = 1;
    for (int d = 0; d < r->ndim; d++) {
        int64_t e = const_or(r->extent[d], -1);
        if (e < 0) {
            n = r->buf->scope == TL_SCOPE_GM ? 1 : tl_buffer_numel(r->buf);
            break;
        }
        n *= e;
    }
    if (count >= 0 && count < n) n = count;
    return n * tl_dtype_size(r->buf->dtype);
}

// Bytes a GM transfer of region r moves: its contiguous runs, each in whole
// blocks of the arch's GM block size (sim_time.c moves whole 32-byte blocks).
static int64_t gm_bytes(const tl_arch_t *a, const tl_region_t *r)
{
    int64_t run = 1, total = 1;
    bool merging = true;
    for (int d = r->ndim - 1; d >= 0; d--) {
        int64_t e = const_or(r->extent[d], -1);
        if (e < 0) return region_bytes(r, -1);
        total *= e;
        if (merging) run *= e;
        merging = merging && e == const_or(r->buf->gm_shape[d], -1);
    }
    int64_t size = tl_dtype_size(r->buf->dtype), block = TL_MAX(1, a->gm_block_bytes);
    return run ? total / run * TL_ALIGN_UP(run * size, block) : 0;
}

typedef struct {
    const tl_arch_t *a;
    int64_t cycles;
} loads_t;

static bool count_load(void *arg, const tl_expr_t *e)
{
    loads_t *l = arg;
    if (e->kind == TL_EX_LOAD && e->load.buf->scope != TL_SCOPE_VAR)
        l->cycles +=
            l->a->scalar_cycles + (e->load.buf->scope == TL_SCOPE_GM ? l->a->scalar_gm_cycles : 0);
    return true;
}

// Scalar cycles of the loads in e.
static int64_t load_cycles(const tl_arch_t *a, const tl_expr_t *e)
{
    loads_t l = {a, 0};
    if (e) tl_rewrite_expr_walk(e, count_load, &l);
    return l.cycles;
}

// Occupancy and latency of a tile op, as sim_inst.c prices it.
static void op_cost(const tl_arch_t *a, const tl_op_t *op, node_t *n)
{
    const tl_opinfo_t *info = tl_op_info(op->code);
    int64_t count = -1;
    if (info->cls == TL_OPC_VEC && strstr(info->signature, "[s]") && op->nargs == info->max_args &&
        op->args[op->nargs - 1].kind == TL_ARG_SCALAR)
        count = const_or(op->args[op->nargs - 1].scalar, -1);
    int64_t widest = 0, bytes[2] = {0, 0};
    int reads = 0;
    for (int i = 0; i < op->nargs; i++) {
        const tl_arg_t *g = &op->args[i];
        if (g->kind == TL_ARG_SCALAR) {
            n->pre += load_cycles(a, g->scalar);
            continue;
        }
        int64_t b = g->region.buf->scope == TL_SCOPE_GM ? gm_bytes(a, &g->region)
                                                        : region_bytes(&g->region, count);
        char role = tl_op_role(op->code, i);
        widest = TL_MAX(widest, b);
        // a reduction that clears its output does not read it
        if (info->cls == TL_OPC_REDUCE && i == 1) role = op->clear ? 'w' : 'x';
        reads += role == 'r' || role == 'v' || role == 'x';
        if (i < 2) bytes[i] = b;
    }
    n->pipe = tl_op_pipe(op);
    bool to_gm = op->nargs >= 2 && op->args[1].kind == TL_ARG_REGION &&
                 op->args[1].region.buf->scope == TL_SCOPE_GM;
    switch (n->pipe) {
    case TL_PIPE_MTE2: // a cold L2 misses, a warm one hits (the model tries both)
        n->occ = ceil_div(bytes[0], (int64_t)a->mte2_bpc);
        n->lat = a->l2_hit_latency + a->gm_read_latency;
        n->lat_warm = a->l2_hit_latency;
        break;
    case TL_PIPE_MTE3:
        n->occ = ceil_div(bytes[1], (int64_t)a->mte3_bpc);
        n->lat = to_gm ? a->gm_write_latency : 0;
        break;
    case TL_PIPE_MTE1: {
        bool l0a = op->args[1].region.buf->scope == TL_SCOPE_L0A;
        n->occ = ceil_div(bytes[1], (int64_t)(l0a ? a->mte1_l0a_bpc : a->mte1_l0b_bpc));
        n->lat = a->mte1_latency;
        break;
    }
    case TL_PIPE_FIX:
        n->occ = ceil_div(bytes[1] / tl_dtype_size(op->args[1].region.buf->dtype),
                          (int64_t)a->fix_elems_per_cycle);
        n->lat = a->fix_latency + (to_gm ? a->gm_write_latency : 0);
        break;
    case TL_PIPE_M: {
        const tl_region_t *A = &op->args[0].region, *C = &op->args[2].region;
        int64_t m = C->ndim >= 2 ? const_or(C->extent[C->ndim - 2], 16) : 1;
        int64_t nn = const_or(C->extent[C->ndim - 1], 16),
                kk = const_or(A->extent[A->ndim - 1], 16);
        int64_t k0 = TL_MAX(1, tl_arch_cube_macs(a, A->buf->dtype) / 256);
        n->occ = ceil_div(m, 16) * ceil_div(nn, 16) * ceil_div(kk, k0);
        n->lat = a->mmad_startup;
        break;
    }
    default:
        n->occ = TL_MAX(1, ceil_div(widest, a->vec_bytes_per_repeat)) *
                 (reads >= 2 ? a->vec_cycles_binary : a->vec_cycles_unary);
        n->lat = tl_arch_vec_latency(a, op->code);
        break;
    }
    n->occ = TL_MAX(n->occ, 1);
    n->lat_cold = n->lat;
    if (n->pipe != TL_PIPE_MTE2) n->lat_warm = n->lat;
}

static void leaf_cost(sched_t *S, node_t *n)
{
    const tl_arch_t *a = S->arch;
    tl_stmt_t *s = n->s;
    n->pipe = TL_PIPE_S;
    switch (s->kind) {
    case TL_ST_OP:
        n->kind = N_PIPE;
        for (int i = 0; i < s->op.nargs; i++)
            if (s->op.args[i].kind == TL_ARG_REGION)
                for (int d = 0; d < s->op.args[i].region.ndim; d++)
                    n->pre += load_cycles(a, s->op.args[i].region.start[d]);
        op_cost(a, &s->op, n);
        return;
    case TL_ST_LET:
        n->kind = N_SCALAR;
        n->occ = a->scalar_cycles + load_cycles(a, s->let.value);
        return;
    case TL_ST_STORE:
        n->kind = N_SCALAR;
        n->occ = a->scalar_cycles + load_cycles(a, s->store.value) +
                 (s->store.buf->scope == TL_SCOPE_GM ? a->scalar_gm_cycles : 0);
        for (int i = 0; i < s->store.n; i++) n->occ += load_cycles(a, s->store.idx[i]);
        return;
    default:
        n->kind = N_SCALAR;
        n->occ = a->scalar_cycles;
        return;
    }
}

// --- the timing model ---------------------------------------------------------------------------

static void model_init(model_t *m)
{
    memset(m, 0, sizeof *m);
}

static bool uses(unsigned pipes, tl_pipe_t p)
{
    return pipes & (1u << p);
}

// Places node i after the placed nodes (slot[] of its predecessors set);
// returns its start and, when commit, updates the model and slot[i].
static int64_t place(const sched_t *S, model_t *m, slot_t *slot, int i, bool commit)
{
    const node_t *n = &S->nodes[i];
    const int flag = S->arch->flag_latency;
    int64_t issue = m->issue + n->pre, gate = 0, start;
    unsigned barrier = 0; // pipes that need a barrier before it
    int flags = 0;
    unsigned mine = n->kind == N_UNIT ? n->sum.pipes : 1u << n->pipe;
    for (int e = S->mp0[i]; e < S->mp0[i + 1]; e++) {
        int j = S->mpred[e];
        dep_t d = S->dep[j * S->n + i];
        const node_t *p = &S->nodes[j];
        const slot_t *ps = &slot[j];
        if (p->kind == N_UNIT || n->kind == N_UNIT) {
            unsigned theirs = p->kind == N_UNIT ? p->sum.pipes : 1u << p->pipe;
            barrier |= mine & theirs & ~(1u << TL_PIPE_S);
            gate = TL_MAX(gate, ps->ready + flag);
        } else if (p->kind == N_SCALAR) {
            gate = TL_MAX(gate, ps->fire + (n->kind == N_SCALAR ? 0 : flag));
        } else if (d & DEP_S || n->kind == N_SCALAR) {
            issue = TL_MAX(issue, ps->fire + flag); // the scalar unit waits
        } else if (p->pipe == n->pipe) {
            if (ps->epoch == m->epoch[n->pipe]) barrier |= 1u << n->pipe;
        } else {
            gate = TL_MAX(gate, ps->fire + flag);
            flags++;
        }
    }
    for (int p = 0; p < TL_PIPE_COUNT; p++)
        if (uses(barrier, (tl_pipe_t)p)) {
            gate = TL_MAX(gate, m->done[p]);
            issue += S->arch->scalar_cycles;
        }
    issue += (int64_t)flags * S->arch->scalar_cycles;
    switch (n->kind) {
    case N_SCALAR:
        start = TL_MAX(issue, gate);
        if (commit) {
            m->issue = start + n->occ;
            slot[i] = (slot_t){start, start + n->occ, start + n->occ, 0};
        }
        return start;
    case N_PIPE: {
        tl_pipe_t p = n->pipe;
        start = TL_MAX(TL_MAX(issue + 1, m->free[p]), gate);
        if (commit) {
            m->issue = issue + S->arch->scalar_cycles;
            m->free[p] = start + n->occ;
            m->done[p] = TL_MAX(m->done[p], start + n->occ + n->lat);
            if (uses(barrier, p)) m->epoch[p]++;
            slot[i] = (slot_t){start, start + n->occ + n->lat, m->done[p], m->epoch[p]};
        }
        return start;
    }
    case N_UNIT: {
        const summary_t *u = &n->sum;
        start = TL_MAX(issue + (u->scalar ? 0 : 1), gate);
        for (int p = TL_PIPE_S + 1; p < TL_PIPE_COUNT; p++)
            if (uses(mine, (tl_pipe_t)p)) start = TL_MAX(start, m->free[p]);
        if (commit) {
            for (int p = TL_PIPE_S + 1; p < TL_PIPE_COUNT; p++)
                if (uses(mine, (tl_pipe_t)p)) {
                    m->free[p] = TL_MAX(m->free[p], start + u->free[p]);
                    m->done[p] = TL_MAX(m->done[p], start + u->done[p]);
                    m->epoch[p]++;
                }
            m->issue = u->scalar ? start + u->issue : issue + u->issue;
            slot[i] = (slot_t){start, start + u->span, start + u->span, 0};
        }
        return start;
    }
    }
    return 0;
}

static int64_t model_end(const model_t *m)
{
    int64_t t = m->issue;
    for (int p = 0; p < TL_PIPE_COUNT; p++) t = TL_MAX(t, m->done[p]);
    return t;
}

// Modeled cycles of the nodes in `order` (the model's end state in *out).
static int64_t model_order(const sched_t *S, const int *order, slot_t *slot, model_t *out)
{
    model_t m;
    model_init(&m);
    for (int i = 0; i < S->n; i++) place(S, &m, slot, order[i], true);
    if (out) *out = m;
    return model_end(&m);
}

// Appends the modeled run m of nodes (pipes, scalar: what they use) to sum,
// after everything sum holds.
static void summary_add(summary_t *sum, const model_t *m, unsigned pipes, bool scalar)
{
    int64_t at = sum->span;
    sum->span = at + model_end(m);
    sum->issue = at + m->issue;
    for (int p = 0; p < TL_PIPE_COUNT; p++)
        if (pipes >> p & 1) {
            sum->free[p] = at + m->free[p];
            sum->done[p] = at + m->done[p];
        }
    sum->pipes |= pipes;
    sum->scalar |= scalar;
}

// --- nodes and dependences ----------------------------------------------------------------------

static void add_access(void *arg, const tl_hazard_access_t *a)
{
    sched_t *S = arg;
    S->acc = grow(S, S->acc, &S->capacc, S->nacc + 1, sizeof *S->acc);
    if (S->nacc < S->capacc) S->acc[S->nacc++] = *a;
}

static void add_reg(void *arg, const tl_access_t *a)
{
    sched_t *S = arg;
    if (a->buf->scope != TL_SCOPE_VAR) return;
    S->reg = grow(S, S->reg, &S->capreg, S->nreg + 1, sizeof *S->reg);
    if (S->nreg < S->capreg) S->reg[S->nreg++] = (reg_t){a->buf, (a->mode & TL_ACCESS_WRITE) != 0};
}

static void collect(void *arg, tl_stmt_t *s)
{
    tl_hazard_stmt(s, add_access, arg);
    tl_access_stmt(s, add_reg, arg);
}

static tl_hazard_rel_t rel(void *arg, const tl_var_t *v)
{
    const sched_t *S = arg;
    // loop variables of loops inside the two statements: any value
    if (v->kind == TL_VAR_LOOP && (v->id >= S->nvars || !S->enclosing[v->id])) return TL_HAZARD_ANY;
    return TL_HAZARD_EQ;
}

static int64_t trip_of(const tl_stmt_t *s)
{
    int64_t a, b;
    if (tl_ir_is_const_int(s->for_.start, &a) && tl_ir_is_const_int(s->for_.end, &b))
        return TL_MAX(b - a, 0);
    return 1;
}

// Runs of t times summary b, one after the other.
static summary_t repeat(const summary_t *b, int64_t t)
{
    summary_t r = *b;
    if (t <= 0) return (summary_t){b->s, 1, 1, {0}, {0}, 0, false};
    int64_t before = (t - 1) * b->span;
    r.span = before + b->span;
    r.issue = (t - 1) * TL_MAX(b->issue, b->span) + b->issue;
    for (int p = 0; p < TL_PIPE_COUNT; p++) {
        if (!(b->pipes >> p & 1)) continue;
        r.free[p] = before + b->free[p];
        r.done[p] = before + b->done[p];
    }
    return r;
}

static summary_t summary_of(sched_t *S, const tl_stmt_t *s)
{
    summary_t z = {s, 1, 1, {0}, {0}, 0, false};
    const summary_t *f;
    switch (s->kind) {
    case TL_ST_SEQ: return (f = sum_find(S, s)) ? *f : z;
    case TL_ST_FOR: {
        summary_t b = summary_of(S, s->for_.body);
        return repeat(&b, trip_of(s));
    }
    case TL_ST_IF: {
        summary_t a = summary_of(S, s->if_.then_);
        summary_t b = s->if_.else_ ? summary_of(S, s->if_.else_) : z;
        // either branch: the longer of each
        a.span = TL_MAX(a.span, b.span);
        a.issue = TL_MAX(a.issue, b.issue);
        for (int p = 0; p < TL_PIPE_COUNT; p++) {
            a.free[p] = TL_MAX(a.free[p], b.free[p]);
            a.done[p] = TL_MAX(a.done[p], b.done[p]);
        }
        a.pipes |= b.pipes;
        a.scalar |= b.scalar;
        return a;
    }
    default: return z;
    }
}

static void build_node(sched_t *S, node_t *n, tl_stmt_t *s)
{
    memset(n, 0, sizeof *n);
    n->s = s;
    n->group = -1;
    n->acc0 = S->nacc;
    n->reg0 = S->nreg;
    tl_rewrite_walk(s, collect, S);
    n->acc1 = S->nacc;
    n->reg1 = S->nreg;
    if (s->kind == TL_ST_LET) n->def = s->let.var;
    if (s->kind == TL_ST_FOR || s->kind == TL_ST_IF || s->kind == TL_ST_SEQ) {
        n->kind = N_UNIT;
        n->sum = summary_of(S, s);
        n->sum.span = TL_MAX(n->sum.span, 1);
    } else {
        leaf_cost(S, n);
    }
}

// Whether two accesses may be in the same memory at all (a cheap test before
// the exact one).
static bool may_alias(const tl_hazard_access_t *a, const tl_hazard_access_t *b)
{
    const tl_buffer_t *x = a->buf, *y = b->buf;
    if (x == y) return true;
    if (x->scope != y->scope || x->scope == TL_SCOPE_GM || x->addr < 0 || y->addr < 0) return false;
    int64_t xe = TL_ALIGN_UP(x->addr + tl_buffer_bytes(x), 32),
            ye = TL_ALIGN_UP(y->addr + tl_buffer_bytes(y), 32);
    return x->addr / 32 * 32 < ye && y->addr / 32 * 32 < xe;
}

static dep_t depends(sched_t *S, const node_t *a, const node_t *b)
{
    dep_t d = 0;
    for (int i = a->acc0; i < a->acc1; i++)
        for (int j = b->acc0; j < b->acc1; j++) {
            const tl_hazard_access_t *x = &S->acc[i], *y = &S->acc[j];
            if (!x->write && !y->write) continue;
            if ((d & DEP_S) || ((d & DEP_MEM) && y->pipe != TL_PIPE_S)) continue;
            if (!may_alias(x, y) || !tl_hazard_overlap(S->hz, x, y, rel, S)) continue;
            d |= DEP | DEP_MEM | (y->pipe == TL_PIPE_S ? DEP_S : 0);
        }
    for (int i = a->reg0; i < a->reg1 && !(d & DEP); i++)
        for (int j = b->reg0; j < b->reg1; j++)
            if (S->reg[i].buf == S->reg[j].buf && (S->reg[i].write || S->reg[j].write)) d |= DEP;
    if ((a->def && tl_subst_stmt_mentions(b->s, a->def)) ||
        (b->def && (a->def == b->def || tl_subst_stmt_mentions(a->s, b->def))))
        d |= DEP;
    return d;
}

// Nodes and dependences of items[0 .. n).
static bool build(sched_t *S, tl_stmt_t **items, int n)
{
    S->nacc = S->nreg = 0;
    S->n = n;
    for (int i = 0; i < n; i++) build_node(S, &S->nodes[i], items[i]);
    if (S->oom) return false;
    memset(S->dep, 0, (size_t)n * (size_t)n);
    int edges = 0;
    for (int j = 0; j < n; j++) {
        S->mp0[j] = edges;
        for (int i = 0; i < j; i++) {
            dep_t d = depends(S, &S->nodes[i], &S->nodes[j]);
            S->dep[i * n + j] = d;
            if (!(d & DEP_MEM)) continue;
            S->mpred = grow(S, S->mpred, &S->capmpred, edges + 1, sizeof *S->mpred);
            if (edges < S->capmpred) S->mpred[edges++] = i;
        }
    }
    S->mp0[n] = edges;
    // Each pipe but the vector pipe keeps its order: transfers share the
    // memory system first come first served, and the cube's pipes are
    // pipelined by the program (pipelined.c); only the vector ops interleave.
    for (int p = TL_PIPE_S + 1; p < TL_PIPE_COUNT; p++) {
        if (p == TL_PIPE_V) continue;
        for (int j = 0, last = -1; j < n; j++) {
            const node_t *a = &S->nodes[j];
            if (!(a->kind == N_UNIT ? a->sum.pipes >> p & 1 : a->pipe == (tl_pipe_t)p)) continue;
            if (last >= 0) S->dep[last * n + j] |= DEP;
            last = j;
        }
    }
    return !S->oom;
}

// --- unrolling and fusion -----------------------------------------------------------------------

static bool leaf_body(const tl_stmt_t *b, int *count)
{
    *count = 0;
    for (int i = 0; i < b->seq.n; i++) {
        const tl_stmt_t *s = b->seq.items[i];
        if ((s->kind != TL_ST_OP && s->kind != TL_ST_STORE) || fixed_leaf(s)) return false;
        (*count)++;
    }
    return *count > 0;
}

// Replaces small loops of seq by their iterations; records them in *un.
static int unroll_small(sched_t *S, tl_stmt_t *seq, unrolled_t *un, int max)
{
    tl_kernel_t *k = S->k;
    int nun = 0, total = 0;
    for (int i = 0; i < seq->seq.n && nun < max; i++) {
        tl_stmt_t *l = seq->seq.items[i];
        int64_t a, b;
        int nb;
        if (l->kind != TL_ST_FOR ||
            (l->for_.loop != TL_LOOP_SERIAL && l->for_.loop != TL_LOOP_UNROLL) ||
            !tl_ir_is_const_int(l->for_.start, &a) || !tl_ir_is_const_int(l->for_.end, &b) ||
            b - a < 2 || b - a > UNROLL_TRIP || l->for_.body->kind != TL_ST_SEQ ||
            !leaf_body(l->for_.body, &nb) || (b - a) * nb > UNROLL_STMTS ||
            total + (b - a) * nb > MAX_NODES / 2)
            continue;
        int m = (int)(b - a) * nb;
        tl_stmt_t **copies = tl_arena_alloc(k->arena, sizeof *copies * (size_t)m);
        for (int64_t t = 0; t < b - a; t++) {
            tl_subst_t sub;
            tl_subst_init(&sub);
            tl_subst_var(&sub, l->for_.var, tl_ir_int(k, a + t, l->for_.var->dtype, l->loc));
            for (int j = 0; j < nb; j++)
                copies[t * nb + j] = tl_subst_stmt(k, &sub, l->for_.body->seq.items[j]);
            tl_subst_free(&sub);
        }
        tl_rewrite_remove(seq, i);
        for (int j = 0; j < m; j++) tl_rewrite_insert(k, seq, i + j, copies[j]);
        un[nun++] = (unrolled_t){l, copies, m};
        total += m;
        i += m - 1;
    }
    return nun;
}

// Puts back each unrolled loop whose statements stayed together, in order.
static void roll_back(sched_t *S, tl_stmt_t *seq, const unrolled_t *un, int nun)
{
    for (int u = 0; u < nun; u++) {
        int at = -1;
        for (int i = 0; i < seq->seq.n && at < 0; i++)
            if (seq->seq.items[i] == un[u].stmts[0]) at = i;
        bool intact = at >= 0 && at + un[u].n <= seq->seq.n;
        for (int j = 1; intact && j < un[u].n; j++)
            intact = seq->seq.items[at + j] == un[u].stmts[j];
        if (!intact) {
            S->unrolled++;
            continue;
        }
        for (int j = 0; j < un[u].n; j++) tl_rewrite_remove(seq, at);
        tl_rewrite_insert(S->k, seq, at, un[u].loop);
    }
}

static bool fusable(const tl_stmt_t *a, const tl_stmt_t *b)
{
    return a->kind == TL_ST_FOR && b->kind == TL_ST_FOR && a->for_.loop == TL_LOOP_SERIAL &&
           b->for_.loop == TL_LOOP_SERIAL && !a->for_.staggered && !b->for_.staggered &&
           tl_ir_expr_equal(a->for_.start, b->for_.start) &&
           tl_ir_expr_equal(a->for_.end, b->for_.end) && a->for_.body->kind == TL_ST_SEQ &&
           b->for_.body->kind == TL_ST_SEQ;
}

// reach[j * w + ...]: the nodes j depends on, directly or through others.
static uint64_t *reach_of(const sched_t *S, int *words)
{
    int n = S->n, w = (n + 63) / 64;
    uint64_t *r = calloc((size_t)n * (size_t)w + 1, sizeof *r);
    if (!r) return NULL;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < j; i++)
            if (S->dep[i * n + j]) {
                for (int x = 0; x < w; x++) r[j * w + x] |= r[i * w + x];
                r[j * w + i / 64] |= 1ull << (i % 64);
            }
    *words = w;
    return r;
}

// Fuses one pair of independent loops of items[lo .. hi) of seq; true when it did.
static bool fuse_one(sched_t *S, tl_stmt_t *seq, int lo, int hi)
{
    if (!build(S, seq->seq.items + lo, hi - lo)) return false;
    int w, n = S->n;
    uint64_t *r = reach_of(S, &w);
    if (!r) {
        S->oom = true;
        return false;
    }
    for (int j = 0; j < n; j++)
        for (int i = 0; i < j; i++) {
            tl_stmt_t *a = S->nodes[i].s, *b = S->nodes[j].s;
            if (!fusable(a, b) || (r[j * w + i / 64] >> (i % 64) & 1)) continue;
            // no dependence between any iterations of the two: the loop
            // variables are unrelated here (rel: loops inside the statements)
            tl_kernel_t *k = S->k;
            tl_subst_t sub;
            tl_subst_init(&sub);
            tl_subst_var(&sub, b->for_.var, tl_ir_varref(k, a->for_.var, b->loc));
            tl_stmt_t *body = tl_subst_stmt(k, &sub, b->for_.body);
            tl_subst_free(&sub);
            tl_stmt_t *f = tl_arena_dup(k->arena, a, sizeof *a);
            f->for_.body = tl_ir_seq(k, a->loc);
            for (int x = 0; x < a->for_.body->seq.n; x++)
                tl_ir_seq_push(k, f->for_.body, a->for_.body->seq.items[x]);
            for (int x = 0; x < body->seq.n; x++)
                tl_ir_seq_push(k, f->for_.body, body->seq.items[x]);
            // The fused loop takes b's place. The statements between the two
            // that depend on a (through any chain) go after it, the others
            // stay before it: none of the others depends on one of those
            // (it would depend on a too), and b depends on none of them (a
            // would reach b).
            tl_stmt_t **mid = malloc(sizeof *mid * (size_t)(j - i));
            if (!mid) {
                free(r);
                S->oom = true;
                return false;
            }
            int nm = 0, at = lo + i;
            for (int x = i + 1; x < j; x++)
                if (!(r[x * w + i / 64] >> (i % 64) & 1)) seq->seq.items[at++] = S->nodes[x].s;
            seq->seq.items[at++] = f;
            for (int x = i + 1; x < j; x++)
                if (r[x * w + i / 64] >> (i % 64) & 1) mid[nm++] = S->nodes[x].s;
            memcpy(seq->seq.items + at, mid, sizeof *mid * (size_t)nm);
            tl_rewrite_remove(seq, lo + j);
            free(mid);
            free(r);
            return true;
        }
    free(r);
    return false;
}

// --- list scheduling ----------------------------------------------------------------------------

static void heights(sched_t *S)
{
    int n = S->n;
    for (int i = n - 1; i >= 0; i--) {
        node_t *a = &S->nodes[i];
        int64_t own = a->kind == N_UNIT ? a->sum.span : a->occ + a->lat, tail = 0;
        for (int j = i + 1; j < n; j++)
            if (S->dep[i * n + j]) tail = TL_MAX(tail, S->nodes[j].height);
        a->height = own + tail;
    }
}

// The list schedule of the current nodes into order[]; returns its modeled cycles.
static int64_t list_schedule(sched_t *S, int *order, slot_t *slot, int *npred, bool window)
{
    int n = S->n;
    model_t m;
    model_init(&m);
    for (int j = 0; j < n; j++) {
        npred[j] = 0;
        for (int i = 0; i < j; i++) npred[j] += S->dep[i * n + j] != 0;
    }
    int64_t *start = malloc(sizeof *start * (size_t)n);
    if (!start) {
        S->oom = true;
        return INT64_MAX;
    }
    for (int step = 0; step < n; step++) {
        // the ready node that can start first, and its occupancy: any ready
        // node that starts before that op would end may go first, the one
        // with the longest path to the end (then the first in program order)
        int first = -1;
        for (int i = 0; i < n; i++) {
            if (npred[i]) continue;
            start[i] = place(S, &m, slot, i, false);
            if (first < 0 || start[i] < start[first]) first = i;
        }
        const node_t *f = &S->nodes[first];
        int64_t until = start[first] + (window ? TL_MAX(1, f->kind == N_UNIT ? 1 : f->occ) : 1);
        int best = first;
        for (int i = 0; i < n; i++)
            if (!npred[i] && start[i] < until &&
                (S->nodes[i].height > S->nodes[best].height ||
                 (S->nodes[i].height == S->nodes[best].height && i < best)))
                best = i;
        place(S, &m, slot, best, true);
        order[step] = best;
        npred[best] = -1;
        for (int j = best + 1; j < n; j++)
            if (S->dep[best * n + j]) npred[j]--;
    }
    free(start);
    return model_end(&m);
}

// Modeled cycles of two iterations of a loop body in `order`: the second
// iteration's statements also wait for every statement of the first they
// conflict with (in either order; a conservative view of the dependences
// across the back edge), so the tail of one iteration meets the head of the
// next as in the steady state. -1 when out of memory.
static int64_t model_twice(sched_t *S, const int *order)
{
    int n = S->n, n2 = 2 * n;
    node_t *nodes = malloc(sizeof *nodes * (size_t)n2);
    dep_t *dep = calloc((size_t)n2 * (size_t)n2, 1);
    int *mp0 = malloc(sizeof *mp0 * (size_t)(n2 + 1)),
        *order2 = malloc(sizeof *order2 * (size_t)n2);
    int *mpred = malloc(sizeof *mpred * ((size_t)n * (size_t)n2 + 1));
    slot_t *slot = malloc(sizeof *slot * (size_t)n2);
    int64_t t = -1;
    if (nodes && dep && mp0 && order2 && mpred && slot) {
        int edges = 0;
        for (int j = 0; j < n2; j++) {
            nodes[j] = S->nodes[j % n];
            order2[j] = j < n ? order[j] : order[j - n] + n;
            mp0[j] = edges;
            for (int i = 0; i < j; i++) {
                int a = i % n, b = j % n;
                dep_t d = i < n && j >= n      ? S->dep[TL_MIN(a, b) * n + TL_MAX(a, b)]
                          : (i < n) == (j < n) ? S->dep[a * n + b]
                                               : 0;
                if (i < n && j >= n && a == b && S->nodes[a].acc1 > S->nodes[a].acc0)
                    d |= DEP | DEP_MEM;
                dep[i * n2 + j] = d;
                if (d & DEP_MEM) mpred[edges++] = i;
            }
        }
        mp0[n2] = edges;
        sched_t T = *S;
        T.nodes = nodes;
        T.dep = dep;
        T.mp0 = mp0;
        T.mpred = mpred;
        T.n = n2;
        t = model_order(&T, order2, slot, NULL);
    }
    free(nodes);
    free(dep);
    free(mp0);
    free(order2);
    free(mpred);
    free(slot);
    return t;
}

// Schedules items[0 .. n) in place (`body`: they are a whole loop body) and
// appends the modeled run of the order kept to sum.
// Modeled cycles of an order with a cold L2 and with a warm one.
typedef struct {
    int64_t cold, warm;
} cost_t;

static void set_l2(sched_t *S, bool warm)
{
    for (int i = 0; i < S->n; i++)
        if (S->nodes[i].kind == N_PIPE)
            S->nodes[i].lat = warm ? S->nodes[i].lat_warm : S->nodes[i].lat_cold;
}

static cost_t cost_of(sched_t *S, const int *order, bool twice, slot_t *slot)
{
    cost_t c;
    c.cold = twice ? model_twice(S, order) : model_order(S, order, slot, NULL);
    set_l2(S, true);
    c.warm = twice ? model_twice(S, order) : model_order(S, order, slot, NULL);
    set_l2(S, false);
    return c;
}

// Whether c ends earlier than best with a cold L2 and no later with a warm one.
static bool better(cost_t c, cost_t best)
{
    return c.cold >= 0 && c.warm >= 0 && c.cold < best.cold && c.warm <= best.warm;
}

static cost_t schedule_segment(sched_t *S, tl_stmt_t **items, int n, bool body, summary_t *sum,
                               bool *moved)
{
    cost_t zero = {0, 0};
    if (!build(S, items, n)) return zero;
    int *order = malloc(sizeof *order * (size_t)n * 4);
    bool changed = false;
    slot_t *slot = malloc(sizeof *slot * (size_t)n);
    if (!order || !slot) {
        S->oom = true;
        free(order);
        free(slot);
        return zero;
    }
    int *orig = order + n, *npred = order + 2 * n, *keep = order + 3 * n;
    unsigned pipes = 0;
    bool scalar = false;
    for (int i = 0; i < n; i++) {
        orig[i] = i;
        const node_t *a = &S->nodes[i];
        pipes |= a->kind == N_UNIT ? a->sum.pipes : 1u << a->pipe | (a->pre ? 1u << TL_PIPE_S : 0);
        scalar |= a->kind == N_UNIT ? a->sum.scalar : a->kind == N_SCALAR || a->pre;
    }
    // Candidates: the program's order, the list schedule that lets a ready
    // statement with a longer path to the end go before one that starts a
    // little earlier, and the one that always takes the earliest start. The
    // model picks (over two iterations for a loop body) with GM reads missing
    // the L2 (cold), among the orders no slower than the program's when they
    // hit (warm); ties to the first.
    model_t m;
    model_order(S, orig, slot, &m);
    bool twice = body && n <= MAX_LOOP_NODES;
    cost_t prog = cost_of(S, orig, twice, slot), best = prog;
    if (n > 1) {
        heights(S);
        for (int v = 0; v < 2; v++) {
            list_schedule(S, order, slot, npred, v == 0);
            cost_t c = cost_of(S, order, twice, slot);
            if (!better(c, prog) || (changed && c.cold >= best.cold)) continue;
            best = c;
            memcpy(keep, order, sizeof *order * (size_t)n);
            changed = true;
        }
    }
    if (changed) {
        tl_stmt_t **tmp = malloc(sizeof *tmp * (size_t)n);
        if (tmp) {
            for (int i = 0; i < n; i++) {
                tmp[i] = items[keep[i]];
                *moved |= keep[i] != i;
            }
            memcpy(items, tmp, sizeof *tmp * (size_t)n);
            free(tmp);
            model_order(S, keep, slot, &m);
        }
    }
    summary_add(sum, &m, pipes, scalar);
    free(order);
    free(slot);
    return best;
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
        schedule_seq(S, s->for_.body, trip_of(s) != 1 || !tl_ir_is_const_int(s->for_.end, NULL));
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
        if (hi - lo >= 2 && hi - lo <= MAX_NODES && fuse_one(S, seq, lo, hi)) {
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
            cost_t c = schedule_segment(S, seq->seq.items + lo, hi - lo,
                                        body && lo == 0 && hi == seq->seq.n, sum, moved);
            cost.cold += c.cold;
            cost.warm += c.warm;
        }
        if (hi < seq->seq.n) { // a barrier: everything before it first
            summary_t b = summary_of(S, seq->seq.items[hi]);
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
    unrolled_t un[64];
    int nun = unroll_small(S, seq, un, 64), n0 = seq->seq.n;
    tl_stmt_t **orig = malloc(sizeof *orig * ((size_t)TL_MAX(n0, 0) * 2 + 1));
    if (!orig) {
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
        if (better(cost, c2)) {
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
        roll_back(S, seq, un, nun);
    else
        S->unrolled += nun;
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
    S.arch = tl_arch_get("a2");
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
