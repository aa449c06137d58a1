# T.mma with L1 operands
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def kernel(M=256, N=128, block_M=64, dtype="float16"):
    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), B: T.Tensor((M, N), dtype), C: T.Tensor((M, N), dtype)):
        with T.Kernel(M // block_M, is_npu=True) as (cid, vid):
            x = T.alloc_L1((32, 64), dtype)
            y = T.alloc_L0B((64, 32), dtype)
            z = T.alloc_L0C((32, 32), "float32")
            T.mma(x, y, z)

    return main
