# A GM -> UB copy into a column slice whose width is known only at run time
# (upstream's sparse_flash_mla: workspace_s[..., 0:tw] -> in_ub[ps, :, 0:tw]).
# A runtime extent cannot be a template argument, so upstream's lowering gives
# DataCopyPad the buffer's width: the rows land at the buffer's pitch and the
# Duplicate of the pad value (0) covers the buffer's whole rows, the gap past
# the n columns included (it overwrites the -1 fill).
# Out[r, c] = A[r, c] for c < n = Len[0], else 0; each vector core does half.
# store=True: the store back is of run-time rows and columns too
# (upstream's merge_ub[pp, 0:bcnt, :], out_ub[:, 0:tw_a]): over Out filled with
# -1, only its first m = min(n // 8 + 1, half) rows of each half, n columns.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[2], pass_configs={tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True})
def copy_runtime_width(rows=8, width=64, store=False):
    half = rows // 2

    @T.prim_func
    def main(
        A: T.Tensor([rows, width], "float32"),
        Len: T.Tensor([1], "int32"),
        Out: T.Tensor([rows, width], "float32"),
    ):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a_ub = T.alloc_ub([half, width], "float32")
            T.tile.fill(a_ub, -1.0)
            n = Len[0]
            if store:
                T.copy(a_ub, Out[vid * half:vid * half + half, :])
            T.copy(A[vid * half:vid * half + half, 0:n], a_ub[:, 0:n])
            if store:
                m = T.min(n // 8 + 1, half)
                T.copy(a_ub[0:m, 0:n], Out[vid * half:vid * half + m, 0:n])
            else:
                T.copy(a_ub, Out[vid * half:vid * half + half, :])

    return main
