# T.gemm_v0 transpose_B given as a string
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def kernel(M=256, N=128, block_M=64, dtype="float16"):
    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), B: T.Tensor((M, N), dtype), C: T.Tensor((M, N), dtype)):
        with T.Kernel(M // block_M, is_npu=True) as (cid, vid):
            x = T.alloc_L1((64, 64), dtype)
            y = T.alloc_L1((64, 64), dtype)
            z = T.alloc_L0C((64, 64), "float32")
            T.gemm_v0(x, y, z, transpose_B="yes")

    return main
