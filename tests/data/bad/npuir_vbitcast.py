# T.vbitcast: a member of npuir's vector family tilec does not implement (it
# returns a reinterpreted value)
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1], target="npuir")
def kernel(N=64):
    @T.prim_func
    def main(A: T.Tensor((N,), "float32"), B: T.Tensor((N,), "float32")):
        with T.Kernel(1, is_npu=True) as (cid, _):
            a = T.alloc_shared((N,), "float32")
            T.copy(A, a)
            T.vbitcast(a, "int32")
            T.copy(a, B)

    return main
