# 'acc' carries a sum around the loop's back edge (filled in iteration 0 only)
# and 'b' is used before acc in every iteration; the three buffers only fit when
# b and acc share bytes, which upstream's intervals (first to last access)
# allow. tilec plans it as upstream does, warns that acc is carried, and the
# run shows what the device would compute: b's copy overwrites the sum.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-2, -1], pass_configs={tilelang.PassConfigKey.TL_ASCEND_MEMORY_PLANNING: True,
                                               tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True})
def carried(M=2, N=25600, K=12288):
    @T.prim_func
    def main(A: T.Tensor([M, N], "float32"), S: T.Tensor([M, K], "float32"),
             B: T.Tensor([M, N], "float32"), C: T.Tensor([K], "float32")):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            b = T.alloc_ub([N], "float32")
            acc = T.alloc_ub([K], "float32")
            s = T.alloc_ub([K], "float32")
            for i in T.serial(M):
                T.copy(S[i, :], s)
                T.copy(A[i, :], b)
                T.copy(b, B[i, :])
                if i == 0:
                    T.tile.fill(acc, 0.0)
                T.tile.add(acc, acc, s)
            T.copy(acc, C)

    return main
