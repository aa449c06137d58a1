# The cube sets cross-core flag 0 once per tile, the vector cores wait for it
# once per tile and once more after the loop: that last wait is never
# released.
# expect: @wait deadlock
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1], workspace_idx=[2])
def kernel(M=64, N=64, dtype="float32"):
    half = M // 2

    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), D: T.Tensor((M, N), dtype),
             W: T.Tensor((M, N), dtype)):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            d = T.alloc_ub((half, N), dtype)
            with T.Scope("C"):
                for t in T.serial(2):
                    T.set_cross_flag("FIX", 0)
            with T.Scope("V"):
                for t in T.serial(2):
                    T.wait_cross_flag(0)
                T.wait_cross_flag(0)  # @wait
                T.copy(A[vid * half, 0], d)
                T.set_flag("mte2", "mte3", 0)
                T.wait_flag("mte2", "mte3", 0)
                T.copy(d, D[vid * half, 0])

    return main
