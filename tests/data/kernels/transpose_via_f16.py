# A float32 tile transposed through the float16 transpose, as upstream's
# DeepSeek-V4 tile_kernels/transpose/batched_transpose_kernel.py (fp32 kernels)
# does: T.copy UB float32 -> UB float16 is a value cast (copy_ub_to_ub:
# Cast with CAST_RINT), the 16x16 float16 transpose moves bits, the copy back
# is exact. So the result is the float16 rounding of each value: exact for
# bfloat16-valued inputs in float16's normal range, rounded (to nearest even,
# subnormals kept) below 2^-14. The inputs here are integers m times 2^-26, a
# quarter of float16's smallest subnormal step: Out[v, j, i] = rint(m / 4) * 2^-24.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1], pass_configs={tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True})
def transpose_via_f16(N=16):
    @T.prim_func
    def main(
        A: T.Tensor((2, N, N), "float32"),
        Out: T.Tensor((2, N, N), "float32"),
    ):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a = T.alloc_ub((N, N), "float32")
            h = T.alloc_ub((N, N), "float16")
            t = T.alloc_ub((N, N), "float16")
            o = T.alloc_ub((N, N), "float32")
            T.copy(A[vid, 0, 0], a)
            T.tile.mul(a, a, 2.0**-26)
            T.copy(a, h)
            T.tile.transpose(t, h)
            T.copy(t, o)
            T.copy(o, Out[vid, 0, 0])

    return main
