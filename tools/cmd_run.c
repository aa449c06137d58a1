// tilec run FILE [-k NAME] [-a NAME=VALUE]... [-d DIM=VALUE]... [-i PARAM=FILE.npy]...
//           [--fill PARAM=SPEC]... [--seed N] [-o DIR] [--expect PARAM=FILE]...
//           [--rtol R] [--atol A] [--warn-uninit]
// Runs a kernel with the reference semantics (the functional executor).
// Exit status: 0 ok, 1 an --expect mismatch or a run-time error, 2 a compile or usage error.
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cli_io.h"
#include "exec/exec.h"
#include "pass/pass.h"

static bool run_option(cli_io_t *io, const char *opt, const char *val)
{
    (void)val;
    if (!strcmp(opt, "--warn-uninit")) {
        *(bool *)io->extra = true;
        return true;
    }
    return false;
}

static tl_tensor_t *get_tensor(void *arg, const char *name)
{
    return tl_exec_tensor(arg, name);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int cmd_run(int argc, char **argv)
{
    cli_opts_t o;
    if (!cli_parse(argc, argv, &o, cli_io_takes_value)) return 2;
    bool warn_uninit = false;
    cli_io_t io = {.extra = &warn_uninit};
    if (!cli_io_parse(&o, &io, run_option)) return 2;

    tl_arena_t arena;
    tl_arena_init(&arena);
    tl_diag_t d;
    tl_diag_init(&d);
    int rc = 2;
    tl_exec_t *x = NULL;
    tl_kernel_t *k = cli_compile(&arena, &o, &d);
    if (!k) goto out;
    tl_pass_ctx_t pctx = {&d, NULL, NULL, true, false, false};
    if (tl_pass_run_pipeline(k, TL_PIPELINE_REF, &pctx) != TL_OK) goto out;
    rc = 1;
    if (cli_io_prepare(k, &io, &d) != TL_OK) {
        rc = 2;
        goto out;
    }
    tl_exec_opts_t eo = {0};
    eo.warn_uninit = warn_uninit;
    // The reference semantics do not depend on scratchpad sizes: give every
    // scope room (the simulator and the memory planner check the real ones).
    for (int s = 0; s < TL_SCOPE_COUNT; s++) eo.capacity[s] = 64 << 20;
    if (tl_exec_create(&x, k, &eo, &d) != TL_OK) goto out;
    for (int p = 0; p < k->nparams; p++)
        if (io.tensors[p] && tl_exec_set_tensor(x, k->params[p].name, io.tensors[p]) != TL_OK) goto out;
    for (int i = 0; i < io.ndims; i++)
        if (tl_exec_set_dim(x, io.dim_names[i], io.dim_values[i]) != TL_OK) goto out;
    double t0 = now();
    if (tl_exec_run(x) != TL_OK) goto out;
    double t1 = now();
    fputs(tl_exec_output(x), stdout);
    printf("ran %s: %lld blocks in %.3f s\n", k->name, (long long)tl_exec_num_blocks(x), t1 - t0);
    bool mismatch;
    if (cli_io_finish(k, &io, get_tensor, x, &d, &mismatch) != TL_OK) goto out;
    rc = mismatch ? 1 : 0;
out:
    fputs(tl_diag_text(&d), stderr);
    tl_exec_destroy(x);
    cli_io_free(&io);
    tl_diag_free(&d);
    tl_arena_free(&arena);
    return rc;
}
