// Synchronisation in the model (research/ascend_model.md §3.3-3.5, §7):
//
// - set_flag(src, dst, id) is queued on src and fires when every earlier src
//   instruction has completed; it carries src's done clock (and the scalar
//   clock, as it is issued after every earlier scalar instruction).
//   wait_flag blocks dst until then: dst's gate moves, dst's issue clock takes
//   the carried clock. The flag is a bit: a second set before the wait, a wait
//   with no set, ids past the arch's 8 and pipes the core does not have are
//   errors, and so is a set still pending when the block ends.
// - pipe_barrier(X): later X instructions start after, and are ordered after,
//   every earlier X instruction; barrier_all / pipe_barrier("all") stall issue
//   until every pipe drains and order everything before it before everything
//   after it.
// - set_cross_flag(P, id, mode) fires when P has drained, plus the cross-core
//   latency; the releases are counted per target agent as in the executor
//   (mode 2: an AIC set releases both AIVs, the AIC's wait needs both AIVs'
//   sets; mode 1: the two AIVs; mode 0: all cores of one kind). A wait blocks
//   issue (all pipes on A2/A3) until the oldest release. Ids past 15 are
//   errors. A counter is 4 bits and saturates: a release that finds it at 15
//   is lost (docs/simulator.md, "A cross-core counter at 15"). A set that can
//   find it there under some timing (the setter's sets minus the target's
//   waits ordered before the set, happens-before, reach 15) is a warning; it
//   is an error when the target's waits need more releases than the chip
//   keeps under that timing (a wait would hang). Releases never waited for
//   are warnings: the chip finishes the kernel, the counter keeps them.
// - T.sync_all: every agent of the launch waits for all to arrive and drain.
//
// SYNC_BEGIN events check; SYNC events (after the executor accepted the
// statement) model time and clocks.
#include "npu/sim_int.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool on_core(tl_agent_t a, tl_pipe_t p)
{
    if (p == TL_PIPE_S || p == TL_PIPE_MTE2 || p == TL_PIPE_MTE3) return true;
    if (a == TL_AGENT_AIC) return p == TL_PIPE_MTE1 || p == TL_PIPE_M || p == TL_PIPE_FIX;
    return p == TL_PIPE_V;
}

static bool real_pipe(tl_pipe_t p)
{
    return p > TL_PIPE_NONE && p < TL_PIPE_ALL;
}

void sim_sync_carry(tl_sim_t *s, sim_agent_t *ag, int src, sim_vc_t *out, int64_t *time)
{
    sim_vc_copy(s, out, ag->I[SIM_S]);
    if (src != SIM_S) {
        sim_vc_join(s, out, ag->I[src]);
        sim_vc_join(s, out, ag->D[src]);
    }
    *time = TL_MAX(ag->issue + 1, sim_time_drained(ag, src)) + s->arch->flag_latency;
    ag->issue += s->arch->scalar_cycles;
}

// A wait on pipe dst for a release at time t carrying clk; returns when dst
// proceeds.
static int64_t wait_on(tl_sim_t *s, sim_agent_t *ag, int dst, const sim_vc_t *clk, int64_t t)
{
    int64_t go;
    if (dst == SIM_S) {
        go = ag->issue = TL_MAX(ag->issue, t);
    } else {
        ag->gate[dst] = TL_MAX(ag->gate[dst], t);
        go = TL_MAX(ag->gate[dst], ag->free[dst]);
    }
    sim_vc_join(s, ag->I[dst], clk);
    ag->issue += s->arch->scalar_cycles;
    return go;
}

void sim_sync_edge(tl_sim_t *s, sim_agent_t *ag, int src, int dst)
{
    int64_t t;
    sim_sync_carry(s, ag, src, s->tmp2, &t);
    wait_on(s, ag, dst, s->tmp2, t);
}

// --- checks (before the executor applies the statement) --------------------------------

static const char *pname(tl_pipe_t p)
{
    return tl_pipe_name(p);
}

static bool first_time(tl_sim_t *s, const tl_stmt_t *st, int what);

static tl_status_t check_pipe(tl_sim_t *s, sim_agent_t *ag, const tl_stmt_t *st, tl_pipe_t p)
{
    if (!real_pipe(p) || on_core(ag->id, p)) return TL_OK;
    sim_error(s, TL_SIM_BAD_PIPE, st->loc, ag,
              "%s names pipe '%s', which the %s core does not have", tl_sync_name(st->sync.kind),
              pname(p), ag->id == TL_AGENT_AIC ? "cube" : "vector");
    return TL_OK;
}

