// Synchronisation the upstream build adds to what the kernel writes, so that
// the race verdict is the one of the binary upstream would run
// (docs/simulator.md, "What the upstream build adds"):
//
// - bisheng's automatic synchronisation. tilelang-ascend compiles the
//   generated Ascend C with `bisheng -xasc ... --shared` and a <<<>>> launch
//   (tilelang/jit/adapter/libgen.py), a heterogeneous compile, for which
//   asc-devkit says `--cce-auto-sync` is on by default (核内同步/关键特性说明.md).
//   On a vector core it inserts PipeBarrier<PIPE_V> between dependent vector
//   instructions and the V/MTE2/MTE3 <-> S flags around scalar accesses of
//   the data; nothing between V, MTE2 and MTE3 (the TQue framework's part,
//   which tilelang's TBuf buffers do not use) and nothing on the cube core.
//   Modeled on the vector cores of targets "auto" and "ascendc": a vector
//   instruction that conflicts with an earlier vector instruction not ordered
//   before it gets a pipe_barrier(v) first; a scalar access that conflicts
//   with an unordered V / MTE2 / MTE3 access gets that pipe's flag to S.
//   The PTO target compiles CCE intrinsics on raw __ubuf__ pointers, which
//   the compiler does not synchronise (the same page), but there upstream's
//   own pass AscendSyncInsertVS (tl.ascend_auto_sync_vs, on by default for
//   target pto: tilelang/transform/pass_config.py _TARGET_PASS_DEFAULTS;
//   it then builds with --cce-auto-sync=off) inserts the same pairs:
//   PipeBarrier<PIPE_V> between dependent vector instructions and flags
//   between S and V / MTE2 / MTE3, nothing between V, MTE2 and MTE3
//   (ascend_sync_insert_vs.cc, ShouldSync). Modeled alike; with
//   TL_ASCEND_AUTO_SYNC_VS False the PTO build gets none.
// - The code generators' reads of a scalar operand that is a buffer element
//   (T.tile.add(d, s, buf[i]) and the other arithmetic binary ops,
//   tl_op_arith; compare, select):
//   codegen_ascend.cc reads it with GetValue after PipeBarrier<PIPE_ALL>,
//   codegen_ascend_pto.cc after set_flag / wait_flag(V, S).
// - tl::ascend::copy_gm_to_ub (src/tl_templates/ascend/common.h) when the GM
//   side is clipped at the tensor's edge: it fills the destination with the
//   pad value first, between SetFlag/WaitFlag<MTE2_V>, <MTE3_V> and <V_MTE2>
//   (event id 0), so the copy follows every earlier MTE2, MTE3 and vector
//   instruction.
#include "npu/sim_int.h"

#include "target/cost.h"

#include <math.h>
#include <stdio.h>

void sim_auto_note(tl_sim_t *s, const sim_agent_t *ag, tl_sim_auto_kind_t kind, const char *what)
{
    s->auto_syncs[kind]++;
    if (ag->blk->traced) sim_trace_slice(s, ag, SIM_FLOW, what, ag->issue, 1, 0, NULL, 0);
}

static bool vector_core(const sim_agent_t *ag)
{
    return ag->id != TL_AGENT_AIC;
}

// AscendSyncInsertVS keeps one history of accesses as it walks the program;
// entering a T.Scope (its resource_scope attribute) it clears it and on
// leaving restores what it had before: an access is remembered at statement
// `at` when both are outside any T.Scope, or both in the same T.Scope and the
// access made since the agent last entered it (a T.Scope in a loop starts
// afresh each iteration).
int sim_scope_of(const tl_sim_t *s, const tl_stmt_t *st)
{
    int i = sim_index_get(&s->scope_index, (uint64_t)(uintptr_t)st);
    return i < 0 ? 0 : i;
}

bool sim_auto_vs_sees(const tl_sim_t *s, const sim_agent_t *ag, const tl_stmt_t *at,
                      const sim_rec_t *r)
{
    int scope = sim_scope_of(s, at);
    if (s->sites[r->site - 1].scope != scope) return false;
    return !scope || r->epoch > ag->scope_count[r->tid & 7];
}

