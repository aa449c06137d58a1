// dev_order: a developer-mode loop body where one core reads data the other
// core writes later in the same iteration (nothing writing it before) runs in
// data-flow order, in both pipelines: `tilec run` (the reference pipeline on
// the executor) and `tilec sim` (the NPU pipeline on the simulator) give the
// golden result, race-free. Pairs on one core, and bodies whose dependences
// would form a cycle, keep program order.
#include "../test.h"

#include "check/check.h"
#include "test_pass_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const pk_pass_fn order_only[] = {tl_pass_dev_order, NULL};

#define PRELUDE                                                                                    \
    "import tilelang\n"                                                                            \
    "import tilelang.language as T\n"                                                              \
    "CFG = {tilelang.PassConfigKey.TL_ASCEND_AUTO_CV_COMBINE: True,\n"                             \
    "       tilelang.PassConfigKey.TL_ASCEND_AUTO_CV_SYNC: True,\n"                                \
    "       tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True}\n"

// C[cid, i] = A[i] @ B for 4 row blocks; the tile reaches the cube through a
// GM tensor W (written by the vector cores after the cube's read in the body).
static const char *gm_src =
    PRELUDE "@tilelang.jit(out_idx=[2], workspace_idx=[3], pass_configs=CFG)\n"
            "def k():\n"
            "    @T.prim_func\n"
            "    def main(A: T.Tensor((4, 16, 64), 'float16'), B: T.Tensor((64, 64), 'float16'),\n"
            "             C: T.Tensor((2, 4, 16, 64), 'float32'),\n"
            "             W: T.Tensor((2, 16, 64), 'float16')):\n"
            "        with T.Kernel(2, is_npu=True) as (cid, vid):\n"
            "            a = T.alloc_L1((16, 64), 'float16')\n"
            "            b = T.alloc_L1((64, 64), 'float16')\n"
            "            c = T.alloc_L0C((16, 64), 'float32')\n"
            "            u = T.alloc_ub((8, 64), 'float16')\n"
            "            T.copy(B, b)\n"
            "            for i in T.serial(4):\n"
            "                T.copy(W[cid, 0, 0], a)\n"
            "                T.gemm_v0(a, b, c, init=True)\n"
            "                T.copy(c, C[cid, i, 0, 0])\n"
            "                T.copy(A[i, vid * 8, 0], u)\n"
            "                T.copy(u, W[cid, vid * 8, 0])\n"
            "    return main\n";

// The same through a UB -> L1 hand-off that the body writes after the gemm
// reads it (one logical vector lane, threads=2).
static const char *handoff_src =
    PRELUDE "@tilelang.jit(out_idx=[2], pass_configs=CFG)\n"
            "def k():\n"
            "    @T.prim_func\n"
            "    def main(A: T.Tensor((4, 16, 64), 'float16'), B: T.Tensor((64, 64), 'float16'),\n"
            "             C: T.Tensor((2, 4, 16, 64), 'float32')):\n"
            "        with T.Kernel(2, threads=2, is_npu=True) as cid:\n"
            "            a = T.alloc_shared((16, 64), 'float16')\n"
            "            b = T.alloc_L1((64, 64), 'float16')\n"
            "            c = T.alloc_fragment((16, 64), 'float32')\n"
            "            u = T.alloc_ub((16, 64), 'float16')\n"
            "            T.copy(B, b)\n"
            "            for i in T.serial(4):\n"
            "                T.gemm_v0(a, b, c, init=True)\n"
            "                T.copy(c, C[cid, i, 0, 0])\n"
            "                T.copy(A[i, 0, 0], u)\n"
            "                T.tile.mul(u, u, 2.0)\n"
            "                T.copy(u, a)\n"
            "    return main\n";

static double g_mul = 1.0; // the golden's factor on A

static tl_status_t golden_blocks(const tl_check_case_t *c, tl_check_io_t *io, tl_diag_t *d)
{
    (void)c;
    tl_tensor_t *want = tl_check_expected(io, "C", d);
    float *a = tl_check_floats(tl_check_tensor(io, "A")),
          *b = tl_check_floats(tl_check_tensor(io, "B"));
    tl_status_t st = want && a && b ? TL_OK : TL_ERR_NOMEM;
    for (int blk = 0; st == TL_OK && blk < 2; blk++)
        for (int i = 0; i < 4 * 16; i++)
            for (int j = 0; j < 64; j++) {
                double s = 0;
                for (int l = 0; l < 64; l++) s += (double)a[i * 64 + l] * g_mul * b[l * 64 + j];
                ((float *)want->data)[(blk * 64 + i) * 64 + j] = (float)s;
            }
    free(a);
    free(b);
    return st;
}

