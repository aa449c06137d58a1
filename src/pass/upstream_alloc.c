// upstream_alloc: what upstream's build allocates for the on-chip buffers of
// T.Pipelined loops, and a warning when that would not fit where tilec's own
// plan does. The IR is not changed: tilec runs its own pipelining (pipelined.c)
// and its own plan (memplan.c) whatever this pass finds.
//
// requires: physical scopes; T.Parallel lowered and workspaces inserted; the
//           T.Pipelined loops not yet rewritten (runs right before pipelined)
// ensures:  nothing changes; a warning at a loop when, with memory planning off
//           (TL_ASCEND_MEMORY_PLANNING, upstream's default), the versions that
//           upstream's passes give that loop's buffers take a scope past the
//           bytes upstream plans in (memplan's capacity: UB 196352 B, L1
//           524032 B, L0A/L0B 65536 B, L0C 131072 B) while the buffers without
//           those versions fit.
//
// Upstream's passes, as read in tilelang-ascend (src/transform, July 2026
// snapshot; tilelang/engine/phase.py of 02ea0ec runs them in this order):
// PlanAndUpdateBufferAllocationLocation moves each buffer's allocation to the
// innermost scope holding all its uses, so a loop's own buffers are the ones
// used only inside it. Then, per T.Pipelined loop, exactly one of:
// - CrossCorePipeline, when the body holds cube and vector statements (a
//   statement's core is that of the first on-chip buffer it names; one naming
//   none stays with the previous statement's core) and copies something to GM:
//   the body splits into runs of one core's statements; a loop's own buffer
//   that two runs use, and that some run reads before writing all of the read
//   bytes in that run (upstream's CheckExposedRead: flat element ranges,
//   provable only when constant), gets num_stages versions (ExtendAllBuffers).
//   The num_stages annotation is dropped, so the intra-core passes skip the loop.
// - PipelinePlanning + InjectSoftwarePipeline otherwise: a top-level statement
//   that copies GM into UB or L1 and whose buffer a later statement reads is
//   stage 0, ordered right after its last reader; every other statement is
//   stage num_stages (num_stages - 1, the copies moved first, when all copies
//   come after all other statements). A loop's own buffer gets use - def + 1
//   versions (def: the first stage writing it, use: the last reading it), one
//   less unless a writer comes before a reader in order and in stage
//   (ComputeBufferVersions).
// With memory planning off, upstream's AscendMemoryPlanning places every
// buffer in its own range, one after another, and does not check the total
// (check_overflow is false): past the UB the kernel runs past its buffer on
// the device. Upstream's vector temporaries (InjectTmpBuffer) are not counted:
// the bytes named are a lower bound. With memory planning on, upstream plans by
// liveness and stops its own build when that fails; this pass says nothing then.
#include "pass/pass.h"

#include "ir/access.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_ITEMS = 256 };

static const tl_scope_t planned[] = {TL_SCOPE_L1, TL_SCOPE_L0A, TL_SCOPE_L0B, TL_SCOPE_L0C,
                                     TL_SCOPE_UB};

static const tl_buffer_t *root(const tl_buffer_t *b)
{
    while (b->view_of) b = b->view_of;
    return b;
}

static bool on_chip(const tl_buffer_t *b)
{
    return b->scope != TL_SCOPE_GM && b->scope != TL_SCOPE_VAR;
}

typedef struct {
    tl_kernel_t *k;
    tl_pass_ctx_t *ctx;
    int *versions;     // upstream's versions per buffer id (1: none)
    unsigned char *in; // per buffer id: 1 used inside the loop, 2 outside it
    tl_stmt_t *loop;
    const tl_stmt_t *items[MAX_ITEMS];
    int n;
} ua_t;

// --- uses -------------------------------------------------------------------------

typedef struct {
    unsigned char *mark;
    unsigned char bit;
} mark_t;

static void mark_fn(void *arg, const tl_access_t *a)
{
    mark_t *m = arg;
    m->mark[root(a->buf)->id] |= m->bit;
}

