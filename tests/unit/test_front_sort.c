// The sorting ops from kernel source: T.tile.topk + gather_mask + cast (the
// top-k selector idiom) traced, run through the reference and the NPU pass
// pipelines and compared with a plain C top-k; trace-time errors of the
// sorting ops.
#include "../test.h"

#include "exec/exec.h"
#include "driver/compile.h"

static const char *topk_src =
    "import tilelang\n"
    "import tilelang.language as T\n"
    "\n"
    "@tilelang.jit(out_idx=[1])\n"
    "def topk_rows(B, N, K):\n"
    "    @T.prim_func\n"
    "    def main(X: T.Tensor((B, N), 'float32'), I: T.Tensor((B, K), 'int32')):\n"
    "        with T.Kernel(B, is_npu=True) as (cid, vid):\n"
    "            x = T.alloc_ub((N,), 'float32')\n"
    "            pairs = T.alloc_ub((2 * K,), 'float32')\n"
    "            idx = T.alloc_ub((K,), 'float32')\n"
    "            out = T.alloc_ub((K,), 'int32')\n"
    "            with T.Scope('V'):\n"
    "                if vid == 0:\n"
    "                    T.copy(X[cid, 0], x)\n"
    "                    T.tile.topk(pairs, x, K, N)\n"
    "                    T.tile.gather_mask(idx, pairs, 'P1010')\n"
    "                    T.tile.cast(out, idx, 'CAST_ROUND', K)\n"
    "                    T.copy(out, I[cid, 0])\n"
    "\n"
    "    return main\n";

enum { B = 3, N = 96, K = 32 };

static float value(int r, int i)
{
    return (float)((i * 37 + r * 11) % 23); // many ties
}

// Traces topk_src with B=3, N=96, K=32.
static tl_status_t compile_topk(tl_arena_t *arena, tl_diag_t *d, tl_kernel_t **k)
{
    tl_arena_init(arena);
    tl_diag_init(d);
    tl_front_arg_t args[] = {{"B", "3"}, {"N", "96"}, {"K", "32"}};
    tl_front_opts_t fo = {.nargs = 3, .args = args};
    return tl_front_compile_source(arena, "k.py", topk_src, &fo, d, k);
}

static void run_pipeline(tl_test_t *t, tl_pipeline_t pipeline)
{
    tl_arena_t arena;
    tl_diag_t d;
    tl_kernel_t *k = NULL;
    tl_exec_t *x = NULL;
    tl_arena_init(&arena);
    tl_diag_init(&d);
    tl_front_arg_t args[] = {{"B", "3"}, {"N", "96"}, {"K", "32"}};
    tl_compile_opts_t co = {.path = "k.py",
                            .source = topk_src,
                            .front = {.nargs = 3, .args = args},
                            .pipeline = pipeline};
    REQUIRE(tl_compile(&arena, &co, &d, &k) == TL_OK);
    tl_exec_opts_t o = {.warn_uninit = true};
    REQUIRE(tl_exec_create(&x, k, &o, &d) == TL_OK);
    int64_t shape[2] = {B, N};
    tl_tensor_t *xt = NULL;
    REQUIRE(tl_tensor_create(&xt, TL_F32, 2, shape, &d) == TL_OK);
    for (int r = 0; r < B; r++)
        for (int i = 0; i < N; i++) tl_tensor_set_flat(xt, (size_t)(r * N + i), value(r, i));
    tl_exec_set_tensor(x, "X", xt);
    CHECK(tl_exec_run(x) == TL_OK);
    tl_tensor_t *it = tl_exec_tensor(x, "I");
    REQUIRE(it != NULL);
    int bad = 0;
    for (int r = 0; r < B; r++) {
        // Reference: the K largest, descending, ties by position.
        char used[N] = {0};
        for (int j = 0; j < K; j++) {
            int best = -1;
            for (int i = 0; i < N; i++)
                if (!used[i] && (best < 0 || value(r, i) > value(r, best))) best = i;
            used[best] = 1;
            bad += tl_tensor_get_flat(it, (size_t)(r * K + j)) != best;
        }
    }
    CHECK_EQ(bad, 0);
    CHECK_EQ(d.nerrors, 0);
    CHECK_EQ(d.nwarnings, 0);
    tl_tensor_destroy(xt);
    tl_exec_destroy(x);
    tl_diag_free(&d);
    tl_arena_free(&arena);
}

TEST(front_sort_topk_selector_ref)
{
    run_pipeline(t, TL_PIPELINE_REF);
}

