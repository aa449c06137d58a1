# Upstream's opt-in tail-block scheme (pass config TL_ASCEND_TAIL_MASK, newest
# tilelang-ascend: AscendTailMaskPropagation): after a copy of a partial tile
# (the second block has 16 of 32 rows) the add computes the valid rows only,
# row by row (pass tail_mask); the broadcast from r, one valid element of a
# [32, 1] tile, fills b's first row only.
import tilelang
import tilelang.language as T

pass_configs = {
    tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True,
    tilelang.PassConfigKey.TL_ASCEND_TAIL_MASK: True,
}


@tilelang.jit(out_idx=[-1], pass_configs=pass_configs)
def tail_add(M=48, N=64, block_M=32):
    @T.prim_func
    def main(A: T.Tensor((M, N), "float"), B: T.Tensor((M, N), "float"), C: T.Tensor((M, N), "float")):
        with T.Kernel(T.ceildiv(M, block_M), is_npu=True) as (cid, vid):
            a = T.alloc_ub((block_M, N), "float")
            b = T.alloc_ub((block_M, N), "float")
            r = T.alloc_ub((block_M, 1), "float")
            with T.Scope("V"):
                T.copy(A[cid * block_M, 0], a)
                T.copy(B[cid * block_M, 0], b)
                T.tile.add(a, a, b)
                T.copy(A[cid * block_M, 0:1], r)
                T.tile.broadcast(b, r)
                T.copy(a, C[cid * block_M, 0])

    return main


# A 1-D box copied into a column tile [32, 1] leaves a record of 1 row of 32
# columns in a tile 1 wide: upstream's helper then runs the 32 elements from
# the tile's start, the whole tile, so the op stays as it is.
@tilelang.jit(out_idx=[-1], pass_configs=pass_configs)
def tail_column(M=64):
    @T.prim_func
    def main(S: T.Tensor((M,), "float"), C: T.Tensor((M,), "float")):
        with T.Kernel(2, is_npu=True) as (cid, vid):
            c = T.alloc_ub((32, 1), "float")
            with T.Scope("V"):
                T.copy(S[cid * 32 : cid * 32 + 32], c)
                T.tile.mul(c, c, 2.0)
                T.copy(c, C[cid * 32 : cid * 32 + 32])

    return main
