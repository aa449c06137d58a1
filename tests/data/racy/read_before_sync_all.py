# ok_sync_all with the barrier in the wrong place: each block reads the other
# block's workspace rows before T.sync_all, unordered with the other block's
# store of them.
# expect: race RAW GM mte3@store mte2@load
# expect: race WAR GM mte2@load mte3@store
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1], workspace_idx=[2])
def kernel(M=64, N=128, dtype="float32"):
    half = M // 2

    @T.prim_func
    def main(A: T.Tensor((2 * M, N), dtype), C: T.Tensor((2 * M, N), dtype),
             W: T.Tensor((2 * M, N), dtype)):
        with T.Kernel(2, is_npu=True) as (cid, vid):
            a = T.alloc_ub((half, N), dtype)
            b = T.alloc_ub((half, N), dtype)
            row = cid * M + vid * half
            other = (1 - cid) * M + vid * half
            with T.Scope("V"):
                T.copy(A[row, 0], a)
                T.set_flag("mte2", "mte3", 0)
                T.wait_flag("mte2", "mte3", 0)
                T.copy(a, W[row, 0])  # @store
                T.copy(W[other, 0], b)  # @load
                T.set_flag("mte2", "mte3", 1)
                T.wait_flag("mte2", "mte3", 1)
                T.copy(b, C[row, 0])
            T.sync_all()

    return main
