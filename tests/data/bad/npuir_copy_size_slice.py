# npuir's T.copy takes its extents from slices or from size=, not both (upstream's
# copy.py raises ValueError)
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1], target="npuir")
def kernel(N=64):
    @T.prim_func
    def main(A: T.Tensor((N,), "float32"), B: T.Tensor((N,), "float32")):
        with T.Kernel(1, is_npu=True) as (cid, _):
            a = T.alloc_shared((N,), "float32")
            T.copy(A[0:N], a, size=[N])
            T.copy(a, B)

    return main
