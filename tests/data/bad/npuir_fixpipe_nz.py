# T.store_fixpipe without enable_nz2nd=True writes L0C's fractal NZ layout to its
# destination, a layout tilec does not model
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1], target="npuir")
def kernel(M=16, N=16, K=16):
    @T.prim_func
    def main(A: T.Tensor((M, K), "float16"), B: T.Tensor((K, N), "float16"), C: T.Tensor((M, N), "float32")):
        with T.Kernel(1, is_npu=True) as (cid, _):
            a = T.alloc_L1((M, K), "float16")
            b = T.alloc_L1((K, N), "float16")
            c = T.alloc_L0C((M, N), "float32")
            T.load_nd2nz(A, a)
            T.load_nd2nz(B, b)
            T.gemm(a, b, c, initC=True)
            T.store_fixpipe(c, C)

    return main
