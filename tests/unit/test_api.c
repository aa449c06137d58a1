// The public C API (include/tilec.h): compile from a string, query parameters,
// launch with caller-owned memory, diagnostics through the context, and two
// contexts used from two threads at once.
#include "../test.h"

#include <pthread.h>
#include <stdlib.h>

#include "tilec.h"

static const char *add_src =
    "import tilelang\n"
    "import tilelang.language as T\n"
    "\n"
    "@tilelang.jit(out_idx=[-1])\n"
    "def add(N=256, block=64):\n"
    "    M = T.symbolic('M')\n"
    "\n"
    "    @T.prim_func\n"
    "    def main(A: T.Tensor((M, N), 'float32'), B: T.Tensor((M, N), 'float32'),\n"
    "             C: T.Tensor((M, N), 'float32')):\n"
    "        with T.Kernel(T.ceildiv(M, 2), is_npu=True) as (cid, vid):\n"
    "            a = T.alloc_ub((1, N), 'float32')\n"
    "            b = T.alloc_ub((1, N), 'float32')\n"
    "            with T.Scope('V'):\n"
    "                T.copy(A[cid * 2 + vid, 0], a)\n"
    "                T.copy(B[cid * 2 + vid, 0], b)\n"
    "                T.tile.add(a, a, b)\n"
    "                T.copy(a, C[cid * 2 + vid, 0])\n"
    "    return main\n";

TEST(api_compile_query_launch)
{
    tilec_context_t *ctx;
    REQUIRE(tilec_context_create(&ctx) == TILEC_OK);
    tilec_arg_t args[] = {{"N", "64"}};
    tilec_compile_options_t o = {.args = args, .nargs = 1};
    tilec_kernel_t *k;
    REQUIRE(tilec_compile_string(ctx, "add.py", add_src, &o, &k) == TILEC_OK);
    CHECK_STREQ(tilec_kernel_name(k), "add"); // the factory, not its prim_func "main"
    CHECK_EQ(tilec_kernel_num_params(k), 3);
    CHECK_EQ(tilec_kernel_num_dims(k), 1);
    CHECK_STREQ(tilec_kernel_dim_name(k, 0), "M");
    tilec_param_info_t info;
    REQUIRE(tilec_kernel_param(k, 2, &info) == TILEC_OK);
    CHECK_STREQ(info.name, "C");
    CHECK_EQ(info.role, TILEC_PARAM_OUTPUT);
    CHECK_EQ(info.dtype, TILEC_F32);
    CHECK_EQ(info.ndim, 2);
    CHECK_EQ(info.shape[0], -1);
    CHECK_STREQ(info.shape_expr[0], "M");
    CHECK_EQ(info.shape[1], 64);
    CHECK(tilec_kernel_param(k, 3, &info) == TILEC_ERR_ARG);

    enum { M = 6, N = 64 };
    float *a = malloc(sizeof(float) * M * N), *b = malloc(sizeof(float) * M * N), *c = malloc(sizeof(float) * M * N);
    for (int i = 0; i < M * N; i++) a[i] = (float)i, b[i] = 0.5f * (float)i, c[i] = -1;
    int64_t shape[2] = {M, N};
    tilec_value_t v[3] = {tilec_tensor(a, TILEC_F32, 2, shape), tilec_tensor(b, TILEC_F32, 2, shape),
                          tilec_tensor(c, TILEC_F32, 2, shape)};
    tilec_report_t rep;
    REQUIRE(tilec_launch(k, TILEC_TARGET_REF, v, 3, &rep) == TILEC_OK);
    for (int i = 0; i < M * N; i++) CHECK(c[i] == 1.5f * (float)i);
    CHECK(rep.seconds >= 0);
    // Wrong argument count and dtype are argument errors with a message.
    CHECK(tilec_launch(k, TILEC_TARGET_REF, v, 2, NULL) == TILEC_ERR_ARG);
    CHECK_CONTAINS(tilec_context_error(ctx), "takes 3 arguments, got 2");
    v[0].dtype = TILEC_F16;
    CHECK(tilec_launch(k, TILEC_TARGET_REF, v, 3, NULL) == TILEC_ERR_ARG);
    CHECK_CONTAINS(tilec_context_error(ctx), "is float16, the kernel expects float32");
    char *ir = tilec_kernel_ir(k);
    CHECK_CONTAINS(ir, "add a, a, b");
    tilec_free(ir);
    free(a), free(b), free(c);
    tilec_kernel_destroy(k);
    tilec_context_destroy(ctx);
}

