# T.gemm_v0 on int8 tiles with K = 80 in K tiles of kL0Size = 48 (A and B given transposed: K is
# A's rows): the tail (32) is whole 32-byte blocks, but the first tile is consumed as 64, past
# the offsets computed from 48; upstream's gemm_v0 rejects a kL0Size that is not a multiple of
# 32 int8 once K takes several tiles (tilelang-ascend #1723)
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def kernel(M=32, N=32, K=80):
    @T.prim_func
    def main(C: T.Tensor((M, N), "int32")):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            at = T.alloc_L1((K, M), "int8")
            bt = T.alloc_L1((N, K), "int8")
            acc = T.alloc_L0C((M, N), "int32")
            T.gemm_v0(at, bt, acc, transpose_A=True, transpose_B=True, init=True, kL0Size=48)

    return main