// A buffer of the loop: on chip and used only inside it (upstream allocates
// it in the loop's body).
static bool own(const ua_t *u, const tl_buffer_t *b)
{
    return on_chip(b) && !b->view_of && u->in[b->id] == 1;
}

static void flatten(ua_t *u, const tl_stmt_t *s)
{
    if (!s) return;
    if (s->kind == TL_ST_SEQ) {
        for (int i = 0; i < s->seq.n; i++) flatten(u, s->seq.items[i]);
        return;
    }
    if (u->n < MAX_ITEMS) u->items[u->n++] = s;
}

// --- flat ranges (upstream's tvm_access_ptr offset and extent), in bytes ------------

typedef struct {
    bool known; // both constant
    int64_t lo, hi;
} range_t;

static range_t range_of(const tl_access_t *a)
{
    const tl_buffer_t *b = a->buf;
    int64_t esize = tl_dtype_size(b->dtype), off = 0, ext = 1, stride = 1;
    range_t r = {false, 0, 0};
    if (a->region) {
        for (int d = a->region->ndim - 1; d >= 0; d--) {
            int64_t st, ex;
            if (!tl_ir_is_const_int(a->region->start[d], &st) ||
                !tl_ir_is_const_int(a->region->extent[d], &ex))
                return r;
            off += st * stride;
            ext *= ex;
            stride *= b->shape[d];
        }
    } else {
        for (int d = a->n - 1; d >= 0; d--) {
            int64_t ix;
            if (!tl_ir_is_const_int(a->idx[d], &ix)) return r;
            off += ix * stride;
            stride *= d < b->ndim ? b->shape[d] : 1;
        }
    }
    int64_t base = 0;
    for (const tl_buffer_t *v = b; v->view_of; v = v->view_of) base += v->view_offset;
    return (range_t){true, base + off * esize, base + (off + ext) * esize};
}

static bool overlaps(range_t a, range_t b)
{
    return !a.known || !b.known || (a.lo < b.hi && b.lo < a.hi);
}

static bool contains(range_t a, range_t b)
{
    return a.known && b.known && a.lo <= b.lo && b.hi <= a.hi;
}

// --- CrossCorePipeline --------------------------------------------------------------

typedef struct {
    const tl_buffer_t *b;
    range_t target;
    bool reads, kills;
} probe_t;

static void probe_fn(void *arg, const tl_access_t *a)
{
    probe_t *q = arg;
    if (root(a->buf) != q->b) return;
    range_t r = range_of(a);
    if ((a->mode & TL_ACCESS_READ) && overlaps(r, q->target)) q->reads = true;
    if ((a->mode & TL_ACCESS_WRITE) && contains(r, q->target)) q->kills = true;
}

// Whether s reads the target bytes before something in it (or before it:
// `covered`) writes all of them; *kill: whether s certainly writes them all.
static bool exposed(const tl_stmt_t *s, const tl_buffer_t *b, range_t target, bool covered,
                    bool *kill)
{
    *kill = false;
    if (!s) return false;
    switch (s->kind) {
    case TL_ST_SEQ: {
        bool any = false, killed = false;
        for (int i = 0; i < s->seq.n; i++) {
            bool k;
            any |= exposed(s->seq.items[i], b, target, covered || killed, &k);
            killed |= k;
        }
        *kill = killed;
        return any;
    }
    case TL_ST_FOR: return exposed(s->for_.body, b, target, covered, kill);
    case TL_ST_WHILE: return exposed(s->while_.body, b, target, covered, kill);
    case TL_ST_SCOPE: return exposed(s->scope.body, b, target, covered, kill);
    case TL_ST_IF: {
        bool tk, ek = false;
        bool e = exposed(s->if_.then_, b, target, covered, &tk);
        if (s->if_.else_) e |= exposed(s->if_.else_, b, target, covered, &ek);
        *kill = s->if_.else_ && tk && ek;
        return e;
    }
    default: {
        probe_t q = {b, target, false, false};
        tl_access_stmt(s, probe_fn, &q);
        *kill = q.kills;
        return q.reads && !covered;
    }
    }
}

typedef struct {
    const tl_buffer_t *b;
    const tl_stmt_t *const *items;
    int first, last; // the run
    bool found;
} reads_t;

