# npuir's T.reduce_max(buffer, out, dim, size, clear): the 4th parameter is an
# extent override tilec does not support (an Ascend C kernel's 4th is clear)
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1], target="npuir")
def kernel(M=8, N=64):
    @T.prim_func
    def main(A: T.Tensor((M, N), "float32"), B: T.Tensor((M, 1), "float32")):
        with T.Kernel(1, is_npu=True) as (cid, _):
            a = T.alloc_shared((M, N), "float32")
            b = T.alloc_shared((M, 1), "float32")
            T.copy(A, a)
            T.reduce_max(a, b, 1, [M, N])
            T.copy(b, B)

    return main
