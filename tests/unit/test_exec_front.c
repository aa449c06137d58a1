// Executor end to end: kernels written in the TileLang-Ascend language go
// through the front end and the reference pipeline (scope inference), then run.
#include "../test.h"

#include "exec/exec.h"
#include "driver/compile.h"

// An expert-mode kernel: each vector core adds 1 to half of a block's rows.
static const char *expert_src =
    "import tilelang\n"
    "import tilelang.language as T\n"
    "\n"
    "@tilelang.jit(out_idx=[1])\n"
    "def add_one(N, block_M):\n"
    "    M = T.symbolic('M')\n"
    "    half = block_M // 2\n"
    "\n"
    "    @T.prim_func\n"
    "    def main(X: T.Tensor((M, N), 'float32'), Y: T.Tensor((M, N), 'float32')):\n"
    "        with T.Kernel(T.ceildiv(M, block_M), is_npu=True) as (cid, vid):\n"
    "            x_ub = T.alloc_ub((half, N), 'float32')\n"
    "            with T.Scope('V'):\n"
    "                row = cid * block_M + vid * half\n"
    "                T.copy(X[row, 0], x_ub)\n"
    "                T.tile.add(x_ub, x_ub, 1.0)\n"
    "                T.copy(x_ub, Y[row, 0])\n"
    "\n"
    "    return main\n";

// A developer-mode kernel (threads=2): C = A @ B + D with the K loop on the
// cube and the addition on the vector side, joined by an L0C -> UB copy.
static const char *dev_src =
    "import tilelang\n"
    "import tilelang.language as T\n"
    "\n"
    "CFG = {tilelang.PassConfigKey.TL_ASCEND_AUTO_CV_COMBINE: True}\n"
    "\n"
    "@tilelang.jit(out_idx=[3], pass_configs=CFG)\n"
    "def mm_add(M, N, K, bm, bn, bk):\n"
    "    @T.prim_func\n"
    "    def main(A: T.Tensor((M, K), 'float16'), B: T.Tensor((K, N), 'float16'),\n"
    "             D: T.Tensor((M, N), 'float32'), C: T.Tensor((M, N), 'float32')):\n"
    "        with T.Kernel((M // bm) * (N // bn), threads=2, is_npu=True) as cid:\n"
    "            i0 = cid // (N // bn) * bm\n"
    "            j0 = cid % (N // bn) * bn\n"
    "            a_s = T.alloc_shared((bm, bk), 'float16')\n"
    "            b_s = T.alloc_shared((bk, bn), 'float16')\n"
    "            acc = T.alloc_fragment((bm, bn), 'float32')\n"
    "            c_s = T.alloc_shared((bm, bn), 'float32')\n"
    "            d_s = T.alloc_shared((bm, bn), 'float32')\n"
    "            for k in T.serial(K // bk):\n"
    "                T.copy(A[i0, k * bk], a_s)\n"
    "                T.copy(B[k * bk, j0], b_s)\n"
    "                T.gemm_v0(a_s, b_s, acc, init=(k == 0))\n"
    "            T.copy(acc, c_s)\n"
    "            T.copy(D[i0, j0], d_s)\n"
    "            T.tile.add(c_s, c_s, d_s)\n"
    "            T.copy(c_s, C[i0, j0])\n"
    "\n"
    "    return main\n";

typedef struct {
    tl_arena_t arena;
    tl_diag_t d;
    tl_kernel_t *k;
    tl_exec_t *x;
} e2e_t;

static tl_status_t compile(e2e_t *e, const char *src, int nargs, const tl_front_arg_t *args)
{
    tl_arena_init(&e->arena);
    tl_diag_init(&e->d);
    e->x = NULL;
    tl_compile_opts_t co = {.path = "k.py",
                            .source = src,
                            .front = {.nargs = nargs, .args = args},
                            .pipeline = TL_PIPELINE_REF};
    tl_status_t st = tl_compile(&e->arena, &co, &e->d, &e->k);
    tl_exec_opts_t o = {.warn_uninit = true};
    if (!st) st = tl_exec_create(&e->x, e->k, &o, &e->d);
    return st;
}

static void done(e2e_t *e)
{
    tl_exec_destroy(e->x);
    tl_diag_free(&e->d);
    tl_arena_free(&e->arena);
}

static tl_tensor_t *tensor(e2e_t *e, tl_dtype_t t, int64_t r, int64_t c, int64_t mod, double off)
{
    int64_t shape[2] = {r, c};
    tl_tensor_t *x = NULL;
    if (tl_tensor_create(&x, t, 2, shape, &e->d)) return NULL;
    for (int64_t i = 0; i < r * c; i++) tl_tensor_set_flat(x, (size_t)i, (double)(i % mod) + off);
    return x;
}

TEST(exec_front_expert_kernel_from_source)
{
    e2e_t e;
    tl_front_arg_t args[] = {{"N", "16"}, {"block_M", "4"}};
    REQUIRE(compile(&e, expert_src, 2, args) == TL_OK);
    tl_tensor_t *xt = tensor(&e, TL_F32, 10, 16, 1000, 0); // 10 rows: the last block is partial
    tl_exec_set_tensor(e.x, "X", xt);
    CHECK(tl_exec_run(e.x) == TL_OK);
    CHECK_EQ(tl_exec_num_blocks(e.x), 3);
    tl_tensor_t *y = tl_exec_tensor(e.x, "Y");
    REQUIRE(y != NULL);
    for (int i = 0; i < 160; i++) CHECK(tl_tensor_get_flat(y, (size_t)i) == i + 1);
    CHECK_EQ(e.d.nerrors, 0);
    CHECK_EQ(e.d.nwarnings, 0);
    tl_tensor_destroy(xt);
    done(&e);
}

TEST(exec_front_developer_kernel_from_source)
{
    e2e_t e;
    tl_front_arg_t args[] = {{"M", "32"},  {"N", "32"},  {"K", "64"},
                             {"bm", "16"}, {"bn", "16"}, {"bk", "32"}};
    REQUIRE(compile(&e, dev_src, 6, args) == TL_OK);
    tl_tensor_t *a = tensor(&e, TL_F16, 32, 64, 5, -2), *b = tensor(&e, TL_F16, 64, 32, 3, -1);
    tl_tensor_t *dd = tensor(&e, TL_F32, 32, 32, 7, 0.5);
    tl_exec_set_tensor(e.x, "A", a);
    tl_exec_set_tensor(e.x, "B", b);
    tl_exec_set_tensor(e.x, "D", dd);
    CHECK(tl_exec_run(e.x) == TL_OK);
    CHECK_EQ(tl_exec_num_blocks(e.x), 4);
    tl_tensor_t *c = tl_exec_tensor(e.x, "C");
    REQUIRE(c != NULL);
    int bad = 0;
    for (int i = 0; i < 32; i++)
        for (int j = 0; j < 32; j++) {
            double want = tl_tensor_get_flat(dd, (size_t)(i * 32 + j));
            for (int k = 0; k < 64; k++)
                want += tl_tensor_get_flat(a, (size_t)(i * 64 + k)) *
                        tl_tensor_get_flat(b, (size_t)(k * 32 + j));
            bad += tl_tensor_get_flat(c, (size_t)(i * 32 + j)) != want;
        }
    CHECK_EQ(bad, 0);
    CHECK_EQ(e.d.nerrors, 0);
    CHECK_EQ(e.d.nwarnings, 0);
    tl_tensor_destroy(a);
    tl_tensor_destroy(b);
    tl_tensor_destroy(dd);
    done(&e);
}
