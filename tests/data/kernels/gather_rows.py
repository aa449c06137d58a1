# Rows of a GM table picked by indices a vector core first copies into UB and
# then reads element by element as copy offsets (the gather of upstream's
# developer_mode/sparse_flash_attn_developer*.py: KV[b, indices_ub_[i], g, :]).
# Out[c, i, :] = KV[Idx[c, i], :]; each vector core gathers half of the rows.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[2], pass_configs={tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True})
def gather_rows(rows=64, width=64, picks=8):
    @T.prim_func
    def main(
        KV: T.Tensor([rows, width], "float16"),
        Idx: T.Tensor([2, picks], "int32"),
        Out: T.Tensor([2, picks, width], "float16"),
    ):
        with T.Kernel(2, is_npu=True) as (cid, vid):
            idx_ub = T.alloc_ub([picks], "int32")
            row_ub = T.alloc_ub([width], "float16")
            T.copy(Idx[cid, 0:picks], idx_ub)
            for i in range(picks // 2):
                T.copy(KV[idx_ub[i + vid * picks // 2], :], row_ub)
                T.copy(row_ub, Out[cid, i + vid * picks // 2, :])

    return main
