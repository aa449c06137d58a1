// Synchronisation statements. Intra-core set_flag/wait_flag/pipe_barrier/
// barrier_all order asynchronous pipes and so do not change values: they are
// checked (pipes, a wait with no set before it; ids past 7 alias and a set
// twice without a wait is counted, see event()) and otherwise accepted.
// Cross-core flags are 4-bit counting semaphores with the modes of
// research/ascend_model.md §3.5: mode 2 pairs the AIC with both AIVs of its
// block (an AIC set counts for each AIV; an AIV set counts for the AIC once
// both AIVs have set), mode 1 the two AIVs, mode 0 all cores of a kind in the
// launch. T.sync_all is a barrier of every agent.
#include "exec/exec_int.h"

#include <inttypes.h>
#include <stdlib.h>

static bool real_pipe(tl_pipe_t p)
{
    return p > TL_PIPE_NONE && p < TL_PIPE_ALL;
}

static tl_status_t bump(const tl_exec_ctx_t *c, tl_exec_agent_t *to, int64_t id)
{
    if (to->counter[id] >= tl_arch_default()->xcore_counter_max)
        return tl_exec_fail(c, c->st->loc,
                            "set_cross_flag: cross-core flag %" PRId64 " of block %" PRId64
                            " %s overflows: %d sets are already pending without a wait",
                            id, to->blk->index, tl_side_agent_name(to->id), to->counter[id]);
    to->counter[id]++;
    return TL_OK;
}

// Records a set by c->ag in `mode`; when every agent of `group` has a pending
// set, consumes one from each and increments the counters of `targets`.
static tl_status_t arrive(const tl_exec_ctx_t *c, int mode, int64_t id, tl_exec_agent_t **group,
                          int ngroup, tl_exec_agent_t **targets, int ntargets)
{
    tl_exec_agent_t *ag = c->ag;
    if (ag->pending[mode][id] >= tl_arch_default()->xcore_counter_max)
        return tl_exec_fail(c, c->st->loc,
                            "set_cross_flag: cross-core flag %" PRId64 " of block %" PRId64
                            " %s overflows: %d sets are already pending",
                            id, ag->blk->index, tl_side_agent_name(ag->id), ag->pending[mode][id]);
    ag->pending[mode][id]++;
    for (int i = 0; i < ngroup; i++)
        if (!group[i]->pending[mode][id]) return TL_OK;
    for (int i = 0; i < ngroup; i++) group[i]->pending[mode][id]--;
    tl_status_t st = TL_OK;
    for (int i = 0; i < ntargets && !st; i++) st = bump(c, targets[i], id);
    return st;
}

static int vector_agents(tl_exec_block_t *b, tl_exec_agent_t **out)
{
    int n = 0;
    for (int a = TL_AGENT_AIV0; a < TL_AGENT_COUNT; a++)
        if (b->ag[a].present) out[n++] = &b->ag[a];
    return n;
}

static tl_status_t set_cross(const tl_exec_ctx_t *c, int64_t id)
{
    const tl_stmt_t *s = c->st;
    tl_exec_agent_t *ag = c->ag, *vec[2], *aic = &ag->blk->ag[TL_AGENT_AIC];
    int nvec = vector_agents(ag->blk, vec);
    bool is_aic = ag->id == TL_AGENT_AIC;
    tl_pipe_t p = s->sync.src;
    if (!real_pipe(p) || p == TL_PIPE_S)
        return tl_exec_fail(c, s->loc, "set_cross_flag cannot be issued on pipe '%s'",
                            tl_pipe_name(p));
    switch (s->sync.mode) {
    case 2:
        if (is_aic) {
            tl_status_t st = TL_OK;
            for (int i = 0; i < nvec && !st; i++) st = bump(c, vec[i], id);
            return st;
        }
        return arrive(c, 2, id, vec, nvec, &aic, 1);
    case 1:
        if (is_aic)
            return tl_exec_fail(c, s->loc,
                                "set_cross_flag mode 1 synchronises the two vector cores; the AIC "
                                "cannot set it");
        return arrive(c, 1, id, vec, nvec, vec, nvec);
    case 0: {
        tl_exec_t *x = c->x;
        int n = 0;
        tl_exec_agent_t **all = malloc(sizeof *all * (size_t)(x->nres * TL_AGENT_COUNT));
        if (!all) return tl_diag_fail(x->d, TL_ERR_NOMEM, "out of memory");
        for (int b = 0; b < x->nres; b++)
            for (int a = 0; a < TL_AGENT_COUNT; a++) {
                tl_exec_agent_t *o = &x->blocks[b].ag[a];
                if (o->present && (o->id == TL_AGENT_AIC) == is_aic) all[n++] = o;
            }
        tl_status_t st = arrive(c, 0, id, all, n, all, n);
        free(all);
        return st;
    }
    default:
        return tl_exec_fail(c, s->loc, "set_cross_flag mode %d is not 0, 1 or 2", s->sync.mode);
    }
}

