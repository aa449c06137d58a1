// The simulator's driver: creation (an executor with the simulator as its
// hook), static facts about the kernel, blocks and their cores, the hook that
// turns executor events into modeled instructions, and shared helpers (vector
// clocks, sites, index maps, findings).
//
// Blocks: block cid runs on core (cid mod cores) after the blocks before it
// there (and starts with the cross-core counters they left: exec/flags.h),
// so a launch runs in waves; a core's time is the sum of its blocks,
// the kernel's the busiest core's. The blocks of a wave are co-simulated: the
// executor runs a slot per core (each core's blocks one after the other in
// it) and always advances the agent whose issue cycle, on the absolute time
// line, is the earliest (clock_of), so GM transfers book the shared bandwidth
// and touch the L2 roughly in time order, whichever block they belong to.
// Blocks are not ordered with each other: their clocks are kept apart (one
// block's width) and a conflict across blocks is always a race. When the
// kernel needs every block resident (mode-0 flags, T.sync_all) all blocks are
// modeled together, one per core, with clocks spanning all of them.
#include "npu/sim_int.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

// --- vector clocks ------------------------------------------------------------------------

sim_vc_t *sim_vc_new(tl_sim_t *s)
{
    sim_vc_t *v = s->nfree ? s->freel[--s->nfree]
                           : tl_arena_alloc(&s->arena, sizeof(sim_vc_t) * (size_t)s->U);
    if (v) memset(v, 0, sizeof(sim_vc_t) * (size_t)s->U);
    return v;
}

void sim_vc_free(tl_sim_t *s, sim_vc_t *v)
{
    if (!v) return;
    if (s->nfree == s->capfree) {
        int cap = s->capfree ? s->capfree * 2 : 64;
        sim_vc_t **p = realloc(s->freel, sizeof *p * (size_t)cap);
        if (!p) return; // the arena still owns it
        s->freel = p;
        s->capfree = cap;
    }
    s->freel[s->nfree++] = v;
}

void sim_vc_join(const tl_sim_t *s, sim_vc_t *dst, const sim_vc_t *src)
{
    for (int i = 0; i < s->U; i++)
        if (src[i] > dst[i]) dst[i] = src[i];
}

void sim_vc_copy(const tl_sim_t *s, sim_vc_t *dst, const sim_vc_t *src)
{
    memcpy(dst, src, sizeof(sim_vc_t) * (size_t)s->U);
}

int sim_vc_index(const tl_sim_t *s, const sim_block_t *b, tl_agent_t a, int p)
{
    int slot = s->resident ? (int)(b - s->blocks) : 0;
    return (slot * TL_AGENT_COUNT + (int)a) * SIM_NP + p;
}

// --- index maps ---------------------------------------------------------------------------

static uint64_t mix(uint64_t k)
{
    k ^= k >> 33;
    k *= UINT64_C(0xff51afd7ed558ccd);
    k ^= k >> 33;
    return k | 1; // never 0: 0 marks a free slot
}

int sim_index_get(const sim_index_t *m, uint64_t key)
{
    if (!m->cap) return -1;
    key = mix(key);
    for (int i = (int)(key & (uint64_t)(m->cap - 1));; i = (i + 1) & (m->cap - 1)) {
        if (!m->slots[i].key) return -1;
        if (m->slots[i].key == key) return m->slots[i].index;
    }
}

bool sim_index_put(sim_index_t *m, uint64_t key, int index)
{
    if (2 * (m->len + 1) > m->cap) {
        int cap = m->cap ? m->cap * 2 : 256;
        sim_slot_t *n = calloc((size_t)cap, sizeof *n);
        if (!n) return false;
        for (int i = 0; i < m->cap; i++) {
            if (!m->slots[i].key) continue;
            int j = (int)(m->slots[i].key & (uint64_t)(cap - 1));
            while (n[j].key) j = (j + 1) & (cap - 1);
            n[j] = m->slots[i];
        }
        free(m->slots);
        m->slots = n;
        m->cap = cap;
    }
    key = mix(key);
    int i = (int)(key & (uint64_t)(m->cap - 1));
    while (m->slots[i].key && m->slots[i].key != key) i = (i + 1) & (m->cap - 1);
    if (!m->slots[i].key) m->len++;
    m->slots[i].key = key;
    m->slots[i].index = index;
    return true;
}

