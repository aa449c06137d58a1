// memplan: gives every on-chip buffer a byte address in its scratchpad.
//
// requires: physical scopes (scope_infer); the final statement order of every
//           core (runs after the passes that move, copy or version statements)
// ensures:  buf->addr >= 0 for every L1/L0A/L0B/L0C/UB buffer, aligned to its
//           scope (32 B for UB and L1, 512 B for L0A/L0B, 64 B for L0C), sizes
//           rounded up to that alignment, inside the scope's hardware size; two
//           buffers overlap only when their lifetimes are disjoint (upstream's
//           intervals when only those fit, with a warning); pinned
//           buffers (T.annotate_address) keep their address and nothing else is
//           placed over them; a kernel that does not fit is an error that names
//           the buffers live at the peak, their sizes and the bytes over.
//
// Switch: TL_ASCEND_MEMORY_PLANNING (k->config.memory_planning).
//   on:  lifetimes from live.h (loop-aware); a linear scan per scope in order of
//        first use, each buffer at the lowest aligned address free of the
//        buffers live with it. Sharing an address between buffers of different
//        pipes makes the later writer wait for the earlier pipe (a dependence
//        the program does not have), so the first plan shares only between
//        buffers that one pipe alone accesses. When that does not fit, a scan
//        places each buffer that way where it can and over buffers of other
//        pipes where it must; then scans that share freely (in order of first
//        use, then largest first); then the same on upstream's intervals
//        (live.h, tl_live_compute_upstream: what upstream's build accepts),
//        warning about each buffer whose bytes another then takes while
//        live.h's intervals keep it live; then an error. k->plan_note says
//        per scope which plan was taken and why;
//   off: buffers one after another in declaration order, as upstream and the
//        executor do; the same capacity diagnostics, with the planned peak as a
//        hint.
// Capacities and alignments are the chip model's (target/arch.h, A2): a plan
// stays within what upstream's build claims (UB 196352, L1 524032, L0A/L0B
// 65536, L0C 131072) when it can; past that, within the hardware's bytes (UB
// 196608, L1 524288), it is a warning naming the buffers in the runtime's
// reserve (upstream's planner only logs it and its elementwise_add.py uses the
// whole UB); past the hardware an error. A developer kernel with
// T.Kernel(threads=k) before the vector split runs its vector side as one lane
// with k times the UB, as the backends do (exec/layout.c).
// The pto pipeline (ctx->pipeline): pto-isa's cube tiles hold whole 16-row
// fractals, so each matrix of a cube buffer is planned with its rows rounded
// up to 16 (k->cube_fractal_rows, ir.h's tl_buffer_planned_rows).
#include "pass/pass.h"

#include "ir/access.h"
#include "ir/overrun.h"
#include "pass/live.h"
#include "target/arch.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static const tl_scope_t planned[] = {TL_SCOPE_L1, TL_SCOPE_L0A, TL_SCOPE_L0B, TL_SCOPE_L0C,
                                     TL_SCOPE_UB};

int64_t tl_memplan_align(tl_scope_t s)
{
    return tl_arch_align(tl_arch_default(), s);
}

int64_t tl_memplan_capacity(const tl_kernel_t *k, tl_scope_t s)
{
    int64_t cap = tl_arch_usable(tl_arch_default(), s);
    return s == TL_SCOPE_UB && k->threads > 1 ? cap * k->threads : cap;
}

int64_t tl_memplan_limit(const tl_kernel_t *k, tl_scope_t s)
{
    int64_t cap = tl_arch_physical(tl_arch_default(), s);
    return s == TL_SCOPE_UB && k->threads > 1 ? cap * k->threads : cap;
}

typedef struct {
    tl_buffer_t *b;
    int64_t size; // rounded up to the alignment
    int start, end;
    unsigned pipes; // the pipes that access it, a bit per tl_pipe_t
    bool placed;
} item_t;

// How a scan may share addresses between buffers whose lifetimes are disjoint.
typedef enum {
    SHARE_ONE_PIPE,  // only when one pipe accesses both
    SHARE_IF_NEEDED, // as SHARE_ONE_PIPE where a range is free, else freely
    SHARE_ANY,
} share_t;

