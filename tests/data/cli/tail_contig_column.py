# Under TL_ASCEND_TAIL_MASK the [4, 1] source of a tail broadcast gets 32
# bytes a row (upstream's AscendMemoryPlanning; tail_broadcast reads row r at
# block r). Here the rows come from a GM tensor one element wide, contiguous
# in GM: upstream's compact-rows copy (common.h at f554c1d, #1777) would move
# them as one burst, not a row per block, so tilec warns that such a build
# would read the wrong rows; it moves each row to its block (the tail_block.py
# kernels load strided columns, which every build moves a row per block).
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1], pass_configs={tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True, tilelang.PassConfigKey.TL_ASCEND_TAIL_MASK: True})
def kernel(M=5, N=8):
    @T.prim_func
    def main(S: T.Tensor((M, 1), "float32"), C: T.Tensor((M, N), "float32")):
        with T.Kernel(T.ceildiv(M, 4), is_npu=True) as (cid, vid):
            s = T.alloc_ub((4, 1), "float32")
            c = T.alloc_ub((4, N), "float32")
            with T.Scope("V"):
                if vid == 0:
                    T.copy(S[cid * 4, 0], s)
                    T.tile.broadcast(c, s, axis=1)
                    T.copy(c, C[cid * 4, 0])

    return main
