// workspace: L0C -> UB and UB -> L1 copies go through GM workspaces.
//
// requires: physical scopes (scope_infer); developer mode (auto CV combine),
//           where such copies are hand-offs between the cube and the vector
//           cores (the reference executes them as direct moves)
// ensures:  no copy between cube and vector memory is left: each becomes a copy
//           into a new internal GM buffer (a kernel parameter with role
//           workspace, allocated by the runtime) where the hand-off was, and a
//           copy out of it (the read-back) right before the first statement
//           that reads the destination (as upstream's WorkspaceReduction does),
//           so that the consumer core waits only when it needs the data.
//
// Where the read-back goes. P is the first statement in program order after
// the hand-off that reads the destination, or, when the hand-off sits in a
// loop, the first one earlier in the body of a loop around both (upstream's
// order: it reads the hand-off of the same iteration; cross_sync pairs it with
// the write of that iteration, and a warning says so; `tilec run` follows
// program order). The read-back goes into the innermost sequence holding both,
// before the statement there that contains P, so that it runs once per
// hand-off even when P is in a loop or an `if`. This is only done when the
// hand-off is the only statement writing the destination (then nothing else
// can come between), and, for the earlier-in-the-loop case, when no reader
// follows the hand-off in that loop; otherwise, or when nothing reads the
// destination, the read-back follows the hand-off.
//
// A workspace holds one tile per block, and per vector core when the cube-side
// operand depends on vid: shape [blocks, (2,) tile...], where blocks is the
// kernel's grid (a symbolic expression is fine) and the tile is the moved box
// (the extents of the copy's source, or of its destination when the source is
// written as a start point). The producer writes slot [cid, (vid)] and the
// consumer reads it. When the destination region depends on a loop or a let
// the read-back is outside of (a row per iteration of an inner loop), the
// workspace holds the whole destination buffer instead: the producer writes
// its region there and the read-back copies all of it. When the cube side
// depends on vid, the cube's half of the hand-off runs once per vector core
// (`for v in 0..2` with vid replaced by v). The workspace's dtype is the UB
// side's (an L0C -> UB copy converts on the way out of L0C, as the hardware's
// fixpipe does). A hand-off written inside an explicit T.Scope is an error: it
// needs both cores.
#include "pass/pass.h"

#include "ir/walk.h"
#include "pass/hazard.h"
#include "pass/rewrite.h"
#include "pass/subst.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAXD = 64 };

// A statement of the program in pre-order; its subtree is the nodes [id, end).
typedef struct {
    tl_stmt_t *s;
    tl_stmt_t *cur; // what the statement became (a hand-off: its producer half)
    int parent;     // node id, -1 for the body
    int index;      // position in the parent (a seq), -1 otherwise
    int end;
} node_t;

typedef struct {
    tl_kernel_t *k;
    tl_pass_ctx_t *ctx;
    node_t *n;
    int nn, cap;
    int count;
    tl_status_t st;
} ws_t;

bool tl_workspace_is_handoff(const tl_stmt_t *s)
{
    if (s->kind != TL_ST_OP || s->op.code != TL_OP_COPY || s->op.nargs < 2) return false;
    tl_scope_t a = s->op.args[0].region.buf->scope, b = s->op.args[1].region.buf->scope;
    return (a == TL_SCOPE_L0C && b == TL_SCOPE_UB) || (a == TL_SCOPE_UB && b == TL_SCOPE_L1);
}

static bool region_mentions(const tl_region_t *r, const tl_var_t *v)
{
    for (int d = 0; v && d < r->ndim; d++)
        if (tl_walk_mentions(r->start[d], v) || tl_walk_mentions(r->extent[d], v)) return true;
    return false;
}

static bool name_taken(const tl_kernel_t *k, const char *name)
{
    for (int i = 0; i < k->buffers.len; i++)
        if (!strcmp(((tl_buffer_t *)k->buffers.items[i])->name, name)) return true;
    return false;
}

