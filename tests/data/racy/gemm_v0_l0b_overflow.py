# T.gemm_v0 double-buffers its 128-wide K chunks through the whole L0B: with
# N = 256 in float16 a chunk of B is 64 KiB, two do not fit the 64 KiB L0B
# (upstream issue #1312: large N overflows L0B).
# expect: error scratchpad_overflow @gemm
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def kernel(M=64, N=256, K=256, dtype="float16"):
    @T.prim_func
    def main(A: T.Tensor((M, K), dtype), B: T.Tensor((K, N), dtype),
             C: T.Tensor((M, N), "float32")):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a_l1 = T.alloc_L1((M, K), dtype)
            b_l1 = T.alloc_L1((K, N), dtype)
            c = T.alloc_L0C((M, N), "float32")
            with T.Scope("C"):
                T.copy(A[0, 0], a_l1)
                T.copy(B[0, 0], b_l1)
                T.gemm_v0(a_l1, b_l1, c, init=True)  # @gemm
                T.copy(c, C[0, 0])

    return main
