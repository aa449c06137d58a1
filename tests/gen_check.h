// Checks one generated developer-mode kernel (gen_kernel.h): the reference
// executor's result must equal the simulator's after the NPU pipeline, and the
// simulator must find no race or sync misuse (benign races are allowed).
#ifndef TL_TESTS_GEN_CHECK_H
#define TL_TESTS_GEN_CHECK_H

#include "gen_kernel.h"

#include "check/check.h"
#include "exec/exec.h"
#include "npu/sim.h"
#include "driver/compile.h"
#include "rt/rng.h"
#include "rt/compare.h"

typedef enum { GEN_OK, GEN_COMPILE, GEN_REF, GEN_SIM, GEN_RACE, GEN_VALUES } gen_result_t;

static inline tl_kernel_t *gen_compile(tl_arena_t *a, const char *src, int pipeline, tl_diag_t *d)
{
    tl_compile_opts_t o = {.path = "gen.py", .source = src, .pipeline = (tl_pipeline_t)pipeline};
    tl_kernel_t *k = NULL;
    return tl_compile(a, &o, d, &k) == TL_OK ? k : NULL;
}

// Returns what failed; the diagnostics (and the source) are in *d.
static inline gen_result_t gen_check_loops(const uint8_t *bytes, size_t n, bool pipelined,
                                           tl_buf_t *src, tl_diag_t *d)
{
    gen_kernel_loops(bytes, n, pipelined, src);
    gen_result_t res = GEN_OK;
    tl_arena_t ra, na;
    tl_arena_init(&ra);
    tl_arena_init(&na);
    tl_check_io_t io = {0};
    tl_exec_t *x = NULL;
    tl_sim_t *s = NULL;
    tl_tensor_t *want = NULL;
    tl_kernel_t *kr = gen_compile(&ra, tl_buf_cstr(src), TL_PIPELINE_REF, d);
    tl_kernel_t *kn = kr ? gen_compile(&na, tl_buf_cstr(src), TL_PIPELINE_NPU, d) : NULL;
    if (!kr || !kn) {
        res = GEN_COMPILE;
        goto done;
    }
    if (tl_check_inputs(&io, kr, 0, NULL, 0, NULL, 1, d) != TL_OK) {
        res = GEN_COMPILE;
        goto done;
    }
    tl_exec_opts_t eo = {0};
    for (int i = 0; i < TL_SCOPE_COUNT; i++) eo.capacity[i] = 64 << 20;
    if (tl_exec_create(&x, kr, &eo, d) != TL_OK || tl_exec_set_tensor(x, "X", tl_check_tensor(&io, "X")) ||
        tl_exec_set_tensor(x, "W", tl_check_tensor(&io, "W")) || tl_exec_run(x) != TL_OK) {
        res = GEN_REF;
        goto done;
    }
    want = tl_exec_take_tensor(x, "Y");
    if (tl_sim_create(&s, kn, NULL, d) != TL_OK ||
        tl_exec_set_tensor(tl_sim_exec(s), "X", tl_check_tensor(&io, "X")) ||
        tl_exec_set_tensor(tl_sim_exec(s), "W", tl_check_tensor(&io, "W"))) {
        res = GEN_SIM;
        goto done;
    }
    tl_status_t st = tl_sim_run(s);
    if (st == TL_ERR_RACE) {
        res = GEN_RACE;
        goto done;
    }
    if (st != TL_OK) {
        res = GEN_SIM;
        goto done;
    }
    tl_compare_result_t cr;
    if (tl_compare(tl_exec_tensor(tl_sim_exec(s), "Y"), want, 0, 0, &cr, d) != TL_OK) res = GEN_VALUES;
done:
    tl_tensor_destroy(want);
    tl_sim_destroy(s);
    tl_exec_destroy(x);
    tl_check_io_free(&io);
    tl_arena_free(&ra);
    tl_arena_free(&na);
    return res;
}

static inline gen_result_t gen_check(const uint8_t *bytes, size_t n, tl_buf_t *src, tl_diag_t *d)
{
    return gen_check_loops(bytes, n, false, src, d);
}

// The next program of a seeded sequence: 96 bytes from r.
static inline gen_result_t gen_check_random(tl_rng_t *r, bool pipelined, tl_buf_t *src,
                                            tl_diag_t *d)
{
    uint8_t bytes[96];
    for (size_t i = 0; i < sizeof bytes; i++) bytes[i] = (uint8_t)tl_rng_below(r, 256);
    return gen_check_loops(bytes, sizeof bytes, pipelined, src, d);
}

static inline const char *gen_result_name(gen_result_t r)
{
    static const char *names[] = {"ok", "compile error", "reference run failed", "simulator run failed",
                                  "race or sync misuse after the passes", "values differ after the passes"};
    return names[r];
}

#endif
