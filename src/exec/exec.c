// The executor's API: creation, arguments, binding (tensor checks, symbolic dim
// inference, allocation of outputs and workspaces), running, results.
//
// Binding: every tensor must have the parameter's dtype and rank; a symbolic dim
// takes its value from an explicit -d, else from the first input tensor (then
// the first given output) whose shape has it as a plain dimension; then every
// dimension of every given tensor, compound expressions such as `b * m`
// included, is evaluated and checked.
#include "exec/exec_int.h"

#include "ir/walk.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

const char *tl_exec_agent_name(tl_agent_t a)
{
    static const char *names[] = {"AIC", "AIV0", "AIV1"};
    return a < TL_AGENT_COUNT ? names[a] : "?";
}

tl_side_t tl_exec_agent_side(const tl_exec_agent_t *ag)
{
    return ag->id == TL_AGENT_AIC ? TL_SIDE_CUBE : TL_SIDE_VEC;
}

tl_status_t tl_exec_fail(const tl_exec_ctx_t *c, tl_loc_t loc, const char *fmt, ...)
{
    if (loc.line <= 0 && c->st) loc = c->st->loc;
    tl_buf_t msg;
    tl_buf_init(&msg);
    va_list ap;
    va_start(ap, fmt);
    tl_buf_vprintf(&msg, fmt, ap);
    va_end(ap);
    if (c->ag)
        tl_buf_printf(&msg, " [block %" PRId64 " %s]", c->ag->blk->index,
                      tl_exec_agent_name(c->ag->id));
    tl_status_t st =
        tl_diag_report(c->x->d, TL_SEV_ERROR, loc, TL_ERR_RUNTIME, "%s", tl_buf_cstr(&msg));
    tl_buf_free(&msg);
    return st;
}

tl_status_t tl_exec_hook(const tl_exec_ctx_t *c, tl_exec_event_t *ev)
{
    if (!c->x->opts.hook) return TL_OK;
    ev->block = c->ag ? c->ag->blk->index : -1;
    ev->agent = c->ag ? c->ag->id : TL_AGENT_AIC;
    ev->stmt = c->st;
    return c->x->opts.hook(c->x->opts.hook_arg, ev);
}

tl_status_t tl_exec_create(tl_exec_t **out, const tl_kernel_t *k, const tl_exec_opts_t *opts,
                           tl_diag_t *d)
{
    *out = NULL;
    tl_status_t st = tl_ir_verify(k, d);
    if (st) return st;
    tl_exec_t *x = calloc(1, sizeof *x);
    if (!x) return tl_diag_fail(d, TL_ERR_NOMEM, "out of memory");
    x->k = k;
    x->d = d;
    if (opts) x->opts = *opts;
    x->dev = k->config.auto_cv_combine;
    x->nvec = k->threads ? 1 : 2;
    x->lanes = TL_LANE_AIC | TL_LANE(TL_AGENT_AIV0) | (x->nvec == 2 ? TL_LANE(TL_AGENT_AIV1) : 0);
    tl_buf_init(&x->out);
    size_t np = (size_t)k->nparams + 1, nv = (size_t)k->vars.len + 1,
           nb = (size_t)k->buffers.len + 1;
    x->user = calloc(np, sizeof *x->user);
    x->user_set = calloc(np, sizeof *x->user_set);
    x->globals = calloc(nv, sizeof *x->globals);
    x->gset = calloc(nv, 1);
    x->dim_given = calloc(nv, 1);
    x->gm = calloc(nb, sizeof *x->gm);
    x->gm_owned = calloc(nb, sizeof *x->gm_owned);
    x->gm_back = calloc(nb, sizeof *x->gm_back);
    if (!x->user || !x->user_set || !x->globals || !x->gset || !x->dim_given || !x->gm ||
        !x->gm_owned || !x->gm_back) {
        tl_exec_destroy(x);
        return tl_diag_fail(d, TL_ERR_NOMEM, "out of memory");
    }
    if ((st = tl_exec_side_build(x)) || (st = tl_exec_mem_layout(x))) {
        tl_exec_destroy(x);
        return st;
    }
    *out = x;
    return TL_OK;
}

