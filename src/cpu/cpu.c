// The CPU backend's API (cpu.h): creating a kernel object (analysis by the
// reference executor, C generation, JIT), arguments, and runs over the pool.
#include "cpu/cpu_int.h"

#include <inttypes.h>
#include <stdlib.h>

static tl_status_t exec_for(const tl_kernel_t *k, tl_exec_t **x, tl_diag_t *d)
{
    // As `tilec run`: the reference semantics do not depend on scratchpad sizes.
    tl_exec_opts_t eo = {0};
    for (int s = 0; s < TL_SCOPE_COUNT; s++) eo.capacity[s] = 64 << 20;
    return tl_exec_create(x, k, &eo, d);
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
    char key[40];
    tl_status_t st;
    if ((st = exec_for(k, &c->x, d)) || (st = tl_cgen_module(k, c->x, &c->gen, d)) ||
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
    c->alias_plan = tl_alias_plan(k, c->x);
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
    tl_exec_destroy(c->x);
    free(c);
}

tl_status_t tl_cpu_set_tensor(tl_cpu_t *c, const char *name, tl_tensor_t *t)
{
    return tl_exec_set_tensor(c->x, name, t);
}

tl_status_t tl_cpu_set_int(tl_cpu_t *c, const char *name, int64_t v)
{
    return tl_exec_set_int(c->x, name, v);
}

tl_status_t tl_cpu_set_float(tl_cpu_t *c, const char *name, double v)
{
    return tl_exec_set_float(c->x, name, v);
}

tl_status_t tl_cpu_set_dim(tl_cpu_t *c, const char *name, int64_t v)
{
    return tl_exec_set_dim(c->x, name, v);
}

tl_tensor_t *tl_cpu_tensor(tl_cpu_t *c, const char *name)
{
    return tl_exec_tensor(c->x, name);
}

tl_tensor_t *tl_cpu_take_tensor(tl_cpu_t *c, const char *name)
{
    return tl_exec_take_tensor(c->x, name);
}

int64_t tl_cpu_num_blocks(const tl_cpu_t *c)
{
    return tl_exec_num_blocks(c->x);
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
    tl_exec_t *x = c->x;
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
        if ((v->kind != TL_VAR_DIM && v->kind != TL_VAR_PARAM) || !x->gset[v->id]) continue;
        tl_num_t n = tl_exec_cast(x->globals[v->id], v->dtype);
        c->gi[v->id] = n.i;
        c->gf[v->id] = n.f;
    }
    for (int i = 0; i < k->buffers.len; i++) {
        const tl_tensor_t *t = x->gm[i];
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
    if (!st && !w->st) st = tl_cpurt_run_blocks(w, j->resident > 1 ? 0 : t);
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

tl_status_t tl_cpu_run(tl_cpu_t *c)
{
    tl_exec_t *x = c->x;
    tl_status_t st = tl_exec_bind(x);
    if (st) return st;
    int64_t n = x->nblocks;
    if (x->all_resident && n > 64)
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
    atomic_store(&c->failed, 0);
    job_t j = {c, x->all_resident ? (int)n : 1};
    tl_pool_run(c->pool, x->all_resident ? 1 : n, task, &j);
    st = collect(c);
done:
    free_env(c);
    for (int i = 0; i < c->k->buffers.len; i++)
        if (x->gm_back[i]) copy_back(x->gm_back[i], x->gm[i]);
    return st;
}

tl_status_t tl_cpu_emit(const tl_kernel_t *k, tl_buf_t *out, tl_diag_t *d)
{
    tl_exec_t *x;
    tl_status_t st = exec_for(k, &x, d);
    if (st) return st;
    tl_cgen_result_t r;
    if (!(st = tl_cgen_module(k, x, &r, d))) {
        char *s = tl_cgen_export(&r, "(not compiled)");
        tl_buf_puts(out, s ? s : "");
        free(s);
        tl_cgen_free(&r);
    }
    tl_exec_destroy(x);
    return st;
}
