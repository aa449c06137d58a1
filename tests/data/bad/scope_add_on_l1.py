# T.tile.add on an L1 buffer
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def kernel(M=256, N=128, block_M=64, dtype="float16"):
    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), B: T.Tensor((M, N), dtype), C: T.Tensor((M, N), dtype)):
        with T.Kernel(M // block_M, is_npu=True) as (cid, vid):
            a = T.alloc_ub((32, 128), dtype)
            l1 = T.alloc_L1((32, 128), dtype)
            T.tile.add(a, a, l1)

    return main
