// tilec demo [--root DIR] [--traces DIR] [--all] [--no-cpu] [--list]
// The four DeepSeek-V4 operators written in the TileLang-Ascend language
// (kernels/ds_v4/) at model-like shapes: each runs on the modeled Ascend core
// (after the developer-mode passes: CV split, syncs, memory planning) and
// natively on this CPU, is checked against its independent golden reference
// (src/ref/), and lands in one table. Chrome traces of the simulated runs go to
// a folder (open them at https://ui.perfetto.dev). `--all` runs every case.
// The kernels are found from any directory: in the current one, beside the
// tilec binary's folder (the source tree's build/tilec) or in an installed
// tree's share/tilec (`make install`).
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check/check.h"
#include "cli.h"

static void rate(char *out, size_t n, const tl_check_case_t *c, double seconds)
{
    if (seconds <= 0)
        snprintf(out, n, "-");
    else if (c->flops > 0)
        snprintf(out, n, "%.1f %s", c->flops / seconds * 1e-9, c->int_ops ? "GOP/s" : "GFLOP/s");
    else if (c->bytes > 0)
        snprintf(out, n, "%.2f GB/s", c->bytes / seconds * 1e-9);
    else
        snprintf(out, n, "-");
}

static int64_t total_syncs(const int64_t *n)
{
    int64_t t = 0;
    for (int i = 0; i < TL_SYNC_COUNT; i++) t += n[i];
    return t;
}

static bool has_kernels(const char *root)
{
    char path[4300];
    struct stat st;
    return snprintf(path, sizeof path, "%s/kernels/ds_v4", root) < (int)sizeof path &&
           stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

// The directory holding kernels/: the current one, else the tilec binary's
// parent (build/tilec in the source tree), else its ../share/tilec (installed).
static bool find_root(char *out, size_t n)
{
    snprintf(out, n, ".");
    if (has_kernels(out)) return true;
    char exe[4096];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len <= 0) return false;
    exe[len] = 0;
    char *slash = strrchr(exe, '/');
    if (!slash) return false;
    *slash = 0; // the binary's folder
    snprintf(out, n, "%s/..", exe);
    if (has_kernels(out)) return true;
    snprintf(out, n, "%s/../share/tilec", exe);
    return has_kernels(out);
}

