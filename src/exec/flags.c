// The flag bookkeeping the executor and the CPU target share (flags.h says
// what it keeps and why).
#include "exec/flags.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static bool real_pipe(tl_pipe_t p)
{
    return p > TL_PIPE_NONE && p < TL_PIPE_ALL;
}

static tl_flags_verdict_t say(char *msg, tl_flags_verdict_t v, const char *fmt, ...)
    TL_PRINTF(3, 4);

static tl_flags_verdict_t say(char *msg, tl_flags_verdict_t v, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, TL_FLAGS_MSG, fmt, ap);
    va_end(ap);
    return v;
}

void tl_flags_reset(tl_flags_t *f, int64_t block, tl_agent_t agent)
{
    memset(f, 0, sizeof *f);
    f->block = block;
    f->agent = agent;
}

tl_flags_verdict_t tl_flags_event(tl_flags_t *f, const tl_stmt_t *s, int64_t id, char *msg)
{
    tl_pipe_t src = s->sync.src, dst = s->sync.dst;
    const char *name = tl_sync_name(s->sync.kind), *from = tl_pipe_name(src),
               *to = tl_pipe_name(dst), *agent = tl_side_agent_name(f->agent);
    if (!real_pipe(src) || !real_pipe(dst) || src == dst)
        return say(msg, TL_FLAGS_FAIL,
                   "%s(%s, %s): the source and destination must be two different pipes", name, from,
                   to);
    int ids = tl_arch_default()->event_ids; // a power of two: the id field's bits
    if (id < 0)
        return say(msg, TL_FLAGS_FAIL, "%s(%s, %s, %" PRId64 "): event ids are 0 to %d", name, from,
                   to, id, ids - 1);
    id &= ids - 1;
    uint8_t *n = &f->event[src][dst][id];
    if (s->sync.kind == TL_SYNC_SET_FLAG) {
        tl_flags_verdict_t v = TL_FLAGS_OK;
        if (*n) {
            const tl_stmt_t *first = f->event_set[src][dst][id];
            v = say(msg, TL_FLAGS_WARN,
                    "set_flag(%s, %s, %" PRId64 ") on the %s is set twice without a wait_flag "
                    "in between (first set at line %d): the flag is one bit, what the hardware "
                    "does depends on timing (tilec sim checks it)",
                    from, to, id, agent, first ? first->loc.line : 0);
        }
        if (*n < UINT8_MAX) (*n)++;
        if (*n == 1) f->event_set[src][dst][id] = s;
        return v;
    }
    if (!*n)
        return say(msg, TL_FLAGS_FAIL,
                   "wait_flag(%s, %s, %" PRId64 ") on the %s has no set_flag before it: the %s "
                   "pipe would wait forever",
                   from, to, id, agent, to);
    (*n)--;
    return TL_FLAGS_OK;
}

// One more count of flag id on `to`. The counter is 4 bits (asc-devkit
// CrossCoreSetFlag(ISASI).md: 0 to 15); a release that finds it at 15 is
// lost, the counter stays (docs/simulator.md, "A cross-core counter at 15"):
// a warning, and a later wait that needed it waits forever (a deadlock).
static tl_flags_verdict_t bump(tl_flags_t *to, int64_t id, char *msg)
{
    if (to->counter[id] >= tl_arch_default()->xcore_counter_max)
        return say(msg, TL_FLAGS_WARN,
                   "set_cross_flag: cross-core flag %" PRId64 " of block %" PRId64
                   " %s has %d releases pending without a wait, its counter's most: this "
                   "release is lost",
                   id, to->block, tl_side_agent_name(to->agent), to->counter[id]);
    to->counter[id]++;
    return TL_FLAGS_OK;
}

// One more count on each of targets; the verdict and message of the first
// that loses it.
static tl_flags_verdict_t bump_all(tl_flags_t *const *targets, int n, int64_t id, char *msg)
{
    char other[TL_FLAGS_MSG];
    tl_flags_verdict_t v = TL_FLAGS_OK;
    for (int i = 0; i < n; i++)
        if (bump(targets[i], id, v ? other : msg)) v = TL_FLAGS_WARN;
    return v;
}

// Records a set by f in `mode`; when every agent of `group` has a pending
// set, consumes one from each and counts one on each of `targets`.
static tl_flags_verdict_t arrive(tl_flags_t *f, int mode, int64_t id, tl_flags_t *const *group,
                                 int ngroup, tl_flags_t *const *targets, int ntargets, char *msg)
{
    if (f->pending[mode][id] >= tl_arch_default()->xcore_counter_max)
        return say(msg, TL_FLAGS_WARN,
                   "set_cross_flag: cross-core flag %" PRId64 " of block %" PRId64
                   " %s has %d sets pending for its partner cores, the counter's most: this "
                   "set is lost",
                   id, f->block, tl_side_agent_name(f->agent), f->pending[mode][id]);
    f->pending[mode][id]++;
    for (int i = 0; i < ngroup; i++)
        if (!group[i]->pending[mode][id]) return TL_FLAGS_OK;
    for (int i = 0; i < ngroup; i++) group[i]->pending[mode][id]--;
    return bump_all(targets, ntargets, id, msg);
}

