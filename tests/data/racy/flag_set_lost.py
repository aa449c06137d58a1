# Two sets of one flag before its waits, both released before the first wait
# clears the bit: the bit keeps one of them (the second is lost), so the
# second wait would wait forever (set_flag-wait_flag(ISASI): setting a flag
# twice is undefined; with a later PipeBarrier<PIPE_ALL> the core hangs).
# expect: error double_set @second
# expect: error wait_without_set @hang
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
                T.set_flag("mte2", "mte3", 0)
                T.set_flag("mte2", "mte3", 0)  # @second
                T.wait_flag("mte2", "mte3", 0)
                T.wait_flag("mte2", "mte3", 0)  # @hang
                T.copy(a, C[row, 0])

    return main
