# T.tile.broadcast's dtype and shape rules are compile errors (upstream's
# tile_broadcast_dtype_coverage negative tests: "Compilation Failed" for a dtype
# mismatch, a DiagnosticError while building the TIR for shapes that do not
# broadcast). Before, only running the kernel reported them. The negative test
# defines its kernel inside `with pytest.raises(...)` and returns nothing.
import pytest

import tilelang.language as T


def bcast(src_dtype="float32", rows=1, axis=0):
    @T.prim_func
    def main(A: T.Tensor((rows, 64), src_dtype), B: T.Tensor((8, 64), "float32")):
        with T.Kernel(1, is_npu=True) as (_, vid):
            src_ub = T.alloc_ub((rows, 64), src_dtype)
            dst_ub = T.alloc_ub((8, 64), "float32")
            if vid == 0:
                T.copy(A, src_ub)
                T.tile.broadcast(dst_ub, src_ub, axis=axis)
                T.copy(dst_ub, B)

    return main


def test_shape_mismatch_raises():
    with pytest.raises(RuntimeError, match="DiagnosticError"):

        @T.prim_func
        def main(A: T.Tensor((4,), "float32"), B: T.Tensor((8, 16), "float32")):
            with T.Kernel(1, is_npu=True) as (_, vid):
                src_ub = T.alloc_ub((4,), "float32")
                dst_ub = T.alloc_ub((8, 16), "float32")
                T.copy(A, src_ub)
                T.tile.broadcast(dst_ub, src_ub)
                T.copy(dst_ub, B)
