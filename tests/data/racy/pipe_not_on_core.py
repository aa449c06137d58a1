# Flags on the cube core that name the vector pipe: the AIC has no V pipe
# (its pipes are S, MTE1, MTE2, MTE3, M and FIX).
# expect: error bad_pipe @set
# expect: error bad_pipe @wait
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def kernel(M=64, N=64, K=64, dtype="float16"):
    @T.prim_func
    def main(A: T.Tensor((M, K), dtype), B: T.Tensor((K, N), dtype),
             C: T.Tensor((M, N), "float32")):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a_l1 = T.alloc_L1((M, K), dtype)
            b_l1 = T.alloc_L1((K, N), dtype)
            c = T.alloc_L0C((M, N), "float32")
            with T.Scope("C"):
                T.set_flag("v", "mte2", 0)  # @set
                T.wait_flag("v", "mte2", 0)  # @wait
                T.copy(A[0, 0], a_l1)
                T.copy(B[0, 0], b_l1)
                T.gemm_v0(a_l1, b_l1, c, init=True)
                T.copy(c, C[0, 0])

    return main
