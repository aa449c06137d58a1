// Instructions from executor events: each tile op, scalar statement and
// scalar element access becomes an instruction on its pipe with a cost
// (occupancy and latency, arch.h) and the byte runs it touches
// (tl_tileop_accesses), which the race detector checks. T.gemm_v0 becomes the
// steps of the upstream device helper: for each 128-wide K chunk an L1 -> L0A
// and an L1 -> L0B load on MTE1 into one half of the whole L0A / L0B, and an
// mmad on M, ordered by its own flags (MTE2 -> MTE1 and FIX -> M before, an
// M -> MTE1 ping-pong between the chunks, MTE1 -> MTE2 and M -> FIX after).
//
// Costs: the chip model's prices (target/cost.c, shared with the schedule
// pass) of what each instruction does here: the bytes of its runs, its
// elements, its mmad shape. A GM transfer is then costed by the memory model
// when it starts: whole 32 B blocks through the L2 model and the chip's shared
// bandwidth (sim_time.c) at most at the MTE2 / MTE3 per-core rates, plus the
// first-byte latency (an HBM read when a line misses).
#include "npu/sim_int.h"

#include "target/cost.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sim_inst_issue(tl_sim_t *s, sim_agent_t *ag, sim_inst_t *in)
{
    sim_time_issue(s, ag, in, NULL, NULL);
    sim_hb_begin(s, ag, in);
    s->instructions++;
}

void sim_inst_done(tl_sim_t *s, sim_agent_t *ag, sim_inst_t *in)
{
    sim_hb_end(s, ag, in);
    if (!ag->blk->traced) return;
    const sim_site_t *site = &s->sites[in->site];
    tl_loc_t loc = site->st ? site->st->loc : (tl_loc_t){0};
    sim_trace_slice(s, ag, in->pipe, site->name, in->start,
                    in->pipe == SIM_S ? in->end - in->start : in->occ,
                    in->pipe == SIM_S ? 0 : in->lat, &loc, in->bytes);
}

// --- scalar instructions ----------------------------------------------------------------------

void sim_inst_scalar(tl_sim_t *s, sim_agent_t *ag, const tl_exec_event_t *ev)
{
    static const char *names[] = {[TL_EXEC_EV_LET] = "let",
                                  [TL_EXEC_EV_LOAD] = "scalar load",
                                  [TL_EXEC_EV_STORE] = "scalar store"};
    const tl_buffer_t *b = ev->buf;
    bool mem = ev->kind != TL_EXEC_EV_LET && b && b->scope != TL_SCOPE_VAR;
    sim_inst_t in = {0};
    in.pipe = SIM_S;
    in.site = sim_site(s, ev->stmt, ev->kind == TL_EXEC_EV_LOAD ? STEP_LOAD : STEP_STMT, TL_PIPE_S,
                       names[ev->kind]);
    in.occ = tl_cost_scalar(s->arch, mem ? b->scope : TL_SCOPE_VAR,
                            mem && ev->kind == TL_EXEC_EV_STORE, s->k->config.auto_sync);
    if (mem)
        sim_auto_scalar(s, ag, ev, ev->elem * tl_dtype_size(b->dtype), tl_dtype_size(b->dtype));
    sim_inst_issue(s, ag, &in);
    if (mem) {
        int size = tl_dtype_size(b->dtype);
        in.bytes = size;
        bool store = ev->kind == TL_EXEC_EV_STORE;
        // a GM store's bytes: two agents storing the same ones are a benign race
        const uint8_t *data = store && b->scope == TL_SCOPE_GM ? ev->data : NULL;
        sim_hb_access(s, ag, &in, b, ev->elem * size, size, store, data, NULL);
    }
    sim_inst_done(s, ag, &in);
}

// --- accesses -----------------------------------------------------------------------------------

