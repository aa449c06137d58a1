# Compact UB rows (a tile whose rows are not whole 32-byte blocks) move as one
# DataCopyPad burst when the tile's rows are whole and the GM rows follow one
# another (tilelang-ascend #1537: copy_gm_to_ub / copy_ub_to_gm take the UB
# buffer's row pitch and, with realSrcN == dstN == the box's columns, describe
# the rows x cols rectangle as one block). Block b moves rows [b * block,
# b * block + block) of A, the last block clipped at the tensor's edge (its
# box shrinks to the rows left; the tile's other rows get the pad value).
# B: the tile read back element by element into a 32-byte-row tile (-1 past
# the columns), so the load is checked apart from the store; C = 2 A through
# the compact tile, stored with one burst too.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1, 2], pass_configs={tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True})
def copy_compact_rows(rows=10, cols=9, block=4, dtype="float32"):
    wide = (cols + 7) // 8 * 8 if dtype == "float32" else (cols + 15) // 16 * 16

    @T.prim_func
    def main(
        A: T.Tensor((rows, cols), dtype),
        B: T.Tensor((rows, wide), dtype),
        C: T.Tensor((rows, cols), dtype),
    ):
        with T.Kernel(T.ceildiv(rows, block), is_npu=True) as (cid, vid):
            with T.Scope("V"):
                if vid == 0:
                    t = T.alloc_ub((block, cols), dtype)
                    w = T.alloc_ub((block, wide), dtype)
                    T.copy(A[cid * block, 0], t)
                    T.tile.fill(w, -1.0)
                    for r in T.serial(block):
                        for c in T.serial(cols):
                            w[r, c] = t[r, c]
                    T.copy(w, B[cid * block, 0])
                    for r in T.serial(block):
                        for c in T.serial(cols):
                            t[r, c] = t[r, c] + t[r, c]
                    T.copy(t, C[cid * block, 0])

    return main
