// The runtime a generated module calls (tlc_rt_t) and the scheduling of the
// blocks of one pool thread.
//
// Tile ops: each agent keeps, per op site, a tl_opcall_t template whose views
// point at the agent's scratchpads (or its block's AIC for cube operands in
// developer mode) and the run's GM tensors; a call fills in the evaluated
// starts, extents and scalars and runs the tile-op library (through the
// faster specialisations of cpufast.c where they apply).
//
// Flags keep the reference's bookkeeping, shared with exec_sync.c
// (exec/flags.h): intra-core ids wrap to 3 bits, a second set warns, a wait
// with no set before it is an error; cross-core flags are counting
// semaphores (modes 0, 1, 2; 4-bit counters). When the kernel waits on
// them, the agents (expert mode) or blocks (developer mode with all blocks
// resident) run as coroutines resumed round-robin in the reference
// executor's order; a round without progress is a deadlock, reported with
// every waiting agent.
#include "cpu/cpu_int.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/fexp.h"
#include "cpu/cpufast.h"

_Static_assert(sizeof(tlc_scalar_t) == sizeof(tl_scalar_t) &&
                   offsetof(tlc_scalar_t, i) == offsetof(tl_scalar_t, i) &&
                   offsetof(tlc_scalar_t, f) == offsetof(tl_scalar_t, f),
               "tlc_scalar_t must match tl_scalar_t");
_Static_assert(TL_SCOPE_COUNT <= 16, "tlc_lane_t.mem has 16 scopes");

static tl_status_t agent_fail(cpu_agent_t *ag, tl_loc_t loc, const char *fmt, ...) TL_PRINTF(3, 4);
static void note_residual(tl_cpu_t *c, cpu_block_t *blk);

