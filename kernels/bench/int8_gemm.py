# Int8 GEMM with per-row scales, tiled for the CPU target (the benchmark's
# kernel; the same math as kernels/ds_v4/int8_gemm.py):
#
#     acc[i, j] = sum_k A[i, k] * B[j, k]                    exact, int32
#     C[i, j]   = out_dtype((float32(acc[i, j]) * scale_a[i]) * scale_b[j])
#
#   A        [M, K]  int8       (activations, per-row scale_a [M] float32)
#   B        [N, K]  int8       (weights stored [out, in], per-row scale_b [N])
#   C        [M, N]  float32 / float16 / bfloat16 (out_dtype)
#   M symbolic; N, K compile-time; any M, N, K (GM copies clip, L1 K tails
#   are zero-filled).
#
# Differences from the NPU-shaped operator kernel: tiles of any size (block_M
# may be 1 for decode; the defaults suit large M on a CPU, whose scratchpads
# are ordinary memory), and the two vector cores split a tile by columns, so
# any block_M works. Mode: mixed, one hand-written cross-core flag (FIX ->
# both vector cores).
#
# Golden: tl_int8_gemm_ref (src/ref/ref.h) with order TL_INT8_GEMM_SCALE_SEQ.
import tilelang
import tilelang.language as T

MIXED_MODE = {
    tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True,
    tilelang.PassConfigKey.TL_ASCEND_MEMORY_PLANNING: True,
}


@tilelang.jit(out_idx=[4], workspace_idx=[5], pass_configs=MIXED_MODE)
def int8_gemm_tiled(N=4096, K=4096, block_M=128, block_N=256, block_K=512, out_dtype="bfloat16"):
    assert out_dtype in ("float32", "float16", "bfloat16"), "out_dtype: float32, float16 or bfloat16"
    assert block_N % 32 == 0 and block_K % 32 == 0 and block_M >= 1
    M = T.symbolic("M")
    f32 = "float32"
    half_N = block_N // 2
    n_num = T.ceildiv(N, block_N)
    k_num = T.ceildiv(K, block_K)

    @T.prim_func
    def main(
        A: T.Tensor([M, K], "int8"),
        B: T.Tensor([N, K], "int8"),
        scale_a: T.Tensor([M], f32),
        scale_b: T.Tensor([N], f32),
        C: T.Tensor([M, N], out_dtype),
        acc_workspace: T.Tensor([M, N], "int32"),
    ):
        with T.Kernel(T.ceildiv(M, block_M) * n_num, is_npu=True) as (cid, vid):
            m0 = cid // n_num * block_M
            n0 = cid % n_num * block_N

            a_l1 = T.alloc_L1([block_M, block_K], "int8")
            b_l1 = T.alloc_L1([block_N, block_K], "int8")
            acc_l0c = T.alloc_L0C([block_M, block_N], "int32")

            acc_ub = T.alloc_ub([block_M, half_N], "int32")
            val = T.alloc_ub([block_M, half_N], f32)
            sa = T.alloc_ub([block_M], f32)
            sb = T.alloc_ub([half_N], f32)
            if out_dtype != f32:
                res = T.alloc_ub([block_M, half_N], out_dtype)

            with T.Scope("C"):
                for k in T.serial(k_num):
                    T.copy(A[m0, k * block_K], a_l1)
                    T.copy(B[n0, k * block_K], b_l1)
                    T.gemm_v0(a_l1, b_l1, acc_l0c, transpose_B=True, init=(k == 0))
                T.copy(acc_l0c, acc_workspace[m0, n0])
                T.set_cross_flag("FIX", 0)

            with T.Scope("V"):
                c0 = n0 + vid * half_N
                T.copy(scale_a[m0], sa)
                T.copy(scale_b[c0], sb)
                T.wait_cross_flag(0)
                T.copy(acc_workspace[m0, c0], acc_ub)
                T.tile.cast(val, acc_ub, mode="CAST_RINT", count=block_M * half_N)
                for i, j in T.Parallel(block_M, half_N):
                    val[i, j] = val[i, j] * sa[i]
                    val[i, j] = val[i, j] * sb[j]
                if out_dtype == f32:
                    T.copy(val, C[m0, c0])
                else:
                    T.tile.cast(res, val, mode="CAST_RINT", count=block_M * half_N)
                    T.copy(res, C[m0, c0])

    return main
