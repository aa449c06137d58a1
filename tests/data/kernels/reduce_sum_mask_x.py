# Upstream's T.tile.reduce_sum_mask_experiment(dst, src, mask, repeatTime,
# srcRepStride): AscendC's ReduceSum in its high-dimension form, A2/A3's "mode
# two" (exec/tileop_repeat.c): each repeat's first mask lanes as a tree, those
# sums as trees of 256 bytes, then one more tree, into dst[0]. S[0]: 4 repeats
# of float32 A, 50 lanes each, 8 blocks apart; S[8]: 70 overlapping repeats (1
# block apart) of 64 lanes (two groups of repeat sums, then their tree); SH[0]:
# 3 float16 repeats of 100 lanes. The rest keeps the fill's -1.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[2, 3], pass_configs={tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True})
def reduce_sum_mask_x():
    @T.prim_func
    def main(
        A: T.Tensor((640,), "float32"),
        H: T.Tensor((512,), "float16"),
        S: T.Tensor((16,), "float32"),
        SH: T.Tensor((16,), "float16"),
    ):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a = T.alloc_ub((640,), "float32")
            h = T.alloc_ub((512,), "float16")
            s = T.alloc_ub((16,), "float32")
            sh = T.alloc_ub((16,), "float16")
            with T.Scope("V"):
                if vid == 0:
                    T.copy(A[0:640], a)
                    T.copy(H[0:512], h)
                    T.tile.fill(s, -1.0)
                    T.tile.fill(sh, -1.0)
                    T.tile.reduce_sum_mask_experiment(s, a, 50, 4, 8)
                    T.tile.reduce_sum_mask_experiment(s[8:16], a, 64, 70, 1)
                    T.tile.reduce_sum_mask_experiment(sh, h, 100, 3, 8)
                    T.copy(s, S[0:16])
                    T.copy(sh, SH[0:16])

    return main
