// Runs of statements for inline loops (cgen_fuse.c): which statements join a
// group, which are set aside to run after its loop, and the spans written in
// place; the entry point tl_cgen_fuse.
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "cpu/cgen_fuse_int.h"
#include "ir/access.h"

// --- entry points ----------------------------------------------------------------------

// Whether leaf s, pushed on `mask`, runs as a tile op on exactly the lanes of *lanes.
bool fuse_op_lanes(tl_cgen_t *g, const tl_stmt_t *s, unsigned mask, tl_side_t scope,
                   unsigned *lanes)
{
    if (s->kind != TL_ST_OP) return false;
    tl_side_t side = tl_side_get(g->sides, s);
    if (side != TL_SIDE_VEC || (scope != TL_SIDE_NONE && scope != TL_SIDE_VEC)) return false;
    if (!g->dev) {
        *lanes = mask;
        return g->lane == 1 && mask == 2u;
    }
    mask &= tl_side_lanes(g->lanes, side);
    if (!mask || (mask & 1u) || (tl_side_flags(g->sides, s) & TL_SIDE_ONCE)) return false;
    *lanes = mask;
    return true;
}

// --- runs of statements -------------------------------------------------------------------
//
// A group is built over a window of the statements that follow (nested
// sequences opened, at most MAX_UNITS): a statement joins the group or, when
// it cannot, is set aside to run after the group's loop; the window ends at a
// statement that can be neither (a compound statement, a let, a cross-core
// sync, a print) and is cut back to its last joined op, in whole items.
// Setting a statement aside moves it past the group's ops that come after it
// in the program, so an op joins only when it commutes with every statement
// set aside before it: neither writes memory the other reads or writes. A
// statement set aside is a tile op, a scalar store or an intra-core sync
// (nothing on a CPU); its memory is every UB buffer it touches, taken whole
// (the group's ops touch nothing but UB spans). Statements are set aside only
// when the run is emitted for one lane (expert mode, or one lane of developer
// mode, whose lanes otherwise go statement by statement). Those set aside are
// emitted in their order after the loop, where they may form groups of their
// own; the stores of the group's spans that nothing reads later are left out
// (tl_cgen_live).

typedef struct {
    int64_t lo, hi;
    bool write;
} foot_t;

typedef struct {
    foot_t f[MAX_FEET];
    int n;
    const tl_cgen_t *g;
    bool full;
} feet_t;

static void on_foot(void *arg, const tl_access_t *a)
{
    feet_t *ft = arg;
    const tl_buffer_t *b = a->buf;
    if (b->scope != TL_SCOPE_UB) return;
    if (ft->n == MAX_FEET) {
        ft->full = true;
        return;
    }
    int64_t base = ft->g->addr[b->id];
    foot_t f = {INT64_MIN / 2, INT64_MAX / 2, true}; // not placed: everything
    if (base >= 0) f = (foot_t){base, base + tl_buffer_bytes(b), (a->mode & TL_ACCESS_WRITE) != 0};
    ft->f[ft->n++] = f;
}

// Sets statement s aside (adding its memory to *ft) when it may be.
static bool set_aside(const tl_stmt_t *s, feet_t *ft)
{
    switch (s->kind) {
    case TL_ST_SYNC:
        return s->sync.kind == TL_SYNC_SET_FLAG || s->sync.kind == TL_SYNC_WAIT_FLAG ||
               s->sync.kind == TL_SYNC_PIPE_BARRIER;
    case TL_ST_OP:
    case TL_ST_STORE: {
        int n = ft->n;
        tl_access_stmt(s, on_foot, ft);
        if (!ft->full) return true;
        ft->n = n;
        ft->full = false;
        return false;
    }
    default: return false;
    }
}

// Whether candidate c touches memory that a statement set aside writes, or
// writes memory such a statement touches.
static bool crosses(const feet_t *ft, const cand_t *c)
{
    for (int i = 0; i < ft->n; i++)
        for (int j = 0; j < c->nsp; j++)
            if (ft->f[i].lo < c->sp[j].hi && c->sp[j].lo < ft->f[i].hi &&
                (ft->f[i].write || c->sp[j].written))
                return true;
    return false;
}

// Builds the group of units[0..n) on lane g->lane (joined[k]: unit k joined,
// else it is set aside); returns how many units the window covers (0: the
// first unit does not start a group).
static int classify(tl_cgen_t *g, const tl_stmt_t *const *units, int n, unsigned mask,
                    tl_side_t scope, unsigned lanes, group_t *gr, bool *joined)
{
    feet_t *ft = calloc(1, sizeof *ft);
    memset(gr, 0, sizeof *gr);
    if (!ft) return 0;
    ft->g = g;
    bool aside = (lanes & (lanes - 1)) == 0;
    int k = 0;
    for (; k < n; k++) {
        unsigned lk;
        cand_t c;
        memset(&c, 0, sizeof c);
        joined[k] = fuse_op_lanes(g, units[k], mask, scope, &lk) && lk == lanes &&
                    fuse_analyse(g, units[k], &c) && !crosses(ft, &c) &&
                    fuse_join(gr, units[k], &c);
        fuse_cand_free(&c);
        if (!joined[k] && (k == 0 || !aside || !set_aside(units[k], ft))) break;
    }
    free(ft);
    return k;
}

