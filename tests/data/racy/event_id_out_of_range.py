# An event id computed at run time that is negative: the id field holds 0 to 7
# (ids past 7 alias, event_id_alias.py).
# expect: error event_id @set
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
                for i in T.serial(2):
                    T.set_flag("mte2", "mte3", i - 1)  # @set
                    T.wait_flag("mte2", "mte3", i - 1)
                T.copy(a, C[row, 0])

    return main
