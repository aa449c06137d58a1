# A GM -> UB load (MTE2) and the vector op that reads it with no
# set_flag("mte2", "v") / wait_flag between them.
# expect: race RAW UB mte2@load v@use
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def kernel(M=64, N=128, dtype="float32"):
    half = M // 2

    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), C: T.Tensor((M, N), dtype)):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a = T.alloc_ub((half, N), dtype)
            b = T.alloc_ub((half, N), dtype)
            with T.Scope("V"):
                row = vid * half
                T.copy(A[row, 0], a)  # @load
                T.tile.mul(b, a, 2.0)  # @use
                T.set_flag("v", "mte3", 0)
                T.wait_flag("v", "mte3", 0)
                T.copy(b, C[row, 0])

    return main
