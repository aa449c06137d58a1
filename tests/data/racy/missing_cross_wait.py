# The cube writes a GM workspace and raises cross-core flag 0, but the vector
# cores read the workspace without wait_cross_flag(0): the FIX write and the
# MTE2 read are unordered, and the flag's releases are never consumed. In
# modeled time the read (cycle 1) comes long before the write, hence WAR.
# expect: race WAR GM mte2@read fix@ws
# expect: finding cross_flag_unmatched @set
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[2], workspace_idx=[3])
def kernel(M=64, N=64, K=64, dtype="float16"):
    half = M // 2

    @T.prim_func
    def main(A: T.Tensor((M, K), dtype), B: T.Tensor((K, N), dtype),
             D: T.Tensor((M, N), "float32"), W: T.Tensor((M, N), "float32")):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a_l1 = T.alloc_L1((M, K), dtype)
            b_l1 = T.alloc_L1((K, N), dtype)
            c = T.alloc_L0C((M, N), "float32")
            d = T.alloc_ub((half, N), "float32")
            with T.Scope("C"):
                T.copy(A[0, 0], a_l1)
                T.copy(B[0, 0], b_l1)
                T.gemm_v0(a_l1, b_l1, c, init=True)
                T.copy(c, W[0, 0])  # @ws
                T.set_cross_flag("FIX", 0)  # @set
            with T.Scope("V"):
                T.copy(W[vid * half, 0], d)  # @read
                T.set_flag("mte2", "mte3", 0)
                T.wait_flag("mte2", "mte3", 0)
                T.copy(d, D[vid * half, 0])

    return main
