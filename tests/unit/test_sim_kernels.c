// Every kernel case of src/check on the modeled Ascend core: the NPU pipeline,
// then the simulator. A case must run with no race and no sync misuse and
// match its golden (the values are the executor's, so they equal `tilec run`).
// Developer-mode kernels and kernels relying on automatic sync are skipped
// while the NPU pipeline cannot yet turn them into synchronised per-core
// programs, and so are cases the NPU pipeline rejects (the skip says why).
#include "../test.h"

#include <stdlib.h>

#include "check/check.h"
#include "front/front.h"
#include "pass/pass.h"

typedef struct {
    const tl_check_case_t *c;
    const char *unsupported; // why the simulator cannot run it yet
} sim_case_t;

// What the NPU pipeline still lacks to run the case's kernel (NULL: nothing).
static const char *missing_pass(const tl_check_case_t *c)
{
    tl_arena_t arena;
    tl_arena_init(&arena);
    tl_diag_t d;
    tl_diag_init(&d);
    tl_front_arg_t args[TL_CHECK_MAX_ITEMS];
    char names[TL_CHECK_MAX_ITEMS][64];
    int n = 0;
    for (; n < TL_CHECK_MAX_ITEMS && c->args[n]; n++) {
        const char *eq = strchr(c->args[n], '=');
        snprintf(names[n], sizeof names[n], "%.*s", eq ? (int)(eq - c->args[n]) : 0, c->args[n]);
        args[n] = (tl_front_arg_t){names[n], eq ? eq + 1 : ""};
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", tl_test_root(), c->file);
    tl_front_opts_t fo = {.kernel = c->kernel, .nargs = n, .args = args};
    tl_kernel_t *k = NULL;
    const char *why = NULL;
    if (tl_front_compile(&arena, path, &fo, &d, &k) == TL_OK) {
        if (k->config.auto_cv_combine && !tl_pass_exists("cv_split"))
            why = "developer-mode kernel: no CV split in the NPU pipeline yet";
        else if (k->config.auto_sync && !tl_pass_exists("intra_sync"))
            why = "automatic intra-core sync: no intra_sync pass in the NPU pipeline yet";
    }
    tl_diag_free(&d);
    tl_arena_free(&arena);
    return why;
}

static void run_case(tl_test_t *t, void *arg)
{
    sim_case_t *sc = arg;
    if (sc->c->slow && tl_test_sanitized()) {
        tl_test_skip(t, "model-sized case skipped under sanitizers");
        return;
    }
    if (sc->c->cpu_only) {
        tl_test_skip(t, "a case for the CPU target only (too large for the simulator)");
        return;
    }
    if ((sc->unsupported = missing_pass(sc->c))) {
        tl_test_skip(t, sc->unsupported);
        return;
    }
    tl_diag_t d;
    tl_diag_init(&d);
    tl_check_result_t r;
    tl_check_target_t sim = tl_check_target("sim");
    tl_status_t st = tl_check_run(sc->c, tl_test_root(), &sim, &r, &d);
    if (st == TL_ERR_UNSUPPORTED && r.compiled)
        sc->unsupported = "developer-mode kernel: no CV split in the NPU pipeline yet";
    char why[600];
    if (sc->unsupported) {
        tl_test_skip(t, sc->unsupported);
    } else if (st != TL_OK && !r.compiled) {
        // the NPU pipeline rejects the kernel (its own tests judge that)
        snprintf(why, sizeof why, "the NPU pipeline rejects it: %s",
                 d.first_error ? d.first_error : tl_status_str(st));
        tl_test_skip(t, why);
    } else if (st != TL_OK)
        tl_test_fail(t, __FILE__, __LINE__, "%s did not run:\n%s", sc->c->name, tl_diag_text(&d));
    else if (sim.report.nraces || sim.report.nerrors)
        tl_test_fail(t, __FILE__, __LINE__, "%s: %d races, %d sync/memory errors:\n%s", sc->c->name,
                     sim.report.nraces, sim.report.nerrors, tl_diag_text(&d));
    else if (!r.passed)
        tl_test_fail(t, __FILE__, __LINE__, "%s differs from its golden: %s", sc->c->name,
                     r.summary);
    else
        CHECK(sim.report.cycles > 0);
    tl_diag_free(&d);
}

TEST_GENERATOR(sim_kernel_cases)
{
    for (const tl_check_case_t *const *c = tl_check_cases(); *c; c++) {
        sim_case_t *sc = calloc(1, sizeof *sc);
        sc->c = *c;
        char name[256];
        snprintf(name, sizeof name, "kernels:%s@sim", (*c)->name);
        tl_test_add(name, run_case, sc);
    }
}
