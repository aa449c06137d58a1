// workspace: L0C -> UB and UB -> L1 copies go through GM workspaces.
//
// requires: physical scopes (scope_infer); developer mode (auto CV combine),
//           where such copies are hand-offs between the cube and the vector
//           cores (the reference executes them as direct moves)
// ensures:  no copy between cube and vector memory is left: each becomes a copy
//           into a new internal GM buffer (a kernel parameter with role
//           workspace, allocated by the runtime) and a copy out of it, one
//           statement after the other, for the producer and the consumer side.
//
// A workspace holds one tile per block, and per vector core when the cube-side
// operand depends on vid: shape [blocks, (2,) tile...], where blocks is the
// kernel's grid (a symbolic expression is fine) and the tile is the moved box
// (the extents of the copy's source, or of its destination when the source is
// written as a start point). The producer writes slot [cid, (vid)] and the
// consumer reads it. When the cube side depends on vid, the cube's half of the
// hand-off runs once per vector core (`for v in 0..2` with vid replaced by v).
// The workspace's dtype is the UB side's (an L0C -> UB copy converts on the way
// out of L0C, as the hardware's fixpipe does). A hand-off written inside an
// explicit T.Scope is an error: it needs both cores.
#include "pass/pass.h"

#include "pass/subst.h"

#include <stdio.h>
#include <string.h>

typedef struct {
    tl_kernel_t *k;
    tl_pass_ctx_t *ctx;
    int count;
    int scoped; // inside T.Scope
    tl_status_t st;
} ws_t;

static bool is_handoff(const tl_stmt_t *s)
{
    if (s->kind != TL_ST_OP || s->op.code != TL_OP_COPY || s->op.nargs < 2) return false;
    tl_scope_t a = s->op.args[0].region.buf->scope, b = s->op.args[1].region.buf->scope;
    return (a == TL_SCOPE_L0C && b == TL_SCOPE_UB) || (a == TL_SCOPE_UB && b == TL_SCOPE_L1);
}

static bool region_mentions(const tl_region_t *r, const tl_var_t *v)
{
    for (int d = 0; v && d < r->ndim; d++)
        if (tl_subst_mentions(r->start[d], v) || tl_subst_mentions(r->extent[d], v)) return true;
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
static tl_region_t slot(tl_kernel_t *k, tl_buffer_t *b, tl_expr_t *lane, tl_loc_t loc)
{
    tl_region_t r;
    memset(&r, 0, sizeof r);
    r.buf = b;
    r.form = TL_REGION_SLICE;
    r.ndim = b->ndim;
    r.loc = loc;
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

static tl_stmt_t *split(ws_t *w, tl_stmt_t *s)
{
    tl_kernel_t *k = w->k;
    const tl_region_t *src = &s->op.args[0].region, *dst = &s->op.args[1].region;
    bool from_l0c = src->buf->scope == TL_SCOPE_L0C;
    const tl_region_t *box = src->form == TL_REGION_POINT ? dst : src;
    int64_t tile[TL_MAX_DIMS];
    int nt = 0;
    for (int d = 0; d < box->ndim; d++) {
        int64_t e;
        if (!tl_ir_is_const_int(box->extent[d], &e) || e < 1) {
            w->st = tl_diag_error(w->ctx->diag, s->loc,
                                  "the hand-off of '%s' to '%s' needs constant extents to go "
                                  "through a GM workspace",
                                  src->buf->name, dst->buf->name);
            return s;
        }
        if (nt < TL_MAX_DIMS - 2) tile[nt++] = e;
    }
    const tl_region_t *cube_side = from_l0c ? src : dst;
    bool lanes = k->vid && !k->threads && region_mentions(cube_side, k->vid);
    tl_dtype_t t = from_l0c ? dst->buf->dtype : src->buf->dtype;
    tl_buffer_t *ws = new_workspace(w, t, lanes ? 2 : 1, nt, tile, s->loc);
    tl_stmt_t *seq = tl_ir_seq(k, s->loc);
    tl_expr_t *vid = lanes ? tl_ir_varref(k, k->vid, s->loc) : NULL;
    tl_region_t vec_slot = slot(k, ws, vid, s->loc);
    if (from_l0c) {
        tl_stmt_t *out = copy_stmt(k, s, src, &vec_slot, s->op.enable_relu);
        if (lanes) out = per_lane(k, out);
        tl_ir_seq_push(k, seq, out);
        tl_ir_seq_push(k, seq, copy_stmt(k, s, &vec_slot, dst, false));
    } else {
        tl_ir_seq_push(k, seq, copy_stmt(k, s, src, &vec_slot, false));
        tl_stmt_t *in = copy_stmt(k, s, &vec_slot, dst, false);
        if (lanes) in = per_lane(k, in);
        tl_ir_seq_push(k, seq, in);
    }
    return seq;
}

static tl_stmt_t *visit(void *arg, tl_stmt_t *s)
{
    ws_t *w = arg;
    if (!s || w->st != TL_OK) return s;
    if (s->kind == TL_ST_SCOPE) {
        w->scoped++;
        tl_subst_children(s, visit, w);
        w->scoped--;
        return s;
    }
    if (!is_handoff(s)) return tl_subst_children(s, visit, w);
    if (w->scoped) {
        w->st = tl_diag_error(w->ctx->diag, s->loc,
                              "T.copy from %s to %s hands data between the cube and the vector "
                              "cores, so it cannot be inside T.Scope: write it outside",
                              tl_scope_name(s->op.args[0].region.buf->scope),
                              tl_scope_name(s->op.args[1].region.buf->scope));
        return s;
    }
    return split(w, s);
}

tl_status_t tl_pass_workspace(tl_kernel_t *k, tl_pass_ctx_t *ctx)
{
    if (!k->config.auto_cv_combine) return TL_OK; // expert mode: such copies are errors at run time
    ws_t w = {k, ctx, 0, 0, TL_OK};
    k->body = visit(&w, k->body);
    return w.st;
}
