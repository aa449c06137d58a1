// The pto target (src/pto) against the golden references: every case of the
// check runner (src/check/cases.c) on --target pto, one test per case, the
// model-sized ones left out (pto-isa's CPU implementation runs element by
// element, 50-300x slower than the reference executor).
//
// The runs need a pto-isa checkout: `make check-pto PTO_ISA_DIR=DIR`. Without
// $PTO_ISA_DIR there is one test, reported as skipped.
#include "../test.h"

#include <stdlib.h>
#include <string.h>

#include "check/check.h"

static void run_case(tl_test_t *t, void *arg)
{
    const tl_check_case_t *c = arg;
    tl_diag_t d;
    tl_diag_init(&d);
    tl_check_result_t r;
    tl_check_target_t pto = tl_check_target("pto");
    tl_status_t st = tl_check_run(c, tl_test_root(), &pto, &r, &d);
    if (c->pto_gap) { // a known gap: the refusal it names, located; a run means the gap closed
        if (st == TL_OK)
            tl_test_fail(t, __FILE__, __LINE__,
                         "%s now runs on --target pto: remove its .pto_gap (src/check/cases.c)",
                         c->name);
        else if (!strstr(tl_diag_text(&d), c->pto_gap) ||
                 !strstr(tl_diag_text(&d), "not lowered to PTO yet"))
            tl_test_fail(t, __FILE__, __LINE__, "%s: expected the pto gap '%s', got:\n%s",
                         c->name, c->pto_gap, tl_diag_text(&d));
        else
            tl_test_skip(t, c->pto_gap);
    } else if (st != TL_OK)
        tl_test_fail(t, __FILE__, __LINE__, "%s did not run on --target pto:\n%s", c->name,
                     tl_diag_text(&d));
    else if (!r.passed)
        tl_test_fail(t, __FILE__, __LINE__, "%s on --target pto differs from its golden: %s",
                     c->name, r.summary);
    tl_diag_free(&d);
}

static void skipped(tl_test_t *t, void *arg)
{
    (void)arg;
    tl_test_skip(
        t, "no pto-isa checkout: the --target pto cases run with `make check-pto PTO_ISA_DIR=DIR`");
}

TEST_GENERATOR(pto_cases)
{
    const char *dir = getenv("PTO_ISA_DIR");
    if (!dir || !*dir) {
        tl_test_add("kernels:pto_cases", skipped, NULL);
        return;
    }
    for (const tl_check_case_t *const *c = tl_check_cases(); *c; c++) {
        if ((*c)->slow || (*c)->cpu_only) continue;
        char name[256];
        snprintf(name, sizeof name, "kernels:%s@pto", (*c)->name);
        tl_test_add(name, run_case, (void *)*c);
    }
}

// Without a pto-isa checkout --target pto says what it needs (exit 2, no crash).
TEST(pto_needs_a_checkout)
{
    char *argv[] = {(char *)tl_test_tilec(),
                    "run",
                    "kernels/examples/elementwise_add.py",
                    "--target",
                    "pto",
                    "--pto-isa",
                    "/nonexistent/pto-isa",
                    NULL};
    char *out = NULL;
    CHECK_EQ(tl_test_run(argv, &out), 2);
    CHECK_CONTAINS(out, "/nonexistent/pto-isa is not a pto-isa checkout");
    free(out);
}

// tilec emit writes the kernel, its launch header and the support header; an op
// the PTO target does not lower is an error at its line (exit 2), no files.
TEST(pto_emit_writes_files_and_locates_unsupported_ops)
{
    const char *dir = tl_test_tmp("emitted");
    char *argv[] = {(char *)tl_test_tilec(),
                    "emit",
                    "kernels/examples/elementwise_add.py",
                    "--target",
                    "pto",
                    "-o",
                    (char *)dir,
                    NULL};
    char *out = NULL;
    CHECK_EQ(tl_test_run(argv, &out), 0);
    free(out);
    static const char *const files[] = {"main.cpp", "main_launch.h", "tilec_pto.h"};
    for (int i = 0; i < 3; i++) {
        char path[600];
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        char *text = tl_test_read_file(path, NULL);
        if (!text) tl_test_fail(t, __FILE__, __LINE__, "%s was not written", path);
        if (text && i == 0)
            CHECK_CONTAINS(text, "extern \"C\" __global__ __aicore__ void main_kernel(");
        if (text && i == 1) CHECK_CONTAINS(text, "int main_launch(");
        free(text);
    }
    char *bad[] = {(char *)tl_test_tilec(),
                   "emit",
                   "tests/data/pto/unsupported_sin.py",
                   "--target",
                   "pto",
                   "-o",
                   (char *)tl_test_tmp("bad"),
                   NULL};
    CHECK_EQ(tl_test_run(bad, &out), 2);
    CHECK_CONTAINS(out, "unsupported_sin.py:16:17: error: T.tile.sin (no PTO-ISA instruction)");
    CHECK_CONTAINS(out, "not lowered to PTO yet");
    free(out);
}

