# A driver that sizes its kernel with tilelang.utils.target.get_core_num and
# compiles it as tilelang.jit(...)(builder)(grid), a call and not a decorator
# (upstream's test_tilelang_ascend_language_cross_core_mode0.py in a fork): the
# harness records grid = 20, upstream's AIC count before the device is initialised.
import tilelang
import tilelang.language as T
import torch
from tilelang.utils.target import get_core_num

PASS_CONFIGS = {tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True}
CORE_NUM = get_core_num("cube")


def _fill_kernel(grid, dtype="float16"):
    @T.prim_func
    def main(Out: T.Tensor([grid * 2, 16], dtype)):
        with T.Kernel(grid, is_npu=True) as (cid, vid):
            buf = T.alloc_ub([16], dtype)
            T.tile.fill(buf, 1.0)
            T.copy(buf, Out[cid * 2 + vid, 0])

    return main


def test_fill():
    func = tilelang.jit(out_idx=[0], pass_configs=PASS_CONFIGS, target="ascendc")(_fill_kernel)(CORE_NUM)
    out = func()
    torch.testing.assert_close(out.sum().item(), CORE_NUM * 32.0)
