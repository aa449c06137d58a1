# Matrix multiply plus residual, D = A @ B + R, in developer mode.
#
#   A [M, K], B [K, N], R [M, N], D [M, N]  dtype (default float16)
#   M symbolic, N and K compile-time; edge tiles are clipped by the GM copies.
#
# Mode: developer (all four pass_configs, T.Kernel(threads=2)). The body reads
# as one sequential program over a whole [block_M, block_N] tile: the K loop
# accumulates in an L0C fragment, T.copy(c_frag, acc) hands the float32 tile
# straight to the vector side (L0C -> UB; the compiler routes it through a GM
# workspace and adds the cross-core flags), and the vector part widens R, adds
# and rounds with cast-on-copy. The compiler splits the vector part's rows
# between the two vector cores.
#
# Golden: tl_generic_gemm (src/ref/ref.h) with addend = R, acc_prec TL_REF_F32,
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


@tilelang.jit(out_idx=[3], pass_configs=DEV_MODE)
def matmul_add_dev(N=1024, K=1024, block_M=128, block_N=128, block_K=128, dtype="float16"):
    M = T.symbolic("M")
    n_num = T.ceildiv(N, block_N)

    @T.prim_func
    def main(
        A: T.Tensor([M, K], dtype),
        B: T.Tensor([K, N], dtype),
        R: T.Tensor([M, N], dtype),
        D: T.Tensor([M, N], dtype),
    ):
        with T.Kernel(T.ceildiv(M, block_M) * n_num, threads=2, is_npu=True) as cid:
            m0 = cid // n_num * block_M
            n0 = cid % n_num * block_N

            a_s = T.alloc_shared([block_M, block_K], dtype)
            b_s = T.alloc_shared([block_K, block_N], dtype)
            c_frag = T.alloc_fragment([block_M, block_N], "float32")
            acc = T.alloc_shared([block_M, block_N], "float32")
            r_in = T.alloc_shared([block_M, block_N], dtype)
            r_f = T.alloc_shared([block_M, block_N], "float32")
            d_out = T.alloc_shared([block_M, block_N], dtype)

            for k in T.serial(T.ceildiv(K, block_K)):
                T.copy(A[m0, k * block_K], a_s)
                T.copy(B[k * block_K, n0], b_s)
                T.gemm_v0(a_s, b_s, c_frag, init=(k == 0))

            T.copy(c_frag, acc)
            T.copy(R[m0, n0], r_in)
            T.copy(r_in, r_f)
            T.tile.add(acc, acc, r_f)
            T.copy(acc, d_out)
            T.copy(d_out, D[m0, n0])

    return main