void sim_index_free(sim_index_t *m)
{
    free(m->slots);
    memset(m, 0, sizeof *m);
}

const tl_buffer_t *sim_buffer(const tl_sim_t *s, int i)
{
    int n = s->k->buffers.len;
    return i < n ? s->k->buffers.items[i] : &s->l0_buf[i - n];
}

// --- sites and findings -------------------------------------------------------------------

uint32_t sim_site(tl_sim_t *s, const tl_stmt_t *st, sim_step_t step, tl_pipe_t pipe,
                  const char *name)
{
    uint64_t key = (uint64_t)(uintptr_t)st * 8 + (uint64_t)step;
    int i = sim_index_get(&s->site_index, key);
    if (i >= 0) return (uint32_t)i;
    if (s->nsites == s->capsites) {
        int cap = s->capsites ? s->capsites * 2 : 64;
        s->sites =
            tl_arena_grow(&s->arena, s->sites, sizeof *s->sites, (size_t)s->capsites, (size_t)cap);
        s->capsites = cap;
    }
    s->sites[s->nsites] =
        (sim_site_t){st, step, pipe, tl_arena_strdup(&s->arena, name), sim_scope_of(s, st)};
    sim_index_put(&s->site_index, key, s->nsites);
    return (uint32_t)s->nsites++;
}

static void record(tl_sim_t *s, bool warning, tl_sim_error_kind_t kind, tl_loc_t loc,
                   const sim_agent_t *ag, const char *fmt, va_list ap)
{
    tl_buf_t msg;
    tl_buf_init(&msg);
    tl_buf_vprintf(&msg, fmt, ap);
    if (ag)
        tl_buf_printf(&msg, " [block %" PRId64 " %s]", ag->blk->index, tl_side_agent_name(ag->id));
    tl_sim_error_t **list = warning ? &s->warnings : &s->errors;
    int *n = warning ? &s->nwarnings : &s->nerrors, *cap = warning ? &s->capwarnings : &s->caperrors;
    if (*n == *cap) {
        int c = *cap ? *cap * 2 : 16;
        *list = tl_arena_grow(&s->arena, *list, sizeof **list, (size_t)*cap, (size_t)c);
        *cap = c;
    }
    tl_sim_error_t *e = &(*list)[(*n)++];
    e->kind = kind;
    e->loc = loc;
    e->block = ag ? ag->blk->index : -1;
    e->agent = ag ? ag->id : TL_AGENT_AIC;
    e->message = tl_arena_strdup(&s->arena, tl_buf_cstr(&msg));
    if (warning)
        tl_diag_warning(s->d, loc, "%s", e->message);
    else if (kind != TL_SIM_RUNTIME)
        tl_diag_report(s->d, TL_SEV_ERROR, loc, TL_ERR_RACE, "%s", e->message);
    tl_buf_free(&msg);
}

void sim_error(tl_sim_t *s, tl_sim_error_kind_t kind, tl_loc_t loc, const sim_agent_t *ag,
               const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    record(s, false, kind, loc, ag, fmt, ap);
    va_end(ap);
}

void sim_finding(tl_sim_t *s, tl_sim_error_kind_t kind, tl_loc_t loc, const sim_agent_t *ag,
                 const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    record(s, true, kind, loc, ag, fmt, ap);
    va_end(ap);
}

const char *tl_sim_error_name(tl_sim_error_kind_t k)
{
    static const char *names[] = {
#define X(id, name) name,
        TL_SIM_ERRORS(X)
#undef X
    };
    return k < TL_SIM_ERROR_COUNT ? names[k] : "?";
}

