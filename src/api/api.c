// The public C API (include/tilec.h) over the library's internal interfaces.
// A kernel keeps its source and options: each target compiles its own IR the
// first time it is launched (passes rewrite the IR in place, and the targets'
// pipelines differ).
#include "tilec.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/dtype.h"
#include "cpu/cpu.h"
#include "exec/exec.h"
#include "target/arch.h"
#include "npu/sim.h"
#include "driver/compile.h"
#include "rt/tensor.h"

_Static_assert((int)TILEC_DTYPE_COUNT == (int)TL_DTYPE_COUNT, "public dtype enum out of sync");
_Static_assert((int)TILEC_ERR_INTERNAL == (int)TL_ERR_INTERNAL, "public status enum out of sync");

struct tilec_context {
    tl_diag_t diag; // diagnostics of the last failed call
};

enum { NTARGETS = 3 };

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
    static const tl_pipeline_t pipes[NTARGETS] = {TL_PIPELINE_REF, TL_PIPELINE_NPU, TL_PIPELINE_CPU};
    tl_compile_opts_t o = {.path = k->path,
                           .source = k->source,
                           .front = k->opts,
                           .front_only = slot == 0,
                           .pipeline = slot > 0 ? pipes[slot - 1] : TL_PIPELINE_REF};
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
    return k ? k->ir[0]->name : NULL;
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

// Setters shared by the targets: each takes arguments by parameter name.
typedef struct {
    tl_status_t (*tensor)(void *t, const char *name, tl_tensor_t *v);
    tl_status_t (*i)(void *t, const char *name, int64_t v);
    tl_status_t (*f)(void *t, const char *name, double v);
} setters_t;

static tl_status_t exec_tensor(void *x, const char *n, tl_tensor_t *v)
{
    return tl_exec_set_tensor(x, n, v);
}
static tl_status_t exec_int(void *x, const char *n, int64_t v)
{
    return tl_exec_set_int(x, n, v);
}
static tl_status_t exec_float(void *x, const char *n, double v)
{
    return tl_exec_set_float(x, n, v);
}
static tl_status_t cpu_tensor(void *c, const char *n, tl_tensor_t *v)
{
    return tl_cpu_set_tensor(c, n, v);
}
static tl_status_t cpu_int(void *c, const char *n, int64_t v)
{
    return tl_cpu_set_int(c, n, v);
}
static tl_status_t cpu_float(void *c, const char *n, double v)
{
    return tl_cpu_set_float(c, n, v);
}

static tl_status_t set_args(const setters_t *set, void *t, const tl_kernel_t *ir,
                            const tilec_value_t *values, tl_tensor_t **wrapped)
{
    tl_status_t st = TL_OK;
    for (int i = 0; st == TL_OK && i < ir->nparams; i++) {
        const tl_param_t *p = &ir->params[i];
        if (p->buf) {
            if (wrapped[i]) st = set->tensor(t, p->name, wrapped[i]);
        } else if (tl_dtype_is_float(p->var->dtype)) {
            st = set->f(t, p->name, values[i].f);
        } else {
            st = set->i(t, p->name, values[i].i);
        }
    }
    return st;
}

static tl_status_t launch(tilec_kernel_t *k, tilec_target_t target, const tl_kernel_t *ir,
                          const tilec_value_t *values, tl_tensor_t **wrapped, tilec_report_t *report)
{
    static const setters_t exec_set = {exec_tensor, exec_int, exec_float};
    static const setters_t cpu_set = {cpu_tensor, cpu_int, cpu_float};
    tl_diag_t *d = &k->ctx->diag;
    tl_status_t st;
    if (target == TILEC_TARGET_CPU) {
        tl_cpu_t *c;
        if ((st = tl_cpu_create(&c, ir, NULL, d)) != TL_OK) return st;
        st = set_args(&cpu_set, c, ir, values, wrapped);
        if (st == TL_OK) st = tl_cpu_run(c);
        tl_cpu_destroy(c);
        return st;
    }
    if (target == TILEC_TARGET_SIM) {
        tl_sim_t *s;
        if ((st = tl_sim_create(&s, ir, &k->sim, d)) != TL_OK) return st;
        st = set_args(&exec_set, tl_sim_exec(s), ir, values, wrapped);
        if (st == TL_OK) st = tl_sim_run(s);
        if (report) {
            const tl_sim_report_t *r = tl_sim_report(s);
            report->cycles = r->cycles;
            report->time_us = r->time_us;
            report->races = r->nraces + r->nerrors;
            report->benign_races = r->nbenign;
            tl_buf_t b;
            tl_buf_init(&b);
            tl_sim_report_json(s, &b);
            report->json = tl_buf_take(&b);
        }
        tl_sim_destroy(s);
        return st;
    }
    tl_exec_t *x;
    if ((st = tl_exec_create(&x, ir, NULL, d)) != TL_OK) return st;
    st = set_args(&exec_set, x, ir, values, wrapped);
    if (st == TL_OK) st = tl_exec_run(x);
    tl_exec_destroy(x);
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
    if (st == TL_OK) st = launch(k, target, ir, values, wrapped, report);
    if (report) report->seconds = now() - t0;
    for (int i = 0; i < ir->nparams; i++) tl_tensor_destroy(wrapped[i]);
    free(wrapped);
    return (tilec_status_t)st;
}
