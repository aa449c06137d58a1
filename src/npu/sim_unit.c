// L0C unit flags: the hardware hand-off of L0C between mmads and fixpipes.
//
// asc-devkit (矩阵计算/Mmad计算/关键特性说明/UnitFlag.md, Mmad.md's unitFlag):
// with unitFlag 2 or 3 on Mmad and on Fixpipe, every 512-byte unit of L0C
// has a flag. An mmad writes a unit only when its flag is 0 (else it waits);
// with 0b11 it sets the flag to 1 when it has written the unit, with 0b10 it
// leaves it 0. A fixpipe reads a unit only when its flag is 1 (else it
// waits); with 0b11 it clears the flag after reading, with 0b10 it leaves it
// 1. So `mma(..., unit_flag=0b10)` x n, `mma(..., unit_flag=0b11)`,
// `copy(L0C -> GM, unit_flag=0b11)` is ordered M -> FIX and, for the next
// mmad on those units, FIX -> M, with no set_flag / wait_flag.
//
// Model. The units are L0C's physical 512-byte units: an L0C tile is laid
// out Nz (columns in blocks of 16, each block M rows of 16 elements), so a
// unit is 8 rows of one 16-column block and an operand's units follow from
// its rows and column blocks (a fixpipe of half the columns of an mmad's
// result touches half its units, as UnitFlag.md's "one Mmad, two Fixpipes
// along N" needs). Per unit: the flag and the instruction that last changed
// it (its clock and when it finished with the unit). An instruction with a
// unit flag starts no earlier than that instruction (the gate of its pipe,
// as a wait_flag moves it) and is ordered after it (its clock joins the
// pipe's). Per-fractal streaming inside one mmad / fixpipe pair is not
// modeled: the waiting instruction waits for the whole of the other.
// The kernel's program order decides the flags, as each pipe runs its
// instructions in order: a fixpipe with a unit flag on units no earlier
// mmad filled (it would wait for a later mmad and read what that writes, or
// hang), an mmad with a unit flag on units still full (it would wait for a
// later fixpipe, which would then read the old data), and units left full
// at the end of a block are `unit_flag` errors. Instructions without a unit
// flag ignore the flags, as the hardware does: their ordering is the
// kernel's flags', and the race detector reports what is missing.
#include "npu/sim_int.h"

#include <stdlib.h>
#include <string.h>

enum { UNIT = 512 };

// The instruction that last changed (or, for a fixpipe 0b10, kept) a unit's
// flag; shared by the units it touched.
typedef struct urec {
    sim_vc_t *clk; // its clock, its own epoch included
    int64_t end;   // when it is done with the units (a cycle of the block)
    const tl_stmt_t *st;
    int refs;
} urec_t;

struct sim_units {
    int n;
    uint8_t *full;
    urec_t **rec;
};

static void unref(tl_sim_t *s, urec_t *r)
{
    if (!r || --r->refs > 0) return;
    sim_vc_free(s, r->clk);
    free(r);
}

void sim_unit_reset(tl_sim_t *s, sim_agent_t *ag)
{
    sim_units_t *u = ag->units;
    if (!u) return;
    for (int i = 0; i < u->n; i++) {
        unref(s, u->rec[i]);
        u->rec[i] = NULL;
    }
    memset(u->full, 0, (size_t)u->n);
}

void sim_unit_free(tl_sim_t *s, sim_agent_t *ag)
{
    sim_unit_reset(s, ag);
    if (!ag->units) return;
    free(ag->units->full);
    free(ag->units->rec);
    free(ag->units);
    ag->units = NULL;
}

static sim_units_t *units(tl_sim_t *s, sim_agent_t *ag)
{
    if (ag->units) return ag->units;
    sim_units_t *u = calloc(1, sizeof *u);
    int n = (int)(tl_arch_physical(s->arch, TL_SCOPE_L0C) / UNIT);
    if (!u || n <= 0) return free(u), NULL;
    u->n = n;
    u->full = calloc((size_t)n, 1);
    u->rec = calloc((size_t)n, sizeof *u->rec);
    if (!u->full || !u->rec) {
        free(u->full), free(u->rec), free(u);
        return NULL;
    }
    return ag->units = u;
}