// --- static facts ---------------------------------------------------------------------------

static void scan_op(tl_sim_t *s, const tl_op_t *op)
{
    const tl_opinfo_t *info = tl_op_info(op->code);
    for (int i = 0; i < op->nargs; i++) {
        if (op->args[i].kind != TL_ARG_REGION) continue;
        const tl_buffer_t *b = op->args[i].region.buf;
        int written =
            op->code == TL_OP_ATOMIC_ADD || op->code == TL_OP_COPY_PA || op->code == TL_OP_IM2COL ? 0 : 1;
        if (b->scope == TL_SCOPE_GM && info->cls == TL_OPC_COPY && i == written)
            s->gm_written[b->id] = true;
    }
    if (op->code == TL_OP_GEMM_V0) s->uses_gemm_v0 = true;
}

// Copy paths of the A2/A3 core (research/ascend_model.md §2.3) T.copy can
// take; L0C -> UB and UB -> L1 exist only through a GM workspace.
static bool legal_path(tl_scope_t src, tl_scope_t dst)
{
    switch (src) {
    case TL_SCOPE_GM: return dst == TL_SCOPE_L1 || dst == TL_SCOPE_UB;
    case TL_SCOPE_L1: return dst == TL_SCOPE_L0A || dst == TL_SCOPE_L0B;
    case TL_SCOPE_L0C: return dst == TL_SCOPE_GM;
    case TL_SCOPE_UB: return dst == TL_SCOPE_GM || dst == TL_SCOPE_UB;
    default: return false;
    }
}

static void check_path(tl_sim_t *s, const tl_stmt_t *st)
{
    const tl_op_t *op = &st->op;
    if ((op->code != TL_OP_COPY && op->code != TL_OP_ATOMIC_ADD) || op->nargs < 2 ||
        op->args[0].kind != TL_ARG_REGION || op->args[1].kind != TL_ARG_REGION)
        return;
    bool atomic = op->code == TL_OP_ATOMIC_ADD;
    const tl_buffer_t *src = op->args[atomic ? 1 : 0].region.buf,
                      *dst = op->args[atomic ? 0 : 1].region.buf;
    bool ok = atomic ? dst->scope == TL_SCOPE_GM &&
                           (src->scope == TL_SCOPE_UB || src->scope == TL_SCOPE_L0C)
                     : legal_path(src->scope, dst->scope);
    if (ok) return;
    bool via_gm = (src->scope == TL_SCOPE_L0C && dst->scope == TL_SCOPE_UB) ||
                  (src->scope == TL_SCOPE_UB && dst->scope == TL_SCOPE_L1);
    sim_error(s, TL_SIM_ILLEGAL_PATH, st->loc, NULL,
              "%s from %s ('%s') to %s ('%s') is not a data path of the %s core%s",
              atomic ? "T.tile.atomic_add" : "T.copy", tl_scope_name(src->scope), src->name,
              tl_scope_name(dst->scope), dst->name, s->arch->name,
              via_gm ? ": it goes through GM (a workspace, a cross-core flag, a second copy)" : "");
    s->static_errors++;
}

// Static checks, and the T.Scope each statement is in (scope: its number, 0 = none).
static void scan(tl_sim_t *s, const tl_stmt_t *st, int scope)
{
    if (!st) return;
    if (scope) sim_index_put(&s->scope_index, (uint64_t)(uintptr_t)st, scope);
    switch (st->kind) {
    case TL_ST_SEQ:
        for (int i = 0; i < st->seq.n; i++) scan(s, st->seq.items[i], scope);
        break;
    case TL_ST_FOR: scan(s, st->for_.body, scope); break;
    case TL_ST_WHILE: scan(s, st->while_.body, scope); break;
    case TL_ST_IF:
        scan(s, st->if_.then_, scope);
        scan(s, st->if_.else_, scope);
        break;
    case TL_ST_SCOPE: scan(s, st->scope.body, ++s->nscopes); break;
    case TL_ST_OP:
        scan_op(s, &st->op);
        check_path(s, st);
        break;
    case TL_ST_STORE:
        if (st->store.buf->scope == TL_SCOPE_GM) s->gm_written[st->store.buf->id] = true;
        break;
    default: break;
    }
}

