# a region of an int4 tensor starting at an odd column starts mid-byte
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def kernel(M=16, N=128):
    @T.prim_func
    def main(A: T.Tensor((M, N), "int4"), C: T.Tensor((M, 64), "int4")):
        with T.Kernel(1, is_npu=True) as (cid, _):
            a = T.alloc_ub((M, 64), "int4")
            with T.Scope("V"):
                T.copy(A[0, 3], a)
                T.copy(a, C)

    return main
