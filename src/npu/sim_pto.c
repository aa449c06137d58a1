// The PTO target's own synchronisation inside its ops (target="pto"). That
// build has no compiler sync (sim_auto.c), but pto-isa's a2a3 implementations
// (include/pto/npu/a2a3/*.hpp) and tilelang-ascend's PTO wrappers
// (src/tl_templates/pto/common.h) place pipe_barrier(PIPE_V) between the
// instructions of some ops, and codegen_ascend_pto.cc puts set_flag /
// wait_flag(V, S) before every fill. Modeled per op (docs/simulator.md, "What
// the upstream build adds"):
//
//   op (tilec)                      pto-isa                       steps
//   row_expand_{mul,sub,div}[_exp]  TROWEXPAND* (DN src1),        vbrcb of src1 (into a tmp),
//                                   TRowExpandBinOp.hpp           barrier, the op on src0/dst
//   reduce dim=-1, float/half       TROWSUM/MAX/MIN,              the steps, ending with a
//                                   TRowReduceOps.hpp             barrier (clear=False: then the
//                                                                 merge into dst, no barrier)
//   reduce dim=0 (2-D source)       TCOLSUM (TColSum.hpp),        copy of the source's first row
//                                   TCOLMAX/MIN (TColReduceOps)   into dst, barrier, the rows,
//                                                                 barrier (clear=False: into a
//                                                                 tmp, then the merge)
//   mul_add_dst                     common.h MulAddDst            TMUL into a tmp, barrier, TADD
//   fill                            codegen FillCodegen           set/wait_flag(V, S) first
//
// An op is split into a first instruction (the operands it touches before
// the first internal barrier), the barrier, and the rest; other ops stay one
// instruction with no barrier (elementwise ops, TRELU, ... have none), as do
// ops whose PTO template also writes its source in place (sigmoid, silu,
// pow), which are not modeled.
#include "npu/sim_int.h"

#include "target/cost.h"

typedef struct {
    unsigned pre;  // operands (bit i: operand i) touched before the first internal barrier
    unsigned row0; // of those, operands of which only the first row is touched then
    unsigned main; // operands touched after it
    bool mid;      // the first step is followed by pipe_barrier(PIPE_V)
    bool end;      // the op ends with pipe_barrier(PIPE_V) on every path
    const char *step;
} pto_steps_t;

static bool float_or_half(tl_dtype_t t)
{
    return t == TL_F32 || t == TL_F16;
}

static bool pto_steps(const tl_opcall_t *call, pto_steps_t *st)
{
    const tl_op_t *op = call->op;
    *st = (pto_steps_t){.main = ~0u};
    switch (op->code) {
    case TL_OP_ROW_EXPAND_MUL:
    case TL_OP_ROW_EXPAND_SUB:
    case TL_OP_ROW_EXPAND_DIV:
    case TL_OP_ROW_EXPAND_MUL_X:
    case TL_OP_ROW_EXPAND_SUB_X:
    case TL_OP_ROW_EXPAND_DIV_X:
        // vbrcb(tmp, src1); pipe_barrier(PIPE_V); op(dst, src0, tmp)
        *st = (pto_steps_t){(1u << 2) | (1u << 3), 0, 3u, true, false, "vbrcb (pto-isa)"};
        return call->nargs >= 3;
    case TL_OP_REDUCE_SUM:
    case TL_OP_REDUCE_MAX:
    case TL_OP_REDUCE_MIN: {
        const tl_view_t *src = &call->args[0].view;
        if (call->nargs < 2) return false;
        if (op->dim == 0) {
            if (src->ndim != 2) return false;
            // copy_ubuf_to_ubuf(dst or tmp, first row); barrier; the other rows, each
            // followed by a barrier (clear=False: into a tmp, then TADD/TMAX/TMIN
            // into dst, which ends with no barrier)
            *st = (pto_steps_t){op->clear ? 3u : 1u,       1u, ~0u, true, op->clear,
                                "first-row copy (pto-isa)"};
            return true;
        }
        if (!float_or_half(src->dtype)) return false; // integer rows take another path
        if (op->clear) {
            *st = (pto_steps_t){0, 0, ~0u, false, true, NULL};
            return true;
        }
        // the reduction into a tmp, ending with a barrier; then the merge into dst
        *st = (pto_steps_t){1u, 0, 2u, true, false, "row reduction (pto-isa)"};
        return true;
    }
    case TL_OP_MUL_ADD_DST:
        // MulAddDst: TMUL(tmp, src0, src1); barrier; TADD(dst, dst, tmp)
        *st = (pto_steps_t){6u, 0, 1u, true, false, "TMUL into tmp (MulAddDst)"};
        return call->nargs >= 3;
    default: return false;
    }
}

