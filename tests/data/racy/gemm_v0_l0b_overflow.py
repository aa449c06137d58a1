# T.gemm_v0 double-buffers its 128-wide K chunks through L0B: with B transposed
# the helper does not tile N (upstream PR #1312 tiles N only for B not
# transposed), so with N = 256 in float16 a chunk of B is 64 KiB and two do not
# fit the 64 KiB L0B. (B not transposed: cli/gemm_n_tiles.cli.)
# expect: error scratchpad_overflow @gemm
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def kernel(M=64, N=256, K=256, dtype="float16"):
    @T.prim_func
    def main(A: T.Tensor((M, K), dtype), B: T.Tensor((N, K), dtype),
             C: T.Tensor((M, N), "float32")):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a_l1 = T.alloc_L1((M, K), dtype)
            b_l1 = T.alloc_L1((N, K), dtype)
            c = T.alloc_L0C((M, N), "float32")
            with T.Scope("C"):
                T.copy(A[0, 0], a_l1)
                T.copy(B[0, 0], b_l1)
                T.gemm_v0(a_l1, b_l1, c, transpose_B=True, init=True)  # @gemm
                T.copy(c, C[0, 0])

    return main
