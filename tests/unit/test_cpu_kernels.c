// The cross-backend check: every kernel case of src/check (all kernels under
// kernels/) runs on the reference executor and on the cpu target with the same
// inputs; integer outputs must be bit-identical, float outputs agree within
// the case's tolerances. The cpu results are also checked against the golden
// (alone for the cases marked cpu_only, too large for the reference executor).
#include "../test.h"

#include <stdlib.h>

#include "check/check.h"
#include "cpu/cpu.h"
#include "driver/compile.h"

static int count(const char *const *items)
{
    int n = 0;
    while (n < TL_CHECK_MAX_ITEMS && items[n]) n++;
    return n;
}

// The reference executor and the cpu target agree on the case's outputs.
static void against_reference(tl_test_t *t, const tl_check_case_t *c)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", tl_test_root(), c->file);
    tl_front_arg_t args[TL_CHECK_MAX_ITEMS];
    char names[TL_CHECK_MAX_ITEMS][64];
    int nargs = count(c->args);
    for (int i = 0; i < nargs; i++) tl_compile_arg(c->args[i], names[i], sizeof names[i], &args[i]);
    tl_compile_opts_t o = {.path = path,
                           .front = {.kernel = c->kernel, .nargs = nargs, .args = args},
                           .pipeline = TL_PIPELINE_CPU};
    tl_arena_t arena;
    tl_arena_init(&arena);
    tl_diag_t d;
    tl_diag_init(&d);
    tl_kernel_t *k = NULL;
    tl_check_io_t io = {0};
    tl_status_t st = tl_compile(&arena, &o, &d, &k);
    if (!st)
        st = tl_check_inputs(&io, k, count(c->dims), c->dims, count(c->fills), c->fills, 0, &d);
    tl_check_target_t ref_target = tl_check_target("ref"), cpu_target = tl_check_target("cpu");
    if (!st) st = tl_check_backend(&ref_target, k, &io, &d);
    tl_tensor_t *ref[64] = {0};
    for (int p = 0; !st && p < k->nparams; p++)
        if (k->params[p].buf && k->params[p].role == TL_ROLE_OUTPUT) {
            ref[p] = io.tensors[p];
            io.tensors[p] = NULL;
            io.owned[p] = false;
        }
    if (!st) st = tl_check_backend(&cpu_target, k, &io, &d);
    if (st) tl_test_fail(t, __FILE__, __LINE__, "%s: %s", c->name, tl_diag_text(&d));
    for (int p = 0; !st && p < k->nparams; p++) {
        if (!ref[p]) continue;
        bool is_float = tl_dtype_is_float(ref[p]->dtype);
        tl_compare_result_t cr;
        tl_diag_t cd;
        tl_diag_init(&cd);
        tl_status_t cs = tl_compare(io.tensors[p], ref[p], is_float ? c->rtol : 0,
                                    is_float ? c->atol : 0, &cr, &cd);
        if (cs != TL_OK) {
            tl_buf_t b;
            tl_buf_init(&b);
            tl_compare_format(&cr, &b);
            tl_test_fail(t, __FILE__, __LINE__, "%s: cpu and reference differ on '%s': %s", c->name,
                         k->params[p].name, tl_buf_cstr(&b));
            tl_buf_free(&b);
        }
        tl_diag_free(&cd);
    }
    for (int p = 0; p < 64; p++) tl_tensor_destroy(ref[p]);
    tl_check_io_free(&io);
    tl_diag_free(&d);
    tl_arena_free(&arena);
}

static void cross_backend(tl_test_t *t, void *arg)
{
    const tl_check_case_t *c = arg;
    if (c->slow && tl_test_sanitized()) {
        tl_test_skip(t, "slow case under sanitizers");
        return;
    }
    setenv("TILEC_CACHE_DIR", tl_test_tmp("cache"), 0);
    if (!c->cpu_only) against_reference(t, c); // cpu_only: too large for the reference
    if (tl_test_failed(t)) return;
    tl_check_result_t r;
    tl_diag_t d;
    tl_diag_init(&d);
    tl_check_target_t cpu_target = tl_check_target("cpu");
    tl_status_t st = tl_check_run(c, tl_test_root(), &cpu_target, &r, &d);
    if (st || !r.passed)
        tl_test_fail(t, __FILE__, __LINE__, "%s against the golden: %s %s", c->name, r.summary,
                     tl_diag_text(&d));
    tl_diag_free(&d);
}

TEST_GENERATOR(cpu_kernels)
{
    for (const tl_check_case_t *const *c = tl_check_cases(); *c; c++) {
        char name[128]; // tl_test_add copies the name
        snprintf(name, sizeof name, "cpu_kernel_%s", (*c)->name);
        tl_test_add(name, cross_backend, (void *)*c);
    }
}