// The leaves of items (nested sequences opened), each with its item's index.
static int flatten(const tl_stmt_t *const *items, int n, int owner, const tl_stmt_t **leaf,
                   int *own, int at)
{
    for (int i = 0; i < n && at <= MAX_UNITS; i++) {
        const tl_stmt_t *s = items[i];
        if (s->kind == TL_ST_SEQ)
            at = flatten((const tl_stmt_t *const *)s->seq.items, s->seq.n, owner < 0 ? i : owner,
                         leaf, own, at);
        else
            leaf[at] = s, own[at++] = owner < 0 ? i : owner;
    }
    return at;
}

// --- UB buffers written in place ----------------------------------------------------------
//
// A span of the group that is a whole UB buffer, written by the group before
// any op of it reads the span, whose first reader among the statements set
// aside is a copy of the whole buffer to GM on the group's lane
// (tl_cgen_copy_out), with no statement set aside before that copy touching
// the buffer's bytes or the copy's tensor, and nothing reading the buffer
// after the copy (tl_cgen_live): the loop stores the span through W<id>
// (tl_cgen_copy_out_target), which points at the copy's GM region when the
// copy's checks pass and the region is one unclipped run, and then the copy
// does not run (tl_cgen_out_t). The tensor gets the same bytes, earlier,
// and nothing looks at it in between; the buffer keeps bytes nobody reads.
// Into a large tensor the vector loop streams (as the copy would), then
// fences.

typedef struct {
    const tl_cgen_t *g;
    const tl_buffer_t *gm; // touches this tensor, or (NULL) UB bytes [lo, hi)
    int64_t lo, hi;
    bool hit;
} touch_t;

static void on_touch(void *arg, const tl_access_t *a)
{
    touch_t *t = arg;
    if (t->gm) {
        t->hit |= a->buf == t->gm;
        return;
    }
    if (a->buf->scope != TL_SCOPE_UB) return;
    int64_t at = t->g->addr[a->buf->id];
    t->hit |= at < 0 || (at < t->hi && t->lo < at + tl_buffer_bytes(a->buf));
}

static bool touches(const tl_cgen_t *g, const tl_stmt_t *s, const tl_buffer_t *gm, int64_t lo,
                    int64_t hi)
{
    touch_t t = {g, gm, lo, hi, false};
    tl_access_stmt(s, on_touch, &t);
    return t.hit;
}

// The index in aside[] of the copy that span sp may be written in place for, or -1.
static int out_copy(tl_cgen_t *g, const tl_stmt_t *const *aside, int naside, const span_t *sp,
                    unsigned mask, tl_side_t scope, unsigned lanes)
{
    const tl_buffer_t *b = sp->buf;
    int64_t base = g->addr[b->id];
    if (!sp->written || sp->red || sp->vec || sp->early || sp->lo != base ||
        sp->hi != base + tl_buffer_bytes(b))
        return -1;
    for (int k = 0; k < naside; k++) {
        if (!touches(g, aside[k], NULL, sp->lo, sp->hi)) continue;
        unsigned lk;
        if (!fuse_op_lanes(g, aside[k], mask, scope, &lk) || lk != lanes ||
            !tl_cgen_copy_out(g, aside[k], b))
            return -1;
        const tl_buffer_t *t = aside[k]->op.args[1].region.buf;
        for (int i = 0; i < k; i++)
            if (touches(g, aside[i], t, 0, 0)) return -1;
        return tl_cgen_live(g, aside + k + 1, naside - k - 1, sp->lo, sp->hi) ? -1 : k;
    }
    return -1;
}

// Emits the group of units[0..end) on every lane of `lanes`, its stores of
// spans nothing reads later left out, then the statements set aside.
static void emit_run(tl_cgen_t *g, const tl_stmt_t *const *units, int end, unsigned mask,
                     tl_side_t scope, unsigned lanes, const bool *joined)
{
    const tl_stmt_t *aside[MAX_UNITS];
    int naside = 0, nouts = g->nouts;
    for (int k = 0; k < end; k++)
        if (!joined[k]) aside[naside++] = units[k];
    group_t gr;
    bool again[MAX_UNITS + 1];
    int save = g->lane;
    for (int l = 0; l < TL_CGEN_LANES; l++) {
        if (!(lanes >> l & 1)) continue;
        g->lane = l;
        classify(g, units, end, mask, scope, lanes, &gr, again);
        for (int i = 0; i < gr.nsp; i++) {
            span_t *sp = &gr.sp[i];
            sp->dead = sp->written && !sp->red && !tl_cgen_live(g, aside, naside, sp->lo, sp->hi);
            int k = naside ? out_copy(g, aside, naside, sp, mask, scope, lanes) : -1;
            if (k < 0 || g->nouts == TL_CGEN_OUTS) continue;
            int id = g->tmp++;
            tl_cgen_copy_out_target(g, aside[k], id, 16 * tl_dtype_size(sp->buf->dtype));
            sp->out = id + 1;
            g->outs[g->nouts++] = (tl_cgen_out_t){aside[k], l, id};
        }
        fuse_emit(g, &gr);
        fuse_group_free(&gr);
    }
    g->lane = save;
    if (naside) tl_cgen_seq(g, aside, naside, mask, scope);
    g->nouts = nouts;
}

