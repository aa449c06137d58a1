// The CPU backend's API (cpu.h): creating a kernel object (the analyses it
// shares with the reference executor, C generation, JIT), arguments, and runs
// over the pool.
#include "cpu/cpu_int.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>

// Where k's statements run and where its buffers sit: the reference executor's
// analyses (ir/side.h, exec/layout.h), so that both run the same program.
static tl_status_t analyse(const tl_kernel_t *k, tl_side_map_t **sides, tl_layout_t *layout,
                           tl_diag_t *d)
{
    int64_t cap[TL_SCOPE_COUNT]; // as `tilec run`: sizes do not change the semantics
    tl_layout_unbounded(cap);
    tl_status_t st;
    if ((st = tl_ir_verify(k, d)) || (st = tl_side_map_build(k, tl_side_run_mode(k), d, sides)))
        return st;
    return tl_layout_build(layout, k, cap, d);
}

tl_status_t tl_cpu_create(tl_cpu_t **out, const tl_kernel_t *k, const tl_cpu_opts_t *o,
                          tl_diag_t *d)
{
    *out = NULL;
    tl_cpu_t *c = calloc(1, sizeof *c);
    if (!c) return tl_diag_fail(d, TL_ERR_NOMEM, "out of memory");
    c->k = k;
    c->d = d;
    if (o) c->opts = *o;
    pthread_mutex_init(&c->warn_lock, NULL);
    char key[40];
    tl_status_t st;
    c->residual = calloc(CPU_RESIDUAL_MAX, sizeof *c->residual);
    if (!c->residual) {
        st = tl_diag_fail(d, TL_ERR_NOMEM, "out of memory");
        goto fail;
    }
    c->lanes = tl_side_block_lanes(k);
    c->dev = k->config.auto_cv_combine;
    if ((st = tl_bind_create(&c->own_args, k, d)) || (st = analyse(k, &c->sides, &c->layout, d)) ||
        (st = tl_cgen_module(k, c->sides, &c->layout, &c->gen, d)) ||
        (st = tl_jit_key(c->gen.source, &c->opts.jit, key, d)))
        goto fail;
    c->source = tl_cgen_export(&c->gen, key);
    if (!c->source) {
        st = tl_diag_fail(d, TL_ERR_NOMEM, "out of memory");
        goto fail;
    }
    if (!c->opts.jit.pch_header) c->opts.jit.pch_header = c->gen.pch_header;
    if ((st = tl_jit_load(c->source, key, &c->opts.jit, &c->jit, d))) goto fail;
    c->mod = c->jit.module;
    if ((st = tl_pool_create(&c->pool, c->opts.threads, d))) goto fail;
    c->all_resident = tl_side_all_resident(c->sides);
    c->uses_cross = tl_flags_uses_cross(c->k->body);
    c->alias_plan = tl_alias_plan(k, &c->layout);
    c->args = c->own_args;
    *out = c;
    return TL_OK;
fail:
    tl_cpu_destroy(c);
    return st;
}

void tl_cpu_destroy(tl_cpu_t *c)
{
    if (!c) return;
    tl_pool_destroy(c->pool);
    for (int i = 0; c->workers && i < c->nworkers; i++) tl_cpurt_worker_free(&c->workers[i]);
    free(c->workers);
    free(c->alias_plan);
    tl_jit_unload(&c->jit);
    tl_cgen_free(&c->gen);
    free(c->source);
    tl_side_map_free(c->sides);
    tl_layout_free(&c->layout);
    tl_bind_destroy(c->own_args);
    pthread_mutex_destroy(&c->warn_lock);
    free(c->warned);
    free(c->residual);
    free(c);
}

void tl_cpu_warn_once(tl_cpu_t *c, const void *stmt, tl_loc_t loc, const char *fmt, ...)
{
    pthread_mutex_lock(&c->warn_lock);
    bool seen = false;
    for (int i = 0; i < c->nwarned && !seen; i++) seen = c->warned[i] == stmt;
    if (!seen && c->nwarned == c->capwarned) {
        int cap = c->capwarned ? 2 * c->capwarned : 8;
        const void **w = realloc(c->warned, (size_t)cap * sizeof *w);
        if (w) c->warned = w, c->capwarned = cap;
    }
    if (!seen && c->nwarned < c->capwarned) {
        c->warned[c->nwarned++] = stmt;
        va_list ap;
        va_start(ap, fmt);
        tl_diag_vreport(c->d, TL_SEV_WARNING, loc, TL_OK, fmt, ap);
        va_end(ap);
    }
    pthread_mutex_unlock(&c->warn_lock);
}

tl_bind_t *tl_cpu_args(tl_cpu_t *c)
{
    return c->args;
}

void tl_cpu_use_args(tl_cpu_t *c, tl_bind_t *args)
{
    c->args = args ? args : c->own_args;
}

int64_t tl_cpu_parts_shared(const tl_cpu_t *c)
{
    return tl_pool_helped(c->pool);
}

const char *tl_cpu_source(const tl_cpu_t *c)
{
    return c->source;
}

const tl_jit_t *tl_cpu_jit(const tl_cpu_t *c)
{
    return &c->jit;
}

static void free_env(tl_cpu_t *c)
{
    free(c->gi);
    free(c->gf);
    free(c->gm);
    free(c->gshape);
    free(c->gndim);
    c->gi = NULL, c->gf = NULL, c->gm = NULL, c->gshape = NULL, c->gndim = NULL;
}