tl_flags_verdict_t tl_flags_set_cross(tl_flags_t *f, const tl_stmt_t *s, int64_t id,
                                      const tl_flags_peers_t *p, char *msg)
{
    bool is_aic = f->agent == TL_AGENT_AIC;
    tl_pipe_t pipe = s->sync.src;
    if (!real_pipe(pipe) || pipe == TL_PIPE_S)
        return say(msg, TL_FLAGS_FAIL, "set_cross_flag cannot be issued on pipe '%s'",
                   tl_pipe_name(pipe));
    switch (s->sync.mode) {
    case 2:
        if (is_aic) {
            return bump_all(p->vec, p->nvec, id, msg);
        }
        return arrive(f, 2, id, p->vec, p->nvec, &p->aic, 1, msg);
    case 1:
        if (is_aic)
            return say(msg, TL_FLAGS_FAIL,
                       "set_cross_flag mode 1 synchronises the two vector cores; the AIC cannot "
                       "set it");
        return arrive(f, 1, id, p->vec, p->nvec, p->vec, p->nvec, msg);
    case 0: return arrive(f, 0, id, p->all, p->nall, p->all, p->nall, msg);
    default:
        return say(msg, TL_FLAGS_FAIL, "set_cross_flag mode %d is not 0, 1 or 2", s->sync.mode);
    }
}

int tl_flags_residual(const tl_flags_t *f, bool intra,
                      void (*note)(void *arg, tl_loc_t loc, const char *text), void *arg)
{
    char msg[TL_FLAGS_MSG];
    const char *agent = tl_side_agent_name(f->agent);
    int n = 0;
    for (int s = 0; s < TL_PIPE_COUNT && intra; s++)
        for (int d = 0; d < TL_PIPE_COUNT; d++)
            for (int id = 0; id < TL_ARCH_EVENT_IDS_MAX; id++) {
                if (!f->event[s][d][id]) continue;
                const tl_stmt_t *set = f->event_set[s][d][id];
                say(msg, TL_FLAGS_WARN,
                    "set_flag(%s, %s, %d) on block %" PRId64 " %s is never waited for",
                    tl_pipe_name((tl_pipe_t)s), tl_pipe_name((tl_pipe_t)d), id, f->block, agent);
                note(arg, set ? set->loc : (tl_loc_t){0}, msg);
                n++;
            }
    for (int id = 0; id < TL_ARCH_XCORE_IDS_MAX; id++) {
        int k = f->counter[id];
        for (int m = 0; m < 3; m++) k += f->pending[m][id];
        if (!k) continue;
        say(msg, TL_FLAGS_WARN,
            "cross-core flag %d of block %" PRId64 " %s ends with %d set(s) never waited for", id,
            f->block, agent, k);
        note(arg, (tl_loc_t){0}, msg);
        n++;
    }
    return n;
}

void tl_flags_save_cross(tl_flags_t *f, tl_flags_xstate_t *out, bool clear)
{
    out->valid = true;
    out->block = f->block;
    memcpy(out->counter, f->counter, sizeof out->counter);
    memcpy(out->pending, f->pending, sizeof out->pending);
    if (!clear) return;
    memset(f->counter, 0, sizeof f->counter);
    memset(f->pending, 0, sizeof f->pending);
    memset(f->carried, 0, sizeof f->carried);
}

void tl_flags_restore_cross(tl_flags_t *f, const tl_flags_xstate_t *in)
{
    if (!in->valid) return;
    memcpy(f->counter, in->counter, sizeof f->counter);
    memcpy(f->pending, in->pending, sizeof f->pending);
    memcpy(f->carried, in->counter, sizeof f->carried);
    f->carried_from = in->block;
}

tl_flags_verdict_t tl_flags_take_cross(tl_flags_t *f, int64_t id, char *msg)
{
    f->counter[id]--;
    if (!f->carried[id]) return TL_FLAGS_OK;
    f->carried[id]--;
    return say(msg, TL_FLAGS_WARN,
               "wait_cross_flag(%" PRId64 ") on block %" PRId64 " %s takes a release that block %" PRId64
               " (or one before it on the same core) left unwaited: a core keeps its cross-core "
               "counters from one block to the next, so this wait is met by that release, not "
               "by a set of its own block",
               id, f->block, tl_side_agent_name(f->agent), f->carried_from);
}

bool tl_flags_uses_cross(const tl_stmt_t *s)
{
    if (!s) return false;
    switch (s->kind) {
    case TL_ST_SEQ:
        for (int i = 0; i < s->seq.n; i++)
            if (tl_flags_uses_cross(s->seq.items[i])) return true;
        return false;
    case TL_ST_FOR: return tl_flags_uses_cross(s->for_.body);
    case TL_ST_WHILE: return tl_flags_uses_cross(s->while_.body);
    case TL_ST_IF: return tl_flags_uses_cross(s->if_.then_) || tl_flags_uses_cross(s->if_.else_);
    case TL_ST_SCOPE: return tl_flags_uses_cross(s->scope.body);
    case TL_ST_SYNC:
        return s->sync.kind == TL_SYNC_SET_CROSS || s->sync.kind == TL_SYNC_WAIT_CROSS;
    default: return false;
    }
}

int tl_flags_cores(int wave)
{
    return wave > 0 ? wave : tl_arch_default()->num_aic;
}
