// The interpreter and its scheduler. A thread executes the statement tree with
// an explicit frame stack (statement, lanes, iteration state) rather than C
// recursion, so that it can block in the middle of a loop nest on a cross-core
// wait or T.sync_all and resume later.
//
// Expert mode: one thread per agent (one lane each); T.Scope bodies run only on
// their side; tile ops, stores and prints only on the agents owning their
// memory. Developer mode: one thread per block over the lanes AIC, AIV0, AIV1;
// a statement runs on the lanes of its side; a compound statement whose side is
// not BOTH runs lane after lane; one mixing cube and vector statements runs in
// lockstep, and its loop bounds and conditions must agree on every lane.
//
// Threads are scheduled round-robin (each runs until it blocks or finishes),
// one block at a time unless the kernel needs all blocks resident (mode-0
// flags, T.sync_all). With a clock (opts.clock, the simulator's modeled time)
// the runnable thread with the smallest clock runs, until its clock passes the
// next smallest, and up to opts.wave blocks run at once, each slot starting
// its next block when its block ends; so the agents of a wave advance in the
// order of modeled time. When no thread can make progress the run stops with
// a deadlock error naming every agent, what it waits for and where.
#include "exec/exec_int.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static bool is_compound(tl_stmt_kind_t k)
{
    return k == TL_ST_SEQ || k == TL_ST_FOR || k == TL_ST_WHILE || k == TL_ST_IF ||
           k == TL_ST_SCOPE;
}

static int next_lane(uint8_t mask, int from)
{
    for (int l = from; l < TL_AGENT_COUNT; l++)
        if (mask & TL_LANE(l)) return l;
    return -1;
}

static int popcount(uint8_t m)
{
    int n = 0;
    for (; m; m &= (uint8_t)(m - 1)) n++;
    return n;
}

static tl_exec_ctx_t lane_ctx(tl_exec_t *x, tl_exec_thread_t *th, int lane, const tl_stmt_t *s)
{
    tl_exec_ctx_t c = {x, &th->blk->ag[lane < 0 ? 0 : lane], s, false};
    for (int i = th->sp - 1; i >= 0 && !c.in_parallel; i--)
        c.in_parallel =
            th->fr[i].s->kind == TL_ST_FOR && th->fr[i].s->for_.loop == TL_LOOP_PARALLEL;
    return c;
}

// Tells the hook that a T.Scope body starts on each lane of mask.
static tl_status_t scope_event(tl_exec_t *x, tl_exec_thread_t *th, const tl_stmt_t *s, uint8_t mask)
{
    for (int l = next_lane(mask, 0); l >= 0; l = next_lane(mask, l + 1)) {
        tl_exec_ctx_t c = lane_ctx(x, th, l, s);
        tl_exec_event_t ev = {.kind = TL_EXEC_EV_SCOPE, .addr = -1};
        tl_status_t st = tl_exec_hook(&c, &ev);
        if (st) return st;
    }
    return TL_OK;
}

static const char *side_text(tl_side_t s)
{
    return s == TL_SIDE_CUBE ? "cube" : s == TL_SIDE_VEC ? "vector" : "shared";
}

static const char *leaf_name(const tl_stmt_t *s)
{
    if (s->kind == TL_ST_OP) return tl_op_info(s->op.code)->name;
    if (s->kind == TL_ST_SYNC) return tl_sync_name(s->sync.kind);
    if (s->kind == TL_ST_STORE) return "scalar store";
    if (s->kind == TL_ST_PRINT) return s->print.region ? "T.dump_tensor" : "T.printf";
    return "statement";
}

static tl_status_t push_frame(tl_exec_t *x, tl_exec_thread_t *th, const tl_stmt_t *s, uint8_t mask,
                              tl_side_t scope, tl_frame_kind_t kind)
{
    if (th->sp == th->cap) {
        int cap = th->cap ? th->cap * 2 : 16;
        tl_exec_frame_t *fr = realloc(th->fr, sizeof *fr * (size_t)cap);
        if (!fr) return tl_diag_fail(x->d, TL_ERR_NOMEM, "out of memory");
        th->fr = fr;
        th->cap = cap;
    }
    tl_exec_frame_t f = {s, mask, (uint8_t)kind, false, scope, 0, 0, 0};
    th->fr[th->sp++] = f;
    return TL_OK;
}

