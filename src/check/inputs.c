// Inputs for a kernel run: bind symbolic dims from given tensors and NAME=VALUE
// pairs, generate the other inputs from a seed. Shared by `tilec run/sim`, the
// kernel checks and the demo, so the same seed gives the same inputs everywhere.
#include "check/check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt/rng.h"

void tl_check_io_free(tl_check_io_t *io)
{
    for (int i = 0; i < 64; i++) {
        if (io->owned[i]) tl_tensor_destroy(io->tensors[i]);
        tl_tensor_destroy(io->expected[i]);
    }
    free(io->dims);
    free(io->dim_known);
    memset(io, 0, sizeof *io);
}

static int param_index(const tl_kernel_t *k, const char *name)
{
    for (int i = 0; i < k->nparams; i++)
        if (!strcmp(k->params[i].name, name)) return i;
    return -1;
}

tl_tensor_t *tl_check_tensor(tl_check_io_t *io, const char *name)
{
    int p = param_index(io->kernel, name);
    return p >= 0 ? io->tensors[p] : NULL;
}

tl_tensor_t *tl_check_expected(tl_check_io_t *io, const char *name, tl_diag_t *d)
{
    int p = param_index(io->kernel, name);
    if (p < 0 || !io->tensors[p]) {
        tl_diag_fail(d, TL_ERR_ARG, "golden: no output tensor '%s'", name);
        return NULL;
    }
    if (!io->expected[p]) {
        const tl_tensor_t *t = io->tensors[p];
        if (tl_tensor_create(&io->expected[p], t->dtype, t->ndim, t->shape, d) != TL_OK) return NULL;
    }
    return io->expected[p];
}

int64_t tl_check_dim(const tl_check_io_t *io, const char *name)
{
    const tl_kernel_t *k = io->kernel;
    for (int i = 0; i < k->dims.len; i++) {
        const tl_var_t *v = k->dims.items[i];
        if (!strcmp(v->name, name) && io->dim_known[v->id]) return io->dims[v->id];
    }
    return -1;
}

float *tl_check_floats(const tl_tensor_t *t)
{
    size_t n = tl_tensor_numel(t);
    float *f = malloc(sizeof *f * (n ? n : 1));
    if (!f) return NULL;
    for (size_t i = 0; i < n; i++) f[i] = (float)tl_tensor_get_flat(t, i);
    return f;
}

static tl_status_t fill(tl_rng_t *r, tl_tensor_t *t, const char *spec, tl_diag_t *d)
{
    if (spec) {
        double a = 0, b = 1;
        if (!strncmp(spec, "normal", 6) && (spec[6] == 0 || (spec[6] == ':' && sscanf(spec + 7, "%lf:%lf", &a, &b) == 2)))
            return tl_rng_fill_normal(r, t, a, b, d);
        if (!strncmp(spec, "uniform:", 8) && sscanf(spec + 8, "%lf:%lf", &a, &b) == 2)
            return tl_rng_fill_uniform(r, t, a, b, d);
        if (!strncmp(spec, "int:", 4) && sscanf(spec + 4, "%lf:%lf", &a, &b) == 2)
            return tl_rng_fill_int(r, t, (int64_t)a, (int64_t)b, d);
        if (!strncmp(spec, "distinct:", 9) && sscanf(spec + 9, "%lf", &a) == 1)
            return tl_rng_fill_distinct(r, t, (int64_t)a, d);
        return tl_diag_fail(d, TL_ERR_ARG,
                            "fill spec '%s' is not one of normal[:MEAN:STD], uniform:LO:HI, int:LO:HI, distinct:N",
                            spec);
    }
    if (tl_dtype_is_float(t->dtype)) return tl_rng_fill_normal(r, t, 0, 1, d);
    if (t->dtype == TL_I8) return tl_rng_fill_int(r, t, -127, 127, d);
    if (t->dtype == TL_BOOL) return tl_rng_fill_int(r, t, 0, 1, d);
    return tl_rng_fill_int(r, t, 0, 15, d);
}

static bool split(const char *s, char *name, size_t cap, const char **value)
{
    const char *eq = strchr(s, '=');
    if (!eq || eq == s || (size_t)(eq - s) >= cap) return false;
    memcpy(name, s, (size_t)(eq - s));
    name[eq - s] = 0;
    *value = eq + 1;
    return true;
}

