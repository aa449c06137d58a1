// The simulator and the native CPU backend as check backends (the reference
// executor's is in check.c), with what they measured for reports.
#include "check/backends.h"

#include <string.h>
#include <time.h>

#include "cpu/cpu.h"
#include "npu/sim.h"

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

tl_status_t tl_check_backend_sim(void *arg, const tl_kernel_t *k, tl_check_io_t *io, tl_diag_t *d)
{
    tl_check_sim_info_t *info = arg;
    tl_sim_opts_t so = {0};
    if (info) {
        memset(&info->report, 0, sizeof info->report);
        memset(info->inserted, 0, sizeof info->inserted);
        so.trace = info->trace_path != NULL;
        so.arch = info->arch;
        count_inserted(k->body, info->inserted);
    }
    tl_sim_t *s;
    tl_status_t st = tl_sim_create(&s, k, &so, d);
    if (st != TL_OK) return st;
    tl_exec_t *x = tl_sim_exec(s);
    for (int p = 0; p < k->nparams && st == TL_OK; p++)
        if (io->tensors[p]) st = tl_exec_set_tensor(x, k->params[p].name, io->tensors[p]);
    for (int i = 0; i < k->dims.len && st == TL_OK; i++) {
        const tl_var_t *v = k->dims.items[i];
        if (io->dim_known[v->id]) st = tl_exec_set_dim(x, v->name, io->dims[v->id]);
    }
    double t0 = now();
    if (st == TL_OK) st = tl_sim_run(s);
    const tl_sim_report_t *r = tl_sim_report(s);
    if (info) {
        info->seconds = now() - t0;
        info->report = *r;
        info->report.races = NULL; // owned by the simulator
        info->report.errors = NULL;
        if (info->trace_path && (st == TL_OK || st == TL_ERR_RACE)) {
            tl_buf_t b;
            tl_buf_init(&b);
            tl_sim_trace_json(s, &b);
            FILE *f = fopen(info->trace_path, "w");
            if (!f || fwrite(tl_buf_cstr(&b), 1, b.len, f) != b.len)
                tl_diag_warning(d, (tl_loc_t){0}, "cannot write the trace to %s", info->trace_path);
            if (f) fclose(f);
            tl_buf_free(&b);
        }
    }
    // Races and misuse are in the report (and the diag); the values are still compared.
    if (st == TL_ERR_RACE) st = TL_OK;
    for (int p = 0; p < k->nparams && st == TL_OK; p++) {
        if (io->tensors[p] || !k->params[p].buf) continue;
        io->tensors[p] = tl_exec_take_tensor(x, k->params[p].name);
        io->owned[p] = io->tensors[p] != NULL;
    }
    tl_sim_destroy(s);
    return st;
}

tl_status_t tl_check_backend_cpu(void *arg, const tl_kernel_t *k, tl_check_io_t *io, tl_diag_t *d)
{
    tl_check_cpu_info_t *info = arg;
    tl_cpu_opts_t co = {0};
    if (info) co.threads = info->threads;
    double t0 = now();
    tl_cpu_t *c;
    tl_status_t st = tl_cpu_create(&c, k, &co, d);
    if (info) info->compile_seconds = now() - t0;
    if (st != TL_OK) return st;
    for (int p = 0; p < k->nparams && st == TL_OK; p++)
        if (io->tensors[p]) st = tl_cpu_set_tensor(c, k->params[p].name, io->tensors[p]);
    for (int i = 0; i < k->dims.len && st == TL_OK; i++) {
        const tl_var_t *v = k->dims.items[i];
        if (io->dim_known[v->id]) st = tl_cpu_set_dim(c, v->name, io->dims[v->id]);
    }
    int repeats = info && info->repeats > 0 ? info->repeats : 1;
    double best = -1;
    for (int i = 0; i < repeats && st == TL_OK; i++) {
        double t1 = now();
        st = tl_cpu_run(c);
        double dt = now() - t1;
        if (best < 0 || dt < best) best = dt;
    }
    if (info) info->run_seconds = best;
    for (int p = 0; p < k->nparams && st == TL_OK; p++) {
        if (io->tensors[p] || !k->params[p].buf) continue;
        io->tensors[p] = tl_cpu_take_tensor(c, k->params[p].name);
        io->owned[p] = io->tensors[p] != NULL;
    }
    tl_cpu_destroy(c);
    return st;
}