static void collect(void *arg, int operand, bool write, int64_t off, int64_t len)
{
    tl_sim_t *s = arg;
    if (s->nruns == s->capruns) {
        int cap = s->capruns ? s->capruns * 2 : 256;
        sim_run_t *r = realloc(s->runs, sizeof *r * (size_t)cap);
        if (!r) return; // fewer runs are checked and costed
        s->runs = r;
        s->capruns = cap;
    }
    s->runs[s->nruns++] = (sim_run_t){operand, write, off, len};
}

static void runs_of(tl_sim_t *s, const tl_opcall_t *call)
{
    s->nruns = 0;
    tl_tileop_accesses(call, collect, s);
}

// A GM -> L1 copy whose tile clear ran as its own instruction
// (sim_auto_l1_clear, which wrote bytes [off, off + len) of the tile): its
// accesses without the clear's write.
static void drop_clear(tl_sim_t *s, int64_t off, int64_t len)
{
    int n = 0;
    for (int i = 0; i < s->nruns; i++) {
        const sim_run_t *r = &s->runs[i];
        if (r->operand == 1 && r->write && r->off == off && r->len == len) continue;
        s->runs[n++] = *r;
    }
    s->nruns = n;
}

// --- provenance of copied bytes (the same-source rule) ----------------------------------------

// Does call copy a GM tensor the kernel never writes into UB or L1, element
// for element (same dtype, no transpose, no pad fill, no completed row
// blocks)? Then fill p.
static bool copy_prov(const tl_sim_t *s, const tl_opcall_t *call, sim_prov_t *p)
{
    const tl_op_t *op = call->op;
    if (op->code != TL_OP_COPY || op->transpose || call->nargs < 2) return false;
    const tl_buffer_t *sb = op->args[0].region.buf, *db = op->args[1].region.buf;
    if (sb->scope != TL_SCOPE_GM || s->gm_written[sb->id] ||
        (db->scope != TL_SCOPE_UB && db->scope != TL_SCOPE_L1))
        return false;
    const tl_view_t *sv = &call->args[0].view, *dv = &call->args[1].view;
    tl_tileop_ctx_t quiet = {0};
    *p = (sim_prov_t){.src = sb->id, .sv = sv, .dv = dv};
    return sv->dtype == dv->dtype && tl_tileop_copy_plan(&quiet, call, 0, 1, &p->cx) &&
           !p->cx.fill && p->cx.tail == TL_COPY_TAIL_NONE && p->cx.plan.cs[0] == 1 &&
           p->cx.plan.cs[1] == 1;
}

// The source element (flat in the source buffer) of destination element e
// (flat in the destination buffer), or -1 outside the copied box.
static int64_t source_elem(const sim_prov_t *p, int64_t e)
{
    const tl_copy_plan_t *pl = &p->cx.plan;
    int64_t rel = e - pl->o[1], r = 0, c = rel;
    if (rel < 0) return -1;
    if (p->cx.rows > 1) r = rel / pl->rs[1], c = rel % pl->rs[1];
    if (r >= p->cx.rows || c >= p->cx.cols) return -1;
    return pl->o[0] + r * pl->rs[0] + c;
}

int64_t sim_prov_at(const sim_prov_t *p, int64_t off, int64_t n)
{
    int size = tl_dtype_size(p->dv->dtype);
    if (off % size || n % size || n <= 0) return -1;
    int64_t e0 = off / size, e1 = (off + n) / size - 1;
    int64_t s0 = source_elem(p, e0), s1 = source_elem(p, e1);
    // source offsets rise with the destination's: equal spans mean consecutive
    return s0 < 0 || s1 < 0 || s1 - s0 != e1 - e0 ? -1 : s0 * size;
}

