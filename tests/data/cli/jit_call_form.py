# A builder that a test wraps with tilelang.jit(...) as a call, not as a
# decorator (upstream's test_tilelang_ascend_language_cross_core_mode0.py in a
# fork): -k on the builder takes that call's out_idx, pass configs and
# arguments, so auto sync is on; without them the simulator reported the
# unsynchronised pipes. The size comes from tilelang.utils.target.get_core_num.
import pytest
import torch

import tilelang
import tilelang.language as T
from tilelang.utils.target import get_core_num

PASS_CONFIGS = {
    tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True,
    tilelang.PassConfigKey.TL_ASCEND_MEMORY_PLANNING: True,
}

VEC = get_core_num("AIV")


def scale(n):
    @T.prim_func
    def main(A: T.Tensor((n,), "float32"), B: T.Tensor((n,), "float32")):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a_ub = T.alloc_ub((n,), "float32")
            T.copy(A, a_ub)
            T.tile.mul(a_ub, a_ub, 2.0)
            T.copy(a_ub, B)

    return main


def unknown_kind():
    return scale(get_core_num("gpu"))


@pytest.mark.parametrize("target", ["ascendc"])
def test_scale(target):
    func = tilelang.jit(out_idx=[1], pass_configs=PASS_CONFIGS, target=target)(scale)(VEC)
    a = torch.randn(VEC).npu()
    torch.testing.assert_close(func(a).cpu(), a.cpu() * 2)
