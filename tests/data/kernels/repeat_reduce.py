# AscendC's repeat-form reductions (upstream's T.tile.block_reduce_* and
# T.tile.wholereduce*) on two repeats of 64 float32 lanes (A's two rows):
# BS the 16 sums of 8-element blocks; BM the block maxima with mask 40 (blocks
# 5..7 of each repeat keep no lane: not written, the -1 of the fill stays);
# WS the two row sums; WM each row's [max, index of its first lane] (the index
# a uint32 in the float's bits); WN each row's minimum (ORDER_ONLY_VALUE).
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1, 2, 3, 4, 5], pass_configs={tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True})
def repeat_reduce():
    @T.prim_func
    def main(
        A: T.Tensor((128,), "float32"),
        BS: T.Tensor((16,), "float32"),
        BM: T.Tensor((16,), "float32"),
        WS: T.Tensor((8,), "float32"),
        WM: T.Tensor((8,), "float32"),
        WN: T.Tensor((8,), "float32"),
    ):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a = T.alloc_ub((128,), "float32")
            bs = T.alloc_ub((16,), "float32")
            bm = T.alloc_ub((16,), "float32")
            ws = T.alloc_ub((8,), "float32")
            wm = T.alloc_ub((8,), "float32")
            wn = T.alloc_ub((8,), "float32")
            with T.Scope("V"):
                if vid == 0:
                    T.copy(A[0:128], a)
                    T.tile.fill(bm, -1.0)
                    T.tile.fill(ws, 0.0)
                    T.tile.fill(wm, 0.0)
                    T.tile.fill(wn, 0.0)
                    T.tile.block_reduce_sum(bs, a, 2, 64, 1, 1, 8)
                    T.tile.block_reduce_max(bm, a, 2, 40, 1, 1, 8)
                    T.tile.wholereducesum(ws, a, 64, 2, 1, 1, 8)
                    T.tile.wholereducemax(wm, a, 64, 2, 1, 1, 8)
                    T.tile.wholereducemin(wn, a, 64, 2, 1, 1, 8, "ORDER_ONLY_VALUE")
                    T.copy(bs, BS[0:16])
                    T.copy(bm, BM[0:16])
                    T.copy(ws, WS[0:8])
                    T.copy(wm, WM[0:8])
                    T.copy(wn, WN[0:8])

    return main
