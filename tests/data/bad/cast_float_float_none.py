# float32 -> float32 takes RINT, FLOOR, CEIL, ROUND or TRUNC (it rounds to an
# integral value); the device has no CAST_NONE form of it
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def kernel(M=64, N=128):
    @T.prim_func
    def main(A: T.Tensor((M, N), "float32"), C: T.Tensor((M, N), "float32")):
        with T.Kernel(M // 32, is_npu=True) as (cid, vid):
            a = T.alloc_ub((16, N), "float32")
            b = T.alloc_ub((16, N), "float32")
            with T.Scope("V"):
                row = cid * 32 + vid * 16
                T.copy(A[row, 0], a)
                T.tile.cast(b, a, mode="CAST_NONE", count=16 * N)
                T.copy(b, C[row, 0])

    return main
