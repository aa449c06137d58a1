# A builder lowered with tilelang.lower inside `with tvm.transform.PassContext(
# config=...)` (upstream's testing/python/language codegen tests, e.g.
# parallel/test_tilelang_ascend_language_parallel_compound_unary.py): the
# context's config is the kernel's pass configs.
import pytest
import tvm

import tilelang
import tilelang.language as T

N = 64

PASS_CONFIGS = {
    tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True,
    tilelang.PassConfigKey.TL_ASCEND_MEMORY_PLANNING: True,
}


def scale():
    @T.prim_func
    def main(A: T.Tensor((N,), "float32"), B: T.Tensor((N,), "float32")):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a_ub = T.alloc_ub((N,), "float32")
            T.copy(A, a_ub)
            T.tile.mul(a_ub, a_ub, 2.0)
            T.copy(a_ub, B)

    return main


@pytest.mark.parametrize("target", ["ascendc", "pto"])
def test_scale_codegen(target):
    with tvm.transform.PassContext(opt_level=3, config=PASS_CONFIGS):
        source = tilelang.lower(scale(), target=target).kernel_source
    assert "Muls" in source or "TMULS(" in source
