# Matrix multiply with B stored transposed: C = A @ B^T.
#
#   A [M, K] dtype, B [N, K] dtype (one row per output column, the layout of
#   linear-layer weights), C [M, N] out_dtype; defaults bfloat16 -> float32.
#   M symbolic, N and K compile-time; edge tiles are clipped by the GM copies.
#
# Mode: expert, T.Scope("C") with T.barrier_all() between the loads and the
# multiply of each K step. Both operands are loaded as row-major [rows, K]
# tiles; gemm_v0(transpose_B=True) reads the B tile transposed on its way from
# L1 to L0B, so no transposed copy of B is ever stored.
#
# Golden: tl_generic_gemm (src/ref/ref.h) with trans_b, acc_prec TL_REF_F32,
# out_prec of out_dtype.
import tilelang
import tilelang.language as T

tilelang.cache.clear_cache()


@tilelang.jit(out_idx=[-1])
def gemm_transpose_b(
    N=1024, K=1024, block_M=128, block_N=128, block_K=128, dtype="bfloat16", out_dtype="float32"
):
    M = T.symbolic("M")
    n_num = T.ceildiv(N, block_N)

    @T.prim_func
    def main(
        A: T.Tensor([M, K], dtype),
        B: T.Tensor([N, K], dtype),
        C: T.Tensor([M, N], out_dtype),
    ):
        with T.Kernel(T.ceildiv(M, block_M) * n_num, is_npu=True) as (cid, _):
            m0 = cid // n_num * block_M
            n0 = cid % n_num * block_N

            a_l1 = T.alloc_L1([block_M, block_K], dtype)
            bt_l1 = T.alloc_L1([block_N, block_K], dtype)
            c_l0c = T.alloc_L0C([block_M, block_N], "float32")

            with T.Scope("C"):
                for k in T.serial(T.ceildiv(K, block_K)):
                    T.copy(A[m0 : m0 + block_M, k * block_K : k * block_K + block_K], a_l1)
                    T.copy(B[n0 : n0 + block_N, k * block_K : k * block_K + block_K], bt_l1)
                    T.barrier_all()
                    T.gemm_v0(a_l1, bt_l1, c_l0c, transpose_B=True, init=(k == 0))
                    T.barrier_all()
                T.copy(c_l0c, C[m0 : m0 + block_M, n0 : n0 + block_N])

    return main
