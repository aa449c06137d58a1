# int8 L1 tiles addressed by physical offset (issue 19; upstream's
# quant_batch_matmul/example_quant_matmul_high_performance.py): the start index of
# an int8 L1 -> L0A/L0B copy is a flat element offset into the tile's zN layout,
# as upstream's copy_l1_to_l0a/b take it. The kk-th K tile of A [M, K] starts at
# offset kk * M * K_L0 (whole column blocks of M rows x 32 bytes), written
# a_l1[kk * M * K_L0 // K, 0]; that of B [K, N] at kk * 32 * K_L0 (K_L0 rows of
# 32-byte fractal rows), written b_l1[0, kk * 32 * K_L0]. C = A @ B (int32).
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1], pass_configs={tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True})
def int8_l1_physical(M=32, N=64, K=128, K_L0=64):
    @T.prim_func
    def main(
        A: T.Tensor((M, K), "int8"),
        B: T.Tensor((K, N), "int8"),
        C: T.Tensor((M, N), "int32"),
    ):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a_l1 = T.alloc_L1((M, K), "int8")
            b_l1 = T.alloc_L1((K, N), "int8")
            a_l0 = T.alloc_L0A((M, K_L0), "int8")
            b_l0 = T.alloc_L0B((K_L0, N), "int8")
            c_l0 = T.alloc_L0C((M, N), "int32")
            with T.Scope("C"):
                T.copy(A, a_l1)
                T.copy(B, b_l1)
                for kk in T.serial(K // K_L0):
                    T.copy(a_l1[kk * M * K_L0 // K, 0], a_l0)
                    T.copy(b_l1[0, kk * 32 * K_L0], b_l0)
                    T.mma(a_l0, b_l0, c_l0, init=(kk == 0))
                T.copy(c_l0, C)

    return main