int cmd_demo(int argc, char **argv)
{
    const char *root = NULL, *traces = NULL;
    bool all = false, cpu = true, list_only = false;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--root") && i + 1 < argc)
            root = argv[++i];
        else if (!strcmp(argv[i], "--traces") && i + 1 < argc)
            traces = argv[++i];
        else if (!strcmp(argv[i], "--all"))
            all = true;
        else if (!strcmp(argv[i], "--no-cpu"))
            cpu = false;
        else if (!strcmp(argv[i], "--list"))
            list_only = true;
        else {
            fprintf(stderr,
                    "tilec demo: unknown option '%s' (tilec demo --help lists the options)\n",
                    argv[i]);
            return 2;
        }
    }
    static char found[4200], tmp_traces[4200];
    if (root && !has_kernels(root)) {
        fprintf(stderr, "tilec demo: --root %s: no kernels/ds_v4 there\n", root);
        return 2;
    }
    if (!root && !find_root(found, sizeof found)) {
        fprintf(stderr,
                "tilec demo: cannot find the demo's kernels (kernels/ds_v4) in the current "
                "directory, beside the tilec binary or in its ../share/tilec; give --root DIR\n");
        return 2;
    }
    root = root ? root : found;
    if (!traces && !strcmp(root, ".")) {
        traces = "build/demo-traces";
        mkdir("build", 0777);
    } else if (!traces) { // not in the source tree: leave the current directory alone
        const char *t = getenv("TMPDIR");
        snprintf(tmp_traces, sizeof tmp_traces, "%s/tilec-demo-traces", t && *t ? t : "/tmp");
        traces = tmp_traces;
    }
    // the demo's cases, after every check case with --all
    const tl_check_case_t *list[512];
    int total = 0;
    if (all)
        for (const tl_check_case_t *const *cp = tl_check_cases(); *cp && total < 500; cp++)
            list[total++] = *cp;
    for (const tl_check_case_t *const *cp = tl_check_demo_cases(); *cp && total < 512; cp++)
        list[total++] = *cp;
    if (list_only) { // what would run, with the kernel files it found
        for (int i = 0; i < total; i++) printf("%-28s %s/%s\n", list[i]->name, root, list[i]->file);
        return 0;
    }
    if (mkdir(traces, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "tilec demo: --traces %s: cannot create the directory: %s\n", traces,
                strerror(errno));
        return 2;
    }
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    printf(
        "tilec demo: DeepSeek-V4 operators in the TileLang-Ascend language, compiled in developer\n"
        "mode, run on the modeled Ascend 910B core (simulator: values, races, cycles) and "
        "natively\n"
        "on this CPU, each checked against an independent C golden.\n\n");
    char line[512];
    int failed = 0, n = 0;
    static char table[512][512];
    int rows = 0;
    for (int li = 0; li < total; li++) {
        const tl_check_case_t *c = list[li];
        n++;
        tl_diag_t d;
        tl_diag_init(&d);
        char trace[4400];
        if (snprintf(trace, sizeof trace, "%s/%s.json", traces, c->op) >= (int)sizeof trace)
            trace[0] = 0;
        tl_check_target_t si = tl_check_target("sim"), ci = tl_check_target("cpu");
        si.trace_path = trace[0] ? trace : NULL;
        ci.repeats = 3;
        tl_check_result_t rs, rc = {0};
        tl_status_t st = TL_OK;
        bool ok = true, sim = !c->cpu_only; // cpu_only: too large for the simulator
        if (sim) {
            fprintf(stderr, "[%d/%d] %s: simulating on the Ascend model ...\n", n, total, c->name);
            st = tl_check_run(c, root, &si, &rs, &d);
            ok = st == TL_OK && rs.passed && si.report.nraces == 0 && si.report.nerrors == 0;
        } else {
            rs = (tl_check_result_t){.passed = true};
        }
        if (st == TL_OK && cpu) {
            fprintf(stderr, "[%d/%d] %s: compiling for and running on the CPU ...\n", n, total,
                    c->name);
            st = tl_check_run(c, root, &ci, &rc, &d);
            ok = ok && st == TL_OK && rc.passed;
        }
        if (!ok) {
            failed++;
            fputs(tl_diag_text(&d), stderr);
            if (st == TL_OK && !rs.passed) fprintf(stderr, "  simulator: %s\n", rs.summary);
            if (st == TL_OK && cpu && !rc.passed) fprintf(stderr, "  cpu: %s\n", rc.summary);
        }
        char r[32], err[32];
        rate(r, sizeof r, c, cpu ? ci.run_seconds : 0);
        double e = rs.max_abs_err > rc.max_abs_err ? rs.max_abs_err : rc.max_abs_err;
        snprintf(err, sizeof err, "%.2g", e);
        const int64_t *pk = si.report.scratch_peak;
        char simcols[96] = "        -      - (cpu only)";
        if (sim)
            snprintf(simcols, sizeof simcols, "%9.2f %6lld %5lld/%lld/%lld/%lld", si.report.time_us,
                     (long long)total_syncs(si.inserted), (long long)(pk[TL_SCOPE_UB] >> 10),
                     (long long)(pk[TL_SCOPE_L1] >> 10), (long long)(pk[TL_SCOPE_L0A] >> 10),
                     (long long)(pk[TL_SCOPE_L0C] >> 10));
        snprintf(line, sizeof line, "%-18s %-40s %-5s %8s %9.2f %14s %s", c->op, c->shape,
                 ok ? "ok" : "FAIL", err, cpu ? ci.run_seconds * 1e3 : 0, r, simcols);
        snprintf(table[rows++], sizeof table[0], "%s", line);
        tl_diag_free(&d);
    }
    printf("%-18s %-40s %-5s %8s %9s %14s %9s %6s %s\n", "operator", "shape", "check", "max err",
           "cpu ms", "cpu rate", "sim us", "syncs", "peak KiB UB/L1/L0A/L0C");
    for (int i = 0; i < rows; i++) printf("%s\n", table[i]);
    printf(
        "\nmax err: largest |result - golden| over the simulator's and the CPU's outputs.\n"
        "cpu ms: best of 3 runs on this machine (%ld threads); sim us: modeled device time at\n"
        "1.8 GHz (kernel start included, host launch not); syncs: flags and barriers the passes\n"
        "inserted.\n",
        ncpu);
    printf(
        "Chrome traces of the simulated runs: %s/<operator>.json (open in https://ui.perfetto.dev\n"
        "or chrome://tracing: one process per core, one thread per pipe, arrows from set to "
        "wait).\n",
        traces);
    printf("%d of %d operators match their goldens%s.\n", n - failed, n,
           failed ? "" : " with no race");
    return failed ? 1 : 0;
}