static tl_status_t make_env(tl_cpu_t *c)
{
    const tl_kernel_t *k = c->k;
    size_t nv = (size_t)k->vars.len + 1, nb = (size_t)k->buffers.len + 1;
    c->gi = calloc(nv, sizeof *c->gi);
    c->gf = calloc(nv, sizeof *c->gf);
    c->gm = calloc(nb, sizeof *c->gm);
    c->gshape = calloc(nb * TL_MAX_DIMS, sizeof *c->gshape);
    c->gndim = calloc(nb, sizeof *c->gndim);
    if (!c->gi || !c->gf || !c->gm || !c->gshape || !c->gndim)
        return tl_diag_fail(c->d, TL_ERR_NOMEM, "out of memory");
    for (int i = 0; i < k->vars.len; i++) {
        const tl_var_t *v = k->vars.items[i];
        if (v->kind == TL_VAR_DIM || v->kind == TL_VAR_PARAM)
            tl_bind_value(c->args, v, &c->gi[v->id], &c->gf[v->id]);
    }
    for (int i = 0; i < k->buffers.len; i++) {
        const tl_tensor_t *t = tl_bind_gm(c->args, k->buffers.items[i]);
        if (!t) continue;
        c->gm[i] = t->data;
        c->gndim[i] = t->ndim;
        for (int d = 0; d < t->ndim; d++) c->gshape[i * TL_MAX_DIMS + d] = t->shape[d];
    }
    c->env = (tlc_env_t){c->gi, c->gf, c->gm, c->gshape, c->gndim};
    return TL_OK;
}

typedef struct {
    tl_cpu_t *c;
    int resident;
    int64_t nblocks;
    int cores; // > 0: task t runs the blocks of core t in order, carrying flags
} job_t;

static void task(void *arg, int64_t t, int thread)
{
    job_t *j = arg;
    tl_cpu_t *c = j->c;
    if (atomic_load(&c->failed)) return;
    cpu_worker_t *w = &c->workers[thread];
    tl_status_t st = TL_OK;
    if (w->ready && w->nblocks != j->resident) tl_cpurt_worker_free(w); // another grid
    if (!w->ready && (st = tl_cpurt_worker_init(c, w, j->resident))) w->ready = true;
    if (!st && w->run != c->run) tl_cpurt_worker_reset(w, c->run);
    if (!st && !w->st && j->cores) {
        tl_flags_xstate_t carry[TL_AGENT_COUNT] = {0};
        for (int64_t b = t; b < j->nblocks && !st && !atomic_load(&c->failed); b += j->cores)
            st = tl_cpurt_run_blocks(w, b, carry, b + j->cores >= j->nblocks);
    } else if (!st && !w->st) {
        st = tl_cpurt_run_blocks(w, j->resident > 1 ? 0 : t, NULL, true);
    }
    if (st) {
        w->st = st;
        atomic_store(&c->failed, 1);
    }
}

// Appends the messages of the worker whose failure came first (lowest block).
static tl_status_t collect(tl_cpu_t *c)
{
    cpu_worker_t *first = NULL;
    for (int i = 0; i < c->nworkers; i++) {
        cpu_worker_t *w = &c->workers[i];
        if (!w->st) continue;
        if (!first || (w->failed_block >= 0 &&
                       (first->failed_block < 0 || w->failed_block < first->failed_block)))
            first = w;
    }
    if (!first) return TL_OK;
    tl_diag_t *d = c->d;
    tl_buf_puts(&d->text, tl_diag_text(&first->diag));
    d->nerrors += TL_MAX(first->diag.nerrors, 1);
    d->nwarnings += first->diag.nwarnings;
    if (!d->first_error && first->diag.first_error)
        d->first_error = strdup(first->diag.first_error);
    return first->st;
}

tl_status_t tl_cpu_run(tl_cpu_t *c)
{
    tl_status_t st = tl_bind_check(c->args);
    if (st) return st;
    int64_t n = tl_bind_num_blocks(c->args);
    if (c->all_resident && n > 64)
        return tl_diag_report(c->d, TL_SEV_ERROR, c->k->loc, TL_ERR_RUNTIME,
                              "the kernel uses T.sync_all or mode-0 cross-core flags, which need "
                              "all %" PRId64 " blocks resident at once; at most 64 can be",
                              n);
    if (n <= 0) return TL_OK;
    if ((st = make_env(c))) goto done;
    if (!c->workers) { // kept from run to run: scratchpads are allocated once
        c->nworkers = tl_pool_size(c->pool);
        c->workers = calloc((size_t)c->nworkers, sizeof *c->workers);
        if (!c->workers) {
            st = tl_diag_fail(c->d, TL_ERR_NOMEM, "out of memory");
            goto done;
        }
    }
    c->run++;
    c->nwarned = 0;
    c->nresidual = 0;
    c->residual_block = INT64_MAX;
    atomic_store(&c->failed, 0);
    job_t j = {c, c->all_resident ? (int)n : 1, n, 0};
    int cores = tl_flags_cores(0);
    if (!c->all_resident && c->uses_cross && n > cores) j.cores = cores;
    tl_pool_run(c->pool, c->all_resident ? 1 : j.cores ? cores : n, task, &j);
    st = collect(c);
    if (!st) tl_cpu_warn_residual(c);
done:
    free_env(c);
    tl_bind_copy_back(c->args);
    return st;
}

tl_status_t tl_cpu_emit(const tl_kernel_t *k, tl_buf_t *out, tl_diag_t *d)
{
    tl_side_map_t *sides = NULL;
    tl_layout_t layout = {0};
    tl_cgen_result_t r;
    tl_status_t st = analyse(k, &sides, &layout, d);
    if (!st && !(st = tl_cgen_module(k, sides, &layout, &r, d))) {
        char *s = tl_cgen_export(&r, "(not compiled)");
        tl_buf_puts(out, s ? s : "");
        free(s);
        tl_cgen_free(&r);
    }
    tl_side_map_free(sides);
    tl_layout_free(&layout);
    return st;
}
