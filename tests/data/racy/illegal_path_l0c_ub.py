# An expert kernel that copies the accumulator straight from L0C to UB: on
# A2/A3 the cube and vector cores share no memory, so that path does not
# exist (it goes L0C -> GM workspace -> UB, with a cross-core flag).
# expect: error illegal_path @copy
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def kernel(M=64, N=64, K=64, dtype="float16"):
    @T.prim_func
    def main(A: T.Tensor((M, K), dtype), B: T.Tensor((K, N), dtype),
             C: T.Tensor((M, N), "float32")):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a_l1 = T.alloc_L1((M, K), dtype)
            b_l1 = T.alloc_L1((K, N), dtype)
            c = T.alloc_L0C((M, N), "float32")
            u = T.alloc_ub((M, N), "float32")
            with T.Scope("C"):
                T.copy(A[0, 0], a_l1)
                T.copy(B[0, 0], b_l1)
                T.gemm_v0(a_l1, b_l1, c, init=True)
                T.copy(c, u)  # @copy
            with T.Scope("V"):
                T.copy(u, C[0, 0])

    return main
