# Both vector cores store the same rows of the same input to the same rows of
# C, unordered (upstream's sparse attention does this with gathered rows): the
# bytes are identical, so this is a benign race, a warning.
# expect: benign WAW GM mte3@store mte3@store
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def kernel(M=64, N=128, dtype="float32"):
    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), C: T.Tensor((M, N), dtype)):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a = T.alloc_ub((M, N), dtype)
            with T.Scope("V"):
                T.copy(A[0, 0], a)
                T.set_flag("mte2", "mte3", 0)
                T.wait_flag("mte2", "mte3", 0)
                T.copy(a, C[0, 0])  # @store

    return main