// Checks the runs of the operands in `mask` (bit i: operand i; ~0u: all)
// against the shadow memory.
static void check_runs(tl_sim_t *s, sim_agent_t *ag, const sim_inst_t *in, const tl_opcall_t *call,
                       unsigned mask)
{
    sim_prov_t prov;
    bool copied = mask == ~0u && copy_prov(s, call, &prov);
    for (int k = 0; k < 2 * s->nruns; k++) { // reads first: RAW before WAW
        const sim_run_t *r = &s->runs[k % s->nruns];
        if (r->write != (k >= s->nruns) || (r->operand < 32 && !(mask & (1u << r->operand))))
            continue;
        const tl_view_t *v = &call->args[r->operand].view;
        const tl_buffer_t *b = call->op->args[r->operand].region.buf;
        const uint8_t *data = r->write && b->scope == TL_SCOPE_GM ? v->data + r->off : NULL;
        sim_hb_access(s, ag, in, b, r->off, r->len, r->write, data,
                      copied && r->write && r->operand == 1 ? &prov : NULL);
    }
}

static int64_t operand_bytes(const tl_sim_t *s, int operand, int write)
{
    int64_t n = 0;
    for (int i = 0; i < s->nruns; i++)
        if (s->runs[i].operand == operand && (write < 0 || s->runs[i].write == (write > 0)))
            n += s->runs[i].len;
    return n;
}

// Warns once per (statement, operand) when a scratchpad operand does not start
// at the address alignment its scratchpad needs. Not in npuir kernels: there
// bishengir vectorizes the element-wise code itself (unaligned runs included).
static void check_alignment(tl_sim_t *s, const tl_exec_event_t *ev)
{
    const tl_opcall_t *call = ev->call;
    if (tl_kernel_npuir(s->k)) return;
    for (int i = 0; i < call->nargs; i++) {
        if (!call->args[i].is_view) continue;
        const tl_view_t *v = &call->args[i].view;
        const tl_buffer_t *b = call->op->args[i].region.buf;
        int al = tl_arch_align(s->arch, v->scope);
        if (al <= 1) continue;
        int64_t addr = s->addr[b->id] + tl_view_offset(v) * tl_dtype_size(v->dtype);
        uint64_t key = (uint64_t)(uintptr_t)ev->stmt * 8 + (uint64_t)i;
        if (addr % al == 0 || sim_index_get(&s->warned, key) >= 0) continue;
        sim_index_put(&s->warned, key, 1);
        tl_diag_warning(s->d, ev->stmt->loc,
                        "operand '%s' of %s starts at %s address %lld, not a multiple of %d B "
                        "(the hardware needs aligned operands)",
                        b->name, tl_op_info(call->op->code)->name, tl_scope_name(v->scope),
                        (long long)addr, al);
    }
}

// --- costs ---------------------------------------------------------------------------------------

// A GM transfer, costed when its start is known: the L2 lines it finds (or
// that are on their way), the bandwidth it books (sim_time.c).
typedef struct {
    const tl_opcall_t *call;
    int gi; // the GM operand
    bool write;
    int64_t min_occ; // FIX: its element rate
    tl_price_t price;
} xfer_t;

static void xfer_cost(tl_sim_t *s, const sim_agent_t *ag, sim_inst_t *in, int64_t t, void *arg)
{
    (void)ag;
    const tl_arch_t *a = s->arch;
    const xfer_t *x = arg;
    const tl_view_t *v = &x->call->args[x->gi].view;
    const tl_buffer_t *b = x->call->op->args[x->gi].region.buf;
    int64_t bytes = 0, hit = 0, ready = 0, fill = 0, wb = 0;
    for (int i = 0; i < s->nruns; i++) {
        const sim_run_t *r = &s->runs[i];
        if (r->operand != x->gi || r->write != x->write) continue;
        int64_t n;
        hit += sim_time_l2(s, b, (int64_t)v->bytes, r->off, r->len, t, x->write, &n, &ready, &fill,
                           &wb);
        bytes += n;
    }
    int64_t miss = x->write ? 0 : bytes - hit;
    s->gm_bytes[x->write] += bytes;
    s->hbm_bytes += fill; // whole lines: a strided read pays for the line it touches
    double cap = x->write ? a->mte3_bpc : a->mte2_bpc;
    if (fill > 0 && a->hbm_core_bpc > 0) // the missed lines come at the core's HBM rate
        cap = TL_MIN(cap, a->hbm_core_bpc * (double)bytes / (double)fill);
    // the written lines it pushed out of the L2 go to HBM with it (shared bandwidth)
    int64_t occ = sim_time_bw(s, t, (double)bytes, (double)(fill + wb), cap);
    in->occ = TL_MAX(x->min_occ, occ);
    // a read waits for the HBM when a line misses, and for lines still on
    // their way from HBM for an earlier request (never longer than a miss)
    int64_t wait = miss ? x->price.miss : 0;
    if (!x->write && ready > t) wait = TL_MIN(x->price.miss, TL_MAX(wait, ready - t));
    in->lat = x->price.lat + (x->write ? 0 : wait);
}

