# int4 goes through T.copy, T.gemm_v0 and T.tile.cast only: a vector add of packed
# nibbles would add bytes, so it is a located error
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def kernel(M=16, N=64):
    @T.prim_func
    def main(A: T.Tensor((M, N), "int4"), C: T.Tensor((M, N), "int4")):
        with T.Kernel(1, is_npu=True) as (cid, _):
            a = T.alloc_ub((M, N), "int4")
            with T.Scope("V"):
                T.copy(A, a)
                T.tile.add(a, a, a)
                T.copy(a, C)

    return main
