# A wait_flag that no set_flag ever releases: the destination pipe would wait
# forever.
# expect: error wait_without_set @wait
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def kernel(M=64, N=128, dtype="float32"):
    half = M // 2

    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), C: T.Tensor((M, N), dtype)):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a = T.alloc_ub((half, N), dtype)
            with T.Scope("V"):
                row = vid * half
                T.copy(A[row, 0], a)
                T.wait_flag("mte2", "mte3", 1)  # @wait
                T.copy(a, C[row, 0])

    return main