// Schedules s to run on `mask` inside a T.Scope of side `scope` (NONE outside).
static tl_status_t push(tl_exec_t *x, tl_exec_thread_t *th, const tl_stmt_t *s, uint8_t mask,
                        tl_side_t scope)
{
    if (!s) return TL_OK;
    tl_side_t side = tl_side_get(x->sides, s);
    bool compound = is_compound(s->kind);
    if (!compound && s->kind != TL_ST_SYNC && scope != TL_SIDE_NONE &&
        (side == TL_SIDE_CUBE || side == TL_SIDE_VEC) && side != scope) {
        tl_exec_ctx_t c = lane_ctx(x, th, next_lane(mask, 0), s);
        return tl_exec_fail(&c, s->loc, "%s works on %s memory but is inside T.Scope(\"%s\")",
                            leaf_name(s), side_text(side), scope == TL_SIDE_CUBE ? "C" : "V");
    }
    if (!x->dev) {
        // what this core does not need outside T.Scope (ir/side.h)
        if (tl_side_skips(x->sides, s, tl_exec_agent_side(&th->blk->ag[next_lane(mask, 0)])))
            return TL_OK;
        return push_frame(x, th, s, mask, scope, TL_FR_NORMAL);
    }
    mask &= tl_side_lanes(x->lanes, side);
    if (!mask) return TL_OK;
    bool perlane = compound && popcount(mask) > 1 && side != TL_SIDE_BOTH &&
                   !(tl_side_flags(x->sides, s) & TL_SIDE_ESCAPES);
    return push_frame(x, th, s, mask, scope, perlane ? TL_FR_PERLANE : TL_FR_NORMAL);
}

// Evaluates e on every lane of the frame; in lockstep all lanes must agree.
static tl_status_t eval_agree(tl_exec_t *x, tl_exec_thread_t *th, const tl_exec_frame_t *f,
                              const tl_expr_t *e, tl_num_t *out)
{
    int first = -1;
    for (int l = next_lane(f->mask, 0); l >= 0; l = next_lane(f->mask, l + 1)) {
        tl_exec_ctx_t c = lane_ctx(x, th, l, f->s);
        tl_num_t v;
        tl_status_t st = tl_exec_eval(&c, e, &v);
        if (st) return st;
        if (first < 0) {
            first = l;
            *out = v;
        } else if (!tl_num_same(v, *out)) {
            const char *what = f->s->kind == TL_ST_FOR  ? "loop bound"
                               : f->s->kind == TL_ST_IF ? "if condition"
                                                        : "while condition";
            const char *in = f->s->kind == TL_ST_IF ? "an if" : "a loop";
            tl_buf_t a, b;
            tl_buf_init(&a);
            tl_buf_init(&b);
            tl_num_print(&a, *out);
            tl_num_print(&b, v);
            tl_status_t r = tl_exec_fail(
                &c, e->loc.line ? e->loc : f->s->loc,
                "%s depends on vid in %s that mixes cube and vector statements (%s: %s, %s: %s)",
                what, in, tl_side_agent_name((tl_agent_t)first), tl_buf_cstr(&a),
                tl_side_agent_name((tl_agent_t)l), tl_buf_cstr(&b));
            tl_buf_free(&a);
            tl_buf_free(&b);
            return r;
        }
    }
    return TL_OK;
}

// Expert mode: whether agent ag executes the op / store / print s.
static tl_status_t expert_runs(tl_exec_t *x, const tl_exec_ctx_t *c, bool *runs)
{
    const tl_stmt_t *s = c->st;
    tl_side_t side = tl_side_get(x->sides, s);
    *runs = true;
    if (x->dev || side == TL_SIDE_NONE) return TL_OK;
    if (side == TL_SIDE_BOTH && s->kind != TL_ST_OP)
        return tl_exec_fail(c, s->loc, "%s reads both cube and vector memory", leaf_name(s));
    if (side == TL_SIDE_BOTH) {
        const tl_buffer_t *cube = NULL, *vec = NULL;
        for (int i = 0; i < s->op.nargs; i++) {
            if (s->op.args[i].kind != TL_ARG_REGION) continue;
            const tl_buffer_t *b = s->op.args[i].region.buf;
            if (tl_scope_side(b->scope) == TL_SIDE_CUBE && !cube) cube = b;
            if (tl_scope_side(b->scope) == TL_SIDE_VEC && !vec) vec = b;
        }
        return tl_exec_fail(c, s->loc,
                            "%s mixes cube and vector memory ('%s' in %s, '%s' in %s); only "
                            "developer mode (auto_cv_combine) allows that",
                            tl_op_info(s->op.code)->name, cube->name, tl_scope_name(cube->scope),
                            vec->name, tl_scope_name(vec->scope));
    }
    *runs = side == tl_exec_agent_side(c->ag);
    return TL_OK;
}

