// Synchronisation statements. Intra-core set_flag/wait_flag/pipe_barrier/
// barrier_all order asynchronous pipes and so do not change values: they are
// checked and otherwise accepted; cross-core flags are counting semaphores.
// The flags' bookkeeping and its rules are flags.h's, shared with the CPU
// target. T.sync_all is a barrier of every agent.
#include "exec/exec_int.h"

#include <inttypes.h>
#include <stdlib.h>

static bool real_pipe(tl_pipe_t p)
{
    return p > TL_PIPE_NONE && p < TL_PIPE_ALL;
}

// A verdict of the flag bookkeeping (flags.h) reported for c's statement. A
// second set is warned about once per statement, unless a checking hook
// (tilec sim) judges the flags itself.
static tl_status_t report(const tl_exec_ctx_t *c, tl_flags_verdict_t v, const char *msg)
{
    static const char twice; // warned-about key
    const tl_stmt_t *s = c->st;
    if (v == TL_FLAGS_FAIL) return tl_exec_fail(c, s->loc, "%s", msg);
    if (v == TL_FLAGS_WARN && !c->x->opts.flags_checked && !tl_exec_warned(c->x, s, &twice))
        tl_diag_warning(c->x->d, s->loc, "%s", msg);
    return TL_OK;
}

static tl_status_t set_cross(const tl_exec_ctx_t *c, int64_t id)
{
    tl_exec_agent_t *ag = c->ag;
    tl_flags_peers_t p = {.aic = &ag->blk->ag[TL_AGENT_AIC].fl};
    for (int a = TL_AGENT_AIV0; a < TL_AGENT_COUNT; a++)
        if (ag->blk->ag[a].present) p.vec[p.nvec++] = &ag->blk->ag[a].fl;
    if (c->st->sync.mode == 0) { // every agent of its kind in the launch
        tl_exec_t *x = c->x;
        p.all = malloc(sizeof *p.all * (size_t)(x->nres * TL_AGENT_COUNT));
        if (!p.all) return tl_diag_fail(x->d, TL_ERR_NOMEM, "out of memory");
        for (int b = 0; b < x->nres; b++)
            for (int a = 0; a < TL_AGENT_COUNT; a++) {
                tl_exec_agent_t *o = &x->blocks[b].ag[a];
                if (o->present && (o->id == TL_AGENT_AIC) == (ag->id == TL_AGENT_AIC))
                    p.all[p.nall++] = &o->fl;
            }
    }
    char msg[TL_FLAGS_MSG];
    tl_status_t st = report(c, tl_flags_set_cross(&ag->fl, c->st, id, &p, msg), msg);
    free(p.all);
    return st;
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
    case TL_SYNC_WAIT_FLAG: {
        char msg[TL_FLAGS_MSG];
        st = report(c, tl_flags_event(&ag->fl, s, id, msg), msg);
        break;
    }
    case TL_SYNC_PIPE_BARRIER:
        if (!real_pipe(s->sync.src) && s->sync.src != TL_PIPE_ALL)
            return tl_exec_fail(c, s->loc, "pipe_barrier needs a pipe, got '%s'",
                                tl_pipe_name(s->sync.src));
        break;
    case TL_SYNC_BARRIER_ALL: break;
    case TL_SYNC_SET_CROSS: st = set_cross(c, id); break;
    case TL_SYNC_WAIT_CROSS:
        if (!ag->fl.counter[id]) {
            block_on(th, c, id, blocked);
            return TL_OK;
        }
        {
            static const char carried; // warned-about key
            char msg[TL_FLAGS_MSG];
            if (tl_flags_take_cross(&ag->fl, id, msg) == TL_FLAGS_WARN &&
                !x->opts.flags_checked && !tl_exec_warned(x, s, &carried))
                tl_diag_warning(x->d, s->loc, "%s", msg);
        }
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

static void warn_residual(void *arg, tl_loc_t loc, const char *text)
{
    tl_diag_warning(((tl_exec_t *)arg)->d, loc, "%s", text);
}

void tl_exec_sync_residual(tl_exec_t *x, tl_exec_block_t *b)
{
    if (x->xcarry) // the next block on the core starts with what this one leaves
        for (int a = 0; a < TL_AGENT_COUNT; a++)
            if (b->ag[a].present)
                tl_flags_save_cross(&b->ag[a].fl,
                                    &x->xcarry[(b->index % x->xcores) * TL_AGENT_COUNT + a],
                                    b->index + x->xcores < x->args->nblocks);
    if (x->warned_residual) return;
    for (int a = 0; a < TL_AGENT_COUNT; a++)
        if (b->ag[a].present &&
            tl_flags_residual(&b->ag[a].fl, !x->opts.flags_checked, warn_residual, x))
            x->warned_residual = true;
}