// A new workspace parameter [grid, (lanes,) tile...].
static tl_buffer_t *new_workspace(ws_t *w, tl_dtype_t t, int lanes, int nt, const int64_t *tile,
                                  tl_loc_t loc)
{
    tl_kernel_t *k = w->k;
    char name[64];
    do snprintf(name, sizeof name, "workspace_%d", w->count++);
    while (name_taken(k, name));
    int nd = 1 + (lanes > 1) + nt;
    int64_t shape[TL_MAX_DIMS] = {0};
    tl_buffer_t *b = tl_ir_buffer(k, name, TL_SCOPE_GM, t, nd, shape, loc);
    b->internal = true;
    b->gm_shape[0] = k->grid;
    int d = 1;
    if (lanes > 1) b->gm_shape[d++] = tl_ir_int(k, lanes, TL_I32, loc);
    for (int i = 0; i < nt; i++) {
        b->shape[d] = tile[i];
        b->gm_shape[d++] = tl_ir_int(k, tile[i], TL_I32, loc);
    }
    tl_param_t *p = tl_arena_alloc(k->arena, sizeof *p * (size_t)(k->nparams + 1));
    if (k->nparams) memcpy(p, k->params, sizeof *p * (size_t)k->nparams);
    p[k->nparams] = (tl_param_t){b->name, TL_ROLE_WORKSPACE, b, NULL};
    b->param = k->nparams;
    k->params = p;
    k->nparams++;
    return b;
}

// The slot [cid, (lane,) :...] of workspace b.
// A region of all of b's dimensions with its starts and extents still unset.
static tl_region_t bare_region(tl_buffer_t *b, tl_region_form_t form, tl_loc_t loc)
{
    tl_region_t r;
    memset(&r, 0, sizeof r);
    r.buf = b;
    r.form = form;
    r.ndim = b->ndim;
    r.loc = loc;
    return r;
}

static tl_region_t slot(tl_kernel_t *k, tl_buffer_t *b, tl_expr_t *lane, tl_loc_t loc)
{
    tl_region_t r = bare_region(b, TL_REGION_SLICE, loc);
    int d = 0;
    r.start[d] = tl_ir_varref(k, k->cid, loc);
    r.extent[d++] = tl_ir_int(k, 1, TL_I32, loc);
    if (lane) {
        r.start[d] = lane;
        r.extent[d++] = tl_ir_int(k, 1, TL_I32, loc);
    }
    for (; d < b->ndim; d++) {
        r.start[d] = tl_ir_int(k, 0, TL_I32, loc);
        r.extent[d] = tl_ir_int(k, b->shape[d], TL_I32, loc);
    }
    return r;
}

static tl_stmt_t *copy_stmt(tl_kernel_t *k, const tl_stmt_t *orig, const tl_region_t *src,
                            const tl_region_t *dst, bool relu)
{
    tl_stmt_t *s = tl_ir_stmt(k, TL_ST_OP, orig->loc);
    s->inserted = true;
    s->op = orig->op;
    s->op.enable_relu = relu;
    s->op.nargs = 2;
    s->op.args = tl_arena_alloc(k->arena, sizeof *s->op.args * 2);
    s->op.args[0] = (tl_arg_t){TL_ARG_REGION, *src, NULL};
    s->op.args[1] = (tl_arg_t){TL_ARG_REGION, *dst, NULL};
    return s;
}

static bool var_taken(const tl_kernel_t *k, const char *name)
{
    for (int i = 0; i < k->vars.len; i++)
        if (!strcmp(((tl_var_t *)k->vars.items[i])->name, name)) return true;
    return false;
}

// `for lane in 0..2: s` with vid replaced by lane in s.
static tl_stmt_t *per_lane(tl_kernel_t *k, tl_stmt_t *s)
{
    char name[32] = "lane";
    for (int i = 1; var_taken(k, name); i++) snprintf(name, sizeof name, "lane_%d", i);
    tl_var_t *v = tl_ir_var(k, name, TL_I32, TL_VAR_LOOP, s->loc);
    tl_subst_t m;
    tl_subst_init(&m);
    tl_subst_var(&m, k->vid, tl_ir_varref(k, v, s->loc));
    tl_stmt_t *body = tl_subst_stmt(k, &m, s);
    tl_subst_free(&m);
    tl_stmt_t *f = tl_ir_stmt(k, TL_ST_FOR, s->loc);
    f->inserted = true;
    f->for_.var = v;
    f->for_.start = tl_ir_int(k, 0, TL_I32, s->loc);
    f->for_.end = tl_ir_int(k, 2, TL_I32, s->loc);
    f->for_.loop = TL_LOOP_SERIAL;
    f->for_.body = body;
    return f;
}

// --- the program as a list of nodes ------------------------------------------------------------

static int add_node(ws_t *w, tl_stmt_t *s, int parent, int index)
{
    if (w->nn == w->cap) {
        int cap = w->cap ? w->cap * 2 : 256;
        node_t *n = realloc(w->n, sizeof *n * (size_t)cap);
        if (!n) return -1;
        w->n = n;
        w->cap = cap;
    }
    w->n[w->nn] = (node_t){s, s, parent, index, 0};
    return w->nn++;
}