// Both pipelines and the CPU target on src match the golden; the simulator sees no race.
static void check_agree(tl_test_t *t, const char *name, const char *src, double mul)
{
    char path[1024];
    snprintf(path, sizeof path, "%s", tl_test_tmp(name));
    FILE *f = fopen(path, "w");
    REQUIRE(f);
    fputs(src, f);
    fclose(f);
    g_mul = mul;
    tl_check_case_t c = {.name = name,
                         .op = name,
                         .file = path,
                         .outputs = {"C"},
                         .rtol = 1e-3,
                         .atol = 1e-3,
                         .golden = golden_blocks};
    tl_diag_t d;
    tl_diag_init(&d);
    tl_check_result_t ref = {0}, sim = {0};
    tl_check_target_t rt = tl_check_target("ref"), si = tl_check_target("sim");
    CHECK_EQ(tl_check_run(&c, "/", &rt, &ref, &d), TL_OK);
    if (!ref.passed)
        tl_test_fail(t, __FILE__, __LINE__, "tilec run: %s\n%s", ref.summary, tl_diag_text(&d));
    CHECK_EQ(tl_check_run(&c, "/", &si, &sim, &d), TL_OK);
    if (!sim.passed)
        tl_test_fail(t, __FILE__, __LINE__, "tilec sim: %s\n%s", sim.summary, tl_diag_text(&d));
    CHECK_EQ(si.report.nraces, 0);
    CHECK_EQ(si.report.nerrors, 0);
    tl_check_result_t cpu = {0};
    tl_check_target_t ct = tl_check_target("cpu");
    CHECK_EQ(tl_check_run(&c, "/", &ct, &cpu, &d), TL_OK);
    if (!cpu.passed)
        tl_test_fail(t, __FILE__, __LINE__, "tilec run --target cpu: %s\n%s", cpu.summary,
                     tl_diag_text(&d));
    tl_diag_free(&d);
}

TEST(dev_order_run_and_sim_agree_on_a_gm_read_before_its_write)
{
    check_agree(t, "dev_order_gm.py", gm_src, 1.0);
}

TEST(dev_order_run_and_sim_agree_on_a_handoff_read_before_its_write)
{
    check_agree(t, "dev_order_handoff.py", handoff_src, 2.0);
}

TEST(dev_order_puts_the_write_first_with_a_warning)
{
    pk_spec_t s = {.src = gm_src};
    pk_t p;
    REQUIRE(pk_compile(&p, &s, order_only) == TL_OK);
    CHECK_CONTAINS(tl_diag_text(&p.d), "k.py:19:17: warning: 'W' is read here before it is written "
                                       "(line 23) in the same iteration of the loop at line 18");
    CHECK_CONTAINS(tl_buf_cstr(&p.dump), "    copy A[i +: 1, vid * 8 +: 8, :], u\n"
                                         "    copy u, W[cid +: 1, vid * 8 +: 8, :]\n"
                                         "    copy W[cid +: 1, :, :], a\n");
    pk_free(&p);
}

// Statements of one body, with the given loop body, and the dump after dev_order.
static char *order_of(tl_test_t *t, const char *body, bool *warned)
{
    char src[4096];
    snprintf(src, sizeof src,
             PRELUDE "@tilelang.jit(out_idx=[1], workspace_idx=[2], pass_configs=CFG)\n"
                     "def k():\n"
                     "    @T.prim_func\n"
                     "    def main(A: T.Tensor((16, 64), 'float16'), C: T.Tensor((16, 64), "
                     "'float16'), W: T.Tensor((16, 64), 'float16')):\n"
                     "        with T.Kernel(1, is_npu=True) as (cid, vid):\n"
                     "            a = T.alloc_L1((16, 64), 'float16')\n"
                     "            b = T.alloc_L1((64, 64), 'float16')\n"
                     "            c = T.alloc_L0C((16, 64), 'float32')\n"
                     "            u = T.alloc_ub((16, 64), 'float16')\n"
                     "            v = T.alloc_ub((16, 64), 'float16')\n"
                     "            for i in T.serial(2):\n"
                     "%s"
                     "    return main\n",
             body);
    pk_spec_t s = {.src = src};
    pk_t p;
    char *r = NULL;
    if (pk_compile(&p, &s, order_only) == TL_OK) {
        const char *d = tl_buf_cstr(&p.dump);
        r = strdup(strstr(d, "  for i") ? strstr(d, "  for i") : d);
        *warned = strstr(tl_diag_text(&p.d), "is read here before it is written") != NULL;
    } else {
        tl_test_fail(t, __FILE__, __LINE__, "compile failed:\n%s", tl_diag_text(&p.d));
    }
    pk_free(&p);
    return r;
}

TEST(dev_order_keeps_program_order_on_one_core)
{
    // The vector cores read W and then write it: their own order, nothing moves.
    bool warned = true;
    char *d = order_of(t,
                       "                T.copy(W[0, 0], u)\n"
                       "                T.copy(A[0, 0], v)\n"
                       "                T.copy(v, W[0, 0])\n"
                       "                T.copy(u, C[0, 0])\n",
                       &warned);
    REQUIRE(d);
    CHECK(!warned);
    CHECK_CONTAINS(d, "    copy W[:, :], u\n    copy A[:, :], v\n    copy v, W[:, :]\n");
    free(d);
}

TEST(dev_order_keeps_program_order_when_the_write_depends_on_the_read)
{
    // The cube reads W into a, the vector cores' write of W needs C, which
    // the cube computes from a: moving the write first would be a cycle.
    bool warned = true;
    char *d = order_of(t,
                       "                T.copy(W[0, 0], a)\n"
                       "                T.gemm_v0(a, b, c, init=True)\n"
                       "                T.copy(c, C[0, 0])\n"
                       "                T.copy(C[0, 0], v)\n"
                       "                T.copy(v, W[0, 0])\n",
                       &warned);
    REQUIRE(d);
    CHECK(!warned);
    CHECK_CONTAINS(d,
                   "    copy W[:, :], a\n    gemm_v0 a, b, c [init=True]\n    copy c, C[:, :]\n");
    free(d);
}
