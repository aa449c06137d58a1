# T.clear (npuir's and the GPU's spelling) in a kernel of the default target
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def kernel(N=64):
    @T.prim_func
    def main(A: T.Tensor((N,), "float32"), B: T.Tensor((N,), "float32")):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a = T.alloc_ub((N,), "float32")
            with T.Scope("V"):
                T.clear(a)
                T.copy(a, B)

    return main
