# A UB -> GM copy of a runtime row count that is 0 on one vector core moves
# nothing (upstream's sparse-fa nokv_v3 writes its output that way: the second
# half of a tile shorter than 64 rows has no valid rows). Before the fix tilec
# stopped with "whose first 0 elements only are one run".
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1], pass_configs={tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True})
def half_rows(half=8, dim=16):
    n = T.symbolic("n")

    @T.prim_func
    def main(A: T.Tensor([n, 2, dim], "float16"), B: T.Tensor([n, 2, dim], "float16")):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            t = T.alloc_ub([half, dim], "float16")
            valid = T.if_then_else(n >= (vid + 1) * half, half,
                                   T.if_then_else(n > vid * half, n - vid * half, 0))
            with T.Scope("V"):
                T.copy(A[vid * half:vid * half + valid, 1, :], t[0:valid, :])
                T.tile.add(t, t, t)
                T.copy(t[0:valid, :], B[vid * half:vid * half + valid, 1, :])

    return main
