# The set_flag is before the loop, the wait_flag inside it: the first
# iteration takes the one set, the second iteration's wait has none left.
# expect: @wait would wait forever
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def kernel(M=64, N=128, dtype="float32"):
    half = M // 2
    rows = half // 2

    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), C: T.Tensor((M, N), dtype)):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a = T.alloc_ub((rows, N), dtype)
            with T.Scope("V"):
                T.set_flag("mte3", "mte2", 0)
                for i in T.serial(2):
                    T.wait_flag("mte3", "mte2", 0)  # @wait
                    T.copy(A[vid * half + i * rows, 0], a)
                    T.set_flag("mte2", "mte3", 0)
                    T.wait_flag("mte2", "mte3", 0)
                    T.copy(a, C[vid * half + i * rows, 0])

    return main