static void release_gm(tl_exec_t *x)
{
    for (int i = 0; i < x->k->buffers.len; i++) {
        if (x->gm_owned[i]) tl_tensor_destroy(x->gm[i]);
        x->gm[i] = NULL;
        x->gm_owned[i] = false;
        x->gm_back[i] = NULL;
    }
}

void tl_exec_destroy(tl_exec_t *x)
{
    if (!x) return;
    if (x->gm) release_gm(x);
    tl_side_map_free(x->sides);
    free(x->user);
    free(x->user_set);
    free(x->globals);
    free(x->gset);
    free(x->dim_given);
    free(x->gm);
    free(x->gm_owned);
    free(x->gm_back);
    free(x->addr);
    free(x->warned);
    tl_buf_free(&x->out);
    free(x);
}

static int find_param(const tl_exec_t *x, const char *name)
{
    for (int i = 0; i < x->k->nparams; i++)
        if (!strcmp(x->k->params[i].name, name)) return i;
    return -1;
}

static tl_status_t no_param(tl_exec_t *x, const char *name, const char *what)
{
    return tl_diag_fail(x->d, TL_ERR_ARG, "kernel '%s' has no %s parameter '%s'", x->k->name, what,
                        name);
}

tl_status_t tl_exec_set_tensor(tl_exec_t *x, const char *name, tl_tensor_t *t)
{
    int i = find_param(x, name);
    if (i < 0 || !x->k->params[i].buf) return no_param(x, name, "tensor");
    x->user[i] = t;
    x->bound = false;
    return TL_OK;
}

static tl_status_t set_scalar(tl_exec_t *x, const char *name, tl_num_t v)
{
    int i = find_param(x, name);
    if (i < 0 || !x->k->params[i].var) return no_param(x, name, "scalar");
    const tl_var_t *var = x->k->params[i].var;
    tl_num_t c = tl_exec_cast(v, var->dtype);
    tl_num_t back = tl_exec_cast(c, v.t);
    if (!tl_dtype_is_float(var->dtype) && !tl_exec_num_same(back, v)) {
        tl_buf_t b;
        tl_buf_init(&b);
        tl_exec_num_print(&b, v);
        tl_status_t st =
            tl_diag_fail(x->d, TL_ERR_ARG, "value %s does not fit the %s parameter '%s'",
                         tl_buf_cstr(&b), tl_dtype_name(var->dtype), name);
        tl_buf_free(&b);
        return st;
    }
    x->globals[var->id] = c;
    x->gset[var->id] = 1;
    x->user_set[i] = true;
    x->bound = false;
    return TL_OK;
}

tl_status_t tl_exec_set_int(tl_exec_t *x, const char *name, int64_t v)
{
    tl_num_t n = {TL_I64, v, 0};
    return set_scalar(x, name, n);
}

tl_status_t tl_exec_set_float(tl_exec_t *x, const char *name, double v)
{
    tl_num_t n = {TL_F64, 0, v};
    return set_scalar(x, name, n);
}

static tl_var_t *find_dim(const tl_exec_t *x, const char *name)
{
    for (int i = 0; i < x->k->dims.len; i++) {
        tl_var_t *v = x->k->dims.items[i];
        if (!strcmp(v->name, name)) return v;
    }
    return NULL;
}

tl_status_t tl_exec_set_dim(tl_exec_t *x, const char *name, int64_t v)
{
    tl_var_t *var = find_dim(x, name);
    if (!var)
        return tl_diag_fail(x->d, TL_ERR_ARG, "kernel '%s' has no symbolic dim '%s'", x->k->name,
                            name);
    if (v < 0) return tl_diag_fail(x->d, TL_ERR_ARG, "dim '%s' = %" PRId64 " is negative", name, v);
    x->globals[var->id] = tl_exec_num_int(v, var->dtype);
    x->gset[var->id] = 1;
    x->dim_given[var->id] = 1;
    x->bound = false;
    return TL_OK;
}

