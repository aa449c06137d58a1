// A run with fewer blocks than threads: the busy block's gemms are split over
// the idle pool thread (tl_pool_share through ctx.share), with the results of
// a one-thread run and of the reference, bit for bit.
#include "test_cpu_util.h"

#include <time.h>

#include "rt/rng.h"

// One block per 128 x 128 tile of C = A @ B: a single block at M = N = 128.
static const char *mm_src = "import tilelang\n"
                            "import tilelang.language as T\n"
                            "\n"
                            "CFG = {tilelang.PassConfigKey.TL_ASCEND_AUTO_CV_COMBINE: True}\n"
                            "\n"
                            "@tilelang.jit(out_idx=[2], pass_configs=CFG)\n"
                            "def mm(M, N, K, bm, bn, bk):\n"
                            "    @T.prim_func\n"
                            "    def main(A: T.Tensor((M, K), 'bfloat16'),\n"
                            "             B: T.Tensor((K, N), 'bfloat16'),\n"
                            "             C: T.Tensor((M, N), 'float32')):\n"
                            "        with T.Kernel((M // bm) * (N // bn), threads=2,\n"
                            "                      is_npu=True) as cid:\n"
                            "            i0 = cid // (N // bn) * bm\n"
                            "            j0 = cid % (N // bn) * bn\n"
                            "            a_s = T.alloc_shared((bm, bk), 'bfloat16')\n"
                            "            b_s = T.alloc_shared((bk, bn), 'bfloat16')\n"
                            "            acc = T.alloc_fragment((bm, bn), 'float32')\n"
                            "            for k in T.serial(K // bk):\n"
                            "                T.copy(A[i0, k * bk], a_s)\n"
                            "                T.copy(B[k * bk, j0], b_s)\n"
                            "                T.gemm_v0(a_s, b_s, acc, init=(k == 0))\n"
                            "            T.copy(acc, C[i0, j0])\n"
                            "\n"
                            "    return main\n";

static tl_tensor_t *random_bf16(int64_t rows, int64_t cols, uint64_t seed)
{
    tl_tensor_t *x;
    if (tl_tensor_create(&x, TL_BF16, 2, (int64_t[]){rows, cols}, NULL)) return NULL;
    tl_rng_t r;
    tl_rng_seed(&r, seed);
    if (tl_rng_fill_uniform(&r, x, -2, 2, NULL)) {
        tl_tensor_destroy(x);
        return NULL;
    }
    return x;
}

TEST(cpu_share_one_block_uses_both_threads)
{
    tl_arena_t arena;
    tl_arena_init(&arena);
    tl_diag_t d;
    tl_diag_init(&d);
    tl_front_arg_t args[] = {{"M", "128"},  {"N", "128"},  {"K", "512"},
                             {"bm", "128"}, {"bn", "128"}, {"bk", "256"}};
    tl_kernel_t *k = tl_test_cpu_kernel(&arena, &d, "mm.py", mm_src, 6, args);
    REQUIRE(k);
    tl_tensor_t *a = random_bf16(128, 512, 1), *b = random_bf16(512, 128, 2);
    REQUIRE(a && b);
    static const char *ins[] = {"A", "B"}, *outs[] = {"C"};
    tl_tensor_t *in[] = {a, b};
    tl_tensor_t *one = NULL;
    for (int threads = 1; threads <= 2; threads++) {
        tl_exec_t *x;
        tl_cpu_t *c;
        tl_exec_opts_t eo = {0};
        tl_cpu_opts_t co = {.threads = threads};
        REQUIRE(tl_exec_create(&x, k, &eo, &d) == TL_OK);
        REQUIRE(tl_cpu_create(&c, k, &co, &d) == TL_OK);
        // each gemm_v0 is 128 x 128 x 256: two parts when a thread is idle
        bool ran = tl_test_cpu_compare(t, x, c, ins, in, 2, outs, 1, threads == 1 ? "1" : "2");
        if (!ran) fprintf(stderr, "%s", tl_diag_text(&d));
        REQUIRE(ran);
        CHECK_EQ(tl_bind_num_blocks(tl_cpu_args(c)), 1);
        // helpers may be descheduled on a loaded machine: run until one took a
        // part (at most 10 s)
        time_t start = time(NULL);
        while (threads == 2 && !tl_cpu_parts_shared(c) && time(NULL) - start < 10)
            REQUIRE(tl_cpu_run(c) == TL_OK);
        CHECK(threads == 1 ? tl_cpu_parts_shared(c) == 0 : tl_cpu_parts_shared(c) > 0);
        tl_tensor_t *got = tl_bind_tensor(tl_cpu_args(c), "C");
        if (one)
            CHECK_EQ(tl_test_cpu_diff(t, "2 threads vs 1", one, got), 0);
        else
            one = tl_bind_take_tensor(tl_cpu_args(c), "C");
        tl_cpu_destroy(c);
        tl_exec_destroy(x);
    }
    CHECK_EQ(d.nerrors, 0);
    tl_tensor_destroy(one);
    tl_tensor_destroy(a);
    tl_tensor_destroy(b);
    tl_diag_free(&d);
    tl_arena_free(&arena);
}
