// `tilec sim` end to end through the binary: exit statuses (0 clean or benign
// races only, 1 races / sync misuse / --expect mismatch, 2 usage or compile
// errors), the summary, --json and --trace files, --arch.
#include "../test.h"

#include <stdlib.h>

static int sim(char *out_path_json, char *out_path_trace, const char *file, const char *extra,
               char **out)
{
    char *argv[16];
    int n = 0;
    argv[n++] = (char *)tl_test_tilec();
    argv[n++] = "sim";
    argv[n++] = (char *)file;
    if (out_path_json) {
        argv[n++] = "--json";
        argv[n++] = out_path_json;
    }
    if (out_path_trace) {
        argv[n++] = "--trace";
        argv[n++] = out_path_trace;
    }
    if (extra) {
        argv[n++] = "--arch";
        argv[n++] = (char *)extra;
    }
    argv[n] = NULL;
    return tl_test_run(argv, out);
}

TEST(sim_cli_clean_kernel_exits_0_and_writes_json_and_trace)
{
    char json[512], trace[512];
    snprintf(json, sizeof json, "%s", tl_test_tmp("ok.json"));
    snprintf(trace, sizeof trace, "%s", tl_test_tmp("ok.trace.json"));
    char *out = NULL;
    CHECK_EQ(sim(json, trace, "tests/data/racy/ok_cross_flag.py", NULL, &out), 0);
    CHECK_CONTAINS(out, "sim main on a2 (Ascend910B2, 24 cores at 1800 MHz): 1 blocks in 1 wave");
    CHECK_CONTAINS(out, "races 0, benign races 0, sync/memory errors 0");
    char *j = tl_test_read_file(json, NULL), *tr = tl_test_read_file(trace, NULL);
    REQUIRE(j && tr);
    CHECK_CONTAINS(j, "\"cycles\": ");
    CHECK_CONTAINS(j, "\"races\": [],");
    CHECK_CONTAINS(tr, "\"traceEvents\": [");
    CHECK_CONTAINS(tr, "core0.cubecore0");
    free(j);
    free(tr);
    free(out);
}

TEST(sim_cli_races_exit_1_benign_races_exit_0)
{
    char *out = NULL;
    CHECK_EQ(sim(NULL, NULL, "tests/data/racy/wrong_pipe_pair.py", NULL, &out), 1);
    CHECK_CONTAINS(out, "wrong_pipe_pair.py:21:17: error: race RAW on UB: T.copy (mte3 pipe");
    CHECK_CONTAINS(out, "wrong_pipe_pair.py:18:17: note: write of 'a' bytes [0, 16384) by T.copy");
    free(out);
    CHECK_EQ(sim(NULL, NULL, "tests/data/racy/benign_same_bytes.py", NULL, &out), 0);
    CHECK_CONTAINS(out, "warning: benign race WAW on gm");
    CHECK_CONTAINS(out, "races 0, benign races 1");
    free(out);
    CHECK_EQ(sim(NULL, NULL, "tests/data/racy/double_set.py", NULL, &out), 1);
    CHECK_CONTAINS(out, "double_set.py:21:17: error: set_flag(mte2, mte3, 0) is set again");
    free(out);
}

TEST(sim_cli_usage_and_compile_errors_exit_2)
{
    char *out = NULL;
    CHECK_EQ(sim(NULL, NULL, "tests/data/racy/ok_barrier_v.py", "a9", &out), 2);
    CHECK_CONTAINS(out, "--arch a9: unknown architecture (one of: a2, a3, b3)");
    free(out);
    CHECK_EQ(sim(NULL, NULL, "tests/data/racy/no_such_file.py", NULL, &out), 2);
    free(out);
    CHECK_EQ(sim(NULL, NULL, "tests/data/racy/ok_barrier_v.py", "a3", &out), 0);
    CHECK_CONTAINS(out, "on a3 (Ascend910_9392, 24 cores at 1850 MHz)");
    free(out);
}

TEST(sim_cli_l2_option)
{
    char *out = NULL;
    char *warm[] = {(char *)tl_test_tilec(), "sim", "tests/data/racy/ok_barrier_v.py", "--l2",
                    "warm", NULL};
    CHECK_EQ(tl_test_run(warm, &out), 0);
    CHECK_CONTAINS(out, "B from HBM, L2 warm at the start)");
    CHECK_CONTAINS(out, "(0 B from HBM");
    free(out);
    char *cold[] = {(char *)tl_test_tilec(), "sim", "tests/data/racy/ok_barrier_v.py", NULL};
    CHECK_EQ(tl_test_run(cold, &out), 0);
    CHECK_CONTAINS(out, "B from HBM, L2 cold at the start)");
    free(out);
    char *bad[] = {(char *)tl_test_tilec(), "sim", "tests/data/racy/ok_barrier_v.py", "--l2",
                   "hot", NULL};
    CHECK_EQ(tl_test_run(bad, &out), 2);
    CHECK_CONTAINS(out, "--l2 hot: expected cold or warm");
    free(out);
}

// A scalar argument missing is a usage error found before the run (exit 2,
// the option that gives it named); no JSON report is written for a run that
// did not happen.
TEST(sim_cli_missing_scalar_is_a_usage_error)
{
    char json[512];
    snprintf(json, sizeof json, "%s", tl_test_tmp("unbound.json"));
    char *out = NULL;
    CHECK_EQ(sim(json, NULL, "tests/data/sim/scalar_param.py", NULL, &out), 2);
    CHECK_CONTAINS(out, "scalar parameter 'scale' (float32) is not given: give it with -d scale=VALUE");
    char *j = tl_test_read_file(json, NULL);
    CHECK(!j);
    free(j);
    free(out);
}
