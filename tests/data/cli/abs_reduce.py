# T.reduce_abssum / T.reduce_absmax (upstream's reduce.py; the runtime test of
# reduce_abssum_absmax_cumsum_issue.py) against the same reduction of a
# T.tile.abs copy (ref=True): one result per row (dim -1) or per column (dim 0).
import tilelang
import tilelang.language as T


def abs_reduce(op="abssum", dim=-1, R=8, C=64, dtype="float32", ref=False, clear=True):
    out = R if dim in (-1, 1) else C

    @T.prim_func
    def main(
        A: T.Tensor((R, C), dtype),
        O: T.Tensor((out,), dtype),
    ):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a = T.alloc_ub((R, C), dtype)
            t = T.alloc_ub((R, C), dtype)
            o = T.alloc_ub((out,), dtype)
            if vid == 0:
                T.copy(A, a)
                if ref:
                    T.tile.abs(t, a)
                    if op == "abssum":
                        T.reduce_sum(t, o, dim=dim)
                    else:
                        T.reduce_max(t, o, dim=dim)
                elif op == "abssum":
                    T.reduce_abssum(a, o, dim=dim)
                elif op == "abssum_clear":
                    T.reduce_abssum(a, o, dim=dim, clear=clear)
                elif clear:
                    T.reduce_absmax(a, o, dim=dim)
                else:
                    T.reduce_absmax(a, o, dim, clear)
                T.copy(o, O)

    return main


def test_abs_reduce():  # its settings: O the output, auto sync (the check cases, src/check/cases.c)
    tilelang.compile(abs_reduce(), out_idx=[-1], pass_configs={tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True})
