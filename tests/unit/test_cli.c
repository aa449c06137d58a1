// The tilec command line: `tilec ir` and `tilec run` end to end through the
// binary (exit codes 0 / 1 / 2, outputs written, --expect checks).
#include "../test.h"

#include <stdlib.h>

#include <stdarg.h>

// Runs tilec with the NULL-terminated arguments; output in *out.
static int tilec(char **out, ...)
{
    char *argv[32];
    int n = 0;
    argv[n++] = (char *)tl_test_tilec();
    va_list ap;
    va_start(ap, out);
    for (char *a; n < 31 && (a = va_arg(ap, char *));) argv[n++] = a;
    va_end(ap);
    argv[n] = NULL;
    return tl_test_run(argv, out);
}

TEST(cli_ir_prints_kernel_and_fails_with_2)
{
    char *out;
    CHECK_EQ(tilec(&out, "ir", "kernels/examples/gemm.py", NULL), 0);
    CHECK_CONTAINS(out, "gemm_v0");
    free(out);
    const char *bad = tl_test_tmp("bad.py");
    const char *src = "import tilelang.language as T\n@T.prim_func\ndef f(A: T.Tensor((4,), 'float32')):\n"
                      "    with T.Kernel(1, is_npu=True) as (c, v):\n        T.copy(A)\n";
    REQUIRE(tl_test_write_file(bad, src, strlen(src)));
    CHECK_EQ(tilec(&out, "ir", bad, NULL), 2);
    CHECK_CONTAINS(out, "bad.py:5:");
    CHECK_CONTAINS(out, "^");
    free(out);
    CHECK_EQ(tilec(&out, "ir", "kernels/examples/gemm.py", "--dump-after=nopass", NULL), 2);
    CHECK_CONTAINS(out, "no pass named 'nopass'");
    free(out);
}

TEST(cli_run_writes_outputs_and_checks_expect)
{
    char *out;
    char outdir[1024];
    snprintf(outdir, sizeof outdir, "%s/out", tl_test_tmpdir());
    // Run once to produce C, then again expecting exactly that output.
    CHECK_EQ(tilec(&out, "run", "kernels/examples/elementwise_add.py", "-a", "M=128", "-o", outdir, NULL), 0);
    CHECK_CONTAINS(out, "wrote");
    free(out);
    char cfile[1100], expect[1200];
    snprintf(cfile, sizeof cfile, "%s/C.npy", outdir);
    snprintf(expect, sizeof expect, "C=%s", cfile);
    CHECK_EQ(tilec(&out, "run", "kernels/examples/elementwise_add.py", "-a", "M=128", "--expect", expect, NULL), 0);
    CHECK_CONTAINS(out, "C matches");
    free(out);
    // A different seed gives different inputs: the same expectation now fails with exit 1.
    CHECK_EQ(tilec(&out, "run", "kernels/examples/elementwise_add.py", "-a", "M=128", "--expect", expect, "--seed=7", NULL),
             1);
    CHECK_CONTAINS(out, "does not match");
    CHECK_CONTAINS(out, "worst at [");
    free(out);
}

TEST(cli_run_reports_missing_dims_and_bad_options)
{
    char *out;
    CHECK_EQ(tilec(&out, "run", "kernels/ds_v4/int8_gemm.py", NULL), 2);
    CHECK_CONTAINS(out, "give the symbolic dimensions with -d");
    free(out);
    CHECK_EQ(tilec(&out, "run", "kernels/ds_v4/int8_gemm.py", "-d", "M=64", "-a", "N=128", "-a", "K=128", NULL), 0);
    free(out);
    CHECK_EQ(tilec(&out, "run", "kernels/ds_v4/int8_gemm.py", "-d", "Q=64", NULL), 2);
    CHECK_CONTAINS(out, "no symbolic dimension or scalar parameter 'Q'");
    free(out);
    CHECK_EQ(tilec(&out, "run", "kernels/ds_v4/int8_gemm.py", "--frobnicate", NULL), 2);
    CHECK_CONTAINS(out, "unknown option '--frobnicate'");
    free(out);
}
