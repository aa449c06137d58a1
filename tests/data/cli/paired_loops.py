# Sibling cube and vector loops of one trip count inside a shared loop (the
# shape of sparse_flash_attention rev3's C1 / V1 loops in tilelang-ascend's
# cann-bench): in iteration m the cube writes S into ws_s and reads P back from
# ws_p, which the vector cores' loop writes in its iteration m. Upstream pairs
# the two cores' copies one to one (AutoInsertCrossCoreSync), so the flags sit
# inside both loops; around the whole loops each core would wait for the other.
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
def paired_loops(steps=2, NM=2):
    @T.prim_func
    def main(
        A: T.Tensor((NM, 32, 32), "float16"),
        B: T.Tensor((32, 32), "float16"),
        C: T.Tensor((steps, NM, 32, 32), "float32"),
        ws_s: T.Tensor((NM, 32, 32), "float32"),
        ws_p: T.Tensor((NM, 32, 32), "float16"),
    ):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a_l1 = T.alloc_L1((32, 32), "float16")
            b_l1 = T.alloc_L1((32, 32), "float16")
            p_l1 = T.alloc_L1((32, 32), "float16")
            acc = T.alloc_L0C((32, 32), "float32")
            s_ub = T.alloc_ub((16, 32), "float32")
            p_ub = T.alloc_ub((16, 32), "float16")
            T.copy(B, b_l1)
            for s in T.serial(steps):
                for m in T.serial(NM):
                    T.copy(A[m, :, :], a_l1)
                    T.gemm_v0(a_l1, b_l1, acc, init=True)
                    T.copy(acc, ws_s[m, :, :])
                    T.copy(ws_p[m, :, :], p_l1)
                    T.gemm_v0(p_l1, b_l1, acc, init=True)
                    T.copy(acc, C[s, m, :, :])
                for m in T.serial(NM):
                    T.copy(ws_s[m, vid * 16 : vid * 16 + 16, :], s_ub)
                    T.tile.mul(s_ub, s_ub, 0.5)
                    T.copy(s_ub, p_ub)
                    T.copy(p_ub, ws_p[m, vid * 16 : vid * 16 + 16, :])

    return main