// Expressions of any length are emitted whole (the text of a 2,000-character GM
// start was cut at 1,024 characters, leaving unbalanced parentheses).
TEST(pto_emits_long_expressions_whole)
{
    char *argv[] = {(char *)tl_test_tilec(), "ir", "tests/data/pto/long_expr.py", "--emit=pto",
                    NULL};
    char *out = NULL;
    CHECK_EQ(tl_test_run(argv, &out), 0);
    long open = 0, close = 0;
    for (const char *p = out ? out : ""; *p; p++) open += *p == '(', close += *p == ')';
    CHECK(open > 400);
    CHECK_EQ(open, close);
    free(out);
}

// A cross-core flag among pto::SYNCALL's own (11-14) in a kernel with
// T.sync_all is a located error; flag 10 is emitted.
TEST(pto_sync_all_flag_clash)
{
    char *argv[] = {(char *)tl_test_tilec(), "ir", "tests/data/pto/sync_all_flag_clash.py",
                    "--emit=pto", NULL};
    char *out = NULL;
    CHECK_EQ(tl_test_run(argv, &out), 2);
    CHECK_CONTAINS(out, "sync_all_flag_clash.py:21:17: error: cross-core flag 12 in a kernel with "
                        "T.sync_all");
    free(out);
    char *ok[] = {(char *)tl_test_tilec(),
                  "ir",
                  "tests/data/pto/sync_all_flag_clash.py",
                  "-a",
                  "flag=10",
                  "--emit=pto",
                  NULL};
    CHECK_EQ(tl_test_run(ok, &out), 0);
    free(out);
}

// Two processes building the same kernel into one cache at once (two runs of
// a kernel, parallel tests): the compiler wrapper runs a whole second build
// of the same key between this build's compile and its link. Each build links
// its own objects (they used to share NAME.o, which the other removed: "no
// such file or directory" at the link).
TEST(pto_same_key_builds)
{
    const char *isa = getenv("PTO_ISA_DIR");
    if (!isa || !*isa) {
        skipped(t, NULL);
        return;
    }
    char cxx[1024], nested[2048];
    snprintf(cxx, sizeof cxx, "%s/tests/data/pto/cxx_with_nested_build.sh", tl_test_root());
    setenv("TILEC_PTO_CXX", cxx, 1);
    setenv("TILEC_CACHE_DIR", tl_test_tmp("cache"), 1);
    snprintf(nested, sizeof nested,
             "%s run kernels/examples/elementwise_add.py -a M=64 -a N=256 --target pto -o %s",
             tl_test_tilec(), tl_test_tmp("nested"));
    setenv("TL_NESTED_RUN", nested, 1);
    char *argv[] = {(char *)tl_test_tilec(),
                    "run",
                    "kernels/examples/elementwise_add.py",
                    "-a",
                    "M=64",
                    "-a",
                    "N=256",
                    "--target",
                    "pto",
                    "-o",
                    (char *)tl_test_tmp("out"),
                    NULL};
    char *out = NULL;
    int rc = tl_test_run(argv, &out);
    if (rc != 0)
        tl_test_fail(t, __FILE__, __LINE__, "the run failed (exit %d):\n%s", rc, out);
    else
        CHECK_CONTAINS(out, "compiled main for the pto in");
    free(out);
}

// The NPU flavour of T.tile.im2col (TIMG2COL into the zZ L0A tile, per channel
// block when the feature map's L1 matrices are padded to 16-row fractals, in
// one instruction when it is one NC1HWC0 run) type-checks against pto-isa's
// A2/A3 templates (scripts/pto_npu_check.sh: its costmodel build on the host,
// both passes, -Werror); it was an #error.
TEST(pto_npu_flavour_im2col)
{
    const char *isa = getenv("PTO_ISA_DIR");
    if (!isa || !*isa) {
        skipped(t, NULL);
        return;
    }
    setenv("TILEC", tl_test_tilec(), 1);
    // the defaults (two padded matrices: per channel block), and one NC1HWC0 run in two bands
    static char *const bands[] = {"-a", "H=4",   "-a", "W=4",  "-a", "M=32", "-a",
                                  "POS=1", "-a", "VM=20", "-a", "SH=1", "-a", "DH=1",
                                  "-a", "DW=1",  "-a", "PR=1", "-a", "PT=1"};
    for (int i = 0; i < 2; i++) {
        char *argv[32] = {"sh", "scripts/pto_npu_check.sh", "tests/data/kernels/im2col.py"};
        int n = 3;
        for (size_t k = 0; i && k < sizeof bands / sizeof *bands; k++) argv[n++] = bands[k];
        argv[n] = NULL;
        char *out = NULL;
        int rc = tl_test_run(argv, &out);
        if (rc != 0)
            tl_test_fail(t, __FILE__, __LINE__, "the NPU flavour check failed (exit %d):\n%s", rc,
                         out);
        else
            CHECK_CONTAINS(out, "both NPU passes compile");
        free(out);
    }
}