bool tl_exec_dim(const tl_exec_t *x, const char *name, int64_t *out)
{
    const tl_var_t *v = find_dim(x, name);
    if (!v || !x->gset[v->id]) return false;
    *out = x->globals[v->id].i;
    return true;
}

int64_t tl_exec_num_blocks(const tl_exec_t *x)
{
    return x->nblocks;
}

int64_t tl_exec_buffer_addr(const tl_exec_t *x, const tl_buffer_t *b)
{
    return b->scope == TL_SCOPE_GM ? -1 : x->addr[b->id];
}

bool tl_exec_all_resident(const tl_exec_t *x)
{
    return x->all_resident;
}

const char *tl_exec_output(tl_exec_t *x)
{
    return tl_buf_cstr(&x->out);
}

static const tl_var_t *plain_dim(const tl_expr_t *e)
{
    return e && e->kind == TL_EX_VAR && e->var->kind == TL_VAR_DIM ? e->var : NULL;
}

// Binds unbound dims from the plain dimensions of the given tensors: inputs
// first, then given outputs and workspaces.
static void infer_dims(tl_exec_t *x)
{
    const tl_kernel_t *k = x->k;
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < k->nparams; i++) {
            const tl_param_t *p = &k->params[i];
            if (!p->buf || !x->user[i] || (p->role == TL_ROLE_INPUT) != (pass == 0)) continue;
            for (int d = 0; d < p->buf->ndim && d < x->user[i]->ndim; d++) {
                const tl_var_t *v = plain_dim(p->buf->gm_shape[d]);
                if (!v || x->gset[v->id]) continue;
                x->globals[v->id] = tl_exec_num_int(x->user[i]->shape[d], v->dtype);
                x->gset[v->id] = 1;
            }
        }
}

static tl_status_t unbound_dim(tl_exec_t *x, const tl_var_t *v)
{
    const tl_kernel_t *k = x->k;
    for (int i = 0; i < k->nparams; i++) {
        const tl_buffer_t *b = k->params[i].buf;
        if (!x->user[i]) continue;
        for (int d = 0; b && d < b->ndim; d++) {
            if (!tl_walk_mentions(b->gm_shape[d], v)) continue;
            tl_buf_t e;
            tl_buf_init(&e);
            tl_ir_print_expr(&e, b->gm_shape[d]);
            tl_status_t st = tl_diag_report(
                x->d, TL_SEV_ERROR, v->loc, TL_ERR_ARG,
                "dim '%s' cannot be inferred: it appears only in the shape expression '%s' of "
                "'%s'; give it with -d %s=N",
                v->name, tl_buf_cstr(&e), b->name, v->name);
            tl_buf_free(&e);
            return st;
        }
    }
    return tl_diag_report(x->d, TL_SEV_ERROR, v->loc, TL_ERR_ARG,
                          "dim '%s' appears in no input shape; give it with -d %s=N", v->name,
                          v->name);
}

// The run-time shape of a GM buffer.
static tl_status_t gm_shape(tl_exec_t *x, const tl_buffer_t *b, int64_t *shape)
{
    tl_exec_ctx_t c = {x, NULL, NULL};
    for (int d = 0; d < b->ndim; d++) {
        if (!b->gm_shape[d]) {
            shape[d] = b->shape[d];
            continue;
        }
        tl_status_t st = tl_exec_eval_int(&c, b->gm_shape[d], &shape[d]);
        if (st) return st;
        if (shape[d] < 0)
            return tl_diag_report(x->d, TL_SEV_ERROR, b->loc, TL_ERR_ARG,
                                  "dimension %d of '%s' evaluates to %" PRId64, d, b->name,
                                  shape[d]);
    }
    return TL_OK;
}