typedef struct {
    tl_kernel_t *k;
    tl_pass_ctx_t *ctx;
    tl_live_t live;
    unsigned *pipes; // per buffer id
    tl_scope_t scope;
    int64_t cap, align; // cap: the hardware's bytes
    int64_t claim;      // what upstream's build claims (tl_memplan_capacity)
    item_t *items;
    int n;
    bool soft;     // reference pipeline: a plan that does not fit is a warning
    tl_buf_t note; // k->plan_note
} plan_t;

static tl_severity_t severity(const plan_t *p)
{
    return p->soft ? TL_SEV_WARNING : TL_SEV_ERROR;
}

static bool overlap(int64_t a0, int64_t a1, int64_t b0, int64_t b1)
{
    return a0 < b1 && b0 < a1;
}

static bool live_together(const item_t *a, const item_t *b)
{
    if (a->b->addr_pinned || b->b->addr_pinned) return true; // pins hold their range throughout
    if (a->start < 0 || b->start < 0) return false;
    return a->start <= b->end && b->start <= a->end;
}

// Whether sharing an address between a and b would order accesses of two pipes.
static bool cross_pipe(const item_t *a, const item_t *b)
{
    unsigned m = a->pipes | b->pipes;
    return a->pipes && b->pipes && (m & (m - 1));
}

// Whether a and b are two versions of a buffer of one pipelined loop: the
// unrolled iterations use them apart so that their ops can interleave (the
// schedule pass), which one address would forbid.
static bool versions(const item_t *a, const item_t *b)
{
    const tl_buffer_t *x = a->b, *y = b->b;
    return x->version_group && x->version_group == y->version_group && x->version != y->version;
}

