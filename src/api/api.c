// The public C API (include/tilec.h) over the library's internal interfaces.
// A kernel keeps its source and options: each target compiles its own IR the
// first time it is launched (passes rewrite the IR in place, and the targets'
// pipelines differ).
#include "tilec.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/dtype.h"
#include "driver/backend.h"
#include "driver/compile.h"
#include "rt/tensor.h"
#include "target/arch.h"

_Static_assert((int)TILEC_DTYPE_COUNT == (int)TL_DTYPE_COUNT, "public dtype enum out of sync");
_Static_assert((int)TILEC_ERR_INTERNAL == (int)TL_ERR_INTERNAL, "public status enum out of sync");

struct tilec_context {
    tl_diag_t diag; // diagnostics of the last failed call
};

// The public targets are the backends (driver/backend.h) in their table's order.
enum { NTARGETS = TL_BACKEND_COUNT };
_Static_assert((int)TILEC_TARGET_PTO + 1 == NTARGETS, "public target enum out of sync");

struct tilec_kernel {
    tilec_context_t *ctx;
    char *path, *source; // source NULL: compile from the file
    tl_front_opts_t opts;
    tl_front_arg_t *args, *pass_configs;
    tl_arena_t arena[1 + NTARGETS]; // [0] the front-end IR, then one per target
    tl_kernel_t *ir[1 + NTARGETS];
    tl_sim_opts_t sim; // TILEC_TARGET_SIM launches (sim.arch owned)
    tl_front_chip_t chip; // torch.npu in the file: the default arch's chip (compiled once)
};

const char *tilec_version(void)
{
    return TILEC_VERSION;
}

const char *tilec_target_name(tilec_target_t target)
{
    return (int)target >= 0 && (int)target < NTARGETS ? tl_backends()[target]->name : NULL;
}

const char *tilec_status_str(tilec_status_t s)
{
    return tl_status_str((tl_status_t)s);
}

tilec_status_t tilec_context_create(tilec_context_t **out)
{
    if (!out) return TILEC_ERR_ARG;
    tilec_context_t *c = calloc(1, sizeof *c);
    if (!c) return TILEC_ERR_NOMEM;
    tl_diag_init(&c->diag);
    *out = c;
    return TILEC_OK;
}

void tilec_context_destroy(tilec_context_t *ctx)
{
    if (!ctx) return;
    tl_diag_free(&ctx->diag);
    free(ctx);
}

const char *tilec_context_error(const tilec_context_t *ctx)
{
    return ctx ? tl_diag_text((tl_diag_t *)&ctx->diag) : "";
}

static tilec_status_t fail(tilec_context_t *ctx, tl_status_t st, const char *msg)
{
    tl_diag_fail(&ctx->diag, st, "%s", msg);
    return (tilec_status_t)st;
}

static tl_front_arg_t *copy_args(const tilec_arg_t *a, int n)
{
    if (n <= 0) return NULL;
    tl_front_arg_t *c = calloc((size_t)n, sizeof *c);
    for (int i = 0; c && i < n; i++) {
        c[i].name = strdup(a[i].name ? a[i].name : "");
        c[i].value = strdup(a[i].value ? a[i].value : "");
    }
    return c;
}

static void free_args(tl_front_arg_t *a, int n)
{
    for (int i = 0; a && i < n; i++) {
        free((char *)a[i].name);
        free((char *)a[i].value);
    }
    free(a);
}

void tilec_kernel_destroy(tilec_kernel_t *k)
{
    if (!k) return;
    for (int i = 0; i <= NTARGETS; i++) tl_arena_free(&k->arena[i]);
    free_args(k->args, k->opts.nargs);
    free_args(k->pass_configs, k->opts.npass_configs);
    free((char *)k->opts.kernel);
    free((char *)k->opts.out_idx);
    free(k->path);
    free(k->source);
    free((char *)k->sim.arch);
    free(k);
}

