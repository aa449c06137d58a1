# T.cumsum(src, dst=None, dim=0, reverse=False) (upstream's reduce.py; the
# runtime test of reduce_abssum_absmax_cumsum_issue.py) against a scalar loop
# (ref=True) that adds each element to the running sum before it, in float32
# for float32 as the op does. inplace: no dst (the sums go to src).
import tilelang
import tilelang.language as T


def cumsum(dim=-1, reverse=False, R=8, C=64, dtype="float32", ref=False, inplace=False):
    @T.prim_func
    def main(
        A: T.Tensor((R, C), dtype),
        O: T.Tensor((R, C), dtype),
    ):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a = T.alloc_ub((R, C), dtype)
            o = T.alloc_ub((R, C), dtype)
            if vid == 0:
                T.copy(A, a)
                if ref:
                    T.copy(a, o)
                    if dim == -1 or dim == 1:
                        for i in T.serial(R):
                            for j in T.serial(C - 1):
                                if reverse:
                                    o[i, C - 2 - j] = o[i, C - 2 - j] + o[i, C - 1 - j]
                                else:
                                    o[i, j + 1] = o[i, j + 1] + o[i, j]
                    else:
                        for j in T.serial(R - 1):
                            for i in T.serial(C):
                                if reverse:
                                    o[R - 2 - j, i] = o[R - 2 - j, i] + o[R - 1 - j, i]
                                else:
                                    o[j + 1, i] = o[j + 1, i] + o[j, i]
                    T.copy(o, O)
                elif inplace:
                    T.cumsum(a, dim=dim, reverse=reverse)
                    T.copy(a, O)
                else:
                    T.cumsum(a, o, dim=dim, reverse=reverse)
                    T.copy(o, O)

    return main


def test_cumsum():  # its settings: O the output, auto sync (the check cases, src/check/cases.c)
    tilelang.compile(cumsum(), out_idx=[-1], pass_configs={tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True})