static bool apart(const item_t *a, const item_t *b, share_t share)
{
    return live_together(a, b) || (share == SHARE_ONE_PIPE && (cross_pipe(a, b) || versions(a, b)));
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

// Lowest aligned address for it that overlaps none of the placed items it must
// stay apart from, or -1 when that is not below cap.
static int64_t find_gap(plan_t *p, const item_t *it, int64_t *ranges, share_t share, int64_t cap)
{
    int m = 0;
    for (int i = 0; i < p->n; i++) {
        const item_t *o = &p->items[i];
        if (o == it || !o->placed || !apart(it, o, share)) continue;
        ranges[2 * m] = o->b->addr;
        ranges[2 * m + 1] = o->b->addr + o->size;
        m++;
    }
    qsort(ranges, (size_t)m, 2 * sizeof *ranges, cmp_i64);
    int64_t at = 0;
    for (int i = 0; i < m; i++) {
        if (at + it->size <= ranges[2 * i]) break;
        at = TL_MAX(at, TL_ALIGN_UP(ranges[2 * i + 1], p->align));
    }
    return at + it->size <= cap ? at : -1;
}

static int by_start(const void *a, const void *b)
{
    const item_t *x = a, *y = b;
    int sx = x->start < 0 ? 1 << 30 : x->start, sy = y->start < 0 ? 1 << 30 : y->start;
    if (sx != sy) return sx < sy ? -1 : 1;
    if (x->size != y->size) return x->size > y->size ? -1 : 1;
    return x->b->id - y->b->id;
}

static int by_size(const void *a, const void *b)
{
    const item_t *x = a, *y = b;
    if (x->size != y->size) return x->size > y->size ? -1 : 1;
    return x->b->id - y->b->id;
}

// Places every unpinned item in the order given, below cap; the first that
// does not fit is returned (NULL when all fit).
static item_t *scan(plan_t *p, int64_t *ranges, share_t share, int64_t cap)
{
    for (int i = 0; i < p->n; i++) {
        item_t *it = &p->items[i];
        it->placed = it->b->addr_pinned;
    }
    for (int i = 0; i < p->n; i++) {
        item_t *it = &p->items[i];
        if (it->placed) continue;
        int64_t at = find_gap(p, it, ranges, share == SHARE_ANY ? SHARE_ANY : SHARE_ONE_PIPE, cap);
        if (at < 0 && share == SHARE_IF_NEEDED) at = find_gap(p, it, ranges, SHARE_ANY, cap);
        if (at < 0) return it;
        it->b->addr = at;
        it->placed = true;
    }
    return NULL;
}

// The end of the highest placed range.
static int64_t extent(const plan_t *p)
{
    int64_t top = 0;
    for (int i = 0; i < p->n; i++)
        if (p->items[i].placed) top = TL_MAX(top, p->items[i].b->addr + p->items[i].size);
    return top;
}

// --- pipes -------------------------------------------------------------------------

typedef struct {
    unsigned *pipes;
    const tl_op_t *op; // the statement's op, or NULL (scalar code)
} pipes_t;

static void on_pipe_access(void *arg, const tl_access_t *a)
{
    pipes_t *w = arg;
    tl_pipe_t p = TL_PIPE_S; // scalar statements, and scalar operands of ops
    if (w->op && a->region) {
        p = tl_op_pipe(w->op);
        // gemm_v0 loads its L1 operands into L0 itself
        if (w->op->code == TL_OP_GEMM_V0 && a->buf->scope == TL_SCOPE_L1) p = TL_PIPE_MTE1;
    }
    w->pipes[a->buf->id] |= 1u << p;
}

static void collect_pipes(pipes_t *w, const tl_stmt_t *s)
{
    if (!s) return;
    w->op = s->kind == TL_ST_OP ? &s->op : NULL;
    tl_access_stmt(s, on_pipe_access, w);
    switch (s->kind) {
    case TL_ST_SEQ:
        for (int i = 0; i < s->seq.n; i++) collect_pipes(w, s->seq.items[i]);
        break;
    case TL_ST_FOR: collect_pipes(w, s->for_.body); break;
    case TL_ST_WHILE: collect_pipes(w, s->while_.body); break;
    case TL_ST_IF:
        collect_pipes(w, s->if_.then_);
        collect_pipes(w, s->if_.else_);
        break;
    case TL_ST_SCOPE: collect_pipes(w, s->scope.body); break;
    default: break;
    }
}

static void pipe_list(tl_buf_t *o, unsigned pipes)
{
    bool first = true;
    for (int q = 0; q < TL_PIPE_COUNT; q++)
        if (pipes >> q & 1) {
            tl_buf_printf(o, "%s%s", first ? "" : "/", tl_pipe_name((tl_pipe_t)q));
            first = false;
        }
}

// The plan's line of k->plan_note: for a plan that shares across pipes, the
// bytes the one-pipe plan needs and the pairs that share.
static void note_plan(plan_t *p, int64_t one_pipe_need, const char *how)
{
    const char *sn = tl_scope_name(p->scope);
    tl_buf_printf(&p->note, "  %s: %" PRId64 " B, ", sn, extent(p));
    if (!how) {
        tl_buf_puts(&p->note, "no address shared across pipes\n");
        return;
    }
    tl_buf_printf(&p->note,
                  "%s: without sharing addresses across pipes the buffers need %" PRId64
                  " B, more than the %" PRId64 " B of %s;",
                  how, one_pipe_need, p->claim, sn);
    int shown = 0, pairs = 0;
    for (int i = 0; i < p->n; i++)
        for (int j = 0; j < p->n; j++) {
            const item_t *a = &p->items[i], *b = &p->items[j];
            if (a == b || a->start > b->start || (a->start == b->start && i > j)) continue;
            if (!cross_pipe(a, b) ||
                !overlap(a->b->addr, a->b->addr + a->size, b->b->addr, b->b->addr + b->size))
                continue;
            if (++pairs > 4) continue;
            tl_buf_printf(&p->note, "%s '%s' (", shown++ ? "," : "", b->b->name);
            pipe_list(&p->note, b->pipes);
            tl_buf_printf(&p->note, ") over '%s' (", a->b->name);
            pipe_list(&p->note, a->pipes);
            tl_buf_puts(&p->note, ")");
        }
    if (pairs > shown) tl_buf_printf(&p->note, " and %d more", pairs - shown);
    tl_buf_putc(&p->note, '\n');
}

// --- diagnostics -------------------------------------------------------------------

static void describe(tl_buf_t *o, const item_t *it)
{
    const tl_buffer_t *b = it->b;
    tl_buf_printf(o, "'%s' (%s[", b->name, tl_dtype_name(b->dtype));
    for (int d = 0; d < b->ndim; d++) tl_buf_printf(o, "%s%" PRId64, d ? ", " : "", b->shape[d]);
    tl_buf_printf(o, "]) %" PRId64 " B", it->size);
    if (b->addr_pinned) tl_buf_printf(o, " pinned at %" PRId64, b->addr);
}

static bool live_at(const item_t *it, int pos)
{
    return it->b->addr_pinned || (it->start >= 0 && it->start <= pos && pos <= it->end);
}

// The position where the live items need the most bytes.
static int64_t peak(const plan_t *p, int *where)
{
    int64_t best = 0;
    *where = -1;
    for (int pos = 0; pos < p->live.npos; pos++) {
        int64_t need = 0;
        for (int i = 0; i < p->n; i++)
            if (live_at(&p->items[i], pos)) need += p->items[i].size;
        if (need > best) best = need, *where = pos;
    }
    return best;
}

static tl_status_t over_capacity(plan_t *p, const item_t *failed)
{
    int pos;
    int64_t need = peak(p, &pos);
    const char *sn = tl_scope_name(p->scope);
    tl_buf_t list;
    tl_buf_init(&list);
    tl_status_t st;
    if (need > p->cap && pos >= 0) {
        // Report at the allocation that tips the peak over: the last to become live.
        const item_t *at = NULL;
        for (int i = 0; i < p->n; i++) {
            const item_t *it = &p->items[i];
            if (!live_at(it, pos)) continue;
            if (list.len) tl_buf_puts(&list, ", ");
            describe(&list, it);
            if (!it->b->addr_pinned && (!at || it->start >= at->start)) at = it;
        }
        if (!at) at = failed;
        st = tl_diag_report(p->ctx->diag, severity(p), at->b->loc, TL_ERR_COMPILE,
                            "%s over capacity: the buffers live together need %" PRId64
                            " B, %" PRId64 " B more than the %" PRId64 " B of %s; live at the "
                            "peak: %s",
                            sn, need, need - p->cap, p->cap, sn, tl_buf_cstr(&list));
        tl_diag_note(p->ctx->diag, p->live.at[pos]->loc, "the %s peak is at this statement", sn);
    } else {
        int64_t with = failed->size;
        for (int i = 0; i < p->n; i++) {
            const item_t *it = &p->items[i];
            if (it == failed || !live_together(it, failed)) continue;
            if (list.len) tl_buf_puts(&list, ", ");
            describe(&list, it);
            with += it->size;
        }
        st = tl_diag_report(p->ctx->diag, severity(p), failed->b->loc, TL_ERR_COMPILE,
                            "cannot place '%s' (%" PRId64 " B) in %s: with the buffers live "
                            "together with it (%s) it needs %" PRId64 " B of %" PRId64
                            " B, but the buffers placed around it (and pinned ones) leave no "
                            "free range of %" PRId64 " B",
                            failed->b->name, failed->size, sn,
                            list.len ? tl_buf_cstr(&list) : "none", with, p->cap, failed->size);
    }
    tl_buf_free(&list);
    return st;
}

// Declaration order, one after another (planning off).
static tl_status_t bump(plan_t *p)
{
    int64_t next = 0;
    for (int i = 0; i < p->n; i++) {
        item_t *it = &p->items[i];
        if (it->b->addr_pinned) continue;
        int64_t at = TL_ALIGN_UP(next, p->align);
        for (bool moved = true; moved;) { // skip pinned ranges
            moved = false;
            for (int j = 0; j < p->n; j++) {
                const item_t *o = &p->items[j];
                if (o->b->addr_pinned &&
                    overlap(at, at + it->size, o->b->addr, o->b->addr + o->size)) {
                    at = TL_ALIGN_UP(o->b->addr + o->size, p->align);
                    moved = true;
                }
            }
        }
        if (at + it->size > p->cap) {
            tl_buf_t list;
            tl_buf_init(&list);
            int64_t total = 0;
            for (int j = 0; j < p->n; j++) {
                if (list.len) tl_buf_puts(&list, ", ");
                describe(&list, &p->items[j]);
                total += p->items[j].size;
            }
            int pos;
            int64_t planned_peak = peak(p, &pos);
            tl_status_t st = tl_diag_report(
                p->ctx->diag, severity(p), it->b->loc, TL_ERR_COMPILE,
                "%s over capacity: '%s' does not fit; with memory planning off "
                "(TL_ASCEND_MEMORY_PLANNING) every buffer has its own range and the %s buffers "
                "need %" PRId64 " B, %" PRId64 " B more than the %" PRId64 " B of %s: %s",
                tl_scope_name(p->scope), it->b->name, tl_scope_name(p->scope), total,
                total - p->cap, p->cap, tl_scope_name(p->scope), tl_buf_cstr(&list));
            tl_buf_free(&list);
            if (planned_peak <= p->cap)
                tl_diag_note(p->ctx->diag, it->b->loc,
                             "with memory planning on, the buffers live at the same time need "
                             "at most %" PRId64 " B",
                             planned_peak);
            return st;
        }
        it->b->addr = at;
        next = at + it->size;
    }
    return TL_OK;
}

static tl_status_t check_pins(plan_t *p)
{
    for (int i = 0; i < p->n; i++) {
        const item_t *it = &p->items[i];
        const tl_buffer_t *b = it->b;
        if (!b->addr_pinned) continue;
        if (b->addr < 0 || b->addr + tl_buffer_planned_bytes(p->k, b) > p->cap)
            return tl_diag_error(p->ctx->diag, b->loc,
                                 "'%s' is pinned at %" PRId64 " but its %" PRId64
                                 " B do not fit in the %" PRId64 " B of %s",
                                 b->name, b->addr, tl_buffer_planned_bytes(p->k, b), p->cap,
                                 tl_scope_name(p->scope));
        if (b->addr % p->align)
            tl_diag_warning(p->ctx->diag, b->loc,
                            "'%s' is pinned at %" PRId64 ", which is not a multiple of %" PRId64
                            " B (the %s alignment)",
                            b->name, b->addr, p->align, tl_scope_name(p->scope));
        for (int j = 0; j < i; j++) {
            const item_t *o = &p->items[j];
            if (!o->b->addr_pinned || o->start < 0 || it->start < 0) continue;
            if (overlap(b->addr, b->addr + it->size, o->b->addr, o->b->addr + o->size) &&
                o->start <= it->end && it->start <= o->end)
                tl_diag_warning(p->ctx->diag, b->loc,
                                "'%s' and '%s' are pinned to overlapping addresses of %s while "
                                "both are live",
                                b->name, o->b->name, tl_scope_name(p->scope));
        }
    }
    return TL_OK;
}

// The buffers past what upstream's build claims of the scope, inside the
// hardware's bytes: a warning (upstream's planner only logs it, and its
// elementwise_add.py fills the whole UB and runs), naming them.
static void warn_claim(plan_t *p)
{
    int64_t top = 0;
    const item_t *last = NULL;
    for (int i = 0; i < p->n; i++) {
        const item_t *it = &p->items[i];
        if (it->b->addr >= 0 && it->b->addr + it->size > top)
            top = it->b->addr + it->size, last = it;
    }
    if (top <= p->claim || !last) return;
    tl_buf_t list;
    tl_buf_init(&list);
    for (int i = 0; i < p->n; i++) {
        const item_t *it = &p->items[i];
        if (it->b->addr < 0 || it->b->addr + it->size <= p->claim) continue;
        if (list.len) tl_buf_puts(&list, ", ");
        describe(&list, it);
        tl_buf_printf(&list, " at %" PRId64, it->b->addr);
    }
    const char *sn = tl_scope_name(p->scope);
    tl_diag_warning(p->ctx->diag, last->b->loc,
                    "%s: the buffers reach byte %" PRId64 ", %" PRId64 " B past the %" PRId64
                    " B that upstream's Ascend C build claims for them (the runtime keeps the rest "
                    "of the %" PRId64 " B of %s); it runs on the device, but nothing else may use "
                    "those bytes: %s",
                    sn, top, top - p->claim, p->claim, p->cap, sn, tl_buf_cstr(&list));
    tl_buf_free(&list);
}

// Places the items below cap: the plan that shares addresses only between
// buffers of one pipe when it fits (one_pipe: the bytes it needs), else
// sharing across pipes where needed, else freely (in order of first use, then
// largest first). Returns the item that does not fit (NULL: all placed) and
// in *how which plan was taken.
static item_t *place(plan_t *p, int64_t *ranges, int64_t one_pipe, int64_t cap, const char **how)
{
    *how = NULL;
    if (one_pipe <= cap) return scan(p, ranges, SHARE_ONE_PIPE, cap);
    *how = "shared across pipes where needed";
    if (!scan(p, ranges, SHARE_IF_NEEDED, cap)) return NULL;
    *how = "shared by lifetime alone";
    item_t *failed = scan(p, ranges, SHARE_ANY, cap);
    if (!failed) return NULL;
    const tl_buffer_t *first = failed->b; // the sort below moves the items
    qsort(p->items, (size_t)p->n, sizeof *p->items, by_size);
    item_t *again = scan(p, ranges, SHARE_ANY, cap);
    for (int i = 0; again && i < p->n; i++)
        if (p->items[i].b == first && p->items[i].size >= again->size) again = &p->items[i];
    return again;
}

// Places the items sorted by first use: within upstream's claim when that
// fits, else within the hardware (a warning). *one_pipe: the bytes the
// one-pipe plan needs. Returns the item that does not fit (NULL: all placed).
static item_t *fit(plan_t *p, int64_t *ranges, int64_t *one_pipe, const char **how)
{
    qsort(p->items, (size_t)p->n, sizeof *p->items, by_start);
    // The one-pipe plan without a capacity: where it ends is what it needs
    // (lowest-address placement does not depend on the capacity).
    scan(p, ranges, SHARE_ONE_PIPE, INT64_MAX / 4);
    *one_pipe = extent(p);
    item_t *failed = place(p, ranges, *one_pipe, p->claim, how);
    if (failed && p->cap > p->claim) {
        qsort(p->items, (size_t)p->n, sizeof *p->items, by_start);
        failed = place(p, ranges, *one_pipe, p->cap, how);
        if (!failed) warn_claim(p);
    }
    return failed;
}

static void set_ranges(plan_t *p, const tl_live_t *l)
{
    for (int i = 0; i < p->n; i++) {
        tl_live_range_t r = l->range[p->items[i].b->id];
        p->items[i].start = r.start;
        p->items[i].end = r.end;
    }
}

// After a plan on upstream's intervals: the buffers whose value a loop carries
// around its back edge (live together by live.h's intervals) that now share
// bytes with another buffer. Upstream's build shares them the same way; the
// simulator then shows what the device does (a race or other values).
static void warn_carried(plan_t *p)
{
    for (int i = 0; i < p->n; i++) {
        const item_t *a = &p->items[i];
        tl_live_range_t ra = p->live.range[a->b->id];
        if (a->b->addr < 0 || (ra.start == a->start && ra.end == a->end)) continue;
        tl_buf_t list;
        tl_buf_init(&list);
        int shown = 0;
        for (int j = 0; j < p->n; j++) {
            const item_t *b = &p->items[j];
            tl_live_range_t rb = p->live.range[b->b->id];
            if (a == b || b->b->addr < 0 || rb.start < 0 || rb.start > ra.end ||
                ra.start > rb.end ||
                !overlap(a->b->addr, a->b->addr + a->size, b->b->addr, b->b->addr + b->size))
                continue;
            if (shown++ < 4) tl_buf_printf(&list, "%s'%s'", shown > 1 ? ", " : "", b->b->name);
        }
        if (shown > 4) tl_buf_printf(&list, " and %d more", shown - 4);
        if (shown)
            tl_diag_warning(p->ctx->diag, a->b->loc,
                            "%s: only upstream's intervals (first to last access) fit: '%s', "
                            "which may hold a value that a later iteration of a loop or the code "
                            "after it reads, shares bytes with %s in that loop, as upstream's "
                            "build places them; such a value is overwritten",
                            tl_scope_name(p->scope), a->b->name, tl_buf_cstr(&list));
        tl_buf_free(&list);
    }
}

static tl_status_t plan_scope(plan_t *p, tl_scope_t s)
{
    tl_kernel_t *k = p->k;
    p->scope = s;
    p->cap = tl_memplan_limit(k, s);
    p->claim = tl_memplan_capacity(k, s);
    p->align = tl_memplan_align(s);
    p->n = 0;
    for (int i = 0; i < k->buffers.len; i++) {
        tl_buffer_t *b = k->buffers.items[i];
        if (b->scope != s) continue;
        if (!b->addr_pinned) b->addr = -1;
        if (b->view_of) continue; // placed with its source, below
        tl_live_range_t r = p->live.range[b->id];
        p->items[p->n++] = (item_t){b,
                                    TL_ALIGN_UP(tl_buffer_planned_bytes(k, b), p->align),
                                    r.start,
                                    r.end,
                                    p->pipes[b->id],
                                    false};
    }
    if (!p->n) return TL_OK;
    tl_status_t st = check_pins(p);
    if (st != TL_OK) return st;
    if (!k->config.memory_planning) {
        if ((st = bump(p)) == TL_OK) warn_claim(p);
        return st;
    }
    int64_t *ranges = malloc(sizeof *ranges * 2 * (size_t)p->n);
    if (!ranges) return tl_diag_fail(p->ctx->diag, TL_ERR_NOMEM, "out of memory");
    const char *how;
    int64_t one_pipe;
    item_t *failed = fit(p, ranges, &one_pipe, &how);
    if (failed) {
        tl_live_t up;
        if ((st = tl_live_compute_upstream(k, &up)) != TL_OK) {
            free(ranges);
            return tl_diag_fail(p->ctx->diag, st, "out of memory");
        }
        // Upstream's intervals: what its build accepts, tilec accepts (with a
        // warning naming the carried values whose bytes another buffer takes).
        set_ranges(p, &up);
        if (!(failed = fit(p, ranges, &one_pipe, &how))) {
            warn_carried(p);
        } else {
            set_ranges(p, &p->live); // report the plan that keeps carried values
            failed = fit(p, ranges, &one_pipe, &how);
        }
        tl_live_free(&up);
    }
    if (failed)
        st = over_capacity(p, failed);
    else
        note_plan(p, one_pipe, how);
    free(ranges);
    return st;
}

// T.reinterpretcast's views at their sources' addresses (pass/views.c).
static void place_views(tl_kernel_t *k)
{
    for (int i = 0; i < k->buffers.len; i++) {
        tl_buffer_t *b = k->buffers.items[i];
        if (b->view_of) b->addr = b->view_of->addr < 0 ? -1 : b->view_of->addr + b->view_offset;
    }
}

static tl_status_t memplan(tl_kernel_t *k, tl_pass_ctx_t *ctx, bool soft)
{
    plan_t p = {.k = k, .ctx = ctx, .soft = soft};
    k->cube_fractal_rows = ctx->pipeline == TL_PIPELINE_PTO;
    tl_buf_init(&p.note);
    k->plan_note = NULL;
    p.items = malloc(sizeof *p.items * ((size_t)k->buffers.len + 1));
    p.pipes = calloc((size_t)k->buffers.len + 1, sizeof *p.pipes);
    tl_status_t st = p.items && p.pipes ? tl_live_compute(k, &p.live) : TL_ERR_NOMEM;
    if (st != TL_OK) {
        free(p.items);
        free(p.pipes);
        return tl_diag_fail(ctx->diag, st, "out of memory");
    }
    collect_pipes(&(pipes_t){p.pipes, NULL}, k->body);
    for (int i = 0; i < k->buffers.len; i++) { // a view's pipes touch its source's bytes
        const tl_buffer_t *b = k->buffers.items[i];
        if (b->view_of) p.pipes[b->view_of->id] |= p.pipes[i];
    }
    for (size_t i = 0; i < TL_ARRAY_LEN(planned) && st == TL_OK; i++)
        st = plan_scope(&p, planned[i]);
    if (st == TL_OK) place_views(k);
    if (st == TL_OK && p.note.len) k->plan_note = tl_arena_strdup(k->arena, tl_buf_cstr(&p.note));
    tl_buf_free(&p.note);
    tl_live_free(&p.live);
    free(p.items);
    free(p.pipes);
    return st;
}

tl_status_t tl_pass_memplan(tl_kernel_t *k, tl_pass_ctx_t *ctx)
{
    return memplan(k, ctx, false);
}

// The reference executor checks values, not capacities (it has its own limits,
// which callers may raise): a plan that does not fit is a warning and the
// executor then places the buffers itself.
tl_status_t tl_pass_memplan_ref(tl_kernel_t *k, tl_pass_ctx_t *ctx)
{
    if (!k->config.memory_planning) return TL_OK;
    tl_status_t st = memplan(k, ctx, true);
    if (st != TL_ERR_COMPILE) return st;
    tl_diag_note(ctx->diag, k->loc, "'%s' runs with the executor's own buffer placement", k->name);
    for (int i = 0; i < k->buffers.len; i++) {
        tl_buffer_t *b = k->buffers.items[i];
        if (!b->addr_pinned && b->scope != TL_SCOPE_GM && b->scope != TL_SCOPE_VAR) b->addr = -1;
    }
    return TL_OK;
}

tl_status_t tl_pass_memplan_cpu(tl_kernel_t *k, tl_pass_ctx_t *ctx)
{
    return tl_overrun_possible(k) ? tl_pass_memplan_ref(k, ctx) : TL_OK;
}