static void read_fn(void *arg, const tl_access_t *a)
{
    reads_t *w = arg;
    if (w->found || root(a->buf) != w->b || !(a->mode & TL_ACCESS_READ)) return;
    range_t target = range_of(a);
    bool covered = false;
    for (int i = w->first; i <= w->last && !w->found; i++) {
        bool k;
        w->found = exposed(w->items[i], w->b, target, covered, &k);
        covered |= k;
    }
}

// Whether some read of b in the run of items first..last is exposed.
static bool run_exposes(const ua_t *u, const tl_buffer_t *b, int first, int last)
{
    reads_t w = {b, u->items, first, last, false};
    for (int i = first; i <= last && !w.found; i++) tl_access_tree(u->items[i], NULL, read_fn, &w);
    return w.found;
}

static void side_fn(void *arg, const tl_access_t *a)
{
    unsigned *side = arg;
    if (*side || !on_chip(a->buf)) return;
    *side = a->buf->scope == TL_SCOPE_UB ? TL_SIDE_VEC : TL_SIDE_CUBE;
}

static void gm_write_fn(void *arg, const tl_access_t *a)
{
    if (a->buf->scope == TL_SCOPE_GM && (a->mode & TL_ACCESS_WRITE)) *(bool *)arg = true;
}

typedef struct {
    const tl_buffer_t *b;
    bool hit;
} uses_t;

static void uses_fn(void *arg, const tl_access_t *a)
{
    uses_t *w = arg;
    if (root(a->buf) == w->b) w->hit = true;
}

static bool item_uses(const tl_stmt_t *s, const tl_buffer_t *b)
{
    uses_t w = {b, false};
    tl_access_tree(s, NULL, uses_fn, &w);
    return w.hit;
}

// The versions CrossCorePipeline gives the loop's buffers; false when the
// loop is not one it rewrites.
static bool cross_core(ua_t *u, int s)
{
    unsigned side[MAX_ITEMS];
    unsigned seen = 0;
    bool gm_write = false;
    for (int i = 0; i < u->n; i++) {
        side[i] = 0;
        tl_access_tree(u->items[i], NULL, side_fn, &side[i]);
        if (!side[i] && i) side[i] = side[i - 1];
        seen |= side[i];
        tl_access_tree(u->items[i], NULL, gm_write_fn, &gm_write);
    }
    if (seen != TL_SIDE_BOTH || !gm_write) return false;
    for (int i = u->n - 2; i >= 0; i--)
        if (!side[i]) side[i] = side[i + 1];
    int first[MAX_ITEMS], last[MAX_ITEMS], nruns = 0;
    for (int i = 0; i < u->n; i++) {
        if (!i || side[i] != side[i - 1]) first[nruns++] = i;
        last[nruns - 1] = i;
    }
    for (int id = 0; id < u->k->buffers.len; id++) {
        const tl_buffer_t *b = u->k->buffers.items[id];
        if (!own(u, b)) continue;
        int used = 0;
        bool exp = false;
        for (int r = 0; r < nruns; r++) {
            bool in_run = false;
            for (int i = first[r]; i <= last[r] && !in_run; i++) in_run = item_uses(u->items[i], b);
            if (!in_run) continue;
            used++;
            exp = exp || run_exposes(u, b, first[r], last[r]);
        }
        if (used >= 2 && exp) u->versions[id] = s;
    }
    return true;
}

// --- PipelinePlanning + InjectSoftwarePipeline --------------------------------------

// Whether s holds a copy from GM into UB or L1 (upstream's global copy pattern).
static bool has_load(const tl_stmt_t *s)
{
    if (!s) return false;
    switch (s->kind) {
    case TL_ST_SEQ:
        for (int i = 0; i < s->seq.n; i++)
            if (has_load(s->seq.items[i])) return true;
        return false;
    case TL_ST_FOR: return has_load(s->for_.body);
    case TL_ST_WHILE: return has_load(s->while_.body);
    case TL_ST_IF: return has_load(s->if_.then_) || has_load(s->if_.else_);
    case TL_ST_SCOPE: return has_load(s->scope.body);
    case TL_ST_OP: {
        if (s->op.code != TL_OP_COPY || s->op.nargs < 2) return false;
        const tl_buffer_t *src = s->op.args[0].region.buf, *dst = s->op.args[1].region.buf;
        return src && dst && src->scope == TL_SCOPE_GM &&
               (dst->scope == TL_SCOPE_UB || dst->scope == TL_SCOPE_L1);
    }
    default: return false;
    }
}

