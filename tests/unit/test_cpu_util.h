// Helpers shared by the CPU-target tests that compare with the reference.
#ifndef TL_TESTS_TEST_CPU_UTIL_H
#define TL_TESTS_TEST_CPU_UTIL_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#include "../test.h"
#include "cpu/cpu.h"
#include "exec/exec.h"
#include "driver/compile.h"
#include "rt/tensor.h"

// How many elements of `got` differ from `want` (same dtype and size) in their
// bits, NaNs of any payload counting as equal; the first five are reported as
// failures of t, each with `what` and its index.
static inline int tl_test_cpu_diff(tl_test_t *t, const char *what, const tl_tensor_t *want,
                                   const tl_tensor_t *got)
{
    size_t n = tl_tensor_numel(want), sz = (size_t)tl_dtype_size(want->dtype);
    int bad = 0;
    for (size_t i = 0; i < n; i++) {
        bool nan = isnan(tl_tensor_get_flat(want, i)) && isnan(tl_tensor_get_flat(got, i));
        if (!nan && memcmp((uint8_t *)want->data + i * sz, (uint8_t *)got->data + i * sz, sz) &&
            bad++ < 5)
            tl_test_fail(t, __FILE__, __LINE__, "%s[%zu]: cpu %g, reference %g", what, i,
                         tl_tensor_get_flat(got, i), tl_tensor_get_flat(want, i));
    }
    return bad;
}

// Occurrences of `what` in s (the generated C).
static inline int tl_test_count(const char *s, const char *what)
{
    int n = 0;
    for (const char *p = s; (p = strstr(p, what)); p += strlen(what)) n++;
    return n;
}

// Kernel source `src` (file name `name`, factory arguments args[0..nargs))
// through the front end and the cpu pipeline (modules cached under the
// test's directory); NULL on an error (in d).
static inline tl_kernel_t *tl_test_cpu_kernel(tl_arena_t *arena, tl_diag_t *d, const char *name,
                                              const char *src, int nargs, tl_front_arg_t *args)
{
    tl_compile_opts_t o = {.path = name,
                           .source = src,
                           .front = {.nargs = nargs, .args = args},
                           .pipeline = TL_PIPELINE_CPU};
    tl_kernel_t *k = NULL;
    setenv("TILEC_CACHE_DIR", tl_test_tmp("cache"), 0);
    return tl_compile(arena, &o, d, &k) == TL_OK ? k : NULL;
}

// The reference executor and the cpu module (compiled with cflags; NULL:
// the default flags) of kernel k.
static inline bool tl_test_cpu_pair(const tl_kernel_t *k, const char *cflags, tl_diag_t *d,
                                    tl_exec_t **x, tl_cpu_t **c)
{
    tl_exec_opts_t eo = {0};
    tl_cpu_opts_t co = {0};
    co.jit.cflags = cflags;
    *c = NULL;
    if (tl_exec_create(x, k, &eo, d) != TL_OK) return false;
    return tl_cpu_create(c, k, &co, d) == TL_OK;
}

// Binds the inputs ins[i] = in[i] on the reference executor x and the cpu
// module c, runs both and compares the outputs outs[0..nout) (tl_test_cpu_diff,
// `label` before each name). False when a run fails.
static inline bool tl_test_cpu_compare(tl_test_t *t, tl_exec_t *x, tl_cpu_t *c,
                                       const char *const *ins, tl_tensor_t *const *in, int nin,
                                       const char *const *outs, int nout, const char *label)
{
    for (int i = 0; i < nin; i++) {
        tl_exec_set_tensor(x, ins[i], in[i]);
        tl_bind_set_tensor(tl_cpu_args(c), ins[i], in[i]);
    }
    if (tl_exec_run(x) != TL_OK || tl_cpu_run(c) != TL_OK) return false;
    for (int o = 0; o < nout; o++) {
        tl_tensor_t *want = tl_exec_tensor(x, outs[o]), *got = tl_bind_tensor(tl_cpu_args(c), outs[o]);
        char what[96];
        snprintf(what, sizeof what, "%s %s", label, outs[o]);
        if (!want || !got) {
            tl_test_fail(t, __FILE__, __LINE__, "%s: no output", what);
            continue;
        }
        if (tl_test_cpu_diff(t, what, want, got))
            tl_test_fail(t, __FILE__, __LINE__, "%s differs", what);
    }
    return true;
}

#endif
