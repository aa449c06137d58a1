// Shared pieces of the tilec command: option parsing for the kernel-selecting
// options every subcommand takes, and the subcommand entry points.
#ifndef TL_TOOLS_CLI_H
#define TL_TOOLS_CLI_H

#include <stdio.h>

#include "base/arena.h"
#include "base/diag.h"
#include "driver/compile.h"

enum { CLI_MAX_ITEMS = 64 };

typedef struct {
    const char *command; // ir, run, sim, ... (for messages)
    const char *file;
    tl_front_opts_t front;
    tl_front_arg_t args[CLI_MAX_ITEMS];
    tl_front_arg_t pass_configs[CLI_MAX_ITEMS];
    tl_front_chip_t chip; // what torch.npu.get_device_properties() gives the file
    // options beyond kernel selection; each subcommand reads what it needs
    const char *dump_after;
    const char *emit;
    int nrest;
    const char *rest[CLI_MAX_ITEMS]; // options a subcommand handles itself
} cli_opts_t;

// Parses `FILE [-k NAME] [-a NAME=VALUE]... [--out-idx X] [--pass-config K=V]...`;
// unknown options (with their values, when `takes_value` says so) are kept in
// rest[] for the subcommand. Returns false after printing a usage error.
bool cli_parse(const char *command, int argc, char **argv, cli_opts_t *o,
               bool (*takes_value)(const char *opt));
// The chip driver code sees (torch.npu): `arch` of the arch table, NULL for the default.
void cli_set_chip(cli_opts_t *o, const char *arch);
// Compiles the selected kernel through the compile driver, with the passes
// `how` says (its path and front fields are taken from o); prints the
// diagnostics to stderr and clears them. NULL on error. Long compile steps
// are reported while they run and when they end (cli_progress.h).
tl_kernel_t *cli_compile(tl_arena_t *arena, const cli_opts_t *o, tl_compile_opts_t how,
                         tl_diag_t *d);
void cli_print_diag(tl_diag_t *d);

// Prints the help of `command` (NULL: the command list) to f; returns the
// exit status (2 for an unknown command or when f is stderr).
int cli_help(const char *command, FILE *f);

int cmd_ir(int argc, char **argv);
int cmd_emit(int argc, char **argv);
int cmd_demo(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_cache(int argc, char **argv);

#endif
