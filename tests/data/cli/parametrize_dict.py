# @pytest.mark.parametrize over a dict (pytest iterates its keys), as upstream's
# testing/python/language/parallel/test_tilelang_ascend_language_parallel_
# compound_unary.py does with its {op_name: lambda} table: the test's first
# case gives the builder its arguments (op_name "exp").
import pytest

import tilelang
import tilelang.language as T

N = 64

UNARY_OPS = {
    "exp": lambda value: T.exp(value),
    "abs": lambda value: T.abs(value),
}


def unary(op_name):
    op = UNARY_OPS[op_name]

    @T.prim_func
    def main(A: T.Tensor((N,), "float32"), B: T.Tensor((N,), "float32")):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a_ub = T.alloc_ub((N,), "float32")
            b_ub = T.alloc_ub((N,), "float32")
            T.copy(A, a_ub)
            for i in T.Parallel(N):
                b_ub[i] = op(a_ub[i])
            T.copy(b_ub, B)

    return main


@pytest.mark.parametrize("op_name", UNARY_OPS)
def test_unary(op_name):
    tilelang.compile(unary(op_name), out_idx=[-1], target="ascendc")
