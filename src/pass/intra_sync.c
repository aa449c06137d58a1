// intra_sync: intra-core pipe synchronisation (TL_ASCEND_AUTO_SYNC).
//
// requires: per-core programs (T.Scope("C") / T.Scope("V"); code outside
//           scopes runs on every core), addresses planned by memplan when it
//           ran (unplanned buffers are disjoint memory)
// ensures:  on each core, every two accesses of overlapping memory (RAW, WAR,
//           WAW; buffers that alias by address are the same memory) are
//           ordered: same pipe by pipe_barrier where the hardware needs one,
//           different pipes by set_flag right after the producer (in a
//           kernel with cross-core flags: after the GM accesses on its pipe
//           that upstream's placement also orders before the consumer) and
//           wait_flag right before the consumer, loop-carried pairs with a
//           set before the loop and a wait after it; event ids 0..7 per pipe
//           pair, reused. Existing syncs count; none is duplicated.
//
// Method: an abstract execution of each core's program. Every memory access
// becomes a record holding the set of pipes already ordered after it; syncs
// extend those sets exactly as the hardware orders pipes (set_flag carries
// everything complete on its source pipe, wait_flag hands it to the
// destination, barriers, the scalar unit issuing in order). Loops run twice
// (the second pass sees the back edge; a loop that may run once ends with the
// meet of both passes), `if` branches meet. The first access
// that conflicts with an unordered record gets the cheapest sync that orders
// it; the program is then executed again, until nothing conflicts. A final
// pass drops every inserted sync the others make redundant, then event ids
// are coloured on the syncs' live ranges. "Again" means with the same
// result as from the start, not from the start: a barrier right before the
// statement the walk is at is placed on the spot, and otherwise the walk
// resumes from a checkpoint before the change (intra_sync_resume.c).
//
// Exceptions the hardware makes: PIPE_S is in order; the cube accumulating into
// one L0C tile of at least arch->mmad_interlock_fractals fractals interlocks;
// T.gemm_v0 is a device helper with its own flags (MTE2 before its L1 loads on
// MTE1, FIX before its mmads; its loads before later MTE2, its mmads before
// later FIX). Scalar writes of UB/GM get S->X
// flags before the pipes that read them; scalar reads need nothing after them.
//
// With config.sync_baseline the pass instead puts barrier_all after every tile
// op (the benchmark's baseline).
#include "pass/intra_sync_int.h"
#include "pass/rewrite.h"

#include <stdlib.h>
#include <string.h>

const uint32_t isync_side_pipes[] = {
    [TL_SIDE_CUBE] = BIT(TL_PIPE_S) | BIT(TL_PIPE_MTE1) | BIT(TL_PIPE_MTE2) | BIT(TL_PIPE_MTE3) |
                     BIT(TL_PIPE_M) | BIT(TL_PIPE_FIX),
    [TL_SIDE_VEC] = BIT(TL_PIPE_S) | BIT(TL_PIPE_MTE2) | BIT(TL_PIPE_MTE3) | BIT(TL_PIPE_V),
};
// --- driver --------------------------------------------------------------------------------------

// The conflict in S->dep is ordered by a new sync. One that comes back after
// its sync was placed is ordered with barrier_all (which cannot fail to
// order it); a third time is an error.
static bool repeated(const sim_t *S)
{
    return S->last_stmt == S->dep.stmt && S->last_prod == S->dep.prod.acc.stmt &&
           S->last_index == S->dep.prod.acc_index;
}

static tl_status_t order_conflict(sim_t *S)
{
    if (S->rounds == MAX_ROUNDS)
        return tl_diag_report(S->ctx->diag, TL_SEV_ERROR, S->k->loc, TL_ERR_INTERNAL,
                              "intra_sync: too many syncs needed");
    S->repeats = repeated(S) ? S->repeats + 1 : 0;
    if (S->repeats > 2)
        return tl_diag_report(S->ctx->diag, TL_SEV_ERROR, isync_loc_of(S, &S->dep), TL_ERR_INTERNAL,
                              "intra_sync: cannot order this statement after line %d",
                              S->dep.prod.acc.stmt->loc.line);
    S->last_prod = S->dep.prod.acc.stmt;
    S->last_index = S->dep.prod.acc_index;
    S->last_stmt = S->dep.stmt;
    S->rounds++;
    return isync_insert_for(S, &S->dep, S->repeats > 0);
}

