# npuir's T.reshape and T.arange (@tilelang.jit(target="npuir")):
#   R = A x B reshaped to (1, M, N): a GEMM accumulator (a fragment) reshaped into a vector
#       tile (npuir's reshape: the elements in row-major order), the tile copied out;
#   G[i, j] = 3 + i * 1 + j * 4 (T.arange(g, [1, 4], 3)).
# Integer inputs: exact.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[2, 3], target="npuir")
def npuir_reshape(M=16, N=16, K=32):
    @T.prim_func
    def main(
        A: T.Tensor((M, K), "float16"),
        B: T.Tensor((K, N), "float16"),
        R: T.Tensor((1, M, N), "float32"),
        G: T.Tensor((4, 8), "int32"),
    ):
        with T.Kernel(1, is_npu=True) as (cid, _):
            a = T.alloc_shared((M, K), "float16")
            b = T.alloc_shared((K, N), "float16")
            acc = T.alloc_fragment((M, N), "float32")
            acc3 = T.alloc_shared((1, M, N), "float32")
            T.copy(A, a)
            T.copy(B, b)
            T.gemm(a, b, acc, initC=True)
            T.reshape(acc, acc3)
            T.reshape(acc3, acc3)
            T.copy(acc3, R)
            g = T.alloc_ub((4, 8), "int32")
            T.arange(g, [1, 4], 3)
            T.copy(g, G)

    return main