static bool walk(ws_t *w, tl_stmt_t *s, int parent, int index)
{
    if (!s) return true;
    int id = add_node(w, s, parent, index);
    if (id < 0) return false;
    bool ok = true;
    switch (s->kind) {
    case TL_ST_SEQ:
        for (int i = 0; i < s->seq.n && ok; i++) ok = walk(w, s->seq.items[i], id, i);
        break;
    case TL_ST_FOR: ok = walk(w, s->for_.body, id, -1); break;
    case TL_ST_WHILE: ok = walk(w, s->while_.body, id, -1); break;
    case TL_ST_IF: ok = walk(w, s->if_.then_, id, -1) && walk(w, s->if_.else_, id, -1); break;
    case TL_ST_SCOPE: ok = walk(w, s->scope.body, id, -1); break;
    default: break;
    }
    w->n[id].end = w->nn;
    return ok;
}

// The node ids from the body down to node id; returns how many.
static int chain(const ws_t *w, int id, int *out)
{
    int n = 0;
    for (int i = id; i >= 0; i = w->n[i].parent) n++;
    if (n > MAXD) return -1;
    int j = n;
    for (int i = id; i >= 0; i = w->n[i].parent) out[--j] = i;
    return n;
}

typedef struct {
    const tl_buffer_t *buf;
    bool read, write;
} touch_t;

static void touch_access(void *arg, const tl_hazard_access_t *a)
{
    touch_t *t = arg;
    if (a->buf != t->buf) return;
    if (a->write)
        t->write = true;
    else
        t->read = true;
}

static touch_t touches(const tl_stmt_t *s, const tl_buffer_t *buf)
{
    touch_t t = {buf, false, false};
    tl_hazard_stmt(s, touch_access, &t);
    return t;
}

// --- where the read-back goes ------------------------------------------------------------------

typedef struct {
    int at;     // node before which the read-back goes; -1: right after the hand-off
    bool whole; // the workspace holds the whole destination buffer
    int reader; // the first reader, when it precedes the hand-off in a loop
    int loop;   // that loop
} plan_t;

// The children of the innermost sequence holding nodes a and b under which they
// lie (distinct), or false.
static bool split_point(const ws_t *w, int a, int b, int *ca, int *cb, int *seq)
{
    int pa[MAXD], pb[MAXD];
    int na = chain(w, a, pa), nb = chain(w, b, pb);
    if (na < 0 || nb < 0) return false;
    int i = 0;
    while (i < na && i < nb && pa[i] == pb[i]) i++;
    if (i == 0 || i == na || i == nb || w->n[pa[i - 1]].s->kind != TL_ST_SEQ) return false;
    *ca = pa[i];
    *cb = pb[i];
    *seq = pa[i - 1];
    return true;
}

// The innermost loop around node id, or -1.
static int loop_around(const ws_t *w, int id)
{
    for (int i = w->n[id].parent; i >= 0; i = w->n[i].parent)
        if (w->n[i].s->kind == TL_ST_FOR || w->n[i].s->kind == TL_ST_WHILE) return i;
    return -1;
}

static bool mentions_var(const tl_region_t *r, const tl_var_t *v)
{
    return region_mentions(r, v);
}

// Whether region r mentions a variable bound on the way from child `top` of a
// sequence down to node h, or by a let of that sequence in [from, to).
static bool bound_below(const ws_t *w, const tl_region_t *r, int top, int h, int seq, int from,
                        int to)
{
    const tl_stmt_t *sq = w->n[seq].s;
    for (int i = from; i < to; i++) {
        const tl_stmt_t *s = sq->seq.items[i];
        if (s->kind == TL_ST_LET && mentions_var(r, s->let.var)) return true;
    }
    int p[MAXD];
    int n = chain(w, h, p), d = 0;
    while (d < n && p[d] != top) d++;
    for (; d < n - 1; d++) {
        const tl_stmt_t *s = w->n[p[d]].s;
        if (s->kind == TL_ST_FOR && mentions_var(r, s->for_.var)) return true;
        if (s->kind != TL_ST_SEQ) continue;
        for (int i = 0; i < w->n[p[d + 1]].index; i++) {
            const tl_stmt_t *c = s->seq.items[i];
            if (c->kind == TL_ST_LET && mentions_var(r, c->let.var)) return true;
        }
    }
    return false;
}

// Whether a node in (from, to) other than h writes buf.
static bool written_in(const ws_t *w, const tl_buffer_t *buf, int from, int to, int h)
{
    for (int i = from + 1; i < to; i++)
        if (i != h && touches(w->n[i].s, buf).write) return true;
    return false;
}