static void price(tl_sim_t *s, const tl_work_t *w, sim_inst_t *in)
{
    tl_price_t p = tl_cost_price(s->arch, w);
    in->occ = p.occ;
    in->lat = p.lat;
}

// A per-repeat reduction below the byte rate (arch vec_reduce_repeat_cycles):
// WholeReduce* and ReduceSum's counter-mode vcadd of any type, BlockReduce* of
// 16-bit elements.
static bool slow_reduction(const tl_opcall_t *call)
{
    switch (call->op->code) {
    case TL_OP_WHOLE_REDUCE_SUM:
    case TL_OP_WHOLE_REDUCE_MAX:
    case TL_OP_WHOLE_REDUCE_MIN:
    case TL_OP_REDUCE_SUM_X:
    case TL_OP_REDUCE_SUM_MASK_X: return true;
    case TL_OP_BLOCK_REDUCE_SUM:
    case TL_OP_BLOCK_REDUCE_MAX:
    case TL_OP_BLOCK_REDUCE_MIN:
        return call->args[1].is_view && tl_dtype_size(call->args[1].view.dtype) == 2;
    default: return false;
    }
}

// The ops the A2 / A3 library runs as a sequence of instructions (cost.c).
static tl_libcall_t libcall_of(tl_opcode_t code)
{
    switch (code) {
    case TL_OP_CREATEVECINDEX: return TL_LIBCALL_VEC_INDEX;
    case TL_OP_XOR: return TL_LIBCALL_XOR;
    case TL_OP_SIGMOID: return TL_LIBCALL_SIGMOID;
    case TL_OP_SILU: return TL_LIBCALL_SILU;
    case TL_OP_SIN: return TL_LIBCALL_SIN;
    default: return TL_LIBCALL_NONE;
    }
}

// A vector instruction: the bytes of its operands' runs, read and written.
static void vec_cost(tl_sim_t *s, const tl_opcall_t *call, sim_inst_t *in)
{
    tl_work_t w = {.pipe = TL_PIPE_V, .cost = tl_op_info(call->op->code)->cost};
    for (int i = 0; i < call->nargs; i++) {
        if (!call->args[i].is_view) continue;
        int64_t r = operand_bytes(s, i, 0), wr = operand_bytes(s, i, 1);
        w.bytes = TL_MAX(w.bytes, TL_MAX(r, wr));
        w.elems = TL_MAX(w.elems, TL_MAX(r, wr) / tl_dtype_size(call->args[i].view.dtype));
        w.moved += r + wr;
        w.reads += r > 0;
    }
    tl_tileop_sort_work(call, &w.sort_pairs, &w.sort_rounds);
    w.merge_only = call->op->code == TL_OP_MERGE_SORT;
    w.lib = libcall_of(call->op->code);
    w.elem_size = call->args[0].is_view ? tl_dtype_size(call->args[0].view.dtype) : 1;
    if (slow_reduction(call)) w.slow_repeats = (operand_bytes(s, 1, 0) + 255) / 256;
    if (w.lib != TL_LIBCALL_NONE) // the destination's elements
        w.elems = call->args[0].is_view ? operand_bytes(s, 0, 1) / w.elem_size : w.elems;
    tl_price_t p = tl_cost_price(s->arch, &w);
    in->occ = p.occ;
    in->lat = p.lat;
    in->issue_extra = p.scalar;
    in->bytes = w.bytes;
}