// --- blocks ---------------------------------------------------------------------------------

static void agent_reset(tl_sim_t *s, sim_agent_t *ag, bool keep_cross)
{
    ag->issue = 0;
    memset(ag->free, 0, sizeof ag->free);
    memset(ag->done, 0, sizeof ag->done);
    memset(ag->gate, 0, sizeof ag->gate);
    memset(ag->ring, 0, sizeof ag->ring);
    memset(ag->qn, 0, sizeof ag->qn);
    memset(ag->busy, 0, sizeof ag->busy);
    memset(ag->fly, 0, sizeof ag->fly);
    memset(ag->flown, 0, sizeof ag->flown);
    memset(ag->count, 0, sizeof ag->count);
    memset(ag->scope_count, 0, sizeof ag->scope_count);
    for (int p = 0; p < SIM_NP; p++) {
        memset(ag->I[p], 0, sizeof(sim_vc_t) * (size_t)s->U);
        memset(ag->D[p], 0, sizeof(sim_vc_t) * (size_t)s->U);
    }
    for (int a = 0; a < SIM_NP; a++)
        for (int b = 0; b < SIM_NP; b++)
            for (int i = 0; i < SIM_EVENT_IDS; i++) {
                sim_flag_t *f = &ag->flag[a][b][i];
                for (int j = 0; j < f->n; j++) sim_vc_free(s, f->q[j].clk);
                memset(f, 0, sizeof *f);
            }
    for (int i = 0; i < SIM_XIDS && !keep_cross; i++) {
        sim_xq_t *qs[4] = {&ag->counter[i], &ag->pending[0][i], &ag->pending[1][i],
                           &ag->pending[2][i]};
        for (int q = 0; q < 4; q++) {
            for (int j = 0; j < qs[q]->n; j++) sim_vc_free(s, qs[q]->e[j].clk);
            qs[q]->n = 0;
        }
    }
    if (keep_cross) sim_sync_keep_cross(s, ag);
    ag->nsync_all = 0;
    memset(ag->xsets, 0, sizeof ag->xsets);
    memset(ag->nxwaits, 0, sizeof ag->nxwaits);
    memset(ag->xrel, 0, sizeof ag->xrel);
    memset(ag->xlost, 0, sizeof ag->xlost);
    memset(ag->xlost_st, 0, sizeof ag->xlost_st);
    memset(ag->xlostset, 0, sizeof ag->xlostset);
    for (int sc = 0; sc < TL_SCOPE_COUNT; sc++) sim_shadow_reset(&ag->mem[sc]);
    sim_unit_reset(s, ag);
}

static void block_start(tl_sim_t *s, sim_block_t *b, int64_t index)
{
    const tl_arch_t *a = s->arch;
    b->index = index;
    b->core = (int)(index % a->num_aic);
    b->base = s->core_time[b->core];
    b->traced = s->opts.trace && index < s->opts.trace_blocks;
    // the core ran block index - nslots before this one (its slot is the core)
    bool keep = !s->resident && index >= s->nslots;
    for (int i = 0; i < TL_AGENT_COUNT; i++) {
        sim_agent_t *ag = &b->ag[i];
        agent_reset(s, ag, keep);
        ag->pid = b->core * TL_AGENT_COUNT + i + 1;
    }
}

