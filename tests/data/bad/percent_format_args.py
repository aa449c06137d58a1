# printf-style formatting with fewer values than conversions
import tilelang
import tilelang.language as T

NAME = "rows_%d_%d" % (64,)


@tilelang.jit(out_idx=[-1])
def kernel(N=64):
    @T.prim_func
    def main(A: T.Tensor((N,), "float32"), B: T.Tensor((N,), "float32")):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a = T.alloc_ub((N,), "float32")
            with T.Scope("V"):
                T.copy(A, a)
                T.copy(a, B)

    return main if NAME else None