bool isync_fix_here(sim_t *S)
{
    if (S->rounds == MAX_ROUNDS) return false;
    int repeats = repeated(S) ? S->repeats + 1 : 0;
    if (repeats > 2 || !isync_inserts_here(S, &S->dep, repeats > 0)) return false;
    S->fix_status = order_conflict(S);
    if (S->fix_status) return false;
    S->dep.found = false;
    return true;
}

// The plain position before which the program changes when the conflict in
// S->dep gets its sync: the earlier of the producer's and the consumer's
// anchors (every sync for it goes after one of them).
static int change_at(const sim_t *S, pos_t *at)
{
    const dep_t *d = &S->dep;
    int np = isync_anchor(d->prod.path, d->prod.npath), nd = isync_anchor(d->path, d->npath);
    bool prod_first = isync_pos_cmp(d->prod.path, np, d->path, nd) <= 0;
    int n = prod_first ? np : nd;
    memcpy(at, prod_first ? d->prod.path : d->path, sizeof at[0] * (size_t)n);
    return n;
}

static tl_status_t sync_side(sim_t *S, tl_side_t side)
{
    S->side = side;
    S->pipes = isync_side_pipes[side];
    int first = S->nitems;
    S->last_prod = S->last_stmt = NULL;
    S->last_index = -1;
    S->repeats = S->rounds = 0;
    S->cp_mode = CP_BUILD;
    S->fix_inline = true;
    bool found = isync_simulate(S);
    for (;;) {
        if (S->fix_status) return S->fix_status;
        if (S->overflow && S->deep_loop)
            return tl_diag_report(S->ctx->diag, TL_SEV_ERROR, S->deep_loop->loc, TL_ERR_COMPILE,
                                  "this loop is inside %d others: automatic synchronisation "
                                  "(TL_ASCEND_AUTO_SYNC) checks loops nested at most %d deep "
                                  "(it runs every loop body twice, so each level doubles its work)",
                                  MAX_LOOPS, MAX_LOOPS);
        if (S->overflow)
            return tl_diag_report(S->ctx->diag, TL_SEV_ERROR, S->k->loc, TL_ERR_INTERNAL,
                                  "intra_sync: out of memory");
        if (!found) break;
        pos_t at[MAXD];
        int n = change_at(S, at);
        tl_status_t st = order_conflict(S);
        if (st) return st;
        found = isync_resume(S, at, n);
    }
    S->fix_inline = false;
    S->cp_mode = CP_OFF;
    isync_cp_clear(S);
    isync_sink_exit_waits(S, first);
    isync_reduce(S, first);
    return TL_OK;
}

// Baseline: barrier_all after every tile op.
static void baseline(tl_kernel_t *k, tl_stmt_t *s, tl_side_t scope)
{
    if (!s) return;
    switch (s->kind) {
    case TL_ST_SEQ:
        for (int i = 0; i < s->seq.n; i++) {
            tl_stmt_t *c = s->seq.items[i];
            baseline(k, c, scope);
            if (c->kind != TL_ST_OP) continue;
            tl_stmt_t *b =
                tl_rewrite_sync(k, TL_SYNC_BARRIER_ALL, TL_PIPE_ALL, TL_PIPE_NONE, NULL, 0, c->loc);
            tl_rewrite_insert(k, s, ++i, b);
        }
        return;
    case TL_ST_FOR: baseline(k, s->for_.body, scope); return;
    case TL_ST_WHILE: baseline(k, s->while_.body, scope); return;
    case TL_ST_IF:
        baseline(k, s->if_.then_, scope);
        baseline(k, s->if_.else_, scope);
        return;
    case TL_ST_SCOPE: baseline(k, s->scope.body, s->scope.side); return;
    default: return;
    }
}

// The GM buffers a kernel with its own cross-core flags writes
// (S->gm_written) and the pipes of those flags: a flag pair's set goes after
// the accesses of them on its source pipe that upstream's placement orders
// before the consumer (intra_sync_place.c).
typedef struct {
    bool cross;
    bool *written;
    uint32_t *pipes; // per side: the pipes of the kernel's own set_cross_flag statements
} gm_scan_t;

static void note_cross(gm_scan_t *g, const tl_stmt_t *s, tl_side_t side)
{
    if (!s) return;
    switch (s->kind) {
    case TL_ST_SEQ:
        for (int i = 0; i < s->seq.n; i++) note_cross(g, s->seq.items[i], side);
        return;
    case TL_ST_FOR: note_cross(g, s->for_.body, side); return;
    case TL_ST_WHILE: note_cross(g, s->while_.body, side); return;
    case TL_ST_IF:
        note_cross(g, s->if_.then_, side);
        note_cross(g, s->if_.else_, side);
        return;
    case TL_ST_SCOPE: note_cross(g, s->scope.body, s->scope.side); return;
    case TL_ST_SYNC:
        // (cross_sync's own flags are set on the pipe of the access they
        // release, right after it: they need no more)
        if (s->sync.kind != TL_SYNC_SET_CROSS || s->inserted) return;
        g->cross = true;
        for (int d = TL_SIDE_CUBE; d <= TL_SIDE_VEC; d++) // outside T.Scope: both
            if (side == TL_SIDE_NONE || (int)side == d) g->pipes[d] |= BIT(s->sync.src);
        return;
    default: return;
    }
}

