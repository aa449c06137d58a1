// The costs and the timing model of the schedule pass (see schedule.c): what
// each statement costs on its pipe, and the in-order pipes a schedule is
// placed in.
#include "pass/schedule_int.h"

#include "ir/walk.h"
#include "target/cost.h"

#include <string.h>

// --- costs ------------------------------------------------------------------------------------

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
        l->cycles += tl_cost_scalar(l->a, e->load.buf->scope, false, true);
    return true;
}

// Scalar cycles of the loads in e.
static int64_t load_cycles(const tl_arch_t *a, const tl_expr_t *e)
{
    loads_t l = {a, 0};
    if (e) tl_walk_expr(e, count_load, &l);
    return l.cycles;
}

// Occupancy and latency of a tile op: the chip model's price (target/cost.c,
// the simulator's too) of its work read from the IR's constant extents.
static void op_cost(const tl_arch_t *a, const tl_op_t *op, node_t *n)
{
    const tl_opinfo_t *info = tl_op_info(op->code);
    int64_t count = -1;
    if (info->cls == TL_OPC_VEC && strstr(info->signature, "[s]") && op->nargs == info->max_args &&
        op->args[op->nargs - 1].kind == TL_ARG_SCALAR)
        count = const_or(op->args[op->nargs - 1].scalar, -1);
    int64_t widest = 0, elems = 0, moved = 0, bytes[2] = {0, 0};
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
        elems = TL_MAX(elems, b / tl_dtype_size(g->region.buf->dtype));
        // a reduction that clears its output does not read it
        if (info->cls == TL_OPC_REDUCE && i == 1) role = op->clear ? 'w' : 'x';
        reads += role == 'r' || role == 'v' || role == 'x';
        moved += role == 'x' ? 2 * b : b; // 'x' is read and written
        if (i < 2) bytes[i] = b;
    }
    // The work as the chip model prices it (target/cost.h); the operands'
    // roles as this pass has always read them: operand 0 the source of a GM
    // read, operand 1 the destination of the other transfers.
    n->pipe = tl_op_pipe(op);
    tl_work_t w = {.pipe = n->pipe, .cost = info->cost, .reads = reads};
    if (op->nargs >= 2 && op->args[1].kind == TL_ARG_REGION) w.dst = op->args[1].region.buf->scope;
    switch (n->pipe) {
    case TL_PIPE_MTE2: w.bytes = bytes[0]; break;
    case TL_PIPE_MTE1:
    case TL_PIPE_MTE3: w.bytes = bytes[1]; break;
    case TL_PIPE_FIX: w.elems = bytes[1] / tl_dtype_size(op->args[1].region.buf->dtype); break;
    case TL_PIPE_M: {
        const tl_region_t *A = &op->args[0].region, *C = &op->args[2].region;
        w.m = C->ndim >= 2 ? const_or(C->extent[C->ndim - 2], 16) : 1;
        w.n = const_or(C->extent[C->ndim - 1], 16);
        w.k = const_or(A->extent[A->ndim - 1], 16);
        w.in = A->buf->dtype;
        break;
    }
    default:
        w.bytes = widest;
        w.elems = elems;
        w.moved = moved;
        break;
    }
    tl_price_t p = tl_cost_price(a, &w);
    n->occ = TL_MAX(p.occ, 1);
    n->lat = n->lat_cold =
        p.lat + p.miss; // a cold L2 misses, a warm one hits (the model tries both)
    n->lat_warm = p.lat;
}

void sched_leaf_cost(sched_t *S, node_t *n)
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
        n->occ = tl_cost_scalar(a, TL_SCOPE_VAR, false, true) + load_cycles(a, s->let.value);
        return;
    case TL_ST_STORE:
        n->kind = N_SCALAR;
        // the pass runs on TL_ASCEND_AUTO_SYNC kernels: their UB stores get the barrier
        n->occ =
            tl_cost_scalar(a, s->store.buf->scope, true, true) + load_cycles(a, s->store.value);
        for (int i = 0; i < s->store.n; i++) n->occ += load_cycles(a, s->store.idx[i]);
        return;
    default:
        n->kind = N_SCALAR;
        n->occ = tl_cost_scalar(a, TL_SCOPE_VAR, false, true);
        return;
    }
}

// --- the timing model ---------------------------------------------------------------------------

void sched_model_init(model_t *m)
{
    memset(m, 0, sizeof *m);
}

static bool uses(unsigned pipes, tl_pipe_t p)
{
    return pipes & (1u << p);
}

// Places node i after the placed nodes (slot[] of its predecessors set);
// returns its start and, when commit, updates the model and slot[i].
int64_t sched_place(const sched_t *S, model_t *m, slot_t *slot, int i, bool commit)
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
            m->issue = issue + S->arch->issue_cycles;
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

int64_t sched_model_end(const model_t *m)
{
    int64_t t = m->issue;
    for (int p = 0; p < TL_PIPE_COUNT; p++) t = TL_MAX(t, m->done[p]);
    return t;
}

// Modeled cycles of the nodes in `order` (the model's end state in *out).
int64_t sched_model_order(const sched_t *S, const int *order, slot_t *slot, model_t *out)
{
    model_t m;
    sched_model_init(&m);
    for (int i = 0; i < S->n; i++) sched_place(S, &m, slot, order[i], true);
    if (out) *out = m;
    return sched_model_end(&m);
}

// Appends the modeled run m of nodes (pipes, scalar: what they use) to sum,
// after everything sum holds.
void sched_summary_add(summary_t *sum, const model_t *m, unsigned pipes, bool scalar)
{
    int64_t at = sum->span;
    sum->span = at + sched_model_end(m);
    sum->issue = at + m->issue;
    for (int p = 0; p < TL_PIPE_COUNT; p++)
        if (pipes >> p & 1) {
            sum->free[p] = at + m->free[p];
            sum->done[p] = at + m->done[p];
        }
    sum->pipes |= pipes;
    sum->scalar |= scalar;
}