typedef struct {
    const tl_buffer_t *b;
    unsigned mode;
} modes_t;

static void mode_fn(void *arg, const tl_access_t *a)
{
    modes_t *w = arg;
    if (root(a->buf) == w->b) w->mode |= a->mode;
}

static unsigned item_mode(const tl_stmt_t *s, const tl_buffer_t *b)
{
    modes_t w = {b, 0};
    tl_access_tree(s, NULL, mode_fn, &w);
    return w.mode;
}

typedef struct {
    const ua_t *u;
    int i;
    int *last_use;
} writes_t;

// For the copy item w->i: the last later item reading a buffer it writes.
static void copy_write_fn(void *arg, const tl_access_t *a)
{
    writes_t *w = arg;
    if (!(a->mode & TL_ACCESS_WRITE)) return;
    for (int j = w->i + 1; j < w->u->n; j++)
        if ((item_mode(w->u->items[j], root(a->buf)) & TL_ACCESS_READ) && j > *w->last_use)
            *w->last_use = j;
}

static void intra_core(ua_t *u, int s)
{
    int n = u->n;
    bool copy[MAX_ITEMS];
    int last_use[MAX_ITEMS], order[MAX_ITEMS], stage[MAX_ITEMS];
    for (int i = 0; i < n; i++) {
        copy[i] = has_load(u->items[i]);
        last_use[i] = -1;
        order[i] = stage[i] = -1;
        if (copy[i]) {
            writes_t w = {u, i, &last_use[i]};
            tl_access_tree(u->items[i], NULL, copy_write_fn, &w);
        }
    }
    int next = 0;
    for (int i = 0; i < n; i++) {
        if (copy[i] && last_use[i] != -1) continue;
        order[i] = next++;
        stage[i] = s;
        for (int j = 0; j < n; j++)
            if (copy[j] && last_use[j] == i) {
                order[j] = next++;
                stage[j] = 0;
            }
    }
    for (int i = 0; i < n; i++) // copies whose reader is a copy: not modelled
        if (order[i] < 0) return;
    int ncopy = 0, copy_min = n, other_max = 0;
    for (int i = 0; i < n; i++) {
        if (copy[i]) {
            ncopy++;
            if (order[i] < copy_min) copy_min = order[i];
        } else if (order[i] > other_max) {
            other_max = order[i];
        }
    }
    if (ncopy && copy_min > other_max && s >= 2)
        for (int i = 0; i < n; i++) {
            order[i] = (order[i] + ncopy) % n;
            if (!copy[i]) stage[i]--;
        }
    for (int id = 0; id < u->k->buffers.len; id++) {
        const tl_buffer_t *b = u->k->buffers.items[id];
        if (!own(u, b)) continue;
        int def = -1, use = -1;
        unsigned mode[MAX_ITEMS];
        for (int i = 0; i < n; i++) {
            mode[i] = item_mode(u->items[i], b);
            if ((mode[i] & TL_ACCESS_WRITE) && (def < 0 || stage[i] < def)) def = stage[i];
            if ((mode[i] & TL_ACCESS_READ) && stage[i] > use) use = stage[i];
        }
        if (def < 0) continue;
        int v = use - def + 1;
        if (v >= 2) {
            bool need = false;
            for (int w = 0; w < n && !need; w++)
                for (int r = 0; r < n && !need && (mode[w] & TL_ACCESS_WRITE); r++)
                    need = (mode[r] & TL_ACCESS_READ) && order[w] < order[r] && stage[w] < stage[r];
            if (!need) v--;
        }
        if (v > 1) u->versions[id] = v;
    }
}

// --- the footprint ------------------------------------------------------------------

