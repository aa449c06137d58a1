# Automatic sync (TL_ASCEND_AUTO_SYNC) in a kernel with cross-core flags, the
# pattern of upstream's gdn_chunk_o.py: the vector cores load two workspaces
# (MTE2), use the first (V), store the result (MTE3) and release the cube with
# set_cross_flag("MTE3"), which then overwrites the second workspace. Upstream's
# AscendSyncInsert puts the mte2->v set right before its wait, after the second
# load, so the release follows that load too; a set right after the first load
# left the second load unordered with the cube's overwrite (a WAR on W2).
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1], workspace_idx=[2, 3, 4],
              pass_configs={tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True})
def kernel(M=32, N=32, K=32, dtype="float16"):
    half = M // 2

    @T.prim_func
    def main(A: T.Tensor((M, K), dtype), B: T.Tensor((K, N), dtype),
             W1: T.Tensor((M, N), "float32"), W2: T.Tensor((M, N), "float32"),
             X: T.Tensor((M, N), "float32"), O: T.Tensor((M, N), "float32")):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a_l1 = T.alloc_L1((M, K), dtype)
            b_l1 = T.alloc_L1((K, N), dtype)
            c = T.alloc_L0C((M, N), "float32")
            u = T.alloc_ub((half, N), "float32")
            w = T.alloc_ub((half, N), "float32")
            y = T.alloc_ub((half, N), "float32")
            with T.Scope("C"):
                T.copy(A[0, 0], a_l1)
                T.copy(B[0, 0], b_l1)
                T.gemm_v0(a_l1, b_l1, c, init=True)
                T.copy(c, W1[0, 0])
                T.copy(c, W2[0, 0])
                T.set_cross_flag("FIX", 0)
                T.wait_cross_flag(1)
                T.copy(c, W2[0, 0])  # @overwrite
                T.set_cross_flag("FIX", 2)
            with T.Scope("V"):
                T.wait_cross_flag(0)
                T.copy(W1[vid * half, 0], u)
                T.copy(W2[vid * half, 0], w)  # @load2
                T.tile.add(y, u, u)
                T.copy(y, X[vid * half, 0])
                T.set_cross_flag("MTE3", 1)
                T.tile.add(y, w, w)
                T.wait_cross_flag(2)
                T.copy(W2[vid * half, 0], u)
                T.tile.add(y, y, u)
                T.copy(y, O[vid * half, 0])

    return main
