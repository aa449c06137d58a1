# npuir's T.reduce over two axes at once: tilec reduces one axis
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1], target="npuir")
def kernel(M=8, N=64):
    @T.prim_func
    def main(A: T.Tensor((M, N), "float32"), B: T.Tensor((1, 1), "float32")):
        with T.Kernel(1, is_npu=True) as (cid, _):
            a = T.alloc_shared((M, N), "float32")
            b = T.alloc_shared((1, 1), "float32")
            T.copy(A, a)
            T.reduce(a, b, dims=[0, 1], reduce_mode="sum")
            T.copy(b, B)

    return main
