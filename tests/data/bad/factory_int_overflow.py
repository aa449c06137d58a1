# an integer that does not fit in 128 bits (tilec keeps Python ints in 128 bits)
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def kernel(M=256, N=128, block_M=64, dtype="float16"):
    tiles = 2 ** 130
    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), B: T.Tensor((M, N), dtype), C: T.Tensor((M, N), dtype)):
        with T.Kernel(M // block_M, is_npu=True) as (cid, vid):
            a = T.alloc_ub((block_M // 2, N), dtype)
            b = T.alloc_ub((block_M // 2, N), dtype)
            with T.Scope("V"):
                row = cid * block_M + vid * (block_M // 2)
                T.copy(A[row, 0], a)
                T.copy(B[row, 0], b)
                T.tile.add(a, a, b)
                T.copy(a, C[row, 0])

    return main
