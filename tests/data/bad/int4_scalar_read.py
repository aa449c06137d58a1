# an element of an int4 buffer has no scalar form (it is half a byte)
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def kernel(M=16, N=64):
    @T.prim_func
    def main(A: T.Tensor((M, N), "int4"), C: T.Tensor((M, N), "float16")):
        with T.Kernel(1, is_npu=True) as (cid, _):
            c = T.alloc_ub((M, N), "float16")
            with T.Scope("V"):
                T.tile.fill(c, A[0, 2])
                T.copy(c, C)

    return main
