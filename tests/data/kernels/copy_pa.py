# T.copy_pa (upstream's paged-KV load into L1): a window of ROWS rows starting
# at logical row S2 of batch B's pages, read through the block table BT (MAXB
# entries per batch) from a paged cache KV of pages of N2 heads x BS rows x D
# columns, head N2I, columns DI .. DI + ACT. The window starts mid-page and
# spans three pages. The tile first holds Z (copy_pa leaves rows >= ROWS and
# columns >= ACT as they are); O = I @ tile (float32, exact) brings it to GM.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[4], pass_configs={tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True})
def copy_pa(P=6, N2=2, BS=16, D=64, R=48, ROWS=40, ACT=48, MAXB=4, B=1, N2I=1, S2=5, DI=8, INIT=True):
    @T.prim_func
    def main(
        KV: T.Tensor((P * N2 * BS, D), "float16"),
        BT: T.Tensor((2 * MAXB,), "int32"),
        Z: T.Tensor((R, D), "float16"),
        I: T.Tensor((R, R), "float16"),
        O: T.Tensor((R, D), "float32"),
    ):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            k_l1 = T.alloc_L1((R, D), "float16")
            i_l1 = T.alloc_L1((R, R), "float16")
            c = T.alloc_L0C((R, D), "float32")
            with T.Scope("C"):
                if INIT:  # INIT=False: the tile's rows >= ROWS are never written (--warn-uninit)
                    T.copy(Z, k_l1)
                T.copy(I, i_l1)
                T.copy_pa(k_l1, KV, BT, BS, N2, D, N2 * BS * D, MAXB, ACT, ROWS, R, B, N2I, S2, DI)
                T.gemm_v0(i_l1, k_l1, c, init=True)
                T.copy(c, O)

    return main