static tl_status_t leaf(tl_exec_t *x, tl_exec_thread_t *th, const tl_exec_frame_t *f, int lane,
                        bool *blocked)
{
    const tl_stmt_t *s = f->s;
    tl_exec_ctx_t c = lane_ctx(x, th, lane, s);
    tl_status_t st;
    bool runs;
    switch (s->kind) {
    case TL_ST_LET: {
        tl_num_t v;
        if ((st = tl_exec_eval(&c, s->let.value, &v))) return st;
        c.ag->vals[s->let.var->id] = tl_num_cast(v, s->let.var->dtype);
        c.ag->defined[s->let.var->id] = 1;
        tl_exec_event_t ev = {.kind = TL_EXEC_EV_LET, .addr = -1};
        return tl_exec_hook(&c, &ev);
    }
    case TL_ST_STORE:
    case TL_ST_OP:
    case TL_ST_PRINT:
        if ((st = expert_runs(x, &c, &runs)) || !runs) return st;
        return s->kind == TL_ST_STORE ? tl_exec_store(&c)
               : s->kind == TL_ST_OP  ? tl_exec_op(&c)
                                      : tl_exec_print(&c);
    case TL_ST_SYNC: {
        // expert mode, outside T.Scope: a flag of the other core's pipes is a
        // no-op on this core (ir/side.c: flag_core)
        tl_side_t own = tl_side_get(x->sides, s);
        if (!x->dev && f->scope == TL_SIDE_NONE && own != TL_SIDE_NONE &&
            own != tl_exec_agent_side(c.ag))
            return TL_OK;
        // a cross-core set or a T.sync_all arrival may release blocked threads
        bool arrives = s->sync.kind == TL_SYNC_ALL && !th->at_barrier;
        st = tl_exec_sync(&c, th, blocked);
        if (!st && (arrives || (s->sync.kind == TL_SYNC_SET_CROSS && !*blocked))) x->wake++;
        return st;
    }
    default: return tl_exec_fail(&c, s->loc, "unexpected statement kind %d", (int)s->kind);
    }
}

// break / continue: unwinds to the innermost loop, which must run on the same lanes.
static tl_status_t unwind(tl_exec_t *x, tl_exec_thread_t *th)
{
    const tl_exec_frame_t f = th->fr[--th->sp];
    while (th->sp > 0) {
        tl_exec_frame_t *g = &th->fr[th->sp - 1];
        if (g->mask != f.mask || g->kind == TL_FR_PERLANE) {
            tl_exec_ctx_t c = lane_ctx(x, th, next_lane(f.mask, 0), f.s);
            return tl_exec_fail(&c, f.s->loc,
                                "%s runs on only some lanes of a loop that mixes cube and "
                                "vector statements",
                                f.s->kind == TL_ST_BREAK ? "break" : "continue");
        }
        if (g->s->kind == TL_ST_FOR || g->s->kind == TL_ST_WHILE) {
            if (f.s->kind == TL_ST_BREAK) th->sp--;
            return TL_OK;
        }
        th->sp--;
    }
    tl_exec_ctx_t c = lane_ctx(x, th, next_lane(f.mask, 0), f.s);
    return tl_exec_fail(&c, f.s->loc, "break or continue outside a loop");
}