static tl_status_t agent_fail(cpu_agent_t *ag, tl_loc_t loc, const char *fmt, ...)
{
    char text[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    return tl_diag_report(&ag->w->diag, TL_SEV_ERROR, loc, TL_ERR_RUNTIME,
                          "%s [block %" PRId64 " %s]", text, ag->blk->index,
                          tl_side_agent_name(ag->id));
}

static const tl_cgen_site_t *site_of(cpu_agent_t *ag, int site)
{
    return &ag->w->c->gen.sites[site];
}

// --- tile ops ----------------------------------------------------------------------------

static tl_status_t build_call(cpu_agent_t *ag, int site, tl_opcall_t **out)
{
    tl_opcall_t *call = &ag->calls[site];
    *out = call;
    if (call->op) return TL_OK;
    tl_cpu_t *c = ag->w->c;
    const tl_stmt_t *s = site_of(ag, site)->stmt;
    const tl_op_t *op = &s->op;
    if (op->nargs > (int)TL_ARRAY_LEN(call->args))
        return agent_fail(ag, s->loc, "%s has too many operands", tl_op_info(op->code)->name);
    memset(call, 0, sizeof *call);
    call->loc = s->loc;
    call->nargs = op->nargs;
    for (int i = 0; i < op->nargs; i++) {
        const tl_arg_t *a = &op->args[i];
        call->args[i].is_view = a->kind == TL_ARG_REGION;
        if (a->kind != TL_ARG_REGION) continue;
        const tl_buffer_t *b = a->region.buf;
        tl_view_t *v = &call->args[i].view;
        v->dtype = b->dtype;
        v->scope = b->scope;
        v->ndim = a->region.ndim;
        v->form = a->region.form;
        v->name = b->name;
        v->int4 = b->int4;
        if (b->scope == TL_SCOPE_GM) {
            const tl_tensor_t *t = tl_bind_gm(c->args, b);
            v->data = t->data;
            v->bytes = tl_tensor_nbytes(t);
            memcpy(v->shape, t->shape, sizeof(int64_t) * (size_t)t->ndim);
            continue;
        }
        const cpu_agent_t *owner = NULL;
        if (tl_layout_owns(TL_AGENT_AIC, b->scope))
            owner = &ag->blk->ag[TL_AGENT_AIC];
        else if (tl_layout_owns(ag->id, b->scope))
            owner = ag;
        if (!owner || (owner != ag && !c->dev))
            return agent_fail(ag, s->loc, "the %s cannot access %s buffer '%s'",
                              tl_side_agent_name(ag->id), tl_scope_name(b->scope), b->name);
        v->data = ag->blk->lanes[owner->id].mem[b->scope] + c->layout.addr[b->id];
        v->bytes = (size_t)tl_buffer_bytes(b);
        v->reach = tl_layout_reach(&c->layout, b);
        memcpy(v->shape, b->shape, sizeof(int64_t) * (size_t)b->ndim);
    }
    call->op = op;
    return TL_OK;
}

// Copy elision (alias.h): 1 when a copy was recorded instead of run, 2 when
// the call to run is the worker's temporary (a gemm reading tensors in
// place), 0 otherwise.
static int elide(cpu_agent_t *ag, tl_opcall_t *call)
{
    const uint8_t *plan = ag->w->c->alias_plan;
    const tl_op_t *op = call->op;
    cpu_agent_t *aic = &ag->blk->ag[TL_AGENT_AIC];
    if (op->code == TL_OP_COPY && call->nargs == 2 && call->args[0].is_view &&
        call->args[1].is_view) {
        const tl_buffer_t *src = op->args[0].region.buf, *dst = op->args[1].region.buf;
        if (!plan[dst->id]) return 0;
        aic->alias[dst->id].on = false;
        return plan[src->id] && src->scope == TL_SCOPE_GM &&
               tl_alias_copy(&aic->alias[dst->id], &call->args[0].view, &call->args[1].view);
    }
    if (op->code != TL_OP_GEMM_V0 && op->code != TL_OP_MMA) return 0;
    bool any = false;
    for (int i = 0; i < 2 && i < call->nargs; i++)
        any |= call->args[i].is_view && plan[op->args[i].region.buf->id] &&
               aic->alias[op->args[i].region.buf->id].on;
    if (!any) return 0;
    tl_opcall_t *t = &ag->w->tmp;
    *t = *call;
    for (int i = 0; i < 2; i++) {
        const tl_buffer_t *b = op->args[i].region.buf;
        if (plan[b->id] && aic->alias[b->id].on)
            tl_alias_view(&aic->alias[b->id], &t->args[i].view);
    }
    return 2;
}

static int rt_op(tlc_lane_t *lane, int site, const int64_t *nums, const tlc_scalar_t *sc)
{
    cpu_agent_t *ag = lane->ag;
    tl_opcall_t *call;
    tl_status_t st = build_call(ag, site, &call);
    if (st) return st;
    const tl_op_t *op = call->op;
    for (int i = 0, j = 0; i < call->nargs; i++) {
        tl_operand_t *a = &call->args[i];
        if (a->is_view) {
            size_t n = (size_t)a->view.ndim;
            memcpy(a->view.start, nums, n * sizeof *nums);
            memcpy(a->view.extent, nums + n, n * sizeof *nums);
            nums += 2 * n;
        } else {
            memcpy(&a->scalar, &sc[j++], sizeof a->scalar);
        }
        if (i + 1 == call->nargs) {
            if (op->init) memcpy(&call->init, &sc[j++], sizeof call->init);
            if (op->pad_value) {
                call->has_pad = true;
                memcpy(&call->pad, &sc[j++], sizeof call->pad);
            }
            call->has_k_valid = op->k_valid != NULL;
            call->has_n_valid = op->n_valid != NULL;
            if (op->k_valid) call->k_valid = sc[j++].i;
            if (op->n_valid) call->n_valid = sc[j++].i;
            if (op->unit_flag) {
                int64_t uf = sc[j++].i; // TL_MIN / TL_MAX evaluate their operands twice
                call->unit_flag = (int)TL_MAX(TL_MIN(uf, 255), -1);
            }
        }
    }
    if (ag->w->c->alias_plan) {
        int r = elide(ag, call);
        if (r == 1) return TL_OK;
        if (r == 2) call = &ag->w->tmp;
    }
    if (tl_cpufast_run(&ag->ctx, call)) return TL_OK;
    if ((st = tl_tileop_run(&ag->ctx, call))) {
        if (!ag->w->diag.nerrors)
            return agent_fail(ag, call->loc, "%s failed: %s", tl_op_info(op->code)->name,
                              tl_status_str(st));
        tl_diag_note(&ag->w->diag, (tl_loc_t){0}, "while the %s of block %" PRId64 " ran it",
                     tl_side_agent_name(ag->id), ag->blk->index);
    }
    return st;
}

// --- errors and conversions -------------------------------------------------------------------

static int rt_fail(tlc_lane_t *lane, const tlc_err_t *e)
{
    cpu_agent_t *ag = lane->ag;
    const tl_cgen_site_t *s = site_of(ag, e->site);
    tl_buf_t m;
    tl_buf_init(&m);
    tl_buf_printf(&m, s->msg ? s->msg : "run-time error", (long long)e->v[0], (long long)e->v[1],
                  (long long)e->v[2], (long long)e->v[3]);
    tl_status_t st = agent_fail(ag, s->loc, "%s", tl_buf_cstr(&m));
    tl_buf_free(&m);
    return st;
}

static double rt_round(int t, double v, int64_t i, int is_int)
{
    tl_num_t n = {TL_F64, 0, v};
    if (is_int) n.t = is_int == 2 ? TL_U64 : TL_I64, n.i = i;
    return tl_num_cast(n, (tl_dtype_t)t).f;
}

// --- flags: the reference's bookkeeping (exec/flags.h) ---------------------------------------

// A verdict of the flag bookkeeping reported for statement s: an error of
// ag, or a warning once per statement and run.
static tl_status_t report(cpu_agent_t *ag, const tl_stmt_t *s, tl_flags_verdict_t v,
                          const char *msg)
{
    if (v == TL_FLAGS_FAIL) return agent_fail(ag, s->loc, "%s", msg);
    if (v == TL_FLAGS_WARN) tl_cpu_warn_once(ag->w->c, s, s->loc, "%s", msg);
    return TL_OK;
}

static tl_status_t set_cross(cpu_agent_t *ag, const tl_stmt_t *s, int64_t id)
{
    cpu_worker_t *w = ag->w;
    tl_flags_peers_t p = {.aic = &ag->blk->ag[TL_AGENT_AIC].fl};
    for (int a = TL_AGENT_AIV0; a < TL_AGENT_COUNT; a++)
        if (ag->blk->ag[a].present) p.vec[p.nvec++] = &ag->blk->ag[a].fl;
    if (s->sync.mode == 0) { // every agent of its kind in the launch
        p.all = malloc(sizeof *p.all * (size_t)(w->nblocks * TL_AGENT_COUNT));
        if (!p.all) return tl_diag_fail(&w->diag, TL_ERR_NOMEM, "out of memory");
        for (int b = 0; b < w->nblocks; b++)
            for (int a = 0; a < TL_AGENT_COUNT; a++) {
                cpu_agent_t *o = &w->blocks[b].ag[a];
                if (o->present && (o->id == TL_AGENT_AIC) == (ag->id == TL_AGENT_AIC))
                    p.all[p.nall++] = &o->fl;
            }
    }
    char msg[TL_FLAGS_MSG];
    tl_status_t st = report(ag, s, tl_flags_set_cross(&ag->fl, s, id, &p, msg), msg);
    free(p.all);
    return st;
}

// The agent that stands for ag's scheduling thread (developer mode: the block).
static cpu_agent_t *thread_of(cpu_agent_t *ag)
{
    return ag->w->c->dev ? &ag->blk->ag[TL_AGENT_AIC] : ag;
}

static tl_status_t block_on(cpu_agent_t *ag, int site, int64_t id)
{
    cpu_agent_t *t = thread_of(ag);
    if (!t->co)
        return agent_fail(ag, site_of(ag, site)->loc,
                          "deadlock: %s waits for cross-core flag %" PRId64
                          " that nothing can set any more",
                          tl_side_agent_name(ag->id), id);
    t->wait_site = site;
    t->wait_id = id;
    tl_coro_yield(t->co);
    return TL_OK;
}

static int rt_sync(tlc_lane_t *lane, int site, int64_t id)
{
    cpu_agent_t *ag = lane->ag;
    cpu_worker_t *w = ag->w;
    const tl_stmt_t *s = site_of(ag, site)->stmt;
    tl_sync_kind_t kind = s->sync.kind;
    tl_status_t st;
    if (kind == TL_SYNC_SET_FLAG || kind == TL_SYNC_WAIT_FLAG) {
        char msg[TL_FLAGS_MSG];
        return report(ag, s, tl_flags_event(&ag->fl, s, id, msg), msg);
    }
    int ids = tl_arch_default()->xcore_flag_ids;
    if (kind != TL_SYNC_ALL && (id < 0 || id >= ids))
        return agent_fail(ag, s->loc, "%s: cross-core flag id %" PRId64 " is not in 0..%d",
                          tl_sync_name(kind), id, ids - 1);
    if (kind == TL_SYNC_SET_CROSS) return set_cross(ag, s, id);
    if (kind == TL_SYNC_WAIT_CROSS) {
        while (!ag->fl.counter[id])
            if ((st = block_on(ag, site, id))) return st;
        char msg[TL_FLAGS_MSG];
        tl_flags_verdict_t v = tl_flags_take_cross(&ag->fl, id, msg);
        thread_of(ag)->progress = true;
        return report(ag, s, v, msg);
    }
    cpu_agent_t *t = thread_of(ag); // T.sync_all: one arrival per scheduling thread
    if (!t->at_barrier) {
        t->at_barrier = true;
        t->barrier_gen = w->barrier_gen;
        if (++w->barrier_count == w->nthreads) {
            w->barrier_gen++;
            w->barrier_count = 0;
        }
    }
    while (t->barrier_gen == w->barrier_gen)
        if ((st = block_on(ag, site, -1))) return st;
    t->at_barrier = false;
    t->progress = true;
    return TL_OK;
}

const tlc_rt_t tl_cpurt_table = {rt_op, rt_sync, rt_fail, rt_round, tl_expf};

// --- workers and blocks -----------------------------------------------------------------------

static bool use_coroutines(const tl_cpu_t *c)
{
    return c->gen.needs_coro && (!c->dev || c->all_resident);
}

tl_status_t tl_cpurt_worker_init(tl_cpu_t *c, cpu_worker_t *w, int resident)
{
    memset(w, 0, sizeof *w);
    w->c = c;
    tl_diag_init(&w->diag);
    w->failed_block = -1;
    w->nblocks = resident;
    w->blocks = calloc((size_t)resident, sizeof *w->blocks);
    if (!w->blocks) return tl_diag_fail(&w->diag, TL_ERR_NOMEM, "out of memory");
    size_t per_agent = 0;
    for (int s = 0; s < TL_SCOPE_COUNT; s++)
        per_agent += TL_ALIGN_UP((size_t)c->layout.arena[s], 64);
    w->mem = aligned_alloc(64, TL_MAX(per_agent, 64) * TL_AGENT_COUNT * (size_t)resident);
    if (!w->mem) return tl_diag_fail(&w->diag, TL_ERR_NOMEM, "out of memory for scratchpads");
    memset(w->mem, 0xFF, per_agent * TL_AGENT_COUNT * (size_t)resident);
    uint8_t *p = w->mem;
    for (int b = 0; b < resident; b++) {
        cpu_block_t *blk = &w->blocks[b];
        for (int a = 0; a < TL_AGENT_COUNT; a++) {
            cpu_agent_t *ag = &blk->ag[a];
            ag->w = w;
            ag->blk = blk;
            ag->id = (tl_agent_t)a;
            ag->present = c->lanes & TL_LANE(a);
            blk->lanes[a].ag = ag;
            blk->lanes[a].vid = a == TL_AGENT_AIC ? 0 : a - 1;
            for (int s = 0; s < TL_SCOPE_COUNT; s++) {
                if (!tl_layout_owns((tl_agent_t)a, (tl_scope_t)s)) continue;
                blk->lanes[a].mem[s] = p;
                p += TL_ALIGN_UP((size_t)c->layout.arena[s], 64);
            }
            ag->calls = calloc((size_t)c->gen.nsites, sizeof *ag->calls);
            ag->alias = calloc((size_t)c->k->buffers.len + 1, sizeof *ag->alias);
            if (!ag->calls || !ag->alias)
                return tl_diag_fail(&w->diag, TL_ERR_NOMEM, "out of memory");
            bool thread = c->dev ? a == TL_AGENT_AIC : ag->present;
            if (use_coroutines(c) && thread) {
                tl_status_t st = tl_coro_create(&ag->co, &w->diag);
                if (st) return st;
            }
        }
    }
    w->ready = true;
    return TL_OK;
}

void tl_cpurt_worker_reset(cpu_worker_t *w, int64_t run)
{
    tl_cpu_t *c = w->c;
    tl_diag_clear(&w->diag);
    w->st = TL_OK;
    w->failed_block = -1;
    w->run = run;
    for (int b = 0; b < w->nblocks; b++)
        for (int a = 0; a < TL_AGENT_COUNT; a++) {
            cpu_agent_t *ag = &w->blocks[b].ag[a];
            for (int i = 0; ag->calls && i < c->gen.nsites; i++) ag->calls[i].op = NULL;
            if (ag->alias)
                memset(ag->alias, 0, sizeof *ag->alias * (size_t)(c->k->buffers.len + 1));
        }
}

void tl_cpurt_worker_free(cpu_worker_t *w)
{
    for (int b = 0; w->blocks && b < w->nblocks; b++)
        for (int a = 0; a < TL_AGENT_COUNT; a++) {
            free(w->blocks[b].ag[a].calls);
            free(w->blocks[b].ag[a].alias);
            tl_coro_destroy(w->blocks[b].ag[a].co);
        }
    free(w->blocks);
    free(w->mem);
    tl_diag_free(&w->diag);
    memset(w, 0, sizeof *w);
}

static tl_status_t call_agent(cpu_agent_t *ag)
{
    tl_cpu_t *c = ag->w->c;
    cpu_block_t *blk = ag->blk;
    if (c->dev) return c->mod->block(&tl_cpurt_table, &c->env, blk->lanes, blk->index);
    tlc_agent_fn fn = ag->id == TL_AGENT_AIC ? c->mod->cube : c->mod->vec;
    return fn(&tl_cpurt_table, &c->env, &blk->lanes[ag->id], blk->index);
}

typedef struct {
    cpu_agent_t *ag;
    tl_status_t st;
} coro_arg_t;

static void coro_main(void *arg)
{
    coro_arg_t *a = arg;
    a->st = call_agent(a->ag);
}

static tl_status_t deadlock(cpu_worker_t *w, cpu_agent_t **th, int n)
{
    tl_buf_t msg;
    tl_buf_init(&msg);
    const tl_cgen_site_t *first = NULL;
    for (int i = 0; i < n; i++) {
        if (msg.len) tl_buf_puts(&msg, "; ");
        const char *who = w->c->dev ? "lanes" : tl_side_agent_name(th[i]->id);
        if (th[i]->done) {
            tl_buf_printf(&msg, "block %" PRId64 " %s finished", th[i]->blk->index, who);
            continue;
        }
        const tl_cgen_site_t *s = &w->c->gen.sites[th[i]->wait_site];
        if (!first) first = s;
        tl_buf_printf(&msg, "block %" PRId64 " %s ", th[i]->blk->index, who);
        if (th[i]->wait_id >= 0)
            tl_buf_printf(&msg, "waits for cross-core flag %" PRId64, th[i]->wait_id);
        else
            tl_buf_puts(&msg, "waits in T.sync_all");
        tl_buf_printf(&msg, " (line %d)", s->loc.line);
    }
    tl_status_t st =
        tl_diag_report(&w->diag, TL_SEV_ERROR, first ? first->loc : w->c->k->loc, TL_ERR_RUNTIME,
                       "deadlock: every unfinished agent is blocked: %s", tl_buf_cstr(&msg));
    tl_buf_free(&msg);
    return st;
}

// Round-robin over the coroutines until all finish (exec_run.c's schedule).
static tl_status_t schedule(cpu_worker_t *w)
{
    static const int order[TL_AGENT_COUNT] = {TL_AGENT_AIC, TL_AGENT_AIV0, TL_AGENT_AIV1};
    int max = w->nblocks * TL_AGENT_COUNT, n = 0;
    cpu_agent_t **th = malloc(sizeof *th * (size_t)max);
    coro_arg_t *args = malloc(sizeof *args * (size_t)max);
    tl_status_t st = TL_OK;
    if (!th || !args) st = tl_diag_fail(&w->diag, TL_ERR_NOMEM, "out of memory");
    for (int b = 0; !st && b < w->nblocks; b++)
        for (int j = 0; j < TL_AGENT_COUNT; j++) {
            cpu_agent_t *ag = &w->blocks[b].ag[order[j]];
            if (!ag->co) continue;
            args[n] = (coro_arg_t){ag, TL_OK};
            tl_coro_start(ag->co, coro_main, &args[n]);
            ag->done = false;
            ag->progress = true; // the first steps always run
            th[n++] = ag;
        }
    w->nthreads = n;
    w->barrier_count = 0;
    while (!st) {
        bool alive = false, progress = false;
        for (int i = 0; i < n && !st; i++) {
            if (th[i]->done) continue;
            alive = true;
            if (tl_coro_resume(th[i]->co)) {
                th[i]->done = true;
                progress = true;
                st = args[i].st;
                if (st) w->failed_block = th[i]->blk->index;
            }
            progress |= th[i]->progress;
            th[i]->progress = false;
        }
        if (!alive || st) break;
        if (!progress) {
            st = deadlock(w, th, n);
            w->failed_block = th[0]->blk->index;
        }
    }
    free(th);
    free(args);
    return st;
}

// Big tile ops of a block hand parts to the pool's threads that have no
// block left to run (fewer blocks than threads, or the last ones of a run).
static const tl_tileop_share_t pool_share = {tl_pool_idle, tl_pool_share};

static void save_carry(cpu_block_t *blk, tl_flags_xstate_t *carry, bool last)
{
    for (int a = 0; carry && a < TL_AGENT_COUNT; a++)
        if (blk->ag[a].present) tl_flags_save_cross(&blk->ag[a].fl, &carry[a], !last);
}

tl_status_t tl_cpurt_run_blocks(cpu_worker_t *w, int64_t first, tl_flags_xstate_t *carry,
                                bool last)
{
    tl_cpu_t *c = w->c;
    for (int b = 0; b < w->nblocks; b++) {
        cpu_block_t *blk = &w->blocks[b];
        blk->index = first + b;
        for (int a = 0; a < TL_AGENT_COUNT; a++) {
            cpu_agent_t *ag = &blk->ag[a];
            ag->ctx = (tl_tileop_ctx_t){&w->diag, 1.0f, c->dev, &pool_share};
            tl_flags_reset(&ag->fl, blk->index, ag->id);
            if (carry) tl_flags_restore_cross(&ag->fl, &carry[a]);
            ag->at_barrier = false;
        }
    }
    if (use_coroutines(c)) {
        tl_status_t st = schedule(w);
        if (!st) save_carry(&w->blocks[0], carry, last);
        for (int b = 0; !st && b < w->nblocks; b++) note_residual(c, &w->blocks[b]);
        return st;
    }
    cpu_block_t *blk = &w->blocks[0];
    static const int order[TL_AGENT_COUNT] = {TL_AGENT_AIC, TL_AGENT_AIV0, TL_AGENT_AIV1};
    for (int j = 0; j < (c->dev ? 1 : TL_AGENT_COUNT); j++) {
        cpu_agent_t *ag = &blk->ag[order[j]];
        if (!ag->present) continue;
        tl_status_t st = call_agent(ag);
        if (st) {
            w->failed_block = blk->index;
            return st;
        }
    }
    save_carry(blk, carry, last);
    note_residual(c, blk);
    return TL_OK;
}

// --- flags left set at the end of a block (the reference's residual warning) ----------------

typedef struct {
    tl_cpu_residual_t r[CPU_RESIDUAL_MAX];
    int n;
} residuals_t;

static void add_residual(void *arg, tl_loc_t loc, const char *text)
{
    residuals_t *rs = arg;
    if (rs->n >= CPU_RESIDUAL_MAX) return;
    rs->r[rs->n].loc = loc;
    snprintf(rs->r[rs->n].text, sizeof rs->r[rs->n].text, "%s", text);
    rs->n++;
}

// Records blk's leftover flags when it is the lowest block with any so far.
static void note_residual(tl_cpu_t *c, cpu_block_t *blk)
{
    residuals_t rs;
    rs.n = 0;
    for (int a = 0; a < TL_AGENT_COUNT; a++)
        if (blk->ag[a].present) tl_flags_residual(&blk->ag[a].fl, true, add_residual, &rs);
    if (!rs.n) return;
    pthread_mutex_lock(&c->warn_lock);
    if (blk->index < c->residual_block) {
        c->residual_block = blk->index;
        memcpy(c->residual, rs.r, sizeof *rs.r * (size_t)rs.n);
        c->nresidual = rs.n;
    }
    pthread_mutex_unlock(&c->warn_lock);
}

void tl_cpu_warn_residual(tl_cpu_t *c)
{
    for (int i = 0; i < c->nresidual; i++)
        tl_diag_warning(c->d, c->residual[i].loc, "%s", c->residual[i].text);
}
