// Argument binding (bind.h): arguments by parameter name, their checks, the
// inference of symbolic dims, the allocation of outputs and workspaces.
#include "exec/exec_int.h"
#include "ir/walk.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

tl_status_t tl_bind_create(tl_bind_t **out, const tl_kernel_t *k, tl_diag_t *d)
{
    *out = NULL;
    tl_bind_t *args = calloc(1, sizeof *args);
    if (!args) return tl_diag_fail(d, TL_ERR_NOMEM, "out of memory");
    args->k = k;
    args->d = d;
    size_t np = (size_t)k->nparams + 1, nv = (size_t)k->vars.len + 1,
           nb = (size_t)k->buffers.len + 1;
    args->user = calloc(np, sizeof *args->user);
    args->user_set = calloc(np, sizeof *args->user_set);
    args->globals = calloc(nv, sizeof *args->globals);
    args->gset = calloc(nv, 1);
    args->dim_given = calloc(nv, 1);
    args->gm = calloc(nb, sizeof *args->gm);
    args->gm_owned = calloc(nb, sizeof *args->gm_owned);
    args->gm_back = calloc(nb, sizeof *args->gm_back);
    if (!args->user || !args->user_set || !args->globals || !args->gset || !args->dim_given ||
        !args->gm || !args->gm_owned || !args->gm_back) {
        tl_bind_destroy(args);
        return tl_diag_fail(d, TL_ERR_NOMEM, "out of memory");
    }
    *out = args;
    return TL_OK;
}

static void release_gm(tl_bind_t *args)
{
    for (int i = 0; i < args->k->buffers.len; i++) {
        if (args->gm_owned[i]) tl_tensor_destroy(args->gm[i]);
        args->gm[i] = NULL;
        args->gm_owned[i] = false;
        args->gm_back[i] = NULL;
    }
}

void tl_bind_destroy(tl_bind_t *args)
{
    if (!args) return;
    if (args->gm) release_gm(args);
    free(args->user);
    free(args->user_set);
    free(args->globals);
    free(args->gset);
    free(args->dim_given);
    free(args->gm);
    free(args->gm_owned);
    free(args->gm_back);
    free(args);
}

// Evaluates a shape or grid expression with the executor's scalar semantics:
// outside any agent, where only constants, dims and scalar parameters have
// values.
static tl_status_t eval_global(tl_bind_t *args, const tl_expr_t *e, int64_t *out)
{
    tl_exec_t x = {.k = args->k, .d = args->d, .args = args};
    tl_exec_ctx_t c = {&x, NULL, NULL, false};
    return tl_exec_eval_int(&c, e, out);
}

static int find_param(const tl_bind_t *args, const char *name)
{
    for (int i = 0; i < args->k->nparams; i++)
        if (!strcmp(args->k->params[i].name, name)) return i;
    return -1;
}

static tl_status_t no_param(tl_bind_t *args, const char *name, const char *what)
{
    return tl_diag_fail(args->d, TL_ERR_ARG, "kernel '%s' has no %s parameter '%s'", args->k->name,
                        what, name);
}

tl_status_t tl_bind_set_tensor(tl_bind_t *args, const char *name, tl_tensor_t *t)
{
    int i = find_param(args, name);
    if (i < 0 || !args->k->params[i].buf) return no_param(args, name, "tensor");
    args->user[i] = t;
    args->bound = false;
    return TL_OK;
}

static tl_status_t set_scalar(tl_bind_t *args, const char *name, tl_num_t v)
{
    int i = find_param(args, name);
    if (i < 0 || !args->k->params[i].var) return no_param(args, name, "scalar");
    const tl_var_t *var = args->k->params[i].var;
    tl_num_t c = tl_num_cast(v, var->dtype);
    tl_num_t back = tl_num_cast(c, v.t);
    if (!tl_dtype_is_float(var->dtype) && !tl_num_same(back, v)) {
        tl_buf_t b;
        tl_buf_init(&b);
        tl_num_print(&b, v);
        tl_status_t st =
            tl_diag_fail(args->d, TL_ERR_ARG, "value %s does not fit the %s parameter '%s'",
                         tl_buf_cstr(&b), tl_dtype_name(var->dtype), name);
        tl_buf_free(&b);
        return st;
    }
    args->globals[var->id] = c;
    args->gset[var->id] = 1;
    args->user_set[i] = true;
    args->bound = false;
    return TL_OK;
}