tilec_status_t tilec_kernel_set_sim_options(tilec_kernel_t *k, const tilec_sim_options_t *opts)
{
    if (!k) return TILEC_ERR_ARG;
    tl_diag_clear(&k->ctx->diag);
    tilec_sim_options_t o = opts ? *opts : (tilec_sim_options_t){0};
    if (o.arch && !tl_arch_get(o.arch))
        return fail(k->ctx, TL_ERR_ARG, "tilec_kernel_set_sim_options: unknown architecture");
    if (o.l2 != TILEC_L2_COLD && o.l2 != TILEC_L2_WARM)
        return fail(k->ctx, TL_ERR_ARG, "tilec_kernel_set_sim_options: l2 is cold or warm");
    char *arch = o.arch ? strdup(o.arch) : NULL;
    if (o.arch && !arch) return fail(k->ctx, TL_ERR_NOMEM, "out of memory");
    free((char *)k->sim.arch);
    k->sim = (tl_sim_opts_t){.arch = arch,
                             .l2 = o.l2 == TILEC_L2_WARM ? TL_SIM_L2_WARM : TL_SIM_L2_COLD,
                             .no_races = o.no_races != 0};
    return TILEC_OK;
}

// Compiles the kernel into slot (0: front end only, else a target's pipeline).
static tl_status_t build(tilec_kernel_t *k, int slot)
{
    if (k->ir[slot]) return TL_OK;
    tl_diag_t *d = &k->ctx->diag;
    tl_arena_free(&k->arena[slot]);
    tl_compile_opts_t o = {.path = k->path, .source = k->source, .front = k->opts, .front_only = true};
    if (slot > 0) {
        o.front_only = false;
        o.pipeline = tl_backends()[slot - 1]->pipeline;
    }
    return tl_compile(&k->arena[slot], &o, d, &k->ir[slot]);
}

static tilec_status_t compile(tilec_context_t *ctx, const char *path, const char *source,
                              const tilec_compile_options_t *opts, tilec_kernel_t **out)
{
    if (!ctx || !path || !out) return ctx ? fail(ctx, TL_ERR_ARG, "tilec_compile: path and out are required") : TILEC_ERR_ARG;
    tl_diag_clear(&ctx->diag);
    *out = NULL;
    tilec_kernel_t *k = calloc(1, sizeof *k);
    if (!k) return TILEC_ERR_NOMEM;
    k->ctx = ctx;
    k->path = strdup(path);
    k->source = source ? strdup(source) : NULL;
    for (int i = 0; i <= NTARGETS; i++) tl_arena_init(&k->arena[i]);
    const tl_arch_t *arch = tl_arch_get("a2");
    k->chip = (tl_front_chip_t){arch->soc, arch->num_aic, arch->num_aiv};
    k->opts.chip = &k->chip;
    if (opts) {
        k->opts.kernel = opts->kernel ? strdup(opts->kernel) : NULL;
        k->opts.out_idx = opts->out_idx ? strdup(opts->out_idx) : NULL;
        k->args = copy_args(opts->args, opts->nargs);
        k->pass_configs = copy_args(opts->pass_configs, opts->npass_configs);
        k->opts.nargs = opts->nargs > 0 ? opts->nargs : 0;
        k->opts.npass_configs = opts->npass_configs > 0 ? opts->npass_configs : 0;
        k->opts.args = k->args;
        k->opts.pass_configs = k->pass_configs;
    }
    tl_status_t st = build(k, 0);
    if (st != TL_OK) {
        tilec_kernel_destroy(k);
        return (tilec_status_t)st;
    }
    *out = k;
    return TILEC_OK;
}

tilec_status_t tilec_compile_file(tilec_context_t *ctx, const char *path,
                                  const tilec_compile_options_t *opts, tilec_kernel_t **out)
{
    return compile(ctx, path, NULL, opts, out);
}

tilec_status_t tilec_compile_string(tilec_context_t *ctx, const char *name, const char *source,
                                    const tilec_compile_options_t *opts, tilec_kernel_t **out)
{
    if (!source) return ctx ? fail(ctx, TL_ERR_ARG, "tilec_compile_string: no source") : TILEC_ERR_ARG;
    return compile(ctx, name ? name : "<string>", source, opts, out);
}

const char *tilec_kernel_name(const tilec_kernel_t *k)
{
    if (!k) return NULL;
    const tl_kernel_t *ir = k->ir[0];
    return ir->entry ? ir->entry : ir->name;
}

int tilec_kernel_num_params(const tilec_kernel_t *k)
{
    return k ? k->ir[0]->nparams : 0;
}

