# T.gemm_v0 on int8 tiles with K = 80: the one K tile (80 = 2 * 32 + 16) would be consumed as 96,
# 16 L0B rows past the 16-row padding of the L1 tile; upstream's gemm_v0 rejects it at compile
# time (tilelang-ascend #1723)
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def kernel(M=32, N=32, K=80):
    @T.prim_func
    def main(A: T.Tensor((M, K), "int8"), B: T.Tensor((K, N), "int8"), C: T.Tensor((M, N), "int32")):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a = T.alloc_L1((M, K), "int8")
            b = T.alloc_L1((K, N), "int8")
            c = T.alloc_L0C((M, N), "int32")
            T.copy(A, a)
            T.copy(B, b)
            T.gemm_v0(a, b, c, init=True)
            T.copy(c, C)

    return main