tl_status_t tl_bind_set_int(tl_bind_t *args, const char *name, int64_t v)
{
    tl_num_t n = {TL_I64, v, 0};
    return set_scalar(args, name, n);
}

tl_status_t tl_bind_set_float(tl_bind_t *args, const char *name, double v)
{
    tl_num_t n = {TL_F64, 0, v};
    return set_scalar(args, name, n);
}

static tl_var_t *find_dim(const tl_bind_t *args, const char *name)
{
    for (int i = 0; i < args->k->dims.len; i++) {
        tl_var_t *v = args->k->dims.items[i];
        if (!strcmp(v->name, name)) return v;
    }
    return NULL;
}

tl_status_t tl_bind_set_dim(tl_bind_t *args, const char *name, int64_t v)
{
    tl_var_t *var = find_dim(args, name);
    if (!var)
        return tl_diag_fail(args->d, TL_ERR_ARG, "kernel '%s' has no symbolic dim '%s'",
                            args->k->name, name);
    if (v < 0)
        return tl_diag_fail(args->d, TL_ERR_ARG, "dim '%s' = %" PRId64 " is negative", name, v);
    args->globals[var->id] = tl_num_int(v, var->dtype);
    args->gset[var->id] = 1;
    args->dim_given[var->id] = 1;
    args->bound = false;
    return TL_OK;
}

bool tl_bind_dim(const tl_bind_t *args, const char *name, int64_t *out)
{
    const tl_var_t *v = find_dim(args, name);
    if (!v || !args->gset[v->id]) return false;
    *out = args->globals[v->id].i;
    return true;
}

int64_t tl_bind_num_blocks(const tl_bind_t *args)
{
    return args->nblocks;
}

static const tl_var_t *plain_dim(const tl_expr_t *e)
{
    return e && e->kind == TL_EX_VAR && e->var->kind == TL_VAR_DIM ? e->var : NULL;
}

// Binds unbound dims from the plain dimensions of the given tensors: inputs
// first, then given outputs and workspaces.
static void infer_dims(tl_bind_t *args)
{
    const tl_kernel_t *k = args->k;
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < k->nparams; i++) {
            const tl_param_t *p = &k->params[i];
            if (!p->buf || !args->user[i] || (p->role == TL_ROLE_INPUT) != (pass == 0)) continue;
            for (int d = 0; d < p->buf->ndim && d < args->user[i]->ndim; d++) {
                // an int4 tensor's last dimension N is held as N / 2 bytes
                bool i4 = p->buf->int4_elems && d == p->buf->ndim - 1;
                const tl_var_t *v = plain_dim(i4 ? p->buf->int4_elems : p->buf->gm_shape[d]);
                if (!v || args->gset[v->id]) continue;
                args->globals[v->id] = tl_num_int(args->user[i]->shape[d] * (i4 ? 2 : 1), v->dtype);
                args->gset[v->id] = 1;
            }
        }
}

static tl_status_t unbound_dim(tl_bind_t *args, const tl_var_t *v)
{
    const tl_kernel_t *k = args->k;
    for (int i = 0; i < k->nparams; i++) {
        const tl_buffer_t *b = k->params[i].buf;
        if (!args->user[i]) continue;
        for (int d = 0; b && d < b->ndim; d++) {
            if (!tl_walk_mentions(b->gm_shape[d], v)) continue;
            tl_buf_t e;
            tl_buf_init(&e);
            tl_ir_print_expr(&e, b->gm_shape[d]);
            tl_status_t st = tl_diag_report(
                args->d, TL_SEV_ERROR, v->loc, TL_ERR_ARG,
                "dim '%s' cannot be inferred: it appears only in the shape expression '%s' of "
                "'%s'; give it with -d %s=N",
                v->name, tl_buf_cstr(&e), b->name, v->name);
            tl_buf_free(&e);
            return st;
        }
    }
    return tl_diag_report(args->d, TL_SEV_ERROR, v->loc, TL_ERR_ARG,
                          "dim '%s' appears in no input shape; give it with -d %s=N", v->name,
                          v->name);
}

