# T.vselect: a member of npuir's vector family tilec does not implement (its
# condition is a bool tensor)
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1], target="npuir")
def kernel(N=64):
    @T.prim_func
    def main(A: T.Tensor((N,), "float32"), B: T.Tensor((N,), "float32")):
        with T.Kernel(1, is_npu=True) as (cid, _):
            a = T.alloc_shared((N,), "float32")
            T.copy(A, a)
            T.vselect(a, a, a, a)
            T.copy(a, B)

    return main
