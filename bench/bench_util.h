// Helpers shared by the CPU-backend benchmarks (bench/bench_*.c): timing with
// medians, compiling a kernel of kernels/ for the cpu target, and random
// tensors. Benchmarks run from the repository root (`make bench`).
#ifndef TL_BENCH_UTIL_H
#define TL_BENCH_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "driver/backend.h"
#include "driver/compile.h"
#include "rt/rng.h"

static inline double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int bench_cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

// Median wall time of `reps` calls of fn(arg) after one warm-up call.
static inline double bench_median(void (*fn)(void *), void *arg, int reps)
{
    double t[256];
    if (reps > 256) reps = 256;
    fn(arg);
    for (int i = 0; i < reps; i++) {
        double t0 = bench_now();
        fn(arg);
        t[i] = bench_now() - t0;
    }
    qsort(t, (size_t)reps, sizeof t[0], bench_cmp);
    return t[reps / 2];
}

static inline void bench_die(tl_diag_t *d, const char *what)
{
    fprintf(stderr, "%s%s failed\n", tl_diag_text(d), what);
    exit(1);
}

// Front end + cpu pipeline for `file` (factory `kernel`, NULL: the only one)
// with factory arguments "NAME=VALUE" (NULL-terminated).
static inline tl_kernel_t *bench_kernel(tl_arena_t *arena, const char *file, const char *kernel,
                                        const char *const *args, tl_diag_t *d)
{
    static char names[16][64];
    tl_front_arg_t fa[16];
    int n = 0;
    for (; args && args[n] && n < 16; n++)
        if (!tl_compile_arg(args[n], names[n], sizeof names[n], &fa[n])) bench_die(d, args[n]);
    tl_compile_opts_t o = {.path = file,
                           .front = {.kernel = kernel, .nargs = n, .args = fa},
                           .pipeline = TL_PIPELINE_CPU,
                           .no_verify = true};
    tl_kernel_t *k = NULL;
    if (tl_compile(arena, &o, d, &k)) bench_die(d, file);
    return k;
}

// A kernel on the cpu backend, through the backend interface, with its arguments.
typedef struct {
    const tl_backend_t *be;
    void *self;
    tl_bind_t *args;
    tl_diag_t *d;
} bench_target_t;

static inline bench_target_t *bench_cpu(const tl_kernel_t *k, tl_diag_t *d)
{
    bench_target_t *t = calloc(1, sizeof *t);
    if (!t) bench_die(d, "allocation");
    t->be = tl_backend_find("cpu");
    t->d = d;
    if (t->be->create(&t->self, k, NULL, d)) bench_die(d, "cpu compile");
    if (tl_bind_create(&t->args, k, d)) bench_die(d, "arguments");
    return t;
}

static inline void bench_set(bench_target_t *t, const char *name, tl_tensor_t *x)
{
    if (tl_bind_set_tensor(t->args, name, x)) bench_die(t->d, name);
}

static inline tl_tensor_t *bench_out(bench_target_t *t, const char *name)
{
    return tl_bind_tensor(t->args, name);
}

// One run of a bench_target_t (for bench_median).
static inline void bench_run(void *arg)
{
    bench_target_t *t = arg;
    if (t->be->run(t->self, t->args)) bench_die(t->d, "tilec run");
}

static inline void bench_free(bench_target_t *t)
{
    t->be->destroy(t->self);
    tl_bind_destroy(t->args);
    free(t);
}

static inline tl_tensor_t *bench_tensor(tl_dtype_t t, int nd, const int64_t *shape, uint64_t seed,
                                        double lo, double hi, tl_diag_t *d)
{
    tl_tensor_t *x;
    if (tl_tensor_create(&x, t, nd, shape, d)) bench_die(d, "tensor");
    tl_rng_t r;
    tl_rng_seed(&r, seed);
    if (tl_dtype_is_float(t) ? tl_rng_fill_uniform(&r, x, lo, hi, d)
                             : tl_rng_fill_int(&r, x, (int64_t)lo, (int64_t)hi, d))
        bench_die(d, "fill");
    return x;
}

#endif
