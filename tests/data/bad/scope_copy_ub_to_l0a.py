# a T.copy from UB to L0A
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def kernel(M=256, N=128, block_M=64, dtype="float16"):
    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), B: T.Tensor((M, N), dtype), C: T.Tensor((M, N), dtype)):
        with T.Kernel(M // block_M, is_npu=True) as (cid, vid):
            a = T.alloc_ub((32, 128), dtype)
            l0a = T.alloc_L0A((32, 128), dtype)
            T.copy(a, l0a)

    return main
