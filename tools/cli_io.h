// Inputs, outputs and --expect checks shared by `tilec run` and `tilec sim`.
#ifndef TL_TOOLS_CLI_IO_H
#define TL_TOOLS_CLI_IO_H

#include "cli.h"
#include "rt/tensor.h"

enum { CLI_IO_MAX = 32 };

typedef struct {
    const char *name, *value;
} cli_pair_t;

typedef struct {
    cli_pair_t in[CLI_IO_MAX], fill[CLI_IO_MAX], expect[CLI_IO_MAX];
    int nin, nfill, nexpect;
    const char *dim_names[CLI_IO_MAX];
    int64_t dim_values[CLI_IO_MAX];
    int ndims;
    uint64_t seed;
    const char *outdir;
    double rtol, atol;
    bool have_rtol, have_atol;
    // after cli_io_prepare: one tensor per kernel parameter (inputs only; NULL otherwise)
    int nparams;
    tl_tensor_t **tensors;
    bool *owned;
    void *extra; // command-specific options
} cli_io_t;

bool cli_io_takes_value(const char *opt);
// Parses the rest[] options of o; `other` gets options it does not know (may be NULL).
bool cli_io_parse(cli_opts_t *o, cli_io_t *io, bool (*other)(cli_io_t *, const char *opt, const char *val));
// Reads -i files, binds -d dims, generates the remaining inputs.
tl_status_t cli_io_prepare(const tl_kernel_t *k, cli_io_t *io, tl_diag_t *d);
// Writes results to -o DIR and checks --expect files; *mismatch is set when one differs.
tl_status_t cli_io_finish(const tl_kernel_t *k, cli_io_t *io, tl_tensor_t *(*get)(void *, const char *name),
                          void *arg, tl_diag_t *d, bool *mismatch);
void cli_io_free(cli_io_t *io);

int cmd_run(int argc, char **argv);
int cmd_sim(int argc, char **argv);

#endif
