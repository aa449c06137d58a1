# a T.copy between int4 and float16 UB buffers (upstream's copy_ub_to_ub would be a
# Cast): int4 copies only to and from int4 buffers; T.tile.cast converts
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def kernel(M=16, N=64):
    @T.prim_func
    def main(A: T.Tensor((M, N), "int4"), C: T.Tensor((M, N), "float16")):
        with T.Kernel(1, is_npu=True) as (cid, _):
            a = T.alloc_ub((M, N), "int4")
            c = T.alloc_ub((M, N), "float16")
            with T.Scope("V"):
                T.copy(A, a)
                T.copy(a, c)
                T.copy(c, C)

    return main
