# a T.copy between UB buffers of two dtypes is a vector cast: bfloat16 -> float16
# has none on Ascend A2/A3
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def kernel(M=64, N=128):
    @T.prim_func
    def main(A: T.Tensor((M, N), "bfloat16"), C: T.Tensor((M, N), "float16")):
        with T.Kernel(M // 32, is_npu=True) as (cid, vid):
            a = T.alloc_ub((16, N), "bfloat16")
            h = T.alloc_ub((16, N), "float16")
            with T.Scope("V"):
                row = cid * 32 + vid * 16
                T.copy(A[row, 0], a)
                T.copy(a, h)
                T.copy(h, C[row, 0])

    return main