static tl_status_t step(tl_exec_t *x, tl_exec_thread_t *th, bool *blocked)
{
    tl_exec_frame_t *f = &th->fr[th->sp - 1];
    const tl_stmt_t *s = f->s;
    uint8_t mask = f->mask;
    tl_side_t scope = f->scope;
    tl_status_t st;
    if (f->kind == TL_FR_PERLANE) {
        int l = next_lane(mask, f->lane);
        if (l < 0) {
            th->sp--;
            return TL_OK;
        }
        f->lane = l + 1;
        return push_frame(x, th, s, (uint8_t)TL_LANE(l), scope, TL_FR_NORMAL);
    }
    switch (s->kind) {
    case TL_ST_SEQ:
        if (f->i >= s->seq.n) {
            th->sp--;
            return TL_OK;
        }
        return push(x, th, s->seq.items[f->i++], mask, scope);
    case TL_ST_FOR: {
        if (!f->started) {
            tl_num_t a, b;
            if ((st = eval_agree(x, th, f, s->for_.start, &a))) return st;
            if ((st = eval_agree(x, th, f, s->for_.end, &b))) return st;
            if (tl_dtype_is_float(a.t) || tl_dtype_is_float(b.t)) {
                tl_exec_ctx_t c = lane_ctx(x, th, next_lane(mask, 0), s);
                return tl_exec_fail(&c, s->loc, "loop bounds must be integers");
            }
            f->i = a.i;
            f->end = b.i;
            f->started = true;
        } else {
            f->i++;
        }
        if (f->i >= f->end) {
            th->sp--;
            return TL_OK;
        }
        const tl_var_t *v = s->for_.var;
        for (int l = next_lane(mask, 0); l >= 0; l = next_lane(mask, l + 1)) {
            th->blk->ag[l].vals[v->id] = tl_num_int(f->i, v->dtype);
            th->blk->ag[l].defined[v->id] = 1;
        }
        return push(x, th, s->for_.body, mask, scope);
    }
    case TL_ST_WHILE:
    case TL_ST_IF: {
        tl_num_t cond;
        if ((st = eval_agree(x, th, f, s->kind == TL_ST_IF ? s->if_.cond : s->while_.cond, &cond)))
            return st;
        bool yes = tl_num_true(cond);
        if (s->kind == TL_ST_WHILE)
            return yes ? push(x, th, s->while_.body, mask, scope) : (th->sp--, TL_OK);
        th->sp--;
        return push(x, th, yes ? s->if_.then_ : s->if_.else_, mask, scope);
    }
    case TL_ST_SCOPE: {
        th->sp--;
        tl_side_t side = s->scope.side;
        if (!x->dev) {
            if (tl_exec_agent_side(&th->blk->ag[next_lane(mask, 0)]) != side) return TL_OK;
        } else {
            mask &= tl_side_lanes(x->lanes, side);
            if (!mask) return TL_OK;
        }
        if ((st = scope_event(x, th, s, mask))) return st;
        return push(x, th, s->scope.body, mask, side);
    }
    case TL_ST_BREAK:
    case TL_ST_CONTINUE: return unwind(x, th);
    default: break;
    }
    // A leaf: run it on each lane in turn; a blocked lane resumes here later.
    // T.sync_all is one arrival per thread; side-less GM stores run once.
    if ((s->kind == TL_ST_SYNC && s->sync.kind == TL_SYNC_ALL) ||
        (x->dev && (tl_side_flags(x->sides, s) & TL_SIDE_ONCE)))
        mask = (uint8_t)TL_LANE(next_lane(mask, 0));
    for (int l = next_lane(mask, f->lane); l >= 0; l = next_lane(mask, l + 1)) {
        if ((st = leaf(x, th, f, l, blocked))) return st;
        if (*blocked) {
            th->fr[th->sp - 1].lane = l;
            return TL_OK;
        }
    }
    th->sp--;
    return TL_OK;
}

// A thread's clock: its agent's (developer mode: the earliest of its lanes').
static int64_t thread_clock(tl_exec_t *x, tl_exec_thread_t *th)
{
    if (th->clock_known) return th->clock;
    int64_t c = INT64_MAX;
    for (int l = next_lane(th->mask, 0); l >= 0; l = next_lane(th->mask, l + 1)) {
        int64_t t = x->opts.clock(x->opts.hook_arg, th->blk->index, (tl_agent_t)l);
        if (t < c) c = t;
    }
    th->clock = c;
    th->clock_known = true;
    return c;
}

// Runs th until it blocks or finishes; with a clock, also until its clock
// passes `limit` (reaches it, unless `ties` lets th go first at equal clocks).
static tl_status_t run_thread(tl_exec_t *x, tl_exec_thread_t *th, int64_t limit, bool ties,
                              bool *progress)
{
    *progress = false;
    while (th->sp > 0) {
        bool blocked = false;
        tl_status_t st = step(x, th, &blocked);
        if (st) return st;
        if (blocked) {
            th->state = TL_TH_BLOCKED;
            th->wake_seen = x->wake;
            return TL_OK;
        }
        *progress = true;
        th->state = TL_TH_READY;
        if (x->opts.max_steps > 0 && ++x->steps > x->opts.max_steps) {
            const tl_stmt_t *s = th->sp ? th->fr[th->sp - 1].s : NULL;
            return tl_diag_report(x->d, TL_SEV_ERROR, s ? s->loc : x->k->loc, TL_ERR_RUNTIME,
                                  "the kernel did not finish within %" PRId64 " steps",
                                  x->opts.max_steps);
        }
        if (x->opts.clock) {
            th->clock_known = false;
            int64_t c = thread_clock(x, th);
            if (c > limit || (c == limit && !ties)) return TL_OK;
        }
    }
    th->state = TL_TH_DONE;
    return TL_OK;
}

