// tilec: the command-line tool. Each subcommand is a thin layer over the library;
// it prints diagnostics and turns statuses into exit codes (0 ok, 1 check failed,
// 2 compile or usage error).
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cli_io.h"

static int usage(FILE *f)
{
    fprintf(f, "usage: tilec <command> [args]\n"
               "\n"
               "commands:\n"
               "  ir FILE [-k NAME] [-a NAME=VALUE]...   print the Tile IR of a kernel\n"
               "  run FILE [options]                     run a kernel (reference semantics)\n"
               "  sim FILE [options]                     run it on the modeled Ascend core (cycles, races)\n"
               "  demo [--all]                           the DeepSeek-V4 operators against their goldens\n"
               "  version                                print the version\n"
               "  help                                   this text\n"
               "\n"
               "kernel selection (every command that takes FILE):\n"
               "  -k NAME               factory, builder, prim_func or Class.method (default: the only one)\n"
               "  -a NAME=VALUE         factory argument, a Python expression\n"
               "  --out-idx EXPR        output parameter indices (overrides @tilelang.jit)\n"
               "  --pass-config K=V     pass config, e.g. tl.ascend_auto_sync=True\n"
               "\n"
               "running (run):\n"
               "  -d DIM=VALUE          a symbolic dimension\n"
               "  -i PARAM=FILE.npy     an input from a .npy file (others are generated)\n"
               "  --fill PARAM=SPEC     normal[:MEAN:STD], uniform:LO:HI, int:LO:HI, distinct:N\n"
               "  --seed N              seed of generated inputs (default 0)\n"
               "  -o DIR                write outputs to DIR/PARAM.npy\n"
               "  --expect PARAM=FILE   compare an output (--rtol, --atol; default 1e-2, exact for ints)\n"
               "  --warn-uninit         warn when a kernel reads scratchpad bytes it never wrote\n"
               "  --target NAME         the backend (default ref), one of:\n");
    for (const tl_backend_t *const *be = tl_backends(); *be; be++)
        fprintf(f, "                          %-5s %s\n", (*be)->name, (*be)->about);
    fprintf(f, "  -j N                  cpu target: threads (default: one per CPU)\n"
               "  --cflags FLAGS        cpu target: compiler flags (default -O3 -march=native)\n"
               "\n"
               "simulating (sim; also takes the run options above but --target):\n"
               "  --arch a2|a3          modeled chip (default a2: Ascend 910B2)\n"
               "  --json FILE           the report as JSON (cycles, time_us, races, syncs, pipes, ...)\n"
               "  --trace FILE          Chrome trace of the first blocks (opens in Perfetto)\n"
               "  --trace-blocks N      blocks in the trace (default 4)\n"
               "  --no-races            timing only, no race detection\n"
               "\n"
               "ir options: --dump-after=PASS, --pipeline=ref|npu|cpu, --emit=c (the cpu target's C)\n");
    return f == stderr ? 2 : 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) return usage(stderr);
    const char *cmd = argv[1];
    if (!strcmp(cmd, "version") || !strcmp(cmd, "--version")) {
        printf("tilec %s\n", TILEC_VERSION);
        return 0;
    }
    if (!strcmp(cmd, "help") || !strcmp(cmd, "--help") || !strcmp(cmd, "-h")) return usage(stdout);
    if (!strcmp(cmd, "ir")) return cmd_ir(argc - 2, argv + 2);
    if (!strcmp(cmd, "run")) return cmd_run(argc - 2, argv + 2);
    if (!strcmp(cmd, "sim")) return cmd_sim(argc - 2, argv + 2);
    if (!strcmp(cmd, "demo")) return cmd_demo(argc - 2, argv + 2);
    fprintf(stderr, "tilec: unknown command '%s'\n", cmd);
    return usage(stderr);
}
