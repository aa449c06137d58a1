# Upstream's opt-in tail-block scheme (pass config TL_ASCEND_TAIL_MASK; the
# newest tilelang-ascend's AscendTailMaskPropagation). Each block copies a tile
# of A [M, N] into [16, 64] UB tiles: the last block's tile has M - 16 valid
# rows, every tile N = 40 valid columns; the copy fills the gap with 0.
# - exp in place: with the mask, over the valid rectangle only (the gap keeps
#   its 0); without it over the whole tile (the gap becomes 1).
# - RS, RM: row sum of the exp and row max of the copy (dim -1: upstream does
#   not restrict these; RS differs only through the gap the exp left).
# - CS, CM: column sum of the exp and column max of the copy (dim 0, float32,
#   clear: with the mask over the valid rows into the first 40 columns, one
#   float32 add per row; the other columns keep the 7 filled before).
# tail_on and tail_off are the same kernel with the switch on and off.
import tilelang
import tilelang.language as T


def build(M, N):
    @T.prim_func
    def main(
        A: T.Tensor((M, N), "float32"),
        RS: T.Tensor((M,), "float32"),
        RM: T.Tensor((M,), "float32"),
        CS: T.Tensor((2, 64), "float32"),
        CM: T.Tensor((2, 64), "float32"),
    ):
        with T.Kernel(2, is_npu=True) as (cid, vid):
            a = T.alloc_ub((16, 64), "float32")
            b = T.alloc_ub((16, 64), "float32")
            rs = T.alloc_ub((16,), "float32")
            rm = T.alloc_ub((16,), "float32")
            cs = T.alloc_ub((64,), "float32")
            cm = T.alloc_ub((64,), "float32")
            with T.Scope("V"):
                if vid == 0:
                    T.copy(A[cid * 16, 0], a)
                    T.copy(A[cid * 16, 0], b)
                    T.tile.fill(cs, 7.0)
                    T.tile.fill(cm, 7.0)
                    T.tile.exp(a, a)
                    T.reduce_sum(a, rs, dim=-1)
                    T.reduce_max(b, rm, dim=-1)
                    T.reduce_sum(a, cs, dim=0)
                    T.reduce_max(b, cm, dim=0)
                    T.copy(rs, RS[cid * 16])
                    T.copy(rm, RM[cid * 16])
                    T.copy(cs, CS[cid, 0])
                    T.copy(cm, CM[cid, 0])

    return main


@tilelang.jit(
    out_idx=[1, 2, 3, 4],
    pass_configs={tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True, tilelang.PassConfigKey.TL_ASCEND_TAIL_MASK: True},
)
def tail_on(M=20, N=40):
    return build(M, N)


@tilelang.jit(out_idx=[1, 2, 3, 4], pass_configs={tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True})
def tail_off(M=20, N=40):
    return build(M, N)
