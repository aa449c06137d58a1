// T.Pipelined: multi-buffered prologue / steady state / epilogue that keeps
// every iteration for any trip count (0, 1, s - 1, s, s + 1, 2s + 1, symbolic,
// non-zero start), on vector-only, cube-only and mixed loops; results equal the
// plain loop's on the executor.
#include "../test.h"

#include "test_pass_util.h"

static const pk_pass_fn pipe_only[] = {tl_pass_pipelined, NULL};
static const pk_pass_fn ws_pipe[] = {tl_pass_workspace, tl_pass_pipelined, NULL};

static bool is_pipelined(const tl_stmt_t *s)
{
    return s->kind == TL_ST_FOR && s->for_.loop == TL_LOOP_PIPELINED;
}

static bool is_if(const tl_stmt_t *s)
{
    return s->kind == TL_ST_IF && s->inserted;
}

static bool is_load_into_xb(const tl_stmt_t *s)
{
    return s->kind == TL_ST_OP && s->op.code == TL_OP_COPY &&
           !strncmp(s->op.args[1].region.buf->name, "xb", 2);
}

// Vector-only: rows start .. start + n of X are loaded (the stage-0 load),
// summed into acc and exp'd into Y.
static const char *vec_src =
    "import tilelang\n"
    "import tilelang.language as T\n"
    "@tilelang.jit(out_idx=[1, 2])\n"
    "def k(n=5, start=0, S=2, sym=False):\n"
    "    R = T.symbolic('R') if sym else 16\n"
    "    @T.prim_func\n"
    "    def main(X: T.Tensor((R, 64), 'float32'), Y: T.Tensor((R, 64), 'float32'),\n"
    "             Z: T.Tensor((1, 64), 'float32')):\n"
    "        with T.Kernel(1, is_npu=True) as (cid, vid):\n"
    "            xb = T.alloc_ub((1, 64), 'float32')\n"
    "            yb = T.alloc_ub((1, 64), 'float32')\n"
    "            acc = T.alloc_ub((1, 64), 'float32')\n"
    "            with T.Scope('V'):\n"
    "                T.tile.fill(acc, 0.0)\n"
    "                for t in T.Pipelined(start, (R if sym else start + n), num_stages=S):\n"
    "                    row = t\n"
    "                    T.copy(X[row, 0], xb)\n"
    "                    T.tile.add(acc, acc, xb)\n"
    "                    T.tile.exp(yb, xb)\n"
    "                    T.copy(yb, Y[row, 0])\n"
    "                T.copy(acc, Z)\n"
    "    return main\n";

static void check(tl_test_t *t, const pk_spec_t *s, const pk_pass_fn *passes, int loads)
{
    pk_t got;
    tl_buf_t why;
    tl_buf_init(&why);
    if (!pk_same_results(s, passes, 9, &got, &why))
        tl_test_fail(t, __FILE__, __LINE__, "%s", tl_buf_cstr(&why));
    if (got.k) {
        CHECK_EQ(pk_count(got.k, is_pipelined), 0);
        if (loads >= 0) CHECK_EQ(pk_count(got.k, is_load_into_xb), loads);
        if (strstr(tl_diag_text(&got.d), "without multi-buffering"))
            tl_test_fail(t, __FILE__, __LINE__, "not pipelined: %s", tl_diag_text(&got.d));
    }
    tl_buf_free(&why);
    pk_free(&got);
}