static void block_finish(tl_sim_t *s, sim_block_t *b, bool clean)
{
    if (b->index < 0) return;
    if (clean) {
        sim_sync_residual(s, b);
        sim_unit_residual(s, &b->ag[TL_AGENT_AIC]);
    }
    int64_t dur = 0;
    for (int i = 0; i < TL_AGENT_COUNT; i++)
        if (b->ag[i].present) dur = TL_MAX(dur, sim_time_agent_end(&b->ag[i]));
    dur += s->arch->block_overhead;
    int64_t bound = 0; // the block's busiest pipe
    for (int i = 0; i < TL_AGENT_COUNT; i++)
        for (int p = 0; b->ag[i].present && p < SIM_NP; p++)
            bound = TL_MAX(bound, b->ag[i].busy[p]);
    if (s->resident) {
        s->core_time[b->core] = TL_MAX(s->core_time[b->core], dur);
        s->core_bound[b->core] = TL_MAX(s->core_bound[b->core], bound);
    } else {
        s->core_time[b->core] = b->base + dur;
        s->core_bound[b->core] += bound;
    }
    for (int i = 0; i < TL_AGENT_COUNT; i++) {
        const sim_agent_t *ag = &b->ag[i];
        if (!ag->present) continue;
        int kind = i == TL_AGENT_AIC ? 0 : 1;
        for (int p = 0; p < SIM_NP; p++) {
            s->busy[kind][p] += ag->busy[p];
            s->fly[kind][p] += ag->fly[p];
        }
        s->agent_time[kind] += dur;
    }
    b->index = -1;
}

static sim_agent_t *agent_of(tl_sim_t *s, int64_t block, tl_agent_t a)
{
    sim_block_t *b = &s->blocks[s->resident ? block : block % s->nslots];
    if (b->index != block) {
        block_finish(s, b, true);
        block_start(s, b, block);
    }
    return &b->ag[a];
}

static tl_status_t hook(void *arg, const tl_exec_event_t *ev)
{
    tl_sim_t *s = arg;
    if (!s->started || ev->block < 0 || ev->block >= TL_MAX(s->nblocks, 1)) return TL_OK;
    sim_agent_t *ag = agent_of(s, ev->block, ev->agent);
    switch (ev->kind) {
    case TL_EXEC_EV_OP: return sim_inst_op(s, ag, ev);
    case TL_EXEC_EV_LET:
    case TL_EXEC_EV_LOAD:
    case TL_EXEC_EV_STORE: sim_inst_scalar(s, ag, ev); return TL_OK;
    case TL_EXEC_EV_SYNC_BEGIN: return sim_sync_check(s, ag, ev);
    case TL_EXEC_EV_SYNC: sim_sync_do(s, ag, ev); return TL_OK;
    case TL_EXEC_EV_SCOPE: sim_auto_scope(ag); return TL_OK;
    }
    return TL_OK;
}

// Where an agent stands on the absolute time line: its scalar unit's next
// issue cycle. The executor advances the agent with the smallest (exec.h).
static int64_t clock_of(void *arg, int64_t block, tl_agent_t a)
{
    tl_sim_t *s = arg;
    if (!s->started || block < 0 || block >= s->nblocks) return 0;
    const sim_agent_t *ag = agent_of(s, block, a);
    return ag->blk->base + ag->issue;
}

// --- buffers: capacity and alignment --------------------------------------------------------

