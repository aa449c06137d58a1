// cv_split: developer-mode bodies become one program per core (scope C, scope
// V) whose expert-mode execution gives the developer-mode results; scalar code
// goes where it is needed, empty loops disappear, T.Scope is honoured, and the
// impossible cases are errors with their locations.
#include "../test.h"

#include "test_pass_util.h"

#include <stdlib.h>
#include <string.h>

static const pk_pass_fn split_only[] = {tl_pass_cv_split, NULL};
static const pk_pass_fn split_sync[] = {tl_pass_cv_split, tl_pass_cross_sync, NULL};

#define PRELUDE                                                                                    \
    "import tilelang\n"                                                                            \
    "import tilelang.language as T\n"                                                              \
    "CFG = {tilelang.PassConfigKey.TL_ASCEND_AUTO_CV_COMBINE: True,\n"                             \
    "       tilelang.PassConfigKey.TL_ASCEND_AUTO_CV_SYNC: True}\n"

// C = (A @ B) + 1 in a loop over row blocks: the cube hands each block to the
// vector cores through the GM tensor W (no 'workspace' in its name); each
// vector core adds 1 to half of the rows.
#define MM_KERNEL(extra)                                                                           \
    PRELUDE "@tilelang.jit(out_idx=[2], workspace_idx=[3], pass_configs=CFG)\n"                    \
            "def k():\n"                                                                           \
            "    @T.prim_func\n"                                                                   \
            "    def main(A: T.Tensor((64, 32), 'float16'), B: T.Tensor((32, 64), 'float16'),\n"   \
            "             C: T.Tensor((64, 64), 'float32'), W: T.Tensor((16, 64), 'float32')):\n"  \
            "        with T.Kernel(1, is_npu=True) as (cid, vid):\n"                               \
            "            a = T.alloc_L1((16, 32), 'float16')\n"                                    \
            "            b = T.alloc_L1((32, 64), 'float16')\n"                                    \
            "            c = T.alloc_L0C((16, 64), 'float32')\n"                                   \
            "            u = T.alloc_ub((8, 64), 'float32')\n"                                     \
            "            T.copy(B, b)\n"                                                           \
            "            for i in T.serial(4):\n"                                                  \
            "                row = i * 16\n"                                                       \
            "                T.copy(A[row, 0], a)\n"                                               \
            "                T.gemm_v0(a, b, c, init=True)\n"                                      \
            "                T.copy(c, W)\n"                                                       \
            "                T.copy(W[vid * 8, 0], u)\n"                                           \
            "                T.tile.add(u, u, 1.0)\n"                                              \
            "                T.copy(u, C[row + vid * 8, 0])\n" extra "    return main\n"

static bool compile_ok(tl_test_t *t, pk_t *p, const pk_spec_t *s, const pk_pass_fn *passes)
{
    tl_status_t st = pk_compile(p, s, passes);
    if (st != TL_OK)
        tl_test_fail(t, __FILE__, __LINE__, "compile failed:\n%s", tl_diag_text(&p->d));
    return st == TL_OK;
}

// The text of the IR dump from `from` to the next line starting "  scope" (or the end).
static char *section(const pk_t *p, const char *from)
{
    const char *d = tl_buf_cstr((tl_buf_t *)&p->dump), *a = strstr(d, from);
    if (!a) return strdup("");
    const char *b = strstr(a + 1, "\n  scope");
    return strndup(a, b ? (size_t)(b - a) : strlen(a));
}

// Runs the developer-mode kernel (no passes) and the split one: same outputs.
static void check_same(tl_test_t *t, const pk_spec_t *s, const pk_pass_fn *passes)
{
    pk_t ref = {0}, got = {0};
    tl_buf_t a, b;
    tl_buf_init(&a);
    tl_buf_init(&b);
    if (compile_ok(t, &ref, s, NULL) && compile_ok(t, &got, s, passes)) {
        CHECK(!ref.k->cv_split && got.k->cv_split && !got.k->config.auto_cv_combine);
        tl_status_t st1 = pk_run(&ref, s, 3, &a), st2 = pk_run(&got, s, 3, &b);
        if (st1 || st2)
            tl_test_fail(t, __FILE__, __LINE__, "runs failed:\n%s\n%s", tl_diag_text(&ref.d),
                         tl_diag_text(&got.d));
        CHECK(a.len > 0 && a.len == b.len && !memcmp(a.data, b.data, a.len));
    }
    pk_free(&ref);
    pk_free(&got);
    tl_buf_free(&a);
    tl_buf_free(&b);
}