TEST(pipelined_keeps_an_int8_buffer_a_small_box_fills_in_part)
{
    // A GM -> UB copy of a 40-byte box into a 128-byte int8 tile writes its
    // first 64 bytes only (two 32-byte blocks; no Duplicate pad for 8-bit
    // types): bytes 64..127 keep what the previous iteration's second copy put
    // there, so the tile is carried around the loop and must not get rotating
    // versions (B's rows would take D's row of two iterations before).
    pk_spec_t s = {.src = "import tilelang\n"
                          "import tilelang.language as T\n"
                          "@tilelang.jit(out_idx=[2])\n"
                          "def k():\n"
                          "    @T.prim_func\n"
                          "    def main(A: T.Tensor((160,), 'int8'), D: T.Tensor((4, 128), 'int8'),\n"
                          "             B: T.Tensor((4, 128), 'int8')):\n"
                          "        with T.Kernel(1, is_npu=True) as (cid, vid):\n"
                          "            s = T.alloc_ub((128,), 'int8')\n"
                          "            with T.Scope('V'):\n"
                          "                for i in T.Pipelined(4, num_stages=2):\n"
                          "                    T.copy(A[i * 40 : i * 40 + 40], s)\n"
                          "                    T.copy(s, B[i, 0])\n"
                          "                    T.copy(D[i, 64:128], s[64:128])\n"
                          "    return main\n"};
    pk_t got;
    tl_buf_t why;
    tl_buf_init(&why);
    if (!pk_same_results(&s, pipe_only, 9, &got, &why))
        tl_test_fail(t, __FILE__, __LINE__, "%s", tl_buf_cstr(&why));
    tl_buf_free(&why);
    pk_free(&got);
}

TEST(pipelined_vector_trip_counts)
{
    static const char *trips[] = {"n=0", "n=1", "n=2", "n=3", "n=4", "n=5", "n=7", "n=9"};
    static const char *stages[] = {"S=2", "S=3", "S=4"};
    for (size_t si = 0; si < TL_ARRAY_LEN(stages); si++)
        for (size_t ti = 0; ti < TL_ARRAY_LEN(trips); ti++) {
            pk_spec_t s = {.src = vec_src, .args = {trips[ti], stages[si], "start=2"}};
            check(t, &s, pipe_only, -1);
        }
}

TEST(pipelined_structure_for_a_constant_trip_count)
{
    // s = 2, 5 iterations: 1 prologue load, 2 steady groups of 2, an epilogue
    // of 1 iteration (its look-ahead load folds away); no guards remain.
    pk_spec_t s = {.src = vec_src, .args = {"n=5", "S=2", "start=3"}};
    pk_t p;
    REQUIRE(pk_compile(&p, &s, pipe_only) == TL_OK);
    const char *ir = tl_buf_cstr(&p.dump);
    CHECK_EQ(pk_count(p.k, is_if), 0);
    CHECK_EQ(pk_count(p.k, is_load_into_xb), 1 + 2);
    CHECK_CONTAINS(ir, "  xb_v1: UB float32[1, 64] internal\n");
    CHECK_CONTAINS(ir, "    copy X[3 +: 1, :], xb\n"
                       "    for t_group in serial(0, 2):\n"
                       "      add acc, acc, xb\n"
                       "      exp yb, xb\n"
                       "      copy yb, Y[3 + t_group * 2 +: 1, :]\n"
                       "      copy X[3 + (t_group * 2 + 1) +: 1, :], xb_v1\n");
    CHECK_CONTAINS(ir, "      add acc, acc, xb\n");
    CHECK_CONTAINS(ir, "      add acc, acc, xb_v1\n");
    pk_free(&p);
}

TEST(pipelined_symbolic_trip_count)
{
    // the loop runs from 2 to R: R = 1 and 2 give no iterations
    static const char *rows[] = {"R=1", "R=2", "R=3", "R=4", "R=5", "R=6", "R=9"};
    for (size_t i = 0; i < TL_ARRAY_LEN(rows); i++) {
        pk_spec_t s = {.src = vec_src, .args = {"sym=True", "S=3", "start=2"}, .dims = {rows[i]}};
        check(t, &s, pipe_only, -1);
    }
    pk_spec_t s = {.src = vec_src, .args = {"sym=True", "S=3", "start=2"}, .dims = {"R=5"}};
    pk_t p;
    REQUIRE(pk_compile(&p, &s, pipe_only) == TL_OK);
    CHECK(pk_count(p.k, is_if) > 0); // guards on the symbolic trip count
    CHECK_CONTAINS(tl_buf_cstr(&p.dump), "for t_group in serial(0, (max(R - 2, 0) - 2) / 3):");
    pk_free(&p);
}