tilec_status_t tilec_kernel_param(const tilec_kernel_t *k, int index, tilec_param_info_t *info)
{
    if (!k || !info || index < 0 || index >= k->ir[0]->nparams) return TILEC_ERR_ARG;
    const tl_param_t *p = &k->ir[0]->params[index];
    memset(info, 0, sizeof *info);
    info->name = p->name;
    info->is_tensor = p->buf != NULL;
    info->role = (tilec_param_role_t)p->role;
    if (!p->buf) {
        info->dtype = (tilec_dtype_t)p->var->dtype;
        return TILEC_OK;
    }
    info->dtype = (tilec_dtype_t)p->buf->dtype;
    info->ndim = p->buf->ndim;
    tl_arena_t *a = (tl_arena_t *)&k->arena[0];
    for (int i = 0; i < p->buf->ndim; i++) {
        int64_t c;
        const tl_expr_t *e = p->buf->gm_shape[i];
        info->shape[i] = e && tl_ir_is_const_int(e, &c) ? c : -1;
        tl_buf_t b;
        tl_buf_init(&b);
        if (e) tl_ir_print_expr(&b, e);
        info->shape_expr[i] = tl_arena_strdup(a, tl_buf_cstr(&b));
        tl_buf_free(&b);
    }
    return TILEC_OK;
}

int tilec_kernel_num_dims(const tilec_kernel_t *k)
{
    return k ? k->ir[0]->dims.len : 0;
}

const char *tilec_kernel_dim_name(const tilec_kernel_t *k, int index)
{
    if (!k || index < 0 || index >= k->ir[0]->dims.len) return NULL;
    return ((tl_var_t *)k->ir[0]->dims.items[index])->name;
}

tilec_status_t tilec_kernel_param_shape(const tilec_kernel_t *k, int index, const int64_t *dims,
                                        int64_t *shape)
{
    if (!k || !shape || index < 0 || index >= k->ir[0]->nparams || !k->ir[0]->params[index].buf)
        return TILEC_ERR_ARG;
    const tl_kernel_t *ir = k->ir[0];
    int nv = ir->vars.len;
    int64_t *values = calloc((size_t)nv + 1, sizeof *values);
    bool *known = calloc((size_t)nv + 1, sizeof *known);
    tilec_status_t st = values && known ? TILEC_OK : TILEC_ERR_NOMEM;
    for (int i = 0; st == TILEC_OK && dims && i < ir->dims.len; i++) {
        const tl_var_t *v = ir->dims.items[i];
        if (dims[i] >= 0) values[v->id] = dims[i], known[v->id] = true;
    }
    const tl_buffer_t *b = ir->params[index].buf;
    for (int d = 0; st == TILEC_OK && d < b->ndim; d++)
        if (!tl_ir_eval_int(b->gm_shape[d], values, known, &shape[d])) st = TILEC_ERR_ARG;
    free(values);
    free(known);
    return st;
}

char *tilec_kernel_ir(const tilec_kernel_t *k)
{
    if (!k) return NULL;
    tl_buf_t b;
    tl_buf_init(&b);
    tl_ir_print_kernel(&b, k->ir[0]);
    return tl_buf_take(&b);
}

tilec_value_t tilec_tensor(void *data, tilec_dtype_t dtype, int ndim, const int64_t *shape)
{
    tilec_value_t v;
    memset(&v, 0, sizeof v);
    v.data = data;
    v.dtype = dtype;
    v.ndim = ndim < 0 ? 0 : ndim > TILEC_MAX_DIMS ? TILEC_MAX_DIMS : ndim;
    for (int i = 0; i < v.ndim; i++) v.shape[i] = shape[i];
    return v;
}

tilec_value_t tilec_scalar_int(int64_t x)
{
    tilec_value_t v;
    memset(&v, 0, sizeof v);
    v.is_scalar = 1;
    v.i = x;
    v.f = (double)x;
    return v;
}

tilec_value_t tilec_scalar_float(double x)
{
    tilec_value_t v = tilec_scalar_int((int64_t)x);
    v.f = x;
    return v;
}