// The cost of an op; true when it moves GM data (*x: costed at its start).
static bool op_cost(tl_sim_t *s, const tl_opcall_t *call, sim_inst_t *in, xfer_t *x)
{
    const tl_op_t *op = call->op;
    tl_work_t w = {.pipe = SIM_PIPE(in->pipe), .cost = tl_op_info(op->code)->cost};
    bool atomic = op->code == TL_OP_ATOMIC_ADD;
    int si = atomic ? 1 : 0, di = atomic ? 0 : 1;
    if (op->code == TL_OP_COPY_PA) si = 1; // copy_pa(dst_l1, kv_gm, ...): the KV rows it reads
    if (op->code == TL_OP_IM2COL) di = 0;  // im2col(dst_l0a, src_l1, ...): the rows it writes
    switch (w.pipe) {
    case TL_PIPE_MTE2:
        in->bytes = w.bytes = operand_bytes(s, si, 0);
        *x = (xfer_t){call, si, false, 0, tl_cost_price(s->arch, &w)};
        return true;
    case TL_PIPE_MTE3:
        in->bytes = w.bytes = operand_bytes(s, di, 1);
        w.dst = call->args[di].view.scope;
        *x = (xfer_t){call, di, true, 0, tl_cost_price(s->arch, &w)};
        price(s, &w, in);
        return w.dst == TL_SCOPE_GM;
    case TL_PIPE_MTE1:
        in->bytes = w.bytes = operand_bytes(s, di, 1);
        w.dst = call->args[di].view.scope;
        price(s, &w, in);
        return false;
    case TL_PIPE_FIX: {
        const tl_view_t *dv = &call->args[di].view;
        in->bytes = operand_bytes(s, di, 1);
        w.elems = in->bytes / tl_dtype_size(dv->dtype);
        w.dst = dv->scope;
        price(s, &w, in);
        *x = (xfer_t){call, di, true, in->occ, tl_cost_price(s->arch, &w)};
        return dv->scope == TL_SCOPE_GM;
    }
    case TL_PIPE_M: {
        const tl_view_t *A = &call->args[0].view, *C = &call->args[2].view;
        w.m = C->ndim >= 2 ? C->extent[C->ndim - 2] : 1;
        w.n = C->extent[C->ndim - 1];
        w.k = A->extent[A->ndim - 1];
        if (call->has_k_valid) w.k = TL_MIN(w.k, call->k_valid); // k_actual / n_actual
        if (call->has_n_valid) w.n = TL_MIN(w.n, call->n_valid);
        w.in = A->dtype;
        price(s, &w, in);
        in->bytes = operand_bytes(s, 0, 0) + operand_bytes(s, 1, 0);
        if (tl_arch_mmad_interlocks(s->arch, w.m, w.n)) in->ilk = 1;
        return false;
    }
    default: vec_cost(s, call, in); return false;
    }
}

static int64_t ceil_div(int64_t a, int64_t b)
{
    return b > 0 ? (a + b - 1) / b : 0;
}

// --- gemm_v0 ------------------------------------------------------------------------------------

typedef struct {
    tl_opcall_t sub; // A and B narrowed to one K chunk
    int64_t m, n, k, bits; // bits: of an input element (4 for int4)
    int64_t kl0;   // kL0Size: the K of one chunk (the last may be shorter)
    int64_t ntile; // the N of one step (N unless the helper tiles N to fit L0B)
    bool ta, tb, init;
    uint32_t ilk;
    sim_vc_t *free_clk[2]; // M -> MTE1 "L0 half free" flags
    int64_t free_time[2];
} gemm_t;

// The K chunk [k0, k0 + kc) of operand i (A: K is its columns, or rows when
// transposed; B: rows, or columns when transposed); also used for N tiles of
// B and C (their columns).
static void narrow(tl_view_t *v, bool k_is_rows, int64_t k0, int64_t kc)
{
    int d = v->ndim - (k_is_rows ? 2 : 1);
    if (d < 0) return;
    if (v->int4 && !k_is_rows) k0 /= 2, kc /= 2; // its columns are bytes of two elements
    v->start[d] += k0;
    v->extent[d] = kc;
}