// Cube-only: the kernels' pipelined GEMM with K tails and several trip counts.
TEST(pipelined_cube_gemm)
{
    static const char *ks[] = {"K=32", "K=64", "K=96", "K=160", "K=200"};
    static const char *stages[] = {"num_stages=2", "num_stages=3"};
    for (size_t si = 0; si < TL_ARRAY_LEN(stages); si++)
        for (size_t i = 0; i < TL_ARRAY_LEN(ks); i++) {
            pk_spec_t s = {
                .path = "kernels/examples/gemm_pipelined.py",
                .args = {"N=64", ks[i], "block_M=32", "block_N=64", "block_K=32", stages[si]},
                .dims = {"M=40"}};
            check(t, &s, pipe_only, -1);
        }
}

// Mixed: a cube GEMM per iteration handed to the vector side through a
// workspace, which gets one version per stage. With `let_scale` the scale is
// an element of K read into a let that belongs to no core; with `pre` the
// vector side fills x before the cube's run and adds it after.
static const char *mixed_src =
    "import tilelang\n"
    "import tilelang.language as T\n"
    "CFG = {tilelang.PassConfigKey.TL_ASCEND_AUTO_CV_COMBINE: True}\n"
    "@tilelang.jit(out_idx=[2], pass_configs=CFG)\n"
    "def k(nk=5, S=2, let_scale=False, pre=False):\n"
    "    @T.prim_func\n"
    "    def main(Q: T.Tensor((32, 32), 'float16'), K: T.Tensor((nk * 32, 32), 'float16'),\n"
    "             O: T.Tensor((32, 32), 'float32')):\n"
    "        with T.Kernel(1, threads=2, is_npu=True) as cid:\n"
    "            q_s = T.alloc_shared((32, 32), 'float16')\n"
    "            k_s = T.alloc_shared((32, 32), 'float16')\n"
    "            s_f = T.alloc_fragment((32, 32), 'float32')\n"
    "            s_ub = T.alloc_shared((32, 32), 'float32')\n"
    "            acc = T.alloc_shared((32, 32), 'float32')\n"
    "            x = T.alloc_shared((32, 32), 'float32')\n"
    "            T.copy(Q, q_s)\n"
    "            T.tile.fill(acc, 0.0)\n"
    "            for kb in T.Pipelined(nk, num_stages=S):\n"
    "                if pre:\n"
    "                    T.tile.fill(x, 0.5)\n"
    "                T.copy(K[kb * 32, 0], k_s)\n"
    "                T.gemm_v0(q_s, k_s, s_f, transpose_B=True, init=True)\n"
    "                scale = T.float32(K[kb * 32, 0]) if let_scale else 0.125\n"
    "                T.copy(s_f, s_ub)\n"
    "                T.tile.mul(s_ub, s_ub, scale)\n"
    "                T.tile.exp(s_ub, s_ub)\n"
    "                T.tile.add(acc, acc, s_ub)\n"
    "                if pre:\n"
    "                    T.tile.add(acc, acc, x)\n"
    "            T.copy(acc, O)\n"
    "    return main\n";

