// Workspace insertion: L0C -> UB and UB -> L1 hand-offs through GM workspaces,
// with the workspace's shape, the per-vector-core slots, symbolic grids, the
// error inside T.Scope, and results identical to the direct moves.
#include "../test.h"

#include "test_pass_util.h"

static const pk_pass_fn ws_only[] = {tl_pass_workspace, NULL};

static bool is_handoff(const tl_stmt_t *s)
{
    if (s->kind != TL_ST_OP || s->op.code != TL_OP_COPY) return false;
    tl_scope_t a = s->op.args[0].region.buf->scope, b = s->op.args[1].region.buf->scope;
    return (a == TL_SCOPE_L0C && b == TL_SCOPE_UB) || (a == TL_SCOPE_UB && b == TL_SCOPE_L1);
}

static const tl_param_t *workspace_param(const tl_kernel_t *k, int nth)
{
    for (int i = 0; i < k->nparams; i++)
        if (k->params[i].buf && k->params[i].buf->internal && !nth--) return &k->params[i];
    return NULL;
}

static void check(tl_test_t *t, const pk_spec_t *s, int nworkspaces, const char *want)
{
    pk_t got;
    tl_buf_t why;
    tl_buf_init(&why);
    if (!pk_same_results(s, ws_only, 3, &got, &why))
        tl_test_fail(t, __FILE__, __LINE__, "%s", tl_buf_cstr(&why));
    if (got.k) {
        CHECK_EQ(pk_count(got.k, is_handoff), 0);
        CHECK(workspace_param(got.k, nworkspaces - 1) != NULL);
        CHECK(workspace_param(got.k, nworkspaces) == NULL);
        const tl_param_t *p = workspace_param(got.k, 0);
        if (p) CHECK_EQ(p->role, TL_ROLE_WORKSPACE);
        if (want) CHECK_CONTAINS(tl_buf_cstr(&got.dump), want);
    }
    tl_buf_free(&why);
    pk_free(&got);
}

// Developer mode, one logical vector core (threads=2), a symbolic grid:
// C = A @ B + D with the accumulator handed to the vector side.
static const char *mm_add =
    "import tilelang\n"
    "import tilelang.language as T\n"
    "CFG = {tilelang.PassConfigKey.TL_ASCEND_AUTO_CV_COMBINE: True}\n"
    "@tilelang.jit(out_idx=[3], pass_configs=CFG)\n"
    "def mm_add(N=64, K=64, bm=32, bn=32, bk=32):\n"
    "    M = T.symbolic('M')\n"
    "    @T.prim_func\n"
    "    def main(A: T.Tensor((M, K), 'float16'), B: T.Tensor((K, N), 'float16'),\n"
    "             D: T.Tensor((M, N), 'float16'), C: T.Tensor((M, N), 'float16')):\n"
    "        with T.Kernel(T.ceildiv(M, bm) * (N // bn), threads=2, is_npu=True) as cid:\n"
    "            i0 = cid // (N // bn) * bm\n"
    "            j0 = cid % (N // bn) * bn\n"
    "            a_s = T.alloc_shared((bm, bk), 'float16')\n"
    "            b_s = T.alloc_shared((bk, bn), 'float16')\n"
    "            acc = T.alloc_fragment((bm, bn), 'float32')\n"
    "            c_s = T.alloc_shared((bm, bn), 'float16')\n"
    "            d_s = T.alloc_shared((bm, bn), 'float16')\n"
    "            for k in T.serial(K // bk):\n"
    "                T.copy(A[i0, k * bk], a_s)\n"
    "                T.copy(B[k * bk, j0], b_s)\n"
    "                T.gemm_v0(a_s, b_s, acc, init=(k == 0))\n"
    "            T.copy(acc, c_s)\n"
    "            T.copy(D[i0, j0], d_s)\n"
    "            T.tile.add(c_s, c_s, d_s)\n"
    "            T.copy(c_s, C[i0, j0])\n"
    "    return main\n";

TEST(workspace_l0c_to_ub_symbolic_grid)
{
    pk_spec_t s = {.src = mm_add, .dims = {"M=70"}};
    // one tile per block, in the UB side's dtype (the fixpipe converts)
    check(t, &s, 1, "  workspace_0: workspace float16[(M + 31) / 32 * 2, 32, 32],\n");
    // the read-back waits until c_s is needed: the vector cores load D first
    check(t, &s, 1,
          "  + copy acc, workspace_0[cid, :, :]\n"
          "  copy D[cid / 2 * 32 +: 32, cid % 2 * 32 +: 32], d_s\n"
          "  + copy workspace_0[cid, :, :], c_s\n"
          "  add c_s, c_s, d_s\n");
}