// Is (target, id)'s 4-bit counter at its most (a release now is lost)?
static bool full(const tl_sim_t *s, const sim_xq_t *q)
{
    return q->n >= TL_MIN(s->arch->xcore_counter_max, SIM_XQ - 1);
}

static int peers(tl_sim_t *s, sim_agent_t *ag, int mode, sim_agent_t **out);

// How many of t's wait_cross_flag(id) a set carrying clock clk is ordered
// after (their S epochs increase).
static int known_waits(const tl_sim_t *s, const sim_agent_t *t, int64_t id, const sim_vc_t *clk)
{
    sim_vc_t e = clk[sim_vc_index(s, t->blk, t->id, SIM_S)];
    int lo = 0, hi = t->nxwaits[id];
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (t->xwaits[id][mid] <= e)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

// The counter check over every timing: a target's releases from ag's sets
// that no wait ordered before this set (by flags, program order) has
// consumed may all be pending, whatever the schedule; past 15 the chip loses
// this one. Recorded on the target (sim_sync_residual decides whether a wait
// needs it) and warned about once per statement.
static void check_any_timing(tl_sim_t *s, sim_agent_t *ag, const tl_stmt_t *st, int64_t id)
{
    int mode = st->sync.mode, p = SIM_PIX(st->sync.src);
    sim_agent_t *targets[TL_AGENT_COUNT * 64];
    int n = 0;
    if (mode == 2 && ag->id != TL_AGENT_AIC)
        targets[n++] = &ag->blk->ag[TL_AGENT_AIC];
    else
        n = peers(s, ag, mode, targets);
    sim_vc_copy(s, s->tmp2, ag->I[SIM_S]);
    sim_vc_join(s, s->tmp2, ag->I[p]);
    sim_vc_join(s, s->tmp2, ag->D[p]);
    int max = s->arch->xcore_counter_max;
    bool lost = false;
    for (int i = 0; i < n; i++) {
        sim_agent_t *t = targets[i];
        int known = known_waits(s, t, id, s->tmp2);
        if (ag->xsets[mode][id] - known < max) continue;
        if (!lost) ag->xlostset[mode][id]++;
        lost = true;
        t->xlost[id] = TL_MAX(t->xlost[id], ag->xlostset[mode][id]);
        if (!t->xlost_st[id]) t->xlost_st[id] = st;
        if (!first_time(s, st, 6)) continue;
        sim_finding(s, TL_SIM_XFLAG_OVERFLOW, st->loc, ag,
                    "set_cross_flag(%s, %" PRId64 "): the counter of flag %" PRId64 " on the %s "
                    "can be at its most, %d: this is set %" PRId64
                    " and only %d of the %s's wait_cross_flag(%" PRId64
                    ") are ordered before it, so on the chip this release can be lost (the "
                    "counter saturates; nothing keeps the sets from running ahead)",
                    pname(st->sync.src), id, id, tl_side_agent_name(t->id), max,
                    ag->xsets[mode][id] + 1, known, tl_side_agent_name(t->id), id);
    }
}

static tl_status_t check_cross(tl_sim_t *s, sim_agent_t *ag, const tl_stmt_t *st, int64_t id)
{
    tl_pipe_t p = st->sync.src;
    if (!real_pipe(p) || p == TL_PIPE_S) {
        sim_error(s, TL_SIM_BAD_PIPE, st->loc, ag,
                  "set_cross_flag cannot be issued on pipe '%s' (one of v, m, mte1, mte2, mte3, "
                  "fix)",
                  pname(p));
        return TL_ERR_RACE;
    }
    check_pipe(s, ag, st, p);
    int mode = st->sync.mode;
    if (mode < 0 || mode > 2 || (mode == 1 && ag->id == TL_AGENT_AIC)) return TL_OK; // executor
    check_any_timing(s, ag, st, id);
    return TL_OK;
}

tl_status_t sim_sync_check(tl_sim_t *s, sim_agent_t *ag, const tl_exec_event_t *ev)
{
    const tl_stmt_t *st = ev->stmt;
    tl_pipe_t src = st->sync.src, dst = st->sync.dst;
    int64_t id = ev->id;
    const char *name = tl_sync_name(st->sync.kind);
    switch (st->sync.kind) {
    case TL_SYNC_SET_FLAG:
    case TL_SYNC_WAIT_FLAG: {
        if (!real_pipe(src) || !real_pipe(dst) || src == dst) {
            sim_error(s, TL_SIM_BAD_PIPE, st->loc, ag,
                      "%s(%s, %s): the source and destination must be two different pipes", name,
                      pname(src), pname(dst));
            return TL_ERR_RACE;
        }
        if (id < 0) {
            sim_error(s, TL_SIM_EVENT_ID, st->loc, ag,
                      "%s(%s, %s, %" PRId64 "): event ids are 0 to %d", name, pname(src),
                      pname(dst), id, s->arch->event_ids - 1);
            return TL_ERR_RACE;
        }
        char alias[32] = "";
        if (id >= SIM_EVENT_IDS)
            snprintf(alias, sizeof alias, " (id %" PRId64 ")", id & (SIM_EVENT_IDS - 1));
        if (id >= SIM_EVENT_IDS && first_time(s, st, 5))
            tl_diag_warning(s->d, st->loc,
                            "%s(%s, %s, %" PRId64 "): the instruction's event id field is 3 bits "
                            "(ids 0 to 7), so the hardware uses id %" PRId64
                            ", shared with the flags that use it",
                            name, pname(src), pname(dst), id, id & (SIM_EVENT_IDS - 1));
        int64_t hw = id & (SIM_EVENT_IDS - 1);
        check_pipe(s, ag, st, src);
        check_pipe(s, ag, st, dst);
        const sim_flag_t *f = &ag->flag[SIM_PIX(src)][SIM_PIX(dst)][hw];
        if (st->sync.kind == TL_SYNC_SET_FLAG && f->n && first_time(s, st, 4))
            sim_error(s, TL_SIM_DOUBLE_SET, st->loc, ag,
                      "set_flag(%s, %s, %" PRId64 ")%s is set again before a wait_flag consumed "
                      "the set at line %d: the flag is one bit, so a wait passes at the first "
                      "set, and this set is lost if it comes before that wait",
                      pname(src), pname(dst), id, alias, f->q[0].st ? f->q[0].st->loc.line : 0);
        if (st->sync.kind == TL_SYNC_WAIT_FLAG && !f->n) {
            if (f->lost)
                sim_error(s, TL_SIM_WAIT_WITHOUT_SET, st->loc, ag,
                          "wait_flag(%s, %s, %" PRId64 ")%s waits forever: its set (line %d) "
                          "came while the flag was still set by line %d, and the bit kept "
                          "only one of them",
                          pname(src), pname(dst), id, alias, f->lost->loc.line,
                          f->lost_into ? f->lost_into->loc.line : 0);
            else
                sim_error(s, TL_SIM_WAIT_WITHOUT_SET, st->loc, ag,
                          "wait_flag(%s, %s, %" PRId64 ")%s has no set_flag before it: the %s "
                          "pipe would wait forever",
                          pname(src), pname(dst), id, alias, pname(dst));
            return TL_ERR_RACE;
        }
        return TL_OK;
    }
    case TL_SYNC_PIPE_BARRIER: return check_pipe(s, ag, st, src);
    case TL_SYNC_SET_CROSS:
    case TL_SYNC_WAIT_CROSS:
        if (id < 0 || id >= s->arch->xcore_flag_ids || id >= SIM_XIDS) {
            sim_error(s, TL_SIM_XFLAG_ID, st->loc, ag,
                      "%s: cross-core flag id %" PRId64 " is not in 0..%d", name, id,
                      s->arch->xcore_flag_ids - 1);
            return TL_ERR_RACE;
        }
        return st->sync.kind == TL_SYNC_SET_CROSS ? check_cross(s, ag, st, id) : TL_OK;
    default: return TL_OK;
    }
}

// --- modeling (after the executor applied the statement) --------------------------------

// The agents a mode-`mode` set of ag waits for (and, but for mode 2, releases).
static int peers(tl_sim_t *s, sim_agent_t *ag, int mode, sim_agent_t **out)
{
    int n = 0;
    bool vec = ag->id != TL_AGENT_AIC;
    if (mode != 0) {
        for (int a = TL_AGENT_AIV0; a < TL_AGENT_COUNT; a++)
            if (ag->blk->ag[a].present) out[n++] = &ag->blk->ag[a];
        return n;
    }
    for (int b = 0; b < s->nslots && n < TL_AGENT_COUNT * 64 - 2; b++)
        for (int a = 0; a < TL_AGENT_COUNT; a++) {
            sim_agent_t *o = &s->blocks[b].ag[a];
            if (o->present && s->blocks[b].index >= 0 && (o->id != TL_AGENT_AIC) == vec)
                out[n++] = o;
        }
    return n;
}

// Queues a release (or a pending set) unless the counter is at its most: then
// it is lost, as the executor loses it (exec/flags.c), and stays lost.
static void push(tl_sim_t *s, sim_xq_t *q, int64_t time, const sim_vc_t *clk, const tl_stmt_t *st,
                 const sim_agent_t *from, int64_t ts)
{
    if (full(s, q)) return;
    sim_xent_t *e = &q->e[q->n++];
    e->time = time;
    e->clk = sim_vc_new(s);
    if (e->clk) sim_vc_copy(s, e->clk, clk);
    e->st = st;
    e->pid = from->pid;
    e->ts = from->blk->base + ts;
    e->block = from->blk->index;
    e->carried = false;
}

static sim_xent_t pop(sim_xq_t *q)
{
    sim_xent_t e = q->e[0];
    for (int i = 1; i < q->n; i++) q->e[i - 1] = q->e[i];
    q->n--;
    return e;
}

static void set_cross(tl_sim_t *s, sim_agent_t *ag, const tl_stmt_t *st, int64_t id)
{
    int p = SIM_PIX(st->sync.src), mode = st->sync.mode;
    sim_vc_copy(s, s->tmp2, ag->I[SIM_S]);
    sim_vc_join(s, s->tmp2, ag->I[p]);
    sim_vc_join(s, s->tmp2, ag->D[p]);
    int64_t fire = TL_MAX(ag->issue + 1, sim_time_drained(ag, p));
    int64_t t = fire + s->arch->xcore_latency;
    ag->issue += s->arch->scalar_cycles;
    if (ag->blk->traced) {
        char name[64];
        snprintf(name, sizeof name, "set_cross_flag(%s, %lld)", pname(st->sync.src), (long long)id);
        sim_trace_slice(s, ag, SIM_FLOW, name, fire, 1, 0, &st->loc, 0);
    }
    if (mode == 2 && ag->id == TL_AGENT_AIC) {
        for (int a = TL_AGENT_AIV0; a < TL_AGENT_COUNT; a++)
            if (ag->blk->ag[a].present) {
                ag->blk->ag[a].xrel[id]++;
                push(s, &ag->blk->ag[a].counter[id], t, s->tmp2, st, ag, fire);
            }
        return;
    }
    if (full(s, &ag->pending[mode][id])) { // lost: the executor drops it too
        if (first_time(s, st, 9))
            sim_finding(s, TL_SIM_XFLAG_OVERFLOW, st->loc, ag,
                        "set_cross_flag(%s, %lld) finds %d sets of the %s pending for its "
                        "partner cores' sets: the counter is at its most and this set is lost",
                        pname(st->sync.src), (long long)id, ag->pending[mode][id].n,
                        tl_side_agent_name(ag->id));
        return;
    }
    push(s, &ag->pending[mode][id], t, s->tmp2, st, ag, fire);
    sim_agent_t *group[TL_AGENT_COUNT * 64];
    int n = peers(s, ag, mode, group);
    for (int i = 0; i < n; i++)
        if (!group[i]->pending[mode][id].n) return;
    // everyone has set: one release of the targets, when the last set arrives
    sim_xent_t last = {0};
    sim_vc_t *clk = sim_vc_new(s);
    if (!clk) return;
    for (int i = 0; i < n; i++) {
        sim_xent_t e = pop(&group[i]->pending[mode][id]);
        if (e.clk) sim_vc_join(s, clk, e.clk);
        if (e.time >= last.time) last = e;
        sim_vc_free(s, e.clk);
    }
    if (mode == 2) {
        sim_agent_t *aic = &ag->blk->ag[TL_AGENT_AIC];
        aic->xrel[id]++;
        push(s, &aic->counter[id], last.time, clk, st, ag, fire);
    } else {
        for (int i = 0; i < n; i++) {
            group[i]->xrel[id]++;
            push(s, &group[i]->counter[id], last.time, clk, st, ag, fire);
        }
    }
    sim_vc_free(s, clk);
}

static void wait_cross(tl_sim_t *s, sim_agent_t *ag, const tl_stmt_t *st, int64_t id)
{
    if (!ag->counter[id].n) return; // mirrors the executor, which accepted the wait
    sim_xent_t e = pop(&ag->counter[id]);
    if (e.carried && first_time(s, st, 10))
        sim_finding(s, TL_SIM_XFLAG_CARRIED, st->loc, ag,
                    "wait_cross_flag(%lld) on block %" PRId64 " takes a release that block %" PRId64
                    " left unwaited on the same core: a core keeps its cross-core counters from "
                    "one block to the next, so this wait is met by that release, not by a set of "
                    "its own block",
                    (long long)id, ag->blk->index, e.block);
    int64_t go = TL_MAX(ag->issue, e.time);
    ag->issue = go;
    if (e.clk) sim_vc_join(s, ag->I[SIM_S], e.clk);
    // the wait as a scalar instruction with its own epoch, logged for the
    // counter check of later sets ordered after it
    ag->I[SIM_S][sim_vc_index(s, ag->blk, ag->id, SIM_S)] = ++ag->count[SIM_S];
    if (ag->nxwaits[id] == ag->capxwaits[id]) {
        int cap = ag->capxwaits[id] ? ag->capxwaits[id] * 2 : 16;
        uint32_t *w = realloc(ag->xwaits[id], sizeof *w * (size_t)cap);
        if (w) {
            ag->xwaits[id] = w;
            ag->capxwaits[id] = cap;
        }
    }
    if (ag->nxwaits[id] < ag->capxwaits[id]) ag->xwaits[id][ag->nxwaits[id]++] = ag->count[SIM_S];
    ag->issue += s->arch->scalar_cycles;
    if (ag->blk->traced) {
        char name[64];
        snprintf(name, sizeof name, "wait_cross_flag(%lld)", (long long)id);
        sim_trace_slice(s, ag, SIM_FLOW, name, go, 1, 0, &st->loc, 0);
        sim_trace_flow(s, e.pid, e.ts, ag, go);
    }
    sim_vc_free(s, e.clk);
}

void sim_sync_barrier_all(tl_sim_t *s, sim_agent_t *ag)
{
    int64_t t = sim_time_agent_end(ag);
    for (int p = 1; p < SIM_NP; p++) {
        sim_vc_join(s, ag->I[SIM_S], ag->D[p]);
        sim_vc_join(s, ag->I[SIM_S], ag->I[p]);
    }
    ag->issue = t + s->arch->scalar_cycles;
}

void sim_sync_pipe_barrier(tl_sim_t *s, sim_agent_t *ag, int p)
{
    ag->gate[p] = TL_MAX(ag->gate[p], ag->done[p]);
    sim_vc_join(s, ag->I[p], ag->D[p]);
    ag->issue += s->arch->scalar_cycles;
}

static void sync_all(tl_sim_t *s, sim_agent_t *ag)
{
    int g = ag->nsync_all++;
    if (s->sync_all_done <= g) { // the first agent through: everyone has arrived
        int64_t t = 0;
        memset(s->sync_all_clk, 0, sizeof(sim_vc_t) * (size_t)s->U);
        for (int b = 0; b < s->nslots; b++)
            for (int a = 0; a < TL_AGENT_COUNT; a++) {
                sim_agent_t *o = &s->blocks[b].ag[a];
                if (!o->present || s->blocks[b].index < 0) continue;
                t = TL_MAX(t, sim_time_agent_end(o));
                for (int p = 0; p < SIM_NP; p++) {
                    sim_vc_join(s, s->sync_all_clk, o->I[p]);
                    sim_vc_join(s, s->sync_all_clk, o->D[p]);
                }
            }
        s->sync_all_time = t + s->arch->xcore_latency;
        s->sync_all_done = g + 1;
    }
    ag->issue = TL_MAX(ag->issue, s->sync_all_time) + s->arch->scalar_cycles;
    sim_vc_join(s, ag->I[SIM_S], s->sync_all_clk);
}

// "set_flag(mte2, v, 0)" on the trace's flag lane at cycle t.
static void flag_slice(tl_sim_t *s, const sim_agent_t *ag, const tl_stmt_t *st, int64_t id,
                       int64_t t)
{
    char name[64];
    snprintf(name, sizeof name, "%s(%s, %s, %lld)", tl_sync_name(st->sync.kind),
             pname(st->sync.src), pname(st->sync.dst), (long long)id);
    sim_trace_slice(s, ag, SIM_FLOW, name, t, 1, 0, &st->loc, 0);
}

void sim_sync_do(tl_sim_t *s, sim_agent_t *ag, const tl_exec_event_t *ev)
{
    const tl_stmt_t *st = ev->stmt;
    tl_sync_kind_t kind = st->sync.kind;
    int src = SIM_PIX(st->sync.src), dst = SIM_PIX(st->sync.dst);
    s->syncs[kind]++;
    switch (kind) {
    case TL_SYNC_SET_FLAG: {
        sim_flag_t *f = &ag->flag[src][dst][ev->id & (SIM_EVENT_IDS - 1)];
        sim_fset_t e = {0};
        if (!(e.clk = sim_vc_new(s))) return;
        sim_sync_carry(s, ag, src, e.clk, &e.time);
        e.st = st;
        e.fire = e.time - s->arch->flag_latency;
        if (ag->blk->traced) flag_slice(s, ag, st, ev->id, e.fire);
        if (f->n < SIM_FLAGQ) {
            f->q[f->n++] = e;
        } else { // the bit cannot hold more: lost whatever the timing
            f->lost = st;
            f->lost_into = f->q[0].st;
            sim_vc_free(s, e.clk);
        }
        return;
    }
    case TL_SYNC_WAIT_FLAG: {
        sim_flag_t *f = &ag->flag[src][dst][ev->id & (SIM_EVENT_IDS - 1)];
        if (!f->n) return; // out of memory at the set
        sim_fset_t e = f->q[0];
        memmove(f->q, f->q + 1, sizeof *f->q * (size_t)--f->n);
        int64_t go = wait_on(s, ag, dst, e.clk, e.time);
        // later sets released before this wait cleared the bit were merged into it
        while (f->n && f->q[0].time <= go) {
            f->lost = f->q[0].st;
            f->lost_into = e.st;
            sim_vc_free(s, f->q[0].clk);
            memmove(f->q, f->q + 1, sizeof *f->q * (size_t)--f->n);
        }
        if (ag->blk->traced) {
            flag_slice(s, ag, st, ev->id, go);
            sim_trace_flow(s, ag->pid, ag->blk->base + e.fire, ag, go);
        }
        sim_vc_free(s, e.clk);
        return;
    }
    case TL_SYNC_PIPE_BARRIER:
        if (st->sync.src == TL_PIPE_ALL)
            sim_sync_barrier_all(s, ag);
        else if (src > SIM_S)
            sim_sync_pipe_barrier(s, ag, src);
        return;
    case TL_SYNC_BARRIER_ALL: sim_sync_barrier_all(s, ag); return;
    case TL_SYNC_SET_CROSS:
        if (st->sync.mode >= 0 && st->sync.mode <= 2) ag->xsets[st->sync.mode][ev->id]++;
        set_cross(s, ag, st, ev->id);
        return;
    case TL_SYNC_WAIT_CROSS: wait_cross(s, ag, st, ev->id); return;
    case TL_SYNC_ALL: sync_all(s, ag); return;
    case TL_SYNC_COUNT: return;
    }
}

// --- flags of upstream's templates ---------------------------------------------------------

void sim_sync_template_flags(tl_sim_t *s, sim_agent_t *ag, const tl_stmt_t *st, const char *who,
                             const sim_tflag_t *flags, int n)
{
    for (int i = 0; i < n; i++) {
        tl_pipe_t src = flags[i].src, dst = flags[i].dst;
        const sim_flag_t *f = &ag->flag[SIM_PIX(src)][SIM_PIX(dst)][flags[i].id];
        if (!f->n || !first_time(s, st, 8 + i)) continue;
        sim_error(s, TL_SIM_DOUBLE_SET, st->loc, ag,
                  "%s sets flag (%s, %s, %d) itself, but the kernel's set at line %d is still "
                  "pending: the bit merges the two and the template's wait consumes the kernel's "
                  "set (use another event id for the kernel's flag)",
                  who, pname(src), pname(dst), flags[i].id,
                  f->q[0].st ? f->q[0].st->loc.line : 0);
    }
}

// --- the end of a block --------------------------------------------------------------------

// Reports once per statement and finding kind.
static bool first_time(tl_sim_t *s, const tl_stmt_t *st, int what)
{
    uint64_t key = (uint64_t)(uintptr_t)st * 8 + 7 + (uint64_t)what * 0x100000000ull;
    if (sim_index_get(&s->warned, key) >= 0) return false;
    sim_index_put(&s->warned, key, 1);
    return true;
}

void sim_sync_residual(tl_sim_t *s, sim_block_t *b)
{
    // the next block on the core starts with the counters (sim_sync_keep_cross)
    bool follows = !s->resident && b->index + s->nslots < s->nblocks;
    for (int a = 0; a < TL_AGENT_COUNT; a++) {
        sim_agent_t *ag = &b->ag[a];
        if (!ag->present) continue;
        for (int i = 0; i < SIM_NP; i++)
            for (int j = 0; j < SIM_NP; j++)
                for (int id = 0; id < SIM_EVENT_IDS; id++) {
                    const sim_flag_t *f = &ag->flag[i][j][id];
                    if (!f->n || !first_time(s, f->q[0].st, 1)) continue;
                    sim_error(s, TL_SIM_UNMATCHED_SET, f->q[0].st->loc, ag,
                              "set_flag(%s, %s, %d) is never waited for: the flag stays set "
                              "after the kernel (a later kernel's wait would pass too early)",
                              pname(SIM_PIPE(i)), pname(SIM_PIPE(j)), id);
                }
        for (int id = 0; id < SIM_XIDS; id++) {
            // a wait that needs a release some timing loses hangs on the chip
            if (ag->xlost[id] && ag->nxwaits[id] + ag->xlost[id] > ag->xrel[id] &&
                first_time(s, ag->xlost_st[id], 7))
                sim_error(s, TL_SIM_XFLAG_OVERFLOW, ag->xlost_st[id]->loc, ag,
                          "cross-core flag %d: the %s waits for it %d times and is sent %" PRId64
                          " releases, but under some timing %" PRId64
                          " of them find its counter at %d and are lost, so a wait_cross_flag(%d) "
                          "can wait forever (a reverse sync at least every %d sets keeps them)",
                          id, tl_side_agent_name(ag->id), ag->nxwaits[id], ag->xrel[id],
                          ag->xlost[id], s->arch->xcore_counter_max, id,
                          s->arch->xcore_counter_max);
            if (follows) continue;
            const sim_xq_t *q = &ag->counter[id];
            if (q->n && first_time(s, q->e[0].st, 2))
                sim_finding(s, TL_SIM_XFLAG_UNMATCHED, q->e[0].st->loc, ag,
                            "cross-core flag %d ends with %d release(s) the %s never waited for: "
                            "the chip finishes the kernel, but the counter keeps them, so the "
                            "next kernel's first wait_cross_flag(%d) on this core passes before "
                            "its set",
                            id, q->n, tl_side_agent_name(ag->id), id);
            for (int m = 0; m < 3; m++) {
                q = &ag->pending[m][id];
                if (q->n && first_time(s, q->e[0].st, 3))
                    sim_finding(s, TL_SIM_XFLAG_UNMATCHED, q->e[0].st->loc, ag,
                                "set_cross_flag(%d) mode %d by the %s is never matched by its "
                                "partner core's set (%d pending)",
                                id, m, tl_side_agent_name(ag->id), q->n);
            }
        }
    }
}

void sim_sync_keep_cross(tl_sim_t *s, sim_agent_t *ag)
{
    for (int i = 0; i < SIM_XIDS; i++) {
        sim_xq_t *qs[4] = {&ag->counter[i], &ag->pending[0][i], &ag->pending[1][i],
                           &ag->pending[2][i]};
        for (int q = 0; q < 4; q++)
            for (int j = 0; j < qs[q]->n; j++) { // there before the block starts
                sim_xent_t *e = &qs[q]->e[j];
                sim_vc_free(s, e->clk);
                e->clk = NULL;
                e->time = 0;
                e->carried = true;
            }
    }
}
