# A vector op writes `b`, then pipe_barrier("v"), then the UB -> GM store
# (MTE3) reads `b`. A PipeBarrier is an instruction of one pipe's queue: it
# holds later instructions of that pipe until the earlier ones finish, and
# other pipes' queues run on (asc-devkit 基本架构.md "典型的指令流";
# PipeBarrier(ISASI).md: "同一流水线内的同步"). V -> MTE3 needs
# set_flag("v", "mte3") / wait_flag. Upstream's attention/lightning_indexer
# flushes its top-k accumulator this way.
# expect: race RAW UB v@add mte3@store
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
                T.copy(A[row, 0], a)
                T.set_flag("mte2", "v", 0)
                T.wait_flag("mte2", "v", 0)
                T.tile.add(b, a, 1.0)  # @add
                T.pipe_barrier("v")
                T.copy(b, C[row, 0])  # @store

    return main
