// Kernel checks: run a kernel of kernels/ on a backend with seeded inputs and
// compare its outputs with an independent golden reference (src/ref/). The test
// suite runs every case on every backend; `tilec demo` runs the DeepSeek-V4
// operators at model shapes (cases of their own, too large for the suite).
//
// A case names a kernel file, the factory arguments, the symbolic dims, how to
// fill special inputs (e.g. distinct top-k indices), the outputs to compare with
// their tolerances, and a golden function that computes the expected outputs
// from the inputs.
#ifndef TL_CHECK_CHECK_H
#define TL_CHECK_CHECK_H

#include "driver/backend.h"
#include "rt/compare.h"
#include "rt/tensor.h"

enum { TL_CHECK_MAX_ITEMS = 16 };

// Inputs of one kernel run: a tensor per parameter (NULL for outputs and
// workspaces until a backend runs), plus the symbolic dims.
typedef struct {
    const tl_kernel_t *kernel;
    tl_tensor_t *tensors[64];
    bool owned[64];
    tl_tensor_t *expected[64]; // filled by the golden for compared outputs
    int64_t *dims;             // per var id (only DIM vars meaningful)
    bool *dim_known;
} tl_check_io_t;

// Prepares inputs: tensors already in io->tensors are kept (their plain symbolic
// dims are bound from their shapes), dims[i] = NAME=VALUE bind the rest, and
// every other input is generated from `seed` (parameter i uses seed*1000003+i)
// per fills[] (PARAM=normal[:MEAN:STD] | uniform:LO:HI | int:LO:HI | distinct:N)
// or the defaults: floats N(0, 1), int8 [-127, 127], bool 0/1, other ints [0, 15].
tl_status_t tl_check_inputs(tl_check_io_t *io, const tl_kernel_t *k, int ndims,
                            const char *const *dims, int nfills, const char *const *fills,
                            uint64_t seed, tl_diag_t *d);
void tl_check_io_free(tl_check_io_t *io);
// The tensor of parameter `name` (input or, after a run, output), or NULL.
tl_tensor_t *tl_check_tensor(tl_check_io_t *io, const char *name);
// Allocates (once) the expected tensor for output `name`, shaped like the output.
tl_tensor_t *tl_check_expected(tl_check_io_t *io, const char *name, tl_diag_t *d);
// The value of a symbolic dim, or -1.
int64_t tl_check_dim(const tl_check_io_t *io, const char *name);
// A tensor's elements as a malloc'd float array (caller frees), or NULL.
float *tl_check_floats(const tl_tensor_t *t);

typedef struct tl_check_case tl_check_case_t;
typedef tl_status_t (*tl_check_golden_fn)(const tl_check_case_t *c, tl_check_io_t *io,
                                          tl_diag_t *d);

struct tl_check_case {
    const char *name;                        // unique: "sparse_attn/small"
    const char *op;                          // operator label for reports: "sparse_attn"
    const char *file;                        // kernel file, relative to the repository root
    const char *kernel;                      // -k NAME, or NULL
    const char *args[TL_CHECK_MAX_ITEMS];    // factory arguments NAME=VALUE
    const char *dims[TL_CHECK_MAX_ITEMS];    // symbolic dims NAME=VALUE
    const char *fills[TL_CHECK_MAX_ITEMS];   // PARAM=SPEC
    const char *outputs[TL_CHECK_MAX_ITEMS]; // parameters compared with the golden
    double rtol, atol;                       // float outputs
    double int_atol;                         // integer outputs (0: exact)
    tl_check_golden_fn golden;
    const char *shape; // human description for reports
    double flops;      // useful work of one run, for GFLOP/s (0: none)
    bool int_ops;      // flops counts integer operations: reported as GOP/s
    double bytes;      // bytes moved by one run, for GB/s (0: none)
    bool demo;         // a `tilec demo` case (tl_check_demo_cases)
    bool slow;         // skipped under sanitizers
    int warnings;      // warnings the run gives (a count past a buffer: exec/overrun.c)
    bool cpu_only;     // too large for the reference executor and the simulator: the CPU
                       // target alone runs it (against the golden)
    const char *pto_gap; // the pto target does not lower it yet: what it says (check-pto
                         // expects that refusal and reports the case skipped)
};

// All cases (NULL-terminated).
const tl_check_case_t *const *tl_check_cases(void);
// The demo's cases (NULL-terminated); tl_check_find searches both lists.
const tl_check_case_t *const *tl_check_demo_cases(void);
const tl_check_case_t *tl_check_find(const char *name);

// A backend of the table (driver/backend.h) as a check target, with what it
// measured for reports.
typedef struct {
    const tl_backend_t *be;
    tl_backend_opts_t opts; // tl_check_target: the reference executor warns on reads of
                            // scratchpad bytes never written and has unbounded scratchpads
    int repeats;            // runs, the best time kept (only for kernels that do not update inputs)
    const char *trace_path; // sim: write the Chrome trace here (NULL: none)
    // measured
    double compile_seconds; // creating the backend (cpu: code generation + cc or the cache)
    double run_seconds;     // the best run
    tl_sim_report_t report; // sim: its report (races/errors pointers cleared: counts only)
    int64_t inserted[TL_SYNC_COUNT]; // sync statements the passes inserted, by kind
} tl_check_target_t;

// The target of backend `name` with the check's defaults.
tl_check_target_t tl_check_target(const char *name);
// Runs compiled kernel k on t's backend with io's tensors and stores the
// outputs back into io->tensors (allocating them when NULL). Races and sync
// misuse (sim) are reported to the diag and counted in t->report; the values
// are still returned for comparison.
tl_status_t tl_check_backend(tl_check_target_t *t, const tl_kernel_t *k, tl_check_io_t *io,
                             tl_diag_t *d);

typedef struct {
    bool passed;
    bool compiled;      // the kernel compiled (for the pipeline of the target)
    double max_abs_err; // over all compared outputs
    size_t nmismatch;
    double seconds;    // backend run time
    char summary[512]; // the worst output's comparison line
} tl_check_result_t;

// Compiles the case's kernel (root: repository root for the file path) for
// t's backend, runs it there and compares with the golden. Returns TL_OK when
// it ran (r->passed says whether it matched), an error otherwise
// (r->compiled: the kernel compiled, the error came later).
tl_status_t tl_check_run(const tl_check_case_t *c, const char *root, tl_check_target_t *t,
                         tl_check_result_t *r, tl_diag_t *d);

#endif