TEST(pipelined_mixed_loop_versions_the_handoff)
{
    static const char *trips[] = {"nk=1", "nk=2", "nk=3", "nk=6"};
    for (size_t i = 0; i < TL_ARRAY_LEN(trips); i++) {
        pk_spec_t s = {.src = mixed_src, .args = {trips[i], "S=3"}};
        check(t, &s, ws_pipe, -1);
    }
    pk_spec_t s = {.src = mixed_src, .args = {"nk=6", "S=3"}};
    pk_t p;
    REQUIRE(pk_compile(&p, &s, ws_pipe) == TL_OK);
    const char *ir = tl_buf_cstr(&p.dump);
    CHECK_CONTAINS(ir, "  workspace_0_v1: workspace float32[1, 32, 32],\n"
                       "  workspace_0_v2: workspace float32[1, 32, 32],\n");
    CHECK_CONTAINS(ir, "  k_s_v2: L1 (declared shared) float16[32, 32] internal\n");
    CHECK_CONTAINS(ir, "copy s_f, workspace_0_v2[cid, :, :]");
    // staggered: in step u the vector side's run of iteration u - 1, then the
    // cube's run of iteration u (both guarded); 6 + 1 steps in 3 groups of 3
    CHECK_CONTAINS(ir, "  for kb_group in serial(0, 3):\n"
                       "    + if kb_group * 3 + -1 >= 0 and kb_group * 3 + -1 < 6:\n"
                       "      + copy workspace_0_v2[cid, :, :], s_ub\n");
    CHECK_CONTAINS(ir, "    + if kb_group * 3 < 6:\n"
                       "      copy K[kb_group * 3 * 32 +: 32, :], k_s\n");
    CHECK_EQ(pk_count(p.k, is_if), 6);
    pk_free(&p);
}

// x, filled by the vector side's first run and read by its last, would need
// 3 versions to be staggered over 2 stages: the loop is batched instead (the
// first vector run of s iterations, then the cube's s, then the vector's s).
TEST(pipelined_mixed_loop_with_too_few_versions_is_batched)
{
    static const char *trips[] = {"nk=1", "nk=3", "nk=4"};
    for (size_t i = 0; i < TL_ARRAY_LEN(trips); i++) {
        pk_spec_t s = {.src = mixed_src, .args = {trips[i], "S=2", "pre=True"}};
        check(t, &s, ws_pipe, -1);
    }
    pk_spec_t s = {.src = mixed_src, .args = {"nk=4", "S=2", "pre=True"}};
    pk_t p;
    REQUIRE(pk_compile(&p, &s, ws_pipe) == TL_OK);
    CHECK_EQ(pk_count(p.k, is_if), 0); // 4 is a multiple of 2
    CHECK_CONTAINS(tl_buf_cstr(&p.dump), "  for kb_group in serial(0, 2):\n"
                                         "    fill x, 0.5\n"
                                         "    fill x_v1, 0.5\n"
                                         "    copy K[kb_group * 2 * 32 +: 32, :], k_s\n");
    pk_free(&p);
}

// A let that belongs to no core (an element of K) goes with the next
// statement, the cube's, but the vector side uses it: the iterations stay in
// order, with a note.
TEST(pipelined_mixed_loop_with_a_let_used_across_cores_stays_in_order)
{
    static const char *trips[] = {"nk=1", "nk=3", "nk=6"};
    for (size_t i = 0; i < TL_ARRAY_LEN(trips); i++) {
        pk_spec_t s = {.src = mixed_src, .args = {trips[i], "S=3", "let_scale=True"}};
        check(t, &s, ws_pipe, -1);
        pk_t p;
        REQUIRE(pk_compile(&p, &s, ws_pipe) == TL_OK);
        CHECK_CONTAINS(tl_diag_text(&p.d),
                       "k.py:18:13: note: T.Pipelined loop hands data between the cores but its "
                       "iterations stay in order (the cores take turns each iteration): 'scale' "
                       "(line 23) is set among cube statements and used by vector statements");
        pk_free(&p);
    }
}

