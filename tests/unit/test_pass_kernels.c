// Every kernel under kernels/ (every check case of src/check/cases.c) gives
// identical results, byte for byte, with the T.Parallel, workspace,
// T.Pipelined and memory planning passes as without them: one test per case.
// Planning uses the reference pipeline's rule (a kernel too large for the
// scratchpads keeps the executor's placement; the NPU pipeline rejects it).
#include "../test.h"

#include "check/check.h"
#include "test_pass_util.h"

#include <stdio.h>

static const pk_pass_fn my_passes[] = {tl_pass_parallel, tl_pass_workspace, tl_pass_pipelined,
                                       tl_pass_memplan_ref, NULL};

static void run_case(tl_test_t *t, void *arg)
{
    const tl_check_case_t *c = arg;
    if (c->slow && tl_test_sanitized()) {
        tl_test_skip(t, "model-sized case skipped under sanitizers");
        return;
    }
    if (c->cpu_only) {
        tl_test_skip(t, "a case for the CPU target only (too large for the reference executor)");
        return;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", tl_test_root(), c->file);
    pk_spec_t s = {.path = path, .kernel = c->kernel};
    for (int i = 0; i < PK_MAX && i < TL_CHECK_MAX_ITEMS; i++) {
        s.args[i] = c->args[i];
        s.dims[i] = c->dims[i];
        s.fills[i] = c->fills[i];
    }
    pk_t got;
    tl_buf_t why;
    tl_buf_init(&why);
    if (!pk_same_results(&s, my_passes, 0, &got, &why))
        tl_test_fail(t, __FILE__, __LINE__, "%s: %s", c->name, tl_buf_cstr(&why));
    tl_buf_free(&why);
    pk_free(&got);
}

TEST_GENERATOR(pass_kernels)
{
    for (const tl_check_case_t *const *c = tl_check_cases(); *c; c++) {
        char name[128];
        snprintf(name, sizeof name, "pass_kernels:%s", (*c)->name);
        tl_test_add(name, run_case, (void *)*c);
    }
}
