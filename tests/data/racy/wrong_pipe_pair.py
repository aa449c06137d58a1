# The load is followed by a flag on the wrong pipe pair: mte2 -> v orders the
# vector pipe, but the consumer of `a` is the MTE3 store.
# expect: race RAW UB mte2@load mte3@store
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
                T.copy(A[row, 0], a)  # @load
                T.set_flag("mte2", "v", 0)
                T.wait_flag("mte2", "v", 0)
                T.copy(a, C[row, 0])  # @store

    return main
