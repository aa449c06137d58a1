// The help texts: `tilec help`, `tilec help COMMAND` and `tilec COMMAND --help`.
// Each command's text lists its options with the values they accept; the
// lists that come from tables (backends, architectures, passes) are printed
// from them.
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "driver/backend.h"
#include "target/arch.h"

static const char *const SELECT =
    "kernel selection:\n"
    "  -k NAME               a @tilelang.jit factory, a builder returning a prim_func, a\n"
    "                        @T.prim_func or Class.method (default: the file's only one)\n"
    "  -a NAME=VALUE         a factory argument, a Python expression (-a M=1024, -a "
    "'dtype=\"float16\"')\n"
    "  --out-idx EXPR        which parameters are outputs, e.g. '[-1]' (overrides @tilelang.jit)\n"
    "  --pass-config K=V     a pass config, either spelling: tl.ascend_auto_sync=True or\n"
    "                        TL_ASCEND_AUTO_SYNC=True; keys: tl.ascend_auto_sync,\n"
    "                        tl.ascend_memory_planning, tl.ascend_auto_cv_combine,\n"
    "                        tl.ascend_auto_cross_core_sync, tl.tilec_sync_baseline,\n"
    "                        tl.tilec_schedule, tl.ascend_tail_mask (tail-block scheme),\n"
    "                        tl.ascend_auto_sync_vs (pto: upstream's V/S syncs, default on)\n";

static const char *const RUN_IO =
    "inputs:\n"
    "  -d NAME=VALUE         a symbolic dimension (an integer >= 0 within its dtype, int32 "
    "unless\n"
    "                        T.symbolic says otherwise; 0: empty tensors) or a scalar parameter "
    "(a\n"
    "                        number of its dtype)\n"
    "  -i PARAM=FILE.npy     an input from a .npy file (the others are generated)\n"
    "  --fill PARAM=SPEC     how a generated input is filled: normal[:MEAN:STD], uniform:LO:HI,\n"
    "                        int:LO:HI, distinct:N (N distinct indices per row)\n"
    "  --seed N              seed of the generated inputs, 0 to 18446744073709551615 (default 0)\n"
    "  --save-inputs DIR     write the inputs (given and generated) to DIR/PARAM.npy\n"
    "outputs and checks:\n"
    "  -o DIR                write the outputs to DIR/PARAM.npy (all of them or none)\n"
    "  --expect PARAM=FILE   compare output PARAM with a .npy file: exit 1 on a mismatch\n"
    "  --rtol R, --atol A    tolerances of --expect, numbers >= 0 (default 1e-2; exact for "
    "integers)\n"
    "  --warn-uninit         warn when the kernel reads scratchpad bytes it never wrote\n";

static const char *const EXIT =
    "exit status: 0 ok; 1 a check failed (--expect mismatch, run-time error, race or sync\n"
    "misuse); 2 a compile or usage error (the message names the option).\n";

static void help_run(FILE *f)
{
    fprintf(f,
            "usage: tilec run FILE [options]\n\n"
            "Runs a kernel on a backend: by default the reference semantics of the language.\n\n"
            "%s%s"
            "backend:\n"
            "  --target NAME         the backend (default ref), one of:\n",
            SELECT, RUN_IO);
    for (const tl_backend_t *const *be = tl_backends(); *be; be++)
        fprintf(f, "                          %-5s %s\n", (*be)->name, (*be)->about);
    fprintf(
        f,
        "  -j N                  cpu target: threads, 1 to 4096 (default: one per CPU); pto:\n"
        "                        blocks run at once (default 8)\n"
        "  --pto-isa DIR         pto target: the pto-isa checkout (default $PTO_ISA_DIR)\n"
        "  --json FILE           the run's facts as JSON: kernel, target, blocks, times, outputs\n"
        "                        (the simulator's report too with --target sim)\n"
        "  --repeat N            N more timed runs after the first (1 to 1000000): median, "
        "min, max\n"
        "  --cflags FLAGS        cpu target: compiler flags (default -O3 -march=native)\n\n%s",
        EXIT);
}

static void help_sim(FILE *f)
{
    fprintf(
        f,
        "usage: tilec sim FILE [options]\n\n"
        "Runs a kernel on the modeled Ascend AI Core after the NPU passes: the outputs, a cycle\n"
        "estimate per pipe, race detection and checks of flags, alignment and scratchpad sizes.\n\n"
        "%s%s"
        "simulator:\n"
        "  --arch NAME           the modeled chip, one of: %s (default a2, Ascend 910B2)\n"
        "  --l2 cold|warm        the L2 at the start: cold (default) every tensor in HBM, warm "
        "the\n"
        "                        inputs resident\n"
        "  --json FILE           the report as JSON (cycles, time_us, races, syncs, pipes, ...)\n"
        "  --trace FILE          a Chrome trace of the first blocks (Perfetto, chrome://tracing)\n"
        "  --trace-blocks N      blocks in the trace, 1 to 1048576 (default 4)\n"
        "  --no-races            timing only, no race detection\n\n%s",
        SELECT, RUN_IO, tl_arch_names(), EXIT);
}

