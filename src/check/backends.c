// Check targets (check.h): a backend of the table run on a check's inputs,
// with what it measured for reports (`tilec demo`, the tests, bench_sync).
#include "check/check.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

// Static counts of the syncs the passes inserted, by kind.
static void count_inserted(const tl_stmt_t *s, int64_t *n)
{
    if (!s) return;
    switch (s->kind) {
    case TL_ST_SEQ:
        for (int i = 0; i < s->seq.n; i++) count_inserted(s->seq.items[i], n);
        break;
    case TL_ST_FOR: count_inserted(s->for_.body, n); break;
    case TL_ST_WHILE: count_inserted(s->while_.body, n); break;
    case TL_ST_IF:
        count_inserted(s->if_.then_, n);
        count_inserted(s->if_.else_, n);
        break;
    case TL_ST_SCOPE: count_inserted(s->scope.body, n); break;
    case TL_ST_SYNC:
        if (s->inserted) n[s->sync.kind]++;
        break;
    default: break;
    }
}

tl_check_target_t tl_check_target(const char *name)
{
    tl_check_target_t t = {.be = tl_backend_find(name)};
    t.opts.ref.warn_uninit = true; // a kernel must not read scratchpad bytes it never wrote
    tl_exec_opts_unbounded(&t.opts.ref);
    return t;
}

static void write_trace(const tl_check_target_t *t, void *self, tl_diag_t *d)
{
    tl_buf_t b;
    tl_buf_init(&b);
    t->be->write(self, TL_BACKEND_TRACE, &b);
    FILE *f = fopen(t->trace_path, "w");
    if (!f || fwrite(tl_buf_cstr(&b), 1, b.len, f) != b.len)
        tl_diag_warning(d, (tl_loc_t){0}, "cannot write the trace to %s", t->trace_path);
    if (f) fclose(f);
    tl_buf_free(&b);
}

tl_status_t tl_check_backend(tl_check_target_t *t, const tl_kernel_t *k, tl_check_io_t *io,
                             tl_diag_t *d)
{
    const tl_backend_t *be = t->be;
    memset(&t->report, 0, sizeof t->report);
    memset(t->inserted, 0, sizeof t->inserted);
    count_inserted(k->body, t->inserted);
    tl_backend_opts_t opts = t->opts;
    opts.sim.trace = t->trace_path != NULL;
    tl_bind_t *args = NULL;
    void *self = NULL;
    double t0 = now();
    tl_status_t st = be->create(&self, k, &opts, d);
    t->compile_seconds = now() - t0;
    if (st == TL_OK) st = tl_bind_create(&args, k, d);
    for (int p = 0; p < k->nparams && st == TL_OK; p++)
        if (io->tensors[p]) st = tl_bind_set_tensor(args, k->params[p].name, io->tensors[p]);
    for (int i = 0; i < k->dims.len && st == TL_OK; i++) {
        const tl_var_t *v = k->dims.items[i];
        if (io->dim_known[v->id]) st = tl_bind_set_dim(args, v->name, io->dims[v->id]);
    }
    int repeats = t->repeats > 0 ? t->repeats : 1;
    t->run_seconds = -1;
    for (int i = 0; i < repeats && st == TL_OK; i++) {
        double t1 = now();
        st = be->run(self, args);
        double dt = now() - t1;
        if (t->run_seconds < 0 || dt < t->run_seconds) t->run_seconds = dt;
    }
    if (self) {
        tl_backend_report_t r;
        be->report(self, &r);
        if (r.sim) {
            t->report = *r.sim;
            t->report.races = NULL; // owned by the backend
            t->report.errors = NULL;
        }
        if (t->trace_path && (st == TL_OK || st == TL_ERR_RACE)) write_trace(t, self, d);
    }
    // Races and misuse are in the report (and the diag); the values are still compared.
    if (st == TL_ERR_RACE) st = TL_OK;
    for (int p = 0; p < k->nparams && st == TL_OK; p++) {
        if (io->tensors[p] || !k->params[p].buf) continue;
        io->tensors[p] = tl_bind_take_tensor(args, k->params[p].name);
        io->owned[p] = io->tensors[p] != NULL;
    }
    be->destroy(self);
    tl_bind_destroy(args);
    return st;
}
