# T.tile.cast of float32 with each rounding mode, one output per mode (R: RINT,
# F: FLOOR, C: CEIL, D: ROUND, Z: TRUNC, O: ODD into float16, else TRUNC again).
# A is scaled by `scale` first.
# - dst float32 (check case cast_round/modes): a float32 -> float32 cast rounds
#   to an integral value (asc-devkit Cast, float -> float: "rounds with the
#   mode, stays float"; upstream's DeepSeek-V4 int8_gemm relies on it for its
#   float32 output); integers / 4, so ties (x.5) occur.
# - dst float16 / bfloat16 (cast_round/bf16, /f16, /f16_subnormal): pto-isa's
#   CPU TCVT rounds to nearest even whatever the mode (tilec_pto.h rounds
#   there); integers of up to 17 bits give ties and, in float16, overflow;
#   scaled by 2^-30, float16 subnormals. bfloat16 has no round to odd on Ascend.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1, 2, 3, 4, 5, 6], pass_configs={tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True})
def cast_round(M=64, N=64, dst="float32", scale=0.25):
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