void sim_auto_scope(sim_agent_t *ag)
{
    memcpy(ag->scope_count, ag->count, sizeof ag->count);
}

void sim_auto_op(tl_sim_t *s, sim_agent_t *ag, int pipe, const tl_exec_event_t *ev)
{
    const tl_opcall_t *call = ev->call;
    const tl_stmt_t *vs_at = s->pto ? ev->stmt : NULL;
    int v = SIM_PIX(TL_PIPE_V);
    if (!s->auto_sync || !vector_core(ag) || pipe != v) return;
    // the clock the instruction will have (sim_hb_begin)
    sim_vc_copy(s, s->tmp3, ag->I[v]);
    sim_vc_join(s, s->tmp3, ag->I[SIM_S]);
    for (int i = 0; i < s->nruns; i++) {
        const sim_run_t *r = &s->runs[i];
        const tl_buffer_t *b = call->op->args[r->operand].region.buf;
        if (b->scope != TL_SCOPE_UB) continue;
        if (sim_hb_probe(s, ag, s->tmp3, b, r->off, r->len, r->write, 1u << v, vs_at)) {
            sim_sync_pipe_barrier(s, ag, v);
            sim_auto_note(s, ag, TL_SIM_AUTO_BARRIER_V, "pipe_barrier(v) [bisheng auto-sync]");
            return;
        }
    }
}

// Is the load of ev the read of a scalar operand that is a buffer element?
static bool operand_read(const tl_exec_event_t *ev)
{
    const tl_stmt_t *st = ev->stmt;
    if (ev->kind != TL_EXEC_EV_LOAD || !st || st->kind != TL_ST_OP) return false;
    const tl_op_t *op = &st->op;
    if (!tl_op_arith(op->code) && op->code != TL_OP_COMPARE && op->code != TL_OP_SELECT)
        return false;
    for (int i = 0; i < op->nargs; i++) {
        const tl_expr_t *e = op->args[i].kind == TL_ARG_SCALAR ? op->args[i].scalar : NULL;
        if (e && e->kind == TL_EX_LOAD && e->load.buf == ev->buf) return true;
    }
    return false;
}

void sim_auto_scalar(tl_sim_t *s, sim_agent_t *ag, const tl_exec_event_t *ev, int64_t off,
                     int64_t len)
{
    if (operand_read(ev)) {
        if (s->pto) {
            sim_sync_edge(s, ag, SIM_PIX(TL_PIPE_V), SIM_S);
            sim_auto_note(s, ag, TL_SIM_AUTO_OPERAND, "set/wait_flag(v, s) [operand read]");
        } else if (s->auto_sync) {
            sim_sync_barrier_all(s, ag);
            sim_auto_note(s, ag, TL_SIM_AUTO_OPERAND, "barrier_all [operand read]");
        }
    }
    if (!s->auto_sync || !vector_core(ag)) return;
    static const tl_pipe_t pipes[] = {TL_PIPE_V, TL_PIPE_MTE2, TL_PIPE_MTE3};
    unsigned mask = 0;
    for (size_t i = 0; i < TL_ARRAY_LEN(pipes); i++) mask |= 1u << SIM_PIX(pipes[i]);
    unsigned found = sim_hb_probe(s, ag, ag->I[SIM_S], ev->buf, off, len,
                                  ev->kind == TL_EXEC_EV_STORE, mask, s->pto ? ev->stmt : NULL);
    for (size_t i = 0; i < TL_ARRAY_LEN(pipes); i++) {
        int p = SIM_PIX(pipes[i]);
        if (!(found & (1u << p))) continue;
        sim_sync_edge(s, ag, p, SIM_S);
        char what[64];
        snprintf(what, sizeof what, "set/wait_flag(%s, s) [bisheng auto-sync]",
                 tl_pipe_name(pipes[i]));
        sim_auto_note(s, ag, TL_SIM_AUTO_FLAG_S, what);
    }
}

