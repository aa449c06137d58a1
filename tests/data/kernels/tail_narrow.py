# Upstream's tail-block scheme (TL_ASCEND_TAIL_MASK) on rows narrower than 32
# bytes, as tilelang-ascend's tail_block.py compare_select_tail and
# broadcast_axis1_tail use them, in [4, 8] float32 tiles of 20 columns (the
# last column block has 4 valid columns); c is cleared first so that its
# stores read written bytes only.
# - tail_cmpsel, A and B [8, 20]: mask = A < B packed into a [4, 1] uint8 tile,
#   C = where(A < B, A, B). Upstream rewrites the compare and the select to its
#   tail helpers and gives the mask one 32-byte UB block a row
#   (AscendMemoryPlanning), where DataCopyPad reads the rows of the store to
#   MaskOut [8, 3] from; the unused bits of a row's last byte are 0. (Whole
#   rows: the executor checks a store's UB rows as its region's, and a tail
#   compare writes only the valid ones.)
# - tail_bcast_col, S [5, 3] (the last row block has 1 valid row): column by
#   of S (rows 3 elements apart in GM) into a [4, 1] tile, broadcast along the
#   rows: the tile gets a 32-byte block a row, where DataCopyPad puts each row
#   it loads and tail_broadcast reads it.
# Without those blocks the copies of these 1-byte / 4-byte rows are
# "Unsupported strided sub-32B copy" errors (tilec 694efa2).
import tilelang
import tilelang.language as T

pass_configs = {
    tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True,
    tilelang.PassConfigKey.TL_ASCEND_TAIL_MASK: True,
}


@tilelang.jit(out_idx=[-2, -1], pass_configs=pass_configs)
def tail_cmpsel(M=8, N=20, block_M=4, block_N=8):
    n_num = T.ceildiv(N, block_N)

    @T.prim_func
    def main(
        A: T.Tensor((M, N), "float32"),
        B: T.Tensor((M, N), "float32"),
        C: T.Tensor((M, N), "float32"),
        MaskOut: T.Tensor((M, T.ceildiv(N, 8)), "uint8"),
    ):
        with T.Kernel(T.ceildiv(M, block_M) * n_num, is_npu=True) as (cid, vid):
            bx = cid // n_num
            by = cid % n_num
            a = T.alloc_ub((block_M, block_N), "float32")
            b = T.alloc_ub((block_M, block_N), "float32")
            mask = T.alloc_ub((block_M, block_N // 8), "uint8")
            c = T.alloc_ub((block_M, block_N), "float32")
            with T.Scope("V"):
                if vid == 0:
                    T.tile.fill(c, 0.0)
                    T.copy(A[bx * block_M, by * block_N], a)
                    T.copy(B[bx * block_M, by * block_N], b)
                    T.tile.compare(mask, a, b, "LT")
                    T.tile.select(c, mask, a, b, "VSEL_TENSOR_TENSOR_MODE")
                    T.copy(c, C[bx * block_M, by * block_N])
                    T.copy(mask, MaskOut[bx * block_M, by * (block_N // 8)])

    return main


@tilelang.jit(out_idx=[-1], pass_configs=pass_configs)
def tail_bcast_col(M=5, N=20, block_M=4, block_N=8):
    n_num = T.ceildiv(N, block_N)

    @T.prim_func
    def main(S: T.Tensor((M, n_num), "float32"), C: T.Tensor((M, N), "float32")):
        with T.Kernel(T.ceildiv(M, block_M) * n_num, is_npu=True) as (cid, vid):
            bx = cid // n_num
            by = cid % n_num
            s = T.alloc_ub((block_M, 1), "float32")
            c = T.alloc_ub((block_M, block_N), "float32")
            with T.Scope("V"):
                if vid == 0:
                    T.tile.fill(c, 0.0)
                    T.copy(S[bx * block_M, by], s)
                    T.tile.broadcast(c, s, axis=1)
                    T.copy(c, C[bx * block_M, by * block_N])

    return main