// A hand-off through a GM tensor of the kernel's own: a workspace_idx tensor
// (the runtime allocates it; no caller sees it) gets versions like a pass's
// workspace, an output the caller reads does not. Either way acc, which both
// vector runs update, keeps the per-iteration order (guarded), and a note says
// which buffer stops the batched order.
static const char *user_ws_src =
    "import tilelang\n"
    "import tilelang.language as T\n"
    "CFG = {tilelang.PassConfigKey.TL_ASCEND_AUTO_CV_COMBINE: True}\n"
    "@tilelang.jit(out_idx=OUT, workspace_idx=WS, pass_configs=CFG)\n"
    "def k(nk=5, S=2):\n"
    "    @T.prim_func\n"
    "    def main(Q: T.Tensor((32, 32), 'float16'), K: T.Tensor((nk * 32, 32), 'float16'),\n"
    "             O: T.Tensor((32, 32), 'float32'), W: T.Tensor((32, 32), 'float32')):\n"
    "        with T.Kernel(1, threads=2, is_npu=True) as cid:\n"
    "            q_s = T.alloc_shared((32, 32), 'float16')\n"
    "            k_s = T.alloc_shared((32, 32), 'float16')\n"
    "            s_f = T.alloc_fragment((32, 32), 'float32')\n"
    "            s_ub = T.alloc_shared((32, 32), 'float32')\n"
    "            acc = T.alloc_shared((32, 32), 'float32')\n"
    "            r_s = T.alloc_shared((32, 32), 'float16')\n"
    "            r_l = T.alloc_shared((32, 32), 'float16')\n"
    "            T.copy(Q, q_s)\n"
    "            T.tile.fill(acc, 0.0)\n"
    "            for kb in T.Pipelined(nk, num_stages=S):\n"
    "                T.copy(K[kb * 32, 0], k_s)\n"
    "                T.gemm_v0(q_s, k_s, s_f, transpose_B=True, init=True)\n"
    "                T.copy(s_f, W)\n"
    "                T.copy(W, s_ub)\n"
    "                T.tile.add(acc, acc, s_ub)\n"
    "                T.tile.cast(r_s, s_ub, mode='CAST_RINT', count=1024)\n"
    "                T.copy(r_s, r_l)\n"
    "                T.gemm_v0(r_l, k_s, s_f, init=True)\n"
    "                T.copy(s_f, s_ub)\n"
    "                T.tile.add(acc, acc, s_ub)\n"
    "            T.copy(acc, O)\n"
    "    return main\n";

// user_ws_src with W a workspace (out_idx [2], workspace_idx [3]) or a second
// output (out_idx [2, 3], no workspace).
static char *user_ws_kernel(bool workspace)
{
    static char buf[4096];
    const char *out = workspace ? "[2]" : "[2, 3]", *ws = workspace ? "[3]" : "[]";
    const char *at = strstr(user_ws_src, "out_idx=OUT, workspace_idx=WS");
    snprintf(buf, sizeof buf, "%.*sout_idx=%s, workspace_idx=%s%s", (int)(at - user_ws_src),
             user_ws_src, out, ws, at + strlen("out_idx=OUT, workspace_idx=WS"));
    return buf;
}

// W a workspace_idx tensor: versions, and acc keeps the order. W an output:
// no versions, and W keeps the order.
static void check_user_ws(tl_test_t *t, bool workspace)
{
    const char *src = user_ws_kernel(workspace);
    static const char *trips[] = {"nk=1", "nk=4", "nk=5"};
    for (size_t i = 0; i < TL_ARRAY_LEN(trips); i++) {
        pk_spec_t s = {.src = src, .args = {trips[i], "S=2"}};
        check(t, &s, ws_pipe, -1);
        pk_t p;
        REQUIRE(pk_compile(&p, &s, ws_pipe) == TL_OK);
        CHECK((pk_buffer(p.k, "W_v1") != NULL) == workspace);
        CHECK_CONTAINS(tl_diag_text(&p.d),
                       workspace ? "k.py:19:13: note: T.Pipelined loop hands data between the "
                                   "cores but its iterations stay in order (the cores take "
                                   "turns each iteration): 'acc', which cube and vector "
                                   "statements share, is also used outside the loop"
                                 : "k.py:19:13: note: T.Pipelined loop hands data between the "
                                   "cores but its iterations stay in order (the cores take "
                                   "turns each iteration): 'W', which cube and vector "
                                   "statements share, is a GM tensor the caller sees");
        pk_free(&p);
    }
}

TEST(pipelined_mixed_loop_versions_a_workspace_idx_tensor)
{
    check_user_ws(t, true);
}

TEST(pipelined_mixed_loop_through_an_output_keeps_its_order_with_a_note)
{
    check_user_ws(t, false);
}

