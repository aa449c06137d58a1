// scripts/upstream_check.py's own-argument classes on tests/data/scan (a small corpus of
// kernel files with drivers): arguments a driver derives from tensor shapes are recorded by
// scripts/upstream_harness.py (in the file itself or in another file that imports the kernel),
// a kernel no driver calls is "uninstantiated", a driver that stops early or derives the
// arguments from tensor contents leaves them guessed; each kernel then runs on tilec sim, with
// the T.symbolic sizes and list-made integer inputs of the driver's launch (symbolic.py; with
// workspaces the driver does not pass and an empty tensor, -d K=0, and a driver that goes on
// through torch_npu pairs and values the stand-in does not model: workspace.py; an autograd
// Function whose backward launches the kernel: autograd.py; a package module that imports its
// sibling relatively: boxes/box_kernel.py; an nn.Module driver whose calls of a kernel at
// sizes read from a tensor's contents are not the file's own: module.py; a builder sized from
// the .shape / .dtype of the tensors its test passes, given as T.Tensor(shape, dtype): tensor_arg.py;
// a builder compiled as tilelang.jit(...)(builder)(grid) with grid from get_core_num: core_num.py).
// The --list output must be tests/data/scan/expect.list.
#include "../test.h"

#include <stdlib.h>

// scripts/ are run with /usr/bin/python3: without it the test is skipped.
static bool have_python(tl_test_t *t)
{
    char *out = NULL;
    char *probe[] = {"/usr/bin/python3", "-c", "pass", NULL};
    int rc = tl_test_run(probe, &out);
    free(out);
    if (rc != 0) tl_test_skip(t, "needs /usr/bin/python3 (scripts/ are run with it)");
    return rc == 0;
}

TEST(upstream_check_own_argument_classes)
{
    if (!have_python(t)) return;
    char *out = NULL;
    const char *list = tl_test_tmp("scan.list");
    char *argv[] = {"/usr/bin/python3", "scripts/upstream_check.py", "tests/data/scan", "--tilec",
                    (char *)tl_test_tilec(), "-j", "1", "--sim", "--sim-timeout", "120", "--list",
                    (char *)list, NULL};
    int rc = tl_test_run(argv, &out);
    CHECK_EQ(rc, 0);
    CHECK_CONTAINS(out, "at the file's own arguments: 10 (0 of them from the own-shapes tables, 8 recorded");
    CHECK_CONTAINS(out, "not instantiated by any driver in the corpus: 1 kernels");
    free(out);
    char *got = tl_test_read_file(list, NULL);
    char *want = tl_test_read_file("tests/data/scan/expect.list", NULL);
    REQUIRE(got && want);
    CHECK_STREQ(got, want);
    free(got);
    free(want);
}

// The harness's stand-in tilelang.utils.target.get_core_num gives upstream's
// table value (20 AIC before the device is initialised), and a factory compiled
// as tilelang.jit(...)(builder)(grid) is recorded with that grid.
TEST(upstream_harness_core_num)
{
    if (!have_python(t)) return;
    char *out = NULL;
    char *argv[] = {"/usr/bin/python3", "scripts/upstream_harness.py", "tests/data/scan/core_num.py", NULL};
    CHECK_EQ(tl_test_run(argv, &out), 0);
    CHECK_CONTAINS(out, "\"kernel\": \"_fill_kernel\", \"args\": {\"grid\": 20, \"dtype\": \"float16\"}");
    CHECK_CONTAINS(out, "{\"done\": true}");
    free(out);
}
