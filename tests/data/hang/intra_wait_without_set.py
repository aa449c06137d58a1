# A wait_flag with no set_flag anywhere: the vector cores' mte3 pipe would
# wait forever.
# expect: @wait would wait forever
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def kernel(M=64, N=128, dtype="float32"):
    half = M // 2

    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), C: T.Tensor((M, N), dtype)):
        with T.Kernel(2, is_npu=True) as (cid, vid):
            a = T.alloc_ub((half, N), dtype)
            with T.Scope("V"):
                T.copy(A[vid * half, 0], a)
                T.wait_flag("mte2", "mte3", 3)  # @wait
                T.copy(a, C[vid * half, 0])

    return main
