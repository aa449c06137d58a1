# T.gemm_v0 on UB buffers
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def kernel(M=256, N=128, block_M=64, dtype="float16"):
    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), B: T.Tensor((M, N), dtype), C: T.Tensor((M, N), dtype)):
        with T.Kernel(M // block_M, is_npu=True) as (cid, vid):
            a = T.alloc_ub((64, 64), dtype)
            b = T.alloc_ub((64, 64), dtype)
            c = T.alloc_L0C((64, 64), "float32")
            T.gemm_v0(a, b, c)

    return main
