# The lightning indexers' top-k path: T.tile.sort of two score lists (the
# first 50 of 64 scores: the rest sorted as -inf), merge_sort of the two
# (value, position) lists, gather_mask of the merged values (P0101) and
# positions (P1010), arith_progression, mul_add_dst (Acc = P * P + C) and a
# compare with a scalar and a select of a scalar (Sel = P < 8 ? P : -inf).
# fill: the elements of a UB buffer C passes through; at 48000 it leaves the
# PTO target no UB for its op scratch (the lightning indexers' case).
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[2, 3, 4, 5, 6], pass_configs={tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True})
def sort_merge(actual=50, fill=64):
    @T.prim_func
    def main(
        S: T.Tensor((128,), "float32"),
        C: T.Tensor((64,), "float32"),
        Merged: T.Tensor((256,), "float32"),
        Vals: T.Tensor((128,), "float32"),
        Pos: T.Tensor((128,), "float32"),
        Acc: T.Tensor((64,), "float32"),
        Sel: T.Tensor((64,), "float32"),
    ):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            sa = T.alloc_ub((64,), "float32")
            sb = T.alloc_ub((64,), "float32")
            pa = T.alloc_ub((128,), "float32")
            pb = T.alloc_ub((128,), "float32")
            merged = T.alloc_ub((256,), "float32")
            vals = T.alloc_ub((128,), "float32")
            pos = T.alloc_ub((128,), "float32")
            prog = T.alloc_ub((64,), "float32")
            acc = T.alloc_ub((64,), "float32")
            mask = T.alloc_ub((8,), "uint8")
            sel = T.alloc_ub((64,), "float32")
            big = T.alloc_ub((fill,), "float32")
            with T.Scope("V"):
                if vid == 0:
                    T.copy(S[0:64], sa)
                    T.copy(S[64:128], sb)
                    T.copy(C[0:64], big[0:64])
                    T.copy(big[0:64], acc)
                    T.tile.sort(pa, sa, actual)
                    T.tile.sort(pb, sb, 64)
                    T.tile.merge_sort(merged, pa, pb)
                    T.tile.gather_mask(vals, merged, "P0101")
                    T.tile.gather_mask(pos, merged, "P1010")
                    T.tile.arith_progression(prog, 0.5, 0.25, 64)
                    T.tile.mul_add_dst(acc, prog, prog)
                    T.tile.compare(mask, prog, 8.0, "LT")
                    T.tile.select(sel, mask, prog, -T.infinity("float32"), "VSEL_TENSOR_SCALAR_MODE")
                    T.copy(merged, Merged[0:256])
                    T.copy(vals, Vals[0:128])
                    T.copy(pos, Pos[0:128])
                    T.copy(acc, Acc[0:64])
                    T.copy(sel, Sel[0:64])

    return main