TEST(api_compile_error_in_context)
{
    tilec_context_t *ctx;
    REQUIRE(tilec_context_create(&ctx) == TILEC_OK);
    tilec_kernel_t *k = NULL;
    const char *bad = "import tilelang.language as T\n"
                      "@T.prim_func\n"
                      "def main(A: T.Tensor((8,), 'float32')):\n"
                      "    with T.Kernel(1, is_npu=True) as (cid, vid):\n"
                      "        T.tile.frobnicate(A)\n";
    CHECK(tilec_compile_string(ctx, "bad.py", bad, NULL, &k) == TILEC_ERR_COMPILE);
    CHECK(k == NULL);
    CHECK_CONTAINS(tilec_context_error(ctx), "bad.py:5:");
    CHECK_CONTAINS(tilec_context_error(ctx), "frobnicate");
    CHECK(tilec_compile_file(ctx, "/nonexistent.py", NULL, &k) != TILEC_OK);
    CHECK_CONTAINS(tilec_context_error(ctx), "/nonexistent.py");
    tilec_context_destroy(ctx);
}

static void *worker(void *arg)
{
    int *ok = arg;
    tilec_context_t *ctx;
    if (tilec_context_create(&ctx) != TILEC_OK) return NULL;
    tilec_kernel_t *k;
    enum { M = 4, N = 256 };
    static __thread float a[M * N], b[M * N], c[M * N];
    for (int round = 0; round < 5; round++) {
        if (tilec_compile_string(ctx, "add.py", add_src, NULL, &k) != TILEC_OK) break;
        for (int i = 0; i < M * N; i++) a[i] = (float)(i + round), b[i] = 1, c[i] = 0;
        int64_t shape[2] = {M, N};
        tilec_value_t v[3] = {tilec_tensor(a, TILEC_F32, 2, shape), tilec_tensor(b, TILEC_F32, 2, shape),
                              tilec_tensor(c, TILEC_F32, 2, shape)};
        bool good = tilec_launch(k, TILEC_TARGET_REF, v, 3, NULL) == TILEC_OK;
        for (int i = 0; good && i < M * N; i++) good = c[i] == (float)(i + round) + 1;
        tilec_kernel_destroy(k);
        if (!good) break;
        if (round == 4) *ok = 1;
    }
    tilec_context_destroy(ctx);
    return NULL;
}

TEST(api_contexts_on_two_threads)
{
    pthread_t th[2];
    int ok[2] = {0, 0};
    for (int i = 0; i < 2; i++) REQUIRE(pthread_create(&th[i], NULL, worker, &ok[i]) == 0);
    for (int i = 0; i < 2; i++) pthread_join(th[i], NULL);
    CHECK(ok[0] && ok[1]);
}