TEST(pipelined_without_loads_runs_serially_with_a_note)
{
    // xb is written by the tile op too: no stage-0 load, nothing to multi-buffer.
    static const char *src =
        "import tilelang\n"
        "import tilelang.language as T\n"
        "@tilelang.jit(out_idx=[1])\n"
        "def k():\n"
        "    @T.prim_func\n"
        "    def main(X: T.Tensor((8, 64), 'float32'), Y: T.Tensor((8, 64), 'float32')):\n"
        "        with T.Kernel(1, is_npu=True) as (cid, vid):\n"
        "            xb = T.alloc_ub((1, 64), 'float32')\n"
        "            with T.Scope('V'):\n"
        "                for t in T.Pipelined(8, num_stages=2):\n"
        "                    T.copy(X[t, 0], xb)\n"
        "                    T.tile.exp(xb, xb)\n"
        "                    T.copy(xb, Y[t, 0])\n"
        "    return main\n";
    pk_spec_t s = {.src = src};
    pk_t p;
    REQUIRE(pk_compile(&p, &s, pipe_only) == TL_OK);
    CHECK_EQ(pk_count(p.k, is_pipelined), 0);
    CHECK_CONTAINS(tl_diag_text(&p.d), "k.py:10:17: note: T.Pipelined loop runs without "
                                       "multi-buffering: no copy from a read-only tensor");
    pk_free(&p);
}

// No top-level load: the band buffer is filled chunk by chunk in an inner loop
// (MTE2) and read by the vector pipe, each chunk after its write in the same
// iteration, so its value never flows around the back edge: it still gets
// versions, and every trip count keeps its results. With `stale`, chunk 0 is
// read before this iteration writes it (it carries the previous band): no
// version.
static const char *band_src =
    "import tilelang\n"
    "import tilelang.language as T\n"
    "@tilelang.jit(out_idx=[1])\n"
    "def k(n=5, stale=False):\n"
    "    @T.prim_func\n"
    "    def main(X: T.Tensor((16, 128), 'float32'), Y: T.Tensor((16, 128), 'float32')):\n"
    "        with T.Kernel(1, is_npu=True) as (cid, vid):\n"
    "            band = T.alloc_ub((2, 1, 64), 'float32')\n"
    "            yb = T.alloc_ub((1, 64), 'float32')\n"
    "            with T.Scope('V'):\n"
    "                for t in T.Pipelined(n, num_stages=2):\n"
    "                    if stale:\n"
    "                        T.copy(band[0, :, :], Y[t, 0])\n"
    "                    for c in T.serial(2):\n"
    "                        T.copy(X[t, c * 64], band[c, :, :])\n"
    "                    for c in T.serial(2):\n"
    "                        T.tile.exp(yb, band[c, :, :])\n"
    "                        T.copy(yb, Y[t, c * 64])\n"
    "    return main\n";

TEST(pipelined_versions_a_band_filled_in_an_inner_loop)
{
    static const char *trips[] = {"n=0", "n=1", "n=2", "n=3", "n=5"};
    for (size_t i = 0; i < TL_ARRAY_LEN(trips); i++) {
        pk_spec_t s = {.src = band_src, .args = {trips[i]}};
        check(t, &s, pipe_only, -1);
    }
    pk_spec_t s = {.src = band_src};
    pk_t p;
    REQUIRE(pk_compile(&p, &s, pipe_only) == TL_OK);
    CHECK(pk_buffer(p.k, "band_v1") != NULL);
    pk_free(&p);
    pk_spec_t st = {.src = band_src, .args = {"stale=True"}};
    REQUIRE(pk_compile(&p, &st, pipe_only) == TL_OK);
    CHECK(pk_buffer(p.k, "band_v1") == NULL);
    pk_free(&p);
}