// Intra-core events. The id field of the instruction is 3 bits (CCE
// set_flag: "3bit事件ID"): an id past 7 is its low 3 bits on the hardware
// (tilec sim warns). A flag is one bit, so a second set before its wait is
// misuse whose effect depends on timing: the executor counts the sets (a
// checking hook, tilec sim, reports and models it; without one, a warning).
static tl_status_t event(const tl_exec_ctx_t *c, int64_t id)
{
    static const char twice; // warned-about key
    const tl_stmt_t *s = c->st;
    tl_exec_agent_t *ag = c->ag;
    tl_pipe_t src = s->sync.src, dst = s->sync.dst;
    const char *name = tl_sync_name(s->sync.kind);
    if (!real_pipe(src) || !real_pipe(dst) || src == dst)
        return tl_exec_fail(c, s->loc,
                            "%s(%s, %s): the source and destination must be two "
                            "different pipes",
                            name, tl_pipe_name(src), tl_pipe_name(dst));
    int ids = tl_arch_default()->event_ids; // a power of two: the id field's bits
    if (id < 0)
        return tl_exec_fail(c, s->loc, "%s(%s, %s, %" PRId64 "): event ids are 0 to %d", name,
                            tl_pipe_name(src), tl_pipe_name(dst), id, ids - 1);
    id &= ids - 1;
    uint8_t *n = &ag->event[src][dst][id];
    if (s->sync.kind == TL_SYNC_SET_FLAG) {
        if (*n && !c->x->opts.flags_checked && !tl_exec_warned(c->x, s, &twice)) {
            const tl_stmt_t *first = ag->event_set[src][dst][id];
            tl_diag_warning(c->x->d, s->loc,
                            "set_flag(%s, %s, %" PRId64 ") on the %s is set twice without a "
                            "wait_flag in between (first set at line %d): the flag is one bit, "
                            "what the hardware does depends on timing (tilec sim checks it)",
                            tl_pipe_name(src), tl_pipe_name(dst), id, tl_side_agent_name(ag->id),
                            first ? first->loc.line : 0);
        }
        if (*n < UINT8_MAX) (*n)++;
        if (*n == 1) ag->event_set[src][dst][id] = s;
        return TL_OK;
    }
    if (!*n)
        return tl_exec_fail(c, s->loc,
                            "wait_flag(%s, %s, %" PRId64 ") on the %s has no set_flag before it: "
                            "the %s pipe would wait forever",
                            tl_pipe_name(src), tl_pipe_name(dst), id, tl_side_agent_name(ag->id),
                            tl_pipe_name(dst));
    (*n)--;
    return TL_OK;
}

static void block_on(tl_exec_thread_t *th, const tl_exec_ctx_t *c, int64_t id, bool *blocked)
{
    *blocked = true;
    th->wait_stmt = c->st;
    th->wait_lane = c->ag->id;
    th->wait_id = id;
}