static void help_ir(FILE *f)
{
    fprintf(f,
            "usage: tilec ir FILE [options]\n\n"
            "Prints the kernel's Tile IR (parameters, grid, switches, buffers, statements).\n\n"
            "%s"
            "output:\n"
            "  --dump-after=PASS     the IR after a pass of the pipeline; PASS is one of:\n"
            "                        %s, all\n"
            "  --pipeline=NAME       the pipeline --dump-after runs: ref, npu (default), cpu, pto\n"
            "  --emit=c              the C that tilec run --target cpu compiles\n"
            "  --emit=pto            the kernel as PTO-ISA C++ (tilec emit --target pto)\n\n"
            "exit status: 0 ok, 2 a compile or usage error.\n",
            SELECT, tl_pass_names());
}

static void help_demo(FILE *f)
{
    fprintf(
        f, "usage: tilec demo [options]\n\n"
           "The four DeepSeek-V4 operators of kernels/ds_v4/ at model-like shapes, each on the\n"
           "simulator and on the CPU target, checked against their C goldens, in one table.\n\n"
           "options:\n"
           "  --root DIR            the directory holding kernels/ (default: found from the tilec\n"
           "                        binary's location, else the current directory)\n"
           "  --traces DIR          where the Chrome traces go (default build/demo-traces in the\n"
           "                        source tree, else $TMPDIR/tilec-demo-traces)\n"
           "  --all                 every check case too (every kernel under kernels/)\n"
           "  --no-cpu              the simulator alone\n"
           "  --list                list the cases and the kernel files found, run nothing\n\n"
           "exit status: 0 every operator matched, 1 one did not, 2 a usage error.\n");
}

static void help_emit(FILE *f)
{
    fprintf(f,
            "usage: tilec emit FILE [kernel selection] --target pto -o DIR\n\n"
            "Writes the kernel, after the NPU pipeline, as PTO-ISA C++ for a CANN build\n"
            "(docs/pto.md): DIR/NAME.cpp, DIR/NAME_launch.h and DIR/tilec_pto.h.\n\n"
            "%s\nexit status: 0 ok, 2 a compile or usage error (an op the PTO target does not\n"
            "lower is an error at its line).\n",
            SELECT);
}

static void help_list(FILE *f)
{
    fprintf(f,
            "usage: tilec list FILE\n\n"
            "Lists what -k can select in FILE: each @tilelang.jit factory and builder (a function\n"
            "returning a prim_func) with its parameters and defaults, and each module-level\n"
            "@T.prim_func with its parameters (role, dtype, shape).\n\n"
            "exit status: 0 ok, 2 the file does not load.\n");
}

static void help_cache(FILE *f)
{
    fprintf(
        f,
        "usage: tilec cache info|clean\n\n"
        "The cpu target's compile cache: $TILEC_CACHE_DIR, else $XDG_CACHE_HOME/tilec, else\n"
        "~/.cache/tilec. It is capped at $TILEC_CACHE_MAX_MB MiB (default 2048): after a compile\n"
        "the least recently used kernels go. A compiler run is stopped after $TILEC_CC_TIMEOUT\n"
        "seconds (default 300). When the directory cannot be written, kernels are compiled in a\n"
        "temporary directory, not cached (a warning says so).\n\n"
        "  info                  where it is, its kernels and their size against the cap\n"
        "  clean                 remove every file tilec made there (nothing else)\n");
}

static void usage(FILE *f)
{
    fprintf(
        f,
        "usage: tilec <command> [args]\n\n"
        "commands:\n"
        "  list FILE             the kernels, factories and builders of a file, with parameters\n"
        "  ir FILE [options]     print the Tile IR of a kernel\n"
        "  emit FILE --target pto -o DIR   write the kernel as PTO-ISA C++\n"
        "  run FILE [options]    run a kernel (reference semantics, or --target cpu / sim / pto)\n"
        "  sim FILE [options]    run it on the modeled Ascend core (cycles, races)\n"
        "  demo [options]        the DeepSeek-V4 operators against their goldens\n"
        "  cache info|clean      the cpu target's compile cache: its size, or remove it\n"
        "  version               print the version\n"
        "  help [COMMAND]        this text, or a command's options with their values\n\n"
        "tilec COMMAND --help is the same as tilec help COMMAND.\n");
}

int cli_help(const char *command, FILE *f)
{
    if (!command)
        usage(f);
    else if (!strcmp(command, "run"))
        help_run(f);
    else if (!strcmp(command, "sim"))
        help_sim(f);
    else if (!strcmp(command, "ir"))
        help_ir(f);
    else if (!strcmp(command, "demo"))
        help_demo(f);
    else if (!strcmp(command, "emit"))
        help_emit(f);
    else if (!strcmp(command, "list"))
        help_list(f);
    else if (!strcmp(command, "cache"))
        help_cache(f);
    else if (!strcmp(command, "version") || !strcmp(command, "help"))
        usage(f);
    else {
        fprintf(stderr, "tilec help: no command '%s'\n", command);
        usage(stderr);
        return 2;
    }
    return f == stderr ? 2 : 0;
}