// A cube loop with explicit L1 -> L0A / L0B copies: the L0 buffers MTE1 fills
// for the mma get versions too (s, or the largest divisor of s that fits beside
// every other buffer of the scope), so MTE1 fills the next iteration's while
// the cube reads this one's.
static const char *l0_src =
    "import tilelang\n"
    "import tilelang.language as T\n"
    "@tilelang.jit(out_idx=[2])\n"
    "def k(nk=5, N=64, S=2):\n"
    "    @T.prim_func\n"
    "    def main(A: T.Tensor((32, nk * 32), 'float16'), B: T.Tensor((N, nk * 32), 'float16'),\n"
    "             C: T.Tensor((32, N), 'float32')):\n"
    "        with T.Kernel(1, is_npu=True) as (cid, vid):\n"
    "            a_l1 = T.alloc_L1((32, 32), 'float16')\n"
    "            b_l1 = T.alloc_L1((N, 32), 'float16')\n"
    "            a_l0 = T.alloc_L0A((32, 32), 'float16')\n"
    "            b_l0 = T.alloc_L0B((32, N), 'float16')\n"
    "            c_l0 = T.alloc_L0C((32, N), 'float32')\n"
    "            with T.Scope('C'):\n"
    "                for k in T.Pipelined(nk, num_stages=S):\n"
    "                    T.copy(A[0, k * 32], a_l1)\n"
    "                    T.copy(B[0, k * 32], b_l1)\n"
    "                    T.copy(a_l1, a_l0)\n"
    "                    T.copy(b_l1, b_l0, transpose=True)\n"
    "                    T.mma(a_l0, b_l0, c_l0, init=(k == 0))\n"
    "                T.copy(c_l0, C)\n"
    "    return main\n";

static int buffers_in(const tl_kernel_t *k, tl_scope_t scope)
{
    int n = 0;
    for (int i = 0; i < k->buffers.len; i++)
        n += ((const tl_buffer_t *)k->buffers.items[i])->scope == scope;
    return n;
}

TEST(pipelined_versions_l0_handoffs)
{
    // N = 64: L0B 4 KiB (4 versions fit); N = 256: 16 KiB, 4 fit; N = 512:
    // 32 KiB, only 2 of 4 (the largest divisor), none of 3.
    static const struct {
        const char *n, *s;
        int l0a, l0b;
    } cases[] = {
        {"N=64", "S=2", 2, 2},  {"N=64", "S=4", 4, 4},  {"N=256", "S=4", 4, 4},
        {"N=512", "S=4", 4, 2}, {"N=512", "S=3", 3, 1}, {"N=64", "S=3", 3, 3},
    };
    static const char *nks[] = {"nk=1", "nk=3", "nk=5", "nk=8"};
    for (size_t c = 0; c < TL_ARRAY_LEN(cases); c++)
        for (size_t i = 0; i < TL_ARRAY_LEN(nks); i++) {
            pk_spec_t s = {.src = l0_src, .args = {nks[i], cases[c].n, cases[c].s}};
            pk_t got;
            tl_buf_t why;
            tl_buf_init(&why);
            if (!pk_same_results(&s, pipe_only, 5, &got, &why))
                tl_test_fail(t, __FILE__, __LINE__, "%s %s %s: %s", nks[i], cases[c].n, cases[c].s,
                             tl_buf_cstr(&why));
            if (got.k) {
                CHECK_EQ(buffers_in(got.k, TL_SCOPE_L0A), cases[c].l0a);
                CHECK_EQ(buffers_in(got.k, TL_SCOPE_L0B), cases[c].l0b);
                CHECK_EQ(buffers_in(got.k, TL_SCOPE_L0C), 1); // carried: never versioned
            }
            tl_buf_free(&why);
            pk_free(&got);
        }
}

