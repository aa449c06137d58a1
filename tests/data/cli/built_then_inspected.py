# A test function that builds its @T.prim_func and then inspects what
# upstream's passes made of it (explicit_tmp.py's tests: tvm.IRModule, a tir
# visitor, `calls[0]` of what it collected): the host code after the kernel
# fails in tilec (it models no TVM pass), the kernel it built is compiled.
# n from tvm.DataType(dtype).itemsize() (explicit_tmp.py's _sort_program).
import tilelang
import tilelang.language as T
from tilelang import tvm


def test_built_then_inspected(dtype="float32", fail_first=False):
    if fail_first:
        [][0]
    n = 256 // tvm.DataType(dtype).itemsize()

    @T.prim_func
    def main(A: T.Tensor((n,), dtype), B: T.Tensor((n,), dtype)):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a = T.alloc_ub((n,), dtype)
            T.copy(A, a)
            T.tile.abs(a, a)
            T.copy(a, B)

    mod = tvm.IRModule.from_expr(main)
    calls = []
    assert calls[0] is not mod
