# T.vexp (upstream's npuir dialect, the destination last) in a kernel of the
# default target: only @tilelang.jit(target="npuir") kernels have it
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def kernel(N=64):
    @T.prim_func
    def main(A: T.Tensor((N,), "float32"), B: T.Tensor((N,), "float32")):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a = T.alloc_ub((N,), "float32")
            with T.Scope("V"):
                T.copy(A, a)
                T.vexp(a, a)
                T.copy(a, B)

    return main
