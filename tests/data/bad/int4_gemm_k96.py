# upstream's test_gemm_v0_int4_alignment_reject: K = 96 is not a whole number of
# 64-element (32-byte) C0 blocks of int4, which the s4 loads and mad_s4 consume
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def kernel(M=128, N=256, K=96):
    @T.prim_func
    def main(A: T.Tensor((M, K), "int4"), B: T.Tensor((K, N), "int4"), C: T.Tensor((M, N), "int32")):
        with T.Kernel(1, is_npu=True) as (cid, _):
            A_L1 = T.alloc_L1((M, K), "int4")
            B_L1 = T.alloc_L1((K, N), "int4")
            C_L0 = T.alloc_L0C((M, N), "int32")
            with T.Scope("C"):
                T.copy(A, A_L1)
                T.copy(B, B_L1)
                T.gemm_v0(A_L1, B_L1, C_L0, init=True)
                T.copy(C_L0, C)

    return main