static void l0_half(tl_sim_t *s, sim_agent_t *ag, const sim_inst_t *in, int which, int64_t off,
                    int64_t len, bool write)
{
    sim_hb_access(s, ag, in, &s->l0_buf[which], off, len, write, NULL, NULL);
}

// One step of the helper: K chunk c (kc deep) times the N tile [n0, n0 + nt),
// in L0 half `step % 2`.
static void gemm_chunk(tl_sim_t *s, sim_agent_t *ag, const tl_exec_event_t *ev, gemm_t *g,
                       int64_t step, int c, int64_t kc, int64_t n0, int64_t nt)
{
    int half = (int)(step % 2);
    int64_t abytes = g->m * kc * g->bits / 8, bbytes = kc * nt * g->bits / 8;
    // the helper's l0a[(step % 2) * M * kL0Size], l0b[(step % 2) * kL0Size * nTile]
    int64_t aoff = half * g->m * g->kl0 * g->bits / 8, boff = half * g->kl0 * g->ntile * g->bits / 8;
    g->sub = *ev->call;
    narrow(&g->sub.args[0].view, g->ta, (int64_t)c * g->kl0, kc);
    narrow(&g->sub.args[1].view, !g->tb, (int64_t)c * g->kl0, kc);
    if (nt < g->n) {
        narrow(&g->sub.args[1].view, false, n0, nt); // B [K, N] (N tiles only when not transposed)
        narrow(&g->sub.args[2].view, false, n0, nt); // C's columns
    }
    g->sub.init.is_float = false;
    g->sub.init.i = g->init && c == 0;
    runs_of(s, &g->sub);
    // wait_flag(M, MTE1, half): the previous mmad on this half has finished
    ag->gate[SIM_PIX(TL_PIPE_MTE1)] = TL_MAX(ag->gate[SIM_PIX(TL_PIPE_MTE1)], g->free_time[half]);
    sim_vc_join(s, ag->I[SIM_PIX(TL_PIPE_MTE1)], g->free_clk[half]);
    for (int which = 0; which < 2; which++) {
        sim_inst_t ld = {0};
        ld.pipe = SIM_PIX(TL_PIPE_MTE1);
        ld.site = sim_site(s, ev->stmt, which ? STEP_LOAD_B : STEP_LOAD_A, TL_PIPE_MTE1,
                           which ? "gemm_v0 L1->L0B" : "gemm_v0 L1->L0A");
        ld.bytes = which ? bbytes : abytes;
        price(s,
              &(tl_work_t){.pipe = TL_PIPE_MTE1,
                           .bytes = ld.bytes,
                           .dst = which ? TL_SCOPE_L0B : TL_SCOPE_L0A},
              &ld);
        sim_inst_issue(s, ag, &ld);
        check_runs(s, ag, &ld, &g->sub, 1u << which);
        l0_half(s, ag, &ld, which, which ? boff : aoff, ld.bytes, true);
        sim_inst_done(s, ag, &ld);
    }
    sim_sync_edge(s, ag, SIM_PIX(TL_PIPE_MTE1), SIM_PIX(TL_PIPE_M));
    sim_inst_t mm = {0};
    mm.pipe = SIM_PIX(TL_PIPE_M);
    mm.site = sim_site(s, ev->stmt, STEP_MMAD, TL_PIPE_M, "gemm_v0 mmad");
    price(s,
          &(tl_work_t){
              .pipe = TL_PIPE_M, .in = ev->call->args[0].view.dtype, .in_s4 = g->bits == 4,
              .m = g->m, .n = nt, .k = kc},
          &mm);
    mm.bytes = abytes + bbytes;
    mm.ilk = g->ilk;
    sim_inst_issue(s, ag, &mm);
    l0_half(s, ag, &mm, 0, aoff, abytes, false);
    l0_half(s, ag, &mm, 1, boff, bbytes, false);
    check_runs(s, ag, &mm, &g->sub, 1u << 2);
    sim_inst_done(s, ag, &mm);
    sim_sync_carry(s, ag, SIM_PIX(TL_PIPE_M), g->free_clk[half], &g->free_time[half]);
}