// tl::ascend::copy_gm_to_l1 when it clears the tile (need_clear, the box not
// the tile): InitConstValue on MTE2, then PipeBarrier<PIPE_MTE2>, then the
// copy. The clear is its own instruction writing the tile, every later MTE2
// instruction (this copy's move too) ordered after it; true when it ran, with
// the bytes it wrote of the tile in *off, *len (the copy's own accesses then
// leave them out: sim_inst_op).
bool sim_auto_l1_clear(tl_sim_t *s, sim_agent_t *ag, const tl_exec_event_t *ev, int64_t *off,
                       int64_t *len)
{
    const tl_opcall_t *call = ev->call;
    if (s->pto || call->op->code != TL_OP_COPY || call->nargs < 2 ||
        call->args[0].view.scope != TL_SCOPE_GM || call->args[1].view.scope != TL_SCOPE_L1)
        return false;
    tl_copy_exec_t cx;
    tl_tileop_ctx_t quiet = {0};
    if (!tl_tileop_copy_plan(&quiet, call, 0, 1, &cx) || !cx.fill) return false;
    const tl_view_t *dv = &call->args[1].view;
    int64_t size = tl_dtype_size(dv->dtype), bytes = size * cx.plan.fill;
    int p = SIM_PIX(TL_PIPE_MTE2);
    sim_inst_t clr = {0};
    clr.pipe = p;
    clr.site = sim_site(s, ev->stmt, STEP_LOAD_A, TL_PIPE_MTE2, "T.copy L1 clear (InitConstValue)");
    clr.bytes = bytes;
    // an L1 write on MTE2 at the fill's rate; no GM access, so no GM latency
    clr.occ = (int64_t)ceil((double)bytes / s->arch->l1_fill_bpc);
    clr.lat = s->arch->l1_fill_latency;
    sim_inst_issue(s, ag, &clr);
    *off = cx.plan.o[1] * size;
    *len = bytes;
    sim_hb_access(s, ag, &clr, call->op->args[1].region.buf, *off, bytes, true, NULL, NULL);
    sim_inst_done(s, ag, &clr);
    sim_sync_pipe_barrier(s, ag, p);
    sim_auto_note(s, ag, TL_SIM_AUTO_TEMPLATE, "pipe_barrier(mte2) [copy_gm_to_l1's clear]");
    return true;
}

void sim_auto_copy(tl_sim_t *s, sim_agent_t *ag, const tl_exec_event_t *ev)
{
    const tl_opcall_t *call = ev->call;
    if (s->pto || !s->auto_sync || call->nargs < 2 || call->args[0].view.scope != TL_SCOPE_GM ||
        call->args[1].view.scope != TL_SCOPE_UB)
        return;
    tl_copy_exec_t cx;
    tl_tileop_ctx_t quiet = {0};
    if (!tl_tileop_copy_plan(&quiet, call, 0, 1, &cx) || !cx.fill) return; // not clipped
    // Its flags are id 0 of MTE2->V, MTE3->V and V->MTE2; the kernel's own
    // flags of those ids are not checked against them here: tilec's
    // intra_sync assigns id 0 around such copies (docs/simulator.md).
    int v = SIM_PIX(TL_PIPE_V);
    sim_sync_edge(s, ag, SIM_PIX(TL_PIPE_MTE2), v);
    sim_sync_edge(s, ag, SIM_PIX(TL_PIPE_MTE3), v);
    // the Duplicate of the pad value over the destination, on V
    const tl_view_t *dv = &call->args[1].view;
    int64_t bytes = tl_dtype_size(dv->dtype) * cx.plan.fill;
    sim_inst_t dup = {0};
    dup.pipe = v;
    dup.site = sim_site(s, ev->stmt, STEP_LOAD_A, TL_PIPE_V, "T.copy tail fill (Duplicate)");
    dup.bytes = bytes;
    tl_price_t p = tl_cost_price(
        s->arch,
        &(tl_work_t){.pipe = TL_PIPE_V, .cost = tl_op_info(TL_OP_FILL)->cost, .bytes = bytes});
    dup.occ = p.occ;
    dup.lat = p.lat;
    sim_inst_issue(s, ag, &dup);
    sim_inst_done(s, ag, &dup);
    sim_sync_edge(s, ag, v, SIM_PIX(TL_PIPE_MTE2));
    sim_auto_note(s, ag, TL_SIM_AUTO_TEMPLATE, "T.copy tail fill [copy_gm_to_ub's own flags]");
}