static void note_write(void *arg, const tl_hazard_access_t *a)
{
    gm_scan_t *g = arg;
    if (a->write && a->buf->scope == TL_SCOPE_GM) g->written[a->buf->id] = true;
}

static void note_writes(void *arg, tl_stmt_t *s)
{
    if (s->kind != TL_ST_SEQ && s->kind != TL_ST_SCOPE) tl_hazard_stmt(s, note_write, arg);
}

static bool scan_gm(sim_t *S)
{
    gm_scan_t g = {false, NULL, S->cross_pipes};
    note_cross(&g, S->k->body, TL_SIDE_NONE);
    if (!g.cross) return true;
    g.written = calloc((size_t)S->k->buffers.len + 1, sizeof *g.written);
    if (!g.written) return false;
    tl_rewrite_walk(S->k->body, note_writes, &g);
    S->gm_written = g.written;
    return true;
}

typedef struct {
    int sets, waits, barriers, alls;
} count_t;

static void count(void *arg, tl_stmt_t *s)
{
    count_t *c = arg;
    if (s->kind != TL_ST_SYNC || !s->inserted) return;
    switch (s->sync.kind) {
    case TL_SYNC_SET_FLAG: c->sets++; break;
    case TL_SYNC_WAIT_FLAG: c->waits++; break;
    case TL_SYNC_PIPE_BARRIER: c->barriers++; break;
    case TL_SYNC_BARRIER_ALL: c->alls++; break;
    default: break;
    }
}

tl_status_t tl_pass_intra_sync(tl_kernel_t *k, tl_pass_ctx_t *ctx)
{
    if (!k->config.auto_sync && !k->config.sync_baseline) return TL_OK;
    if (k->config.auto_cv_combine)
        return tl_diag_error(ctx->diag, k->loc,
                             "intra_sync needs per-core programs: run cv_split first");
    tl_rewrite_normalize(k);
    if (k->config.sync_baseline) {
        baseline(k, k->body, TL_SIDE_NONE);
        return TL_OK;
    }
    sim_t *S = calloc(1, sizeof *S); // (large: the walk's arrays)
    if (!S) return tl_diag_fail(ctx->diag, TL_ERR_NOMEM, "out of memory");
    S->k = k;
    S->ctx = ctx;
    S->arch = tl_arch_default();
    tl_arena_init(&S->arena);
    S->hz = tl_hazard_ctx_new(k);
    if (!S->hz) {
        free(S);
        return tl_diag_fail(ctx->diag, TL_ERR_NOMEM, "out of memory");
    }
    tl_status_t st = scan_gm(S) ? TL_OK : tl_diag_fail(ctx->diag, TL_ERR_NOMEM, "out of memory");
    if (!st) st = sync_side(S, TL_SIDE_CUBE);
    if (!st) st = sync_side(S, TL_SIDE_VEC);
    if (!st) {
        isync_assign_ids(S);
        isync_drop_disabled(S, k->body);
        for (int i = 0; i < S->nmade; i++) // an else left empty goes again
            if (S->made_else[i]->if_.else_ && !S->made_else[i]->if_.else_->seq.n)
                S->made_else[i]->if_.else_ = NULL;
    }
    tl_hazard_ctx_free(S->hz);
    isync_cp_clear(S);
    free(S->cps);
    free(S->pend);
    isync_tab_free(&S->anchors);
    isync_tab_free(&S->paths);
    isync_tab_free(&S->iters);
    isync_tab_free(&S->accs);
    free(S->sync_accs.a);
    tl_arena_free(&S->arena);
    free(S->items);
    free(S->disabled);
    free(S->saved);
    free(S->gm_written);
    free(S);
    return st;
}

void tl_intra_sync_count(const tl_kernel_t *k, int *sets, int *waits, int *barriers, int *alls)
{
    count_t c = {0};
    tl_rewrite_walk(k->body, count, &c);
    *sets = c.sets;
    *waits = c.waits;
    *barriers = c.barriers;
    *alls = c.alls;
}
