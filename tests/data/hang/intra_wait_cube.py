# The cube waits for an mte2 -> mte1 flag that it never sets (the load into
# L1 is not followed by a set_flag): its mte1 pipe would wait forever.
# expect: @wait would wait forever
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[2])
def kernel(M=32, N=32, K=32, dtype="float16"):

    @T.prim_func
    def main(A: T.Tensor((M, K), dtype), B: T.Tensor((K, N), dtype),
             C: T.Tensor((M, N), "float32")):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a_l1 = T.alloc_L1((M, K), dtype)
            b_l1 = T.alloc_L1((K, N), dtype)
            c = T.alloc_L0C((M, N), "float32")
            with T.Scope("C"):
                T.copy(A[0, 0], a_l1)
                T.copy(B[0, 0], b_l1)
                T.wait_flag("mte2", "m", 0)  # @wait
                T.gemm_v0(a_l1, b_l1, c, init=True)
                T.set_flag("m", "fix", 0)
                T.wait_flag("m", "fix", 0)
                T.copy(c, C[0, 0])

    return main