static tl_status_t gemm_v0(tl_sim_t *s, sim_agent_t *ag, const tl_exec_event_t *ev)
{
    const tl_arch_t *a = s->arch;
    const tl_opcall_t *call = ev->call;
    const tl_view_t *A = &call->args[0].view, *C = &call->args[2].view;
    gemm_t g = {0};
    g.ta = call->op->transpose_a;
    g.tb = call->op->transpose_b;
    g.m = C->ndim >= 2 ? C->extent[C->ndim - 2] : 1;
    g.n = C->extent[C->ndim - 1];
    g.k = A->ndim >= 2 && g.ta ? A->extent[A->ndim - 2] : A->extent[A->ndim - 1] * (A->int4 ? 2 : 1);
    if (call->has_n_valid) g.n = TL_MIN(g.n, call->n_valid); // n_actual
    g.bits = A->int4 ? 4 : 8 * tl_dtype_size(A->dtype);
    g.init = call->init.is_float ? call->init.f != 0 : call->init.i != 0;
    bool large = tl_arch_mmad_interlocks(a, g.m, g.n);
    g.ilk = large ? 1 : (uint32_t)(2 + s->gemm_groups++);
    int64_t kl0 = g.kl0 = tl_gemm_v0_k_l0(call->op);
    int64_t nch = TL_MAX(1, ceil_div(g.k, kl0)), kc = TL_MIN(g.k, kl0);
    // N tiles (tl_gemm_v0_n_tile) of C's whole N, the valid columns' last one
    // shorter; the (N tile, K chunk) steps flattened through one L0 ping-pong
    // (before PR #1312, such a gemm overran L0B)
    int64_t nt = tl_gemm_v0_n_tile(call->op, C->extent[C->ndim - 1], g.bits);
    g.ntile = g.n > nt ? nt : g.n;
    int64_t nsplit = ceil_div(g.n, g.ntile), steps = nch * nsplit;
    int64_t need[2] = {g.m * kc * g.bits / 8 * (steps > 1 ? 2 : 1),
                       kc * g.ntile * g.bits / 8 * (steps > 1 ? 2 : 1)};
    int64_t cap[2] = {a->l0a.bytes, a->l0b.bytes};
    for (int i = 0; i < 2; i++) {
        s->l0_internal[i] = TL_MAX(s->l0_internal[i], need[i]);
        uint64_t key = (uint64_t)(uintptr_t)ev->stmt * 8 + 4 + (uint64_t)i;
        if (need[i] > cap[i] && sim_index_get(&s->warned, key) < 0) {
            sim_index_put(&s->warned, key, 1);
            sim_error(s, TL_SIM_OVERFLOW, ev->stmt->loc, ag,
                      "T.gemm_v0 (M=%lld, N=%lld, K=%lld) double-buffers %lld B of %s, which "
                      "holds %lld B",
                      (long long)g.m, (long long)g.n, (long long)g.k, (long long)need[i],
                      i ? "L0B" : "L0A", (long long)cap[i]);
        }
    }
    g.free_clk[0] = sim_vc_new(s);
    g.free_clk[1] = sim_vc_new(s);
    if (!g.free_clk[0] || !g.free_clk[1]) return tl_diag_fail(s->d, TL_ERR_NOMEM, "out of memory");
    // its flags are the hardware's: event ids 0 and 1 (L0AB_EVENT) of these pairs
    static const sim_tflag_t own[] = {{TL_PIPE_MTE2, TL_PIPE_MTE1, 0}, {TL_PIPE_FIX, TL_PIPE_M, 0},
                                      {TL_PIPE_M, TL_PIPE_MTE1, 0},    {TL_PIPE_M, TL_PIPE_MTE1, 1},
                                      {TL_PIPE_MTE1, TL_PIPE_M, 0},    {TL_PIPE_MTE1, TL_PIPE_M, 1},
                                      {TL_PIPE_MTE1, TL_PIPE_MTE2, 0}, {TL_PIPE_M, TL_PIPE_FIX, 0}};
    sim_sync_template_flags(s, ag, ev->stmt, "T.gemm_v0 (tl::ascend::gemm_v0)", own,
                            (int)TL_ARRAY_LEN(own));
    // the helper's prologue: MTE2 -> MTE1, FIX -> M, and M -> MTE1 set for both halves
    sim_sync_edge(s, ag, SIM_PIX(TL_PIPE_MTE2), SIM_PIX(TL_PIPE_MTE1));
    sim_sync_edge(s, ag, SIM_PIX(TL_PIPE_FIX), SIM_PIX(TL_PIPE_M));
    for (int h = 0; h < 2; h++)
        sim_sync_carry(s, ag, SIM_PIX(TL_PIPE_M), g.free_clk[h], &g.free_time[h]);
    for (int64_t j = 0; j < nsplit; j++)
        for (int64_t c = 0; c < nch; c++)
            gemm_chunk(s, ag, ev, &g, j * nch + c, (int)c,
                       c == nch - 1 ? g.k - (nch - 1) * kl0 : kl0, j * g.ntile,
                       TL_MIN(g.ntile, g.n - j * g.ntile));
    for (int h = 0; h < 2; h++) { // wait for both halves
        int p = SIM_PIX(TL_PIPE_MTE1);
        ag->gate[p] = TL_MAX(ag->gate[p], g.free_time[h]);
        sim_vc_join(s, ag->I[p], g.free_clk[h]);
    }
    sim_sync_edge(s, ag, SIM_PIX(TL_PIPE_MTE1), SIM_PIX(TL_PIPE_MTE2));
    sim_sync_edge(s, ag, SIM_PIX(TL_PIPE_M), SIM_PIX(TL_PIPE_FIX));
    sim_vc_free(s, g.free_clk[0]);
    sim_vc_free(s, g.free_clk[1]);
    return TL_OK;
}

