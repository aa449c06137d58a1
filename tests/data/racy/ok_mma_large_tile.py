# The same two mmads on a 128 x 128 tile (64 fractals): the cube interlocks
# accumulation into one L0C tile this large, so no pipe_barrier("m") is needed.
# expect: nothing
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def kernel(M=128, N=128, K=64, dtype="float16"):
    hk = K // 2

    @T.prim_func
    def main(A: T.Tensor((M, K), dtype), B: T.Tensor((K, N), dtype),
             C: T.Tensor((M, N), "float32")):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a_l1 = T.alloc_L1((M, K), dtype)
            b_l1 = T.alloc_L1((K, N), dtype)
            a0 = T.alloc_L0A((M, hk), dtype)
            a1 = T.alloc_L0A((M, hk), dtype)
            b0 = T.alloc_L0B((hk, N), dtype)
            b1 = T.alloc_L0B((hk, N), dtype)
            c = T.alloc_L0C((M, N), "float32")
            with T.Scope("C"):
                T.copy(A[0, 0], a_l1)
                T.copy(B[0, 0], b_l1)
                T.set_flag("mte2", "mte1", 0)
                T.wait_flag("mte2", "mte1", 0)
                T.copy(a_l1[:, 0:hk], a0)
                T.copy(a_l1[:, hk:K], a1)
                T.copy(b_l1[0:hk, :], b0)
                T.copy(b_l1[hk:K, :], b1)
                T.set_flag("mte1", "m", 0)
                T.wait_flag("mte1", "m", 0)
                T.mma(a0, b0, c, init=True)
                T.mma(a1, b1, c)
                T.set_flag("m", "fix", 0)
                T.wait_flag("m", "fix", 0)
                T.copy(c, C[0, 0])

    return main
