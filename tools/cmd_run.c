// tilec run FILE [-k NAME] [-a NAME=VALUE]... [-d DIM=VALUE]... [-i PARAM=FILE.npy]...
//           [--fill PARAM=SPEC]... [--seed N] [-o DIR] [--expect PARAM=FILE]...
//           [--rtol R] [--atol A] [--warn-uninit] [--target ref|cpu] [-j N] [--cflags FLAGS]
// Runs a kernel with the reference semantics (the functional executor), or
// natively (--target cpu: generated C, compiled and cached, on -j N threads).
// Exit status: 0 ok, 1 an --expect mismatch or a run-time error, 2 a compile or usage error.
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <stdlib.h>

#include "cli_io.h"
#include "cpu/cpu.h"
#include "exec/exec.h"

typedef struct {
    bool warn_uninit;
    bool cpu;
    int threads;
    const char *cflags;
} run_opts_t;

static bool run_option(cli_io_t *io, const char *opt, const char *val)
{
    run_opts_t *r = io->extra;
    if (!strcmp(opt, "--warn-uninit")) {
        r->warn_uninit = true;
        return true;
    }
    if (!strcmp(opt, "--target") && val && (!strcmp(val, "cpu") || !strcmp(val, "ref"))) {
        r->cpu = !strcmp(val, "cpu");
        return true;
    }
    if (!strcmp(opt, "-j") && val && atoi(val) > 0) {
        r->threads = atoi(val);
        return true;
    }
    if (!strcmp(opt, "--cflags") && val) {
        r->cflags = val;
        return true;
    }
    return false;
}

static tl_tensor_t *get_tensor(void *arg, const char *name)
{
    return tl_exec_tensor(arg, name);
}

static tl_tensor_t *get_cpu_tensor(void *arg, const char *name)
{
    return tl_cpu_tensor(arg, name);
}

static double now(void);

// --target cpu: the same inputs and checks, run by the CPU backend.
static int run_cpu(tl_kernel_t *k, cli_io_t *io, const run_opts_t *r, tl_diag_t *d)
{
    tl_cpu_opts_t co = {.threads = r->threads};
    co.jit.cflags = r->cflags;
    tl_cpu_t *c = NULL;
    int rc = 1;
    double t0 = now();
    if (tl_cpu_create(&c, k, &co, d) != TL_OK) return 2;
    double t1 = now();
    const tl_jit_t *j = tl_cpu_jit(c);
    printf("compiled %s for the cpu in %.3f s (%s)\n", k->name, t1 - t0,
           j->cached ? "cached" : "cc");
    for (int p = 0; p < k->nparams; p++)
        if (io->tensors[p] && tl_cpu_set_tensor(c, k->params[p].name, io->tensors[p]) != TL_OK)
            goto out;
    for (int i = 0; i < io->ndims; i++)
        if (tl_cpu_set_dim(c, io->dim_names[i], io->dim_values[i]) != TL_OK) goto out;
    t0 = now();
    if (tl_cpu_run(c) != TL_OK) goto out;
    t1 = now();
    printf("ran %s on the cpu: %lld blocks in %.6f s\n", k->name, (long long)tl_cpu_num_blocks(c),
           t1 - t0);
    bool mismatch;
    if (cli_io_finish(k, io, get_cpu_tensor, c, d, &mismatch) != TL_OK) goto out;
    rc = mismatch ? 1 : 0;
out:
    tl_cpu_destroy(c);
    return rc;
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
    run_opts_t ro = {0};
    cli_io_t io = {.extra = &ro};
    if (!cli_io_parse(&o, &io, run_option)) return 2;

    tl_arena_t arena;
    tl_arena_init(&arena);
    tl_diag_t d;
    tl_diag_init(&d);
    int rc = 2;
    tl_exec_t *x = NULL;
    tl_compile_opts_t how = {.pipeline = ro.cpu ? TL_PIPELINE_CPU : TL_PIPELINE_REF};
    tl_kernel_t *k = cli_compile(&arena, &o, how, &d);
    if (!k) goto out;
    rc = 1;
    if (cli_io_prepare(k, &io, &d) != TL_OK) {
        rc = 2;
        goto out;
    }
    if (ro.cpu) {
        rc = run_cpu(k, &io, &ro, &d);
        goto out;
    }
    tl_exec_opts_t eo = {0};
    eo.warn_uninit = ro.warn_uninit;
    // The reference semantics do not depend on scratchpad sizes: give every
    // scope room (the simulator and the memory planner check the real ones).
    for (int s = 0; s < TL_SCOPE_COUNT; s++) eo.capacity[s] = 64 << 20;
    if (tl_exec_create(&x, k, &eo, &d) != TL_OK) goto out;
    for (int p = 0; p < k->nparams; p++)
        if (io.tensors[p] && tl_exec_set_tensor(x, k->params[p].name, io.tensors[p]) != TL_OK)
            goto out;
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