// The first step: the accesses of the operands in st->pre (the first row only
// of those in st->row0), as one vector instruction.
static void first_step(tl_sim_t *s, sim_agent_t *ag, const tl_exec_event_t *ev,
                       const pto_steps_t *st)
{
    const tl_opcall_t *call = ev->call;
    int64_t row_lo[8], row_hi[8];
    for (int i = 0; i < 8; i++) row_lo[i] = INT64_MAX, row_hi[i] = 0;
    for (int i = 0; i < s->nruns; i++) {
        const sim_run_t *r = &s->runs[i];
        if (r->operand >= 8 || !(st->row0 & (1u << r->operand))) continue;
        const tl_view_t *v = &call->args[r->operand].view;
        int64_t row = v->extent[v->ndim - 1] * tl_dtype_size(v->dtype);
        row_lo[r->operand] = TL_MIN(row_lo[r->operand], r->off);
        row_hi[r->operand] = row_lo[r->operand] + row;
    }
    sim_inst_t in = {0};
    in.pipe = SIM_PIX(TL_PIPE_V);
    in.site = sim_site(s, ev->stmt, STEP_LOAD_A, TL_PIPE_V, st->step);
    int64_t bytes = 0;
    for (int i = 0; i < s->nruns; i++) {
        const sim_run_t *r = &s->runs[i];
        if (r->operand < 8 && (st->pre & (1u << r->operand))) bytes += r->len;
    }
    tl_price_t p = tl_cost_price(
        s->arch,
        &(tl_work_t){.pipe = TL_PIPE_V, .cost = tl_op_info(TL_OP_FILL)->cost, .bytes = bytes});
    in.occ = p.occ;
    in.lat = p.lat;
    in.bytes = bytes;
    sim_inst_issue(s, ag, &in);
    for (int k = 0; k < 2 * s->nruns; k++) { // reads first
        const sim_run_t *r = &s->runs[k % s->nruns];
        if (r->write != (k >= s->nruns) || r->operand >= 8 || !(st->pre & (1u << r->operand)))
            continue;
        int64_t lo = r->off, hi = r->off + r->len;
        if (st->row0 & (1u << r->operand)) {
            lo = TL_MAX(lo, row_lo[r->operand]);
            hi = TL_MIN(hi, row_hi[r->operand]);
        }
        if (hi > lo)
            sim_hb_access(s, ag, &in, call->op->args[r->operand].region.buf, lo, hi - lo, r->write,
                          NULL, NULL);
    }
    sim_inst_done(s, ag, &in);
}

unsigned sim_pto_before(tl_sim_t *s, sim_agent_t *ag, const tl_exec_event_t *ev)
{
    const tl_opcall_t *call = ev->call;
    if (!s->pto || ag->id == TL_AGENT_AIC) return ~0u;
    if (call->op->code == TL_OP_FILL) {
        sim_sync_edge(s, ag, SIM_PIX(TL_PIPE_V), SIM_S);
        sim_auto_note(s, ag, TL_SIM_AUTO_TEMPLATE, "set/wait_flag(v, s) [PTO fill]");
        return ~0u;
    }
    pto_steps_t st;
    if (!pto_steps(call, &st) || !st.mid) return ~0u;
    first_step(s, ag, ev, &st);
    sim_sync_pipe_barrier(s, ag, SIM_PIX(TL_PIPE_V));
    sim_auto_note(s, ag, TL_SIM_AUTO_TEMPLATE, "pipe_barrier(v) [inside the pto-isa op]");
    return st.main;
}

void sim_pto_after(tl_sim_t *s, sim_agent_t *ag, const tl_exec_event_t *ev)
{
    pto_steps_t st;
    if (!s->pto || ag->id == TL_AGENT_AIC || !pto_steps(ev->call, &st) || !st.end) return;
    sim_sync_pipe_barrier(s, ag, SIM_PIX(TL_PIPE_V));
    sim_auto_note(s, ag, TL_SIM_AUTO_TEMPLATE, "pipe_barrier(v) [ending the pto-isa op]");
}
