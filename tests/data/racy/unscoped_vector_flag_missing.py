# ok_unscoped_vector_flags.py without its V -> MTE3 flag: the vector cores'
# store still races with the exp, and the cube core, which skips the other
# flag, reports nothing of its own.
# expect: race RAW UB v@use mte3@store
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def kernel(M=64, N=128, dtype="float32"):
    half = M // 2

    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), C: T.Tensor((M, N), dtype)):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a = T.alloc_ub((half, N), dtype)
            c = T.alloc_ub((half, N), dtype)
            T.copy(A[vid * half, 0], a)
            T.set_flag("mte2", "v", vid)
            T.wait_flag("mte2", "v", vid)
            T.tile.exp(c, a)  # @use
            T.copy(c, C[vid * half, 0])  # @store

    return main
