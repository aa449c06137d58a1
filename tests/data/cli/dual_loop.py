# A developer-mode "dual-loop" kernel (the shape of upstream's
# examples/deepseek_mla/example_mla_decode.py): the cube's loop over the tiles
# computes S into ws_s and reads P back from ws_p; the vector cores' loop, after
# it, reads S and writes P. Upstream pairs the two cores' accesses of each
# workspace by their order (AutoInsertCrossCoreSync): the cube's read of ws_p
# waits for the vector cores' write, and the two loops run side by side. tilec
# fuses them. With nested=True the vector cores' loop is two nested loops (the
# same tiles): upstream's pairing runs that too, tilec cannot fuse it and stops
# at the read; with twice=True the cube also reads ws_p a second time, which
# upstream's build rejects (the cores' copies of ws_p differ in number).
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
def dual_loop(tiles=2, nested=False, twice=False):
    @T.prim_func
    def main(
        A: T.Tensor((tiles, 32, 32), "float16"),
        B: T.Tensor((32, 32), "float16"),
        C: T.Tensor((tiles, 32, 32), "float32"),
        ws_s: T.Tensor((tiles, 32, 32), "float32"),
        ws_p: T.Tensor((tiles, 32, 32), "float16"),
    ):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a_l1 = T.alloc_L1((32, 32), "float16")
            b_l1 = T.alloc_L1((32, 32), "float16")
            p_l1 = T.alloc_L1((32, 32), "float16")
            acc = T.alloc_L0C((32, 32), "float32")
            s_ub = T.alloc_ub((16, 32), "float32")
            p_ub = T.alloc_ub((16, 32), "float16")
            T.copy(B, b_l1)
            for t in T.serial(tiles):
                T.copy(A[t, :, :], a_l1)
                T.gemm_v0(a_l1, b_l1, acc, init=True)
                T.copy(acc, ws_s[t, :, :])
                T.copy(ws_p[t, :, :], p_l1)
                if twice:
                    T.copy(ws_p[t, :, :], p_l1)
                T.gemm_v0(p_l1, b_l1, acc, init=True)
                T.copy(acc, C[t, :, :])
            if nested:
                for t2 in T.serial(tiles // 2):
                    for u in T.serial(2):
                        T.copy(ws_s[t2 * 2 + u, vid * 16 : vid * 16 + 16, :], s_ub)
                        T.copy(s_ub, p_ub)
                        T.copy(p_ub, ws_p[t2 * 2 + u, vid * 16 : vid * 16 + 16, :])
            else:
                for t in T.serial(tiles):
                    T.copy(ws_s[t, vid * 16 : vid * 16 + 16, :], s_ub)
                    T.copy(s_ub, p_ub)
                    T.copy(p_ub, ws_p[t, vid * 16 : vid * 16 + 16, :])

    return main
