# The UB -> GM store (MTE3) reads `b`, then pipe_barrier("mte3"), then a fill
# (V) overwrites `b`: the barrier holds only later MTE3 instructions, so the
# fill may overwrite `b` while the store still reads it. MTE3 -> V needs
# set_flag("mte3", "v") / wait_flag. Upstream's deepseek_v4/lightning_indexer
# clears its top-k accumulator this way after flushing it.
# expect: race WAR UB mte3@store v@fill
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-2, -1])
def kernel(M=64, N=128, dtype="float32"):
    half = M // 2

    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), C: T.Tensor((M, N), dtype), D: T.Tensor((M, N), dtype)):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            b = T.alloc_ub((half, N), dtype)
            with T.Scope("V"):
                row = vid * half
                T.copy(A[row, 0], b)
                T.barrier_all()
                T.copy(b, C[row, 0])  # @store
                T.pipe_barrier("mte3")
                T.tile.fill(b, 0.0)  # @fill
                T.set_flag("v", "mte3", 0)
                T.wait_flag("v", "mte3", 0)
                T.copy(b, D[row, 0])

    return main