// The L0C operand of an op with a unit flag: mma's C (operand 2, narrowed to
// n_actual), a copy's source (the box it moves). Rows [*m0, *m1), columns
// [*n0, *n1) of the matrix whose first element is at *base (elements from the
// buffer's first).
static bool l0c_rect(const tl_opcall_t *call, int64_t *base, int64_t *m0, int64_t *m1, int64_t *n0,
                     int64_t *n1, int *operand)
{
    bool mma = call->op->code == TL_OP_MMA;
    int i = mma ? 2 : 0;
    const tl_view_t *v = &call->args[i].view;
    if (!call->args[i].is_view || v->scope != TL_SCOPE_L0C || v->ndim < 1) return false;
    int64_t ext[TL_MAX_DIMS];
    memcpy(ext, v->extent, sizeof ext);
    if (mma) {
        if (call->has_n_valid) ext[v->ndim - 1] = TL_MIN(ext[v->ndim - 1], call->n_valid);
    } else {
        tl_copy_exec_t cx; // the box of the L0C tile's last two dimensions it moves
        tl_tileop_ctx_t quiet = {0};
        if (!tl_tileop_copy_plan(&quiet, call, 0, 1, &cx)) return false;
        for (int d = 0; d < v->ndim; d++) ext[d] = 1;
        if (v->ndim >= 2) ext[v->ndim - 2] = cx.rows;
        ext[v->ndim - 1] = cx.cols;
    }
    int nd = v->ndim, r = nd >= 2 ? nd - 2 : -1;
    int64_t M = r >= 0 ? v->shape[r] : 1, N = v->shape[nd - 1], lead = 0;
    for (int d = 0; d < nd - 2; d++) lead = lead * v->shape[d] + v->start[d];
    *base = lead * M * N;
    *m0 = r >= 0 ? v->start[r] : 0;
    *m1 = *m0 + (r >= 0 ? ext[r] : 1);
    *n0 = v->start[nd - 1];
    *n1 = *n0 + ext[nd - 1];
    *operand = i;
    return *m1 > *m0 && *n1 > *n0;
}

// Calls fn for every L0C unit of the op's operand (Nz: per 16-column block,
// the units of its rows).
typedef void (*unit_fn)(tl_sim_t *s, sim_agent_t *ag, sim_units_t *u, int unit, void *arg);

static void each_unit(tl_sim_t *s, sim_agent_t *ag, const tl_opcall_t *call, unit_fn fn, void *arg)
{
    int64_t base, m0, m1, n0, n1;
    int operand;
    sim_units_t *u = units(s, ag);
    if (!u || !l0c_rect(call, &base, &m0, &m1, &n0, &n1, &operand)) return;
    const tl_view_t *v = &call->args[operand].view;
    const tl_buffer_t *b = call->op->args[operand].region.buf;
    int64_t M = v->ndim >= 2 ? v->shape[v->ndim - 2] : 1, size = tl_dtype_size(v->dtype);
    int64_t addr = s->addr[b->id];
    for (int64_t cb = n0 / 16; cb <= (n1 - 1) / 16; cb++) {
        int64_t first = base + cb * M * 16;
        int64_t lo = (addr + (first + m0 * 16) * size) / UNIT;
        int64_t hi = (addr + (first + (m1 - 1) * 16) * size) / UNIT;
        for (int64_t i = lo; i <= hi && i < u->n; i++)
            if (i >= 0) fn(s, ag, u, (int)i, arg);
    }
}

// --- before an instruction with a unit flag: wait, order, check -------------------------------

typedef struct {
    int pipe;
    bool mma;
    const tl_stmt_t *st;
    bool misuse;
    const urec_t *last; // the record joined last (units of one instruction share it)
} wait_t;

