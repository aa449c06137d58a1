# AscendC's Sort32 and Gatherb (upstream's T.tile.sort32, T.tile.gatherb):
# S holds A's two groups of 32 scores sorted descending as (score, index)
# records (the index, from I, in the high float's bits; equal scores keep their
# order); GB gathers 16 blocks of 8 floats of G, block k from G's block O[k]
# (spelt T.gatherb, as upstream's examples/elementwise/elementwise_gatherb.py does).
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[4, 5], pass_configs={tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True})
def sort32_gatherb():
    @T.prim_func
    def main(
        A: T.Tensor((64,), "float32"),
        I: T.Tensor((64,), "uint32"),
        G: T.Tensor((64,), "float32"),
        O: T.Tensor((16,), "int32"),
        S: T.Tensor((128,), "float32"),
        GB: T.Tensor((128,), "float32"),
    ):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a = T.alloc_ub((64,), "float32")
            idx = T.alloc_ub((64,), "uint32")
            s = T.alloc_ub((128,), "float32")
            g = T.alloc_ub((64,), "float32")
            o = T.alloc_ub((16,), "int32")
            gb = T.alloc_ub((128,), "float32")
            with T.Scope("V"):
                if vid == 0:
                    T.copy(A[0:64], a)
                    T.copy(I[0:64], idx)
                    T.copy(G[0:64], g)
                    T.copy(O[0:16], o)
                    T.tile.sort32(s, a, idx)
                    T.tile.mul(o, o, 32)
                    T.gatherb(gb, g, o, 2, 1, 8)  # the T-level spelling of T.tile.gatherb
                    T.copy(s, S[0:128])
                    T.copy(gb, GB[0:128])

    return main
