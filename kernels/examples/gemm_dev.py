# Matrix multiply C = A @ B written in developer mode.
#
#   A [M, K], B [K, N], C [M, N]  dtype (default float16), float32 accumulation
#   M symbolic, N and K compile-time; edge tiles are clipped by the GM copies.
#
# Mode: developer (all four pass_configs). The body has no scopes and no
# synchronisation: buffers come from alloc_shared / alloc_fragment and the
# compiler places them (A and B tiles in L1 because gemm_v0 reads them, C in
# L0C because gemm_v0 accumulates into it), assigns every statement to the cube,
# inserts the pipe flags and plans the scratchpad addresses.
#
# Golden: tl_generic_gemm (src/ref/ref.h), acc_prec TL_REF_F32, out_prec of dtype.
import tilelang
import tilelang.language as T

tilelang.cache.clear_cache()

DEV_MODE = {
    tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True,
    tilelang.PassConfigKey.TL_ASCEND_MEMORY_PLANNING: True,
    tilelang.PassConfigKey.TL_ASCEND_AUTO_CV_COMBINE: True,
    tilelang.PassConfigKey.TL_ASCEND_AUTO_CV_SYNC: True,
}


@tilelang.jit(out_idx=[-1], pass_configs=DEV_MODE)
def gemm_dev(N=1024, K=1024, block_M=128, block_N=128, block_K=128, dtype="float16"):
    M = T.symbolic("M")
    n_num = T.ceildiv(N, block_N)

    @T.prim_func
    def main(
        A: T.Tensor([M, K], dtype),
        B: T.Tensor([K, N], dtype),
        C: T.Tensor([M, N], dtype),
    ):
        with T.Kernel(T.ceildiv(M, block_M) * n_num, is_npu=True) as (cid, _):
            m0 = cid // n_num * block_M
            n0 = cid % n_num * block_N

            a_s = T.alloc_shared([block_M, block_K], dtype)
            b_s = T.alloc_shared([block_K, block_N], dtype)
            c_f = T.alloc_fragment([block_M, block_N], "float32")

            for k in T.serial(T.ceildiv(K, block_K)):
                T.copy(A[m0, k * block_K], a_s)
                T.copy(B[k * block_K, n0], b_s)
                T.gemm_v0(a_s, b_s, c_f, init=(k == 0))
            T.copy(c_f, C[m0, n0])

    return main