// Places: the executor's addresses; checks them against the arch's capacities
// and (for planned or pinned buffers) alignments.
static void check_buffers(tl_sim_t *s)
{
    const tl_kernel_t *k = s->k;
    for (int i = 0; i < k->buffers.len; i++) {
        const tl_buffer_t *b = k->buffers.items[i];
        s->addr[i] = tl_exec_buffer_addr(s->x, b);
        int64_t cap = tl_arch_physical(s->arch, b->scope);
        if (!cap) continue;
        int64_t end = s->addr[i] + tl_buffer_bytes(b);
        s->report.scratch_peak[b->scope] = TL_MAX(s->report.scratch_peak[b->scope], end);
        if (end > cap)
            sim_error(s, TL_SIM_OVERFLOW, b->loc, NULL,
                      "%s overflow: '%s' (%" PRId64 " B at %" PRId64 ") ends at %" PRId64
                      ", %" PRId64 " B past the %" PRId64 " B of the hardware",
                      tl_scope_name(b->scope), b->name, tl_buffer_bytes(b), s->addr[i], end,
                      end - cap, cap);
        int al = tl_arch_align(s->arch, b->scope);
        if (b->addr >= 0 && s->addr[i] % al)
            sim_error(s, TL_SIM_MISALIGNED, b->loc, NULL,
                      "'%s' is placed at %s address %" PRId64 ", which is not a multiple of "
                      "%d B",
                      b->name, tl_scope_name(b->scope), s->addr[i], al);
    }
    if (s->uses_gemm_v0)
        for (int i = 0; i < k->buffers.len; i++) {
            const tl_buffer_t *b = k->buffers.items[i];
            if (b->scope != TL_SCOPE_L0A && b->scope != TL_SCOPE_L0B) continue;
            tl_diag_warning(s->d, b->loc,
                            "'%s' is in %s, which T.gemm_v0 uses whole for its own double "
                            "buffer: its contents do not survive a gemm_v0",
                            b->name, tl_scope_name(b->scope));
            break;
        }
}

// --- API ------------------------------------------------------------------------------------

tl_status_t tl_sim_create(tl_sim_t **out, const tl_kernel_t *k, const tl_sim_opts_t *opts,
                          tl_diag_t *d)
{
    *out = NULL;
    tl_sim_opts_t o = opts ? *opts : (tl_sim_opts_t){0};
    const tl_arch_t *arch = tl_arch_get(o.arch);
    if (!arch)
        return tl_diag_fail(d, TL_ERR_ARG, "unknown architecture '%s' (known: %s)", o.arch,
                            tl_arch_names());
    if (k->config.auto_cv_combine)
        return tl_diag_report(
            d, TL_SEV_ERROR, k->loc, TL_ERR_UNSUPPORTED,
            "'%s' is a developer-mode kernel (tl.ascend_auto_cv_combine): the simulator runs "
            "per-core programs, and the CV split pass that makes them is not in the NPU "
            "pipeline yet; `tilec run` executes it with the reference semantics",
            k->name);
    if (o.trace_blocks <= 0) o.trace_blocks = 4;
    tl_sim_t *s = calloc(1, sizeof *s);
    if (!s) return tl_diag_fail(d, TL_ERR_NOMEM, "out of memory");
    s->k = k;
    s->d = d;
    s->arch = arch;
    s->opts = o;
    tl_arena_init(&s->arena);
    tl_buf_init(&s->trace);
    s->nvec = k->threads ? 1 : 2;
    const char *target = k->config.target ? k->config.target : "auto";
    s->pto = !strcmp(target, "pto");
    // bisheng's auto sync (auto, ascendc) or upstream's AscendSyncInsertVS,
    // which orders the same pairs and is on by default for pto (sim_auto.c)
    s->auto_sync =
        !strcmp(target, "auto") || !strcmp(target, "ascendc") || (s->pto && k->config.auto_sync_vs);
    tl_exec_opts_t eo = {.hook = hook,
                         .hook_arg = s,
                         .flags_checked = true,
                         .max_resident = o.max_resident,
                         .max_steps = o.max_steps,
                         .clock = clock_of,
                         .wave = arch->num_aic};
    // The executor gets room in every scratchpad: the simulator reports what
    // does not fit the modeled chip and still computes the values.
    for (int sc = 0; sc < TL_SCOPE_COUNT; sc++) eo.capacity[sc] = INT64_C(64) << 20;
    tl_status_t st = tl_exec_create(&s->x, k, &eo, d);
    if (st) {
        tl_sim_destroy(s);
        return st;
    }
    size_t nb = (size_t)k->buffers.len + 3; // + gemm_v0's L0A and L0B
    s->gm_written = tl_arena_alloc(&s->arena, nb * sizeof *s->gm_written);
    s->addr = tl_arena_alloc(&s->arena, nb * sizeof *s->addr);
    s->gm = tl_arena_alloc(&s->arena, nb * sizeof *s->gm);
    s->l2 = tl_arena_alloc(&s->arena, nb * sizeof *s->l2);
    s->l2_lines = tl_arena_alloc(&s->arena, nb * sizeof *s->l2_lines);
    s->l2_base = tl_arena_alloc(&s->arena, nb * sizeof *s->l2_base);
    s->lru_head = s->lru_tail = -1;
    s->core_time = tl_arena_alloc(&s->arena, (size_t)arch->num_aic * sizeof *s->core_time);
    s->core_bound = tl_arena_alloc(&s->arena, (size_t)arch->num_aic * sizeof *s->core_bound);
    if (!s->gm_written || !s->addr || !s->gm || !s->l2 || !s->l2_lines || !s->l2_base ||
        !s->core_time || !s->core_bound) {
        tl_sim_destroy(s);
        return tl_diag_fail(d, TL_ERR_NOMEM, "out of memory");
    }
    for (int i = 0; i < 2; i++) {
        tl_buffer_t *b = &s->l0_buf[i];
        b->name = i ? "gemm_v0's L0B" : "gemm_v0's L0A";
        b->scope = i ? TL_SCOPE_L0B : TL_SCOPE_L0A;
        b->dtype = TL_U8;
        b->id = k->buffers.len + i;
        b->param = -1;
        b->addr = 0;
    }
    scan(s, k->body, 0);
    s->report.arch = arch;
    *out = s;
    return TL_OK;
}