static int64_t linear_bytes(const ua_t *u, tl_scope_t sc, bool versioned)
{
    int64_t total = 0, align = tl_memplan_align(sc);
    for (int id = 0; id < u->k->buffers.len; id++) {
        const tl_buffer_t *b = u->k->buffers.items[id];
        if (b->scope != sc || b->view_of) continue;
        int64_t bytes = tl_buffer_planned_bytes(u->k, b) * (versioned ? u->versions[id] : 1);
        total += TL_ALIGN_UP(bytes, align);
    }
    return total;
}

static void check_loop(ua_t *u, tl_stmt_t *l)
{
    tl_kernel_t *k = u->k;
    int s = l->for_.num_stages;
    if (s < 1) return;
    memset(u->in, 0, (size_t)k->buffers.len + 1);
    tl_access_tree(l->for_.body, NULL, mark_fn, &(mark_t){u->in, 1});
    tl_access_tree(k->body, l, mark_fn, &(mark_t){u->in, 2});
    for (int id = 0; id < k->buffers.len; id++) u->versions[id] = 1;
    u->loop = l;
    u->n = 0;
    flatten(u, l->for_.body);
    const char *how = "cube and vector statements: CrossCorePipeline";
    if (!cross_core(u, s)) {
        intra_core(u, s);
        how = "PipelinePlanning and InjectSoftwarePipeline";
    }
    for (size_t i = 0; i < TL_ARRAY_LEN(planned); i++) {
        tl_scope_t sc = planned[i];
        int64_t cap = tl_memplan_capacity(k, sc), plain = linear_bytes(u, sc, false),
                up = linear_bytes(u, sc, true);
        if (up <= cap || plain > cap) continue;
        tl_buf_t list;
        tl_buf_init(&list);
        for (int id = 0; id < k->buffers.len; id++) {
            const tl_buffer_t *b = k->buffers.items[id];
            if (b->scope != sc || u->versions[id] < 2) continue;
            int64_t bytes = tl_buffer_planned_bytes(k, b);
            tl_buf_printf(&list, "%s'%s' (%" PRId64 " B x %d)", list.len ? ", " : "", b->name,
                          bytes, u->versions[id]);
        }
        tl_diag_warning(u->ctx->diag, l->loc,
                        "upstream's build of this T.Pipelined loop (num_stages=%d; %s) keeps "
                        "versions of %s: with memory planning off its %s buffers then take %" PRId64
                        " B, past the %" PRId64 " B of %s it plans in (%" PRId64
                        " B without those versions, as tilec places them); on the device the "
                        "kernel would run past its %s buffer",
                        s, how, tl_buf_cstr(&list), tl_scope_name(sc), up, cap, tl_scope_name(sc),
                        plain, tl_scope_name(sc));
        tl_buf_free(&list);
    }
}

static void visit(ua_t *u, tl_stmt_t *s)
{
    if (!s) return;
    switch (s->kind) {
    case TL_ST_SEQ:
        for (int i = 0; i < s->seq.n; i++) visit(u, s->seq.items[i]);
        break;
    case TL_ST_FOR:
        if (s->for_.loop == TL_LOOP_PIPELINED) check_loop(u, s);
        visit(u, s->for_.body);
        break;
    case TL_ST_WHILE: visit(u, s->while_.body); break;
    case TL_ST_IF:
        visit(u, s->if_.then_);
        visit(u, s->if_.else_);
        break;
    case TL_ST_SCOPE: visit(u, s->scope.body); break;
    default: break;
    }
}

tl_status_t tl_pass_upstream_alloc(tl_kernel_t *k, tl_pass_ctx_t *ctx)
{
    if (k->config.memory_planning) return TL_OK;
    ua_t u = {.k = k, .ctx = ctx};
    u.versions = malloc(sizeof *u.versions * ((size_t)k->buffers.len + 1));
    u.in = malloc((size_t)k->buffers.len + 1);
    if (!u.versions || !u.in) {
        free(u.versions);
        free(u.in);
        return tl_diag_fail(ctx->diag, TL_ERR_NOMEM, "out of memory");
    }
    visit(&u, k->body);
    free(u.versions);
    free(u.in);
    return TL_OK;
}