static tl_status_t deadlock(tl_exec_t *x)
{
    tl_buf_t msg;
    tl_buf_init(&msg);
    const tl_exec_thread_t *first = NULL;
    for (int i = 0; i < x->nthreads; i++) {
        const tl_exec_thread_t *th = &x->threads[i];
        if (msg.len) tl_buf_puts(&msg, "; ");
        if (th->state == TL_TH_DONE) {
            tl_buf_printf(&msg, "block %" PRId64 " %s finished", th->blk->index,
                          x->dev ? "lanes"
                                 : tl_side_agent_name((tl_agent_t)next_lane(th->mask, 0)));
            continue;
        }
        if (!first) first = th;
        tl_buf_printf(&msg, "block %" PRId64 " %s ", th->blk->index,
                      tl_side_agent_name((tl_agent_t)th->wait_lane));
        if (th->wait_id >= 0)
            tl_buf_printf(&msg, "waits for cross-core flag %" PRId64, th->wait_id);
        else
            tl_buf_puts(&msg, "waits in T.sync_all");
        tl_buf_printf(&msg, " (line %d)", th->wait_stmt->loc.line);
    }
    tl_status_t st =
        tl_diag_report(x->d, TL_SEV_ERROR, first->wait_stmt->loc, TL_ERR_RUNTIME,
                       "deadlock: every unfinished agent is blocked: %s", tl_buf_cstr(&msg));
    tl_buf_free(&msg);
    for (int i = 0; i < x->nthreads; i++) {
        const tl_exec_thread_t *th = &x->threads[i];
        if (th->state != TL_TH_DONE && th != first)
            tl_diag_note(x->d, th->wait_stmt->loc, "block %" PRId64 " %s waits here",
                         th->blk->index, tl_side_agent_name((tl_agent_t)th->wait_lane));
    }
    return st;
}

static tl_status_t schedule(tl_exec_t *x)
{
    for (;;) {
        bool progress = false, alive = false;
        for (int i = 0; i < x->nthreads; i++) {
            tl_exec_thread_t *th = &x->threads[i];
            if (th->state == TL_TH_DONE) continue;
            alive = true;
            bool p;
            tl_status_t st = run_thread(x, th, INT64_MAX, true, &p);
            if (st) return st;
            progress |= p;
        }
        if (!alive) return TL_OK;
        if (!progress) return deadlock(x);
    }
}

// Creates the threads of the block in slot b and pushes the kernel body.
static tl_status_t start_block(tl_exec_t *x, int b)
{
    static const int order[2][TL_AGENT_COUNT] = {
        {TL_AGENT_AIC, TL_AGENT_AIV0, TL_AGENT_AIV1},
        {TL_AGENT_AIV0, TL_AGENT_AIV1, TL_AGENT_AIC},
    };
    int n = b * x->per_block;
    for (int j = 0; j < (x->dev ? 1 : TL_AGENT_COUNT); j++) {
        int a = order[x->opts.vector_first][j];
        if (!x->dev && !(x->lanes & TL_LANE(a))) continue;
        tl_exec_thread_t *th = &x->threads[n++];
        th->blk = &x->blocks[b];
        th->mask = x->dev ? x->lanes : (uint8_t)TL_LANE(a);
        th->sp = 0;
        th->state = TL_TH_READY;
        th->at_barrier = false;
        th->clock_known = false;
        tl_status_t st = push(x, th, x->k->body, th->mask, TL_SIDE_NONE);
        if (st) return st;
    }
    return TL_OK;
}

// Creates the threads of blocks [0, x->nres).
static tl_status_t start_threads(tl_exec_t *x)
{
    x->nthreads = x->nres * x->per_block;
    x->barrier_count = 0;
    tl_status_t st = TL_OK;
    for (int b = 0; b < x->nres && !st; b++) st = start_block(x, b);
    return st;
}