tl_exec_t *tl_sim_exec(tl_sim_t *s)
{
    return s->x;
}

// Allocations that depend on the bound arguments (number of blocks).
static tl_status_t setup(tl_sim_t *s)
{
    s->nblocks = tl_exec_num_blocks(s->x);
    s->resident = tl_exec_all_resident(s->x);
    // a slot per resident block, else one per core (the executor runs a
    // wave's blocks at once, each core's one after the other in its slot)
    s->nslots = (int)TL_MAX(1, s->resident ? s->nblocks : TL_MIN(s->nblocks, s->arch->num_aic));
    s->U = (s->resident ? s->nslots : 1) * TL_AGENT_COUNT * SIM_NP;
    s->blocks = tl_arena_alloc(&s->arena, sizeof *s->blocks * (size_t)s->nslots);
    s->tmp = tl_arena_alloc(&s->arena, sizeof(sim_vc_t) * (size_t)s->U);
    s->tmp2 = tl_arena_alloc(&s->arena, sizeof(sim_vc_t) * (size_t)s->U);
    s->tmp3 = tl_arena_alloc(&s->arena, sizeof(sim_vc_t) * (size_t)s->U);
    s->sync_all_clk = tl_arena_alloc(&s->arena, sizeof(sim_vc_t) * (size_t)s->U);
    if (!s->blocks || !s->tmp || !s->tmp2 || !s->tmp3 || !s->sync_all_clk)
        return tl_diag_fail(s->d, TL_ERR_NOMEM, "out of memory");
    for (int i = 0; i < s->nslots; i++) {
        sim_block_t *b = &s->blocks[i];
        b->index = -1;
        for (int a = 0; a < TL_AGENT_COUNT; a++) {
            sim_agent_t *ag = &b->ag[a];
            ag->blk = b;
            ag->id = (tl_agent_t)a;
            ag->present = a == TL_AGENT_AIC || a <= s->nvec;
            for (int p = 0; p < SIM_NP; p++) {
                ag->I[p] = tl_arena_alloc(&s->arena, sizeof(sim_vc_t) * (size_t)s->U);
                ag->D[p] = tl_arena_alloc(&s->arena, sizeof(sim_vc_t) * (size_t)s->U);
                if (!ag->I[p] || !ag->D[p])
                    return tl_diag_fail(s->d, TL_ERR_NOMEM, "out of memory");
            }
        }
    }
    if (s->resident && s->nblocks > s->arch->num_aic)
        sim_error(s, TL_SIM_TOO_MANY_BLOCKS, s->k->loc, NULL,
                  "the kernel synchronises all blocks (mode-0 cross-core flags or T.sync_all) "
                  "but launches %" PRId64 " blocks on %d cores: they cannot all be resident",
                  s->nblocks, s->arch->num_aic);
    check_buffers(s);
    if (s->opts.l2 == TL_SIM_L2_WARM) // inputs in parameter order, until the L2 is full
        for (int p = 0; p < s->k->nparams; p++) {
            const tl_param_t *pa = &s->k->params[p];
            const tl_tensor_t *t = pa->buf ? tl_exec_tensor(s->x, pa->name) : NULL;
            if (t && pa->role == TL_ROLE_INPUT && pa->buf->scope == TL_SCOPE_GM)
                sim_time_l2_warm(s, pa->buf, (int64_t)tl_tensor_nbytes(t));
        }
    if (s->opts.trace) sim_trace_begin(s);
    return TL_OK;
}

