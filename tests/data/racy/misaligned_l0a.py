# T.annotate_address pins an L0A buffer at byte 8224: a multiple of 32 but
# not of the 512 bytes (one fractal) L0A addresses need.
# expect: error misaligned @a0
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
            a0 = T.alloc_L0A((M, K), dtype)  # @a0
            b0 = T.alloc_L0B((K, N), dtype)
            c = T.alloc_L0C((M, N), "float32")
            T.annotate_address({a0: 8224})
            with T.Scope("C"):
                T.copy(A[0, 0], a_l1)
                T.copy(B[0, 0], b_l1)
                T.set_flag("mte2", "mte1", 0)
                T.wait_flag("mte2", "mte1", 0)
                T.copy(a_l1, a0)
                T.copy(b_l1, b0)
                T.set_flag("mte1", "m", 0)
                T.wait_flag("mte1", "m", 0)
                T.mma(a0, b0, c, init=True)
                T.set_flag("m", "fix", 0)
                T.wait_flag("m", "fix", 0)
                T.copy(c, C[0, 0])

    return main