static plan_t plan(const ws_t *w, int h, bool lanes)
{
    plan_t none = {-1, false, -1, -1}, pl = none;
    const tl_region_t *dst = &w->n[h].s->op.args[1].region;
    const tl_buffer_t *D = dst->buf;
    int before = -1, after = -1;
    for (int i = 0; i < w->nn && after < 0; i++) {
        if (i == h || !touches(w->n[i].s, D).read) continue;
        int ca, ch, seq;
        if (i > h)
            after = i;
        else if (before < 0 && split_point(w, i, h, &ca, &ch, &seq) && loop_around(w, ca) >= 0)
            before = i;
    }
    int p = after;
    if (before >= 0) {
        int ca, ch, seq;
        split_point(w, before, h, &ca, &ch, &seq);
        int L = loop_around(w, ca);
        if (after < 0 || after >= w->n[L].end) {
            p = before;
            pl.reader = before;
            pl.loop = L;
        }
    }
    if (p < 0) return none;
    int cp, ch, seq;
    if (!split_point(w, p, h, &cp, &ch, &seq)) return none;
    int ip = w->n[cp].index, ih = w->n[ch].index;
    pl.whole = bound_below(w, dst, ch, h, seq, p < h ? ip : 0, p < h ? ih : 0);
    if (pl.whole && (lanes || dst->form == TL_REGION_POINT || D->ndim + 1 > TL_MAX_DIMS))
        return none;
    // Nothing else may write the destination between the hand-off and the
    // read-back; a whole-buffer read-back or one earlier in the loop replaces
    // what anything else wrote, so there nothing else may write it at all.
    if ((pl.whole || p < h) ? written_in(w, D, -1, w->nn, h) : written_in(w, D, h, p, h))
        return none;
    pl.at = cp;
    return pl;
}

// --- the rewrite -------------------------------------------------------------------------------

static tl_expr_t *cint(tl_kernel_t *k, int64_t v, tl_loc_t loc)
{
    return tl_ir_int(k, v, TL_I32, loc);
}

// The region `r` of a whole-buffer workspace slot [cid, region...], or the slot
// itself when r is NULL.
static tl_region_t whole_slot(tl_kernel_t *k, tl_buffer_t *b, const tl_region_t *r, tl_loc_t loc)
{
    tl_region_t s = slot(k, b, NULL, loc);
    for (int d = 1; r && d < b->ndim; d++) {
        s.start[d] = r->start[d - 1];
        s.extent[d] = r->extent[d - 1];
    }
    return s;
}

static tl_region_t whole_of(tl_kernel_t *k, tl_buffer_t *b, tl_loc_t loc)
{
    tl_region_t r = bare_region(b, TL_REGION_WHOLE, loc);
    for (int d = 0; d < b->ndim; d++) {
        r.start[d] = cint(k, 0, loc);
        r.extent[d] = cint(k, b->shape[d], loc);
    }
    return r;
}

static int index_in(const tl_stmt_t *seq, const tl_stmt_t *s)
{
    for (int i = 0; i < seq->seq.n; i++)
        if (seq->seq.items[i] == s) return i;
    return -1;
}

// Splits hand-off node h; returns the read-back (NULL on error).
static tl_stmt_t *split(ws_t *w, int h, bool whole)
{
    tl_kernel_t *k = w->k;
    tl_stmt_t *s = w->n[h].s;
    const tl_region_t *src = &s->op.args[0].region, *dst = &s->op.args[1].region;
    bool from_l0c = src->buf->scope == TL_SCOPE_L0C;
    const tl_region_t *box = src->form == TL_REGION_POINT ? dst : src;
    int64_t tile[TL_MAX_DIMS];
    int nt = 0;
    if (whole)
        for (int d = 0; d < dst->buf->ndim; d++) tile[nt++] = dst->buf->shape[d];
    for (int d = 0; !whole && d < box->ndim; d++) {
        int64_t e;
        if (!tl_ir_is_const_int(box->extent[d], &e) || e < 1) {
            w->st = tl_diag_error(w->ctx->diag, s->loc,
                                  "the hand-off of '%s' to '%s' needs constant extents to go "
                                  "through a GM workspace",
                                  src->buf->name, dst->buf->name);
            return NULL;
        }
        if (nt < TL_MAX_DIMS - 2) tile[nt++] = e;
    }
    const tl_region_t *cube_side = from_l0c ? src : dst;
    bool lanes = !whole && k->vid && !k->threads && region_mentions(cube_side, k->vid);
    tl_dtype_t t = from_l0c ? dst->buf->dtype : src->buf->dtype;
    tl_buffer_t *ws = new_workspace(w, t, lanes ? 2 : 1, nt, tile, s->loc);
    tl_expr_t *vid = lanes ? tl_ir_varref(k, k->vid, s->loc) : NULL;
    tl_region_t put = whole ? whole_slot(k, ws, dst, s->loc) : slot(k, ws, vid, s->loc);
    tl_region_t get = whole ? whole_slot(k, ws, NULL, s->loc) : put;
    tl_region_t into = whole ? whole_of(k, dst->buf, s->loc) : *dst;
    tl_stmt_t *out = copy_stmt(k, s, src, &put, from_l0c && s->op.enable_relu);
    tl_stmt_t *in = copy_stmt(k, s, &get, &into, false);
    if (lanes && from_l0c) out = per_lane(k, out);
    if (lanes && !from_l0c) in = per_lane(k, in);
    tl_stmt_t *seq = w->n[w->n[h].parent].s;
    seq->seq.items[w->n[h].index] = out;
    w->n[h].cur = out;
    return in;
}