TEST(cv_split_assigns_statements_by_memory)
{
    pk_spec_t s = {.src = MM_KERNEL("")};
    pk_t p;
    if (compile_ok(t, &p, &s, split_only)) {
        char *c = section(&p, "  scope C:"), *v = section(&p, "  scope V:");
        CHECK_CONTAINS(c, "copy B, b");
        CHECK_CONTAINS(c, "gemm_v0 a, b, c");
        CHECK_CONTAINS(c, "copy c, W");
        CHECK(!strstr(c, "add u"));
        CHECK_CONTAINS(v, "copy W[vid * 8 +: 8, :], u");
        CHECK_CONTAINS(v, "add u, u, 1.0");
        CHECK(!strstr(v, "gemm_v0"));
        CHECK(!strstr(v, "copy B, b")); // the cube's statement outside the loop stays there
        // the loop runs on both cores
        CHECK_CONTAINS(c, "for i in serial(0, 4)");
        CHECK_CONTAINS(v, "for i in serial(0, 4)");
        free(c);
        free(v);
    }
    pk_free(&p);
}

TEST(cv_split_results_equal_developer_mode)
{
    pk_spec_t s = {.src = MM_KERNEL("")};
    check_same(t, &s, split_sync);
}

TEST(cv_split_duplicates_scalar_code_where_needed)
{
    // `row` is used by both cores; `n` (an alloc_var) only by the vector core.
    pk_spec_t s = {
        .src = PRELUDE
        "@tilelang.jit(out_idx=[1], workspace_idx=[2], pass_configs=CFG)\n"
        "def k():\n"
        "    @T.prim_func\n"
        "    def main(A: T.Tensor((32, 64), 'float32'), C: T.Tensor((32, 64), 'float32'),\n"
        "             W: T.Tensor((32, 64), 'float32')):\n"
        "        with T.Kernel(1, is_npu=True) as (cid, vid):\n"
        "            a = T.alloc_L1((16, 64), 'float32')\n"
        "            u = T.alloc_ub((16, 64), 'float32')\n"
        "            n = T.alloc_var('int32', init=0)\n"
        "            for i in T.serial(2):\n"
        "                row = i * 16\n"
        "                n = n + 1\n"
        "                T.copy(A[row, 0], u)\n"
        "                T.tile.add(u, u, T.cast(n, 'float32'))\n"
        "                T.copy(u, C[row, 0])\n"
        "                T.copy(A[row, 0], a)\n"
        "    return main\n"};
    pk_t p;
    if (compile_ok(t, &p, &s, split_only)) {
        char *c = section(&p, "  scope C:"), *v = section(&p, "  scope V:");
        CHECK_CONTAINS(v, "n = n[0] + 1");
        CHECK(!strstr(c, "n = n")); // the cube never reads n
        CHECK_CONTAINS(c, "copy A[i * 16 +: 16, :], a");
        free(c);
        free(v);
    }
    pk_free(&p);
    check_same(t, &s, split_only);
}

TEST(cv_split_removes_loops_that_become_empty)
{
    pk_spec_t s = {
        .src = PRELUDE
        "@tilelang.jit(out_idx=[1], pass_configs=CFG)\n"
        "def k():\n"
        "    @T.prim_func\n"
        "    def main(A: T.Tensor((16, 64), 'float32'), C: T.Tensor((16, 64), 'float32')):\n"
        "        with T.Kernel(1, is_npu=True) as (cid, vid):\n"
        "            a = T.alloc_L1((16, 64), 'float32')\n"
        "            u = T.alloc_ub((16, 64), 'float32')\n"
        "            T.copy(A, a)\n"
        "            for j in T.serial(3):\n"
        "                T.copy(A, u)\n"
        "                T.tile.mul(u, u, 2.0)\n"
        "                T.copy(u, C)\n"
        "    return main\n"};
    pk_t p;
    if (compile_ok(t, &p, &s, split_only)) {
        char *c = section(&p, "  scope C:"), *v = section(&p, "  scope V:");
        CHECK(!strstr(c, "for j"));
        CHECK_CONTAINS(v, "for j in serial(0, 3)");
        CHECK_CONTAINS(c, "copy A, a");
        free(c);
        free(v);
    }
    pk_free(&p);
}