static void wait_unit(tl_sim_t *s, sim_agent_t *ag, sim_units_t *u, int i, void *arg)
{
    wait_t *w = arg;
    // an mmad needs the unit empty, a fixpipe full
    if (u->full[i] == w->mma) {
        w->misuse = true;
        return;
    }
    const urec_t *r = u->rec[i];
    if (!r || r == w->last) return;
    w->last = r;
    ag->gate[w->pipe] = TL_MAX(ag->gate[w->pipe], r->end);
    sim_vc_join(s, ag->I[w->pipe], r->clk);
}

static bool first_time(tl_sim_t *s, const tl_stmt_t *st, int what)
{
    uint64_t key = (uint64_t)(uintptr_t)st * 8 + 6 + (uint64_t)what * 0x200000000ull;
    if (sim_index_get(&s->warned, key) >= 0) return false;
    sim_index_put(&s->warned, key, 1);
    return true;
}

void sim_unit_before(tl_sim_t *s, sim_agent_t *ag, int pipe, const tl_stmt_t *st,
                     const tl_opcall_t *call)
{
    if (!call->unit_flag) return;
    wait_t w = {pipe, call->op->code == TL_OP_MMA, st, false, NULL};
    each_unit(s, ag, call, wait_unit, &w);
    if (!w.misuse || !first_time(s, st, 1)) return;
    if (w.mma)
        sim_error(s, TL_SIM_UNIT_FLAG, st->loc, ag,
                  "T.mma with unit_flag=0b%s writes L0C units that an earlier mmad with "
                  "unit_flag=0b11 filled and no fixpipe with a unit flag has read: the hardware "
                  "waits until a later fixpipe empties them, which then reads the old result",
                  call->unit_flag == 3 ? "11" : "10");
    else
        sim_error(s, TL_SIM_UNIT_FLAG, st->loc, ag,
                  "T.copy out of L0C with unit_flag=0b%s reads L0C units that no earlier mmad "
                  "with unit_flag=0b11 filled: the hardware waits for a later mmad to fill them "
                  "(and copies its result), or hangs",
                  call->unit_flag == 3 ? "11" : "10");
}

// --- after it is issued: the flags it leaves ------------------------------------------------

typedef struct {
    urec_t *rec; // NULL: the flags stay as they are
    uint8_t full;
} mark_t;

static void mark_unit(tl_sim_t *s, sim_agent_t *ag, sim_units_t *u, int i, void *arg)
{
    (void)ag;
    mark_t *m = arg;
    if (!m->rec) return;
    m->rec->refs++;
    unref(s, u->rec[i]);
    u->rec[i] = m->rec;
    u->full[i] = m->full;
}

void sim_unit_after(tl_sim_t *s, sim_agent_t *ag, const sim_inst_t *in, const tl_stmt_t *st,
                    const tl_opcall_t *call)
{
    if (!call->unit_flag) return;
    bool mma = call->op->code == TL_OP_MMA;
    // 0b11 changes the flags: an mmad fills its units, a fixpipe empties them
    if (call->unit_flag != 3) return;
    urec_t *r = calloc(1, sizeof *r);
    sim_vc_t *clk = r ? sim_vc_new(s) : NULL;
    if (!clk) return free(r);
    sim_vc_copy(s, clk, s->tmp);
    clk[sim_vc_index(s, ag->blk, ag->id, in->pipe)] = in->epoch;
    r->clk = clk;
    r->st = st;
    // an mmad's units are written when it completes; a fixpipe has read its
    // units when its occupancy ends (the rest is the write to GM)
    r->end = mma ? in->end : in->start + in->occ;
    r->refs = 1;
    mark_t m = {r, mma};
    each_unit(s, ag, call, mark_unit, &m);
    unref(s, r);
}

void sim_unit_residual(tl_sim_t *s, sim_agent_t *ag)
{
    sim_units_t *u = ag->units;
    for (int i = 0; u && i < u->n; i++) {
        const urec_t *r = u->rec[i];
        if (!u->full[i] || !r || !first_time(s, r->st, 2)) continue;
        sim_error(s, TL_SIM_UNIT_FLAG, r->st->loc, ag,
                  "T.mma with unit_flag=0b11 fills L0C units that no fixpipe with a unit flag "
                  "reads before the block ends: their flags stay set, and the next mmad with a "
                  "unit flag there would wait forever");
    }
}