TEST(front_sort_topk_selector_npu_passes)
{
    run_pipeline(t, TL_PIPELINE_NPU);
}

// Compiles `body` (lines of a V-scope body with buffers a: f32[128], h: f16[64],
// p: f32[64], u: u32[2], o: f32[1, 1], k: f16[20]) and checks its first error
// (want NULL: that it compiles).
static void expect_error(tl_test_t *t, const char *body, const char *want)
{
    char src[2048];
    snprintf(src, sizeof src,
             "import tilelang\n"
             "import tilelang.language as T\n"
             "\n"
             "@T.prim_func\n"
             "def main(X: T.Tensor((128,), 'float32')):\n"
             "    with T.Kernel(1, is_npu=True) as (cid, vid):\n"
             "        a = T.alloc_ub((128,), 'float32')\n"
             "        h = T.alloc_ub((64,), 'float16')\n"
             "        p = T.alloc_ub((64,), 'float32')\n"
             "        u = T.alloc_ub((2,), 'uint32')\n"
             "        o = T.alloc_ub((1, 1), 'float32')\n"
             "        k = T.alloc_ub((20,), 'float16')\n"
             "        with T.Scope('V'):\n"
             "            %s\n",
             body);
    tl_arena_t arena;
    tl_diag_t d;
    tl_arena_init(&arena);
    tl_diag_init(&d);
    tl_kernel_t *k = NULL;
    tl_front_opts_t fo = {0};
    tl_status_t st = tl_front_compile_source(&arena, "k.py", src, &fo, &d, &k);
    if (want) {
        CHECK(st != TL_OK);
        CHECK_CONTAINS(d.first_error ? d.first_error : "", want);
    } else {
        CHECK_CONTAINS(st == TL_OK ? "compiled" : tl_diag_text(&d), "compiled");
    }
    tl_diag_free(&d);
    tl_arena_free(&arena);
}

TEST(front_sort_errors)
{
    expect_error(t, "T.tile.topk(p, a, 33, 128)",
                 "writes 72 elements of (value, index) pairs (2*K rounded up to 32 "
                 "bytes) into 'p', which has 64");
    expect_error(t, "T.tile.sort(p, a, 128)", "T.tile.sort writes 256 elements");
    // K = 10 float16: 32 halves, the last 12 in k's 32-byte allocation padding
    expect_error(t, "T.tile.topk(k, h, 10, 64)", NULL);
    expect_error(t, "T.tile.topk(k[0:18], h, 10, 64)",
                 "writes 32 elements of (value, index) pairs");
    expect_error(t, "T.tile.sort(a, h, 64)",
                 "sorts float32 or float16 with a destination of the same dtype");
    expect_error(t, "T.tile.merge_sort(a, h, p)",
                 "merges lists of float32 (value, index) pairs; 'h' is float16");
    expect_error(t, "T.tile.gather_mask(p, a, 'P1110')", "unknown gather_mask pattern \"P1110\"");
    expect_error(t, "T.tile.gather_mask(p, a, p)", "pattern buffer 'p' must be uint32");
    expect_error(t, "T.tile.init_sort_buf(h, 64, 0)", "fills 32-bit elements");
    expect_error(t, "T.tile.brcb_experiment(a, p, 9, 1, 8)",
                 "reads 72 elements (8 per repeat) of 'p', which has 64");
    expect_error(t, "T.tile.brcb_experiment(p, a, 2, 1, 8)",
                 "writes 32-byte blocks over 128 elements of 'p'");
    expect_error(t, "T.tile.leaky_relu(a, a, o)",
                 "must be a scalar, got buffer 'o' (for its element write 'o[0, 0]')");
    expect_error(t, "T.tile.fill(a, p)",
                 "T.tile.fill argument 'value' must be a scalar, got buffer 'p'");
    expect_error(t, "T.tile.brcb(a, a, 1, 1, 8)",
                 "T.tile.brcb is a TileLang-Ascend op tilec does not implement");
}

TEST(front_sort_ir_prints_pattern)
{
    tl_arena_t arena;
    tl_diag_t d;
    tl_kernel_t *k = NULL;
    REQUIRE(compile_topk(&arena, &d, &k) == TL_OK);
    tl_buf_t out;
    tl_buf_init(&out);
    tl_ir_print_kernel(&out, k);
    CHECK_CONTAINS(tl_buf_cstr(&out), "topk pairs, x, 32, 96");
    CHECK_CONTAINS(tl_buf_cstr(&out), "gather_mask idx, pairs [P1010]");
    tl_buf_free(&out);
    tl_diag_free(&d);
    tl_arena_free(&arena);
}
