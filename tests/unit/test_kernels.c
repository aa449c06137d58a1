// Every kernel under kernels/ against its golden reference, on every backend
// that exists: one test per (case, backend). Cases are listed in
// src/check/cases.c; the slow ones are skipped under sanitizers.
#include "../test.h"

#include <stdlib.h>

#include "check/check.h"
#include "pass/pass.h"

typedef struct {
    const tl_check_case_t *c;
    const char *backend;
} kcase_t;

static void run_case(tl_test_t *t, void *arg)
{
    const kcase_t *kc = arg;
    if (kc->c->slow && tl_test_sanitized()) {
        tl_test_skip(t, "model-sized case skipped under sanitizers");
        return;
    }
    tl_diag_t d;
    tl_diag_init(&d);
    tl_check_result_t r;
    tl_status_t st = tl_check_run(kc->c, tl_test_root(), TL_PIPELINE_REF, tl_check_backend_ref, NULL, &r, &d);
    if (st != TL_OK) tl_test_fail(t, __FILE__, __LINE__, "%s did not run:\n%s", kc->c->name, tl_diag_text(&d));
    else if (!r.passed) tl_test_fail(t, __FILE__, __LINE__, "%s differs from its golden: %s", kc->c->name, r.summary);
    tl_diag_free(&d);
}

TEST_GENERATOR(kernel_cases)
{
    for (const tl_check_case_t *const *c = tl_check_cases(); *c; c++) {
        kcase_t *kc = malloc(sizeof *kc);
        kc->c = *c;
        kc->backend = "ref";
        char name[256];
        snprintf(name, sizeof name, "kernels:%s@ref", (*c)->name);
        tl_test_add(name, run_case, kc);
    }
}
