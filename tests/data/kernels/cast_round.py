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


# float32 -> float16 / bfloat16 with each rounding mode (pto-isa's CPU TCVT
# rounds to nearest even whatever the mode: tilec_pto.h rounds there). A is
# scaled by `scale` first: integers of up to 17 bits give ties and, in
# float16, overflow; scaled by 2^-30, float16 subnormals. O is round to odd
# (float16 only; bfloat16 has none on Ascend) or, for bfloat16, TRUNC again.
@tilelang.jit(out_idx=[1, 2, 3, 4, 5, 6], pass_configs={tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True})
def cast_narrow(M=64, N=64, dst="bfloat16", scale=1.0):
    last = "CAST_ODD" if dst == "float16" else "CAST_TRUNC"

    @T.prim_func
    def main(
        A: T.Tensor((M, N), "float32"),
        R: T.Tensor((M, N), dst),
        F: T.Tensor((M, N), dst),
        C: T.Tensor((M, N), dst),
        D: T.Tensor((M, N), dst),
        Z: T.Tensor((M, N), dst),
        O: T.Tensor((M, N), dst),
    ):
        with T.Kernel(M // 16, is_npu=True) as (cid, vid):
            a = T.alloc_ub((8, N), "float32")
            o = T.alloc_ub((8, N), dst)
            with T.Scope("V"):
                row = cid * 16 + vid * 8
                T.copy(A[row, 0], a)
                T.tile.mul(a, a, scale)
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
                T.tile.cast(o, a, mode=last, count=8 * N)
                T.copy(o, O[row, 0])

    return main