// A mixed loop with the kernel's own intra-core flags (as upstream's
// sparse_flash_attn_pa.py): each flag goes with the core of its pipes (or the
// statement before it) and the loop is batched as upstream's CrossCorePipeline
// orders it; the compare's mask m, read by the select of the last vector run,
// gets versions. With `split` the MTE2 -> V flag is set in the first vector run
// and waited in the last: the iterations stay in order, with a note.
static const char *flags_src =
    "import tilelang\n"
    "import tilelang.language as T\n"
    "CFG = {tilelang.PassConfigKey.TL_ASCEND_AUTO_CV_COMBINE: True}\n"
    "@tilelang.jit(out_idx=[3], pass_configs=CFG)\n"
    "def k(nk=4, S=2, split=False):\n"
    "    @T.prim_func\n"
    "    def main(Q: T.Tensor((32, 32), 'float16'), K: T.Tensor((nk * 64, 32), 'float16'),\n"
    "             X: T.Tensor((nk, 64), 'float32'), O: T.Tensor((32, 64), 'float32')):\n"
    "        with T.Kernel(1, threads=2, is_npu=True) as cid:\n"
    "            q_s = T.alloc_shared((32, 32), 'float16')\n"
    "            k_s = T.alloc_shared((64, 32), 'float16')\n"
    "            s_f = T.alloc_fragment((32, 64), 'float32')\n"
    "            s_ub = T.alloc_shared((32, 64), 'float32')\n"
    "            x_ub = T.alloc_ub([64], 'float32')\n"
    "            m = T.alloc_ub([32], 'uint8')\n"
    "            acc = T.alloc_shared((32, 64), 'float32')\n"
    "            T.copy(Q, q_s)\n"
    "            T.tile.fill(acc, 0.0)\n"
    "            for kb in T.Pipelined(nk, num_stages=S):\n"
    "                T.copy(X[kb, 0], x_ub)\n"
    "                T.set_flag('mte2', 'v', 0)\n"
    "                if not split:\n"
    "                    T.wait_flag('mte2', 'v', 0)\n"
    "                T.tile.compare(m, x_ub, T.float32(0.0), 'GT')\n"
    "                T.copy(K[kb * 64, 0], k_s)\n"
    "                T.set_flag('mte2', 'mte1', 1)\n"
    "                T.wait_flag('mte2', 'mte1', 1)\n"
    "                T.gemm_v0(q_s, k_s, s_f, transpose_B=True, init=True)\n"
    "                T.copy(s_f, s_ub)\n"
    "                if split:\n"
    "                    T.wait_flag('mte2', 'v', 0)\n"
    "                for i in T.serial(32):\n"
    "                    T.tile.select(s_ub[i, :], m, s_ub[i, :], 0.0, 'VSEL_TENSOR_SCALAR_MODE')\n"
    "                T.pipe_barrier('v')\n"
    "                T.tile.add(acc, acc, s_ub)\n"
    "            T.copy(acc, O)\n"
    "    return main\n";

TEST(pipelined_mixed_loop_with_its_own_flags_is_batched)
{
    static const char *trips[] = {"nk=1", "nk=3", "nk=4"};
    for (size_t i = 0; i < TL_ARRAY_LEN(trips); i++) {
        pk_spec_t s = {.src = flags_src, .args = {trips[i], "S=2"}};
        check(t, &s, ws_pipe, -1);
        pk_t p;
        REQUIRE(pk_compile(&p, &s, ws_pipe) == TL_OK);
        CHECK(pk_buffer(p.k, "m_v1") != NULL);
        CHECK(!strstr(tl_diag_text(&p.d), "stay in order"));
        pk_free(&p);
    }
}

TEST(pipelined_mixed_loop_with_a_flag_across_runs_stays_in_order)
{
    pk_spec_t s = {.src = flags_src, .args = {"nk=3", "S=2", "split=True"}};
    check(t, &s, ws_pipe, -1);
    pk_t p;
    REQUIRE(pk_compile(&p, &s, ws_pipe) == TL_OK);
    CHECK_CONTAINS(tl_diag_text(&p.d),
                   "k.py:19:13: note: T.Pipelined loop hands data between the cores but its "
                   "iterations stay in order (the cores take turns each iteration): its flag "
                   "mte2 -> v (lines 21 and 31) is set and waited in different runs of cube or "
                   "vector statements");
    pk_free(&p);
}