TEST(api_launch_on_sim_and_cpu)
{
    tilec_context_t *ctx;
    REQUIRE(tilec_context_create(&ctx) == TILEC_OK);
    tilec_kernel_t *k;
    // The kernel has no syncs of its own: without auto sync the simulator finds races.
    REQUIRE(tilec_compile_string(ctx, "add.py", add_src, NULL, &k) == TILEC_OK);
    enum { M = 4, N = 256 };
    static float a[M * N], b[M * N], c[M * N];
    {
        int64_t sh[2] = {M, N};
        tilec_value_t w[3] = {tilec_tensor(a, TILEC_F32, 2, sh), tilec_tensor(b, TILEC_F32, 2, sh),
                              tilec_tensor(c, TILEC_F32, 2, sh)};
        tilec_report_t rep;
        CHECK(tilec_launch(k, TILEC_TARGET_SIM, w, 3, &rep) == TILEC_ERR_RACE);
        CHECK(rep.races > 0);
        CHECK_CONTAINS(tilec_context_error(ctx), "race RAW on UB");
        tilec_free(rep.json);
    }
    tilec_kernel_destroy(k);
    tilec_arg_t pc[] = {{"tl.ascend_auto_sync", "True"}};
    tilec_compile_options_t o = {.pass_configs = pc, .npass_configs = 1};
    REQUIRE(tilec_compile_string(ctx, "add.py", add_src, &o, &k) == TILEC_OK);
    int64_t shape[2] = {M, N};
    tilec_value_t v[3] = {tilec_tensor(a, TILEC_F32, 2, shape), tilec_tensor(b, TILEC_F32, 2, shape),
                          tilec_tensor(c, TILEC_F32, 2, shape)};
    for (int target = TILEC_TARGET_SIM; target <= TILEC_TARGET_CPU; target++) {
        for (int i = 0; i < M * N; i++) a[i] = (float)i, b[i] = (float)target, c[i] = 0;
        tilec_report_t rep;
        tilec_status_t st = tilec_launch(k, (tilec_target_t)target, v, 3, &rep);
        if (st != TILEC_OK)
            tl_test_fail(t, __FILE__, __LINE__, "target %d: %s", target, tilec_context_error(ctx));
        for (int i = 0; i < M * N; i++) CHECK(c[i] == (float)i + (float)target);
        if (target == TILEC_TARGET_SIM) {
            CHECK(rep.cycles > 0);
            CHECK(rep.time_us > 0);
            CHECK_EQ(rep.races, 0);
            CHECK_CONTAINS(rep.json, "\"cycles\"");
            tilec_free(rep.json);
        }
    }
    tilec_kernel_destroy(k);
    tilec_context_destroy(ctx);
}

// TILEC_TARGET_PTO: with $PTO_ISA_DIR the add kernel runs on pto-isa's CPU
// implementation; without, the launch fails saying what it needs.
TEST(api_launch_on_pto)
{
    tilec_context_t *ctx;
    REQUIRE(tilec_context_create(&ctx) == TILEC_OK);
    tilec_arg_t pc[] = {{"tl.ascend_auto_sync", "True"}};
    tilec_compile_options_t o = {.pass_configs = pc, .npass_configs = 1};
    tilec_kernel_t *k;
    REQUIRE(tilec_compile_string(ctx, "add.py", add_src, &o, &k) == TILEC_OK);
    enum { M = 4, N = 256 };
    static float a[M * N], b[M * N], c[M * N];
    for (int i = 0; i < M * N; i++) a[i] = (float)i, b[i] = 0.5f, c[i] = 0;
    int64_t shape[2] = {M, N};
    tilec_value_t v[3] = {tilec_tensor(a, TILEC_F32, 2, shape), tilec_tensor(b, TILEC_F32, 2, shape),
                          tilec_tensor(c, TILEC_F32, 2, shape)};
    const char *isa = getenv("PTO_ISA_DIR");
    tilec_status_t st = tilec_launch(k, TILEC_TARGET_PTO, v, 3, NULL);
    if (isa && *isa) {
        if (st != TILEC_OK) tl_test_fail(t, __FILE__, __LINE__, "pto: %s", tilec_context_error(ctx));
        for (int i = 0; i < M * N; i++) CHECK(c[i] == (float)i + 0.5f);
    } else {
        CHECK(st != TILEC_OK);
        CHECK_CONTAINS(tilec_context_error(ctx), "PTO_ISA_DIR");
    }
    tilec_kernel_destroy(k);
    tilec_context_destroy(ctx);
}

// The public targets are the backend table's rows in its order (api.c): each
// TILEC_TARGET_* is the backend its name says, as `tilec run --target` spells
// it, and no value past them is a target (Python's target="..." reads these).
TEST(api_target_names)
{
    CHECK_STREQ(tilec_target_name(TILEC_TARGET_REF), "ref");
    CHECK_STREQ(tilec_target_name(TILEC_TARGET_SIM), "sim");
    CHECK_STREQ(tilec_target_name(TILEC_TARGET_CPU), "cpu");
    CHECK_STREQ(tilec_target_name(TILEC_TARGET_PTO), "pto");
    CHECK(tilec_target_name((tilec_target_t)(TILEC_TARGET_PTO + 1)) == NULL);
    CHECK(tilec_target_name((tilec_target_t)-1) == NULL);
}
