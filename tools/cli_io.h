// Inputs, outputs and --expect checks shared by `tilec run` and `tilec sim`.
#ifndef TL_TOOLS_CLI_IO_H
#define TL_TOOLS_CLI_IO_H

#include "cli.h"
#include "cli_stage.h"
#include "driver/backend.h"
#include "rt/tensor.h"

enum { CLI_IO_MAX = 32 };

typedef struct {
    const char *name, *value;
} cli_pair_t;

typedef struct {
    cli_pair_t in[CLI_IO_MAX], fill[CLI_IO_MAX], expect[CLI_IO_MAX];
    int nin, nfill, nexpect;
    // -d NAME=VALUE: a symbolic dimension or a scalar parameter (which one is
    // known after cli_io_prepare)
    cli_pair_t def[CLI_IO_MAX];
    int ndefs;
    bool def_is_dim[CLI_IO_MAX];
    int64_t def_int[CLI_IO_MAX];  // the value of a dim or an integer scalar
    double def_float[CLI_IO_MAX]; // the value of a floating-point scalar
    uint64_t seed;
    const char *outdir;
    const char *inputs_dir; // --save-inputs DIR
    double rtol, atol;
    bool have_rtol, have_atol;
    // after cli_io_prepare: one tensor per kernel parameter (inputs only; NULL otherwise)
    int nparams;
    tl_tensor_t **tensors;
    bool *owned;
    // the run's output files (-o, --json, --trace): renamed into place
    // together when the run completed, removed otherwise
    cli_stage_t stage;
    void *extra; // command-specific options
} cli_io_t;

bool cli_io_takes_value(const char *opt);
// A command's own options: `opt` with its value (NULL when none was given);
// CLI_OPT_BAD after printing why the value is not accepted.
enum { CLI_OPT_UNKNOWN, CLI_OPT_OK, CLI_OPT_BAD };
typedef int (*cli_option_fn)(cli_io_t *io, const char *opt, const char *val);
// Parses the rest[] options of o; `other` (may be NULL) is asked first.
bool cli_io_parse(cli_opts_t *o, cli_io_t *io, cli_option_fn other);
// An integer option within [lo, hi]; else prints "OPT expects an integer from LO to HI".
bool cli_int_option(const char *opt, const char *s, long long lo, long long hi, long long *out);
// Checks the -d values against the kernel's dims and scalar parameters (every
// scalar parameter must be given), reads -i files, generates the remaining inputs.
tl_status_t cli_io_prepare(const tl_kernel_t *k, cli_io_t *io, tl_diag_t *d);
// --save-inputs DIR: the inputs (given and generated) to DIR/PARAM.npy.
tl_status_t cli_io_save_inputs(const tl_kernel_t *k, cli_io_t *io, tl_diag_t *d);
// Gives the prepared inputs, the -d dims and scalars to a binding.
tl_status_t cli_io_bind(const tl_kernel_t *k, cli_io_t *io, tl_bind_t *args);
// Stages the results as -o DIR's files (io->stage) and checks --expect files;
// *mismatch is set when one differs.
tl_status_t cli_io_finish(const tl_kernel_t *k, cli_io_t *io, tl_bind_t *args, tl_diag_t *d,
                          bool *mismatch);
void cli_io_free(cli_io_t *io);
// Whether `path` can be written, before anything runs: a file (its directory
// exists and takes files) or, is_dir, a directory (created with its parents when missing).
// Prints "OPT PATH: why" when not.
bool cli_check_writable(const char *opt, const char *path, bool is_dir);

// A kernel run on a backend (cli_run.c), shared by `tilec run` and `tilec sim`.
typedef struct cli_run cli_run_t;
struct cli_run {
    const tl_backend_t *be;
    tl_backend_opts_t opts;
    // set by cli_run for the callbacks
    const tl_kernel_t *k;
    void *self;      // the backend instance
    int repeat;      // --repeat N: timed runs after the first
    tl_bind_t *args; // the run's arguments (for the callbacks)
    cli_io_t *io;    // its outputs: callbacks stage their files in io->stage
    // printing between the stages (may be NULL): after the backend was
    // created (seconds: how long that took), after the run (st: its status);
    // `ran` returns false when the command must fail (exit status 1)
    void (*created)(cli_run_t *r, double seconds);
    bool (*ran)(cli_run_t *r, tl_status_t st, double seconds);
    void *extra; // command-specific
};
// Compiles the selected kernel for r->be, prepares the inputs, creates the
// backend, binds the arguments, runs, writes -o and checks --expect. Returns
// the exit status: 0 ok, 1 a run-time error, a race or an --expect mismatch,
// 2 a compile or usage error.
int cli_run(cli_opts_t *o, cli_io_t *io, cli_run_t *r);

int cmd_run(int argc, char **argv);
int cmd_sim(int argc, char **argv);

#endif