void tilec_free(void *p)
{
    free(p);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static tl_status_t launch(tilec_kernel_t *k, const tl_backend_t *be, const tl_kernel_t *ir,
                          const tilec_value_t *values, tl_tensor_t **wrapped, tilec_report_t *report)
{
    tl_diag_t *d = &k->ctx->diag;
    tl_backend_opts_t opts = {.sim = k->sim};
    tl_bind_t *args = NULL;
    void *self = NULL;
    tl_status_t st = tl_bind_create(&args, ir, d);
    for (int i = 0; st == TL_OK && i < ir->nparams; i++) {
        const tl_param_t *p = &ir->params[i];
        if (p->buf) {
            if (wrapped[i]) st = tl_bind_set_tensor(args, p->name, wrapped[i]);
        } else if (tl_dtype_is_float(p->var->dtype)) {
            st = tl_bind_set_float(args, p->name, values[i].f);
        } else {
            st = tl_bind_set_int(args, p->name, values[i].i);
        }
    }
    if (st == TL_OK) st = be->create(&self, ir, &opts, d);
    if (st == TL_OK) {
        st = be->run(self, args);
        tl_backend_report_t r;
        be->report(self, &r);
        if (report && r.sim) {
            report->cycles = r.sim->cycles;
            report->time_us = r.sim->time_us;
            report->races = r.sim->nraces + r.sim->nerrors;
            report->benign_races = r.sim->nbenign;
            tl_buf_t b;
            tl_buf_init(&b);
            be->write(self, TL_BACKEND_JSON, &b);
            report->json = tl_buf_take(&b);
        }
    }
    be->destroy(self);
    tl_bind_destroy(args);
    return st;
}

tilec_status_t tilec_launch(tilec_kernel_t *k, tilec_target_t target, const tilec_value_t *values,
                            int nvalues, tilec_report_t *report)
{
    if (!k) return TILEC_ERR_ARG;
    tilec_context_t *ctx = k->ctx;
    tl_diag_clear(&ctx->diag);
    if (report) memset(report, 0, sizeof *report);
    if ((int)target < 0 || (int)target >= NTARGETS) return fail(ctx, TL_ERR_ARG, "tilec_launch: unknown target");
    const tl_kernel_t *front = k->ir[0];
    if (nvalues != front->nparams || (!values && nvalues)) {
        tl_diag_fail(&ctx->diag, TL_ERR_ARG, "tilec_launch: '%s' takes %d arguments, got %d", front->name,
                     front->nparams, nvalues);
        return TILEC_ERR_ARG;
    }
    const tl_backend_t *be = tl_backends()[target];
    tl_status_t st = build(k, 1 + (int)target);
    if (st != TL_OK) return (tilec_status_t)st;
    const tl_kernel_t *ir = k->ir[1 + (int)target];
    tl_tensor_t **wrapped = calloc((size_t)ir->nparams + 1, sizeof *wrapped);
    if (!wrapped) return TILEC_ERR_NOMEM;
    for (int i = 0; st == TL_OK && i < ir->nparams; i++) {
        const tl_param_t *p = &ir->params[i];
        const tilec_value_t *v = &values[i];
        if (!p->buf) {
            if (!v->is_scalar) st = tl_diag_fail(&ctx->diag, TL_ERR_ARG, "argument %d ('%s') must be a scalar", i, p->name);
            continue;
        }
        if (v->is_scalar) {
            st = tl_diag_fail(&ctx->diag, TL_ERR_ARG, "argument %d ('%s') must be a tensor", i, p->name);
            continue;
        }
        if (!v->data) {
            if (p->role != TL_ROLE_WORKSPACE)
                st = tl_diag_fail(&ctx->diag, TL_ERR_ARG, "argument %d ('%s') has no data", i, p->name);
            continue;
        }
        if ((int)v->dtype != (int)p->buf->dtype) {
            st = tl_diag_fail(&ctx->diag, TL_ERR_ARG, "argument %d ('%s') is %s, the kernel expects %s", i,
                              p->name, tl_dtype_name((tl_dtype_t)v->dtype), tl_dtype_name(p->buf->dtype));
            continue;
        }
        st = tl_tensor_wrap(&wrapped[i], (tl_dtype_t)v->dtype, v->ndim, v->shape, NULL, v->data, &ctx->diag);
    }
    double t0 = now();
    if (st == TL_OK) st = launch(k, be, ir, values, wrapped, report);
    if (report) report->seconds = now() - t0;
    for (int i = 0; i < ir->nparams; i++) tl_tensor_destroy(wrapped[i]);
    free(wrapped);
    return (tilec_status_t)st;
}
