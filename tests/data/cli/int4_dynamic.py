# an int4 tensor with a run-time last dimension K: held as K / 2 bytes, so K is
# inferred from an input's bytes (times two) and an odd K is a run-time error
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1], pass_configs={tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True})
def int4_dynamic(N=128, block_M=32):
    M = T.symbolic("M")
    K = T.symbolic("K")

    @T.prim_func
    def main(A: T.Tensor((M, K), "int4"), B: T.Tensor((N, K), "int4"), C: T.Tensor((M, N), "int32")):
        with T.Kernel(T.ceildiv(M, block_M), is_npu=True) as (cid, _):
            a = T.alloc_L1((block_M, 64), "int4")
            b = T.alloc_L1((N, 64), "int4")
            c = T.alloc_L0C((block_M, N), "int32")
            with T.Scope("C"):
                for k in T.serial(K // 64):
                    T.copy(A[cid * block_M, k * 64], a)
                    T.copy(B[0, k * 64], b)
                    T.gemm_v0(a, b, c, transpose_B=True, init=(k == 0))
                T.copy(c, C[cid * block_M, 0])

    return main
