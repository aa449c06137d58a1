# Upstream's T.tile.reduce_sum_experiment(dst, src, count): AscendC's ReduceSum
# of src's first count elements into dst[0] (A2/A3: each 256-byte repeat's
# lanes as a binary tree, the repeats' sums in order; exec/tileop_repeat.c).
# S: 200 float32 of A (3 full repeats of 64 and 8 lanes) into s[0], and 130 of
# A from element 64 (2 repeats and 2 lanes) into s[8], the scratch arena given
# (tmp=, unused); SH: 300 float16 of H (2 repeats of 128 and 44 lanes). The
# other elements keep the fill's -1.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[2, 3], pass_configs={tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True})
def reduce_sum_x():
    @T.prim_func
    def main(
        A: T.Tensor((256,), "float32"),
        H: T.Tensor((384,), "float16"),
        S: T.Tensor((16,), "float32"),
        SH: T.Tensor((16,), "float16"),
    ):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a = T.alloc_ub((256,), "float32")
            h = T.alloc_ub((384,), "float16")
            s = T.alloc_ub((16,), "float32")
            sh = T.alloc_ub((16,), "float16")
            arena = T.alloc_ub((1024,), "uint8")
            with T.Scope("V"):
                if vid == 0:
                    T.copy(A[0:256], a)
                    T.copy(H[0:384], h)
                    T.tile.fill(s, -1.0)
                    T.tile.fill(sh, -1.0)
                    T.tile.reduce_sum_experiment(s, a, 200)
                    T.tile.reduce_sum_experiment(s[8:16], a[64:256], 130, tmp=arena)
                    T.tile.reduce_sum_experiment(sh, h, 300)
                    T.copy(s, S[0:16])
                    T.copy(sh, SH[0:16])

    return main