tl_status_t tl_check_inputs(tl_check_io_t *io, const tl_kernel_t *k, int ndims,
                            const char *const *dims, int nfills, const char *const *fills,
                            uint64_t seed, tl_diag_t *d)
{
    io->kernel = k;
    if (k->nparams > 64) return tl_diag_fail(d, TL_ERR_UNSUPPORTED, "kernel has more than 64 parameters");
    int nv = k->vars.len + 1;
    io->dims = calloc((size_t)nv, sizeof *io->dims);
    io->dim_known = calloc((size_t)nv, sizeof *io->dim_known);
    if (!io->dims || !io->dim_known) return TL_ERR_NOMEM;
    char name[128];
    const char *value;
    for (int i = 0; i < ndims; i++) {
        if (!split(dims[i], name, sizeof name, &value))
            return tl_diag_fail(d, TL_ERR_ARG, "dim '%s' is not NAME=VALUE", dims[i]);
        char *end;
        long long v = strtoll(value, &end, 10);
        if (end == value || *end || v <= 0)
            return tl_diag_fail(d, TL_ERR_ARG, "dim %s needs a positive integer, got '%s'", name, value);
        bool found = false;
        for (int j = 0; j < k->dims.len; j++) {
            const tl_var_t *dv = k->dims.items[j];
            if (strcmp(dv->name, name)) continue;
            io->dims[dv->id] = v;
            io->dim_known[dv->id] = found = true;
        }
        if (!found) return tl_diag_fail(d, TL_ERR_ARG, "the kernel has no symbolic dimension '%s'", name);
    }
    for (int p = 0; p < k->nparams; p++) {
        const tl_tensor_t *t = io->tensors[p];
        const tl_buffer_t *b = k->params[p].buf;
        if (!t || !b) continue;
        for (int j = 0; j < b->ndim && j < t->ndim; j++) {
            const tl_expr_t *e = b->gm_shape[j];
            if (e && e->kind == TL_EX_VAR && e->var->kind == TL_VAR_DIM && !io->dim_known[e->var->id]) {
                io->dims[e->var->id] = t->shape[j];
                io->dim_known[e->var->id] = true;
            }
        }
    }
    for (int f = 0; f < nfills; f++) {
        if (!split(fills[f], name, sizeof name, &value) || param_index(k, name) < 0 ||
            !k->params[param_index(k, name)].buf)
            return tl_diag_fail(d, TL_ERR_ARG, "fill '%s': no tensor parameter of that name", fills[f]);
    }
    for (int p = 0; p < k->nparams; p++) {
        const tl_param_t *par = &k->params[p];
        if (!par->buf || io->tensors[p] || par->role != TL_ROLE_INPUT) continue;
        int64_t shape[TL_MAX_DIMS];
        for (int j = 0; j < par->buf->ndim; j++) {
            if (!tl_ir_eval_int(par->buf->gm_shape[j], io->dims, io->dim_known, &shape[j])) {
                tl_buf_t b;
                tl_buf_init(&b);
                tl_ir_print_expr(&b, par->buf->gm_shape[j]);
                tl_status_t st = tl_diag_fail(d, TL_ERR_ARG,
                                              "input '%s' is generated but dimension %d (%s) is unknown: give "
                                              "the symbolic dimensions with -d NAME=VALUE or the input with -i "
                                              "%s=FILE.npy",
                                              par->name, j, tl_buf_cstr(&b), par->name);
                tl_buf_free(&b);
                return st;
            }
            if (shape[j] <= 0)
                return tl_diag_fail(d, TL_ERR_ARG, "input '%s' would have dimension %d = %lld", par->name, j,
                                    (long long)shape[j]);
        }
        tl_status_t st = tl_tensor_create(&io->tensors[p], par->buf->dtype, par->buf->ndim, shape, d);
        if (st != TL_OK) return st;
        io->owned[p] = true;
        const char *spec = NULL;
        for (int f = 0; f < nfills; f++)
            if (split(fills[f], name, sizeof name, &value) && !strcmp(name, par->name)) spec = value;
        tl_rng_t r;
        tl_rng_seed(&r, seed * 1000003u + (uint64_t)p);
        if ((st = fill(&r, io->tensors[p], spec, d)) != TL_OK) return st;
    }
    return TL_OK;
}
