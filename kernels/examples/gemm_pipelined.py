# Linear-layer GEMM C = A @ W^T with a software-pipelined K loop.
#
#   A [M, K] dtype (activations), W [N, K] dtype (weights, one row per output
#   feature), C [M, N] dtype; defaults bfloat16 with float32 accumulation.
#   M symbolic, N and K compile-time; any sizes (GM copies clip, K tails are
#   zero-filled), any trip count of the K loop.
#
# Mode: developer (all four pass_configs). The K loop is
# T.Pipelined(num_stages=2): the compiler gives the A and W L1 tiles
# num_stages buffers so that the loads of step k + 1 (MTE2) overlap the
# multiply of step k, adds the prologue and epilogue that keep every
# iteration, and synchronises the stages. The source reads as the plain loop.
#
# Golden: tl_generic_gemm (src/ref/ref.h) with trans_b, acc_prec TL_REF_F32,
# out_prec of dtype.
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
def gemm_pipelined(
    N=4096, K=4096, block_M=128, block_N=256, block_K=64, num_stages=2, dtype="bfloat16"
):
    M = T.symbolic("M")
    n_tiles = T.ceildiv(N, block_N)

    @T.prim_func
    def main(
        A: T.Tensor([M, K], dtype),
        W: T.Tensor([N, K], dtype),
        C: T.Tensor([M, N], dtype),
    ):
        with T.Kernel(T.ceildiv(M, block_M) * n_tiles, is_npu=True) as (cid, _):
            row0 = cid // n_tiles * block_M
            col0 = cid % n_tiles * block_N

            a_tile = T.alloc_shared([block_M, block_K], dtype)
            w_tile = T.alloc_shared([block_N, block_K], dtype)
            acc = T.alloc_fragment([block_M, block_N], "float32")

            for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=num_stages):
                T.copy(A[row0, k * block_K], a_tile)
                T.copy(W[col0, k * block_K], w_tile)
                T.gemm_v0(a_tile, w_tile, acc, transpose_B=True, init=(k == 0))
            T.copy(acc, C[row0, col0])

    return main
