# The vector cores wait for cross-core flag 0, which nothing sets: every
# unfinished agent is blocked.
# expect: @wait deadlock
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1])
def kernel(M=64, N=64, dtype="float32"):
    half = M // 2

    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), D: T.Tensor((M, N), dtype)):
        with T.Kernel(2, is_npu=True) as (cid, vid):
            d = T.alloc_ub((half, N), dtype)
            with T.Scope("V"):
                T.wait_cross_flag(0)  # @wait
                T.copy(A[vid * half, 0], d)
                T.set_flag("mte2", "mte3", 0)
                T.wait_flag("mte2", "mte3", 0)
                T.copy(d, D[vid * half, 0])

    return main