TEST(cv_split_honours_explicit_scopes)
{
    // A let and a GM store inside T.Scope("V") stay on the vector side.
    pk_spec_t s = {
        .src = PRELUDE
        "@tilelang.jit(out_idx=[1], pass_configs=CFG)\n"
        "def k():\n"
        "    @T.prim_func\n"
        "    def main(A: T.Tensor((16, 64), 'float32'), C: T.Tensor((16, 64), 'float32')):\n"
        "        with T.Kernel(1, is_npu=True) as (cid, vid):\n"
        "            a = T.alloc_L1((16, 64), 'float32')\n"
        "            u = T.alloc_ub((8, 64), 'float32')\n"
        "            T.copy(A, a)\n"
        "            with T.Scope('V'):\n"
        "                r = vid * 8\n"
        "                T.copy(A[r, 0], u)\n"
        "                T.copy(u, C[r, 0])\n"
        "                C[r, 0] = 5.0\n"
        "    return main\n"};
    pk_t p;
    if (compile_ok(t, &p, &s, split_only)) {
        char *c = section(&p, "  scope C:"), *v = section(&p, "  scope V:");
        CHECK_CONTAINS(v, "C[vid * 8, 0] = 5.0");
        CHECK(!strstr(c, "C["));
        free(c);
        free(v);
    }
    pk_free(&p);
    check_same(t, &s, split_only);
}

TEST(cv_split_side_less_gm_store_runs_once)
{
    // A GM store reading no core's memory runs once per block: on the cube in
    // mixed code, on vector core 0 in vector-only code.
    pk_spec_t s = {.src = PRELUDE
                   "@tilelang.jit(out_idx=[1], pass_configs=CFG)\n"
                   "def k():\n"
                   "    @T.prim_func\n"
                   "    def main(A: T.Tensor((16, 64), 'float32'), C: T.Tensor((4,), 'int32')):\n"
                   "        with T.Kernel(1, is_npu=True) as (cid, vid):\n"
                   "            a = T.alloc_L1((16, 64), 'float32')\n"
                   "            u = T.alloc_ub((16, 64), 'float32')\n"
                   "            T.copy(A, a)\n"
                   "            C[0] = 7\n"
                   "            for j in T.serial(2):\n"
                   "                T.copy(A, u)\n"
                   "                C[1 + j] = 8\n"
                   "    return main\n"};
    pk_t p;
    if (compile_ok(t, &p, &s, split_only)) {
        char *c = section(&p, "  scope C:"), *v = section(&p, "  scope V:");
        CHECK_CONTAINS(c, "C[0] = 7");
        CHECK(!strstr(v, "C[0] = 7"));
        CHECK_CONTAINS(v, "+ if vid == 0:");
        CHECK_CONTAINS(v, "C[1 + j] = 8");
        free(c);
        free(v);
    }
    pk_free(&p);
}

TEST(cv_split_value_computed_on_the_other_core_is_an_error)
{
    pk_spec_t s = {
        .src = PRELUDE
        "@tilelang.jit(out_idx=[1], pass_configs=CFG)\n"
        "def k():\n"
        "    @T.prim_func\n"
        "    def main(A: T.Tensor((16, 64), 'float32'), C: T.Tensor((16, 64), 'float32')):\n"
        "        with T.Kernel(1, is_npu=True) as (cid, vid):\n"
        "            a = T.alloc_L1((16, 64), 'float32')\n"
        "            u = T.alloc_ub((16, 64), 'float32')\n"
        "            T.copy(A, u)\n"
        "            x = u[0, 0]\n"
        "            T.copy(A[T.cast(x, 'int32'), 0], a)\n"
        "    return main\n"};
    pk_t p;
    CHECK(pk_compile(&p, &s, split_only) == TL_ERR_COMPILE);
    CHECK_CONTAINS(tl_diag_text(&p.d),
                   "k.py:13:13: error: 'x' is computed from vector memory here, "
                   "but the cube core needs it");
    CHECK_CONTAINS(tl_diag_text(&p.d), "k.py:14:13: note: the cube core uses 'x' here");
    pk_free(&p);
}

TEST(cv_split_vid_dependent_shared_control_flow_is_an_error)
{
    pk_spec_t s = {
        .src = PRELUDE
        "@tilelang.jit(out_idx=[1], pass_configs=CFG)\n"
        "def k():\n"
        "    @T.prim_func\n"
        "    def main(A: T.Tensor((16, 64), 'float32'), C: T.Tensor((16, 64), 'float32')):\n"
        "        with T.Kernel(1, is_npu=True) as (cid, vid):\n"
        "            a = T.alloc_L1((16, 64), 'float32')\n"
        "            u = T.alloc_ub((16, 64), 'float32')\n"
        "            n = vid + 1\n"
        "            for j in T.serial(n):\n"
        "                T.copy(A, a)\n"
        "                T.copy(A, u)\n"
        "    return main\n"};
    pk_t p;
    CHECK(pk_compile(&p, &s, split_only) == TL_ERR_COMPILE);
    CHECK_CONTAINS(tl_diag_text(&p.d), "error: loop bound depends on vid in code that both the "
                                       "cube and the vector cores run");
    pk_free(&p);
}

