# T.sync_all makes every block wait for all others, so all must be resident:
# 32 blocks do not fit the 24 cores of the chip (the hardware deadlocks).
# expect: error too_many_blocks @kernel
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def kernel(M=64, N=128, blocks=32, dtype="float32"):
    half = M // 2

    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), C: T.Tensor((blocks * M, N), dtype)):  # @kernel
        with T.Kernel(blocks, is_npu=True) as (cid, vid):
            a = T.alloc_ub((half, N), dtype)
            with T.Scope("V"):
                row = vid * half
                T.copy(A[row, 0], a)
                T.set_flag("mte2", "mte3", 0)
                T.wait_flag("mte2", "mte3", 0)
                T.copy(a, C[cid * M + row, 0])
            T.sync_all()

    return main