static bool scoped(const ws_t *w, int id)
{
    for (int i = w->n[id].parent; i >= 0; i = w->n[i].parent)
        if (w->n[i].s->kind == TL_ST_SCOPE) return true;
    return false;
}

static tl_status_t run(ws_t *w)
{
    tl_kernel_t *k = w->k;
    tl_rewrite_normalize(k);
    if (!walk(w, k->body, -1, -1)) return tl_diag_fail(w->ctx->diag, TL_ERR_NOMEM, "out of memory");
    int nn = w->nn;
    plan_t *pl = calloc((size_t)nn + 1, sizeof *pl);
    tl_stmt_t **in = calloc((size_t)nn + 1, sizeof *in);
    if (!pl || !in) {
        free(pl);
        free(in);
        return tl_diag_fail(w->ctx->diag, TL_ERR_NOMEM, "out of memory");
    }
    for (int h = 0; h < nn && w->st == TL_OK; h++) {
        const tl_stmt_t *s = w->n[h].s;
        if (!tl_workspace_is_handoff(s)) continue;
        if (scoped(w, h)) {
            w->st = tl_diag_error(w->ctx->diag, s->loc,
                                  "T.copy from %s to %s hands data between the cube and the "
                                  "vector cores, so it cannot be inside T.Scope: write it outside",
                                  tl_scope_name(s->op.args[0].region.buf->scope),
                                  tl_scope_name(s->op.args[1].region.buf->scope));
            break;
        }
        const tl_region_t *src = &s->op.args[0].region, *dst = &s->op.args[1].region;
        const tl_region_t *cube_side = src->buf->scope == TL_SCOPE_L0C ? src : dst;
        bool lanes = k->vid && !k->threads && region_mentions(cube_side, k->vid);
        pl[h] = plan(w, h, lanes);
        in[h] = split(w, h, pl[h].whole);
    }
    for (int h = 0; h < nn && w->st == TL_OK; h++) {
        if (!in[h]) continue;
        if (pl[h].at < 0) {
            tl_stmt_t *seq = w->n[w->n[h].parent].s;
            tl_rewrite_insert(k, seq, index_in(seq, w->n[h].cur) + 1, in[h]);
            continue;
        }
        tl_stmt_t *seq = w->n[w->n[pl[h].at].parent].s;
        tl_rewrite_insert(k, seq, index_in(seq, w->n[pl[h].at].cur), in[h]);
        if (pl[h].reader >= 0) {
            const tl_stmt_t *s = w->n[h].s, *r = w->n[pl[h].reader].s;
            tl_diag_warning(w->ctx->diag, r->loc,
                            "'%s' is read here before the hand-off at line %d writes it in the "
                            "same iteration of the loop at line %d: as upstream does, this reads "
                            "the hand-off of the same iteration (tilec run follows program "
                            "order)",
                            s->op.args[1].region.buf->name, s->loc.line,
                            w->n[pl[h].loop].s->loc.line);
        }
    }
    free(pl);
    free(in);
    return w->st;
}

tl_status_t tl_pass_workspace(tl_kernel_t *k, tl_pass_ctx_t *ctx)
{
    if (!k->config.auto_cv_combine) return TL_OK; // expert mode: such copies are errors at run time
    ws_t w = {k, ctx, NULL, 0, 0, 0, TL_OK};
    tl_status_t st = run(&w);
    free(w.n);
    return st;
}