TEST(cv_split_copy_between_core_memories_is_an_error)
{
    pk_spec_t s = {
        .src = PRELUDE
        "@tilelang.jit(out_idx=[1], pass_configs=CFG)\n"
        "def k():\n"
        "    @T.prim_func\n"
        "    def main(A: T.Tensor((16, 64), 'float32'), C: T.Tensor((16, 64), 'float32')):\n"
        "        with T.Kernel(1, is_npu=True) as (cid, vid):\n"
        "            c = T.alloc_L0C((16, 64), 'float32')\n"
        "            u = T.alloc_ub((16, 64), 'float32')\n"
        "            T.copy(c, u)\n"
        "    return main\n"};
    pk_t p;
    CHECK(pk_compile(&p, &s, split_only) == TL_ERR_COMPILE);
    CHECK_CONTAINS(tl_diag_text(&p.d), "k.py:12:13: error: copy uses cube memory ('c', L0C) and "
                                       "vector memory ('u', UB)");
    pk_free(&p);
}

TEST(cv_split_leaves_expert_kernels_alone)
{
    pk_spec_t s = {
        .src = "import tilelang\n"
               "import tilelang.language as T\n"
               "@tilelang.jit(out_idx=[1])\n"
               "def k():\n"
               "    @T.prim_func\n"
               "    def main(A: T.Tensor((16, 64), 'float32'), C: T.Tensor((16, 64), 'float32')):\n"
               "        with T.Kernel(1, is_npu=True) as (cid, vid):\n"
               "            u = T.alloc_ub((8, 64), 'float32')\n"
               "            with T.Scope('V'):\n"
               "                T.copy(A[vid * 8, 0], u)\n"
               "                T.copy(u, C[vid * 8, 0])\n"
               "    return main\n"};
    pk_t p;
    if (compile_ok(t, &p, &s, split_only)) {
        CHECK(!p.k->cv_split);
        CHECK_CONTAINS(tl_buf_cstr(&p.dump), "  scope V:\n    copy A[vid * 8 +: 8, :], u");
    }
    pk_free(&p);
}

// threads=2: one logical vector lane over a whole [32, 64] tile.
#define LANE_KERNEL(body)                                                                          \
    PRELUDE "@tilelang.jit(out_idx=[1], pass_configs=CFG)\n"                                       \
            "def k():\n"                                                                           \
            "    @T.prim_func\n"                                                                   \
            "    def main(X: T.Tensor((64, 64), 'float32'), Y: T.Tensor((64, 64), 'float32')):\n"  \
            "        with T.Kernel(2, threads=2, is_npu=True) as cid:\n"                           \
            "            x = T.alloc_ub((32, 64), 'float32')\n"                                    \
            "            y = T.alloc_ub((32, 64), 'float32')\n"                                    \
            "            m = T.alloc_ub((32,), 'float32')\n" body "    return main\n"

TEST(cv_split_threads2_splits_rows_between_vector_cores)
{
    pk_spec_t s = {.src = LANE_KERNEL("            T.copy(X[cid * 32, 0], x)\n"
                                      "            T.reduce_max(x, m, dim=-1)\n"
                                      "            T.tile.row_expand_mul(y, x, m)\n"
                                      "            for r in T.serial(32):\n"
                                      "                y[r, 0] = y[r, 0] + m[r]\n"
                                      "            T.tile.exp(y, y, 2048)\n"
                                      "            T.copy(y, Y[cid * 32, 0])\n")};
    pk_t p;
    if (compile_ok(t, &p, &s, split_only)) {
        const char *d = tl_buf_cstr(&p.dump);
        CHECK_EQ(p.k->threads, 0);
        CHECK_CONTAINS(d, "x: UB float32[16, 64]");
        CHECK_CONTAINS(d, "m: UB float32[16]");
        CHECK_CONTAINS(d, "copy X[cid * 32 + vid * 16 +: 16, :], x");
        CHECK_CONTAINS(d, "for r in serial(0, 16):");
        CHECK_CONTAINS(d, "exp y, y, 1024");
        CHECK_CONTAINS(d, "copy y, Y[cid * 32 + vid * 16 +: 16, :]");
    }
    pk_free(&p);
    check_same(t, &s, split_only);
}

