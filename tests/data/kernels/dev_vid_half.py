# Developer-mode hand-offs between a vector core's half tile and a whole cube tile
# (issue 19, upstream's examples/developer_mode/gemm_develop_test.py): with UB tiles of
# block_M / 2 rows, T.copy(a_ub, a_l1) puts vector core vid's rows at [vid * h, vid * h + h)
# of the L1 tile and T.copy(c_l0, c_ub) gives it those rows of L0C, as upstream's
# VidReduction / WorkspaceReduction passes do (the hand-off workspace holds one UB tile
# per vector core). A is negated on the way through UB and C on the way out: C = A @ B.
import tilelang
import tilelang.language as T


@tilelang.jit(
    out_idx=[-1],
    pass_configs={
        tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True,
        tilelang.PassConfigKey.TL_ASCEND_AUTO_CV_COMBINE: True,
        tilelang.PassConfigKey.TL_ASCEND_AUTO_CV_SYNC: True,
    },
)
def dev_vid_half(M=64, N=64, K=96, block_M=32, block_N=32, block_K=32):
    m_num = M // block_M
    n_num = N // block_N
    h = block_M // 2

    @T.prim_func
    def main(
        A: T.Tensor((M, K), "float16"),
        B: T.Tensor((K, N), "float16"),
        C: T.Tensor((M, N), "float32"),
    ):
        with T.Kernel(m_num * n_num, is_npu=True) as (cid, vid):
            bm = cid // n_num
            bn = cid % n_num
            a_ub = T.alloc_ub((h, block_K), "float16")
            a_l1 = T.alloc_L1((block_M, block_K), "float16")
            b_l1 = T.alloc_L1((block_K, block_N), "float16")
            c_l0 = T.alloc_L0C((block_M, block_N), "float32")
            c_ub = T.alloc_ub((h, block_N), "float32")
            for k in T.serial(K // block_K):
                T.copy(A[bm * block_M + vid * h, k * block_K], a_ub)
                T.tile.mul(a_ub, a_ub, -1.0)
                T.copy(a_ub, a_l1)
                T.copy(B[k * block_K, bn * block_N], b_l1)
                T.gemm_v0(a_l1, b_l1, c_l0, init=(k == 0))
            T.copy(c_l0, c_ub)
            T.tile.mul(c_ub, c_ub, -1.0)
            T.copy(c_ub, C[bm * block_M + vid * h, bn * block_N])

    return main
