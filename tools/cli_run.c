// A kernel run on a backend, shared by `tilec run` and `tilec sim`: the
// compile driver, the inputs, the backend interface and the outputs.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli_io.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

// --repeat N: N more runs, each on fresh copies of the inputs (an in-place
// kernel changes what it is given) made outside the timing; the first run,
// whose outputs were written and checked, was the warm-up.
static tl_status_t timed_repeats(cli_run_t *r, const tl_kernel_t *k, cli_io_t *io, tl_diag_t *d)
{
    double *times = calloc((size_t)r->repeat, sizeof *times);
    tl_tensor_t **copies = calloc((size_t)k->nparams + 1, sizeof *copies);
    tl_tensor_t **given = io->tensors;
    tl_status_t st = times && copies ? TL_OK : TL_ERR_NOMEM;
    for (int i = 0; i < r->repeat && st == TL_OK; i++) {
        for (int p = 0; p < k->nparams && st == TL_OK; p++) {
            tl_tensor_t *g = given[p];
            if (!g) continue;
            st = tl_tensor_create(&copies[p], g->dtype, g->ndim, g->shape, d);
            if (st == TL_OK) memcpy(copies[p]->data, g->data, tl_tensor_nbytes(g));
        }
        tl_bind_t *args = NULL;
        io->tensors = copies;
        if (st == TL_OK && (st = tl_bind_create(&args, k, d)) == TL_OK &&
            (st = cli_io_bind(k, io, args)) == TL_OK && (st = tl_bind_check(args)) == TL_OK) {
            double t0 = now();
            st = r->be->run(r->self, args);
            times[i] = now() - t0;
        }
        io->tensors = given;
        tl_bind_destroy(args);
        for (int p = 0; p < k->nparams; p++) {
            tl_tensor_destroy(copies[p]);
            copies[p] = NULL;
        }
    }
    if (st == TL_OK) {
        qsort(times, (size_t)r->repeat, sizeof *times, by_value);
        printf("repeat: %d runs after the first: median %.6f s, min %.6f s, max %.6f s\n",
               r->repeat, times[r->repeat / 2], times[0], times[r->repeat - 1]);
    }
    free(times);
    free(copies);
    return st;
}

int cli_run(cli_opts_t *o, cli_io_t *io, cli_run_t *r)
{
    tl_arena_t arena;
    tl_arena_init(&arena);
    tl_diag_t d;
    tl_diag_init(&d);
    const tl_backend_t *be = r->be;
    tl_bind_t *args = NULL;
    r->self = NULL;
    int rc = 2;
    tl_kernel_t *k = cli_compile(&arena, o, (tl_compile_opts_t){.pipeline = be->pipeline}, &d);
    r->k = k;
    if (!k || cli_io_prepare(k, io, &d) != TL_OK || cli_io_save_inputs(k, io, &d) != TL_OK)
        goto out;
    double t0 = now();
    if (be->create(&r->self, k, &r->opts, &d) != TL_OK) goto out;
    if (r->created) r->created(r, now() - t0);
    // argument errors (an -i file's dtype or shape) are usage errors
    if (tl_bind_create(&args, k, &d) != TL_OK || cli_io_bind(k, io, args) != TL_OK ||
        tl_bind_check(args) != TL_OK)
        goto out;
    rc = 1;
    r->args = args;
    r->io = io;
    t0 = now();
    tl_status_t st = be->run(r->self, args);
    bool ok = r->ran ? r->ran(r, st, now() - t0) : true;
    if (st != TL_OK && st != TL_ERR_RACE) goto out; // the run itself failed: no outputs
    bool mismatch = false;
    // -o's files join --json's and --trace's (staged by `ran`); all are
    // renamed into place together, or none (a failed write removes them all)
    if (cli_io_finish(k, io, args, &d, &mismatch) != TL_OK || !ok ||
        cli_stage_finish(&io->stage, true, &d) != TL_OK)
        goto out;
    rc = mismatch || st != TL_OK ? 1 : 0;
    if (rc == 0 && r->repeat > 0 && timed_repeats(r, k, io, &d) != TL_OK) rc = 1;
out:
    fputs(tl_diag_text(&d), stderr);
    be->destroy(r->self);
    tl_bind_destroy(args);
    cli_io_free(io);
    tl_diag_free(&d);
    tl_arena_free(&arena);
    return rc;
}