// --- ops ----------------------------------------------------------------------------------------

tl_status_t sim_inst_op(tl_sim_t *s, sim_agent_t *ag, const tl_exec_event_t *ev)
{
    const tl_opcall_t *call = ev->call;
    check_alignment(s, ev);
    if (call->op->code == TL_OP_GEMM_V0) return gemm_v0(s, ag, ev);
    tl_pipe_t pipe = tl_op_pipe(call->op);
    if (pipe <= TL_PIPE_NONE || pipe >= TL_PIPE_ALL) pipe = TL_PIPE_V;
    sim_inst_t in = {0};
    in.pipe = SIM_PIX(pipe);
    in.site = sim_site(s, ev->stmt, STEP_STMT, pipe, tl_op_info(call->op->code)->spelling);
    in.atomic = call->op->code == TL_OP_ATOMIC_ADD;
    if (call->op->code == TL_OP_COPY) sim_auto_copy(s, ag, ev);
    int64_t clear_off = 0, clear_len = 0;
    bool cleared = sim_auto_l1_clear(s, ag, ev, &clear_off, &clear_len);
    runs_of(s, call);
    if (cleared) drop_clear(s, clear_off, clear_len);
    sim_auto_op(s, ag, in.pipe, ev);
    unsigned operands = sim_pto_before(s, ag, ev);
    xfer_t x = {0};
    bool gm = op_cost(s, call, &in, &x);
    sim_unit_before(s, ag, in.pipe, ev->stmt, call);
    sim_time_issue(s, ag, &in, gm ? xfer_cost : NULL, &x);
    sim_hb_begin(s, ag, &in);
    sim_unit_after(s, ag, &in, ev->stmt, call);
    s->instructions++;
    check_runs(s, ag, &in, call, operands);
    sim_inst_done(s, ag, &in);
    sim_pto_after(s, ag, ev);
    return TL_OK;
}
