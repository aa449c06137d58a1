# T.gemm_v0 with B not transposed and a kL0Size x N tile past half of L0B (here
# 64 x 512 float16 = 64 KB): the newest helper tiles N (nTile = 32 KB / (kL0Size *
# size) = 256), as the newest MLA decode examples need (P @ V with N = dv = 512).
# With B transposed it does not tile, and the double buffer overruns L0B.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def kernel(M=32, N=512, K=256, kL0=64, tb=False, dtype="float16"):
    b_shape = (N, K) if tb else (K, N)

    @T.prim_func
    def main(A: T.Tensor((M, K), dtype), B: T.Tensor(b_shape, dtype), C: T.Tensor((M, N), "float32")):
        with T.Kernel(1, is_npu=True) as (cid, _):
            A_L1 = T.alloc_L1((M, K), dtype)
            B_L1 = T.alloc_L1(b_shape, dtype)
            C_L0 = T.alloc_L0C((M, N), "float")
            with T.Scope("C"):
                T.copy(A[0, 0], A_L1)
                T.copy(B[0, 0], B_L1)
                T.barrier_all()
                T.gemm_v0(A_L1, B_L1, C_L0, False, tb, True, kL0)
                T.barrier_all()
                T.copy(C_L0, C[0, 0])

    return main
