# Imports a helper module with a syntax error (docs/language.md, imports).
import tilelang
import tilelang.language as T
from import_helper_syntax import Y


@tilelang.jit(out_idx=[-1])
def f(M=16, N=64):
    assert Y == 3

    @T.prim_func
    def main(A: T.Tensor([M, N], "float32"), B: T.Tensor([M, N], "float32")):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a = T.alloc_ub([M, N], "float32")
            with T.Scope("V"):
                T.copy(A, a)
                T.copy(a, B)

    return main
