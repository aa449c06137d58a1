// Running a check case: compile, inputs, backend, golden, compare.
#include "check/check.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "driver/compile.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int count(const char *const *items)
{
    int n = 0;
    while (n < TL_CHECK_MAX_ITEMS && items[n]) n++;
    return n;
}

tl_status_t tl_check_run(const tl_check_case_t *c, const char *root, tl_check_target_t *t,
                         tl_check_result_t *r, tl_diag_t *d)
{
    memset(r, 0, sizeof *r);
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", root ? root : ".", c->file);
    tl_front_arg_t args[TL_CHECK_MAX_ITEMS];
    char names[TL_CHECK_MAX_ITEMS][64];
    int nargs = count(c->args);
    for (int i = 0; i < nargs; i++)
        if (!tl_compile_arg(c->args[i], names[i], sizeof names[i], &args[i]))
            return tl_diag_fail(d, TL_ERR_ARG, "case %s: argument '%s' is not NAME=VALUE", c->name,
                                c->args[i]);
    tl_compile_opts_t co = {.path = path,
                            .front = {.kernel = c->kernel, .nargs = nargs, .args = args},
                            .pipeline = t->be->pipeline};
    tl_arena_t arena;
    tl_arena_init(&arena);
    tl_kernel_t *k = NULL;
    tl_check_io_t io = {0};
    tl_status_t st = tl_compile(&arena, &co, d, &k);
    r->compiled = st == TL_OK;
    if (st == TL_OK)
        st = tl_check_inputs(&io, k, count(c->dims), c->dims, count(c->fills), c->fills, 0, d);
    int warnings = d->nwarnings;
    if (st == TL_OK) {
        double t0 = now();
        st = tl_check_backend(t, k, &io, d);
        r->seconds = now() - t0;
    }
    if (st == TL_OK) st = c->golden(c, &io, d);
    r->passed = st == TL_OK;
    double worst = -1;
    for (int i = 0; st == TL_OK && i < count(c->outputs); i++) {
        tl_tensor_t *got = tl_check_tensor(&io, c->outputs[i]);
        tl_tensor_t *want = got ? tl_check_expected(&io, c->outputs[i], d) : NULL;
        if (!got || !want) {
            st = tl_diag_fail(d, TL_ERR_ARG, "case %s: output '%s' missing", c->name, c->outputs[i]);
            break;
        }
        bool is_float = tl_dtype_is_float(got->dtype);
        tl_compare_result_t cr;
        tl_diag_t cd;
        tl_diag_init(&cd);
        tl_status_t cs = tl_compare(got, want, is_float ? c->rtol : 0, is_float ? c->atol : c->int_atol, &cr, &cd);
        tl_diag_free(&cd);
        if (cs != TL_OK && cs != TL_ERR_MISMATCH) {
            st = cs;
            break;
        }
        if (cs == TL_ERR_MISMATCH) r->passed = false;
        r->nmismatch += cr.nmismatch;
        if (cr.max_abs_err > r->max_abs_err) r->max_abs_err = cr.max_abs_err;
        double score = cs == TL_ERR_MISMATCH ? 1e300 : cr.max_abs_err;
        if (score > worst) {
            worst = score;
            tl_buf_t b;
            tl_buf_init(&b);
            tl_buf_printf(&b, "%s: ", c->outputs[i]);
            tl_compare_format(&cr, &b);
            snprintf(r->summary, sizeof r->summary, "%s", tl_buf_cstr(&b));
            tl_buf_free(&b);
        }
    }
    if (st == TL_OK && d->nwarnings - warnings != c->warnings) {
        r->passed = false;
        snprintf(r->summary, sizeof r->summary, "the run reported %d warning(s), %d expected (e.g. reads of "
                 "scratchpad bytes never written): %s", d->nwarnings - warnings, c->warnings, tl_diag_text(d));
    }
    if (st != TL_OK) r->passed = false;
    tl_check_io_free(&io);
    tl_arena_free(&arena);
    return st;
}