tl_status_t tl_sim_run(tl_sim_t *s)
{
    tl_status_t st = tl_exec_bind(s->x);
    if (st) return st;
    if (s->ran) return tl_diag_fail(s->d, TL_ERR_ARG, "a simulator runs its kernel once");
    s->ran = true;
    if ((st = setup(s))) return st;
    s->started = true;
    if (s->resident) // every block exists from the start (mode-0 flags reach them all)
        for (int64_t i = 0; i < s->nblocks; i++) block_start(s, &s->blocks[i], i);
    int errors_before = s->d->nerrors;
    st = s->static_errors ? TL_ERR_RACE : tl_exec_run(s->x); // the executor would refuse them
    if (st && st != TL_ERR_RACE && s->d->nerrors > errors_before && s->d->first_error)
        sim_error(s, TL_SIM_RUNTIME, (tl_loc_t){0}, NULL, "%s", s->d->first_error);
    for (int i = 0; i < s->nslots; i++) block_finish(s, &s->blocks[i], st == TL_OK);
    s->started = false;
    if (s->opts.trace) sim_trace_end(s);
    sim_report_finish(s);
    sim_report_diag(s);
    if (st == TL_OK && (s->report.nraces || s->nerrors)) st = TL_ERR_RACE;
    return st;
}

const tl_sim_report_t *tl_sim_report(const tl_sim_t *s)
{
    return &s->report;
}

void tl_sim_destroy(tl_sim_t *s)
{
    if (!s) return;
    tl_exec_destroy(s->x);
    for (int i = 0; s->blocks && i < s->nslots; i++)
        for (int a = 0; a < TL_AGENT_COUNT; a++) {
            for (int sc = 0; sc < TL_SCOPE_COUNT; sc++)
                sim_shadow_free(&s->blocks[i].ag[a].mem[sc]);
            for (int id = 0; id < SIM_XIDS; id++) free(s->blocks[i].ag[a].xwaits[id]);
            sim_unit_free(s, &s->blocks[i].ag[a]);
        }
    for (int i = 0; s->gm && i < s->k->buffers.len; i++) {
        sim_shadow_free(&s->gm[i]);
        free(s->l2[i]);
    }
    sim_shadow_chunks_free(s);
    sim_index_free(&s->site_index);
    sim_index_free(&s->scope_index);
    sim_index_free(&s->race_index);
    sim_index_free(&s->warned);
    free(s->freel);
    free(s->bw_l2);
    free(s->bw_hbm);
    free(s->lru_prev);
    free(s->lru_next);
    free(s->lru_buf);
    free(s->lru_dirty);
    free(s->runs);
    tl_buf_free(&s->trace);
    tl_arena_free(&s->arena);
    free(s);
}
