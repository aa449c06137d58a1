# A float32 -> float32 T.tile.cast with a rounding mode rounds to an integral
# value (asc-devkit Cast, float -> float: "rounds with the mode, stays float";
# upstream's DeepSeek-V4 int8_gemm relies on it for its float32 output). The
# input is integers / 4, so ties (x.5) occur. One output per mode.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1, 2, 3, 4, 5], pass_configs={tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True})
def cast_round(M=64, N=64):
    @T.prim_func
    def main(
        A: T.Tensor((M, N), "float32"),
        R: T.Tensor((M, N), "float32"),
        F: T.Tensor((M, N), "float32"),
        C: T.Tensor((M, N), "float32"),
        D: T.Tensor((M, N), "float32"),
        Z: T.Tensor((M, N), "float32"),
    ):
        with T.Kernel(M // 16, is_npu=True) as (cid, vid):
            a = T.alloc_ub((8, N), "float32")
            o = T.alloc_ub((8, N), "float32")
            with T.Scope("V"):
                row = cid * 16 + vid * 8
                T.copy(A[row, 0], a)
                T.tile.mul(a, a, 0.25)
                T.tile.cast(o, a, mode="CAST_RINT", count=8 * N)
                T.copy(o, R[row, 0])
                T.tile.cast(o, a, mode="CAST_FLOOR", count=8 * N)
                T.copy(o, F[row, 0])
                T.tile.cast(o, a, mode="CAST_CEIL", count=8 * N)
                T.copy(o, C[row, 0])
                T.tile.cast(o, a, mode="CAST_ROUND", count=8 * N)
                T.copy(o, D[row, 0])
                T.tile.cast(o, a, mode="CAST_TRUNC", count=8 * N)
                T.copy(o, Z[row, 0])

    return main