static void shape_text(tl_buf_t *out, const tl_buffer_t *b)
{
    tl_buf_putc(out, '(');
    for (int d = 0; d < b->ndim; d++) {
        if (d) tl_buf_puts(out, ", ");
        if (b->gm_shape[d])
            tl_ir_print_expr(out, b->gm_shape[d]);
        else
            tl_buf_printf(out, "%" PRId64, b->shape[d]);
    }
    tl_buf_putc(out, ')');
}

static tl_status_t check_tensor(tl_exec_t *x, const tl_param_t *p, const tl_tensor_t *t)
{
    const tl_buffer_t *b = p->buf;
    if (t->dtype != b->dtype)
        return tl_diag_report(x->d, TL_SEV_ERROR, b->loc, TL_ERR_ARG,
                              "tensor '%s' has dtype %s, the kernel expects %s", p->name,
                              tl_dtype_name(t->dtype), tl_dtype_name(b->dtype));
    tl_buf_t want, have;
    tl_buf_init(&want);
    tl_buf_init(&have);
    tl_status_t st = TL_OK;
    int64_t shape[TL_MAX_DIMS];
    if (t->ndim != b->ndim) {
        st = TL_ERR_ARG;
    } else if ((st = gm_shape(x, b, shape)) == TL_OK) {
        for (int d = 0; d < b->ndim; d++)
            if (shape[d] != t->shape[d]) st = TL_ERR_ARG;
        if (st) tl_tensor_format_dims(&want, b->ndim, shape);
    } else {
        goto done;
    }
    if (st) {
        tl_tensor_format_dims(&have, t->ndim, t->shape);
        if (!want.len) tl_buf_printf(&want, "rank %d", b->ndim);
        tl_buf_t expr;
        tl_buf_init(&expr);
        shape_text(&expr, b);
        st = tl_diag_report(x->d, TL_SEV_ERROR, b->loc, TL_ERR_ARG,
                            "tensor '%s' has shape %s, the kernel expects %s %s", p->name,
                            tl_buf_cstr(&have), tl_buf_cstr(&want), tl_buf_cstr(&expr));
        tl_buf_free(&expr);
    }
done:
    tl_buf_free(&want);
    tl_buf_free(&have);
    return st;
}

// Copies between tensors of the same shape and dtype, element by element.
static void copy_tensor(tl_tensor_t *dst, const tl_tensor_t *src)
{
    size_t n = tl_tensor_numel(src), size = (size_t)tl_dtype_size(src->dtype);
    int64_t idx[TL_TENSOR_MAX_DIMS] = {0};
    for (size_t i = 0; i < n; i++) {
        memcpy((uint8_t *)dst->data + tl_tensor_offset(dst, idx) * (int64_t)size,
               (const uint8_t *)src->data + tl_tensor_offset(src, idx) * (int64_t)size, size);
        tl_tensor_next_index(src, idx);
    }
}

static tl_status_t alloc_gm(tl_exec_t *x)
{
    const tl_kernel_t *k = x->k;
    release_gm(x);
    for (int i = 0; i < k->buffers.len; i++) {
        tl_buffer_t *b = k->buffers.items[i];
        if (b->scope != TL_SCOPE_GM) continue;
        tl_tensor_t *u = b->param >= 0 ? x->user[b->param] : NULL;
        if (u && tl_tensor_is_contiguous(u)) {
            x->gm[i] = u;
            continue;
        }
        int64_t shape[TL_MAX_DIMS];
        tl_status_t st = u ? TL_OK : gm_shape(x, b, shape);
        if (!st) st = tl_tensor_create(&x->gm[i], b->dtype, b->ndim, u ? u->shape : shape, x->d);
        if (st) return st;
        x->gm_owned[i] = true;
        if (u) { // a strided argument: run on a contiguous copy
            copy_tensor(x->gm[i], u);
            x->gm_back[i] = u;
        } else {
            if (tl_tensor_nbytes(x->gm[i]))
                memset(x->gm[i]->data, 0xFF, tl_tensor_nbytes(x->gm[i]));
        }
    }
    return TL_OK;
}

