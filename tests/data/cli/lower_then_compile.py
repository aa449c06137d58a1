# A builder a codegen test lowers first (tilelang.lower, no pass configs: the
# source is only printed) and a runtime test compiles with the pass configs it
# runs with (upstream's testing/python/language/
# test_tilelang_ascend_language_copy_row_slice_stride.py): -k takes the
# compile's settings and arguments, so auto sync is on.
import pytest
import torch

import tilelang
import tilelang.language as T

PASS_CONFIGS = {
    tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True,
    tilelang.PassConfigKey.TL_ASCEND_MEMORY_PLANNING: True,
}


def scale(n=32):
    @T.prim_func
    def main(A: T.Tensor((n,), "float32"), B: T.Tensor((n,), "float32")):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a_ub = T.alloc_ub((n,), "float32")
            T.copy(A, a_ub)
            T.tile.mul(a_ub, a_ub, 2.0)
            T.copy(a_ub, B)

    return main


def test_scale_codegen():
    source = tilelang.lower(scale(), target="ascendc").kernel_source
    assert "Muls" in source


@pytest.mark.skipif(not (hasattr(torch, "npu") and torch.npu.is_available()), reason="needs an NPU")
def test_scale_correctness():
    n = 64
    func = tilelang.compile(scale(n), out_idx=[-1], pass_configs=PASS_CONFIGS, target="ascendc")
    a = torch.randn(n).npu()
    torch.testing.assert_close(func(a).cpu(), a.cpu() * 2)