// The run-time shape of a GM buffer.
static tl_status_t gm_shape(tl_bind_t *args, const tl_buffer_t *b, int64_t *shape)
{
    for (int d = 0; d < b->ndim; d++) {
        if (!b->gm_shape[d]) {
            shape[d] = b->shape[d];
            continue;
        }
        tl_status_t st = eval_global(args, b->gm_shape[d], &shape[d]);
        if (st) return st;
        int64_t elems;
        if (b->int4_elems && d == b->ndim - 1 &&
            ((st = eval_global(args, b->int4_elems, &elems)) || elems % 2))
            return st ? st
                      : tl_diag_report(args->d, TL_SEV_ERROR, b->loc, TL_ERR_ARG,
                                       "int4 tensor '%s' has an odd last dimension (%" PRId64
                                       "): two int4 elements share a byte",
                                       b->name, elems);
        if (shape[d] < 0)
            return tl_diag_report(args->d, TL_SEV_ERROR, b->loc, TL_ERR_ARG,
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

static tl_status_t check_tensor(tl_bind_t *args, const tl_param_t *p, const tl_tensor_t *t)
{
    const tl_buffer_t *b = p->buf;
    if (t->dtype != b->dtype)
        return tl_diag_report(args->d, TL_SEV_ERROR, b->loc, TL_ERR_ARG,
                              "tensor '%s' has dtype %s, the kernel expects %s", p->name,
                              tl_dtype_name(t->dtype), tl_dtype_name(b->dtype));
    tl_buf_t want, have;
    tl_buf_init(&want);
    tl_buf_init(&have);
    tl_status_t st = TL_OK;
    int64_t shape[TL_MAX_DIMS];
    if (t->ndim != b->ndim) {
        st = TL_ERR_ARG;
    } else if ((st = gm_shape(args, b, shape)) == TL_OK) {
        for (int d = 0; d < b->ndim; d++)
            if (shape[d] != t->shape[d]) st = TL_ERR_ARG;
        if (st) tl_tensor_format_dims(&want, b->ndim, shape);
    } else {
        goto done;
    }
    if (st) {
        tl_tensor_format_dims(&have, t->ndim, t->shape);
        tl_buf_t expr;
        tl_buf_init(&expr);
        shape_text(&expr, b);
        if (t->ndim != b->ndim) // a rank mismatch (a 0-d .npy, say): counts, not shapes
            st = tl_diag_report(args->d, TL_SEV_ERROR, b->loc, TL_ERR_ARG,
                                "tensor '%s' has %d dimension%s (shape %s), the kernel expects %d: %s", p->name,
                                t->ndim, t->ndim == 1 ? "" : "s", tl_buf_cstr(&have), b->ndim, tl_buf_cstr(&expr));
        else
            st = tl_diag_report(args->d, TL_SEV_ERROR, b->loc, TL_ERR_ARG,
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

static tl_status_t alloc_gm(tl_bind_t *args)
{
    const tl_kernel_t *k = args->k;
    release_gm(args);
    for (int i = 0; i < k->buffers.len; i++) {
        tl_buffer_t *b = k->buffers.items[i];
        if (b->scope != TL_SCOPE_GM) continue;
        tl_tensor_t *u = b->param >= 0 ? args->user[b->param] : NULL;
        if (u && tl_tensor_is_contiguous(u)) {
            args->gm[i] = u;
            continue;
        }
        int64_t shape[TL_MAX_DIMS];
        tl_status_t st = u ? TL_OK : gm_shape(args, b, shape);
        if (!st && (st = tl_tensor_create(&args->gm[i], b->dtype, b->ndim, u ? u->shape : shape, args->d)))
            tl_diag_fail(args->d, st, "the kernel's %s '%s' cannot be allocated", u ? "argument copy of" : "tensor",
                         b->name);
        if (st) return st;
        args->gm_owned[i] = true;
        if (u) { // a strided argument: run on a contiguous copy
            copy_tensor(args->gm[i], u);
            args->gm_back[i] = u;
        } else {
            if (tl_tensor_nbytes(args->gm[i]))
                memset(args->gm[i]->data, 0xFF, tl_tensor_nbytes(args->gm[i]));
        }
    }
    return TL_OK;
}

tl_status_t tl_bind_check(tl_bind_t *args)
{
    if (args->bound) return TL_OK;
    const tl_kernel_t *k = args->k;
    tl_status_t st;
    for (int i = 0; i < k->vars.len; i++) { // forget dims inferred by an earlier bind
        const tl_var_t *v = k->vars.items[i];
        if (v->kind == TL_VAR_DIM && !args->dim_given[v->id]) args->gset[v->id] = 0;
    }
    for (int i = 0; i < k->nparams; i++) {
        const tl_param_t *p = &k->params[i];
        if (p->buf && !args->user[i] && p->role == TL_ROLE_INPUT)
            return tl_diag_fail(args->d, TL_ERR_ARG, "input tensor '%s' is not given", p->name);
        if (p->var && !args->user_set[i])
            return tl_diag_fail(args->d, TL_ERR_ARG, "scalar parameter '%s' is not given", p->name);
        if (p->buf && args->user[i] && args->user[i]->dtype != p->buf->dtype &&
            (st = check_tensor(args, p, args->user[i])))
            return st;
    }
    infer_dims(args);
    for (int i = 0; i < k->dims.len; i++) {
        const tl_var_t *v = k->dims.items[i];
        if (!args->gset[v->id]) return unbound_dim(args, v);
    }
    for (int i = 0; i < k->nparams; i++)
        if (k->params[i].buf && args->user[i] &&
            (st = check_tensor(args, &k->params[i], args->user[i])))
            return st;
    if ((st = alloc_gm(args))) return st;
    args->nblocks = 1;
    if (k->grid) {
        if ((st = eval_global(args, k->grid, &args->nblocks))) return st;
        if (args->nblocks < 0)
            return tl_diag_report(args->d, TL_SEV_ERROR, k->loc, TL_ERR_ARG,
                                  "the grid has %" PRId64 " blocks", args->nblocks);
    }
    args->bound = true;
    return TL_OK;
}

static tl_buffer_t *param_buffer(tl_bind_t *args, const char *name)
{
    int i = find_param(args, name);
    return i < 0 ? NULL : args->k->params[i].buf;
}

tl_tensor_t *tl_bind_tensor(tl_bind_t *args, const char *name)
{
    tl_buffer_t *b = param_buffer(args, name);
    if (!b) return NULL;
    if (args->gm_back[b->id]) return args->gm_back[b->id];
    return args->gm[b->id] ? args->gm[b->id] : args->user[b->param];
}

tl_tensor_t *tl_bind_take_tensor(tl_bind_t *args, const char *name)
{
    tl_buffer_t *b = param_buffer(args, name);
    if (!b || !args->gm_owned[b->id] || args->gm_back[b->id]) return tl_bind_tensor(args, name);
    tl_tensor_t *t = args->gm[b->id];
    args->gm[b->id] = NULL;
    args->gm_owned[b->id] = false;
    args->bound = false; // a later run allocates a new one
    return t;
}

tl_tensor_t *tl_bind_gm(const tl_bind_t *args, const tl_buffer_t *buf)
{
    return buf->scope == TL_SCOPE_GM ? args->gm[buf->id] : NULL;
}

bool tl_bind_value(const tl_bind_t *args, const tl_var_t *v, int64_t *i, double *f)
{
    if (!args->gset[v->id]) return false;
    tl_num_t n = tl_num_cast(args->globals[v->id], v->dtype);
    *i = n.i;
    *f = n.f;
    return true;
}

// Copies the rows of a contiguous run result into the caller's strided tensor.
static void copy_back(tl_tensor_t *dst, const tl_tensor_t *src)
{
    int nd = src->ndim, esz = tl_dtype_size(src->dtype);
    int64_t rows = 1, cols = nd ? src->shape[nd - 1] : 1, idx[TL_TENSOR_MAX_DIMS] = {0};
    for (int i = 0; i + 1 < nd; i++) rows *= src->shape[i];
    const uint8_t *from = src->data;
    for (int64_t r = 0; r < rows; r++, from += cols * esz) {
        uint8_t *row = (uint8_t *)dst->data + tl_tensor_offset(dst, idx) * esz;
        int64_t step = nd ? dst->strides[nd - 1] * esz : 0;
        for (int64_t j = 0; j < cols; j++) memcpy(row + j * step, from + j * esz, (size_t)esz);
        for (int i = nd - 2; i >= 0 && ++idx[i] == src->shape[i]; i--) idx[i] = 0;
    }
}

void tl_bind_copy_back(tl_bind_t *args)
{
    for (int i = 0; i < args->k->buffers.len; i++)
        if (args->gm_back[i]) copy_back(args->gm_back[i], args->gm[i]);
}