// After a thread of slot b finished: when the slot's block is done, the
// slot's next block (b + nres, b + 2 nres, ...) starts in it.
static tl_status_t block_done(tl_exec_t *x, int b)
{
    for (int j = 0; j < x->per_block; j++)
        if (x->threads[b * x->per_block + j].state != TL_TH_DONE) return TL_OK;
    tl_exec_block_t *blk = &x->blocks[b];
    tl_exec_sync_residual(x, blk);
    int64_t next = blk->index + x->nres;
    if (next >= x->args->nblocks) return TL_OK;
    tl_status_t st = tl_exec_mem_block_init(x, blk, next);
    return st ? st : start_block(x, b);
}

// Timed scheduling: the runnable thread first in (clock, thread index) runs
// until it is no longer first (or it blocks or finishes). A blocked thread is
// runnable again after a cross-core set or a T.sync_all arrival.
static tl_status_t schedule_timed(tl_exec_t *x)
{
    for (;;) {
        int best = -1, next = -1;
        int64_t first = INT64_MAX, second = INT64_MAX;
        bool alive = false;
        for (int i = 0; i < x->nthreads; i++) {
            tl_exec_thread_t *th = &x->threads[i];
            if (th->state == TL_TH_DONE) continue;
            alive = true;
            if (th->state == TL_TH_BLOCKED && th->wake_seen == x->wake) continue;
            int64_t c = thread_clock(x, th);
            if (c < first) {
                second = first;
                next = best;
                first = c;
                best = i;
            } else if (c < second) {
                second = c;
                next = i;
            }
        }
        if (!alive) return TL_OK;
        if (best < 0) return deadlock(x);
        tl_exec_thread_t *th = &x->threads[best];
        bool p;
        tl_status_t st = run_thread(x, th, second, next < 0 || best < next, &p);
        if (!st && th->state == TL_TH_DONE) st = block_done(x, best / x->per_block);
        if (st) return st;
    }
}

tl_status_t tl_exec_run_blocks(tl_exec_t *x)
{
    int64_t n = x->args->nblocks;
    int max = x->opts.max_resident > 0 ? x->opts.max_resident : 64;
    if (x->all_resident && n > max)
        return tl_diag_report(x->d, TL_SEV_ERROR, x->k->loc, TL_ERR_RUNTIME,
                              "the kernel uses T.sync_all or mode-0 cross-core flags, which need "
                              "all %" PRId64 " blocks resident at once; at most %d can be",
                              n, max);
    bool timed = x->opts.clock != NULL;
    int nres = x->all_resident ? (int)n : timed ? (int)TL_MIN(n, TL_MAX(x->opts.wave, 1)) : 1;
    if (n <= 0) return TL_OK;
    x->per_block = x->dev ? 1 : popcount(x->lanes);
    x->blocks = calloc((size_t)nres, sizeof *x->blocks);
    x->threads = calloc((size_t)nres * TL_AGENT_COUNT, sizeof *x->threads);
    tl_status_t st = TL_OK;
    if (!x->blocks || !x->threads) st = tl_diag_fail(x->d, TL_ERR_NOMEM, "out of memory");
    x->wake = 0;
    x->xcores = tl_flags_cores(x->opts.wave);
    if (!st && !x->all_resident && n > x->xcores && tl_flags_uses_cross(x->k->body) &&
        !(x->xcarry = calloc((size_t)x->xcores * TL_AGENT_COUNT, sizeof *x->xcarry)))
        st = tl_diag_fail(x->d, TL_ERR_NOMEM, "out of memory");
    for (int64_t base = 0; base < n && !st; base += timed ? n : nres) {
        x->nres = nres;
        for (int b = 0; b < nres && !st; b++)
            st = tl_exec_mem_block_init(x, &x->blocks[b], base + b);
        if (!st) st = start_threads(x);
        if (timed) { // blocks finish (and the next start) inside
            if (!st) st = schedule_timed(x);
            continue;
        }
        if (!st) st = schedule(x);
        for (int b = 0; b < nres && !st; b++) tl_exec_sync_residual(x, &x->blocks[b]);
    }
    for (int b = 0; x->blocks && b < nres; b++) tl_exec_mem_block_free(&x->blocks[b]);
    for (int i = 0; x->threads && i < nres * TL_AGENT_COUNT; i++) free(x->threads[i].fr);
    free(x->blocks);
    free(x->threads);
    free(x->xcarry);
    x->blocks = NULL;
    x->threads = NULL;
    x->xcarry = NULL;
    x->nres = 0;
    return st;
}