tl_status_t tl_exec_bind(tl_exec_t *x)
{
    if (x->bound) return TL_OK;
    const tl_kernel_t *k = x->k;
    tl_status_t st;
    for (int i = 0; i < k->vars.len; i++) { // forget dims inferred by an earlier bind
        const tl_var_t *v = k->vars.items[i];
        if (v->kind == TL_VAR_DIM && !x->dim_given[v->id]) x->gset[v->id] = 0;
    }
    for (int i = 0; i < k->nparams; i++) {
        const tl_param_t *p = &k->params[i];
        if (p->buf && !x->user[i] && p->role == TL_ROLE_INPUT)
            return tl_diag_fail(x->d, TL_ERR_ARG, "input tensor '%s' is not given", p->name);
        if (p->var && !x->user_set[i])
            return tl_diag_fail(x->d, TL_ERR_ARG, "scalar parameter '%s' is not given", p->name);
        if (p->buf && x->user[i] && x->user[i]->dtype != p->buf->dtype &&
            (st = check_tensor(x, p, x->user[i])))
            return st;
    }
    infer_dims(x);
    for (int i = 0; i < k->dims.len; i++) {
        const tl_var_t *v = k->dims.items[i];
        if (!x->gset[v->id]) return unbound_dim(x, v);
    }
    for (int i = 0; i < k->nparams; i++)
        if (k->params[i].buf && x->user[i] && (st = check_tensor(x, &k->params[i], x->user[i])))
            return st;
    if ((st = alloc_gm(x))) return st;
    x->nblocks = 1;
    if (k->grid) {
        tl_exec_ctx_t c = {x, NULL, NULL};
        if ((st = tl_exec_eval_int(&c, k->grid, &x->nblocks))) return st;
        if (x->nblocks < 0)
            return tl_diag_report(x->d, TL_SEV_ERROR, k->loc, TL_ERR_ARG,
                                  "the grid has %" PRId64 " blocks", x->nblocks);
    }
    x->bound = true;
    return TL_OK;
}

tl_status_t tl_exec_run(tl_exec_t *x)
{
    tl_status_t st = tl_exec_bind(x);
    if (st) return st;
    tl_buf_clear(&x->out);
    x->steps = 0;
    x->nwarned = 0;
    x->warned_residual = false;
    x->barrier_gen = 0;
    st = tl_exec_run_blocks(x);
    for (int i = 0; i < x->k->buffers.len; i++)
        if (x->gm_back[i]) copy_tensor(x->gm_back[i], x->gm[i]);
    return st;
}

static tl_buffer_t *param_buffer(tl_exec_t *x, const char *name)
{
    int i = find_param(x, name);
    return i < 0 ? NULL : x->k->params[i].buf;
}

tl_tensor_t *tl_exec_tensor(tl_exec_t *x, const char *name)
{
    tl_buffer_t *b = param_buffer(x, name);
    if (!b) return NULL;
    if (x->gm_back[b->id]) return x->gm_back[b->id];
    return x->gm[b->id] ? x->gm[b->id] : x->user[b->param];
}

tl_tensor_t *tl_exec_take_tensor(tl_exec_t *x, const char *name)
{
    tl_buffer_t *b = param_buffer(x, name);
    if (!b || !x->gm_owned[b->id] || x->gm_back[b->id]) return tl_exec_tensor(x, name);
    tl_tensor_t *t = x->gm[b->id];
    x->gm[b->id] = NULL;
    x->gm_owned[b->id] = false;
    x->bound = false; // a later run allocates a new one
    return t;
}
