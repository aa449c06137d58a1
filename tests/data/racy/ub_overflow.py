# Two 128 KiB UB buffers: the second ends past the 196,352 bytes a vector core
# can use.
# expect: error scratchpad_overflow @b
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def kernel(M=512, N=128, dtype="float32"):
    half = M // 2

    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), C: T.Tensor((M, N), dtype)):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a = T.alloc_ub((half, N), dtype)
            b = T.alloc_ub((half, N), dtype)  # @b
            with T.Scope("V"):
                row = vid * half
                T.copy(A[row, 0], a)
                T.set_flag("mte2", "v", 0)
                T.wait_flag("mte2", "v", 0)
                T.tile.mul(b, a, 2.0)
                T.set_flag("v", "mte3", 0)
                T.wait_flag("v", "mte3", 0)
                T.copy(b, C[row, 0])

    return main
