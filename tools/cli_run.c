// A kernel run on a backend, shared by `tilec run` and `tilec sim`: the
// compile driver, the inputs, the backend interface and the outputs.
#include <stdio.h>
#include <time.h>

#include "cli_io.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
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
    if (!k || cli_io_prepare(k, io, &d) != TL_OK) goto out;
    double t0 = now();
    if (be->create(&r->self, k, &r->opts, &d) != TL_OK) goto out;
    if (r->created) r->created(r, now() - t0);
    rc = 1;
    if (tl_bind_create(&args, k, &d) != TL_OK || cli_io_bind(k, io, args) != TL_OK) goto out;
    t0 = now();
    tl_status_t st = be->run(r->self, args);
    bool ok = r->ran ? r->ran(r, st, now() - t0) : true;
    if (st != TL_OK && st != TL_ERR_RACE) goto out; // the run itself failed
    bool mismatch = false;
    if (cli_io_finish(k, io, args, &d, &mismatch) != TL_OK) goto out;
    rc = mismatch || st != TL_OK || !ok ? 1 : 0;
out:
    fputs(tl_diag_text(&d), stderr);
    be->destroy(r->self);
    tl_bind_destroy(args);
    cli_io_free(io);
    tl_diag_free(&d);
    tl_arena_free(&arena);
    return rc;
}
