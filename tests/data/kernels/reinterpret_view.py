# T.reinterpretcast makes its destination a view of the source's memory (issue 19;
# upstream declares `LocalTensor<T> dst = src.ReinterpretCast<T>()`: no instruction,
# and dst names src's bytes to the end of the enclosing block). The cast comes first
# in the loop body; the sum written into c_ub after it is what the copy out of the
# view c_out reads (a copy at the cast would read the previous row's sum). C = A + B.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1], pass_configs={tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True})
def reinterpret_view(M=8, N=64):
    @T.prim_func
    def main(
        A: T.Tensor((M, N), "float32"),
        B: T.Tensor((M, N), "float32"),
        C: T.Tensor((M, N), "float32"),
    ):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a_ub = T.alloc_ub((1, N), "float32")
            b_ub = T.alloc_ub((1, N), "float32")
            c_ub = T.alloc_ub((1, N), "float32")
            c_out = T.alloc_ub((1, N), "float32")
            with T.Scope("V"):
                for r in T.serial(M // 2):  # vector core vid: rows 2 r + vid
                    T.reinterpretcast(c_out, c_ub, "float")
                    T.copy(A[r * 2 + vid : r * 2 + vid + 1, :], a_ub)
                    T.copy(B[r * 2 + vid : r * 2 + vid + 1, :], b_ub)
                    T.tile.add(c_ub, a_ub, b_ub)
                    T.copy(c_out, C[r * 2 + vid : r * 2 + vid + 1, :])

    return main
