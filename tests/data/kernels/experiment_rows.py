# The ascendc *_experiment vector ops on column slices of a tile, as
# tilelang-ascend's sparse flash MLA uses them, and a cast with a count:
# brcb_experiment of the row maxima into Brcb layout, row_expand_sub
# without a tmp on each 64-column half, exp_experiment on the right half
# only, row_expand_div with a raw (non-Brcb) src1 whose 8 lanes differ, and
# row_expand_mul with a tmp (brcb inside) on the left half; then the first
# 16 columns of every row cast to float16 (count 16 of a 128-element row).
# C[r, j] = (A[r, j] - M[r]) * S[r]                  j < 64
#         = exp(A[r, j] - M[r]) / P[r, j % 8]          j >= 64
# H[r, j] = float16(C[r, j]), j < 16
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-2, -1])
def experiment_rows(R=32, N=128):
    RV = R // 2  # rows per vector core
    BLK = 8  # float32 elements per 32-byte block

    @T.prim_func
    def main(A: T.Tensor((R, N), "float32"), M: T.Tensor((R,), "float32"),
             S: T.Tensor((R,), "float32"), P: T.Tensor((R, BLK), "float32"),
             C: T.Tensor((R, N), "float32"), H: T.Tensor((R, 2 * BLK), "float16")):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a = T.alloc_ub((RV, N), "float32")
            m = T.alloc_ub((RV,), "float32")
            s = T.alloc_ub((RV,), "float32")
            p = T.alloc_ub((RV, BLK), "float32")
            bm = T.alloc_ub((RV, BLK), "float32")
            tmp = T.alloc_ub((RV, BLK), "float32")
            h = T.alloc_ub((RV, 2 * BLK), "float16")
            with T.Scope("V"):
                r0 = vid * RV
                T.copy(A[r0, 0], a)
                T.copy(M[r0], m)
                T.copy(S[r0], s)
                T.copy(P[r0, 0], p)
                T.set_flag("mte2", "v", 0)
                T.wait_flag("mte2", "v", 0)
                T.tile.brcb_experiment(bm, m, RV // 8, 1, 8)
                T.pipe_barrier("v")
                for kc in range(N // 64):
                    T.tile.row_expand_sub_experiment(a[:, kc * 64:kc * 64 + 64],
                                                     a[:, kc * 64:kc * 64 + 64], bm)
                T.pipe_barrier("v")
                T.tile.exp_experiment(a[:, 64:128], a[:, 64:128])
                T.pipe_barrier("v")
                T.tile.row_expand_div_experiment(a[:, 64:128], a[:, 64:128], p)
                T.tile.row_expand_mul_experiment(a[:, 0:64], a[:, 0:64], s, tmp)
                T.pipe_barrier("v")
                for r in range(RV):
                    T.tile.cast(h[r, :], a[r, :], "CAST_RINT", 2 * BLK)
                T.set_flag("v", "mte3", 0)
                T.wait_flag("v", "mte3", 0)
                T.copy(a, C[r0, 0])
                T.copy(h, H[r0, 0])

    return main
