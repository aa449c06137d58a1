// Helpers for the simulator tests: compile a kernel file or source (front end,
// scope inference: the program exactly as written), generate its inputs with
// the seeded generator of src/check, run it on the simulator.
#ifndef TL_TESTS_TEST_SIM_UTIL_H
#define TL_TESTS_TEST_SIM_UTIL_H

#include "check/check.h"
#include "npu/sim.h"

typedef struct {
    tl_arena_t arena;
    tl_diag_t d;
    tl_kernel_t *k;
    tl_check_io_t io;
    bool have_io;
    tl_sim_t *s;
    tl_status_t compile_st, run_st;
} simk_t;

// Compiles `path` (or, when src is not NULL, src under that name) with the
// factory arguments args[] ("NAME=VALUE", NULL-terminated, may be NULL),
// creates the simulator with opts and runs it. Returns the first failing
// step's status (compile_st / run_st say which).
tl_status_t simk_run(simk_t *e, const char *path, const char *src, const char *const *args,
                     const tl_sim_opts_t *opts);
void simk_free(simk_t *e);
// The tensor of a parameter after the run.
tl_tensor_t *simk_tensor(simk_t *e, const char *name);

#endif
