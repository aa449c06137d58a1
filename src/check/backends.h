// The simulator and the native CPU backend as kernel-check backends, with the
// figures they measured (for `tilec demo` and reports).
#ifndef TL_CHECK_BACKENDS_H
#define TL_CHECK_BACKENDS_H

#include <stdio.h>

#include "check/check.h"
#include "npu/sim.h"

typedef struct {
    const char *arch;       // "a2" (NULL) or "a3"
    const char *trace_path; // write the Chrome trace here (NULL: none)
    // measured
    tl_sim_report_t report; // races/errors pointers cleared: counts only
    int64_t inserted[TL_SYNC_COUNT]; // sync statements the passes inserted, by kind
    double seconds;                  // host time of the simulation
} tl_check_sim_info_t;

typedef struct {
    int threads; // pool threads (0: one per CPU)
    int repeats; // runs (the best time is kept); only for kernels that do not update inputs
    // measured
    double compile_seconds; // code generation + cc (or the cache)
    double run_seconds;     // best run
} tl_check_cpu_info_t;

// arg: a tl_check_sim_info_t* or NULL. Races are reported to the diag and
// counted in the info; the values are still returned for comparison.
tl_status_t tl_check_backend_sim(void *arg, const tl_kernel_t *k, tl_check_io_t *io, tl_diag_t *d);
// arg: a tl_check_cpu_info_t* or NULL.
tl_status_t tl_check_backend_cpu(void *arg, const tl_kernel_t *k, tl_check_io_t *io, tl_diag_t *d);

#endif