tl_status_t tl_exec_sync(const tl_exec_ctx_t *c, tl_exec_thread_t *th, bool *blocked)
{
    const tl_stmt_t *s = c->st;
    tl_exec_t *x = c->x;
    tl_exec_agent_t *ag = c->ag;
    int64_t id = -1;
    tl_status_t st = TL_OK;
    *blocked = false;
    tl_sync_kind_t kind = s->sync.kind;
    if (kind == TL_SYNC_SET_FLAG || kind == TL_SYNC_WAIT_FLAG || kind == TL_SYNC_SET_CROSS ||
        kind == TL_SYNC_WAIT_CROSS) {
        if (!s->sync.id) return tl_exec_fail(c, s->loc, "%s has no id", tl_sync_name(kind));
        if ((st = tl_exec_eval_int(c, s->sync.id, &id))) return st;
    }
    tl_exec_event_t pre = {.kind = TL_EXEC_EV_SYNC_BEGIN, .id = id, .addr = -1};
    if ((st = tl_exec_hook(c, &pre))) return st;
    int xids = tl_arch_default()->xcore_flag_ids;
    if ((kind == TL_SYNC_SET_CROSS || kind == TL_SYNC_WAIT_CROSS) && (id < 0 || id >= xids))
        return tl_exec_fail(c, s->loc, "%s: cross-core flag id %" PRId64 " is not in 0..%d",
                            tl_sync_name(kind), id, xids - 1);
    switch (kind) {
    case TL_SYNC_SET_FLAG:
    case TL_SYNC_WAIT_FLAG: st = event(c, id); break;
    case TL_SYNC_PIPE_BARRIER:
        if (!real_pipe(s->sync.src) && s->sync.src != TL_PIPE_ALL)
            return tl_exec_fail(c, s->loc, "pipe_barrier needs a pipe, got '%s'",
                                tl_pipe_name(s->sync.src));
        break;
    case TL_SYNC_BARRIER_ALL: break;
    case TL_SYNC_SET_CROSS: st = set_cross(c, id); break;
    case TL_SYNC_WAIT_CROSS:
        if (!ag->counter[id]) {
            block_on(th, c, id, blocked);
            return TL_OK;
        }
        ag->counter[id]--;
        break;
    case TL_SYNC_ALL:
        if (!th->at_barrier) {
            th->at_barrier = true;
            th->barrier_gen = x->barrier_gen;
            if (++x->barrier_count == x->nthreads) {
                x->barrier_gen++;
                x->barrier_count = 0;
            }
        }
        if (th->barrier_gen == x->barrier_gen) {
            block_on(th, c, -1, blocked);
            return TL_OK;
        }
        th->at_barrier = false;
        break;
    case TL_SYNC_COUNT: break;
    }
    if (st) return st;
    tl_exec_event_t ev = {.kind = TL_EXEC_EV_SYNC, .id = id, .addr = -1};
    return tl_exec_hook(c, &ev);
}

void tl_exec_sync_residual(tl_exec_t *x, tl_exec_block_t *b)
{
    if (x->warned_residual) return;
    for (int a = 0; a < TL_AGENT_COUNT; a++) {
        tl_exec_agent_t *ag = &b->ag[a];
        if (!ag->present) continue;
        for (int s = 0; s < TL_PIPE_COUNT; s++)
            for (int d = 0; d < TL_PIPE_COUNT; d++)
                for (int id = 0; id < TL_ARCH_EVENT_IDS_MAX; id++) {
                    if (!ag->event[s][d][id] || x->opts.flags_checked) continue;
                    const tl_stmt_t *set = ag->event_set[s][d][id];
                    tl_diag_warning(x->d, set ? set->loc : (tl_loc_t){0},
                                    "set_flag(%s, %s, %d) on block %" PRId64 " %s is never "
                                    "waited for",
                                    tl_pipe_name((tl_pipe_t)s), tl_pipe_name((tl_pipe_t)d), id,
                                    b->index, tl_side_agent_name(ag->id));
                    x->warned_residual = true;
                }
        for (int id = 0; id < TL_ARCH_XCORE_IDS_MAX; id++) {
            int n = ag->counter[id];
            for (int m = 0; m < 3; m++) n += ag->pending[m][id];
            if (!n) continue;
            tl_diag_warning(x->d, (tl_loc_t){0},
                            "cross-core flag %d of block %" PRId64 " %s ends with %d set(s) "
                            "never waited for",
                            id, b->index, tl_side_agent_name(ag->id), n);
            x->warned_residual = true;
        }
    }
}