// (cid, vid) developer mode: each vector core computes half of P and writes its
// rows of the cube's L1 tile, so the workspace has a slot per vector core and
// the cube reads both.
static const char *pv =
    "import tilelang\n"
    "import tilelang.language as T\n"
    "CFG = {tilelang.PassConfigKey.TL_ASCEND_AUTO_CV_COMBINE: True}\n"
    "@tilelang.jit(out_idx=[2], pass_configs=CFG)\n"
    "def pv(n=3):\n"
    "    @T.prim_func\n"
    "    def main(P: T.Tensor((n, 32, 32), 'float32'), V: T.Tensor((n, 32, 32), 'float16'),\n"
    "             O: T.Tensor((n, 32, 32), 'float32')):\n"
    "        with T.Kernel(n, is_npu=True) as (cid, vid):\n"
    "            p_ub = T.alloc_ub((16, 32), 'float32')\n"
    "            p_h = T.alloc_ub((16, 32), 'float16')\n"
    "            p_l1 = T.alloc_L1((32, 32), 'float16')\n"
    "            v_l1 = T.alloc_L1((32, 32), 'float16')\n"
    "            o_l0c = T.alloc_L0C((32, 32), 'float32')\n"
    "            o_ub = T.alloc_ub((16, 32), 'float32')\n"
    "            T.copy(P[cid, vid * 16, 0], p_ub)\n"
    "            T.tile.exp(p_ub, p_ub)\n"
    "            T.tile.cast(p_h, p_ub, mode='CAST_RINT', count=512)\n"
    "            T.copy(p_h, p_l1[vid * 16 : vid * 16 + 16, :])\n"
    "            T.copy(V[cid, 0, 0], v_l1)\n"
    "            T.gemm_v0(p_l1, v_l1, o_l0c, init=True)\n"
    "            T.copy(o_l0c[vid * 16 : vid * 16 + 16, :], o_ub)\n"
    "            T.copy(o_ub, O[cid, vid * 16, 0])\n"
    "    return main\n";

TEST(workspace_slots_per_vector_core)
{
    pk_spec_t s = {.src = pv};
    check(t, &s, 2, "  workspace_0: workspace float16[3, 2, 16, 32],\n");
    check(t, &s, 2,
          "  + copy p_h, workspace_0[cid, vid, :, :]\n"
          "  copy V[cid +: 1, :, :], v_l1\n"
          "  + for lane in serial(0, 2):\n"
          "    + copy workspace_0[cid, lane, :, :], p_l1[lane * 16 +: 16, :]\n"
          "  gemm_v0 p_l1, v_l1, o_l0c [init=True]\n");
    check(t, &s, 2,
          "  + for lane_1 in serial(0, 2):\n"
          "    + copy o_l0c[lane_1 * 16 +: 16, :], workspace_1[cid, lane_1, :, :]\n"
          "  + copy workspace_1[cid, vid, :, :], o_ub\n");
}

TEST(workspace_kernels_unchanged)
{
    pk_spec_t fa = {.path = "kernels/examples/flash_attention.py",
                    .args = {"batch=1", "heads=2", "seq_q=64", "seq_kv=128", "dim=64"}};
    check(t, &fa, 3, NULL);
    pk_spec_t mad = {.path = "kernels/examples/matmul_add_dev.py",
                     .args = {"N=128", "K=256"},
                     .dims = {"M=100"}};
    check(t, &mad, 1, NULL);
}

TEST(workspace_handoff_inside_a_scope_is_an_error)
{
    static const char *src =
        "import tilelang\n"
        "import tilelang.language as T\n"
        "CFG = {tilelang.PassConfigKey.TL_ASCEND_AUTO_CV_COMBINE: True}\n"
        "@tilelang.jit(out_idx=[1], pass_configs=CFG)\n"
        "def k():\n"
        "    @T.prim_func\n"
        "    def main(A: T.Tensor((32, 32), 'float16'), O: T.Tensor((32, 32), 'float32')):\n"
        "        with T.Kernel(1, is_npu=True) as (cid, vid):\n"
        "            a = T.alloc_L1((32, 32), 'float16')\n"
        "            c = T.alloc_L0C((32, 32), 'float32')\n"
        "            o = T.alloc_ub((32, 32), 'float32')\n"
        "            T.copy(A, a)\n"
        "            T.gemm_v0(a, a, c, init=True)\n"
        "            with T.Scope('V'):\n"
        "                T.copy(c, o)\n"
        "                T.copy(o, O)\n"
        "    return main\n";
    pk_spec_t s = {.src = src};
    pk_t p;
    CHECK(pk_compile(&p, &s, ws_only) == TL_ERR_COMPILE);
    CHECK_CONTAINS(tl_diag_text(&p.d),
                   "k.py:15:17: error: T.copy from L0C to UB hands data between "
                   "the cube and the vector cores, so it cannot be inside "
                   "T.Scope: write it outside");
    pk_free(&p);
}

TEST(workspace_expert_mode_is_untouched)
{
    pk_spec_t s = {.path = "kernels/examples/matmul_add.py"};
    pk_t p;
    REQUIRE(pk_compile(&p, &s, ws_only) == TL_OK);
    CHECK(workspace_param(p.k, 0) == NULL);
    pk_free(&p);
}
