# Matrix multiply C = A @ B on the cube core.
#
#   A [M, K], B [K, N], C [M, N]  dtype (default float16), float32 accumulation
#   M, N, K compile-time; any sizes (edge tiles are clipped by the GM copies,
#   the K tail of an L1 tile is zero-filled).
#
# Mode: expert. Everything runs in T.Scope("C"); T.barrier_all() orders the
# pipes by hand: the L1 tiles are loaded (MTE2), a barrier, gemm_v0 consumes
# them (it synchronises its own L1 -> L0 -> cube steps), a barrier so the next
# loads wait for the multiply, and after the K loop L0C is written to GM with
# the float32 -> dtype conversion (FIX). gemm_v0 starts the accumulator with
# init=(k == 0) and accumulates afterwards.
#
# Golden: tl_generic_gemm (src/ref/ref.h), acc_prec TL_REF_F32, out_prec of dtype.
import tilelang
import tilelang.language as T

tilelang.cache.clear_cache()


@tilelang.jit(out_idx=[-1])
def gemm(M=1024, N=1024, K=1024, block_M=128, block_N=256, block_K=64, dtype="float16"):
    m_num = T.ceildiv(M, block_M)
    n_num = T.ceildiv(N, block_N)

    @T.prim_func
    def main(
        A: T.Tensor([M, K], dtype),
        B: T.Tensor([K, N], dtype),
        C: T.Tensor([M, N], dtype),
    ):
        with T.Kernel(m_num * n_num, is_npu=True) as (cid, _):
            m0 = cid // n_num * block_M
            n0 = cid % n_num * block_N

            a_l1 = T.alloc_L1([block_M, block_K], dtype)
            b_l1 = T.alloc_L1([block_K, block_N], dtype)
            c_l0c = T.alloc_L0C([block_M, block_N], "float32")

            with T.Scope("C"):
                for k in T.serial(T.ceildiv(K, block_K)):
                    T.copy(A[m0, k * block_K], a_l1)
                    T.copy(B[k * block_K, n0], b_l1)
                    T.barrier_all()
                    T.gemm_v0(a_l1, b_l1, c_l0c, init=(k == 0))
                    T.barrier_all()
                T.copy(c_l0c, C[m0, n0])

    return main
