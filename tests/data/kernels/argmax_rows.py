# The row argmax the way cann-bench's arg_max sort kernel does it (issue 19),
# in an expert-mode kernel without T.Scope: per row, the tile with the largest
# max (a scalar `if` on UB values, which upstream's build runs on every core:
# the AIC only decides which of its no-op vector statements to skip), then that
# tile sorted and gather_mask'ed into 8-element buffers: the pattern keeps
# block_N elements, which run past them into the UB after them, as on the device.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1], pass_configs={tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True,
                                         tilelang.PassConfigKey.TL_ASCEND_MEMORY_PLANNING: True})
def argmax_rows(M=16, N=512, block_N=256):
    tiles = N // block_N
    half = M // 2

    @T.prim_func
    def main(A: T.Tensor((M, N), "float32"), Out: T.Tensor((M, 8), "int32")):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            res = T.alloc_ub((8,), "int32")
            best = T.alloc_ub((8,), "float32")
            where = T.alloc_ub((1,), "int32")
            a = T.alloc_ub((block_N,), "float32")
            peak = T.alloc_ub((1,), "float32")
            pairs = T.alloc_ub((2 * block_N,), "float32")
            vals = T.alloc_ub((8,), "float32")
            idxs = T.alloc_ub((8,), "float32")
            for r in T.serial(half):
                T.tile.fill(res, 0)
                T.tile.fill(best, -T.infinity("float32"))
                T.tile.fill(where, 0)
                for t in T.serial(tiles):
                    T.copy(A[vid * half + r, t * block_N:(t + 1) * block_N], a)
                    T.reduce_max(a, peak, dim=-1, clear=True)
                    if peak[0] > best[0]:
                        best[0] = peak[0]
                        where[0] = t
                start = where[0] * block_N
                T.copy(A[vid * half + r, start:start + block_N], a)
                T.tile.sort(pairs, a, block_N)
                T.tile.gather_mask(vals, pairs, "P0101")
                T.tile.gather_mask(idxs, pairs, "P1010")
                res[0] = start + T.cast(idxs[0], "int32")
                T.copy(res, Out[vid * half + r, 0:8])

    return main
