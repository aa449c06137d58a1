# A developer-mode "dual-loop" kernel (issue 19; the shape of upstream's
# examples/deepseek_mla/example_mla_decode.py): the cube's loop over the row tiles
# reads B from a workspace that the vector cores' loop, after it, fills (negated),
# and writes the product to a workspace that the same vector loop reads, negates
# back and stores. Upstream pairs the two cores' accesses of each workspace by
# their order (AutoInsertCrossCoreSync), so the two loops run side by side; tilec
# fuses them (dev_order). C = A @ B.
import tilelang
import tilelang.language as T


@tilelang.jit(
    out_idx=[2],
    workspace_idx=[3, 4],
    pass_configs={
        tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True,
        tilelang.PassConfigKey.TL_ASCEND_AUTO_CV_COMBINE: True,
        tilelang.PassConfigKey.TL_ASCEND_AUTO_CV_SYNC: True,
    },
)
def dual_loop(M=96, N=32, K=64, block_M=32):
    tiles = M // block_M
    h = block_M // 2
    kh = K // 2

    @T.prim_func
    def main(
        A: T.Tensor((M, K), "float16"),
        B: T.Tensor((K, N), "float16"),
        C: T.Tensor((M, N), "float32"),
        ws_b: T.Tensor((tiles, K, N), "float16"),
        ws_s: T.Tensor((tiles, block_M, N), "float32"),
    ):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a_l1 = T.alloc_L1((block_M, K), "float16")
            b_l1 = T.alloc_L1((K, N), "float16")
            acc = T.alloc_L0C((block_M, N), "float32")
            b_ub = T.alloc_ub((kh, N), "float16")
            s_ub = T.alloc_ub((h, N), "float32")
            for t in T.serial(tiles):
                T.copy(ws_b[t, :, :], b_l1)
                T.copy(A[t * block_M : t * block_M + block_M, :], a_l1)
                T.gemm_v0(a_l1, b_l1, acc, init=True)
                T.copy(acc, ws_s[t, :, :])
            for t in T.serial(tiles):
                T.copy(B[vid * kh : vid * kh + kh, :], b_ub)
                T.tile.mul(b_ub, b_ub, -1.0)
                T.copy(b_ub, ws_b[t, vid * kh : vid * kh + kh, :])
                T.copy(ws_s[t, vid * h : vid * h + h, :], s_ub)
                T.tile.mul(s_ub, s_ub, -1.0)
                T.copy(s_ub, C[t * block_M + vid * h : t * block_M + vid * h + h, :])

    return main