typedef struct {
    const tl_buffer_t *b;
    bool hit;
} writes_t;

static void on_write(void *arg, const tl_access_t *a)
{
    writes_t *w = arg;
    w->hit |= a->buf == w->b && (a->mode & TL_ACCESS_WRITE);
}

// Whether s is a copy from UB to GM of a buffer that a joined unit of
// units[0..end) writes.
static bool copies_out(const tl_stmt_t *const *units, int end, const bool *joined,
                       const tl_stmt_t *s)
{
    if (s->kind != TL_ST_OP || s->op.code != TL_OP_COPY || s->op.nargs != 2 ||
        s->op.args[0].kind != TL_ARG_REGION || s->op.args[1].kind != TL_ARG_REGION ||
        s->op.args[0].region.buf->scope != TL_SCOPE_UB ||
        s->op.args[1].region.buf->scope != TL_SCOPE_GM)
        return false;
    writes_t w = {s->op.args[0].region.buf, false};
    for (int k = 0; k < end && !w.hit; k++)
        if (joined[k]) tl_access_stmt(units[k], on_write, &w);
    return w.hit;
}

int tl_cgen_fuse(tl_cgen_t *g, const tl_stmt_t *const *items, int n, unsigned mask, tl_side_t scope)
{
    if (g->st || !n) return 0;
    // (on the heap: the code generator recurses through here once per level
    // of nested statements)
    struct {
        const tl_stmt_t *leaf[MAX_UNITS + 1];
        int own[MAX_UNITS + 1];
        bool joined[MAX_UNITS + 1], other[MAX_UNITS + 1];
        group_t gr;
    } *w = malloc(sizeof *w);
    if (!w) {
        g->st = tl_diag_fail(g->d, TL_ERR_NOMEM, "out of memory");
        return 0;
    }
    const tl_stmt_t **leaf = w->leaf;
    int *own = w->own;
    bool *joined = w->joined, *other = w->other;
    // up to MAX_UNITS leaves, and the one after them (to see where an item ends)
    int total = flatten(items, TL_MIN(n, MAX_UNITS + 1), -1, leaf, own, 0);
    unsigned lanes = 0;
    if (!total || !fuse_op_lanes(g, leaf[0], mask, scope, &lanes)) {
        free(w);
        return fuse_rsum(g, items[0], mask, scope);
    }
    int save = g->lane, used = TL_MIN(total, MAX_UNITS);
    // the lanes see the same statements; take the window every lane agrees on
    bool first = true;
    for (int l = 0; l < TL_CGEN_LANES; l++) {
        if (!(lanes >> l & 1)) continue;
        g->lane = l;
        int k = classify(g, leaf, used, mask, scope, lanes, &w->gr, first ? joined : other);
        fuse_group_free(&w->gr);
        for (int i = 0; !first && i < k && i < used; i++)
            if (other[i] != joined[i]) k = i;
        used = TL_MIN(used, k);
        first = false;
    }
    g->lane = save;
    // up to the last joined op, in whole items
    int end = used;
    while (end > 0 && !joined[end - 1]) end--;
    // and the statements set aside after it up to the first copies of
    // buffers it writes to GM (the loop may write those in place, see emit_run)
    int ops_end = end;
    for (int k = ops_end; k < used; k++) {
        bool out = copies_out(leaf, ops_end, joined, leaf[k]);
        if (out) end = k + 1;
        if (end > ops_end && !out) break;
    }
    while (end > 0 && end < used && own[end] == own[end - 1]) end++;
    if (end < total && end > 0 && own[end] == own[end - 1])
        while (end > 0 && own[end - 1] == own[end]) end--;
    int nops = 0, last = -1;
    for (int k = 0; k < end; k++)
        if (joined[k]) nops++, last = k;
    if (!nops || (nops == 1 && is_reduce(leaf[last]->op.code))) {
        free(w);
        return fuse_rsum(g, items[0], mask, scope);
    }
    int items_used = own[end - 1] + 1;
    // the sequence being emitted goes on after the items taken here
    if (g->nframes) {
        tl_cgen_frame_t *top = &g->frames[g->nframes - 1];
        if (!top->loop && top->items + top->next == items) top->next += items_used;
    }
    emit_run(g, leaf, end, mask, scope, lanes, joined);
    free(w);
    return items_used;
}