TEST(cv_split_threads2_runs_on_one_core_when_rows_mix)
{
    // A reduction over the rows (dim 0) needs every row on one core.
    pk_spec_t s = {.src = LANE_KERNEL("            c = T.alloc_ub((64,), 'float32')\n"
                                      "            T.copy(X[cid * 32, 0], x)\n"
                                      "            T.reduce_sum(x, c, dim=0)\n"
                                      "            T.copy(c, Y[cid, 0])\n")};
    pk_t p;
    if (compile_ok(t, &p, &s, split_only)) {
        CHECK_EQ(p.k->threads, 1);
        CHECK_CONTAINS(tl_diag_text(&p.d), "note: T.Kernel(threads=2): the vector program runs on "
                                           "vector core 0 only: 'x' cannot be split between the "
                                           "vector cores (a reduction runs over its rows)");
        CHECK_CONTAINS(tl_buf_cstr(&p.dump), "x: UB float32[32, 64]");
    }
    pk_free(&p);
    check_same(t, &s, split_only);
}

TEST(cv_split_threads2_replicated_gm_writes_run_once)
{
    // m is indexed by a non-row expression (replicated); its GM store runs on
    // vector core 0 only, while x still splits.
    pk_spec_t s = {.src = LANE_KERNEL("            T.copy(X[cid * 32, 0], x)\n"
                                      "            T.tile.mul(x, x, 2.0)\n"
                                      "            T.copy(x, Y[cid * 32, 0])\n"
                                      "            T.tile.fill(m, 1.0)\n"
                                      "            Y[cid, 1] = m[3]\n")};
    pk_t p;
    if (compile_ok(t, &p, &s, split_only)) {
        const char *d = tl_buf_cstr(&p.dump);
        CHECK_EQ(p.k->threads, 0);
        CHECK_CONTAINS(d, "m: UB float32[32]");
        CHECK_CONTAINS(d, "+ if vid == 0:\n      Y[cid, 1] = m[3]");
    }
    pk_free(&p);
}

static const pk_pass_fn parallel_split[] = {tl_pass_parallel, tl_pass_cv_split, NULL};

// Compiles s through parallel + cv_split: `threads` as expected, every string
// of want (NULL-terminated) in the IR, and the results of the developer-mode run.
static void check_lanes(tl_test_t *t, const pk_spec_t *s, int threads, const char *const *want)
{
    pk_t p;
    if (compile_ok(t, &p, s, parallel_split)) {
        CHECK_EQ(p.k->threads, threads);
        for (int i = 0; want[i]; i++) CHECK_CONTAINS(tl_buf_cstr(&p.dump), want[i]);
    }
    pk_free(&p);
    check_same(t, s, parallel_split);
}

TEST(cv_split_threads2_splits_compare_select_with_their_mask)
{
    // T.max of floats becomes compare into a bit mask + select; the mask (one
    // bit per element of m) splits with m: each vector core keeps the bytes of
    // its rows' bits.
    pk_spec_t s = {.src = LANE_KERNEL("            n = T.alloc_ub((32,), 'float32')\n"
                                      "            T.copy(X[cid * 32, 0], x)\n"
                                      "            T.reduce_max(x, m, dim=-1)\n"
                                      "            T.reduce_min(x, n, dim=-1)\n"
                                      "            for i in T.Parallel(32):\n"
                                      "                m[i] = T.max(m[i], n[i] * 2.0)\n"
                                      "            T.tile.row_expand_mul(y, x, m)\n"
                                      "            T.copy(y, Y[cid * 32, 0])\n")};
    const char *want[] = {"m: UB float32[16]", "UB uint8[2] internal", // the mask
                          "copy y, Y[cid * 32 + vid * 16 +: 16, :]", NULL};
    check_lanes(t, &s, 0, want);
}

TEST(cv_split_threads2_keeps_a_mask_whole_when_its_bytes_do_not_halve)
{
    // 8 elements: 1 mask byte, which the two halves would share.
    pk_spec_t s = {.src = LANE_KERNEL("            a = T.alloc_ub((8,), 'float32')\n"
                                      "            T.copy(X[cid * 32, 0:8], a)\n"
                                      "            for i in T.Parallel(8):\n"
                                      "                a[i] = T.max(a[i], 0.5)\n"
                                      "            T.copy(a, Y[cid * 32, 0:8])\n")};
    const char *want[] = {"a: UB float32[8]", NULL};
    check_lanes(t, &s, 1, want);
}
