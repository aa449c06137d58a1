# T.gemm_v0(..., kL0Size=K): the K of each L1 -> L0A/L0B chunk of the helper's
# L0 ping-pong (upstream's gemm_v0 signature: A, B, C, transpose_A, transpose_B,
# init, kL0Size=128, n_actual=None). The cann-bench resize_bilinear width pass
# passes kL0Size=64 with K_L1=128, so each gemm_v0 runs two L0 chunks; n_actual is
# the eighth positional argument (here on the transpose_B path, where it applies).
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def kernel(M=128, N=128, K=256, K_L1=128, kL0=64, dtype="float16"):
    @T.prim_func
    def main(A: T.Tensor((M, K), dtype), B: T.Tensor((N, K), dtype), C: T.Tensor((M, N), "float32")):
        with T.Kernel(1, is_npu=True) as (cid, _):
            A_L1 = T.alloc_L1((M, K_L1), dtype)
            B_L1 = T.alloc_L1((N, K_L1), dtype)
            C_L0 = T.alloc_L0C((M, N), "float")
            with T.Scope("C"):
                for k in T.serial(K // K_L1):
                    T.copy(A[0, k * K_L1], A_L1)
                    T.copy(B[0, k * K_L1], B_L1)
                    T.barrier_all()
                    T.gemm_v0(A_L1, B_L1, C_L0, False, True, k == 0, kL0, 96)
                    T.barrier_all()
                T.copy(C_L0, C[0, 0])

    return main
