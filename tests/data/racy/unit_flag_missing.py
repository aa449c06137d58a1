# The mmads hand L0C over with unit_flag=0b11 but the L0C -> GM copy has no
# unit flag: nothing orders it after the mmad (a race), and the units stay
# marked full after the kernel.
# expect: race RAW L0C m@mma fix@out
# expect: error unit_flag @mma
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
            a0 = T.alloc_L0A((M, K), dtype)
            b0 = T.alloc_L0B((K, N), dtype)
            c = T.alloc_L0C((M, N), "float32")
            with T.Scope("C"):
                T.copy(A[0, 0], a_l1)
                T.copy(B[0, 0], b_l1)
                T.set_flag("mte2", "mte1", 0)
                T.wait_flag("mte2", "mte1", 0)
                T.copy(a_l1, a0)
                T.copy(b_l1, b0)
                T.set_flag("mte1", "m", 0)
                T.wait_flag("mte1", "m", 0)
                T.mma(a0, b0, c, init=True, unit_flag=0b11)  # @mma
                T.copy(c, C[0, 0])  # @out

    return main
